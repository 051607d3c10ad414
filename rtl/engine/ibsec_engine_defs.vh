/*
 * ibsec_engine_defs.vh — the constants, descriptor layout and helper functions that the
 * packet engine's stage modules share (ibsec_engine and the stages it instantiates:
 * ibsec_ingress, ibsec_parse, ibsec_decide, ibsec_crypt, ibsec_egress). Included inside
 * the module body, after the module's parameters LANES, OPEN, KEY_SLOTS, CTX_SLOTS and
 * CTX_W, so that every stage derives the same widths from them.
 *
 * Each stage uses only some of the constants; the list is shared on purpose (one
 * definition of the descriptor word for every stage it passes through), so the unused
 * ones are not warnings.
 */

`include "ibsec_enums.vh"   // R_* (reasons), M_* (modes), SHAPE_*

/* verilator lint_off UNUSEDPARAM */

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
// (DQ), crypt -> egress (XQ, which covers gcm_core's latency to the tag). CQ: the parse
// stage pops IQ only while its PARSE_PLACES descriptors in flight and CQ's count (one
// cycle old) leave room in CQ, so CQ must hold more than those to keep one packet per
// clock: 16 (the same distributed RAM cells as 8: a TRELLIS_DPR16X4 is 16 words deep).
// IQ: the ingress stage's registered ready keeps a place for the descriptors of the
// beats in its input register and at its input and for the write on its way, so IQ
// needs more than 4 for one frame per clock: 8 (the same cells as 4)
localparam IQ_DEPTH = 8;
localparam CQ_DEPTH = 16;
// descriptors inside the parse stage (ibsec_parse): the IQ head register and the four
// stages of ib_hdr_parse
localparam PARSE_PLACES = 5;
localparam DQ_DEPTH = 2;
// XQ holds a packet from the hand-over of its message to gcm_core until its tag is out
// (AES_LATENCY + the GHASH tail: 28 + about 10 cycles with the block RAM S-boxes) and
// its egress register takes it, so the link side keeps one beat per clock only while XQ
// holds the packets of that time: frames of N beats need about 40 / N places. 16 cover
// the 5-beat frames of 64-byte payloads at LANES = 1; at LANES = 4 a 64-byte payload is
// 2 beats, and with 16 places the seal GCM modes reached 73-78 % of the beats, with 32
// all of them (engine bench, 64-byte payloads). Kept at 16 at LANES = 1, whose area is
// the one that must shrink.
localparam XQ_DEPTH = (LANES == 1) ? 16 : 32;
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
// descriptors inside the decide stage's lookup (ibsec_decide): K1, K2, K3 and LQ
localparam DECIDE_PLACES = 4;
// open: check results (ibsec_rx_check), one per frame from the end of its arrival to the
// egress register, which reads them: such a packet is in IQ, the parse stage, CQ, the
// decide stage, DQ, CJ or XQ (the places summed in KR_PLACES: 52 at LANES = 1, 68 at 4
// and 12; KR_DEPTH the next power of two, 64 and 128), so the results FIFO never
// overflows and needs no back-pressure
localparam KR_PLACES = IQ_DEPTH + PARSE_PLACES + CQ_DEPTH + DECIDE_PLACES + DQ_DEPTH + 1 + XQ_DEPTH;
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
// (18 places, 34 at LANES = 4 and 12) hold every packet in flight. A frame decided from
// its early descriptor (CAP_BEAT) also stays for the rest of its arrival, N - CAP_BEAT - 1
// beats, so about (N - CAP_BEAT + 24) / N packets of N beats are in flight: at most 2.6, 6.5 and 13 at
// LANES = 1, 4 and 12 (N = 10, 4 and 2), within INFLIGHT.
localparam INFLIGHT = (LANES == 1) ? 8 : 16;

// ICRC 4 bytes, VCRC 2 bytes (IBA Vol. 1 §7.8)
localparam [12:0] ICRC_LEN = 13'd4;
localparam [12:0] VCRC_LEN = 13'd2;
// STH sizes of STHSZ 1 and 2 (sRDMA Table 2: 96- and 128-bit MAC)
localparam [6:0] STH96_LEN  = 7'd12;
localparam [6:0] STH128_LEN = 7'd16;
// icrc-mac: 4 tag bytes in the ICRC field (Lee & Kim §5.2)
localparam [4:0] ICRC_MAC_TAG_LEN = 5'd4;

// frame bytes ib_hdr_parse reads (its READ_BYTES: RoCEv2 over IPv6 through the BTH): IQ
// carries only these of the header window; the whole window is in the header store
localparam PARSE_BYTES = 74;
// the header store (ibsec_hdr_store): every frame's header window written once at the
// ingress and read in frame order by the crypt and egress stages, so that no descriptor
// carries it. Block RAM of 512 words per copy (DP16KD, 36 bits wide): at LANES = 1 a
// header is two words (16 DP16KD per read port; one header per two clocks, the rate of
// the smallest valid frames, two beats), else one (32 DP16KD per port: the wider engines
// take frames of one beat)
localparam HS_WORDS = (LANES == 1) ? 2 : 1;
localparam HS_SLOTS = 512 / HS_WORDS;
localparam HS_HEADS = (LANES == 1) ? 2 : 4;
// a frame longer than this has bytes in the header's word 1
localparam [LEN_W-1:0] HS_WORD_BYTES = CAP_BYTES / HS_WORDS;

// descriptor widths
localparam IQ_W = 8 * PARSE_BYTES + LEN_W + 1 + 2 * RAW;
localparam PR_W = 2 + 7 + 7 + 7 + 13 + 13 + 3 + 5 + 24 + 24 + 16;   // parse results
localparam DC_W = 6 + 1 + CTX_W + 3 + 3 + 3 + KEY_W + 32 + 1 + 63 + 1 + 1;  // decision
localparam DS_W = 1 + 2 * RAW + PR_W + 1 + DC_W + 2 * RAW + 1;
// where the parsed P_Key and DestQP lie in a descriptor word (the fields after them: the
// check flag, the decision, the crypt ring base and beats, the crypted flag)
localparam DS_PKEY_LSB   = 1 + DC_W + 2 * RAW + 1;
localparam DS_DESTQP_LSB = DS_PKEY_LSB + 16;
// where the input ring beats of the packet lie in a descriptor word (behind the link and
// the ring address); egress replaces them with the late parse's
localparam DS_NB_LSB     = DS_W - 1 - 2 * RAW;
// the fields the crypt job register (CJ) reads from the DQ head: the parse results
// (shape, lengths) and the decision (apply mode, MASK_MF), from the word's low end:
// crypted (1), crypt ring beats and base (2 x RAW), ICRC check (1), MASK_MF (1), EPSN
// (63), dir (1), salt (32), key (KEY_W), STH code (3), apply mode (3), ...; and above
// the decision and the check flag, P_Key (16), DestQP (24), PSN (24), the security bits
// (5: BTH byte 8's KP, PN and STHSZ, bits 6, 5 and 2:0), packet
// mode (3), packet end (13), payload + pad (13), STH length (7), header length (7), BTH
// offset (7), shape (2)
localparam DS_MF_LSB      = 2 * RAW + 2;
localparam DS_APPLY_LSB   = DS_MF_LSB + 1 + 63 + 1 + 32 + KEY_W + 3;
// the security bits {KP, PN, STHSZ} above the PSN
localparam DS_SECB_LSB    = DS_DESTQP_LSB + 24 + 24;
localparam DS_PP_LEN_LSB  = DS_DESTQP_LSB + 24 + 24 + 5 + 3 + 13;
localparam DS_STH_LEN_LSB = DS_PP_LEN_LSB + 13;
localparam DS_HDR_LEN_LSB = DS_STH_LEN_LSB + 7;
localparam DS_SHAPE_LSB   = DS_HDR_LEN_LSB + 7 + 7;
// egress composer tag: link, source is the crypt ring, ring beats to release (input,
// crypt), the ICRC field is the tag (seal icrc-mac: its 4 bytes come from PTQ, ibsec_egress)
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

/* verilator lint_on UNUSEDPARAM */

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
