/*
 * ddpm_marker — packet marking at a switch: rewrites the 38-bit Marking Field (MF) in the
 * GRH of native IBA packets and recomputes their VCRC (Lee & Kim, TPDS 2007 §5.4;
 * docs/availability.md §2 and §5; C model cmodel/ddpm.c).
 *
 * Function
 *   Every packet leaves, in input order, unchanged or marked, as ibsec_ddpm_mark (mesh,
 *   torus, hypercube: DDPM, Algorithm 2) or ibsec_dpm_mark_fattree (fat tree: port
 *   marking) leaves it, and is reported once on st_* with the model's outcome (enum
 *   ibsec_ddpm_out), in input order:
 *     bad_hop                  the hop on tuser is not one link / the level or port is out
 *                              of range (known on the first beat)
 *     truncated, bad_lnh, bad_lver, bad_grh   header view (sif_sw_hdr)
 *     no_grh, off_site         no GRH / DGID prefix neither FE80::/10 nor FEC0::/10
 *     bad_pktlen               LRH.PktLen * 4 + 2 != bytes in the packet (the VCRC could
 *                              not be rewritten); decided as soon as the packet is longer
 *                              than that, else at its last beat
 *     poisoned                 the MF already holds the poison code
 *     marked, overflow, bad_mark   MF rewritten (new MF, or the poison code) and VCRC
 *                              recomputed over the outgoing LRH .. ICRC (IBA §7.8.2)
 *   The first six leave the packet unchanged; so do bad_pktlen and poisoned.
 *   ddpm_mf_update computes the new MF (all fields in parallel).
 *
 * Per-packet hop (s_axis_tuser, sampled on the first beat of a packet):
 *   [0]       from_node: the input port faces a CA (the MF restarts from zero)
 *   [76:1]    delta of the output link, dimension i at [2*i+2:2*i+1], two's complement
 *   [108:77]  fat tree: the down-port the packet came in on
 * Configuration (quasi-static: change only while no packet is inside the block):
 *   cfg_topo (enum ibsec_topo), cfg_ndims, cfg_w, cfg_mf_bits, cfg_radix as
 *   ibsec_ddpm_configure derives them; fat tree: the switch's level and subtree digits.
 *
 * Structure and timing
 *   Store-and-forward: a packet may only be rewritten once its length has been checked,
 *   which its last beat settles. Beats enter a FIFO of FIFO_DEPTH beats, which holds the
 *   longest packet PktLen can describe (8192 bytes); packets that leave unchanged are
 *   decided as soon as that is known, so longer packets stream through. The output side
 *   takes the packet's decision, substitutes the MF in the beat that carries it (GRH bytes
 *   25..29 = packet bytes 33..37: beat 2 at LANES = 1, beat 0 otherwise), runs the VCRC
 *   over the outgoing bytes and puts it into the last two bytes, which always lie in the
 *   last beat (a marked packet has PktLen * 4 + 2 bytes: 2 mod 4 in its last beat).
 *   The output path is combinational from the FIFO head (MF substitution, a CRC-16 over
 *   the beat as one XOR network, the VCRC bytes); at LANES = 12 it is the first place to
 *   add a register for timing.
 *   Latency: a marked packet's first beat leaves 1 cycle after its last beat came in;
 *   an unchanged packet's first beat 1 cycle after its deciding beat. Throughput: one
 *   beat per clock in and out, back-to-back packets included, as long as the FIFO holds
 *   the packet being received and the one being sent.
 *
 * Bytes: byte 0 of a packet is tdata[7:0] (docs/conventions.md); tkeep is a prefix mask
 * on the last beat and all ones on the others.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ddpm_marker #(
    // 128-bit lanes per beat: 1, 4 or 12
    parameter LANES = 1,
    // data FIFO depth in beats: a power of two holding 8192 bytes (the longest PktLen)
    parameter FIFO_DEPTH = (LANES == 1) ? 512 : (LANES == 4) ? 128 : 64
) (
    input  wire                  clk,
    input  wire                  rst,

    /*
     * Packets in (AXI4-Stream)
     */
    input  wire [128*LANES-1:0]  s_axis_tdata,
    input  wire [16*LANES-1:0]   s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire [108:0]          s_axis_tuser,

    /*
     * Packets out (AXI4-Stream)
     */
    output wire [128*LANES-1:0]  m_axis_tdata,
    output wire [16*LANES-1:0]   m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,

    /*
     * Per-packet status, one entry per packet in input order: enum ibsec_ddpm_out
     */
    output wire                  st_valid,
    output wire [3:0]            st_outcome,

    /*
     * Configuration
     */
    input  wire [1:0]            cfg_topo,
    input  wire [5:0]            cfg_ndims,
    input  wire [5:0]            cfg_w,
    input  wire [5:0]            cfg_mf_bits,
    input  wire [19*32-1:0]      cfg_radix,
    input  wire [5:0]            cfg_ft_level,
    input  wire [37:0]           cfg_ft_ancestor,

    /*
     * Statistics: packets per outcome, entry o at [32*o+31:32*o] (wrap at 2^32)
     */
    output wire [14*32-1:0]      out_count
);

// bytes per beat
localparam BB = 16 * LANES;
localparam [16:0] BB17 = BB[16:0];
// enum ibsec_ddpm_out (5 = poisoned comes from ddpm_mf_update)
localparam [3:0] R_MARKED = 4'd0, R_NO_GRH = 4'd2, R_OFF_SITE = 4'd3, R_OVERFLOW = 4'd4,
                 R_BAD_MARK = 4'd6, R_BAD_HOP = 4'd8, R_BAD_PKTLEN = 4'd9,
                 R_TRUNCATED = 4'd10;
localparam N_OUT = 14;
// packet bytes 33..37 hold the MF (GRH bytes 25..29, the GRH starting at byte 8)
localparam MF_FIRST = 33;
localparam MF_LAST = 37;
// the beat holding them
localparam [2:0] MF_BEAT = (MF_LAST / BB == 0) ? 3'd0 : 3'd2; // 37 / BB: 2 at LANES = 1
// IBA §7.8.2: the VCRC, 2 bytes, follows the ICRC; §7.7.8 PktLen counts 4-byte words
localparam VCRC_LEN = 2;
// CRC-16 of IBA §7.8.2: polynomial 0x100B, reflected (0xD008), init and final xor 0xFFFF
localparam [15:0] CRC16_POLY_REFLECTED = 16'hD008;
localparam [15:0] CRC16_INIT = 16'hFFFF;
// decision FIFO word: modify, outcome, MF to write, packet length
localparam DW = 1 + 4 + 38 + 16;
// data FIFO word: tdata, tkeep, tlast
localparam FW = 128 * LANES + 16 * LANES + 1;

generate
    if (LANES != 1 && LANES != 4 && LANES != 12) begin : g_bad_lanes
        initial begin
            $error("Error: ddpm_marker LANES must be 1, 4 or 12 (instance %m)");
            $finish;
        end
    end
    if (FIFO_DEPTH * BB < 8192) begin : g_bad_depth
        initial begin
            $error("Error: ddpm_marker FIFO_DEPTH must hold 8192 bytes (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// input side
reg [8*64-1:0] hdr_reg = 0, hdr_reg_next;
reg [2:0]   beat_idx_reg = 3'd0, beat_idx_next;
reg [15:0]  cnt_reg = 16'd0, cnt_next;          // bytes before this beat (saturating)
reg         decided_reg = 1'b0, decided_next;
reg         hop_from_node_reg = 1'b0, hop_from_node_next;
reg [75:0]  hop_delta_reg = 76'd0, hop_delta_next;
reg [31:0]  hop_in_port_reg = 32'd0, hop_in_port_next;
reg         hv_seen_reg = 1'b0, hv_seen_next;      // header view settled, packet pending
reg [10:0]  pktlen_reg = 11'd0, pktlen_next;
reg [3:0]   mf_res_reg = 4'd0, mf_res_next;
reg [37:0]  mf_store_reg = 38'd0, mf_store_next;

reg         st_valid_reg = 1'b0, st_valid_next;
reg [3:0]   st_outcome_reg = 4'd0, st_outcome_next;
reg [31:0]  out_count_reg[0:N_OUT-1];
reg [31:0]  out_count_next[0:N_OUT-1];

// output side
reg         out_in_pkt_reg = 1'b0, out_in_pkt_next;
reg         out_mod_reg = 1'b0, out_mod_next;
reg [37:0]  out_mf_reg = 38'd0, out_mf_next;
reg [15:0]  out_len_reg = 16'd0, out_len_next;
reg [15:0]  out_base_reg = 16'd0, out_base_next;
reg [15:0]  out_crc_reg = CRC16_INIT, out_crc_next;

// ----------------------------------------------------------------------------
// Header view and the MF update of the incoming beat
// ----------------------------------------------------------------------------
wire [8*64-1:0] hdr_next;
wire        hv_done;
wire [2:0]  hv_err;
wire        hv_has_grh;
wire [15:0] hv_pkey;
wire [10:0] hv_pktlen;
wire        hv_in_site;
wire [37:0] hv_mf;

sif_sw_hdr #(
    .LANES(LANES)
) hdr_view (
    .hdr_reg(hdr_reg),
    .beat_idx(beat_idx_reg),
    .s_tdata(s_axis_tdata),
    .s_tkeep(s_axis_tkeep),
    .s_tlast(s_axis_tlast),
    .hdr_next(hdr_next),
    .hv_done(hv_done),
    .hv_err(hv_err),
    .has_grh(hv_has_grh),
    .pkey(hv_pkey),
    .pktlen(hv_pktlen),
    .dgid_in_site(hv_in_site),
    .mf(hv_mf)
);

wire        first_beat = (beat_idx_reg == 3'd0);
wire        hop_from_node = first_beat ? s_axis_tuser[0] : hop_from_node_reg;
wire [75:0] hop_delta = first_beat ? s_axis_tuser[76:1] : hop_delta_reg;
wire [31:0] hop_in_port = first_beat ? s_axis_tuser[108:77] : hop_in_port_reg;

wire        bad_hop;
wire [3:0]  mfu_res;
wire [37:0] mfu_store;

ddpm_mf_update mf_update (
    .cfg_topo(cfg_topo),
    .cfg_ndims(cfg_ndims),
    .cfg_w(cfg_w),
    .cfg_mf_bits(cfg_mf_bits),
    .cfg_radix(cfg_radix),
    .cfg_ft_level(cfg_ft_level),
    .cfg_ft_ancestor(cfg_ft_ancestor),
    .from_node(hop_from_node),
    .delta(hop_delta),
    .in_port(hop_in_port),
    .mf_in(hv_mf),
    .bad_hop(bad_hop),
    .result(mfu_res),
    .mf_store(mfu_store)
);

// ----------------------------------------------------------------------------
// FIFOs
// ----------------------------------------------------------------------------
wire          in_fire;
reg           decide;
reg  [DW-1:0] dec_word;
wire          fifo_s_ready, dec_s_ready;
wire          fifo_m_valid, dec_m_valid;
wire [FW-1:0] fifo_m_data;
wire [DW-1:0] dec_m_data;
wire          fifo_pop, dec_pop;
// fill levels: not needed, the ready signals carry the back-pressure
wire [$clog2(FIFO_DEPTH):0] data_count_unused, dec_count_unused;

sync_fifo #(
    .WIDTH(FW),
    .DEPTH(FIFO_DEPTH)
) data_fifo (
    .clk(clk),
    .rst(rst),
    .s_valid(in_fire),
    .s_ready(fifo_s_ready),
    .s_data({s_axis_tlast, s_axis_tkeep, s_axis_tdata}),
    .m_valid(fifo_m_valid),
    .m_ready(fifo_pop),
    .m_data(fifo_m_data),
    .count(data_count_unused)
);

sync_fifo #(
    .WIDTH(DW),
    .DEPTH(FIFO_DEPTH)
) dec_fifo (
    .clk(clk),
    .rst(rst),
    .s_valid(decide),
    .s_ready(dec_s_ready),
    .s_data(dec_word),
    .m_valid(dec_m_valid),
    .m_ready(dec_pop),
    .m_data(dec_m_data),
    .count(dec_count_unused)
);

assign s_axis_tready = fifo_s_ready && dec_s_ready;
assign in_fire = s_axis_tvalid && s_axis_tready;

// ----------------------------------------------------------------------------
// Input side: the decision of each packet, as early as it is known
// ----------------------------------------------------------------------------
// bytes in this beat (tkeep is a prefix mask)
reg [15:0] nb;
integer b;
always @* begin
    nb = 16'd0;
    for (b = 0; b < BB; b = b + 1) begin
        nb = nb + {15'd0, s_axis_tkeep[b]};
    end
end

wire [16:0] total = {1'b0, cnt_reg} + {1'b0, nb};
// header fields: this beat's view while it settles, the registered ones afterwards
wire [10:0] pktlen_cur = hv_seen_reg ? pktlen_reg : hv_pktlen;
wire [16:0] expected = {4'd0, pktlen_cur, 2'b00} + VCRC_LEN;
wire [3:0]  mf_res_cur = (beat_idx_reg == MF_BEAT) ? mfu_res : mf_res_reg;
wire [37:0] mf_store_cur = (beat_idx_reg == MF_BEAT) ? mfu_store : mf_store_reg;

integer c;
reg [3:0]  outcome;
reg        pending;   // header fine, in-site GRH: the length decides
always @* begin
    decide = 1'b0;
    outcome = R_MARKED;
    pending = hv_seen_reg;
    if (in_fire && !decided_reg) begin
        if (first_beat && bad_hop) begin
            decide = 1'b1;
            outcome = R_BAD_HOP;
        end else if (!hv_seen_reg && hv_done) begin
            if (hv_err != 3'd0) begin
                decide = 1'b1;
                // sw_hdr errors 1..4 map onto ddpm truncated..bad_grh (10..13)
                outcome = R_TRUNCATED + {1'b0, hv_err} - 4'd1;
            end else if (!hv_has_grh) begin
                decide = 1'b1;
                outcome = R_NO_GRH;
            end else if (!hv_in_site) begin
                decide = 1'b1;
                outcome = R_OFF_SITE;
            end else begin
                pending = 1'b1;
            end
        end
        if (!decide && pending) begin
            if (total > expected || (s_axis_tlast && total != expected)) begin
                decide = 1'b1;
                outcome = R_BAD_PKTLEN;
            end else if (s_axis_tlast) begin
                decide = 1'b1;
                outcome = mf_res_cur;
            end
        end
    end
    dec_word = {(outcome == R_MARKED || outcome == R_OVERFLOW || outcome == R_BAD_MARK),
                outcome, mf_store_cur, total[15:0]};
end

always @* begin
    beat_idx_next = beat_idx_reg;
    cnt_next = cnt_reg;
    decided_next = decided_reg;
    hv_seen_next = hv_seen_reg;
    hdr_reg_next = hdr_reg;
    hop_from_node_next = hop_from_node_reg;
    hop_delta_next = hop_delta_reg;
    hop_in_port_next = hop_in_port_reg;
    pktlen_next = pktlen_reg;
    mf_res_next = mf_res_reg;
    mf_store_next = mf_store_reg;
    if (in_fire) begin
        hdr_reg_next = hdr_next;
        // the hop of the packet, from its first beat
        hop_from_node_next = hop_from_node;
        hop_delta_next = hop_delta;
        hop_in_port_next = hop_in_port;
        if (!hv_seen_reg) begin
            pktlen_next = hv_pktlen;
        end
        if (beat_idx_reg == MF_BEAT) begin
            mf_res_next = mfu_res;
            mf_store_next = mfu_store;
        end
    end
    st_valid_next = decide;
    st_outcome_next = decide ? outcome : st_outcome_reg;
    for (c = 0; c < N_OUT; c = c + 1) begin
        out_count_next[c] = out_count_reg[c] + {31'd0, decide && outcome == c[3:0]};
    end
    if (in_fire) begin
        if (s_axis_tlast) begin
            beat_idx_next = 3'd0;
            cnt_next = 16'd0;
            decided_next = 1'b0;
            hv_seen_next = 1'b0;
        end else begin
            beat_idx_next = (beat_idx_reg == 3'd4) ? 3'd4 : beat_idx_reg + 3'd1;
            cnt_next = total[16] ? 16'hFFFF : total[15:0];
            decided_next = decided_reg || decide;
            hv_seen_next = pending && !decide;
        end
    end
end

// ----------------------------------------------------------------------------
// Output side: MF and VCRC substitution, VCRC over the outgoing bytes
// ----------------------------------------------------------------------------
function [15:0] crc16_byte(input [15:0] crc, input [7:0] data);
    integer k;
    begin
        crc16_byte = crc ^ {8'd0, data};
        for (k = 0; k < 8; k = k + 1) begin
            crc16_byte = crc16_byte[0] ? ((crc16_byte >> 1) ^ CRC16_POLY_REFLECTED)
                                       : (crc16_byte >> 1);
        end
    end
endfunction

wire        can_go = out_in_pkt_reg || dec_m_valid;
wire        cur_mod = out_in_pkt_reg ? out_mod_reg : dec_m_data[DW-1];
wire [37:0] cur_mf = out_in_pkt_reg ? out_mf_reg : dec_m_data[16 +: 38];
wire [15:0] cur_len = out_in_pkt_reg ? out_len_reg : dec_m_data[15:0];
wire [15:0] cur_base = out_in_pkt_reg ? out_base_reg : 16'd0;
wire [15:0] cur_crc = out_in_pkt_reg ? out_crc_reg : CRC16_INIT;
wire [16:0] vcrc_pos = {1'b0, cur_len} - VCRC_LEN;   // first VCRC byte

// bytes of this beat the VCRC covers: all of them, except in the last beat
wire [16:0] cov_left = (vcrc_pos > {1'b0, cur_base}) ? vcrc_pos - {1'b0, cur_base} : 17'd0;
wire [16:0] n_cov = (cov_left > BB17) ? BB17 : cov_left;

reg [128*LANES-1:0] out_data;
reg [15:0] crc_chain;
reg [15:0] crc_cov;
reg [15:0] vcrc_now;
reg [16:0] pos;
integer j;
always @* begin
    out_data = fifo_m_data[128*LANES-1:0];
    crc_chain = cur_crc;
    crc_cov = cur_crc;
    vcrc_now = 16'd0;
    pos = 17'd0;
    if (cur_mod) begin
        // the MF, then the CRC over the covered bytes, then the VCRC bytes. The CRC runs
        // over every byte of the beat (a pure XOR network) and the state after the
        // covered prefix is selected, so no byte's enable sits inside the chain.
        for (j = 0; j < BB; j = j + 1) begin
            pos = {1'b0, cur_base} + j[16:0];
            if (pos == MF_FIRST) begin
                out_data[8*j +: 8] = {out_data[8*j + 6 +: 2], cur_mf[37:32]};
            end else if (pos > MF_FIRST && pos <= MF_LAST) begin
                out_data[8*j +: 8] = cur_mf[8*(MF_LAST - pos) +: 8];
            end
            crc_chain = crc16_byte(crc_chain, out_data[8*j +: 8]);
            if (j[16:0] + 17'd1 == n_cov) begin
                crc_cov = crc_chain;
            end
        end
        // both VCRC bytes are in the last beat: a marked packet is PktLen * 4 + 2 bytes
        // long, so its last beat holds 2 (mod 4) bytes
        vcrc_now = ~crc_cov;
        for (j = 0; j < BB; j = j + 1) begin
            pos = {1'b0, cur_base} + j[16:0];
            if (pos == vcrc_pos) begin
                out_data[8*j +: 8] = vcrc_now[7:0];
            end else if (pos == vcrc_pos + 17'd1) begin
                out_data[8*j +: 8] = vcrc_now[15:8];
            end
        end
    end
end

wire out_last = fifo_m_data[FW-1];
assign fifo_pop = fifo_m_valid && can_go && m_axis_tready;
assign dec_pop = fifo_pop && !out_in_pkt_reg;

always @* begin
    out_in_pkt_next = out_in_pkt_reg;
    out_base_next = out_base_reg;
    out_crc_next = out_crc_reg;
    out_mod_next = dec_pop ? dec_m_data[DW-1] : out_mod_reg;
    out_mf_next = dec_pop ? dec_m_data[16 +: 38] : out_mf_reg;
    out_len_next = dec_pop ? dec_m_data[15:0] : out_len_reg;
    if (fifo_pop) begin
        out_in_pkt_next = !out_last;
        out_base_next = ({1'b0, cur_base} + BB17 > 17'hFFFF) ? 16'hFFFF : cur_base + BB17[15:0];
        out_crc_next = crc_cov;
    end
end

assign m_axis_tdata = out_data;
assign m_axis_tkeep = fifo_m_data[128*LANES +: 16*LANES];
assign m_axis_tlast = out_last;
assign m_axis_tvalid = fifo_m_valid && can_go;

// ----------------------------------------------------------------------------
// Clocked
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    beat_idx_reg <= beat_idx_next;
    cnt_reg <= cnt_next;
    decided_reg <= decided_next;
    hv_seen_reg <= hv_seen_next;
    hdr_reg <= hdr_reg_next;
    hop_from_node_reg <= hop_from_node_next;
    hop_delta_reg <= hop_delta_next;
    hop_in_port_reg <= hop_in_port_next;
    pktlen_reg <= pktlen_next;
    mf_res_reg <= mf_res_next;
    mf_store_reg <= mf_store_next;
    st_valid_reg <= st_valid_next;
    st_outcome_reg <= st_outcome_next;
    for (c = 0; c < N_OUT; c = c + 1) begin
        out_count_reg[c] <= out_count_next[c];
    end
    out_in_pkt_reg <= out_in_pkt_next;
    out_base_reg <= out_base_next;
    out_crc_reg <= out_crc_next;
    out_mod_reg <= out_mod_next;
    out_mf_reg <= out_mf_next;
    out_len_reg <= out_len_next;

    if (rst) begin
        beat_idx_reg <= 3'd0;
        cnt_reg <= 16'd0;
        decided_reg <= 1'b0;
        hv_seen_reg <= 1'b0;
        st_valid_reg <= 1'b0;
        out_in_pkt_reg <= 1'b0;
        for (c = 0; c < N_OUT; c = c + 1) begin
            out_count_reg[c] <= 32'd0;
        end
    end
end

assign st_valid = st_valid_reg;
assign st_outcome = st_outcome_reg;

genvar g;
generate
    for (g = 0; g < N_OUT; g = g + 1) begin : g_cnt_out
        assign out_count[32*g +: 32] = out_count_reg[g];
    end
endgenerate

// The P_Key is the SIF block's business.
wire unused_pkey = &{1'b0, hv_pkey};

endmodule

`resetall
