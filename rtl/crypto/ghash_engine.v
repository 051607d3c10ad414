/*
 * ghash_engine — GHASH (SP 800-38D §6.4) over LANES blocks per beat, aggregated reduction.
 *
 * Function
 *   A message is a sequence of beats; beat n carries k_n blocks (0 <= k_n <= LANES) in
 *   lanes 0..k_n-1 and the hash-key powers H^1..H^HPOW of that message. The result is
 *   what the beat-by-beat rule gives,
 *     Y = (Y ^ X_0)*H^k ^ X_1*H^(k-1) ^ ... ^ X_(k-1)*H         (Y = 0 before the first beat)
 *   (ibsec_ghash_fold_beat of the C model), computed by interleaved accumulators (see
 *   "The interleaved Y loop") with one reduction per cycle: the products of a cycle are
 *   XORed unreduced (255 bits) and the sum is reduced once. After the beat flagged
 *   s_last, m_ghash = GHASH_H(X_0 .. X_(m-1)) with a one-cycle m_valid.
 *   Blocks of a message are absorbed in order: lane 0 of a beat before lane 1, and every
 *   lane of a beat before the next beat; a beat with fewer than LANES blocks may appear
 *   anywhere in a message, so any split of the block sequence into beats gives the same S.
 *   The engine knows nothing about AAD, ciphertext, padding or the length block: the
 *   caller hands it complete 128-bit blocks (partial blocks zero-padded, SP 800-38D §7.1
 *   step 5), and the length block [len(A)]64 || [len(C)]64 as one more block, either in a
 *   free lane of the last beat or alone in an extra last beat (k = 1). A beat with k = 0
 *   leaves Y unchanged (an empty message, s_first and s_last with k = 0, gives S = 0).
 *
 *   Every message may use a different key: s_hpow is sampled with each valid beat and
 *   used for that beat and the idle cycles after it; the caller keeps it constant within
 *   a message (the engine does not check).
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
 * The interleaved Y loop
 *   The recurrence above needs Y before the next beat's product can start, i.e. one
 *   full GF(2^128) multiply and reduction per cycle (gcm_core's critical path when it
 *   was built that way: 56.9 MHz routed in the block RAM configuration). Instead the loop
 *   is INTERLEAVE = CLMUL_STAGES + 2 cycles long (the product with CLMUL_STAGES registers
 *   inside, a product register, the reduction into the operand register), and cycle t
 *   (every cycle, idle ones included, counts) updates accumulator t mod INTERLEAVE:
 *     A_t = ((fresh_t ? 0 : A_(t-I)) ^ X_0) * H^S_t  ^  X_1 * H^(S_t-1) ^ ...
 *   with I = INTERLEAVE, X_i the blocks of cycle t (none on an idle cycle) and
 *     S_t = k_t + k_(t+1) + ... + k_(t+I-1),
 *   the blocks of cycle t and of the I - 1 cycles after it, counted up to the message's
 *   last beat (k = 0 for idle cycles). Each accumulator is thus multiplied by exactly the
 *   powers of H the blocks absorbed after it need. fresh_t: cycle t lies within the first
 *   I cycles of its message (no cycle of the message I cycles before it). After the last
 *   beat T the result is
 *     S = A_T ^ A_(T-1) ^ ... ^ A_(T-I+1),
 *   each term only if its cycle belongs to the message. This is the same GHASH as the
 *   serial rule for any split into beats and any idle cycles (checked against the C
 *   model by the ghash bench). To know S_t, beat t waits I - 1 cycles for the counts
 *   behind it (look-ahead stages Q); an idle cycle inside a message multiplies by the
 *   powers of the last valid beat (held in the Q stages).
 *
 * Powers of H
 *   S_t is at most the sum of I consecutive counts of a message, so s_hpow carries
 *   H^1..H^HPOW, HPOW = I * NPOW by default. gcm_core's beats carry at most LANES blocks
 *   and only the last one LANES + 1, so it passes HPOW = I * LANES + 1.
 *
 * Latency / throughput
 *   One beat per clock. LATENCY = 2 * INTERLEAVE + 1 (7 with CLMUL_STAGES = 1, 11 with
 *   3): a last beat with s_valid in cycle t gives m_valid and m_ghash in cycle t + LATENCY
 *   (for one cycle; m_user is s_user of that last beat).
 *     Q1..Q(I-1): look-ahead stages (count, last, age, block, held powers)
 *     D:   S_t of the oldest Q stage and the input, decoded one-hot        -> register
 *     then, in the loop's reduction cycle of the accumulator's previous turn:
 *          power select H^S_t (the element 1 for S_t = 0) and, lanes >= 1,
 *          H^(S_t-i) (0 beyond the beat's count); the operand
 *          (fresh ? 0 : A) ^ X_0                                          -> registers
 *     product: gf128_clmul with CLMUL_STAGES registers (loop and lanes)   -> register
 *          (the lanes' products XORed, unreduced)
 *     reduction of loop product ^ lanes' sum: the accumulator A_t; on the last beat
 *          the result XOR A_(t-1) .. A_(t-I+1) (kept in I - 1 registers)    -> m_ghash
 *   gcm_core uses CLMUL_STAGES = 3: each loop cycle is about two LUT4 levels (the
 *   pre-additions; the leaf products; two levels of post-additions; two more; the
 *   reduction with the operand's XOR).
 *
 * Area: LANES carry-less multipliers (gf128_clmul; one was about 5,800 TRELLIS_COMB of
 *   the ECP5 in either packet engine, docs/fpga.md) and their pipeline registers. Lane
 *   0's block shares the loop's multiplier, since both are multiplied by H^S_t:
 *   (A ^ X_0)*H^S_t. At LANES = 1 that is one multiplier instead of two. The held powers
 *   travel through the Q and D stages (I * HPOW * 128 flip-flops).
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
 * GHASH engine, LANES blocks per clock, aggregated reduction, interleaved Y loop
 */
module ghash_engine #(
    // 128-bit blocks per beat (ibsec uses 1, 4, 12; any value >= 1 works)
    parameter LANES = 1,
    // the largest s_count (LANES or more: see "Trailing zero blocks")
    parameter NPOW = LANES,
    // register stages inside each GF(2^128) product (gf128_clmul STAGES): 0..3
    parameter CLMUL_STAGES = 3,
    // cycles of the Y loop, i.e. accumulators interleaved (derived; do not override)
    parameter INTERLEAVE = CLMUL_STAGES + 2,
    // powers of H on s_hpow, H^1..H^HPOW: at least the largest sum of s_count over
    // INTERLEAVE consecutive cycles of one message (see "Powers of H")
    parameter HPOW = INTERLEAVE * NPOW,
    // cycles from a last beat to its result (derived; do not override)
    parameter LATENCY = 2 * INTERLEAVE + 1,
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
    // H^(i+1) at [128*i +: 128], i = 0..HPOW-1, for this beat's message
    input  wire [HPOW*128-1:0]         s_hpow,
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
// width of a window sum (INTERLEAVE counts)
localparam SUM_WIDTH = $clog2(INTERLEAVE*NPOW+1);
// a cycle's age in its message: 0 on the first beat, +1 per cycle, INTERLEAVE and more
// saturated at INTERLEAVE
localparam AGE_WIDTH = $clog2(INTERLEAVE+1);
localparam [AGE_WIDTH-1:0] AGE_SAT = INTERLEAVE[AGE_WIDTH-1:0];
// look-ahead stages: beat t waits until beat t + INTERLEAVE - 1 is at the input
localparam QD = INTERLEAVE - 1;
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
    if (CLMUL_STAGES < 0 || CLMUL_STAGES > 3) begin : g_bad_stages
        initial begin
            $error("Error: CLMUL_STAGES must be 0..3 (instance %m)");
            $finish;
        end
    end
    if (INTERLEAVE != CLMUL_STAGES + 2 || LATENCY != 2 * INTERLEAVE + 1) begin : g_bad_derived
        initial begin
            $error("Error: INTERLEAVE and LATENCY are derived from CLMUL_STAGES (instance %m)");
            $finish;
        end
    end
    if (HPOW < NPOW) begin : g_bad_hpow
        initial begin
            $error("Error: HPOW must be at least NPOW (instance %m)");
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
// look-ahead stages Q1..QD (stage j at index j-1): one entry per cycle, idle cycles
// included (count 0); the powers are held from the last valid beat
reg  [QD-1:0]            q_valid_reg = {QD{1'b0}}, q_valid_next;
reg  [QD*CNT_WIDTH-1:0]  q_count_reg, q_count_next;
reg  [QD-1:0]            q_last_reg, q_last_next;
reg  [QD*AGE_WIDTH-1:0]  q_age_reg, q_age_next;
reg  [QD*USER_WIDTH-1:0] q_user_reg, q_user_next;
reg  [QD*LANES*128-1:0]  q_block_reg, q_block_next;
reg  [QD*HPOW*128-1:0]   q_hpow_reg, q_hpow_next;

// stage D: the cycle's window sum, decoded (d_sel_reg[j] = 1: the sum is j)
reg                      d_valid_reg = 1'b0, d_valid_next;
reg  [HPOW:0]            d_sel_reg, d_sel_next;
reg  [CNT_WIDTH-1:0]     d_count_reg, d_count_next;
reg                      d_last_reg, d_last_next;
reg  [AGE_WIDTH-1:0]     d_age_reg, d_age_next;
reg  [USER_WIDTH-1:0]    d_user_reg, d_user_next;
reg  [LANES*128-1:0]     d_block_reg, d_block_next;
reg  [HPOW*128-1:0]      d_hpow_reg, d_hpow_next;

// the Y loop: operand (A ^ X_0) and multiplier H^S of the cycle entering the product,
// the unreduced product and the lanes' sum INTERLEAVE - 1 cycles later
reg  [127:0]             l_op_reg, l_op_next;
reg  [127:0]             l_hm_reg, l_hm_next;
reg  [254:0]             l_prod_reg, l_prod_next;
reg  [254:0]             l_sum_reg, l_sum_next;
// the previous INTERLEAVE - 1 accumulators (hist 0 = the latest)
reg  [(INTERLEAVE-1)*128-1:0] l_hist_reg, l_hist_next;

// stages E1..E(INTERLEAVE): the cycle's control beside its product, up to the result
reg  [INTERLEAVE-1:0]            e_valid_reg = {INTERLEAVE{1'b0}}, e_valid_next;
reg  [INTERLEAVE-1:0]            e_last_reg, e_last_next;
reg  [(INTERLEAVE-1)*AGE_WIDTH-1:0] e_age_reg, e_age_next;   // E1..E(INTERLEAVE-1)
// the result's terms A_(T-j), j = 1..INTERLEAVE-1, that belong to the message (bit j-1),
// decoded from the age a stage ahead, so that no multi-bit age fans out to the result
reg  [INTERLEAVE-2:0]            e_inc_reg, e_inc_next;
reg  [INTERLEAVE*USER_WIDTH-1:0] e_user_reg, e_user_next;

// result
reg  [127:0]             y_reg, y_next;
reg                      m_valid_reg = 1'b0, m_valid_next;
reg  [USER_WIDTH-1:0]    m_user_reg, m_user_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire [254:0]             loop_prod;    // l_op * l_hm, unreduced, INTERLEAVE - 2 cycles on
wire [254:0]             lane_sum;     // lanes 1..LANES-1, unreduced, beside loop_prod
wire [127:0]             loop_red;     // the accumulator: reduce(product ^ lanes' sum)

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign m_valid = m_valid_reg;
assign m_ghash = y_reg;
assign m_user  = m_user_reg;

// ----------------------------------------------------------------------------
// Input and look-ahead: the cycle's count (0 when idle), age and held powers
// ----------------------------------------------------------------------------
// the oldest look-ahead stage (QD) and the entry the input makes
wire [CNT_WIDTH-1:0]  in_count = s_valid ? s_count : {CNT_WIDTH{1'b0}};
wire                  in_last  = s_valid && s_last;
wire [AGE_WIDTH-1:0]  prev_age = q_age_reg[0 +: AGE_WIDTH];
wire [AGE_WIDTH-1:0]  in_age   = (s_valid && s_first) ? {AGE_WIDTH{1'b0}} :
                                 (prev_age == AGE_SAT) ? AGE_SAT :
                                 prev_age + {{(AGE_WIDTH-1){1'b0}}, 1'b1};

reg  [SUM_WIDTH-1:0]  win_sum;
reg                   win_open;
integer wj, hj;

always @* begin
    // stage 1 from the input, stage j from stage j-1
    q_valid_next = q_valid_reg;
    q_count_next = q_count_reg;
    q_last_next  = q_last_reg;
    q_age_next   = q_age_reg;
    q_user_next  = q_user_reg;
    q_block_next = q_block_reg;
    q_hpow_next  = q_hpow_reg;
    for (wj = QD - 1; wj >= 1; wj = wj - 1) begin
        q_valid_next[wj]                           = q_valid_reg[wj-1];
        q_count_next[wj*CNT_WIDTH +: CNT_WIDTH]    = q_count_reg[(wj-1)*CNT_WIDTH +: CNT_WIDTH];
        q_last_next[wj]                            = q_last_reg[wj-1];
        q_age_next[wj*AGE_WIDTH +: AGE_WIDTH]      = q_age_reg[(wj-1)*AGE_WIDTH +: AGE_WIDTH];
        q_user_next[wj*USER_WIDTH +: USER_WIDTH]   = q_user_reg[(wj-1)*USER_WIDTH +: USER_WIDTH];
        q_block_next[wj*LANES*128 +: LANES*128]    = q_block_reg[(wj-1)*LANES*128 +: LANES*128];
        q_hpow_next[wj*HPOW*128 +: HPOW*128]       = q_hpow_reg[(wj-1)*HPOW*128 +: HPOW*128];
    end
    q_valid_next[0]                 = s_valid;
    q_count_next[0 +: CNT_WIDTH]    = in_count;
    q_last_next[0]                  = in_last;
    q_age_next[0 +: AGE_WIDTH]      = in_age;
    q_user_next[0 +: USER_WIDTH]    = s_user;
    q_block_next[0 +: LANES*128]    = s_block;
    // lane 0 shares the loop's multiplier: its block must be 0 when it carries none
    if (in_count == 0) begin
        q_block_next[127:0] = 128'd0;
    end
    // an idle cycle multiplies by the powers of the message it is in: hold the last
    // valid beat's
    if (s_valid) begin
        q_hpow_next[0 +: HPOW*128] = s_hpow;
    end

    // window sum of the cycle in stage QD: its count and those of the next
    // INTERLEAVE - 1 cycles (stages QD-1..1, then the input), up to its message's last
    // beat
    win_sum  = {{(SUM_WIDTH-CNT_WIDTH){1'b0}}, q_count_reg[(QD-1)*CNT_WIDTH +: CNT_WIDTH]};
    win_open = !q_last_reg[QD-1];
    for (wj = QD - 2; wj >= 0; wj = wj - 1) begin
        if (win_open) begin
            win_sum = win_sum +
                      {{(SUM_WIDTH-CNT_WIDTH){1'b0}}, q_count_reg[wj*CNT_WIDTH +: CNT_WIDTH]};
        end
        win_open = win_open && !q_last_reg[wj];
    end
    if (win_open) begin
        win_sum = win_sum + {{(SUM_WIDTH-CNT_WIDTH){1'b0}}, in_count};
    end

    d_valid_next = q_valid_reg[QD-1];
    d_sel_next   = {(HPOW+1){1'b0}};
    for (hj = 0; hj <= HPOW; hj = hj + 1) begin
        if ({{(32-SUM_WIDTH){1'b0}}, win_sum} == hj) begin
            d_sel_next[hj] = 1'b1;
        end
    end
    d_count_next = q_count_reg[(QD-1)*CNT_WIDTH +: CNT_WIDTH];
    d_last_next  = q_last_reg[QD-1];
    d_age_next   = q_age_reg[(QD-1)*AGE_WIDTH +: AGE_WIDTH];
    d_user_next  = q_user_reg[(QD-1)*USER_WIDTH +: USER_WIDTH];
    d_block_next = q_block_reg[(QD-1)*LANES*128 +: LANES*128];
    d_hpow_next  = q_hpow_reg[(QD-1)*HPOW*128 +: HPOW*128];
end

// ----------------------------------------------------------------------------
// Stage D: the loop's operand and power, the lanes' powers
// ----------------------------------------------------------------------------
// the accumulator of this cycle's slot starts from 0 (no cycle of its message
// INTERLEAVE cycles before)
wire        d_fresh   = (d_age_reg < AGE_SAT);
integer pj;

always @* begin
    // H^S, the element 1 for S = 0 (an idle cycle with no beat ahead, an empty beat)
    l_hm_next = d_sel_reg[0] ? GF_ONE : 128'd0;
    for (pj = 1; pj <= HPOW; pj = pj + 1) begin
        if (d_sel_reg[pj]) begin
            l_hm_next = l_hm_next | d_hpow_reg[128*(pj-1) +: 128];
        end
    end
    // A_t = ((fresh ? 0 : A_(t-INTERLEAVE)) ^ X_0) * H^S ^ lanes
    l_op_next = (d_fresh ? 128'd0 : loop_red) ^ d_block_reg[127:0];
end

generate
    if (LANES > 1) begin : g_lanes
        // lane i >= 1 of the cycle in stage D, and H^(S-i) (0 for a lane beyond the count)
        reg [(LANES-1)*128-1:0] lane_blk_reg, lane_blk_next;
        reg [(LANES-1)*128-1:0] lane_pow_reg, lane_pow_next;
        wire [(LANES-1)*255-1:0] lane_prod;
        reg [254:0] sum;
        wire [31:0] d_count_w = {{(32-CNT_WIDTH){1'b0}}, d_count_reg};
        integer li, lj;

        always @* begin
            lane_blk_next = d_block_reg[LANES*128-1:128];
            lane_pow_next = {(LANES-1)*128{1'b0}};
            for (li = 1; li < LANES; li = li + 1) begin
                if (li < d_count_w) begin
                    for (lj = 1; lj <= HPOW - li; lj = lj + 1) begin
                        if (d_sel_reg[lj + li]) begin
                            lane_pow_next[128*(li-1) +: 128] =
                                lane_pow_next[128*(li-1) +: 128] | d_hpow_reg[128*(lj-1) +: 128];
                        end
                    end
                end
            end
        end

        genvar g;
        for (g = 1; g < LANES; g = g + 1) begin : g_lane
            gf128_clmul #(
                .STAGES(CLMUL_STAGES)
            )
            lane_clmul_inst (
                .clk(clk),
                .a(lane_blk_reg[128*(g-1) +: 128]),
                .b(lane_pow_reg[128*(g-1) +: 128]),
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
            lane_blk_reg <= lane_blk_next;
            lane_pow_reg <= lane_pow_next;
        end
    end else begin : g_one_lane
        // lane 0 alone: every product is the loop's
        assign lane_sum = 255'd0;

        /* verilator lint_off UNUSEDSIGNAL */
        // the count only gates lanes 1..LANES-1 (lane 0 was zeroed at the input)
        wire unused_count = ^d_count_reg;
        /* verilator lint_on UNUSEDSIGNAL */
    end
endgenerate

// ----------------------------------------------------------------------------
// The Y loop: product (CLMUL_STAGES registers inside), product register, reduction
// ----------------------------------------------------------------------------
gf128_clmul #(
    .STAGES(CLMUL_STAGES)
)
loop_clmul_inst (
    .clk(clk),
    .a(l_op_reg),
    .b(l_hm_reg),
    .p(loop_prod)
);

gf128_reduce loop_reduce_inst (
    .p(l_prod_reg ^ l_sum_reg),
    .r(loop_red)
);

// ----------------------------------------------------------------------------
// Result: S = A_T ^ A_(T-1) ^ ... ^ A_(T-INTERLEAVE+1), each term only if its cycle
// belongs to the message (age)
// ----------------------------------------------------------------------------
// the age of the cycle entering the last E stage
wire [AGE_WIDTH-1:0] r_age = e_age_reg[(INTERLEAVE-2)*AGE_WIDTH +: AGE_WIDTH];
integer rj;

always @* begin
    l_prod_next = loop_prod;
    l_sum_next  = lane_sum;
    // shift registers: entry 0 from the stage before, entry j from entry j-1
    l_hist_next  = l_hist_reg;
    e_valid_next = e_valid_reg;
    e_last_next  = e_last_reg;
    e_age_next   = e_age_reg;
    e_user_next  = e_user_reg;
    for (rj = INTERLEAVE - 1; rj >= 1; rj = rj - 1) begin
        e_valid_next[rj]                         = e_valid_reg[rj-1];
        e_last_next[rj]                          = e_last_reg[rj-1];
        e_user_next[rj*USER_WIDTH +: USER_WIDTH] = e_user_reg[(rj-1)*USER_WIDTH +: USER_WIDTH];
    end
    for (rj = INTERLEAVE - 2; rj >= 1; rj = rj - 1) begin
        e_age_next[rj*AGE_WIDTH +: AGE_WIDTH] = e_age_reg[(rj-1)*AGE_WIDTH +: AGE_WIDTH];
        l_hist_next[rj*128 +: 128] = l_hist_reg[(rj-1)*128 +: 128];
    end
    l_hist_next[0 +: 128]        = loop_red;
    e_valid_next[0]              = d_valid_reg;
    e_last_next[0]               = d_last_reg;
    e_age_next[0 +: AGE_WIDTH]   = d_age_reg;
    e_user_next[0 +: USER_WIDTH] = d_user_reg;

    y_next = loop_red;
    for (rj = 1; rj < INTERLEAVE; rj = rj + 1) begin
        e_inc_next[rj-1] = ({{(32-AGE_WIDTH){1'b0}}, r_age} >= rj);
        if (e_inc_reg[rj-1]) begin
            y_next = y_next ^ l_hist_reg[128*(rj-1) +: 128];
        end
    end
    m_valid_next = e_valid_reg[INTERLEAVE-1] && e_last_reg[INTERLEAVE-1];
    m_user_next  = e_user_reg[(INTERLEAVE-1)*USER_WIDTH +: USER_WIDTH];
end

// ----------------------------------------------------------------------------
// Register update: valid flags are reset, the datapath is not
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    q_valid_reg <= q_valid_next;
    q_count_reg <= q_count_next;
    q_last_reg  <= q_last_next;
    q_age_reg   <= q_age_next;
    q_user_reg  <= q_user_next;
    q_block_reg <= q_block_next;
    q_hpow_reg  <= q_hpow_next;

    d_valid_reg <= d_valid_next;
    d_sel_reg   <= d_sel_next;
    d_count_reg <= d_count_next;
    d_last_reg  <= d_last_next;
    d_age_reg   <= d_age_next;
    d_user_reg  <= d_user_next;
    d_block_reg <= d_block_next;
    d_hpow_reg  <= d_hpow_next;

    l_op_reg    <= l_op_next;
    l_hm_reg    <= l_hm_next;
    l_prod_reg  <= l_prod_next;
    l_sum_reg   <= l_sum_next;
    l_hist_reg  <= l_hist_next;

    e_valid_reg <= e_valid_next;
    e_last_reg  <= e_last_next;
    e_age_reg   <= e_age_next;
    e_inc_reg   <= e_inc_next;
    e_user_reg  <= e_user_next;

    y_reg       <= y_next;
    m_valid_reg <= m_valid_next;
    m_user_reg  <= m_user_next;

    if (rst) begin
        q_valid_reg <= {QD{1'b0}};
        d_valid_reg <= 1'b0;
        e_valid_reg <= {INTERLEAVE{1'b0}};
        m_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
