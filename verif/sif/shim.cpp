// shim.cpp — thin C++ layer of the sif_filter bench: owns the Verilated sif_filter, drives its
// clock and optional FST trace (sif.fst) through verif/common/vshim.h, and exposes the C
// interface of tb_sif.h. No checking here.
#include "Vsif_filter.h"
#include "vshim.h"

#include "tb_sif.h"

static vshim<Vsif_filter> sim;

static const unsigned LANES_OF_MODEL = sizeof(Vsif_filter::s_axis_tdata) / 16;

extern "C" unsigned dut_lanes(void) { return LANES_OF_MODEL; }

extern "C" void dut_set_rst(int rst) { sim.top->rst = rst ? 1 : 0; }

extern "C" void dut_set_in(int valid, const uint32_t *data, const uint32_t *keep, int last)
{
    sim.top->s_axis_tvalid = valid ? 1 : 0;
    vshim_put(sim.top->s_axis_tdata, data);
    vshim_put(sim.top->s_axis_tkeep, keep);
    sim.top->s_axis_tlast = last ? 1 : 0;
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

extern "C" void dut_set_inst(int valid, uint16_t pkey)
{
    sim.top->inst_valid = valid ? 1 : 0;
    sim.top->inst_pkey = pkey;
}

extern "C" void dut_set_cfg(const uint16_t valid_keys[32], unsigned n_valid, uint32_t quiet_ticks)
{
    uint32_t w[16];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)valid_keys[2 * i] | (uint32_t)valid_keys[2 * i + 1] << 16;
    vshim_put(sim.top->cfg_valid_keys, w);
    sim.top->cfg_n_valid = n_valid;
    sim.top->cfg_quiet_ticks = quiet_ticks;
}

extern "C" void dut_state(struct sif_dut_state *s)
{
    uint32_t w[8];
    sim.top->eval();
    s->st_valid = sim.top->st_valid;
    s->st_outcome = sim.top->st_outcome;
    s->inst_done = sim.top->inst_done;
    s->inst_outcome = sim.top->inst_outcome;
    s->filtering = sim.top->filtering;
    s->use_valid_table = sim.top->use_valid_table;
    s->n_invalid = sim.top->n_invalid;
    vshim_get(sim.top->invalid_keys, w);
    for (int i = 0; i < 16; i++)
        s->invalid[i] = (uint16_t)(w[i / 2] >> (16 * (i % 2)));
    s->violations = sim.top->violations;
    s->quiet_left = sim.top->quiet_left;
    vshim_get(sim.top->out_count, s->out_count);
    s->lookups = sim.top->lookups;
    s->flushes = sim.top->flushes;
}

extern "C" void dut_tick(void) { sim.tick(); }

extern "C" void dut_finish(void) { sim.finish(); }

int main(int argc, char **argv)
{
    sim.start(argc, argv, "sif.fst");
    return tb_sif_main(argc, argv);
}
