/*
 * ib_crc_stream — a reflected CRC (the ICRC's CRC-32 or the VCRC's CRC-16) over a stream
 * of 16*LANES-byte beats, one beat per clock, any number of covered bytes in the first
 * and last beat. The common core of ib_icrc_engine and ib_vcrc_engine.
 *
 * Function
 *   A packet is a run of beats from one with in_first to one with in_last (the same beat
 *   for a one-beat packet). The CRC covers, in stream order, every byte of every beat,
 *   except
 *     - on the last beat, bytes in_end .. BEAT_BYTES-1 (in_end = 1..BEAT_BYTES covered);
 *     - on the first beat, when in_skip is set, bytes 0 .. SKIP_BYTES-1; the CRC then
 *       starts as if SKIP_ONES bytes of 0xFF had been fed in first (RoCEv2: the 14-byte
 *       Ethernet header is not covered and 8 bytes of ones stand for the LRH, IBA Annex
 *       A17). A one-beat packet with in_skip needs in_end >= SKIP_BYTES.
 *   out_crc = (register after the covered bytes) ^ XOROUT, the register starting at INIT.
 *   Callers replace variant bits by ones in in_data before it comes here.
 *
 * Interface / handshake
 *   Valid only, no back-pressure: every cycle with in_valid = 1 is a beat; cycles with
 *   in_valid = 0 may come anywhere, also inside a packet. A first beat may follow a last
 *   beat directly (back-to-back packets). A first beat restarts the CRC even if the
 *   previous packet had no last beat. in_end is read on last beats only, in_skip on
 *   first beats only.
 *
 * Latency / throughput
 *   One beat per clock, for every LANES. LATENCY = 3 + UNPAD_STEPS cycles, UNPAD_STEPS =
 *   ceil(PAD_W / UNPAD_BITS), PAD_W = $clog2(BEAT_BYTES): a last beat in cycle t gives
 *   out_valid (for one cycle) and out_crc in cycle t + LATENCY. With UNPAD_BITS = 1 (the
 *   default): LANES = 1: 7, LANES = 4: 9, LANES = 12: 11; with UNPAD_BITS = 2: 5, 6, 7.
 *     A  per byte, whether it is covered (in_end and in_skip decoded);
 *        pad = BEAT_BYTES - in_end                                         -> registers
 *     B  per group of GROUP_BYTES bytes, uncovered bytes zeroed, the group's
 *        contribution to the register at the end of the beat (CRC_W x 16 XOR matrix);
 *        the starting register of a first beat carried across the whole beat (a
 *        constant, chosen by in_skip)                                      -> registers
 *     C  the loop: reg = F * reg ^ (group contributions) ^ start, F the CRC_W x CRC_W
 *        matrix of one full beat of zero bytes (reg = contributions ^ start on a first
 *        beat)                                                             -> crc_reg
 *     D  UNPAD_STEPS steps; step s takes back k * 2^(UNPAD_BITS*s) zero bytes, k = the
 *        pad bits [UNPAD_BITS*s +: UNPAD_BITS], with a matrix per k (a power of the
 *        inverse zero-byte step); the last step also applies XOROUT        -> registers
 *   The last beat is processed as a full beat with its uncovered bytes zero, which gives
 *   the register after the covered bytes followed by `pad` zero bytes; zero bytes only
 *   multiply the register by an invertible matrix, so stage D undoes them. Likewise the
 *   skipped bytes of a first beat are fed as zeros from a starting register that is the
 *   wanted start taken back by SKIP_BYTES zero bytes (computed at elaboration).
 *   Timing (ECP5 LUT4, where a level costs about 1 ns with its routing): the loop (stage
 *   C) is one XOR tree per register bit of about CRC_W/2 + 8*LANES + 1 inputs (3 levels
 *   for up to 64 inputs, LANES = 1 and 4; 4 at LANES = 12); a stage-B group is 2 levels;
 *   a stage-D step is an XOR tree of about CRC_W/2 inputs and a select (3 levels); stage
 *   A is the in_end decode alone, whose fan-out to every data bit lands in stage B.
 *   ib_icrc_engine at LANES = 1 routes at 205 MHz (ECP5-85 speed 8, nextpnr, out of
 *   context). Measured alternatives: the decode and the zeroing in one stage, 172 MHz; a
 *   128-bit lane contribution per register, 161 MHz; UNPAD_BITS = 2 (three XOR trees and a
 *   4-way select per step), 158 MHz. All matrices are computed at elaboration from the
 *   bit-serial definition (ib_crc_functions.vh).
 *
 * DATA FORMATS
 *   in_data is AXI4-Stream order: byte j of the beat at [8j+7:8j], entering the CRC least
 *   significant bit first (reflected CRC), so stream bit n is vector bit n. POLY is the
 *   polynomial bit-reversed (bit i = coefficient of x^(CRC_W-1-i)). out_crc is the value
 *   the C model returns (ibsec_crc32 / ibsec_crc16); on the wire it goes least
 *   significant byte first, i.e. out_crc[7:0] first.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Streaming reflected CRC, 16*LANES bytes per clock
 */
module ib_crc_stream #(
    // 128-bit lanes per beat (ibsec uses 1, 4, 12)
    parameter LANES = 1,
    // CRC register width
    parameter CRC_W = 32,
    // polynomial bit-reversed; bit CRC_W-1 must be set (constant term of the polynomial)
    parameter [CRC_W-1:0] POLY = 32'hEDB88320,
    // register at the start of a packet
    parameter [CRC_W-1:0] INIT = 32'hFFFFFFFF,
    // XORed into the register to give the result
    parameter [CRC_W-1:0] XOROUT = 32'hFFFFFFFF,
    // bytes at the start of a first beat with in_skip that the CRC does not cover
    parameter SKIP_BYTES = 0,
    // bytes of 0xFF the CRC covers before the first covered byte when in_skip is set
    parameter SKIP_ONES = 0,
    // bits of the pad count handled per stage-E step (1 or 2): 2 halves the steps
    // (latency), 1 keeps each step to one XOR tree of about CRC_W/2 inputs (timing)
    parameter UNPAD_BITS = 1
) (
    input  wire                          clk,
    input  wire                          rst,

    /*
     * Beat input (valid only)
     */
    input  wire                          in_valid,
    input  wire                          in_first,
    input  wire                          in_last,
    input  wire                          in_skip,
    input  wire [128*LANES-1:0]          in_data,
    input  wire [$clog2(16*LANES+1)-1:0] in_end,

    /*
     * Result (one cycle per packet)
     */
    output wire                          out_valid,
    output wire [CRC_W-1:0]              out_crc
);

// ----------------------------------------------------------------------------
// Parameters and checks
// ----------------------------------------------------------------------------
// bytes and bits per beat
localparam BEAT_BYTES = 16 * LANES;
localparam BEAT_BITS = 8 * BEAT_BYTES;
// width of in_end (0..BEAT_BYTES)
localparam END_W = $clog2(BEAT_BYTES + 1);
// width of pad = BEAT_BYTES - in_end (0..BEAT_BYTES-1), the zero bytes stage D takes back
localparam PAD_W = $clog2(BEAT_BYTES);
// stage-D steps, UNPAD_BITS bits of pad each, and the pad width they take
localparam UNPAD_STEPS = (PAD_W + UNPAD_BITS - 1) / UNPAD_BITS;
localparam PADX_W = UNPAD_STEPS * UNPAD_BITS;
// choices per step
localparam UNPAD_WAYS = 1 << UNPAD_BITS;
// names used by ib_crc_functions.vh
localparam [CRC_W-1:0] CRC_POLY = POLY;
// data columns of crc_data_matrix: one lane
localparam CRC_DATA_BITS = 128;
// stage B sums the contribution of GROUP_BYTES bytes per register: 16 data bits, about 8
// of them per output bit, i.e. one LUT4 level per byte (its zeroing folded in) and one
// to join the two
localparam GROUP_BYTES = 2;
localparam GROUPS = BEAT_BYTES / GROUP_BYTES;

`include "ib_crc_functions.vh"

generate
    if (LANES < 1) begin : g_bad_lanes
        initial begin
            $error("Error: ib_crc_stream LANES must be at least 1 (instance %m)");
            $finish;
        end
    end
    if (!POLY[CRC_W-1]) begin : g_bad_poly
        initial begin
            $error("Error: ib_crc_stream POLY needs bit CRC_W-1 set (instance %m)");
            $finish;
        end
    end
    if (UNPAD_BITS < 1 || UNPAD_BITS > 2) begin : g_bad_unpad
        initial begin
            $error("Error: ib_crc_stream UNPAD_BITS must be 1 or 2 (instance %m)");
            $finish;
        end
    end
    if (SKIP_BYTES > BEAT_BYTES) begin : g_bad_skip
        initial begin
            $error("Error: ib_crc_stream SKIP_BYTES exceeds one beat (instance %m)");
            $finish;
        end
    end
endgenerate

// register over one beat of zero bytes
localparam [CRC_W*CRC_W-1:0] BEAT_M = crc_state_matrix(BEAT_BITS);
// start register of an in_skip packet: INIT after SKIP_ONES bytes of ones, taken back
// by the SKIP_BYTES zero bytes that stand for the skipped bytes
localparam [CRC_W-1:0] SKIP_START = crc_apply_state(crc_unshift_matrix(8 * SKIP_BYTES),
                                                    crc_shift_value(INIT, 8 * SKIP_ONES, 1'b1));
// what the start register contributes at the end of a first beat
localparam [CRC_W-1:0] START_TERM = crc_apply_state(BEAT_M, INIT);
localparam [CRC_W-1:0] SKIP_START_TERM = crc_apply_state(BEAT_M, SKIP_START);

// ----------------------------------------------------------------------------
// Stage A: which bytes are not covered
// ----------------------------------------------------------------------------
reg                  a_valid_reg = 1'b0;
reg                  a_first_reg, a_last_reg, a_skip_reg;
reg [PAD_W-1:0]      a_pad_reg;
reg [BEAT_BYTES-1:0] a_kill_reg;
reg [BEAT_BITS-1:0]  a_data_reg;

reg [PAD_W-1:0]      a_pad_next;
wire [BEAT_BYTES-1:0] a_kill_next;
// BEAT_BYTES - in_end: below BEAT_BYTES for a legal in_end (1..BEAT_BYTES), so only
// its PAD_W low bits are kept
/* verilator lint_off UNUSEDSIGNAL */
reg [END_W-1:0]      pad_full;
/* verilator lint_on UNUSEDSIGNAL */

// one decode per byte, unrolled by generate (a loop over BEAT_BYTES > 64 bytes would stay
// a run-time loop in Verilator)
genvar kb;
generate
    for (kb = 0; kb < BEAT_BYTES; kb = kb + 1) begin : g_kill
        localparam [END_W-1:0] KB = kb;
        assign a_kill_next[kb] = (in_last && KB >= in_end) || (in_first && in_skip && kb < SKIP_BYTES);
    end
endgenerate

always @* begin
    pad_full = BEAT_BYTES[END_W-1:0] - in_end;
    a_pad_next = in_last ? pad_full[PAD_W-1:0] : {PAD_W{1'b0}};
end

always @(posedge clk) begin
    a_valid_reg <= in_valid;
    a_first_reg <= in_first;
    a_last_reg <= in_last;
    a_skip_reg <= in_first && in_skip;
    a_pad_reg <= a_pad_next;
    a_kill_reg <= a_kill_next;
    a_data_reg <= in_data;

    if (rst) begin
        a_valid_reg <= 1'b0;
    end
end

// ----------------------------------------------------------------------------
// Stage B: group contributions of the covered bytes, the start term of a first beat
// ----------------------------------------------------------------------------
reg                  b_valid_reg = 1'b0;
reg                  b_first_reg, b_last_reg;
reg [PAD_W-1:0]      b_pad_reg;
reg [CRC_W-1:0]      b_start_reg;
// contribution of group q (bytes GROUP_BYTES*q ..); one array element per group, not a
// CRC_W*GROUPS-bit vector, which a simulator would assemble anew every cycle
wire [CRC_W-1:0]     b_groups [0:GROUPS-1];

wire [CRC_W-1:0]     b_start_next = !a_first_reg ? {CRC_W{1'b0}} :
                                    a_skip_reg ? SKIP_START_TERM : START_TERM;

genvar lane, grp;
generate
    for (lane = 0; lane < LANES; lane = lane + 1) begin : g_lane
        // lane `lane` is followed by LANES-1-lane further lanes in the beat
        localparam [CRC_W*CRC_DATA_BITS-1:0] LANE_M = crc_data_matrix(128 * (LANES - 1 - lane));

        for (grp = 0; grp < 16 / GROUP_BYTES; grp = grp + 1) begin : g_group
            // first byte of the group in the beat
            localparam BYTE0 = 16 * lane + GROUP_BYTES * grp;

            reg [CRC_W-1:0]             part_reg;
            reg [CRC_W-1:0]             part_next;
            reg [8*GROUP_BYTES-1:0]     covered;

            integer i, j;

            always @* begin
                for (j = 0; j < GROUP_BYTES; j = j + 1)
                    covered[8*j +: 8] = a_kill_reg[BYTE0 + j] ? 8'd0
                                                              : a_data_reg[8*(BYTE0 + j) +: 8];
                for (i = 0; i < CRC_W; i = i + 1)
                    part_next[i] = ^(LANE_M[i*CRC_DATA_BITS + 8*GROUP_BYTES*grp +: 8*GROUP_BYTES] &
                                     covered);
            end

            always @(posedge clk) begin
                part_reg <= part_next;
            end

            assign b_groups[BYTE0 / GROUP_BYTES] = part_reg;
        end
    end
endgenerate

always @(posedge clk) begin
    b_valid_reg <= a_valid_reg;
    b_first_reg <= a_first_reg;
    b_last_reg <= a_last_reg;
    b_pad_reg <= a_pad_reg;
    b_start_reg <= b_start_next;

    if (rst) begin
        b_valid_reg <= 1'b0;
    end
end

// ----------------------------------------------------------------------------
// Stage C: the CRC register (the only loop)
// ----------------------------------------------------------------------------
reg [CRC_W-1:0]      crc_reg = {CRC_W{1'b0}}, crc_next;
reg                  c_valid_reg = 1'b0;
reg [PAD_W-1:0]      c_pad_reg;
// XOR of the group contributions
reg [CRC_W-1:0]      group_sum;

integer q;

always @* begin
    group_sum = {CRC_W{1'b0}};
    for (q = 0; q < GROUPS; q = q + 1)
        group_sum = group_sum ^ b_groups[q];

    crc_next = crc_reg;
    if (b_valid_reg) begin
        crc_next = crc_apply_state(BEAT_M, b_first_reg ? {CRC_W{1'b0}} : crc_reg) ^
                   b_start_reg ^ group_sum;
    end
end

always @(posedge clk) begin
    crc_reg <= crc_next;
    c_valid_reg <= b_valid_reg && b_last_reg;
    c_pad_reg <= b_pad_reg;

    if (rst) begin
        c_valid_reg <= 1'b0;
    end
end

// ----------------------------------------------------------------------------
// Stage D: take back the zero bytes after the last covered byte, XOROUT
// ----------------------------------------------------------------------------
// step s takes back k * 2^(UNPAD_BITS*s) zero bytes, k = pad bits [UNPAD_BITS*s +: UNPAD_BITS]
wire [CRC_W-1:0]   d_crc [0:UNPAD_STEPS];
wire               d_valid [0:UNPAD_STEPS];
wire [PADX_W-1:0]  d_pad [0:UNPAD_STEPS];

assign d_crc[0] = crc_reg;
assign d_valid[0] = c_valid_reg;
generate
    if (PADX_W == PAD_W) begin : g_pad_fits
        assign d_pad[0] = c_pad_reg;
    end else begin : g_pad_extend
        // PADX_W - PAD_W < UNPAD_BITS <= 2
        assign d_pad[0] = {1'b0, c_pad_reg};
    end
endgenerate

genvar step, k;
generate
    for (step = 0; step < UNPAD_STEPS; step = step + 1) begin : g_unpad
        // the last step also applies XOROUT
        localparam [CRC_W-1:0] OUT_XOR = (step == UNPAD_STEPS - 1) ? XOROUT : {CRC_W{1'b0}};

        // candidate k at [CRC_W*k +: CRC_W]: the register before k * 2^(UNPAD_BITS*step)
        // zero bytes
        wire [CRC_W*UNPAD_WAYS-1:0] cand;

        assign cand[0 +: CRC_W] = d_crc[step];
        for (k = 1; k < UNPAD_WAYS; k = k + 1) begin : g_way
            localparam [CRC_W*CRC_W-1:0] UNPAD_M =
                crc_unshift_matrix(8 * k * (1 << (UNPAD_BITS * step)));
            assign cand[CRC_W*k +: CRC_W] = crc_apply_state(UNPAD_M, d_crc[step]);
        end

        reg                step_valid_reg = 1'b0;
        reg [CRC_W-1:0]    step_crc_reg;
        reg [PADX_W-1:0]   step_pad_reg;

        always @(posedge clk) begin
            step_valid_reg <= d_valid[step];
            step_crc_reg <= cand[CRC_W*d_pad[step][UNPAD_BITS*step +: UNPAD_BITS] +: CRC_W] ^
                            OUT_XOR;
            step_pad_reg <= d_pad[step];

            if (rst) begin
                step_valid_reg <= 1'b0;
            end
        end

        assign d_valid[step + 1] = step_valid_reg;
        assign d_crc[step + 1] = step_crc_reg;
        assign d_pad[step + 1] = step_pad_reg;
    end
endgenerate

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign out_valid = d_valid[UNPAD_STEPS];
assign out_crc = d_crc[UNPAD_STEPS];

endmodule

`resetall
