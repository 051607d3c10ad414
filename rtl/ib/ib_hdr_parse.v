/*
 * ib_hdr_parse — header checks of the packet engine before the context lookup: every
 * check that the C model makes up to that point, in the model's order, with the model's
 * reason codes (enum ibsec_reason of cmodel/ibsec.h).
 *
 * Function
 *   is_open = 0 (seal, docs/wire-format.md §7 steps 1-2): the plain packet is parsed as
 *     ibsec_frame_parse(buf, frame_len, link, 0) does (cmodel/ib_pkt.c, in wire order:
 *     fixed headers and their constant fields, BTH TVer and OpCode, room for the ETHs and
 *     CRCs, the length fields outermost first, the data region), then BTH byte 8 bits 6:0
 *     must be zero (bad_secmode).
 *   is_open = 1 (open, §8 steps 1-3): the BTH is located (ibsec_pkt_find_bth: the same
 *     checks of the headers before it and room for the BTH), byte 8 is decoded
 *     (bad_secmode for a reserved combination, sth_size_unsupported for STHSZ 3..7), and
 *     the packet is parsed with the STH length of STHSZ and the PN bit (12 or 16 bytes,
 *     plus the 12-byte SecTAG SSCI || PN when bit 5 is set: 24 or 28; wire-format.md §2).
 *   reason is the first check that fails (0 = ok). The other outputs are defined when
 *   reason = 0 (mode: see its port comment).
 *
 *   Frame length: frame_len counts every byte of the frame, Ethernet padding included.
 *   A RoCEv2 frame of exactly 60 bytes may end after the packet (802.3 minimum frame);
 *   pkt_end is then the end of the packet, as the model's re-parse of the frame gives.
 *   LEN_W: frame_len must be the exact frame length when it fits. A longer frame is
 *   presented saturated (all ones). With LEN_W = 17 (saturation at 2^17 - 1) the result
 *   is then exact for every frame: the longest RoCEv2 packet an IP length field can
 *   describe ends at byte 14 + 65535, and native PktLen reaches 8190 bytes at most. With
 *   the default LEN_W = 13 (saturation at 8191) it is exact for every native frame and
 *   for every RoCEv2 frame except those of 8191 bytes or more whose IP length ends the
 *   packet at byte 8191 or exactly at the frame's real end (there the real length
 *   decides between bad_ip_len and the later checks, which 8191 cannot tell). verif/hdr
 *   checks both statements on frames up to 140000 bytes.
 *
 *   Bytes at positions >= frame_len are never looked at: each check reads a header only
 *   after the check that it is present, as the model does. The parser reads at most the
 *   first READ_BYTES = 74 bytes (RoCEv2 over IPv6 up to the end of the BTH).
 *
 * Byte order
 *   Byte i of the frame is hdr[8*i+7 : 8*i] (AXI4-Stream order, docs/conventions.md);
 *   multi-byte fields are big-endian on the wire, bit 7 of a byte its MSB.
 *
 * Latency / throughput
 *   4 cycles (the latency), one header per clock: a header presented with in_valid in cycle t
 *   (hdr, frame_len, link, is_open held for that cycle only) has its verdict and fields
 *   on the outputs, with out_valid, in cycle t + 4. The pipeline never stalls (no
 *   enable): a caller that can be back-pressured admits a header only when it has room
 *   for every header in flight (ibsec_parse), or has a FIFO that cannot fill (the late
 *   parse of ibsec_ingress). Every output comes from a register. The stages, each about
 *   four LUT levels deep (make depth-check, run ib_hdr_parse:0:parse):
 *     1  from the ports: the shape, the 12 BTH bytes picked from the four offsets (and
 *        the STH length's table index from byte 8), every constant-field compare, the
 *        frame length against each header end, the IP and UDP length fields plus their
 *        constants, and the IPv4 checksum as three sums of three words (the checksum
 *        word and a zero flag per group registered beside them).
 *     2  the OpCode table and BTH byte 8 decoded; the length constants of {shape, STH
 *        length} looked up into registers (a five-bit index), beside the packet's and
 *        the frame's end less the table's ETH length and the packet's end less ETH and
 *        PadCnt, so that every length check of stage 3 is one compare of two registers
 *        and no adder lies behind a table lookup (ABC maps such a lookup, shared by
 *        sums, into long LUT chains in a whole engine); the sum of the ten IPv4 header
 *        words; the locate chain of reasons in three short pieces (native; RoCEv2
 *        before the checksum check; after it); the IP end against the frame length for
 *        both IP versions.
 *     3  the checksum judged from the ten-word sum; each length check as one compare;
 *        the locate chain joined (the checksum taken as good), then BTH byte 8 (open),
 *        TVer and OpCode behind it; payload + pad and the header length.
 *     4  the checksum's reason in front when its check is reached and fails, then the
 *        chain of stage 3, the rest of the body's checks and (seal) BTH byte 8 into
 *        reason; mode.
 *   The IPv4 checksum: the header is valid iff csum == ~fold(S), S the sum of the other
 *   nine words and fold the RFC 1071 end-around-carry fold. With T = S + csum: for S = 0
 *   that is csum = 0xFFFF; for S > 0 it is csum != 0xFFFF and T = 0 mod 0xFFFF, which
 *   for 0 < T < 2^20 holds iff T[15:0] = 0xFFFF - T[19:16].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Packet header parser and checker
 */
module ib_hdr_parse #(
    // bytes of the frame visible in hdr (at least READ_BYTES)
    parameter HDR_BYTES = 128,
    // width of frame_len (13 by default; 17 makes every over-long frame exact)
    parameter LEN_W = 13
) (
    input  wire                   clk,
    input  wire                   rst,

    /*
     * Frame (sampled in the cycle in_valid is high)
     */
    input  wire                   in_valid,     // a header to parse in this cycle
    // The parser reads only the fields it checks; the other bytes of the window
    // (addresses, ETHs, payload) are for the caller.
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [8*HDR_BYTES-1:0] hdr,          // frame bytes 0..HDR_BYTES-1
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [LEN_W-1:0]       frame_len,    // bytes in the frame, Ethernet padding included
    input  wire                   link,         // 0 native IBA (starts at the LRH), 1 RoCEv2
    input  wire                   is_open,      // 1: open steps 1-3; 0: seal steps 1-2

    /*
     * Verdict and fields, 4 cycles after the header
     */
    output wire                   out_valid,    // the outputs hold a header's results
    output wire [5:0]             reason,       // first failing check (enum ibsec_reason), 0 ok
    output wire [1:0]             shape,        // enum ibsec_shape
    output wire [6:0]             bth_off,      // offset of the BTH
    output wire [6:0]             hdr_len,      // bytes from frame byte 0 through the last ETH
    output wire [6:0]             sth_len,      // open: 0, 12, 16, 24 or 28 from STHSZ and PN; seal: 0
    output wire [12:0]            pp_len,       // payload + pad bytes (after the STH)
    output wire [12:0]            pkt_end,      // packet length (frame_len minus padding)
    output wire [7:0]             opcode,       // BTH OpCode
    output wire [1:0]             padcnt,       // BTH PadCnt
    output wire [15:0]            pkey,         // BTH P_Key
    output wire [23:0]            destqp,       // BTH DestQP
    output wire [23:0]            psn,          // BTH PSN
    output wire [1:0]             secmode,      // BTH byte 8 bits 4:3
    output wire [2:0]             sthsz,        // BTH byte 8 bits 2:0
    output wire                   kp,           // BTH byte 8 bit 6: the key phase (open)
    output wire                   pn,           // BTH byte 8 bit 5: the pn nonce's SecTAG (open)
    // open: the mode BTH byte 8 names (enum ibsec_mode), as the model's verdict reports it:
    // nonzero only when the BTH was located and byte 8 is a defined combination (also
    // with sth_size_unsupported and with later parse errors); seal: 0
    output wire [2:0]             mode
);

// ---------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------

// bytes the parser reads: Ethernet 14 + IPv6 40 + UDP 8 + BTH 12
localparam READ_BYTES = 74;
// internal length width: frame_len, and the end of a RoCEv2 packet (14 + 65535 < 2^17)
localparam CW = (LEN_W > 17 ? LEN_W : 17) + 1;
// signed width of the length constants and the packet end they are compared with
localparam SW = CW + 2;

`include "ibsec_enums.vh"   // R_* (reasons), M_* (modes), SHAPE_*

// header lengths and offsets (IBA Vol. 1 §7.7, §8.3, §9.2; RFC 791, 8200, 768; IEEE 802.3)
localparam LRH_LEN   = 8;
localparam GRH_LEN   = 40;
localparam BTH_LEN   = 12;
localparam MAC_LEN   = 14;        // Ethernet header without VLAN tag
localparam IPV4_LEN  = 20;        // IHL = 5, no options
localparam IPV6_LEN  = 40;
localparam UDP_LEN   = 8;
localparam ICRC_LEN  = 4;         // §7.8.1
localparam VCRC_LEN  = 2;         // §7.8.2
localparam STH96_LEN  = 12;       // STHSZ 1: 96-bit MAC (wire-format.md §2)
localparam STH128_LEN = 16;       // STHSZ 2: 128-bit MAC
localparam SECTAG_LEN = 12;       // PN bit: SSCI (4) || PN (8) in front of the tag
localparam       ROCE_MIN_FRAME = 60;      // 802.3 minimum frame without FCS
localparam       MAX_PAYLOAD    = 4096;    // largest IBA MTU, payload bytes without pad
localparam       CNP_PAYLOAD    = 16;      // Annex A17.9: 16 reserved bytes after the BTH

// header ends the frame length is checked against (offset + length of each header)
localparam V4_UDP_OFF = MAC_LEN + IPV4_LEN;             // 34
localparam V6_UDP_OFF = MAC_LEN + IPV6_LEN;             // 54
localparam END_LRH    = LRH_LEN;                        // 8
localparam END_GRH    = LRH_LEN + GRH_LEN;              // 48
localparam END_MAC    = MAC_LEN;                        // 14
localparam END_IPV4   = MAC_LEN + IPV4_LEN;             // 34
localparam END_IPV6   = MAC_LEN + IPV6_LEN;             // 54
localparam END_UDP4   = V4_UDP_OFF + UDP_LEN;           // 42
localparam END_UDP6   = V6_UDP_OFF + UDP_LEN;           // 62
localparam END_BTH_L  = LRH_LEN + BTH_LEN;              // 20
localparam END_BTH_G  = LRH_LEN + GRH_LEN + BTH_LEN;    // 60
// (the RoCEv2 over IPv4 BTH ends at END_UDP4 + BTH_LEN = 54 = END_IPV6)
localparam END_BTH_6  = END_UDP6 + BTH_LEN;             // 74
// native: GRH PayLen counts BTH..ICRC, the frame adds the LRH, the GRH and the VCRC
localparam GRH_PAY_BASE = VCRC_LEN + LRH_LEN + GRH_LEN; // 50
// RoCEv2: the IP length field's end is field + 14 (IPv4 Total Length) or + 54 (IPv6
// Payload Length); the UDP Length must equal the IP end minus the UDP offset, i.e.
// IPv4 Total Length - 20 or the IPv6 Payload Length itself
localparam IP4_BASE = MAC_LEN;                          // 14
localparam IP6_BASE = MAC_LEN + IPV6_LEN;               // 54

// constant fields
localparam [3:0]  LRH_LVER         = 4'd0;      // §7.7.3
localparam [3:0]  GRH_IPVER        = 4'd6;      // §8.3.1
localparam [7:0]  GRH_NXTHDR_IBA   = 8'h1B;     // §8.3.6
localparam [15:0] ETHERTYPE_IPV4   = 16'h0800;  // Annex A17.4
localparam [15:0] ETHERTYPE_IPV6   = 16'h86DD;
localparam [3:0]  IPV4_VERSION     = 4'd4;
localparam [3:0]  IPV4_IHL         = 4'd5;      // 20-byte header in 32-bit words
localparam [3:0]  IPV6_VERSION     = 4'd6;
localparam [7:0]  IPPROTO_UDP      = 8'd17;
localparam [15:0] ROCEV2_UDP_PORT  = 16'd4791;  // Annex A17.4.2
localparam [3:0]  BTH_TVER         = 4'd0;      // §9.2.4

generate
    if (HDR_BYTES < READ_BYTES) begin : g_bad_param
        initial begin
            $error("ib_hdr_parse: HDR_BYTES = %0d, must be at least %0d", HDR_BYTES, READ_BYTES);
            $finish;
        end
    end
endgenerate

// ---------------------------------------------------------------------------------------
// Length constants of {shape, STH length, PadCnt} (stage 2's tables)
// ---------------------------------------------------------------------------------------

// Every room check is a compare of the packet's end (the frame length, native; the IP
// length field, RoCEv2) less the OpCode table's ETH length with a constant of the shape,
// the STH length and PadCnt. fixed_len is the part of the smallest packet known without
// the opcode (BTH offset and length, STH, ICRC and VCRC).
function integer bth_off_of(input [1:0] shp);
    bth_off_of = (shp == SHAPE_IB_LOCAL)  ? LRH_LEN :
                 (shp == SHAPE_IB_GLOBAL) ? LRH_LEN + GRH_LEN :
                 (shp == SHAPE_ROCE_V4)   ? MAC_LEN + IPV4_LEN + UDP_LEN :
                                            MAC_LEN + IPV6_LEN + UDP_LEN;
endfunction
// bytes the IP length field does not count: RoCEv2 ip_end = field + ip_base_of
function integer ip_base_of(input [1:0] shp);
    ip_base_of = (shp == SHAPE_ROCE_V4) ? MAC_LEN :
                 (shp == SHAPE_ROCE_V6) ? MAC_LEN + IPV6_LEN : 0;
endfunction
// the STH length of a table index sth_sel (below)
function integer sth_len_of(input [2:0] sth);
    sth_len_of = (sth == 3'd1) ? STH96_LEN : (sth == 3'd2) ? STH128_LEN :
                 (sth == 3'd3) ? STH96_LEN + SECTAG_LEN :
                 (sth == 3'd4) ? STH128_LEN + SECTAG_LEN : 0;
endfunction
function integer fixed_of(input [1:0] shp, input [2:0] sth);
    fixed_of = bth_off_of(shp) + BTH_LEN + sth_len_of(sth)
             + ((shp == SHAPE_ROCE_V4 || shp == SHAPE_ROCE_V6) ? ICRC_LEN : ICRC_LEN + VCRC_LEN);
endfunction

// index {shape, sth_sel} (five bits, so each bit of a constant is one LUT5); entries with
// sth_sel = 5..7 are never selected. PadCnt is not in the index: it is taken off the end
// with the ETH length (stage 2), as the payload checks count it.
localparam integer LONG_K = MAX_PAYLOAD + 1;
localparam integer CNP_K  = CNP_PAYLOAD;
wire [6:0]           fixed_tab   [0:31];  // fixed_len
wire signed [SW-1:0] k_data_tab  [0:31];  // fixed_len - ip base: end - ETH - k_data = data_len
// end - ETH - PadCnt - k_long = payload_len - (MAX_PAYLOAD + 1),
// end - ETH - PadCnt - k_cnp = payload_len - CNP_PAYLOAD
wire signed [SW-1:0] k_long_tab  [0:31];  // k_data + MAX_PAYLOAD + 1
wire signed [SW-1:0] k_cnp_tab   [0:31];  // k_data + the CNP payload
genvar gi;
generate
    for (gi = 0; gi < 32; gi = gi + 1) begin : g_len_tab
        localparam [4:0]   IDX = gi;
        localparam [1:0]   SHP = IDX[4:3];
        localparam [2:0]   STH = IDX[2:0];
        localparam integer FIX = fixed_of(SHP, STH);
        localparam integer KD  = FIX - ip_base_of(SHP);
        assign fixed_tab[gi]  = FIX[6:0];
        assign k_data_tab[gi] = KD[SW-1:0];
        assign k_long_tab[gi] = KD[SW-1:0] + LONG_K[SW-1:0];
        assign k_cnp_tab[gi]  = KD[SW-1:0] + CNP_K[SW-1:0];
    end
endgenerate

// =======================================================================================
// Stage 1: from the ports
// =======================================================================================

wire [7:0] b [0:READ_BYTES-1];
generate
    for (gi = 0; gi < READ_BYTES; gi = gi + 1) begin : g_byte
        assign b[gi] = hdr[8*gi +: 8];
    end
endgenerate

wire [CW-1:0] flen = {{(CW-LEN_W){1'b0}}, frame_len};

// native IBA: LRH at 0 (§7.7), GRH at 8 (§8.3)
wire [3:0]  lrh_lver   = b[0][3:0];
wire [1:0]  lrh_lnh    = b[1][1:0];                 // 0 raw, 1 IP, 2 BTH next, 3 GRH next
wire [10:0] lrh_pktlen = {b[4][2:0], b[5]};         // bytes 4-5 bits 10:0 (Resv5 above)
wire        has_grh    = (lrh_lnh == 2'd3);
wire [3:0]  grh_ipver  = b[8][7:4];
wire [15:0] grh_paylen = {b[12], b[13]};
wire [7:0]  grh_nxthdr = b[14];

// RoCEv2: Ethernet at 0, IPv4 / IPv6 at 14, UDP at 34 / 54 (Annex A17.4)
wire [15:0] ethertype  = {b[12], b[13]};
wire        is_v4      = (ethertype == ETHERTYPE_IPV4);
wire        is_v6      = (ethertype == ETHERTYPE_IPV6);
wire [3:0]  ip_version = b[14][7:4];                // IPv4 and IPv6 alike
wire [3:0]  ip4_ihl    = b[14][3:0];
wire [15:0] ip4_total  = {b[16], b[17]};
wire        ip4_mf     = b[20][5];                  // flags (bits 7:5) bit 0 = MF
wire [12:0] ip4_frag   = {b[20][4:0], b[21]};
wire [7:0]  ip4_proto  = b[23];
wire [15:0] ip4_csum   = {b[24], b[25]};
wire [15:0] ip6_paylen = {b[18], b[19]};
wire [7:0]  ip6_nxthdr = b[20];
// UDP destination port and length (bytes 2-3, 4-5 of the UDP header)
wire [15:0] udp4_dport = {b[36], b[37]};
wire [15:0] udp6_dport = {b[56], b[57]};
wire [15:0] udp4_len   = {b[38], b[39]};
wire [15:0] udp6_len   = {b[58], b[59]};

wire [1:0]  shape_c = !link ? (has_grh ? SHAPE_IB_GLOBAL : SHAPE_IB_LOCAL)
                            : (is_v6 ? SHAPE_ROCE_V6 : SHAPE_ROCE_V4);

// the 12 BTH bytes, picked from the four possible offsets (§9.2)
reg [8*BTH_LEN-1:0] bth_c;
integer k;
always @* begin
    for (k = 0; k < BTH_LEN; k = k + 1) begin
        if (!link)
            bth_c[8*k +: 8] = has_grh ? b[LRH_LEN + GRH_LEN + k] : b[LRH_LEN + k];
        else
            bth_c[8*k +: 8] = is_v6 ? b[END_UDP6 + k] : b[END_UDP4 + k];
    end
end

// the STH length as a table index (0 none, 1 STHSZ 1, 2 STHSZ 2, 3 and 4 the same with
// the PN bit's SecTAG; seal: 0), from BTH byte 8 bits 5 (PN) and 2:0 (STHSZ) at each of
// the four offsets, picked as the BTH bytes are (so that stage 2's length tables index
// registers only)
function [2:0] sth_sel_of(input open, input pnb, input [2:0] stsz);
    sth_sel_of = !open ? 3'd0 : (stsz == 3'd1) ? (pnb ? 3'd3 : 3'd1) :
                 (stsz == 3'd2) ? (pnb ? 3'd4 : 3'd2) : 3'd0;
endfunction
localparam BYTE8 = 8;                                   // BTH byte 8 (wire-format.md §2)
localparam PN_BIT = 5;                                  // its PN bit
wire [7:0] byte8_l = b[LRH_LEN + BYTE8];
wire [7:0] byte8_g = b[LRH_LEN + GRH_LEN + BYTE8];
wire [7:0] byte8_6 = b[END_UDP6 + BYTE8];
wire [7:0] byte8_4 = b[END_UDP4 + BYTE8];
wire [2:0] sth_sel_c = !link ? (has_grh ? sth_sel_of(is_open, byte8_g[PN_BIT], byte8_g[2:0])
                                        : sth_sel_of(is_open, byte8_l[PN_BIT], byte8_l[2:0]))
                             : (is_v6   ? sth_sel_of(is_open, byte8_6[PN_BIT], byte8_6[2:0])
                                        : sth_sel_of(is_open, byte8_4[PN_BIT], byte8_4[2:0]));

// the end the room lengths count from: the frame length (native), the IP length field
// (RoCEv2; its base is in the k_*_tab constants)
wire [15:0]          ip_field = is_v6 ? ip6_paylen : ip4_total;
wire signed [SW-1:0] src_c    = link ? $signed({{(SW-16){1'b0}}, ip_field})
                                     : $signed({2'b00, flen});

// RFC 791 / RFC 1071 header checksum: the ten 16-bit words of the IPv4 header, summed
// in stages 1 and 2; stage 1 sums three groups of three (the checksum word, bytes
// 10-11, is the tenth) and notes which groups are zero
wire [15:0] w14 = {b[14], b[15]};
wire [15:0] w16 = {b[16], b[17]};
wire [15:0] w18 = {b[18], b[19]};
wire [15:0] w20 = {b[20], b[21]};
wire [15:0] w22 = {b[22], b[23]};
wire [15:0] w26 = {b[26], b[27]};
wire [15:0] w28 = {b[28], b[29]};
wire [15:0] w30 = {b[30], b[31]};
wire [15:0] w32 = {b[32], b[33]};

// stage 1 registers
reg                  v1_reg = 1'b0;
reg                  link1, open1, has_grh1, is_v4_1, is_v6_1;
reg  [CW-1:0]        flen1;
reg  [1:0]           shape1;
reg  [8*BTH_LEN-1:0] bth1;
reg  [2:0]           sth_sel1;
reg  signed [SW-1:0] src1;
// locate checks
reg                  lt8_1, lt48_1, lt14_1, lt34_1, lt54_1, lt42_1, lt62_1, lt20_1, lt60_1,
                     lt74_1, eq60_1;
reg                  lnh_bad1, lver_bad1, grh_ipver_bad1, grh_nxthdr_bad1;
reg                  ipver4_bad1, ipver6_bad1, ihl_bad1, frag1, proto4_bad1, proto6_bad1,
                     dport4_bad1, dport6_bad1;
// length fields
reg                  pktlen_bad1, udp6_bad1;
reg  [CW-1:0]        grh_end1, ip4_end1, ip6_end1;
reg  [16:0]          udp4_end1;          // UDP Length + 20: must equal IPv4 Total Length
reg  [15:0]          ip4_total1;
// checksum
reg  [17:0]          cs_a1, cs_b1, cs_c1;
reg  [15:0]          csum1;
reg                  cs_zero_a1, cs_zero_b1, cs_zero_c1;   // each group of three is zero
reg                  csum_ones1;         // the checksum word is 0xFFFF

always @(posedge clk) begin
    link1    <= link;
    open1    <= is_open;
    has_grh1 <= has_grh;
    is_v4_1  <= is_v4;
    is_v6_1  <= is_v6;
    flen1    <= flen;
    shape1   <= shape_c;
    bth1     <= bth_c;
    sth_sel1 <= sth_sel_c;
    src1     <= src_c;

    lt8_1  <= flen < END_LRH;
    lt48_1 <= flen < END_GRH;
    lt14_1 <= flen < END_MAC;
    lt34_1 <= flen < END_IPV4;
    lt54_1 <= flen < END_IPV6;        // also the RoCEv2 over IPv4 BTH end (42 + 12)
    lt42_1 <= flen < END_UDP4;
    lt62_1 <= flen < END_UDP6;
    lt20_1 <= flen < END_BTH_L;
    lt60_1 <= flen < END_BTH_G;
    lt74_1 <= flen < END_BTH_6;
    eq60_1 <= flen == ROCE_MIN_FRAME;

    lnh_bad1        <= lrh_lnh[1] == 1'b0;
    lver_bad1       <= lrh_lver != LRH_LVER;
    grh_ipver_bad1  <= grh_ipver != GRH_IPVER;
    grh_nxthdr_bad1 <= grh_nxthdr != GRH_NXTHDR_IBA;
    ipver4_bad1     <= ip_version != IPV4_VERSION;
    ipver6_bad1     <= ip_version != IPV6_VERSION;
    ihl_bad1        <= ip4_ihl != IPV4_IHL;
    frag1           <= ip4_mf || ip4_frag != 13'd0;
    proto4_bad1     <= ip4_proto != IPPROTO_UDP;
    proto6_bad1     <= ip6_nxthdr != IPPROTO_UDP;
    dport4_bad1     <= udp4_dport != ROCEV2_UDP_PORT;
    dport6_bad1     <= udp6_dport != ROCEV2_UDP_PORT;

    // native length fields (§7.7.8 PktLen: words LRH..ICRC, + the VCRC, whose 2 bytes
    // are the low bits 10 of 4 x PktLen + 2; §8.3.5 PayLen: BTH..ICRC)
    pktlen_bad1 <= {{(CW-13){1'b0}}, lrh_pktlen, 2'b10} != flen;
    grh_end1    <= {{(CW-16){1'b0}}, grh_paylen} + GRH_PAY_BASE;
    ip4_end1    <= {{(CW-16){1'b0}}, ip4_total} + IP4_BASE;
    ip6_end1    <= {{(CW-16){1'b0}}, ip6_paylen} + IP6_BASE;
    udp4_end1   <= {1'b0, udp4_len} + IPV4_LEN;
    udp6_bad1   <= udp6_len != ip6_paylen;
    ip4_total1  <= ip4_total;

    cs_a1      <= {2'b00, w14} + {2'b00, w16} + {2'b00, w18};
    cs_b1      <= {2'b00, w20} + {2'b00, w22} + {2'b00, w26};
    cs_c1      <= {2'b00, w28} + {2'b00, w30} + {2'b00, w32};
    csum1      <= ip4_csum;
    cs_zero_a1 <= ({w14, w16, w18} == 48'd0);
    cs_zero_b1 <= ({w20, w22, w26} == 48'd0);
    cs_zero_c1 <= ({w28, w30, w32} == 48'd0);
    csum_ones1 <= (ip4_csum == 16'hFFFF);

    v1_reg <= in_valid;
    if (rst)
        v1_reg <= 1'b0;
end

// =======================================================================================
// Stage 2: the OpCode table, BTH byte 8, the length constants, the checksum's sum, the
// locate checks that depend on the shape
// =======================================================================================

wire [7:0] opcode1 = bth1[7:0];
wire [3:0] tver1   = bth1[11:8];
wire [1:0] padcnt1 = bth1[13:12];
wire [6:0] byte8_1 = bth1[70:64];                    // ibsec security bits (AckReq, bit 7, is not checked)
wire [1:0] secmode1 = byte8_1[4:3];
wire [2:0] sthsz1   = byte8_1[2:0];
wire       kp1      = byte8_1[6];                   // key phase
wire       pn1      = byte8_1[5];                   // the pn nonce's SecTAG in the STH

// OpCode table (§9.2, §9.3)
wire       op_valid_ib;
wire       op_valid_roce;
wire [5:0] op_eth_len;
wire       op_has_payload;
wire       op_pad_allowed;
wire       op_fixed_payload;
/* verilator lint_off UNUSEDSIGNAL */
wire       op_known_unused;
wire       op_cnp_unused;
wire [2:0] op_pos_unused;
/* verilator lint_on UNUSEDSIGNAL */

ib_opcode_info u_opcode_info (
    .opcode        (opcode1),
    .known         (op_known_unused),
    .cnp           (op_cnp_unused),
    .valid_ib      (op_valid_ib),
    .valid_roce    (op_valid_roce),
    .eth_len       (op_eth_len),
    .has_payload   (op_has_payload),
    .pos           (op_pos_unused),
    .pad_allowed   (op_pad_allowed),
    .fixed_payload (op_fixed_payload)
);

wire [4:0] len_idx1 = {shape1, sth_sel1};
wire signed [SW-1:0] eth1_s = $signed({{(SW-6){1'b0}}, op_eth_len});
// ETH + PadCnt: every ETH length is a multiple of 4 (IBA Vol. 1 §9.3, ib_opcode_info's
// LEN_*), so the sum is the concatenation
wire signed [SW-1:0] ethpad1_s = $signed({{(SW-6){1'b0}}, op_eth_len[5:2], padcnt1});

// the locate checks whose header end depends on the shape
wire short_ip1  = is_v4_1 ? lt34_1 : lt54_1;
wire short_udp1 = (shape1 == SHAPE_ROCE_V4) ? lt42_1 : lt62_1;
wire short_bth1 = (shape1 == SHAPE_IB_LOCAL)  ? lt20_1 :
                  (shape1 == SHAPE_IB_GLOBAL) ? lt60_1 :
                  (shape1 == SHAPE_ROCE_V4)   ? lt54_1 : lt74_1;
wire dport_bad1 = is_v4_1 ? dport4_bad1 : dport6_bad1;

// The locate chain (ibsec_pkt_find_bth) in three short pieces, each a first failing
// check in the model's order (0 none): native; RoCEv2 up to the IPv4 checksum check;
// RoCEv2 after it. Stage 3 joins them (short chains map to few LUT levels whatever the
// netlist around them).
reg [5:0] loc_ib_c, loc_ra_c, loc_rb_c;
always @* begin
    loc_ib_c = R_OK;
    if (lt8_1)                                          loc_ib_c = R_TRUNCATED;
    else if (lnh_bad1)                                  loc_ib_c = R_BAD_LNH;
    else if (lver_bad1)                                 loc_ib_c = R_BAD_LVER;
    else if (has_grh1 && lt48_1)                        loc_ib_c = R_TRUNCATED;
    else if (has_grh1 && grh_ipver_bad1)                loc_ib_c = R_BAD_IPVER;
    else if (has_grh1 && grh_nxthdr_bad1)               loc_ib_c = R_BAD_NXTHDR;
    else if (short_bth1)                                loc_ib_c = R_TRUNCATED;

    loc_ra_c = R_OK;
    if (lt14_1)                                         loc_ra_c = R_TRUNCATED;
    else if (!is_v4_1 && !is_v6_1)                      loc_ra_c = R_BAD_ETHERTYPE;
    else if (short_ip1)                                 loc_ra_c = R_TRUNCATED;
    else if (is_v4_1 && ipver4_bad1)                    loc_ra_c = R_BAD_IPVER;
    else if (is_v4_1 && ihl_bad1)                       loc_ra_c = R_BAD_IPV4_IHL;

    loc_rb_c = R_OK;
    if (is_v4_1 && frag1)                               loc_rb_c = R_IP_FRAGMENT;
    else if (is_v4_1 && proto4_bad1)                    loc_rb_c = R_NOT_UDP;
    else if (is_v6_1 && ipver6_bad1)                    loc_rb_c = R_BAD_IPVER;
    else if (is_v6_1 && proto6_bad1)                    loc_rb_c = R_NOT_UDP;
    else if (short_udp1)                                loc_rb_c = R_TRUNCATED;
    else if (dport_bad1)                                loc_rb_c = R_BAD_UDP_PORT;
    else if (short_bth1)                                loc_rb_c = R_TRUNCATED;
end

// stage 2 registers
reg                  v2_reg = 1'b0;
reg                  link2, open2, has_grh2, is_v4_2, eq60_2;
reg  [1:0]           shape2;
reg  [8*BTH_LEN-1:0] bth2;
// the ends less the ETH length (the packet's end, the frame's) and the packet's end less
// ETH and PadCnt, compared in stage 3 with the length constants registered beside them
reg  signed [SW-1:0] src_e2, src_ep2, flen_e2;
// the pieces of the locate chain
reg  [5:0]           loc_ib2, loc_ra2, loc_rb2;
reg  [19:0]          cs_sum2;            // the ten words
reg                  cs_zero2, csum_ones2;
reg                  pktlen_bad2, grh_bad2, udp_bad2, ip4_gt2, ip6_gt2, ip4_ne2, ip6_ne2;
reg  [12:0]          pkt_end2;
reg                  op_valid2, op_has_payload2, op_pad_allowed2, op_fixed2;
reg  [5:0]           eth2;
reg                  tver_bad2, seal_secbits_bad2, open_secbits_bad2, sth_unsup2;
// the length constants of {shape, STH length}, looked up only (no sum behind them: the
// ETH length and PadCnt are taken off the ends instead)
reg  [6:0]           k_frame2;
reg  signed [SW-1:0] k_data2, k_long2, k_cnp2;

always @(posedge clk) begin
    link2    <= link1;
    open2    <= open1;
    has_grh2 <= has_grh1;
    is_v4_2  <= is_v4_1;
    eq60_2   <= eq60_1;
    shape2   <= shape1;
    bth2     <= bth1;
    src_e2   <= src1 - eth1_s;
    src_ep2  <= src1 - ethpad1_s;
    flen_e2  <= $signed({2'b00, flen1}) - eth1_s;

    loc_ib2  <= loc_ib_c;
    loc_ra2  <= loc_ra_c;
    loc_rb2  <= loc_rb_c;

    cs_sum2    <= {2'b00, cs_a1} + {2'b00, cs_b1} + {2'b00, cs_c1} + {4'd0, csum1};
    cs_zero2   <= cs_zero_a1 && cs_zero_b1 && cs_zero_c1;
    csum_ones2 <= csum_ones1;

    pktlen_bad2 <= pktlen_bad1;
    grh_bad2    <= grh_end1 != flen1;
    udp_bad2    <= is_v4_1 ? (udp4_end1 != {1'b0, ip4_total1}) : udp6_bad1;
    // RoCEv2: the IP length must end at the frame end, or inside a 60-byte frame (both
    // IP versions compared, stage 3 picks)
    ip4_gt2     <= ip4_end1 > flen1;
    ip6_gt2     <= ip6_end1 > flen1;
    ip4_ne2     <= ip4_end1 != flen1;
    ip6_ne2     <= ip6_end1 != flen1;
    // packet end: the frame end (native), the IP end (RoCEv2); the checks bound it, so
    // that its low 13 bits are the packet length whenever the reason is 0
    pkt_end2    <= !link1 ? flen1[12:0] : is_v4_1 ? ip4_end1[12:0] : ip6_end1[12:0];

    op_valid2        <= link1 ? op_valid_roce : op_valid_ib;
    op_has_payload2  <= op_has_payload;
    op_pad_allowed2  <= op_pad_allowed;
    op_fixed2        <= op_fixed_payload;
    eth2             <= op_eth_len;

    // BTH byte 8 (wire-format.md §2): seal, no security bits; open, without an STH
    // SECMODE 2/3 or the PN bit, or a key phase on a plain packet; with an STH, SECMODE 0
    // (ibsec_secbits_unpack); STHSZ 3..7: MACs longer than an AES-GCM tag
    tver_bad2         <= tver1 != BTH_TVER;
    seal_secbits_bad2 <= byte8_1 != 7'd0;
    open_secbits_bad2 <= (sthsz1 == 3'd0 && (secmode1[1] || pn1 || (secmode1 == 2'd0 && kp1))) ||
                         (sthsz1 != 3'd0 && secmode1 == 2'd0);
    sth_unsup2        <= sthsz1 > 3'd2;

    k_frame2 <= fixed_tab[len_idx1];
    k_data2  <= k_data_tab[len_idx1];
    k_long2  <= k_long_tab[len_idx1];
    k_cnp2   <= k_cnp_tab[len_idx1];

    v2_reg <= v1_reg;
    if (rst)
        v2_reg <= 1'b0;
end

// =======================================================================================
// Stage 3: the checksum judged, every length check as one compare, the locate chain
// =======================================================================================

// the checksum (see the header): S = 0 needs csum 0xFFFF; else csum != 0xFFFF and the
// ten-word sum T with T[15:0] = 0xFFFF - T[19:16]
wire cs_ok2 = cs_zero2 ? csum_ones2
                       : (!csum_ones2 && cs_sum2[15:4] == 12'hFFF &&
                          cs_sum2[3:0] == ~cs_sum2[19:16]);

// The first failing check of those known now, in the model's order: the locate chain
// joined from its pieces with the checksum taken as good, then (open) BTH byte 8, then
// the body's TVer and OpCode. cs_at says the checksum check is reached (every check
// before it passed, IPv4): stage 4 puts the checksum's reason in front when it fails.
wire [5:0] loc2  = !link2 ? loc_ib2 : (loc_ra2 != R_OK) ? loc_ra2 : loc_rb2;
wire       cs_at2 = link2 && is_v4_2 && loc_ra2 == R_OK;
reg  [5:0] pre_c;
always @* begin
    if (loc2 != R_OK)                                   pre_c = loc2;
    else if (open2 && open_secbits_bad2)                pre_c = R_BAD_SECMODE;
    else if (open2 && sth_unsup2)                       pre_c = R_STH_SIZE_UNSUPPORTED;
    else if (tver_bad2)                                 pre_c = R_BAD_TVER;
    else if (!op_valid2)                                pre_c = R_BAD_OPCODE;
    else                                                pre_c = R_OK;
end

wire [12:0] pp2 = src_e2[12:0] - k_data2[12:0];  // payload + pad: end - ETH - fixed_len
wire signed [SW-1:0] k_frame2_s = $signed({{(SW-7){1'b0}}, k_frame2});

// stage 3 registers
reg                  v3_reg = 1'b0;
reg                  open3;
reg  [1:0]           shape3;
reg  [8*BTH_LEN-1:0] bth3;
reg                  loc_ok3;
reg  [5:0]           pre3;
reg                  cs_fail3;           // the checksum check is reached and fails
// the rest of the body's checks, each qualified by the link it applies to
reg                  short_min3, pktlen_bad3, grh_bad3, ip_len_bad3, udp_bad3,
                     pad_no_payload3, data_no_payload3, data_misaligned3, pad_forbidden3,
                     fixed_len_bad3, too_long3;
reg                  seal_secbits_bad3, open_secbits_bad3;
reg  [12:0]          pp_len3, pkt_end3;
reg  [6:0]           bth_off3, hdr_len3;

localparam [6:0] BTH_OFF_L = LRH_LEN;
localparam [6:0] BTH_OFF_G = LRH_LEN + GRH_LEN;
localparam [6:0] BTH_OFF_4 = END_UDP4;
localparam [6:0] BTH_OFF_6 = END_UDP6;
wire [6:0] bth_off2 = (shape2 == SHAPE_IB_LOCAL)  ? BTH_OFF_L :
                      (shape2 == SHAPE_IB_GLOBAL) ? BTH_OFF_G :
                      (shape2 == SHAPE_ROCE_V4)   ? BTH_OFF_4 : BTH_OFF_6;

always @(posedge clk) begin
    open3    <= open2;
    shape3   <= shape2;
    bth3     <= bth2;
    loc_ok3  <= loc2 == R_OK;
    pre3     <= pre_c;
    cs_fail3 <= cs_at2 && !cs_ok2;

    short_min3       <= flen_e2 < k_frame2_s;                         // flen < min_end
    pktlen_bad3      <= !link2 && pktlen_bad2;
    grh_bad3         <= !link2 && has_grh2 && grh_bad2;
    // ip_end < min_end, beyond the frame, or short of it outside a 60-byte frame
    ip_len_bad3      <= link2 && ((src_e2 < k_data2) || (is_v4_2 ? ip4_gt2 : ip6_gt2) ||
                                  ((is_v4_2 ? ip4_ne2 : ip6_ne2) && !eq60_2));
    udp_bad3         <= link2 && udp_bad2;
    // data region (§9.2 PadCnt; payload rules of the opcode)
    pad_no_payload3  <= !op_has_payload2 && bth2[13:12] != 2'd0;
    data_no_payload3 <= !op_has_payload2 && src_e2 != k_data2;       // data_len != 0
    data_misaligned3 <= (src_e2[1:0] != k_data2[1:0]) ||             // data_len % 4 != 0
                        (src_ep2 < k_data2);                          // padcnt > data_len
    pad_forbidden3   <= (bth2[13:12] != 2'd0) && !op_pad_allowed2;
    fixed_len_bad3   <= op_fixed2 && src_ep2 != k_cnp2;               // payload_len != 16
    too_long3        <= src_ep2 >= k_long2;                            // payload_len > 4096

    seal_secbits_bad3 <= !open2 && seal_secbits_bad2;
    open_secbits_bad3 <= open_secbits_bad2;

    pp_len3  <= pp2;
    pkt_end3 <= pkt_end2;
    bth_off3 <= bth_off2;
    hdr_len3 <= bth_off2 + BTH_LEN + {1'b0, eth2};                    // end of the last ETH

    v3_reg <= v2_reg;
    if (rst)
        v3_reg <= 1'b0;
end

// =======================================================================================
// Stage 4: the first failing check, in the model's order
// =======================================================================================

// the checksum's reason, else the chain of stage 3, else the rest of ibsec_pkt_parse
// (extra header = sth_len), else (seal) BTH byte 8
reg [5:0] reason_c;
always @* begin
    if (cs_fail3)                                       reason_c = R_BAD_IPV4_CSUM;
    else if (pre3 != R_OK)                              reason_c = pre3;
    else if (short_min3)                                reason_c = R_TRUNCATED;
    else if (pktlen_bad3)                               reason_c = R_BAD_PKTLEN;
    else if (grh_bad3)                                  reason_c = R_BAD_GRH_PAYLEN;
    else if (ip_len_bad3)                               reason_c = R_BAD_IP_LEN;
    else if (udp_bad3)                                  reason_c = R_BAD_UDP_LEN;
    else if (pad_no_payload3)                           reason_c = R_BAD_PADCNT;
    else if (data_no_payload3)                          reason_c = R_BAD_PAYLOAD_LEN;
    else if (data_misaligned3)                          reason_c = R_BAD_PADCNT;
    else if (pad_forbidden3)                            reason_c = R_BAD_PADCNT;
    else if (fixed_len_bad3)                            reason_c = R_BAD_PAYLOAD_LEN;
    else if (too_long3)                                 reason_c = R_TOO_LONG;
    else if (seal_secbits_bad3)                         reason_c = R_BAD_SECMODE;
    else                                                reason_c = R_OK;
end

// enum ibsec_mode from SECMODE/STHSZ: STHSZ 0 -> none (0) / icrc-mac (1);
// STHSZ != 0 -> sth-hdr (2), sth-pkt (3), sth-aead (4) for SECMODE 1, 2, 3
wire [1:0] secmode3 = bth3[68:67];
wire [2:0] sthsz3   = bth3[66:64];
localparam [6:0] STH96_PN_LEN  = STH96_LEN + SECTAG_LEN;
localparam [6:0] STH128_PN_LEN = STH128_LEN + SECTAG_LEN;
wire [2:0] mode_decoded3 = (sthsz3 == 3'd0) ? {2'd0, secmode3[0]} : {1'b0, secmode3} + 3'd1;

// stage 4 registers: the outputs
reg                  v4_reg = 1'b0;
reg  [5:0]           reason4;
reg  [2:0]           mode4;
reg  [1:0]           shape4;
reg  [6:0]           bth_off4, hdr_len4, sth_len4;
reg  [12:0]          pp_len4, pkt_end4;
// the BTH bytes; the outputs leave out TVer, byte 4, the bits above PadCnt and AckReq (byte 8 bit 7) and
// SECMODE (synthesis drops their flip-flops)
/* verilator lint_off UNUSEDSIGNAL */
reg  [8*BTH_LEN-1:0] bth4;
/* verilator lint_on UNUSEDSIGNAL */

always @(posedge clk) begin
    reason4  <= reason_c;
    mode4    <= (open3 && !cs_fail3 && loc_ok3 && !open_secbits_bad3) ? mode_decoded3 : 3'd0;
    shape4   <= shape3;
    bth_off4 <= bth_off3;
    hdr_len4 <= hdr_len3;
    // open: the STH length of STHSZ and the PN bit (bth3[69]); seal: no STH
    sth_len4 <= !open3 ? 7'd0 :
                (sthsz3 == 3'd1) ? (bth3[69] ? STH96_PN_LEN : STH96_LEN[6:0]) :
                (sthsz3 == 3'd2) ? (bth3[69] ? STH128_PN_LEN : STH128_LEN[6:0]) : 7'd0;
    pp_len4  <= pp_len3;
    pkt_end4 <= pkt_end3;
    bth4     <= bth3;

    v4_reg <= v3_reg;
    if (rst)
        v4_reg <= 1'b0;
end

assign out_valid = v4_reg;
assign reason    = reason4;
assign mode      = mode4;
assign shape     = shape4;
assign bth_off   = bth_off4;
assign hdr_len   = hdr_len4;
assign sth_len   = sth_len4;
assign pp_len    = pp_len4;
assign pkt_end   = pkt_end4;
assign opcode    = bth4[7:0];
assign padcnt    = bth4[13:12];
// big-endian: BTH bytes 2-3, 5-7, 9-11, the first byte the most significant
assign pkey      = {bth4[23:16], bth4[31:24]};
assign destqp    = {bth4[47:40], bth4[55:48], bth4[63:56]};
assign psn       = {bth4[79:72], bth4[87:80], bth4[95:88]};
assign secmode   = bth4[68:67];
assign sthsz     = bth4[66:64];
assign kp        = bth4[70];
assign pn        = bth4[69];

endmodule

`resetall
