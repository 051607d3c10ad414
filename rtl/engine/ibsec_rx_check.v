/*
 * ibsec_rx_check — the open engine's CRC check of a received frame, computed while the
 * frame arrives: its ICRC (without and with the MASK_MF variant bits), its VCRC up to the
 * ICRC field, and the received ICRC and VCRC fields, one result per frame in arrival
 * order (IBA Vol. 1 §7.8; RoCEv2 Annex A17; cmodel/ibsec_open.c's CRC checks).
 *
 * Function
 *   Every beat accepted on the engine's input (in_valid) comes here as well. The checked
 *   bytes are those of a frame that the parser accepts, whose end the header gives:
 *     native IBA  the LRH's PktLen (frame bytes 4-5): the ICRC field starts at
 *                 4 * PktLen - 4, the VCRC field behind it ends the frame;
 *     RoCEv2      the IP length (IPv4 total length, frame bytes 16-17; IPv6 payload
 *                 length, bytes 18-19): the ICRC field is the IP packet's last 4 bytes,
 *                 Ethernet padding (if any) follows.
 *   So the covered bytes are known before the frame's end, and frame byte 16 .. 19 lie in
 *   beat 16 / W. The shape (native with or without GRH, RoCEv2 over IPv4 or IPv6) comes
 *   from the first beat, as ib_hdr_parse derives it (LRH.LNH; the Ethertype), and selects
 *   the variant bits of ib_hdr_mask, ORed into the first beats for the ICRC engines.
 *   For a frame the parser accepts, this is the byte range, shape and masks of the
 *   model's check. For any other frame the result is still one per frame (the engine
 *   discards it): the CRC stops at the first beat that reaches the header's end, or at
 *   the frame's last beat, whichever comes first.
 *   m_rx: bytes end .. end + 5 of the frame, the received ICRC field at [31:0] (first
 *   byte at [7:0]) and, native, the VCRC field at [47:32]. The VCRC result covers the
 *   frame up to the ICRC field; the engine extends it by the field (ib_vcrc_extend4).
 *
 * Interface / handshake
 *   in_*: the input beats as the engine accepts them (valid only: no back-pressure);
 *   in_user (the link: 0 native, 1 RoCEv2) is read on a frame's first beat.
 *   m_*: a first-word-fall-through FIFO of results, popped with m_ready. It holds DEPTH
 *   results and is never pushed while full as long as the caller keeps at most DEPTH
 *   frames between their last input beat and their pop (ibsec_engine: KR_DEPTH).
 *
 * Latency / throughput
 *   One beat per clock at every LANES, frames back to back. A frame's result is at the
 *   FIFO's head 4 + ICRC_LATENCY cycles (LANES = 1: 11, 4: 13, 12: 15) after the input
 *   beat holding the last byte before its ICRC field, provided its last beat has come
 *   (the received fields are complete with it). Two register stages before the CRC
 *   engines: S1 learns the shape and the covered end from the header fields and computes
 *   the end's distance from the beat (one adder from a field or a register); S2 decides
 *   from that distance the beat's covered bytes and picks the received fields. Behind
 *   them the result FIFOs are written from registers: the CRC engines' results and the
 *   received fields each pass one more register, so that neither the engines' last
 *   combining nor S2's field select reaches the FIFOs' memory. (With S1 and S2 in one
 *   stage it routed at 60.9 MHz, 27 levels, docs/fpga.md.)
 *
 * Byte order
 *   AXI4-Stream: byte j of a beat at [8*j +: 8].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Receive-side CRC check during arrival
 */
module ibsec_rx_check #(
    // 128-bit lanes per beat (ibsec uses 1, 4, 12)
    parameter LANES = 1,
    // results held (a power of two)
    parameter DEPTH = 32
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * Input beats (as the engine accepts them)
     */
    input  wire                 in_valid,
    input  wire [128*LANES-1:0] in_data,
    input  wire                 in_last,
    input  wire                 in_user,

    /*
     * Results, one per frame (FIFO head)
     */
    output wire                 m_valid,
    input  wire                 m_ready,
    output wire [31:0]          m_icrc0,   // ICRC, MASK_MF clear
    output wire [31:0]          m_icrc1,   // ICRC, MASK_MF set (native GRH: the Marking Field)
    output wire [15:0]          m_vcrc,    // VCRC of the bytes before the ICRC field
    output wire [47:0]          m_rx       // received ICRC field [31:0], VCRC field [47:32]
);

// ----------------------------------------------------------------------------
// Constants
// ----------------------------------------------------------------------------
localparam W  = 16 * LANES;
localparam DW = 8 * W;
localparam NW = $clog2(W + 1);
// byte positions within a frame: 17 bits cover a RoCEv2 IP end (14 + 40 + 65535) and
// saturate beyond, where no covered byte lies
localparam PW = 17;
localparam [PW-1:0] POS_MAX = {PW{1'b1}};
localparam [PW-1:0] POS_W   = W[PW-1:0];
// a byte distance within a frame, signed
localparam OW = PW + 1;
// the variant masks cover frame bytes 0 .. MASK_BYTES - 1 (ib_hdr_mask's HDR_BYTES; its
// variant bits end at byte 66), in MASK_BEATS beats
localparam MASK_BYTES = 128;
localparam MASK_BEATS = (MASK_BYTES + W - 1) / W;
localparam MASK_PAD   = MASK_BEATS * W;
localparam BW         = $clog2(MASK_BEATS + 1);
localparam [BW-1:0] MASK_BEATS_B = MASK_BEATS[BW-1:0];
// the beat that holds frame bytes 16 .. 19 (the RoCEv2 IP length fields), their offset
// in it, and the frame byte the beat starts at
localparam IPLEN_BEAT = 16 / W;
localparam IPLEN_OFF  = 16 % W;
localparam IPLEN_POS_I = IPLEN_BEAT * W;
localparam [PW-1:0] IPLEN_POS = IPLEN_POS_I[PW-1:0];

`include "ibsec_enums.vh"   // R_* (reasons), M_* (modes), SHAPE_*
// LRH.LNH = 3: a GRH follows the LRH (IBA §7.7.5)
localparam [1:0] LNH_GRH = 2'd3;
// Ethertype of IPv6 (RoCEv2 Annex A17.4); any other Ethertype is judged as IPv4, as
// ib_hdr_parse does (the parser rejects it)
localparam [15:0] ETHERTYPE_IPV6 = 16'h86dd;
// RoCEv2: the ICRC field (4 bytes) starts at the IP end - 4, the IP end counted from the
// frame start: IPv4 total length + 14 (Ethernet) - 4, IPv6 payload length (which leaves
// the 40-byte fixed header out) + 14 + 40 - 4; and the field's distance from the beat
// holding the length fields (two's complement in OW bits)
localparam ICRC_LEN = 4;
localparam MAC_LEN  = 14;
localparam IPV6_LEN = 40;
localparam V4_END_I = MAC_LEN - ICRC_LEN;
localparam V6_END_I = MAC_LEN + IPV6_LEN - ICRC_LEN;
localparam [PW-1:0] V4_END = V4_END_I[PW-1:0];
localparam [PW-1:0] V6_END = V6_END_I[PW-1:0];
localparam V4_OFF_I = V4_END_I - IPLEN_POS_I;
localparam V6_OFF_I = V6_END_I - IPLEN_POS_I;
localparam [OW-1:0] V4_OFF = V4_OFF_I[OW-1:0];
localparam [OW-1:0] V6_OFF = V6_OFF_I[OW-1:0];
localparam [OW-1:0] OFF_W  = W[OW-1:0];

// ----------------------------------------------------------------------------
// Input register (S1) and frame state
// ----------------------------------------------------------------------------
reg              s1_valid_reg = 1'b0;
reg  [DW-1:0]    s1_data_reg;
reg              s1_last_reg;
reg              s1_first_reg;
reg              s1_user_reg;
reg  [PW-1:0]    s1_pos_reg;                  // frame byte of the beat's byte 0
reg  [BW-1:0]    s1_beat_reg;                 // beat index, saturated at MASK_BEATS
// the input side: inside a frame (the next beat is not a first beat), and its position
reg              in_frame_reg = 1'b0;
reg  [PW-1:0]    in_pos_reg;
reg  [BW-1:0]    in_beat_reg;
// the frame in S1: link, shape, covered end (once known)
reg              f_link_reg;
reg  [1:0]       f_shape_reg;
reg  [PW-1:0]    f_end_reg;
reg              f_known_reg;

wire             in_first = !in_frame_reg;

always @(posedge clk) begin
    s1_valid_reg <= in_valid;
    if (in_valid) begin
        s1_data_reg  <= in_data;
        s1_last_reg  <= in_last;
        s1_first_reg <= in_first;
        s1_user_reg  <= in_user;
        s1_pos_reg   <= in_first ? {PW{1'b0}} : in_pos_reg;
        s1_beat_reg  <= in_first ? {BW{1'b0}} : in_beat_reg;
        in_frame_reg <= !in_last;
        // position of the next beat: saturated, so that an over-long frame never wraps
        // onto the covered bytes
        if (in_first)
            in_pos_reg <= POS_W;
        else if (in_pos_reg <= POS_MAX - POS_W)
            in_pos_reg <= in_pos_reg + POS_W;
        else
            in_pos_reg <= POS_MAX;
        if (in_first)
            in_beat_reg <= {{(BW-1){1'b0}}, 1'b1};
        else if (in_beat_reg != MASK_BEATS_B)
            in_beat_reg <= in_beat_reg + 1'b1;
    end
    if (rst) begin
        s1_valid_reg <= 1'b0;
        in_frame_reg <= 1'b0;
    end
end

// ----------------------------------------------------------------------------
// S1: the beat's shape, covered end and CRC input
// ----------------------------------------------------------------------------
function [7:0] byte_at;
    input [DW-1:0] d;
    input integer  k;
    begin
        byte_at = d[8*k +: 8];
    end
endfunction

wire         link = s1_first_reg ? s1_user_reg : f_link_reg;
// ib_hdr_parse's shape: LRH.LNH (byte 1 bits 1:0), the Ethertype (bytes 12-13)
wire [1:0]   first_shape = !s1_user_reg
                 ? ((byte_at(s1_data_reg, 1) & 8'h03) == {6'd0, LNH_GRH} ? SHAPE_IB_GLOBAL
                                                                         : SHAPE_IB_LOCAL)
                 : ({byte_at(s1_data_reg, 12), byte_at(s1_data_reg, 13)} == ETHERTYPE_IPV6
                    ? SHAPE_ROCE_V6 : SHAPE_ROCE_V4);
wire [1:0]   shape = s1_first_reg ? first_shape : f_shape_reg;

// The covered end, once known: native, the ICRC field starts at 4 * PktLen - 4 (LRH
// bytes 4-5 bits 10:0 = PktLen in 4-byte words from the LRH through the ICRC; 0 for a
// PktLen of 0); RoCEv2, 4 bytes before the IP end (frame bytes 16-17 IPv4 total length
// + 14; 18-19 IPv6 payload length + 54). In S1 only the end and its distance from the
// beat's first byte are computed (one adder each); S2 takes the decisions from them.
wire [10:0]  lrh_pktlen = {s1_data_reg[8*4 +: 3], byte_at(s1_data_reg, 5)};
wire [10:0]  pktlen_m1  = lrh_pktlen - 1'b1;
wire [PW-1:0] ib_end    = (lrh_pktlen != 11'd0) ? {{(PW-13){1'b0}}, pktlen_m1, 2'b00}
                                                : {PW{1'b0}};
wire [15:0]  ip4_total  = {byte_at(s1_data_reg, IPLEN_OFF), byte_at(s1_data_reg, IPLEN_OFF + 1)};
wire [15:0]  ip6_paylen = {byte_at(s1_data_reg, IPLEN_OFF + 2), byte_at(s1_data_reg, IPLEN_OFF + 3)};
wire         is_v6      = (shape == SHAPE_ROCE_V6);
wire [PW-1:0] roce_end  = is_v6 ? {1'b0, ip6_paylen} + V6_END : {1'b0, ip4_total} + V4_END;
// the end's distance from this beat's byte 0 (OW bits, two's complement): the beat that
// learns the end is at a known position (native: 0; RoCEv2: IPLEN_POS), so its distance
// is one adder from the header field as well
wire [OW-1:0] roce_off  = is_v6 ? {2'b00, ip6_paylen} + V6_OFF : {2'b00, ip4_total} + V4_OFF;
wire         ib_learn   = s1_first_reg && !link;
wire         roce_learn = link && (s1_pos_reg == IPLEN_POS);
wire         known      = ib_learn || roce_learn || (!s1_first_reg && f_known_reg);
wire [PW-1:0] cov_end   = ib_learn ? ib_end : roce_learn ? roce_end : f_end_reg;
wire [OW-1:0] cov_off   = ib_learn ? {1'b0, ib_end} : roce_learn ? roce_off
                                   : {1'b0, f_end_reg} - {1'b0, s1_pos_reg};

always @(posedge clk) begin
    if (s1_valid_reg) begin
        f_link_reg  <= link;
        f_shape_reg <= shape;
        f_end_reg   <= cov_end;
        f_known_reg <= known;
    end
end

// ----------------------------------------------------------------------------
// S2: the beat's covered bytes and received fields, the CRC input
// ----------------------------------------------------------------------------
reg              s2_valid_reg = 1'b0;
reg  [DW-1:0]    s2_data_reg;
reg              s2_last_reg;
reg              s2_first_reg;
reg              s2_link_reg;
reg  [1:0]       s2_shape_reg;
reg  [BW-1:0]    s2_beat_reg;
reg              s2_known_reg;
reg  [OW-1:0]    s2_off_reg;                  // covered end - the beat's first byte
// the frame in S2: done (its last covered beat has gone to the CRC engines), received
// fields so far
reg              g_done_reg;
reg  [47:0]      g_rx_reg;

always @(posedge clk) begin
    s2_valid_reg <= s1_valid_reg;
    if (s1_valid_reg) begin
        s2_data_reg  <= s1_data_reg;
        s2_last_reg  <= s1_last_reg;
        s2_first_reg <= s1_first_reg;
        s2_link_reg  <= link;
        s2_shape_reg <= shape;
        s2_beat_reg  <= s1_beat_reg;
        s2_known_reg <= known;
        s2_off_reg   <= cov_off;
    end
    if (rst) begin
        s2_valid_reg <= 1'b0;
    end
end

// the last covered beat holds byte cov_end - 1 (0 < off <= W); a header end already
// passed (a frame the parser rejects) or the frame's last beat stops the CRC with the
// whole beat
wire         off_neg     = s2_off_reg[OW-1];
wire         off_zero    = (s2_off_reg == {OW{1'b0}});
wire         done_before = !s2_first_reg && g_done_reg;
wire         end_in_beat = s2_known_reg && !off_neg && !off_zero && (s2_off_reg <= OFF_W);
wire         end_passed  = s2_known_reg && (off_neg || off_zero);
wire         feed        = s2_valid_reg && !done_before;
wire         crc_last    = end_in_beat || end_passed || s2_last_reg;
wire [NW-1:0] crc_end    = end_in_beat ? s2_off_reg[NW-1:0] : W[NW-1:0];

// the variant bits of the shape, without and with MASK_MF, and the beat's slice of them
/* verilator lint_off UNUSEDSIGNAL */ // only the variant bits of ib_hdr_mask are used
wire [8*MASK_BYTES-1:0] aad0, aad1;
wire [6:0]              aad_len0, aad_len1;
wire [MASK_BYTES-1:0]   var0, var1;
/* verilator lint_on UNUSEDSIGNAL */
wire [8*MASK_BYTES-1:0] ones0, ones1;
ib_hdr_mask #(.HDR_BYTES (MASK_BYTES), .AAD_BYTES (MASK_BYTES)) mask0 (
    .hdr ({8*MASK_BYTES{1'b0}}), .shape (s2_shape_reg), .hdr_len (7'd0), .mask_mf (1'b0),
    .aad (aad0), .aad_len (aad_len0), .variant (var0), .ones (ones0)
);
ib_hdr_mask #(.HDR_BYTES (MASK_BYTES), .AAD_BYTES (MASK_BYTES)) mask1 (
    .hdr ({8*MASK_BYTES{1'b0}}), .shape (s2_shape_reg), .hdr_len (7'd0), .mask_mf (1'b1),
    .aad (aad1), .aad_len (aad_len1), .variant (var1), .ones (ones1)
);
wire [8*MASK_PAD-1:0] ones0_pad = {{(8*(MASK_PAD-MASK_BYTES)){1'b0}}, ones0};
wire [8*MASK_PAD-1:0] ones1_pad = {{(8*(MASK_PAD-MASK_BYTES)){1'b0}}, ones1};
reg  [DW-1:0] beat_ones0, beat_ones1;
integer mb;
always @* begin
    beat_ones0 = {DW{1'b0}};
    beat_ones1 = {DW{1'b0}};
    for (mb = 0; mb < MASK_BEATS; mb = mb + 1)
        if (s2_beat_reg == mb[BW-1:0]) begin
            beat_ones0 = ones0_pad[DW*mb +: DW];
            beat_ones1 = ones1_pad[DW*mb +: DW];
        end
end

// the received fields: frame bytes cov_end .. cov_end + 5 that lie in this beat, at
// beat byte off + k (0 <= off + k < W)
reg  [47:0]   rx_now;
reg  [OW-1:0] rx_idx;
integer rf;
always @* begin
    rx_now = s2_first_reg ? 48'd0 : g_rx_reg;
    rx_idx = {OW{1'b0}};
    for (rf = 0; rf < 6; rf = rf + 1) begin
        rx_idx = s2_off_reg + rf[OW-1:0];
        if (s2_known_reg && !rx_idx[OW-1] && rx_idx < OFF_W)
            rx_now[8*rf +: 8] = s2_data_reg[8*rx_idx[NW-1:0] +: 8];
    end
end

always @(posedge clk) begin
    if (s2_valid_reg) begin
        g_done_reg <= done_before || crc_last;
        g_rx_reg   <= rx_now;
    end
end

// ----------------------------------------------------------------------------
// CRC engines and result FIFOs
// ----------------------------------------------------------------------------
wire        icrc0_valid, icrc1_valid, vcrc_valid;
wire [31:0] icrc0, icrc1;
wire [15:0] vcrc;

ib_icrc_engine #(.LANES (LANES)) icrc0_eng (
    .clk (clk), .rst (rst),
    .in_valid (feed), .in_first (s2_first_reg), .in_last (crc_last), .in_roce (s2_link_reg),
    .in_data (s2_data_reg | beat_ones0), .in_ones ({W{1'b0}}), .in_end (crc_end),
    .out_valid (icrc0_valid), .out_icrc (icrc0)
);
ib_icrc_engine #(.LANES (LANES)) icrc1_eng (
    .clk (clk), .rst (rst),
    .in_valid (feed), .in_first (s2_first_reg), .in_last (crc_last), .in_roce (s2_link_reg),
    .in_data (s2_data_reg | beat_ones1), .in_ones ({W{1'b0}}), .in_end (crc_end),
    .out_valid (icrc1_valid), .out_icrc (icrc1)
);
ib_vcrc_engine #(.LANES (LANES)) vcrc_eng (
    .clk (clk), .rst (rst),
    .in_valid (feed), .in_first (s2_first_reg), .in_last (crc_last),
    .in_data (s2_data_reg), .in_end (crc_end),
    .out_valid (vcrc_valid), .out_vcrc (vcrc)
);

/* verilator lint_off UNUSEDSIGNAL */
// the FIFOs are never full when pushed (DEPTH, above); the three engines have the same
// latency, so their out_valid rise together
wire                    kc_s_ready, kx_s_ready;
wire [$clog2(DEPTH):0]  kc_count, kx_count;
/* verilator lint_on UNUSEDSIGNAL */
wire                    kc_m_valid, kx_m_valid;

// the FIFO writes from registers: the CRC results (the engines' last stage: the lanes'
// CRCs combined) and the received fields (S2's field bytes, selected by the offset), each
// one cycle behind
reg                     kc_w_valid_reg = 1'b0;
reg  [79:0]             kc_w_data_reg;
reg                     kx_w_valid_reg = 1'b0;
always @(posedge clk) begin
    kc_w_valid_reg <= icrc0_valid && icrc1_valid && vcrc_valid;
    kc_w_data_reg  <= {icrc0, icrc1, vcrc};
    kx_w_valid_reg <= s2_valid_reg && s2_last_reg;
    if (rst) begin
        kc_w_valid_reg <= 1'b0;
        kx_w_valid_reg <= 1'b0;
    end
end

sync_fifo #(.WIDTH (80), .DEPTH (DEPTH), .OUT_REG (1)) kc (
    .clk (clk), .rst (rst),
    .s_valid (kc_w_valid_reg), .s_ready (kc_s_ready), .s_data (kc_w_data_reg),
    .m_valid (kc_m_valid), .m_ready (m_ready && m_valid), .m_data ({m_icrc0, m_icrc1, m_vcrc}),
    .count (kc_count)
);
// (g_rx_reg holds the frame's fields after its last beat: S2 registers rx_now there)
sync_fifo #(.WIDTH (48), .DEPTH (DEPTH), .OUT_REG (1)) kx (
    .clk (clk), .rst (rst),
    .s_valid (kx_w_valid_reg), .s_ready (kx_s_ready), .s_data (g_rx_reg),
    .m_valid (kx_m_valid), .m_ready (m_ready && m_valid), .m_data (m_rx), .count (kx_count)
);
assign m_valid = kc_m_valid && kx_m_valid;

endmodule

`resetall
