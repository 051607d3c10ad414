/*
 * ibsec_decide — the packet engine's lookup and decision stage (ibsec_engine): the CQ
 * head through the context lookup's register stages (K1, K2, K3, LQ) and decided on LQ
 * in one cycle in the model's order of checks (docs/wire-format.md §7 seal steps 4-5, §8
 * open steps 4-10; open without the VCRC and ICRC, which the egress register applies),
 * with the EPSN step of the context table (ibsec_regs), into DQ (docs/packet-engine.md §3).
 *
 * Function
 *   lookup   the CQ head enters K1, whose selector is the table's lookup request
 *            (lk_in_* out); the table's three lookup stages (ibsec_ctx_table: compare,
 *            priority, answer) advance with K1 -> K2 -> K3 -> LQ (lk_ce out), so that
 *            their answer registers (lk_*_now in) hold the answer for LQ's packet and the
 *            decision starts at registers. The answer stays valid while cfg_busy stays
 *            low (docs/registers.md §4): a cycle with cfg_busy high marks every packet in
 *            the four stages stale, and once it is low the stages rotate (LQ's packet
 *            back into K1, looked up again) until none is; four rotations restore the
 *            order
 *   decide   key and EPSN (ep_*) in one cycle on LQ; CONFIG's ALLOW_PLAIN and MASK_MF
 *            sampled here, once per packet, its MGMT_* (the policies of DestQP 0, 1
 *            and 0xffffff) as the packet enters LQ (the pre-lookup reason with
 *            mgmt_dropped, the bypass flag). Seal: the late reason of every frame comes
 *            from LD's head registered here (LH, one cycle behind LD); a packet decided
 *            before its frame's end (its late reason not yet in LH) holds the next
 *            decision until it is known, and a late reject takes its tx_next commit back
 *            (cm_valid, cm_void)
 *   DR       seal: the decision's raw answers (the reason before the lookup, the lookup's
 *            and the EPSN step's answers, CONFIG) are registered in DR; the verdict (reason,
 *            apply mode, E, ...) is made from DR's registers on the way into DQ, so that
 *            the decision's cycle only decides whether the packet goes. DR takes a
 *            packet when it is empty or its packet enters DQ (dr_ready, from registers
 *            only). Open: the
 *            verdict enters DQ directly
 *
 * Latency / throughput
 *   Four cycles from CQ head to LQ (K1, K2, K3, LQ), one from LQ to DQ (seal: LQ to DR,
 *   DR to DQ); one packet per clock while no command runs (cfg_busy), the EPSN step does not wait
 *   (ep_wait) and, seal, no decided packet waits for its late reason (ur_valid).
 *
 * Hands on
 *   DQ descriptors (the decision: reason, context, key slot, salt, direction, EPSN, apply
 *   mode, STH code, MASK_MF in effect, whether a bad ICRC is the verdict) to ibsec_crypt.
 *   The descriptors carry no header: the crypt and egress stages read it from the header
 *   store (ibsec_hdr_store) and edit it there.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ibsec_decide #(
    parameter LANES = 1,
    parameter OPEN = 0,
    parameter KEY_SLOTS = 4,
    parameter CTX_SLOTS = 16,
    parameter CTX_W = (CTX_SLOTS > 1) ? $clog2(CTX_SLOTS) : 1
) (
    clk, rst,
    cq_m_valid, cq_m_ready, cq_m_data,
    cfg_allow_plain, cfg_mask_mf, cfg_mgmt, cfg_busy,
    lk_ce, lk_in_destqp, lk_in_pkey, lk_hit_now, lk_ctx_now, lk_mode_now, lk_sth_code_now,
    lk_dir_now, lk_key_now, lk_key_valid_now, lk_salt_slot, lk_salt,
    dec_pkt, ep_valid, ep_ctx, ep_psn, ep_reason, ep_epsn, ep_wait,
    ld_valid, ld_pop, ld_reason,
    cm_valid, cm_void, ur_valid, dr_valid,
    dq_s_valid, dq_s_ready, dq_s_data
);

// (ports declared below the shared constants, whose descriptor widths they use)
`include "ibsec_engine_defs.vh"

input  wire                 clk;
input  wire                 rst;

/*
 * CQ read side: the parsed packet
 */
input  wire                 cq_m_valid;
output reg                  cq_m_ready;
input  wire [DS_W-1:0]      cq_m_data;

/*
 * Configuration and the command interlock (ibsec_regs)
 */
input  wire                 cfg_allow_plain;
input  wire                 cfg_mask_mf;
// the policies of DestQP 0, 1 and 0xffffff, 2 bits each (CONFIG.MGMT_*: 0 context, 1
// bypass, 2 or 3 drop; docs/wire-format.md §9.1)
input  wire [5:0]           cfg_mgmt;
input  wire                 cfg_busy;

/*
 * Context lookup (ibsec_regs): K1's selector out, the table's lookup stages advanced with
 * the pipeline (lk_ce), their answer for LQ's packet in, and the salt of its key slot
 */
output wire                 lk_ce;
output wire [23:0]          lk_in_destqp;
output wire [15:0]          lk_in_pkey;
input  wire                 lk_hit_now;
input  wire [CTX_W-1:0]     lk_ctx_now;
input  wire [2:0]           lk_mode_now;
input  wire [2:0]           lk_sth_code_now;
input  wire                 lk_dir_now;
input  wire [KEY_W-1:0]     lk_key_now;
input  wire                 lk_key_valid_now;
output wire [KEY_W-1:0]     lk_salt_slot;
input  wire [31:0]          lk_salt;

/*
 * EPSN step (ibsec_regs): a packet is decided (dec_pkt); it reaches the step (ep_valid)
 */
output reg                  dec_pkt;
output wire                 ep_valid;
output wire [CTX_W-1:0]     ep_ctx;
output wire [23:0]          ep_psn;
input  wire [5:0]           ep_reason;
input  wire [62:0]          ep_epsn;
input  wire                 ep_wait;

/*
 * Seal: the late reason of every frame (ibsec_ingress), the commit taken back on a late
 * reject (a void commit), and a decided packet still waiting for its late reason
 */
input  wire                 ld_valid;
output wire                 ld_pop;
input  wire [5:0]           ld_reason;
output reg                  cm_valid;
output reg                  cm_void;
output wire                 ur_valid;
// seal: a decided packet in DR, its header being edited, not yet in DQ
output wire                 dr_valid;

/*
 * DQ write side: the decided packet
 */
output wire                 dq_s_valid;
input  wire                 dq_s_ready;
output wire [DS_W-1:0]      dq_s_data;

// ----------------------------------------------------------------------------
// Functions
// ----------------------------------------------------------------------------
// the class of a DestQP among those IBA reserves (docs/wire-format.md §9.1): 1 QP0
// (subnet management), 2 QP1 (general services), 3 the permissive DestQP 0xffffff
// (IBA Vol. 1 §10.5), 0 any other
localparam [23:0] QP_PERMISSIVE = 24'hFFFFFF;
function [1:0] mgmt_class;
    input [23:0] qp;
    begin
        mgmt_class = (qp == 24'd0) ? 2'd1 : (qp == 24'd1) ? 2'd2 :
                     (qp == QP_PERMISSIVE) ? 2'd3 : 2'd0;
    end
endfunction

// ----------------------------------------------------------------------------
// Registers and wires
// ----------------------------------------------------------------------------
/* verilator lint_off UNUSEDSIGNAL */
// one descriptor format travels through CQ, DQ and XQ; the decision reads only the
// fields it needs (the others pass through it in the word)
// CQ head: parsed (and checked) packet waiting for its decision
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
reg  [4:0]                 c_secb;     // BTH byte 8: KP, PN, STHSZ (open)
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
/* verilator lint_on UNUSEDSIGNAL */
// seal: the early decision whose frame has not ended yet (unresolved: no other packet is
// decided until it is)
reg                     ur_valid_reg = 1'b0, ur_valid_next;
reg                     ur_commit_reg, ur_commit_next;   // it committed tx_next
// open: BTH byte 8's key phase, PN bit and STHSZ, as received
wire                 c_kp    = c_secb[4];
wire                 c_pn    = c_secb[3];
wire [2:0]           c_sthsz = c_secb[2:0];
// lookup answers of the packet in LQ: the table's answer registers (below)
wire                 lk_hit, lk_dir, lk_key_valid;
wire [CTX_W-1:0]     lk_ctx;
wire [2:0]           lk_mode, lk_sth_code;
wire [KEY_W-1:0]     lk_key;

// ---- lookup pipeline: K1, K2, K3, LQ ----
// The CQ head enters K1, whose selector (destqp, P_Key) is the table's lookup request;
// the table's three lookup stages (compare, priority, answer; ibsec_ctx_table) advance
// with K1 -> K2 -> K3 -> LQ (lk_ce), so that the table's answer registers hold the answer
// for LQ's packet and the decision starts at registers. The four stages move together
// (adv): when LQ is empty, its packet is decided, or the pipeline relooks.
// An answer stays valid while cfg_busy stays low (docs/registers.md §4): a cycle with
// cfg_busy high marks every packet in the four stages stale. Once cfg_busy is low, the
// stages rotate (LQ's packet back into K1, a new lookup, K1 -> K2 -> K3 -> LQ) until no
// packet is stale: four rotations restore the order, each packet looked up again; CQ
// waits meanwhile and nothing is decided.
localparam integer LK_N = 4;          // K1, K2, K3, LQ (bit 0 .. bit 3 below)
reg  [LK_N-1:0]     lk_v_reg = {LK_N{1'b0}};   // a packet in the stage
reg  [LK_N-1:0]     lk_s_reg;                  // its lookup answer is stale
reg  [DS_W-1:0]     k1_desc_reg, k2_desc_reg, k3_desc_reg;
reg  [DS_W-1:0]     lq_desc_reg;
reg                 lq_rok_reg;                // LQ's parse reason is ok (R_OK)
// LQ's DestQP is one IBA reserves (docs/wire-format.md §9.1: QP0, QP1, the permissive
// 0xffffff) and its policy (CONFIG.MGMT_*) is bypass: the lookup's answer does not count
// (a drop is in lq_pre_reg). These flags are set as the packet enters LQ, from its DestQP
// and CONFIG: CONFIG changes only by a command, which makes every stage stale, so a
// packet decided after it has entered LQ again
reg                 lq_mg_bypass_reg;
// LQ's packet cannot reach the EPSN step whatever the lookup answers: its DestQP's policy
// is drop or bypass, or (open) BTH byte 8 has the PN bit or key phase 1, which no context
// of this engine accepts (one flag, so that the decision's chain stays short)
reg                 lq_no_ep_reg;
// the reason before the lookup, set as the packet enters LQ: the parse reason, else
// mgmt_dropped when the DestQP's policy drops it, else ok (seal: a late reject in LH
// comes first)
reg  [5:0]          lq_pre_reg;
// the parse reason's place in a descriptor word: the decision's first field, right below
// the check flag, which lies right below P_Key (ibsec_engine_defs.vh)
localparam integer  DS_REASON_LSB = DS_PKEY_LSB - 1 - 6;
wire                lq_valid = lk_v_reg[LK_N-1];
wire                lk_any_stale = |(lk_v_reg & lk_s_reg);
// rotate: every stage's packet looked up again (registers only)
wire                lk_relook = lk_any_stale && !cfg_busy;
reg                 lk_adv;
assign              lk_ce        = lk_adv;
assign              lk_in_destqp = k1_desc_reg[DS_DESTQP_LSB +: 24];
assign              lk_in_pkey   = k1_desc_reg[DS_PKEY_LSB +: 16];
assign lk_hit       = lk_hit_now;
assign lk_dir       = lk_dir_now;
assign lk_key_valid = lk_key_valid_now;
assign lk_ctx       = lk_ctx_now;
assign lk_mode      = lk_mode_now;
assign lk_sth_code  = lk_sth_code_now;
assign lk_key       = lk_key_now;
// lk_salt: the register block's salt of slot lk_key, read at the decision (the key
// table changes only while cfg_busy is high, which makes LQ stale)

// ---- decide (LQ) ----
// Open decides without the CRC check's results: the decision takes every check of the
// model but the two CRCs, and the egress register applies those (ibsec_egress), in the model's
// order: a bad VCRC comes before every check of the decision, a bad ICRC after the
// lookup's (no_context .. no_key) and before the EPSN step. A packet the CRCs will drop
// may therefore go through the EPSN step and the crypt stage, whose results egress
// discards (its in-flight entry leaves the table with a void commit: no window update,
// no failure counted), so that the decision never waits for the CRC results.
// (seal: DR has room, else DQ has; both from registers: DR's valid, DQ's fill level)
wire        dr_ready;
wire        dec_room = (OPEN == 0) ? dr_ready : dq_s_ready;
wire        dec_can = lq_valid && !lk_any_stale && dec_room && !cfg_busy && !ur_valid_reg;
// seal: LD's head registered (LH), so that the late reason the decision reads starts at
// flip-flops: LH takes LD's head when it is empty or the decision takes its reason
// (lh_pop), one cycle behind LD
reg         lh_valid_reg = 1'b0;
reg  [5:0]  lh_reason_reg;
reg         lh_bad_reg;      // LH's reason is a reject
reg         lh_pop;
assign ld_pop = ld_valid && (!lh_valid_reg || lh_pop);
always @(posedge clk) begin
    if (!lh_valid_reg || lh_pop) begin
        lh_valid_reg  <= ld_valid;
        lh_reason_reg <= ld_reason;
        lh_bad_reg    <= ld_reason != R_OK;
    end
    if (rst) begin
        lh_valid_reg <= 1'b0;
    end
end
// seal: the packet's frame has ended when its late reason is in LH (earlier packets took
// theirs); a late reject then counts as the parse's, before the lookup
wire        lh_reject    = OPEN == 0 && lh_valid_reg && lh_bad_reg;
wire [5:0]  c_reason_now = lh_reject ? lh_reason_reg : lq_pre_reg;
// c_reason_now == R_OK, from LQ's registered flag of its parse reason
wire        c_ok_now     = lq_rok_reg && !lh_reject;
// the policy of LQ's DestQP class (CONFIG.MGMT_*; bit 1 drop, else bit 0 bypass): drop
// (mgmt_dropped), or bypass (no context: plain, whatever ALLOW_PLAIN), before the
// lookup's answer counts (seal §7 step 3, open §8 step 5); from K3's packet into LQ
wire [1:0]  k3_mc     = mgmt_class(k3_desc_reg[DS_DESTQP_LSB +: 24]);
wire [1:0]  k3_mg_pol = (k3_mc == 2'd0) ? 2'd0 : cfg_mgmt[2*(k3_mc - 2'd1) +: 2];
wire        mg_bypass = lq_mg_bypass_reg;
// the packet reaches the EPSN step (seal §7 step 5, open §8 step 10): every earlier
// check of the decision passed (the same chain as in the decision below)
wire reach_ep = c_ok_now &&
                !lq_no_ep_reg &&
                lk_hit &&
                !(OPEN != 0 && c_pmode != lk_mode) &&
                !(OPEN != 0 && mode_has_sth(c_pmode) && c_sthsz != lk_sth_code) &&
                (lk_mode != M_NONE) && lk_key_valid;
assign ep_valid = dec_can && reach_ep;
reg [5:0]        n_reason;
reg              n_hit;
reg [CTX_W-1:0]  n_ctx;
reg [2:0]        n_smode, n_apply, n_code;
reg [KEY_W-1:0]  n_key;
reg [31:0]       n_salt;
reg              n_dir;
reg [62:0]       n_epsn;
reg              n_ichk;           // open: the ICRC check applies (a bad ICRC is the verdict)

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign lk_salt_slot = lk_key;
assign ep_ctx       = lk_ctx;
assign ep_psn       = c_psn;
assign ur_valid     = ur_valid_reg;

always @* begin
    {c_link, c_base, c_nb, c_shape, c_bth_off, c_hdr_len, c_sth_len, c_pp_len,
    c_pkt_end, c_pmode, c_secb, c_psn, c_destqp, c_pkey, c_chk, c_reason, c_hit, c_ctx,
    c_smode, c_apply, c_code, c_key, c_salt, c_dir, c_epsn, c_mf, c_ichk, c_cbase, c_mb,
    c_crypted} = lq_desc_reg;
end

// the decision's raw answers: the reason before the lookup (c_reason_now), the lookup's
// answer, the EPSN step's, CONFIG; seal: registered in DR with the decision, and the
// verdict (n_*) made from DR's registers on the way into DQ (so the decision's cycle only
// registers them); open: this cycle's, into DQ
localparam integer PASS_W = 1 + 2 * RAW + PR_W + 1;   // descriptor fields passed through
wire [PASS_W-1:0]  x_pass;
wire [5:0]         x_rnow, x_ep_reason;
wire               x_hit, x_dir, x_kvalid, x_allow, x_mf, x_mg_bypass;
wire [CTX_W-1:0]   x_ctx;
wire [2:0]         x_mode, x_code, x_smode;
wire [KEY_W-1:0]   x_key;
wire [31:0]        x_salt;
wire [62:0]        x_epsn;

// the decided descriptor: the fields passed through, the decision, MASK_MF in effect,
// whether a bad ICRC decides the verdict
wire [DS_W-1:0] dec_lo = {x_pass,
                    n_reason, n_hit, n_ctx, n_smode, n_apply, n_code, n_key, n_salt, n_dir,
                    n_epsn, x_mf, n_ichk, {RAW{1'b0}}, {RAW{1'b0}}, 1'b0};

// ---- decided register (DR, seal) -> DQ ----
// Seal: the decided packet waits one cycle in DR with the decision's raw answers, then
// goes into DQ with the verdict made from them. DR takes the decision whenever it is
// empty or its packet goes into DQ (dr_ready: registers only, so the enable of DR starts
// at flip-flops), and holds while DQ is full.
// Open: the decision goes into DQ in its cycle.
generate
    if (OPEN == 0) begin : g_dr
        reg                                 dr_valid_reg = 1'b0;
        reg  [PASS_W-1:0]                   dr_pass_reg;
        reg  [5:0]                          dr_rnow_reg, dr_ep_reason_reg;
        reg                                 dr_hit_reg, dr_dir_reg, dr_kvalid_reg;
        reg                                 dr_allow_reg, dr_mf_reg;
        reg                                 dr_mg_bypass_reg;
        reg  [CTX_W-1:0]                    dr_ctx_reg;
        reg  [2:0]                          dr_mode_reg, dr_code_reg, dr_smode_reg;
        reg  [KEY_W-1:0]                    dr_key_reg;
        reg  [31:0]                         dr_salt_reg;
        reg  [62:0]                         dr_epsn_reg;
        assign dr_ready   = !dr_valid_reg || dq_s_ready;
        assign dr_valid   = dr_valid_reg;
        assign dq_s_valid = dr_valid_reg;
        assign dq_s_data  = dec_lo;
        assign x_pass      = dr_pass_reg;
        assign x_rnow      = dr_rnow_reg;
        assign x_ep_reason = dr_ep_reason_reg;
        assign x_hit       = dr_hit_reg;
        assign x_dir       = dr_dir_reg;
        assign x_kvalid    = dr_kvalid_reg;
        assign x_allow     = dr_allow_reg;
        assign x_mg_bypass = dr_mg_bypass_reg;
        assign x_mf        = dr_mf_reg;
        assign x_ctx       = dr_ctx_reg;
        assign x_mode      = dr_mode_reg;
        assign x_code      = dr_code_reg;
        assign x_smode     = dr_smode_reg;
        assign x_key       = dr_key_reg;
        assign x_salt      = dr_salt_reg;
        assign x_epsn      = dr_epsn_reg;
        always @(posedge clk) begin
            if (dr_ready) begin
                dr_valid_reg     <= dec_pkt;
                dr_pass_reg      <= lq_desc_reg[DS_W-1 -: PASS_W];
                dr_rnow_reg      <= c_reason_now;
                dr_ep_reason_reg <= ep_reason;
                dr_hit_reg       <= lk_hit;
                dr_dir_reg       <= lk_dir;
                dr_kvalid_reg    <= lk_key_valid;
                dr_allow_reg     <= cfg_allow_plain;
                dr_mg_bypass_reg <= mg_bypass;
                dr_mf_reg        <= cfg_mask_mf;
                dr_ctx_reg       <= lk_ctx;
                dr_mode_reg      <= lk_mode;
                dr_code_reg      <= lk_sth_code;
                dr_smode_reg     <= c_smode;
                dr_key_reg       <= lk_key;
                dr_salt_reg      <= lk_salt;
                dr_epsn_reg      <= ep_epsn;
            end
            if (rst) begin
                dr_valid_reg <= 1'b0;
            end
        end
    end else begin : g_dq
        assign dr_ready   = 1'b0;
        assign dr_valid   = 1'b0;
        assign dq_s_valid = dec_pkt;
        assign dq_s_data  = dec_lo;
        assign x_pass      = lq_desc_reg[DS_W-1 -: PASS_W];
        assign x_rnow      = c_reason_now;
        assign x_ep_reason = ep_reason;
        assign x_hit       = lk_hit;
        assign x_dir       = lk_dir;
        assign x_kvalid    = lk_key_valid;
        assign x_allow     = cfg_allow_plain;
        assign x_mg_bypass = mg_bypass;
        assign x_mf        = cfg_mask_mf;
        assign x_ctx       = lk_ctx;
        assign x_mode      = lk_mode;
        assign x_code      = lk_sth_code;
        assign x_smode     = c_smode;
        assign x_key       = lk_key;
        assign x_salt      = lk_salt;
        assign x_epsn      = ep_epsn;
    end
endgenerate

// ----------------------------------------------------------------------------
// Control
// ----------------------------------------------------------------------------
// the verdict from the raw answers (x_*), in the model's order of checks
always @* begin
    n_reason = x_rnow;
    n_hit    = 1'b0;
    n_ctx    = {CTX_W{1'b0}};
    n_smode  = x_smode;
    n_apply  = M_NONE;
    n_code   = 3'd0;
    n_key    = {KEY_W{1'b0}};
    n_salt   = 32'd0;
    n_dir    = 1'b0;
    n_epsn   = 63'd0;
    n_ichk   = 1'b0;
    if (x_rnow != R_OK) begin
        // parse error or a DestQP the policy drops (mgmt_dropped): no lookup
    end else if (!x_hit || x_mg_bypass) begin
        // no context, or one the DestQP's policy bypasses
        if ((OPEN != 0 && c_pmode != M_NONE) || (!x_allow && !x_mg_bypass))
            n_reason = R_NO_CONTEXT;
        else
            n_ichk = OPEN != 0;
    end else begin
        n_hit  = 1'b1;
        n_ctx  = x_ctx;
        n_key  = x_key;
        n_salt = x_salt;
        n_dir  = (OPEN != 0) ? !x_dir : x_dir;  // the sender's direction
        n_code = x_code;
        if (OPEN == 0)
            n_smode = x_mode;
        // the PN bit names the pn nonce, which no context of this engine uses (every
        // context has the epsn nonce: wire-format.md §5)
        if (OPEN != 0 && {c_pn, c_pmode} != {1'b0, x_mode})
            n_reason = R_MODE_MISMATCH;
        else if (OPEN != 0 && mode_has_sth(c_pmode) && c_sthsz != x_code)
            n_reason = R_STH_SIZE_MISMATCH;
        else if (x_mode == M_NONE) begin
            // plain context (open: its ICRC decides, at egress)
            n_ichk = OPEN != 0;
        end else if (!x_kvalid || (OPEN != 0 && c_kp))
            // key phase 1 names a context's second key, which no context of this
            // engine has (wire-format.md §2, §9)
            n_reason = R_NO_KEY;
        else begin
            // open: the model checks the ICRC here, unless the tag is in its field;
            // the egress register applies the check
            n_ichk = OPEN != 0 && x_mode != M_ICRC_MAC;
            if (x_ep_reason != R_OK) begin
                n_reason = x_ep_reason;
            end else begin
                n_epsn  = x_epsn;
                n_apply = x_mode;
            end
        end
    end
end

always @* begin
    ur_valid_next  = ur_valid_reg;
    ur_commit_next = ur_commit_reg;
    cq_m_ready     = 1'b0;
    lh_pop         = 1'b0;
    cm_valid       = 1'b0;
    cm_void        = 1'b0;

    // ---- decide ----
    // a packet on the EPSN step waits while the step does (an earlier packet on the
    // context is in flight: retry)
    dec_pkt = dec_can && !(reach_ep && ep_wait);
    // seal: every decided packet takes its frame's late reason from LH, at its decision
    // when the frame has ended, else when it ends; until then it is unresolved and no
    // other packet is decided, and a late reject takes its tx_next commit back (a seal
    // void: the model never consumed that EPSN) before the next decision
    if (OPEN == 0) begin
        if (dec_pkt) begin
            if (lh_valid_reg) begin
                lh_pop = 1'b1;
            end else begin
                ur_valid_next  = 1'b1;
                ur_commit_next = ep_valid && ep_reason == R_OK;
            end
        end
        if (ur_valid_reg && lh_valid_reg) begin
            lh_pop        = 1'b1;
            ur_valid_next = 1'b0;
            cm_valid      = ur_commit_reg && lh_bad_reg;
            cm_void       = ur_commit_reg && lh_bad_reg;
        end
    end
    // ---- the lookup pipeline advances as the decided packet leaves LQ; the CQ head
    // enters K1 unless the stages rotate ----
    lk_adv = lk_relook || !lq_valid || dec_pkt;
    if (cq_m_valid && lk_adv && !lk_relook) begin
        cq_m_ready = 1'b1;
    end

end

// the lookup pipeline: K1 takes the CQ head (or, rotating, LQ's packet), the others the
// stage before; a cycle with cfg_busy high marks every stage stale
always @(posedge clk) begin
    if (lk_adv) begin
        k1_desc_reg <= lk_relook ? lq_desc_reg : cq_m_data;
        k2_desc_reg <= k1_desc_reg;
        k3_desc_reg <= k2_desc_reg;
        lq_desc_reg <= k3_desc_reg;
        lq_rok_reg  <= k3_desc_reg[DS_REASON_LSB +: 6] == R_OK;
        lq_pre_reg       <= (k3_desc_reg[DS_REASON_LSB +: 6] != R_OK) ? k3_desc_reg[DS_REASON_LSB +: 6] :
                            k3_mg_pol[1] ? R_MGMT_DROPPED : R_OK;
        lq_mg_bypass_reg <= !k3_mg_pol[1] && k3_mg_pol[0];
        // (the security bits' KP and PN: bits 4:3 of {KP, PN, STHSZ})
        lq_no_ep_reg     <= k3_mg_pol != 2'd0 ||
                            (OPEN != 0 && k3_desc_reg[DS_SECB_LSB + 3 +: 2] != 2'd0);
        lk_v_reg    <= {lk_v_reg[LK_N-2:0], lk_relook ? lk_v_reg[LK_N-1] : cq_m_ready};
        lk_s_reg    <= {lk_s_reg[LK_N-2:0], 1'b0} | {LK_N{cfg_busy}};
    end else begin
        lk_s_reg    <= lk_s_reg | {LK_N{cfg_busy}};
    end
    if (rst) begin
        lk_v_reg <= {LK_N{1'b0}};
    end
end

always @(posedge clk) begin
    ur_valid_reg  <= ur_valid_next;
    ur_commit_reg <= ur_commit_next;
    if (rst) begin
        ur_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
