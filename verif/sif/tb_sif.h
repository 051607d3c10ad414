/*
 * tb_sif.h — the interface between the sif_filter bench's C harness (tb_sif.c) and its
 * C++ shim (shim.cpp), which owns the Verilated rtl/switch/sif_filter.v.
 *
 * Wide ports travel as arrays of 32-bit words, word 0 = bits [31:0] (Verilator's layout).
 * Timing: the harness sets inputs, reads the settled outputs, then calls dut_tick() for
 * one rising edge; registered outputs read after the tick belong to the cycle just ended.
 */
#ifndef TB_SIF_H
#define TB_SIF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Port state and statistics of sif_filter, read after a tick. */
struct sif_dut_state {
    int      st_valid;
    unsigned st_outcome;
    int      inst_done;
    unsigned inst_outcome;
    int      filtering, use_valid_table;
    unsigned n_invalid;
    uint16_t invalid[16];
    uint32_t violations, quiet_left;
    uint32_t out_count[7];
    uint32_t lookups, flushes;
};

/* shim -> harness */
int tb_sif_main(int argc, char **argv);

/* harness -> shim */
unsigned dut_lanes(void);
void     dut_set_rst(int rst);
/* data: 4*LANES words, keep: (LANES+1)/2 words */
void     dut_set_in(int valid, const uint32_t *data, const uint32_t *keep, int last);
int      dut_in_ready(void);
void     dut_set_out_ready(int ready);
/* returns m_axis_tvalid; copies tdata, tkeep, tlast */
int      dut_out(uint32_t *data, uint32_t *keep, int *last);
void     dut_set_inst(int valid, uint16_t pkey);
void     dut_set_cfg(const uint16_t valid_keys[32], unsigned n_valid, uint32_t quiet_ticks);
void     dut_state(struct sif_dut_state *s);
void     dut_tick(void);
void     dut_finish(void);

#ifdef __cplusplus
}
#endif

#endif
