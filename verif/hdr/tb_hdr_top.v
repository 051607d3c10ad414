/*
 * tb_hdr_top — test top of the header bench (verif/hdr/): the four header modules side
 * by side, each with its own inputs, so the C harness can drive each one alone or chain
 * them (parse -> edit -> mask) through its own code. ib_hdr_parse is there twice: with
 * the default 13-bit frame_len and with LEN_W = 17 (exact for every frame length).
 * The parser is pipelined (its LATENCY cycles on clk, one header per clock); ib_hdr_edit
 * has one register stage, which the harness clocks (e_clk, e_ce); ib_hdr_mask is
 * combinational.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_hdr_top #(
    // header window of the packet engine
    parameter HDR_BYTES = 128
) (
    // ib_opcode_info
    input  wire [7:0]             op_opcode,
    output wire                   op_known,
    output wire                   op_cnp,
    output wire                   op_valid_ib,
    output wire                   op_valid_roce,
    output wire [5:0]             op_eth_len,
    output wire                   op_has_payload,
    output wire [2:0]             op_pos,
    output wire                   op_pad_allowed,
    output wire                   op_fixed_payload,

    // ib_hdr_parse, both instances see the same header
    input  wire                   clk,
    input  wire                   rst,
    input  wire                   p_valid,
    output wire                   p13_valid,
    output wire                   p17_valid,
    input  wire [8*HDR_BYTES-1:0] p_hdr,
    input  wire [12:0]            p13_frame_len,
    input  wire [16:0]            p17_frame_len,
    input  wire                   p_link,
    input  wire                   p_is_open,
    output wire [5:0]             p13_reason,
    output wire [5:0]             p17_reason,
    output wire [1:0]             p_shape,
    output wire [6:0]             p_bth_off,
    output wire [6:0]             p_hdr_len,
    output wire [6:0]             p_sth_len,
    output wire [12:0]            p_pp_len,
    output wire [12:0]            p_pkt_end,
    output wire [7:0]             p_opcode,
    output wire [1:0]             p_padcnt,
    output wire [15:0]            p_pkey,
    output wire [23:0]            p_destqp,
    output wire [23:0]            p_psn,
    output wire [1:0]             p_secmode,
    output wire [2:0]             p_sthsz,
    output wire                   p_kp,
    output wire                   p_pn,
    output wire [2:0]             p_mode,
    // the fields of the 17-bit instance, which must equal those above when both say ok
    output wire [12:0]            p17_pp_len,
    output wire [12:0]            p17_pkt_end,

    // ib_hdr_edit
    input  wire                   e_clk,
    input  wire                   e_ce,
    input  wire [8*HDR_BYTES-1:0] e_hdr_in,
    input  wire [1:0]             e_shape,
    input  wire [6:0]             e_bth_off,
    input  wire                   e_shrink,
    input  wire [6:0]             e_len,
    input  wire [6:0]             e_secbits,
    output wire [8*HDR_BYTES-1:0] e_hdr_out,

    // ib_hdr_mask
    input  wire [8*HDR_BYTES-1:0] m_hdr,
    input  wire [1:0]             m_shape,
    input  wire [6:0]             m_hdr_len,
    input  wire                   m_mask_mf,
    output wire [8*HDR_BYTES-1:0] m_aad,
    output wire [6:0]             m_aad_len,
    output wire [HDR_BYTES-1:0]   m_variant,
    output wire [8*HDR_BYTES-1:0] m_ones
);

ib_opcode_info u_op (
    .opcode        (op_opcode),
    .known         (op_known),
    .cnp           (op_cnp),
    .valid_ib      (op_valid_ib),
    .valid_roce    (op_valid_roce),
    .eth_len       (op_eth_len),
    .has_payload   (op_has_payload),
    .pos           (op_pos),
    .pad_allowed   (op_pad_allowed),
    .fixed_payload (op_fixed_payload)
);

ib_hdr_parse #(
    .HDR_BYTES (HDR_BYTES)
) u_parse13 (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (p_valid),
    .out_valid (p13_valid),
    .hdr       (p_hdr),
    .frame_len (p13_frame_len),
    .link      (p_link),
    .is_open   (p_is_open),
    .reason    (p13_reason),
    .shape     (p_shape),
    .bth_off   (p_bth_off),
    .hdr_len   (p_hdr_len),
    .sth_len   (p_sth_len),
    .pp_len    (p_pp_len),
    .pkt_end   (p_pkt_end),
    .opcode    (p_opcode),
    .padcnt    (p_padcnt),
    .pkey      (p_pkey),
    .destqp    (p_destqp),
    .psn       (p_psn),
    .secmode   (p_secmode),
    .sthsz     (p_sthsz),
    .kp        (p_kp),
    .pn        (p_pn),
    .mode      (p_mode)
);

/* verilator lint_off PINCONNECTEMPTY */
// the 17-bit instance: only its reason and length outputs differ from the 13-bit one
ib_hdr_parse #(
    .HDR_BYTES (HDR_BYTES),
    .LEN_W     (17)
) u_parse17 (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (p_valid),
    .out_valid (p17_valid),
    .hdr       (p_hdr),
    .frame_len (p17_frame_len),
    .link      (p_link),
    .is_open   (p_is_open),
    .reason    (p17_reason),
    .shape     (),
    .bth_off   (),
    .hdr_len   (),
    .sth_len   (),
    .pp_len    (p17_pp_len),
    .pkt_end   (p17_pkt_end),
    .opcode    (),
    .padcnt    (),
    .pkey      (),
    .destqp    (),
    .psn       (),
    .secmode   (),
    .sthsz     (),
    .kp        (),
    .pn        (),
    .mode      ()
);
/* verilator lint_on PINCONNECTEMPTY */

ib_hdr_edit #(
    .HDR_BYTES (HDR_BYTES)
) u_edit (
    .clk     (e_clk),
    .ce      (e_ce),
    .hdr_in  (e_hdr_in),
    .shape   (e_shape),
    .bth_off (e_bth_off),
    .shrink  (e_shrink),
    .len     (e_len),
    .secbits (e_secbits),
    .hdr_out (e_hdr_out)
);

ib_hdr_mask #(
    .HDR_BYTES (HDR_BYTES),
    .AAD_BYTES (HDR_BYTES)
) u_mask (
    .hdr     (m_hdr),
    .shape   (m_shape),
    .hdr_len (m_hdr_len),
    .mask_mf (m_mask_mf),
    .aad     (m_aad),
    .aad_len (m_aad_len),
    .variant (m_variant),
    .ones    (m_ones)
);

endmodule

`resetall
