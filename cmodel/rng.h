/*
 * rng.h — the one deterministic pseudo-random generator of the ibsec model.
 *
 * Every randomized test, tool and vector generator in ibsec draws from this
 * generator so that a seed names the same packets, keys and nonces everywhere
 * (C tests, the vector generator, the RTL harness).  It is NOT a cryptographic
 * generator and must never be used for real keys.
 *
 * Algorithm: the state is one 64-bit word, stepped by xorshift64* (Marsaglia's
 * xorshift with shifts 12/25/27, output multiplied by 0x2545F4914F6CDD1D;
 * Vigna, "An experimental exploration of Marsaglia's xorshift generators",
 * 2016).  The seed is first passed through splitmix64 so that small seeds
 * (0, 1, 2...) give unrelated streams and the state is never zero.
 */
#ifndef IBSEC_RNG_H
#define IBSEC_RNG_H

#include <stddef.h>
#include <stdint.h>

/* Generator state; treat as opaque.  Copying the struct forks the stream. */
typedef struct ibsec_rng {
    uint64_t s;
} ibsec_rng;

/* Seed the generator (any 64-bit value, including 0). */
void ibsec_rng_seed(ibsec_rng *r, uint64_t seed);

/* Next 64 random bits (xorshift64*). */
uint64_t ibsec_rng_next(ibsec_rng *r);

/* Next 32 random bits (the high half of ibsec_rng_next, the better-mixed half). */
uint32_t ibsec_rng_u32(ibsec_rng *r);

/* Uniform integer in [0, n), n >= 1 (rejection sampling, no modulo bias).
 * n == 0 returns 0. */
uint32_t ibsec_rng_below(ibsec_rng *r, uint32_t n);

/* Uniform integer in [lo, hi] inclusive (lo <= hi). */
uint32_t ibsec_rng_range(ibsec_rng *r, uint32_t lo, uint32_t hi);

/* Fill buf[0..n) with random bytes, in stream order. */
void ibsec_rng_bytes(ibsec_rng *r, uint8_t *buf, size_t n);

/* splitmix64 step (Steele, Lea, Flood 2014): returns the next output and
 * advances *x.  Exposed so other layers can derive sub-seeds the same way. */
uint64_t ibsec_splitmix64(uint64_t *x);

#endif /* IBSEC_RNG_H */
