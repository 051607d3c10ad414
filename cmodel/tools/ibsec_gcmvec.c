/*
 * ibsec_gcmvec.c — writes a GCM harness vector file (docs/gcm-vectors.md) for the RTL
 * gcm_core bench: the published McGrew-Viega test cases with 96-bit IVs, then random
 * AES-128 / AES-256 messages sealed by the C model, deterministic from the seed.
 *
 * Usage: ibsec_gcmvec [--seed N] [--count N] --out FILE
 *   --seed N    ibsec_rng seed of the random messages (default 1)
 *   --count N   number of random messages after the 8 published ones (default 1000;
 *               at least 132 to cover every data length 0..64 at both key sizes)
 *   --out FILE  the file to write (replaced if it exists)
 * Exit status: 0 written, 1 the file could not be written (or the model failed its
 * published-case check; nothing usable is left behind), 2 bad arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcmvec.h"

#define MAX_COUNT 10000000UL /* keeps a mistyped count from filling the disk */

static void usage(const char *why)
{
    fprintf(stderr, "ibsec_gcmvec: %s\n"
                    "usage: ibsec_gcmvec [--seed N] [--count N] --out FILE\n"
                    "  --seed N    seed of the random messages (default 1)\n"
                    "  --count N   random messages after the %u published cases (default 1000,"
                    " max %lu)\n"
                    "  --out FILE  vector file to write (format: docs/gcm-vectors.md)\n",
            why, IBSEC_GCMVEC_PUBLISHED, MAX_COUNT);
    exit(2);
}

/* A decimal number up to max; anything else is a usage error. */
static unsigned long long parse_number(const char *opt, const char *s, unsigned long long max)
{
    char msg[160];
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 || v > max) {
        snprintf(msg, sizeof(msg), "%s wants a decimal number up to %llu, got '%.40s'", opt, max, s);
        usage(msg);
    }
    return v;
}

int main(int argc, char **argv)
{
    unsigned long long seed = 1;
    unsigned long count = 1000;
    const char *out = NULL;
    char err[256];
    FILE *f;

    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a];
        if (strcmp(opt, "--seed") != 0 && strcmp(opt, "--count") != 0 && strcmp(opt, "--out") != 0) {
            char msg[96];
            snprintf(msg, sizeof(msg), "unknown argument '%.40s'", opt);
            usage(msg);
        }
        if (a + 1 >= argc) {
            char msg[96];
            snprintf(msg, sizeof(msg), "%s needs a value", opt);
            usage(msg);
        }
        const char *val = argv[++a];
        if (strcmp(opt, "--seed") == 0)
            seed = parse_number(opt, val, UINT64_MAX);
        else if (strcmp(opt, "--count") == 0)
            count = (unsigned long)parse_number(opt, val, MAX_COUNT);
        else
            out = val;
    }
    if (out == NULL || out[0] == '\0')
        usage("--out FILE is required");

    f = fopen(out, "w");
    if (f == NULL) {
        fprintf(stderr, "ibsec_gcmvec: cannot write %s: %s\n", out, strerror(errno));
        return 1;
    }
    int rc = ibsec_gcmvec_generate(f, (uint64_t)seed, count, err, sizeof(err));
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, sizeof(err), "write error: %s", strerror(errno));
        rc = -1;
    }
    if (rc != 0) {
        fprintf(stderr, "ibsec_gcmvec: %s: %s\n", out, err);
        remove(out);
        return 1;
    }
    printf("ibsec_gcmvec: wrote %s: %u published + %lu random messages, seed %llu\n",
           out, IBSEC_GCMVEC_PUBLISHED, count, seed);
    return 0;
}
