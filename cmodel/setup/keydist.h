/*
 * keydist.h — the key hierarchy of Lee & Kim §5.1.3-5.1.5 and the keys a
 * connection derives from it, all through OpenSSL's libcrypto.
 *
 *   CA_SK_i     per CA, from its manufacturer (tamper-resistant store)    §5.1.3
 *   SM_SK       per subnet; the SM sends E_{CA_SK_i}(SM_SK) to each CA     §5.1.3
 *   SSM_SK      shared by the SMs of all subnets                          §5.1.3
 *   P_SK        per partition; E_{SM_SK}(P_SK) to every CA, and            §5.1.4
 *               E_{SSM_SK}(P_SK) from one SM to the others
 *   CA_SK_ij    per pair of CAs (= CA_SK_ji); the SM sends it to CA i      §5.1.5
 *               under CA_SK_i
 *   SK          per connection, made by the initiator, carried in the REQ  §5.1.5
 *               PrivateData under CA_SK_ij (and SK_r in the REP for
 *               datagram QPs, bound to the Q_Key)
 *
 * "E" is never a bare block cipher.  Keys the SM sends are sealed with AES-256-GCM:
 * a fresh 96-bit IV, the key as plaintext, and as additional data a label naming
 * the key's kind and the identities it belongs to, so a wrapped SM_SK cannot be
 * replayed as a P_SK or delivered to another CA (kd_blob below, 60 bytes).  The
 * session key in the CM PrivateData, where space is short (REQ: 92 bytes), is
 * wrapped with AES key wrap (RFC 3394) under a key derived from CA_SK_ij; the
 * HMAC of secm.h covers the wrapped bytes and the whole MAD around them.
 *
 * Derived keys use HMAC-SHA-256 as a PRF with a distinct label per use (key
 * separation): the pair key is never used directly, only kd_pair_auth_key (the
 * SECM HMAC key) and kd_pair_wrap_key (the key-wrap KEK) are.
 *
 * The random number of Lee & Kim §6.1: both ends contribute a 128-bit nonce to
 * the setup (N_i in the REQ, N_r in the REP); R = PRF(auth key, N_i || N_r) is
 * agreed without being sent.  A context whose key is shared (a partition key)
 * gets its engine key from PRF(P_SK, P_Key || R) and its salt from R, so two
 * connections of one partition never share a (key, IV) pair unless two 128-bit R
 * collide — the probability §6.1 computes.
 */
#ifndef IBSEC_KEYDIST_H
#define IBSEC_KEYDIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KD_KEY_LEN        32u   /* every hierarchy key is 256 bits */
#define KD_GCM_IV_LEN     12u
#define KD_GCM_TAG_LEN    16u
#define KD_BLOB_LEN       (KD_GCM_IV_LEN + KD_KEY_LEN + KD_GCM_TAG_LEN)  /* 60 */
#define KD_NONCE_LEN      16u   /* N_i, N_r */
#define KD_RANDOM_LEN     16u   /* the §6.1 random number R */
#define KD_KW_OVERHEAD    8u    /* RFC 3394 integrity block */
#define KD_KW_MAX         (32u + KD_KW_OVERHEAD)
#define KD_MAX_PEERS      64u
#define KD_MAX_PKEYS      8u

/* What a key blob carries (bound into its additional data). */
enum kd_kind {
    KD_KIND_SM_SK = 1,     /* SM_SK under CA_SK_i */
    KD_KIND_P_SK = 2,      /* P_SK under SM_SK */
    KD_KIND_P_SK_SSM = 3,  /* P_SK under SSM_SK, SM to SM */
    KD_KIND_PAIR = 4       /* CA_SK_ij under CA_SK_i */
};

/* Named errors. */
enum kd_err {
    KD_OK = 0,
    KD_ERR_AUTH,           /* a GCM tag or an RFC 3394 integrity check failed */
    KD_ERR_WRONG_KIND,     /* the blob is not of the kind expected */
    KD_ERR_WRONG_TARGET,   /* the blob names another CA / P_Key */
    KD_ERR_NO_SM_SK,       /* the CA has not received SM_SK yet */
    KD_ERR_FULL,           /* no room for another pair key or partition key */
    KD_ERR_BAD_LEN,        /* key length other than 16 or 32 */
    KD_ERR_CRYPTO,         /* libcrypto failed */
    KD_ERR_STALE,          /* an SM_SK whose version is not above the one held */
    KD_ERR_COUNT
};
const char *kd_err_name(enum kd_err e);

/* A key sent by an SM: the kind, the identities it is for, the sealed key. */
typedef struct kd_blob {
    uint8_t  kind;         /* enum kd_kind */
    uint64_t to_guid;      /* receiving CA (SM_SK, PAIR), 0 otherwise */
    uint64_t peer_guid;    /* PAIR: the other CA j */
    uint16_t pkey;         /* P_SK: the partition (15 bits) */
    uint32_t version;      /* SM_SK: the SM's key version (kd_sm.sm_sk_version), else 0 */
    uint8_t  sealed[KD_BLOB_LEN];  /* IV || ciphertext || tag */
} kd_blob;

/* What one CA holds. */
typedef struct kd_ca {
    uint64_t guid;
    uint8_t  ca_sk[KD_KEY_LEN];
    bool     have_sm_sk;
    uint32_t sm_sk_version;        /* version of the SM_SK held */
    uint8_t  sm_sk[KD_KEY_LEN];
    unsigned n_peers;
    uint64_t peer_guid[KD_MAX_PEERS];
    uint8_t  pair_key[KD_MAX_PEERS][KD_KEY_LEN];
    unsigned n_pkeys;
    uint16_t pkey[KD_MAX_PKEYS];
    uint8_t  p_sk[KD_MAX_PKEYS][KD_KEY_LEN];
} kd_ca;

/* The subnet manager: its SM_SK, the SSM_SK, and (as the administrator's agent)
 * the CA_SK of every CA it serves. */
typedef struct kd_sm {
    uint8_t  sm_sk[KD_KEY_LEN];
    uint32_t sm_sk_version;        /* raised by the SM each time it changes sm_sk */
    uint8_t  ssm_sk[KD_KEY_LEN];
    unsigned n_ca;
    uint64_t ca_guid[KD_MAX_PEERS];
    uint8_t  ca_sk[KD_MAX_PEERS][KD_KEY_LEN];
} kd_sm;

/* ---- random bytes (RAND_bytes); 0 / -1 -------------------------------------------- */
int kd_random(uint8_t *out, size_t n);
/* HMAC-SHA-256 (HMAC()): 0, or -1 with out zeroed. */
int kd_hmac(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t n, uint8_t out[32]);
/* Test hook: make the n-th kd_random call from now fail (random_nth) and the n-th kd_hmac
 * call fail (hmac_nth); 0 leaves that one alone.  Each fires once. */
void kd_fault_inject(unsigned random_nth, unsigned hmac_nth);

/* ---- AES-256-GCM key blobs (Lee & Kim §5.1.3-5.1.5 "E_K(T)") ---------------------- */

/* Seal a 32-byte key under kek into b->sealed with a fresh IV; the additional
 * data is the blob's kind, to_guid, peer_guid, pkey and version. */
enum kd_err kd_blob_seal(const uint8_t kek[KD_KEY_LEN], const uint8_t key[KD_KEY_LEN], kd_blob *b);
/* Open a blob; KD_ERR_AUTH if it was not sealed under kek with these identities. */
enum kd_err kd_blob_open(const uint8_t kek[KD_KEY_LEN], const kd_blob *b, uint8_t key[KD_KEY_LEN]);

/* ---- the SM's side ---------------------------------------------------------------- */

/* Register a CA with the key its manufacturer gave (§5.1.3).  0 / -1 (full). */
int kd_sm_add_ca(kd_sm *sm, uint64_t guid, const uint8_t ca_sk[KD_KEY_LEN]);
/* E_{CA_SK_i}(SM_SK) for CA guid (§5.1.3 step 1). */
enum kd_err kd_sm_issue_sm_sk(const kd_sm *sm, uint64_t guid, kd_blob *out);
/* E_{SM_SK}(P_SK) for partition pkey (§5.1.4 step 1). */
enum kd_err kd_sm_issue_p_sk(const kd_sm *sm, uint16_t pkey, const uint8_t p_sk[KD_KEY_LEN],
                             kd_blob *out);
/* E_{SSM_SK}(P_SK) to another subnet's SM (§5.1.4, across subnets, step 1), and that
 * SM's import of it (step 2), after which it issues the P_SK under its own SM_SK. */
enum kd_err kd_sm_export_p_sk(const kd_sm *sm, uint16_t pkey, const uint8_t p_sk[KD_KEY_LEN],
                              kd_blob *out);
enum kd_err kd_sm_import_p_sk(const kd_sm *sm, const kd_blob *in, uint8_t p_sk[KD_KEY_LEN]);
/* E_{CA_SK_i}(CA_SK_ij) for CA i about its peer j (§5.1.5). */
enum kd_err kd_sm_issue_pair(const kd_sm *sm, uint64_t guid_i, uint64_t guid_j,
                             const uint8_t pair_key[KD_KEY_LEN], kd_blob *out);

/* ---- the CA's side ---------------------------------------------------------------- */

void kd_ca_init(kd_ca *ca, uint64_t guid, const uint8_t ca_sk[KD_KEY_LEN]);
/* D_{CA_SK_i}: accept SM_SK (§5.1.3 step 2).  The blob opens into a temporary and
 * replaces the SM_SK held only if it verifies and its version (in the additional data)
 * is above the held one's: a forged blob leaves the SM_SK as it was (KD_ERR_AUTH), an
 * older one is refused (KD_ERR_STALE). */
enum kd_err kd_ca_accept_sm_sk(kd_ca *ca, const kd_blob *b);
/* D_{SM_SK}: accept a P_SK (§5.1.4 step 2). */
enum kd_err kd_ca_accept_p_sk(kd_ca *ca, const kd_blob *b);
/* D_{CA_SK_i}: accept CA_SK_ij (§5.1.5). */
enum kd_err kd_ca_accept_pair(kd_ca *ca, const kd_blob *b);
/* The pair key with peer, or NULL. */
const uint8_t *kd_ca_pair_key(const kd_ca *ca, uint64_t peer);
/* The P_SK of a partition (P_Key bits 14:0), or NULL. */
const uint8_t *kd_ca_p_sk(const kd_ca *ca, uint16_t pkey);

/* ---- derived keys (HMAC-SHA-256 as a PRF, one label per use) ---------------------- */

/* Each derivation returns 0, or -1 with its output zeroed if libcrypto failed. */
/* The SECM HMAC key of a pair: PRF(CA_SK_ij, "ibsec cm auth"). */
int  kd_pair_auth_key(const uint8_t pair_key[KD_KEY_LEN], uint8_t out[KD_KEY_LEN]);
/* The key-wrap KEK of a pair: PRF(CA_SK_ij, "ibsec cm wrap"). */
int  kd_pair_wrap_key(const uint8_t pair_key[KD_KEY_LEN], uint8_t out[KD_KEY_LEN]);
/* Lee & Kim §6.1: R = PRF(auth key, "ibsec random" || N_i || N_r), first 16 bytes. */
int  kd_agreed_random(const uint8_t auth_key[KD_KEY_LEN], const uint8_t n_i[KD_NONCE_LEN],
                      const uint8_t n_r[KD_NONCE_LEN], uint8_t r[KD_RANDOM_LEN]);
/* The engine salt of a connection: R bytes 0..3 (docs/wire-format.md §5). */
void kd_conn_salt(const uint8_t r[KD_RANDOM_LEN], uint8_t salt[4]);
/* A datagram QP's key bound to its Q_Key (Lee & Kim §5.1.5, datagram case):
 * PRF(SK, "ibsec qkey" || Q_Key || QPN), key_len bytes (16 or 32). */
int  kd_qkey_key(const uint8_t *sk, size_t sk_len, uint32_t qkey, uint32_t qpn,
                 uint8_t *out, size_t key_len);
/* A partition-level context key for one connection: PRF(P_SK, "ibsec pkey" ||
 * P_Key || R), key_len bytes. */
int  kd_pkey_conn_key(const uint8_t p_sk[KD_KEY_LEN], uint16_t pkey,
                      const uint8_t r[KD_RANDOM_LEN], uint8_t *out, size_t key_len);

/* ---- RFC 3394 key wrap of a session key under a 256-bit KEK ----------------------- */

/* Wrap a 16- or 32-byte key: key_len + 8 bytes into out.  KD_OK or an error. */
enum kd_err kd_key_wrap(const uint8_t kek[KD_KEY_LEN], const uint8_t *key, size_t key_len,
                        uint8_t *out);
/* Unwrap key_len + 8 bytes; KD_ERR_AUTH if the integrity check fails. */
enum kd_err kd_key_unwrap(const uint8_t kek[KD_KEY_LEN], const uint8_t *in, size_t key_len,
                          uint8_t *key);

#endif /* IBSEC_KEYDIST_H */
