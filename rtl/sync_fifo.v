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
 * Timing
 *   Every output comes from a register: the head word (m_data), m_valid, s_ready and
 *   count. A consumer's logic therefore starts at flip-flops, not behind the read
 *   pointer and the distributed RAM's read (the engine's descriptor FIFOs feed wide
 *   decision and composer logic from their heads). What remains in the FIFO's own paths:
 *   m_ready selects the head register's next word (the RAM word at the read pointer, or
 *   s_data when the RAM is empty), and s_valid and m_ready update the fill level.
 *
 * Implementation
 *   The oldest word is held in the head register; the others in an array written
 *   synchronously and read asynchronously at its read pointer, the form that synthesis
 *   maps to distributed (LUT) RAM: on ECP5 Yosys infers TRELLIS_DPR16X4 cells (16 words
 *   x 4 bits each), so a deep and wide FIFO costs about WIDTH/4 * DEPTH/16 of them and
 *   WIDTH flip-flops for the head. A word written while the head register is empty, or
 *   is being popped with the array empty, goes straight into the head register. The
 *   pointers carry one extra bit to tell full from empty. The behaviour at the ports is
 *   cycle for cycle that of a FIFO read straight from the array. Reset empties the FIFO;
 *   the words are not cleared.
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
// words behind the head
reg [WIDTH-1:0]      mem[0:DEPTH-1];
reg [ADDR_WIDTH:0]   wr_ptr_reg = 0, wr_ptr_next;
reg [ADDR_WIDTH:0]   rd_ptr_reg = 0, rd_ptr_next;
// the head word
reg [WIDTH-1:0]      head_reg, head_next;
reg                  head_valid_reg = 1'b0, head_valid_next;
// words held (head included) and full
reg [ADDR_WIDTH:0]   count_reg = 0, count_next;
reg                  full_reg = 1'b0, full_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire write     = s_valid && !full_reg;
wire read      = m_ready && head_valid_reg;
wire mem_empty = (wr_ptr_reg == rd_ptr_reg);
// the head register takes the new word: it is empty, or popped with the array empty
wire to_head   = !head_valid_reg || (read && mem_empty);

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign s_ready = !full_reg;
assign m_valid = head_valid_reg;
assign m_data  = head_reg;
assign count   = count_reg;

// ----------------------------------------------------------------------------
// Next state
// ----------------------------------------------------------------------------
always @* begin
    head_next       = head_reg;
    head_valid_next = head_valid_reg;
    wr_ptr_next     = wr_ptr_reg;
    rd_ptr_next     = rd_ptr_reg;

    if (read && !mem_empty) begin
        // the next word moves up from the array
        head_next   = mem[rd_ptr_reg[ADDR_WIDTH-1:0]];
        rd_ptr_next = rd_ptr_reg + 1'b1;
    end else if (read) begin
        head_valid_next = 1'b0;
    end

    if (write) begin
        if (to_head) begin
            head_next       = s_data;
            head_valid_next = 1'b1;
        end else begin
            wr_ptr_next = wr_ptr_reg + 1'b1;
        end
    end

    count_next = count_reg + {{ADDR_WIDTH{1'b0}}, write} - {{ADDR_WIDTH{1'b0}}, read};
    full_next  = count_next[ADDR_WIDTH];   // count_next == DEPTH (DEPTH a power of two)
end

always @(posedge clk) begin
    if (write && !to_head) begin
        mem[wr_ptr_reg[ADDR_WIDTH-1:0]] <= s_data;
    end

    head_reg       <= head_next;
    head_valid_reg <= head_valid_next;
    wr_ptr_reg     <= wr_ptr_next;
    rd_ptr_reg     <= rd_ptr_next;
    count_reg      <= count_next;
    full_reg       <= full_next;

    if (rst) begin
        head_valid_reg <= 1'b0;
        wr_ptr_reg     <= 0;
        rd_ptr_reg     <= 0;
        count_reg      <= 0;
        full_reg       <= 1'b0;
    end
end

endmodule

`resetall
