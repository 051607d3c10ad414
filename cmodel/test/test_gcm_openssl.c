/*
 * test_gcm_openssl.c — randomized cross-check of the model's AES-GCM (gcm.c) against
 * OpenSSL libcrypto (EVP_aes_128_gcm / EVP_aes_256_gcm), the independent reference.
 *
 * Usage: test_gcm_openssl [--seed N] [--cases N]      (defaults: seed 1, 100000 cases)
 *
 * Each case draws a fresh key, IV, AAD and plaintext from ibsec_rng (so a seed names the
 * same cases everywhere) and checks, each as a counted check:
 *   1. model seal succeeds and gives OpenSSL's ciphertext and tag (SP 800-38D §7.1);
 *   2. model open of the model's output succeeds and returns the plaintext (§7.2);
 *   3. OpenSSL accepts the model's output and returns the plaintext;
 *   4. three forgeries, each a single random bit flip in the tag, in the ciphertext
 *      (when there is one) and in the AAD (when there is some), are rejected by the
 *      model's open with the plaintext buffer zeroed, and rejected by OpenSSL too (so
 *      the forgery itself is known to be one);
 *   5. in one case in IN_PLACE_EVERY, the same in one buffer (gcm.h allows pt == ct):
 *      seal in place gives the same ciphertext and tag, open in place the plaintext,
 *      and a failed open in place zeroes the buffer.
 *
 * The case parameters follow a fixed schedule of the case index i, so that a run of the
 * default size is known to cover every combination the model must handle:
 *   - GHASH width LANES = 1, 4, 12 by i mod 3; key size AES-128 / AES-256 by (i / 3) mod 2;
 *   - tag length 4..16 bytes by i mod 13 (13 is coprime with 6: every tag length meets
 *     every width and key size);
 *   - data length: 24 cases in 25 sweep 0..64 bytes in turn (every length, each more
 *     than a thousand times by default: both sides of every block boundary up to four
 *     blocks); the 25th is uniform in 0..4200 (an InfiniBand 4096-byte MTU plus
 *     headers; 4000 such messages by default);
 *   - AAD length uniform in 0..100, forced empty in every 16th case.
 * The short-message majority keeps the run to about 12 s of CPU time: the model is a
 * bit-serial reference, some 6 MB/s (see ibsec_bench_gcm), and each case runs GHASH over
 * the message five times (seal, open, three forgeries).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gcm.h"
#include "ossl_gcm.h"
#include "rng.h"

#define MAX_DATA      4200 /* longest random message, bytes */
#define SWEEP_MAX     64   /* every data length 0..SWEEP_MAX is swept */
#define MAX_AAD       100
#define LONG_EVERY    25   /* one case in LONG_EVERY has a random length up to MAX_DATA */
#define EMPTY_AAD_EVERY 16
#define IN_PLACE_EVERY 8

static const int lanes_list[3] = { 1, 4, 12 };

static check_ctx C;
static EVP_CIPHER_CTX *ossl;

/* One message and everything derived from it. */
typedef struct {
    uint8_t key[32];
    size_t key_len;
    int lanes;
    uint8_t iv[IBSEC_GCM_IV_LEN];
    uint8_t aad[MAX_AAD];
    size_t aad_len;
    uint8_t pt[MAX_DATA];
    size_t len;
    size_t tag_len;
    uint8_t ct[MAX_DATA];          /* the model's ciphertext */
    uint8_t tag[IBSEC_GCM_TAG_MAX]; /* the model's tag */
} gcm_case;

/* The schedule described in the header comment, then the random contents. */
static void draw_case(ibsec_rng *r, unsigned long i, gcm_case *c)
{
    c->lanes = lanes_list[i % 3];
    c->key_len = (i / 3) % 2 ? 32 : 16;
    c->tag_len = IBSEC_GCM_TAG_MIN + i % (IBSEC_GCM_TAG_MAX - IBSEC_GCM_TAG_MIN + 1);
    if (i % LONG_EVERY == LONG_EVERY - 1)
        c->len = ibsec_rng_below(r, MAX_DATA + 1);
    else
        c->len = (i / LONG_EVERY * (LONG_EVERY - 1) + i % LONG_EVERY) % (SWEEP_MAX + 1);
    c->aad_len = i % EMPTY_AAD_EVERY == 0 ? 0 : ibsec_rng_below(r, MAX_AAD + 1);
    ibsec_rng_bytes(r, c->key, c->key_len);
    ibsec_rng_bytes(r, c->iv, sizeof(c->iv));
    ibsec_rng_bytes(r, c->aad, c->aad_len);
    ibsec_rng_bytes(r, c->pt, c->len);
}

/* Describes a case for failure messages. */
static const char *case_name(unsigned long i, const gcm_case *c, const char *what)
{
    static char buf[160];
    snprintf(buf, sizeof(buf), "case %lu (AES-%zu LANES %d len %zu aad %zu tag %zu): %s",
             i, c->key_len * 8, c->lanes, c->len, c->aad_len, c->tag_len, what);
    return buf;
}

/* Check 1: the model seals, and agrees with OpenSSL. Returns 1 when the case can go on. */
static int check_seal(unsigned long i, gcm_case *c, const ibsec_gcm_key *gk)
{
    uint8_t ref_ct[MAX_DATA], ref_tag[IBSEC_GCM_TAG_MAX];

    int model_rc = ibsec_gcm_seal(gk, c->iv, c->aad, c->aad_len, c->pt, c->len,
                                  c->ct, c->tag, c->tag_len);
    if (!check_int(&C, case_name(i, c, "model seal return"), 0, model_rc))
        return 0;
    int ref_rc = ossl_gcm_seal(ossl, c->key, c->key_len, c->iv, c->aad, c->aad_len,
                               c->pt, c->len, ref_ct, ref_tag, c->tag_len);
    if (!check_int(&C, case_name(i, c, "OpenSSL seal return"), 0, ref_rc))
        return 0;
    int ok = check_bytes(&C, case_name(i, c, "ciphertext vs OpenSSL"), ref_ct, c->ct, c->len);
    ok &= check_bytes(&C, case_name(i, c, "tag vs OpenSSL"), ref_tag, c->tag, c->tag_len);
    return ok;
}

/* Checks 2 and 3: both the model and OpenSSL open the model's output. */
static void check_open(unsigned long i, const gcm_case *c, const ibsec_gcm_key *gk)
{
    uint8_t out[MAX_DATA];

    memset(out, 0xa5, c->len);
    int rc = ibsec_gcm_open(gk, c->iv, c->aad, c->aad_len, c->ct, c->len, c->tag, c->tag_len, out);
    if (check_int(&C, case_name(i, c, "model open of its own output"), 0, rc))
        check_bytes(&C, case_name(i, c, "model open plaintext"), c->pt, out, c->len);

    memset(out, 0xa5, c->len);
    rc = ossl_gcm_open(ossl, c->key, c->key_len, c->iv, c->aad, c->aad_len, c->ct, c->len,
                       c->tag, c->tag_len, out);
    if (check_int(&C, case_name(i, c, "OpenSSL open of the model's output (1 = accepted)"), 1, rc))
        check_bytes(&C, case_name(i, c, "OpenSSL open plaintext"), c->pt, out, c->len);
}

static void flip_random_bit(ibsec_rng *r, uint8_t *buf, size_t n)
{
    uint32_t bit = ibsec_rng_below(r, (uint32_t)(8 * n));
    buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
}

/* 1 when all n bytes of p are zero. */
static int all_zero(const uint8_t *p, size_t n)
{
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* Check 4 for one forgery: (aad, ct, tag) differs from the sealed message in one bit. */
static void check_forgery(unsigned long i, const gcm_case *c, const ibsec_gcm_key *gk,
                          const uint8_t *aad, const uint8_t *ct, const uint8_t *tag,
                          const char *what)
{
    uint8_t out[MAX_DATA];
    char msg[64];

    memset(out, 0xa5, c->len);
    int rc = ibsec_gcm_open(gk, c->iv, aad, c->aad_len, ct, c->len, tag, c->tag_len, out);
    snprintf(msg, sizeof(msg), "model rejects flipped %s", what);
    check_int(&C, case_name(i, c, msg), -1, rc);
    snprintf(msg, sizeof(msg), "plaintext zeroed after flipped %s", what);
    check_true(&C, all_zero(out, c->len), case_name(i, c, msg));
    rc = ossl_gcm_open(ossl, c->key, c->key_len, c->iv, aad, c->aad_len, ct, c->len,
                       tag, c->tag_len, out);
    snprintf(msg, sizeof(msg), "OpenSSL rejects flipped %s (0 = rejected)", what);
    check_int(&C, case_name(i, c, msg), 0, rc);
}

static void check_forgeries(ibsec_rng *r, unsigned long i, const gcm_case *c,
                            const ibsec_gcm_key *gk)
{
    uint8_t bad_tag[IBSEC_GCM_TAG_MAX], bad_ct[MAX_DATA], bad_aad[MAX_AAD];

    memcpy(bad_tag, c->tag, c->tag_len);
    flip_random_bit(r, bad_tag, c->tag_len);
    check_forgery(i, c, gk, c->aad, c->ct, bad_tag, "tag bit");
    if (c->len > 0) {
        memcpy(bad_ct, c->ct, c->len);
        flip_random_bit(r, bad_ct, c->len);
        check_forgery(i, c, gk, c->aad, bad_ct, c->tag, "ciphertext bit");
    }
    if (c->aad_len > 0) {
        memcpy(bad_aad, c->aad, c->aad_len);
        flip_random_bit(r, bad_aad, c->aad_len);
        check_forgery(i, c, gk, bad_aad, c->ct, c->tag, "AAD bit");
    }
}

/* Check 5: seal and open with one buffer for input and output. */
static void check_in_place(unsigned long i, const gcm_case *c, const ibsec_gcm_key *gk)
{
    uint8_t buf[MAX_DATA], tag[IBSEC_GCM_TAG_MAX];

    memcpy(buf, c->pt, c->len);
    int rc = ibsec_gcm_seal(gk, c->iv, c->aad, c->aad_len, buf, c->len, buf, tag, c->tag_len);
    if (!check_int(&C, case_name(i, c, "model seal in place"), 0, rc))
        return;
    check_bytes(&C, case_name(i, c, "ciphertext sealed in place"), c->ct, buf, c->len);
    check_bytes(&C, case_name(i, c, "tag sealed in place"), c->tag, tag, c->tag_len);
    rc = ibsec_gcm_open(gk, c->iv, c->aad, c->aad_len, buf, c->len, tag, c->tag_len, buf);
    if (check_int(&C, case_name(i, c, "model open in place"), 0, rc))
        check_bytes(&C, case_name(i, c, "plaintext opened in place"), c->pt, buf, c->len);
    memcpy(buf, c->ct, c->len);
    tag[0] ^= 0x80;
    rc = ibsec_gcm_open(gk, c->iv, c->aad, c->aad_len, buf, c->len, tag, c->tag_len, buf);
    check_int(&C, case_name(i, c, "model rejects a flipped tag in place"), -1, rc);
    check_true(&C, all_zero(buf, c->len), case_name(i, c, "buffer zeroed after a failed open in place"));
}

static void run_case(ibsec_rng *r, unsigned long i)
{
    static gcm_case c;
    ibsec_gcm_key gk;

    draw_case(r, i, &c);
    if (!check_int(&C, case_name(i, &c, "model key init"), 0,
                   ibsec_gcm_key_init(&gk, c.key, c.key_len, c.lanes)))
        return;
    if (!check_seal(i, &c, &gk))
        return;
    check_open(i, &c, &gk);
    check_forgeries(r, i, &c, &gk);
    if (i % IN_PLACE_EVERY == IN_PLACE_EVERY - 1)
        check_in_place(i, &c, &gk);
}

/* Parses a decimal option value; exits with the usage status on anything else. */
static unsigned long parse_count(const char *opt, const char *s, unsigned long max)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end != '\0' || v > max) {
        fprintf(stderr, "test_gcm_openssl: %s wants a decimal number up to %lu, got '%s'\n",
                opt, max, s);
        exit(2);
    }
    return (unsigned long)v;
}

static void usage(void)
{
    fprintf(stderr, "usage: test_gcm_openssl [--seed N] [--cases N]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    unsigned long seed = 1, cases = 100000;
    ibsec_rng r;

    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = parse_count("--seed", argv[++a], 0xffffffffUL);
        else if (strcmp(argv[a], "--cases") == 0 && a + 1 < argc)
            cases = parse_count("--cases", argv[++a], 100000000UL);
        else
            usage();
    }
    if (cases == 0) {
        fprintf(stderr, "test_gcm_openssl: --cases must be at least 1\n");
        return 2;
    }
    check_init(&C, "gcm_openssl");
    ossl = EVP_CIPHER_CTX_new();
    if (ossl == NULL) {
        fprintf(stderr, "test_gcm_openssl: EVP_CIPHER_CTX_new failed\n");
        return 1;
    }
    printf("gcm_openssl: seed %lu, %lu cases\n", seed, cases);
    ibsec_rng_seed(&r, seed);
    for (unsigned long i = 0; i < cases; i++)
        run_case(&r, i);
    EVP_CIPHER_CTX_free(ossl);
    return check_summary(&C);
}
