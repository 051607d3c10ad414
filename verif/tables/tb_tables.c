/*
 * tb_tables.c — C harness of the tables bench: rtl/engine/ibsec_regs.v (register bus, key table,
 * command interlock, DECIDED) with ibsec_ctx_table (contexts, lookup, EPSN decide and
 * commit, replay window, alert) and ibsec_counters, against the C model applied
 * sequentially: ibsec_ctx_set / ibsec_ctx_clear / ibsec_ctx_clear_alert / ibsec_key_set /
 * ibsec_key_clear, ibsec_ctx_lookup, ibsec_epsn_tx_check / tx_commit, ibsec_epsn_rx_check /
 * rx_commit, and the alert rule of docs/wire-format.md §10.
 *
 * What the harness plays
 *   - the lookup stages: a selector (the QP or P_Key of a configured context, or a random
 *     one) requested in every cycle, the stages advancing (lk_ce) in four cycles of five;
 *   - the packet datapath: in most cycles one packet is decided: a selector (as above) is
 *     looked up in the model, and when the packet
 *     reaches the EPSN step (context found, mode not none, key valid) its PSN is offered:
 *     in order, skipping ahead, behind inside and outside the 64-entry window, replays,
 *     across the 2^23 half-window, near 2^24 wraps and near 2^63 (contexts start there);
 *     the open side picks the packet's tag result (pass or fail) at once, and commits it
 *     on cm_* a random number of cycles later, in decision order, as gcm_core's latency
 *     would; one count per packet with its final reason; the seal side takes one ok
 *     decision in ten back with a seal void (cm_valid with cm_void) a random time later,
 *     deciding nothing meanwhile, as the engine does when the late parse rejects a frame
 *     it decided before its end;
 *   - software on the register bus: context writes (valid and refused configurations,
 *     duplicate selectors), clears, alert clears, context read-backs, key installs,
 *     clears and zeroizes, CONFIG writes, counter / DECIDED / CMD_DECIDED / ALERT_SUMMARY / STATUS /
 *     KEY_VALID reads, staging read-back, reserved operations and addresses;
 *   - gcm_core's key port: ready when idle, busy a random 1..60 cycles after a handshake;
 *   - a reset in the middle of the run.
 *
 * The reference is the model in two copies: `m` processes every packet completely
 * (decision and, on open, the tag result) when the DUT decides it, which is the model's
 * sequential order; `mc` receives the same commits when the DUT receives them, and the
 * commands when the DUT applies them (cfg_busy falls), so it holds what the DUT's tables
 * hold at any cycle (read-back, ALERT_SUMMARY, irq_alert). Software commands reach `m`
 * when the register block performs their write (R1, the cycle after it takes the request,
 * or later while a command holds it), after the packets decided so far: the DUT stops
 * deciding from the next cycle and applies the command once those packets have committed.
 *
 * Checked: every lookup answer (a random selector requested every cycle, taken in four
 * cycles of five (lk_ce), its answer LK_LAT lk_ce edges later against the tables the DUT
 * holds, unless cfg_busy rose meanwhile), every EPSN answer (reason and E) and commit answer
 * (context, E, alert raised); that an open decision waits only when it may (never for a
 * packet above every in-flight EPSN of its context and within 2^23 of the committed
 * rx_next, never on seal; in the WU_LAT cycles after a passing commit, whose window update the
 * DUT writes WU_LAT cycles later, "committed" means before that commit); ep_full against
 * the number in flight; each register read against the model; STATUS.ERR_CODE of every
 * command against the model's refusal (ibsec_ctx_set's message); the key port's slot,
 * size and key bytes; that the DUT applies a command only when nothing is in flight and
 * that write holds and acks follow docs/registers.md §1.
 *
 * Usage: Vtb [--seed N] [--cycles N] [--inflight N] [--name NAME]
 *   --inflight: the INFLIGHT parameter the DUT was built with (ep_full is checked with it)
 * Last line: "NAME: N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibsec.h"
#include "ibsec_regs_map.h"
#include "progress.h"
#include "tb_tables.h"
#include "tb_util.h"

/* ---- register map: cmodel/ibsec_regs_map.h, generated from rtl/engine/ibsec_regs.rdl ---- */
#define HW_REASONS      34u              /* counters: ok .. nonce_reuse */

/* ---- bench knobs ------------------------------------------------------------------- */
#define OPS_RING       1024   /* queued bus operations */
#define QUEUE_MAX      64     /* in-flight open packets the harness can hold */
/* cycles after a passing commit until the DUT's window update is written (the commit's
   cycle is c; the table shows the update from c + WU_LAT + 1 on: ibsec_ctx_table's
   window update stages B, C, D) */
#define WU_LAT         3
/* lk_ce edges from a lookup request to its answer on lk_* (ibsec_ctx_table's lookup
   stages: compare, priority, answer) */
#define LK_LAT         3
/* cycles gcm_core's key port stays busy after a handshake: 1..KEY_BUSY_MAX, covering the
 * real install (AES_LATENCY + GUARD_CYCLES + 5 + 18 * LANES cycles, gcm_core header; 279 at
 * LANES = 12 with STAGES_PER_ROUND = 2) */
#define KEY_BUSY_MAX   300
#define STALL_LIMIT    20000  /* cycles without progress that count as a hang */
#define QP_POOL        8
#define PK_POOL        6
#define HALF_WINDOW    (1ull << 23)

/* ---- state ------------------------------------------------------------------------- */
/* a lookup request the DUT took (lk_ce) */
typedef struct {
    int      valid;
    uint32_t destqp;
    uint16_t pkey;
    uint64_t cycle;     /* the cycle it was presented (taken at that cycle's edge) */
} lk_req;

typedef struct {
    int      we;
    unsigned addr;
    uint32_t wdata;
    int      poll;      /* STATUS poll: repeat while BUSY, then compare */
} bus_op;

typedef struct {
    unsigned ctx;
    uint64_t epsn;
    int      pass;
    int      is_void;   /* dropped by a CRC check after the decision: no commit in the model */
    int      alert;     /* the model's alert_raised for a failure */
    uint64_t ready;     /* first cycle the commit may come */
} inflight;

typedef struct {
    int      active;
    uint32_t destqp;
    uint16_t pkey;
    uint32_t psn;
    uint64_t since;
} retry_pkt;

/* a command as software wrote it (staging registers at the time of the command write) */
typedef struct {
    unsigned addr;      /* IBSEC_REG_CTX_CMD, IBSEC_REG_KEY_CMD or IBSEC_REG_CONFIG */
    uint32_t word;      /* the command register value */
    uint32_t ctx_match, ctx_cfg, ctx_thresh;
    uint64_t ctx_tx, ctx_rx;
    uint32_t key_data[8], key_salt;
} command;

typedef struct {
    uint32_t words[16]; /* CTX_RD_* from 0x140 */
} ctx_snapshot;

static struct {
    unsigned open, n_ctx, n_keys, inflight_max;
    uint64_t cycles;
    tb_rng   rng;
    tb_result res;
    ibsec_engine m, mc;
    uint64_t cycle;

    tb_in    in;
    tb_out   out;

    /* lookup: the last LK_LAT requests taken, newest first; the last cycle with cfg_busy
       high (the tables change only in such cycles) */
    lk_req   lk_hist[LK_LAT];
    int      busy_seen;
    uint64_t last_busy_cycle;

    /* bus agent */
    bus_op   ops[OPS_RING];
    unsigned ops_head, ops_count;
    int      bus_active, bus_took;
    int      bus_wait;        /* cycles until the taken request's reg_ack */
    int      bus_r1;          /* the taken write is in the block's R1, not yet performed */
    int      wr_done;         /* a write was performed this cycle */
    int      bus_sample;      /* a read's word is to be taken from the model this cycle */
    int      bus_addr;        /* ... at this address */
    uint32_t bus_expect, bus_mask;
    int      bus_check;
    uint32_t latch_expect;
    uint64_t bus_idle_until;

    /* staging registers as written */
    uint32_t key_data[8], key_salt, key_cmd;
    uint32_t ctx_match, ctx_cfg, ctx_thresh, ctx_cmd;
    uint64_t ctx_tx, ctx_rx;
    uint32_t config_stage;
    uint32_t config_mc;       /* CONFIG as the committed model's last command wrote it */

    /* commands */
    int      cmd_taken;       /* a command write was taken this cycle */
    command  cmd_now;
    int      cmd_pending_mc;  /* taken, not yet applied by the DUT */
    command  cmd_mc;
    int      last_err;        /* ERR_CODE of the last command applied by the DUT */
    int      pending_err;
    uint64_t cmd_decided, pending_cmd_decided;
    ctx_snapshot snap;
    int      prev_busy, prev_pipe_busy;
    unsigned prev_inflight;

    /* datapath */
    uint64_t decided;
    inflight q[QUEUE_MAX];
    unsigned q_head, q_count;
    retry_pkt retry;
    unsigned seal_busy;       /* cycles the seal pipe stays busy after a decision */
    /* seal void: an ok decision whose frame the engine's late parse rejects; until the
       void, no packet is decided and the pipe is busy (as in the engine) */
    struct {
        int      pending;
        unsigned ctx;
        uint64_t tx_m, tx_mc; /* tx_next before the commit, in m and mc */
    } sv;
    /* the last WU_LAT commits (a ring): cycle, context, E, passed, rx_next before it */
    struct {
        uint64_t cycle;
        unsigned ctx;
        uint64_t epsn, r0;
        int      valid, pass;
    } wu[WU_LAT];
    unsigned wu_next;
    uint32_t qp_pool[QP_POOL];
    uint16_t pk_pool[PK_POOL];

    /* key port model */
    unsigned key_busy;

    int      final_phase;     /* end of run: no new scenarios */

    /* statistics */
    uint64_t n_dec, n_ep, n_ok, n_wait, n_commit, n_void, n_alert, n_cmd, n_refused, n_reads;
    uint64_t n_seal_void;
    uint64_t n_reason[IBSEC_R_COUNT];
    uint64_t last_progress;
} S;

/* ---- small helpers ------------------------------------------------------------------- */

static uint32_t rnd(uint32_t lo, uint32_t hi) { return tb_rand_range(&S.rng, lo, hi); }
static int chance(unsigned pct) { return tb_chance(&S.rng, pct); }
static enum ibsec_op model_op(void) { return S.open ? IBSEC_OP_OPEN : IBSEC_OP_SEAL; }

static int check(const char *what, uint64_t exp, uint64_t got)
{
    char buf[160];
    snprintf(buf, sizeof buf, "cycle %llu: %s", (unsigned long long)S.cycle, what);
    return tb_check_u64(&S.res, buf, exp, got);
}

static uint32_t be32(const uint8_t b[4])
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void sample(void)
{
    dut_set(&S.in);
    dut_get(&S.out);
}

/* ---- the model side of commands ---------------------------------------------------- */

/* docs/registers.md §3.4: the code for the model's refusal message of ibsec_ctx_set */
static int err_from_model_message(const char *why)
{
    static const struct { const char *prefix; int code; } map[] = {
        { "context index out of range", IBSEC_STATUS_ERR_CODE_INDEX },
        { "QPN out of range", IBSEC_STATUS_ERR_CODE_QPN },
        { "P_Key out of range", IBSEC_STATUS_ERR_CODE_PKEY },
        { "bad mode", IBSEC_STATUS_ERR_CODE_MODE },
        { "sth-* modes need", IBSEC_STATUS_ERR_CODE_STH_NEEDED },
        { "STH size given", IBSEC_STATUS_ERR_CODE_STH_EXTRA },
        { "EPSN out of range", IBSEC_STATUS_ERR_CODE_EPSN },
        { "key index out of range", IBSEC_STATUS_ERR_CODE_KEY },
        { "selector already used", IBSEC_STATUS_ERR_CODE_DUP_SELECTOR },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strncmp(why, map[i].prefix, strlen(map[i].prefix)) == 0)
            return map[i].code;
    tb_fail(&S.res, "model refusal message not known to the bench: %s", why);
    return -1;
}

static ibsec_ctx_cfg cfg_from_staging(const command *c)
{
    ibsec_ctx_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.sel = (c->ctx_cfg & 1u) ? IBSEC_SEL_PKEY : IBSEC_SEL_QP;
    cfg.match = c->ctx_match;
    cfg.mode = (enum ibsec_mode)IBSEC_GET(c->ctx_cfg, IBSEC_CTX_CFG_MODE);
    cfg.sth_code = IBSEC_GET(c->ctx_cfg, IBSEC_CTX_CFG_STH_CODE);
    cfg.dir = IBSEC_GET(c->ctx_cfg, IBSEC_CTX_CFG_DIR);
    cfg.key = IBSEC_GET(c->ctx_cfg, IBSEC_CTX_CFG_KEY);
    cfg.tx_next = c->ctx_tx;
    cfg.rx_next = c->ctx_rx;
    cfg.alert_threshold = c->ctx_thresh;
    return cfg;
}

static int apply_ctx_cmd(ibsec_engine *e, const command *c)
{
    unsigned idx = IBSEC_GET(c->word, IBSEC_CTX_CMD_INDEX), op = IBSEC_GET(c->word, IBSEC_CTX_CMD_OP);
    const char *why = NULL;
    if (idx >= e->n_ctx)
        return IBSEC_STATUS_ERR_CODE_INDEX;
    if (op < IBSEC_CTX_CMD_OP_WRITE || op > IBSEC_CTX_CMD_OP_READ)
        return IBSEC_STATUS_ERR_CODE_OP;
    if (op == IBSEC_CTX_CMD_OP_WRITE) {
        ibsec_ctx_cfg cfg = cfg_from_staging(c);
        return ibsec_ctx_set(e, idx, &cfg, &why) == 0 ? IBSEC_STATUS_ERR_CODE_ACCEPTED : err_from_model_message(why);
    }
    if (op == IBSEC_CTX_CMD_OP_CLEAR)
        ibsec_ctx_clear(e, idx);
    else if (op == IBSEC_CTX_CMD_OP_CLEAR_ALERT)
        ibsec_ctx_clear_alert(e, idx);
    return IBSEC_STATUS_ERR_CODE_ACCEPTED;
}

static int apply_key_cmd(ibsec_engine *e, const command *c)
{
    unsigned slot = IBSEC_GET(c->word, IBSEC_KEY_CMD_SLOT), op = IBSEC_GET(c->word, IBSEC_KEY_CMD_OP);
    size_t len = IBSEC_GET(c->word, IBSEC_KEY_CMD_AES256) ? 32 : 16;
    uint8_t key[32], salt[4];
    if (slot >= e->n_keys)
        return IBSEC_STATUS_ERR_CODE_INDEX;
    if (op != IBSEC_KEY_CMD_OP_INSTALL && op != IBSEC_KEY_CMD_OP_CLEAR && op != IBSEC_KEY_CMD_OP_ZEROIZE)
        return IBSEC_STATUS_ERR_CODE_OP;
    /* a zeroize is a clear for the model (ibsec_key_clear wipes the slot) */
    if (op != IBSEC_KEY_CMD_OP_INSTALL) {
        ibsec_key_clear(e, slot);
        return IBSEC_STATUS_ERR_CODE_ACCEPTED;
    }
    for (unsigned i = 0; i < 32; i++)
        key[i] = (uint8_t)(c->key_data[i / 4] >> (24 - 8 * (i % 4)));
    for (unsigned i = 0; i < 4; i++)
        salt[i] = (uint8_t)(c->key_salt >> (24 - 8 * i));
    return ibsec_key_set(e, slot, key, len, salt) == 0 ? IBSEC_STATUS_ERR_CODE_ACCEPTED : IBSEC_STATUS_ERR_CODE_INDEX;
}

/* A CONFIG.MGMT_* field as the policy (registers.md §3; bit 1 is drop) */
static enum ibsec_mgmt_policy mgmt_policy_of(uint32_t v)
{
    return (v & 2u) ? IBSEC_MGMT_DROP : (v & 1u) ? IBSEC_MGMT_BYPASS : IBSEC_MGMT_CONTEXT;
}

static int apply_command(ibsec_engine *e, const command *c)
{
    switch (c->addr) {
    case IBSEC_REG_CTX_CMD: return apply_ctx_cmd(e, c);
    case IBSEC_REG_KEY_CMD: return apply_key_cmd(e, c);
    default:
        e->allow_plain = IBSEC_GET(c->word, IBSEC_CONFIG_ALLOW_PLAIN);
        e->mask_mf = IBSEC_GET(c->word, IBSEC_CONFIG_MASK_MF);
        e->mgmt[IBSEC_MGMT_QP0] = mgmt_policy_of(IBSEC_GET(c->word, IBSEC_CONFIG_MGMT_QP0));
        e->mgmt[IBSEC_MGMT_QP1] = mgmt_policy_of(IBSEC_GET(c->word, IBSEC_CONFIG_MGMT_QP1));
        e->mgmt[IBSEC_MGMT_MCAST] = mgmt_policy_of(IBSEC_GET(c->word, IBSEC_CONFIG_MGMT_PERM));
        if (e == &S.mc)
            S.config_mc = c->word & IBSEC_CONFIG_BITS;
        return IBSEC_STATUS_ERR_CODE_ACCEPTED;
    }
}

/* CTX_RD_* as the DUT must show context idx of e (an invalid context reads as zeros) */
static void snapshot_ctx(const ibsec_engine *e, unsigned idx, ctx_snapshot *s)
{
    memset(s, 0, sizeof *s);
    if (idx >= e->n_ctx || !e->ctx[idx].valid)
        return;
    const ibsec_ctx *c = &e->ctx[idx];
    s->words[0] = IBSEC_SET(IBSEC_CTX_RD_CFG_VALID, 1) | IBSEC_SET(IBSEC_CTX_RD_CFG_KEY, c->cfg.key)
                | IBSEC_SET(IBSEC_CTX_RD_CFG_DIR, c->cfg.dir)
                | IBSEC_SET(IBSEC_CTX_RD_CFG_STH_CODE, c->cfg.sth_code)
                | IBSEC_SET(IBSEC_CTX_RD_CFG_MODE, c->cfg.mode)
                | IBSEC_SET(IBSEC_CTX_RD_CFG_SEL, c->cfg.sel == IBSEC_SEL_PKEY);
    s->words[1] = c->cfg.match;
    s->words[2] = (uint32_t)c->tx_next;
    s->words[3] = (uint32_t)(c->tx_next >> 32);
    s->words[4] = (uint32_t)c->rx_next;
    s->words[5] = (uint32_t)(c->rx_next >> 32);
    s->words[6] = (uint32_t)c->rx_bitmap;
    s->words[7] = (uint32_t)(c->rx_bitmap >> 32);
    s->words[8] = c->fail_consec;
    s->words[9] = c->alert;
    s->words[10] = c->alert_count;
    s->words[11] = c->cfg.alert_threshold;
}

/* wire-format.md §10 (Lee & Kim §6.1): one more consecutive failure; true if it raised
 * the context's alert */
static int note_auth_failure(ibsec_ctx *c)
{
    if (c->fail_consec < UINT32_MAX)
        c->fail_consec++;
    if (c->cfg.alert_threshold == 0 || c->fail_consec < c->cfg.alert_threshold || c->alert)
        return 0;
    c->alert = true;
    c->alert_count++;
    return 1;
}

/* the open commit of the model: tag verified -> window, else failure and alert */
static int model_open_commit(ibsec_ctx *c, uint64_t epsn, int pass)
{
    if (pass) {
        ibsec_epsn_rx_commit(c, epsn);
        c->fail_consec = 0;
        return 0;
    }
    return note_auth_failure(c);
}

static int any_alert(const ibsec_engine *e)
{
    for (unsigned i = 0; i < e->n_ctx; i++)
        if (e->ctx[i].valid && e->ctx[i].alert)
            return 1;
    return 0;
}

/* ---- register read expectations ------------------------------------------------------ */

static int is_staging(unsigned addr)
{
    return (ibsec_regs_decode(addr) & IBSEC_DEC_STAGED) != 0;
}

static int is_command(unsigned addr)
{
    return (ibsec_regs_decode(addr) & IBSEC_DEC_COMMAND) != 0;
}

/* STATUS: while a command runs only BUSY and ALERT are known (ERR_CODE changes when
 * the command has been checked, which for a key install is before BUSY falls) */
static uint32_t expect_status(uint32_t *mask)
{
    if (S.cmd_pending_mc) {
        *mask = IBSEC_STATUS_ALERT_MASK | IBSEC_STATUS_BUSY_MASK;
        return IBSEC_SET(IBSEC_STATUS_ALERT, any_alert(&S.mc)) | IBSEC_STATUS_BUSY_MASK;
    }
    return IBSEC_SET(IBSEC_STATUS_ALERT, any_alert(&S.mc)) | IBSEC_SET(IBSEC_STATUS_ERR_CODE, S.last_err)
         | IBSEC_SET(IBSEC_STATUS_ERR, S.last_err != IBSEC_STATUS_ERR_CODE_ACCEPTED);
}

/* the value a read of addr taken now must return; *latch: a LO word of a live 64-bit
 * register, whose HI word then goes into the latch */
static uint32_t expect_word(unsigned addr, int *latch, uint32_t *latch_hi, uint32_t *mask)
{
    *latch = 0;
    *mask = 0xFFFFFFFFu;
    if (addr >= IBSEC_REG_CNT_LO(0) && addr < IBSEC_REG_CNT_LO(IBSEC_REG_CNT_LO_COUNT)) {
        unsigned r = (addr - IBSEC_REG_CNT_LO(0)) / 8;
        uint64_t v = r < HW_REASONS ? S.m.count[model_op()][r] : 0;
        if (addr & 4u)
            return S.latch_expect;
        *latch = 1;
        *latch_hi = (uint32_t)(v >> 32);
        return (uint32_t)v;
    }
    if (addr >= IBSEC_REG_ALERT_SUMMARY(0) && addr < IBSEC_REG_ALERT_SUMMARY(IBSEC_REG_ALERT_SUMMARY_COUNT)) {
        unsigned w = (addr - IBSEC_REG_ALERT_SUMMARY(0)) / 4;
        uint32_t v = 0;
        for (unsigned i = 0; i < 32; i++) {
            unsigned c = 32 * w + i;
            if (c < S.mc.n_ctx && S.mc.ctx[c].valid && S.mc.ctx[c].alert)
                v |= 1u << i;
        }
        return v;
    }
    if (addr >= IBSEC_REG_KEY_DATA(0) && addr < IBSEC_REG_KEY_SALT)
        return 0; /* write-only: key material never reads back (registers.md §3.5) */
    if (addr >= IBSEC_REG_CTX_RD_CFG && addr <= IBSEC_REG_CTX_RD_ALERT_THRESH)
        return S.snap.words[(addr - IBSEC_REG_CTX_RD_CFG) / 4];
    switch (addr) {
    case IBSEC_REG_ID: return IBSEC_ID_VALUE_RESET;
    case IBSEC_REG_VERSION:
        return IBSEC_SET(IBSEC_VERSION_OPEN, S.open) | IBSEC_SET(IBSEC_VERSION_MAJOR, IBSEC_VERSION_MAJOR_RESET)
             | IBSEC_SET(IBSEC_VERSION_MINOR, IBSEC_VERSION_MINOR_RESET);
    case IBSEC_REG_CAPS:
        return IBSEC_SET(IBSEC_CAPS_CTX_SLOTS, S.n_ctx) | IBSEC_SET(IBSEC_CAPS_KEY_SLOTS, S.n_keys);
    case IBSEC_REG_CONFIG:
        return S.config_mc;
    case IBSEC_REG_STATUS: return expect_status(mask);
    case IBSEC_REG_DECIDED_LO:
        *latch = 1;
        *latch_hi = (uint32_t)(S.decided >> 32);
        return (uint32_t)S.decided;
    case IBSEC_REG_CMD_DECIDED_LO:
        *latch = 1;
        *latch_hi = (uint32_t)(S.cmd_decided >> 32);
        return (uint32_t)S.cmd_decided;
    case IBSEC_REG_DECIDED_HI:
    case IBSEC_REG_CMD_DECIDED_HI: return S.latch_expect;
    case IBSEC_REG_KEY_SALT: return 0; /* write-only */
    case IBSEC_REG_KEY_CMD: return S.key_cmd;
    case IBSEC_REG_KEY_VALID:
    case IBSEC_REG_KEY_AES256: {
        uint32_t v = 0;
        for (unsigned i = 0; i < S.mc.n_keys; i++)
            if (S.mc.keys[i].valid && (addr == IBSEC_REG_KEY_VALID || S.mc.keys[i].key_len == 32))
                v |= 1u << i;
        return v;
    }
    case IBSEC_REG_CTX_MATCH: return S.ctx_match;
    case IBSEC_REG_CTX_CFG: return S.ctx_cfg;
    case IBSEC_REG_CTX_TX_NEXT_LO: return (uint32_t)S.ctx_tx;
    case IBSEC_REG_CTX_TX_NEXT_HI: return (uint32_t)(S.ctx_tx >> 32);
    case IBSEC_REG_CTX_RX_NEXT_LO: return (uint32_t)S.ctx_rx;
    case IBSEC_REG_CTX_RX_NEXT_HI: return (uint32_t)(S.ctx_rx >> 32);
    case IBSEC_REG_CTX_ALERT_THRESH: return S.ctx_thresh;
    case IBSEC_REG_CTX_CMD: return S.ctx_cmd;
    default: return 0;
    }
}

/* ---- bus agent ----------------------------------------------------------------------- */

static void push_op(int we, unsigned addr, uint32_t wdata, int poll)
{
    if (S.ops_count == OPS_RING)
        return;
    bus_op *o = &S.ops[(S.ops_head + S.ops_count) % OPS_RING];
    o->we = we;
    o->addr = addr;
    o->wdata = wdata;
    o->poll = poll;
    S.ops_count++;
}

static void push_wr(unsigned addr, uint32_t v) { push_op(1, addr, v, 0); }
static void push_rd(unsigned addr) { push_op(0, addr, 0, 0); }
static void push_rd64(unsigned lo) { push_rd(lo); push_rd(lo + 4); }

/* after a command: poll STATUS until it is done, compare ERR_CODE, read CMD_DECIDED */
static void push_cmd_done(void)
{
    if (chance(25))
        return;   /* sometimes software goes on at once: its next writes are held */
    push_op(0, IBSEC_REG_STATUS, 0, 1);
    push_rd64(IBSEC_REG_CMD_DECIDED_LO);
}

/* the staging and command registers at the moment of a command write */
static void capture_command(unsigned addr, uint32_t word, command *c)
{
    c->addr = addr;
    c->word = word;
    c->ctx_match = S.ctx_match;
    c->ctx_cfg = S.ctx_cfg;
    c->ctx_thresh = S.ctx_thresh;
    c->ctx_tx = S.ctx_tx;
    c->ctx_rx = S.ctx_rx;
    memcpy(c->key_data, S.key_data, sizeof c->key_data);
    c->key_salt = S.key_salt;
}

/* a write performed this cycle (the register block's R1): staging registers, CNT_CTRL,
   commands */
static void bus_write_taken(const bus_op *o)
{
    if (o->addr >= IBSEC_REG_KEY_DATA(0) && o->addr < IBSEC_REG_KEY_SALT)
        S.key_data[(o->addr - IBSEC_REG_KEY_DATA(0)) / 4] = o->wdata;
    switch (o->addr) {
    case IBSEC_REG_KEY_SALT: S.key_salt = o->wdata; break;
    /* the staging and command registers keep their defined bits */
    case IBSEC_REG_KEY_CMD: S.key_cmd = o->wdata & IBSEC_KEY_CMD_BITS; break;
    case IBSEC_REG_CTX_MATCH: S.ctx_match = o->wdata; break;
    case IBSEC_REG_CTX_CFG: S.ctx_cfg = o->wdata & IBSEC_CTX_CFG_BITS; break;
    case IBSEC_REG_CTX_TX_NEXT_LO: S.ctx_tx = (S.ctx_tx & ~0xFFFFFFFFull) | o->wdata; break;
    case IBSEC_REG_CTX_TX_NEXT_HI: S.ctx_tx = (S.ctx_tx & 0xFFFFFFFFull) | (uint64_t)o->wdata << 32; break;
    case IBSEC_REG_CTX_RX_NEXT_LO: S.ctx_rx = (S.ctx_rx & ~0xFFFFFFFFull) | o->wdata; break;
    case IBSEC_REG_CTX_RX_NEXT_HI: S.ctx_rx = (S.ctx_rx & 0xFFFFFFFFull) | (uint64_t)o->wdata << 32; break;
    case IBSEC_REG_CTX_ALERT_THRESH: S.ctx_thresh = o->wdata; break;
    case IBSEC_REG_CTX_CMD: S.ctx_cmd = o->wdata & IBSEC_CTX_CMD_BITS; break;
    case IBSEC_REG_CONFIG: S.config_stage = o->wdata & IBSEC_CONFIG_BITS; break;
    case IBSEC_REG_CNT_CTRL:
        /* applied after this cycle's count, as the DUT's clear wins over it */
        break;
    default: break;
    }
    if (is_command(o->addr)) {
        S.cmd_taken = 1;
        capture_command(o->addr, o->wdata, &S.cmd_now);
    }
}

/* step 2 of a cycle: finish, start or hold the current bus operation */
static void bus_step(void)
{
    S.in.reg_req = 0;
    if (!S.bus_active && S.out.reg_ack)
        tb_fail(&S.res, "cycle %llu: reg_ack without a request", (unsigned long long)S.cycle);
    if (S.bus_active && S.out.reg_ack) {
        bus_op *o = &S.ops[S.ops_head];
        if (!S.bus_took)
            tb_fail(&S.res, "cycle %llu: reg_ack without a request taken", (unsigned long long)S.cycle);
        else if (S.bus_r1 || S.bus_wait > 0)
            tb_fail(&S.res, "cycle %llu: reg_ack before its time", (unsigned long long)S.cycle);
        if (!o->we) {
            S.n_reads++;
            if (o->poll && (S.out.reg_rdata & IBSEC_STATUS_BUSY_MASK)) {
                S.bus_active = 0;   /* ask again */
                return;
            }
            char what[64];
            snprintf(what, sizeof what, "read 0x%03x", o->addr);
            check(what, S.bus_expect, S.out.reg_rdata & S.bus_mask);
        } else {
            check("write acknowledged with rdata 0", 0, S.out.reg_rdata);
        }
        S.ops_head = (S.ops_head + 1) % OPS_RING;
        S.ops_count--;
        S.bus_active = 0;
        S.last_progress = S.cycle;
        return;
    }
    if (S.bus_active && S.bus_took && S.bus_r1) {
        /* a write in the register block's R1 (taken in an earlier cycle, R0): its request
           stays up; performed now unless held (a staging or command register while BUSY),
           and then acknowledged in the next cycle */
        bus_op *o = &S.ops[S.ops_head];
        S.in.reg_req = 1;
        S.in.reg_we = o->we;
        S.in.reg_addr = o->addr;
        S.in.reg_wdata = o->wdata;
        if (is_staging(o->addr) && S.out.cfg_busy)
            return;
        S.bus_r1 = 0;
        S.bus_wait = 0;
        S.wr_done = 1;
        bus_write_taken(o);
        return;
    }
    if (S.bus_active && S.bus_took && S.bus_wait > 0) {
        /* a read in the register block's pipeline: its request stays up; the block samples
           its sources in the cycle after the take (R1), when the model is at that cycle */
        bus_op *o = &S.ops[S.ops_head];
        S.bus_wait--;
        S.in.reg_req = 1;
        S.in.reg_we = o->we;
        S.in.reg_addr = o->addr;
        if (S.bus_sample) {
            int latch;
            uint32_t hi = 0;
            S.bus_sample = 0;
            S.bus_expect = expect_word(S.bus_addr, &latch, &hi, &S.bus_mask);
            if (latch)
                S.latch_expect = hi;
        }
        return;
    }
    if (S.bus_active && S.bus_took) {
        tb_fail(&S.res, "cycle %llu: no reg_ack %s after a request was taken",
                (unsigned long long)S.cycle, S.ops[S.ops_head].we ? "one cycle after a write was performed" : "three cycles after a read was taken");
        S.bus_active = 0;
        return;
    }
    if (!S.bus_active) {
        if (S.ops_count == 0 || S.cycle < S.bus_idle_until)
            return;
        S.bus_active = 1;
    }
    bus_op *o = &S.ops[S.ops_head];
    S.in.reg_req = 1;
    S.in.reg_we = o->we;
    S.in.reg_addr = o->addr;
    S.in.reg_wdata = o->we ? o->wdata : tb_rand32(&S.rng);
    /* taken now (R0): the block is free, as the previous request was acknowledged */
    S.bus_took = 1;
    if (o->we) {
        S.bus_r1 = 1;        /* performed from the next cycle on (R1), unless held */
    } else {
        S.bus_wait = 2;      /* ibsec_regs' read pipeline: R0 (take), R1, R2, then reg_ack */
        S.bus_sample = 1;
        S.bus_addr = o->addr;
    }
}

/* ---- software scenarios -------------------------------------------------------------- */

static uint64_t random_epsn_start(void)
{
    unsigned k = rnd(0, 99);
    if (k < 25) return rnd(0, 1000);
    if (k < 45) return ((uint64_t)rnd(1, 4) << 24) - rnd(0, 100);
    if (k < 60) return IBSEC_EPSN_LIMIT - 1 - rnd(0, 150);
    if (k < 70) return HALF_WINDOW + rnd(0, 50) - 25;
    if (k < 98) return tb_rand64(&S.rng) >> 2;
    return tb_rand64(&S.rng) | (1ull << 63);   /* refused: EPSN out of range */
}

static void random_ctx_cfg(uint32_t *match, uint32_t *cfgw, uint64_t *tx, uint64_t *rx,
                           uint32_t *thresh)
{
    unsigned sel = rnd(0, 1);
    unsigned mode = chance(3) ? rnd(5, 7) : (chance(10) ? 0 : rnd(1, 4));
    unsigned sth;
    if (mode >= IBSEC_MODE_STH_HDR && mode < IBSEC_MODE_COUNT)
        sth = chance(95) ? rnd(1, 2) : rnd(0, 7);
    else
        sth = chance(95) ? 0 : rnd(0, 7);
    unsigned key = chance(95) ? rnd(0, S.n_keys - 1) : rnd(0, 255);
    if (sel == 0)
        *match = chance(3) ? rnd(0x1000000u, 0xFFFFFFFFu) : S.qp_pool[rnd(0, QP_POOL - 1)];
    else
        *match = chance(3) ? rnd(0x8000u, 0xFFFFFu) : S.pk_pool[rnd(0, PK_POOL - 1)];
    *cfgw = IBSEC_SET(IBSEC_CTX_CFG_KEY, key) | IBSEC_SET(IBSEC_CTX_CFG_DIR, rnd(0, 1))
          | IBSEC_SET(IBSEC_CTX_CFG_STH_CODE, sth) | IBSEC_SET(IBSEC_CTX_CFG_MODE, mode)
          | IBSEC_SET(IBSEC_CTX_CFG_SEL, sel);
    if (chance(5))
        *cfgw |= tb_rand32(&S.rng) & 0xFF000000u;   /* reserved bits: ignored */
    *tx = random_epsn_start();
    *rx = random_epsn_start();
    unsigned t = rnd(0, 9);
    *thresh = t < 3 ? 0 : (t < 9 ? rnd(1, 5) : tb_rand32(&S.rng));
}

static void sc_ctx_write(unsigned idx)
{
    uint32_t match, cfgw, thresh;
    uint64_t tx, rx;
    random_ctx_cfg(&match, &cfgw, &tx, &rx, &thresh);
    push_wr(IBSEC_REG_CTX_MATCH, match);
    push_wr(IBSEC_REG_CTX_CFG, cfgw);
    push_wr(IBSEC_REG_CTX_TX_NEXT_LO, (uint32_t)tx);
    push_wr(IBSEC_REG_CTX_TX_NEXT_HI, (uint32_t)(tx >> 32));
    push_wr(IBSEC_REG_CTX_RX_NEXT_LO, (uint32_t)rx);
    push_wr(IBSEC_REG_CTX_RX_NEXT_HI, (uint32_t)(rx >> 32));
    push_wr(IBSEC_REG_CTX_ALERT_THRESH, thresh);
    push_wr(IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_WRITE) | idx);
    push_cmd_done();
}

static void sc_ctx_read(unsigned idx)
{
    push_wr(IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_READ) | idx);
    push_op(0, IBSEC_REG_STATUS, 0, 1);
    push_rd64(IBSEC_REG_CMD_DECIDED_LO);
    for (unsigned a = IBSEC_REG_CTX_RD_CFG; a <= IBSEC_REG_CTX_RD_ALERT_THRESH; a += 4)
        push_rd(a);
}

static void sc_key_install(unsigned slot)
{
    int aes256 = rnd(0, 1);
    for (unsigned i = 0; i < 8; i++)
        push_wr(IBSEC_REG_KEY_DATA(0) + 4 * i, tb_rand32(&S.rng));
    push_wr(IBSEC_REG_KEY_SALT, tb_rand32(&S.rng));
    push_wr(IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_OP, IBSEC_KEY_CMD_OP_INSTALL)
                               | IBSEC_SET(IBSEC_KEY_CMD_AES256, aes256) | slot);
    push_cmd_done();
}

static unsigned random_ctx_index(void)
{
    return chance(4) ? rnd(S.n_ctx, 255) : rnd(0, S.n_ctx - 1);
}

static unsigned random_key_index(void)
{
    return chance(4) ? rnd(S.n_keys, 255) : rnd(0, S.n_keys - 1);
}

static void software_scenario(void)
{
    unsigned k = rnd(0, 999);
    if (k < 150) {
        sc_ctx_write(random_ctx_index());
    } else if (k < 230) {
        sc_ctx_read(random_ctx_index());
    } else if (k < 270) {
        push_wr(IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_CLEAR) | random_ctx_index());
        push_cmd_done();
    } else if (k < 330) {
        push_wr(IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_CLEAR_ALERT) | random_ctx_index());
        push_cmd_done();
    } else if (k < 370) {
        sc_key_install(random_key_index());
    } else if (k < 385) {
        push_wr(IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_OP, chance(50) ? IBSEC_KEY_CMD_OP_CLEAR
                                                                          : IBSEC_KEY_CMD_OP_ZEROIZE)
                                   | IBSEC_SET(IBSEC_KEY_CMD_AES256, rnd(0, 1)) | random_key_index());
        push_cmd_done();
    } else if (k < 400) {
        push_wr(IBSEC_REG_CONFIG, tb_rand32(&S.rng));
        push_cmd_done();
        push_rd(IBSEC_REG_CONFIG);
    } else if (k < 560) {
        for (unsigned n = rnd(1, 6); n; n--)
            push_rd64(IBSEC_REG_CNT_LO(0) + 8 * (chance(90) ? rnd(0, HW_REASONS - 1) : rnd(0, 63)));
    } else if (k < 600) {
        push_rd64(IBSEC_REG_DECIDED_LO);
    } else if (k < 680) {
        push_rd(IBSEC_REG_ALERT_SUMMARY(0) + 4 * rnd(0, 7));
        push_rd(IBSEC_REG_STATUS);
        push_rd(chance(50) ? IBSEC_REG_KEY_VALID : IBSEC_REG_KEY_AES256);
    } else if (k < 700) {
        unsigned a = chance(50) ? IBSEC_REG_CTX_MATCH + 4 * rnd(0, 7) : IBSEC_REG_KEY_DATA(0) + 4 * rnd(0, 9);
        push_rd(a);
    } else if (k < 705) {
        push_wr(IBSEC_REG_CNT_CTRL, 1);
    } else if (k < 715) {
        push_rd(4 * rnd(0, 2));                       /* ID, VERSION, CAPS */
        push_rd(4 * rnd(0x70, 0xFF));                 /* unused */
        push_wr(chance(50) ? IBSEC_REG_ID : IBSEC_REG_KEY_VALID, tb_rand32(&S.rng)); /* read-only */
    } else if (k < 745) {
        /* reserved operations */
        if (chance(50))
            push_wr(IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_OP, chance(50) ? 0u : rnd(5, 15)) | random_ctx_index());
        else
            push_wr(IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_OP, 0u) | random_key_index());
        push_cmd_done();
    } else {
        S.bus_idle_until = S.cycle + rnd(1, 300);
    }
}

/* the first configuration: every key slot installed, every context written */
static void initial_setup(void)
{
    push_rd(IBSEC_REG_ID);
    push_rd(IBSEC_REG_VERSION);
    push_rd(IBSEC_REG_CAPS);
    for (unsigned s = 0; s < S.n_keys; s++)
        sc_key_install(s);
    for (unsigned c = 0; c < S.n_ctx; c++)
        sc_ctx_write(c);
}

/* ---- datapath ------------------------------------------------------------------------ */

static uint32_t psn_near(uint64_t ref, int64_t off)
{
    return (uint32_t)(ref + (uint64_t)off) & IBSEC_PSN_MASK;
}

/* a PSN for context c, spread over the cases of wire-format.md §6 */
static uint32_t random_psn(unsigned c)
{
    uint64_t ref = S.open ? S.m.ctx[c].rx_next : S.m.ctx[c].tx_next;
    unsigned k = rnd(0, 99);
    if (k < 45) return psn_near(ref, 0);
    if (k < 55) return psn_near(ref, rnd(1, 3));
    if (k < 58) return psn_near(ref, rnd(4, 200));
    if (k < 62) return psn_near(ref, rnd(61, 67));   /* the slide drops the whole bitmap */
    if (k < 72) return psn_near(ref, -(int64_t)rnd(1, 64));
    if (k < 76) return psn_near(ref, -1);
    if (k < 80) return psn_near(ref, -(int64_t)rnd(65, 2000));
    if (k < 84) return psn_near(ref, -64 + (int64_t)rnd(0, 6) - 3);
    if (k < 90) return psn_near(ref, (int64_t)HALF_WINDOW + (int64_t)rnd(0, 6) - 3);
    if (k < 94) return psn_near(ref, -(int64_t)HALF_WINDOW + (int64_t)rnd(0, 6) - 3);
    return tb_rand32(&S.rng) & IBSEC_PSN_MASK;
}

static void random_selector(uint32_t *destqp, uint16_t *pkey)
{
    unsigned c = rnd(0, S.n_ctx - 1);
    *destqp = chance(50) ? S.qp_pool[rnd(0, QP_POOL - 1)] : (tb_rand32(&S.rng) & 0xFFFFFFu);
    *pkey = (uint16_t)(chance(50) ? S.pk_pool[rnd(0, PK_POOL - 1)] : tb_rand32(&S.rng));
    if (chance(75) && S.m.ctx[c].valid) {
        if (S.m.ctx[c].cfg.sel == IBSEC_SEL_QP)
            *destqp = S.m.ctx[c].cfg.match;
        else
            *pkey = (uint16_t)S.m.ctx[c].cfg.match;
    }
    if (chance(50))
        *pkey ^= 0x8000u;    /* the membership bit is not part of the selector */
}

/* the lookup stages, every cycle: the answer on lk_* (the request taken LK_LAT lk_ce edges
 * ago) against ibsec_ctx_lookup on the tables the DUT holds (mc), unless cfg_busy was high
 * since the request (the datapath looks such a packet up again); then a new request,
 * taken or not (lk_ce) */
static void lookup_step(void)
{
    if (S.out.cfg_busy) {
        S.busy_seen = 1;
        S.last_busy_cycle = S.cycle;
    }
    const lk_req *a = &S.lk_hist[LK_LAT - 1];
    if (a->valid && (!S.busy_seen || S.last_busy_cycle < a->cycle)) {
        int idx = ibsec_ctx_lookup(&S.mc, a->destqp, a->pkey);
        /* the salt port reads the slot it is given: the context's key, else any slot */
        if (idx >= 0 && S.mc.ctx[idx].cfg.key < S.mc.n_keys)
            S.in.lk_salt_slot = S.mc.ctx[idx].cfg.key;
        else
            S.in.lk_salt_slot = rnd(0, S.mc.n_keys - 1);
        sample();
        check("lk_hit", idx >= 0, S.out.lk_hit);
        if (idx >= 0) {
            const ibsec_ctx *c = &S.mc.ctx[idx];
            check("lk_ctx", (unsigned)idx, S.out.lk_ctx);
            check("lk_mode", (unsigned)c->cfg.mode, S.out.lk_mode);
            check("lk_sth_code", c->cfg.sth_code, S.out.lk_sth_code);
            check("lk_dir", c->cfg.dir, S.out.lk_dir);
            int kvalid = c->cfg.key < S.mc.n_keys && S.mc.keys[c->cfg.key].valid;
            check("lk_key_valid", kvalid, S.out.lk_key_valid);
            if (c->cfg.key < S.mc.n_keys)
                check("lk_key", c->cfg.key, S.out.lk_key);
            if (kvalid) {
                check("lk_key_aes256", S.mc.keys[c->cfg.key].key_len == 32, S.out.lk_key_aes256);
                check("lk_salt", be32(S.mc.keys[c->cfg.key].salt), S.out.lk_salt);
            }
        }
    }
    uint32_t destqp;
    uint16_t pkey;
    random_selector(&destqp, &pkey);
    S.in.lk_destqp = destqp;
    S.in.lk_pkey = pkey;
    S.in.lk_ce = chance(80);
    if (S.in.lk_ce) {
        for (unsigned i = LK_LAT - 1; i > 0; i--)
            S.lk_hist[i] = S.lk_hist[i - 1];
        S.lk_hist[0].valid = 1;
        S.lk_hist[0].destqp = destqp;
        S.lk_hist[0].pkey = pkey;
        S.lk_hist[0].cycle = S.cycle;
    }
}

/* a wait is allowed unless the packet is in order: above every in-flight EPSN of its
 * context and within 2^23 above the committed rx_next (mc). The DUT writes the window
 * update of a passing commit WU_LAT cycles after it: until then the commit's E still
 * counts as in flight and the rx_next before it as committed, and so do the E of the
 * context's commits in those cycles (the DUT's bound R_hi covers every packet decided
 * while the context is busy, whatever its outcome). */
static int wu_recent(unsigned w, unsigned c)
{
    return S.wu[w].valid && S.wu[w].ctx == c && S.wu[w].cycle + WU_LAT >= S.cycle;
}

static int wu_pending(unsigned w, unsigned c)
{
    int pending = 0;
    for (unsigned v = 0; v < WU_LAT; v++)
        pending |= wu_recent(v, c) && S.wu[v].pass;
    return pending && wu_recent(w, c);
}

static void check_wait_allowed(unsigned c, uint32_t psn)
{
    uint64_t r0 = S.mc.ctx[c].rx_next, e, oldest = UINT64_MAX;
    for (unsigned w = 0; w < WU_LAT; w++)
        if (wu_pending(w, c) && S.wu[w].cycle < oldest) {
            oldest = S.wu[w].cycle;
            r0 = S.wu[w].r0;
        }
    if (!S.open) {
        tb_fail(&S.res, "cycle %llu: a seal decision waited", (unsigned long long)S.cycle);
        return;
    }
    if (S.q_count >= S.inflight_max || ibsec_epsn_reconstruct(r0, psn, &e) != 0)
        return;
    if (e < r0 || e - r0 >= HALF_WINDOW)
        return;
    for (unsigned w = 0; w < WU_LAT; w++)
        if (wu_pending(w, c) && S.wu[w].epsn >= e)
            return;
    for (unsigned i = 0; i < S.q_count; i++) {
        const inflight *f = &S.q[(S.q_head + i) % QUEUE_MAX];
        if (f->ctx == c && f->epsn >= e)
            return;
    }
    tb_fail(&S.res, "cycle %llu: in-order packet waited (ctx %u psn 0x%06x)",
            (unsigned long long)S.cycle, c, psn);
}

/* the EPSN step; returns the packet's final reason, or -1 when the DUT made it wait */
static int epsn_step(unsigned c, uint32_t psn)
{
    uint64_t e = 0;
    ibsec_ctx *mctx = &S.m.ctx[c];
    S.in.ep_valid = 1;
    S.in.ep_ctx = c;
    S.in.ep_psn = psn;
    sample();
    check("ep_full", S.open && S.q_count >= S.inflight_max, S.out.ep_full);
    if (S.out.ep_wait) {
        check_wait_allowed(c, psn);
        S.n_wait++;
        return -1;
    }
    enum ibsec_reason r = S.open ? ibsec_epsn_rx_check(mctx, psn, &e)
                                 : ibsec_epsn_tx_check(mctx, psn, &e);
    S.n_ep++;
    check("ep_reason", r, S.out.ep_reason);
    check("ep_epsn", r == IBSEC_R_OK ? e : 0, S.out.ep_epsn);
    if (r != IBSEC_R_OK)
        return (int)r;
    S.n_ok++;
    if (!S.open) {
        if (chance(10)) {
            S.sv.pending = 1;
            S.sv.ctx = c;
            S.sv.tx_m = mctx->tx_next;
            S.sv.tx_mc = S.mc.ctx[c].tx_next;
        }
        ibsec_epsn_tx_commit(mctx, e);
        ibsec_epsn_tx_commit(&S.mc.ctx[c], e);
        S.seal_busy = rnd(1, 8);
        return IBSEC_R_OK;
    }
    inflight *f = &S.q[(S.q_head + S.q_count) % QUEUE_MAX];
    f->ctx = c;
    f->epsn = e;
    /* the packet's outcome: its tag passes, fails, or a CRC check the model makes before
     * the EPSN step drops it (the engine learns it after the decision): then the model
     * never reached the EPSN step and nothing of the context changes */
    f->is_void = chance(10);
    f->pass = !f->is_void && chance(75);
    f->alert = f->is_void ? 0 : model_open_commit(mctx, e, f->pass);
    f->ready = S.cycle + rnd(1, chance(20) ? 80 : 25);
    S.q_count++;
    if (f->is_void)
        return chance(50) ? IBSEC_R_BAD_ICRC : IBSEC_R_BAD_VCRC;
    return f->pass ? IBSEC_R_OK : IBSEC_R_AUTH_FAILED;
}

/* a reason for a packet that stops before the EPSN step */
static enum ibsec_reason early_reason(int idx)
{
    static const enum ibsec_reason early[] = {
        IBSEC_R_TRUNCATED, IBSEC_R_BAD_PKTLEN, IBSEC_R_BAD_OPCODE, IBSEC_R_TOO_LONG,
        IBSEC_R_BAD_VCRC, IBSEC_R_BAD_SECMODE, IBSEC_R_MODE_MISMATCH,
        IBSEC_R_STH_SIZE_MISMATCH, IBSEC_R_BAD_ICRC, IBSEC_R_BAD_UDP_PORT,
    };
    if (idx < 0)
        return chance(80) ? IBSEC_R_NO_CONTEXT : IBSEC_R_OK;
    return early[rnd(0, sizeof early / sizeof early[0] - 1)];
}

/* one packet decision (or a retry that waits) */
static void datapath_step(void)
{
    uint32_t destqp, psn;
    uint16_t pkey;
    if (S.sv.pending)   /* the engine decides nothing until the seal void */
        return;
    if (S.retry.active) {
        destqp = S.retry.destqp;
        pkey = S.retry.pkey;
        psn = S.retry.psn;
    } else {
        if (!chance(75))
            return;
        random_selector(&destqp, &pkey);
        psn = 0;
    }
    /* the lookup itself is checked by lookup_step */
    int idx = ibsec_ctx_lookup(&S.m, destqp, pkey);
    int reason;
    if (idx < 0 || S.m.ctx[idx].cfg.mode == IBSEC_MODE_NONE || chance(8)) {
        reason = idx >= 0 && S.m.ctx[idx].cfg.mode == IBSEC_MODE_NONE ? IBSEC_R_OK
                                                                        : (int)early_reason(idx);
    } else if (!S.m.keys[S.m.ctx[idx].cfg.key].valid) {
        reason = IBSEC_R_NO_KEY;
    } else {
        if (!S.retry.active)
            psn = random_psn((unsigned)idx);
        reason = epsn_step((unsigned)idx, psn);
    }
    S.in.dec_pkt = 1;   /* a retry pulses it too: it must not count */
    if (reason < 0) {
        if (!S.retry.active) {
            S.retry.active = 1;
            S.retry.since = S.cycle;
            S.retry.destqp = destqp;
            S.retry.pkey = pkey;
            S.retry.psn = psn;
        } else if (S.cycle - S.retry.since > STALL_LIMIT) {
            tb_fail(&S.res, "cycle %llu: a decision waits forever", (unsigned long long)S.cycle);
            S.retry.active = 0;
        }
        return;
    }
    S.retry.active = 0;
    S.in.cnt_valid = 1;
    S.in.cnt_reason = (unsigned)reason;
    S.m.count[model_op()][reason]++;
    S.n_reason[reason]++;
    S.decided++;
    S.n_dec++;
    S.last_progress = S.cycle;
}

/* seal void: the last ok decision taken back (cm_valid with cm_void), a random time after
 * it and never in a cycle with a decision; the model's tx_next returns to its value
 * before that decision, which the following EPSN answers and read-backs check */
static void seal_void_step(void)
{
    if (S.open || !S.sv.pending || S.in.ep_valid || !chance(50))
        return;
    S.in.cm_valid = 1;
    S.in.cm_void = 1;
    S.m.ctx[S.sv.ctx].tx_next = S.sv.tx_m;
    S.mc.ctx[S.sv.ctx].tx_next = S.sv.tx_mc;
    S.sv.pending = 0;
    S.n_seal_void++;
    S.last_progress = S.cycle;
}

/* the open commit of the oldest in-flight packet, a random time after its decision */
static void commit_step(void)
{
    if (!S.open || S.q_count == 0)
        return;
    inflight *f = &S.q[S.q_head];
    if (S.cycle < f->ready || !chance(80))
        return;
    S.in.cm_valid = 1;
    S.in.cm_pass = f->pass;
    S.in.cm_void = f->is_void;
    sample();
    check("cm_ctx", f->ctx, S.out.cm_ctx);
    check("cm_epsn", f->epsn, S.out.cm_epsn);
    check("cm_alert", f->alert, S.out.cm_alert);
    {
        unsigned w = S.wu_next;
        S.wu_next = (w + 1) % WU_LAT;
        S.wu[w].valid = 1;
        S.wu[w].pass = f->pass;
        S.wu[w].cycle = S.cycle;
        S.wu[w].ctx = f->ctx;
        S.wu[w].epsn = f->epsn;
        S.wu[w].r0 = S.mc.ctx[f->ctx].rx_next;
    }
    if (!f->is_void)
        check("model alert at commit time", f->alert,
              model_open_commit(&S.mc.ctx[f->ctx], f->epsn, f->pass));
    S.n_alert += (uint64_t)f->alert;
    S.n_void += (uint64_t)f->is_void;
    S.n_commit++;
    S.q_head = (S.q_head + 1) % QUEUE_MAX;
    S.q_count--;
    S.last_progress = S.cycle;
}

/* ---- key port (gcm_core's s_key_* handshake) --------------------------------------- */

static void key_port_step(void)
{
    S.in.m_key_ready = S.key_busy == 0;
    sample();
    if (!S.out.m_key_valid || S.key_busy)
        return;
    const command *c = &S.cmd_mc;
    unsigned words = IBSEC_GET(c->word, IBSEC_KEY_CMD_AES256) ? 8 : 4;
    check("key port: during a key install or zeroize command", 1, S.cmd_pending_mc && c->addr == IBSEC_REG_KEY_CMD);
    check("m_key_wipe", IBSEC_GET(c->word, IBSEC_KEY_CMD_OP) == IBSEC_KEY_CMD_OP_ZEROIZE, S.out.m_key_wipe);
    check("key port: pipe idle", 0, S.in.pipe_busy || S.q_count);
    check("m_key_slot", IBSEC_GET(c->word, IBSEC_KEY_CMD_SLOT), S.out.m_key_slot);
    check("m_key_aes256", IBSEC_GET(c->word, IBSEC_KEY_CMD_AES256), S.out.m_key_aes256);
    for (unsigned i = 0; i < words; i++)
        check("m_key_data", c->key_data[i], S.out.m_key_data[7 - i]);
    S.key_busy = rnd(1, KEY_BUSY_MAX);
}

/* ---- one cycle ----------------------------------------------------------------------- */

/* the DUT applied the pending command at the last edge: apply it to mc */
static void command_applied(void)
{
    if (!S.cmd_pending_mc) {
        tb_fail(&S.res, "cycle %llu: cfg_busy fell without a command", (unsigned long long)S.cycle);
        return;
    }
    check("command applied with the pipe idle", 0, S.prev_pipe_busy || S.prev_inflight);
    int err = apply_command(&S.mc, &S.cmd_mc);
    check("same command result for both models", S.pending_err, err);
    if (S.cmd_mc.addr == IBSEC_REG_CTX_CMD && IBSEC_GET(S.cmd_mc.word, IBSEC_CTX_CMD_OP) == IBSEC_CTX_CMD_OP_READ
        && err == IBSEC_STATUS_ERR_CODE_ACCEPTED)
        snapshot_ctx(&S.mc, IBSEC_GET(S.cmd_mc.word, IBSEC_CTX_CMD_INDEX), &S.snap);
    /* a completed install or zeroize clears the key staging (registers.md §3.5); staging
       writes wait for the command, so none is taken between the clear and this point */
    if (S.cmd_mc.addr == IBSEC_REG_KEY_CMD && err == IBSEC_STATUS_ERR_CODE_ACCEPTED
        && (IBSEC_GET(S.cmd_mc.word, IBSEC_KEY_CMD_OP) == IBSEC_KEY_CMD_OP_INSTALL
            || IBSEC_GET(S.cmd_mc.word, IBSEC_KEY_CMD_OP) == IBSEC_KEY_CMD_OP_ZEROIZE)) {
        memset(S.key_data, 0, sizeof S.key_data);
        S.key_salt = 0;
    }
    S.last_err = err;
    S.cmd_decided = S.pending_cmd_decided;
    S.cmd_pending_mc = 0;
}

static void cycle_outputs_check(void)
{
    check("irq_alert", any_alert(&S.mc), S.out.irq_alert);
    check("cfg_allow_plain", S.mc.allow_plain, S.out.cfg_allow_plain);
    check("cfg_mask_mf", S.mc.mask_mf, S.out.cfg_mask_mf);
    check("cfg_mgmt", (S.config_mc & (IBSEC_CONFIG_MGMT_QP0_MASK | IBSEC_CONFIG_MGMT_QP1_MASK |
                                      IBSEC_CONFIG_MGMT_PERM_MASK)) >> IBSEC_CONFIG_MGMT_QP0_LSB,
          S.out.cfg_mgmt);
}

static void reset_dut(void)
{
    memset(&S.in, 0, sizeof S.in);
    S.in.rst = 1;
    for (int i = 0; i < 3; i++) {
        dut_set(&S.in);
        dut_tick();
    }
    S.in.rst = 0;
}

/* reset: the DUT and the model start again (engine_init), the harness forgets its state */
static void reset_all(void)
{
    reset_dut();
    ibsec_engine_free(&S.m);
    ibsec_engine_free(&S.mc);
    if (ibsec_engine_init(&S.m, S.n_keys, S.n_ctx, 1) != 0
        || ibsec_engine_init(&S.mc, S.n_keys, S.n_ctx, 1) != 0) {
        fprintf(stderr, "tb_tables: cannot allocate the model\n");
        exit(2);
    }
    S.ops_count = 0;
    S.bus_active = S.bus_took = 0;
    S.bus_wait = S.bus_sample = 0;
    S.bus_r1 = S.wr_done = 0;
    S.cmd_pending_mc = 0;
    S.last_err = IBSEC_STATUS_ERR_CODE_ACCEPTED;
    /* after reset: DestQP 0 bypasses, as the model's ibsec_engine_init */
    S.config_mc = IBSEC_SET(IBSEC_CONFIG_MGMT_QP0, IBSEC_CONFIG_MGMT_QP0_BYPASS);
    S.decided = S.cmd_decided = 0;
    S.q_count = 0;
    memset(S.wu, 0, sizeof S.wu);
    S.wu_next = 0;
    S.retry.active = 0;
    memset(S.lk_hist, 0, sizeof S.lk_hist);
    S.busy_seen = 0;
    S.seal_busy = S.key_busy = 0;
    S.sv.pending = 0;
    S.prev_busy = S.prev_pipe_busy = 0;
    S.prev_inflight = 0;
    memset(&S.snap, 0, sizeof S.snap);
}

static void one_cycle(void)
{
    int pipe_busy = S.q_count > 0 || S.seal_busy > 0 || S.sv.pending;
    memset(&S.in, 0, sizeof S.in);
    S.in.pipe_busy = pipe_busy;
    S.in.m_key_ready = S.key_busy == 0;
    sample();

    if (S.prev_busy && !S.out.cfg_busy)
        command_applied();
    cycle_outputs_check();

    S.cmd_taken = 0;
    S.wr_done = 0;
    bus_step();
    key_port_step();
    lookup_step();
    if (!S.out.cfg_busy && S.cycle + 2000 < S.cycles)
        datapath_step();
    commit_step();
    seal_void_step();
    if (S.cmd_taken) {
        S.pending_err = apply_command(&S.m, &S.cmd_now);
        /* a context write on the context of a pending seal void: the DUT applies it
           after the void (the void keeps the pipe busy), so the void must not take the
           written tx_next back in m */
        if (S.sv.pending && S.cmd_now.addr == IBSEC_REG_CTX_CMD
            && IBSEC_GET(S.cmd_now.word, IBSEC_CTX_CMD_OP) == IBSEC_CTX_CMD_OP_WRITE
            && IBSEC_GET(S.cmd_now.word, IBSEC_CTX_CMD_INDEX) == S.sv.ctx
            && S.pending_err == IBSEC_STATUS_ERR_CODE_ACCEPTED)
            S.sv.tx_m = S.m.ctx[S.sv.ctx].tx_next;
        S.pending_cmd_decided = S.decided;
        S.cmd_mc = S.cmd_now;
        S.cmd_pending_mc = 1;
        S.n_cmd++;
        S.n_refused += S.pending_err != IBSEC_STATUS_ERR_CODE_ACCEPTED;
    }
    if (S.wr_done && S.in.reg_addr == IBSEC_REG_CNT_CTRL
        && (S.in.reg_wdata & 1u))
        memset(S.m.count, 0, sizeof S.m.count);

    S.prev_busy = S.out.cfg_busy || S.cmd_taken;
    S.prev_pipe_busy = pipe_busy;
    S.prev_inflight = S.q_count;
    sample();
    dut_tick();
    if (S.seal_busy)
        S.seal_busy--;
    if (S.key_busy)
        S.key_busy--;
    if (!S.final_phase && S.ops_count == 0 && !S.bus_active && S.cycle >= S.bus_idle_until)
        software_scenario();
    if (S.cycle - S.last_progress > STALL_LIMIT) {
        tb_fail(&S.res, "cycle %llu: no progress for %d cycles", (unsigned long long)S.cycle,
                STALL_LIMIT);
        S.last_progress = S.cycle;
    }
    S.cycle++;
}

/* end of run: every counter, every context, DECIDED, the alert summary */
static void final_checks(void)
{
    for (unsigned r = 0; r < 64; r++)
        push_rd64(IBSEC_REG_CNT_LO(0) + 8 * r);
    for (unsigned c = 0; c < S.n_ctx; c++)
        sc_ctx_read(c);
    for (unsigned w = 0; w < 8; w++)
        push_rd(IBSEC_REG_ALERT_SUMMARY(0) + 4 * w);
    push_rd64(IBSEC_REG_DECIDED_LO);
    push_rd(IBSEC_REG_KEY_VALID);
    push_rd(IBSEC_REG_KEY_AES256);
    uint64_t limit = S.cycle + 200000;
    S.final_phase = 1;
    while ((S.ops_count || S.bus_active || S.q_count || S.out.cfg_busy) && S.cycle < limit) {
        S.bus_idle_until = 0;
        one_cycle();
    }
    check("final operations finished", 0, S.ops_count + S.q_count);
}

static void usage(void)
{
    fprintf(stderr, "usage: Vtb [--seed N] [--cycles N] [--inflight N] [--name NAME]\n");
    exit(2);
}

static void parse_args(int argc, char **argv, uint64_t *seed, const char **name)
{
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        char *end;
        if (strcmp(argv[i], "--name") == 0) {
            *name = argv[++i];
            continue;
        }
        unsigned long long v = strtoull(argv[i + 1], &end, 0);
        if (*end != '\0') {
            fprintf(stderr, "tb_tables: %s needs a number, got '%s'\n", argv[i], argv[i + 1]);
            exit(2);
        }
        if (strcmp(argv[i], "--seed") == 0)
            *seed = v;
        else if (strcmp(argv[i], "--cycles") == 0)
            S.cycles = v;
        else if (strcmp(argv[i], "--inflight") == 0)
            S.inflight_max = (unsigned)v;
        else {
            fprintf(stderr, "tb_tables: unknown option %s\n", argv[i]);
            usage();
        }
        i++;
    }
    if (S.inflight_max < 1 || S.inflight_max > QUEUE_MAX) {
        fprintf(stderr, "tb_tables: --inflight must be 1..%d\n", QUEUE_MAX);
        exit(2);
    }
}

/* table sizes and the operation from CAPS and VERSION, read before anything else */
static uint32_t bus_read_raw(unsigned addr)
{
    memset(&S.in, 0, sizeof S.in);
    S.in.reg_req = 1;
    S.in.reg_addr = addr;
    for (int i = 0; i < 8; i++) {
        sample();
        if (S.out.reg_ack) {
            uint32_t v = S.out.reg_rdata;
            S.in.reg_req = 0;
            sample();
            dut_tick();
            return v;
        }
        dut_tick();
    }
    fprintf(stderr, "tb_tables: no reg_ack\n");
    exit(1);
}

static void print_stats(void)
{
    printf("%s: %llu cycles, %llu packets decided, %llu EPSN answers (%llu ok), %llu waits, "
           "%llu commits (%llu void), %llu seal voids, %llu alerts, %llu commands "
           "(%llu refused), %llu register reads\n",
           S.res.name, (unsigned long long)S.cycle, (unsigned long long)S.n_dec,
           (unsigned long long)S.n_ep, (unsigned long long)S.n_ok, (unsigned long long)S.n_wait,
           (unsigned long long)S.n_commit, (unsigned long long)S.n_void,
           (unsigned long long)S.n_seal_void, (unsigned long long)S.n_alert, (unsigned long long)S.n_cmd, (unsigned long long)S.n_refused,
           (unsigned long long)S.n_reads);
    printf("%s: EPSN reasons: ok %llu, epsn_exhausted %llu, psn_too_old %llu, replay %llu, "
           "nonce_reuse %llu, auth_failed %llu\n", S.res.name,
           (unsigned long long)S.n_reason[IBSEC_R_OK],
           (unsigned long long)S.n_reason[IBSEC_R_EPSN_EXHAUSTED],
           (unsigned long long)S.n_reason[IBSEC_R_PSN_TOO_OLD],
           (unsigned long long)S.n_reason[IBSEC_R_REPLAY],
           (unsigned long long)S.n_reason[IBSEC_R_NONCE_REUSE],
           (unsigned long long)S.n_reason[IBSEC_R_AUTH_FAILED]);
}

int tb_tables_main(int argc, char **argv)
{
    uint64_t seed = 1;
    const char *name = "tables";
    S.cycles = 200000;
    S.inflight_max = 8;
    parse_args(argc, argv, &seed, &name);
    tb_rng_seed(&S.rng, seed);
    tb_result_init(&S.res, name);

    reset_dut();
    uint32_t caps = bus_read_raw(IBSEC_REG_CAPS);
    S.n_keys = IBSEC_GET(caps, IBSEC_CAPS_KEY_SLOTS);
    S.n_ctx = IBSEC_GET(caps, IBSEC_CAPS_CTX_SLOTS);
    S.open = IBSEC_GET(bus_read_raw(IBSEC_REG_VERSION), IBSEC_VERSION_OPEN);
    if (S.n_keys < 1 || S.n_keys > 32 || S.n_ctx < 1 || S.n_ctx > 256) {
        fprintf(stderr, "tb_tables: CAPS 0x%08x out of range\n", caps);
        return 1;
    }
    reset_all();
    for (unsigned i = 0; i < QP_POOL; i++)
        S.qp_pool[i] = tb_rand32(&S.rng) & 0xFFFFFFu;
    S.qp_pool[0] = 0;
    S.qp_pool[1] = 0xFFFFFFu;
    for (unsigned i = 0; i < PK_POOL; i++)
        S.pk_pool[i] = (uint16_t)(tb_rand32(&S.rng) & 0x7FFFu);
    S.pk_pool[0] = 0x7FFFu;
    S.qp_pool[2] = S.pk_pool[1];   /* a QPN equal to a P_Key: different selectors */

    initial_setup();
    uint64_t reset_at = S.cycles / 2;
    ibsec_progress prog;   /* a line every few seconds on a long run */
    ibsec_progress_start(&prog, name, "cycles", S.cycles);
    while (S.cycle < S.cycles) {
        ibsec_progress_update(&prog, S.cycle);
        if (S.cycle == reset_at) {
            reset_all();
            initial_setup();
        }
        one_cycle();
    }
    ibsec_progress_end(&prog, S.cycle);
    final_checks();
    print_stats();
    ibsec_engine_free(&S.m);
    ibsec_engine_free(&S.mc);
    dut_finish();
    return tb_summary(&S.res);
}
