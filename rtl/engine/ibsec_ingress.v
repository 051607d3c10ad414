/*
 * ibsec_ingress — the packet engine's ingress stage (ibsec_engine): frames into the input
 * ring, their header register and length beside them, one descriptor per frame into IQ,
 * and the late parse of every frame at its end (docs/packet-engine.md §3.1).
 *
 * Function
 *   Every input beat is written into the input ring (the write port ring_wr_*; the
 *   crypt and egress stages hold the ring's copies), while the frame's first CAP_BYTES bytes fill a header register and its length is
 *   counted. A descriptor goes into IQ (iq_s_*: header register, frame length, link, ring
 *   base and beats) once per frame: at CAP_BEAT, the beat that completes the header
 *   register, with the length the header implies (the early descriptor), for a frame that
 *   goes on; at its last beat for a shorter one. At every frame's end the header register
 *   and the length counted are parsed again (the late parse, ib_hdr_parse: its first
 *   stage takes them in the cycle after the last beat, its result comes four cycles
 *   later, the stored beats carried beside it); its reason, the mode BTH byte 8 names and the frame's stored
 *   beats go into the late FIFO (lp_*, read by the egress register) and, on seal, its
 *   reason into a second FIFO for the decision (ld_*). On open, ibsec_rx_check computes
 *   the frame's ICRC (without and with the MASK_MF variant bits), VCRC and received CRC
 *   fields as it arrives (kr_*, read by the egress register).
 *   s_axis_tready is low while IQ is full or the input ring has no free beat (the
 *   egress stage frees beats: fp).
 *
 * Latency / throughput
 *   One beat per clock. The early descriptor is in IQ in the cycle after CAP_BEAT; the
 *   late parse's result in its FIFO six cycles after the last beat; the check results
 *   10-14 cycles after it (ibsec_rx_check).
 *
 * Hands on
 *   IQ descriptors to ibsec_parse; the input ring's write port and the arriving frame's
 *   state (ing_base, ing_early, wp) to ibsec_crypt, which reads the ring behind the
 *   arrival; the late FIFOs to ibsec_decide (ld, seal) and ibsec_egress (lp, kr).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ibsec_ingress #(
    parameter LANES = 1,
    parameter OPEN = 0,
    parameter KEY_SLOTS = 4,
    parameter CTX_SLOTS = 16,
    parameter CTX_W = (CTX_SLOTS > 1) ? $clog2(CTX_SLOTS) : 1
) (
    clk, rst,
    s_axis_tdata, s_axis_tkeep, s_axis_tvalid, s_axis_tready, s_axis_tlast, s_axis_tuser,
    iq_s_valid, iq_s_ready, iq_s_data,
    ring_wr_en, ring_wr_addr, ring_wr_data, wp, ing_base, ing_early, fp,
    lp_valid, lp_pop, lp_reason, lp_mode, lp_nb, ld_valid, ld_pop, ld_reason,
    kr_valid, kr_pop, kr_icrc0, kr_icrc1, kr_vcrc, kr_rx
);

// (ports declared below the shared constants, whose descriptor and ring widths they use)
`include "ibsec_engine_defs.vh"

input  wire                 clk;
input  wire                 rst;

/*
 * Packet input (tuser: link, 0 native IBA, 1 RoCEv2, sampled on the first beat)
 */
input  wire [DW-1:0]        s_axis_tdata;
input  wire [W-1:0]         s_axis_tkeep;
input  wire                 s_axis_tvalid;
output wire                 s_axis_tready;
input  wire                 s_axis_tlast;
input  wire                 s_axis_tuser;

/*
 * IQ write side: one descriptor per frame
 */
output reg                  iq_s_valid;
input  wire                 iq_s_ready;
output wire [IQ_W-1:0]      iq_s_data;

/*
 * Input ring: the write port, the arriving frame (base, early
 * descriptor in IQ), the write pointer and the free pointer (egress)
 */
output wire                 ring_wr_en;
output wire [RAW-1:0]       ring_wr_addr;
output wire [DW-1:0]        ring_wr_data;
output wire [RAW:0]         wp;
output wire [RAW-1:0]       ing_base;
output wire                 ing_early;
input  wire [RAW:0]         fp;

/*
 * Late parse of every frame (egress register) and, seal, its reason (decision)
 */
output wire                 lp_valid;
input  wire                 lp_pop;
output wire [5:0]           lp_reason;
output wire [2:0]           lp_mode;
output wire [RAW-1:0]       lp_nb;
output wire                 ld_valid;
/* verilator lint_off UNUSEDSIGNAL */ // ld serves seal only
input  wire                 ld_pop;
/* verilator lint_on UNUSEDSIGNAL */
output wire [5:0]           ld_reason;

/*
 * Open: the CRC check's results of every frame (egress register)
 */
output wire                 kr_valid;
/* verilator lint_off UNUSEDSIGNAL */ // kr_pop serves the open check only
input  wire                 kr_pop;
/* verilator lint_on UNUSEDSIGNAL */
output wire [31:0]          kr_icrc0;
output wire [31:0]          kr_icrc1;
output wire [15:0]          kr_vcrc;
output wire [47:0]          kr_rx;

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg [8*CAP_BYTES-1:0]   ing_hdr_reg, ing_hdr_next;
reg [LEN_W-1:0]         ing_len_reg, ing_len_next;
reg                     ing_link_reg, ing_link_next;
reg [RAW-1:0]           ing_base_reg, ing_base_next;
reg [8:0]               wbeat_reg, wbeat_next;
// the arriving frame's early descriptor is in IQ (it went in at CAP_BEAT)
reg                     ing_early_reg, ing_early_next;
// input ring: write pointer and free pointer (one bit more than the address: full/empty)
// input ring: write pointer (one bit more than the address: full/empty against fp)
reg [RAW:0]             wp_reg, wp_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire in_beat = s_axis_tvalid && s_axis_tready;

// the input beat's bytes that can fall into the header register (the first KEPT_BYTES),
// those outside tkeep as zero, and the beat's byte count
localparam KEPT_BYTES = (W < CAP_BYTES) ? W : CAP_BYTES;
wire [8*KEPT_BYTES-1:0] in_kept_data;
wire [NW-1:0] in_keep_count = keep_count(s_axis_tkeep);
// the ingress header register after an input beat: the beat's bytes where they fall
// into frame bytes 0 .. CAP_BYTES - 1, the rest cleared on a first beat, else kept
wire [8*CAP_BYTES-1:0] ing_hdr_cap;
// all of these by generate, a slice per byte or per beat (loops over more than 64 bytes
// would stay run-time loops over the wide vectors in Verilator)
genvar kb;
generate
    for (kb = 0; kb < KEPT_BYTES; kb = kb + 1) begin : g_kept
        assign in_kept_data[8*kb +: 8] = s_axis_tdata[8*kb +: 8] & {8{s_axis_tkeep[kb]}};
    end
    for (kb = 0; kb * W < CAP_BYTES; kb = kb + 1) begin : g_cap
        // header bytes kb*W .. kb*W + CB - 1 come from input beat kb
        localparam CB = (CAP_BYTES - kb * W < W) ? CAP_BYTES - kb * W : W;
        localparam [8:0] KB9 = kb;
        assign ing_hdr_cap[8*W*kb +: 8*CB] = (wbeat_reg == KB9) ? in_kept_data[8*CB-1:0] :
                                             (wbeat_reg == 9'd0) ? {8*CB{1'b0}} :
                                             ing_hdr_reg[8*W*kb +: 8*CB];
    end
endgenerate

// the frame length the header implies, from the header register after this beat;
// the length ib_hdr_parse's checks accept (native: 4 x LRH.PktLen + the VCRC, IBA Vol. 1
// §7.7.8; RoCEv2: the end of the IP packet, IPv4 Total Length + 14 or IPv6 Payload
// Length + 14 + 40, Ethernet padding behind it). Any other header gets the bytes so far:
// the parse rejects it whatever the length, and the late parse names the reason.
localparam [LEN_W-1:0] IMPL_VCRC = 2;         // VCRC bytes behind the ICRC (native)
localparam [LEN_W-1:0] IMPL_V4   = 14;        // Ethernet header before IPv4
localparam [LEN_W-1:0] IMPL_V6   = 14 + 40;   // Ethernet and IPv6 headers
localparam [15:0] ETYPE_IPV4 = 16'h0800;
localparam [15:0] ETYPE_IPV6 = 16'h86DD;
wire [15:0]      impl_etype = {ing_hdr_cap[8*12 +: 8], ing_hdr_cap[8*13 +: 8]};
wire [LEN_W-1:0] impl_native = {{(LEN_W-13){1'b0}}, ing_hdr_cap[8*4 +: 3], ing_hdr_cap[8*5 +: 8],
                                2'b00} + IMPL_VCRC;   // LRH bytes 4-5 bits 10:0
wire [LEN_W-1:0] impl_v4 = {{(LEN_W-16){1'b0}}, ing_hdr_cap[8*16 +: 8], ing_hdr_cap[8*17 +: 8]}
                           + IMPL_V4;                 // IPv4 bytes 2-3
wire [LEN_W-1:0] impl_v6 = {{(LEN_W-16){1'b0}}, ing_hdr_cap[8*18 +: 8], ing_hdr_cap[8*19 +: 8]}
                           + IMPL_V6;                 // IPv6 bytes 4-5
wire [LEN_W-1:0] ing_impl_len = !ing_link_next          ? impl_native :
                                impl_etype == ETYPE_IPV4 ? impl_v4 :
                                impl_etype == ETYPE_IPV6 ? impl_v6 : ing_len_next;
// this beat completes the header register of a frame that goes on
wire ing_early_push = !ing_early_reg && wbeat_reg == CAP_BEAT && !s_axis_tlast;

wire [RAW:0] in_used = wp_reg - fp;
wire         in_store = {23'd0, wbeat_reg} < BUF_BEATS;
/* verilator lint_off UNUSEDSIGNAL */ // a stored beat index is below BUF_BEATS < RING
wire [RAW+8:0] wbeat_x = {{RAW{1'b0}}, wbeat_reg};
/* verilator lint_on UNUSEDSIGNAL */
assign s_axis_tready = iq_s_ready && (!in_store || in_used < RING_BEATS);

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign ring_wr_en   = in_beat && in_store;
assign ring_wr_addr = wp_reg[RAW-1:0];
assign ring_wr_data = s_axis_tdata;
assign wp         = wp_reg;
assign ing_base   = ing_base_reg;
assign ing_early  = ing_early_reg;

// ingress -> IQ: the frame with this beat (an early descriptor has the length its header
// implies; the stored beats that count are the late parse's, at egress)
assign iq_s_data = {ing_hdr_next, ing_early_push ? ing_impl_len : ing_len_next, ing_link_next,
                    (wbeat_reg == 9'd0) ? wp_reg[RAW-1:0] : ing_base_reg,
                    in_store ? wbeat_x[RAW-1:0] + 1'b1 : BUF_BEATS_R};

// ----------------------------------------------------------------------------
// Submodules: the CRC check (open) and the late parse
// ----------------------------------------------------------------------------
generate
    if (OPEN != 0) begin : g_check
        // the received frame's ICRC without (icrc0) and with (icrc1) the MASK_MF variant
        // bits, so that the decision can use the CONFIG in effect when it is made, its
        // VCRC and its ICRC / VCRC fields, computed as the frame arrives: one result per
        // frame, popped by the egress register for every packet
        ibsec_rx_check #(.LANES (LANES), .DEPTH (KR_DEPTH)) rx_check (
            .clk (clk), .rst (rst),
            .in_valid (in_beat), .in_data (s_axis_tdata), .in_last (s_axis_tlast),
            .in_user (s_axis_tuser),
            .m_valid (kr_valid), .m_ready (kr_pop), .m_icrc0 (kr_icrc0),
            .m_icrc1 (kr_icrc1), .m_vcrc (kr_vcrc), .m_rx (kr_rx)
        );
    end else begin : g_no_check
        assign kr_valid = 1'b0;
        assign kr_icrc0 = 32'd0;
        assign kr_icrc1 = 32'd0;
        assign kr_vcrc = 16'd0;
        assign kr_rx = 48'd0;
    end
endgenerate

// The late parse. A frame longer than CAP_BEAT + 1 beats was parsed and decided
// from its early descriptor, with the length its header implies; at its end the header
// register and the length counted are parsed again (taken into the parser's first stage
// in the cycle after the last beat, while the ingress registers still hold the frame; the
// parser never stalls, and the late FIFOs cannot fill, so it needs no enable). When the lengths agree the two
// parses agree; when they differ the late parse rejects the frame: the parser accepts a
// length other than the header's only for a RoCEv2 frame padded to 60 bytes, which ends
// by CAP_BEAT at every width (CAP_BYTES > 60). Its reason is therefore the verdict
// whenever it is one (egress applies it before every other), and its stored beat count
// frees the ring. Frames that end by CAP_BEAT went into IQ with their length: their two
// parses are one.
reg            lt_pend_reg = 1'b0;    // the frame ended in the last cycle
reg  [RAW-1:0] lt_nb_reg;
// the stored beats beside the parser's four stages
reg  [RAW-1:0] lt_nb1_reg, lt_nb2_reg, lt_nb3_reg, lt_nb4_reg;
wire           lt_valid;              // the parser's result of a frame
wire [5:0]     lt_reason;
wire [2:0]     lt_mode;
/* verilator lint_off UNUSEDSIGNAL */
// the late parse names the verdict and the status mode only; the lengths and
// fields it finds are the early parse's whenever it accepts the frame
wire [1:0]     lt_shape;
wire [6:0]     lt_bth_off, lt_hdr_len, lt_sth_len;
wire [12:0]    lt_pp_len, lt_pkt_end;
wire [7:0]     lt_opcode;
wire [1:0]     lt_padcnt, lt_secmode;
wire [15:0]    lt_pkey;
wire [23:0]    lt_destqp, lt_psn;
wire [2:0]     lt_sthsz;
wire           lt_s_ready;            // as deep as the check FIFO: never full
wire [$clog2(KR_DEPTH):0] lt_count;
/* verilator lint_on UNUSEDSIGNAL */
always @(posedge clk) begin
    lt_pend_reg <= in_beat && s_axis_tlast;
    if (in_beat && s_axis_tlast)
        lt_nb_reg <= in_store ? wbeat_x[RAW-1:0] + 1'b1 : BUF_BEATS_R;
    lt_nb1_reg <= lt_nb_reg;
    lt_nb2_reg <= lt_nb1_reg;
    lt_nb3_reg <= lt_nb2_reg;
    lt_nb4_reg <= lt_nb3_reg;
    if (rst)
        lt_pend_reg <= 1'b0;
end
ib_hdr_parse #(
    .HDR_BYTES (HDR_BYTES),
    .LEN_W     (LEN_W)
) late_parse (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (lt_pend_reg),
    .out_valid (lt_valid),
    .hdr       (ing_hdr_reg[8*HDR_BYTES-1:0]),
    .frame_len (ing_len_reg),
    .link      (ing_link_reg),
    .is_open   (OPEN != 0),
    .reason    (lt_reason),
    .shape     (lt_shape),
    .bth_off   (lt_bth_off),
    .hdr_len   (lt_hdr_len),
    .sth_len   (lt_sth_len),
    .pp_len    (lt_pp_len),
    .pkt_end   (lt_pkt_end),
    .opcode    (lt_opcode),
    .padcnt    (lt_padcnt),
    .pkey      (lt_pkey),
    .destqp    (lt_destqp),
    .psn       (lt_psn),
    .secmode   (lt_secmode),
    .sthsz     (lt_sthsz),
    .mode      (lt_mode)
);
// one entry per frame, popped by the egress register (lp_pop)
sync_fifo #(.WIDTH (6 + 3 + RAW), .DEPTH (KR_DEPTH)) lt (
    .clk (clk), .rst (rst),
    .s_valid (lt_valid), .s_ready (lt_s_ready),
    .s_data ({lt_reason, lt_mode, lt_nb4_reg}),
    .m_valid (lp_valid), .m_ready (lp_pop), .m_data ({lp_reason, lp_mode, lp_nb}),
    .count (lt_count)
);
generate
    if (OPEN == 0) begin : g_seal_late
        // seal: the late reasons again, one per frame, for the decision stage (ld_*)
        /* verilator lint_off UNUSEDSIGNAL */
        wire                      ld_s_ready;   // as deep as the late FIFO
        wire [$clog2(KR_DEPTH):0] ld_count;
        /* verilator lint_on UNUSEDSIGNAL */
        sync_fifo #(.WIDTH (6), .DEPTH (KR_DEPTH)) ld (
            .clk (clk), .rst (rst),
            .s_valid (lt_valid), .s_ready (ld_s_ready), .s_data (lt_reason),
            .m_valid (ld_valid), .m_ready (ld_pop), .m_data (ld_reason),
            .count (ld_count)
        );
    end else begin : g_open_late
        assign ld_valid  = 1'b0;
        assign ld_reason = R_OK;
    end
endgenerate

// ----------------------------------------------------------------------------
// Control
// ----------------------------------------------------------------------------
always @* begin
    ing_hdr_next   = ing_hdr_reg;
    ing_len_next   = ing_len_reg;
    ing_link_next  = ing_link_reg;
    ing_base_next  = ing_base_reg;
    wbeat_next     = wbeat_reg;
    ing_early_next = ing_early_reg;
    wp_next        = wp_reg;
    iq_s_valid     = 1'b0;

    // ---- ingress: the frame into the input ring, its header and length beside it ----
    if (in_beat) begin
        if (wbeat_reg == 9'd0) begin
            ing_link_next = s_axis_tuser;
            ing_base_next = wp_reg[RAW-1:0];
        end
        // header register: frame bytes 0 .. CAP_BYTES - 1
        ing_hdr_next = ing_hdr_cap;
        // frame length, saturated at 2^LEN_W - 1 (ib_hdr_parse's frame_len)
        if (wbeat_reg == 9'd0)
            ing_len_next = {{(LEN_W-NW){1'b0}}, in_keep_count};
        else if ({1'b0, ing_len_reg} + {{(LEN_W+1-NW){1'b0}}, in_keep_count} > {1'b0, LEN_MAX})
            ing_len_next = LEN_MAX;
        else
            ing_len_next = ing_len_reg + {{(LEN_W-NW){1'b0}}, in_keep_count};
        if (in_store)
            wp_next = wp_reg + 1'b1;
        if (wbeat_reg != 9'h1ff)
            wbeat_next = wbeat_reg + 1'b1;
        if (s_axis_tlast) begin
            wbeat_next     = 9'd0;
            iq_s_valid     = !ing_early_reg;
            ing_early_next = 1'b0;
        end else if (ing_early_push) begin
            iq_s_valid     = 1'b1;
            ing_early_next = 1'b1;
        end
    end
end

always @(posedge clk) begin
    ing_hdr_reg    <= ing_hdr_next;
    ing_len_reg    <= ing_len_next;
    ing_link_reg   <= ing_link_next;
    ing_base_reg   <= ing_base_next;
    wbeat_reg      <= wbeat_next;
    ing_early_reg  <= ing_early_next;
    wp_reg         <= wp_next;

    if (rst) begin
        wbeat_reg     <= 9'd0;
        ing_early_reg <= 1'b0;
        wp_reg        <= {(RAW+1){1'b0}};
    end
end

endmodule

`resetall
