/*
 * ghash.c — GF(2^128) multiplication and GHASH (NIST SP 800-38D §6.3, §6.4), as the
 * reference for the RTL's GHASH engine.
 *
 * Representation. The public interface is byte strings in SP 800-38D order (see
 * ghash.h: bit bi = coefficient of x^i, b0 = MSB of byte 0). Inside this file a 128-bit
 * element is two 64-bit words, w[0] = bytes 0..7 and w[1] = bytes 8..15, each assembled
 * big-endian with explicit shifts (load_be64), so bit bi is bit (63 - i mod 64) of word
 * i / 64. A 255-coefficient product is four such words. The spec's "rightshift" of a
 * bit string (b0..b127 -> 0 b0..b126) is then a numeric right shift across the words,
 * and it multiplies the element by x. Words are only a way to move 64 bits at a time;
 * every operation is still the bit-by-bit one of the standard.
 *
 * Three multiplications, each simple enough to check by reading:
 *   - ibsec_gf128_mul: SP 800-38D §6.3 Algorithm 1 verbatim. Z = 0, V = Y; for each bit
 *     xi of X from x0: if xi, Z ^= V; then V = V·x, i.e. V >> 1, XOR R if the bit that
 *     fell off (the x^127 coefficient) was 1. Reduction is interleaved with the shifts.
 *   - clmul (ibsec_gf128_clmul): the same shift-and-add with no reduction: V slides
 *     through a 256-bit window, Z collects the 255-coefficient product.
 *   - reduce (ibsec_gf128_reduce): P(x) = x^128 + x^7 + x^2 + x + 1, so
 *     x^(128+j) = x^j·(x^7 + x^2 + x + 1) mod P. Walking the coefficients from x^254
 *     down to x^128, each set one is cleared and folded into x^(j+7), x^(j+2), x^(j+1),
 *     x^j. Top-down order matters: x^(j+7) can itself be >= x^128 (j >= 121) and is
 *     then folded later in the same walk.
 *
 * Aggregated reduction (what the RTL does). GHASH is Horner's rule in H:
 *   Y_i = (Y_(i-1) ^ X_i)·H, so k steps unroll to
 *   Y_(i+k) = (Y_i ^ X_(i+1))·H^k ^ X_(i+2)·H^(k-1) ^ ... ^ X_(i+k)·H.
 * Reduction mod P is linear over XOR, so the k products may be XORed unreduced and
 * reduced once: LANES multipliers without reduction, one XOR tree, one reducer per beat.
 * ibsec_ghash_fold_beat computes exactly that, with the powers H^1..H^LANES precomputed
 * by ibsec_hpow_init (the RTL derives them when a key is installed). Any grouping of a
 * block sequence into beats gives the same value as the serial rule; test_ghash.c
 * checks it for every length 0..200 at LANES = 1, 4, 12.
 *
 * Conditional XORs use all-ones/all-zeros masks rather than branches, so the running
 * time does not depend on the data (as BearSSL does); that costs nothing in clarity.
 *
 * Rejected: Shoup's 4-bit or 8-bit tables (what OpenSSL's generic C code does): much
 * faster, but per-key tables and nibble-reflected indexing are exactly the kind of
 * cleverness a golden model must not have, and they leak through cache timing.
 * Karatsuba splitting and PCLMULQDQ intrinsics: fast paths, platform-specific; if ever
 * needed they go beside this file, checked against it.
 */
#include "ghash.h"

#include <string.h>

/* R = 11100001 || 0^120 (SP 800-38D §6.3), the high byte of word 0. */
#define GF128_R_HI 0xE100000000000000ull

/* Bytes p[0..7] as a big-endian word: p[0] in bits 63..56 (bit b0 of the block is bit 63). */
static uint64_t load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

/* The inverse of load_be64. */
static void store_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

/* A 16-byte block as two words, w[0] = bytes 0..7 (coefficients x^0..x^63). */
static void load128(uint64_t w[2], const uint8_t b[16])
{
    w[0] = load_be64(b);
    w[1] = load_be64(b + 8);
}

static void store128(uint8_t b[16], const uint64_t w[2])
{
    store_be64(b, w[0]);
    store_be64(b + 8, w[1]);
}

/* Bit bi of a word-array element (bi = coefficient of x^i), 0 or 1. */
static uint64_t coeff(const uint64_t *w, int i)
{
    return (w[i >> 6] >> (63 - (i & 63))) & 1;
}

/* All ones when bit is 1, all zeros when 0. */
static uint64_t mask_of(uint64_t bit)
{
    return (uint64_t)0 - bit;
}

/* SP 800-38D §6.3 Algorithm 1, on words. */
static void gf128_mul_words(const uint64_t x[2], const uint64_t y[2], uint64_t z[2])
{
    uint64_t v0 = y[0], v1 = y[1];
    uint64_t z0 = 0, z1 = 0;
    for (int i = 0; i < 128; i++) {
        uint64_t m = mask_of(coeff(x, i));        /* step 2: if xi = 1, Z ^= V */
        z0 ^= v0 & m;
        z1 ^= v1 & m;
        uint64_t r = mask_of(v1 & 1);             /* LSB1(V): coefficient of x^127 */
        v1 = (v1 >> 1) | (v0 << 63);              /* V >> 1 = V·x before reduction */
        v0 = (v0 >> 1) ^ (GF128_R_HI & r);        /* ... XOR R when x^128 appeared */
    }
    z[0] = z0;
    z[1] = z1;
}

/* Carry-less product, unreduced: p[0..3] holds coefficients x^0..x^254 (x^255 = 0). */
static void clmul_words(const uint64_t x[2], const uint64_t y[2], uint64_t p[4])
{
    uint64_t v[4] = { y[0], y[1], 0, 0 }; /* y·x^i as i advances */
    p[0] = p[1] = p[2] = p[3] = 0;
    for (int i = 0; i < 128; i++) {
        uint64_t m = mask_of(coeff(x, i));
        for (int j = 0; j < 4; j++)
            p[j] ^= v[j] & m;
        v[3] = (v[3] >> 1) | (v[2] << 63);   /* v = v·x: shift the 256-bit window */
        v[2] = (v[2] >> 1) | (v[1] << 63);
        v[1] = (v[1] >> 1) | (v[0] << 63);
        v[0] = v[0] >> 1;
    }
}

/* Flips coefficient x^i of a word-array polynomial when bit is 1. */
static void flip_coeff(uint64_t *w, int i, uint64_t bit)
{
    w[i >> 6] ^= bit << (63 - (i & 63));
}

/* p mod P(x), P = x^128 + x^7 + x^2 + x + 1; p has degree <= 254 and is not modified. */
static void reduce_words(const uint64_t p[4], uint64_t z[2])
{
    uint64_t t[4] = { p[0], p[1], p[2], p[3] };
    for (int i = 254; i >= 128; i--) {
        uint64_t bit = coeff(t, i);      /* x^i = x^(i-128) · x^128 */
        int j = i - 128;
        flip_coeff(t, i, bit);           /* x^128 == x^7 + x^2 + x + 1 (mod P) */
        flip_coeff(t, j + 7, bit);
        flip_coeff(t, j + 2, bit);
        flip_coeff(t, j + 1, bit);
        flip_coeff(t, j, bit);
    }
    z[0] = t[0];
    z[1] = t[1];
}

/* SP 800-38D §6.3 Algorithm 1: out = x · y. */
void ibsec_gf128_mul(const uint8_t x[16], const uint8_t y[16], uint8_t out[16])
{
    uint64_t xw[2], yw[2], zw[2];
    load128(xw, x);
    load128(yw, y);
    gf128_mul_words(xw, yw, zw);
    store128(out, zw);
}

/* The product of x(x) and y(x) in GF(2)[x], before reduction modulo P (§6.3). */
void ibsec_gf128_clmul(const uint8_t x[16], const uint8_t y[16], uint8_t prod[32])
{
    uint64_t xw[2], yw[2], p[4];
    load128(xw, x);
    load128(yw, y);
    clmul_words(xw, yw, p);
    for (int j = 0; j < 4; j++)
        store_be64(prod + 8 * j, p[j]);
}

/* prod mod P(x), P = x^128 + x^7 + x^2 + x + 1 (the field of SP 800-38D §6.3). */
void ibsec_gf128_reduce(const uint8_t prod[32], uint8_t out[16])
{
    uint64_t p[4], z[2];
    for (int j = 0; j < 4; j++)
        p[j] = load_be64(prod + 8 * j);
    p[3] &= ~(uint64_t)1; /* x^255 cannot occur in a product; ignore it if set */
    reduce_words(p, z);
    store128(out, z);
}

/* H^0 = 1, H^1 = H, H^i = H^(i-1) · H (§6.3 products), for the aggregated fold. */
void ibsec_hpow_init(ibsec_hpow *hp, const uint8_t H[16], int lanes)
{
    if (lanes < 1)
        lanes = 1;
    if (lanes > IBSEC_MAX_LANES)
        lanes = IBSEC_MAX_LANES;
    hp->lanes = lanes;
    memset(hp->h[0], 0, 16);
    hp->h[0][0] = 0x80; /* the field's 1: b0 = coefficient of x^0 */
    memcpy(hp->h[1], H, 16);
    for (int i = 2; i <= IBSEC_MAX_LANES; i++)
        ibsec_gf128_mul(hp->h[i - 1], H, hp->h[i]);
}

/* SP 800-38D §6.4 Algorithm 2 GHASH_H, continuing from the running value y. */
void ibsec_ghash_serial(uint8_t y[16], const uint8_t H[16], const uint8_t *blocks, size_t nblocks)
{
    uint64_t yw[2], hw[2], xw[2];
    load128(yw, y);
    load128(hw, H);
    for (size_t i = 0; i < nblocks; i++) {
        load128(xw, blocks + 16 * i);
        xw[0] ^= yw[0];                    /* SP 800-38D §6.4 step 3: Y_i = (Y_(i-1) ^ X_i)·H */
        xw[1] ^= yw[1];
        gf128_mul_words(xw, hw, yw);
    }
    store128(y, yw);
}

/* k steps of §6.4 Algorithm 2 unrolled (Horner's rule in H), k products XORed
 * unreduced, one reduction: one beat of rtl/crypto/ghash_engine.v. */
void ibsec_ghash_fold_beat(uint8_t y[16], const ibsec_hpow *hp, const uint8_t *blocks, int k)
{
    uint64_t acc[4] = { 0, 0, 0, 0 };
    uint64_t xw[2], hw[2], p[4], yw[2];

    if (k < 1 || k > IBSEC_MAX_LANES)
        return;
    load128(yw, y);
    for (int j = 0; j < k; j++) {
        load128(xw, blocks + 16 * j);
        if (j == 0) {                      /* the running value enters with the first block */
            xw[0] ^= yw[0];
            xw[1] ^= yw[1];
        }
        load128(hw, hp->h[k - j]);         /* X_j meets H^(k-j) */
        clmul_words(xw, hw, p);
        for (int w = 0; w < 4; w++)        /* XOR tree of unreduced products */
            acc[w] ^= p[w];
    }
    reduce_words(acc, yw);                 /* one reduction per beat */
    store128(y, yw);
}

/* §6.4 GHASH over a whole block sequence, hp->lanes blocks per beat, the last beat shorter. */
void ibsec_ghash_fold(uint8_t y[16], const ibsec_hpow *hp, const uint8_t *blocks, size_t nblocks)
{
    size_t lanes = (size_t)hp->lanes;
    if (lanes < 1 || lanes > IBSEC_MAX_LANES) /* a corrupted context must not loop forever */
        lanes = 1;
    for (size_t i = 0; i < nblocks; i += lanes) {
        size_t k = nblocks - i < lanes ? nblocks - i : lanes;
        ibsec_ghash_fold_beat(y, hp, blocks + 16 * i, (int)k);
    }
}
