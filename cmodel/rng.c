/*
 * rng.c — xorshift64* seeded through splitmix64 (see rng.h).
 */
#include "rng.h"

/* splitmix64: golden-ratio increment, then two xor-shift-multiply rounds
 * (constants from Steele, Lea & Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014). */
uint64_t ibsec_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void ibsec_rng_seed(ibsec_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    r->s = ibsec_splitmix64(&x);
    if (r->s == 0) /* xorshift must never hold the all-zero state */
        r->s = 0x9E3779B97F4A7C15ull;
}

/* xorshift64*: shifts (12, 25, 27) and the multiplier of Vigna 2016, Table 1. */
uint64_t ibsec_rng_next(ibsec_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

uint32_t ibsec_rng_u32(ibsec_rng *r)
{
    return (uint32_t)(ibsec_rng_next(r) >> 32);
}

uint32_t ibsec_rng_below(ibsec_rng *r, uint32_t n)
{
    if (n == 0)
        return 0;
    /* Reject the top partial copy of [0, n) so every value is equally likely. */
    uint32_t limit = UINT32_MAX - (UINT32_MAX % n);
    for (;;) {
        uint32_t v = ibsec_rng_u32(r);
        if (v < limit)
            return v % n;
    }
}

uint32_t ibsec_rng_range(ibsec_rng *r, uint32_t lo, uint32_t hi)
{
    if (hi <= lo)
        return lo;
    if (lo == 0 && hi == UINT32_MAX)
        return ibsec_rng_u32(r);
    return lo + ibsec_rng_below(r, hi - lo + 1u);
}

void ibsec_rng_bytes(ibsec_rng *r, uint8_t *buf, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint64_t v = ibsec_rng_next(r);
        for (int k = 0; k < 8 && i < n; k++, i++) {
            buf[i] = (uint8_t)(v >> 56); /* most significant byte first */
            v <<= 8;
        }
    }
}
