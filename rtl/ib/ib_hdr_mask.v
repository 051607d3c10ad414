/*
 * ib_hdr_mask — the masked header string H of docs/wire-format.md §3.1 (the GCM
 * additional data of every secured mode) and the variant-field masks that the ICRC
 * engines apply (docs/packets.md §2; IBA Vol. 1 §7.8.1, Annex A17).
 *
 * Function
 *   Variant bits (set to one in the ICRC input and in H; frame offsets):
 *     native, no GRH  LRH byte 0 bits 7:4 (VL)                              -> byte 0 |= f0
 *     native, GRH     the whole LRH                                        -> bytes 0-7
 *                     GRH byte 0 bits 3:0, bytes 1-3 (TClass, FlowLabel),
 *                     byte 7 (HopLmt)                                      -> byte 8 |= 0f, 9-11, 15
 *                     with mask_mf also the DDPM Marking Field, GRH byte 25
 *                     bits 5:0 and bytes 26-29 (docs/availability.md §2.4)  -> byte 33 |= 3f, 34-37
 *     RoCEv2 IPv4     IPv4 byte 1 (TOS), 8 (TTL), 10-11 (checksum)          -> bytes 15, 22, 24, 25
 *                     UDP bytes 6-7 (checksum)                             -> bytes 40, 41
 *     RoCEv2 IPv6     IPv6 byte 0 bits 3:0, bytes 1-3, byte 7              -> byte 14 |= 0f, 15-17, 21
 *                     UDP bytes 6-7                                        -> bytes 60, 61
 *     every shape     BTH byte 4 (FECN, BECN, Resv6a)                      -> bth_off + 4
 *   ones:    bit 8*i+j is set when bit j of frame byte i is variant, so the ICRC input byte
 *            i is hdr byte i | ones byte i (crc.c, ibsec_icrc_masked_bytes).
 *   variant: bit i is set when every bit of frame byte i is variant, i.e. the byte is
 *            replaced by ff. Four variant fields cover only part of a byte (LRH VL, the
 *            GRH / IPv6 traffic class nibble of byte 0, the first Marking Field byte);
 *            those bytes are in ones but not in variant, so an ICRC engine that can only
 *            replace whole bytes needs ones for them.
 *   aad:     H, byte 0 at [7:0]: native, frame bytes 0 .. hdr_len-1 with the variant bits
 *            set; RoCEv2, eight ff bytes (the absent LRH, Annex A17) then frame bytes
 *            14 .. hdr_len-1 masked the same way (the Ethernet header is not part of H).
 *            Bytes from aad_len on are zero. This is ibsec_aad_headers of
 *            cmodel/ibsec_frame.c for the parsed wire packet (hdr_len = the end of its
 *            last ETH): on seal the header after ib_hdr_edit, on open as received.
 *   mask_mf: the engine's switch (ibsec_engine.mask_mf); it acts on the native-GRH shape
 *            only.
 *
 * Byte order
 *   Byte i of the frame is hdr[8*i+7 : 8*i], byte i of H is aad[8*i+7 : 8*i]
 *   (AXI4-Stream order, docs/conventions.md).
 *
 * Latency / throughput
 *   Combinational: the masks are constants selected by the shape, so the logic is an OR
 *   per bit, a two-way byte shift (native / RoCEv2) and one compare with aad_len per
 *   output word. Yosys 0.23 synth_ecp5: 2095 LUT4, 35 CCU2C; longest topological path
 *   9 cells.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Masked header string and variant-field masks
 */
module ib_hdr_mask #(
    // bytes of the frame visible in hdr (at least MASK_BYTES)
    parameter HDR_BYTES = 128,
    // bytes of the aad output (H has at most 106 bytes: LRH + GRH + BTH + 32 bytes of ETHs)
    parameter AAD_BYTES = 128
) (
    input  wire [8*HDR_BYTES-1:0] hdr,       // wire bytes (after sealing on seal, as received on open)
    input  wire [1:0]             shape,     // enum ibsec_shape (from ib_hdr_parse)
    input  wire [6:0]             hdr_len,   // bytes from frame byte 0 through the last ETH
    input  wire                   mask_mf,   // native GRH: the DDPM Marking Field is variant too
    output wire [8*AAD_BYTES-1:0] aad,       // H, byte 0 at [7:0], zero from aad_len on
    output wire [6:0]             aad_len,   // hdr_len (native) or hdr_len - 14 + 8 (RoCEv2);
                                             // a multiple of 4 for every parsed header
    output wire [HDR_BYTES-1:0]   variant,   // bit i: frame byte i is replaced by ff in the ICRC
    output reg  [8*HDR_BYTES-1:0] ones       // bit 8i+j: bit j of frame byte i is variant
);

// ---------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------

// frame bytes that can hold a variant bit: up to BTH byte 4 of RoCEv2 over IPv6 (62 + 4)
localparam MASK_BYTES = 67;

`include "ibsec_enums.vh"   // R_* (reasons), M_* (modes), SHAPE_*

// RoCEv2: H leaves out the 14-byte Ethernet header and starts with 8 bytes of ones
// standing for the LRH (Annex A17), so frame byte i is H byte i - 14 + 8
localparam MAC_LEN      = 14;
localparam LRH_STANDIN  = 8;
localparam ROCE_SHIFT   = MAC_LEN - LRH_STANDIN;

// frame offsets of the headers
localparam LRH_OFF      = 0;
localparam GRH_OFF      = 8;
localparam IP_OFF       = 14;
localparam UDP4_OFF     = 34;
localparam UDP6_OFF     = 54;
localparam BTH_IB_LOCAL = 8;
localparam BTH_IB_GLOBAL = 48;
localparam BTH_ROCE_V4  = 42;
localparam BTH_ROCE_V6  = 62;
localparam BTH_VARIANT  = 4;    // BTH byte 4: FECN, BECN, Resv6a (§7.8.1)

generate
    if (HDR_BYTES < MASK_BYTES) begin : g_bad_param
        initial begin
            $error("ib_hdr_mask: HDR_BYTES = %0d, must be at least %0d", HDR_BYTES, MASK_BYTES);
            $finish;
        end
    end
endgenerate

// ---------------------------------------------------------------------------------------
// Variant bits of the shape
// ---------------------------------------------------------------------------------------

// IBA §7.8.1 GRH, and the same fields of an IPv6 header (Annex A17): TClass / traffic
// class (byte 0 bits 3:0, byte 1 bits 7:4), FlowLabel (byte 1 bits 3:0, bytes 2-3),
// HopLmt / hop limit (byte 7); IPVer stays
task mask_grh_or_ipv6(input integer off);
    begin
        ones[8*off +: 8]       = 8'h0f;
        ones[8*(off + 1) +: 24] = 24'hffffff;
        ones[8*(off + 7) +: 8] = 8'hff;
    end
endtask

always @* begin
    ones = {8*HDR_BYTES{1'b0}};
    case (shape)
        SHAPE_IB_LOCAL: begin
            ones[8*LRH_OFF +: 8] = 8'hf0;                       // LRH VL
            ones[8*(BTH_IB_LOCAL + BTH_VARIANT) +: 8] = 8'hff;
        end
        SHAPE_IB_GLOBAL: begin
            ones[8*LRH_OFF +: 64] = {64{1'b1}};                 // the whole LRH
            mask_grh_or_ipv6(GRH_OFF);
            if (mask_mf) begin
                // docs/availability.md §2.4: GRH byte 25 bits 5:0 and bytes 26..29
                ones[8*(GRH_OFF + 25) +: 8] = 8'h3f;
                ones[8*(GRH_OFF + 26) +: 32] = 32'hffffffff;
            end
            ones[8*(BTH_IB_GLOBAL + BTH_VARIANT) +: 8] = 8'hff;
        end
        SHAPE_ROCE_V4: begin
            ones[8*(IP_OFF + 1) +: 8]  = 8'hff;                 // TOS (DSCP, ECN)
            ones[8*(IP_OFF + 8) +: 8]  = 8'hff;                 // TTL
            ones[8*(IP_OFF + 10) +: 16] = 16'hffff;             // header checksum
            ones[8*(UDP4_OFF + 6) +: 16] = 16'hffff;            // UDP checksum
            ones[8*(BTH_ROCE_V4 + BTH_VARIANT) +: 8] = 8'hff;
        end
        SHAPE_ROCE_V6: begin
            mask_grh_or_ipv6(IP_OFF);
            ones[8*(UDP6_OFF + 6) +: 16] = 16'hffff;            // UDP checksum
            ones[8*(BTH_ROCE_V6 + BTH_VARIANT) +: 8] = 8'hff;
        end
        default: ;
    endcase
end

// per byte by generate (unrolled at any HDR_BYTES; a loop of more than 64 iterations
// would stay a run-time loop over the wide vectors in Verilator)
genvar i;
generate
    for (i = 0; i < HDR_BYTES; i = i + 1) begin : g_variant
        assign variant[i] = &ones[8*i +: 8];
    end
endgenerate

// ---------------------------------------------------------------------------------------
// H
// ---------------------------------------------------------------------------------------

wire                   roce   = shape[1];
wire [8*HDR_BYTES-1:0] masked = hdr | ones;

assign aad_len = roce ? hdr_len - ROCE_SHIFT : hdr_len;

// H is a whole number of 4-byte words for every shape (LRH 8, GRH 40, BTH 12, the
// 8 bytes of ones, IPv4 20, IPv6 40, UDP 8, ETHs of 4, 8, 16 or 28 bytes), so bytes are
// cleared a word at a time: word w is kept while w < aad_len / 4.
genvar j;
generate
    for (j = 0; j < AAD_BYTES; j = j + 1) begin : g_aad
        // the byte of H at j when it is kept: native frame byte j; RoCEv2 the LRH stand-in,
        // then frame byte j + ROCE_SHIFT
        wire [7:0] native_byte;
        wire [7:0] roce_byte;
        if (j < HDR_BYTES) begin : g_native
            assign native_byte = masked[8*j +: 8];
        end else begin : g_native_none
            assign native_byte = 8'h00;
        end
        if (j < LRH_STANDIN) begin : g_roce_lrh
            assign roce_byte = 8'hff;
        end else if (j + ROCE_SHIFT < HDR_BYTES) begin : g_roce
            assign roce_byte = masked[8*(j + ROCE_SHIFT) +: 8];
        end else begin : g_roce_none
            assign roce_byte = 8'h00;
        end
        assign aad[8*j +: 8] = (j / 4 >= aad_len[6:2]) ? 8'h00 : roce ? roce_byte : native_byte;
    end
endgenerate

endmodule

`resetall
