/*
 * sif_sw_hdr — the switch-side header view of a native InfiniBand packet as it streams
 * in (docs/availability.md §0; C model cmodel/sw_hdr.c, ibsec_sw_hdr_read), shared by
 * sif_filter and ddpm_marker.
 *
 * Function
 *   The caller keeps the first HDR_BYTES = 64 bytes of the current packet in a register
 *   (hdr_reg) and the index of the current beat in the packet (beat_idx, saturating at
 *   4). For the beat on s_tdata this block gives the header with the beat's bytes merged
 *   in (hdr_next, which the caller stores when the beat is accepted) and, decoded from
 *   it, the header-view verdict of cmodel/sw_hdr.c once it can be given:
 *     fewer than 8 bytes in the packet            -> truncated
 *     LRH.LNH = 0 (raw) or 1 (IP non-IBA)         -> bad_lnh   (IBA §7.7.6)
 *     LRH.LVer != 0                               -> bad_lver  (IBA §7.7.3)
 *     fewer bytes than LRH (+ GRH) + BTH (20 / 60) -> truncated
 *     GRH.IPVer != 6 or GRH.NxtHdr != 0x1B         -> bad_grh   (IBA §8.3.1, §8.3.6)
 *   hv_done is high from the first beat at which the verdict is known (the beat that
 *   completes the bytes a check needs, or the last beat of the packet) on; the caller
 *   takes the verdict of the first such beat. The fields
 *   (pkey, pktlen, the DGID prefix and the Marking Field) are valid with an ok verdict.
 *
 * Byte order: byte 0 of the packet is tdata[7:0] of its first beat; byte i of a header
 * vector is at [8*i+7:8*i]. tkeep is a prefix mask on the last beat, all ones otherwise.
 *
 * Latency / throughput: combinational; one beat per clock.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sif_sw_hdr #(
    // 128-bit lanes per beat (16 bytes each)
    parameter LANES = 1
) (
    /*
     * Current beat and what came before it
     */
    input  wire [8*64-1:0]       hdr_reg,
    input  wire [2:0]            beat_idx,
    input  wire [128*LANES-1:0]  s_tdata,
    input  wire [16*LANES-1:0]   s_tkeep,
    input  wire                  s_tlast,

    /*
     * Header with this beat merged in, and the verdict
     */
    output reg  [8*64-1:0]       hdr_next,
    output wire                  hv_done,
    // enum ibsec_sw_hdr_err: 0 ok, 1 truncated, 2 bad_lnh, 3 bad_lver, 4 bad_grh
    output wire [2:0]            hv_err,
    output wire                  has_grh,
    output wire [15:0]           pkey,
    output wire [10:0]           pktlen,
    output wire                  dgid_in_site,
    output wire [37:0]           mf
);

// bytes per beat
localparam BB = 16 * LANES;
// header bytes kept: LRH 8 + GRH 40 + BTH 12 = 60, rounded up to whole 16-byte lanes
localparam HDR_BYTES = 64;

// enum ibsec_sw_hdr_err (cmodel/sw_hdr.h)
localparam [2:0] HV_OK = 3'd0, HV_TRUNCATED = 3'd1, HV_BAD_LNH = 3'd2, HV_BAD_LVER = 3'd3,
                 HV_BAD_GRH = 3'd4;
// IBA §7.7.6 LNH values that carry no BTH: raw (0) and IP non-IBA (1); 3 = GRH follows
localparam [1:0] LNH_IBA_GLOBAL = 2'd3;
// IBA §8.3.1 IPVer and §8.3.6 NxtHdr of a GRH followed by an IBA transport header
localparam [3:0] GRH_IPVER = 4'd6;
localparam [7:0] GRH_NXTHDR_IBA = 8'h1B;
// TPDS Fig. 4: DGID prefixes of the two in-site formats, FE80::/10 and FEC0::/10
localparam [9:0] DGID_LINK_LOCAL = 10'h3FA, DGID_SITE_LOCAL = 10'h3FB;

// Merge: header byte i arrives in beat i / BB at byte i % BB.
integer i;
always @* begin
    hdr_next = hdr_reg;
    for (i = 0; i < HDR_BYTES; i = i + 1) begin
        if ({29'd0, beat_idx} == i / BB) begin
            hdr_next[8*i +: 8] = s_tdata[8*(i % BB) +: 8];
        end
    end
end

// Byte k of the packet is present once this beat has been taken.
function has_byte(input integer k, input [2:0] bidx, input [16*LANES-1:0] keep);
    integer lo;
    begin
        lo = bidx * BB;
        if (k < lo) begin
            has_byte = 1'b1;
        end else if (k < lo + BB) begin
            has_byte = keep[k - lo];
        end else begin
            has_byte = 1'b0;
        end
    end
endfunction

// LRH byte 0: VL(7:4) LVer(3:0); byte 1: SL(7:4) Resv2(3:2) LNH(1:0) (IBA §7.7)
wire [3:0] lver = hdr_next[0 +: 4];
wire [1:0] lnh  = hdr_next[8 +: 2];
wire       has8 = has_byte(7, beat_idx, s_tkeep);
wire       bad_lnh = (lnh == 2'd0) || (lnh == 2'd1);
assign has_grh = (lnh == LNH_IBA_GLOBAL);
// LRH + BTH = 20 bytes, LRH + GRH + BTH = 60 bytes
wire       has_need = has_grh ? has_byte(59, beat_idx, s_tkeep) : has_byte(19, beat_idx, s_tkeep);
// GRH byte 0 bits 7:4 IPVer, byte 6 NxtHdr; the GRH starts at packet byte 8
wire       grh_bad = (hdr_next[68 +: 4] != GRH_IPVER) || (hdr_next[112 +: 8] != GRH_NXTHDR_IBA);

assign hv_done = (has8 && (bad_lnh || lver != 4'd0 || has_need)) || s_tlast;
assign hv_err  = !has8            ? HV_TRUNCATED :
                 bad_lnh          ? HV_BAD_LNH :
                 lver != 4'd0     ? HV_BAD_LVER :
                 !has_need        ? HV_TRUNCATED :
                 has_grh && grh_bad ? HV_BAD_GRH : HV_OK;

// BTH bytes 2-3 hold the P_Key (IBA §9.2.3); the BTH is at 8 (no GRH) or 48
assign pkey    = has_grh ? {hdr_next[400 +: 8], hdr_next[408 +: 8]} : {hdr_next[80 +: 8], hdr_next[88 +: 8]};
// LRH bytes 4-5: Resv5(15:11) PktLen(10:0) (IBA §7.7.8)
assign pktlen  = {hdr_next[32 +: 3], hdr_next[40 +: 8]};
// DGID = GRH bytes 24..39 = packet bytes 32..47; prefix = its first 10 bits
wire [9:0] prefix = {hdr_next[256 +: 8], hdr_next[270 +: 2]};
assign dgid_in_site = (prefix == DGID_LINK_LOCAL) || (prefix == DGID_SITE_LOCAL);
// MF bits 37:32 = GRH byte 25 bits 5:0, 31:0 = GRH bytes 26..29 (TPDS Fig. 4)
assign mf      = {hdr_next[264 +: 6], hdr_next[272 +: 8], hdr_next[280 +: 8], hdr_next[288 +: 8], hdr_next[296 +: 8]};

endmodule

`resetall
