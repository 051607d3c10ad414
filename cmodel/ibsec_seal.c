/*
 * ibsec_seal.c — transmit: plain packet -> wire packet (docs/wire-format.md §7).
 *
 * Steps, each a drop point with its reason:
 *   1. parse the plain packet (ib_pkt.h errors);
 *   2. BTH byte 8 bits 6:0 must be 0 on the plain packet (bad_secmode);
 *   3. DestQP 0, 1, 0xffffff: the engine's policy (bypass -> pass with fresh CRCs,
 *      drop -> mgmt_dropped); select the context (Lee & Kim §5.1): none -> pass with
 *      fresh CRCs if plain traffic is allowed, else no_context; mode none -> pass with
 *      fresh CRCs;
 *   4. the key entry of the context's transmit key phase must be valid (no_key);
 *   5. the nonce: epsn, widen the PSN to the EPSN (sRDMA §4.3): below tx_next ->
 *      nonce_reuse, at 2^63 -> epsn_exhausted; pn, the key slot's next PN
 *      (pn_exhausted after 2^64 - 1);
 *   6. sth-*: insert the STH after the last ETH (pn: SSCI || PN in front of the tag)
 *      and grow every length field;
 *   7. write SECMODE/STHSZ, the key phase and the PN bit into BTH byte 8 — before A
 *      is computed, so they are authenticated;
 *   8. the mode's crypto step (ibsec_mode_seal) and the tag into the ICRC field
 *      (icrc-mac, tag byte 0 first on the wire) or the STH (tag byte 0 first);
 *   9. RoCEv2: UDP checksum 0; ICRC (not for icrc-mac, whose ICRC field is the tag)
 *      then VCRC;
 *      with the engine's mask_mf the DDPM Marking Field of a native GRH is
 *      masked in the ICRC and the AAD (docs/availability.md §2.4);
 *  10. commit tx_next = EPSN + 1 (epsn) or the key slot's PN + 1 (pn).
 * The ICRC/VCRC bytes of the plain input are never read.  A failed seal
 * changes no state.
 */
#include <string.h>

#include "ibsec.h"

/* Step 3 and "mode none": the packet leaves as it came, with its CRCs computed (and,
 * RoCEv2, UDP checksum 0, step 9). */
static void seal_plain(uint8_t *buf, const struct ibsec_pkt *p)
{
    ibsec_pkt_clear_udp_csum(buf, p);
    ibsec_pkt_put_crcs(buf, p);
}

/* The nonce of one packet: the security bits it carries and its IV. */
struct seal_nonce {
    struct ibsec_secbits sb;
    uint8_t              iv[IBSEC_GCM_IV_LEN];
    uint32_t             ssci;   /* pn nonce: the SecTAG */
    uint64_t             pn;
};

/* Step 5 for the epsn nonce: the EPSN from the PSN and tx_next (sRDMA §4.3). */
static enum ibsec_reason nonce_epsn(const ibsec_ctx *c, const ibsec_key_entry *k,
                                    const struct ibsec_pkt *p, struct seal_nonce *n,
                                    ibsec_verdict *vd)
{
    enum ibsec_reason r = ibsec_epsn_tx_check(c, p->bth.psn, &vd->epsn);
    if (r == IBSEC_R_OK)
        ibsec_iv_build(k->salt, c->cfg.dir, vd->epsn, n->iv);
    return r;
}

/* Step 5 for the pn nonce (wire-format.md §5.2): the key slot's next PN, whatever the
 * PSN, so a retransmission is sealed again under a PN of its own. */
static enum ibsec_reason nonce_pn(const ibsec_key_entry *k, struct seal_nonce *n,
                                  ibsec_verdict *vd)
{
    if (k->tx_pn == 0)
        return IBSEC_R_PN_EXHAUSTED;
    n->ssci = vd->ssci = k->ssci;
    n->pn = vd->pn = k->tx_pn;
    ibsec_iv_build_pn(k->salt, n->ssci, n->pn, n->iv);
    return IBSEC_R_OK;
}

/* Steps 6-9 for a secured context; the packet in buf[0..p->end) becomes the wire
 * packet, *len its length. */
static enum ibsec_reason seal_secured(const ibsec_key_entry *k, const struct seal_nonce *n,
                                      uint8_t *buf, size_t cap, struct ibsec_pkt *p, size_t *len)
{
    enum ibsec_mode mode = n->sb.mode;
    size_t sth_len = ibsec_secbits_sth_len(&n->sb);
    size_t sectag = n->sb.pn ? IBSEC_SECTAG_LEN : 0u;
    size_t tag_len = sth_len ? sth_len - sectag : IBSEC_ICRC_MAC_TAG_LEN;
    uint8_t tag[IBSEC_GCM_TAG_MAX];
    struct ibsec_pkt grown;

    if (sth_len) {
        enum ibsec_pkt_err pe = ibsec_pkt_insert_extra(buf, cap, p, NULL, sth_len, len, &grown);
        if (pe != IBSEC_PKT_OK)
            return ibsec_reason_from_pkt_err(pe);
        grown.mask_mf = p->mask_mf; /* the re-parse clears the caller's switch */
        *p = grown;
    }
    if (sectag) {   /* SSCI || PN, big-endian, in front of the tag */
        ibsec_put_be32(buf + p->extra_off, n->ssci);
        ibsec_put_be32(buf + p->extra_off + 4, (uint32_t)(n->pn >> 32));
        ibsec_put_be32(buf + p->extra_off + 8, (uint32_t)n->pn);
    }
    buf[p->bth_off + IBSEC_BTH_BYTE_RESV7] |= ibsec_secbits_pack(&n->sb);
    ibsec_pkt_clear_udp_csum(buf, p); /* a masked field: A and the ICRC do not see it */
    if (ibsec_mode_seal(k, n->iv, mode, buf, p, tag, tag_len) != 0)
        return IBSEC_R_NOSPACE; /* only if A overflowed its buffer: not for a parsed packet */
    if (mode == IBSEC_MODE_ICRC_MAC) {
        memcpy(buf + p->icrc_off, tag, IBSEC_ICRC_MAC_TAG_LEN);
        ibsec_pkt_put_vcrc(buf, p);
    } else {
        memcpy(buf + p->extra_off + sectag, tag, tag_len);
        ibsec_pkt_put_crcs(buf, p);
    }
    *len = p->end;
    return IBSEC_R_OK;
}

static enum ibsec_reason seal_packet(ibsec_engine *e, enum ibsec_link link,
                                     const uint8_t *in, size_t in_len,
                                     uint8_t *out, size_t cap, size_t *len, ibsec_verdict *vd)
{
    struct ibsec_pkt p;
    enum ibsec_pkt_err pe;
    enum ibsec_reason r;

    if (cap < IBSEC_MAX_PKT || in_len > cap)
        return IBSEC_R_NOSPACE;
    memmove(out, in, in_len);
    if ((pe = ibsec_frame_parse(out, in_len, link, 0, &p)) != IBSEC_PKT_OK)
        return ibsec_reason_from_pkt_err(pe);
    p.mask_mf = e->mask_mf; /* ICRC and AAD masking, docs/availability.md §2.4 */
    *len = p.end;
    if (out[p.bth_off + IBSEC_BTH_BYTE_RESV7] & IBSEC_SECBITS_MASK)
        return IBSEC_R_BAD_SECMODE;

    int mc = ibsec_mgmt_class_of(p.bth.destqp);
    enum ibsec_mgmt_policy mp = mc < 0 ? IBSEC_MGMT_CONTEXT : e->mgmt[mc];
    if (mp == IBSEC_MGMT_DROP)
        return IBSEC_R_MGMT_DROPPED;
    if (mp == IBSEC_MGMT_BYPASS) {
        seal_plain(out, &p);
        return IBSEC_R_OK;
    }
    vd->ctx = ibsec_ctx_lookup(e, p.bth.destqp, p.bth.pkey);
    if (vd->ctx < 0) {
        if (!e->allow_plain)
            return IBSEC_R_NO_CONTEXT;
        seal_plain(out, &p);
        return IBSEC_R_OK;
    }
    ibsec_ctx *c = &e->ctx[vd->ctx];
    vd->mode = c->cfg.mode;
    if (c->cfg.mode == IBSEC_MODE_NONE) {
        seal_plain(out, &p);
        return IBSEC_R_OK;
    }
    vd->kp = c->cfg.tx_kp;
    ibsec_key_entry *k = &e->keys[vd->kp ? c->cfg.key1 : c->cfg.key];
    if (!k->valid)
        return IBSEC_R_NO_KEY;
    struct seal_nonce n = { .sb = { .mode = c->cfg.mode, .code = c->cfg.sth_code,
                                    .pn = c->cfg.nonce == IBSEC_NONCE_PN, .kp = vd->kp } };
    r = n.sb.pn ? nonce_pn(k, &n, vd) : nonce_epsn(c, k, &p, &n, vd);
    if (r != IBSEC_R_OK)
        return r;
    if ((r = seal_secured(k, &n, out, cap, &p, len)) != IBSEC_R_OK)
        return r;
    if (n.sb.pn)
        k->tx_pn = n.pn + 1u; /* 0 after 2^64 - 1: every later seal is pn_exhausted */
    else
        ibsec_epsn_tx_commit(c, vd->epsn);
    return IBSEC_R_OK;
}

enum ibsec_reason ibsec_seal(ibsec_engine *e, enum ibsec_link link,
                             const uint8_t *in, size_t in_len,
                             uint8_t *out, size_t out_cap, size_t *out_len,
                             ibsec_verdict *v)
{
    ibsec_verdict vd = { .reason = IBSEC_R_OK, .ctx = -1, .mode = IBSEC_MODE_NONE };
    size_t len = 0;
    enum ibsec_reason r = seal_packet(e, link, in, in_len, out, out_cap, &len, &vd);
    return ibsec_account(e, IBSEC_OP_SEAL, r, &vd, v, len, out_len);
}
