/*
 * ibsec_pkt_buffer — packet buffer of the packet engine: a simple dual-port RAM of
 * DEPTH beats of WIDTH bits, one write port and one read port with a registered read.
 *
 * Function
 *   A write (wr_en) stores wr_data at wr_addr. A read (rd_en) loads the word at rd_addr
 *   into rd_data at the clock edge; rd_data holds its value while rd_en is low, so a
 *   reader that stalls keeps the last word it read. A read of the address written in the
 *   same cycle returns the old word (read-before-write); the engine never does that.
 *   This is the form Yosys maps to block RAM (ECP5 DP16KD): no reset, no output enable
 *   other than the read enable.
 *
 * Latency / throughput
 *   Read: 1 cycle (address in cycle t, data in cycle t+1). One write and one read per clock.
 *
 * Byte order
 *   Words are stored as they arrive: a beat of the AXI4-Stream, byte 0 in [7:0].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Simple dual-port RAM with registered read
 */
module ibsec_pkt_buffer #(
    // bits per word (one beat: 128 * LANES)
    parameter WIDTH = 128,
    // words, a power of two (addresses wrap)
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
     * Read port (registered)
     */
    input  wire             rd_en,
    input  wire [AW-1:0]    rd_addr,
    output wire [WIDTH-1:0] rd_data
);

generate
    if ((1 << AW) != DEPTH) begin : g_bad_depth
        initial begin
            $error("Error: ibsec_pkt_buffer DEPTH must be a power of two (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg [WIDTH-1:0] mem[0:DEPTH-1];
reg [WIDTH-1:0] rd_data_reg;

assign rd_data = rd_data_reg;

always @(posedge clk) begin
    if (wr_en)
        mem[wr_addr] <= wr_data;
    if (rd_en)
        rd_data_reg <= mem[rd_addr];
end

endmodule

`resetall
