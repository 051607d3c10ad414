/*
 * sif_filter_axil — sif_filter with its configuration, the SM's table write and its state and
 * statistics in registers behind an AXI4-Lite slave (axil_reg_bridge). The register map is
 * docs/registers.md §6 (rtl/switch/sif_filter_regs.rdl); §1 says what the AXI4-Lite side
 * does with each access, illegal ones included.
 *
 * Function
 *   N_VALID, QUIET_TICKS and VALID_KEY drive sif_filter's level inputs cfg_n_valid,
 *   cfg_quiet_ticks and cfg_valid_keys: a write acts from the cycle after it is performed,
 *   as a change of those inputs does (sif_filter header). A write to INSTALL is the SM write
 *   (inst_valid with inst_pkey, in the cycle the write is performed); its outcome is in
 *   INSTALL_RESULT by the time the write's response is given. The other registers read
 *   sif_filter's port state and statistics outputs. All registers are reset to the values of
 *   the map (0); sif_filter's own state is reset with them.
 *
 * Latency / throughput
 *   Packets: sif_filter's. Registers: acknowledged one cycle after the request (the
 *   AXI4-Lite response three cycles after the access's address and data).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * SIF ingress filter, AXI4-Lite register interface
 */
module sif_filter_axil #(
    // 128-bit lanes per beat: 1, 4 or 12
    parameter LANES = 1,
    // data FIFO depth in beats (power of two >= 8)
    parameter FIFO_DEPTH = 8
) (
    input  wire                  clk,
    input  wire                  rst,

    /*
     * Packets in and forwarded packets out (AXI4-Stream), per-packet status
     */
    input  wire [128*LANES-1:0]  s_axis_tdata,
    input  wire [16*LANES-1:0]   s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    output wire [128*LANES-1:0]  m_axis_tdata,
    output wire [16*LANES-1:0]   m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  st_valid,
    output wire [2:0]            st_outcome,

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

// the register map (SIF_REG_*, fields, decode): rtl/switch/sif_filter_regs.rdl
`include "sif_filter_regs_map.vh"

// IBSEC_SIF_VALID_MAX and IBSEC_SIF_INVALID_MAX of cmodel/sif.h (sif_filter's tables)
localparam VALID_MAX = 32;
localparam INVALID_MAX = 16;
localparam N_OUT = 7;

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg                      ack_reg = 1'b0;
reg  [31:0]              rdata_reg = 32'd0;
reg  [5:0]               n_valid_reg = 6'd0;
reg  [31:0]              quiet_reg = 32'd0;
reg  [VALID_MAX*16-1:0]  valid_keys_reg = {VALID_MAX*16{1'b0}};
reg  [2:0]               inst_result_reg = 3'd0;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire        reg_req, reg_we, reg_ack;
wire [11:0] reg_addr;
wire [31:0] reg_wdata, reg_rdata;
wire [11:0] baddr = {reg_addr[11:2], 2'b00};
// a request is taken in the cycle after its ack at the earliest (docs/registers.md §1)
wire        take = reg_req && !ack_reg;

wire                     inst_done;
wire [2:0]               inst_outcome;
wire                     filtering, use_valid_table;
wire [4:0]               n_invalid;
wire [INVALID_MAX*16-1:0] invalid_keys;
wire [31:0]              violations, quiet_left, lookups, flushes;
wire [N_OUT*32-1:0]      out_count;

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
    .dec_mapped     (sif_mapped(reg_addr)),
    .dec_writable   (sif_writable(reg_addr))
);

// ----------------------------------------------------------------------------
// The filter
// ----------------------------------------------------------------------------
sif_filter #(
    .LANES(LANES),
    .FIFO_DEPTH(FIFO_DEPTH)
) filter (
    .clk             (clk),
    .rst             (rst),
    .s_axis_tdata    (s_axis_tdata),
    .s_axis_tkeep    (s_axis_tkeep),
    .s_axis_tvalid   (s_axis_tvalid),
    .s_axis_tready   (s_axis_tready),
    .s_axis_tlast    (s_axis_tlast),
    .m_axis_tdata    (m_axis_tdata),
    .m_axis_tkeep    (m_axis_tkeep),
    .m_axis_tvalid   (m_axis_tvalid),
    .m_axis_tready   (m_axis_tready),
    .m_axis_tlast    (m_axis_tlast),
    .st_valid        (st_valid),
    .st_outcome      (st_outcome),
    .inst_valid      (take && reg_we && baddr == SIF_REG_INSTALL),
    .inst_pkey       (reg_wdata[SIF_INSTALL_PKEY_LSB +: 16]),
    .inst_done       (inst_done),
    .inst_outcome    (inst_outcome),
    .cfg_valid_keys  (valid_keys_reg),
    .cfg_n_valid     (n_valid_reg),
    .cfg_quiet_ticks (quiet_reg),
    .filtering       (filtering),
    .use_valid_table (use_valid_table),
    .n_invalid       (n_invalid),
    .invalid_keys    (invalid_keys),
    .violations      (violations),
    .quiet_left      (quiet_left),
    .out_count       (out_count),
    .lookups         (lookups),
    .flushes         (flushes)
);

// ----------------------------------------------------------------------------
// Read multiplexer (AND-OR over the array entries)
// ----------------------------------------------------------------------------
reg [31:0] rd_word;
integer    i;

always @* begin
    rd_word = 32'd0;
    for (i = 0; i < N_OUT; i = i + 1) begin
        if (sif_in_out_count(reg_addr) && sif_idx_out_count(reg_addr) == i[2:0]) begin
            rd_word = out_count[i*32 +: 32];
        end
    end
    for (i = 0; i < INVALID_MAX; i = i + 1) begin
        if (sif_in_invalid_key(reg_addr) && sif_idx_invalid_key(reg_addr) == i[3:0]) begin
            rd_word = sif_invalid_key_pkey(invalid_keys[i*16 +: 16]);
        end
    end
    for (i = 0; i < VALID_MAX; i = i + 1) begin
        if (sif_in_valid_key(reg_addr) && sif_idx_valid_key(reg_addr) == i[4:0]) begin
            rd_word = sif_valid_key_pkey(valid_keys_reg[i*16 +: 16]);
        end
    end
    case (baddr)
        SIF_REG_ID:             rd_word = SIF_ID_VALUE_RESET;
        SIF_REG_CAPS:           rd_word = sif_caps_valid_max(SIF_CAPS_VALID_MAX_RESET)
                                          | sif_caps_invalid_max(SIF_CAPS_INVALID_MAX_RESET);
        SIF_REG_N_VALID:        rd_word = sif_n_valid_n(n_valid_reg);
        SIF_REG_QUIET_TICKS:    rd_word = quiet_reg;
        SIF_REG_INSTALL_RESULT: rd_word = sif_install_result_outcome(inst_result_reg);
        SIF_REG_STATE:          rd_word = sif_state_filtering(filtering)
                                          | sif_state_use_valid_table(use_valid_table)
                                          | sif_state_n_invalid(n_invalid);
        SIF_REG_VIOLATIONS:     rd_word = violations;
        SIF_REG_QUIET_LEFT:     rd_word = quiet_left;
        SIF_REG_LOOKUPS:        rd_word = lookups;
        SIF_REG_FLUSHES:        rd_word = flushes;
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
            SIF_REG_N_VALID:     n_valid_reg <= reg_wdata[SIF_N_VALID_N_LSB +: 6];
            SIF_REG_QUIET_TICKS: quiet_reg <= reg_wdata;
            default: begin
            end
        endcase
        for (i = 0; i < VALID_MAX; i = i + 1) begin
            if (sif_in_valid_key(reg_addr) && sif_idx_valid_key(reg_addr) == i[4:0]) begin
                valid_keys_reg[i*16 +: 16] <= reg_wdata[SIF_VALID_KEY_PKEY_LSB +: 16];
            end
        end
    end
    if (inst_done) begin
        inst_result_reg <= inst_outcome;
    end

    if (rst) begin
        ack_reg         <= 1'b0;
        rdata_reg       <= 32'd0;
        n_valid_reg     <= 6'd0;
        quiet_reg       <= 32'd0;
        valid_keys_reg  <= {VALID_MAX*16{1'b0}};
        inst_result_reg <= 3'd0;
    end
end

endmodule

`resetall
