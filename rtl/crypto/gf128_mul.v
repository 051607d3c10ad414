/*
 * gf128_mul — combinational multiplier in GF(2^128) with the GCM polynomial.
 *
 * Function
 *   y = a * b mod (x^128 + x^7 + x^2 + x + 1): the X • Y of SP 800-38D §6.3 (Algorithm 1),
 *   built as gf128_clmul (unreduced 255-bit product) followed by gf128_reduce. The C model
 *   counterpart is ibsec_gf128_mul (cmodel/ghash.h).
 *
 * Latency / throughput
 *   Combinational: AND + 128-input XOR (clmul) + 13-input XOR (reduction), about
 *   4 + 2 LUT4 levels before synthesis merges the two XOR trees.
 *
 * DATA FORMATS
 *   Operands and result are blocks in GCM bit order (docs/conventions.md): SP 800-38D bit
 *   b_i — the i-th bit of the block's bit string, the coefficient of x^i — is vector bit
 *   [127-i]. Byte 0 of the block is [127:120] with b0 as its most significant bit, so the
 *   vector printed with %032x is the block's hex string in the standard. The field's
 *   element 1 is 128'h8000_0000_0000_0000_0000_0000_0000_0000; for example
 *   a * 128'h8000...0 = a, and a * 128'h4000...0 (x) = a shifted right by one, folded
 *   with 128'he100...0 when bit [0] (b127) of a was set.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * GF(2^128) multiplier, GCM bit order
 */
module gf128_mul (
    input  wire [127:0] a,
    input  wire [127:0] b,
    output wire [127:0] y
);

wire [254:0] prod;

// combinational (STAGES = 0): no clock
gf128_clmul clmul_inst (
    .clk(1'b0),
    .a(a),
    .b(b),
    .p(prod)
);

gf128_reduce reduce_inst (
    .p(prod),
    .r(y)
);

endmodule

`resetall
