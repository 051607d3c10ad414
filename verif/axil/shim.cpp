// shim.cpp — thin C++ layer of the AXI4-Lite register bench: owns the Verilated tb_axil,
// drives its clock and optional FST trace (axil.fst) through verif/common/vshim.h, and copies
// the three AXI4-Lite ports to and from the C structures of tb_axil.h. No checking here.
#include "Vtb_axil.h"
#include "vshim.h"

#include "tb_axil.h"

static vshim<Vtb_axil> sim;

#define SET_PORT(p)                                  \
    do {                                             \
        sim.top->p##_axil_awaddr  = in->awaddr;              \
        sim.top->p##_axil_awprot  = in->awprot;              \
        sim.top->p##_axil_awvalid = in->awvalid;             \
        sim.top->p##_axil_wdata   = in->wdata;               \
        sim.top->p##_axil_wstrb   = in->wstrb;               \
        sim.top->p##_axil_wvalid  = in->wvalid;              \
        sim.top->p##_axil_bready  = in->bready;              \
        sim.top->p##_axil_araddr  = in->araddr;              \
        sim.top->p##_axil_arprot  = in->arprot;              \
        sim.top->p##_axil_arvalid = in->arvalid;             \
        sim.top->p##_axil_rready  = in->rready;              \
    } while (0)
#define GET_PORT(p)                                  \
    do {                                             \
        out->awready = sim.top->p##_axil_awready;             \
        out->wready  = sim.top->p##_axil_wready;              \
        out->bresp   = sim.top->p##_axil_bresp;               \
        out->bvalid  = sim.top->p##_axil_bvalid;              \
        out->arready = sim.top->p##_axil_arready;             \
        out->rdata   = sim.top->p##_axil_rdata;               \
        out->rresp   = sim.top->p##_axil_rresp;               \
        out->rvalid  = sim.top->p##_axil_rvalid;              \
    } while (0)

extern "C" void dut_set(int port, const tb_axil_in *in)
{
    switch (port) {
    case TB_PORT_ENGINE: SET_PORT(e); break;
    case TB_PORT_SIF: SET_PORT(s); break;
    default: SET_PORT(d); break;
    }
}

extern "C" void dut_get(int port, tb_axil_out *out)
{
    sim.top->eval();
    switch (port) {
    case TB_PORT_ENGINE: GET_PORT(e); break;
    case TB_PORT_SIF: GET_PORT(s); break;
    default: GET_PORT(d); break;
    }
}

extern "C" void dut_reset(int on) { sim.top->rst = on ? 1 : 0; }

extern "C" void dut_tick(void) { sim.tick(); }

extern "C" void dut_finish(void) { sim.finish(); }

int main(int argc, char **argv)
{
    sim.start(argc, argv, "axil.fst");
    return tb_axil_main(argc, argv);
}
