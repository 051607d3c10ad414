/*
 * ib_pktgen.h — deterministic random PLAIN packets (security mode none) for
 * tests and the vector generator.
 *
 * Every header field is drawn from the caller's ibsec_rng, so a seed names a
 * packet sequence.  Fields that are variant (masked in the ICRC: LRH VL, GRH /
 * IPv6 TClass, FlowLabel, HopLmt, IPv4 TOS and TTL, BTH FECN/BECN) are random
 * too, so that masking is exercised.  Reserved fields are zero: LRH Resv2/Resv5,
 * BTH Resv6a and Resv7 (BTH byte 8 bits 6:0 carry the security mode, which is
 * "none" here), TVer and LVer 0.
 *
 * Payload length: for FIRST and MIDDLE packets one PMTU drawn from
 * {256, 512, 1024, 2048, 4096} (IBA §9.7: they carry exactly one PMTU); for
 * LAST and ONLY packets 0..4096 (weighted towards small and boundary lengths);
 * 0 for opcodes without payload; 16 for CNP.  PadCnt follows from the length.
 */
#ifndef IBSEC_IB_PKTGEN_H
#define IBSEC_IB_PKTGEN_H

#include <stddef.h>
#include <stdint.h>

#include "ib_pkt.h"
#include "rng.h"

/* What to generate. */
struct ibsec_pktgen_opts {
    enum ibsec_shape shape;
    int   opcode;       /* a valid BTH opcode, or -1: any valid opcode for the shape
                           (CNP only on RoCEv2) */
    int   payload_len;  /* -1: random as above; else this length (must be legal for
                           the opcode: 0 if it has no payload, a multiple of 4 for
                           FIRST/MIDDLE, 16 for CNP, <= 4096) */
    size_t extra_len;   /* extra header bytes to reserve (0 for plain packets) */
};

/* Fill opts with defaults: the shape, random opcode, random length, no extra. */
void ibsec_pktgen_default_opts(struct ibsec_pktgen_opts *o, enum ibsec_shape shape);

/* Draw a random valid opcode for a shape (CNP only for RoCEv2 shapes). */
uint8_t ibsec_pktgen_random_opcode(ibsec_rng *r, enum ibsec_shape shape);

/* Draw a random payload length legal for the opcode, as described above. */
size_t ibsec_pktgen_random_payload_len(ibsec_rng *r, const struct ibsec_opcode_info *op);

/* Fill *d with a random description per *o; the payload bytes are drawn into
 * payload_buf (at least IBSEC_MAX_PAYLOAD bytes), to which d->payload points.
 * Returns IBSEC_PKT_OK or IBSEC_PKT_ERR_BAD_ARG. */
enum ibsec_pkt_err ibsec_pktgen_desc(ibsec_rng *r, const struct ibsec_pktgen_opts *o,
                                     struct ibsec_pkt_desc *d, uint8_t *payload_buf);

/* Generate and build one packet into buf[0..cap) (cap >= IBSEC_MAX_PKT is
 * always enough): returns IBSEC_PKT_OK, *len, and the parsed packet in *out
 * (optional).  Valid ICRC and VCRC. */
enum ibsec_pkt_err ibsec_pktgen(ibsec_rng *r, const struct ibsec_pktgen_opts *o,
                                uint8_t *buf, size_t cap, size_t *len, struct ibsec_pkt *out);

/* RoCEv2 (link IBSEC_LINK_ROCE): write a random non-zero UDP checksum into the packet
 * in buf[0..len) (UDP bytes 6-7, right before the BTH), as a sender's stack or a device
 * on the path may; the field is masked in the ICRC and the tag, so the packet stays
 * valid.  Native IBA, or a RoCEv2 frame whose BTH is not found: nothing changes.  The
 * builder itself always writes 0, so that its output does not depend on this. */
void ibsec_pktgen_udp_csum(ibsec_rng *r, uint8_t *buf, size_t len, enum ibsec_link link);

#endif /* IBSEC_IB_PKTGEN_H */
