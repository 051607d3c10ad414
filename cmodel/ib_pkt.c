/*
 * ib_pkt.c — parse and build native IBA and RoCEv2 packets (see ib_pkt.h).
 *
 * Structure: one small encoder/decoder per header (IBA Vol. 1 §7.7 LRH, §8.3
 * GRH, §9.2 BTH, §9.3 ETHs; RFC 791 IPv4, RFC 8200 IPv6, RFC 768 UDP), then the
 * parser in wire order, then the builder and the extra-header insert/remove.
 *
 * The parser's order of checks defines which error a malformed packet gets:
 *   1. each fixed header (MAC, IP, UDP / LRH, GRH, BTH) must be present, else
 *      "truncated"; its constant fields are checked as soon as it is read
 *      (EtherType, IP version, IHL, checksum, fragment, protocol, UDP port /
 *      LNH, LVer, IPVer, NxtHdr; then TVer and the opcode);
 *   2. the opcode's ETHs, the extra header and the ICRC (and VCRC) must fit in
 *      the bytes present, else "truncated";
 *   3. every length field must then equal the number of bytes present
 *      (outermost first: LRH PktLen, GRH PayLen / IP length, UDP length);
 *   4. the data region (payload + pad) must be consistent with PadCnt and the
 *      opcode, and the payload no longer than 4096 bytes.
 * So a packet cut inside a header is "truncated", one cut inside its payload
 * fails the outermost length field.
 */
#include "ib_pkt.h"

#include <string.h>

#include "crc.h" /* ibsec_pkt_put_crcs for the builder */

/* ---- big-endian field access -------------------------------------------------- */

uint16_t ibsec_get_be16(const uint8_t *b) { return (uint16_t)(b[0] << 8 | b[1]); }
uint32_t ibsec_get_be24(const uint8_t *b)
{
    return (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | b[2];
}
uint32_t ibsec_get_be32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}
uint64_t ibsec_get_be64(const uint8_t *b)
{
    return (uint64_t)ibsec_get_be32(b) << 32 | ibsec_get_be32(b + 4);
}
void ibsec_put_be16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)(v >> 8); b[1] = (uint8_t)v; }
void ibsec_put_be24(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 16); b[1] = (uint8_t)(v >> 8); b[2] = (uint8_t)v;
}
void ibsec_put_be32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 24); b[1] = (uint8_t)(v >> 16);
    b[2] = (uint8_t)(v >> 8);  b[3] = (uint8_t)v;
}
void ibsec_put_be64(uint8_t *b, uint64_t v)
{
    ibsec_put_be32(b, (uint32_t)(v >> 32));
    ibsec_put_be32(b + 4, (uint32_t)v);
}

/* ---- names ------------------------------------------------------------------------ */

static const char *const shape_names[IBSEC_SHAPE_COUNT] = {
    [IBSEC_SHAPE_IB_LOCAL] = "native-noGRH",
    [IBSEC_SHAPE_IB_GLOBAL] = "native-GRH",
    [IBSEC_SHAPE_ROCE_V4] = "roce-v4",
    [IBSEC_SHAPE_ROCE_V6] = "roce-v6",
};

const char *ibsec_shape_name(enum ibsec_shape s)
{
    return ((unsigned)s < IBSEC_SHAPE_COUNT) ? shape_names[s] : "?";
}

enum ibsec_link ibsec_shape_link(enum ibsec_shape s)
{
    return (s == IBSEC_SHAPE_ROCE_V4 || s == IBSEC_SHAPE_ROCE_V6) ? IBSEC_LINK_ROCE
                                                                  : IBSEC_LINK_IB;
}

static const char *const err_names[IBSEC_PKT_ERR_COUNT] = {
    [IBSEC_PKT_OK] = "ok",
    [IBSEC_PKT_ERR_TRUNCATED] = "truncated",
    [IBSEC_PKT_ERR_BAD_LNH] = "bad_lnh",
    [IBSEC_PKT_ERR_BAD_LVER] = "bad_lver",
    [IBSEC_PKT_ERR_BAD_PKTLEN] = "bad_pktlen",
    [IBSEC_PKT_ERR_BAD_IPVER] = "bad_ipver",
    [IBSEC_PKT_ERR_BAD_NXTHDR] = "bad_nxthdr",
    [IBSEC_PKT_ERR_BAD_GRH_PAYLEN] = "bad_grh_paylen",
    [IBSEC_PKT_ERR_BAD_ETHERTYPE] = "bad_ethertype",
    [IBSEC_PKT_ERR_BAD_IPV4_IHL] = "bad_ipv4_ihl",
    [IBSEC_PKT_ERR_BAD_IPV4_CSUM] = "bad_ipv4_csum",
    [IBSEC_PKT_ERR_IP_FRAGMENT] = "ip_fragment",
    [IBSEC_PKT_ERR_BAD_IP_LEN] = "bad_ip_len",
    [IBSEC_PKT_ERR_NOT_UDP] = "not_udp",
    [IBSEC_PKT_ERR_BAD_UDP_PORT] = "bad_udp_port",
    [IBSEC_PKT_ERR_BAD_UDP_LEN] = "bad_udp_len",
    [IBSEC_PKT_ERR_BAD_TVER] = "bad_tver",
    [IBSEC_PKT_ERR_BAD_OPCODE] = "bad_opcode",
    [IBSEC_PKT_ERR_BAD_PADCNT] = "bad_padcnt",
    [IBSEC_PKT_ERR_BAD_PAYLOAD_LEN] = "bad_payload_len",
    [IBSEC_PKT_ERR_TOO_LONG] = "too_long",
    [IBSEC_PKT_ERR_BAD_ICRC] = "bad_icrc",
    [IBSEC_PKT_ERR_BAD_VCRC] = "bad_vcrc",
    [IBSEC_PKT_ERR_BAD_ARG] = "bad_arg",
    [IBSEC_PKT_ERR_NOSPACE] = "nospace",
};

const char *ibsec_pkt_err_name(enum ibsec_pkt_err e)
{
    return ((unsigned)e < IBSEC_PKT_ERR_COUNT) ? err_names[e] : "?";
}

/* ---- header encoders / decoders -------------------------------------------------- */

/* IBA Vol. 1 §7.7 (overview §5.2) Local Route Header. */
void ibsec_lrh_decode(const uint8_t b[IBSEC_LRH_LEN], struct ibsec_lrh *h)
{
    h->vl = b[0] >> 4;
    h->lver = b[0] & 0x0Fu;
    h->sl = b[1] >> 4;
    h->resv2 = (b[1] >> 2) & 0x03u;
    h->lnh = b[1] & 0x03u;
    h->dlid = ibsec_get_be16(b + 2);
    h->resv5 = b[4] >> 3;
    h->pktlen = ibsec_get_be16(b + 4) & 0x07FFu;
    h->slid = ibsec_get_be16(b + 6);
}

void ibsec_lrh_encode(const struct ibsec_lrh *h, uint8_t b[IBSEC_LRH_LEN])
{
    b[0] = (uint8_t)((h->vl & 0x0Fu) << 4 | (h->lver & 0x0Fu));
    b[1] = (uint8_t)((h->sl & 0x0Fu) << 4 | (h->resv2 & 0x03u) << 2 | (h->lnh & 0x03u));
    ibsec_put_be16(b + 2, h->dlid);
    ibsec_put_be16(b + 4, (uint16_t)((h->resv5 & 0x1Fu) << 11 | (h->pktlen & 0x07FFu)));
    ibsec_put_be16(b + 6, h->slid);
}

/* IBA Vol. 1 §8.3 Global Route Header (= RFC 8200 IPv6 header layout). */
void ibsec_grh_decode(const uint8_t b[IBSEC_GRH_LEN], struct ibsec_grh *h)
{
    uint32_t w0 = ibsec_get_be32(b);
    h->ipver = (uint8_t)(w0 >> 28);
    h->tclass = (uint8_t)(w0 >> 20);
    h->flow_label = w0 & 0xFFFFFu;
    h->paylen = ibsec_get_be16(b + 4);
    h->nxthdr = b[6];
    h->hoplmt = b[7];
    memcpy(h->sgid, b + 8, 16);
    memcpy(h->dgid, b + 24, 16);
}

void ibsec_grh_encode(const struct ibsec_grh *h, uint8_t b[IBSEC_GRH_LEN])
{
    ibsec_put_be32(b, (uint32_t)(h->ipver & 0x0Fu) << 28 | (uint32_t)h->tclass << 20 |
                          (h->flow_label & 0xFFFFFu));
    ibsec_put_be16(b + 4, h->paylen);
    b[6] = h->nxthdr;
    b[7] = h->hoplmt;
    memcpy(b + 8, h->sgid, 16);
    memcpy(b + 24, h->dgid, 16);
}

/* IBA Vol. 1 §9.2 Base Transport Header. */
void ibsec_bth_decode(const uint8_t b[IBSEC_BTH_LEN], struct ibsec_bth *h)
{
    h->opcode = b[0];
    h->se = b[1] >> 7;
    h->migreq = (b[1] >> 6) & 1u;
    h->padcnt = (b[1] >> 4) & 0x03u;
    h->tver = b[1] & 0x0Fu;
    h->pkey = ibsec_get_be16(b + 2);
    h->fecn = b[4] >> 7;
    h->becn = (b[4] >> 6) & 1u;
    h->resv6a = b[4] & 0x3Fu;
    h->destqp = ibsec_get_be24(b + 5);
    h->ackreq = b[8] >> 7;
    h->resv7 = b[8] & 0x7Fu;
    h->psn = ibsec_get_be24(b + 9);
}

void ibsec_bth_encode(const struct ibsec_bth *h, uint8_t b[IBSEC_BTH_LEN])
{
    b[0] = h->opcode;
    b[1] = (uint8_t)((h->se & 1u) << 7 | (h->migreq & 1u) << 6 | (h->padcnt & 0x03u) << 4 |
                     (h->tver & 0x0Fu));
    ibsec_put_be16(b + 2, h->pkey);
    b[4] = (uint8_t)((h->fecn & 1u) << 7 | (h->becn & 1u) << 6 | (h->resv6a & 0x3Fu));
    ibsec_put_be24(b + 5, h->destqp);
    b[8] = (uint8_t)((h->ackreq & 1u) << 7 | (h->resv7 & 0x7Fu));
    ibsec_put_be24(b + 9, h->psn);
}

/* IEEE 802.3 header: destination, source, EtherType. */
void ibsec_mac_decode(const uint8_t b[IBSEC_MAC_LEN], struct ibsec_mac *h)
{
    memcpy(h->dst, b, 6);
    memcpy(h->src, b + 6, 6);
    h->ethertype = ibsec_get_be16(b + 12);
}

void ibsec_mac_encode(const struct ibsec_mac *h, uint8_t b[IBSEC_MAC_LEN])
{
    memcpy(b, h->dst, 6);
    memcpy(b + 6, h->src, 6);
    ibsec_put_be16(b + 12, h->ethertype);
}

/* RFC 791 §3.1 IPv4 header without options. */
void ibsec_ipv4_decode(const uint8_t b[IBSEC_IPV4_LEN], struct ibsec_ipv4 *h)
{
    h->version = b[0] >> 4;
    h->ihl = b[0] & 0x0Fu;
    h->tos = b[1];
    h->total_len = ibsec_get_be16(b + 2);
    h->id = ibsec_get_be16(b + 4);
    h->flags = b[6] >> 5;
    h->frag_off = ibsec_get_be16(b + 6) & 0x1FFFu;
    h->ttl = b[8];
    h->proto = b[9];
    h->csum = ibsec_get_be16(b + 10);
    memcpy(h->src, b + 12, 4);
    memcpy(h->dst, b + 16, 4);
}

void ibsec_ipv4_encode(const struct ibsec_ipv4 *h, uint8_t b[IBSEC_IPV4_LEN])
{
    b[0] = (uint8_t)((h->version & 0x0Fu) << 4 | (h->ihl & 0x0Fu));
    b[1] = h->tos;
    ibsec_put_be16(b + 2, h->total_len);
    ibsec_put_be16(b + 4, h->id);
    ibsec_put_be16(b + 6, (uint16_t)((h->flags & 0x07u) << 13 | (h->frag_off & 0x1FFFu)));
    b[8] = h->ttl;
    b[9] = h->proto;
    ibsec_put_be16(b + 10, h->csum);
    memcpy(b + 12, h->src, 4);
    memcpy(b + 16, h->dst, 4);
}

/* RFC 768 UDP header. */
void ibsec_udp_decode(const uint8_t b[IBSEC_UDP_LEN], struct ibsec_udp *h)
{
    h->sport = ibsec_get_be16(b);
    h->dport = ibsec_get_be16(b + 2);
    h->len = ibsec_get_be16(b + 4);
    h->csum = ibsec_get_be16(b + 6);
}

void ibsec_udp_encode(const struct ibsec_udp *h, uint8_t b[IBSEC_UDP_LEN])
{
    ibsec_put_be16(b, h->sport);
    ibsec_put_be16(b + 2, h->dport);
    ibsec_put_be16(b + 4, h->len);
    ibsec_put_be16(b + 6, h->csum);
}

void ibsec_pkt_clear_udp_csum(uint8_t *buf, const struct ibsec_pkt *p)
{
    if (p->shape == IBSEC_SHAPE_ROCE_V4 || p->shape == IBSEC_SHAPE_ROCE_V6)
        ibsec_put_be16(buf + p->udp_off + IBSEC_UDP_CSUM_OFF, 0);
}

/* IBA Vol. 1 §9.3 extended transport headers (XRCETH: Annex A14).  Reserved
 * bytes are written as zero and ignored on decode. */
void ibsec_eth_decode(enum ibsec_eth e, const uint8_t *b, struct ibsec_eths *v)
{
    switch (e) {
    case IBSEC_ETH_RDETH:        v->rdeth_eecnxt = ibsec_get_be24(b + 1); break;
    case IBSEC_ETH_DETH:         v->deth_qkey = ibsec_get_be32(b);
                                 v->deth_srcqp = ibsec_get_be24(b + 5); break;
    case IBSEC_ETH_XRCETH:       v->xrceth_xrcsrq = ibsec_get_be24(b + 1); break;
    case IBSEC_ETH_RETH:         v->reth_va = ibsec_get_be64(b);
                                 v->reth_rkey = ibsec_get_be32(b + 8);
                                 v->reth_dmalen = ibsec_get_be32(b + 12); break;
    case IBSEC_ETH_ATOMICETH:    v->atomic_va = ibsec_get_be64(b);
                                 v->atomic_rkey = ibsec_get_be32(b + 8);
                                 v->atomic_swap = ibsec_get_be64(b + 12);
                                 v->atomic_cmp = ibsec_get_be64(b + 20); break;
    case IBSEC_ETH_AETH:         v->aeth_syndrome = b[0];
                                 v->aeth_msn = ibsec_get_be24(b + 1); break;
    case IBSEC_ETH_ATOMICACKETH: v->atomicack_orig = ibsec_get_be64(b); break;
    case IBSEC_ETH_IMMDT:        v->immdt = ibsec_get_be32(b); break;
    case IBSEC_ETH_IETH:         v->ieth_rkey = ibsec_get_be32(b); break;
    default: break;
    }
}

void ibsec_eth_encode(enum ibsec_eth e, const struct ibsec_eths *v, uint8_t *b)
{
    memset(b, 0, ibsec_eth_len(e));
    switch (e) {
    case IBSEC_ETH_RDETH:        ibsec_put_be24(b + 1, v->rdeth_eecnxt); break;
    case IBSEC_ETH_DETH:         ibsec_put_be32(b, v->deth_qkey);
                                 ibsec_put_be24(b + 5, v->deth_srcqp); break;
    case IBSEC_ETH_XRCETH:       ibsec_put_be24(b + 1, v->xrceth_xrcsrq); break;
    case IBSEC_ETH_RETH:         ibsec_put_be64(b, v->reth_va);
                                 ibsec_put_be32(b + 8, v->reth_rkey);
                                 ibsec_put_be32(b + 12, v->reth_dmalen); break;
    case IBSEC_ETH_ATOMICETH:    ibsec_put_be64(b, v->atomic_va);
                                 ibsec_put_be32(b + 8, v->atomic_rkey);
                                 ibsec_put_be64(b + 12, v->atomic_swap);
                                 ibsec_put_be64(b + 20, v->atomic_cmp); break;
    case IBSEC_ETH_AETH:         b[0] = v->aeth_syndrome;
                                 ibsec_put_be24(b + 1, v->aeth_msn); break;
    case IBSEC_ETH_ATOMICACKETH: ibsec_put_be64(b, v->atomicack_orig); break;
    case IBSEC_ETH_IMMDT:        ibsec_put_be32(b, v->immdt); break;
    case IBSEC_ETH_IETH:         ibsec_put_be32(b, v->ieth_rkey); break;
    default: break;
    }
}

/* RFC 1071 one's-complement sum of the ten 16-bit words of the header, the
 * checksum word (bytes 10-11) counted as zero; the checksum is its complement. */
uint16_t ibsec_ipv4_checksum(const uint8_t hdr[IBSEC_IPV4_LEN])
{
    uint32_t sum = 0;
    for (unsigned i = 0; i < IBSEC_IPV4_LEN; i += 2) {
        if (i == 10)
            continue;
        sum += ibsec_get_be16(hdr + i);
    }
    while (sum >> 16)
        sum = (sum & 0xFFFFu) + (sum >> 16);
    return (uint16_t)~sum;
}

/* ---- parser ---------------------------------------------------------------------- */

static bool valid_extra_len(size_t extra_len)
{
    return extra_len % 4 == 0 && extra_len <= IBSEC_MAX_EXTRA;
}

/* Native IBA: LRH (§7.7) and optional GRH (§8.3) up to the BTH offset. */
static enum ibsec_pkt_err parse_lrh_grh(const uint8_t *buf, size_t len, struct ibsec_pkt *p)
{
    if (len < IBSEC_LRH_LEN)
        return IBSEC_PKT_ERR_TRUNCATED;
    p->lrh_off = 0;
    ibsec_lrh_decode(buf, &p->lrh);
    if (p->lrh.lnh == IBSEC_LRH_LNH_RAW || p->lrh.lnh == IBSEC_LRH_LNH_IP)
        return IBSEC_PKT_ERR_BAD_LNH;
    if (p->lrh.lver != IBSEC_LRH_LVER)
        return IBSEC_PKT_ERR_BAD_LVER;
    p->has_grh = (p->lrh.lnh == IBSEC_LRH_LNH_IBA_GLOBAL);
    p->shape = p->has_grh ? IBSEC_SHAPE_IB_GLOBAL : IBSEC_SHAPE_IB_LOCAL;
    p->bth_off = IBSEC_LRH_LEN;
    if (p->has_grh) {
        if (len < IBSEC_LRH_LEN + IBSEC_GRH_LEN)
            return IBSEC_PKT_ERR_TRUNCATED;
        p->grh_off = IBSEC_LRH_LEN;
        ibsec_grh_decode(buf + p->grh_off, &p->grh);
        if (p->grh.ipver != IBSEC_GRH_IPVER)
            return IBSEC_PKT_ERR_BAD_IPVER;
        if (p->grh.nxthdr != IBSEC_GRH_NXTHDR_IBA)
            return IBSEC_PKT_ERR_BAD_NXTHDR;
        p->bth_off = p->grh_off + IBSEC_GRH_LEN;
    }
    p->icrc_cov_off = p->lrh_off;
    return IBSEC_PKT_OK;
}

/* RoCEv2 IPv4 header (RFC 791; Annex A17: no options, not fragmented, UDP). */
static enum ibsec_pkt_err parse_ipv4(const uint8_t *buf, size_t len, struct ibsec_pkt *p)
{
    if (len < p->ip_off + IBSEC_IPV4_LEN)
        return IBSEC_PKT_ERR_TRUNCATED;
    p->ip_len = IBSEC_IPV4_LEN;
    ibsec_ipv4_decode(buf + p->ip_off, &p->ip4);
    if (p->ip4.version != 4)
        return IBSEC_PKT_ERR_BAD_IPVER;
    if (p->ip4.ihl != IBSEC_IPV4_LEN / 4)
        return IBSEC_PKT_ERR_BAD_IPV4_IHL;
    if (p->ip4.csum != ibsec_ipv4_checksum(buf + p->ip_off))
        return IBSEC_PKT_ERR_BAD_IPV4_CSUM;
    if ((p->ip4.flags & 0x1u) || p->ip4.frag_off != 0) /* flags bit 0 = MF */
        return IBSEC_PKT_ERR_IP_FRAGMENT;
    if (p->ip4.proto != IBSEC_IPPROTO_UDP)
        return IBSEC_PKT_ERR_NOT_UDP;
    return IBSEC_PKT_OK;
}

/* RoCEv2 IPv6 header (RFC 8200; no extension headers: Next Header = UDP). */
static enum ibsec_pkt_err parse_ipv6(const uint8_t *buf, size_t len, struct ibsec_pkt *p)
{
    if (len < p->ip_off + IBSEC_IPV6_LEN)
        return IBSEC_PKT_ERR_TRUNCATED;
    p->ip_len = IBSEC_IPV6_LEN;
    ibsec_grh_decode(buf + p->ip_off, &p->ip6);
    if (p->ip6.ipver != 6)
        return IBSEC_PKT_ERR_BAD_IPVER;
    if (p->ip6.nxthdr != IBSEC_IPPROTO_UDP)
        return IBSEC_PKT_ERR_NOT_UDP;
    return IBSEC_PKT_OK;
}

/* RoCEv2 (Annex A17.4): Ethernet, IPv4/IPv6, UDP up to the BTH offset. */
static enum ibsec_pkt_err parse_mac_ip_udp(const uint8_t *buf, size_t len, struct ibsec_pkt *p)
{
    enum ibsec_pkt_err e;
    if (len < IBSEC_MAC_LEN)
        return IBSEC_PKT_ERR_TRUNCATED;
    p->mac_off = 0;
    ibsec_mac_decode(buf, &p->mac);
    p->ip_off = IBSEC_MAC_LEN;
    if (p->mac.ethertype == IBSEC_ETHERTYPE_IPV4) {
        p->shape = IBSEC_SHAPE_ROCE_V4;
        e = parse_ipv4(buf, len, p);
    } else if (p->mac.ethertype == IBSEC_ETHERTYPE_IPV6) {
        p->shape = IBSEC_SHAPE_ROCE_V6;
        e = parse_ipv6(buf, len, p);
    } else {
        return IBSEC_PKT_ERR_BAD_ETHERTYPE;
    }
    if (e != IBSEC_PKT_OK)
        return e;
    p->udp_off = p->ip_off + p->ip_len;
    if (len < p->udp_off + IBSEC_UDP_LEN)
        return IBSEC_PKT_ERR_TRUNCATED;
    ibsec_udp_decode(buf + p->udp_off, &p->udp);
    if (p->udp.dport != IBSEC_ROCEV2_UDP_PORT)
        return IBSEC_PKT_ERR_BAD_UDP_PORT;
    p->bth_off = p->udp_off + IBSEC_UDP_LEN;
    p->icrc_cov_off = p->ip_off;
    return IBSEC_PKT_OK;
}

/* BTH (§9.2): present, TVer, known opcode; records the ETH offsets. */
static enum ibsec_pkt_err parse_bth(const uint8_t *buf, size_t len, struct ibsec_pkt *p)
{
    if (len < p->bth_off + IBSEC_BTH_LEN)
        return IBSEC_PKT_ERR_TRUNCATED;
    ibsec_bth_decode(buf + p->bth_off, &p->bth);
    if (p->bth.tver != IBSEC_BTH_TVER)
        return IBSEC_PKT_ERR_BAD_TVER;
    p->op = ibsec_opcode_lookup(p->bth.opcode);
    if (p->op == NULL || (p->op->tclass == IBSEC_TC_CNP && p->link != IBSEC_LINK_ROCE))
        return IBSEC_PKT_ERR_BAD_OPCODE;
    p->padcnt = p->bth.padcnt;
    return IBSEC_PKT_OK;
}

/* The opcode's ETHs (§9.3) in order, then the extra header. */
static void locate_eths(const uint8_t *buf, struct ibsec_pkt *p, size_t extra_len)
{
    size_t off = p->bth_off + IBSEC_BTH_LEN;
    for (unsigned i = 0; i < p->op->n_eths; i++) {
        enum ibsec_eth e = p->op->eths[i];
        p->eth_mask |= 1u << e;
        p->eth_off[e] = off;
        ibsec_eth_decode(e, buf + off, &p->eths);
        off += ibsec_eth_len(e);
    }
    p->eths_end = off;
    p->extra_off = off;
    p->extra_len = extra_len;
    p->payload_off = off + extra_len;
}

/* Native: LRH PktLen (§7.7.8, 4-byte words LRH..ICRC) and GRH PayLen (§8.3.5,
 * bytes after the GRH through the ICRC) against the bytes present. */
static enum ibsec_pkt_err check_native_lengths(size_t len, struct ibsec_pkt *p)
{
    if ((size_t)p->lrh.pktlen * 4u + IBSEC_VCRC_LEN != len)
        return IBSEC_PKT_ERR_BAD_PKTLEN;
    if (p->has_grh && (size_t)p->grh.paylen != len - IBSEC_VCRC_LEN - p->bth_off)
        return IBSEC_PKT_ERR_BAD_GRH_PAYLEN;
    p->end = len;
    p->vcrc_off = len - IBSEC_VCRC_LEN;
    p->has_vcrc = true;
    p->icrc_off = p->vcrc_off - IBSEC_ICRC_LEN;
    return IBSEC_PKT_OK;
}

/* RoCEv2: IP length (IPv4 Total Length = IP header..ICRC; IPv6 Payload Length
 * = UDP..ICRC) must end exactly at the frame end, or inside a 60-byte frame
 * (802.3 minimum-size padding); UDP Length = UDP..ICRC. */
static enum ibsec_pkt_err check_roce_lengths(size_t len, size_t min_end, struct ibsec_pkt *p)
{
    size_t end = (p->shape == IBSEC_SHAPE_ROCE_V4) ? p->ip_off + p->ip4.total_len
                                                   : p->udp_off + p->ip6.paylen;
    bool padded_min_frame = (len == IBSEC_ETH_MIN_FRAME && end < len);
    if (end < min_end || end > len || (end != len && !padded_min_frame))
        return IBSEC_PKT_ERR_BAD_IP_LEN;
    if ((size_t)p->udp.len != end - p->udp_off)
        return IBSEC_PKT_ERR_BAD_UDP_LEN;
    p->end = end;
    p->icrc_off = end - IBSEC_ICRC_LEN;
    p->has_vcrc = false;
    return IBSEC_PKT_OK;
}

/* Data region = payload + pad, between the extra header and the ICRC.
 * §9.2 PadCnt: pad bytes round the payload up to a 4-byte multiple, only on
 * packets that end a message (ibsec_opcode_pad_allowed). */
static enum ibsec_pkt_err check_data_region(struct ibsec_pkt *p)
{
    size_t data = p->icrc_off - p->payload_off;
    if (!p->op->has_payload) {
        if (p->padcnt != 0)
            return IBSEC_PKT_ERR_BAD_PADCNT;
        if (data != 0)
            return IBSEC_PKT_ERR_BAD_PAYLOAD_LEN;
    }
    if (data % 4 != 0 || p->padcnt > data)
        return IBSEC_PKT_ERR_BAD_PADCNT;
    if (p->padcnt != 0 && !ibsec_opcode_pad_allowed(p->op))
        return IBSEC_PKT_ERR_BAD_PADCNT;
    p->payload_len = data - p->padcnt;
    p->pad_off = p->payload_off + p->payload_len;
    if (p->op->fixed_payload != 0 && p->payload_len != p->op->fixed_payload)
        return IBSEC_PKT_ERR_BAD_PAYLOAD_LEN;
    if (p->payload_len > IBSEC_MAX_PAYLOAD)
        return IBSEC_PKT_ERR_TOO_LONG;
    return IBSEC_PKT_OK;
}

enum ibsec_pkt_err ibsec_pkt_parse(const uint8_t *buf, size_t len, enum ibsec_link link,
                                   size_t extra_len, struct ibsec_pkt *p)
{
    enum ibsec_pkt_err e;
    memset(p, 0, sizeof *p);
    p->link = link;
    p->frame_len = len;
    if (buf == NULL || !valid_extra_len(extra_len))
        return IBSEC_PKT_ERR_BAD_ARG;

    if (link == IBSEC_LINK_IB)
        e = parse_lrh_grh(buf, len, p);
    else if (link == IBSEC_LINK_ROCE)
        e = parse_mac_ip_udp(buf, len, p);
    else
        return IBSEC_PKT_ERR_BAD_ARG;
    if (e != IBSEC_PKT_OK)
        return e;

    if ((e = parse_bth(buf, len, p)) != IBSEC_PKT_OK)
        return e;

    /* Smallest packet with these headers: ETHs, extra, no data, ICRC (+VCRC). */
    size_t trailer = IBSEC_ICRC_LEN + (link == IBSEC_LINK_IB ? IBSEC_VCRC_LEN : 0);
    size_t min_end = p->bth_off + IBSEC_BTH_LEN + p->op->eth_len + extra_len + trailer;
    if (len < min_end)
        return IBSEC_PKT_ERR_TRUNCATED;
    locate_eths(buf, p, extra_len);

    e = (link == IBSEC_LINK_IB) ? check_native_lengths(len, p)
                                : check_roce_lengths(len, min_end, p);
    if (e != IBSEC_PKT_OK)
        return e;
    return check_data_region(p);
}

enum ibsec_pkt_err ibsec_pkt_find_bth(const uint8_t *buf, size_t len, enum ibsec_link link,
                                      size_t *bth_off)
{
    struct ibsec_pkt p;
    enum ibsec_pkt_err e;
    memset(&p, 0, sizeof p);
    p.link = link;
    if (buf == NULL)
        return IBSEC_PKT_ERR_BAD_ARG;
    if (link == IBSEC_LINK_IB)
        e = parse_lrh_grh(buf, len, &p);
    else if (link == IBSEC_LINK_ROCE)
        e = parse_mac_ip_udp(buf, len, &p);
    else
        return IBSEC_PKT_ERR_BAD_ARG;
    if (e != IBSEC_PKT_OK)
        return e;
    if (len < p.bth_off + IBSEC_BTH_LEN)
        return IBSEC_PKT_ERR_TRUNCATED;
    *bth_off = p.bth_off;
    return IBSEC_PKT_OK;
}

/* ---- builder -------------------------------------------------------------------- */

/* Bytes before the BTH for a shape. */
static size_t net_header_len(enum ibsec_shape s)
{
    switch (s) {
    case IBSEC_SHAPE_IB_LOCAL:  return IBSEC_LRH_LEN;
    case IBSEC_SHAPE_IB_GLOBAL: return IBSEC_LRH_LEN + IBSEC_GRH_LEN;
    case IBSEC_SHAPE_ROCE_V4:   return IBSEC_MAC_LEN + IBSEC_IPV4_LEN + IBSEC_UDP_LEN;
    case IBSEC_SHAPE_ROCE_V6:   return IBSEC_MAC_LEN + IBSEC_IPV6_LEN + IBSEC_UDP_LEN;
    default:                    return 0;
    }
}

/* Rewrite every length field of a packet whose headers up to the BTH are
 * those of *p and whose total length (through ICRC/VCRC) is now `total`. */
static void write_lengths(uint8_t *buf, const struct ibsec_pkt *p, size_t total)
{
    if (p->link == IBSEC_LINK_IB) {
        /* §7.7.8 PktLen: 11 bits, words LRH..ICRC; keep Resv5. */
        uint16_t w = ibsec_get_be16(buf + p->lrh_off + 4);
        uint16_t words = (uint16_t)((total - IBSEC_VCRC_LEN) / 4u);
        ibsec_put_be16(buf + p->lrh_off + 4, (uint16_t)((w & 0xF800u) | (words & 0x07FFu)));
        if (p->has_grh) /* §8.3.5 PayLen: BTH..ICRC */
            ibsec_put_be16(buf + p->grh_off + 4, (uint16_t)(total - IBSEC_VCRC_LEN - p->bth_off));
        return;
    }
    uint8_t *ip = buf + p->ip_off;
    if (p->shape == IBSEC_SHAPE_ROCE_V4) {
        ibsec_put_be16(ip + 2, (uint16_t)(total - p->ip_off));      /* Total Length */
        ibsec_put_be16(ip + 10, ibsec_ipv4_checksum(ip));           /* Header Checksum */
    } else {
        ibsec_put_be16(ip + 4, (uint16_t)(total - p->udp_off));     /* Payload Length */
    }
    ibsec_put_be16(buf + p->udp_off + 4, (uint16_t)(total - p->udp_off)); /* UDP Length */
}

/* Write the headers before the BTH, with the derived fields set. */
static size_t write_net_headers(const struct ibsec_pkt_desc *d, uint8_t *buf, size_t total)
{
    size_t off = 0;
    if (d->shape == IBSEC_SHAPE_IB_LOCAL || d->shape == IBSEC_SHAPE_IB_GLOBAL) {
        struct ibsec_lrh lrh = d->lrh;
        lrh.lnh = (d->shape == IBSEC_SHAPE_IB_GLOBAL) ? IBSEC_LRH_LNH_IBA_GLOBAL
                                                      : IBSEC_LRH_LNH_IBA_LOCAL;
        lrh.pktlen = (uint16_t)((total - IBSEC_VCRC_LEN) / 4u);
        ibsec_lrh_encode(&lrh, buf);
        off = IBSEC_LRH_LEN;
        if (d->shape == IBSEC_SHAPE_IB_GLOBAL) {
            struct ibsec_grh grh = d->grh;
            grh.ipver = IBSEC_GRH_IPVER;
            grh.nxthdr = IBSEC_GRH_NXTHDR_IBA;
            grh.paylen = (uint16_t)(total - IBSEC_VCRC_LEN - (off + IBSEC_GRH_LEN));
            ibsec_grh_encode(&grh, buf + off);
            off += IBSEC_GRH_LEN;
        }
        return off;
    }
    struct ibsec_mac mac = d->mac;
    mac.ethertype = (d->shape == IBSEC_SHAPE_ROCE_V4) ? IBSEC_ETHERTYPE_IPV4
                                                      : IBSEC_ETHERTYPE_IPV6;
    ibsec_mac_encode(&mac, buf);
    off = IBSEC_MAC_LEN;
    if (d->shape == IBSEC_SHAPE_ROCE_V4) {
        struct ibsec_ipv4 ip = d->ip4;
        ip.version = 4;
        ip.ihl = IBSEC_IPV4_LEN / 4;
        ip.total_len = (uint16_t)(total - off);
        ip.proto = IBSEC_IPPROTO_UDP;
        ip.csum = 0;
        ibsec_ipv4_encode(&ip, buf + off);
        ibsec_put_be16(buf + off + 10, ibsec_ipv4_checksum(buf + off));
        off += IBSEC_IPV4_LEN;
    } else {
        struct ibsec_grh ip = d->ip6;
        ip.ipver = 6;
        ip.nxthdr = IBSEC_IPPROTO_UDP;
        ip.paylen = (uint16_t)(total - (off + IBSEC_IPV6_LEN));
        ibsec_grh_encode(&ip, buf + off);
        off += IBSEC_IPV6_LEN;
    }
    struct ibsec_udp udp = d->udp;
    udp.dport = IBSEC_ROCEV2_UDP_PORT;
    udp.len = (uint16_t)(total - off);
    udp.csum = 0; /* see ib_pkt.h: zero for IPv4 and IPv6 */
    ibsec_udp_encode(&udp, buf + off);
    return off + IBSEC_UDP_LEN;
}

/* Is the description buildable?  Returns the opcode row or NULL. */
static const struct ibsec_opcode_info *check_desc(const struct ibsec_pkt_desc *d)
{
    if ((unsigned)d->shape >= IBSEC_SHAPE_COUNT)
        return NULL;
    const struct ibsec_opcode_info *op = ibsec_opcode_lookup(d->bth.opcode);
    if (op == NULL)
        return NULL;
    if (op->tclass == IBSEC_TC_CNP && ibsec_shape_link(d->shape) != IBSEC_LINK_ROCE)
        return NULL;
    if (!valid_extra_len(d->extra_len) || d->payload_len > IBSEC_MAX_PAYLOAD)
        return NULL;
    if (!op->has_payload && d->payload_len != 0)
        return NULL;
    if (op->fixed_payload != 0 && d->payload_len != op->fixed_payload)
        return NULL;
    if (d->payload_len % 4 != 0 && !ibsec_opcode_pad_allowed(op))
        return NULL;
    return op;
}

enum ibsec_pkt_err ibsec_pkt_build(const struct ibsec_pkt_desc *d, uint8_t *buf, size_t cap,
                                   size_t *len, struct ibsec_pkt *out)
{
    const struct ibsec_opcode_info *op = check_desc(d);
    if (op == NULL || buf == NULL)
        return IBSEC_PKT_ERR_BAD_ARG;
    enum ibsec_link link = ibsec_shape_link(d->shape);
    uint8_t padcnt = (uint8_t)((4u - d->payload_len % 4u) % 4u);
    size_t total = net_header_len(d->shape) + IBSEC_BTH_LEN + op->eth_len + d->extra_len +
                   d->payload_len + padcnt + IBSEC_ICRC_LEN +
                   (link == IBSEC_LINK_IB ? IBSEC_VCRC_LEN : 0);
    if (total > cap)
        return IBSEC_PKT_ERR_NOSPACE;

    size_t off = write_net_headers(d, buf, total);
    struct ibsec_bth bth = d->bth;
    bth.padcnt = padcnt;
    ibsec_bth_encode(&bth, buf + off);
    off += IBSEC_BTH_LEN;
    for (unsigned i = 0; i < op->n_eths; i++) {
        ibsec_eth_encode(op->eths[i], &d->eths, buf + off);
        off += ibsec_eth_len(op->eths[i]);
    }
    if (d->extra != NULL)
        memcpy(buf + off, d->extra, d->extra_len);
    else
        memset(buf + off, 0, d->extra_len);
    off += d->extra_len;
    if (d->payload != NULL)
        memcpy(buf + off, d->payload, d->payload_len);
    else
        memset(buf + off, 0, d->payload_len);
    off += d->payload_len;
    memset(buf + off, 0, padcnt + IBSEC_ICRC_LEN + (link == IBSEC_LINK_IB ? IBSEC_VCRC_LEN : 0));

    struct ibsec_pkt tmp, *p = out ? out : &tmp;
    enum ibsec_pkt_err e = ibsec_pkt_parse(buf, total, link, d->extra_len, p);
    if (e != IBSEC_PKT_OK)
        return e; /* only if the description holds fields the parser rejects (LVer, TVer) */
    ibsec_pkt_put_crcs(buf, p);
    *len = total;
    return IBSEC_PKT_OK;
}

/* ---- extra header insert / remove --------------------------------------------------- */

enum ibsec_pkt_err ibsec_pkt_insert_extra(uint8_t *buf, size_t cap, const struct ibsec_pkt *in,
                                          const uint8_t *extra, size_t extra_len,
                                          size_t *new_len, struct ibsec_pkt *out)
{
    struct ibsec_pkt src = *in; /* in and out may be the same object */
    if (buf == NULL || src.extra_len != 0 || !valid_extra_len(extra_len))
        return IBSEC_PKT_ERR_BAD_ARG;
    size_t total = src.end + extra_len; /* any Ethernet min-frame padding is dropped */
    if (total > cap)
        return IBSEC_PKT_ERR_NOSPACE;
    memmove(buf + src.payload_off + extra_len, buf + src.payload_off,
            src.end - src.payload_off);
    if (extra != NULL)
        memcpy(buf + src.payload_off, extra, extra_len);
    else
        memset(buf + src.payload_off, 0, extra_len);
    write_lengths(buf, &src, total);
    *new_len = total;
    return ibsec_pkt_parse(buf, total, src.link, extra_len, out);
}

enum ibsec_pkt_err ibsec_pkt_remove_extra(uint8_t *buf, const struct ibsec_pkt *in,
                                          size_t *new_len, struct ibsec_pkt *out)
{
    struct ibsec_pkt src = *in;
    if (buf == NULL)
        return IBSEC_PKT_ERR_BAD_ARG;
    size_t total = src.end - src.extra_len;
    memmove(buf + src.extra_off, buf + src.payload_off, src.end - src.payload_off);
    write_lengths(buf, &src, total);
    *new_len = total;
    return ibsec_pkt_parse(buf, total, src.link, 0, out);
}
