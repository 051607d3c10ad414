// shim.cpp — thin C++ layer of the CRC bench: owns the Verilated tb_crc_top, drives its
// clock, optionally writes an FST trace (-DIBSEC_WAVES=1, file crc.fst in the working
// directory), and exposes the C interface of tb_crc.h. No checking here.
#include <cstdint>

#include "Vtb_crc_top.h"
#include "verilated.h"
#if IBSEC_WAVES
#include "verilated_fst_c.h"
#endif

#include "tb_crc.h"

static VerilatedContext *ctx;
static Vtb_crc_top *top;
#if IBSEC_WAVES
static VerilatedFstC *tfp;
#endif

static void dump()
{
#if IBSEC_WAVES
    tfp->dump(ctx->time());
#endif
}

// Verilator keeps a port of up to 64 bits in an integer and a wider one in a word array.
template <typename T> static void set_wide(T &port, const uint32_t *words, unsigned)
{
    port = static_cast<T>(words[0]);
    if (sizeof(T) > 4)
        port = static_cast<T>(static_cast<uint64_t>(words[0]) |
                              static_cast<uint64_t>(words[1]) << 32);
}

template <std::size_t N>
static void set_wide(VlWide<N> &port, const uint32_t *words, unsigned nwords)
{
    for (unsigned w = 0; w < nwords && w < N; w++)
        port[w] = words[w];
}

extern "C" unsigned dut_lanes(void) { return top->lanes; }

extern "C" unsigned dut_variants(void) { return top->variants; }

extern "C" void dut_set_rst(int rst) { top->rst = rst ? 1 : 0; }

extern "C" void dut_set_icrc(int valid, int first, int last, int roce, const uint32_t *data,
                             const uint32_t *ones, unsigned end)
{
    const unsigned lanes = dut_lanes();
    top->icrc_valid = valid ? 1 : 0;
    top->icrc_first = first ? 1 : 0;
    top->icrc_last = last ? 1 : 0;
    top->icrc_roce = roce ? 1 : 0;
    set_wide(top->icrc_data, data, 4 * lanes);
    set_wide(top->icrc_ones, ones, (lanes + 1) / 2);
    top->icrc_end = end;
}

extern "C" void dut_set_vcrc(int valid, int first, int last, const uint32_t *data, unsigned end)
{
    top->vcrc_valid = valid ? 1 : 0;
    top->vcrc_first = first ? 1 : 0;
    top->vcrc_last = last ? 1 : 0;
    set_wide(top->vcrc_data, data, 4 * dut_lanes());
    top->vcrc_end = end;
}

extern "C" int dut_icrc_out(unsigned variant, uint32_t *icrc)
{
    top->eval();
    *icrc = variant ? top->icrc2_out : top->icrc_out;
    return variant ? top->icrc2_out_valid : top->icrc_out_valid;
}

extern "C" int dut_vcrc_out(unsigned variant, uint16_t *vcrc)
{
    top->eval();
    *vcrc = variant ? top->vcrc2_out : top->vcrc_out;
    return variant ? top->vcrc2_out_valid : top->vcrc_out_valid;
}

extern "C" uint16_t dut_vcrc_extend4(uint16_t vcrc, uint32_t bytes)
{
    top->ext_vcrc = vcrc;
    top->ext_bytes = bytes;
    top->eval();
    return top->ext_out;
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
    top = new Vtb_crc_top{ctx};
#if IBSEC_WAVES
    ctx->traceEverOn(true);
    tfp = new VerilatedFstC;
    top->trace(tfp, 99);
    tfp->open("crc.fst");
#endif
    top->clk = 0;
    top->rst = 1;
    top->eval();
    dump();
    return tb_crc_main(argc, argv);
}
