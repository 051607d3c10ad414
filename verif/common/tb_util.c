/* tb_util.c — see tb_util.h. */
#include "tb_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tb_rng_seed(tb_rng *r, uint64_t seed)
{
    /* splitmix64 step so that small seeds still give well-mixed states; never zero */
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    r->s = z ? z : 1;
}

uint64_t tb_rand64(tb_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

uint32_t tb_rand32(tb_rng *r)
{
    return (uint32_t)(tb_rand64(r) >> 32);
}

uint32_t tb_rand_range(tb_rng *r, uint32_t lo, uint32_t hi)
{
    uint64_t span = (uint64_t)hi - lo + 1;
    return lo + (uint32_t)(tb_rand64(r) % span);
}

int tb_chance(tb_rng *r, unsigned pct)
{
    return (tb_rand64(r) % 100) < pct;
}

void tb_rand_bytes(tb_rng *r, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(tb_rand64(r) >> 56);
}

void tb_result_init(tb_result *res, const char *name)
{
    res->name = name;
    res->passed = 0;
    res->failed = 0;
}

void tb_hex(char *out, const uint8_t *p, size_t n)
{
    static const char dig[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = dig[p[i] >> 4];
        out[2 * i + 1] = dig[p[i] & 15];
    }
    out[2 * n] = 0;
}

static void print_hex_line(const char *label, const uint8_t *p, size_t n)
{
    size_t shown = n > 64 ? 64 : n;
    char buf[2 * 64 + 1];
    tb_hex(buf, p, shown);
    printf("    %-9s %s%s\n", label, buf, shown < n ? "..." : "");
}

int tb_check_bytes(tb_result *res, const char *what, const uint8_t *exp, const uint8_t *got, size_t n)
{
    if (memcmp(exp, got, n) == 0) {
        res->passed++;
        return 1;
    }
    res->failed++;
    if (res->failed <= TB_MAX_REPORTS) {
        size_t first = 0;
        while (first < n && exp[first] == got[first])
            first++;
        printf("MISMATCH %s: %s (%zu bytes, first difference at byte %zu)\n", res->name, what, n, first);
        print_hex_line("expected", exp, n);
        print_hex_line("got", got, n);
    }
    return 0;
}

int tb_check_u64(tb_result *res, const char *what, uint64_t exp, uint64_t got)
{
    if (exp == got) {
        res->passed++;
        return 1;
    }
    res->failed++;
    if (res->failed <= TB_MAX_REPORTS)
        printf("MISMATCH %s: %s expected 0x%llx got 0x%llx\n", res->name, what,
               (unsigned long long)exp, (unsigned long long)got);
    return 0;
}

void tb_fail(tb_result *res, const char *fmt, ...)
{
    res->failed++;
    if (res->failed <= TB_MAX_REPORTS) {
        va_list ap;
        printf("FAIL %s: ", res->name);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
}

void tb_pass(tb_result *res)
{
    res->passed++;
}

int tb_summary(const tb_result *res)
{
    printf("%s: %lu passed, %lu failed\n", res->name, res->passed, res->failed);
    fflush(stdout);
    return res->failed ? 1 : 0;
}

void tb_pack_axis(uint32_t *words, size_t nwords, const uint8_t *bytes, size_t nbytes)
{
    memset(words, 0, nwords * sizeof(uint32_t));
    for (size_t j = 0; j < nbytes && j / 4 < nwords; j++)
        words[j / 4] |= (uint32_t)bytes[j] << (8 * (j % 4));
}

void tb_unpack_axis(uint8_t *bytes, size_t nbytes, const uint32_t *words)
{
    for (size_t j = 0; j < nbytes; j++)
        bytes[j] = (uint8_t)(words[j / 4] >> (8 * (j % 4)));
}

int tb_axis_frame_beat(tb_rng *r, const uint8_t *frame, size_t n, size_t beat_idx, unsigned bpb,
                       uint32_t *data, uint32_t *keep)
{
    uint8_t beat[16 * 12];
    size_t off = beat_idx * bpb, take = n - off < bpb ? n - off : bpb;
    memcpy(beat, frame + off, take);
    for (size_t j = take; j < bpb; j++)
        beat[j] = (uint8_t)tb_rand32(r);
    memset(keep, 0, (bpb + 31) / 32 * sizeof *keep);
    for (size_t j = 0; j < take; j++)
        keep[j / 32] |= 1u << (j % 32);
    tb_pack_axis(data, bpb / 4, beat, bpb);
    return off + take == n;
}

unsigned tb_axis_keep_bytes(const uint32_t *keep, unsigned bpb)
{
    unsigned nk = 0;
    while (nk < bpb && (keep[nk / 32] >> (nk % 32) & 1u))
        nk++;
    return nk;
}

void tb_pack_block_be(uint32_t *words, unsigned lane, const uint8_t block[16])
{
    /* block byte k sits at bits [128*lane + 127 - 8k -: 8], i.e. little-endian byte 15-k of the lane */
    for (unsigned k = 0; k < 16; k++) {
        unsigned bit = 128 * lane + 8 * (15 - k);
        words[bit / 32] &= ~((uint32_t)0xFF << (bit % 32));
        words[bit / 32] |= (uint32_t)block[k] << (bit % 32);
    }
}

void tb_unpack_block_be(uint8_t block[16], const uint32_t *words, unsigned lane)
{
    for (unsigned k = 0; k < 16; k++) {
        unsigned bit = 128 * lane + 8 * (15 - k);
        block[k] = (uint8_t)(words[bit / 32] >> (bit % 32));
    }
}
