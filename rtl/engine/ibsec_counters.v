/*
 * ibsec_counters — the per-reason packet counters of one packet engine: one 64-bit
 * counter per drop reason (enum ibsec_reason, docs/wire-format.md §10), incremented once
 * per packet with the packet's final reason, as the model's ibsec_account does.
 *
 * Function
 *   inc_valid adds 1 to counter inc_reason at the clock edge (reasons >= REASONS are
 *   ignored). clear zeroes every counter at the clock edge (a simultaneous increment is
 *   lost). rd_value is counter rd_index, combinationally (0 for rd_index >= REASONS).
 *   The counters wrap at 2^64 (never reached in practice).
 *
 * Latency / throughput
 *   One increment per clock; a count is visible on rd_value the cycle after inc_valid.
 *
 * Implementation
 *   Only one counter changes per clock, so the counts live in RAM, not in flip-flops:
 *   two copies of a REASONS x 64-bit RAM with a write port and an asynchronous read
 *   port each (distributed RAM, TRELLIS_DPR16X4 on the ECP5), written together, one read
 *   at rd_index and one at inc_reason. The counter named by inc_reason is read,
 *   incremented by one shared 64-bit adder and written back in the same cycle. A RAM
 *   cannot be cleared in one cycle, so REASONS "live" flip-flops say which entries hold
 *   a count; clear and rst drop them all, and an entry that is not live reads as 0.
 *   Area: REASONS live flip-flops, the RAMs, the adder and two 64-bit read selects
 *   (the flip-flop version took REASONS x 64 flip-flops and their multiplexers: 2,176
 *   flip-flops and 3,987 LUT4 at REASONS = 34 on the ECP5).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Per-reason 64-bit counters
 */
module ibsec_counters #(
    // number of counters: reasons 0 .. REASONS-1 (34 = every hardware reason, ok .. nonce_reuse)
    parameter REASONS = 34
) (
    input  wire        clk,
    input  wire        rst,

    /*
     * Increment
     */
    input  wire        inc_valid,
    input  wire [5:0]  inc_reason,

    /*
     * Clear all
     */
    input  wire        clear,

    /*
     * Read
     */
    input  wire [5:0]  rd_index,
    output wire [63:0] rd_value
);

// ----------------------------------------------------------------------------
// Parameter checks
// ----------------------------------------------------------------------------
generate
    if (REASONS < 1 || REASONS > 64) begin : g_bad_reasons
        initial begin
            $error("Error: ibsec_counters REASONS must be 1..64 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// live_reg[i]: counter i holds a count written since the last clear or reset
reg [REASONS-1:0] live_reg = {REASONS{1'b0}}, live_next;

// the counts: two copies, one per read port (rd_index, inc_reason); no reset (live_reg)
reg [63:0] count_rd_mem  [0:REASONS-1];
reg [63:0] count_inc_mem [0:REASONS-1];

// ----------------------------------------------------------------------------
// Read and increment
// ----------------------------------------------------------------------------
// indices widened to 32 bits for the compare with the integer parameter
wire        rd_in_range  = ({26'd0, rd_index} < REASONS);
wire        inc_in_range = ({26'd0, inc_reason} < REASONS);
wire        count_wr_en  = inc_valid && inc_in_range;
wire [63:0] inc_count    = (inc_in_range && live_reg[inc_reason]) ? count_inc_mem[inc_reason] : 64'd0;
wire [63:0] inc_sum      = inc_count + 64'd1;

assign rd_value = (rd_in_range && live_reg[rd_index]) ? count_rd_mem[rd_index] : 64'd0;

always @* begin
    live_next = live_reg;
    if (count_wr_en) begin
        live_next[inc_reason] = 1'b1;
    end
    if (clear) begin
        live_next = {REASONS{1'b0}};
    end
end

// ----------------------------------------------------------------------------
// Register update (the counters are state: reset clears them, as engine_init does)
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    live_reg <= live_next;

    if (rst) begin
        live_reg <= {REASONS{1'b0}};
    end
end

// RAM write: a count written together with a clear or reset is written, but not live
always @(posedge clk) begin
    if (count_wr_en) begin
        count_rd_mem[inc_reason]  <= inc_sum;
        count_inc_mem[inc_reason] <= inc_sum;
    end
end

endmodule

`resetall
