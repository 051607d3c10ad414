/*
 * sw_hdr.h — the header view of a native InfiniBand packet as a switch ingress
 * port sees it: the LRH, the GRH if LRH.LNH says one follows, and the BTH P_Key.
 *
 * A switch does not parse the transport layer.  It reads fixed offsets of the
 * first LRH + GRH + BTH bytes (at most 8 + 40 + 12 = 60 bytes) and forwards the
 * rest.  This view checks only what the switch-side blocks read (sif.h,
 * ddpm.h), each failure with its own name, so that an RTL parser with the same
 * checks makes the same decision:
 *   truncated : fewer bytes than the headers the LNH announces
 *   bad_lnh   : LRH.LNH raw (0) or IP non-IBA (1): no BTH, no P_Key (IBA §7.7.6)
 *   bad_lver  : LRH.LVer != 0 (IBA §7.7.3)
 *   bad_grh   : GRH.IPVer != 6 or GRH.NxtHdr != 0x1B (IBA §8.3.1, §8.3.6)
 * LRH.PktLen, the CRCs and the opcode are the link and transport layers'
 * business and are not checked here.
 */
#ifndef IBSEC_SW_HDR_H
#define IBSEC_SW_HDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ib_pkt.h"

enum ibsec_sw_hdr_err {
    IBSEC_SW_HDR_OK = 0,
    IBSEC_SW_HDR_TRUNCATED,
    IBSEC_SW_HDR_BAD_LNH,
    IBSEC_SW_HDR_BAD_LVER,
    IBSEC_SW_HDR_BAD_GRH,
    IBSEC_SW_HDR_ERR_COUNT
};

/* "ok", "truncated", "bad_lnh", "bad_lver", "bad_grh" ("?" otherwise). */
const char *ibsec_sw_hdr_err_name(enum ibsec_sw_hdr_err e);

struct ibsec_sw_hdr {
    struct ibsec_lrh lrh;
    bool             has_grh;
    size_t           grh_off;  /* IBSEC_LRH_LEN when has_grh */
    struct ibsec_grh grh;      /* valid when has_grh */
    size_t           bth_off;
    uint16_t         pkey;     /* BTH bytes 2-3 (IBA §9.2.3) */
};

/* Read the switch-visible headers of buf[0..len). */
enum ibsec_sw_hdr_err ibsec_sw_hdr_read(const uint8_t *buf, size_t len, struct ibsec_sw_hdr *h);

#endif /* IBSEC_SW_HDR_H */
