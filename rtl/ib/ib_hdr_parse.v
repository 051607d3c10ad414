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
 *     the packet is parsed with the STH length of STHSZ (0, 12 or 16 bytes).
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
 *   Combinational. The IPv4 header checksum (nine-word adder, two end-around-carry folds,
 *   compare) and the length checks feed the priority chain of reasons. The length checks
 *   do not wait for the OpCode table: each length is one subtraction of a table constant
 *   (a function of shape, STH length and PadCnt) from the frame length or the IP length
 *   field, computed in parallel with the table, and the table's ETH length enters through
 *   one compare each. Placed and routed alone on an LFE5U-85F speed 8 (make fpga, run
 *   ib_hdr_parse:0:parse, LEN_W = 17, ports behind registers): 57.6 MHz, 34 cells from
 *   link through the header offsets, one subtraction and one compare to reason (with the
 *   room lengths as a chain of three subtractions: 51.4 MHz). Where a pipeline register
 *   is needed, the cut is after the check flags (locate_reason and the *_bad / short_* /
 *   data-region wires, with the fields), before the two priority chains.
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
    /*
     * Frame
     */
    // The parser reads only the fields it checks; the other bytes of the window
    // (addresses, ETHs, payload) are for the caller.
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [8*HDR_BYTES-1:0] hdr,          // frame bytes 0..HDR_BYTES-1
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [LEN_W-1:0]       frame_len,    // bytes in the frame, Ethernet padding included
    input  wire                   link,         // 0 native IBA (starts at the LRH), 1 RoCEv2
    input  wire                   is_open,      // 1: open steps 1-3; 0: seal steps 1-2

    /*
     * Verdict and fields
     */
    output reg  [5:0]             reason,       // first failing check (enum ibsec_reason), 0 ok
    output wire [1:0]             shape,        // enum ibsec_shape
    output wire [6:0]             bth_off,      // offset of the BTH
    output wire [6:0]             hdr_len,      // bytes from frame byte 0 through the last ETH
    output wire [6:0]             sth_len,      // open: 0, 12 or 16 from STHSZ; seal: 0
    output wire [12:0]            pp_len,       // payload + pad bytes (after the STH)
    output wire [12:0]            pkt_end,      // packet length (frame_len minus padding)
    output wire [7:0]             opcode,       // BTH OpCode
    output wire [1:0]             padcnt,       // BTH PadCnt
    output wire [15:0]            pkey,         // BTH P_Key
    output wire [23:0]            destqp,       // BTH DestQP
    output wire [23:0]            psn,          // BTH PSN
    output wire [1:0]             secmode,      // BTH byte 8 bits 4:3
    output wire [2:0]             sthsz,        // BTH byte 8 bits 2:0
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
localparam       ROCE_MIN_FRAME = 60;      // 802.3 minimum frame without FCS
localparam       MAX_PAYLOAD    = 4096;    // largest IBA MTU, payload bytes without pad
localparam       CNP_PAYLOAD    = 16;      // Annex A17.9: 16 reserved bytes after the BTH

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
// Bytes of the frame
// ---------------------------------------------------------------------------------------

wire [7:0] b [0:READ_BYTES-1];

genvar gi;
generate
    for (gi = 0; gi < READ_BYTES; gi = gi + 1) begin : g_byte
        assign b[gi] = hdr[8*gi +: 8];
    end
endgenerate

wire [CW-1:0] flen = {{(CW-LEN_W){1'b0}}, frame_len};

// ---------------------------------------------------------------------------------------
// Native IBA: LRH at 0 (§7.7), GRH at 8 (§8.3)
// ---------------------------------------------------------------------------------------

wire [3:0]  lrh_lver   = b[0][3:0];
wire [1:0]  lrh_lnh    = b[1][1:0];                 // 0 raw, 1 IP, 2 BTH next, 3 GRH next
wire [10:0] lrh_pktlen = {b[4][2:0], b[5]};         // bytes 4-5 bits 10:0 (Resv5 above)
wire        has_grh    = (lrh_lnh == 2'd3);
wire [3:0]  grh_ipver  = b[8][7:4];
wire [15:0] grh_paylen = {b[12], b[13]};
wire [7:0]  grh_nxthdr = b[14];

// ---------------------------------------------------------------------------------------
// RoCEv2: Ethernet at 0, IPv4 / IPv6 at 14, UDP at 34 / 54 (Annex A17.4)
// ---------------------------------------------------------------------------------------

wire [15:0] ethertype = {b[12], b[13]};
wire        is_v4     = (ethertype == ETHERTYPE_IPV4);
wire        is_v6     = (ethertype == ETHERTYPE_IPV6);

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
wire [15:0] udp_dport = is_v4 ? {b[36], b[37]} : {b[56], b[57]};
wire [15:0] udp_len   = is_v4 ? {b[38], b[39]} : {b[58], b[59]};

// RFC 791 / RFC 1071 header checksum: one's-complement sum of the 16-bit words of the
// IPv4 header, the checksum word (bytes 10-11) left out, then complemented.
wire [19:0] ip4_sum = {4'd0, b[14], b[15]} + {4'd0, b[16], b[17]} + {4'd0, b[18], b[19]}
                    + {4'd0, b[20], b[21]} + {4'd0, b[22], b[23]} + {4'd0, b[26], b[27]}
                    + {4'd0, b[28], b[29]} + {4'd0, b[30], b[31]} + {4'd0, b[32], b[33]};
wire [16:0] ip4_fold1 = {1'b0, ip4_sum[15:0]} + {13'd0, ip4_sum[19:16]};
wire [15:0] ip4_fold2 = ip4_fold1[15:0] + {15'd0, ip4_fold1[16]};
wire        ip4_csum_bad = (ip4_csum != ~ip4_fold2);

// ---------------------------------------------------------------------------------------
// Shape and BTH (§9.2)
// ---------------------------------------------------------------------------------------

assign shape = !link ? (has_grh ? SHAPE_IB_GLOBAL : SHAPE_IB_LOCAL)
                     : (is_v6 ? SHAPE_ROCE_V6 : SHAPE_ROCE_V4);

assign bth_off = (shape == SHAPE_IB_LOCAL)  ? LRH_LEN :
                 (shape == SHAPE_IB_GLOBAL) ? LRH_LEN + GRH_LEN :
                 (shape == SHAPE_ROCE_V4)   ? MAC_LEN + IPV4_LEN + UDP_LEN :
                                              MAC_LEN + IPV6_LEN + UDP_LEN;

// the 12 BTH bytes, picked from the four possible offsets
reg [7:0] bth [0:11];
integer k;
always @* begin
    for (k = 0; k < 12; k = k + 1) begin
        case (shape)
            SHAPE_IB_LOCAL:  bth[k] = b[8 + k];
            SHAPE_IB_GLOBAL: bth[k] = b[48 + k];
            SHAPE_ROCE_V4:   bth[k] = b[42 + k];
            default:         bth[k] = b[62 + k];
        endcase
    end
end

wire [3:0] bth_tver = bth[1][3:0];
wire [6:0] byte8    = bth[8][6:0];                  // ibsec security bits (AckReq, bit 7, is not checked)

assign opcode  = bth[0];
assign padcnt  = bth[1][5:4];
assign pkey    = {bth[2], bth[3]};
assign destqp  = {bth[5], bth[6], bth[7]};
assign psn     = {bth[9], bth[10], bth[11]};
assign secmode = byte8[4:3];
assign sthsz   = byte8[2:0];

// OpCode table (§9.2, §9.3)
wire       op_valid_ib;
wire       op_valid_roce;
wire [5:0] op_eth_len;
wire       op_has_payload;
wire       op_pad_allowed;
wire       op_fixed_payload;
wire       op_known_unused;
wire       op_cnp_unused;
wire [2:0] op_pos_unused;

ib_opcode_info u_opcode_info (
    .opcode        (opcode),
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

// ---------------------------------------------------------------------------------------
// BTH byte 8 (wire-format.md §2)
// ---------------------------------------------------------------------------------------

// seal: the plain packet must carry no security bits
wire seal_secbits_bad = (byte8[6:0] != 7'd0);
// open: reserved bits 6:5, SECMODE 2/3 without STH, SECMODE 0 with an STH
wire open_secbits_bad = (byte8[6:5] != 2'd0) ||
                        (sthsz == 3'd0 && secmode[1]) ||
                        (sthsz != 3'd0 && secmode == 2'd0);
// STHSZ 3..7: MACs longer than an AES-GCM tag
wire sth_unsupported = (sthsz > 3'd2);

// open: the STH length of STHSZ; seal: no STH
assign sth_len = !is_open        ? 7'd0 :
                 (sthsz == 3'd1) ? STH96_LEN :
                 (sthsz == 3'd2) ? STH128_LEN : 7'd0;

// ---------------------------------------------------------------------------------------
// Lengths
// ---------------------------------------------------------------------------------------

// end of the last ETH
assign hdr_len = bth_off + BTH_LEN + {1'b0, op_eth_len};

// RoCEv2: where the IP length says the packet ends
wire [CW-1:0] ip_end = is_v4 ? {{(CW-16){1'b0}}, ip4_total} + MAC_LEN
                             : {{(CW-16){1'b0}}, ip6_paylen} + (MAC_LEN + IPV6_LEN);
wire [6:0]    udp_off = bth_off - UDP_LEN;

// packet end: the frame end (native), the IP end (RoCEv2); the checks below bound it, so
// that its low 13 bits are the packet length whenever the reason is 0
assign pkt_end = link ? ip_end[12:0] : flen[12:0];

// The checks on these lengths do not wait for the OpCode table: every length is first
// taken relative to fixed_len, the part of the smallest packet known without the opcode
// (BTH offset and length, STH, ICRC and VCRC), in parallel with the table; the table's
// ETH length then enters only through a short compare. fixed_len, and the constants
// the room lengths subtract, are tables of the shape, the STH length and PadCnt (each a
// LUT function of a few bits, not an adder), so every room length is one subtraction
// from the frame length or from the IP length field itself. Signed, SW bits: the
// differences may be negative.
localparam SW = CW + 2;
// the STH length as a table index: 0 none, 1 STHSZ 1, 2 STHSZ 2 (sth_len above)
wire [1:0] sth_sel = !is_open ? 2'd0 : (sthsz == 3'd1) ? 2'd1 : (sthsz == 3'd2) ? 2'd2 : 2'd0;

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
function integer fixed_of(input [1:0] shp, input [1:0] sth);
    fixed_of = bth_off_of(shp) + BTH_LEN
             + ((sth == 2'd1) ? STH96_LEN : (sth == 2'd2) ? STH128_LEN : 0)
             + ((shp == SHAPE_ROCE_V4 || shp == SHAPE_ROCE_V6) ? ICRC_LEN : ICRC_LEN + VCRC_LEN);
endfunction

// index {shape, sth_sel, padcnt}; entries with sth_sel = 3 are never selected
localparam integer LONG_K = MAX_PAYLOAD + 1;
wire [6:0]           fixed_tab   [0:63];
wire signed [SW-1:0] k_data_tab  [0:63];   // fixed_len - ip base
wire signed [SW-1:0] k_pay_tab   [0:63];   // ... + PadCnt
wire signed [SW-1:0] k_long_tab  [0:63];   // ... + MAX_PAYLOAD + 1
generate
    for (gi = 0; gi < 64; gi = gi + 1) begin : g_len_tab
        localparam [5:0]   IDX = gi;
        localparam [1:0]   SHP = IDX[5:4];
        localparam [1:0]   STH = IDX[3:2];
        localparam [1:0]   PAD = IDX[1:0];
        localparam integer FIX = fixed_of(SHP, STH);
        localparam integer KD  = FIX - ip_base_of(SHP);
        assign fixed_tab[gi]  = FIX[6:0];
        assign k_data_tab[gi] = KD[SW-1:0];
        assign k_pay_tab[gi]  = KD[SW-1:0] + {{(SW-2){1'b0}}, PAD};
        assign k_long_tab[gi] = KD[SW-1:0] + {{(SW-2){1'b0}}, PAD} + LONG_K[SW-1:0];
    end
endgenerate

wire [5:0]           len_idx   = {shape, sth_sel, padcnt};
wire [6:0]           fixed_len = fixed_tab[len_idx];   // at most 96
wire signed [SW-1:0] fixed_s   = $signed({{(SW-7){1'b0}}, fixed_len});
wire signed [SW-1:0] eth_s     = $signed({{(SW-6){1'b0}}, op_eth_len});
// the end the room lengths count from: the frame length (native), the IP length field
// (RoCEv2; its base is in the k_*_tab constants)
wire [15:0]          ip_field  = (shape == SHAPE_ROCE_V4) ? ip4_total : ip6_paylen;
wire signed [SW-1:0] src_s     = link ? $signed({{(SW-16){1'b0}}, ip_field})
                                      : $signed({2'b00, flen});
// frame bytes, packet bytes past fixed_len (RoCEv2: also the IP bytes past it)
wire signed [SW-1:0] room_frame = $signed({2'b00, flen}) - fixed_s;
wire signed [SW-1:0] room_data  = src_s - k_data_tab[len_idx];  // data_len + ETH length
wire signed [SW-1:0] room_pay   = src_s - k_pay_tab[len_idx];   // payload_len + ETH length
// payload_len - 4097 + ETH length: too long when not below the ETH length
wire signed [SW-1:0] room_long  = src_s - k_long_tab[len_idx];
// payload + pad = end - (fixed_len + ETH length); the ICRC and VCRC are in fixed_len
assign pp_len = room_data[12:0] - {7'd0, op_eth_len};

// ---------------------------------------------------------------------------------------
// Checks, each as a flag
// ---------------------------------------------------------------------------------------

// room for each header (ibsec_pkt_parse "truncated")
wire short_lrh     = flen < LRH_LEN;
wire short_grh     = flen < LRH_LEN + GRH_LEN;
wire short_mac     = flen < MAC_LEN;
wire short_ip      = is_v4 ? flen < MAC_LEN + IPV4_LEN : flen < MAC_LEN + IPV6_LEN;
wire short_udp     = flen < {{(CW-7){1'b0}}, udp_off} + UDP_LEN;
wire short_bth     = flen < {{(CW-7){1'b0}}, bth_off} + BTH_LEN;
wire short_min     = room_frame < eth_s;                               // flen < min_end

// native length fields (§7.7.8 PktLen: words LRH..ICRC; §8.3.5 PayLen: BTH..ICRC)
wire pktlen_bad    = ({{(CW-13){1'b0}}, lrh_pktlen, 2'b00} + VCRC_LEN) != flen;
wire grh_paylen_bad = has_grh &&
                      ({{(CW-16){1'b0}}, grh_paylen} + (VCRC_LEN + LRH_LEN + GRH_LEN) != flen);

// RoCEv2 length fields: the IP length must end at the frame end, or inside a 60-byte
// frame (Ethernet padding); UDP Length = UDP header through ICRC
wire ip_len_bad    = (room_data < eth_s) || (ip_end > flen) ||        // ip_end < min_end, ...
                     (ip_end != flen && flen != ROCE_MIN_FRAME);
wire udp_len_bad   = {{(CW-16){1'b0}}, udp_len} != ip_end - {{(CW-7){1'b0}}, udp_off};

// data region (§9.2 PadCnt; payload rules of the opcode)
wire pad_no_payload  = !op_has_payload && padcnt != 2'd0;
// (with data_len = room_data - ETH length, payload_len = room_pay - ETH length)
wire data_no_payload = !op_has_payload && room_data != eth_s;             // data_len != 0
wire data_misaligned = (room_data[1:0] != op_eth_len[1:0]) ||             // data_len % 4 != 0
                       (room_pay < eth_s);                                // padcnt > data_len
wire pad_forbidden   = (padcnt != 2'd0) && !op_pad_allowed;
wire fixed_len_bad   = op_fixed_payload && room_pay != eth_s + CNP_PAYLOAD; // payload_len != 16
wire too_long        = room_long >= eth_s;                                // payload_len > 4096

// ---------------------------------------------------------------------------------------
// The first failing check, in the model's order
// ---------------------------------------------------------------------------------------

// step 1 (open) / first part of step 1 (seal): locate the BTH
reg [5:0] locate_reason;
always @* begin
    locate_reason = R_OK;
    if (!link) begin
        if (short_lrh)                                   locate_reason = R_TRUNCATED;
        else if (lrh_lnh[1] == 1'b0)                     locate_reason = R_BAD_LNH;
        else if (lrh_lver != LRH_LVER)                   locate_reason = R_BAD_LVER;
        else if (has_grh && short_grh)                   locate_reason = R_TRUNCATED;
        else if (has_grh && grh_ipver != GRH_IPVER)      locate_reason = R_BAD_IPVER;
        else if (has_grh && grh_nxthdr != GRH_NXTHDR_IBA) locate_reason = R_BAD_NXTHDR;
        else if (short_bth)                              locate_reason = R_TRUNCATED;
    end else begin
        if (short_mac)                                   locate_reason = R_TRUNCATED;
        else if (!is_v4 && !is_v6)                       locate_reason = R_BAD_ETHERTYPE;
        else if (short_ip)                               locate_reason = R_TRUNCATED;
        else if (is_v4 && ip_version != IPV4_VERSION)    locate_reason = R_BAD_IPVER;
        else if (is_v4 && ip4_ihl != IPV4_IHL)           locate_reason = R_BAD_IPV4_IHL;
        else if (is_v4 && ip4_csum_bad)                  locate_reason = R_BAD_IPV4_CSUM;
        else if (is_v4 && (ip4_mf || ip4_frag != 13'd0)) locate_reason = R_IP_FRAGMENT;
        else if (is_v4 && ip4_proto != IPPROTO_UDP)      locate_reason = R_NOT_UDP;
        else if (is_v6 && ip_version != IPV6_VERSION)    locate_reason = R_BAD_IPVER;
        else if (is_v6 && ip6_nxthdr != IPPROTO_UDP)     locate_reason = R_NOT_UDP;
        else if (short_udp)                              locate_reason = R_TRUNCATED;
        else if (udp_dport != ROCEV2_UDP_PORT)           locate_reason = R_BAD_UDP_PORT;
        else if (short_bth)                              locate_reason = R_TRUNCATED;
    end
end

// the rest of ibsec_pkt_parse once the BTH is there (extra header = sth_len)
reg [5:0] body_reason;
always @* begin
    body_reason = R_OK;
    if (bth_tver != BTH_TVER)                            body_reason = R_BAD_TVER;
    else if (link ? !op_valid_roce : !op_valid_ib)       body_reason = R_BAD_OPCODE;
    else if (short_min)                                  body_reason = R_TRUNCATED;
    else if (!link && pktlen_bad)                        body_reason = R_BAD_PKTLEN;
    else if (!link && grh_paylen_bad)                    body_reason = R_BAD_GRH_PAYLEN;
    else if (link && ip_len_bad)                         body_reason = R_BAD_IP_LEN;
    else if (link && udp_len_bad)                        body_reason = R_BAD_UDP_LEN;
    else if (pad_no_payload)                             body_reason = R_BAD_PADCNT;
    else if (data_no_payload)                            body_reason = R_BAD_PAYLOAD_LEN;
    else if (data_misaligned)                            body_reason = R_BAD_PADCNT;
    else if (pad_forbidden)                              body_reason = R_BAD_PADCNT;
    else if (fixed_len_bad)                              body_reason = R_BAD_PAYLOAD_LEN;
    else if (too_long)                                   body_reason = R_TOO_LONG;
end

always @* begin
    if (locate_reason != R_OK)                           reason = locate_reason;
    else if (is_open && open_secbits_bad)                reason = R_BAD_SECMODE;
    else if (is_open && sth_unsupported)                 reason = R_STH_SIZE_UNSUPPORTED;
    else if (body_reason != R_OK)                        reason = body_reason;
    else if (!is_open && seal_secbits_bad)               reason = R_BAD_SECMODE;
    else                                                 reason = R_OK;
end

// enum ibsec_mode from SECMODE/STHSZ: STHSZ 0 -> none (0) / icrc-mac (1);
// STHSZ != 0 -> sth-hdr (2), sth-pkt (3), sth-aead (4) for SECMODE 1, 2, 3
wire [2:0] mode_decoded = (sthsz == 3'd0) ? {2'd0, secmode[0]} : {1'b0, secmode} + 3'd1;
assign mode = (is_open && locate_reason == R_OK && !open_secbits_bad) ? mode_decoded : 3'd0;

endmodule

`resetall
