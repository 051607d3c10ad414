/*
 * test_rng.c — the model's deterministic generator (rng.c), target ctest-rng.
 *
 * Every vector file and randomized test names its packets by a seed, so the generator's
 * output sequence is part of the project's contract. Checked here:
 * 1. splitmix64 against its published reference sequence: from state 0 the first
 *    outputs are 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F (Vigna's
 *    splitmix64.c, prng.di.unimi.it).
 * 2. ibsec_rng_next for seeds 0, 1 and 0xDEADBEEF against values computed outside the
 *    model by a Python transcription of splitmix64 seeding and xorshift64* (shifts
 *    12/25/27, multiplier 0x2545F4914F6CDD1D; Vigna 2016).
 * 3. Properties: same seed same stream; ibsec_rng_u32 is the high half; ibsec_rng_bytes
 *    emits each 64-bit output most significant byte first; ibsec_rng_below stays below n
 *    and hits every value of a small range about equally often; ibsec_rng_range is
 *    inclusive.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "rng.h"

static void test_splitmix(check_ctx *c)
{
    static const uint64_t want[3] = { 0xE220A8397B1DCDAFull, 0x6E789E6AA1B965F4ull,
                                      0x06C45D188009454Full };
    uint64_t x = 0;
    for (int i = 0; i < 3; i++)
        check_int(c, "splitmix64 reference output", (long long)want[i],
                  (long long)ibsec_splitmix64(&x));
}

static void test_known_streams(check_ctx *c)
{
    static const struct {
        uint64_t seed;
        uint64_t out[4];
    } kat[] = {
        { 0, { 0x7bbcb40d550682d0ull, 0xde7fe413d00cc9fdull, 0xb3c638353c668c91ull,
               0xe073afc0949195fcull } },
        { 1, { 0x4b46a55df3611b9bull, 0xd7e1f1410e763ef4ull, 0x5f14ec66975f9b06ull,
               0x3b2c74fad44d6cdbull } },
        { 0xDEADBEEF, { 0xfed17e15c5a0394full, 0x74559d43d8c627bdull, 0x6d99634c796d6247ull,
                        0x704ad00296844bc4ull } },
    };
    char what[64];
    for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
        ibsec_rng r;
        ibsec_rng_seed(&r, kat[k].seed);
        for (int i = 0; i < 4; i++) {
            snprintf(what, sizeof what, "seed %#llx output %d", (unsigned long long)kat[k].seed, i);
            check_int(c, what, (long long)kat[k].out[i], (long long)ibsec_rng_next(&r));
        }
    }
}

static void test_properties(check_ctx *c)
{
    ibsec_rng a, b;
    ibsec_rng_seed(&a, 77);
    ibsec_rng_seed(&b, 77);
    int same = 1;
    for (int i = 0; i < 1000; i++)
        same &= ibsec_rng_next(&a) == ibsec_rng_next(&b);
    check_true(c, same, "same seed, same 1000 outputs");

    ibsec_rng_seed(&a, 5);
    b = a;
    uint64_t v = ibsec_rng_next(&a);
    check_int(c, "u32 is the high half of next", (long long)(v >> 32), ibsec_rng_u32(&b));

    uint8_t bytes[16];
    ibsec_rng_seed(&a, 9);
    b = a;
    ibsec_rng_bytes(&a, bytes, sizeof bytes);
    uint8_t want[16];
    for (int w = 0; w < 2; w++) {
        uint64_t x = ibsec_rng_next(&b);
        for (int i = 0; i < 8; i++)
            want[8 * w + i] = (uint8_t)(x >> (56 - 8 * i));
    }
    check_bytes(c, "rng_bytes: most significant byte first", want, bytes, sizeof bytes);

    /* below(): 60000 draws over 6 values, each count within 5 % of 10000. */
    unsigned long counts[6] = { 0 };
    int in_range = 1;
    for (int i = 0; i < 60000; i++) {
        uint32_t x = ibsec_rng_below(&a, 6);
        if (x >= 6)
            in_range = 0;
        else
            counts[x]++;
    }
    check_true(c, in_range, "rng_below(6) < 6");
    for (int k = 0; k < 6; k++)
        check_true(c, counts[k] > 9500 && counts[k] < 10500, "rng_below(6) roughly uniform");
    check_int(c, "rng_below(0) = 0", 0, ibsec_rng_below(&a, 0));
    check_int(c, "rng_below(1) = 0", 0, ibsec_rng_below(&a, 1));

    int lo_seen = 0, hi_seen = 0, inside = 1;
    for (int i = 0; i < 2000; i++) {
        uint32_t x = ibsec_rng_range(&a, 10, 13);
        lo_seen |= x == 10;
        hi_seen |= x == 13;
        inside &= x >= 10 && x <= 13;
    }
    check_true(c, inside && lo_seen && hi_seen, "rng_range(10, 13) inclusive");
}

int main(void)
{
    check_ctx c;
    check_init(&c, "rng");
    test_splitmix(&c);
    test_known_streams(&c);
    test_properties(&c);
    return check_summary(&c);
}
