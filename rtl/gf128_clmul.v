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
// Schoolbook product: for every coefficient x^i of a that is set, add b * x^i.
// In the reflected order, multiplying by x^i is a shift right by i of b placed at
// the top of the 255-bit vector ({b, 127'b0} holds x^j of b at [254-j]).
// ----------------------------------------------------------------------------
reg [254:0] p_acc;
integer i;

always @* begin
    p_acc = 255'd0;
    for (i = 0; i < 128; i = i + 1) begin
        p_acc = p_acc ^ (({b, 127'd0} >> i) & {255{a[127-i]}});
    end
end

assign p = p_acc;

endmodule

`resetall
