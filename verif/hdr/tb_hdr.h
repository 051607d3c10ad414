/*
 * tb_hdr.h — the narrow interface between the header bench's C harness (tb_hdr.c) and
 * its C++ shim (shim.cpp), which owns the Verilated tb_hdr_top (verif/hdr/tb_hdr_top.v).
 *
 * Each call sets one module's inputs, evaluates the model and returns its outputs (the
 * header modules are combinational but for ib_hdr_edit, whose register stage the shim
 * clocks once, then once more with ce low and other inputs: its output must hold). Header windows travel as HDR_BYTES byte
 * arrays in frame order; the shim places byte i at bits [8i+7:8i] (AXI4-Stream order).
 */
#ifndef TB_HDR_H
#define TB_HDR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TB_HDR_BYTES 128 /* HDR_BYTES of the packet engine */

/* ib_opcode_info outputs */
struct dut_opinfo {
    unsigned known, cnp, valid_ib, valid_roce, eth_len, has_payload, pos, pad_allowed,
        fixed_payload;
};

/* ib_hdr_parse outputs: reason of both instances (LEN_W 13 and 17), the fields of the
 * 13-bit one, and the length outputs of the 17-bit one */
struct dut_parse {
    unsigned valid;                 /* out_valid of both instances after the latency */
    unsigned reason13, reason17;
    unsigned shape, bth_off, hdr_len, sth_len, pp_len, pkt_end;
    unsigned opcode, padcnt, pkey, destqp, psn, secmode, sthsz, kp, pn, mode;
    unsigned pp_len17, pkt_end17;
};

/* shim -> harness */
int tb_hdr_main(int argc, char **argv);

/* harness -> shim */
void dut_opcode(unsigned opcode, struct dut_opinfo *o);
void dut_parse(const uint8_t hdr[TB_HDR_BYTES], unsigned len13, unsigned len17, int link,
               int is_open, struct dut_parse *o);
void dut_edit(const uint8_t in[TB_HDR_BYTES], unsigned shape, unsigned bth_off, int shrink,
              unsigned len, unsigned secbits, uint8_t out[TB_HDR_BYTES]);
/* variant: one byte per header byte, 0 or 1 */
void dut_mask(const uint8_t hdr[TB_HDR_BYTES], unsigned shape, unsigned hdr_len, int mask_mf,
              uint8_t aad[TB_HDR_BYTES], unsigned *aad_len, uint8_t variant[TB_HDR_BYTES],
              uint8_t ones[TB_HDR_BYTES]);
void dut_finish(void);

#ifdef __cplusplus
}
#endif

#endif
