/*
 * crc.h — the two CRCs of an InfiniBand packet (IBA Vol. 1 §7.8) and the
 * RoCEv2 ICRC (Annex A17.4.x), plus the masked header string they share with
 * the security layer's GCM additional data.
 *
 * CRC-32 (ICRC, §7.8.1): the Ethernet CRC.  Polynomial 0x04C11DB7 processed
 *   reflected (LSB of each byte first, i.e. the register shifts right with the
 *   reversed polynomial 0xEDB88320), register initialised to all ones, result
 *   complemented.  Check value over ASCII "123456789": 0xCBF43926.
 * CRC-16 (VCRC, §7.8.2): polynomial 0x100B, same conventions (reflected, i.e.
 *   reversed polynomial 0xD008; init 0xFFFF; final xor 0xFFFF).
 * Both are put on the wire least-significant byte first: value v is sent as
 *   v & 0xFF, (v >> 8) & 0xFF, ...
 *
 * The "register" functions (ibsec_crc32_update, ibsec_crc16_update) take and
 * return the raw shift register, so a CRC can be computed piecewise:
 *   r = IBSEC_CRC32_INIT; r = update(r, a, n); r = update(r, b, m);
 *   crc = r ^ IBSEC_CRC32_XOROUT.
 * The bitwise functions are the reference; the table-driven ones are the fast
 * path and are checked against them in test_crc.
 *
 * ICRC coverage and variant fields (replaced by ones before the CRC):
 *   native, no GRH  : LRH .. byte before the ICRC; LRH.VL (byte 0 bits 7:4)
 *   native, GRH     : the whole LRH (8 bytes), GRH TClass, FlowLabel, HopLmt;
 *                     with p->mask_mf also the DDPM Marking Field (GRH byte 25
 *                     bits 5:0, bytes 26..29; docs/availability.md §2.4)
 *   RoCEv2          : 8 bytes of ones standing for the LRH, then IP .. byte
 *                     before the ICRC; IPv4 TOS (DSCP+ECN), TTL, header
 *                     checksum; IPv6 traffic class, flow label, hop limit;
 *                     UDP checksum
 *   always          : BTH byte 4 (FECN, BECN, Resv6a)
 * The Ethernet header of RoCEv2 is not covered.
 * VCRC coverage: LRH .. last ICRC byte (native only; nothing masked).
 */
#ifndef IBSEC_CRC_H
#define IBSEC_CRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ib_pkt.h"

#define IBSEC_CRC32_POLY_REFLECTED 0xEDB88320u /* 0x04C11DB7 bit-reversed */
#define IBSEC_CRC32_INIT           0xFFFFFFFFu
#define IBSEC_CRC32_XOROUT         0xFFFFFFFFu
#define IBSEC_CRC16_POLY_REFLECTED 0xD008u     /* 0x100B bit-reversed */
#define IBSEC_CRC16_INIT           0xFFFFu
#define IBSEC_CRC16_XOROUT         0xFFFFu
#define IBSEC_ROCE_LRH_STANDIN     8u          /* bytes of ones standing for the LRH (A17) */
/* Longest masked header string: 8 + IPv6 40 + UDP 8 + BTH 12 + ETHs 32 + extra 64. */
#define IBSEC_MASKED_HDR_MAX       (IBSEC_ROCE_LRH_STANDIN + IBSEC_IPV6_LEN + IBSEC_UDP_LEN + \
                                    IBSEC_BTH_LEN + 32u + IBSEC_MAX_EXTRA)

/* ---- plain CRCs ------------------------------------------------------------ */

/* Advance a CRC-32 register over n bytes: bitwise reference / table-driven. */
uint32_t ibsec_crc32_update_bitwise(uint32_t reg, const uint8_t *p, size_t n);
uint32_t ibsec_crc32_update(uint32_t reg, const uint8_t *p, size_t n);
/* Complete CRC-32 of a byte string (init, update, final xor). */
uint32_t ibsec_crc32(const uint8_t *p, size_t n);

/* Advance a CRC-16 (VCRC) register over n bytes: bitwise reference / table. */
uint16_t ibsec_crc16_update_bitwise(uint16_t reg, const uint8_t *p, size_t n);
uint16_t ibsec_crc16_update(uint16_t reg, const uint8_t *p, size_t n);
/* Complete VCRC-style CRC-16 of a byte string. */
uint16_t ibsec_crc16(const uint8_t *p, size_t n);

/* ---- masked header string (ICRC input; GCM AAD in the security layer) ------ */

/* Write to out[0..cap) the ICRC input from its start up to (not including)
 * buffer offset end_off, with the variant fields replaced by ones: for RoCEv2
 * the 8 bytes of ones, then buf[ip_off .. end_off); for native buf[0 ..
 * end_off).  end_off must lie in [bth_off + IBSEC_BTH_LEN, icrc_off]; bytes past
 * the BTH are copied unchanged.  Typical end_off: p->eths_end (headers only,
 * the AAD of wire-format.md §3) or p->payload_off (headers and extra).
 * Returns the number of bytes written, or 0 if end_off is out of range or cap
 * is too small. */
size_t ibsec_icrc_masked_bytes(const uint8_t *buf, const struct ibsec_pkt *p, size_t end_off,
                               uint8_t *out, size_t cap);

/* ---- ICRC / VCRC of a parsed packet ---------------------------------------- */

/* ICRC as it should be: CRC-32 over the masked coverage up to p->icrc_off. */
uint32_t ibsec_icrc_compute(const uint8_t *buf, const struct ibsec_pkt *p);
/* The value in the ICRC field (LSB first) / write a value there. */
uint32_t ibsec_icrc_get(const uint8_t *buf, const struct ibsec_pkt *p);
void     ibsec_icrc_put(uint8_t *buf, const struct ibsec_pkt *p, uint32_t icrc);

/* VCRC as it should be: CRC-16 over buf[0 .. p->vcrc_off) (native only; 0 for
 * RoCEv2). */
uint16_t ibsec_vcrc_compute(const uint8_t *buf, const struct ibsec_pkt *p);
/* The value in the VCRC field (LSB first) / write a value there (native only;
 * get returns 0 and put does nothing for RoCEv2). */
uint16_t ibsec_vcrc_get(const uint8_t *buf, const struct ibsec_pkt *p);
void     ibsec_vcrc_put(uint8_t *buf, const struct ibsec_pkt *p, uint16_t vcrc);

/* Compute and write the ICRC, then (native) the VCRC, which covers the ICRC. */
void ibsec_pkt_put_crcs(uint8_t *buf, const struct ibsec_pkt *p);
/* Recompute only the VCRC (after the ICRC field was replaced by a MAC). */
void ibsec_pkt_put_vcrc(uint8_t *buf, const struct ibsec_pkt *p);

/* Check a received packet: the VCRC first (link level, native only), then the
 * ICRC.  Returns IBSEC_PKT_OK, IBSEC_PKT_ERR_BAD_VCRC or IBSEC_PKT_ERR_BAD_ICRC. */
enum ibsec_pkt_err ibsec_pkt_check_crcs(const uint8_t *buf, const struct ibsec_pkt *p);
/* Check only the VCRC (for icrc-mac mode, where the ICRC field holds a tag). */
bool ibsec_vcrc_ok(const uint8_t *buf, const struct ibsec_pkt *p);

#endif /* IBSEC_CRC_H */
