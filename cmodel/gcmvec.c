/*
 * gcmvec.c — the GCM harness vector file (format: gcmvec.h, docs/gcm-vectors.md):
 * a strict line reader, a writer, and the generator behind build/bin/ibsec_gcmvec.
 *
 * Reader. The file is read one line at a time into a fixed buffer (no allocation); a
 * record is a fixed sequence of fields, so the reader is a loop over that sequence, each
 * step "next line that is not blank or a comment must be field X". Every value is
 * checked completely before it is stored: hex digits (lower case only, an even number of
 * them), the length each field must have, ct as long as pt. Any departure is an error
 * with the line number, never a shortened or skipped value: a bench that silently
 * dropped a malformed record would report "all matched" on less than it was given.
 *
 * Generator. The published test cases come first, each re-sealed with the model and
 * compared with its published ciphertext and tag before it is written (a model that
 * disagrees with the GCM specification writes no file); then random messages whose shape
 * (key size, lengths) follows their index so that any file with at least
 * IBSEC_GCMVEC_SWEEP_RECORDS random records covers every data length 0..64 at both key
 * sizes and the empty-AAD / empty-data corners; the contents come from ibsec_rng, so a
 * seed names the same file everywhere. The model computes ct and tag; the tests check
 * every record of such a file against OpenSSL (cmodel/test/test_gcmvec.c).
 */
#include "gcmvec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gcm.h"

/* A line holds a field name, a space and at most 2 * IBSEC_GCMVEC_MAX_BYTES hex digits. */
#define LINE_CHARS (2 * IBSEC_GCMVEC_MAX_BYTES + 64)

/* ---------------------------------------------------------------------------------- */
/* Published test cases: McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)",  */
/* revised 2005, Appendix B — every case with a 96-bit IV and an AES-128 or AES-256 key. */

#define MV_K128 "feffe9928665731c6d6a8f9467308308"
#define MV_IV   "cafebabefacedbaddecaf888"
#define MV_A20  "feedfacedeadbeeffeedfacedeadbeefabaddad2"
#define MV_P64  "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" \
                "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
#define MV_P60  "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" \
                "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define MV_Z16  "00000000000000000000000000000000"
#define MV_Z12  "000000000000000000000000"

static const struct {
    const char *name, *key, *iv, *aad, *pt, *ct, *tag;
} published[IBSEC_GCMVEC_PUBLISHED] = {
    { "McGrew-Viega GCM Test Case 1 (AES-128)", MV_Z16, MV_Z12, "", "", "",
      "58e2fccefa7e3061367f1d57a4e7455a" },
    { "McGrew-Viega GCM Test Case 2 (AES-128)", MV_Z16, MV_Z12, "", MV_Z16,
      "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf" },
    { "McGrew-Viega GCM Test Case 3 (AES-128)", MV_K128, MV_IV, "", MV_P64,
      "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
      "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
      "4d5c2af327cd64a62cf35abd2ba6fab4" },
    { "McGrew-Viega GCM Test Case 4 (AES-128)", MV_K128, MV_IV, MV_A20, MV_P60,
      "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
      "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
      "5bc94fbc3221a5db94fae95ae7121a47" },
    { "McGrew-Viega GCM Test Case 13 (AES-256)", MV_Z16 MV_Z16, MV_Z12, "", "", "",
      "530f8afbc74536b9a963b4f1c4cb738b" },
    { "McGrew-Viega GCM Test Case 14 (AES-256)", MV_Z16 MV_Z16, MV_Z12, "", MV_Z16,
      "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919" },
    { "McGrew-Viega GCM Test Case 15 (AES-256)", MV_K128 MV_K128, MV_IV, "", MV_P64,
      "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
      "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
      "b094dac5d93471bdec1a502270e3cc6c" },
    { "McGrew-Viega GCM Test Case 16 (AES-256)", MV_K128 MV_K128, MV_IV, MV_A20, MV_P60,
      "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
      "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
      "76fc6ece0f4e1768cddf8853bb2d551b" },
};

/* ---------------------------------------------------------------------------------- */
/* Hex strings                                                                          */

enum hex_status { HEX_OK, HEX_BAD_DIGIT, HEX_ODD, HEX_TOO_LONG };

static int hex_digit_value(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    return -1; /* upper case included: the format is lower-case hex */
}

/* Decodes a whole string of lower-case hex digits into out (room for max bytes).
 * *n receives the byte count the string denotes (also when it is too long);
 * *bad receives the offset of the first bad digit. Nothing is stored unless HEX_OK. */
static enum hex_status decode_hex(const char *s, uint8_t *out, size_t max, size_t *n, size_t *bad)
{
    size_t digits = 0;
    for (; s[digits] != '\0'; digits++) {
        if (hex_digit_value(s[digits]) < 0) {
            *bad = digits;
            return HEX_BAD_DIGIT;
        }
    }
    *n = digits / 2;
    if (digits % 2 != 0)
        return HEX_ODD;
    if (*n > max)
        return HEX_TOO_LONG;
    for (size_t i = 0; i < *n; i++)
        out[i] = (uint8_t)(hex_digit_value(s[2 * i]) << 4 | hex_digit_value(s[2 * i + 1]));
    return HEX_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Reader                                                                               */

/* Formats "line N: <message>" into err. */
static void fail_at(char *err, size_t errlen, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail_at(char *err, size_t errlen, unsigned long line, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (err == NULL || errlen == 0)
        return;
    n = snprintf(err, errlen, "line %lu: ", line);
    if (n < 0 || (size_t)n >= errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

/* Reads one line into buf without its line end (LF, or CR LF) and trailing blanks.
 * 1 line read, 0 end of file, -1 error (over-long line, read error). */
static int read_line(FILE *f, char *buf, size_t size, ibsec_gcmvec_rec *rec,
                     char *err, size_t errlen)
{
    size_t n;
    if (fgets(buf, (int)size, f) == NULL) {
        if (ferror(f)) {
            fail_at(err, errlen, rec->line + 1, "read error: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    rec->line++;
    n = strlen(buf);
    if (n > 0 && buf[n - 1] == '\n')
        buf[--n] = '\0';
    else if (!feof(f)) {
        fail_at(err, errlen, rec->line, "line longer than %zu characters", size - 2);
        return -1;
    }
    while (n > 0 && (buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        buf[--n] = '\0';
    return 1;
}

/* The next line that is neither blank nor a comment: 1, 0 at end of file, -1 error. */
static int next_content_line(FILE *f, char *buf, size_t size, ibsec_gcmvec_rec *rec,
                             char *err, size_t errlen)
{
    for (;;) {
        int rc = read_line(f, buf, size, rec, err, errlen);
        if (rc <= 0)
            return rc;
        if (buf[0] != '\0' && buf[0] != '#')
            return 1;
    }
}

/* The first line of the file must be the magic line (the format and its version). */
static int check_magic(FILE *f, char *buf, size_t size, ibsec_gcmvec_rec *rec,
                       char *err, size_t errlen)
{
    size_t m = strlen(IBSEC_GCMVEC_MAGIC);
    int rc = read_line(f, buf, size, rec, err, errlen);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        fail_at(err, errlen, 1, "empty file, expected the line '%s'", IBSEC_GCMVEC_MAGIC);
        return -1;
    }
    if (strncmp(buf, IBSEC_GCMVEC_MAGIC, m) != 0 || (buf[m] != '\0' && buf[m] != ' ')) {
        fail_at(err, errlen, rec->line, "not a GCM vector file: expected the first line '%s'",
                IBSEC_GCMVEC_MAGIC);
        return -1;
    }
    return 0;
}

/* Checks that a content line is `name value`; *value points into line after the
 * separating blanks. A field with no value is an error. */
static int match_field(const char *line, const char *name, const char **value,
                       ibsec_gcmvec_rec *rec, char *err, size_t errlen)
{
    size_t n = strlen(name);
    if (strncmp(line, name, n) != 0 || (line[n] != ' ' && line[n] != '\t' && line[n] != '\0')) {
        size_t w = strcspn(line, " \t");
        fail_at(err, errlen, rec->line, "expected '%s', found '%.*s'", name,
                (int)(w > 20 ? 20 : w), line);
        return -1;
    }
    *value = line + n + strspn(line + n, " \t");
    if (**value == '\0') {
        fail_at(err, errlen, rec->line, "'%s' has no value", name);
        return -1;
    }
    return 0;
}

/* The next content line inside a record must be field `name`. */
static int expect_field(FILE *f, char *buf, size_t size, ibsec_gcmvec_rec *rec,
                        const char *name, const char **value, char *err, size_t errlen)
{
    int rc = next_content_line(f, buf, size, rec, err, errlen);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        fail_at(err, errlen, rec->line, "end of file inside record msg %lu, expected '%s'",
                rec->index, name);
        return -1;
    }
    return match_field(buf, name, value, rec, err, errlen);
}

/* A hex field of 0..max bytes ('-' = empty). *n receives its length. */
static int parse_hex_field(const char *name, const char *value, uint8_t *out, size_t max,
                           size_t *n, ibsec_gcmvec_rec *rec, char *err, size_t errlen)
{
    size_t bad = 0;
    if (strcmp(value, "-") == 0) {
        *n = 0;
        return 0;
    }
    switch (decode_hex(value, out, max, n, &bad)) {
    case HEX_OK:
        return 0;
    case HEX_BAD_DIGIT:
        fail_at(err, errlen, rec->line, "'%s': '%c' is not a lower-case hex digit (digit %zu)",
                name, value[bad], bad + 1);
        return -1;
    case HEX_ODD:
        fail_at(err, errlen, rec->line, "'%s': odd number of hex digits", name);
        return -1;
    case HEX_TOO_LONG:
    default:
        fail_at(err, errlen, rec->line, "'%s' has %zu bytes, more than the %zu this field holds",
                name, *n, max);
        return -1;
    }
}

/* A hex field that must be exactly `want` bytes (IV, tag). */
static int parse_fixed_field(const char *name, const char *value, uint8_t *out, size_t want,
                             const char *why, ibsec_gcmvec_rec *rec, char *err, size_t errlen)
{
    uint8_t tmp[IBSEC_GCMVEC_MAX_BYTES];
    size_t n = 0;
    if (parse_hex_field(name, value, tmp, sizeof(tmp), &n, rec, err, errlen) != 0)
        return -1;
    if (n != want) {
        fail_at(err, errlen, rec->line, "'%s' has %zu hex digits, wants %zu (%s)",
                name, 2 * n, 2 * want, why);
        return -1;
    }
    memcpy(out, tmp, want);
    return 0;
}

/* The key: AES-128 or AES-256 (FIPS-197 §5: Nk = 4 or 8 words). */
static int parse_key_field(const char *value, ibsec_gcmvec_rec *rec, char *err, size_t errlen)
{
    uint8_t tmp[IBSEC_GCMVEC_MAX_BYTES];
    size_t n = 0;
    if (parse_hex_field("key", value, tmp, sizeof(tmp), &n, rec, err, errlen) != 0)
        return -1;
    if (n != 16 && n != 32) {
        fail_at(err, errlen, rec->line,
                "'key' has %zu hex digits; AES-128 wants 32, AES-256 64", 2 * n);
        return -1;
    }
    rec->key_len = n;
    memcpy(rec->key, tmp, n);
    return 0;
}

/* The msg line: a decimal index. */
static int parse_index(const char *value, ibsec_gcmvec_rec *rec, char *err, size_t errlen)
{
    char *end;
    unsigned long long v;
    if (value[0] < '0' || value[0] > '9' || strlen(value) > 19) {
        fail_at(err, errlen, rec->line, "'msg' wants a decimal index, found '%.20s'", value);
        return -1;
    }
    errno = 0;
    v = strtoull(value, &end, 10);
    if (*end != '\0' || errno != 0 || v > (unsigned long long)(unsigned long)-1) {
        fail_at(err, errlen, rec->line, "'msg' wants a decimal index, found '%.20s'", value);
        return -1;
    }
    rec->index = (unsigned long)v;
    return 0;
}

/* The fields after msg, in order (SP 800-38D §7.1 names: K, IV, A, P, C, T). */
static int read_record_body(FILE *f, char *buf, ibsec_gcmvec_rec *rec, char *err, size_t errlen)
{
    const char *v;
    size_t ct_len = 0;
    int rc;

    if (expect_field(f, buf, LINE_CHARS, rec, "key", &v, err, errlen) != 0 ||
        parse_key_field(v, rec, err, errlen) != 0)
        return -1;
    if (expect_field(f, buf, LINE_CHARS, rec, "iv", &v, err, errlen) != 0 ||
        parse_fixed_field("iv", v, rec->iv, sizeof(rec->iv), "96-bit IV", rec, err, errlen) != 0)
        return -1;
    if (expect_field(f, buf, LINE_CHARS, rec, "aad", &v, err, errlen) != 0 ||
        parse_hex_field("aad", v, rec->aad, sizeof(rec->aad), &rec->aad_len, rec, err, errlen) != 0)
        return -1;
    if (expect_field(f, buf, LINE_CHARS, rec, "pt", &v, err, errlen) != 0 ||
        parse_hex_field("pt", v, rec->pt, sizeof(rec->pt), &rec->len, rec, err, errlen) != 0)
        return -1;
    if (expect_field(f, buf, LINE_CHARS, rec, "ct", &v, err, errlen) != 0 ||
        parse_hex_field("ct", v, rec->ct, sizeof(rec->ct), &ct_len, rec, err, errlen) != 0)
        return -1;
    if (ct_len != rec->len) {
        fail_at(err, errlen, rec->line, "'ct' has %zu bytes but 'pt' has %zu", ct_len, rec->len);
        return -1;
    }
    if (expect_field(f, buf, LINE_CHARS, rec, "tag", &v, err, errlen) != 0 ||
        parse_fixed_field("tag", v, rec->tag, sizeof(rec->tag), "128-bit tag", rec, err, errlen) != 0)
        return -1;
    rc = next_content_line(f, buf, LINE_CHARS, rec, err, errlen);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        fail_at(err, errlen, rec->line, "end of file inside record msg %lu, expected 'end'",
                rec->index);
        return -1;
    }
    if (strcmp(buf, "end") != 0) {
        fail_at(err, errlen, rec->line, "expected 'end' to close record msg %lu, found '%.20s'",
                rec->index, buf);
        return -1;
    }
    return 0;
}

void ibsec_gcmvec_rec_init(ibsec_gcmvec_rec *rec)
{
    memset(rec, 0, sizeof(*rec));
}

int ibsec_gcmvec_read_next(FILE *f, ibsec_gcmvec_rec *rec, char *err, size_t errlen)
{
    char buf[LINE_CHARS];
    const char *v;
    int rc;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (rec->line == 0 && check_magic(f, buf, sizeof(buf), rec, err, errlen) != 0)
        return -1;
    rc = next_content_line(f, buf, sizeof(buf), rec, err, errlen);
    if (rc <= 0)
        return rc;
    if (match_field(buf, "msg", &v, rec, err, errlen) != 0 || parse_index(v, rec, err, errlen) != 0)
        return -1;
    return read_record_body(f, buf, rec, err, errlen) == 0 ? 1 : -1;
}

/* ---------------------------------------------------------------------------------- */
/* Writer                                                                               */

static void write_hex_field(FILE *f, const char *name, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    fputs(name, f);
    fputc(' ', f);
    if (n == 0)
        fputc('-', f);
    for (size_t i = 0; i < n; i++) {
        fputc(digits[p[i] >> 4], f);
        fputc(digits[p[i] & 15], f);
    }
    fputc('\n', f);
}

int ibsec_gcmvec_write(FILE *f, const ibsec_gcmvec_rec *rec)
{
    if ((rec->key_len != 16 && rec->key_len != 32) || rec->aad_len > IBSEC_GCMVEC_MAX_BYTES ||
        rec->len > IBSEC_GCMVEC_MAX_BYTES)
        return -1;
    fprintf(f, "msg %lu\n", rec->index);
    write_hex_field(f, "key", rec->key, rec->key_len);
    write_hex_field(f, "iv", rec->iv, sizeof(rec->iv));
    write_hex_field(f, "aad", rec->aad, rec->aad_len);
    write_hex_field(f, "pt", rec->pt, rec->len);
    write_hex_field(f, "ct", rec->ct, rec->len);
    write_hex_field(f, "tag", rec->tag, sizeof(rec->tag));
    fputs("end\n", f);
    return ferror(f) ? -1 : 0;
}

/* ---------------------------------------------------------------------------------- */
/* Generator                                                                            */

/* Decodes one entry of the published table (a typo is a build-time bug: -1). */
static int published_hex(const char *hex, uint8_t *out, size_t max, size_t *n)
{
    size_t bad = 0;
    return decode_hex(hex, out, max, n, &bad) == HEX_OK ? 0 : -1;
}

int ibsec_gcmvec_published(unsigned i, ibsec_gcmvec_rec *rec, const char **name)
{
    size_t iv_len = 0, ct_len = 0, tag_len = 0;

    if (i >= IBSEC_GCMVEC_PUBLISHED)
        return -1;
    rec->index = i;
    if (published_hex(published[i].key, rec->key, sizeof(rec->key), &rec->key_len) != 0 ||
        published_hex(published[i].iv, rec->iv, sizeof(rec->iv), &iv_len) != 0 ||
        published_hex(published[i].aad, rec->aad, sizeof(rec->aad), &rec->aad_len) != 0 ||
        published_hex(published[i].pt, rec->pt, sizeof(rec->pt), &rec->len) != 0 ||
        published_hex(published[i].ct, rec->ct, sizeof(rec->ct), &ct_len) != 0 ||
        published_hex(published[i].tag, rec->tag, sizeof(rec->tag), &tag_len) != 0 ||
        iv_len != sizeof(rec->iv) || ct_len != rec->len || tag_len != sizeof(rec->tag))
        return -1;
    if (name != NULL)
        *name = published[i].name;
    return 0;
}

void ibsec_gcmvec_random(ibsec_rng *r, unsigned long i, ibsec_gcmvec_rec *rec)
{
    const unsigned long sweep = IBSEC_GCMVEC_SWEEP_RECORDS - 2; /* lengths 0..64, two keys */

    rec->index = IBSEC_GCMVEC_PUBLISHED + i;
    rec->key_len = i % 2 ? 32 : 16;
    if (i < sweep) {
        rec->len = i / 2;
        rec->aad_len = rec->len % 8 == 0 ? 0 : ibsec_rng_range(r, 1, IBSEC_GCMVEC_RANDOM_MAX_AAD);
    } else if (i < IBSEC_GCMVEC_SWEEP_RECORDS) {
        rec->len = 0;
        rec->aad_len = ibsec_rng_range(r, 1, IBSEC_GCMVEC_RANDOM_MAX_AAD);
    } else {
        rec->len = ibsec_rng_below(r, IBSEC_GCMVEC_RANDOM_MAX_LEN + 1);
        rec->aad_len = ibsec_rng_below(r, IBSEC_GCMVEC_RANDOM_MAX_AAD + 1);
    }
    ibsec_rng_bytes(r, rec->key, rec->key_len);
    ibsec_rng_bytes(r, rec->iv, sizeof(rec->iv));
    ibsec_rng_bytes(r, rec->aad, rec->aad_len);
    ibsec_rng_bytes(r, rec->pt, rec->len);
    memset(rec->ct, 0, rec->len);
    memset(rec->tag, 0, sizeof(rec->tag));
}

int ibsec_gcmvec_seal(ibsec_gcmvec_rec *rec)
{
    ibsec_gcm_key gk;
    if (ibsec_gcm_key_init(&gk, rec->key, rec->key_len, 1) != 0)
        return -1;
    return ibsec_gcm_seal(&gk, rec->iv, rec->aad, rec->aad_len, rec->pt, rec->len,
                          rec->ct, rec->tag, sizeof(rec->tag));
}

/* Writes the published cases, each after checking that the model reproduces it. */
static int generate_published(FILE *f, ibsec_gcmvec_rec *rec, char *err, size_t errlen)
{
    uint8_t want_ct[IBSEC_GCMVEC_MAX_BYTES], want_tag[16];
    const char *name = "";

    for (unsigned i = 0; i < IBSEC_GCMVEC_PUBLISHED; i++) {
        if (ibsec_gcmvec_published(i, rec, &name) != 0) {
            snprintf(err, errlen, "published test case table entry %u is malformed", i);
            return -1;
        }
        memcpy(want_ct, rec->ct, rec->len);
        memcpy(want_tag, rec->tag, sizeof(want_tag));
        if (ibsec_gcmvec_seal(rec) != 0 || memcmp(want_ct, rec->ct, rec->len) != 0 ||
            memcmp(want_tag, rec->tag, sizeof(want_tag)) != 0) {
            snprintf(err, errlen, "the model does not reproduce %s", name);
            return -1;
        }
        fprintf(f, "\n# %s\n", name);
        if (ibsec_gcmvec_write(f, rec) != 0)
            return -1;
    }
    return 0;
}

static int generate_random(FILE *f, uint64_t seed, unsigned long count, ibsec_gcmvec_rec *rec,
                           char *err, size_t errlen)
{
    ibsec_rng r;
    ibsec_rng_seed(&r, seed);
    fprintf(f, "\n# random messages, seed %llu\n", (unsigned long long)seed);
    for (unsigned long i = 0; i < count; i++) {
        ibsec_gcmvec_random(&r, i, rec);
        if (ibsec_gcmvec_seal(rec) != 0) {
            snprintf(err, errlen, "the model refused random message %lu", rec->index);
            return -1;
        }
        if (i > 0)
            fputc('\n', f);
        if (ibsec_gcmvec_write(f, rec) != 0)
            return -1;
    }
    return 0;
}

int ibsec_gcmvec_generate(FILE *f, uint64_t seed, unsigned long count, char *err, size_t errlen)
{
    ibsec_gcmvec_rec *rec = malloc(sizeof(*rec));
    char dummy[1];
    int rc;

    if (err == NULL || errlen == 0) {
        err = dummy;
        errlen = sizeof(dummy);
    }
    err[0] = '\0';
    if (rec == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    ibsec_gcmvec_rec_init(rec);
    fprintf(f, "%s (comment lines start with '#'; blank lines ignored)\n", IBSEC_GCMVEC_MAGIC);
    fprintf(f, "# format: docs/gcm-vectors.md; %u published test cases, then %lu random "
               "messages from seed %llu\n",
            IBSEC_GCMVEC_PUBLISHED, count, (unsigned long long)seed);
    rc = generate_published(f, rec, err, errlen);
    if (rc == 0)
        rc = generate_random(f, seed, count, rec, err, errlen);
    free(rec);
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, errlen, "write error: %s", strerror(errno));
        return -1;
    }
    if (rc != 0 && err[0] == '\0')
        snprintf(err, errlen, "write error: %s", strerror(errno));
    return rc;
}
