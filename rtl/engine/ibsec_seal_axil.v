/*
 * ibsec_seal_axil — the ibsec seal (transmit) engine with its register block behind an
 * AXI4-Lite slave: ibsec_seal and axil_reg_bridge. The register map is docs/registers.md §3
 * (rtl/engine/ibsec_regs.rdl); §1 says what the AXI4-Lite side does with each access,
 * illegal ones included. Packet ports, function, latency and throughput are
 * ibsec_seal's; register accesses take axil_reg_bridge's two cycles more than the
 * request/acknowledge bus.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * ibsec seal engine, AXI4-Lite register interface
 */
module ibsec_seal_axil #(
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
     * Registers: AXI4-Lite slave (docs/registers.md §1)
     */
    input  wire [11:0]          s_axil_awaddr,
    input  wire [2:0]           s_axil_awprot,
    input  wire                 s_axil_awvalid,
    output wire                 s_axil_awready,
    input  wire [31:0]          s_axil_wdata,
    input  wire [3:0]           s_axil_wstrb,
    input  wire                 s_axil_wvalid,
    output wire                 s_axil_wready,
    output wire [1:0]           s_axil_bresp,
    output wire                 s_axil_bvalid,
    input  wire                 s_axil_bready,
    input  wire [11:0]          s_axil_araddr,
    input  wire [2:0]           s_axil_arprot,
    input  wire                 s_axil_arvalid,
    output wire                 s_axil_arready,
    output wire [31:0]          s_axil_rdata,
    output wire [1:0]           s_axil_rresp,
    output wire                 s_axil_rvalid,
    input  wire                 s_axil_rready,
    output wire                 irq_alert
);

// the register map's address decode (ibsec_mapped, ibsec_writable)
`include "ibsec_regs_map.vh"

wire        reg_req;
wire        reg_we;
wire [11:0] reg_addr;
wire [31:0] reg_wdata;
wire        reg_ack;
wire [31:0] reg_rdata;

axil_reg_bridge #(
    .ADDR_WIDTH(12)
) bridge (
    .clk            (clk),
    .rst            (rst),
    .s_axil_awaddr  (s_axil_awaddr),
    .s_axil_awprot  (s_axil_awprot),
    .s_axil_awvalid (s_axil_awvalid),
    .s_axil_awready (s_axil_awready),
    .s_axil_wdata   (s_axil_wdata),
    .s_axil_wstrb   (s_axil_wstrb),
    .s_axil_wvalid  (s_axil_wvalid),
    .s_axil_wready  (s_axil_wready),
    .s_axil_bresp   (s_axil_bresp),
    .s_axil_bvalid  (s_axil_bvalid),
    .s_axil_bready  (s_axil_bready),
    .s_axil_araddr  (s_axil_araddr),
    .s_axil_arprot  (s_axil_arprot),
    .s_axil_arvalid (s_axil_arvalid),
    .s_axil_arready (s_axil_arready),
    .s_axil_rdata   (s_axil_rdata),
    .s_axil_rresp   (s_axil_rresp),
    .s_axil_rvalid  (s_axil_rvalid),
    .s_axil_rready  (s_axil_rready),
    .m_reg_req      (reg_req),
    .m_reg_we       (reg_we),
    .m_reg_addr     (reg_addr),
    .m_reg_wdata    (reg_wdata),
    .m_reg_ack      (reg_ack),
    .m_reg_rdata    (reg_rdata),
    .dec_mapped     (ibsec_mapped(reg_addr)),
    .dec_writable   (ibsec_writable(reg_addr))
);

ibsec_seal #(
    .LANES            (LANES),
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
