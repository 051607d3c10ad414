/*
 * ib_pkt.h — parse and build InfiniBand (native IBA) and RoCEv2 packets.
 *
 * Packet shapes (docs/wire-format.md §1):
 *
 *   native IBA  LRH(8) [GRH(40) if LRH.LNH = 3] BTH(12) ETHs [extra] payload pad ICRC(4) VCRC(2)
 *   RoCEv2      MAC(14) IPv4(20)|IPv6(40) UDP(8) BTH(12) ETHs [extra] payload pad ICRC(4)
 *
 * "extra" is an optional header of a length the caller gives (0 for a plain
 * packet; the security layer passes 12 or 16 for its Secure Transport Header,
 * STH), placed after the last extended transport header (ETH) and before the
 * payload.  This layer knows nothing of its contents; it only accounts for its
 * length in every length field.
 *
 * Naming: "ETH" always means an IBA extended transport header (§9.3); the
 * Ethernet header of RoCEv2 is called "MAC" here.
 *
 * Byte order: every field is big-endian on the wire (IBA Vol. 1 §5.2: "most
 * significant byte first"), bit 7 is the most significant bit of a byte,
 * except the ICRC and VCRC, which are sent least-significant byte first (§7.8).
 * The decoded structs below hold host integers; buffers are wire order.
 *
 * Parsing never trusts a length field: every header is bounds-checked against
 * the buffer before it is read, and every length field (LRH PktLen, GRH PayLen,
 * IPv4 Total Length, IPv6 Payload Length, UDP Length) must agree exactly with
 * the number of bytes present.  Parsing checks structure only; the CRCs are
 * checked separately (crc.h: ibsec_pkt_check_crcs()).
 */
#ifndef IBSEC_IB_PKT_H
#define IBSEC_IB_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ib_opcode.h"

/* ---- sizes and constants, each named after its spec field ------------------ */

#define IBSEC_LRH_LEN        8u   /* IBA Vol. 1 §7.7 Local Route Header */
#define IBSEC_GRH_LEN       40u   /* IBA Vol. 1 §8.3 Global Route Header */
#define IBSEC_BTH_LEN       12u   /* IBA Vol. 1 §9.2 Base Transport Header */
#define IBSEC_ICRC_LEN       4u   /* IBA Vol. 1 §7.8.1 Invariant CRC */
#define IBSEC_VCRC_LEN       2u   /* IBA Vol. 1 §7.8.2 Variant CRC */
#define IBSEC_MAC_LEN       14u   /* IEEE 802.3 header: dst, src, EtherType (no VLAN) */
#define IBSEC_IPV4_LEN      20u   /* RFC 791 header without options (IHL = 5) */
#define IBSEC_IPV6_LEN      40u   /* RFC 8200 fixed header */
#define IBSEC_UDP_LEN        8u   /* RFC 768 */
#define IBSEC_UDP_CSUM_OFF   6u   /* RFC 768: checksum, UDP bytes 6-7 */
#define IBSEC_MAX_PAYLOAD 4096u   /* largest IBA MTU (§7.7.8 MTU 4096): payload bytes, pad excluded */
#define IBSEC_MAX_EXTRA     64u   /* largest extra header (STH with a 512-bit MAC) */
/* Largest packet any shape can have: MAC+IPv6+UDP (62) or LRH+GRH (48),
 * BTH, the longest ETH chain (32), extra, payload, pad, ICRC, VCRC. */
#define IBSEC_MAX_PKT     (IBSEC_MAC_LEN + IBSEC_IPV6_LEN + IBSEC_UDP_LEN + IBSEC_BTH_LEN + \
                           32u + IBSEC_MAX_EXTRA + IBSEC_MAX_PAYLOAD + 3u + \
                           IBSEC_ICRC_LEN + IBSEC_VCRC_LEN)

#define IBSEC_LRH_LNH_RAW        0u  /* §7.7.6 LNH: raw packet (not supported) */
#define IBSEC_LRH_LNH_IP         1u  /* §7.7.6 LNH: IP non-IBA transport (not supported) */
#define IBSEC_LRH_LNH_IBA_LOCAL  2u  /* §7.7.6 LNH: BTH follows the LRH */
#define IBSEC_LRH_LNH_IBA_GLOBAL 3u  /* §7.7.6 LNH: GRH follows the LRH */
#define IBSEC_LRH_LVER           0u  /* §7.7.3 link version of this spec */
#define IBSEC_GRH_IPVER          6u  /* §8.3.1 IPVer */
#define IBSEC_GRH_NXTHDR_IBA  0x1Bu  /* §8.3.6 NxtHdr: IBA transport follows */
#define IBSEC_BTH_TVER           0u  /* §9.2.4 transport header version */
#define IBSEC_ETHERTYPE_IPV4 0x0800u /* RoCEv2 Annex A17.4 over IPv4 */
#define IBSEC_ETHERTYPE_IPV6 0x86DDu /* RoCEv2 Annex A17.4 over IPv6 */
#define IBSEC_IPPROTO_UDP       17u  /* IPv4 Protocol / IPv6 Next Header: UDP */
#define IBSEC_ROCEV2_UDP_PORT 4791u  /* Annex A17.4.2 UDP destination port */
#define IBSEC_ETH_MIN_FRAME     60u  /* 802.3 minimum frame without FCS (padding allowed below) */

/* Link on which a buffer starts: native IBA starts at the LRH (pcap
 * LINKTYPE_INFINIBAND), RoCEv2 at the Ethernet header (LINKTYPE_ETHERNET). */
enum ibsec_link {
    IBSEC_LINK_IB = 0,
    IBSEC_LINK_ROCE = 1
};

/* The four header shapes. */
enum ibsec_shape {
    IBSEC_SHAPE_IB_LOCAL = 0, /* native, LRH + BTH ("native-noGRH") */
    IBSEC_SHAPE_IB_GLOBAL,    /* native, LRH + GRH + BTH ("native-GRH") */
    IBSEC_SHAPE_ROCE_V4,      /* RoCEv2 over IPv4 ("roce-v4") */
    IBSEC_SHAPE_ROCE_V6,      /* RoCEv2 over IPv6 ("roce-v6") */
    IBSEC_SHAPE_COUNT
};

/* "native-noGRH", "native-GRH", "roce-v4", "roce-v6" ("?" otherwise). */
const char *ibsec_shape_name(enum ibsec_shape s);
/* The link a shape lives on. */
enum ibsec_link ibsec_shape_link(enum ibsec_shape s);

/* ---- named errors ---------------------------------------------------------- */

enum ibsec_pkt_err {
    IBSEC_PKT_OK = 0,
    IBSEC_PKT_ERR_TRUNCATED,       /* buffer ends inside a header or before the ICRC/VCRC */
    IBSEC_PKT_ERR_BAD_LNH,         /* LRH.LNH raw (0) or IP non-IBA (1): not supported */
    IBSEC_PKT_ERR_BAD_LVER,        /* LRH.LVer != 0 */
    IBSEC_PKT_ERR_BAD_PKTLEN,      /* LRH.PktLen*4 + VCRC != bytes present */
    IBSEC_PKT_ERR_BAD_IPVER,       /* GRH.IPVer != 6, IPv4 version != 4, IPv6 version != 6 */
    IBSEC_PKT_ERR_BAD_NXTHDR,      /* GRH.NxtHdr != 0x1B */
    IBSEC_PKT_ERR_BAD_GRH_PAYLEN,  /* GRH.PayLen != bytes from BTH through ICRC */
    IBSEC_PKT_ERR_BAD_ETHERTYPE,   /* EtherType not 0x0800/0x86DD (VLAN tags not accepted) */
    IBSEC_PKT_ERR_BAD_IPV4_IHL,    /* IPv4 IHL != 5 (options not accepted) */
    IBSEC_PKT_ERR_BAD_IPV4_CSUM,   /* IPv4 header checksum wrong */
    IBSEC_PKT_ERR_IP_FRAGMENT,     /* IPv4 MF set or fragment offset != 0 */
    IBSEC_PKT_ERR_BAD_IP_LEN,      /* IPv4 Total Length / IPv6 Payload Length != bytes present */
    IBSEC_PKT_ERR_NOT_UDP,         /* IPv4 Protocol / IPv6 Next Header != 17 */
    IBSEC_PKT_ERR_BAD_UDP_PORT,    /* UDP destination port != 4791 */
    IBSEC_PKT_ERR_BAD_UDP_LEN,     /* UDP Length != bytes from UDP header through ICRC */
    IBSEC_PKT_ERR_BAD_TVER,        /* BTH.TVer != 0 */
    IBSEC_PKT_ERR_BAD_OPCODE,      /* reserved / unknown BTH OpCode (or CNP on native IBA) */
    IBSEC_PKT_ERR_BAD_PADCNT,      /* pad > data bytes, data not a multiple of 4, or
                                      nonzero PadCnt where the opcode forbids pad */
    IBSEC_PKT_ERR_BAD_PAYLOAD_LEN, /* payload on an opcode without one, or CNP not 16 B */
    IBSEC_PKT_ERR_TOO_LONG,        /* payload > 4096 bytes (IBA MTU) */
    IBSEC_PKT_ERR_BAD_ICRC,        /* ICRC does not match (ibsec_pkt_check_crcs) */
    IBSEC_PKT_ERR_BAD_VCRC,        /* VCRC does not match (ibsec_pkt_check_crcs) */
    IBSEC_PKT_ERR_BAD_ARG,         /* caller error: bad shape/opcode/extra length/payload */
    IBSEC_PKT_ERR_NOSPACE,         /* output buffer too small */
    IBSEC_PKT_ERR_COUNT
};

/* Stable name of an error: "ok", "truncated", "bad_lnh", ... ("?" if invalid). */
const char *ibsec_pkt_err_name(enum ibsec_pkt_err e);

/* ---- decoded headers (host integers) --------------------------------------- */

/* IBA Vol. 1 §7.7 LRH: byte 0 VL(4) LVer(4); byte 1 SL(4) Resv2(2) LNH(2);
 * bytes 2-3 DLID; bytes 4-5 Resv5(5) PktLen(11); bytes 6-7 SLID. */
struct ibsec_lrh {
    uint8_t  vl, lver, sl, resv2, lnh;
    uint16_t dlid;
    uint8_t  resv5;
    uint16_t pktlen;   /* 4-byte words from the first LRH byte through the ICRC */
    uint16_t slid;
};

/* IBA Vol. 1 §8.3 GRH, which has the layout of an IPv6 header (RFC 8200); the
 * same struct holds the RoCEv2 IPv6 header.  Byte 0-3: IPVer(4) TClass(8)
 * FlowLabel(20); 4-5 PayLen; 6 NxtHdr; 7 HopLmt; 8-23 SGID; 24-39 DGID. */
struct ibsec_grh {
    uint8_t  ipver, tclass;
    uint32_t flow_label;
    uint16_t paylen;   /* GRH: BTH through ICRC; IPv6: UDP through ICRC */
    uint8_t  nxthdr, hoplmt;
    uint8_t  sgid[16], dgid[16];
};

/* IBA Vol. 1 §9.2 BTH: 0 OpCode; 1 SE(1) M(1) PadCnt(2) TVer(4); 2-3 P_Key;
 * 4 FECN(1) BECN(1) Resv6a(6) [variant: masked in the ICRC]; 5-7 DestQP;
 * 8 AckReq(1) Resv7(7) [ibsec SECMODE/STHSZ, wire-format.md §2]; 9-11 PSN. */
struct ibsec_bth {
    uint8_t  opcode;
    uint8_t  se, migreq, padcnt, tver;
    uint16_t pkey;
    uint8_t  fecn, becn, resv6a;
    uint32_t destqp;
    uint8_t  ackreq, resv7;
    uint32_t psn;
};
#define IBSEC_BTH_BYTE_VARIANT 4u  /* BTH byte holding FECN/BECN/Resv6a */
#define IBSEC_BTH_BYTE_RESV7   8u  /* BTH byte holding AckReq/Resv7 */

/* IBA Vol. 1 §9.3 ETH field values (only those the opcode carries are used). */
struct ibsec_eths {
    uint32_t rdeth_eecnxt;                 /* RDETH: EE-Context (24) */
    uint32_t deth_qkey, deth_srcqp;        /* DETH: Q_Key, SrcQP (24) */
    uint32_t xrceth_xrcsrq;                /* XRCETH: XRCSRQ (24) */
    uint64_t reth_va;                      /* RETH: VA */
    uint32_t reth_rkey, reth_dmalen;       /* RETH: R_Key, DMALen */
    uint64_t atomic_va;                    /* AtomicETH: VA */
    uint32_t atomic_rkey;                  /* AtomicETH: R_Key */
    uint64_t atomic_swap, atomic_cmp;      /* AtomicETH: SwapDt (or AddDt), CmpDt */
    uint8_t  aeth_syndrome;                /* AETH: Syndrome */
    uint32_t aeth_msn;                     /* AETH: MSN (24) */
    uint64_t atomicack_orig;               /* AtomicAckETH: OrigRemDt */
    uint32_t immdt;                        /* ImmDt */
    uint32_t ieth_rkey;                    /* IETH: R_Key */
};

/* IEEE 802.3 Ethernet header (RoCEv2). */
struct ibsec_mac {
    uint8_t  dst[6], src[6];
    uint16_t ethertype;
};

/* RFC 791 IPv4 header without options. */
struct ibsec_ipv4 {
    uint8_t  version, ihl, tos;   /* tos = DSCP(6) ECN(2), masked in the ICRC */
    uint16_t total_len, id;
    uint8_t  flags;               /* 3 bits: reserved, DF, MF */
    uint16_t frag_off;            /* 13 bits */
    uint8_t  ttl, proto;          /* ttl masked in the ICRC */
    uint16_t csum;                /* masked in the ICRC */
    uint8_t  src[4], dst[4];
};

/* RFC 768 UDP header. */
struct ibsec_udp {
    uint16_t sport, dport, len, csum;  /* csum masked in the ICRC */
};

/* ---- the parsed packet ------------------------------------------------------
 * Offsets are byte offsets from the start of the buffer; a header that is not
 * present has offset and length 0 (check the shape / eth_mask). */
struct ibsec_pkt {
    enum ibsec_link  link;
    enum ibsec_shape shape;
    size_t frame_len;     /* bytes given to the parser */
    size_t end;           /* offset just after the last packet byte (VCRC for native,
                             ICRC for RoCEv2); frame_len - end = Ethernet min-frame
                             padding (RoCEv2 frames of 60 bytes only), else 0 */

    size_t mac_off;       /* RoCEv2: Ethernet header */
    size_t ip_off, ip_len;/* RoCEv2: IPv4 (20) or IPv6 (40) header */
    size_t udp_off;       /* RoCEv2: UDP header */
    size_t lrh_off;       /* native: LRH (always 0) */
    size_t grh_off;       /* native with GRH: GRH */
    bool   has_grh;
    size_t bth_off;

    uint32_t eth_mask;                   /* bit (1u << enum ibsec_eth) per ETH present */
    size_t   eth_off[IBSEC_ETH_COUNT];   /* offset of each ETH present */
    size_t   eths_end;                   /* just after the last ETH (= extra_off) */
    size_t   extra_off, extra_len;       /* the caller's extra header (STH) */
    size_t   payload_off, payload_len;   /* payload bytes, pad excluded */
    size_t   pad_off;                    /* pad bytes: pad_off .. pad_off + padcnt */
    uint8_t  padcnt;
    size_t   icrc_off;                   /* 4 bytes, LSB first */
    size_t   vcrc_off;                   /* native only: 2 bytes, LSB first */
    bool     has_vcrc;
    size_t   icrc_cov_off;               /* first byte covered by the ICRC: the LRH
                                            (native) or the IP header (RoCEv2, which
                                            adds 8 bytes of ones in front) */
    bool     mask_mf;                    /* native GRH: the 38 DDPM Marking Field bits
                                            (GRH bytes 25 bits 5:0, 26..29) are variant
                                            too (docs/availability.md §2.4); false from
                                            the parser, set by the caller */

    const struct ibsec_opcode_info *op;  /* table row of bth.opcode */

    /* decoded fields of the headers present */
    struct ibsec_lrh  lrh;
    struct ibsec_grh  grh;
    struct ibsec_mac  mac;
    struct ibsec_ipv4 ip4;
    struct ibsec_grh  ip6;
    struct ibsec_udp  udp;
    struct ibsec_bth  bth;
    struct ibsec_eths eths;
};

/* Parse buf[0..len) as a packet on `link`, with an extra header of extra_len
 * bytes (0, or a multiple of 4 up to IBSEC_MAX_EXTRA) between the last ETH and
 * the payload.  Fills *p and returns IBSEC_PKT_OK, or the first error found
 * (p is then partially filled and must not be used).  Checks, in wire order:
 * header presence and bounds, LNH, LVer, GRH IPVer/NxtHdr, EtherType, IPv4
 * version/IHL/checksum/fragment, IP protocol, UDP port, TVer, opcode (and its
 * ETHs), every length field against the bytes present, pad count and payload
 * length.  CRCs are not checked here. */
enum ibsec_pkt_err ibsec_pkt_parse(const uint8_t *buf, size_t len, enum ibsec_link link,
                                   size_t extra_len, struct ibsec_pkt *p);

/* Locate the BTH without parsing the rest (for a caller that must read BTH
 * byte 8 to learn the extra header length before calling ibsec_pkt_parse).
 * Checks only what is needed to find it (LNH, EtherType, IPv4 IHL, IP protocol,
 * bounds).  Returns IBSEC_PKT_OK and *bth_off, or an error. */
enum ibsec_pkt_err ibsec_pkt_find_bth(const uint8_t *buf, size_t len, enum ibsec_link link,
                                      size_t *bth_off);

/* ---- building -------------------------------------------------------------- */

/* What to build.  The builder writes every field as given EXCEPT these, which
 * it derives: LRH.LNH and PktLen; GRH IPVer (6), PayLen and NxtHdr (0x1B);
 * MAC EtherType; IPv4 version (4), IHL (5), Total Length, Protocol (17) and
 * header checksum; IPv6 version (6), Payload Length and Next Header (17); UDP
 * destination port (4791), Length and checksum (0, see below); BTH PadCnt
 * (from payload_len); then the ICRC (mode none) and, for native IBA, the VCRC.
 * Pad bytes are zero.
 *
 * UDP checksum: 0 for IPv4 (RoCEv2 Annex A17.4.2 allows it) AND for IPv6.
 * For IPv6 this is a deliberate deviation from RFC 8200 §8.1, as Linux rxe
 * and RoCE adapters do: the ICRC protects the datagram, the checksum is a
 * variant field masked out of the ICRC, and a real checksum would force a
 * cut-through engine that encrypts the payload to buffer the whole packet.
 * The parser does not check the UDP checksum (any value is accepted); the security
 * layer writes 0 into it on every RoCEv2 packet it emits (ibsec_pkt_clear_udp_csum). */
struct ibsec_pkt_desc {
    enum ibsec_shape  shape;
    struct ibsec_lrh  lrh;     /* native: VL, LVer, SL, Resv2, DLID, Resv5, SLID */
    struct ibsec_grh  grh;     /* native GRH: TClass, FlowLabel, HopLmt, SGID, DGID */
    struct ibsec_mac  mac;     /* RoCEv2: dst, src */
    struct ibsec_ipv4 ip4;     /* RoCEv2 IPv4: TOS, ID, flags, frag_off, TTL, src, dst */
    struct ibsec_grh  ip6;     /* RoCEv2 IPv6: traffic class, flow label, hop limit, src, dst */
    struct ibsec_udp  udp;     /* RoCEv2: source port */
    struct ibsec_bth  bth;     /* all but PadCnt */
    struct ibsec_eths eths;    /* values of the ETHs bth.opcode carries */
    const uint8_t    *extra;   /* extra header bytes (NULL: zeros) */
    size_t            extra_len;
    const uint8_t    *payload; /* payload bytes (NULL: zeros) */
    size_t            payload_len;
};

/* Build the packet described by *d into buf[0..cap).  On success returns
 * IBSEC_PKT_OK, the length in *len and (if out != NULL) the parsed packet.
 * Errors: IBSEC_PKT_ERR_BAD_ARG (bad shape, unknown opcode, CNP on native,
 * payload on an opcode without one, payload > 4096, CNP payload != 16, extra
 * length not a multiple of 4 or > 64), IBSEC_PKT_ERR_NOSPACE. */
enum ibsec_pkt_err ibsec_pkt_build(const struct ibsec_pkt_desc *d, uint8_t *buf, size_t cap,
                                   size_t *len, struct ibsec_pkt *out);

/* Insert an extra header of extra_len bytes (contents `extra`, or zeros if
 * NULL) after the last ETH of the parsed plain packet *in (which must have
 * in->extra_len == 0 and no Ethernet padding), moving payload, pad, ICRC and
 * VCRC up; rewrites LRH PktLen, GRH PayLen, IPv4 Total Length and checksum,
 * IPv6 Payload Length and UDP Length, and re-parses into *out.  The ICRC and
 * VCRC bytes are moved, not recomputed: the caller sets the BTH security bits
 * and then calls ibsec_pkt_put_crcs() (crc.h).  buf must hold cap >= new
 * length bytes.  Returns IBSEC_PKT_OK and *new_len. */
enum ibsec_pkt_err ibsec_pkt_insert_extra(uint8_t *buf, size_t cap, const struct ibsec_pkt *in,
                                          const uint8_t *extra, size_t extra_len,
                                          size_t *new_len, struct ibsec_pkt *out);

/* Remove the extra header of the parsed packet *in (the inverse of
 * ibsec_pkt_insert_extra; CRCs are moved, not recomputed). */
enum ibsec_pkt_err ibsec_pkt_remove_extra(uint8_t *buf, const struct ibsec_pkt *in,
                                          size_t *new_len, struct ibsec_pkt *out);

/* RoCEv2: write 0 into the UDP checksum (UDP bytes 6-7) of the parsed packet *p;
 * native IBA packets are left alone.  Every RoCEv2 packet that ibsec emits, sealed or
 * opened, goes out with checksum 0 (docs/wire-format.md §4): the payload, the STH and
 * the ICRC field change on the way through, and the checksum precedes them. */
void ibsec_pkt_clear_udp_csum(uint8_t *buf, const struct ibsec_pkt *p);

/* ---- header encoders / decoders (exact wire layouts above) ----------------- */

void ibsec_lrh_decode(const uint8_t b[IBSEC_LRH_LEN], struct ibsec_lrh *h);
void ibsec_lrh_encode(const struct ibsec_lrh *h, uint8_t b[IBSEC_LRH_LEN]);
void ibsec_grh_decode(const uint8_t b[IBSEC_GRH_LEN], struct ibsec_grh *h);
void ibsec_grh_encode(const struct ibsec_grh *h, uint8_t b[IBSEC_GRH_LEN]);
void ibsec_bth_decode(const uint8_t b[IBSEC_BTH_LEN], struct ibsec_bth *h);
void ibsec_bth_encode(const struct ibsec_bth *h, uint8_t b[IBSEC_BTH_LEN]);
void ibsec_mac_decode(const uint8_t b[IBSEC_MAC_LEN], struct ibsec_mac *h);
void ibsec_mac_encode(const struct ibsec_mac *h, uint8_t b[IBSEC_MAC_LEN]);
void ibsec_ipv4_decode(const uint8_t b[IBSEC_IPV4_LEN], struct ibsec_ipv4 *h);
void ibsec_ipv4_encode(const struct ibsec_ipv4 *h, uint8_t b[IBSEC_IPV4_LEN]); /* csum as given */
void ibsec_udp_decode(const uint8_t b[IBSEC_UDP_LEN], struct ibsec_udp *h);
void ibsec_udp_encode(const struct ibsec_udp *h, uint8_t b[IBSEC_UDP_LEN]);
/* Decode / encode one ETH at b (ibsec_eth_len(e) bytes) into / from *v. */
void ibsec_eth_decode(enum ibsec_eth e, const uint8_t *b, struct ibsec_eths *v);
void ibsec_eth_encode(enum ibsec_eth e, const struct ibsec_eths *v, uint8_t *b);

/* RFC 791 / RFC 1071 IPv4 header checksum of a 20-byte header, computed with
 * the checksum field (bytes 10-11) taken as zero. */
uint16_t ibsec_ipv4_checksum(const uint8_t hdr[IBSEC_IPV4_LEN]);

/* Big-endian field access on wire buffers. */
uint16_t ibsec_get_be16(const uint8_t *b);
uint32_t ibsec_get_be24(const uint8_t *b);
uint32_t ibsec_get_be32(const uint8_t *b);
uint64_t ibsec_get_be64(const uint8_t *b);
void     ibsec_put_be16(uint8_t *b, uint16_t v);
void     ibsec_put_be24(uint8_t *b, uint32_t v);
void     ibsec_put_be32(uint8_t *b, uint32_t v);
void     ibsec_put_be64(uint8_t *b, uint64_t v);

#endif /* IBSEC_IB_PKT_H */
