/*
 * keyfile.c — reader and writer of the ibsec key file (docs/keyfile.md).
 *
 * The reader is a line-at-a-time parser: each line is split into
 * whitespace-separated fields after its '#' comment is removed, the first field
 * names the statement, and each statement has its own small parser that either
 * applies it to the engine or returns a message.  The first message aborts the
 * load, is prefixed with "<file>:<line>: ", and the engine is freed, so a caller
 * never runs with half of a key file.
 *
 * Checks that need the whole file (a context naming a key defined on a later
 * line) run after the last line and name the context's line.
 */
#include "keyfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define KF_MAX_FIELDS 32          /* more fields than any statement has */
#define KF_MSG_LEN    200

/* Parser state for one file. */
struct kf_state {
    ibsec_engine *e;
    int           lanes;
    bool          seen_header, seen_side, seen_tables, seen_plain, seen_mask_mf, seen_peers,
                  seen_dups, seen_mgmt[IBSEC_MGMT_CLASSES];
    char          side;           /* 'a' or 'b' */
    unsigned     *key_line;       /* line that defined each key (0: none) */
    unsigned     *ctx_line;       /* line that defined each context (0: none) */
    unsigned     *peer_line;      /* line that defined each receive entry (0: none) */
    char          msg[KF_MSG_LEN];/* message of the failing statement */
};

static int kf_fail(struct kf_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int kf_fail(struct kf_state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- field parsers ------------------------------------------------------------ */

/* Unsigned integer, decimal or 0x-prefixed hex, at most max; 0 ok, -1 bad. */
static int kf_parse_u64(const char *t, uint64_t max, uint64_t *v)
{
    int base = 10;
    const char *p = t;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (*p == '\0')
        return -1;
    uint64_t x = 0;
    for (; *p; p++) {
        int d;
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            d = *p - 'a' + 10;
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            d = *p - 'A' + 10;
        else
            return -1;
        if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;
        x = x * (uint64_t)base + (uint64_t)d;
    }
    if (x > max)
        return -1;
    *v = x;
    return 0;
}

static int kf_hex_nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Exactly n bytes of hex (2n digits, no prefix); 0 ok, -1 bad digit, -2 wrong length. */
static int kf_parse_hex(const char *t, uint8_t *out, size_t n)
{
    size_t len = strlen(t);
    for (size_t i = 0; i < len; i++)
        if (kf_hex_nibble(t[i]) < 0)
            return -1;
    if (len != 2 * n)
        return -2;
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(kf_hex_nibble(t[2 * i]) << 4 | kf_hex_nibble(t[2 * i + 1]));
    return 0;
}

/* ---- statements ----------------------------------------------------------------- */

static int kf_header(struct kf_state *s, char **f, int n)
{
    uint64_t ver;
    if (n != 2 || kf_parse_u64(f[1], UINT32_MAX, &ver) != 0)
        return kf_fail(s, "bad header: expected '%s %u'", IBSEC_KEYFILE_MAGIC, IBSEC_KEYFILE_VERSION);
    if (ver != IBSEC_KEYFILE_VERSION)
        return kf_fail(s, "unsupported key file version %llu (this reader knows %u)",
                       (unsigned long long)ver, IBSEC_KEYFILE_VERSION);
    s->seen_header = true;
    return 0;
}

static int kf_side(struct kf_state *s, char **f, int n)
{
    if (s->seen_side)
        return kf_fail(s, "second 'side' line");
    if (n != 2 || (strcmp(f[1], "a") != 0 && strcmp(f[1], "b") != 0))
        return kf_fail(s, "expected 'side a' or 'side b'");
    s->side = f[1][0];
    s->seen_side = true;
    return 0;
}

static int kf_allow_plain(struct kf_state *s, char **f, int n)
{
    if (s->seen_plain)
        return kf_fail(s, "second 'allow_plain' line");
    if (!s->seen_tables)
        return kf_fail(s, "'allow_plain' before the 'tables' line");
    if (n != 2 || (strcmp(f[1], "on") != 0 && strcmp(f[1], "off") != 0))
        return kf_fail(s, "expected 'allow_plain on' or 'allow_plain off'");
    s->e->allow_plain = (strcmp(f[1], "on") == 0);
    s->seen_plain = true;
    return 0;
}

/* docs/availability.md §2.4: mask the DDPM Marking Field of a native GRH in the
 * ICRC and the AAD (a fabric-wide option; off keeps the IBA-standard ICRC). */
static int kf_mask_mf(struct kf_state *s, char **f, int n)
{
    if (s->seen_mask_mf)
        return kf_fail(s, "second 'mask_mf' line");
    if (!s->seen_tables)
        return kf_fail(s, "'mask_mf' before the 'tables' line");
    if (n != 2 || (strcmp(f[1], "on") != 0 && strcmp(f[1], "off") != 0))
        return kf_fail(s, "expected 'mask_mf on' or 'mask_mf off'");
    s->e->mask_mf = (strcmp(f[1], "on") == 0);
    s->seen_mask_mf = true;
    return 0;
}

static int kf_tables(struct kf_state *s, char **f, int n)
{
    uint64_t nk, nc;
    if (s->seen_tables)
        return kf_fail(s, "second 'tables' line");
    if (n != 3)
        return kf_fail(s, "expected 'tables <key entries> <context entries>'");
    if (kf_parse_u64(f[1], IBSEC_KEYFILE_MAX_KEYS, &nk) != 0 || nk == 0)
        return kf_fail(s, "bad key table size '%s' (1..%u)", f[1], IBSEC_KEYFILE_MAX_KEYS);
    if (kf_parse_u64(f[2], IBSEC_KEYFILE_MAX_CTX, &nc) != 0 || nc == 0)
        return kf_fail(s, "bad context table size '%s' (1..%u)", f[2], IBSEC_KEYFILE_MAX_CTX);
    if (ibsec_engine_init(s->e, (unsigned)nk, (unsigned)nc, s->lanes) != 0)
        return kf_fail(s, "cannot create an engine with %llu keys, %llu contexts, %d lanes",
                       (unsigned long long)nk, (unsigned long long)nc, s->lanes);
    s->key_line = calloc(nk, sizeof *s->key_line);
    s->ctx_line = calloc(nc, sizeof *s->ctx_line);
    s->seen_tables = true;
    if (!s->key_line || !s->ctx_line)
        return kf_fail(s, "out of memory");
    return 0;
}

/* key <idx> aes128|aes256 <key hex> salt <salt hex> [ssci <n>] [pn <first>] */
static int kf_key(struct kf_state *s, char **f, int n, unsigned line)
{
    uint64_t idx, ssci = 0, pn = IBSEC_PN_FIRST;
    size_t klen, slen;
    uint8_t key[32], salt[IBSEC_SALT_PN_LEN];
    if (!s->seen_tables)
        return kf_fail(s, "'key' before the 'tables' line");
    if (n < 6 || n > 10 || n % 2 != 0 || strcmp(f[4], "salt") != 0)
        return kf_fail(s, "expected 'key <index> aes128|aes256 <key hex> salt <8 or 24 hex digits>"
                          " [ssci <n>] [pn <first PN>]'");
    if (kf_parse_u64(f[1], UINT32_MAX, &idx) != 0)
        return kf_fail(s, "bad key index '%s'", f[1]);
    if (idx >= s->e->n_keys)
        return kf_fail(s, "key index %llu out of range (the key table has %u entries)",
                       (unsigned long long)idx, s->e->n_keys);
    if (s->key_line[idx])
        return kf_fail(s, "key %llu already defined on line %u", (unsigned long long)idx,
                       s->key_line[idx]);
    if (strcmp(f[2], "aes128") == 0)
        klen = 16;
    else if (strcmp(f[2], "aes256") == 0)
        klen = 32;
    else
        return kf_fail(s, "unknown cipher '%s' (aes128 or aes256)", f[2]);
    int r = kf_parse_hex(f[3], key, klen);
    if (r == -1)
        return kf_fail(s, "bad hex digit in the key of key %llu", (unsigned long long)idx);
    if (r == -2)
        return kf_fail(s, "%s key needs %zu hex digits (%zu bytes), got %zu", f[2], 2 * klen,
                       klen, strlen(f[3]));
    slen = strlen(f[5]) == 2 * IBSEC_SALT_PN_LEN ? IBSEC_SALT_PN_LEN : IBSEC_SALT_LEN;
    r = kf_parse_hex(f[5], salt, slen);
    if (r == -1)
        return kf_fail(s, "bad hex digit in the salt of key %llu", (unsigned long long)idx);
    if (r == -2)
        return kf_fail(s, "salt needs %u hex digits (%u bytes; the epsn nonce only) or %u (%u bytes)"
                       ", got %zu", 2 * IBSEC_SALT_LEN, IBSEC_SALT_LEN, 2 * IBSEC_SALT_PN_LEN,
                       IBSEC_SALT_PN_LEN, strlen(f[5]));
    bool seen_ssci = false, seen_pn = false;
    for (int i = 6; i < n; i += 2) {
        if (strcmp(f[i], "ssci") == 0 && !seen_ssci) {
            if (kf_parse_u64(f[i + 1], UINT32_MAX, &ssci) != 0)
                return kf_fail(s, "bad ssci '%s' (0..2^32-1)", f[i + 1]);
            seen_ssci = true;
        } else if (strcmp(f[i], "pn") == 0 && !seen_pn) {
            if (kf_parse_u64(f[i + 1], UINT64_MAX, &pn) != 0 || pn == 0)
                return kf_fail(s, "bad pn '%s' (the first PN to send, 1..2^64-1)", f[i + 1]);
            seen_pn = true;
        } else {
            return kf_fail(s, "unknown or repeated key field '%s' (ssci, pn)", f[i]);
        }
    }
    if ((seen_ssci || seen_pn) && slen != IBSEC_SALT_PN_LEN)
        return kf_fail(s, "ssci and pn belong to the pn nonce, whose salt has %u hex digits",
                       2 * IBSEC_SALT_PN_LEN);
    if (ibsec_key_set_pn(s->e, (unsigned)idx, key, klen, salt, slen, (uint32_t)ssci, pn) != 0)
        return kf_fail(s, "key %llu refused by the engine", (unsigned long long)idx);
    s->key_line[idx] = line;
    return 0;
}

/* peers <n> window <w> */
static int kf_peers(struct kf_state *s, char **f, int n)
{
    uint64_t np, w;
    if (s->seen_peers)
        return kf_fail(s, "second 'peers' line");
    if (!s->seen_tables)
        return kf_fail(s, "'peers' before the 'tables' line");
    if (n != 4 || strcmp(f[2], "window") != 0)
        return kf_fail(s, "expected 'peers <entries> window <PNs>'");
    if (kf_parse_u64(f[1], IBSEC_KEYFILE_MAX_CTX, &np) != 0 || np == 0)
        return kf_fail(s, "bad number of receive entries '%s' (1..%u)", f[1], IBSEC_KEYFILE_MAX_CTX);
    if (kf_parse_u64(f[3], IBSEC_REPLAY_WINDOW_MAX, &w) != 0 ||
        ibsec_peers_init(s->e, (unsigned)np, (unsigned)w) != 0)
        return kf_fail(s, "bad window '%s' (64..%u, a power of two)", f[3], IBSEC_REPLAY_WINDOW_MAX);
    s->peer_line = calloc(np, sizeof *s->peer_line);
    if (!s->peer_line)
        return kf_fail(s, "out of memory");
    s->seen_peers = true;
    return 0;
}

/* peer <idx> key <k> ssci <n> pn <first> */
static int kf_peer(struct kf_state *s, char **f, int n, unsigned line)
{
    uint64_t idx, key, ssci, pn;
    if (!s->seen_peers)
        return kf_fail(s, "'peer' before the 'peers' line");
    if (n != 8 || strcmp(f[2], "key") != 0 || strcmp(f[4], "ssci") != 0 || strcmp(f[6], "pn") != 0)
        return kf_fail(s, "expected 'peer <index> key <key index> ssci <n> pn <first PN>'");
    if (kf_parse_u64(f[1], UINT32_MAX, &idx) != 0 || idx >= s->e->n_peers)
        return kf_fail(s, "bad receive entry index '%s' (0..%u)", f[1], s->e->n_peers - 1);
    if (s->peer_line[idx])
        return kf_fail(s, "receive entry %llu already defined on line %u", (unsigned long long)idx,
                       s->peer_line[idx]);
    if (kf_parse_u64(f[3], UINT32_MAX, &key) != 0 || key >= s->e->n_keys)
        return kf_fail(s, "bad key index '%s' (0..%u)", f[3], s->e->n_keys - 1);
    if (kf_parse_u64(f[5], UINT32_MAX, &ssci) != 0)
        return kf_fail(s, "bad ssci '%s' (0..2^32-1)", f[5]);
    if (kf_parse_u64(f[7], UINT64_MAX, &pn) != 0 || pn == 0)
        return kf_fail(s, "bad pn '%s' (the first PN accepted, 1..2^64-1)", f[7]);
    if (ibsec_peer_set(s->e, (unsigned)idx, (unsigned)key, (uint32_t)ssci, pn) != 0)
        return kf_fail(s, "receive entry %llu refused: key %llu and ssci %llu already have one",
                       (unsigned long long)idx, (unsigned long long)key, (unsigned long long)ssci);
    s->peer_line[idx] = line;
    return 0;
}

/* mgmt qp0|qp1|mcast context|bypass|drop (wire-format.md §9.1) */
static int kf_mgmt(struct kf_state *s, char **f, int n)
{
    static const char *const cls[IBSEC_MGMT_CLASSES] = { "qp0", "qp1", "mcast" };
    enum ibsec_mgmt_policy p;
    if (!s->seen_tables)
        return kf_fail(s, "'mgmt' before the 'tables' line");
    if (n != 3)
        return kf_fail(s, "expected 'mgmt qp0|qp1|mcast context|bypass|drop'");
    for (unsigned c = 0; c < IBSEC_MGMT_CLASSES; c++) {
        if (strcmp(f[1], cls[c]) != 0)
            continue;
        if (s->seen_mgmt[c])
            return kf_fail(s, "second 'mgmt %s' line", cls[c]);
        if (ibsec_mgmt_policy_from_name(f[2], &p) != 0)
            return kf_fail(s, "bad policy '%s' (context, bypass or drop)", f[2]);
        s->e->mgmt[c] = p;
        s->seen_mgmt[c] = true;
        return 0;
    }
    return kf_fail(s, "bad class '%s' (qp0, qp1 or mcast)", f[1]);
}

/* dups <n>: entries of the duplicate table (wire-format.md §6.1) */
static int kf_dups(struct kf_state *s, char **f, int n)
{
    uint64_t nc;
    if (s->seen_dups)
        return kf_fail(s, "second 'dups' line");
    if (!s->seen_tables)
        return kf_fail(s, "'dups' before the 'tables' line");
    if (n != 2 || kf_parse_u64(f[1], 65536, &nc) != 0 || ibsec_conns_init(s->e, (unsigned)nc) != 0)
        return kf_fail(s, "expected 'dups <entries>' (1..65536, a power of two)");
    s->seen_dups = true;
    return 0;
}

/* The optional fields of a ctx line, and which of them were given. */
struct kf_ctx_fields {
    bool has_key, has_sth, has_mode, has_key1;
    uint64_t key, sth_bits, key1;
};

/* sth <bits>: the MAC size of sRDMA Table 2 -> STHSZ code (wire-format.md §2). */
static int kf_sth_code(struct kf_state *s, uint64_t bits, unsigned *code)
{
    for (unsigned c = IBSEC_STH_CODE_96; c <= IBSEC_STH_CODE_MAX; c++) {
        if (ibsec_sth_bits(c) == bits) {
            if (c != IBSEC_STH_CODE_96 && c != IBSEC_STH_CODE_128)
                return kf_fail(s, "sth %llu is not supported (AES-GCM tags are at most 128 bits: "
                               "use sth 96 or sth 128)", (unsigned long long)bits);
            *code = c;
            return 0;
        }
    }
    return kf_fail(s, "bad sth size %llu (96 or 128 bits)", (unsigned long long)bits);
}

/* Parse the "name value" pairs after "ctx <idx> qp|pkey <n>". */
static int kf_ctx_pairs(struct kf_state *s, char **f, int n, ibsec_ctx_cfg *c,
                        struct kf_ctx_fields *x)
{
    static const char *const names[] = { "mode", "key", "sth", "dir", "tx_next", "rx_next", "alert",
                                         "nonce", "key1", "tx_kp", "replay" };
    enum { N_NAMES = sizeof names / sizeof names[0] };
    bool seen[N_NAMES] = { false };
    for (int i = 4; i < n; i += 2) {
        int k = -1;
        for (int j = 0; j < N_NAMES; j++)
            if (strcmp(f[i], names[j]) == 0)
                k = j;
        if (k < 0)
            return kf_fail(s, "unknown context field '%s' (mode, key, sth, dir, tx_next, rx_next, "
                              "alert, nonce, key1, tx_kp, replay)", f[i]);
        if (i + 1 >= n)
            return kf_fail(s, "context field '%s' has no value", f[i]);
        if (seen[k])
            return kf_fail(s, "context field '%s' given twice", f[i]);
        seen[k] = true;
        const char *v = f[i + 1];
        uint64_t u = 0;
        switch (k) {
        case 0:
            if (ibsec_mode_from_name(v, &c->mode) != 0)
                return kf_fail(s, "unknown mode '%s' (none, icrc-mac, sth-hdr, sth-pkt, sth-aead)", v);
            x->has_mode = true;
            break;
        case 1:
            if (kf_parse_u64(v, UINT32_MAX, &x->key) != 0)
                return kf_fail(s, "bad key index '%s'", v);
            x->has_key = true;
            break;
        case 2:
            if (kf_parse_u64(v, UINT32_MAX, &x->sth_bits) != 0)
                return kf_fail(s, "bad sth size '%s' (96 or 128 bits)", v);
            x->has_sth = true;
            break;
        case 3:
            if (kf_parse_u64(v, 1, &u) != 0)
                return kf_fail(s, "bad dir '%s' (0 or 1)", v);
            c->dir = (unsigned)u;
            break;
        case 4:
        case 5:
            if (kf_parse_u64(v, IBSEC_EPSN_LIMIT - 1, &u) != 0)
                return kf_fail(s, "bad %s '%s' (an EPSN, 0..2^63-1)", names[k], v);
            if (k == 4)
                c->tx_next = u;
            else
                c->rx_next = u;
            break;
        case 6:
            if (kf_parse_u64(v, UINT32_MAX, &u) != 0)
                return kf_fail(s, "bad alert threshold '%s' (0..2^32-1, 0 = off)", v);
            c->alert_threshold = (uint32_t)u;
            break;
        case 7:
            if (strcmp(v, "epsn") == 0)
                c->nonce = IBSEC_NONCE_EPSN;
            else if (strcmp(v, "pn") == 0)
                c->nonce = IBSEC_NONCE_PN;
            else
                return kf_fail(s, "bad nonce '%s' (epsn or pn)", v);
            break;
        case 8:
            if (kf_parse_u64(v, UINT32_MAX, &x->key1) != 0)
                return kf_fail(s, "bad key1 index '%s'", v);
            x->has_key1 = true;
            break;
        case 9:
            if (kf_parse_u64(v, 1, &u) != 0)
                return kf_fail(s, "bad tx_kp '%s' (0 or 1)", v);
            c->tx_kp = (unsigned)u;
            break;
        default:
            if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
                return kf_fail(s, "bad replay '%s' (on or off)", v);
            c->replay_off = strcmp(v, "off") == 0;
            break;
        }
    }
    return 0;
}

/* The mode, key and sth fields must agree (wire-format.md §2, §3). */
static int kf_ctx_mode_fields(struct kf_state *s, ibsec_ctx_cfg *c, const struct kf_ctx_fields *x)
{
    const char *m = ibsec_mode_name(c->mode);
    if (!x->has_mode)
        return kf_fail(s, "context has no 'mode'");
    if (c->mode == IBSEC_MODE_NONE) {
        if (x->has_key)
            return kf_fail(s, "mode none uses no key: remove 'key %llu'", (unsigned long long)x->key);
        if (x->has_key1)
            return kf_fail(s, "mode none uses no key: remove 'key1 %llu'", (unsigned long long)x->key1);
    } else {
        if (!x->has_key)
            return kf_fail(s, "mode %s needs a 'key <index>'", m);
        if (x->key >= s->e->n_keys)
            return kf_fail(s, "key index %llu out of range (the key table has %u entries)",
                           (unsigned long long)x->key, s->e->n_keys);
        c->key = (unsigned)x->key;
        if (x->has_key1) {
            if (x->key1 >= s->e->n_keys)
                return kf_fail(s, "key1 index %llu out of range (the key table has %u entries)",
                               (unsigned long long)x->key1, s->e->n_keys);
            c->key1 = (unsigned)x->key1;
            c->key1_en = true;
        }
    }
    if (ibsec_mode_has_sth(c->mode)) {
        if (!x->has_sth)
            return kf_fail(s, "mode %s needs 'sth 96' or 'sth 128'", m);
        return kf_sth_code(s, x->sth_bits, &c->sth_code);
    }
    if (x->has_sth)
        return kf_fail(s, "mode %s carries no STH: remove 'sth %llu'", m,
                       (unsigned long long)x->sth_bits);
    c->sth_code = IBSEC_STH_CODE_NONE;
    return 0;
}

/* ctx <idx> qp <qpn> | pkey <pkey>, then name/value pairs. */
static int kf_ctx(struct kf_state *s, char **f, int n, unsigned line)
{
    uint64_t idx, match;
    ibsec_ctx_cfg c;
    struct kf_ctx_fields x;
    memset(&c, 0, sizeof c);
    memset(&x, 0, sizeof x);
    c.alert_threshold = IBSEC_ALERT_DEFAULT;
    if (!s->seen_tables)
        return kf_fail(s, "'ctx' before the 'tables' line");
    if (n < 4)
        return kf_fail(s, "expected 'ctx <index> qp <qpn>|pkey <p_key> mode <mode> ...'");
    if (kf_parse_u64(f[1], UINT32_MAX, &idx) != 0)
        return kf_fail(s, "bad context index '%s'", f[1]);
    if (idx >= s->e->n_ctx)
        return kf_fail(s, "context index %llu out of range (the context table has %u entries)",
                       (unsigned long long)idx, s->e->n_ctx);
    if (s->ctx_line[idx])
        return kf_fail(s, "context %llu already defined on line %u", (unsigned long long)idx,
                       s->ctx_line[idx]);
    if (strcmp(f[2], "qp") == 0) {
        c.sel = IBSEC_SEL_QP;
        if (kf_parse_u64(f[3], 0xFFFFFFu, &match) != 0) /* BTH DestQP: 24 bits */
            return kf_fail(s, "bad QPN '%s' (0..0xffffff)", f[3]);
    } else if (strcmp(f[2], "pkey") == 0) {
        c.sel = IBSEC_SEL_PKEY;
        if (kf_parse_u64(f[3], 0x7FFFu, &match) != 0) /* P_Key bits 14:0 */
            return kf_fail(s, "bad P_Key '%s' (0..0x7fff; the membership bit is not part of it)", f[3]);
    } else {
        return kf_fail(s, "unknown selector '%s' (qp or pkey)", f[2]);
    }
    c.match = (uint32_t)match;
    if (kf_ctx_pairs(s, f, n, &c, &x) != 0 || kf_ctx_mode_fields(s, &c, &x) != 0)
        return -1;
    for (unsigned i = 0; i < s->e->n_ctx; i++) {
        const ibsec_ctx *o = &s->e->ctx[i];
        if (o->valid && o->cfg.sel == c.sel && o->cfg.match == c.match)
            return kf_fail(s, "selector %s 0x%x already used by context %u (line %u)", f[2],
                           (unsigned)c.match, i, s->ctx_line[i]);
    }
    const char *why = NULL;
    if (ibsec_ctx_set(s->e, (unsigned)idx, &c, &why) != 0)
        return kf_fail(s, "context %llu refused: %s", (unsigned long long)idx, why ? why : "?");
    s->ctx_line[idx] = line;
    return 0;
}

/* ---- lines ---------------------------------------------------------------------- */

/* Split a line (comment already removed) into fields; returns the count or -1. */
static int kf_split(char *p, char **f)
{
    int n = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            return n;
        if (n == KF_MAX_FIELDS)
            return -1;
        f[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

static int kf_statement(struct kf_state *s, char **f, int n, unsigned line)
{
    if (!s->seen_header) {
        if (strcmp(f[0], IBSEC_KEYFILE_MAGIC) != 0)
            return kf_fail(s, "not an ibsec key file (the first line must be '%s %u')",
                           IBSEC_KEYFILE_MAGIC, IBSEC_KEYFILE_VERSION);
        return kf_header(s, f, n);
    }
    if (strcmp(f[0], "side") == 0)
        return kf_side(s, f, n);
    if (strcmp(f[0], "tables") == 0)
        return kf_tables(s, f, n);
    if (strcmp(f[0], "allow_plain") == 0)
        return kf_allow_plain(s, f, n);
    if (strcmp(f[0], "mask_mf") == 0)
        return kf_mask_mf(s, f, n);
    if (strcmp(f[0], "key") == 0)
        return kf_key(s, f, n, line);
    if (strcmp(f[0], "ctx") == 0)
        return kf_ctx(s, f, n, line);
    if (strcmp(f[0], "peers") == 0)
        return kf_peers(s, f, n);
    if (strcmp(f[0], "peer") == 0)
        return kf_peer(s, f, n, line);
    if (strcmp(f[0], "dups") == 0)
        return kf_dups(s, f, n);
    if (strcmp(f[0], "mgmt") == 0)
        return kf_mgmt(s, f, n);
    if (strcmp(f[0], IBSEC_KEYFILE_MAGIC) == 0)
        return kf_fail(s, "second header line");
    return kf_fail(s, "unknown keyword '%.40s' (side, tables, allow_plain, mask_mf, key, ctx, "
                      "peers, peer, dups, mgmt)", f[0]);
}

/* One raw line: checks it is text, removes the comment, runs the statement. */
static int kf_line(struct kf_state *s, char *buf, size_t len, unsigned line)
{
    char *f[KF_MAX_FIELDS];
    if (len > IBSEC_KEYFILE_LINE_MAX)
        return kf_fail(s, "line longer than %u bytes", IBSEC_KEYFILE_LINE_MAX);
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
        buf[--len] = '\0';
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)buf[i];
        if ((ch < 0x20 && ch != '\t') || ch >= 0x7F)
            return kf_fail(s, "not a text line (byte 0x%02x at column %zu)", ch, i + 1);
    }
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    int n = kf_split(buf, f);
    if (n < 0)
        return kf_fail(s, "too many fields (at most %d)", KF_MAX_FIELDS);
    return n == 0 ? 0 : kf_statement(s, f, n, line);
}

/* Whole-file checks after the last line; *line is set to the line to blame. */
static int kf_finish(struct kf_state *s, unsigned *line)
{
    if (!s->seen_header)
        return kf_fail(s, "empty: not an ibsec key file (no '%s %u' line)", IBSEC_KEYFILE_MAGIC,
                       IBSEC_KEYFILE_VERSION);
    if (!s->seen_tables)
        return kf_fail(s, "no 'tables' line");
    if (!s->seen_side)
        return kf_fail(s, "no 'side' line");
    for (unsigned i = 0; i < s->e->n_ctx; i++) {
        const ibsec_ctx *c = &s->e->ctx[i];
        if (c->valid && c->cfg.mode != IBSEC_MODE_NONE && !s->key_line[c->cfg.key]) {
            *line = s->ctx_line[i];
            return kf_fail(s, "context %u uses key %u, which is not defined", i, c->cfg.key);
        }
        if (c->valid && c->cfg.key1_en && !s->key_line[c->cfg.key1]) {
            *line = s->ctx_line[i];
            return kf_fail(s, "context %u uses key1 %u, which is not defined", i, c->cfg.key1);
        }
        if (c->valid && c->cfg.nonce == IBSEC_NONCE_PN &&
            (s->e->keys[c->cfg.key].salt_len != IBSEC_SALT_PN_LEN ||
             (c->cfg.key1_en && s->e->keys[c->cfg.key1].salt_len != IBSEC_SALT_PN_LEN))) {
            *line = s->ctx_line[i];
            return kf_fail(s, "context %u uses the pn nonce: its keys need a salt of %u hex digits",
                           i, 2 * IBSEC_SALT_PN_LEN);
        }
    }
    return 0;
}

int ibsec_keyfile_read(FILE *f, const char *name, ibsec_engine *e, int lanes,
                       enum ibsec_keyfile_side want, char *side_out, char *err, size_t errlen)
{
    struct kf_state s;
    char *buf = NULL;
    size_t cap = 0;
    ssize_t got;
    unsigned line = 0;
    int rc = 0;
    memset(&s, 0, sizeof s);
    memset(e, 0, sizeof *e);
    s.e = e;
    s.lanes = lanes;
    while (rc == 0 && (got = getline(&buf, &cap, f)) >= 0) {
        line++;
        if (strlen(buf) != (size_t)got)
            rc = kf_fail(&s, "not a text line (NUL byte)");
        else
            rc = kf_line(&s, buf, (size_t)got, line);
    }
    if (rc == 0 && ferror(f))
        rc = kf_fail(&s, "read error");
    if (rc == 0) {
        rc = kf_finish(&s, &line);
        char other = s.side == 'a' ? 'b' : 'a';
        if (rc == 0 && (want == IBSEC_SIDE_PEER || (char)want == other)) {
            ibsec_engine_make_peer(e);
            s.side = other;
        }
    }
    free(buf);
    free(s.key_line);
    free(s.ctx_line);
    free(s.peer_line);
    if (rc != 0) {
        if (err && errlen)
            snprintf(err, errlen, "%s:%u: %s", name, line, s.msg);
        if (s.seen_tables)
            ibsec_engine_free(e);
        memset(e, 0, sizeof *e);
        return -1;
    }
    if (side_out)
        *side_out = s.side;
    return 0;
}

int ibsec_keyfile_load_side(const char *path, ibsec_engine *e, int lanes,
                            enum ibsec_keyfile_side want, char *side_out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (err && errlen)
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
        memset(e, 0, sizeof *e);
        return -1;
    }
    int rc = ibsec_keyfile_read(f, path, e, lanes, want, side_out, err, errlen);
    fclose(f);
    return rc;
}

int ibsec_keyfile_load(const char *path, ibsec_engine *e, char *err, size_t errlen)
{
    return ibsec_keyfile_load_side(path, e, 1, IBSEC_SIDE_AS_WRITTEN, NULL, err, errlen);
}

/* ---- writer --------------------------------------------------------------------- */

static void kf_write_comment(FILE *f, const char *comment)
{
    const char *p = comment;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(f, "# %.*s\n", (int)n, p);
        p = nl ? nl + 1 : NULL;
    }
}

static void kf_write_hex(FILE *f, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", b[i]);
}

static void kf_write_ctx(FILE *f, unsigned i, const ibsec_ctx_cfg *c)
{
    if (c->sel == IBSEC_SEL_QP)
        fprintf(f, "ctx %u qp 0x%06x", i, (unsigned)c->match);
    else
        fprintf(f, "ctx %u pkey 0x%04x", i, (unsigned)c->match);
    fprintf(f, " mode %s", ibsec_mode_name(c->mode));
    if (c->mode != IBSEC_MODE_NONE)
        fprintf(f, " key %u", c->key);
    if (ibsec_mode_has_sth(c->mode))
        fprintf(f, " sth %u", ibsec_sth_bits(c->sth_code));
    fprintf(f, " dir %u tx_next 0x%llx rx_next 0x%llx alert %u", c->dir,
            (unsigned long long)c->tx_next, (unsigned long long)c->rx_next,
            (unsigned)c->alert_threshold);
    /* the fields of the pn nonce and the key phase, only where they differ from the
       defaults: files of engines without them stay as they were */
    if (c->nonce == IBSEC_NONCE_PN)
        fputs(" nonce pn", f);
    if (c->key1_en)
        fprintf(f, " key1 %u", c->key1);
    if (c->tx_kp)
        fprintf(f, " tx_kp %u", c->tx_kp);
    if (c->replay_off)
        fputs(" replay off", f);
    fputc('\n', f);
}

int ibsec_keyfile_write(FILE *f, const ibsec_engine *e, char side, const char *comment,
                        char *err, size_t errlen)
{
    if (side != 'a' && side != 'b') {
        snprintf(err, errlen, "side must be 'a' or 'b'");
        return -1;
    }
    fprintf(f, "%s %u\n", IBSEC_KEYFILE_MAGIC, IBSEC_KEYFILE_VERSION);
    kf_write_comment(f, comment);
    fprintf(f, "side %c\ntables %u %u\nallow_plain %s\n", side, e->n_keys, e->n_ctx,
            e->allow_plain ? "on" : "off");
    if (e->mask_mf) /* written only when on: files of engines without it stay as they were */
        fputs("mask_mf on\n", f);
    {   /* the reserved DestQPs' policies, where they differ from an engine's defaults */
        static const char *const cls[IBSEC_MGMT_CLASSES] = { "qp0", "qp1", "mcast" };
        ibsec_engine d;
        if (ibsec_engine_init(&d, 1, 1, 1) == 0) {
            for (unsigned c = 0; c < IBSEC_MGMT_CLASSES; c++)
                if (e->mgmt[c] != d.mgmt[c])
                    fprintf(f, "mgmt %s %s\n", cls[c], ibsec_mgmt_policy_name(e->mgmt[c]));
            ibsec_engine_free(&d);
        }
    }
    for (unsigned i = 0; i < e->n_keys; i++) {
        const ibsec_key_entry *k = &e->keys[i];
        if (!k->valid)
            continue;
        fprintf(f, "key %u %s ", i, k->key_len == 32 ? "aes256" : "aes128");
        kf_write_hex(f, k->key, k->key_len);
        fputs(" salt ", f);
        kf_write_hex(f, k->salt, k->salt_len);
        if (k->salt_len == IBSEC_SALT_PN_LEN)
            fprintf(f, " ssci 0x%x pn %llu", (unsigned)k->ssci, (unsigned long long)k->tx_pn);
        fputc('\n', f);
    }
    for (unsigned i = 0; i < e->n_ctx; i++)
        if (e->ctx[i].valid)
            kf_write_ctx(f, i, &e->ctx[i].cfg);
    if (e->n_peers)
        fprintf(f, "peers %u window %u\n", e->n_peers, e->replay_window);
    for (unsigned i = 0; i < e->n_peers; i++) {
        const ibsec_peer *p = &e->peers[i];
        if (p->valid)
            fprintf(f, "peer %u key %u ssci 0x%x pn %llu\n", i, p->key, (unsigned)p->ssci,
                    (unsigned long long)p->rx.next);
    }
    if (e->n_conns)
        fprintf(f, "dups %u\n", e->n_conns);
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, errlen, "write error: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int ibsec_keyfile_save(const char *path, const ibsec_engine *e, char side,
                       const char *comment, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char msg[KF_MSG_LEN];
    int rc = ibsec_keyfile_write(f, e, side, comment, msg, sizeof msg);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(msg, sizeof msg, "write error: %s", strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        snprintf(err, errlen, "%s: %s", path, msg);
    return rc;
}
