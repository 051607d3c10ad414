// shim.cpp — thin C++ layer of the header bench: owns the Verilated tb_hdr_top (the
// parser and ib_hdr_edit's register stage are clocked here, ib_hdr_mask is combinational;
// no trace), copies byte arrays to and from its wide ports and exposes the C interface of
// tb_hdr.h. No checking here.
#include <cstdint>

#include "Vtb_hdr_top.h"
#include "verilated.h"

#include "tb_hdr.h"

static VerilatedContext *ctx;
static Vtb_hdr_top *top;

// ib_hdr_parse's latency: a header presented in one cycle has its results 4
// clock edges later (its header comment)
static const unsigned PARSE_LATENCY = 4;

static void tick(void)
{
    top->clk = 1;
    top->eval();
    top->clk = 0;
    top->eval();
}

// frame byte i -> bits [8i+7:8i]; Verilator word w holds bits [32w+31:32w]
template <class W> static void put_bytes(W &port, const uint8_t *b)
{
    for (unsigned w = 0; w < TB_HDR_BYTES / 4; w++)
        port[w] = (uint32_t)b[4 * w] | (uint32_t)b[4 * w + 1] << 8 |
                  (uint32_t)b[4 * w + 2] << 16 | (uint32_t)b[4 * w + 3] << 24;
}

template <class W> static void get_bytes(const W &port, uint8_t *b)
{
    for (unsigned i = 0; i < TB_HDR_BYTES; i++)
        b[i] = (uint8_t)(port[i / 4] >> (8 * (i % 4)));
}

extern "C" void dut_opcode(unsigned opcode, struct dut_opinfo *o)
{
    top->op_opcode = opcode;
    top->eval();
    o->known = top->op_known;
    o->cnp = top->op_cnp;
    o->valid_ib = top->op_valid_ib;
    o->valid_roce = top->op_valid_roce;
    o->eth_len = top->op_eth_len;
    o->has_payload = top->op_has_payload;
    o->pos = top->op_pos;
    o->pad_allowed = top->op_pad_allowed;
    o->fixed_payload = top->op_fixed_payload;
}

extern "C" void dut_parse(const uint8_t hdr[TB_HDR_BYTES], unsigned len13, unsigned len17,
                          int link, int is_open, struct dut_parse *o)
{
    // The header for one cycle, then in the following cycles (while it moves through
    // the stages) other headers: its own bytes inverted, the other link and direction
    // and other lengths, so that a stage that mixed two headers would show it.
    uint8_t other[TB_HDR_BYTES];
    for (unsigned i = 0; i < TB_HDR_BYTES; i++)
        other[i] = (uint8_t)~hdr[i];
    for (unsigned c = 0; c < PARSE_LATENCY; c++) {
        put_bytes(top->p_hdr, c == 0 ? hdr : other);
        top->p13_frame_len = c == 0 ? len13 : (len13 + 4 * c) & 0x1fff;
        top->p17_frame_len = c == 0 ? len17 : (len17 + 4 * c) & 0x1ffff;
        top->p_link = (c == 0) == (link != 0) ? 1 : 0;
        top->p_is_open = (c == 0) == (is_open != 0) ? 1 : 0;
        top->p_valid = c == 0 ? 1 : 0;
        top->eval();
        tick();
    }
    o->valid = top->p13_valid && top->p17_valid;
    o->reason13 = top->p13_reason;
    o->reason17 = top->p17_reason;
    o->shape = top->p_shape;
    o->bth_off = top->p_bth_off;
    o->hdr_len = top->p_hdr_len;
    o->sth_len = top->p_sth_len;
    o->pp_len = top->p_pp_len;
    o->pkt_end = top->p_pkt_end;
    o->opcode = top->p_opcode;
    o->padcnt = top->p_padcnt;
    o->pkey = top->p_pkey;
    o->destqp = top->p_destqp;
    o->psn = top->p_psn;
    o->secmode = top->p_secmode;
    o->sthsz = top->p_sthsz;
    o->kp = top->p_kp;
    o->pn = top->p_pn;
    o->mode = top->p_mode;
    o->pp_len17 = top->p17_pp_len;
    o->pkt_end17 = top->p17_pkt_end;
}

extern "C" void dut_edit(const uint8_t in[TB_HDR_BYTES], unsigned shape, unsigned bth_off,
                         int shrink, unsigned len, unsigned secbits, uint8_t out[TB_HDR_BYTES])
{
    put_bytes(top->e_hdr_in, in);
    top->e_shape = shape;
    top->e_bth_off = bth_off;
    top->e_shrink = shrink ? 1 : 0;
    top->e_len = len;
    top->e_secbits = secbits;
    // one clock edge with ce: the edit of these inputs is on e_hdr_out after it
    top->e_ce = 1;
    top->e_clk = 0;
    top->eval();
    top->e_clk = 1;
    top->eval();
    // a second edge with ce low and other inputs: the output must hold (it is what the
    // harness checks)
    uint8_t other[TB_HDR_BYTES];
    for (unsigned i = 0; i < TB_HDR_BYTES; i++)
        other[i] = (uint8_t)~in[i];
    put_bytes(top->e_hdr_in, other);
    top->e_shape = ~shape & 3u;
    top->e_bth_off = ~bth_off & 0x7fu;
    top->e_shrink = shrink ? 0 : 1;
    top->e_len = ~len & 0x7fu;
    top->e_secbits = ~secbits & 0x7fu;
    top->e_ce = 0;
    top->e_clk = 0;
    top->eval();
    top->e_clk = 1;
    top->eval();
    get_bytes(top->e_hdr_out, out);
}

extern "C" void dut_mask(const uint8_t hdr[TB_HDR_BYTES], unsigned shape, unsigned hdr_len,
                         int mask_mf, uint8_t aad[TB_HDR_BYTES], unsigned *aad_len,
                         uint8_t variant[TB_HDR_BYTES], uint8_t ones[TB_HDR_BYTES])
{
    put_bytes(top->m_hdr, hdr);
    top->m_shape = shape;
    top->m_hdr_len = hdr_len;
    top->m_mask_mf = mask_mf ? 1 : 0;
    top->eval();
    get_bytes(top->m_aad, aad);
    *aad_len = top->m_aad_len;
    for (unsigned i = 0; i < TB_HDR_BYTES; i++)
        variant[i] = (uint8_t)((top->m_variant[i / 32] >> (i % 32)) & 1u);
    get_bytes(top->m_ones, ones);
}

extern "C" void dut_finish(void)
{
    top->final();
    delete top;
    delete ctx;
}

int main(int argc, char **argv)
{
    ctx = new VerilatedContext;
    ctx->commandArgs(argc, argv);
    top = new Vtb_hdr_top{ctx};
    top->clk = 0;
    top->rst = 1;
    top->p_valid = 0;
    top->eval();
    for (unsigned c = 0; c < PARSE_LATENCY + 1; c++)
        tick();
    top->rst = 0;
    top->eval();
    return tb_hdr_main(argc, argv);
}
