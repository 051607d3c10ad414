/*
 * tb_gcm.c — C harness of the gcm_core bench: rtl/crypto/gcm_core.v (with aes_pipeline,
 * ghash_engine, sync_fifo) against the C model (cmodel/gcm.h), the model itself spot-checked
 * against OpenSSL's AES-GCM (EVP).
 *
 * Random run (default): a stream of messages through the core, back to back:
 *   - data lengths: first a sweep of every length 0..64 bytes (seal and open, AAD empty and
 *     not), then one message in four 0..64 bytes and the rest 0..4200 bytes;
 *   - AAD 0..100 bytes (empty one time in five), random IV, seal or open, a random key slot;
 *   - beats filled LANES blocks at a time or with a random count 1..LANES (AAD and data may
 *     share a beat), the last AAD and data blocks partial as the lengths say;
 *   - keys installed on the s_key port during traffic (AES-128 and AES-256, random slot),
 *     the first messages running on slots not yet installed (expected: m_axis_nokey);
 *     one key operation in six on an installed slot is a zeroize (s_key_wipe, random
 *     bytes on s_key_data, which the core must ignore): the slot's messages then end
 *     m_axis_nokey until its next install;
 *   - phases of random input idle (s_axis_tvalid low) and of random output back-pressure
 *     (m_axis_tready low), changing every 64 messages.
 *   Each output beat must have the shape of its input beat (tkeep, tuser, tlast, zero bytes
 *   outside tkeep); the AAD lanes must come back unchanged, the data lanes as the model's
 *   ciphertext (seal, ibsec_gcm_seal) or plaintext (open: ibsec_gcm_open with the model's
 *   tag over AAD and ciphertext, ibsec_gcm_full_tag), m_axis_tag as the model's full
 *   128-bit tag over AAD and ciphertext. One message in 16 is also sealed by OpenSSL EVP
 *   and compared with the model.
 *   Key install timing: the core takes a message's key when its first beat enters; the
 *   harness knows an install has happened when s_key_ready comes back. A message whose
 *   first beat waited while an install of its slot was running may use the old or the new
 *   key: the harness accepts either, but the whole message (every byte and the tag) must
 *   match that one key. At most one install overlaps any message's first-beat wait.
 *   The tag stream (m_tag_valid): one tag per message, in message order, no later than
 *   the message's tlast beat on m_axis, equal to the tag and nokey flag of that beat.
 *   Zeroize check (after the messages): every slot installed twice (both banks hold key
 *   words), the whole key table read (dut_peek_key: the round keys and H powers of every
 *   bank, through VPI), one random slot zeroized: both of its banks must read all zero,
 *   every other bank as before.
 *
 * Open-only core (--open-only, for gcm_core built with EARLY_GHASH = 1, whose GHASH reads
 * the ciphertext at its input): every random and bench message is opened; the vector
 * run, which seals too, is refused.
 *
 * Vector run (--vectors FILE): every record of a GCM vector file (format of
 * docs/crypto-core.md, written by build/bin/ibsec_gcmvec) is sealed (ct and tag compared
 * with the file) and opened (pt and tag compared with the file); its key is installed in
 * slot (index mod KEY_SLOTS) before its messages enter.
 *
 * Benchmark (--bench): latency (first block in -> first block out, last block in -> tag
 * out, on the tlast beat and on the tag stream) and sustained throughput of back-to-back
 * messages, no idle, no back-pressure; prints figures only.
 *
 * Usage: Vtb [--seed N] [--messages N] [--vectors FILE] [--bench] [--open-only]
 * Last line: "gcm-L<n>: N passed, N failed" (vector run: "gcm-vec-L<n>: ...", open-only
 * run: "gcm-early-L<n>: ...").
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcm.h"
#include "tb_gcm.h"
#include "gcmvec.h"
#include "progress.h"
#include "tb_util.h"

/* gcm_core parameter KEY_SLOTS (its default; the bench builds the core with it) */
#define KEY_SLOTS     4
/* longest AAD / data of one message the harness handles (vector files allow 8192) */
#define MAX_BYTES     IBSEC_GCMVEC_MAX_BYTES
#define MAX_BLOCKS    (2 * (MAX_BYTES / 16) + 2)
#define MAX_WORDS     (4 * IBSEC_MAX_LANES)
/* messages in the harness at once (the core holds at most 32 beats in flight) */
#define RING          128
/* installed keys remembered (a message refers to a key by its pool index) */
#define KEY_POOL      1024
/* random messages: lengths and AAD lengths */
#define RANDOM_MAX_LEN 4200
#define RANDOM_MAX_AAD 100
#define SWEEP_MAX_LEN  64
/* a stall: no output beat for this many cycles while messages are in flight */
#define STALL_CYCLES  20000
/* messages per idle / back-pressure phase */
#define PHASE_MSGS    64

typedef struct {
    uint8_t bytes[32];
    size_t len;           /* 16 or 32 */
    ibsec_gcm_key gk;
} key_rec;

typedef struct {
    int nokey;            /* slot not installed: data zeroed, tag 0 */
    int key;              /* pool index (when !nokey) */
    uint8_t out[MAX_BYTES];
    uint8_t tag[16];
} expect;

typedef struct {
    unsigned long id;
    unsigned slot;
    int decrypt;
    uint8_t iv[12];
    size_t alen, dlen;
    uint8_t aad[MAX_BYTES];
    uint8_t din[MAX_BYTES];   /* pt on seal, ct on open */
    unsigned na, nd;          /* AAD blocks, data blocks */
    unsigned nbeats;
    unsigned short plan[MAX_BLOCKS]; /* blocks per beat (0 only for an empty message) */
    /* input side */
    unsigned in_beat, in_block;
    int presented;
    unsigned long pres_started, pres_completed; /* the slot's install counters then */
    int pres_key;             /* the slot's key then (-1: none) */
    int ncand;
    expect cand[2];
    int has_file;             /* expected values from a vector file */
    uint8_t file_out[MAX_BYTES];
    uint8_t file_tag[16];
    /* output side */
    unsigned out_beat, out_block;
    size_t got_alen, got_dlen;
    uint8_t got_aad[MAX_BYTES];
    uint8_t got_out[MAX_BYTES];
    uint8_t got_tag[16];
    int got_nokey;
    int shape_bad;
    /* the tag stream */
    int st_have;
    uint8_t st_tag[16];
    int st_nokey;
    /* timing (bench) */
    unsigned long t_first_in, t_last_in, t_first_out, t_last_out, t_tag;
} message;

typedef struct {
    int key;              /* current key (pool index), -1 never installed */
    int pend;             /* key of the running install */
    unsigned long started, completed;
} slot_state;

typedef enum { MODE_RANDOM, MODE_VECTORS, MODE_BENCH } run_mode;

static tb_result res;
static tb_rng rng;
/* the core is open-only (EARLY_GHASH = 1): every message is opened */
static int open_only;
/* messages whose tag came on the tag stream (ring order) */
static unsigned long tag_seq;
static unsigned lanes;
static unsigned long cycle;

static key_rec keys[KEY_POOL];
static unsigned nkeys;
static slot_state slots[KEY_SLOTS];
static int inst_busy, inst_valid;      /* an install running; s_key_valid asserted */
/* cycle the running install was taken; cycles from taken to s_key_ready back */
static unsigned long inst_taken, inst_cycles_min, inst_cycles_max;
static unsigned inst_slot;
static int inst_key;                   /* pool index, or -1: a zeroize */
static unsigned long zeroizes;

static message ring[RING];
static unsigned ring_head, ring_tail;  /* messages [tail, head) are in the harness */
static message *cur;                   /* the message being presented */

/* traffic policy */
static unsigned in_idle_pct, out_stall_pct, install_per_mille;

static unsigned long msgs_done, model_evp_checks;
/* progress lines of the current run (messages out), if it wants them */
static ibsec_progress *run_progress;
/* messages that started during an install of their slot / took the new key; no key */
static unsigned long msgs_overlap, msgs_new_key, msgs_nokey;
/* cycles of the first and the last output beat of the latest run() */
static unsigned long run_first_out, run_last_out;
static EVP_CIPHER_CTX *evp;

/* ------------------------------------------------------------------------------------ */
/* Packing                                                                              */
/* ------------------------------------------------------------------------------------ */

/* n bytes into a vector of nbits with byte 0 in the top byte (SP 800-38D hex order) */
static void pack_be(uint32_t *w, unsigned nbits, const uint8_t *b, size_t n)
{
    memset(w, 0, (nbits + 31) / 32 * 4);
    for (size_t i = 0; i < n; i++) {
        unsigned lo = nbits - 8 - 8 * (unsigned)i;
        w[lo / 32] |= (uint32_t)b[i] << (lo % 32);
    }
}

static void unpack_be(uint8_t *b, size_t n, const uint32_t *w, unsigned nbits)
{
    for (size_t i = 0; i < n; i++) {
        unsigned lo = nbits - 8 - 8 * (unsigned)i;
        b[i] = (uint8_t)(w[lo / 32] >> (lo % 32));
    }
}

static int keep_bit(const uint32_t *keep, unsigned bit)
{
    return (keep[bit / 32] >> (bit % 32)) & 1;
}

/* ------------------------------------------------------------------------------------ */
/* Keys                                                                                  */
/* ------------------------------------------------------------------------------------ */

static int key_new(const uint8_t *bytes, size_t len)
{
    int k = (int)(nkeys++ % KEY_POOL);
    memcpy(keys[k].bytes, bytes, len);
    keys[k].len = len;
    if (ibsec_gcm_key_init(&keys[k].gk, bytes, len, (int)lanes) != 0) {
        fprintf(stderr, "tb_gcm: the model refused a %zu-byte key\n", len);
        exit(2);
    }
    return k;
}

static void install_start(unsigned slot, int key)
{
    inst_valid = 1;
    inst_slot = slot;
    inst_key = key;
}

/* ------------------------------------------------------------------------------------ */
/* Model and OpenSSL                                                                     */
/* ------------------------------------------------------------------------------------ */

/* OpenSSL AES-GCM seal, 96-bit IV, 16-byte tag: the model's independent reference */
static int evp_seal(const key_rec *k, const uint8_t iv[12], const uint8_t *aad, size_t alen,
                    const uint8_t *pt, size_t len, uint8_t *ct, uint8_t tag[16])
{
    int n = 0;
    const EVP_CIPHER *c = k->len == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm();
    if (EVP_EncryptInit_ex(evp, c, NULL, k->bytes, iv) != 1)
        return -1;
    if (alen && EVP_EncryptUpdate(evp, NULL, &n, aad, (int)alen) != 1)
        return -1;
    if (len && EVP_EncryptUpdate(evp, ct, &n, pt, (int)len) != 1)
        return -1;
    if (EVP_EncryptFinal_ex(evp, ct + len, &n) != 1)
        return -1;
    return EVP_CIPHER_CTX_ctrl(evp, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1 ? 0 : -1;
}

/* what the core must output for message m under key k (-1: no key) */
static void expect_compute(const message *m, int k, expect *e)
{
    e->nokey = k < 0;
    e->key = k;
    if (k < 0) {
        memset(e->out, 0, m->dlen);
        memset(e->tag, 0, 16);
        return;
    }
    const ibsec_gcm_key *gk = &keys[k].gk;
    if (!m->decrypt) {
        if (ibsec_gcm_seal(gk, m->iv, m->aad, m->alen, m->din, m->dlen, e->out, e->tag, 16))
            tb_fail(&res, "msg %lu: model seal refused the message", m->id);
    } else {
        /* the tag over (aad, ct), then the model's GCM-AD with it gives the plaintext */
        if (ibsec_gcm_full_tag(gk, m->iv, m->aad, m->alen, m->din, m->dlen, NULL, NULL, e->tag) ||
            ibsec_gcm_open(gk, m->iv, m->aad, m->alen, m->din, m->dlen, e->tag, 16, e->out))
            tb_fail(&res, "msg %lu: model open refused the message", m->id);
    }
}

/* the model's result (candidate 0) against OpenSSL, for one message in 16 */
static void model_vs_evp(const message *m)
{
    const expect *e = &m->cand[0];
    static uint8_t ct[MAX_BYTES + 16];
    uint8_t tag[16];
    if (e->nokey)
        return;
    const uint8_t *pt = m->decrypt ? e->out : m->din;
    const uint8_t *mct = m->decrypt ? m->din : e->out;
    if (evp_seal(&keys[e->key], m->iv, m->aad, m->alen, pt, m->dlen, ct, tag)) {
        tb_fail(&res, "msg %lu: OpenSSL EVP error", m->id);
        return;
    }
    model_evp_checks++;
    tb_check_bytes(&res, "model ct vs OpenSSL", ct, mct, m->dlen);
    tb_check_bytes(&res, "model tag vs OpenSSL", tag, e->tag, 16);
}

/* ------------------------------------------------------------------------------------ */
/* Messages                                                                              */
/* ------------------------------------------------------------------------------------ */

/* splits the message's blocks into beats: LANES at a time, or random counts */
static void plan_beats(message *m, int full)
{
    unsigned left = m->na + m->nd;
    m->nbeats = 0;
    if (left == 0) {
        m->plan[m->nbeats++] = 0; /* the empty message: one beat, tkeep = 0 */
        return;
    }
    while (left) {
        unsigned k = full ? lanes : tb_rand_range(&rng, 1, lanes);
        if (k > left)
            k = left;
        m->plan[m->nbeats++] = (unsigned short)k;
        left -= k;
    }
}

static void msg_reset(message *m, unsigned long id)
{
    m->id = id;
    m->in_beat = m->in_block = 0;
    m->presented = 0;
    m->ncand = 0;
    m->has_file = 0;
    m->out_beat = m->out_block = 0;
    m->got_alen = m->got_dlen = 0;
    m->shape_bad = 0;
    m->st_have = 0;
}

static void msg_set_lengths(message *m, size_t alen, size_t dlen, int full)
{
    m->alen = alen;
    m->dlen = dlen;
    m->na = (unsigned)((alen + 15) / 16);
    m->nd = (unsigned)((dlen + 15) / 16);
    plan_beats(m, full);
}

static void msg_random(message *m, unsigned long i)
{
    size_t alen, dlen;
    msg_reset(m, i);
    if (i < 4 * (SWEEP_MAX_LEN + 1)) {
        /* sweep: every data length 0..64, seal and open, AAD empty and not */
        dlen = i / 4;
        m->decrypt = (int)(i & 1);
        alen = (i & 2) ? tb_rand_range(&rng, 1, RANDOM_MAX_AAD) : 0;
    } else {
        dlen = tb_chance(&rng, 25) ? tb_rand_range(&rng, 0, SWEEP_MAX_LEN)
                                   : tb_rand_range(&rng, 0, RANDOM_MAX_LEN);
        alen = tb_chance(&rng, 20) ? 0 : tb_rand_range(&rng, 1, RANDOM_MAX_AAD);
        m->decrypt = tb_chance(&rng, 50);
    }
    if (open_only)
        m->decrypt = 1;
    m->slot = tb_rand_range(&rng, 0, KEY_SLOTS - 1);
    tb_rand_bytes(&rng, m->iv, 12);
    tb_rand_bytes(&rng, m->aad, alen);
    tb_rand_bytes(&rng, m->din, dlen);
    msg_set_lengths(m, alen, dlen, tb_chance(&rng, 40));
}

/* byte count of block b (0-based over AAD then data blocks) and its source */
static size_t block_len(const message *m, unsigned b, int *aad, const uint8_t **src)
{
    size_t off, len;
    if (b < m->na) {
        *aad = 1;
        off = 16 * (size_t)b;
        len = m->alen - off;
        if (src)
            *src = m->aad + off;
    } else {
        *aad = 0;
        off = 16 * (size_t)(b - m->na);
        len = m->dlen - off;
        if (src)
            *src = m->din + off;
    }
    return len > 16 ? 16 : len;
}

/* ------------------------------------------------------------------------------------ */
/* Input side                                                                            */
/* ------------------------------------------------------------------------------------ */

static void drive_beat(const message *m, int valid)
{
    static uint32_t data[MAX_WORDS], keep[IBSEC_MAX_LANES], ivw[3];
    static uint8_t bytes[16 * IBSEC_MAX_LANES];
    uint32_t user = 0;
    memset(bytes, 0, sizeof bytes);
    memset(keep, 0, sizeof keep);
    if (!valid || m == NULL) {
        /* idle: garbage on the data lines */
        for (unsigned w = 0; w < 4 * lanes; w++)
            data[w] = tb_rand32(&rng);
        dut_set_in(0, data, keep, tb_chance(&rng, 50), tb_rand32(&rng), 0, data, 0);
        return;
    }
    unsigned k = m->plan[m->in_beat];
    for (unsigned l = 0; l < k; l++) {
        int aad;
        const uint8_t *src;
        size_t n = block_len(m, m->in_block + l, &aad, &src);
        memcpy(bytes + 16 * l, src, n);
        for (unsigned j = 0; j < n; j++)
            keep[(16 * l + j) / 32] |= 1u << ((16 * l + j) % 32);
        if (aad)
            user |= 1u << l;
    }
    tb_pack_axis(data, 4 * lanes, bytes, 16 * lanes);
    pack_be(ivw, 96, m->iv, 12);
    dut_set_in(1, data, keep, m->in_beat + 1 == m->nbeats, user, m->slot, ivw, m->decrypt);
}

/* first beat offered: remember the slot's key and install counters */
static void on_present(message *m)
{
    slot_state *s = &slots[m->slot];
    m->presented = 1;
    m->pres_key = s->key;
    m->pres_started = s->started;
    m->pres_completed = s->completed;
}

/* first beat taken: the key candidates and the expected output */
static void on_first_accept(message *m)
{
    const slot_state *s = &slots[m->slot];
    int exact = m->pres_started == m->pres_completed && s->started == m->pres_started;
    m->ncand = 1;
    expect_compute(m, m->pres_key, &m->cand[0]);
    if (!exact && s->pend != m->pres_key) {
        m->ncand = 2;
        expect_compute(m, s->pend, &m->cand[1]);
    }
    if (tb_rand_range(&rng, 0, 15) == 0)
        model_vs_evp(m);
}

/* ------------------------------------------------------------------------------------ */
/* Output side                                                                           */
/* ------------------------------------------------------------------------------------ */

static void check_message(message *m)
{
    const expect *e = &m->cand[0];
    if (m->ncand == 2 && (m->cand[1].nokey == m->got_nokey) &&
        !memcmp(m->cand[1].tag, m->got_tag, 16))
        e = &m->cand[1];
    msgs_overlap += m->ncand == 2;
    msgs_new_key += e == &m->cand[1];
    msgs_nokey += (unsigned long)e->nokey;
    if (m->shape_bad)
        tb_fail(&res, "msg %lu: output beats differ from input beats", m->id);
    else
        tb_pass(&res);
    tb_check_u64(&res, "AAD length out", m->alen, m->got_alen);
    tb_check_u64(&res, "data length out", m->dlen, m->got_dlen);
    if (m->got_alen == m->alen)
        tb_check_bytes(&res, "AAD out", m->aad, m->got_aad, m->alen);
    if (m->got_dlen == m->dlen) {
        if (!tb_check_bytes(&res, m->decrypt ? "plaintext" : "ciphertext", e->out, m->got_out,
                            m->dlen) &&
            res.failed <= TB_MAX_REPORTS)
            fprintf(stderr, "  msg %lu: slot %u, %s, aad %zu, len %zu, lanes %u, cycle %lu\n",
                    m->id, m->slot, m->decrypt ? "open" : "seal", m->alen, m->dlen, lanes,
                    cycle);
        if (m->has_file)
            tb_check_bytes(&res, m->decrypt ? "plaintext vs file" : "ciphertext vs file",
                           m->file_out, m->got_out, m->dlen);
    }
    if (!tb_check_bytes(&res, "tag", e->tag, m->got_tag, 16) && res.failed <= TB_MAX_REPORTS)
        fprintf(stderr, "  msg %lu: slot %u, %s, aad %zu, len %zu, %d candidate(s), cycle %lu\n",
                m->id, m->slot, m->decrypt ? "open" : "seal", m->alen, m->dlen, m->ncand, cycle);
    tb_check_u64(&res, "nokey", (uint64_t)e->nokey, (uint64_t)m->got_nokey);
    if (!m->st_have) {
        tb_fail(&res, "msg %lu: no tag on the tag stream by its tlast beat", m->id);
    } else {
        tb_check_bytes(&res, "tag stream", m->got_tag, m->st_tag, 16);
        tb_check_u64(&res, "tag stream nokey", (uint64_t)m->got_nokey, (uint64_t)m->st_nokey);
    }
    if (m->has_file)
        tb_check_bytes(&res, "tag vs file", m->file_tag, m->got_tag, 16);
    msgs_done++;
}

static void take_beat(message *m, const uint32_t *data, const uint32_t *keep, int last,
                      uint32_t user, const uint32_t tagw[4], int nokey)
{
    static uint8_t bytes[16 * IBSEC_MAX_LANES];
    if (m->out_beat == 0)
        m->t_first_out = cycle;
    if (m->out_beat >= m->nbeats) {
        m->shape_bad = 1;
        return;
    }
    unsigned k = m->plan[m->out_beat];
    tb_unpack_axis(bytes, 16 * lanes, data);
    for (unsigned l = 0; l < lanes; l++) {
        int aad = 0;
        size_t n = l < k ? block_len(m, m->out_block + l, &aad, NULL) : 0;
        for (unsigned j = 0; j < 16; j++) {
            int kb = keep_bit(keep, 16 * l + j);
            if (kb != (j < n) || (!kb && bytes[16 * l + j] != 0))
                m->shape_bad = 1;
        }
        if ((int)((user >> l) & 1) != (l < k && aad))
            m->shape_bad = 1;
        if (l >= k)
            continue;
        if (aad) {
            memcpy(m->got_aad + m->got_alen, bytes + 16 * l, n);
            m->got_alen += n;
        } else {
            memcpy(m->got_out + m->got_dlen, bytes + 16 * l, n);
            m->got_dlen += n;
        }
    }
    m->out_block += k;
    m->out_beat++;
    if (last != (m->out_beat == m->nbeats))
        m->shape_bad = 1;
    if (last) {
        unpack_be(m->got_tag, 16, tagw, 128);
        m->got_nokey = nokey;
        m->t_last_out = cycle;
    }
}

/* ------------------------------------------------------------------------------------ */
/* The cycle loop                                                                        */
/* ------------------------------------------------------------------------------------ */

typedef int (*msg_source)(message *m, void *arg); /* 1: filled m; 0: no more */

/* random install: a slot never installed first, AES-128 or AES-256; or a zeroize */
static void maybe_install(void)
{
    if (inst_busy || inst_valid || install_per_mille == 0 ||
        tb_rand_range(&rng, 0, 999) >= install_per_mille)
        return;
    unsigned slot = tb_rand_range(&rng, 0, KEY_SLOTS - 1);
    for (unsigned s = 0; s < KEY_SLOTS; s++)
        if (slots[s].key < 0) {
            slot = s;
            break;
        }
    /* at most one install overlaps a message's first-beat wait */
    if (cur && cur->presented && cur->in_beat == 0 && cur->slot == slot &&
        (cur->pres_started != cur->pres_completed || slots[slot].started != cur->pres_started))
        return;
    if (slots[slot].key >= 0 && tb_rand_range(&rng, 0, 5) == 0) {
        install_start(slot, -1);
        return;
    }
    uint8_t kb[32];
    size_t len = tb_chance(&rng, 50) ? 32 : 16;
    tb_rand_bytes(&rng, kb, len);
    install_start(slot, key_new(kb, len));
}

/* runs messages from src until it is empty and every message is out; 0 ok, -1 stall */
static int run(msg_source src, void *arg, int (*need_key)(message *m))
{
    static uint32_t dw[MAX_WORDS], kw[IBSEC_MAX_LANES], tagw[4], keyw[8], stw[4];
    int more = 1, any_out = 0;
    unsigned long last_progress = cycle;
    for (;;) {
        if (run_progress)
            ibsec_progress_update(run_progress, msgs_done);
        if (!cur && more && ring_head - ring_tail < RING) {
            message *m = &ring[ring_head % RING];
            more = src(m, arg);
            if (more) {
                ring_head++;
                cur = m;
            }
        }
        if (!more && !cur && ring_head == ring_tail && !inst_busy && !inst_valid)
            return 0;
        if (cycle - last_progress > STALL_CYCLES) {
            tb_fail(&res, "no progress for %d cycles at cycle %lu (%u messages in flight)",
                    STALL_CYCLES, cycle, ring_head - ring_tail);
            return -1;
        }

        maybe_install();
        int hold = cur && cur->in_beat == 0 && !cur->presented && need_key && need_key(cur);
        int present = cur && !hold && (cur->presented || !tb_chance(&rng, in_idle_pct));
        if (present && !cur->presented)
            on_present(cur);
        drive_beat(cur, present);
        if (inst_valid && inst_key < 0) {
            /* zeroize: whatever s_key_data holds is ignored */
            for (unsigned i = 0; i < 8; i++)
                keyw[i] = tb_rand32(&rng);
            dut_set_key(1, inst_slot, tb_chance(&rng, 50), keyw, 1);
        } else if (inst_valid) {
            pack_be(keyw, 256, keys[inst_key].bytes, keys[inst_key].len);
            dut_set_key(1, inst_slot, keys[inst_key].len == 32, keyw, 0);
        } else {
            memset(keyw, 0, sizeof keyw);
            dut_set_key(0, 0, 0, keyw, 0);
        }
        int oready = !tb_chance(&rng, out_stall_pct);
        dut_set_out_ready(oready);

        int kready = dut_key_ready();
        int iready = dut_in_ready();
        int last, nokey;
        uint32_t user;
        int ovalid = dut_out(dw, kw, &last, &user, tagw, &nokey);
        int st_nokey;
        int st_valid = dut_tag(stw, &st_nokey);

        /* key port: an install finished (ready is back), then a new one taken */
        if (inst_busy && kready) {
            slot_state *s = &slots[inst_slot];
            s->key = s->pend;
            s->completed++;
            inst_busy = 0;
            unsigned long d = cycle - inst_taken;
            if (inst_cycles_min == 0 || d < inst_cycles_min)
                inst_cycles_min = d;
            if (d > inst_cycles_max)
                inst_cycles_max = d;
        }
        if (inst_valid && kready) {
            slot_state *s = &slots[inst_slot];
            s->pend = inst_key;
            s->started++;
            zeroizes += inst_key < 0;
            inst_valid = 0;
            inst_busy = 1;
            inst_taken = cycle;
        }
        /* input beat */
        if (present && iready) {
            if (cur->in_beat == 0) {
                cur->t_first_in = cycle;
                on_first_accept(cur);
            }
            cur->in_block += cur->plan[cur->in_beat];
            cur->in_beat++;
            if (cur->in_beat == cur->nbeats) {
                cur->t_last_in = cycle;
                cur = NULL;
            }
        }
        /* tag stream: the next message's tag, once its first beat is in */
        if (st_valid) {
            message *m = &ring[tag_seq % RING];
            if (tag_seq >= ring_head || (m == cur && cur->in_beat == 0)) {
                tb_fail(&res, "tag on the tag stream at cycle %lu before its message", cycle);
                return -1;
            }
            unpack_be(m->st_tag, 16, stw, 128);
            m->st_nokey = st_nokey;
            m->st_have = 1;
            m->t_tag = cycle;
            tag_seq++;
        }
        /* output beat */
        if (ovalid && oready) {
            if (ring_head == ring_tail || (cur == &ring[ring_tail % RING] && cur->in_beat == 0)) {
                tb_fail(&res, "output beat at cycle %lu with no message in flight", cycle);
                return -1;
            }
            message *m = &ring[ring_tail % RING];
            if (!any_out)
                run_first_out = cycle;
            any_out = 1;
            run_last_out = cycle;
            take_beat(m, dw, kw, last, user, tagw, nokey);
            last_progress = cycle;
            if (last) {
                check_message(m);
                ring_tail++;
            }
        }
        if (ring_head == ring_tail)
            last_progress = cycle;
        dut_tick();
        cycle++;
    }
}

static void reset_dut(void)
{
    static uint32_t zero[MAX_WORDS];
    dut_set_rst(1);
    dut_set_key(0, 0, 0, zero, 0);
    drive_beat(NULL, 0);
    dut_set_out_ready(1);
    for (int i = 0; i < 4; i++)
        dut_tick();
    dut_set_rst(0);
    for (unsigned s = 0; s < KEY_SLOTS; s++) {
        slots[s].key = slots[s].pend = -1;
        slots[s].started = slots[s].completed = 0;
    }
}

/* ------------------------------------------------------------------------------------ */
/* Random run                                                                            */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    unsigned long next, count;
} random_src;

static int random_next(message *m, void *arg)
{
    random_src *r = arg;
    if (r->next >= r->count)
        return 0;
    if (r->next % PHASE_MSGS == 0) {
        static const unsigned idle[] = {0, 0, 5, 30, 70};
        static const unsigned stall[] = {0, 0, 10, 50, 85};
        in_idle_pct = idle[tb_rand_range(&rng, 0, 4)];
        out_stall_pct = stall[tb_rand_range(&rng, 0, 4)];
    }
    msg_random(m, r->next++);
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* Vector run                                                                            */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    FILE *f;
    ibsec_gcmvec_rec rec;
    int have;             /* rec read, its open still to send */
    int key;              /* pool index of rec's key */
    unsigned long records;
    int error;
} vec_src;

static int vec_next(message *m, void *arg)
{
    vec_src *v = arg;
    char err[200];
    if (!v->have) {
        int rc = ibsec_gcmvec_read_next(v->f, &v->rec, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "tb_gcm: vector file: %s\n", err);
            v->error = 1;
            return 0;
        }
        if (rc == 0)
            return 0;
        v->records++;
        v->key = key_new(v->rec.key, v->rec.key_len);
        v->have = 2;
    }
    const ibsec_gcmvec_rec *r = &v->rec;
    msg_reset(m, r->index);
    m->slot = (unsigned)(r->index % KEY_SLOTS);
    m->decrypt = v->have == 1;
    memcpy(m->iv, r->iv, 12);
    memcpy(m->aad, r->aad, r->aad_len);
    memcpy(m->din, m->decrypt ? r->ct : r->pt, r->len);
    m->has_file = 1;
    memcpy(m->file_out, m->decrypt ? r->pt : r->ct, r->len);
    memcpy(m->file_tag, r->tag, 16);
    m->pres_key = v->key; /* the key the message needs (checked by vec_need_key) */
    msg_set_lengths(m, r->aad_len, r->len, tb_chance(&rng, 50));
    v->have--;
    return 1;
}

/* holds a vector message until its slot holds its key, installing it when needed */
static int vec_need_key(message *m)
{
    int want = m->pres_key;
    const slot_state *s = &slots[m->slot];
    if (s->key >= 0 && keys[s->key].len == keys[want].len &&
        !memcmp(keys[s->key].bytes, keys[want].bytes, keys[want].len) && !inst_busy &&
        !inst_valid)
        return 0;
    if (!inst_busy && !inst_valid)
        install_start(m->slot, want);
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* Benchmark                                                                             */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    unsigned long next, count;
    size_t alen, dlen;
} fixed_src;

static int fixed_next(message *m, void *arg)
{
    fixed_src *f = arg;
    if (f->next >= f->count)
        return 0;
    msg_reset(m, f->next++);
    m->slot = (unsigned)(f->next % KEY_SLOTS);
    m->decrypt = open_only || (f->next & 1);
    tb_rand_bytes(&rng, m->iv, 12);
    tb_rand_bytes(&rng, m->aad, f->alen);
    tb_rand_bytes(&rng, m->din, f->dlen);
    msg_set_lengths(m, f->alen, f->dlen, 1);
    return 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void install_all(void)
{
    static const uint8_t zero[1];
    (void)zero;
    for (unsigned s = 0; s < KEY_SLOTS; s++) {
        uint8_t kb[32];
        size_t len = (s & 1) ? 32 : 16;
        tb_rand_bytes(&rng, kb, len);
        install_start(s, key_new(kb, len));
        fixed_src none = {0, 0, 0, 0};
        run(fixed_next, &none, NULL);
    }
}

/* ------------------------------------------------------------------------------------ */
/* Zeroize check                                                                         */
/* ------------------------------------------------------------------------------------ */

/* words of one bank of the key table: 15 round keys (FIPS-197 rk[0..14]) and H^1..H^HPOW,
   HPOW = 5 * LANES + 1 (gcm_core: GHASH_INTERLEAVE * LANES + 1) */
#define RK_WORDS   15
#define BANK_WORDS_MAX (RK_WORDS + 5 * IBSEC_MAX_LANES + 1)

/* reads bank `set` into w (4 words per key word); 0, or -1 if a signal is not found */
static int peek_bank(unsigned set, uint32_t *w, unsigned nw)
{
    for (unsigned i = 0; i < nw; i++)
        if (dut_peek_key(set, i, w + 4 * i))
            return -1;
    return 0;
}

static int bank_is_zero(const uint32_t *w, unsigned nw)
{
    for (unsigned i = 0; i < 4 * nw; i++)
        if (w[i])
            return 0;
    return 1;
}

/* every slot installed twice (its two banks hold two keys), one slot zeroized: its banks
   must read all zero, the other slots' banks unchanged; then messages on every slot, the
   zeroized one ending nokey */
static void zeroize_check(void)
{
    static uint32_t before[2 * KEY_SLOTS][4 * BANK_WORDS_MAX];
    static uint32_t after[2 * KEY_SLOTS][4 * BANK_WORDS_MAX];
    unsigned nw = RK_WORDS + 5 * lanes + 1;
    fixed_src none = {0, 0, 0, 0};
    in_idle_pct = out_stall_pct = install_per_mille = 0;
    install_all();
    install_all();
    for (unsigned set = 0; set < 2 * KEY_SLOTS; set++) {
        if (peek_bank(set, before[set], nw)) {
            tb_fail(&res, "zeroize check: the key table is not readable through VPI");
            return;
        }
        if (bank_is_zero(before[set], nw))
            tb_fail(&res, "zeroize check: bank %u of slot %u is zero after two installs",
                    set & 1, set / 2);
    }
    unsigned z = tb_rand_range(&rng, 0, KEY_SLOTS - 1);
    unsigned long t0 = cycle;
    install_start(z, -1);
    run(fixed_next, &none, NULL);
    int ok = 1;
    for (unsigned set = 0; set < 2 * KEY_SLOTS; set++) {
        peek_bank(set, after[set], nw);
        for (unsigned i = 0; i < nw; i++) {
            const uint32_t *a = after[set] + 4 * i, *b = before[set] + 4 * i;
            int want_zero = set / 2 == z;
            int bad = want_zero ? (a[0] | a[1] | a[2] | a[3]) != 0 : memcmp(a, b, 16) != 0;
            if (bad) {
                ok = 0;
                if (res.failed < TB_MAX_REPORTS)
                    fprintf(stderr, "  zeroize of slot %u: slot %u bank %u %s%u %s: "
                            "%08x%08x%08x%08x\n", z, set / 2, set & 1,
                            i < RK_WORDS ? "rk[" : "H^", i < RK_WORDS ? i : i - RK_WORDS + 1,
                            want_zero ? "not zero" : "changed", a[3], a[2], a[1], a[0]);
            }
        }
    }
    if (ok)
        tb_pass(&res);
    else
        tb_fail(&res, "zeroize of slot %u: the key table is not as expected", z);
    printf("%s: zeroize of slot %u took %lu cycles; its two banks (%u words each) read "
           "%s, the other slots' banks %s\n",
           res.name, z, cycle - t0, nw, ok ? "zero" : "NOT zero (or others changed)",
           ok ? "unchanged" : "see above");
    /* messages on every slot: slot z's end nokey (its key is -1 now) */
    fixed_src f = {0, 4 * KEY_SLOTS, 16, 64};
    run(fixed_next, &f, NULL);
}

static void bench(void)
{
    static const size_t sizes[] = {16, 64, 256, 1024, 4096};
    in_idle_pct = out_stall_pct = install_per_mille = 0;
    install_all();

    /* latency: one message into an idle core, 16-byte AAD, 2*LANES data blocks */
    for (int with_aad = 1; with_aad >= 0; with_aad--) {
        fixed_src one = {0, 1, with_aad ? 16 : 0, 32 * (size_t)lanes};
        message *m = &ring[ring_head % RING];
        for (int i = 0; i < 40; i++) {
            dut_tick();
            cycle++;
        }
        run(fixed_next, &one, NULL);
        printf("bench-gcm-L%u: latency (%s, %s AAD, %zu data bytes): first block in -> "
               "first block out %lu cycles, last block in -> tag out %lu cycles (tag stream "
               "%lu)\n",
               lanes, m->decrypt ? "open" : "seal", with_aad ? "16-byte" : "empty", one.dlen,
               m->t_first_out - m->t_first_in, m->t_last_out - m->t_last_in,
               m->t_tag - m->t_last_in);
    }

    /* throughput: back-to-back messages, full beats, no idle, no back-pressure */
    unsigned long cyc0 = cycle;
    double t0 = now_s();
    for (int with_aad = 0; with_aad <= 1; with_aad++) {
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            size_t alen = with_aad ? 16 : 0;
            /* about 512 KiB of data per point, 100..2000 messages */
            unsigned long count = (unsigned long)(524288 / sizes[i]);
            count = count < 100 ? 100 : count > 2000 ? 2000 : count;
            fixed_src f = {0, count, alen, sizes[i]};
            run(fixed_next, &f, NULL);
            /* steady state: from the first output beat of the first message to the last
               output beat of the last one (the pipeline fill is not counted) */
            double cyc = (double)(run_last_out - run_first_out + 1);
            double bpc = (double)count * (double)sizes[i] / cyc;
            double all = (double)count * (double)(sizes[i] + alen) / cyc;
            printf("bench-gcm-L%u: %4zu B data, %s AAD: %7.2f data B/clock = %5.1f%% of "
                   "%u (%.2f B/clock with AAD)\n",
                   lanes, sizes[i], with_aad ? "16-byte" : "empty", bpc,
                   100.0 * bpc / (16.0 * lanes), 16 * lanes, all);
        }
    }
    double dt = now_s() - t0;
    printf("bench-gcm-L%u: simulation speed %.0f cycles/s (%lu cycles in %.2f s)\n", lanes,
           (double)(cycle - cyc0) / dt, cycle - cyc0, dt);
}

/* ------------------------------------------------------------------------------------ */
/* Main                                                                                  */
/* ------------------------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr,
            "usage: Vtb [--seed N] [--messages N] [--vectors FILE] [--bench] [--open-only]\n");
    exit(2);
}

int tb_gcm_main(int argc, char **argv)
{
    unsigned long seed = 1, messages = 20000;
    const char *vectors = NULL;
    int do_bench = 0;
    char name[64];
    for (int i = 1; i < argc; i++) {
        char *end;
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoul(argv[++i], &end, 0);
            if (*end)
                usage();
        } else if (!strcmp(argv[i], "--messages") && i + 1 < argc) {
            messages = strtoul(argv[++i], &end, 0);
            if (*end)
                usage();
        } else if (!strcmp(argv[i], "--vectors") && i + 1 < argc) {
            vectors = argv[++i];
        } else if (!strcmp(argv[i], "--bench")) {
            do_bench = 1;
        } else if (!strcmp(argv[i], "--open-only")) {
            open_only = 1;
        } else if (argv[i][0] == '+') {
            continue; /* Verilator plusargs */
        } else {
            fprintf(stderr, "tb_gcm: unknown argument '%s'\n", argv[i]);
            usage();
        }
    }
    if (open_only && vectors) {
        fprintf(stderr, "tb_gcm: --open-only cannot run a vector file (it seals as well)\n");
        return 2;
    }
    lanes = dut_lanes();
    if (lanes < 1 || lanes > IBSEC_MAX_LANES) {
        fprintf(stderr, "tb_gcm: the core has LANES = %u, the harness handles 1..%d\n", lanes,
                IBSEC_MAX_LANES);
        return 2;
    }
    tb_rng_seed(&rng, seed);
    evp = EVP_CIPHER_CTX_new();
    if (evp == NULL) {
        fprintf(stderr, "tb_gcm: EVP_CIPHER_CTX_new failed\n");
        return 2;
    }
    snprintf(name, sizeof name, "%s-L%u",
             vectors ? "gcm-vec" : do_bench ? "bench-gcm" : open_only ? "gcm-early" : "gcm", lanes);
    tb_result_init(&res, name);
    reset_dut();

    int rc = 0;
    if (do_bench) {
        bench();
    } else if (vectors) {
        vec_src v;
        memset(&v, 0, sizeof v);
        v.f = fopen(vectors, "r");
        if (v.f == NULL) {
            fprintf(stderr, "tb_gcm: cannot open vector file '%s'\n", vectors);
            return 2;
        }
        ibsec_gcmvec_rec_init(&v.rec);
        in_idle_pct = 10;
        out_stall_pct = 20;
        install_per_mille = 0;
        ibsec_progress prog;
        ibsec_progress_start(&prog, name, "messages", 0);
        run_progress = &prog;
        run(vec_next, &v, vec_need_key);
        run_progress = NULL;
        ibsec_progress_end(&prog, msgs_done);
        fclose(v.f);
        if (v.error)
            tb_fail(&res, "vector file '%s' is malformed", vectors);
        if (v.records == 0)
            tb_fail(&res, "vector file '%s' holds no record", vectors);
        printf("%s: %lu records, %lu messages (seal and open) in %lu cycles\n", name,
               v.records, msgs_done, cycle);
    } else {
        random_src r = {0, messages};
        install_per_mille = 15;
        double t0 = now_s();
        ibsec_progress prog;
        ibsec_progress_start(&prog, name, "messages", messages);
        run_progress = &prog;
        run(random_next, &r, NULL);
        run_progress = NULL;
        ibsec_progress_end(&prog, msgs_done);
        double dt = now_s() - t0;
        if (msgs_done != messages)
            tb_fail(&res, "%lu of %lu messages came out", msgs_done, messages);
        printf("%s: %lu messages, %lu cycles, %.0f cycles/s, %lu key installs, %lu model vs "
               "OpenSSL checks, seed %lu\n",
               name, msgs_done, cycle, (double)cycle / dt, slots[0].completed +
               slots[1].completed + slots[2].completed + slots[3].completed, model_evp_checks,
               seed);
        printf("%s: %lu messages started during an install of their slot (%lu of them on the "
               "new key), %lu on a slot not installed\n",
               name, msgs_overlap, msgs_new_key, msgs_nokey);
        printf("%s: key install, s_key taken -> s_key_ready back: %lu to %lu cycles (the most "
               "with a message open at the switch); %lu zeroizes among them\n",
               name, inst_cycles_min, inst_cycles_max, zeroizes);
        zeroize_check();
    }
    rc = tb_summary(&res);
    EVP_CIPHER_CTX_free(evp);
    dut_finish();
    return rc;
}
