/*
 * ibsec_hdr_store — the packet engine's header store: every frame's header window
 * (frame bytes 0 .. CAP_BYTES - 1) written once, at the ingress, into block RAM, and
 * read in frame order by the two stages that need it whole: the crypt stage (H, the GCM
 * additional data) and the egress stage (the output header, open's received STH). The
 * descriptors that travel between the stages (IQ, CQ, DQ, XQ) carry no header window.
 *
 * Function
 *   Headers are numbered in the order they are written (wr_*: one per frame, as its
 *   descriptor enters IQ). Each read port delivers them in the same order, every header
 *   exactly once: a_valid / a_data show the oldest header port A has not yet popped
 *   (a_pop), and the same for port B. Every stage between the ingress and the readers
 *   keeps its frames in order and drops none of their descriptors, so the n-th header a
 *   port delivers is that of the n-th descriptor its stage takes.
 *   A port fetches ahead: it reads the next header as soon as that header is written and
 *   its two-place head FIFO (flip-flops) has room, so a header normally waits at the
 *   port long before its descriptor reaches the reader.
 *
 * Words (WORDS)
 *   A header is stored as WORDS words of WIDTH / WORDS bits (word 0: the low bytes).
 *   WORDS = 2 (LANES = 1) halves the block RAM of a read port (16 DP16KD of 36 bits
 *   instead of 32) at the price of two reads per header, one header per two cycles per
 *   port: at LANES = 1 a frame of the smallest valid length (26 bytes) takes two beats,
 *   so the ports keep up with the link. Word 1 is written only for a frame longer than
 *   word 0 (wr_long); a shorter frame's header bytes past its end, which no stage reads
 *   (they lie past its headers, STH and ICRC), are then those of an older frame. A word
 *   1 waits in a register for a cycle without a word-0 write (one at most: between two
 *   long frames' writes lie the long frame's own beats, at least four cycles without a
 *   write).
 *
 * Slots and overwriting
 *   SLOTS headers are kept (a power of two, the block RAM's depth / WORDS). A slot is
 *   written again SLOTS headers later; the descriptors between the ingress and the
 *   egress stage's port are far fewer (IQ, the parse and decide stages, CQ, DQ, CJ, XQ:
 *   at most 60), so a header is always read before it is overwritten.
 *
 * Latency / throughput
 *   A header written in cycle t can be read from cycle t + 1 (t + 2 for its word 1) and
 *   is at a port's head 2 (WORDS = 1) or 3 (WORDS = 2) cycles after its read starts.
 *   One header per clock written; per port one header per WORDS clocks read.
 *
 * Byte order
 *   Frame byte i of a header at [8*i +: 8] (AXI4-Stream order, docs/conventions.md).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Header store with two in-order read ports
 */
module ibsec_hdr_store #(
    // bits of a header window (8 * CAP_BYTES)
    parameter WIDTH = 1152,
    // words per header, 1 or 2 (WIDTH a multiple of 2)
    parameter WORDS = 2,
    // headers kept, a power of two
    parameter SLOTS = 256,
    // places of each read port's head FIFO (ibsec_hdr_store_port)
    parameter HEADS = 2
) (
    input  wire             clk,
    input  wire             rst,

    /*
     * Write port: one header per frame, in frame order; wr_long: the frame has bytes
     * past word 0 (WORDS = 2)
     */
    input  wire             wr_en,
    input  wire             wr_long,
    input  wire [WIDTH-1:0] wr_data,

    /*
     * Read port A: the oldest header not yet popped
     */
    output wire             a_valid,
    input  wire             a_pop,
    output wire [WIDTH-1:0] a_data,

    /*
     * Read port B
     */
    output wire             b_valid,
    input  wire             b_pop,
    output wire [WIDTH-1:0] b_data
);

// ----------------------------------------------------------------------------
// Constants
// ----------------------------------------------------------------------------
localparam WW = WIDTH / WORDS;                   // bits per stored word
localparam SW = $clog2(SLOTS);                   // slot index bits
localparam XW = (WORDS == 2) ? SW + 1 : SW;      // word address bits
// sequence numbers one bit wider than a slot index: written and fetched headers are
// compared without wrapping ambiguity (at most SLOTS apart)
localparam QW = SW + 1;

generate
    if (WORDS != 1 && WORDS != 2) begin : g_bad_words
        initial begin
            $error("Error: ibsec_hdr_store WORDS must be 1 or 2 (instance %m)");
            $finish;
        end
    end
    if ((1 << SW) != SLOTS || SLOTS < 2) begin : g_bad_slots
        initial begin
            $error("Error: ibsec_hdr_store SLOTS must be a power of two >= 2 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Write side
// ----------------------------------------------------------------------------
// next header's sequence number; headers below done_seq are complete (both words)
reg  [QW-1:0]  wr_seq_reg = 0;
reg            pend_reg = 1'b0;          // a word 1 waits (WORDS = 2)
reg  [QW-1:0]  pend_seq_reg;             // its header's sequence number
reg  [WW-1:0]  pend_data_reg;
wire [QW-1:0]  done_seq;
// this cycle's write into both copies: a header's word 0, else a waiting word 1
wire           mem_we;
wire [XW-1:0]  mem_wa;
wire [WW-1:0]  mem_wd;

generate
    if (WORDS == 2) begin : g_w2
        assign mem_we   = wr_en || pend_reg;
        assign mem_wa   = wr_en ? {wr_seq_reg[SW-1:0], 1'b0} : {pend_seq_reg[SW-1:0], 1'b1};
        assign mem_wd   = wr_en ? wr_data[WW-1:0] : pend_data_reg;
        // headers are complete in order: up to the one whose word 1 waits
        assign done_seq = pend_reg ? pend_seq_reg : wr_seq_reg;
        always @(posedge clk) begin
            if (wr_en && wr_long) begin
                pend_seq_reg  <= wr_seq_reg;
                pend_data_reg <= wr_data[WIDTH-1:WW];
            end
            // set by a long header's word 0; cleared when its word 1 is written (a cycle
            // without a word-0 write)
            if (wr_en && wr_long)
                pend_reg <= 1'b1;
            else if (!wr_en)
                pend_reg <= 1'b0;
            if (rst)
                pend_reg <= 1'b0;
        end
        // synthesis translate_off
        always @(posedge clk) begin
            if (!rst && wr_en && wr_long && pend_reg)
                $error("ibsec_hdr_store: a word 1 waits while another long header is written (%m)");
        end
        // synthesis translate_on
    end else begin : g_w1
        assign mem_we   = wr_en;
        assign mem_wa   = wr_seq_reg[SW-1:0];
        assign mem_wd   = wr_data;
        assign done_seq = wr_seq_reg;
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused_w1 = wr_long ^ pend_reg ^ (^pend_seq_reg) ^ (^pend_data_reg);
        /* verilator lint_on UNUSEDSIGNAL */
        always @(posedge clk) begin
            pend_seq_reg  <= {QW{1'b0}};
            pend_data_reg <= {WW{1'b0}};
        end
    end
endgenerate

always @(posedge clk) begin
    if (wr_en)
        wr_seq_reg <= wr_seq_reg + 1'b1;
    if (rst)
        wr_seq_reg <= 0;
end

// ----------------------------------------------------------------------------
// Read ports: a copy of the store each (one block RAM read port per copy)
// ----------------------------------------------------------------------------
ibsec_hdr_store_port #(.WIDTH (WIDTH), .WORDS (WORDS), .SLOTS (SLOTS), .HEADS (HEADS)) port_a (
    .clk (clk), .rst (rst),
    .mem_we (mem_we), .mem_wa (mem_wa), .mem_wd (mem_wd), .done_seq (done_seq),
    .m_valid (a_valid), .m_pop (a_pop), .m_data (a_data)
);

ibsec_hdr_store_port #(.WIDTH (WIDTH), .WORDS (WORDS), .SLOTS (SLOTS), .HEADS (HEADS)) port_b (
    .clk (clk), .rst (rst),
    .mem_we (mem_we), .mem_wa (mem_wa), .mem_wd (mem_wd), .done_seq (done_seq),
    .m_valid (b_valid), .m_pop (b_pop), .m_data (b_data)
);

endmodule

`resetall
