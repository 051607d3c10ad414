// vshim.h — the part every bench's C++ shim shares: it owns the Verilated top module
// and its context, drives the clock, optionally writes an FST trace, tears everything
// down at the end, and copies wide ports to and from the harness's 32-bit word arrays.
//
// A shim defines its C interface on top of one `vshim<Vtop>` object:
//
//   static vshim<Vtb_x> sim;
//   extern "C" void dut_tick(void) { sim.tick(); }
//   extern "C" void dut_finish(void) { sim.finish(); }
//   int main(int argc, char **argv) { sim.start(argc, argv, "x.fst"); return tb_x_main(argc, argv); }
//
// Clock: start() leaves clk = 0 and rst = 1 and evaluates once; tick() is one full
// period of 10 time units (rising edge, evaluate, falling edge, evaluate), so the
// harness sets inputs, reads the settled outputs and ticks.
// Traces: with -DIBSEC_WAVES=1 (WAVES=1 in make) the FST file named by start() is
// written in the working directory, one sample per clock edge.
// Word layout of wide ports (Verilator's): word 0 holds bits [31:0].
#ifndef IBSEC_VSHIM_H
#define IBSEC_VSHIM_H

#include <cstddef>
#include <cstdint>

#include "verilated.h"
#if IBSEC_WAVES
#include "verilated_fst_c.h"
#endif

template <class Top> class vshim {
  public:
    Top *top = nullptr;

    // Creates the context and the model, opens the trace, holds reset.
    void start(int argc, char **argv, const char *fst_name)
    {
        ctx_ = new VerilatedContext;
        ctx_->commandArgs(argc, argv);
        top = new Top{ctx_};
#if IBSEC_WAVES
        ctx_->traceEverOn(true);
        tfp_ = new VerilatedFstC;
        top->trace(tfp_, 99);
        tfp_->open(fst_name);
#else
        (void)fst_name;
#endif
        top->clk = 0;
        top->rst = 1;
        top->eval();
        dump();
    }

    // One clock period: rising edge, then falling edge.
    void tick()
    {
        top->clk = 1;
        top->eval();
        ctx_->timeInc(5);
        dump();
        top->clk = 0;
        top->eval();
        ctx_->timeInc(5);
        dump();
    }

    // Settles the combinational outputs after the harness changed inputs.
    void eval() { top->eval(); }

    // Runs final blocks, closes the trace, frees the model and the context.
    void finish()
    {
        top->final();
#if IBSEC_WAVES
        tfp_->close();
        delete tfp_;
        tfp_ = nullptr;
#endif
        delete top;
        top = nullptr;
        delete ctx_;
        ctx_ = nullptr;
    }

  private:
    VerilatedContext *ctx_ = nullptr;
#if IBSEC_WAVES
    VerilatedFstC *tfp_ = nullptr;
#endif
    void dump()
    {
#if IBSEC_WAVES
        tfp_->dump(ctx_->time());
#endif
    }
};

// Ports of any width from / to 32-bit words (word 0 = bits [31:0]).
template <std::size_t N> static inline void vshim_put(VlWide<N> &port, const uint32_t *w)
{
    for (std::size_t i = 0; i < N; i++)
        port[i] = w[i];
}
static inline void vshim_put(QData &port, const uint32_t *w) { port = w[0] | (uint64_t)w[1] << 32; }
static inline void vshim_put(IData &port, const uint32_t *w) { port = w[0]; }
static inline void vshim_put(SData &port, const uint32_t *w) { port = (SData)w[0]; }
static inline void vshim_put(CData &port, const uint32_t *w) { port = (CData)w[0]; }

template <std::size_t N> static inline void vshim_get(const VlWide<N> &port, uint32_t *w)
{
    for (std::size_t i = 0; i < N; i++)
        w[i] = port[i];
}
static inline void vshim_get(const QData &port, uint32_t *w)
{
    w[0] = (uint32_t)port;
    w[1] = (uint32_t)(port >> 32);
}
static inline void vshim_get(const IData &port, uint32_t *w) { w[0] = port; }
static inline void vshim_get(const SData &port, uint32_t *w) { w[0] = port; }
static inline void vshim_get(const CData &port, uint32_t *w) { w[0] = port; }

#endif
