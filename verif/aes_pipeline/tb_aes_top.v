/*
 * tb_aes_top — Verilator test top of the AES bench (verif only, not in rtl/).
 *
 * Puts independent DUTs behind one set of ports so that one Verilated model serves the
 * whole bench:
 *   - aes_pipeline with STAGES_PER_ROUND = 1 (outputs m1_*) and, when PIPES = 2, with
 *     STAGES_PER_ROUND = 2 (outputs m2_*), both fed the same input beats, so one run
 *     checks both pipeline depths against the same stimulus (with PIPES = 1 the m2_*
 *     outputs are tied to zero; the harness reads PIPES on the pipes port);
 *   - aes_sbox alone (combinational), so the harness can check all 256 entries.
 * The checker sees only these ports, never internal names.
 *
 * DATA FORMATS
 *   Blocks and keys in the big-endian block order of docs/conventions.md: lane i of
 *   s_block / m*_block is [128*i +: 128] with block byte k at [128*i + 127-8k -: 8];
 *   key byte k at s_key[255-8k -: 8] (AES-128 keys in [255:128]).
 *   lanes and pipes report the LANES and PIPES this model was built with.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_aes_top #(
    // 128-bit blocks per beat
    parameter LANES = 1,
    // pipelines under test: 1 = STAGES_PER_ROUND 1 only, 2 = also STAGES_PER_ROUND 2
    parameter PIPES = 2
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
     * aes_pipeline, STAGES_PER_ROUND = 1
     */
    output wire                 m1_valid,
    output wire [LANES*128-1:0] m1_block,
    output wire [31:0]          m1_user,

    /*
     * aes_pipeline, STAGES_PER_ROUND = 2 (zero when PIPES = 1)
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

assign lanes = LANES[7:0];
assign pipes = PIPES[7:0];

generate
    if (PIPES != 1 && PIPES != 2) begin : g_check_pipes
        initial begin
            $error("tb_aes_top: PIPES must be 1 or 2");
            $finish;
        end
    end
endgenerate

aes_pipeline #(
    .LANES(LANES),
    .USER_WIDTH(32),
    .STAGES_PER_ROUND(1)
) aes_pipeline_s1_inst (
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

generate
    if (PIPES == 2) begin : g_stages2
        aes_pipeline #(
            .LANES(LANES),
            .USER_WIDTH(32),
            .STAGES_PER_ROUND(2)
        ) aes_pipeline_s2_inst (
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
    end else begin : g_no_stages2
        assign m2_valid = 1'b0;
        assign m2_block = {LANES*128{1'b0}};
        assign m2_user  = 32'd0;
    end
endgenerate

aes_sbox aes_sbox_inst (
    .in(sbox_in),
    .out(sbox_out)
);

endmodule

`resetall
