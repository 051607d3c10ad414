/*
 * tb_ghash.c — C harness of the GHASH bench: rtl/crypto/gf128_clmul.v, gf128_reduce.v,
 * gf128_mul.v and ghash_engine.v (through verif/ghash/tb_ghash_top.v) against the C model
 * (cmodel/ghash.h), the model against a private bit-by-bit reference of SP 800-38D
 * Algorithm 1, and the whole chain against OpenSSL's AES-GCM.
 *
 * Multiplier (combinational ports, checked with eval only):
 *   directed operands (0, the element 1 = 80 00..00, all ones, x, x^127, single bits),
 *   powers of H (DUT H^i * H^j == model H^(i+j)), random operands; each product against
 *   ibsec_gf128_mul, its unreduced half against ibsec_gf128_clmul, and random 255-bit
 *   polynomials through gf128_reduce against ibsec_gf128_reduce.
 *   Every pair of single-bit operands (128 x 128) through gf128_clmul and gf128_mul: both
 *   are XORs of ANDs of XORs of operand bits (Karatsuba), i.e. bilinear maps, and a
 *   bilinear map is fixed by its values on the pairs of basis vectors; the random
 *   operands check the rest.
 * Digit-serial multiplier gf128_mul_serial (clocked): the directed operands, every
 *   single-bit operand against a random one, chains H^i = H^(i-1) * H started back to
 *   back in the cycle of the previous result (what gcm_core's key install does), random
 *   operands with random gaps (the result must stay on m_y), a reset in the middle of a
 *   product; each product against ibsec_gf128_mul, the latency exactly
 *   128 / DIGIT_WIDTH + 1 cycles, s_ready low while a product runs.
 * Length term gcm_len_mul (combinational, 13-bit and 32-bit lengths): reduce(L * H)
 *   against ibsec_gf128_mul of the length block L = [8 alen]_64 || [8 clen]_64 and H:
 *   every pair of a single length bit and a single bit of H (the map is bilinear, as
 *   for the multipliers), zero and the largest lengths, random lengths and H.
 * Engine (clocked; built with NPOW = LANES + 1 as gcm_core builds it): a stream of
 *   messages with random H per message, 0..300 data blocks plus the length block, split
 *   into beats either LANES at a time (last beat shorter) or at random (any count
 *   0..LANES per beat), random idle cycles (with garbage on the data lines) or none at
 *   all (back-to-back), abandoned messages (no s_last), and occasional resets in the
 *   middle of a message. Half the messages end in a trailing zero block as gcm_core's
 *   do: the last beat counts one block more than it carries (lane k zero, or no lane
 *   when the beat is full: s_count = LANES + 1). Every result is compared with
 *   ibsec_ghash_serial (and, with no block beyond the lanes, with the beat-by-beat
 *   ibsec_ghash_fold_beat), and must come out exactly GHASH_LATENCY cycles after its
 *   last beat with that beat's s_user. One message in five is a real GCM message: its
 *   GHASH is also tag ^ E_K(J0) from OpenSSL.
 *
 * Usage: Vtb [--seed N] [--messages N]. Last line: "ghash-L<n>: N passed, N failed".
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ghash.h"
#include "tb_ghash.h"
#include "tb_util.h"

/* ghash_engine LATENCY (from the test top): last beat in cycle t -> m_valid in cycle
 * t + GHASH_LATENCY */
static unsigned ghash_latency;
#define GHASH_LATENCY ghash_latency
/* powers H^1..H^n the engine takes per beat (from the test top), at most MAX_HPOW */
static unsigned hpow_n;
#define MAX_HPOW (6 * IBSEC_MAX_LANES + 1)
/* data blocks per random message: 0..MAX_DATA_BLOCKS, plus the length block and a
 * trailing zero block */
#define MAX_DATA_BLOCKS 300
#define MAX_BLOCKS      (MAX_DATA_BLOCKS + 2)
#define MAX_BEATS       (4 * MAX_BLOCKS + 4)
#define MAX_WORDS       (4 * MAX_HPOW)
#define QUEUE_LEN       64

static const uint8_t GF_ZERO[16];
static const uint8_t GF_ONE[16] = {0x80};
static const uint8_t GF_X[16] = {0x40};
static const uint8_t GF_X127[16] = {[15] = 0x01};
static const uint8_t GF_R[16] = {0xe1}; /* x^128 mod P = 1 + x + x^2 + x^7 (SP 800-38D §6.3) */

static tb_result res;
static tb_rng rng;
static unsigned lanes;
static unsigned long cycle;

/* ------------------------------------------------------------------------------------ */
/* Private reference: SP 800-38D §6.3 Algorithm 1, one bit at a time                     */
/* ------------------------------------------------------------------------------------ */

static int block_bit(const uint8_t *b, unsigned i)
{
    return (b[i / 8] >> (7 - i % 8)) & 1;
}

static void ref_gf128_mul(const uint8_t x[16], const uint8_t y[16], uint8_t out[16])
{
    uint8_t z[16] = {0}, v[16];
    memcpy(v, y, 16);
    for (unsigned i = 0; i < 128; i++) {
        if (block_bit(x, i))
            for (unsigned k = 0; k < 16; k++)
                z[k] ^= v[k];
        int lsb = v[15] & 1; /* b127 of V */
        for (int k = 15; k > 0; k--)
            v[k] = (uint8_t)((v[k] >> 1) | (v[k - 1] << 7));
        v[0] >>= 1;
        if (lsb)
            v[0] ^= 0xe1; /* R = 11100001 || 0^120 */
    }
    memcpy(out, z, 16);
}

static void ref_ghash(uint8_t y[16], const uint8_t H[16], const uint8_t *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (unsigned k = 0; k < 16; k++)
            y[k] ^= blocks[16 * i + k];
        ref_gf128_mul(y, H, y);
    }
}

/* ------------------------------------------------------------------------------------ */
/* Port packing                                                                          */
/* ------------------------------------------------------------------------------------ */

static void pack16(uint32_t w[4], const uint8_t b[16])
{
    memset(w, 0, 16);
    tb_pack_block_be(w, 0, b);
}

static void unpack16(uint8_t b[16], const uint32_t w[4])
{
    tb_unpack_block_be(b, w, 0);
}

/* 255-bit vector p (x^d at bit 254-d) <-> the model's 32-byte layout (x^d = string bit d).
 * The string is p shifted left by one as a big-endian 256-bit number. */
static void prod_from_words(uint8_t prod[32], const uint32_t p[8])
{
    uint32_t q[8];
    for (int w = 7; w >= 0; w--)
        q[w] = (p[w] << 1) | (w ? p[w - 1] >> 31 : 0);
    tb_unpack_block_be(prod, q, 1);
    tb_unpack_block_be(prod + 16, q, 0);
}

static void prod_to_words(uint32_t p[8], const uint8_t prod[32])
{
    uint32_t q[8] = {0};
    tb_pack_block_be(q, 1, prod);
    tb_pack_block_be(q, 0, prod + 16);
    for (int w = 0; w < 8; w++)
        p[w] = (q[w] >> 1) | (w < 7 ? q[w + 1] << 31 : 0);
}

/* ------------------------------------------------------------------------------------ */
/* Multiplier checks                                                                     */
/* ------------------------------------------------------------------------------------ */

static void dut_mul_bytes(const uint8_t a[16], const uint8_t b[16], uint8_t y[16], uint8_t prod[32])
{
    uint32_t aw[4], bw[4], yw[4], pw[8];
    pack16(aw, a);
    pack16(bw, b);
    dut_mul(aw, bw, yw, pw);
    unpack16(y, yw);
    prod_from_words(prod, pw);
}

static void check_mul(const char *what, const uint8_t a[16], const uint8_t b[16])
{
    uint8_t y[16], prod[32], m[16], mp[32], r[16];
    char label[96];
    dut_mul_bytes(a, b, y, prod);
    ibsec_gf128_mul(a, b, m);
    ibsec_gf128_clmul(a, b, mp);
    ref_gf128_mul(a, b, r);
    snprintf(label, sizeof label, "model ibsec_gf128_mul vs Algorithm 1, %s", what);
    tb_check_bytes(&res, label, r, m, 16);
    snprintf(label, sizeof label, "gf128_mul, %s", what);
    tb_check_bytes(&res, label, m, y, 16);
    snprintf(label, sizeof label, "gf128_clmul, %s", what);
    tb_check_bytes(&res, label, mp, prod, 32);
}

static void check_reduce(const uint8_t prod[32])
{
    uint32_t pw[8], rw[4];
    uint8_t r[16], m[16];
    prod_to_words(pw, prod);
    dut_reduce(pw, rw);
    unpack16(r, rw);
    ibsec_gf128_reduce(prod, m);
    tb_check_bytes(&res, "gf128_reduce, random polynomial", m, r, 16);
}

static void rand_block(uint8_t b[16])
{
    switch (tb_rand_range(&rng, 0, 19)) {
    case 0: memset(b, 0, 16); break;
    case 1: memset(b, 0xff, 16); break;
    case 2: memcpy(b, GF_ONE, 16); break;
    default: tb_rand_bytes(&rng, b, 16); break;
    }
}

static void test_multiplier(void)
{
    uint8_t a[16], b[16], ones[16], y[16], prod[32];
    memset(ones, 0xff, 16);

    /* known answers from the definitions of SP 800-38D §6.3 */
    dut_mul_bytes(GF_X127, GF_X, y, prod);
    tb_check_bytes(&res, "gf128_mul x^127 * x = R (e1 00..00)", GF_R, y, 16);
    dut_mul_bytes(GF_ONE, GF_ONE, y, prod);
    tb_check_bytes(&res, "gf128_mul 1 * 1 = 1 (80 00..00)", GF_ONE, y, 16);

    /* directed */
    for (int n = 0; n < 20; n++) {
        tb_rand_bytes(&rng, a, 16);
        check_mul("0 * a", GF_ZERO, a);
        check_mul("a * 0", a, GF_ZERO);
        check_mul("1 * a", GF_ONE, a);
        check_mul("a * 1", a, GF_ONE);
        check_mul("x * a", GF_X, a);
        check_mul("a * all ones", a, ones);
    }
    check_mul("all ones * all ones", ones, ones);
    check_mul("x^127 * x^127", GF_X127, GF_X127);
    /* every single-bit operand: each partial-product row and each reduction tap */
    for (unsigned i = 0; i < 128; i++) {
        memset(a, 0, 16);
        a[i / 8] = (uint8_t)(0x80 >> (i % 8));
        memset(b, 0, 16);
        unsigned j = tb_rand_range(&rng, 0, 127);
        b[j / 8] = (uint8_t)(0x80 >> (j % 8));
        check_mul("single bits", a, b);
        tb_rand_bytes(&rng, b, 16);
        check_mul("single bit * random", a, b);
        check_mul("random * single bit", b, a);
    }

    /* powers of H: H^i * H^j computed by the DUT against the model's H^(i+j) */
    for (int n = 0; n < 8; n++) {
        uint8_t H[16];
        ibsec_hpow hp;
        rand_block(H);
        ibsec_hpow_init(&hp, H, IBSEC_MAX_LANES);
        tb_check_bytes(&res, "model hpow h[0] = 1", GF_ONE, hp.h[0], 16);
        for (int i = 1; i <= IBSEC_MAX_LANES; i++)
            for (int j = 1; i + j <= IBSEC_MAX_LANES; j++) {
                dut_mul_bytes(hp.h[i], hp.h[j], y, prod);
                tb_check_bytes(&res, "gf128_mul H^i * H^j = model H^(i+j)", hp.h[i + j], y, 16);
            }
        /* and the model's powers against the reference */
        uint8_t p[16];
        memcpy(p, GF_ONE, 16);
        for (int i = 1; i <= IBSEC_MAX_LANES; i++) {
            ref_gf128_mul(p, H, p);
            tb_check_bytes(&res, "model hpow vs Algorithm 1", p, hp.h[i], 16);
        }
    }

    /* random operands */
    for (int n = 0; n < 2000; n++) {
        rand_block(a);
        rand_block(b);
        check_mul("random", a, b);
    }
    /* reduction alone, on random polynomials of degree <= 254 */
    for (int n = 0; n < 1000; n++) {
        if (n < 2)
            memset(prod, n ? 0xff : 0x00, 32); /* all zeros, all ones */
        else
            tb_rand_bytes(&rng, prod, 32);
        prod[31] &= 0xfe; /* b255 does not exist */
        check_reduce(prod);
    }
}

/* every pair of single-bit operands; one check per multiplier (the first mismatch shown) */
static void test_basis_pairs(void)
{
    uint8_t a[16], b[16], y[16], prod[32], m[16], mp[32];
    unsigned bad_mul = 0, bad_clmul = 0;
    for (unsigned i = 0; i < 128; i++) {
        for (unsigned j = 0; j < 128; j++) {
            memset(a, 0, 16);
            memset(b, 0, 16);
            a[i / 8] = (uint8_t)(0x80 >> (i % 8));
            b[j / 8] = (uint8_t)(0x80 >> (j % 8));
            dut_mul_bytes(a, b, y, prod);
            ibsec_gf128_mul(a, b, m);
            ibsec_gf128_clmul(a, b, mp);
            if (memcmp(m, y, 16) && bad_mul++ == 0)
                tb_check_bytes(&res, "gf128_mul, single-bit pair", m, y, 16);
            if (memcmp(mp, prod, 32) && bad_clmul++ == 0)
                tb_check_bytes(&res, "gf128_clmul, single-bit pair", mp, prod, 32);
        }
    }
    if (bad_mul)
        tb_fail(&res, "gf128_mul: %u of 16384 single-bit pairs wrong", bad_mul);
    else
        tb_pass(&res);
    if (bad_clmul)
        tb_fail(&res, "gf128_clmul: %u of 16384 single-bit pairs wrong", bad_clmul);
    else
        tb_pass(&res);
}

/* ------------------------------------------------------------------------------------ */
/* Length term gcm_len_mul: reduce(L * H), L = [8 alen]_64 || [8 clen]_64                  */
/* ------------------------------------------------------------------------------------ */

static unsigned long n_len;

/* the length block of SP 800-38D §7.1 step 5, lengths in bits */
static void length_block(uint8_t L[16], uint64_t alen, uint64_t clen)
{
    uint64_t a = 8 * alen, c = 8 * clen;
    for (int k = 7; k >= 0; k--, a >>= 8, c >>= 8) {
        L[k] = (uint8_t)a;
        L[8 + k] = (uint8_t)c;
    }
}

/* both instances against the model; returns the number of wrong results (quiet unless
 * report: the basis loop reports only its first mismatch) */
static unsigned check_len_mul(uint32_t alen, uint32_t clen, const uint8_t H[16], int report)
{
    uint32_t hw[4], p13[4], p32[4];
    uint8_t L[16], want13[16], want32[16], got13[16], got32[16];
    unsigned bad = 0;
    pack16(hw, H);
    dut_len_mul(alen, clen, hw, p13, p32);
    unpack16(got13, p13);
    unpack16(got32, p32);
    length_block(L, alen & 0x1fff, clen & 0x1fff);
    ibsec_gf128_mul(L, H, want13);
    length_block(L, alen, clen);
    ibsec_gf128_mul(L, H, want32);
    if (memcmp(want13, got13, 16)) {
        bad++;
        if (report)
            tb_check_bytes(&res, "gcm_len_mul (13-bit lengths) vs model L * H", want13, got13, 16);
    }
    if (memcmp(want32, got32, 16)) {
        bad++;
        if (report)
            tb_check_bytes(&res, "gcm_len_mul (32-bit lengths) vs model L * H", want32, got32, 16);
    }
    n_len += 2;
    return bad;
}

static void test_len_mul(void)
{
    uint8_t H[16];
    unsigned bad = 0;
    /* every single length bit (alen bits 0..31, then clen bits 0..31) with every single
     * bit of H: L * H is bilinear in (L, H) */
    for (unsigned i = 0; i < 64; i++) {
        for (unsigned j = 0; j < 128; j++) {
            memset(H, 0, 16);
            H[j / 8] = (uint8_t)(0x80 >> (j % 8));
            uint32_t bit = 1u << (i % 32);
            bad += check_len_mul(i < 32 ? bit : 0, i < 32 ? 0 : bit, H, bad == 0);
        }
    }
    if (bad)
        tb_fail(&res, "gcm_len_mul: %u of 16384 results wrong (8192 single-bit pairs, two widths)", bad);
    else
        tb_pass(&res);

    /* directed lengths: zero, the largest of each width, a frame's largest (4275) */
    static const uint32_t lens[] = {0, 1, 0x1fff, 0x2000, 4275, 0xffffffffu, 0x80000000u};
    for (size_t a = 0; a < sizeof lens / sizeof lens[0]; a++)
        for (size_t c = 0; c < sizeof lens / sizeof lens[0]; c++) {
            rand_block(H);
            if (!check_len_mul(lens[a], lens[c], H, 1))
                tb_pass(&res);
            memset(H, 0xff, 16);
            if (!check_len_mul(lens[a], lens[c], H, 1))
                tb_pass(&res);
        }
    /* random lengths (a byte count of up to 32 bits, or of a packet) and H */
    for (int n = 0; n < 2000; n++) {
        uint32_t alen = tb_chance(&rng, 50) ? tb_rand32(&rng) : tb_rand_range(&rng, 0, 200);
        uint32_t clen = tb_chance(&rng, 50) ? tb_rand32(&rng) : tb_rand_range(&rng, 0, 4300);
        rand_block(H);
        if (!check_len_mul(alen, clen, H, 1))
            tb_pass(&res);
    }
}

/* ------------------------------------------------------------------------------------ */
/* Digit-serial multiplier (clocked; the engine idles meanwhile)                          */
/* ------------------------------------------------------------------------------------ */

static void drive_idle(void);
static unsigned ser_latency;           /* 128 / DIGIT_WIDTH + 1 */
static unsigned long n_ser;

/* One product on gf128_mul_serial, started in the current cycle (s_ready must be high).
 * Returns in the cycle its m_valid is high, without a clock edge after it, so the next
 * call starts the next product back to back; 0 when the result came. */
static int ser_product(const char *what, const uint8_t a[16], const uint8_t b[16], uint8_t y[16])
{
    uint32_t aw[4], bw[4], yw[4], zw[4];
    uint8_t m[16];
    char label[96];
    int ready;
    ibsec_gf128_mul(a, b, m); /* before y is written: y may be a or b */
    pack16(aw, a);
    pack16(bw, b);
    dut_ser_set(1, aw, bw);
    dut_ser_out(&ready, yw);
    if (!ready)
        tb_fail(&res, "gf128_mul_serial: s_ready low when idle (%s)", what);
    drive_idle();
    /* garbage operands from now on: the multiplier must have taken its own copy */
    for (unsigned w = 0; w < 4; w++)
        zw[w] = tb_rand32(&rng);
    dut_ser_set(0, zw, zw);
    for (unsigned t = 1; t <= ser_latency + 4; t++) {
        int done = dut_ser_out(&ready, yw);
        if (done) {
            snprintf(label, sizeof label, "gf128_mul_serial latency, %s", what);
            tb_check_u64(&res, label, ser_latency, t);
            snprintf(label, sizeof label, "gf128_mul_serial s_ready with m_valid, %s", what);
            tb_check_u64(&res, label, 1, (uint64_t)ready);
            unpack16(y, yw);
            snprintf(label, sizeof label, "gf128_mul_serial, %s", what);
            tb_check_bytes(&res, label, m, y, 16);
            n_ser++;
            return 0;
        }
        if (ready) {
            tb_fail(&res, "gf128_mul_serial: s_ready high while a product runs (%s)", what);
            return -1;
        }
        drive_idle();
    }
    tb_fail(&res, "gf128_mul_serial: no m_valid within %u cycles (%s)", ser_latency + 4, what);
    return -1;
}

/* idle cycles with s_valid low; the held result must stay on m_y, m_valid low */
static void ser_gap(unsigned n, const uint8_t y[16])
{
    uint32_t zw[4], yw[4];
    uint8_t got[16];
    int ready;
    for (unsigned w = 0; w < 4; w++)
        zw[w] = tb_rand32(&rng);
    dut_ser_set(0, zw, zw);
    for (unsigned i = 0; i < n; i++) {
        drive_idle();
        int done = dut_ser_out(&ready, yw);
        unpack16(got, yw);
        if (done || !ready || memcmp(got, y, 16)) {
            tb_fail(&res, "gf128_mul_serial: result not held %u cycles after m_valid", i + 1);
            return;
        }
    }
}

static void test_serial(void)
{
    uint8_t a[16], b[16], y[16], ones[16], p[16];
    uint32_t zw[4] = {0}, yw[4];
    int ready;
    memset(ones, 0xff, 16);
    ser_latency = 128 / dut_ser_digit() + 1;

    ser_product("x^127 * x", GF_X127, GF_X, y);
    tb_check_bytes(&res, "gf128_mul_serial x^127 * x = R (e1 00..00)", GF_R, y, 16);
    ser_product("1 * 1", GF_ONE, GF_ONE, y);
    ser_product("all ones * all ones", ones, ones, y);
    for (int n = 0; n < 4; n++) {
        tb_rand_bytes(&rng, a, 16);
        ser_product("0 * a", GF_ZERO, a, y);
        ser_product("a * 0", a, GF_ZERO, y);
        ser_product("1 * a", GF_ONE, a, y);
        ser_product("a * 1", a, GF_ONE, y);
        ser_product("x * a", GF_X, a, y);
    }
    for (unsigned i = 0; i < 128; i++) {
        memset(a, 0, 16);
        a[i / 8] = (uint8_t)(0x80 >> (i % 8));
        tb_rand_bytes(&rng, b, 16);
        ser_product("single bit * random", a, b, y);
        ser_product("random * single bit", b, a, y);
    }
    /* H^i = H^(i-1) * H, each started in the cycle of the previous result */
    for (int n = 0; n < 8; n++) {
        uint8_t H[16];
        ibsec_hpow hp;
        rand_block(H);
        ibsec_hpow_init(&hp, H, IBSEC_MAX_LANES);
        memcpy(p, H, 16);
        for (int i = 2; i <= IBSEC_MAX_LANES; i++) {
            if (ser_product("H^(i-1) * H", p, H, p))
                break;
            tb_check_bytes(&res, "gf128_mul_serial H^i = model H^i", hp.h[i], p, 16);
        }
        ser_gap(tb_rand_range(&rng, 1, 3), p);
    }
    /* random operands, random gaps */
    for (int n = 0; n < 300; n++) {
        rand_block(a);
        rand_block(b);
        if (ser_product("random", a, b, y) == 0)
            ser_gap(tb_rand_range(&rng, 0, 3), y);
    }
    /* a reset in the middle of a product: idle afterwards, no result */
    rand_block(a);
    rand_block(b);
    pack16(zw, a);
    pack16(yw, b);
    dut_ser_set(1, zw, yw);
    drive_idle();
    dut_ser_set(0, zw, yw);
    for (unsigned i = tb_rand_range(&rng, 1, ser_latency - 2); i > 0; i--)
        drive_idle();
    dut_set_rst(1);
    drive_idle();
    dut_set_rst(0);
    for (unsigned i = 0; i < ser_latency + 2; i++) {
        if (dut_ser_out(&ready, yw) || !ready) {
            tb_fail(&res, "gf128_mul_serial: busy or m_valid after a reset");
            break;
        }
        drive_idle();
    }
    ser_product("random after a reset", a, b, y);
    ser_gap(1, y);
}

/* ------------------------------------------------------------------------------------ */
/* OpenSSL: an independent GHASH = tag ^ E_K(J0) of a real GCM message                  */
/* ------------------------------------------------------------------------------------ */

static int ossl_ok(int rc)
{
    if (rc != 1)
        tb_fail(&res, "OpenSSL call failed");
    return rc == 1;
}

static void ossl_aes_block(const uint8_t *key, int klen, const uint8_t in[16], uint8_t out[16])
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int outl = 0;
    ossl_ok(EVP_EncryptInit_ex(c, klen == 16 ? EVP_aes_128_ecb() : EVP_aes_256_ecb(), NULL, key, NULL));
    EVP_CIPHER_CTX_set_padding(c, 0);
    ossl_ok(EVP_EncryptUpdate(c, out, &outl, in, 16));
    EVP_CIPHER_CTX_free(c);
}

static void ossl_gcm_seal(const uint8_t *key, int klen, const uint8_t iv[12], const uint8_t *aad, int alen,
                          const uint8_t *pt, int plen, uint8_t *ct, uint8_t tag[16])
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int outl = 0;
    ossl_ok(EVP_EncryptInit_ex(c, klen == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm(), NULL, NULL, NULL));
    ossl_ok(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, 12, NULL));
    ossl_ok(EVP_EncryptInit_ex(c, NULL, NULL, key, iv));
    if (alen)
        ossl_ok(EVP_EncryptUpdate(c, NULL, &outl, aad, alen));
    if (plen)
        ossl_ok(EVP_EncryptUpdate(c, ct, &outl, pt, plen));
    ossl_ok(EVP_EncryptFinal_ex(c, ct + plen, &outl));
    ossl_ok(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag));
    EVP_CIPHER_CTX_free(c);
}

static void store_be64(uint8_t *p, uint64_t v)
{
    for (int k = 7; k >= 0; k--, v >>= 8)
        p[k] = (uint8_t)v;
}

/* ------------------------------------------------------------------------------------ */
/* Messages                                                                              */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    uint32_t id;
    uint8_t H[16];
    ibsec_hpow hp;
    uint8_t blocks[MAX_BLOCKS][16];
    size_t nblocks;
    uint8_t hpow[MAX_HPOW + 1][16]; /* H^i at [i], i = 1..hpow_n: the engine's s_hpow */
    unsigned beat_k[MAX_BEATS];
    size_t nbeats;
    int tail_zero;          /* the last block is a zero block counted by the last beat */
    int abandoned;          /* no s_last: no result expected */
    uint8_t expect[16];
} message;

/* the engine's powers of the message's H, by repeated multiplication with the model */
static void make_hpow(message *m)
{
    memcpy(m->hpow[1], m->H, 16);
    for (unsigned i = 2; i <= hpow_n; i++)
        ibsec_gf128_mul(m->hpow[i - 1], m->H, m->hpow[i]);
}

/* fills blocks: A || 0-pad || C || 0-pad || [len(A)]64 || [len(C)]64, SP 800-38D §7.1 */
static void make_gcm_message(message *m)
{
    uint8_t key[32], iv[12], aad[64], pt[MAX_DATA_BLOCKS * 16], ct[MAX_DATA_BLOCKS * 16 + 16];
    uint8_t tag[16], j0[16] = {0}, ekj0[16], want[16];
    int klen = tb_chance(&rng, 50) ? 16 : 32;
    int alen = (int)tb_rand_range(&rng, 0, 48);
    int plen = tb_chance(&rng, 80) ? (int)tb_rand_range(&rng, 0, 300) : (int)tb_rand_range(&rng, 0, 4000);
    tb_rand_bytes(&rng, key, sizeof key);
    tb_rand_bytes(&rng, iv, sizeof iv);
    tb_rand_bytes(&rng, aad, sizeof aad);
    tb_rand_bytes(&rng, pt, (size_t)plen);
    ossl_gcm_seal(key, klen, iv, aad, alen, pt, plen, ct, tag);
    ossl_aes_block(key, klen, GF_ZERO, m->H);  /* H = E_K(0^128) */
    memcpy(j0, iv, 12);
    j0[15] = 1;                                 /* J0 = IV || 0^31 || 1 */
    ossl_aes_block(key, klen, j0, ekj0);

    memset(m->blocks, 0, sizeof m->blocks);
    size_t na = ((size_t)alen + 15) / 16, nc = ((size_t)plen + 15) / 16;
    memcpy(m->blocks[0], aad, (size_t)alen);
    memcpy(m->blocks[na], ct, (size_t)plen);
    store_be64(m->blocks[na + nc], 8 * (uint64_t)alen);
    store_be64(m->blocks[na + nc] + 8, 8 * (uint64_t)plen);
    m->nblocks = na + nc + 1;

    for (int k = 0; k < 16; k++)
        want[k] = tag[k] ^ ekj0[k];
    uint8_t y[16] = {0};
    ibsec_ghash_serial(y, m->H, &m->blocks[0][0], m->nblocks);
    tb_check_bytes(&res, "model ibsec_ghash_serial vs OpenSSL tag ^ E_K(J0)", want, y, 16);
}

static void make_random_message(message *m)
{
    rand_block(m->H);
    size_t nd;
    if (tb_chance(&rng, 1)) {
        m->nblocks = 0; /* empty message: one beat with no block */
        return;
    }
    if (tb_chance(&rng, 50))
        nd = tb_rand_range(&rng, 0, MAX_DATA_BLOCKS);
    else
        nd = tb_rand_range(&rng, 0, 3 * lanes + 1);
    for (size_t i = 0; i < nd; i++)
        rand_block(m->blocks[i]);
    /* the length block: all bits of the data as ciphertext, or split with the AAD */
    uint64_t bits = 128 * (uint64_t)nd, abits = 128 * (uint64_t)tb_rand_range(&rng, 0, (uint32_t)nd);
    store_be64(m->blocks[nd], abits);
    store_be64(m->blocks[nd] + 8, bits - abits);
    m->nblocks = nd + 1;
}

/* beat split: LANES at a time with a shorter last beat, or random counts 0..LANES */
static void split_beats(message *m)
{
    m->nbeats = 0;
    if (m->nblocks == 0) {
        m->beat_k[m->nbeats++] = 0;
        return;
    }
    int random_split = tb_chance(&rng, 30);
    size_t left = m->nblocks;
    while (left) {
        unsigned k;
        if (random_split)
            k = tb_rand_range(&rng, 0, lanes);
        else
            k = lanes;
        if (k > left)
            k = (unsigned)left;
        if (m->nbeats >= MAX_BEATS / 2) /* bounds the beat count: no more empty beats */
            k = left > lanes ? lanes : (unsigned)left;
        m->beat_k[m->nbeats++] = k;
        left -= k;
    }
    if (random_split && tb_chance(&rng, 10) && m->nbeats < MAX_BEATS)
        m->beat_k[m->nbeats++] = 0; /* an empty last beat */
}

/* a trailing zero block, counted by the last beat (in lane k, or beyond the lanes when
 * the beat is full): gcm_core's last beat */
static void add_tail_zero(message *m)
{
    memset(m->blocks[m->nblocks], 0, 16);
    m->nblocks++;
    m->beat_k[m->nbeats - 1]++;
    m->tail_zero = 1;
}

static void make_message(message *m, uint32_t id)
{
    m->id = id;
    if (tb_chance(&rng, 20))
        make_gcm_message(m);
    else
        make_random_message(m);
    ibsec_hpow_init(&m->hp, m->H, (int)lanes);
    make_hpow(m);
    split_beats(m);
    m->tail_zero = 0;
    if (tb_chance(&rng, 50))
        add_tail_zero(m);
    m->abandoned = tb_chance(&rng, 2);

    /* expected: serial model; the beat-by-beat fold (beats within the lanes) and the
     * reference must agree */
    uint8_t ys[16] = {0}, yf[16] = {0}, yr[16] = {0};
    ibsec_ghash_serial(ys, m->H, &m->blocks[0][0], m->nblocks);
    ref_ghash(yr, m->H, &m->blocks[0][0], m->nblocks);
    tb_check_bytes(&res, "model ibsec_ghash_serial vs Algorithm 1", yr, ys, 16);
    if (m->beat_k[m->nbeats - 1] <= lanes) {
        size_t off = 0;
        for (size_t b = 0; b < m->nbeats; b++) {
            if (m->beat_k[b])
                ibsec_ghash_fold_beat(yf, &m->hp, &m->blocks[off][0], (int)m->beat_k[b]);
            off += m->beat_k[b];
        }
        tb_check_bytes(&res, "model ibsec_ghash_fold_beat vs ibsec_ghash_serial", ys, yf, 16);
    }
    memcpy(m->expect, ys, 16);
}

/* ------------------------------------------------------------------------------------ */
/* Engine driver: results expected in order, each at a known cycle                       */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    uint32_t id;
    unsigned long due;
    uint8_t s[16];
} expectation;

static expectation queue[QUEUE_LEN];
static unsigned q_head, q_count;
static unsigned long n_results, n_beats, n_idle, n_resets, n_messages, n_beyond;

static void expect_result(uint32_t id, unsigned long due, const uint8_t s[16])
{
    if (q_count == QUEUE_LEN) {
        tb_fail(&res, "harness queue overflow");
        return;
    }
    expectation *e = &queue[(q_head + q_count++) % QUEUE_LEN];
    e->id = id;
    e->due = due;
    memcpy(e->s, s, 16);
}

/* checks this cycle's outputs, then one clock edge */
static void step(void)
{
    uint32_t gw[4], user;
    int valid = dut_result(gw, &user);
    expectation *e = q_count ? &queue[q_head] : NULL;
    if (e && e->due == cycle) {
        char what[64];
        snprintf(what, sizeof what, "ghash_engine S of message %u", (unsigned)e->id);
        if (!valid) {
            tb_fail(&res, "message %u: no m_valid in cycle %lu (last beat + %u)", (unsigned)e->id, cycle,
                    GHASH_LATENCY);
        } else {
            uint8_t s[16];
            unpack16(s, gw);
            if (tb_check_bytes(&res, what, e->s, s, 16))
                n_results++;
            tb_check_u64(&res, "ghash_engine m_user", e->id, user);
        }
        q_head = (q_head + 1) % QUEUE_LEN;
        q_count--;
    } else if (valid) {
        tb_fail(&res, "unexpected m_valid in cycle %lu (m_user %u)", cycle, (unsigned)user);
    }
    dut_tick();
    cycle++;
}

static void drive_idle(void)
{
    uint32_t bw[MAX_WORDS], hw[MAX_WORDS];
    for (unsigned w = 0; w < MAX_WORDS; w++) {
        bw[w] = tb_rand32(&rng);
        hw[w] = tb_rand32(&rng);
    }
    /* garbage on every line but s_valid */
    dut_set_beat(0, bw, tb_rand_range(&rng, 0, lanes + 1), hw, (int)tb_rand_range(&rng, 0, 1),
                 (int)tb_rand_range(&rng, 0, 1), tb_rand32(&rng));
    n_idle++;
    step();
}

static void reset_engine(void)
{
    /* results due after the first reset edge are lost */
    unsigned long r = cycle;
    while (q_count && queue[(q_head + q_count - 1) % QUEUE_LEN].due > r)
        q_count--;
    unsigned n = tb_rand_range(&rng, 1, 3);
    dut_set_rst(1);
    for (unsigned i = 0; i < n; i++)
        drive_idle();
    dut_set_rst(0);
    n_resets++;
}

/* reset_beat: the beat index before which a reset cuts the message short, or -1;
 * returns 0 if it did */
static int drive_message(const message *m, unsigned idle_pct, long reset_beat)
{
    uint32_t bw[MAX_WORDS], hw[MAX_WORDS];
    size_t off = 0;
    memset(hw, 0, sizeof hw);
    for (unsigned i = 0; i < hpow_n; i++)
        tb_pack_block_be(hw, i, m->hpow[i + 1]);
    for (size_t b = 0; b < m->nbeats; b++) {
        while (idle_pct && tb_chance(&rng, idle_pct))
            drive_idle();
        if ((long)b == reset_beat) {
            reset_engine();
            return 0;
        }
        unsigned k = m->beat_k[b];
        for (unsigned i = 0; i < lanes; i++) {
            if (i < k) {
                tb_pack_block_be(bw, i, m->blocks[off + i]);
            } else {
                uint8_t junk[16];
                tb_rand_bytes(&rng, junk, 16); /* lanes >= s_count must be ignored */
                tb_pack_block_be(bw, i, junk);
            }
        }
        int last = b + 1 == m->nbeats && !m->abandoned;
        if (k > lanes) /* the trailing zero block beyond the lanes */
            n_beyond++;
        dut_set_beat(1, bw, k, hw, b == 0, last, m->id);
        if (last)
            expect_result(m->id, cycle + GHASH_LATENCY, m->expect);
        off += k;
        n_beats++;
        step();
    }
    return 1;
}

static void drain(void)
{
    for (unsigned i = 0; i < GHASH_LATENCY + 4; i++)
        drive_idle();
    if (q_count)
        tb_fail(&res, "%u results never came out", q_count);
}

/* GCM test case 2 (McGrew & Viega, "The Galois/Counter Mode of Operation", Appendix B):
 * K = 0^128, P = 0^128: H, C and GHASH(H, {}, C) = T ^ E_K(Y0). */
static void known_answer(message *m)
{
    static const uint8_t H[16] = {0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b,
                                  0x88, 0x4c, 0xfa, 0x59, 0xca, 0x34, 0x2b, 0x2e};
    static const uint8_t C[16] = {0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92,
                                  0xf3, 0x28, 0xc2, 0xb9, 0x71, 0xb2, 0xfe, 0x78};
    static const uint8_t S[16] = {0xf3, 0x8c, 0xbb, 0x1a, 0xd6, 0x92, 0x23, 0xdc,
                                  0xc3, 0x45, 0x7a, 0xe5, 0xb6, 0xb0, 0xf8, 0x85};
    memset(m, 0, sizeof *m);
    memcpy(m->H, H, 16);
    memcpy(m->blocks[0], C, 16);
    m->blocks[1][15] = 0x80; /* [len(A)]64 = 0 || [len(C)]64 = 128 */
    m->nblocks = 2;
    ibsec_hpow_init(&m->hp, H, (int)lanes);
    make_hpow(m);
    m->nbeats = 0;
    for (size_t left = m->nblocks; left;) {
        unsigned k = left < lanes ? (unsigned)left : lanes;
        m->beat_k[m->nbeats++] = k;
        left -= k;
    }
    memcpy(m->expect, S, 16);
    uint8_t y[16] = {0};
    ibsec_ghash_serial(y, H, &m->blocks[0][0], 2);
    tb_check_bytes(&res, "model GHASH, GCM test case 2", S, y, 16);
    drive_message(m, 0, -1);
}

int tb_ghash_main(int argc, char **argv)
{
    static char name[32];
    static message msg;
    unsigned long seed = 1, messages = 3000;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--seed"))
            seed = strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--messages"))
            messages = strtoul(argv[++i], NULL, 0);
    }
    lanes = dut_lanes();
    hpow_n = dut_hpow();
    ghash_latency = dut_ghash_latency();
    if (hpow_n < lanes + 1 || hpow_n > MAX_HPOW) {
        fprintf(stderr, "tb_ghash: the engine takes %u powers of H, this harness %u..%u\n",
                hpow_n, lanes + 1, MAX_HPOW);
        return 1;
    }
    snprintf(name, sizeof name, "ghash-L%u", lanes);
    tb_result_init(&res, name);
    tb_rng_seed(&rng, seed);

    test_multiplier();
    test_basis_pairs();
    test_len_mul();
    unsigned long mul_checks = res.passed + res.failed;

    dut_set_rst(1);
    for (int i = 0; i < 3; i++)
        drive_idle();
    dut_set_rst(0);

    test_serial();

    known_answer(&msg);
    /* phases of 100 messages: back-to-back, light idle, heavy idle; in every third
     * phase one message in 20 is cut by a reset at a random beat */
    for (unsigned long n = 0; n < messages; n++) {
        static const unsigned idle_pcts[4] = {0, 0, 5, 40};
        unsigned phase = (unsigned)(n / 100);
        unsigned idle_pct = idle_pcts[phase % 4];
        make_message(&msg, (uint32_t)(n + 1));
        long reset_beat = -1;
        if (phase % 3 == 2 && tb_chance(&rng, 5))
            reset_beat = (long)tb_rand_range(&rng, 0, (uint32_t)msg.nbeats - 1);
        drive_message(&msg, idle_pct, reset_beat);
        n_messages++;
    }
    drain();

    printf("ghash-L%u: seed %lu, %lu multiplier checks (16384 single-bit pairs each for "
           "gf128_clmul and gf128_mul), %lu gcm_len_mul checks, %lu serial products (latency "
           "%u); %lu messages, %lu results checked, %lu beats (%lu with a zero block beyond "
           "the lanes), %lu idle cycles, %lu resets, %lu cycles\n",
           lanes, seed, mul_checks, n_len, n_ser, ser_latency, n_messages, n_results, n_beats,
           n_beyond, n_idle, n_resets, cycle);
    int rc = tb_summary(&res);
    dut_finish();
    return rc;
}
