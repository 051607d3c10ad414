/*
 * tb_ddpm.h — the interface between the ddpm_marker bench's C harness (tb_ddpm.c) and its
 * C++ shim (shim.cpp), which owns the Verilated rtl/switch/ddpm_marker.v.
 *
 * Wide ports travel as arrays of 32-bit words, word 0 = bits [31:0] (Verilator's layout).
 * Timing: the harness sets inputs, reads the settled outputs, then calls dut_tick() for
 * one rising edge; registered outputs read after the tick belong to the cycle just ended.
 */
#ifndef TB_DDPM_H
#define TB_DDPM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The block's configuration inputs. */
struct ddpm_dut_cfg {
    unsigned topo, ndims, w, mf_bits;
    uint32_t radix[19];
    unsigned ft_level;
    uint64_t ft_ancestor;
};

/* shim -> harness */
int tb_ddpm_main(int argc, char **argv);

/* harness -> shim */
unsigned dut_lanes(void);
void     dut_set_rst(int rst);
/* data: 4*LANES words, keep: (LANES+1)/2 words, user: 4 words (109 bits) */
void     dut_set_in(int valid, const uint32_t *data, const uint32_t *keep, int last,
                    const uint32_t user[4]);
int      dut_in_ready(void);
void     dut_set_out_ready(int ready);
/* returns m_axis_tvalid; copies tdata, tkeep, tlast */
int      dut_out(uint32_t *data, uint32_t *keep, int *last);
void     dut_set_cfg(const struct ddpm_dut_cfg *c);
/* st_valid, st_outcome and the 14 outcome counters */
int      dut_status(unsigned *outcome, uint32_t count[14]);
void     dut_tick(void);
void     dut_finish(void);

#ifdef __cplusplus
}
#endif

#endif
