/*
 * gcm_len_mul — the length block's GHASH term L * H, for short messages, without a full
 * GF(2^128) multiplier.
 *
 * Function
 *   L is the GCM length block [len(A)]_64 || [len(C)]_64 (SP 800-38D §7.1 step 5 and
 *   §7.2 step 5), the lengths in bits. GHASH ends with the length block, so its term is
 *   L * H: gcm_core adds p = reduce(L * H) to the GHASH of the blocks before it (hashed
 *   with one more power of H on the last beat, ghash_engine's trailing zero block).
 *   The lengths come in bytes, alen of the AAD and clen of the data, ALEN_WIDTH and
 *   CLEN_WIDTH bits wide. Only those bits of L can be set: bit i of alen is bit i + 3 of
 *   len(A) in bits, the coefficient of x^(60 - i) (len(A) is b0..b63 of L, its least
 *   significant bit b63); bit i of clen is the coefficient of x^(124 - i). So
 *     L * H = XOR over i of alen[i] * (x^(60-i) * H)  ^  XOR over i of clen[i] * (x^(124-i) * H),
 *   ALEN_WIDTH + CLEN_WIDTH shifted copies of H, each gated by one length bit, then one
 *   reduction (gf128_reduce). A multiplication by x^d is wiring: no logic but the AND
 *   gate and the XOR of the copies that overlap.
 *
 * Area
 *   (ALEN_WIDTH + CLEN_WIDTH) * 128 AND terms, XORed into 252 product bits, then the
 *   reduction. With the packet engine's 13-bit lengths (a frame of at most 4,275
 *   bytes) that is 26 * 128 = 3,328 terms, against the 5,184 leaf terms of gf128_clmul
 *   plus its pre- and post-additions; the engines' figures are in docs/fpga.md. With 32
 *   bits each (gcm_core's default) it is 8,192 terms, about what a full multiplier costs.
 *
 * Latency / throughput
 *   STAGES = 0: combinational; STAGES = 1: the unreduced product is registered and p
 *   follows the inputs by one clock (gcm_core, so that neither half is in series with
 *   the other at its clock). A product bit is the XOR of at most ALEN_WIDTH + CLEN_WIDTH AND
 *   terms (26 at 13 bits: the copies of alen reach x^48..x^187, those of clen
 *   x^112..x^251, and both overlap on x^112..x^187), then gf128_reduce's two LUT levels.
 *
 * DATA FORMATS
 *   h and p: blocks in GCM bit order (docs/conventions.md), the coefficient of x^d at
 *   [127-d]. alen, clen: unsigned byte counts. Internally the unreduced product is in
 *   gf128_clmul's reflected 255-bit order (x^d at [254-d]), which gf128_reduce consumes.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * L * H for the GCM length block of a message with short lengths
 */
module gcm_len_mul #(
    // bits of the AAD byte count (len(A) < 2^ALEN_WIDTH bytes); at most 61 (len(A) in
    // bits is a 64-bit field)
    parameter ALEN_WIDTH = 32,
    // bits of the data byte count (len(C) < 2^CLEN_WIDTH bytes); at most 61
    parameter CLEN_WIDTH = 32,
    // register stages: 0 = combinational; 1 = the unreduced product registered before
    // the reduction (p follows alen, clen and h one clock later)
    parameter STAGES = 0
) (
    // clock of the STAGES register (unused when STAGES = 0)
    input  wire                  clk,
    input  wire [ALEN_WIDTH-1:0] alen,  // AAD bytes
    input  wire [CLEN_WIDTH-1:0] clen,  // data bytes
    input  wire [127:0]          h,     // the hash key H (GCM bit order)
    output wire [127:0]          p      // reduce(L * H)
);

generate
    if (ALEN_WIDTH < 1 || ALEN_WIDTH > 61 || CLEN_WIDTH < 1 || CLEN_WIDTH > 61) begin : g_bad_width
        initial begin
            $error("Error: ALEN_WIDTH and CLEN_WIDTH must be 1..61 (instance %m)");
            $finish;
        end
    end
    if (STAGES != 0 && STAGES != 1) begin : g_bad_stages
        initial begin
            $error("Error: gcm_len_mul STAGES must be 0 or 1 (instance %m)");
            $finish;
        end
    end
endgenerate

// H in the product's reflected order at degree 0: x^e of H (h[127-e]) at [254-e]
wire [254:0] h_at_x0 = {h, 127'd0};

// a byte count's bit i is bit i + 3 of the length in bits; len(A) in bits is b0..b63 of
// L with its least significant bit b63, len(C) is b64..b127 with b127
localparam ALEN_DEG = 63 - 3;   // x^(ALEN_DEG - i) for alen[i]
localparam CLEN_DEG = 127 - 3;  // x^(CLEN_DEG - i) for clen[i]

reg [254:0] prod;
integer i;

always @* begin
    prod = 255'd0;
    for (i = 0; i < ALEN_WIDTH; i = i + 1) begin
        if (alen[i]) begin
            prod = prod ^ (h_at_x0 >> (ALEN_DEG - i));
        end
    end
    for (i = 0; i < CLEN_WIDTH; i = i + 1) begin
        if (clen[i]) begin
            prod = prod ^ (h_at_x0 >> (CLEN_DEG - i));
        end
    end
end

// the product as the reduction takes it (registered or not)
wire [254:0] prod_red;

generate
    if (STAGES == 1) begin : g_prod_reg
        // datapath register: no reset
        reg [254:0] prod_reg;

        always @(posedge clk) begin
            prod_reg <= prod;
        end

        assign prod_red = prod_reg;
    end else begin : g_prod_comb
        assign prod_red = prod;

        /* verilator lint_off UNUSEDSIGNAL */
        // combinational: the clock is not used
        wire unused_clk = clk;
        /* verilator lint_on UNUSEDSIGNAL */
    end
endgenerate

gf128_reduce reduce_inst (
    .p(prod_red),
    .r(p)
);

endmodule

`resetall
