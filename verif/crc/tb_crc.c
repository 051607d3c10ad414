/*
 * tb_crc.c — C harness of the CRC bench: rtl/ib/ib_icrc_engine.v, ib_vcrc_engine.v and
 * ib_vcrc_extend4.v (through verif/crc/tb_crc_top.v) against the C model (cmodel/crc.h)
 * and, for the ICRC, against zlib's crc32 as well.
 *
 * The two engines are driven at the same time, each by its own stream driver with its
 * own schedule: a sequence of packets ("jobs"), each cut into beats of 16*LANES bytes,
 * the last beat carrying in_end = covered bytes in it. Bytes past in_end on the last
 * beat, in_ones/in_roce/in_end where the engine must ignore them and the data of idle
 * cycles are random garbage. Every result must come out exactly LATENCY cycles after
 * its last beat (3 + ceil(log2(16*LANES) / UNPAD_BITS)), and nothing may come out otherwise.
 * Each engine is checked at UNPAD_BITS = 1 and, at LANES = 1 and 4, also at UNPAD_BITS = 2
 * (a second instance on the same inputs).
 *
 * Jobs, in this order for each engine:
 *   1. known answers: the check value of each CRC over ASCII "123456789" (ICRC 0xCBF43926,
 *      the CRC-32 of IEEE 802.3; VCRC 0x0A3D, docs/packets.md §3.1), also as a VCRC
 *      prefix "12345" extended by "6789" through ib_vcrc_extend4;
 *   2. real packets of the model's generator (cmodel/ib_pktgen.h), REAL_PER_SHAPE of each
 *      of the four shapes: the ICRC engine gets frame bytes up to the ICRC field with the
 *      variant mask crc.c applies (taken from ibsec_icrc_masked_bytes: whole bytes set
 *      to ones become in_ones, narrower fields — LRH.VL, the TClass nibble of GRH/IPv6
 *      byte 0 — are ORed into the data as the caller must) and in_roce for RoCEv2; its
 *      result must equal ibsec_icrc_compute and zlib's crc32 of the masked string. Native
 *      packets also go through the VCRC engine twice: up to the VCRC field (result =
 *      ibsec_vcrc_compute), and up to the ICRC field, whose result extended by the ICRC
 *      through ib_vcrc_extend4 must again equal ibsec_vcrc_compute;
 *   3. random streams: lengths 1..MAX_RANDOM_LEN bytes, biased to short packets and to
 *      every last-beat fill 1..16*LANES; random variant masks (none, sparse, dense, all);
 *      RoCEv2 starts; the ICRC against the model (ibsec_crc32 of the masked string) and
 *      zlib, the VCRC against ibsec_crc16.
 *   Schedules change every 100 jobs: back-to-back (no idle at all), light and heavy
 *   random idle cycles; in the idle phases some packets are abandoned (a first beat
 *   follows without a last beat: no result) and a few resets hit in mid-packet (every
 *   result in flight is lost, the engines work again afterwards).
 *   ib_vcrc_extend4 is also checked alone on random inputs against ibsec_crc16_update.
 *
 * Usage: Vtb [--seed N] [--packets N] (random jobs per engine). Last line:
 * "crc-L<n>: N passed, N failed".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "crc.h"
#include "ghash.h" /* IBSEC_MAX_LANES */
#include "ib_pkt.h"
#include "ib_pktgen.h"
#include "rng.h"
#include "tb_crc.h"
#include "tb_util.h"

#define MAX_RANDOM_LEN  4300u
#define MAX_FRAME       (IBSEC_MAX_PKT > MAX_RANDOM_LEN ? IBSEC_MAX_PKT : MAX_RANDOM_LEN)
#define REAL_PER_SHAPE  150u
#define MAX_BEAT_BYTES  (16u * IBSEC_MAX_LANES)
#define MAX_WORDS       (MAX_BEAT_BYTES / 4u)
#define PENDING_LEN     64u
#define EXTEND4_CHECKS  2000u
/* instances per engine in the test top: UNPAD_BITS = 1 (variant 0) and, below LANES =
 * 12, UNPAD_BITS = 2 (variant 1); dut_variants() says how many */
#define VARIANTS        2u
/* the published check strings and values (docs/packets.md §2, §3.1) */
#define CHECK_STRING    "123456789"
#define ICRC_CHECK      0xCBF43926u
#define VCRC_CHECK      0x0A3Du

enum job_kind { JOB_ICRC, JOB_VCRC, JOB_VCRC_PREFIX };

/* One packet for one engine: the bytes it is given and what must come out. */
typedef struct {
    enum job_kind kind;
    char     what[64];
    uint8_t  data[MAX_FRAME];  /* beat bytes (variant nibbles already ORed in) */
    uint8_t  ones[MAX_FRAME];  /* ICRC: in_ones per byte */
    size_t   len;              /* bytes up to the last covered one (the last in_end) */
    int      roce;             /* ICRC: RoCEv2 start */
    long     abandon_beat;     /* >= 0: stop after this beat without a last beat */
    long     reset_beat;       /* >= 0: a reset in the cycle this beat is due */
    uint32_t exp_model;        /* ICRC: model; VCRC: model (final value) */
    uint32_t exp_zlib;         /* ICRC: zlib */
    uint32_t ext_bytes;        /* VCRC prefix: the ICRC bytes to extend by */
    uint16_t ext_expect;       /* VCRC prefix: the VCRC after them */
} job;

/* A result on its way out. */
typedef struct {
    unsigned long due;         /* cycle in which out_valid must be seen */
    enum job_kind kind;
    char     what[64];
    uint32_t exp_model, exp_zlib, ext_bytes;
    uint16_t ext_expect;
} pending;

/* One engine's stream driver and its job source. */
typedef struct {
    const char   *name;
    int           is_icrc;
    job           cur;
    int           active;
    size_t        pos;         /* offset of the next beat in cur */
    long          beat;        /* index of the next beat in cur */
    unsigned long njobs;       /* jobs started */
    unsigned long stage;       /* 0 known answer, 1 real packets, 2 random */
    unsigned long stage_count;
    ibsec_rng     pkt_rng;     /* the model's generator for real packets */
    uint8_t       pkt_buf[MAX_FRAME];
    struct ibsec_pkt pkt;      /* the current real packet, parsed */
    pending       q[VARIANTS][PENDING_LEN]; /* results due, per engine variant */
    unsigned      q_head[VARIANTS], q_count[VARIANTS];
    unsigned long n_results, n_beats, n_idle, n_abandoned, n_lost, n_real, n_roce;
    unsigned long n_nibble;    /* real ICRC packets with a sub-byte variant field */
} driver;

static tb_result res;
static tb_rng rng;
static unsigned lanes, beat_bytes, variants, latency[VARIANTS];
static unsigned long cycle, n_random, n_resets;

/* ------------------------------------------------------------------------------------ */
/* Expected values                                                                        */
/* ------------------------------------------------------------------------------------ */

/* The string the ICRC covers: (RoCEv2) 8 bytes of ones, then the covered bytes with the
 * in_ones bytes replaced by 0xFF. Returns its length. */
static size_t icrc_cover_string(const job *j, uint8_t *out)
{
    size_t n = 0, start = 0;
    if (j->roce) {
        memset(out, 0xFF, IBSEC_ROCE_LRH_STANDIN);
        n = IBSEC_ROCE_LRH_STANDIN;
        start = IBSEC_MAC_LEN;
    }
    for (size_t i = start; i < j->len; i++)
        out[n++] = j->ones[i] ? 0xFF : j->data[i];
    return n;
}

static void icrc_expect(job *j)
{
    static uint8_t s[MAX_FRAME + IBSEC_ROCE_LRH_STANDIN];
    size_t n = icrc_cover_string(j, s);
    j->exp_model = ibsec_crc32(s, n);
    j->exp_zlib = (uint32_t)crc32(crc32(0L, Z_NULL, 0), s, (uInt)n);
}

/* ------------------------------------------------------------------------------------ */
/* Job sources                                                                            */
/* ------------------------------------------------------------------------------------ */

static void job_reset(job *j, enum job_kind kind)
{
    j->kind = kind;
    j->what[0] = 0;
    j->len = 0;
    j->roce = 0;
    j->abandon_beat = -1;
    j->reset_beat = -1;
    j->exp_model = j->exp_zlib = j->ext_bytes = 0;
    j->ext_expect = 0;
    memset(j->ones, 0, sizeof j->ones);
}

/* Known answers: the check string through each engine. */
static void known_answer_job(driver *d, job *j, unsigned long idx)
{
    size_t n = strlen(CHECK_STRING);
    if (d->is_icrc) {
        job_reset(j, JOB_ICRC);
        memcpy(j->data, CHECK_STRING, n);
        j->len = n;
        icrc_expect(j);
        j->exp_model = ICRC_CHECK; /* the published value; zlib checks the same */
        snprintf(j->what, sizeof j->what, "ICRC check value");
    } else if (idx == 0) {
        job_reset(j, JOB_VCRC);
        memcpy(j->data, CHECK_STRING, n);
        j->len = n;
        j->exp_model = VCRC_CHECK;
        snprintf(j->what, sizeof j->what, "VCRC check value");
    } else {
        /* "12345" through the engine, then "6789" through extend4 */
        job_reset(j, JOB_VCRC_PREFIX);
        memcpy(j->data, CHECK_STRING, n);
        j->len = n - 4;
        j->exp_model = ibsec_crc16(j->data, j->len);
        j->ext_bytes = (uint32_t)j->data[5] | (uint32_t)j->data[6] << 8 |
                       (uint32_t)j->data[7] << 16 | (uint32_t)j->data[8] << 24;
        j->ext_expect = VCRC_CHECK;
        snprintf(j->what, sizeof j->what, "VCRC check value via extend4");
    }
}

/* Real packet number idx (both drivers generate the same sequence). ICRC: one job per
 * packet; VCRC: two per native packet (full, prefix + extend4), none for RoCEv2. */
static int real_packet_job(driver *d, job *j, unsigned long idx)
{
    static uint8_t masked[IBSEC_MAX_PKT + IBSEC_ROCE_LRH_STANDIN];
    uint8_t *buf = d->pkt_buf;
    struct ibsec_pkt *pp = &d->pkt;
    unsigned long pkt_idx = d->is_icrc ? idx : idx / 2;
    enum ibsec_shape shape = (enum ibsec_shape)(pkt_idx / REAL_PER_SHAPE);
    if (shape >= IBSEC_SHAPE_COUNT)
        return 0;
    if (d->is_icrc || idx % 2 == 0) {
        struct ibsec_pktgen_opts o;
        size_t len;
        ibsec_pktgen_default_opts(&o, shape);
        enum ibsec_pkt_err e = ibsec_pktgen(&d->pkt_rng, &o, buf, sizeof d->pkt_buf, &len, pp);
        if (e != IBSEC_PKT_OK) {
            tb_fail(&res, "ibsec_pktgen (%s): %s", ibsec_shape_name(shape), ibsec_pkt_err_name(e));
            return 0;
        }
    }
    if (!d->is_icrc && pp->link == IBSEC_LINK_ROCE) {
        job_reset(j, JOB_VCRC);
        j->len = 0; /* no VCRC on RoCEv2: nothing to drive */
        return 1;
    }
    if (d->is_icrc) {
        job_reset(j, JOB_ICRC);
        memcpy(j->data, buf, pp->icrc_off);
        j->len = pp->icrc_off;
        j->roce = pp->link == IBSEC_LINK_ROCE;
        size_t n = ibsec_icrc_masked_bytes(buf, pp, pp->icrc_off, masked, sizeof masked);
        size_t prefix = j->roce ? IBSEC_ROCE_LRH_STANDIN : 0;
        if (n != prefix + pp->icrc_off - pp->icrc_cov_off) {
            tb_fail(&res, "ibsec_icrc_masked_bytes returned %zu bytes", n);
            return 0;
        }
        int nibble = 0;
        for (size_t i = 0; i < pp->icrc_off; i++) {
            if (i < pp->icrc_cov_off) {
                j->ones[i] = (uint8_t)tb_chance(&rng, 50); /* Ethernet header: ignored */
                continue;
            }
            uint8_t m = masked[prefix + i - pp->icrc_cov_off];
            if (m == buf[i])
                j->ones[i] = buf[i] == 0xFF ? (uint8_t)tb_chance(&rng, 50) : 0;
            else if (m == 0xFF)
                j->ones[i] = 1;
            else {
                j->data[i] = m; /* a sub-byte variant field, ORed in by the caller */
                nibble = 1;
            }
        }
        d->n_nibble += (unsigned long)nibble;
        j->exp_model = ibsec_icrc_compute(buf, pp);
        j->exp_zlib = (uint32_t)crc32(crc32(0L, Z_NULL, 0), masked, (uInt)n);
        snprintf(j->what, sizeof j->what, "ICRC of %s packet %lu", ibsec_shape_name(shape),
                 pkt_idx % REAL_PER_SHAPE);
    } else if (idx % 2 == 0) {
        job_reset(j, JOB_VCRC);
        memcpy(j->data, buf, pp->vcrc_off);
        j->len = pp->vcrc_off;
        j->exp_model = ibsec_vcrc_compute(buf, pp);
        snprintf(j->what, sizeof j->what, "VCRC of %s packet %lu", ibsec_shape_name(shape),
                 pkt_idx % REAL_PER_SHAPE);
    } else {
        job_reset(j, JOB_VCRC_PREFIX);
        memcpy(j->data, buf, pp->icrc_off);
        j->len = pp->icrc_off;
        j->exp_model = ibsec_crc16(buf, pp->icrc_off);
        j->ext_bytes = ibsec_icrc_get(buf, pp);
        j->ext_expect = ibsec_vcrc_compute(buf, pp);
        snprintf(j->what, sizeof j->what, "VCRC prefix+extend4 of %s packet %lu",
                 ibsec_shape_name(shape), pkt_idx % REAL_PER_SHAPE);
    }
    d->n_real++;
    return 1;
}

/* Random length: short, every last-beat fill in turn, medium, anything. */
static size_t random_len(unsigned long idx)
{
    unsigned pick = tb_rand_range(&rng, 0, 99);
    if (pick < 30)
        return tb_rand_range(&rng, 1, 3 * beat_bytes);
    if (pick < 55) {
        size_t fill = (size_t)(idx % beat_bytes) + 1;
        return (size_t)tb_rand_range(&rng, 0, 4) * beat_bytes + fill;
    }
    if (pick < 80)
        return tb_rand_range(&rng, 1, 600);
    return tb_rand_range(&rng, 1, MAX_RANDOM_LEN);
}

static void random_job(driver *d, job *j, unsigned long idx, unsigned idle_pct)
{
    job_reset(j, d->is_icrc ? JOB_ICRC : JOB_VCRC);
    j->len = random_len(idx);
    tb_rand_bytes(&rng, j->data, j->len);
    if (d->is_icrc) {
        static const unsigned ones_pcts[4] = {0, 3, 30, 100};
        unsigned ones_pct = ones_pcts[tb_rand_range(&rng, 0, 3)];
        for (size_t i = 0; i < j->len; i++)
            j->ones[i] = (uint8_t)tb_chance(&rng, ones_pct);
        j->roce = tb_chance(&rng, 30);
        if (j->roce && j->len < IBSEC_MAC_LEN)
            j->len += IBSEC_MAC_LEN; /* the data past the old length is random too */
        d->n_roce += (unsigned long)j->roce;
        icrc_expect(j);
    } else {
        j->exp_model = ibsec_crc16(j->data, j->len);
    }
    /* in the idle phases, now and then a packet is cut off without its last beat */
    size_t nbeats = (j->len + beat_bytes - 1) / beat_bytes;
    if (idle_pct > 0 && nbeats > 1 && tb_chance(&rng, 3))
        j->abandon_beat = (long)tb_rand_range(&rng, 0, (uint32_t)nbeats - 2);
    /* in the heavy-idle phase, a reset hits one packet in 50 at a random beat */
    else if (idle_pct >= 40 && tb_chance(&rng, 2))
        j->reset_beat = (long)tb_rand_range(&rng, 0, (uint32_t)nbeats - 1);
    snprintf(j->what, sizeof j->what, "%s random packet %lu (%zu bytes%s)",
             d->is_icrc ? "ICRC" : "VCRC", idx, j->len, j->roce ? ", RoCEv2" : "");
}

/* The idle percentage of the current schedule phase (changes every 100 jobs). */
static unsigned idle_pct_of(const driver *d)
{
    static const unsigned pcts[4] = {0, 0, 5, 40};
    return pcts[(d->njobs / 100) % 4];
}

/* Next job of a driver; 0 when its sequence is over. */
static int next_job(driver *d)
{
    job *j = &d->cur;
    for (;;) {
        if (d->stage == 0) {
            unsigned long n = d->is_icrc ? 1 : 2;
            if (d->stage_count < n) {
                known_answer_job(d, j, d->stage_count++);
                break;
            }
        } else if (d->stage == 1) {
            if (real_packet_job(d, j, d->stage_count++)) {
                if (j->len == 0)
                    continue; /* RoCEv2 packet on the VCRC side */
                break;
            }
        } else if (d->stage == 2) {
            if (d->stage_count < n_random) {
                random_job(d, j, d->stage_count++, idle_pct_of(d));
                break;
            }
        } else {
            return 0;
        }
        d->stage++;
        d->stage_count = 0;
    }
    d->active = 1;
    d->pos = 0;
    d->beat = 0;
    d->njobs++;
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* Driving                                                                                */
/* ------------------------------------------------------------------------------------ */

static void push_pending(driver *d, unsigned v, const job *j)
{
    if (d->q_count[v] == PENDING_LEN) {
        tb_fail(&res, "%s: more than %u results in flight", d->name, PENDING_LEN);
        return;
    }
    pending *p = &d->q[v][(d->q_head[v] + d->q_count[v]++) % PENDING_LEN];
    p->due = cycle + latency[v];
    p->kind = j->kind;
    memcpy(p->what, j->what, sizeof p->what);
    p->exp_model = j->exp_model;
    p->exp_zlib = j->exp_zlib;
    p->ext_bytes = j->ext_bytes;
    p->ext_expect = j->ext_expect;
}

/* Set one engine's inputs for this cycle: an idle cycle or the next beat. */
static void drive(driver *d, int allow_beat)
{
    uint8_t data[MAX_BEAT_BYTES], ones[MAX_BEAT_BYTES / 8];
    uint32_t dw[MAX_WORDS], ow[MAX_BEAT_BYTES / 32];
    tb_rand_bytes(&rng, data, beat_bytes);
    tb_rand_bytes(&rng, ones, beat_bytes / 8);
    int valid = 0, first = tb_chance(&rng, 50), last = tb_chance(&rng, 50);
    int roce = tb_chance(&rng, 50);
    unsigned end = tb_rand_range(&rng, 0, beat_bytes);

    if (allow_beat && !d->active)
        next_job(d);
    if (allow_beat && d->active && !tb_chance(&rng, idle_pct_of(d))) {
        job *j = &d->cur;
        size_t n = j->len - d->pos < beat_bytes ? j->len - d->pos : beat_bytes;
        valid = 1;
        first = d->pos == 0;
        last = d->pos + beat_bytes >= j->len;
        if (first)
            roce = j->roce;
        if (last)
            end = (unsigned)n;
        memcpy(data, j->data + d->pos, n);
        for (size_t i = 0; i < n; i++) {
            uint8_t bit = (uint8_t)(1u << (i % 8));
            ones[i / 8] = (uint8_t)(j->ones[d->pos + i] ? ones[i / 8] | bit : ones[i / 8] & ~bit);
        }
        d->n_beats++;
        if (last) {
            for (unsigned v = 0; v < variants; v++)
                push_pending(d, v, j);
            d->active = 0;
        } else if (d->beat == j->abandon_beat) {
            d->active = 0;
            d->n_abandoned++;
        }
        d->pos += beat_bytes;
        d->beat++;
    } else {
        d->n_idle++;
    }
    tb_pack_axis(dw, 4 * lanes, data, beat_bytes);
    tb_pack_axis(ow, (beat_bytes + 31) / 32, ones, beat_bytes / 8);
    if (d->is_icrc)
        dut_set_icrc(valid, first, last, roce, dw, ow, end);
    else
        dut_set_vcrc(valid, first, last, dw, end);
}

/* Check the output of this cycle of one engine variant against its pending results. */
static void check_variant(driver *d, unsigned v)
{
    static const char *const vnames[VARIANTS] = {"UNPAD_BITS=1", "UNPAD_BITS=2"};
    uint32_t icrc = 0;
    uint16_t vcrc = 0;
    int valid = d->is_icrc ? dut_icrc_out(v, &icrc) : dut_vcrc_out(v, &vcrc);
    pending *p = d->q_count[v] ? &d->q[v][d->q_head[v]] : NULL;
    char what[128];
    if (p && p->due == cycle) {
        d->q_head[v] = (d->q_head[v] + 1) % PENDING_LEN;
        d->q_count[v]--;
        if (!valid) {
            tb_fail(&res, "%s %s: %s: no out_valid in cycle %lu", d->name, vnames[v], p->what,
                    cycle);
            return;
        }
        d->n_results++;
        if (p->kind == JOB_ICRC) {
            snprintf(what, sizeof what, "%s %s vs model", vnames[v], p->what);
            tb_check_u64(&res, what, p->exp_model, icrc);
            snprintf(what, sizeof what, "%s %s vs zlib", vnames[v], p->what);
            tb_check_u64(&res, what, p->exp_zlib, icrc);
        } else {
            snprintf(what, sizeof what, "%s %s", vnames[v], p->what);
            tb_check_u64(&res, what, p->exp_model, vcrc);
            if (p->kind == JOB_VCRC_PREFIX) {
                snprintf(what, sizeof what, "%s %s: extend4", vnames[v], p->what);
                tb_check_u64(&res, what, p->ext_expect, dut_vcrc_extend4(vcrc, p->ext_bytes));
            }
        }
    } else if (valid) {
        tb_fail(&res, "%s %s: out_valid in cycle %lu with no result due", d->name, vnames[v],
                cycle);
    }
}

static void check_output(driver *d)
{
    for (unsigned v = 0; v < variants; v++)
        check_variant(d, v);
}

static unsigned long in_flight(const driver *d)
{
    unsigned long n = 0;
    for (unsigned v = 0; v < VARIANTS; v++)
        n += d->q_count[v];
    return n;
}

static void reset_cycle(driver *drv, unsigned n)
{
    dut_set_rst(1);
    for (unsigned i = 0; i < n; i++) {
        drive(&drv[i], 0);
        check_output(&drv[i]);
    }
    dut_tick();
    cycle++;
    dut_set_rst(0);
    for (unsigned i = 0; i < n; i++) {
        drv[i].n_lost += drv[i].q_count[0] + (unsigned long)drv[i].active; /* packets */
        for (unsigned v = 0; v < VARIANTS; v++)
            drv[i].q_count[v] = 0;
        drv[i].active = 0;
    }
}

static void run_streams(driver *drv, unsigned n)
{
    for (;;) {
        int busy = 0;
        for (unsigned i = 0; i < n; i++)
            busy |= drv[i].active || in_flight(&drv[i]) || drv[i].stage < 3;
        if (!busy)
            break;
        /* a reset where a packet of either engine asks for one */
        int reset = 0;
        for (unsigned i = 0; i < n; i++)
            reset |= drv[i].active && drv[i].cur.reset_beat == drv[i].beat;
        if (reset) {
            reset_cycle(drv, n);
            n_resets++;
            continue;
        }
        for (unsigned i = 0; i < n; i++) {
            drive(&drv[i], 1);
            check_output(&drv[i]);
        }
        dut_tick();
        cycle++;
    }
}

/* ------------------------------------------------------------------------------------ */
/* ib_vcrc_extend4 alone                                                                  */
/* ------------------------------------------------------------------------------------ */

static void test_extend4(void)
{
    for (unsigned n = 0; n < EXTEND4_CHECKS; n++) {
        uint16_t v = (uint16_t)tb_rand32(&rng);
        uint8_t b[4];
        tb_rand_bytes(&rng, b, 4);
        if (n < 16) { /* directed: zero, ones, single bits */
            v = n < 8 ? (uint16_t)(n == 0 ? 0 : n == 1 ? 0xFFFF : 1u << (2 * n)) : 0;
            memset(b, n == 1 ? 0xFF : 0, 4);
            if (n >= 8)
                b[(n - 8) / 2] = (uint8_t)(n % 2 ? 0x80 : 0x01);
        }
        uint32_t bytes = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                         (uint32_t)b[3] << 24;
        uint16_t exp = (uint16_t)(ibsec_crc16_update((uint16_t)(v ^ IBSEC_CRC16_XOROUT), b, 4) ^
                                  IBSEC_CRC16_XOROUT);
        char what[64];
        snprintf(what, sizeof what, "extend4(%04x, %08x)", v, bytes);
        tb_check_u64(&res, what, exp, dut_vcrc_extend4(v, bytes));
    }
}

/* ------------------------------------------------------------------------------------ */

static int parse_ulong(const char *opt, const char *s, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-') {
        fprintf(stderr, "tb_crc: %s needs a non-negative integer, got '%s'\n", opt, s);
        return 0;
    }
    *out = v;
    return 1;
}

int tb_crc_main(int argc, char **argv)
{
    static char name[32];
    static driver drv[2];
    unsigned long seed = 1;
    n_random = 3000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (!parse_ulong("--seed", argv[++i], &seed))
                return 2;
        } else if (!strcmp(argv[i], "--packets") && i + 1 < argc) {
            if (!parse_ulong("--packets", argv[++i], &n_random))
                return 2;
        } else {
            fprintf(stderr, "tb_crc: unknown or incomplete argument '%s' "
                            "(usage: Vtb [--seed N] [--packets N])\n", argv[i]);
            return 2;
        }
    }
    lanes = dut_lanes();
    variants = dut_variants();
    if (variants < 1 || variants > VARIANTS) {
        fprintf(stderr, "tb_crc: the test top reports %u engine variants, 1..%u expected\n",
                variants, VARIANTS);
        return 2;
    }
    beat_bytes = 16 * lanes;
    /* ib_crc_stream: 3 stages and ceil(log2(16*LANES) / UNPAD_BITS) steps */
    unsigned pad_bits = 0;
    while ((1u << pad_bits) < beat_bytes)
        pad_bits++;
    latency[0] = 3 + pad_bits;
    latency[1] = 3 + (pad_bits + 1) / 2;
    snprintf(name, sizeof name, "crc-L%u", lanes);
    tb_result_init(&res, name);
    tb_rng_seed(&rng, seed);

    test_extend4();
    unsigned long ext_checks = res.passed + res.failed;

    for (unsigned i = 0; i < 2; i++) {
        drv[i].is_icrc = i == 0;
        drv[i].name = i == 0 ? "ib_icrc_engine" : "ib_vcrc_engine";
        ibsec_rng_seed(&drv[i].pkt_rng, seed);
    }
    dut_set_rst(1);
    for (int i = 0; i < 3; i++) {
        drive(&drv[0], 0);
        drive(&drv[1], 0);
        dut_tick();
    }
    dut_set_rst(0);
    run_streams(drv, 2);

    printf("crc-L%u: seed %lu, latency %u cycles (UNPAD_BITS = 1)", lanes, seed, latency[0]);
    if (variants > 1)
        printf(" and %u (UNPAD_BITS = 2)", latency[1]);
    printf(", %lu extend4 checks, %lu cycles, %lu resets\n", ext_checks, cycle, n_resets);
    for (unsigned i = 0; i < 2; i++)
        printf("crc-L%u: %s: %lu jobs (%lu real packets%s), %lu results checked "
               "(%u instance%s), %lu beats, "
               "%lu idle cycles, %lu abandoned, %lu lost to resets\n",
               lanes, drv[i].name, drv[i].njobs, drv[i].n_real,
               drv[i].is_icrc ? "" : ", native only", drv[i].n_results, variants,
               variants > 1 ? "s" : "", drv[i].n_beats,
               drv[i].n_idle, drv[i].n_abandoned, drv[i].n_lost);
    printf("crc-L%u: ICRC: %lu random RoCEv2 starts, %lu real packets with a sub-byte variant "
           "field ORed into the data\n", lanes, drv[0].n_roce, drv[0].n_nibble);
    int rc = tb_summary(&res);
    dut_finish();
    return rc;
}
