/*
 * ibsec_frame.c — the pieces of a packet the security modes read and write,
 * shared by seal and open (docs/wire-format.md §3):
 *
 *   A  (GCM additional data) = the masked header bytes: exactly the bytes the
 *      ICRC computation sees from the start of its coverage through the last
 *      ETH, variant fields replaced by ones (crc.h, ibsec_icrc_masked_bytes).
 *      Native: LRH [GRH] BTH ETHs.  RoCEv2: 8 bytes of ones, IP, UDP, BTH, ETHs.
 *      The STH is not part of A (it holds the tag).
 *   P  = payload followed by the pad bytes (BTH PadCnt), the bytes between the
 *      STH (or the last ETH) and the ICRC.
 */
#include "ibsec.h"

size_t ibsec_aad_headers(const uint8_t *buf, const struct ibsec_pkt *p, uint8_t *out, size_t cap)
{
    return ibsec_icrc_masked_bytes(buf, p, p->eths_end, out, cap);
}

size_t ibsec_payload_pad_off(const struct ibsec_pkt *p)
{
    return p->payload_off;
}

size_t ibsec_payload_pad_len(const struct ibsec_pkt *p)
{
    return p->payload_len + p->padcnt;
}

/* ---- the crypto step of each mode (wire-format.md §3) -----------------------
 * Seal: encrypt P in place where the mode encrypts, compute the tag.
 * Open: verify the tag (constant time, inside ibsec_gcm_open) and decrypt P in
 * place where the mode encrypts.  GMAC (sth-hdr, sth-pkt) is GCM with an empty
 * plaintext (SP 800-38D §3). */

/* AAD of sth-pkt: A || P in one buffer. */
static size_t aad_headers_and_payload(const uint8_t *buf, const struct ibsec_pkt *p,
                                      uint8_t *aad, size_t cap)
{
    size_t n = ibsec_aad_headers(buf, p, aad, cap);
    size_t pl = ibsec_payload_pad_len(p);
    if (n == 0 || n + pl > cap)
        return 0;
    for (size_t i = 0; i < pl; i++)
        aad[n + i] = buf[ibsec_payload_pad_off(p) + i];
    return n + pl;
}

/* The AAD of a mode (wire-format.md §3) into aad[IBSEC_AAD_MAX]: its length, 0 on
 * error; *encrypts tells whether the payload and pad are the GCM plaintext (icrc-mac,
 * sth-aead) or not processed by GCM at all (sth-hdr, sth-pkt). */
static size_t mode_aad(enum ibsec_mode mode, const uint8_t *buf, const struct ibsec_pkt *p,
                       uint8_t *aad, bool *encrypts)
{
    *encrypts = false;
    switch (mode) {
    case IBSEC_MODE_ICRC_MAC:
    case IBSEC_MODE_STH_AEAD:
        *encrypts = true;
        return ibsec_aad_headers(buf, p, aad, IBSEC_AAD_MAX);
    case IBSEC_MODE_STH_HDR:
        return ibsec_aad_headers(buf, p, aad, IBSEC_AAD_MAX);
    case IBSEC_MODE_STH_PKT:
        return aad_headers_and_payload(buf, p, aad, IBSEC_AAD_MAX);
    default:
        return 0;
    }
}

int ibsec_mode_seal(const ibsec_key_entry *k, const uint8_t iv[IBSEC_GCM_IV_LEN],
                    enum ibsec_mode mode, uint8_t *buf, const struct ibsec_pkt *p,
                    uint8_t *tag, size_t tag_len)
{
    uint8_t aad[IBSEC_AAD_MAX];
    bool enc;
    size_t an = mode_aad(mode, buf, p, aad, &enc);
    if (an == 0)
        return -1;
    uint8_t *pp = enc ? buf + ibsec_payload_pad_off(p) : NULL;
    size_t pl = enc ? ibsec_payload_pad_len(p) : 0;
    return ibsec_gcm_seal(&k->gk, iv, aad, an, pp, pl, pp, tag, tag_len);
}

int ibsec_mode_open(const ibsec_key_entry *k, const uint8_t iv[IBSEC_GCM_IV_LEN],
                    enum ibsec_mode mode, uint8_t *buf, const struct ibsec_pkt *p,
                    const uint8_t *tag, size_t tag_len)
{
    uint8_t aad[IBSEC_AAD_MAX];
    bool enc;
    size_t an = mode_aad(mode, buf, p, aad, &enc);
    if (an == 0)
        return -1;
    uint8_t *pp = enc ? buf + ibsec_payload_pad_off(p) : NULL;
    size_t pl = enc ? ibsec_payload_pad_len(p) : 0;
    return ibsec_gcm_open(&k->gk, iv, aad, an, pp, pl, tag, tag_len, pp);
}

/* ---- bookkeeping shared by seal and open ----------------------------------- */

enum ibsec_reason ibsec_account(ibsec_engine *e, enum ibsec_op op, enum ibsec_reason r,
                                const ibsec_verdict *vd, ibsec_verdict *v,
                                size_t len, size_t *out_len)
{
    e->count[op][r]++;
    if (v) {
        *v = *vd;
        v->reason = r;
    }
    if (out_len)
        *out_len = (r == IBSEC_R_OK) ? len : 0;
    return r;
}

enum ibsec_pkt_err ibsec_frame_parse(const uint8_t *buf, size_t len, enum ibsec_link link,
                                     size_t extra_len, struct ibsec_pkt *p)
{
    enum ibsec_pkt_err pe = ibsec_pkt_parse(buf, len, link, extra_len, p);
    if (pe == IBSEC_PKT_OK && p->end < len)
        pe = ibsec_pkt_parse(buf, p->end, link, extra_len, p);
    return pe;
}
