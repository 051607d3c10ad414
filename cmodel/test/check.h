/*
 * check.h — the check/summary helper of the C model's tests (cmodel/test/test_*.c).
 *
 * A test owns one check_ctx, counts every comparison in it, and ends with
 *     return check_summary(&c);
 * which prints "<name>: N passed, N failed" as the test's last line (scripts/run_tests.sh
 * collects it) and returns the process exit status: 0 only when nothing failed.
 * A failing comparison prints what was compared with the expected and the actual value
 * in hex, for the first CHECK_MAX_REPORTS failures (then only counts).
 *
 * Header-only (static inline) so each test stays a single translation unit, as
 * cmodel/cmodel.mk builds them. Also: hex-string parsing for known-answer tables.
 */
#ifndef IBSEC_CHECK_H
#define IBSEC_CHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CHECK_MAX_REPORTS 20

typedef struct {
    const char *name;
    unsigned long passed;
    unsigned long failed;
} check_ctx;

static inline void check_init(check_ctx *c, const char *name)
{
    c->name = name;
    c->passed = 0;
    c->failed = 0;
}

static inline void check_print_hex(FILE *f, const uint8_t *p, size_t n)
{
    if (n == 0)
        fputs("(empty)", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", p[i]);
}

/* Counts a failure and prints the formatted reason (first CHECK_MAX_REPORTS only). */
static inline void check_failf(check_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void check_failf(check_ctx *c, const char *fmt, ...)
{
    c->failed++;
    if (c->failed <= CHECK_MAX_REPORTS) {
        va_list ap;
        fprintf(stdout, "FAIL %s: ", c->name);
        va_start(ap, fmt);
        vfprintf(stdout, fmt, ap);
        va_end(ap);
        fputc('\n', stdout);
        if (c->failed == CHECK_MAX_REPORTS)
            fprintf(stdout, "FAIL %s: (further failures are counted, not printed)\n", c->name);
    }
}

/* Counts one check of a condition; returns cond. */
static inline int check_true(check_ctx *c, int cond, const char *what)
{
    if (cond)
        c->passed++;
    else
        check_failf(c, "%s", what);
    return cond;
}

/* Counts one check that n bytes match; on mismatch prints both in hex. Returns 1 on match. */
static inline int check_bytes(check_ctx *c, const char *what,
                              const uint8_t *expected, const uint8_t *got, size_t n)
{
    if (n == 0 || memcmp(expected, got, n) == 0) {
        c->passed++;
        return 1;
    }
    c->failed++;
    if (c->failed <= CHECK_MAX_REPORTS) {
        fprintf(stdout, "FAIL %s: %s\n  expected ", c->name, what);
        check_print_hex(stdout, expected, n);
        fputs("\n  got      ", stdout);
        check_print_hex(stdout, got, n);
        fputc('\n', stdout);
    }
    return 0;
}

/* Counts one check that two integers are equal; on mismatch prints both. */
static inline int check_int(check_ctx *c, const char *what, long long expected, long long got)
{
    if (expected == got) {
        c->passed++;
        return 1;
    }
    check_failf(c, "%s: expected %lld, got %lld", what, expected, got);
    return 0;
}

/* Prints "<name>: N passed, N failed" and returns the exit status (0 iff none failed). */
static inline int check_summary(const check_ctx *c)
{
    fflush(stderr);
    printf("%s: %lu passed, %lu failed\n", c->name, c->passed, c->failed);
    fflush(stdout);
    return c->failed == 0 ? 0 : 1;
}

static inline int check_hex_nibble(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Parses a hex string (spaces ignored) into out (at most max bytes). Returns the number
 * of bytes, or -1 on a bad digit, an odd digit count or overflow — a malformed table
 * entry must never be silently shortened. */
static inline long check_unhex(const char *hex, uint8_t *out, size_t max)
{
    size_t n = 0;
    int hi = -1;
    for (const char *p = hex; *p != '\0'; p++) {
        if (*p == ' ')
            continue;
        int v = check_hex_nibble(*p);
        if (v < 0)
            return -1;
        if (hi < 0) {
            hi = v;
        } else {
            if (n >= max)
                return -1;
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    return hi < 0 ? (long)n : -1;
}

#endif
