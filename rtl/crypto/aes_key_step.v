/*
 * aes_key_step — one step of the on-the-fly AES key schedule (FIPS-197 §5.2, KeyExpansion)
 * for AES-128 and AES-256, the key size chosen per beat: it produces the round key of
 * round ROUND and the schedule state the next round needs.
 *
 * Schedule state entering round r (256 bits, {A, B}, A in [255:128]):
 *     B = rk[r-1], the previous round key (words w[4r-4..4r-1]) - both key sizes;
 *     A = rk[r-2] for AES-256 (words w[4r-8..4r-5]), except entering round 1 where
 *         A = rk[1] = key bytes 16..31 (the second half of the cipher key);
 *     A is unused for AES-128.
 *   So the state entering round 1 is just the cipher key with its halves swapped,
 *   {key[127:0], key[255:128]}, for both sizes.
 * Round key of round r (FIPS-197 §5.2 with Nk = 4 or 8, four words at a time):
 *     AES-256, r = 1:  rk[1] = A                                (the key's second half)
 *     otherwise:       t     = SubWord(RotWord(B.w3)) ^ Rcon   (AES-128; AES-256, r even)
 *                      t     = SubWord(B.w3)                   (AES-256, r odd: i mod Nk = 4)
 *                      base  = AES-256 ? A : B                 (w[i-Nk])
 *                      rk.w0 = base.w0 ^ t,  rk.wj = base.wj ^ rk.w(j-1)  (j = 1..3)
 *     Rcon = x^(r-1) for AES-128 and x^(r/2-1) for AES-256 (FIPS-197 §5.2, Rcon[i/Nk]).
 * State leaving round r: {B, rk[r]}.
 *
 * The step is split like aes_round: the S-box half (sub_word_out, from last_word = B.w3
 * of the state entering the round) and the XOR half (from key_mid, the whole state, and
 * sub_word_in). The pipeline wires them together for one stage per round, or registers
 * the state and sub_word_out between them for two, so that the
 * key schedule is retimed exactly like the data (S-boxes before the mid-round register,
 * XORs after it).
 *
 * SBOX_IMPL (see aes_sub_bytes): 0 = LUT S-boxes, the step is combinational; 1 = block
 * RAM S-boxes (two dual-port ROMs), whose synchronous read registers sub_word_out: the
 * pipeline then uses it as the mid-round register of the SubWord result.
 *
 * Latency:    combinational (0 cycles) with SBOX_IMPL = 0: 4 S-boxes, then Rcon and a
 *             4-word XOR chain; with SBOX_IMPL = 1 sub_word_out is 1 cycle after
 *             last_word, the XOR half stays combinational.
 * Throughput: one key step per evaluation.
 * Bit order:  big-endian block order of docs/conventions.md: in a 128-bit round key
 *             w0 (the lowest-numbered word, FIPS-197 w[4r]) is [127:96] and w3 is [31:0];
 *             in a word, byte a0 (FIPS-197 [a0,a1,a2,a3]) is [31:24].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module aes_key_step #(
    // the AES round whose round key this step produces (1..14)
    parameter ROUND = 1,
    // S-box implementation: 0 = LUT table (combinational), 1 = block RAM ROM (registered)
    parameter SBOX_IMPL = 0
) (
    // clocks the block RAM S-boxes (SBOX_IMPL = 1); unused otherwise
    input  wire         clk,

    // first half: SubWord of w[i-1], the last word of B (key state bits [31:0])
    input  wire [31:0]  last_word,
    input  wire         aes256_in,
    output wire [31:0]  sub_word_out,

    // second half: Rcon and the XOR chain
    input  wire [255:0] key_mid,
    input  wire         aes256_mid,
    input  wire [31:0]  sub_word_in,
    output wire [127:0] round_key,
    output wire [255:0] key_out
);

// reduction of x^8 modulo m(x) = x^8 + x^4 + x^3 + x + 1 ({11b}, FIPS-197 §4.2)
localparam [7:0] XTIME_POLY = 8'h1b;

// Rcon[i] = x^(i-1) in GF(2^8) (FIPS-197 §5.2), i >= 1, by repeated xtime (§4.2.1)
function [7:0] rcon(input integer i);
    integer n;
    begin
        rcon = 8'h01;
        for (n = 1; n < i; n = n + 1)
            rcon = {rcon[6:0], 1'b0} ^ (rcon[7] ? XTIME_POLY : 8'h00);
    end
endfunction

// round constants of this step for each key size (AES-256 odd rounds use none)
localparam [7:0] RCON_128 = rcon(ROUND);
localparam [7:0] RCON_256 = (ROUND % 2 == 0) ? rcon(ROUND / 2) : 8'h00;
// AES-256 odd rounds take SubWord without RotWord (FIPS-197 §5.2, i mod Nk = 4)
localparam ROT_256 = (ROUND % 2 == 0);

generate
    if (ROUND < 1 || ROUND > 14) begin : g_check
        initial begin
            $error("aes_key_step: ROUND must be 1..14 (instance %m)");
            $finish;
        end
    end
endgenerate

// first half: RotWord (when needed) and SubWord of B.w3
wire        rot_word  = !aes256_in || ROT_256;
wire [31:0] sub_word_src = rot_word ? {last_word[23:0], last_word[31:24]} : last_word;

genvar k;

generate
    if (SBOX_IMPL == 1) begin : g_rom
        // bytes 2j and 2j+1 of the word share one dual-port ROM
        for (k = 0; k < 4; k = k + 2) begin : g_pair
            aes_sbox_rom2 sbox_rom_inst (
                .clk(clk),
                .a_in(sub_word_src[31-8*k -: 8]),
                .a_out(sub_word_out[31-8*k -: 8]),
                .b_in(sub_word_src[23-8*k -: 8]),
                .b_out(sub_word_out[23-8*k -: 8])
            );
        end
    end else begin : g_lut
        // the combinational tables take no clock
        wire unused_clk = clk;

        for (k = 0; k < 4; k = k + 1) begin : g_sbox
            aes_sbox sbox_inst (
                .in(sub_word_src[31-8*k -: 8]),
                .out(sub_word_out[31-8*k -: 8])
            );
        end
    end
endgenerate

// second half: Rcon and the XOR chain
wire [127:0] key_a = key_mid[255:128];
wire [127:0] key_b = key_mid[127:0];
wire [127:0] base  = aes256_mid ? key_a : key_b;
wire [31:0]  t     = sub_word_in ^ {(aes256_mid ? RCON_256 : RCON_128), 24'h000000};

wire [31:0] w0 = base[127:96] ^ t;
wire [31:0] w1 = base[95:64]  ^ w0;
wire [31:0] w2 = base[63:32]  ^ w1;
wire [31:0] w3 = base[31:0]   ^ w2;

assign round_key = (ROUND == 1 && aes256_mid) ? key_a : {w0, w1, w2, w3};
assign key_out   = {key_b, round_key};

endmodule

`resetall
