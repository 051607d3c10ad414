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
 *   One shared 64-bit incrementer: the counter named by inc_reason is read, incremented
 *   and written back in the same cycle, so the area is REASONS x 64 flip-flops plus one
 *   adder and the read multiplexers.
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
reg [REASONS*64-1:0] count_reg = {REASONS*64{1'b0}}, count_next;

// ----------------------------------------------------------------------------
// Read and increment
// ----------------------------------------------------------------------------
// The multiplexers are AND-OR over explicit indices: a variable part-select of the flat
// vector (count_reg[i*64 +: 64]) would synthesize to a shifter over all of it.
reg [63:0] rd_sel;
reg [63:0] inc_sel;
reg [63:0] inc_sum;
integer ri;

assign rd_value = rd_sel;

always @* begin
    rd_sel  = 64'd0;
    inc_sel = 64'd0;
    for (ri = 0; ri < REASONS; ri = ri + 1) begin
        if (rd_index == ri[5:0]) begin
            rd_sel = rd_sel | count_reg[ri*64 +: 64];
        end
        if (inc_reason == ri[5:0]) begin
            inc_sel = inc_sel | count_reg[ri*64 +: 64];
        end
    end
    inc_sum    = inc_sel + 64'd1;
    count_next = count_reg;
    for (ri = 0; ri < REASONS; ri = ri + 1) begin
        if (clear) begin
            count_next[ri*64 +: 64] = 64'd0;
        end else if (inc_valid && inc_reason == ri[5:0]) begin
            count_next[ri*64 +: 64] = inc_sum;
        end
    end
end

// ----------------------------------------------------------------------------
// Register update (the counters are state: reset clears them, as engine_init does)
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    count_reg <= count_next;

    if (rst) begin
        count_reg <= {REASONS*64{1'b0}};
    end
end

endmodule

`resetall
