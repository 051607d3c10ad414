// shim.cpp — thin C++ layer of the gcm_core bench: owns the Verilated gcm_core through
// verif/common/vshim.h (clock, optional FST trace gcm.fst with WAVES=1, teardown) and
// exposes the C interface of tb_gcm.h. No checking here.
#include <cstddef>
#include <cstdint>

#include <cstdio>

#include "Vgcm_core.h"
#include "verilated_vpi.h"
#include "vshim.h"

#include "tb_gcm.h"

static vshim<Vgcm_core> sim;
static Vgcm_core *&top = sim.top; // the Verilated model, created by sim.start()

// s_axis_tdata is LANES*128 bits, held by Verilator as LANES*4 32-bit words
static const unsigned LANES_OF_MODEL = sizeof(Vgcm_core::s_axis_tdata) / 16;

extern "C" unsigned dut_lanes(void) { return LANES_OF_MODEL; }

extern "C" void dut_set_rst(int rst) { top->rst = rst ? 1 : 0; }

extern "C" void dut_set_key(int valid, unsigned slot, int aes256, const uint32_t key[8],
                            int wipe)
{
    top->s_key_valid = valid ? 1 : 0;
    top->s_key_wipe = wipe ? 1 : 0;
    top->s_key_slot = slot;
    top->s_key_aes256 = aes256 ? 1 : 0;
    vshim_put(top->s_key_data, key);
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
    vshim_put(top->s_axis_tdata, data);
    vshim_put(top->s_axis_tkeep, keep);
    top->s_axis_tlast = last ? 1 : 0;
    top->s_axis_tuser = user;
    top->s_axis_slot = slot;
    vshim_put(top->s_axis_iv, iv);
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
    vshim_get(top->m_axis_tdata, data);
    vshim_get(top->m_axis_tkeep, keep);
    *last = top->m_axis_tlast;
    *user = top->m_axis_tuser;
    vshim_get(top->m_axis_tag, tag);
    *nokey = top->m_axis_nokey;
    return 1;
}

extern "C" int dut_tag(uint32_t tag[4], int *nokey)
{
    top->eval();
    vshim_get(top->m_tag, tag);
    *nokey = top->m_tag_nokey;
    return top->m_tag_valid;
}

extern "C" void dut_tick(void) { sim.tick(); }

extern "C" void dut_finish(void) { sim.finish(); }

// the names Verilator's VPI gives the public memories (a generate index i is __BRA__i__KET__)
extern "C" int dut_peek_key(unsigned set, unsigned w, uint32_t out[4])
{
    char name[160];
    unsigned index = set;
    if (w == 0)
        std::snprintf(name, sizeof name, "TOP.gcm_core.aes_pipeline_inst.g_rk0.rk_mem");
    else if (w < 15)
        std::snprintf(name, sizeof name,
                      "TOP.gcm_core.aes_pipeline_inst.g_round__BRA__%u__KET__.g_table.rk_mem", w);
    else
        std::snprintf(name, sizeof name,
                      "TOP.gcm_core.g_hset__BRA__%u__KET__.g_pow__BRA__%u__KET__.h_reg", set,
                      w - 15);
    vpiHandle h = vpi_handle_by_name(name, nullptr);
    if (h && w < 15)
        h = vpi_handle_by_index(h, (PLI_INT32)index);
    if (!h)
        return -1;
    s_vpi_value v;
    v.format = vpiVectorVal;
    vpi_get_value(h, &v);
    for (int i = 0; i < 4; i++)
        out[i] = (uint32_t)v.value.vector[i].aval;
    return 0;
}

int main(int argc, char **argv)
{
    sim.start(argc, argv, "gcm.fst");
    return tb_gcm_main(argc, argv);
}
