/*
 * test_keyfile.c — the key file reader and writer (cmodel/keyfile.h, docs/keyfile.md).
 *
 *   1. Round trip: engines with random key tables and contexts (every mode, both
 *      selectors, both STH sizes, AES-128 and AES-256, EPSNs up to 2^63-1) are
 *      written, read back and compared field by field with what was configured;
 *      writing the loaded engine again gives the same text.
 *   2. Peer: loading side b of a file written for side a inverts every context's
 *      direction and swaps its EPSNs, as ibsec_engine_make_peer() specifies.
 *   3. A corpus of malformed files: each must be refused, with the message naming
 *      the file and the offending line and containing the expected fragment, and
 *      leave the engine uninitialised.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "keyfile.h"
#include "rng.h"

#define N_ROUND_TRIPS 40

/* Write a string to a temporary stream and read it as a key file. */
static int load_text(const char *text, ibsec_engine *e, enum ibsec_keyfile_side want,
                     char *err, size_t errlen)
{
    FILE *f = tmpfile();
    if (!f) {
        snprintf(err, errlen, "tmpfile failed");
        return -2;
    }
    fputs(text, f);
    rewind(f);
    int rc = ibsec_keyfile_read(f, "t.keys", e, 1, want, NULL, err, errlen);
    fclose(f);
    return rc;
}

/* Text of a key file written from e (caller frees), or NULL. */
static char *write_text(const ibsec_engine *e, char side)
{
    char err[200];
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = ibsec_keyfile_write(f, e, side, "test engine\nsecond comment line", err, sizeof err);
    fclose(f);
    if (rc != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* A random but valid engine: every mode/STH/selector/key size appears. */
static void random_engine(ibsec_rng *r, ibsec_engine *e)
{
    unsigned nk = ibsec_rng_range(r, 2, 12), nc = ibsec_rng_range(r, 6, 40);
    ibsec_engine_init(e, nk, nc, 1);
    e->allow_plain = ibsec_rng_below(r, 2);
    for (unsigned i = 0; i < nk; i++) {
        uint8_t key[32], salt[IBSEC_SALT_LEN];
        ibsec_rng_bytes(r, key, sizeof key);
        ibsec_rng_bytes(r, salt, sizeof salt);
        if (i < 2 || ibsec_rng_below(r, 4))   /* some holes in the table */
            ibsec_key_set(e, i, key, (i & 1) ? 32 : 16, salt);
    }
    for (unsigned i = 0; i < nc; i++) {
        if (i >= 5 && ibsec_rng_below(r, 3) == 0)
            continue;
        ibsec_ctx_cfg c;
        memset(&c, 0, sizeof c);
        c.sel = (ibsec_rng_below(r, 2) == 0) ? IBSEC_SEL_QP : IBSEC_SEL_PKEY;
        c.match = (c.sel == IBSEC_SEL_QP) ? (0x100000u + i * 7u) : (0x100u + i);
        c.mode = (enum ibsec_mode)(i % IBSEC_MODE_COUNT);
        c.key = (i & 1) ? 1u : 0u;
        c.sth_code = ibsec_mode_has_sth(c.mode) ? 1u + (i / IBSEC_MODE_COUNT) % 2u : 0u;
        c.dir = ibsec_rng_below(r, 2);
        c.tx_next = ibsec_rng_next(r) >> ibsec_rng_range(r, 1, 63);
        c.rx_next = (i == 0) ? IBSEC_EPSN_LIMIT - 1 : ibsec_rng_next(r) >> ibsec_rng_range(r, 1, 63);
        c.alert_threshold = ibsec_rng_below(r, 3) == 0 ? 0 : ibsec_rng_u32(r);
        if (c.mode == IBSEC_MODE_NONE)
            c.key = 0;
        ibsec_ctx_set(e, i, &c, NULL);
    }
}

static int same_cfg(const ibsec_ctx_cfg *a, const ibsec_ctx_cfg *b)
{
    return a->sel == b->sel && a->match == b->match && a->mode == b->mode &&
           a->key == b->key && a->sth_code == b->sth_code && a->dir == b->dir &&
           a->tx_next == b->tx_next && a->rx_next == b->rx_next &&
           a->alert_threshold == b->alert_threshold;
}

/* Compare two engines' configuration; peer = b must be a's peer. */
static void compare_engines(check_ctx *c, const ibsec_engine *a, const ibsec_engine *b, int peer)
{
    check_int(c, "key table size", a->n_keys, b->n_keys);
    check_int(c, "context table size", a->n_ctx, b->n_ctx);
    check_int(c, "allow_plain", a->allow_plain, b->allow_plain);
    if (a->n_keys != b->n_keys || a->n_ctx != b->n_ctx)
        return;
    for (unsigned i = 0; i < a->n_keys; i++) {
        const ibsec_key_entry *x = &a->keys[i], *y = &b->keys[i];
        check_int(c, "key valid", x->valid, y->valid);
        if (x->valid && y->valid) {
            check_int(c, "key length", (long long)x->key_len, (long long)y->key_len);
            check_bytes(c, "key bytes", x->key, y->key, x->key_len);
            check_bytes(c, "salt", x->salt, y->salt, IBSEC_SALT_LEN);
        }
    }
    for (unsigned i = 0; i < a->n_ctx; i++) {
        const ibsec_ctx *x = &a->ctx[i], *y = &b->ctx[i];
        check_int(c, "context valid", x->valid, y->valid);
        if (!x->valid || !y->valid)
            continue;
        ibsec_ctx_cfg want = x->cfg;
        if (peer) {
            want.dir ^= 1u;
            want.tx_next = x->cfg.rx_next;
            want.rx_next = x->cfg.tx_next;
        }
        if (!check_true(c, same_cfg(&want, &y->cfg), "context configuration survives the file"))
            printf("  context %u\n", i);
        check_true(c, y->tx_next == want.tx_next && y->rx_next == want.rx_next,
                   "context live EPSN state starts at the configured values");
    }
}

static void test_round_trip(check_ctx *c)
{
    ibsec_rng r;
    ibsec_rng_seed(&r, 0x6b657973u);
    for (int t = 0; t < N_ROUND_TRIPS; t++) {
        ibsec_engine a, b, p;
        char err[256];
        char side = (t & 1) ? 'b' : 'a', other = (t & 1) ? 'a' : 'b';
        random_engine(&r, &a);
        char *text = write_text(&a, side);
        if (!check_true(c, text != NULL, "writer succeeds"))
            continue;
        if (check_int(c, "load of a written file", 0, load_text(text, &b, IBSEC_SIDE_AS_WRITTEN, err, sizeof err))) {
            compare_engines(c, &a, &b, 0);
            char *again = write_text(&b, side);
            check_true(c, again && strcmp(again, text) == 0, "rewritten file is identical");
            free(again);
            ibsec_engine_free(&b);
        } else {
            printf("  %s\n", err);
        }
        if (check_int(c, "load of the other side", 0,
                      load_text(text, &p, (enum ibsec_keyfile_side)other, err, sizeof err))) {
            compare_engines(c, &a, &p, 1);
            ibsec_engine_free(&p);
        }
        if (check_int(c, "load of the peer", 0, load_text(text, &p, IBSEC_SIDE_PEER, err, sizeof err))) {
            compare_engines(c, &a, &p, 1);
            ibsec_engine_free(&p);
        }
        if (check_int(c, "load of the written side by name", 0,
                      load_text(text, &p, (enum ibsec_keyfile_side)side, err, sizeof err))) {
            compare_engines(c, &a, &p, 0);
            ibsec_engine_free(&p);
        }
        free(text);
        ibsec_engine_free(&a);
    }
}

/* A minimal valid file, then malformed variants. */
#define HDR  "ibsec-keys 1\nside a\ntables 4 8\n"
#define K0   "key 0 aes128 000102030405060708090a0b0c0d0e0f salt a0a1a2a3\n"
#define K1   "key 1 aes256 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f salt 01020304\n"
#define C0   "ctx 0 qp 0x12 mode sth-aead key 0 sth 128 dir 0 tx_next 0 rx_next 0 alert 8\n"

struct bad_case {
    const char *text;
    unsigned    line;       /* line the message must name */
    const char *fragment;   /* part of the message */
};

static const struct bad_case bad_cases[] = {
    { "", 0, "not an ibsec key file" },
    { "# only a comment\n", 1, "not an ibsec key file" },
    { "\xd4\xc3\xb2\xa1\x02\x00\x04\x00\n", 1, "not a text line" },
    { "side a\n", 1, "not an ibsec key file" },
    { "ibsec-keys 2\n", 1, "unsupported key file version 2" },
    { "ibsec-keys\n", 1, "bad header" },
    { "ibsec-keys 1\nibsec-keys 1\n", 2, "second header line" },
    { "ibsec-keys 1\nside c\n", 2, "expected 'side a' or 'side b'" },
    { "ibsec-keys 1\nside a\nside b\n", 3, "second 'side' line" },
    { "ibsec-keys 1\nside a\n", 2, "no 'tables' line" },
    { "ibsec-keys 1\ntables 4 8\n", 2, "no 'side' line" },
    { "ibsec-keys 1\nside a\n" K0, 3, "'key' before the 'tables' line" },
    { "ibsec-keys 1\nside a\n" C0, 3, "'ctx' before the 'tables' line" },
    { "ibsec-keys 1\nside a\nallow_plain on\n", 3, "'allow_plain' before the 'tables' line" },
    { "ibsec-keys 1\nside a\ntables 0 8\n", 3, "bad key table size '0'" },
    { "ibsec-keys 1\nside a\ntables 4 99999999\n", 3, "bad context table size" },
    { "ibsec-keys 1\nside a\ntables 4\n", 3, "expected 'tables <key entries> <context entries>'" },
    { HDR "tables 4 8\n", 4, "second 'tables' line" },
    { HDR "allow_plain maybe\n", 4, "expected 'allow_plain on' or 'allow_plain off'" },
    { HDR "allow_plain on\nallow_plain off\n", 5, "second 'allow_plain' line" },
    { HDR "colour blue\n", 4, "unknown keyword 'colour'" },
    { HDR "key 0 aes128 000102030405060708090a0b0c0d0e0f\n", 4, "expected 'key <index>" },
    { HDR "key 0 aes192 000102030405060708090a0b0c0d0e0f1011121314151617 salt 00000000\n", 4, "unknown cipher 'aes192'" },
    { HDR "key 0 aes128 000102030405060708090a0b0c0d0e0g salt 00000000\n", 4, "bad hex digit in the key" },
    { HDR "key 0 aes128 000102030405060708090a0b0c0d0e salt 00000000\n", 4, "aes128 key needs 32 hex digits (16 bytes), got 30" },
    { HDR "key 0 aes256 000102030405060708090a0b0c0d0e0f salt 00000000\n", 4, "aes256 key needs 64 hex digits (32 bytes), got 32" },
    { HDR "key 0 aes128 000102030405060708090a0b0c0d0e0f salt 000000\n", 4, "salt needs 8 hex digits" },
    { HDR "key 0 aes128 000102030405060708090a0b0c0d0e0f salt 0000000z\n", 4, "bad hex digit in the salt" },
    { HDR "key 4 aes128 000102030405060708090a0b0c0d0e0f salt 00000000\n", 4, "key index 4 out of range (the key table has 4 entries)" },
    { HDR "key -1 aes128 000102030405060708090a0b0c0d0e0f salt 00000000\n", 4, "bad key index '-1'" },
    { HDR K0 K0, 5, "key 0 already defined on line 4" },
    { HDR K0 "ctx 8 qp 1 mode none\n", 5, "context index 8 out of range (the context table has 8 entries)" },
    { HDR K0 "ctx 0 qp 0x1000000 mode none\n", 5, "bad QPN '0x1000000'" },
    { HDR K0 "ctx 0 pkey 0xffff mode none\n", 5, "bad P_Key '0xffff'" },
    { HDR K0 "ctx 0 lid 3 mode none\n", 5, "unknown selector 'lid'" },
    { HDR K0 "ctx 0 qp 3\n", 5, "context has no 'mode'" },
    { HDR K0 "ctx 0 qp 3 mode sth-foo key 0\n", 5, "unknown mode 'sth-foo'" },
    { HDR K0 "ctx 0 qp 3 mode icrc-mac key 0 colour red\n", 5, "unknown context field 'colour'" },
    { HDR K0 "ctx 0 qp 3 mode icrc-mac key\n", 5, "context field 'key' has no value" },
    { HDR K0 "ctx 0 qp 3 mode icrc-mac key 0 dir 0 dir 1\n", 5, "context field 'dir' given twice" },
    { HDR K0 "ctx 0 qp 3 mode icrc-mac\n", 5, "mode icrc-mac needs a 'key <index>'" },
    { HDR K0 "ctx 0 qp 3 mode none key 0\n", 5, "mode none uses no key" },
    { HDR K0 "ctx 0 qp 3 mode sth-pkt key 0\n", 5, "mode sth-pkt needs 'sth 96' or 'sth 128'" },
    { HDR K0 "ctx 0 qp 3 mode icrc-mac key 0 sth 96\n", 5, "mode icrc-mac carries no STH" },
    { HDR K0 "ctx 0 qp 3 mode sth-hdr key 0 sth 256\n", 5, "sth 256 is not supported" },
    { HDR K0 "ctx 0 qp 3 mode sth-hdr key 0 sth 100\n", 5, "bad sth size 100" },
    { HDR K0 "ctx 0 qp 3 mode sth-hdr key 9 sth 96\n", 5, "key index 9 out of range" },
    { HDR K0 "ctx 0 qp 3 mode sth-hdr key 0 sth 96 dir 2\n", 5, "bad dir '2'" },
    { HDR K0 "ctx 0 qp 3 mode sth-hdr key 0 sth 96 tx_next 0x8000000000000000\n", 5, "bad tx_next" },
    { HDR K0 "ctx 0 qp 3 mode sth-hdr key 0 sth 96 rx_next x\n", 5, "bad rx_next 'x'" },
    { HDR K0 "ctx 0 qp 3 mode sth-hdr key 0 sth 96 alert 4294967296\n", 5, "bad alert threshold" },
    { HDR K0 C0 C0, 6, "context 0 already defined on line 5" },
    { HDR K0 C0 "ctx 1 qp 0x000012 mode none\n", 6, "selector qp 0x12 already used by context 0 (line 5)" },
    { HDR K0 "ctx 1 pkey 0x12 mode none\nctx 2 pkey 18 mode none\n", 6, "selector pkey 0x12 already used by context 1" },
    { HDR K0 "ctx 3 qp 5 mode sth-aead key 2 sth 96\n\n", 5, "context 3 uses key 2, which is not defined" },
    { HDR K0 "ctx 3 qp 5 mode sth-aead key 0 sth 96 nonce pn\n", 5, "its keys need a salt of 24 hex digits" },
    { HDR K0 "ctx 3 qp 5 mode icrc-mac key 0 nonce pn\n", 5, "the pn nonce needs an sth-* mode" },
    { HDR K0 "ctx 3 qp 5 mode icrc-mac key 0 nonce xpn\n", 5, "bad nonce 'xpn' (epsn or pn)" },
    { HDR K0 "ctx 3 qp 5 mode icrc-mac key 0 tx_kp 1\n", 5, "tx_kp must be 0, or 1 with a key for phase 1" },
    { HDR K0 "ctx 3 qp 5 mode icrc-mac key 0 key1 3\n", 5, "context 3 uses key1 3, which is not defined" },
    { HDR K0 "ctx 3 qp 5 mode icrc-mac key 0 replay off\n", 5, "replay checking can be turned off only with the pn nonce" },
    { HDR "key 0 aes128 000102030405060708090a0b0c0d0e0f salt a0a1a2a3 ssci 3\n", 4,
      "ssci and pn belong to the pn nonce, whose salt has 24 hex digits" },
    { HDR "key 0 aes128 000102030405060708090a0b0c0d0e0f salt a0a1a2a3a4a5a6a7a8a9aaab pn 0\n", 4,
      "bad pn '0' (the first PN to send, 1..2^64-1)" },
    { HDR "peer 0 key 0 ssci 1 pn 1\n", 4, "'peer' before the 'peers' line" },
    { HDR "peers 2 window 100\n", 4, "bad window '100' (64..4096, a power of two)" },
    { HDR K0 "peers 2 window 64\npeer 0 key 0 ssci 1 pn 1\npeer 1 key 0 ssci 1 pn 3\n", 7,
      "key 0 and ssci 1 already have one" },
    { HDR "dups 3\n", 4, "expected 'dups <entries>' (1..65536, a power of two)" },
    { HDR "mgmt qp2 bypass\n", 4, "bad class 'qp2' (qp0, qp1 or mcast)" },
    { HDR "mgmt qp1 encrypt\n", 4, "bad policy 'encrypt' (context, bypass or drop)" },
    { HDR "mgmt qp1 drop\nmgmt qp1 bypass\n", 5, "second 'mgmt qp1' line" },
    { HDR K0 K1 "ctx 0 qp 5 mode icrc-mac key 1 a b c d e f g h i j k l m n o p q r s t u v w "
                "x y z A B C D E\n", 6, "too many fields" },
    { HDR "key 0 aes128 00010203\t\x01 salt 00000000\n", 4, "not a text line (byte 0x01" },
};

static void test_bad_files(check_ctx *c)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const struct bad_case *b = &bad_cases[i];
        ibsec_engine e;
        char err[256] = "";
        char where[32];
        int rc = load_text(b->text, &e, IBSEC_SIDE_AS_WRITTEN, err, sizeof err);
        snprintf(where, sizeof where, "t.keys:%u: ", b->line);
        int ok = rc == -1 && strncmp(err, where, strlen(where)) == 0 && strstr(err, b->fragment) &&
                 e.keys == NULL && e.ctx == NULL;
        if (!check_true(c, ok, "malformed key file refused with its line and message"))
            printf("  case %zu: rc %d, message \"%s\", expected \"%s...%s\"\n", i, rc, err, where,
                   b->fragment);
        if (rc == 0)
            ibsec_engine_free(&e);
    }
}

/* The good minimal file loads, and a comment or blank line anywhere is ignored. */
static void test_good_file(check_ctx *c)
{
    ibsec_engine e;
    char err[256] = "";
    const char *text = "# leading comment\n\nibsec-keys 1   # header\n side b\ntables 4 8\n"
                       "allow_plain on\n" K0 K1 C0
                       "ctx 7 pkey 0x7fff mode none\t dir 1\n";
    if (!check_int(c, "minimal file loads", 0, load_text(text, &e, IBSEC_SIDE_AS_WRITTEN, err, sizeof err))) {
        printf("  %s\n", err);
        return;
    }
    check_int(c, "allow_plain on", 1, e.allow_plain);
    check_int(c, "key 1 is AES-256", 32, (long long)e.keys[1].key_len);
    check_int(c, "ctx 0 STH code for 128 bits", IBSEC_STH_CODE_128, e.ctx[0].cfg.sth_code);
    check_int(c, "ctx 7 default alert threshold", IBSEC_ALERT_DEFAULT, e.ctx[7].cfg.alert_threshold);
    check_int(c, "ctx 7 selected by P_Key 0xffff", 7, ibsec_ctx_lookup(&e, 0x999, 0xFFFF));
    check_int(c, "ctx 0 selected by QP 0x12", 0, ibsec_ctx_lookup(&e, 0x12, 0xFFFF));
    ibsec_engine_free(&e);

    char msg[256] = "";
    int rc = ibsec_keyfile_load("/nonexistent/dir/k.txt", &e, msg, sizeof msg);
    check_true(c, rc == -1 && strstr(msg, "/nonexistent/dir/k.txt: No such file"),
               "missing file named with its errno text");
}


/* The pn nonce's fields (wire-format.md §5.2, §9): a file with a 12-byte salt, SSCI and
 * first PN, two key phases, receive entries and the duplicate table loads as written,
 * writes back to the same text, and its peer trades the SSCI and PN of the key shared
 * with one receive entry. */
#define PN_FILE                                                                          \
    "ibsec-keys 1\n"                                                                     \
    "# test engine\n"                                                                    \
    "# second comment line\n"                                                            \
    "side a\ntables 4 8\nallow_plain off\n"                                              \
    "mgmt qp0 context\nmgmt mcast drop\n"                                                \
    "key 0 aes256 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f salt "  \
    "a0a1a2a3a4a5a6a7a8a9aaab ssci 0x10 pn 5\n"                                          \
    "key 1 aes128 0f0e0d0c0b0a09080706050403020100 salt b0b1b2b3b4b5b6b7b8b9babb ssci 0x10 pn 1\n" \
    "ctx 0 pkey 0x1234 mode sth-aead key 0 sth 128 dir 0 tx_next 0x0 rx_next 0x0 alert 8 "  \
    "nonce pn key1 1 tx_kp 1 replay off\n"                                               \
    "peers 4 window 1024\n"                                                              \
    "peer 0 key 0 ssci 0x20 pn 9\n"                                                      \
    "peer 1 key 1 ssci 0x20 pn 1\n"                                                      \
    "peer 2 key 1 ssci 0x30 pn 7\n"                                                      \
    "dups 256\n"

static void test_pn_file(check_ctx *c)
{
    ibsec_engine e, p;
    char err[200] = "";
    if (!check_int(c, "pn file loads", 0, load_text(PN_FILE, &e, IBSEC_SIDE_AS_WRITTEN, err, sizeof err))) {
        printf("  %s\n", err);
        return;
    }
    const ibsec_ctx_cfg *x = &e.ctx[0].cfg;
    check_int(c, "pn file: nonce", IBSEC_NONCE_PN, x->nonce);
    check_int(c, "pn file: key1", 1, x->key1_en && x->key1 == 1);
    check_int(c, "pn file: tx_kp", 1, x->tx_kp);
    check_int(c, "pn file: replay off", 1, x->replay_off);
    check_int(c, "pn file: salt length", IBSEC_SALT_PN_LEN, (long long)e.keys[0].salt_len);
    check_int(c, "pn file: ssci", 0x10, e.keys[0].ssci);
    check_int(c, "pn file: first PN", 5, (long long)e.keys[0].tx_pn);
    check_int(c, "pn file: receive entries", 4, e.n_peers);
    check_int(c, "pn file: window", 1024, e.replay_window);
    check_int(c, "pn file: entry 2", 1, e.peers[2].valid && e.peers[2].key == 1 &&
                                        e.peers[2].ssci == 0x30 && e.peers[2].rx.next == 7);
    check_int(c, "pn file: duplicate table", 256, e.n_conns);
    check_int(c, "pn file: mgmt", 1, e.mgmt[IBSEC_MGMT_QP0] == IBSEC_MGMT_CONTEXT &&
                                     e.mgmt[IBSEC_MGMT_QP1] == IBSEC_MGMT_CONTEXT &&
                                     e.mgmt[IBSEC_MGMT_MCAST] == IBSEC_MGMT_DROP);
    char *text = write_text(&e, 'a');
    check_true(c, text && strcmp(text, PN_FILE) == 0, "pn file: written back as read");
    if (text && strcmp(text, PN_FILE) != 0)
        printf("  written:\n%s", text);
    free(text);
    /* the peer: key 0 has one receive entry (ssci 0x20 from PN 9), so side b sends as
       0x20 from PN 9 and receives 0x10 from PN 5; key 1 has two: left as it is */
    if (check_int(c, "pn file: peer loads", 0, load_text(PN_FILE, &p, IBSEC_SIDE_PEER, err, sizeof err))) {
        check_int(c, "pn peer: ssci", 0x20, p.keys[0].ssci);
        check_int(c, "pn peer: first PN", 9, (long long)p.keys[0].tx_pn);
        check_int(c, "pn peer: entry 0", 1, p.peers[0].ssci == 0x10 && p.peers[0].rx.next == 5);
        check_int(c, "pn peer: key 1 kept", 1, p.keys[1].ssci == 0x10 && p.peers[2].ssci == 0x30);
        ibsec_engine_free(&p);
    }
    ibsec_engine_free(&e);
}

int main(void)
{
    check_ctx c;
    check_init(&c, "keyfile");
    test_round_trip(&c);
    test_good_file(&c);
    test_bad_files(&c);
    test_pn_file(&c);
    return check_summary(&c);
}
