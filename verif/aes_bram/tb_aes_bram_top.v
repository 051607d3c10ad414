/*
 * tb_aes_bram_top — Verilator test top that runs the AES bench's harness
 * (verif/aes_pipeline/tb_aes.c, through its shim) on the block RAM S-box variant of
 * aes_pipeline (verif only, not in rtl/).
 *
 * Same ports and port meaning as verif/aes_pipeline/tb_aes_top.v, so the same harness
 * and shim drive it (it is Verilated with --prefix Vtb_aes_top):
 *   - m1_*: aes_pipeline with STAGES_PER_ROUND = 1 and the LUT S-boxes (the default);
 *   - m2_*: aes_pipeline with STAGES_PER_ROUND = 2 and SBOX_IMPL = 1 (block RAM ROMs,
 *     aes_sbox_rom2), whose latency must be the same 28 cycles as the LUT variant;
 *   - sbox_*: aes_sbox alone, as in the main top.
 * The harness checks both pipelines on the same beats against the C model, OpenSSL
 * AES-ECB and FIPS-197 vectors, and their latency against 14 * STAGES_PER_ROUND.
 *
 * DATA FORMATS: as tb_aes_top (big-endian block order of docs/conventions.md).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_aes_bram_top #(
    // 128-bit blocks per beat
    parameter LANES = 1
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * input beat, to both pipelines
     */
    input  wire                 s_valid,
    input  wire [LANES*128-1:0] s_block,
    input  wire [255:0]         s_key,
    input  wire                 s_aes256,
    input  wire [31:0]          s_user,

    /*
     * aes_pipeline, STAGES_PER_ROUND = 1, LUT S-boxes
     */
    output wire                 m1_valid,
    output wire [LANES*128-1:0] m1_block,
    output wire [31:0]          m1_user,

    /*
     * aes_pipeline, STAGES_PER_ROUND = 2, block RAM S-boxes
     */
    output wire                 m2_valid,
    output wire [LANES*128-1:0] m2_block,
    output wire [31:0]          m2_user,

    /*
     * aes_sbox alone (combinational)
     */
    input  wire [7:0]           sbox_in,
    output wire [7:0]           sbox_out,

    output wire [7:0]           lanes,
    output wire [7:0]           pipes
);

// pipelines behind the m1_* and m2_* ports (the harness reads it on the pipes port)
localparam PIPES = 2;

assign lanes = LANES[7:0];
assign pipes = PIPES[7:0];

aes_pipeline #(
    .LANES(LANES),
    .USER_WIDTH(32),
    .STAGES_PER_ROUND(1)
) aes_pipeline_lut_inst (
    .clk(clk),
    .rst(rst),
    // the key comes with every beat (KEY_TABLE = 0): no round-key table
    .rk_we(1'b0),
    .rk_set(1'b0),
    .rk_round(4'd0),
    .rk_data(128'd0),
    .s_valid(s_valid),
    .s_block(s_block),
    .s_key(s_key),
    .s_set(1'b0),
    .s_aes256(s_aes256),
    .s_user(s_user),
    .m_valid(m1_valid),
    .m_block(m1_block),
    .m_user(m1_user)
);

aes_pipeline #(
    .LANES(LANES),
    .USER_WIDTH(32),
    .STAGES_PER_ROUND(2),
    .SBOX_IMPL(1)
) aes_pipeline_bram_inst (
    .clk(clk),
    .rst(rst),
    // the key comes with every beat (KEY_TABLE = 0): no round-key table
    .rk_we(1'b0),
    .rk_set(1'b0),
    .rk_round(4'd0),
    .rk_data(128'd0),
    .s_valid(s_valid),
    .s_block(s_block),
    .s_key(s_key),
    .s_set(1'b0),
    .s_aes256(s_aes256),
    .s_user(s_user),
    .m_valid(m2_valid),
    .m_block(m2_block),
    .m_user(m2_user)
);

aes_sbox aes_sbox_inst (
    .in(sbox_in),
    .out(sbox_out)
);

endmodule

`resetall
