// shim.cpp — thin C++ layer of the AES bench: owns the Verilated tb_aes_top through
// verif/common/vshim.h (clock, optional FST trace aes.fst with WAVES=1, teardown) and
// exposes the C interface of tb_aes.h. No checking here.
#include <cstdint>

#include "Vtb_aes_top.h"
#include "vshim.h"

#include "tb_aes.h"

static vshim<Vtb_aes_top> sim;
static Vtb_aes_top *&top = sim.top; // the Verilated model, created by sim.start()

extern "C" unsigned dut_lanes(void) { return top->lanes; }

extern "C" unsigned dut_pipes(void) { return top->pipes; }

extern "C" void dut_set_rst(int rst) { top->rst = rst ? 1 : 0; }

extern "C" void dut_set_beat(int valid, const uint32_t *block_words, const uint32_t key_words[8],
                             int aes256, uint32_t user)
{
    const unsigned nw = 4 * dut_lanes();
    top->s_valid = valid ? 1 : 0;
    for (unsigned w = 0; w < nw; w++)
        top->s_block[w] = block_words[w];
    for (unsigned w = 0; w < 8; w++)
        top->s_key[w] = key_words[w];
    top->s_aes256 = aes256 ? 1 : 0;
    top->s_user = user;
    top->eval();
}

extern "C" void dut_tick(void) { sim.tick(); }

// copies a wide output (VlWide of LANES*128 bits) into the harness's word array
template <typename W> static void copy_words(uint32_t *dst, const W &src, unsigned nw)
{
    for (unsigned w = 0; w < nw; w++)
        dst[w] = src[w];
}

extern "C" int dut_result(unsigned pipe, uint32_t *block_words, uint32_t *user)
{
    const unsigned nw = 4 * dut_lanes();
    top->eval();
    if (pipe == 0) {
        copy_words(block_words, top->m1_block, nw);
        *user = top->m1_user;
        return top->m1_valid;
    }
    copy_words(block_words, top->m2_block, nw);
    *user = top->m2_user;
    return top->m2_valid;
}

extern "C" uint8_t dut_sbox(uint8_t in)
{
    top->sbox_in = in;
    top->eval();
    return top->sbox_out;
}

extern "C" void dut_finish(void) { sim.finish(); }

int main(int argc, char **argv)
{
    sim.start(argc, argv, "aes.fst");
    return tb_aes_main(argc, argv);
}
