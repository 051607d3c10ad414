/*
 * aes_sub_bytes — SubBytes of FIPS-197 §5.1.1: the S-box applied to each of the 16
 * bytes of the state independently.
 *
 * Latency:    combinational (0 cycles).
 * Throughput: one 128-bit state per evaluation (16 S-boxes).
 * Byte order: big-endian block order of docs/conventions.md: byte k of the block
 *             (FIPS-197 in[k], state s[k mod 4][k div 4]) is state[127-8k -: 8]. SubBytes
 *             acts on each byte alone, so the order only matters to the reader.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module aes_sub_bytes (
    input  wire [127:0] state_in,
    output wire [127:0] state_out
);

genvar k;

generate
    for (k = 0; k < 16; k = k + 1) begin : g_byte
        aes_sbox sbox_inst (
            .in(state_in[127-8*k -: 8]),
            .out(state_out[127-8*k -: 8])
        );
    end
endgenerate

endmodule

`resetall
