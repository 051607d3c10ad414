/*
 * tb_ghash.h — the narrow interface between the GHASH bench's C harness (tb_ghash.c)
 * and its C++ shim (shim.cpp), which owns the Verilated model of tb_ghash_top.
 *
 * Wide ports travel as arrays of 32-bit words, word 0 = bits [31:0] (Verilator's layout);
 * the harness packs them with tb_pack_block_be (big-endian block order).
 * Timing: the harness sets inputs, reads outputs (which show the registers' state of the
 * current cycle), then calls dut_tick() for one rising edge.
 */
#ifndef TB_GHASH_H
#define TB_GHASH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* shim -> harness */
int tb_ghash_main(int argc, char **argv);

/* harness -> shim */
unsigned dut_lanes(void);
/* number of powers H^1..H^n the engine takes per beat; its LATENCY */
unsigned dut_hpow(void);
unsigned dut_ghash_latency(void);
void     dut_set_rst(int rst);
/* block_words: LANES*4 words; hpow_words: dut_hpow()*4 words, H^1..H^n;
 * count 0..LANES+1 (LANES+1: a trailing zero block beyond the lanes) */
void     dut_set_beat(int valid, const uint32_t *block_words, unsigned count,
                      const uint32_t *hpow_words, int first, int last, uint32_t user);
void     dut_tick(void);
/* returns m_valid; copies m_ghash (4 words) and m_user */
int      dut_result(uint32_t ghash_words[4], uint32_t *user);
/* combinational multiplier: a, b, y 4 words; p 8 words (255-bit unreduced product) */
void     dut_mul(const uint32_t a[4], const uint32_t b[4], uint32_t y[4], uint32_t p[8]);
/* digit-serial multiplier: inputs held until the next call; outputs of this cycle
 * (returns m_valid, sets *ready = s_ready, y 4 words); its DIGIT_WIDTH */
void     dut_ser_set(int valid, const uint32_t a[4], const uint32_t b[4]);
int      dut_ser_out(int *ready, uint32_t y[4]);
unsigned dut_ser_digit(void);
/* reduction alone: p 8 words (bits [254:0]), r 4 words */
void     dut_reduce(const uint32_t p[8], uint32_t r[4]);
/* gcm_len_mul: byte counts, h 4 words; reduce(L * H) with 13-bit (p13, the low 13 bits of
 * alen and clen) and 32-bit (p32) lengths */
void     dut_len_mul(uint32_t alen, uint32_t clen, const uint32_t h[4], uint32_t p13[4],
                     uint32_t p32[4]);
void     dut_finish(void);

#ifdef __cplusplus
}
#endif

#endif
