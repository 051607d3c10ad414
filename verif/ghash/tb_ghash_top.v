/*
 * tb_ghash_top — Verilator test top of the GHASH bench (verif only, not in rtl/).
 *
 * Puts independent DUTs behind one set of ports so one Verilated model serves the
 * whole bench: ghash_engine and gf128_mul_serial (clocked), and gf128_mul, gf128_clmul,
 * gf128_reduce and gcm_len_mul (combinational, each on its own ports). The checker sees
 * only these ports, never internal names.
 *
 * ghash_engine is built as gcm_core builds it: NPOW = LANES + 1 powers, so that a beat
 * may count one trailing zero block beyond its lanes (s_count up to LANES + 1).
 * gcm_len_mul is built twice from the same inputs: with the packet engine's 13-bit
 * lengths (len_p13, from the low 13 bits of len_alen and len_clen) and with gcm_core's
 * default 32 bits (len_p32).
 *
 * DATA FORMATS
 *   All 128-bit values are blocks in GCM bit order (docs/conventions.md): SP 800-38D bit
 *   b_i at vector bit [127-i], byte 0 at [127:120]. mul_p is the unreduced product in the
 *   reflected order of gf128_clmul: the coefficient of x^d at [254-d]; red_p likewise.
 *   lanes reports the LANES this model was built with, ser_digit the DIGIT_WIDTH of
 *   gf128_mul_serial (its latency is 128 / DIGIT_WIDTH + 1).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_ghash_top #(
    // 128-bit blocks per beat of the engine
    parameter LANES = 1,
    // the engine as gcm_core builds it: register stages per product, the interleaved
    // Y loop's cycles, and the powers of H it needs (INTERLEAVE beats of at most LANES
    // blocks, the last with one trailing zero block more)
    parameter CLMUL_STAGES = 3,
    parameter INTERLEAVE = CLMUL_STAGES + 2,
    parameter HPOW = INTERLEAVE * LANES + 1
) (
    input  wire                        clk,
    input  wire                        rst,

    /*
     * ghash_engine
     */
    input  wire                        s_valid,
    input  wire [LANES*128-1:0]        s_block,
    input  wire [$clog2(LANES+2)-1:0]  s_count,
    input  wire [HPOW*128-1:0]         s_hpow,
    input  wire                        s_first,
    input  wire                        s_last,
    input  wire [31:0]                 s_user,
    output wire                        m_valid,
    output wire [127:0]                m_ghash,
    output wire [31:0]                 m_user,
    // HPOW and the engine's LATENCY, so the harness knows what to drive and expect
    output wire [7:0]                  hpow_n,
    output wire [7:0]                  ghash_latency,

    /*
     * gf128_mul and gf128_clmul (combinational)
     */
    input  wire [127:0]                mul_a,
    input  wire [127:0]                mul_b,
    output wire [127:0]                mul_y,
    output wire [254:0]                mul_p,

    /*
     * gf128_mul_serial (clocked with clk, rst)
     */
    input  wire                        ser_valid,
    output wire                        ser_ready,
    input  wire [127:0]                ser_a,
    input  wire [127:0]                ser_b,
    output wire                        ser_done,
    output wire [127:0]                ser_y,
    // its DIGIT_WIDTH, so the harness knows the latency to expect
    output wire [7:0]                  ser_digit,

    /*
     * gf128_reduce alone (combinational)
     */
    input  wire [254:0]                red_p,
    output wire [127:0]                red_r,
    /*
     * gcm_len_mul (combinational): byte counts, H, reduce(L * H)
     */
    input  wire [31:0]                 len_alen,
    input  wire [31:0]                 len_clen,
    input  wire [127:0]                len_h,
    output wire [127:0]                len_p13,
    output wire [127:0]                len_p32,

    output wire [7:0]                  lanes
);

assign lanes = LANES[7:0];
assign hpow_n = HPOW[7:0];
// ghash_engine's LATENCY for CLMUL_STAGES
localparam GHASH_LATENCY = 2 * INTERLEAVE + 1;
assign ghash_latency = GHASH_LATENCY[7:0];

ghash_engine #(
    .LANES(LANES),
    .NPOW(LANES + 1),
    .CLMUL_STAGES(CLMUL_STAGES),
    .INTERLEAVE(INTERLEAVE),
    .HPOW(HPOW),
    .LATENCY(GHASH_LATENCY),
    .USER_WIDTH(32)
) ghash_engine_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(s_valid),
    .s_block(s_block),
    .s_count(s_count),
    .s_hpow(s_hpow),
    .s_first(s_first),
    .s_last(s_last),
    .s_user(s_user),
    .m_valid(m_valid),
    .m_ghash(m_ghash),
    .m_user(m_user)
);

gf128_mul gf128_mul_inst (
    .a(mul_a),
    .b(mul_b),
    .y(mul_y)
);

gf128_clmul gf128_clmul_inst (
    .clk(clk),
    .a(mul_a),
    .b(mul_b),
    .p(mul_p)
);

// the digit width gcm_core uses for its key install
localparam SER_DIGIT_WIDTH = 8;

assign ser_digit = SER_DIGIT_WIDTH[7:0];

gf128_mul_serial #(
    .DIGIT_WIDTH(SER_DIGIT_WIDTH)
) gf128_mul_serial_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(ser_valid),
    .s_ready(ser_ready),
    .s_a(ser_a),
    .s_b(ser_b),
    .m_valid(ser_done),
    .m_y(ser_y)
);

gf128_reduce gf128_reduce_inst (
    .p(red_p),
    .r(red_r)
);

// the packet engine's widths (ibsec_engine GCM_LEN_W) and gcm_core's default
/* verilator lint_off UNUSEDSIGNAL */
// (len13 reads the low 13 bits of the 32-bit inputs)
wire [31:0] len_alen_all = len_alen;
wire [31:0] len_clen_all = len_clen;
/* verilator lint_on UNUSEDSIGNAL */
gcm_len_mul #(
    .ALEN_WIDTH(13),
    .CLEN_WIDTH(13)
) gcm_len_mul13_inst (
    .clk(clk),
    .alen(len_alen_all[12:0]),
    .clen(len_clen_all[12:0]),
    .h(len_h),
    .p(len_p13)
);

gcm_len_mul #(
    .ALEN_WIDTH(32),
    .CLEN_WIDTH(32)
) gcm_len_mul32_inst (
    .clk(clk),
    .alen(len_alen),
    .clen(len_clen),
    .h(len_h),
    .p(len_p32)
);

endmodule

`resetall
