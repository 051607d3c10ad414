/*
 * tb_gcm.h — the narrow interface between the gcm_core bench's C harness (tb_gcm.c) and
 * its C++ shim (shim.cpp), which owns the Verilated model of rtl/crypto/gcm_core.v.
 *
 * Wide ports travel as arrays of 32-bit words, word 0 = bits [31:0] (Verilator's layout).
 * Timing: the harness sets inputs with the dut_set_* calls, reads the outputs and the
 * ready signals (which show the current cycle, after the inputs have settled), then calls
 * dut_tick() for one rising edge.
 */
#ifndef TB_GCM_H
#define TB_GCM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* shim -> harness */
int tb_gcm_main(int argc, char **argv);

/* harness -> shim */
unsigned dut_lanes(void);   /* LANES of the Verilated gcm_core */
void     dut_set_rst(int rst);
/* key install port; key: 8 words (s_key_data[255:0]); wipe: s_key_wipe (zeroize) */
void     dut_set_key(int valid, unsigned slot, int aes256, const uint32_t key[8], int wipe);
int      dut_key_ready(void);
/* message input; data: 4*LANES words, keep: (LANES+1)/2 words, iv: 3 words */
void     dut_set_in(int valid, const uint32_t *data, const uint32_t *keep, int last,
                    uint32_t user, unsigned slot, const uint32_t iv[3], int decrypt);
int      dut_in_ready(void);
void     dut_set_out_ready(int ready);
/* returns m_axis_tvalid; copies tdata (4*LANES words), tkeep ((LANES+1)/2 words), tlast,
   tuser, tag (4 words) and nokey */
int      dut_out(uint32_t *data, uint32_t *keep, int *last, uint32_t *user, uint32_t tag[4],
                 int *nokey);
/* returns m_tag_valid (the tag stream); copies m_tag (4 words) and m_tag_nokey */
int      dut_tag(uint32_t tag[4], int *nokey);
void     dut_tick(void);
void     dut_finish(void);
/* the core's key table, read through VPI (its memories are public_flat_rd), for the
   zeroize check only: word w of set s (= 2 * slot + bank): w = 0..14 the round key rk[w]
   (aes_pipeline's table), w = 15 .. 14 + HPOW the H power H^(w - 14); 4 words, word 0 =
   bits [31:0]. Returns 0, or -1 if the signal is not found. */
int      dut_peek_key(unsigned set, unsigned w, uint32_t out[4]);

#ifdef __cplusplus
}
#endif

#endif
