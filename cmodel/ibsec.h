/*
 * ibsec.h — the security layer of the ibsec C reference model: key table,
 * context table, extended-PSN nonces, and the two packet operations
 *
 *   seal: plain packet as the transport layer built it  ->  wire packet
 *   open: wire packet                                   ->  plain packet, or a drop reason
 *
 * The wire format (BTH byte 8 SECMODE/STHSZ, the modes, AAD, STH, nonce, order of
 * checks, drop reasons) is specified in docs/wire-format.md; this header names the
 * sections it implements.  The RTL packet engine mirrors the tables, the per-reason
 * counters and the order of checks exactly.
 *
 * Representation:
 *   - A key entry holds the raw AES-128/AES-256 key, the 32-bit salt and the derived
 *     GCM key (round keys, H and its powers), computed when the key is installed,
 *     so no packet ever sees a half-derived key (BRIEF §2 "Keys").
 *   - A context entry holds its selector (destination QP, or 15-bit P_Key), its
 *     mode, key index, STH size code, direction bit, the transmit EPSN state, the
 *     receive EPSN state with a 64-entry replay bitmap, and the alert state
 *     (Lee & Kim §5.1, §6.1; sRDMA §4.3).
 *   - Counters: one 64-bit counter per (operation, reason); IBSEC_R_OK counts
 *     delivered packets.
 *
 * Byte strings are in wire order; EPSNs are host integers (bit 63 = direction
 * only inside the IV).
 */
#ifndef IBSEC_IBSEC_H
#define IBSEC_IBSEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crc.h"
#include "gcm.h"
#include "ib_pkt.h"

/* ---- wire constants (docs/wire-format.md §2, §4, §6) ---------------------------- */

#define IBSEC_SECBITS_MASK      0x7Fu  /* BTH byte 8 bits 6:0: everything but AckReq */
#define IBSEC_SECBITS_KP        0x40u  /* BTH byte 8 bit 6: key phase, key[KP] of the context */
#define IBSEC_SECBITS_PN        0x20u  /* BTH byte 8 bit 5: the STH starts with SSCI || PN */
#define IBSEC_SECMODE_SHIFT     3u     /* BTH byte 8 bits 4:3: SECMODE */
#define IBSEC_SECMODE_MASK      0x18u
#define IBSEC_STHSZ_MASK        0x07u  /* BTH byte 8 bits 2:0: STHSZ (sRDMA Table 2) */

#define IBSEC_STH_CODE_NONE 0u         /* no STH */
#define IBSEC_STH_CODE_96   1u         /* 96-bit MAC, 12-byte STH */
#define IBSEC_STH_CODE_128  2u         /* 128-bit MAC, 16-byte STH */
#define IBSEC_STH_CODE_MAX  7u

#define IBSEC_ICRC_MAC_TAG_LEN 4u      /* icrc-mac: GCM tag truncated to 32 bits (Lee & Kim §5.2) */
#define IBSEC_SALT_LEN         4u      /* per-key salt of the epsn nonce, IV bytes 0..3 */
#define IBSEC_SALT_PN_LEN      12u     /* per-key salt of the pn nonce, XORed into the IV */
#define IBSEC_SECTAG_LEN       12u     /* pn nonce: SSCI (4) || PN (8) in front of the tag */
#define IBSEC_PN_FIRST         1ull    /* the first PN a key sends (0 is never sent) */
#define IBSEC_PSN_BITS         24u     /* BTH PSN width */
#define IBSEC_PSN_MASK         0xFFFFFFu
#define IBSEC_EPSN_HALF_WINDOW (1ull << 23) /* reconstruction window: [ref - 2^23, ref + 2^23) */
#define IBSEC_EPSN_LIMIT       (1ull << 63) /* EPSNs are 63-bit: 0 .. 2^63 - 1 */
#define IBSEC_EPSN_DIR_BIT     63u          /* IV EPSN bit 63 = direction */
#define IBSEC_REPLAY_WINDOW    64u          /* receive bitmap entries (default) */
#define IBSEC_REPLAY_WINDOW_MAX 4096u       /* largest window an engine may be given */
#define IBSEC_ALERT_DEFAULT    8u           /* consecutive auth failures before an alert */

/* ---- modes (docs/wire-format.md §3) ---------------------------------------- */

enum ibsec_mode {
    IBSEC_MODE_NONE = 0,   /* clear, real ICRC */
    IBSEC_MODE_ICRC_MAC,   /* AES-GCM, 32-bit tag in the ICRC field (Lee & Kim §5.2) */
    IBSEC_MODE_STH_HDR,    /* GMAC over nonce + masked headers, tag in the STH (sRDMA §4.3) */
    IBSEC_MODE_STH_PKT,    /* GMAC over masked headers + payload + pad, tag in the STH */
    IBSEC_MODE_STH_AEAD,   /* AES-GCM: payload + pad encrypted, tag in the STH */
    IBSEC_MODE_COUNT
};

/* "none", "icrc-mac", "sth-hdr", "sth-pkt", "sth-aead" ("?" otherwise). */
const char *ibsec_mode_name(enum ibsec_mode m);
/* Parse a mode name; 0 ok, -1 unknown. */
int ibsec_mode_from_name(const char *s, enum ibsec_mode *m);
/* true for the three modes that carry an STH. */
bool ibsec_mode_has_sth(enum ibsec_mode m);

/* STH length in bytes for an STHSZ code (sRDMA Table 2 as reconstructed in
 * wire-format.md §2, §4): 0, 12, 16, 20, 24, 32, 48, 64; 0 for an invalid code. */
size_t ibsec_sth_len(unsigned code);
/* MAC length in bits for a code: 0, 96, 128, 160, 192, 256, 384, 512. */
unsigned ibsec_sth_bits(unsigned code);
/* Codes ibsec implements: 0 (no STH), 1 (96 bits) and 2 (128 bits); an AES-GCM
 * tag has at most 128 bits, so codes 3..7 are refused (wire-format.md §4). */
bool ibsec_sth_code_supported(unsigned code);

/* BTH byte 8 bits 6:0 (wire-format.md §2): the mode and STH code (SECMODE, STHSZ), the
 * key phase (bit 6) and whether the STH carries the pn nonce's SecTAG (bit 5). */
struct ibsec_secbits {
    enum ibsec_mode mode;
    unsigned        code;  /* STHSZ: 0, or 1 / 2 for the sth-* modes */
    bool            pn;    /* sth-* only: the STH is SSCI || PN || tag */
    unsigned        kp;    /* 0 or 1; 0 in mode none */
};
uint8_t ibsec_secbits_pack(const struct ibsec_secbits *s);
/* Decode BTH byte 8 bits 6:0: 0 and *s, or -1 for a reserved combination (SECMODE 2/3
 * without STH, SECMODE 0 with an STH, the key phase in mode none, the PN bit without
 * an STH). */
int ibsec_secbits_unpack(uint8_t bth_byte8, struct ibsec_secbits *s);
/* Bytes of the STH a packet with these bits carries: the tag of its code and, with the
 * PN bit, the SecTAG in front (IBSEC_SECTAG_LEN); 0 without an STH. */
size_t ibsec_secbits_sth_len(const struct ibsec_secbits *s);
/* The same for a mode and STH code alone (key phase 0, no PN): the bits of the epsn
 * nonce's packets. */
uint8_t ibsec_secbits_encode(enum ibsec_mode m, unsigned sth_code);
/* ibsec_secbits_unpack reduced to the mode and STH code. */
int ibsec_secbits_decode(uint8_t bth_byte8, enum ibsec_mode *m, unsigned *sth_code);

/* ---- reasons (docs/wire-format.md §10) --------------------------------------
 * Every packet ends with exactly one reason; IBSEC_R_OK means delivered.  The
 * enum order is the order of the reason names in docs and tools, not the order
 * of the checks (that is wire-format.md §7 for seal, §8 for open). */
enum ibsec_reason {
    IBSEC_R_OK = 0,
    /* parse errors: one per ib_pkt.h named error, same names */
    IBSEC_R_TRUNCATED,
    IBSEC_R_BAD_LNH,
    IBSEC_R_BAD_LVER,
    IBSEC_R_BAD_PKTLEN,
    IBSEC_R_BAD_IPVER,
    IBSEC_R_BAD_NXTHDR,
    IBSEC_R_BAD_GRH_PAYLEN,
    IBSEC_R_BAD_ETHERTYPE,
    IBSEC_R_BAD_IPV4_IHL,
    IBSEC_R_BAD_IPV4_CSUM,
    IBSEC_R_IP_FRAGMENT,
    IBSEC_R_BAD_IP_LEN,
    IBSEC_R_NOT_UDP,
    IBSEC_R_BAD_UDP_PORT,
    IBSEC_R_BAD_UDP_LEN,
    IBSEC_R_BAD_TVER,
    IBSEC_R_BAD_OPCODE,
    IBSEC_R_BAD_PADCNT,
    IBSEC_R_BAD_PAYLOAD_LEN,
    IBSEC_R_TOO_LONG,
    /* link and security checks */
    IBSEC_R_BAD_VCRC,              /* native VCRC wrong */
    IBSEC_R_BAD_SECMODE,           /* reserved SECMODE/STHSZ combination (or, on seal,
                                      security bits already set on the input) */
    IBSEC_R_NO_CONTEXT,            /* no context and (secured packet, or plain not allowed) */
    IBSEC_R_MODE_MISMATCH,         /* packet's mode != context's (incl. downgrade to none) */
    IBSEC_R_STH_SIZE_UNSUPPORTED,  /* STHSZ 3..7 (checked right after bad_secmode) */
    IBSEC_R_STH_SIZE_MISMATCH,     /* STHSZ != context's STH code */
    IBSEC_R_NO_KEY,                /* context's key entry is not valid */
    IBSEC_R_BAD_ICRC,              /* ICRC wrong (modes none and sth-*) */
    IBSEC_R_EPSN_EXHAUSTED,        /* EPSN would reach 2^63 */
    IBSEC_R_PSN_TOO_OLD,           /* EPSN left of the replay window */
    IBSEC_R_REPLAY,                /* EPSN already accepted */
    IBSEC_R_AUTH_FAILED,           /* tag does not verify */
    IBSEC_R_NONCE_REUSE,           /* seal: EPSN not above every EPSN already sealed */
    IBSEC_R_UNKNOWN_SENDER,        /* open, pn nonce: no peer entry for (key slot, SSCI) */
    IBSEC_R_PN_TOO_OLD,            /* open, pn nonce: PN left of the sender's window */
    IBSEC_R_PN_EXHAUSTED,          /* seal, pn nonce: the key slot has sent PN 2^64 - 1 */
    IBSEC_R_MGMT_DROPPED,          /* DestQP 0, 1 or 0xffffff whose class the engine drops */
    IBSEC_R_NOSPACE,               /* caller's output buffer too small (model only) */
    IBSEC_R_COUNT
};

/* Stable lower-case name ("ok", "truncated", ..., "auth_failed"); "?" if invalid. */
const char *ibsec_reason_name(enum ibsec_reason r);
/* Reverse of ibsec_reason_name; 0 ok, -1 unknown. */
int ibsec_reason_from_name(const char *s, enum ibsec_reason *r);
/* The reason for a parse error of ib_pkt.h. */
enum ibsec_reason ibsec_reason_from_pkt_err(enum ibsec_pkt_err e);

/* The two operations, index of the counter arrays. */
enum ibsec_op {
    IBSEC_OP_SEAL = 0,
    IBSEC_OP_OPEN = 1,
    IBSEC_OP_COUNT
};
const char *ibsec_op_name(enum ibsec_op op); /* "seal", "open" */

/* ---- tables ---------------------------------------------------------------- */

/* One key table entry (BRIEF §2 "Keys"). */
typedef struct ibsec_key_entry {
    bool          valid;
    size_t        key_len;           /* 16 (AES-128) or 32 (AES-256) */
    uint8_t       key[32];
    uint8_t       salt[IBSEC_SALT_PN_LEN]; /* epsn nonce: bytes 0..3; pn nonce: all 12 */
    size_t        salt_len;          /* 4 (epsn nonce only) or 12 (either nonce) */
    uint32_t      ssci;              /* pn nonce: this endpoint's sender identifier under
                                        this key (unique among the key's senders) */
    uint64_t      tx_pn;             /* pn nonce: next PN to send, 1 .. 2^64 - 1; 0 once
                                        PN 2^64 - 1 has been sent (pn_exhausted) */
    ibsec_gcm_key gk;                /* derived when installed */
} ibsec_key_entry;

/* A replay window of W = 64 .. IBSEC_REPLAY_WINDOW_MAX entries (a power of two): the
 * highest accepted value + 1 and, for each value v in [next - W, next), whether it was
 * accepted, at bit v mod W (wire-format.md §6). */
#define IBSEC_WINDOW_WORDS (IBSEC_REPLAY_WINDOW_MAX / 64u)
typedef struct ibsec_window {
    uint64_t next;
    uint64_t seen[IBSEC_WINDOW_WORDS];
} ibsec_window;

/* One receive entry of the pn nonce (wire-format.md §5.2): a sender of a key slot, known
 * by its SSCI, with the window of the PNs accepted from it (MACsec's receive SA). */
typedef struct ibsec_peer {
    bool         valid;
    unsigned     key;      /* key slot */
    uint32_t     ssci;
    ibsec_window rx;       /* PNs accepted; rx.next starts at the configured first PN */
} ibsec_peer;

/* One entry of the duplicate table (wire-format.md §6.1): the PSNs delivered on a
 * connection, known by its sender's SSCI and its DestQP. PSNs are compared modulo 2^24
 * (no extension: the entry only labels, it guards nothing). */
#define IBSEC_DUP_WINDOW 64u
typedef struct ibsec_conn {
    bool     valid;
    uint32_t ssci;
    uint32_t destqp;
    uint32_t last;       /* the newest PSN delivered */
    uint64_t seen;       /* bit d: PSN last - d delivered (d < 64) */
} ibsec_conn;

/* What an engine does with the DestQPs that IBA reserves (wire-format.md §9.1): QP0
 * (subnet management, SMPs), QP1 (general services, GMPs: SA, CM) and the permissive
 * DestQP 0xffffff (multicast). */
enum ibsec_mgmt_class {
    IBSEC_MGMT_QP0 = 0,
    IBSEC_MGMT_QP1 = 1,
    IBSEC_MGMT_MCAST = 2,
    IBSEC_MGMT_CLASSES
};
enum ibsec_mgmt_policy {
    IBSEC_MGMT_CONTEXT = 0,  /* like any DestQP: the context lookup decides */
    IBSEC_MGMT_BYPASS,       /* never secured: sent plain, a plain one delivered (ICRC
                                checked), a secured one refused (no_context) */
    IBSEC_MGMT_DROP          /* dropped both ways (mgmt_dropped) */
};
#define IBSEC_QPN_PERMISSIVE 0xFFFFFFu /* IBA Vol. 1 §10.5: the multicast DestQP */

/* The nonce of a context's packets (wire-format.md §5). */
enum ibsec_nonce {
    IBSEC_NONCE_EPSN = 0,  /* salt || dir || EPSN: one sender per key and direction,
                              no retransmission (sRDMA §4.3) */
    IBSEC_NONCE_PN = 1     /* salt XOR (SSCI || PN), SSCI and PN in the STH: any number
                              of senders and retransmissions (sth-* modes only) */
};

/* How a context is selected (Lee & Kim §5.1; wire-format.md §9). */
enum ibsec_sel {
    IBSEC_SEL_QP = 0,   /* BTH DestQP (24 bits) — takes precedence */
    IBSEC_SEL_PKEY = 1  /* BTH P_Key bits 14:0 (membership bit 15 ignored) */
};

/* What software writes into a context entry. */
typedef struct ibsec_ctx_cfg {
    enum ibsec_sel  sel;
    uint32_t        match;            /* QPN (0..0xFFFFFF) or P_Key (0..0x7FFF) */
    enum ibsec_mode mode;
    unsigned        key;              /* key table index (ignored for mode none); GCM
                                         needs unique (key, IV): give a key to one
                                         context per direction (wire-format.md §5) */
    unsigned        sth_code;         /* 1 or 2 for sth-* modes, 0 otherwise */
    unsigned        dir;              /* 0 or 1: EPSN bit 63 this endpoint sends */
    uint64_t        tx_next;          /* first EPSN the transmitter may use */
    uint64_t        rx_next;          /* first EPSN the receiver accepts */
    uint32_t        alert_threshold;  /* 0 = alerts off */
    enum ibsec_nonce nonce;           /* epsn (default) or pn (sth-* modes) */
    bool            key1_en;          /* a second key for key phase 1 (hitless rollover) */
    unsigned        key1;             /* key table index of phase 1 */
    unsigned        tx_kp;            /* key phase seal uses: key (0) or key1 (1) */
    bool            replay_off;       /* pn nonce: accept a PN again (no window kept) */
} ibsec_ctx_cfg;

/* One context table entry: configuration plus live state. */
typedef struct ibsec_ctx {
    bool          valid;
    ibsec_ctx_cfg cfg;
    uint64_t      tx_next;     /* sRDMA §4.3: next EPSN allowed on seal, 0 .. 2^63 */
    uint64_t      rx_next;     /* highest accepted EPSN + 1 */
    uint64_t      rx_bitmap;   /* bit i set: EPSN rx_next - 1 - i accepted (or below start) */
    uint32_t      fail_consec; /* consecutive auth failures */
    bool          alert;       /* sticky; cleared by ibsec_ctx_clear_alert() */
    uint32_t      alert_count; /* alerts raised since the context was written */
} ibsec_ctx;

/* The engine: tables, the plain-traffic switch and the counters. */
typedef struct ibsec_engine {
    unsigned         n_keys, n_ctx;
    ibsec_key_entry *keys;
    ibsec_ctx       *ctx;
    bool             allow_plain;  /* mode-none packets without a context pass */
    bool             mask_mf;      /* native GRH: mask the DDPM Marking Field in the
                                      ICRC and the AAD (docs/availability.md §2.4) */
    int              lanes;        /* GHASH beat width given to the GCM keys */
    unsigned         n_peers;      /* receive entries of the pn nonce */
    ibsec_peer      *peers;
    unsigned         replay_window; /* W of the peers' PN windows (64 .. 4096, 2^n) */
    unsigned         n_conns;      /* duplicate table entries (0: no duplicate status) */
    enum ibsec_mgmt_policy mgmt[IBSEC_MGMT_CLASSES]; /* QP0, QP1, 0xffffff (§9.1) */
    ibsec_conn      *conns;
    uint64_t         count[IBSEC_OP_COUNT][IBSEC_R_COUNT];
} ibsec_engine;

/* What happened to one packet. */
typedef struct ibsec_verdict {
    enum ibsec_reason reason;
    int               ctx;          /* context index used, -1 if none */
    enum ibsec_mode   mode;         /* mode applied (seal) / found on the wire (open) */
    uint64_t          epsn;         /* EPSN used (epsn nonce, secured modes that got that far) */
    uint64_t          pn;           /* PN used (pn nonce) */
    uint32_t          ssci;         /* SSCI of the PN (seal: this endpoint's, open: the sender's) */
    unsigned          kp;           /* key phase used */
    bool              dup;          /* open, pn nonce, RC/UC/XRC: the connection's PSN was
                                       delivered before (a retransmission), §6.1 */
    bool              alert_raised; /* this packet raised the context's alert */
} ibsec_verdict;

/* ---- engine set-up (ibsec_ctx.c) ------------------------------------------- */

/* Allocate n_keys key and n_ctx context entries (all invalid), plain traffic
 * refused, counters zero.  lanes is passed to ibsec_gcm_key_init.  0 / -1. */
int  ibsec_engine_init(ibsec_engine *e, unsigned n_keys, unsigned n_ctx, int lanes);
void ibsec_engine_free(ibsec_engine *e);
void ibsec_engine_clear_counters(ibsec_engine *e);

/* Install a key (16 or 32 bytes) and its salt, deriving the GCM key before the
 * entry becomes valid.  0 ok, -1 bad index or length. */
int  ibsec_key_set(ibsec_engine *e, unsigned idx, const uint8_t *key, size_t key_len,
                   const uint8_t salt[IBSEC_SALT_LEN]);
/* The same with the pn nonce's fields: a salt of 4 (epsn nonce only) or 12 bytes, this
 * endpoint's SSCI under the key and the first PN it sends (>= 1). */
int  ibsec_key_set_pn(ibsec_engine *e, unsigned idx, const uint8_t *key, size_t key_len,
                      const uint8_t *salt, size_t salt_len, uint32_t ssci, uint64_t tx_pn);

/* Give the engine n receive entries of the pn nonce and a window of w PNs per entry
 * (64 .. IBSEC_REPLAY_WINDOW_MAX, a power of two); entries start invalid.  0 / -1. */
int  ibsec_peers_init(ibsec_engine *e, unsigned n, unsigned w);
/* Write receive entry idx: sender ssci of key slot key, PNs from first_pn on accepted
 * (every PN below counts as seen).  Refused (-1) on a bad index or key slot, first_pn 0,
 * or a (key, ssci) already used by another valid entry. */
int  ibsec_peer_set(ibsec_engine *e, unsigned idx, unsigned key, uint32_t ssci, uint64_t first_pn);
void ibsec_peer_clear(ibsec_engine *e, unsigned idx);
/* The valid entry of (key, ssci), or -1. */
int  ibsec_peer_lookup(const ibsec_engine *e, unsigned key, uint32_t ssci);

/* Give the engine a duplicate table of n entries (a power of two, 1 .. 65536); all
 * invalid.  0 / -1. */
int  ibsec_conns_init(ibsec_engine *e, unsigned n);
/* The table entry of a connection: (DestQP XOR SSCI << 8 XOR SSCI >> 16) mod n. */
unsigned ibsec_conn_index(const ibsec_engine *e, uint32_t ssci, uint32_t destqp);
/* Note a delivered packet of a connected transport (RC, UC, XRC): true if its PSN was
 * delivered on the connection before.  A connection whose entry holds another one takes
 * the entry over (its earlier PSNs are forgotten: the packet counts as new). */
bool ibsec_conn_note(ibsec_engine *e, uint32_t ssci, uint32_t destqp, uint32_t psn);
void ibsec_key_clear(ibsec_engine *e, unsigned idx);

/* Check a context configuration on its own: NULL if good, else a message. */
const char *ibsec_ctx_cfg_check(const ibsec_ctx_cfg *c);
/* Write a context: state starts at cfg (tx_next, rx_next, a full replay bitmap:
 * every EPSN below rx_next counts as seen), no failures, no alert.  Refused
 * (-1, *why set if why != NULL) on a bad index, a bad configuration, or a selector
 * already used by another valid context. */
int  ibsec_ctx_set(ibsec_engine *e, unsigned idx, const ibsec_ctx_cfg *cfg, const char **why);
void ibsec_ctx_clear(ibsec_engine *e, unsigned idx);
/* Clear a context's sticky alert flag (its alert_count stays). */
void ibsec_ctx_clear_alert(ibsec_engine *e, unsigned idx);

/* The reserved class of a DestQP (QP0, QP1, 0xffffff), or -1 for any other. */
int  ibsec_mgmt_class_of(uint32_t destqp);
/* "context", "bypass", "drop"; and back (0 / -1). */
const char *ibsec_mgmt_policy_name(enum ibsec_mgmt_policy p);
int  ibsec_mgmt_policy_from_name(const char *s, enum ibsec_mgmt_policy *p);

/* Context selection (Lee & Kim §5.1, wire-format.md §9): the valid QP context
 * whose QPN equals destqp; else the valid P_Key context whose 15-bit key equals
 * pkey & 0x7FFF; else -1. */
int  ibsec_ctx_lookup(const ibsec_engine *e, uint32_t destqp, uint16_t pkey);

/* Turn an endpoint's configuration into its peer's (wire-format.md §9): every
 * context's dir is inverted and its tx_next / rx_next swapped; keys unchanged but, for a
 * key slot with exactly one receive entry (a pn key shared by two endpoints), the slot's
 * SSCI and next PN trade places with the entry's SSCI and first PN.
 * Use on a freshly configured engine. */
void ibsec_engine_make_peer(ibsec_engine *e);

/* ---- extended PSN (ibsec_epsn.c, sRDMA §4.3, wire-format.md §5, §6) ------------- */

/* The EPSN whose low 24 bits are psn and that lies in [ref - 2^23, ref + 2^23).
 * Returns 0 and *epsn, -1 if that value is negative, +1 if it is >= 2^63. */
int  ibsec_epsn_reconstruct(uint64_t ref, uint32_t psn, uint64_t *epsn);
/* Seal: the EPSN for a BTH PSN given the context's tx_next; IBSEC_R_OK and
 * *epsn, IBSEC_R_NONCE_REUSE or IBSEC_R_EPSN_EXHAUSTED.  Changes nothing. */
enum ibsec_reason ibsec_epsn_tx_check(const ibsec_ctx *c, uint32_t psn, uint64_t *epsn);
void ibsec_epsn_tx_commit(ibsec_ctx *c, uint64_t epsn);
/* Open: the EPSN for a received PSN given rx_next and the bitmap; IBSEC_R_OK,
 * IBSEC_R_PSN_TOO_OLD, IBSEC_R_REPLAY or IBSEC_R_EPSN_EXHAUSTED.  Changes nothing. */
enum ibsec_reason ibsec_epsn_rx_check(const ibsec_ctx *c, uint32_t psn, uint64_t *epsn);
/* Open, after the tag verified: mark epsn seen, advance the window. */
void ibsec_epsn_rx_commit(ibsec_ctx *c, uint64_t epsn);
/* The 12-byte GCM IV: salt || EPSN with bit 63 = dir (big-endian). */
void ibsec_iv_build(const uint8_t salt[IBSEC_SALT_LEN], unsigned dir, uint64_t epsn,
                    uint8_t iv[IBSEC_GCM_IV_LEN]);

/* ---- packet numbers (ibsec_pn.c, wire-format.md §5.2) ------------------------- */

/* The pn nonce's IV: salt XOR (SSCI || PN), both big-endian (MACsec XPN's construction,
 * IEEE 802.1AEbw). */
void ibsec_iv_build_pn(const uint8_t salt[IBSEC_SALT_PN_LEN], uint32_t ssci, uint64_t pn,
                       uint8_t iv[IBSEC_GCM_IV_LEN]);
/* A window of w entries that has seen everything below first. */
void ibsec_window_init(ibsec_window *win, uint64_t first);
/* IBSEC_R_OK if v may be accepted, too_old if v < next - w, IBSEC_R_REPLAY if seen. */
enum ibsec_reason ibsec_window_check(const ibsec_window *win, unsigned w, uint64_t v,
                                     enum ibsec_reason too_old);
/* Mark v accepted (after the tag verified), sliding the window when v >= next. */
void ibsec_window_commit(ibsec_window *win, unsigned w, uint64_t v);

/* ---- packets (ibsec_seal.c, ibsec_open.c) -----------------------------------
 * in[0..in_len) is one frame on `link` (a 60-byte RoCEv2 frame may carry
 * Ethernet padding; it is not part of the packet and is not copied: outputs are
 * never padded, padding short frames is the Ethernet MAC's job).  out must
 * hold IBSEC_MAX_PKT bytes (out_cap); out may equal in.  On IBSEC_R_OK *out_len is the output length; on any other
 * reason the packet is dropped, out holds nothing useful and *out_len is 0.
 * Every call counts exactly one reason in e->count[op]; v (optional) tells
 * what happened. */

/* Transmit (wire-format.md §7).  The input's ICRC and VCRC bytes must be present
 * but their values are ignored: seal computes them. */
enum ibsec_reason ibsec_seal(ibsec_engine *e, enum ibsec_link link,
                             const uint8_t *in, size_t in_len,
                             uint8_t *out, size_t out_cap, size_t *out_len,
                             ibsec_verdict *v);

/* Receive (wire-format.md §8): checks in the documented order, restores the
 * exact plain packet with its ICRC and VCRC. */
enum ibsec_reason ibsec_open(ibsec_engine *e, enum ibsec_link link,
                             const uint8_t *in, size_t in_len,
                             uint8_t *out, size_t out_cap, size_t *out_len,
                             ibsec_verdict *v);

/* ---- frame helpers shared by seal and open (ibsec_frame.c) ----------------- */

/* GCM additional data for a parsed wire packet (wire-format.md §3): the masked
 * header bytes from the start of the ICRC coverage through the last ETH.
 * Returns its length (0 on error); out must hold IBSEC_MASKED_HDR_MAX. */
size_t ibsec_aad_headers(const uint8_t *buf, const struct ibsec_pkt *p, uint8_t *out, size_t cap);
/* Offset and length of "payload + pad", the GCM P of the modes (wire-format.md §3). */
size_t ibsec_payload_pad_off(const struct ibsec_pkt *p);
size_t ibsec_payload_pad_len(const struct ibsec_pkt *p);

/* Largest GCM additional data: masked headers plus (sth-pkt) payload and pad. */
#define IBSEC_AAD_MAX (IBSEC_MASKED_HDR_MAX + IBSEC_MAX_PAYLOAD + 3u)

/* The crypto step of a mode on a parsed wire packet whose BTH already carries the
 * security bits.  seal: encrypts P in place (icrc-mac, sth-aead) and writes
 * tag_len bytes of tag; open: verifies tag (constant time) and decrypts P in
 * place.  0 ok, -1 failure (open: P zeroed where it would have been decrypted). */
int ibsec_mode_seal(const ibsec_key_entry *k, const uint8_t iv[IBSEC_GCM_IV_LEN],
                    enum ibsec_mode mode, uint8_t *buf, const struct ibsec_pkt *p,
                    uint8_t *tag, size_t tag_len);
int ibsec_mode_open(const ibsec_key_entry *k, const uint8_t iv[IBSEC_GCM_IV_LEN],
                    enum ibsec_mode mode, uint8_t *buf, const struct ibsec_pkt *p,
                    const uint8_t *tag, size_t tag_len);

/* Count reason r for op, copy the verdict out, set *out_len (len on OK, else 0). */
enum ibsec_reason ibsec_account(ibsec_engine *e, enum ibsec_op op, enum ibsec_reason r,
                                const ibsec_verdict *vd, ibsec_verdict *v,
                                size_t len, size_t *out_len);

/* Parse a frame and leave Ethernet min-frame padding out: *p then describes
 * buf[0..p->end) exactly.  IBSEC_PKT_OK or the parse error. */
enum ibsec_pkt_err ibsec_frame_parse(const uint8_t *buf, size_t len, enum ibsec_link link,
                                     size_t extra_len, struct ibsec_pkt *p);

#endif /* IBSEC_IBSEC_H */
