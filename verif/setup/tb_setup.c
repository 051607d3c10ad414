/*
 * tb_setup.c — authenticated connection setup programming the RTL engines.
 *
 * The Verilated top is verif/engine/tb_engine.v (a seal and an open instance of
 * rtl/engine/ibsec_engine.v), driven through the packet-engine bench's shim (verif/engine/
 * shim.cpp, tb_engine.h); this harness replaces tb_engine.c as its C side.
 *
 * Two simulated CAs and an SM (cmodel/setup/setup.h).  CA 0's seal engine is the RTL
 * seal instance and CA 1's open engine is the RTL open instance; the other two engines
 * are the C model.  The driver (ibsec_drv.h) programs each RTL instance through a bus
 * callback that runs the request/acknowledge bus of docs/registers.md §1 cycle by cycle
 * and writes every register to a shadow C-model engine as well; every value the driver
 * reads from the RTL (STATUS once BUSY is 0, KEY_VALID, the CTX_RD_* read-back) is
 * compared with the shadow's.  --conns N connections are set up through the pipelined
 * loop (initiators alternating between the CAs, the four secured modes, AES-128 and
 * AES-256), and on each, once established on both sides, packets go both ways: CA 0 to
 * CA 1 through the RTL seal and the RTL open instance, each output compared byte for byte
 * and status for status with the shadow model, and the opened packet with the plain one;
 * CA 1 to CA 0 through the model engines.  Then each connection is torn down and the
 * test checks that the RTL holds no valid key and no context, and that the last
 * connection's packets are refused by both RTL instances (no_context).  Last, the
 * driver's refusals on the RTL: a command the engine refuses, a full key table and a
 * duplicate selector, each leaving the RTL's keys and contexts as they were.
 *
 * Prints "N passed, N failed" last; exits non-zero on any failure.
 * Usage: Vtb [--conns N] [--window W] [--packets P]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibsec.h"
#include "ibsec_drv.h"
#include "ibsec_regmodel.h"
#include "setup.h"
#include "tb_engine.h"

#define MAX_LANES    12u
#define MAX_CYCLES   200000u   /* per bus access or packet: a hang is a failure */
#define REPORT_MAX   20u

static unsigned long g_pass, g_fail;
static unsigned long g_cycles;

static void fail(const char *fmt, const char *a, unsigned long x, unsigned long y)
{
    g_fail++;
    if (g_fail <= REPORT_MAX) {
        printf("FAIL setup-rtl: ");
        printf(fmt, a, x, y);
        putchar('\n');
    }
}

static void check(int ok, const char *what, unsigned long x, unsigned long y)
{
    if (ok)
        g_pass++;
    else
        fail("%s (%#lx, %#lx)", what, x, y);
}

static void tick(void)
{
    dut_tick();
    g_cycles++;
}

/* ---- register bus (docs/registers.md §1) with a shadow model ------------------------ */

struct rtl_bus {
    int inst;                /* DUT_SEAL or DUT_OPEN */
    ibsec_regmodel *shadow;  /* the model engine the same writes go to */
};

/* One access: request held until reg_ack, kept through the ack cycle, then dropped. */
static uint32_t bus_access(int inst, int we, uint32_t addr, uint32_t wdata)
{
    uint32_t rdata = 0;
    unsigned n = 0;
    int ack;

    dut_set_reg(inst, 1, we, addr, wdata);
    do {
        dut_eval();
        ack = dut_reg_ack(inst, &rdata);
        tick();
    } while (!ack && ++n < MAX_CYCLES);
    dut_set_reg(inst, 0, 0, 0, 0);
    dut_eval();
    check(ack, "register bus acknowledges", addr, n);
    return rdata;
}

static void rtl_write(void *ctx, uint32_t addr, uint32_t data)
{
    struct rtl_bus *b = ctx;
    bus_access(b->inst, 1, addr, data);
    ibsec_regmodel_write(b->shadow, addr, data);
}

static uint32_t rtl_read(void *ctx, uint32_t addr)
{
    struct rtl_bus *b = ctx;
    uint32_t v = bus_access(b->inst, 0, addr, 0);
    uint32_t m = ibsec_regmodel_read(b->shadow, addr);

    /* the model finishes commands at once: compare STATUS only once the RTL has too */
    if (addr == DRV_REG_STATUS && (v & DRV_STATUS_BUSY))
        return v;
    if (v != m) {
        char what[64];
        snprintf(what, sizeof what, "%s register %#x: RTL = model",
                 b->inst == DUT_SEAL ? "seal" : "open", (unsigned)addr);
        fail("%s (%#lx, %#lx)", what, v, m);
    } else {
        g_pass++;
    }
    return v;
}

/* Context i valid?  A read command (§3.6), STATUS.BUSY polled down (§2), CTX_RD_CFG. */
static int ctx_live(struct rtl_bus *b, unsigned i)
{
    unsigned n = 0;

    rtl_write(b, DRV_REG_CTX_CMD, i | (DRV_CTX_OP_READ << 16));
    while ((rtl_read(b, DRV_REG_STATUS) & DRV_STATUS_BUSY) && ++n < MAX_CYCLES)
        ;
    return (rtl_read(b, DRV_REG_CTX_RD_CFG) & DRV_CTX_RD_VALID) != 0;
}

/* ---- one packet through one RTL instance -------------------------------------------- */

/* Stream in[0..len) into instance inst (tuser = IB link) and collect its status entry
 * and, if delivered, its output.  Returns the reason; *out_len 0 if dropped. */
static unsigned rtl_packet(int inst, const uint8_t *in, size_t len, uint8_t *out, size_t cap,
                           size_t *out_len)
{
    const size_t bpb = 16u * dut_lanes();
    uint32_t data[4 * MAX_LANES], keep[(MAX_LANES + 1) / 2], odata[4 * MAX_LANES], okeep[(MAX_LANES + 1) / 2];
    size_t off = 0, olen = 0;
    struct dut_status st;
    int have_st = 0, out_done = 0, last = 0, user = 0;
    unsigned reason = 0;

    *out_len = 0;
    dut_set_out_ready(inst, 1);
    for (unsigned n = 0; n < MAX_CYCLES; n++) {
        int valid = off < len, taken;
        size_t k = len - off < bpb ? len - off : bpb;
        memset(data, 0, sizeof data);
        memset(keep, 0, sizeof keep);
        if (valid)
            for (size_t j = 0; j < k; j++) {
                data[j / 4] |= (uint32_t)in[off + j] << (8 * (j % 4));
                keep[j / 32] |= 1u << (j % 32);
            }
        dut_set_in(inst, valid, data, keep, valid && off + k == len, IBSEC_LINK_IB);
        dut_eval();
        taken = valid && dut_in_ready(inst);
        if (dut_out(inst, odata, okeep, &last, &user)) {
            for (size_t j = 0; j < bpb; j++)
                if (okeep[j / 32] >> (j % 32) & 1u) {
                    if (olen < cap)
                        out[olen] = (uint8_t)(odata[j / 4] >> (8 * (j % 4)));
                    olen++;
                }
            if (last)
                out_done = 1;
        }
        if (dut_status(inst, &st)) {
            have_st = 1;
            reason = st.reason;
        }
        tick();
        if (taken)
            off += k;
        if (have_st && (reason != IBSEC_R_OK || out_done))
            break;
    }
    dut_set_in(inst, 0, data, keep, 0, 0);
    dut_eval();
    check(have_st, "status entry for the packet", len, 0);
    if (reason == IBSEC_R_OK)
        *out_len = olen;
    return have_st ? reason : IBSEC_R_COUNT;
}

/* ---- traffic on an established connection ------------------------------------------- */

struct run {
    setup_traffic_stats model_dir;   /* CA 1 -> CA 0, model engines */
    unsigned long rtl_pkts, rtl_ok;
    unsigned packets;
    uint8_t  last_plain[IBSEC_MAX_PKT], last_wire[IBSEC_MAX_PKT]; /* the last packet CA 0 sent */
    size_t   last_plain_len, last_wire_len;
};

/* CA 0 -> CA 1: RTL seal (shadow: CA 0's model seal engine), RTL open (shadow: CA 1's). */
static void send_rtl(setup_sim *s, setup_conn *c0, uint32_t psn, size_t plen_req, struct run *r)
{
    static uint8_t plain[IBSEC_MAX_PKT], w_rtl[IBSEC_MAX_PKT], w_mod[IBSEC_MAX_PKT];
    static uint8_t o_rtl[IBSEC_MAX_PKT], o_mod[IBSEC_MAX_PKT];
    size_t plen = 0, wr = 0, wm = 0, orl = 0, om = 0;
    unsigned rs, ro;
    enum ibsec_reason ms, mo;

    if (setup_build_plain(s, 0, c0, psn, plen_req, plain, sizeof plain, &plen) != 0) {
        fail("%s (%lu, %lu)", "plain packet built", plen_req, 0);
        return;
    }
    r->rtl_pkts++;
    rs = rtl_packet(DUT_SEAL, plain, plen, w_rtl, sizeof w_rtl, &wr);
    ms = ibsec_seal(&s->ca[0].seal_e, IBSEC_LINK_IB, plain, plen, w_mod, sizeof w_mod, &wm, NULL);
    check(rs == (unsigned)ms, "RTL seal reason = model", rs, ms);
    check(rs == IBSEC_R_OK, "RTL seal delivers", rs, 0);
    check(wr == wm && memcmp(w_rtl, w_mod, wm) == 0, "RTL sealed packet = model's", wr, wm);
    if (rs != IBSEC_R_OK)
        return;
    ro = rtl_packet(DUT_OPEN, w_rtl, wr, o_rtl, sizeof o_rtl, &orl);
    mo = ibsec_open(&s->ca[1].open_e, IBSEC_LINK_IB, w_mod, wm, o_mod, sizeof o_mod, &om, NULL);
    check(ro == (unsigned)mo, "RTL open reason = model", ro, mo);
    check(ro == IBSEC_R_OK, "RTL open delivers", ro, 0);
    check(orl == plen && memcmp(o_rtl, plain, plen) == 0, "RTL opened packet = plain", orl, plen);
    r->rtl_ok += ro == IBSEC_R_OK && orl == plen && memcmp(o_rtl, plain, plen) == 0;
    memcpy(r->last_plain, plain, plen);
    r->last_plain_len = plen;
    memcpy(r->last_wire, w_rtl, wr);
    r->last_wire_len = wr;
}

/* After teardown: the last connection's plain packet is refused by the RTL seal instance
 * and its sealed packet by the RTL open instance, as by the model (no_context). */
static void after_teardown(setup_sim *s, struct run *r)
{
    static uint8_t out[IBSEC_MAX_PKT];
    size_t ol = 0;
    unsigned rs, ro;
    enum ibsec_reason ms, mo;

    if (r->last_plain_len == 0)
        return;
    rs = rtl_packet(DUT_SEAL, r->last_plain, r->last_plain_len, out, sizeof out, &ol);
    ms = ibsec_seal(&s->ca[0].seal_e, IBSEC_LINK_IB, r->last_plain, r->last_plain_len, out,
                    sizeof out, &ol, NULL);
    check(rs == IBSEC_R_NO_CONTEXT && (unsigned)ms == rs, "torn down: RTL seal refuses, no_context", rs, ms);
    ro = rtl_packet(DUT_OPEN, r->last_wire, r->last_wire_len, out, sizeof out, &ol);
    mo = ibsec_open(&s->ca[1].open_e, IBSEC_LINK_IB, r->last_wire, r->last_wire_len, out,
                    sizeof out, &ol, NULL);
    check(ro == IBSEC_R_NO_CONTEXT && (unsigned)mo == ro, "torn down: RTL open refuses, no_context", ro, mo);
}

static void on_established(setup_sim *s, unsigned ini, setup_conn *ci, unsigned rsp,
                           setup_conn *cr, void *arg)
{
    struct run *r = arg;
    setup_conn *c0 = ini == 0 ? ci : cr, *c1 = ini == 0 ? cr : ci;

    (void)rsp;
    check(c0->drv.live && c1->drv.live, "both sides programmed", c0->drv.live, c1->drv.live);
    for (unsigned k = 0; k < r->packets; k++) {
        size_t len = (size_t)((c0->local_comm_id * 97u + k * 61u) % 300u);
        send_rtl(s, c0, c0->local_psn + c0->pkts_sent++, len, r);
        setup_send_one(s, 1, c1, c1->local_psn + c1->pkts_sent++, (len * 7u) % 257u, &r->model_dir);
    }
}

/* The driver's refusals on the RTL: a command the engine refuses (registers.md §3.4 code 6,
 * then code 10) and a full key table, each leaving the RTL as it was (KEY_VALID, contexts);
 * CA 0's seal engine is the RTL instance, its open engine the model. */
static void driver_refusals(setup_sim *s, struct rtl_bus *bs)
{
    ibsec_drv_engine *seal = &s->ca[0].seal, *open = &s->ca[0].open;
    ibsec_drv_conn_cfg cfg;
    ibsec_drv_conn conn[DRV_MAX_KEY_SLOTS + 1];
    unsigned ok = 0, live = 0;

    memset(&cfg, 0, sizeof cfg);
    cfg.mode = IBSEC_MODE_STH_AEAD;
    cfg.sth_code = 0;                       /* refused: code 6 */
    cfg.key_len = 16;
    cfg.local_qpn = 0x77;
    cfg.remote_qpn = 0x88;
    check(ibsec_drv_conn_program(seal, open, &cfg, &conn[0]) == DRV_ERR_REFUSED,
          "RTL refuses sth-aead with STH code 0", seal->last_err_code, 6);
    check(seal->last_err_code == 6, "RTL ERR_CODE 6", seal->last_err_code, 6);
    check(rtl_read(bs, DRV_REG_KEY_VALID) == 0, "refused program leaves no key in the RTL", 0, 0);
    cfg.sth_code = 2;
    for (unsigned i = 0; i < seal->key_slots; i++) {
        cfg.local_qpn = 0x100 + i;
        cfg.remote_qpn = 0x200 + i;
        ok += ibsec_drv_conn_program(seal, open, &cfg, &conn[i]) == DRV_OK;
    }
    check(ok == seal->key_slots, "RTL key table filled", ok, seal->key_slots);
    cfg.local_qpn = 0x1FF;
    cfg.remote_qpn = 0x2FF;
    check(ibsec_drv_conn_program(seal, open, &cfg, &conn[seal->key_slots]) == DRV_ERR_NO_KEY_SLOT,
          "one more connection: no_key_slot", 0, 0);
    ibsec_drv_conn_teardown(seal, open, &conn[0]);
    cfg.remote_qpn = 0x201;                 /* conn[1]'s selector: refused, code 10 */
    check(ibsec_drv_conn_program(seal, open, &cfg, &conn[0]) == DRV_ERR_REFUSED &&
              seal->last_err_code == 10,
          "RTL refuses a duplicate selector (code 10)", seal->last_err_code, 10);
    check(rtl_read(bs, DRV_REG_KEY_VALID) == ((1u << seal->key_slots) - 2u),
          "the refusal left the other keys alone", rtl_read(bs, DRV_REG_KEY_VALID), 0);
    for (unsigned i = 1; i < seal->key_slots; i++)
        ibsec_drv_conn_teardown(seal, open, &conn[i]);
    check(rtl_read(bs, DRV_REG_KEY_VALID) == 0, "all torn down: no key in the RTL", 0, 0);
    for (unsigned i = 0; i < seal->ctx_slots; i++)
        live += ctx_live(bs, i);
    check(live == 0, "all torn down: no context in the RTL", live, 0);
}

int tb_engine_main(int argc, char **argv)
{
    static const struct { uint8_t mode, sth; } modes[4] = {
        { IBSEC_MODE_ICRC_MAC, 0 }, { IBSEC_MODE_STH_HDR, 2 }, { IBSEC_MODE_STH_PKT, 1 },
        { IBSEC_MODE_STH_AEAD, 2 },
    };
    unsigned n = 16, window = 4;
    struct run r;
    setup_sim s;
    ibsec_regmodel shadow_seal, shadow_open;
    struct rtl_bus bs = { DUT_SEAL, &shadow_seal }, bo = { DUT_OPEN, &shadow_open };
    ibsec_drv_bus seal_bus = { &bs, rtl_write, rtl_read }, open_bus = { &bo, rtl_write, rtl_read };
    setup_request *rq;

    memset(&r, 0, sizeof r);
    r.packets = 4;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--conns") == 0 && i + 1 < argc)
            n = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--window") == 0 && i + 1 < argc)
            window = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--packets") == 0 && i + 1 < argc)
            r.packets = (unsigned)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: Vtb [--conns N] [--window W] [--packets P]\n");
            return 2;
        }
    }
    /* reset both instances */
    dut_set_rst(1, 1, 1);
    for (int i = 0; i < 8; i++)
        tick();
    dut_set_rst(0, 0, 0);
    dut_set_out_ready(DUT_SEAL, 1);
    dut_set_out_ready(DUT_OPEN, 1);
    tick();

    if (setup_sim_init(&s, 2, 1000) != 0 || setup_distribute_keys(&s, 0x1234) != 0) {
        printf("setup-rtl: simulated subnet not built\n0 passed, 1 failed\n");
        return 1;
    }
    /* CA 0's seal engine and CA 1's open engine become the RTL instances; their model
     * engines, sized as the RTL's tables (CAPS), are the shadows */
    {
        uint32_t caps_s = bus_access(DUT_SEAL, 0, DRV_REG_CAPS, 0);
        uint32_t caps_o = bus_access(DUT_OPEN, 0, DRV_REG_CAPS, 0);
        ibsec_engine_free(&s.ca[0].seal_e);
        ibsec_engine_free(&s.ca[1].open_e);
        if (ibsec_engine_init(&s.ca[0].seal_e, caps_s & 0xFFFFu, caps_s >> 16, (int)dut_lanes()) != 0 ||
            ibsec_engine_init(&s.ca[1].open_e, caps_o & 0xFFFFu, caps_o >> 16, (int)dut_lanes()) != 0) {
            printf("setup-rtl: CAPS %#x / %#x\n0 passed, 1 failed\n", (unsigned)caps_s, (unsigned)caps_o);
            return 1;
        }
    }
    ibsec_regmodel_init(&shadow_seal, &s.ca[0].seal_e, false);
    ibsec_regmodel_init(&shadow_open, &s.ca[1].open_e, true);
    check(ibsec_drv_attach(&s.ca[0].seal, &seal_bus, false) == DRV_OK, "attach RTL seal", 0, 0);
    check(ibsec_drv_attach(&s.ca[1].open, &open_bus, true) == DRV_OK, "attach RTL open", 0, 0);
    printf("setup-rtl: RTL LANES = %u, seal %u key slots / %u contexts, open %u / %u\n",
           dut_lanes(), s.ca[0].seal.key_slots, s.ca[0].seal.ctx_slots, s.ca[1].open.key_slots,
           s.ca[1].open.ctx_slots);

    rq = calloc(n, sizeof *rq);
    for (unsigned i = 0; i < n; i++) {
        rq[i].ini = i % 2;
        rq[i].rsp = 1 - i % 2;
        rq[i].mode = modes[i % 4].mode;
        rq[i].sth_code = modes[i % 4].sth;
        rq[i].aes256 = (i / 4) % 2;
        rq[i].pkey = 0x1234;
    }
    s.on_established = on_established;
    s.hook_arg = &r;
    s.auto_teardown = true;
    setup_run(&s, rq, n, window);

    check(s.established == n, "connections established", s.established, n);
    check(s.failed == 0, "no setup failed", s.failed, 0);
    check(s.torn_down == n, "connections torn down", s.torn_down, n);
    check(r.rtl_ok == (unsigned long)n * r.packets, "packets through RTL seal and open", r.rtl_ok,
          (unsigned long)n * r.packets);
    check(r.model_dir.opened == (unsigned long)n * r.packets && r.model_dir.mismatched == 0,
          "packets the other way through the model", r.model_dir.opened, r.model_dir.mismatched);
    after_teardown(&s, &r);
    check(ibsec_drv_counter(&s.ca[0].seal, IBSEC_R_OK) == (unsigned long)n * r.packets,
          "RTL seal ok counter", ibsec_drv_counter(&s.ca[0].seal, IBSEC_R_OK), (unsigned long)n * r.packets);
    check(ibsec_drv_counter(&s.ca[1].open, IBSEC_R_OK) == (unsigned long)n * r.packets,
          "RTL open ok counter", ibsec_drv_counter(&s.ca[1].open, IBSEC_R_OK), (unsigned long)n * r.packets);
    check(rtl_read(&bs, DRV_REG_KEY_VALID) == 0 && rtl_read(&bo, DRV_REG_KEY_VALID) == 0,
          "no valid key left in the RTL", 0, 0);
    {
        unsigned live = 0;
        for (unsigned i = 0; i < s.ca[0].seal.ctx_slots; i++)
            live += ctx_live(&bs, i);
        for (unsigned i = 0; i < s.ca[1].open.ctx_slots; i++)
            live += ctx_live(&bo, i);
        check(live == 0, "no valid context left in the RTL", live, 0);
    }
    driver_refusals(&s, &bs);
    printf("setup-rtl: %u connections, window %u: %u established (%u requests issued again "
           "after a REJ for room), %lu packets through the RTL seal and open instances, %lu "
           "the other way through the model, %lu cycles\n",
           n, window, s.established, s.retried, r.rtl_ok, (unsigned long)r.model_dir.opened,
           g_cycles);
    setup_sim_free(&s);
    free(rq);
    dut_finish();
    printf("%lu passed, %lu failed\n", g_pass, g_fail);
    return g_fail == 0 ? 0 : 1;
}
