/*
 * secm.c — the ibsec PrivateData block and its HMAC-SHA-256 (secm.h).
 */
#include "secm.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "ibsec.h"

const char *secm_reason_name(enum secm_reason r)
{
    static const char *const names[SECM_R_COUNT] = {
        "ok", "mad_truncated", "mad_too_long", "mad_bad_header", "bad_fmt", "bad_pdata_len",
        "bad_pdata", "unknown_peer", "bad_mac", "replay", "unsolicited", "unknown_conn",
        "key_unwrap", "no_resources", "driver", "rejected", "timeout", "crypto_failed",
        "local_failed",
    };
    return (unsigned)r < SECM_R_COUNT ? names[r] : "?";
}

enum secm_reason secm_reason_from_cm_err(enum ib_cm_err e)
{
    switch (e) {
    case IB_CM_OK:            return SECM_OK;
    case IB_CM_ERR_TRUNCATED: return SECM_R_MAD_TRUNCATED;
    case IB_CM_ERR_TOO_LONG:  return SECM_R_MAD_TOO_LONG;
    default:                  return SECM_R_MAD_BAD_HEADER;
    }
}

/* true when p[0..n) is all zero */
static bool all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* ---- blocks ----------------------------------------------------------------------- */

void secm_keyx_put(const struct secm_keyx *k, uint8_t pdata[SECM_KEYX_LEN])
{
    memset(pdata, 0, SECM_KEYX_LEN);
    pdata[SECM_OFF_FMT] = SECM_FMT_V1;
    pdata[SECM_OFF_LEN] = SECM_KEYX_LEN;
    pdata[SECM_OFF_MODE] = k->mode;
    pdata[SECM_OFF_KEYINFO] = (uint8_t)((k->sth_code & SECM_KEYINFO_STH_MASK) |
                                        (k->aes256 ? SECM_KEYINFO_AES256 : 0));
    memcpy(pdata + SECM_OFF_NONCE, k->nonce, KD_NONCE_LEN);
    memcpy(pdata + SECM_OFF_WRAPPED, k->wrapped, SECM_WRAPPED_LEN);
}

/* Format byte, then the length byte, then everything after the block zero. */
static enum secm_reason block_frame_check(const uint8_t *pdata, size_t pdata_len, size_t blk)
{
    if (pdata_len < blk)
        return SECM_R_BAD_PDATA_LEN;
    if (pdata[SECM_OFF_FMT] != SECM_FMT_V1)
        return SECM_R_BAD_FMT;
    if (pdata[SECM_OFF_LEN] != blk)
        return SECM_R_BAD_PDATA_LEN;
    if (!all_zero(pdata + blk, pdata_len - blk))
        return SECM_R_BAD_PDATA_LEN;
    return SECM_OK;
}

enum secm_reason secm_keyx_get(const uint8_t *pdata, size_t pdata_len, struct secm_keyx *k)
{
    enum secm_reason r = block_frame_check(pdata, pdata_len, SECM_KEYX_LEN);
    uint8_t ki;

    if (r != SECM_OK)
        return r;
    ki = pdata[SECM_OFF_KEYINFO];
    k->mode = pdata[SECM_OFF_MODE];
    k->sth_code = ki & SECM_KEYINFO_STH_MASK;
    k->aes256 = (ki & SECM_KEYINFO_AES256) != 0;
    if ((ki & ~(SECM_KEYINFO_AES256 | SECM_KEYINFO_STH_MASK)) != 0 ||
        k->mode >= IBSEC_MODE_COUNT || k->mode == IBSEC_MODE_NONE ||
        (ibsec_mode_has_sth((enum ibsec_mode)k->mode) ? !ibsec_sth_code_supported(k->sth_code) ||
                                                            k->sth_code == 0
                                                      : k->sth_code != 0))
        return SECM_R_BAD_PDATA;
    memcpy(k->nonce, pdata + SECM_OFF_NONCE, KD_NONCE_LEN);
    memcpy(k->wrapped, pdata + SECM_OFF_WRAPPED, SECM_WRAPPED_LEN);
    return SECM_OK;
}

void secm_short_put(uint8_t pdata[SECM_SHORT_LEN])
{
    memset(pdata, 0, SECM_SHORT_LEN);
    pdata[SECM_OFF_FMT] = SECM_FMT_V1;
    pdata[SECM_OFF_LEN] = SECM_SHORT_LEN;
}

enum secm_reason secm_short_get(const uint8_t *pdata, size_t pdata_len)
{
    enum secm_reason r = block_frame_check(pdata, pdata_len, SECM_SHORT_LEN);

    if (r == SECM_OK && (pdata[2] | pdata[3]) != 0)
        return SECM_R_BAD_PDATA;
    return r;
}

void secm_rej_put(enum secm_reason r, uint8_t pdata[SECM_SHORT_LEN])
{
    const char *name = secm_reason_name(r);
    size_t n = strlen(name);

    secm_short_put(pdata);
    pdata[SECM_OFF_REJ_REASON] = (uint8_t)r;
    memcpy(pdata + SECM_OFF_REJ_NAME, name, n < 31 ? n : 31);
}

void secm_rej_put_auth(enum secm_reason r, uint8_t pdata[SECM_REJ_AUTH_LEN])
{
    memset(pdata, 0, SECM_REJ_AUTH_LEN);
    secm_rej_put(r, pdata);
    pdata[SECM_OFF_LEN] = SECM_REJ_AUTH_LEN;
}

bool secm_rej_has_tag(const uint8_t *pdata, size_t pdata_len)
{
    return block_frame_check(pdata, pdata_len, SECM_REJ_AUTH_LEN) == SECM_OK;
}

enum secm_reason secm_rej_get(const uint8_t *pdata, size_t pdata_len)
{
    if ((block_frame_check(pdata, pdata_len, SECM_SHORT_LEN) != SECM_OK &&
         block_frame_check(pdata, pdata_len, SECM_REJ_AUTH_LEN) != SECM_OK) ||
        pdata[SECM_OFF_REJ_REASON] >= SECM_R_COUNT)
        return SECM_R_REJECTED;
    return (enum secm_reason)pdata[SECM_OFF_REJ_REASON];
}

/* ---- tags ------------------------------------------------------------------------- */

size_t secm_tag_off(uint16_t attr)
{
    size_t base = IB_MAD_HDR_LEN + ib_cm_pdata_off(attr);

    switch (attr) {
    case IB_CM_ATTR_REQ:
    case IB_CM_ATTR_REP:
        return base + SECM_OFF_KEYX_TAG;
    case IB_CM_ATTR_RTU:
    case IB_CM_ATTR_DREQ:
    case IB_CM_ATTR_DREP:
        return base + SECM_OFF_SHORT_TAG;
    case IB_CM_ATTR_REJ:
        return base + SECM_OFF_REJ_TAG;
    default:
        return 0;
    }
}

/* The 16 label bytes of each message kind, NUL padded; "ibsec-cm DREQ v1" and
 * "ibsec-cm DREP v1" fill all 16 (no NUL). */
static const uint8_t secm_labels[SECM_L_COUNT][SECM_LABEL_LEN] = {
    [SECM_L_REQ]  = { 'i','b','s','e','c','-','c','m',' ','R','E','Q',' ','v','1', 0 },
    [SECM_L_REP]  = { 'i','b','s','e','c','-','c','m',' ','R','E','P',' ','v','1', 0 },
    [SECM_L_RTU]  = { 'i','b','s','e','c','-','c','m',' ','R','T','U',' ','v','1', 0 },
    [SECM_L_DREQ] = { 'i','b','s','e','c','-','c','m',' ','D','R','E','Q',' ','v','1' },
    [SECM_L_DREP] = { 'i','b','s','e','c','-','c','m',' ','D','R','E','P',' ','v','1' },
    [SECM_L_REJ]  = { 'i','b','s','e','c','-','c','m',' ','R','E','J',' ','v','1', 0 },
};

static uint16_t label_attr(enum secm_label l)
{
    static const uint16_t attrs[SECM_L_COUNT] = {
        IB_CM_ATTR_REQ, IB_CM_ATTR_REP, IB_CM_ATTR_RTU, IB_CM_ATTR_DREQ, IB_CM_ATTR_DREP,
        IB_CM_ATTR_REJ,
    };
    return attrs[l];
}

int secm_tag_compute(const uint8_t auth_key[KD_KEY_LEN], enum secm_label l, uint64_t to_guid,
                     const uint8_t *chal, size_t chal_len, const uint8_t mad[IB_MAD_LEN],
                     uint8_t tag[SECM_TAG_LEN])
{
    /* label 16 || guid 8 || challenge <= 32 || MAD 256 */
    uint8_t msg[SECM_LABEL_LEN + 8 + 2 * KD_NONCE_LEN + IB_MAD_LEN];
    size_t off = secm_tag_off(label_attr(l)), n = 0;
    int rc;

    memcpy(msg, secm_labels[l], SECM_LABEL_LEN);
    n = SECM_LABEL_LEN;
    for (int i = 7; i >= 0; i--)
        msg[n++] = (uint8_t)(to_guid >> (8 * i));
    if (chal_len > 2 * KD_NONCE_LEN)
        chal_len = 2 * KD_NONCE_LEN;
    memcpy(msg + n, chal, chal_len);
    n += chal_len;
    memcpy(msg + n, mad, IB_MAD_LEN);
    memset(msg + n + off, 0, SECM_TAG_LEN);
    n += IB_MAD_LEN;
    rc = kd_hmac(auth_key, KD_KEY_LEN, msg, n, tag);   /* tag zeroed if it fails */
    OPENSSL_cleanse(msg, sizeof msg);
    return rc;
}

int secm_tag_put(const uint8_t auth_key[KD_KEY_LEN], enum secm_label l, uint64_t to_guid,
                 const uint8_t *chal, size_t chal_len, uint8_t mad[IB_MAD_LEN])
{
    uint8_t tag[SECM_TAG_LEN];
    int rc = secm_tag_compute(auth_key, l, to_guid, chal, chal_len, mad, tag);

    memcpy(mad + secm_tag_off(label_attr(l)), tag, SECM_TAG_LEN);
    return rc;
}

enum secm_reason secm_tag_check(const uint8_t auth_key[KD_KEY_LEN], enum secm_label l,
                                uint64_t to_guid, const uint8_t *chal, size_t chal_len,
                                const uint8_t mad[IB_MAD_LEN])
{
    uint8_t tag[SECM_TAG_LEN];

    if (secm_tag_compute(auth_key, l, to_guid, chal, chal_len, mad, tag) != 0)
        return SECM_R_CRYPTO;
    return CRYPTO_memcmp(tag, mad + secm_tag_off(label_attr(l)), SECM_TAG_LEN) == 0
               ? SECM_OK : SECM_R_BAD_MAC;
}

bool secm_tag_ok(const uint8_t auth_key[KD_KEY_LEN], enum secm_label l, uint64_t to_guid,
                 const uint8_t *chal, size_t chal_len, const uint8_t mad[IB_MAD_LEN])
{
    return secm_tag_check(auth_key, l, to_guid, chal, chal_len, mad) == SECM_OK;
}
