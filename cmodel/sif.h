/*
 * sif.h — stateful ingress filtering (SIF) of P_Key violations in a switch,
 * the channel adapter's Bad P_Key trap and the subnet manager's reaction
 * (Lee & Kim, TPDS 2007, §5.3; Lee, Kim & Yum, §3.3).
 *
 * Why: a channel adapter checks the P_Key only on arrival, so a node flooding
 * packets with invalid keys loads every link on the way.  SIF filters such
 * packets at the switch port the attacker is attached to, and only while the
 * attack lasts:
 *
 *   1. A CA receives a packet whose P_Key does not match its P_Key table; it
 *      counts a P_Key violation and sends the SM a trap (IBA trap
 *      257, "Bad P_Key") carrying the invalid key and the packet's source.
 *   2. The SM finds the switch ingress port that source is attached to,
 *      writes the key into that port's Invalid_P_Key_Table and enables
 *      filtering there.
 *   3. While filtering is enabled the port drops packets whose P_Key is in the
 *      Invalid_P_Key_Table and counts each in its Ingress P_Key Violation
 *      Counter.  Each count restarts the quiet timer.
 *   4. When the quiet timer runs out (no violation for quiet_ticks), the port
 *      flushes the Invalid_P_Key_Table, resets the counter and disables
 *      filtering: no lookup is spent on later packets.
 *   5. If the Invalid_P_Key_Table would grow larger than the port's valid
 *      P_Key table (or its fixed capacity is reached), the port stops using
 *      it and looks packets up in the valid table instead: only packets with
 *      valid keys pass (TPDS §5.3, last paragraph), which also ends trap
 *      storms aimed at the SM.  The violation counter and the quiet timer work
 *      as before, and the flush returns the port to normal operation.
 *
 * Hardware shape (docs/availability.md §1.2 lists the registers): per port a
 * valid table of IBSEC_SIF_VALID_MAX entries, an invalid table of
 * IBSEC_SIF_INVALID_MAX entries, two mode bits (filtering, use_valid_table),
 * a 32-bit violation counter and a 32-bit quiet down-counter.  One decision
 * per packet (ibsec_sif_ingress) from the header bytes; one timer step per
 * clock or per time unit (ibsec_sif_tick); SM writes through
 * ibsec_sif_install_invalid.  Time is in abstract ticks (clock cycles in RTL).
 */
#ifndef IBSEC_SIF_H
#define IBSEC_SIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sw_hdr.h"

#define IBSEC_SIF_VALID_MAX   32u /* P_Key table entries per port in this model (IBA allows up to the port's PartitionCap) */
#define IBSEC_SIF_INVALID_MAX 16u /* Invalid_P_Key_Table entries per port (TPDS §5.3) */
#define IBSEC_PKEY_FULL_MEMBER 0x8000u /* IBA §10.9 (partitioning): P_Key bit 15, membership type */
#define IBSEC_PKEY_PARTITION   0x7FFFu /* IBA §10.9 (partitioning): P_Key bits 14:0, the partition */

/* Outcome of one packet at a SIF ingress port. */
enum ibsec_sif_out {
    IBSEC_SIF_FORWARD = 0,            /* filtering off, or the key passed the lookup */
    IBSEC_SIF_DROP_INVALID_PKEY,      /* filtering on, key in the Invalid_P_Key_Table */
    IBSEC_SIF_DROP_NOT_VALID_PKEY,    /* filtering on in fallback, key matches no valid entry */
    IBSEC_SIF_DROP_TRUNCATED,         /* headers shorter than LRH.LNH announces */
    IBSEC_SIF_DROP_BAD_LNH,           /* raw / IP non-IBA packet: no P_Key to check */
    IBSEC_SIF_DROP_BAD_LVER,          /* LRH.LVer != 0 */
    IBSEC_SIF_DROP_BAD_GRH,           /* GRH.IPVer != 6 or NxtHdr != 0x1B */
    IBSEC_SIF_OUT_COUNT
};

/* Outcome of an SM write into an Invalid_P_Key_Table. */
enum ibsec_sif_install {
    IBSEC_SIF_INSTALLED = 0,          /* key added, filtering enabled */
    IBSEC_SIF_ALREADY_PRESENT,        /* key already filtered; timer restarted */
    IBSEC_SIF_FALLBACK_VALID,         /* table would outgrow the valid table: fallback */
    IBSEC_SIF_FALLBACK_TABLE_FULL,    /* fixed capacity reached: fallback */
    IBSEC_SIF_IN_FALLBACK,            /* port already in fallback; timer restarted */
    IBSEC_SIF_INSTALL_COUNT
};

/* One switch ingress port. */
struct ibsec_sif_port {
    /* configuration, written by the SM */
    uint16_t valid[IBSEC_SIF_VALID_MAX]; /* the port's P_Key table */
    unsigned n_valid;
    uint32_t quiet_ticks;                /* quiet time before flush-and-disable */
    /* state */
    bool     filtering;                  /* filtering enabled */
    bool     use_valid_table;            /* fallback: look up the valid table */
    uint16_t invalid[IBSEC_SIF_INVALID_MAX];
    unsigned n_invalid;
    uint32_t violations;                 /* Ingress P_Key Violation Counter */
    uint32_t quiet_left;                 /* ticks left before the flush */
    /* statistics (not architectural) */
    uint64_t out_count[IBSEC_SIF_OUT_COUNT];
    uint64_t lookups;                    /* table lookups spent: SIF's cost */
    uint64_t flushes;                    /* automatic flush-and-disable events */
};

const char *ibsec_sif_out_name(enum ibsec_sif_out o);         /* "forward", "drop_invalid_pkey", ... */
const char *ibsec_sif_install_name(enum ibsec_sif_install i); /* "installed", ... */

/* Reset a port: filtering off, tables empty, counters zero. quiet_ticks >= 1. */
void ibsec_sif_port_init(struct ibsec_sif_port *p, uint32_t quiet_ticks);

/* Load the port's valid P_Key table.  Returns false (table unchanged) if
 * n > IBSEC_SIF_VALID_MAX. */
bool ibsec_sif_set_valid(struct ibsec_sif_port *p, const uint16_t *keys, unsigned n);

/* IBA §10.9 P_Key match: same partition (bits 14:0), at least one of the
 * two a full member, and the partition not 0 (the invalid P_Key). */
bool ibsec_pkey_match(uint16_t a, uint16_t b);

/* True if `pkey` matches an entry of the table keys[0..n). */
bool ibsec_pkey_in_table(const uint16_t *keys, unsigned n, uint16_t pkey);

/* The per-packet decision on buf[0..len) (native IBA, starting at the LRH).
 * Updates the counters and restarts the quiet timer on a P_Key drop. */
enum ibsec_sif_out ibsec_sif_ingress(struct ibsec_sif_port *p, const uint8_t *buf, size_t len);

/* Advance the port's quiet timer by `ticks`; flushes and disables filtering
 * when it runs out. */
void ibsec_sif_tick(struct ibsec_sif_port *p, uint32_t ticks);

/* SM write: filter `pkey` at this port (TPDS §5.3). */
enum ibsec_sif_install ibsec_sif_install_invalid(struct ibsec_sif_port *p, uint16_t pkey);

/* ---- channel adapter side: P_Key check and Bad P_Key trap ------------------ */

#define IBSEC_CA_PKEY_MAX 32u /* P_Key table entries of a CA port in this model */

struct ibsec_ca_pkeys {
    uint16_t keys[IBSEC_CA_PKEY_MAX];
    unsigned n;
    uint32_t violations;  /* PortInfo P_KeyViolations counter of the CA port (IBA ch. 14) */
};

/* The trap a CA sends on a P_Key violation (IBA trap 257, Bad P_Key, carries the
 * LIDs, GIDs and the P_Key; TPDS §5.3 asks for the key and the source). */
struct ibsec_sif_trap {
    uint16_t pkey;        /* the invalid P_Key */
    uint16_t slid;        /* LRH.SLID: the source as the packet claims it */
    bool     has_sgid;
    uint8_t  sgid[16];    /* GRH.SGID when present */
    bool     traced;      /* the receiver identified the true source (ddpm.h) */
    uint16_t traced_lid;  /* LID of that source, when traced */
};

/* Check a received packet's P_Key against the CA's table.  Returns true if
 * it matches; otherwise counts a violation, fills *trap and returns false. */
bool ibsec_ca_check_pkey(struct ibsec_ca_pkeys *ca, const struct ibsec_sw_hdr *h,
                         struct ibsec_sif_trap *trap);

/* ---- subnet manager side -------------------------------------------------- */

#define IBSEC_SM_MAX_LID 4096u /* LIDs the model's SM maps (unicast LIDs start at 1) */

enum ibsec_sm_out {
    IBSEC_SM_ACTED = 0,        /* key written to the source's ingress port (see install) */
    IBSEC_SM_UNKNOWN_SOURCE,   /* no ingress port known for the source LID */
    IBSEC_SM_OUT_COUNT
};

/* The SM's view of the fabric: the switch ingress port each LID is attached to. */
struct ibsec_sm {
    struct ibsec_sif_port *edge[IBSEC_SM_MAX_LID];
    uint64_t traps;
};

const char *ibsec_sm_out_name(enum ibsec_sm_out o);

/* Record that `lid` is attached to switch ingress port `port`.  Returns false
 * for LID 0 or a LID >= IBSEC_SM_MAX_LID. */
bool ibsec_sm_attach(struct ibsec_sm *sm, uint16_t lid, struct ibsec_sif_port *port);

/* React to a trap: locate the ingress port of the traced source if the trap
 * has one, else of LRH.SLID, and install the key there (*inst gets the
 * install outcome when the result is IBSEC_SM_ACTED). */
enum ibsec_sm_out ibsec_sm_handle_trap(struct ibsec_sm *sm, const struct ibsec_sif_trap *t,
                                       enum ibsec_sif_install *inst);

#endif /* IBSEC_SIF_H */
