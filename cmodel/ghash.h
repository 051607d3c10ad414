/*
 * ghash.h — GF(2^128) arithmetic and GHASH in GCM bit order (NIST SP 800-38D §6.3, §6.4),
 * the golden model of rtl/crypto/gf128_mul.v and rtl/crypto/ghash_engine.v.
 *
 * Bit order (SP 800-38D §6.3). A 128-bit block is 16 bytes in the standard's hex order.
 * Its bits b0 b1 ... b127 are read left to right: b0 is the most significant bit of
 * byte 0, b7 the least significant bit of byte 0, b8 the most significant bit of byte 1,
 * ..., b127 the least significant bit of byte 15. As a field element, bit bi is the
 * coefficient of x^i, so b0 = x^0 is the leftmost bit: the "1" of the field is the block
 * 80 00 .. 00, and x is 40 00 .. 00. In the RTL's big-endian vector [127:0]
 * (docs/conventions.md) bi sits at vector bit 127 - i.
 * The field is GF(2)[x] / P(x), P(x) = x^128 + x^7 + x^2 + x + 1; the spec's constant
 * R = 11100001 || 0^120 (block e1 00 .. 00) is x^0 + x^1 + x^2 + x^7, i.e. x^128 mod P.
 *
 * The unreduced product of two elements has degree <= 254: 255 coefficients, held in a
 * 32-byte string with the same rule extended (bit bi = MSB-first bit i of the string,
 * the coefficient of x^i, i = 0..254); bit b255 (the LSB of byte 31) is always 0.
 *
 * All values are byte strings; see ghash.c for the mathematics and the aggregated
 * reduction the RTL uses.
 */
#ifndef IBSEC_GHASH_H
#define IBSEC_GHASH_H

#include <stddef.h>
#include <stdint.h>

/* Blocks per beat of the widest datapath (12X GCM, Lee & Kim Fig. 3). */
#define IBSEC_MAX_LANES 12

/* SP 800-38D §6.3 Algorithm 1: out = x · y in GF(2^128), the shift-and-add reference.
 * out may alias x or y. */
void ibsec_gf128_mul(const uint8_t x[16], const uint8_t y[16], uint8_t out[16]);

/* Carry-less (polynomial) product over GF(2), NOT reduced: prod = x(x) · y(x), 255
 * coefficients in the 32-byte layout described above. */
void ibsec_gf128_clmul(const uint8_t x[16], const uint8_t y[16], uint8_t prod[32]);

/* Reduction modulo P(x) of a polynomial of degree <= 254 in the 32-byte layout:
 * out = prod mod P. ibsec_gf128_reduce(clmul(x, y)) == ibsec_gf128_mul(x, y). */
void ibsec_gf128_reduce(const uint8_t prod[32], uint8_t out[16]);

/* Powers of the hash subkey for the aggregated fold. h[i] = H^i for i = 0..IBSEC_MAX_LANES
 * (h[0] is the field's 1); lanes is the beat width the fold uses (1..IBSEC_MAX_LANES). */
typedef struct {
    int lanes;
    uint8_t h[IBSEC_MAX_LANES + 1][16];
} ibsec_hpow;

/* Computes all powers H^0..H^IBSEC_MAX_LANES by repeated multiplication and records
 * lanes, clamped to 1..IBSEC_MAX_LANES. */
void ibsec_hpow_init(ibsec_hpow *hp, const uint8_t H[16], int lanes);

/* SP 800-38D §6.4 GHASH, one block at a time: y = (y ^ X_i) · H for i = 0..nblocks-1.
 * y is the running value (0 at the start of a message); blocks holds 16·nblocks bytes. */
void ibsec_ghash_serial(uint8_t y[16], const uint8_t H[16], const uint8_t *blocks, size_t nblocks);

/* One beat of the RTL's aggregated fold, k = 1..IBSEC_MAX_LANES blocks X_0..X_(k-1):
 *   y = (y ^ X_0)·H^k ^ X_1·H^(k-1) ^ ... ^ X_(k-1)·H
 * computed as k unreduced carry-less products XORed together and ONE reduction, as the
 * RTL does. Equals k steps of ibsec_ghash_serial. k outside 1..IBSEC_MAX_LANES: no-op. */
void ibsec_ghash_fold_beat(uint8_t y[16], const ibsec_hpow *hp, const uint8_t *blocks, int k);

/* A whole block sequence, hp->lanes blocks per beat, the last beat shorter:
 * equals ibsec_ghash_serial with H = hp->h[1]. */
void ibsec_ghash_fold(uint8_t y[16], const ibsec_hpow *hp, const uint8_t *blocks, size_t nblocks);

#endif
