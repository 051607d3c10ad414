/*
 * keydist.c — Lee & Kim §5.1.3-5.1.5 key distribution and the derived keys of a
 * connection (keydist.h explains the hierarchy and the choices).
 */
#include "keydist.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

const char *kd_err_name(enum kd_err e)
{
    static const char *const names[KD_ERR_COUNT] = {
        "ok", "auth", "wrong_kind", "wrong_target", "no_sm_sk", "full", "bad_len", "crypto",
        "stale",
    };
    return (unsigned)e < KD_ERR_COUNT ? names[e] : "?";
}

static unsigned g_fail_random, g_fail_hmac;   /* kd_fault_inject countdowns */

void kd_fault_inject(unsigned random_nth, unsigned hmac_nth)
{
    g_fail_random = random_nth;
    g_fail_hmac = hmac_nth;
}

int kd_random(uint8_t *out, size_t n)
{
    if (g_fail_random != 0 && --g_fail_random == 0)
        return -1;
    return RAND_bytes(out, (int)n) == 1 ? 0 : -1;
}

int kd_hmac(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t n, uint8_t out[32])
{
    unsigned int olen = 32;

    memset(out, 0, 32);
    if (g_fail_hmac != 0 && --g_fail_hmac == 0)
        return -1;
    if (HMAC(EVP_sha256(), key, (int)key_len, msg, n, out, &olen) == NULL || olen != 32) {
        OPENSSL_cleanse(out, 32);
        return -1;
    }
    return 0;
}

static void put_be64(uint8_t *b, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        b[i] = (uint8_t)v;
}

/* ---- AES-256-GCM blobs ------------------------------------------------------------ */

/* Additional data of a blob: "ibsec kd" || kind || to_guid || peer_guid || pkey ||
 * version (big-endian). */
#define KD_AAD_LEN 31u
static void blob_aad(const kd_blob *b, uint8_t aad[KD_AAD_LEN])
{
    memcpy(aad, "ibsec kd", 8);
    aad[8] = b->kind;
    put_be64(aad + 9, b->to_guid);
    put_be64(aad + 17, b->peer_guid);
    aad[25] = (uint8_t)(b->pkey >> 8);
    aad[26] = (uint8_t)b->pkey;
    aad[27] = (uint8_t)(b->version >> 24);
    aad[28] = (uint8_t)(b->version >> 16);
    aad[29] = (uint8_t)(b->version >> 8);
    aad[30] = (uint8_t)b->version;
}

/* One AES-256-GCM operation (enc = 1 seal, 0 open) on 32 bytes. */
static enum kd_err gcm_key_op(int enc, const uint8_t kek[KD_KEY_LEN], const uint8_t iv[KD_GCM_IV_LEN],
                              const uint8_t *aad, size_t aad_len, const uint8_t *in,
                              uint8_t *out, uint8_t tag[KD_GCM_TAG_LEN])
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    enum kd_err r = KD_ERR_CRYPTO;
    int n = 0;

    if (c == NULL)
        return KD_ERR_CRYPTO;
    if (EVP_CipherInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL, enc) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, KD_GCM_IV_LEN, NULL) != 1 ||
        EVP_CipherInit_ex(c, NULL, NULL, kek, iv, enc) != 1 ||
        EVP_CipherUpdate(c, NULL, &n, aad, (int)aad_len) != 1 ||
        EVP_CipherUpdate(c, out, &n, in, KD_KEY_LEN) != 1)
        goto done;
    if (!enc && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, KD_GCM_TAG_LEN, tag) != 1)
        goto done;
    if (EVP_CipherFinal_ex(c, out + n, &n) != 1) {
        r = enc ? KD_ERR_CRYPTO : KD_ERR_AUTH;
        goto done;
    }
    if (enc && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, KD_GCM_TAG_LEN, tag) != 1)
        goto done;
    r = KD_OK;
done:
    EVP_CIPHER_CTX_free(c);
    if (r != KD_OK && !enc)
        OPENSSL_cleanse(out, KD_KEY_LEN);
    return r;
}

enum kd_err kd_blob_seal(const uint8_t kek[KD_KEY_LEN], const uint8_t key[KD_KEY_LEN], kd_blob *b)
{
    uint8_t aad[KD_AAD_LEN];

    if (kd_random(b->sealed, KD_GCM_IV_LEN) != 0)
        return KD_ERR_CRYPTO;
    blob_aad(b, aad);
    return gcm_key_op(1, kek, b->sealed, aad, sizeof aad, key, b->sealed + KD_GCM_IV_LEN,
                      b->sealed + KD_GCM_IV_LEN + KD_KEY_LEN);
}

enum kd_err kd_blob_open(const uint8_t kek[KD_KEY_LEN], const kd_blob *b, uint8_t key[KD_KEY_LEN])
{
    uint8_t aad[KD_AAD_LEN], tag[KD_GCM_TAG_LEN];

    blob_aad(b, aad);
    memcpy(tag, b->sealed + KD_GCM_IV_LEN + KD_KEY_LEN, KD_GCM_TAG_LEN);
    return gcm_key_op(0, kek, b->sealed, aad, sizeof aad, b->sealed + KD_GCM_IV_LEN, key, tag);
}

/* ---- SM --------------------------------------------------------------------------- */

int kd_sm_add_ca(kd_sm *sm, uint64_t guid, const uint8_t ca_sk[KD_KEY_LEN])
{
    if (sm->n_ca >= KD_MAX_PEERS)
        return -1;
    sm->ca_guid[sm->n_ca] = guid;
    memcpy(sm->ca_sk[sm->n_ca], ca_sk, KD_KEY_LEN);
    sm->n_ca++;
    return 0;
}

static const uint8_t *sm_ca_sk(const kd_sm *sm, uint64_t guid)
{
    for (unsigned i = 0; i < sm->n_ca; i++)
        if (sm->ca_guid[i] == guid)
            return sm->ca_sk[i];
    return NULL;
}

static void blob_init(kd_blob *b, enum kd_kind kind, uint64_t to, uint64_t peer, uint16_t pkey)
{
    memset(b, 0, sizeof *b);
    b->kind = (uint8_t)kind;
    b->to_guid = to;
    b->peer_guid = peer;
    b->pkey = (uint16_t)(pkey & 0x7FFF);
}

enum kd_err kd_sm_issue_sm_sk(const kd_sm *sm, uint64_t guid, kd_blob *out)
{
    const uint8_t *ca_sk = sm_ca_sk(sm, guid);

    if (ca_sk == NULL)
        return KD_ERR_WRONG_TARGET;
    blob_init(out, KD_KIND_SM_SK, guid, 0, 0);
    out->version = sm->sm_sk_version;
    return kd_blob_seal(ca_sk, sm->sm_sk, out);
}

enum kd_err kd_sm_issue_p_sk(const kd_sm *sm, uint16_t pkey, const uint8_t p_sk[KD_KEY_LEN],
                             kd_blob *out)
{
    blob_init(out, KD_KIND_P_SK, 0, 0, pkey);
    return kd_blob_seal(sm->sm_sk, p_sk, out);
}

enum kd_err kd_sm_export_p_sk(const kd_sm *sm, uint16_t pkey, const uint8_t p_sk[KD_KEY_LEN],
                              kd_blob *out)
{
    blob_init(out, KD_KIND_P_SK_SSM, 0, 0, pkey);
    return kd_blob_seal(sm->ssm_sk, p_sk, out);
}

enum kd_err kd_sm_import_p_sk(const kd_sm *sm, const kd_blob *in, uint8_t p_sk[KD_KEY_LEN])
{
    if (in->kind != KD_KIND_P_SK_SSM)
        return KD_ERR_WRONG_KIND;
    return kd_blob_open(sm->ssm_sk, in, p_sk);
}

enum kd_err kd_sm_issue_pair(const kd_sm *sm, uint64_t guid_i, uint64_t guid_j,
                             const uint8_t pair_key[KD_KEY_LEN], kd_blob *out)
{
    const uint8_t *ca_sk = sm_ca_sk(sm, guid_i);

    if (ca_sk == NULL)
        return KD_ERR_WRONG_TARGET;
    blob_init(out, KD_KIND_PAIR, guid_i, guid_j, 0);
    return kd_blob_seal(ca_sk, pair_key, out);
}

/* ---- CA --------------------------------------------------------------------------- */

void kd_ca_init(kd_ca *ca, uint64_t guid, const uint8_t ca_sk[KD_KEY_LEN])
{
    memset(ca, 0, sizeof *ca);
    ca->guid = guid;
    memcpy(ca->ca_sk, ca_sk, KD_KEY_LEN);
}

enum kd_err kd_ca_accept_sm_sk(kd_ca *ca, const kd_blob *b)
{
    uint8_t key[KD_KEY_LEN];
    enum kd_err r;

    if (b->kind != KD_KIND_SM_SK)
        return KD_ERR_WRONG_KIND;
    if (b->to_guid != ca->guid)
        return KD_ERR_WRONG_TARGET;
    r = kd_blob_open(ca->ca_sk, b, key);
    if (r == KD_OK && ca->have_sm_sk && b->version <= ca->sm_sk_version)
        r = KD_ERR_STALE;
    if (r == KD_OK) {
        memcpy(ca->sm_sk, key, KD_KEY_LEN);
        ca->sm_sk_version = b->version;
        ca->have_sm_sk = true;
    }
    OPENSSL_cleanse(key, sizeof key);
    return r;
}

enum kd_err kd_ca_accept_p_sk(kd_ca *ca, const kd_blob *b)
{
    uint8_t key[KD_KEY_LEN];
    unsigned i;
    enum kd_err r;

    if (b->kind != KD_KIND_P_SK)
        return KD_ERR_WRONG_KIND;
    if (!ca->have_sm_sk)
        return KD_ERR_NO_SM_SK;
    r = kd_blob_open(ca->sm_sk, b, key);
    if (r != KD_OK)
        return r;
    for (i = 0; i < ca->n_pkeys && ca->pkey[i] != b->pkey; i++)
        ;
    if (i == KD_MAX_PKEYS) {
        OPENSSL_cleanse(key, sizeof key);
        return KD_ERR_FULL;
    }
    ca->pkey[i] = b->pkey;
    memcpy(ca->p_sk[i], key, KD_KEY_LEN);
    if (i == ca->n_pkeys)
        ca->n_pkeys++;
    OPENSSL_cleanse(key, sizeof key);
    return KD_OK;
}

enum kd_err kd_ca_accept_pair(kd_ca *ca, const kd_blob *b)
{
    uint8_t key[KD_KEY_LEN];
    unsigned i;
    enum kd_err r;

    if (b->kind != KD_KIND_PAIR)
        return KD_ERR_WRONG_KIND;
    if (b->to_guid != ca->guid)
        return KD_ERR_WRONG_TARGET;
    r = kd_blob_open(ca->ca_sk, b, key);
    if (r != KD_OK)
        return r;
    for (i = 0; i < ca->n_peers && ca->peer_guid[i] != b->peer_guid; i++)
        ;
    if (i == KD_MAX_PEERS) {
        OPENSSL_cleanse(key, sizeof key);
        return KD_ERR_FULL;
    }
    ca->peer_guid[i] = b->peer_guid;
    memcpy(ca->pair_key[i], key, KD_KEY_LEN);
    if (i == ca->n_peers)
        ca->n_peers++;
    OPENSSL_cleanse(key, sizeof key);
    return KD_OK;
}

const uint8_t *kd_ca_pair_key(const kd_ca *ca, uint64_t peer)
{
    for (unsigned i = 0; i < ca->n_peers; i++)
        if (ca->peer_guid[i] == peer)
            return ca->pair_key[i];
    return NULL;
}

const uint8_t *kd_ca_p_sk(const kd_ca *ca, uint16_t pkey)
{
    for (unsigned i = 0; i < ca->n_pkeys; i++)
        if (ca->pkey[i] == (pkey & 0x7FFF))
            return ca->p_sk[i];
    return NULL;
}

/* ---- derived keys ----------------------------------------------------------------- */

/* PRF(key, label || data), 32 bytes; 0, or -1 with out zeroed. */
static int prf(const uint8_t *key, size_t key_len, const char *label, const uint8_t *data,
               size_t data_len, uint8_t out[32])
{
    uint8_t msg[64];
    size_t ll = strlen(label);
    int rc;

    memcpy(msg, label, ll);
    if (data_len > 0)
        memcpy(msg + ll, data, data_len);
    rc = kd_hmac(key, key_len, msg, ll + data_len, out);
    OPENSSL_cleanse(msg, sizeof msg);
    return rc;
}

int kd_pair_auth_key(const uint8_t pair_key[KD_KEY_LEN], uint8_t out[KD_KEY_LEN])
{
    return prf(pair_key, KD_KEY_LEN, "ibsec cm auth", NULL, 0, out);
}

int kd_pair_wrap_key(const uint8_t pair_key[KD_KEY_LEN], uint8_t out[KD_KEY_LEN])
{
    return prf(pair_key, KD_KEY_LEN, "ibsec cm wrap", NULL, 0, out);
}

int kd_agreed_random(const uint8_t auth_key[KD_KEY_LEN], const uint8_t n_i[KD_NONCE_LEN],
                     const uint8_t n_r[KD_NONCE_LEN], uint8_t r[KD_RANDOM_LEN])
{
    uint8_t d[2 * KD_NONCE_LEN], out[32];
    int rc;

    memcpy(d, n_i, KD_NONCE_LEN);
    memcpy(d + KD_NONCE_LEN, n_r, KD_NONCE_LEN);
    rc = prf(auth_key, KD_KEY_LEN, "ibsec random", d, sizeof d, out);
    memcpy(r, out, KD_RANDOM_LEN);
    OPENSSL_cleanse(out, sizeof out);
    OPENSSL_cleanse(d, sizeof d);
    return rc;
}

void kd_conn_salt(const uint8_t r[KD_RANDOM_LEN], uint8_t salt[4])
{
    memcpy(salt, r, 4);
}

int kd_qkey_key(const uint8_t *sk, size_t sk_len, uint32_t qkey, uint32_t qpn,
                uint8_t *out, size_t key_len)
{
    uint8_t d[7], o[32];
    int rc;

    d[0] = (uint8_t)(qkey >> 24); d[1] = (uint8_t)(qkey >> 16);
    d[2] = (uint8_t)(qkey >> 8);  d[3] = (uint8_t)qkey;
    d[4] = (uint8_t)(qpn >> 16);  d[5] = (uint8_t)(qpn >> 8); d[6] = (uint8_t)qpn;
    rc = prf(sk, sk_len, "ibsec qkey", d, sizeof d, o);
    memcpy(out, o, key_len);
    OPENSSL_cleanse(o, sizeof o);
    return rc;
}

int kd_pkey_conn_key(const uint8_t p_sk[KD_KEY_LEN], uint16_t pkey,
                     const uint8_t r[KD_RANDOM_LEN], uint8_t *out, size_t key_len)
{
    uint8_t d[2 + KD_RANDOM_LEN], o[32];
    int rc;

    d[0] = (uint8_t)((pkey >> 8) & 0x7F);
    d[1] = (uint8_t)pkey;
    memcpy(d + 2, r, KD_RANDOM_LEN);
    rc = prf(p_sk, KD_KEY_LEN, "ibsec pkey", d, sizeof d, o);
    memcpy(out, o, key_len);
    OPENSSL_cleanse(o, sizeof o);
    OPENSSL_cleanse(d, sizeof d);
    return rc;
}

/* ---- RFC 3394 --------------------------------------------------------------------- */

static enum kd_err kw_op(int enc, const uint8_t kek[KD_KEY_LEN], const uint8_t *in, size_t in_len,
                         uint8_t *out, size_t *out_len)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    enum kd_err r = KD_ERR_CRYPTO;
    int n = 0, m = 0;

    if (c == NULL)
        return KD_ERR_CRYPTO;
    EVP_CIPHER_CTX_set_flags(c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    if (EVP_CipherInit_ex(c, EVP_aes_256_wrap(), NULL, kek, NULL, enc) != 1)
        goto done;
    if (EVP_CipherUpdate(c, out, &n, in, (int)in_len) != 1 || n <= 0) {
        r = enc ? KD_ERR_CRYPTO : KD_ERR_AUTH;
        goto done;
    }
    if (EVP_CipherFinal_ex(c, out + n, &m) != 1) {
        r = enc ? KD_ERR_CRYPTO : KD_ERR_AUTH;
        goto done;
    }
    *out_len = (size_t)(n + m);
    r = KD_OK;
done:
    EVP_CIPHER_CTX_free(c);
    return r;
}

enum kd_err kd_key_wrap(const uint8_t kek[KD_KEY_LEN], const uint8_t *key, size_t key_len,
                        uint8_t *out)
{
    size_t n = 0;
    enum kd_err r;

    if (key_len != 16 && key_len != 32)
        return KD_ERR_BAD_LEN;
    r = kw_op(1, kek, key, key_len, out, &n);
    return r == KD_OK && n != key_len + KD_KW_OVERHEAD ? KD_ERR_CRYPTO : r;
}

enum kd_err kd_key_unwrap(const uint8_t kek[KD_KEY_LEN], const uint8_t *in, size_t key_len,
                          uint8_t *key)
{
    uint8_t tmp[KD_KW_MAX];
    size_t n = 0;
    enum kd_err r;

    if (key_len != 16 && key_len != 32)
        return KD_ERR_BAD_LEN;
    r = kw_op(0, kek, in, key_len + KD_KW_OVERHEAD, tmp, &n);
    if (r == KD_OK && n != key_len)
        r = KD_ERR_AUTH;
    if (r == KD_OK)
        memcpy(key, tmp, key_len);
    OPENSSL_cleanse(tmp, sizeof tmp);
    return r;
}
