/*
 * sif_filter — stateful ingress filtering (SIF) at one switch ingress port (Lee & Kim,
 * TPDS 2007 §5.3; docs/availability.md §1 and §5; C model cmodel/sif.c).
 *
 * Function
 *   Native IBA packets (starting at the LRH) stream through. Each packet gets one
 *   decision, as ibsec_sif_ingress gives it, taken in the cycle the beat that completes
 *   the header bytes it needs is accepted (beat 0, or at LANES = 1 beat 1 without GRH and
 *   beat 3 with GRH; or the last beat of a shorter packet):
 *     header error                       -> drop_truncated / drop_bad_lnh / drop_bad_lver /
 *                                           drop_bad_grh (sif_sw_hdr)
 *     filtering off                      -> forward (no lookup)
 *     fallback (use_valid_table)         -> forward if the P_Key matches an entry of the
 *                                           valid table (IBA §10.9 match), else
 *                                           drop_not_valid_pkey
 *     otherwise                          -> drop_invalid_pkey if the P_Key equals an entry
 *                                           of the Invalid_P_Key_Table, else forward
 *   A P_Key drop adds 1 to the Ingress P_Key Violation Counter and restarts the quiet
 *   timer. Forwarded packets leave unchanged on m_axis; dropped packets are consumed and
 *   produce nothing there. Every packet is reported once on st_* with its outcome (enum
 *   ibsec_sif_out), in input order, in the cycle after its decision.
 *
 *   SM write (inst_valid, one cycle, always accepted): ibsec_sif_install_invalid;
 *   inst_done/inst_outcome (enum ibsec_sif_install) follow in the next cycle.
 *   Timer: once per clock, ibsec_sif_tick(1): while filtering, quiet_left counts down;
 *   when a tick finds quiet_left <= 1 the port flushes the table, clears the counter and
 *   disables filtering.
 *   Order inside one clock cycle (the bench feeds the model in this order): the packet
 *   decision (on the state at the start of the cycle), then the SM write, then the tick.
 *
 * Configuration (level inputs written by the SM through the switch's management
 * interface; they may change at any time and act from the cycle they change):
 *   cfg_valid_keys / cfg_n_valid: the port's P_Key table (IBSEC_SIF_VALID_MAX = 32 entries,
 *   entry i at [16*i+15:16*i]; cfg_n_valid 0..32, larger values act as 32 in the lookup
 *   and as given in the fallback rule), cfg_quiet_ticks: quiet time in clock cycles.
 *
 * Latency / throughput
 *   First beat out 1 + (index of the deciding beat) cycles after it came in: 1 cycle at
 *   LANES = 4, 12; at LANES = 1, 2 cycles without GRH and 4 with GRH. One beat per clock
 *   in steady state, back-to-back packets included (data FIFO of FIFO_DEPTH beats).
 *
 * Bytes: byte 0 of a packet is tdata[7:0] (docs/conventions.md); tkeep is a prefix mask
 * on the last beat and all ones on the others. tuser is not used.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sif_filter #(
    // 128-bit lanes per beat: 1, 4 or 12
    parameter LANES = 1,
    // data FIFO depth in beats (power of two >= 8: covers the decision latency)
    parameter FIFO_DEPTH = 8
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

    /*
     * Forwarded packets out (AXI4-Stream)
     */
    output wire [128*LANES-1:0]  m_axis_tdata,
    output wire [16*LANES-1:0]   m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,

    /*
     * Per-packet status: one entry per input packet, in input order
     */
    output wire                  st_valid,
    // enum ibsec_sif_out: 0 forward, 1 drop_invalid_pkey, 2 drop_not_valid_pkey,
    // 3 drop_truncated, 4 drop_bad_lnh, 5 drop_bad_lver, 6 drop_bad_grh
    output wire [2:0]            st_outcome,

    /*
     * SM write into the Invalid_P_Key_Table
     */
    input  wire                  inst_valid,
    input  wire [15:0]           inst_pkey,
    output wire                  inst_done,
    // enum ibsec_sif_install: 0 installed, 1 already_present, 2 fallback_valid,
    // 3 fallback_table_full, 4 in_fallback
    output wire [2:0]            inst_outcome,

    /*
     * Configuration
     */
    input  wire [32*16-1:0]      cfg_valid_keys,
    input  wire [5:0]            cfg_n_valid,
    input  wire [31:0]           cfg_quiet_ticks,

    /*
     * Port state (docs/availability.md §1.2) and statistics
     */
    output wire                  filtering,
    output wire                  use_valid_table,
    output wire [4:0]            n_invalid,
    output wire [16*16-1:0]      invalid_keys,
    output wire [31:0]           violations,
    output wire [31:0]           quiet_left,
    // per outcome, entry o at [32*o+31:32*o] (wrap at 2^32)
    output wire [7*32-1:0]       out_count,
    output wire [31:0]           lookups,
    output wire [31:0]           flushes
);

// IBSEC_SIF_VALID_MAX and IBSEC_SIF_INVALID_MAX of cmodel/sif.h
localparam VALID_MAX = 32;
localparam INVALID_MAX = 16;
// enum ibsec_sif_out
localparam [2:0] O_FORWARD = 3'd0, O_DROP_INVALID = 3'd1, O_DROP_NOT_VALID = 3'd2,
                 O_DROP_TRUNCATED = 3'd3, O_DROP_BAD_LNH = 3'd4, O_DROP_BAD_LVER = 3'd5,
                 O_DROP_BAD_GRH = 3'd6;
// enum ibsec_sif_install
localparam [2:0] I_INSTALLED = 3'd0, I_ALREADY_PRESENT = 3'd1, I_FALLBACK_VALID = 3'd2,
                 I_FALLBACK_TABLE_FULL = 3'd3, I_IN_FALLBACK = 3'd4;
// IBA §10.9 P_Key: bit 15 full member, bits 14:0 partition
localparam PKEY_FULL_BIT = 15;
// beats of a data FIFO word: tdata, tkeep, tlast
localparam FW = 128 * LANES + 16 * LANES + 1;

generate
    if (LANES != 1 && LANES != 4 && LANES != 12) begin : g_bad_lanes
        initial begin
            $error("Error: sif_filter LANES must be 1, 4 or 12 (instance %m)");
            $finish;
        end
    end
    if (FIFO_DEPTH < 8) begin : g_bad_depth
        initial begin
            $error("Error: sif_filter FIFO_DEPTH must be at least 8 (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
reg         filtering_reg = 1'b0, filtering_next;
reg         use_valid_reg = 1'b0, use_valid_next;
reg [4:0]   n_invalid_reg = 5'd0, n_invalid_next;
reg [15:0]  invalid_reg[0:INVALID_MAX-1];
reg         inv_we;
reg [3:0]   inv_wa;
reg [31:0]  violations_reg = 32'd0, violations_next;
reg [31:0]  quiet_left_reg = 32'd0, quiet_left_next;
reg [31:0]  out_count_reg[0:6];
reg [31:0]  out_count_next[0:6];
reg [31:0]  lookups_reg = 32'd0, lookups_next;
reg [31:0]  flushes_reg = 32'd0, flushes_next;

reg         st_valid_reg = 1'b0, st_valid_next;
reg [2:0]   st_outcome_reg = 3'd0, st_outcome_next;
reg         inst_done_reg = 1'b0, inst_done_next;
reg [2:0]   inst_outcome_reg = 3'd0, inst_outcome_next;

// input side: header capture and the per-packet decision flag
reg [8*64-1:0] hdr_reg = 0, hdr_reg_next;
reg [2:0]   beat_idx_reg = 3'd0, beat_idx_next;
reg         decided_reg = 1'b0, decided_next;

// output side: inside a packet, and whether it is dropped
reg         out_in_pkt_reg = 1'b0, out_in_pkt_next;
reg         out_drop_reg = 1'b0, out_drop_next;

// ----------------------------------------------------------------------------
// Header view of the incoming beat
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

// ----------------------------------------------------------------------------
// FIFOs: packet beats, and one drop bit per decided packet
// ----------------------------------------------------------------------------
wire          in_fire;
wire          decide;
wire          dec_drop;
wire          fifo_s_ready, dec_s_ready;
wire          fifo_m_valid, dec_m_valid;
wire [FW-1:0] fifo_m_data;
wire          dec_m_data;
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
    .WIDTH(1),
    .DEPTH(FIFO_DEPTH)
) dec_fifo (
    .clk(clk),
    .rst(rst),
    .s_valid(decide),
    .s_ready(dec_s_ready),
    .s_data(dec_drop),
    .m_valid(dec_m_valid),
    .m_ready(dec_pop),
    .m_data(dec_m_data),
    .count(dec_count_unused)
);

assign s_axis_tready = fifo_s_ready && dec_s_ready;
assign in_fire = s_axis_tvalid && s_axis_tready;
assign decide = in_fire && !decided_reg && hv_done;

// ----------------------------------------------------------------------------
// Table lookups (all entries compared in parallel)
// ----------------------------------------------------------------------------
// IBA §10.9: same partition, partition not 0, at least one full member
function pkey_match(input [15:0] a, input [15:0] b);
    pkey_match = (a[14:0] != 15'd0) && (a[14:0] == b[14:0]) &&
                 (a[PKEY_FULL_BIT] || b[PKEY_FULL_BIT]);
endfunction

reg valid_hit;
reg inv_hit_pkt;
reg inv_hit_inst;
integer k;
always @* begin
    valid_hit = 1'b0;
    for (k = 0; k < VALID_MAX; k = k + 1) begin
        if ({26'd0, cfg_n_valid} > k && pkey_match(cfg_valid_keys[16*k +: 16], hv_pkey)) begin
            valid_hit = 1'b1;
        end
    end
    inv_hit_pkt = 1'b0;
    inv_hit_inst = 1'b0;
    for (k = 0; k < INVALID_MAX; k = k + 1) begin
        if ({27'd0, n_invalid_reg} > k && invalid_reg[k] == hv_pkey) begin
            inv_hit_pkt = 1'b1;
        end
        if ({27'd0, n_invalid_reg} > k && invalid_reg[k] == inst_pkey) begin
            inv_hit_inst = 1'b1;
        end
    end
end

// The decision of ibsec_sif_ingress on the state at the start of the cycle.
reg [2:0] outcome;
always @* begin
    case (hv_err)
        3'd1:    outcome = O_DROP_TRUNCATED;
        3'd2:    outcome = O_DROP_BAD_LNH;
        3'd3:    outcome = O_DROP_BAD_LVER;
        3'd4:    outcome = O_DROP_BAD_GRH;
        default: begin
            if (!filtering_reg) begin
                outcome = O_FORWARD;
            end else if (use_valid_reg) begin
                outcome = valid_hit ? O_FORWARD : O_DROP_NOT_VALID;
            end else begin
                outcome = inv_hit_pkt ? O_DROP_INVALID : O_FORWARD;
            end
        end
    endcase
end
assign dec_drop = (outcome != O_FORWARD);

// ----------------------------------------------------------------------------
// Port state: decision, then SM write, then tick
// ----------------------------------------------------------------------------
wire pkey_drop = decide && (outcome == O_DROP_INVALID || outcome == O_DROP_NOT_VALID);
wire looked_up = decide && (hv_err == 3'd0) && filtering_reg;

always @* begin
    filtering_next = filtering_reg;
    use_valid_next = use_valid_reg;
    n_invalid_next = n_invalid_reg;
    violations_next = violations_reg;
    quiet_left_next = quiet_left_reg;
    lookups_next = lookups_reg + {31'd0, looked_up};
    flushes_next = flushes_reg;
    inv_we = 1'b0;
    inv_wa = n_invalid_reg[3:0];
    inst_done_next = inst_valid;
    inst_outcome_next = inst_outcome_reg;

    // packet decision
    if (pkey_drop) begin
        violations_next = violations_reg + 32'd1;
        quiet_left_next = cfg_quiet_ticks;
    end

    // SM write (ibsec_sif_install_invalid)
    if (inst_valid) begin
        filtering_next = 1'b1;
        quiet_left_next = cfg_quiet_ticks;
        if (!filtering_reg) begin
            violations_next = 32'd0;
        end
        if (use_valid_reg) begin
            inst_outcome_next = I_IN_FALLBACK;
        end else if (inv_hit_inst) begin
            inst_outcome_next = I_ALREADY_PRESENT;
        end else if ({1'b0, n_invalid_reg} + 6'd1 > cfg_n_valid) begin
            use_valid_next = 1'b1;
            n_invalid_next = 5'd0;
            inst_outcome_next = I_FALLBACK_VALID;
        end else if (n_invalid_reg == INVALID_MAX[4:0]) begin
            use_valid_next = 1'b1;
            n_invalid_next = 5'd0;
            inst_outcome_next = I_FALLBACK_TABLE_FULL;
        end else begin
            inv_we = 1'b1;
            n_invalid_next = n_invalid_reg + 5'd1;
            inst_outcome_next = I_INSTALLED;
        end
    end

    // tick (ibsec_sif_tick(1))
    if (filtering_next) begin
        if (quiet_left_next <= 32'd1) begin
            filtering_next = 1'b0;
            use_valid_next = 1'b0;
            n_invalid_next = 5'd0;
            violations_next = 32'd0;
            quiet_left_next = 32'd0;
            flushes_next = flushes_reg + 32'd1;
        end else begin
            quiet_left_next = quiet_left_next - 32'd1;
        end
    end

    st_valid_next = decide;
    st_outcome_next = decide ? outcome : st_outcome_reg;
end

// statistics: one count per decided packet
integer o;
always @* begin
    for (o = 0; o < 7; o = o + 1) begin
        out_count_next[o] = out_count_reg[o] + {31'd0, decide && outcome == o[2:0]};
    end
end

// ----------------------------------------------------------------------------
// Input side: beat index, header capture
// ----------------------------------------------------------------------------
always @* begin
    beat_idx_next = beat_idx_reg;
    decided_next = decided_reg;
    hdr_reg_next = in_fire ? hdr_next : hdr_reg;
    if (in_fire) begin
        if (s_axis_tlast) begin
            beat_idx_next = 3'd0;
            decided_next = 1'b0;
        end else begin
            beat_idx_next = (beat_idx_reg == 3'd4) ? 3'd4 : beat_idx_reg + 3'd1;
            decided_next = decided_reg || hv_done;
        end
    end
end

// ----------------------------------------------------------------------------
// Output side: wait for the packet's decision, then forward or discard its beats
// ----------------------------------------------------------------------------
wire cur_drop = out_in_pkt_reg ? out_drop_reg : dec_m_data;
wire can_go = out_in_pkt_reg || dec_m_valid;
wire out_last = fifo_m_data[FW-1];

assign fifo_pop = fifo_m_valid && can_go && (cur_drop || m_axis_tready);
assign dec_pop = fifo_pop && !out_in_pkt_reg;

always @* begin
    out_in_pkt_next = out_in_pkt_reg;
    out_drop_next = out_drop_reg;
    if (fifo_pop) begin
        out_in_pkt_next = !out_last;
        out_drop_next = cur_drop;
    end
end

assign m_axis_tdata = fifo_m_data[128*LANES-1:0];
assign m_axis_tkeep = fifo_m_data[128*LANES +: 16*LANES];
assign m_axis_tlast = out_last;
assign m_axis_tvalid = fifo_m_valid && can_go && !cur_drop;

// ----------------------------------------------------------------------------
// Clocked
// ----------------------------------------------------------------------------
integer c;
always @(posedge clk) begin
    filtering_reg <= filtering_next;
    use_valid_reg <= use_valid_next;
    n_invalid_reg <= n_invalid_next;
    violations_reg <= violations_next;
    quiet_left_reg <= quiet_left_next;
    lookups_reg <= lookups_next;
    flushes_reg <= flushes_next;
    st_valid_reg <= st_valid_next;
    st_outcome_reg <= st_outcome_next;
    inst_done_reg <= inst_done_next;
    inst_outcome_reg <= inst_outcome_next;
    beat_idx_reg <= beat_idx_next;
    decided_reg <= decided_next;
    out_in_pkt_reg <= out_in_pkt_next;
    out_drop_reg <= out_drop_next;
    hdr_reg <= hdr_reg_next;
    // table storage: written like a RAM, one entry per SM write
    if (inv_we) begin
        invalid_reg[inv_wa] <= inst_pkey;
    end
    for (c = 0; c < 7; c = c + 1) begin
        out_count_reg[c] <= out_count_next[c];
    end

    if (rst) begin
        filtering_reg <= 1'b0;
        use_valid_reg <= 1'b0;
        n_invalid_reg <= 5'd0;
        violations_reg <= 32'd0;
        quiet_left_reg <= 32'd0;
        lookups_reg <= 32'd0;
        flushes_reg <= 32'd0;
        st_valid_reg <= 1'b0;
        inst_done_reg <= 1'b0;
        beat_idx_reg <= 3'd0;
        decided_reg <= 1'b0;
        out_in_pkt_reg <= 1'b0;
        out_drop_reg <= 1'b0;
        for (c = 0; c < 7; c = c + 1) begin
            out_count_reg[c] <= 32'd0;
        end
    end
end

// ----------------------------------------------------------------------------
// Outputs
// ----------------------------------------------------------------------------
assign st_valid = st_valid_reg;
assign st_outcome = st_outcome_reg;
assign inst_done = inst_done_reg;
assign inst_outcome = inst_outcome_reg;
assign filtering = filtering_reg;
assign use_valid_table = use_valid_reg;
assign n_invalid = n_invalid_reg;
assign violations = violations_reg;
assign quiet_left = quiet_left_reg;
assign lookups = lookups_reg;
assign flushes = flushes_reg;

genvar g;
generate
    for (g = 0; g < INVALID_MAX; g = g + 1) begin : g_inv_out
        assign invalid_keys[16*g +: 16] = invalid_reg[g];
    end
    for (g = 0; g < 7; g = g + 1) begin : g_cnt_out
        assign out_count[32*g +: 32] = out_count_reg[g];
    end
endgenerate

// Unused header-view fields (the marking block reads them).
wire unused_ok = &{1'b0, hv_has_grh, hv_pktlen, hv_in_site, hv_mf};

endmodule

`resetall
