// shim.cpp — thin C++ layer of the gcm_core bench: owns the Verilated gcm_core, drives
// its clock, optionally writes an FST trace (-DIBSEC_WAVES=1, file gcm.fst in the working
// directory), and exposes the C interface of tb_gcm.h. No checking here.
#include <cstddef>
#include <cstdint>

#include "Vgcm_core.h"
#include "verilated.h"
#if IBSEC_WAVES
#include "verilated_fst_c.h"
#endif

#include "tb_gcm.h"

static VerilatedContext *ctx;
static Vgcm_core *top;
#if IBSEC_WAVES
static VerilatedFstC *tfp;
#endif

// s_axis_tdata is LANES*128 bits, held by Verilator as LANES*4 32-bit words
static const unsigned LANES_OF_MODEL = sizeof(Vgcm_core::s_axis_tdata) / 16;

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

extern "C" void dut_set_key(int valid, unsigned slot, int aes256, const uint32_t key[8])
{
    top->s_key_valid = valid ? 1 : 0;
    top->s_key_slot = slot;
    top->s_key_aes256 = aes256 ? 1 : 0;
    put_port(top->s_key_data, key);
}

extern "C" int dut_key_ready(void)
{
    top->eval();
    return top->s_key_ready;
}

extern "C" void dut_set_in(int valid, const uint32_t *data, const uint32_t *keep, int last,
                           uint32_t user, unsigned slot, const uint32_t iv[3], int decrypt)
{
    top->s_axis_tvalid = valid ? 1 : 0;
    put_port(top->s_axis_tdata, data);
    put_port(top->s_axis_tkeep, keep);
    top->s_axis_tlast = last ? 1 : 0;
    top->s_axis_tuser = user;
    top->s_axis_slot = slot;
    put_port(top->s_axis_iv, iv);
    top->s_axis_decrypt = decrypt ? 1 : 0;
}

extern "C" int dut_in_ready(void)
{
    top->eval();
    return top->s_axis_tready;
}

extern "C" void dut_set_out_ready(int ready) { top->m_axis_tready = ready ? 1 : 0; }

extern "C" int dut_out(uint32_t *data, uint32_t *keep, int *last, uint32_t *user,
                       uint32_t tag[4], int *nokey)
{
    top->eval();
    if (!top->m_axis_tvalid)
        return 0;
    get_port(top->m_axis_tdata, data);
    get_port(top->m_axis_tkeep, keep);
    *last = top->m_axis_tlast;
    *user = top->m_axis_tuser;
    get_port(top->m_axis_tag, tag);
    *nokey = top->m_axis_nokey;
    return 1;
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
    top = new Vgcm_core{ctx};
#if IBSEC_WAVES
    ctx->traceEverOn(true);
    tfp = new VerilatedFstC;
    top->trace(tfp, 99);
    tfp->open("gcm.fst");
#endif
    top->clk = 0;
    top->rst = 1;
    top->eval();
    dump();
    return tb_gcm_main(argc, argv);
}
