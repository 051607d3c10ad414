/*
 * gf128_clmul — unreduced carry-less product of two GF(2^128) elements in GCM bit order.
 *
 * Function
 *   p = a * b as polynomials over GF(2), without reduction: degree up to 254, 255 bits.
 *   This is the first half of gf128_mul; the second half is gf128_reduce. They are kept
 *   apart because reduction is linear: ghash_engine XORs several unreduced products and
 *   reduces the sum once per beat (aggregated reduction).
 *
 * Latency / throughput
 *   Combinational. Logic: one AND per partial product, then a 128-input XOR per output bit
 *   (the middle bits; bit d of the product has min(d, 254-d)+1 terms). With 4-input LUTs
 *   that is 1 + 3 = 4 LUT levels for the widest bits (two AND terms per first-level LUT).
 *   The RTL groups the terms by 32-bit word pairs (see below); the terms are the same.
 *
 * DATA FORMATS
 *   SP 800-38D §6.3 treats a 128-bit block as the bit string b0 b1 ... b127, b0 first
 *   (leftmost), and as the polynomial b0 + b1*x + ... + b127*x^127: the first bit of the
 *   string is the coefficient of x^0. ibsec keeps blocks as big-endian vectors
 *   (docs/conventions.md): bit b_i is vector bit [127-i], so byte 0 of the block
 *   (b0..b7, b0 its most significant bit) is [127:120] and a %032x print of the vector is
 *   the hex string of the standard. The element 1 is therefore 128'h8000...0000, and
 *   x is 128'h4000...0000.
 *
 *   Inputs a, b: [127:0] in that order, coefficient of x^d at [127-d].
 *   Output p:    [254:0] in the same (reflected) order, coefficient of x^d at [254-d].
 *                The low-degree half x^0..x^127 is p[254:127], laid out exactly like a
 *                block; the high-degree part x^128..x^254 is p[126:0]. gf128_reduce
 *                consumes this format.
 *   No bit is ever reversed in hardware: the reflected order is just an index mapping.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Carry-less 128 x 128 -> 255-bit multiply, GCM bit order
 */
module gf128_clmul (
    input  wire [127:0] a,
    input  wire [127:0] b,
    output wire [254:0] p
);

// ----------------------------------------------------------------------------
// In vector indices the reflected order cancels out: with a's x^d at [127-d] and p's
// x^d at [254-d], p[i+j] collects a[i] & b[j], i.e. p is the ordinary carry-less
// product of the vectors a and b read as integers (bit 0 = least significant).
// It is built from 16 products of 32-bit words, a_u * b_v (63 bits each), added at
// bit offset 32*(u+v): the same AND/XOR terms as a schoolbook product over all 128x128
// bit pairs (the XOR tree is only grouped differently, which synthesis flattens), in a
// form that a cycle simulator evaluates with native 64-bit operations.
// ----------------------------------------------------------------------------
// carry-less product of two 32-bit words
function [63:0] clmul32;
    input [31:0] wa;
    input [31:0] wb;
    integer k;
    begin
        clmul32 = 64'd0;
        for (k = 0; k < 32; k = k + 1) begin
            clmul32 = clmul32 ^ (({32'd0, wb} << k) & {64{wa[k]}});
        end
    end
endfunction

// the 16 word products, a_u * b_v at [64*(4*u + v) +: 64]
wire [16*64-1:0] pp;

genvar gu, gv;
generate
    for (gu = 0; gu < 4; gu = gu + 1) begin : g_u
        for (gv = 0; gv < 4; gv = gv + 1) begin : g_v
            assign pp[64*(4*gu + gv) +: 64] = clmul32(a[32*gu +: 32], b[32*gv +: 32]);
        end
    end
endgenerate

// their sum, a_u * b_v at bit offset 32*(u+v); bit 255 is always 0 (degree <= 254)
reg [255:0] p_acc;
integer n;

always @* begin
    p_acc = 256'd0;
    for (n = 0; n < 16; n = n + 1) begin
        p_acc[32*(n/4 + n%4) +: 64] = p_acc[32*(n/4 + n%4) +: 64] ^ pp[64*n +: 64];
    end
end

assign p = p_acc[254:0];

/* verilator lint_off UNUSED */
wire unused_top = p_acc[255];
/* verilator lint_on UNUSED */

endmodule

`resetall
