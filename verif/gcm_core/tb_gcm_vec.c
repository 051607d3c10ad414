/* tb_gcm_vec.c — see tb_gcm_vec.h. */
#include "tb_gcm_vec.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* a line holds "aad " plus two hex digits per byte */
#define LINE_MAX_CHARS (2 * TB_GCMVEC_MAX_BYTES + 64)

static char line_buf[LINE_MAX_CHARS];

void tb_gcmvec_init(tb_gcmvec_rec *rec)
{
    memset(rec, 0, sizeof *rec);
}

/* next line that is not a comment or blank, without its newline; 0 at end of file */
static int next_line(FILE *f, tb_gcmvec_rec *rec, char *err, size_t errlen)
{
    for (;;) {
        if (fgets(line_buf, sizeof line_buf, f) == NULL) {
            if (ferror(f)) {
                snprintf(err, errlen, "line %lu: read error", rec->line + 1);
                return -1;
            }
            return 0;
        }
        rec->line++;
        size_t n = strlen(line_buf);
        if (n && line_buf[n - 1] != '\n' && !feof(f)) {
            snprintf(err, errlen, "line %lu: line too long", rec->line);
            return -1;
        }
        while (n && (line_buf[n - 1] == '\n' || line_buf[n - 1] == '\r'))
            line_buf[--n] = 0;
        if (n == 0 || line_buf[0] == '#')
            continue;
        return 1;
    }
}

static int hex_val(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* "field value" with value hex (or "-" for empty when allow_empty); returns bytes or -1 */
static long field_hex(tb_gcmvec_rec *rec, const char *field, uint8_t *out, size_t max,
                      int allow_empty, char *err, size_t errlen)
{
    size_t fl = strlen(field);
    if (strncmp(line_buf, field, fl) || line_buf[fl] != ' ') {
        snprintf(err, errlen, "line %lu: expected '%s', got '%.20s'", rec->line, field,
                 line_buf);
        return -1;
    }
    const char *v = line_buf + fl + 1;
    if (allow_empty && !strcmp(v, "-"))
        return 0;
    size_t n = strlen(v);
    if (n == 0 || n % 2) {
        snprintf(err, errlen, "line %lu: %s: odd or empty hex string", rec->line, field);
        return -1;
    }
    if (n / 2 > max) {
        snprintf(err, errlen, "line %lu: %s: longer than %zu bytes", rec->line, field, max);
        return -1;
    }
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_val(v[2 * i]), lo = hex_val(v[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            snprintf(err, errlen, "line %lu: %s: bad hex digit", rec->line, field);
            return -1;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

static int expect_line(FILE *f, tb_gcmvec_rec *rec, const char *field, char *err, size_t errlen)
{
    int rc = next_line(f, rec, err, errlen);
    if (rc == 0)
        snprintf(err, errlen, "line %lu: end of file inside a record (expected '%s')",
                 rec->line, field);
    return rc == 1 ? 0 : -1;
}

int tb_gcmvec_read(FILE *f, tb_gcmvec_rec *rec, char *err, size_t errlen)
{
    long n;
    int rc = next_line(f, rec, err, errlen);
    if (rc <= 0)
        return rc;
    char *end;
    if (strncmp(line_buf, "msg ", 4) || !isdigit((unsigned char)line_buf[4])) {
        snprintf(err, errlen, "line %lu: expected 'msg <index>'", rec->line);
        return -1;
    }
    rec->index = strtoul(line_buf + 4, &end, 10);
    if (*end) {
        snprintf(err, errlen, "line %lu: bad message index", rec->line);
        return -1;
    }
    if (expect_line(f, rec, "key", err, errlen) ||
        (n = field_hex(rec, "key", rec->key, 32, 0, err, errlen)) < 0)
        return -1;
    if (n != 16 && n != 32) {
        snprintf(err, errlen, "line %lu: key must be 16 or 32 bytes, not %ld", rec->line, n);
        return -1;
    }
    rec->key_len = (size_t)n;
    if (expect_line(f, rec, "iv", err, errlen) ||
        (n = field_hex(rec, "iv", rec->iv, 12, 0, err, errlen)) < 0)
        return -1;
    if (n != 12) {
        snprintf(err, errlen, "line %lu: iv must be 12 bytes, not %ld", rec->line, n);
        return -1;
    }
    if (expect_line(f, rec, "aad", err, errlen) ||
        (n = field_hex(rec, "aad", rec->aad, TB_GCMVEC_MAX_BYTES, 1, err, errlen)) < 0)
        return -1;
    rec->aad_len = (size_t)n;
    if (expect_line(f, rec, "pt", err, errlen) ||
        (n = field_hex(rec, "pt", rec->pt, TB_GCMVEC_MAX_BYTES, 1, err, errlen)) < 0)
        return -1;
    rec->len = (size_t)n;
    if (expect_line(f, rec, "ct", err, errlen) ||
        (n = field_hex(rec, "ct", rec->ct, TB_GCMVEC_MAX_BYTES, 1, err, errlen)) < 0)
        return -1;
    if ((size_t)n != rec->len) {
        snprintf(err, errlen, "line %lu: ct is %ld bytes, pt %zu", rec->line, n, rec->len);
        return -1;
    }
    if (expect_line(f, rec, "tag", err, errlen) ||
        (n = field_hex(rec, "tag", rec->tag, 16, 0, err, errlen)) < 0)
        return -1;
    if (n != 16) {
        snprintf(err, errlen, "line %lu: tag must be 16 bytes, not %ld", rec->line, n);
        return -1;
    }
    if (expect_line(f, rec, "end", err, errlen))
        return -1;
    if (strcmp(line_buf, "end")) {
        snprintf(err, errlen, "line %lu: expected 'end'", rec->line);
        return -1;
    }
    return 1;
}
