/*
 * aes_sbox_rom2 — two AES S-box lookups (FIPS-197 §5.1.1) with registered outputs, read
 * from one 256 x 8 ROM: written so that synthesis maps it to one dual-port block RAM
 * (ECP5: one DP16KD, one read port per lookup; Yosys infers it from the memory with two
 * synchronous read ports and the ram_style attribute).
 *
 * Function:   a_out = S(a_in), b_out = S(b_in), one clock after the inputs.
 *             S(x) = affine(x^254) in GF(2^8) mod x^8+x^4+x^3+x+1 (x^254 is the inverse
 *             of x, and 0 for x = 0), affine map of FIPS-197 eq. (5.1) with constant 0x63.
 * Latency:    1 cycle (the block RAM's synchronous read is the register).
 * Throughput: two bytes per clock.
 * Bit order:  in[7] / out[7] is the most significant bit of the byte as FIPS-197 writes
 *             it in hex (S(8'h53) = 8'hed, FIPS-197 §5.1.1).
 *
 * The ROM contents are computed from the definition by constant functions at
 * elaboration (the parameter SBOX_TABLE), not copied from aes_sbox's table, so the two implementations check each
 * other in every test that runs both. The initial block that fills the ROM is the one
 * exception to "no initial in synthesizable code" (docs/conventions.md): it is how both
 * Verilator and Yosys give a memory constant contents (Yosys turns it into the block
 * RAM's INITVAL parameters). The registers carry no reset: they are datapath.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module aes_sbox_rom2 (
    input  wire       clk,

    // lookup A
    input  wire [7:0] a_in,
    output wire [7:0] a_out,

    // lookup B
    input  wire [7:0] b_in,
    output wire [7:0] b_out
);

// reduction of x^8 modulo m(x) = x^8 + x^4 + x^3 + x + 1 ({11b}, FIPS-197 §4.2)
localparam [7:0] XTIME_POLY = 8'h1b;
// constant of the S-box's affine map (FIPS-197 eq. (5.1), c = {63})
localparam [7:0] AFFINE_C = 8'h63;

// product in GF(2^8) (FIPS-197 §4.2): shift-and-add with xtime (§4.2.1)
function [7:0] gf_mul(input [7:0] x, input [7:0] y);
    integer i;
    reg [7:0] acc, sh;
    begin
        acc = 8'h00;
        sh = x;
        for (i = 0; i < 8; i = i + 1) begin
            if (y[i])
                acc = acc ^ sh;
            sh = {sh[6:0], 1'b0} ^ (sh[7] ? XTIME_POLY : 8'h00);
        end
        gf_mul = acc;
    end
endfunction

// multiplicative inverse as x^254 = x^2 * x^4 * ... * x^128 (254 = 0b11111110); 0 -> 0
function [7:0] gf_inv(input [7:0] x);
    integer i;
    reg [7:0] acc, sq;
    begin
        acc = 8'h01;
        sq = x;
        for (i = 1; i < 8; i = i + 1) begin
            sq = gf_mul(sq, sq);
            acc = gf_mul(acc, sq);
        end
        gf_inv = acc;
    end
endfunction

// S(x): affine map b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ c of b = x^-1
function [7:0] sbox(input [7:0] x);
    reg [7:0] b;
    begin
        b = gf_inv(x);
        sbox = b ^ {b[6:0], b[7]} ^ {b[5:0], b[7:6]} ^ {b[4:0], b[7:5]} ^ {b[3:0], b[7:4]} ^
               AFFINE_C;
    end
endfunction

// the whole table, entry x in bits 8x+7:8x
function [2047:0] sbox_table(input dummy);
    integer x;
    begin
        sbox_table = {2048{dummy}};
        for (x = 0; x < 256; x = x + 1)
            sbox_table[8*x +: 8] = sbox(x[7:0]);
    end
endfunction

// A parameter, so that the functions run once at elaboration: the initial block below only
// copies constants (filled from the functions in the initial block, the simulator would
// run them in every instance, 2,688 of them in a LANES = 12 engine pair)
localparam [2047:0] SBOX_TABLE = sbox_table(1'b0);

(* ram_style = "block" *)
reg [7:0] rom [0:255];

integer k;
initial begin
    for (k = 0; k < 256; k = k + 1)
        rom[k] = SBOX_TABLE[8*k +: 8];
end

reg [7:0] a_reg, a_next;
reg [7:0] b_reg, b_next;

always @* begin
    a_next = rom[a_in];
    b_next = rom[b_in];
end

always @(posedge clk) begin
    a_reg <= a_next;
    b_reg <= b_next;
end

assign a_out = a_reg;
assign b_out = b_reg;

endmodule

`resetall
