/*
 * sync_fifo — single-clock first-word-fall-through FIFO with valid/ready on both sides.
 *
 * Function
 *   Words written with s_valid && s_ready come out in order on m_data; m_valid is set
 *   while the FIFO holds a word, and m_valid && m_ready pops it. A word written in cycle
 *   t is visible on m_data in cycle t+1. A write into a full FIFO is refused (s_ready = 0)
 *   in the same cycle as a read frees a place: s_ready depends on the fill level only, so
 *   no path runs from m_ready to s_ready.
 *
 * Latency / throughput
 *   One word per clock in and out; write to read 1 cycle.
 *
 * Implementation
 *   The storage is an array written synchronously and read asynchronously at the read
 *   pointer, the form that synthesis maps to distributed (LUT) RAM: on ECP5 Yosys infers
 *   TRELLIS_DPR16X4 cells (16 words x 4 bits each), so a deep and wide FIFO costs about
 *   WIDTH/4 * DEPTH/16 of them and no flip-flops for the words. The pointers carry one
 *   extra bit to tell full from empty. Reset empties the FIFO; the words are not cleared.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Synchronous FWFT FIFO
 */
module sync_fifo #(
    // bits per word
    parameter WIDTH = 8,
    // number of words, a power of two >= 2
    parameter DEPTH = 16
) (
    input  wire             clk,
    input  wire             rst,

    /*
     * Write side
     */
    input  wire             s_valid,
    output wire             s_ready,
    input  wire [WIDTH-1:0] s_data,

    /*
     * Read side
     */
    output wire             m_valid,
    input  wire             m_ready,
    output wire [WIDTH-1:0] m_data,

    /*
     * Status
     */
    // words held, 0..DEPTH
    output wire [$clog2(DEPTH):0] count
);

// address width
localparam ADDR_WIDTH = $clog2(DEPTH);

generate
    if (DEPTH < 2 || (1 << ADDR_WIDTH) != DEPTH) begin : g_bad_depth
        initial begin
            $error("Error: sync_fifo DEPTH must be a power of two >= 2 (instance %m)");
            $finish;
        end
    end
    if (WIDTH < 1) begin : g_bad_width
        initial begin
            $error("Error: sync_fifo WIDTH must be at least 1 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg [WIDTH-1:0]      mem[0:DEPTH-1];
reg [ADDR_WIDTH:0]   wr_ptr_reg = 0, wr_ptr_next;
reg [ADDR_WIDTH:0]   rd_ptr_reg = 0, rd_ptr_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire full  = (wr_ptr_reg[ADDR_WIDTH] != rd_ptr_reg[ADDR_WIDTH]) &&
             (wr_ptr_reg[ADDR_WIDTH-1:0] == rd_ptr_reg[ADDR_WIDTH-1:0]);
wire empty = (wr_ptr_reg == rd_ptr_reg);
wire write = s_valid && !full;
wire read  = m_ready && !empty;

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign s_ready = !full;
assign m_valid = !empty;
assign m_data  = mem[rd_ptr_reg[ADDR_WIDTH-1:0]];
assign count   = wr_ptr_reg - rd_ptr_reg;

// ----------------------------------------------------------------------------
// Pointer update
// ----------------------------------------------------------------------------
always @* begin
    wr_ptr_next = wr_ptr_reg + {{ADDR_WIDTH{1'b0}}, write};
    rd_ptr_next = rd_ptr_reg + {{ADDR_WIDTH{1'b0}}, read};
end

always @(posedge clk) begin
    if (write) begin
        mem[wr_ptr_reg[ADDR_WIDTH-1:0]] <= s_data;
    end

    wr_ptr_reg <= wr_ptr_next;
    rd_ptr_reg <= rd_ptr_next;

    if (rst) begin
        wr_ptr_reg <= 0;
        rd_ptr_reg <= 0;
    end
end

endmodule

`resetall
