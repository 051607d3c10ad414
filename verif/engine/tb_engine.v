/*
 * tb_engine — Verilator top of the packet-engine bench (verif/engine/): one seal instance
 * (OPEN = 0, endpoint A's tables) and one open instance (OPEN = 1, endpoint B = A's peer)
 * of rtl/engine/ibsec_engine.v, side by side on one clock, each with its own AXI4-Stream input and
 * output, status port, register bus and alert interrupt brought out unchanged, so that the
 * C harness (tb_engine.c) drives exactly the ports of the engine contract.
 *
 * Resets: rst resets both instances; seal_rst / open_rst reset one of them (the harness
 * uses them to reset an instance in the middle of a packet while the other runs on).
 * Byte order: as the engine, byte 0 of a frame in tdata[7:0].
 * Latency and throughput: those of ibsec_engine; this top adds no logic but the reset OR
 * and the white-box ring checks below.
 *
 * White-box ring checks (seal_ring_bad, open_ring_bad; the harness fails a run that sees
 * one high): in each instance's input ring and crypt ring the beats from the free
 * pointer to the write pointer are the written ones, and no beat is freed before it is
 * written: counted from the free pointer, the write pointer is never behind it (the
 * difference never exceeds the allocated beats, crypt ring, or the ring, input ring).
 * A drop that freed a message gcm_core still writes (open, whose tag comes before its
 * plaintext; seal icrc-mac) breaks this at once, before any output could show it.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_engine #(
    // 128-bit blocks per beat (1, 4 or 12)
    parameter LANES = 1,
    // key table entries of each instance
    parameter KEY_SLOTS = 4,
    // context table entries of each instance
    parameter CTX_SLOTS = 16,
    // gcm_core's configuration (ibsec_engine's parameters of the same names; engine.mk
    // builds with ENGINE_CRYPTO_PARAMS, the configuration make fpga routes)
    parameter STAGES_PER_ROUND = 1,
    parameter SBOX_IMPL = 0,
    // width of a context index
    parameter CTX_W = $clog2(CTX_SLOTS)
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 seal_rst,
    input  wire                 open_rst,
    // white-box checks (header above)
    output wire                 seal_ring_bad,
    output wire                 open_ring_bad,
    // ---- seal instance: packet in
    input  wire [128*LANES-1:0] seal_s_axis_tdata,
    input  wire [16*LANES-1:0]  seal_s_axis_tkeep,
    input  wire                 seal_s_axis_tvalid,
    output wire                 seal_s_axis_tready,
    input  wire                 seal_s_axis_tlast,
    input  wire                 seal_s_axis_tuser,
    // packet out
    output wire [128*LANES-1:0] seal_m_axis_tdata,
    output wire [16*LANES-1:0]  seal_m_axis_tkeep,
    output wire                 seal_m_axis_tvalid,
    input  wire                 seal_m_axis_tready,
    output wire                 seal_m_axis_tlast,
    output wire                 seal_m_axis_tuser,
    // status
    output wire                 seal_st_valid,
    output wire [5:0]           seal_st_reason,
    output wire                 seal_st_ctx_hit,
    output wire [CTX_W-1:0]     seal_st_ctx,
    output wire [2:0]           seal_st_mode,
    output wire [62:0]          seal_st_epsn,
    output wire                 seal_st_alert,
    // register bus
    input  wire                 seal_reg_req,
    input  wire                 seal_reg_we,
    input  wire [11:0]          seal_reg_addr,
    input  wire [31:0]          seal_reg_wdata,
    output wire                 seal_reg_ack,
    output wire [31:0]          seal_reg_rdata,
    output wire                 seal_irq_alert,
    // ---- open instance: packet in
    input  wire [128*LANES-1:0] open_s_axis_tdata,
    input  wire [16*LANES-1:0]  open_s_axis_tkeep,
    input  wire                 open_s_axis_tvalid,
    output wire                 open_s_axis_tready,
    input  wire                 open_s_axis_tlast,
    input  wire                 open_s_axis_tuser,
    // packet out
    output wire [128*LANES-1:0] open_m_axis_tdata,
    output wire [16*LANES-1:0]  open_m_axis_tkeep,
    output wire                 open_m_axis_tvalid,
    input  wire                 open_m_axis_tready,
    output wire                 open_m_axis_tlast,
    output wire                 open_m_axis_tuser,
    // status
    output wire                 open_st_valid,
    output wire [5:0]           open_st_reason,
    output wire                 open_st_ctx_hit,
    output wire [CTX_W-1:0]     open_st_ctx,
    output wire [2:0]           open_st_mode,
    output wire [62:0]          open_st_epsn,
    output wire                 open_st_alert,
    // register bus
    input  wire                 open_reg_req,
    input  wire                 open_reg_we,
    input  wire [11:0]          open_reg_addr,
    input  wire [31:0]          open_reg_wdata,
    output wire                 open_reg_ack,
    output wire [31:0]          open_reg_rdata,
    output wire                 open_irq_alert
);

// seal: OPEN = 0
ibsec_engine #(
    .LANES     (LANES),
    .OPEN      (0),
    .KEY_SLOTS (KEY_SLOTS),
    .CTX_SLOTS (CTX_SLOTS),
    .STAGES_PER_ROUND (STAGES_PER_ROUND),
    .SBOX_IMPL (SBOX_IMPL)
) seal_engine (
    .clk           (clk),
    .rst           (rst | seal_rst),
    .s_axis_tdata  (seal_s_axis_tdata),
    .s_axis_tkeep  (seal_s_axis_tkeep),
    .s_axis_tvalid (seal_s_axis_tvalid),
    .s_axis_tready (seal_s_axis_tready),
    .s_axis_tlast  (seal_s_axis_tlast),
    .s_axis_tuser  (seal_s_axis_tuser),
    .m_axis_tdata  (seal_m_axis_tdata),
    .m_axis_tkeep  (seal_m_axis_tkeep),
    .m_axis_tvalid (seal_m_axis_tvalid),
    .m_axis_tready (seal_m_axis_tready),
    .m_axis_tlast  (seal_m_axis_tlast),
    .m_axis_tuser  (seal_m_axis_tuser),
    .st_valid      (seal_st_valid),
    .st_reason     (seal_st_reason),
    .st_ctx_hit    (seal_st_ctx_hit),
    .st_ctx        (seal_st_ctx),
    .st_mode       (seal_st_mode),
    .st_epsn       (seal_st_epsn),
    .st_alert      (seal_st_alert),
    .reg_req       (seal_reg_req),
    .reg_we        (seal_reg_we),
    .reg_addr      (seal_reg_addr),
    .reg_wdata     (seal_reg_wdata),
    .reg_ack       (seal_reg_ack),
    .reg_rdata     (seal_reg_rdata),
    .irq_alert     (seal_irq_alert)
);

assign seal_ring_bad =
    (seal_engine.cw - seal_engine.cf) > (seal_engine.ca - seal_engine.cf) ||
    (seal_engine.wp - seal_engine.fp) > seal_engine.RING_BEATS;
assign open_ring_bad =
    (open_engine.cw - open_engine.cf) > (open_engine.ca - open_engine.cf) ||
    (open_engine.wp - open_engine.fp) > open_engine.RING_BEATS;

// open: OPEN = 1
ibsec_engine #(
    .LANES     (LANES),
    .OPEN      (1),
    .KEY_SLOTS (KEY_SLOTS),
    .CTX_SLOTS (CTX_SLOTS),
    .STAGES_PER_ROUND (STAGES_PER_ROUND),
    .SBOX_IMPL (SBOX_IMPL)
) open_engine (
    .clk           (clk),
    .rst           (rst | open_rst),
    .s_axis_tdata  (open_s_axis_tdata),
    .s_axis_tkeep  (open_s_axis_tkeep),
    .s_axis_tvalid (open_s_axis_tvalid),
    .s_axis_tready (open_s_axis_tready),
    .s_axis_tlast  (open_s_axis_tlast),
    .s_axis_tuser  (open_s_axis_tuser),
    .m_axis_tdata  (open_m_axis_tdata),
    .m_axis_tkeep  (open_m_axis_tkeep),
    .m_axis_tvalid (open_m_axis_tvalid),
    .m_axis_tready (open_m_axis_tready),
    .m_axis_tlast  (open_m_axis_tlast),
    .m_axis_tuser  (open_m_axis_tuser),
    .st_valid      (open_st_valid),
    .st_reason     (open_st_reason),
    .st_ctx_hit    (open_st_ctx_hit),
    .st_ctx        (open_st_ctx),
    .st_mode       (open_st_mode),
    .st_epsn       (open_st_epsn),
    .st_alert      (open_st_alert),
    .reg_req       (open_reg_req),
    .reg_we        (open_reg_we),
    .reg_addr      (open_reg_addr),
    .reg_wdata     (open_reg_wdata),
    .reg_ack       (open_reg_ack),
    .reg_rdata     (open_reg_rdata),
    .irq_alert     (open_irq_alert)
);

endmodule

`resetall
