/*
 * ibsec_regmodel.c — docs/registers.md §3 over the C model (ibsec_regmodel.h).
 */
#include "ibsec_regmodel.h"

#include <string.h>

#include <openssl/crypto.h>

void ibsec_regmodel_init(ibsec_regmodel *m, ibsec_engine *e, bool open)
{
    memset(m, 0, sizeof *m);
    m->e = e;
    m->open = open;
    m->config = IBSEC_SET(IBSEC_CONFIG_MGMT_QP0, IBSEC_CONFIG_MGMT_QP0_BYPASS); /* §3.2 reset */
}

/* A CONFIG.MGMT_* field as the policy (§3.2: bit 1 drop, else bit 0 bypass). */
static enum ibsec_mgmt_policy mgmt_policy_of(uint32_t v)
{
    return (v & 2u) ? IBSEC_MGMT_DROP : (v & 1u) ? IBSEC_MGMT_BYPASS : IBSEC_MGMT_CONTEXT;
}

ibsec_drv_bus ibsec_regmodel_bus(ibsec_regmodel *m)
{
    ibsec_drv_bus b = { m, ibsec_regmodel_write, ibsec_regmodel_read };
    return b;
}

static void set_err(ibsec_regmodel *m, unsigned code)
{
    m->status = code ? (IBSEC_STATUS_ERR_MASK | IBSEC_SET(IBSEC_STATUS_ERR_CODE, code)) : 0;
}

/* §3.5 KEY_CMD. */
static void key_cmd(ibsec_regmodel *m, uint32_t w)
{
    unsigned slot = IBSEC_GET(w, IBSEC_KEY_CMD_SLOT), op = IBSEC_GET(w, IBSEC_KEY_CMD_OP);
    uint8_t key[32], salt[4];

    if (slot >= m->e->n_keys)
        return set_err(m, 1);
    if (op == IBSEC_KEY_CMD_OP_CLEAR) {
        ibsec_key_clear(m->e, slot);
        return set_err(m, 0);
    }
    if (op == IBSEC_KEY_CMD_OP_ZEROIZE) {
        /* the slot wiped (for packets a clear); the staging cleared as after an install */
        ibsec_key_clear(m->e, slot);
        OPENSSL_cleanse(m->key_data, sizeof m->key_data);
        m->key_salt = 0;
        return set_err(m, 0);
    }
    if (op != IBSEC_KEY_CMD_OP_INSTALL)
        return set_err(m, 2);
    for (unsigned i = 0; i < 32; i++)
        key[i] = (uint8_t)(m->key_data[i / 4] >> (24 - 8 * (i % 4)));
    for (unsigned i = 0; i < 4; i++)
        salt[i] = (uint8_t)(m->key_salt >> (24 - 8 * i));
    ibsec_key_set(m->e, slot, key, IBSEC_GET(w, IBSEC_KEY_CMD_AES256) ? 32 : 16, salt);
    OPENSSL_cleanse(key, sizeof key);
    /* the block clears its staging when an install completes (keys are write-only) */
    OPENSSL_cleanse(m->key_data, sizeof m->key_data);
    m->key_salt = 0;
    set_err(m, 0);
}

/* The staged context as a model configuration. */
static void staged_cfg(const ibsec_regmodel *m, ibsec_ctx_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->sel = (m->ctx_cfg & 1u) ? IBSEC_SEL_PKEY : IBSEC_SEL_QP;
    c->match = m->ctx_match;
    c->mode = (enum ibsec_mode)IBSEC_GET(m->ctx_cfg, IBSEC_CTX_CFG_MODE);
    c->sth_code = IBSEC_GET(m->ctx_cfg, IBSEC_CTX_CFG_STH_CODE);
    c->dir = IBSEC_GET(m->ctx_cfg, IBSEC_CTX_CFG_DIR);
    c->key = IBSEC_GET(m->ctx_cfg, IBSEC_CTX_CFG_KEY);
    c->tx_next = ((uint64_t)m->ctx_tx_hi << 32) | m->ctx_tx_lo;
    c->rx_next = ((uint64_t)m->ctx_rx_hi << 32) | m->ctx_rx_lo;
    c->alert_threshold = m->ctx_thresh;
}

/* §3.4 ERR_CODE of a context write, in the documented order (3..10). */
static unsigned ctx_write_err(const ibsec_regmodel *m, unsigned idx, const ibsec_ctx_cfg *c)
{
    if (c->sel == IBSEC_SEL_QP && c->match > 0xFFFFFFu) return 3;
    if (c->sel == IBSEC_SEL_PKEY && c->match > 0x7FFFu) return 4;
    if (c->mode >= IBSEC_MODE_COUNT) return 5;
    if (ibsec_mode_has_sth(c->mode) && c->sth_code != 1 && c->sth_code != 2) return 6;
    if (!ibsec_mode_has_sth(c->mode) && c->sth_code != 0) return 7;
    if ((c->tx_next | c->rx_next) >> 63) return 8;
    if (c->mode != IBSEC_MODE_NONE && c->key >= m->e->n_keys) return 9;
    for (unsigned i = 0; i < m->e->n_ctx; i++)
        if (i != idx && m->e->ctx[i].valid && m->e->ctx[i].cfg.sel == c->sel &&
            m->e->ctx[i].cfg.match == c->match)
            return 10;
    return 0;
}

/* §3.6 CTX_CMD read: the snapshot CTX_RD_CFG .. CTX_RD_ALERT_THRESH. */
static void ctx_snapshot(ibsec_regmodel *m, unsigned idx)
{
    const ibsec_ctx *c = &m->e->ctx[idx];

    memset(m->rd, 0, sizeof m->rd);
    if (!c->valid)
        return;
    m->rd[0] = IBSEC_CTX_RD_CFG_VALID_MASK | IBSEC_SET(IBSEC_CTX_RD_CFG_SEL, c->cfg.sel == IBSEC_SEL_PKEY) |
               IBSEC_SET(IBSEC_CTX_RD_CFG_MODE, c->cfg.mode) | IBSEC_SET(IBSEC_CTX_RD_CFG_STH_CODE, c->cfg.sth_code) |
               IBSEC_SET(IBSEC_CTX_RD_CFG_DIR, c->cfg.dir) | IBSEC_SET(IBSEC_CTX_RD_CFG_KEY, c->cfg.key);
    m->rd[1] = c->cfg.match;
    m->rd[2] = (uint32_t)c->tx_next;
    m->rd[3] = (uint32_t)(c->tx_next >> 32);
    m->rd[4] = (uint32_t)c->rx_next;
    m->rd[5] = (uint32_t)(c->rx_next >> 32);
    m->rd[6] = (uint32_t)c->rx_bitmap;
    m->rd[7] = (uint32_t)(c->rx_bitmap >> 32);
    m->rd[8] = c->fail_consec;
    m->rd[9] = c->alert ? 1u : 0u;
    m->rd[10] = c->alert_count;
    m->rd[11] = c->cfg.alert_threshold;
}

/* §3.6 CTX_CMD. */
static void ctx_cmd(ibsec_regmodel *m, uint32_t w)
{
    unsigned idx = IBSEC_GET(w, IBSEC_CTX_CMD_INDEX), op = IBSEC_GET(w, IBSEC_CTX_CMD_OP), code;
    ibsec_ctx_cfg c;

    if (idx >= m->e->n_ctx)
        return set_err(m, 1);
    switch (op) {
    case IBSEC_CTX_CMD_OP_WRITE:
        staged_cfg(m, &c);
        if ((code = ctx_write_err(m, idx, &c)) != 0)
            return set_err(m, code);
        ibsec_ctx_set(m->e, idx, &c, NULL);
        return set_err(m, 0);
    case IBSEC_CTX_CMD_OP_CLEAR:
        ibsec_ctx_clear(m->e, idx);
        return set_err(m, 0);
    case 3:
        ibsec_ctx_clear_alert(m->e, idx);
        return set_err(m, 0);
    case IBSEC_CTX_CMD_OP_READ:
        ctx_snapshot(m, idx);
        return set_err(m, 0);
    default:
        return set_err(m, 2);
    }
}

void ibsec_regmodel_write(void *vm, uint32_t addr, uint32_t data)
{
    ibsec_regmodel *m = vm;

    addr &= 0xFFCu;
    if (addr >= IBSEC_REG_KEY_DATA(0) && addr <= IBSEC_REG_KEY_DATA(7)) {
        m->key_data[(addr - IBSEC_REG_KEY_DATA(0)) / 4] = data;
        return;
    }
    switch (addr) {
    case IBSEC_REG_CONFIG:
        m->config = data & IBSEC_CONFIG_BITS;
        m->e->allow_plain = IBSEC_GET(data, IBSEC_CONFIG_ALLOW_PLAIN) != 0;
        m->e->mask_mf = IBSEC_GET(data, IBSEC_CONFIG_MASK_MF) != 0;
        m->e->mgmt[IBSEC_MGMT_QP0] = mgmt_policy_of(IBSEC_GET(data, IBSEC_CONFIG_MGMT_QP0));
        m->e->mgmt[IBSEC_MGMT_QP1] = mgmt_policy_of(IBSEC_GET(data, IBSEC_CONFIG_MGMT_QP1));
        m->e->mgmt[IBSEC_MGMT_MCAST] = mgmt_policy_of(IBSEC_GET(data, IBSEC_CONFIG_MGMT_PERM));
        set_err(m, 0);
        break;
    case IBSEC_REG_CNT_CTRL:
        if (data & 1u)
            memset(m->e->count[m->open ? IBSEC_OP_OPEN : IBSEC_OP_SEAL], 0,
                   sizeof m->e->count[0]);
        break;
    case IBSEC_REG_KEY_SALT:         m->key_salt = data; break;
    case IBSEC_REG_KEY_CMD:
        m->key_cmd = data & IBSEC_KEY_CMD_BITS;
        key_cmd(m, data);
        break;
    case IBSEC_REG_CTX_MATCH:        m->ctx_match = data; break;
    case IBSEC_REG_CTX_CFG:          m->ctx_cfg = data & IBSEC_CTX_CFG_BITS; break;
    case IBSEC_REG_CTX_TX_NEXT_LO:   m->ctx_tx_lo = data; break;
    case IBSEC_REG_CTX_TX_NEXT_HI:   m->ctx_tx_hi = data; break;
    case IBSEC_REG_CTX_RX_NEXT_LO:   m->ctx_rx_lo = data; break;
    case IBSEC_REG_CTX_RX_NEXT_HI:   m->ctx_rx_hi = data; break;
    case IBSEC_REG_CTX_ALERT_THRESH: m->ctx_thresh = data; break;
    case IBSEC_REG_CTX_CMD:
        m->ctx_cmd = data & IBSEC_CTX_CMD_BITS;
        ctx_cmd(m, data);
        break;
    default: break; /* read-only or unused: acknowledged and ignored (§1) */
    }
}

static uint32_t key_bitmap(const ibsec_regmodel *m, bool aes256)
{
    uint32_t v = 0;
    for (unsigned s = 0; s < m->e->n_keys && s < 32; s++)
        if (m->e->keys[s].valid && (!aes256 || m->e->keys[s].key_len == 32))
            v |= 1u << s;
    return v;
}

uint32_t ibsec_regmodel_read(void *vm, uint32_t addr)
{
    ibsec_regmodel *m = vm;
    enum ibsec_op op = m->open ? IBSEC_OP_OPEN : IBSEC_OP_SEAL;

    addr &= 0xFFCu;
    if (addr >= IBSEC_REG_KEY_DATA(0) && addr <= IBSEC_REG_KEY_DATA(7))
        return 0; /* write-only: key material never reads back */
    if (addr >= IBSEC_REG_CTX_RD_CFG && addr <= IBSEC_REG_CTX_RD_ALERT_THRESH)
        return m->rd[(addr - IBSEC_REG_CTX_RD_CFG) / 4];
    if (addr >= IBSEC_REG_CNT_LO(0) && addr < IBSEC_REG_CNT_LO(IBSEC_REG_CNT_LO_COUNT)) {
        unsigned r = (addr - IBSEC_REG_CNT_LO(0)) / 8;
        uint64_t v = r < IBSEC_R_NOSPACE ? m->e->count[op][r] : 0;
        if ((addr & 4u) == 0) {
            m->cnt_latch = (uint32_t)(v >> 32);
            return (uint32_t)v;
        }
        return m->cnt_latch;
    }
    switch (addr) {
    case IBSEC_REG_ID:              return IBSEC_ID_VALUE_RESET;
    case IBSEC_REG_VERSION:
        return IBSEC_SET(IBSEC_VERSION_MAJOR, IBSEC_VERSION_MAJOR_RESET) |
               IBSEC_SET(IBSEC_VERSION_MINOR, IBSEC_VERSION_MINOR_RESET) | IBSEC_SET(IBSEC_VERSION_OPEN, m->open);
    case IBSEC_REG_CAPS:
        return IBSEC_SET(IBSEC_CAPS_KEY_SLOTS, m->e->n_keys) | IBSEC_SET(IBSEC_CAPS_CTX_SLOTS, m->e->n_ctx);
    case IBSEC_REG_CONFIG:          return m->config;
    case IBSEC_REG_STATUS:          return m->status;
    case IBSEC_REG_KEY_SALT:        return 0; /* write-only */
    case IBSEC_REG_KEY_VALID:       return key_bitmap(m, false);
    case IBSEC_REG_KEY_AES256:      return key_bitmap(m, true);
    case IBSEC_REG_CTX_MATCH:       return m->ctx_match;
    case IBSEC_REG_CTX_CFG:         return m->ctx_cfg;
    case IBSEC_REG_CTX_TX_NEXT_LO:  return m->ctx_tx_lo;
    case IBSEC_REG_CTX_TX_NEXT_HI:  return m->ctx_tx_hi;
    case IBSEC_REG_CTX_RX_NEXT_LO:  return m->ctx_rx_lo;
    case IBSEC_REG_CTX_RX_NEXT_HI:  return m->ctx_rx_hi;
    case IBSEC_REG_CTX_ALERT_THRESH: return m->ctx_thresh;
    case IBSEC_REG_KEY_CMD:       return m->key_cmd;
    case IBSEC_REG_CTX_CMD:       return m->ctx_cmd;
    default:                      return 0;
    }
}
