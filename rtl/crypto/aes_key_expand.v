/*
 * aes_key_expand — AES-128/AES-256 key expansion (FIPS-197 §5.2, KeyExpansion), one round
 * key per clock, for filling a round-key table (aes_pipeline with KEY_TABLE = 1).
 *
 * Function:   after s_valid && s_ready with (s_key, s_aes256), the round keys rk[0..14]
 *             come out in order on m_key, one every two clocks, m_round = r, m_valid = 1
 *             for one clock each, the last one with m_last = 1. AES-128 uses rk[0..10]; rk[11..14] of an AES-128
 *             key are produced too (the schedule simply continues) and are never read by
 *             the pipeline, whose rounds 11..14 pass AES-128 blocks through unchanged.
 * Latency:    rk[0] on the clock after the handshake; rk[r] 2r clocks later (rk[14] 28).
 * Throughput: one key per 29 clocks (s_ready is low while a key is being expanded).
 * Timing:     each step takes two clocks: SubWord (the S-boxes) into a register, then
 *             Rcon and the XOR chain, so that neither is in series with the other.
 * Reset:      rst (synchronous, active high) stops an expansion in progress.
 *
 * Schedule state, as in aes_key_step: after rk[r] has been produced, b = rk[r] and
 * a = rk[r-1] (for r = 0, a holds the key's second half, which is rk[1] of AES-256).
 * The next round key r + 1 (FIPS-197 §5.2 with Nk = 4 or 8, four words at a time):
 *     AES-256, r + 1 = 1:  rk[1] = a
 *     otherwise:           t     = SubWord(RotWord(b.w3)) ^ Rcon  (AES-128; AES-256 even)
 *                          t     = SubWord(b.w3)                  (AES-256 odd: i mod Nk = 4)
 *                          base  = AES-256 ? a : b                (w[i-Nk])
 *                          w0    = base.w0 ^ t,  wj = base.wj ^ w(j-1)  (j = 1..3)
 * Rcon starts at x^0 = {01} and is multiplied by x (xtime, FIPS-197 §4.2.1) after each
 * step that uses it, which gives Rcon[r] for AES-128 and Rcon[r/2] for AES-256.
 *
 * Cost: four LUT S-boxes (aes_sbox), a 256-bit state, the 32-bit SubWord register, Rcon
 * and a round counter; an S-box deep in one clock, a five-input XOR in the other. An
 * install is rare, so one step per two clocks suffices.
 *
 * This is aes_key_step's arithmetic with the round as a run-time value: aes_key_step fixes
 * Rcon, the rotation rule and the first-round case at elaboration (its ROUND parameter)
 * so that each pipeline stage holds only its own step, which a sequential expander
 * cannot use. The two are checked against each other only through their users: the
 * AES benches (aes_pipeline with KEY_TABLE = 0) and the GCM benches (KEY_TABLE = 1), both
 * against OpenSSL.
 *
 * Bit order: big-endian block order of docs/conventions.md: s_key byte 0 is [255:248]
 * (AES-128 keys in [255:128]); in a round key, w0 (FIPS-197 w[4r]) is [127:96], and in a
 * word, byte a0 is [31:24].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module aes_key_expand (
    input  wire         clk,
    input  wire         rst,

    // cipher key
    input  wire         s_valid,
    output wire         s_ready,
    input  wire [255:0] s_key,
    input  wire         s_aes256,

    // round keys rk[0..14], one per clock
    output wire         m_valid,
    output wire [3:0]   m_round,
    output wire [127:0] m_key,
    output wire         m_last
);

// ----------------------------------------------------------------------------
// Constants
// ----------------------------------------------------------------------------
// last round key index (FIPS-197 Nr = 14 for AES-256; AES-128 keys run to it as well)
localparam [3:0] LAST_ROUND = 4'd14;
// Rcon[1] = x^0 (FIPS-197 §5.2)
localparam [7:0] RCON_FIRST = 8'h01;
// reduction of x^8 modulo m(x) = x^8 + x^4 + x^3 + x + 1 ({11b}, FIPS-197 §4.2)
localparam [7:0] XTIME_POLY = 8'h1b;

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg          busy_reg = 1'b0, busy_next;
reg  [3:0]   round_reg, round_next;      // index of the round key in b_reg
reg          aes256_reg, aes256_next;
reg  [127:0] a_reg, a_next;
reg  [127:0] b_reg, b_next;
reg  [7:0]   rcon_reg, rcon_next;
// the step's two clocks: 0 = SubWord of rk[round] into sub_reg (m_valid), 1 = the XOR chain
reg          phase_reg, phase_next;
reg  [31:0]  sub_reg, sub_next;
// the next step takes RotWord and Rcon (see step_rot), and is step 1 (rk[1])
reg          rot_reg, rot_next;
reg          first_reg, first_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire [3:0]   step_round = round_reg + 4'd1;
// AES-256 odd rounds take SubWord without RotWord and without Rcon (i mod Nk = 4): the
// step to rk[round + 1] takes them when !aes256 || !(round + 1)[0], kept in rot_reg
wire         step_rot   = rot_reg;
wire [31:0]  sub_src    = step_rot ? {b_reg[23:0], b_reg[31:24]} : b_reg[31:0];
wire [31:0]  sub_word;
wire [31:0]  step_t     = sub_reg ^ {(step_rot ? rcon_reg : 8'h00), 24'h000000};
wire [127:0] step_base  = aes256_reg ? a_reg : b_reg;
wire [31:0]  step_w0    = step_base[127:96] ^ step_t;
wire [31:0]  step_w1    = step_base[95:64]  ^ step_w0;
wire [31:0]  step_w2    = step_base[63:32]  ^ step_w1;
wire [31:0]  step_w3    = step_base[31:0]   ^ step_w2;
wire [127:0] step_key   = (aes256_reg && first_reg) ? a_reg
                                                     : {step_w0, step_w1, step_w2, step_w3};

genvar k;

generate
    for (k = 0; k < 4; k = k + 1) begin : g_sbox
        aes_sbox sbox_inst (
            .in(sub_src[31-8*k -: 8]),
            .out(sub_word[31-8*k -: 8])
        );
    end
endgenerate

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign s_ready = !busy_reg;
assign m_valid = busy_reg && !phase_reg;
assign m_round = round_reg;
assign m_key   = b_reg;
assign m_last  = busy_reg && !phase_reg && round_reg == LAST_ROUND;

// ----------------------------------------------------------------------------
// Next state
// ----------------------------------------------------------------------------
always @* begin
    busy_next   = busy_reg;
    round_next  = round_reg;
    aes256_next = aes256_reg;
    a_next      = a_reg;
    b_next      = b_reg;
    rcon_next   = rcon_reg;
    phase_next  = phase_reg;
    sub_next    = sub_word;
    rot_next    = rot_reg;
    first_next  = first_reg;

    if (busy_reg) begin
        if (!phase_reg) begin
            // rk[round] is out; SubWord of its last word into sub_reg
            if (round_reg == LAST_ROUND) begin
                busy_next = 1'b0;
            end else begin
                phase_next = 1'b1;
            end
        end else begin
            phase_next = 1'b0;
            round_next = step_round;
            a_next     = b_reg;
            b_next     = step_key;
            if (step_rot) begin
                rcon_next = {rcon_reg[6:0], 1'b0} ^ (rcon_reg[7] ? XTIME_POLY : 8'h00);
            end
            // the step after this one, to rk[round + 2]: (round + 2)[0] = round[0]
            rot_next   = !aes256_reg || !round_reg[0];
            first_next = 1'b0;
        end
    end else begin
        // idle: the state follows s_key, so that only busy depends on s_valid (rk[0] is
        // the key's first half; a holds the second half)
        busy_next   = s_valid;
        round_next  = 4'd0;
        aes256_next = s_aes256;
        a_next      = s_key[127:0];
        b_next      = s_key[255:128];
        rcon_next   = RCON_FIRST;
        phase_next  = 1'b0;
        // the first step, to rk[1] (odd): RotWord and Rcon for AES-128 only
        rot_next    = !s_aes256;
        first_next  = 1'b1;
    end
end

// ----------------------------------------------------------------------------
// Register update
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    busy_reg   <= busy_next;
    round_reg  <= round_next;
    aes256_reg <= aes256_next;
    a_reg      <= a_next;
    b_reg      <= b_next;
    rcon_reg   <= rcon_next;
    phase_reg  <= phase_next;
    sub_reg    <= sub_next;
    rot_reg    <= rot_next;
    first_reg  <= first_next;

    if (rst) begin
        busy_reg <= 1'b0;
    end
end

endmodule

`resetall
