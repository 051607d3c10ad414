/*
 * ibsec_crypt — the packet engine's crypt stage (ibsec_engine): the DQ head registered
 * in CJ with its GCM message prepared, the crypt composer that builds the message from
 * the input ring, and gcm_core (docs/packet-engine.md §3, §4).
 *
 * Function
 *   CJ       the DQ head with its header from the header store (seal: edited as the
 *            wire header after sealing, by ib_hdr_edit in CJ's register stage; open: as
 *            received) and the message geometry (AAD length, payload offsets, the
 *            message's end and beats), so that the crypt composer's job and the crypt
 *            ring's room check start at registers; H (ib_hdr_mask) is made from CJ's
 *            header on the way into the composer
 *   compose  (secured modes) AAD = H, then payload + pad as data (icrc-mac, sth-aead),
 *            as more AAD (sth-pkt) or not at all (sth-hdr), read from this stage's copy
 *            of the input ring behind the arrival (a beat waits until the two beats of
 *            its paired read are written while its frame is arriving); packets without a
 *            message pass CJ straight into XQ
 *   gcm_core the message's output goes into the crypt ring (cr_wr_*, held by the egress
 *            stage; cw counts the beats written), its tag into the tag FIFO (tq_*), in
 *            message order; seal icrc-mac's tags, needed only in the ICRC field of the
 *            packet's last beat, go instead into the late tag FIFO (tl_*)
 *   Crypt ring room is allocated at a job's start (ca) and freed by the egress stage (cf).
 *
 * Latency / throughput
 *   One cycle from DQ head to CJ (with the header store's head: it fetches ahead, so the
 *   header waits there long before the packet reaches DQ); the composer issues one beat
 *   per clock into gcm_core (gcm_core: AES_LATENCY + 3 cycles to the first output block,
 *   AES + GHASH + 3 to the tag; docs/crypto-core.md); jobs chain without a bubble.
 *
 * Hands on
 *   XQ descriptors with the message's crypt ring base and beats (crypted flag) to
 *   ibsec_egress, with the crypt ring's writes, the tag FIFO and (seal) the late tags.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ibsec_crypt #(
    parameter LANES = 1,
    parameter OPEN = 0,
    parameter KEY_SLOTS = 4,
    parameter CTX_SLOTS = 16,
    // register stages per AES round in gcm_core (1 or 2)
    parameter STAGES_PER_ROUND = 1,
    // gcm_core's S-boxes: 0 = LUT tables, 1 = block RAM (needs STAGES_PER_ROUND = 2)
    parameter SBOX_IMPL = 0,
    parameter CTX_W = (CTX_SLOTS > 1) ? $clog2(CTX_SLOTS) : 1
) (
    clk, rst,
    dq_m_valid, dq_m_ready, dq_m_data,
    hs_valid, hs_pop, hs_data,
    xq_s_valid, xq_s_ready, xq_s_data,
    ring_wr_en, ring_wr_addr, ring_wr_data, ing_base, ing_early, cf,
    key_valid, key_ready, key_slot, key_aes256, key_data, key_wipe,
    cr_wr_en, cr_wr_data, ca, cw,
    tq_m_valid, tq_m_ready, tq_m_data,
    tl_m_valid, tl_m_ready, tl_m_tag32,
    cj_valid
);

// (ports declared below the shared constants, whose descriptor and ring widths they use)
`include "ibsec_engine_defs.vh"

input  wire                 clk;
input  wire                 rst;

/*
 * DQ read side: the decided packet
 */
input  wire                 dq_m_valid;
output wire                 dq_m_ready;
input  wire [DS_W-1:0]      dq_m_data;

/*
 * Header store read port (ibsec_hdr_store): the headers in frame order, the head that of
 * the DQ head's packet
 */
input  wire                 hs_valid;
output wire                 hs_pop;
/* verilator lint_off UNUSEDSIGNAL */ // H needs the first HDR_BYTES (no STH)
input  wire [8*CAP_BYTES-1:0] hs_data;
/* verilator lint_on UNUSEDSIGNAL */

/*
 * XQ write side: the packet past the crypt stage
 */
output wire                 xq_s_valid;
input  wire                 xq_s_ready;
output wire [DS_W-1:0]      xq_s_data;

/*
 * Input ring: the write port and the arriving frame (ibsec_ingress); the crypt ring's
 * free pointer (ibsec_egress)
 */
input  wire                 ring_wr_en;
input  wire [RAW-1:0]       ring_wr_addr;
input  wire [DW-1:0]        ring_wr_data;
input  wire [RAW-1:0]       ing_base;
input  wire                 ing_early;
input  wire [RAW:0]         cf;

/*
 * Key install (ibsec_regs)
 */
input  wire                 key_valid;
output wire                 key_ready;
input  wire [KEY_W-1:0]     key_slot;
input  wire                 key_aes256;
input  wire [255:0]         key_data;
input  wire                 key_wipe;       // zeroize the slot (gcm_core s_key_wipe)

/*
 * Crypt ring: gcm_core's output beats (written at cw), allocated up to ca
 */
output wire                 cr_wr_en;
output wire [DW-1:0]        cr_wr_data;
output wire [RAW:0]         ca;
output wire [RAW:0]         cw;

/*
 * Tag FIFO read side, and (seal icrc-mac) the late tags' first 4 bytes
 */
output wire                 tq_m_valid;
input  wire                 tq_m_ready;
output wire [127:0]         tq_m_data;
output wire                 tl_m_valid;
/* verilator lint_off UNUSEDSIGNAL */ // the late tags serve seal only
input  wire                 tl_m_ready;
/* verilator lint_on UNUSEDSIGNAL */
output wire [31:0]          tl_m_tag32;

/*
 * A packet is in CJ (the command interlock's pipe_busy)
 */
output wire                 cj_valid;

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// crypt ring: allocated up to, written up to (gcm_core's output; the address is the low
// RAW bits)
reg [RAW:0]             ca_reg, ca_next;
reg [RAW:0]             cw_reg, cw_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
/* verilator lint_off UNUSEDSIGNAL */
// one descriptor format travels through CQ, DQ and XQ; the crypt stage reads only the
// fields it needs (the others pass through it in the word)
// DQ head: decided packet waiting for the crypt stage
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
reg  [4:0]                 d_secb;     // BTH byte 8: KP, PN, STHSZ
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
/* verilator lint_on UNUSEDSIGNAL */

// tag FIFO: gcm_core's tags, in message order (but the late tags of seal icrc-mac)
wire                    gcm_tag_out;        // a message's tag leaves gcm_core
wire                    gcm_tag_late;       // it is a late tag (TLQ)
wire                    tq_s_ready;
/* verilator lint_off UNUSEDSIGNAL */
// the FIFO is as deep as XQ, which holds every packet whose message is in gcm_core
wire [$clog2(XQ_DEPTH):0] tq_count;
/* verilator lint_on UNUSEDSIGNAL */

// ---- crypt job register (CJ): the DQ head with its GCM message prepared ----
// The message geometry (AAD length, payload offsets, the message's end and beats) is
// computed from the DQ head and registered with the packet in CJ, so that the crypt
// composer's job and the ring room check start at registers; the packet's header comes
// from the header store's head with it (seal: edited as the wire header after sealing,
// by ib_hdr_edit, whose register stage is CJ's: the STH length added to every length
// field, BTH byte 8 with the mode; open: as received). H (ib_hdr_mask) is made from CJ's
// header on the way into the composer. CJ takes the DQ head when it is empty or hands
// its packet on (to the composer, or past it to XQ) in the same cycle.
wire [6:0]  dh_hdr_len, dh_sth_len;
wire [12:0] dh_pp_len;
wire [2:0]  dh_apply;
/* verilator lint_off UNUSEDSIGNAL */ // open: the header is not edited here (shape[1]: RoCEv2)
wire [1:0]  dh_shape;
wire [6:0]  dh_bth_off;
wire [2:0]  dh_code;
/* verilator lint_on UNUSEDSIGNAL */
assign dh_shape   = dq_m_data[DS_SHAPE_LSB +: 2];
assign dh_hdr_len = dq_m_data[DS_HDR_LEN_LSB +: 7];
assign dh_bth_off = dq_m_data[DS_HDR_LEN_LSB + 7 +: 7];
assign dh_sth_len = dq_m_data[DS_STH_LEN_LSB +: 7];
assign dh_pp_len  = dq_m_data[DS_PP_LEN_LSB +: 13];
assign dh_apply   = dq_m_data[DS_APPLY_LSB +: 3];
assign dh_code    = dq_m_data[DS_APPLY_LSB - 3 +: 3];
// H's length: the headers, RoCEv2's Ethernet header (14 bytes) replaced by an LRH (8), as
// ib_hdr_mask counts it
wire [6:0]  dh_aad_len = dh_shape[1] ? dh_hdr_len - 7'd6 : dh_hdr_len;
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
wire [8*HDR_BYTES-1:0] cj_hdr;             // the header (seal: edited)
reg  [6:0]             cj_aad_len_reg;
reg  [12:0]            cj_pp_src_reg;      // payload offset in the frame
reg  [12:0]            cj_dst_off_reg;     // payload offset in the message
reg  [12:0]            cj_dst_end_reg;     // end of the payload in the message
reg  [12:0]            cj_msg_end_reg;     // end of the message
reg  [12:0]            cj_aad_end_reg;     // end of the AAD in the message
reg  [RAW-1:0]         cj_mb_reg;          // beats of the message
wire                   cj_take;            // CJ's packet leaves (composer or XQ)
wire                   cj_load = dq_m_valid && hs_valid && (!cj_valid_reg || cj_take);
always @(posedge clk) begin
    if (cj_load) begin
        cj_desc_reg    <= dq_m_data;
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

// H from CJ's header
wire [8*HDR_BYTES-1:0] cj_aad;
/* verilator lint_off UNUSEDSIGNAL */
// the crypt stage needs H only (its length is CJ's); the variant bits are the check and
// egress stages'
wire [6:0]             cj_aad_len_unused;
wire [HDR_BYTES-1:0]   cj_variant;
wire [8*HDR_BYTES-1:0] cj_ones;
/* verilator lint_on UNUSEDSIGNAL */

// ---- crypt stage (CJ) ----
wire        d_crypt = d_apply != M_NONE;
wire [RAW-1:0] d_mb = cj_mb_reg;
wire [RAW:0]   c_used = ca_reg - cf;
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
// nor keeps its issue_ok a cycle ahead from the composer's next job (cz_ahead_reg)
wire                    cz_next_load_unused;
wire [RAW-1:0]          cz_next_side_unused;
wire [RAW-1:0]          cz_next_rd_addr_unused;
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


// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign dq_m_ready = cj_load;
assign hs_pop     = cj_load;
assign xq_s_valid = cj_take;
assign cr_wr_en   = gcm_m_tvalid;
assign cr_wr_data = gcm_m_tdata;
assign ca         = ca_reg;
assign cw         = cw_reg;
assign cj_valid   = cj_valid_reg;

always @* begin
    {d_link, d_base, d_nb, d_shape, d_bth_off, d_hdr_len, d_sth_len, d_pp_len,
    d_pkt_end, d_pmode, d_secb, d_psn, d_destqp, d_pkey, d_chk, d_reason, d_hit, d_ctx,
    d_smode, d_apply, d_code, d_key, d_salt, d_dir, d_epsn, d_mf, d_ichk, d_cbase, d_mb_field,
    d_crypted} = cj_desc_reg;
end

// crypt -> XQ: the crypt ring beats of the message
assign xq_s_data = {cj_desc_reg[DS_W-1:2*RAW+1], ca_reg[RAW-1:0],
                    cz_take ? d_mb : {RAW{1'b0}}, cz_take};

// ----------------------------------------------------------------------------
// Submodules
// ----------------------------------------------------------------------------
// CJ's header: seal, the wire header after sealing (the STH length added to every length
// field, BTH byte 8 with the mode and STH code the packet is sealed with: the verdict's,
// whenever the packet has a message); open, the header as received
generate
    if (OPEN == 0) begin : g_seal_edit
        ib_hdr_edit #(.HDR_BYTES (HDR_BYTES)) cj_hdr_edit (
            .clk     (clk),
            .ce      (cj_load),
            .hdr_in  (hs_data[8*HDR_BYTES-1:0]),
            .shape   (dh_shape),
            .bth_off (dh_bth_off),
            .shrink  (1'b0),
            .len     (mode_has_sth(dh_apply) ? sth_bytes(dh_code) : 7'd0),
            .secbits (secbits_encode(dh_apply, dh_code)),
            .hdr_out (cj_hdr)
        );
    end else begin : g_open_received
        reg [8*HDR_BYTES-1:0] cj_hdr_reg;
        always @(posedge clk) begin
            if (cj_load)
                cj_hdr_reg <= hs_data[8*HDR_BYTES-1:0];
        end
        assign cj_hdr = cj_hdr_reg;
    end
endgenerate

// H: of CJ's header
ib_hdr_mask #(.HDR_BYTES (HDR_BYTES), .AAD_BYTES (HDR_BYTES)) cj_hdr_mask (
    .hdr     (cj_hdr),
    .shape   (d_shape),
    .hdr_len (d_hdr_len),
    .mask_mf (d_mf),
    .aad     (cj_aad),
    .aad_len (cj_aad_len_unused),
    .variant (cj_variant),
    .ones    (cj_ones)
);

ibsec_pair_buffer #(.WIDTH (DW), .DEPTH (RING)) c_ring (
    .clk (clk),
    .wr_en (ring_wr_en), .wr_addr (ring_wr_addr), .wr_data (ring_wr_data),
    .rd_en (cz_rd_en), .rd_addr (cz_rd_addr), .rd_lo (cz_rd_lo), .rd_hi (cz_rd_hi)
);

// The crypt composer reads the input ring behind the arrival. While the frame of its
// job is still arriving (its early descriptor is in: ing_early, and the job's ring
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
wire [RAW-1:0] cz_rel1     = cz_rd_addr + 1'b1 - ing_base; // next beat in the frame
wire [RAW-1:0] ing_written = ring_wr_addr - ing_base;   // beats written
reg            cz_ahead_reg = 1'b0;
reg  [RAW-1:0] cz_ahead_base_reg;
// a frame holds at most BUF_BEATS < RING / 2 beats, so cz_rel1's top bit set is a
// beat before the frame's base
always @(posedge clk) begin
    cz_ahead_reg      <= cz_rel1[RAW-1] ||
                         {1'b0, cz_rel1} + {{(RAW-1){1'b0}}, 2'd2} <= {1'b0, ing_written};
    cz_ahead_base_reg <= cz_base_reg;
end
assign cz_behind = !ing_early || cz_base_reg != ing_base ||
                   (cz_ahead_reg && cz_ahead_base_reg == cz_base_reg);

// GCM message: H, then payload + pad as data (from the next block) or as AAD
ibsec_compose #(
    .LANES (LANES), .FRONT_BYTES (FRONT_BYTES), .AUX_BYTES (HDR_BYTES), .AW (RAW),
    .TAG_W (CT_W), .SIDE_W (RAW)
) c_compose (
    .clk (clk), .rst (rst),
    .job_valid (cz_job_valid), .job_ready (cz_job_ready),
    .job_front ({{(8*(FRONT_BYTES-HDR_BYTES)){1'b0}}, cj_aad}),
    .job_front_len ({1'b0, cj_aad_len_reg}),
    .job_aux0 ({8*HDR_BYTES{1'b0}}), .job_aux1 ({8*HDR_BYTES{1'b0}}),
    .job_base (d_base), .job_src_off (cj_pp_src_reg),
    .job_dst_off (cj_dst_off_reg),
    .job_dst_end (cj_dst_end_reg),
    .job_total_end (cj_msg_end_reg),
    .job_aad_end (cj_aad_end_reg),
    .job_crc_end (13'd0), .job_tag (cz_tag_in),
    .job_side (d_base), .act_side (cz_base_reg),
    .next_load (cz_next_load_unused), .next_side (cz_next_side_unused),
    .next_rd_addr (cz_next_rd_addr_unused),
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
    .s_key_wipe     (key_wipe),
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
// job starts (KQ) and tells where its tag goes as it leaves gcm_core: to tq or to TLQ,
// whose head the egress stage takes (tl_m_*). Tags keep message order throughout.
generate
    if (OPEN == 0) begin : g_late_tag
        /* verilator lint_off UNUSEDSIGNAL */
        // sized for every message in flight (LT_DEPTH): no back-pressure
        wire kq_s_ready, kq_m_valid, tl_s_ready;
        wire [$clog2(LT_DEPTH):0] kq_count, tl_count;
        // the ICRC field takes the tag's first 4 bytes
        wire [127:0] g_tag_stream = tag_to_stream(gcm_m_tag);
        /* verilator lint_on UNUSEDSIGNAL */
        wire        kq_late;
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
            .m_valid (tl_m_valid), .m_ready (tl_m_ready), .m_data (tl_m_tag32),
            .count (tl_count)
        );
    end else begin : g_no_late_tag
        assign gcm_tag_late = 1'b0;
        assign tl_m_valid   = 1'b0;
        assign tl_m_tag32   = 32'd0;
    end
endgenerate

// ----------------------------------------------------------------------------
// Control
// ----------------------------------------------------------------------------
always @* begin
    ca_next = ca_reg;
    cw_next = cw_reg;
    if (cz_take)
        ca_next = ca_reg + {1'b0, d_mb};
    // gcm_core's output into the crypt ring
    if (gcm_m_tvalid)
        cw_next = cw_reg + 1'b1;
end

always @(posedge clk) begin
    ca_reg <= ca_next;
    cw_reg <= cw_next;
    if (rst) begin
        ca_reg <= {(RAW+1){1'b0}};
        cw_reg <= {(RAW+1){1'b0}};
    end
end

endmodule

`resetall
