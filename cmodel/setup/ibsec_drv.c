/*
 * ibsec_drv.c — register sequences of docs/registers.md for one connection (ibsec_drv.h).
 */
#include "ibsec_drv.h"

#include <string.h>

#include <openssl/crypto.h>

const char *ibsec_drv_err_name(enum ibsec_drv_err e)
{
    static const char *const names[DRV_ERR_COUNT] = {
        "ok", "bad_id", "wrong_role", "no_key_slot", "no_ctx_slot", "busy_timeout",
        "refused", "readback", "bad_arg",
    };
    return (unsigned)e < DRV_ERR_COUNT ? names[e] : "?";
}

static void wr(ibsec_drv_engine *e, uint32_t addr, uint32_t data)
{
    e->writes++;
    e->bus.write(e->bus.ctx, addr, data);
}

static uint32_t rd(ibsec_drv_engine *e, uint32_t addr)
{
    e->reads++;
    return e->bus.read(e->bus.ctx, addr);
}

enum ibsec_drv_err ibsec_drv_attach(ibsec_drv_engine *e, const ibsec_drv_bus *bus, bool want_open)
{
    uint32_t caps;

    memset(e, 0, sizeof *e);
    e->bus = *bus;
    if (rd(e, IBSEC_REG_ID) != IBSEC_ID_VALUE_RESET)
        return DRV_ERR_BAD_ID;
    e->open = (rd(e, IBSEC_REG_VERSION) & IBSEC_VERSION_OPEN_MASK) != 0;
    if (e->open != want_open)
        return DRV_ERR_WRONG_ROLE;
    caps = rd(e, IBSEC_REG_CAPS);
    e->key_slots = IBSEC_GET(caps, IBSEC_CAPS_KEY_SLOTS);
    e->ctx_slots = IBSEC_GET(caps, IBSEC_CAPS_CTX_SLOTS);
    if (e->key_slots > DRV_MAX_KEY_SLOTS)
        e->key_slots = DRV_MAX_KEY_SLOTS;
    if (e->ctx_slots > DRV_MAX_CTX_SLOTS)
        e->ctx_slots = DRV_MAX_CTX_SLOTS;
    return DRV_OK;
}

/* §2: a command is done when STATUS.BUSY is 0; STATUS.ERR says whether it was refused. */
static enum ibsec_drv_err wait_cmd(ibsec_drv_engine *e)
{
    for (unsigned i = 0; i < DRV_BUSY_POLL_LIMIT; i++) {
        uint32_t s = rd(e, IBSEC_REG_STATUS);
        if (s & IBSEC_STATUS_BUSY_MASK)
            continue;
        if (s & IBSEC_STATUS_ERR_MASK) {
            e->last_err_code = IBSEC_GET(s, IBSEC_STATUS_ERR_CODE);
            return DRV_ERR_REFUSED;
        }
        return DRV_OK;
    }
    return DRV_ERR_BUSY_TIMEOUT;
}

static int alloc_key_slot(ibsec_drv_engine *e)
{
    for (unsigned s = 0; s < e->key_slots; s++)
        if (!(e->key_used & (1u << s))) {
            e->key_used |= 1u << s;
            return (int)s;
        }
    return -1;
}

static int alloc_ctx(ibsec_drv_engine *e)
{
    for (unsigned i = 0; i < e->ctx_slots; i++)
        if (!e->ctx_used[i]) {
            e->ctx_used[i] = 1;
            return (int)i;
        }
    return -1;
}

/* Overwrite KEY_DATA0..7 and KEY_SALT with zeros (§3.5: the block clears them when an
 * install completes, not when a command is refused). */
static void zero_key_staging(ibsec_drv_engine *e)
{
    for (unsigned i = 0; i < 8; i++)
        wr(e, IBSEC_REG_KEY_DATA(i), 0);
    wr(e, IBSEC_REG_KEY_SALT, 0);
}

/* §3.5 install: KEY_DATA (byte 4i in [31:24]), KEY_SALT, KEY_CMD; then zero staging. */
static enum ibsec_drv_err key_install(ibsec_drv_engine *e, unsigned slot, const ibsec_drv_conn_cfg *c)
{
    enum ibsec_drv_err r;
    uint32_t w = 0;

    for (unsigned i = 0; i < 8; i++) {
        w = 0;
        for (unsigned b = 0; b < 4; b++)
            w = (w << 8) | (4 * i + b < c->key_len ? c->key[4 * i + b] : 0);
        wr(e, IBSEC_REG_KEY_DATA(i), w);
    }
    OPENSSL_cleanse(&w, sizeof w);      /* the last key word */
    wr(e, IBSEC_REG_KEY_SALT, ((uint32_t)c->salt[0] << 24) | ((uint32_t)c->salt[1] << 16) |
                            ((uint32_t)c->salt[2] << 8) | c->salt[3]);
    wr(e, IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_SLOT, slot) |
                             IBSEC_SET(IBSEC_KEY_CMD_AES256, c->key_len == 32) |
                             IBSEC_SET(IBSEC_KEY_CMD_OP, IBSEC_KEY_CMD_OP_INSTALL));
    r = wait_cmd(e);
    zero_key_staging(e);
    return r;
}

static enum ibsec_drv_err key_clear(ibsec_drv_engine *e, unsigned slot)
{
    wr(e, IBSEC_REG_KEY_CMD, IBSEC_SET(IBSEC_KEY_CMD_SLOT, slot) |
                             IBSEC_SET(IBSEC_KEY_CMD_OP, IBSEC_KEY_CMD_OP_CLEAR));
    return wait_cmd(e);
}

/* CTX_CFG (§3.6), SEL 0: a QP context. */
static uint32_t ctx_cfg_word(const ibsec_drv_conn_cfg *c, unsigned key_slot)
{
    return IBSEC_SET(IBSEC_CTX_CFG_MODE, c->mode) | IBSEC_SET(IBSEC_CTX_CFG_STH_CODE, c->sth_code) |
           IBSEC_SET(IBSEC_CTX_CFG_DIR, c->dir) | IBSEC_SET(IBSEC_CTX_CFG_KEY, key_slot);
}

/* §3.6 write, then a read command and a check of what the engine holds. */
static enum ibsec_drv_err ctx_write(ibsec_drv_engine *e, unsigned idx, uint32_t match,
                                    uint32_t cfg, uint64_t tx, uint64_t rx, uint32_t thresh)
{
    enum ibsec_drv_err r;

    wr(e, IBSEC_REG_CTX_MATCH, match);
    wr(e, IBSEC_REG_CTX_CFG, cfg);
    wr(e, IBSEC_REG_CTX_TX_NEXT_LO, (uint32_t)tx);
    wr(e, IBSEC_REG_CTX_TX_NEXT_HI, (uint32_t)(tx >> 32));
    wr(e, IBSEC_REG_CTX_RX_NEXT_LO, (uint32_t)rx);
    wr(e, IBSEC_REG_CTX_RX_NEXT_HI, (uint32_t)(rx >> 32));
    wr(e, IBSEC_REG_CTX_ALERT_THRESH, thresh);
    wr(e, IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_INDEX, idx) | IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_WRITE));
    if ((r = wait_cmd(e)) != DRV_OK)
        return r;
    wr(e, IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_INDEX, idx) | IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_READ));
    if ((r = wait_cmd(e)) != DRV_OK)
        return r;
    if (rd(e, IBSEC_REG_CTX_RD_CFG) != (IBSEC_CTX_RD_CFG_VALID_MASK | cfg) ||
        rd(e, IBSEC_REG_CTX_RD_MATCH) != match ||
        rd(e, IBSEC_REG_CTX_RD_TX_NEXT_LO) != (uint32_t)tx || rd(e, IBSEC_REG_CTX_RD_TX_NEXT_HI) != (uint32_t)(tx >> 32) ||
        rd(e, IBSEC_REG_CTX_RD_RX_NEXT_LO) != (uint32_t)rx || rd(e, IBSEC_REG_CTX_RD_RX_NEXT_HI) != (uint32_t)(rx >> 32))
        return DRV_ERR_READBACK;
    return DRV_OK;
}

static enum ibsec_drv_err ctx_clear(ibsec_drv_engine *e, unsigned idx)
{
    wr(e, IBSEC_REG_CTX_CMD, IBSEC_SET(IBSEC_CTX_CMD_INDEX, idx) | IBSEC_SET(IBSEC_CTX_CMD_OP, IBSEC_CTX_CMD_OP_CLEAR));
    return wait_cmd(e);
}

/* Clear key slot `key` / context `ctx` (-1: none) and free it, or quarantine it if the
 * engine refuses the clear or never finishes it.  The first error, or DRV_OK. */
static enum ibsec_drv_err clear_or_quarantine(ibsec_drv_engine *e, int key, int ctx)
{
    enum ibsec_drv_err r = DRV_OK, q;

    if (ctx >= 0) {
        if ((q = ctx_clear(e, (unsigned)ctx)) == DRV_OK) {
            e->ctx_used[ctx] = 0;
        } else {
            if (!e->ctx_quarantine[ctx])
                e->n_quarantined++;
            e->ctx_quarantine[ctx] = 1;
            r = q;
        }
    }
    if (key >= 0) {
        if ((q = key_clear(e, (unsigned)key)) == DRV_OK) {
            e->key_used &= ~(1u << key);
        } else {
            if (!(e->key_quarantine & (1u << key)))
                e->n_quarantined++;
            e->key_quarantine |= 1u << key;
            if (r == DRV_OK)
                r = q;
        }
    }
    return r;
}

static void release(ibsec_drv_engine *e, int key, int ctx)
{
    clear_or_quarantine(e, key, ctx);
    zero_key_staging(e);
}

enum ibsec_drv_err ibsec_drv_retry_quarantine(ibsec_drv_engine *e)
{
    enum ibsec_drv_err r = DRV_OK, q;

    for (unsigned i = 0; i < e->ctx_slots; i++)
        if (e->ctx_quarantine[i]) {
            e->ctx_quarantine[i] = 0;
            e->n_quarantined--;
            if ((q = clear_or_quarantine(e, -1, (int)i)) != DRV_OK && r == DRV_OK)
                r = q;
        }
    for (unsigned s = 0; s < e->key_slots; s++)
        if (e->key_quarantine & (1u << s)) {
            e->key_quarantine &= ~(1u << s);
            e->n_quarantined--;
            if ((q = clear_or_quarantine(e, (int)s, -1)) != DRV_OK && r == DRV_OK)
                r = q;
        }
    zero_key_staging(e);
    return r;
}

enum ibsec_drv_err ibsec_drv_conn_program(ibsec_drv_engine *seal, ibsec_drv_engine *open,
                                          const ibsec_drv_conn_cfg *cfg, ibsec_drv_conn *conn)
{
    int sk = -1, ok = -1, sc = -1, oc = -1;
    enum ibsec_drv_err r;

    memset(conn, 0, sizeof *conn);
    if ((cfg->key_len != 16 && cfg->key_len != 32) || cfg->mode > 4 || cfg->dir > 1 ||
        cfg->local_qpn > 0xFFFFFFu || cfg->remote_qpn > 0xFFFFFFu)
        return DRV_ERR_BAD_ARG;
    sk = alloc_key_slot(seal);
    ok = alloc_key_slot(open);
    if (sk < 0 || ok < 0) {
        r = DRV_ERR_NO_KEY_SLOT;
        goto fail;
    }
    sc = alloc_ctx(seal);
    oc = alloc_ctx(open);
    if (sc < 0 || oc < 0) {
        r = DRV_ERR_NO_CTX_SLOT;
        goto fail;
    }
    if ((r = key_install(seal, (unsigned)sk, cfg)) != DRV_OK ||
        (r = key_install(open, (unsigned)ok, cfg)) != DRV_OK)
        goto fail;
    /* seal: selected by the DestQP it sends to; tx_next = its first EPSN */
    if ((r = ctx_write(seal, (unsigned)sc, cfg->remote_qpn, ctx_cfg_word(cfg, (unsigned)sk),
                       cfg->tx_epsn, 0, cfg->alert_threshold)) != DRV_OK)
        goto fail;
    /* open: selected by its own QPN; rx_next = the peer's first EPSN */
    if ((r = ctx_write(open, (unsigned)oc, cfg->local_qpn, ctx_cfg_word(cfg, (unsigned)ok),
                       0, cfg->rx_epsn, cfg->alert_threshold)) != DRV_OK)
        goto fail;
    conn->live = true;
    conn->seal_key = (unsigned)sk;
    conn->open_key = (unsigned)ok;
    conn->seal_ctx = (unsigned)sc;
    conn->open_ctx = (unsigned)oc;
    return DRV_OK;
fail:
    if (sk >= 0 || sc >= 0)
        release(seal, sk, sc);
    if (ok >= 0 || oc >= 0)
        release(open, ok, oc);
    return r;
}

enum ibsec_drv_err ibsec_drv_conn_teardown(ibsec_drv_engine *seal, ibsec_drv_engine *open,
                                           ibsec_drv_conn *conn)
{
    enum ibsec_drv_err r = DRV_OK, q;

    if (!conn->live)
        return DRV_ERR_BAD_ARG;
    /* contexts first, so no packet finds a context whose key is gone; a slot whose clear
     * fails stays allocated (quarantined) so it is never handed to another connection */
    if ((q = clear_or_quarantine(seal, -1, (int)conn->seal_ctx)) != DRV_OK && r == DRV_OK) r = q;
    if ((q = clear_or_quarantine(open, -1, (int)conn->open_ctx)) != DRV_OK && r == DRV_OK) r = q;
    if ((q = clear_or_quarantine(seal, (int)conn->seal_key, -1)) != DRV_OK && r == DRV_OK) r = q;
    if ((q = clear_or_quarantine(open, (int)conn->open_key, -1)) != DRV_OK && r == DRV_OK) r = q;
    zero_key_staging(seal);
    zero_key_staging(open);
    conn->live = false;
    return r;
}

static unsigned free_slots(const ibsec_drv_engine *e)
{
    unsigned keys = 0, ctx = 0;
    for (unsigned s = 0; s < e->key_slots; s++)
        keys += !(e->key_used & (1u << s));
    for (unsigned i = 0; i < e->ctx_slots; i++)
        ctx += !e->ctx_used[i];
    return keys < ctx ? keys : ctx;
}

unsigned ibsec_drv_free_conns(const ibsec_drv_engine *seal, const ibsec_drv_engine *open)
{
    unsigned a = free_slots(seal), b = free_slots(open);
    return a < b ? a : b;
}

uint64_t ibsec_drv_counter(ibsec_drv_engine *e, unsigned reason)
{
    uint64_t lo = rd(e, IBSEC_REG_CNT_LO(reason));
    return lo | ((uint64_t)rd(e, IBSEC_REG_CNT_HI(reason)) << 32);
}
