// shim.cpp — thin C++ layer of the AES bench: owns the Verilated tb_aes_top, drives its
// clock, optionally writes an FST trace (-DIBSEC_WAVES=1, file aes.fst in the working
// directory), and exposes the C interface of tb_aes.h. No checking here.
#include <cstdint>

#include "Vtb_aes_top.h"
#include "verilated.h"
#if IBSEC_WAVES
#include "verilated_fst_c.h"
#endif

#include "tb_aes.h"

static VerilatedContext *ctx;
static Vtb_aes_top *top;
#if IBSEC_WAVES
static VerilatedFstC *tfp;
#endif

static void dump()
{
#if IBSEC_WAVES
    tfp->dump(ctx->time());
#endif
}

extern "C" unsigned dut_lanes(void) { return top->lanes; }

extern "C" unsigned dut_pipes(void) { return top->pipes; }

extern "C" void dut_set_rst(int rst) { top->rst = rst ? 1 : 0; }

extern "C" void dut_set_beat(int valid, const uint32_t *block_words, const uint32_t key_words[8],
                             int aes256, uint32_t user)
{
    const unsigned nw = 4 * dut_lanes();
    top->s_valid = valid ? 1 : 0;
    for (unsigned w = 0; w < nw; w++)
        top->s_block[w] = block_words[w];
    for (unsigned w = 0; w < 8; w++)
        top->s_key[w] = key_words[w];
    top->s_aes256 = aes256 ? 1 : 0;
    top->s_user = user;
    top->eval();
}

extern "C" void dut_tick(void)
{
    top->clk = 1;
    top->eval();
    ctx->timeInc(5);
    dump();
    top->clk = 0;
    top->eval();
    ctx->timeInc(5);
    dump();
}

// copies a wide output (VlWide of LANES*128 bits) into the harness's word array
template <typename W> static void copy_words(uint32_t *dst, const W &src, unsigned nw)
{
    for (unsigned w = 0; w < nw; w++)
        dst[w] = src[w];
}

extern "C" int dut_result(unsigned pipe, uint32_t *block_words, uint32_t *user)
{
    const unsigned nw = 4 * dut_lanes();
    top->eval();
    if (pipe == 0) {
        copy_words(block_words, top->m1_block, nw);
        *user = top->m1_user;
        return top->m1_valid;
    }
    copy_words(block_words, top->m2_block, nw);
    *user = top->m2_user;
    return top->m2_valid;
}

extern "C" uint8_t dut_sbox(uint8_t in)
{
    top->sbox_in = in;
    top->eval();
    return top->sbox_out;
}

extern "C" void dut_finish(void)
{
    top->final();
#if IBSEC_WAVES
    tfp->close();
    delete tfp;
#endif
    delete top;
    delete ctx;
}

int main(int argc, char **argv)
{
    ctx = new VerilatedContext;
    ctx->commandArgs(argc, argv);
    top = new Vtb_aes_top{ctx};
#if IBSEC_WAVES
    ctx->traceEverOn(true);
    tfp = new VerilatedFstC;
    top->trace(tfp, 99);
    tfp->open("aes.fst");
#endif
    top->clk = 0;
    top->rst = 1;
    top->eval();
    dump();
    return tb_aes_main(argc, argv);
}
