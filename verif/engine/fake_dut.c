/*
 * fake_dut.c — a stand-in for the Verilated tb_engine behind the interface of
 * tb_engine.h, built from the C model, used only to check the harness itself (target
 * engine-harness-selftest): its register block follows docs/registers.md (bus timing,
 * held staging writes while a command runs, commands with CMD_DECIDED, LO/HI latch,
 * counters, context read-back), each instance decides a packet when its last beat is
 * taken (ibsec_seal / ibsec_open on its own model engine configured only through the
 * registers), reports the status a few cycles later, sends the output beats with the
 * harness's back-pressure and takes no input while a command runs or too many packets
 * wait. It proves nothing about the RTL: it lets the harness's traffic, register
 * driver, boundary handling, reset handling and comparisons be exercised without it.
 * A harness that fails against this stand-in is wrong; built with -DFAKE_BUG the
 * stand-in corrupts some outputs and statuses, and with -DFAKE_CFG_BUG it misreports the
 * packet boundary of a CONFIG write: a harness that passes either is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibsec.h"
#include "tb_engine.h"
#include "tb_regs.h"
#include "tb_traffic.h"

#ifndef FAKE_LANES
#define FAKE_LANES 4
#endif
#define BPB          (16u * FAKE_LANES)
#define ST_DELAY     5u       /* cycles from the last beat to the status entry */
#define CMD_CYCLES   12u      /* a command keeps STATUS.BUSY this long */
#define OUT_QUEUE    6u       /* packets waiting to leave before the input stalls */
#define MAX_FRAME    (TB_MAX_FRAME + BPB)

struct fake_out {
    uint8_t bytes[MAX_FRAME];
    size_t  len, off;
    int     link;
};

struct fake_inst {
    int          open;
    ibsec_engine e;
    /* input */
    uint8_t      in[MAX_FRAME];
    size_t       in_len;
    int          in_link;
    int          in_valid, in_last, in_user;
    uint32_t     in_data[4 * FAKE_LANES], in_keep[(FAKE_LANES + 1) / 2];
    /* outputs and status */
    struct fake_out outq[16];
    unsigned     out_head, out_n;
    int          out_ready;
    struct { struct dut_status s; unsigned long due; } st[64];
    unsigned     st_head, st_n;
    /* registers */
    int          req, we;
    unsigned     addr;
    uint32_t     wdata;
    int          ack, ack_gap;
    uint32_t     rdata;
    uint32_t     stage[0x200 / 4];    /* 0x000 .. 0x1FF */
    uint32_t     status, latch;
    unsigned     busy;
    uint64_t     decided, cmd_decided;
    uint32_t     ctx_rd[TB_CTX_RD_WORDS];
    int          rst;
};

static struct fake_inst F[DUT_COUNT];
static unsigned long cycle;
static int rst_both;

static void fake_reset(struct fake_inst *f)
{
    int open = f->open;
    if (f->e.keys)
        ibsec_engine_free(&f->e);
    memset(f, 0, sizeof *f);
    f->open = open;
    ibsec_engine_init(&f->e, TB_KEY_SLOTS, TB_CTX_SLOTS, FAKE_LANES);
}

unsigned dut_lanes(void) { return FAKE_LANES; }

void dut_set_rst(int both, int seal, int open)
{
    rst_both = both;
    F[DUT_SEAL].rst = seal;
    F[DUT_OPEN].rst = open;
}

void dut_set_in(int inst, int valid, const uint32_t *data, const uint32_t *keep, int last, int user)
{
    struct fake_inst *f = &F[inst];
    f->in_valid = valid;
    memcpy(f->in_data, data, sizeof f->in_data);
    memcpy(f->in_keep, keep, sizeof f->in_keep);
    f->in_last = last;
    f->in_user = user;
}

static int in_ready(const struct fake_inst *f)
{
    return !f->busy && f->out_n < OUT_QUEUE && f->st_n < 32;
}

int dut_in_ready(int inst) { return in_ready(&F[inst]); }

void dut_set_out_ready(int inst, int ready) { F[inst].out_ready = ready; }

int dut_out(int inst, uint32_t *data, uint32_t *keep, int *last, int *user)
{
    struct fake_inst *f = &F[inst];
    if (f->out_n == 0)
        return 0;
    struct fake_out *o = &f->outq[f->out_head];
    size_t n = o->len - o->off < BPB ? o->len - o->off : BPB;
    memset(data, 0, 4 * 4 * FAKE_LANES);
    memset(keep, 0, 4 * ((FAKE_LANES + 1) / 2));
    for (size_t j = 0; j < n; j++) {
        data[j / 4] |= (uint32_t)o->bytes[o->off + j] << (8 * (j % 4));
        keep[j / 32] |= 1u << (j % 32);
    }
    *last = o->off + n == o->len;
    *user = o->link;
    return 1;
}

int dut_status(int inst, struct dut_status *s)
{
    struct fake_inst *f = &F[inst];
    if (f->st_n == 0 || f->st[f->st_head].due > cycle)
        return 0;
    *s = f->st[f->st_head].s;
    return 1;
}

void dut_set_reg(int inst, int req, int we, unsigned addr, uint32_t wdata)
{
    struct fake_inst *f = &F[inst];
    f->req = req;
    f->we = we;
    f->addr = addr & 0xFFCu;
    f->wdata = wdata;
}

int dut_reg_ack(int inst, uint32_t *rdata)
{
    *rdata = F[inst].rdata;
    return F[inst].ack;
}

/* the stand-in has no rings */
int dut_ring_bad(int inst)
{
    (void)inst;
    return 0;
}

int dut_irq(int inst)
{
    for (unsigned i = 0; i < F[inst].e.n_ctx; i++)
        if (F[inst].e.ctx[i].valid && F[inst].e.ctx[i].alert)
            return 1;
    return 0;
}

void dut_eval(void) {}

static uint32_t be32(uint32_t w, uint8_t *b)
{
    b[0] = (uint8_t)(w >> 24); b[1] = (uint8_t)(w >> 16); b[2] = (uint8_t)(w >> 8); b[3] = (uint8_t)w;
    return w;
}

/* A command (CONFIG, KEY_CMD, CTX_CMD): takes effect now, at packet boundary `decided`. */
static void command(struct fake_inst *f, unsigned addr, uint32_t v)
{
    uint32_t err = 0;
    if (addr == IBSEC_REG_CONFIG) {
        static const enum ibsec_mgmt_policy pol[4] = { IBSEC_MGMT_CONTEXT, IBSEC_MGMT_BYPASS,
                                                       IBSEC_MGMT_DROP, IBSEC_MGMT_DROP };
        f->e.allow_plain = IBSEC_GET(v, IBSEC_CONFIG_ALLOW_PLAIN);
        f->e.mask_mf = IBSEC_GET(v, IBSEC_CONFIG_MASK_MF);
        f->e.mgmt[IBSEC_MGMT_QP0] = pol[IBSEC_GET(v, IBSEC_CONFIG_MGMT_QP0)];
        f->e.mgmt[IBSEC_MGMT_QP1] = pol[IBSEC_GET(v, IBSEC_CONFIG_MGMT_QP1)];
        f->e.mgmt[IBSEC_MGMT_MCAST] = pol[IBSEC_GET(v, IBSEC_CONFIG_MGMT_PERM)];
    } else if (addr == IBSEC_REG_KEY_CMD) {
        unsigned slot = IBSEC_GET(v, IBSEC_KEY_CMD_SLOT), op = IBSEC_GET(v, IBSEC_KEY_CMD_OP);
        uint8_t key[32], salt[4];
        for (unsigned i = 0; i < 8; i++)
            be32(f->stage[IBSEC_REG_KEY_DATA(i) / 4], key + 4 * i);
        be32(f->stage[IBSEC_REG_KEY_SALT / 4], salt);
        if (slot >= TB_KEY_SLOTS)
            err = 1;
        else if (op == IBSEC_KEY_CMD_OP_INSTALL || op == IBSEC_KEY_CMD_OP_ZEROIZE) {
            if (op == IBSEC_KEY_CMD_OP_INSTALL)
                ibsec_key_set(&f->e, slot, key, IBSEC_GET(v, IBSEC_KEY_CMD_AES256) ? 32 : 16, salt);
            else
                ibsec_key_clear(&f->e, slot); /* zeroize: a clear for the packets */
            /* as the block: the staging is cleared once an install or zeroize completes */
            for (unsigned i = 0; i < 8; i++)
                f->stage[IBSEC_REG_KEY_DATA(i) / 4] = 0;
            f->stage[IBSEC_REG_KEY_SALT / 4] = 0;
        }
        else if (op == IBSEC_KEY_CMD_OP_CLEAR)
            ibsec_key_clear(&f->e, slot);
        else
            err = 2;
    } else if (addr == IBSEC_REG_CTX_CMD) {
        unsigned idx = IBSEC_GET(v, IBSEC_CTX_CMD_INDEX), op = IBSEC_GET(v, IBSEC_CTX_CMD_OP);
        uint32_t cfgw = f->stage[IBSEC_REG_CTX_CFG / 4];
        ibsec_ctx_cfg c;
        memset(&c, 0, sizeof c);
        c.sel = (enum ibsec_sel)(cfgw & 1u);
        c.mode = (enum ibsec_mode)IBSEC_GET(cfgw, IBSEC_CTX_CFG_MODE);
        c.sth_code = IBSEC_GET(cfgw, IBSEC_CTX_CFG_STH_CODE);
        c.dir = IBSEC_GET(cfgw, IBSEC_CTX_CFG_DIR);
        c.key = IBSEC_GET(cfgw, IBSEC_CTX_CFG_KEY);
        c.match = f->stage[IBSEC_REG_CTX_MATCH / 4];
        c.tx_next = (uint64_t)f->stage[IBSEC_REG_CTX_TX_NEXT_HI / 4] << 32 | f->stage[IBSEC_REG_CTX_TX_NEXT_LO / 4];
        c.rx_next = (uint64_t)f->stage[IBSEC_REG_CTX_RX_NEXT_HI / 4] << 32 | f->stage[IBSEC_REG_CTX_RX_NEXT_LO / 4];
        c.alert_threshold = f->stage[IBSEC_REG_CTX_ALERT_THRESH / 4];
        if (idx >= TB_CTX_SLOTS)
            err = 1;
        else if (op == IBSEC_CTX_CMD_OP_WRITE)
            err = ibsec_ctx_set(&f->e, idx, &c, NULL) ? 10 : 0;
        else if (op == IBSEC_CTX_CMD_OP_CLEAR)
            ibsec_ctx_clear(&f->e, idx);
        else if (op == 3)
            ibsec_ctx_clear_alert(&f->e, idx);
        else if (op == IBSEC_CTX_CMD_OP_READ) {
            const ibsec_ctx *x = &f->e.ctx[idx];
            memset(f->ctx_rd, 0, sizeof f->ctx_rd);
            if (x->valid) {
                f->ctx_rd[0] = IBSEC_CTX_RD_CFG_VALID_MASK | IBSEC_SET(IBSEC_CTX_RD_CFG_SEL, x->cfg.sel) |
                               IBSEC_SET(IBSEC_CTX_RD_CFG_MODE, x->cfg.mode) |
                               IBSEC_SET(IBSEC_CTX_RD_CFG_STH_CODE, x->cfg.sth_code) |
                               IBSEC_SET(IBSEC_CTX_RD_CFG_DIR, x->cfg.dir) | IBSEC_SET(IBSEC_CTX_RD_CFG_KEY, x->cfg.key);
                f->ctx_rd[1] = x->cfg.match;
                f->ctx_rd[2] = (uint32_t)x->tx_next;  f->ctx_rd[3] = (uint32_t)(x->tx_next >> 32);
                f->ctx_rd[4] = (uint32_t)x->rx_next;  f->ctx_rd[5] = (uint32_t)(x->rx_next >> 32);
                f->ctx_rd[6] = (uint32_t)x->rx_bitmap; f->ctx_rd[7] = (uint32_t)(x->rx_bitmap >> 32);
                f->ctx_rd[8] = x->fail_consec;
                f->ctx_rd[9] = x->alert;
                f->ctx_rd[10] = x->alert_count;
                f->ctx_rd[11] = x->cfg.alert_threshold;
            }
        } else
            err = 2;
    }
    f->cmd_decided = f->decided;
#ifdef FAKE_CFG_BUG
    /* the self-test's broken variant for CONFIG during traffic: a CONFIG write is reported
       one packet earlier than it took effect (the packet before it keeps the old value) */
    if (addr == IBSEC_REG_CONFIG && f->decided > 0)
        f->cmd_decided = f->decided - 1;
#endif
    f->status = err ? (IBSEC_STATUS_ERR_MASK | IBSEC_SET(IBSEC_STATUS_ERR_CODE, err)) : 0;
    f->busy = CMD_CYCLES;
}

static uint32_t reg_read(struct fake_inst *f, unsigned a)
{
    if (a == IBSEC_REG_ID) return IBSEC_ID_VALUE_RESET;
    if (a == IBSEC_REG_VERSION)
        return IBSEC_SET(IBSEC_VERSION_OPEN, f->open) | IBSEC_SET(IBSEC_VERSION_MAJOR, IBSEC_VERSION_MAJOR_RESET);
    if (a == IBSEC_REG_CAPS)
        return IBSEC_SET(IBSEC_CAPS_CTX_SLOTS, TB_CTX_SLOTS) | IBSEC_SET(IBSEC_CAPS_KEY_SLOTS, TB_KEY_SLOTS);
    if (a == IBSEC_REG_STATUS) return f->status | (f->busy ? IBSEC_STATUS_BUSY_MASK : 0);
    if (a == IBSEC_REG_DECIDED_LO) { f->latch = (uint32_t)(f->decided >> 32); return (uint32_t)f->decided; }
    if (a == IBSEC_REG_CMD_DECIDED_LO) { f->latch = (uint32_t)(f->cmd_decided >> 32); return (uint32_t)f->cmd_decided; }
    if (a == IBSEC_REG_DECIDED_HI || a == IBSEC_REG_CMD_DECIDED_HI) return f->latch;
    if (a >= IBSEC_REG_CTX_RD_CFG && a < IBSEC_REG_CTX_RD_CFG + 4 * TB_CTX_RD_WORDS) return f->ctx_rd[(a - IBSEC_REG_CTX_RD_CFG) / 4];
    if (a >= IBSEC_REG_CNT_LO(0) && a < IBSEC_REG_CNT_LO(IBSEC_REG_CNT_LO_COUNT)) {
        unsigned r = (a - IBSEC_REG_CNT_LO(0)) / 8;
        uint64_t c = r < IBSEC_R_NOSPACE ? f->e.count[f->open][r] : 0;
        if ((a & 4u) == 0) { f->latch = (uint32_t)(c >> 32); return (uint32_t)c; }
        return f->latch;
    }
    if (a < 0x200) return f->stage[a / 4];
    return 0;
}

static void step_regs(struct fake_inst *f)
{
    if (f->ack) {               /* the ack cycle: the request is ignored */
        f->ack = 0;
        return;
    }
    if (!f->req)
        return;
    bool staging = f->we && (ibsec_regs_decode(f->addr) & IBSEC_DEC_STAGED);
    if (staging && f->busy)
        return;                 /* held until the command finishes */
    f->ack = 1;
    if (!f->we) {
        f->rdata = reg_read(f, f->addr);
        return;
    }
    f->rdata = 0;
    if (f->addr == IBSEC_REG_CONFIG || f->addr == IBSEC_REG_KEY_CMD || f->addr == IBSEC_REG_CTX_CMD)
        command(f, f->addr, f->wdata);
    else if (f->addr == IBSEC_REG_CNT_CTRL && (f->wdata & 1u))
        ibsec_engine_clear_counters(&f->e);
    if (f->addr < 0x200)
        f->stage[f->addr / 4] = f->wdata;
}

static void decide(struct fake_inst *f)
{
    static uint8_t out[TB_MAX_FRAME];
    ibsec_verdict v;
    size_t n = 0;
    if (f->open)
        ibsec_open(&f->e, (enum ibsec_link)f->in_link, f->in, f->in_len, out, sizeof out, &n, &v);
    else
        ibsec_seal(&f->e, (enum ibsec_link)f->in_link, f->in, f->in_len, out, sizeof out, &n, &v);
    f->decided++;
    unsigned k = (f->st_head + f->st_n++) % 64u;
    f->st[k].s.reason = v.reason;
    f->st[k].s.ctx_hit = v.ctx >= 0;
    f->st[k].s.ctx = v.ctx >= 0 ? (unsigned)v.ctx : 0;
    f->st[k].s.mode = v.mode;
    f->st[k].s.epsn = v.epsn;
    f->st[k].s.alert = v.alert_raised;
    unsigned long due = cycle + ST_DELAY;
    if (f->st_n > 1) {
        unsigned prev = (k + 63u) % 64u;
        if (f->st[prev].due >= due)
            due = f->st[prev].due + 1;
    }
    f->st[k].due = due;
#ifdef FAKE_BUG
    /* the self-test's broken variant: every 50th decision corrupts one output byte, and
       the status of every 70th packet names the wrong reason */
    if (f->decided % 50u == 0 && n > 20)
        out[n / 2] ^= 0x10;
    if (f->decided % 70u == 0)
        f->st[k].s.reason ^= 1u;
#endif
    if (v.reason == IBSEC_R_OK) {
        struct fake_out *o = &f->outq[(f->out_head + f->out_n++) % 16u];
        memcpy(o->bytes, out, n);
        o->len = n;
        o->off = 0;
        o->link = f->in_link;
    }
}

void dut_tick(void)
{
    for (int i = 0; i < DUT_COUNT; i++) {
        struct fake_inst *f = &F[i];
        if (rst_both || f->rst) {
            fake_reset(f);
            continue;
        }
        /* the transfers of this edge, with the values seen before it */
        int in_x = f->in_valid && in_ready(f);
        int st_x = f->st_n && f->st[f->st_head].due <= cycle;
        int out_x = f->out_n && f->out_ready;
        step_regs(f);
        if (f->busy)
            f->busy--;
        if (st_x) {
            f->st_head = (f->st_head + 1) % 64u;
            f->st_n--;
        }
        if (out_x) {
            struct fake_out *o = &f->outq[f->out_head];
            o->off += o->len - o->off < BPB ? o->len - o->off : BPB;
            if (o->off == o->len) {
                f->out_head = (f->out_head + 1) % 16u;
                f->out_n--;
            }
        }
        if (in_x) {
            if (f->in_len == 0)
                f->in_link = f->in_user;
            for (unsigned j = 0; j < BPB; j++)
                if (f->in_keep[j / 32] >> (j % 32) & 1u) {
                    if (f->in_len < sizeof f->in)
                        f->in[f->in_len] = (uint8_t)(f->in_data[j / 4] >> (8 * (j % 4)));
                    f->in_len++;
                }
            if (f->in_last) {
                if (f->in_len > TB_MAX_FRAME)
                    f->in_len = TB_MAX_FRAME;
                decide(f);
                f->in_len = 0;
            }
        }
    }
    cycle++;
}

void dut_finish(void)
{
    for (int i = 0; i < DUT_COUNT; i++)
        ibsec_engine_free(&F[i].e);
}

int main(int argc, char **argv)
{
    F[DUT_SEAL].open = 0;
    F[DUT_OPEN].open = 1;
    fake_reset(&F[DUT_SEAL]);
    fake_reset(&F[DUT_OPEN]);
    return tb_engine_main(argc, argv);
}
