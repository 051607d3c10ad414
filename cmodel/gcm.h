/*
 * gcm.h — AES-GCM authenticated encryption (NIST SP 800-38D §7) with a 96-bit IV and
 * tags of 4..16 bytes, the golden model of rtl/crypto/gcm_core.v.
 *
 * Byte strings in standard order (the hex order of SP 800-38D and of the GCM
 * specification's test cases). Lengths are in bytes. A key context carries the AES round
 * keys, the hash subkey H = AES_K(0^128) and the powers H^1..H^LANES that the RTL's
 * aggregated GHASH uses; the LANES chosen at key set-up only changes how the model groups
 * GHASH blocks into beats, never a result.
 *
 * Limits (SP 800-38D §5.2.1.1): len(P) <= 2^39 - 256 bits, len(A) < 2^64 bits; longer
 * inputs are rejected with -1.
 *
 * Tag length. The model returns MSB_t of the full tag for any t of 4..16 bytes, so that
 * every truncation the RTL can be configured for is checkable. SP 800-38D §5.2.1.2
 * approves only 16, 15, 14, 13 and 12 bytes, and 8 and 4 bytes for the applications of
 * its Appendix C; ibsec uses 4 (icrc-mac), 12 and 16 (STH). For the truncated tags
 * Appendix C limits how many invocations one key may see; enforcing that is the key
 * manager's job, not this layer's.
 */
#ifndef IBSEC_GCM_H
#define IBSEC_GCM_H

#include <stddef.h>
#include <stdint.h>

#include "aes.h"
#include "ghash.h"

#define IBSEC_GCM_IV_LEN      12 /* 96-bit IV only (SP 800-38D §8.2.1) */
#define IBSEC_GCM_TAG_MAX     16
#define IBSEC_GCM_TAG_MIN     4  /* 32 bits: SP 800-38D §5.2.1.2 with Appendix C */

typedef struct {
    ibsec_aes_key aes;
    uint8_t h[16];
    ibsec_hpow hp;
} ibsec_gcm_key;

/* Expands the AES key (16 or 32 bytes), computes H = AES_K(0^128) (SP 800-38D §7.1 step 1)
 * and H^1..H^IBSEC_MAX_LANES; lanes (1..IBSEC_MAX_LANES) is the GHASH beat width.
 * 0 ok, -1 bad key length, bad lanes or null pointer. */
int ibsec_gcm_key_init(ibsec_gcm_key *gk, const uint8_t *key, size_t key_len, int lanes);

/* Counter block IV || [ctr]_32 (SP 800-38D §7.1 step 2: J0 is ctr = 1; the first
 * plaintext block uses inc32(J0), ctr = 2). */
void ibsec_gcm_counter_block(const uint8_t iv[12], uint32_t ctr, uint8_t out[16]);

/* SP 800-38D §7.1 GCM-AE: ct = GCTR(inc32(J0), pt), tag = MSB_tag_len(E(K,J0) ^ S).
 * pt and ct may be the same buffer. aad / pt / ct may be NULL only when their length is 0.
 * 0 ok, -1 bad arguments (tag_len outside 4..16, null pointer, input too long), in which
 * case nothing is written. */
int ibsec_gcm_seal(const ibsec_gcm_key *gk, const uint8_t iv[12],
                   const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t len,
                   uint8_t *ct, uint8_t *tag, size_t tag_len);

/* SP 800-38D §7.2 GCM-AD. The tag is recomputed over (aad, ct) and compared in constant
 * time (every byte, no early exit) BEFORE anything is decrypted; pt is written only when
 * it matches. 0 ok; -1 authentication failure or bad arguments, with pt zeroed (all len
 * bytes, when pt is non-null). ct and pt may be the same buffer: on failure that buffer
 * is then zeroed too. */
int ibsec_gcm_open(const ibsec_gcm_key *gk, const uint8_t iv[12],
                   const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
                   const uint8_t *tag, size_t tag_len, uint8_t *pt);

/* --- Intermediate values for the RTL harness ------------------------------------- */

/* Number of 16-byte blocks GHASH absorbs for a message (SP 800-38D §7.1 step 5):
 * ceil(aad_len/16) + ceil(len/16) + 1 (the length block). */
size_t ibsec_gcm_ghash_input_blocks(size_t aad_len, size_t len);

/* The GHASH input sequence of SP 800-38D §7.1 step 5,
 *   u = A || 0^v || C || 0^w || [len(A)]_64 || [len(C)]_64   (lengths in bits),
 * written to blocks (16 * ibsec_gcm_ghash_input_blocks(aad_len, len) bytes): the AAD
 * zero-padded to whole blocks, the ciphertext zero-padded to whole blocks, then the
 * length block. These are the blocks the RTL's GHASH engine is fed, in order. */
void ibsec_gcm_ghash_input(const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
                           uint8_t *blocks);

/* The authentication side of GCM for a given ciphertext, with its intermediates:
 *   ghash_in  <- ibsec_gcm_ghash_input(aad, ct)     (NULL: not returned; else sized as above)
 *   s         <- S = GHASH_H(ghash_in)              (NULL: not returned)
 *   full_tag  <- E(K, J0) ^ S, all 16 bytes         (the tag before MSB_t truncation)
 * S is folded gk->hp.lanes blocks per beat with ibsec_ghash_fold_beat, as the RTL does.
 * Seal and open compute their tags with this function. 0 ok, -1 bad arguments. */
int ibsec_gcm_full_tag(const ibsec_gcm_key *gk, const uint8_t iv[12],
                       const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
                       uint8_t *ghash_in, uint8_t s[16], uint8_t full_tag[16]);

#endif
