/*
 * ibsec_ingress — the packet engine's ingress stage (ibsec_engine): frames into the input
 * ring, their header register and length beside them, one descriptor per frame into IQ,
 * and the late parse of every frame at its end (docs/packet-engine.md §3.1).
 *
 * Function
 *   Every input beat is written into the input ring (the write port ring_wr_*; the
 *   crypt and egress stages hold the ring's copies), while the frame's first CAP_BYTES
 *   bytes fill a header register and its length is counted. A descriptor goes into IQ
 *   (iq_s_*: header register, frame length, link, ring base and beats) once per frame:
 *   for CAP_BEAT, the beat that completes the header register, with the length the
 *   header implies (the early descriptor), for a frame that goes on; for its last beat
 *   for a shorter one. At every frame's end the header register and the length counted
 *   are parsed again (the late parse, ib_hdr_parse: its first stage takes them in the
 *   cycle after the last beat is taken in from I1, its result comes four cycles later,
 *   the stored beats carried beside it); its reason, the mode BTH byte 8 names and the frame's stored
 *   beats go into the late FIFO (lp_*, read by the egress register) and, on seal, its
 *   reason into a second FIFO for the decision (ld_*). On open, ibsec_rx_check computes
 *   the frame's ICRC (without and with the MASK_MF variant bits), VCRC and received CRC
 *   fields as it arrives (kr_*, read by the egress register).
 *
 * What is registered (make depth-check, ibsec_ingress:1:stage-seal / stage-open)
 *   - Every accepted beat first goes into the input register I1, with what the beat
 *     alone gives: its byte count (tkeep), the sums of the lengths its header fields
 *     imply (below) and whether its Ethertype is IPv4 or IPv6. The ring write, the
 *     header register and the length counter work on I1, so no count or sum lies
 *     between the input port and them. (ibsec_rx_check takes the accepted beats at the
 *     input: it has input registers of its own.)
 *   - s_axis_tready is a register, set for the next cycle while IQ can take one more
 *     descriptor (its count, the write on its way, the descriptors of the beats in I1
 *     and at the input) and the input ring two more beats, so that the input's enable
 *     is one gate from flip-flops.
 *   - The beat's index within the header register is kept one-hot (wsel) and whether
 *     it is stored in the ring (in_store) as a flag, so no counter compare selects.
 *   - The IQ write comes in the cycle after the beat (in I1) that makes it, entirely
 *     from registers: the header, length counted, link and ring base as the ingress
 *     registers hold them after that beat (the next frame's first beat may be in I1 in
 *     the same cycle: it changes them only at the cycle's end), the stored beats, and
 *     the implied length picked by a registered select from the registered sums.
 *   - The late parse's result is registered once more before the late FIFOs' write
 *     (its reason is the parser's last stage, a chain of checks), and the late FIFOs
 *     have registered heads (sync_fifo OUT_REG = 1: lp_*, ld_* from flip-flops).
 *
 * Latency / throughput
 *   One beat per clock, frames back to back (IQ_DEPTH = 8 covers the places the
 *   registered ready keeps). A beat accepted in cycle t is in I1 in t + 1; the frame's
 *   descriptor (for beat CAP_BEAT, or the last beat of a shorter frame) is written into
 *   IQ in t + 2 and is at IQ's head in t + 3. The late parse's result is at its FIFOs'
 *   head eight cycles after the last beat's acceptance; the check results 11-15 cycles
 *   after the beat before the ICRC field (ibsec_rx_check).
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
    iq_s_valid, iq_s_ready, iq_count, iq_s_data, hs_wr_en, hs_wr_long, hs_wr_data,
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
 * IQ write side: one descriptor per frame, written from registers; IQ's fill level,
 * from which s_axis_tready keeps room for every descriptor on its way (IQ never refuses
 * one, so its s_ready is not read)
 */
output wire                 iq_s_valid;
/* verilator lint_off UNUSEDSIGNAL */
input  wire                 iq_s_ready;
/* verilator lint_on UNUSEDSIGNAL */
input  wire [$clog2(IQ_DEPTH):0] iq_count;
output wire [IQ_W-1:0]      iq_s_data;

/*
 * Header store write port: the frame's header window with its IQ write (hs_wr_long: the
 * frame is longer than the store's word 0)
 */
output wire                 hs_wr_en;
output wire                 hs_wr_long;
output wire [8*CAP_BYTES-1:0] hs_wr_data;

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
// the input register (I1): every accepted beat, and what is computed from the beat alone
// (its byte count, the sums of the implied lengths, the Ethertype's IP version), so that
// no adder lies between the input port and the ingress registers
// (the header register reads a beat's first KEPT_BYTES bytes)
localparam KEPT_BYTES = (W < CAP_BYTES) ? W : CAP_BYTES;
reg                     i1_valid_reg = 1'b0;
reg [DW-1:0]            i1_data_reg;
reg [KEPT_BYTES-1:0]    i1_keep_reg;
reg                     i1_last_reg;
reg                     i1_user_reg;
reg [NW-1:0]            i1_count_reg;
reg [LEN_W-1:0]         i1_native_reg, i1_v4_reg, i1_v6_reg;
reg                     i1_etv4_reg, i1_etv6_reg;
reg [8*CAP_BYTES-1:0]   ing_hdr_reg, ing_hdr_next;
reg [LEN_W-1:0]         ing_len_reg, ing_len_next;
reg                     ing_link_reg, ing_link_next;
reg [RAW-1:0]           ing_base_reg, ing_base_next;
reg [8:0]               wbeat_reg, wbeat_next;
// the next beat's index, one-hot up to CAP_BEAT (bit k: it is beat k of its frame; no
// bit set past CAP_BEAT), so that the header register's byte selects and the early
// push start at a flip-flop
reg [CAP_BEATS_IN:0]    wsel_reg, wsel_next;
localparam [CAP_BEATS_IN:0] WSEL_FIRST = 1;   // beat 0
// the next beat is stored in the input ring (its index is below BUF_BEATS)
reg                     in_store_reg, in_store_next;
// the lengths the header implies (below), each summed with the beat that brings its
// field, and whether the Ethertype (frame bytes 12-13) is IPv4 or IPv6
reg [LEN_W-1:0]         impl_native_reg, impl_native_next;
reg [LEN_W-1:0]         impl_v4_reg, impl_v4_next;
reg [LEN_W-1:0]         impl_v6_reg, impl_v6_next;
reg                     ing_v4_reg, ing_v4_next;
reg                     ing_v6_reg, ing_v6_next;
// the arriving frame's early descriptor is in IQ (it went in with beat CAP_BEAT)
reg                     ing_early_reg, ing_early_next;
// input ring: write pointer (one bit more than the address: full/empty against fp)
reg [RAW:0]             wp_reg, wp_next;
// s_axis_tready, registered: IQ and the ring have room for a beat in the next cycle
reg                     in_ready_reg = 1'b0;
// the IQ write of a frame's descriptor, in the cycle after the beat that makes it: its
// valid, which length it carries (IQL_*) and its stored beats; the header, length
// counted, link and ring base are the ingress registers of that cycle
reg                     iqw_valid_reg = 1'b0, iqw_valid_next;
reg [1:0]               iqw_len_sel_reg, iqw_len_sel_next;
reg [RAW-1:0]           iqw_nb_reg, iqw_nb_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire in_acc   = s_axis_tvalid && in_ready_reg;   // a beat accepted at the input
wire in_beat  = i1_valid_reg;                    // the beat in I1, taken in
wire in_first = wsel_reg[0];

// the input beat's bytes that can fall into the header register (the first KEPT_BYTES),
// those outside tkeep as zero, and the beat's byte count
wire [8*KEPT_BYTES-1:0] in_kept_data;
wire [NW-1:0] in_keep_count = i1_count_reg;
// the ingress header register after an input beat: the beat's bytes where they fall
// into frame bytes 0 .. CAP_BYTES - 1, the rest cleared on a first beat, else kept
wire [8*CAP_BYTES-1:0] ing_hdr_cap;
// all of these by generate, a slice per byte or per beat (loops over more than 64 bytes
// would stay run-time loops over the wide vectors in Verilator)
genvar kb;
generate
    for (kb = 0; kb < KEPT_BYTES; kb = kb + 1) begin : g_kept
        assign in_kept_data[8*kb +: 8] = i1_data_reg[8*kb +: 8] & {8{i1_keep_reg[kb]}};
    end
    for (kb = 0; kb * W < CAP_BYTES; kb = kb + 1) begin : g_cap
        // header bytes kb*W .. kb*W + CB - 1 come from input beat kb
        localparam CB = (CAP_BYTES - kb * W < W) ? CAP_BYTES - kb * W : W;
        assign ing_hdr_cap[8*W*kb +: 8*CB] = wsel_reg[kb] ? in_kept_data[8*CB-1:0] :
                                             in_first     ? {8*CB{1'b0}} :
                                             ing_hdr_reg[8*W*kb +: 8*CB];
    end
endgenerate

// The frame length the header implies (the early descriptor's); the length
// ib_hdr_parse's checks accept (native: 4 x LRH.PktLen + the VCRC, IBA Vol. 1 §7.7.8;
// RoCEv2: the end of the IP packet, IPv4 Total Length + 14 or IPv6 Payload Length + 14 +
// 40, Ethernet padding behind it). Any other header gets the bytes so far: the parse
// rejects it whatever the length, and the late parse names the reason. Each sum is taken
// from the input beat that brings its field (LRH bytes 4-5 in the first beat; the IP
// length fields, frame bytes 16-19, in beat IPLEN_BEAT, which is at or before CAP_BEAT)
// into a register, and the IQ write picks one of them by a select also registered.
localparam [LEN_W-1:0] IMPL_VCRC = 2;         // VCRC bytes behind the ICRC (native)
localparam [LEN_W-1:0] IMPL_V4   = 14;        // Ethernet header before IPv4
localparam [LEN_W-1:0] IMPL_V6   = 14 + 40;   // Ethernet and IPv6 headers
localparam [15:0] ETYPE_IPV4 = 16'h0800;
localparam [15:0] ETYPE_IPV6 = 16'h86DD;
localparam IPLEN_BEAT = 16 / W;               // the beat holding frame bytes 16-19
localparam IPLEN_OFF  = 16 % W;               // and where they start in it
// the IQ write's length: the length counted, or one the header implies
localparam [1:0] IQL_COUNT  = 2'd0;
localparam [1:0] IQL_NATIVE = 2'd1;
localparam [1:0] IQL_V4     = 2'd2;
localparam [1:0] IQL_V6     = 2'd3;
// (from the input port, into I1)
// (the first ACC_BYTES bytes of the beat, which hold every field read here)
localparam ACC_BYTES = (W < 20) ? W : 20;
/* verilator lint_off UNUSEDSIGNAL */ // only the length fields and the Ethertype are read
wire [8*ACC_BYTES-1:0] acc_kept;
/* verilator lint_on UNUSEDSIGNAL */
generate
    for (kb = 0; kb < ACC_BYTES; kb = kb + 1) begin : g_acc_kept
        assign acc_kept[8*kb +: 8] = s_axis_tdata[8*kb +: 8] & {8{s_axis_tkeep[kb]}};
    end
endgenerate
wire [15:0]      acc_etype   = {acc_kept[8*12 +: 8], acc_kept[8*13 +: 8]};
wire [LEN_W-1:0] acc_native  = {{(LEN_W-13){1'b0}}, acc_kept[8*4 +: 3], acc_kept[8*5 +: 8],
                                2'b00} + IMPL_VCRC;   // LRH bytes 4-5 bits 10:0
wire [LEN_W-1:0] acc_v4      = {{(LEN_W-16){1'b0}}, acc_kept[8*IPLEN_OFF +: 8],
                                acc_kept[8*(IPLEN_OFF+1) +: 8]} + IMPL_V4;  // IPv4 bytes 2-3
wire [LEN_W-1:0] acc_v6      = {{(LEN_W-16){1'b0}}, acc_kept[8*(IPLEN_OFF+2) +: 8],
                                acc_kept[8*(IPLEN_OFF+3) +: 8]} + IMPL_V6;  // IPv6 bytes 4-5
// the frame length after this beat, saturated at 2^LEN_W - 1 (ib_hdr_parse's
// frame_len): LEN_MAX is all ones, so the sum's carry says it is exceeded
wire [LEN_W:0]   len_sum     = {1'b0, ing_len_reg} + {{(LEN_W+1-NW){1'b0}}, in_keep_count};
// this beat completes the header register of a frame that goes on
wire ing_early_push = !ing_early_reg && wsel_reg[CAP_BEATS_IN] && !i1_last_reg;

// the ring beats in use, and the IQ places held (descriptors in IQ, the one being
// written, the one this beat makes), for the registered ready
wire [RAW:0] in_used = wp_reg - fp;
localparam IQ_CW = $clog2(IQ_DEPTH) + 2;
wire [IQ_CW-1:0] iq_held = {1'b0, iq_count} + {{(IQ_CW-1){1'b0}}, iqw_valid_reg}
                           + {{(IQ_CW-1){1'b0}}, iqw_valid_next}
                           + {{(IQ_CW-1){1'b0}}, in_acc};
localparam [IQ_CW-1:0] IQ_PLACES = IQ_DEPTH;
/* verilator lint_off UNUSEDSIGNAL */ // a stored beat index is below BUF_BEATS < RING
wire [RAW+8:0] wbeat_x = {{RAW{1'b0}}, wbeat_reg};
/* verilator lint_on UNUSEDSIGNAL */
wire [RAW-1:0] in_nb = in_store_reg ? wbeat_x[RAW-1:0] + 1'b1 : BUF_BEATS_R;
assign s_axis_tready = in_ready_reg;

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign ring_wr_en   = in_beat && in_store_reg;
assign ring_wr_addr = wp_reg[RAW-1:0];
assign ring_wr_data = i1_data_reg;
assign wp         = wp_reg;
assign ing_base   = ing_base_reg;
assign ing_early  = ing_early_reg;

// ingress -> IQ, in the cycle after the beat: the frame as the registers hold it after
// that beat (an early descriptor has the length its header implies; the stored beats
// that count are the late parse's, at egress)
reg [LEN_W-1:0] iqw_len;
always @* begin
    case (iqw_len_sel_reg)
        IQL_NATIVE: iqw_len = impl_native_reg;
        IQL_V4:     iqw_len = impl_v4_reg;
        IQL_V6:     iqw_len = impl_v6_reg;
        default:    iqw_len = ing_len_reg;
    endcase
end
assign iq_s_valid = iqw_valid_reg;
assign iq_s_data  = {ing_hdr_reg[8*PARSE_BYTES-1:0], iqw_len, ing_link_reg, ing_base_reg,
                     iqw_nb_reg};
// the whole header window into the header store, with the IQ write
assign hs_wr_en   = iqw_valid_reg;
assign hs_wr_long = ing_len_reg > HS_WORD_BYTES;
assign hs_wr_data = ing_hdr_reg;

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
            .in_valid (in_acc), .in_data (s_axis_tdata), .in_last (s_axis_tlast),
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
// the late FIFOs' write, registered behind the parser's results (whose reason is the
// parser's last stage, a chain of checks): valid, reason, mode, stored beats
reg            lw_valid_reg = 1'b0;
reg  [5:0]     lw_reason_reg;
reg  [2:0]     lw_mode_reg;
reg  [RAW-1:0] lw_nb_reg;
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
wire           lt_kp, lt_pn;
wire           lt_s_ready;            // as deep as the check FIFO: never full
wire [$clog2(KR_DEPTH):0] lt_count;
/* verilator lint_on UNUSEDSIGNAL */
always @(posedge clk) begin
    lt_pend_reg <= in_beat && i1_last_reg;
    if (in_beat && i1_last_reg)
        lt_nb_reg <= in_nb;
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
    .kp        (lt_kp),
    .pn        (lt_pn),
    .mode      (lt_mode)
);
always @(posedge clk) begin
    lw_valid_reg  <= lt_valid;
    lw_reason_reg <= lt_reason;
    lw_mode_reg   <= lt_mode;
    lw_nb_reg     <= lt_nb4_reg;
    if (rst)
        lw_valid_reg <= 1'b0;
end
// one entry per frame, popped by the egress register (lp_pop)
sync_fifo #(.WIDTH (6 + 3 + RAW), .DEPTH (KR_DEPTH), .OUT_REG (1)) lt (
    .clk (clk), .rst (rst),
    .s_valid (lw_valid_reg), .s_ready (lt_s_ready),
    .s_data ({lw_reason_reg, lw_mode_reg, lw_nb_reg}),
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
        sync_fifo #(.WIDTH (6), .DEPTH (KR_DEPTH), .OUT_REG (1)) ld (
            .clk (clk), .rst (rst),
            .s_valid (lw_valid_reg), .s_ready (ld_s_ready), .s_data (lw_reason_reg),
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
    ing_hdr_next     = ing_hdr_reg;
    ing_len_next     = ing_len_reg;
    ing_link_next    = ing_link_reg;
    ing_base_next    = ing_base_reg;
    wbeat_next       = wbeat_reg;
    wsel_next        = wsel_reg;
    in_store_next    = in_store_reg;
    impl_native_next = impl_native_reg;
    impl_v4_next     = impl_v4_reg;
    impl_v6_next     = impl_v6_reg;
    ing_v4_next      = ing_v4_reg;
    ing_v6_next      = ing_v6_reg;
    ing_early_next   = ing_early_reg;
    wp_next          = wp_reg;
    iqw_valid_next   = 1'b0;
    iqw_len_sel_next = IQL_COUNT;
    iqw_nb_next      = in_nb;

    // ---- ingress: the frame into the input ring, its header and length beside it ----
    if (in_beat) begin
        if (in_first) begin
            ing_link_next    = i1_user_reg;
            ing_base_next    = wp_reg[RAW-1:0];
            impl_native_next = i1_native_reg;
            ing_v4_next      = i1_etv4_reg;
            ing_v6_next      = i1_etv6_reg;
        end
        if (wsel_reg[IPLEN_BEAT]) begin
            impl_v4_next = i1_v4_reg;
            impl_v6_next = i1_v6_reg;
        end
        // header register: frame bytes 0 .. CAP_BYTES - 1
        ing_hdr_next = ing_hdr_cap;
        // frame length, saturated at 2^LEN_W - 1 (ib_hdr_parse's frame_len)
        if (in_first)
            ing_len_next = {{(LEN_W-NW){1'b0}}, in_keep_count};
        else if (len_sum[LEN_W])
            ing_len_next = LEN_MAX;
        else
            ing_len_next = len_sum[LEN_W-1:0];
        if (in_store_reg)
            wp_next = wp_reg + 1'b1;
        if (wbeat_reg != 9'h1ff)
            wbeat_next = wbeat_reg + 1'b1;
        wsel_next = wsel_reg << 1;
        // the beat after this one is stored while its index (this one's + 1) is below
        // BUF_BEATS
        in_store_next = in_store_reg && ({23'd0, wbeat_reg} < BUF_BEATS - 1);
        if (i1_last_reg) begin
            wbeat_next     = 9'd0;
            wsel_next      = WSEL_FIRST;
            in_store_next  = 1'b1;
            iqw_valid_next = !ing_early_reg;
            ing_early_next = 1'b0;
        end else if (ing_early_push) begin
            iqw_valid_next   = 1'b1;
            iqw_len_sel_next = !ing_link_next ? IQL_NATIVE :
                               ing_v4_next    ? IQL_V4 :
                               ing_v6_next    ? IQL_V6 : IQL_COUNT;
            ing_early_next   = 1'b1;
        end
    end

end

// s_axis_tready for the next cycle. IQ: every beat may make a descriptor, so the places
// held (IQ's count, which a pop only lowers; the write of this cycle; the one of the beat
// in I1; the one of the beat accepted now) must leave one free. Ring: the beat in I1 is
// written in this cycle and the one accepted now in the next, so the ring must hold two
// beats more than now (fp, which the egress stage moves, only frees beats). Beats past
// BUF_BEATS are not stored but wait for the same room: the frames before an over-long
// one free theirs without it, and it stores at most BUF_BEATS < RING_BEATS - 2.
localparam [RAW:0] RING_ROOM = RING_BEATS - 2;
wire in_ready_next = (iq_held < IQ_PLACES) && (in_used < RING_ROOM);

always @(posedge clk) begin
    // I1: loaded every cycle, valid for an accepted beat
    i1_valid_reg <= in_acc;
    i1_data_reg  <= s_axis_tdata;
    i1_keep_reg  <= s_axis_tkeep[KEPT_BYTES-1:0];
    i1_last_reg  <= s_axis_tlast;
    i1_user_reg  <= s_axis_tuser;
    i1_count_reg <= keep_count(s_axis_tkeep);
    i1_native_reg <= acc_native;
    i1_v4_reg    <= acc_v4;
    i1_v6_reg    <= acc_v6;
    i1_etv4_reg  <= (acc_etype == ETYPE_IPV4);
    i1_etv6_reg  <= (acc_etype == ETYPE_IPV6);
    if (rst)
        i1_valid_reg <= 1'b0;
end

always @(posedge clk) begin
    ing_hdr_reg     <= ing_hdr_next;
    ing_len_reg     <= ing_len_next;
    ing_link_reg    <= ing_link_next;
    ing_base_reg    <= ing_base_next;
    wbeat_reg       <= wbeat_next;
    wsel_reg        <= wsel_next;
    in_store_reg    <= in_store_next;
    impl_native_reg <= impl_native_next;
    impl_v4_reg     <= impl_v4_next;
    impl_v6_reg     <= impl_v6_next;
    ing_v4_reg      <= ing_v4_next;
    ing_v6_reg      <= ing_v6_next;
    ing_early_reg   <= ing_early_next;
    wp_reg          <= wp_next;
    in_ready_reg    <= in_ready_next;
    iqw_valid_reg   <= iqw_valid_next;
    iqw_len_sel_reg <= iqw_len_sel_next;
    iqw_nb_reg      <= iqw_nb_next;

    if (rst) begin
        wbeat_reg     <= 9'd0;
        wsel_reg      <= WSEL_FIRST;
        in_store_reg  <= 1'b1;
        ing_early_reg <= 1'b0;
        wp_reg        <= {(RAW+1){1'b0}};
        in_ready_reg  <= 1'b0;
        iqw_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
