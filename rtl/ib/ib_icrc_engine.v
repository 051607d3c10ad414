/*
 * ib_icrc_engine — the ICRC (IBA Vol. 1 §7.8.1, RoCEv2 Annex A17) of a packet streamed
 * in beats of 16*LANES bytes, one beat per clock.
 *
 * Function
 *   The ICRC is the Ethernet CRC-32 (polynomial 0x04C11DB7 reflected = 0xEDB88320, init
 *   0xFFFFFFFF, final xor 0xFFFFFFFF) over the packet's covered bytes with the variant
 *   bytes replaced by 0xFF; out_icrc is the value cmodel/crc.c's ibsec_icrc_compute
 *   returns (on the wire least significant byte first: out_icrc[7:0] is the first ICRC
 *   byte).
 *     - Coverage starts at frame byte 0 (native: the LRH). With in_roce on the first beat
 *       (RoCEv2) it starts with 8 bytes of 0xFF standing for the LRH, then frame byte 14
 *       (the IP header): the 14-byte Ethernet header is not covered.
 *     - Coverage ends with byte in_end - 1 of the beat flagged in_last, the byte before
 *       the ICRC field (in_end = 1..16*LANES; a one-beat RoCEv2 packet needs in_end >= 14).
 *     - in_ones[i] = 1 replaces byte i of the beat by 0xFF (whole-byte variant fields:
 *       GRH/IPv6 byte 1-3 and 7, IPv4 TOS/TTL/checksum, UDP checksum, BTH byte 4, the
 *       LRH of a packet with GRH). Variant fields narrower than a byte — LRH.VL (LRH byte
 *       0 bits 7:4, packet without GRH) and the TClass nibble of GRH / IPv6 byte 0
 *       (bits 3:0) — must be ORed into in_data by the caller, as crc.c's masking does
 *       (LRH byte 0 becomes 0xF0 | LVer, GRH byte 0 becomes IPVer << 4 | 0xF).
 *   The engine only sees the bytes it is given: the caller stops the packet at the ICRC
 *   field (in_last/in_end) and supplies the masks; ib_hdr_mask computes them.
 *
 * Interface / handshake
 *   Valid only, no back-pressure (the caller gates in_valid). Idle cycles may come
 *   anywhere; a first beat may follow a last beat directly. in_roce is read on first
 *   beats, in_end on last beats; in_ones on every beat.
 *
 * Latency / throughput
 *   One beat per clock at every LANES, back-to-back packets without a bubble.
 *   ICRC_LATENCY = 3 + ceil($clog2(16*LANES) / UNPAD_BITS) cycles from the in_last beat
 *   to out_valid (one cycle, out_icrc valid with it): LANES = 1: 7, LANES = 4: 9,
 *   LANES = 12: 11 at UNPAD_BITS = 1 (the default; 205 MHz after place and route at
 *   LANES = 1); 5, 6, 7 at UNPAD_BITS = 2.
 *   Structure and timing: see ib_crc_stream (XOR matrices per 2-byte group, a
 *   one-register loop, then a log-depth chain of steps that takes back the zero bytes
 *   after in_end).
 *
 * DATA FORMATS
 *   in_data: AXI4-Stream order, byte j of the beat at [8j+7:8j]; in_ones[j] goes with
 *   byte j.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * ICRC engine, 16*LANES bytes per clock
 */
module ib_icrc_engine #(
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
    // (first beat) RoCEv2: skip the Ethernet header, start with 8 bytes of ones
    input  wire                          in_roce,
    input  wire [128*LANES-1:0]          in_data,
    // covered bytes replaced by 0xFF (variant fields)
    input  wire [16*LANES-1:0]           in_ones,
    // (last beat) bytes of this beat covered, 1..16*LANES
    input  wire [$clog2(16*LANES+1)-1:0] in_end,

    /*
     * Result (one cycle per packet)
     */
    output wire                          out_valid,
    output wire [31:0]                   out_icrc
);

// ----------------------------------------------------------------------------
// Parameters
// ----------------------------------------------------------------------------
// cycles from the in_last beat to out_valid (ib_crc_stream stages A to C and the
// ceil($clog2(16*LANES) / UNPAD_BITS) steps of stage D); stated for the instantiating
// pipeline, which must match it, and not used inside
/* verilator lint_off UNUSEDPARAM */
localparam ICRC_LATENCY = 3 + ($clog2(16 * LANES) + UNPAD_BITS - 1) / UNPAD_BITS;
/* verilator lint_on UNUSEDPARAM */
// bytes per beat
localparam BEAT_BYTES = 16 * LANES;
// IBA §7.8.1: CRC-32 of IEEE 802.3, reflected polynomial, init and final xor all ones
localparam [31:0] ICRC_POLY = 32'hEDB88320;
localparam [31:0] ICRC_INIT = 32'hFFFFFFFF;
localparam [31:0] ICRC_XOROUT = 32'hFFFFFFFF;
// Annex A17: the RoCEv2 Ethernet header (IEEE 802.3, no VLAN tag) is not covered
localparam ROCE_MAC_BYTES = 14;
// Annex A17: 8 bytes of ones stand for the LRH that RoCEv2 does not carry
localparam ROCE_LRH_STANDIN = 8;

// ----------------------------------------------------------------------------
// Variant bytes to ones
// ----------------------------------------------------------------------------
wire [128*LANES-1:0] data_ones;

// per byte by generate (unrolled at every LANES)
genvar b;
generate
    for (b = 0; b < BEAT_BYTES; b = b + 1) begin : g_ones
        assign data_ones[8*b +: 8] = in_data[8*b +: 8] | {8{in_ones[b]}};
    end
endgenerate

ib_crc_stream #(
    .LANES(LANES),
    .CRC_W(32),
    .POLY(ICRC_POLY),
    .INIT(ICRC_INIT),
    .XOROUT(ICRC_XOROUT),
    .SKIP_BYTES(ROCE_MAC_BYTES),
    .SKIP_ONES(ROCE_LRH_STANDIN),
    .UNPAD_BITS(UNPAD_BITS)
) crc_inst (
    .clk(clk),
    .rst(rst),
    .in_valid(in_valid),
    .in_first(in_first),
    .in_last(in_last),
    .in_skip(in_roce),
    .in_data(data_ones),
    .in_end(in_end),
    .out_valid(out_valid),
    .out_crc(out_icrc)
);

endmodule

`resetall
