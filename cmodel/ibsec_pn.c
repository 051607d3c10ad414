/*
 * ibsec_pn.c — the pn nonce (docs/wire-format.md §5.2): per-key packet numbers carried
 * in the STH, the IV built from them, and the replay windows that receive them.
 *
 * A key slot sends with its own SSCI and a PN that grows by one per packet it seals,
 * whatever the context, QP or PSN: (key, SSCI, PN), hence (key, IV), never repeats, so
 * any number of QPs and senders may share a key and a retransmission (same PSN) is
 * sealed again under a fresh PN.  The receiver keeps, per (key slot, SSCI), a window of
 * the PNs it has accepted: an attacker's copy of a packet carries a PN already seen and
 * is refused, a sender's retransmission carries a new one and passes.
 *
 * The windows are indexed by value: bit v mod W of `seen` stands for value v while it
 * lies in [next - W, next); sliding clears the bits of the values that enter the window.
 */
#include <stdlib.h>
#include <string.h>

#include "ibsec.h"

/* IEEE 802.1AEbw §14.5 (XPN): IV = salt XOR (SSCI || PN); here both 96 bits, SSCI in
 * bytes 0..3 and PN in bytes 4..11, big-endian. */
void ibsec_iv_build_pn(const uint8_t salt[IBSEC_SALT_PN_LEN], uint32_t ssci, uint64_t pn,
                       uint8_t iv[IBSEC_GCM_IV_LEN])
{
    for (unsigned i = 0; i < 4; i++)
        iv[i] = (uint8_t)(salt[i] ^ (uint8_t)(ssci >> (24 - 8 * i)));
    for (unsigned i = 0; i < 8; i++)
        iv[4 + i] = (uint8_t)(salt[4 + i] ^ (uint8_t)(pn >> (56 - 8 * i)));
}

static bool window_bit(const ibsec_window *win, unsigned w, uint64_t v)
{
    uint64_t b = v & (w - 1u);
    return (win->seen[b / 64u] >> (b % 64u)) & 1u;
}

static void window_set(ibsec_window *win, unsigned w, uint64_t v, bool on)
{
    uint64_t b = v & (w - 1u), m = 1ull << (b % 64u);
    if (on)
        win->seen[b / 64u] |= m;
    else
        win->seen[b / 64u] &= ~m;
}

void ibsec_window_init(ibsec_window *win, uint64_t first)
{
    win->next = first;
    memset(win->seen, 0xff, sizeof win->seen); /* below first: seen */
}

enum ibsec_reason ibsec_window_check(const ibsec_window *win, unsigned w, uint64_t v,
                                     enum ibsec_reason too_old)
{
    if (win->next >= w && v < win->next - w)
        return too_old;                     /* left of [next - w, next) */
    if (v < win->next && window_bit(win, w, v))
        return IBSEC_R_REPLAY;
    return IBSEC_R_OK;
}

void ibsec_window_commit(ibsec_window *win, unsigned w, uint64_t v)
{
    if (v >= win->next) {
        /* values next .. v enter the window: not seen, except v */
        uint64_t n = v - win->next + 1u;
        if (n >= w) {
            memset(win->seen, 0, sizeof win->seen);
        } else {
            for (uint64_t u = win->next; u <= v; u++)
                window_set(win, w, u, false);
        }
        win->next = v + 1u;
    }
    window_set(win, w, v, true);
}

/* ---- receive entries -------------------------------------------------------------- */

int ibsec_peers_init(ibsec_engine *e, unsigned n, unsigned w)
{
    if (n == 0 || w < 64u || w > IBSEC_REPLAY_WINDOW_MAX || (w & (w - 1u)) != 0)
        return -1;
    ibsec_peer *p = calloc(n, sizeof *p);
    if (!p)
        return -1;
    free(e->peers);
    e->peers = p;
    e->n_peers = n;
    e->replay_window = w;
    return 0;
}

int ibsec_peer_lookup(const ibsec_engine *e, unsigned key, uint32_t ssci)
{
    for (unsigned i = 0; i < e->n_peers; i++)
        if (e->peers[i].valid && e->peers[i].key == key && e->peers[i].ssci == ssci)
            return (int)i;
    return -1;
}

int ibsec_peer_set(ibsec_engine *e, unsigned idx, unsigned key, uint32_t ssci, uint64_t first_pn)
{
    if (idx >= e->n_peers || key >= e->n_keys || first_pn == 0)
        return -1;
    int other = ibsec_peer_lookup(e, key, ssci);
    if (other >= 0 && (unsigned)other != idx)
        return -1;
    ibsec_peer *p = &e->peers[idx];
    memset(p, 0, sizeof *p);
    p->key = key;
    p->ssci = ssci;
    ibsec_window_init(&p->rx, first_pn);
    p->valid = true;
    return 0;
}

void ibsec_peer_clear(ibsec_engine *e, unsigned idx)
{
    if (idx < e->n_peers)
        memset(&e->peers[idx], 0, sizeof e->peers[idx]);
}

/* ---- duplicate table (wire-format.md §6.1) --------------------------------------- */

int ibsec_conns_init(ibsec_engine *e, unsigned n)
{
    if (n == 0 || n > 65536u || (n & (n - 1u)) != 0)
        return -1;
    ibsec_conn *c = calloc(n, sizeof *c);
    if (!c)
        return -1;
    free(e->conns);
    e->conns = c;
    e->n_conns = n;
    return 0;
}

unsigned ibsec_conn_index(const ibsec_engine *e, uint32_t ssci, uint32_t destqp)
{
    return (unsigned)((destqp ^ (ssci << 8) ^ (ssci >> 16)) & (e->n_conns - 1u));
}

bool ibsec_conn_note(ibsec_engine *e, uint32_t ssci, uint32_t destqp, uint32_t psn)
{
    if (e->n_conns == 0)
        return false;
    ibsec_conn *c = &e->conns[ibsec_conn_index(e, ssci, destqp)];
    psn &= IBSEC_PSN_MASK;
    if (!c->valid || c->ssci != ssci || c->destqp != destqp) {
        c->valid = true;
        c->ssci = ssci;
        c->destqp = destqp;
        c->last = psn;
        c->seen = 1u;
        return false;
    }
    uint32_t behind = (c->last - psn) & IBSEC_PSN_MASK;   /* how far psn is behind last */
    if (behind < IBSEC_EPSN_HALF_WINDOW) {                /* at or behind the newest */
        if (behind >= IBSEC_DUP_WINDOW)
            return true;                                  /* older than the window: seen */
        bool dup = (c->seen >> behind) & 1u;
        c->seen |= 1ull << behind;
        return dup;
    }
    uint32_t ahead = (psn - c->last) & IBSEC_PSN_MASK;    /* a newer PSN: slide */
    c->seen = ahead >= IBSEC_DUP_WINDOW ? 0 : c->seen << ahead;
    c->seen |= 1u;
    c->last = psn;
    return false;
}
