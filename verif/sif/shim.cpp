// shim.cpp — thin C++ layer of the sif_filter bench: owns the Verilated sif_filter, drives
// its clock, optionally writes an FST trace (-DIBSEC_WAVES=1, file sif.fst in the working
// directory) and exposes the C interface of tb_sif.h. No checking here.
#include <cstddef>
#include <cstdint>

#include "Vsif_filter.h"
#include "verilated.h"
#if IBSEC_WAVES
#include "verilated_fst_c.h"
#endif

#include "tb_sif.h"

static VerilatedContext *ctx;
static Vsif_filter *top;
#if IBSEC_WAVES
static VerilatedFstC *tfp;
#endif

static const unsigned LANES_OF_MODEL = sizeof(Vsif_filter::s_axis_tdata) / 16;

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

extern "C" void dut_set_in(int valid, const uint32_t *data, const uint32_t *keep, int last)
{
    top->s_axis_tvalid = valid ? 1 : 0;
    put_port(top->s_axis_tdata, data);
    put_port(top->s_axis_tkeep, keep);
    top->s_axis_tlast = last ? 1 : 0;
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

extern "C" void dut_set_inst(int valid, uint16_t pkey)
{
    top->inst_valid = valid ? 1 : 0;
    top->inst_pkey = pkey;
}

extern "C" void dut_set_cfg(const uint16_t valid_keys[32], unsigned n_valid, uint32_t quiet_ticks)
{
    uint32_t w[16];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)valid_keys[2 * i] | (uint32_t)valid_keys[2 * i + 1] << 16;
    put_port(top->cfg_valid_keys, w);
    top->cfg_n_valid = n_valid;
    top->cfg_quiet_ticks = quiet_ticks;
}

extern "C" void dut_state(struct sif_dut_state *s)
{
    uint32_t w[8];
    top->eval();
    s->st_valid = top->st_valid;
    s->st_outcome = top->st_outcome;
    s->inst_done = top->inst_done;
    s->inst_outcome = top->inst_outcome;
    s->filtering = top->filtering;
    s->use_valid_table = top->use_valid_table;
    s->n_invalid = top->n_invalid;
    get_port(top->invalid_keys, w);
    for (int i = 0; i < 16; i++)
        s->invalid[i] = (uint16_t)(w[i / 2] >> (16 * (i % 2)));
    s->violations = top->violations;
    s->quiet_left = top->quiet_left;
    get_port(top->out_count, s->out_count);
    s->lookups = top->lookups;
    s->flushes = top->flushes;
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
    top = new Vsif_filter{ctx};
#if IBSEC_WAVES
    ctx->traceEverOn(true);
    tfp = new VerilatedFstC;
    top->trace(tfp, 99);
    tfp->open("sif.fst");
#endif
    top->clk = 0;
    top->rst = 1;
    top->eval();
    dump();
    return tb_sif_main(argc, argv);
}
