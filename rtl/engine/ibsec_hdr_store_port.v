/*
 * ibsec_hdr_store_port — one read port of the header store (ibsec_hdr_store): a copy of
 * the stored words in block RAM, read in header order into a small FIFO of whole
 * headers (flip-flops) whose head the reading stage takes.
 *
 * Function
 *   The store's write port (mem_*) writes every copy alike; done_seq counts the headers
 *   complete. The port fetches header seq_reg whenever it is complete and the FIFO has a
 *   place for it (the places held: headers in the FIFO and headers being read); the
 *   head (m_valid, m_data) is the oldest header fetched and not popped (m_pop).
 *   WORDS = 2: a header is read in two cycles, word 0 then word 1, and enters the FIFO
 *   with its word 1.
 *
 * What is registered
 *   The block RAM's read data (its read port is synchronous, addressed from the port's
 *   registers: seq_reg and the word phase), word 0 while word 1 is read (lo_reg), the
 *   FIFO's places, and the room for another fetch (room_reg, from the next cycle's
 *   counts), so that no enable of the port depends on the consumer's logic of the cycle.
 *
 * Latency / throughput
 *   A fetch started in cycle t has its header at the FIFO's head in t + 2 (WORDS = 1) or
 *   t + 3 (WORDS = 2) if the FIFO was empty. A popped place is fetched into again from
 *   the next cycle, so one place turns over in 3 (WORDS = 1) or 4 (WORDS = 2) cycles:
 *   HEADS = 2 places keep one header per two clocks (WORDS = 2, LANES = 1, where the
 *   smallest valid frame is two beats), 4 places one per clock (WORDS = 1).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Header store read port
 */
module ibsec_hdr_store_port #(
    // bits of a header
    parameter WIDTH = 1152,
    // words per header, 1 or 2
    parameter WORDS = 2,
    // headers kept, a power of two
    parameter SLOTS = 256,
    // places of the head FIFO, 2 or 4
    parameter HEADS = 2
) (
    input  wire                     clk,
    input  wire                     rst,

    /*
     * The store's write port and its complete headers
     */
    input  wire                     mem_we,
    input  wire [$clog2(SLOTS*WORDS)-1:0] mem_wa,
    input  wire [WIDTH/WORDS-1:0]   mem_wd,
    input  wire [$clog2(SLOTS):0]   done_seq,

    /*
     * The oldest header fetched and not popped
     */
    output wire                     m_valid,
    input  wire                     m_pop,
    output wire [WIDTH-1:0]         m_data
);

// ----------------------------------------------------------------------------
// Constants
// ----------------------------------------------------------------------------
localparam WW = WIDTH / WORDS;
localparam SW = $clog2(SLOTS);
localparam XW = $clog2(SLOTS * WORDS);
localparam QW = SW + 1;
localparam HW = $clog2(HEADS);           // FIFO index bits
localparam CW = HW + 1;                  // FIFO count bits (0 .. HEADS)

generate
    if (HEADS != 2 && HEADS != 4) begin : g_bad_heads
        initial begin
            $error("Error: ibsec_hdr_store_port HEADS must be 2 or 4 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
(* ram_style = "block" *)
reg [WW-1:0]    mem [0:SLOTS*WORDS-1];
reg [WW-1:0]    q_reg;                   // the block RAM's read data
reg [QW-1:0]    seq_reg = 0;             // next header to fetch
reg             ph_reg = 1'b0;           // WORDS = 2: word 1 is read this cycle
reg             q_v_reg = 1'b0;          // q_reg holds a word read last cycle
reg             q_w1_reg = 1'b0;         // ... and it is a header's last word
// (flip-flops: as distributed RAM they would cost what the store saves)
(* ram_style = "logic" *)
reg [WIDTH-1:0] head_reg [0:HEADS-1];
reg [HW-1:0]    wp_reg = 0, rp_reg = 0;
reg [CW-1:0]    count_reg = 0;           // headers in the FIFO
reg [CW-1:0]    infl_reg = 0;            // headers being read
reg             room_reg = 1'b0;         // a fetch may start this cycle

// ----------------------------------------------------------------------------
// Fetch
// ----------------------------------------------------------------------------
// a header's first word is read when it is complete and a place is kept for it; WORDS = 2
// reads its word 1 in the next cycle
wire          start = room_reg && !ph_reg && (seq_reg != done_seq);
wire          rd_en = start || ph_reg;
wire [XW-1:0] rd_addr;
generate
    if (WORDS == 2) begin : g_addr2
        assign rd_addr = {seq_reg[SW-1:0], ph_reg};
    end else begin : g_addr1
        assign rd_addr = seq_reg[SW-1:0];
    end
endgenerate
// the header's last word is read this cycle
wire          rd_last = (WORDS == 1) ? start : ph_reg;
// a whole header enters the FIFO
wire          push = q_v_reg && q_w1_reg;
wire [WIDTH-1:0] push_data;
generate
    if (WORDS == 2) begin : g_join2
        // word 0 of the header being read, while its word 1 is
        reg [WW-1:0] lo_reg;
        always @(posedge clk) begin
            if (q_v_reg && !q_w1_reg)
                lo_reg <= q_reg;
        end
        assign push_data = {q_reg, lo_reg};
    end else begin : g_join1
        assign push_data = q_reg;
    end
endgenerate
wire          pop = m_pop && (count_reg != 0);
wire [CW-1:0] count_next = count_reg + {{HW{1'b0}}, push} - {{HW{1'b0}}, pop};
wire [CW-1:0] infl_next  = infl_reg + {{HW{1'b0}}, start} - {{HW{1'b0}}, push};

// (read every cycle: q_reg is used only in the cycle after a read, q_v_reg, so it needs
// no hold, which would cost a multiplexer per bit beside the block RAM)
always @(posedge clk) begin
    if (mem_we)
        mem[mem_wa] <= mem_wd;
    q_reg <= mem[rd_addr];
end

always @(posedge clk) begin
    q_v_reg  <= rd_en;
    q_w1_reg <= rd_last;
    if (start && WORDS == 2)
        ph_reg <= 1'b1;
    else
        ph_reg <= 1'b0;
    if (rd_last)
        seq_reg <= seq_reg + 1'b1;
    if (push) begin
        head_reg[wp_reg] <= push_data;
        wp_reg <= wp_reg + 1'b1;
    end
    if (pop)
        rp_reg <= rp_reg + 1'b1;
    count_reg <= count_next;
    infl_reg  <= infl_next;
    // a place is free for the next cycle's fetch: the FIFO's headers, those being read
    // and a fetch starting now all counted
    room_reg  <= ({1'b0, count_next} + {1'b0, infl_next}) < HEADS;
    if (rst) begin
        seq_reg   <= 0;
        ph_reg    <= 1'b0;
        q_v_reg   <= 1'b0;
        q_w1_reg  <= 1'b0;
        wp_reg    <= 0;
        rp_reg    <= 0;
        count_reg <= 0;
        infl_reg  <= 0;
        room_reg  <= 1'b0;
    end
end

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign m_valid = count_reg != 0;
assign m_data  = head_reg[rp_reg];

endmodule

`resetall
