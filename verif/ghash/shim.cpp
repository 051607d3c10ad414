// shim.cpp — thin C++ layer of the GHASH bench: owns the Verilated tb_ghash_top through
// verif/common/vshim.h (clock, optional FST trace ghash.fst with WAVES=1, teardown) and
// exposes the C interface of tb_ghash.h. No checking here.
#include <cstdint>

#include "Vtb_ghash_top.h"
#include "vshim.h"

#include "tb_ghash.h"

static vshim<Vtb_ghash_top> sim;
static Vtb_ghash_top *&top = sim.top; // the Verilated model, created by sim.start()

extern "C" unsigned dut_lanes(void) { return top->lanes; }

extern "C" unsigned dut_hpow(void) { return top->hpow_n; }

extern "C" unsigned dut_ghash_latency(void) { return top->ghash_latency; }

extern "C" void dut_set_rst(int rst) { top->rst = rst ? 1 : 0; }

extern "C" void dut_set_beat(int valid, const uint32_t *block_words, unsigned count,
                             const uint32_t *hpow_words, int first, int last, uint32_t user)
{
    const unsigned nw = 4 * dut_lanes();
    top->s_valid = valid ? 1 : 0;
    for (unsigned w = 0; w < nw; w++)
        top->s_block[w] = block_words[w];
    for (unsigned w = 0; w < 4 * dut_hpow(); w++) // H^1..H^HPOW
        top->s_hpow[w] = hpow_words[w];
    top->s_count = count;
    top->s_first = first ? 1 : 0;
    top->s_last = last ? 1 : 0;
    top->s_user = user;
    top->eval();
}

extern "C" void dut_tick(void) { sim.tick(); }

extern "C" int dut_result(uint32_t ghash_words[4], uint32_t *user)
{
    top->eval();
    for (unsigned w = 0; w < 4; w++)
        ghash_words[w] = top->m_ghash[w];
    *user = top->m_user;
    return top->m_valid;
}

extern "C" void dut_mul(const uint32_t a[4], const uint32_t b[4], uint32_t y[4], uint32_t p[8])
{
    for (unsigned w = 0; w < 4; w++) {
        top->mul_a[w] = a[w];
        top->mul_b[w] = b[w];
    }
    top->eval();
    for (unsigned w = 0; w < 4; w++)
        y[w] = top->mul_y[w];
    for (unsigned w = 0; w < 8; w++)
        p[w] = top->mul_p[w];
}

extern "C" void dut_ser_set(int valid, const uint32_t a[4], const uint32_t b[4])
{
    top->ser_valid = valid ? 1 : 0;
    for (unsigned w = 0; w < 4; w++) {
        top->ser_a[w] = a[w];
        top->ser_b[w] = b[w];
    }
    top->eval();
}

extern "C" int dut_ser_out(int *ready, uint32_t y[4])
{
    top->eval();
    *ready = top->ser_ready;
    for (unsigned w = 0; w < 4; w++)
        y[w] = top->ser_y[w];
    return top->ser_done;
}

extern "C" unsigned dut_ser_digit(void) { return top->ser_digit; }

extern "C" void dut_reduce(const uint32_t p[8], uint32_t r[4])
{
    for (unsigned w = 0; w < 8; w++)
        top->red_p[w] = p[w];
    top->eval();
    for (unsigned w = 0; w < 4; w++)
        r[w] = top->red_r[w];
}

extern "C" void dut_len_mul(uint32_t alen, uint32_t clen, const uint32_t h[4], uint32_t p13[4],
                            uint32_t p32[4])
{
    top->len_alen = alen;
    top->len_clen = clen;
    for (unsigned w = 0; w < 4; w++)
        top->len_h[w] = h[w];
    top->eval();
    for (unsigned w = 0; w < 4; w++) {
        p13[w] = top->len_p13[w];
        p32[w] = top->len_p32[w];
    }
}

extern "C" void dut_finish(void) { sim.finish(); }

int main(int argc, char **argv)
{
    sim.start(argc, argv, "ghash.fst");
    return tb_ghash_main(argc, argv);
}
