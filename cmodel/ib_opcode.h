/*
 * ib_opcode.h — the BTH OpCode table (IBA Vol. 1 rel. 1.4, §9.2 "Base Transport
 * Header", Table "OpCode field"; §9.3 extended transport headers).
 *
 * The 8-bit BTH OpCode is split into a transport class (bits 7:5) and a message
 * type (bits 4:0).  Classes handled here:
 *
 *   000 RC  Reliable Connection       0x00-0x1F
 *   001 UC  Unreliable Connection     0x20-0x3F
 *   010 RD  Reliable Datagram         0x40-0x5F
 *   011 UD  Unreliable Datagram       0x60-0x7F
 *   100 CNP (RoCEv2 Annex A17 congestion notification packet, 0x81 only)
 *   101 XRC eXtended Reliable Connection (IBA Vol. 1 Annex A14) 0xA0-0xBF
 *
 * Opcodes the table does not list (reserved, manufacturer specific 0xC0-0xFF,
 * and the IBA 1.5 memory-placement extensions FLUSH/ATOMIC WRITE whose FETH is
 * outside this model) are unknown and rejected by the parser.
 *
 * For every valid opcode the table gives the extended transport headers (ETHs)
 * it carries, in wire order, whether it carries a payload, and the packet's
 * position in its message (first / middle / last / only), from which the
 * legality of a pad count follows (see ibsec_opcode_pad_allowed()).
 */
#ifndef IBSEC_IB_OPCODE_H
#define IBSEC_IB_OPCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Extended transport headers, IBA Vol. 1 §9.3.  The enum order is the order in
 * which they appear on the wire when several are present
 * (RDETH, DETH, XRCETH, RETH, AtomicETH, AETH, AtomicAckETH, ImmDt, IETH). */
enum ibsec_eth {
    IBSEC_ETH_RDETH = 0,     /* §9.3.1 Reliable Datagram ETH:  4 B (Resv8, EE-Context 24) */
    IBSEC_ETH_DETH,          /* §9.3.2 Datagram ETH:           8 B (Q_Key 32, Resv8, SrcQP 24) */
    IBSEC_ETH_XRCETH,        /* Annex A14 XRC ETH:             4 B (Resv8, XRCSRQ 24) */
    IBSEC_ETH_RETH,          /* §9.3.3 RDMA ETH:              16 B (VA 64, R_Key 32, DMALen 32) */
    IBSEC_ETH_ATOMICETH,     /* §9.3.4 Atomic ETH:            28 B (VA 64, R_Key 32, SwapDt 64, CmpDt 64) */
    IBSEC_ETH_AETH,          /* §9.3.5 ACK ETH:                4 B (Syndrome 8, MSN 24) */
    IBSEC_ETH_ATOMICACKETH,  /* §9.3.6 Atomic ACK ETH:         8 B (OrigRemDt 64) */
    IBSEC_ETH_IMMDT,         /* §9.3.7 Immediate data:         4 B */
    IBSEC_ETH_IETH,          /* §9.3.8 Invalidate ETH:         4 B (R_Key 32) */
    IBSEC_ETH_COUNT
};

/* Position of a packet within its message (IBA Vol. 1 §9.2 opcode names). */
enum ibsec_pos {
    IBSEC_POS_NONE = 0,  /* single-packet operations with no "first/last" in the name
                            (RDMA READ request, ACK, atomics, RESYNC, CNP) */
    IBSEC_POS_FIRST,
    IBSEC_POS_MIDDLE,
    IBSEC_POS_LAST,
    IBSEC_POS_ONLY
};

/* Transport class, BTH OpCode bits 7:5. */
enum ibsec_tclass {
    IBSEC_TC_RC  = 0,
    IBSEC_TC_UC  = 1,
    IBSEC_TC_RD  = 2,
    IBSEC_TC_UD  = 3,
    IBSEC_TC_CNP = 4,
    IBSEC_TC_XRC = 5
};

/* Maximum number of ETHs any opcode carries (RD RDMA WRITE Only with Immediate:
 * RDETH, DETH, RETH, ImmDt). */
#define IBSEC_OPCODE_MAX_ETHS 4

/* One row of the OpCode table. */
struct ibsec_opcode_info {
    uint8_t        opcode;        /* BTH OpCode value */
    const char    *name;          /* e.g. "RC_SEND_ONLY_WITH_IMMEDIATE" */
    enum ibsec_tclass tclass;     /* opcode bits 7:5 */
    enum ibsec_pos pos;           /* first / middle / last / only / none */
    uint8_t        n_eths;        /* number of entries used in eths[] */
    enum ibsec_eth eths[IBSEC_OPCODE_MAX_ETHS]; /* ETHs after the BTH, wire order */
    uint8_t        eth_len;       /* sum of the ETH lengths in bytes */
    bool           has_payload;   /* opcode carries a (possibly empty) payload */
    uint16_t       fixed_payload; /* nonzero: payload must be exactly this many
                                     bytes (CNP: 16 reserved bytes, Annex A17) */
};

/* Length in bytes of one ETH (IBA Vol. 1 §9.3); 0 for an invalid value. */
size_t ibsec_eth_len(enum ibsec_eth e);

/* Name of an ETH ("RETH", ...); "?" for an invalid value. */
const char *ibsec_eth_name(enum ibsec_eth e);

/* The table row for a BTH OpCode, or NULL if the opcode is reserved/unknown. */
const struct ibsec_opcode_info *ibsec_opcode_lookup(uint8_t opcode);

/* Opcode name, or "UNKNOWN" for a reserved opcode. */
const char *ibsec_opcode_name(uint8_t opcode);

/* true if the opcode carries the given ETH. */
bool ibsec_opcode_has_eth(const struct ibsec_opcode_info *op, enum ibsec_eth e);

/* Byte offset of ETH e from the end of the BTH, or -1 if the opcode does not
 * carry it. */
int ibsec_opcode_eth_offset(const struct ibsec_opcode_info *op, enum ibsec_eth e);

/* May a packet of this opcode have a nonzero BTH PadCnt?  IBA Vol. 1 §9.2
 * (PadCnt) with §9.7.x/§9.8 packet sizing: pad bytes exist only to round the
 * payload of the packet that ends a message up to a 4-byte multiple.  First and
 * middle packets carry exactly one PMTU (a multiple of 4), and packets without a
 * payload carry none, so PadCnt must be 0 on them.  True for LAST and ONLY
 * packets that carry a payload. */
bool ibsec_opcode_pad_allowed(const struct ibsec_opcode_info *op);

/* Number of valid opcodes and indexed access (0..count-1), for tests and
 * generators that want to enumerate the table. */
size_t ibsec_opcode_count(void);
const struct ibsec_opcode_info *ibsec_opcode_at(size_t i);

#endif /* IBSEC_IB_OPCODE_H */
