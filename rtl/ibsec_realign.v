/*
 * ibsec_realign — the packet engine's beat composer: builds a stream of beats from a
 * "front" vector held in registers (headers, STH) and a byte range of a packet buffer
 * moved to any byte position (realignment), one beat per clock.
 *
 * Function
 *   A job is started with its geometry (all byte positions counted from the first byte of
 *   the composed stream, p = 16 * LANES * beat + byte):
 *     p <  front_len                 : front[p]                       (header bytes)
 *     dst_off <= p < dst_end         : source byte src_off + p - dst_off (buffer bytes)
 *     anything else below total_end  : zero (a placeholder, e.g. the ICRC/VCRC field)
 *   with front_len <= dst_off <= dst_end <= total_end. The beats cover 0 .. total_end - 1;
 *   tap_keep marks the bytes p < front_len and dst_off <= p < total_end, so a gap between
 *   front_len and dst_off (the zero padding of the GCM AAD up to a block boundary) is
 *   not kept. tap_user[i] says that lane i starts below aad_end (a GCM AAD block).
 *   The engine uses the same block for the GCM input (AAD = masked headers, then the
 *   payload), the output packet (edited headers and STH, then the payload) and the CRC
 *   check pass (the received packet as it is).
 *
 *   Source beat b of the buffer holds source bytes 16 * LANES * b ..; with
 *   delta = src_off - dst_off = q * W + r (W = 16 * LANES, 0 <= r < W), output beat k takes
 *   bytes r .. W - 1 of source beat k + q and bytes 0 .. r - 1 of beat k + q + 1. The
 *   block keeps the older of the two beats in a register and reads one new beat per
 *   output beat; source beats before the range or after it are read but never kept
 *   (addresses wrap around the buffer).
 *
 * Flow control
 *   A beat is started (its buffer read issued) only while issue_ok is high; it appears on
 *   tap_* one cycle later, for one cycle (tap_valid). The consumer grants issue_ok against
 *   its own free space (at most two beats are in flight behind it).
 *
 * Latency / throughput
 *   start -> first beat on tap: 3 cycles (parameter capture, preload read, first read).
 *   Then one beat per clock while issue_ok stays high; busy falls one cycle after the last
 *   beat. Each job therefore costs ceil(total_end / W) + 3 cycles.
 *
 * Byte order
 *   AXI4-Stream order everywhere: byte j of a beat at [8*j +: 8]; front byte i at
 *   front[8*i +: 8].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Beat composer with byte realignment
 */
module ibsec_realign #(
    // 128-bit blocks per beat (1, 4, 12)
    parameter LANES = 1,
    // bytes of the front vector
    parameter FRONT_BYTES = 144,
    // address width of the source buffer (beats)
    parameter AW = 9
) (
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Job (sampled with start while busy is low)
     */
    input  wire                         start,
    output wire                         busy,
    input  wire [8*FRONT_BYTES-1:0]     front,
    input  wire [7:0]                   front_len,
    input  wire [12:0]                  src_off,
    input  wire [12:0]                  dst_off,
    input  wire [12:0]                  dst_end,
    input  wire [12:0]                  total_end,
    input  wire [12:0]                  aad_end,

    /*
     * Flow control from the consumer
     */
    input  wire                         issue_ok,

    /*
     * Source buffer read port (registered read, 1 cycle)
     */
    output wire                         rd_en,
    output wire [AW-1:0]                rd_addr,
    input  wire [128*LANES-1:0]         rd_data,

    /*
     * Composed beats
     */
    output wire                         tap_valid,
    output wire [8:0]                   tap_index,
    output wire [128*LANES-1:0]         tap_data,
    output wire [16*LANES-1:0]          tap_keep,
    output wire                         tap_last,
    output wire [LANES-1:0]             tap_user
);

// ----------------------------------------------------------------------------
// Constants
// ----------------------------------------------------------------------------
// bytes per beat
localparam W = 16 * LANES;
// bits per beat
localparam DW = 8 * W;
// bias (in beats) that keeps src_off - dst_off positive: dst_off never exceeds 255
localparam BIAS_BEATS = (256 + W - 1) / W;
// beat size and bias as 14-bit positions
localparam [13:0] W14 = W[13:0];
localparam [13:0] BIAS_BEATS14 = BIAS_BEATS[13:0];
localparam [13:0] BIAS_BYTES = BIAS_BEATS14 * W14;
// front vector padded to whole beats
localparam NFB = (FRONT_BYTES + W - 1) / W;
// width of a byte count 0..W
localparam NW = $clog2(W + 1);

localparam [1:0] ST_IDLE = 2'd0;  // no job
localparam [1:0] ST_PRE  = 2'd1;  // preload read of source beat q issued
localparam [1:0] ST_RUN  = 2'd2;  // beats issued while issue_ok

// ----------------------------------------------------------------------------
// Functions
// ----------------------------------------------------------------------------
// bytes of the beat starting at base that lie below the position x (0..W)
function [NW-1:0] bytes_below;
    input [13:0] x;
    input [13:0] base;
    begin
        if (x <= base)
            bytes_below = {NW{1'b0}};
        else if (x - base >= W14)
            bytes_below = W[NW-1:0];
        else
            bytes_below = x[NW-1:0] - base[NW-1:0];
    end
endfunction

// prefix mask of n bytes (n = 0..W)
function [W-1:0] prefix;
    input [NW-1:0] n;
    begin
        prefix = ~({W{1'b1}} << n);
    end
endfunction

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg [1:0]                 state_reg, state_next;
reg [8*FRONT_BYTES-1:0]   front_reg, front_next;
reg [7:0]                 front_len_reg, front_len_next;
reg [12:0]                src_off_reg, src_off_next;
reg [12:0]                dst_off_reg, dst_off_next;
reg [12:0]                dst_end_reg, dst_end_next;
reg [12:0]                total_end_reg, total_end_next;
reg [12:0]                aad_end_reg, aad_end_next;
reg [NW-1:0]              shift_reg, shift_next;      // r
reg [AW-1:0]              ra_reg, ra_next;            // next source beat to read
reg                       pre_cap_reg, pre_cap_next; // rd_data holds the preload
reg [13:0]                base_a_reg, base_a_next;    // position of the next beat to issue
reg [8:0]                 index_a_reg, index_a_next;
reg                       b_valid_reg, b_valid_next;
reg [13:0]                base_b_reg, base_b_next;    // position of the beat on tap
reg [8:0]                 index_b_reg, index_b_next;
reg [DW-1:0]              prev_reg, prev_next;        // source beat k + q

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire [13:0]   delta_b = {1'b0, src_off_reg} + BIAS_BYTES - {1'b0, dst_off_reg};
wire [13:0]   q_b = delta_b / W14;
/* verilator lint_off UNUSEDSIGNAL */ // r < W: only the low NW bits matter; q_beat wraps to AW bits
wire [13:0]   r_b = delta_b % W14;
// source beat q (may be "negative": it then wraps and is never kept)
wire [13:0]   q_beat = q_b - BIAS_BEATS14;
/* verilator lint_on UNUSEDSIGNAL */

reg           rd_en_int;
reg [AW-1:0]  rd_addr_int;

wire [2*DW-1:0] window = {rd_data, prev_reg};
// the upper half of the shifted window is the part of the next beat: never used
/* verilator lint_off UNUSEDSIGNAL */
wire [2*DW-1:0] window_shifted = window >> (8 * shift_reg);
/* verilator lint_on UNUSEDSIGNAL */
wire [DW-1:0]   src_beat = window_shifted[DW-1:0];

wire [DW-1:0]   front_word[0:NFB-1];
genvar gi;
generate
    for (gi = 0; gi < NFB; gi = gi + 1) begin : g_front
        if ((gi + 1) * W <= FRONT_BYTES) begin : g_full
            assign front_word[gi] = front_reg[gi*DW +: DW];
        end else begin : g_part
            assign front_word[gi] = {{((gi + 1) * DW - 8 * FRONT_BYTES){1'b0}},
                                     front_reg[8*FRONT_BYTES-1:gi*DW]};
        end
    end
endgenerate
wire [DW-1:0]   front_beat = ({23'd0, index_b_reg} < NFB) ? front_word[index_b_reg[$clog2(NFB+1)-1:0]]
                                                 : {DW{1'b0}};

wire [W-1:0]    m_front = prefix(bytes_below({6'd0, front_len_reg}, base_b_reg));
wire [W-1:0]    m_dst   = prefix(bytes_below({1'b0, dst_off_reg}, base_b_reg));
wire [W-1:0]    m_src   = prefix(bytes_below({1'b0, dst_end_reg}, base_b_reg)) & ~m_dst;
wire [W-1:0]    m_keep  = m_front | (prefix(bytes_below({1'b0, total_end_reg}, base_b_reg)) & ~m_dst);

// the byte masks as bit masks, a slice per byte by generate (a loop over W > 64 bytes
// would stay a run-time loop over the wide vector in Verilator)
wire [DW-1:0]   front_bits, src_bits;
generate
    for (gi = 0; gi < W; gi = gi + 1) begin : g_bits
        assign front_bits[8*gi +: 8] = {8{m_front[gi]}};
        assign src_bits[8*gi +: 8]   = {8{m_src[gi]}};
    end
endgenerate

reg [LANES-1:0] user_int;
integer li;
always @* begin
    for (li = 0; li < LANES; li = li + 1)
        user_int[li] = (base_b_reg + 14'd16 * li[13:0]) < {1'b0, aad_end_reg};
end

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign busy      = state_reg != ST_IDLE;
assign rd_en     = rd_en_int;
assign rd_addr   = rd_addr_int;
assign tap_valid = b_valid_reg;
assign tap_index = index_b_reg;
assign tap_data  = (front_bits & front_beat) | (src_bits & src_beat);
assign tap_keep  = m_keep;
assign tap_last  = base_b_reg + W14 >= {1'b0, total_end_reg};
assign tap_user  = user_int;

// ----------------------------------------------------------------------------
// Next state
// ----------------------------------------------------------------------------
always @* begin
    state_next     = state_reg;
    front_next     = front_reg;
    front_len_next = front_len_reg;
    src_off_next   = src_off_reg;
    dst_off_next   = dst_off_reg;
    dst_end_next   = dst_end_reg;
    total_end_next = total_end_reg;
    aad_end_next   = aad_end_reg;
    shift_next     = shift_reg;
    ra_next        = ra_reg;
    pre_cap_next   = 1'b0;
    base_a_next    = base_a_reg;
    index_a_next   = index_a_reg;
    b_valid_next   = 1'b0;
    base_b_next    = base_b_reg;
    index_b_next   = index_b_reg;
    prev_next      = prev_reg;
    rd_en_int      = 1'b0;
    rd_addr_int    = ra_reg;

    // stage B: the beat on tap consumed its older source beat; the newer becomes older
    if (b_valid_reg || pre_cap_reg)
        prev_next = rd_data;

    case (state_reg)
        ST_IDLE: begin
            if (start) begin
                front_next     = front;
                front_len_next = front_len;
                src_off_next   = src_off;
                dst_off_next   = dst_off;
                dst_end_next   = dst_end;
                total_end_next = total_end;
                aad_end_next   = aad_end;
                state_next     = ST_PRE;
            end
        end
        ST_PRE: begin
            rd_en_int    = 1'b1;
            rd_addr_int  = q_beat[AW-1:0];
            shift_next   = r_b[NW-1:0];
            ra_next      = q_beat[AW-1:0] + 1'b1;
            pre_cap_next = 1'b1;
            base_a_next  = 14'd0;
            index_a_next = 9'd0;
            state_next   = ST_RUN;
        end
        default: begin // ST_RUN
            if (base_a_reg < {1'b0, total_end_reg}) begin
                if (issue_ok) begin
                    rd_en_int    = 1'b1;
                    rd_addr_int  = ra_reg;
                    ra_next      = ra_reg + 1'b1;
                    base_a_next  = base_a_reg + W14;
                    index_a_next = index_a_reg + 1'b1;
                    b_valid_next = 1'b1;
                    base_b_next  = base_a_reg;
                    index_b_next = index_a_reg;
                end
            end else if (!b_valid_reg) begin
                state_next = ST_IDLE;
            end
        end
    endcase
end

always @(posedge clk) begin
    state_reg     <= state_next;
    front_reg     <= front_next;
    front_len_reg <= front_len_next;
    src_off_reg   <= src_off_next;
    dst_off_reg   <= dst_off_next;
    dst_end_reg   <= dst_end_next;
    total_end_reg <= total_end_next;
    aad_end_reg   <= aad_end_next;
    shift_reg     <= shift_next;
    ra_reg        <= ra_next;
    pre_cap_reg   <= pre_cap_next;
    base_a_reg    <= base_a_next;
    index_a_reg   <= index_a_next;
    b_valid_reg   <= b_valid_next;
    base_b_reg    <= base_b_next;
    index_b_reg   <= index_b_next;
    prev_reg      <= prev_next;

    if (rst) begin
        state_reg   <= ST_IDLE;
        pre_cap_reg <= 1'b0;
        b_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
