/*
 * ddpm.c — the GRH Marking Field, deterministic port marking on fat trees and
 * deterministic distance packet marking (DDPM) on meshes, tori and
 * hypercubes (TPDS 2007 §5.4).  See ddpm.h for the bit layout.
 *
 * The MF is handled as one 38-bit integer; a field is a shift and a mask of
 * it, which is how the RTL slices its register.  Every field update is
 * independent of the others, so the RTL adds all dimensions in parallel.
 */
#include "ddpm.h"

#include "crc.h"

const char *ibsec_ddpm_out_name(enum ibsec_ddpm_out o)
{
    static const char *const names[IBSEC_DDPM_OUT_COUNT] = {
        "marked", "source_found", "no_grh", "off_site", "overflow", "poisoned", "bad_mark",
        "out_of_network", "bad_hop", "bad_pktlen", "truncated", "bad_lnh", "bad_lver", "bad_grh",
    };
    return ((unsigned)o < IBSEC_DDPM_OUT_COUNT) ? names[o] : "?";
}

const char *ibsec_ddpm_cfg_err_name(enum ibsec_ddpm_cfg_err e)
{
    static const char *const names[IBSEC_DDPM_CFG_COUNT] = { "ok", "bad_arg", "too_large" };
    return ((unsigned)e < IBSEC_DDPM_CFG_COUNT) ? names[e] : "?";
}

const char *ibsec_topo_name(enum ibsec_topo t)
{
    static const char *const names[IBSEC_TOPO_COUNT] = { "mesh", "torus", "hypercube", "fattree" };
    return ((unsigned)t < IBSEC_TOPO_COUNT) ? names[t] : "?";
}

/* ---- configuration (TPDS Tables 2 and 3) ----------------------------------- */

/* Bits needed to number k ports: ceil(log2 k). */
static unsigned bits_for(uint32_t k)
{
    unsigned b = 0;
    while (b < 32 && (1ull << b) < k)
        b++;
    return b;
}

static enum ibsec_ddpm_cfg_err configure_grid(struct ibsec_ddpm_cfg *cfg, const uint32_t *radix)
{
    cfg->w = cfg->mf_bits / cfg->ndims;
    if (cfg->w < 2)
        return IBSEC_DDPM_CFG_TOO_LARGE;
    for (unsigned i = 0; i < cfg->ndims; i++) {
        if (radix[i] < 2)
            return IBSEC_DDPM_CFG_BAD_ARG;
        /* |V_i| <= radix-1 must fit w-bit two's complement without its most
         * negative value, which is the poison code. */
        if ((uint64_t)radix[i] > (1ull << (cfg->w - 1)))
            return IBSEC_DDPM_CFG_TOO_LARGE;
        cfg->radix[i] = radix[i];
    }
    return IBSEC_DDPM_CFG_OK;
}

enum ibsec_ddpm_cfg_err ibsec_ddpm_configure(struct ibsec_ddpm_cfg *cfg, enum ibsec_topo topo,
                                             unsigned ndims, const uint32_t *radix,
                                             unsigned mf_bits)
{
    if (mf_bits == 0)
        mf_bits = IBSEC_MF_BITS;
    if (mf_bits > IBSEC_MF_BITS || ndims == 0 || (unsigned)topo >= IBSEC_TOPO_COUNT)
        return IBSEC_DDPM_CFG_BAD_ARG;
    cfg->topo = topo;
    cfg->ndims = ndims;
    cfg->mf_bits = mf_bits;
    if (ndims > IBSEC_DDPM_MAX_DIMS)
        return IBSEC_DDPM_CFG_TOO_LARGE;
    switch (topo) {
    case IBSEC_TOPO_MESH:
    case IBSEC_TOPO_TORUS:
        return configure_grid(cfg, radix);
    case IBSEC_TOPO_HYPERCUBE:
        cfg->w = 1;
        for (unsigned i = 0; i < ndims; i++)
            cfg->radix[i] = 2;
        return ndims <= mf_bits ? IBSEC_DDPM_CFG_OK : IBSEC_DDPM_CFG_TOO_LARGE;
    default: /* fat tree: ndims levels of radix[0] down-ports */
        if (radix[0] < 2)
            return IBSEC_DDPM_CFG_BAD_ARG;
        cfg->radix[0] = radix[0];
        cfg->w = bits_for(radix[0]);
        return ndims * cfg->w <= mf_bits ? IBSEC_DDPM_CFG_OK : IBSEC_DDPM_CFG_TOO_LARGE;
    }
}

/* ---- the MF in the GRH (TPDS §5.4.1, Fig. 4) ------------------------------- */

uint64_t ibsec_mf_get(const uint8_t *grh)
{
    uint64_t hi = grh[IBSEC_MF_GRH_BYTE_HI] & IBSEC_MF_HI_MASK;
    return hi << 32 | ibsec_get_be32(grh + IBSEC_MF_GRH_BYTE_LO);
}

void ibsec_mf_put(uint8_t *grh, uint64_t mf)
{
    uint8_t keep = (uint8_t)(grh[IBSEC_MF_GRH_BYTE_HI] & ~IBSEC_MF_HI_MASK);
    grh[IBSEC_MF_GRH_BYTE_HI] = (uint8_t)(keep | ((mf >> 32) & IBSEC_MF_HI_MASK));
    ibsec_put_be32(grh + IBSEC_MF_GRH_BYTE_LO, (uint32_t)mf);
}

#define GRH_DGID_OFF 24u /* IBA §8.3: DGID is GRH bytes 24..39 */

bool ibsec_mf_in_site(const uint8_t *grh)
{
    unsigned prefix = (unsigned)ibsec_get_be16(grh + GRH_DGID_OFF) >> (16 - IBSEC_DGID_PREFIX_BITS);
    return prefix == IBSEC_DGID_LINK_LOCAL || prefix == IBSEC_DGID_SITE_LOCAL;
}

/* ---- field access ----------------------------------------------------------- */

static uint64_t low_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Fields are up to 38 bits wide (a one-dimensional mesh or torus), so they are
 * handled as 64-bit values; i * w < 64 for every field of a configured network. */
static uint64_t field_raw(uint64_t mf, unsigned i, unsigned w)
{
    return (mf >> (i * w)) & low_mask(w);
}

static uint64_t field_set(uint64_t mf, unsigned i, unsigned w, uint64_t raw)
{
    uint64_t m = low_mask(w) << (i * w);
    return (mf & ~m) | ((raw << (i * w)) & m);
}

/* w-bit two's complement <-> integer. */
static int64_t field_signed(uint64_t raw, unsigned w)
{
    return (raw & (1ull << (w - 1))) ? (int64_t)raw - (int64_t)(1ull << w) : (int64_t)raw;
}

static uint64_t signed_raw(int64_t v, unsigned w)
{
    return (uint64_t)v & low_mask(w);
}

/* Poison code of a mesh/torus MF: field 0 = 2^(w-1) (-2^(w-1) in a mesh, a
 * value >= radix in a torus): no valid mark holds it. */
static uint64_t poison_raw(const struct ibsec_ddpm_cfg *cfg)
{
    return 1ull << (cfg->w - 1);
}

/* Hypercube poison: bit ndims, when the MF has room for it. */
static bool cube_has_poison_bit(const struct ibsec_ddpm_cfg *cfg)
{
    return cfg->ndims < cfg->mf_bits;
}

/* ---- packet access ---------------------------------------------------------- */

static enum ibsec_ddpm_out hdr_outcome(enum ibsec_sw_hdr_err e)
{
    switch (e) {
    case IBSEC_SW_HDR_BAD_LNH:  return IBSEC_DDPM_BAD_LNH;
    case IBSEC_SW_HDR_BAD_LVER: return IBSEC_DDPM_BAD_LVER;
    case IBSEC_SW_HDR_BAD_GRH:  return IBSEC_DDPM_BAD_GRH;
    default:                    return IBSEC_DDPM_TRUNCATED;
    }
}

/* Locate a markable GRH; MARKED means "go ahead". */
static enum ibsec_ddpm_out find_mf(const uint8_t *buf, size_t len, struct ibsec_sw_hdr *h)
{
    enum ibsec_sw_hdr_err e = ibsec_sw_hdr_read(buf, len, h);
    if (e != IBSEC_SW_HDR_OK)
        return hdr_outcome(e);
    if (!h->has_grh)
        return IBSEC_DDPM_NO_GRH;
    if (!ibsec_mf_in_site(buf + h->grh_off))
        return IBSEC_DDPM_OFF_SITE;
    return IBSEC_DDPM_MARKED;
}

/* IBA §7.7.8: PktLen counts 4-byte words from the LRH through the ICRC; the
 * 2-byte VCRC follows. */
static bool whole_packet(const struct ibsec_sw_hdr *h, size_t len)
{
    return (size_t)h->lrh.pktlen * 4u + IBSEC_VCRC_LEN == len;
}

/* Write the MF bits [0, mf_bits) of `mf` (bits above stay) and the VCRC
 * (IBA §7.8.2: LRH .. ICRC, LSB first), which every hop recomputes. */
static void store_mf(const struct ibsec_ddpm_cfg *cfg, uint8_t *buf, size_t len,
                     const struct ibsec_sw_hdr *h, uint64_t mf)
{
    uint64_t old = ibsec_mf_get(buf + h->grh_off);
    uint64_t m = low_mask(cfg->mf_bits);
    ibsec_mf_put(buf + h->grh_off, (old & ~m) | (mf & m));
    uint16_t v = ibsec_crc16(buf, len - IBSEC_VCRC_LEN);
    buf[len - 2] = (uint8_t)(v & 0xFFu);
    buf[len - 1] = (uint8_t)(v >> 8);
}

/* ---- DDPM at a switch (Algorithm 2: V' = V + (Y - X)) ---------------------- */

/* A hop moves along at most one link: one dimension by one (hypercube: one bit). */
static bool hop_is_one_link(const struct ibsec_ddpm_cfg *cfg, const struct ibsec_ddpm_hop *hop)
{
    unsigned moved = 0;
    for (unsigned i = 0; i < cfg->ndims; i++) {
        int32_t d = hop->delta[i];
        if (cfg->topo == IBSEC_TOPO_HYPERCUBE ? (d != 0 && d != 1) : (d < -1 || d > 1))
            return false;
        moved += (d != 0);
    }
    return moved <= 1;
}

/* Mesh: signed add per dimension; the range check names overflow and bad marks. */
static enum ibsec_ddpm_out add_mesh(const struct ibsec_ddpm_cfg *cfg, uint64_t *mf,
                                    const int32_t *delta)
{
    int64_t lim = ((int64_t)1 << (cfg->w - 1)) - 1;
    for (unsigned i = 0; i < cfg->ndims; i++) {
        int64_t v = field_signed(field_raw(*mf, i, cfg->w), cfg->w);
        int64_t span = (int64_t)cfg->radix[i] - 1; /* |V_i| of any real displacement */
        if (v > span || v < -span)
            return IBSEC_DDPM_BAD_MARK;
        v += delta[i];
        if (v < -lim || v > lim)
            return IBSEC_DDPM_OVERFLOW;
        *mf = field_set(*mf, i, cfg->w, signed_raw(v, cfg->w));
    }
    return IBSEC_DDPM_MARKED;
}

/* Torus: add modulo the radix per dimension. */
static enum ibsec_ddpm_out add_torus(const struct ibsec_ddpm_cfg *cfg, uint64_t *mf,
                                     const int32_t *delta)
{
    for (unsigned i = 0; i < cfg->ndims; i++) {
        uint64_t r = cfg->radix[i], v = field_raw(*mf, i, cfg->w);
        if (v >= r)
            return IBSEC_DDPM_BAD_MARK;
        v = (uint64_t)(((int64_t)v + delta[i] + (int64_t)r) % (int64_t)r);
        *mf = field_set(*mf, i, cfg->w, v);
    }
    return IBSEC_DDPM_MARKED;
}

/* Hypercube: XOR the link's dimension bit. */
static enum ibsec_ddpm_out add_cube(const struct ibsec_ddpm_cfg *cfg, uint64_t *mf,
                                    const int32_t *delta)
{
    if ((*mf & low_mask(cfg->mf_bits)) >> cfg->ndims)
        return IBSEC_DDPM_BAD_MARK;
    for (unsigned i = 0; i < cfg->ndims; i++)
        if (delta[i])
            *mf ^= 1ull << i;
    return IBSEC_DDPM_MARKED;
}

static bool is_poisoned(const struct ibsec_ddpm_cfg *cfg, uint64_t mf)
{
    if (cfg->topo == IBSEC_TOPO_HYPERCUBE)
        return cube_has_poison_bit(cfg) && ((mf >> cfg->ndims) & 1u);
    return field_raw(mf, 0, cfg->w) == poison_raw(cfg);
}

static uint64_t poisoned_mf(const struct ibsec_ddpm_cfg *cfg)
{
    if (cfg->topo == IBSEC_TOPO_HYPERCUBE)
        return cube_has_poison_bit(cfg) ? 1ull << cfg->ndims : 0;
    return field_set(0, 0, cfg->w, poison_raw(cfg));
}

enum ibsec_ddpm_out ibsec_ddpm_mark(const struct ibsec_ddpm_cfg *cfg, uint8_t *buf, size_t len,
                                    const struct ibsec_ddpm_hop *hop)
{
    struct ibsec_sw_hdr h;
    if (cfg->topo == IBSEC_TOPO_FATTREE || !hop_is_one_link(cfg, hop))
        return IBSEC_DDPM_BAD_HOP;
    enum ibsec_ddpm_out o = find_mf(buf, len, &h);
    if (o != IBSEC_DDPM_MARKED)
        return o;
    if (!whole_packet(&h, len))
        return IBSEC_DDPM_BAD_PKTLEN;
    uint64_t mf = hop->from_node ? 0 : ibsec_mf_get(buf + h.grh_off) & low_mask(cfg->mf_bits);
    if (is_poisoned(cfg, mf))
        return IBSEC_DDPM_POISONED;
    if (cfg->topo == IBSEC_TOPO_MESH)
        o = add_mesh(cfg, &mf, hop->delta);
    else if (cfg->topo == IBSEC_TOPO_TORUS)
        o = add_torus(cfg, &mf, hop->delta);
    else
        o = add_cube(cfg, &mf, hop->delta);
    store_mf(cfg, buf, len, &h, o == IBSEC_DDPM_MARKED ? mf : poisoned_mf(cfg));
    return o;
}

/* ---- deterministic port marking on a fat tree (TPDS §5.4.2) ---------------- */

enum ibsec_ddpm_out ibsec_dpm_mark_fattree(const struct ibsec_ddpm_cfg *cfg, uint8_t *buf,
                                           size_t len, unsigned level, uint32_t in_port,
                                           uint64_t ancestor)
{
    struct ibsec_sw_hdr h;
    if (cfg->topo != IBSEC_TOPO_FATTREE || level >= cfg->ndims || in_port >= cfg->radix[0])
        return IBSEC_DDPM_BAD_HOP;
    enum ibsec_ddpm_out o = find_mf(buf, len, &h);
    if (o != IBSEC_DDPM_MARKED)
        return o;
    if (!whole_packet(&h, len))
        return IBSEC_DDPM_BAD_PKTLEN;
    uint64_t below = low_mask(level * cfg->w);
    uint64_t mf = ibsec_mf_get(buf + h.grh_off) & below;
    mf |= ancestor & ~low_mask((level + 1) * cfg->w) & low_mask(cfg->ndims * cfg->w);
    mf = field_set(mf, level, cfg->w, in_port);
    store_mf(cfg, buf, len, &h, mf);
    return IBSEC_DDPM_MARKED;
}

/* ---- receiver: S = X - V (mesh), (X - V) mod n (torus), X xor V (cube) ----- */

static enum ibsec_ddpm_out source_of(const struct ibsec_ddpm_cfg *cfg, uint64_t mf,
                                     const uint32_t *self, uint32_t *src)
{
    if (cfg->topo != IBSEC_TOPO_FATTREE && is_poisoned(cfg, mf))
        return IBSEC_DDPM_POISONED;
    for (unsigned i = 0; i < cfg->ndims; i++) {
        uint64_t raw = field_raw(mf, i, cfg->w);
        int64_t s;
        if (cfg->topo == IBSEC_TOPO_MESH)
            s = (int64_t)self[i] - field_signed(raw, cfg->w);
        else if (cfg->topo == IBSEC_TOPO_TORUS)
            s = raw >= cfg->radix[i] ? -1
                                     : ((int64_t)self[i] - (int64_t)raw + cfg->radix[i]) % cfg->radix[i];
        else if (cfg->topo == IBSEC_TOPO_HYPERCUBE)
            s = (int64_t)((self[i] & 1u) ^ raw);
        else
            s = (int64_t)raw;
        if (s < 0 || s >= (int64_t)cfg->radix[cfg->topo == IBSEC_TOPO_FATTREE ? 0 : i])
            return IBSEC_DDPM_OUT_OF_NETWORK;
        src[i] = (uint32_t)s;
    }
    return IBSEC_DDPM_SOURCE_FOUND;
}

enum ibsec_ddpm_out ibsec_ddpm_identify(const struct ibsec_ddpm_cfg *cfg, const uint8_t *buf,
                                        size_t len, const uint32_t *self, uint32_t *src)
{
    struct ibsec_sw_hdr h;
    enum ibsec_ddpm_out o = find_mf(buf, len, &h);
    if (o != IBSEC_DDPM_MARKED)
        return o;
    uint64_t mf = ibsec_mf_get(buf + h.grh_off) & low_mask(cfg->mf_bits);
    return source_of(cfg, mf, self, src);
}
