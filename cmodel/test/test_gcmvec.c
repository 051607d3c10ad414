/*
 * test_gcmvec.c — the GCM harness vector file (cmodel/gcmvec.c, docs/gcm-vectors.md)
 * and its writer build/bin/ibsec_gcmvec.
 *
 * Usage: test_gcmvec [--tool PATH] [--seed N] [--count N]
 *   PATH defaults to ../bin/ibsec_gcmvec next to this program's directory (where
 *   cmodel/cmodel.mk puts both); seed 1 and 200 random messages by default.
 *
 * Checks:
 *   1. A file written by the library's generator is read back with the library's reader;
 *      every record is checked against OpenSSL EVP AES-GCM (the independent reference):
 *      OpenSSL's ciphertext and tag for the record's key, IV, AAD and plaintext must be the
 *      record's, and OpenSSL must accept the record. Records are numbered 0, 1, ...; the
 *      first eight carry the published tags of McGrew-Viega Test Cases 1-4 and 13-16
 *      (transcribed here on their own); the random part has both key sizes, every data
 *      length 0..64 at each, empty AAD, empty data, both empty, and lengths up to 4200.
 *   2. The tool writes the same file for the same seed and count; bad arguments give a
 *      usage message and exit status 2; an unwritable output gives a message and 1.
 *   3. The reader rejects corrupted files (bad hex, upper-case hex, odd digit count,
 *      a missing field, a wrong key / IV / tag length, ct shorter than pt, a cut-off
 *      record, a bad index, a missing magic line, an over-long value, ...) with the
 *      right line number, and accepts comments, blank lines and CR LF line ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "gcmvec.h"
#include "ossl_gcm.h"

static check_ctx C;
static EVP_CIPHER_CTX *ossl;
static char tmpdir[256];

/* Published tags, McGrew & Viega, "The Galois/Counter Mode of Operation", Appendix B. */
static const char *const published_tags[IBSEC_GCMVEC_PUBLISHED] = {
    "58e2fccefa7e3061367f1d57a4e7455a", /* Test Case 1 */
    "ab6e47d42cec13bdf53a67b21257bddf", /* 2 */
    "4d5c2af327cd64a62cf35abd2ba6fab4", /* 3 */
    "5bc94fbc3221a5db94fae95ae7121a47", /* 4 */
    "530f8afbc74536b9a963b4f1c4cb738b", /* 13 */
    "d0d1c8a799996bf0265b98b5d48ab919", /* 14 */
    "b094dac5d93471bdec1a502270e3cc6c", /* 15 */
    "76fc6ece0f4e1768cddf8853bb2d551b", /* 16 */
};

/* What the random part of a file must contain (ibsec_gcmvec_random's contract). */
typedef struct {
    int len_seen[2][65]; /* [AES-256][data length 0..64] */
    int both_empty, aad_only, data_only, over_1k;
    size_t max_len, max_aad;
} coverage;

static void note_coverage(coverage *cv, const ibsec_gcmvec_rec *rec)
{
    if (rec->len <= 64)
        cv->len_seen[rec->key_len == 32][rec->len] = 1;
    cv->both_empty |= rec->len == 0 && rec->aad_len == 0;
    cv->aad_only |= rec->len == 0 && rec->aad_len > 0;
    cv->data_only |= rec->len > 0 && rec->aad_len == 0;
    cv->over_1k |= rec->len > 1024;
    if (rec->len > cv->max_len)
        cv->max_len = rec->len;
    if (rec->aad_len > cv->max_aad)
        cv->max_aad = rec->aad_len;
}

static void check_coverage(const coverage *cv)
{
    int missing = 0;
    for (int k = 0; k < 2; k++)
        for (int n = 0; n <= 64; n++)
            missing += !cv->len_seen[k][n];
    check_int(&C, "data lengths 0..64 missing from the random part (both key sizes)", 0, missing);
    check_true(&C, cv->both_empty, "a random message with no AAD and no data");
    check_true(&C, cv->aad_only, "a random message with AAD and no data");
    check_true(&C, cv->data_only, "a random message with data and no AAD");
    check_true(&C, cv->over_1k, "a random message longer than 1 KiB");
    check_true(&C, cv->max_len <= IBSEC_GCMVEC_RANDOM_MAX_LEN, "random data at most 4200 bytes");
    check_true(&C, cv->max_aad <= IBSEC_GCMVEC_RANDOM_MAX_AAD, "random AAD at most 100 bytes");
}

/* One record against OpenSSL: its ciphertext and tag are OpenSSL's, OpenSSL accepts it. */
static void check_record_openssl(const ibsec_gcmvec_rec *rec)
{
    static uint8_t ct[IBSEC_GCMVEC_MAX_BYTES], pt[IBSEC_GCMVEC_MAX_BYTES];
    uint8_t tag[16];
    char what[96];

    snprintf(what, sizeof(what), "msg %lu: OpenSSL seal", rec->index);
    if (!check_int(&C, what, 0, ossl_gcm_seal(ossl, rec->key, rec->key_len, rec->iv, rec->aad,
                                              rec->aad_len, rec->pt, rec->len, ct, tag, 16)))
        return;
    snprintf(what, sizeof(what), "msg %lu: ct vs OpenSSL", rec->index);
    check_bytes(&C, what, ct, rec->ct, rec->len);
    snprintf(what, sizeof(what), "msg %lu: tag vs OpenSSL", rec->index);
    check_bytes(&C, what, tag, rec->tag, 16);
    snprintf(what, sizeof(what), "msg %lu: OpenSSL accepts the record (1)", rec->index);
    if (check_int(&C, what, 1, ossl_gcm_open(ossl, rec->key, rec->key_len, rec->iv, rec->aad,
                                             rec->aad_len, rec->ct, rec->len, rec->tag, 16, pt))) {
        snprintf(what, sizeof(what), "msg %lu: OpenSSL's plaintext is the record's", rec->index);
        check_bytes(&C, what, rec->pt, pt, rec->len);
    }
}

/* Reads a whole vector file, checking every record; returns the number of records. */
static unsigned long check_file(const char *path, unsigned long count)
{
    static ibsec_gcmvec_rec rec;
    coverage cv;
    char err[256], what[96];
    unsigned long n = 0;
    int rc;
    FILE *f = fopen(path, "r");

    if (!check_true(&C, f != NULL, "open the generated vector file"))
        return 0;
    memset(&cv, 0, sizeof(cv));
    ibsec_gcmvec_rec_init(&rec);
    while ((rc = ibsec_gcmvec_read_next(f, &rec, err, sizeof(err))) == 1) {
        snprintf(what, sizeof(what), "record %lu: msg index", n);
        check_int(&C, what, (long long)n, (long long)rec.index);
        if (n < IBSEC_GCMVEC_PUBLISHED) {
            uint8_t tag[16];
            check_unhex(published_tags[n], tag, sizeof(tag));
            snprintf(what, sizeof(what), "record %lu: the published test case's tag", n);
            check_bytes(&C, what, tag, rec.tag, 16);
        } else {
            note_coverage(&cv, &rec);
        }
        check_record_openssl(&rec);
        n++;
    }
    if (!check_int(&C, "the reader ends the file cleanly (0)", 0, rc))
        printf("  reader said: %s\n", err);
    fclose(f);
    check_int(&C, "records in the file", (long long)(IBSEC_GCMVEC_PUBLISHED + count), (long long)n);
    if (count >= IBSEC_GCMVEC_SWEEP_RECORDS + 64)
        check_coverage(&cv);
    else
        printf("gcmvec: --count %lu is below %d: the random part's coverage is not checked\n",
               count, IBSEC_GCMVEC_SWEEP_RECORDS + 64);
    return n;
}

/* 1 when two files have the same bytes. */
static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa != NULL && fb != NULL;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        if (ca != cb)
            same = 0;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa != NULL)
        fclose(fa);
    if (fb != NULL)
        fclose(fb);
    return same;
}

/* Runs `tool args`, stderr to a file; returns the exit status (-1 if it did not exit),
 * and copies the start of what it wrote to stderr into msg. */
static int run_tool(const char *tool, const char *args, char *msg, size_t msglen)
{
    char cmd[1024], errpath[300];
    snprintf(errpath, sizeof(errpath), "%s/stderr.txt", tmpdir);
    snprintf(cmd, sizeof(cmd), "'%s' %s >/dev/null 2>'%s'", tool, args, errpath);
    int st = system(cmd);
    msg[0] = '\0';
    FILE *f = fopen(errpath, "r");
    if (f != NULL) {
        size_t n = fread(msg, 1, msglen - 1, f);
        msg[n] = '\0';
        fclose(f);
    }
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check_tool_fails(const char *tool, const char *args, int want_status,
                             const char *want_msg)
{
    char msg[512], what[1024];
    int st = run_tool(tool, args, msg, sizeof(msg));
    snprintf(what, sizeof(what), "ibsec_gcmvec %s: exit status", args);
    check_int(&C, what, want_status, st);
    snprintf(what, sizeof(what), "ibsec_gcmvec %s: stderr says '%s' (got: %s)", args, want_msg, msg);
    check_true(&C, strstr(msg, want_msg) != NULL, what);
}

static void test_tool(const char *tool, unsigned long long seed, unsigned long count,
                      const char *lib_path)
{
    char path[300], args[512], msg[256];

    if (!check_true(&C, access(tool, X_OK) == 0, "the tool is built (ibsec_gcmvec, see --tool)"))
        return;
    snprintf(path, sizeof(path), "%s/tool.vec", tmpdir);
    snprintf(args, sizeof(args), "--seed %llu --count %lu --out '%s'", seed, count, path);
    check_int(&C, "ibsec_gcmvec writes a file: exit status", 0, run_tool(tool, args, msg, sizeof(msg)));
    check_true(&C, same_file(lib_path, path), "the tool's file equals the library generator's");

    check_tool_fails(tool, "", 2, "usage");
    check_tool_fails(tool, "--bogus", 2, "unknown argument");
    check_tool_fails(tool, "--seed", 2, "needs a value");
    check_tool_fails(tool, "--count 12x --out /dev/null", 2, "--count wants a decimal");
    check_tool_fails(tool, "--count -1 --out /dev/null", 2, "--count wants a decimal");
    snprintf(args, sizeof(args), "--count 1 --out '%s/no-such-dir/x.vec'", tmpdir);
    check_tool_fails(tool, args, 1, "cannot write");
}

/* ---------------------------------------------------------------------------------- */
/* Corrupted files                                                                      */

/* A valid one-record file (Test Case 1); the corruptions below edit one line of it. */
static const char *const good_lines[] = {
    "# ibsec gcm vectors v1",                      /* line 1 */
    "msg 0",                                       /* 2 */
    "key 00000000000000000000000000000000",        /* 3 */
    "iv 000000000000000000000000",                 /* 4 */
    "aad -",                                       /* 5 */
    "pt -",                                        /* 6 */
    "ct -",                                        /* 7 */
    "tag 58e2fccefa7e3061367f1d57a4e7455a",        /* 8 */
    "end",                                         /* 9 */
};
#define GOOD_LINES (sizeof(good_lines) / sizeof(good_lines[0]))

/* The good file with line `edit` (1-based) replaced by `repl` (NULL: deleted),
 * `eol` after every line, in a temporary FILE opened for reading. */
static FILE *edited_file(unsigned edit, const char *repl, const char *eol)
{
    FILE *f = tmpfile();
    if (f == NULL)
        return NULL;
    for (unsigned i = 1; i <= GOOD_LINES; i++) {
        const char *line = i == edit ? repl : good_lines[i - 1];
        if (line != NULL)
            fprintf(f, "%s%s", line, eol);
    }
    rewind(f);
    return f;
}

static void check_rejected(const char *name, FILE *f, unsigned long want_line, const char *want)
{
    static ibsec_gcmvec_rec rec;
    char err[256], what[512], prefix[32];
    int rc = -2;

    if (!check_true(&C, f != NULL, "tmpfile for a corrupted vector file"))
        return;
    ibsec_gcmvec_rec_init(&rec);
    while ((rc = ibsec_gcmvec_read_next(f, &rec, err, sizeof(err))) == 1)
        ;
    fclose(f);
    snprintf(what, sizeof(what), "%s: rejected (-1)", name);
    if (!check_int(&C, what, -1, rc))
        return;
    snprintf(prefix, sizeof(prefix), "line %lu: ", want_line);
    snprintf(what, sizeof(what), "%s: message '%s...%s...' (got '%s')", name, prefix, want, err);
    check_true(&C, strncmp(err, prefix, strlen(prefix)) == 0 && strstr(err, want) != NULL, what);
}

static void test_good_variants(void)
{
    static ibsec_gcmvec_rec rec;
    char err[256];
    FILE *f;

    /* CR LF line ends, and comments and blank lines in the middle of a record */
    f = tmpfile();
    if (!check_true(&C, f != NULL, "tmpfile"))
        return;
    for (unsigned i = 0; i < GOOD_LINES; i++)
        fprintf(f, "%s\r\n%s", good_lines[i], i == 3 ? "\n# a comment\n   \n" : "");
    fputs("\n# trailing comment\n", f);
    rewind(f);
    ibsec_gcmvec_rec_init(&rec);
    int rc1 = ibsec_gcmvec_read_next(f, &rec, err, sizeof(err));
    check_int(&C, "CR LF, comments and blank lines: record read", 1, rc1);
    if (rc1 != 1)
        printf("  reader said: %s\n", err);
    uint8_t tag[16];
    check_unhex(good_lines[7] + 4, tag, sizeof(tag));
    check_bytes(&C, "CR LF file: tag value", tag, rec.tag, 16);
    check_int(&C, "CR LF file: key length", 16, (long long)rec.key_len);
    check_int(&C, "CR LF file: then a clean end of file", 0, ibsec_gcmvec_read_next(f, &rec, err, sizeof(err)));
    fclose(f);

    /* a header with no records is a valid, empty file */
    f = tmpfile();
    if (check_true(&C, f != NULL, "tmpfile")) {
        fputs(IBSEC_GCMVEC_MAGIC "\n# nothing else\n", f);
        rewind(f);
        ibsec_gcmvec_rec_init(&rec);
        check_int(&C, "header-only file: no record, clean end", 0,
                  ibsec_gcmvec_read_next(f, &rec, err, sizeof(err)));
        fclose(f);
    }
}

static void test_corrupted(void)
{
    static char long_pt[2 * (IBSEC_GCMVEC_MAX_BYTES + 1) + 8];
    static const struct {
        const char *name;
        unsigned edit;          /* line replaced (1-based) */
        const char *repl;       /* NULL: line deleted */
        unsigned long line;     /* line the reader must name */
        const char *msg;        /* what its message must say */
    } cases[] = {
        { "bad hex digit in key", 3, "key 0000000000000000000000000000000g", 3, "not a lower-case hex digit" },
        { "upper-case hex in tag", 8, "tag 58E2FCCEFA7E3061367F1D57A4E7455A", 8, "not a lower-case hex digit" },
        { "odd number of digits", 5, "aad 123", 5, "odd number" },
        { "missing iv", 4, NULL, 4, "expected 'iv'" },
        { "missing tag", 8, NULL, 8, "expected 'tag'" },
        { "key of 20 bytes", 3, "key 0000000000000000000000000000000000000000", 3, "AES-128 wants 32" },
        { "key of 24 bytes (AES-192)", 3, "key 000000000000000000000000000000000000000000000000", 3, "AES-128 wants 32" },
        { "empty key", 3, "key -", 3, "AES-128 wants 32" },
        { "iv of 11 bytes", 4, "iv 0000000000000000000000", 4, "wants 24" },
        { "tag of 15 bytes", 8, "tag 58e2fccefa7e3061367f1d57a4e745", 8, "wants 32" },
        { "ct shorter than pt", 6, "pt 00", 7, "'ct' has 0 bytes but 'pt' has 1" },
        { "record cut off before end", 9, NULL, 8, "end of file inside record msg 0" },
        { "bad msg index", 2, "msg 1x", 2, "decimal index" },
        { "negative msg index", 2, "msg -1", 2, "decimal index" },
        { "misspelt msg", 2, "mgs 0", 2, "expected 'msg'" },
        { "msg without index", 2, "msg", 2, "'msg' has no value" },
        { "missing magic line", 1, "# some other file", 1, "not a GCM vector file" },
        { "newer format version", 1, "# ibsec gcm vectors v10", 1, "not a GCM vector file" },
        { "field without value", 5, "aad", 5, "has no value" },
        { "trailing text after a value", 8, "tag 58e2fccefa7e3061367f1d57a4e7455a x", 8, "not a lower-case hex digit" },
        { "something other than end", 9, "ende", 9, "expected 'end'" },
        { "fields out of order", 5, "pt -", 5, "expected 'aad'" },
    };
    char name[64];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_rejected(cases[i].name, edited_file(cases[i].edit, cases[i].repl, "\n"),
                       cases[i].line, cases[i].msg);

    FILE *f = tmpfile();
    check_rejected("empty file", f, 1, "empty file");

    /* a value one byte longer than a record holds */
    memcpy(long_pt, "pt ", 3);
    memset(long_pt + 3, '0', 2 * (IBSEC_GCMVEC_MAX_BYTES + 1));
    snprintf(name, sizeof(name), "pt of %d bytes", IBSEC_GCMVEC_MAX_BYTES + 1);
    check_rejected(name, edited_file(6, long_pt, "\n"), 6, "more than the 8192");

    /* a second record cut short after a good one */
    f = tmpfile();
    if (f != NULL) {
        for (unsigned i = 0; i < GOOD_LINES; i++)
            fprintf(f, "%s\n", good_lines[i]);
        fputs("msg 1\nkey 00000000000000000000000000000000\n", f);
        rewind(f);
    }
    check_rejected("second record cut off", f, 11, "end of file inside record msg 1, expected 'iv'");
}

/* ---------------------------------------------------------------------------------- */

static unsigned long long parse_number(const char *opt, const char *s, unsigned long long max)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || *end != '\0' || v > max) {
        fprintf(stderr, "test_gcmvec: %s wants a decimal number up to %llu, got '%s'\n", opt, max, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    char tool[512], lib_path[300], err[256];
    unsigned long long seed = 1;
    unsigned long count = 200;

    /* default tool path: <dir of this program>/../bin/ibsec_gcmvec */
    const char *slash = strrchr(argv[0], '/');
    snprintf(tool, sizeof(tool), "%.*s../bin/ibsec_gcmvec",
             slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--tool") == 0 && a + 1 < argc)
            snprintf(tool, sizeof(tool), "%s", argv[++a]);
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = parse_number("--seed", argv[++a], UINT64_MAX);
        else if (strcmp(argv[a], "--count") == 0 && a + 1 < argc)
            count = (unsigned long)parse_number("--count", argv[++a], 100000);
        else {
            fprintf(stderr, "usage: test_gcmvec [--tool PATH] [--seed N] [--count N]\n");
            return 2;
        }
    }
    check_init(&C, "gcmvec");
    ossl = EVP_CIPHER_CTX_new();
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof(tmpdir), "%s/ibsec-gcmvec-XXXXXX", base && *base ? base : "/tmp");
    if (ossl == NULL || mkdtemp(tmpdir) == NULL) {
        fprintf(stderr, "test_gcmvec: cannot set up (EVP context or temporary directory)\n");
        return 1;
    }

    /* 1. library generator -> file -> reader -> OpenSSL */
    snprintf(lib_path, sizeof(lib_path), "%s/lib.vec", tmpdir);
    FILE *f = fopen(lib_path, "w");
    int rc = f != NULL ? ibsec_gcmvec_generate(f, seed, count, err, sizeof(err)) : -1;
    if (f != NULL && fclose(f) != 0)
        rc = -1;
    if (check_int(&C, "library generator writes the file", 0, rc))
        check_file(lib_path, count);
    else
        printf("  generator said: %s\n", f ? err : "cannot open the file");

    /* 2. the tool */
    test_tool(tool, seed, count, lib_path);

    /* 3. the reader on hand-made and corrupted files */
    test_good_variants();
    test_corrupted();

    char path[300];
    snprintf(path, sizeof(path), "%s/tool.vec", tmpdir);
    remove(path);
    remove(lib_path);
    snprintf(path, sizeof(path), "%s/stderr.txt", tmpdir);
    remove(path);
    rmdir(tmpdir);
    EVP_CIPHER_CTX_free(ossl);
    return check_summary(&C);
}
