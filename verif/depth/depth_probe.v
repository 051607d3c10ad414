/*
 * depth_probe — the self-test of make depth-check: a combinational chain of STEPS
 * dependent 32-bit additions, which synthesis can neither shorten nor balance (each
 * sum's carry chain needs the previous sum), between the registers of the flow's
 * wrapper. With STEPS = 1 its depth is within the target ceiling; with STEPS = 8 it is
 * far above it, and the check must fail it.
 *
 * Latency: combinational (the wrapper puts one register on each port).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module depth_probe #(
    // dependent additions in series
    parameter STEPS = 8
) (
    input  wire [31:0] in,
    output wire [31:0] out
);

wire [31:0] x [0:STEPS];
assign x[0] = in;
genvar i;
generate
    for (i = 0; i < STEPS; i = i + 1) begin : g_step
        // rotate, add, and mix in a constant per step (odd multiples of the golden
        // ratio's 32-bit fraction), so that no two steps are alike
        localparam [31:0] K = 32'h9e3779b9 * (2 * i + 1);
        assign x[i+1] = {x[i][26:0], x[i][31:27]} + (x[i] ^ K);
    end
endgenerate
assign out = x[STEPS];

endmodule

`resetall
