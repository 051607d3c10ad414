/*
 * ibsec_regs — the register block of one packet engine: the register bus of
 * docs/registers.md, the key table (valid bit, size, salt per slot; the key itself goes to
 * gcm_core's s_key_* port; the context table keeps a copy of each context's valid and
 * size bits for the lookup), the configuration bits, the command interlock with the
 * datapath, the DECIDED counter; it holds the context table (ibsec_ctx_table) and the
 * per-reason counters (ibsec_counters) and gives the datapath their ports.
 *
 * Function
 *   Bus: a request (reg_req, held with its address and data until reg_ack) is answered
 *   with a one-cycle reg_ack and reg_rdata: a write two cycles after it is taken, a read
 *   three cycles after; a write to a staging or command register while a command runs is
 *   held in R1 (no ack) until the command has finished. One request at a time: a request
 *   is not taken while another is in R1 or R2 or is being acknowledged.
 *
 *   Request stage R0 (the cycle a request is taken): nothing is decided from the bus
 *   inputs in this cycle but the take itself (reg_req, reg_we and the block's own
 *   pipeline flags); the address is decoded and registered, for a read into one select
 *   bit per source word (rsel_reg) and the counter index (rcnt_idx_reg), for a write into
 *   one bit per written register class (wsel_reg: which KEY_DATA word, KEY_SALT, KEY_CMD,
 *   CONFIG, CNT_CTRL, each context staging word, CTX_CMD), whether it is held while BUSY
 *   (w_staged_reg), and the data (w_wdata_reg).
 *
 *   Write, R1: the write in R1 is performed from those registers unless it is held
 *   (w_staged_reg while STATUS.BUSY); it stays in R1 while held. Performed in cycle p, it
 *   is acknowledged in p + 1, when the registers hold the new value (and a command write
 *   has raised BUSY).
 *
 *   Read pipeline (no path from the bus address to the read data in one cycle):
 *     R0: the address decoded into rsel_reg and rcnt_idx_reg (above);
 *     R1: the word, an AND-OR over the registered selects, and the counter's value
 *        (ibsec_counters' read port at the registered index), registered; the sources are
 *        sampled here, in the cycle after the take;
 *     R2: the counter word ORed in, reg_rdata and reg_ack registered, and the HI latch
 *        of a LO read loaded.
 *
 *   Key staging: KEY_DATA and KEY_SALT are written from R1's registers; a completed
 *   install clears them one cycle after it commits the slot (key_clear_reg; a staging
 *   write performed in that cycle keeps its word), so m_key_data is a register whose
 *   inputs are registers too.
 *
 *   Commands (a write to CONFIG, KEY_CMD or CTX_CMD, docs/registers.md §2): the block raises
 *   cfg_busy (the datapath then decides no packet), waits until pipe_busy is low and the
 *   context table holds no in-flight packet (nor window update), both seen through a
 *   register (idle_reg, a cycle late), and both have been so for RD_LAT = 2 cycles (the
 *   table's check of a context command and its read-back are registered, the read-back
 *   in two stages), checks the command (the check registered a cycle before the apply,
 *   cmd_err_reg) and applies it in one clock edge; a key install first hands the key to
 *   m_key_* (gcm_core s_key_*) and waits until gcm_core is idle again (round keys, H and its powers
 *   derived and committed) before the slot becomes valid with its size and salt; a key
 *   zeroize runs the same handshake with m_key_wipe = 1 (gcm_core writes zeros over both
 *   banks of the slot) and, when gcm_core is idle again, makes the slot invalid with size
 *   and salt zero (as no packet is decided meanwhile, packets see it as a clear); both
 *   clear the key staging when they complete.
 *   CMD_DECIDED then records the number of packets decided before the change. Commands
 *   never overlap.
 *
 *   DECIDED counts dec_pkt pulses (one per packet decided; a pulse with ep_valid while
 *   ep_wait is 1 is a retry, not a decision).
 *
 * Latency / throughput
 *   Register writes: ack two cycles after the request is taken (later while held); reads:
 *   three cycles after. One request at a time. Lookup: three register stages advancing
 *   with lk_ce, one request per lk_ce cycle; EPSN decision and commit answers: combinational
 *   (ibsec_ctx_table). A command stops decisions for its drain time plus RD_LAT + 2
 *   cycles (plus the gcm_core install time for a key install or zeroize).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Register block, key table and command interlock of a packet engine
 */
module ibsec_regs #(
    // key slots (1 .. 32), the same as gcm_core's KEY_SLOTS
    parameter KEY_SLOTS = 4,
    // contexts (1 .. 256)
    parameter CTX_SLOTS = 16,
    // 0: seal engine, 1: open engine
    parameter OPEN = 0,
    // open: packets decided and not yet committed (1 .. 64)
    parameter INFLIGHT = 8,
    // width of a context index (derived; do not override)
    parameter CTX_W = (CTX_SLOTS > 1) ? $clog2(CTX_SLOTS) : 1,
    // width of a key slot index (derived; do not override)
    parameter KEY_W = (KEY_SLOTS > 1) ? $clog2(KEY_SLOTS) : 1
) (
    input  wire               clk,
    input  wire               rst,

    /*
     * Register bus (docs/registers.md §1)
     */
    input  wire               reg_req,
    input  wire               reg_we,
    input  wire [11:0]        reg_addr,
    input  wire [31:0]        reg_wdata,
    output wire               reg_ack,
    output wire [31:0]        reg_rdata,
    output wire               irq_alert,

    /*
     * Configuration
     */
    output wire               cfg_allow_plain,
    output wire               cfg_mask_mf,
    // the policies of DestQP 0, 1 and 0xffffff (CONFIG.MGMT_*: bits 1:0 QP0, 3:2 QP1,
    // 5:4 the permissive DestQP; docs/wire-format.md §9.1)
    output wire [5:0]         cfg_mgmt,

    /*
     * Command interlock
     */
    output wire               cfg_busy,
    input  wire               pipe_busy,

    /*
     * Key install into gcm_core (s_key_*)
     */
    output wire               m_key_valid,
    input  wire               m_key_ready,
    output wire [KEY_W-1:0]   m_key_slot,
    output wire               m_key_aes256,
    output wire [255:0]       m_key_data,
    output wire               m_key_wipe,    // zeroize (KEY_CMD OP = 3): gcm_core writes zeros

    /*
     * Lookup: the answer (lk_hit .. lk_key_aes256) is the request (lk_destqp, lk_pkey) of
     * three lk_ce edges earlier (ibsec_ctx_table, "Lookup")
     */
    input  wire               lk_ce,
    input  wire [23:0]        lk_destqp,
    input  wire [15:0]        lk_pkey,
    output wire               lk_hit,
    output wire [CTX_W-1:0]   lk_ctx,
    output wire [2:0]         lk_mode,
    output wire [2:0]         lk_sth_code,
    output wire               lk_dir,
    output wire [KEY_W-1:0]   lk_key,
    output wire               lk_key_valid,
    output wire               lk_key_aes256,
    // the salt of key slot lk_salt_slot (the datapath passes the slot of its registered
    // lookup, so the salt is not in series with the context selection)
    input  wire [KEY_W-1:0]   lk_salt_slot,
    output wire [31:0]        lk_salt,

    /*
     * Decision: one dec_pkt per packet; the EPSN step (combinational answer)
     */
    input  wire               dec_pkt,
    input  wire               ep_valid,
    input  wire [CTX_W-1:0]   ep_ctx,
    input  wire [23:0]        ep_psn,
    output wire [5:0]         ep_reason,
    output wire [62:0]        ep_epsn,
    output wire               ep_wait,
    output wire               ep_full,

    /*
     * Open commit of the oldest in-flight packet
     */
    input  wire               cm_valid,
    input  wire               cm_pass,
    input  wire               cm_void,   // the packet was dropped before its tag check
    output wire               cm_alert,
    output wire [CTX_W-1:0]   cm_ctx,
    output wire [62:0]        cm_epsn,

    /*
     * Counting: one per packet, its final reason
     */
    input  wire               cnt_valid,
    input  wire [5:0]         cnt_reason
);

// ----------------------------------------------------------------------------
// Constants and parameter checks
// ----------------------------------------------------------------------------
// the register map: addresses, fields, codes and address decode, generated from
// rtl/engine/ibsec_regs.rdl (IBSEC_REG_*, IBSEC_<REG>_<FIELD>_*, ibsec_mapped() etc.)
`include "ibsec_regs_map.vh"

// STATUS.ERR_CODE values decided here (the context checks are ibsec_ctx_table's)
localparam [3:0] ERR_NONE  = IBSEC_STATUS_ERR_CODE_ACCEPTED;
localparam [3:0] ERR_INDEX = IBSEC_STATUS_ERR_CODE_INDEX;
localparam [3:0] ERR_OP    = IBSEC_STATUS_ERR_CODE_OP;

// read sources: one bit each in the read pipeline's select (R0 -> R1)
localparam integer RS_ID           = 0;
localparam integer RS_VERSION      = 1;
localparam integer RS_CAPS         = 2;
localparam integer RS_CONFIG       = 3;
localparam integer RS_STATUS       = 4;
localparam integer RS_DECIDED      = 5;    // DECIDED_LO (latches the HI word)
localparam integer RS_CMD_DECIDED  = 6;    // CMD_DECIDED_LO (latches the HI word)
localparam integer RS_HI           = 7;    // DECIDED_HI, CMD_DECIDED_HI, CNT_HI: the latch
localparam integer RS_KEY_CMD      = 8;
localparam integer RS_KEY_VALID    = 9;
localparam integer RS_KEY_AES256   = 10;
localparam integer RS_CTX_MATCH    = 11;
localparam integer RS_CTX_CFG      = 12;
localparam integer RS_CTX_TX_LO    = 13;
localparam integer RS_CTX_TX_HI    = 14;
localparam integer RS_CTX_RX_LO    = 15;
localparam integer RS_CTX_RX_HI    = 16;
localparam integer RS_CTX_THRESH   = 17;
localparam integer RS_CTX_CMD      = 18;
localparam integer RS_RD_CFG       = 19;
localparam integer RS_RD_MATCH     = 20;
localparam integer RS_RD_TX_LO     = 21;
localparam integer RS_RD_TX_HI     = 22;
localparam integer RS_RD_RX_LO     = 23;
localparam integer RS_RD_RX_HI     = 24;
localparam integer RS_RD_BM_LO     = 25;
localparam integer RS_RD_BM_HI     = 26;
localparam integer RS_RD_FAIL      = 27;
localparam integer RS_RD_ALERT     = 28;
localparam integer RS_RD_ALERT_CNT = 29;
localparam integer RS_RD_THRESH    = 30;
localparam integer RS_ALERT        = 31;   // ALERT_SUMMARY 0..7: 31..38
localparam integer RS_CNT          = 39;   // CNT_LO(r) (latches the HI word)
localparam integer RS_N            = 40;

// written register classes: one bit each in the write's select (R0 -> R1)
localparam integer WS_KEY_DATA   = 0;    // KEY_DATA 0..7: 0..7
localparam integer WS_KEY_SALT   = 8;
localparam integer WS_KEY_CMD    = 9;
localparam integer WS_CONFIG     = 10;
localparam integer WS_CNT_CTRL   = 11;
localparam integer WS_CTX_MATCH  = 12;
localparam integer WS_CTX_CFG    = 13;
localparam integer WS_CTX_TX_LO  = 14;
localparam integer WS_CTX_TX_HI  = 15;
localparam integer WS_CTX_RX_LO  = 16;
localparam integer WS_CTX_RX_HI  = 17;
localparam integer WS_CTX_THRESH = 18;
localparam integer WS_CTX_CMD    = 19;
localparam integer WS_N          = 20;

// register stages of ibsec_ctx_table's read-back (rd_*)
localparam [1:0] RD_LAT = 2'd2;

// command kinds
localparam [1:0] K_CONFIG = 2'd0;
localparam [1:0] K_KEY    = 2'd1;
localparam [1:0] K_CTX    = 2'd2;

// command state machine
localparam [2:0]
    S_IDLE     = 3'd0,   // no command
    S_DRAIN    = 3'd1,   // cfg_busy: waiting for the packets in flight
    S_KEY_SEND = 3'd2,   // key offered to gcm_core
    S_KEY_GAP  = 3'd3,   // one cycle after the handshake (gcm_core's ready drops)
    S_KEY_WAIT = 3'd4,   // gcm_core deriving and committing the key
    S_ZERO_WAIT = 3'd5;  // gcm_core zeroing the slot (a zeroize)

generate
    if (KEY_SLOTS < 1 || KEY_SLOTS > 32) begin : g_bad_key
        initial begin
            $error("Error: ibsec_regs KEY_SLOTS must be 1..32 (instance %m)");
            $finish;
        end
    end
    if (CTX_SLOTS < 1 || CTX_SLOTS > 256) begin : g_bad_ctx
        initial begin
            $error("Error: ibsec_regs CTX_SLOTS must be 1..256 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// bus
reg         ack_reg = 1'b0, ack_next;
reg  [31:0] rdata_reg, rdata_next;
reg  [31:0] hi_latch_reg, hi_latch_next;
// read pipeline: R1 (the source select and counter index of the read taken in R0) and
// R2 (the word, the counter value, and what the HI latch takes)
reg              r1_valid_reg = 1'b0;
reg  [RS_N-1:0]  rsel_reg;
reg  [5:0]       rcnt_idx_reg;
reg              r2_valid_reg = 1'b0;
reg  [31:0]      r2_word_reg;
reg  [31:0]      r2_hi_reg;
reg              r2_cnt_reg;
reg              r2_latch_reg;
reg  [63:0]      r2_cnt_val_reg;
// write in R1: the request taken in R0, its register class, hold flag and data
reg              w_valid_reg = 1'b0, w_valid_next;
reg  [WS_N-1:0]  wsel_reg;
reg              w_staged_reg;
reg  [31:0]      w_wdata_reg;

// configuration (applied) and its staged value: CONFIG's defined bits, 7:0
// after reset: subnet management (DestQP 0) bypasses the engine, everything else off
localparam [31:0] CONFIG_RESET_W = ibsec_config_mgmt_qp0(IBSEC_CONFIG_MGMT_QP0_BYPASS);
localparam [7:0]  CONFIG_RESET = CONFIG_RESET_W[7:0];
reg  [7:0]  config_reg = CONFIG_RESET, config_next;
reg  [7:0]  config_stage_reg, config_stage_next;

// key staging and key table
reg  [255:0] key_data_reg, key_data_next;
reg  [31:0]  key_salt_reg, key_salt_next;
reg  [31:0]  key_cmd_reg, key_cmd_next;
reg  [KEY_SLOTS-1:0]    key_valid_reg = {KEY_SLOTS{1'b0}}, key_valid_next;
reg  [KEY_SLOTS-1:0]    key_aes256_reg, key_aes256_next;
reg  [KEY_SLOTS*32-1:0] key_slot_salt_reg, key_slot_salt_next;
// an install completed in the previous cycle: the staging is cleared now
reg                     key_clear_reg = 1'b0, key_clear_next;

// context staging
reg  [31:0] ctx_match_reg, ctx_match_next;
reg  [31:0] ctx_cfg_reg, ctx_cfg_next;
reg  [63:0] ctx_tx_reg, ctx_tx_next;
reg  [63:0] ctx_rx_reg, ctx_rx_next;
reg  [31:0] ctx_thresh_reg, ctx_thresh_next;
reg  [31:0] ctx_cmd_reg, ctx_cmd_next;

// context read-back snapshot
reg  [31:0] snap_cfg_reg, snap_cfg_next;
reg  [23:0] snap_match_reg, snap_match_next;
reg  [63:0] snap_tx_reg, snap_tx_next;
reg  [63:0] snap_rx_reg, snap_rx_next;
reg  [63:0] snap_bm_reg, snap_bm_next;
reg  [31:0] snap_fail_reg, snap_fail_next;
reg         snap_alert_reg, snap_alert_next;
reg  [31:0] snap_alert_cnt_reg, snap_alert_cnt_next;
reg  [31:0] snap_thresh_reg, snap_thresh_next;

// commands
reg  [2:0]  state_reg = S_IDLE, state_next;
reg         busy_reg = 1'b0;
reg  [1:0]  kind_reg, kind_next;
reg  [3:0]  err_reg = 4'd0, err_next;
reg  [63:0] decided_reg = 64'd0, decided_next;
reg  [63:0] cmd_decided_reg = 64'd0, cmd_decided_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
// the register's byte address (registers are whole 32-bit words: bits 1:0 are ignored,
// docs/registers.md §1)
wire [11:0] baddr = {reg_addr[11:2], 2'b00};
// STATUS.BUSY, cfg_busy and the hold of a write: state_reg != S_IDLE, kept in a register
// of its own (busy_reg) so that the hold and the decisions see one flip-flop
wire        busy  = busy_reg;
// the pipe and the context table quiet (no packet in flight, no window update), as
// registered in the cycle before: the command's wait and apply start at this flip-flop,
// not at the OR of every stage's valid. Once both are quiet in S_DRAIN they stay so (no
// packet is decided while cfg_busy is high), so quiet one cycle ago is quiet now.
reg         idle_reg = 1'b0;
// cycles (saturating at 3) in S_DRAIN with idle_reg high: at RD_LAT the table's
// read-back (rd_*, RD_LAT register stages) shows the state the command sees, and its
// registered check (tbl_cmd_err) is the check of this command
reg  [1:0]  quiet_reg = 2'd0;
// KEY_DATA i holds key bytes 4i..4i+3, i.e. key_data_reg[255-32i -: 32]: word 7 - i
wire [2:0]  key_word = ~ibsec_idx_key_data(reg_addr);
integer     kw;
// R0's decode of the address: one bit per source word of a read, one bit per written
// register class of a write
reg  [RS_N-1:0] rsel_dec;
reg  [WS_N-1:0] wsel_dec;
// a read, a write is taken this cycle (R0)
wire        rd_take;
wire        wr_take;
// the write in R1 is performed this cycle (not held)
wire        wr_do;

// staged command fields
wire [7:0]  key_cmd_slot   = key_cmd_reg[IBSEC_KEY_CMD_SLOT_LSB +: 8];
wire        key_cmd_aes256 = key_cmd_reg[IBSEC_KEY_CMD_AES256_LSB];
wire [1:0]  key_cmd_op     = key_cmd_reg[IBSEC_KEY_CMD_OP_LSB +: 2];
wire [7:0]  ctx_cmd_idx    = ctx_cmd_reg[IBSEC_CTX_CMD_INDEX_LSB +: 8];
wire [3:0]  ctx_cmd_op     = ctx_cmd_reg[IBSEC_CTX_CMD_OP_LSB +: 4];
wire [KEY_W-1:0] key_cmd_s = key_cmd_slot[KEY_W-1:0];

// context table
wire [7:0]  tbl_lk_key;
wire [3:0]  tbl_cmd_err;
wire        tbl_inflight;
wire        rd_valid, rd_sel, rd_dir, rd_alert;
wire [23:0] rd_match;
wire [2:0]  rd_mode, rd_sth_code;
wire [7:0]  rd_key;
wire [31:0] rd_thresh, rd_fail, rd_alert_count;
wire [63:0] rd_tx_next, rd_rx_next, rd_bitmap;
wire [CTX_SLOTS-1:0] alert_flags;
reg         tbl_cmd_valid;

// counters
wire [63:0] cnt_rd_value;
reg         cnt_clear;

// alert flags padded to the 8 words of ALERT_SUMMARY
wire [255:0] alert_words = {{(256-CTX_SLOTS){1'b0}}, alert_flags};

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign reg_ack         = ack_reg;
assign reg_rdata       = rdata_reg;
assign irq_alert       = |alert_flags;
assign cfg_allow_plain = config_reg[IBSEC_CONFIG_ALLOW_PLAIN_LSB];
assign cfg_mask_mf     = config_reg[IBSEC_CONFIG_MASK_MF_LSB];
assign cfg_mgmt        = {config_reg[IBSEC_CONFIG_MGMT_PERM_LSB +: 2],
                          config_reg[IBSEC_CONFIG_MGMT_QP1_LSB +: 2],
                          config_reg[IBSEC_CONFIG_MGMT_QP0_LSB +: 2]};
assign cfg_busy        = busy;

assign m_key_valid  = (state_reg == S_KEY_SEND);
assign m_key_slot   = key_cmd_s;
assign m_key_aes256 = key_cmd_aes256;
// AES-128 keys sit in [255:128] (gcm_core DATA FORMATS); the rest is ignored
assign m_key_data   = key_data_reg;
assign m_key_wipe   = (key_cmd_op == IBSEC_KEY_CMD_OP_ZEROIZE);

// a context's key index is below KEY_SLOTS whenever lk_key_valid is set (its key slot
// attributes are zero otherwise), so the upper index bits carry nothing the datapath uses
assign lk_key        = tbl_lk_key[KEY_W-1:0];
/* verilator lint_off UNUSEDSIGNAL */
wire [7:0]  unused_lk_key_hi = tbl_lk_key;
/* verilator lint_on UNUSEDSIGNAL */
assign lk_salt       = lk_salt_sel;

// the salt of slot lk_salt_slot (AND-OR over explicit slot indices: a variable
// part-select of the flat salt vector would synthesize to a shifter)
reg [31:0] lk_salt_sel;
integer    ks;

always @* begin
    lk_salt_sel = 32'd0;
    for (ks = 0; ks < KEY_SLOTS; ks = ks + 1) begin
        if (lk_salt_slot == ks[KEY_W-1:0]) begin
            lk_salt_sel = key_slot_salt_reg[ks*32 +: 32];
        end
    end
end

// ----------------------------------------------------------------------------
// Context table and counters
// ----------------------------------------------------------------------------
ibsec_ctx_table #(
    .CTX_SLOTS(CTX_SLOTS),
    .KEY_SLOTS(KEY_SLOTS),
    .OPEN(OPEN),
    .INFLIGHT(INFLIGHT)
) u_ctx (
    .clk(clk),
    .rst(rst),
    .lk_ce(lk_ce),
    .lk_destqp(lk_destqp),
    .lk_pkey(lk_pkey),
    .lk_hit(lk_hit),
    .lk_ctx(lk_ctx),
    .lk_mode(lk_mode),
    .lk_sth_code(lk_sth_code),
    .lk_dir(lk_dir),
    .lk_key(tbl_lk_key),
    .lk_key_valid(lk_key_valid),
    .lk_key_aes256(lk_key_aes256),
    .kt_valid_next(key_valid_next),
    .kt_aes256_next(key_aes256_next),
    .ep_valid(ep_valid),
    .ep_ctx(ep_ctx),
    .ep_psn(ep_psn),
    .ep_hold(busy),
    .ep_reason(ep_reason),
    .ep_epsn(ep_epsn),
    .ep_wait(ep_wait),
    .ep_full(ep_full),
    .cm_valid(cm_valid),
    .cm_pass(cm_pass),
    .cm_void(cm_void),
    .cm_alert(cm_alert),
    .cm_ctx(cm_ctx),
    .cm_epsn(cm_epsn),
    .inflight_any(tbl_inflight),
    .cmd_valid(tbl_cmd_valid),
    .cmd_op(ctx_cmd_op[1:0]),
    .cmd_idx(ctx_cmd_idx),
    .cmd_sel(ctx_cfg_reg[IBSEC_CTX_CFG_SEL_LSB]),
    .cmd_match(ctx_match_reg),
    .cmd_mode(ctx_cfg_reg[IBSEC_CTX_CFG_MODE_LSB +: 3]),
    .cmd_sth_code(ctx_cfg_reg[IBSEC_CTX_CFG_STH_CODE_LSB +: 3]),
    .cmd_dir(ctx_cfg_reg[IBSEC_CTX_CFG_DIR_LSB]),
    .cmd_key(ctx_cfg_reg[IBSEC_CTX_CFG_KEY_LSB +: 8]),
    .cmd_tx_next(ctx_tx_reg),
    .cmd_rx_next(ctx_rx_reg),
    .cmd_thresh(ctx_thresh_reg),
    .cmd_err(tbl_cmd_err),
    .rd_idx(ctx_cmd_idx),
    .rd_valid(rd_valid),
    .rd_sel(rd_sel),
    .rd_match(rd_match),
    .rd_mode(rd_mode),
    .rd_sth_code(rd_sth_code),
    .rd_dir(rd_dir),
    .rd_key(rd_key),
    .rd_thresh(rd_thresh),
    .rd_tx_next(rd_tx_next),
    .rd_rx_next(rd_rx_next),
    .rd_bitmap(rd_bitmap),
    .rd_fail(rd_fail),
    .rd_alert(rd_alert),
    .rd_alert_count(rd_alert_count),
    .alert_flags(alert_flags)
);

ibsec_counters #(
    // every reason the engine gives, ok (0) .. mgmt_dropped (37); 34 .. 36 are the pn
    // nonce's, which this RTL does not implement yet (their counters stay 0)
    .REASONS(38)
) u_counters (
    .clk(clk),
    .rst(rst),
    .inc_valid(cnt_valid),
    .inc_reason(cnt_reason),
    .clear(cnt_clear),
    .rd_index(rcnt_idx_reg),
    .rd_value(cnt_rd_value)
);

// ----------------------------------------------------------------------------
// Command check (docs/registers.md §3.4)
// ----------------------------------------------------------------------------
reg [3:0] cmd_err;
// the check as registered in the cycle before: the command's fields and the table's
// registered check (tbl_cmd_err) are stable in S_DRAIN from its second cycle on, and the
// command is applied RD_LAT + 1 cycles into it at the earliest, so the apply starts at
// this register rather than at the compares of the command's fields
reg [3:0] cmd_err_reg = ERR_NONE;

always @(posedge clk) begin
    cmd_err_reg <= cmd_err;
end

always @* begin
    cmd_err = ERR_NONE;
    case (kind_reg)
        K_KEY: begin
            if ({24'd0, key_cmd_slot} >= KEY_SLOTS) begin
                cmd_err = ERR_INDEX;
            end else if (key_cmd_op != IBSEC_KEY_CMD_OP_INSTALL && key_cmd_op != IBSEC_KEY_CMD_OP_CLEAR
                         && key_cmd_op != IBSEC_KEY_CMD_OP_ZEROIZE) begin
                cmd_err = ERR_OP;
            end
        end
        K_CTX: begin
            if ({24'd0, ctx_cmd_idx} >= CTX_SLOTS) begin
                cmd_err = ERR_INDEX;
            end else if (ctx_cmd_op < IBSEC_CTX_CMD_OP_WRITE || ctx_cmd_op > IBSEC_CTX_CMD_OP_READ) begin
                cmd_err = ERR_OP;
            end else if (ctx_cmd_op != IBSEC_CTX_CMD_OP_READ) begin
                cmd_err = tbl_cmd_err;
            end
        end
        default: begin
        end
    endcase
end

// ----------------------------------------------------------------------------
// Bus read pipeline: R0 decodes the address of a read it takes into one select bit per
// source word (RS_*), R1 selects the word by an AND-OR over those registered selects (and
// the counter the registered index names), R2 adds the counter word and answers.
// ----------------------------------------------------------------------------
// R0: the one-hot source select of the address (the map's ranges do not overlap)
always @* begin
    rsel_dec = {RS_N{1'b0}};
    if (ibsec_in_cnt(reg_addr)) begin
        // CNT_LO(r), CNT_HI(r)
        if (ibsec_in_cnt_hi(reg_addr)) begin
            rsel_dec[RS_HI] = 1'b1;
        end else begin
            rsel_dec[RS_CNT] = 1'b1;
        end
    end else if (ibsec_in_alert_summary(reg_addr)) begin
        rsel_dec[RS_ALERT + {29'd0, ibsec_idx_alert_summary(reg_addr)}] = 1'b1;
    end else begin
        case (baddr)
            IBSEC_REG_ID:                  rsel_dec[RS_ID] = 1'b1;
            IBSEC_REG_VERSION:             rsel_dec[RS_VERSION] = 1'b1;
            IBSEC_REG_CAPS:                rsel_dec[RS_CAPS] = 1'b1;
            IBSEC_REG_CONFIG:              rsel_dec[RS_CONFIG] = 1'b1;
            IBSEC_REG_STATUS:              rsel_dec[RS_STATUS] = 1'b1;
            IBSEC_REG_DECIDED_LO:          rsel_dec[RS_DECIDED] = 1'b1;
            IBSEC_REG_DECIDED_HI:          rsel_dec[RS_HI] = 1'b1;
            IBSEC_REG_CMD_DECIDED_LO:      rsel_dec[RS_CMD_DECIDED] = 1'b1;
            IBSEC_REG_CMD_DECIDED_HI:      rsel_dec[RS_HI] = 1'b1;
            IBSEC_REG_KEY_CMD:             rsel_dec[RS_KEY_CMD] = 1'b1;
            IBSEC_REG_KEY_VALID:           rsel_dec[RS_KEY_VALID] = 1'b1;
            IBSEC_REG_KEY_AES256:          rsel_dec[RS_KEY_AES256] = 1'b1;
            IBSEC_REG_CTX_MATCH:           rsel_dec[RS_CTX_MATCH] = 1'b1;
            IBSEC_REG_CTX_CFG:             rsel_dec[RS_CTX_CFG] = 1'b1;
            IBSEC_REG_CTX_TX_NEXT_LO:      rsel_dec[RS_CTX_TX_LO] = 1'b1;
            IBSEC_REG_CTX_TX_NEXT_HI:      rsel_dec[RS_CTX_TX_HI] = 1'b1;
            IBSEC_REG_CTX_RX_NEXT_LO:      rsel_dec[RS_CTX_RX_LO] = 1'b1;
            IBSEC_REG_CTX_RX_NEXT_HI:      rsel_dec[RS_CTX_RX_HI] = 1'b1;
            IBSEC_REG_CTX_ALERT_THRESH:    rsel_dec[RS_CTX_THRESH] = 1'b1;
            IBSEC_REG_CTX_CMD:             rsel_dec[RS_CTX_CMD] = 1'b1;
            IBSEC_REG_CTX_RD_CFG:          rsel_dec[RS_RD_CFG] = 1'b1;
            IBSEC_REG_CTX_RD_MATCH:        rsel_dec[RS_RD_MATCH] = 1'b1;
            IBSEC_REG_CTX_RD_TX_NEXT_LO:   rsel_dec[RS_RD_TX_LO] = 1'b1;
            IBSEC_REG_CTX_RD_TX_NEXT_HI:   rsel_dec[RS_RD_TX_HI] = 1'b1;
            IBSEC_REG_CTX_RD_RX_NEXT_LO:   rsel_dec[RS_RD_RX_LO] = 1'b1;
            IBSEC_REG_CTX_RD_RX_NEXT_HI:   rsel_dec[RS_RD_RX_HI] = 1'b1;
            IBSEC_REG_CTX_RD_BITMAP_LO:    rsel_dec[RS_RD_BM_LO] = 1'b1;
            IBSEC_REG_CTX_RD_BITMAP_HI:    rsel_dec[RS_RD_BM_HI] = 1'b1;
            IBSEC_REG_CTX_RD_FAIL:         rsel_dec[RS_RD_FAIL] = 1'b1;
            IBSEC_REG_CTX_RD_ALERT:        rsel_dec[RS_RD_ALERT] = 1'b1;
            IBSEC_REG_CTX_RD_ALERT_COUNT:  rsel_dec[RS_RD_ALERT_CNT] = 1'b1;
            IBSEC_REG_CTX_RD_ALERT_THRESH: rsel_dec[RS_RD_THRESH] = 1'b1;
            default: begin
            end
        endcase
    end
end

// R1: the word of the selected source (every source but the counters) and, for a LO
// word of a live 64-bit register, its HI word for the latch
reg [31:0] r1_word;
reg [31:0] r1_hi;
integer    rk;

always @* begin
    r1_word = ({32{rsel_reg[RS_ID]}} & IBSEC_ID_VALUE_RESET)
            | ({32{rsel_reg[RS_VERSION]}} & (ibsec_version_minor(IBSEC_VERSION_MINOR_RESET)
                                             | ibsec_version_major(IBSEC_VERSION_MAJOR_RESET)
                                             | ibsec_version_open(OPEN != 0)))
            | ({32{rsel_reg[RS_CAPS]}} & (ibsec_caps_key_slots(KEY_SLOTS[15:0])
                                          | ibsec_caps_ctx_slots(CTX_SLOTS[15:0])))
            | ({32{rsel_reg[RS_CONFIG]}} & {24'd0, config_reg})
            | ({32{rsel_reg[RS_STATUS]}} & (ibsec_status_busy(busy)
                                            | ibsec_status_err(err_reg != ERR_NONE)
                                            | ibsec_status_err_code(err_reg)
                                            | ibsec_status_alert(irq_alert)))
            | ({32{rsel_reg[RS_DECIDED]}}      & decided_reg[31:0])
            | ({32{rsel_reg[RS_CMD_DECIDED]}}  & cmd_decided_reg[31:0])
            | ({32{rsel_reg[RS_HI]}}           & hi_latch_reg)
            | ({32{rsel_reg[RS_KEY_CMD]}}      & key_cmd_reg)
            | ({32{rsel_reg[RS_KEY_VALID]}}    & {{(32-KEY_SLOTS){1'b0}}, key_valid_reg})
            | ({32{rsel_reg[RS_KEY_AES256]}}   & {{(32-KEY_SLOTS){1'b0}}, key_aes256_reg & key_valid_reg})
            | ({32{rsel_reg[RS_CTX_MATCH]}}    & ctx_match_reg)
            | ({32{rsel_reg[RS_CTX_CFG]}}      & ctx_cfg_reg)
            | ({32{rsel_reg[RS_CTX_TX_LO]}}    & ctx_tx_reg[31:0])
            | ({32{rsel_reg[RS_CTX_TX_HI]}}    & ctx_tx_reg[63:32])
            | ({32{rsel_reg[RS_CTX_RX_LO]}}    & ctx_rx_reg[31:0])
            | ({32{rsel_reg[RS_CTX_RX_HI]}}    & ctx_rx_reg[63:32])
            | ({32{rsel_reg[RS_CTX_THRESH]}}   & ctx_thresh_reg)
            | ({32{rsel_reg[RS_CTX_CMD]}}      & ctx_cmd_reg)
            | ({32{rsel_reg[RS_RD_CFG]}}       & snap_cfg_reg)
            | ({32{rsel_reg[RS_RD_MATCH]}}     & {8'd0, snap_match_reg})
            | ({32{rsel_reg[RS_RD_TX_LO]}}     & snap_tx_reg[31:0])
            | ({32{rsel_reg[RS_RD_TX_HI]}}     & snap_tx_reg[63:32])
            | ({32{rsel_reg[RS_RD_RX_LO]}}     & snap_rx_reg[31:0])
            | ({32{rsel_reg[RS_RD_RX_HI]}}     & snap_rx_reg[63:32])
            | ({32{rsel_reg[RS_RD_BM_LO]}}     & snap_bm_reg[31:0])
            | ({32{rsel_reg[RS_RD_BM_HI]}}     & snap_bm_reg[63:32])
            | ({32{rsel_reg[RS_RD_FAIL]}}      & snap_fail_reg)
            | ({32{rsel_reg[RS_RD_ALERT]}}     & ibsec_ctx_rd_alert_alert(snap_alert_reg))
            | ({32{rsel_reg[RS_RD_ALERT_CNT]}} & snap_alert_cnt_reg)
            | ({32{rsel_reg[RS_RD_THRESH]}}    & snap_thresh_reg);
    for (rk = 0; rk < 8; rk = rk + 1) begin
        // ALERT_SUMMARY i is contexts 32i..32i+31 (KEY_DATA and KEY_SALT are write-only:
        // no read source, they read as 0)
        r1_word = r1_word | ({32{rsel_reg[RS_ALERT + rk]}} & alert_words[rk*32 +: 32]);
    end
    r1_hi = ({32{rsel_reg[RS_DECIDED]}} & decided_reg[63:32])
          | ({32{rsel_reg[RS_CMD_DECIDED]}} & cmd_decided_reg[63:32]);
end

// R0: whether a write waits while BUSY (the staging and command registers), decoded on the
// word address's bits: ibsec_staged() is the same function, but its case maps to a deeper
// decode. Word addresses (byte address / 4): CONFIG 0x004, KEY_DATA 0x010..0x017,
// KEY_SALT 0x018, KEY_CMD 0x019, CTX_MATCH .. CTX_CMD 0x040..0x047; checked against
// ibsec_staged() for every address at the start of a simulation.
wire [9:0] waddr      = reg_addr[11:2];
wire       staged_dec = waddr[9:7] == 3'd0
                        && ((!waddr[6] && (waddr[5:0] == 6'h04 || waddr[5:3] == 3'b010
                                           || waddr[5:1] == 5'b01100))
                            || (waddr[6] && waddr[5:3] == 3'b000));

`ifndef SYNTHESIS
integer sa;

initial begin
    for (sa = 0; sa < 1024; sa = sa + 1) begin
        if ((sa[9:7] == 3'd0
             && ((!sa[6] && (sa[5:0] == 6'h04 || sa[5:3] == 3'b010 || sa[5:1] == 5'b01100))
                 || (sa[6] && sa[5:3] == 3'b000)))
            != ibsec_staged({sa[9:0], 2'b00})) begin
            $error("Error: ibsec_regs staged decode differs from ibsec_staged at 0x%03x",
                   {sa[9:0], 2'b00});
        end
    end
end
`endif

// R0: the written register class of the address (the map's ranges do not overlap)
integer wk;

always @* begin
    wsel_dec = {WS_N{1'b0}};
    for (wk = 0; wk < 8; wk = wk + 1) begin
        if (ibsec_in_key_data(reg_addr) && key_word == wk[2:0]) begin
            wsel_dec[WS_KEY_DATA + wk] = 1'b1;
        end
    end
    case (baddr)
        IBSEC_REG_KEY_SALT:         wsel_dec[WS_KEY_SALT] = 1'b1;
        IBSEC_REG_KEY_CMD:          wsel_dec[WS_KEY_CMD] = 1'b1;
        IBSEC_REG_CONFIG:           wsel_dec[WS_CONFIG] = 1'b1;
        IBSEC_REG_CNT_CTRL:         wsel_dec[WS_CNT_CTRL] = 1'b1;
        IBSEC_REG_CTX_MATCH:        wsel_dec[WS_CTX_MATCH] = 1'b1;
        IBSEC_REG_CTX_CFG:          wsel_dec[WS_CTX_CFG] = 1'b1;
        IBSEC_REG_CTX_TX_NEXT_LO:   wsel_dec[WS_CTX_TX_LO] = 1'b1;
        IBSEC_REG_CTX_TX_NEXT_HI:   wsel_dec[WS_CTX_TX_HI] = 1'b1;
        IBSEC_REG_CTX_RX_NEXT_LO:   wsel_dec[WS_CTX_RX_LO] = 1'b1;
        IBSEC_REG_CTX_RX_NEXT_HI:   wsel_dec[WS_CTX_RX_HI] = 1'b1;
        IBSEC_REG_CTX_ALERT_THRESH: wsel_dec[WS_CTX_THRESH] = 1'b1;
        IBSEC_REG_CTX_CMD:          wsel_dec[WS_CTX_CMD] = 1'b1;
        default: begin
        end
    endcase
end

// ----------------------------------------------------------------------------
// Bus, staging registers and the command state machine
// ----------------------------------------------------------------------------
// R0: a request is taken when none is in R1 or R2 or being acknowledged (the master holds
// a request until its ack, so a request in flight is not taken again)
wire bus_free   = !ack_reg && !w_valid_reg && !r1_valid_reg && !r2_valid_reg;
assign rd_take  = reg_req && !reg_we && bus_free;
assign wr_take  = reg_req && reg_we && bus_free;
// R1: a write is performed unless it must wait for the running command (a staging or
// command register while BUSY)
assign wr_do    = w_valid_reg && !(w_staged_reg && busy);

always @* begin
    ack_next            = 1'b0;
    rdata_next          = 32'd0;
    hi_latch_next       = hi_latch_reg;
    w_valid_next        = wr_take || (w_valid_reg && !wr_do);
    config_next         = config_reg;
    config_stage_next   = config_stage_reg;
    key_data_next       = key_data_reg;
    key_salt_next       = key_salt_reg;
    key_cmd_next        = key_cmd_reg;
    key_valid_next      = key_valid_reg;
    key_aes256_next     = key_aes256_reg;
    key_slot_salt_next  = key_slot_salt_reg;
    key_clear_next      = 1'b0;
    ctx_match_next      = ctx_match_reg;
    ctx_cfg_next        = ctx_cfg_reg;
    ctx_tx_next         = ctx_tx_reg;
    ctx_rx_next         = ctx_rx_reg;
    ctx_thresh_next     = ctx_thresh_reg;
    ctx_cmd_next        = ctx_cmd_reg;
    snap_cfg_next       = snap_cfg_reg;
    snap_match_next     = snap_match_reg;
    snap_tx_next        = snap_tx_reg;
    snap_rx_next        = snap_rx_reg;
    snap_bm_next        = snap_bm_reg;
    snap_fail_next      = snap_fail_reg;
    snap_alert_next     = snap_alert_reg;
    snap_alert_cnt_next = snap_alert_cnt_reg;
    snap_thresh_next    = snap_thresh_reg;
    state_next          = state_reg;
    kind_next           = kind_reg;
    err_next            = err_reg;
    decided_next        = decided_reg;
    cmd_decided_next    = cmd_decided_reg;
    tbl_cmd_valid       = 1'b0;
    cnt_clear           = 1'b0;
    kw                  = 0;      // loop index, assigned on every path (no latch)

    // DECIDED: a packet decided this cycle (a waiting EPSN step is a retry)
    if (dec_pkt && !busy && !(ep_valid && ep_wait)) begin
        decided_next = decided_reg + 64'd1;
    end

    // the key staging of an install completed in the previous cycle is cleared (the key
    // is in gcm_core and the salt in the slot: no copy stays in the staging registers,
    // docs/registers.md §4, keys are write-only); a staging write now (below) keeps its word
    if (key_clear_reg) begin
        key_data_next = 256'd0;
        key_salt_next = 32'd0;
    end

    // ---- bus ----
    // R2: a read answers (a LO word of a live 64-bit register latches its HI word)
    if (r2_valid_reg) begin
        ack_next   = 1'b1;
        rdata_next = r2_word_reg | (r2_cnt_reg ? r2_cnt_val_reg[31:0] : 32'd0);
        if (r2_latch_reg) begin
            hi_latch_next = r2_cnt_reg ? r2_cnt_val_reg[63:32] : r2_hi_reg;
        end
    end
    // R1: a write is performed from R0's registers and answered in the next cycle; the
    // staging and command registers keep their defined bits (the others read 0)
    if (wr_do) begin
        ack_next = 1'b1;
        for (kw = 0; kw < 8; kw = kw + 1) begin
            if (wsel_reg[WS_KEY_DATA + kw]) begin
                key_data_next[kw*32 +: 32] = w_wdata_reg;
            end
        end
        if (wsel_reg[WS_KEY_SALT]) begin
            key_salt_next = w_wdata_reg;
        end
        if (wsel_reg[WS_KEY_CMD]) begin
            key_cmd_next = w_wdata_reg & IBSEC_KEY_CMD_BITS;
            kind_next    = K_KEY;
            state_next   = S_DRAIN;
        end
        if (wsel_reg[WS_CONFIG]) begin
            config_stage_next = w_wdata_reg[7:0] & IBSEC_CONFIG_BITS[7:0];
            kind_next  = K_CONFIG;
            state_next = S_DRAIN;
        end
        if (wsel_reg[WS_CNT_CTRL]) begin
            cnt_clear = w_wdata_reg[IBSEC_CNT_CTRL_CLEAR_LSB];
        end
        if (wsel_reg[WS_CTX_MATCH]) begin
            ctx_match_next = w_wdata_reg;
        end
        if (wsel_reg[WS_CTX_CFG]) begin
            ctx_cfg_next = w_wdata_reg & IBSEC_CTX_CFG_BITS;
        end
        if (wsel_reg[WS_CTX_TX_LO]) begin
            ctx_tx_next[31:0] = w_wdata_reg;
        end
        if (wsel_reg[WS_CTX_TX_HI]) begin
            ctx_tx_next[63:32] = w_wdata_reg;
        end
        if (wsel_reg[WS_CTX_RX_LO]) begin
            ctx_rx_next[31:0] = w_wdata_reg;
        end
        if (wsel_reg[WS_CTX_RX_HI]) begin
            ctx_rx_next[63:32] = w_wdata_reg;
        end
        if (wsel_reg[WS_CTX_THRESH]) begin
            ctx_thresh_next = w_wdata_reg;
        end
        if (wsel_reg[WS_CTX_CMD]) begin
            ctx_cmd_next = w_wdata_reg & IBSEC_CTX_CMD_BITS;
            kind_next    = K_CTX;
            state_next   = S_DRAIN;
        end
    end

    // ---- commands ----
    case (state_reg)
        S_DRAIN: begin
            if (idle_reg && quiet_reg >= RD_LAT) begin
                err_next         = cmd_err_reg;
                cmd_decided_next = decided_reg;
                state_next       = S_IDLE;
                if (cmd_err_reg == ERR_NONE) begin
                    case (kind_reg)
                        K_CONFIG: begin
                            config_next = config_stage_reg;
                        end
                        K_KEY: begin
                            // install and zeroize run through gcm_core's key port (the
                            // slot changes when it is done); a clear is immediate
                            if (key_cmd_op == IBSEC_KEY_CMD_OP_INSTALL
                                || key_cmd_op == IBSEC_KEY_CMD_OP_ZEROIZE) begin
                                state_next = S_KEY_SEND;
                            end else begin
                                key_valid_next[key_cmd_s]  = 1'b0;
                                key_aes256_next[key_cmd_s] = 1'b0;
                            end
                        end
                        default: begin
                            if (ctx_cmd_op == IBSEC_CTX_CMD_OP_READ) begin
                                snap_cfg_next       =
                                    ibsec_ctx_rd_cfg_sel(rd_sel)
                                    | ibsec_ctx_rd_cfg_mode(rd_mode)
                                    | ibsec_ctx_rd_cfg_sth_code(rd_sth_code)
                                    | ibsec_ctx_rd_cfg_dir(rd_dir)
                                    | ibsec_ctx_rd_cfg_key(rd_key)
                                    | ibsec_ctx_rd_cfg_valid(rd_valid);
                                snap_match_next     = rd_match;
                                snap_tx_next        = rd_tx_next;
                                snap_rx_next        = rd_rx_next;
                                snap_bm_next        = rd_bitmap;
                                snap_fail_next      = rd_fail;
                                snap_alert_next     = rd_alert;
                                snap_alert_cnt_next = rd_alert_count;
                                snap_thresh_next    = rd_thresh;
                            end else begin
                                tbl_cmd_valid = ctx_cmd_op <= IBSEC_CTX_CMD_OP_CLEAR_ALERT;
                            end
                        end
                    endcase
                end
            end
        end
        S_KEY_SEND: begin
            if (m_key_ready) begin
                state_next = S_KEY_GAP;
            end
        end
        S_KEY_GAP: begin
            state_next = m_key_wipe ? S_ZERO_WAIT : S_KEY_WAIT;
        end
        S_KEY_WAIT: begin
            // gcm_core is idle again: the new key and its H powers are committed
            if (m_key_ready) begin
                key_valid_next[key_cmd_s]               = 1'b1;
                key_aes256_next[key_cmd_s]              = key_cmd_aes256;
                for (kw = 0; kw < KEY_SLOTS; kw = kw + 1) begin
                    if (key_cmd_s == kw[KEY_W-1:0]) begin
                        key_slot_salt_next[kw*32 +: 32] = key_salt_reg;
                    end
                end
                // the staging is cleared in the next cycle (key_clear_reg)
                key_clear_next = 1'b1;
                state_next     = S_IDLE;
            end
        end
        S_ZERO_WAIT: begin
            // gcm_core is idle again: both banks of the slot are zero; the slot becomes
            // invalid with size and salt zero, and the staging is cleared as by an install
            // (in the next cycle, key_clear_reg)
            if (m_key_ready) begin
                key_valid_next[key_cmd_s]               = 1'b0;
                key_aes256_next[key_cmd_s]              = 1'b0;
                for (kw = 0; kw < KEY_SLOTS; kw = kw + 1) begin
                    if (key_cmd_s == kw[KEY_W-1:0]) begin
                        key_slot_salt_next[kw*32 +: 32] = 32'd0;
                    end
                end
                key_clear_next = 1'b1;
                state_next     = S_IDLE;
            end
        end
        default: begin
        end
    endcase
end

// ----------------------------------------------------------------------------
// Register update: control state, the tables' valid bits and the context read-back are
// reset, the other data is not
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    ack_reg            <= ack_next;
    r1_valid_reg       <= rd_take;
    // loaded in every cycle (not gated by rd_take, whose request logic is deep): R1's
    // word is used only when r2_valid_reg follows
    rsel_reg           <= rsel_dec;
    rcnt_idx_reg       <= ibsec_idx_cnt_lo(reg_addr);
    r2_valid_reg       <= r1_valid_reg;
    w_valid_reg        <= w_valid_next;
    // loaded in every cycle, like rsel_reg: the master holds the address and data of a
    // request until its ack, so while a write is in R1 they are the write's
    wsel_reg           <= wsel_dec;
    w_staged_reg       <= staged_dec;
    w_wdata_reg        <= reg_wdata;
    r2_word_reg        <= r1_word;
    r2_hi_reg          <= r1_hi;
    r2_cnt_reg         <= rsel_reg[RS_CNT];
    r2_latch_reg       <= rsel_reg[RS_CNT] | rsel_reg[RS_DECIDED] | rsel_reg[RS_CMD_DECIDED];
    r2_cnt_val_reg     <= cnt_rd_value;
    rdata_reg          <= rdata_next;
    hi_latch_reg       <= hi_latch_next;
    config_reg         <= config_next;
    config_stage_reg   <= config_stage_next;
    key_data_reg       <= key_data_next;
    key_salt_reg       <= key_salt_next;
    key_cmd_reg        <= key_cmd_next;
    key_valid_reg      <= key_valid_next;
    key_aes256_reg     <= key_aes256_next;
    key_slot_salt_reg  <= key_slot_salt_next;
    key_clear_reg      <= key_clear_next;
    ctx_match_reg      <= ctx_match_next;
    ctx_cfg_reg        <= ctx_cfg_next;
    ctx_tx_reg         <= ctx_tx_next;
    ctx_rx_reg         <= ctx_rx_next;
    ctx_thresh_reg     <= ctx_thresh_next;
    ctx_cmd_reg        <= ctx_cmd_next;
    snap_cfg_reg       <= snap_cfg_next;
    snap_match_reg     <= snap_match_next;
    snap_tx_reg        <= snap_tx_next;
    snap_rx_reg        <= snap_rx_next;
    snap_bm_reg        <= snap_bm_next;
    snap_fail_reg      <= snap_fail_next;
    snap_alert_reg     <= snap_alert_next;
    snap_alert_cnt_reg <= snap_alert_cnt_next;
    snap_thresh_reg    <= snap_thresh_next;
    state_reg          <= state_next;
    busy_reg           <= (state_next != S_IDLE);
    idle_reg           <= !pipe_busy && !tbl_inflight;
    quiet_reg          <= (state_reg == S_DRAIN && idle_reg)
                          ? quiet_reg + {1'b0, quiet_reg != 2'd3} : 2'd0;
    kind_reg           <= kind_next;
    err_reg            <= err_next;
    decided_reg        <= decided_next;
    cmd_decided_reg    <= cmd_decided_next;

    if (rst) begin
        ack_reg         <= 1'b0;
        r1_valid_reg    <= 1'b0;
        r2_valid_reg    <= 1'b0;
        w_valid_reg     <= 1'b0;
        key_clear_reg   <= 1'b0;
        config_reg      <= CONFIG_RESET;
        key_valid_reg   <= {KEY_SLOTS{1'b0}};
        state_reg       <= S_IDLE;
        busy_reg        <= 1'b0;
        err_reg         <= ERR_NONE;
        decided_reg     <= 64'd0;
        cmd_decided_reg <= 64'd0;
        // the context read-back reads as zeros until the first READ command: nothing
        // of a context from before the reset stays visible on the bus
        snap_cfg_reg       <= 32'd0;
        snap_match_reg     <= 24'd0;
        snap_tx_reg        <= 64'd0;
        snap_rx_reg        <= 64'd0;
        snap_bm_reg        <= 64'd0;
        snap_fail_reg      <= 32'd0;
        snap_alert_reg     <= 1'b0;
        snap_alert_cnt_reg <= 32'd0;
        snap_thresh_reg    <= 32'd0;
    end
end

endmodule

`resetall
