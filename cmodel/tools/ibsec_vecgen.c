/*
 * ibsec_vecgen — deterministic test vectors of the ibsec packet engine.
 *
 *   ibsec_vecgen [--seed N] [--count N] [--out DIR]
 *
 * Writes into DIR (default build/vectors, created if missing):
 *   keys.txt                 the key file (docs/keyfile.md) of endpoint a; the
 *                            receiver is its peer, endpoint b
 *   <link>-plain.pcap        plain packets as the transport layer built them
 *   <link>-sealed.pcap       the same packets sealed by endpoint a
 *   <link>-wire.pcap         every packet endpoint b receives, in order: the
 *                            sealed packets plus tampered copies and replays
 *   <link>.vec               the packet harness vectors (docs/vectors.md)
 * for <link> = native (LINKTYPE_INFINIBAND) and rocev2 (LINKTYPE_ETHERNET).
 *
 * The same seed always gives the same bytes.  Every expected result comes from
 * the C model (ibsec_seal / ibsec_open on engines loaded from keys.txt); the
 * generator only chooses the packets.  Per link it emits, in this order:
 *   1. every opcode of the BTH opcode table that the link carries (all classes:
 *      RC, UC, RD, UD, XRC, and CNP on RoCEv2), rotating over the contexts;
 *   2. for every context (and for plain traffic without a context), for both
 *      shapes of the link (native with and without GRH; RoCEv2 over IPv4 and
 *      IPv6): payloads of 0 and 4096 bytes and one payload per pad count 0..3,
 *      on SEND ONLY of a rotating transport class;
 *   3. --count random packets (random context, shape, opcode, length);
 * with, among the packets of secured contexts, tampered copies (one bit flipped,
 * offered before the genuine packet), replays of earlier packets, and
 * transmitter nonce reuse.  The contexts cover every mode, both STH sizes,
 * AES-128 and AES-256, QP and P_Key selection, and start EPSNs just below a
 * multiple of 2^24 so that the 24-bit PSN wraps.
 *
 * Exit status: 0 written; 1 error (message on stderr); 2 usage.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ib_pktgen.h"
#include "ibsec.h"
#include "keyfile.h"
#include "pcap.h"
#include "rng.h"

#define VG_N_KEYS        16u  /* 14 used: one key per secured context; 2 left empty */
#define VG_N_CTX         32u
#define VG_QP_BASE       0x000100u  /* QP contexts: QPN VG_QP_BASE + 0x11 * index */
#define VG_PKEY_BASE     0x0100u    /* P_Key contexts: P_Key VG_PKEY_BASE + index */
#define VG_FREE_QP       0x800000u  /* QPNs at or above this select no QP context */
#define VG_FREE_PKEY     0x7F00u    /* P_Keys at or above this select no P_Key context */
#define VG_NO_CTX        (-1)       /* plan: a packet outside every context */
#define VG_HISTORY       256u       /* earlier wire packets kept for replays */
#define VG_TS_BASE       1767225600u /* pcap time stamps start 2026-01-01 00:00:00 UTC */
#define VG_PATH_MAX      4096

/* One context of the generated configuration. */
struct vg_ctx_plan {
    enum ibsec_mode mode;
    unsigned sth_code;
    unsigned key;
    enum ibsec_sel sel;
    size_t key_len;   /* 16 (AES-128) or 32 (AES-256) */
};

/* The generator's state for one link. */
struct vg_link {
    const char       *name;          /* "native" / "rocev2" */
    enum ibsec_link   link;
    enum ibsec_shape  shapes[2];
    ibsec_engine      tx, rx;        /* endpoint a seals, endpoint b opens */
    uint64_t          next_epsn[VG_N_CTX]; /* what a will use next per context */
    ibsec_pcap_writer plain, sealed, wire;
    FILE             *vec;
    uint64_t          seq;           /* records written */
    uint64_t          n_wire;
    /* earlier wire packets, for replays */
    uint8_t          *hist[VG_HISTORY];
    size_t            hist_len[VG_HISTORY];
    enum ibsec_shape  hist_shape[VG_HISTORY];
    unsigned          hist_n;
    uint64_t          mismatches;    /* delivered bytes != plain (a model bug) */
};

static ibsec_rng g_rng;
static uint64_t  g_count = 200;
static uint64_t  g_seed = 1;
static const char *g_out = "build/vectors";

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ibsec_vecgen: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

/* ---- configuration ---------------------------------------------------------- */

/* Contexts 0..13: every secured mode x STH size, on AES-128 (0..6) and AES-256
 * (7..13) keys, context i using key i; 14, 15: mode none.  Every third context
 * is selected by P_Key. */
static unsigned vg_plan_contexts(struct vg_ctx_plan *p)
{
    static const struct { enum ibsec_mode m; unsigned sth; } combos[] = {
        { IBSEC_MODE_ICRC_MAC, IBSEC_STH_CODE_NONE },
        { IBSEC_MODE_STH_HDR, IBSEC_STH_CODE_96 },  { IBSEC_MODE_STH_HDR, IBSEC_STH_CODE_128 },
        { IBSEC_MODE_STH_PKT, IBSEC_STH_CODE_96 },  { IBSEC_MODE_STH_PKT, IBSEC_STH_CODE_128 },
        { IBSEC_MODE_STH_AEAD, IBSEC_STH_CODE_96 }, { IBSEC_MODE_STH_AEAD, IBSEC_STH_CODE_128 },
    };
    unsigned n = 0;
    for (unsigned ks = 0; ks < 2; ks++)
        for (unsigned i = 0; i < sizeof combos / sizeof combos[0]; i++, n++) {
            p[n].mode = combos[i].m;
            p[n].sth_code = combos[i].sth;
            p[n].key = n;   /* a key of its own: no two contexts share a (key, IV) space */
            p[n].key_len = ks ? 32u : 16u;
        }
    p[n++] = (struct vg_ctx_plan){ IBSEC_MODE_NONE, 0, 0, IBSEC_SEL_QP, 0 };
    p[n++] = (struct vg_ctx_plan){ IBSEC_MODE_NONE, 0, 0, IBSEC_SEL_PKEY, 0 };
    for (unsigned i = 0; i < n - 2; i++)
        p[i].sel = (i % 3u == 2u) ? IBSEC_SEL_PKEY : IBSEC_SEL_QP;
    return n;
}

static uint32_t vg_ctx_match(unsigned i, enum ibsec_sel sel)
{
    return sel == IBSEC_SEL_QP ? VG_QP_BASE + 0x11u * i : VG_PKEY_BASE + i;
}

/* A starting EPSN: half the contexts start a few packets below a multiple of
 * 2^24 so that the 24-bit PSN wraps early; the rest anywhere below 2^40. */
static uint64_t vg_start_epsn(unsigned i)
{
    if (i % 2u == 0)
        return ((uint64_t)ibsec_rng_range(&g_rng, 1, 255) << 24) - 1 - ibsec_rng_below(&g_rng, 8);
    return ibsec_rng_next(&g_rng) >> 24;
}

/* Build endpoint a's configuration and write it as keys.txt. */
static void vg_write_keys(const char *path, unsigned *n_ctx_out)
{
    ibsec_engine e;
    struct vg_ctx_plan plan[VG_N_CTX];
    char err[300], comment[200];
    if (ibsec_engine_init(&e, VG_N_KEYS, VG_N_CTX, 1) != 0)
        die("%s", "cannot create the engine");
    e.allow_plain = true;
    unsigned n = vg_plan_contexts(plan);
    for (unsigned i = 0; i < n; i++) {
        uint8_t key[32], salt[IBSEC_SALT_LEN];
        if (plan[i].mode == IBSEC_MODE_NONE)
            continue;
        ibsec_rng_bytes(&g_rng, key, plan[i].key_len);
        ibsec_rng_bytes(&g_rng, salt, sizeof salt);
        ibsec_key_set(&e, plan[i].key, key, plan[i].key_len, salt);
    }
    for (unsigned i = 0; i < n; i++) {
        ibsec_ctx_cfg c;
        const char *why = "?";
        memset(&c, 0, sizeof c);
        c.sel = plan[i].sel;
        c.match = vg_ctx_match(i, c.sel);
        c.mode = plan[i].mode;
        c.key = plan[i].key;
        c.sth_code = plan[i].sth_code;
        c.dir = ibsec_rng_below(&g_rng, 2);
        c.tx_next = vg_start_epsn(i);
        c.rx_next = vg_start_epsn(i + 1);
        c.alert_threshold = (i == 3) ? 0 : ibsec_rng_range(&g_rng, 2, IBSEC_ALERT_DEFAULT);
        if (ibsec_ctx_set(&e, i, &c, &why) != 0)
            die("context refused: %s", why);
    }
    snprintf(comment, sizeof comment,
             "written by ibsec_vecgen --seed %llu --count %llu (endpoint a seals; its peer b opens)",
             (unsigned long long)g_seed, (unsigned long long)g_count);
    if (ibsec_keyfile_save(path, &e, 'a', comment, err, sizeof err) != 0)
        die("%s", err);
    ibsec_engine_free(&e);
    *n_ctx_out = n;
}

/* ---- output ----------------------------------------------------------------- */

static void vg_hex(FILE *f, const uint8_t *b, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        fputc(digits[b[i] >> 4], f);
        fputc(digits[b[i] & 15u], f);
    }
}

static void vg_pcap_put(struct vg_link *L, ibsec_pcap_writer *w, const uint8_t *b, size_t n)
{
    uint32_t sec = VG_TS_BASE + (uint32_t)(L->seq / 1000u);
    uint32_t usec = (uint32_t)(L->seq % 1000u) * 1000u;
    if (ibsec_pcap_write(w, b, n, sec, usec) != 0)
        die("pcap write: %s", w->err);
}

/* One record of the harness file (docs/vectors.md). */
struct vg_record {
    const char *kind;
    enum ibsec_shape shape;
    const uint8_t *plain;  size_t plain_len;
    bool sealed_run;       ibsec_verdict sv;  const uint8_t *sealed; size_t sealed_len;
    const uint8_t *wire;   size_t wire_len;   /* NULL: not offered to open */
    ibsec_verdict ov;      const uint8_t *opened; size_t opened_len;
};

/* "<kw> <reason> <hex>" with "-" for the bytes unless the reason is ok. */
static void vg_emit_result(FILE *f, const char *kw, enum ibsec_reason why, const uint8_t *b, size_t n)
{
    fprintf(f, "%s %s ", kw, ibsec_reason_name(why));
    if (why == IBSEC_R_OK)
        vg_hex(f, b, n);
    else
        fputc('-', f);
    fputc('\n', f);
}

/* The pkt line: what the model selected and, for secured packets that reached
 * the MAC check, the EPSN (docs/vectors.md). */
static void vg_emit_pkt_line(struct vg_link *L, const struct vg_record *r)
{
    const ibsec_verdict *v = r->sealed_run ? &r->sv : &r->ov;
    bool has_epsn = v->mode != IBSEC_MODE_NONE && v->ctx >= 0 &&
                    (v->reason == IBSEC_R_OK || v->reason == IBSEC_R_AUTH_FAILED);
    fprintf(L->vec, "pkt %llu kind %s shape %s ctx %d mode %s epsn ", (unsigned long long)L->seq,
            r->kind, ibsec_shape_name(r->shape), v->ctx, ibsec_mode_name(v->mode));
    if (has_epsn)
        fprintf(L->vec, "0x%llx", (unsigned long long)v->epsn);
    else
        fputc('-', L->vec);
    fprintf(L->vec, " alert %d\n", r->wire ? (int)r->ov.alert_raised : 0);
}

/* Write one record to the .vec file and its packets to the pcaps. */
static void vg_emit(struct vg_link *L, const struct vg_record *r)
{
    FILE *f = L->vec;
    vg_emit_pkt_line(L, r);
    fputs("plain ", f);
    if (r->plain)
        vg_hex(f, r->plain, r->plain_len);
    else
        fputc('-', f);
    fputc('\n', f);
    if (r->sealed_run)
        vg_emit_result(f, "seal", r->sv.reason, r->sealed, r->sealed_len);
    else
        fputs("seal - -\n", f);
    if (r->wire) {
        fputs("wire ", f);
        vg_hex(f, r->wire, r->wire_len);
        fputc('\n', f);
        vg_emit_result(f, "open", r->ov.reason, r->opened, r->opened_len);
        vg_pcap_put(L, &L->wire, r->wire, r->wire_len);
        L->n_wire++;
    } else {
        fputs("wire -\nopen - -\n", f);
    }
    if (r->sealed_run && r->sv.reason == IBSEC_R_OK) {
        vg_pcap_put(L, &L->plain, r->plain, r->plain_len);
        vg_pcap_put(L, &L->sealed, r->sealed, r->sealed_len);
    }
    L->seq++;
}

static void vg_remember(struct vg_link *L, enum ibsec_shape shape, const uint8_t *b, size_t n)
{
    unsigned slot = L->hist_n % VG_HISTORY;
    L->hist_shape[slot] = shape;
    free(L->hist[slot]);
    L->hist[slot] = malloc(n);
    if (!L->hist[slot])
        die("%s", "out of memory");
    memcpy(L->hist[slot], b, n);
    L->hist_len[slot] = n;
    L->hist_n++;
}

/* Offer wire bytes to endpoint b (open). */
static void vg_open(struct vg_link *L, const uint8_t *wire, size_t n, struct vg_record *r,
                    uint8_t *out)
{
    r->wire = wire;
    r->wire_len = n;
    ibsec_open(&L->rx, L->link, wire, n, out, IBSEC_MAX_PKT, &r->opened_len, &r->ov);
    r->opened = out;
}

/* ---- packets -------------------------------------------------------------- */

/* Build one plain packet for context ctx (VG_NO_CTX: none) into buf. */
static size_t vg_build(struct vg_link *L, int ctx, enum ibsec_shape shape, int opcode,
                       int payload_len, uint8_t *buf)
{
    static uint8_t payload[IBSEC_MAX_PAYLOAD];
    struct ibsec_pktgen_opts o;
    struct ibsec_pkt_desc d;
    size_t len = 0;
    ibsec_pktgen_default_opts(&o, shape);
    o.opcode = opcode;
    o.payload_len = payload_len;
    if (ibsec_pktgen_desc(&g_rng, &o, &d, payload) != IBSEC_PKT_OK)
        die("%s: cannot describe a packet for shape %s", L->name, ibsec_shape_name(shape));
    if (ctx == VG_NO_CTX) {
        d.bth.destqp = VG_FREE_QP | ibsec_rng_below(&g_rng, VG_FREE_QP);
        d.bth.pkey = (uint16_t)(VG_FREE_PKEY | ibsec_rng_below(&g_rng, 0x100u) |
                                (ibsec_rng_below(&g_rng, 2) << 15));
    } else {
        const ibsec_ctx_cfg *c = &L->tx.ctx[ctx].cfg;
        if (c->sel == IBSEC_SEL_QP) {
            d.bth.destqp = c->match;
        } else {
            d.bth.destqp = VG_FREE_QP | ibsec_rng_below(&g_rng, VG_FREE_QP);
            d.bth.pkey = (uint16_t)(c->match | (ibsec_rng_below(&g_rng, 2) << 15));
        }
        /* occasionally skip PSNs: the receiver's window must accept gaps */
        if (ibsec_rng_below(&g_rng, 16) == 0)
            L->next_epsn[ctx] += ibsec_rng_range(&g_rng, 1, 40);
        d.bth.psn = (uint32_t)(L->next_epsn[ctx] & IBSEC_PSN_MASK);
    }
    enum ibsec_pkt_err pe = ibsec_pkt_build(&d, buf, IBSEC_MAX_PKT, &len, NULL);
    if (pe != IBSEC_PKT_OK)
        die("%s: packet build failed: %s", L->name, ibsec_pkt_err_name(pe));
    return len;
}

/* How a copy of a sealed packet is damaged. */
enum vg_damage {
    VG_TAMPER,  /* one bit flipped anywhere, CRCs left as they are: the link CRCs catch most */
    VG_FORGE,   /* one bit flipped before the CRC fields (icrc-mac: or in the tag that
                   replaces the ICRC), then the VCRC and, where the mode keeps a real ICRC,
                   the ICRC recomputed, as an attacker on the path can: only the MAC stands
                   in the way (flips of fields that switches may change are legal and pass) */
    VG_BADTAG   /* as VG_FORGE, but the flipped bit is in the MAC itself: always rejected */
};

static void vg_tamper(struct vg_link *L, const uint8_t *plain, size_t plain_len,
                      enum ibsec_shape shape, const ibsec_verdict *sv,
                      const uint8_t *sealed, size_t n, enum vg_damage how)
{
    static uint8_t bad[IBSEC_MAX_PKT], out[IBSEC_MAX_PKT];
    static const char *const kinds[] = { "tamper", "forge", "badtag" };
    struct vg_record r;
    struct ibsec_pkt p;
    size_t sth = ibsec_sth_len(L->tx.ctx[sv->ctx].cfg.sth_code);
    bool icrc_mac = sv->mode == IBSEC_MODE_ICRC_MAC;
    memset(&r, 0, sizeof r);
    memcpy(bad, sealed, n);
    if (ibsec_frame_parse(sealed, n, L->link, sth, &p) != IBSEC_PKT_OK)
        die("%s: a sealed packet does not parse", L->name);
    size_t first = 0, span = n;               /* bytes a flip may hit: [first, first + span) */
    if (how == VG_FORGE) {
        span = icrc_mac ? p.icrc_off + IBSEC_ICRC_LEN : p.icrc_off;
    } else if (how == VG_BADTAG) {
        first = icrc_mac ? p.icrc_off : p.extra_off;
        span = icrc_mac ? IBSEC_ICRC_LEN : p.extra_len;
    }
    size_t bit = first * 8u + ibsec_rng_below(&g_rng, (uint32_t)(span * 8u));
    bad[bit / 8u] ^= (uint8_t)(1u << (bit % 8u));
    if (how != VG_TAMPER && ibsec_frame_parse(bad, n, L->link, sth, &p) == IBSEC_PKT_OK) {
        if (icrc_mac)
            ibsec_pkt_put_vcrc(bad, &p);
        else
            ibsec_pkt_put_crcs(bad, &p);
    }
    r.kind = kinds[how];
    r.shape = shape;
    r.plain = plain;
    r.plain_len = plain_len;
    vg_open(L, bad, n, &r, out);
    vg_emit(L, &r);
}

/* An earlier wire packet offered again. */
static void vg_replay(struct vg_link *L)
{
    static uint8_t out[IBSEC_MAX_PKT];
    struct vg_record r;
    if (L->hist_n == 0)
        return;
    unsigned avail = L->hist_n < VG_HISTORY ? L->hist_n : VG_HISTORY;
    unsigned back = ibsec_rng_below(&g_rng, avail);
    unsigned slot = (L->hist_n - 1u - back) % VG_HISTORY;
    memset(&r, 0, sizeof r);
    r.kind = "replay";
    r.shape = L->hist_shape[slot];
    r.plain = NULL;
    r.plain_len = 0;
    vg_open(L, L->hist[slot], L->hist_len[slot], &r, out);
    vg_emit(L, &r);
}

/* A record whose plain packet endpoint a seals now. */
static void vg_seal_record(struct vg_link *L, const char *kind, enum ibsec_shape shape,
                           const uint8_t *plain, size_t plain_len, uint8_t *sealed,
                           struct vg_record *r)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->shape = shape;
    r->plain = plain;
    r->plain_len = plain_len;
    r->sealed_run = true;
    r->sealed = sealed;
    ibsec_seal(&L->tx, L->link, plain, plain_len, sealed, IBSEC_MAX_PKT, &r->sealed_len, &r->sv);
}

/* Transmitter nonce reuse: endpoint a asked to seal the same packet (same PSN) again. */
static void vg_reuse(struct vg_link *L, enum ibsec_shape shape, const uint8_t *plain, size_t plain_len)
{
    static uint8_t sealed[IBSEC_MAX_PKT], out[IBSEC_MAX_PKT];
    struct vg_record u;
    vg_seal_record(L, "reuse", shape, plain, plain_len, sealed, &u);
    if (u.sv.reason == IBSEC_R_OK) {  /* the model accepted it: offer it like any packet */
        vg_open(L, sealed, u.sealed_len, &u, out);
        vg_remember(L, shape, sealed, u.sealed_len);
    }
    vg_emit(L, &u);
}

/* Seal one packet on a, then (sometimes) offer a tampered copy and a forged
 * copy, and `burst` copies with a bad MAC, then the genuine packet, then
 * (sometimes) try to seal it again and replay an earlier packet. */
static void vg_packet(struct vg_link *L, int ctx, enum ibsec_shape shape, int opcode, int payload_len,
                      uint32_t burst)
{
    static uint8_t plain[IBSEC_MAX_PKT], sealed[IBSEC_MAX_PKT], out[IBSEC_MAX_PKT];
    struct vg_record r;
    size_t plain_len = vg_build(L, ctx, shape, opcode, payload_len, plain);
    vg_seal_record(L, "normal", shape, plain, plain_len, sealed, &r);
    if (r.sv.reason != IBSEC_R_OK) {
        vg_emit(L, &r);
        return;
    }
    bool secured = r.sv.mode != IBSEC_MODE_NONE;
    if (ctx != VG_NO_CTX)
        L->next_epsn[ctx]++;
    if (secured && burst == 0 && ibsec_rng_below(&g_rng, 8) == 0)
        vg_tamper(L, plain, plain_len, shape, &r.sv, sealed, r.sealed_len, VG_TAMPER);
    if (secured && burst == 0 && ibsec_rng_below(&g_rng, 5) == 0)
        vg_tamper(L, plain, plain_len, shape, &r.sv, sealed, r.sealed_len, VG_FORGE);
    for (uint32_t i = 0; secured && i < burst; i++)
        vg_tamper(L, plain, plain_len, shape, &r.sv, sealed, r.sealed_len, VG_BADTAG);
    vg_open(L, sealed, r.sealed_len, &r, out);
    if (r.ov.reason == IBSEC_R_OK &&
        (r.opened_len != plain_len || memcmp(out, plain, plain_len) != 0)) {
        fprintf(stderr, "ibsec_vecgen: %s record %llu: opened packet differs from the plain one\n",
                L->name, (unsigned long long)L->seq);
        L->mismatches++;
    }
    vg_emit(L, &r);
    vg_remember(L, shape, sealed, r.sealed_len);
    if (secured && ibsec_rng_below(&g_rng, 24) == 0)
        vg_reuse(L, shape, plain, plain_len);
    if (ibsec_rng_below(&g_rng, 12) == 0)
        vg_replay(L);
}

/* The send-only opcode of a transport class, for the length sweep. */
static int vg_send_only(unsigned i)
{
    static const int ops[] = { 0x04, 0x24, 0x44, 0x64, 0xA4 }; /* RC, UC, RD, UD, XRC SEND Only */
    return ops[i % 5u];
}

static void vg_sweeps(struct vg_link *L, unsigned n_ctx)
{
    unsigned rot = 0;
    /* 1. every opcode the link carries */
    for (size_t i = 0; i < ibsec_opcode_count(); i++) {
        const struct ibsec_opcode_info *op = ibsec_opcode_at(i);
        if (op->tclass == IBSEC_TC_CNP && L->link != IBSEC_LINK_ROCE)
            continue;
        for (unsigned s = 0; s < 2; s++, rot++) {
            int ctx = (rot % (n_ctx + 1u) == n_ctx) ? VG_NO_CTX : (int)(rot % (n_ctx + 1u));
            vg_packet(L, ctx, L->shapes[s], op->opcode, -1, 0);
        }
    }
    /* 2. lengths 0 and 4096 and every pad count, for every context and both shapes */
    for (unsigned c = 0; c <= n_ctx; c++) {
        int ctx = (c == n_ctx) ? VG_NO_CTX : (int)c;
        for (unsigned s = 0; s < 2; s++) {
            vg_packet(L, ctx, L->shapes[s], vg_send_only(rot++), 0, 0);
            vg_packet(L, ctx, L->shapes[s], vg_send_only(rot++), (int)IBSEC_MAX_PAYLOAD, 0);
            for (unsigned pad = 0; pad < 4; pad++) {
                /* PadCnt = (4 - len % 4) % 4 (IBA §9.2.4) */
                int len = (int)(ibsec_rng_range(&g_rng, 1, 1000) * 4u) - (int)pad;
                vg_packet(L, ctx, L->shapes[s], vg_send_only(rot++), len, 0);
            }
        }
    }
}

/* For every secured context with alerts on: threshold + 1 consecutive bad MACs
 * (the alert is raised on the threshold-th), then the genuine packet. */
static void vg_alert_bursts(struct vg_link *L, unsigned n_ctx)
{
    for (unsigned c = 0; c < n_ctx; c++) {
        const ibsec_ctx_cfg *cfg = &L->tx.ctx[c].cfg;
        if (cfg->mode != IBSEC_MODE_NONE && cfg->alert_threshold != 0)
            vg_packet(L, (int)c, L->shapes[c % 2u], vg_send_only(c), -1, cfg->alert_threshold + 1u);
    }
}

static void vg_random(struct vg_link *L, unsigned n_ctx)
{
    for (uint64_t i = 0; i < g_count; i++) {
        unsigned c = ibsec_rng_below(&g_rng, n_ctx + 2u);
        int ctx = (c >= n_ctx) ? VG_NO_CTX : (int)c;
        vg_packet(L, ctx, L->shapes[ibsec_rng_below(&g_rng, 2)], -1, -1, 0);
    }
}

/* ---- per link ------------------------------------------------------------------ */

static void vg_path(char *buf, const char *name, const char *suffix)
{
    if ((size_t)snprintf(buf, VG_PATH_MAX, "%s/%s%s", g_out, name, suffix) >= VG_PATH_MAX)
        die("output path too long: %s/%s", g_out, name);
}

static void vg_open_pcap(ibsec_pcap_writer *w, const char *name, const char *suffix, uint32_t lt)
{
    char p[VG_PATH_MAX];
    vg_path(p, name, suffix);
    if (ibsec_pcap_writer_open(w, p, lt) != 0)
        die("%s: %s", p, w->err);
}

static void vg_close_pcap(ibsec_pcap_writer *w)
{
    if (ibsec_pcap_writer_close(w) != 0)
        die("pcap close: %s", w->err);
}

static int vg_run_link(struct vg_link *L, const char *keys, unsigned n_ctx)
{
    char err[300], p[VG_PATH_MAX];
    uint32_t lt = L->link == IBSEC_LINK_IB ? IBSEC_LINKTYPE_INFINIBAND : IBSEC_LINKTYPE_ETHERNET;
    if (ibsec_keyfile_load_side(keys, &L->tx, 1, IBSEC_SIDE_A, NULL, err, sizeof err) != 0 ||
        ibsec_keyfile_load_side(keys, &L->rx, 1, IBSEC_SIDE_B, NULL, err, sizeof err) != 0)
        die("%s", err);
    for (unsigned i = 0; i < n_ctx; i++)
        L->next_epsn[i] = L->tx.ctx[i].cfg.tx_next;
    vg_open_pcap(&L->plain, L->name, "-plain.pcap", lt);
    vg_open_pcap(&L->sealed, L->name, "-sealed.pcap", lt);
    vg_open_pcap(&L->wire, L->name, "-wire.pcap", lt);
    vg_path(p, L->name, ".vec");
    L->vec = fopen(p, "w");
    if (!L->vec)
        die("%s: %s", p, strerror(errno));
    fprintf(L->vec, "ibsec-vectors 1\n# ibsec_vecgen --seed %llu --count %llu\n"
            "link %s\nkeys keys.txt\n", (unsigned long long)g_seed,
            (unsigned long long)g_count, L->name);
    vg_sweeps(L, n_ctx);
    vg_alert_bursts(L, n_ctx);
    vg_random(L, n_ctx);
    fprintf(L->vec, "end %llu\n", (unsigned long long)L->seq);
    if (fclose(L->vec) != 0)
        die("%s: %s", p, strerror(errno));
    vg_close_pcap(&L->plain);
    vg_close_pcap(&L->sealed);
    vg_close_pcap(&L->wire);
    printf("ibsec_vecgen: %-6s %6llu records, %6llu sealed, %6llu received; "
           "open: %llu delivered, %llu dropped\n", L->name, (unsigned long long)L->seq,
           (unsigned long long)L->tx.count[IBSEC_OP_SEAL][IBSEC_R_OK],
           (unsigned long long)L->n_wire,
           (unsigned long long)L->rx.count[IBSEC_OP_OPEN][IBSEC_R_OK],
           (unsigned long long)(L->n_wire - L->rx.count[IBSEC_OP_OPEN][IBSEC_R_OK]));
    for (unsigned i = 0; i < VG_HISTORY; i++)
        free(L->hist[i]);
    ibsec_engine_free(&L->tx);
    ibsec_engine_free(&L->rx);
    return L->mismatches ? 1 : 0;
}

/* ---- main ---------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr, "usage: ibsec_vecgen [--seed N] [--count N] [--out DIR]\n");
    exit(2);
}

static uint64_t parse_num(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *s == '\0' || *end != '\0' || *s == '-') {
        fprintf(stderr, "ibsec_vecgen: bad number '%s' for %s\n", s, opt);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "--seed") == 0)
            g_seed = parse_num("--seed", argv[++i]);
        else if (strcmp(argv[i], "--count") == 0)
            g_count = parse_num("--count", argv[++i]);
        else if (strcmp(argv[i], "--out") == 0)
            g_out = argv[++i];
        else
            usage();
    }
    if (mkdir(g_out, 0777) != 0 && errno != EEXIST)
        die("%s: %s", g_out, strerror(errno));
    ibsec_rng_seed(&g_rng, g_seed);
    char keys[VG_PATH_MAX];
    unsigned n_ctx;
    vg_path(keys, "keys", ".txt");
    vg_write_keys(keys, &n_ctx);
    static struct vg_link links[2] = {
        { .name = "native", .link = IBSEC_LINK_IB,
          .shapes = { IBSEC_SHAPE_IB_LOCAL, IBSEC_SHAPE_IB_GLOBAL } },
        { .name = "rocev2", .link = IBSEC_LINK_ROCE,
          .shapes = { IBSEC_SHAPE_ROCE_V4, IBSEC_SHAPE_ROCE_V6 } },
    };
    int rc = 0;
    for (unsigned i = 0; i < 2; i++)
        rc |= vg_run_link(&links[i], keys, n_ctx);
    if (rc)
        fprintf(stderr, "ibsec_vecgen: the model did not restore some packets exactly\n");
    return rc;
}
