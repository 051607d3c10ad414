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
 *   One word per clock in and out; write to read 1 cycle (OUT_REG = 0) or 2 (OUT_REG = 1).
 *
 * Output register (OUT_REG = 1)
 *   The head word is moved from the array into a register (m_data) and m_valid is a
 *   register too, so that nothing the reader computes from m_valid and m_data starts at
 *   the array's read multiplexer; the array is read while the register is empty or being
 *   popped. The FIFO then holds DEPTH + 1 words (count includes the register's); s_ready
 *   still depends on the array's fill level only.
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
    parameter DEPTH = 16,
    // 1: the head word in an output register (see "Output register"); 0: read from the
    // array
    parameter OUT_REG = 0
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
    if (OUT_REG != 0 && OUT_REG != 1) begin : g_bad_out_reg
        initial begin
            $error("Error: sync_fifo OUT_REG must be 0 or 1 (instance %m)");
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
// distributed (LUT) RAM, read asynchronously: with OUT_REG = 1 the read feeds a register,
// and Yosys would otherwise fold that register into a block RAM's synchronous read,
// whose output (REGMODE NOREG) comes about 4.1 ns after the clock on the ECP5
(* ram_style = "distributed" *)
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
wire read;                       // the array's head word is taken this cycle

// ----------------------------------------------------------------------------
// Port assignments and the output register
// ----------------------------------------------------------------------------
assign s_ready = !full;

generate
    if (OUT_REG == 1) begin : g_out_reg
        reg             out_valid_reg = 1'b0, out_valid_next;
        reg [WIDTH-1:0] out_data_reg, out_data_next;

        // the register takes the array's head while it is empty or being popped
        assign read = !empty && (!out_valid_reg || m_ready);

        always @* begin
            out_valid_next = read || (out_valid_reg && !m_ready);
            out_data_next  = read ? mem[rd_ptr_reg[ADDR_WIDTH-1:0]] : out_data_reg;
        end

        always @(posedge clk) begin
            out_valid_reg <= out_valid_next;
            out_data_reg  <= out_data_next;

            if (rst) begin
                out_valid_reg <= 1'b0;
            end
        end

        assign m_valid = out_valid_reg;
        assign m_data  = out_data_reg;
        assign count   = (wr_ptr_reg - rd_ptr_reg) + {{ADDR_WIDTH{1'b0}}, out_valid_reg};
    end else begin : g_out_mem
        assign read    = m_ready && !empty;
        assign m_valid = !empty;
        assign m_data  = mem[rd_ptr_reg[ADDR_WIDTH-1:0]];
        assign count   = wr_ptr_reg - rd_ptr_reg;
    end
endgenerate

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
