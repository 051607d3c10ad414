/*
 * ibsec_parse — the packet engine's parse stage (ibsec_engine): the IQ head through
 * ib_hdr_parse (steps 1-3 of docs/wire-format.md §7 seal, §8 open), its results
 * registered with the packet in PR, then written into CQ as a descriptor whose decision
 * fields hold the parse's reason (docs/packet-engine.md §3).
 *
 * Function
 *   PR takes the IQ head when it is empty or hands its packet on in the same cycle; it
 *   hands it on (into CQ) in the cycle after, at the earliest. The parser's logic ends
 *   at PR, so that the CQ write does not add to it in the same cycle.
 *
 * Latency / throughput
 *   One cycle (IQ head to CQ write side); one packet per clock.
 *
 * Hands on
 *   CQ descriptors (header register, link, ring base and beats, parse results; open:
 *   whether the CRC check applies) to ibsec_decide.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ibsec_parse #(
    parameter LANES = 1,
    parameter OPEN = 0,
    parameter KEY_SLOTS = 4,
    parameter CTX_SLOTS = 16,
    parameter CTX_W = (CTX_SLOTS > 1) ? $clog2(CTX_SLOTS) : 1
) (
    clk, rst,
    iq_m_valid, iq_m_ready, iq_m_data,
    cq_s_valid, cq_s_ready, cq_s_data
);

// (ports declared below the shared constants, whose descriptor widths they use)
`include "ibsec_engine_defs.vh"

input  wire                 clk;
input  wire                 rst;

/*
 * IQ read side: the frame's descriptor
 */
input  wire                 iq_m_valid;
output wire                 iq_m_ready;
input  wire [IQ_W-1:0]      iq_m_data;

/*
 * CQ write side: the parsed packet
 */
output wire                 cq_s_valid;
input  wire                 cq_s_ready;
output wire [DS_W-1:0]      cq_s_data;

// ----------------------------------------------------------------------------
// Wires and registers
// ----------------------------------------------------------------------------
wire [8*CAP_BYTES-1:0]  q_hdr;
wire [LEN_W-1:0]        q_len;
wire                    q_link;
wire [RAW-1:0]          q_base, q_nb;
assign {q_hdr, q_len, q_link, q_base, q_nb} = iq_m_data;
wire [8*HDR_BYTES-1:0]  q_win = q_hdr[8*HDR_BYTES-1:0];

// parser (on the IQ head); its results are registered in PR with the packet
wire [5:0]  pn_reason;
wire [1:0]  pn_shape;
wire [6:0]  pn_bth_off, pn_hdr_len, pn_sth_len;
wire [12:0] pn_pp_len, pn_pkt_end;
wire [15:0] pn_pkey;
wire [23:0] pn_destqp, pn_psn;
wire [2:0]  pn_mode, pn_sthsz;
/* verilator lint_off UNUSEDSIGNAL */
// opcode, pad count and SECMODE are checked inside the parser; the engine needs only
// the lengths and the mode the parser derives from them
wire [7:0]  pn_opcode;
wire [1:0]  pn_padcnt;
wire [1:0]  pn_secmode;
/* verilator lint_on UNUSEDSIGNAL */

// ---- parse register (PR): the IQ head and its parse results ----
// The parser's logic ends here, so that the CQ write does not add to it in the same
// cycle. PR takes the IQ head when it is empty or hands its packet on in the same cycle;
// it hands it on (CQ) in the cycle after, at the earliest.
reg                     pr_valid_reg = 1'b0;
reg  [8*CAP_BYTES-1:0]  i_hdr;
reg                     i_link;
reg  [RAW-1:0]          i_base, i_nb;
reg  [5:0]              p_reason;
reg  [1:0]              p_shape;
reg  [6:0]              p_bth_off, p_hdr_len, p_sth_len;
reg  [12:0]             p_pp_len, p_pkt_end;
reg  [15:0]             p_pkey;
reg  [23:0]             p_destqp, p_psn;
reg  [2:0]              p_mode, p_sthsz;
wire                    pr_take;           // PR's packet goes into CQ
wire                    pr_load = iq_m_valid && (!pr_valid_reg || pr_take);


assign iq_m_ready = pr_load;
assign cq_s_valid = pr_take;
assign pr_take    = pr_valid_reg && cq_s_ready;

// parse -> CQ: parse results; the decision fields hold the parse reason (status mode
// of open: the mode BTH byte 8 names)
assign cq_s_data = {i_hdr, i_link, i_base, i_nb,
                    p_shape, p_bth_off, p_hdr_len, p_sth_len, p_pp_len, p_pkt_end, p_mode,
                    p_sthsz, p_psn, p_destqp, p_pkey, (OPEN != 0) && (p_reason == R_OK),
                    p_reason, 1'b0, {CTX_W{1'b0}}, (OPEN != 0) ? p_mode : M_NONE, M_NONE, 3'd0,
                    {KEY_W{1'b0}}, 32'd0, 1'b0, 63'd0, 1'b0, 1'b0,
                    {RAW{1'b0}}, {RAW{1'b0}}, 1'b0};

// ----------------------------------------------------------------------------
// Submodules
// ----------------------------------------------------------------------------
ib_hdr_parse #(
    .HDR_BYTES (HDR_BYTES),
    .LEN_W     (LEN_W)
) hdr_parse (
    .hdr       (q_win),
    .frame_len (q_len),
    .link      (q_link),
    .is_open   (OPEN != 0),
    .reason    (pn_reason),
    .shape     (pn_shape),
    .bth_off   (pn_bth_off),
    .hdr_len   (pn_hdr_len),
    .sth_len   (pn_sth_len),
    .pp_len    (pn_pp_len),
    .pkt_end   (pn_pkt_end),
    .opcode    (pn_opcode),
    .padcnt    (pn_padcnt),
    .pkey      (pn_pkey),
    .destqp    (pn_destqp),
    .psn       (pn_psn),
    .secmode   (pn_secmode),
    .sthsz     (pn_sthsz),
    .mode      (pn_mode)
);

// ----------------------------------------------------------------------------
// Control
// ----------------------------------------------------------------------------
// PR: the IQ head and its parse results, loaded as the packet in PR leaves (or PR is
// empty)
always @(posedge clk) begin
    if (pr_load) begin
        i_hdr     <= q_hdr;
        i_link    <= q_link;
        i_base    <= q_base;
        i_nb      <= q_nb;
        p_reason  <= pn_reason;
        p_shape   <= pn_shape;
        p_bth_off <= pn_bth_off;
        p_hdr_len <= pn_hdr_len;
        p_sth_len <= pn_sth_len;
        p_pp_len  <= pn_pp_len;
        p_pkt_end <= pn_pkt_end;
        p_pkey    <= pn_pkey;
        p_destqp  <= pn_destqp;
        p_psn     <= pn_psn;
        p_mode    <= pn_mode;
        p_sthsz   <= pn_sthsz;
    end
    if (pr_load) begin
        pr_valid_reg <= 1'b1;
    end else if (pr_take) begin
        pr_valid_reg <= 1'b0;
    end
    if (rst) begin
        pr_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
