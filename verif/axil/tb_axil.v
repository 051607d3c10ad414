/*
 * tb_axil — Verilator top of the AXI4-Lite register bench (verif/axil/): the seal engine
 * (ibsec_seal_axil), the SIF filter (sif_filter_axil) and the DDPM marker (ddpm_marker_axil)
 * at LANES = 1, each with its AXI4-Lite slave brought out unchanged (prefixes e_, s_, d_),
 * their packet streams idle (no input, output always ready). The C harness tb_axil.c drives
 * the three slaves; this top adds no logic.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_axil #(
    // seal engine tables
    parameter KEY_SLOTS = 4,
    parameter CTX_SLOTS = 8
) (
    input  wire        clk,
    input  wire        rst,
    // seal engine: AXI4-Lite
    input  wire [11:0]  e_axil_awaddr,
    input  wire [2:0]   e_axil_awprot,
    input  wire         e_axil_awvalid,
    output wire         e_axil_awready,
    input  wire [31:0]  e_axil_wdata,
    input  wire [3:0]   e_axil_wstrb,
    input  wire         e_axil_wvalid,
    output wire         e_axil_wready,
    output wire [1:0]   e_axil_bresp,
    output wire         e_axil_bvalid,
    input  wire         e_axil_bready,
    input  wire [11:0]  e_axil_araddr,
    input  wire [2:0]   e_axil_arprot,
    input  wire         e_axil_arvalid,
    output wire         e_axil_arready,
    output wire [31:0]  e_axil_rdata,
    output wire [1:0]   e_axil_rresp,
    output wire         e_axil_rvalid,
    input  wire         e_axil_rready,
    // SIF filter: AXI4-Lite
    input  wire [11:0]  s_axil_awaddr,
    input  wire [2:0]   s_axil_awprot,
    input  wire         s_axil_awvalid,
    output wire         s_axil_awready,
    input  wire [31:0]  s_axil_wdata,
    input  wire [3:0]   s_axil_wstrb,
    input  wire         s_axil_wvalid,
    output wire         s_axil_wready,
    output wire [1:0]   s_axil_bresp,
    output wire         s_axil_bvalid,
    input  wire         s_axil_bready,
    input  wire [11:0]  s_axil_araddr,
    input  wire [2:0]   s_axil_arprot,
    input  wire         s_axil_arvalid,
    output wire         s_axil_arready,
    output wire [31:0]  s_axil_rdata,
    output wire [1:0]   s_axil_rresp,
    output wire         s_axil_rvalid,
    input  wire         s_axil_rready,
    // DDPM marker: AXI4-Lite
    input  wire [11:0]  d_axil_awaddr,
    input  wire [2:0]   d_axil_awprot,
    input  wire         d_axil_awvalid,
    output wire         d_axil_awready,
    input  wire [31:0]  d_axil_wdata,
    input  wire [3:0]   d_axil_wstrb,
    input  wire         d_axil_wvalid,
    output wire         d_axil_wready,
    output wire [1:0]   d_axil_bresp,
    output wire         d_axil_bvalid,
    input  wire         d_axil_bready,
    input  wire [11:0]  d_axil_araddr,
    input  wire [2:0]   d_axil_arprot,
    input  wire         d_axil_arvalid,
    output wire         d_axil_arready,
    output wire [31:0]  d_axil_rdata,
    output wire [1:0]   d_axil_rresp,
    output wire         d_axil_rvalid,
    input  wire         d_axil_rready
);

// idle packet streams: nothing in, output always taken
/* verilator lint_off PINCONNECTEMPTY */
ibsec_seal_axil #(
    .LANES(1),
    .KEY_SLOTS(KEY_SLOTS),
    .CTX_SLOTS(CTX_SLOTS)
) seal (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(128'd0),
    .s_axis_tkeep(16'd0),
    .s_axis_tvalid(1'b0),
    .s_axis_tready(),
    .s_axis_tlast(1'b0),
    .s_axis_tuser(1'b0),
    .m_axis_tdata(),
    .m_axis_tkeep(),
    .m_axis_tvalid(),
    .m_axis_tready(1'b1),
    .m_axis_tlast(),
    .m_axis_tuser(),
    .st_valid(),
    .st_reason(),
    .st_ctx_hit(),
    .st_ctx(),
    .st_mode(),
    .st_epsn(),
    .st_alert(),
    .s_axil_awaddr  (e_axil_awaddr),
    .s_axil_awprot  (e_axil_awprot),
    .s_axil_awvalid (e_axil_awvalid),
    .s_axil_awready (e_axil_awready),
    .s_axil_wdata   (e_axil_wdata),
    .s_axil_wstrb   (e_axil_wstrb),
    .s_axil_wvalid  (e_axil_wvalid),
    .s_axil_wready  (e_axil_wready),
    .s_axil_bresp   (e_axil_bresp),
    .s_axil_bvalid  (e_axil_bvalid),
    .s_axil_bready  (e_axil_bready),
    .s_axil_araddr  (e_axil_araddr),
    .s_axil_arprot  (e_axil_arprot),
    .s_axil_arvalid (e_axil_arvalid),
    .s_axil_arready (e_axil_arready),
    .s_axil_rdata   (e_axil_rdata),
    .s_axil_rresp   (e_axil_rresp),
    .s_axil_rvalid  (e_axil_rvalid),
    .s_axil_rready  (e_axil_rready),
    .irq_alert()
);

sif_filter_axil #(
    .LANES(1)
) sif (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(128'd0),
    .s_axis_tkeep(16'd0),
    .s_axis_tvalid(1'b0),
    .s_axis_tready(),
    .s_axis_tlast(1'b0),
    .m_axis_tdata(),
    .m_axis_tkeep(),
    .m_axis_tvalid(),
    .m_axis_tready(1'b1),
    .m_axis_tlast(),
    .st_valid(),
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
    .st_outcome()
);

ddpm_marker_axil #(
    .LANES(1)
) ddpm (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(128'd0),
    .s_axis_tkeep(16'd0),
    .s_axis_tvalid(1'b0),
    .s_axis_tready(),
    .s_axis_tlast(1'b0),
    .s_axis_tuser(109'd0),
    .m_axis_tdata(),
    .m_axis_tkeep(),
    .m_axis_tvalid(),
    .m_axis_tready(1'b1),
    .m_axis_tlast(),
    .st_valid(),
    .s_axil_awaddr  (d_axil_awaddr),
    .s_axil_awprot  (d_axil_awprot),
    .s_axil_awvalid (d_axil_awvalid),
    .s_axil_awready (d_axil_awready),
    .s_axil_wdata   (d_axil_wdata),
    .s_axil_wstrb   (d_axil_wstrb),
    .s_axil_wvalid  (d_axil_wvalid),
    .s_axil_wready  (d_axil_wready),
    .s_axil_bresp   (d_axil_bresp),
    .s_axil_bvalid  (d_axil_bvalid),
    .s_axil_bready  (d_axil_bready),
    .s_axil_araddr  (d_axil_araddr),
    .s_axil_arprot  (d_axil_arprot),
    .s_axil_arvalid (d_axil_arvalid),
    .s_axil_arready (d_axil_arready),
    .s_axil_rdata   (d_axil_rdata),
    .s_axil_rresp   (d_axil_rresp),
    .s_axil_rvalid  (d_axil_rvalid),
    .s_axil_rready  (d_axil_rready),
    .st_outcome()
);
/* verilator lint_on PINCONNECTEMPTY */

endmodule

`resetall
