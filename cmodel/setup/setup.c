/*
 * setup.c — CM endpoints of simulated CAs, their key distribution and the pipelined
 * event loop (setup.h explains the flow and the clock).
 */
#include "setup.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>

#include "cm_wire.h"

#define SETUP_GUID_BASE 0x0002c90300000001ull
#define SETUP_OUTBOX    4u

/* ---- names ------------------------------------------------------------------------ */

const char *setup_state_name(enum setup_state st)
{
    static const char *const names[SETUP_ST_COUNT] = {
        "free", "req_sent", "rep_sent", "established", "dreq_sent", "closed",
    };
    return (unsigned)st < SETUP_ST_COUNT ? names[st] : "?";
}

/* ---- clock and outbox ------------------------------------------------------------- */

/* Messages a handler sends; stamped and queued when it returns (setup.h "Time"). */
static setup_msg g_outbox[SETUP_OUTBOX];
static unsigned  g_n_out;

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int q_less(const setup_msg *a, const setup_msg *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int q_push(setup_sim *s, const setup_msg *m)
{
    size_t i;

    if (s->q_len == s->q_cap) {
        size_t cap = s->q_cap ? 2 * s->q_cap : 256;
        setup_msg *q = realloc(s->q, cap * sizeof *q);
        if (q == NULL)
            return -1;
        s->q = q;
        s->q_cap = cap;
    }
    i = s->q_len++;
    while (i > 0 && q_less(m, &s->q[(i - 1) / 2])) {
        s->q[i] = s->q[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->q[i] = *m;
    return 0;
}

/* Arm the deadline of a setup step of CA ca's connection c. */
static int timer_arm(setup_sim *s, unsigned ca, const setup_conn *c)
{
    if (s->tq_head + s->tq_len == s->tq_cap) {
        if (s->tq_head > 0) {
            memmove(s->tq, s->tq + s->tq_head, s->tq_len * sizeof *s->tq);
            s->tq_head = 0;
        } else {
            size_t cap = s->tq_cap ? 2 * s->tq_cap : 256;
            setup_timer *t = realloc(s->tq, cap * sizeof *t);
            if (t == NULL)
                return -1;
            s->tq = t;
            s->tq_cap = cap;
        }
    }
    setup_timer *t = &s->tq[s->tq_head + s->tq_len++];
    t->deadline = s->now_ns + s->timeout_ns;
    t->ca = ca;
    t->local_comm_id = c->local_comm_id;
    t->state = c->state;
    return 0;
}

bool setup_next_msg(setup_sim *s, setup_msg *m)
{
    size_t i = 0;
    setup_msg last;

    if (s->q_len == 0)
        return false;
    *m = s->q[0];
    last = s->q[--s->q_len];
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, k = i;
        const setup_msg *best = &last;
        if (l < s->q_len && q_less(&s->q[l], best)) { k = l; best = &s->q[l]; }
        if (r < s->q_len && q_less(&s->q[r], best)) { k = r; }
        if (k == i)
            break;
        s->q[i] = s->q[k];
        i = k;
    }
    if (s->q_len > 0)
        s->q[i] = last;
    return true;
}

/* Queue a MAD from `from` to `to`; it leaves when the running handler ends. */
static void send_mad(unsigned from, unsigned to, const uint8_t mad[IB_MAD_LEN])
{
    if (g_n_out == SETUP_OUTBOX)
        return;
    setup_msg *m = &g_outbox[g_n_out++];
    m->from = from;
    m->to = to;
    m->len = IB_MAD_LEN;
    memcpy(m->mad, mad, IB_MAD_LEN);
}

/* Handler accounting: the CA's CPU was busy from start to start + cost. */
static uint64_t handler_start(setup_sim *s, unsigned ca, uint64_t t_arrival)
{
    uint64_t start = t_arrival > s->ca[ca].cpu_free_ns ? t_arrival : s->ca[ca].cpu_free_ns;
    g_n_out = 0;
    return start;
}

static void handler_end(setup_sim *s, unsigned ca, uint64_t start, uint64_t cost, unsigned attr)
{
    uint64_t end = start + (s->fixed_cost_ns ? s->fixed_cost_ns : cost);

    s->busy_ns[ca] += end - start;
    s->attr_ns[attr & 0x1Fu] += end - start;
    s->attr_n[attr & 0x1Fu]++;
    s->ca[ca].cpu_free_ns = end;
    if (end > s->now_ns)
        s->now_ns = end;
    for (unsigned i = 0; i < g_n_out; i++) {
        setup_msg *m = &g_outbox[i];
        setup_ca *src = &s->ca[m->from];
        m->t = end + s->wire_ns;
        m->seq = s->seq++;
        if (s->pcap != NULL)
            cm_wire_pcap(s->pcap, m->mad, src->lid, s->ca[m->to].lid, src->psn_out, end / 1000u);
        src->psn_out = (src->psn_out + 1) & 0xFFFFFFu;
        q_push(s, m);
    }
    g_n_out = 0;
}

/* ---- subnet ----------------------------------------------------------------------- */

static int ca_init(setup_ca *c, uint64_t guid, uint16_t lid, uint32_t qpn_base)
{
    uint8_t ca_sk[KD_KEY_LEN];
    ibsec_drv_bus b;

    memset(c, 0, sizeof *c);
    if (kd_random(ca_sk, sizeof ca_sk) != 0)
        return -1;
    kd_ca_init(&c->keys, guid, ca_sk);
    OPENSSL_cleanse(ca_sk, sizeof ca_sk);
    c->lid = lid;
    c->next_qpn = qpn_base;
    if (ibsec_engine_init(&c->seal_e, SETUP_KEY_SLOTS, SETUP_CTX_SLOTS, 1) != 0 ||
        ibsec_engine_init(&c->open_e, SETUP_KEY_SLOTS, SETUP_CTX_SLOTS, 1) != 0)
        return -1;
    ibsec_regmodel_init(&c->seal_rm, &c->seal_e, false);
    ibsec_regmodel_init(&c->open_rm, &c->open_e, true);
    b = ibsec_regmodel_bus(&c->seal_rm);
    if (ibsec_drv_attach(&c->seal, &b, false) != DRV_OK)
        return -1;
    b = ibsec_regmodel_bus(&c->open_rm);
    if (ibsec_drv_attach(&c->open, &b, true) != DRV_OK)
        return -1;
    return 0;
}

int setup_sim_init(setup_sim *s, unsigned n_ca, uint64_t wire_ns)
{
    memset(s, 0, sizeof *s);
    if (n_ca < 2 || n_ca > SETUP_MAX_CA)
        return -1;
    s->n_ca = n_ca;
    s->wire_ns = wire_ns;
    s->timeout_ns = SETUP_TIMEOUT_NS;
    if (kd_random(s->sm.sm_sk, KD_KEY_LEN) != 0 || kd_random(s->sm.ssm_sk, KD_KEY_LEN) != 0)
        return -1;
    for (unsigned i = 0; i < n_ca; i++) {
        if (ca_init(&s->ca[i], SETUP_GUID_BASE + i, (uint16_t)(1 + i), 0x100u + 0x10000u * i) != 0)
            return -1;
        if (kd_sm_add_ca(&s->sm, s->ca[i].keys.guid, s->ca[i].keys.ca_sk) != 0)
            return -1;
    }
    return 0;
}

void setup_sim_free(setup_sim *s)
{
    for (unsigned i = 0; i < s->n_ca; i++) {
        setup_ca *c = &s->ca[i];
        ibsec_engine_free(&c->seal_e);
        ibsec_engine_free(&c->open_e);
        for (unsigned k = 0; k < SETUP_CONN_CHUNKS && c->chunk[k] != NULL; k++) {
            OPENSSL_cleanse(c->chunk[k], SETUP_CONN_CHUNK * sizeof *c->chunk[k]);
            free(c->chunk[k]);
        }
        OPENSSL_cleanse(&c->keys, sizeof c->keys);
    }
    free(s->q);
    free(s->tq);
    free(s->retry);
    OPENSSL_cleanse(&s->sm, sizeof s->sm);
    memset(s, 0, sizeof *s);
}

int setup_distribute_keys(setup_sim *s, uint16_t pkey)
{
    uint8_t p_sk[KD_KEY_LEN], pair[KD_KEY_LEN];
    kd_blob b;
    int rc = -1;

    if (kd_random(p_sk, sizeof p_sk) != 0)
        return -1;
    for (unsigned i = 0; i < s->n_ca; i++) {
        setup_ca *c = &s->ca[i];
        if (kd_sm_issue_sm_sk(&s->sm, c->keys.guid, &b) != KD_OK ||
            kd_ca_accept_sm_sk(&c->keys, &b) != KD_OK ||
            kd_sm_issue_p_sk(&s->sm, pkey, p_sk, &b) != KD_OK ||
            kd_ca_accept_p_sk(&c->keys, &b) != KD_OK)
            goto done;
    }
    for (unsigned i = 0; i < s->n_ca; i++)
        for (unsigned j = i + 1; j < s->n_ca; j++) {
            uint64_t gi = s->ca[i].keys.guid, gj = s->ca[j].keys.guid;
            if (kd_random(pair, sizeof pair) != 0 ||
                kd_sm_issue_pair(&s->sm, gi, gj, pair, &b) != KD_OK ||
                kd_ca_accept_pair(&s->ca[i].keys, &b) != KD_OK ||
                kd_sm_issue_pair(&s->sm, gj, gi, pair, &b) != KD_OK ||
                kd_ca_accept_pair(&s->ca[j].keys, &b) != KD_OK)
                goto done;
        }
    rc = 0;
done:
    OPENSSL_cleanse(p_sk, sizeof p_sk);
    OPENSSL_cleanse(pair, sizeof pair);
    return rc;
}

/* ---- per-CA helpers --------------------------------------------------------------- */

static int ca_of_guid(const setup_sim *s, uint64_t guid)
{
    for (unsigned i = 0; i < s->n_ca; i++)
        if (s->ca[i].keys.guid == guid)
            return (int)i;
    return -1;
}

/* The pair's auth key and wrap key: SECM_OK, SECM_R_UNKNOWN_PEER (no pair key with
 * peer) or SECM_R_CRYPTO (a derivation failed; both outputs zeroed). */
static enum secm_reason pair_keys(const setup_ca *c, uint64_t peer, uint8_t auth[KD_KEY_LEN],
                                  uint8_t wrap[KD_KEY_LEN])
{
    const uint8_t *pk = kd_ca_pair_key(&c->keys, peer);
    int rc = 0;

    if (pk == NULL)
        return SECM_R_UNKNOWN_PEER;
    if (auth != NULL)
        rc |= kd_pair_auth_key(pk, auth);
    if (wrap != NULL)
        rc |= kd_pair_wrap_key(pk, wrap);
    if (rc != 0) {
        if (auth != NULL)
            OPENSSL_cleanse(auth, KD_KEY_LEN);
        if (wrap != NULL)
            OPENSSL_cleanse(wrap, KD_KEY_LEN);
        return SECM_R_CRYPTO;
    }
    return SECM_OK;
}

/* A local communication ID (IBA §12.6.1): the record's index + 1 in the low 20 bits
 * (never 0), its generation in the 12 bits above.  A record is reused once closed
 * (conn_release) with the generation one higher, so a stale message or deadline naming
 * the old connection finds nothing (setup_find compares the whole ID). */
static uint32_t comm_id_of(const setup_conn *x)
{
    return (x->gen & 0xFFFu) << SETUP_COMM_GEN_SHIFT | ((x->slot + 1) & SETUP_COMM_INDEX_MASK);
}

setup_conn *setup_conn_at(setup_sim *s, unsigned ca, uint32_t index)
{
    setup_ca *c = &s->ca[ca];

    if (index >= c->n_conn)
        return NULL;
    return &c->chunk[index / SETUP_CONN_CHUNK][index % SETUP_CONN_CHUNK];
}

/* A record for a new connection: the oldest closed one if SETUP_CONN_REUSE_LAG more
 * wait behind it, else a new one (a new chunk every SETUP_CONN_CHUNK).  Records never
 * move, so no key is ever copied by a realloc and pointers stay valid. */
static setup_conn *conn_new(setup_ca *c, enum secm_reason *why)
{
    setup_conn *x;
    uint32_t gen;

    if (c->n_free > SETUP_CONN_REUSE_LAG) {
        uint32_t i = c->free_head - 1;
        x = &c->chunk[i / SETUP_CONN_CHUNK][i % SETUP_CONN_CHUNK];
        c->free_head = x->next_free;
        if (c->free_head == 0)
            c->free_tail = 0;
        c->n_free--;
        gen = x->gen + 1;
    } else {
        uint8_t b[2] = { 0, 0 };
        unsigned k = c->n_conn / SETUP_CONN_CHUNK;
        *why = SECM_R_NO_RESOURCES;
        if (c->n_conn >= SETUP_CONN_CHUNKS * SETUP_CONN_CHUNK)
            return NULL;
        *why = SECM_R_LOCAL;
        if (c->chunk[k] == NULL && (c->chunk[k] = calloc(SETUP_CONN_CHUNK, sizeof *x)) == NULL)
            return NULL;
        *why = SECM_R_CRYPTO;
        if (kd_random(b, sizeof b) != 0)
            return NULL;
        x = &c->chunk[k][c->n_conn % SETUP_CONN_CHUNK];
        x->slot = c->n_conn++;
        gen = ((uint32_t)b[0] << 4) ^ b[1];   /* a random first generation */
    }
    uint32_t slot = x->slot;
    OPENSSL_cleanse(x, sizeof *x);
    memset(x, 0, sizeof *x);
    x->slot = slot;
    x->gen = gen & 0xFFFu;
    x->local_comm_id = comm_id_of(x);
    x->local_qpn = c->next_qpn++ & 0xFFFFFFu;
    c->last_new = slot;
    *why = SECM_OK;
    return x;
}

/* Close a record and queue it for reuse (once). */
static void conn_release(setup_ca *c, setup_conn *x)
{
    x->state = SETUP_ST_CLOSED;
    if (x->on_free)
        return;
    x->on_free = true;
    x->next_free = 0;
    if (c->free_tail != 0) {
        uint32_t t = c->free_tail - 1;
        c->chunk[t / SETUP_CONN_CHUNK][t % SETUP_CONN_CHUNK].next_free = x->slot + 1;
    } else {
        c->free_head = x->slot + 1;
    }
    c->free_tail = x->slot + 1;
    c->n_free++;
}

setup_conn *setup_find(setup_sim *s, unsigned ca, uint32_t local_comm_id)
{
    uint32_t idx = local_comm_id & SETUP_COMM_INDEX_MASK;
    setup_conn *x = idx == 0 ? NULL : setup_conn_at(s, ca, idx - 1);

    if (x == NULL || x->local_comm_id != local_comm_id)
        return NULL;
    return x;
}

static enum secm_reason count(setup_sim *s, unsigned ca, enum secm_reason r)
{
    s->ca[ca].count[r]++;
    return r;
}

/* A random 24-bit PSN: 0, or -1 if the RNG failed. */
static int random24(uint32_t *out)
{
    uint8_t b[3] = { 0, 0, 0 };
    if (kd_random(b, sizeof b) != 0)
        return -1;
    *out = ((uint32_t)b[0] << 16) | ((uint32_t)b[1] << 8) | b[2];
    return 0;
}

/* Replay cache of REQ nonces (per responder CA, last SETUP_REPLAY_CACHE). */
static bool replay_seen(const setup_ca *c, uint64_t guid, const uint8_t n[KD_NONCE_LEN])
{
    for (unsigned i = 0; i < c->replay_fill; i++)
        if (c->replay_guid[i] == guid && memcmp(c->replay_nonce[i], n, KD_NONCE_LEN) == 0)
            return true;
    return false;
}

static void replay_add(setup_ca *c, uint64_t guid, const uint8_t n[KD_NONCE_LEN])
{
    c->replay_guid[c->replay_next] = guid;
    memcpy(c->replay_nonce[c->replay_next], n, KD_NONCE_LEN);
    c->replay_next = (c->replay_next + 1) % SETUP_REPLAY_CACHE;
    if (c->replay_fill < SETUP_REPLAY_CACHE)
        c->replay_fill++;
}

/* ---- messages ----------------------------------------------------------------------- */

static void path_fill(struct ib_cm_path *p, const setup_ca *a, const setup_ca *b)
{
    memset(p, 0, sizeof *p);
    p->local_lid = a->lid;
    p->remote_lid = b->lid;
    p->local_gid[0] = 0xfe; p->local_gid[1] = 0x80;
    p->remote_gid[0] = 0xfe; p->remote_gid[1] = 0x80;
    for (int i = 0; i < 8; i++) {
        p->local_gid[8 + i] = (uint8_t)(a->keys.guid >> (56 - 8 * i));
        p->remote_gid[8 + i] = (uint8_t)(b->keys.guid >> (56 - 8 * i));
    }
    p->packet_rate = 3;         /* 10 Gb/s */
    p->subnet_local = 1;
    p->local_ack_timeout = 14;
}

/* The pair auth key of CA ca with the peer of connection c; -1 if none. */
static int conn_auth_key(const setup_sim *s, unsigned ca, const setup_conn *c,
                         uint8_t auth[KD_KEY_LEN])
{
    return pair_keys(&s->ca[ca], s->ca[c->peer].keys.guid, auth, NULL) == SECM_OK ? 0 : -1;
}

/* REJ for a message (IBA §12.6.7); our reason in the PrivateData, always tagged
 * (secm.h): the challenge is N_i for a REJ about a REQ (the REQ's tag verified, so N_i is
 * the initiator's), N_i || N_r for a REJ about a connection both sides hold.  Nothing is
 * sent to a CA we share no pair key with. */
static void send_rej(setup_sim *s, unsigned from, unsigned to, uint32_t local_id,
                     uint32_t remote_id, enum ib_cm_rej_msg which, enum secm_reason why,
                     const uint8_t *chal, size_t chal_len)
{
    struct ib_cm_msg m;
    uint8_t mad[IB_MAD_LEN], auth[KD_KEY_LEN];

    memset(&m, 0, sizeof m);
    ib_cm_hdr_init(&m.hdr, IB_CM_ATTR_REJ, ((uint64_t)from << 32) | local_id);
    m.u.rej.local_comm_id = local_id;
    m.u.rej.remote_comm_id = remote_id;
    m.u.rej.msg_rejected = (uint8_t)which;
    m.u.rej.reason = why == SECM_R_NO_RESOURCES ? IB_CM_REJ_NO_RESOURCES
                   : why == SECM_R_TIMEOUT      ? IB_CM_REJ_TIMEOUT
                                                : IB_CM_REJ_CONSUMER;
    secm_rej_put_auth(why, m.pdata);
    m.pdata_len = SECM_REJ_AUTH_LEN;
    if (ib_cm_encode(&m, mad) != IB_CM_OK || pair_keys(&s->ca[from], s->ca[to].keys.guid, auth, NULL) != SECM_OK)
        return;
    int rc = secm_tag_put(auth, SECM_L_REJ, s->ca[to].keys.guid, chal, chal_len, mad);
    OPENSSL_cleanse(auth, sizeof auth);
    if (rc == 0)                       /* never a REJ with a tag we could not compute */
        send_mad(from, to, mad);
}

/* send_rej about connection c: challenge N_i || N_r, or N_i alone if n_r_known is false. */
static void send_rej_conn(setup_sim *s, unsigned from, const setup_conn *c, enum ib_cm_rej_msg which,
                          enum secm_reason why, bool n_r_known)
{
    uint8_t chal[2 * KD_NONCE_LEN];

    memcpy(chal, c->n_i, KD_NONCE_LEN);
    memcpy(chal + KD_NONCE_LEN, c->n_r, KD_NONCE_LEN);
    send_rej(s, from, c->peer, c->local_comm_id, c->remote_comm_id, which, why, chal,
             n_r_known ? sizeof chal : KD_NONCE_LEN);
}

/* An RTU, DREQ or DREP: comm IDs, short block, tag over N_i || N_r.  SECM_OK, or the
 * reason it could not be made (nothing sent). */
static enum secm_reason send_short(setup_sim *s, unsigned from, const setup_conn *c, uint16_t attr,
                                   enum secm_label l)
{
    struct ib_cm_msg m;
    uint8_t mad[IB_MAD_LEN], auth[KD_KEY_LEN], chal[2 * KD_NONCE_LEN];
    uint64_t peer_guid = s->ca[c->peer].keys.guid;

    memset(&m, 0, sizeof m);
    ib_cm_hdr_init(&m.hdr, attr, ((uint64_t)from << 32) | c->local_comm_id);
    if (attr == IB_CM_ATTR_DREQ) {
        m.u.dreq.local_comm_id = c->local_comm_id;
        m.u.dreq.remote_comm_id = c->remote_comm_id;
        m.u.dreq.remote_qpn = c->remote_qpn;
    } else {
        m.u.rtu.local_comm_id = c->local_comm_id;   /* rtu and drep share the layout */
        m.u.rtu.remote_comm_id = c->remote_comm_id;
    }
    secm_short_put(m.pdata);
    m.pdata_len = SECM_SHORT_LEN;
    if (ib_cm_encode(&m, mad) != IB_CM_OK)
        return SECM_R_LOCAL;
    enum secm_reason r = pair_keys(&s->ca[from], peer_guid, auth, NULL);
    if (r != SECM_OK)
        return r;
    memcpy(chal, c->n_i, KD_NONCE_LEN);
    memcpy(chal + KD_NONCE_LEN, c->n_r, KD_NONCE_LEN);
    int rc = secm_tag_put(auth, l, peer_guid, chal, sizeof chal, mad);
    OPENSSL_cleanse(auth, sizeof auth);
    if (rc != 0)
        return SECM_R_CRYPTO;
    send_mad(from, c->peer, mad);
    return SECM_OK;
}

/* Program this side's engines for an agreed connection (ibsec_drv.h). */
static enum secm_reason program(setup_ca *ca, setup_conn *c)
{
    ibsec_drv_conn_cfg cfg;
    enum ibsec_drv_err e;

    memset(&cfg, 0, sizeof cfg);
    cfg.mode = c->mode;
    cfg.sth_code = c->sth_code;
    cfg.key_len = c->aes256 ? 32 : 16;
    memcpy(cfg.key, c->sk, cfg.key_len);
    kd_conn_salt(c->r, cfg.salt);
    cfg.dir = c->initiator ? 0 : 1;
    cfg.local_qpn = c->local_qpn;
    cfg.remote_qpn = c->remote_qpn;
    cfg.tx_epsn = c->local_psn;
    cfg.rx_epsn = c->remote_psn;
    cfg.alert_threshold = IBSEC_ALERT_DEFAULT;
    e = ibsec_drv_conn_program(&ca->seal, &ca->open, &cfg, &c->drv);
    OPENSSL_cleanse(&cfg, sizeof cfg);
    /* the engines hold the session key now (or the setup fails): no copy stays here */
    OPENSSL_cleanse(c->sk, sizeof c->sk);
    if (e == DRV_OK)
        return SECM_OK;
    return (e == DRV_ERR_NO_KEY_SLOT || e == DRV_ERR_NO_CTX_SLOT) ? SECM_R_NO_RESOURCES
                                                                   : SECM_R_DRIVER;
}

/* Engine room for a setup in progress (setup_ca.reserved); false if there is none. */
static bool reserve(setup_ca *ca, setup_conn *c)
{
    if (ibsec_drv_free_conns(&ca->seal, &ca->open) <= ca->reserved)
        return false;
    ca->reserved++;
    c->reserved = true;
    if (!c->initiator)
        ca->pending_from[c->peer]++;
    return true;
}

static void unreserve(setup_ca *ca, setup_conn *c)
{
    if (c->reserved) {
        ca->reserved--;
        c->reserved = false;
        if (!c->initiator)
            ca->pending_from[c->peer]--;
    }
}

/* Close a connection: release its reservation, clear its engine entries, wipe SK and R.
 * SECM_OK, or SECM_R_DRIVER if an engine refused or never finished a clear: the driver
 * keeps those slots in quarantine (ibsec_drv.h), and the failure is counted here
 * (count[driver], drv_quarantine_events) and returned. */
static enum secm_reason teardown(setup_ca *ca, setup_conn *c)
{
    enum secm_reason r = SECM_OK;

    unreserve(ca, c);
    if (c->drv.live && ibsec_drv_conn_teardown(&ca->seal, &ca->open, &c->drv) != DRV_OK) {
        r = SECM_R_DRIVER;
        ca->count[SECM_R_DRIVER]++;
        ca->drv_quarantine_events++;
    }
    OPENSSL_cleanse(c->sk, sizeof c->sk);
    OPENSSL_cleanse(c->r, sizeof c->r);
    conn_release(ca, c);
    return r;
}

/* ---- initiator: REQ --------------------------------------------------------------- */

/* The REQ fields of a connection (IBA Table 99): an RC request on the primary path. */
static void req_fill(struct ib_cm_req *q, const setup_ca *ca, const setup_ca *peer,
                     const setup_conn *c)
{
    memset(q, 0, sizeof *q);
    q->local_comm_id = c->local_comm_id;
    q->service_id = SETUP_SERVICE_ID;
    q->local_ca_guid = ca->keys.guid;
    q->local_qpn = c->local_qpn;
    q->responder_resources = 4;
    q->initiator_depth = 4;
    q->remote_cm_timeout = 20;         /* 4.096 us x 2^20, about 4.3 s */
    q->transport_type = IB_CM_TST_RC;
    q->starting_psn = c->local_psn;
    q->local_cm_timeout = 20;
    q->retry_count = 7;
    q->pkey = c->pkey;
    q->path_mtu = 4;                   /* 2048 bytes */
    q->rnr_retry_count = 7;
    q->max_cm_retries = 15;
    path_fill(&q->primary, ca, peer);
}

static int connect_now(setup_sim *s, const setup_request *r, uint32_t app_tag)
{
    setup_ca *ca = &s->ca[r->ini], *peer = &s->ca[r->rsp];
    uint8_t auth[KD_KEY_LEN], wrap[KD_KEY_LEN], mad[IB_MAD_LEN];
    struct secm_keyx kx;
    struct ib_cm_msg m;
    setup_conn *c = NULL;
    size_t klen = r->aes256 ? 32 : 16;
    int rc = -1;

    enum secm_reason why = SECM_OK;
    if (pair_keys(ca, peer->keys.guid, auth, wrap) != SECM_OK)
        goto done;
    if ((c = conn_new(ca, &why)) == NULL) {
        if (why == SECM_R_CRYPTO || why == SECM_R_LOCAL)
            count(s, r->ini, why);
        goto done;
    }
    c->state = SETUP_ST_CLOSED;        /* until the REQ is on its way */
    c->initiator = true;
    c->peer = r->rsp;
    c->pkey = r->pkey;
    c->mode = r->mode;
    c->sth_code = r->sth_code;
    c->aes256 = r->aes256;
    c->app_tag = app_tag;
    c->t_request = s->now_ns;
    if (!reserve(ca, c)) {
        c->end_reason = SECM_R_NO_RESOURCES;
        goto done;
    }
    memset(&kx, 0, sizeof kx);
    c->end_reason = SECM_R_CRYPTO;
    if (random24(&c->local_psn) != 0 || kd_random(c->n_i, KD_NONCE_LEN) != 0 ||
        kd_random(c->sk, klen) != 0 || kd_key_wrap(wrap, c->sk, klen, kx.wrapped) != KD_OK)
        goto done;
    kx.mode = r->mode;
    kx.sth_code = r->sth_code;
    kx.aes256 = r->aes256;
    memcpy(kx.nonce, c->n_i, KD_NONCE_LEN);
    memset(&m, 0, sizeof m);
    /* TransactionID: the pair's REQ counter (under the tag), refused by the responder
     * unless higher than any it accepted from us: a replay older than its cache */
    ib_cm_hdr_init(&m.hdr, IB_CM_ATTR_REQ, ++ca->req_ctr_out[r->rsp]);
    req_fill(&m.u.req, ca, peer, c);
    secm_keyx_put(&kx, m.pdata);
    m.pdata_len = SECM_KEYX_LEN;
    c->end_reason = SECM_R_LOCAL;
    if (ib_cm_encode(&m, mad) != IB_CM_OK)
        goto done;
    c->end_reason = SECM_R_CRYPTO;
    if (secm_tag_put(auth, SECM_L_REQ, peer->keys.guid, NULL, 0, mad) != 0)
        goto done;
    c->state = SETUP_ST_REQ_SENT;
    c->end_reason = SECM_R_LOCAL;
    if (timer_arm(s, r->ini, c) != 0) {
        c->state = SETUP_ST_CLOSED;
        goto done;
    }
    c->end_reason = SECM_OK;
    s->in_flight++;
    send_mad(r->ini, r->rsp, mad);
    rc = (int)((c->local_comm_id & SETUP_COMM_INDEX_MASK) - 1);
done:
    OPENSSL_cleanse(auth, sizeof auth);
    OPENSSL_cleanse(wrap, sizeof wrap);
    if (rc < 0 && c != NULL) {
        unreserve(ca, c);
        OPENSSL_cleanse(c->sk, sizeof c->sk);
        conn_release(ca, c);
        if (c->end_reason == SECM_R_CRYPTO || c->end_reason == SECM_R_LOCAL)
            count(s, r->ini, c->end_reason);   /* why the setup was aborted */
    }
    return rc;
}

int setup_connect(setup_sim *s, const setup_request *r, uint32_t app_tag)
{
    uint64_t start = handler_start(s, r->ini, s->now_ns), t0 = cpu_ns();
    int rc = connect_now(s, r, app_tag);
    handler_end(s, r->ini, start, cpu_ns() - t0, 0);
    return rc;
}

/* ---- responder: REQ -> REP -------------------------------------------------------- */

/* The REP of an accepted REQ (IBA Table 103) with the responder's key-exchange block
 * (N_r, no wrapped key for RC), tag zero. */
static int rep_make(const setup_ca *ca, const setup_conn *c, const struct ib_cm_req *q,
                    uint64_t tid, uint8_t out[IB_MAD_LEN])
{
    struct secm_keyx rx;
    struct ib_cm_msg rep;

    memset(&rx, 0, sizeof rx);
    rx.mode = c->mode;
    rx.sth_code = c->sth_code;
    rx.aes256 = c->aes256;
    memcpy(rx.nonce, c->n_r, KD_NONCE_LEN);
    memset(&rep, 0, sizeof rep);
    ib_cm_hdr_init(&rep.hdr, IB_CM_ATTR_REP, tid);
    rep.u.rep.local_comm_id = c->local_comm_id;
    rep.u.rep.remote_comm_id = c->remote_comm_id;
    rep.u.rep.local_qpn = c->local_qpn;
    rep.u.rep.starting_psn = c->local_psn;
    rep.u.rep.responder_resources = q->initiator_depth;
    rep.u.rep.initiator_depth = q->responder_resources;
    rep.u.rep.target_ack_delay = 15;
    rep.u.rep.rnr_retry_count = 7;
    rep.u.rep.local_ca_guid = ca->keys.guid;
    secm_keyx_put(&rx, rep.pdata);
    rep.pdata_len = SECM_KEYX_LEN;
    return ib_cm_encode(&rep, out) == IB_CM_OK ? 0 : -1;
}

static enum secm_reason on_req(setup_sim *s, unsigned me, const struct ib_cm_msg *m,
                               const uint8_t *mad)
{
    setup_ca *ca = &s->ca[me];
    const struct ib_cm_req *q = &m->u.req;
    uint8_t auth[KD_KEY_LEN], wrap[KD_KEY_LEN], out[IB_MAD_LEN];
    struct secm_keyx kx;
    enum secm_reason r;
    setup_conn *c;
    int peer = ca_of_guid(s, q->local_ca_guid);
    size_t klen;

    /* nothing is answered before the tag verifies: a REQ naming any Local CA GUID could
     * otherwise make us send REJs to that CA */
    if (peer < 0 || (unsigned)peer == me)
        return SECM_R_UNKNOWN_PEER;  /* no way to answer a CA we cannot name */
    if ((r = pair_keys(ca, q->local_ca_guid, auth, wrap)) != SECM_OK)
        return r;
    if ((r = secm_tag_check(auth, SECM_L_REQ, ca->keys.guid, NULL, 0, mad)) != SECM_OK) {
        OPENSSL_cleanse(auth, sizeof auth);
        OPENSSL_cleanse(wrap, sizeof wrap);
        return r;                    /* bad_mac (or crypto_failed): counted and dropped */
    }
    if ((r = secm_keyx_get(m->pdata, m->pdata_len, &kx)) != SECM_OK) {
        /* the REQ is authentic but its block is not ours: N_i is where it would be */
        memcpy(kx.nonce, m->pdata + SECM_OFF_NONCE, KD_NONCE_LEN);
        goto refuse;
    }
    if (m->hdr.tid <= ca->req_ctr_in[peer] || replay_seen(ca, q->local_ca_guid, kx.nonce)) {
        r = SECM_R_REPLAY;
        goto refuse;
    }
    ca->req_ctr_in[peer] = m->hdr.tid;
    replay_add(ca, q->local_ca_guid, kx.nonce);
    /* one peer holds at most SETUP_PEER_PENDING setups here, so one peer's REQs (fresh
     * or replayed) cannot take all the engine room */
    if (ca->pending_from[peer] >= SETUP_PEER_PENDING) {
        r = SECM_R_NO_RESOURCES;
        goto refuse;
    }
    if ((c = conn_new(ca, &r)) == NULL)
        goto refuse;
    c->peer = (unsigned)peer;
    if (!reserve(ca, c)) {
        c->end_reason = r = SECM_R_NO_RESOURCES;
        conn_release(ca, c);
        goto refuse;
    }
    klen = kx.aes256 ? 32 : 16;
    if (kd_key_unwrap(wrap, kx.wrapped, klen, c->sk) != KD_OK ||
        memcmp(kx.wrapped + klen + KD_KW_OVERHEAD, (const uint8_t[SECM_WRAPPED_LEN]){ 0 },
               SECM_WRAPPED_LEN - klen - KD_KW_OVERHEAD) != 0) {
        unreserve(ca, c);
        OPENSSL_cleanse(c->sk, sizeof c->sk);
        conn_release(ca, c);
        c->end_reason = SECM_R_KEY_UNWRAP;
        r = SECM_R_KEY_UNWRAP;
        goto refuse;
    }
    c->initiator = false;
    c->peer = (unsigned)peer;
    c->remote_comm_id = q->local_comm_id;
    c->remote_qpn = q->local_qpn;
    c->remote_psn = q->starting_psn;
    c->pkey = q->pkey;
    c->mode = kx.mode;
    c->sth_code = kx.sth_code;
    c->aes256 = kx.aes256;
    memcpy(c->n_i, kx.nonce, KD_NONCE_LEN);
    c->t_request = s->now_ns;
    /* every step that can fail here aborts the setup with its reason */
    r = SECM_R_CRYPTO;
    if (random24(&c->local_psn) != 0 || kd_random(c->n_r, KD_NONCE_LEN) != 0 ||
        kd_agreed_random(auth, c->n_i, c->n_r, c->r) != 0)
        goto abort;
    r = SECM_R_LOCAL;
    if (rep_make(ca, c, q, m->hdr.tid, out) != 0)
        goto abort;
    r = SECM_R_CRYPTO;
    if (secm_tag_put(auth, SECM_L_REP, q->local_ca_guid, c->n_i, KD_NONCE_LEN, out) != 0)
        goto abort;
    c->state = SETUP_ST_REP_SENT;
    r = SECM_R_LOCAL;
    if (timer_arm(s, me, c) != 0)
        goto abort;
    send_mad(me, c->peer, out);
    OPENSSL_cleanse(auth, sizeof auth);
    OPENSSL_cleanse(wrap, sizeof wrap);
    return SECM_OK;
abort:
    c->end_reason = r;
    teardown(ca, c);                 /* releases the reservation, wipes SK and R */
refuse:
    OPENSSL_cleanse(auth, sizeof auth);
    OPENSSL_cleanse(wrap, sizeof wrap);
    send_rej(s, me, (unsigned)peer, 0, q->local_comm_id, IB_CM_REJ_MSG_REQ, r, kx.nonce,
             KD_NONCE_LEN);
    return r;
}

/* ---- initiator: REP -> program, RTU ----------------------------------------------- */

static enum secm_reason on_rep(setup_sim *s, unsigned me, const struct ib_cm_msg *m,
                               const uint8_t *mad)
{
    setup_ca *ca = &s->ca[me];
    const struct ib_cm_rep *p = &m->u.rep;
    setup_conn *c = setup_find(s, me, p->remote_comm_id);
    uint8_t auth[KD_KEY_LEN];
    struct secm_keyx kx;
    enum secm_reason r;

    if ((r = secm_keyx_get(m->pdata, m->pdata_len, &kx)) != SECM_OK)
        return r;
    if (c == NULL || !c->initiator || c->state != SETUP_ST_REQ_SENT ||
        s->ca[c->peer].keys.guid != p->local_ca_guid)
        return SECM_R_UNSOLICITED;      /* no REJ: we would answer an attacker */
    if ((r = pair_keys(ca, p->local_ca_guid, auth, NULL)) != SECM_OK)
        return r;
    if ((r = secm_tag_check(auth, SECM_L_REP, ca->keys.guid, c->n_i, KD_NONCE_LEN, mad)) != SECM_OK) {
        OPENSSL_cleanse(auth, sizeof auth);
        return r;                        /* a forgery must not end the real request */
    }
    s->in_flight--;
    c->remote_comm_id = p->local_comm_id;
    c->remote_qpn = p->local_qpn;
    c->remote_psn = p->starting_psn;
    memcpy(c->n_r, kx.nonce, KD_NONCE_LEN);
    if (kx.mode != c->mode || kx.sth_code != c->sth_code || kx.aes256 != c->aes256) {
        r = SECM_R_BAD_PDATA;
        goto fail;
    }
    if (kd_agreed_random(auth, c->n_i, c->n_r, c->r) != 0) {
        r = SECM_R_CRYPTO;
        goto fail;
    }
    OPENSSL_cleanse(auth, sizeof auth);
    unreserve(ca, c);
    if ((r = program(ca, c)) != SECM_OK)
        goto fail;
    c->state = SETUP_ST_ESTABLISHED;
    c->t_established = s->now_ns;
    if ((r = send_short(s, me, c, IB_CM_ATTR_RTU, SECM_L_RTU)) != SECM_OK)
        goto fail;                       /* no RTU: the responder would never program */
    return SECM_OK;
fail:
    OPENSSL_cleanse(auth, sizeof auth);
    send_rej_conn(s, me, c, IB_CM_REJ_MSG_REP, r, true);
    c->end_reason = r;
    teardown(ca, c);
    s->failed++;
    return r;
}

/* The short-block checks shared by RTU, DREQ and DREP: the connection in `want`
 * state whose comm IDs match, and a tag over N_i || N_r. */
static enum secm_reason short_check(setup_sim *s, unsigned me, const struct ib_cm_msg *m,
                                    const uint8_t *mad, uint32_t local_id, uint32_t remote_id,
                                    enum setup_state want, enum secm_label l, setup_conn **out)
{
    setup_conn *c = setup_find(s, me, local_id);
    uint8_t auth[KD_KEY_LEN], chal[2 * KD_NONCE_LEN];
    enum secm_reason r;

    if ((r = secm_short_get(m->pdata, m->pdata_len)) != SECM_OK)
        return r;
    /* a DREQ also ends a connection whose own DREQ is out (the two crossed) */
    if (c == NULL || c->remote_comm_id != remote_id ||
        (c->state != want && !(l == SECM_L_DREQ && c->state == SETUP_ST_DREQ_SENT)))
        return SECM_R_UNKNOWN_CONN;
    if ((r = pair_keys(&s->ca[me], s->ca[c->peer].keys.guid, auth, NULL)) != SECM_OK)
        return r;
    memcpy(chal, c->n_i, KD_NONCE_LEN);
    memcpy(chal + KD_NONCE_LEN, c->n_r, KD_NONCE_LEN);
    r = secm_tag_check(auth, l, s->ca[me].keys.guid, chal, sizeof chal, mad);
    OPENSSL_cleanse(auth, sizeof auth);
    if (r != SECM_OK)
        return r;
    *out = c;
    return SECM_OK;
}

/* Set by on_rtu, run by the caller after the handler's time is accounted. */
static setup_conn *g_hook_conn;
static unsigned    g_hook_ca;

static enum secm_reason on_rtu(setup_sim *s, unsigned me, const struct ib_cm_msg *m,
                               const uint8_t *mad)
{
    setup_conn *c = NULL;
    enum secm_reason r = short_check(s, me, m, mad, m->u.rtu.remote_comm_id,
                                     m->u.rtu.local_comm_id, SETUP_ST_REP_SENT, SECM_L_RTU, &c);
    if (r != SECM_OK)
        return r;
    unreserve(&s->ca[me], c);
    if ((r = program(&s->ca[me], c)) != SECM_OK) {
        c->end_reason = r;
        send_rej_conn(s, me, c, IB_CM_REJ_MSG_OTHER, r, true);
        teardown(&s->ca[me], c);
        s->failed++;
        return r;
    }
    c->state = SETUP_ST_ESTABLISHED;
    c->t_established = s->now_ns;
    g_hook_conn = c;
    g_hook_ca = me;
    return SECM_OK;
}

static enum secm_reason on_dreq(setup_sim *s, unsigned me, const struct ib_cm_msg *m,
                                const uint8_t *mad)
{
    setup_conn *c = NULL;
    enum secm_reason r = short_check(s, me, m, mad, m->u.dreq.remote_comm_id,
                                     m->u.dreq.local_comm_id, SETUP_ST_ESTABLISHED,
                                     SECM_L_DREQ, &c);
    if (r != SECM_OK)
        return r;
    if (m->u.dreq.remote_qpn != c->local_qpn)
        return SECM_R_UNKNOWN_CONN;
    /* DREQs crossed: both sides answer and tear down; the connection counts once */
    if (c->state == SETUP_ST_DREQ_SENT && c->initiator)
        s->torn_down++;
    enum secm_reason td = teardown(&s->ca[me], c);
    /* torn down either way; without a DREP the peer's deadline ends its side */
    r = send_short(s, me, c, IB_CM_ATTR_DREP, SECM_L_DREP);
    return td != SECM_OK ? td : r;
}

static enum secm_reason on_drep(setup_sim *s, unsigned me, const struct ib_cm_msg *m,
                                const uint8_t *mad)
{
    setup_conn *c = NULL;
    enum secm_reason r = short_check(s, me, m, mad, m->u.drep.remote_comm_id,
                                     m->u.drep.local_comm_id, SETUP_ST_DREQ_SENT,
                                     SECM_L_DREP, &c);
    if (r != SECM_OK)
        return r;
    s->torn_down++;
    return teardown(&s->ca[me], c);
}

static int retry_push(setup_sim *s, unsigned tag)
{
    if (s->n_retry == s->cap_retry) {
        unsigned cap = s->cap_retry ? 2 * s->cap_retry : 64;
        unsigned *r = realloc(s->retry, cap * sizeof *r);
        if (r == NULL)
            return -1;
        s->retry = r;
        s->cap_retry = cap;
    }
    s->retry[s->n_retry++] = tag;
    return 0;
}

/* Whether a REJ's tag verifies over the challenge N_i (chal_len 16) or N_i || N_r (32). */
static bool rej_tag_ok(setup_sim *s, unsigned me, const setup_conn *c, const uint8_t *mad,
                       size_t chal_len)
{
    uint8_t auth[KD_KEY_LEN], chal[2 * KD_NONCE_LEN];
    bool ok;

    if (conn_auth_key(s, me, c, auth) != 0)
        return false;
    memcpy(chal, c->n_i, KD_NONCE_LEN);
    memcpy(chal + KD_NONCE_LEN, c->n_r, KD_NONCE_LEN);
    ok = secm_tag_ok(auth, SECM_L_REJ, s->ca[me].keys.guid, chal, chal_len, mad);
    OPENSSL_cleanse(auth, sizeof auth);
    return ok;
}

/* REJ (secm.h): only a tagged one that verifies is believed.  A waiting initiator
 * (REQ_SENT) takes one tagged over N_i (the responder refused the REQ); a responder
 * waiting for the RTU (REP_SENT) one over N_i (the initiator's deadline) or N_i || N_r; an
 * initiator that has programmed its engines one over N_i || N_r (the RTU was lost, or the
 * responder could not program).  Anything else is dropped: the deadlines cover it. */
static enum secm_reason on_rej(setup_sim *s, unsigned me, const struct ib_cm_msg *m,
                               const uint8_t *mad)
{
    setup_conn *c = setup_find(s, me, m->u.rej.remote_comm_id);
    bool tagged, ok = false;

    if (c == NULL)
        return SECM_R_UNSOLICITED;
    if (c->state != SETUP_ST_REQ_SENT && c->state != SETUP_ST_REP_SENT &&
        !(c->state == SETUP_ST_ESTABLISHED && c->initiator))
        return SECM_R_UNSOLICITED;
    if (c->state != SETUP_ST_REQ_SENT && m->u.rej.local_comm_id != c->remote_comm_id)
        return SECM_R_UNSOLICITED;
    tagged = secm_rej_has_tag(m->pdata, m->pdata_len);
    if (tagged && c->state != SETUP_ST_ESTABLISHED)
        ok = rej_tag_ok(s, me, c, mad, KD_NONCE_LEN);
    if (tagged && !ok && c->state != SETUP_ST_REQ_SENT)
        ok = rej_tag_ok(s, me, c, mad, 2 * KD_NONCE_LEN);
    if (!ok)
        return SECM_R_BAD_MAC;
    bool was_request = c->state == SETUP_ST_REQ_SENT;
    if (was_request)
        s->in_flight--;
    c->end_reason = secm_rej_get(m->pdata, m->pdata_len);
    teardown(&s->ca[me], c);
    /* a request the responder had no room for goes again once the loop finds room */
    if (was_request && c->end_reason == SECM_R_NO_RESOURCES && s->req != NULL &&
        c->app_tag < s->n_req && retry_push(s, c->app_tag) == 0) {
        s->retried++;
        return SECM_R_REJECTED;
    }
    s->failed++;
    return SECM_R_REJECTED;
}

static enum secm_reason dispatch(setup_sim *s, unsigned to, const uint8_t *mad, size_t len)
{
    struct ib_cm_msg m;
    enum ib_cm_err e = ib_cm_parse(mad, len, &m);

    if (e != IB_CM_OK)
        return secm_reason_from_cm_err(e);
    switch (m.hdr.attr_id) {
    case IB_CM_ATTR_REQ:  return on_req(s, to, &m, mad);
    case IB_CM_ATTR_REP:  return on_rep(s, to, &m, mad);
    case IB_CM_ATTR_RTU:  return on_rtu(s, to, &m, mad);
    case IB_CM_ATTR_DREQ: return on_dreq(s, to, &m, mad);
    case IB_CM_ATTR_DREP: return on_drep(s, to, &m, mad);
    default:              return on_rej(s, to, &m, mad);
    }
}

/* One delivery at time t: CPU accounting, counting, then the established hook. */
static enum secm_reason deliver_at(setup_sim *s, unsigned to, const uint8_t *mad, size_t len,
                                   uint64_t t)
{
    uint64_t start = handler_start(s, to, t), t0;
    enum secm_reason r;

    s->now_ns = start;
    g_hook_conn = NULL;
    t0 = cpu_ns();
    r = dispatch(s, to, mad, len);
    handler_end(s, to, start, cpu_ns() - t0, len >= 18 ? (unsigned)((mad[16] << 8) | mad[17]) : 0x1F);
    count(s, to, r);
    if (g_hook_conn != NULL) {
        setup_conn *cr = g_hook_conn, *ci = setup_find(s, cr->peer, cr->remote_comm_id);
        unsigned rsp = g_hook_ca, ini = cr->peer;
        uint32_t ci_id = cr->remote_comm_id;
        g_hook_conn = NULL;
        s->established++;
        s->t_last_established = s->ca[rsp].cpu_free_ns;
        if (s->on_established != NULL && ci != NULL)
            s->on_established(s, ini, ci, rsp, cr, s->hook_arg);
        /* the hook may have set up or torn down connections: look the record up again */
        ci = setup_find(s, ini, ci_id);
        if (s->auto_teardown && ci != NULL && ci->state == SETUP_ST_ESTABLISHED)
            setup_disconnect(s, ini, ci);
    }
    return r;
}

enum secm_reason setup_deliver(setup_sim *s, unsigned to, const uint8_t *mad, size_t len)
{
    return deliver_at(s, to, mad, len, s->now_ns);
}

int setup_disconnect(setup_sim *s, unsigned ca, setup_conn *c)
{
    uint64_t start, t0;

    if (c->state != SETUP_ST_ESTABLISHED)
        return -1;
    start = handler_start(s, ca, s->now_ns);
    t0 = cpu_ns();
    c->state = SETUP_ST_DREQ_SENT;
    /* IBA TimeWait: if no DREP (or crossing DREQ) comes by the deadline, tear down anyway;
     * if the DREQ cannot be made or the deadline armed, tear down now */
    enum secm_reason r = send_short(s, ca, c, IB_CM_ATTR_DREQ, SECM_L_DREQ);
    if (r == SECM_OK && timer_arm(s, ca, c) != 0)
        r = SECM_R_LOCAL;
    if (r != SECM_OK) {
        c->end_reason = r;
        teardown(&s->ca[ca], c);
        s->torn_down++;
        count(s, ca, r);
    }
    handler_end(s, ca, start, cpu_ns() - t0, 1);
    return 0;
}

/* ---- deadlines --------------------------------------------------------------------- */

/* States a deadline ends: waiting for a REP, an RTU or a DREP. */
static bool timed_state(enum setup_state st)
{
    return st == SETUP_ST_REQ_SENT || st == SETUP_ST_REP_SENT || st == SETUP_ST_DREQ_SENT;
}

static void expire_one(setup_sim *s, const setup_timer *t)
{
    setup_conn *c = setup_find(s, t->ca, t->local_comm_id);
    uint64_t start, t0;

    if (c == NULL || !timed_state(c->state) || c->state != t->state)
        return;
    start = handler_start(s, t->ca, t->deadline);
    t0 = cpu_ns();
    if (c->state == SETUP_ST_DREQ_SENT) {
        /* no DREP: the peer is gone or the DREQ was lost; nothing to tell it */
        c->end_reason = SECM_R_TIMEOUT;
        teardown(&s->ca[t->ca], c);
        s->torn_down++;
        count(s, t->ca, SECM_R_TIMEOUT);
        handler_end(s, t->ca, start, cpu_ns() - t0, 2);
        return;
    }
    if (c->state == SETUP_ST_REQ_SENT)
        s->in_flight--;
    /* no REP came: tagged over N_i (the responder may hold a setup for it); no RTU came:
     * tagged over N_i || N_r (the initiator may have programmed its engines) */
    send_rej_conn(s, t->ca, c, c->state == SETUP_ST_REQ_SENT ? IB_CM_REJ_MSG_OTHER : IB_CM_REJ_MSG_REP,
                  SECM_R_TIMEOUT, c->state == SETUP_ST_REP_SENT);
    c->end_reason = SECM_R_TIMEOUT;
    teardown(&s->ca[t->ca], c);
    s->failed++;
    count(s, t->ca, SECM_R_TIMEOUT);
    handler_end(s, t->ca, start, cpu_ns() - t0, 2);
}

unsigned setup_expire(setup_sim *s, uint64_t t)
{
    unsigned n = 0;

    while (s->tq_len > 0 && s->tq[s->tq_head].deadline <= t) {
        setup_timer tm = s->tq[s->tq_head];
        s->tq_head++;
        s->tq_len--;
        setup_conn *c = setup_find(s, tm.ca, tm.local_comm_id);
        if (c != NULL && timed_state(c->state) && c->state == tm.state) {
            expire_one(s, &tm);
            n++;
        }
    }
    if (s->tq_len == 0)
        s->tq_head = 0;
    return n;
}

/* ---- event loop (SECM §4.1) ------------------------------------------------------- */

/* Room for one more connection in CA ca's engines, beyond the setups it has reserved for. */
static bool has_room(const setup_sim *s, unsigned ca)
{
    return ibsec_drv_free_conns(&s->ca[ca].seal, &s->ca[ca].open) > s->ca[ca].reserved;
}

/* The next request to issue: a retry first, then the next new one; -1 if none can go now
 * (none left, or its initiator has no engine room until a connection is torn down). */
static int next_request(setup_sim *s)
{
    unsigned tag;

    if (s->n_retry > 0)
        tag = s->retry[0];
    else if (s->next_req < s->n_req)
        tag = s->next_req;
    else
        return -1;
    if (!has_room(s, s->req[tag].ini))
        return -1;
    if (s->n_retry > 0)
        memmove(s->retry, s->retry + 1, --s->n_retry * sizeof *s->retry);
    else
        s->next_req++;
    return (int)tag;
}

void setup_run(setup_sim *s, const setup_request *req, unsigned n, unsigned window)
{
    setup_msg m;
    int tag;

    s->req = req;
    s->n_req = n;
    s->next_req = 0;
    s->n_retry = 0;
    s->window = window ? window : 1;
    for (;;) {
        while (s->in_flight < s->window && (tag = next_request(s)) >= 0)
            if (setup_connect(s, &s->req[tag], (uint32_t)tag) < 0)
                s->failed++;
        /* deadlines that pass before the next message (or with none left) fire first */
        if (s->tq_len > 0 && (s->q_len == 0 || s->tq[s->tq_head].deadline < s->q[0].t)) {
            setup_expire(s, s->tq[s->tq_head].deadline);
            continue;
        }
        if (!setup_next_msg(s, &m)) {
            /* nothing left to happen: requests still waiting can never find room */
            s->failed += s->n_retry + (s->n_req - s->next_req);
            s->n_retry = 0;
            s->next_req = s->n_req;
            break;
        }
        if (m.t > s->now_ns)
            s->now_ns = m.t;
        deliver_at(s, m.to, m.mad, m.len, m.t);
        if (s->now_ns > s->t_last_closed)
            s->t_last_closed = s->now_ns;
    }
    s->req = NULL;
}

/* ---- traffic ---------------------------------------------------------------------- */

#define RC_SEND_ONLY 0x04u  /* IBA Table 35 */

int setup_build_plain(setup_sim *s, unsigned from, const setup_conn *c, uint32_t psn,
                      size_t payload_len, uint8_t *buf, size_t cap, size_t *len)
{
    uint8_t payload[IBSEC_MAX_PAYLOAD];
    struct ibsec_pkt_desc d;

    if (payload_len > sizeof payload)
        return -1;
    for (size_t i = 0; i < payload_len; i++)
        payload[i] = (uint8_t)(psn * 31u + i * 7u);
    memset(&d, 0, sizeof d);
    d.shape = IBSEC_SHAPE_IB_LOCAL;
    d.lrh.slid = s->ca[from].lid;
    d.lrh.dlid = s->ca[c->peer].lid;
    d.bth.opcode = RC_SEND_ONLY;
    d.bth.pkey = (uint16_t)(c->pkey | 0x8000u);
    d.bth.destqp = c->remote_qpn;
    d.bth.psn = psn & 0xFFFFFFu;
    d.payload = payload;
    d.payload_len = payload_len;
    return ibsec_pkt_build(&d, buf, cap, len, NULL) == IBSEC_PKT_OK ? 0 : -1;
}

enum ibsec_reason setup_send_one(setup_sim *s, unsigned from, setup_conn *c, uint32_t psn,
                                 size_t payload_len, setup_traffic_stats *st)
{
    static uint8_t plain[IBSEC_MAX_PKT], wire[IBSEC_MAX_PKT], back[IBSEC_MAX_PKT];
    setup_ca *src = &s->ca[from], *dst = &s->ca[c->peer];
    size_t plen = 0, wlen = 0, blen = 0;
    enum ibsec_reason r;

    if (setup_build_plain(s, from, c, psn, payload_len, plain, sizeof plain, &plen) != 0)
        return IBSEC_R_NOSPACE;
    r = ibsec_seal(&src->seal_e, IBSEC_LINK_IB, plain, plen, wire, sizeof wire, &wlen, NULL);
    if (r != IBSEC_R_OK) {
        st->refused++;
        st->last_reason = r;
        return r;
    }
    st->sealed++;
    r = ibsec_open(&dst->open_e, IBSEC_LINK_IB, wire, wlen, back, sizeof back, &blen, NULL);
    if (r != IBSEC_R_OK) {
        st->refused++;
        st->last_reason = r;
        return r;
    }
    st->opened++;
    if (blen != plen || memcmp(back, plain, plen) != 0)
        st->mismatched++;
    return r;
}

void setup_traffic(setup_sim *s, unsigned ini, setup_conn *ci, unsigned rsp, setup_conn *cr,
                   unsigned n, uint32_t seed, setup_traffic_stats *st)
{
    for (unsigned k = 0; k < n; k++) {
        size_t len = (size_t)((seed * 2654435761u + k * 40503u) % 257u);
        setup_send_one(s, ini, ci, ci->local_psn + ci->pkts_sent++, len, st);
        setup_send_one(s, rsp, cr, cr->local_psn + cr->pkts_sent++, (len * 3u) % 301u, st);
    }
}
