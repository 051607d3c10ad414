// shim.cpp — thin C++ layer of the CRC bench: owns the Verilated tb_crc_top, drives its clock
// and optional FST trace (crc.fst) through verif/common/vshim.h, and exposes the C interface
// of tb_crc.h. No checking here.
#include "Vtb_crc_top.h"
#include "vshim.h"

#include "tb_crc.h"

static vshim<Vtb_crc_top> sim;

extern "C" unsigned dut_lanes(void) { return sim.top->lanes; }

extern "C" unsigned dut_variants(void) { return sim.top->variants; }

extern "C" void dut_set_rst(int rst) { sim.top->rst = rst ? 1 : 0; }

extern "C" void dut_set_icrc(int valid, int first, int last, int roce, const uint32_t *data,
                             const uint32_t *ones, unsigned end)
{
    sim.top->icrc_valid = valid ? 1 : 0;
    sim.top->icrc_first = first ? 1 : 0;
    sim.top->icrc_last = last ? 1 : 0;
    sim.top->icrc_roce = roce ? 1 : 0;
    vshim_put(sim.top->icrc_data, data);
    vshim_put(sim.top->icrc_ones, ones);
    sim.top->icrc_end = end;
}

extern "C" void dut_set_vcrc(int valid, int first, int last, const uint32_t *data, unsigned end)
{
    sim.top->vcrc_valid = valid ? 1 : 0;
    sim.top->vcrc_first = first ? 1 : 0;
    sim.top->vcrc_last = last ? 1 : 0;
    vshim_put(sim.top->vcrc_data, data);
    sim.top->vcrc_end = end;
}

extern "C" int dut_icrc_out(unsigned variant, uint32_t *icrc)
{
    sim.top->eval();
    *icrc = variant ? sim.top->icrc2_out : sim.top->icrc_out;
    return variant ? sim.top->icrc2_out_valid : sim.top->icrc_out_valid;
}

extern "C" int dut_vcrc_out(unsigned variant, uint16_t *vcrc)
{
    sim.top->eval();
    *vcrc = variant ? sim.top->vcrc2_out : sim.top->vcrc_out;
    return variant ? sim.top->vcrc2_out_valid : sim.top->vcrc_out_valid;
}

extern "C" uint16_t dut_vcrc_extend4(uint16_t vcrc, uint32_t bytes)
{
    sim.top->ext_vcrc = vcrc;
    sim.top->ext_bytes = bytes;
    sim.top->eval();
    return sim.top->ext_out;
}

extern "C" void dut_tick(void) { sim.tick(); }

extern "C" void dut_finish(void) { sim.finish(); }

int main(int argc, char **argv)
{
    sim.start(argc, argv, "crc.fst");
    return tb_crc_main(argc, argv);
}
