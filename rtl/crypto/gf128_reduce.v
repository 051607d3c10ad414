/*
 * gf128_reduce — reduction of a 255-bit carry-less product modulo the GCM polynomial.
 *
 * Function
 *   r = p mod P(x), P(x) = x^128 + x^7 + x^2 + x + 1 (SP 800-38D §6.3, the constant
 *   R = 11100001 || 0^120 of Algorithm 1 is x^0 + x^1 + x^2 + x^7 in GCM bit order).
 *   Since x^128 = x^7 + x^2 + x + 1 (mod P), write p = lo + x^128 * hi with deg hi <= 126:
 *     hi * (x^7 + x^2 + x + 1) = t, deg t <= 133; split t = t_lo + x^128 * g, deg g <= 5;
 *     g * (x^7 + x^2 + x + 1) has degree <= 12 < 128, so no third fold is needed:
 *     r = lo + t_lo + g * (x^7 + x^2 + x + 1).
 *   Reduction is linear (reduce(p ^ q) = reduce(p) ^ reduce(q)), which is what lets
 *   ghash_engine reduce the XOR of several unreduced products once.
 *
 * Latency / throughput
 *   Combinational. Every output bit is the XOR of at most 13 input bits (1 from lo,
 *   up to 4 from t_lo, up to 8 through g): 2 levels of 4-input LUTs.
 *
 * DATA FORMATS
 *   Input p [254:0]: the reflected order of gf128_clmul — the coefficient of x^d is at
 *   [254-d]; x^0..x^127 (p[254:127]) lie exactly like a block, x^128..x^254 are p[126:0].
 *   Output r [127:0]: a block in GCM bit order (docs/conventions.md): SP 800-38D bit b_i,
 *   the coefficient of x^i, at vector bit [127-i]; byte 0 of the block is [127:120].
 *   Internally the module renames the bits into natural polynomial order (bit d = x^d)
 *   so that multiplying by x is a left shift; the renaming is wiring, not logic.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * GF(2^128) reduction modulo x^128 + x^7 + x^2 + x + 1, GCM bit order
 */
module gf128_reduce (
    input  wire [254:0] p,
    output wire [127:0] r
);

// ----------------------------------------------------------------------------
// Natural-order views (bit d = coefficient of x^d)
// ----------------------------------------------------------------------------
wire [127:0] lo_n;   // x^0   .. x^127 of p
wire [126:0] hi_n;   // x^128 .. x^254 of p, bit e = coefficient of x^(128+e)
wire [127:0] r_n;

genvar d;
generate
    for (d = 0; d < 128; d = d + 1) begin : g_lo
        assign lo_n[d] = p[254-d];
        assign r[127-d] = r_n[d];
    end
    for (d = 0; d < 127; d = d + 1) begin : g_hi
        assign hi_n[d] = p[126-d];
    end
endgenerate

// ----------------------------------------------------------------------------
// First fold: t = hi * (1 + x + x^2 + x^7), degree <= 133
// ----------------------------------------------------------------------------
wire [133:0] t_n = {7'd0, hi_n} ^ {6'd0, hi_n, 1'd0} ^ {5'd0, hi_n, 2'd0} ^ {hi_n, 7'd0};

// ----------------------------------------------------------------------------
// Second fold: the overflow g = t[133:128] times (1 + x + x^2 + x^7), degree <= 12
// ----------------------------------------------------------------------------
wire [5:0]  g_n = t_n[133:128];
wire [12:0] u_n = {7'd0, g_n} ^ {6'd0, g_n, 1'd0} ^ {5'd0, g_n, 2'd0} ^ {g_n, 7'd0};

assign r_n = lo_n ^ t_n[127:0] ^ {115'd0, u_n};

endmodule

`resetall
