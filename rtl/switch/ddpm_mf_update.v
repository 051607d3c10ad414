/*
 * ddpm_mf_update — the new 38-bit Marking Field of one packet at one switch (Lee & Kim,
 * TPDS 2007 §5.4; docs/availability.md §2.2, §2.3; C model cmodel/ddpm.c,
 * ibsec_ddpm_mark and ibsec_dpm_mark_fattree, from the MF on).
 *
 * Function (combinational)
 *   Mesh, torus, hypercube (DDPM, Algorithm 2), cfg_topo 0..2:
 *     bad_hop     delta moves more than one dimension, or a step other than -1/0/+1
 *                 (hypercube: other than 0/1), in dimensions 0..cfg_ndims-1
 *     V           from_node ? 0 : MF bits below cfg_mf_bits
 *     poisoned    V holds the poison code (field 0 = 2^(w-1); hypercube: bit ndims)
 *     mesh        per field, w-bit two's complement: a field outside +-(radix-1) is
 *                 bad_mark, a sum outside +-(2^(w-1)-1) is overflow (the lowest such
 *                 field names the outcome); else V + delta
 *     torus       a field >= radix is bad_mark; else (V + delta) mod radix
 *     hypercube   bits of V at or above ndims: bad_mark; else V XOR delta
 *     mf_store    the MF to write (marked: the new V; bad_mark, overflow: the poison
 *                 code), with the MF bits at and above cfg_mf_bits kept from mf_in
 *   Fat tree (deterministic port marking, §5.4.2), cfg_topo 3: bad_hop if cfg_ft_level
 *   >= cfg_ndims or in_port >= radix[0]; else the MF keeps the slots below the level,
 *   takes slot level := in_port and the slots above from cfg_ft_ancestor; marked.
 *   All fields are computed in parallel (MAX_FIELDS adders, one per possible field).
 *
 * Encodings: delta of dimension i at delta[2*i+1:2*i], two's complement (-2..1; -2 is
 * always a bad hop); cfg_radix entry i at [32*i+31:32*i] (fat tree: entry 0 = k);
 * cfg_w = bits per field as ibsec_ddpm_configure derives it; result codes are those of
 * enum ibsec_ddpm_out (0 marked, 4 overflow, 5 poisoned, 6 bad_mark).
 *
 * Latency / throughput: combinational.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ddpm_mf_update (
    /*
     * Network configuration (ibsec_ddpm_configure)
     */
    input  wire [1:0]        cfg_topo,
    input  wire [5:0]        cfg_ndims,
    input  wire [5:0]        cfg_w,
    input  wire [5:0]        cfg_mf_bits,
    input  wire [19*32-1:0]  cfg_radix,
    input  wire [5:0]        cfg_ft_level,
    input  wire [37:0]       cfg_ft_ancestor,

    /*
     * The hop and the packet's MF
     */
    input  wire              from_node,
    input  wire [38*2-1:0]   delta,
    input  wire [31:0]       in_port,
    input  wire [37:0]       mf_in,

    /*
     * Result
     */
    output reg               bad_hop,
    output reg  [3:0]        result,
    output reg  [37:0]       mf_store
);

// enum ibsec_topo
localparam [1:0] TOPO_MESH = 2'd0, TOPO_CUBE = 2'd2, TOPO_FATTREE = 2'd3; // 1 = torus
// enum ibsec_ddpm_out
localparam [3:0] R_MARKED = 4'd0, R_OVERFLOW = 4'd4, R_POISONED = 4'd5, R_BAD_MARK = 4'd6;
// IBSEC_DDPM_MAX_DIMS: one per MF bit (TPDS §5.4.1, the 38-bit MF)
localparam MAX_DIMS = 38;
// mesh and torus fields are at least 2 bits wide (ibsec_ddpm_configure), so at most 19
localparam MAX_FIELDS = 19;

// the low n bits set (n >= 38: all)
function [37:0] low_mask(input [11:0] n);
    if (n >= 12'd38) begin
        low_mask = {38{1'b1}};
    end else begin
        low_mask = (38'd1 << n) - 38'd1;
    end
endfunction

reg  [37:0] keep_hi;        // MF bits at and above cfg_mf_bits
reg  [37:0] v;              // V
reg  [37:0] wmask;          // low w bits
reg  [37:0] poison;         // poison code
reg  [37:0] newv;           // V after the hop
reg  [37:0] raw;
reg  [37:0] fld;
reg  signed [40:0] sv, sv2, span, lim;
reg  [37:0] uv2;
reg  [5:0]  moved;
reg  signed [1:0] d;
reg         found;
reg  [3:0]  fail;
reg  [11:0] sh;
reg  [31:0] rdx;
integer i;

always @* begin
    keep_hi = mf_in & ~low_mask({6'd0, cfg_mf_bits});
    v = from_node ? 38'd0 : (mf_in & low_mask({6'd0, cfg_mf_bits}));
    wmask = low_mask({6'd0, cfg_w});
    lim = ($signed({35'd0, 6'd1} <<< (cfg_w - 6'd1))) - 41'sd1;
    poison = 38'd0;
    newv = v;
    bad_hop = 1'b0;
    result = R_MARKED;
    mf_store = mf_in;
    moved = 6'd0;
    found = 1'b0;
    fail = R_MARKED;
    sv = 41'sd0;
    sv2 = 41'sd0;
    span = 41'sd0;
    uv2 = 38'd0;
    raw = 38'd0;
    fld = 38'd0;
    sh = 12'd0;
    rdx = 32'd0;
    d = 2'sd0;

    if (cfg_topo == TOPO_FATTREE) begin
        // fat tree (ibsec_dpm_mark_fattree)
        bad_hop = (cfg_ft_level >= cfg_ndims) || (in_port >= cfg_radix[31:0]);
        newv = (mf_in & low_mask({6'd0, cfg_ft_level} * {6'd0, cfg_w})) |
               (cfg_ft_ancestor & ~low_mask(({6'd0, cfg_ft_level} + 12'd1) * {6'd0, cfg_w}) &
                low_mask({6'd0, cfg_ndims} * {6'd0, cfg_w}));
        sh = {6'd0, cfg_ft_level} * {6'd0, cfg_w};
        newv = (newv & ~(wmask << sh)) | (({6'd0, in_port} & wmask) << sh);
        result = R_MARKED;
        mf_store = (mf_in & ~low_mask({6'd0, cfg_mf_bits})) | (newv & low_mask({6'd0, cfg_mf_bits}));
    end else begin
        // the hop: one link at most (hop_is_one_link)
        for (i = 0; i < MAX_DIMS; i = i + 1) begin
            if (i < {26'd0, cfg_ndims}) begin
                d = $signed(delta[2*i +: 2]);
                if (cfg_topo == TOPO_CUBE ? (d != 2'sd0 && d != 2'sd1) : (d == -2'sd2)) begin
                    bad_hop = 1'b1;
                end
                moved = moved + {5'd0, d != 2'sd0};
            end
        end
        if (moved > 6'd1) begin
            bad_hop = 1'b1;
        end

        // poison code and poisoned V
        if (cfg_topo == TOPO_CUBE) begin
            poison = (cfg_ndims < cfg_mf_bits) ? (38'd1 << cfg_ndims) : 38'd0;
        end else begin
            poison = 38'd1 << (cfg_w - 6'd1);
        end

        if (cfg_topo == TOPO_CUBE) begin
            if ((v >> cfg_ndims) != 38'd0) begin
                found = 1'b1;
                fail = R_BAD_MARK;
            end
            for (i = 0; i < MAX_DIMS; i = i + 1) begin
                if (i < {26'd0, cfg_ndims} && delta[2*i +: 2] == 2'b01) begin
                    newv = newv ^ (38'd1 << i);
                end
            end
        end else begin
            for (i = 0; i < MAX_FIELDS; i = i + 1) begin
                sh = i[11:0] * {6'd0, cfg_w};
                raw = (v >> sh) & wmask;
                rdx = cfg_radix[32*i +: 32];
                d = $signed(delta[2*i +: 2]);
                if (i < {26'd0, cfg_ndims}) begin
                    if (cfg_topo == TOPO_MESH) begin
                        // w-bit two's complement field
                        sv = $signed({3'd0, raw}) -
                             (((raw >> (cfg_w - 6'd1)) & 38'd1) != 38'd0 ? ($signed({35'd0, 6'd1}) <<< cfg_w) : 41'sd0);
                        span = $signed({9'd0, rdx}) - 41'sd1;
                        sv2 = sv + {{39{d[1]}}, d};
                        if (!found && (sv > span || sv < -span)) begin
                            found = 1'b1;
                            fail = R_BAD_MARK;
                        end else if (!found && (sv2 < -lim || sv2 > lim)) begin
                            found = 1'b1;
                            fail = R_OVERFLOW;
                        end
                        fld = sv2[37:0] & wmask;
                    end else begin
                        // torus: residue modulo the radix
                        if (!found && {6'd0, rdx} <= raw) begin
                            found = 1'b1;
                            fail = R_BAD_MARK;
                        end
                        uv2 = raw + {{36{d[1]}}, d};
                        if (d == -2'sd1 && raw == 38'd0) begin
                            fld = {6'd0, rdx} - 38'd1;
                        end else if (uv2 == {6'd0, rdx}) begin
                            fld = 38'd0;
                        end else begin
                            fld = uv2;
                        end
                    end
                    newv = (newv & ~(wmask << sh)) | ((fld & wmask) << sh);
                end
            end
        end

        if (cfg_topo == TOPO_CUBE ? ((cfg_ndims < cfg_mf_bits) && ((v >> cfg_ndims) & 38'd1) != 38'd0) :
                                     ((v & wmask) == poison)) begin
            result = R_POISONED;
            mf_store = mf_in;
        end else if (found) begin
            result = fail;
            mf_store = keep_hi | (poison & low_mask({6'd0, cfg_mf_bits}));
        end else begin
            result = R_MARKED;
            mf_store = keep_hi | (newv & low_mask({6'd0, cfg_mf_bits}));
        end
    end
end

endmodule

`resetall
