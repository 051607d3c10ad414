/*
 * ibsec_engine — the ibsec packet engine: one direction (OPEN = 0 seal / transmit,
 * OPEN = 1 open / receive) of the inline AES-GCM security of IBA and RoCEv2 packets,
 * bit-exact with the C model (docs/wire-format.md §7 seal, §8 open; cmodel/ibsec_seal.c,
 * ibsec_open.c). Architecture, buffers and cycle counts: docs/packet-engine.md.
 *
 * Function
 *   Store-and-forward, as a pipeline of stages that work on consecutive packets at once,
 *   handing per-packet descriptors (header register, parse results, decision, tag) from
 *   stage to stage through FIFOs:
 *     ingress  frames into the input ring (one beat per clock), the first CAP_BYTES bytes
 *              into a header register; a descriptor per frame, once its header register
 *              is full (CAP_BEAT) with the frame length the header implies, so that the
 *              frame is decided and crypted while the rest arrives, or at its end if it
 *              is shorter; at the end of every frame the late parse with the length
 *              counted, which has the last word; on open, the frame's ICRC (without and
 *              with the MASK_MF variant bits), VCRC and received CRC fields computed as
 *              it arrives (ibsec_rx_check)
 *     parse    ib_hdr_parse on the descriptor's header (steps 1-3), its results
 *              registered with the packet in PR
 *     lookup   the context lookup of the CQ head (ibsec_regs tables), registered with
 *              the packet in LQ; looked up again if a command ran since
 *     decide   key and EPSN in one cycle on LQ, in the model's order of checks (open:
 *              without the VCRC and ICRC, whose results may come after the decision;
 *              the egress register applies them in that order); CONFIG (ALLOW_PLAIN,
 *              MASK_MF) sampled here, once per packet; seal: the wire
 *              header edited here (ib_hdr_edit) and carried on in the descriptor, and
 *              a packet decided before its frame's end holds the next decision until
 *              its late parse is known (a reject takes its tx_next commit back)
 *     crypt    the DQ head registered in CJ with its GCM message prepared (H, lengths,
 *              the message's end and beats); (secured modes) the crypt composer feeds
 *              gcm_core: AAD = the masked header
 *              string H of ib_hdr_mask, then payload + pad as data (icrc-mac, sth-aead) or
 *              as more AAD (sth-pkt) or not at all (sth-hdr); the output goes into the
 *              crypt ring, the tag into the tag FIFO; it reads the input ring behind the
 *              arrival
 *     egress   the XQ head and its tag registered in EQ, with (open) the tag comparison
 *              and the arrival check's VCRC and ICRC verdicts; (open) commit (void for a
 *              packet a CRC drops); the egress composer builds the output: edited header
 *              (seal: from the decision; open: ib_hdr_edit here), STH, payload (from
 *              the crypt ring when encrypted); the ICRC (or the tag, icrc-mac) and
 *              VCRC are computed on the way into the output FIFO and patched into the
 *              last beats on the way out. Seal icrc-mac needs its tag only there (the
 *              late tag): its packet enters EQ without it, and the egress composer reads
 *              the crypt ring behind gcm_core's writes
 *   A dropped packet produces nothing on m_axis and, as every packet, one status entry.
 *   Packets leave and are reported in input order.
 *
 * Latency / throughput
 *   Every stage takes one beat per clock and chains its packets without a bubble, so
 *   back-to-back packets flow at one beat per clock on the link side (seal m_axis, open
 *   s_axis), except on open for frames shorter than about 24 / INFLIGHT beats (the
 *   decided, unchecked packets the context table holds; INFLIGHT below) and for one-beat
 *   frames at LANES = 12. The crypt pass of a frame longer than the header register runs
 *   behind its arrival, so the wait after the last beat does not grow with the packet:
 *   seal sth-pkt and sth-aead, whose STH in front of the payload holds the tag, wait for
 *   gcm_core's latency to the tag and the egress stage (40 / 34 / 32 cycles at LANES =
 *   1 / 4 / 12, measured before gcm_core's GHASH loop grew by 8 cycles to the tag: about
 *   8 more now); open, whose verdict needs the tag, hashes at gcm_core's input
 *   (EARLY_GHASH) and waits 19-28 cycles; seal icrc-mac streams the ciphertext out once
 *   the frame has ended and waits for the tag only at the last beat (6 cycles from 1 KiB
 *   on at LANES = 1). On open the CRC results are at the check FIFO's head 10-14 cycles
 *   after the last input beat (ibsec_rx_check) (docs/packet-engine.md §5).
 *
 * Reset
 *   rst (synchronous, active high) discards every packet in flight, clears the tables,
 *   counters and configuration (ibsec_regs) and uninstalls every key (gcm_core).
 *
 * Byte order
 *   AXI4-Stream: byte 0 of the frame in tdata[7:0], byte j of a beat at [8*j +: 8].
 *   GCM IV byte 0 at [95:88], tag byte 0 at [127:120] (gcm_core).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * ibsec packet engine (seal or open)
 */
module ibsec_engine #(
    // 128-bit blocks per beat (1, 4, 12)
    parameter LANES = 1,
    // 0: seal (transmit), 1: open (receive)
    parameter OPEN = 0,
    // key table entries
    parameter KEY_SLOTS = 4,
    // context table entries
    parameter CTX_SLOTS = 16,
    // register stages per AES round in gcm_core (1 or 2)
    parameter STAGES_PER_ROUND = 1,
    // gcm_core's S-boxes: 0 = LUT tables, 1 = block RAM (needs STAGES_PER_ROUND = 2)
    parameter SBOX_IMPL = 0,
    // width of a context index (derived; do not override)
    parameter CTX_W = (CTX_SLOTS > 1) ? $clog2(CTX_SLOTS) : 1
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * Packet input (tuser: link, 0 native IBA, 1 RoCEv2, sampled on the first beat)
     */
    input  wire [128*LANES-1:0] s_axis_tdata,
    input  wire [16*LANES-1:0]  s_axis_tkeep,
    input  wire                 s_axis_tvalid,
    output wire                 s_axis_tready,
    input  wire                 s_axis_tlast,
    input  wire                 s_axis_tuser,

    /*
     * Packet output (only packets whose verdict is ok; tuser: link, on every beat)
     */
    output wire [128*LANES-1:0] m_axis_tdata,
    output wire [16*LANES-1:0]  m_axis_tkeep,
    output wire                 m_axis_tvalid,
    input  wire                 m_axis_tready,
    output wire                 m_axis_tlast,
    output wire                 m_axis_tuser,

    /*
     * Status: one entry per input packet, in input order, valid for one cycle
     */
    output wire                 st_valid,
    output wire [5:0]           st_reason,
    output wire                 st_ctx_hit,
    output wire [CTX_W-1:0]     st_ctx,
    output wire [2:0]           st_mode,
    output wire [62:0]          st_epsn,
    output wire                 st_alert,

    /*
     * Register bus (docs/registers.md)
     */
    input  wire                 reg_req,
    input  wire                 reg_we,
    input  wire [11:0]          reg_addr,
    input  wire [31:0]          reg_wdata,
    output wire                 reg_ack,
    output wire [31:0]          reg_rdata,
    output wire                 irq_alert
);

// ----------------------------------------------------------------------------
// Constants
// ----------------------------------------------------------------------------
// bytes and bits per beat
localparam W  = 16 * LANES;
localparam DW = 8 * W;
// bytes of the header register window seen by the header modules
localparam HDR_BYTES = 128;
// front vector of the composers: the header and a 16-byte STH behind it
localparam FRONT_BYTES = HDR_BYTES + 16;
// bytes captured at the start of the frame: the header window and a 16-byte STH behind
// the longest header (RoCEv2 over IPv6 with 40 bytes of ETHs ends at byte 114)
localparam CAP_BYTES = HDR_BYTES + 16;
// frame length counter: 17 bits, saturated, so that the parser judges every over-long
// frame exactly as the model (ib_hdr_parse LEN_W)
localparam LEN_W = 17;
localparam [LEN_W-1:0] LEN_MAX = {LEN_W{1'b1}};
// largest frame kept: IBSEC_MAX_PKT (cmodel/ib_pkt.h) = 14 + 40 + 8 + 12 + 32 + 64 + 4096
// + 3 + 4 + 2 = 4275 bytes; longer frames are consumed, never parsed as valid
localparam MAX_FRAME = 4275;
// bits of a GCM message's byte counts in gcm_core (ALEN_WIDTH, CLEN_WIDTH): the crypt
// stage addresses a message in 13 bits (dh_msg_end), so a message, AAD and data together,
// is at most the header (< 128 bytes) + the largest payload and pad, far below 2^13
localparam GCM_LEN_W = 13;
localparam BUF_BEATS = (MAX_FRAME + W - 1) / W;
// input ring and crypt ring: room for about four of the largest packets, so that the
// ingress, check, crypt and egress stages each hold one, plus the beats that arrive
// during a packet's fixed time in the engine (gcm_core to the tag, the descriptor
// stages; sized when open's CRC check still read the ring after the arrival: FF latency
// - N beats = 86 cycles for a 4 KiB open packet at LANES = 12), so that the link side
// keeps one beat per clock where packets are few beats long (a power of two: addresses
// wrap). 2048 beats at LANES = 1, 512 at 4, 256 at
// 12 (128 without the fixed term held the 4 KiB open stream at LANES = 12 to 99.1 %)
localparam RING_FIXED = 128;
localparam RAW = $clog2(4 * BUF_BEATS + RING_FIXED);
localparam RING = 1 << RAW;
localparam [RAW:0] RING_BEATS = RING[RAW:0];
localparam [RAW-1:0] BUF_BEATS_R = BUF_BEATS[RAW-1:0];
// key slot index width (gcm_core's SLOT_WIDTH)
localparam KEY_W = (KEY_SLOTS > 1) ? $clog2(KEY_SLOTS) : 1;
// byte count 0..W
localparam NW = $clog2(W + 1);
// descriptor FIFOs: ingress -> parse (IQ), parse/check -> decide (CQ), decide -> crypt
// (DQ), crypt -> egress (XQ, which covers gcm_core's latency to the tag)
localparam IQ_DEPTH = 4;
localparam CQ_DEPTH = 8;
localparam DQ_DEPTH = 2;
localparam XQ_DEPTH = 16;
// gcm_core input FIFO and output FIFO: a beat is issued while two places are free (the
// beat on the composer's tap and the one issued now); the output FIFO also covers the
// CRC latency, so that the egress stream does not stop at the patched tail of a packet
localparam GQ_DEPTH = 8;
localparam OQ_DEPTH = 16;
localparam [$clog2(GQ_DEPTH):0] GQ_ROOM_MAX = GQ_DEPTH - 2;
localparam [$clog2(OQ_DEPTH):0] OQ_ROOM_MAX = OQ_DEPTH - 2;
// CRC results of the egress stream: at most one per packet with a beat in the output
// FIFO or on the composer's tap
localparam RQ_DEPTH = 32;
// open: check results (ibsec_rx_check), one per frame from the end of its arrival to the
// egress register, which reads them: such a packet is in IQ, PR, CQ, LQ, DQ, CJ or XQ
// (the places summed in KR_PLACES, 33; 64 as a power of two), so the results FIFO never
// overflows and needs no back-pressure
localparam KR_PLACES = IQ_DEPTH + 1 + CQ_DEPTH + 1 + DQ_DEPTH + 1 + XQ_DEPTH;
localparam KR_DEPTH = 1 << $clog2(KR_PLACES);
// the beat that completes the header register (frame bytes 0 .. CAP_BYTES - 1; 8,
// 2, 0 at LANES = 1, 4, 12). A frame that goes on after it enters IQ with this beat,
// parsed with the frame length its header implies (the early descriptor), so that its
// decision and crypt pass run while the rest arrives; the late parse at the frame's end,
// with the length counted, decides (docs/packet-engine.md §3.1)
localparam CAP_BEATS_IN = (CAP_BYTES - 1) / W;
localparam [8:0] CAP_BEAT = CAP_BEATS_IN[8:0];
// open: packets decided and not yet committed (ibsec_ctx_table's in-flight queue; a full
// queue holds every decision back). A packet stays there from its decision to its tag
// check at egress, about 24 cycles (crypt composer, gcm_core's 20 to the tag, tag FIFO;
// with 8 places the bench saw one packet per 2.8 - 3.0 cycles; since the open core hashes
// at its input, a short frame's tag waits for its E_K(J0) instead, which leaves the AES
// pipeline AES_LATENCY + 2 cycles after the first beat), so the link side keeps
// one beat per clock only for frames of more than about 24 / INFLIGHT beats: 8 places
// cover frames of 4 beats (64-byte payloads at LANES = 1), 16 places frames of 2 beats
// (64-byte payloads at LANES = 4, 256-byte at LANES = 12, which reached 67-70 % of the
// beats with 8). Kept at 8 at LANES = 1, whose area is the one that must shrink; DQ + XQ
// (18 places) hold every packet in flight. A frame decided from its early descriptor
// (CAP_BEAT) also stays for the rest of its arrival, N - CAP_BEAT - 1 beats, so about
// (N - CAP_BEAT + 24) / N packets of N beats are in flight: at most 2.6, 6.5 and 13 at
// LANES = 1, 4 and 12 (N = 10, 4 and 2), within INFLIGHT.
localparam INFLIGHT = (LANES == 1) ? 8 : 16;

`include "ibsec_enums.vh"   // R_* (reasons), M_* (modes), SHAPE_*

// ICRC 4 bytes, VCRC 2 bytes (IBA Vol. 1 §7.8)
localparam [12:0] ICRC_LEN = 13'd4;
localparam [12:0] VCRC_LEN = 13'd2;
// STH sizes of STHSZ 1 and 2 (sRDMA Table 2: 96- and 128-bit MAC)
localparam [6:0] STH96_LEN  = 7'd12;
localparam [6:0] STH128_LEN = 7'd16;
// icrc-mac: 4 tag bytes in the ICRC field (Lee & Kim §5.2)
localparam [4:0] ICRC_MAC_TAG_LEN = 5'd4;

// descriptor widths
localparam IQ_W = 8 * CAP_BYTES + LEN_W + 1 + 2 * RAW;
localparam PR_W = 2 + 7 + 7 + 7 + 13 + 13 + 3 + 3 + 24 + 24 + 16;   // parse results
localparam DC_W = 6 + 1 + CTX_W + 3 + 3 + 3 + KEY_W + 32 + 1 + 63 + 1 + 1;  // decision
localparam DS_W = 8 * CAP_BYTES + 1 + 2 * RAW + PR_W + 1 + DC_W + 2 * RAW + 1;
// where the parsed P_Key and DestQP lie in a descriptor word (the fields after them: the
// check flag, the decision, the crypt ring base and beats, the crypted flag)
localparam DS_PKEY_LSB   = 1 + DC_W + 2 * RAW + 1;
localparam DS_DESTQP_LSB = DS_PKEY_LSB + 16;
// where the input ring beats of the packet lie in a descriptor word (behind the header,
// the link and the ring address); egress replaces them with the late parse's
localparam DS_NB_LSB     = DS_W - 8 * CAP_BYTES - 1 - 2 * RAW;
// the fields the crypt job register (CJ) reads from the DQ head: the parse results
// (shape, lengths) and the decision (apply mode, MASK_MF), from the word's low end:
// crypted (1), crypt ring beats and base (2 x RAW), ICRC check (1), MASK_MF (1), EPSN
// (63), dir (1), salt (32), key (KEY_W), STH code (3), apply mode (3), ...; and above
// the decision and the check flag, P_Key (16), DestQP (24), PSN (24), STHSZ (3), packet
// mode (3), packet end (13), payload + pad (13), STH length (7), header length (7), BTH
// offset (7), shape (2)
localparam DS_MF_LSB      = 2 * RAW + 2;
localparam DS_APPLY_LSB   = DS_MF_LSB + 1 + 63 + 1 + 32 + KEY_W + 3;
localparam DS_PP_LEN_LSB  = DS_DESTQP_LSB + 24 + 24 + 3 + 3 + 13;
localparam DS_STH_LEN_LSB = DS_PP_LEN_LSB + 13;
localparam DS_HDR_LEN_LSB = DS_STH_LEN_LSB + 7;
localparam DS_SHAPE_LSB   = DS_HDR_LEN_LSB + 7 + 7;
// egress composer tag: link, source is the crypt ring, ring beats to release (input,
// crypt), the ICRC field is the tag (seal icrc-mac: its 4 bytes come from PTQ, below)
localparam ET_W = 1 + 1 + 2 * RAW + 1;
// crypt composer tag: key slot and IV
localparam CT_W = KEY_W + 96;
// gcm input FIFO word
localparam GQ_W = 1 + LANES + W + DW + CT_W;
// output FIFO word: link, last, keep, data, field flags and shifts
localparam OQ_W = 1 + 1 + W + DW + 1 + NW + 1 + 3;
// egress CRC pending word: link, the tag is the ICRC field
localparam EP_W = 1 + 1;
// seal icrc-mac, the late tag (docs/packet-engine.md §3.1, stage 5): the kinds of the
// messages in gcm_core (KQ), their tags (TLQ), the packets past EQ that still own one
// (OW) and the tags of the packets on their way out (PTQ). A message is in gcm_core
// while its packet is in XQ (16), EQ (1) or, its egress started, past EQ: in the egress
// composer or with a beat in the output FIFO (16), so 64 places hold every one of them
// and none of these FIFOs needs back-pressure; PTQ holds one tag per packet with a
// pending CRC result (RQ_DEPTH)
localparam LT_DEPTH = 64;

generate
    // the field positions above must add up to the descriptor word
    if (DS_SHAPE_LSB + 2 != DS_NB_LSB ||
        DS_APPLY_LSB + 3 + 3 + CTX_W + 1 + 6 + 1 != DS_PKEY_LSB) begin : g_bad_fields
        initial begin
            $error("Error: ibsec_engine descriptor field positions inconsistent (instance %m)");
            $finish;
        end
    end
    if (OPEN != 0 && OPEN != 1) begin : g_bad_open
        initial begin
            $error("Error: ibsec_engine OPEN must be 0 or 1 (instance %m)");
            $finish;
        end
    end
    if (LANES < 1) begin : g_bad_lanes
        initial begin
            $error("Error: ibsec_engine LANES must be at least 1 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Functions
// ----------------------------------------------------------------------------
// bytes set in a tkeep prefix mask
// (counted per 16-byte lane: short loops, which the simulator unrolls; one loop over
// W > 64 bytes would run byte by byte)
function [NW-1:0] keep_count;
    input [W-1:0] keep;
    integer i, j;
    begin
        keep_count = {NW{1'b0}};
        for (i = 0; i < LANES; i = i + 1)
            for (j = 0; j < 16; j = j + 1)
                keep_count = keep_count + {{(NW-1){1'b0}}, keep[16*i + j]};
    end
endfunction

// round a byte count up to whole 16-byte blocks
function [12:0] round16;
    input [12:0] n;
    begin
        round16 = (n + 13'd15) & ~13'd15;
    end
endfunction

// the STH length of an STH code (wire-format.md §2: 1 -> 12, 2 -> 16)
function [6:0] sth_bytes;
    input [2:0] code;
    begin
        sth_bytes = (code == 3'd1) ? STH96_LEN : STH128_LEN;
    end
endfunction

// modes with an STH
function mode_has_sth;
    input [2:0] mode;
    begin
        mode_has_sth = (mode == M_STH_HDR) || (mode == M_STH_PKT) || (mode == M_STH_AEAD);
    end
endfunction

// modes whose payload + pad is the GCM plaintext
function mode_encrypts;
    input [2:0] mode;
    begin
        mode_encrypts = (mode == M_ICRC_MAC) || (mode == M_STH_AEAD);
    end
endfunction

// BTH byte 8 bits 6:0 of a mode (wire-format.md §2: SECMODE in 4:3, STHSZ in 2:0)
function [6:0] secbits_encode;
    input [2:0] mode;
    input [2:0] code;
    begin
        case (mode)
            M_ICRC_MAC: secbits_encode = 7'h08;
            M_STH_HDR:  secbits_encode = {2'b00, 2'd1, code};
            M_STH_PKT:  secbits_encode = {2'b00, 2'd2, code};
            M_STH_AEAD: secbits_encode = {2'b00, 2'd3, code};
            default:    secbits_encode = 7'h00;
        endcase
    end
endfunction


// byte reversal of a 16-byte tag: gcm_core's byte 0 at [127:120] -> byte 0 at [7:0]
function [127:0] tag_to_stream;
    input [127:0] t;
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1)
            tag_to_stream[8*i +: 8] = t[127-8*i -: 8];
    end
endfunction

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// ingress
reg [8*CAP_BYTES-1:0]   ing_hdr_reg, ing_hdr_next;
reg [LEN_W-1:0]         ing_len_reg, ing_len_next;
reg                     ing_link_reg, ing_link_next;
reg [RAW-1:0]           ing_base_reg, ing_base_next;
reg [8:0]               wbeat_reg, wbeat_next;
// the arriving frame's early descriptor is in IQ (it went in at CAP_BEAT)
reg                     ing_early_reg, ing_early_next;
// input ring: write pointer and free pointer (one bit more than the address: full/empty)
reg [RAW:0]             wp_reg, wp_next;
reg [RAW:0]             fp_reg, fp_next;
// crypt ring: allocated up to, freed up to, written up to (gcm_core's output; the
// address is the low RAW bits)
reg [RAW:0]             ca_reg, ca_next;
reg [RAW:0]             cf_reg, cf_next;
reg [RAW:0]             cw_reg, cw_next;
// status output
reg                     st_valid_reg, st_valid_next;
reg [5:0]               st_reason_reg, st_reason_next;
reg                     st_hit_reg, st_hit_next;
reg [CTX_W-1:0]         st_ctx_reg, st_ctx_next;
reg [2:0]               st_mode_reg, st_mode_next;
reg [62:0]              st_epsn_reg, st_epsn_next;
reg                     st_alert_reg, st_alert_next;

// ----------------------------------------------------------------------------
// Descriptor FIFO heads (fields in the order of the descriptor word)
// ----------------------------------------------------------------------------
/* verilator lint_off UNUSEDSIGNAL */
// one descriptor format travels through CQ, DQ and XQ; each stage reads only the
// fields it needs (the others pass through it in the word)
// CQ head: parsed (and checked) packet waiting for its decision
reg  [8*CAP_BYTES-1:0]     c_hdr;
reg                        c_link;
reg  [RAW-1:0]             c_base;
reg  [RAW-1:0]             c_nb;
reg  [1:0]                 c_shape;
reg  [6:0]                 c_bth_off;
reg  [6:0]                 c_hdr_len;
reg  [6:0]                 c_sth_len;
reg  [12:0]                c_pp_len;
reg  [12:0]                c_pkt_end;
reg  [2:0]                 c_pmode;
reg  [2:0]                 c_sthsz;
reg  [23:0]                c_psn;
reg  [23:0]                c_destqp;
reg  [15:0]                c_pkey;
reg                        c_chk;
reg  [5:0]                 c_reason;
reg                        c_hit;
reg  [CTX_W-1:0]           c_ctx;
reg  [2:0]                 c_smode;
reg  [2:0]                 c_apply;
reg  [2:0]                 c_code;
reg  [KEY_W-1:0]           c_key;
reg  [31:0]                c_salt;
reg                        c_dir;
reg  [62:0]                c_epsn;
reg                        c_mf;
reg                        c_ichk;
reg  [RAW-1:0]             c_cbase;
reg  [RAW-1:0]             c_mb;
reg                        c_crypted;
// DQ head: decided packet waiting for the crypt stage
reg  [8*CAP_BYTES-1:0]     d_hdr;
reg                        d_link;
reg  [RAW-1:0]             d_base;
reg  [RAW-1:0]             d_nb;
reg  [1:0]                 d_shape;
reg  [6:0]                 d_bth_off;
reg  [6:0]                 d_hdr_len;
reg  [6:0]                 d_sth_len;
reg  [12:0]                d_pp_len;
reg  [12:0]                d_pkt_end;
reg  [2:0]                 d_pmode;
reg  [2:0]                 d_sthsz;
reg  [23:0]                d_psn;
reg  [23:0]                d_destqp;
reg  [15:0]                d_pkey;
reg                        d_chk;
reg  [5:0]                 d_reason;
reg                        d_hit;
reg  [CTX_W-1:0]           d_ctx;
reg  [2:0]                 d_smode;
reg  [2:0]                 d_apply;
reg  [2:0]                 d_code;
reg  [KEY_W-1:0]           d_key;
reg  [31:0]                d_salt;
reg                        d_dir;
reg  [62:0]                d_epsn;
reg                        d_mf;
reg                        d_ichk;
reg  [RAW-1:0]             d_cbase;
// the DQ word's beat-count field (zero: the count is filled in on the way into XQ);
// the crypt stage computes the message's beats itself (d_mb below)
reg  [RAW-1:0]             d_mb_field;
reg                        d_crypted;
// EQ (the egress register, below): packet in the egress stage, with its tag
reg  [8*CAP_BYTES-1:0]     x_hdr;
reg                        x_link;
reg  [RAW-1:0]             x_base;
reg  [RAW-1:0]             x_nb;
reg  [1:0]                 x_shape;
reg  [6:0]                 x_bth_off;
reg  [6:0]                 x_hdr_len;
reg  [6:0]                 x_sth_len;
reg  [12:0]                x_pp_len;
reg  [12:0]                x_pkt_end;
reg  [2:0]                 x_pmode;
reg  [2:0]                 x_sthsz;
reg  [23:0]                x_psn;
reg  [23:0]                x_destqp;
reg  [15:0]                x_pkey;
reg                        x_chk;
reg  [5:0]                 x_reason;
reg                        x_hit;
reg  [CTX_W-1:0]           x_ctx;
reg  [2:0]                 x_smode;
reg  [2:0]                 x_apply;
reg  [2:0]                 x_code;
reg  [KEY_W-1:0]           x_key;
reg  [31:0]                x_salt;
reg                        x_dir;
reg  [62:0]                x_epsn;
reg                        x_mf;
reg                        x_ichk;
reg  [RAW-1:0]             x_cbase;
reg  [RAW-1:0]             x_mb;
reg                        x_crypted;
// XQ head: the packet entering EQ
reg  [8*CAP_BYTES-1:0]     xh_hdr;
reg                        xh_link;
reg  [RAW-1:0]             xh_base;
reg  [RAW-1:0]             xh_nb;
reg  [1:0]                 xh_shape;
reg  [6:0]                 xh_bth_off;
reg  [6:0]                 xh_hdr_len;
reg  [6:0]                 xh_sth_len;
reg  [12:0]                xh_pp_len;
reg  [12:0]                xh_pkt_end;
reg  [2:0]                 xh_pmode;
reg  [2:0]                 xh_sthsz;
reg  [23:0]                xh_psn;
reg  [23:0]                xh_destqp;
reg  [15:0]                xh_pkey;
reg                        xh_chk;
reg  [5:0]                 xh_reason;
reg                        xh_hit;
reg  [CTX_W-1:0]           xh_ctx;
reg  [2:0]                 xh_smode;
reg  [2:0]                 xh_apply;
reg  [2:0]                 xh_code;
reg  [KEY_W-1:0]           xh_key;
reg  [31:0]                xh_salt;
reg                        xh_dir;
reg  [62:0]                xh_epsn;
reg                        xh_mf;
reg                        xh_ichk;
reg  [RAW-1:0]             xh_cbase;
reg  [RAW-1:0]             xh_mb;
reg                        xh_crypted;

/* verilator lint_on UNUSEDSIGNAL */

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

// IQ: frames, at CAP_BEAT or when complete
wire                    iq_s_ready, iq_m_valid;
reg                     iq_s_valid, iq_m_ready;
wire [IQ_W-1:0]         iq_s_data, iq_m_data;
/* verilator lint_off UNUSEDSIGNAL */
wire [$clog2(IQ_DEPTH):0] iq_count;
/* verilator lint_on UNUSEDSIGNAL */
wire [8*CAP_BYTES-1:0]  q_hdr;
wire [LEN_W-1:0]        q_len;
wire                    q_link;
wire [RAW-1:0]          q_base, q_nb;
assign {q_hdr, q_len, q_link, q_base, q_nb} = iq_m_data;
wire [8*HDR_BYTES-1:0]  q_win = q_hdr[8*HDR_BYTES-1:0];

// parser (on the IQ head); its results are registered in PR with the packet
wire [5:0]  pn_reason;
wire [1:0]  pn_shape;
wire [6:0]  pn_bth_off, pn_hdr_len, pn_sth_len;
wire [12:0] pn_pp_len, pn_pkt_end;
wire [15:0] pn_pkey;
wire [23:0] pn_destqp, pn_psn;
wire [2:0]  pn_mode, pn_sthsz;
/* verilator lint_off UNUSEDSIGNAL */
// opcode, pad count and SECMODE are checked inside the parser; the engine needs only
// the lengths and the mode the parser derives from them
wire [7:0]  pn_opcode;
wire [1:0]  pn_padcnt;
wire [1:0]  pn_secmode;
/* verilator lint_on UNUSEDSIGNAL */

// ---- parse register (PR): the IQ head and its parse results ----
// The parser's logic ends here, so that the CQ write does not add to it in the same
// cycle. PR takes the IQ head when it is empty or hands its packet on in the same cycle;
// it hands it on (CQ) in the cycle after, at the earliest.
reg                     pr_valid_reg = 1'b0;
reg  [8*CAP_BYTES-1:0]  i_hdr;
reg                     i_link;
reg  [RAW-1:0]          i_base, i_nb;
reg  [5:0]              p_reason;
reg  [1:0]              p_shape;
reg  [6:0]              p_bth_off, p_hdr_len, p_sth_len;
reg  [12:0]             p_pp_len, p_pkt_end;
reg  [15:0]             p_pkey;
reg  [23:0]             p_destqp, p_psn;
reg  [2:0]              p_mode, p_sthsz;
wire                    pr_take;           // PR's packet goes into CQ
wire                    pr_load = iq_m_valid && (!pr_valid_reg || pr_take);

// CQ: parsed packets
wire                    cq_s_ready, cq_m_valid;
reg                     cq_s_valid, cq_m_ready;
wire [DS_W-1:0]         cq_s_data, cq_m_data;
/* verilator lint_off UNUSEDSIGNAL */
wire [$clog2(CQ_DEPTH):0] cq_count;
/* verilator lint_on UNUSEDSIGNAL */
// check results of every frame (open), in packet order, read by the egress register
wire                    kr_valid;          // CRC results and received fields both present
wire [31:0]             kr_icrc0, kr_icrc1;
wire [15:0]             kr_vcrc;
wire [47:0]             kr_rx;             // received ICRC (31:0) and VCRC (47:32) fields
/* verilator lint_off UNUSEDSIGNAL */ // kr_pop serves the open check only
reg                     kr_pop;
/* verilator lint_on UNUSEDSIGNAL */
// late parse of every frame, at its end with the length counted, in packet order, read by
// the egress register (with the check results on open)
wire                    lp_valid;
wire [5:0]              lp_reason;         // ib_hdr_parse's reason with the true length
wire [2:0]              lp_mode;           // the mode BTH byte 8 names (status of a drop)
wire [RAW-1:0]          lp_nb;             // input ring beats the frame holds
reg                     lp_pop;
// seal: the same late reasons for the decision stage, and the early decision whose
// frame has not ended yet (unresolved: no other packet is decided until it is)
wire                    ld_valid;
wire [5:0]              ld_reason;
/* verilator lint_off UNUSEDSIGNAL */ // ld serves seal only
reg                     ld_pop;
/* verilator lint_on UNUSEDSIGNAL */
reg                     ur_valid_reg = 1'b0, ur_valid_next;
reg                     ur_commit_reg, ur_commit_next;   // it committed tx_next

// DQ: decided packets
wire                    dq_s_ready, dq_m_valid;
reg                     dq_s_valid, dq_m_ready;
wire [DS_W-1:0]         dq_s_data, dq_m_data;
/* verilator lint_off UNUSEDSIGNAL */
wire [$clog2(DQ_DEPTH):0] dq_count;
/* verilator lint_on UNUSEDSIGNAL */

// XQ: packets past the crypt stage
wire                    xq_s_ready, xq_m_valid;
reg                     xq_s_valid, xq_m_ready;
wire [DS_W-1:0]         xq_s_data, xq_m_data;
/* verilator lint_off UNUSEDSIGNAL */
wire [$clog2(XQ_DEPTH):0] xq_count;
/* verilator lint_on UNUSEDSIGNAL */

// tag FIFO: gcm_core's tags, in message order (but the late tags of seal icrc-mac)
wire                    gcm_tag_out;        // a message's tag leaves gcm_core
wire                    gcm_tag_late;       // it is a late tag (TLQ)
wire                    tq_s_ready, tq_m_valid;
reg                     tq_m_ready;
wire [127:0]            tq_m_data;
/* verilator lint_off UNUSEDSIGNAL */
// the FIFO is as deep as XQ, which holds every packet whose message is in gcm_core
wire [$clog2(XQ_DEPTH):0] tq_count;
/* verilator lint_on UNUSEDSIGNAL */

// register block
wire                 cfg_allow_plain, cfg_mask_mf, cfg_busy;
wire                 key_valid, key_ready, key_aes256;
wire [KEY_W-1:0]     key_slot;
wire [255:0]         key_data;
// lookup answers of the decided packet: registered in LQ (below)
wire                 lk_hit, lk_dir, lk_key_valid;
// the table's answers this cycle, for the packet entering LQ or looked up again in it
wire                 lk_hit_now, lk_dir_now, lk_key_valid_now;
wire [CTX_W-1:0]     lk_ctx_now;
wire [2:0]           lk_mode_now, lk_sth_code_now;
wire [KEY_W-1:0]     lk_key_now;
/* verilator lint_off UNUSEDSIGNAL */
// the key size travels with the key into gcm_core's slot; the engine does not need it
wire                 lk_key_aes256_now;
// the committed entry is always the oldest packet of XQ that reached the EPSN step
wire [CTX_W-1:0]     cm_ctx;
wire [62:0]          cm_epsn;
wire                 ep_full;
/* verilator lint_on UNUSEDSIGNAL */
wire [CTX_W-1:0]     lk_ctx;
wire [2:0]           lk_mode, lk_sth_code;
wire [KEY_W-1:0]     lk_key;
wire [31:0]          lk_salt;
reg                  dec_pkt;
wire                 ep_valid;
wire [5:0]           ep_reason;
wire [62:0]          ep_epsn;
wire                 ep_wait;
reg                  cm_valid, cm_pass, cm_void;
wire                 cm_alert;
wire                 pipe_busy;

// ---- lookup register (LQ): the oldest undecided packet and its context lookup ----
// The CQ head enters LQ with the table's answer for it, so that the decision starts at
// registers. The answer stays valid while cfg_busy stays low (docs/registers.md §4): a
// cycle with cfg_busy high marks it stale, and a stale packet is looked up again from
// its own descriptor (one cycle, with cfg_busy low) before it is decided.
reg                 lq_valid_reg = 1'b0;
reg                 lq_stale_reg;
reg  [DS_W-1:0]     lq_desc_reg;
reg                 lq_hit_reg, lq_dir_reg, lq_key_valid_reg;
reg  [CTX_W-1:0]    lq_ctx_reg;
reg  [2:0]          lq_mode_reg, lq_sth_code_reg;
reg  [KEY_W-1:0]    lq_key_reg;
wire                lq_relook = lq_valid_reg && lq_stale_reg && !cfg_busy;
wire [23:0]         lk_in_destqp = lq_relook ? c_destqp : cq_m_data[DS_DESTQP_LSB +: 24];
wire [15:0]         lk_in_pkey   = lq_relook ? c_pkey : cq_m_data[DS_PKEY_LSB +: 16];
assign lk_hit       = lq_hit_reg;
assign lk_dir       = lq_dir_reg;
assign lk_key_valid = lq_key_valid_reg;
assign lk_ctx       = lq_ctx_reg;
assign lk_mode      = lq_mode_reg;
assign lk_sth_code  = lq_sth_code_reg;
assign lk_key       = lq_key_reg;
// lk_salt: the register block's salt of slot lq_key_reg, read at the decision (the key
// table changes only while cfg_busy is high, which makes LQ stale)

// ---- decide (LQ) ----
// Open decides without the CRC check's results: the decision takes every check of the
// model but the two CRCs, and the egress register applies those (below), in the model's
// order: a bad VCRC comes before every check of the decision, a bad ICRC after the
// lookup's (no_context .. no_key) and before the EPSN step. A packet the CRCs will drop
// may therefore go through the EPSN step and the crypt stage, whose results egress
// discards (its in-flight entry leaves the table with a void commit: no window update,
// no failure counted), so that the decision never waits for the CRC results.
wire        dec_can = lq_valid_reg && !lq_stale_reg && dq_s_ready && !cfg_busy && !ur_valid_reg;
// seal: the packet's frame has ended when its late reason is at the head of ld (earlier
// packets took theirs); a late reject then counts as the parse's, before the lookup
wire [5:0]  c_reason_now = (OPEN == 0 && ld_valid && ld_reason != R_OK) ? ld_reason : c_reason;
// the packet reaches the EPSN step (seal §7 step 5, open §8 step 10): every earlier
// check of the decision passed (the same chain as in the decision below)
wire reach_ep = (c_reason_now == R_OK) &&
                lk_hit &&
                !(OPEN != 0 && c_pmode != lk_mode) &&
                !(OPEN != 0 && mode_has_sth(c_pmode) && c_sthsz != lk_sth_code) &&
                (lk_mode != M_NONE) && lk_key_valid;
assign ep_valid = dec_can && reach_ep;
// seal: the wire header after sealing (STH length added to every length field, BTH byte
// 8 with the mode), made at the decision from the lookup's mode and STH code, which are
// the verdict's apply mode and STH code whenever the packet is sent (a dropped packet's
// header is never used); it replaces the header window in the descriptor, so that the
// crypt stage (H) and the egress stage (output header) start from it. Open: the header
// as received, edited at egress.
wire [8*HDR_BYTES-1:0] c_edit;
generate
    if (OPEN == 0) begin : g_seal_edit
        // (the table answers mode 0 on a miss today; the guard does not rely on it)
        wire [2:0] c_apply_pre = lk_hit ? lk_mode : M_NONE;
        ib_hdr_edit #(.HDR_BYTES (HDR_BYTES)) c_hdr_edit (
            .hdr_in  (c_hdr[8*HDR_BYTES-1:0]),
            .shape   (c_shape),
            .bth_off (c_bth_off),
            .shrink  (1'b0),
            .len     (mode_has_sth(c_apply_pre) ? sth_bytes(lk_sth_code) : 7'd0),
            .secbits (secbits_encode(c_apply_pre, lk_sth_code)),
            .hdr_out (c_edit)
        );
    end else begin : g_open_received
        assign c_edit = c_hdr[8*HDR_BYTES-1:0];
    end
endgenerate
reg [5:0]        n_reason;
reg              n_hit;
reg [CTX_W-1:0]  n_ctx;
reg [2:0]        n_smode, n_apply, n_code;
reg [KEY_W-1:0]  n_key;
reg [31:0]       n_salt;
reg              n_dir;
reg [62:0]       n_epsn;
reg              n_ichk;           // open: the ICRC check applies (a bad ICRC is the verdict)

// ---- crypt job register (CJ): the DQ head with its GCM message prepared ----
// H (ib_hdr_mask) and the message geometry (AAD length, payload offsets, the message's
// end and beats) are computed from the DQ head and registered with the packet in CJ, so
// that the crypt composer's job and the ring room check start at registers. CJ takes the DQ head when it is empty or hands its packet
// on (to the composer, or past it to XQ) in the same cycle.
wire [8*HDR_BYTES-1:0] dh_hdr;            // DQ head: the fields H and the geometry need
wire [1:0]  dh_shape;
wire [6:0]  dh_hdr_len, dh_sth_len;
wire [12:0] dh_pp_len;
wire [2:0]  dh_apply;
wire        dh_mf;
assign dh_hdr     = dq_m_data[DS_W-8*CAP_BYTES +: 8*HDR_BYTES];
assign dh_shape   = dq_m_data[DS_SHAPE_LSB +: 2];
assign dh_hdr_len = dq_m_data[DS_HDR_LEN_LSB +: 7];
assign dh_sth_len = dq_m_data[DS_STH_LEN_LSB +: 7];
assign dh_pp_len  = dq_m_data[DS_PP_LEN_LSB +: 13];
assign dh_apply   = dq_m_data[DS_APPLY_LSB +: 3];
assign dh_mf      = dq_m_data[DS_MF_LSB];
wire [8*HDR_BYTES-1:0] dh_aad;
wire [6:0]  dh_aad_len;
/* verilator lint_off UNUSEDSIGNAL */
// the crypt stage needs H only; the variant bits are the check and egress stages'
wire [HDR_BYTES-1:0]   dh_variant;
wire [8*HDR_BYTES-1:0] dh_ones;
/* verilator lint_on UNUSEDSIGNAL */
wire        dh_enc = mode_encrypts(dh_apply);
wire [12:0] dh_aad13 = {6'd0, dh_aad_len};
wire [12:0] dh_aad_blk = round16(dh_aad13);
wire [12:0] dh_msg_end = dh_enc ? dh_aad_blk + dh_pp_len
                      : (dh_apply == M_STH_PKT) ? dh_aad13 + dh_pp_len : dh_aad13;
/* verilator lint_off UNUSEDSIGNAL */ // a message has fewer beats than a ring
wire [12:0] dh_msg_beats = (dh_msg_end + W[12:0] - 13'd1) / W[12:0];
/* verilator lint_on UNUSEDSIGNAL */

reg                    cj_valid_reg = 1'b0;
reg  [DS_W-1:0]        cj_desc_reg;
reg  [8*HDR_BYTES-1:0] cj_aad_reg;         // H
reg  [6:0]             cj_aad_len_reg;
reg  [12:0]            cj_pp_src_reg;      // payload offset in the frame
reg  [12:0]            cj_dst_off_reg;     // payload offset in the message
reg  [12:0]            cj_dst_end_reg;     // end of the payload in the message
reg  [12:0]            cj_msg_end_reg;     // end of the message
reg  [12:0]            cj_aad_end_reg;     // end of the AAD in the message
reg  [RAW-1:0]         cj_mb_reg;          // beats of the message
wire                   cj_take;            // CJ's packet leaves (composer or XQ)
wire                   cj_load = dq_m_valid && (!cj_valid_reg || cj_take);
always @(posedge clk) begin
    if (cj_load) begin
        cj_desc_reg    <= dq_m_data;
        cj_aad_reg     <= dh_aad;
        cj_aad_len_reg <= dh_aad_len;
        cj_pp_src_reg  <= {6'd0, dh_hdr_len} + {6'd0, dh_sth_len};
        cj_dst_off_reg <= dh_enc ? dh_aad_blk : dh_aad13;
        cj_dst_end_reg <= (dh_enc || dh_apply == M_STH_PKT) ? dh_msg_end : dh_aad13;
        cj_msg_end_reg <= dh_msg_end;
        cj_aad_end_reg <= dh_enc ? dh_aad13 : dh_msg_end;
        cj_mb_reg      <= dh_msg_beats[RAW-1:0];
    end
    if (cj_load)
        cj_valid_reg <= 1'b1;
    else if (cj_take)
        cj_valid_reg <= 1'b0;
    if (rst)
        cj_valid_reg <= 1'b0;
end

// ---- crypt stage (CJ) ----
wire        d_crypt = d_apply != M_NONE;
wire [RAW-1:0] d_mb = cj_mb_reg;
wire [RAW:0]   c_used = ca_reg - cf_reg;
wire           c_room = {1'b0, c_used} + {2'b00, d_mb} <= {1'b0, RING_BEATS};
wire           cz_job_valid = cj_valid_reg && d_crypt && xq_s_ready && c_room;
wire           cz_job_ready;
wire           cz_take = cz_job_valid && cz_job_ready;
wire           d_pass = cj_valid_reg && !d_crypt && xq_s_ready;
assign         cj_take = cz_take || d_pass;
wire [CT_W-1:0] cz_tag_in = {d_key, d_salt, d_dir, d_epsn};

// crypt composer and gcm_core
/* verilator lint_off UNUSEDSIGNAL */
// the crypt composer's issue waits on the arrival beat by beat, not on its last beat
wire                    cz_issue_last_unused;
/* verilator lint_on UNUSEDSIGNAL */
wire                    cz_rd_en;
wire [RAW-1:0]          cz_rd_addr;
wire [DW-1:0]           cz_rd_lo, cz_rd_hi;
wire                    cz_tap_valid, cz_tap_last;
wire [DW-1:0]           cz_tap_data;
wire [W-1:0]            cz_tap_keep;
wire [LANES-1:0]        cz_tap_user;
wire [CT_W-1:0]         cz_tap_tag;
/* verilator lint_off UNUSEDSIGNAL */
// the GCM stream needs no aux vectors, CRC controls or field flags
wire                    cz_tap_first, cz_idle;
wire [DW-1:0]           cz_tap_aux0, cz_tap_aux1;
wire                    cz_tap_crc_valid, cz_tap_crc_last, cz_tap_fld0, cz_tap_fld1;
wire [NW-1:0]           cz_tap_crc_end, cz_tap_fld_lsh;
wire [2:0]              cz_tap_fld_rsh;
/* verilator lint_on UNUSEDSIGNAL */
wire                    gq_s_ready, gq_m_valid;
wire [GQ_W-1:0]         gq_m_data;
wire [$clog2(GQ_DEPTH):0] gq_count;
wire                    gq_last;
wire [LANES-1:0]        gq_user;
wire [W-1:0]            gq_keep;
wire [DW-1:0]           gq_data;
wire [KEY_W-1:0]        gq_slot;
wire [95:0]             gq_iv;
assign {gq_last, gq_user, gq_keep, gq_data, gq_slot, gq_iv} = gq_m_data;
wire                    gcm_s_tready;
wire [DW-1:0]           gcm_m_tdata;
wire                    gcm_m_tvalid;
wire [127:0]            gcm_m_tag;          // a message's tag, as soon as it is out
/* verilator lint_off UNUSEDSIGNAL */
// keep/user of the output are those of the input beats; nokey cannot happen: the key
// was valid at the decision and the command interlock keeps it until the packet left;
// the tags are taken from gcm_core's tag stream (m_tag_*), not with the tlast beats
wire                    gcm_m_tlast;
wire [W-1:0]            gcm_m_tkeep;
wire [LANES-1:0]        gcm_m_tuser;
wire                    gcm_m_nokey, gcm_m_tag_nokey;
wire [127:0]            gcm_m_tag_unused;
/* verilator lint_on UNUSEDSIGNAL */

// ---- egress register (EQ): the XQ head with its tag and the tag comparison ----
// XQ's head enters EQ once its tag is out of gcm_core (secured modes; not seal
// icrc-mac, whose tag is needed only in the ICRC field of the packet's last beat: the
// late tag, below) and, on open, its
// CRC check's results are out (the head of ibsec_rx_check's results FIFO, one per frame
// in packet order, popped for every packet), together with the tag and, on open,
// whether the received tag matches it and whether its VCRC and ICRC are bad, so that
// the comparisons (and the received tag's byte shift out of the header) end at a
// register, and the egress decision, the commit to the context table and the egress
// composer's job start at registers. EQ takes the next packet as its packet leaves (one packet per clock).
reg                 eq_valid_reg = 1'b0;
reg  [DS_W-1:0]     eq_desc_reg;
reg  [127:0]        eq_tag_reg;
reg                 eq_match_reg;
reg                 eq_vbad_reg, eq_ibad_reg;
reg                 eq_lbad_reg;        // the late parse rejects the frame
reg  [5:0]          eq_lreason_reg;     // its reason
reg  [2:0]          eq_lmode_reg;       // and the mode BTH byte 8 names
wire                eq_take;            // EQ's packet leaves: egress job or drop
// seal icrc-mac: the egress stream starts before the tag is out (the late tag)
wire                xh_late = (OPEN == 0) && xh_crypted && xh_apply == M_ICRC_MAC;
wire                xh_have_tag = !xh_crypted || xh_late || tq_m_valid;
// the frame has ended: its late parse (and, open, check results) at their FIFOs' heads
wire                xh_have_chk = ((OPEN == 0) || kr_valid) && lp_valid;
// the XQ head as EQ takes it, with the input ring beats the late parse counted
wire [DS_W-1:0]     xh_word = {xq_m_data[DS_W-1:DS_NB_LSB+RAW], lp_nb, xq_m_data[DS_NB_LSB-1:0]};
wire                eq_load = xq_m_valid && xh_have_tag && xh_have_chk
                              && (!eq_valid_reg || eq_take);
// open: the CRC check's verdicts (native IBA only has a VCRC; the ICRC counts where the
// decision says the model checks it, with the MASK_MF value the decision sampled)
wire [31:0]         xh_icrc = xh_mf ? kr_icrc1 : kr_icrc0;
wire [15:0]         k_vext;
wire                xh_vbad = xh_chk && !xh_link && k_vext != kr_rx[47:32];
wire                xh_ibad = xh_chk && xh_ichk && xh_icrc != kr_rx[31:0];
wire [127:0]        xh_tag = tag_to_stream(tq_m_data);
// the received tag: the ICRC field (icrc-mac) or the STH behind the headers. The STH is
// 12 or 16 bytes: the 16 bytes from hdr_len on are the candidates. hdr_len is even for
// every parsed header (LRH 8, GRH 40, BTH 12, ETHs of multiples of 4; Ethernet 14,
// IPv4 20, IPv6 40, UDP 8) and at most 114 (RoCEv2 over IPv6 with 40 bytes of ETHs), so
// the 16 bytes lie in the 32-byte window of 16-byte blocks hdr_len[6:4] and
// hdr_len[6:4] + 1, at halfword hdr_len[3:1] of it. Two shifts on these strides instead
// of one byte shift by hdr_len over the whole register: the open engine packed into
// 3,200 TRELLIS_COMB fewer (63,052 against 66,252; docs/fpga.md).
/* verilator lint_off UNUSEDSIGNAL */
// only the window (the low 32 bytes) of the block shift is read, and only the low
// 16 bytes of the halfword shift
wire [8*CAP_BYTES-1:0] xh_sth_blk = xh_hdr[8*CAP_BYTES-1:0] >> (128 * xh_hdr_len[6:4]);
wire [255:0] xh_from_sth = xh_sth_blk[255:0] >> (16 * xh_hdr_len[3:1]);
/* verilator lint_on UNUSEDSIGNAL */
wire [127:0] xh_rx_tag = (xh_apply == M_ICRC_MAC) ? {96'd0, kr_rx[31:0]} : xh_from_sth[127:0];
wire [4:0]   xh_tag_len = (xh_apply == M_ICRC_MAC) ? ICRC_MAC_TAG_LEN
                        : (xh_code == 3'd1) ? STH96_LEN[4:0] : STH128_LEN[4:0];
reg          xh_match;
integer      ti;
always @* begin
    xh_match = 1'b1;
    for (ti = 0; ti < 16; ti = ti + 1)
        if (ti < xh_tag_len && xh_tag[8*ti +: 8] != xh_rx_tag[8*ti +: 8])
            xh_match = 1'b0;
end

// ---- egress stage (EQ) ----
wire [8*HDR_BYTES-1:0] x_win = x_hdr[8*HDR_BYTES-1:0];
wire [6:0]   x_sth_out = (OPEN == 0 && mode_has_sth(x_apply)) ? sth_bytes(x_code) : 7'd0;
wire [8*HDR_BYTES-1:0] x_edit;
/* verilator lint_off UNUSEDSIGNAL */
// egress needs the length of H (to find the payload in the crypt ring) and the
// per-bit variant mask; H itself and the per-byte mask are the crypt / check stages'
wire [8*HDR_BYTES-1:0] x_aad;
wire [HDR_BYTES-1:0]   x_variant;
/* verilator lint_on UNUSEDSIGNAL */
wire [6:0]   x_aad_len;
wire [8*HDR_BYTES-1:0] x_ones;
wire [127:0] x_tag = eq_tag_reg;
wire         x_enc = mode_encrypts(x_apply);
wire [12:0]  x_aad_blk = round16({6'd0, x_aad_len});
wire [12:0]  x_pp_src = {6'd0, x_hdr_len} + {6'd0, x_sth_len};
wire [12:0]  x_trailer = x_link ? ICRC_LEN : (ICRC_LEN + VCRC_LEN);
wire [12:0]  x_pp_off = {6'd0, x_hdr_len} + {6'd0, x_sth_out};
wire [12:0]  x_icrc_off = x_pp_off + x_pp_len;
/* verilator lint_off UNUSEDSIGNAL */ // the verdict of the tag: open only
wire         x_match = eq_match_reg;
/* verilator lint_on UNUSEDSIGNAL */
// the late parse's and (open) the CRC verdicts in the model's order (the decision's
// comment above; the parse comes first, its late reason before every other); a packet
// they drop was never checked against its tag in the model, nor reached its EPSN step
// (x_no_ep: the status names no EPSN, the in-flight entry leaves with a void commit)
wire         x_lbad = eq_lbad_reg;
wire         x_vbad = eq_vbad_reg;
wire         x_ibad = eq_ibad_reg;
wire         x_no_ep = x_lbad || x_vbad || x_ibad;
wire [5:0]   x_verdict = x_lbad ? eq_lreason_reg : x_vbad ? R_BAD_VCRC :
                         x_ibad ? R_BAD_ICRC : x_reason;
wire         x_fail = (OPEN != 0) && x_crypted && !x_no_ep && !x_match;
wire         x_drop = (x_verdict != R_OK) || x_fail;
wire         ez_job_ready, ez_idle;
wire         ez_job_valid = eq_valid_reg && !x_drop;
wire         ez_take = ez_job_valid && ez_job_ready;
// A crypted packet may reach EQ while gcm_core still writes its message into the crypt
// ring: seal icrc-mac without its tag (the late tag), and open, whose tag is out before
// its plaintext (gcm_core's EARLY_GHASH). A drop frees the message's beats, so it waits
// until they are all written: the writer is past the message's end, both counted from
// the free pointer (the beats between cf and cw are written; the message's base lies in
// the RING beats from cf on, and its end at most RING beats past cf)
wire         x_late = (OPEN == 0) && x_crypted && x_apply == M_ICRC_MAC;
wire [RAW:0] x_written = cw_reg - cf_reg;
wire [RAW-1:0] x_cb_off = x_cbase - cf_reg[RAW-1:0];
wire         x_msg_done = x_written >= {1'b0, x_cb_off} + {1'b0, x_mb};
wire         x_drop_go = eq_valid_reg && x_drop && ez_idle && (!x_crypted || x_msg_done);
wire         x_go = ez_take || x_drop_go;
assign       eq_take = x_go;
wire [ET_W-1:0] ez_tag_in = {x_link, x_enc, x_nb, x_crypted ? x_mb : {RAW{1'b0}}, x_late};

// egress front: edited header up to hdr_len, then the STH (the tag's first L bytes)
reg [8*FRONT_BYTES-1:0] x_front;
// the edited header's bytes below hdr_len (a compare per byte instead synthesized larger
// in the flattened seal engine: 54,202 TRELLIS_COMB against 53,261)
wire [8*HDR_BYTES-1:0]  x_edit_head = x_edit & ~({8*HDR_BYTES{1'b1}} << (8 * x_hdr_len));
// seal: the tag at hdr_len (even, at most 114: see xh_sth_blk), placed in two shifts as
// it is taken out on open: at halfword hdr_len[3:1] of a 32-byte window, the window at
// 16-byte block hdr_len[6:4] (the seal engine packed into 53,202 TRELLIS_COMB, against
// 53,261 with the byte shift by hdr_len)
wire [255:0] x_sth_win = {128'd0, x_tag} << (16 * x_hdr_len[3:1]);
wire [8*FRONT_BYTES-1:0] x_sth_at = {{(8*FRONT_BYTES-256){1'b0}}, x_sth_win}
                                    << (128 * x_hdr_len[6:4]);
always @* begin
    x_front = {{(8*(FRONT_BYTES-HDR_BYTES)){1'b0}}, x_edit_head};
    if (OPEN == 0 && mode_has_sth(x_apply))
        x_front = x_front | x_sth_at;
end

// egress composer
wire                    ez_rd_en;
wire [RAW-1:0]          ez_rd_addr;
wire [DW-1:0]           ez_in_lo, ez_in_hi, ez_cr_lo, ez_cr_hi;
wire                    ez_tap_valid, ez_tap_first, ez_tap_last;
wire [DW-1:0]           ez_tap_data, ez_tap_aux0;
wire [W-1:0]            ez_tap_keep;
wire                    ez_tap_crc_valid, ez_tap_crc_last, ez_tap_fld0, ez_tap_fld1;
wire [NW-1:0]           ez_tap_crc_end, ez_tap_fld_lsh;
wire [2:0]              ez_tap_fld_rsh;
wire [ET_W-1:0]         ez_tap_tag;
/* verilator lint_off UNUSEDSIGNAL */
// the output stream carries no GCM lane flags and one variant mask
wire [LANES-1:0]        ez_tap_user;
wire [DW-1:0]           ez_tap_aux1;
/* verilator lint_on UNUSEDSIGNAL */
wire                    et_link, et_crypt, et_use_tag;
wire [RAW-1:0]          et_rel_in, et_rel_cr;
assign {et_link, et_crypt, et_rel_in, et_rel_cr, et_use_tag} = ez_tap_tag;

// The egress composer reads the crypt ring behind gcm_core's writes: a crypted packet's
// egress may start while its message is still in gcm_core (seal icrc-mac once its frame
// has ended, the late tag; open once its tag is checked, as the open instance's GHASH
// runs ahead of the key stream; seal sth-* with its tag, which gcm_core gives out a
// cycle before the message's last beat). A beat is issued only when the beats of its
// paired read (rd_addr, rd_addr + 1) that lie in the message are written. A beat below
// the message's base (read for the front's beats, whose ring bytes are not used) was
// written before it: every message before this one is written when its job starts (its
// packet's egress read all of it, or its drop waited for it).
// The running job also frees its message's crypt ring beats when its last beat is out
// (the last tap), whether it read them (encrypted payload) or not (sth-hdr, sth-pkt:
// the payload comes from the input ring): its last beat is issued only once the whole
// message is written, so that no beat is freed before gcm_core has written it (the open
// core's tag of a short frame comes before its message's last beats).
// (the egress composer holds them with the job: its side, EZ_SIDE_W bits)
localparam EZ_SIDE_W = 1 + 1 + (RAW + 1) + RAW;
wire           ez_crd_reg;           // the running egress job reads the crypt ring
wire           ez_cmsg_reg;          // it has a message in the crypt ring
wire [RAW:0]   ez_cb_reg;            // its message's base, counted as cw is
wire [RAW-1:0] ez_mb_reg;            // its message's beats
wire [EZ_SIDE_W-1:0] ez_side_in = {x_enc, x_crypted, cf_reg + {1'b0, x_cb_off}, x_mb};
wire [EZ_SIDE_W-1:0] ez_side;
assign {ez_crd_reg, ez_cmsg_reg, ez_cb_reg, ez_mb_reg} = ez_side;
wire [RAW-1:0] ez_rel     = ez_rd_addr - ez_cb_reg[RAW-1:0];   // lo beat in the message
wire [RAW-1:0] ez_rel2    = ez_rel + {{(RAW-2){1'b0}}, 2'd2};    // one past the hi beat
wire [RAW:0]   ez_written = cw_reg - ez_cb_reg;                 // beats written
// beats that must be written: the paired read's, up to the message's end (a read whose
// lo beat is the one before the base needs the message's first beat)
wire [RAW:0]   ez_need    = (ez_rel2 > ez_mb_reg) ? {1'b0, ez_mb_reg} : {1'b0, ez_rel2};
// a message holds at most BUF_BEATS < RING / 2 beats, so a top bit set is a beat before
// the message's base: both beats of the read lie before it when ez_rel2 is one too
wire           ez_issue_last;
wire           ez_behind  = (!ez_crd_reg || (ez_rel[RAW-1] && ez_rel2[RAW-1]) ||
                             ez_need <= ez_written) &&
                            (!ez_cmsg_reg || !ez_issue_last || {1'b0, ez_mb_reg} <= ez_written);

// output FIFO and the CRC results of the egress stream
wire                    oq_s_ready, oq_m_valid;
reg                     oq_m_ready;
wire [OQ_W-1:0]         oq_m_data;
wire [$clog2(OQ_DEPTH):0] oq_count;
wire                    o_link, o_last, o_fld0, o_fld1;
wire [W-1:0]            o_keep;
wire [DW-1:0]           o_data;
wire [NW-1:0]           o_lsh;
wire [2:0]              o_rsh;
assign {o_link, o_last, o_keep, o_data, o_fld0, o_lsh, o_fld1, o_rsh} = oq_m_data;
// bit mask of the output beat's tkeep (by generate, as the header capture above)
wire [DW-1:0]           o_keep_bits;
generate
    for (kb = 0; kb < W; kb = kb + 1) begin : g_keep_bits
        assign o_keep_bits[8*kb +: 8] = {8{o_keep[kb]}};
    end
endgenerate
wire                    eicrc_valid, evcrc_valid;
wire [31:0]             eicrc_out;
wire [15:0]             evcrc_out;
wire                    ep_s_ready, ep_m_valid, er_s_ready, er_m_valid;
wire [EP_W-1:0]         ep_m_data;
wire [47:0]             er_m_data;
/* verilator lint_off UNUSEDSIGNAL */
// the pending FIFOs are deep enough for every packet that has beats in the output FIFO
wire [$clog2(RQ_DEPTH):0] ep_count, er_count;
wire                    ep_link;
/* verilator lint_on UNUSEDSIGNAL */
wire                    ep_use_tag;
assign {ep_link, ep_use_tag} = ep_m_data;
// the late tag of seal icrc-mac, at PTQ's head
wire                    pt_valid;
wire [31:0]             pt_tag32;
wire [31:0]             o_icrc_field = ep_use_tag ? pt_tag32 : er_m_data[31:0];
wire [15:0]             o_vext;
wire [47:0]             o_fields = o_link ? {16'd0, o_icrc_field} : {o_vext, o_icrc_field};
wire                    o_need = o_fld0 || o_fld1;
wire                    o_have = ep_m_valid && er_m_valid && (!ep_use_tag || pt_valid);
wire [DW-1:0]           o_fields_w = {{(DW-48){1'b0}}, o_fields};
wire [DW-1:0]           o_patch = o_fld0 ? (o_fields_w << (8 * o_lsh))
                                : o_fld1 ? (o_fields_w >> (8 * o_rsh)) : {DW{1'b0}};
wire                    out_valid = oq_m_valid && (!o_need || o_have);
wire                    out_beat = out_valid && m_axis_tready;

// pipe_busy: a decided packet is still in DQ, CJ, XQ or EQ (seal: it may not have entered
// gcm_core; open: it is not committed)
assign pipe_busy = dq_m_valid || cj_valid_reg || xq_m_valid || eq_valid_reg || ur_valid_reg;

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
wire [RAW:0] in_used = wp_reg - fp_reg;
wire         in_store = {23'd0, wbeat_reg} < BUF_BEATS;
/* verilator lint_off UNUSEDSIGNAL */ // a stored beat index is below BUF_BEATS < RING
wire [RAW+8:0] wbeat_x = {{RAW{1'b0}}, wbeat_reg};
/* verilator lint_on UNUSEDSIGNAL */
assign s_axis_tready = iq_s_ready && (!in_store || in_used < RING_BEATS);
assign m_axis_tdata  = o_data | (o_patch & o_keep_bits);
assign m_axis_tkeep  = o_keep;
assign m_axis_tlast  = o_last;
assign m_axis_tvalid = out_valid;
assign m_axis_tuser  = o_link;

assign st_valid   = st_valid_reg;
assign st_reason  = st_reason_reg;
assign st_ctx_hit = st_hit_reg;
assign st_ctx     = st_ctx_reg;
assign st_mode    = st_mode_reg;
assign st_epsn    = st_epsn_reg;
assign st_alert   = st_alert_reg;

// ----------------------------------------------------------------------------
// Descriptor words
// ----------------------------------------------------------------------------
always @* begin
    {c_hdr, c_link, c_base, c_nb, c_shape, c_bth_off, c_hdr_len, c_sth_len, c_pp_len,
    c_pkt_end, c_pmode, c_sthsz, c_psn, c_destqp, c_pkey, c_chk, c_reason, c_hit, c_ctx,
    c_smode, c_apply, c_code, c_key, c_salt, c_dir, c_epsn, c_mf, c_ichk, c_cbase, c_mb,
    c_crypted} = lq_desc_reg;
end
always @* begin
    {d_hdr, d_link, d_base, d_nb, d_shape, d_bth_off, d_hdr_len, d_sth_len, d_pp_len,
    d_pkt_end, d_pmode, d_sthsz, d_psn, d_destqp, d_pkey, d_chk, d_reason, d_hit, d_ctx,
    d_smode, d_apply, d_code, d_key, d_salt, d_dir, d_epsn, d_mf, d_ichk, d_cbase, d_mb_field,
    d_crypted} = cj_desc_reg;
end
always @* begin
    {x_hdr, x_link, x_base, x_nb, x_shape, x_bth_off, x_hdr_len, x_sth_len, x_pp_len,
    x_pkt_end, x_pmode, x_sthsz, x_psn, x_destqp, x_pkey, x_chk, x_reason, x_hit, x_ctx,
    x_smode, x_apply, x_code, x_key, x_salt, x_dir, x_epsn, x_mf, x_ichk, x_cbase, x_mb,
    x_crypted} = eq_desc_reg;
end
always @* begin
    {xh_hdr, xh_link, xh_base, xh_nb, xh_shape, xh_bth_off, xh_hdr_len, xh_sth_len,
    xh_pp_len, xh_pkt_end, xh_pmode, xh_sthsz, xh_psn, xh_destqp, xh_pkey, xh_chk,
    xh_reason, xh_hit, xh_ctx, xh_smode, xh_apply, xh_code, xh_key, xh_salt, xh_dir,
    xh_epsn, xh_mf, xh_ichk, xh_cbase, xh_mb, xh_crypted} = xq_m_data;
end

// ingress -> IQ: the frame with this beat (an early descriptor has the length its header
// implies; the stored beats that count are the late parse's, at egress)
assign iq_s_data = {ing_hdr_next, ing_early_push ? ing_impl_len : ing_len_next, ing_link_next,
                    (wbeat_reg == 9'd0) ? wp_reg[RAW-1:0] : ing_base_reg,
                    in_store ? wbeat_x[RAW-1:0] + 1'b1 : BUF_BEATS_R};
// parse -> CQ: parse results; the decision fields hold the parse reason (status mode
// of open: the mode BTH byte 8 names)
assign cq_s_data = {i_hdr, i_link, i_base, i_nb,
                    p_shape, p_bth_off, p_hdr_len, p_sth_len, p_pp_len, p_pkt_end, p_mode,
                    p_sthsz, p_psn, p_destqp, p_pkey, (OPEN != 0) && (p_reason == R_OK),
                    p_reason, 1'b0, {CTX_W{1'b0}}, (OPEN != 0) ? p_mode : M_NONE, M_NONE, 3'd0,
                    {KEY_W{1'b0}}, 32'd0, 1'b0, 63'd0, 1'b0, 1'b0,
                    {RAW{1'b0}}, {RAW{1'b0}}, 1'b0};
// decide -> DQ: the decision, MASK_MF in effect, whether a bad ICRC decides the verdict
assign dq_s_data = {c_hdr[8*CAP_BYTES-1:8*HDR_BYTES], c_edit,
                    lq_desc_reg[DS_W-8*CAP_BYTES-1 -: 1 + 2*RAW + PR_W + 1],
                    n_reason, n_hit, n_ctx, n_smode, n_apply, n_code, n_key, n_salt, n_dir,
                    n_epsn, cfg_mask_mf, n_ichk, {RAW{1'b0}}, {RAW{1'b0}}, 1'b0};
// crypt -> XQ: the crypt ring beats of the message
assign xq_s_data = {cj_desc_reg[DS_W-1:2*RAW+1], ca_reg[RAW-1:0],
                    cz_take ? d_mb : {RAW{1'b0}}, cz_take};

// ----------------------------------------------------------------------------
// Submodules: descriptor FIFOs
// ----------------------------------------------------------------------------
sync_fifo #(.WIDTH (IQ_W), .DEPTH (IQ_DEPTH)) iq (
    .clk (clk), .rst (rst),
    .s_valid (iq_s_valid), .s_ready (iq_s_ready), .s_data (iq_s_data),
    .m_valid (iq_m_valid), .m_ready (iq_m_ready), .m_data (iq_m_data), .count (iq_count)
);

sync_fifo #(.WIDTH (DS_W), .DEPTH (CQ_DEPTH)) cq (
    .clk (clk), .rst (rst),
    .s_valid (cq_s_valid), .s_ready (cq_s_ready), .s_data (cq_s_data),
    .m_valid (cq_m_valid), .m_ready (cq_m_ready), .m_data (cq_m_data), .count (cq_count)
);

sync_fifo #(.WIDTH (DS_W), .DEPTH (DQ_DEPTH)) dq (
    .clk (clk), .rst (rst),
    .s_valid (dq_s_valid), .s_ready (dq_s_ready), .s_data (dq_s_data),
    .m_valid (dq_m_valid), .m_ready (dq_m_ready), .m_data (dq_m_data), .count (dq_count)
);

sync_fifo #(.WIDTH (DS_W), .DEPTH (XQ_DEPTH)) xq (
    .clk (clk), .rst (rst),
    .s_valid (xq_s_valid), .s_ready (xq_s_ready), .s_data (xq_s_data),
    .m_valid (xq_m_valid), .m_ready (xq_m_ready), .m_data (xq_m_data), .count (xq_count)
);

// ----------------------------------------------------------------------------
// Submodules: parse and check (open)
// ----------------------------------------------------------------------------
ib_hdr_parse #(
    .HDR_BYTES (HDR_BYTES),
    .LEN_W     (LEN_W)
) hdr_parse (
    .hdr       (q_win),
    .frame_len (q_len),
    .link      (q_link),
    .is_open   (OPEN != 0),
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
    .mode      (pn_mode)
);

assign pr_take = pr_valid_reg && cq_s_ready;

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
// register and the length counted are parsed again (in the cycle after the last beat,
// while the ingress registers still hold the frame). When the lengths agree the two
// parses agree; when they differ the late parse rejects the frame: the parser accepts a
// length other than the header's only for a RoCEv2 frame padded to 60 bytes, which ends
// by CAP_BEAT at every width (CAP_BYTES > 60). Its reason is therefore the verdict
// whenever it is one (egress applies it before every other), and its stored beat count
// frees the ring. Frames that end by CAP_BEAT went into IQ with their length: their two
// parses are one.
reg            lt_pend_reg = 1'b0;    // the frame ended in the last cycle
reg  [RAW-1:0] lt_nb_reg;
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
    if (rst)
        lt_pend_reg <= 1'b0;
end
ib_hdr_parse #(
    .HDR_BYTES (HDR_BYTES),
    .LEN_W     (LEN_W)
) late_parse (
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
    .s_valid (lt_pend_reg), .s_ready (lt_s_ready),
    .s_data ({lt_reason, lt_mode, lt_nb_reg}),
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
            .s_valid (lt_pend_reg), .s_ready (ld_s_ready), .s_data (lt_reason),
            .m_valid (ld_valid), .m_ready (ld_pop), .m_data (ld_reason),
            .count (ld_count)
        );
    end else begin : g_open_late
        assign ld_valid  = 1'b0;
        assign ld_reason = R_OK;
    end
endgenerate

// VCRC of LRH .. ICRC field: the VCRC up to the ICRC extended by the field's 4 bytes
// (the results FIFO's head, read by the egress register)
ib_vcrc_extend4 k_vcrc_extend (
    .in_vcrc  (kr_vcrc),
    .in_bytes (kr_rx[31:0]),
    .out_vcrc (k_vext)
);

// ----------------------------------------------------------------------------
// Submodules: tables
// ----------------------------------------------------------------------------
ibsec_regs #(
    .KEY_SLOTS (KEY_SLOTS),
    .CTX_SLOTS (CTX_SLOTS),
    .OPEN      (OPEN),
    .INFLIGHT  (INFLIGHT)
) regs (
    .clk             (clk),
    .rst             (rst),
    .reg_req         (reg_req),
    .reg_we          (reg_we),
    .reg_addr        (reg_addr),
    .reg_wdata       (reg_wdata),
    .reg_ack         (reg_ack),
    .reg_rdata       (reg_rdata),
    .irq_alert       (irq_alert),
    .cfg_allow_plain (cfg_allow_plain),
    .cfg_mask_mf     (cfg_mask_mf),
    .cfg_busy        (cfg_busy),
    .pipe_busy       (pipe_busy),
    .m_key_valid     (key_valid),
    .m_key_ready     (key_ready),
    .m_key_slot      (key_slot),
    .m_key_aes256    (key_aes256),
    .m_key_data      (key_data),
    .lk_destqp       (lk_in_destqp),
    .lk_pkey         (lk_in_pkey),
    .lk_hit          (lk_hit_now),
    .lk_ctx          (lk_ctx_now),
    .lk_mode         (lk_mode_now),
    .lk_sth_code     (lk_sth_code_now),
    .lk_dir          (lk_dir_now),
    .lk_key          (lk_key_now),
    .lk_key_valid    (lk_key_valid_now),
    .lk_key_aes256   (lk_key_aes256_now),
    .lk_salt_slot    (lq_key_reg),
    .lk_salt         (lk_salt),
    .dec_pkt         (dec_pkt),
    .ep_valid        (ep_valid),
    .ep_ctx          (lk_ctx),
    .ep_psn          (c_psn),
    .ep_reason       (ep_reason),
    .ep_epsn         (ep_epsn),
    .ep_wait         (ep_wait),
    .cm_valid        (cm_valid),
    .cm_pass         (cm_pass),
    .cm_void         (cm_void),
    .cm_alert        (cm_alert),
    .cm_ctx          (cm_ctx),
    .cm_epsn         (cm_epsn),
    .ep_full         (ep_full),
    .cnt_valid       (st_valid_reg),
    .cnt_reason      (st_reason_reg)
);

// ----------------------------------------------------------------------------
// Submodules: crypt stage
// ----------------------------------------------------------------------------
// H: seal, of the wire header after sealing (the descriptor carries it from the
// decision on); open, of the header as received
ib_hdr_mask #(.HDR_BYTES (HDR_BYTES), .AAD_BYTES (HDR_BYTES)) dh_hdr_mask (
    .hdr     (dh_hdr),
    .shape   (dh_shape),
    .hdr_len (dh_hdr_len),
    .mask_mf (dh_mf),
    .aad     (dh_aad),
    .aad_len (dh_aad_len),
    .variant (dh_variant),
    .ones    (dh_ones)
);

ibsec_pair_buffer #(.WIDTH (DW), .DEPTH (RING)) c_ring (
    .clk (clk),
    .wr_en (in_beat && in_store), .wr_addr (wp_reg[RAW-1:0]), .wr_data (s_axis_tdata),
    .rd_en (cz_rd_en), .rd_addr (cz_rd_addr), .rd_lo (cz_rd_lo), .rd_hi (cz_rd_hi)
);

// The crypt composer reads the input ring behind the arrival. While the frame of its
// job is still arriving (its early descriptor is in: ing_early_reg, and the job's ring
// base is the frame's), a beat is issued only when both beats of its paired read
// (rd_addr, rd_addr + 1) are written; a read below the frame's base (a job's first beats,
// whose ring bytes are not used) is of beats written before it. Once the frame has ended,
// every beat may be read: a frame shorter than its header says is rejected by the late
// parse, and what its message read is discarded at egress. No deadlock: the arrival waits
// only for ring space, which the packets before this one free without the crypt stage.
// The test of the read against the arrival is registered, one beat ahead, so that no
// subtraction or compare lies between the registers and issue_ok: cz_ahead_reg says, in
// the cycle after it is computed, that the pair of the beat after the running job's
// current one (rd_addr + 1, rd_addr + 2) was written then, for the job whose base it
// records (cz_ahead_base_reg). Beats are only ever added to the frame and rd_addr moves
// by at most one a cycle, so a true answer stays true for whichever beat is up next;
// a job just started (another base) is held back by it until the register is its own,
// one cycle, and only while its frame is arriving.
wire cz_behind;
wire [RAW-1:0] cz_base_reg;           // ring base of the running crypt job (its side)
wire [RAW-1:0] cz_rel1     = cz_rd_addr + 1'b1 - ing_base_reg; // next beat in the frame
wire [RAW-1:0] ing_written = wp_reg[RAW-1:0] - ing_base_reg;   // beats written
reg            cz_ahead_reg = 1'b0;
reg  [RAW-1:0] cz_ahead_base_reg;
// a frame holds at most BUF_BEATS < RING / 2 beats, so cz_rel1's top bit set is a
// beat before the frame's base
always @(posedge clk) begin
    cz_ahead_reg      <= cz_rel1[RAW-1] ||
                         {1'b0, cz_rel1} + {{(RAW-1){1'b0}}, 2'd2} <= {1'b0, ing_written};
    cz_ahead_base_reg <= cz_base_reg;
end
assign cz_behind = !ing_early_reg || cz_base_reg != ing_base_reg ||
                   (cz_ahead_reg && cz_ahead_base_reg == cz_base_reg);

// GCM message: H, then payload + pad as data (from the next block) or as AAD
ibsec_compose #(
    .LANES (LANES), .FRONT_BYTES (FRONT_BYTES), .AUX_BYTES (HDR_BYTES), .AW (RAW),
    .TAG_W (CT_W), .SIDE_W (RAW)
) c_compose (
    .clk (clk), .rst (rst),
    .job_valid (cz_job_valid), .job_ready (cz_job_ready),
    .job_front ({{(8*(FRONT_BYTES-HDR_BYTES)){1'b0}}, cj_aad_reg}),
    .job_front_len ({1'b0, cj_aad_len_reg}),
    .job_aux0 ({8*HDR_BYTES{1'b0}}), .job_aux1 ({8*HDR_BYTES{1'b0}}),
    .job_base (d_base), .job_src_off (cj_pp_src_reg),
    .job_dst_off (cj_dst_off_reg),
    .job_dst_end (cj_dst_end_reg),
    .job_total_end (cj_msg_end_reg),
    .job_aad_end (cj_aad_end_reg),
    .job_crc_end (13'd0), .job_tag (cz_tag_in),
    .job_side (d_base), .act_side (cz_base_reg),
    .idle (cz_idle), .issue_ok ((gq_count <= GQ_ROOM_MAX) && cz_behind),
    .issue_last (cz_issue_last_unused),
    .rd_en (cz_rd_en), .rd_addr (cz_rd_addr), .rd_lo (cz_rd_lo), .rd_hi (cz_rd_hi),
    .tap_valid (cz_tap_valid), .tap_first (cz_tap_first), .tap_data (cz_tap_data),
    .tap_keep (cz_tap_keep), .tap_last (cz_tap_last), .tap_user (cz_tap_user),
    .tap_aux0 (cz_tap_aux0), .tap_aux1 (cz_tap_aux1),
    .tap_crc_valid (cz_tap_crc_valid), .tap_crc_last (cz_tap_crc_last),
    .tap_crc_end (cz_tap_crc_end), .tap_fld0 (cz_tap_fld0),
    .tap_fld_lsh (cz_tap_fld_lsh), .tap_fld1 (cz_tap_fld1),
    .tap_fld_rsh (cz_tap_fld_rsh), .tap_tag (cz_tap_tag)
);

/* verilator lint_off UNUSEDSIGNAL */
// the composer is granted a beat only while the FIFO has room for it (gq_count)
wire gq_s_ready_unused = gq_s_ready;
/* verilator lint_on UNUSEDSIGNAL */
sync_fifo #(.WIDTH (GQ_W), .DEPTH (GQ_DEPTH)) gq (
    .clk (clk), .rst (rst),
    .s_valid (cz_tap_valid), .s_ready (gq_s_ready),
    .s_data ({cz_tap_last, cz_tap_user, cz_tap_keep, cz_tap_data, cz_tap_tag}),
    .m_valid (gq_m_valid), .m_ready (gcm_s_tready), .m_data (gq_m_data), .count (gq_count)
);

gcm_core #(
    .LANES            (LANES),
    .KEY_SLOTS        (KEY_SLOTS),
    .STAGES_PER_ROUND (STAGES_PER_ROUND),
    .SBOX_IMPL        (SBOX_IMPL),
    .EARLY_GHASH      (OPEN),
    .ALEN_WIDTH       (GCM_LEN_W),
    .CLEN_WIDTH       (GCM_LEN_W)
) gcm (
    .clk            (clk),
    .rst            (rst),
    .s_key_valid    (key_valid),
    .s_key_ready    (key_ready),
    .s_key_slot     (key_slot),
    .s_key_aes256   (key_aes256),
    .s_key_data     (key_data),
    .s_axis_tdata   (gq_data),
    .s_axis_tkeep   (gq_keep),
    .s_axis_tvalid  (gq_m_valid),
    .s_axis_tready  (gcm_s_tready),
    .s_axis_tlast   (gq_last),
    .s_axis_tuser   (gq_user),
    .s_axis_slot    (gq_slot),
    .s_axis_iv      (gq_iv),
    .s_axis_decrypt (OPEN != 0),
    .m_axis_tdata   (gcm_m_tdata),
    .m_axis_tkeep   (gcm_m_tkeep),
    .m_axis_tvalid  (gcm_m_tvalid),
    .m_axis_tready  (1'b1),
    .m_axis_tlast   (gcm_m_tlast),
    .m_axis_tuser   (gcm_m_tuser),
    .m_axis_tag     (gcm_m_tag_unused),
    .m_axis_nokey   (gcm_m_nokey),
    .m_tag_valid    (gcm_tag_out),
    .m_tag          (gcm_m_tag),
    .m_tag_nokey    (gcm_m_tag_nokey)
);

// the tag FIFO is as deep as XQ: every tag it holds belongs to a packet in XQ (EQ takes
// it with the packet; the late tags go to TLQ)
/* verilator lint_off UNUSEDSIGNAL */
wire tq_s_ready_unused = tq_s_ready;
/* verilator lint_on UNUSEDSIGNAL */
sync_fifo #(.WIDTH (128), .DEPTH (XQ_DEPTH)) tq (
    .clk (clk), .rst (rst),
    .s_valid (gcm_tag_out && !gcm_tag_late), .s_ready (tq_s_ready), .s_data (gcm_m_tag),
    .m_valid (tq_m_valid), .m_ready (tq_m_ready), .m_data (tq_m_data), .count (tq_count)
);

// seal icrc-mac, the late tag: the packet leaves EQ without its tag, which the output
// takes for the ICRC field of its last beat. The kind of every message is queued as its
// job starts (KQ) and tells where its tag goes as it leaves gcm_core: to tq or to TLQ.
// Every late packet leaving EQ queues whether it was dropped (OW); TLQ's and OW's heads
// are popped together, and the tag of a packet that goes out moves into PTQ, whose head
// the output patch reads (pt_*). Tags and packets keep message order throughout.
generate
    if (OPEN == 0) begin : g_late_tag
        /* verilator lint_off UNUSEDSIGNAL */
        // sized for every message in flight (LT_DEPTH): no back-pressure
        wire kq_s_ready, kq_m_valid, tl_s_ready, ow_s_ready, pq_s_ready;
        wire [$clog2(LT_DEPTH):0] kq_count, tl_count, ow_count;
        wire [$clog2(RQ_DEPTH):0] pq_count;
        // the ICRC field takes the tag's first 4 bytes
        wire [127:0] g_tag_stream = tag_to_stream(gcm_m_tag);
        /* verilator lint_on UNUSEDSIGNAL */
        wire        kq_late;
        wire        tl_m_valid, ow_m_valid, ow_drop;
        wire [31:0] tl_tag32;
        wire        tl_move = tl_m_valid && ow_m_valid;
        sync_fifo #(.WIDTH (1), .DEPTH (LT_DEPTH)) kq (
            .clk (clk), .rst (rst),
            .s_valid (cz_take), .s_ready (kq_s_ready), .s_data (d_apply == M_ICRC_MAC),
            .m_valid (kq_m_valid), .m_ready (gcm_tag_out), .m_data (kq_late),
            .count (kq_count)
        );
        assign gcm_tag_late = kq_late;
        sync_fifo #(.WIDTH (32), .DEPTH (LT_DEPTH)) tlq (
            .clk (clk), .rst (rst),
            .s_valid (gcm_tag_out && kq_late), .s_ready (tl_s_ready),
            .s_data (g_tag_stream[31:0]),
            .m_valid (tl_m_valid), .m_ready (tl_move), .m_data (tl_tag32), .count (tl_count)
        );
        sync_fifo #(.WIDTH (1), .DEPTH (LT_DEPTH)) ow (
            .clk (clk), .rst (rst),
            .s_valid (x_go && x_late), .s_ready (ow_s_ready), .s_data (x_drop),
            .m_valid (ow_m_valid), .m_ready (tl_move), .m_data (ow_drop), .count (ow_count)
        );
        sync_fifo #(.WIDTH (32), .DEPTH (RQ_DEPTH)) ptq (
            .clk (clk), .rst (rst),
            .s_valid (tl_move && !ow_drop), .s_ready (pq_s_ready), .s_data (tl_tag32),
            .m_valid (pt_valid), .m_ready (out_beat && o_last && ep_use_tag),
            .m_data (pt_tag32), .count (pq_count)
        );
    end else begin : g_no_late_tag
        assign gcm_tag_late = 1'b0;
        assign pt_valid     = 1'b0;
        assign pt_tag32     = 32'd0;
    end
endgenerate

ibsec_pair_buffer #(.WIDTH (DW), .DEPTH (RING)) crypt_ring (
    .clk (clk),
    .wr_en (gcm_m_tvalid), .wr_addr (cw_reg[RAW-1:0]), .wr_data (gcm_m_tdata),
    .rd_en (ez_rd_en), .rd_addr (ez_rd_addr), .rd_lo (ez_cr_lo), .rd_hi (ez_cr_hi)
);

// ----------------------------------------------------------------------------
// Submodules: egress stage
// ----------------------------------------------------------------------------
// seal grows the length fields by the STH length and writes SECMODE/STHSZ; open shrinks
// them and clears BTH byte 8 bits 6:0
// the output header: seal, the descriptor's (edited at the decision); open, the STH
// removed and every length field shortened by it here
generate
    if (OPEN != 0) begin : g_open_edit
        ib_hdr_edit #(.HDR_BYTES (HDR_BYTES)) x_hdr_edit (
            .hdr_in  (x_win),
            .shape   (x_shape),
            .bth_off (x_bth_off),
            .shrink  (1'b1),
            .len     (x_sth_len),
            .secbits (7'd0),
            .hdr_out (x_edit)
        );
    end else begin : g_seal_edited
        assign x_edit = x_win;
    end
endgenerate

ib_hdr_mask #(.HDR_BYTES (HDR_BYTES), .AAD_BYTES (HDR_BYTES)) x_hdr_mask (
    .hdr     (x_edit),
    .shape   (x_shape),
    .hdr_len (x_hdr_len),
    .mask_mf (x_mf),
    .aad     (x_aad),
    .aad_len (x_aad_len),
    .variant (x_variant),
    .ones    (x_ones)
);

ibsec_pair_buffer #(.WIDTH (DW), .DEPTH (RING)) e_ring (
    .clk (clk),
    .wr_en (in_beat && in_store), .wr_addr (wp_reg[RAW-1:0]), .wr_data (s_axis_tdata),
    .rd_en (ez_rd_en), .rd_addr (ez_rd_addr), .rd_lo (ez_in_lo), .rd_hi (ez_in_hi)
);

// headers and STH, payload + pad, ICRC/VCRC placeholders
ibsec_compose #(
    .LANES (LANES), .FRONT_BYTES (FRONT_BYTES), .AUX_BYTES (HDR_BYTES), .AW (RAW),
    .TAG_W (ET_W), .SIDE_W (EZ_SIDE_W)
) e_compose (
    .clk (clk), .rst (rst),
    .job_valid (ez_job_valid), .job_ready (ez_job_ready),
    .job_front (x_front), .job_front_len (x_pp_off[7:0]),
    .job_aux0 (x_ones), .job_aux1 ({8*HDR_BYTES{1'b0}}),
    .job_base (x_enc ? x_cbase : x_base), .job_src_off (x_enc ? x_aad_blk : x_pp_src),
    .job_dst_off (x_pp_off), .job_dst_end (x_icrc_off), .job_total_end (x_icrc_off + x_trailer),
    .job_aad_end (13'd0), .job_crc_end (x_icrc_off), .job_tag (ez_tag_in),
    .job_side (ez_side_in), .act_side (ez_side),
    .idle (ez_idle), .issue_ok ((oq_count <= OQ_ROOM_MAX) && ez_behind),
    .issue_last (ez_issue_last),
    .rd_en (ez_rd_en), .rd_addr (ez_rd_addr),
    .rd_lo (et_crypt ? ez_cr_lo : ez_in_lo), .rd_hi (et_crypt ? ez_cr_hi : ez_in_hi),
    .tap_valid (ez_tap_valid), .tap_first (ez_tap_first), .tap_data (ez_tap_data),
    .tap_keep (ez_tap_keep), .tap_last (ez_tap_last), .tap_user (ez_tap_user),
    .tap_aux0 (ez_tap_aux0), .tap_aux1 (ez_tap_aux1),
    .tap_crc_valid (ez_tap_crc_valid), .tap_crc_last (ez_tap_crc_last),
    .tap_crc_end (ez_tap_crc_end), .tap_fld0 (ez_tap_fld0),
    .tap_fld_lsh (ez_tap_fld_lsh), .tap_fld1 (ez_tap_fld1),
    .tap_fld_rsh (ez_tap_fld_rsh), .tap_tag (ez_tap_tag)
);

ib_icrc_engine #(.LANES (LANES)) e_icrc (
    .clk (clk), .rst (rst),
    .in_valid (ez_tap_valid && ez_tap_crc_valid), .in_first (ez_tap_first),
    .in_last (ez_tap_crc_last), .in_roce (et_link),
    .in_data (ez_tap_data | ez_tap_aux0), .in_ones ({W{1'b0}}),
    .in_end (ez_tap_crc_end), .out_valid (eicrc_valid), .out_icrc (eicrc_out)
);

ib_vcrc_engine #(.LANES (LANES)) e_vcrc (
    .clk (clk), .rst (rst),
    .in_valid (ez_tap_valid && ez_tap_crc_valid), .in_first (ez_tap_first),
    .in_last (ez_tap_crc_last), .in_data (ez_tap_data),
    .in_end (ez_tap_crc_end), .out_valid (evcrc_valid), .out_vcrc (evcrc_out)
);

/* verilator lint_off UNUSEDSIGNAL */
// the composer is granted a beat only while the output FIFO has room for it (oq_count);
// the pending FIFOs hold at most one entry per packet with a beat in the output FIFO
wire oq_s_ready_unused = oq_s_ready;
wire ep_s_ready_unused = ep_s_ready;
wire er_s_ready_unused = er_s_ready;
/* verilator lint_on UNUSEDSIGNAL */
sync_fifo #(.WIDTH (OQ_W), .DEPTH (OQ_DEPTH)) oq (
    .clk (clk), .rst (rst),
    .s_valid (ez_tap_valid), .s_ready (oq_s_ready),
    .s_data ({et_link, ez_tap_last, ez_tap_keep, ez_tap_data, ez_tap_fld0, ez_tap_fld_lsh,
              ez_tap_fld1, ez_tap_fld_rsh}),
    .m_valid (oq_m_valid), .m_ready (oq_m_ready), .m_data (oq_m_data), .count (oq_count)
);

// per packet: what the ICRC field holds (seal icrc-mac: the tag), pushed with the beat
// holding the last covered byte
sync_fifo #(.WIDTH (EP_W), .DEPTH (RQ_DEPTH)) ep (
    .clk (clk), .rst (rst),
    .s_valid (ez_tap_valid && ez_tap_crc_last), .s_ready (ep_s_ready),
    .s_data ({et_link, et_use_tag}),
    .m_valid (ep_m_valid), .m_ready (out_beat && o_last), .m_data (ep_m_data), .count (ep_count)
);

// the ICRC and VCRC of the output (the two engines have the same latency)
sync_fifo #(.WIDTH (48), .DEPTH (RQ_DEPTH)) er (
    .clk (clk), .rst (rst),
    .s_valid (eicrc_valid && evcrc_valid), .s_ready (er_s_ready),
    .s_data ({evcrc_out, eicrc_out}),
    .m_valid (er_m_valid), .m_ready (out_beat && o_last), .m_data (er_m_data), .count (er_count)
);

ib_vcrc_extend4 o_vcrc_extend (
    .in_vcrc  (er_m_data[47:32]),
    .in_bytes (o_icrc_field),
    .out_vcrc (o_vext)
);

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
    fp_next        = fp_reg;
    ca_next        = ca_reg;
    cf_next        = cf_reg;
    cw_next        = cw_reg;
    st_valid_next  = 1'b0;
    st_reason_next = st_reason_reg;
    st_hit_next    = st_hit_reg;
    st_ctx_next    = st_ctx_reg;
    st_mode_next   = st_mode_reg;
    st_epsn_next   = st_epsn_reg;
    st_alert_next  = st_alert_reg;
    iq_s_valid     = 1'b0;
    iq_m_ready     = 1'b0;
    cq_s_valid     = 1'b0;
    cq_m_ready     = 1'b0;
    kr_pop         = 1'b0;
    lp_pop         = 1'b0;
    ld_pop         = 1'b0;
    ur_valid_next  = ur_valid_reg;
    ur_commit_next = ur_commit_reg;
    dq_s_valid     = 1'b0;
    dq_m_ready     = 1'b0;
    xq_s_valid     = 1'b0;
    xq_m_ready     = 1'b0;
    tq_m_ready     = 1'b0;
    oq_m_ready     = out_beat;
    dec_pkt        = 1'b0;
    cm_valid       = 1'b0;
    cm_pass        = 1'b0;
    cm_void        = 1'b0;

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

    // ---- parse into PR; PR into CQ ----
    iq_m_ready = pr_load;
    cq_s_valid = pr_take;

    // ---- decide ----
    n_reason = c_reason_now;
    n_hit    = 1'b0;
    n_ctx    = {CTX_W{1'b0}};
    n_smode  = c_smode;
    n_apply  = M_NONE;
    n_code   = 3'd0;
    n_key    = {KEY_W{1'b0}};
    n_salt   = 32'd0;
    n_dir    = 1'b0;
    n_epsn   = 63'd0;
    n_ichk   = 1'b0;
    if (dec_can) begin
        dec_pkt = 1'b1;
        if (c_reason_now != R_OK) begin
            // parse error: no lookup
        end else if (!lk_hit) begin
            if ((OPEN != 0 && c_pmode != M_NONE) || !cfg_allow_plain)
                n_reason = R_NO_CONTEXT;
            else
                n_ichk = OPEN != 0;
        end else begin
            n_hit  = 1'b1;
            n_ctx  = lk_ctx;
            n_key  = lk_key;
            n_salt = lk_salt;
            n_dir  = (OPEN != 0) ? !lk_dir : lk_dir;  // the sender's direction
            n_code = lk_sth_code;
            if (OPEN == 0)
                n_smode = lk_mode;
            if (OPEN != 0 && c_pmode != lk_mode)
                n_reason = R_MODE_MISMATCH;
            else if (OPEN != 0 && mode_has_sth(c_pmode) && c_sthsz != lk_sth_code)
                n_reason = R_STH_SIZE_MISMATCH;
            else if (lk_mode == M_NONE) begin
                // plain context (open: its ICRC decides, at egress)
                n_ichk = OPEN != 0;
            end else if (!lk_key_valid)
                n_reason = R_NO_KEY;
            else begin
                // open: the model checks the ICRC here, unless the tag is in its field;
                // the egress register applies the check
                n_ichk = OPEN != 0 && lk_mode != M_ICRC_MAC;
                if (ep_wait) begin
                    // an earlier packet on the context is in flight: retry
                    dec_pkt = 1'b0;
                end else if (ep_reason != R_OK) begin
                    n_reason = ep_reason;
                end else begin
                    n_epsn  = ep_epsn;
                    n_apply = lk_mode;
                end
            end
        end
        if (dec_pkt) begin
            dq_s_valid = 1'b1;
        end
    end
    // seal: every decided packet takes its frame's late reason from ld, at its decision
    // when the frame has ended, else when it ends; until then it is unresolved and no
    // other packet is decided, and a late reject takes its tx_next commit back (a seal
    // void: the model never consumed that EPSN) before the next decision
    if (OPEN == 0) begin
        if (dec_pkt) begin
            if (ld_valid) begin
                ld_pop = 1'b1;
            end else begin
                ur_valid_next  = 1'b1;
                ur_commit_next = ep_valid && ep_reason == R_OK;
            end
        end
        if (ur_valid_reg && ld_valid) begin
            ld_pop        = 1'b1;
            ur_valid_next = 1'b0;
            cm_valid      = ur_commit_reg && ld_reason != R_OK;
            cm_void       = ur_commit_reg && ld_reason != R_OK;
        end
    end
    // ---- CQ head into LQ, as the decided packet leaves it ----
    if (cq_m_valid && (!lq_valid_reg || dec_pkt)) begin
        cq_m_ready = 1'b1;
    end

    // ---- crypt: start the GCM message, or pass the packet on ----
    dq_m_ready = cj_load;
    if (cj_take)
        xq_s_valid = 1'b1;
    if (cz_take)
        ca_next = ca_reg + {1'b0, d_mb};
    // gcm_core's output into the crypt ring
    if (gcm_m_tvalid)
        cw_next = cw_reg + 1'b1;

    // ---- egress: XQ head and its tag into EQ; verify (open), status, start the output ----
    xq_m_ready = eq_load;
    tq_m_ready = eq_load && xh_crypted && !xh_late;
    kr_pop     = (OPEN != 0) && eq_load;
    lp_pop     = eq_load;
    if (x_go) begin
        st_valid_next  = 1'b1;
        st_reason_next = x_fail ? R_AUTH_FAILED : x_verdict;
        // the late parse and a bad VCRC stop the model before the lookup, a bad ICRC
        // before the EPSN step
        st_hit_next    = x_hit && !x_vbad && !x_lbad;
        st_ctx_next    = (x_vbad || x_lbad) ? {CTX_W{1'b0}} : x_ctx;
        st_mode_next   = x_lbad ? eq_lmode_reg : x_smode;
        st_epsn_next   = x_no_ep ? 63'd0 : x_epsn;
        st_alert_next  = x_fail && cm_alert;
        if (OPEN != 0 && x_crypted) begin
            cm_valid = 1'b1;
            cm_pass  = !x_fail && !x_no_ep;
            cm_void  = x_no_ep;
        end
        if (x_drop_go) begin
            fp_next = fp_reg + {1'b0, x_nb};
            if (x_crypted)
                cf_next = cf_reg + {1'b0, x_mb};
        end
    end
    // ring space of a packet whose egress stream has read its last beat
    if (ez_tap_valid && ez_tap_last) begin
        fp_next = fp_reg + {1'b0, et_rel_in};
        cf_next = cf_reg + {1'b0, et_rel_cr};
    end
end

// PR: the IQ head and its parse results, loaded as the packet in PR leaves (or PR is
// empty)
always @(posedge clk) begin
    if (pr_load) begin
        i_hdr     <= q_hdr;
        i_link    <= q_link;
        i_base    <= q_base;
        i_nb      <= q_nb;
        p_reason  <= pn_reason;
        p_shape   <= pn_shape;
        p_bth_off <= pn_bth_off;
        p_hdr_len <= pn_hdr_len;
        p_sth_len <= pn_sth_len;
        p_pp_len  <= pn_pp_len;
        p_pkt_end <= pn_pkt_end;
        p_pkey    <= pn_pkey;
        p_destqp  <= pn_destqp;
        p_psn     <= pn_psn;
        p_mode    <= pn_mode;
        p_sthsz   <= pn_sthsz;
    end
    if (pr_load) begin
        pr_valid_reg <= 1'b1;
    end else if (pr_take) begin
        pr_valid_reg <= 1'b0;
    end
    if (rst) begin
        pr_valid_reg <= 1'b0;
    end
end

// EQ: the XQ head, its tag and the comparison, loaded as EQ's packet leaves (or EQ is
// empty)
always @(posedge clk) begin
    if (eq_load) begin
        eq_desc_reg    <= xh_word;
        eq_tag_reg     <= xh_tag;
        eq_match_reg   <= xh_match;
        eq_vbad_reg    <= xh_vbad;
        eq_ibad_reg    <= xh_ibad;
        eq_lbad_reg    <= lp_reason != R_OK;
        eq_lreason_reg <= lp_reason;
        eq_lmode_reg   <= lp_mode;
    end
    if (eq_load) begin
        eq_valid_reg <= 1'b1;
    end else if (eq_take) begin
        eq_valid_reg <= 1'b0;
    end
    if (rst) begin
        eq_valid_reg <= 1'b0;
    end
end

// LQ: a packet enters as the decided one leaves (the two never meet a re-lookup, which
// needs a stale packet that cannot be decided)
always @(posedge clk) begin
    if (cq_m_ready) begin
        lq_desc_reg <= cq_m_data;
    end
    if (cq_m_ready || lq_relook) begin
        lq_hit_reg       <= lk_hit_now;
        lq_dir_reg       <= lk_dir_now;
        lq_key_valid_reg <= lk_key_valid_now;
        lq_ctx_reg       <= lk_ctx_now;
        lq_mode_reg      <= lk_mode_now;
        lq_sth_code_reg  <= lk_sth_code_now;
        lq_key_reg       <= lk_key_now;
    end
    if (cq_m_ready) begin
        lq_stale_reg <= cfg_busy;
    end else if (lq_relook) begin
        lq_stale_reg <= 1'b0;
    end else begin
        lq_stale_reg <= lq_stale_reg || cfg_busy;
    end
    if (cq_m_ready) begin
        lq_valid_reg <= 1'b1;
    end else if (dec_pkt) begin
        lq_valid_reg <= 1'b0;
    end
    if (rst) begin
        lq_valid_reg <= 1'b0;
    end
end

always @(posedge clk) begin
    ing_hdr_reg    <= ing_hdr_next;
    ing_len_reg    <= ing_len_next;
    ing_link_reg   <= ing_link_next;
    ing_base_reg   <= ing_base_next;
    wbeat_reg      <= wbeat_next;
    ing_early_reg  <= ing_early_next;
    ur_valid_reg   <= ur_valid_next;
    ur_commit_reg  <= ur_commit_next;
    wp_reg         <= wp_next;
    fp_reg         <= fp_next;
    ca_reg         <= ca_next;
    cf_reg         <= cf_next;
    cw_reg         <= cw_next;
    st_valid_reg   <= st_valid_next;
    st_reason_reg  <= st_reason_next;
    st_hit_reg     <= st_hit_next;
    st_ctx_reg     <= st_ctx_next;
    st_mode_reg    <= st_mode_next;
    st_epsn_reg    <= st_epsn_next;
    st_alert_reg   <= st_alert_next;

    if (rst) begin
        wbeat_reg    <= 9'd0;
        ing_early_reg <= 1'b0;
        ur_valid_reg  <= 1'b0;
        wp_reg       <= {(RAW+1){1'b0}};
        fp_reg       <= {(RAW+1){1'b0}};
        ca_reg       <= {(RAW+1){1'b0}};
        cf_reg       <= {(RAW+1){1'b0}};
        cw_reg       <= {(RAW+1){1'b0}};
        st_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
