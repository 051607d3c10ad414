/*
 * ibsec_epsn.c — the 64-bit extended PSN used as the per-packet GCM nonce
 * (sRDMA §4.3 "Reusing PSN as a Per-Packet Nonce"; docs/wire-format.md §5, §6).
 *
 * The wire carries the 24-bit BTH PSN.  Each context keeps 63-bit counters:
 *   tx_next  the smallest EPSN the transmitter may still use (0 .. 2^63);
 *   rx_next  the highest EPSN accepted so far + 1, with a 64-bit bitmap whose
 *            bit i says whether EPSN rx_next - 1 - i has been accepted.
 * A received or transmitted PSN is widened to the EPSN nearest to the
 * reference (tx_next or rx_next): the value with the PSN as its low 24 bits in
 * the half-open window [ref - 2^23, ref + 2^23).
 *
 * The IV is salt (4 B) || EPSN (8 B, big-endian) with bit 63 replaced by the
 * direction bit of the sending endpoint, so the two directions of a
 * connection that share a key never share a nonce.
 *
 * check functions change nothing; the caller commits only when the packet is
 * accepted (seal: always after the check; open: only after the tag verified,
 * so a forged packet never moves the window).
 */
#include "ibsec.h"

int ibsec_epsn_reconstruct(uint64_t ref, uint32_t psn, uint64_t *epsn)
{
    uint64_t delta = (uint64_t)((psn - (uint32_t)ref) & IBSEC_PSN_MASK); /* 0 .. 2^24-1 */
    uint64_t cand;
    if (delta >= IBSEC_EPSN_HALF_WINDOW) {           /* behind ref: delta - 2^24 < 0 */
        uint64_t back = (1ull << IBSEC_PSN_BITS) - delta;
        if (back > ref)
            return -1;
        cand = ref - back;
    } else {
        cand = ref + delta;
    }
    if (cand >= IBSEC_EPSN_LIMIT)
        return 1;
    *epsn = cand;
    return 0;
}

/* sRDMA §4.3: a transmitter never reuses a (key, nonce).  A retransmission must
 * resend the wire bytes sealed the first time, not seal the packet again. */
enum ibsec_reason ibsec_epsn_tx_check(const ibsec_ctx *c, uint32_t psn, uint64_t *epsn)
{
    uint64_t cand;
    int r = ibsec_epsn_reconstruct(c->tx_next, psn, &cand);
    if (r > 0)
        return IBSEC_R_EPSN_EXHAUSTED;
    if (r < 0 || cand < c->tx_next)
        return IBSEC_R_NONCE_REUSE;
    *epsn = cand;
    return IBSEC_R_OK;
}

void ibsec_epsn_tx_commit(ibsec_ctx *c, uint64_t epsn)
{
    c->tx_next = epsn + 1; /* may become 2^63: every later seal is epsn_exhausted */
}

enum ibsec_reason ibsec_epsn_rx_check(const ibsec_ctx *c, uint32_t psn, uint64_t *epsn)
{
    uint64_t cand;
    int r = ibsec_epsn_reconstruct(c->rx_next, psn, &cand);
    if (r > 0)
        return IBSEC_R_EPSN_EXHAUSTED;
    if (r < 0 || cand + IBSEC_REPLAY_WINDOW < c->rx_next) /* window: rx_next-64 .. */
        return IBSEC_R_PSN_TOO_OLD;
    if (cand < c->rx_next && ((c->rx_bitmap >> (c->rx_next - 1 - cand)) & 1u))
        return IBSEC_R_REPLAY;
    *epsn = cand;
    return IBSEC_R_OK;
}

void ibsec_epsn_rx_commit(ibsec_ctx *c, uint64_t epsn)
{
    if (epsn >= c->rx_next) {
        uint64_t shift = epsn - c->rx_next + 1;   /* new top entry is bit 0 */
        c->rx_bitmap = (shift >= IBSEC_REPLAY_WINDOW) ? 0 : (c->rx_bitmap << shift);
        c->rx_bitmap |= 1u;
        c->rx_next = epsn + 1;
    } else {
        c->rx_bitmap |= 1ull << (c->rx_next - 1 - epsn);
    }
}

void ibsec_iv_build(const uint8_t salt[IBSEC_SALT_LEN], unsigned dir, uint64_t epsn,
                    uint8_t iv[IBSEC_GCM_IV_LEN])
{
    uint64_t word = (epsn & (IBSEC_EPSN_LIMIT - 1)) | ((uint64_t)(dir & 1u) << IBSEC_EPSN_DIR_BIT);
    for (unsigned i = 0; i < IBSEC_SALT_LEN; i++)
        iv[i] = salt[i];
    for (unsigned i = 0; i < 8; i++)
        iv[IBSEC_SALT_LEN + i] = (uint8_t)(word >> (56 - 8 * i));
}
