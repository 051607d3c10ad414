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
 * Head register (OUT_REG = 1)
 *   Every output comes from a register: the head word (m_data), m_valid, s_ready and
 *   count, so that a consumer's logic starts at flip-flops, not behind the read pointer
 *   and the distributed RAM's read. What remains in the FIFO's own paths: m_ready selects
 *   the head register's next word (the array's word at the read pointer, or s_data when
 *   the array is empty), and s_valid and m_ready update the fill level. The behaviour at
 *   the ports is cycle for cycle that of OUT_REG = 0, at the price of WIDTH flip-flops
 *   and a 2:1 multiplexer per bit: worth it for a narrow FIFO whose head feeds deep
 *   logic, not for the engine's 1.2 to 1.4 kbit descriptor FIFOs (about 6,000 LUT4 and
 *   6,000 flip-flops more in the LANES = 1 open engine).
 *
 * Two registers (DEPTH = 2 with OUT_REG = 1)
 *   No array: the head word and the word behind it (the tail) are both registers. The
 *   head loads when it is empty or popped, from the tail while the tail is full and
 *   from s_data otherwise (a multiplexer selected by a register); the tail loads s_data
 *   whenever it is empty. Every port behaves cycle for cycle as above (m_data, m_valid,
 *   s_ready and count from flip-flops). Cost: 2 * WIDTH flip-flops and one LUT4 per bit
 *   (the head's 2:1 multiplexer; the loads on the flip-flops' clock enables: m_ready
 *   reaches the head's WIDTH enables), where the array form spends ceil(WIDTH / 4)
 *   TRELLIS_DPR16X4 cells (each about six COMB sites, 16 words deep of which two are used)
 *   plus, with OUT_REG = 1, the head register and its multiplexer. Chosen for a wide
 *   two-word FIFO such as the engine's DQ (about 1.4 kbit: 299 DPR16X4 cells before).
 *
 * Implementation
 *   The words are held in an array written synchronously and read asynchronously at the
 *   read pointer, the form that synthesis maps to distributed (LUT) RAM: on ECP5 Yosys
 *   infers TRELLIS_DPR16X4 cells (16 words x 4 bits each), so a deep and wide FIFO costs
 *   about WIDTH/4 * DEPTH/16 of them and no flip-flops for the words (the array is marked
 *   distributed: with OUT_REG = 1 Yosys would otherwise fold the head register into a
 *   block RAM's synchronous read, whose output comes about 4.1 ns after the clock). With
 *   OUT_REG = 1 the oldest word is held in the head register instead; a word written
 *   while the head register is empty, or is being popped with the array empty, goes
 *   straight into it. The pointers carry one extra bit to tell full from empty. Reset
 *   empties the FIFO; the words are not cleared.
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
    // 1: every output from a register (see "Head register"); 0: the head read from the
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

generate
    if (OUT_REG == 1 && DEPTH == 2) begin : g_two_reg
        // ------------------------------------------------------------------------
        // Registers: the head word, the tail word behind it, and their valid bits
        // ------------------------------------------------------------------------
        reg [WIDTH-1:0] head_reg, head_next;
        reg [WIDTH-1:0] tail_reg, tail_next;
        reg             head_valid_reg = 1'b0, head_valid_next;
        reg             tail_valid_reg = 1'b0, tail_valid_next;

        // a write needs a free place: the tail register (the head is free whenever
        // the tail is)
        wire write = s_valid && !tail_valid_reg;
        wire read  = m_ready && head_valid_reg;

        assign s_ready = !tail_valid_reg;
        assign m_valid = head_valid_reg;
        assign m_data  = head_reg;
        assign count   = {tail_valid_reg, head_valid_reg && !tail_valid_reg};

        // The word that enters the head comes from the tail while the tail is full
        // (a write is refused then) and from s_data otherwise, so the head's multiplexer
        // is selected by a register; a load that brings no word (the FIFO empty, or
        // the last word popped without a write) is harmless, the valid bit tells. The
        // head loads when it is empty or popped, the tail whenever it is empty.
        always @* begin
            head_next       = (m_ready || !head_valid_reg) ?
                              (tail_valid_reg ? tail_reg : s_data) : head_reg;
            tail_next       = tail_valid_reg ? tail_reg : s_data;
            head_valid_next = write || (head_valid_reg && (!read || tail_valid_reg));
            tail_valid_next = tail_valid_reg ? !read
                                             : (write && head_valid_reg && !read);
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
    end else begin : g_array
        // ------------------------------------------------------------------------
        // Registers: the words (with OUT_REG = 1: behind the head), the pointers
        // ------------------------------------------------------------------------
        (* ram_style = "distributed" *)
        reg [WIDTH-1:0]    mem[0:DEPTH-1];
        reg [ADDR_WIDTH:0] wr_ptr_reg = 0, wr_ptr_next;
        reg [ADDR_WIDTH:0] rd_ptr_reg = 0, rd_ptr_next;

        if (OUT_REG == 1) begin : g_head_reg
            // the head word, the fill level (head included) and full, all registers
            reg [WIDTH-1:0]    head_reg, head_next;
            reg                head_valid_reg = 1'b0, head_valid_next;
            reg [ADDR_WIDTH:0] count_reg = 0, count_next;
            reg                full_reg = 1'b0, full_next;

            wire write     = s_valid && !full_reg;
            wire read      = m_ready && head_valid_reg;
            wire mem_empty = (wr_ptr_reg == rd_ptr_reg);
            // the head register takes the new word: it is empty, or popped with the array empty
            wire to_head   = !head_valid_reg || (read && mem_empty);

            assign s_ready = !full_reg;
            assign m_valid = head_valid_reg;
            assign m_data  = head_reg;
            assign count   = count_reg;

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
                full_next  = count_next[ADDR_WIDTH];   // count_next == DEPTH (a power of two)
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
        end else begin : g_head_mem
            wire full  = (wr_ptr_reg[ADDR_WIDTH] != rd_ptr_reg[ADDR_WIDTH]) &&
                         (wr_ptr_reg[ADDR_WIDTH-1:0] == rd_ptr_reg[ADDR_WIDTH-1:0]);
            wire empty = (wr_ptr_reg == rd_ptr_reg);
            wire write = s_valid && !full;
            wire read  = m_ready && !empty;

            assign s_ready = !full;
            assign m_valid = !empty;
            assign m_data  = mem[rd_ptr_reg[ADDR_WIDTH-1:0]];
            assign count   = wr_ptr_reg - rd_ptr_reg;

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
        end
    end
endgenerate

endmodule

`resetall
