/*
 * ib_hdr_edit — the header rewrite of seal and open: every length field grows by the
 * STH length L (seal, docs/wire-format.md §4 and §7 step 6) or shrinks by it (open, §8
 * step 13), the IPv4 header checksum is recomputed, and BTH byte 8 bits 6:0 get the
 * security bits (seal: SECMODE/STHSZ of the context, §2 and §7 step 7; open: 0).
 *
 * Function
 *   Fields rewritten (everything else of hdr_in passes unchanged):
 *     native        LRH PktLen (bytes 4-5 bits 10:0, in 4-byte words; Resv5 kept)
 *     native GRH    GRH PayLen (frame bytes 12-13)
 *     RoCEv2 IPv4   Total Length (frame bytes 16-17), Header Checksum (24-25, RFC 791 /
 *                   RFC 1071 over the new header), UDP Length (38-39)
 *     RoCEv2 IPv6   Payload Length (frame bytes 18-19), UDP Length (58-59)
 *     all           BTH byte 8 = {AckReq (kept), secbits}
 *   This is what the model's ibsec_pkt_insert_extra / ibsec_pkt_remove_extra do to the
 *   headers (write_lengths in cmodel/ib_pkt.c) followed by the byte 8 update. The input
 *   must be a header that ib_hdr_parse accepted (its length fields agree with the frame),
 *   so adding or subtracting L gives the model's values modulo the field widths. With
 *   L = 0 the lengths stay and the checksum recomputes to the value it had (the parser
 *   checked it), as in the modes without an STH. The STH itself is not inserted or
 *   removed here: the bytes after the last ETH are passed through.
 *
 * Byte order
 *   Byte i of the header is hdr_in[8*i+7 : 8*i] (AXI4-Stream order); fields big-endian.
 *
 * Latency / throughput
 *   Combinational: 16-bit adders, the nine-word checksum adder tree with its two folds
 *   (the deepest path: Total Length + L, then the checksum) and the output multiplexers.
 *   Yosys 0.23 synth_ecp5: 568 LUT4, 77 CCU2C; longest topological path 38 cells. A
 *   pipeline register, if needed, goes after the new Total Length (ip4_total) and the
 *   other new lengths, before the checksum tree.
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
    input  wire [8*HDR_BYTES-1:0] hdr_in,    // frame bytes 0..HDR_BYTES-1
    input  wire [1:0]             shape,     // enum ibsec_shape (from ib_hdr_parse)
    input  wire [6:0]             bth_off,   // offset of the BTH (from ib_hdr_parse)
    input  wire                   shrink,    // 0: add len to every length field (seal), 1: subtract (open)
    input  wire [6:0]             len,       // STH length L (0, 12, 16)
    input  wire [6:0]             secbits,   // new BTH byte 8 bits 6:0
    output reg  [8*HDR_BYTES-1:0] hdr_out    // the rewritten header
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
localparam IP_OFF       = 14;   // RoCEv2: IP header after the 14-byte Ethernet header
localparam IP4_TOTAL    = 16;   // IPv4 bytes 2-3
localparam IP4_CSUM     = 24;   // IPv4 bytes 10-11
localparam IP6_PAYLEN   = 18;   // IPv6 bytes 4-5
localparam UDP4_LEN     = 38;   // UDP (at 34) bytes 4-5
localparam UDP6_LEN     = 58;   // UDP (at 54) bytes 4-5
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
// New field values
// ---------------------------------------------------------------------------------------

function [15:0] be16(input [8*HDR_BYTES-1:0] h, input integer off);
    be16 = {h[8*off +: 8], h[8*(off+1) +: 8]};
endfunction

// +L or -L, two's complement in 16 bits
wire [15:0] delta = shrink ? 16'd0 - {9'd0, len} : {9'd0, len};

wire [15:0] lrh_word    = be16(hdr_in, LRH_PKTLEN);
// PktLen counts 4-byte words and L is a multiple of 4: add L / 4 modulo 2^11
wire [10:0] pktlen_new  = lrh_word[10:0] + delta[12:2];
wire [15:0] grh_paylen  = be16(hdr_in, GRH_PAYLEN) + delta;
wire [15:0] ip4_total   = be16(hdr_in, IP4_TOTAL) + delta;
wire [15:0] ip6_paylen  = be16(hdr_in, IP6_PAYLEN) + delta;
wire [15:0] udp4_len    = be16(hdr_in, UDP4_LEN) + delta;
wire [15:0] udp6_len    = be16(hdr_in, UDP6_LEN) + delta;

// RFC 791 / RFC 1071 header checksum of the IPv4 header with the new Total Length: the
// one's-complement sum of its 16-bit words without the checksum word, complemented
wire [19:0] ip4_sum = {4'd0, be16(hdr_in, IP_OFF)}      + {4'd0, ip4_total}
                    + {4'd0, be16(hdr_in, IP_OFF + 4)}  + {4'd0, be16(hdr_in, IP_OFF + 6)}
                    + {4'd0, be16(hdr_in, IP_OFF + 8)}  + {4'd0, be16(hdr_in, IP_OFF + 12)}
                    + {4'd0, be16(hdr_in, IP_OFF + 14)} + {4'd0, be16(hdr_in, IP_OFF + 16)}
                    + {4'd0, be16(hdr_in, IP_OFF + 18)};
wire [16:0] ip4_fold1 = {1'b0, ip4_sum[15:0]} + {13'd0, ip4_sum[19:16]};
wire [15:0] ip4_fold2 = ip4_fold1[15:0] + {15'd0, ip4_fold1[16]};
wire [15:0] ip4_csum  = ~ip4_fold2;

// ---------------------------------------------------------------------------------------
// Output: the input with the fields of its shape replaced
// ---------------------------------------------------------------------------------------

always @* begin
    hdr_out = hdr_in;
    case (shape)
        SHAPE_IB_LOCAL: begin
            hdr_out[8*LRH_PKTLEN +: 16] = {pktlen_new[7:0], lrh_word[15:11], pktlen_new[10:8]};
        end
        SHAPE_IB_GLOBAL: begin
            hdr_out[8*LRH_PKTLEN +: 16] = {pktlen_new[7:0], lrh_word[15:11], pktlen_new[10:8]};
            hdr_out[8*GRH_PAYLEN +: 16] = {grh_paylen[7:0], grh_paylen[15:8]};
        end
        SHAPE_ROCE_V4: begin
            hdr_out[8*IP4_TOTAL +: 16]  = {ip4_total[7:0], ip4_total[15:8]};
            hdr_out[8*IP4_CSUM +: 16]   = {ip4_csum[7:0], ip4_csum[15:8]};
            hdr_out[8*UDP4_LEN +: 16]   = {udp4_len[7:0], udp4_len[15:8]};
        end
        SHAPE_ROCE_V6: begin
            hdr_out[8*IP6_PAYLEN +: 16] = {ip6_paylen[7:0], ip6_paylen[15:8]};
            hdr_out[8*UDP6_LEN +: 16]   = {udp6_len[7:0], udp6_len[15:8]};
        end
        default: ;
    endcase
    // BTH byte 8 at one of the four BTH offsets (LRH 8; LRH+GRH 48; Ethernet+IPv4+UDP 42;
    // Ethernet+IPv6+UDP 62)
    case (bth_off)
        7'd8:    hdr_out[8*(8 + BTH_BYTE8) +: 7]  = secbits;
        7'd48:   hdr_out[8*(48 + BTH_BYTE8) +: 7] = secbits;
        7'd42:   hdr_out[8*(42 + BTH_BYTE8) +: 7] = secbits;
        default: hdr_out[8*(62 + BTH_BYTE8) +: 7] = secbits;
    endcase
end

endmodule

`resetall
