/*
 * ibsec_regs — the register block of one packet engine: the register bus of
 * docs/registers.md, the key table (valid bit, size, salt per slot; the key itself goes to
 * gcm_core's s_key_* port; the context table keeps a copy of each context's valid and
 * size bits for the lookup), the configuration bits, the command interlock with the
 * datapath, the DECIDED counter; it holds the context table (ibsec_ctx_table) and the
 * per-reason counters (ibsec_counters) and gives the datapath their ports.
 *
 * Function
 *   Bus: a request (reg_req, held until reg_ack) is answered one cycle later with a
 *   one-cycle reg_ack and reg_rdata; a write to a staging or command register while a
 *   command runs is held (no ack) until the command has finished.
 *
 *   Commands (a write to CONFIG, KEY_CMD or CTX_CMD, docs/registers.md §2): the block raises
 *   cfg_busy (the datapath then decides no packet), waits until pipe_busy is low and the
 *   context table holds no in-flight packet and at least one cycle has passed (the
 *   table's check of a context command is registered), checks the command and applies
 *   it in one clock edge; a key install first hands the key to m_key_* (gcm_core
 *   s_key_*) and waits until gcm_core is idle again (round keys, H and its powers
 *   derived and committed) before the slot becomes valid with its size and salt.
 *   CMD_DECIDED then records the number of packets decided before the change. Commands
 *   never overlap.
 *
 *   DECIDED counts dec_pkt pulses (one per packet decided; a pulse with ep_valid while
 *   ep_wait is 1 is a retry, not a decision).
 *
 * Latency / throughput
 *   Register reads and writes: ack one cycle after the request. Lookup, EPSN decision and
 *   commit answers: combinational (ibsec_ctx_table). A command stops decisions for its
 *   drain time (at least one cycle) plus one cycle (plus the gcm_core install time for a
 *   key install).
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

    /*
     * Lookup (combinational)
     */
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
// ID register: ASCII "IBSC"; VERSION 1.0 (docs/registers.md §3)
localparam [31:0] REG_ID_VALUE = 32'h4942_5343;
localparam [7:0]  VERSION_MAJOR = 8'd1;
localparam [7:0]  VERSION_MINOR = 8'd0;

// word addresses (byte address >> 2) of docs/registers.md §3
localparam [9:0] A_ID             = 10'h000;  // 0x000
localparam [9:0] A_VERSION        = 10'h001;  // 0x004
localparam [9:0] A_CAPS           = 10'h002;  // 0x008
localparam [9:0] A_CONFIG         = 10'h004;  // 0x010
localparam [9:0] A_STATUS         = 10'h005;  // 0x014
localparam [9:0] A_CNT_CTRL       = 10'h006;  // 0x018
localparam [9:0] A_DECIDED_LO     = 10'h008;  // 0x020
localparam [9:0] A_DECIDED_HI     = 10'h009;  // 0x024
localparam [9:0] A_CMD_DEC_LO     = 10'h00A;  // 0x028
localparam [9:0] A_CMD_DEC_HI     = 10'h00B;  // 0x02C
localparam [9:0] A_KEY_DATA0      = 10'h010;  // 0x040 .. 0x05C: KEY_DATA0..7
localparam [9:0] A_KEY_SALT       = 10'h018;  // 0x060
localparam [9:0] A_KEY_CMD        = 10'h019;  // 0x064
localparam [9:0] A_KEY_VALID      = 10'h01A;  // 0x068
localparam [9:0] A_KEY_AES256     = 10'h01B;  // 0x06C
localparam [9:0] A_CTX_MATCH      = 10'h040;  // 0x100
localparam [9:0] A_CTX_CFG        = 10'h041;  // 0x104
localparam [9:0] A_CTX_TX_LO      = 10'h042;  // 0x108
localparam [9:0] A_CTX_TX_HI      = 10'h043;  // 0x10C
localparam [9:0] A_CTX_RX_LO      = 10'h044;  // 0x110
localparam [9:0] A_CTX_RX_HI      = 10'h045;  // 0x114
localparam [9:0] A_CTX_THRESH     = 10'h046;  // 0x118
localparam [9:0] A_CTX_CMD        = 10'h047;  // 0x11C
localparam [9:0] A_RD_CFG         = 10'h050;  // 0x140
localparam [9:0] A_RD_MATCH       = 10'h051;  // 0x144
localparam [9:0] A_RD_TX_LO       = 10'h052;  // 0x148
localparam [9:0] A_RD_TX_HI       = 10'h053;  // 0x14C
localparam [9:0] A_RD_RX_LO       = 10'h054;  // 0x150
localparam [9:0] A_RD_RX_HI       = 10'h055;  // 0x154
localparam [9:0] A_RD_BM_LO       = 10'h056;  // 0x158
localparam [9:0] A_RD_BM_HI       = 10'h057;  // 0x15C
localparam [9:0] A_RD_FAIL        = 10'h058;  // 0x160
localparam [9:0] A_RD_ALERT       = 10'h059;  // 0x164
localparam [9:0] A_RD_ALERT_CNT   = 10'h05A;  // 0x168
localparam [9:0] A_RD_THRESH      = 10'h05B;  // 0x16C
localparam [6:0] A_ALERT_SUM_TOP  = 7'h0C;    // 0x180 .. 0x19C: word address 0x060 .. 0x067
localparam [2:0] A_CNT_TOP        = 3'b010;   // 0x400 .. 0x5FC: counters (addr[11:9])

// KEY_CMD / CTX_CMD operations
localparam [1:0] KEY_OP_INSTALL  = 2'd1;
localparam [1:0] KEY_OP_CLEAR    = 2'd2;
localparam [3:0] CTX_OP_WRITE    = 4'd1;
localparam [3:0] CTX_OP_CLEAR_AL = 4'd3;
localparam [3:0] CTX_OP_READ     = 4'd4;

// STATUS.ERR_CODE values decided here (the context checks are ibsec_ctx_table's)
localparam [3:0] ERR_NONE  = 4'd0;
localparam [3:0] ERR_INDEX = 4'd1;
localparam [3:0] ERR_OP    = 4'd2;

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
    S_KEY_WAIT = 3'd4;   // gcm_core deriving and committing the key

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

// configuration (applied) and its staged value
reg  [1:0]  config_reg = 2'b00, config_next;
reg  [1:0]  config_stage_reg, config_stage_next;

// key staging and key table
reg  [255:0] key_data_reg, key_data_next;
reg  [31:0]  key_salt_reg, key_salt_next;
reg  [31:0]  key_cmd_reg, key_cmd_next;
reg  [KEY_SLOTS-1:0]    key_valid_reg = {KEY_SLOTS{1'b0}}, key_valid_next;
reg  [KEY_SLOTS-1:0]    key_aes256_reg, key_aes256_next;
reg  [KEY_SLOTS*32-1:0] key_slot_salt_reg, key_slot_salt_next;

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
reg  [1:0]  kind_reg, kind_next;
reg  [3:0]  err_reg = 4'd0, err_next;
reg  [63:0] decided_reg = 64'd0, decided_next;
reg  [63:0] cmd_decided_reg = 64'd0, cmd_decided_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire [9:0]  waddr = reg_addr[11:2];
wire        busy  = (state_reg != S_IDLE);
// the command has been in S_DRAIN for a cycle: the context table's registered check
// (tbl_cmd_err) is then the check of this command
reg         drain_seen_reg = 1'b0;
// registers are whole 32-bit words: the byte offset is ignored (docs/registers.md §1)
wire        unused_byte_offset = ^reg_addr[1:0];
// KEY_DATA i holds key bytes 4i..4i+3, i.e. key_data_reg[255-32i -: 32]: word 7 - i
wire [2:0]  key_word = ~waddr[2:0];
reg  [31:0] key_data_word;
integer     kd;
integer     kw;

always @* begin
    key_data_word = 32'd0;
    for (kd = 0; kd < 8; kd = kd + 1) begin
        if (key_word == kd[2:0]) begin
            key_data_word = key_data_reg[kd*32 +: 32];
        end
    end
end

// staged command fields
wire [7:0]  key_cmd_slot   = key_cmd_reg[7:0];
wire        key_cmd_aes256 = key_cmd_reg[8];
wire [1:0]  key_cmd_op     = key_cmd_reg[17:16];
wire [7:0]  ctx_cmd_idx    = ctx_cmd_reg[7:0];
wire [3:0]  ctx_cmd_op     = ctx_cmd_reg[19:16];
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
assign cfg_allow_plain = config_reg[0];
assign cfg_mask_mf     = config_reg[1];
assign cfg_busy        = busy;

assign m_key_valid  = (state_reg == S_KEY_SEND);
assign m_key_slot   = key_cmd_s;
assign m_key_aes256 = key_cmd_aes256;
// AES-128 keys sit in [255:128] (gcm_core DATA FORMATS); the rest is ignored
assign m_key_data   = key_data_reg;

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
    .cmd_sel(ctx_cfg_reg[0]),
    .cmd_match(ctx_match_reg),
    .cmd_mode(ctx_cfg_reg[6:4]),
    .cmd_sth_code(ctx_cfg_reg[10:8]),
    .cmd_dir(ctx_cfg_reg[12]),
    .cmd_key(ctx_cfg_reg[23:16]),
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
    .REASONS(34)
) u_counters (
    .clk(clk),
    .rst(rst),
    .inc_valid(cnt_valid),
    .inc_reason(cnt_reason),
    .clear(cnt_clear),
    .rd_index(reg_addr[8:3]),
    .rd_value(cnt_rd_value)
);

// ----------------------------------------------------------------------------
// Command check (docs/registers.md §3.4)
// ----------------------------------------------------------------------------
reg [3:0] cmd_err;

always @* begin
    cmd_err = ERR_NONE;
    case (kind_reg)
        K_KEY: begin
            if ({24'd0, key_cmd_slot} >= KEY_SLOTS) begin
                cmd_err = ERR_INDEX;
            end else if (key_cmd_op != KEY_OP_INSTALL && key_cmd_op != KEY_OP_CLEAR) begin
                cmd_err = ERR_OP;
            end
        end
        K_CTX: begin
            if ({24'd0, ctx_cmd_idx} >= CTX_SLOTS) begin
                cmd_err = ERR_INDEX;
            end else if (ctx_cmd_op < CTX_OP_WRITE || ctx_cmd_op > CTX_OP_READ) begin
                cmd_err = ERR_OP;
            end else if (ctx_cmd_op != CTX_OP_READ) begin
                cmd_err = tbl_cmd_err;
            end
        end
        default: begin
        end
    endcase
end

// ----------------------------------------------------------------------------
// Bus read multiplexer
// ----------------------------------------------------------------------------
reg [31:0] rd_word;
reg        rd_latch;      // a LO word of a live 64-bit register: latch its HI word
reg [31:0] rd_latch_hi;

always @* begin
    rd_word     = 32'd0;
    rd_latch    = 1'b0;
    rd_latch_hi = 32'd0;
    if (reg_addr[11:9] == A_CNT_TOP) begin
        // CNT_LO(r) at 0x400 + 8r, CNT_HI(r) at 0x404 + 8r
        if (reg_addr[2]) begin
            rd_word = hi_latch_reg;
        end else begin
            rd_word     = cnt_rd_value[31:0];
            rd_latch    = 1'b1;
            rd_latch_hi = cnt_rd_value[63:32];
        end
    end else if (waddr[9:3] == A_ALERT_SUM_TOP) begin
        case (waddr[2:0])
            3'd0: rd_word = alert_words[0*32 +: 32];
            3'd1: rd_word = alert_words[1*32 +: 32];
            3'd2: rd_word = alert_words[2*32 +: 32];
            3'd3: rd_word = alert_words[3*32 +: 32];
            3'd4: rd_word = alert_words[4*32 +: 32];
            3'd5: rd_word = alert_words[5*32 +: 32];
            3'd6: rd_word = alert_words[6*32 +: 32];
            default: rd_word = alert_words[7*32 +: 32];
        endcase
    end else begin
        case (waddr)
            A_ID:           rd_word = REG_ID_VALUE;
            A_VERSION:      rd_word = {15'd0, OPEN != 0, VERSION_MAJOR, VERSION_MINOR};
            A_CAPS:         rd_word = {CTX_SLOTS[15:0], KEY_SLOTS[15:0]};
            A_CONFIG:       rd_word = {30'd0, config_reg};
            A_STATUS:       rd_word = {15'd0, irq_alert, 4'd0, err_reg, 6'd0,
                                       err_reg != ERR_NONE, busy};
            A_DECIDED_LO: begin
                rd_word     = decided_reg[31:0];
                rd_latch    = 1'b1;
                rd_latch_hi = decided_reg[63:32];
            end
            A_DECIDED_HI:   rd_word = hi_latch_reg;
            A_CMD_DEC_LO: begin
                rd_word     = cmd_decided_reg[31:0];
                rd_latch    = 1'b1;
                rd_latch_hi = cmd_decided_reg[63:32];
            end
            A_CMD_DEC_HI:   rd_word = hi_latch_reg;
            A_KEY_SALT:     rd_word = key_salt_reg;
            A_KEY_CMD:      rd_word = key_cmd_reg;
            A_KEY_VALID:    rd_word = {{(32-KEY_SLOTS){1'b0}}, key_valid_reg};
            A_KEY_AES256:   rd_word = {{(32-KEY_SLOTS){1'b0}}, key_aes256_reg & key_valid_reg};
            A_CTX_MATCH:    rd_word = ctx_match_reg;
            A_CTX_CFG:      rd_word = ctx_cfg_reg;
            A_CTX_TX_LO:    rd_word = ctx_tx_reg[31:0];
            A_CTX_TX_HI:    rd_word = ctx_tx_reg[63:32];
            A_CTX_RX_LO:    rd_word = ctx_rx_reg[31:0];
            A_CTX_RX_HI:    rd_word = ctx_rx_reg[63:32];
            A_CTX_THRESH:   rd_word = ctx_thresh_reg;
            A_CTX_CMD:      rd_word = ctx_cmd_reg;
            A_RD_CFG:       rd_word = snap_cfg_reg;
            A_RD_MATCH:     rd_word = {8'd0, snap_match_reg};
            A_RD_TX_LO:     rd_word = snap_tx_reg[31:0];
            A_RD_TX_HI:     rd_word = snap_tx_reg[63:32];
            A_RD_RX_LO:     rd_word = snap_rx_reg[31:0];
            A_RD_RX_HI:     rd_word = snap_rx_reg[63:32];
            A_RD_BM_LO:     rd_word = snap_bm_reg[31:0];
            A_RD_BM_HI:     rd_word = snap_bm_reg[63:32];
            A_RD_FAIL:      rd_word = snap_fail_reg;
            A_RD_ALERT:     rd_word = {31'd0, snap_alert_reg};
            A_RD_ALERT_CNT: rd_word = snap_alert_cnt_reg;
            A_RD_THRESH:    rd_word = snap_thresh_reg;
            default: begin
                if (waddr[9:3] == A_KEY_DATA0[9:3]) begin
                    rd_word = key_data_word;
                end
            end
        endcase
    end
end

// ----------------------------------------------------------------------------
// Bus, staging registers and the command state machine
// ----------------------------------------------------------------------------
// a write that must wait for the running command: staging and command registers
wire wr_staging = (waddr == A_CONFIG) || (waddr[9:3] == A_KEY_DATA0[9:3])
                  || (waddr == A_KEY_SALT) || (waddr == A_KEY_CMD)
                  || (waddr >= A_CTX_MATCH && waddr <= A_CTX_CMD);
wire req_take   = reg_req && !ack_reg && !(reg_we && wr_staging && busy);

always @* begin
    ack_next            = 1'b0;
    rdata_next          = 32'd0;
    hi_latch_next       = hi_latch_reg;
    config_next         = config_reg;
    config_stage_next   = config_stage_reg;
    key_data_next       = key_data_reg;
    key_salt_next       = key_salt_reg;
    key_cmd_next        = key_cmd_reg;
    key_valid_next      = key_valid_reg;
    key_aes256_next     = key_aes256_reg;
    key_slot_salt_next  = key_slot_salt_reg;
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

    // ---- bus ----
    if (req_take) begin
        ack_next = 1'b1;
        if (!reg_we) begin
            rdata_next = rd_word;
            if (rd_latch) begin
                hi_latch_next = rd_latch_hi;
            end
        end else begin
            case (waddr)
                A_CONFIG: begin
                    config_stage_next = reg_wdata[1:0];
                    kind_next  = K_CONFIG;
                    state_next = S_DRAIN;
                end
                A_CNT_CTRL: begin
                    cnt_clear = reg_wdata[0];
                end
                A_KEY_SALT:   key_salt_next = reg_wdata;
                A_KEY_CMD: begin
                    key_cmd_next = reg_wdata;
                    kind_next    = K_KEY;
                    state_next   = S_DRAIN;
                end
                A_CTX_MATCH:  ctx_match_next = reg_wdata;
                A_CTX_CFG:    ctx_cfg_next = reg_wdata;
                A_CTX_TX_LO:  ctx_tx_next[31:0] = reg_wdata;
                A_CTX_TX_HI:  ctx_tx_next[63:32] = reg_wdata;
                A_CTX_RX_LO:  ctx_rx_next[31:0] = reg_wdata;
                A_CTX_RX_HI:  ctx_rx_next[63:32] = reg_wdata;
                A_CTX_THRESH: ctx_thresh_next = reg_wdata;
                A_CTX_CMD: begin
                    ctx_cmd_next = reg_wdata;
                    kind_next    = K_CTX;
                    state_next   = S_DRAIN;
                end
                default: begin
                    if (waddr[9:3] == A_KEY_DATA0[9:3]) begin
                        for (kw = 0; kw < 8; kw = kw + 1) begin
                            if (key_word == kw[2:0]) begin
                                key_data_next[kw*32 +: 32] = reg_wdata;
                            end
                        end
                    end
                end
            endcase
        end
    end

    // ---- commands ----
    case (state_reg)
        S_DRAIN: begin
            if (!pipe_busy && !tbl_inflight && drain_seen_reg) begin
                err_next         = cmd_err;
                cmd_decided_next = decided_reg;
                state_next       = S_IDLE;
                if (cmd_err == ERR_NONE) begin
                    case (kind_reg)
                        K_CONFIG: begin
                            config_next = config_stage_reg;
                        end
                        K_KEY: begin
                            if (key_cmd_op == KEY_OP_INSTALL) begin
                                state_next = S_KEY_SEND;
                            end else begin
                                key_valid_next[key_cmd_s]  = 1'b0;
                                key_aes256_next[key_cmd_s] = 1'b0;
                            end
                        end
                        default: begin
                            if (ctx_cmd_op == CTX_OP_READ) begin
                                snap_cfg_next       = {rd_valid, 7'd0, rd_key, 3'd0, rd_dir,
                                                       1'b0, rd_sth_code, 1'b0, rd_mode,
                                                       3'd0, rd_sel};
                                snap_match_next     = rd_match;
                                snap_tx_next        = rd_tx_next;
                                snap_rx_next        = rd_rx_next;
                                snap_bm_next        = rd_bitmap;
                                snap_fail_next      = rd_fail;
                                snap_alert_next     = rd_alert;
                                snap_alert_cnt_next = rd_alert_count;
                                snap_thresh_next    = rd_thresh;
                            end else begin
                                tbl_cmd_valid = ctx_cmd_op <= CTX_OP_CLEAR_AL;
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
            state_next = S_KEY_WAIT;
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
                state_next = S_IDLE;
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
    drain_seen_reg     <= (state_reg == S_DRAIN);
    kind_reg           <= kind_next;
    err_reg            <= err_next;
    decided_reg        <= decided_next;
    cmd_decided_reg    <= cmd_decided_next;

    if (rst) begin
        ack_reg         <= 1'b0;
        config_reg      <= 2'b00;
        key_valid_reg   <= {KEY_SLOTS{1'b0}};
        state_reg       <= S_IDLE;
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
