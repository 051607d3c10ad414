/*
 * gf128_clmul — unreduced carry-less product of two GF(2^128) elements in GCM bit order,
 * built by Karatsuba splitting.
 *
 * Function
 *   p = a * b as polynomials over GF(2), without reduction: degree up to 254, 255 bits.
 *   This is the first half of gf128_mul; the second half is gf128_reduce. They are kept
 *   apart because reduction is linear: ghash_engine XORs several unreduced products and
 *   reduces the sum once per beat (aggregated reduction).
 *
 * Construction (Karatsuba, LEVELS = 4 splits down to 8 x 8-bit schoolbook leaves)
 *   Split a W-bit operand into halves, a = a1*x^h + a0 (h = W/2), and likewise b. Then
 *     a*b = a0*b0 + x^h * ((a0 + a1)*(b0 + b1) + a0*b0 + a1*b1) + x^(2h) * a1*b1
 *   (+ is XOR): three half-size products instead of four. Applied LEVELS times from
 *   W = 128, the product is 3^LEVELS leaf products of LEAF_WIDTH-bit operands, each a
 *   schoolbook carry-less product. The leaf operands are XORs of operand bits (the
 *   pre-additions); the leaf products are XORed together into the result (the
 *   post-additions, one level of the recursion at a time from the leaves up).
 *   Distinct AND terms, 3^LEVELS * LEAF_WIDTH^2, against 128^2 = 16,384 for schoolbook:
 *     LEVELS 2 (32-bit leaves): 9 * 1,024 = 9,216    LEVELS 3 (16): 27 * 256 = 6,912
 *     LEVELS 4 (8):             81 *   64 = 5,184
 *   Why LEVELS = 4: measured (Yosys synth_ecp5 of this module alone, docs/fpga.md "The
 *   GF(2^128) multipliers"), LUT4 per multiplier: schoolbook 12,789; LEVELS 2: 8,688;
 *   3: 7,182; 4: 6,406. Each level saves less than the one before (the pre- and
 *   post-additions grow by half with every level while the AND terms shrink by a
 *   quarter), and LEVELS = 4 is the smallest measured; LEVELS = 5 was not measured.
 *
 * Latency / throughput
 *   STAGES = 0: combinational. STAGES = 1..3: p follows a and b by STAGES clocks (a new
 *   pair every clock), with registers at the cuts: 1, after the leaf products (AND + XOR
 *   of 8); 2, also after the first two levels of post-additions above the leaves; 3,
 *   also after the pre-additions (the leaf operands). ghash_engine's Y loop runs through
 *   this module, so each cut makes the loop a cycle longer and every cycle shorter: with
 *   3 each cycle is about two LUT4 levels (measured with scripts/netlist_depth.py on
 *   gcm_core: the loop's deepest cycle went from 22.3 units, 12 cells, to 6.0, 3 cells).
 *   Logic, in LUT inputs: a leaf operand bit is the XOR of up to
 *   2^LEVELS = 16 operand bits (the (a0 + a1) path at every level); a leaf product bit
 *   is AND + an XOR of up to 8 terms; a result bit is the XOR of up to 4 bits of the
 *   level below at each level of the post-additions. ABC maps these XOR trees into
 *   LUT4s and the slice multiplexers (PFUMX, L6MUX21) as wide functions and merges
 *   them, so the depth is measured, not summed: the longest path of this module alone
 *   is 14 cells, of them 4 LUT4 and 10 PFUMX/L6MUX21 (schoolbook: 10 cells, 2 LUT4).
 *   In ghash_engine's Y loop (Y * H^k, y_reg and b_hk_reg both registers) this whole
 *   path, pre-additions included, lies between y_reg and the reduction. H^k's
 *   pre-additions could be registered one stage earlier (b_hk_reg is loaded a cycle
 *   before use), Y's cannot (Y is the loop). Measured with the leaf operands given as
 *   module inputs: with both operands' pre-additions removed the longest path is 11
 *   cells (5 LUT4) instead of 14, so the pre-additions cost about 3 cells, mostly slice
 *   multiplexers; with only H^k's removed it stays 14 cells (4 LUT4) and the module
 *   grows from 6,406 to 7,387 LUT4, since ABC then folds Y's pre-additions into wider
 *   functions (at LEVELS = 3 alike: 13 cells against 12). So ghash_engine does not
 *   register them.
 *
 * DATA FORMATS
 *   SP 800-38D §6.3 treats a 128-bit block as the bit string b0 b1 ... b127, b0 first
 *   (leftmost), and as the polynomial b0 + b1*x + ... + b127*x^127: the first bit of the
 *   string is the coefficient of x^0. ibsec keeps blocks as big-endian vectors
 *   (docs/conventions.md): bit b_i is vector bit [127-i], so byte 0 of the block
 *   (b0..b7, b0 its most significant bit) is [127:120] and a %032x print of the vector is
 *   the hex string of the standard. The element 1 is therefore 128'h8000...0000, and
 *   x is 128'h4000...0000.
 *
 *   Inputs a, b: [127:0] in that order, coefficient of x^d at [127-d].
 *   Output p:    [254:0] in the same (reflected) order, coefficient of x^d at [254-d].
 *                The low-degree half x^0..x^127 is p[254:127], laid out exactly like a
 *                block; the high-degree part x^128..x^254 is p[126:0]. gf128_reduce
 *                consumes this format.
 *   No bit is ever reversed in hardware: the reflected order is just an index mapping.
 *   In vector indices the reflected order cancels out: with a's x^d at [127-d] and p's
 *   x^d at [254-d], p[i+j] collects a[i] & b[j], i.e. p is the ordinary carry-less
 *   product of the vectors a and b read as integers (bit 0 = least significant). The
 *   construction below works on that integer view: "low half" is [63:0] of a vector.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Carry-less 128 x 128 -> 255-bit multiply (Karatsuba), GCM bit order
 */
module gf128_clmul #(
    // Karatsuba splits from 128 bits (0 = one 128 x 128 schoolbook product; 0..5)
    parameter LEVELS = 4,
    // register stages inside the product (p follows a and b STAGES clocks later):
    // 0 = combinational; 1 = the leaf products registered; 2 = also the products two
    // levels of post-additions above the leaves (LEVELS >= 2); 3 = also the leaf operands
    // (after the pre-additions)
    parameter STAGES = 0
) (
    // clock of the STAGES registers (unused when STAGES = 0)
    input  wire         clk,
    input  wire [127:0] a,
    input  wire [127:0] b,
    output wire [254:0] p
);

// ----------------------------------------------------------------------------
// Constants and parameter checks
// ----------------------------------------------------------------------------
// operand width of a leaf product
localparam LEAF_WIDTH = 128 >> LEVELS;

generate
    if (LEVELS < 0 || LEVELS > 5) begin : g_bad_levels
        initial begin
            $error("Error: gf128_clmul LEVELS must be 0..5 (instance %m)");
            $finish;
        end
    end
    if (STAGES < 0 || STAGES > 3 || (STAGES >= 2 && LEVELS < 2)) begin : g_bad_stages
        initial begin
            $error("Error: gf128_clmul STAGES must be 0..3, 2 and 3 with LEVELS >= 2 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Functions
// ----------------------------------------------------------------------------
// 3^n
function integer pow3;
    input integer n;
    integer k;
    begin
        pow3 = 1;
        for (k = 0; k < n; k = k + 1) begin
            pow3 = 3 * pow3;
        end
    end
endfunction

// Level l of the recursion has 3^l nodes of width W_l = 128 >> l. Node k of level l
// has the children 3k (low halves), 3k + 1 (high halves), 3k + 2 (sum of the halves)
// at level l + 1. Operands of all levels are kept in one vector, level l from
// OP_OFF(l), node k at OP_OFF(l) + k * W_l; products (2 * W_l bits per node, the top
// bit always 0) likewise from PR_OFF(l).
function integer op_off;
    input integer l;
    integer k;
    begin
        op_off = 0;
        for (k = 0; k < l; k = k + 1) begin
            op_off = op_off + pow3(k) * (128 >> k);
        end
    end
endfunction

function integer pr_off;
    input integer l;
    begin
        pr_off = 2 * op_off(l);
    end
endfunction

// schoolbook carry-less product of two leaf operands
function [2*LEAF_WIDTH-1:0] clmul_leaf;
    input [LEAF_WIDTH-1:0] wa;
    input [LEAF_WIDTH-1:0] wb;
    integer k;
    begin
        clmul_leaf = {2*LEAF_WIDTH{1'b0}};
        for (k = 0; k < LEAF_WIDTH; k = k + 1) begin
            clmul_leaf = clmul_leaf ^ (({{LEAF_WIDTH{1'b0}}, wb} << k) & {2*LEAF_WIDTH{wa[k]}});
        end
    end
endfunction

// total widths of the operand and product vectors (all levels)
localparam OP_BITS = op_off(LEVELS + 1);
localparam PR_BITS = pr_off(LEVELS + 1);
localparam NLEAF   = pow3(LEVELS);
// the level of the products registered with STAGES >= 2 (two post-addition levels above
// the leaves)
// the leaf operands in op_a and op_b
localparam LEAF_OFF = op_off(LEVELS);
localparam JOIN_CUT = (LEVELS >= 2) ? LEVELS - 2 : 0;
localparam JC_OFF   = pr_off(JOIN_CUT);
localparam JC_BITS  = pr_off(JOIN_CUT + 1) - pr_off(JOIN_CUT);

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
wire [OP_BITS-1:0] op_a /* verilator split_var */;  // operands of every node, a side
wire [OP_BITS-1:0] op_b /* verilator split_var */;  // operands of every node, b side
wire [PR_BITS-1:0] pr /* verilator split_var */;    // products of every node
// leaf products as computed, and as the post-additions take them (registered or not)
wire [NLEAF*2*LEAF_WIDTH-1:0] leaf_prod;
wire [NLEAF*2*LEAF_WIDTH-1:0] leaf_post;
// leaf operands as the leaf products take them (registered or not, STAGES = 3)
wire [NLEAF*LEAF_WIDTH-1:0]   leaf_a;
wire [NLEAF*LEAF_WIDTH-1:0]   leaf_b;
// the products of level JOIN_CUT as the post-additions above them read them (registered
// with STAGES >= 2)
wire [JC_BITS-1:0]            jc_rd;

// ----------------------------------------------------------------------------
// Pre-additions: the operands of each node, level by level from the top
// ----------------------------------------------------------------------------
assign op_a[0 +: 128] = a;
assign op_b[0 +: 128] = b;

genvar gl, gk;
generate
    for (gl = 0; gl < LEVELS; gl = gl + 1) begin : g_split
        for (gk = 0; gk < pow3(gl); gk = gk + 1) begin : g_node
            // parent node gk of level gl (width W = 128 >> gl), children at gl + 1
            localparam W  = 128 >> gl;
            localparam H  = W / 2;
            localparam PO = op_off(gl) + gk * W;
            localparam CO = op_off(gl + 1) + 3 * gk * H;

            assign op_a[CO +: H]       = op_a[PO +: H];
            assign op_a[CO + H +: H]   = op_a[PO + H +: H];
            assign op_a[CO + 2*H +: H] = op_a[PO +: H] ^ op_a[PO + H +: H];
            assign op_b[CO +: H]       = op_b[PO +: H];
            assign op_b[CO + H +: H]   = op_b[PO + H +: H];
            assign op_b[CO + 2*H +: H] = op_b[PO +: H] ^ op_b[PO + H +: H];
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Leaf products: schoolbook, LEAF_WIDTH x LEAF_WIDTH
// ----------------------------------------------------------------------------
generate
    for (gk = 0; gk < NLEAF; gk = gk + 1) begin : g_leaf
        localparam LP = pr_off(LEVELS) + gk * 2 * LEAF_WIDTH;

        assign leaf_prod[gk * 2 * LEAF_WIDTH +: 2*LEAF_WIDTH] =
            clmul_leaf(leaf_a[gk * LEAF_WIDTH +: LEAF_WIDTH], leaf_b[gk * LEAF_WIDTH +: LEAF_WIDTH]);
        assign pr[LP +: 2*LEAF_WIDTH] = leaf_post[gk * 2 * LEAF_WIDTH +: 2*LEAF_WIDTH];
    end

    // the cuts (datapath registers: no reset)
    if (STAGES >= 3) begin : g_op_reg
        // between the pre-additions and the leaf products
        reg [NLEAF*LEAF_WIDTH-1:0] leaf_a_reg, leaf_b_reg;

        always @(posedge clk) begin
            leaf_a_reg <= op_a[LEAF_OFF +: NLEAF*LEAF_WIDTH];
            leaf_b_reg <= op_b[LEAF_OFF +: NLEAF*LEAF_WIDTH];
        end

        assign leaf_a = leaf_a_reg;
        assign leaf_b = leaf_b_reg;
    end else begin : g_op_comb
        assign leaf_a = op_a[LEAF_OFF +: NLEAF*LEAF_WIDTH];
        assign leaf_b = op_b[LEAF_OFF +: NLEAF*LEAF_WIDTH];
    end

    if (STAGES >= 1) begin : g_leaf_reg
        // between the leaf products and the post-additions
        reg [NLEAF*2*LEAF_WIDTH-1:0] leaf_reg;

        always @(posedge clk) begin
            leaf_reg <= leaf_prod;
        end

        assign leaf_post = leaf_reg;
    end else begin : g_leaf_comb
        assign leaf_post = leaf_prod;

        /* verilator lint_off UNUSEDSIGNAL */
        // combinational: the clock is not used
        wire unused_clk = clk;
        /* verilator lint_on UNUSEDSIGNAL */
    end

    if (STAGES >= 2) begin : g_join_reg
        // two levels of post-additions above the leaves
        reg [JC_BITS-1:0] join_reg;

        always @(posedge clk) begin
            join_reg <= pr[JC_OFF +: JC_BITS];
        end

        assign jc_rd = join_reg;
    end else begin : g_join_comb
        assign jc_rd = pr[JC_OFF +: JC_BITS];
    end
endgenerate

// ----------------------------------------------------------------------------
// Post-additions: each node's product from its children's, from the leaves up:
//   P = L + x^H * (M + L + Hi) + x^W * Hi, with L, Hi, M the products of the low
//   halves, the high halves and the half sums (each 2H = W bits, top bit 0)
// ----------------------------------------------------------------------------
generate
    for (gl = 0; gl < LEVELS; gl = gl + 1) begin : g_join
        for (gk = 0; gk < pow3(gl); gk = gk + 1) begin : g_node
            localparam W  = 128 >> gl;
            localparam H  = W / 2;
            localparam PP = pr_off(gl) + gk * 2 * W;
            localparam CP = pr_off(gl + 1) + 3 * gk * W;

            // the children's products (low, high, sum of halves), W bits each
            wire [3*W-1:0] kids;
            if (gl + 1 == JOIN_CUT) begin : g_cut
                assign kids = jc_rd[CP - JC_OFF +: 3*W];
            end else begin : g_direct
                assign kids = pr[CP +: 3*W];
            end

            wire [W-1:0] prod_lo  = kids[0 +: W];
            wire [W-1:0] prod_hi  = kids[W +: W];
            wire [W-1:0] prod_mid = kids[2*W +: W] ^ prod_lo ^ prod_hi;

            assign pr[PP +: 2*W] = {prod_hi, prod_lo} ^ {{H{1'b0}}, prod_mid, {H{1'b0}}};
        end
    end
endgenerate

assign p = pr[0 +: 255];

/* verilator lint_off UNUSED */
wire unused_top = pr[255];
/* verilator lint_on UNUSED */

endmodule

`resetall
