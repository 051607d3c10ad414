/*
 * secm.h — authenticated CM PrivateData (SECM §3.3, §4.2, with the key exchange
 * of Lee & Kim §5.1.5): the ibsec block every REQ, REP, RTU, DREQ and DREP carries,
 * its HMAC-SHA-256, and the named reasons a message is refused.
 *
 * The block, at PrivateData byte 0 (docs/setup.md §3 gives it byte by byte):
 *
 *   REQ, REP (92 bytes; REQ PrivateData is exactly 92)
 *     0     fmt        SECM_FMT_V1
 *     1     len        92: the block's length (anything else: bad_pdata_len)
 *     2     mode       enum ibsec_mode asked for (REQ) / granted (REP)
 *     3     keyinfo    [2:0] STH code, [7] AES-256 session key
 *     4-19  nonce      N_i (REQ) / N_r (REP), 128 fresh random bits
 *     20-59 wrapped    RFC 3394 wrap of the session key (24 or 40 bytes, rest 0);
 *                      REQ: SK; REP: zero (RC) or SK_r (datagram)
 *     60-91 tag        HMAC-SHA-256, 32 bytes
 *   RTU, DREQ, DREP (36 bytes)
 *     0 fmt, 1 len = 36, 2-3 zero, 4-35 tag
 *   REJ (68 bytes, always sent tagged; the 36-byte untagged form is parsed but never
 *   believed by setup.c)
 *     0 fmt, 1 len = 68, 2 reason (enum secm_reason), 3 zero, 4-35 reason name, NUL
 *     padded, 36-67 tag
 *
 * The tag is HMAC-SHA-256 under the pair's auth key (kd_pair_auth_key) over
 *
 *   label (16 bytes: "ibsec-cm REQ v1" and so on, NUL padded; "ibsec-cm DREQ v1" and
 *          "ibsec-cm DREP v1" fill all 16)
 *   || the GUID of the CA the message is for (8 bytes, big-endian)
 *   || the challenge (REQ: none; REP: N_i; RTU, DREQ, DREP: N_i || N_r; REJ: N_i when it
 *      is about a REQ (the sender holds no N_r yet), else N_i || N_r)
 *   || the whole 256-byte MAD with the 32 tag bytes set to zero.
 *
 * So one tag binds every field of the message — QPN, starting PSN, P_Key, Q_Key,
 * communication IDs, both CA GUIDs (the sender's is in the REQ/REP, the receiver's is
 * the second input), the mode, the wrapped key and the nonces — to the pair key, and
 * the challenge ties a REP to the one REQ it answers and an RTU to the one REP.
 */
#ifndef IBSEC_SECM_H
#define IBSEC_SECM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ib_cm.h"
#include "keydist.h"

#define SECM_FMT_V1        0x01u
#define SECM_TAG_LEN       32u
#define SECM_LABEL_LEN     16u
#define SECM_KEYX_LEN      92u     /* REQ / REP block */
#define SECM_SHORT_LEN     36u     /* RTU / DREQ / DREP / REJ block */
#define SECM_OFF_FMT       0u
#define SECM_OFF_LEN       1u
#define SECM_OFF_MODE      2u
#define SECM_OFF_KEYINFO   3u
#define SECM_OFF_NONCE     4u
#define SECM_OFF_WRAPPED   20u
#define SECM_WRAPPED_LEN   40u
#define SECM_OFF_KEYX_TAG  60u
#define SECM_OFF_SHORT_TAG 4u
#define SECM_OFF_REJ_REASON 2u
#define SECM_OFF_REJ_NAME  4u
#define SECM_REJ_AUTH_LEN  68u     /* REJ block with a tag */
#define SECM_OFF_REJ_TAG   36u
#define SECM_KEYINFO_AES256 0x80u
#define SECM_KEYINFO_STH_MASK 0x07u

/* Why a CM message was refused (counted per CA; REJ carries the code and name). */
enum secm_reason {
    SECM_OK = 0,
    SECM_R_MAD_TRUNCATED,      /* ib_cm_parse: fewer than 256 bytes */
    SECM_R_MAD_TOO_LONG,       /* ib_cm_parse: more than 256 bytes */
    SECM_R_MAD_BAD_HEADER,     /* ib_cm_parse: not a CM class-2 Send of a known attribute */
    SECM_R_BAD_FMT,            /* block format byte unknown */
    SECM_R_BAD_PDATA_LEN,      /* block length byte not that of the message */
    SECM_R_BAD_PDATA,          /* reserved block bytes not zero, or a bad mode / STH code */
    SECM_R_UNKNOWN_PEER,       /* no pair key with the sending CA */
    SECM_R_BAD_MAC,            /* HMAC does not verify */
    SECM_R_REPLAY,             /* REQ nonce seen before from that peer */
    SECM_R_UNSOLICITED,        /* REP/REJ for no outstanding REQ of ours */
    SECM_R_UNKNOWN_CONN,       /* RTU/DREQ/DREP for no connection in that state */
    SECM_R_KEY_UNWRAP,         /* session key does not unwrap under the pair's KEK */
    SECM_R_NO_RESOURCES,       /* no key slot or context left in an engine */
    SECM_R_DRIVER,             /* the engine refused a register command */
    SECM_R_REJECTED,           /* the peer sent a REJ */
    SECM_R_TIMEOUT,            /* the REP, RTU or DREP did not come in time */
    SECM_R_CRYPTO,             /* this CA's RNG or libcrypto failed (setup aborted) */
    SECM_R_LOCAL,              /* this CA could not make a message or arm a deadline */
    SECM_R_COUNT
};
const char *secm_reason_name(enum secm_reason r);
/* The reason for an ib_cm_parse error. */
enum secm_reason secm_reason_from_cm_err(enum ib_cm_err e);

/* Which message a tag is for (its label). */
enum secm_label { SECM_L_REQ, SECM_L_REP, SECM_L_RTU, SECM_L_DREQ, SECM_L_DREP, SECM_L_REJ,
                  SECM_L_COUNT };

/* The decoded REQ/REP block. */
struct secm_keyx {
    uint8_t  mode;
    uint8_t  sth_code;
    bool     aes256;
    uint8_t  nonce[KD_NONCE_LEN];
    uint8_t  wrapped[SECM_WRAPPED_LEN];
};

/* Write a REQ/REP block (tag zero) into pdata[0..92). */
void secm_keyx_put(const struct secm_keyx *k, uint8_t pdata[SECM_KEYX_LEN]);
/* Check and decode a REQ/REP block from a parsed message's PrivateData:
 * SECM_OK, SECM_R_BAD_FMT, SECM_R_BAD_PDATA_LEN or SECM_R_BAD_PDATA. */
enum secm_reason secm_keyx_get(const uint8_t *pdata, size_t pdata_len, struct secm_keyx *k);
/* Write an RTU/DREQ/DREP block (tag zero) / check one. */
void secm_short_put(uint8_t pdata[SECM_SHORT_LEN]);
enum secm_reason secm_short_get(const uint8_t *pdata, size_t pdata_len);
/* A REJ block naming the reason (36 bytes), the same with room for a tag (68 bytes,
 * tag zero), the reason a REJ block names (SECM_R_REJECTED if the block is not ours),
 * and whether the block is the 68-byte kind. */
void secm_rej_put(enum secm_reason r, uint8_t pdata[SECM_SHORT_LEN]);
void secm_rej_put_auth(enum secm_reason r, uint8_t pdata[SECM_REJ_AUTH_LEN]);
enum secm_reason secm_rej_get(const uint8_t *pdata, size_t pdata_len);
bool secm_rej_has_tag(const uint8_t *pdata, size_t pdata_len);

/* Byte offset of the tag in the 256-byte MAD of an attribute (0 if none). */
size_t secm_tag_off(uint16_t attr);

/* The tag of a MAD (see the header comment): HMAC-SHA-256(auth_key, label ||
 * to_guid || chal || mad with the tag bytes zeroed).  0, or -1 (libcrypto failed) with
 * the tag zeroed. */
int  secm_tag_compute(const uint8_t auth_key[KD_KEY_LEN], enum secm_label l, uint64_t to_guid,
                      const uint8_t *chal, size_t chal_len, const uint8_t mad[IB_MAD_LEN],
                      uint8_t tag[SECM_TAG_LEN]);
/* Compute and write the tag into the MAD: 0, or -1 with the tag bytes zeroed. */
int  secm_tag_put(const uint8_t auth_key[KD_KEY_LEN], enum secm_label l, uint64_t to_guid,
                  const uint8_t *chal, size_t chal_len, uint8_t mad[IB_MAD_LEN]);
/* Check a MAD's tag in constant time: SECM_OK, SECM_R_BAD_MAC, or SECM_R_CRYPTO if the
 * tag could not be computed (never OK then). */
enum secm_reason secm_tag_check(const uint8_t auth_key[KD_KEY_LEN], enum secm_label l,
                                uint64_t to_guid, const uint8_t *chal, size_t chal_len,
                                const uint8_t mad[IB_MAD_LEN]);
/* secm_tag_check == SECM_OK. */
bool secm_tag_ok(const uint8_t auth_key[KD_KEY_LEN], enum secm_label l, uint64_t to_guid,
                 const uint8_t *chal, size_t chal_len, const uint8_t mad[IB_MAD_LEN]);

#endif /* IBSEC_SECM_H */
