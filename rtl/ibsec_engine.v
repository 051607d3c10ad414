/*
 * ibsec_engine — the ibsec packet engine: one direction (OPEN = 0 seal / transmit,
 * OPEN = 1 open / receive) of the inline AES-GCM security of IBA and RoCEv2 packets,
 * bit-exact with the C model (docs/wire-format.md §7 seal, §8 open; cmodel/ibsec_seal.c,
 * ibsec_open.c). Architecture, buffers and cycle counts: docs/packet-engine.md.
 *
 * Function
 *   Store-and-forward: a packet is accepted whole into one of the two slots of the input
 *   buffer, its first CAP_BYTES bytes into a header register, then processed in passes
 *   driven by one beat
 *   composer (ibsec_realign) that builds every stream the engine needs from the header
 *   register and a realigned range of a buffer:
 *     parse   ib_hdr_parse on the header register (steps 1-3)
 *     check   (open) the received packet through ib_icrc_engine / ib_vcrc_engine
 *     decide  context lookup, key, ICRC/VCRC verdicts and EPSN in one cycle, in the
 *             model's order of checks (ibsec_regs tables); a drop ends here
 *     crypt   (secured modes) gcm_core: AAD = the masked header string H of
 *             ib_hdr_mask, then payload + pad as data (icrc-mac, sth-aead) or as more AAD
 *             (sth-pkt) or not at all (sth-hdr); its output into the crypt buffer
 *     verify  (open) tag comparison, commit of the EPSN window and of the failure count
 *     egress  edited header (ib_hdr_edit), STH, payload (from the crypt buffer when
 *             encrypted), then ICRC (or the tag, icrc-mac) and VCRC computed on the way
 *             out and patched into the last beats
 *   A dropped packet produces nothing on m_axis and, as every packet, one status entry.
 *   Packets leave and are reported in input order.
 *
 * Latency / throughput
 *   Ingress overlaps the processing: while one slot's packet is processed, the next
 *   frame enters the other slot. The processing passes of a packet run one after the
 *   other: about N (check, open) + M (crypt) + P (egress) beats + ~45 cycles for a frame
 *   of N beats, GCM message of M beats and output of P beats; ingress takes N cycles
 *   (see docs/packet-engine.md for the figures per pass).
 *
 * Reset
 *   rst (synchronous, active high) discards the packet in flight, clears the tables,
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
localparam [13:0] W14 = W[13:0];
// bytes of the header register (the header modules' window)
localparam HDR_BYTES = 128;
// front vector of the composer: the header and a 16-byte STH behind it
localparam FRONT_BYTES = HDR_BYTES + 16;
// bytes captured at the start of the frame: the header window and a 16-byte STH behind
// the longest header (RoCEv2 over IPv6 with 40 bytes of ETHs ends at byte 114)
localparam CAP_BYTES = HDR_BYTES + 16;
// frame length counter: 17 bits, saturated, so that the parser judges every over-long
// frame exactly as the model (a RoCEv2 IP length can describe a packet ending at byte
// 14 + 65535; ib_hdr_parse LEN_W)
localparam LEN_W = 17;
localparam [LEN_W-1:0] LEN_MAX = {LEN_W{1'b1}};
// largest frame kept: IBSEC_MAX_PKT (cmodel/ib_pkt.h) = 14 + 40 + 8 + 12 + 32 + 64 + 4096
// + 3 + 4 + 2 = 4275 bytes; longer frames are consumed, never parsed as valid
localparam MAX_FRAME = 4275;
localparam BUF_BEATS = (MAX_FRAME + W - 1) / W;
localparam BUF_AW = $clog2(BUF_BEATS);
localparam BUF_DEPTH = 1 << BUF_AW;
// beats of the header register
localparam HDR_BEATS = (HDR_BYTES + W - 1) / W;
localparam HB_W = (HDR_BEATS > 1) ? $clog2(HDR_BEATS) : 1;
// key slot index width (gcm_core's SLOT_WIDTH)
localparam KEY_W = (KEY_SLOTS > 1) ? $clog2(KEY_SLOTS) : 1;
// byte count 0..W
localparam NW = $clog2(W + 1);
// composer output FIFO: depth and the fill level up to which a beat may be started
// (two beats can be in flight behind the composer's read)
localparam FIFO_DEPTH = 8;
localparam FIFO_W = DW + W + LANES + 1;
localparam [$clog2(FIFO_DEPTH):0] FIFO_ROOM_MAX = FIFO_DEPTH - 3;

// enum ibsec_reason (cmodel/ibsec.h)
localparam [5:0] R_OK            = 6'd0;
localparam [5:0] R_BAD_VCRC      = 6'd21;
localparam [5:0] R_NO_CONTEXT    = 6'd23;
localparam [5:0] R_MODE_MISMATCH = 6'd24;
localparam [5:0] R_STH_MISMATCH  = 6'd26;
localparam [5:0] R_NO_KEY        = 6'd27;
localparam [5:0] R_BAD_ICRC      = 6'd28;
localparam [5:0] R_AUTH_FAILED   = 6'd32;

// enum ibsec_mode
localparam [2:0] M_NONE     = 3'd0;
localparam [2:0] M_ICRC_MAC = 3'd1;
localparam [2:0] M_STH_HDR  = 3'd2;
localparam [2:0] M_STH_PKT  = 3'd3;
localparam [2:0] M_STH_AEAD = 3'd4;

// enum ibsec_shape: the RoCEv2 shapes are 2 and 3 (native-noGRH 0, native-GRH 1);
// the engine needs only the link (tuser) to tell native from RoCEv2

// ICRC 4 bytes, VCRC 2 bytes (IBA Vol. 1 §7.8)
localparam [12:0] ICRC_LEN = 13'd4;
localparam [12:0] VCRC_LEN = 13'd2;
// STH sizes of STHSZ 1 and 2 (sRDMA Table 2: 96- and 128-bit MAC)
localparam [6:0] STH96_LEN  = 7'd12;
localparam [6:0] STH128_LEN = 7'd16;
// icrc-mac: 4 tag bytes in the ICRC field (Lee & Kim §5.2)
localparam [4:0] ICRC_MAC_TAG_LEN = 5'd4;

// engine states
localparam [3:0] ST_IN        = 4'd0;   // wait for a complete frame in the next slot
localparam [3:0] ST_PARSE     = 4'd1;   // register the parser's outputs
localparam [3:0] ST_CHECK_GO  = 4'd2;   // open: start the CRC check pass
localparam [3:0] ST_CHECK     = 4'd3;   // open: CRC check pass running
localparam [3:0] ST_DECIDE    = 4'd4;   // lookup, checks, EPSN (waits while cfg_busy)
localparam [3:0] ST_CRYPT_GO  = 4'd5;   // start the GCM pass
localparam [3:0] ST_CRYPT     = 4'd6;   // GCM pass running until the tag
localparam [3:0] ST_VERIFY    = 4'd7;   // open: tag compare and commit
localparam [3:0] ST_EGRESS_GO = 4'd8;   // start the output pass
localparam [3:0] ST_EGRESS    = 4'd9;   // output pass running
localparam [3:0] ST_TAIL0     = 4'd10;  // push the first patched tail beat
localparam [3:0] ST_TAIL1     = 4'd11;  // push the second patched tail beat
localparam [3:0] ST_DRAIN     = 4'd12;  // wait for the output FIFO to empty
localparam [3:0] ST_STATUS    = 4'd13;  // status entry and counter

// composer jobs
localparam [1:0] JOB_NONE   = 2'd0;
localparam [1:0] JOB_CHECK  = 2'd1;
localparam [1:0] JOB_CRYPT  = 2'd2;
localparam [1:0] JOB_EGRESS = 2'd3;

generate
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
// bytes set in a tkeep prefix mask (counted per 16-byte lane: short loops, which the
// simulator unrolls; one loop over W > 64 bytes would run byte by byte)
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
reg [3:0]               state_reg, state_next;
reg [1:0]               job_reg, job_next;

// input
reg [8*CAP_BYTES-1:0]   hdr_reg, hdr_next;
reg [LEN_W-1:0]         frame_len_reg, frame_len_next;
reg                     link_reg, link_next;
// ingress: two input slots, filled in turn, processed in turn
reg [8*CAP_BYTES-1:0]   ing_hdr_reg, ing_hdr_next;
reg [LEN_W-1:0]         ing_len_reg, ing_len_next;
reg                     ing_link_reg, ing_link_next;
reg [8:0]               wbeat_reg, wbeat_next;
reg                     in_slot_reg, in_slot_next;
reg                     proc_slot_reg, proc_slot_next;
reg [1:0]               slot_full_reg, slot_full_next;

// parse results
reg [1:0]               pr_shape_reg;
reg [6:0]               pr_bth_off_reg;
reg [6:0]               pr_hdr_len_reg;
reg [6:0]               pr_sth_len_reg;
reg [12:0]              pr_pp_len_reg;
reg [12:0]              pr_pkt_end_reg;
reg [15:0]              pr_pkey_reg;
reg [23:0]              pr_destqp_reg;
reg [23:0]              pr_psn_reg;
reg [2:0]               pr_mode_reg;
reg [2:0]               pr_sthsz_reg;

// CRC pass results
reg                     icrc_done_reg, icrc_done_next;
reg [31:0]              icrc_val_reg, icrc_val_next;
reg                     vcrc_done_reg, vcrc_done_next;
reg [15:0]              vcrc_val_reg, vcrc_val_next;
reg [12:0]              crc_icrc_off_reg, crc_icrc_off_next;   // ICRC position of the pass
reg [DW-1:0]            tail_data_reg[0:1];
reg [W-1:0]             tail_keep_reg[0:1];
reg                     tail_last_reg[0:1];
reg                     icrc_ok_reg, icrc_ok_next;
reg                     vcrc_ok_reg, vcrc_ok_next;
reg [31:0]              rx_icrc_field_reg, rx_icrc_field_next;   // the received ICRC field bytes

// decision
reg [5:0]               d_reason_reg, d_reason_next;
reg                     d_hit_reg, d_hit_next;
reg [CTX_W-1:0]         d_ctx_reg, d_ctx_next;
reg [2:0]               d_mode_reg, d_mode_next;       // status mode
reg [2:0]               d_apply_reg, d_apply_next;     // mode applied (none for plain)
reg [2:0]               d_code_reg, d_code_next;
reg [KEY_W-1:0]         d_key_reg, d_key_next;
reg [31:0]              d_salt_reg, d_salt_next;
reg                     d_dir_reg, d_dir_next;
reg [62:0]              d_epsn_reg, d_epsn_next;
reg                     d_alert_reg, d_alert_next;
reg                     busy_pkt_reg, busy_pkt_next;   // a decided packet is in the engine

// crypt
reg [127:0]             tag_reg, tag_next;
reg [BUF_AW-1:0]        cw_reg, cw_next;

// status output
reg                     st_valid_reg, st_valid_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
// input handshake
wire in_beat = s_axis_tvalid && s_axis_tready;

// the input beat's bytes that can fall into the header register (the first KEPT_BYTES),
// those outside tkeep as zero, and the beat's byte count
localparam KEPT_BYTES = (W < CAP_BYTES) ? W : CAP_BYTES;
wire [8*KEPT_BYTES-1:0] in_kept_data;
wire [NW-1:0] in_keep_count = keep_count(s_axis_tkeep);
// the ingress header register after an input beat: the beat's bytes where they fall
// into frame bytes 0 .. CAP_BYTES - 1, the rest cleared on a first beat, else kept
wire [8*CAP_BYTES-1:0] ing_hdr_cap;
// bit masks of the tail beats' tkeep
wire [DW-1:0] tail_bits0, tail_bits1;
// all of these by generate, a slice per byte or per beat (loops over more than 64 bytes
// would stay run-time loops over the wide vectors in Verilator)
genvar kb;
generate
    for (kb = 0; kb < W; kb = kb + 1) begin : g_keep_bits
        assign tail_bits0[8*kb +: 8] = {8{tail_keep_reg[0][kb]}};
        assign tail_bits1[8*kb +: 8] = {8{tail_keep_reg[1][kb]}};
    end
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

// parser
wire [5:0]  p_reason;
wire [1:0]  p_shape;
wire [6:0]  p_bth_off, p_hdr_len, p_sth_len;
wire [12:0] p_pp_len, p_pkt_end;
wire [15:0] p_pkey;
wire [23:0] p_destqp, p_psn;
wire [2:0]  p_mode, p_sthsz;
/* verilator lint_off UNUSEDSIGNAL */
// opcode, pad count and SECMODE are checked inside the parser; the engine needs only
// the lengths and the mode the parser derives from them
wire [7:0]  p_opcode;
wire [1:0]  p_padcnt;
wire [1:0]  p_secmode;
/* verilator lint_on UNUSEDSIGNAL */

// register block
wire                 cfg_allow_plain, cfg_mask_mf, cfg_busy;
wire                 key_valid, key_ready, key_aes256;
wire [KEY_W-1:0]     key_slot;
wire [255:0]         key_data;
wire                 lk_hit, lk_dir, lk_key_valid;
/* verilator lint_off UNUSEDSIGNAL */
// the key size travels with the key into gcm_core's slot; the engine does not need it
wire                 lk_key_aes256;
// the committed entry is always the engine's single packet in flight
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
reg                  cm_valid, cm_pass;
wire                 cm_alert;
reg                  cnt_valid;

// header edit and mask
wire [6:0]              sth_out_len = (OPEN == 0 && mode_has_sth(d_apply_reg)) ? sth_bytes(d_code_reg)
                                                                                 : 7'd0;
wire [6:0]              edit_len = (OPEN != 0) ? pr_sth_len_reg : sth_out_len;
wire [6:0]              edit_secbits = (OPEN != 0) ? 7'd0 : secbits_encode(d_apply_reg, d_code_reg);
wire [8*HDR_BYTES-1:0]  edit_out;
wire                    egress_phase = (state_reg == ST_EGRESS_GO) || (state_reg == ST_EGRESS) ||
                                       (state_reg == ST_TAIL0) || (state_reg == ST_TAIL1) ||
                                       (state_reg == ST_DRAIN);
wire [8*HDR_BYTES-1:0]  hdr_window = hdr_reg[8*HDR_BYTES-1:0];
wire [8*HDR_BYTES-1:0]  mask_in = (OPEN != 0 && !egress_phase) ? hdr_window : edit_out;
wire [8*HDR_BYTES-1:0]  mask_aad;
wire [6:0]              mask_aad_len;
wire [8*HDR_BYTES-1:0]  mask_ones;
/* verilator lint_off UNUSEDSIGNAL */
// the whole-byte form of the variant mask: the per-bit form (mask_ones) covers it
wire [HDR_BYTES-1:0]    mask_variant;
/* verilator lint_on UNUSEDSIGNAL */

// geometry
wire        enc = mode_encrypts(d_apply_reg);
wire [12:0] aad_len13 = {6'd0, mask_aad_len};
wire [12:0] aad_blk = round16(aad_len13);                         // AAD blocks, in bytes
wire [12:0] pp_src = {6'd0, pr_hdr_len_reg} + {6'd0, pr_sth_len_reg}; // payload in the input
wire [12:0] trailer = link_reg ? ICRC_LEN : (ICRC_LEN + VCRC_LEN);
wire [12:0] out_pp_off = {6'd0, pr_hdr_len_reg} + {6'd0, sth_out_len};
wire [12:0] out_icrc_off = out_pp_off + pr_pp_len_reg;

// composer
reg                     cz_start;
reg [8*FRONT_BYTES-1:0] cz_front;
reg [7:0]               cz_front_len;
reg [12:0]              cz_src_off, cz_dst_off, cz_dst_end, cz_total_end, cz_aad_end;
wire                    cz_busy;
wire                    cz_rd_en;
wire [BUF_AW-1:0]       cz_rd_addr;
wire                    cz_tap_valid;
wire [8:0]              cz_tap_index;
wire [DW-1:0]           cz_tap_data;
wire [W-1:0]            cz_tap_keep;
wire                    cz_tap_last;
wire [LANES-1:0]        cz_tap_user;
reg                     src_crypt_reg, src_crypt_next;   // source: crypt buffer
wire [DW-1:0]           inbuf_rd_data, cbuf_rd_data;

// FIFO behind the composer
wire                    fifo_s_ready;
reg                     fifo_s_valid;
reg  [FIFO_W-1:0]       fifo_s_data;
wire                    fifo_m_valid;
wire                    fifo_m_ready;
wire [FIFO_W-1:0]       fifo_m_data;
wire [$clog2(FIFO_DEPTH):0] fifo_count;
wire                    fifo_to_gcm = (job_reg == JOB_CRYPT);
// room for a new beat: two more may be in flight between the composer and the FIFO
wire                    fifo_room = fifo_count <= FIFO_ROOM_MAX;

// gcm_core
wire                    gcm_s_tready;
wire [DW-1:0]           gcm_m_tdata;
wire                    gcm_m_tvalid;
wire                    gcm_m_tlast;
wire [127:0]            gcm_m_tag;
/* verilator lint_off UNUSEDSIGNAL */
// keep/user of the output are those of the input beats; nokey cannot happen: the key
// was valid at the decision and the command interlock keeps it until the packet entered
wire [W-1:0]            gcm_m_tkeep;
wire [LANES-1:0]        gcm_m_tuser;
wire                    gcm_m_nokey;
/* verilator lint_on UNUSEDSIGNAL */

// CRC engines
wire        crc_job = (job_reg == JOB_CHECK) || (job_reg == JOB_EGRESS);
wire [12:0] crc_cov_last = crc_icrc_off_reg - 13'd1;
wire [12:0] crc_last_beat = crc_cov_last / W14[12:0];   // beat of the last ICRC-covered byte
wire [12:0] tail_beat = crc_icrc_off_reg / W14[12:0];    // beat of the first ICRC byte
/* verilator lint_off UNUSEDSIGNAL */
// positions inside a beat are below W: only the low NW bits of the remainders matter
wire [12:0] crc_last_rem = crc_cov_last % W14[12:0];
wire [12:0] tail_rem = crc_icrc_off_reg % W14[12:0];
/* verilator lint_on UNUSEDSIGNAL */
wire [NW-1:0] crc_last_end = crc_last_rem[NW-1:0] + 1'b1;   // bytes covered in that beat
wire [NW-1:0] tail_off = tail_rem[NW-1:0];                  // ICRC field position in it
wire [12:0] tap_index13 = {4'd0, cz_tap_index};
wire        crc_in_valid = cz_tap_valid && crc_job && (tap_index13 <= crc_last_beat);
wire        crc_in_first = cz_tap_index == 9'd0;
wire        crc_in_last = tap_index13 == crc_last_beat;
wire        icrc_out_valid, vcrc_out_valid;
wire [31:0] icrc_out;
wire [15:0] vcrc_out;
wire [15:0] vcrc_ext;
wire        tap_is_tail = tap_index13 >= tail_beat;
wire        tail_slot = (tap_index13 != tail_beat);

// the variant bits of each header beat, ORed into the ICRC input (crc.c masking: the
// variant fields of the header read as ones; some are narrower than a byte, LRH VL and
// the GRH / IPv6 traffic-class nibble, so the per-bit mask is applied to the data)
wire [DW-1:0] ones_word[0:HDR_BEATS-1];
genvar gi;
generate
    for (gi = 0; gi < HDR_BEATS; gi = gi + 1) begin : g_ones
        if ((gi + 1) * W <= HDR_BYTES) begin : g_full
            assign ones_word[gi] = mask_ones[gi*DW +: DW];
        end else begin : g_part
            assign ones_word[gi] = {{(8 * ((gi + 1) * W - HDR_BYTES)){1'b0}},
                                    mask_ones[8*HDR_BYTES-1:gi*DW]};
        end
    end
endgenerate
wire [DW-1:0] crc_in_ones_bits = ({23'd0, cz_tap_index} < HDR_BEATS)
                               ? ones_word[cz_tap_index[HB_W-1:0]] : {DW{1'b0}};

// tail: the last one or two beats, holding the ICRC (and VCRC) field
wire [2*DW-1:0] tail_pair = {tail_data_reg[1], tail_data_reg[0]};
/* verilator lint_off UNUSEDSIGNAL */
// only the 6 bytes of the CRC fields are read out of the shifted pair
wire [2*DW-1:0] tail_fields = tail_pair >> (8 * tail_off);
/* verilator lint_on UNUSEDSIGNAL */
wire [31:0] rx_icrc_field = tail_fields[31:0];
wire [15:0] rx_vcrc = tail_fields[47:32];

// the received tag: the ICRC field (icrc-mac) or the STH behind the headers
/* verilator lint_off UNUSEDSIGNAL */
// the STH is 12 or 16 bytes: the 16 bytes behind the headers are the candidates
wire [8*CAP_BYTES-1:0] hdr_from_sth = hdr_reg >> (8 * pr_hdr_len_reg);
/* verilator lint_on UNUSEDSIGNAL */
wire [127:0] rx_tag = (d_apply_reg == M_ICRC_MAC) ? {96'd0, rx_icrc_field_reg} : hdr_from_sth[127:0];
wire [4:0]   tag_len = (d_apply_reg == M_ICRC_MAC) ? ICRC_MAC_TAG_LEN
                     : (d_code_reg == 3'd1) ? STH96_LEN[4:0] : STH128_LEN[4:0];
wire [127:0] gcm_tag_stream = tag_to_stream(tag_reg);
reg          tag_match;
integer      ti;
always @* begin
    tag_match = 1'b1;
    for (ti = 0; ti < 16; ti = ti + 1)
        if (ti < tag_len && gcm_tag_stream[8*ti +: 8] != rx_tag[8*ti +: 8])
            tag_match = 1'b0;
end

// the ICRC field and VCRC to write on egress (icrc-mac: the tag's first 4 bytes)
wire [31:0] out_icrc_field = (OPEN == 0 && d_apply_reg == M_ICRC_MAC) ? gcm_tag_stream[31:0]
                                                                      : icrc_val_reg;
wire [47:0] crc_fields = {vcrc_ext, out_icrc_field};
wire [47:0] crc_field_mask = link_reg ? 48'h0000_ffff_ffff : 48'hffff_ffff_ffff;
wire [2*DW-1:0] tail_patched = (tail_pair & ~({{(2*DW-48){1'b0}}, crc_field_mask} << (8 * tail_off))) |
                               ({{(2*DW-48){1'b0}}, crc_fields & crc_field_mask} << (8 * tail_off));

// egress front: edited header up to hdr_len, then the STH (the tag's first L bytes)
reg [8*FRONT_BYTES-1:0] egress_front;
// the edited header's bytes below hdr_len
wire [8*HDR_BYTES-1:0]  edit_head = edit_out & ~({8*HDR_BYTES{1'b1}} << (8 * pr_hdr_len_reg));
always @* begin
    egress_front = {{(8*(FRONT_BYTES-HDR_BYTES)){1'b0}}, edit_head};
    if (OPEN == 0 && mode_has_sth(d_apply_reg))
        egress_front = egress_front |
                       ({{(8*FRONT_BYTES-128){1'b0}}, gcm_tag_stream} << (8 * pr_hdr_len_reg));
end

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign s_axis_tready = !slot_full_reg[in_slot_reg];
assign m_axis_tdata  = fifo_m_data[DW-1:0];
assign m_axis_tkeep  = fifo_m_data[DW +: W];
assign m_axis_tlast  = fifo_m_data[FIFO_W-1];
assign m_axis_tvalid = fifo_m_valid && !fifo_to_gcm;
assign m_axis_tuser  = link_reg;
assign fifo_m_ready  = fifo_to_gcm ? gcm_s_tready : m_axis_tready;

assign st_valid   = st_valid_reg;
assign st_reason  = d_reason_reg;
assign st_ctx_hit = d_hit_reg;
assign st_ctx     = d_ctx_reg;
assign st_mode    = d_mode_reg;
assign st_epsn    = d_epsn_reg;
assign st_alert   = d_alert_reg;

// ----------------------------------------------------------------------------
// Submodules
// ----------------------------------------------------------------------------
ib_hdr_parse #(
    .HDR_BYTES (HDR_BYTES),
    .LEN_W     (LEN_W)
) hdr_parse (
    .hdr       (hdr_window),
    .frame_len (frame_len_reg),
    .link      (link_reg),
    .is_open   (OPEN != 0),
    .reason    (p_reason),
    .shape     (p_shape),
    .bth_off   (p_bth_off),
    .hdr_len   (p_hdr_len),
    .sth_len   (p_sth_len),
    .pp_len    (p_pp_len),
    .pkt_end   (p_pkt_end),
    .opcode    (p_opcode),
    .padcnt    (p_padcnt),
    .pkey      (p_pkey),
    .destqp    (p_destqp),
    .psn       (p_psn),
    .secmode   (p_secmode),
    .sthsz     (p_sthsz),
    .mode      (p_mode)
);

ib_hdr_edit #(
    .HDR_BYTES (HDR_BYTES)
) hdr_edit (
    .hdr_in  (hdr_window),
    .shape   (pr_shape_reg),
    .bth_off (pr_bth_off_reg),
    .shrink  (OPEN != 0),
    .len     (edit_len),
    .secbits (edit_secbits),
    .hdr_out (edit_out)
);

ib_hdr_mask #(
    .HDR_BYTES (HDR_BYTES),
    .AAD_BYTES (HDR_BYTES)
) hdr_mask (
    .hdr     (mask_in),
    .shape   (pr_shape_reg),
    .hdr_len (pr_hdr_len_reg),
    .mask_mf (cfg_mask_mf),
    .aad     (mask_aad),
    .aad_len (mask_aad_len),
    .variant (mask_variant),
    .ones    (mask_ones)
);

ibsec_regs #(
    .KEY_SLOTS (KEY_SLOTS),
    .CTX_SLOTS (CTX_SLOTS),
    .OPEN      (OPEN)
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
    .pipe_busy       (busy_pkt_reg),
    .m_key_valid     (key_valid),
    .m_key_ready     (key_ready),
    .m_key_slot      (key_slot),
    .m_key_aes256    (key_aes256),
    .m_key_data      (key_data),
    .lk_destqp       (pr_destqp_reg),
    .lk_pkey         (pr_pkey_reg),
    .lk_hit          (lk_hit),
    .lk_ctx          (lk_ctx),
    .lk_mode         (lk_mode),
    .lk_sth_code     (lk_sth_code),
    .lk_dir          (lk_dir),
    .lk_key          (lk_key),
    .lk_key_valid    (lk_key_valid),
    .lk_key_aes256   (lk_key_aes256),
    .lk_salt         (lk_salt),
    .dec_pkt         (dec_pkt),
    .ep_valid        (ep_valid),
    .ep_ctx          (lk_ctx),
    .ep_psn          (pr_psn_reg),
    .ep_reason       (ep_reason),
    .ep_epsn         (ep_epsn),
    .ep_wait         (ep_wait),
    .cm_valid        (cm_valid),
    .cm_pass         (cm_pass),
    .cm_alert        (cm_alert),
    .cm_ctx          (cm_ctx),
    .cm_epsn         (cm_epsn),
    .ep_full         (ep_full),
    .cnt_valid       (cnt_valid),
    .cnt_reason      (d_reason_reg)
);

ibsec_pkt_buffer #(
    .WIDTH (DW),
    .DEPTH (2 * BUF_DEPTH)
) in_buffer (
    .clk     (clk),
    .wr_en   (in_beat && ({23'd0, wbeat_reg} < BUF_DEPTH)),
    .wr_addr ({in_slot_reg, wbeat_reg[BUF_AW-1:0]}),
    .wr_data (s_axis_tdata),
    .rd_en   (cz_rd_en),
    .rd_addr ({proc_slot_reg, cz_rd_addr}),
    .rd_data (inbuf_rd_data)
);

ibsec_pkt_buffer #(
    .WIDTH (DW),
    .DEPTH (BUF_DEPTH)
) crypt_buffer (
    .clk     (clk),
    .wr_en   (gcm_m_tvalid),
    .wr_addr (cw_reg),
    .wr_data (gcm_m_tdata),
    .rd_en   (cz_rd_en),
    .rd_addr (cz_rd_addr),
    .rd_data (cbuf_rd_data)
);

ibsec_realign #(
    .LANES       (LANES),
    .FRONT_BYTES (FRONT_BYTES),
    .AW          (BUF_AW)
) composer (
    .clk       (clk),
    .rst       (rst),
    .start     (cz_start),
    .busy      (cz_busy),
    .front     (cz_front),
    .front_len (cz_front_len),
    .src_off   (cz_src_off),
    .dst_off   (cz_dst_off),
    .dst_end   (cz_dst_end),
    .total_end (cz_total_end),
    .aad_end   (cz_aad_end),
    .issue_ok  (job_reg == JOB_CHECK || fifo_room),
    .rd_en     (cz_rd_en),
    .rd_addr   (cz_rd_addr),
    .rd_data   (src_crypt_reg ? cbuf_rd_data : inbuf_rd_data),
    .tap_valid (cz_tap_valid),
    .tap_index (cz_tap_index),
    .tap_data  (cz_tap_data),
    .tap_keep  (cz_tap_keep),
    .tap_last  (cz_tap_last),
    .tap_user  (cz_tap_user)
);

sync_fifo #(
    .WIDTH (FIFO_W),
    .DEPTH (FIFO_DEPTH)
) out_fifo (
    .clk     (clk),
    .rst     (rst),
    .s_valid (fifo_s_valid),
    .s_ready (fifo_s_ready),
    .s_data  (fifo_s_data),
    .m_valid (fifo_m_valid),
    .m_ready (fifo_m_ready),
    .m_data  (fifo_m_data),
    .count   (fifo_count)
);

gcm_core #(
    .LANES            (LANES),
    .KEY_SLOTS        (KEY_SLOTS),
    .STAGES_PER_ROUND (STAGES_PER_ROUND),
    .SBOX_IMPL        (SBOX_IMPL)
) gcm (
    .clk            (clk),
    .rst            (rst),
    .s_key_valid    (key_valid),
    .s_key_ready    (key_ready),
    .s_key_slot     (key_slot),
    .s_key_aes256   (key_aes256),
    .s_key_data     (key_data),
    .s_axis_tdata   (fifo_m_data[DW-1:0]),
    .s_axis_tkeep   (fifo_m_data[DW +: W]),
    .s_axis_tvalid  (fifo_m_valid && fifo_to_gcm),
    .s_axis_tready  (gcm_s_tready),
    .s_axis_tlast   (fifo_m_data[FIFO_W-1]),
    .s_axis_tuser   (fifo_m_data[DW + W +: LANES]),
    .s_axis_slot    (d_key_reg),
    .s_axis_iv      ({d_salt_reg, d_dir_reg, d_epsn_reg}),
    .s_axis_decrypt (OPEN != 0),
    .m_axis_tdata   (gcm_m_tdata),
    .m_axis_tkeep   (gcm_m_tkeep),
    .m_axis_tvalid  (gcm_m_tvalid),
    .m_axis_tready  (1'b1),
    .m_axis_tlast   (gcm_m_tlast),
    .m_axis_tuser   (gcm_m_tuser),
    .m_axis_tag     (gcm_m_tag),
    .m_axis_nokey   (gcm_m_nokey)
);

ib_icrc_engine #(
    .LANES (LANES)
) icrc (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (crc_in_valid),
    .in_first  (crc_in_first),
    .in_last   (crc_in_last),
    .in_roce   (link_reg),
    .in_data   (cz_tap_data | crc_in_ones_bits),
    .in_ones   ({W{1'b0}}),
    .in_end    (crc_last_end),
    .out_valid (icrc_out_valid),
    .out_icrc  (icrc_out)
);

ib_vcrc_engine #(
    .LANES (LANES)
) vcrc (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (crc_in_valid),
    .in_first  (crc_in_first),
    .in_last   (crc_in_last),
    .in_data   (cz_tap_data),
    .in_end    (crc_last_end),
    .out_valid (vcrc_out_valid),
    .out_vcrc  (vcrc_out)
);

// VCRC of LRH .. ICRC field: the VCRC up to the ICRC extended by the field's 4 bytes
ib_vcrc_extend4 vcrc_extend (
    .in_vcrc  (vcrc_val_reg),
    .in_bytes ((state_reg == ST_CHECK) ? rx_icrc_field : out_icrc_field),
    .out_vcrc (vcrc_ext)
);

// The packet reaches the EPSN step (seal §7 step 5, open §8 step 10): every earlier
// check of the decision passed (the same chain as in ST_DECIDE below)
wire reach_ep = (d_reason_reg == R_OK) &&
                !(OPEN != 0 && !link_reg && !vcrc_ok_reg) &&
                lk_hit &&
                !(OPEN != 0 && pr_mode_reg != lk_mode) &&
                !(OPEN != 0 && mode_has_sth(pr_mode_reg) && pr_sthsz_reg != lk_sth_code) &&
                (lk_mode != M_NONE) && lk_key_valid &&
                !(OPEN != 0 && lk_mode != M_ICRC_MAC && !icrc_ok_reg);
assign ep_valid = (state_reg == ST_DECIDE) && !cfg_busy && reach_ep;

// ----------------------------------------------------------------------------
// Composer job and FIFO input
// ----------------------------------------------------------------------------
always @* begin
    cz_front     = {8*FRONT_BYTES{1'b0}};
    cz_front_len = 8'd0;
    cz_src_off   = 13'd0;
    cz_dst_off   = 13'd0;
    cz_dst_end   = 13'd0;
    cz_total_end = 13'd0;
    cz_aad_end   = 13'd0;
    case (state_reg)
        ST_CHECK_GO: begin
            // the received packet as it is, through the CRC engines
            cz_dst_end   = pr_pkt_end_reg;
            cz_total_end = pr_pkt_end_reg;
        end
        ST_CRYPT_GO: begin
            // GCM message: H, then payload + pad as data (from the next block) or as AAD
            cz_front     = {{(8*(FRONT_BYTES-HDR_BYTES)){1'b0}}, mask_aad};
            cz_front_len = {1'b0, mask_aad_len};
            cz_src_off   = pp_src;
            if (enc) begin
                cz_dst_off   = aad_blk;
                cz_dst_end   = aad_blk + pr_pp_len_reg;
                cz_total_end = aad_blk + pr_pp_len_reg;
                cz_aad_end   = aad_len13;
            end else if (d_apply_reg == M_STH_PKT) begin
                cz_dst_off   = aad_len13;
                cz_dst_end   = aad_len13 + pr_pp_len_reg;
                cz_total_end = aad_len13 + pr_pp_len_reg;
                cz_aad_end   = aad_len13 + pr_pp_len_reg;
            end else begin
                cz_dst_off   = aad_len13;
                cz_dst_end   = aad_len13;
                cz_total_end = aad_len13;
                cz_aad_end   = aad_len13;
            end
        end
        ST_EGRESS_GO: begin
            // headers and STH, payload + pad, ICRC/VCRC placeholders
            cz_front     = egress_front;
            cz_front_len = out_pp_off[7:0];
            cz_src_off   = enc ? aad_blk : pp_src;
            cz_dst_off   = out_pp_off;
            cz_dst_end   = out_icrc_off;
            cz_total_end = out_icrc_off + trailer;
        end
        default: ;
    endcase
end

always @* begin
    fifo_s_valid = 1'b0;
    fifo_s_data  = {cz_tap_last, cz_tap_user, cz_tap_keep, cz_tap_data};
    case (state_reg)
        ST_CRYPT: fifo_s_valid = cz_tap_valid;
        ST_EGRESS: fifo_s_valid = cz_tap_valid && !tap_is_tail;
        ST_TAIL0: begin
            fifo_s_valid = 1'b1;
            fifo_s_data  = {tail_last_reg[0], {LANES{1'b0}}, tail_keep_reg[0],
                            tail_patched[DW-1:0] & tail_bits0};
        end
        ST_TAIL1: begin
            fifo_s_valid = 1'b1;
            fifo_s_data  = {tail_last_reg[1], {LANES{1'b0}}, tail_keep_reg[1],
                            tail_patched[2*DW-1:DW] & tail_bits1};
        end
        default: ;
    endcase
end

// ----------------------------------------------------------------------------
// Control
// ----------------------------------------------------------------------------
always @* begin
    state_next         = state_reg;
    job_next           = job_reg;
    hdr_next           = hdr_reg;
    frame_len_next     = frame_len_reg;
    wbeat_next         = wbeat_reg;
    ing_hdr_next       = ing_hdr_reg;
    ing_len_next       = ing_len_reg;
    ing_link_next      = ing_link_reg;
    in_slot_next       = in_slot_reg;
    proc_slot_next     = proc_slot_reg;
    slot_full_next     = slot_full_reg;
    link_next          = link_reg;
    icrc_done_next     = icrc_done_reg;
    icrc_val_next      = icrc_val_reg;
    vcrc_done_next     = vcrc_done_reg;
    vcrc_val_next      = vcrc_val_reg;
    crc_icrc_off_next  = crc_icrc_off_reg;
    icrc_ok_next       = icrc_ok_reg;
    vcrc_ok_next       = vcrc_ok_reg;
    rx_icrc_field_next = rx_icrc_field_reg;
    d_reason_next      = d_reason_reg;
    d_hit_next         = d_hit_reg;
    d_ctx_next         = d_ctx_reg;
    d_mode_next        = d_mode_reg;
    d_apply_next       = d_apply_reg;
    d_code_next        = d_code_reg;
    d_key_next         = d_key_reg;
    d_salt_next        = d_salt_reg;
    d_dir_next         = d_dir_reg;
    d_epsn_next        = d_epsn_reg;
    d_alert_next       = d_alert_reg;
    busy_pkt_next      = busy_pkt_reg;
    tag_next           = tag_reg;
    cw_next            = cw_reg;
    src_crypt_next     = src_crypt_reg;
    st_valid_next      = 1'b0;
    cz_start           = 1'b0;
    dec_pkt            = 1'b0;
    cm_valid           = 1'b0;
    cm_pass            = 1'b0;
    cnt_valid          = 1'b0;

    // CRC results of the running pass
    if (icrc_out_valid) begin
        icrc_done_next = 1'b1;
        icrc_val_next  = icrc_out;
    end
    if (vcrc_out_valid) begin
        vcrc_done_next = 1'b1;
        vcrc_val_next  = vcrc_out;
    end

    // gcm output into the crypt buffer, tag with the last beat
    if (gcm_m_tvalid) begin
        cw_next = cw_reg + 1'b1;
        if (gcm_m_tlast)
            tag_next = gcm_m_tag;
    end

    // ingress: the frame into the free input slot, its header and length beside it
    if (in_beat) begin
        if (wbeat_reg == 9'd0)
            ing_link_next = s_axis_tuser;
        // header register: frame bytes 0 .. CAP_BYTES - 1
        ing_hdr_next = ing_hdr_cap;
        // frame length, saturated at 2^LEN_W - 1 (ib_hdr_parse's frame_len)
        if (wbeat_reg == 9'd0)
            ing_len_next = {{(LEN_W-NW){1'b0}}, in_keep_count};
        else if ({1'b0, ing_len_reg} + {{(LEN_W+1-NW){1'b0}}, in_keep_count} > {1'b0, LEN_MAX})
            ing_len_next = LEN_MAX;
        else
            ing_len_next = ing_len_reg + {{(LEN_W-NW){1'b0}}, in_keep_count};
        if (wbeat_reg != 9'h1ff)
            wbeat_next = wbeat_reg + 1'b1;
        if (s_axis_tlast) begin
            wbeat_next = 9'd0;
            slot_full_next[in_slot_reg] = 1'b1;
            in_slot_next = !in_slot_reg;
        end
    end

    case (state_reg)
        ST_IN: begin
            // the next packet in input order is complete in its slot: take its header
            if (slot_full_reg[proc_slot_reg]) begin
                hdr_next       = ing_hdr_reg;
                frame_len_next = ing_len_reg;
                link_next      = ing_link_reg;
                state_next     = ST_PARSE;
            end
        end
        ST_PARSE: begin
            d_hit_next    = 1'b0;
            d_ctx_next    = {CTX_W{1'b0}};
            d_mode_next   = (OPEN != 0) ? p_mode : M_NONE;
            d_apply_next  = M_NONE;
            d_code_next   = 3'd0;
            d_epsn_next   = 63'd0;
            d_alert_next  = 1'b0;
            d_reason_next = p_reason;
            icrc_ok_next  = 1'b0;
            vcrc_ok_next  = 1'b0;
            if (OPEN != 0 && p_reason == R_OK) begin
                crc_icrc_off_next = p_pkt_end - (link_reg ? ICRC_LEN : (ICRC_LEN + VCRC_LEN));
                state_next = ST_CHECK_GO;
            end else begin
                state_next = ST_DECIDE;
            end
        end
        ST_CHECK_GO: begin
            cz_start       = 1'b1;
            src_crypt_next = 1'b0;
            job_next       = JOB_CHECK;
            icrc_done_next = 1'b0;
            vcrc_done_next = 1'b0;
            state_next     = ST_CHECK;
        end
        ST_CHECK: begin
            if (!cz_busy && icrc_done_reg && vcrc_done_reg) begin
                job_next           = JOB_NONE;
                rx_icrc_field_next = rx_icrc_field;
                icrc_ok_next       = icrc_val_reg == rx_icrc_field;
                vcrc_ok_next       = vcrc_ext == rx_vcrc;
                state_next         = ST_DECIDE;
            end
        end
        ST_DECIDE: begin
            if (!cfg_busy) begin
                state_next = ST_STATUS;
                dec_pkt    = 1'b1;
                if (d_reason_reg != R_OK) begin
                    // parse error: no lookup
                end else if (OPEN != 0 && !link_reg && !vcrc_ok_reg) begin
                    d_reason_next = R_BAD_VCRC;
                end else if (!lk_hit) begin
                    if ((OPEN != 0 && pr_mode_reg != M_NONE) || !cfg_allow_plain)
                        d_reason_next = R_NO_CONTEXT;
                    else if (OPEN != 0 && !icrc_ok_reg)
                        d_reason_next = R_BAD_ICRC;
                    else
                        state_next = ST_EGRESS_GO;
                end else begin
                    d_hit_next  = 1'b1;
                    d_ctx_next  = lk_ctx;
                    d_key_next  = lk_key;
                    d_salt_next = lk_salt;
                    d_dir_next  = (OPEN != 0) ? !lk_dir : lk_dir;  // the sender's direction
                    d_code_next = lk_sth_code;
                    if (OPEN == 0)
                        d_mode_next = lk_mode;
                    if (OPEN != 0 && pr_mode_reg != lk_mode)
                        d_reason_next = R_MODE_MISMATCH;
                    else if (OPEN != 0 && mode_has_sth(pr_mode_reg) && pr_sthsz_reg != lk_sth_code)
                        d_reason_next = R_STH_MISMATCH;
                    else if (OPEN == 0 && lk_mode == M_NONE)
                        state_next = ST_EGRESS_GO;
                    else if (lk_mode != M_NONE && !lk_key_valid)
                        d_reason_next = R_NO_KEY;
                    else if (OPEN != 0 && lk_mode != M_ICRC_MAC && !icrc_ok_reg)
                        d_reason_next = R_BAD_ICRC;
                    else if (lk_mode == M_NONE)
                        state_next = ST_EGRESS_GO;
                    else begin
                        // ep_valid is high here (reach_ep)
                        if (ep_wait) begin
                            // an earlier packet on the context is in flight: retry
                            dec_pkt    = 1'b0;
                            state_next = ST_DECIDE;
                        end else if (ep_reason != R_OK) begin
                            d_reason_next = ep_reason;
                        end else begin
                            d_epsn_next  = ep_epsn;
                            d_apply_next = lk_mode;
                            state_next   = ST_CRYPT_GO;
                        end
                    end
                end
                if (state_next != ST_DECIDE)
                    busy_pkt_next = 1'b1;
            end
        end
        ST_CRYPT_GO: begin
            cz_start       = 1'b1;
            src_crypt_next = 1'b0;
            job_next       = JOB_CRYPT;
            cw_next        = {BUF_AW{1'b0}};
            state_next     = ST_CRYPT;
        end
        ST_CRYPT: begin
            if (gcm_m_tvalid && gcm_m_tlast) begin
                job_next   = JOB_NONE;
                state_next = (OPEN != 0) ? ST_VERIFY : ST_EGRESS_GO;
            end
        end
        ST_VERIFY: begin
            cm_valid = 1'b1;
            cm_pass  = tag_match;
            if (tag_match) begin
                state_next = ST_EGRESS_GO;
            end else begin
                d_reason_next = R_AUTH_FAILED;
                d_alert_next  = cm_alert;
                state_next    = ST_STATUS;
            end
        end
        ST_EGRESS_GO: begin
            cz_start          = 1'b1;
            src_crypt_next    = enc;
            job_next          = JOB_EGRESS;
            crc_icrc_off_next = out_icrc_off;
            icrc_done_next    = 1'b0;
            vcrc_done_next    = 1'b0;
            state_next        = ST_EGRESS;
        end
        ST_EGRESS: begin
            if (!cz_busy && icrc_done_reg && vcrc_done_reg) begin
                job_next   = JOB_NONE;
                state_next = ST_TAIL0;
            end
        end
        ST_TAIL0: begin
            if (fifo_s_ready)
                state_next = tail_last_reg[0] ? ST_DRAIN : ST_TAIL1;
        end
        ST_TAIL1: begin
            if (fifo_s_ready)
                state_next = ST_DRAIN;
        end
        ST_DRAIN: begin
            if (!fifo_m_valid)
                state_next = ST_STATUS;
        end
        default: begin // ST_STATUS
            st_valid_next = 1'b1;
            cnt_valid     = 1'b1;
            busy_pkt_next = 1'b0;
            slot_full_next[proc_slot_reg] = 1'b0;
            proc_slot_next = !proc_slot_reg;
            state_next    = ST_IN;
        end
    endcase
end

integer tj;
always @(posedge clk) begin
    state_reg         <= state_next;
    job_reg           <= job_next;
    hdr_reg           <= hdr_next;
    frame_len_reg     <= frame_len_next;
    wbeat_reg         <= wbeat_next;
    ing_hdr_reg       <= ing_hdr_next;
    ing_len_reg       <= ing_len_next;
    ing_link_reg      <= ing_link_next;
    in_slot_reg       <= in_slot_next;
    proc_slot_reg     <= proc_slot_next;
    slot_full_reg     <= slot_full_next;
    link_reg          <= link_next;
    icrc_done_reg     <= icrc_done_next;
    icrc_val_reg      <= icrc_val_next;
    vcrc_done_reg     <= vcrc_done_next;
    vcrc_val_reg      <= vcrc_val_next;
    crc_icrc_off_reg  <= crc_icrc_off_next;
    icrc_ok_reg       <= icrc_ok_next;
    vcrc_ok_reg       <= vcrc_ok_next;
    rx_icrc_field_reg <= rx_icrc_field_next;
    d_reason_reg      <= d_reason_next;
    d_hit_reg         <= d_hit_next;
    d_ctx_reg         <= d_ctx_next;
    d_mode_reg        <= d_mode_next;
    d_apply_reg       <= d_apply_next;
    d_code_reg        <= d_code_next;
    d_key_reg         <= d_key_next;
    d_salt_reg        <= d_salt_next;
    d_dir_reg         <= d_dir_next;
    d_epsn_reg        <= d_epsn_next;
    d_alert_reg       <= d_alert_next;
    busy_pkt_reg      <= busy_pkt_next;
    tag_reg           <= tag_next;
    cw_reg            <= cw_next;
    src_crypt_reg     <= src_crypt_next;
    st_valid_reg      <= st_valid_next;

    if (state_reg == ST_PARSE) begin
        pr_shape_reg   <= p_shape;
        pr_bth_off_reg <= p_bth_off;
        pr_hdr_len_reg <= p_hdr_len;
        pr_sth_len_reg <= p_sth_len;
        pr_pp_len_reg  <= p_pp_len;
        pr_pkt_end_reg <= p_pkt_end;
        pr_pkey_reg    <= p_pkey;
        pr_destqp_reg  <= p_destqp;
        pr_psn_reg     <= p_psn;
        pr_mode_reg    <= p_mode;
        pr_sthsz_reg   <= p_sthsz;
    end

    // tail beats of a CRC pass: the beats from the one holding the ICRC field on
    if (cz_tap_valid && crc_job && tap_is_tail) begin
        for (tj = 0; tj < 2; tj = tj + 1) begin
            if (tail_slot == tj[0]) begin
                tail_data_reg[tj] <= cz_tap_data;
                tail_keep_reg[tj] <= cz_tap_keep;
                tail_last_reg[tj] <= cz_tap_last;
            end
        end
    end

    if (rst) begin
        state_reg     <= ST_IN;
        job_reg       <= JOB_NONE;
        wbeat_reg     <= 9'd0;
        in_slot_reg   <= 1'b0;
        proc_slot_reg <= 1'b0;
        slot_full_reg <= 2'b00;
        icrc_done_reg <= 1'b0;
        vcrc_done_reg <= 1'b0;
        busy_pkt_reg  <= 1'b0;
        st_valid_reg  <= 1'b0;
        src_crypt_reg <= 1'b0;
    end
end

endmodule

`resetall
