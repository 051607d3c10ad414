/*
 * ibsec_open — the ibsec open (receive) engine: wire packet in, plain packet out or drop (docs/wire-format.md §8):
 * ibsec_engine with OPEN = 1. Ports, function, latency and throughput are those of
 * ibsec_engine (docs/packet-engine.md); this wrapper adds no logic.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * ibsec open engine
 */
module ibsec_open #(
    // 128-bit blocks per beat (1, 4, 12)
    parameter LANES = 1,
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
     * Packet input (tuser: link, 0 native IBA, 1 RoCEv2)
     */
    input  wire [128*LANES-1:0] s_axis_tdata,
    input  wire [16*LANES-1:0]  s_axis_tkeep,
    input  wire                 s_axis_tvalid,
    output wire                 s_axis_tready,
    input  wire                 s_axis_tlast,
    input  wire                 s_axis_tuser,

    /*
     * Packet output
     */
    output wire [128*LANES-1:0] m_axis_tdata,
    output wire [16*LANES-1:0]  m_axis_tkeep,
    output wire                 m_axis_tvalid,
    input  wire                 m_axis_tready,
    output wire                 m_axis_tlast,
    output wire                 m_axis_tuser,

    /*
     * Status
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

ibsec_engine #(
    .LANES            (LANES),
    .OPEN             (1),
    .KEY_SLOTS        (KEY_SLOTS),
    .CTX_SLOTS        (CTX_SLOTS),
    .STAGES_PER_ROUND (STAGES_PER_ROUND),
    .SBOX_IMPL        (SBOX_IMPL)
) engine (
    .clk           (clk),
    .rst           (rst),
    .s_axis_tdata  (s_axis_tdata),
    .s_axis_tkeep  (s_axis_tkeep),
    .s_axis_tvalid (s_axis_tvalid),
    .s_axis_tready (s_axis_tready),
    .s_axis_tlast  (s_axis_tlast),
    .s_axis_tuser  (s_axis_tuser),
    .m_axis_tdata  (m_axis_tdata),
    .m_axis_tkeep  (m_axis_tkeep),
    .m_axis_tvalid (m_axis_tvalid),
    .m_axis_tready (m_axis_tready),
    .m_axis_tlast  (m_axis_tlast),
    .m_axis_tuser  (m_axis_tuser),
    .st_valid      (st_valid),
    .st_reason     (st_reason),
    .st_ctx_hit    (st_ctx_hit),
    .st_ctx        (st_ctx),
    .st_mode       (st_mode),
    .st_epsn       (st_epsn),
    .st_alert      (st_alert),
    .reg_req       (reg_req),
    .reg_we        (reg_we),
    .reg_addr      (reg_addr),
    .reg_wdata     (reg_wdata),
    .reg_ack       (reg_ack),
    .reg_rdata     (reg_rdata),
    .irq_alert     (irq_alert)
);

endmodule

`resetall
