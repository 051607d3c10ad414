/*
 * ddpm_marker_axil — ddpm_marker with its marking configuration and per-outcome statistics in
 * registers behind an AXI4-Lite slave (axil_reg_bridge). The register map is
 * docs/registers.md §7 (rtl/switch/ddpm_marker_regs.rdl); §1 says what the AXI4-Lite side
 * does with each access, illegal ones included.
 *
 * Function
 *   CONFIG, FT_LEVEL, FT_ANCESTOR_LO/HI and RADIX drive ddpm_marker's cfg_* inputs. These
 *   are quasi-static (ddpm_marker header): software changes them only while no packet is
 *   inside the block. OUT_COUNT reads the statistics. The registers reset to 0.
 *
 * Latency / throughput
 *   Packets: ddpm_marker's. Registers: acknowledged one cycle after the request (the
 *   AXI4-Lite response three cycles after the access's address and data).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * DDPM packet marker, AXI4-Lite register interface
 */
module ddpm_marker_axil #(
    // 128-bit lanes per beat: 1, 4 or 12
    parameter LANES = 1,
    // data FIFO depth in beats: a power of two holding 8192 bytes (the longest PktLen)
    parameter FIFO_DEPTH = (LANES == 1) ? 512 : (LANES == 4) ? 128 : 64
) (
    input  wire                  clk,
    input  wire                  rst,

    /*
     * Packets in and out (AXI4-Stream; tuser: the hop, ddpm_marker header), status
     */
    input  wire [128*LANES-1:0]  s_axis_tdata,
    input  wire [16*LANES-1:0]   s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire [108:0]          s_axis_tuser,
    output wire [128*LANES-1:0]  m_axis_tdata,
    output wire [16*LANES-1:0]   m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  st_valid,
    output wire [3:0]            st_outcome,

    /*
     * Registers: AXI4-Lite slave
     */
    input  wire [11:0]           s_axil_awaddr,
    input  wire [2:0]            s_axil_awprot,
    input  wire                  s_axil_awvalid,
    output wire                  s_axil_awready,
    input  wire [31:0]           s_axil_wdata,
    input  wire [3:0]            s_axil_wstrb,
    input  wire                  s_axil_wvalid,
    output wire                  s_axil_wready,
    output wire [1:0]            s_axil_bresp,
    output wire                  s_axil_bvalid,
    input  wire                  s_axil_bready,
    input  wire [11:0]           s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready
);

// the register map (DDPM_REG_*, fields, decode): rtl/switch/ddpm_marker_regs.rdl
`include "ddpm_marker_regs_map.vh"

// ddpm_marker's radix entries and outcomes (enum ibsec_ddpm_out)
localparam N_RADIX = 19;
localparam N_OUT = 14;

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg                     ack_reg = 1'b0;
reg  [31:0]             rdata_reg = 32'd0;
reg  [1:0]              topo_reg = 2'd0;
reg  [5:0]              ndims_reg = 6'd0;
reg  [5:0]              w_reg = 6'd0;
reg  [5:0]              mf_bits_reg = 6'd0;
reg  [5:0]              ft_level_reg = 6'd0;
reg  [37:0]             ft_ancestor_reg = 38'd0;
reg  [N_RADIX*32-1:0]   radix_reg = {N_RADIX*32{1'b0}};

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire        reg_req, reg_we, reg_ack;
wire [11:0] reg_addr;
wire [31:0] reg_wdata, reg_rdata;
wire [11:0] baddr = {reg_addr[11:2], 2'b00};
// a request is taken in the cycle after its ack at the earliest (docs/registers.md §1)
wire        take = reg_req && !ack_reg;
wire [N_OUT*32-1:0] out_count;

assign reg_ack   = ack_reg;
assign reg_rdata = rdata_reg;

// ----------------------------------------------------------------------------
// AXI4-Lite to the register bus
// ----------------------------------------------------------------------------
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
    .dec_mapped     (ddpm_mapped(reg_addr)),
    .dec_writable   (ddpm_writable(reg_addr))
);

// ----------------------------------------------------------------------------
// The marker
// ----------------------------------------------------------------------------
ddpm_marker #(
    .LANES(LANES),
    .FIFO_DEPTH(FIFO_DEPTH)
) marker (
    .clk             (clk),
    .rst             (rst),
    .s_axis_tdata    (s_axis_tdata),
    .s_axis_tkeep    (s_axis_tkeep),
    .s_axis_tvalid   (s_axis_tvalid),
    .s_axis_tready   (s_axis_tready),
    .s_axis_tlast    (s_axis_tlast),
    .s_axis_tuser    (s_axis_tuser),
    .m_axis_tdata    (m_axis_tdata),
    .m_axis_tkeep    (m_axis_tkeep),
    .m_axis_tvalid   (m_axis_tvalid),
    .m_axis_tready   (m_axis_tready),
    .m_axis_tlast    (m_axis_tlast),
    .st_valid        (st_valid),
    .st_outcome      (st_outcome),
    .cfg_topo        (topo_reg),
    .cfg_ndims       (ndims_reg),
    .cfg_w           (w_reg),
    .cfg_mf_bits     (mf_bits_reg),
    .cfg_radix       (radix_reg),
    .cfg_ft_level    (ft_level_reg),
    .cfg_ft_ancestor (ft_ancestor_reg),
    .out_count       (out_count)
);

// ----------------------------------------------------------------------------
// Read multiplexer (AND-OR over the array entries)
// ----------------------------------------------------------------------------
reg [31:0] rd_word;
integer    i;

always @* begin
    rd_word = 32'd0;
    for (i = 0; i < N_OUT; i = i + 1) begin
        if (ddpm_in_out_count(reg_addr) && ddpm_idx_out_count(reg_addr) == i[3:0]) begin
            rd_word = out_count[i*32 +: 32];
        end
    end
    for (i = 0; i < N_RADIX; i = i + 1) begin
        if (ddpm_in_radix(reg_addr) && ddpm_idx_radix(reg_addr) == i[4:0]) begin
            rd_word = radix_reg[i*32 +: 32];
        end
    end
    case (baddr)
        DDPM_REG_ID:             rd_word = DDPM_ID_VALUE_RESET;
        DDPM_REG_CONFIG:         rd_word = ddpm_config_topo(topo_reg) | ddpm_config_ndims(ndims_reg)
                                           | ddpm_config_w(w_reg) | ddpm_config_mf_bits(mf_bits_reg);
        DDPM_REG_FT_LEVEL:       rd_word = ddpm_ft_level_level(ft_level_reg);
        DDPM_REG_FT_ANCESTOR_LO: rd_word = ft_ancestor_reg[31:0];
        DDPM_REG_FT_ANCESTOR_HI: rd_word = ddpm_ft_ancestor_hi_v(ft_ancestor_reg[37:32]);
        default: begin
        end
    endcase
end

// ----------------------------------------------------------------------------
// Register update
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    ack_reg   <= take;
    rdata_reg <= (take && !reg_we) ? rd_word : 32'd0;
    if (take && reg_we) begin
        case (baddr)
            DDPM_REG_CONFIG: begin
                topo_reg    <= reg_wdata[DDPM_CONFIG_TOPO_LSB +: 2];
                ndims_reg   <= reg_wdata[DDPM_CONFIG_NDIMS_LSB +: 6];
                w_reg       <= reg_wdata[DDPM_CONFIG_W_LSB +: 6];
                mf_bits_reg <= reg_wdata[DDPM_CONFIG_MF_BITS_LSB +: 6];
            end
            DDPM_REG_FT_LEVEL:       ft_level_reg <= reg_wdata[DDPM_FT_LEVEL_LEVEL_LSB +: 6];
            DDPM_REG_FT_ANCESTOR_LO: ft_ancestor_reg[31:0] <= reg_wdata;
            DDPM_REG_FT_ANCESTOR_HI: ft_ancestor_reg[37:32] <= reg_wdata[DDPM_FT_ANCESTOR_HI_V_LSB +: 6];
            default: begin
            end
        endcase
        for (i = 0; i < N_RADIX; i = i + 1) begin
            if (ddpm_in_radix(reg_addr) && ddpm_idx_radix(reg_addr) == i[4:0]) begin
                radix_reg[i*32 +: 32] <= reg_wdata;
            end
        end
    end

    if (rst) begin
        ack_reg         <= 1'b0;
        rdata_reg       <= 32'd0;
        topo_reg        <= 2'd0;
        ndims_reg       <= 6'd0;
        w_reg           <= 6'd0;
        mf_bits_reg     <= 6'd0;
        ft_level_reg    <= 6'd0;
        ft_ancestor_reg <= 38'd0;
        radix_reg       <= {N_RADIX*32{1'b0}};
    end
end

endmodule

`resetall
