// shim.cpp — thin C++ layer of the ddpm_marker bench: owns the Verilated ddpm_marker, drives
// its clock, optionally writes an FST trace (-DIBSEC_WAVES=1, file ddpm.fst in the working
// directory) and exposes the C interface of tb_ddpm.h. No checking here.
#include "Vddpm_marker.h"
#include "vshim.h"

#include "tb_ddpm.h"

static vshim<Vddpm_marker> sim;

static const unsigned LANES_OF_MODEL = sizeof(Vddpm_marker::s_axis_tdata) / 16;

extern "C" unsigned dut_lanes(void) { return LANES_OF_MODEL; }

extern "C" void dut_set_rst(int rst) { sim.top->rst = rst ? 1 : 0; }

extern "C" void dut_set_in(int valid, const uint32_t *data, const uint32_t *keep, int last,
                           const uint32_t user[4])
{
    sim.top->s_axis_tvalid = valid ? 1 : 0;
    vshim_put(sim.top->s_axis_tdata, data);
    vshim_put(sim.top->s_axis_tkeep, keep);
    sim.top->s_axis_tlast = last ? 1 : 0;
    vshim_put(sim.top->s_axis_tuser, user);
}

extern "C" int dut_in_ready(void)
{
    sim.top->eval();
    return sim.top->s_axis_tready;
}

extern "C" void dut_set_out_ready(int ready) { sim.top->m_axis_tready = ready ? 1 : 0; }

extern "C" int dut_out(uint32_t *data, uint32_t *keep, int *last)
{
    sim.top->eval();
    if (!sim.top->m_axis_tvalid)
        return 0;
    vshim_get(sim.top->m_axis_tdata, data);
    vshim_get(sim.top->m_axis_tkeep, keep);
    *last = sim.top->m_axis_tlast;
    return 1;
}

extern "C" void dut_set_cfg(const struct ddpm_dut_cfg *c)
{
    uint32_t w[19];
    sim.top->cfg_topo = c->topo;
    sim.top->cfg_ndims = c->ndims;
    sim.top->cfg_w = c->w;
    sim.top->cfg_mf_bits = c->mf_bits;
    for (int i = 0; i < 19; i++)
        w[i] = c->radix[i];
    vshim_put(sim.top->cfg_radix, w);
    sim.top->cfg_ft_level = c->ft_level;
    sim.top->cfg_ft_ancestor = c->ft_ancestor;
}

extern "C" int dut_status(unsigned *outcome, uint32_t count[14])
{
    sim.top->eval();
    *outcome = sim.top->st_outcome;
    vshim_get(sim.top->out_count, count);
    return sim.top->st_valid;
}

extern "C" void dut_tick(void) { sim.tick(); }

extern "C" void dut_finish(void) { sim.finish(); }

int main(int argc, char **argv)
{
    sim.start(argc, argv, "ddpm.fst");
    return tb_ddpm_main(argc, argv);
}
