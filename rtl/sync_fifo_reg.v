/*
 * sync_fifo_reg — single-clock first-word-fall-through FIFO of two words in flip-flops,
 * whose head word is always a register: the same ports, flow control and timing as
 * sync_fifo with DEPTH = 2, for a wide FIFO whose head feeds deep logic.
 *
 * Function
 *   Words written with s_valid && s_ready come out in order on m_data; m_valid is set
 *   while the FIFO holds a word, and m_valid && m_ready pops it. A word written in cycle
 *   t is visible on m_data in cycle t+1. s_ready depends on the fill level only (it is
 *   low while both words are held), so no path runs from m_ready to s_ready.
 *
 * Latency / throughput
 *   One word per clock in and out; write to read 1 cycle.
 *
 * Implementation
 *   head_reg is the oldest word and drives m_data directly; tail_reg holds the second
 *   word. A pop moves the tail into the head (or the word written in that cycle when
 *   there is no tail). Unlike sync_fifo's distributed RAM, which puts a RAM read and its
 *   read-address mux between the read pointer and m_data, the consumer's logic starts at
 *   a flip-flop; the cost is 2 x WIDTH flip-flops and a 2:1 mux per head bit. Reset
 *   empties the FIFO; the words are not cleared.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Two-word FWFT FIFO with a registered head
 */
module sync_fifo_reg #(
    // bits per word
    parameter WIDTH = 8
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
    // words held, 0..2
    output wire [1:0]       count
);

generate
    if (WIDTH < 1) begin : g_bad_width
        initial begin
            $error("Error: sync_fifo_reg WIDTH must be at least 1 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg [WIDTH-1:0] head_reg, head_next;
reg [WIDTH-1:0] tail_reg, tail_next;
reg             head_valid_reg = 1'b0, head_valid_next;
reg             tail_valid_reg = 1'b0, tail_valid_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire write = s_valid && !tail_valid_reg;
wire read  = m_ready && head_valid_reg;

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign s_ready = !tail_valid_reg;
assign m_valid = head_valid_reg;
assign m_data  = head_reg;
assign count   = {1'b0, head_valid_reg} + {1'b0, tail_valid_reg};

// ----------------------------------------------------------------------------
// Next state
// ----------------------------------------------------------------------------
always @* begin
    head_next       = head_reg;
    tail_next       = tail_reg;
    head_valid_next = head_valid_reg;
    tail_valid_next = tail_valid_reg;

    if (read) begin
        // the tail moves up; without a tail the word written now becomes the head
        if (tail_valid_reg) begin
            head_next       = tail_reg;
            tail_valid_next = 1'b0;
        end else begin
            head_next       = s_data;
            head_valid_next = write;
        end
    end else if (!head_valid_reg) begin
        head_next       = s_data;
        head_valid_next = write;
    end

    // a word written behind a head that stays (or behind the tail that moves up)
    if (write && (head_valid_reg && !(read && !tail_valid_reg))) begin
        tail_next       = s_data;
        tail_valid_next = 1'b1;
    end
end

always @(posedge clk) begin
    head_reg       <= head_next;
    tail_reg       <= tail_next;
    head_valid_reg <= head_valid_next;
    tail_valid_reg <= tail_valid_next;

    if (rst) begin
        head_valid_reg <= 1'b0;
        tail_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
