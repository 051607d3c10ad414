/*
 * test_sec.c — the security layer of the C model (ibsec.h) against an
 * independent reading of docs/wire-format.md.
 *
 * The reference side of this test does not call the security layer: it lays
 * out a packet (§1, §4), builds the masked headers (§3), the GCM additional
 * data and the IV (§5) itself, computes CRC-32/CRC-16 with its own bitwise
 * loops (docs/packets.md) and runs the crypto through OpenSSL EVP AES-GCM.
 * Every sealed packet of the round-trip sweep is recomputed this way, so a
 * mismatch between the document and the model fails here.  The packet layer
 * (ib_pkt.h, ib_pktgen.h) is used only to build plain input packets and to
 * look up the opcode's ETH length.
 *
 * Parts (named in the failure messages):
 *   rt       open(seal(p)) == p for every mode x AES-128/256 x shape x opcode x
 *            payload length (every pad count), with the OpenSSL cross-check;
 *   flip     every single-bit flip of sealed packets, raw and with the CRCs
 *            recomputed (a forger's flip): rejected unless the bit is a
 *            variant field that the ICRC masks (or the RoCEv2 MAC addresses),
 *            in which case it must pass through unchanged;
 *   epsn     reconstruction, replay, window, wrap, nonce reuse, exhaustion;
 *   alert    consecutive authentication failures;
 *   ctx      QP over P_Key precedence, plain traffic, mode mismatch, downgrade;
 *   corpus   malformed packets, each with its expected reason, counters;
 *   mf       the engines' mask_mf switch (availability.md §2.4): round trips with
 *            the reference masking the Marking Field of a native GRH (and nothing
 *            else on the other shapes), every Marking Field bit flip of a sealed
 *            packet delivered, and the same flip rejected with the switch off;
 *   examples the worked examples of docs/wire-format.md §11, regenerated,
 *            cross-checked with OpenSSL and compared with the document.
 *
 * `test_sec --examples` prints the examples section for the document.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ib_pktgen.h"
#include "ibsec.h"
#include "ossl_gcm.h"
#include "rng.h"

#define SEED 0x5ec0001ull
#define DOC_PATH "docs/wire-format.md"

static check_ctx C;
static EVP_CIPHER_CTX *ossl;

typedef struct {
    uint8_t b[IBSEC_MAX_PKT];
    size_t n;
} pktbuf;

/* ======================================================================
 * Reference side: written from docs/wire-format.md, no ibsec_* security calls
 * ====================================================================== */

/* CRC-32 (ICRC) and CRC-16 (VCRC), bitwise, reflected (docs/packets.md). */
static uint32_t ref_crc32(const uint8_t *p, size_t n)
{
    uint32_t r = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        r ^= p[i];
        for (int k = 0; k < 8; k++)
            r = (r >> 1) ^ ((r & 1u) ? 0xEDB88320u : 0u);
    }
    return r ^ 0xFFFFFFFFu;
}

static uint16_t ref_crc16(const uint8_t *p, size_t n)
{
    uint16_t r = 0xFFFFu;
    for (size_t i = 0; i < n; i++) {
        r ^= p[i];
        for (int k = 0; k < 8; k++)
            r = (uint16_t)((r >> 1) ^ ((r & 1u) ? 0xD008u : 0u));
    }
    return (uint16_t)(r ^ 0xFFFFu);
}

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void put_le(uint8_t *b, uint32_t v, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static void put16(uint8_t *b, unsigned v)
{
    b[0] = (uint8_t)(v >> 8);
    b[1] = (uint8_t)v;
}

static unsigned get16(const uint8_t *b)
{
    return (unsigned)b[0] << 8 | b[1];
}

/* RFC 1071 IPv4 header checksum (checksum word counted as zero). */
static unsigned ref_ipv4_csum(const uint8_t *h)
{
    uint32_t s = 0;
    for (int i = 0; i < 20; i += 2)
        if (i != 10)
            s += get16(h + i);
    while (s >> 16)
        s = (s & 0xFFFFu) + (s >> 16);
    return ~s & 0xFFFFu;
}

/* wire-format.md §1, §4: where the headers of a packet are. */
typedef struct {
    bool roce, grh, v4;
    bool mf;      /* native GRH with the Marking Field masked (availability.md §2.4) */
    size_t cov, ip, udp, bth, eths_end, sth_len, payload, icrc, n;
} layout;

/* The engines' mask_mf switch as the reference sees it (set by the mf part). */
static bool ref_mask_mf;

static bool ref_layout(const uint8_t *b, size_t n, bool roce, size_t sth_len, layout *L)
{
    memset(L, 0, sizeof *L);
    L->roce = roce;
    L->n = n;
    L->sth_len = sth_len;
    if (roce) {
        L->v4 = get16(b + 12) == 0x0800;
        L->ip = L->cov = 14;
        L->udp = L->ip + (L->v4 ? 20 : 40);
        L->bth = L->udp + 8;
        L->icrc = n - 4;
    } else {
        L->grh = (b[1] & 3u) == 3u;
        L->mf = L->grh && ref_mask_mf;
        L->bth = 8 + (L->grh ? 40 : 0);
        L->icrc = n - 6;
    }
    const struct ibsec_opcode_info *op = ibsec_opcode_lookup(b[L->bth]);
    if (op == NULL)
        return false;
    L->eths_end = L->bth + 12 + op->eth_len;
    L->payload = L->eths_end + sth_len;
    return L->payload <= L->icrc;
}

/* wire-format.md §3: the ICRC input from its start to buffer offset end, with
 * the variant fields set to ones. */
static size_t ref_masked(const uint8_t *b, const layout *L, size_t end, uint8_t *out)
{
    size_t n = 0;
    if (L->roce) {
        memset(out, 0xFF, 8);
        n = 8;
    }
    size_t base = n - L->cov;     /* out index of buffer offset x is base + x */
    memcpy(out + n, b + L->cov, end - L->cov);
    n += end - L->cov;
    if (!L->roce && L->grh) {
        memset(out + base, 0xFF, 8);
    } else if (!L->roce) {
        out[base] |= 0xF0;
    }
    size_t v6 = L->roce ? (L->v4 ? 0 : L->ip) : (L->grh ? 8 : 0);
    if (v6) {
        out[base + v6] |= 0x0F;
        out[base + v6 + 1] = out[base + v6 + 2] = out[base + v6 + 3] = 0xFF;
        out[base + v6 + 7] = 0xFF;
    }
    if (L->mf) { /* availability.md §2.4: DGID bits 117:80 = GRH byte 25 bits 5:0, 26..29 */
        out[base + 8 + 25] |= 0x3F;
        memset(out + base + 8 + 26, 0xFF, 4);
    }
    if (L->roce && L->v4) {
        out[base + L->ip + 1] = out[base + L->ip + 8] = 0xFF;
        out[base + L->ip + 10] = out[base + L->ip + 11] = 0xFF;
    }
    if (L->roce)
        out[base + L->udp + 6] = out[base + L->udp + 7] = 0xFF;
    out[base + L->bth + 4] = 0xFF;
    return n;
}

/* Is bit `bit` of buffer byte `off` a variant bit (masked by the ICRC), or
 * outside the ICRC coverage?  wire-format.md §3 and §12. */
static bool ref_is_variant(const layout *L, size_t off, unsigned bit)
{
    if (off == L->bth + 4)
        return true;
    if (L->roce) {
        if (off < 12)
            return true; /* Ethernet addresses: not covered (the FCS's job) */
        size_t i = off - L->ip;
        if (L->v4 && off >= L->ip && off < L->udp)
            return i == 1 || i == 8 || i == 10 || i == 11;
        if (!L->v4 && off >= L->ip && off < L->udp)
            return (i == 0 && bit < 4) || i == 1 || i == 2 || i == 3 || i == 7;
        return off == L->udp + 6 || off == L->udp + 7;
    }
    if (L->grh) {
        if (off < 8)
            return true;
        size_t i = off - 8;
        if (L->mf && ((i == 25 && bit < 6) || (i >= 26 && i <= 29)))
            return true;
        return (i == 0 && bit < 4) || i == 1 || i == 2 || i == 3 || i == 7;
    }
    return off == 0 && bit >= 4;
}

/* wire-format.md §2: BTH byte 8 bits 6:0 for a mode. */
static uint8_t ref_secbits(enum ibsec_mode m, unsigned code)
{
    switch (m) {
    case IBSEC_MODE_ICRC_MAC: return 0x08;
    case IBSEC_MODE_STH_HDR:  return (uint8_t)(0x08 | code);
    case IBSEC_MODE_STH_PKT:  return (uint8_t)(0x10 | code);
    case IBSEC_MODE_STH_AEAD: return (uint8_t)(0x18 | code);
    default:                  return 0;
    }
}

static size_t ref_sth_len(enum ibsec_mode m, unsigned code)
{
    if (m != IBSEC_MODE_STH_HDR && m != IBSEC_MODE_STH_PKT && m != IBSEC_MODE_STH_AEAD)
        return 0;
    return code == 1 ? 12 : 16;
}

/* wire-format.md §5: IV = salt || EPSN with bit 63 = direction. */
static void ref_iv(const uint8_t salt[4], unsigned dir, uint64_t epsn, uint8_t iv[12])
{
    uint64_t w = epsn | (uint64_t)dir << 63;
    memcpy(iv, salt, 4);
    for (int i = 0; i < 8; i++)
        iv[4 + i] = (uint8_t)(w >> (56 - 8 * i));
}

/* wire-format.md §4: the plain headers with the sealed packet's lengths. */
static void ref_expected_headers(const uint8_t *plain, const layout *Lp, size_t sealed_n,
                                 uint8_t byte8, uint8_t *h)
{
    memcpy(h, plain, Lp->eths_end);
    h[Lp->bth + 8] = byte8;
    if (!Lp->roce) {
        unsigned w = get16(h + 4);
        put16(h + 4, (w & 0xF800u) | (unsigned)((sealed_n - 2) / 4));
        if (Lp->grh)
            put16(h + 8 + 4, (unsigned)(sealed_n - 2 - 48));
        return;
    }
    if (Lp->v4) {
        put16(h + Lp->ip + 2, (unsigned)(sealed_n - Lp->ip));
        put16(h + Lp->ip + 10, ref_ipv4_csum(h + Lp->ip));
    } else {
        put16(h + Lp->ip + 4, (unsigned)(sealed_n - Lp->udp));
    }
    put16(h + Lp->udp + 4, (unsigned)(sealed_n - Lp->udp));
    put16(h + Lp->udp + 6, 0); /* UDP checksum 0 on everything ibsec emits */
}

/* wire-format.md §4: a RoCEv2 packet leaves either engine with UDP checksum 0 (UDP
 * bytes 6-7); what open delivers is the plain packet so changed. */
static void ref_udp_csum_zero(pktbuf *p, bool roce)
{
    layout L;
    if (roce && ref_layout(p->b, p->n, true, 0, &L))
        put16(p->b + L.udp + 6, 0);
}

typedef struct {
    enum ibsec_mode mode;
    unsigned code;
    const uint8_t *key;
    size_t klen;
    const uint8_t *salt;
    unsigned dir;
    uint64_t epsn;
    /* the pn nonce (wire-format.md §5.2): salt is then 12 bytes */
    bool pn;
    uint32_t ssci;
    uint64_t pn_val;
    unsigned kp;
} ref_params;

/* wire-format.md §5.2: IV = salt XOR (SSCI || PN), 4 + 8 bytes big-endian. */
static void ref_iv_pn(const uint8_t salt[12], uint32_t ssci, uint64_t pn, uint8_t iv[12])
{
    uint8_t x[12];
    for (int i = 0; i < 4; i++)
        x[i] = (uint8_t)(ssci >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        x[4 + i] = (uint8_t)(pn >> (56 - 8 * i));
    for (int i = 0; i < 12; i++)
        iv[i] = salt[i] ^ x[i];
}

/* Recompute the sealed packet from the plain one (wire-format.md §3-§5) and
 * compare every byte; OpenSSL does the AES-GCM. */
static void ref_check_sealed(const char *what, const pktbuf *plain, const pktbuf *sealed,
                             bool roce, const ref_params *rp)
{
    static uint8_t aad[8 + 128 + IBSEC_MAX_PAYLOAD + 3], ct[IBSEC_MAX_PAYLOAD + 3];
    uint8_t hdr[160], iv[12], tag[16];
    char msg[200];
    layout Lp, Ls;
    size_t sectag = rp->pn ? 12 : 0; /* SSCI || PN in front of the tag */
    size_t sth = ref_sth_len(rp->mode, rp->code) + sectag;

    snprintf(msg, sizeof msg, "%s: sealed length = plain + STH", what);
    if (!check_int(&C, msg, (long long)(plain->n + sth), (long long)sealed->n))
        return;
    if (!check_true(&C, ref_layout(plain->b, plain->n, roce, 0, &Lp) &&
                            ref_layout(sealed->b, sealed->n, roce, sth, &Ls),
                    "reference layout"))
        return;
    /* wire-format.md §2: bit 6 the key phase, bit 5 the pn nonce's SecTAG */
    uint8_t b8 = (uint8_t)(plain->b[Lp.bth + 8] | ref_secbits(rp->mode, rp->code) |
                           (rp->kp ? 0x40 : 0) | (rp->pn ? 0x20 : 0));
    ref_expected_headers(plain->b, &Lp, sealed->n, b8, hdr);
    snprintf(msg, sizeof msg, "%s: headers, byte 8 and length fields", what);
    check_bytes(&C, msg, hdr, sealed->b, Lp.eths_end);

    const uint8_t *p = plain->b + Lp.eths_end;
    size_t pl = Lp.icrc - Lp.eths_end;
    bool enc = rp->mode == IBSEC_MODE_ICRC_MAC || rp->mode == IBSEC_MODE_STH_AEAD;
    if (rp->mode != IBSEC_MODE_NONE) {
        size_t an = ref_masked(sealed->b, &Ls, Ls.eths_end, aad);
        if (rp->mode == IBSEC_MODE_STH_PKT) {
            memcpy(aad + an, p, pl);
            an += pl;
        }
        if (rp->pn)
            ref_iv_pn(rp->salt, rp->ssci, rp->pn_val, iv);
        else
            ref_iv(rp->salt, rp->dir, rp->epsn, iv);
        if (ossl_gcm_seal(ossl, rp->key, rp->klen, iv, aad, an, p, enc ? pl : 0, ct, tag, 16)) {
            check_failf(&C, "%s: OpenSSL EVP error", what);
            return;
        }
        snprintf(msg, sizeof msg, "%s: tag (OpenSSL)", what);
        if (rp->mode == IBSEC_MODE_ICRC_MAC)
            check_bytes(&C, msg, tag, sealed->b + Ls.icrc, 4);
        else
            check_bytes(&C, msg, tag, sealed->b + Ls.eths_end + sectag, sth - sectag);
        if (sectag) {
            uint8_t st[12];
            for (int i = 0; i < 4; i++)
                st[i] = (uint8_t)(rp->ssci >> (24 - 8 * i));
            for (int i = 0; i < 8; i++)
                st[4 + i] = (uint8_t)(rp->pn_val >> (56 - 8 * i));
            snprintf(msg, sizeof msg, "%s: SecTAG (SSCI || PN)", what);
            check_bytes(&C, msg, st, sealed->b + Ls.eths_end, 12);
        }
    }
    snprintf(msg, sizeof msg, "%s: payload+pad (OpenSSL ciphertext or clear)", what);
    check_bytes(&C, msg, enc ? ct : p, sealed->b + Ls.payload, pl);
    if (enc && pl >= 8)
        check_true(&C, memcmp(p, sealed->b + Ls.payload, pl) != 0, "payload not in the clear");
    if (rp->mode != IBSEC_MODE_ICRC_MAC) {
        size_t mn = ref_masked(sealed->b, &Ls, Ls.icrc, aad);
        snprintf(msg, sizeof msg, "%s: ICRC", what);
        check_int(&C, msg, ref_crc32(aad, mn), le32(sealed->b + Ls.icrc));
    }
    if (!roce) {
        snprintf(msg, sizeof msg, "%s: VCRC", what);
        check_int(&C, msg, ref_crc16(sealed->b, sealed->n - 2),
                  sealed->b[sealed->n - 2] | sealed->b[sealed->n - 1] << 8);
    }
}

/* ======================================================================
 * Model side: engines, packets
 * ====================================================================== */

#define TEST_QPN 0x000123u

/* A sealing engine and its peer, one key and one QP context each. */
typedef struct {
    ibsec_engine tx, rx;
    uint8_t key[32], salt[4];
    size_t klen;
    enum ibsec_mode mode;
    unsigned code;
} pair;

static ibsec_ctx_cfg make_cfg(enum ibsec_sel sel, uint32_t match, enum ibsec_mode mode,
                              unsigned code, uint64_t start, uint32_t alert)
{
    ibsec_ctx_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.sel = sel;
    cfg.match = match;
    cfg.mode = mode;
    cfg.key = 0;
    cfg.sth_code = ibsec_mode_has_sth(mode) ? code : 0;
    cfg.dir = 0;
    cfg.tx_next = start;
    cfg.rx_next = start;
    cfg.alert_threshold = alert;
    return cfg;
}

static void pair_init(pair *pr, ibsec_rng *r, enum ibsec_mode mode, size_t klen, unsigned code,
                      uint64_t start, uint32_t alert)
{
    const char *why = NULL;
    memset(pr, 0, sizeof *pr);
    pr->mode = mode;
    pr->code = ibsec_mode_has_sth(mode) ? code : 0;
    pr->klen = klen;
    ibsec_rng_bytes(r, pr->key, klen);
    ibsec_rng_bytes(r, pr->salt, 4);
    ibsec_engine *es[2] = { &pr->tx, &pr->rx };
    ibsec_ctx_cfg cfg = make_cfg(IBSEC_SEL_QP, TEST_QPN, mode, code, start, alert);
    for (int i = 0; i < 2; i++) {
        /* the sealer folds GHASH one block per beat, the opener four (LANES) */
        if (ibsec_engine_init(es[i], 4, 8, i == 0 ? 1 : 4) != 0 ||
            ibsec_key_set(es[i], 0, pr->key, klen, pr->salt) != 0 ||
            ibsec_ctx_set(es[i], 0, &cfg, &why) != 0) {
            fprintf(stderr, "test_sec: engine set-up failed: %s\n", why ? why : "init/key");
            exit(2);
        }
    }
    ibsec_engine_make_peer(&pr->rx);
}

static void pair_free(pair *pr)
{
    ibsec_engine_free(&pr->tx);
    ibsec_engine_free(&pr->rx);
}

static bool shape_roce(enum ibsec_shape s);

/* A plain packet from ib_pktgen with the fields the test controls. */
static bool make_plain(ibsec_rng *r, enum ibsec_shape shape, int opcode, int payload_len,
                       uint32_t destqp, int pkey, uint32_t psn, pktbuf *out)
{
    struct ibsec_pktgen_opts o;
    struct ibsec_pkt_desc d;
    static uint8_t pay[IBSEC_MAX_PAYLOAD];
    ibsec_pktgen_default_opts(&o, shape);
    o.opcode = opcode;
    o.payload_len = payload_len;
    if (ibsec_pktgen_desc(r, &o, &d, pay) != IBSEC_PKT_OK)
        return false;
    d.bth.destqp = destqp;
    if (pkey >= 0)
        d.bth.pkey = (uint16_t)pkey;
    d.bth.psn = psn & IBSEC_PSN_MASK;
    if (ibsec_pkt_build(&d, out->b, sizeof out->b, &out->n, NULL) != IBSEC_PKT_OK)
        return false;
    /* RoCEv2: a non-zero UDP checksum, as a sender's stack may write one (the builder
       writes 0); a masked field, so the ICRC stays right. Derived from the PSN, so that
       the random draws of the tests stay what they were. */
    layout L;
    if (shape_roce(shape) && ref_layout(out->b, out->n, true, 0, &L))
        put16(out->b + L.udp + 6, 0x8000u | (psn & 0x7fffu));
    return true;
}

static bool shape_roce(enum ibsec_shape s)
{
    return ibsec_shape_link(s) == IBSEC_LINK_ROCE;
}

static enum ibsec_reason do_seal(ibsec_engine *e, bool roce, const pktbuf *in, pktbuf *out,
                                 ibsec_verdict *v)
{
    return ibsec_seal(e, roce ? IBSEC_LINK_ROCE : IBSEC_LINK_IB, in->b, in->n, out->b,
                      sizeof out->b, &out->n, v);
}

static enum ibsec_reason do_open(ibsec_engine *e, bool roce, const pktbuf *in, pktbuf *out,
                                 ibsec_verdict *v)
{
    return ibsec_open(e, roce ? IBSEC_LINK_ROCE : IBSEC_LINK_IB, in->b, in->n, out->b,
                      sizeof out->b, &out->n, v);
}

static bool check_reason(const char *what, enum ibsec_reason want, enum ibsec_reason got)
{
    if (want == got) {
        C.passed++;
        return true;
    }
    check_failf(&C, "%s: expected %s, got %s", what, ibsec_reason_name(want),
                ibsec_reason_name(got));
    return false;
}

/* Seal, recompute with the reference, open at the peer, compare. */
static void round_trip(const char *what, pair *pr, bool roce, const pktbuf *plain, uint64_t epsn)
{
    pktbuf sealed, opened;
    ibsec_verdict v;
    char msg[240];
    snprintf(msg, sizeof msg, "%s seal", what);
    if (!check_reason(msg, IBSEC_R_OK, do_seal(&pr->tx, roce, plain, &sealed, &v)))
        return;
    if (pr->mode != IBSEC_MODE_NONE)
        check_int(&C, "seal EPSN", (long long)epsn, (long long)v.epsn);
    ref_params rp = { .mode = pr->mode, .code = pr->code, .key = pr->key, .klen = pr->klen,
                      .salt = pr->salt, .dir = 0, .epsn = epsn };
    ref_check_sealed(what, plain, &sealed, roce, &rp);
    /* RoCEv2: open neither checks nor passes on a UDP checksum written on the way
       (wire-format.md §4): the sealed packet (checksum 0) gets one before it is opened */
    pktbuf want = *plain;
    layout Ls;
    ref_udp_csum_zero(&want, roce);
    if (roce && ref_layout(sealed.b, sealed.n, true, ref_sth_len(pr->mode, pr->code), &Ls))
        put16(sealed.b + Ls.udp + 6, 0xffffu ^ (unsigned)(epsn & 0x7fffu));
    snprintf(msg, sizeof msg, "%s open", what);
    if (!check_reason(msg, IBSEC_R_OK, do_open(&pr->rx, roce, &sealed, &opened, &v)))
        return;
    snprintf(msg, sizeof msg, "%s: open(seal(p)) == p (RoCEv2: UDP checksum 0)", what);
    check_int(&C, msg, (long long)want.n, (long long)opened.n);
    check_bytes(&C, msg, want.b, opened.b, want.n);
}

/* ======================================================================
 * rt: the round-trip sweep
 * ====================================================================== */

static const enum ibsec_mode all_modes[] = { IBSEC_MODE_NONE, IBSEC_MODE_ICRC_MAC,
                                             IBSEC_MODE_STH_HDR, IBSEC_MODE_STH_PKT,
                                             IBSEC_MODE_STH_AEAD };
#define N_MODES 5

/* The next opcode (cycling through the table) that builds with payload_len. */
static bool plain_with_len(ibsec_rng *r, enum ibsec_shape shape, size_t *cursor, int len,
                           uint32_t psn, pktbuf *out)
{
    size_t n = ibsec_opcode_count();
    for (size_t tries = 0; tries < n; tries++) {
        const struct ibsec_opcode_info *op = ibsec_opcode_at((*cursor)++ % n);
        if (!op->has_payload || op->fixed_payload)
            continue;
        if (make_plain(r, shape, op->opcode, len, TEST_QPN, -1, psn, out))
            return true;
    }
    return false;
}

static void test_round_trip(ibsec_rng *r)
{
    unsigned combo = 0;
    unsigned long packets = 0;
    unsigned tclass_seen = 0;
    for (int m = 0; m < N_MODES; m++)
        for (int kl = 0; kl < 2; kl++)
            for (int s = 0; s < IBSEC_SHAPE_COUNT; s++, combo++) {
                pair pr;
                enum ibsec_shape shape = (enum ibsec_shape)s;
                bool roce = shape_roce(shape);
                unsigned code = (combo & 1) ? 1 : 2;
                /* some combinations start just below a 2^24 PSN wrap */
                uint64_t epsn = (combo % 3 == 0) ? ((uint64_t)(combo + 1) << 24) - 40
                                                 : ibsec_rng_below(r, 1u << 30);
                pair_init(&pr, r, all_modes[m], kl ? 32 : 16, code, epsn, 8);
                char what[160];
                size_t cursor = combo;
                pktbuf plain;
                /* every opcode of the shape, with a random legal length */
                for (size_t i = 0; i < ibsec_opcode_count(); i++) {
                    const struct ibsec_opcode_info *op = ibsec_opcode_at(i);
                    if (!make_plain(r, shape, op->opcode, -1, TEST_QPN, -1, (uint32_t)epsn, &plain))
                        continue;
                    tclass_seen |= 1u << op->tclass;
                    snprintf(what, sizeof what, "rt %s AES-%d %s %s", ibsec_mode_name(all_modes[m]),
                             kl ? 256 : 128, ibsec_shape_name(shape), op->name);
                    round_trip(what, &pr, roce, &plain, epsn++);
                    packets++;
                }
                /* lengths: all of 0..67 and 4029..4096, 24 random, and every
                 * length L = combo (mod 40) so that the 40 combinations
                 * together cover 0..4096 */
                for (int len = 0; len <= (int)IBSEC_MAX_PAYLOAD; len++) {
                    bool pick = len < 68 || len > 4028 || len % 40 == (int)combo ||
                                ibsec_rng_below(r, 170) == 0;
                    if (!pick)
                        continue;
                    if (!plain_with_len(r, shape, &cursor, len, (uint32_t)epsn, &plain)) {
                        check_failf(&C, "rt: no opcode builds payload %d", len);
                        continue;
                    }
                    snprintf(what, sizeof what, "rt %s AES-%d %s len %d",
                             ibsec_mode_name(all_modes[m]), kl ? 256 : 128,
                             ibsec_shape_name(shape), len);
                    round_trip(what, &pr, roce, &plain, epsn++);
                    packets++;
                }
                check_int(&C, "rt: every seal counted ok", (long long)pr.tx.count[IBSEC_OP_SEAL][IBSEC_R_OK],
                          (long long)pr.rx.count[IBSEC_OP_OPEN][IBSEC_R_OK]);
                pair_free(&pr);
            }
    check_int(&C, "rt: transport classes RC UC RD UD CNP XRC seen", 0x3F, tclass_seen);
    printf("sec: rt: %lu packets sealed, cross-checked with OpenSSL and opened\n", packets);
}

/* ======================================================================
 * flip: every single-bit flip
 * ====================================================================== */

typedef struct {
    unsigned long flips, rejected, passed_variant; /* passed: variant field, or sth-hdr payload */
    unsigned long forged, forged_passed;           /* of which with the CRCs recomputed */
    unsigned long reason[IBSEC_R_COUNT];
} flip_stats;

/* The forger's version of a flipped packet: CRCs recomputed over the
 * original layout (ICRC unless icrc-mac; VCRC on native). */
static void forge_crcs(pktbuf *f, const layout *L, enum ibsec_mode mode)
{
    static uint8_t m[IBSEC_MAX_PKT + 8];
    if (mode != IBSEC_MODE_ICRC_MAC) {
        size_t n = ref_masked(f->b, L, L->icrc, m);
        put_le(f->b + L->icrc, ref_crc32(m, n), 4);
    }
    if (!L->roce)
        put_le(f->b + f->n - 2, ref_crc16(f->b, f->n - 2), 2);
}

/* One flipped packet: rejected, or a variant bit passed through unchanged. */
static void open_flipped(pair *pr, bool roce, const layout *Ls, const pktbuf *plain,
                         const pktbuf *f, size_t off, unsigned bit, bool forged, flip_stats *st)
{
    pktbuf out;
    ibsec_ctx saved = pr->rx.ctx[0];
    enum ibsec_reason r = do_open(&pr->rx, roce, f, &out, NULL);
    st->flips++;
    st->forged += forged;
    if (r != IBSEC_R_OK) {
        C.passed++; /* the check "rejected, or a bit that may pass" held */
        st->rejected++;
        st->reason[r]++;
        return;
    }
    /* accepted: roll the receive window back so that the next flip of the
     * same packet meets the same state (and is not merely a replay) */
    pr->rx.ctx[0] = saved;
    st->passed_variant++;
    st->forged_passed += forged;
    /* sth-hdr authenticates the headers only: its payload and pad are guarded
     * by the ICRC alone, which a forger recomputes (wire-format.md §3) */
    bool clear_payload = pr->mode == IBSEC_MODE_STH_HDR && off >= Ls->payload && off < Ls->icrc;
    if (!ref_is_variant(Ls, off, bit) && !clear_payload) {
        check_failf(&C, "flip %s %s: bit %u of byte %zu (not variant) accepted",
                    ibsec_mode_name(pr->mode), roce ? "roce" : "native", bit, off);
        return;
    }
    /* the plain packet with the same bit flipped */
    pktbuf want = *plain;
    want.b[clear_payload ? off - Ls->sth_len : off] ^= (uint8_t)(1u << bit);
    if (clear_payload) {
        layout Lp;
        ref_layout(want.b, want.n, roce, 0, &Lp);
        forge_crcs(&want, &Lp, IBSEC_MODE_NONE);
    }
    if (!roce)
        put_le(want.b + want.n - 2, ref_crc16(want.b, want.n - 2), 2);
    ref_udp_csum_zero(&want, roce);
    check_int(&C, "flip: variant bit passes, length", (long long)want.n, (long long)out.n);
    check_bytes(&C, "flip: variant bit passes through unchanged", want.b, out.b, want.n);
}

static void flip_packet(pair *pr, bool roce, const pktbuf *plain, const pktbuf *sealed,
                        flip_stats *st)
{
    layout Ls;
    if (!check_true(&C, ref_layout(sealed->b, sealed->n, roce, ref_sth_len(pr->mode, pr->code), &Ls),
                    "flip: layout"))
        return;
    for (size_t off = 0; off < sealed->n; off++)
        for (unsigned bit = 0; bit < 8; bit++) {
            pktbuf f = *sealed;
            f.b[off] ^= (uint8_t)(1u << bit);
            open_flipped(pr, roce, &Ls, plain, &f, off, bit, false, st);
            forge_crcs(&f, &Ls, pr->mode);
            if (memcmp(f.b, sealed->b, f.n) != 0) /* a CRC-field flip is undone by forging */
                open_flipped(pr, roce, &Ls, plain, &f, off, bit, true, st);
        }
    pktbuf out;
    check_reason("flip: the original still opens after its flips", IBSEC_R_OK,
                 do_open(&pr->rx, roce, sealed, &out, NULL));
}

/* The open counters of a flip run equal the reasons the calls returned. */
static void check_flip_counters(const pair *pr, const flip_stats *before, const flip_stats *after,
                                unsigned long originals)
{
    for (int r = 1; r < IBSEC_R_COUNT; r++)
        check_int(&C, "flip: open counter = returned reasons",
                  (long long)(after->reason[r] - before->reason[r]),
                  (long long)pr->rx.count[IBSEC_OP_OPEN][r]);
    check_int(&C, "flip: open ok counter = variant passes + originals",
              (long long)(after->passed_variant - before->passed_variant + originals),
              (long long)pr->rx.count[IBSEC_OP_OPEN][IBSEC_R_OK]);
}

/* A small packet of a random opcode, or of a payload-carrying one of a
 * random length (mostly 0..39 bytes so that the flips stay affordable). */
static bool small_plain(ibsec_rng *r, enum ibsec_shape shape, uint32_t psn, pktbuf *plain)
{
    size_t cursor = ibsec_rng_below(r, 256);
    int len = (int)(ibsec_rng_below(r, 4) == 0 ? ibsec_rng_below(r, 200) : ibsec_rng_below(r, 40));
    if (ibsec_rng_below(r, 5) == 0 &&
        make_plain(r, shape, -1, -1, TEST_QPN, -1, psn, plain) && plain->n < 400)
        return true;
    return plain_with_len(r, shape, &cursor, len, psn, plain);
}

static void test_flips(ibsec_rng *r)
{
    static const struct { enum ibsec_mode mode; unsigned code; int per_shape; } plan[] = {
        { IBSEC_MODE_STH_AEAD, 2, 12 }, { IBSEC_MODE_STH_PKT, 2, 12 },
        { IBSEC_MODE_STH_HDR, 2, 12 },  { IBSEC_MODE_STH_AEAD, 1, 6 },
        { IBSEC_MODE_STH_PKT, 1, 6 },   { IBSEC_MODE_STH_HDR, 1, 6 },
        { IBSEC_MODE_ICRC_MAC, 0, 6 },
    };
    unsigned long total_packets = 0;
    for (size_t k = 0; k < sizeof plan / sizeof plan[0]; k++) {
        flip_stats st;
        memset(&st, 0, sizeof st);
        for (int s = 0; s < IBSEC_SHAPE_COUNT; s++) {
            pair pr;
            enum ibsec_shape shape = (enum ibsec_shape)s;
            bool roce = shape_roce(shape);
            uint64_t epsn = ibsec_rng_below(r, 1u << 26);
            flip_stats before = st;
            unsigned long originals = 0;
            pair_init(&pr, r, plan[k].mode, (k + (size_t)s) & 1 ? 32 : 16, plan[k].code, epsn, 0);
            for (int i = 0; i < plan[k].per_shape; i++) {
                pktbuf plain, sealed;
                if (!check_true(&C, small_plain(r, shape, (uint32_t)epsn, &plain), "flip: plain packet"))
                    continue;
                if (!check_reason("flip: seal", IBSEC_R_OK, do_seal(&pr.tx, roce, &plain, &sealed, NULL)))
                    continue;
                epsn++;
                total_packets++;
                originals++;
                flip_packet(&pr, roce, &plain, &sealed, &st);
            }
            check_flip_counters(&pr, &before, &st, originals);
            pair_free(&pr);
        }
        printf("sec: flip %s STH code %u: %lu raw flips, %lu passed; %lu forged (CRCs redone), "
               "%lu passed; passed = variant field or sth-hdr payload, delivered unchanged; "
               "reasons:", ibsec_mode_name(plan[k].mode), plan[k].code, st.flips - st.forged,
               st.passed_variant - st.forged_passed, st.forged, st.forged_passed);
        for (int rr = 1; rr < IBSEC_R_COUNT; rr++)
            if (st.reason[rr])
                printf(" %s %lu", ibsec_reason_name((enum ibsec_reason)rr), st.reason[rr]);
        printf("\n");
        check_true(&C, st.reason[IBSEC_R_AUTH_FAILED] > 0,
                   "flip: some flips reach the tag check and fail it");
    }
    printf("sec: flip: %lu sealed packets flipped bit by bit\n", total_packets);
}

/* ======================================================================
 * mf: the Marking Field mask (docs/availability.md §2.4)
 * ====================================================================== */

/* Set the plain packet's CRCs as a host of a mask_mf fabric has them. */
static void plain_crcs_mf(pktbuf *plain, bool roce)
{
    layout L;
    if (ref_layout(plain->b, plain->n, roce, 0, &L))
        forge_crcs(plain, &L, IBSEC_MODE_NONE);
}

/* Flip each of the 38 Marking Field bits of a sealed native-GRH packet (VCRC
 * redone, as a marking switch does) and open it; returns how many opened to
 * the plain packet with the same bit flipped. */
static int open_mf_flips(pair *pr, const pktbuf *plain, const pktbuf *sealed)
{
    int delivered = 0;
    for (int b = 0; b < 38; b++) {
        size_t off = 8 + 29 - (size_t)(b / 8); /* MF bit b: byte 29 holds bits 7:0 */
        unsigned bit = (unsigned)(b % 8);
        pktbuf f = *sealed, out, want = *plain;
        f.b[off] ^= (uint8_t)(1u << bit);
        put_le(f.b + f.n - 2, ref_crc16(f.b, f.n - 2), 2);
        want.b[off] ^= (uint8_t)(1u << bit);
        put_le(want.b + want.n - 2, ref_crc16(want.b, want.n - 2), 2);
        ibsec_ctx saved = pr->rx.ctx[0];
        if (do_open(&pr->rx, false, &f, &out, NULL) == IBSEC_R_OK && out.n == want.n &&
            memcmp(out.b, want.b, want.n) == 0)
            delivered++;
        pr->rx.ctx[0] = saved; /* the next flip meets the same window */
    }
    return delivered;
}

static void test_mask_mf(ibsec_rng *r)
{
    static const enum ibsec_shape shapes[] = { IBSEC_SHAPE_IB_GLOBAL, IBSEC_SHAPE_IB_LOCAL,
                                               IBSEC_SHAPE_ROCE_V6, IBSEC_SHAPE_ROCE_V4 };
    unsigned long packets = 0;
    for (int m = 0; m < N_MODES; m++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            pair pr;
            bool roce = shape_roce(shapes[s]);
            uint64_t epsn = ibsec_rng_below(r, 1u << 30);
            char what[160];
            pair_init(&pr, r, all_modes[m], (m & 1) ? 32 : 16, 1 + (unsigned)(s & 1), epsn, 0);
            pr.tx.mask_mf = pr.rx.mask_mf = ref_mask_mf = true;
            for (int i = 0; i < 10; i++) {
                pktbuf plain;
                if (!check_true(&C, small_plain(r, shapes[s], (uint32_t)epsn, &plain), "mf: plain packet"))
                    continue;
                plain_crcs_mf(&plain, roce);
                snprintf(what, sizeof what, "mf %s %s", ibsec_mode_name(all_modes[m]),
                         ibsec_shape_name(shapes[s]));
                round_trip(what, &pr, roce, &plain, epsn++);
                packets++;
                if (shapes[s] != IBSEC_SHAPE_IB_GLOBAL || i != 0)
                    continue;
                pktbuf sealed;
                if (!check_true(&C, small_plain(r, shapes[s], (uint32_t)epsn, &plain), "mf: plain packet"))
                    continue;
                plain_crcs_mf(&plain, roce);
                if (!check_reason("mf: seal", IBSEC_R_OK, do_seal(&pr.tx, roce, &plain, &sealed, NULL)))
                    continue;
                epsn++;
                snprintf(what, sizeof what, "mf %s: every Marking Field flip delivered",
                         ibsec_mode_name(all_modes[m]));
                check_int(&C, what, 38, open_mf_flips(&pr, &plain, &sealed));
                pr.rx.mask_mf = false;
                snprintf(what, sizeof what, "mf %s: no Marking Field flip delivered with mask_mf off",
                         ibsec_mode_name(all_modes[m]));
                check_int(&C, what, 0, open_mf_flips(&pr, &plain, &sealed));
                pr.rx.mask_mf = true;
            }
            ref_mask_mf = false;
            pair_free(&pr);
        }
    printf("sec: mf: %lu packets sealed with mask_mf, cross-checked with OpenSSL and opened\n",
           packets);
}

/* ======================================================================
 * epsn: reconstruction, replay window, wrap, nonce reuse, exhaustion
 * ====================================================================== */

static void test_epsn_reconstruct(ibsec_rng *r)
{
    const int64_t half = 1 << 23;
    unsigned long bad = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t ref = ((uint64_t)ibsec_rng_next(r) >> 2) | (1ull << 24); /* in [2^24, 2^62) */
        int64_t d = (int64_t)ibsec_rng_below(r, 1u << 24) - half;        /* [-2^23, 2^23) */
        uint64_t want = (uint64_t)((int64_t)ref + d), got = 0;
        if (ibsec_epsn_reconstruct(ref, (uint32_t)(want & IBSEC_PSN_MASK), &got) != 0 || got != want)
            bad++;
    }
    check_int(&C, "epsn: reconstruction = nearest value in [ref-2^23, ref+2^23)", 0, (long long)bad);
    uint64_t e = 0;
    check_int(&C, "epsn: below zero refused", -1, ibsec_epsn_reconstruct(5, (uint32_t)(5 - 10) & IBSEC_PSN_MASK, &e));
    check_int(&C, "epsn: 2^63 refused", 1,
              ibsec_epsn_reconstruct((1ull << 63) - 3, (uint32_t)(((1ull << 63) + 2) & IBSEC_PSN_MASK), &e));
}

/* Seal n packets with consecutive EPSNs from the pair's tx state. */
static void seal_series(ibsec_rng *r, pair *pr, enum ibsec_shape shape, uint64_t first, int n,
                        pktbuf *out)
{
    for (int i = 0; i < n; i++) {
        pktbuf plain;
        size_t cursor = (size_t)i;
        if (!plain_with_len(r, shape, &cursor, (int)ibsec_rng_below(r, 64), (uint32_t)(first + (uint64_t)i), &plain) ||
            !check_reason("epsn: seal series", IBSEC_R_OK, do_seal(&pr->tx, shape_roce(shape), &plain, &out[i], NULL)))
            out[i].n = 0;
    }
}

static enum ibsec_reason open_idx(pair *pr, bool roce, const pktbuf *s)
{
    pktbuf out;
    return do_open(&pr->rx, roce, s, &out, NULL);
}

static void test_replay(ibsec_rng *r)
{
    static pktbuf s[260];
    pair pr;
    const uint64_t start = 1000;
    pair_init(&pr, r, IBSEC_MODE_STH_AEAD, 16, 2, start, 0);
    seal_series(r, &pr, IBSEC_SHAPE_IB_LOCAL, start, 200, s);
    for (int i = 0; i < 100; i++)
        check_reason("epsn: in order", IBSEC_R_OK, open_idx(&pr, false, &s[i]));
    check_reason("epsn: replay of an accepted packet", IBSEC_R_REPLAY, open_idx(&pr, false, &s[50]));
    check_reason("epsn: replay of the newest packet", IBSEC_R_REPLAY, open_idx(&pr, false, &s[99]));
    check_reason("epsn: older than the window", IBSEC_R_PSN_TOO_OLD, open_idx(&pr, false, &s[10]));
    /* 100..163: newest first, then the other 63 backwards: all within the
     * 64-entry window, each accepted once */
    check_reason("epsn: jump ahead", IBSEC_R_OK, open_idx(&pr, false, &s[163]));
    for (int i = 162; i >= 100; i--)
        check_reason("epsn: out of order within the window", IBSEC_R_OK, open_idx(&pr, false, &s[i]));
    for (int i = 100; i <= 163; i++)
        check_reason("epsn: out-of-order packet accepted once", IBSEC_R_REPLAY, open_idx(&pr, false, &s[i]));
    /* skip 164..180, accept 181..199: 164 is then 36 behind the newest (in the
     * window, never seen: accepted); after 199+64 nothing of 164..180 is left */
    for (int i = 181; i < 200; i++)
        check_reason("epsn: after a gap", IBSEC_R_OK, open_idx(&pr, false, &s[i]));
    check_reason("epsn: late packet inside the window", IBSEC_R_OK, open_idx(&pr, false, &s[164]));
    check_reason("epsn: late packet accepted once", IBSEC_R_REPLAY, open_idx(&pr, false, &s[164]));
    check_int(&C, "epsn: rx_next = newest + 1", (long long)(start + 200), (long long)pr.rx.ctx[0].rx_next);
    check_int(&C, "epsn: open counter replay", 67, (long long)pr.rx.count[IBSEC_OP_OPEN][IBSEC_R_REPLAY]);
    check_int(&C, "epsn: open counter psn_too_old", 1,
              (long long)pr.rx.count[IBSEC_OP_OPEN][IBSEC_R_PSN_TOO_OLD]);
    /* a packet exactly 64 behind the newest is out, 63 behind is in */
    pair_free(&pr);
    pair_init(&pr, r, IBSEC_MODE_STH_HDR, 32, 1, start, 0);
    seal_series(r, &pr, IBSEC_SHAPE_ROCE_V4, start, 66, s);
    check_reason("epsn: newest", IBSEC_R_OK, open_idx(&pr, true, &s[65]));
    check_reason("epsn: 64 behind the next expected (window edge)", IBSEC_R_OK, open_idx(&pr, true, &s[2]));
    check_reason("epsn: 65 behind the next expected", IBSEC_R_PSN_TOO_OLD, open_idx(&pr, true, &s[1]));
    pair_free(&pr);
}

/* PSN wrap: the EPSN keeps counting across 2^24 (and 2^32). */
static void test_wrap(ibsec_rng *r)
{
    static const uint64_t starts[] = { (1ull << 24) - 6, (5ull << 24) - 3, (1ull << 32) - 4 };
    for (size_t k = 0; k < 3; k++) {
        pair pr;
        enum ibsec_shape shape = (enum ibsec_shape)(k + 1);
        pair_init(&pr, r, k == 1 ? IBSEC_MODE_ICRC_MAC : IBSEC_MODE_STH_AEAD, 32, 2, starts[k], 0);
        for (uint64_t e = starts[k]; e < starts[k] + 12; e++) {
            pktbuf plain;
            size_t cursor = (size_t)e;
            if (plain_with_len(r, shape, &cursor, 33, (uint32_t)e, &plain))
                round_trip("epsn wrap", &pr, shape_roce(shape), &plain, e);
        }
        check_int(&C, "epsn wrap: tx_next", (long long)(starts[k] + 12), (long long)pr.tx.ctx[0].tx_next);
        check_int(&C, "epsn wrap: rx_next", (long long)(starts[k] + 12), (long long)pr.rx.ctx[0].rx_next);
        pair_free(&pr);
    }
}

static void test_nonce(ibsec_rng *r)
{
    pair pr;
    pktbuf plain, sealed;
    size_t cursor = 0;
    ibsec_verdict v;
    pair_init(&pr, r, IBSEC_MODE_STH_PKT, 16, 2, 500, 0);
    struct { uint32_t psn; enum ibsec_reason want; const char *what; } seq[] = {
        { 500, IBSEC_R_OK, "first" },
        { 500, IBSEC_R_NONCE_REUSE, "same PSN again" },
        { 499, IBSEC_R_NONCE_REUSE, "older PSN" },
        { (uint32_t)((501 - (1 << 23)) & IBSEC_PSN_MASK), IBSEC_R_NONCE_REUSE, "PSN 2^23 behind" },
        { 501, IBSEC_R_OK, "next" },
        { 501 + (1 << 23) - 1, IBSEC_R_OK, "largest jump ahead" },
        { 600, IBSEC_R_NONCE_REUSE, "back after the jump" },
    };
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        char msg[120];
        snprintf(msg, sizeof msg, "nonce: %s", seq[i].what);
        if (plain_with_len(r, IBSEC_SHAPE_IB_GLOBAL, &cursor, 20, seq[i].psn, &plain))
            check_reason(msg, seq[i].want, do_seal(&pr.tx, false, &plain, &sealed, &v));
    }
    check_int(&C, "nonce: seal counter nonce_reuse", 4, (long long)pr.tx.count[IBSEC_OP_SEAL][IBSEC_R_NONCE_REUSE]);
    check_int(&C, "nonce: seal counter ok", 3, (long long)pr.tx.count[IBSEC_OP_SEAL][IBSEC_R_OK]);
    pair_free(&pr);

    /* exhaustion: the last two EPSNs below 2^63 seal and open, then no more */
    const uint64_t last = (1ull << 63) - 1;
    pair_init(&pr, r, IBSEC_MODE_STH_AEAD, 32, 1, last - 1, 0);
    for (uint64_t e = last - 1; e <= last; e++)
        if (plain_with_len(r, IBSEC_SHAPE_ROCE_V6, &cursor, 7, (uint32_t)e, &plain))
            round_trip("nonce: last EPSNs", &pr, true, &plain, e);
    if (plain_with_len(r, IBSEC_SHAPE_ROCE_V6, &cursor, 7, (uint32_t)(last + 1), &plain)) {
        check_reason("nonce: EPSN 2^63", IBSEC_R_EPSN_EXHAUSTED, do_seal(&pr.tx, true, &plain, &sealed, &v));
        check_reason("nonce: still exhausted", IBSEC_R_EPSN_EXHAUSTED, do_seal(&pr.tx, true, &plain, &sealed, &v));
    }
    uint64_t e;
    check_reason("nonce: receiver refuses EPSN 2^63", IBSEC_R_EPSN_EXHAUSTED,
                 ibsec_epsn_rx_check(&pr.rx.ctx[0], 0, &e));
    pair_free(&pr);
}

/* ======================================================================
 * alert: consecutive authentication failures (Lee & Kim §6.1)
 * ====================================================================== */

/* A copy of a sealed packet with one tag bit flipped and the CRCs redone. */
static pktbuf forged_tag(const pair *pr, bool roce, const pktbuf *sealed)
{
    pktbuf f = *sealed;
    layout L;
    ref_layout(f.b, f.n, roce, ref_sth_len(pr->mode, pr->code), &L);
    f.b[pr->mode == IBSEC_MODE_ICRC_MAC ? L.icrc : L.eths_end] ^= 0x01;
    forge_crcs(&f, &L, pr->mode);
    return f;
}

static void test_alert(ibsec_rng *r)
{
    static pktbuf s[8];
    pair pr;
    ibsec_verdict v;
    pktbuf out;
    pair_init(&pr, r, IBSEC_MODE_STH_AEAD, 16, 2, 77, 3);
    seal_series(r, &pr, IBSEC_SHAPE_IB_LOCAL, 77, 8, s);
    pktbuf bad = forged_tag(&pr, false, &s[7]);
    ibsec_ctx *c = &pr.rx.ctx[0];
    const bool want_raise[4] = { false, false, true, false };
    for (int i = 0; i < 4; i++) {
        check_reason("alert: forged tag", IBSEC_R_AUTH_FAILED, do_open(&pr.rx, false, &bad, &out, &v));
        check_int(&C, "alert: raised on the threshold-th failure only", want_raise[i], v.alert_raised);
    }
    check_true(&C, c->alert && c->alert_count == 1, "alert: sticky, raised once");
    check_reason("alert: good packet", IBSEC_R_OK, do_open(&pr.rx, false, &s[0], &out, &v));
    check_int(&C, "alert: a success clears the failure count", 0, c->fail_consec);
    check_true(&C, c->alert, "alert: flag stays until cleared");
    ibsec_ctx_clear_alert(&pr.rx, 0);
    check_true(&C, !c->alert, "alert: cleared");
    for (int i = 0; i < 2; i++)
        check_reason("alert: forged", IBSEC_R_AUTH_FAILED, do_open(&pr.rx, false, &bad, &out, &v));
    check_reason("alert: good packet resets", IBSEC_R_OK, do_open(&pr.rx, false, &s[1], &out, &v));
    for (int i = 0; i < 2; i++) {
        check_reason("alert: forged", IBSEC_R_AUTH_FAILED, do_open(&pr.rx, false, &bad, &out, &v));
        check_int(&C, "alert: not raised (count reset by the success)", 0, v.alert_raised);
    }
    check_reason("alert: replay is not an auth failure", IBSEC_R_REPLAY, do_open(&pr.rx, false, &s[1], &out, &v));
    check_int(&C, "alert: replay leaves the count", 2, c->fail_consec);
    check_reason("alert: third consecutive", IBSEC_R_AUTH_FAILED, do_open(&pr.rx, false, &bad, &out, &v));
    check_true(&C, v.alert_raised && c->alert && c->alert_count == 2, "alert: raised again");
    check_int(&C, "alert: auth_failed counter", 9, (long long)pr.rx.count[IBSEC_OP_OPEN][IBSEC_R_AUTH_FAILED]);
    check_reason("alert: the forged packet did not move the window", IBSEC_R_OK,
                 do_open(&pr.rx, false, &s[7], &out, &v));
    pair_free(&pr);
}

/* ======================================================================
 * ctx: selection, plain traffic, mismatch, downgrade
 * ====================================================================== */

static void set_ctx(ibsec_engine *e, unsigned idx, ibsec_ctx_cfg cfg)
{
    const char *why = NULL;
    if (ibsec_ctx_set(e, idx, &cfg, &why) != 0)
        check_failf(&C, "ctx: set-up refused: %s", why);
}

/* Point a plain native (no GRH) packet at DestQP / P_Key, CRCs redone. */
static void retarget(pktbuf *p, uint32_t destqp, unsigned pkey)
{
    layout L;
    put16(p->b + 8 + 2, pkey);
    p->b[8 + 5] = (uint8_t)(destqp >> 16);
    p->b[8 + 6] = (uint8_t)(destqp >> 8);
    p->b[8 + 7] = (uint8_t)destqp;
    ref_layout(p->b, p->n, false, 0, &L);
    forge_crcs(p, &L, IBSEC_MODE_NONE);
}

static void test_contexts(ibsec_rng *r)
{
    pair pr;
    pktbuf plain, sealed, out, tmp;
    ibsec_verdict v;
    uint8_t key1[32], salt1[4];
    pair_init(&pr, r, IBSEC_MODE_STH_PKT, 16, 2, 10, 0);
    ibsec_rng_bytes(r, key1, 32);
    ibsec_rng_bytes(r, salt1, 4);
    ibsec_ctx_cfg pk = make_cfg(IBSEC_SEL_PKEY, 0x1234, IBSEC_MODE_STH_PKT, 2, 10, 0);
    ibsec_ctx_cfg qp = make_cfg(IBSEC_SEL_QP, 0x55, IBSEC_MODE_STH_AEAD, 1, 10, 0);
    ibsec_ctx_cfg qpn = make_cfg(IBSEC_SEL_QP, 0x77, IBSEC_MODE_NONE, 0, 0, 0);
    qp.key = 1;
    ibsec_engine *es[2] = { &pr.tx, &pr.rx };
    for (int i = 0; i < 2; i++) {
        ibsec_ctx_clear(es[i], 0);
        ibsec_key_set(es[i], 1, key1, 32, salt1);
        set_ctx(es[i], 0, pk);
        set_ctx(es[i], 1, qp);
        set_ctx(es[i], 2, qpn);
    }
    ibsec_engine_make_peer(&pr.rx);

    /* QP context takes precedence over a matching P_Key context */
    check_int(&C, "ctx: lookup QP before P_Key", 1, ibsec_ctx_lookup(&pr.tx, 0x55, 0x1234));
    check_int(&C, "ctx: lookup by P_Key, membership bit ignored", 0, ibsec_ctx_lookup(&pr.tx, 0x56, 0x9234));
    check_int(&C, "ctx: lookup miss", -1, ibsec_ctx_lookup(&pr.tx, 0x56, 0x1235));
    size_t cur = 0;
    plain_with_len(r, IBSEC_SHAPE_IB_LOCAL, &cur, 40, 10, &plain);
    retarget(&plain, 0x55, 0x9234);
    check_reason("ctx: seal by QP", IBSEC_R_OK, do_seal(&pr.tx, false, &plain, &sealed, &v));
    check_true(&C, v.ctx == 1 && v.mode == IBSEC_MODE_STH_AEAD, "ctx: QP context chosen on seal");
    ref_params rp = { .mode = IBSEC_MODE_STH_AEAD, .code = 1, .key = key1, .klen = 32,
                      .salt = salt1, .dir = 0, .epsn = 10 };
    ref_check_sealed("ctx: QP-selected packet", &plain, &sealed, false, &rp);
    check_reason("ctx: open by QP", IBSEC_R_OK, do_open(&pr.rx, false, &sealed, &out, &v));
    check_true(&C, v.ctx == 1 && out.n == plain.n && memcmp(out.b, plain.b, plain.n) == 0,
               "ctx: QP context chosen on open, packet restored");
    pktbuf qp_sealed = sealed;

    retarget(&plain, 0x56, 0x9234); /* no QP context; P_Key 0x9234 -> context 0 */
    check_reason("ctx: seal by P_Key", IBSEC_R_OK, do_seal(&pr.tx, false, &plain, &sealed, &v));
    check_true(&C, v.ctx == 0 && v.mode == IBSEC_MODE_STH_PKT, "ctx: P_Key context chosen");
    ref_params rp0 = { .mode = IBSEC_MODE_STH_PKT, .code = 2, .key = pr.key, .klen = 16,
                       .salt = pr.salt, .dir = 0, .epsn = 10 };
    ref_check_sealed("ctx: P_Key-selected packet", &plain, &sealed, false, &rp0);
    check_reason("ctx: open by P_Key", IBSEC_R_OK, do_open(&pr.rx, false, &sealed, &out, &v));

    /* no context: refused unless plain traffic is allowed */
    retarget(&plain, 0x56, 0x1235);
    layout L;
    ref_layout(plain.b, plain.n, false, 0, &L);
    check_reason("ctx: seal, no context", IBSEC_R_NO_CONTEXT, do_seal(&pr.tx, false, &plain, &sealed, &v));
    check_reason("ctx: open plain, no context", IBSEC_R_NO_CONTEXT, do_open(&pr.rx, false, &plain, &out, &v));
    pr.tx.allow_plain = pr.rx.allow_plain = true;
    check_reason("ctx: seal plain allowed", IBSEC_R_OK, do_seal(&pr.tx, false, &plain, &sealed, &v));
    check_true(&C, sealed.n == plain.n && memcmp(sealed.b, plain.b, plain.n) == 0, "ctx: plain passes unchanged");
    check_reason("ctx: open plain allowed", IBSEC_R_OK, do_open(&pr.rx, false, &plain, &out, &v));
    check_true(&C, out.n == plain.n && memcmp(out.b, plain.b, plain.n) == 0, "ctx: plain delivered unchanged");
    tmp = plain;
    tmp.b[L.icrc] ^= 0x80;
    put_le(tmp.b + tmp.n - 2, ref_crc16(tmp.b, tmp.n - 2), 2);
    check_reason("ctx: plain allowed, bad ICRC", IBSEC_R_BAD_ICRC, do_open(&pr.rx, false, &tmp, &out, &v));

    /* a secured packet whose context is unknown is never delivered */
    tmp = qp_sealed;
    tmp.b[8 + 7] = 0x99;
    tmp.b[8 + 3] = 0x35;
    ref_layout(tmp.b, tmp.n, false, 12, &L);
    forge_crcs(&tmp, &L, IBSEC_MODE_STH_AEAD);
    check_reason("ctx: secured packet, no context, plain allowed", IBSEC_R_NO_CONTEXT,
                 do_open(&pr.rx, false, &tmp, &out, &v));

    /* mode-none context: plain packets pass in both directions */
    tmp = plain;
    retarget(&tmp, 0x77, 0x1235);
    check_reason("ctx: mode-none context seal", IBSEC_R_OK, do_seal(&pr.tx, false, &tmp, &sealed, &v));
    check_true(&C, v.ctx == 2 && sealed.n == tmp.n && memcmp(sealed.b, tmp.b, tmp.n) == 0,
               "ctx: mode-none context leaves the packet as it is");
    check_reason("ctx: mode-none context open", IBSEC_R_OK, do_open(&pr.rx, false, &tmp, &out, &v));

    /* downgrade: a plain packet to a QP whose context is secured */
    retarget(&tmp, 0x55, 0x1235);
    check_reason("ctx: downgrade to none", IBSEC_R_MODE_MISMATCH, do_open(&pr.rx, false, &tmp, &out, &v));

    /* mode and STH size must match the receiver's context */
    ibsec_ctx_cfg rqp = pr.rx.ctx[1].cfg;
    ibsec_ctx_cfg alt = rqp;
    alt.mode = IBSEC_MODE_STH_PKT;
    set_ctx(&pr.rx, 1, alt);
    check_reason("ctx: mode mismatch", IBSEC_R_MODE_MISMATCH, do_open(&pr.rx, false, &qp_sealed, &out, &v));
    alt = rqp;
    alt.sth_code = 2;
    set_ctx(&pr.rx, 1, alt);
    check_reason("ctx: STH size mismatch", IBSEC_R_STH_SIZE_MISMATCH, do_open(&pr.rx, false, &qp_sealed, &out, &v));
    set_ctx(&pr.rx, 1, rqp);
    ibsec_key_clear(&pr.rx, 1);
    check_reason("ctx: key cleared", IBSEC_R_NO_KEY, do_open(&pr.rx, false, &qp_sealed, &out, &v));
    ibsec_key_set(&pr.rx, 1, key1, 32, salt1);
    check_reason("ctx: key back, packet opens", IBSEC_R_OK, do_open(&pr.rx, false, &qp_sealed, &out, &v));

    /* configuration checks */
    const char *why = NULL;
    ibsec_ctx_cfg badc = make_cfg(IBSEC_SEL_QP, 0x55, IBSEC_MODE_STH_HDR, 2, 0, 0);
    check_int(&C, "ctx: duplicate selector refused", -1, ibsec_ctx_set(&pr.tx, 5, &badc, &why));
    badc = make_cfg(IBSEC_SEL_PKEY, 0x9234, IBSEC_MODE_STH_HDR, 2, 0, 0);
    check_int(&C, "ctx: P_Key with membership bit refused", -1, ibsec_ctx_set(&pr.tx, 5, &badc, &why));
    badc = make_cfg(IBSEC_SEL_QP, 0x1000000, IBSEC_MODE_STH_HDR, 2, 0, 0);
    check_int(&C, "ctx: QPN > 24 bits refused", -1, ibsec_ctx_set(&pr.tx, 5, &badc, &why));
    badc = make_cfg(IBSEC_SEL_QP, 0x88, IBSEC_MODE_STH_HDR, 3, 0, 0);
    check_int(&C, "ctx: STH code 3 refused", -1, ibsec_ctx_set(&pr.tx, 5, &badc, &why));
    badc = make_cfg(IBSEC_SEL_QP, 0x88, IBSEC_MODE_STH_HDR, 2, 1ull << 63, 0);
    check_int(&C, "ctx: EPSN 2^63 refused", -1, ibsec_ctx_set(&pr.tx, 5, &badc, &why));
    pair_free(&pr);
}

/* RoCEv2 frames shorter than 60 bytes reach the engine padded by the
 * Ethernet MAC: the padding is not part of the packet (wire-format.md §1). */
static void test_min_frame(ibsec_rng *r)
{
    pair pr;
    pktbuf plain, padded, sealed, out;
    const uint64_t e = 900;
    pair_init(&pr, r, IBSEC_MODE_ICRC_MAC, 16, 0, e, 0);
    if (!check_true(&C, make_plain(r, IBSEC_SHAPE_ROCE_V4, 0x04, 0, TEST_QPN, -1, (uint32_t)e, &plain) &&
                            plain.n < IBSEC_ETH_MIN_FRAME,
                    "min frame: a RoCEv2 packet shorter than 60 bytes")) {
        pair_free(&pr);
        return;
    }
    padded = plain;
    memset(padded.b + plain.n, 0, IBSEC_ETH_MIN_FRAME - plain.n);
    padded.n = IBSEC_ETH_MIN_FRAME;
    check_reason("min frame: seal a padded frame", IBSEC_R_OK, do_seal(&pr.tx, true, &padded, &sealed, NULL));
    ref_params rp = { .mode = pr.mode, .code = 0, .key = pr.key, .klen = pr.klen,
                      .salt = pr.salt, .dir = 0, .epsn = e };
    ref_check_sealed("min frame: sealed without the padding", &plain, &sealed, true, &rp);
    padded = sealed;
    memset(padded.b + sealed.n, 0, IBSEC_ETH_MIN_FRAME - sealed.n);
    padded.n = IBSEC_ETH_MIN_FRAME;
    check_reason("min frame: open a padded frame", IBSEC_R_OK, do_open(&pr.rx, true, &padded, &out, NULL));
    check_int(&C, "min frame: delivered without the padding", (long long)plain.n, (long long)out.n);
    ref_udp_csum_zero(&plain, true);
    check_bytes(&C, "min frame: open(seal(p)) == p (UDP checksum 0)", plain.b, out.b, plain.n);
    pair_free(&pr);
}

/* ======================================================================
 * corpus: malformed packets, each with its expected reason
 * ====================================================================== */

#define PLAIN_QPN 0x000200u

/* Rewrite every length field for the packet's current size (§4). */
static void fix_lengths(pktbuf *p, const layout *L)
{
    if (!L->roce) {
        put16(p->b + 4, (get16(p->b + 4) & 0xF800u) | (unsigned)((p->n - 2) / 4));
        if (L->grh)
            put16(p->b + 12, (unsigned)(p->n - 2 - 48));
        return;
    }
    if (L->v4)
        put16(p->b + L->ip + 2, (unsigned)(p->n - L->ip));
    else
        put16(p->b + L->ip + 4, (unsigned)(p->n - L->udp));
    put16(p->b + L->udp + 4, (unsigned)(p->n - L->udp));
}

static void fix_ipv4_csum(pktbuf *p, const layout *L)
{
    if (L->roce && L->v4)
        put16(p->b + L->ip + 10, ref_ipv4_csum(p->b + L->ip));
}

/* Insert 4 bytes of data before the ICRC and fix the lengths. */
static void grow_data(pktbuf *p, const layout *L)
{
    memmove(p->b + L->icrc + 4, p->b + L->icrc, p->n - L->icrc);
    memset(p->b + L->icrc, 0xA5, 4);
    p->n += 4;
    fix_lengths(p, L);
    fix_ipv4_csum(p, L);
}

enum base_kind { BASE_SEALED, BASE_FIRST, BASE_PLAIN, BASE_ACK, BASE_BIG, BASE_COUNT };

typedef struct {
    const char *what;
    enum base_kind base;
    int shapes;          /* bit per enum ibsec_shape */
    enum ibsec_reason want;
    void (*mutate)(pktbuf *p, const layout *L);
} corpus_entry;

#define SH_ALL 0xF
#define SH_NATIVE 0x3
#define SH_GRH 0x2
#define SH_ROCE 0xC
#define SH_V4 0x4
#define SH_V6 0x8

static uint8_t unknown_opcode(void)
{
    for (unsigned o = 0; o < 256; o++)
        if (ibsec_opcode_lookup((uint8_t)o) == NULL)
            return (uint8_t)o;
    return 0xFF;
}

static void m_trunc_first(pktbuf *p, const layout *L) { p->n = L->roce ? 20 : 5; }
static void m_trunc_bth(pktbuf *p, const layout *L) { p->n = L->bth + 6; }
static void m_trunc_tail(pktbuf *p, const layout *L) { p->n = L->payload + 1; }
static void m_missing4(pktbuf *p, const layout *L)
{
    memmove(p->b + L->icrc - 4, p->b + L->icrc, p->n - L->icrc);
    p->n -= 4;
}
static void m_pktlen(pktbuf *p, const layout *L) { (void)L; p->b[5] ^= 0x01; }
static void m_grh_paylen(pktbuf *p, const layout *L) { (void)L; put16(p->b + 12, get16(p->b + 12) + 4); }
static void m_ip4_len(pktbuf *p, const layout *L)
{
    put16(p->b + L->ip + 2, get16(p->b + L->ip + 2) + 4);
    fix_ipv4_csum(p, L);
}
static void m_ip4_csum(pktbuf *p, const layout *L) { p->b[L->ip + 11] ^= 0x01; }
static void m_ip6_len(pktbuf *p, const layout *L) { put16(p->b + L->ip + 4, get16(p->b + L->ip + 4) - 4); }
static void m_udp_len(pktbuf *p, const layout *L) { put16(p->b + L->udp + 4, get16(p->b + L->udp + 4) + 4); }
static void m_opcode(pktbuf *p, const layout *L) { p->b[L->bth] = unknown_opcode(); }
static void m_cnp_native(pktbuf *p, const layout *L) { p->b[L->bth] = 0x81; }
static void m_padcnt1(pktbuf *p, const layout *L) { p->b[L->bth + 1] |= 0x10; }
static void m_padcnt3(pktbuf *p, const layout *L) { p->b[L->bth + 1] |= 0x30; }
static void m_grow(pktbuf *p, const layout *L) { grow_data(p, L); }
static void m_icrc(pktbuf *p, const layout *L) { p->b[L->icrc + 2] ^= 0x10; }
static void m_vcrc(pktbuf *p, const layout *L) { (void)L; p->b[p->n - 1] ^= 0x01; }
static void m_pnbit(pktbuf *p, const layout *L) { p->b[L->bth + 8] |= 0x20; }
static void m_kpbit(pktbuf *p, const layout *L) { p->b[L->bth + 8] |= 0x40; }
static void m_sec2_nosth(pktbuf *p, const layout *L) { p->b[L->bth + 8] = (uint8_t)((p->b[L->bth + 8] & 0x80) | 0x10); }
static void m_sec3_nosth(pktbuf *p, const layout *L) { p->b[L->bth + 8] = (uint8_t)((p->b[L->bth + 8] & 0x80) | 0x18); }
static void m_sth_nosec(pktbuf *p, const layout *L) { p->b[L->bth + 8] = (uint8_t)((p->b[L->bth + 8] & 0x80) | 0x02); }
static void m_sthsz3(pktbuf *p, const layout *L) { p->b[L->bth + 8] = (uint8_t)((p->b[L->bth + 8] & 0x80) | 0x1B); }
static void m_sthsz5(pktbuf *p, const layout *L) { p->b[L->bth + 8] = (uint8_t)((p->b[L->bth + 8] & 0x80) | 0x0D); }
static void m_sthsz7(pktbuf *p, const layout *L) { p->b[L->bth + 8] = (uint8_t)((p->b[L->bth + 8] & 0x80) | 0x17); }
static void m_tver(pktbuf *p, const layout *L) { p->b[L->bth + 1] |= 0x01; }
static void m_lver(pktbuf *p, const layout *L) { (void)L; p->b[0] |= 0x01; }
static void m_lnh0(pktbuf *p, const layout *L) { (void)L; p->b[1] &= 0xFC; }
static void m_lnh1(pktbuf *p, const layout *L) { (void)L; p->b[1] = (uint8_t)((p->b[1] & 0xFC) | 1); }
static void m_nxthdr(pktbuf *p, const layout *L) { (void)L; p->b[8 + 6] = 0x11; }
static void m_grh_ipver(pktbuf *p, const layout *L) { (void)L; p->b[8] = (uint8_t)((p->b[8] & 0x0F) | 0x40); }
static void m_ethertype(pktbuf *p, const layout *L) { (void)L; put16(p->b + 12, 0x8100); }
static void m_ip4_tcp(pktbuf *p, const layout *L) { p->b[L->ip + 9] = 6; fix_ipv4_csum(p, L); }
static void m_ip6_tcp(pktbuf *p, const layout *L) { p->b[L->ip + 6] = 6; }
static void m_ip4_mf(pktbuf *p, const layout *L) { p->b[L->ip + 6] |= 0x20; fix_ipv4_csum(p, L); }
static void m_ip4_ihl(pktbuf *p, const layout *L) { p->b[L->ip] = 0x46; fix_ipv4_csum(p, L); }
static void m_ip4_ver(pktbuf *p, const layout *L) { p->b[L->ip] = 0x65; fix_ipv4_csum(p, L); }
static void m_udp_port(pktbuf *p, const layout *L) { put16(p->b + L->udp + 2, 4792); }

static const corpus_entry corpus[] = {
    { "truncated in the first header", BASE_SEALED, SH_ALL, IBSEC_R_TRUNCATED, m_trunc_first },
    { "truncated in the BTH", BASE_SEALED, SH_ALL, IBSEC_R_TRUNCATED, m_trunc_bth },
    { "truncated before the ICRC", BASE_SEALED, SH_ALL, IBSEC_R_TRUNCATED, m_trunc_tail },
    { "4 bytes missing (native: PktLen)", BASE_SEALED, SH_NATIVE, IBSEC_R_BAD_PKTLEN, m_missing4 },
    { "4 bytes missing (RoCEv2: IP length)", BASE_SEALED, SH_ROCE, IBSEC_R_BAD_IP_LEN, m_missing4 },
    { "LRH PktLen wrong", BASE_SEALED, SH_NATIVE, IBSEC_R_BAD_PKTLEN, m_pktlen },
    { "GRH PayLen wrong", BASE_SEALED, SH_GRH, IBSEC_R_BAD_GRH_PAYLEN, m_grh_paylen },
    { "IPv4 Total Length wrong", BASE_SEALED, SH_V4, IBSEC_R_BAD_IP_LEN, m_ip4_len },
    { "IPv4 header checksum wrong", BASE_SEALED, SH_V4, IBSEC_R_BAD_IPV4_CSUM, m_ip4_csum },
    { "IPv6 Payload Length wrong", BASE_SEALED, SH_V6, IBSEC_R_BAD_IP_LEN, m_ip6_len },
    { "UDP Length wrong", BASE_SEALED, SH_ROCE, IBSEC_R_BAD_UDP_LEN, m_udp_len },
    { "unknown opcode", BASE_SEALED, SH_ALL, IBSEC_R_BAD_OPCODE, m_opcode },
    { "CNP opcode on native IBA", BASE_PLAIN, SH_NATIVE, IBSEC_R_BAD_OPCODE, m_cnp_native },
    { "PadCnt on a FIRST packet", BASE_FIRST, SH_ALL, IBSEC_R_BAD_PADCNT, m_padcnt1 },
    { "PadCnt on a packet without payload", BASE_ACK, SH_ALL, IBSEC_R_BAD_PADCNT, m_padcnt3 },
    { "payload on an opcode without one", BASE_ACK, SH_ALL, IBSEC_R_BAD_PAYLOAD_LEN, m_grow },
    { "payload above 4096 bytes", BASE_BIG, SH_ALL, IBSEC_R_TOO_LONG, m_grow },
    { "bad ICRC (sth-aead)", BASE_SEALED, SH_ALL, IBSEC_R_BAD_ICRC, m_icrc },
    { "bad ICRC (plain)", BASE_PLAIN, SH_ALL, IBSEC_R_BAD_ICRC, m_icrc },
    { "bad VCRC (sth-aead)", BASE_SEALED, SH_NATIVE, IBSEC_R_BAD_VCRC, m_vcrc },
    { "bad VCRC (plain)", BASE_PLAIN, SH_NATIVE, IBSEC_R_BAD_VCRC, m_vcrc },
    { "PN bit on an epsn context's packet", BASE_SEALED, SH_ALL, IBSEC_R_MODE_MISMATCH, m_pnbit },
    { "PN bit without an STH", BASE_PLAIN, SH_ALL, IBSEC_R_BAD_SECMODE, m_pnbit },
    { "key phase bit in mode none", BASE_PLAIN, SH_ALL, IBSEC_R_BAD_SECMODE, m_kpbit },
    { "key phase 1 without a phase-1 key", BASE_SEALED, SH_ALL, IBSEC_R_NO_KEY, m_kpbit },
    { "SECMODE 2 without STH", BASE_PLAIN, SH_ALL, IBSEC_R_BAD_SECMODE, m_sec2_nosth },
    { "SECMODE 3 without STH", BASE_SEALED, SH_ALL, IBSEC_R_BAD_SECMODE, m_sec3_nosth },
    { "STHSZ without SECMODE", BASE_SEALED, SH_ALL, IBSEC_R_BAD_SECMODE, m_sth_nosec },
    { "STHSZ 3 (160 bits)", BASE_SEALED, SH_ALL, IBSEC_R_STH_SIZE_UNSUPPORTED, m_sthsz3 },
    { "STHSZ 5 (256 bits)", BASE_SEALED, SH_ALL, IBSEC_R_STH_SIZE_UNSUPPORTED, m_sthsz5 },
    { "STHSZ 7 (512 bits)", BASE_SEALED, SH_ALL, IBSEC_R_STH_SIZE_UNSUPPORTED, m_sthsz7 },
    { "BTH TVer 1", BASE_SEALED, SH_ALL, IBSEC_R_BAD_TVER, m_tver },
    { "LRH LVer 1", BASE_SEALED, SH_NATIVE, IBSEC_R_BAD_LVER, m_lver },
    { "LRH LNH raw", BASE_SEALED, SH_NATIVE, IBSEC_R_BAD_LNH, m_lnh0 },
    { "LRH LNH IP", BASE_PLAIN, SH_NATIVE, IBSEC_R_BAD_LNH, m_lnh1 },
    { "GRH NxtHdr not IBA", BASE_SEALED, SH_GRH, IBSEC_R_BAD_NXTHDR, m_nxthdr },
    { "GRH IPVer 4", BASE_SEALED, SH_GRH, IBSEC_R_BAD_IPVER, m_grh_ipver },
    { "EtherType VLAN", BASE_SEALED, SH_ROCE, IBSEC_R_BAD_ETHERTYPE, m_ethertype },
    { "IPv4 protocol TCP", BASE_SEALED, SH_V4, IBSEC_R_NOT_UDP, m_ip4_tcp },
    { "IPv6 next header TCP", BASE_SEALED, SH_V6, IBSEC_R_NOT_UDP, m_ip6_tcp },
    { "IPv4 fragment (MF)", BASE_SEALED, SH_V4, IBSEC_R_IP_FRAGMENT, m_ip4_mf },
    { "IPv4 IHL 6", BASE_SEALED, SH_V4, IBSEC_R_BAD_IPV4_IHL, m_ip4_ihl },
    { "IPv4 version 6", BASE_SEALED, SH_V4, IBSEC_R_BAD_IPVER, m_ip4_ver },
    { "UDP destination port 4792", BASE_SEALED, SH_ROCE, IBSEC_R_BAD_UDP_PORT, m_udp_port },
};

/* The base packets of one shape: a sealed sth-aead SEND_ONLY and SEND_FIRST
 * (QP TEST_QPN), a plain SEND_ONLY, ACK and 4096-byte SEND_ONLY (QP PLAIN_QPN,
 * whose context has mode none). */
static bool corpus_bases(ibsec_rng *r, pair *pr, enum ibsec_shape shape, uint64_t *epsn,
                         pktbuf base[BASE_COUNT])
{
    static const struct { int opcode, len; uint32_t qpn; bool seal; } how[BASE_COUNT] = {
        [BASE_SEALED] = { 0x04, 24, TEST_QPN, true },
        [BASE_FIRST]  = { 0x00, 256, TEST_QPN, true },
        [BASE_PLAIN]  = { 0x04, 24, PLAIN_QPN, false },
        [BASE_ACK]    = { 0x11, 0, PLAIN_QPN, false },
        [BASE_BIG]    = { 0x04, 4096, PLAIN_QPN, false },
    };
    for (int k = 0; k < BASE_COUNT; k++) {
        pktbuf plain;
        if (!make_plain(r, shape, how[k].opcode, how[k].len, how[k].qpn, -1, (uint32_t)*epsn, &plain))
            return false;
        if (!how[k].seal) {
            base[k] = plain;
            continue;
        }
        if (do_seal(&pr->tx, shape_roce(shape), &plain, &base[k], NULL) != IBSEC_R_OK)
            return false;
        (*epsn)++;
    }
    return true;
}

/* Seal parses its input the same way; it never reads the input's CRCs, so a
 * plain packet with a bad ICRC/VCRC leaves with correct ones (its context has
 * mode none). */
static void seal_malformed(pair *pr, bool roce, const pktbuf *p, const corpus_entry *ce,
                           const char *what, unsigned long *want_seal)
{
    pktbuf out;
    char msg[200];
    bool crc_only = ce->want == IBSEC_R_BAD_ICRC || ce->want == IBSEC_R_BAD_VCRC;
    enum ibsec_reason want = crc_only ? IBSEC_R_OK : ce->want;
    snprintf(msg, sizeof msg, "%s (seal)", what);
    if (check_reason(msg, want, do_seal(&pr->tx, roce, p, &out, NULL)) && crc_only) {
        pktbuf fixed = *p;
        layout L;
        ref_layout(fixed.b, fixed.n, roce, 0, &L);
        forge_crcs(&fixed, &L, IBSEC_MODE_NONE);
        ref_udp_csum_zero(&fixed, roce);
        check_true(&C, out.n == fixed.n && memcmp(out.b, fixed.b, fixed.n) == 0,
                   "corpus: seal recomputes the CRCs of a plain packet (RoCEv2: UDP checksum 0)");
    }
    want_seal[want]++;
}

static void test_corpus(ibsec_rng *r)
{
    pair pr;
    unsigned long want[IBSEC_R_COUNT] = { 0 }, want_seal[IBSEC_R_COUNT] = { 0 };
    uint64_t epsn = 4242;
    pair_init(&pr, r, IBSEC_MODE_STH_AEAD, 16, 2, epsn, 0);
    ibsec_ctx_cfg none = make_cfg(IBSEC_SEL_QP, PLAIN_QPN, IBSEC_MODE_NONE, 0, 0, 0);
    set_ctx(&pr.tx, 1, none);
    set_ctx(&pr.rx, 1, none);
    unsigned long n = 0;
    for (int round = 0; round < 2; round++)
        for (int s = 0; s < IBSEC_SHAPE_COUNT; s++) {
            pktbuf base[BASE_COUNT], out;
            bool roce = shape_roce((enum ibsec_shape)s);
            if (!check_true(&C, corpus_bases(r, &pr, (enum ibsec_shape)s, &epsn, base), "corpus: bases"))
                continue;
            want_seal[IBSEC_R_OK] += 2; /* the two sealed bases */
            for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
                const corpus_entry *ce = &corpus[i];
                if (!(ce->shapes & (1 << s)))
                    continue;
                pktbuf p = base[ce->base];
                layout L;
                size_t sth = (ce->base == BASE_SEALED || ce->base == BASE_FIRST) ? 16 : 0;
                ref_layout(p.b, p.n, roce, sth, &L);
                ce->mutate(&p, &L);
                if (!roce && ce->mutate != m_vcrc && p.n >= 2)
                    put_le(p.b + p.n - 2, ref_crc16(p.b, p.n - 2), 2);
                char msg[160];
                snprintf(msg, sizeof msg, "corpus %s: %s", ibsec_shape_name((enum ibsec_shape)s), ce->what);
                check_reason(msg, ce->want, do_open(&pr.rx, roce, &p, &out, NULL));
                want[ce->want]++;
                n++;
                if (ce->base != BASE_SEALED && ce->base != BASE_FIRST)
                    seal_malformed(&pr, roce, &p, ce, msg, want_seal);
            }
            /* the unmodified bases still open (nothing above changed state) */
            for (int k = 0; k < BASE_COUNT; k++) {
                check_reason("corpus: unmodified base opens", IBSEC_R_OK, do_open(&pr.rx, roce, &base[k], &out, NULL));
                want[IBSEC_R_OK]++;
            }
        }
    for (int k = 0; k < IBSEC_R_COUNT; k++) {
        char msg[120];
        snprintf(msg, sizeof msg, "corpus: open counter %s", ibsec_reason_name((enum ibsec_reason)k));
        check_int(&C, msg, (long long)want[k], (long long)pr.rx.count[IBSEC_OP_OPEN][k]);
        snprintf(msg, sizeof msg, "corpus: seal counter %s", ibsec_reason_name((enum ibsec_reason)k));
        check_int(&C, msg, (long long)want_seal[k], (long long)pr.tx.count[IBSEC_OP_SEAL][k]);
    }
    printf("sec: corpus: %lu malformed packets opened (the plain-based ones also sealed), "
           "%zu kinds\n", n, sizeof corpus / sizeof corpus[0]);
    pair_free(&pr);
}

/* ======================================================================
 * examples: docs/wire-format.md §11, regenerated and compared
 * ====================================================================== */

typedef struct {
    char *s;
    size_t n, cap;
} text;

static void tprintf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tprintf(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        t->n = (t->n + (size_t)k < t->cap) ? t->n + (size_t)k : t->cap - 1;
}

/* Hex, 16 bytes a line, each line prefixed by its offset. */
static void thex(text *t, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i += 16) {
        tprintf(t, "%04zx ", i);
        for (size_t j = i; j < n && j < i + 16; j++)
            tprintf(t, " %02x", p[j]);
        tprintf(t, "\n");
    }
}

static void thex_line(text *t, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tprintf(t, "%02x", p[i]);
}

/* The example plain packet: RC SEND Only, 13 payload bytes (3 pad bytes),
 * DestQP 0x000012, PSN 0x000100, AckReq set. */
static bool example_plain(enum ibsec_shape shape, pktbuf *p)
{
    struct ibsec_pkt_desc d;
    static const uint8_t payload[] = "ibsec example"; /* 13 bytes, no NUL */
    memset(&d, 0, sizeof d);
    d.shape = shape;
    d.lrh.dlid = 0x0001;
    d.lrh.slid = 0x0002;
    for (int i = 0; i < 6; i++) {
        d.mac.dst[i] = (uint8_t)(i == 0 ? 0x02 : i == 5 ? 0x02 : 0);
        d.mac.src[i] = (uint8_t)(i == 0 ? 0x02 : i == 5 ? 0x01 : 0);
    }
    d.ip4.id = 0x0001;
    d.ip4.flags = 0x2; /* DF */
    d.ip4.ttl = 64;
    const uint8_t src[4] = { 192, 168, 0, 1 }, dst[4] = { 192, 168, 0, 2 };
    memcpy(d.ip4.src, src, 4);
    memcpy(d.ip4.dst, dst, 4);
    d.udp.sport = 0xC000;
    d.bth.opcode = 0x04; /* RC SEND Only */
    d.bth.pkey = 0xFFFF;
    d.bth.destqp = 0x000012;
    d.bth.ackreq = 1;
    d.bth.psn = 0x000100;
    d.payload = payload;
    d.payload_len = 13;
    return ibsec_pkt_build(&d, p->b, sizeof p->b, &p->n, NULL) == IBSEC_PKT_OK;
}

static void example_one(text *t, int num, enum ibsec_mode mode, unsigned code, enum ibsec_shape shape)
{
    static const uint8_t key[16] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                     0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
    static const uint8_t salt[4] = { 0xa0, 0xa1, 0xa2, 0xa3 };
    static uint8_t aad[IBSEC_MAX_PKT + 8];
    const uint64_t epsn = 0x100;
    bool roce = shape_roce(shape);
    ibsec_engine tx, rx;
    pktbuf plain, sealed, opened;
    ibsec_ctx_cfg cfg = make_cfg(IBSEC_SEL_QP, 0x12, mode, code, epsn, 0);
    ibsec_engine *es[2] = { &tx, &rx };
    for (int i = 0; i < 2; i++)
        if (ibsec_engine_init(es[i], 1, 1, 1) != 0 || ibsec_key_set(es[i], 0, key, 16, salt) != 0 ||
            ibsec_ctx_set(es[i], 0, &cfg, NULL) != 0) {
            check_failf(&C, "examples: engine set-up");
            return;
        }
    ibsec_engine_make_peer(&rx);
    if (!check_true(&C, example_plain(shape, &plain), "examples: plain packet") ||
        !check_reason("examples: seal", IBSEC_R_OK, do_seal(&tx, roce, &plain, &sealed, NULL)))
        return;
    ref_params rp = { .mode = mode, .code = code, .key = key, .klen = 16, .salt = salt,
                      .dir = 0, .epsn = epsn };
    char what[80];
    snprintf(what, sizeof what, "example %d", num);
    ref_check_sealed(what, &plain, &sealed, roce, &rp);
    check_reason("examples: open", IBSEC_R_OK, do_open(&rx, roce, &sealed, &opened, NULL));
    check_bytes(&C, "examples: open(seal(p)) == p", plain.b, opened.b, plain.n);

    layout Ls;
    size_t sth = ref_sth_len(mode, code);
    ref_layout(sealed.b, sealed.n, roce, sth, &Ls);
    tprintf(t, "#### Example %d: %s, %s", num, ibsec_mode_name(mode), ibsec_shape_name(shape));
    if (sth)
        tprintf(t, ", STHSZ %u (%zu-byte STH)", code, sth);
    tprintf(t, "\n\n```\n");
    tprintf(t, "BTH byte 8   %02x\n", sealed.b[Ls.bth + 8]);
    if (mode != IBSEC_MODE_NONE) {
        uint8_t iv[12], tag[16], ct[16];
        ref_iv(salt, 0, epsn, iv);
        tprintf(t, "IV           ");
        thex_line(t, iv, 12);
        size_t an = ref_masked(sealed.b, &Ls, Ls.eths_end, aad);
        if (mode == IBSEC_MODE_STH_PKT) {
            memcpy(aad + an, sealed.b + Ls.payload, Ls.icrc - Ls.payload);
            an += Ls.icrc - Ls.payload;
        }
        bool enc = mode == IBSEC_MODE_ICRC_MAC || mode == IBSEC_MODE_STH_AEAD;
        ossl_gcm_seal(ossl, key, 16, iv, aad, an, plain.b + (Ls.eths_end), enc ? 16 : 0, ct, tag, 16);
        tprintf(t, "\nfull tag     ");
        thex_line(t, tag, 16);
        tprintf(t, "\nA (%zu bytes)\n", an);
        thex(t, aad, an);
        tprintf(t, "P (%zu bytes)%s\n", enc ? Ls.icrc - Ls.payload : (size_t)0,
                enc ? ": payload and pad" : ": empty (GMAC)");
    }
    tprintf(t, "sealed packet (%zu bytes)\n", sealed.n);
    thex(t, sealed.b, sealed.n);
    tprintf(t, "```\n\n");
    ibsec_engine_free(&tx);
    ibsec_engine_free(&rx);
}

static void examples(text *t)
{
    pktbuf plain;
    tprintf(t, "<!-- examples: generated by `build/cmodel/test_sec --examples`; test_sec checks them -->\n\n");
    tprintf(t, "Key `000102030405060708090a0b0c0d0e0f` (AES-128), salt `a0a1a2a3`, context on DestQP\n"
               "0x000012, direction bit 0 on the sealing side, EPSN 0x100 (BTH PSN 0x000100).\n"
               "The plain packet is an RC SEND Only (opcode 0x04) with the 13 payload bytes\n"
               "`ibsec example` and 3 pad bytes, AckReq set; native without GRH:\n\n```\n");
    example_plain(IBSEC_SHAPE_IB_LOCAL, &plain);
    thex(t, plain.b, plain.n);
    tprintf(t, "```\n\nand RoCEv2 over IPv4 (192.168.0.1 -> 192.168.0.2, UDP source port 0xc000):\n\n```\n");
    example_plain(IBSEC_SHAPE_ROCE_V4, &plain);
    thex(t, plain.b, plain.n);
    tprintf(t, "```\n\n");
    example_one(t, 1, IBSEC_MODE_ICRC_MAC, 0, IBSEC_SHAPE_IB_LOCAL);
    example_one(t, 2, IBSEC_MODE_STH_HDR, 2, IBSEC_SHAPE_IB_LOCAL);
    example_one(t, 3, IBSEC_MODE_STH_PKT, 2, IBSEC_SHAPE_IB_LOCAL);
    example_one(t, 4, IBSEC_MODE_STH_AEAD, 2, IBSEC_SHAPE_IB_LOCAL);
    example_one(t, 5, IBSEC_MODE_STH_AEAD, 1, IBSEC_SHAPE_IB_LOCAL);
    example_one(t, 6, IBSEC_MODE_STH_AEAD, 2, IBSEC_SHAPE_ROCE_V4);
    tprintf(t, "<!-- end of examples -->\n");
}

/* The document must contain the examples exactly as the model makes them. */
static void test_examples_in_doc(const text *t)
{
    FILE *f = fopen(DOC_PATH, "rb");
    static char doc[1 << 18];
    if (!f) {
        check_failf(&C, "examples: cannot open %s (run from the repository root)", DOC_PATH);
        return;
    }
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    check_true(&C, strstr(doc, t->s) != NULL,
               "examples: " DOC_PATH " §11 differs from the model; regenerate it with test_sec --examples");
}

/* ======================================================================
 * main
 * ====================================================================== */

/* ======================================================================
 * pn: the pn nonce (wire-format.md §5.2) — one partition key shared by several
 * senders and 64 QPs with colliding PSNs, retransmissions, an attacker's replays,
 * reordering, unknown and forged SSCIs, a key-phase rollover during traffic, window
 * sizes 64 and 1024, replay checking off, PN exhaustion
 * ====================================================================== */

#define PN_PKEY    0x1234u
#define PN_QPS     64u
#define PN_SENDERS 3u
#define PN_POOL    8u      /* sealed packets held back per sender: delivery out of order */
#define PN_STEPS   1500u
#define PN_SSCI(i) (0x5e000100u + (uint32_t)(i))

typedef struct {
    pktbuf   wire;
    pktbuf   plain;
    bool     roce;
    uint64_t pn;
    unsigned kp;
} pn_sealed;

typedef struct {
    ibsec_engine tx[PN_SENDERS + 1];   /* the last one: a sender the receiver does not know */
    ibsec_engine rx;
    uint8_t      key[2][32], salt[2][12];
    unsigned     w;
    uint64_t     next_pn[PN_SENDERS + 1][2];   /* per sender and key phase: next PN sealed */
    uint64_t     rx_next[PN_SENDERS][2];       /* receiver's window top, as the test sees it */
    pn_sealed    pool[PN_SENDERS][PN_POOL];
    unsigned     pooled[PN_SENDERS];
    pn_sealed   *done;                         /* delivered packets, for replays */
    unsigned     n_done;
    uint8_t    (*ivs)[12];                     /* every (key 0 or 1, IV) sealed */
    unsigned     n_ivs;
    unsigned long retx, replays, too_old, reordered, rollover_pkts, dups;
    uint8_t      delivered[PN_SENDERS][PN_QPS][PN_STEPS / 8 + 1]; /* PSNs delivered, bitsets */
} pn_world;

static ibsec_ctx_cfg pn_cfg(bool replay_off)
{
    ibsec_ctx_cfg c = make_cfg(IBSEC_SEL_PKEY, PN_PKEY, IBSEC_MODE_STH_AEAD, IBSEC_STH_CODE_128, 0, 0);
    c.nonce = IBSEC_NONCE_PN;
    c.replay_off = replay_off;
    return c;
}

static void pn_world_init(pn_world *w, ibsec_rng *r, unsigned win, bool replay_off)
{
    memset(w, 0, sizeof *w);
    w->w = win;
    for (int k = 0; k < 2; k++) {
        ibsec_rng_bytes(r, w->key[k], 32);
        ibsec_rng_bytes(r, w->salt[k], 12);
    }
    ibsec_ctx_cfg cfg = pn_cfg(replay_off);
    const char *why = NULL;
    for (unsigned i = 0; i <= PN_SENDERS; i++) {
        w->next_pn[i][0] = w->next_pn[i][1] = 1 + 1000 * i; /* senders start apart */
        if (ibsec_engine_init(&w->tx[i], 2, 4, 1) != 0 ||
            ibsec_key_set_pn(&w->tx[i], 0, w->key[0], 32, w->salt[0], 12, PN_SSCI(i), w->next_pn[i][0]) != 0 ||
            ibsec_ctx_set(&w->tx[i], 0, &cfg, &why) != 0) {
            fprintf(stderr, "test_sec: pn sender set-up failed: %s\n", why ? why : "init/key");
            exit(2);
        }
    }
    if (ibsec_engine_init(&w->rx, 2, 4, 4) != 0 || ibsec_peers_init(&w->rx, 2 * PN_SENDERS, win) != 0 ||
        ibsec_key_set_pn(&w->rx, 0, w->key[0], 32, w->salt[0], 12, 0x5e0000ffu, 1) != 0 ||
        ibsec_ctx_set(&w->rx, 0, &cfg, &why) != 0) {
        fprintf(stderr, "test_sec: pn receiver set-up failed: %s\n", why ? why : "init/key");
        exit(2);
    }
    for (unsigned i = 0; i < PN_SENDERS; i++) {
        if (ibsec_peer_set(&w->rx, i, 0, PN_SSCI(i), w->next_pn[i][0]) != 0)
            exit(2);
        w->rx_next[i][0] = w->rx_next[i][1] = w->next_pn[i][0];
    }
    /* the duplicate table: every connection of the test in an entry of its own */
    if (ibsec_conns_init(&w->rx, 4096) != 0)
        exit(2);
    for (unsigned i = 0; i < PN_SENDERS; i++)
        for (unsigned q = 0; q < PN_QPS; q++)
            for (unsigned j = 0; j < PN_SENDERS; j++)
                for (unsigned q2 = 0; q2 < PN_QPS; q2++)
                    if ((i != j || q != q2) && ibsec_conn_index(&w->rx, PN_SSCI(i), 0x100u + q) ==
                                                   ibsec_conn_index(&w->rx, PN_SSCI(j), 0x100u + q2)) {
                        fprintf(stderr, "test_sec: pn: two connections share a duplicate entry\n");
                        exit(2);
                    }
    w->done = calloc(PN_STEPS * 2, sizeof *w->done);
    w->ivs = calloc(PN_STEPS * 2, sizeof *w->ivs);
    if (!w->done || !w->ivs)
        exit(2);
}

static void pn_world_free(pn_world *w)
{
    for (unsigned i = 0; i <= PN_SENDERS; i++)
        ibsec_engine_free(&w->tx[i]);
    ibsec_engine_free(&w->rx);
    free(w->done);
    free(w->ivs);
}

/* Seal a plain packet at sender s; check it against the reference; remember its IV. */
static bool pn_seal(pn_world *w, unsigned s, const pktbuf *plain, bool roce, pn_sealed *out)
{
    ibsec_verdict v;
    char what[120];
    unsigned kp = w->tx[s].ctx[0].cfg.tx_kp;
    snprintf(what, sizeof what, "pn: sender %u seal (PN %llu, phase %u)", s,
             (unsigned long long)w->next_pn[s][kp], kp);
    if (!check_reason(what, IBSEC_R_OK, do_seal(&w->tx[s], roce, plain, &out->wire, &v)))
        return false;
    ref_params rp = { .mode = IBSEC_MODE_STH_AEAD, .code = IBSEC_STH_CODE_128, .key = w->key[kp],
                      .klen = 32, .salt = w->salt[kp], .pn = true, .ssci = PN_SSCI(s),
                      .pn_val = w->next_pn[s][kp], .kp = kp };
    ref_check_sealed(what, plain, &out->wire, roce, &rp);
    check_int(&C, "pn: verdict PN", (long long)w->next_pn[s][kp], (long long)v.pn);
    out->plain = *plain;
    out->roce = roce;
    out->pn = w->next_pn[s][kp]++;
    out->kp = kp;
    /* (key, IV): the key phase names the key; the IV must never repeat under it */
    if (w->n_ivs < PN_STEPS * 2) {
        uint8_t *iv = w->ivs[w->n_ivs++];
        ref_iv_pn(w->salt[kp], PN_SSCI(s), out->pn, iv);
        iv[0] ^= (uint8_t)(kp << 7); /* keep the two keys' IVs apart in the record */
    }
    return true;
}

/* Open a packet of sender s at the receiver: delivered, restored byte for byte. */
static void pn_deliver(pn_world *w, unsigned s, const pn_sealed *p)
{
    pktbuf out, want = p->plain;
    ibsec_verdict v;
    char what[120];
    snprintf(what, sizeof what, "pn: receive sender %u PN %llu phase %u", s,
             (unsigned long long)p->pn, p->kp);
    if (!check_reason(what, IBSEC_R_OK, do_open(&w->rx, p->roce, &p->wire, &out, &v)))
        return;
    ref_udp_csum_zero(&want, p->roce);
    check_int(&C, what, (long long)want.n, (long long)out.n);
    check_bytes(&C, what, want.b, out.b, want.n);
    check_int(&C, "pn: verdict SSCI", PN_SSCI(s), v.ssci);
    /* duplicate status (wire-format.md §6.1): RC, UC and XRC packets whose PSN was
       delivered on the connection before, i.e. a retransmission whose first copy got
       through (with reordering, either copy may come first) */
    layout L;
    if (ref_layout(p->plain.b, p->plain.n, p->roce, 0, &L)) {
        unsigned tc = p->plain.b[L.bth] >> 5, q = get16(p->plain.b + L.bth + 6) - 0x100u;
        unsigned psn = get16(p->plain.b + L.bth + 10);
        bool conn = tc == 0 || tc == 1 || tc == 5;
        bool seen = q < PN_QPS && psn / 8 < sizeof w->delivered[0][0] &&
                    ((w->delivered[s][q][psn / 8] >> (psn % 8)) & 1u);
        snprintf(what, sizeof what, "pn: duplicate status of sender %u QP %u PSN %u", s, q, psn);
        check_int(&C, what, conn && seen, v.dup);
        if (q < PN_QPS && psn / 8 < sizeof w->delivered[0][0])
            w->delivered[s][q][psn / 8] |= (uint8_t)(1u << (psn % 8));
        w->dups += v.dup;
    }
    if (p->pn >= w->rx_next[s][p->kp])
        w->rx_next[s][p->kp] = p->pn + 1;
    w->done[w->n_done++ % (PN_STEPS * 2)] = *p;
}

/* An attacker resends a delivered packet byte for byte: never delivered. */
static void pn_replay(pn_world *w, ibsec_rng *r, bool replay_off)
{
    unsigned n = w->n_done < PN_STEPS * 2 ? w->n_done : PN_STEPS * 2;
    if (n == 0)
        return;
    const pn_sealed *p = &w->done[ibsec_rng_below(r, n)];
    pktbuf out;
    ibsec_verdict v;
    enum ibsec_reason got = do_open(&w->rx, p->roce, &p->wire, &out, &v);
    unsigned who = v.ssci - PN_SSCI(0);
    if (replay_off) {
        check_reason("pn: replay with replay checking off is delivered", IBSEC_R_OK, got);
        return;
    }
    enum ibsec_reason want = IBSEC_R_REPLAY;
    if (who < PN_SENDERS && w->rx_next[who][p->kp] >= w->w && p->pn < w->rx_next[who][p->kp] - w->w)
        want = IBSEC_R_PN_TOO_OLD;
    w->too_old += want == IBSEC_R_PN_TOO_OLD;
    w->replays++;
    check_reason("pn: an attacker's replay", want, got);
}

/* One packet of sender s: a new PSN on a random QP (PSNs collide across QPs and
 * senders: every QP of every sender counts from the same start), or a retransmission
 * of an earlier PSN with its bytes sealed again. Held in the sender's pool; a random
 * pooled packet is delivered when the pool is full. */
static void pn_step(pn_world *w, ibsec_rng *r, unsigned s, uint32_t *psn, pktbuf *last,
                    bool *last_roce, bool *have_last)
{
    static const enum ibsec_shape shapes[] = { IBSEC_SHAPE_IB_LOCAL, IBSEC_SHAPE_IB_GLOBAL,
                                               IBSEC_SHAPE_ROCE_V4, IBSEC_SHAPE_ROCE_V6 };
    enum ibsec_shape shape = shapes[ibsec_rng_below(r, 4)];
    pktbuf plain;
    bool roce = shape_roce(shape);
    if (*have_last && ibsec_rng_below(r, 8) == 0) {
        plain = *last;                     /* go-back-N: the same packet again */
        roce = *last_roce;
        w->retx++;
    } else {
        unsigned q = ibsec_rng_below(r, PN_QPS);
        if (!make_plain(r, shape, -1, -1, 0x100u + q, (int)PN_PKEY, psn[q]++, &plain))
            return;
        *last = plain;
        *last_roce = roce;
        *have_last = true;
    }
    pn_sealed *slot = &w->pool[s][w->pooled[s]];
    if (!pn_seal(w, s, &plain, roce, slot))
        return;
    if (++w->pooled[s] < PN_POOL)
        return;
    unsigned k = ibsec_rng_below(r, PN_POOL);
    w->reordered += k != 0;
    pn_sealed p = w->pool[s][k];
    w->pool[s][k] = w->pool[s][--w->pooled[s]];
    pn_deliver(w, s, &p);
}

static void pn_flush(pn_world *w)
{
    for (unsigned s = 0; s < PN_SENDERS; s++)
        while (w->pooled[s])
            pn_deliver(w, s, &w->pool[s][--w->pooled[s]]);
}

static int cmp_iv(const void *a, const void *b)
{
    return memcmp(a, b, 12);
}

/* Phase 1 of the key: every engine installs key 1 in slot 1 and gives its context
 * key1; the receiver adds its senders' phase-1 entries; then the senders switch. */
static void pn_rollover_prepare(pn_world *w)
{
    for (unsigned i = 0; i <= PN_SENDERS; i++) {
        ibsec_engine *e = &w->tx[i];
        ibsec_key_set_pn(e, 1, w->key[1], 32, w->salt[1], 12, PN_SSCI(i), w->next_pn[i][1]);
        ibsec_ctx_cfg c = e->ctx[0].cfg;
        c.key1_en = true;
        c.key1 = 1;
        ibsec_ctx_set(e, 0, &c, NULL);
    }
    ibsec_key_set_pn(&w->rx, 1, w->key[1], 32, w->salt[1], 12, 0x5e0000ffu, 1);
    ibsec_ctx_cfg c = w->rx.ctx[0].cfg;
    c.key1_en = true;
    c.key1 = 1;
    ibsec_ctx_set(&w->rx, 0, &c, NULL);
    for (unsigned i = 0; i < PN_SENDERS; i++)
        ibsec_peer_set(&w->rx, PN_SENDERS + i, 1, PN_SSCI(i), w->next_pn[i][1]);
}

static void pn_switch_phase(pn_world *w, unsigned s)
{
    ibsec_ctx_cfg c = w->tx[s].ctx[0].cfg;
    c.tx_kp = 1;
    /* rewriting a context resets its live state; the pn nonce keeps none there (the
       PN lives in the key slot, the windows in the receiver's entries) */
    check_true(&C, ibsec_ctx_set(&w->tx[s], 0, &c, NULL) == 0, "pn: switch to key phase 1");
}

static void pn_run(ibsec_rng *r, unsigned win, bool replay_off)
{
    pn_world w;
    uint32_t psn[PN_SENDERS][PN_QPS];
    pktbuf last[PN_SENDERS];
    bool last_roce[PN_SENDERS] = { false }, have_last[PN_SENDERS] = { false };
    memset(psn, 0, sizeof psn);
    pn_world_init(&w, r, win, replay_off);
    for (unsigned step = 0; step < PN_STEPS; step++) {
        unsigned s = ibsec_rng_below(r, PN_SENDERS);
        if (step == PN_STEPS / 3)
            pn_rollover_prepare(&w);
        if (step >= PN_STEPS / 3 && step < PN_STEPS / 2 && ibsec_rng_below(r, 16) == 0)
            pn_switch_phase(&w, s);        /* senders switch one by one, packets of both
                                              phases in flight */
        if (step == PN_STEPS / 2)
            for (unsigned i = 0; i < PN_SENDERS; i++)
                if (w.tx[i].ctx[0].cfg.tx_kp == 0)
                    pn_switch_phase(&w, i);
        w.rollover_pkts += step >= PN_STEPS / 3 && step < PN_STEPS / 2;
        pn_step(&w, r, s, psn[s], &last[s], &last_roce[s], &have_last[s]);
        if (ibsec_rng_below(r, 10) == 0)
            pn_replay(&w, r, replay_off);
    }
    pn_flush(&w);

    /* a sender the receiver does not know, and a known sender's packet given another
       sender's SSCI (CRCs redone, as an attacker can): never delivered */
    pktbuf plain, out;
    pn_sealed x;
    if (make_plain(r, IBSEC_SHAPE_IB_LOCAL, -1, 64, 0x100u, (int)PN_PKEY, 7, &plain) &&
        pn_seal(&w, PN_SENDERS, &plain, false, &x))
        check_reason("pn: unknown SSCI", IBSEC_R_UNKNOWN_SENDER, do_open(&w.rx, false, &x.wire, &out, NULL));
    for (int forge = 0; forge < 2; forge++) {
        /* a fresh PN (to dodge the window), and another sender's SSCI with a PN fresh
           for that sender: the IV changes, the tag fails */
        if (!make_plain(r, IBSEC_SHAPE_ROCE_V4, -1, 64, 0x101u, (int)PN_PKEY, 8, &plain) ||
            !pn_seal(&w, 0, &plain, true, &x))
            continue;
        layout L;
        unsigned to = forge ? 2 : 0;
        uint64_t pn = w.rx_next[to][x.kp] + 100;
        ref_layout(x.wire.b, x.wire.n, true, 12 + 16, &L);
        for (int i = 0; i < 4; i++)
            x.wire.b[L.eths_end + i] = (uint8_t)(PN_SSCI(to) >> (24 - 8 * i));
        for (int i = 0; i < 8; i++)
            x.wire.b[L.eths_end + 4 + i] = (uint8_t)(pn >> (56 - 8 * i));
        forge_crcs(&x.wire, &L, IBSEC_MODE_STH_AEAD);
        check_reason(forge ? "pn: another sender's SSCI and a fresh PN" : "pn: a fresh PN",
                     IBSEC_R_AUTH_FAILED,
                     do_open(&w.rx, true, &x.wire, &out, NULL));
    }

    /* no IV twice under one key */
    qsort(w.ivs, w.n_ivs, 12, cmp_iv);
    unsigned dup = 0;
    for (unsigned i = 1; i < w.n_ivs; i++)
        dup += memcmp(w.ivs[i - 1], w.ivs[i], 12) == 0;
    char msg[160];
    snprintf(msg, sizeof msg, "pn: (key, IV) pairs repeated among %u sealed packets", w.n_ivs);
    check_int(&C, msg, 0, dup);
    printf("sec: pn window %u%s: %u packets sealed by %u senders on %u QPs of one P_Key, "
           "%lu retransmissions delivered (%lu marked duplicate), %lu replays refused (%lu as pn_too_old), "
           "%lu delivered out of order, rollover during %lu packets, no (key, IV) twice\n",
           win, replay_off ? " (replay checking off)" : "", w.n_ivs, PN_SENDERS, PN_QPS, w.retx,
           w.dups, replay_off ? 0 : w.replays, w.too_old, w.reordered, w.rollover_pkts);
    pn_world_free(&w);
}

/* PN exhaustion: the last PN is sent once, then the slot refuses. */
static void pn_exhaust(ibsec_rng *r)
{
    ibsec_engine e;
    uint8_t key[16], salt[12];
    pktbuf plain, out;
    ibsec_rng_bytes(r, key, 16);
    ibsec_rng_bytes(r, salt, 12);
    ibsec_ctx_cfg c = pn_cfg(false);
    if (ibsec_engine_init(&e, 1, 1, 1) != 0 ||
        ibsec_key_set_pn(&e, 0, key, 16, salt, 12, 9, UINT64_MAX) != 0 ||
        ibsec_ctx_set(&e, 0, &c, NULL) != 0 ||
        !make_plain(r, IBSEC_SHAPE_IB_LOCAL, -1, 32, 0x100u, (int)PN_PKEY, 1, &plain))
        exit(2);
    check_reason("pn: the last PN", IBSEC_R_OK, do_seal(&e, false, &plain, &out, NULL));
    check_reason("pn: after the last PN", IBSEC_R_PN_EXHAUSTED, do_seal(&e, false, &plain, &out, NULL));
    ibsec_engine_free(&e);
}

/* One engine sealing a whole link (the capture case of #31): management datagrams to
 * QP0 and QP1, multicast to the permissive DestQP 0xffffff, and data QPs, from many
 * senders (random SLIDs), PSN sequences independent per flow and colliding across flows,
 * one in eight packets retransmitted, all in the default partition. The pn nonce seals
 * and opens every packet; the epsn nonce on the same traffic must refuse packets
 * (nonce_reuse), which is why the pn nonce exists. */
#define LINK_PKTS  600u
#define LINK_FLOWS 12u
static unsigned link_run(ibsec_rng *r, enum ibsec_nonce nonce, unsigned *refused)
{
    static const uint32_t qps[LINK_FLOWS] = { 0, 1, 0xffffffu, 0x10, 0x11, 0x12, 0x20, 0x21,
                                              0x40, 0x41, 0x7f, 0x80 };
    ibsec_engine tx, rx;
    uint8_t key[16], salt[12];
    uint32_t psn[LINK_FLOWS];
    pktbuf plain, wire, out, last;
    bool have_last = false;
    unsigned delivered = 0;
    ibsec_rng_bytes(r, key, 16);
    ibsec_rng_bytes(r, salt, 12);
    ibsec_ctx_cfg c = make_cfg(IBSEC_SEL_PKEY, 0x7fffu, IBSEC_MODE_STH_AEAD, IBSEC_STH_CODE_96, 0, 0);
    c.nonce = nonce;
    for (unsigned i = 0; i < LINK_FLOWS; i++)
        psn[i] = 100;   /* every flow starts at the same PSN */
    if (ibsec_engine_init(&tx, 1, 1, 1) != 0 || ibsec_engine_init(&rx, 1, 1, 4) != 0 ||
        ibsec_key_set_pn(&tx, 0, key, 16, salt, 12, 0xa, 1) != 0 ||
        ibsec_key_set_pn(&rx, 0, key, 16, salt, 12, 0xb, 1) != 0 ||
        ibsec_ctx_set(&tx, 0, &c, NULL) != 0 || ibsec_ctx_set(&rx, 0, &c, NULL) != 0 ||
        ibsec_peers_init(&rx, 1, 64) != 0 || ibsec_peer_set(&rx, 0, 0, 0xa, 1) != 0)
        exit(2);
    *refused = 0;   /* (only the pn run opens: the epsn run shows what seal refuses) */
    for (unsigned i = 0; i < LINK_PKTS; i++) {
        if (have_last && ibsec_rng_below(r, 8) == 0) {
            plain = last;
        } else {
            unsigned f = ibsec_rng_below(r, LINK_FLOWS);
            /* QP0 and QP1 carry MADs (UD SEND Only, 256 bytes), the rest random opcodes */
            int op = f < 2 ? 0x64 : -1;
            if (!make_plain(r, IBSEC_SHAPE_IB_LOCAL, op, f < 2 ? 256 : -1, qps[f], 0xffff, psn[f]++, &plain))
                continue;
            last = plain;
            have_last = true;
        }
        enum ibsec_reason sr = do_seal(&tx, false, &plain, &wire, NULL);
        if (sr != IBSEC_R_OK) {
            check_true(&C, nonce == IBSEC_NONCE_EPSN && sr == IBSEC_R_NONCE_REUSE,
                       "link: only the epsn nonce refuses, with nonce_reuse");
            (*refused)++;
            continue;
        }
        if (nonce == IBSEC_NONCE_PN &&
            check_reason("link: the peer opens every sealed packet", IBSEC_R_OK,
                         do_open(&rx, false, &wire, &out, NULL)) &&
            check_int(&C, "link: length", (long long)plain.n, (long long)out.n) &&
            check_bytes(&C, "link: open(seal(p)) == p", plain.b, out.b, plain.n))
            delivered++;
    }
    ibsec_engine_free(&tx);
    ibsec_engine_free(&rx);
    return delivered;
}

static void test_link(ibsec_rng *r)
{
    unsigned refused_pn, refused_epsn;
    unsigned delivered = link_run(r, IBSEC_NONCE_PN, &refused_pn);
    link_run(r, IBSEC_NONCE_EPSN, &refused_epsn);
    check_int(&C, "link: pn seals every packet", 0, refused_pn);
    check_true(&C, refused_epsn > 0, "link: the epsn nonce refuses packets of shared flows");
    printf("sec: link: one engine, QP0 (bypassed: plain), QP1, 0xffffff and 9 data QPs of one "
           "P_Key from random SLIDs, %u packets: pn nonce %u sealed and opened; epsn nonce refused "
           "%u (nonce_reuse)\n",
           LINK_PKTS, delivered, refused_epsn);
}

/* The reserved DestQPs (wire-format.md §9.1): per class and policy, what seal and open
 * do with a packet of a P_Key context that covers it. */
static void test_mgmt(ibsec_rng *r)
{
    static const uint32_t qp[IBSEC_MGMT_CLASSES] = { 0, 1, IBSEC_QPN_PERMISSIVE };
    uint8_t key[16], salt[4];
    ibsec_rng_bytes(r, key, 16);
    ibsec_rng_bytes(r, salt, 4);
    ibsec_engine d;
    if (ibsec_engine_init(&d, 1, 1, 1) != 0)
        exit(2);
    check_int(&C, "mgmt: defaults QP0 bypass, QP1 and 0xffffff context", 1,
              d.mgmt[IBSEC_MGMT_QP0] == IBSEC_MGMT_BYPASS && d.mgmt[IBSEC_MGMT_QP1] == IBSEC_MGMT_CONTEXT &&
              d.mgmt[IBSEC_MGMT_MCAST] == IBSEC_MGMT_CONTEXT && ibsec_mgmt_class_of(2) < 0);
    ibsec_engine_free(&d);
    for (unsigned cl = 0; cl < IBSEC_MGMT_CLASSES; cl++) {
        for (unsigned pol = 0; pol < 3; pol++) {
            ibsec_engine tx, rx;
            pktbuf plain, wire, out, other;
            char what[120];
            ibsec_ctx_cfg c = make_cfg(IBSEC_SEL_PKEY, 0x7fffu, IBSEC_MODE_ICRC_MAC, 0, 50, 0);
            if (ibsec_engine_init(&tx, 1, 1, 1) != 0 || ibsec_engine_init(&rx, 1, 1, 1) != 0 ||
                ibsec_key_set(&tx, 0, key, 16, salt) != 0 || ibsec_key_set(&rx, 0, key, 16, salt) != 0 ||
                ibsec_ctx_set(&tx, 0, &c, NULL) != 0 || ibsec_ctx_set(&rx, 0, &c, NULL) != 0 ||
                !make_plain(r, IBSEC_SHAPE_IB_LOCAL, 0x64, 64, qp[cl], 0xffff, 50, &plain) ||
                !make_plain(r, IBSEC_SHAPE_IB_LOCAL, 0x64, 64, qp[cl], 0xffff, 51, &other))
                exit(2);
            ibsec_engine_make_peer(&rx);
            tx.mgmt[cl] = rx.mgmt[cl] = (enum ibsec_mgmt_policy)pol;
            snprintf(what, sizeof what, "mgmt: DestQP 0x%x %s", (unsigned)qp[cl],
                     ibsec_mgmt_policy_name((enum ibsec_mgmt_policy)pol));
            enum ibsec_reason sr = do_seal(&tx, false, &plain, &wire, NULL);
            enum ibsec_reason want = pol == IBSEC_MGMT_DROP ? IBSEC_R_MGMT_DROPPED : IBSEC_R_OK;
            check_reason(what, want, sr);
            if (sr == IBSEC_R_OK) {
                layout L;
                ref_layout(wire.b, wire.n, false, 0, &L);
                bool secured = (wire.b[L.bth + 8] & 0x7f) != 0;
                check_int(&C, what, pol == IBSEC_MGMT_CONTEXT, secured);
                check_reason(what, IBSEC_R_OK, do_open(&rx, false, &wire, &out, NULL));
                check_bytes(&C, what, plain.b, out.b, plain.n);
            }
            /* open: a plain packet (allow_plain off) and a packet sealed by a sender that
               secures the class */
            enum ibsec_reason pr = do_open(&rx, false, &other, &out, NULL);
            check_reason(what, pol == IBSEC_MGMT_DROP ? IBSEC_R_MGMT_DROPPED
                             : pol == IBSEC_MGMT_BYPASS ? IBSEC_R_OK : IBSEC_R_MODE_MISMATCH, pr);
            tx.mgmt[cl] = IBSEC_MGMT_CONTEXT;
            if (do_seal(&tx, false, &other, &wire, NULL) == IBSEC_R_OK)
                check_reason(what, pol == IBSEC_MGMT_DROP ? IBSEC_R_MGMT_DROPPED
                                 : pol == IBSEC_MGMT_BYPASS ? IBSEC_R_NO_CONTEXT : IBSEC_R_OK,
                             do_open(&rx, false, &wire, &out, NULL));
            else
                check_failf(&C, "%s: seal with the class secured", what);
            ibsec_engine_free(&tx);
            ibsec_engine_free(&rx);
        }
    }
}

static void test_pn(ibsec_rng *r)
{
    pn_run(r, 64, false);
    pn_run(r, 1024, false);
    pn_run(r, 64, true);
    pn_exhaust(r);
    test_link(r);
}

int main(int argc, char **argv)
{
    ibsec_rng r;
    check_init(&C, "sec");
    ossl = EVP_CIPHER_CTX_new();
    if (ossl == NULL) {
        fprintf(stderr, "test_sec: EVP_CIPHER_CTX_new failed\n");
        return 2;
    }
    static char buf[1 << 16];
    text ex = { buf, 0, sizeof buf };
    examples(&ex);
    if (argc == 2 && strcmp(argv[1], "--examples") == 0) {
        fputs(ex.s, stdout);
        return C.failed ? 1 : 0;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: test_sec [--examples]\n");
        return 2;
    }
    test_examples_in_doc(&ex);
    ibsec_rng_seed(&r, SEED);
    test_round_trip(&r);
    test_flips(&r);
    test_mask_mf(&r);
    test_epsn_reconstruct(&r);
    test_replay(&r);
    test_wrap(&r);
    test_nonce(&r);
    test_alert(&r);
    test_contexts(&r);
    test_min_frame(&r);
    test_corpus(&r);
    test_pn(&r);
    test_mgmt(&r);
    EVP_CIPHER_CTX_free(ossl);
    return check_summary(&C);
}
