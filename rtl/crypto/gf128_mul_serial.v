/*
 * gf128_mul_serial — digit-serial multiplier in GF(2^128) with the GCM polynomial.
 *
 * Function
 *   m_y = s_a * s_b mod (x^128 + x^7 + x^2 + x + 1), the X • Y of SP 800-38D §6.3 and the
 *   same result as the combinational gf128_mul (C model: ibsec_gf128_mul), computed
 *   DIGIT_WIDTH coefficients of s_b per clock by Horner's rule from the highest degree
 *   down:
 *     acc = 0;  for each digit d of s_b, highest first:
 *       acc = (acc * x^DIGIT_WIDTH + s_a * d) mod P
 *   One step multiplies the accumulator by x^DIGIT_WIDTH (a shift) and adds s_a times a
 *   DIGIT_WIDTH-term polynomial (DIGIT_WIDTH AND terms per bit); the sum has degree
 *   < 128 + DIGIT_WIDTH, and its overflow t (DIGIT_WIDTH coefficients of x^128 and up)
 *   folds back as t * (1 + x + x^2 + x^7) (x^128 = x^7 + x^2 + x + 1 mod P), degree
 *   < DIGIT_WIDTH + 7 < 128, so one fold per step suffices.
 *   It serves the key install of gcm_core, where the powers of H are computed once per
 *   key and a full combinational multiplier (about 12,000 LUT4) would sit idle.
 *
 * Interface / handshake
 *   s_valid/s_ready: a product is taken when both are high (s_a, s_b sampled then);
 *   s_ready is high whenever no product is running, including the cycle in which the
 *   previous result is presented, so products can follow each other back to back.
 *   m_valid is high for one cycle when m_y holds the result; m_y keeps it until the next
 *   product is taken. No back-pressure on the result.
 *
 * Latency / throughput
 *   A product taken in cycle t is on m_y with m_valid in cycle t + LATENCY,
 *   LATENCY = 128 / DIGIT_WIDTH + 1 (17 for DIGIT_WIDTH = 8: one cycle to load the
 *   operands, then one digit per cycle). One product at a time.
 *   Logic per step: a result bit is the XOR of the shifted accumulator bit, DIGIT_WIDTH
 *   AND terms and up to four fold terms (each an XOR of the same kind): about 4-5 LUT4
 *   levels for DIGIT_WIDTH = 8, far shorter than the GHASH loop.
 *   DIGIT_WIDTH = 8 (16 steps) is chosen as a balance: the step logic grows with the
 *   digit (about 128 * DIGIT_WIDTH / 2 LUT4 for the AND terms), the operand and
 *   accumulator registers and their load multiplexers (about 3 * 128 flip-flops and LUTs)
 *   do not, and an install computes only LANES products.
 *
 * DATA FORMATS
 *   s_a, s_b, m_y are blocks in GCM bit order (docs/conventions.md): SP 800-38D bit b_i,
 *   the coefficient of x^i, is vector bit [127-i]; byte 0 of the block is [127:120] with
 *   b0 as its most significant bit. The element 1 is 128'h8000...0. Internally the
 *   module renames the bits into natural polynomial order (bit d = coefficient of x^d)
 *   so that multiplying by x^DIGIT_WIDTH is a left shift; the renaming is wiring.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * GF(2^128) digit-serial multiplier, GCM bit order
 */
module gf128_mul_serial #(
    // coefficients of s_b consumed per clock (a divisor of 128, at most 64)
    parameter DIGIT_WIDTH = 8
) (
    input  wire         clk,
    input  wire         rst,

    /*
     * Operands
     */
    input  wire         s_valid,
    output wire         s_ready,
    input  wire [127:0] s_a,
    input  wire [127:0] s_b,

    /*
     * Product (one-cycle m_valid, m_y held until the next product is taken)
     */
    output wire         m_valid,
    output wire [127:0] m_y
);

// ----------------------------------------------------------------------------
// Constants and parameter checks
// ----------------------------------------------------------------------------
// digits of s_b, one per step
localparam STEPS = 128 / DIGIT_WIDTH;
localparam CNT_WIDTH = $clog2(STEPS + 1);
// STEPS at the counter's width (the value the step counter is loaded with)
localparam [CNT_WIDTH-1:0] STEPS_LOAD = STEPS[CNT_WIDTH-1:0];

generate
    if (DIGIT_WIDTH < 1 || DIGIT_WIDTH > 64 || STEPS * DIGIT_WIDTH != 128) begin : g_bad_digit
        initial begin
            $error("Error: gf128_mul_serial DIGIT_WIDTH must divide 128 and be at most 64 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Functions
// ----------------------------------------------------------------------------
// GCM bit order <-> natural order (bit d = coefficient of x^d): a bit reversal
function [127:0] reflect;
    input [127:0] v;
    integer k;
    begin
        for (k = 0; k < 128; k = k + 1) begin
            reflect[k] = v[127-k];
        end
    end
endfunction

// one Horner step in natural order: (acc * x^DIGIT_WIDTH + a * d) mod P
function [127:0] horner_step;
    input [127:0]             acc;
    input [127:0]             a;
    input [DIGIT_WIDTH-1:0]   d;
    reg   [127+DIGIT_WIDTH:0] t;
    reg   [DIGIT_WIDTH-1:0]   ovf;
    integer k;
    begin
        t = {acc, {DIGIT_WIDTH{1'b0}}};
        for (k = 0; k < DIGIT_WIDTH; k = k + 1) begin
            t = t ^ (({{DIGIT_WIDTH{1'b0}}, a} << k) & {(128+DIGIT_WIDTH){d[k]}});
        end
        // fold the coefficients of x^128..x^(127+DIGIT_WIDTH): x^128 = 1 + x + x^2 + x^7
        ovf = t[127+DIGIT_WIDTH:128];
        horner_step = t[127:0] ^ {{(128-DIGIT_WIDTH){1'b0}}, ovf} ^
                      {{(127-DIGIT_WIDTH){1'b0}}, ovf, 1'b0} ^
                      {{(126-DIGIT_WIDTH){1'b0}}, ovf, 2'b0} ^
                      {{(121-DIGIT_WIDTH){1'b0}}, ovf, 7'b0};
    end
endfunction

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg                 busy_reg = 1'b0, busy_next;
reg                 m_valid_reg = 1'b0, m_valid_next;
reg [CNT_WIDTH-1:0] cnt_reg, cnt_next;      // steps still to do
reg [127:0]         a_reg, a_next;          // s_a, natural order
reg [127:0]         b_reg, b_next;          // s_b, natural order, next digit at the top
reg [127:0]         acc_reg, acc_next;      // Horner accumulator, natural order

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign s_ready = !busy_reg;
assign m_valid = m_valid_reg;
assign m_y     = reflect(acc_reg);

// ----------------------------------------------------------------------------
// Load, then one digit per clock
// ----------------------------------------------------------------------------
always @* begin
    busy_next    = busy_reg;
    m_valid_next = 1'b0;
    cnt_next     = cnt_reg;
    a_next       = a_reg;
    b_next       = b_reg;
    acc_next     = acc_reg;

    if (busy_reg) begin
        acc_next = horner_step(acc_reg, a_reg, b_reg[127 -: DIGIT_WIDTH]);
        b_next   = b_reg << DIGIT_WIDTH;
        cnt_next = cnt_reg - 1'b1;
        if (cnt_reg == 1) begin
            busy_next    = 1'b0;
            m_valid_next = 1'b1;
        end
    end else if (s_valid) begin
        a_next    = reflect(s_a);
        b_next    = reflect(s_b);
        acc_next  = 128'd0;
        cnt_next  = STEPS_LOAD;
        busy_next = 1'b1;
    end
end

// ----------------------------------------------------------------------------
// Register update: control state is reset, the datapath is not
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    busy_reg    <= busy_next;
    m_valid_reg <= m_valid_next;
    cnt_reg     <= cnt_next;
    a_reg       <= a_next;
    b_reg       <= b_next;
    acc_reg     <= acc_next;

    if (rst) begin
        busy_reg    <= 1'b0;
        m_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
