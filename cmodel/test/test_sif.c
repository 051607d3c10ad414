/*
 * test_sif.c — stateful ingress filtering (sif.c, sw_hdr.c), target ctest-sif.
 *
 * Directed cases: P_Key matching (IBA §10.9), every named outcome of the
 * per-packet decision (forward, both drops, every malformed header), the
 * Invalid_P_Key_Table install outcomes including the fallback to the valid
 * table and the full table, the quiet timer's flush-and-disable, the CA trap
 * contents, the SM's reaction (by LRH.SLID and by a traced source), and an
 * attack end to end.
 *
 * Random traffic: a long random sequence of packets, SM installs and timer
 * steps runs through the model and through the reference below, which is
 * written differently on purpose: it keeps the set of filtered keys as a
 * 65536-bit bitmap with a count, keeps absolute time and the time of the last
 * restart instead of a down-counter, and computes the valid-table match with
 * its own expression.  Outcome, filtering state, fallback state and counter
 * are compared after every step.  Packets come from ibsec_pkt_build (every
 * field set from the description), then some are damaged on purpose.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ib_pkt.h"
#include "rng.h"
#include "sif.h"

#define OPC_RC_SEND_ONLY 0x04u /* IBA §9.2.1 Table 38: RC SEND Only */
#define QUIET 100u

/* Build a native packet with the given P_Key, SLID, GRH choice; returns its length. */
static size_t make_pkt(uint8_t *buf, size_t cap, uint16_t pkey, uint16_t slid, int grh)
{
    struct ibsec_pkt_desc d;
    memset(&d, 0, sizeof d);
    d.shape = grh ? IBSEC_SHAPE_IB_GLOBAL : IBSEC_SHAPE_IB_LOCAL;
    d.lrh.dlid = 0x0101;
    d.lrh.slid = slid;
    d.grh.hoplmt = 64;
    d.grh.sgid[0] = 0xFE;
    d.grh.sgid[1] = 0x80;
    d.grh.sgid[15] = (uint8_t)slid;
    d.grh.dgid[0] = 0xFE;
    d.grh.dgid[1] = 0x80;
    d.bth.opcode = OPC_RC_SEND_ONLY;
    d.bth.pkey = pkey;
    d.bth.destqp = 0x12;
    d.payload_len = 16;
    size_t len = 0;
    if (ibsec_pkt_build(&d, buf, cap, &len, NULL) != IBSEC_PKT_OK)
        return 0;
    return len;
}

static void test_pkey_match(check_ctx *c)
{
    static const struct { uint16_t a, b; int m; } t[] = {
        { 0x8001, 0x8001, 1 }, { 0x8001, 0x0001, 1 }, { 0x0001, 0x8001, 1 },
        { 0x0001, 0x0001, 0 }, /* two limited members do not communicate */
        { 0x8001, 0x8002, 0 }, { 0x8000, 0x8000, 0 }, { 0x0000, 0x8000, 0 },
        { 0xFFFF, 0x7FFF, 1 }, { 0x7FFF, 0x7FFF, 0 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "pkey_match(%04x,%04x)", t[i].a, t[i].b);
        check_int(c, what, t[i].m, ibsec_pkey_match(t[i].a, t[i].b));
    }
}

static void test_malformed(check_ctx *c)
{
    struct ibsec_sif_port p;
    uint8_t buf[256];
    ibsec_sif_port_init(&p, QUIET);
    size_t n = make_pkt(buf, sizeof buf, 0x8001, 7, 1);
    check_true(c, n > 0, "build GRH packet");
    check_int(c, "good packet", IBSEC_SIF_FORWARD, ibsec_sif_ingress(&p, buf, n));
    check_int(c, "empty", IBSEC_SIF_DROP_TRUNCATED, ibsec_sif_ingress(&p, buf, 0));
    check_int(c, "7 bytes", IBSEC_SIF_DROP_TRUNCATED, ibsec_sif_ingress(&p, buf, 7));
    check_int(c, "GRH cut", IBSEC_SIF_DROP_TRUNCATED, ibsec_sif_ingress(&p, buf, 8 + 40 + 11));
    uint8_t b2[256];
    memcpy(b2, buf, n);
    b2[1] = (uint8_t)(b2[1] & ~0x03u); /* LNH raw */
    check_int(c, "LNH raw", IBSEC_SIF_DROP_BAD_LNH, ibsec_sif_ingress(&p, b2, n));
    b2[1] = (uint8_t)((b2[1] & ~0x03u) | 1u); /* LNH IP non-IBA */
    check_int(c, "LNH IP", IBSEC_SIF_DROP_BAD_LNH, ibsec_sif_ingress(&p, b2, n));
    memcpy(b2, buf, n);
    b2[0] = (uint8_t)(b2[0] | 0x01u); /* LVer 1 */
    check_int(c, "LVer 1", IBSEC_SIF_DROP_BAD_LVER, ibsec_sif_ingress(&p, b2, n));
    memcpy(b2, buf, n);
    b2[8] = (uint8_t)((b2[8] & 0x0Fu) | 0x40u); /* GRH IPVer 4 */
    check_int(c, "IPVer 4", IBSEC_SIF_DROP_BAD_GRH, ibsec_sif_ingress(&p, b2, n));
    memcpy(b2, buf, n);
    b2[8 + 6] = 0x11; /* GRH NxtHdr UDP */
    check_int(c, "NxtHdr", IBSEC_SIF_DROP_BAD_GRH, ibsec_sif_ingress(&p, b2, n));
    check_int(c, "malformed is no violation", 0, p.violations);
    check_int(c, "no lookups while off", 0, (long long)p.lookups);
    check_int(c, "truncated counter", 3, (long long)p.out_count[IBSEC_SIF_DROP_TRUNCATED]);
}

static void test_install_and_timer(check_ctx *c)
{
    struct ibsec_sif_port p;
    uint8_t bad[256], good[256];
    static const uint16_t valid[] = { 0x8001, 0x8002, 0x8003 };
    ibsec_sif_port_init(&p, QUIET);
    check_true(c, ibsec_sif_set_valid(&p, valid, 3), "set valid table");
    size_t nb = make_pkt(bad, sizeof bad, 0x8055, 9, 0);
    size_t ng = make_pkt(good, sizeof good, 0x8001, 9, 0);
    check_int(c, "before install", IBSEC_SIF_FORWARD, ibsec_sif_ingress(&p, bad, nb));
    check_int(c, "install", IBSEC_SIF_INSTALLED, ibsec_sif_install_invalid(&p, 0x8055));
    check_int(c, "install again", IBSEC_SIF_ALREADY_PRESENT, ibsec_sif_install_invalid(&p, 0x8055));
    check_int(c, "bad dropped", IBSEC_SIF_DROP_INVALID_PKEY, ibsec_sif_ingress(&p, bad, nb));
    check_int(c, "good passes", IBSEC_SIF_FORWARD, ibsec_sif_ingress(&p, good, ng));
    check_int(c, "counter 1", 1, p.violations);
    ibsec_sif_tick(&p, QUIET - 1);
    check_true(c, p.filtering, "still filtering at quiet-1");
    check_int(c, "bad dropped again", IBSEC_SIF_DROP_INVALID_PKEY, ibsec_sif_ingress(&p, bad, nb));
    ibsec_sif_tick(&p, QUIET - 1);
    check_true(c, p.filtering, "violation restarted the timer");
    ibsec_sif_tick(&p, 1);
    check_true(c, !p.filtering, "flushed after quiet time");
    check_int(c, "table flushed", 0, p.n_invalid);
    check_int(c, "counter reset", 0, p.violations);
    check_int(c, "one flush", 1, (long long)p.flushes);
    check_int(c, "bad forwarded after flush", IBSEC_SIF_FORWARD, ibsec_sif_ingress(&p, bad, nb));
    check_int(c, "lookups only while on", 3, (long long)p.lookups);

    /* fallback: the third invalid key would outgrow a 3-entry valid table? no: 4th */
    check_int(c, "k1", IBSEC_SIF_INSTALLED, ibsec_sif_install_invalid(&p, 0x8101));
    check_int(c, "k2", IBSEC_SIF_INSTALLED, ibsec_sif_install_invalid(&p, 0x8102));
    check_int(c, "k3", IBSEC_SIF_INSTALLED, ibsec_sif_install_invalid(&p, 0x8103));
    check_int(c, "k4 fallback", IBSEC_SIF_FALLBACK_VALID, ibsec_sif_install_invalid(&p, 0x8104));
    check_true(c, p.use_valid_table, "fallback mode");
    check_int(c, "k5 in fallback", IBSEC_SIF_IN_FALLBACK, ibsec_sif_install_invalid(&p, 0x8105));
    check_int(c, "valid passes in fallback", IBSEC_SIF_FORWARD, ibsec_sif_ingress(&p, good, ng));
    size_t nl = make_pkt(good, sizeof good, 0x0002, 9, 0); /* limited member of full 0x8002 */
    check_int(c, "limited member passes", IBSEC_SIF_FORWARD, ibsec_sif_ingress(&p, good, nl));
    check_int(c, "unknown key dropped", IBSEC_SIF_DROP_NOT_VALID_PKEY, ibsec_sif_ingress(&p, bad, nb));
    ibsec_sif_tick(&p, QUIET);
    check_true(c, !p.filtering && !p.use_valid_table, "fallback ends with the flush");

    /* full table: a valid table larger than the invalid capacity */
    uint16_t many[IBSEC_SIF_VALID_MAX];
    for (unsigned i = 0; i < IBSEC_SIF_VALID_MAX; i++)
        many[i] = (uint16_t)(0x8200 + i);
    check_true(c, ibsec_sif_set_valid(&p, many, IBSEC_SIF_VALID_MAX), "set full valid table");
    check_true(c, !ibsec_sif_set_valid(&p, many, IBSEC_SIF_VALID_MAX + 1), "oversized valid table refused");
    for (unsigned i = 0; i < IBSEC_SIF_INVALID_MAX; i++)
        check_int(c, "fill", IBSEC_SIF_INSTALLED, ibsec_sif_install_invalid(&p, (uint16_t)(0x8300 + i)));
    check_int(c, "table full", IBSEC_SIF_FALLBACK_TABLE_FULL, ibsec_sif_install_invalid(&p, 0x8400));

    /* no valid table: the first install already falls back (drop everything) */
    ibsec_sif_port_init(&p, QUIET);
    check_int(c, "empty valid table", IBSEC_SIF_FALLBACK_VALID, ibsec_sif_install_invalid(&p, 0x8055));
    check_int(c, "all dropped", IBSEC_SIF_DROP_NOT_VALID_PKEY, ibsec_sif_ingress(&p, good, nl));
}

static void test_trap_and_sm(check_ctx *c)
{
    static struct ibsec_sm sm; /* large: static */
    struct ibsec_sif_port a, b;
    struct ibsec_ca_pkeys ca = { .keys = { 0x8001 }, .n = 1, .violations = 0 };
    static const uint16_t valid[] = { 0x8001, 0x8002 };
    uint8_t buf[256];
    struct ibsec_sw_hdr h;
    struct ibsec_sif_trap t;
    enum ibsec_sif_install inst = IBSEC_SIF_INSTALL_COUNT;

    memset(&sm, 0, sizeof sm);
    ibsec_sif_port_init(&a, QUIET);
    ibsec_sif_port_init(&b, QUIET);
    ibsec_sif_set_valid(&a, valid, 2);
    ibsec_sif_set_valid(&b, valid, 2);
    check_true(c, ibsec_sm_attach(&sm, 5, &a), "attach 5");
    check_true(c, ibsec_sm_attach(&sm, 6, &b), "attach 6");
    check_true(c, !ibsec_sm_attach(&sm, 0, &a), "LID 0 refused");
    check_true(c, !ibsec_sm_attach(&sm, IBSEC_SM_MAX_LID, &a), "LID too large refused");

    size_t n = make_pkt(buf, sizeof buf, 0x8001, 5, 1);
    check_int(c, "hdr", IBSEC_SW_HDR_OK, ibsec_sw_hdr_read(buf, n, &h));
    check_true(c, ibsec_ca_check_pkey(&ca, &h, &t), "CA accepts valid key");
    n = make_pkt(buf, sizeof buf, 0x8077, 5, 1);
    ibsec_sw_hdr_read(buf, n, &h);
    check_true(c, !ibsec_ca_check_pkey(&ca, &h, &t), "CA rejects invalid key");
    check_int(c, "CA violations", 1, ca.violations);
    check_int(c, "trap pkey", 0x8077, t.pkey);
    check_int(c, "trap slid", 5, t.slid);
    check_true(c, t.has_sgid && t.sgid[0] == 0xFE && t.sgid[15] == 5, "trap sgid");

    check_int(c, "SM acts", IBSEC_SM_ACTED, ibsec_sm_handle_trap(&sm, &t, &inst));
    check_int(c, "SM installed", IBSEC_SIF_INSTALLED, inst);
    check_true(c, a.filtering && !b.filtering, "filtering only on the attacker's port");
    check_int(c, "flood dropped at ingress", IBSEC_SIF_DROP_INVALID_PKEY, ibsec_sif_ingress(&a, buf, n));

    /* spoofed SLID 6 from the node on port a: without a trace the SM filters b */
    n = make_pkt(buf, sizeof buf, 0x8078, 6, 1);
    ibsec_sw_hdr_read(buf, n, &h);
    ibsec_ca_check_pkey(&ca, &h, &t);
    ibsec_sm_handle_trap(&sm, &t, &inst);
    check_true(c, b.filtering, "spoofed trap filters the wrong port");
    check_int(c, "spoofed flood passes its real port", IBSEC_SIF_FORWARD, ibsec_sif_ingress(&a, buf, n));
    t.traced = true;
    t.traced_lid = 5;
    ibsec_sm_handle_trap(&sm, &t, &inst);
    check_int(c, "traced trap installs at the real port", IBSEC_SIF_INSTALLED, inst);
    check_int(c, "traced flood dropped", IBSEC_SIF_DROP_INVALID_PKEY, ibsec_sif_ingress(&a, buf, n));

    t.traced = false;
    t.slid = 77;
    check_int(c, "unknown source", IBSEC_SM_UNKNOWN_SOURCE, ibsec_sm_handle_trap(&sm, &t, &inst));
    check_true(c, strcmp(ibsec_sif_out_name(IBSEC_SIF_DROP_NOT_VALID_PKEY), "drop_not_valid_pkey") == 0,
               "outcome name");
}

/* ---- independent reference of one port ------------------------------------- */

struct ref_port {
    uint8_t  bad[65536 / 8];  /* filtered keys as a bitmap */
    unsigned nbad;
    uint16_t valid[IBSEC_SIF_VALID_MAX];
    unsigned nvalid;
    int      on, fallback;
    uint64_t now, restart;
    uint32_t counter;
};

static int ref_is_bad(const struct ref_port *r, uint16_t k)
{
    return (r->bad[k >> 3] >> (k & 7)) & 1;
}

/* Valid-table match: same low 15 bits, nonzero, and the OR has bit 15. */
static int ref_valid(const struct ref_port *r, uint16_t k)
{
    for (unsigned i = 0; i < r->nvalid; i++) {
        uint16_t v = r->valid[i];
        if (((v ^ k) & 0x7FFF) == 0 && (k & 0x7FFF) != 0 && ((v | k) & 0x8000))
            return 1;
    }
    return 0;
}

static void ref_clear(struct ref_port *r)
{
    memset(r->bad, 0, sizeof r->bad);
    r->nbad = 0;
    r->on = r->fallback = 0;
    r->counter = 0;
}

static int ref_install(struct ref_port *r, uint16_t k)
{
    if (!r->on)
        r->counter = 0;
    r->on = 1;
    r->restart = r->now;
    if (r->fallback)
        return IBSEC_SIF_IN_FALLBACK;
    if (ref_is_bad(r, k))
        return IBSEC_SIF_ALREADY_PRESENT;
    if (r->nbad >= r->nvalid || r->nbad >= IBSEC_SIF_INVALID_MAX) {
        int why = r->nbad >= r->nvalid ? IBSEC_SIF_FALLBACK_VALID : IBSEC_SIF_FALLBACK_TABLE_FULL;
        memset(r->bad, 0, sizeof r->bad);
        r->nbad = 0;
        r->fallback = 1;
        return why;
    }
    r->bad[k >> 3] = (uint8_t)(r->bad[k >> 3] | (1u << (k & 7)));
    r->nbad++;
    return IBSEC_SIF_INSTALLED;
}

static int ref_packet(struct ref_port *r, uint16_t k)
{
    int drop = 0, out = IBSEC_SIF_FORWARD;
    if (r->on && r->fallback && !ref_valid(r, k))
        drop = 1, out = IBSEC_SIF_DROP_NOT_VALID_PKEY;
    if (r->on && !r->fallback && ref_is_bad(r, k))
        drop = 1, out = IBSEC_SIF_DROP_INVALID_PKEY;
    if (drop) {
        r->counter++;
        r->restart = r->now;
    }
    return out;
}

static void ref_advance(struct ref_port *r, uint32_t dt, uint32_t quiet)
{
    r->now += dt;
    if (r->on && r->now - r->restart >= quiet)
        ref_clear(r);
}

static void test_random(check_ctx *c, uint64_t seed, unsigned steps)
{
    static struct ref_port r;
    struct ibsec_sif_port p;
    ibsec_rng g;
    uint8_t buf[256];
    unsigned mism = 0;

    ibsec_rng_seed(&g, seed);
    memset(&r, 0, sizeof r);
    ibsec_sif_port_init(&p, QUIET);
    r.nvalid = ibsec_rng_below(&g, IBSEC_SIF_VALID_MAX + 1);
    for (unsigned i = 0; i < r.nvalid; i++)
        r.valid[i] = (uint16_t)(ibsec_rng_below(&g, 2) << 15 | ibsec_rng_range(&g, 1, 40));
    ibsec_sif_set_valid(&p, r.valid, r.nvalid);

    for (unsigned s = 0; s < steps; s++) {
        uint32_t op = ibsec_rng_below(&g, 100);
        uint16_t k = (uint16_t)(ibsec_rng_below(&g, 2) << 15 | ibsec_rng_below(&g, 48));
        int want, got;
        if (op < 8) {
            want = ref_install(&r, k);
            got = ibsec_sif_install_invalid(&p, k);
        } else if (op < 20) {
            uint32_t dt = ibsec_rng_below(&g, QUIET / 2);
            ref_advance(&r, dt, QUIET);
            ibsec_sif_tick(&p, dt);
            want = got = 0;
        } else {
            size_t n = make_pkt(buf, sizeof buf, k, 3, (int)ibsec_rng_below(&g, 2));
            if (op < 23) {            /* damaged header: named outcome, no state change */
                buf[1] = (uint8_t)(buf[1] & ~0x03u);
                want = IBSEC_SIF_DROP_BAD_LNH;
            } else if (op < 25) {
                n = ibsec_rng_below(&g, 20);
                want = IBSEC_SIF_DROP_TRUNCATED;
            } else {
                want = ref_packet(&r, k);
            }
            got = ibsec_sif_ingress(&p, buf, n);
        }
        int same = want == got && r.on == p.filtering && r.fallback == p.use_valid_table &&
                   r.counter == p.violations && r.nbad == p.n_invalid;
        if (!same && mism++ < 5)
            check_failf(c, "seed %llu step %u op %u key %04x: want %d on %d fb %d cnt %u nbad %u; "
                        "got %d on %d fb %d cnt %u nbad %u", (unsigned long long)seed, s, op, k,
                        want, r.on, r.fallback, r.counter, r.nbad, got, p.filtering,
                        p.use_valid_table, p.violations, p.n_invalid);
        else if (same)
            c->passed++;
        else
            c->failed++;
    }
}

int main(void)
{
    check_ctx c;
    check_init(&c, "ctest-sif");
    test_pkey_match(&c);
    test_malformed(&c);
    test_install_and_timer(&c);
    test_trap_and_sm(&c);
    for (uint64_t seed = 1; seed <= 20; seed++)
        test_random(&c, seed, 5000);
    return check_summary(&c);
}
