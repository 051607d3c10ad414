/*
 * tb_crc.h — the narrow interface between the CRC bench's C harness (tb_crc.c) and its
 * C++ shim (shim.cpp), which owns the Verilated model of tb_crc_top.
 *
 * Wide ports travel as arrays of 32-bit words, word 0 = bits [31:0] (Verilator's
 * layout); the harness packs them with tb_pack_axis (AXI4-Stream byte order).
 * Timing: the harness sets inputs, reads outputs (which show the registers' state of the
 * current cycle), then calls dut_tick() for one rising edge.
 */
#ifndef TB_CRC_H
#define TB_CRC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* shim -> harness */
int tb_crc_main(int argc, char **argv);

/* harness -> shim */
unsigned dut_lanes(void);
/* instances per engine in the test top (1, or 2 with the UNPAD_BITS = 2 pair) */
unsigned dut_variants(void);
void     dut_set_rst(int rst);
/* ib_icrc_engine inputs: data 4*LANES words, ones LANES/2 words (16*LANES bits) */
void     dut_set_icrc(int valid, int first, int last, int roce, const uint32_t *data,
                      const uint32_t *ones, unsigned end);
/* ib_vcrc_engine inputs: data 4*LANES words */
void     dut_set_vcrc(int valid, int first, int last, const uint32_t *data, unsigned end);
/* outputs of the current cycle of engine variant 0 (UNPAD_BITS = 1) or 1 (UNPAD_BITS = 2):
 * returns out_valid, copies the value */
int      dut_icrc_out(unsigned variant, uint32_t *icrc);
int      dut_vcrc_out(unsigned variant, uint16_t *vcrc);
/* ib_vcrc_extend4, combinational */
uint16_t dut_vcrc_extend4(uint16_t vcrc, uint32_t bytes);
void     dut_tick(void);
void     dut_finish(void);

#ifdef __cplusplus
}
#endif

#endif
