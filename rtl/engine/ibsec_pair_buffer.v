/*
 * ibsec_pair_buffer — a ring of DEPTH beats of WIDTH bits that returns two consecutive
 * beats per read: the packet engine's composers (ibsec_compose) realign bytes, and an
 * output beat takes bytes from two neighbouring source beats.
 *
 * Function
 *   Beat a is stored in bank a[0] (even / odd beats) at index a >> 1; each bank is an
 *   ibsec_pkt_buffer (one write port, one registered read port, block RAM). A read of
 *   beat j reads beat j from one bank and beat j + 1 (modulo DEPTH) from the other in the
 *   same cycle: rd_lo = beat j, rd_hi = beat j + 1. The storage is that of one ring, only
 *   split in two halves.
 *
 * Latency / throughput
 *   Read: 1 cycle (address in cycle t, data in cycle t+1); rd_lo / rd_hi hold while rd_en
 *   is low. One write and one paired read per clock. A read of a beat written in the same
 *   cycle returns the old word (the engine never reads a beat before it is written).
 *
 * Byte order
 *   Words as they arrive: a beat of the AXI4-Stream, byte 0 in [7:0].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Two-bank ring with a paired read
 */
module ibsec_pair_buffer #(
    // bits per word (one beat: 128 * LANES)
    parameter WIDTH = 128,
    // beats, a power of two >= 4 (addresses wrap)
    parameter DEPTH = 512,
    // address width (derived; do not override)
    parameter AW = $clog2(DEPTH)
) (
    input  wire             clk,

    /*
     * Write port
     */
    input  wire             wr_en,
    input  wire [AW-1:0]    wr_addr,
    input  wire [WIDTH-1:0] wr_data,

    /*
     * Paired read port: beats rd_addr and rd_addr + 1
     */
    input  wire             rd_en,
    input  wire [AW-1:0]    rd_addr,
    output wire [WIDTH-1:0] rd_lo,
    output wire [WIDTH-1:0] rd_hi
);

generate
    if ((1 << AW) != DEPTH || DEPTH < 4) begin : g_bad_depth
        initial begin
            $error("Error: ibsec_pair_buffer DEPTH must be a power of two >= 4 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg             odd_reg;    // the read beat j was odd: lo comes from the odd bank

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
/* verilator lint_off UNUSEDSIGNAL */ // beat j + 1 of an odd j is even: its bank index only
wire [AW-1:0]    rd_next = rd_addr + 1'b1;
/* verilator lint_on UNUSEDSIGNAL */
// even bank: beat j (j even) or j + 1 (j odd); odd bank: the other one
wire [AW-2:0]    even_idx = rd_addr[0] ? rd_next[AW-1:1] : rd_addr[AW-1:1];
wire [AW-2:0]    odd_idx  = rd_addr[AW-1:1];
wire [WIDTH-1:0] even_data, odd_data;

assign rd_lo = odd_reg ? odd_data : even_data;
assign rd_hi = odd_reg ? even_data : odd_data;

// ----------------------------------------------------------------------------
// Submodules
// ----------------------------------------------------------------------------
ibsec_pkt_buffer #(
    .WIDTH (WIDTH),
    .DEPTH (DEPTH / 2)
) even_bank (
    .clk     (clk),
    .wr_en   (wr_en && !wr_addr[0]),
    .wr_addr (wr_addr[AW-1:1]),
    .wr_data (wr_data),
    .rd_en   (rd_en),
    .rd_addr (even_idx),
    .rd_data (even_data)
);

ibsec_pkt_buffer #(
    .WIDTH (WIDTH),
    .DEPTH (DEPTH / 2)
) odd_bank (
    .clk     (clk),
    .wr_en   (wr_en && wr_addr[0]),
    .wr_addr (wr_addr[AW-1:1]),
    .wr_data (wr_data),
    .rd_en   (rd_en),
    .rd_addr (odd_idx),
    .rd_data (odd_data)
);

always @(posedge clk) begin
    if (rd_en)
        odd_reg <= rd_addr[0];
end

endmodule

`resetall
