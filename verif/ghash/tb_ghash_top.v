/*
 * tb_ghash_top — Verilator test top of the GHASH bench (verif only, not in rtl/).
 *
 * Puts independent DUTs behind one set of ports so one Verilated model serves the
 * whole bench: ghash_engine (clocked), and gf128_mul, gf128_clmul and gf128_reduce
 * (combinational, each on its own ports). The checker sees only these ports, never internal names.
 *
 * DATA FORMATS
 *   All 128-bit values are blocks in GCM bit order (docs/conventions.md): SP 800-38D bit
 *   b_i at vector bit [127-i], byte 0 at [127:120]. mul_p is the unreduced product in the
 *   reflected order of gf128_clmul: the coefficient of x^d at [254-d]; red_p likewise.
 *   lanes reports the LANES this model was built with.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_ghash_top #(
    // 128-bit blocks per beat of the engine
    parameter LANES = 1
) (
    input  wire                        clk,
    input  wire                        rst,

    /*
     * ghash_engine
     */
    input  wire                        s_valid,
    input  wire [LANES*128-1:0]        s_block,
    input  wire [$clog2(LANES+1)-1:0]  s_count,
    input  wire [LANES*128-1:0]        s_hpow,
    input  wire                        s_first,
    input  wire                        s_last,
    input  wire [31:0]                 s_user,
    output wire                        m_valid,
    output wire [127:0]                m_ghash,
    output wire [31:0]                 m_user,

    /*
     * gf128_mul and gf128_clmul (combinational)
     */
    input  wire [127:0]                mul_a,
    input  wire [127:0]                mul_b,
    output wire [127:0]                mul_y,
    output wire [254:0]                mul_p,

    /*
     * gf128_reduce alone (combinational)
     */
    input  wire [254:0]                red_p,
    output wire [127:0]                red_r,

    output wire [7:0]                  lanes
);

assign lanes = LANES[7:0];

ghash_engine #(
    .LANES(LANES),
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
    .a(mul_a),
    .b(mul_b),
    .p(mul_p)
);

gf128_reduce gf128_reduce_inst (
    .p(red_p),
    .r(red_r)
);

endmodule

`resetall
