/*
 * ib_vcrc_engine — the VCRC (IBA Vol. 1 §7.8.2) of a native IBA packet streamed in beats
 * of 16*LANES bytes, one beat per clock.
 *
 * Function
 *   CRC-16, polynomial 0x100B reflected (0xD008), init 0xFFFF, final xor 0xFFFF, nothing
 *   masked, over frame bytes 0 (the LRH) .. byte in_end - 1 of the beat flagged in_last.
 *   out_vcrc is the FINAL value, the one cmodel/crc.c's ibsec_crc16 returns over those
 *   bytes (on the wire least significant byte first: out_vcrc[7:0] first). The raw
 *   register of the CRC is ~out_vcrc.
 *   Two ways to use it:
 *     - over LRH .. last ICRC byte (in_end just before the VCRC field): out_vcrc is the
 *       VCRC (ibsec_vcrc_compute), e.g. to check a received packet;
 *     - over LRH .. the byte before the ICRC field, when the ICRC is not known yet (the
 *       egress computes it at the end of the packet): out_vcrc then covers the prefix,
 *       and ib_vcrc_extend4 with that value and the 4 ICRC bytes (out_icrc of
 *       ib_icrc_engine, whose [7:0] is the first byte on the wire) gives the VCRC.
 *
 * Interface / handshake
 *   Valid only, no back-pressure (the caller gates in_valid); idle cycles anywhere; a
 *   first beat may follow a last beat directly. in_end (1..16*LANES) is read on last
 *   beats only.
 *
 * Latency / throughput
 *   One beat per clock at every LANES, back-to-back packets without a bubble.
 *   VCRC_LATENCY = 3 + ceil($clog2(16*LANES) / UNPAD_BITS) cycles from the in_last beat
 *   to out_valid (one cycle), the same as ib_icrc_engine: LANES = 1: 7, LANES = 4: 9,
 *   LANES = 12: 11 at UNPAD_BITS = 1 (the default; 220 MHz after place and route at
 *   LANES = 1); 5, 6, 7 at UNPAD_BITS = 2.
 *   Structure: ib_crc_stream.
 *
 * DATA FORMATS
 *   in_data: AXI4-Stream order, byte j of the beat at [8j+7:8j].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * VCRC engine, 16*LANES bytes per clock
 */
module ib_vcrc_engine #(
    // 128-bit lanes per beat (ibsec uses 1, 4, 12)
    parameter LANES = 1,
    // pad bits taken back per step after the last beat (ib_crc_stream): 1 meets 200 MHz
    // on the ECP5 at LANES = 1; 2 saves ceil(log2(16*LANES) / 2) cycles of latency
    parameter UNPAD_BITS = 1
) (
    input  wire                          clk,
    input  wire                          rst,

    /*
     * Beat input (valid only)
     */
    input  wire                          in_valid,
    // first beat of a packet (frame byte 0 in byte 0)
    input  wire                          in_first,
    // the beat holding the last covered byte
    input  wire                          in_last,
    input  wire [128*LANES-1:0]          in_data,
    // (last beat) bytes of this beat covered, 1..16*LANES
    input  wire [$clog2(16*LANES+1)-1:0] in_end,

    /*
     * Result (one cycle per packet)
     */
    output wire                          out_valid,
    output wire [15:0]                   out_vcrc
);

// ----------------------------------------------------------------------------
// Parameters
// ----------------------------------------------------------------------------
// cycles from the in_last beat to out_valid (ib_crc_stream stages A to C and the
// ceil($clog2(16*LANES) / UNPAD_BITS) steps of stage D); stated for the instantiating
// pipeline, which must match it, and not used inside
/* verilator lint_off UNUSEDPARAM */
localparam VCRC_LATENCY = 3 + ($clog2(16 * LANES) + UNPAD_BITS - 1) / UNPAD_BITS;
/* verilator lint_on UNUSEDPARAM */
// IBA §7.8.2: polynomial x^16 + x^12 + x^3 + x + 1 (0x100B) reflected, init and final
// xor all ones
localparam [15:0] VCRC_POLY = 16'hD008;
localparam [15:0] VCRC_INIT = 16'hFFFF;
localparam [15:0] VCRC_XOROUT = 16'hFFFF;

ib_crc_stream #(
    .LANES(LANES),
    .CRC_W(16),
    .POLY(VCRC_POLY),
    .INIT(VCRC_INIT),
    .XOROUT(VCRC_XOROUT),
    .SKIP_BYTES(0),
    .SKIP_ONES(0),
    .UNPAD_BITS(UNPAD_BITS)
) crc_inst (
    .clk(clk),
    .rst(rst),
    .in_valid(in_valid),
    .in_first(in_first),
    .in_last(in_last),
    .in_skip(1'b0),
    .in_data(in_data),
    .in_end(in_end),
    .out_valid(out_valid),
    .out_crc(out_vcrc)
);

endmodule

`resetall
