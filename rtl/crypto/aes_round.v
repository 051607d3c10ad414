/*
 * aes_round — one AES encryption round of FIPS-197 §5.1 for one 128-bit block:
 *     SubBytes -> ShiftRows -> MixColumns (skipped when final_round) -> AddRoundKey.
 *
 * The round is split at the natural cut after ShiftRows: the first half is exported on
 * sub_shift_out and the second half takes its input from sub_shift_in. The enclosing
 * pipeline either wires the two together (one register stage per round) or puts the
 * mid-round register between them (two stages per round); the round itself stays
 * combinational, so the pipeline owns every register.
 *
 * final_round is a per-beat input rather than a parameter because round 10 is the last
 * round of AES-128 but an inner round of AES-256; the pipeline ties it to a constant
 * elsewhere and synthesis removes the unused MixColumns.
 *
 * SBOX_IMPL (see aes_sub_bytes): 0 = LUT S-boxes, the round is combinational; 1 = block
 * RAM S-boxes, whose synchronous read registers sub_shift_out: the enclosing pipeline
 * then uses that register as its mid-round register (two stages per round).
 *
 * Latency:    state_in to sub_shift_out: combinational (0 cycles) with SBOX_IMPL = 0,
 *             1 cycle with SBOX_IMPL = 1 (16 S-boxes); sub_shift_in to state_out:
 *             combinational (MixColumns + AddRoundKey, ~4 XOR levels).
 * Throughput: one block per evaluation.
 * Byte order: big-endian block order of docs/conventions.md: byte k of the block
 *             (FIPS-197 in[k]) is [127-8k -: 8]; round_key is w[4r..4r+3] with w[4r]
 *             in [127:96].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module aes_round #(
    // S-box implementation: 0 = LUT table (combinational), 1 = block RAM ROM (registered)
    parameter SBOX_IMPL = 0
) (
    // clocks the block RAM S-boxes (SBOX_IMPL = 1); unused otherwise
    input  wire         clk,

    // first half: SubBytes, ShiftRows
    input  wire [127:0] state_in,
    output wire [127:0] sub_shift_out,

    // second half: MixColumns, AddRoundKey
    input  wire [127:0] sub_shift_in,
    input  wire         final_round,
    input  wire [127:0] round_key,
    output wire [127:0] state_out
);

wire [127:0] sub_bytes;
wire [127:0] mix_columns;

aes_sub_bytes #(
    .SBOX_IMPL(SBOX_IMPL)
)
sub_bytes_inst (
    .clk(clk),
    .state_in(state_in),
    .state_out(sub_bytes)
);

aes_shift_rows shift_rows_inst (
    .state_in(sub_bytes),
    .state_out(sub_shift_out)
);

aes_mix_columns mix_columns_inst (
    .state_in(sub_shift_in),
    .state_out(mix_columns)
);

// AddRoundKey (FIPS-197 §5.1.4)
assign state_out = (final_round ? sub_shift_in : mix_columns) ^ round_key;

endmodule

`resetall
