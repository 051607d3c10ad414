/*
 * ib_vcrc_extend4 — extends a VCRC (IBA Vol. 1 §7.8.2) by 4 more bytes; combinational.
 *
 * Function
 *   in_vcrc is the final VCRC-style CRC-16 (ibsec_crc16, the value ib_vcrc_engine
 *   outputs) of some bytes P; out_vcrc is the same CRC of P followed by the 4 bytes
 *   in_bytes[7:0], [15:8], [23:16], [31:24] (in that order):
 *       out_vcrc = XOROUT ^ S4 * (in_vcrc ^ XOROUT) ^ D4 * in_bytes
 *   with S4 the register over 32 zero bits and D4 the contribution of the 32 data bits,
 *   both XOR matrices computed at elaboration from the bit-serial definition
 *   (ib_crc_functions.vh). Each output bit is one XOR of at most 48 inputs.
 *   Use: the egress runs ib_vcrc_engine over LRH .. the byte before the ICRC, then
 *   out_vcrc here with in_bytes = the ICRC value (ib_icrc_engine's out_icrc, whose [7:0]
 *   is the first ICRC byte on the wire) is the packet's VCRC (ibsec_vcrc_compute).
 *
 * Latency / throughput
 *   Combinational (no clock); a new input every cycle.
 *
 * DATA FORMATS
 *   in_bytes in AXI4-Stream order (first byte at [7:0]); CRC values as integers, sent
 *   least significant byte first.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * VCRC extension by 4 bytes
 */
module ib_vcrc_extend4 (
    // VCRC of the bytes so far (final value)
    input  wire [15:0] in_vcrc,
    // the 4 bytes that follow, first at [7:0]
    input  wire [31:0] in_bytes,
    // VCRC of the bytes so far and in_bytes (final value)
    output wire [15:0] out_vcrc
);

// ----------------------------------------------------------------------------
// Parameters
// ----------------------------------------------------------------------------
// IBA §7.8.2: polynomial 0x100B reflected, final xor all ones
localparam CRC_W = 16;
localparam [CRC_W-1:0] CRC_POLY = 16'hD008;
localparam [CRC_W-1:0] VCRC_XOROUT = 16'hFFFF;
// the 4 bytes of an ICRC
localparam CRC_DATA_BITS = 32;

`include "ib_crc_functions.vh"

localparam [CRC_W*CRC_W-1:0] STATE_M = crc_state_matrix(CRC_DATA_BITS);
localparam [CRC_W*CRC_DATA_BITS-1:0] DATA_M = crc_data_matrix(0);

assign out_vcrc = crc_apply_state(STATE_M, in_vcrc ^ VCRC_XOROUT) ^
                  crc_apply_data(DATA_M, in_bytes) ^ VCRC_XOROUT;

endmodule

`resetall
