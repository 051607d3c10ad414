/*
 * cm_wire.c — CM MADs as UD packets on QP1 (cm_wire.h).
 */
#include "cm_wire.h"

#include <string.h>

#include "ib_pkt.h"

#define UD_SEND_ONLY 0x64u  /* IBA Table 35: UD SEND only, with DETH */

int cm_wire_packet(const uint8_t mad[IB_MAD_LEN], uint16_t slid, uint16_t dlid, uint32_t psn,
                   uint8_t *buf, size_t cap, size_t *len)
{
    struct ibsec_pkt_desc d;

    memset(&d, 0, sizeof d);
    d.shape = IBSEC_SHAPE_IB_LOCAL;
    d.lrh.dlid = dlid;
    d.lrh.slid = slid;
    d.bth.opcode = UD_SEND_ONLY;
    d.bth.pkey = CM_WIRE_PKEY;
    d.bth.destqp = CM_WIRE_QP1;
    d.bth.psn = psn & 0xFFFFFFu;
    d.eths.deth_qkey = IB_QP1_QKEY;
    d.eths.deth_srcqp = CM_WIRE_QP1;
    d.payload = mad;
    d.payload_len = IB_MAD_LEN;
    return ibsec_pkt_build(&d, buf, cap, len, NULL) == IBSEC_PKT_OK ? 0 : -1;
}

int cm_wire_pcap(ibsec_pcap_writer *w, const uint8_t mad[IB_MAD_LEN], uint16_t slid,
                 uint16_t dlid, uint32_t psn, uint64_t ts_us)
{
    uint8_t pkt[CM_WIRE_PKT_LEN + 16];
    size_t len = 0;

    if (cm_wire_packet(mad, slid, dlid, psn, pkt, sizeof pkt, &len) != 0)
        return -1;
    return ibsec_pcap_write(w, pkt, len, (uint32_t)(ts_us / 1000000u), (uint32_t)(ts_us % 1000000u));
}
