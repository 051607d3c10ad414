/*
 * ibsec_ctx.c — the engine's tables: key table, context table, context
 * selection, alert flag, counters.
 *
 * Key table (BRIEF §2 "Keys"): an entry becomes valid only after its GCM key
 * (round keys, H, H^1..H^LANES) has been derived, so a packet sees either the
 * old key or the new one, never a half-written one.
 *
 * Context selection (Lee & Kim §5.1, docs/wire-format.md §9): QP-level contexts
 * (selected by BTH DestQP) take precedence over partition-level contexts
 * (selected by the 15-bit P_Key; the membership bit, P_Key bit 15, is ignored
 * because full and limited members of a partition share its key).  The model
 * scans the table in index order, the RTL uses a CAM; a selector is unique
 * among valid contexts (ibsec_ctx_set refuses a duplicate), so the order never
 * matters.
 */
#include <stdlib.h>
#include <string.h>

#include "ibsec.h"

/* ---- engine ---------------------------------------------------------------- */

int ibsec_engine_init(ibsec_engine *e, unsigned n_keys, unsigned n_ctx, int lanes)
{
    memset(e, 0, sizeof *e);
    if (n_keys == 0 || n_ctx == 0 || lanes < 1 || lanes > IBSEC_MAX_LANES)
        return -1;
    e->keys = calloc(n_keys, sizeof *e->keys);
    e->ctx = calloc(n_ctx, sizeof *e->ctx);
    if (!e->keys || !e->ctx) {
        ibsec_engine_free(e);
        return -1;
    }
    e->n_keys = n_keys;
    e->n_ctx = n_ctx;
    e->lanes = lanes;
    e->allow_plain = false;
    e->mask_mf = false;
    e->replay_window = IBSEC_REPLAY_WINDOW;
    /* SMPs stay plain: switches and the SM read them, and a directed-route SMP is
       rewritten hop by hop (IBA Vol. 1 §14.2.2), so no tag would survive */
    e->mgmt[IBSEC_MGMT_QP0] = IBSEC_MGMT_BYPASS;
    e->mgmt[IBSEC_MGMT_QP1] = IBSEC_MGMT_CONTEXT;
    e->mgmt[IBSEC_MGMT_MCAST] = IBSEC_MGMT_CONTEXT;
    return 0;
}

void ibsec_engine_free(ibsec_engine *e)
{
    free(e->keys);
    free(e->ctx);
    free(e->peers);
    free(e->conns);
    memset(e, 0, sizeof *e);
}

void ibsec_engine_clear_counters(ibsec_engine *e)
{
    memset(e->count, 0, sizeof e->count);
}

/* ---- keys ------------------------------------------------------------------ */

int ibsec_key_set_pn(ibsec_engine *e, unsigned idx, const uint8_t *key, size_t key_len,
                     const uint8_t *salt, size_t salt_len, uint32_t ssci, uint64_t tx_pn)
{
    ibsec_key_entry next;
    if (idx >= e->n_keys || (key_len != 16 && key_len != 32) ||
        (salt_len != IBSEC_SALT_LEN && salt_len != IBSEC_SALT_PN_LEN) || tx_pn == 0)
        return -1;
    memset(&next, 0, sizeof next);
    next.key_len = key_len;
    memcpy(next.key, key, key_len);
    memcpy(next.salt, salt, salt_len);
    next.salt_len = salt_len;
    next.ssci = ssci;
    next.tx_pn = tx_pn;
    int rc = -1;
    if (ibsec_gcm_key_init(&next.gk, key, key_len, e->lanes) == 0) {
        next.valid = true;
        e->keys[idx] = next; /* the entry switches from the old key to the new one at once */
        rc = 0;
    }
    /* no copy of the key (or its expanded schedule) stays on the stack */
    for (volatile uint8_t *p = (volatile uint8_t *)&next; p < (volatile uint8_t *)(&next + 1); p++)
        *p = 0;
    return rc;
}

int ibsec_key_set(ibsec_engine *e, unsigned idx, const uint8_t *key, size_t key_len,
                  const uint8_t salt[IBSEC_SALT_LEN])
{
    return ibsec_key_set_pn(e, idx, key, key_len, salt, IBSEC_SALT_LEN, 0, IBSEC_PN_FIRST);
}

void ibsec_key_clear(ibsec_engine *e, unsigned idx)
{
    if (idx < e->n_keys)
        memset(&e->keys[idx], 0, sizeof e->keys[idx]);
}

/* ---- contexts -------------------------------------------------------------- */

const char *ibsec_ctx_cfg_check(const ibsec_ctx_cfg *c)
{
    if (c->sel == IBSEC_SEL_QP) {
        if (c->match > 0xFFFFFFu)
            return "QPN out of range (0..0xffffff)";
    } else if (c->sel == IBSEC_SEL_PKEY) {
        if (c->match > 0x7FFFu)
            return "P_Key out of range (0..0x7fff; the membership bit is not part of it)";
    } else {
        return "bad selector";
    }
    if ((unsigned)c->mode >= IBSEC_MODE_COUNT)
        return "bad mode";
    if (ibsec_mode_has_sth(c->mode)) {
        if (c->sth_code != IBSEC_STH_CODE_96 && c->sth_code != IBSEC_STH_CODE_128)
            return "sth-* modes need an STH of 96 or 128 bits";
    } else if (c->sth_code != IBSEC_STH_CODE_NONE) {
        return "STH size given for a mode without STH";
    }
    if (c->dir > 1)
        return "dir must be 0 or 1";
    if (c->tx_next >= IBSEC_EPSN_LIMIT || c->rx_next >= IBSEC_EPSN_LIMIT)
        return "EPSN out of range (0..2^63-1)";
    if (c->nonce != IBSEC_NONCE_EPSN && c->nonce != IBSEC_NONCE_PN)
        return "bad nonce";
    if (c->nonce == IBSEC_NONCE_PN && !ibsec_mode_has_sth(c->mode))
        return "the pn nonce needs an sth-* mode (its SSCI and PN travel in the STH)";
    if (c->tx_kp > 1 || (c->tx_kp == 1 && !c->key1_en))
        return "tx_kp must be 0, or 1 with a key for phase 1";
    if (c->replay_off && c->nonce != IBSEC_NONCE_PN)
        return "replay checking can be turned off only with the pn nonce";
    return NULL;
}

static bool ctx_same_selector(const ibsec_ctx_cfg *a, const ibsec_ctx_cfg *b)
{
    return a->sel == b->sel && a->match == b->match;
}

int ibsec_ctx_set(ibsec_engine *e, unsigned idx, const ibsec_ctx_cfg *cfg, const char **why)
{
    const char *msg = NULL;
    if (idx >= e->n_ctx)
        msg = "context index out of range";
    else if ((msg = ibsec_ctx_cfg_check(cfg)) == NULL) {
        if (cfg->mode != IBSEC_MODE_NONE && (cfg->key >= e->n_keys ||
                                             (cfg->key1_en && cfg->key1 >= e->n_keys)))
            msg = "key index out of range";
        for (unsigned i = 0; !msg && i < e->n_ctx; i++)
            if (i != idx && e->ctx[i].valid && ctx_same_selector(&e->ctx[i].cfg, cfg))
                msg = "selector already used by another context";
    }
    if (msg) {
        if (why)
            *why = msg;
        return -1;
    }
    ibsec_ctx *c = &e->ctx[idx];
    memset(c, 0, sizeof *c);
    c->cfg = *cfg;
    c->tx_next = cfg->tx_next;
    c->rx_next = cfg->rx_next;
    c->rx_bitmap = ~0ull; /* EPSNs below the start count as seen (wire-format.md §6) */
    c->valid = true;
    return 0;
}

void ibsec_ctx_clear(ibsec_engine *e, unsigned idx)
{
    if (idx < e->n_ctx)
        memset(&e->ctx[idx], 0, sizeof e->ctx[idx]);
}

void ibsec_ctx_clear_alert(ibsec_engine *e, unsigned idx)
{
    if (idx < e->n_ctx)
        e->ctx[idx].alert = false;
}

/* Lee & Kim §5.1: QP-level first, then partition-level (15-bit P_Key). */
int ibsec_ctx_lookup(const ibsec_engine *e, uint32_t destqp, uint16_t pkey)
{
    for (unsigned i = 0; i < e->n_ctx; i++) {
        const ibsec_ctx *c = &e->ctx[i];
        if (c->valid && c->cfg.sel == IBSEC_SEL_QP && c->cfg.match == destqp)
            return (int)i;
    }
    for (unsigned i = 0; i < e->n_ctx; i++) {
        const ibsec_ctx *c = &e->ctx[i];
        if (c->valid && c->cfg.sel == IBSEC_SEL_PKEY && c->cfg.match == (pkey & 0x7FFFu))
            return (int)i;
    }
    return -1;
}

/* The pn nonce between two endpoints: a key slot with exactly one receive entry is a
 * key shared with one peer, so the peer sends with that entry's SSCI from its first PN
 * and receives this endpoint's SSCI from the slot's next PN. */
static void make_peer_pn(ibsec_engine *e)
{
    for (unsigned k = 0; k < e->n_keys; k++) {
        int only = -1, n = 0;
        for (unsigned i = 0; i < e->n_peers; i++)
            if (e->peers[i].valid && e->peers[i].key == k) {
                only = (int)i;
                n++;
            }
        if (n != 1 || !e->keys[k].valid)
            continue;
        ibsec_key_entry *key = &e->keys[k];
        ibsec_peer *p = &e->peers[only];
        uint32_t ssci = key->ssci;
        uint64_t pn = key->tx_pn;
        key->ssci = p->ssci;
        key->tx_pn = p->rx.next;
        ibsec_peer_set(e, (unsigned)only, k, ssci, pn);
    }
}

/* wire-format.md §9: the peer sends with the other direction bit, and its
 * receive stream is this endpoint's transmit stream (and vice versa). */
void ibsec_engine_make_peer(ibsec_engine *e)
{
    make_peer_pn(e);
    for (unsigned i = 0; i < e->n_ctx; i++) {
        ibsec_ctx *c = &e->ctx[i];
        if (!c->valid)
            continue;
        ibsec_ctx_cfg cfg = c->cfg;
        cfg.dir ^= 1u;
        cfg.tx_next = c->cfg.rx_next;
        cfg.rx_next = c->cfg.tx_next;
        ibsec_ctx_set(e, i, &cfg, NULL);
    }
}
