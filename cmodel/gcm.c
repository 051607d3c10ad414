/*
 * gcm.c — AES-GCM with a 96-bit IV (NIST SP 800-38D §7), built from aes.c and ghash.c.
 *
 * The two halves of GCM, as the RTL splits them:
 *   - confidentiality, GCTR (§6.5): counter blocks IV || [ctr]_32, ctr = 2, 3, ... for the
 *     data (J0 = IV || [1]_32 is kept for the tag), each encrypted and XORed into the data;
 *     a short last block uses the leftmost bytes of its key-stream block.
 *   - authentication (§7.1 steps 5-6): S = GHASH_H(A || 0^v || C || 0^w || [len(A)]_64 ||
 *     [len(C)]_64), T = MSB_t(E(K, J0) ^ S).
 *
 * The GHASH input sequence is defined once, block by block, in ghash_input_block(); the
 * tag computation pulls LANES blocks at a time from it into a beat buffer and folds each
 * beat with ibsec_ghash_fold_beat, so the model groups blocks exactly as a LANES-wide
 * ghash_engine fed with the AAD, ciphertext and length blocks back to back. (Grouping
 * never changes S; it only makes per-beat intermediates comparable.) The same function
 * fills the buffer ibsec_gcm_ghash_input() hands to the harness, so the two cannot drift.
 * No memory is allocated.
 *
 * Open verifies before it decrypts: the tag is recomputed from the ciphertext, compared
 * over all tag_len bytes with an OR of XORs (no early exit, no data-dependent branch
 * until the final verdict), and only a match releases plaintext. On mismatch the output
 * is zeroed, so a caller that ignores the return value still gets no unauthenticated
 * plaintext — the same rule the RTL follows by dropping or flagging the packet.
 *
 * Rejected: hashing the ciphertext and decrypting it in the same pass (what a streaming
 * implementation does); it would release plaintext before the verdict, which the golden
 * model must not suggest. IVs other than 96 bits (GHASH-derived J0, §7.1
 * step 2): ibsec never uses them, and leaving them out keeps J0 a plain concatenation.
 */
#include "gcm.h"

#include <string.h>

/* SP 800-38D §5.2.1.1: len(P) <= 2^39 - 256 bits = 2^36 - 32 bytes; len(A) <= 2^64 - 1 bits. */
#define GCM_MAX_PT_BYTES  ((UINT64_C(1) << 36) - 32)
#define GCM_MAX_AAD_BYTES ((UINT64_C(1) << 61) - 1)

/* SP 800-38D §7.1 step 1 (H) and the powers of H the aggregated GHASH uses. */
int ibsec_gcm_key_init(ibsec_gcm_key *gk, const uint8_t *key, size_t key_len, int lanes)
{
    static const uint8_t zero_block[16] = { 0 };

    if (gk == NULL)
        return -1;
    memset(gk, 0, sizeof(*gk));
    if (lanes < 1 || lanes > IBSEC_MAX_LANES)
        return -1;
    if (ibsec_aes_key_expand(&gk->aes, key, key_len) != 0)
        return -1;
    ibsec_aes_encrypt_block(&gk->aes, zero_block, gk->h); /* §7.1 step 1: H = CIPH_K(0^128) */
    ibsec_hpow_init(&gk->hp, gk->h, lanes);
    return 0;
}

/* SP 800-38D §7.1 step 2 and §6.2 inc32: IV || [ctr]_32, the counter big-endian. */
void ibsec_gcm_counter_block(const uint8_t iv[12], uint32_t ctr, uint8_t out[16])
{
    memcpy(out, iv, 12);
    out[12] = (uint8_t)(ctr >> 24);
    out[13] = (uint8_t)(ctr >> 16);
    out[14] = (uint8_t)(ctr >> 8);
    out[15] = (uint8_t)ctr;
}

/* Arguments every operation shares: a key context that was set up, an IV, and data
 * pointers that are only NULL when their length is 0; lengths within §5.2.1.1. */
static int common_args_ok(const ibsec_gcm_key *gk, const uint8_t *iv,
                          const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len)
{
    if (gk == NULL || iv == NULL)
        return 0;
    if (gk->aes.nr != IBSEC_AES128_ROUNDS && gk->aes.nr != IBSEC_AES256_ROUNDS)
        return 0;
    if (gk->hp.lanes < 1 || gk->hp.lanes > IBSEC_MAX_LANES)
        return 0;
    if ((aad == NULL && aad_len != 0) || (ct == NULL && len != 0))
        return 0;
    if ((uint64_t)len > GCM_MAX_PT_BYTES || (uint64_t)aad_len > GCM_MAX_AAD_BYTES)
        return 0;
    return 1;
}

/* Tag lengths the model computes: MSB_t of the full tag for t = 4..16 bytes (see gcm.h). */
static int tag_len_ok(size_t tag_len)
{
    return tag_len >= IBSEC_GCM_TAG_MIN && tag_len <= IBSEC_GCM_TAG_MAX;
}

/* SP 800-38D §6.5 GCTR from ICB = inc32(J0): out = in ^ E(K, IV || [2 + j]_32) per block j.
 * in and out may alias (each byte is read before it is written). */
static void gctr(const ibsec_gcm_key *gk, const uint8_t iv[12],
                 const uint8_t *in, size_t len, uint8_t *out)
{
    uint8_t cb[16], ks[16];
    for (size_t off = 0, j = 0; off < len; off += 16, j++) {
        size_t n = len - off < 16 ? len - off : 16;
        ibsec_gcm_counter_block(iv, (uint32_t)(2 + j), cb); /* <= 2^32 - 1 within the limits */
        ibsec_aes_encrypt_block(&gk->aes, cb, ks);
        for (size_t i = 0; i < n; i++)
            out[off + i] = (uint8_t)(in[off + i] ^ ks[i]);
    }
}

/* [v]_64 big-endian into 8 bytes (SP 800-38D §6.1 notation [x]_s). */
static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

/* Block `index` of a byte string cut into 16-byte blocks, the last one zero-padded
 * (the 0^v and 0^w of SP 800-38D §7.1 step 5). */
static void padded_block(const uint8_t *data, size_t len, size_t index, uint8_t out[16])
{
    size_t off = 16 * index;
    size_t n = len - off < 16 ? len - off : 16;
    memset(out, 0, 16);
    memcpy(out, data + off, n);
}

/* ceil(len / 16): the 128-bit blocks a byte string fills. */
static size_t blocks_of(size_t len)
{
    return len / 16 + (len % 16 != 0);
}

/* Block `index` of the GHASH input u = A || 0^v || C || 0^w || [len(A)]_64 || [len(C)]_64
 * (SP 800-38D §7.1 step 5). */
static void ghash_input_block(const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
                              size_t index, uint8_t out[16])
{
    size_t na = blocks_of(aad_len), nc = blocks_of(len);
    if (index < na) {
        padded_block(aad, aad_len, index, out);
    } else if (index < na + nc) {
        padded_block(ct, len, index - na, out);
    } else {
        put_be64(out, (uint64_t)aad_len * 8);
        put_be64(out + 8, (uint64_t)len * 8);
    }
}

/* Length of u (SP 800-38D §7.1 step 5) in blocks: A, C, and the length block. */
size_t ibsec_gcm_ghash_input_blocks(size_t aad_len, size_t len)
{
    return blocks_of(aad_len) + blocks_of(len) + 1;
}

/* u of SP 800-38D §7.1 step 5, every block of it. */
void ibsec_gcm_ghash_input(const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
                           uint8_t *blocks)
{
    size_t n = ibsec_gcm_ghash_input_blocks(aad_len, len);
    for (size_t i = 0; i < n; i++)
        ghash_input_block(aad, aad_len, ct, len, i, blocks + 16 * i);
}

/* SP 800-38D §7.1 steps 2, 5 and 6 (before MSB_t): S = GHASH_H(u), E(K, J0) ^ S. */
int ibsec_gcm_full_tag(const ibsec_gcm_key *gk, const uint8_t iv[12],
                       const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
                       uint8_t *ghash_in, uint8_t s[16], uint8_t full_tag[16])
{
    uint8_t beat[IBSEC_MAX_LANES * 16];
    uint8_t y[16] = { 0 };
    uint8_t j0[16], ek_j0[16];

    if (!common_args_ok(gk, iv, aad, aad_len, ct, len) || full_tag == NULL)
        return -1;

    size_t n = ibsec_gcm_ghash_input_blocks(aad_len, len);
    size_t lanes = (size_t)gk->hp.lanes;
    for (size_t i = 0; i < n; i += lanes) {               /* one RTL beat per step */
        size_t k = n - i < lanes ? n - i : lanes;
        for (size_t j = 0; j < k; j++)
            ghash_input_block(aad, aad_len, ct, len, i + j, beat + 16 * j);
        ibsec_ghash_fold_beat(y, &gk->hp, beat, (int)k);
    }
    if (ghash_in != NULL)
        ibsec_gcm_ghash_input(aad, aad_len, ct, len, ghash_in);
    if (s != NULL)
        memcpy(s, y, 16);

    ibsec_gcm_counter_block(iv, 1, j0);                   /* §7.1 step 2: J0 = IV || 0^31 || 1 */
    ibsec_aes_encrypt_block(&gk->aes, j0, ek_j0);
    for (int i = 0; i < 16; i++)                          /* §7.1 step 6: T = E(K, J0) ^ S */
        full_tag[i] = (uint8_t)(ek_j0[i] ^ y[i]);
    return 0;
}

/* SP 800-38D §7.1 Algorithm 4 GCM-AE_K(IV, P, A) with a 96-bit IV. */
int ibsec_gcm_seal(const ibsec_gcm_key *gk, const uint8_t iv[12],
                   const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t len,
                   uint8_t *ct, uint8_t *tag, size_t tag_len)
{
    uint8_t full[16];

    if (!common_args_ok(gk, iv, aad, aad_len, pt, len) || (ct == NULL && len != 0) ||
        tag == NULL || !tag_len_ok(tag_len))
        return -1;
    gctr(gk, iv, pt, len, ct);                                  /* §7.1 step 3 */
    if (ibsec_gcm_full_tag(gk, iv, aad, aad_len, ct, len, NULL, NULL, full) != 0)
        return -1;                                              /* unreachable: args checked */
    memcpy(tag, full, tag_len);                                 /* MSB_t */
    return 0;
}

/* 1 when the first n bytes of a and b are equal, 0 otherwise; every byte is examined and
 * the verdict is formed without a branch on the data. */
static int tags_equal_ct(const uint8_t *a, const uint8_t *b, size_t n)
{
    unsigned diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return (int)(1u & ((diff - 1u) >> 8)); /* diff in 0..255: 1 iff diff == 0 */
}

/* SP 800-38D §7.2 Algorithm 5 GCM-AD_K(IV, C, A, T), verdict before decryption. */
int ibsec_gcm_open(const ibsec_gcm_key *gk, const uint8_t iv[12],
                   const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
                   const uint8_t *tag, size_t tag_len, uint8_t *pt)
{
    uint8_t full[16];

    if (!common_args_ok(gk, iv, aad, aad_len, ct, len) || (pt == NULL && len != 0) ||
        tag == NULL || !tag_len_ok(tag_len) ||
        ibsec_gcm_full_tag(gk, iv, aad, aad_len, ct, len, NULL, NULL, full) != 0 ||
        !tags_equal_ct(full, tag, tag_len)) {                   /* §7.2 steps 6-8 */
        if (pt != NULL && len != 0)
            memset(pt, 0, len);
        return -1;
    }
    gctr(gk, iv, ct, len, pt);                                  /* §7.2 step 4, after the verdict */
    return 0;
}
