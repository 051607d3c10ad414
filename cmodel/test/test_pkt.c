/*
 * test_pkt.c — build/parse of native IBA and RoCEv2 packets (ib_pkt.c, ib_opcode.c), target
 * ctest-pkt.
 *
 * 1. Round trip: for every header shape (native LRH-only, native with GRH, RoCEv2 over
 *    IPv4, RoCEv2 over IPv6), every opcode the shape allows, and every payload length of
 *    a boundary list that the opcode allows (all four pad counts, 0, the 16-byte block,
 *    the MTUs, 4093..4096), a packet with random header fields is built and parsed, and
 *    every field of every header must come back: LRH, GRH, Ethernet, IPv4, IPv6, UDP,
 *    BTH, each ETH the opcode carries (at the offset the IBA §9.3 lengths give), the
 *    payload bytes, zero pad bytes, and the derived fields (LNH, PktLen in 4-byte words,
 *    GRH PayLen, IP lengths and checksum, UDP port and length, PadCnt). Plus every
 *    payload length 0..4096 for one opcode per shape, and extra-header insert/remove.
 * 2. Malformed packets: each mutation of a valid packet must be rejected with its named
 *    error (PktLen, truncation at every length, reserved/unknown opcodes, PadCnt, LNH,
 *    LVer, TVer, GRH IPVer/NxtHdr/PayLen, EtherType, IP version/IHL/checksum/fragments/
 *    protocol/lengths, UDP port/length, over-long payload, ICRC, VCRC), and the builder
 *    must refuse impossible descriptions.
 * Expected values come from the specification (lengths, constants) and from the random
 * description the packet was built from, never from the parser under test.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "crc.h"
#include "ib_opcode.h"
#include "ib_pkt.h"
#include "ib_pktgen.h"
#include "rng.h"

/* ETH lengths in bytes, IBA Vol. 1 §9.3 (XRCETH: Annex A14), written here again so the
 * offsets the parser reports are checked against the specification, not the table. */
static size_t spec_eth_len(enum ibsec_eth e)
{
    switch (e) {
    case IBSEC_ETH_RDETH: return 4;        /* Resv8, EE-Context 24 */
    case IBSEC_ETH_DETH: return 8;         /* Q_Key 32, Resv8, SrcQP 24 */
    case IBSEC_ETH_XRCETH: return 4;       /* Resv8, XRCSRQ 24 */
    case IBSEC_ETH_RETH: return 16;        /* VA 64, R_Key 32, DMALen 32 */
    case IBSEC_ETH_ATOMICETH: return 28;   /* VA 64, R_Key 32, SwapDt 64, CmpDt 64 */
    case IBSEC_ETH_AETH: return 4;         /* Syndrome 8, MSN 24 */
    case IBSEC_ETH_ATOMICACKETH: return 8; /* OrigRemDt 64 */
    case IBSEC_ETH_IMMDT: return 4;
    case IBSEC_ETH_IETH: return 4;         /* R_Key 32 */
    default: return 0;
    }
}

/* Bytes before the BTH, per shape. */
static size_t spec_net_len(enum ibsec_shape s)
{
    switch (s) {
    case IBSEC_SHAPE_IB_LOCAL: return 8;            /* LRH */
    case IBSEC_SHAPE_IB_GLOBAL: return 8 + 40;      /* LRH, GRH */
    case IBSEC_SHAPE_ROCE_V4: return 14 + 20 + 8;   /* MAC, IPv4, UDP */
    case IBSEC_SHAPE_ROCE_V6: return 14 + 40 + 8;   /* MAC, IPv6, UDP */
    default: return 0;
    }
}

static bool shape_allows(enum ibsec_shape s, const struct ibsec_opcode_info *op)
{
    return op->tclass != IBSEC_TC_CNP || ibsec_shape_link(s) == IBSEC_LINK_ROCE;
}

/* RFC 1071: the one's-complement sum of a correct IPv4 header, checksum included, is
 * 0xFFFF. */
static int ipv4_header_sum_ok(const uint8_t *h)
{
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
        sum += (uint32_t)(h[i] << 8 | h[i + 1]);
    while (sum >> 16)
        sum = (sum & 0xFFFFu) + (sum >> 16);
    return sum == 0xFFFFu;
}

/* Recomputes the IPv4 header checksum after a mutation (so that the mutation, not the
 * checksum, is what the parser sees). */
static void fix_ipv4_csum(uint8_t *buf, const struct ibsec_pkt *p)
{
    uint8_t *h = buf + p->ip_off;
    h[10] = h[11] = 0;
    uint16_t cs = ibsec_ipv4_checksum(h);
    h[10] = (uint8_t)(cs >> 8);
    h[11] = (uint8_t)cs;
}

/* ---- 1. round trip ---------------------------------------------------------------- */

#define F(name, field) check_int(c, name, (long long)(d->field), (long long)(p->field))

static void check_eth_fields(check_ctx *c, const struct ibsec_pkt_desc *d,
                             const struct ibsec_pkt *p, enum ibsec_eth e)
{
    switch (e) {
    case IBSEC_ETH_RDETH: F("RDETH EE-Context", eths.rdeth_eecnxt); break;
    case IBSEC_ETH_DETH: F("DETH Q_Key", eths.deth_qkey); F("DETH SrcQP", eths.deth_srcqp); break;
    case IBSEC_ETH_XRCETH: F("XRCETH XRCSRQ", eths.xrceth_xrcsrq); break;
    case IBSEC_ETH_RETH:
        F("RETH VA", eths.reth_va); F("RETH R_Key", eths.reth_rkey);
        F("RETH DMALen", eths.reth_dmalen); break;
    case IBSEC_ETH_ATOMICETH:
        F("AtomicETH VA", eths.atomic_va); F("AtomicETH R_Key", eths.atomic_rkey);
        F("AtomicETH SwapDt", eths.atomic_swap); F("AtomicETH CmpDt", eths.atomic_cmp); break;
    case IBSEC_ETH_AETH: F("AETH Syndrome", eths.aeth_syndrome); F("AETH MSN", eths.aeth_msn); break;
    case IBSEC_ETH_ATOMICACKETH: F("AtomicAckETH OrigRemDt", eths.atomicack_orig); break;
    case IBSEC_ETH_IMMDT: F("ImmDt", eths.immdt); break;
    case IBSEC_ETH_IETH: F("IETH R_Key", eths.ieth_rkey); break;
    default: check_true(c, 0, "unknown ETH in the opcode table"); break;
    }
}

static void check_native_headers(check_ctx *c, const struct ibsec_pkt_desc *d,
                                 const struct ibsec_pkt *p, size_t len)
{
    bool grh = d->shape == IBSEC_SHAPE_IB_GLOBAL;
    F("LRH VL", lrh.vl); F("LRH LVer", lrh.lver); F("LRH SL", lrh.sl);
    F("LRH Resv2", lrh.resv2); F("LRH DLID", lrh.dlid); F("LRH Resv5", lrh.resv5);
    F("LRH SLID", lrh.slid);
    check_int(c, "LRH LNH (§7.7.6: 2 BTH follows, 3 GRH follows)", grh ? 3 : 2, p->lrh.lnh);
    check_int(c, "LRH PktLen = 4-byte words LRH..ICRC", (long long)((len - 2) / 4), p->lrh.pktlen);
    check_int(c, "PktLen*4 + VCRC = packet length", (long long)len, p->lrh.pktlen * 4 + 2);
    check_int(c, "has_vcrc", 1, p->has_vcrc);
    if (!grh)
        return;
    F("GRH TClass", grh.tclass); F("GRH FlowLabel", grh.flow_label); F("GRH HopLmt", grh.hoplmt);
    check_bytes(c, "GRH SGID", d->grh.sgid, p->grh.sgid, 16);
    check_bytes(c, "GRH DGID", d->grh.dgid, p->grh.dgid, 16);
    check_int(c, "GRH IPVer", 6, p->grh.ipver);
    check_int(c, "GRH NxtHdr (IBA = 0x1B)", 0x1B, p->grh.nxthdr);
    check_int(c, "GRH PayLen = BTH..ICRC", (long long)(len - 2 - 48), p->grh.paylen);
}

static void check_roce_headers(check_ctx *c, const struct ibsec_pkt_desc *d,
                               const struct ibsec_pkt *p, const uint8_t *buf, size_t len)
{
    bool v4 = d->shape == IBSEC_SHAPE_ROCE_V4;
    check_bytes(c, "MAC destination", d->mac.dst, p->mac.dst, 6);
    check_bytes(c, "MAC source", d->mac.src, p->mac.src, 6);
    check_int(c, "EtherType", v4 ? 0x0800 : 0x86DD, p->mac.ethertype);
    if (v4) {
        F("IPv4 TOS", ip4.tos); F("IPv4 ID", ip4.id); F("IPv4 flags", ip4.flags);
        F("IPv4 fragment offset", ip4.frag_off); F("IPv4 TTL", ip4.ttl);
        check_bytes(c, "IPv4 source", d->ip4.src, p->ip4.src, 4);
        check_bytes(c, "IPv4 destination", d->ip4.dst, p->ip4.dst, 4);
        check_int(c, "IPv4 version", 4, p->ip4.version);
        check_int(c, "IPv4 IHL", 5, p->ip4.ihl);
        check_int(c, "IPv4 protocol UDP", 17, p->ip4.proto);
        check_int(c, "IPv4 Total Length = IP..ICRC", (long long)(len - 14), p->ip4.total_len);
        check_true(c, ipv4_header_sum_ok(buf + 14), "IPv4 header checksum (RFC 1071 sum)");
    } else {
        F("IPv6 traffic class", ip6.tclass); F("IPv6 flow label", ip6.flow_label);
        F("IPv6 hop limit", ip6.hoplmt);
        check_bytes(c, "IPv6 source", d->ip6.sgid, p->ip6.sgid, 16);
        check_bytes(c, "IPv6 destination", d->ip6.dgid, p->ip6.dgid, 16);
        check_int(c, "IPv6 version", 6, p->ip6.ipver);
        check_int(c, "IPv6 next header UDP", 17, p->ip6.nxthdr);
        check_int(c, "IPv6 Payload Length = UDP..ICRC", (long long)(len - 14 - 40), p->ip6.paylen);
    }
    F("UDP source port", udp.sport);
    check_int(c, "UDP destination port (A17.4.2)", 4791, p->udp.dport);
    check_int(c, "UDP Length = UDP..ICRC", (long long)(len - 14 - (v4 ? 20 : 40)), p->udp.len);
    check_int(c, "UDP checksum 0", 0, p->udp.csum);
    check_int(c, "no VCRC on RoCEv2", 0, p->has_vcrc);
}

static void check_roundtrip(check_ctx *c, const struct ibsec_pkt_desc *d, const uint8_t *buf,
                            size_t len, const struct ibsec_pkt *p)
{
    const struct ibsec_opcode_info *op = ibsec_opcode_lookup(d->bth.opcode);
    bool native = ibsec_shape_link(d->shape) == IBSEC_LINK_IB;
    size_t pad = (4 - d->payload_len % 4) % 4;
    size_t eth_total = 0;
    for (unsigned i = 0; i < op->n_eths; i++)
        eth_total += spec_eth_len(op->eths[i]);
    size_t want_len = spec_net_len(d->shape) + 12 + eth_total + d->payload_len + pad + 4 +
                      (native ? 2 : 0);
    check_int(c, "packet length", (long long)want_len, (long long)len);
    check_int(c, "shape", d->shape, p->shape);
    check_int(c, "BTH offset", (long long)spec_net_len(d->shape), (long long)p->bth_off);
    if (native)
        check_native_headers(c, d, p, len);
    else
        check_roce_headers(c, d, p, buf, len);
    F("BTH OpCode", bth.opcode); F("BTH SE", bth.se); F("BTH M", bth.migreq);
    F("BTH TVer", bth.tver); F("BTH P_Key", bth.pkey); F("BTH FECN", bth.fecn);
    F("BTH BECN", bth.becn); F("BTH Resv6a", bth.resv6a); F("BTH DestQP", bth.destqp);
    F("BTH AckReq", bth.ackreq); F("BTH Resv7", bth.resv7); F("BTH PSN", bth.psn);
    check_int(c, "BTH PadCnt = (4 - payload mod 4) mod 4", (long long)pad, p->bth.padcnt);
    size_t off = p->bth_off + 12;
    for (unsigned i = 0; i < op->n_eths; i++) {
        enum ibsec_eth e = op->eths[i];
        check_true(c, (p->eth_mask >> e) & 1u, "ETH present in eth_mask");
        check_int(c, "ETH offset (IBA §9.3 lengths)", (long long)off, (long long)p->eth_off[e]);
        check_eth_fields(c, d, p, e);
        off += spec_eth_len(e);
    }
    check_int(c, "payload offset", (long long)off, (long long)p->payload_off);
    check_int(c, "payload length", (long long)d->payload_len, (long long)p->payload_len);
    check_bytes(c, "payload bytes", d->payload, buf + p->payload_off, d->payload_len);
    static const uint8_t zeros[4] = { 0, 0, 0, 0 };
    check_bytes(c, "pad bytes are zero", zeros, buf + p->pad_off, pad);
    check_int(c, "ICRC offset", (long long)(len - 4 - (native ? 2 : 0)), (long long)p->icrc_off);
    check_int(c, "CRCs of a built packet", IBSEC_PKT_OK, ibsec_pkt_check_crcs(buf, p));
    size_t bth_off = 0;
    check_int(c, "find_bth", IBSEC_PKT_OK,
              ibsec_pkt_find_bth(buf, len, ibsec_shape_link(d->shape), &bth_off));
    check_int(c, "find_bth offset", (long long)p->bth_off, (long long)bth_off);
}
#undef F

/* Builds a packet from a random description with the given opcode and payload length and
 * checks the round trip.  Returns 1 if the build succeeded. */
static int roundtrip_one(check_ctx *c, ibsec_rng *r, enum ibsec_shape s, uint8_t opcode,
                         size_t payload_len)
{
    static uint8_t buf[IBSEC_MAX_PKT], payload[IBSEC_MAX_PAYLOAD];
    struct ibsec_pktgen_opts o;
    struct ibsec_pkt_desc d;
    struct ibsec_pkt p, q;
    size_t len;
    char what[128];
    ibsec_pktgen_default_opts(&o, s);
    o.opcode = opcode;
    o.payload_len = (int)payload_len;
    snprintf(what, sizeof what, "%s %s payload %zu: describe", ibsec_shape_name(s),
             ibsec_opcode_name(opcode), payload_len);
    if (!check_int(c, what, IBSEC_PKT_OK, ibsec_pktgen_desc(r, &o, &d, payload)))
        return 0;
    snprintf(what, sizeof what, "%s %s payload %zu: build", ibsec_shape_name(s),
             ibsec_opcode_name(opcode), payload_len);
    if (!check_int(c, what, IBSEC_PKT_OK, ibsec_pkt_build(&d, buf, sizeof buf, &len, &p)))
        return 0;
    /* Parse again from the bytes alone (the builder's own parse is not trusted). */
    snprintf(what, sizeof what, "%s %s payload %zu: parse", ibsec_shape_name(s),
             ibsec_opcode_name(opcode), payload_len);
    if (!check_int(c, what, IBSEC_PKT_OK,
                   ibsec_pkt_parse(buf, len, ibsec_shape_link(s), 0, &q)))
        return 0;
    unsigned long failed_before = c->failed;
    check_roundtrip(c, &d, buf, len, &q);
    if (c->failed != failed_before)
        printf("  (in %s)\n", what);
    return 1;
}

static bool length_allowed(const struct ibsec_opcode_info *op, size_t n)
{
    if (!op->has_payload)
        return n == 0;
    if (op->fixed_payload != 0)
        return n == op->fixed_payload;
    if (!ibsec_opcode_pad_allowed(op))
        return n % 4 == 0;
    return true;
}

static void test_roundtrip(check_ctx *c, ibsec_rng *r)
{
    static const size_t lens[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 16, 17, 18, 19,
                                   255, 256, 257, 258, 1023, 1024, 1025, 1026, 2047, 2048,
                                   4092, 4093, 4094, 4095, 4096 };
    unsigned long packets = 0, per_pad[4] = { 0, 0, 0, 0 };
    for (int s = 0; s < IBSEC_SHAPE_COUNT; s++) {
        for (size_t i = 0; i < ibsec_opcode_count(); i++) {
            const struct ibsec_opcode_info *op = ibsec_opcode_at(i);
            if (!shape_allows((enum ibsec_shape)s, op))
                continue;
            for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
                if (!length_allowed(op, lens[k]))
                    continue;
                packets += roundtrip_one(c, r, (enum ibsec_shape)s, op->opcode, lens[k]);
                per_pad[(4 - lens[k] % 4) % 4]++;
            }
        }
        /* Every length 0..4096 for one opcode (RC SEND Only) per shape. */
        for (size_t n = 0; n <= IBSEC_MAX_PAYLOAD; n++)
            packets += roundtrip_one(c, r, (enum ibsec_shape)s, 0x04, n);
    }
    printf("pkt: round trip of %lu packets (boundary lengths by pad count 0/1/2/3: "
           "%lu/%lu/%lu/%lu)\n", packets, per_pad[0], per_pad[1], per_pad[2], per_pad[3]);
    check_true(c, per_pad[1] && per_pad[2] && per_pad[3], "every nonzero pad count exercised");
}

/* Extra header (STH) insert and remove: lengths rewritten, payload moved, inverse exact. */
static void test_extra(check_ctx *c, ibsec_rng *r)
{
    static uint8_t buf[IBSEC_MAX_PKT], orig[IBSEC_MAX_PKT];
    uint8_t extra[16];
    for (int s = 0; s < IBSEC_SHAPE_COUNT; s++) {
        for (int k = 0; k < 40; k++) {
            struct ibsec_pktgen_opts o;
            struct ibsec_pkt p, q, back;
            size_t len, len2, len3;
            ibsec_pktgen_default_opts(&o, (enum ibsec_shape)s);
            if (ibsec_pktgen(r, &o, buf, sizeof buf, &len, &p) != IBSEC_PKT_OK) {
                check_true(c, 0, "extra: generate");
                continue;
            }
            memcpy(orig, buf, len);
            size_t xl = (k & 1) ? 16 : 12;
            ibsec_rng_bytes(r, extra, xl);
            check_int(c, "insert_extra", IBSEC_PKT_OK,
                      ibsec_pkt_insert_extra(buf, sizeof buf, &p, extra, xl, &len2, &q));
            check_int(c, "insert_extra: length", (long long)(len + xl), (long long)len2);
            check_bytes(c, "insert_extra: extra bytes", extra, buf + q.extra_off, xl);
            check_int(c, "insert_extra: payload length kept", (long long)p.payload_len,
                      (long long)q.payload_len);
            check_bytes(c, "insert_extra: payload moved", orig + p.payload_off,
                        buf + q.payload_off, p.payload_len);
            ibsec_pkt_put_crcs(buf, &q);
            check_int(c, "insert_extra: CRCs after put_crcs", IBSEC_PKT_OK,
                      ibsec_pkt_check_crcs(buf, &q));
            check_int(c, "remove_extra", IBSEC_PKT_OK, ibsec_pkt_remove_extra(buf, &q, &len3, &back));
            ibsec_pkt_put_crcs(buf, &back);
            check_int(c, "remove_extra: length", (long long)len, (long long)len3);
            check_bytes(c, "remove_extra restores the packet", orig, buf, len);
        }
    }
}

/* ---- 2. malformed packets --------------------------------------------------------- */

static uint8_t base[IBSEC_MAX_PKT + 8], work[IBSEC_MAX_PKT + 8];

/* Builds the base packet; returns its length (0 on failure, counted). */
static size_t make_base(check_ctx *c, ibsec_rng *r, enum ibsec_shape s, uint8_t opcode,
                        int payload_len, struct ibsec_pkt *p)
{
    struct ibsec_pktgen_opts o;
    size_t len;
    ibsec_pktgen_default_opts(&o, s);
    o.opcode = opcode;
    o.payload_len = payload_len;
    if (!check_int(c, "malformed corpus: base packet built", IBSEC_PKT_OK,
                   ibsec_pktgen(r, &o, base, IBSEC_MAX_PKT, &len, p)))
        return 0;
    return len;
}

static void expect_err(check_ctx *c, const char *what, enum ibsec_shape s, const uint8_t *buf,
                       size_t len, enum ibsec_pkt_err want)
{
    struct ibsec_pkt q;
    enum ibsec_pkt_err got = ibsec_pkt_parse(buf, len, ibsec_shape_link(s), 0, &q);
    if (got == want)
        c->passed++;
    else
        check_failf(c, "%s %s: expected %s, got %s", ibsec_shape_name(s), what,
                    ibsec_pkt_err_name(want), ibsec_pkt_err_name(got));
}

/* Cut the packet at every length below its own: a cut inside a header (or before the
 * room for the ETHs and the CRCs) is "truncated", a cut inside the payload fails the
 * outermost length field. */
static void malformed_truncation(check_ctx *c, ibsec_rng *r, enum ibsec_shape s)
{
    for (size_t i = 0; i < ibsec_opcode_count(); i++) {
        const struct ibsec_opcode_info *op = ibsec_opcode_at(i);
        if (!shape_allows(s, op))
            continue;
        struct ibsec_pkt p;
        int pl = op->has_payload ? (op->fixed_payload ? op->fixed_payload : 24) : 0;
        size_t len = make_base(c, r, s, op->opcode, pl, &p);
        if (len == 0)
            continue;
        bool native = ibsec_shape_link(s) == IBSEC_LINK_IB;
        size_t room = spec_net_len(s) + 12 + op->eth_len + 4 + (native ? 2 : 0);
        char what[96];
        for (size_t cut = 0; cut < len; cut++) {
            enum ibsec_pkt_err want = cut < room ? IBSEC_PKT_ERR_TRUNCATED
                                      : native   ? IBSEC_PKT_ERR_BAD_PKTLEN
                                                 : IBSEC_PKT_ERR_BAD_IP_LEN;
            /* A RoCEv2 frame cut to exactly 60 bytes would read as Ethernet padding;
             * the IP length then still exceeds the frame: bad_ip_len either way. */
            snprintf(what, sizeof what, "%s cut to %zu of %zu bytes", op->name, cut, len);
            expect_err(c, what, s, base, cut, want);
        }
    }
}

/* Every opcode not in the table is rejected; so is CNP on native IBA. */
static void malformed_opcodes(check_ctx *c, ibsec_rng *r, enum ibsec_shape s)
{
    struct ibsec_pkt p;
    size_t len = make_base(c, r, s, 0x04, 0, &p); /* RC SEND Only, no ETH, no payload */
    if (len == 0)
        return;
    char what[64];
    unsigned rejected = 0;
    for (unsigned v = 0; v < 256; v++) {
        const struct ibsec_opcode_info *op = ibsec_opcode_lookup((uint8_t)v);
        if (op != NULL && shape_allows(s, op))
            continue;
        memcpy(work, base, len);
        work[p.bth_off] = (uint8_t)v;
        snprintf(what, sizeof what, "opcode 0x%02x", v);
        expect_err(c, what, s, work, len, IBSEC_PKT_ERR_BAD_OPCODE);
        rejected++;
    }
    /* The reserved codes of the RC/UC/RD/UD classes alone are 128 - 82 = 46 values,
     * the classes 110/111 another 64: at least 110 opcodes must have been tried. */
    check_true(c, rejected >= 110, "enough reserved/unknown opcodes tried");
}

/* One header-field mutation: copy the base, apply, expect. */
#define MUTATE(what, want, stmt)                            \
    do {                                                    \
        memcpy(work, base, len);                            \
        stmt;                                               \
        expect_err(c, what, s, work, len, want);            \
    } while (0)

static void malformed_native(check_ctx *c, ibsec_rng *r, enum ibsec_shape s)
{
    struct ibsec_pkt p;
    size_t len = make_base(c, r, s, 0x0A, 40, &p); /* RC RDMA WRITE Only, RETH, 40 B */
    if (len == 0)
        return;
    uint16_t pktlen = p.lrh.pktlen;
#define SET_PKTLEN(v) ibsec_put_be16(work + 4, (uint16_t)((ibsec_get_be16(work + 4) & 0xF800u) | ((v) & 0x7FFu)))
    MUTATE("PktLen + 1", IBSEC_PKT_ERR_BAD_PKTLEN, SET_PKTLEN(pktlen + 1));
    MUTATE("PktLen - 1", IBSEC_PKT_ERR_BAD_PKTLEN, SET_PKTLEN(pktlen - 1));
    MUTATE("PktLen 0", IBSEC_PKT_ERR_BAD_PKTLEN, SET_PKTLEN(0));
    MUTATE("PktLen 2047", IBSEC_PKT_ERR_BAD_PKTLEN, SET_PKTLEN(2047));
#undef SET_PKTLEN
    MUTATE("LNH 0 (raw)", IBSEC_PKT_ERR_BAD_LNH, work[1] &= 0xFC);
    MUTATE("LNH 1 (IP non-IBA)", IBSEC_PKT_ERR_BAD_LNH, work[1] = (uint8_t)((work[1] & 0xFC) | 1));
    for (unsigned v = 1; v < 16; v++)
        MUTATE("LVer != 0", IBSEC_PKT_ERR_BAD_LVER, work[0] = (uint8_t)((work[0] & 0xF0) | v));
    for (unsigned v = 1; v < 16; v++)
        MUTATE("TVer != 0", IBSEC_PKT_ERR_BAD_TVER,
               work[p.bth_off + 1] = (uint8_t)((work[p.bth_off + 1] & 0xF0) | v));
    if (s == IBSEC_SHAPE_IB_GLOBAL) {
        size_t g = p.grh_off;
        MUTATE("GRH IPVer 4", IBSEC_PKT_ERR_BAD_IPVER, work[g] = (uint8_t)((work[g] & 0x0F) | 0x40));
        MUTATE("GRH NxtHdr 0x11", IBSEC_PKT_ERR_BAD_NXTHDR, work[g + 6] = 0x11);
        MUTATE("GRH PayLen + 1", IBSEC_PKT_ERR_BAD_GRH_PAYLEN,
               ibsec_put_be16(work + g + 4, (uint16_t)(p.grh.paylen + 1)));
        MUTATE("GRH PayLen - 4", IBSEC_PKT_ERR_BAD_GRH_PAYLEN,
               ibsec_put_be16(work + g + 4, (uint16_t)(p.grh.paylen - 4)));
    }
    /* CNP exists only on RoCEv2. */
    MUTATE("CNP opcode on native IBA", IBSEC_PKT_ERR_BAD_OPCODE, work[p.bth_off] = 0x81);

    /* ICRC and VCRC (the parser accepts, ibsec_pkt_check_crcs rejects). */
    struct ibsec_pkt q;
    memcpy(work, base, len);
    work[p.icrc_off + 2] ^= 0x10;
    if (check_int(c, "native: ICRC flipped, VCRC stale: parse ok", IBSEC_PKT_OK,
                  ibsec_pkt_parse(work, len, IBSEC_LINK_IB, 0, &q))) {
        check_int(c, "native: ICRC flipped, VCRC stale: bad_vcrc", IBSEC_PKT_ERR_BAD_VCRC,
                  ibsec_pkt_check_crcs(work, &q));
        ibsec_pkt_put_vcrc(work, &q);
        check_int(c, "native: ICRC flipped, VCRC recomputed: bad_icrc", IBSEC_PKT_ERR_BAD_ICRC,
                  ibsec_pkt_check_crcs(work, &q));
    }
    memcpy(work, base, len);
    work[p.vcrc_off + 1] ^= 0x01;
    check_int(c, "native: VCRC flipped: bad_vcrc", IBSEC_PKT_ERR_BAD_VCRC,
              ibsec_pkt_check_crcs(work, &p));
}

static void malformed_roce(check_ctx *c, ibsec_rng *r, enum ibsec_shape s)
{
    struct ibsec_pkt p;
    size_t len = make_base(c, r, s, 0x0A, 40, &p);
    if (len == 0)
        return;
    size_t ip = p.ip_off, udp = p.udp_off;
    MUTATE("EtherType 0x8100 (VLAN tag)", IBSEC_PKT_ERR_BAD_ETHERTYPE, ibsec_put_be16(work + 12, 0x8100));
    MUTATE("EtherType 0x8915 (RoCEv1)", IBSEC_PKT_ERR_BAD_ETHERTYPE, ibsec_put_be16(work + 12, 0x8915));
    MUTATE("EtherType 0x0806 (ARP)", IBSEC_PKT_ERR_BAD_ETHERTYPE, ibsec_put_be16(work + 12, 0x0806));
    if (s == IBSEC_SHAPE_ROCE_V4) {
        MUTATE("IPv4 version 6 in an IPv4 frame", IBSEC_PKT_ERR_BAD_IPVER,
               (work[ip] = 0x65, fix_ipv4_csum(work, &p)));
        MUTATE("IPv4 version 5", IBSEC_PKT_ERR_BAD_IPVER, (work[ip] = 0x55, fix_ipv4_csum(work, &p)));
        MUTATE("IPv4 IHL 6 (options)", IBSEC_PKT_ERR_BAD_IPV4_IHL, (work[ip] = 0x46, fix_ipv4_csum(work, &p)));
        MUTATE("IPv4 IHL 4", IBSEC_PKT_ERR_BAD_IPV4_IHL, (work[ip] = 0x44, fix_ipv4_csum(work, &p)));
        MUTATE("IPv4 checksum + 1", IBSEC_PKT_ERR_BAD_IPV4_CSUM, work[ip + 11] ^= 0x01);
        MUTATE("IPv4 source changed, checksum stale", IBSEC_PKT_ERR_BAD_IPV4_CSUM, work[ip + 12] ^= 0x80);
        MUTATE("IPv4 MF (more fragments)", IBSEC_PKT_ERR_IP_FRAGMENT,
               (work[ip + 6] |= 0x20, fix_ipv4_csum(work, &p)));
        MUTATE("IPv4 fragment offset 1", IBSEC_PKT_ERR_IP_FRAGMENT,
               (work[ip + 7] |= 0x01, fix_ipv4_csum(work, &p)));
        MUTATE("IPv4 fragment offset 0x1000", IBSEC_PKT_ERR_IP_FRAGMENT,
               (work[ip + 6] |= 0x10, fix_ipv4_csum(work, &p)));
        MUTATE("IPv4 protocol TCP", IBSEC_PKT_ERR_NOT_UDP, (work[ip + 9] = 6, fix_ipv4_csum(work, &p)));
        MUTATE("IPv4 Total Length + 1", IBSEC_PKT_ERR_BAD_IP_LEN,
               (ibsec_put_be16(work + ip + 2, (uint16_t)(p.ip4.total_len + 1)), fix_ipv4_csum(work, &p)));
        MUTATE("IPv4 Total Length - 4", IBSEC_PKT_ERR_BAD_IP_LEN,
               (ibsec_put_be16(work + ip + 2, (uint16_t)(p.ip4.total_len - 4)), fix_ipv4_csum(work, &p)));
    } else {
        MUTATE("IPv6 version 4 in an IPv6 frame", IBSEC_PKT_ERR_BAD_IPVER,
               work[ip] = (uint8_t)((work[ip] & 0x0F) | 0x40));
        MUTATE("IPv6 next header TCP", IBSEC_PKT_ERR_NOT_UDP, work[ip + 6] = 6);
        MUTATE("IPv6 next header hop-by-hop", IBSEC_PKT_ERR_NOT_UDP, work[ip + 6] = 0);
        MUTATE("IPv6 Payload Length + 1", IBSEC_PKT_ERR_BAD_IP_LEN,
               ibsec_put_be16(work + ip + 4, (uint16_t)(p.ip6.paylen + 1)));
        MUTATE("IPv6 Payload Length - 4", IBSEC_PKT_ERR_BAD_IP_LEN,
               ibsec_put_be16(work + ip + 4, (uint16_t)(p.ip6.paylen - 4)));
    }
    MUTATE("UDP port 4790", IBSEC_PKT_ERR_BAD_UDP_PORT, ibsec_put_be16(work + udp + 2, 4790));
    MUTATE("UDP port 4792", IBSEC_PKT_ERR_BAD_UDP_PORT, ibsec_put_be16(work + udp + 2, 4792));
    MUTATE("UDP Length + 1", IBSEC_PKT_ERR_BAD_UDP_LEN, ibsec_put_be16(work + udp + 4, (uint16_t)(p.udp.len + 1)));
    MUTATE("UDP Length - 4", IBSEC_PKT_ERR_BAD_UDP_LEN, ibsec_put_be16(work + udp + 4, (uint16_t)(p.udp.len - 4)));
    for (unsigned v = 1; v < 16; v++)
        MUTATE("TVer != 0", IBSEC_PKT_ERR_BAD_TVER,
               work[p.bth_off + 1] = (uint8_t)((work[p.bth_off + 1] & 0xF0) | v));

    /* ICRC (the parser accepts, ibsec_pkt_check_crcs rejects). */
    struct ibsec_pkt q;
    memcpy(work, base, len);
    work[p.icrc_off] ^= 0x01;
    if (check_int(c, "roce: ICRC flipped: parse ok", IBSEC_PKT_OK,
                  ibsec_pkt_parse(work, len, IBSEC_LINK_ROCE, 0, &q)))
        check_int(c, "roce: ICRC flipped: bad_icrc", IBSEC_PKT_ERR_BAD_ICRC,
                  ibsec_pkt_check_crcs(work, &q));

    /* Bytes after the IP datagram: Ethernet padding is accepted only in a 60-byte frame. */
    memcpy(work, base, len);
    work[len] = 0;
    expect_err(c, "one byte after the IP datagram", s, work, len + 1, IBSEC_PKT_ERR_BAD_IP_LEN);

    /* A 58-byte RoCEv2/IPv4 packet (RDMA READ response middle, no payload) padded to the
     * 60-byte Ethernet minimum parses, ending where the IP length says. */
    if (s == IBSEC_SHAPE_ROCE_V4) {
        struct ibsec_pkt small;
        size_t sl = make_base(c, r, s, 0x0E, 0, &small);
        if (sl != 0) {
            check_int(c, "roce-v4 READ response middle, no payload: 58 bytes", 58, (long long)sl);
            memcpy(work, base, sl);
            memset(work + sl, 0, IBSEC_ETH_MIN_FRAME - sl);
            if (check_int(c, "roce-v4 58-byte packet padded to 60: parse ok", IBSEC_PKT_OK,
                          ibsec_pkt_parse(work, IBSEC_ETH_MIN_FRAME, IBSEC_LINK_ROCE, 0, &q))) {
                check_int(c, "roce-v4 padded: packet end", (long long)sl, (long long)q.end);
                check_int(c, "roce-v4 padded: CRCs", IBSEC_PKT_OK, ibsec_pkt_check_crcs(work, &q));
            }
            work[sl] = 0;
            expect_err(c, "58-byte packet padded to 59", s, work, sl + 1, IBSEC_PKT_ERR_BAD_IP_LEN);
        }
    }

    /* CNP (Annex A17.9) carries exactly 16 reserved bytes. */
    struct ibsec_pkt cp;
    size_t clen = make_base(c, r, s, 0x04, 20, &cp); /* SEND Only, 20-byte payload */
    if (clen != 0) {
        memcpy(work, base, clen);
        work[cp.bth_off] = 0x81;
        expect_err(c, "CNP with 20 bytes after the BTH", s, work, clen, IBSEC_PKT_ERR_BAD_PAYLOAD_LEN);
    }

}

/* PadCnt and payload-length rules (§9.2 PadCnt), every shape. */
static void malformed_data_region(check_ctx *c, ibsec_rng *r, enum ibsec_shape s)
{
    struct ibsec_pkt p;
    size_t len;
    char what[80];
    /* Payload shorter than the pad: SEND Only with no payload and PadCnt 1..3. */
    if ((len = make_base(c, r, s, 0x04, 0, &p)) != 0) {
        for (unsigned v = 1; v < 4; v++) {
            snprintf(what, sizeof what, "SEND Only, no payload, PadCnt %u", v);
            MUTATE(what, IBSEC_PKT_ERR_BAD_PADCNT,
                   work[p.bth_off + 1] = (uint8_t)((work[p.bth_off + 1] & 0xCF) | v << 4));
        }
    }
    /* Pad where the opcode forbids it: first / middle packets carry whole PMTUs. */
    if ((len = make_base(c, r, s, 0x00, 256, &p)) != 0)
        MUTATE("SEND First with PadCnt 2", IBSEC_PKT_ERR_BAD_PADCNT,
               work[p.bth_off + 1] = (uint8_t)((work[p.bth_off + 1] & 0xCF) | 2u << 4));
    if ((len = make_base(c, r, s, 0x27, 512, &p)) != 0)
        MUTATE("UC RDMA WRITE Middle with PadCnt 1", IBSEC_PKT_ERR_BAD_PADCNT,
               work[p.bth_off + 1] = (uint8_t)((work[p.bth_off + 1] & 0xCF) | 1u << 4));
    /* Pad on an opcode without payload (ACK). */
    if ((len = make_base(c, r, s, 0x11, 0, &p)) != 0)
        MUTATE("ACK with PadCnt 3", IBSEC_PKT_ERR_BAD_PADCNT,
               work[p.bth_off + 1] = (uint8_t)((work[p.bth_off + 1] & 0xCF) | 3u << 4));
    /* Payload on an opcode without one: RDMA WRITE Only (RETH + 8 bytes) relabelled as
     * RDMA READ Request (RETH, no payload). */
    if ((len = make_base(c, r, s, 0x0A, 8, &p)) != 0)
        MUTATE("READ Request with 8 payload bytes", IBSEC_PKT_ERR_BAD_PAYLOAD_LEN, work[p.bth_off] = 0x0C);
    /* Over-long: 4 bytes more than the 4096-byte MTU allows (lengths rewritten by the
     * extra-header insert, then parsed as a plain packet). */
    for (int pl = 4093; pl <= 4096; pl++) {
        struct ibsec_pkt q;
        size_t len2;
        if ((len = make_base(c, r, s, 0x04, pl, &p)) == 0)
            continue;
        memcpy(work, base, len);
        if (!check_int(c, "over-long: grow by 4", IBSEC_PKT_OK,
                       ibsec_pkt_insert_extra(work, sizeof work, &p, NULL, 4, &len2, &q)))
            continue;
        snprintf(what, sizeof what, "payload %d + 4 bytes (> 4096)", pl);
        expect_err(c, what, s, work, len2, IBSEC_PKT_ERR_TOO_LONG);
    }
}
#undef MUTATE

/* The builder refuses descriptions no valid packet has. */
static void builder_rejects(check_ctx *c, ibsec_rng *r)
{
    static uint8_t payload[IBSEC_MAX_PAYLOAD + 8], buf[IBSEC_MAX_PKT];
    struct ibsec_pktgen_opts o;
    struct ibsec_pkt_desc d;
    size_t len;
    ibsec_pktgen_default_opts(&o, IBSEC_SHAPE_IB_LOCAL);
    o.opcode = 0x04;
    o.payload_len = 8;
    if (!check_int(c, "builder: base description", IBSEC_PKT_OK, ibsec_pktgen_desc(r, &o, &d, payload)))
        return;
    struct ibsec_pkt_desc b = d;
    b.bth.opcode = 0x81;
    check_int(c, "builder: CNP on native", IBSEC_PKT_ERR_BAD_ARG, ibsec_pkt_build(&b, buf, sizeof buf, &len, NULL));
    b = d; b.bth.opcode = 0x15;
    check_int(c, "builder: reserved opcode 0x15", IBSEC_PKT_ERR_BAD_ARG, ibsec_pkt_build(&b, buf, sizeof buf, &len, NULL));
    b = d; b.bth.opcode = 0x11;
    check_int(c, "builder: payload on ACK", IBSEC_PKT_ERR_BAD_ARG, ibsec_pkt_build(&b, buf, sizeof buf, &len, NULL));
    b = d; b.payload_len = IBSEC_MAX_PAYLOAD + 1;
    check_int(c, "builder: payload 4097", IBSEC_PKT_ERR_BAD_ARG, ibsec_pkt_build(&b, buf, sizeof buf, &len, NULL));
    b = d; b.bth.opcode = 0x00; b.payload_len = 7;
    check_int(c, "builder: SEND First with 7 bytes", IBSEC_PKT_ERR_BAD_ARG, ibsec_pkt_build(&b, buf, sizeof buf, &len, NULL));
    b = d; b.extra_len = 3;
    check_int(c, "builder: extra length 3", IBSEC_PKT_ERR_BAD_ARG, ibsec_pkt_build(&b, buf, sizeof buf, &len, NULL));
    b = d; b.shape = IBSEC_SHAPE_ROCE_V4; b.bth.opcode = 0x81; b.payload_len = 15;
    check_int(c, "builder: CNP with 15 bytes", IBSEC_PKT_ERR_BAD_ARG, ibsec_pkt_build(&b, buf, sizeof buf, &len, NULL));
    b = d;
    check_int(c, "builder: buffer too small", IBSEC_PKT_ERR_NOSPACE, ibsec_pkt_build(&b, buf, 20, &len, NULL));
}

int main(void)
{
    check_ctx c;
    ibsec_rng r;
    check_init(&c, "pkt");
    ibsec_rng_seed(&r, 0x9A4Bu);
    test_roundtrip(&c, &r);
    test_extra(&c, &r);
    for (int s = 0; s < IBSEC_SHAPE_COUNT; s++) {
        unsigned long before = c.passed + c.failed;
        malformed_truncation(&c, &r, (enum ibsec_shape)s);
        malformed_opcodes(&c, &r, (enum ibsec_shape)s);
        if (ibsec_shape_link((enum ibsec_shape)s) == IBSEC_LINK_IB)
            malformed_native(&c, &r, (enum ibsec_shape)s);
        else
            malformed_roce(&c, &r, (enum ibsec_shape)s);
        malformed_data_region(&c, &r, (enum ibsec_shape)s);
        printf("pkt: %s malformed corpus: %lu checks\n", ibsec_shape_name((enum ibsec_shape)s),
               c.passed + c.failed - before);
    }
    builder_rejects(&c, &r);
    return check_summary(&c);
}
