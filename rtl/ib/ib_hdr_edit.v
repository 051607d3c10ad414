/*
 * ib_hdr_edit — the header rewrite of seal and open: every length field grows by the
 * STH length L (seal, docs/wire-format.md §4 and §7 step 6) or shrinks by it (open, §8
 * step 13), the IPv4 header checksum follows, and BTH byte 8 bits 6:0 get the
 * security bits (seal: SECMODE/STHSZ of the context, §2 and §7 step 7; open: 0).
 *
 * Function
 *   Fields rewritten (everything else of hdr_in passes unchanged):
 *     native        LRH PktLen (bytes 4-5 bits 10:0, in 4-byte words; Resv5 kept)
 *     native GRH    GRH PayLen (frame bytes 12-13)
 *     RoCEv2 IPv4   Total Length (frame bytes 16-17), Header Checksum (24-25, RFC 791 /
 *                   RFC 1071 over the new header), UDP Length (38-39), UDP checksum
 *                   (40-41) = 0
 *     RoCEv2 IPv6   Payload Length (frame bytes 18-19), UDP Length (58-59), UDP
 *                   checksum (60-61) = 0
 *     all           BTH byte 8 = {AckReq (kept), secbits}
 *   The UDP checksum is 0 on every RoCEv2 header edited, in either direction and every
 *   mode (docs/wire-format.md §4; the model's ibsec_pkt_clear_udp_csum): a masked field
 *   that the ICRC and the tag do not see.
 *   This is what the model's ibsec_pkt_insert_extra / ibsec_pkt_remove_extra do to the
 *   headers (write_lengths in cmodel/ib_pkt.c) followed by the byte 8 update and the UDP
 *   checksum. The input must be a header that ib_hdr_parse accepted (its length fields
 *   agree with the frame, its IPv4 header checksum is right), so adding or subtracting L
 *   gives the model's values modulo the field widths, and the IPv4 checksum is updated
 *   from the received one (RFC 1624 eqn. 3) to the value the model's recomputation
 *   (RFC 791 / RFC 1071) gives. With L = 0 the lengths and the checksum stay, as in the modes without an STH.
 *   The STH itself is not inserted or removed here: the bytes after the last ETH are
 *   passed through.
 *
 * Byte order
 *   Byte i of the header is hdr_in[8*i+7 : 8*i] (AXI4-Stream order); fields big-endian.
 *
 * Latency / throughput
 *   One cycle, one header per clock: the inputs taken at a rising edge with ce high come
 *   out edited on hdr_out in the cycle after it (and stay while ce is low), so that a user
 *   feeds the edit from the register stage before the one that takes hdr_out.
 *   Stage 1 (inputs to registers): the new lengths (16-bit adders of the field and +-L)
 *     and the new checksum (one 16-bit adder and its carry select), registered with the
 *     header, shape, BTH offset and security bits (about 1,150 flip-flops at
 *     HDR_BYTES = 128).
 *   Stage 2 (registers to hdr_out, combinational): the header with the fields of its
 *     shape and BTH byte 8 replaced, a 2:1 or 4:1 multiplexer per edited bit.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Length fields, IPv4 checksum and BTH byte 8 rewrite
 */
module ib_hdr_edit #(
    // bytes of the header window (at least EDIT_BYTES)
    parameter HDR_BYTES = 128
) (
    input  wire                   clk,
    input  wire                   ce,        // stage 1 takes the inputs (0: it holds)
    input  wire [8*HDR_BYTES-1:0] hdr_in,    // frame bytes 0..HDR_BYTES-1
    input  wire [1:0]             shape,     // enum ibsec_shape (from ib_hdr_parse)
    input  wire [6:0]             bth_off,   // offset of the BTH (from ib_hdr_parse)
    input  wire                   shrink,    // 0: add len to every length field (seal), 1: subtract (open)
    input  wire [6:0]             len,       // STH length L (0, 12, 16)
    input  wire [6:0]             secbits,   // new BTH byte 8 bits 6:0
    output reg  [8*HDR_BYTES-1:0] hdr_out    // the rewritten header of the inputs taken at the last ce
);

// ---------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------

// bytes this block reads or writes: up to BTH byte 8 of RoCEv2 over IPv6 (62 + 8)
localparam EDIT_BYTES = 71;

`include "ibsec_enums.vh"   // R_* (reasons), M_* (modes), SHAPE_*

// frame offsets of the fields (IBA Vol. 1 §7.7, §8.3; RFC 791, 8200, 768)
localparam LRH_PKTLEN   = 4;    // LRH bytes 4-5: Resv5 (15:11), PktLen (10:0)
localparam GRH_PAYLEN   = 12;   // GRH (at 8) bytes 4-5
localparam IP4_TOTAL    = 16;   // IPv4 (at 14, after Ethernet) bytes 2-3
localparam IP4_CSUM     = 24;   // IPv4 bytes 10-11
localparam IP6_PAYLEN   = 18;   // IPv6 bytes 4-5
localparam UDP4_LEN     = 38;   // UDP (at 34) bytes 4-5
localparam UDP6_LEN     = 58;   // UDP (at 54) bytes 4-5
localparam UDP4_CSUM    = 40;   // UDP (at 34) bytes 6-7: checksum
localparam UDP6_CSUM    = 60;   // UDP (at 54) bytes 6-7: checksum
localparam BTH_BYTE8    = 8;    // BTH byte 8: AckReq, security bits

generate
    if (HDR_BYTES < EDIT_BYTES) begin : g_bad_param
        initial begin
            $error("ib_hdr_edit: HDR_BYTES = %0d, must be at least %0d", HDR_BYTES, EDIT_BYTES);
            $finish;
        end
    end
endgenerate

// ---------------------------------------------------------------------------------------
// Stage 1: the new field values, registered
// ---------------------------------------------------------------------------------------

function [15:0] be16(input [8*HDR_BYTES-1:0] h, input integer off);
    be16 = {h[8*off +: 8], h[8*(off+1) +: 8]};
endfunction

// +L or -L: two's complement in 16 bits for the lengths; for the checksum, L or its one's
// complement (-L in one's-complement arithmetic)
wire [15:0] delta  = shrink ? 16'd0 - {9'd0, len} : {9'd0, len};
wire [15:0] delta1 = shrink ? ~{9'd0, len} : {9'd0, len};

// PktLen (LRH bytes 4-5 bits 10:0) counts 4-byte words and L is a multiple of 4: add
// L / 4 modulo 2^11
wire [10:0] pktlen_old  = {hdr_in[8*LRH_PKTLEN +: 3], hdr_in[8*(LRH_PKTLEN+1) +: 8]};
wire [10:0] pktlen_new  = pktlen_old + delta[12:2];
wire [15:0] grh_paylen  = be16(hdr_in, GRH_PAYLEN) + delta;
wire [15:0] ip4_total   = be16(hdr_in, IP4_TOTAL) + delta;
wire [15:0] ip6_paylen  = be16(hdr_in, IP6_PAYLEN) + delta;
wire [15:0] udp4_len    = be16(hdr_in, UDP4_LEN) + delta;
wire [15:0] udp6_len    = be16(hdr_in, UDP6_LEN) + delta;

// RFC 791 / RFC 1071 header checksum of the new header, updated from the old one (RFC 1624
// eqn. 3, HC' = ~(~HC + ~m + m')): the header's other words are unchanged and its Total
// Length changes by exactly the delta, so the one's-complement sum of the new header
// without its checksum word is that of the old one (~HC, which the parser checked) plus
// the delta in one's-complement arithmetic. The end-around carry by carry select: the
// sum and the sum plus one side by side, the carry out of the first picks. The sum of a
// header is never the one's-complement zero 0x0000 (its first word holds version 4), so
// the result is the value RFC 1071's recomputation gives: ~HC lies in 1..0xFFFF, adding
// the delta with the end-around carry stays in 1..0xFFFF and is congruent to the new
// sum modulo 0xFFFF.
wire [15:0] ip4_nsum    = ~be16(hdr_in, IP4_CSUM);
wire [16:0] ip4_sum0    = {1'b0, ip4_nsum} + {1'b0, delta1};
// (the plus one as the carry into bit 0: {a, 1} + {b, 1} is 2 (a + b + 1), one adder;
// its bit 0 and its carry out are not needed)
/* verilator lint_off UNUSEDSIGNAL */
wire [17:0] ip4_sum1    = {1'b0, ip4_nsum, 1'b1} + {1'b0, delta1, 1'b1};
/* verilator lint_on UNUSEDSIGNAL */
wire [15:0] ip4_csum    = ~(ip4_sum0[16] ? ip4_sum1[16:1] : ip4_sum0[15:0]);

reg  [8*HDR_BYTES-1:0] s_hdr_reg;
reg  [1:0]             s_shape_reg;
reg  [6:0]             s_bth_off_reg;
reg  [6:0]             s_secbits_reg;
reg  [10:0]            s_pktlen_reg;
reg  [15:0]            s_grh_paylen_reg, s_ip4_total_reg, s_ip4_csum_reg, s_ip6_paylen_reg;
reg  [15:0]            s_udp4_len_reg, s_udp6_len_reg;

always @(posedge clk) begin
    if (ce) begin
        s_hdr_reg        <= hdr_in;
        s_shape_reg      <= shape;
        s_bth_off_reg    <= bth_off;
        s_secbits_reg    <= secbits;
        s_pktlen_reg     <= pktlen_new;
        s_grh_paylen_reg <= grh_paylen;
        s_ip4_total_reg  <= ip4_total;
        s_ip4_csum_reg   <= ip4_csum;
        s_ip6_paylen_reg <= ip6_paylen;
        s_udp4_len_reg   <= udp4_len;
        s_udp6_len_reg   <= udp6_len;
    end
end

// ---------------------------------------------------------------------------------------
// Stage 2: the registered header with the fields of its shape replaced
// ---------------------------------------------------------------------------------------

// LRH byte 4 bits 7:3: Resv5, kept
wire [4:0]  s_resv5 = s_hdr_reg[8*LRH_PKTLEN + 3 +: 5];

always @* begin
    hdr_out = s_hdr_reg;
    case (s_shape_reg)
        SHAPE_IB_LOCAL: begin
            hdr_out[8*LRH_PKTLEN +: 16] = {s_pktlen_reg[7:0], s_resv5, s_pktlen_reg[10:8]};
        end
        SHAPE_IB_GLOBAL: begin
            hdr_out[8*LRH_PKTLEN +: 16] = {s_pktlen_reg[7:0], s_resv5, s_pktlen_reg[10:8]};
            hdr_out[8*GRH_PAYLEN +: 16] = {s_grh_paylen_reg[7:0], s_grh_paylen_reg[15:8]};
        end
        SHAPE_ROCE_V4: begin
            hdr_out[8*IP4_TOTAL +: 16]  = {s_ip4_total_reg[7:0], s_ip4_total_reg[15:8]};
            hdr_out[8*IP4_CSUM +: 16]   = {s_ip4_csum_reg[7:0], s_ip4_csum_reg[15:8]};
            hdr_out[8*UDP4_LEN +: 16]   = {s_udp4_len_reg[7:0], s_udp4_len_reg[15:8]};
            hdr_out[8*UDP4_CSUM +: 16]  = 16'd0;
        end
        SHAPE_ROCE_V6: begin
            hdr_out[8*IP6_PAYLEN +: 16] = {s_ip6_paylen_reg[7:0], s_ip6_paylen_reg[15:8]};
            hdr_out[8*UDP6_LEN +: 16]   = {s_udp6_len_reg[7:0], s_udp6_len_reg[15:8]};
            hdr_out[8*UDP6_CSUM +: 16]  = 16'd0;
        end
        default: ;
    endcase
    // BTH byte 8 at one of the four BTH offsets (LRH 8; LRH+GRH 48; Ethernet+IPv4+UDP 42;
    // Ethernet+IPv6+UDP 62)
    case (s_bth_off_reg)
        7'd8:    hdr_out[8*(8 + BTH_BYTE8) +: 7]  = s_secbits_reg;
        7'd48:   hdr_out[8*(48 + BTH_BYTE8) +: 7] = s_secbits_reg;
        7'd42:   hdr_out[8*(42 + BTH_BYTE8) +: 7] = s_secbits_reg;
        default: hdr_out[8*(62 + BTH_BYTE8) +: 7] = s_secbits_reg;
    endcase
end

endmodule

`resetall
