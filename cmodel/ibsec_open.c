/*
 * ibsec_open.c — receive: wire packet -> plain packet or drop (docs/wire-format.md §8).
 *
 * Checks, in this order (the first that fails names the drop reason):
 *   1. locate the BTH (the ib_pkt.h errors of the headers before it);
 *   2. BTH byte 8: a defined SECMODE/STHSZ combination (bad_secmode), and for
 *      the sth-* modes an STH size ibsec supports, code 1 or 2
 *      (sth_size_unsupported);
 *   3. parse the whole packet with the STH length that STHSZ gives (ib_pkt.h
 *      errors: lengths, opcode, pad count, ...);
 *   4. VCRC, native only (bad_vcrc);
 *   5. DestQP 0, 1, 0xffffff: the engine's policy (drop -> mgmt_dropped; bypass ->
 *      as without a context, a plain packet passing whatever allow_plain says);
 *      context lookup (Lee & Kim §5.1): no context -> a plain packet passes
 *      (after its ICRC is checked) only if plain traffic is allowed, anything
 *      else is no_context;
 *   6. the packet's mode equals the context's (mode_mismatch; a plain packet on
 *      a secured context is a downgrade attempt and lands here);
 *   7. sth-*: STHSZ equal to the context's (sth_size_mismatch);
 *   8. key entry valid (no_key);
 *   9. ICRC, modes none and sth-* (bad_icrc); mode none is delivered here;
 *  10. EPSN window (epsn_exhausted, psn_too_old, replay), sRDMA §4.3;
 *  11. tag, constant-time compare (auth_failed; counts towards the alert);
 *  12. commit: window advanced, failure counter cleared — only now;
 *  13. restore the plain packet: decrypt (done in 11), remove the STH and
 *      shrink the length fields, clear BTH byte 8 bits 6:0, recompute ICRC and
 *      VCRC; RoCEv2: UDP checksum 0, in every mode (a non-zero one on the wire is
 *      neither checked nor passed on).
 * With the engine's mask_mf, the ICRC of steps 9 and 13 and the AAD of step 11
 * treat the DDPM Marking Field of a native GRH as variant (docs/availability.md
 * §2.4).
 * No state changes before step 12, except the failure counter and alert of
 * step 11.
 */
#include <string.h>

#include "ibsec.h"

/* Steps 1-3: BTH byte 8 is decoded before the full parse, because the STH
 * length the parse needs follows from STHSZ. */
static enum ibsec_reason parse_wire(const uint8_t *buf, size_t len, enum ibsec_link link,
                                    struct ibsec_pkt *p, struct ibsec_secbits *sb)
{
    size_t bth_off;
    enum ibsec_pkt_err pe = ibsec_pkt_find_bth(buf, len, link, &bth_off);
    if (pe != IBSEC_PKT_OK)
        return ibsec_reason_from_pkt_err(pe);
    if (ibsec_secbits_unpack(buf[bth_off + IBSEC_BTH_BYTE_RESV7], sb) != 0)
        return IBSEC_R_BAD_SECMODE;
    if (!ibsec_sth_code_supported(sb->code))
        return IBSEC_R_STH_SIZE_UNSUPPORTED;
    pe = ibsec_frame_parse(buf, len, link, ibsec_secbits_sth_len(sb), p);
    return ibsec_reason_from_pkt_err(pe);
}

static bool icrc_ok(const uint8_t *buf, const struct ibsec_pkt *p)
{
    return ibsec_icrc_compute(buf, p) == ibsec_icrc_get(buf, p);
}

/* Lee & Kim §6.1: consecutive authentication failures raise a sticky alert.
 * Returns true when this failure raised it. */
static bool note_auth_failure(ibsec_ctx *c)
{
    if (c->fail_consec < UINT32_MAX)
        c->fail_consec++;
    if (c->cfg.alert_threshold == 0 || c->fail_consec < c->cfg.alert_threshold || c->alert)
        return false;
    c->alert = true;
    c->alert_count++;
    return true;
}

/* Step 13: buf[0..p->end) becomes the plain packet. */
static enum ibsec_reason restore_plain(uint8_t *buf, struct ibsec_pkt *p, size_t *len)
{
    if (p->extra_len) {
        struct ibsec_pkt shrunk;
        size_t n;
        enum ibsec_pkt_err pe = ibsec_pkt_remove_extra(buf, p, &n, &shrunk);
        if (pe != IBSEC_PKT_OK)
            return ibsec_reason_from_pkt_err(pe);
        shrunk.mask_mf = p->mask_mf; /* the re-parse clears the caller's switch */
        *p = shrunk;
    }
    buf[p->bth_off + IBSEC_BTH_BYTE_RESV7] &= (uint8_t)~IBSEC_SECBITS_MASK;
    ibsec_pkt_clear_udp_csum(buf, p);
    ibsec_pkt_put_crcs(buf, p);
    *len = p->end;
    return IBSEC_R_OK;
}

/* The received tag: the ICRC field (icrc-mac) or the STH after its SecTAG (sth-*). */
static size_t received_tag(const uint8_t *buf, const struct ibsec_pkt *p,
                           const struct ibsec_secbits *sb, uint8_t tag[IBSEC_GCM_TAG_MAX])
{
    size_t sectag = sb->pn ? IBSEC_SECTAG_LEN : 0u;
    size_t off = (sb->mode == IBSEC_MODE_ICRC_MAC) ? p->icrc_off : p->extra_off + sectag;
    size_t n = (sb->mode == IBSEC_MODE_ICRC_MAC) ? IBSEC_ICRC_MAC_TAG_LEN : p->extra_len - sectag;
    memcpy(tag, buf + off, n);
    return n;
}

/* Step 10, epsn nonce: the EPSN from the PSN and the context's window (sRDMA §4.3). */
static enum ibsec_reason epsn_step(const ibsec_ctx *c, const ibsec_key_entry *k,
                                   const struct ibsec_pkt *p, uint8_t iv[IBSEC_GCM_IV_LEN],
                                   ibsec_verdict *vd)
{
    enum ibsec_reason r = ibsec_epsn_rx_check(c, p->bth.psn, &vd->epsn);
    if (r == IBSEC_R_OK)
        ibsec_iv_build(k->salt, c->cfg.dir ^ 1u, vd->epsn, iv); /* the sender's direction */
    return r;
}

/* Step 10, pn nonce (wire-format.md §5.2): the sender's entry from the key slot and the
 * SSCI, the PN against its window. */
static enum ibsec_reason pn_step(ibsec_engine *e, const ibsec_ctx *c, unsigned kidx,
                                 const uint8_t *buf, const struct ibsec_pkt *p,
                                 uint8_t iv[IBSEC_GCM_IV_LEN], ibsec_verdict *vd, ibsec_peer **peer)
{
    const uint8_t *st = buf + p->extra_off;
    vd->ssci = ibsec_get_be32(st);
    vd->pn = (uint64_t)ibsec_get_be32(st + 4) << 32 | ibsec_get_be32(st + 8);
    int i = ibsec_peer_lookup(e, kidx, vd->ssci);
    if (i < 0)
        return IBSEC_R_UNKNOWN_SENDER;
    *peer = &e->peers[i];
    if (!c->cfg.replay_off) {
        enum ibsec_reason r = ibsec_window_check(&(*peer)->rx, e->replay_window, vd->pn,
                                                 IBSEC_R_PN_TOO_OLD);
        if (r != IBSEC_R_OK)
            return r;
    }
    ibsec_iv_build_pn(e->keys[kidx].salt, vd->ssci, vd->pn, iv);
    return IBSEC_R_OK;
}

/* Transports whose PSN numbers a connection's packets (IBA Vol. 1 §9.7: RC, UC; XRC,
 * Annex A14): the duplicate status applies (wire-format.md §6.1). */
static bool connected(uint8_t opcode)
{
    unsigned tc = opcode >> 5;
    return tc == IBSEC_TC_RC || tc == IBSEC_TC_UC || tc == IBSEC_TC_XRC;
}

/* Steps 10-13 for a secured context whose key slot kidx is valid. */
static enum ibsec_reason open_secured(ibsec_engine *e, ibsec_ctx *c, unsigned kidx, uint8_t *buf,
                                      struct ibsec_pkt *p, const struct ibsec_secbits *sb,
                                      size_t *len, ibsec_verdict *vd)
{
    const ibsec_key_entry *k = &e->keys[kidx];
    uint8_t iv[IBSEC_GCM_IV_LEN], tag[IBSEC_GCM_TAG_MAX];
    ibsec_peer *peer = NULL;
    enum ibsec_reason r = sb->pn ? pn_step(e, c, kidx, buf, p, iv, vd, &peer)   /* 10 */
                                 : epsn_step(c, k, p, iv, vd);
    if (r != IBSEC_R_OK)
        return r;
    size_t tag_len = received_tag(buf, p, sb, tag);
    if (ibsec_mode_open(k, iv, sb->mode, buf, p, tag, tag_len) != 0) {         /* 11 */
        vd->alert_raised = note_auth_failure(c);
        return IBSEC_R_AUTH_FAILED;
    }
    if (!sb->pn)                                                               /* 12 */
        ibsec_epsn_rx_commit(c, vd->epsn);
    else if (!c->cfg.replay_off)
        ibsec_window_commit(&peer->rx, e->replay_window, vd->pn);
    if (sb->pn && connected(p->bth.opcode))
        vd->dup = ibsec_conn_note(e, vd->ssci, p->bth.destqp, p->bth.psn);
    c->fail_consec = 0;
    return restore_plain(buf, p, len);                                         /* 13 */
}

/* The key slot of a packet's key phase, or -1 when the context has none for it. */
static int phase_key(const ibsec_ctx *c, unsigned kp)
{
    if (kp == 0)
        return (int)c->cfg.key;
    return c->cfg.key1_en ? (int)c->cfg.key1 : -1;
}

/* Steps 6-9: does the packet agree with its context? */
static enum ibsec_reason check_against_context(const ibsec_engine *e, const ibsec_ctx *c,
                                               const uint8_t *buf, const struct ibsec_pkt *p,
                                               const struct ibsec_secbits *sb)
{
    if (sb->mode != c->cfg.mode || sb->pn != (c->cfg.nonce == IBSEC_NONCE_PN))  /* 6 */
        return IBSEC_R_MODE_MISMATCH;
    if (ibsec_mode_has_sth(sb->mode) && sb->code != c->cfg.sth_code)            /* 7 */
        return IBSEC_R_STH_SIZE_MISMATCH;
    int kidx = phase_key(c, sb->kp);
    if (sb->mode != IBSEC_MODE_NONE && (kidx < 0 || !e->keys[kidx].valid))      /* 8 */
        return IBSEC_R_NO_KEY;
    if (sb->mode != IBSEC_MODE_ICRC_MAC && !icrc_ok(buf, p))                    /* 9 */
        return IBSEC_R_BAD_ICRC;
    return IBSEC_R_OK;
}

static enum ibsec_reason open_packet(ibsec_engine *e, enum ibsec_link link,
                                     const uint8_t *in, size_t in_len,
                                     uint8_t *out, size_t cap, size_t *len, ibsec_verdict *vd)
{
    struct ibsec_pkt p;
    struct ibsec_secbits sb = { .mode = IBSEC_MODE_NONE };
    enum ibsec_reason r;

    if (cap < IBSEC_MAX_PKT || in_len > cap)
        return IBSEC_R_NOSPACE;
    memmove(out, in, in_len);
    r = parse_wire(out, in_len, link, &p, &sb);                               /* 1-3 */
    vd->mode = sb.mode;
    vd->kp = sb.kp;
    if (r != IBSEC_R_OK)
        return r;
    p.mask_mf = e->mask_mf; /* ICRC and AAD masking, docs/availability.md §2.4 */
    *len = p.end;
    if (p.has_vcrc && !ibsec_vcrc_ok(out, &p))                                 /* 4 */
        return IBSEC_R_BAD_VCRC;

    int mc = ibsec_mgmt_class_of(p.bth.destqp);                               /* 5 */
    enum ibsec_mgmt_policy mp = mc < 0 ? IBSEC_MGMT_CONTEXT : e->mgmt[mc];
    if (mp == IBSEC_MGMT_DROP)
        return IBSEC_R_MGMT_DROPPED;
    vd->ctx = mp == IBSEC_MGMT_BYPASS ? -1 : ibsec_ctx_lookup(e, p.bth.destqp, p.bth.pkey);
    if (vd->ctx < 0) {
        if (sb.mode != IBSEC_MODE_NONE || (!e->allow_plain && mp != IBSEC_MGMT_BYPASS))
            return IBSEC_R_NO_CONTEXT;
        if (!icrc_ok(out, &p))
            return IBSEC_R_BAD_ICRC;
        ibsec_pkt_clear_udp_csum(out, &p);                                     /* 13 */
        return IBSEC_R_OK;
    }
    ibsec_ctx *c = &e->ctx[vd->ctx];
    if ((r = check_against_context(e, c, out, &p, &sb)) != IBSEC_R_OK)        /* 6-9 */
        return r;
    if (sb.mode == IBSEC_MODE_NONE) {
        ibsec_pkt_clear_udp_csum(out, &p);                                     /* 13 */
        return IBSEC_R_OK;
    }
    return open_secured(e, c, (unsigned)phase_key(c, sb.kp), out, &p, &sb, len, vd); /* 10-13 */
}

enum ibsec_reason ibsec_open(ibsec_engine *e, enum ibsec_link link,
                             const uint8_t *in, size_t in_len,
                             uint8_t *out, size_t out_cap, size_t *out_len,
                             ibsec_verdict *v)
{
    ibsec_verdict vd = { .reason = IBSEC_R_OK, .ctx = -1, .mode = IBSEC_MODE_NONE };
    size_t len = 0;
    enum ibsec_reason r = open_packet(e, link, in, in_len, out, out_cap, &len, &vd);
    return ibsec_account(e, IBSEC_OP_OPEN, r, &vd, v, len, out_len);
}
