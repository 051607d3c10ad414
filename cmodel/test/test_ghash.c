/*
 * test_ghash.c — the GHASH layer (ghash.c) against itself, the way the RTL will use it.
 *
 *   1. Field algebra of ibsec_gf128_mul (SP 800-38D §6.3): x·1 = x, x·0 = 0, x·y = y·x,
 *      x·(y ^ z) = x·y ^ x·z, multiplication by the element "x" is the spec's
 *      rightshift-and-reduce, and H^i·H^j = H^(i+j) with the powers from ibsec_hpow_init.
 *   2. The unreduced multiply and the reduction, separately: clmul(x, y) = clmul(y, x),
 *      its x^255 coefficient is 0, reduce(clmul(x, y)) = gf128_mul(x, y), and a
 *      polynomial of degree < 128 reduces to itself.
 *   3. The aggregated fold against the serial rule: ibsec_ghash_fold ==
 *      ibsec_ghash_serial for LANES = 1, 4, 12 and every block count 0..200, from a zero
 *      and from a random starting value; ibsec_ghash_fold_beat for every k = 1..LANES.
 * One published product anchors the multiplier to the standard (GCM spec Test Case 2,
 * X_1 = C_1·H); test_gcm_kat.c checks all the published GHASH values against OpenSSL.
 *
 * Inputs come from the model's deterministic generator (rng.h); the seed is argv[1]
 * (default 1), so a failure reproduces exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ghash.h"
#include "rng.h"

#define RANDOM_PAIRS 2000
#define MAX_BLOCKS 200

static check_ctx C;
static ibsec_rng R;

static void xor16(uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < 16; i++)
        out[i] = (uint8_t)(a[i] ^ b[i]);
}

/* The spec's multiplication by x (SP 800-38D §6.3, V·x): rightshift, XOR R if bit b127 was 1. */
static void times_x_by_definition(const uint8_t v[16], uint8_t out[16])
{
    int carry = v[15] & 1;
    for (int i = 15; i >= 0; i--)
        out[i] = (uint8_t)((v[i] >> 1) | (i > 0 ? (v[i - 1] & 1) << 7 : 0));
    if (carry)
        out[0] ^= 0xe1; /* R = 11100001 || 0^120 */
}

static void test_known_product(void)
{
    uint8_t h[16], c1[16], x1[16], got[16];
    check_unhex("66e94bd4ef8a2c3b884cfa59ca342b2e", h, 16);
    check_unhex("0388dace60b6a392f328c2b971b2fe78", c1, 16);
    check_unhex("5e2ec746917062882c85b0685353deb7", x1, 16);
    ibsec_gf128_mul(c1, h, got);
    check_bytes(&C, "GCM Test Case 2: X_1 = C_1 * H", x1, got, 16);
}

static void test_algebra(void)
{
    uint8_t one[16] = { 0x80 }, zero[16] = { 0 }, elem_x[16] = { 0x40 };
    int ok_one = 1, ok_zero = 1, ok_comm = 1, ok_dist = 1, ok_x = 1, ok_alias = 1;
    int ok_cl_comm = 1, ok_cl_top = 1, ok_cl_red = 1, ok_red_small = 1;

    for (int n = 0; n < RANDOM_PAIRS; n++) {
        uint8_t a[16], b[16], d[16], t1[16], t2[16], t3[16], t4[16];
        uint8_t p1[32], p2[32];
        ibsec_rng_bytes(&R, a, 16);
        ibsec_rng_bytes(&R, b, 16);
        ibsec_rng_bytes(&R, d, 16);
        if (n < 4) { /* edge values: the all-ones element and single extreme bits */
            memset(a, n == 0 ? 0xff : 0, 16);
            if (n == 1) a[15] = 0x01;   /* x^127 */
            if (n == 2) a[0] = 0x80;    /* 1 */
            if (n == 3) a[15] = 0x01, b[15] = 0x01;
        }

        ibsec_gf128_mul(a, one, t1);
        ok_one &= memcmp(t1, a, 16) == 0;
        ibsec_gf128_mul(one, a, t1);
        ok_one &= memcmp(t1, a, 16) == 0;
        ibsec_gf128_mul(a, zero, t1);
        ok_zero &= memcmp(t1, zero, 16) == 0;

        ibsec_gf128_mul(a, b, t1);
        ibsec_gf128_mul(b, a, t2);
        ok_comm &= memcmp(t1, t2, 16) == 0;

        xor16(t3, b, d);                 /* a·(b ^ d) = a·b ^ a·d */
        ibsec_gf128_mul(a, t3, t2);
        ibsec_gf128_mul(a, d, t3);
        xor16(t4, t1, t3);
        ok_dist &= memcmp(t2, t4, 16) == 0;

        ibsec_gf128_mul(a, elem_x, t2);  /* a·x by the definition */
        times_x_by_definition(a, t3);
        ok_x &= memcmp(t2, t3, 16) == 0;

        memcpy(t2, a, 16);               /* out may alias an input */
        ibsec_gf128_mul(t2, b, t2);
        ok_alias &= memcmp(t2, t1, 16) == 0;

        ibsec_gf128_clmul(a, b, p1);
        ibsec_gf128_clmul(b, a, p2);
        ok_cl_comm &= memcmp(p1, p2, 32) == 0;
        ok_cl_top &= (p1[31] & 1) == 0;
        ibsec_gf128_reduce(p1, t2);
        ok_cl_red &= memcmp(t2, t1, 16) == 0;

        memset(p2, 0, 32);               /* degree < 128: already reduced */
        memcpy(p2, a, 16);
        ibsec_gf128_reduce(p2, t2);
        ok_red_small &= memcmp(t2, a, 16) == 0;
    }
    check_true(&C, ok_one, "x * 1 = 1 * x = x");
    check_true(&C, ok_zero, "x * 0 = 0");
    check_true(&C, ok_comm, "x * y = y * x");
    check_true(&C, ok_dist, "x * (y ^ z) = x*y ^ x*z");
    check_true(&C, ok_x, "v * x equals the SP 800-38D rightshift-and-reduce");
    check_true(&C, ok_alias, "gf128_mul with out aliasing x");
    check_true(&C, ok_cl_comm, "clmul(x, y) = clmul(y, x)");
    check_true(&C, ok_cl_top, "clmul has no x^255 coefficient");
    check_true(&C, ok_cl_red, "reduce(clmul(x, y)) = gf128_mul(x, y)");
    check_true(&C, ok_red_small, "reduce of a degree < 128 polynomial is itself");

    /* x^127 · x = x^128 = x^7 + x^2 + x + 1 = R, the reduction in one step */
    uint8_t x127[16] = { 0 }, r[16] = { 0xe1 }, got[16];
    x127[15] = 0x01;
    ibsec_gf128_mul(x127, elem_x, got);
    check_bytes(&C, "x^127 * x = R (x^128 mod P)", r, got, 16);
}

static void test_powers(void)
{
    for (int trial = 0; trial < 20; trial++) {
        uint8_t H[16], pw[2 * IBSEC_MAX_LANES + 1][16];
        ibsec_hpow hp;
        ibsec_rng_bytes(&R, H, 16);
        ibsec_hpow_init(&hp, H, IBSEC_MAX_LANES);
        memset(pw[0], 0, 16);
        pw[0][0] = 0x80;
        for (int i = 1; i <= 2 * IBSEC_MAX_LANES; i++)
            ibsec_gf128_mul(pw[i - 1], H, pw[i]); /* H^i by repeated multiplication */
        int ok_pow = 1, ok_prod = 1;
        for (int i = 0; i <= IBSEC_MAX_LANES; i++)
            ok_pow &= memcmp(hp.h[i], pw[i], 16) == 0;
        for (int i = 1; i <= IBSEC_MAX_LANES; i++)
            for (int j = 1; j <= IBSEC_MAX_LANES; j++) {
                uint8_t t[16];
                ibsec_gf128_mul(hp.h[i], hp.h[j], t);
                ok_prod &= memcmp(t, pw[i + j], 16) == 0;
            }
        check_true(&C, ok_pow, "hpow_init: h[i] = H^i, i = 0..12");
        check_true(&C, ok_prod, "H^i * H^j = H^(i+j), i, j = 1..12");
    }
    ibsec_hpow hp;
    uint8_t H[16] = { 1 };
    ibsec_hpow_init(&hp, H, 0);
    check_int(&C, "hpow_init clamps lanes 0 to 1", 1, hp.lanes);
    ibsec_hpow_init(&hp, H, 99);
    check_int(&C, "hpow_init clamps lanes 99 to 12", IBSEC_MAX_LANES, hp.lanes);
}

static void test_fold(void)
{
    static const int widths[] = { 1, 4, 12 };
    static uint8_t blocks[16 * MAX_BLOCKS];

    for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
        int lanes = widths[w];
        unsigned long bad_fold = 0, bad_beat = 0;
        for (size_t n = 0; n <= MAX_BLOCKS; n++) {
            for (int start = 0; start < 2; start++) {   /* y0 = 0, then a random y0 */
                uint8_t H[16], y0[16] = { 0 }, ys[16], yf[16];
                ibsec_hpow hp;
                ibsec_rng_bytes(&R, H, 16);
                ibsec_rng_bytes(&R, blocks, 16 * n);
                if (start)
                    ibsec_rng_bytes(&R, y0, 16);
                ibsec_hpow_init(&hp, H, lanes);
                memcpy(ys, y0, 16);
                memcpy(yf, y0, 16);
                ibsec_ghash_serial(ys, H, blocks, n);
                ibsec_ghash_fold(yf, &hp, blocks, n);
                if (memcmp(ys, yf, 16) != 0 && bad_fold++ == 0) {
                    char first[96];
                    snprintf(first, sizeof(first), "LANES=%d, %zu blocks: fold == serial (first mismatch)",
                             lanes, n);
                    check_bytes(&C, first, ys, yf, 16);
                }
            }
        }
        char what[96];
        snprintf(what, sizeof(what), "LANES=%d: fold == serial for every block count 0..%d", lanes, MAX_BLOCKS);
        check_true(&C, bad_fold == 0, what);

        /* one beat of k blocks, k = 1..LANES, equals k serial steps */
        for (int k = 1; k <= lanes; k++) {
            for (int trial = 0; trial < 20; trial++) {
                uint8_t H[16], ys[16], yb[16];
                ibsec_hpow hp;
                ibsec_rng_bytes(&R, H, 16);
                ibsec_rng_bytes(&R, ys, 16);
                ibsec_rng_bytes(&R, blocks, 16 * (size_t)k);
                memcpy(yb, ys, 16);
                ibsec_hpow_init(&hp, H, lanes);
                ibsec_ghash_serial(ys, H, blocks, (size_t)k);
                ibsec_ghash_fold_beat(yb, &hp, blocks, k);
                if (memcmp(ys, yb, 16) != 0)
                    bad_beat++;
            }
        }
        snprintf(what, sizeof(what), "LANES=%d: fold_beat(k) == k serial steps, k = 1..%d", lanes, lanes);
        check_true(&C, bad_beat == 0, what);
    }

    /* k outside 1..IBSEC_MAX_LANES leaves y alone */
    uint8_t H[16], y[16], y_before[16];
    ibsec_hpow hp;
    ibsec_rng_bytes(&R, H, 16);
    ibsec_rng_bytes(&R, y, 16);
    memcpy(y_before, y, 16);
    ibsec_hpow_init(&hp, H, 4);
    ibsec_ghash_fold_beat(y, &hp, blocks, 0);
    ibsec_ghash_fold_beat(y, &hp, blocks, IBSEC_MAX_LANES + 1);
    check_bytes(&C, "fold_beat with k = 0 or 13 is a no-op", y_before, y, 16);
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
    check_init(&C, "ghash");
    ibsec_rng_seed(&R, seed);
    printf("ghash: seed %llu\n", (unsigned long long)seed);
    test_known_product();
    test_algebra();
    test_powers();
    test_fold();
    return check_summary(&C);
}
