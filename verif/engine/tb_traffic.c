/* tb_traffic.c — see tb_traffic.h. */
#include "tb_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc.h"
#include "ib_pktgen.h"

#define TB_QP_BASE    0x000100u  /* QP contexts: QPN TB_QP_BASE + 0x11 * index */
#define TB_PKEY_BASE  0x0100u    /* P_Key contexts: P_Key TB_PKEY_BASE + index */
#define TB_FREE_QP    0x800000u  /* QPNs at or above this select no QP context */
#define TB_FREE_PKEY  0x7F00u    /* P_Keys at or above this select no P_Key context */
#define TB_N_SECURED  14u        /* contexts 0..13 secured, 14 and 15 mode none */
#define TB_NEAR_END_CTX 5u       /* the context started 40 EPSNs before 2^63 */
#define TB_NEAR_END_GAP 3000u

static const char *const kind_names[TB_K_COUNT] = {
    "normal", "tamper", "forge", "badtag", "replay", "reuse", "truncated", "extended",
    "overlong", "bad_opcode", "bad_secbits", "bad_length", "downgrade", "bad_icrc",
};

const char *tb_kind_name(enum tb_kind k)
{
    return (unsigned)k < TB_K_COUNT ? kind_names[k] : "?";
}

/* ---- configuration ---------------------------------------------------------- */

/* The mode and STH code of each secured context (0..6 and 7..13 repeat the list). */
static const struct { enum ibsec_mode m; unsigned sth; } secured_combos[7] = {
    { IBSEC_MODE_ICRC_MAC, IBSEC_STH_CODE_NONE },
    { IBSEC_MODE_STH_HDR, IBSEC_STH_CODE_96 },  { IBSEC_MODE_STH_HDR, IBSEC_STH_CODE_128 },
    { IBSEC_MODE_STH_PKT, IBSEC_STH_CODE_96 },  { IBSEC_MODE_STH_PKT, IBSEC_STH_CODE_128 },
    { IBSEC_MODE_STH_AEAD, IBSEC_STH_CODE_96 }, { IBSEC_MODE_STH_AEAD, IBSEC_STH_CODE_128 },
};

static uint32_t ctx_match(unsigned i, enum ibsec_sel sel)
{
    return sel == IBSEC_SEL_QP ? TB_QP_BASE + 0x11u * i : TB_PKEY_BASE + i;
}

/* A start EPSN just below a multiple of 2^24 (the 24-bit PSN wraps soon) or anywhere
 * below 2^40. */
static uint64_t start_epsn(ibsec_rng *r, unsigned i)
{
    if (i % 2u == 0)
        return ((uint64_t)ibsec_rng_range(r, 1, 255) << 24) - 1 - ibsec_rng_below(r, 8);
    return ibsec_rng_next(r) >> 24;
}

int tb_config_make(struct tb_config *cfg, ibsec_rng *r, int lanes, bool near_end)
{
    ibsec_engine *e = &cfg->a;
    if (ibsec_engine_init(e, TB_KEY_SLOTS, TB_CTX_SLOTS, lanes) != 0) {
        fprintf(stderr, "tb_engine: cannot create a model engine\n");
        return -1;
    }
    e->allow_plain = ibsec_rng_below(r, 4) != 0;
    /* the reserved DestQPs' policies: the defaults in a quarter of the runs, else context,
       bypass and drop, one each, in a random order */
    if (ibsec_rng_below(r, 4) != 0) {
        unsigned first = ibsec_rng_below(r, 3), step = 1u + ibsec_rng_below(r, 2);
        for (unsigned m = 0; m < IBSEC_MGMT_CLASSES; m++)
            e->mgmt[m] = (enum ibsec_mgmt_policy)((first + step * m) % 3u);
    }
    for (unsigned k = 0; k < TB_KEY_SLOTS; k++) {
        uint8_t key[32], salt[IBSEC_SALT_LEN];
        size_t len = (k % 2u) ? 32u : 16u;
        ibsec_rng_bytes(r, key, len);
        ibsec_rng_bytes(r, salt, sizeof salt);
        ibsec_key_set(e, k, key, len, salt);
    }
    for (unsigned i = 0; i < TB_CTX_SLOTS; i++) {
        ibsec_ctx_cfg c;
        const char *why = "?";
        memset(&c, 0, sizeof c);
        if (i < TB_N_SECURED) {
            c.mode = secured_combos[i % 7u].m;
            c.sth_code = secured_combos[i % 7u].sth;
            c.key = i % TB_KEY_SLOTS;
            c.sel = (i % 3u == 2u) ? IBSEC_SEL_PKEY : IBSEC_SEL_QP;
        } else {
            c.mode = IBSEC_MODE_NONE;
            c.sel = (i % 2u) ? IBSEC_SEL_PKEY : IBSEC_SEL_QP;
        }
        c.match = ctx_match(i, c.sel);
        c.dir = ibsec_rng_below(r, 2);
        c.tx_next = start_epsn(r, i);
        c.rx_next = start_epsn(r, i + 1);
        if (near_end && i == TB_NEAR_END_CTX)
            c.tx_next = IBSEC_EPSN_LIMIT - TB_NEAR_END_GAP;
        c.alert_threshold = (i == 3) ? 0 : ibsec_rng_range(r, 2, IBSEC_ALERT_DEFAULT);
        if (ibsec_ctx_set(e, i, &c, &why) != 0) {
            fprintf(stderr, "tb_engine: context %u refused by the model: %s\n", i, why);
            return -1;
        }
    }
    return 0;
}

int tb_config_load(const struct tb_config *cfg, ibsec_engine *e, bool peer)
{
    const ibsec_engine *a = &cfg->a;
    if (ibsec_engine_init(e, a->n_keys, a->n_ctx, a->lanes) != 0)
        return -1;
    e->allow_plain = a->allow_plain;
    e->mask_mf = a->mask_mf;
    memcpy(e->mgmt, a->mgmt, sizeof e->mgmt);
    for (unsigned k = 0; k < a->n_keys; k++)
        if (a->keys[k].valid)
            ibsec_key_set(e, k, a->keys[k].key, a->keys[k].key_len, a->keys[k].salt);
    for (unsigned i = 0; i < a->n_ctx; i++)
        if (a->ctx[i].valid && ibsec_ctx_set(e, i, &a->ctx[i].cfg, NULL) != 0)
            return -1;
    if (peer)
        ibsec_engine_make_peer(e);
    return 0;
}

void tb_config_free(struct tb_config *cfg)
{
    ibsec_engine_free(&cfg->a);
}

/* ---- generator ---------------------------------------------------------------- */

int tb_gen_init(struct tb_gen *g, uint64_t seed, const struct tb_config *cfg, int lanes,
                bool full_lengths)
{
    memset(g, 0, sizeof *g);
    ibsec_rng_seed(&g->rng, seed);
    g->lanes = lanes;
    g->full_lengths = full_lengths;
    g->huge = true;
    if (tb_config_load(cfg, &g->tx, false) != 0)
        return -1;
    for (unsigned i = 0; i < TB_CTX_SLOTS; i++)
        g->next_epsn[i] = cfg->a.ctx[i].cfg.tx_next;
    return 0;
}

void tb_gen_free(struct tb_gen *g)
{
    for (unsigned i = 0; i < TB_HISTORY; i++) {
        free(g->hist_wire[i]);
        free(g->hist_plain[i]);
    }
    ibsec_engine_free(&g->tx);
}

void tb_gen_set_key(struct tb_gen *g, unsigned slot, const uint8_t *key, size_t len,
                    const uint8_t salt[IBSEC_SALT_LEN])
{
    if (len == 0)
        ibsec_key_clear(&g->tx, slot);
    else
        ibsec_key_set(&g->tx, slot, key, len, salt);
}

const char *tb_gen_length_mix(const struct tb_gen *g)
{
    return g->full_lengths
        ? "payload: first/middle one PMTU 256..4096; last/only 1/4 edge lengths, 1/4 0..64, 1/2 0..4096"
        : "payload: first/middle PMTU 256 (7/8) or 512..4096; last/only 1/8 edge lengths "
          "(0..5, 15..17, 31..33, 63..65, 4093..4096), 5/8 0..128, 3/16 0..1024, 1/16 0..4096";
}

/* Edge lengths: around the block and word boundaries and at the MTU. */
static const uint16_t edge_lens[] = { 0, 1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                      4093, 4094, 4095, 4096 };
static const uint16_t pmtus[] = { 512, 1024, 2048, 4096 };
/* RC SEND Only (IBA Vol. 1 §9.2): no ETH, so with no payload the shortest packet */
#define SHORTEST_OPCODE 0x04u
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The bench's payload length for an opcode (tb_gen_length_mix says what it is). */
static size_t payload_len(struct tb_gen *g, const struct ibsec_opcode_info *op)
{
    if (g->full_lengths)
        return ibsec_pktgen_random_payload_len(&g->rng, op);
    if (!op->has_payload)
        return 0;
    if (op->fixed_payload != 0)
        return op->fixed_payload;
    if (op->pos == IBSEC_POS_FIRST || op->pos == IBSEC_POS_MIDDLE)
        return ibsec_rng_below(&g->rng, 8) ? 256u : pmtus[ibsec_rng_below(&g->rng, COUNT(pmtus))];
    size_t lo = (op->pos == IBSEC_POS_LAST) ? 1 : 0; /* a last packet carries >= 1 byte */
    uint32_t kind = ibsec_rng_below(&g->rng, 16);
    size_t len;
    if (kind < 2)
        len = edge_lens[ibsec_rng_below(&g->rng, COUNT(edge_lens))];
    else if (kind < 12)
        len = ibsec_rng_range(&g->rng, 0, 128);
    else if (kind < 15)
        len = ibsec_rng_range(&g->rng, 0, 1024);
    else
        len = ibsec_rng_range(&g->rng, 0, IBSEC_MAX_PAYLOAD);
    return len < lo ? lo : len;
}

/* A context of the given mode, or -1 for "no context" (mode none only). */
static int pick_ctx(struct tb_gen *g, int mode)
{
    int cand[TB_CTX_SLOTS], n = 0;
    for (unsigned i = 0; i < TB_CTX_SLOTS; i++)
        if (g->tx.ctx[i].valid && (int)g->tx.ctx[i].cfg.mode == mode)
            cand[n++] = (int)i;
    if (mode == IBSEC_MODE_NONE && ibsec_rng_below(&g->rng, (uint32_t)n + 1) == 0)
        return -1;
    return n ? cand[ibsec_rng_below(&g->rng, (uint32_t)n)] : -1;
}

static void remember(uint8_t **slot_buf, size_t *slot_len, int *slot_link,
                     const struct tb_gen_frame *f)
{
    free(*slot_buf);
    *slot_buf = malloc(f->len);
    if (!*slot_buf) {
        fprintf(stderr, "tb_engine: out of memory\n");
        exit(1);
    }
    memcpy(*slot_buf, f->bytes, f->len);
    *slot_len = f->len;
    *slot_link = f->link;
}

/* A RoCEv2 frame shorter than the 802.3 minimum (a packet of no payload over IPv4 is 58
 * bytes): half of them padded to 60 bytes with random bytes, as an Ethernet MAC pads them
 * (IBSEC_ETH_MIN_FRAME; the IP length, not the frame, says where the packet ends). */
static void maybe_eth_pad(struct tb_gen *g, struct tb_gen_frame *f)
{
    if (f->link != (int)IBSEC_LINK_ROCE || f->len >= IBSEC_ETH_MIN_FRAME ||
        ibsec_rng_below(&g->rng, 2) == 0)
        return;
    ibsec_rng_bytes(&g->rng, f->bytes + f->len, IBSEC_ETH_MIN_FRAME - f->len);
    f->len = IBSEC_ETH_MIN_FRAME;
}

/* A DestQP that selects no QP context: one in 8 a DestQP IBA reserves (0, 1, 0xffffff),
 * whose policy (wire-format.md §9.1) comes before the context lookup; none with
 * g->no_reserved. */
static uint32_t free_destqp(struct tb_gen *g)
{
    static const uint32_t reserved[] = { 0u, 1u, 0xffffffu };
    if (!g->no_reserved && ibsec_rng_below(&g->rng, 8) == 0)
        return reserved[ibsec_rng_below(&g->rng, 3)];
    return TB_FREE_QP | ibsec_rng_below(&g->rng, TB_FREE_QP);
}

/* Build the packet of context ctx (-1: none) from a description, and seal it with A. */
static void gen_from_desc(struct tb_gen *g, int ctx, int mode, struct ibsec_pkt_desc *d,
                          struct tb_gen_frame *plain, struct tb_gen_frame *wire)
{
    if (ctx < 0) {
        d->bth.destqp = free_destqp(g);
        d->bth.pkey = (uint16_t)(TB_FREE_PKEY | ibsec_rng_below(&g->rng, 0x100u) |
                                 (ibsec_rng_below(&g->rng, 2) << 15));
    } else {
        const ibsec_ctx_cfg *c = &g->tx.ctx[ctx].cfg;
        if (c->sel == IBSEC_SEL_QP) {
            d->bth.destqp = c->match;
        } else {
            d->bth.destqp = free_destqp(g);
            d->bth.pkey = (uint16_t)(c->match | (ibsec_rng_below(&g->rng, 2) << 15));
        }
        d->bth.psn = (uint32_t)(g->next_epsn[ctx] & IBSEC_PSN_MASK);
        g->next_epsn[ctx]++;
    }
    plain->kind = TB_K_NORMAL;
    plain->link = (int)ibsec_shape_link(d->shape);
    plain->mode = mode;
    if (ibsec_pkt_build(d, plain->bytes, sizeof plain->bytes, &plain->len, NULL) != IBSEC_PKT_OK) {
        fprintf(stderr, "tb_engine: cannot build a generated packet\n");
        exit(1);
    }
    /* RoCEv2: half the plain packets with a UDP checksum, which seal must not pass on */
    if (ibsec_rng_below(&g->rng, 2))
        ibsec_pktgen_udp_csum(&g->rng, plain->bytes, plain->len, (enum ibsec_link)plain->link);
    maybe_eth_pad(g, plain);
    remember(&g->hist_plain[g->n_hist_plain % TB_HISTORY], &g->hist_plain_len[g->n_hist_plain % TB_HISTORY],
             &g->hist_plain_link[g->n_hist_plain % TB_HISTORY], plain);
    g->n_hist_plain++;

    *wire = *plain;
    ibsec_verdict v;
    if (ibsec_seal(&g->tx, (enum ibsec_link)plain->link, plain->bytes, plain->len, wire->bytes,
                   sizeof wire->bytes, &wire->len, &v) != IBSEC_R_OK) {
        wire->len = 0;
        return;
    }
    /* and half the sealed ones with one written on the way, which open ignores */
    if (ibsec_rng_below(&g->rng, 2))
        ibsec_pktgen_udp_csum(&g->rng, wire->bytes, wire->len, (enum ibsec_link)wire->link);
    maybe_eth_pad(g, wire);
    remember(&g->hist_wire[g->n_hist_wire % TB_HISTORY], &g->hist_wire_len[g->n_hist_wire % TB_HISTORY],
             &g->hist_wire_link[g->n_hist_wire % TB_HISTORY], wire);
    g->n_hist_wire++;
}

void tb_gen_plain(struct tb_gen *g, int mode, struct tb_gen_frame *plain,
                  struct tb_gen_frame *wire)
{
    static uint8_t payload[IBSEC_MAX_PAYLOAD];
    struct ibsec_pktgen_opts o;
    struct ibsec_pkt_desc d;
    enum ibsec_shape shape = (enum ibsec_shape)ibsec_rng_below(&g->rng, IBSEC_SHAPE_COUNT);
    int ctx = pick_ctx(g, mode);

    ibsec_pktgen_default_opts(&o, shape);
    o.opcode = ibsec_pktgen_random_opcode(&g->rng, shape);
    o.payload_len = (int)payload_len(g, ibsec_opcode_lookup((uint8_t)o.opcode));
    /* one packet in 32 the shortest RoCEv2 packet with a payload field, 58 bytes on the
       wire in modes none and icrc-mac: maybe_eth_pad pads half of them (random opcodes
       and lengths make a packet below 60 bytes rare) */
    if (ibsec_rng_below(&g->rng, 32) == 0) {
        shape = IBSEC_SHAPE_ROCE_V4;
        ibsec_pktgen_default_opts(&o, shape);
        o.opcode = SHORTEST_OPCODE;
        o.payload_len = 0;
    }
    if (ibsec_pktgen_desc(&g->rng, &o, &d, payload) != IBSEC_PKT_OK) {
        fprintf(stderr, "tb_engine: the packet generator refused shape %s\n", ibsec_shape_name(shape));
        exit(1);
    }
    /* sometimes skip PSNs: the receiver's window accepts gaps */
    if (ctx >= 0 && ibsec_rng_below(&g->rng, 16) == 0)
        g->next_epsn[ctx] += ibsec_rng_range(&g->rng, 1, 40);
    gen_from_desc(g, ctx, mode, &d, plain, wire);
}

int tb_gen_fixed(struct tb_gen *g, int mode, enum ibsec_shape shape, uint8_t opcode,
                 size_t payload, struct tb_gen_frame *plain, struct tb_gen_frame *wire)
{
    static uint8_t buf[IBSEC_MAX_PAYLOAD];
    struct ibsec_pktgen_opts o;
    struct ibsec_pkt_desc d;
    int ctx = -1;
    for (unsigned i = 0; i < TB_CTX_SLOTS && ctx < 0; i++)
        if (g->tx.ctx[i].valid && (int)g->tx.ctx[i].cfg.mode == mode)
            ctx = (int)i;
    if (ctx < 0)
        return -1;
    ibsec_pktgen_default_opts(&o, shape);
    o.opcode = opcode;
    o.payload_len = (int)payload;
    if (ibsec_pktgen_desc(&g->rng, &o, &d, buf) != IBSEC_PKT_OK)
        return -1;
    /* a packet of the context's mode: a P_Key context's packet must not go to a reserved
       DestQP, whose policy would bypass or drop it */
    g->no_reserved = true;
    gen_from_desc(g, ctx, mode, &d, plain, wire);
    g->no_reserved = false;
    return 0;
}

/* ---- damage ------------------------------------------------------------------------ */

/* Recompute the CRCs an attacker on the path can recompute: both for a packet that
 * parses with STH length sth (icrc-mac: only the VCRC, its ICRC field is the tag). */
static void fix_crcs(struct tb_gen_frame *f, size_t sth, bool icrc_is_tag)
{
    struct ibsec_pkt p;
    if (ibsec_frame_parse(f->bytes, f->len, (enum ibsec_link)f->link, sth, &p) != IBSEC_PKT_OK)
        return;
    if (icrc_is_tag)
        ibsec_pkt_put_vcrc(f->bytes, &p);
    else
        ibsec_pkt_put_crcs(f->bytes, &p);
}

/* The STH length and whether the ICRC field is a tag, from BTH byte 8 of a wire frame. */
static void wire_sec(const struct tb_gen_frame *f, size_t *sth, bool *icrc_is_tag, size_t *bth_off)
{
    enum ibsec_mode m = IBSEC_MODE_NONE;
    unsigned code = 0;
    *sth = 0;
    *icrc_is_tag = false;
    *bth_off = 0;
    if (ibsec_pkt_find_bth(f->bytes, f->len, (enum ibsec_link)f->link, bth_off) != IBSEC_PKT_OK)
        return;
    if (ibsec_secbits_decode(f->bytes[*bth_off + IBSEC_BTH_BYTE_RESV7], &m, &code) != 0)
        return;
    *sth = ibsec_sth_len(code);
    *icrc_is_tag = m == IBSEC_MODE_ICRC_MAC;
}

static void flip_bit(struct tb_gen *g, uint8_t *b, size_t first, size_t span)
{
    if (span == 0)
        return;
    size_t bit = first * 8u + ibsec_rng_below(&g->rng, (uint32_t)(span * 8u));
    b[bit / 8u] ^= (uint8_t)(1u << (bit % 8u));
}

static void truncate_frame(struct tb_gen *g, struct tb_gen_frame *f)
{
    if (f->len > 1)
        f->len = ibsec_rng_range(&g->rng, 1, (uint32_t)f->len - 1);
}

static void extend_frame(struct tb_gen *g, struct tb_gen_frame *f, size_t max_extra)
{
    size_t n = ibsec_rng_range(&g->rng, 1, (uint32_t)max_extra);
    if (f->len + n > sizeof f->bytes)
        n = sizeof f->bytes - f->len;
    ibsec_rng_bytes(&g->rng, f->bytes + f->len, n);
    f->len += n;
}

/* A RoCEv2 frame of TB_HUGE_MIN..TB_HUGE_MAX bytes: the frame with random bytes behind it,
 * its IPv4 Total Length (checksum recomputed) or IPv6 Payload Length and its UDP Length
 * set so that the IP packet ends at byte 8191 (2^13 - 1) or at the end of the frame. */
static void huge_frame(struct tb_gen *g, struct tb_gen_frame *f)
{
    size_t target = ibsec_rng_range(&g->rng, TB_HUGE_MIN, TB_HUGE_MAX);
    if (f->len < IBSEC_MAC_LEN + IBSEC_IPV6_LEN + IBSEC_UDP_LEN || target <= f->len)
        return;
    extend_frame(g, f, target - f->len);
    f->len = target;
    bool v4 = ibsec_get_be16(f->bytes + 12) == IBSEC_ETHERTYPE_IPV4;
    size_t ip = IBSEC_MAC_LEN, udp = ip + (v4 ? IBSEC_IPV4_LEN : IBSEC_IPV6_LEN);
    size_t end = ibsec_rng_below(&g->rng, 2) ? 8191u : f->len;
    if (v4) {
        ibsec_put_be16(f->bytes + ip + 2, (uint16_t)(end - ip));
        ibsec_put_be16(f->bytes + ip + 10, ibsec_ipv4_checksum(f->bytes + ip));
    } else {
        ibsec_put_be16(f->bytes + ip + 4, (uint16_t)(end - udp));
    }
    ibsec_put_be16(f->bytes + udp + 4, (uint16_t)(end - udp));
}

/* Over-long: either a packet whose payload grows past 4096 with every length field
 * consistent (too_long), or junk behind the frame up to TB_OVERLONG_MAX bytes past the
 * largest packet. */
static void overlong_frame(struct tb_gen *g, struct tb_gen_frame *f, size_t sth)
{
    struct ibsec_pkt p;
    if (ibsec_rng_below(&g->rng, 2) == 0 &&
        ibsec_frame_parse(f->bytes, f->len, (enum ibsec_link)f->link, sth, &p) == IBSEC_PKT_OK &&
        p.extra_len == 0 && p.frame_len == p.end) {
        /* grow the payload by inserting bytes after the last ETH, lengths rewritten */
        size_t grow = IBSEC_MAX_PAYLOAD + 4u - p.payload_len - p.padcnt;
        grow = (grow + 3u) & ~(size_t)3u;
        if (grow <= IBSEC_MAX_EXTRA) {
            struct ibsec_pkt q;
            size_t n = 0;
            if (ibsec_pkt_insert_extra(f->bytes, sizeof f->bytes, &p, NULL, grow, &n, &q) == IBSEC_PKT_OK) {
                f->len = n;
                return;
            }
        }
    }
    if (f->link == IBSEC_LINK_ROCE && ibsec_rng_below(&g->rng, 3) == 0 && g->huge) {
        huge_frame(g, f);
        return;
    }
    size_t target = IBSEC_MAX_PKT + ibsec_rng_range(&g->rng, 1, TB_OVERLONG_MAX);
    if (target > f->len)
        extend_frame(g, f, target - f->len);
}

/* An unknown BTH opcode (none of the table's, cmodel/ib_opcode.c). */
static uint8_t unknown_opcode(struct tb_gen *g)
{
    for (;;) {
        uint8_t op = (uint8_t)ibsec_rng_below(&g->rng, 256);
        if (ibsec_opcode_lookup(op) == NULL)
            return op;
    }
}

/* Change one length field of the frame: LRH PktLen (native) or IPv4 Total Length /
 * IPv6 Payload Length / UDP Length (RoCEv2); the IPv4 checksum is kept right. Three times
 * in four the field grows by 1 to 8; once in four it is set below the headers it counts
 * (PktLen 0-4 words, less than LRH + BTH; a length of 0-39 bytes, less than IPv4 + UDP +
 * BTH), so that the header implies a frame shorter than the headers themselves. */
static void bad_length(struct tb_gen *g, struct tb_gen_frame *f)
{
    size_t bth;
    if (ibsec_pkt_find_bth(f->bytes, f->len, (enum ibsec_link)f->link, &bth) != IBSEC_PKT_OK)
        return;
    uint16_t delta = (uint16_t)ibsec_rng_range(&g->rng, 1, 8);
    bool below = ibsec_rng_below(&g->rng, 4) == 0;
    if (f->link == IBSEC_LINK_IB) {
        uint16_t v = ibsec_get_be16(f->bytes + 4);
        uint16_t words = below ? (uint16_t)ibsec_rng_below(&g->rng, 5) : (uint16_t)(v + delta);
        ibsec_put_be16(f->bytes + 4, (uint16_t)((v & 0xF800u) | (words & 0x07FFu)));
        return;
    }
    bool v4 = ibsec_get_be16(f->bytes + 12) == IBSEC_ETHERTYPE_IPV4;
    size_t ip = IBSEC_MAC_LEN, udp = ip + (v4 ? IBSEC_IPV4_LEN : IBSEC_IPV6_LEN);
    size_t at = ibsec_rng_below(&g->rng, 2) ? udp + 4u : ip + (v4 ? 2u : 4u);
    uint16_t len = below ? (uint16_t)ibsec_rng_below(&g->rng, 40)
                         : (uint16_t)(ibsec_get_be16(f->bytes + at) + delta);
    ibsec_put_be16(f->bytes + at, len);
    if (v4)
        ibsec_put_be16(f->bytes + ip + 10u, ibsec_ipv4_checksum(f->bytes + ip));
}

static void copy_history(struct tb_gen_frame *out, uint8_t *const *buf, const size_t *len,
                         const int *link, unsigned n, ibsec_rng *r)
{
    unsigned avail = n < TB_HISTORY ? n : TB_HISTORY;
    unsigned slot = (n - 1u - ibsec_rng_below(r, avail)) % TB_HISTORY;
    memcpy(out->bytes, buf[slot], len[slot]);
    out->len = len[slot];
    out->link = link[slot];
}

void tb_gen_bad_plain(struct tb_gen *g, enum tb_kind kind, const struct tb_gen_frame *p,
                      struct tb_gen_frame *out)
{
    size_t bth;
    *out = *p;
    out->kind = kind;
    switch (kind) {
    case TB_K_REUSE:
        if (g->n_hist_plain)
            copy_history(out, g->hist_plain, g->hist_plain_len, g->hist_plain_link, g->n_hist_plain,
                         &g->rng);
        break;
    case TB_K_TRUNCATED: truncate_frame(g, out); break;
    case TB_K_EXTENDED:  extend_frame(g, out, 40); break;
    case TB_K_OVERLONG:  overlong_frame(g, out, 0); break;
    case TB_K_BAD_LENGTH: bad_length(g, out); break;
    case TB_K_BAD_OPCODE:
        if (ibsec_pkt_find_bth(out->bytes, out->len, (enum ibsec_link)out->link, &bth) == IBSEC_PKT_OK)
            out->bytes[bth] = unknown_opcode(g);
        break;
    case TB_K_BAD_SECBITS:
        if (ibsec_pkt_find_bth(out->bytes, out->len, (enum ibsec_link)out->link, &bth) == IBSEC_PKT_OK)
            out->bytes[bth + IBSEC_BTH_BYTE_RESV7] |= (uint8_t)ibsec_rng_range(&g->rng, 1, IBSEC_SECBITS_MASK);
        break;
    default:
        break;
    }
}

void tb_gen_bad_wire(struct tb_gen *g, enum tb_kind kind, const struct tb_gen_frame *w,
                     const struct tb_gen_frame *p, struct tb_gen_frame *out)
{
    size_t sth, bth;
    bool icrc_is_tag;
    struct ibsec_pkt pk;
    *out = *w;
    out->kind = kind;
    wire_sec(w, &sth, &icrc_is_tag, &bth);
    bool parsed = ibsec_frame_parse(w->bytes, w->len, (enum ibsec_link)w->link, sth, &pk) == IBSEC_PKT_OK;
    switch (kind) {
    case TB_K_TAMPER:
        flip_bit(g, out->bytes, 0, out->len);
        break;
    case TB_K_FORGE:
        if (parsed) {
            flip_bit(g, out->bytes, 0, icrc_is_tag ? pk.icrc_off + IBSEC_ICRC_LEN : pk.icrc_off);
            fix_crcs(out, sth, icrc_is_tag);
        }
        break;
    case TB_K_BADTAG:
        if (parsed) {
            if (icrc_is_tag)
                flip_bit(g, out->bytes, pk.icrc_off, IBSEC_ICRC_LEN);
            else
                flip_bit(g, out->bytes, pk.extra_off, pk.extra_len);
            fix_crcs(out, sth, icrc_is_tag);
        }
        break;
    case TB_K_BAD_ICRC:
        if (parsed) {
            flip_bit(g, out->bytes, pk.icrc_off, IBSEC_ICRC_LEN);
            ibsec_pkt_put_vcrc(out->bytes, &pk);
        }
        break;
    case TB_K_REPLAY:
        if (g->n_hist_wire)
            copy_history(out, g->hist_wire, g->hist_wire_len, g->hist_wire_link, g->n_hist_wire, &g->rng);
        break;
    case TB_K_TRUNCATED: truncate_frame(g, out); break;
    case TB_K_EXTENDED:  extend_frame(g, out, 40); break;
    case TB_K_OVERLONG:  overlong_frame(g, out, sth); break;
    case TB_K_BAD_LENGTH:
        bad_length(g, out);
        fix_crcs(out, sth, icrc_is_tag);
        break;
    case TB_K_BAD_OPCODE:
        out->bytes[bth] = unknown_opcode(g);
        fix_crcs(out, sth, icrc_is_tag);
        break;
    case TB_K_BAD_SECBITS: {
        /* a reserved bit, a reserved SECMODE/STHSZ pair, or an unsupported STHSZ */
        static const uint8_t bad[] = { 0x20, 0x40, 0x01, 0x02, 0x10, 0x18, 0x0b, 0x0f, 0x13, 0x1f };
        uint8_t *b8 = &out->bytes[bth + IBSEC_BTH_BYTE_RESV7];
        *b8 = (uint8_t)((*b8 & ~IBSEC_SECBITS_MASK) | bad[ibsec_rng_below(&g->rng, sizeof bad)]);
        fix_crcs(out, 0, false);
        break;
    }
    case TB_K_DOWNGRADE:
        memcpy(out->bytes, p->bytes, p->len);
        out->len = p->len;
        out->link = p->link;
        break;
    default:
        break;
    }
}
