/*
 * ibsec_seal.c — transmit: plain packet -> wire packet (docs/wire-format.md §7).
 *
 * Steps, each a drop point with its reason:
 *   1. parse the plain packet (ib_pkt.h errors);
 *   2. BTH byte 8 bits 6:0 must be 0 on the plain packet (bad_secmode);
 *   3. select the context (Lee & Kim §5.1): none -> pass with fresh CRCs if
 *      plain traffic is allowed, else no_context; mode none -> pass with fresh CRCs;
 *   4. the key entry must be valid (no_key);
 *   5. widen the PSN to the EPSN (sRDMA §4.3): below tx_next -> nonce_reuse,
 *      at 2^63 -> epsn_exhausted;
 *   6. sth-*: insert the STH after the last ETH and grow every length field;
 *   7. write SECMODE/STHSZ into BTH byte 8 — before A is computed, so the mode
 *      is authenticated;
 *   8. the mode's crypto step (ibsec_mode_seal) and the tag into the ICRC field
 *      (icrc-mac, tag byte 0 first on the wire) or the STH (tag byte 0 first);
 *   9. RoCEv2: UDP checksum 0; ICRC (not for icrc-mac, whose ICRC field is the tag)
 *      then VCRC;
 *      with the engine's mask_mf the DDPM Marking Field of a native GRH is
 *      masked in the ICRC and the AAD (docs/availability.md §2.4);
 *  10. commit tx_next = EPSN + 1.
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

/* Steps 6-9 for a secured context; the packet in buf[0..p->end) becomes the wire
 * packet, *len its length. */
static enum ibsec_reason seal_secured(const ibsec_ctx *c, const ibsec_key_entry *k, uint64_t epsn,
                                      uint8_t *buf, size_t cap, struct ibsec_pkt *p, size_t *len)
{
    enum ibsec_mode mode = c->cfg.mode;
    size_t tag_len = ibsec_mode_has_sth(mode) ? ibsec_sth_len(c->cfg.sth_code)
                                              : IBSEC_ICRC_MAC_TAG_LEN;
    uint8_t iv[IBSEC_GCM_IV_LEN], tag[IBSEC_GCM_TAG_MAX];
    struct ibsec_pkt grown;

    if (ibsec_mode_has_sth(mode)) {
        enum ibsec_pkt_err pe = ibsec_pkt_insert_extra(buf, cap, p, NULL, tag_len, len, &grown);
        if (pe != IBSEC_PKT_OK)
            return ibsec_reason_from_pkt_err(pe);
        grown.mask_mf = p->mask_mf; /* the re-parse clears the caller's switch */
        *p = grown;
    }
    buf[p->bth_off + IBSEC_BTH_BYTE_RESV7] |= ibsec_secbits_encode(mode, c->cfg.sth_code);
    ibsec_pkt_clear_udp_csum(buf, p); /* a masked field: A and the ICRC do not see it */
    ibsec_iv_build(k->salt, c->cfg.dir, epsn, iv);
    if (ibsec_mode_seal(k, iv, mode, buf, p, tag, tag_len) != 0)
        return IBSEC_R_NOSPACE; /* only if A overflowed its buffer: not for a parsed packet */
    if (mode == IBSEC_MODE_ICRC_MAC) {
        memcpy(buf + p->icrc_off, tag, IBSEC_ICRC_MAC_TAG_LEN);
        ibsec_pkt_put_vcrc(buf, p);
    } else {
        memcpy(buf + p->extra_off, tag, tag_len);
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
    const ibsec_key_entry *k = &e->keys[c->cfg.key];
    if (!k->valid)
        return IBSEC_R_NO_KEY;
    if ((r = ibsec_epsn_tx_check(c, p.bth.psn, &vd->epsn)) != IBSEC_R_OK)
        return r;
    if ((r = seal_secured(c, k, vd->epsn, out, cap, &p, len)) != IBSEC_R_OK)
        return r;
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
