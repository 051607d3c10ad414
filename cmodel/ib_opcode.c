/*
 * ib_opcode.c — the BTH OpCode table (IBA Vol. 1 §9.2, Table "OpCode field",
 * with the header sequences of §9.3 and, for XRC, Annex A14).
 *
 * Each row: opcode, name, position in the message, whether a payload follows,
 * and the ETHs in wire order.  The table is written out in full (not derived
 * by arithmetic from the RC rows) so that it can be read against the spec.
 *
 * Patterns the rows follow:
 *   RC   requests carry RETH (RDMA WRITE first/only, READ request), ImmDt
 *        ("with immediate"), IETH ("with invalidate"), AtomicETH (atomics);
 *        responses carry AETH (READ response first/last/only, ACK) and
 *        AtomicAckETH (atomic ACK).  READ response middle carries nothing.
 *   UC   the SEND and RDMA WRITE rows of RC (0x00-0x0B), nothing else.
 *   RD   every row starts with RDETH; requests add DETH (Q_Key, source
 *        QP) before the RC headers; responses do not; RESYNC (0x55) is
 *        RDETH+DETH without payload.
 *   UD   SEND only (0x64) and SEND only with immediate (0x65), with DETH.
 *   CNP  0x81, RoCEv2 congestion notification (Annex A17.9): no ETH, 16
 *        reserved bytes after the BTH, counted here as a fixed payload.
 *   XRC  the RC rows; requests insert XRCETH directly after the BTH,
 *        responses (READ responses, ACK, atomic ACK) are as in RC.
 *
 * Not in the table (rejected as unknown): reserved codes; RC 0x15; the IBA
 * 1.5 FLUSH (0x1C) and ATOMIC WRITE (0x1D), whose FETH this model does not
 * implement; the native-IBA congestion-control CNP (0x80, Annex A10); and the
 * manufacturer-specific class 0xC0-0xFF.
 */
#include "ib_opcode.h"

#define N IBSEC_POS_NONE
#define F IBSEC_POS_FIRST
#define M IBSEC_POS_MIDDLE
#define L IBSEC_POS_LAST
#define O IBSEC_POS_ONLY

#define RDETH  IBSEC_ETH_RDETH
#define DETH   IBSEC_ETH_DETH
#define XRCETH IBSEC_ETH_XRCETH
#define RETH   IBSEC_ETH_RETH
#define ATOM   IBSEC_ETH_ATOMICETH
#define AETH   IBSEC_ETH_AETH
#define AACK   IBSEC_ETH_ATOMICACKETH
#define IMM    IBSEC_ETH_IMMDT
#define IETH   IBSEC_ETH_IETH

/* ETH lengths in bytes, IBA Vol. 1 §9.3 (XRCETH: Annex A14). */
#define LEN_RDETH   4
#define LEN_DETH    8
#define LEN_XRCETH  4
#define LEN_RETH   16
#define LEN_ATOM   28
#define LEN_AETH    4
#define LEN_AACK    8
#define LEN_IMM     4
#define LEN_IETH    4

/* Row helpers: P = carries payload, X = carries none.  ETH lengths are summed
 * by the macro so eth_len cannot disagree with eths[]. */
#define ROW(code, nm, cls, pos, pay, n, e0, e1, e2, e3, len) \
    { code, nm, cls, pos, n, { e0, e1, e2, e3 }, len, pay, 0 }
#define E0(code, nm, cls, pos, pay) \
    ROW(code, nm, cls, pos, pay, 0, 0, 0, 0, 0, 0)
#define E1(code, nm, cls, pos, pay, a) \
    ROW(code, nm, cls, pos, pay, 1, a, 0, 0, 0, LEN_##a)
#define E2(code, nm, cls, pos, pay, a, b) \
    ROW(code, nm, cls, pos, pay, 2, a, b, 0, 0, LEN_##a + LEN_##b)
#define E3(code, nm, cls, pos, pay, a, b, c) \
    ROW(code, nm, cls, pos, pay, 3, a, b, c, 0, LEN_##a + LEN_##b + LEN_##c)
#define E4(code, nm, cls, pos, pay, a, b, c, d) \
    ROW(code, nm, cls, pos, pay, 4, a, b, c, d, LEN_##a + LEN_##b + LEN_##c + LEN_##d)
#define P true
#define X false

#define RC  IBSEC_TC_RC
#define UC  IBSEC_TC_UC
#define RD  IBSEC_TC_RD
#define UD  IBSEC_TC_UD
#define CN  IBSEC_TC_CNP
#define XR  IBSEC_TC_XRC

/* Sorted by opcode (ibsec_opcode_lookup does a binary search). */
static const struct ibsec_opcode_info opcode_table[] = {
    /* ---- RC, IBA Vol. 1 §9.2 opcode class 000 ---- */
    E0(0x00, "RC_SEND_FIRST",                         RC, F, P),
    E0(0x01, "RC_SEND_MIDDLE",                        RC, M, P),
    E0(0x02, "RC_SEND_LAST",                          RC, L, P),
    E1(0x03, "RC_SEND_LAST_WITH_IMMEDIATE",           RC, L, P, IMM),
    E0(0x04, "RC_SEND_ONLY",                          RC, O, P),
    E1(0x05, "RC_SEND_ONLY_WITH_IMMEDIATE",           RC, O, P, IMM),
    E1(0x06, "RC_RDMA_WRITE_FIRST",                   RC, F, P, RETH),
    E0(0x07, "RC_RDMA_WRITE_MIDDLE",                  RC, M, P),
    E0(0x08, "RC_RDMA_WRITE_LAST",                    RC, L, P),
    E1(0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE",     RC, L, P, IMM),
    E1(0x0A, "RC_RDMA_WRITE_ONLY",                    RC, O, P, RETH),
    E2(0x0B, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",     RC, O, P, RETH, IMM),
    E1(0x0C, "RC_RDMA_READ_REQUEST",                  RC, N, X, RETH),
    E1(0x0D, "RC_RDMA_READ_RESPONSE_FIRST",           RC, F, P, AETH),
    E0(0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE",          RC, M, P),
    E1(0x0F, "RC_RDMA_READ_RESPONSE_LAST",            RC, L, P, AETH),
    E1(0x10, "RC_RDMA_READ_RESPONSE_ONLY",            RC, O, P, AETH),
    E1(0x11, "RC_ACKNOWLEDGE",                        RC, N, X, AETH),
    E2(0x12, "RC_ATOMIC_ACKNOWLEDGE",                 RC, N, X, AETH, AACK),
    E1(0x13, "RC_COMPARE_SWAP",                       RC, N, X, ATOM),
    E1(0x14, "RC_FETCH_ADD",                          RC, N, X, ATOM),
    E1(0x16, "RC_SEND_LAST_WITH_INVALIDATE",          RC, L, P, IETH),
    E1(0x17, "RC_SEND_ONLY_WITH_INVALIDATE",          RC, O, P, IETH),

    /* ---- UC, class 001 ---- */
    E0(0x20, "UC_SEND_FIRST",                         UC, F, P),
    E0(0x21, "UC_SEND_MIDDLE",                        UC, M, P),
    E0(0x22, "UC_SEND_LAST",                          UC, L, P),
    E1(0x23, "UC_SEND_LAST_WITH_IMMEDIATE",           UC, L, P, IMM),
    E0(0x24, "UC_SEND_ONLY",                          UC, O, P),
    E1(0x25, "UC_SEND_ONLY_WITH_IMMEDIATE",           UC, O, P, IMM),
    E1(0x26, "UC_RDMA_WRITE_FIRST",                   UC, F, P, RETH),
    E0(0x27, "UC_RDMA_WRITE_MIDDLE",                  UC, M, P),
    E0(0x28, "UC_RDMA_WRITE_LAST",                    UC, L, P),
    E1(0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE",     UC, L, P, IMM),
    E1(0x2A, "UC_RDMA_WRITE_ONLY",                    UC, O, P, RETH),
    E2(0x2B, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",     UC, O, P, RETH, IMM),

    /* ---- RD, class 010 ---- */
    E2(0x40, "RD_SEND_FIRST",                         RD, F, P, RDETH, DETH),
    E2(0x41, "RD_SEND_MIDDLE",                        RD, M, P, RDETH, DETH),
    E2(0x42, "RD_SEND_LAST",                          RD, L, P, RDETH, DETH),
    E3(0x43, "RD_SEND_LAST_WITH_IMMEDIATE",           RD, L, P, RDETH, DETH, IMM),
    E2(0x44, "RD_SEND_ONLY",                          RD, O, P, RDETH, DETH),
    E3(0x45, "RD_SEND_ONLY_WITH_IMMEDIATE",           RD, O, P, RDETH, DETH, IMM),
    E3(0x46, "RD_RDMA_WRITE_FIRST",                   RD, F, P, RDETH, DETH, RETH),
    E2(0x47, "RD_RDMA_WRITE_MIDDLE",                  RD, M, P, RDETH, DETH),
    E2(0x48, "RD_RDMA_WRITE_LAST",                    RD, L, P, RDETH, DETH),
    E3(0x49, "RD_RDMA_WRITE_LAST_WITH_IMMEDIATE",     RD, L, P, RDETH, DETH, IMM),
    E3(0x4A, "RD_RDMA_WRITE_ONLY",                    RD, O, P, RDETH, DETH, RETH),
    E4(0x4B, "RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE",     RD, O, P, RDETH, DETH, RETH, IMM),
    E3(0x4C, "RD_RDMA_READ_REQUEST",                  RD, N, X, RDETH, DETH, RETH),
    E2(0x4D, "RD_RDMA_READ_RESPONSE_FIRST",           RD, F, P, RDETH, AETH),
    E1(0x4E, "RD_RDMA_READ_RESPONSE_MIDDLE",          RD, M, P, RDETH),
    E2(0x4F, "RD_RDMA_READ_RESPONSE_LAST",            RD, L, P, RDETH, AETH),
    E2(0x50, "RD_RDMA_READ_RESPONSE_ONLY",            RD, O, P, RDETH, AETH),
    E2(0x51, "RD_ACKNOWLEDGE",                        RD, N, X, RDETH, AETH),
    E3(0x52, "RD_ATOMIC_ACKNOWLEDGE",                 RD, N, X, RDETH, AETH, AACK),
    E3(0x53, "RD_COMPARE_SWAP",                       RD, N, X, RDETH, DETH, ATOM),
    E3(0x54, "RD_FETCH_ADD",                          RD, N, X, RDETH, DETH, ATOM),
    E2(0x55, "RD_RESYNC",                             RD, N, X, RDETH, DETH),

    /* ---- UD, class 011 ---- */
    E1(0x64, "UD_SEND_ONLY",                          UD, O, P, DETH),
    E2(0x65, "UD_SEND_ONLY_WITH_IMMEDIATE",           UD, O, P, DETH, IMM),

    /* ---- CNP, class 100: RoCEv2 Annex A17.9 (16 reserved bytes) ---- */
    { 0x81, "CNP", CN, N, 0, { 0, 0, 0, 0 }, 0, true, 16 },

    /* ---- XRC, class 101: IBA Vol. 1 Annex A14 ---- */
    E1(0xA0, "XRC_SEND_FIRST",                        XR, F, P, XRCETH),
    E1(0xA1, "XRC_SEND_MIDDLE",                       XR, M, P, XRCETH),
    E1(0xA2, "XRC_SEND_LAST",                         XR, L, P, XRCETH),
    E2(0xA3, "XRC_SEND_LAST_WITH_IMMEDIATE",          XR, L, P, XRCETH, IMM),
    E1(0xA4, "XRC_SEND_ONLY",                         XR, O, P, XRCETH),
    E2(0xA5, "XRC_SEND_ONLY_WITH_IMMEDIATE",          XR, O, P, XRCETH, IMM),
    E2(0xA6, "XRC_RDMA_WRITE_FIRST",                  XR, F, P, XRCETH, RETH),
    E1(0xA7, "XRC_RDMA_WRITE_MIDDLE",                 XR, M, P, XRCETH),
    E1(0xA8, "XRC_RDMA_WRITE_LAST",                   XR, L, P, XRCETH),
    E2(0xA9, "XRC_RDMA_WRITE_LAST_WITH_IMMEDIATE",    XR, L, P, XRCETH, IMM),
    E2(0xAA, "XRC_RDMA_WRITE_ONLY",                   XR, O, P, XRCETH, RETH),
    E3(0xAB, "XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",    XR, O, P, XRCETH, RETH, IMM),
    E2(0xAC, "XRC_RDMA_READ_REQUEST",                 XR, N, X, XRCETH, RETH),
    E1(0xAD, "XRC_RDMA_READ_RESPONSE_FIRST",          XR, F, P, AETH),
    E0(0xAE, "XRC_RDMA_READ_RESPONSE_MIDDLE",         XR, M, P),
    E1(0xAF, "XRC_RDMA_READ_RESPONSE_LAST",           XR, L, P, AETH),
    E1(0xB0, "XRC_RDMA_READ_RESPONSE_ONLY",           XR, O, P, AETH),
    E1(0xB1, "XRC_ACKNOWLEDGE",                       XR, N, X, AETH),
    E2(0xB2, "XRC_ATOMIC_ACKNOWLEDGE",                XR, N, X, AETH, AACK),
    E2(0xB3, "XRC_COMPARE_SWAP",                      XR, N, X, XRCETH, ATOM),
    E2(0xB4, "XRC_FETCH_ADD",                         XR, N, X, XRCETH, ATOM),
    E2(0xB6, "XRC_SEND_LAST_WITH_INVALIDATE",         XR, L, P, XRCETH, IETH),
    E2(0xB7, "XRC_SEND_ONLY_WITH_INVALIDATE",         XR, O, P, XRCETH, IETH),
};

#define TABLE_LEN (sizeof opcode_table / sizeof opcode_table[0])

static const uint8_t eth_len_table[IBSEC_ETH_COUNT] = {
    [IBSEC_ETH_RDETH] = LEN_RDETH,   [IBSEC_ETH_DETH] = LEN_DETH,
    [IBSEC_ETH_XRCETH] = LEN_XRCETH, [IBSEC_ETH_RETH] = LEN_RETH,
    [IBSEC_ETH_ATOMICETH] = LEN_ATOM, [IBSEC_ETH_AETH] = LEN_AETH,
    [IBSEC_ETH_ATOMICACKETH] = LEN_AACK, [IBSEC_ETH_IMMDT] = LEN_IMM,
    [IBSEC_ETH_IETH] = LEN_IETH,
};

static const char *const eth_names[IBSEC_ETH_COUNT] = {
    [IBSEC_ETH_RDETH] = "RDETH",   [IBSEC_ETH_DETH] = "DETH",
    [IBSEC_ETH_XRCETH] = "XRCETH", [IBSEC_ETH_RETH] = "RETH",
    [IBSEC_ETH_ATOMICETH] = "AtomicETH", [IBSEC_ETH_AETH] = "AETH",
    [IBSEC_ETH_ATOMICACKETH] = "AtomicAckETH", [IBSEC_ETH_IMMDT] = "ImmDt",
    [IBSEC_ETH_IETH] = "IETH",
};

size_t ibsec_eth_len(enum ibsec_eth e)
{
    return ((unsigned)e < IBSEC_ETH_COUNT) ? eth_len_table[e] : 0;
}

const char *ibsec_eth_name(enum ibsec_eth e)
{
    return ((unsigned)e < IBSEC_ETH_COUNT) ? eth_names[e] : "?";
}

const struct ibsec_opcode_info *ibsec_opcode_lookup(uint8_t opcode)
{
    size_t lo = 0, hi = TABLE_LEN;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (opcode_table[mid].opcode == opcode)
            return &opcode_table[mid];
        if (opcode_table[mid].opcode < opcode)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *ibsec_opcode_name(uint8_t opcode)
{
    const struct ibsec_opcode_info *op = ibsec_opcode_lookup(opcode);
    return op ? op->name : "UNKNOWN";
}

bool ibsec_opcode_has_eth(const struct ibsec_opcode_info *op, enum ibsec_eth e)
{
    return ibsec_opcode_eth_offset(op, e) >= 0;
}

int ibsec_opcode_eth_offset(const struct ibsec_opcode_info *op, enum ibsec_eth e)
{
    int off = 0;
    for (unsigned i = 0; i < op->n_eths; i++) {
        if (op->eths[i] == e)
            return off;
        off += (int)ibsec_eth_len(op->eths[i]);
    }
    return -1;
}

bool ibsec_opcode_pad_allowed(const struct ibsec_opcode_info *op)
{
    return op->has_payload && op->fixed_payload == 0 &&
           (op->pos == IBSEC_POS_LAST || op->pos == IBSEC_POS_ONLY);
}

size_t ibsec_opcode_count(void)
{
    return TABLE_LEN;
}

const struct ibsec_opcode_info *ibsec_opcode_at(size_t i)
{
    return (i < TABLE_LEN) ? &opcode_table[i] : NULL;
}
