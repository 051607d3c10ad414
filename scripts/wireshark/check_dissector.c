/*
 * check_dissector.c — checks what the Lua dissector (scripts/wireshark/ibsec.lua) prints
 * through tshark against what the C model knows, and the dissector's AES-GCM against
 * OpenSSL. Run by scripts/wireshark/test_dissector.sh (`make test-dissector`).
 *
 *   check_dissector fields
 *       prints the tshark arguments "-e frame.number -e ibsec.mode ..." of the columns
 *       the other commands read, so that the column list lives here only
 *   check_dissector gcm FILE
 *       every record of FILE (docs/gcm-vectors.md format; the Lua known-answer test
 *       writes messages its AES-GCM sealed) resealed with OpenSSL EVP: ciphertext and tag
 *   check_dissector sealed KEYS PLAIN.pcap SEALED.pcap FIELDS.tsv good|bad-tag|no-key
 *       FIELDS.tsv is tshark's output (-T fields, the columns above) for SEALED.pcap,
 *       read with the key file KEYS (good), a key file whose keys are all wrong
 *       (bad-tag), or none (no-key). Each record of PLAIN.pcap is sealed again by the
 *       model as endpoint a of KEYS, which must reproduce SEALED.pcap; from that the
 *       model gives the context, mode and EPSN of every packet. Then per packet:
 *       mode, SECMODE, STHSZ and the STH size decoded from BTH byte 8; the tag bytes
 *       equal the bytes at the documented place (STH after the last ETH, or the ICRC
 *       field in icrc-mac); context, direction bit, EPSN and IV; the verdict (good /
 *       bad tag / no key for a secured packet, plain for mode none); the payload and
 *       pad shown equal the plain packet's (good only; nothing is shown otherwise).
 *   check_dissector wire KEYS LINK.vec FIELDS.tsv
 *       FIELDS.tsv for the link's wire pcap (every packet offered to the receiver, in
 *       the order of the vector file's records that have a `wire` line): where the
 *       model's receiver delivered a secured packet the verdict is good, its EPSN the
 *       model's, and the payload the delivered packet's; where the receiver found
 *       auth_failed the verdict is bad tag and no payload is shown; where a replayed
 *       copy was refused as a replay the verdict is good and the dissector marks the
 *       EPSN as already accepted.
 *
 * Every comparison counts as one check; the last line is "<name>: N passed, N failed"
 * and the exit status is 0 only when nothing failed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "check.h"
#include "gcmvec.h"
#include "ibsec.h"
#include "keyfile.h"
#include "ossl_gcm.h"
#include "pcap.h"

#define PKT_BUF   262144u                       /* largest snaplen the pcap reader accepts */
#define FIELD_HEX (2u * IBSEC_MAX_PKT + 16u)    /* longest byte field tshark can print */

/* The tshark columns, in order. */
enum col {
    COL_FRAME, COL_MODE, COL_SECMODE, COL_STHSZ, COL_STH_BITS, COL_STH_LEN, COL_TAG, COL_STH,
    COL_ICRC_MAC, COL_CTX, COL_DIR, COL_EPSN, COL_IV, COL_VERDICT, COL_REPLAY, COL_PT_LEN,
    COL_PLAINTEXT, COL_PAD, COL_COUNT
};
static const char *const col_name[COL_COUNT] = {
    "frame.number", "ibsec.mode", "ibsec.secmode", "ibsec.sthsz", "ibsec.sth_bits",
    "ibsec.sth_len", "ibsec.tag", "ibsec.sth", "ibsec.icrc_mac", "ibsec.ctx", "ibsec.dir",
    "ibsec.epsn", "ibsec.iv", "ibsec.verdict", "ibsec.replay", "ibsec.plaintext_len",
    "ibsec.plaintext", "ibsec.pad",
};

/* One line of tshark output split at its tabs (the strings point into the line). */
struct row {
    char *line;
    size_t cap;
    const char *f[COL_COUNT];
};

/* Reads the next row; 1, 0 at end of file, -1 when the line has the wrong column count. */
static int row_read(FILE *f, struct row *r)
{
    ssize_t n = getline(&r->line, &r->cap, f);
    if (n < 0)
        return 0;
    while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
        r->line[--n] = '\0';
    char *p = r->line;
    for (int i = 0; i < COL_COUNT; i++) {
        r->f[i] = p;
        char *tab = strchr(p, '\t');
        if (tab == NULL) {
            if (i != COL_COUNT - 1)
                return -1;
            break;
        }
        if (i == COL_COUNT - 1)
            return -1;
        *tab = '\0';
        p = tab + 1;
    }
    return 1;
}

/* ---- field comparisons ---------------------------------------------------------- */

struct where {
    check_ctx *c;
    const char *file;
    unsigned long frame;
};

static void expect_str(const struct where *w, const struct row *r, enum col k, const char *want)
{
    if (strcmp(r->f[k], want) == 0)
        w->c->passed++;
    else
        check_failf(w->c, "%s frame %lu %s: expected \"%s\", got \"%s\"", w->file, w->frame,
                    col_name[k], want, r->f[k]);
}

/* An unsigned field; has = false: the field must be absent (empty). */
static void expect_uint(const struct where *w, const struct row *r, enum col k, bool has,
                        unsigned long long want)
{
    const char *s = r->f[k];
    if (!has) {
        expect_str(w, r, k, "");
        return;
    }
    char *end;
    unsigned long long got = strtoull(s, &end, 0);
    if (*s != '\0' && *end == '\0' && got == want)
        w->c->passed++;
    else
        check_failf(w->c, "%s frame %lu %s: expected 0x%llx, got \"%s\"", w->file, w->frame,
                    col_name[k], want, s);
}

/* A byte field; bytes = NULL: the field must be absent (empty). */
static void expect_bytes(const struct where *w, const struct row *r, enum col k,
                         const uint8_t *bytes, size_t n)
{
    static uint8_t got[FIELD_HEX / 2];
    static char hex[FIELD_HEX];
    if (bytes == NULL) {
        expect_str(w, r, k, "");
        return;
    }
    size_t m = 0;
    for (const char *p = r->f[k]; *p != '\0' && m + 1 < sizeof hex; p++)
        if (*p != ':')
            hex[m++] = *p;
    hex[m] = '\0';
    long got_n = check_unhex(hex, got, sizeof got);
    char what[160];
    snprintf(what, sizeof what, "%s frame %lu %s", w->file, w->frame, col_name[k]);
    if (got_n != (long)n) {
        check_failf(w->c, "%s: expected %zu bytes, got \"%.64s\"", what, n, r->f[k]);
        return;
    }
    check_bytes(w->c, what, bytes, got, n);
}

/* ---- what the model says about one wire packet ----------------------------------- */

struct expect {
    enum ibsec_mode mode;
    uint8_t b8;                     /* BTH byte 8 */
    unsigned sth_code;
    size_t sth_len, tag_off, tag_len;
    int ctx;                        /* -1: none */
    unsigned dir;
    uint64_t epsn;
    uint8_t iv[IBSEC_GCM_IV_LEN];
    const uint8_t *payload;         /* the plain packet's payload and pad, NULL: not shown */
    size_t payload_len, padcnt;
};

/* Locates BTH byte 8, the mode and the tag of a wire packet. 0, or -1 if the model cannot
 * parse it (then nothing about it is checked). */
static int wire_layout(const uint8_t *pkt, size_t len, enum ibsec_link link, struct expect *x)
{
    struct ibsec_pkt p;
    size_t bth;
    if (ibsec_pkt_find_bth(pkt, len, link, &bth) != IBSEC_PKT_OK)
        return -1;
    x->b8 = pkt[bth + IBSEC_BTH_BYTE_RESV7];
    if (ibsec_secbits_decode(x->b8, &x->mode, &x->sth_code) != 0 ||
        !ibsec_sth_code_supported(x->sth_code))
        return -1;
    x->sth_len = ibsec_sth_len(x->sth_code);
    if (ibsec_frame_parse(pkt, len, link, x->sth_len, &p) != IBSEC_PKT_OK)
        return -1;
    x->tag_off = ibsec_mode_has_sth(x->mode) ? p.extra_off : p.icrc_off;
    x->tag_len = ibsec_mode_has_sth(x->mode) ? x->sth_len
               : x->mode == IBSEC_MODE_ICRC_MAC ? IBSEC_ICRC_MAC_TAG_LEN : 0;
    return 0;
}

/* The payload and pad of a plain (delivered) packet. */
static int plain_payload(const uint8_t *pkt, size_t len, enum ibsec_link link, struct expect *x)
{
    struct ibsec_pkt p;
    if (ibsec_frame_parse(pkt, len, link, 0, &p) != IBSEC_PKT_OK)
        return -1;
    x->payload = pkt + p.payload_off;
    x->payload_len = p.payload_len;
    x->padcnt = p.padcnt;
    return 0;
}

enum verdict { V_GOOD, V_BAD_TAG, V_NO_KEY };

/* Compares one row with the model's expectation. */
static void check_row(const struct where *w, const struct row *r, const uint8_t *wire,
                      const struct expect *x, enum verdict v, bool check_epsn)
{
    bool secured = x->mode != IBSEC_MODE_NONE;
    expect_uint(w, r, COL_FRAME, true, w->frame);
    expect_str(w, r, COL_MODE, ibsec_mode_name(x->mode));
    expect_uint(w, r, COL_SECMODE, true, (x->b8 & IBSEC_SECMODE_MASK) >> IBSEC_SECMODE_SHIFT);
    expect_uint(w, r, COL_STHSZ, true, x->b8 & IBSEC_STHSZ_MASK);
    expect_uint(w, r, COL_STH_BITS, true, ibsec_sth_bits(x->sth_code));
    expect_uint(w, r, COL_STH_LEN, true, x->sth_len);
    const uint8_t *tag = x->tag_len ? wire + x->tag_off : NULL;
    expect_bytes(w, r, COL_TAG, tag, x->tag_len);
    expect_bytes(w, r, COL_STH, ibsec_mode_has_sth(x->mode) ? tag : NULL, x->tag_len);
    expect_bytes(w, r, COL_ICRC_MAC, x->mode == IBSEC_MODE_ICRC_MAC ? tag : NULL, x->tag_len);
    expect_uint(w, r, COL_CTX, v != V_NO_KEY && x->ctx >= 0, (unsigned long long)x->ctx);
    if (check_epsn) {
        expect_uint(w, r, COL_DIR, secured, x->dir);
        expect_uint(w, r, COL_EPSN, secured, x->epsn);
        expect_bytes(w, r, COL_IV, secured ? x->iv : NULL, IBSEC_GCM_IV_LEN);
    }
    const char *want = !secured ? "plain" : v == V_GOOD ? "good" : v == V_BAD_TAG ? "bad tag" : "no key";
    expect_str(w, r, COL_VERDICT, want);
    bool shown = secured && v == V_GOOD;
    expect_uint(w, r, COL_PT_LEN, shown, x->payload_len);
    expect_bytes(w, r, COL_PLAINTEXT, shown && x->payload_len ? x->payload : NULL, x->payload_len);
    expect_bytes(w, r, COL_PAD, shown && x->padcnt ? x->payload + x->payload_len : NULL, x->padcnt);
}

/* ---- commands ---------------------------------------------------------------------- */

static int cmd_fields(void)
{
    for (int i = 0; i < COL_COUNT; i++)
        printf("%s-e %s", i ? " " : "", col_name[i]);
    putchar('\n');
    return 0;
}

static int cmd_gcm(const char *path)
{
    check_ctx c;
    check_init(&c, "lua-gcm-openssl");
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        check_failf(&c, "cannot open %s", path);
        return check_summary(&c);
    }
    static ibsec_gcmvec_rec rec;
    static uint8_t ct[IBSEC_GCMVEC_MAX_BYTES];
    uint8_t tag[16];
    char err[160];
    int rc;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    ibsec_gcmvec_rec_init(&rec);
    while ((rc = ibsec_gcmvec_read_next(f, &rec, err, sizeof err)) == 1) {
        char what[96];
        if (ossl_gcm_seal(ctx, rec.key, rec.key_len, rec.iv, rec.aad, rec.aad_len, rec.pt, rec.len,
                          ct, tag, sizeof tag) != 0) {
            check_failf(&c, "msg %lu: OpenSSL refused the message", rec.index);
            continue;
        }
        snprintf(what, sizeof what, "msg %lu (%zu data bytes): ciphertext", rec.index, rec.len);
        check_bytes(&c, what, ct, rec.ct, rec.len);
        snprintf(what, sizeof what, "msg %lu (%zu data bytes): tag", rec.index, rec.len);
        check_bytes(&c, what, tag, rec.tag, sizeof tag);
    }
    if (rc < 0)
        check_failf(&c, "%s: %s", path, err);
    check_true(&c, c.passed >= 2 * 100, "fewer than 100 messages in the Lua vector file");
    EVP_CIPHER_CTX_free(ctx);
    fclose(f);
    return check_summary(&c);
}

static enum ibsec_link link_of(uint32_t linktype)
{
    return linktype == IBSEC_LINKTYPE_INFINIBAND ? IBSEC_LINK_IB : IBSEC_LINK_ROCE;
}

static int cmd_sealed(const char *keys, const char *plain_path, const char *sealed_path,
                      const char *fields_path, const char *expect)
{
    check_ctx c;
    check_init(&c, "dissector-sealed");
    enum verdict v = strcmp(expect, "good") == 0 ? V_GOOD : strcmp(expect, "bad-tag") == 0 ? V_BAD_TAG
                   : V_NO_KEY;
    ibsec_engine e;
    ibsec_pcap_reader pr, sr;
    char err[256];
    FILE *ff = fopen(fields_path, "r");
    if (ibsec_keyfile_load(keys, &e, err, sizeof err) != 0 || ff == NULL ||
        ibsec_pcap_reader_open(&pr, plain_path) != 0 || ibsec_pcap_reader_open(&sr, sealed_path) != 0) {
        check_failf(&c, "cannot read the inputs (%s; %s)", err, ff ? "" : fields_path);
        return check_summary(&c);
    }
    enum ibsec_link link = link_of(sr.linktype);
    static uint8_t plain[PKT_BUF], sealed[PKT_BUF], out[PKT_BUF];
    struct row r = { 0 };
    size_t plen, slen, olen;
    struct where w = { &c, sealed_path, 0 };
    int rp, rs, rr;
    for (;;) {
        rp = ibsec_pcap_read(&pr, plain, sizeof plain, &plen, NULL, NULL);
        rs = ibsec_pcap_read(&sr, sealed, sizeof sealed, &slen, NULL, NULL);
        rr = row_read(ff, &r);
        if (rp != 1 || rs != 1 || rr != 1)
            break;
        w.frame++;
        ibsec_verdict vd;
        enum ibsec_reason why = ibsec_seal(&e, link, plain, plen, out, sizeof out, &olen, &vd);
        char what[160];
        snprintf(what, sizeof what, "%s record %lu: the model's seal reproduces it", sealed_path, w.frame);
        if (!check_true(&c, why == IBSEC_R_OK && olen == slen && memcmp(out, sealed, slen) == 0, what))
            continue;
        struct expect x = { .ctx = vd.ctx, .epsn = vd.epsn };
        if (wire_layout(sealed, slen, link, &x) != 0 || plain_payload(plain, plen, link, &x) != 0) {
            check_failf(&c, "%s record %lu: the model cannot parse it", sealed_path, w.frame);
            continue;
        }
        if (x.mode != IBSEC_MODE_NONE) {
            const ibsec_ctx *cx = &e.ctx[vd.ctx];
            x.dir = cx->cfg.dir;
            ibsec_iv_build(e.keys[cx->cfg.key].salt, x.dir, x.epsn, x.iv);
        }
        /* a wrong key verifies nothing, so the EPSN reference never moves: only the
         * good run's EPSNs are the model's */
        check_row(&w, &r, sealed, &x, v, v == V_GOOD);
    }
    if (rr < 0)
        check_failf(&c, "%s line %lu: not %d tab-separated columns", fields_path, w.frame + 1, COL_COUNT);
    else if (rp != 0 || rs != 0 || rr != 0)
        check_failf(&c, "%s, %s and %s do not end together (after %lu records)", plain_path,
                    sealed_path, fields_path, w.frame);
    check_true(&c, w.frame > 0, "no packet compared");
    free(r.line);
    fclose(ff);
    ibsec_pcap_reader_close(&pr);
    ibsec_pcap_reader_close(&sr);
    ibsec_engine_free(&e);
    return check_summary(&c);
}

/* One record of a packet vector file (docs/vectors.md) that was offered to the receiver. */
struct vec_rec {
    char kind[16], reason[32];
    uint64_t epsn;
    bool has_epsn;
    size_t wire_len, open_len;
    uint8_t wire[IBSEC_MAX_PKT], open[IBSEC_MAX_PKT];
};

/* Reads up to the next record with a wire packet: 1, 0 at the end, -1 malformed. */
static int vec_next(FILE *f, struct vec_rec *v, char **line, size_t *cap)
{
    bool in_rec = false, have_wire = false;
    while (getline(line, cap, f) >= 0) {
        char *s = *line;
        s[strcspn(s, "\r\n")] = '\0';
        if (strncmp(s, "pkt ", 4) == 0) {
            char epsn[32];
            in_rec = have_wire = false;
            if (sscanf(s, "pkt %*u kind %15s shape %*s ctx %*d mode %*s epsn %31s", v->kind, epsn) != 2)
                return -1;
            v->has_epsn = strcmp(epsn, "-") != 0;
            v->epsn = v->has_epsn ? strtoull(epsn, NULL, 16) : 0;
            in_rec = true;
        } else if (in_rec && strncmp(s, "wire ", 5) == 0) {
            have_wire = strcmp(s + 5, "-") != 0;
            long n = have_wire ? check_unhex(s + 5, v->wire, sizeof v->wire) : 0;
            if (n < 0)
                return -1;
            v->wire_len = (size_t)n;
        } else if (in_rec && strncmp(s, "open ", 5) == 0) {
            char *hex = strchr(s + 5, ' ');
            if (hex == NULL)
                return -1;
            *hex++ = '\0';
            snprintf(v->reason, sizeof v->reason, "%s", s + 5);
            long n = strcmp(hex, "-") == 0 ? 0 : check_unhex(hex, v->open, sizeof v->open);
            if (n < 0)
                return -1;
            v->open_len = (size_t)n;
            in_rec = false;
            if (have_wire)
                return 1;
        }
    }
    return 0;
}

static int cmd_wire(const char *keys, const char *vec_path, const char *fields_path)
{
    check_ctx c;
    check_init(&c, "dissector-wire");
    ibsec_engine e;
    char err[256];
    FILE *vf = fopen(vec_path, "r"), *ff = fopen(fields_path, "r");
    if (ibsec_keyfile_load(keys, &e, err, sizeof err) != 0 || vf == NULL || ff == NULL) {
        check_failf(&c, "cannot read the inputs (%s, %s, %s)", keys, vec_path, fields_path);
        return check_summary(&c);
    }
    char *line = NULL;
    size_t cap = 0;
    enum ibsec_link link = IBSEC_LINK_IB;
    while (getline(&line, &cap, vf) >= 0)
        if (strncmp(line, "link ", 5) == 0) {
            link = strncmp(line + 5, "rocev2", 6) == 0 ? IBSEC_LINK_ROCE : IBSEC_LINK_IB;
            break;
        }
    static struct vec_rec v;
    struct row r = { 0 };
    struct where w = { &c, vec_path, 0 };
    unsigned long n_good = 0, n_bad = 0, n_replay = 0;
    int rv, rr;
    for (;;) {
        rv = vec_next(vf, &v, &line, &cap);
        rr = row_read(ff, &r);
        if (rv != 1 || rr != 1)
            break;
        w.frame++;
        struct expect x = { .ctx = -1 };
        if (wire_layout(v.wire, v.wire_len, link, &x) != 0)
            continue;                          /* a tampered header: not the tag's business */
        bool secured = x.mode != IBSEC_MODE_NONE;
        if (strcmp(v.reason, "ok") == 0 && secured && strcmp(v.kind, "normal") == 0) {
            if (plain_payload(v.open, v.open_len, link, &x) != 0) {
                check_failf(&c, "%s wire packet %lu: the delivered packet does not parse", vec_path, w.frame);
                continue;
            }
            expect_str(&w, &r, COL_VERDICT, "good");
            expect_uint(&w, &r, COL_EPSN, v.has_epsn, v.epsn);
            expect_bytes(&w, &r, COL_TAG, v.wire + x.tag_off, x.tag_len);
            expect_uint(&w, &r, COL_PT_LEN, true, x.payload_len);
            expect_bytes(&w, &r, COL_PLAINTEXT, x.payload_len ? x.payload : NULL, x.payload_len);
            n_good++;
        } else if (strcmp(v.reason, "auth_failed") == 0) {
            expect_str(&w, &r, COL_VERDICT, "bad tag");
            expect_str(&w, &r, COL_PLAINTEXT, "");
            expect_str(&w, &r, COL_PT_LEN, "");
            n_bad++;
        } else if (strcmp(v.reason, "replay") == 0 && strcmp(v.kind, "replay") == 0) {
            /* (a forged copy of an accepted packet is a replay to the receiver, which
             * looks no further; the dissector checks its tag and finds it bad) */
            expect_str(&w, &r, COL_VERDICT, "good");
            expect_uint(&w, &r, COL_REPLAY, true, 1);
            n_replay++;
        }
    }
    if (rv < 0)
        check_failf(&c, "%s: malformed record after wire packet %lu", vec_path, w.frame);
    else if (rr < 0)
        check_failf(&c, "%s line %lu: not %d tab-separated columns", fields_path, w.frame + 1, COL_COUNT);
    else if (rv != 0 || rr != 0)
        check_failf(&c, "%s and %s do not end together (after %lu wire packets)", vec_path,
                    fields_path, w.frame);
    check_true(&c, n_good > 0 && n_bad > 0 && n_replay > 0,
               "the wire packets lack delivered, auth_failed or replayed ones");
    printf("dissector-wire: %s: %lu wire packets; verdicts checked: %lu good, %lu bad tag, %lu replay\n",
           vec_path, w.frame, n_good, n_bad, n_replay);
    free(line);
    free(r.line);
    fclose(vf);
    fclose(ff);
    ibsec_engine_free(&e);
    return check_summary(&c);
}

static int usage(void)
{
    fprintf(stderr,
            "usage: check_dissector fields\n"
            "       check_dissector gcm FILE\n"
            "       check_dissector sealed KEYS PLAIN.pcap SEALED.pcap FIELDS.tsv good|bad-tag|no-key\n"
            "       check_dissector wire KEYS LINK.vec FIELDS.tsv\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "fields") == 0)
        return cmd_fields();
    if (argc == 3 && strcmp(argv[1], "gcm") == 0)
        return cmd_gcm(argv[2]);
    if (argc == 7 && strcmp(argv[1], "sealed") == 0 &&
        (strcmp(argv[6], "good") == 0 || strcmp(argv[6], "bad-tag") == 0 || strcmp(argv[6], "no-key") == 0))
        return cmd_sealed(argv[2], argv[3], argv[4], argv[5], argv[6]);
    if (argc == 5 && strcmp(argv[1], "wire") == 0)
        return cmd_wire(argv[2], argv[3], argv[4]);
    return usage();
}
