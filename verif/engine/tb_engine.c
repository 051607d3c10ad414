/*
 * tb_engine.c — C harness of the packet-engine bench: rtl/engine/ibsec_engine.v, a seal instance
 * (endpoint A) and an open instance (endpoint B, A's peer) in verif/engine/tb_engine.v,
 * against the C reference model (cmodel/ibsec.h).
 *
 * Random run (default, --packets N per mode):
 *   - configuration: endpoint A of tb_traffic.h (every secured mode x STH size on AES-128
 *     and AES-256 keys, two mode-none contexts, QP and P_Key selectors, EPSNs that wrap
 *     the 24-bit PSN, random ALLOW_PLAIN; MASK_MF on for odd seeds, off for even ones, so
 *     the marking-field mask of docs/availability.md §2.4 is exercised by the default
 *     seed 1); the seal instance is written with
 *     A, the open instance with ibsec_engine_make_peer(A), both through the register bus;
 *   - traffic: plain packets from the model's generator, the five modes in turn (mode
 *     none: a mode-none context or no context), random shape, every opcode, payload
 *     lengths of tb_gen_length_mix(); the seal instance gets the plain packets and, among
 *     them, bad inputs (nonce reuse, truncated, extended, over-long, unknown opcode,
 *     security bits set, wrong length fields); the open instance gets the packets the
 *     generator's endpoint A sealed and, among them, tampered copies (a bit flipped
 *     anywhere), forgeries (a bit flipped, CRCs recomputed), bad MACs (in bursts that
 *     raise alerts), replays, downgrades to mode none, truncated, extended, over-long,
 *     unknown-opcode, reserved-security-bit and wrong-length frames;
 *   - random idle on the inputs and random back-pressure on the outputs, in phases;
 *   - key replacement and key clearing during traffic on either instance; the model
 *     applies the change at the packet boundary the engine reports (CMD_DECIDED,
 *     docs/registers.md §2);
 *   - resets of one instance in the middle of a packet: what was in flight is lost, both
 *     the instance and its model start again from the configuration, traffic goes on.
 *   Checks, for every packet in input order: the status entry (reason, context, mode,
 *   EPSN, alert) equals the model's verdict (ibsec_seal on A, ibsec_open on B); every
 *   delivered packet equals the model's output byte for byte with the link in tuser;
 *   every packet the RTL sealed is opened by a model peer and gives back the plain packet;
 *   at the end the per-reason counters and every context's live state (EPSNs, replay
 *   window, failures, alert) read through the register bus equal the model's.
 *
 * Benchmark (--bench, CLOCK MHz with --clock): per mode, for payloads of 64, 256, 1024
 * and 4096 bytes (RC SEND Only, native without GRH), seal and open:
 *   latency: one packet into an idle engine; FF = cycles from the first input beat to the
 *            first output beat, LL = from the last input beat to the last output beat,
 *            LIFO = from the last input beat to the first output beat (the store-and-forward
 *            latency of RFC 1242 §3.8: the delay the engine adds), each transfer counted at
 *            the clock edge that takes it;
 *   throughput: back-to-back packets, no idle, no back-pressure, over the steady state, on
 *            the link-side port (seal: m_axis, open: s_axis): beat occupancy (% of clocks
 *            with a transfer), bytes per clock in % of 16 x LANES, and the framing cap of
 *            that frame, bytes / (16 x LANES x its beats) (a packet starts on a new beat,
 *            so a partial last beat caps bytes per clock below 100 %); also input bytes and
 *            beats per clock (the JSON keeps them).
 *   Printed as a table and written as JSON (--json FILE; schema in verif/engine/README.md).
 *
 * CONFIG during traffic (--config-every N): a CONFIG write (ALLOW_PLAIN, MASK_MF, the fields
 *   the engine samples once per packet, at its decision) to one instance every 1 .. 2N-1
 *   plain packets, with packets of every mode in flight. The model takes the new setting
 *   at the boundary the engine reports (CMD_DECIDED); that boundary must lie in the window
 *   seen on the ports (packets whose status came out before the write are old, packets
 *   whose first beat was taken after its acknowledge are new; struct change), so a packet
 *   in the engine across the write matches the model byte for byte under one of the two
 *   settings, the one the engine reports, and a packet that mixed them matches neither.
 *   Key changes are checked against the same window.
 *
 * Usage: Vtb [--seed N] [--packets N] [--full-lengths] [--no-reset] [--no-huge]
 *            [--config-every N] [--bench] [--bench-payload 64|256|1024|4096] [--clock MHZ]
 *            [--params "NAME=VALUE ..."] [--json FILE] [--quiet]
 *   --params: the RTL parameters of the build (make passes them), copied into the JSON so
 *   that the report converts cycles to ns only with a clock routed in the same
 *   configuration.
 * Last line: "engine-L<n>: N passed, N failed" (bench: figures only).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crc.h"
#include "ibsec.h"
#include "progress.h"
#include "tb_engine.h"
#include "tb_regs.h"
#include "tb_traffic.h"
#include "tb_util.h"

#define MAX_WORDS    (4 * 12)       /* tdata words at LANES = 12 */
#define KEEP_WORDS   6              /* tkeep words at LANES = 12 */
#define STALL_CYCLES 200000ul       /* nothing moved for this long while work is pending */
#define PHASE_PKTS   64u            /* packets per idle / back-pressure phase */
#define TOPUP        4u             /* frames queued ahead per instance */
#define MAX_CHANGES  64u
#define RESET_CYCLES 3u
#define COVER_MIN_PER_MODE 2000ul
#define DUMP_MAX     256u           /* bytes of a failing frame printed */  /* runs this long must cover every combination */

/* ---- frames in flight ------------------------------------------------------------ */

struct pkt {
    struct pkt *next;
    enum tb_kind kind;
    int      link;
    int      mode_aim;
    int      shape;               /* enum ibsec_shape of a frame whose BTH the model finds */
    int      mode;                /* model verdict's mode */
    size_t   len;
    uint8_t *bytes;
    /* evaluated by the model: expected output */
    int      reason;
    size_t   out_len;
    uint8_t *out;
    size_t   ref_len;             /* seal: the plain packet the peer must restore */
    uint8_t *ref;
    unsigned long index;          /* packet number since the instance's reset */
    unsigned long t_first_in, t_last_in, t_first_out, t_last_out;
    struct dut_status st;
};

struct fifo {
    struct pkt *head, *tail;
    unsigned long n;
};

static void fifo_push(struct fifo *f, struct pkt *p)
{
    p->next = NULL;
    if (f->tail)
        f->tail->next = p;
    else
        f->head = p;
    f->tail = p;
    f->n++;
}

static struct pkt *fifo_pop(struct fifo *f)
{
    struct pkt *p = f->head;
    if (!p)
        return NULL;
    f->head = p->next;
    if (!f->head)
        f->tail = NULL;
    f->n--;
    return p;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "tb_engine: out of memory\n");
        exit(1);
    }
    return p;
}

static void pkt_free(struct pkt *p)
{
    if (!p)
        return;
    free(p->bytes);
    free(p->out);
    free(p->ref);
    free(p);
}

static void fifo_drain(struct fifo *f, unsigned long *count)
{
    struct pkt *p;
    while ((p = fifo_pop(f)) != NULL) {
        if (count)
            (*count)++;
        pkt_free(p);
    }
}

/* The header shape of a frame (native with or without GRH, RoCEv2 over IPv4 or IPv6). */
static int frame_shape(const struct tb_gen_frame *f)
{
    if (f->link == IBSEC_LINK_IB)
        return f->len > 1 && (f->bytes[1] & 3u) == IBSEC_LRH_LNH_IBA_GLOBAL ? IBSEC_SHAPE_IB_GLOBAL
                                                                             : IBSEC_SHAPE_IB_LOCAL;
    return f->len > 13 && ibsec_get_be16(f->bytes + 12) == IBSEC_ETHERTYPE_IPV6 ? IBSEC_SHAPE_ROCE_V6
                                                                                : IBSEC_SHAPE_ROCE_V4;
}

static struct pkt *pkt_new(const struct tb_gen_frame *f)
{
    struct pkt *p = xmalloc(sizeof *p);
    memset(p, 0, sizeof *p);
    p->kind = f->kind;
    p->link = f->link;
    p->mode_aim = f->mode;
    p->shape = frame_shape(f);
    p->len = f->len;
    p->bytes = xmalloc(f->len);
    memcpy(p->bytes, f->bytes, f->len);
    return p;
}

/* ---- a change of the tables, applied to the model at a packet boundary -------------- */

/* A command issued during traffic: a key change or a CONFIG write. The engine reports the
 * packet boundary at which it took effect (CMD_DECIDED, docs/registers.md §2); the harness
 * also knows a window for it from what it saw on the ports: the packets whose status came
 * out before the command was queued were decided before it (boundary >= lo), and the
 * packets whose first beat was taken after the cycle in which the command's write was
 * acknowledged are decided after it (boundary <= hi). The packets lo .. hi-1 were in the
 * engine across the write: each must be processed wholly with the old or wholly with the
 * new state, the one the boundary names. */
enum change_kind { CH_KEY, CH_CONFIG };

struct change {
    enum change_kind kind;
    unsigned slot;
    bool     install;           /* false: clear or zeroize */
    bool     zeroize;           /* (not install) KEY_CMD OP = 3 instead of a clear */
    size_t   key_len;
    uint8_t  key[32], salt[IBSEC_SALT_LEN];
    bool     allow_plain, mask_mf;  /* CH_CONFIG: the new CONFIG */
    bool     flip_ap, flip_mf;      /* CH_CONFIG: the field changed */
    struct tb_cmd_result res;   /* boundary: CMD_DECIDED once res.done */
    unsigned long lo, hi;       /* the window of the boundary seen on the ports */
    bool     hi_set, window_checked;
    bool     model_done, peer_done;
};

/* ---- one instance -------------------------------------------------------------------- */

struct port {
    int           inst;
    const char   *name;            /* "seal" / "open" */
    enum ibsec_op op;
    struct tb_regs regs;
    struct tb_config cfg;          /* what software last configured (A's view) */
    ibsec_engine  model;           /* A (seal) or B (open) */
    ibsec_engine  peer;            /* seal: B, opening what the RTL sealed */
    bool          have_model;
    /* a zeroize wrote a stale key into the staging: the next install is staged (KEY_CMD
       alone), so it must install the zero key */
    bool          zero_staged_next;
    /* input */
    struct fifo   pending;         /* not yet started */
    struct pkt   *cur;             /* being sent */
    size_t        cur_off;
    int           valid_held;      /* tvalid was up without a transfer */
    unsigned      idle_pct, bp_pct;
    bool          held;            /* input held (configuration in progress) */
    bool          in_reset;        /* its reset is asserted */
    bool          ring_bad;        /* the white-box ring check failed (reported once) */
    int           out_ready;       /* m_axis_tready driven this cycle */
    /* output and status */
    struct fifo   inflight;        /* first beat taken, no status yet */
    struct fifo   decided;         /* status seen, model not yet run */
    struct fifo   expect;          /* model's outputs not yet matched */
    struct fifo   got;             /* RTL outputs not yet matched */
    uint8_t       obuf[IBSEC_MAX_PKT + 16 * 12];
    size_t        olen;
    int           ouser;
    unsigned long t_first_out;
    unsigned long n_status;        /* statuses since reset: the next packet's number */
    struct change changes[MAX_CHANGES];
    unsigned      n_changes;
    unsigned long config_writes;   /* CONFIG changes during traffic (with a known boundary) */
    unsigned long across_writes;   /* packets in the engine across a CONFIG write */
    unsigned long config_flips[2]; /* of those writes: ALLOW_PLAIN changed, MASK_MF changed */
    /* tallies */
    unsigned long by_reason[IBSEC_R_COUNT];
    unsigned long by_kind[TB_K_COUNT], by_kind_ok[TB_K_COUNT];
    unsigned long by_mode[IBSEC_MODE_COUNT], by_mode_ok[IBSEC_MODE_COUNT];
    unsigned long bad_by_mode[IBSEC_MODE_COUNT][IBSEC_SHAPE_COUNT]; /* packets with a failed check */
    /* delivered packets by mode, shape, AES key size (0: none, 1: 128, 2: 256), pad count */
    unsigned long cover[IBSEC_MODE_COUNT][IBSEC_SHAPE_COUNT][3][4];
    /* RoCEv2 frames padded to the 802.3 minimum: in, and delivered */
    unsigned long eth_padded, eth_padded_ok;
    unsigned long frames_in, beats_in, bytes_in, delivered, lost;
    unsigned long last_activity;
};

/* ---- the bench --------------------------------------------------------------------- */

static struct {
    unsigned       lanes, bpb;        /* LANES, bytes per beat */
    unsigned long  cycle;
    tb_result      res;
    tb_rng         rng;               /* bench decisions (idle, back-pressure, events) */
    struct port    port[DUT_COUNT];
    bool           quiet;
} B;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
    va_list ap;
    if (B.quiet)
        return;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

/* Build the port's models from its configuration (after a reset or at the start). */
static int port_load_models(struct port *P)
{
    if (P->have_model) {
        ibsec_engine_free(&P->model);
        if (P->inst == DUT_SEAL)
            ibsec_engine_free(&P->peer);
    }
    if (tb_config_load(&P->cfg, &P->model, P->inst == DUT_OPEN) != 0)
        return -1;
    if (P->inst == DUT_SEAL && tb_config_load(&P->cfg, &P->peer, true) != 0)
        return -1;
    P->have_model = true;
    return 0;
}

static void engine_apply_change(ibsec_engine *e, const struct change *c)
{
    if (c->kind == CH_CONFIG) {
        e->allow_plain = c->allow_plain;
        e->mask_mf = c->mask_mf;
    } else if (c->install) {
        ibsec_key_set(e, c->slot, c->key, c->key_len, c->salt);
    } else {
        ibsec_key_clear(e, c->slot);
    }
}

/* Keep the configuration of the port in step with a change (for re-configuration). */
static void cfg_apply_change(struct tb_config *cfg, const struct change *c)
{
    engine_apply_change(&cfg->a, c);
}

static uint64_t result_decided(const struct tb_cmd_result *r)
{
    return (uint64_t)r->decided[1] << 32 | r->decided[0];
}

/* Compare two byte strings; on a difference print 32 bytes around the first one. */
static bool check_bytes(const char *what, const uint8_t *exp, const uint8_t *got, size_t n)
{
    size_t first = 0;
    while (first < n && exp[first] == got[first])
        first++;
    if (first == n) {
        tb_pass(&B.res);
        return true;
    }
    size_t from = first >= 8 ? first - 8 : 0, to = from + 32 < n ? from + 32 : n, diffs = 0;
    for (size_t i = first; i < n; i++)
        diffs += exp[i] != got[i];
    char he[65], hg[65];
    tb_hex(he, exp + from, to - from);
    tb_hex(hg, got + from, to - from);
    tb_fail(&B.res, "%s: %zu bytes, %zu differ, the first at byte %zu\n    expected [%zu..] %s\n    got      [%zu..] %s",
            what, n, diffs, first, from, he, from, hg);
    return false;
}

/* ---- model side: status and output checks ------------------------------------------- */

/* The boundary the engine reported lies in the window seen on the ports (struct change). */
static void check_window(struct port *P, struct change *c)
{
    if (c->window_checked)
        return;
    c->window_checked = true;
    uint64_t b = result_decided(&c->res);
    if (!c->hi_set) {
        tb_fail(&B.res, "%s: a command finished before its write was acknowledged", P->name);
        return;
    }
    if (b >= c->lo && b <= c->hi) {
        tb_pass(&B.res);
    } else {
        tb_fail(&B.res, "%s: %s took effect before packet %llu (CMD_DECIDED), outside %lu .. %lu "
                        "(the packets before %lu had their status before the write, those from %lu on "
                        "entered after it)", P->name, c->kind == CH_CONFIG ? "a CONFIG write" : "a key change",
                (unsigned long long)b, c->lo, c->hi, c->lo, c->hi);
    }
    if (c->kind == CH_CONFIG) {
        P->config_writes++;
        P->across_writes += c->hi - c->lo;
        P->config_flips[0] += c->flip_ap;
        P->config_flips[1] += c->flip_mf;
    }
}

/* Apply the changes whose boundary is at or before packet `index` to the model (or
 * peer); false if a change in progress has no known boundary yet. */
static bool apply_changes(struct port *P, unsigned long index, bool peer)
{
    for (unsigned i = 0; i < P->n_changes; i++) {
        struct change *c = &P->changes[i];
        bool *done = peer ? &c->peer_done : &c->model_done;
        if (*done)
            continue;
        if (!c->res.done)
            return false;
        check_window(P, c);
        if (result_decided(&c->res) > index)
            continue;
        engine_apply_change(peer ? &P->peer : &P->model, c);
        *done = true;
    }
    return true;
}

/* Forget changes both the model and the peer have applied. The register agent holds
 * pointers into a change in progress (its result words), so the list is compacted only
 * when no command is in progress. */
static void retire_changes(struct port *P)
{
    unsigned n = 0;
    for (unsigned i = 0; i < P->n_changes; i++)
        if (!P->changes[i].res.done)
            return;
    for (unsigned i = 0; i < P->n_changes; i++) {
        struct change *c = &P->changes[i];
        if (c->model_done && (c->peer_done || P->inst == DUT_OPEN))
            continue;
        P->changes[n++] = *c;
    }
    P->n_changes = n;
}

static void note_bad(struct port *P, const struct pkt *p)
{
    P->bad_by_mode[p->mode % IBSEC_MODE_COUNT][p->shape % IBSEC_SHAPE_COUNT]++;
}

static void check_status(struct port *P, const struct pkt *p, const ibsec_verdict *v)
{
    const struct dut_status *s = &p->st;
    bool hit = v->ctx >= 0;
    bool ok = s->reason == (unsigned)v->reason && s->ctx_hit == hit &&
              (!hit || s->ctx == (unsigned)v->ctx) && s->mode == (unsigned)v->mode &&
              s->epsn == v->epsn && s->alert == (int)v->alert_raised;
    if (ok) {
        tb_pass(&B.res);
        return;
    }
    note_bad(P, p);
    if (!B.quiet && B.res.failed < 3) {
        /* the frame of the first failures, for a report */
        size_t shown = p->len < DUMP_MAX ? p->len : DUMP_MAX;
        printf("  frame of %s packet %lu, %zu bytes%s:", P->name, p->index, p->len,
               shown < p->len ? " (the first 256)" : "");
        for (size_t i = 0; i < shown; i++)
            printf("%s%02x", i % 32 ? "" : "\n    ", p->bytes[i]);
        printf("\n");
    }
    tb_fail(&B.res,
            "%s packet %lu (%s, %s, %zu bytes): status reason %s ctx %s%u mode %s epsn 0x%llx alert %d; "
            "model reason %s ctx %d mode %s epsn 0x%llx alert %d",
            P->name, p->index, tb_kind_name(p->kind), p->link ? "rocev2" : "native", p->len,
            ibsec_reason_name((enum ibsec_reason)s->reason), s->ctx_hit ? "" : "-", s->ctx,
            ibsec_mode_name((enum ibsec_mode)s->mode), (unsigned long long)s->epsn, s->alert,
            ibsec_reason_name(v->reason), v->ctx, ibsec_mode_name(v->mode),
            (unsigned long long)v->epsn, (int)v->alert_raised);
}

/* The plain packet a peer must restore from a sealed one: the input without Ethernet
 * padding, with its CRCs computed and, RoCEv2, UDP checksum 0. */
static void plain_reference(const struct port *P, struct pkt *p)
{
    struct ibsec_pkt k;
    p->ref = xmalloc(p->len);
    memcpy(p->ref, p->bytes, p->len);
    p->ref_len = p->len;
    if (ibsec_frame_parse(p->ref, p->len, (enum ibsec_link)p->link, 0, &k) == IBSEC_PKT_OK) {
        k.mask_mf = P->model.mask_mf;
        ibsec_pkt_clear_udp_csum(p->ref, &k); /* RoCEv2: open delivers UDP checksum 0 */
        ibsec_pkt_put_crcs(p->ref, &k);
        p->ref_len = k.end;
    }
}

/* Coverage of a delivered packet: mode, shape, key size, pad count (BTH byte 1 bits 5:4
 * of the plain side: the input on seal, the output on open). */
static void note_cover(struct port *P, const struct pkt *p, const ibsec_verdict *v, const uint8_t *out)
{
    unsigned ks = 0;
    if (v->mode != IBSEC_MODE_NONE && v->ctx >= 0)
        ks = P->model.keys[P->model.ctx[v->ctx].cfg.key].key_len == 32 ? 2 : 1;
    const uint8_t *plain = P->inst == DUT_SEAL ? p->bytes : out;
    size_t bth = 0;
    if (ibsec_pkt_find_bth(plain, p->len, (enum ibsec_link)p->link, &bth) != IBSEC_PKT_OK)
        return;
    P->cover[v->mode][p->shape % IBSEC_SHAPE_COUNT][ks][(plain[bth + 1] >> 4) & 3u]++;
}

/* A RoCEv2 frame of the 802.3 minimum length whose IP packet ends before the frame's end
 * (Ethernet padding, which the engine must leave out of its checks and its output). */
static bool eth_padded(const struct pkt *p)
{
    struct ibsec_pkt k;
    return p->link == (int)IBSEC_LINK_ROCE && p->len == IBSEC_ETH_MIN_FRAME &&
           ibsec_frame_parse(p->bytes, p->len, IBSEC_LINK_ROCE, 0, &k) == IBSEC_PKT_OK &&
           k.end < p->len;
}

/* Combinations hit: every secured mode x shape x key size x pad count, and mode none x
 * shape x pad count. */
static unsigned cover_hits(const struct port *P, unsigned *total)
{
    unsigned hit = 0;
    *total = 0;
    for (int m = 0; m < IBSEC_MODE_COUNT; m++)
        for (int h = 0; h < IBSEC_SHAPE_COUNT; h++)
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 4; c++) {
                    if ((m == IBSEC_MODE_NONE) != (k == 0))
                        continue;
                    (*total)++;
                    hit += P->cover[m][h][k][c] != 0;
                }
    return hit;
}

/* Run the model on the oldest decided packets, as far as every change's boundary is
 * known. */
static void evaluate(struct port *P)
{
    static uint8_t out[TB_MAX_FRAME];
    struct pkt *p;
    while ((p = P->decided.head) != NULL) {
        if (p == P->cur) /* still being sent (a status that came too early) */
            return;
        if (!apply_changes(P, p->index, false))
            return;
        fifo_pop(&P->decided);
        ibsec_verdict v;
        size_t n = 0;
        if (P->inst == DUT_SEAL)
            ibsec_seal(&P->model, (enum ibsec_link)p->link, p->bytes, p->len, out, sizeof out, &n, &v);
        else
            ibsec_open(&P->model, (enum ibsec_link)p->link, p->bytes, p->len, out, sizeof out, &n, &v);
        p->mode = v.mode;
        check_status(P, p, &v);
        P->by_reason[v.reason]++;
        P->by_kind[p->kind]++;
        P->by_mode[v.mode]++;
        if (eth_padded(p)) {
            P->eth_padded++;
            P->eth_padded_ok += v.reason == IBSEC_R_OK;
        }
        p->reason = v.reason;
        /* the RTL delivers what its status says it delivers: a packet the model drops but
           the RTL delivers (a status mismatch, already counted) is still taken off the
           output, so the following packets stay paired */
        if (p->st.reason != IBSEC_R_OK) {
            pkt_free(p);
            continue;
        }
        if (v.reason == IBSEC_R_OK) {
            P->by_kind_ok[p->kind]++;
            P->by_mode_ok[v.mode]++;
            note_cover(P, p, &v, out);
            p->out = xmalloc(n);
            memcpy(p->out, out, n);
            p->out_len = n;
            if (P->inst == DUT_SEAL)
                plain_reference(P, p);
        }
        fifo_push(&P->expect, p);
    }
    retire_changes(P);
}

/* The model peer opens what the RTL sealed: it must give back the plain packet. */
static void peer_open(struct port *P, const struct pkt *e, const uint8_t *got, size_t n)
{
    static uint8_t out[TB_MAX_FRAME];
    ibsec_verdict v;
    size_t len = 0;
    apply_changes(P, e->index, true);
    ibsec_open(&P->peer, (enum ibsec_link)e->link, got, n, out, sizeof out, &len, &v);
    if (v.reason != IBSEC_R_OK) {
        tb_fail(&B.res, "seal packet %lu: the model peer refuses the RTL's sealed packet: %s",
                e->index, ibsec_reason_name(v.reason));
        return;
    }
    char what[96];
    snprintf(what, sizeof what, "seal packet %lu opened by the model peer", e->index);
    if (len != e->ref_len)
        tb_fail(&B.res, "%s: %zu bytes, the plain packet %zu", what, len, e->ref_len);
    else
        check_bytes(what, e->ref, out, len);
}

/* Pair the RTL's outputs with the model's, in order. */
static void match_outputs(struct port *P)
{
    while (P->expect.head && P->got.head) {
        struct pkt *e = fifo_pop(&P->expect), *g = fifo_pop(&P->got);
        char what[96];
        snprintf(what, sizeof what, "%s packet %lu (%s, %s, %s) output", P->name, e->index,
                 tb_kind_name(e->kind), ibsec_mode_name((enum ibsec_mode)e->mode),
                 ibsec_shape_name((enum ibsec_shape)e->shape));
        unsigned long failed_before = B.res.failed;
        if (e->reason != IBSEC_R_OK) {
            /* delivered against the model's verdict: counted by check_status */
        } else if (g->len != e->out_len || g->link != e->link) {
            tb_fail(&B.res, "%s: %zu bytes on link %d, model %zu bytes on link %d", what, g->len,
                    g->link, e->out_len, e->link);
        } else if (check_bytes(what, e->out, g->bytes, g->len)) {
            if (P->inst == DUT_SEAL)
                peer_open(P, e, g->bytes, g->len);
        }
        if (B.res.failed != failed_before && e->reason == IBSEC_R_OK)
            note_bad(P, e);
        P->delivered++;
        pkt_free(e);
        pkt_free(g);
    }
}

static void bench_note_in(const struct port *P, const struct pkt *p);
static void bench_note_out(const struct port *P, const struct pkt *g);

/* ---- RTL side: one clock ------------------------------------------------------------ */

static void drive_input(struct port *P)
{
    uint32_t data[MAX_WORDS], keep[KEEP_WORDS];
    memset(data, 0, sizeof data);
    memset(keep, 0, sizeof keep);
    if (!P->cur && !P->held && P->pending.head) {
        P->cur = fifo_pop(&P->pending);
        P->cur_off = 0;
    }
    int valid = P->cur != NULL && (P->valid_held || !tb_chance(&B.rng, P->idle_pct));
    int last = 0;
    if (valid) {
        size_t n = P->cur->len - P->cur_off;
        if (n > B.bpb)
            n = B.bpb;
        last = P->cur_off + n == P->cur->len;
        uint8_t beat[16 * 12];
        memset(beat, 0, sizeof beat);
        memcpy(beat, P->cur->bytes + P->cur_off, n);
        tb_pack_axis(data, 4 * B.lanes, beat, B.bpb);
        for (size_t j = 0; j < n; j++)
            keep[j / 32] |= 1u << (j % 32);
    }
    P->valid_held = valid;
    dut_set_in(P->inst, valid, data, keep, last, valid ? P->cur->link : 0);
}

static void sample_input(struct port *P, unsigned long cycle)
{
    if (!P->valid_held || !dut_in_ready(P->inst))
        return;
    struct pkt *p = P->cur;
    size_t n = p->len - P->cur_off;
    if (n > B.bpb)
        n = B.bpb;
    if (P->cur_off == 0) {
        p->t_first_in = cycle;
        fifo_push(&P->inflight, p);
        P->frames_in++;
    }
    P->cur_off += n;
    P->beats_in++;
    P->bytes_in += n;
    P->valid_held = 0;
    P->last_activity = cycle;
    if (P->cur_off == p->len) {
        p->t_last_in = cycle;
        P->cur = NULL;
        bench_note_in(P, p);
    }
}

static void sample_output(struct port *P, unsigned long cycle)
{
    uint32_t data[MAX_WORDS], keep[KEEP_WORDS];
    int last = 0, user = 0;
    if (!P->out_ready || !dut_out(P->inst, data, keep, &last, &user))
        return;
    P->last_activity = cycle;
    uint8_t beat[16 * 12];
    tb_unpack_axis(beat, B.bpb, data);
    /* tkeep: a prefix mask, all ones but on the last beat */
    unsigned nk = 0;
    while (nk < B.bpb && (keep[nk / 32] >> (nk % 32) & 1u))
        nk++;
    for (unsigned j = nk; j < B.bpb; j++)
        if (keep[j / 32] >> (j % 32) & 1u) {
            tb_fail(&B.res, "%s output: tkeep is not a prefix mask", P->name);
            break;
        }
    if (!last && nk != B.bpb)
        tb_fail(&B.res, "%s output: a beat before tlast has tkeep of %u bytes", P->name, nk);
    if (P->olen == 0) {
        P->t_first_out = cycle;
        P->ouser = user;
    } else if (user != P->ouser) {
        tb_fail(&B.res, "%s output: tuser changes inside a packet", P->name);
    }
    if (P->olen + nk > sizeof P->obuf - B.bpb) {
        tb_fail(&B.res, "%s output: a packet longer than %zu bytes", P->name, sizeof P->obuf);
        P->olen = 0;
        return;
    }
    memcpy(P->obuf + P->olen, beat, nk);
    P->olen += nk;
    if (!last)
        return;
    struct tb_gen_frame tmp;
    tmp.kind = TB_K_NORMAL;
    tmp.link = P->ouser;
    tmp.mode = 0;
    tmp.len = P->olen;
    memcpy(tmp.bytes, P->obuf, P->olen);
    struct pkt *g = pkt_new(&tmp);
    g->t_first_out = P->t_first_out;
    g->t_last_out = cycle;
    bench_note_out(P, g);
    fifo_push(&P->got, g);
    P->olen = 0;
}

static void sample_status(struct port *P, unsigned long cycle)
{
    struct dut_status s;
    if (!dut_status(P->inst, &s))
        return;
    P->last_activity = cycle;
    struct pkt *p = fifo_pop(&P->inflight);
    if (!p) {
        tb_fail(&B.res, "%s: a status entry (reason %s) for no packet in the engine", P->name,
                ibsec_reason_name((enum ibsec_reason)s.reason));
        return;
    }
    if (p == P->cur)
        tb_fail(&B.res, "%s packet %lu: status before its last beat was taken", P->name, P->n_status);
    p->index = P->n_status++;
    p->st = s;
    fifo_push(&P->decided, p);
}

static const uint32_t zero_words[MAX_WORDS];

static void bench_cycle(void)
{
    for (int i = 0; i < DUT_COUNT; i++) {
        struct port *P = &B.port[i];
        if (P->in_reset) {
            /* the instance sees only its reset: inputs idle, no register request */
            dut_set_in(i, 0, zero_words, zero_words, 0, 0);
            dut_set_out_ready(i, 0);
            dut_set_reg(i, 0, 0, 0, 0);
            continue;
        }
        drive_input(P);
        P->out_ready = !tb_chance(&B.rng, P->bp_pct);
        dut_set_out_ready(i, P->out_ready);
        tb_regs_drive(&P->regs);
    }
    dut_eval();
    for (int i = 0; i < DUT_COUNT; i++) {
        struct port *P = &B.port[i];
        if (P->in_reset)
            continue;
        if (dut_ring_bad(i) && !P->ring_bad) {
            P->ring_bad = true;
            tb_fail(&B.res, "%s: a ring beat freed before it was written, cycle %lu",
                    P->name, B.cycle);
        }
        sample_input(P, B.cycle);
        sample_output(P, B.cycle);
        sample_status(P, B.cycle);
        tb_regs_sample(&P->regs);
        /* a command whose write was acknowledged in this cycle: every packet started
           later is decided after it */
        for (unsigned k = 0; k < P->n_changes; k++) {
            struct change *c = &P->changes[k];
            if (c->res.started && !c->hi_set) {
                c->hi = P->n_status + P->inflight.n;
                c->hi_set = true;
            }
        }
    }
    dut_tick();
    B.cycle++;
    for (int i = 0; i < DUT_COUNT; i++) {
        evaluate(&B.port[i]);
        match_outputs(&B.port[i]);
    }
}

/* Clock until both register agents are idle (configuration, read-back). */
static int run_regs(unsigned long limit)
{
    unsigned long start = B.cycle;
    while (!tb_regs_idle(&B.port[0].regs) || !tb_regs_idle(&B.port[1].regs)) {
        bench_cycle();
        if (B.cycle - start > limit) {
            tb_fail(&B.res, "register bus: no acknowledge within %lu cycles", limit);
            return -1;
        }
    }
    return 0;
}

static bool port_busy(const struct port *P)
{
    return P->cur || P->pending.head || P->inflight.head || P->decided.head || P->expect.head ||
           P->got.head || P->olen || !tb_regs_idle(&P->regs);
}

/* ---- configuration, resets, key changes ----------------------------------------------- */

static struct tb_cmd_result cfg_res[DUT_COUNT];

/* Write the port's configuration into its instance (the peer's view for open) and check
 * that the register block accepted every command. */
static void port_configure(struct port *P)
{
    if (P->inst == DUT_SEAL) {
        tb_regs_load_engine(&P->regs, &P->cfg.a, &cfg_res[P->inst]);
    } else {
        ibsec_engine b;
        if (tb_config_load(&P->cfg, &b, true) != 0) {
            fprintf(stderr, "tb_engine: cannot build the peer configuration\n");
            exit(1);
        }
        tb_regs_load_engine(&P->regs, &b, &cfg_res[P->inst]);
        ibsec_engine_free(&b);
    }
    P->held = true;
}

static void port_configured(struct port *P)
{
    if (!P->held || !tb_regs_idle(&P->regs))
        return;
    P->held = false;
    tb_check_u64(&B.res, "STATUS after the configuration (ERR must be 0)", 0,
                 cfg_res[P->inst].status & (IBSEC_STATUS_ERR_MASK | IBSEC_STATUS_ERR_CODE_MASK));
}

/* Every key change of the port has its boundary (none is still in progress). */
static bool changes_settled(const struct port *P)
{
    for (unsigned i = 0; i < P->n_changes; i++)
        if (!P->changes[i].res.done)
            return false;
    return true;
}

/* Reset one instance in the middle of a packet; everything in flight is lost. */
static void port_reset(struct port *P)
{
    note("%s: reset at cycle %lu, in the middle of a packet (byte %zu of %zu)\n", P->name, B.cycle,
         P->cur_off, P->cur ? P->cur->len : 0);
    /* the packet being sent is cut short; it is in the inflight queue already */
    P->cur = NULL;
    P->valid_held = 0;
    P->held = true;
    P->in_reset = true;
    dut_set_rst(0, P->inst == DUT_SEAL, P->inst == DUT_OPEN);
    for (unsigned i = 0; i < RESET_CYCLES; i++)
        bench_cycle(); /* the other instance runs on */
    dut_set_rst(0, 0, 0);
    P->in_reset = false;
    /* whatever the model could check was checked before the reset; drop the rest */
    fifo_drain(&P->inflight, &P->lost);
    fifo_drain(&P->decided, &P->lost);
    fifo_drain(&P->expect, &P->lost);
    fifo_drain(&P->got, NULL);
    P->olen = 0;
    P->n_status = 0;
    P->n_changes = 0;
    tb_regs_clear(&P->regs);
    if (port_load_models(P) != 0) {
        fprintf(stderr, "tb_engine: cannot rebuild the models after a reset\n");
        exit(1);
    }
    port_configure(P);
}

/* A new entry of P's list of changes made while traffic runs, of kind `kind`, starting
 * at the next status entry; NULL when the list is full (the change is then not made). */
static struct change *port_new_change(struct port *P, enum change_kind kind)
{
    if (P->n_changes >= MAX_CHANGES)
        return NULL;
    struct change *c = &P->changes[P->n_changes++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->lo = P->n_status;
    return c;
}

/* Replace, clear or zeroize a key on one instance while traffic runs. */
static void port_key_change(struct port *P, struct tb_gen *gen)
{
    struct change *c = port_new_change(P, CH_KEY);
    if (!c)
        return;
    c->slot = tb_rand_range(&B.rng, 0, TB_KEY_SLOTS - 1);
    c->install = !tb_chance(&B.rng, 12);
    /* a cleared slot is installed again by the next change (no_key for a while) */
    for (unsigned k = 0; k < TB_KEY_SLOTS; k++)
        if (!P->cfg.a.keys[k].valid) {
            c->slot = k;
            c->install = true;
        }
    c->key_len = tb_chance(&B.rng, 50) ? 32 : 16;
    tb_rand_bytes(&B.rng, c->key, c->key_len);
    tb_rand_bytes(&B.rng, c->salt, sizeof c->salt);
    /* one install in eight writes KEY_CMD alone: the block cleared KEY_DATA and KEY_SALT
       when the previous install (the configuration's at least) completed, so the slot
       gets the all-zero key and salt; a block that kept them would install the last
       key again, and the packets would show it */
    bool staged = c->install && tb_chance(&B.rng, 12);
    /* half the removals zeroize the slot (packets: no_key, as a clear), half of those
       after writing a stale key into the staging, which the zeroize must clear: the
       slot's next install is staged (KEY_CMD alone) and must install the zero key */
    c->zeroize = !c->install && tb_chance(&B.rng, 50);
    bool stale = c->zeroize && tb_chance(&B.rng, 50);
    if (stale) {
        uint8_t junk[36];
        tb_rand_bytes(&B.rng, junk, sizeof junk);
        tb_regs_key_zeroize(&P->regs, c->slot, junk, &c->res);
        P->zero_staged_next = true;
    } else if (c->zeroize) {
        tb_regs_key_zeroize(&P->regs, c->slot, NULL, &c->res);
    } else if (staged || (c->install && P->zero_staged_next)) {
        staged = true;
        P->zero_staged_next = false;
        memset(c->key, 0, sizeof c->key);
        memset(c->salt, 0, sizeof c->salt);
        tb_regs_key_install_staged(&P->regs, c->slot, c->key_len, &c->res);
    } else if (c->install) {
        tb_regs_key_install(&P->regs, c->slot, c->key, c->key_len, c->salt, &c->res);
    } else {
        tb_regs_key_clear(&P->regs, c->slot, &c->res);
    }
    cfg_apply_change(&P->cfg, c);
    if (P->inst == DUT_OPEN) /* endpoint A seals the open instance's traffic with it */
        tb_gen_set_key(gen, c->slot, c->key, c->install ? c->key_len : 0, c->salt);
    note("%s: key slot %u %s (AES-%zu) at cycle %lu\n", P->name, c->slot,
         staged ? "replaced from the cleared staging (zero key)" : c->install ? "replaced"
         : c->zeroize ? "zeroized" : "cleared",
         8 * c->key_len, B.cycle);
}

/* Write a new CONFIG (ALLOW_PLAIN, MASK_MF: the fields the engine samples per packet, at
 * its decision) into one instance while traffic runs; at least one field changes, MASK_MF
 * three times in four. */
static void port_config_change(struct port *P, struct tb_gen *gen)
{
    struct change *c = port_new_change(P, CH_CONFIG);
    if (!c)
        return;
    bool ap = P->cfg.a.allow_plain, mf = P->cfg.a.mask_mf;
    unsigned r = tb_rand_range(&B.rng, 0, 3);
    c->allow_plain = r != 0 ? ap ^ (r == 2) : !ap;   /* r: 0 AP only, 1 MF only, 2 both, 3 MF */
    c->mask_mf = r != 0 ? !mf : mf;
    c->flip_ap = c->allow_plain != ap;
    c->flip_mf = c->mask_mf != mf;
    tb_regs_config(&P->regs, c->allow_plain, c->mask_mf, tb_regs_mgmt_bits(&P->cfg.a), &c->res);
    cfg_apply_change(&P->cfg, c);
    if (P->inst == DUT_OPEN) {
        /* endpoint A (the sender of the open instance's traffic) follows: the frames it
           has sealed already, still queued, keep the old marking-field mask */
        gen->tx.allow_plain = c->allow_plain;
        gen->tx.mask_mf = c->mask_mf;
    }
    note("%s: CONFIG allow_plain %d mask_mf %d at cycle %lu\n", P->name, c->allow_plain, c->mask_mf,
         B.cycle);
}

/* ---- end of run: counters and context state ------------------------------------------- */

static uint32_t counters[DUT_COUNT][IBSEC_R_COUNT][2];
static uint32_t ctx_rd[DUT_COUNT][TB_CTX_SLOTS][TB_CTX_RD_WORDS];

static void check_tables(void)
{
    int done[DUT_COUNT];
    for (int i = 0; i < DUT_COUNT; i++) {
        struct port *P = &B.port[i];
        tb_regs_counters(&P->regs, counters[i], &done[i]);
        for (unsigned c = 0; c < TB_CTX_SLOTS; c++)
            tb_regs_ctx_read(&P->regs, c, ctx_rd[i][c], NULL);
    }
    if (run_regs(1000000) != 0)
        return;
    for (int i = 0; i < DUT_COUNT; i++) {
        struct port *P = &B.port[i];
        char what[96];
        for (unsigned r = 0; r < IBSEC_R_NOSPACE; r++) {
            uint64_t got = (uint64_t)counters[i][r][1] << 32 | counters[i][r][0];
            snprintf(what, sizeof what, "%s counter %s", P->name, ibsec_reason_name((enum ibsec_reason)r));
            tb_check_u64(&B.res, what, P->model.count[P->op][r], got);
        }
        for (unsigned c = 0; c < TB_CTX_SLOTS; c++) {
            const ibsec_ctx *m = &P->model.ctx[c];
            const uint32_t *w = ctx_rd[i][c];
            snprintf(what, sizeof what, "%s context %u valid", P->name, c);
            tb_check_u64(&B.res, what, m->valid, w[0] >> 31);
            if (!m->valid)
                continue;
            /* CTX_RD_* words (docs/registers.md §3): 2,3 tx_next; 4,5 rx_next; 6,7 bitmap;
               8 fail; 9 alert; 10 alert count */
            snprintf(what, sizeof what, "%s context %u tx_next", P->name, c);
            tb_check_u64(&B.res, what, m->tx_next, (uint64_t)w[3] << 32 | w[2]);
            snprintf(what, sizeof what, "%s context %u rx_next", P->name, c);
            tb_check_u64(&B.res, what, m->rx_next, (uint64_t)w[5] << 32 | w[4]);
            snprintf(what, sizeof what, "%s context %u replay bitmap", P->name, c);
            tb_check_u64(&B.res, what, m->rx_bitmap, (uint64_t)w[7] << 32 | w[6]);
            snprintf(what, sizeof what, "%s context %u failures", P->name, c);
            tb_check_u64(&B.res, what, m->fail_consec, w[8]);
            snprintf(what, sizeof what, "%s context %u alert flag", P->name, c);
            tb_check_u64(&B.res, what, m->alert, w[9] & 1u);
            snprintf(what, sizeof what, "%s context %u alert count", P->name, c);
            tb_check_u64(&B.res, what, m->alert_count, w[10]);
        }
    }
}

/* ---- the random run ---------------------------------------------------------------- */

struct run_opts {
    uint64_t      seed;
    unsigned long per_mode;
    bool          full_lengths;
    bool          resets;
    bool          huge;           /* huge RoCEv2 frames among the over-long ones */
    unsigned long config_every;   /* CONFIG written every 1 .. 2N-1 plain packets (0: never) */
};

/* Queue the traffic that one plain packet brings: the plain packet and its bad copies for
 * the seal instance; the sealed packet and its damaged copies for the open instance. */
static void generate(struct tb_gen *gen, int mode)
{
    static struct tb_gen_frame plain, wire, bad;
    struct port *S = &B.port[DUT_SEAL], *O = &B.port[DUT_OPEN];
    tb_gen_plain(gen, mode, &plain, &wire);
    /* seal instance */
    if (tb_chance(&B.rng, 6)) {
        static const enum tb_kind seal_bad[] = { TB_K_REUSE, TB_K_TRUNCATED, TB_K_EXTENDED,
                                                 TB_K_OVERLONG, TB_K_BAD_OPCODE, TB_K_BAD_SECBITS,
                                                 TB_K_BAD_LENGTH };
        enum tb_kind k = seal_bad[tb_rand_range(&B.rng, 0, sizeof seal_bad / sizeof seal_bad[0] - 1)];
        tb_gen_bad_plain(gen, k, &plain, &bad);
        fifo_push(&S->pending, pkt_new(&bad));
    }
    fifo_push(&S->pending, pkt_new(&plain));
    /* open instance */
    if (wire.len == 0) {
        fifo_push(&O->pending, pkt_new(&plain)); /* A refused it: B sees the plain packet */
        return;
    }
    bool secured = mode != IBSEC_MODE_NONE;
    /* a bit flip and a bad ICRC in every mode: mode none has only its CRCs */
    if (tb_chance(&B.rng, 6)) {
        tb_gen_bad_wire(gen, TB_K_TAMPER, &wire, &plain, &bad);
        fifo_push(&O->pending, pkt_new(&bad));
    }
    if (tb_chance(&B.rng, 4)) {
        tb_gen_bad_wire(gen, TB_K_BAD_ICRC, &wire, &plain, &bad);
        fifo_push(&O->pending, pkt_new(&bad));
    }
    if (secured && tb_chance(&B.rng, 6)) {
        tb_gen_bad_wire(gen, TB_K_FORGE, &wire, &plain, &bad);
        fifo_push(&O->pending, pkt_new(&bad));
    }
    if (secured && tb_chance(&B.rng, 2)) {
        /* a burst of bad MACs: enough to raise the context's alert */
        unsigned n = tb_rand_range(&B.rng, 1, IBSEC_ALERT_DEFAULT + 1);
        for (unsigned i = 0; i < n; i++) {
            tb_gen_bad_wire(gen, TB_K_BADTAG, &wire, &plain, &bad);
            fifo_push(&O->pending, pkt_new(&bad));
        }
    }
    if (secured && tb_chance(&B.rng, 1)) {
        tb_gen_bad_wire(gen, TB_K_DOWNGRADE, &wire, &plain, &bad);
        fifo_push(&O->pending, pkt_new(&bad));
    }
    if (tb_chance(&B.rng, 6)) {
        static const enum tb_kind open_bad[] = { TB_K_TRUNCATED, TB_K_EXTENDED, TB_K_OVERLONG,
                                                 TB_K_BAD_OPCODE, TB_K_BAD_SECBITS, TB_K_BAD_LENGTH };
        enum tb_kind k = open_bad[tb_rand_range(&B.rng, 0, sizeof open_bad / sizeof open_bad[0] - 1)];
        tb_gen_bad_wire(gen, k, &wire, &plain, &bad);
        fifo_push(&O->pending, pkt_new(&bad));
    }
    fifo_push(&O->pending, pkt_new(&wire));
    if (tb_chance(&B.rng, 4)) {
        tb_gen_bad_wire(gen, TB_K_REPLAY, &wire, &plain, &bad);
        fifo_push(&O->pending, pkt_new(&bad));
    }
}

static void new_phase(struct port *P)
{
    static const unsigned pcts[] = { 0, 0, 0, 5, 10, 25, 50 };
    P->idle_pct = pcts[tb_rand_range(&B.rng, 0, 6)];
    P->bp_pct = pcts[tb_rand_range(&B.rng, 0, 6)];
}

static void print_tallies(void)
{
    for (int i = 0; i < DUT_COUNT; i++) {
        struct port *P = &B.port[i];
        printf("%s: %lu frames in (%lu bytes on average), %lu delivered, %lu lost to resets\n", P->name,
               P->frames_in, P->frames_in ? P->bytes_in / P->frames_in : 0, P->delivered, P->lost);
        printf("  %-10s %9s %9s\n", "mode", "packets", "ok");
        for (int m = 0; m < IBSEC_MODE_COUNT; m++)
            printf("  %-10s %9lu %9lu\n", ibsec_mode_name((enum ibsec_mode)m), P->by_mode[m], P->by_mode_ok[m]);
        printf("  %-12s %9s %9s\n", "kind", "packets", "ok");
        for (int k = 0; k < TB_K_COUNT; k++)
            if (P->by_kind[k])
                printf("  %-12s %9lu %9lu\n", tb_kind_name((enum tb_kind)k), P->by_kind[k], P->by_kind_ok[k]);
        unsigned total, hit = cover_hits(P, &total);
        printf("  coverage: %u of %u (mode, shape, AES key size, pad count) combinations delivered\n", hit, total);
        printf("  Ethernet-padded RoCEv2 frames: %lu in, %lu delivered\n", P->eth_padded, P->eth_padded_ok);
        printf("  packets with a failed check, by mode and shape:");
        bool any = false;
        for (int m = 0; m < IBSEC_MODE_COUNT; m++)
            for (int h = 0; h < IBSEC_SHAPE_COUNT; h++)
                if (P->bad_by_mode[m][h]) {
                    printf(" %s/%s %lu", ibsec_mode_name((enum ibsec_mode)m),
                           ibsec_shape_name((enum ibsec_shape)h), P->bad_by_mode[m][h]);
                    any = true;
                }
        printf("%s\n", any ? "" : " none");
        printf("  reasons:");
        for (int r = 0; r < IBSEC_R_COUNT; r++)
            if (P->by_reason[r])
                printf(" %s %lu", ibsec_reason_name((enum ibsec_reason)r), P->by_reason[r]);
        printf("\n");
    }
}

static int random_run(const struct run_opts *o)
{
    struct tb_gen gen;
    ibsec_rng cfg_rng;
    ibsec_rng_seed(&cfg_rng, o->seed);
    struct tb_config cfg;
    if (tb_config_make(&cfg, &cfg_rng, (int)B.lanes, true) != 0)
        return 1;
    /* Marking-field mask (native GRH): on for odd seeds, off for even ones. */
    cfg.a.mask_mf = (o->seed & 1u) != 0;
    if (tb_gen_init(&gen, o->seed ^ 0x5eed, &cfg, (int)B.lanes, o->full_lengths) != 0)
        return 1;
    gen.huge = o->huge;
    for (int i = 0; i < DUT_COUNT; i++) {
        struct port *P = &B.port[i];
        if (tb_config_load(&cfg, &P->cfg.a, false) != 0 || port_load_models(P) != 0)
            return 1;
        new_phase(P);
    }
    printf("engine-L%u: seed %llu, %lu plain packets per mode, allow_plain %d, mask_mf %d, "
           "DestQP 0 / 1 / 0xffffff %s / %s / %s\n", B.lanes, (unsigned long long)o->seed,
           o->per_mode, cfg.a.allow_plain, cfg.a.mask_mf,
           ibsec_mgmt_policy_name(cfg.a.mgmt[IBSEC_MGMT_QP0]),
           ibsec_mgmt_policy_name(cfg.a.mgmt[IBSEC_MGMT_QP1]),
           ibsec_mgmt_policy_name(cfg.a.mgmt[IBSEC_MGMT_MCAST]));
    printf("  %s\n", tb_gen_length_mix(&gen));
    /* reset both, configure both */
    dut_set_rst(1, 0, 0);
    for (int i = 0; i < 4; i++)
        bench_cycle();
    dut_set_rst(0, 0, 0);
    for (int i = 0; i < DUT_COUNT; i++)
        port_configure(&B.port[i]);
    /* identification registers */
    uint32_t id[DUT_COUNT], ver[DUT_COUNT];
    for (int i = 0; i < DUT_COUNT; i++) {
        tb_regs_read(&B.port[i].regs, IBSEC_REG_ID, &id[i], NULL);
        tb_regs_read(&B.port[i].regs, IBSEC_REG_VERSION, &ver[i], NULL);
    }
    if (run_regs(1000000) != 0)
        return tb_summary(&B.res);
    for (int i = 0; i < DUT_COUNT; i++) {
        port_configured(&B.port[i]);
        tb_check_u64(&B.res, "ID register", IBSEC_ID_VALUE_RESET, id[i]);
        tb_check_u64(&B.res, "VERSION.OPEN", (uint64_t)i, IBSEC_GET(ver[i], IBSEC_VERSION_OPEN));
    }

    unsigned long total = o->per_mode * IBSEC_MODE_COUNT, generated = 0;
    unsigned long next_key = 300, next_reset = o->resets ? 2000 : (unsigned long)-1;
    unsigned long next_config = o->config_every ? o->config_every : (unsigned long)-1;
    int reset_armed = -1;
    unsigned long since_phase[DUT_COUNT] = { 0, 0 };
    time_t t0 = time(NULL);
    char pname[32];
    ibsec_progress prog;   /* packets handed to the instances, a line every few seconds */
    snprintf(pname, sizeof pname, "engine-L%u", B.lanes);
    ibsec_progress_start(&prog, pname, "packets", total);
    for (;;) {
        ibsec_progress_update(&prog, generated);
        struct port *S = &B.port[DUT_SEAL], *O = &B.port[DUT_OPEN];
        /* both instances are kept a few frames ahead, no more: the open instance's frames
           are sealed when generated, so a long queue would carry old keys past a change */
        while (generated < total && S->pending.n < TOPUP && O->pending.n < TOPUP) {
            generate(&gen, (int)(generated % IBSEC_MODE_COUNT));
            generated++;
            for (int i = 0; i < DUT_COUNT; i++)
                if (++since_phase[i] >= PHASE_PKTS) {
                    since_phase[i] = 0;
                    new_phase(&B.port[i]);
                }
            if (generated == next_key) {
                next_key += tb_rand_range(&B.rng, 150, 600);
                struct port *P = &B.port[tb_rand_range(&B.rng, 0, 1)];
                if (tb_regs_idle(&P->regs) && !P->held)
                    port_key_change(P, &gen);
            }
            if (generated == next_config) {
                next_config += tb_rand_range(&B.rng, 1, 2 * o->config_every - 1);
                struct port *P = &B.port[tb_rand_range(&B.rng, 0, 1)];
                if (tb_regs_idle(&P->regs) && !P->held)
                    port_config_change(P, &gen);
            }
            if (generated == next_reset) {
                next_reset += tb_rand_range(&B.rng, 1000, 5000);
                reset_armed = (int)tb_rand_range(&B.rng, 0, 1);
            }
        }
        /* a reset waits for a packet half-way in and no command in progress */
        if (reset_armed >= 0) {
            struct port *P = &B.port[reset_armed];
            if (P->cur && P->cur_off > 0 && tb_regs_idle(&P->regs) && !P->held && changes_settled(P)) {
                port_reset(P);
                reset_armed = -1;
            }
        }
        bench_cycle();
        for (int i = 0; i < DUT_COUNT; i++)
            port_configured(&B.port[i]);
        if (generated >= total && !port_busy(S) && !port_busy(O))
            break;
        unsigned long quiet = B.cycle - (S->last_activity > O->last_activity ? S->last_activity : O->last_activity);
        if (quiet > STALL_CYCLES) {
            tb_fail(&B.res, "stall: nothing moved for %lu cycles (seal: %lu pending, %lu in the engine, "
                            "%lu outputs awaited; open: %lu pending, %lu in the engine, %lu outputs awaited)",
                    quiet, S->pending.n, S->inflight.n, S->expect.n, O->pending.n, O->inflight.n, O->expect.n);
            break;
        }
    }
    ibsec_progress_end(&prog, generated);
    if (B.res.failed == 0)
        check_tables();
    /* with enough packets every combination must have been delivered by both instances */
    for (int i = 0; i < DUT_COUNT && o->per_mode >= COVER_MIN_PER_MODE; i++) {
        unsigned combos, hit = cover_hits(&B.port[i], &combos);
        char what[80];
        snprintf(what, sizeof what, "%s: (mode, shape, key size, pad count) combinations delivered", B.port[i].name);
        tb_check_u64(&B.res, what, combos, hit);
    }
    print_tallies();
    for (int i = 0; i < DUT_COUNT && o->config_every; i++) {
        const struct port *P = &B.port[i];
        printf("%s: %lu CONFIG writes during traffic (ALLOW_PLAIN changed %lu times, MASK_MF %lu), "
               "%lu packets in the engine across a write\n", P->name, P->config_writes, P->config_flips[0],
               P->config_flips[1], P->across_writes);
    }
    printf("engine-L%u: %lu cycles, %.0f s\n", B.lanes, B.cycle, difftime(time(NULL), t0));
    tb_gen_free(&gen);
    tb_config_free(&cfg);
    return tb_summary(&B.res);
}

/* ---- benchmark ------------------------------------------------------------------------ */

#define BENCH_SIZES   4
#define BENCH_MAX_PKT 64u     /* packets of a throughput run: enough beats for a steady */
#define BENCH_MIN_PKT 12u     /* state, at most 64 packets (the wide builds are slow)    */
#define BENCH_BEATS   1200u
static const size_t bench_payloads[BENCH_SIZES] = { 64, 256, 1024, 4096 };
#define BENCH_OPCODE  0x04u   /* RC SEND Only (IBA Vol. 1 §9.2) */

/* Transfer times of the packets of one measurement, per instance, in input order. */
static struct {
    bool          on;
    unsigned      n_in, n_out;
    unsigned long first_in[BENCH_MAX_PKT], last_in[BENCH_MAX_PKT];
    unsigned long first_out[BENCH_MAX_PKT], last_out[BENCH_MAX_PKT];
    unsigned long beats[BENCH_MAX_PKT], out_beats[BENCH_MAX_PKT];
    size_t        bytes[BENCH_MAX_PKT], out_bytes[BENCH_MAX_PKT];
} BL[DUT_COUNT];

static void bench_note_in(const struct port *P, const struct pkt *p)
{
    if (!BL[P->inst].on || BL[P->inst].n_in >= BENCH_MAX_PKT)
        return;
    unsigned i = BL[P->inst].n_in++;
    BL[P->inst].first_in[i] = p->t_first_in;
    BL[P->inst].last_in[i] = p->t_last_in;
    BL[P->inst].bytes[i] = p->len;
    BL[P->inst].beats[i] = (p->len + B.bpb - 1) / B.bpb;
}

static void bench_note_out(const struct port *P, const struct pkt *g)
{
    if (!BL[P->inst].on || BL[P->inst].n_out >= BENCH_MAX_PKT)
        return;
    unsigned i = BL[P->inst].n_out++;
    BL[P->inst].first_out[i] = g->t_first_out;
    BL[P->inst].last_out[i] = g->t_last_out;
    BL[P->inst].out_bytes[i] = g->len;
    BL[P->inst].out_beats[i] = (g->len + B.bpb - 1) / B.bpb;
}

/* One measured figure set (per instance, mode and payload). */
struct bench_fig {
    size_t   frame;                 /* input frame bytes */
    size_t   link_frame;            /* link-side frame bytes (seal: output, open: input) */
    long     lat_ff, lat_ll, lat_lifo; /* cycles; -1 if not measured */
    double   bytes_per_clock, pct, beats_per_clock;  /* input side */
    double   link_occ_pct, link_bytes_per_clock, link_pct, cap_pct;  /* link side */
    unsigned packets;
};

/* Steady-state figures of one port over packets 1 .. n-2: from the first beat of packet 1
   to the first beat of packet n-1 (transfer clocks, beats and bytes of the port). */
static void bench_steady(const unsigned long *first, const unsigned long *beats, const size_t *bytes,
                         unsigned n, double *bpc, double *pct, double *beats_pc)
{
    unsigned long cycles = first[n - 1] - first[1];
    double nb = 0, ny = 0;
    for (unsigned k = 1; k + 1 < n; k++) {
        ny += (double)bytes[k];
        nb += (double)beats[k];
    }
    *bpc = *pct = *beats_pc = 0;
    if (cycles) {
        *bpc = ny / (double)cycles;
        *pct = 100.0 * *bpc / B.bpb;
        *beats_pc = nb / (double)cycles;
    }
}

/* Run the queued frames of both instances to the end. */
static void bench_drain(void)
{
    unsigned long start = B.cycle;
    while ((port_busy(&B.port[0]) || port_busy(&B.port[1])) && B.cycle - start < 20000000ul)
        bench_cycle();
}

/* Queue n packets of one mode and payload: plain ones to seal, sealed ones to open. */
static int bench_queue(struct tb_gen *gen, int mode, size_t payload, unsigned n, size_t frame[DUT_COUNT])
{
    static struct tb_gen_frame plain, wire;
    for (unsigned i = 0; i < n; i++) {
        if (tb_gen_fixed(gen, mode, IBSEC_SHAPE_IB_LOCAL, BENCH_OPCODE, payload, &plain, &wire) != 0 ||
            wire.len == 0)
            return -1;
        fifo_push(&B.port[DUT_SEAL].pending, pkt_new(&plain));
        fifo_push(&B.port[DUT_OPEN].pending, pkt_new(&wire));
        frame[DUT_SEAL] = plain.len;
        frame[DUT_OPEN] = wire.len;
    }
    return 0;
}

static void bench_measure(struct tb_gen *gen, int mode, size_t payload, struct bench_fig fig[DUT_COUNT])
{
    size_t frame[DUT_COUNT] = { 0, 0 };
    for (int i = 0; i < DUT_COUNT; i++) {
        memset(&fig[i], 0, sizeof fig[i]);
        fig[i].lat_ff = fig[i].lat_ll = fig[i].lat_lifo = -1;
        B.port[i].idle_pct = B.port[i].bp_pct = 0;
    }
    /* latency: one packet into an idle engine */
    memset(BL, 0, sizeof BL);
    BL[0].on = BL[1].on = true;
    if (bench_queue(gen, mode, payload, 1, frame) != 0)
        return;
    bench_drain();
    for (int i = 0; i < DUT_COUNT; i++) {
        fig[i].frame = frame[i];
        if (BL[i].n_in == 1 && BL[i].n_out == 1) {
            fig[i].lat_ff = (long)(BL[i].first_out[0] - BL[i].first_in[0]);
            fig[i].lat_ll = (long)(BL[i].last_out[0] - BL[i].last_in[0]);
            fig[i].lat_lifo = (long)(BL[i].first_out[0] - BL[i].last_in[0]);
            fig[i].link_frame = i == DUT_SEAL ? BL[i].out_bytes[0] : BL[i].bytes[0];
            size_t lb = (fig[i].link_frame + B.bpb - 1) / B.bpb;
            fig[i].cap_pct = lb ? 100.0 * (double)fig[i].link_frame / (double)(B.bpb * lb) : 0;
        }
    }
    /* throughput: back-to-back packets, steady state from the second packet's first beat
       to the last packet's first beat */
    unsigned beats = (unsigned)((frame[DUT_SEAL] + B.bpb - 1) / B.bpb);
    unsigned n = BENCH_BEATS / beats;
    n = n < BENCH_MIN_PKT ? BENCH_MIN_PKT : n > BENCH_MAX_PKT ? BENCH_MAX_PKT : n;
    memset(BL, 0, sizeof BL);
    BL[0].on = BL[1].on = true;
    if (bench_queue(gen, mode, payload, n, frame) != 0)
        return;
    bench_drain();
    for (int i = 0; i < DUT_COUNT; i++) {
        if (BL[i].n_in != n || BL[i].n_out != n)
            continue;
        fig[i].packets = n;
        bench_steady(BL[i].first_in, BL[i].beats, BL[i].bytes, n, &fig[i].bytes_per_clock, &fig[i].pct,
                     &fig[i].beats_per_clock);
        double occ;
        if (i == DUT_SEAL)
            bench_steady(BL[i].first_out, BL[i].out_beats, BL[i].out_bytes, n, &fig[i].link_bytes_per_clock,
                         &fig[i].link_pct, &occ);
        else
            bench_steady(BL[i].first_in, BL[i].beats, BL[i].bytes, n, &fig[i].link_bytes_per_clock,
                         &fig[i].link_pct, &occ);
        fig[i].link_occ_pct = 100.0 * occ;
    }
    BL[0].on = BL[1].on = false;
}

/* The --params text: space-separated NAME=VALUE words, NAME of capitals, digits and
 * underscores, VALUE a decimal number (the RTL parameters of the build, which make passes;
 * the report matches them with the routed engine's). Returns 0 if well formed. */
static int params_check(const char *s)
{
    bool in_name = true, any = false, word = false;
    for (; *s; s++) {
        char c = *s;
        if (c == ' ') {
            if (word && (in_name || !any))
                return -1;
            word = false, in_name = true, any = false;
        } else if (in_name) {
            if (c == '=' && word)
                in_name = false;
            else if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9' && word) || c == '_'))
                return -1;
            word = true;
        } else if (c >= '0' && c <= '9') {
            any = true;
        } else {
            return -1;
        }
    }
    return word && (in_name || !any) ? -1 : 0;
}

/* Writes the --params text as the JSON object "params": {"NAME": "VALUE", ...}. */
static void params_json(FILE *f, const char *s)
{
    fprintf(f, "  \"params\": {");
    bool first = true;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        const char *eq = strchr(s, '='), *end = strchr(s, ' ');
        if (!end)
            end = s + strlen(s);
        fprintf(f, "%s\"%.*s\": \"%.*s\"", first ? "" : ", ", (int)(eq - s), s, (int)(end - eq - 1), eq + 1);
        first = false;
        s = end;
    }
    fprintf(f, "},\n");
}

static int bench_run(unsigned lanes, double clock_mhz, const char *json, const char *params,
                     uint64_t seed, unsigned long only_payload)
{
    static struct bench_fig figs[IBSEC_MODE_COUNT][BENCH_SIZES][DUT_COUNT];
    struct tb_gen gen;
    struct tb_config cfg;
    ibsec_rng r;
    ibsec_rng_seed(&r, seed);
    if (tb_config_make(&cfg, &r, (int)lanes, false) != 0 ||
        tb_gen_init(&gen, seed ^ 0xbe9c4, &cfg, (int)lanes, false) != 0)
        return 1;
    for (int i = 0; i < DUT_COUNT; i++)
        if (tb_config_load(&cfg, &B.port[i].cfg.a, false) != 0 || port_load_models(&B.port[i]) != 0)
            return 1;
    dut_set_rst(1, 0, 0);
    for (int i = 0; i < 4; i++)
        bench_cycle();
    dut_set_rst(0, 0, 0);
    for (int i = 0; i < DUT_COUNT; i++)
        port_configure(&B.port[i]);
    if (run_regs(1000000) != 0)
        return tb_summary(&B.res);
    for (int i = 0; i < DUT_COUNT; i++)
        port_configured(&B.port[i]);
    bool want[BENCH_SIZES];
    for (int k = 0; k < BENCH_SIZES; k++)
        want[k] = only_payload == 0 || bench_payloads[k] == only_payload;
    unsigned n_meas = 0, done_meas = 0;
    for (int k = 0; k < BENCH_SIZES; k++)
        n_meas += want[k] ? IBSEC_MODE_COUNT : 0;
    char pname[32];
    ibsec_progress prog;   /* (mode, payload) measurements, a line every few seconds */
    snprintf(pname, sizeof pname, "engine-L%u bench", lanes);
    ibsec_progress_start(&prog, pname, "measurements", n_meas);
    for (int m = 0; m < IBSEC_MODE_COUNT; m++)
        for (int k = 0; k < BENCH_SIZES; k++)
            if (want[k]) {
                bench_measure(&gen, m, bench_payloads[k], figs[m][k]);
                ibsec_progress_update(&prog, ++done_meas);
            }
    ibsec_progress_end(&prog, done_meas);

    double ns = 1000.0 / clock_mhz;
    printf("engine-L%u bench (%u bytes per beat, clock %.1f MHz): RC SEND Only, native without GRH\n",
           lanes, B.bpb, clock_mhz);
    printf("  latency: one packet into an idle engine, no back-pressure, cycles: FF = first input beat ->\n"
           "  first output beat, LL = last input beat -> last output beat, LIFO = last input beat -> first\n"
           "  output beat (RFC 1242 store-and-forward latency: the delay the engine adds)\n"
           "  throughput: back-to-back packets, no idle, no back-pressure, steady state, on the link-side\n"
           "  port (seal m_axis, open s_axis): link frame bytes, beat occupancy (%% of clocks with a beat),\n"
           "  bytes per clock in %% of 16 x LANES = %u, and the framing cap bytes / (%u x beats)\n",
           B.bpb, B.bpb);
    printf("  %-9s %7s | %-34s | %-34s\n", "", "", "seal (link side: m_axis)", "open (link side: s_axis)");
    printf("  %-9s %7s |%s |%s\n", "mode", "payload", " frame FF/LL/LIFO  occ%  byte% cap%",
           " frame FF/LL/LIFO  occ%  byte% cap%");
    for (int m = 0; m < IBSEC_MODE_COUNT; m++)
        for (int k = 0; k < BENCH_SIZES; k++) {
            if (!want[k])
                continue;
            printf("  %-9s %7zu", ibsec_mode_name((enum ibsec_mode)m), bench_payloads[k]);
            for (int i = 0; i < DUT_COUNT; i++) {
                const struct bench_fig *f = &figs[m][k][i];
                char lat[32];
                snprintf(lat, sizeof lat, "%ld/%ld/%ld", f->lat_ff, f->lat_ll, f->lat_lifo);
                printf(" | %5zu %-11s %5.1f %5.1f %5.1f", f->link_frame, lat, f->link_occ_pct, f->link_pct,
                       f->cap_pct);
            }
            printf("\n");
        }
    printf("  (ns = cycles x %.3f at %.1f MHz)\n", ns, clock_mhz);
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "tb_engine: cannot write %s\n", json);
            return 1;
        }
        fprintf(f, "{\n  \"bench\": \"engine\",\n  \"lanes\": %u,\n  \"bytes_per_beat\": %u,\n"
                   "  \"clock_mhz\": %.3f,\n  \"shape\": \"native-noGRH\",\n  \"opcode\": \"RC_SEND_ONLY\",\n"
                   , lanes, B.bpb, clock_mhz);
        params_json(f, params);
        fprintf(f, "  \"results\": [\n");
        bool first = true;
        for (int m = 0; m < IBSEC_MODE_COUNT; m++)
            for (int k = 0; k < BENCH_SIZES; k++)
                for (int i = 0; i < DUT_COUNT && want[k]; i++) {
                    const struct bench_fig *g = &figs[m][k][i];
                    fprintf(f, "%s    {\"mode\": \"%s\", \"op\": \"%s\", \"payload\": %zu, \"frame_bytes\": %zu, "
                               "\"latency_ff_cycles\": %ld, \"latency_ll_cycles\": %ld, "
                               "\"latency_ff_ns\": %.2f, \"latency_ll_ns\": %.2f, "
                               "\"bytes_per_clock\": %.3f, \"throughput_pct\": %.2f, "
                               "\"beats_per_clock\": %.4f, \"packets\": %u, "
                               "\"latency_lifo_cycles\": %ld, \"latency_lifo_ns\": %.2f, "
                               "\"link_port\": \"%s\", \"link_frame_bytes\": %zu, "
                               "\"link_beat_occupancy_pct\": %.2f, \"link_bytes_per_clock\": %.3f, "
                               "\"link_throughput_pct\": %.2f, \"framing_cap_pct\": %.2f}",
                            first ? "" : ",\n", ibsec_mode_name((enum ibsec_mode)m),
                            i == DUT_SEAL ? "seal" : "open", bench_payloads[k], g->frame, g->lat_ff,
                            g->lat_ll, g->lat_ff * ns, g->lat_ll * ns, g->bytes_per_clock, g->pct,
                            g->beats_per_clock, g->packets, g->lat_lifo, g->lat_lifo * ns,
                            i == DUT_SEAL ? "m_axis" : "s_axis", g->link_frame, g->link_occ_pct,
                            g->link_bytes_per_clock, g->link_pct, g->cap_pct);
                    first = false;
                }
        fprintf(f, "\n  ],\n  \"checks_passed\": %lu,\n  \"checks_failed\": %lu\n}\n", B.res.passed,
                B.res.failed);
        fclose(f);
        printf("  figures written to %s\n", json);
    }
    tb_gen_free(&gen);
    tb_config_free(&cfg);
    if (B.res.failed)
        printf("engine-L%u bench: %lu checks failed while measuring (outputs differ from the model)\n",
               lanes, B.res.failed);
    return B.res.failed ? 1 : 0;
}

/* ---- main ------------------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr, "usage: Vtb [--seed N] [--packets N] [--full-lengths] [--no-reset] [--no-huge]\n"
                    "           [--config-every N] [--bench] [--bench-payload 64|256|1024|4096]\n"
                    "           [--clock MHZ] [--params \"NAME=VALUE ...\"] [--json FILE] [--quiet]\n");
}

static int parse_ulong(const char *opt, const char *s, unsigned long *v)
{
    char *end;
    unsigned long long x = strtoull(s, &end, 0);
    if (*s == 0 || *end != 0) {
        fprintf(stderr, "tb_engine: %s wants a number, got '%s'\n", opt, s);
        return -1;
    }
    *v = (unsigned long)x;
    return 0;
}

int tb_engine_main(int argc, char **argv)
{
    struct run_opts o = { .seed = 1, .per_mode = 200, .full_lengths = false, .resets = true, .huge = true,
                          .config_every = 0 };
    bool bench = false;
    unsigned long bench_payload = 0;
    double clock = 200.0;
    const char *json = NULL, *params = "";
    for (int i = 1; i < argc; i++) {
        unsigned long v;
        const char *a = argv[i];
        bool has_arg = i + 1 < argc;
        if (!strcmp(a, "--seed") && has_arg) {
            if (parse_ulong(a, argv[++i], &v)) return 2;
            o.seed = v;
        } else if (!strcmp(a, "--packets") && has_arg) {
            if (parse_ulong(a, argv[++i], &v)) return 2;
            o.per_mode = v;
        } else if (!strcmp(a, "--full-lengths")) {
            o.full_lengths = true;
        } else if (!strcmp(a, "--no-reset")) {
            o.resets = false;
        } else if (!strcmp(a, "--no-huge")) {
            o.huge = false;
        } else if (!strcmp(a, "--config-every") && has_arg) {
            if (parse_ulong(a, argv[++i], &v)) return 2;
            o.config_every = v;
        } else if (!strcmp(a, "--bench")) {
            bench = true;
        } else if (!strcmp(a, "--clock") && has_arg) {
            char *end;
            clock = strtod(argv[++i], &end);
            if (*end != 0 || clock <= 0) {
                fprintf(stderr, "tb_engine: --clock wants a frequency in MHz, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--bench-payload") && has_arg) {
            if (parse_ulong(a, argv[++i], &v)) return 2;
            if (v != 64 && v != 256 && v != 1024 && v != 4096) {
                fprintf(stderr, "tb_engine: --bench-payload must be 64, 256, 1024 or 4096, got %lu\n", v);
                return 2;
            }
            bench_payload = v;
        } else if (!strcmp(a, "--json") && has_arg) {
            json = argv[++i];
        } else if (!strcmp(a, "--params") && has_arg) {
            params = argv[++i];
            if (params_check(params) != 0) {
                fprintf(stderr, "tb_engine: --params wants NAME=NUMBER words separated by spaces, got '%s'\n",
                        params);
                return 2;
            }
        } else if (!strcmp(a, "--quiet")) {
            B.quiet = true;
        } else if (a[0] == '+') {
            /* Verilator plusargs */
        } else {
            fprintf(stderr, "tb_engine: unknown or incomplete argument '%s'\n", a);
            usage();
            return 2;
        }
    }
    B.lanes = dut_lanes();
    B.bpb = 16 * B.lanes;
    static char name[32];
    snprintf(name, sizeof name, "engine-L%u", B.lanes);
    tb_result_init(&B.res, name);
    tb_rng_seed(&B.rng, o.seed * 0x9E3779B97F4A7C15ull + 7);
    for (int i = 0; i < DUT_COUNT; i++) {
        B.port[i].inst = i;
        B.port[i].name = i == DUT_SEAL ? "seal" : "open";
        B.port[i].op = i == DUT_SEAL ? IBSEC_OP_SEAL : IBSEC_OP_OPEN;
        tb_regs_init(&B.port[i].regs, i);
    }
    int rc = bench ? bench_run(B.lanes, clock, json, params, o.seed, bench_payload) : random_run(&o);
    dut_finish();
    return rc;
}

