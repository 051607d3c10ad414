/*
 * setup.h — authenticated connection setup between simulated channel adapters:
 * the CM state machine of each CA (REQ -> REP -> RTU, DREQ -> DREP, REJ), the
 * SECM tags and Lee & Kim key exchange of secm.h / keydist.h, the driver
 * (ibsec_drv.h) programming each CA's seal and open engines, and an event loop
 * that runs many setups as a pipeline (SECM §4.1) with the number of connections
 * in flight as a parameter.
 *
 * Time.  The loop keeps a simulated clock in nanoseconds.  Each CA has one CPU:
 * handling a message starts when the message has arrived and the CPU is free, and
 * takes the CPU time the handler really took on this machine (measured with
 * CLOCK_THREAD_CPUTIME_ID, so time the process was descheduled does not count),
 * or a fixed cost if the caller sets one (deterministic runs).
 * A message sent by a handler arrives wire_ns after the handler ends.  So setup
 * time = real processing costs + a modelled fabric latency, and pipelining shows
 * what it hides: the wire and the peer's processing, not the CPU's own work.
 *
 * The order of a setup, and where each side programs its engines:
 *   initiator: REQ (N_i, SK wrapped, tag)            state REQ_SENT
 *   responder: checks, REP (N_r, tag over N_i)         state REP_SENT   (nothing programmed)
 *   initiator: checks, programs, RTU (tag over N_i, N_r) state ESTABLISHED
 *   responder: checks, programs                        state ESTABLISHED
 * A responder programs nothing until the RTU proves the initiator is live and
 * holds the pair key now, so a replayed REQ — even one older than the replay
 * cache — never reaches an engine.
 */
#ifndef IBSEC_SETUP_H
#define IBSEC_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ib_cm.h"
#include "ibsec.h"
#include "ibsec_drv.h"
#include "ibsec_regmodel.h"
#include "keydist.h"
#include "pcap.h"
#include "secm.h"

#define SETUP_MAX_CA        16u
#define SETUP_REPLAY_CACHE  1024u   /* REQ nonces remembered per CA */
#define SETUP_KEY_SLOTS     32u     /* engine sizes of the simulated CAs */
#define SETUP_CTX_SLOTS     256u
#define SETUP_SERVICE_ID    0x1000000000000A5Eull /* outside the RDMA-IP CM range */
#define SETUP_COMM_INDEX_MASK 0xFFFFFu            /* comm ID bits holding index + 1 */
#define SETUP_COMM_GEN_SHIFT  20u                 /* comm ID bits 31:20: the slot's generation */
#define SETUP_CONN_CHUNK    64u     /* connection records are allocated in fixed chunks of */
#define SETUP_CONN_CHUNKS   1024u   /* ... at most this many per CA (65536 records) */
#define SETUP_CONN_REUSE_LAG 16u    /* a closed record is reused only once this many more
                                       closed ones wait behind it (FIFO) */
#define SETUP_PEER_PENDING  8u      /* setups one peer may hold at a responder (REP sent,
                                       RTU not yet in): each holds a reservation */
#define SETUP_TIMEOUT_NS    4294967296ull  /* 4.096 us x 2^20 (CM Response Timeout 20) */

enum setup_state {
    SETUP_ST_FREE = 0,
    SETUP_ST_REQ_SENT,      /* initiator: waiting for REP */
    SETUP_ST_REP_SENT,      /* responder: waiting for RTU */
    SETUP_ST_ESTABLISHED,   /* both engines programmed on this side */
    SETUP_ST_DREQ_SENT,     /* waiting for DREP */
    SETUP_ST_CLOSED,        /* torn down, refused or rejected */
    SETUP_ST_COUNT
};
const char *setup_state_name(enum setup_state s);

/* One connection as one CA sees it. */
typedef struct setup_conn {
    enum setup_state state;
    bool     initiator;
    unsigned peer;                  /* index of the other CA */
    uint32_t local_comm_id, remote_comm_id;
    uint32_t local_qpn, remote_qpn;
    uint32_t local_psn, remote_psn; /* starting PSNs */
    uint16_t pkey;
    uint8_t  mode, sth_code;
    bool     aes256;
    uint8_t  n_i[KD_NONCE_LEN], n_r[KD_NONCE_LEN];
    uint8_t  sk[32];                /* session key (zeroed at teardown) */
    uint8_t  r[KD_RANDOM_LEN];      /* Lee & Kim §6.1 random number */
    ibsec_drv_conn drv;
    enum secm_reason end_reason;    /* why it was closed if not by DREQ */
    uint64_t t_request, t_established; /* simulated ns */
    uint32_t app_tag;               /* the caller's request number */
    uint32_t pkts_sent;             /* setup_traffic: packets sealed on this side */
    bool     reserved;              /* holds a reservation of engine room (setup_ca) */
    uint32_t slot;                  /* its index at its CA */
    uint32_t gen;                   /* generation of the slot: comm ID bits 31:20 */
    uint32_t next_free;             /* free list link (index + 1, 0: none) */
    bool     on_free;               /* closed and waiting to be reused */
} setup_conn;

/* One channel adapter: its keys, its two engines (C model behind the register map),
 * its CM connections and its counters. */
typedef struct setup_ca {
    kd_ca    keys;
    uint16_t lid;
    ibsec_engine     seal_e, open_e;
    ibsec_regmodel   seal_rm, open_rm;
    ibsec_drv_engine seal, open;
    setup_conn *chunk[SETUP_CONN_CHUNKS]; /* records, SETUP_CONN_CHUNK each, never moved
                                       (setup_conn_at): a pointer to one stays valid */
    unsigned n_conn;                /* records ever allocated */
    uint32_t free_head, free_tail;  /* closed records, oldest first (index + 1, 0: none) */
    unsigned n_free;
    uint32_t last_new;              /* index of the record conn_new returned last */
    unsigned pending_from[SETUP_MAX_CA]; /* REP_SENT setups per peer (SETUP_PEER_PENDING) */
    uint64_t req_ctr_out[SETUP_MAX_CA];  /* last REQ TransactionID sent to each peer */
    uint64_t req_ctr_in[SETUP_MAX_CA];   /* highest REQ TransactionID accepted from each */
    uint32_t next_qpn;
    uint64_t replay_guid[SETUP_REPLAY_CACHE];
    uint8_t  replay_nonce[SETUP_REPLAY_CACHE][KD_NONCE_LEN];
    unsigned replay_next, replay_fill;
    uint64_t count[SECM_R_COUNT];   /* messages refused, by reason (count[0]: accepted);
                                       count[driver] also counts teardowns an engine
                                       refused or timed out */
    uint64_t drv_quarantine_events; /* teardowns that left a slot quarantined in an engine */
    uint64_t cpu_free_ns;
    uint32_t psn_out;               /* BTH PSN of QP1 packets it sends (pcap) */
    unsigned reserved;              /* setups in progress (REQ sent or REP sent) that will
                                       need a key slot and a context in each engine: a
                                       REQ is sent or accepted only if it fits, so the
                                       later programming never runs out of room */
} setup_ca;

/* A message on the simulated fabric. */
typedef struct setup_msg {
    uint64_t t;          /* arrival time */
    uint64_t seq;        /* tie-break: send order */
    unsigned from, to;
    size_t   len;
    uint8_t  mad[IB_MAD_LEN];
} setup_msg;

struct setup_sim;
/* Called when a connection is established on both sides (responder processed the
 * RTU); ci, cr: the connection at the initiator and at the responder. */
typedef void (*setup_established_fn)(struct setup_sim *s, unsigned ini, setup_conn *ci,
                                     unsigned rsp, setup_conn *cr, void *arg);

/* A deadline: the REP (initiator), the RTU (responder) or the DREP must come by then. */
typedef struct setup_timer {
    uint64_t deadline;
    unsigned ca;
    uint32_t local_comm_id;
    enum setup_state state;   /* the wait it ends: fires only if still in that state */
} setup_timer;

/* A connection the application asks for. */
typedef struct setup_request {
    unsigned ini, rsp;
    uint8_t  mode, sth_code;
    bool     aes256;
    uint16_t pkey;
} setup_request;

typedef struct setup_sim {
    unsigned n_ca;
    setup_ca ca[SETUP_MAX_CA];
    kd_sm    sm;
    /* fabric */
    setup_msg *q;                   /* binary heap by (t, seq) */
    size_t     q_len, q_cap;
    uint64_t   seq;
    uint64_t   wire_ns;             /* one-way latency of a MAD */
    uint64_t   fixed_cost_ns;       /* 0: measure handlers; else charge this per handler */
    uint64_t   now_ns;
    uint64_t   timeout_ns;          /* a setup step's deadline (SETUP_TIMEOUT_NS) */
    setup_timer *tq;                /* deadlines in the order they were set (FIFO) */
    size_t     tq_head, tq_len, tq_cap;
    ibsec_pcap_writer *pcap;        /* every MAD sent, if set */
    /* application */
    const setup_request *req;       /* the running setup_run's requests (NULL outside it) */
    unsigned n_req, next_req, window, in_flight;
    unsigned *retry, n_retry, cap_retry; /* requests refused for room, to issue again */
    unsigned retried;               /* how many times that happened */
    unsigned established, failed, torn_down;
    bool     auto_teardown;         /* initiator sends DREQ once the hook has run */
    setup_established_fn on_established;
    void    *hook_arg;
    uint64_t t_last_established;    /* simulated ns */
    uint64_t busy_ns[SETUP_MAX_CA]; /* CPU time charged to each CA */
    uint64_t attr_ns[0x20], attr_n[0x20]; /* CPU time and count by what was done:
                                       0 making a REQ, 1 making a DREQ, 0x10..0x16
                                       handling that CM attribute, 0x1F a MAD too
                                       short to name one */
    uint64_t t_last_closed;
} setup_sim;

/* ---- building a subnet ------------------------------------------------------------ */

/* n_ca CAs with random CA_SKs and GUIDs 0x0002c90300000001 + i, LIDs 1 + i, each
 * with two C-model engines (SETUP_KEY_SLOTS keys, SETUP_CTX_SLOTS contexts) attached
 * through the register map; an SM with random SM_SK and SSM_SK.  0 / -1. */
int  setup_sim_init(setup_sim *s, unsigned n_ca, uint64_t wire_ns);
void setup_sim_free(setup_sim *s);
/* Lee & Kim §5.1.3-5.1.5: SM_SK to every CA, the P_SK of pkey, and a pair key for
 * every pair of CAs, each as a kd_blob opened by the CA.  0 / -1. */
int  setup_distribute_keys(setup_sim *s, uint16_t pkey);

/* ---- the CM endpoint -------------------------------------------------------------- */

/* Initiator: make and send a REQ for request r (state REQ_SENT).  Returns the
 * connection index at the initiator (ca[r->ini].conn[index]), or -1 (no pair key). */
int  setup_connect(setup_sim *s, const setup_request *r, uint32_t app_tag);
/* Deliver one MAD to CA `to` now; returns SECM_OK or the reason it was refused (also
 * counted in ca[to].count). */
enum secm_reason setup_deliver(setup_sim *s, unsigned to, const uint8_t *mad, size_t len);
/* Send DREQ for an established connection of CA `ca` (state DREQ_SENT) and arm its
 * deadline (IBA TimeWait): torn down when the DREP comes, when the peer's own DREQ
 * crosses it (answered with a DREP), or when the deadline passes. */
int  setup_disconnect(setup_sim *s, unsigned ca, setup_conn *c);
/* The connection of CA ca with local communication ID id, or NULL. */
setup_conn *setup_find(setup_sim *s, unsigned ca, uint32_t local_comm_id);
/* CA ca's connection record number index (setup_connect's return value, setup_ca.last_new),
 * or NULL.  A closed record is reused for a later connection (with a new generation in
 * its comm ID), so a pointer to a closed connection may later show another one. */
setup_conn *setup_conn_at(setup_sim *s, unsigned ca, uint32_t index);

/* ---- traffic through the engines ------------------------------------------------- */

/* Result of setup_traffic. */
typedef struct setup_traffic_stats {
    uint64_t sealed, opened, mismatched, refused;
    enum ibsec_reason last_reason;   /* of the last packet not delivered */
} setup_traffic_stats;

/* Send n RC SEND-only packets each way on an established connection: built plain
 * (ib_pkt.h), sealed by the sender's seal engine, opened by the receiver's open
 * engine, and compared byte for byte with the plain packet.  Payload lengths come
 * from seed.  Adds to *st. */
void setup_traffic(setup_sim *s, unsigned ini, setup_conn *ci, unsigned rsp, setup_conn *cr,
                   unsigned n, uint32_t seed, setup_traffic_stats *st);
/* The plain RC SEND-only packet CA `from` sends on connection c with BTH PSN psn and
 * payload_len bytes (native IB, no GRH, valid ICRC and VCRC).  0 and *len, or -1. */
int setup_build_plain(setup_sim *s, unsigned from, const setup_conn *c, uint32_t psn,
                      size_t payload_len, uint8_t *buf, size_t cap, size_t *len);
/* One packet from CA `from` on connection c (sent to its peer): the reason the
 * receiver's open engine gives (IBSEC_R_OK and an exact match, or the drop). */
enum ibsec_reason setup_send_one(setup_sim *s, unsigned from, setup_conn *c, uint32_t psn,
                                 size_t payload_len, setup_traffic_stats *st);

/* ---- the event loop --------------------------------------------------------------- */

/* Run requests req[0..n) with at most `window` in flight (REQ sent, REP not yet
 * processed); messages are delivered in arrival order until the fabric is empty.  A
 * request is issued only when its initiator has engine room (a key slot and a context
 * in each engine beyond its reservations); one the responder refuses for room
 * (REJ no_resources) is issued again later.  Requests that can never find room are
 * counted in `failed`. */
void setup_run(setup_sim *s, const setup_request *req, unsigned n, unsigned window);

/* Expire every setup step whose deadline is at or before t: a REQ_SENT or REP_SENT
 * connection still in that state is closed (SECM_R_TIMEOUT), its engine reservation
 * released, and a REJ with Reason 4 (Timeout) sent to the peer (IBA §12.6.7); a
 * DREQ_SENT one is torn down (keys zeroized) without a message.  Returns
 * how many expired.  setup_run calls it as the simulated clock passes the deadlines. */
unsigned setup_expire(setup_sim *s, uint64_t t);

/* Pop the next message off the fabric (false if none). */
bool setup_next_msg(setup_sim *s, setup_msg *m);

#endif /* IBSEC_SETUP_H */
