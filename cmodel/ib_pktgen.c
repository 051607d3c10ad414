/*
 * ib_pktgen.c — deterministic random plain packets (see ib_pktgen.h).
 *
 * The order in which fields are drawn is part of the contract: the same seed
 * must give the same packets in every release of the vector files, so new
 * fields are drawn after the existing ones.
 */
#include "ib_pktgen.h"

#include <string.h>

/* IBA Vol. 1 §7.7.8 / §9.7: path MTUs; first and middle packets carry one PMTU. */
static const uint16_t pmtus[] = { 256, 512, 1024, 2048, 4096 };

/* Boundary lengths for last/only packets: around 0, the 4-byte pad boundary,
 * the 16-byte AES block, and the MTUs. */
static const uint16_t edge_lens[] = { 0, 1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33, 255, 256, 257,
                                      1023, 1024, 1025, 2047, 2048, 4093, 4094, 4095, 4096 };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* RoCEv2 UDP source ports are the flow-entropy range 0xC000-0xFFFF (Annex A17.4.2). */
#define ROCE_SPORT_MIN 0xC000u
#define ROCE_SPORT_MAX 0xFFFFu
/* DestQP 0 and 1 are the management QPs (SMI, GSI) whose payload is a MAD;
 * random payloads are not MADs, so the generator stays above them. */
#define FIRST_DATA_QP 2u
#define QPN_MAX 0xFFFFFFu

void ibsec_pktgen_default_opts(struct ibsec_pktgen_opts *o, enum ibsec_shape shape)
{
    memset(o, 0, sizeof *o);
    o->shape = shape;
    o->opcode = -1;
    o->payload_len = -1;
    o->extra_len = 0;
}

static bool opcode_fits_shape(const struct ibsec_opcode_info *op, enum ibsec_shape shape)
{
    return op->tclass != IBSEC_TC_CNP || ibsec_shape_link(shape) == IBSEC_LINK_ROCE;
}

uint8_t ibsec_pktgen_random_opcode(ibsec_rng *r, enum ibsec_shape shape)
{
    size_t n = 0;
    for (size_t i = 0; i < ibsec_opcode_count(); i++)
        n += opcode_fits_shape(ibsec_opcode_at(i), shape);
    uint32_t k = ibsec_rng_below(r, (uint32_t)n);
    for (size_t i = 0; i < ibsec_opcode_count(); i++) {
        const struct ibsec_opcode_info *op = ibsec_opcode_at(i);
        if (opcode_fits_shape(op, shape) && k-- == 0)
            return op->opcode;
    }
    return 0; /* not reached */
}

size_t ibsec_pktgen_random_payload_len(ibsec_rng *r, const struct ibsec_opcode_info *op)
{
    if (!op->has_payload)
        return 0;
    if (op->fixed_payload != 0)
        return op->fixed_payload;
    if (op->pos == IBSEC_POS_FIRST || op->pos == IBSEC_POS_MIDDLE)
        return pmtus[ibsec_rng_below(r, COUNT(pmtus))];
    size_t lo = (op->pos == IBSEC_POS_LAST) ? 1 : 0; /* a last packet carries >= 1 byte */
    size_t len;
    uint32_t kind = ibsec_rng_below(r, 8);
    if (kind < 2)
        len = edge_lens[ibsec_rng_below(r, COUNT(edge_lens))];
    else if (kind < 4)
        len = ibsec_rng_range(r, 0, 64);
    else
        len = ibsec_rng_range(r, 0, IBSEC_MAX_PAYLOAD);
    return len < lo ? lo : len;
}

static void random_mac(ibsec_rng *r, uint8_t a[6])
{
    ibsec_rng_bytes(r, a, 6);
    a[0] = (uint8_t)((a[0] & ~0x01u) | 0x02u); /* unicast, locally administered */
}

static void random_lrh(ibsec_rng *r, struct ibsec_lrh *h)
{
    h->vl = (uint8_t)ibsec_rng_below(r, 15); /* data VLs 0-14; VL15 is management */
    h->sl = (uint8_t)ibsec_rng_below(r, 16);
    h->dlid = (uint16_t)ibsec_rng_below(r, 1u << 16);
    h->slid = (uint16_t)ibsec_rng_below(r, 1u << 16);
}

static void random_grh(ibsec_rng *r, struct ibsec_grh *h)
{
    h->tclass = (uint8_t)ibsec_rng_below(r, 256);
    h->flow_label = ibsec_rng_below(r, 1u << 20);
    h->hoplmt = (uint8_t)ibsec_rng_below(r, 256);
    ibsec_rng_bytes(r, h->sgid, 16);
    ibsec_rng_bytes(r, h->dgid, 16);
}

static void random_net_headers(ibsec_rng *r, struct ibsec_pkt_desc *d)
{
    switch (d->shape) {
    case IBSEC_SHAPE_IB_GLOBAL:
        random_grh(r, &d->grh);
        random_lrh(r, &d->lrh);
        break;
    case IBSEC_SHAPE_IB_LOCAL:
        random_lrh(r, &d->lrh);
        break;
    case IBSEC_SHAPE_ROCE_V4:
        random_mac(r, d->mac.dst);
        random_mac(r, d->mac.src);
        d->ip4.tos = (uint8_t)ibsec_rng_below(r, 256);
        d->ip4.id = (uint16_t)ibsec_rng_below(r, 1u << 16);
        d->ip4.flags = 0x2; /* DF */
        d->ip4.ttl = (uint8_t)ibsec_rng_range(r, 1, 255);
        ibsec_rng_bytes(r, d->ip4.src, 4);
        ibsec_rng_bytes(r, d->ip4.dst, 4);
        d->udp.sport = (uint16_t)ibsec_rng_range(r, ROCE_SPORT_MIN, ROCE_SPORT_MAX);
        break;
    case IBSEC_SHAPE_ROCE_V6:
        random_mac(r, d->mac.dst);
        random_mac(r, d->mac.src);
        d->ip6.tclass = (uint8_t)ibsec_rng_below(r, 256);
        d->ip6.flow_label = ibsec_rng_below(r, 1u << 20);
        d->ip6.hoplmt = (uint8_t)ibsec_rng_range(r, 1, 255);
        ibsec_rng_bytes(r, d->ip6.sgid, 16);
        ibsec_rng_bytes(r, d->ip6.dgid, 16);
        d->udp.sport = (uint16_t)ibsec_rng_range(r, ROCE_SPORT_MIN, ROCE_SPORT_MAX);
        break;
    default:
        break;
    }
}

static void random_bth(ibsec_rng *r, uint8_t opcode, struct ibsec_bth *b)
{
    b->opcode = opcode;
    b->se = (uint8_t)ibsec_rng_below(r, 2);
    b->migreq = (uint8_t)ibsec_rng_below(r, 2);
    b->tver = IBSEC_BTH_TVER;
    b->pkey = (uint16_t)ibsec_rng_below(r, 1u << 16);
    b->fecn = (uint8_t)ibsec_rng_below(r, 2);
    b->becn = (uint8_t)ibsec_rng_below(r, 2);
    b->destqp = ibsec_rng_range(r, FIRST_DATA_QP, QPN_MAX);
    b->ackreq = (uint8_t)ibsec_rng_below(r, 2);
    b->psn = ibsec_rng_below(r, 1u << 24);
}

static void random_eths(ibsec_rng *r, struct ibsec_eths *e)
{
    e->rdeth_eecnxt = ibsec_rng_below(r, 1u << 24);
    e->deth_qkey = ibsec_rng_u32(r);
    e->deth_srcqp = ibsec_rng_range(r, FIRST_DATA_QP, QPN_MAX);
    e->xrceth_xrcsrq = ibsec_rng_below(r, 1u << 24);
    e->reth_va = ibsec_rng_next(r);
    e->reth_rkey = ibsec_rng_u32(r);
    e->reth_dmalen = ibsec_rng_u32(r);
    e->atomic_va = ibsec_rng_next(r);
    e->atomic_rkey = ibsec_rng_u32(r);
    e->atomic_swap = ibsec_rng_next(r);
    e->atomic_cmp = ibsec_rng_next(r);
    e->aeth_syndrome = (uint8_t)ibsec_rng_below(r, 256);
    e->aeth_msn = ibsec_rng_below(r, 1u << 24);
    e->atomicack_orig = ibsec_rng_next(r);
    e->immdt = ibsec_rng_u32(r);
    e->ieth_rkey = ibsec_rng_u32(r);
}

enum ibsec_pkt_err ibsec_pktgen_desc(ibsec_rng *r, const struct ibsec_pktgen_opts *o,
                                     struct ibsec_pkt_desc *d, uint8_t *payload_buf)
{
    if ((unsigned)o->shape >= IBSEC_SHAPE_COUNT || o->opcode > 0xFF ||
        o->payload_len > (int)IBSEC_MAX_PAYLOAD)
        return IBSEC_PKT_ERR_BAD_ARG;
    memset(d, 0, sizeof *d);
    d->shape = o->shape;
    uint8_t opcode = (o->opcode >= 0) ? (uint8_t)o->opcode
                                      : ibsec_pktgen_random_opcode(r, o->shape);
    const struct ibsec_opcode_info *op = ibsec_opcode_lookup(opcode);
    if (op == NULL || !opcode_fits_shape(op, o->shape))
        return IBSEC_PKT_ERR_BAD_ARG;
    d->payload_len = (o->payload_len >= 0) ? (size_t)o->payload_len
                                           : ibsec_pktgen_random_payload_len(r, op);
    random_net_headers(r, d);
    random_bth(r, opcode, &d->bth);
    random_eths(r, &d->eths);
    ibsec_rng_bytes(r, payload_buf, d->payload_len);
    d->payload = payload_buf;
    d->extra = NULL;
    d->extra_len = o->extra_len;
    return IBSEC_PKT_OK;
}

enum ibsec_pkt_err ibsec_pktgen(ibsec_rng *r, const struct ibsec_pktgen_opts *o,
                                uint8_t *buf, size_t cap, size_t *len, struct ibsec_pkt *out)
{
    struct ibsec_pkt_desc d;
    uint8_t payload[IBSEC_MAX_PAYLOAD];
    enum ibsec_pkt_err e = ibsec_pktgen_desc(r, o, &d, payload);
    if (e != IBSEC_PKT_OK)
        return e;
    return ibsec_pkt_build(&d, buf, cap, len, out);
}

void ibsec_pktgen_udp_csum(ibsec_rng *r, uint8_t *buf, size_t len, enum ibsec_link link)
{
    size_t bth = 0;
    if (link != IBSEC_LINK_ROCE || ibsec_pkt_find_bth(buf, len, link, &bth) != IBSEC_PKT_OK ||
        bth < IBSEC_UDP_LEN)
        return;
    ibsec_put_be16(buf + bth - IBSEC_UDP_LEN + IBSEC_UDP_CSUM_OFF,
                   (uint16_t)ibsec_rng_range(r, 1, 0xffff));
}
