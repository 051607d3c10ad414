/*
 * axil_reg_bridge — an AXI4-Lite slave in front of ibsec's request/acknowledge register bus
 * (docs/registers.md §1): each AXI4-Lite access becomes one request, or is refused with
 * SLVERR without one.
 *
 * Function
 *   The write address and write data channels are taken independently (either may come
 *   first, in any cycle); the read address channel is taken beside them. One access is
 *   performed at a time: a write once both its address and its data are in, a read once its
 *   address is in; when a write and a read are both ready they take turns. An access is
 *   refused, with SLVERR and no request, when its address is not 4-byte aligned, when no
 *   register is there (dec_mapped low), for a write when no field of the register may be
 *   written (dec_writable low) or when WSTRB is not 4'b1111 (registers are whole words). A
 *   refused read returns RDATA 0. Otherwise the request is offered on m_reg_* and held
 *   until m_reg_ack; the response (OKAY, with the read data) follows in the next cycle and
 *   is held until the master takes it. The next access of the same direction starts once
 *   the response has been taken. AWPROT and ARPROT are not used.
 *
 *   Decode: dec_mapped and dec_writable are the decode of m_reg_addr in the same cycle
 *   (the including block's generated <map>_mapped() / <map>_writable() functions).
 *   m_reg_addr holds the address of the access being started or performed.
 *
 *   A register block that holds a request (ibsec_regs holds a write to a staging register
 *   while a command runs) holds the response: the AXI4-Lite master sees the write complete
 *   when the register block has performed it.
 *
 * Latency / throughput
 *   An access whose address (and data) arrive in cycle t is requested in t + 1, answered
 *   by a register block with a one-cycle ack in t + 2 and responded in t + 3 (a block that
 *   acknowledges later answers later: ibsec_regs acknowledges a write two cycles and a read
 *   three cycles after its request, so those are responded in t + 4 and t + 5); a refused
 *   access is responded in t + 2. One access at a time; a new address or data word of the
 *   same direction is taken while the previous access's response is pending.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * AXI4-Lite slave to request/acknowledge register bus
 */
module axil_reg_bridge #(
    // byte address width of the register block (4 KiB window: 12)
    parameter ADDR_WIDTH = 12
) (
    input  wire                  clk,
    input  wire                  rst,

    /*
     * AXI4-Lite slave
     */
    input  wire [ADDR_WIDTH-1:0] s_axil_awaddr,
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
    input  wire [ADDR_WIDTH-1:0] s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready,

    /*
     * Register bus (docs/registers.md §1) and the decode of its address
     */
    output wire                  m_reg_req,
    output wire                  m_reg_we,
    output wire [ADDR_WIDTH-1:0] m_reg_addr,
    output wire [31:0]           m_reg_wdata,
    input  wire                  m_reg_ack,
    input  wire [31:0]           m_reg_rdata,
    input  wire                  dec_mapped,
    input  wire                  dec_writable
);

// ----------------------------------------------------------------------------
// Constants
// ----------------------------------------------------------------------------
// AXI4 response codes (AMBA AXI IHI 0022, RRESP / BRESP)
localparam [1:0] RESP_OKAY   = 2'b00;
localparam [1:0] RESP_SLVERR = 2'b10;

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// taken address / data, waiting for their access
reg                  aw_full_reg = 1'b0, aw_full_next;
reg [ADDR_WIDTH-1:0] aw_addr_reg, aw_addr_next;
reg                  w_full_reg = 1'b0, w_full_next;
reg [31:0]           w_data_reg, w_data_next;
reg [3:0]            w_strb_reg, w_strb_next;
reg                  ar_full_reg = 1'b0, ar_full_next;
reg [ADDR_WIDTH-1:0] ar_addr_reg, ar_addr_next;

// the access on the register bus
reg                  busy_reg = 1'b0, busy_next;
reg                  busy_we_reg = 1'b0, busy_we_next;
reg                  last_we_reg = 1'b0, last_we_next;   // the last access started was a write

// responses
reg                  bvalid_reg = 1'b0, bvalid_next;
reg [1:0]            bresp_reg = RESP_OKAY, bresp_next;
reg                  rvalid_reg = 1'b0, rvalid_next;
reg [1:0]            rresp_reg = RESP_OKAY, rresp_next;
reg [31:0]           rdata_reg = 32'd0, rdata_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
// a write / read may start: its address (and data) are in, its last response was taken
wire wr_ready = aw_full_reg && w_full_reg && !bvalid_reg && !busy_reg;
wire rd_ready = ar_full_reg && !rvalid_reg && !busy_reg;
// take turns when both are ready
wire start_wr = wr_ready && (!rd_ready || !last_we_reg);
wire start_rd = rd_ready && !start_wr;
// the direction of the access being started or performed
wire sel_we   = busy_reg ? busy_we_reg : start_wr;
wire [ADDR_WIDTH-1:0] sel_addr = sel_we ? aw_addr_reg : ar_addr_reg;
// the access is refused (the decode inputs are those of sel_addr)
wire refuse   = (sel_addr[1:0] != 2'b00) || !dec_mapped
                || (sel_we && (!dec_writable || w_strb_reg != 4'b1111));

/* verilator lint_off UNUSEDSIGNAL */
wire [5:0] unused_prot = {s_axil_awprot, s_axil_arprot};
/* verilator lint_on UNUSEDSIGNAL */

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign s_axil_awready = !aw_full_reg;
assign s_axil_wready  = !w_full_reg;
assign s_axil_arready = !ar_full_reg;
assign s_axil_bvalid  = bvalid_reg;
assign s_axil_bresp   = bresp_reg;
assign s_axil_rvalid  = rvalid_reg;
assign s_axil_rresp   = rresp_reg;
assign s_axil_rdata   = rdata_reg;

assign m_reg_req   = busy_reg;
assign m_reg_we    = busy_we_reg;
assign m_reg_addr  = sel_addr;
assign m_reg_wdata = w_data_reg;

// ----------------------------------------------------------------------------
// Next state
// ----------------------------------------------------------------------------
always @* begin
    aw_full_next = aw_full_reg;
    aw_addr_next = aw_addr_reg;
    w_full_next  = w_full_reg;
    w_data_next  = w_data_reg;
    w_strb_next  = w_strb_reg;
    ar_full_next = ar_full_reg;
    ar_addr_next = ar_addr_reg;
    busy_next    = busy_reg;
    busy_we_next = busy_we_reg;
    last_we_next = last_we_reg;
    bvalid_next  = bvalid_reg && !s_axil_bready;
    bresp_next   = bresp_reg;
    rvalid_next  = rvalid_reg && !s_axil_rready;
    rresp_next   = rresp_reg;
    rdata_next   = rdata_reg;

    // address and data channels: take a beat into an empty slot
    if (s_axil_awvalid && !aw_full_reg) begin
        aw_full_next = 1'b1;
        aw_addr_next = s_axil_awaddr;
    end
    if (s_axil_wvalid && !w_full_reg) begin
        w_full_next = 1'b1;
        w_data_next = s_axil_wdata;
        w_strb_next = s_axil_wstrb;
    end
    if (s_axil_arvalid && !ar_full_reg) begin
        ar_full_next = 1'b1;
        ar_addr_next = s_axil_araddr;
    end

    // start an access: refuse it at once, or request it
    if (start_wr || start_rd) begin
        last_we_next = start_wr;
        if (refuse) begin
            if (start_wr) begin
                aw_full_next = 1'b0;
                w_full_next  = 1'b0;
                bvalid_next  = 1'b1;
                bresp_next   = RESP_SLVERR;
            end else begin
                ar_full_next = 1'b0;
                rvalid_next  = 1'b1;
                rresp_next   = RESP_SLVERR;
                rdata_next   = 32'd0;
            end
        end else begin
            busy_next    = 1'b1;
            busy_we_next = start_wr;
        end
    end

    // the register block's acknowledge ends the access
    if (busy_reg && m_reg_ack) begin
        busy_next = 1'b0;
        if (busy_we_reg) begin
            aw_full_next = 1'b0;
            w_full_next  = 1'b0;
            bvalid_next  = 1'b1;
            bresp_next   = RESP_OKAY;
        end else begin
            ar_full_next = 1'b0;
            rvalid_next  = 1'b1;
            rresp_next   = RESP_OKAY;
            rdata_next   = m_reg_rdata;
        end
    end
end

// ----------------------------------------------------------------------------
// Register update: control state is reset, addresses and data are not
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    aw_full_reg <= aw_full_next;
    aw_addr_reg <= aw_addr_next;
    w_full_reg  <= w_full_next;
    w_data_reg  <= w_data_next;
    w_strb_reg  <= w_strb_next;
    ar_full_reg <= ar_full_next;
    ar_addr_reg <= ar_addr_next;
    busy_reg    <= busy_next;
    busy_we_reg <= busy_we_next;
    last_we_reg <= last_we_next;
    bvalid_reg  <= bvalid_next;
    bresp_reg   <= bresp_next;
    rvalid_reg  <= rvalid_next;
    rresp_reg   <= rresp_next;
    rdata_reg   <= rdata_next;

    if (rst) begin
        aw_full_reg <= 1'b0;
        w_full_reg  <= 1'b0;
        ar_full_reg <= 1'b0;
        busy_reg    <= 1'b0;
        busy_we_reg <= 1'b0;
        last_we_reg <= 1'b0;
        bvalid_reg  <= 1'b0;
        rvalid_reg  <= 1'b0;
    end
end

endmodule

`resetall
