/*
 * aes_shift_rows — ShiftRows of FIPS-197 §5.1.2: row r of the state is rotated left by
 * r bytes, s'[r][c] = s[r][(c + r) mod 4]. Pure wiring, no logic.
 *
 * Latency:    combinational (0 cycles), no gates.
 * Throughput: one 128-bit state per evaluation.
 * Byte order: big-endian block order of docs/conventions.md. Byte k of the block is
 *             FIPS-197 in[k] = s[r][c] with r = k mod 4, c = k div 4 (§3.4, column-major),
 *             held in state[127-8k -: 8]. So output byte r+4c takes input byte
 *             r + 4*((c+r) mod 4): out byte 0 = in byte 0, out byte 1 = in byte 5,
 *             out byte 2 = in byte 10, out byte 3 = in byte 15, out byte 4 = in byte 4, ...
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module aes_shift_rows (
    input  wire [127:0] state_in,
    output wire [127:0] state_out
);

genvar r, c;

generate
    for (c = 0; c < 4; c = c + 1) begin : g_col
        for (r = 0; r < 4; r = r + 1) begin : g_row
            assign state_out[127-8*(r+4*c) -: 8] = state_in[127-8*(r+4*((c+r)%4)) -: 8];
        end
    end
endgenerate

endmodule

`resetall
