/*
 * ibsec_parse — the packet engine's parse stage (ibsec_engine): the IQ head registered,
 * through the pipelined ib_hdr_parse (steps 1-3 of docs/wire-format.md §7 seal, §8 open),
 * then written into CQ as a descriptor whose decision fields hold the parse's reason
 * (docs/packet-engine.md §3).
 *
 * Function
 *   A descriptor is taken from IQ only when CQ will have room for it (admission by
 *   count, below); from then on it moves one register per cycle and is never stopped:
 *     cycle 0    the IQ head is popped; the frame bytes ib_hdr_parse reads (0..73), its
 *                length and link go into the head register (q), and the whole descriptor
 *                (header register, link, ring base and beats) into the delay line, a
 *                16-word distributed RAM written at a free-running address
 *     cycles 1-4 ib_hdr_parse's four stages on q
 *     cycle 5    the parser's registered results, with the descriptor read from the
 *                delay line (written 5 cycles before), are written into CQ
 *   Admission: a descriptor popped now reaches CQ's write side 5 cycles later, and every
 *   descriptor in the parse stage or in CQ then is one of those in flight or in CQ now;
 *   so a pop is allowed while (in flight + in CQ) < CQ_DEPTH. room_reg holds that
 *   compare from the cycle before (with the pop of that cycle counted), so that the pop
 *   decision starts at flip-flops. No enable or select of the pipeline depends on CQ.
 *
 * Latency / throughput
 *   6 cycles from the IQ head to the descriptor readable at CQ's head (pop in cycle 0,
 *   written into CQ in cycle 5); one packet per clock while CQ drains (CQ_DEPTH = 16
 *   covers the 5 places of the stage and the compare's one-cycle-old count).
 *
 * Hands on
 *   CQ descriptors (header register, link, ring base and beats, parse results; open:
 *   whether the CRC check applies) to ibsec_decide.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ibsec_parse #(
    parameter LANES = 1,
    parameter OPEN = 0,
    parameter KEY_SLOTS = 4,
    parameter CTX_SLOTS = 16,
    parameter CTX_W = (CTX_SLOTS > 1) ? $clog2(CTX_SLOTS) : 1
) (
    clk, rst,
    iq_m_valid, iq_m_ready, iq_m_data,
    cq_s_valid, cq_count, cq_s_data
);

// (ports declared below the shared constants, whose descriptor widths they use)
`include "ibsec_engine_defs.vh"

input  wire                 clk;
input  wire                 rst;

/*
 * IQ read side: the frame's descriptor
 */
input  wire                 iq_m_valid;
output wire                 iq_m_ready;
input  wire [IQ_W-1:0]      iq_m_data;

/*
 * CQ write side: the parsed packet (always accepted: admission keeps room for it), and
 * CQ's fill level
 */
output wire                 cq_s_valid;
input  wire [$clog2(CQ_DEPTH):0] cq_count;
output wire [DS_W-1:0]      cq_s_data;

// ----------------------------------------------------------------------------
// Constants
// ----------------------------------------------------------------------------
// cycles from the head register to the parser's results (ib_hdr_parse's latency)
localparam PARSE_LAT = 4;
// descriptors the stage holds: the head register and the parser's four stages
localparam [3:0] PLACES = PARSE_PLACES;
// the delay line: the descriptor fields that pass the parser by, read PARSE_LAT + 1
// cycles after they are written (a 16-word distributed RAM, the depth of one
// TRELLIS_DPR16X4)
localparam DL_W = 1 + 2 * RAW;
localparam DL_DEPTH = 16;
localparam [3:0] DL_LAG = PARSE_LAT + 1;
// CQ's fill level in the width of the admission sum
localparam CNT_W = $clog2(CQ_DEPTH) + 2;
localparam [CNT_W-1:0] CQ_PLACES = CQ_DEPTH;

// ----------------------------------------------------------------------------
// Wires and registers
// ----------------------------------------------------------------------------
wire [8*PARSE_BYTES-1:0] iq_hdr;
wire [LEN_W-1:0]        iq_len;
wire                    iq_link;
wire [RAW-1:0]          iq_base, iq_nb;
assign {iq_hdr, iq_len, iq_link, iq_base, iq_nb} = iq_m_data;

// admission: room_reg says a pop now finds room in CQ when it gets there
reg                     room_reg = 1'b0;
reg  [3:0]              fly_reg = 4'd0;    // descriptors in the head register and the parser
wire                    pop = iq_m_valid && room_reg;

// the head register: what the parser reads (loaded every cycle; q_valid marks a pop)
reg                     q_valid_reg = 1'b0;
reg  [8*PARSE_BYTES-1:0] q_win;
reg  [LEN_W-1:0]        q_len;
reg                     q_link;

// the delay line
(* ram_style = "distributed" *)
reg  [DL_W-1:0]         dl_mem [0:DL_DEPTH-1];
reg  [3:0]              dl_wa_reg = 4'd0;
reg  [3:0]              dl_ra_reg = 4'd0 - DL_LAG;
wire                    d_link;
wire [RAW-1:0]          d_base, d_nb;
assign {d_link, d_base, d_nb} = dl_mem[dl_ra_reg];

// parser results
wire                    pn_valid;
wire [5:0]              pn_reason;
wire [1:0]              pn_shape;
wire [6:0]              pn_bth_off, pn_hdr_len, pn_sth_len;
wire [12:0]             pn_pp_len, pn_pkt_end;
wire [15:0]             pn_pkey;
wire [23:0]             pn_destqp, pn_psn;
wire [2:0]              pn_mode, pn_sthsz;
wire                    pn_kp, pn_pn;
/* verilator lint_off UNUSEDSIGNAL */
// opcode, pad count and SECMODE are checked inside the parser; the engine needs only
// the lengths and the mode the parser derives from them
wire [7:0]              pn_opcode;
wire [1:0]              pn_padcnt;
wire [1:0]              pn_secmode;
/* verilator lint_on UNUSEDSIGNAL */

assign iq_m_ready = room_reg;
assign cq_s_valid = pn_valid;

// parse -> CQ: parse results; the decision fields hold the parse reason (status mode
// of open: the mode BTH byte 8 names)
assign cq_s_data = {d_link, d_base, d_nb,
                    pn_shape, pn_bth_off, pn_hdr_len, pn_sth_len, pn_pp_len, pn_pkt_end,
                    pn_mode, {pn_kp, pn_pn, pn_sthsz}, pn_psn, pn_destqp, pn_pkey,
                    (OPEN != 0) && (pn_reason == R_OK),
                    pn_reason, 1'b0, {CTX_W{1'b0}}, (OPEN != 0) ? pn_mode : M_NONE, M_NONE, 3'd0,
                    {KEY_W{1'b0}}, 32'd0, 1'b0, 63'd0, 1'b0, 1'b0,
                    {RAW{1'b0}}, {RAW{1'b0}}, 1'b0};

// ----------------------------------------------------------------------------
// Submodules
// ----------------------------------------------------------------------------
ib_hdr_parse #(
    .HDR_BYTES (HDR_BYTES),
    .LEN_W     (LEN_W)
) hdr_parse (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (q_valid_reg),
    .hdr       ({{(8*(HDR_BYTES-PARSE_BYTES)){1'b0}}, q_win}),
    .frame_len (q_len),
    .link      (q_link),
    .is_open   (OPEN != 0),
    .out_valid (pn_valid),
    .reason    (pn_reason),
    .shape     (pn_shape),
    .bth_off   (pn_bth_off),
    .hdr_len   (pn_hdr_len),
    .sth_len   (pn_sth_len),
    .pp_len    (pn_pp_len),
    .pkt_end   (pn_pkt_end),
    .opcode    (pn_opcode),
    .padcnt    (pn_padcnt),
    .pkey      (pn_pkey),
    .destqp    (pn_destqp),
    .psn       (pn_psn),
    .secmode   (pn_secmode),
    .sthsz     (pn_sthsz),
    .kp        (pn_kp),
    .pn        (pn_pn),
    .mode      (pn_mode)
);

// ----------------------------------------------------------------------------
// Control
// ----------------------------------------------------------------------------
// descriptors in flight after this cycle, and the admission compare for the next
// cycle: in flight + in CQ (CQ's count, which a pop since only lowers) below CQ_DEPTH
wire [3:0]       fly_next = fly_reg + {3'd0, pop} - {3'd0, pn_valid};
wire [CNT_W-1:0] held     = {{(CNT_W-$clog2(CQ_DEPTH)-1){1'b0}}, cq_count}
                            + {{(CNT_W-4){1'b0}}, fly_reg};
// (the descriptor pushed into CQ in this cycle is in fly_reg, not yet in cq_count)
wire             room_next = pop ? (held + 1'b1 < CQ_PLACES) : (held < CQ_PLACES);

always @(posedge clk) begin
    // the head register and the delay line: loaded every cycle
    q_win  <= iq_hdr;
    q_len  <= iq_len;
    q_link <= iq_link;
    dl_mem[dl_wa_reg] <= {iq_link, iq_base, iq_nb};
    dl_wa_reg <= dl_wa_reg + 1'b1;
    dl_ra_reg <= dl_ra_reg + 1'b1;

    q_valid_reg <= pop;
    fly_reg     <= fly_next;
    room_reg    <= room_next;

    if (rst) begin
        q_valid_reg <= 1'b0;
        fly_reg     <= 4'd0;
        room_reg    <= 1'b0;
        dl_wa_reg   <= 4'd0;
        dl_ra_reg   <= 4'd0 - DL_LAG;
    end
end

// PLACES is the count the engine's KR sizing uses; the stage holds exactly that many
generate
    if (PLACES != PARSE_LAT + 1) begin : g_bad_places
        initial begin
            $error("ibsec_parse: PARSE_PLACES = %0d, the stage holds %0d", PLACES, PARSE_LAT + 1);
            $finish;
        end
    end
endgenerate

endmodule

`resetall
