/*
 * tb_aes.h — the narrow interface between the AES bench's C harness (tb_aes.c) and its
 * C++ shim (shim.cpp), which owns the Verilated model of tb_aes_top.
 *
 * Wide ports travel as arrays of 32-bit words, word 0 = bits [31:0] (Verilator's layout);
 * the harness packs them with tb_pack_block_be (big-endian block order).
 * Timing: the harness sets inputs, reads outputs (which show the registers' state of the
 * current cycle), then calls dut_tick() for one rising edge.
 */
#ifndef TB_AES_H
#define TB_AES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* at most two aes_pipeline instances in tb_aes_top: STAGES_PER_ROUND = 1 and 2 */
#define TB_AES_PIPES 2

/* shim -> harness */
int tb_aes_main(int argc, char **argv);

/* harness -> shim */
unsigned dut_lanes(void);
/* 1: only the STAGES_PER_ROUND = 1 pipeline is built; 2: both */
unsigned dut_pipes(void);
void     dut_set_rst(int rst);
/* block_words: LANES*4 words; key_words: 8 words (s_key[255:0]) */
void     dut_set_beat(int valid, const uint32_t *block_words, const uint32_t key_words[8],
                      int aes256, uint32_t user);
void     dut_tick(void);
/* pipe 0: STAGES_PER_ROUND = 1 (m1_*), pipe 1: STAGES_PER_ROUND = 2 (m2_*);
 * returns m_valid, copies m_block (LANES*4 words) and m_user */
int      dut_result(unsigned pipe, uint32_t *block_words, uint32_t *user);
/* combinational aes_sbox */
uint8_t  dut_sbox(uint8_t in);
void     dut_finish(void);

#ifdef __cplusplus
}
#endif

#endif
