/*
 * ibsec_engine — the ibsec packet engine: one direction (OPEN = 0 seal / transmit,
 * OPEN = 1 open / receive) of the inline AES-GCM security of IBA and RoCEv2 packets,
 * bit-exact with the C model (docs/wire-format.md §7 seal, §8 open; cmodel/ibsec_seal.c,
 * ibsec_open.c). Architecture, buffers and cycle counts: docs/packet-engine.md.
 *
 * Function
 *   Store-and-forward, as a pipeline of stages that work on consecutive packets at once,
 *   handing per-packet descriptors (ring addresses, parse results, decision) from stage to
 *   stage through FIFOs; every frame's header window is written once into the header
 *   store (ibsec_hdr_store, block RAM) and read from there, in frame order, by the two
 *   stages that need it whole (crypt: H; egress: the output header). This module connects the stages, the descriptor FIFOs
 *   between them and the register block; each stage is a module of its own, whose header
 *   says what it does:
 *     ibsec_ingress  frames into the input ring, their header register and length; a
 *                    descriptor per frame into IQ (early, at CAP_BEAT, for a frame that
 *                    goes on); the late parse at every frame's end; open: the CRC check
 *                    as the frame arrives (ibsec_rx_check)
 *     ibsec_parse    the IQ head registered, through ib_hdr_parse's four stages, into CQ
 *     ibsec_decide   the CQ head through the context lookup's stages (K1 .. LQ); key
 *                    and EPSN, in the model's order of checks (open: without the CRCs),
 *                    into DQ
 *     ibsec_crypt    the DQ head in CJ with its GCM message prepared; the crypt composer
 *                    and gcm_core; into XQ, with the crypt ring and the tag FIFO
 *     ibsec_egress   the XQ head and its tag in EQ with the tag comparison and the CRC
 *                    verdicts; status, commit, and the egress composer to m_axis
 *     ibsec_regs     the key and context tables, the EPSN step, configuration, commands
 *                    and counters (docs/registers.md)
 *   IQ  ingress -> parse      CQ  parse -> decide
 *   DQ  decide -> crypt       XQ  crypt -> egress (covers gcm_core's latency to the tag)
 *   A dropped packet produces nothing on m_axis and, as every packet, one status entry.
 *   Packets leave and are reported in input order.
 *
 * Latency / throughput
 *   Every stage takes one beat per clock and chains its packets without a bubble, so
 *   back-to-back packets flow at one beat per clock on the link side (seal m_axis, open
 *   s_axis), except on open for frames shorter than about 24 / INFLIGHT beats (the
 *   decided, unchecked packets the context table holds; INFLIGHT in
 *   ibsec_engine_defs.vh) and for one-beat frames at LANES = 12. The crypt pass of a
 *   frame longer than the header register runs behind its arrival, so the wait after the
 *   last beat does not grow with the packet: seal sth-pkt and sth-aead, whose STH in
 *   front of the payload holds the tag, wait for gcm_core's latency to the tag and the
 *   egress stage (40 / 34 / 32 cycles at LANES = 1 / 4 / 12, measured before gcm_core's
 *   GHASH loop grew by 8 cycles to the tag: about 8 more now); open, whose verdict needs
 *   the tag, hashes at gcm_core's input (EARLY_GHASH) and waits 19-28 cycles; seal
 *   icrc-mac streams the ciphertext out once the frame has ended and waits for the tag
 *   only at the last beat (6 cycles from 1 KiB on at LANES = 1). On open the CRC results
 *   are at the check FIFO's head 10-14 cycles after the last input beat (ibsec_rx_check)
 *   (docs/packet-engine.md §5).
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
// Constants (shared with the stage modules)
// ----------------------------------------------------------------------------
`include "ibsec_engine_defs.vh"

generate
    // the field positions of ibsec_engine_defs.vh must add up to the descriptor word
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
// Wires
// ----------------------------------------------------------------------------
// IQ: frames, at CAP_BEAT or when complete
wire                    iq_s_valid, iq_s_ready, iq_m_valid, iq_m_ready;
wire [IQ_W-1:0]         iq_s_data, iq_m_data;
// the header store: written with IQ, read by the crypt (port A) and egress (B) stages
wire                    hs_wr_en, hs_wr_long;
wire [8*CAP_BYTES-1:0]  hs_wr_data;
wire                    hs_a_valid, hs_a_pop, hs_b_valid, hs_b_pop;
wire [8*CAP_BYTES-1:0]  hs_a_data, hs_b_data;
// CQ: parsed packets
wire                    cq_s_valid, cq_m_valid, cq_m_ready;
wire [DS_W-1:0]         cq_s_data, cq_m_data;
// DQ: decided packets
wire                    dq_s_valid, dq_s_ready, dq_m_valid, dq_m_ready;
wire [DS_W-1:0]         dq_s_data, dq_m_data;
// XQ: packets past the crypt stage
wire                    xq_s_valid, xq_s_ready, xq_m_valid, xq_m_ready;
wire [DS_W-1:0]         xq_s_data, xq_m_data;
/* verilator lint_off UNUSEDSIGNAL */
// the stages read each FIFO's valid and ready, not its count; except CQ: the parse
// stage admits a packet only when CQ will have room for it (CQ's count), so CQ's
// s_ready is always high when it writes; and IQ: the ingress stage's registered ready
// keeps room in IQ for every descriptor it writes (IQ's count)
wire                    cq_s_ready;
wire [$clog2(IQ_DEPTH):0] iq_count;
wire [$clog2(CQ_DEPTH):0] cq_count;
wire [$clog2(DQ_DEPTH):0] dq_count;
wire [$clog2(XQ_DEPTH):0] xq_count;
/* verilator lint_on UNUSEDSIGNAL */

// input ring: the write port (ingress), written up to (wp) and freed up to (fp, egress);
// crypt ring: gcm_core's writes (crypt), allocated up to (ca), written up to (cw), freed
// up to (cf, egress); the address of a ring beat is a pointer's low RAW bits
wire                    ring_wr_en;
wire [RAW-1:0]          ring_wr_addr;
wire [DW-1:0]           ring_wr_data;
wire [RAW:0]            fp, cw, cf;
/* verilator lint_off UNUSEDSIGNAL */
// the stages keep their own; the test bench checks the rings' invariants on these
wire [RAW:0]            wp, ca;
/* verilator lint_on UNUSEDSIGNAL */
wire                    cr_wr_en;
wire [DW-1:0]           cr_wr_data;
// the arriving frame (the crypt composer reads the input ring behind it)
wire [RAW-1:0]          ing_base;
wire                    ing_early;

// late parse of every frame (egress register) and, seal, its reason (decision)
wire                    lp_valid, lp_pop;
wire [5:0]              lp_reason;
wire [2:0]              lp_mode;
wire [RAW-1:0]          lp_nb;
wire                    ld_valid, ld_pop;
wire [5:0]              ld_reason;
// open: the CRC check's results of every frame (egress register)
wire                    kr_valid, kr_pop;
wire [31:0]             kr_icrc0, kr_icrc1;
wire [15:0]             kr_vcrc;
wire [47:0]             kr_rx;

// tag FIFO (gcm_core's tags in message order) and, seal icrc-mac, the late tags
wire                    tq_m_valid, tq_m_ready;
wire [127:0]            tq_m_data;
wire                    tl_m_valid, tl_m_ready;
wire [31:0]             tl_m_tag32;

// register block
wire                    cfg_allow_plain, cfg_mask_mf, cfg_busy;
wire [5:0]              cfg_mgmt;
wire                    key_valid, key_ready, key_aes256, key_wipe;
wire [KEY_W-1:0]        key_slot;
wire [255:0]            key_data;
// the context lookup: the request of decide's K1, the table's answer for LQ's packet
wire                    lk_ce;
wire [23:0]             lk_in_destqp;
wire [15:0]             lk_in_pkey;
wire                    lk_hit_now, lk_dir_now, lk_key_valid_now;
wire [CTX_W-1:0]        lk_ctx_now;
wire [2:0]              lk_mode_now, lk_sth_code_now;
wire [KEY_W-1:0]        lk_key_now;
wire [KEY_W-1:0]        lk_salt_slot;
wire [31:0]             lk_salt;
/* verilator lint_off UNUSEDSIGNAL */
// the key size travels with the key into gcm_core's slot; the engine does not need it
wire                    lk_key_aes256_now;
// the committed entry is always the oldest packet of XQ that reached the EPSN step
wire [CTX_W-1:0]        cm_ctx;
wire [62:0]             cm_epsn;
wire                    ep_full;
/* verilator lint_on UNUSEDSIGNAL */
// the EPSN step (decision) and the commit (open: egress; seal: a late reject's void)
wire                    dec_pkt, ep_valid, ep_wait;
wire [CTX_W-1:0]        ep_ctx;
wire [23:0]             ep_psn;
wire [5:0]              ep_reason;
wire [62:0]             ep_epsn;
wire                    dc_cm_valid, dc_cm_void;
wire                    eg_cm_valid, eg_cm_pass, eg_cm_void;
wire                    cm_alert;
// a decided packet is still in DR (seal), DQ, CJ, XQ or EQ, or waits for its late reason
// (seal: it may not have entered gcm_core; open: it is not committed)
wire                    cj_valid, eq_valid, ur_valid, dr_valid;
wire                    pipe_busy = dr_valid || dq_m_valid || cj_valid || xq_m_valid || eq_valid
                                    || ur_valid;

// ----------------------------------------------------------------------------
// Stages
// ----------------------------------------------------------------------------
ibsec_ingress #(
    .LANES (LANES), .OPEN (OPEN), .KEY_SLOTS (KEY_SLOTS), .CTX_SLOTS (CTX_SLOTS)
) ingress (
    .clk (clk), .rst (rst),
    .s_axis_tdata (s_axis_tdata), .s_axis_tkeep (s_axis_tkeep),
    .s_axis_tvalid (s_axis_tvalid), .s_axis_tready (s_axis_tready),
    .s_axis_tlast (s_axis_tlast), .s_axis_tuser (s_axis_tuser),
    .iq_s_valid (iq_s_valid), .iq_s_ready (iq_s_ready), .iq_count (iq_count),
    .iq_s_data (iq_s_data),
    .hs_wr_en (hs_wr_en), .hs_wr_long (hs_wr_long), .hs_wr_data (hs_wr_data),
    .ring_wr_en (ring_wr_en), .ring_wr_addr (ring_wr_addr), .ring_wr_data (ring_wr_data),
    .wp (wp), .ing_base (ing_base), .ing_early (ing_early), .fp (fp),
    .lp_valid (lp_valid), .lp_pop (lp_pop), .lp_reason (lp_reason), .lp_mode (lp_mode),
    .lp_nb (lp_nb), .ld_valid (ld_valid), .ld_pop (ld_pop), .ld_reason (ld_reason),
    .kr_valid (kr_valid), .kr_pop (kr_pop), .kr_icrc0 (kr_icrc0), .kr_icrc1 (kr_icrc1),
    .kr_vcrc (kr_vcrc), .kr_rx (kr_rx)
);

ibsec_parse #(
    .LANES (LANES), .OPEN (OPEN), .KEY_SLOTS (KEY_SLOTS), .CTX_SLOTS (CTX_SLOTS)
) parse (
    .clk (clk), .rst (rst),
    .iq_m_valid (iq_m_valid), .iq_m_ready (iq_m_ready), .iq_m_data (iq_m_data),
    .cq_s_valid (cq_s_valid), .cq_count (cq_count), .cq_s_data (cq_s_data)
);

ibsec_decide #(
    .LANES (LANES), .OPEN (OPEN), .KEY_SLOTS (KEY_SLOTS), .CTX_SLOTS (CTX_SLOTS)
) decide (
    .clk (clk), .rst (rst),
    .cq_m_valid (cq_m_valid), .cq_m_ready (cq_m_ready), .cq_m_data (cq_m_data),
    .cfg_allow_plain (cfg_allow_plain), .cfg_mask_mf (cfg_mask_mf), .cfg_mgmt (cfg_mgmt),
    .cfg_busy (cfg_busy),
    .lk_ce (lk_ce), .lk_in_destqp (lk_in_destqp), .lk_in_pkey (lk_in_pkey), .lk_hit_now (lk_hit_now),
    .lk_ctx_now (lk_ctx_now), .lk_mode_now (lk_mode_now),
    .lk_sth_code_now (lk_sth_code_now), .lk_dir_now (lk_dir_now), .lk_key_now (lk_key_now),
    .lk_key_valid_now (lk_key_valid_now), .lk_salt_slot (lk_salt_slot), .lk_salt (lk_salt),
    .dec_pkt (dec_pkt), .ep_valid (ep_valid), .ep_ctx (ep_ctx), .ep_psn (ep_psn),
    .ep_reason (ep_reason), .ep_epsn (ep_epsn), .ep_wait (ep_wait),
    .ld_valid (ld_valid), .ld_pop (ld_pop), .ld_reason (ld_reason),
    .cm_valid (dc_cm_valid), .cm_void (dc_cm_void), .ur_valid (ur_valid),
    .dr_valid (dr_valid),
    .dq_s_valid (dq_s_valid), .dq_s_ready (dq_s_ready), .dq_s_data (dq_s_data)
);

ibsec_crypt #(
    .LANES (LANES), .OPEN (OPEN), .KEY_SLOTS (KEY_SLOTS), .CTX_SLOTS (CTX_SLOTS),
    .STAGES_PER_ROUND (STAGES_PER_ROUND), .SBOX_IMPL (SBOX_IMPL)
) crypt (
    .clk (clk), .rst (rst),
    .dq_m_valid (dq_m_valid), .dq_m_ready (dq_m_ready), .dq_m_data (dq_m_data),
    .hs_valid (hs_a_valid), .hs_pop (hs_a_pop), .hs_data (hs_a_data),
    .xq_s_valid (xq_s_valid), .xq_s_ready (xq_s_ready), .xq_s_data (xq_s_data),
    .ring_wr_en (ring_wr_en), .ring_wr_addr (ring_wr_addr), .ring_wr_data (ring_wr_data),
    .ing_base (ing_base), .ing_early (ing_early), .cf (cf),
    .key_valid (key_valid), .key_ready (key_ready), .key_slot (key_slot),
    .key_aes256 (key_aes256), .key_data (key_data), .key_wipe (key_wipe),
    .cr_wr_en (cr_wr_en), .cr_wr_data (cr_wr_data), .ca (ca), .cw (cw),
    .tq_m_valid (tq_m_valid), .tq_m_ready (tq_m_ready), .tq_m_data (tq_m_data),
    .tl_m_valid (tl_m_valid), .tl_m_ready (tl_m_ready), .tl_m_tag32 (tl_m_tag32),
    .cj_valid (cj_valid)
);

ibsec_egress #(
    .LANES (LANES), .OPEN (OPEN), .KEY_SLOTS (KEY_SLOTS), .CTX_SLOTS (CTX_SLOTS)
) egress (
    .clk (clk), .rst (rst),
    .xq_m_valid (xq_m_valid), .xq_m_ready (xq_m_ready), .xq_m_data (xq_m_data),
    .hs_valid (hs_b_valid), .hs_pop (hs_b_pop), .hs_data (hs_b_data),
    .tq_m_valid (tq_m_valid), .tq_m_ready (tq_m_ready), .tq_m_data (tq_m_data),
    .tl_m_valid (tl_m_valid), .tl_m_ready (tl_m_ready), .tl_m_tag32 (tl_m_tag32),
    .lp_valid (lp_valid), .lp_pop (lp_pop), .lp_reason (lp_reason), .lp_mode (lp_mode),
    .lp_nb (lp_nb),
    .kr_valid (kr_valid), .kr_pop (kr_pop), .kr_icrc0 (kr_icrc0), .kr_icrc1 (kr_icrc1),
    .kr_vcrc (kr_vcrc), .kr_rx (kr_rx),
    .ring_wr_en (ring_wr_en), .ring_wr_addr (ring_wr_addr), .ring_wr_data (ring_wr_data),
    .cr_wr_en (cr_wr_en), .cr_wr_data (cr_wr_data), .cw (cw), .fp (fp), .cf (cf),
    .cm_valid (eg_cm_valid), .cm_pass (eg_cm_pass), .cm_void (eg_cm_void),
    .cm_alert (cm_alert),
    .st_valid (st_valid), .st_reason (st_reason), .st_ctx_hit (st_ctx_hit),
    .st_ctx (st_ctx), .st_mode (st_mode), .st_epsn (st_epsn), .st_alert (st_alert),
    .m_axis_tdata (m_axis_tdata), .m_axis_tkeep (m_axis_tkeep),
    .m_axis_tvalid (m_axis_tvalid), .m_axis_tready (m_axis_tready),
    .m_axis_tlast (m_axis_tlast), .m_axis_tuser (m_axis_tuser),
    .eq_valid (eq_valid)
);

// ----------------------------------------------------------------------------
// Header store and descriptor FIFOs
// ----------------------------------------------------------------------------
// every frame's header window, written once with its IQ descriptor, read in frame order
// by the crypt stage (port A, with the DQ head) and the egress stage (port B, with XQ's)
ibsec_hdr_store #(
    .WIDTH (8 * CAP_BYTES), .WORDS (HS_WORDS), .SLOTS (HS_SLOTS), .HEADS (HS_HEADS)
) hs (
    .clk (clk), .rst (rst),
    .wr_en (hs_wr_en), .wr_long (hs_wr_long), .wr_data (hs_wr_data),
    .a_valid (hs_a_valid), .a_pop (hs_a_pop), .a_data (hs_a_data),
    .b_valid (hs_b_valid), .b_pop (hs_b_pop), .b_data (hs_b_data)
);

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

// DQ: two words in registers (sync_fifo's two-register form), so that crypt's CJ load
// starts at flip-flops and the two words cost no distributed RAM (299 TRELLIS_DPR16X4
// cells in the array form)
sync_fifo #(.WIDTH (DS_W), .DEPTH (DQ_DEPTH), .OUT_REG (1)) dq (
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
// Register block: tables, EPSN step, commands, counters
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
    .cfg_mgmt        (cfg_mgmt),
    .cfg_busy        (cfg_busy),
    .pipe_busy       (pipe_busy),
    .m_key_valid     (key_valid),
    .m_key_ready     (key_ready),
    .m_key_slot      (key_slot),
    .m_key_aes256    (key_aes256),
    .m_key_data      (key_data),
    .m_key_wipe      (key_wipe),
    .lk_ce           (lk_ce),
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
    .lk_salt_slot    (lk_salt_slot),
    .lk_salt         (lk_salt),
    .dec_pkt         (dec_pkt),
    .ep_valid        (ep_valid),
    .ep_ctx          (ep_ctx),
    .ep_psn          (ep_psn),
    .ep_reason       (ep_reason),
    .ep_epsn         (ep_epsn),
    .ep_wait         (ep_wait),
    .cm_valid        (dc_cm_valid || eg_cm_valid),
    .cm_pass         (eg_cm_pass),
    .cm_void         (dc_cm_void || eg_cm_void),
    .cm_alert        (cm_alert),
    .cm_ctx          (cm_ctx),
    .cm_epsn         (cm_epsn),
    .ep_full         (ep_full),
    .cnt_valid       (st_valid),
    .cnt_reason      (st_reason)
);

// ----------------------------------------------------------------------------
// Submodules: crypt stage

endmodule

`resetall
