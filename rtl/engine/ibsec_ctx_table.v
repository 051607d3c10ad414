/*
 * ibsec_ctx_table — the context table of one packet engine: configuration and live state
 * of CTX_SLOTS contexts, context selection, the EPSN decision and commit of seal or open,
 * the replay window and the alert (docs/wire-format.md §6, §9, §10; docs/registers.md).
 *
 * Function
 *   Contexts live in flip-flops. Each holds its configuration (selector, match, mode, STH
 *   code, direction bit, key index, alert threshold) and its live state: tx_next, rx_next,
 *   the 64-entry replay bitmap, the consecutive authentication failure count, the sticky
 *   alert flag and the alert count, as struct ibsec_ctx in cmodel/ibsec.h; the bitmap is
 *   kept indexed by the EPSN's low 6 bits (bit p: the EPSN of the window that is p mod
 *   64), not by the distance below rx_next as the model's, so that the window slides
 *   without a shift; the read-back turns it into the model's order.
 *
 *   lookup (three register stages, lk_ce): the valid QP context whose QPN equals lk_destqp,
 *   else the valid P_Key context whose 15-bit key equals lk_pkey & 0x7FFF
 *   (ibsec_ctx_lookup): the compare of every context registered, then the priority (QP
 *   first) registered as a one-hot vector, then the answer selected by it and registered.
 *   Selectors are unique among valid contexts (a duplicate write is refused), so each
 *   kind's hit vector is one-hot. The answer includes the valid and
 *   AES-256 bits of the context's key slot, from a per-context copy of the key table's
 *   bits (kt_*_next, loaded at the same edges as the table itself).
 *
 *   EPSN decision (combinational, ep_*): the model's ibsec_epsn_tx_check (OPEN = 0) or
 *   ibsec_epsn_rx_check (OPEN = 1) on context ep_ctx. A seal decision that is ok commits
 *   tx_next = E + 1 at the clock edge (ibsec_epsn_tx_commit); a seal void (cm_valid with
 *   cm_void, before the next decision) takes the last such commit back: the engine
 *   decides a long frame before its end, and a frame whose late parse rejects it never
 *   consumed its EPSN in the model. An open decision that is ok
 *   enters the in-flight queue (context, E); the datapath reports the tag result of the
 *   oldest entry with cm_valid / cm_pass, which then commits: pass -> ibsec_epsn_rx_commit
 *   (the window update, written three cycles later by a pipeline with forwarding between
 *   back-to-back updates of one context, see "Window update") and failure count cleared; fail -> failure count + 1 and the alert rule of §10; void
 *   (cm_void: the packet was dropped by a check the model makes before the EPSN step and
 *   the datapath completes after the decision) -> the entry leaves and nothing changes,
 *   as if the packet had never been decided.
 *
 * In-flight hazards (OPEN = 1)
 *   The model decides each packet after the previous ones have committed. Here up to
 *   INFLIGHT packets may be decided and not yet committed. Let R0 be the committed rx_next
 *   of the context and R_hi = max(R0, E_i + 1 over its in-flight E_i): whatever subset of
 *   them passes, the reference rx_next the model would use lies in [R0, R_hi], and the
 *   bitmap differs from the committed one only in the in-flight E_i. A decision is made
 *   only when it is the same for every such outcome; otherwise ep_wait = 1 and nothing
 *   happens: the datapath retries. The decision is made for
 *   - a context with nothing in flight (R_hi = R0: the model's check itself);
 *   - E >= R_hi, within 2^23 above R0 (in-order traffic, which therefore never waits): ok;
 *   - E too old for R0 and reconstructed the same from R_hi: too old;
 *   - E in R0's window, its bitmap bit set and E + 64 >= R_hi: replay.
 *   Every other packet of a busy context waits until the context drains; so does every
 *   open decision while the queue holds INFLIGHT packets (ep_full). Since only in-order
 *   packets enter a busy context's queue, its in-flight EPSNs rise from head to tail and
 *   R_hi is the newest + 1 and stays so until the context drains: the table keeps its low
 *   24 bits per context (R_hi - R0 is at most 2^23), set by each ok decision, and the
 *   decision reads it instead of searching the queue.
 *
 *   A window update not yet written counts as a packet in flight of its context (ep_busy,
 *   inflight_any).
 *
 *   Timing: every test of the decision is on 24-bit differences (psn - R0, psn - R_hi)
 *   and on flags of R0's upper bits; the 64-bit E is one sum beside the decision. The
 *   commit's window update is spread over three register stages (a read of the context,
 *   a 24-bit compare and the bitmap's masks, the masked write).
 *
 * Latency / throughput
 *   lookup: the answer (lk_hit .. lk_key_aes256) is the request (lk_destqp, lk_pkey) of
 *   three lk_ce edges earlier; one request per lk_ce cycle.
 *   Decision and commit answers are combinational; state changes at the next edge,
 *   but a passing commit's window update (rx_next, bitmap) at the end of the third cycle
 *   after the commit. One decision and one commit per clock, back to back on one context.
 *   Read-back (rd_*): two register stages, the outputs are the context rd_idx named two
 *   cycles earlier, as it was then.
 *
 * Commands (cmd_*) come from ibsec_regs only while no packet is in flight: write (checked
 *   as ibsec_ctx_set checks, cmd_err says why a write is refused), clear, clear alert.
 *   The check is registered: cmd_err is the check of the previous cycle's cmd_* inputs
 *   and table, and a command with cmd_valid applies if that check passed, so cmd_op,
 *   cmd_idx and the fields must be stable from the cycle before cmd_valid (ibsec_regs
 *   holds them through its drain state, which lasts at least two cycles).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Context table with EPSN check and commit
 */
module ibsec_ctx_table #(
    // contexts (1 .. 256)
    parameter CTX_SLOTS = 16,
    // key slots (1 .. 32); a context write naming a key >= KEY_SLOTS is refused
    parameter KEY_SLOTS = 4,
    // 0: seal engine (tx_next), 1: open engine (replay window, alert)
    parameter OPEN = 0,
    // open: packets decided and not yet committed (1 .. 64)
    parameter INFLIGHT = 8,
    // width of a context index (derived; do not override)
    parameter CTX_W = (CTX_SLOTS > 1) ? $clog2(CTX_SLOTS) : 1
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * Lookup: three register stages advancing with lk_ce (see "Lookup")
     */
    input  wire                 lk_ce,
    input  wire [23:0]          lk_destqp,
    input  wire [15:0]          lk_pkey,
    output wire                 lk_hit,
    output wire [CTX_W-1:0]     lk_ctx,
    output wire [2:0]           lk_mode,
    output wire [2:0]           lk_sth_code,
    output wire                 lk_dir,
    output wire [7:0]           lk_key,
    output wire                 lk_key_valid,   // the context's key slot is valid
    output wire                 lk_key_aes256,  // ... and holds an AES-256 key

    /*
     * The key table's next state (ibsec_regs), copied beside every context
     */
    input  wire [KEY_SLOTS-1:0] kt_valid_next,
    input  wire [KEY_SLOTS-1:0] kt_aes256_next,

    /*
     * EPSN decision; ep_hold forces a wait (a command is in progress)
     */
    input  wire                 ep_valid,
    input  wire [CTX_W-1:0]     ep_ctx,
    input  wire [23:0]          ep_psn,
    input  wire                 ep_hold,
    output reg  [5:0]           ep_reason,
    output reg  [62:0]          ep_epsn,
    output reg                  ep_wait,
    output wire                 ep_full,

    /*
     * Open commit of the oldest in-flight packet
     */
    input  wire                 cm_valid,
    input  wire                 cm_pass,
    // the packet was dropped before its tag check (a bad VCRC or ICRC, which the datapath
    // learns after the decision): it leaves the queue and changes nothing else. Seal
    // (with cm_valid): the last ok decision's frame was malformed; its tx_next returns to
    // the value before that decision (only before the next decision)
    input  wire                 cm_void,
    output reg                  cm_alert,
    output wire [CTX_W-1:0]     cm_ctx,
    output wire [62:0]          cm_epsn,
    output wire                 inflight_any,

    /*
     * Commands (one cycle each, only while nothing is in flight)
     */
    input  wire                 cmd_valid,
    input  wire [1:0]           cmd_op,        // CMD_WRITE, CMD_CLEAR, CMD_CLEAR_ALERT
    input  wire [7:0]           cmd_idx,
    input  wire                 cmd_sel,
    input  wire [31:0]          cmd_match,
    input  wire [2:0]           cmd_mode,
    input  wire [2:0]           cmd_sth_code,
    input  wire                 cmd_dir,
    input  wire [7:0]           cmd_key,
    input  wire [63:0]          cmd_tx_next,
    input  wire [63:0]          cmd_rx_next,
    input  wire [31:0]          cmd_thresh,
    output wire [3:0]           cmd_err,       // docs/registers.md §3.4, 0 = accepted

    /*
     * Read-back of one context (two register stages; an invalid context reads as zeros)
     */
    input  wire [7:0]           rd_idx,
    output wire                 rd_valid,
    output wire                 rd_sel,
    output wire [23:0]          rd_match,
    output wire [2:0]           rd_mode,
    output wire [2:0]           rd_sth_code,
    output wire                 rd_dir,
    output wire [7:0]           rd_key,
    output wire [31:0]          rd_thresh,
    output wire [63:0]          rd_tx_next,
    output wire [63:0]          rd_rx_next,
    output wire [63:0]          rd_bitmap,
    output wire [31:0]          rd_fail,
    output wire                 rd_alert,
    output wire [31:0]          rd_alert_count,

    /*
     * Sticky alert flags, one per context
     */
    output wire [CTX_SLOTS-1:0] alert_flags
);

// ----------------------------------------------------------------------------
// Constants and parameter checks
// ----------------------------------------------------------------------------
// command codes (docs/registers.md §3.6 CTX_CMD OP)
localparam [1:0] CMD_WRITE       = 2'd1;
localparam [1:0] CMD_CLEAR       = 2'd2;
localparam [1:0] CMD_CLEAR_ALERT = 2'd3;

`include "ibsec_enums.vh"   // R_* (reasons), M_* (modes), SHAPE_*
// STH codes ibsec implements for the sth-* modes (wire-format.md §4)
localparam [2:0] STH_CODE_96   = 3'd1;
localparam [2:0] STH_CODE_128  = 3'd2;

// cmd_err codes: STATUS.ERR_CODE of the register map (rtl/engine/ibsec_regs.rdl,
// docs/registers.md §3.4)
`include "ibsec_regs_map.vh"
localparam [3:0] ERR_NONE      = IBSEC_STATUS_ERR_CODE_ACCEPTED;
localparam [3:0] ERR_INDEX     = IBSEC_STATUS_ERR_CODE_INDEX;
localparam [3:0] ERR_OP        = IBSEC_STATUS_ERR_CODE_OP;
localparam [3:0] ERR_QPN       = IBSEC_STATUS_ERR_CODE_QPN;
localparam [3:0] ERR_PKEY      = IBSEC_STATUS_ERR_CODE_PKEY;
localparam [3:0] ERR_MODE      = IBSEC_STATUS_ERR_CODE_MODE;
localparam [3:0] ERR_STH_NEED  = IBSEC_STATUS_ERR_CODE_STH_NEEDED;
localparam [3:0] ERR_STH_EXTRA = IBSEC_STATUS_ERR_CODE_STH_EXTRA;
localparam [3:0] ERR_EPSN      = IBSEC_STATUS_ERR_CODE_EPSN;
localparam [3:0] ERR_KEY       = IBSEC_STATUS_ERR_CODE_KEY;
localparam [3:0] ERR_DUP       = IBSEC_STATUS_ERR_CODE_DUP_SELECTOR;

// replay window of 2^WINDOW_LOG2 = 64 entries below rx_next (wire-format.md §6); the
// bitmap register is that wide
localparam integer WINDOW_LOG2 = 6;
// in-flight queue pointer width
localparam QW = (INFLIGHT > 1) ? $clog2(INFLIGHT) : 1;
// last queue index (pointers wrap after it)
localparam integer  Q_LAST_I = INFLIGHT - 1;
localparam [QW-1:0] Q_LAST = Q_LAST_I[QW-1:0];
// OPEN as a one-bit flag
localparam [0:0] IS_OPEN = (OPEN != 0) ? 1'b1 : 1'b0;

generate
    if (CTX_SLOTS < 1 || CTX_SLOTS > 256) begin : g_bad_ctx
        initial begin
            $error("Error: ibsec_ctx_table CTX_SLOTS must be 1..256 (instance %m)");
            $finish;
        end
    end
    if (KEY_SLOTS < 1 || KEY_SLOTS > 32) begin : g_bad_key
        initial begin
            $error("Error: ibsec_ctx_table KEY_SLOTS must be 1..32 (instance %m)");
            $finish;
        end
    end
    if (OPEN != 0 && OPEN != 1) begin : g_bad_open
        initial begin
            $error("Error: ibsec_ctx_table OPEN must be 0 or 1 (instance %m)");
            $finish;
        end
    end
    if (INFLIGHT < 1 || INFLIGHT > 64) begin : g_bad_inflight
        initial begin
            $error("Error: ibsec_ctx_table INFLIGHT must be 1..64 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg [CTX_SLOTS-1:0]    valid_reg = {CTX_SLOTS{1'b0}}, valid_next;
reg [CTX_SLOTS-1:0]    sel_reg, sel_next;
reg [CTX_SLOTS*24-1:0] match_reg, match_next;
reg [CTX_SLOTS*3-1:0]  mode_reg, mode_next;
reg [CTX_SLOTS*3-1:0]  sth_reg, sth_next;
reg [CTX_SLOTS-1:0]    dir_reg, dir_next;
reg [CTX_SLOTS*8-1:0]  key_reg, key_next;
// the valid and AES-256 bits of each context's key slot (0 for a slot >= KEY_SLOTS): a
// copy of the key table, so that the lookup reads them beside the context instead of
// selecting the key slot after the context (see "Key attributes" below)
reg [CTX_SLOTS-1:0]    kvalid_reg = {CTX_SLOTS{1'b0}}, kvalid_next;
reg [CTX_SLOTS-1:0]    kaes_reg, kaes_next;
// the alert threshold minus one (wraps: threshold 0, no alert, is all ones), so that the
// commit compares the failure count with it directly (fail + 1 >= thr <=> fail >= thr - 1)
reg [CTX_SLOTS*32-1:0] thr_m1_reg, thr_m1_next;
reg [CTX_SLOTS*64-1:0] tx_next_reg, tx_next_next;
reg [CTX_SLOTS*64-1:0] rx_next_reg, rx_next_next;
reg [CTX_SLOTS*64-1:0] bitmap_reg, bitmap_next;
reg [CTX_SLOTS*32-1:0] fail_reg, fail_next;
reg [CTX_SLOTS-1:0]    alert_reg = {CTX_SLOTS{1'b0}}, alert_next;
reg [CTX_SLOTS*32-1:0] alert_cnt_reg, alert_cnt_next;
// open: the low 24 bits of R_hi of a context with a packet in flight, where R_hi is
// rx_next if every in-flight packet of the context passes (see the header)
reg [CTX_SLOTS*24-1:0] hi_lo_reg, hi_lo_next;

// in-flight queue (open): context and E of each decided, uncommitted packet
reg [INFLIGHT-1:0]       q_vld_reg = {INFLIGHT{1'b0}}, q_vld_next;
reg [INFLIGHT*CTX_W-1:0] q_ctx_reg, q_ctx_next;
reg [INFLIGHT*63-1:0]    q_epsn_reg, q_epsn_next;
reg [INFLIGHT-1:0]       q_behind_reg, q_behind_next;   // E was below rx_next when decided
// open: the window update of a passing commit, a pipeline of three stages after the
// commit (see "Window update" below): wu_* (the commit), wb_* (the context's rx_next and
// bitmap read), wc_* (the new rx_next and the bitmap's keep and set masks); the bitmap is
// written at the end of the wc_* cycle, and wl_* keeps the last update written
reg                      wu_valid_reg = 1'b0, wu_valid_next;
reg [CTX_W-1:0]          wu_ctx_reg, wu_ctx_next;
reg [62:0]               wu_epsn_reg, wu_epsn_next;
reg                      wu_behind_reg, wu_behind_next;
reg                      wb_valid_reg = 1'b0;
reg [CTX_W-1:0]          wb_ctx_reg;
reg [WINDOW_LOG2-1:0]    wb_elo_reg;      // E mod 64: E's bit in the bitmap
reg                      wb_behind_reg;
reg [63:0]               wb_rx_reg, wb_bm_reg;
reg [23:0]               wb_em63_reg;     // E - 63, low 24 bits
reg [63:0]               wb_e1_reg;       // E + 1
reg                      wb_fwd_c_reg;    // the update ahead (then in wc_*) is of this context
reg                      wb_fwd_l_reg;    // the update two ahead (then in wl_*) is
reg                      wc_valid_reg = 1'b0;
reg [CTX_W-1:0]          wc_ctx_reg;
reg [63:0]               wc_rx_reg;       // rx_next after the update
reg [63:0]               wc_bm_reg;       // the bitmap before it (but the update ahead's)
reg [63:0]               wc_keep_reg;     // bitmap bits that stay
reg [63:0]               wc_set_reg;      // the bit of E
reg                      wc_fwd_l_reg;    // the update ahead (then in wl_*) is of this context
reg [63:0]               wl_rx_reg, wl_bm_reg;
reg [QW-1:0]             q_head_reg = {QW{1'b0}}, q_head_next;
reg [QW-1:0]             q_tail_reg = {QW{1'b0}}, q_tail_next;
// seal: the last ok decision's context and its tx_next before it, for a seal void
reg [CTX_W-1:0]          sv_ctx_reg, sv_ctx_next;
reg [63:0]               sv_tx_reg, sv_tx_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
assign inflight_any = |q_vld_reg || wu_valid_reg || wb_valid_reg || wc_valid_reg;
assign cm_ctx       = q_head_ctx;
assign cm_epsn      = q_head_epsn;
assign alert_flags  = alert_reg;

// P_Key bit 15 (membership) is not part of the selector (wire-format.md §9)
wire unused_pkey_membership = lk_pkey[15];

// ----------------------------------------------------------------------------
// Selection of one context's or one queue entry's fields. Every multiplexer is an
// AND-OR over explicit indices: a variable part-select of a flat vector (x[i*64 +: 64])
// makes synthesis build a shifter over the whole vector, many times larger.
// ----------------------------------------------------------------------------
reg [CTX_W-1:0] q_head_ctx;
reg [62:0]      q_head_epsn;
reg             q_head_vld;
reg             q_head_behind;
reg             q_tail_vld;
reg [63:0]      ep_tx_sel, ep_rx_sel, ep_bm_sel;      // context ep_ctx
reg [23:0]      ep_hi_sel;
reg [63:0]      wu_rx_sel, wu_bm_sel;                 // context of the window update
reg [31:0]      cm_fail_sel, cm_thr_m1_sel, cm_alert_cnt_sel;
reg             cm_alert_sel;
reg             rd_valid_sel, rd_sel_sel, rd_dir_sel, rd_alert_sel;   // context rd_idx
reg [23:0]      rd_match_sel;
reg [2:0]       rd_mode_sel, rd_sth_sel;
reg [7:0]       rd_key_sel;
reg [31:0]      rd_thr_m1_sel, rd_fail_sel, rd_alert_cnt_sel;
reg [63:0]      rd_tx_sel, rd_rx_sel, rd_bm_sel;
integer si;
integer sq;

always @* begin
    q_head_ctx  = {CTX_W{1'b0}};
    q_head_epsn = 63'd0;
    q_head_vld  = 1'b0;
    q_head_behind = 1'b0;
    q_tail_vld  = 1'b0;
    for (sq = 0; sq < INFLIGHT; sq = sq + 1) begin
        if (q_head_reg == sq[QW-1:0]) begin
            q_head_ctx  = q_head_ctx | q_ctx_reg[sq*CTX_W +: CTX_W];
            q_head_epsn = q_head_epsn | q_epsn_reg[sq*63 +: 63];
            q_head_vld  = q_head_vld | q_vld_reg[sq];
            q_head_behind = q_head_behind | q_behind_reg[sq];
        end
        if (q_tail_reg == sq[QW-1:0]) begin
            q_tail_vld = q_tail_vld | q_vld_reg[sq];
        end
    end
end

always @* begin
    ep_tx_sel = 64'd0; ep_rx_sel = 64'd0; ep_bm_sel = 64'd0; ep_hi_sel = 24'd0;
    wu_rx_sel = 64'd0; wu_bm_sel = 64'd0;
    cm_fail_sel = 32'd0; cm_thr_m1_sel = 32'd0; cm_alert_cnt_sel = 32'd0; cm_alert_sel = 1'b0;
    rd_valid_sel = 1'b0; rd_sel_sel = 1'b0; rd_dir_sel = 1'b0; rd_alert_sel = 1'b0;
    rd_match_sel = 24'd0; rd_mode_sel = 3'd0; rd_sth_sel = 3'd0; rd_key_sel = 8'd0;
    rd_thr_m1_sel = 32'd0; rd_fail_sel = 32'd0; rd_alert_cnt_sel = 32'd0;
    rd_tx_sel = 64'd0; rd_rx_sel = 64'd0; rd_bm_sel = 64'd0;
    for (si = 0; si < CTX_SLOTS; si = si + 1) begin
        if (ep_ctx == si[CTX_W-1:0]) begin
            ep_tx_sel = ep_tx_sel | tx_next_reg[si*64 +: 64];
            ep_rx_sel = ep_rx_sel | rx_next_reg[si*64 +: 64];
            ep_bm_sel = ep_bm_sel | bitmap_reg[si*64 +: 64];
            ep_hi_sel = ep_hi_sel | hi_lo_reg[si*24 +: 24];
        end
        if (wu_ctx_reg == si[CTX_W-1:0]) begin
            wu_rx_sel = wu_rx_sel | rx_next_reg[si*64 +: 64];
            wu_bm_sel = wu_bm_sel | bitmap_reg[si*64 +: 64];
        end
        if (q_head_ctx == si[CTX_W-1:0]) begin
            cm_fail_sel      = cm_fail_sel | fail_reg[si*32 +: 32];
            cm_thr_m1_sel    = cm_thr_m1_sel | thr_m1_reg[si*32 +: 32];
            cm_alert_cnt_sel = cm_alert_cnt_sel | alert_cnt_reg[si*32 +: 32];
            cm_alert_sel     = cm_alert_sel | alert_reg[si];
        end
        // read-back, masked by the valid bit (the model zeroes a cleared context)
        if (rd_idx == si[7:0] && valid_reg[si]) begin
            rd_valid_sel     = 1'b1;
            rd_sel_sel       = sel_reg[si];
            rd_dir_sel       = dir_reg[si];
            rd_alert_sel     = alert_reg[si];
            rd_match_sel     = match_reg[si*24 +: 24];
            rd_mode_sel      = mode_reg[si*3 +: 3];
            rd_sth_sel       = sth_reg[si*3 +: 3];
            rd_key_sel       = key_reg[si*8 +: 8];
            rd_thr_m1_sel    = thr_m1_reg[si*32 +: 32];
            rd_fail_sel      = fail_reg[si*32 +: 32];
            rd_alert_cnt_sel = alert_cnt_reg[si*32 +: 32];
            rd_tx_sel        = tx_next_reg[si*64 +: 64];
            rd_rx_sel        = rx_next_reg[si*64 +: 64];
            rd_bm_sel        = bitmap_reg[si*64 +: 64];
        end
    end
end

assign ep_full        = q_tail_vld;

// ----------------------------------------------------------------------------
// Read-back, two register stages: RB1 (rb_*) the context rd_idx selects, RB2 (rr_*) the
// threshold from thr_m1 and the bitmap in the register map's order (bit j: EPSN
// rx_next - 1 - j), from the table's order (bit p: the EPSN = p mod 64, see "Window
// update"): rr_bm[j] = rb_bm[(rx_next - 1 - j) mod 64], i.e. the bit-reversed bitmap
// rotated right by -rx_next mod 64.
// ----------------------------------------------------------------------------
reg                      rb_valid_reg, rb_sel_reg, rb_dir_reg, rb_alert_reg;
reg [23:0]               rb_match_reg;
reg [2:0]                rb_mode_reg, rb_sth_reg;
reg [7:0]                rb_key_reg;
reg [31:0]               rb_thr_m1_reg, rb_fail_reg, rb_alert_cnt_reg;
reg [63:0]               rb_tx_reg, rb_rx_reg, rb_bm_reg;
reg                      rr_valid_reg, rr_sel_reg, rr_dir_reg, rr_alert_reg;
reg [23:0]               rr_match_reg;
reg [2:0]                rr_mode_reg, rr_sth_reg;
reg [7:0]                rr_key_reg;
reg [31:0]               rr_thresh_reg, rr_fail_reg, rr_alert_cnt_reg;
reg [63:0]               rr_tx_reg, rr_rx_reg, rr_bm_reg;
reg [127:0]              rb_rev2;   // the bit-reversed bitmap, twice
reg [WINDOW_LOG2-1:0]    rb_rot;    // -rx_next mod 64
/* verilator lint_off UNUSEDSIGNAL */
// the upper half only feeds the rotation
reg [127:0]              rb_rot2;
/* verilator lint_on UNUSEDSIGNAL */
integer                  rv;

always @* begin
    for (rv = 0; rv < 64; rv = rv + 1) begin
        rb_rev2[rv]      = rb_bm_reg[63 - rv];
        rb_rev2[64 + rv] = rb_bm_reg[63 - rv];
    end
    rb_rot  = -rb_rx_reg[WINDOW_LOG2-1:0];
    rb_rot2 = rb_rev2 >> rb_rot;
end

always @(posedge clk) begin
    rb_valid_reg     <= rd_valid_sel;
    rb_sel_reg       <= rd_sel_sel;
    rb_dir_reg       <= rd_dir_sel;
    rb_alert_reg     <= rd_alert_sel;
    rb_match_reg     <= rd_match_sel;
    rb_mode_reg      <= rd_mode_sel;
    rb_sth_reg       <= rd_sth_sel;
    rb_key_reg       <= rd_key_sel;
    rb_thr_m1_reg    <= rd_thr_m1_sel;
    rb_fail_reg      <= rd_fail_sel;
    rb_alert_cnt_reg <= rd_alert_cnt_sel;
    rb_tx_reg        <= rd_tx_sel;
    rb_rx_reg        <= rd_rx_sel;
    rb_bm_reg        <= rd_bm_sel;
    rr_valid_reg     <= rb_valid_reg;
    rr_sel_reg       <= rb_sel_reg;
    rr_dir_reg       <= rb_dir_reg;
    rr_alert_reg     <= rb_alert_reg;
    rr_match_reg     <= rb_match_reg;
    rr_mode_reg      <= rb_mode_reg;
    rr_sth_reg       <= rb_sth_reg;
    rr_key_reg       <= rb_key_reg;
    rr_thresh_reg    <= rb_valid_reg ? rb_thr_m1_reg + 32'd1 : 32'd0;
    rr_fail_reg      <= rb_fail_reg;
    rr_alert_cnt_reg <= rb_alert_cnt_reg;
    rr_tx_reg        <= rb_tx_reg;
    rr_rx_reg        <= rb_rx_reg;
    rr_bm_reg        <= rb_rot2[63:0];
end

assign rd_valid       = rr_valid_reg;
assign rd_sel         = rr_sel_reg;
assign rd_match       = rr_match_reg;
assign rd_mode        = rr_mode_reg;
assign rd_sth_code    = rr_sth_reg;
assign rd_dir         = rr_dir_reg;
assign rd_key         = rr_key_reg;
assign rd_thresh      = rr_thresh_reg;
assign rd_tx_next     = rr_tx_reg;
assign rd_rx_next     = rr_rx_reg;
assign rd_bitmap      = rr_bm_reg;
assign rd_fail        = rr_fail_reg;
assign rd_alert       = rr_alert_reg;
assign rd_alert_count = rr_alert_cnt_reg;

// ----------------------------------------------------------------------------
// Lookup: QP contexts first, then P_Key contexts (wire-format.md §9), in three register
// stages that advance together with lk_ce (the datapath's stages beside them):
//   LC (lkc_*): each context's selector compared with the request (lk_destqp, lk_pkey,
//               which the datapath holds in a register), one hit bit per context and kind;
//   LP (lkp_*): the priority: the QP hits if any, else the P_Key hits, one-hot (selectors
//               are unique among valid contexts of a kind, a duplicate write is refused);
//   LA (lka_*): the answer, an AND-OR of the contexts' fields over the one-hot vector.
// The answer at LA is the request presented three lk_ce edges earlier, read from the table
// as it was at those edges: the table changes only while cfg_busy is high, and the
// datapath looks a packet up again when cfg_busy rose while it was in these stages.
// ----------------------------------------------------------------------------
reg [CTX_SLOTS-1:0] lkc_qp_reg, lkc_pk_reg;
reg [CTX_SLOTS-1:0] lkp_one_reg;     // the selected context, one-hot (or none)
reg                 lka_hit_reg;
reg [CTX_W-1:0]     lka_ctx_reg;
reg [2:0]           lka_mode_reg, lka_sth_reg;
reg [7:0]           lka_key_reg;
reg                 lka_dir_reg, lka_kvalid_reg, lka_kaes_reg;
reg [CTX_SLOTS-1:0] lkc_qp_next, lkc_pk_next;
reg [CTX_W-1:0]     lka_ctx_next;
reg [2:0]           lka_mode_next, lka_sth_next;
reg [7:0]           lka_key_next;
reg                 lka_dir_next, lka_kvalid_next, lka_kaes_next;
integer li;

always @* begin
    for (li = 0; li < CTX_SLOTS; li = li + 1) begin
        lkc_qp_next[li] = valid_reg[li] && !sel_reg[li] && match_reg[li*24 +: 24] == lk_destqp;
        // P_Key bit 15 (membership) is not part of the selector
        lkc_pk_next[li] = valid_reg[li] && sel_reg[li]
                          && match_reg[li*24 +: 24] == {9'd0, lk_pkey[14:0]};
    end
    lka_ctx_next    = {CTX_W{1'b0}};
    lka_mode_next   = 3'd0;
    lka_sth_next    = 3'd0;
    lka_key_next    = 8'd0;
    lka_dir_next    = 1'b0;
    lka_kvalid_next = 1'b0;
    lka_kaes_next   = 1'b0;
    for (li = 0; li < CTX_SLOTS; li = li + 1) begin
        if (lkp_one_reg[li]) begin
            lka_ctx_next    = lka_ctx_next | li[CTX_W-1:0];
            lka_mode_next   = lka_mode_next | mode_reg[li*3 +: 3];
            lka_sth_next    = lka_sth_next | sth_reg[li*3 +: 3];
            lka_key_next    = lka_key_next | key_reg[li*8 +: 8];
            lka_dir_next    = lka_dir_next | dir_reg[li];
            lka_kvalid_next = lka_kvalid_next | kvalid_reg[li];
            lka_kaes_next   = lka_kaes_next | kaes_reg[li];
        end
    end
end

always @(posedge clk) begin
    if (lk_ce) begin
        lkc_qp_reg     <= lkc_qp_next;
        lkc_pk_reg     <= lkc_pk_next;
        lkp_one_reg    <= |lkc_qp_reg ? lkc_qp_reg : lkc_pk_reg;
        lka_hit_reg    <= |lkp_one_reg;
        lka_ctx_reg    <= lka_ctx_next;
        lka_mode_reg   <= lka_mode_next;
        lka_sth_reg    <= lka_sth_next;
        lka_key_reg    <= lka_key_next;
        lka_dir_reg    <= lka_dir_next;
        lka_kvalid_reg <= lka_kvalid_next;
        lka_kaes_reg   <= lka_kaes_next;
    end
end

assign lk_hit        = lka_hit_reg;
assign lk_ctx        = lka_ctx_reg;
assign lk_mode       = lka_mode_reg;
assign lk_sth_code   = lka_sth_reg;
assign lk_dir        = lka_dir_reg;
assign lk_key        = lka_key_reg;
assign lk_key_valid  = lka_kvalid_reg;
assign lk_key_aes256 = lka_kaes_reg;

// ----------------------------------------------------------------------------
// Key attributes: kvalid_reg / kaes_reg of a context are the key table's bits of its key
// slot in the same cycle (both are loaded from next-state values at the same edge), so
// the lookup answers exactly as a select of the key table by lk_key would, one selection
// shorter. A key command changes the table only while no decision is made (cfg_busy).
// ----------------------------------------------------------------------------
integer ki, kk;

always @* begin
    kvalid_next = {CTX_SLOTS{1'b0}};
    kaes_next   = {CTX_SLOTS{1'b0}};
    for (ki = 0; ki < CTX_SLOTS; ki = ki + 1) begin
        for (kk = 0; kk < KEY_SLOTS; kk = kk + 1) begin
            if (key_next[ki*8 +: 8] == kk[7:0]) begin
                kvalid_next[ki] = kt_valid_next[kk];
                kaes_next[ki]   = kt_aes256_next[kk];
            end
        end
    end
end

// ----------------------------------------------------------------------------
// EPSN decision (wire-format.md §6) on the 24-bit offset of E from the reference
// ----------------------------------------------------------------------------
// ibsec_epsn_reconstruct gives E = ref + o, o the two's complement value of
// psn - ref[23:0] (-2^23 <= o < 2^23). Each condition of the tx and rx checks is a test
// of o and of a few of ref's upper bits, so no 64-bit carry chain lies on the decision;
// E itself (for ep_epsn, the queue and the seal commit) is one 64-bit sum beside it.
//   exhausted   E >= 2^63: o >= 0 and (ref[63], or ref[62:24] all ones and the low sum
//               ref[23:0] + o carries out of bit 23; that sum is psn + 2^24 when
//               psn < ref[23:0], psn otherwise, so the carry is that borrow)
//   behind      E < ref: o < 0
//   in window   ref - 64 <= E < ref: o in [-64, -1], i.e. delta[23:6] all ones; then
//               ref - 1 - E = ~delta[5:0] is the bitmap index, and E < 0 (too old) when
//               ref <= ~delta[5:0]
// With packets of the context in flight, let d = R_hi - rx_next (0 .. 2^23): every
// reference r the model may use lies in [rx_next, rx_next + d] (see the header). The table
// keeps R_hi's low 24 bits (hi_lo); delta_hi = psn - hi_lo is o - d modulo 2^24, and o - d
// lies in (-2^23, 2^23) when o >= 0, in [-2^24 + 1, -1] when o < 0, so
//   above       E >= R_hi, i.e. o >= 0 and o - d >= 0 (delta_hi[23] clear): E is the same
//               from every r, at or above it, and above every in-flight EPSN: ok, or
//               exhausted
//   old for all E reconstructs the same from every r when E >= R_hi - 2^23, i.e.
//               o - d >= -2^23 (o < 0: delta_hi[23] set): a packet too old for rx_next
//               is too old for every r
//   replay for all  E in the window below rx_next stays in every r's window when
//               E + 64 >= R_hi, i.e. o - d >= -64 (delta_hi[23:6] all ones): a bit
//               already set in the committed bitmap then means a replay whatever the
//               in-flight packets do
// Any other packet of a context with packets in flight waits until the context drains, the
// ones the model would accept out of order among them: so the in-flight EPSNs of a context
// rise from the queue's head to its tail, and R_hi is the newest one + 1 (or rx_next).
reg [63:0] ep_ref;         // tx_next (seal) or committed rx_next (open) of ep_ctx
reg [23:0] ep_delta;       // psn - ref[23:0]: o in two's complement
reg        ep_low_carry;   // ref[23:0] + o carries out of bit 23
reg        ep_behind;
reg        ep_exhausted;
reg        ep_in_window;
reg        ep_negative;    // in the window below ref, and E < 0
reg        ep_busy;        // open: ep_ctx has a packet in flight
/* verilator lint_off UNUSEDSIGNAL */
// the low WINDOW_LOG2 bits only carry into the bits that are tested
reg [23:0] ep_delta_hi;    // psn - hi_lo: o - d modulo 2^24
/* verilator lint_on UNUSEDSIGNAL */
reg        ep_above;
reg        ep_old_all;
reg        ep_replay_all;
reg        ep_decidable;
reg        ep_too_old;     // too old for rx_next
reg        ep_seen;        // the bitmap bit of E, for E in the window
/* verilator lint_off UNUSEDSIGNAL */
// bit 0 only carries the 1 into the sum: {ref, 1} + {o, 1} = {E + 1, 0}
reg [64:0] ep_e_sum;       // E + 1 by one carry chain
/* verilator lint_on UNUSEDSIGNAL */
reg [62:0] ep_e;           // E below 2^63 (an E that is not is never used)
reg [63:0] ep_e1;          // E + 1, seal's new tx_next
reg        ep_accept;      // a decision happens this cycle (ok or not)
integer qi;

always @* begin
    ep_ref        = IS_OPEN ? ep_rx_sel : ep_tx_sel;
    ep_delta      = ep_psn - ep_ref[23:0];
    ep_behind     = ep_delta[23];
    ep_low_carry  = ep_psn < ep_ref[23:0];
    ep_exhausted  = !ep_behind && (ep_ref[63] || (&ep_ref[62:24] && ep_low_carry));
    ep_in_window  = ep_behind && (&ep_delta[23:WINDOW_LOG2]);
    ep_negative   = ep_ref[63:WINDOW_LOG2] == {(64-WINDOW_LOG2){1'b0}}
                    && ep_ref[WINDOW_LOG2-1:0] <= ~ep_delta[WINDOW_LOG2-1:0];
    ep_delta_hi   = ep_psn - ep_hi_sel;
    ep_above      = !ep_behind && !ep_delta_hi[23];
    ep_old_all    = ep_delta_hi[23];
    ep_replay_all = &ep_delta_hi[23:WINDOW_LOG2];
    ep_too_old    = ep_behind && (!ep_in_window || ep_negative);
    // the bitmap is indexed by the EPSN's low bits, which are psn's
    ep_seen       = ep_bm_sel[ep_psn[WINDOW_LOG2-1:0]];
    ep_busy = 1'b0;
    for (qi = 0; qi < INFLIGHT; qi = qi + 1) begin
        if (q_vld_reg[qi] && q_ctx_reg[qi*CTX_W +: CTX_W] == ep_ctx) begin
            ep_busy = 1'b1;
        end
    end
    // a window update not yet applied counts as in flight: the state read is before it
    if (IS_OPEN && ((wu_valid_reg && wu_ctx_reg == ep_ctx) || (wb_valid_reg && wb_ctx_reg == ep_ctx)
                    || (wc_valid_reg && wc_ctx_reg == ep_ctx))) begin
        ep_busy = 1'b1;
    end
    ep_decidable = !ep_busy || ep_above || (ep_too_old && ep_old_all)
                   || (ep_behind && !ep_too_old && ep_seen && ep_replay_all);
    ep_e     = ep_ref[62:0] + {{39{ep_delta[23]}}, ep_delta};
    ep_e_sum = {ep_ref, 1'b1} + {{40{ep_delta[23]}}, ep_delta, 1'b1};
    ep_e1    = ep_e_sum[64:1];

    ep_reason = R_OK;
    ep_wait   = 1'b0;
    if (!IS_OPEN) begin
        // ibsec_epsn_tx_check
        if (ep_exhausted) begin
            ep_reason = R_EPSN_EXHAUSTED;
        end else if (ep_behind) begin
            ep_reason = R_NONCE_REUSE;
        end
    end else begin
        // ibsec_epsn_rx_check, decided only when every outcome of the in-flight packets
        // gives the same answer (see the header)
        if (ep_full || !ep_decidable) begin
            ep_wait = 1'b1;
        end else if (ep_exhausted) begin
            ep_reason = R_EPSN_EXHAUSTED;
        end else if (ep_too_old) begin
            ep_reason = R_PSN_TOO_OLD;
        end else if (ep_behind && ep_seen) begin
            ep_reason = R_REPLAY;
        end
    end
    if (ep_hold) begin
        ep_wait = 1'b1;
    end
    ep_epsn   = (ep_reason == R_OK && !ep_wait) ? ep_e : 63'd0;
    ep_accept = ep_valid && !ep_wait;
end

// ----------------------------------------------------------------------------
// Open commit of the queue head: failure count and alert at once; the window update
// (ibsec_epsn_rx_commit) of a pass follows in the pipeline below. Until it is written the
// context counts as busy for decisions (ep_busy).
// ----------------------------------------------------------------------------
reg [31:0] cm_fail;
reg [31:0] up_fail;
reg        up_alert;
reg        cm_do;
reg        cm_count;       // the commit updates the window or the failure count

always @* begin
    cm_do    = IS_OPEN && cm_valid && q_head_vld;
    // a void commit only pops the queue
    cm_count = cm_do && !cm_void;
    cm_fail  = cm_fail_sel;
    up_fail  = cm_fail;
    up_alert = 1'b0;
    cm_alert = 1'b0;
    if (cm_pass) begin
        up_fail = 32'd0;
    end else begin
        // Lee & Kim §6.1: consecutive failures, saturating
        if (cm_fail != 32'hFFFF_FFFF) begin
            up_fail = cm_fail + 32'd1;
        end
        // up_fail >= threshold, threshold != 0 (the model's rule, on thr_m1)
        if (cm_thr_m1_sel != 32'hFFFF_FFFF && cm_fail >= cm_thr_m1_sel && !cm_alert_sel) begin
            up_alert = 1'b1;
            cm_alert = cm_count;
        end
    end
end

// ----------------------------------------------------------------------------
// Window update (ibsec_epsn_rx_commit) of a passing commit, three stages after it:
//   B (wu_*): read the context's rx_next and bitmap (wu_rx_sel, wu_bm_sel) into wb_*;
//   C (wb_*): rx_next before the update (forwarded, below), the new rx_next and the
//             bitmap's keep and set masks into wc_*;
//   D (wc_*): the new bitmap, (bitmap & keep) | set, written to the table with rx_next
//             and kept in wl_*.
// The bitmap is indexed by the EPSN's low 6 bits: bit p is EPSN e of the window
// [rx_next - 64, rx_next - 1] with e mod 64 = p, so the window slides without a shift.
// E >= rx_next unless E was below rx_next when decided: rx_next has only risen since by
// commits of the context's smaller in-flight EPSNs, to at most E. Then E + 1 <= R_hi, so
// the rise is at most d <= 2^23 and 24-bit differences decide it. A slide from r to E + 1
// clears the bits of r .. E (all of them when E + 1 - r >= 64) and sets E's; an E behind
// rx_next sets its bit.
// Forwarding: B reads the table before the writes of the two updates ahead of it (then in
// C and D). When the update one ahead is of the same context, C takes rx_next from wc_*
// and D the bitmap from wl_* (that update's result, written a cycle earlier); when only
// the update two ahead is, C takes both from wl_*.
// ----------------------------------------------------------------------------
reg [63:0] wc_rx_in;       // rx_next before this update
reg [63:0] wc_bm_in;       // the bitmap before it, but for the update one ahead
/* verilator lint_off UNUSEDSIGNAL */
// only the sign is used
reg [23:0] wc_d63;         // E - rx_next - 63: its sign says E + 1 - rx_next < 64
/* verilator lint_on UNUSEDSIGNAL */
reg        wc_big;         // the slide clears the whole window
reg        wc_wrap;        // r mod 64 > E mod 64: the cleared range wraps
reg [63:0] wc_keep_next;
reg [63:0] wc_set_next;
reg [63:0] wc_rx_next;
reg [63:0] up_bitmap;
integer    wp;

always @* begin
    wc_rx_in = wb_fwd_c_reg ? wc_rx_reg : (wb_fwd_l_reg ? wl_rx_reg : wb_rx_reg);
    wc_bm_in = wb_fwd_l_reg ? wl_bm_reg : wb_bm_reg;
    wc_d63   = wb_em63_reg - wc_rx_in[23:0];
    wc_big   = !wc_d63[23];
    wc_wrap  = wc_rx_in[WINDOW_LOG2-1:0] > wb_elo_reg;
    for (wp = 0; wp < 64; wp = wp + 1) begin
        // bit wp holds an EPSN of r .. E (cyclically, mod 64)
        if (wb_behind_reg) begin
            wc_keep_next[wp] = 1'b1;
        end else if (wc_big) begin
            wc_keep_next[wp] = 1'b0;
        end else if (wc_wrap) begin
            wc_keep_next[wp] = !(wp[WINDOW_LOG2-1:0] >= wc_rx_in[WINDOW_LOG2-1:0]
                                 || wp[WINDOW_LOG2-1:0] <= wb_elo_reg);
        end else begin
            wc_keep_next[wp] = !(wp[WINDOW_LOG2-1:0] >= wc_rx_in[WINDOW_LOG2-1:0]
                                 && wp[WINDOW_LOG2-1:0] <= wb_elo_reg);
        end
        wc_set_next[wp] = wb_elo_reg == wp[WINDOW_LOG2-1:0];
    end
    wc_rx_next = wb_behind_reg ? wc_rx_in : wb_e1_reg;
    up_bitmap  = ((wc_fwd_l_reg ? wl_bm_reg : wc_bm_reg) & wc_keep_reg) | wc_set_reg;
end

always @(posedge clk) begin
    wb_valid_reg  <= IS_OPEN && wu_valid_reg;
    wb_ctx_reg    <= wu_ctx_reg;
    wb_elo_reg    <= wu_epsn_reg[WINDOW_LOG2-1:0];
    wb_em63_reg   <= wu_epsn_reg[23:0] - 24'd63;
    wb_e1_reg     <= {1'b0, wu_epsn_reg} + 64'd1;
    wb_behind_reg <= wu_behind_reg;
    wb_rx_reg     <= wu_rx_sel;
    wb_bm_reg     <= wu_bm_sel;
    wb_fwd_c_reg  <= wb_valid_reg && wb_ctx_reg == wu_ctx_reg;
    wb_fwd_l_reg  <= wc_valid_reg && wc_ctx_reg == wu_ctx_reg;
    wc_valid_reg  <= wb_valid_reg;
    wc_ctx_reg    <= wb_ctx_reg;
    wc_rx_reg     <= wc_rx_next;
    wc_bm_reg     <= wc_bm_in;
    wc_keep_reg   <= wc_keep_next;
    wc_set_reg    <= wc_set_next;
    wc_fwd_l_reg  <= wb_fwd_c_reg;
    wl_rx_reg     <= wc_rx_reg;
    wl_bm_reg     <= up_bitmap;

    if (rst) begin
        wb_valid_reg <= 1'b0;
        wc_valid_reg <= 1'b0;
    end
end

// ----------------------------------------------------------------------------
// Command check (ibsec_ctx_set, ibsec_ctx_cfg_check, in their order)
// ----------------------------------------------------------------------------
reg       dup_found;
reg [3:0] cmd_err_now;     // the check of this cycle's inputs
reg [3:0] cmd_err_reg = ERR_NONE;
integer di;

always @* begin
    dup_found = 1'b0;
    for (di = 0; di < CTX_SLOTS; di = di + 1) begin
        if (di != {24'd0, cmd_idx} && valid_reg[di] && sel_reg[di] == cmd_sel
            && {8'd0, match_reg[di*24 +: 24]} == cmd_match) begin
            dup_found = 1'b1;
        end
    end
    cmd_err_now = ERR_NONE;
    if ({24'd0, cmd_idx} >= CTX_SLOTS) begin
        cmd_err_now = ERR_INDEX;
    end else if (cmd_op == 2'd0) begin
        cmd_err_now = ERR_OP;
    end else if (cmd_op == CMD_WRITE) begin
        if (!cmd_sel && cmd_match > 32'h00FF_FFFF) begin
            cmd_err_now = ERR_QPN;
        end else if (cmd_sel && cmd_match > 32'h0000_7FFF) begin
            cmd_err_now = ERR_PKEY;
        end else if (cmd_mode >= M_COUNT) begin
            cmd_err_now = ERR_MODE;
        end else if (cmd_mode >= M_STH_HDR && cmd_sth_code != STH_CODE_96
                     && cmd_sth_code != STH_CODE_128) begin
            cmd_err_now = ERR_STH_NEED;
        end else if (cmd_mode < M_STH_HDR && cmd_sth_code != 3'd0) begin
            cmd_err_now = ERR_STH_EXTRA;
        end else if (cmd_tx_next[63] || cmd_rx_next[63]) begin
            cmd_err_now = ERR_EPSN;
        end else if (cmd_mode != M_NONE && {24'd0, cmd_key} >= KEY_SLOTS) begin
            cmd_err_now = ERR_KEY;
        end else if (dup_found) begin
            cmd_err_now = ERR_DUP;
        end
    end
end

always @(posedge clk) begin
    cmd_err_reg <= cmd_err_now;
end

assign cmd_err = cmd_err_reg;

// ----------------------------------------------------------------------------
// Next state
// ----------------------------------------------------------------------------
integer ni;

always @* begin
    valid_next     = valid_reg;
    sel_next       = sel_reg;
    match_next     = match_reg;
    mode_next      = mode_reg;
    sth_next       = sth_reg;
    dir_next       = dir_reg;
    key_next       = key_reg;
    thr_m1_next    = thr_m1_reg;
    tx_next_next   = tx_next_reg;
    rx_next_next   = rx_next_reg;
    bitmap_next    = bitmap_reg;
    fail_next      = fail_reg;
    alert_next     = alert_reg;
    alert_cnt_next = alert_cnt_reg;
    q_vld_next     = q_vld_reg;
    q_ctx_next     = q_ctx_reg;
    q_epsn_next    = q_epsn_reg;
    q_head_next    = q_head_reg;
    q_tail_next    = q_tail_reg;
    hi_lo_next     = hi_lo_reg;
    q_behind_next  = q_behind_reg;
    wu_valid_next  = cm_count && cm_pass;
    wu_ctx_next    = q_head_ctx;
    wu_epsn_next   = q_head_epsn;
    wu_behind_next = q_head_behind;
    sv_ctx_next    = sv_ctx_reg;
    sv_tx_next     = sv_tx_reg;
    if (!IS_OPEN && ep_accept && ep_reason == R_OK) begin
        sv_ctx_next = ep_ctx;
        sv_tx_next  = ep_tx_sel;
    end

    // in-flight queue: an ok open decision enters at the tail, a commit leaves the head
    for (ni = 0; ni < INFLIGHT; ni = ni + 1) begin
        if (cm_do && q_head_reg == ni[QW-1:0]) begin
            q_vld_next[ni] = 1'b0;
        end
        if (IS_OPEN && ep_accept && ep_reason == R_OK && q_tail_reg == ni[QW-1:0]) begin
            q_vld_next[ni]                 = 1'b1;
            q_ctx_next[ni*CTX_W +: CTX_W]  = ep_ctx;
            q_epsn_next[ni*63 +: 63]       = ep_e;
            q_behind_next[ni]              = ep_behind;
        end
    end
    if (IS_OPEN && ep_accept && ep_reason == R_OK) begin
        q_tail_next = (q_tail_reg == Q_LAST) ? {QW{1'b0}} : q_tail_reg + 1'b1;
    end
    if (cm_do) begin
        q_head_next = (q_head_reg == Q_LAST) ? {QW{1'b0}} : q_head_reg + 1'b1;
    end

    for (ni = 0; ni < CTX_SLOTS; ni = ni + 1) begin
        // seal: ibsec_epsn_tx_commit as soon as the decision is ok
        if (!IS_OPEN && ep_accept && ep_reason == R_OK && ep_ctx == ni[CTX_W-1:0]) begin
            tx_next_next[ni*64 +: 64] = ep_e1;
        end
        // seal void: the last commit taken back (never in a cycle with a decision)
        if (!IS_OPEN && cm_valid && cm_void && sv_ctx_reg == ni[CTX_W-1:0]) begin
            tx_next_next[ni*64 +: 64] = sv_tx_reg;
        end

        // open: R_hi. An ok decision sets R_hi = max(rx_next, E + 1): it is above every
        // in-flight EPSN of its context or the context has none in flight (E's low bits
        // are psn). A commit leaves R_hi as it is: the head is the context's smallest
        // in-flight EPSN, so R_hi only changes when the context drains, and then it is
        // not used.
        if (IS_OPEN && ep_accept && ep_reason == R_OK && ep_ctx == ni[CTX_W-1:0]) begin
            hi_lo_next[ni*24 +: 24] = ep_behind ? ep_ref[23:0] : ep_psn + 24'd1;
        end

        // open: the window update in stage D
        if (IS_OPEN && wc_valid_reg && wc_ctx_reg == ni[CTX_W-1:0]) begin
            rx_next_next[ni*64 +: 64] = wc_rx_reg;
            bitmap_next[ni*64 +: 64]  = up_bitmap;
        end

        // open: commit of the head
        if (cm_count && q_head_ctx == ni[CTX_W-1:0]) begin
            fail_next[ni*32 +: 32]    = up_fail;
            if (up_alert) begin
                alert_next[ni]             = 1'b1;
                alert_cnt_next[ni*32 +: 32] = cm_alert_cnt_sel + 32'd1;
            end
        end

        // commands (no packet in flight while they run)
        if (cmd_valid && cmd_err == ERR_NONE && cmd_idx == ni[7:0]) begin
            case (cmd_op)
                CMD_WRITE: begin
                    valid_next[ni]              = 1'b1;
                    sel_next[ni]                = cmd_sel;
                    match_next[ni*24 +: 24]     = cmd_match[23:0];
                    mode_next[ni*3 +: 3]        = cmd_mode;
                    sth_next[ni*3 +: 3]         = cmd_sth_code;
                    dir_next[ni]                = cmd_dir;
                    key_next[ni*8 +: 8]         = cmd_key;
                    thr_m1_next[ni*32 +: 32]    = cmd_thresh - 32'd1;
                    tx_next_next[ni*64 +: 64]   = cmd_tx_next;
                    rx_next_next[ni*64 +: 64]   = cmd_rx_next;
                    // every EPSN below the configured rx_next counts as seen (wire-format.md §6)
                    bitmap_next[ni*64 +: 64]    = {64{1'b1}};
                    fail_next[ni*32 +: 32]      = 32'd0;
                    alert_next[ni]              = 1'b0;
                    alert_cnt_next[ni*32 +: 32] = 32'd0;
                end
                CMD_CLEAR: begin
                    valid_next[ni] = 1'b0;
                    alert_next[ni] = 1'b0;
                end
                CMD_CLEAR_ALERT: begin
                    alert_next[ni] = 1'b0;
                end
                default: begin
                end
            endcase
        end
    end
end

// ----------------------------------------------------------------------------
// Register update: valid bits, alert flags and the queue are reset, the data is not
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    valid_reg     <= valid_next;
    sel_reg       <= sel_next;
    match_reg     <= match_next;
    mode_reg      <= mode_next;
    sth_reg       <= sth_next;
    dir_reg       <= dir_next;
    key_reg       <= key_next;
    kvalid_reg    <= kvalid_next;
    kaes_reg      <= kaes_next;
    thr_m1_reg    <= thr_m1_next;
    tx_next_reg   <= tx_next_next;
    rx_next_reg   <= rx_next_next;
    bitmap_reg    <= bitmap_next;
    fail_reg      <= fail_next;
    alert_reg     <= alert_next;
    alert_cnt_reg <= alert_cnt_next;
    q_vld_reg     <= q_vld_next;
    q_ctx_reg     <= q_ctx_next;
    q_epsn_reg    <= q_epsn_next;
    q_head_reg    <= q_head_next;
    q_tail_reg    <= q_tail_next;
    hi_lo_reg     <= hi_lo_next;
    q_behind_reg  <= q_behind_next;
    wu_valid_reg  <= wu_valid_next;
    wu_ctx_reg    <= wu_ctx_next;
    wu_epsn_reg   <= wu_epsn_next;
    wu_behind_reg <= wu_behind_next;
    sv_ctx_reg    <= sv_ctx_next;
    sv_tx_reg     <= sv_tx_next;

    if (rst) begin
        valid_reg  <= {CTX_SLOTS{1'b0}};
        kvalid_reg <= {CTX_SLOTS{1'b0}};   // as key_valid_reg (every context is invalid anyway)
        alert_reg  <= {CTX_SLOTS{1'b0}};
        q_vld_reg  <= {INFLIGHT{1'b0}};
        wu_valid_reg <= 1'b0;
        q_head_reg <= {QW{1'b0}};
        q_tail_reg <= {QW{1'b0}};
    end
end

endmodule

`resetall
