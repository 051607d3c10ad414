// shim.cpp — thin C++ layer of the ddpm_marker bench: owns the Verilated ddpm_marker, drives
// its clock, optionally writes an FST trace (-DIBSEC_WAVES=1, file ddpm.fst in the working
// directory) and exposes the C interface of tb_ddpm.h. No checking here.
#include <cstddef>
#include <cstdint>

#include "Vddpm_marker.h"
#include "verilated.h"
#if IBSEC_WAVES
#include "verilated_fst_c.h"
#endif

#include "tb_ddpm.h"

static VerilatedContext *ctx;
static Vddpm_marker *top;
#if IBSEC_WAVES
static VerilatedFstC *tfp;
#endif

static const unsigned LANES_OF_MODEL = sizeof(Vddpm_marker::s_axis_tdata) / 16;

static void dump()
{
#if IBSEC_WAVES
    tfp->dump(ctx->time());
#endif
}

// ports of any width from/to 32-bit words (word 0 = bits [31:0])
template <std::size_t N> static void put_port(VlWide<N> &port, const uint32_t *w)
{
    for (std::size_t i = 0; i < N; i++)
        port[i] = w[i];
}
static void put_port(QData &port, const uint32_t *w) { port = w[0] | (uint64_t)w[1] << 32; }
static void put_port(IData &port, const uint32_t *w) { port = w[0]; }
static void put_port(SData &port, const uint32_t *w) { port = (SData)w[0]; }

template <std::size_t N> static void get_port(const VlWide<N> &port, uint32_t *w)
{
    for (std::size_t i = 0; i < N; i++)
        w[i] = port[i];
}
static void get_port(const QData &port, uint32_t *w)
{
    w[0] = (uint32_t)port;
    w[1] = (uint32_t)(port >> 32);
}
static void get_port(const IData &port, uint32_t *w) { w[0] = port; }
static void get_port(const SData &port, uint32_t *w) { w[0] = port; }

extern "C" unsigned dut_lanes(void) { return LANES_OF_MODEL; }

extern "C" void dut_set_rst(int rst) { top->rst = rst ? 1 : 0; }

extern "C" void dut_set_in(int valid, const uint32_t *data, const uint32_t *keep, int last,
                           const uint32_t user[4])
{
    top->s_axis_tvalid = valid ? 1 : 0;
    put_port(top->s_axis_tdata, data);
    put_port(top->s_axis_tkeep, keep);
    top->s_axis_tlast = last ? 1 : 0;
    put_port(top->s_axis_tuser, user);
}

extern "C" int dut_in_ready(void)
{
    top->eval();
    return top->s_axis_tready;
}

extern "C" void dut_set_out_ready(int ready) { top->m_axis_tready = ready ? 1 : 0; }

extern "C" int dut_out(uint32_t *data, uint32_t *keep, int *last)
{
    top->eval();
    if (!top->m_axis_tvalid)
        return 0;
    get_port(top->m_axis_tdata, data);
    get_port(top->m_axis_tkeep, keep);
    *last = top->m_axis_tlast;
    return 1;
}

extern "C" void dut_set_cfg(const struct ddpm_dut_cfg *c)
{
    uint32_t w[19];
    top->cfg_topo = c->topo;
    top->cfg_ndims = c->ndims;
    top->cfg_w = c->w;
    top->cfg_mf_bits = c->mf_bits;
    for (int i = 0; i < 19; i++)
        w[i] = c->radix[i];
    put_port(top->cfg_radix, w);
    top->cfg_ft_level = c->ft_level;
    top->cfg_ft_ancestor = c->ft_ancestor;
}

extern "C" int dut_status(unsigned *outcome, uint32_t count[14])
{
    top->eval();
    *outcome = top->st_outcome;
    get_port(top->out_count, count);
    return top->st_valid;
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
    top = new Vddpm_marker{ctx};
#if IBSEC_WAVES
    ctx->traceEverOn(true);
    tfp = new VerilatedFstC;
    top->trace(tfp, 99);
    tfp->open("ddpm.fst");
#endif
    top->clk = 0;
    top->rst = 1;
    top->eval();
    dump();
    return tb_ddpm_main(argc, argv);
}
