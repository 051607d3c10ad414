/*
 * ossl_gcm.h — OpenSSL libcrypto (EVP) as the independent AES / AES-GCM reference of the
 * crypto tests (test_gcm_kat.c, test_gcm_openssl.c, test_gcmvec.c). Nothing here is
 * ibsec code: it only drives EVP_aes_{128,256}_{ecb,gcm}.
 *
 * Header-only (static inline), one EVP_CIPHER_CTX supplied by the caller so that a loop
 * of many messages does not allocate per message. All functions return 0 on success and
 * -1 on an EVP error, except ossl_gcm_open, which tells accept / reject / error apart.
 */
#ifndef IBSEC_OSSL_GCM_H
#define IBSEC_OSSL_GCM_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

static inline const EVP_CIPHER *ossl_gcm_cipher(size_t key_len)
{
    return key_len == 16 ? EVP_aes_128_gcm() : key_len == 32 ? EVP_aes_256_gcm() : NULL;
}

/* AES_K(in), one block, through EVP ECB without padding. */
static inline int ossl_aes_block(EVP_CIPHER_CTX *ctx, const uint8_t *key, size_t key_len,
                                 const uint8_t in[16], uint8_t out[16])
{
    const EVP_CIPHER *ciph = key_len == 16 ? EVP_aes_128_ecb() : key_len == 32 ? EVP_aes_256_ecb() : NULL;
    int outl = 0;
    if (ciph == NULL || EVP_EncryptInit_ex(ctx, ciph, NULL, key, NULL) != 1 ||
        EVP_CIPHER_CTX_set_padding(ctx, 0) != 1 ||
        EVP_EncryptUpdate(ctx, out, &outl, in, 16) != 1 || outl != 16)
        return -1;
    return 0;
}

/* AES-GCM encryption with a 12-byte IV; tag receives tag_len (1..16) bytes. */
static inline int ossl_gcm_seal(EVP_CIPHER_CTX *ctx, const uint8_t *key, size_t key_len,
                                const uint8_t iv[12], const uint8_t *aad, size_t aad_len,
                                const uint8_t *pt, size_t len, uint8_t *ct,
                                uint8_t *tag, size_t tag_len)
{
    const EVP_CIPHER *ciph = ossl_gcm_cipher(key_len);
    uint8_t fin[16];
    int outl = 0;
    if (ciph == NULL || EVP_EncryptInit_ex(ctx, ciph, NULL, key, iv) != 1)
        return -1;
    if (aad_len && EVP_EncryptUpdate(ctx, NULL, &outl, aad, (int)aad_len) != 1)
        return -1;
    if (len && (EVP_EncryptUpdate(ctx, ct, &outl, pt, (int)len) != 1 || (size_t)outl != len))
        return -1;
    if (EVP_EncryptFinal_ex(ctx, fin, &outl) != 1 || outl != 0)
        return -1;
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, (int)tag_len, tag) != 1)
        return -1;
    return 0;
}

/* AES-GCM decryption and verification: 1 accepted (pt written), 0 rejected by the tag
 * check, -1 EVP error (including a tag length EVP refuses). */
static inline int ossl_gcm_open(EVP_CIPHER_CTX *ctx, const uint8_t *key, size_t key_len,
                                const uint8_t iv[12], const uint8_t *aad, size_t aad_len,
                                const uint8_t *ct, size_t len, const uint8_t *tag,
                                size_t tag_len, uint8_t *pt)
{
    const EVP_CIPHER *ciph = ossl_gcm_cipher(key_len);
    uint8_t tagbuf[16], fin[16];
    int outl = 0;
    if (ciph == NULL || tag_len == 0 || tag_len > 16 ||
        EVP_DecryptInit_ex(ctx, ciph, NULL, key, iv) != 1)
        return -1;
    for (size_t i = 0; i < tag_len; i++)
        tagbuf[i] = tag[i];
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, (int)tag_len, tagbuf) != 1)
        return -1;
    if (aad_len && EVP_DecryptUpdate(ctx, NULL, &outl, aad, (int)aad_len) != 1)
        return -1;
    if (len && (EVP_DecryptUpdate(ctx, pt, &outl, ct, (int)len) != 1 || (size_t)outl != len))
        return -1;
    return EVP_DecryptFinal_ex(ctx, fin, &outl) == 1 ? 1 : 0;
}

#endif
