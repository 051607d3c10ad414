/*
 * tb_crc_top — Verilator test top of the CRC bench (verif only, not in rtl/).
 *
 * Puts the three CRC blocks behind one set of ports so one Verilated model serves the
 * bench: ib_icrc_engine and ib_vcrc_engine, each on its own stream ports (the harness
 * drives them with independent schedules), and the combinational ib_vcrc_extend4. Each
 * engine is there at UNPAD_BITS = 1 (the default, outputs icrc_out*, vcrc_out*) and, at
 * LANES = 1 and 4, a second time on the same inputs at UNPAD_BITS = 2 (icrc2_out*,
 * vcrc2_out*; stage D is the same generate code at every width, and leaving the second
 * pair out at LANES = 12 halves that build). The checker sees only these ports. lanes
 * reports the LANES this model was built with, variants how many instances per engine.
 *
 * DATA FORMATS
 *   AXI4-Stream order as in the engines: byte j of a beat at [8j+7:8j], in_ones[j] with
 *   byte j; CRC values as integers (first wire byte at [7:0]).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_crc_top #(
    // 128-bit lanes per beat
    parameter LANES = 1
) (
    input  wire                          clk,
    input  wire                          rst,

    /*
     * ib_icrc_engine
     */
    input  wire                          icrc_valid,
    input  wire                          icrc_first,
    input  wire                          icrc_last,
    input  wire                          icrc_roce,
    input  wire [128*LANES-1:0]          icrc_data,
    input  wire [16*LANES-1:0]           icrc_ones,
    input  wire [$clog2(16*LANES+1)-1:0] icrc_end,
    output wire                          icrc_out_valid,
    output wire [31:0]                   icrc_out,
    output wire                          icrc2_out_valid,
    output wire [31:0]                   icrc2_out,

    /*
     * ib_vcrc_engine
     */
    input  wire                          vcrc_valid,
    input  wire                          vcrc_first,
    input  wire                          vcrc_last,
    input  wire [128*LANES-1:0]          vcrc_data,
    input  wire [$clog2(16*LANES+1)-1:0] vcrc_end,
    output wire                          vcrc_out_valid,
    output wire [15:0]                   vcrc_out,
    output wire                          vcrc2_out_valid,
    output wire [15:0]                   vcrc2_out,

    /*
     * ib_vcrc_extend4 (combinational)
     */
    input  wire [15:0]                   ext_vcrc,
    input  wire [31:0]                   ext_bytes,
    output wire [15:0]                   ext_out,

    output wire [7:0]                    lanes,
    output wire [1:0]                    variants
);

// instances per engine: the UNPAD_BITS = 2 pair exists below LANES = 12
localparam VARIANTS = (LANES < 12) ? 2 : 1;

assign lanes = LANES[7:0];
assign variants = VARIANTS[1:0];

ib_icrc_engine #(
    .LANES(LANES)
) icrc_inst (
    .clk(clk),
    .rst(rst),
    .in_valid(icrc_valid),
    .in_first(icrc_first),
    .in_last(icrc_last),
    .in_roce(icrc_roce),
    .in_data(icrc_data),
    .in_ones(icrc_ones),
    .in_end(icrc_end),
    .out_valid(icrc_out_valid),
    .out_icrc(icrc_out)
);

ib_vcrc_engine #(
    .LANES(LANES)
) vcrc_inst (
    .clk(clk),
    .rst(rst),
    .in_valid(vcrc_valid),
    .in_first(vcrc_first),
    .in_last(vcrc_last),
    .in_data(vcrc_data),
    .in_end(vcrc_end),
    .out_valid(vcrc_out_valid),
    .out_vcrc(vcrc_out)
);

generate
    if (VARIANTS == 2) begin : g_unpad2
        ib_icrc_engine #(
            .LANES(LANES),
            .UNPAD_BITS(2)
        ) icrc2_inst (
            .clk(clk),
            .rst(rst),
            .in_valid(icrc_valid),
            .in_first(icrc_first),
            .in_last(icrc_last),
            .in_roce(icrc_roce),
            .in_data(icrc_data),
            .in_ones(icrc_ones),
            .in_end(icrc_end),
            .out_valid(icrc2_out_valid),
            .out_icrc(icrc2_out)
        );

        ib_vcrc_engine #(
            .LANES(LANES),
            .UNPAD_BITS(2)
        ) vcrc2_inst (
            .clk(clk),
            .rst(rst),
            .in_valid(vcrc_valid),
            .in_first(vcrc_first),
            .in_last(vcrc_last),
            .in_data(vcrc_data),
            .in_end(vcrc_end),
            .out_valid(vcrc2_out_valid),
            .out_vcrc(vcrc2_out)
        );
    end else begin : g_no_unpad2
        assign icrc2_out_valid = 1'b0;
        assign icrc2_out = 32'd0;
        assign vcrc2_out_valid = 1'b0;
        assign vcrc2_out = 16'd0;
    end
endgenerate

ib_vcrc_extend4 ext_inst (
    .in_vcrc(ext_vcrc),
    .in_bytes(ext_bytes),
    .out_vcrc(ext_out)
);

endmodule

`resetall
