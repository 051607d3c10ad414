/*
 * ibsec_compose — a beat composer of the packet engine: builds a stream of beats from a
 * "front" vector held with the job (headers, STH, H) and a byte range of a packet ring
 * moved to any byte position, one beat per clock, with jobs chained back to back.
 *
 * Function
 *   A job is taken with job_valid && job_ready. Its geometry counts byte positions from
 *   the first byte of the composed stream (p = 16 * LANES * beat + byte):
 *     p <  front_len                 : front[p]                          (header bytes)
 *     dst_off <= p < dst_end         : source byte src_off + p - dst_off  (ring bytes)
 *     anything else below total_end  : zero (a placeholder, e.g. the ICRC/VCRC field)
 *   with front_len <= dst_off <= dst_end <= total_end, 1 <= total_end, dst_off <= 255.
 *   Source byte s lies in ring beat base + s / W (modulo the ring). The beats cover
 *   0 .. total_end - 1; tap_keep marks the bytes p < front_len and dst_off <= p < total_end
 *   (a gap between front_len and dst_off, the zero padding of the GCM AAD up to a block
 *   boundary, is not kept); tap_user[i] says that lane i starts below aad_end (GCM AAD).
 *   Beside the data every beat carries:
 *     tap_aux0/1  beat k of the job's two aux vectors (the ICRC variant bits of the header)
 *     tap_crc_*   the CRC engines' controls for an ICRC/VCRC covering bytes 0 .. crc_end - 1:
 *                 the beat holds covered bytes, is the last such beat, bytes covered in it
 *     tap_fld0    crc_end lies in this beat, at byte tap_fld_lsh
 *     tap_fld1    crc_end lies 1..5 bytes before this beat's first byte (tap_fld_rsh):
 *                 the beat holds the rest of the 6 bytes of ICRC + VCRC
 *     tap_tag     the job's tag (anything the consumer wants to travel with the beats)
 *
 *   The ring is read two beats at a time (ibsec_pair_buffer): output beat k needs bytes
 *   r .. W - 1 of source beat k + q and bytes 0 .. r - 1 of beat k + q + 1, where
 *   src_off - dst_off = q * W + r (0 <= r < W); both come from one paired read, so no
 *   preload is needed and the first beat of a job follows the last beat of the previous
 *   one in the next clock. Source beats outside the range are read but never kept.
 *
 * Flow control
 *   A beat is issued (its ring read started) only while issue_ok is high; it appears on
 *   tap_* one cycle later, for one cycle (tap_valid). issue_last says that the beat up
 *   for issue is the running job's last (from registers only, so issue_ok may use it).
 *   The consumer grants issue_ok against its own free space (one beat is in flight
 *   behind it). job_ready is high while no job waits (a register: the producer's
 *   handshake never depends on issue_ok). A job taken while another runs waits in a
 *   register stage (J), with its realignment computed, until the running job issues its
 *   last beat; a job taken while none runs, or in the cycle the running one issues its
 *   last beat, starts at once. job_side is held with the job and shown on act_side while
 *   it runs, for the consumer's issue_ok (e.g. the ring base it reads). next_load says
 *   that a job becomes the running one at the next clock, with its job_side (next_side)
 *   and first read address (next_rd_addr), and rd_en that the read address steps by one:
 *   a consumer can so keep its issue_ok in registers computed a cycle ahead (egress).
 *
 * Registered ahead
 *   The running job's region boundaries are kept relative to the next beat's first byte
 *   (rem_*: boundary - 16 * LANES * index), with flags for that beat (above 0, at least
 *   W; for crc_end also at least 0, at most W, 1..5 below 0; for aad_end the lanes
 *   starting below it), computed a beat ahead: from the job's geometry as it is taken
 *   (held in J with the job), from the relative position as a beat issues. The issued
 *   beat's masks (prefix masks of the low bits, chosen by the flags) and CRC controls
 *   are a few gates behind registers.
 *
 * Latency / throughput
 *   Job taken into an idle composer -> first beat on tap: 2 cycles (job register, ring
 *   read). Then one beat per clock while issue_ok stays high, across job boundaries:
 *   ceil(total_end / W) cycles a job in steady state, no bubble between jobs.
 *
 * Byte order
 *   AXI4-Stream order everywhere: byte j of a beat at [8*j +: 8]; front byte i at
 *   front[8*i +: 8].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Chaining beat composer with byte realignment
 */
module ibsec_compose #(
    // 128-bit blocks per beat (1, 4, 12)
    parameter LANES = 1,
    // bytes of the front vector
    parameter FRONT_BYTES = 144,
    // bytes of each aux vector
    parameter AUX_BYTES = 128,
    // address width of the source ring (beats)
    parameter AW = 9,
    // bits of the job tag
    parameter TAG_W = 1,
    // bits of the job's side information (act_side)
    parameter SIDE_W = 1
) (
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Job
     */
    input  wire                         job_valid,
    output wire                         job_ready,
    input  wire [8*FRONT_BYTES-1:0]     job_front,
    input  wire [7:0]                   job_front_len,
    input  wire [8*AUX_BYTES-1:0]       job_aux0,
    input  wire [8*AUX_BYTES-1:0]       job_aux1,
    input  wire [AW-1:0]                job_base,
    input  wire [12:0]                  job_src_off,
    input  wire [12:0]                  job_dst_off,
    input  wire [12:0]                  job_dst_end,
    input  wire [12:0]                  job_total_end,
    input  wire [12:0]                  job_aad_end,
    input  wire [12:0]                  job_crc_end,
    input  wire [TAG_W-1:0]             job_tag,
    // anything the consumer needs about the running job while it issues (e.g. its ring
    // base for a flow-control check), held with the job and shown on act_side
    input  wire [SIDE_W-1:0]            job_side,
    // no job running, none waiting and no beat on tap
    output wire                         idle,
    // job_side of the running job (valid while one runs)
    output wire [SIDE_W-1:0]            act_side,
    // a job becomes the running one at the next clock (the running job's place is free
    // and a job waits in J or is taken now), with its job_side and its first read
    // address: the consumer's flow control can compute its issue_ok a cycle ahead
    output wire                         next_load,
    output wire [SIDE_W-1:0]            next_side,
    output wire [AW-1:0]                next_rd_addr,

    /*
     * Flow control from the consumer
     */
    input  wire                         issue_ok,
    output wire                         issue_last,

    /*
     * Ring read port (ibsec_pair_buffer: beats rd_addr and rd_addr + 1, 1 cycle)
     */
    output wire                         rd_en,
    output wire [AW-1:0]                rd_addr,
    input  wire [128*LANES-1:0]         rd_lo,
    input  wire [128*LANES-1:0]         rd_hi,

    /*
     * Composed beats
     */
    output wire                         tap_valid,
    output wire                         tap_first,
    output wire [128*LANES-1:0]         tap_data,
    output wire [16*LANES-1:0]          tap_keep,
    output wire                         tap_last,
    output wire [LANES-1:0]             tap_user,
    output wire [128*LANES-1:0]         tap_aux0,
    output wire [128*LANES-1:0]         tap_aux1,
    output wire                         tap_crc_valid,
    output wire                         tap_crc_last,
    output wire [$clog2(16*LANES+1)-1:0] tap_crc_end,
    output wire                         tap_fld0,
    output wire [$clog2(16*LANES+1)-1:0] tap_fld_lsh,
    output wire                         tap_fld1,
    output wire [2:0]                   tap_fld_rsh,
    output wire [TAG_W-1:0]             tap_tag
);

// ----------------------------------------------------------------------------
// Constants
// ----------------------------------------------------------------------------
// bytes per beat
localparam W = 16 * LANES;
// bits per beat
localparam DW = 8 * W;
// bias (in beats) that keeps src_off - dst_off positive: dst_off never exceeds 255
localparam BIAS_BEATS = (256 + W - 1) / W;
// beat size and bias as 14-bit positions
localparam [13:0] W14 = W[13:0];
localparam [13:0] BIAS_BEATS14 = BIAS_BEATS[13:0];
localparam [13:0] BIAS_BYTES = BIAS_BEATS14 * W14;
// front and aux vectors padded to whole beats
localparam NFB = (FRONT_BYTES + W - 1) / W;
localparam NAB = (AUX_BYTES + W - 1) / W;
// index widths of the front and aux beats
localparam FIW = (NFB > 1) ? $clog2(NFB) : 1;
localparam AIW = (NAB > 1) ? $clog2(NAB) : 1;
// width of a byte count 0..W
localparam NW = $clog2(W + 1);
// ICRC + VCRC field bytes (IBA Vol. 1 §7.8: 4 + 2)
localparam [13:0] FLD_BYTES = 14'd6;
// positions relative to the next beat's first byte (rem_*, below): 15-bit two's
// complement, a 13-bit length minus a 14-bit beat position
localparam [14:0] W15 = {1'b0, W14};
localparam [13:0] W2_14 = W14 << 1;
// the flags of a position relative to a beat (FL_W bits, fl_* below): above 0, at least W
localparam FL_W = 2;
// and of crc_end (FC_W bits, fc_*): above 0, at least W, at least 0, at most W, 1..5
// below 0
localparam FC_W = 5;
// a job as one word: front, front_len, aux0, aux1, dst_off, dst_end, total_end, aad_end,
// crc_end, tag, side, then its realignment (shift r, first ring beat, last_a) and the
// flags of its first beat (front_len, dst_off, dst_end, total_end, crc_end, aad_end)
localparam JOB_W = 8 * FRONT_BYTES + 8 + 2 * 8 * AUX_BYTES + 5 * 13 + TAG_W + SIDE_W
                   + NW + AW + 1 + 4 * FL_W + FC_W + LANES;

// ----------------------------------------------------------------------------
// Functions
// ----------------------------------------------------------------------------
// prefix mask of n bytes (n = 0..W)
function [W-1:0] prefix;
    input [NW-1:0] n;
    begin
        prefix = ~({W{1'b1}} << n);
    end
endfunction

// comparisons of a relative position (15-bit two's complement) with a constant k >= 0
function rgt;
    input [14:0] r;
    input [13:0] k;
    begin
        rgt = !r[14] && (r[13:0] > k);
    end
endfunction
function rge;
    input [14:0] r;
    input [13:0] k;
    begin
        rge = !r[14] && (r[13:0] >= k);
    end
endfunction

// the bytes of a beat below a position from the position's flags (above 0, at least W)
// and its low bits (the distance when 0 < distance < W): bytes_below, from registers
// (bytes_below(x, base) with x - base of these flags and low bits)
function [NW-1:0] fl_count;
    input [FL_W-1:0] fl;
    input [NW-1:0] lo;
    begin
        fl_count = fl[0] ? W[NW-1:0] : fl[1] ? lo : {NW{1'b0}};
    end
endfunction
function [W-1:0] fl_mask;
    input [FL_W-1:0] fl;
    input [NW-1:0] lo;
    begin
        fl_mask = fl[0] ? {W{1'b1}} : fl[1] ? prefix(lo) : {W{1'b0}};
    end
endfunction

// the flags of a length for a job's first beat (position 0), and of a relative position
// r for the beat after the one it is relative to (r - W)
function [FL_W-1:0] fl_job;
    input [12:0] len;
    begin
        fl_job = {len != 13'd0, {1'b0, len} >= W15[13:0]};
    end
endfunction
function [FL_W-1:0] fl_step;
    input [14:0] r;
    begin
        fl_step = {rgt(r, W14), rge(r, W2_14)};
    end
endfunction
// crc_end's: {above 0, at least W, at least 0, at most W, 1..5 below 0}
function [FC_W-1:0] fc_job;
    input [12:0] len;
    begin
        fc_job = {len != 13'd0, {1'b0, len} >= W15[13:0], 1'b1, {1'b0, len} <= W15[13:0],
                  1'b0};
    end
endfunction
function [FC_W-1:0] fc_step;
    input [14:0] r;
    begin
        fc_step = {rgt(r, W14), rge(r, W2_14), rge(r, W14), !rgt(r, W2_14),
                   rgt(r, W14 - FLD_BYTES) && !rge(r, W14)};
    end
endfunction


// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// the waiting job (J): a job taken while another runs, as one word (JOB_W bits, the
// fields of the running job below, with its realignment computed; job_word below)
reg                       jv_reg, jv_next;
reg [JOB_W-1:0]           j_word_reg, j_word_next;
// stage A: the running job
reg                       active_reg, active_next;
reg [SIDE_W-1:0]          side_reg, side_next;
reg [8*FRONT_BYTES-1:0]   front_reg, front_next;
reg [8*AUX_BYTES-1:0]     aux0_reg, aux0_next;
reg [8*AUX_BYTES-1:0]     aux1_reg, aux1_next;
reg [TAG_W-1:0]           tag_reg, tag_next;
reg [NW-1:0]              shift_reg, shift_next;      // r
reg [AW-1:0]              ra_reg, ra_next;            // ring beat k + q
reg [8:0]                 index_a_reg, index_a_next;  // the next beat's index
// The job's positions relative to the next beat's first byte (position - 16 * LANES *
// index), and their flags for that beat, kept a beat ahead (from the job's geometry on a
// load, from the relative position on an issue) so that the next beat's masks and CRC
// controls come from registers with a few gates: front_len (f), dst_off (d), dst_end
// (s), total_end (t), crc_end (c), aad_end (a; its flags: lane i starts below it)
reg [14:0]                rem_f_reg, rem_f_next;
reg [14:0]                rem_d_reg, rem_d_next;
reg [14:0]                rem_s_reg, rem_s_next;
reg [14:0]                rem_t_reg, rem_t_next;
reg [14:0]                rem_c_reg, rem_c_next;
reg [14:0]                rem_a_reg, rem_a_next;
reg [FL_W-1:0]            fl_f_reg, fl_f_next;
reg [FL_W-1:0]            fl_d_reg, fl_d_next;
reg [FL_W-1:0]            fl_s_reg, fl_s_next;
reg [FL_W-1:0]            fl_t_reg, fl_t_next;
reg [FC_W-1:0]            fc_reg, fc_next;
reg [LANES-1:0]           fa_reg, fa_next;
// the next beat is the job's last: base_a + W >= total_end, kept as a register (from the
// job's geometry on a load, one beat ahead on an issue) so that no compare lies between
// the registers and the issue, job_ready and load decisions
reg                       last_a_reg, last_a_next;
// stage B: the beat on tap
reg                       b_valid_reg;
reg                       b_first_reg;
reg                       b_last_reg;
reg [W-1:0]               b_mf_reg, b_ms_reg, b_keep_reg;
reg [LANES-1:0]           b_user_reg;
reg [DW-1:0]              b_front_reg, b_aux0_reg, b_aux1_reg;
reg [NW-1:0]              b_shift_reg;
reg                       b_crc_valid_reg, b_crc_last_reg;
reg [NW-1:0]              b_crc_end_reg;
reg                       b_fld0_reg, b_fld1_reg;
reg [NW-1:0]              b_lsh_reg;
reg [2:0]                 b_rsh_reg;
reg [TAG_W-1:0]           b_tag_reg;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
// the new job's realignment: src_off - dst_off = q * W + r
wire [13:0]   delta = {1'b0, job_src_off} + BIAS_BYTES - {1'b0, job_dst_off};
wire [13:0]   q_b = delta / W14;
/* verilator lint_off UNUSEDSIGNAL */ // r < W: only the low NW bits matter; q wraps to AW bits
wire [13:0]   r_b = delta % W14;
wire [13:0]   q_beat = q_b - BIAS_BEATS14;
/* verilator lint_on UNUSEDSIGNAL */

wire          issue = active_reg && issue_ok;
wire          last_a = last_a_reg;
// last_a of the beat after this one, and of a new job's first beat
wire          last_a_after = !rgt(rem_t_reg, W2_14);
wire          last_a_job   = W14 >= {1'b0, job_total_end};
// the lanes starting below aad_end: of a new job's first beat, of the beat after this one
reg [LANES-1:0] fa_job, fa_step;
integer li;
always @* begin
    for (li = 0; li < LANES; li = li + 1) begin
        fa_job[li]  = {1'b0, job_aad_end} > 14'd16 * li[13:0];
        fa_step[li] = rgt(rem_a_reg, W14 + 14'd16 * li[13:0]);
    end
end
// A job is taken whenever none waits (job_ready, a register: the producer's handshake
// never depends on issue_ok). The running job's place is free when none runs or its
// last beat issues now; it is then loaded from J, or straight from the input when J is
// empty, so that jobs still chain without a bubble. A job taken while the place is not
// free waits in J.
wire          free = !active_reg || (issue && last_a);
// the input job as a word, and the word a load takes (J's when a job waits)
wire [JOB_W-1:0] job_word = {job_front, job_front_len, job_aux0, job_aux1, job_dst_off,
                             job_dst_end, job_total_end, job_aad_end, job_crc_end, job_tag,
                             job_side, r_b[NW-1:0], job_base + q_beat[AW-1:0], last_a_job,
                             fl_job({5'd0, job_front_len}), fl_job(job_dst_off), fl_job(job_dst_end),
                             fl_job(job_total_end), fc_job(job_crc_end), fa_job};
wire [JOB_W-1:0] load_word = jv_reg ? j_word_reg : job_word;
wire [8*FRONT_BYTES-1:0] lw_front;
wire [7:0]               lw_front_len;
wire [8*AUX_BYTES-1:0]   lw_aux0, lw_aux1;
wire [12:0]              lw_dst_off, lw_dst_end, lw_total_end, lw_aad_end, lw_crc_end;
wire [TAG_W-1:0]         lw_tag;
wire [SIDE_W-1:0]        lw_side;
wire [NW-1:0]            lw_shift;
wire [AW-1:0]            lw_ra;
wire                     lw_last;
wire [FL_W-1:0]          lw_fl_f, lw_fl_d, lw_fl_s, lw_fl_t;
wire [FC_W-1:0]          lw_fc;
wire [LANES-1:0]         lw_fa;
assign {lw_front, lw_front_len, lw_aux0, lw_aux1, lw_dst_off, lw_dst_end, lw_total_end,
        lw_aad_end, lw_crc_end, lw_tag, lw_side, lw_shift, lw_ra, lw_last, lw_fl_f, lw_fl_d,
        lw_fl_s, lw_fl_t, lw_fc, lw_fa} = load_word;
wire          take = job_valid && !jv_reg;
wire          load_j = jv_reg && free;
wire          load_in = take && free;
wire          load = load_j || load_in;

wire [DW-1:0] front_word[0:NFB-1];
wire [DW-1:0] aux0_word[0:NAB-1];
wire [DW-1:0] aux1_word[0:NAB-1];
genvar gi;
generate
    for (gi = 0; gi < NFB; gi = gi + 1) begin : g_front
        if ((gi + 1) * W <= FRONT_BYTES) begin : g_full
            assign front_word[gi] = front_reg[gi*DW +: DW];
        end else begin : g_part
            assign front_word[gi] = {{((gi + 1) * DW - 8 * FRONT_BYTES){1'b0}},
                                     front_reg[8*FRONT_BYTES-1:gi*DW]};
        end
    end
    for (gi = 0; gi < NAB; gi = gi + 1) begin : g_aux
        if ((gi + 1) * W <= AUX_BYTES) begin : g_full
            assign aux0_word[gi] = aux0_reg[gi*DW +: DW];
            assign aux1_word[gi] = aux1_reg[gi*DW +: DW];
        end else begin : g_part
            assign aux0_word[gi] = {{((gi + 1) * DW - 8 * AUX_BYTES){1'b0}},
                                    aux0_reg[8*AUX_BYTES-1:gi*DW]};
            assign aux1_word[gi] = {{((gi + 1) * DW - 8 * AUX_BYTES){1'b0}},
                                    aux1_reg[8*AUX_BYTES-1:gi*DW]};
        end
    end
endgenerate
wire [DW-1:0] front_a = ({23'd0, index_a_reg} < NFB) ? front_word[index_a_reg[FIW-1:0]]
                                                     : {DW{1'b0}};
wire [DW-1:0] aux0_a = ({23'd0, index_a_reg} < NAB) ? aux0_word[index_a_reg[AIW-1:0]]
                                                    : {DW{1'b0}};
wire [DW-1:0] aux1_a = ({23'd0, index_a_reg} < NAB) ? aux1_word[index_a_reg[AIW-1:0]]
                                                    : {DW{1'b0}};

// masks of the beat issued now, from the flags and low bits of the relative positions
wire [W-1:0]  mf_a   = fl_mask(fl_f_reg, rem_f_reg[NW-1:0]);
wire [W-1:0]  md_a   = fl_mask(fl_d_reg, rem_d_reg[NW-1:0]);
wire [W-1:0]  ms_a   = fl_mask(fl_s_reg, rem_s_reg[NW-1:0]) & ~md_a;
wire [W-1:0]  keep_a = mf_a | (fl_mask(fl_t_reg, rem_t_reg[NW-1:0]) & ~md_a);
// crc_end's flags: above 0 (the beat holds covered bytes), at least W, at least 0, at
// most W, 1..5 below 0 (the beat holds the rest of the ICRC + VCRC fields)
wire          c_gt0 = fc_reg[4];
wire          c_gew = fc_reg[3];
wire          c_ge0 = fc_reg[2];
wire          c_lew = fc_reg[1];
wire          c_f1  = fc_reg[0];
wire          fld0_a = c_ge0 && !c_gew;
wire          fld1_a = c_f1;
wire [2:0]    rsh_a  = 3'd0 - rem_c_reg[2:0];

// stage B: the realigned ring bytes
wire [2*DW-1:0] window = {rd_hi, rd_lo};
/* verilator lint_off UNUSEDSIGNAL */ // the upper half of the shifted window is never used
wire [2*DW-1:0] window_shifted = window >> (8 * b_shift_reg);
/* verilator lint_on UNUSEDSIGNAL */

// the byte masks of the beat on tap as bit masks, a slice per byte by generate (a loop
// over more than 64 bytes would stay a run-time loop over the wide vectors in Verilator)
wire [DW-1:0]   b_mf_bits, b_ms_bits;
genvar bi;
generate
    for (bi = 0; bi < W; bi = bi + 1) begin : g_bits
        assign b_mf_bits[8*bi +: 8] = {8{b_mf_reg[bi]}};
        assign b_ms_bits[8*bi +: 8] = {8{b_ms_reg[bi]}};
    end
endgenerate

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign job_ready     = !jv_reg;
assign issue_last    = active_reg && last_a;
assign idle          = !active_reg && !jv_reg && !b_valid_reg;
assign act_side      = side_reg;
assign next_load     = load;
assign next_side     = lw_side;
assign next_rd_addr  = lw_ra;
assign rd_en         = issue;
assign rd_addr       = ra_reg;
assign tap_valid     = b_valid_reg;
assign tap_first     = b_first_reg;
assign tap_data      = (b_mf_bits & b_front_reg) | (b_ms_bits & window_shifted[DW-1:0]);
assign tap_keep      = b_keep_reg;
assign tap_last      = b_last_reg;
assign tap_user      = b_user_reg;
assign tap_aux0      = b_aux0_reg;
assign tap_aux1      = b_aux1_reg;
assign tap_crc_valid = b_crc_valid_reg;
assign tap_crc_last  = b_crc_last_reg;
assign tap_crc_end   = b_crc_end_reg;
assign tap_fld0      = b_fld0_reg;
assign tap_fld_lsh   = b_lsh_reg;
assign tap_fld1      = b_fld1_reg;
assign tap_fld_rsh   = b_rsh_reg;
assign tap_tag       = b_tag_reg;

// ----------------------------------------------------------------------------
// Next state
// ----------------------------------------------------------------------------
always @* begin
    active_next    = active_reg;
    front_next     = front_reg;
    aux0_next      = aux0_reg;
    aux1_next      = aux1_reg;
    tag_next       = tag_reg;
    shift_next     = shift_reg;
    ra_next        = ra_reg;
    index_a_next   = index_a_reg;
    rem_f_next     = rem_f_reg;
    rem_d_next     = rem_d_reg;
    rem_s_next     = rem_s_reg;
    rem_t_next     = rem_t_reg;
    rem_c_next     = rem_c_reg;
    rem_a_next     = rem_a_reg;
    fl_f_next      = fl_f_reg;
    fl_d_next      = fl_d_reg;
    fl_s_next      = fl_s_reg;
    fl_t_next      = fl_t_reg;
    fc_next        = fc_reg;
    fa_next        = fa_reg;
    last_a_next    = last_a_reg;
    side_next      = side_reg;
    jv_next        = jv_reg;
    j_word_next    = j_word_reg;

    if (issue) begin
        ra_next      = ra_reg + 1'b1;
        index_a_next = index_a_reg + 1'b1;
        rem_f_next   = rem_f_reg - W15;
        rem_d_next   = rem_d_reg - W15;
        rem_s_next   = rem_s_reg - W15;
        rem_t_next   = rem_t_reg - W15;
        rem_c_next   = rem_c_reg - W15;
        rem_a_next   = rem_a_reg - W15;
        fl_f_next    = fl_step(rem_f_reg);
        fl_d_next    = fl_step(rem_d_reg);
        fl_s_next    = fl_step(rem_s_reg);
        fl_t_next    = fl_step(rem_t_reg);
        fc_next      = fc_step(rem_c_reg);
        fa_next      = fa_step;
        last_a_next  = last_a_after;
        if (last_a)
            active_next = 1'b0;
    end
    if (load) begin
        active_next    = 1'b1;
        front_next     = lw_front;
        aux0_next      = lw_aux0;
        aux1_next      = lw_aux1;
        rem_f_next     = {7'd0, lw_front_len};
        rem_d_next     = {2'd0, lw_dst_off};
        rem_s_next     = {2'd0, lw_dst_end};
        rem_t_next     = {2'd0, lw_total_end};
        rem_c_next     = {2'd0, lw_crc_end};
        rem_a_next     = {2'd0, lw_aad_end};
        fl_f_next      = lw_fl_f;
        fl_d_next      = lw_fl_d;
        fl_s_next      = lw_fl_s;
        fl_t_next      = lw_fl_t;
        fc_next        = lw_fc;
        fa_next        = lw_fa;
        tag_next       = lw_tag;
        side_next      = lw_side;
        shift_next     = lw_shift;
        ra_next        = lw_ra;
        last_a_next    = lw_last;
        index_a_next   = 9'd0;
    end
    if (load_j)
        jv_next = 1'b0;
    if (take && !load_in) begin
        jv_next     = 1'b1;
        j_word_next = job_word;
    end
end

always @(posedge clk) begin
    active_reg    <= active_next;
    front_reg     <= front_next;
    aux0_reg      <= aux0_next;
    aux1_reg      <= aux1_next;
    tag_reg       <= tag_next;
    shift_reg     <= shift_next;
    ra_reg        <= ra_next;
    index_a_reg   <= index_a_next;
    rem_f_reg     <= rem_f_next;
    rem_d_reg     <= rem_d_next;
    rem_s_reg     <= rem_s_next;
    rem_t_reg     <= rem_t_next;
    rem_c_reg     <= rem_c_next;
    rem_a_reg     <= rem_a_next;
    fl_f_reg      <= fl_f_next;
    fl_d_reg      <= fl_d_next;
    fl_s_reg      <= fl_s_next;
    fl_t_reg      <= fl_t_next;
    fc_reg        <= fc_next;
    fa_reg        <= fa_next;
    last_a_reg    <= last_a_next;
    side_reg      <= side_next;
    jv_reg        <= jv_next;
    j_word_reg    <= j_word_next;

    b_valid_reg <= issue;
    if (issue) begin
        b_first_reg     <= index_a_reg == 9'd0;
        b_last_reg      <= last_a;
        b_mf_reg        <= mf_a;
        b_ms_reg        <= ms_a;
        b_keep_reg      <= keep_a;
        b_user_reg      <= fa_reg;
        b_front_reg     <= front_a;
        b_aux0_reg      <= aux0_a;
        b_aux1_reg      <= aux1_a;
        b_shift_reg     <= shift_reg;
        b_crc_valid_reg <= c_gt0;
        b_crc_last_reg  <= c_gt0 && c_lew;
        b_crc_end_reg   <= fl_count({c_gt0, c_gew}, rem_c_reg[NW-1:0]);
        b_fld0_reg      <= fld0_a;
        b_fld1_reg      <= fld1_a;
        b_lsh_reg       <= rem_c_reg[NW-1:0];
        b_rsh_reg       <= rsh_a;
        b_tag_reg       <= tag_reg;
    end

    if (rst) begin
        active_reg  <= 1'b0;
        jv_reg      <= 1'b0;
        b_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
