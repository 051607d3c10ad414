/*
 * ghash_engine — GHASH (SP 800-38D §6.4) over LANES blocks per beat, aggregated reduction.
 *
 * Function
 *   A message is a sequence of beats; beat n carries k_n blocks (0 <= k_n <= LANES) in
 *   lanes 0..k_n-1 and the hash-key powers H^1..H^NPOW of that message. Per beat:
 *     Y = (Y ^ X_0)*H^k ^ X_1*H^(k-1) ^ ... ^ X_(k-1)*H         (Y = 0 before the first beat)
 *   with ONE reduction per beat: the k+1 products are XORed unreduced (255 bits) and the sum
 *   is reduced once. This is ibsec_ghash_fold_beat of the C model, step for step. After the
 *   beat flagged s_last, m_ghash = Y = GHASH_H(X_0 .. X_(m-1)) with a one-cycle m_valid.
 *   Blocks of a message are absorbed in order: lane 0 of a beat before lane 1, and every
 *   lane of a beat before the next beat; a beat with fewer than LANES blocks may appear
 *   anywhere in a message, so any split of the block sequence into beats gives the same S.
 *   The engine knows nothing about AAD, ciphertext, padding or the length block: the
 *   caller hands it complete 128-bit blocks (partial blocks zero-padded, SP 800-38D §7.1
 *   step 5), and the length block [len(A)]64 || [len(C)]64 as one more block, either in a
 *   free lane of the last beat or alone in an extra last beat (k = 1). A beat with k = 0
 *   leaves Y unchanged (an empty message, s_first and s_last with k = 0, gives S = 0).
 *
 *   Every message may use a different key: s_hpow is sampled with each beat and used for
 *   that beat only; the caller keeps it constant within a message (the engine does not
 *   check). H^i for i > NPOW is never needed.
 *
 *   Trailing zero blocks (NPOW > LANES): s_count may exceed the blocks a beat carries.
 *   Lanes 0..min(k, LANES)-1 take part, lane i multiplied by H^(k-i); lanes below k that
 *   carry no block must hold zero, and k > LANES counts zero blocks after the last lane.
 *   gcm_core uses this to give its last beat one more power of H (k = blocks + 1) and
 *   adds the length block's term L*H itself (gcm_len_mul), so that the length block needs
 *   no lane and no multiplier of this engine. With NPOW = LANES (the default) k is at
 *   most LANES and every lane below k carries a block.
 *
 * Interface / handshake
 *   Valid only, no ready: the engine accepts a beat on every cycle with s_valid = 1 and
 *   never stalls (the GCM core drives it from its free-running pipeline). s_valid = 0
 *   cycles (idle beats) may appear anywhere, also inside a message. s_first marks the
 *   first beat of a message (Y starts from 0), s_last the last (the result is emitted);
 *   both may be set on the same beat. Back-to-back messages need no idle beat. A message
 *   that starts without the previous one having seen s_last simply abandons the old one.
 *
 * Latency / throughput
 *   One beat per clock. LATENCY = 3: a last beat with s_valid in cycle t gives m_valid and
 *   m_ghash in cycle t+3 (for one cycle; m_user is s_user of that last beat).
 *     stage A: per-lane power select H^(k-i) for lanes 1..LANES-1 (0 for idle lanes),
 *              the multiplier H^k of Y and X_0 (the element 1 when k = 0), lane 0's
 *              block (0 when k = 0), the first-beat flag                      -> registers
 *     stage B: LANES - 1 carry-less products X_i * H^(k-i), i >= 1, XOR of them
 *              (unreduced); lane 0's block and H^k passed on                    -> registers
 *     stage C: ((first ? 0 : Y) ^ X_0) * H^k (carry-less) ^ stage-B sum, one
 *              reduction                                                       -> Y register
 *
 * Area: LANES carry-less multipliers (gf128_clmul; one was about 5,800 TRELLIS_COMB of
 *   the ECP5 in either packet engine, docs/fpga.md). Lane 0's block shares Y's
 *   multiplier, since both are multiplied by H^k: (Y ^ X_0)*H^k. At LANES = 1 that is
 *   one multiplier instead of two.
 *
 * Timing: the Y recurrence
 *   Only the product with H^k depends on Y; the products of lanes 1..LANES-1 are
 *   computed a cycle earlier (stage B), so the loop is the same for every LANES:
 *     y_reg -> the operand (first ? 0 : Y) ^ X_0 (one LUT4 level: Y bit, X_0 bit, the
 *     flag) -> gf128_clmul (Karatsuba: pre-additions, 81 leaf products of 8 x 8 bits,
 *     post-additions) -> XOR with the stage-B sum -> reduction XOR (<= 13 inputs)
 *     -> y_reg,
 *   i.e. one full GF(2^128) multiply per cycle. Mapped by Yosys (synth_ecp5), the
 *   multiplier's longest path is 14 cells, 4 of them LUT4 and 10 slice multiplexers
 *   (the schoolbook product before it: 10 cells, 2 LUT4), then the sum and the reduction.
 *   This loop is the Fmax limit of the GHASH side; stages A and B are feed-forward and
 *   can be pipelined further without changing the result. H^k is a registered input.
 *   Lane 0 in the loop costs the operand's LUT level; a separate multiplier for it
 *   (X_0 * H^k in stage B, the loop Y * H^k with H^k forced to 0 on a first beat) keeps
 *   that level out of the loop at the price of a whole multiplier, which the engines at
 *   LANES = 1 cannot spare (docs/fpga.md).
 *   What would break the loop (not implemented): a 2-cycle loop (unreduced product
 *   registered, reduction in the next cycle) serving two interleaved accumulators that
 *   take alternate cycles. Each accumulator must then be multiplied by H^(k_(t-1) + k_t)
 *   (the blocks absorbed by the other accumulator in between plus its own; the power is
 *   a feed-forward product H^(k_(t-1)) * H^(k_t)), idle cycles count as k = 0, and the two
 *   are combined after the last beat T as S = A_T ^ A_(T-1) * H^(k_T), a further
 *   feed-forward multiply (about 3 more cycles of latency and 2 more multipliers).
 *
 * DATA FORMATS
 *   Blocks and powers are 128-bit vectors in GCM bit order (docs/conventions.md): bit b_i
 *   of the SP 800-38D bit string (b0 leftmost, the coefficient of x^0 in the field, §6.3)
 *   is vector bit [127-i]; byte 0 of the block — the first byte on the wire — is [127:120]
 *   with b0 as its most significant bit, so a vector printed with %032x reads exactly like
 *   the hex strings of SP 800-38D and the GCM test vectors. The element 1 is
 *   128'h8000...0. Lane i of a beat is s_block[128*i +: 128]; H^(i+1) is
 *   s_hpow[128*i +: 128] (H^1 in the lowest lane). The block order is NOT the AXI4-Stream
 *   byte order: the crypto core converts once at its stream ports.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * GHASH engine, LANES blocks per clock, aggregated reduction
 */
module ghash_engine #(
    // 128-bit blocks per beat (ibsec uses 1, 4, 12; any value >= 1 works)
    parameter LANES = 1,
    // powers of H per beat, H^1..H^NPOW, and the largest s_count (LANES or more: see
    // "Trailing zero blocks")
    parameter NPOW = LANES,
    // side-band carried from the last beat of a message to its result
    parameter USER_WIDTH = 1
) (
    input  wire                        clk,
    input  wire                        rst,

    /*
     * Beat input (valid only, no back-pressure)
     */
    input  wire                        s_valid,
    // lane i (block X_i) at [128*i +: 128]; lanes >= s_count are ignored
    input  wire [LANES*128-1:0]        s_block,
    // number of blocks in this beat, 0..NPOW, in lanes 0..s_count-1 (zero blocks beyond
    // LANES when s_count > LANES)
    input  wire [$clog2(NPOW+1)-1:0]   s_count,
    // H^(i+1) at [128*i +: 128], i = 0..NPOW-1, for this beat's message
    input  wire [NPOW*128-1:0]         s_hpow,
    // first beat of a message: Y starts from 0
    input  wire                        s_first,
    // last beat of a message: emit the result LATENCY cycles later
    input  wire                        s_last,
    input  wire [USER_WIDTH-1:0]       s_user,

    /*
     * Result output (one cycle per message, no back-pressure)
     */
    output wire                        m_valid,
    output wire [127:0]                m_ghash,
    output wire [USER_WIDTH-1:0]       m_user
);

// ----------------------------------------------------------------------------
// Parameters and checks
// ----------------------------------------------------------------------------
// width of s_count
localparam CNT_WIDTH = $clog2(NPOW+1);
// the field's element 1 in GCM bit order (b0 = vector bit 127)
localparam [127:0] GF_ONE = {1'b1, 127'd0};

generate
    if (LANES < 1) begin : g_bad_lanes
        initial begin
            $error("Error: LANES must be at least 1 (instance %m)");
            $finish;
        end
    end
    if (NPOW < LANES) begin : g_bad_npow
        initial begin
            $error("Error: NPOW must be at least LANES (instance %m)");
            $finish;
        end
    end
    if (USER_WIDTH < 1) begin : g_bad_user
        initial begin
            $error("Error: USER_WIDTH must be at least 1 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// stage A: selected operands
reg                   a_valid_reg = 1'b0, a_valid_next;
reg                   a_first_reg, a_first_next;
reg                   a_last_reg, a_last_next;
reg [USER_WIDTH-1:0]  a_user_reg, a_user_next;
reg [LANES*128-1:0]   a_block_reg, a_block_next;  // lane 0 is 0 when k = 0
reg [127:0]           a_hk_reg, a_hk_next;        // multiplier of Y and X_0: H^k, 1 (k = 0)

// stage B: unreduced sum of the products of lanes 1..LANES-1; lane 0 and H^k
reg                   b_valid_reg = 1'b0, b_valid_next;
reg                   b_first_reg, b_first_next;
reg                   b_last_reg, b_last_next;
reg [USER_WIDTH-1:0]  b_user_reg, b_user_next;
reg [254:0]           b_sum_reg, b_sum_next;
reg [127:0]           b_x0_reg, b_x0_next;
reg [127:0]           b_hk_reg, b_hk_next;

// stage C: the GHASH state
reg [127:0]           y_reg, y_next;
reg                   m_valid_reg = 1'b0, m_valid_next;
reg [USER_WIDTH-1:0]  m_user_reg, m_user_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire [254:0]          lane_sum;        // XOR of X_i * H^(k-i), i = 1..LANES-1, unreduced
wire [127:0]          loop_op;         // (first ? 0 : Y) ^ X_0
wire [254:0]          loop_prod;       // loop_op * H^k, unreduced
wire [127:0]          loop_red;        // reduce(loop_op * H^k ^ stage-B sum)

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign m_valid = m_valid_reg;
assign m_ghash = y_reg;
assign m_user  = m_user_reg;

// ----------------------------------------------------------------------------
// Stage A: power selection. Lane i of a k-block beat is multiplied by H^(k-i);
// H^j is s_hpow[128*(j-1) +: 128]. Lane 0's multiplier is H^k, Y's own.
// ----------------------------------------------------------------------------
wire [31:0] count_w = {{(32-CNT_WIDTH){1'b0}}, s_count};
integer j;

always @* begin
    a_valid_next = s_valid;
    a_first_next = s_first;
    a_last_next  = s_last;
    a_user_next  = s_user;
    a_block_next = s_block;
    // lane 0 shares Y's multiplier, which is the element 1 when k = 0: its block must be
    // 0 then (lanes >= s_count carry anything)
    if (count_w == 0) begin
        a_block_next[127:0] = 128'd0;
    end

    a_hk_next = GF_ONE;
    for (j = 1; j <= NPOW; j = j + 1) begin
        if (count_w == j) begin
            a_hk_next = s_hpow[128*(j-1) +: 128];
        end
    end
end

// ----------------------------------------------------------------------------
// Stage B: lanes 1..LANES-1, each with its power H^(k-i) selected in stage A and one
// carry-less product, XORed unreduced; lane 0 and H^k go on to stage C
// ----------------------------------------------------------------------------
generate
    if (LANES > 1) begin : g_lanes
        // stage A register: H^(k-i) for lane i >= 1 at [128*(i-1) +: 128], 0 for idle lanes
        reg [(LANES-1)*128-1:0] a_pow_reg, a_pow_next;
        wire [(LANES-1)*255-1:0] lane_prod;
        reg [254:0] sum;
        integer li, lj;

        always @* begin
            a_pow_next = {(LANES-1)*128{1'b0}};
            // k <= NPOW and i >= 1, so H^(k-i) is at most H^(NPOW-1): H^NPOW is lane 0's
            // alone (a_hk); a larger k is no legal count and selects nothing
            for (li = 1; li < LANES; li = li + 1) begin
                for (lj = 1; lj < NPOW; lj = lj + 1) begin
                    if (count_w == li + lj) begin
                        a_pow_next[128*(li-1) +: 128] = s_hpow[128*(lj-1) +: 128];
                    end
                end
            end
        end

        genvar g;
        for (g = 1; g < LANES; g = g + 1) begin : g_lane
            gf128_clmul lane_clmul_inst (
                .a(a_block_reg[128*g +: 128]),
                .b(a_pow_reg[128*(g-1) +: 128]),
                .p(lane_prod[255*(g-1) +: 255])
            );
        end

        always @* begin
            sum = 255'd0;
            for (li = 1; li < LANES; li = li + 1) begin
                sum = sum ^ lane_prod[255*(li-1) +: 255];
            end
        end
        assign lane_sum = sum;

        always @(posedge clk) begin
            a_pow_reg <= a_pow_next;
        end
    end else begin : g_one_lane
        // lane 0 alone: every product is the loop's
        assign lane_sum = 255'd0;
    end
endgenerate

always @* begin
    b_valid_next = a_valid_reg;
    b_first_next = a_first_reg;
    b_last_next  = a_last_reg;
    b_user_next  = a_user_reg;
    b_x0_next    = a_block_reg[127:0];
    b_hk_next    = a_hk_reg;
    b_sum_next   = lane_sum;
end

// ----------------------------------------------------------------------------
// Stage C: the recurrence Y = reduce(((first ? 0 : Y) ^ X_0) * H^k ^ sum), one
// reduction per beat
// ----------------------------------------------------------------------------
assign loop_op = (b_first_reg ? 128'd0 : y_reg) ^ b_x0_reg;

gf128_clmul loop_clmul_inst (
    .a(loop_op),
    .b(b_hk_reg),
    .p(loop_prod)
);

gf128_reduce loop_reduce_inst (
    .p(loop_prod ^ b_sum_reg),
    .r(loop_red)
);

always @* begin
    y_next       = b_valid_reg ? loop_red : y_reg;
    m_valid_next = b_valid_reg && b_last_reg;
    m_user_next  = b_user_reg;
end

// ----------------------------------------------------------------------------
// Register update: valid flags are reset, the datapath is not
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    a_valid_reg <= a_valid_next;
    a_first_reg <= a_first_next;
    a_last_reg  <= a_last_next;
    a_user_reg  <= a_user_next;
    a_block_reg <= a_block_next;
    a_hk_reg    <= a_hk_next;

    b_valid_reg <= b_valid_next;
    b_first_reg <= b_first_next;
    b_last_reg  <= b_last_next;
    b_user_reg  <= b_user_next;
    b_sum_reg   <= b_sum_next;
    b_x0_reg    <= b_x0_next;
    b_hk_reg    <= b_hk_next;

    y_reg        <= y_next;
    m_valid_reg  <= m_valid_next;
    m_user_reg   <= m_user_next;

    if (rst) begin
        a_valid_reg <= 1'b0;
        b_valid_reg <= 1'b0;
        m_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
