/*
 * tb_traffic.h — the traffic of the packet-engine bench: the endpoint configuration
 * (keys and contexts of endpoint A; the open instance holds its peer B), plain packets
 * drawn with the model's packet generator (cmodel/ib_pktgen.h), and the damaged frames
 * of the bad-input regression. Every expected result is computed later by the model
 * (ibsec_seal / ibsec_open); this file only chooses bytes.
 */
#ifndef TB_TRAFFIC_H
#define TB_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibsec.h"
#include "rng.h"

/* Engine tables of the bench (tb_engine.v is built with the same values). */
#ifndef TB_KEY_SLOTS
#define TB_KEY_SLOTS 8
#endif
#ifndef TB_CTX_SLOTS
#define TB_CTX_SLOTS 16
#endif

/* Largest frame the bench sends: a maximal packet plus junk behind it (over-long). */
#define TB_OVERLONG_MAX 320u
/* Huge RoCEv2 frames: around 8191 bytes, the largest length a 13-bit field holds, with the
 * IP and UDP lengths ending at byte 8191 or at the frame's end (the engine must count the
 * frame length past 13 bits to give the model's reason). */
#define TB_HUGE_MIN     8100u
#define TB_HUGE_MAX     8300u
#define TB_MAX_FRAME    TB_HUGE_MAX
/* Earlier frames kept for replays and nonce reuse. */
#define TB_HISTORY      64u

/* What a frame is: the kind of the bad-input regression it belongs to. */
enum tb_kind {
    TB_K_NORMAL = 0,   /* a plain packet (seal) / a genuine sealed packet (open) */
    TB_K_TAMPER,       /* one bit flipped anywhere, CRCs left as they are */
    TB_K_FORGE,        /* one bit flipped before the CRC fields, CRCs recomputed */
    TB_K_BADTAG,       /* one bit of the MAC flipped, CRCs recomputed */
    TB_K_REPLAY,       /* an earlier genuine frame again */
    TB_K_REUSE,        /* seal: an earlier plain packet again (nonce reuse) */
    TB_K_TRUNCATED,    /* cut short anywhere */
    TB_K_EXTENDED,     /* random bytes appended (length fields disagree) */
    TB_K_OVERLONG,     /* longer than any packet: payload > 4096, junk past the maximum, or a
                          huge RoCEv2 frame of 8100..8300 bytes */
    TB_K_BAD_OPCODE,   /* BTH OpCode replaced by an unknown one, CRCs recomputed */
    TB_K_BAD_SECBITS,  /* BTH byte 8 bits 6:0 set (seal) / a reserved combination (open) */
    TB_K_BAD_LENGTH,   /* a length field changed, CRCs recomputed */
    TB_K_DOWNGRADE,    /* open: a plain packet of a secured context */
    TB_K_BAD_ICRC,     /* one bit of the ICRC field flipped, the VCRC recomputed (native):
                          bad_icrc in every mode but icrc-mac (there the field is the tag) */
    TB_K_COUNT
};
const char *tb_kind_name(enum tb_kind k);

/* The configuration of one run: endpoint A as software wrote it. */
struct tb_config {
    ibsec_engine a;             /* keys, contexts (configured state), allow_plain, mask_mf */
};

/* The generator. */
struct tb_gen {
    ibsec_rng rng;
    int       lanes;
    bool      full_lengths;     /* payload lengths 0..4096 uniform-ish (regress) or small-biased */
    bool      huge;             /* huge RoCEv2 frames among the over-long ones (default on) */
    bool      no_reserved;      /* free DestQPs never the reserved ones (tb_gen_fixed) */
    ibsec_engine tx;            /* endpoint A sealing the open instance's traffic */
    uint64_t  next_epsn[TB_CTX_SLOTS];
    /* earlier genuine frames: sealed (for replays) and plain (for nonce reuse) */
    uint8_t  *hist_wire[TB_HISTORY];  size_t hist_wire_len[TB_HISTORY];  int hist_wire_link[TB_HISTORY];
    unsigned  n_hist_wire;
    uint8_t  *hist_plain[TB_HISTORY]; size_t hist_plain_len[TB_HISTORY]; int hist_plain_link[TB_HISTORY];
    unsigned  n_hist_plain;
};

/* A frame handed to one instance. */
struct tb_gen_frame {
    enum tb_kind kind;
    int      link;              /* enum ibsec_link */
    int      mode;              /* mode the generator aimed at (tallies) */
    size_t   len;
    uint8_t  bytes[TB_MAX_FRAME];
};

/* Fill *cfg with a fresh random configuration of endpoint A (lanes for the GCM keys):
 * contexts 0..13 every secured mode x STH size, on AES-128 and AES-256 keys (key slot
 * i mod TB_KEY_SLOTS, so each key serves at most two contexts), 14 and 15 mode none; QP
 * and P_Key selectors; start EPSNs below multiples of 2^24 (the PSN wraps) and, with
 * `near_end`, one context 3000 EPSNs from 2^63 (epsn_exhausted). 0 ok, -1 (message). */
int  tb_config_make(struct tb_config *cfg, ibsec_rng *r, int lanes, bool near_end);
/* Build engine e (not initialised) from the configuration: what a reset and a
 * re-configuration give. peer: the open side (ibsec_engine_make_peer). 0 / -1. */
int  tb_config_load(const struct tb_config *cfg, ibsec_engine *e, bool peer);
void tb_config_free(struct tb_config *cfg);

int  tb_gen_init(struct tb_gen *g, uint64_t seed, const struct tb_config *cfg, int lanes,
                 bool full_lengths);
void tb_gen_free(struct tb_gen *g);

/* One plain packet whose context has mode `mode` (mode none: a mode-none context or no
 * context at all). Also seals it with the generator's endpoint A into *wire (kind
 * TB_K_NORMAL; wire->len 0 if A refused it). */
void tb_gen_plain(struct tb_gen *g, int mode, struct tb_gen_frame *plain,
                  struct tb_gen_frame *wire);
/* One packet of the first context of `mode`, of the given shape, opcode and payload
 * length (the benchmark's packets), and A's sealed copy. 0, or -1 if impossible. */
int  tb_gen_fixed(struct tb_gen *g, int mode, enum ibsec_shape shape, uint8_t opcode,
                  size_t payload, struct tb_gen_frame *plain, struct tb_gen_frame *wire);
/* A damaged copy for the seal instance (kinds REUSE, TRUNCATED, EXTENDED, OVERLONG,
 * BAD_OPCODE, BAD_SECBITS, BAD_LENGTH), from the plain packet p. */
void tb_gen_bad_plain(struct tb_gen *g, enum tb_kind kind, const struct tb_gen_frame *p,
                      struct tb_gen_frame *out);
/* A damaged copy for the open instance (every kind but NORMAL and REUSE), from the
 * genuine sealed frame w and its plain packet p. */
void tb_gen_bad_wire(struct tb_gen *g, enum tb_kind kind, const struct tb_gen_frame *w,
                     const struct tb_gen_frame *p, struct tb_gen_frame *out);
/* Replace (or, len 0, clear) key `slot` in the generator's endpoint A. */
void tb_gen_set_key(struct tb_gen *g, unsigned slot, const uint8_t *key, size_t len,
                    const uint8_t salt[IBSEC_SALT_LEN]);
/* Plain packet length distribution in words, for the logs. */
const char *tb_gen_length_mix(const struct tb_gen *g);

#endif
