/*
 * tb_aes.c — C harness of the AES bench: rtl/crypto/aes_pipeline.v (and the aes_* blocks under
 * it) through verif/aes_pipeline/tb_aes_top.v, against the C model (cmodel/aes.h), against
 * OpenSSL's AES-ECB (libcrypto EVP, an independent implementation) and against published
 * vectors.
 *
 * S-box (combinational port): all 256 inputs against a private computation from the
 *   definition of FIPS-197 §5.1.1 (inverse in GF(2^8), then the affine map) and against
 *   the model's table.
 * Pipelines (clocked): every pipeline of the test top (STAGES_PER_ROUND = 1, and 2 when
 *   the top is built with PIPES = 2; it reports which) sees the same beats and is checked
 *   on its own:
 *   - known answers: FIPS-197 Appendix B and C.1 (AES-128), C.3 (AES-256), and the
 *     all-zero key and block of the GCM specification's test cases 1 and 13 (their H),
 *     in every lane, back to back;
 *   - all-zero and all-one keys and blocks for both key sizes, back to back, with the
 *     unused half of the key port holding the complement for AES-128;
 *   - a random stream in which EVERY beat has its own key and key size (AES-128 and
 *     AES-256 mixed with no bubble; sometimes the same key bits with the other size),
 *     its own random block in every lane (sometimes all zeros, all ones or equal lanes),
 *     garbage on the unused key half, phases without idle cycles and with random idle
 *     cycles (garbage on every input but s_valid), and occasional resets.
 *   Every lane of every output beat is compared with the model and with OpenSSL; it must
 *   come out exactly LATENCY = 14 * STAGES_PER_ROUND cycles after its input beat
 *   (docs/crypto-core.md), in order, with its m_user; any other m_valid is an error.
 *
 * Usage: Vtb [--seed N] [--beats N]. Last line: "aes-L<n>: N passed, N failed".
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes.h"
#include "ghash.h" /* IBSEC_MAX_LANES */
#include "tb_aes.h"
#include "tb_util.h"

/* aes_pipeline LATENCY = AES_PADDED_ROUNDS * STAGES_PER_ROUND (docs/crypto-core.md):
 * every beat takes the 14 rounds of AES-256 (FIPS-197 Nr = 14), AES-128 ones included */
#define AES_PADDED_ROUNDS 14
#define AES_BLOCK_BYTES   16
#define AES128_KEY_BYTES  16
#define AES256_KEY_BYTES  32
#define MAX_WORDS         (4 * IBSEC_MAX_LANES)
/* more than the deepest pipeline holds (14 * 2 beats) */
#define QUEUE_LEN         64
/* random stream: phases of PHASE_BEATS beats cycle through these idle percentages */
#define PHASE_BEATS       250

static tb_result res;
static tb_rng rng;
static unsigned lanes;
static unsigned long cycle;
static unsigned long n_beats, n_beats256, n_idle, n_resets, n_ossl;

/* ------------------------------------------------------------------------------------ */
/* Beats and their expected results                                                      */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    uint32_t id;                                 /* s_user */
    int aes256;                                  /* s_aes256 */
    uint8_t key[AES256_KEY_BYTES];               /* s_key bytes 0..31; AES-128: 0..15 */
    uint8_t block[IBSEC_MAX_LANES][AES_BLOCK_BYTES];
} beat;

typedef struct {
    uint32_t id;
    unsigned long due;                           /* cycle in which m_valid must be 1 */
    const char *source;                          /* what the beat was */
    uint8_t model[IBSEC_MAX_LANES][AES_BLOCK_BYTES];
    uint8_t ossl[IBSEC_MAX_LANES][AES_BLOCK_BYTES];
    int has_published;
    uint8_t published[AES_BLOCK_BYTES];          /* the same in every lane */
} expectation;

typedef struct {
    unsigned stages;                             /* STAGES_PER_ROUND of this pipeline */
    unsigned latency;
    expectation queue[QUEUE_LEN];
    unsigned head, count;
    unsigned long results;                       /* output beats checked */
} pipe_check;

static pipe_check pipes[TB_AES_PIPES];
static unsigned n_pipes;

static size_t key_len(const beat *b)
{
    return b->aes256 ? AES256_KEY_BYTES : AES128_KEY_BYTES;
}

/* FIPS-197 §5.1 through the C model, every lane */
static void model_encrypt(const beat *b, uint8_t out[][AES_BLOCK_BYTES])
{
    ibsec_aes_key k;
    if (ibsec_aes_key_expand(&k, b->key, key_len(b)) != 0) {
        tb_fail(&res, "ibsec_aes_key_expand refused a %zu-byte key", key_len(b));
        return;
    }
    for (unsigned i = 0; i < lanes; i++)
        ibsec_aes_encrypt_block(&k, b->block[i], out[i]);
}

/* the same through OpenSSL's AES-ECB, all lanes in one call */
static void openssl_encrypt(const beat *b, uint8_t out[][AES_BLOCK_BYTES])
{
    static EVP_CIPHER_CTX *ctx;
    const EVP_CIPHER *cipher = b->aes256 ? EVP_aes_256_ecb() : EVP_aes_128_ecb();
    int len = 0;
    if (!ctx)
        ctx = EVP_CIPHER_CTX_new();
    if (!ctx || EVP_EncryptInit_ex(ctx, cipher, NULL, b->key, NULL) != 1 ||
        EVP_CIPHER_CTX_set_padding(ctx, 0) != 1 ||
        EVP_EncryptUpdate(ctx, &out[0][0], &len, &b->block[0][0], (int)(lanes * AES_BLOCK_BYTES)) != 1 ||
        len != (int)(lanes * AES_BLOCK_BYTES)) {
        tb_fail(&res, "OpenSSL AES-ECB call failed");
        return;
    }
    n_ossl++;
}

/* ------------------------------------------------------------------------------------ */
/* Driving and checking the DUT                                                          */
/* ------------------------------------------------------------------------------------ */

/* s_key[255:0]: key byte k at [255-8k -: 8], i.e. bytes 0..15 are "lane" 1 of the
 * big-endian block packing and bytes 16..31 "lane" 0 */
static void pack_key(uint32_t kw[8], const uint8_t key[AES256_KEY_BYTES])
{
    memset(kw, 0, 8 * sizeof kw[0]);
    tb_pack_block_be(kw, 1, key);
    tb_pack_block_be(kw, 0, key + AES_BLOCK_BYTES);
}

static void check_output(pipe_check *p, const expectation *e, const uint32_t *bw, uint32_t user)
{
    char what[128];
    for (unsigned i = 0; i < lanes; i++) {
        uint8_t got[AES_BLOCK_BYTES];
        tb_unpack_block_be(got, bw, i);
        snprintf(what, sizeof what, "STAGES_PER_ROUND=%u beat %u (%s) lane %u vs model", p->stages,
                 (unsigned)e->id, e->source, i);
        tb_check_bytes(&res, what, e->model[i], got, AES_BLOCK_BYTES);
        snprintf(what, sizeof what, "STAGES_PER_ROUND=%u beat %u (%s) lane %u vs OpenSSL", p->stages,
                 (unsigned)e->id, e->source, i);
        tb_check_bytes(&res, what, e->ossl[i], got, AES_BLOCK_BYTES);
        if (e->has_published) {
            snprintf(what, sizeof what, "STAGES_PER_ROUND=%u %s lane %u vs published", p->stages,
                     e->source, i);
            tb_check_bytes(&res, what, e->published, got, AES_BLOCK_BYTES);
        }
    }
    snprintf(what, sizeof what, "STAGES_PER_ROUND=%u m_user (order of beats)", p->stages);
    tb_check_u64(&res, what, e->id, user);
    p->results++;
}

/* checks this cycle's outputs of every pipeline, then one clock edge */
static void step(void)
{
    for (unsigned n = 0; n < n_pipes; n++) {
        pipe_check *p = &pipes[n];
        uint32_t bw[MAX_WORDS], user;
        int valid = dut_result(n, bw, &user);
        expectation *e = p->count ? &p->queue[p->head] : NULL;
        if (e && e->due == cycle) {
            if (!valid)
                tb_fail(&res, "STAGES_PER_ROUND=%u beat %u: no m_valid in cycle %lu (input + %u)", p->stages,
                        (unsigned)e->id, cycle, p->latency);
            else
                check_output(p, e, bw, user);
            p->head = (p->head + 1) % QUEUE_LEN;
            p->count--;
        } else if (valid) {
            tb_fail(&res, "STAGES_PER_ROUND=%u: unexpected m_valid in cycle %lu (m_user %u)", p->stages, cycle,
                    (unsigned)user);
        }
    }
    dut_tick();
    cycle++;
}

static void drive_idle(void)
{
    uint32_t bw[MAX_WORDS], kw[8];
    for (unsigned w = 0; w < 4 * lanes; w++)
        bw[w] = tb_rand32(&rng);
    for (unsigned w = 0; w < 8; w++)
        kw[w] = tb_rand32(&rng);
    /* garbage on every line but s_valid */
    dut_set_beat(0, bw, kw, (int)tb_rand_range(&rng, 0, 1), tb_rand32(&rng));
    n_idle++;
    step();
}

/* drives one beat and queues what each pipeline must return; published: the expected
 * block of every lane from a published vector, or NULL */
static void drive_beat(const beat *b, const char *source, const uint8_t *published)
{
    static expectation e;
    uint32_t bw[MAX_WORDS], kw[8];

    memset(&e, 0, sizeof e);
    e.id = b->id;
    e.source = source;
    model_encrypt(b, e.model);
    openssl_encrypt(b, e.ossl);
    if (published) {
        e.has_published = 1;
        memcpy(e.published, published, AES_BLOCK_BYTES);
    }
    for (unsigned n = 0; n < n_pipes; n++) {
        pipe_check *p = &pipes[n];
        if (p->count == QUEUE_LEN) {
            tb_fail(&res, "harness queue overflow");
            continue;
        }
        e.due = cycle + p->latency;
        p->queue[(p->head + p->count++) % QUEUE_LEN] = e;
    }

    memset(bw, 0, sizeof bw);
    for (unsigned i = 0; i < lanes; i++)
        tb_pack_block_be(bw, i, b->block[i]);
    pack_key(kw, b->key);
    dut_set_beat(1, bw, kw, b->aes256, b->id);
    n_beats++;
    n_beats256 += b->aes256 ? 1 : 0;
    step();
}

/* rst high for 1..3 idle cycles: beats whose valid bit would pass a reset edge are lost */
static void reset_pipelines(void)
{
    for (unsigned n = 0; n < n_pipes; n++) {
        pipe_check *p = &pipes[n];
        while (p->count && p->queue[(p->head + p->count - 1) % QUEUE_LEN].due > cycle)
            p->count--;
    }
    unsigned cycles = tb_rand_range(&rng, 1, 3);
    dut_set_rst(1);
    for (unsigned i = 0; i < cycles; i++)
        drive_idle();
    dut_set_rst(0);
    n_resets++;
}

static void drain(void)
{
    for (unsigned i = 0; i < AES_PADDED_ROUNDS * 2 + 4; i++)
        drive_idle();
    for (unsigned n = 0; n < n_pipes; n++)
        if (pipes[n].count)
            tb_fail(&res, "STAGES_PER_ROUND=%u: %u beats never came out", pipes[n].stages, pipes[n].count);
}

/* ------------------------------------------------------------------------------------ */
/* S-box: all 256 entries against its definition (FIPS-197 §5.1.1)                       */
/* ------------------------------------------------------------------------------------ */

/* product in GF(2^8) mod x^8 + x^4 + x^3 + x + 1 (FIPS-197 §4.2), shift and add */
static uint8_t gf256_mul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (; b; b >>= 1) {
        if (b & 1)
            p ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0x00)); /* xtime, §4.2.1 */
    }
    return p;
}

/* multiplicative inverse as a^254 (the group has order 255); maps 0 to 0 as §5.1.1 asks */
static uint8_t gf256_inverse(uint8_t a)
{
    uint8_t r = 1;
    for (int i = 0; i < 254; i++)
        r = gf256_mul(r, a);
    return r;
}

static uint8_t rotl8(uint8_t b, unsigned n)
{
    return (uint8_t)((b << n) | (b >> (8 - n)));
}

/* FIPS-197 eq. (5.1): b'_i = b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i, c = 0x63 */
static uint8_t sbox_from_definition(uint8_t x)
{
    uint8_t b = gf256_inverse(x);
    return (uint8_t)(b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63);
}

static void test_sbox(void)
{
    tb_check_u64(&res, "aes_sbox {53} = {ed} (FIPS-197 §5.1.1 example)", 0xed, dut_sbox(0x53));
    for (unsigned x = 0; x < 256; x++) {
        uint8_t ref = sbox_from_definition((uint8_t)x);
        char what[64];
        snprintf(what, sizeof what, "aes_sbox(%02x) vs FIPS-197 §5.1.1 definition", x);
        tb_check_u64(&res, what, ref, dut_sbox((uint8_t)x));
        snprintf(what, sizeof what, "model ibsec_aes_sbox(%02x) vs definition", x);
        tb_check_u64(&res, what, ref, ibsec_aes_sbox((uint8_t)x));
    }
}

/* ------------------------------------------------------------------------------------ */
/* Directed beats                                                                        */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    const char *source;
    const char *key, *plaintext, *ciphertext; /* hex, FIPS-197 byte order */
} known_answer;

static const known_answer KNOWN_ANSWERS[] = {
    {"FIPS-197 Appendix B (AES-128)", "2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
     "3925841d02dc09fbdc118597196a0b32"},
    {"FIPS-197 Appendix C.1 (AES-128)", "000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
     "69c4e0d86a7b0430d8cdb78070b4c55a"},
    {"FIPS-197 Appendix C.3 (AES-256)", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089"},
    {"GCM test case 1 H (AES-128, zero key and block)", "00000000000000000000000000000000",
     "00000000000000000000000000000000", "66e94bd4ef8a2c3b884cfa59ca342b2e"},
    {"GCM test case 13 H (AES-256, zero key and block)",
     "0000000000000000000000000000000000000000000000000000000000000000", "00000000000000000000000000000000",
     "dc95c078a2408989ad48a21492842087"},
};

/* parses a hex string of exactly n bytes; a malformed table entry is a harness bug */
static void parse_hex(uint8_t *out, size_t n, const char *hex)
{
    if (strlen(hex) != 2 * n) {
        tb_fail(&res, "known-answer table: '%s' is not %zu bytes", hex, n);
        memset(out, 0, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
            tb_fail(&res, "known-answer table: bad hex in '%s'", hex);
            v = 0;
        }
        out[i] = (uint8_t)v;
    }
}

static void test_known_answers(uint32_t *id)
{
    static beat b;
    size_t n = sizeof KNOWN_ANSWERS / sizeof KNOWN_ANSWERS[0];
    for (size_t t = 0; t < n; t++) {
        const known_answer *ka = &KNOWN_ANSWERS[t];
        uint8_t ct[AES_BLOCK_BYTES], model[IBSEC_MAX_LANES][AES_BLOCK_BYTES];
        char what[96];
        memset(&b, 0, sizeof b);
        b.id = (*id)++;
        b.aes256 = strlen(ka->key) == 2 * AES256_KEY_BYTES;
        parse_hex(b.key, key_len(&b), ka->key);
        if (!b.aes256)
            tb_rand_bytes(&rng, b.key + AES128_KEY_BYTES, AES128_KEY_BYTES); /* must be ignored */
        for (unsigned i = 0; i < lanes; i++)
            parse_hex(b.block[i], AES_BLOCK_BYTES, ka->plaintext);
        parse_hex(ct, AES_BLOCK_BYTES, ka->ciphertext);
        model_encrypt(&b, model);
        snprintf(what, sizeof what, "model, %s", ka->source);
        tb_check_bytes(&res, what, ct, model[0], AES_BLOCK_BYTES);
        drive_beat(&b, ka->source, ct); /* back to back: no idle between them */
    }
}

/* both key sizes x all-zero / all-one key x lanes alternating all-zero / all-one blocks
 * (and the opposite), back to back; AES-128 gets the complement in the unused key half */
static void test_zero_one(uint32_t *id)
{
    static beat b;
    for (int aes256 = 0; aes256 <= 1; aes256++)
        for (int key_ones = 0; key_ones <= 1; key_ones++)
            for (int first_ones = 0; first_ones <= 1; first_ones++) {
                memset(&b, 0, sizeof b);
                b.id = (*id)++;
                b.aes256 = aes256;
                memset(b.key, key_ones ? 0xff : 0x00, AES256_KEY_BYTES);
                if (!aes256)
                    memset(b.key + AES128_KEY_BYTES, key_ones ? 0x00 : 0xff, AES128_KEY_BYTES);
                for (unsigned i = 0; i < lanes; i++)
                    memset(b.block[i], ((i & 1) ^ (unsigned)first_ones) ? 0xff : 0x00, AES_BLOCK_BYTES);
                drive_beat(&b, "all-zero/all-one key and blocks", NULL);
            }
}

/* ------------------------------------------------------------------------------------ */
/* Random stream                                                                         */
/* ------------------------------------------------------------------------------------ */

static void random_beat(beat *b, const beat *prev, uint32_t id)
{
    b->id = id;
    b->aes256 = (int)tb_rand_range(&rng, 0, 1);
    switch (tb_rand_range(&rng, 0, 19)) {
    case 0: memset(b->key, 0x00, AES256_KEY_BYTES); break;
    case 1: memset(b->key, 0xff, AES256_KEY_BYTES); break;
    case 2: /* the previous beat's key bits with the other key size */
        memcpy(b->key, prev->key, AES256_KEY_BYTES);
        b->aes256 = !prev->aes256;
        break;
    default: tb_rand_bytes(&rng, b->key, AES256_KEY_BYTES); break;
    }
    for (unsigned i = 0; i < lanes; i++) {
        switch (tb_rand_range(&rng, 0, 31)) {
        case 0: memset(b->block[i], 0x00, AES_BLOCK_BYTES); break;
        case 1: memset(b->block[i], 0xff, AES_BLOCK_BYTES); break;
        case 2: memcpy(b->block[i], b->block[0], AES_BLOCK_BYTES); break;
        default: tb_rand_bytes(&rng, b->block[i], AES_BLOCK_BYTES); break;
        }
    }
}

/* phases of PHASE_BEATS beats: no idle, no idle, light idle, heavy idle; in every third
 * phase a reset comes at a random point with probability 1/2 */
static void test_random_stream(uint32_t *id, unsigned long beats)
{
    static const unsigned idle_pcts[4] = {0, 0, 10, 60};
    static beat b, prev;
    long reset_at = -1;
    memset(&prev, 0, sizeof prev);
    for (unsigned long n = 0; n < beats; n++) {
        unsigned long phase = n / PHASE_BEATS;
        unsigned idle_pct = idle_pcts[phase % 4];
        if (n % PHASE_BEATS == 0)
            reset_at = (phase % 3 == 2 && tb_chance(&rng, 50))
                           ? (long)(n + tb_rand_range(&rng, 0, PHASE_BEATS - 1))
                           : -1;
        while (idle_pct && tb_chance(&rng, idle_pct))
            drive_idle();
        if ((long)n == reset_at)
            reset_pipelines();
        random_beat(&b, &prev, (*id)++);
        drive_beat(&b, "random", NULL);
        prev = b;
    }
}

/* ------------------------------------------------------------------------------------ */

static int parse_args(int argc, char **argv, unsigned long *seed, unsigned long *beats)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        if (a[0] == '+')
            continue; /* +verilator+... options belong to the simulator */
        if ((strcmp(a, "--seed") && strcmp(a, "--beats")) || i + 1 >= argc) {
            fprintf(stderr, "tb_aes: unknown or incomplete option '%s' (usage: Vtb [--seed N] [--beats N])\n", a);
            return -1;
        }
        unsigned long v = strtoul(argv[++i], &end, 0);
        if (*argv[i] == 0 || *end != 0) {
            fprintf(stderr, "tb_aes: %s needs a number, got '%s'\n", a, argv[i]);
            return -1;
        }
        *(strcmp(a, "--seed") ? beats : seed) = v;
    }
    return 0;
}

int tb_aes_main(int argc, char **argv)
{
    static char name[32];
    unsigned long seed = 1, beats = 5000;
    uint32_t id = 1;
    if (parse_args(argc, argv, &seed, &beats) != 0) {
        dut_finish();
        return 2;
    }
    lanes = dut_lanes();
    snprintf(name, sizeof name, "aes-L%u", lanes);
    tb_result_init(&res, name);
    tb_rng_seed(&rng, seed);
    if (lanes < 1 || lanes > IBSEC_MAX_LANES) {
        tb_fail(&res, "test top reports LANES = %u, outside 1..%d", lanes, IBSEC_MAX_LANES);
        dut_finish();
        return tb_summary(&res);
    }
    n_pipes = dut_pipes();
    if (n_pipes < 1 || n_pipes > TB_AES_PIPES) {
        tb_fail(&res, "test top reports %u pipelines, outside 1..%d", n_pipes, TB_AES_PIPES);
        dut_finish();
        return tb_summary(&res);
    }
    for (unsigned n = 0; n < n_pipes; n++) {
        pipes[n].stages = n + 1; /* pipe n of tb_aes_top has STAGES_PER_ROUND = n + 1 */
        pipes[n].latency = AES_PADDED_ROUNDS * pipes[n].stages;
    }

    test_sbox();

    dut_set_rst(1);
    for (int i = 0; i < 3; i++)
        drive_idle();
    dut_set_rst(0);

    test_known_answers(&id);
    test_zero_one(&id);
    test_random_stream(&id, beats);
    drain();

    printf("aes-L%u: seed %lu; %lu beats (%lu AES-256, %lu AES-128), %lu idle cycles, %lu resets, "
           "%lu cycles; output beats checked:",
           lanes, seed, n_beats, n_beats256, n_beats - n_beats256, n_idle, n_resets, cycle);
    for (unsigned n = 0; n < n_pipes; n++)
        printf(" %lu (STAGES_PER_ROUND=%u, latency %u)", pipes[n].results, pipes[n].stages, pipes[n].latency);
    printf("; %lu beats also through OpenSSL\n", n_ossl);
    int rc = tb_summary(&res);
    dut_finish();
    return rc;
}
