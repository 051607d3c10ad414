// shim.cpp — thin C++ layer of the packet-engine bench: owns the Verilated tb_engine
// through verif/common/vshim.h (clock, optional FST trace engine.fst, teardown) and exposes
// the C interface of tb_engine.h, choosing the seal_* or open_* ports by instance.
// No checking here.
#include "Vtb_engine.h"
#include "vshim.h"

#include "tb_engine.h"

static vshim<Vtb_engine> sim;

// Runs STMT with P standing for the port prefix of instance INST.
#define ON_INST(inst, STMT)                                                                    \
    do {                                                                                       \
        Vtb_engine *t = sim.top;                                                               \
        if ((inst) == DUT_SEAL) {                                                              \
            STMT(seal_)                                                                        \
        } else {                                                                               \
            STMT(open_)                                                                        \
        }                                                                                      \
    } while (0)

// s_axis_tdata is LANES*128 bits, held by Verilator as LANES*4 32-bit words
static const unsigned LANES_OF_MODEL = sizeof(Vtb_engine::seal_s_axis_tdata) / 16;

extern "C" unsigned dut_lanes(void) { return LANES_OF_MODEL; }

extern "C" void dut_set_rst(int both, int seal, int open)
{
    sim.top->rst = both ? 1 : 0;
    sim.top->seal_rst = seal ? 1 : 0;
    sim.top->open_rst = open ? 1 : 0;
}

extern "C" void dut_set_in(int inst, int valid, const uint32_t *data, const uint32_t *keep,
                           int last, int user)
{
#define SET_IN(P)                                                                              \
    t->P##s_axis_tvalid = valid ? 1 : 0;                                                       \
    vshim_put(t->P##s_axis_tdata, data);                                                       \
    vshim_put(t->P##s_axis_tkeep, keep);                                                       \
    t->P##s_axis_tlast = last ? 1 : 0;                                                         \
    t->P##s_axis_tuser = user ? 1 : 0;
    ON_INST(inst, SET_IN);
}

extern "C" int dut_in_ready(int inst)
{
    int r = 0;
#define GET_READY(P) r = t->P##s_axis_tready;
    ON_INST(inst, GET_READY);
    return r;
}

extern "C" void dut_set_out_ready(int inst, int ready)
{
#define SET_OUT_READY(P) t->P##m_axis_tready = ready ? 1 : 0;
    ON_INST(inst, SET_OUT_READY);
}

extern "C" int dut_out(int inst, uint32_t *data, uint32_t *keep, int *last, int *user)
{
    int v = 0;
#define GET_OUT(P)                                                                             \
    v = t->P##m_axis_tvalid;                                                                   \
    if (v) {                                                                                   \
        vshim_get(t->P##m_axis_tdata, data);                                                   \
        vshim_get(t->P##m_axis_tkeep, keep);                                                   \
        *last = t->P##m_axis_tlast;                                                            \
        *user = t->P##m_axis_tuser;                                                            \
    }
    ON_INST(inst, GET_OUT);
    return v;
}

extern "C" int dut_status(int inst, struct dut_status *s)
{
    int v = 0;
#define GET_STATUS(P)                                                                          \
    v = t->P##st_valid;                                                                        \
    s->reason = t->P##st_reason;                                                               \
    s->ctx_hit = t->P##st_ctx_hit;                                                             \
    s->ctx = t->P##st_ctx;                                                                     \
    s->mode = t->P##st_mode;                                                                   \
    s->epsn = t->P##st_epsn;                                                                   \
    s->alert = t->P##st_alert;
    ON_INST(inst, GET_STATUS);
    return v;
}

extern "C" void dut_set_reg(int inst, int req, int we, unsigned addr, uint32_t wdata)
{
#define SET_REG(P)                                                                             \
    t->P##reg_req = req ? 1 : 0;                                                               \
    t->P##reg_we = we ? 1 : 0;                                                                 \
    t->P##reg_addr = addr;                                                                     \
    t->P##reg_wdata = wdata;
    ON_INST(inst, SET_REG);
}

extern "C" int dut_reg_ack(int inst, uint32_t *rdata)
{
    int a = 0;
#define GET_ACK(P)                                                                             \
    a = t->P##reg_ack;                                                                         \
    *rdata = t->P##reg_rdata;
    ON_INST(inst, GET_ACK);
    return a;
}

extern "C" int dut_irq(int inst)
{
    int q = 0;
#define GET_IRQ(P) q = t->P##irq_alert;
    ON_INST(inst, GET_IRQ);
    return q;
}

extern "C" int dut_ring_bad(int inst)
{
    int b = 0;
#define GET_RING_BAD(P) b = t->P##ring_bad;
    ON_INST(inst, GET_RING_BAD);
    return b;
}

extern "C" void dut_eval(void) { sim.eval(); }

extern "C" void dut_tick(void) { sim.tick(); }

extern "C" void dut_finish(void) { sim.finish(); }

int main(int argc, char **argv)
{
    sim.start(argc, argv, "engine.fst");
    sim.top->seal_rst = 0;
    sim.top->open_rst = 0;
    sim.top->eval();
    return tb_engine_main(argc, argv);
}
