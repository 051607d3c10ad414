/*
 * tb_axil.c — C harness of the AXI4-Lite register bench: the seal engine's, the SIF filter's
 * and the DDPM marker's AXI4-Lite slaves (ibsec_seal_axil, sif_filter_axil,
 * ddpm_marker_axil; top verif/axil/tb_axil.v), each driven by its own master at once.
 *
 * What the masters do
 *   Each runs a queue of register accesses, legal and illegal: misaligned addresses, addresses
 *   without a register, writes to read-only registers, writes with WSTRB other than 4'b1111,
 *   and for the engine the register sequences of docs/registers.md §3 (key install and clear,
 *   context write, read-back and clear, CONFIG, refused commands), sometimes followed by a
 *   STATUS poll, sometimes not (the next staging writes are then held, §1). The address and
 *   data of a write go out independently, each after a random delay (either may come first),
 *   and are held until taken; BREADY and RREADY are random: the chances change every phase
 *   of PHASE cycles, from always ready to rarely ready, and so do the delays. A read whose
 *   answer cannot depend on a write (a constant register, an address without a register) is
 *   sometimes issued while a write is outstanding.
 *
 * Checked
 *   Every response: OKAY or SLVERR as docs/registers.md §1 says (from the generated decode
 *   of the map, cmodel/<map>_map.h), RDATA of a refused read 0; every read against a register
 *   model: the engine's is the driver's model ibsec_regmodel (cmodel/setup/, on the C model's
 *   tables), which applies a command at once, so while a command runs (after its write's
 *   response, until a STATUS read shows BUSY = 0) only registers a command cannot change are
 *   read; the SIF filter's is cmodel/sif.c's port (SM writes by ibsec_sif_install_invalid;
 *   no traffic, a quiet time longer than the run) and shadow copies of the configuration;
 *   the DDPM marker's, shadow copies (statistics 0 without traffic). A refused write must
 *   change nothing (later reads). AXI4-Lite rules: BVALID / RVALID only for an outstanding
 *   access, held with BRESP, RRESP and RDATA stable until taken; every access completes
 *   within STALL_LIMIT cycles.
 *
 * Usage: Vtb [--seed N] [--ops N]   (N accesses per slave)
 * Last line: "axil: N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibsec.h"
#include "ibsec_drv.h"
#include "ibsec_regmodel.h"
#include "ibsec_regs_map.h"
#include "sif.h"
#include "sif_filter_regs_map.h"
#include "ddpm_marker_regs_map.h"
#include "tb_axil.h"
#include "tb_util.h"

#define KEY_SLOTS    4u        /* tb_axil.v's engine tables */
#define CTX_SLOTS    8u
#define OPQ          64u       /* queued accesses per master */
#define PHASE        400u      /* cycles between changes of the channel timing */
#define STALL_LIMIT  20000u    /* cycles an access may take (a key install is held ~100) */
#define RESP_OKAY    0u
#define RESP_SLVERR  2u
#define QUIET_MIN    (1u << 24) /* SIF quiet time: longer than any run */

typedef struct {
    int      we;
    uint32_t addr, wdata, wstrb;
    int      poll;             /* a STATUS read repeated while BUSY */
} op;

typedef struct {
    int      port;
    /* queue */
    op       q[OPQ];
    unsigned head, count;
    /* the write and the read in flight */
    int      w_act, aw_done, w_done;
    op       w_op;
    unsigned aw_delay, w_delay;
    uint64_t w_since;
    int      r_act, ar_done;
    op       r_op;
    unsigned ar_delay;
    uint64_t r_since;
    /* channel timing of this phase: percent chances */
    unsigned p_bready, p_rready, max_delay;
    /* last cycle's response outputs (stable while not taken) */
    tb_axil_out prev;
    int      prev_b_wait, prev_r_wait;
    /* counts */
    unsigned long done, refused, held_polls;
} master;

static struct {
    tb_rng    rng;
    tb_result res;
    uint64_t  cycle;
    master    m[TB_PORTS];
    /* engine model */
    ibsec_engine   eng;
    ibsec_regmodel rm;
    int            cmd_pending;   /* a command's write was answered; STATUS not yet idle */
    /* SIF model */
    struct ibsec_sif_port sif;
    uint32_t  sif_shadow[1024];
    unsigned  sif_result;
    /* DDPM model */
    uint32_t  ddpm_shadow[1024];
} S;

static unsigned rnd(unsigned lo, unsigned hi) { return tb_rand_range(&S.rng, lo, hi); }
static int chance(unsigned pct) { return tb_chance(&S.rng, pct); }

/* ---- the maps: decode and register models ------------------------------------------------ */

static unsigned decode(int port, uint32_t a)
{
    if (port == TB_PORT_ENGINE)
        return ibsec_regs_decode(a);
    if (port == TB_PORT_SIF)   /* the same flag values in every generated header */
        return sif_regs_decode(a);
    return ddpm_regs_decode(a);
}

/* the response the slave must give (§1) */
static unsigned expect_resp(const master *m, const op *o)
{
    unsigned d = decode(m->port, o->addr);
    if ((o->addr & 3u) || !(d & IBSEC_DEC_MAPPED))
        return RESP_SLVERR;
    if (o->we && (!(d & IBSEC_DEC_WRITABLE) || o->wstrb != 0xFu))
        return RESP_SLVERR;
    return RESP_OKAY;
}

/* a read the engine's commands cannot change (allowed while one runs) */
static int engine_stable_read(uint32_t a)
{
    unsigned d = ibsec_regs_decode(a);
    if (a == IBSEC_REG_CONFIG || a == IBSEC_REG_STATUS || a == IBSEC_REG_KEY_VALID ||
        a == IBSEC_REG_KEY_AES256 || (a >= IBSEC_REG_CTX_RD_CFG && a <= IBSEC_REG_CTX_RD_ALERT_THRESH))
        return 0;
    return (d & IBSEC_DEC_MAPPED) != 0 || (a & 3u) != 0 || d == 0;
}

/* a read no write can change: a constant register or no register at all */
static int const_read(int port, uint32_t a)
{
    if ((a & 3u) || decode(port, a) == 0)
        return 1;
    switch (port) {
    case TB_PORT_ENGINE: return a == IBSEC_REG_ID || a == IBSEC_REG_VERSION || a == IBSEC_REG_CAPS;
    case TB_PORT_SIF:    return a == SIF_REG_ID || a == SIF_REG_CAPS;
    default:             return a == DDPM_REG_ID;
    }
}

/* a write the slave performed: the model follows */
static void model_write(int port, uint32_t a, uint32_t v)
{
    if (port == TB_PORT_ENGINE) {
        ibsec_regmodel_write(&S.rm, a, v);
        if (ibsec_regs_decode(a) & IBSEC_DEC_COMMAND)
            S.cmd_pending = 1;
    } else if (port == TB_PORT_SIF) {
        if (a == SIF_REG_INSTALL) {
            S.sif.n_valid = S.sif_shadow[SIF_REG_N_VALID / 4];
            S.sif.quiet_ticks = S.sif_shadow[SIF_REG_QUIET_TICKS / 4];
            S.sif_result = ibsec_sif_install_invalid(&S.sif, (uint16_t)SIF_GET(v, SIF_INSTALL_PKEY));
        } else {
            S.sif_shadow[a / 4] = v & sif_regs_bits(a);
        }
    } else {
        S.ddpm_shadow[a / 4] = v & ddpm_regs_bits(a);
    }
}

/* check a read the slave answered with OKAY */
static void model_read(int port, uint32_t a, uint32_t got)
{
    char what[96];
    uint32_t exp = 0, mask = 0xFFFFFFFFu;

    snprintf(what, sizeof what, "%s read 0x%03x", port == TB_PORT_ENGINE ? "engine" :
             port == TB_PORT_SIF ? "sif" : "ddpm", (unsigned)a);
    if (port == TB_PORT_ENGINE) {
        if (a == IBSEC_REG_STATUS && S.cmd_pending) {
            if (got & IBSEC_STATUS_BUSY_MASK) {
                mask = IBSEC_STATUS_BUSY_MASK | IBSEC_STATUS_ALERT_MASK;
                exp = IBSEC_STATUS_BUSY_MASK;
            } else {
                S.cmd_pending = 0;
                exp = ibsec_regmodel_read(&S.rm, a);
            }
        } else {
            exp = ibsec_regmodel_read(&S.rm, a);
        }
    } else if (port == TB_PORT_SIF) {
        if (a == SIF_REG_ID)
            exp = SIF_ID_VALUE_RESET;
        else if (a == SIF_REG_CAPS)
            exp = SIF_SET(SIF_CAPS_VALID_MAX, SIF_CAPS_VALID_MAX_RESET) |
                  SIF_SET(SIF_CAPS_INVALID_MAX, SIF_CAPS_INVALID_MAX_RESET);
        else if (a == SIF_REG_INSTALL_RESULT)
            exp = SIF_SET(SIF_INSTALL_RESULT_OUTCOME, S.sif_result);
        else if (a == SIF_REG_STATE)
            exp = SIF_SET(SIF_STATE_FILTERING, S.sif.filtering) |
                  SIF_SET(SIF_STATE_USE_VALID_TABLE, S.sif.use_valid_table) |
                  SIF_SET(SIF_STATE_N_INVALID, S.sif.n_invalid);
        else if (a == SIF_REG_QUIET_LEFT) {
            /* counts down from the quiet time of the last restart: only bounded here */
            if (!S.sif.filtering || got > S.sif.quiet_ticks || got + S.cycle < S.sif.quiet_ticks)
                tb_fail(&S.res, "%s: QUIET_LEFT %u outside (0, %u] while filtering %d", what,
                        (unsigned)got, (unsigned)S.sif.quiet_ticks, S.sif.filtering);
            else
                tb_pass(&S.res);
            return;
        } else if (a >= SIF_REG_INVALID_KEY(0) && a < SIF_REG_INVALID_KEY(SIF_REG_INVALID_KEY_COUNT)) {
            unsigned i = (a - SIF_REG_INVALID_KEY(0)) / 4;
            if (i >= S.sif.n_invalid)
                return;   /* an entry not in use: its content is not specified */
            exp = S.sif.invalid[i];
        } else if ((decode(port, a) & IBSEC_DEC_WRITABLE))
            exp = S.sif_shadow[a / 4];
        else
            exp = 0;      /* statistics: no traffic */
    } else {
        if (a == DDPM_REG_ID)
            exp = DDPM_ID_VALUE_RESET;
        else
            exp = S.ddpm_shadow[a / 4];   /* the configuration; statistics 0 */
    }
    tb_check_u64(&S.res, what, exp & mask, got & mask);
}

/* ---- access generators ------------------------------------------------------------------- */

static void push(master *m, int we, uint32_t addr, uint32_t wdata, int poll)
{
    if (m->count == OPQ)
        return;
    op *o = &m->q[(m->head + m->count) % OPQ];
    o->we = we;
    o->addr = addr;
    o->wdata = wdata;
    o->wstrb = 0xFu;
    o->poll = poll;
    m->count++;
}

static void push_wr(master *m, uint32_t a, uint32_t v) { push(m, 1, a, v, 0); }
static void push_rd(master *m, uint32_t a) { push(m, 0, a, 0, 0); }

/* an illegal access: misaligned, no register, read-only, partial strobes */
static void push_illegal(master *m)
{
    uint32_t a;
    unsigned k = rnd(0, 3), d;
    do {
        a = rnd(0, 0x3FFu) * 4u;
        d = decode(m->port, a);
    } while (k == 1 ? d != 0 :                                             /* no register */
             k == 2 ? !(d & IBSEC_DEC_MAPPED) || (d & IBSEC_DEC_WRITABLE) : /* read-only */
             k == 3 ? !(d & IBSEC_DEC_WRITABLE) : 0);                      /* writable */
    if (k == 0)
        a |= rnd(1, 3);                                                    /* misaligned */
    push(m, chance(50) || k >= 2, a, tb_rand32(&S.rng), 0);
    if (k == 3)                                                            /* partial strobes */
        m->q[(m->head + m->count - 1) % OPQ].wstrb = rnd(0, 14);
}

static void push_status_poll(master *m) { push(m, 0, IBSEC_REG_STATUS, 0, 1); }

static void gen_engine(master *m)
{
    unsigned k = rnd(0, 99);
    if (k < 15) {                               /* key install */
        for (unsigned i = 0; i < 8; i++)
            push_wr(m, IBSEC_REG_KEY_DATA(i), tb_rand32(&S.rng));
        push_wr(m, IBSEC_REG_KEY_SALT, tb_rand32(&S.rng));
        push_wr(m, IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_SLOT, rnd(0, KEY_SLOTS)) |
                IBSEC_SET(IBSEC_KEY_CMD_AES256, rnd(0, 1)) |
                IBSEC_SET(IBSEC_KEY_CMD_OP, chance(85) ? IBSEC_KEY_CMD_OP_INSTALL : rnd(0, 3)) |
                (chance(10) ? tb_rand32(&S.rng) & ~IBSEC_KEY_CMD_BITS : 0));
    } else if (k < 22) {                        /* key clear or zeroize */
        push_wr(m, IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_SLOT, rnd(0, KEY_SLOTS)) |
                IBSEC_SET(IBSEC_KEY_CMD_OP, chance(50) ? IBSEC_KEY_CMD_OP_CLEAR : IBSEC_KEY_CMD_OP_ZEROIZE));
    } else if (k < 40) {                        /* context write */
        unsigned mode = chance(90) ? rnd(0, 4) : rnd(5, 7);
        unsigned sth = mode >= 2 && mode <= 4 ? (chance(90) ? rnd(1, 2) : rnd(0, 7)) : (chance(90) ? 0 : rnd(1, 7));
        unsigned sel = rnd(0, 1);
        uint32_t match = sel ? (chance(90) ? rnd(0, 7) : 0x8000u + rnd(0, 3)) : (chance(90) ? rnd(0, 7) : 0x1000000u);
        push_wr(m, IBSEC_REG_CTX_MATCH, match);
        push_wr(m, IBSEC_REG_CTX_CFG, IBSEC_SET(IBSEC_CTX_CFG_SEL, sel) | IBSEC_SET(IBSEC_CTX_CFG_MODE, mode) |
                IBSEC_SET(IBSEC_CTX_CFG_STH_CODE, sth) | IBSEC_SET(IBSEC_CTX_CFG_DIR, rnd(0, 1)) |
                IBSEC_SET(IBSEC_CTX_CFG_KEY, rnd(0, KEY_SLOTS)) |
                (chance(10) ? tb_rand32(&S.rng) & ~IBSEC_CTX_CFG_BITS : 0));
        push_wr(m, IBSEC_REG_CTX_TX_NEXT_LO, tb_rand32(&S.rng));
        push_wr(m, IBSEC_REG_CTX_TX_NEXT_HI, tb_rand32(&S.rng) & (chance(90) ? 0x7FFFFFFFu : ~0u));
        push_wr(m, IBSEC_REG_CTX_RX_NEXT_LO, tb_rand32(&S.rng));
        push_wr(m, IBSEC_REG_CTX_RX_NEXT_HI, tb_rand32(&S.rng) & 0x7FFFFFFFu);
        push_wr(m, IBSEC_REG_CTX_ALERT_THRESH, rnd(0, 9));
        push_wr(m, IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_INDEX, rnd(0, CTX_SLOTS)) |
                IBSEC_SET(IBSEC_CTX_CMD_OP, chance(90) ? IBSEC_CTX_CMD_OP_WRITE : rnd(0, 15)));
    } else if (k < 50) {                        /* context read-back */
        push_wr(m, IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_INDEX, rnd(0, CTX_SLOTS - 1)) |
                IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_READ));
        push_status_poll(m);
        for (uint32_t a = IBSEC_REG_CTX_RD_CFG; a <= IBSEC_REG_CTX_RD_ALERT_THRESH; a += 4)
            push_rd(m, a);
        return;
    } else if (k < 56) {                        /* context clear / clear alert */
        push_wr(m, IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_INDEX, rnd(0, CTX_SLOTS - 1)) |
                IBSEC_SET(IBSEC_CTX_CMD_OP, rnd(2, 3)));
    } else if (k < 62) {                        /* CONFIG */
        push_wr(m, IBSEC_REG_CONFIG, rnd(0, 3) | (chance(10) ? tb_rand32(&S.rng) : 0));
    } else if (k < 64) {
        push_wr(m, IBSEC_REG_CNT_CTRL, rnd(0, 1));
        return;
    } else if (k < 80) {                        /* reads of any register */
        uint32_t a;
        do {
            a = rnd(0, 0x3FFu) * 4u;
        } while (!(ibsec_regs_decode(a) & IBSEC_DEC_MAPPED));
        push_rd(m, a);
        return;
    } else {
        push_illegal(m);
        return;
    }
    /* after a command: usually poll STATUS and read the tables; sometimes go on at once */
    if (chance(75)) {
        push_status_poll(m);
        push_rd(m, IBSEC_REG_KEY_VALID);
        push_rd(m, IBSEC_REG_KEY_AES256);
        push_rd(m, IBSEC_REG_CONFIG);
    }
}

static void gen_sif(master *m)
{
    unsigned k = rnd(0, 99);
    if (k < 20) {
        push_wr(m, SIF_REG_INSTALL, rnd(0, 40) | (chance(50) ? 0x8000u : 0) | (chance(5) ? 0xFFFF0000u : 0));
        push_rd(m, SIF_REG_INSTALL_RESULT);
        push_rd(m, SIF_REG_STATE);
    } else if (k < 30) {
        push_wr(m, SIF_REG_VALID_KEY(rnd(0, SIF_REG_VALID_KEY_COUNT - 1)), tb_rand32(&S.rng));
    } else if (k < 36) {
        push_wr(m, SIF_REG_N_VALID, chance(80) ? rnd(0, 32) : tb_rand32(&S.rng));
    } else if (k < 40) {
        push_wr(m, SIF_REG_QUIET_TICKS, QUIET_MIN + (tb_rand32(&S.rng) >> 2));
    } else if (k < 75) {
        uint32_t a;
        do {
            a = rnd(0, 0x3FFu) * 4u;
        } while (!(sif_regs_decode(a) & IBSEC_DEC_MAPPED));
        push_rd(m, a);
    } else {
        push_illegal(m);
    }
}

static void gen_ddpm(master *m)
{
    unsigned k = rnd(0, 99);
    uint32_t a;
    if (k < 40) {
        do {
            a = rnd(0, 0x3FFu) * 4u;
        } while (!(ddpm_regs_decode(a) & IBSEC_DEC_WRITABLE));
        push_wr(m, a, tb_rand32(&S.rng));
    } else if (k < 75) {
        do {
            a = rnd(0, 0x3FFu) * 4u;
        } while (!(ddpm_regs_decode(a) & IBSEC_DEC_MAPPED));
        push_rd(m, a);
    } else {
        push_illegal(m);
    }
}

/* ---- the masters --------------------------------------------------------------------------- */

static void new_phase(master *m)
{
    static const unsigned ready[] = { 100, 90, 50, 20, 5 };
    static const unsigned delay[] = { 0, 1, 3, 8, 20 };
    m->p_bready = ready[rnd(0, 4)];
    m->p_rready = ready[rnd(0, 4)];
    m->max_delay = delay[rnd(0, 4)];
}

static void start_write(master *m, const op *o)
{
    m->w_act = 1;
    m->w_op = *o;
    m->aw_done = m->w_done = 0;
    m->aw_delay = rnd(0, m->max_delay);
    m->w_delay = rnd(0, m->max_delay);
    m->w_since = S.cycle;
}

static void start_read(master *m, const op *o)
{
    m->r_act = 1;
    m->r_op = *o;
    m->ar_done = 0;
    m->ar_delay = rnd(0, m->max_delay);
    m->r_since = S.cycle;
}

/* start the next queued access when allowed */
static void schedule(master *m)
{
    if (m->count == 0) {
        if (m->port == TB_PORT_ENGINE)
            gen_engine(m);
        else if (m->port == TB_PORT_SIF)
            gen_sif(m);
        else
            gen_ddpm(m);
    }
    if (m->count > 0 && !m->w_act && !m->r_act) {
        op *o = &m->q[m->head];
        if (m->port == TB_PORT_ENGINE && S.cmd_pending && !o->we && !engine_stable_read(o->addr)) {
            op p = { 0, IBSEC_REG_STATUS, 0, 0xFu, 1 };   /* the command first */
            start_read(m, &p);
            m->held_polls++;
            return;
        }
        if (o->we)
            start_write(m, o);
        else
            start_read(m, o);
        m->head = (m->head + 1) % OPQ;
        m->count--;
        return;
    }
    /* a read no write can change, beside a write in flight */
    if (m->w_act && !m->r_act && chance(3)) {
        op p = { 0, 0, 0, 0xFu, 0 };
        do {
            p.addr = rnd(0, 0x3FFu) * 4u | (chance(20) ? rnd(1, 3) : 0);
        } while (!const_read(m->port, p.addr));
        start_read(m, &p);
    }
}

static void drive(master *m, tb_axil_in *in)
{
    memset(in, 0, sizeof *in);
    if (m->w_act && !m->aw_done) {
        if (m->aw_delay)
            m->aw_delay--;
        else {
            in->awvalid = 1;
            in->awaddr = m->w_op.addr & 0xFFFu;
            in->awprot = rnd(0, 7);
        }
    }
    if (m->w_act && !m->w_done) {
        if (m->w_delay)
            m->w_delay--;
        else {
            in->wvalid = 1;
            in->wdata = m->w_op.wdata;
            in->wstrb = m->w_op.wstrb;
        }
    }
    if (m->r_act && !m->ar_done) {
        if (m->ar_delay)
            m->ar_delay--;
        else {
            in->arvalid = 1;
            in->araddr = m->r_op.addr & 0xFFFu;
            in->arprot = rnd(0, 7);
        }
    }
    in->bready = (uint32_t)chance(m->p_bready);
    in->rready = (uint32_t)chance(m->p_rready);
}

/* after the inputs are set and the outputs settled: handshakes and checks of this cycle */
static void sample(master *m, const tb_axil_in *in, const tb_axil_out *o)
{
    const char *name = m->port == TB_PORT_ENGINE ? "engine" : m->port == TB_PORT_SIF ? "sif" : "ddpm";

    /* a response not taken must stay as it was */
    if (m->prev_b_wait && (!o->bvalid || o->bresp != m->prev.bresp))
        tb_fail(&S.res, "%s cycle %llu: BVALID / BRESP changed before BREADY", name,
                (unsigned long long)S.cycle);
    if (m->prev_r_wait && (!o->rvalid || o->rresp != m->prev.rresp || o->rdata != m->prev.rdata))
        tb_fail(&S.res, "%s cycle %llu: RVALID / RRESP / RDATA changed before RREADY", name,
                (unsigned long long)S.cycle);
    m->prev = *o;
    m->prev_b_wait = o->bvalid && !in->bready;
    m->prev_r_wait = o->rvalid && !in->rready;

    if (in->awvalid && o->awready)
        m->aw_done = 1;
    if (in->wvalid && o->wready)
        m->w_done = 1;
    if (in->arvalid && o->arready)
        m->ar_done = 1;

    if (o->bvalid && in->bready) {
        if (!m->w_act || !m->aw_done || !m->w_done) {
            tb_fail(&S.res, "%s cycle %llu: a write response without a write", name,
                    (unsigned long long)S.cycle);
        } else {
            unsigned exp = expect_resp(m, &m->w_op);
            char what[64];
            snprintf(what, sizeof what, "%s BRESP write 0x%03x strb %x", name,
                     (unsigned)m->w_op.addr, (unsigned)m->w_op.wstrb);
            tb_check_u64(&S.res, what, exp, o->bresp);
            if (exp == RESP_OKAY)
                model_write(m->port, m->w_op.addr, m->w_op.wdata);
            else
                m->refused++;
            m->w_act = 0;
            m->done++;
        }
    }
    if (o->rvalid && in->rready) {
        if (!m->r_act || !m->ar_done) {
            tb_fail(&S.res, "%s cycle %llu: a read response without a read", name,
                    (unsigned long long)S.cycle);
        } else {
            unsigned exp = expect_resp(m, &m->r_op);
            char what[64];
            snprintf(what, sizeof what, "%s RRESP read 0x%03x", name, (unsigned)m->r_op.addr);
            tb_check_u64(&S.res, what, exp, o->rresp);
            if (exp == RESP_OKAY)
                model_read(m->port, m->r_op.addr, o->rdata);
            else {
                snprintf(what, sizeof what, "%s refused read 0x%03x RDATA", name, (unsigned)m->r_op.addr);
                tb_check_u64(&S.res, what, 0, o->rdata);
                m->refused++;
            }
            m->r_act = 0;
            m->done++;
            /* a poll goes on while BUSY */
            if (m->r_op.poll && exp == RESP_OKAY && (o->rdata & IBSEC_STATUS_BUSY_MASK))
                start_read(m, &m->r_op);
        }
    }
    if ((m->w_act && S.cycle - m->w_since > STALL_LIMIT) || (m->r_act && S.cycle - m->r_since > STALL_LIMIT)) {
        tb_fail(&S.res, "%s cycle %llu: an access took more than %u cycles", name,
                (unsigned long long)S.cycle, STALL_LIMIT);
        m->w_act = m->r_act = 0;
    }
}

int tb_axil_main(int argc, char **argv)
{
    uint64_t seed = 1;
    unsigned long ops = 3000;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
            ops = strtoul(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: %s [--seed N] [--ops N]\n", argv[0]);
            return 2;
        }
    }
    tb_rng_seed(&S.rng, seed);
    tb_result_init(&S.res, "axil");
    if (ibsec_engine_init(&S.eng, KEY_SLOTS, CTX_SLOTS, 1) != 0) {
        fprintf(stderr, "axil: model engine init failed\n");
        return 2;
    }
    ibsec_regmodel_init(&S.rm, &S.eng, false);
    ibsec_sif_port_init(&S.sif, 1);
    for (int p = 0; p < TB_PORTS; p++) {
        S.m[p].port = p;
        new_phase(&S.m[p]);
    }
    /* reset; the SIF quiet time first, so no install meets a zero quiet time */
    dut_reset(1);
    for (int i = 0; i < 4; i++)
        dut_tick();
    dut_reset(0);
    push_wr(&S.m[TB_PORT_SIF], SIF_REG_QUIET_TICKS, QUIET_MIN);
    /* the engine's staging and command registers are not reset: write each once (the
     * commands a clear of slot 0 and of context 0) before anything reads them */
    {
        master *e = &S.m[TB_PORT_ENGINE];
        for (uint32_t a = 0; a < 0x1000u; a += 4)
            if ((ibsec_regs_decode(a) & IBSEC_DEC_STAGED) && !(ibsec_regs_decode(a) & IBSEC_DEC_COMMAND))
                push_wr(e, a, 0);
        push_wr(e, IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_OP, IBSEC_KEY_CMD_OP_CLEAR));
        push_status_poll(e);
        push_wr(e, IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_CLEAR));
        push_status_poll(e);
    }

    unsigned long long limit = (unsigned long long)ops * 400u + 100000u;
    for (S.cycle = 0; S.cycle < limit; S.cycle++) {
        tb_axil_in in[TB_PORTS];
        tb_axil_out out[TB_PORTS];
        int all = 1;
        for (int p = 0; p < TB_PORTS; p++) {
            master *m = &S.m[p];
            if (S.cycle % PHASE == 0)
                new_phase(m);
            if (m->done < ops)
                schedule(m);
            if (m->done < ops || m->w_act || m->r_act)
                all = 0;
            drive(m, &in[p]);
            dut_set(p, &in[p]);
        }
        if (all)
            break;
        for (int p = 0; p < TB_PORTS; p++) {
            dut_get(p, &out[p]);
            sample(&S.m[p], &in[p], &out[p]);
        }
        dut_tick();
    }
    for (int p = 0; p < TB_PORTS; p++)
        if (S.m[p].done < ops)
            tb_fail(&S.res, "port %d: %lu of %lu accesses done in %llu cycles", p, S.m[p].done, ops,
                    (unsigned long long)S.cycle);
    printf("axil: %llu cycles; engine %lu accesses (%lu refused, %lu STATUS polls for a running command), "
           "sif %lu (%lu refused), ddpm %lu (%lu refused)\n", (unsigned long long)S.cycle,
           S.m[0].done, S.m[0].refused, S.m[0].held_polls, S.m[1].done, S.m[1].refused,
           S.m[2].done, S.m[2].refused);
    dut_finish();
    ibsec_engine_free(&S.eng);
    return tb_summary(&S.res);
}
