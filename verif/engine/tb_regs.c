/* tb_regs.c — see tb_regs.h. */
#include "tb_regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_engine.h"

void tb_regs_init(struct tb_regs *r, int inst)
{
    memset(r, 0, sizeof *r);
    r->inst = inst;
}

int tb_regs_idle(const struct tb_regs *r)
{
    return r->head == r->tail;
}

void tb_regs_clear(struct tb_regs *r)
{
    r->head = r->tail = 0;
    r->gap = 0;
    r->cycles_waiting = 0;
    dut_set_reg(r->inst, 0, 0, 0, 0);
}

static void push(struct tb_regs *r, enum tb_regop_kind kind, unsigned addr, uint32_t wdata,
                 uint32_t *dst, int *done)
{
    if (r->tail - r->head >= TB_REGQ) {
        fprintf(stderr, "tb_engine: register queue overflow\n");
        exit(1);
    }
    struct tb_regop *o = &r->q[r->tail++ % TB_REGQ];
    o->kind = kind;
    o->addr = addr;
    o->wdata = wdata;
    o->dst = dst;
    o->done = done;
    if (done)
        *done = 0;
}

void tb_regs_write(struct tb_regs *r, unsigned addr, uint32_t v)
{
    push(r, TB_RO_WRITE, addr, v, NULL, NULL);
}

void tb_regs_read(struct tb_regs *r, unsigned addr, uint32_t *dst, int *done)
{
    push(r, TB_RO_READ, addr, 0, dst, done);
}

void tb_regs_drive(struct tb_regs *r)
{
    if (r->gap || tb_regs_idle(r)) {
        dut_set_reg(r->inst, 0, 0, 0, 0);
        return;
    }
    const struct tb_regop *o = &r->q[r->head % TB_REGQ];
    int we = o->kind == TB_RO_WRITE;
    dut_set_reg(r->inst, 1, we, o->kind == TB_RO_WAIT_IDLE ? IBSEC_REG_STATUS : o->addr, we ? o->wdata : 0);
}

void tb_regs_sample(struct tb_regs *r)
{
    uint32_t rdata = 0;
    if (r->gap) {
        r->gap = 0;
        return;
    }
    if (tb_regs_idle(r))
        return;
    if (!dut_reg_ack(r->inst, &rdata)) {
        r->cycles_waiting++;
        return;
    }
    r->cycles_waiting = 0;
    r->gap = 1;
    struct tb_regop *o = &r->q[r->head % TB_REGQ];
    if (o->dst && o->kind != TB_RO_WRITE)
        *o->dst = rdata;
    if (o->kind == TB_RO_WAIT_IDLE && (rdata & IBSEC_STATUS_BUSY_MASK))
        return; /* poll again */
    if (o->done)
        *o->done = 1;
    r->head++;
    r->ops++;
}

/* The write that starts a command; res->started is set when it is acknowledged. */
static void cmd_write(struct tb_regs *r, unsigned addr, uint32_t v, struct tb_cmd_result *res)
{
    if (res)
        res->started = 0;
    push(r, TB_RO_WRITE, addr, v, NULL, res ? &res->started : NULL);
}

/* STATUS and CMD_DECIDED after a command (read LO then HI, §3.3). */
static void finish_cmd(struct tb_regs *r, struct tb_cmd_result *res)
{
    if (!res) {
        push(r, TB_RO_WAIT_IDLE, IBSEC_REG_STATUS, 0, NULL, NULL);
        return;
    }
    res->done = 0;
    push(r, TB_RO_WAIT_IDLE, IBSEC_REG_STATUS, 0, &res->status, NULL);
    push(r, TB_RO_READ, IBSEC_REG_CMD_DECIDED_LO, 0, &res->decided[0], NULL);
    push(r, TB_RO_READ, IBSEC_REG_CMD_DECIDED_HI, 0, &res->decided[1], &res->done);
}

/* Four bytes big-endian into a register word (byte 4i in [31:24], §3). */
static uint32_t be_word(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

void tb_regs_key_install(struct tb_regs *r, unsigned slot, const uint8_t *key, size_t key_len,
                         const uint8_t salt[IBSEC_SALT_LEN], struct tb_cmd_result *res)
{
    for (unsigned i = 0; i < 8; i++)
        tb_regs_write(r, IBSEC_REG_KEY_DATA(i), 4 * i < key_len ? be_word(key + 4 * i) : 0);
    tb_regs_write(r, IBSEC_REG_KEY_SALT, be_word(salt));
    cmd_write(r, IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_SLOT, slot) | IBSEC_SET(IBSEC_KEY_CMD_AES256, key_len == 32) |
                              IBSEC_SET(IBSEC_KEY_CMD_OP, IBSEC_KEY_CMD_OP_INSTALL), res);
    finish_cmd(r, res);
}

/* KEY_CMD install alone, with whatever KEY_DATA and KEY_SALT hold: after an install the
 * block has cleared them (docs/registers.md §3.5), so this installs the all-zero key and
 * salt of key_len bytes. */
void tb_regs_key_install_staged(struct tb_regs *r, unsigned slot, size_t key_len,
                                struct tb_cmd_result *res)
{
    cmd_write(r, IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_SLOT, slot) | IBSEC_SET(IBSEC_KEY_CMD_AES256, key_len == 32) |
                              IBSEC_SET(IBSEC_KEY_CMD_OP, IBSEC_KEY_CMD_OP_INSTALL), res);
    finish_cmd(r, res);
}

void tb_regs_key_clear(struct tb_regs *r, unsigned slot, struct tb_cmd_result *res)
{
    cmd_write(r, IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_SLOT, slot) | IBSEC_SET(IBSEC_KEY_CMD_OP, IBSEC_KEY_CMD_OP_CLEAR), res);
    finish_cmd(r, res);
}

void tb_regs_key_zeroize(struct tb_regs *r, unsigned slot, const uint8_t *stale,
                         struct tb_cmd_result *res)
{
    if (stale) {
        for (unsigned i = 0; i < 8; i++)
            tb_regs_write(r, IBSEC_REG_KEY_DATA(i), be_word(stale + 4 * i));
        tb_regs_write(r, IBSEC_REG_KEY_SALT, be_word(stale + 32));
    }
    cmd_write(r, IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_SLOT, slot) | IBSEC_SET(IBSEC_KEY_CMD_OP, IBSEC_KEY_CMD_OP_ZEROIZE), res);
    finish_cmd(r, res);
}

/* CTX_CFG fields (§3.6). */
static uint32_t ctx_cfg_word(const ibsec_ctx_cfg *c)
{
    return IBSEC_SET(IBSEC_CTX_CFG_SEL, c->sel) | IBSEC_SET(IBSEC_CTX_CFG_MODE, c->mode) |
           IBSEC_SET(IBSEC_CTX_CFG_STH_CODE, c->sth_code) | IBSEC_SET(IBSEC_CTX_CFG_DIR, c->dir) |
           IBSEC_SET(IBSEC_CTX_CFG_KEY, c->key);
}

void tb_regs_ctx_write(struct tb_regs *r, unsigned idx, const ibsec_ctx_cfg *c,
                       struct tb_cmd_result *res)
{
    tb_regs_write(r, IBSEC_REG_CTX_MATCH, c->match);
    tb_regs_write(r, IBSEC_REG_CTX_CFG, ctx_cfg_word(c));
    tb_regs_write(r, IBSEC_REG_CTX_TX_NEXT_LO, (uint32_t)c->tx_next);
    tb_regs_write(r, IBSEC_REG_CTX_TX_NEXT_HI, (uint32_t)(c->tx_next >> 32));
    tb_regs_write(r, IBSEC_REG_CTX_RX_NEXT_LO, (uint32_t)c->rx_next);
    tb_regs_write(r, IBSEC_REG_CTX_RX_NEXT_HI, (uint32_t)(c->rx_next >> 32));
    tb_regs_write(r, IBSEC_REG_CTX_ALERT_THRESH, c->alert_threshold);
    cmd_write(r, IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_INDEX, idx) | IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_WRITE), res);
    finish_cmd(r, res);
}

void tb_regs_ctx_read(struct tb_regs *r, unsigned idx, uint32_t rd[TB_CTX_RD_WORDS],
                      struct tb_cmd_result *res)
{
    cmd_write(r, IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_INDEX, idx) | IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_READ), res);
    finish_cmd(r, res);
    for (unsigned i = 0; i < TB_CTX_RD_WORDS; i++)
        tb_regs_read(r, IBSEC_REG_CTX_RD_CFG + 4u * i, &rd[i], NULL);
}

/* CONFIG.MGMT_* of a model engine's policies (docs/registers.md §3: 0 context, 1 bypass,
 * 2 drop) */
uint32_t tb_regs_mgmt_bits(const ibsec_engine *e)
{
    static const uint32_t code[] = { [IBSEC_MGMT_CONTEXT] = IBSEC_CONFIG_MGMT_QP0_CONTEXT,
                                     [IBSEC_MGMT_BYPASS] = IBSEC_CONFIG_MGMT_QP0_BYPASS,
                                     [IBSEC_MGMT_DROP] = IBSEC_CONFIG_MGMT_QP0_DROP };
    return IBSEC_SET(IBSEC_CONFIG_MGMT_QP0, code[e->mgmt[IBSEC_MGMT_QP0]]) |
           IBSEC_SET(IBSEC_CONFIG_MGMT_QP1, code[e->mgmt[IBSEC_MGMT_QP1]]) |
           IBSEC_SET(IBSEC_CONFIG_MGMT_PERM, code[e->mgmt[IBSEC_MGMT_MCAST]]);
}

void tb_regs_config(struct tb_regs *r, int allow_plain, int mask_mf, uint32_t mgmt_bits,
                    struct tb_cmd_result *res)
{
    cmd_write(r, IBSEC_REG_CONFIG, (allow_plain ? IBSEC_CONFIG_ALLOW_PLAIN_MASK : 0) |
                             (mask_mf ? IBSEC_CONFIG_MASK_MF_MASK : 0) | mgmt_bits, res);
    finish_cmd(r, res);
}

void tb_regs_load_engine(struct tb_regs *r, const ibsec_engine *e, struct tb_cmd_result *res)
{
    for (unsigned k = 0; k < e->n_keys; k++)
        if (e->keys[k].valid)
            tb_regs_key_install(r, k, e->keys[k].key, e->keys[k].key_len, e->keys[k].salt, NULL);
    for (unsigned i = 0; i < e->n_ctx; i++) {
        if (!e->ctx[i].valid)
            continue;
        /* the configured state is the live state of a freshly written context */
        ibsec_ctx_cfg c = e->ctx[i].cfg;
        tb_regs_ctx_write(r, i, &c, NULL);
    }
    tb_regs_config(r, e->allow_plain, e->mask_mf, tb_regs_mgmt_bits(e), res);
}

void tb_regs_counters(struct tb_regs *r, uint32_t cnt[IBSEC_R_COUNT][2], int *done)
{
    for (unsigned i = 0; i < IBSEC_R_COUNT; i++) {
        tb_regs_read(r, IBSEC_REG_CNT_LO(i), &cnt[i][0], NULL);
        tb_regs_read(r, IBSEC_REG_CNT_HI(i), &cnt[i][1], i + 1 == IBSEC_R_COUNT ? done : NULL);
    }
}
