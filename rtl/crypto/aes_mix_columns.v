/*
 * aes_mix_columns — MixColumns of FIPS-197 §5.1.3: each column of the state, read as a
 * polynomial over GF(2^8), is multiplied by a(x) = {03}x^3 + {01}x^2 + {01}x + {02}
 * modulo x^4 + 1, i.e. for column (s0, s1, s2, s3):
 *     s0' = {02}s0 ^ {03}s1 ^ s2 ^ s3        s2' = s0 ^ s1 ^ {02}s2 ^ {03}s3
 *     s1' = s0 ^ {02}s1 ^ {03}s2 ^ s3        s3' = {03}s0 ^ s1 ^ s2 ^ {02}s3
 * {02}b is xtime (FIPS-197 §4.2.1), {03}b = xtime(b) ^ b.
 *
 * Latency:    combinational (0 cycles); about three XOR levels per output bit.
 * Throughput: one 128-bit state per evaluation.
 * Byte order: big-endian block order of docs/conventions.md: column c is block bytes
 *             4c..4c+3 = state[127-32c -: 32], row 0 (s0) in its top byte.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module aes_mix_columns (
    input  wire [127:0] state_in,
    output wire [127:0] state_out
);

// reduction of x^8 modulo m(x) = x^8 + x^4 + x^3 + x + 1 ({11b}, FIPS-197 §4.2)
localparam [7:0] XTIME_POLY = 8'h1b;

genvar c, r;

generate
    for (c = 0; c < 4; c = c + 1) begin : g_col
        // s[r]: byte of row r in column c; x2[r] = {02}s[r] (xtime, FIPS-197 §4.2.1)
        wire [7:0] s [0:3];
        wire [7:0] x2 [0:3];

        for (r = 0; r < 4; r = r + 1) begin : g_row
            assign s[r]  = state_in[127-8*(4*c+r) -: 8];
            assign x2[r] = {s[r][6:0], 1'b0} ^ (s[r][7] ? XTIME_POLY : 8'h00);
        end

        // s'[r] = {02}s[r] ^ {03}s[r+1] ^ s[r+2] ^ s[r+3] (indices mod 4),
        // with {03}b = {02}b ^ b
        for (r = 0; r < 4; r = r + 1) begin : g_out
            assign state_out[127-8*(4*c+r) -: 8] =
                x2[r] ^ x2[(r+1)%4] ^ s[(r+1)%4] ^ s[(r+2)%4] ^ s[(r+3)%4];
        end
    end
endgenerate

endmodule

`resetall
