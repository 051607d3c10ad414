/*
 * cm_wire.h — a CM MAD as the InfiniBand packet that carries it (IBA §13.5.1:
 * GSI MADs travel as UD SEND only on QP1): LRH (LNH = IBA local) + BTH (opcode
 * UD_SEND_ONLY 0x64, DestQP 1) + DETH (Q_Key 0x80010000, SrcQP 1) + the 256-byte
 * MAD + ICRC + VCRC, built with the model's packet builder (ib_pkt.h), so the CRCs
 * are the model's checked ones (cmodel/crc.c).  Written to pcap as
 * LINKTYPE_INFINIBAND (247), Wireshark's "infiniband" dissector decodes the CM
 * fields.
 */
#ifndef IBSEC_CM_WIRE_H
#define IBSEC_CM_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "ib_cm.h"
#include "pcap.h"

#define CM_WIRE_QP1        1u
#define CM_WIRE_PKEY       0xFFFFu  /* default partition, full member */
#define CM_WIRE_PKT_LEN    (8u + 12u + 8u + IB_MAD_LEN + 4u + 2u)  /* 290 */

/* Build the packet of one MAD from LID slid to LID dlid with BTH PSN psn.
 * 0 and *len, or -1 (buffer too small). */
int cm_wire_packet(const uint8_t mad[IB_MAD_LEN], uint16_t slid, uint16_t dlid, uint32_t psn,
                   uint8_t *buf, size_t cap, size_t *len);

/* Append the packet of one MAD to an open pcap writer; ts in microseconds. */
int cm_wire_pcap(ibsec_pcap_writer *w, const uint8_t mad[IB_MAD_LEN], uint16_t slid,
                 uint16_t dlid, uint32_t psn, uint64_t ts_us);

#endif /* IBSEC_CM_WIRE_H */
