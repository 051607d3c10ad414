/*
 * ibsec_egress — the packet engine's egress stage (ibsec_engine): the XQ head and its tag
 * registered in XH, then in EQ with the tag comparison and (open) the CRC verdicts, the
 * packet's verdict, status entry and commit, and the egress composer that builds the
 * output frame (docs/packet-engine.md §3, §4).
 *
 * Function
 *   XH       XQ's head is registered in XH (its prefetch register) once its tag is out of
 *            gcm_core (secured modes; not seal icrc-mac, whose tag is needed only in the
 *            ICRC field of the packet's last beat: the late tag), with the tag (TQ's
 *            head), its header (the header store's port B, hs_*) and, open, the 16
 *            header bytes from hdr_len on (the STH) shifted out of it, so that EQ's
 *            comparisons and its header edit start at registers. XH loads when empty
 *            or as EQ loads from it (one packet per clock)
 *   EQ       XH's packet enters EQ once its frame has ended (its late parse at lp's head;
 *            open: its CRC check's results, registered from kr's head with their
 *            comparisons in KH, one cycle later), with the tag and, on open,
 *            whether the received tag differs from it (a flag per 32-bit word of the
 *            tag, for the words its length covers; their OR is the tag's verdict) and
 *            whether its VCRC and ICRC are bad, so that the comparisons end at a
 *            register, and the verdict, the commit to the context table (open: cm_*)
 *            and the egress composer's job start at registers. The job's geometry (its
 *            ring base and offsets, the frame's end) is computed from XH into EQ too
 *            (EQ_J), so that the composer's realignment and read address start at
 *            registers. The late parse's reason comes before every other (it rejects
 *            a frame shorter or longer than its header says), then the VCRC, the
 *            decision's checks, the ICRC, and the tag. Whether a verdict before the
 *            tag's is not ok, and whether the packet reaches no EPSN step, are registered
 *            with it, and whether its message is all written (a drop waits for it) is
 *            registered a cycle ahead (EQ_MD), so that EQ's take (x_go), which enables
 *            EQ's load of the next packet (about 1,400 bits), starts at registers
 *   compose  the output: the header edited in EQ's register stage (ib_hdr_edit: seal, the
 *            lengths grown and BTH byte 8 written for the STH; open, the STH removed),
 *            STH (seal: the tag's first bytes), payload + pad (from the crypt ring
 *            when encrypted, else from this stage's copy of the input ring),
 *            ICRC / VCRC placeholders; the ICRC (or, icrc-mac, the tag) and the VCRC are
 *            computed on the way into the output FIFO (from EC, a register holding each
 *            composed beat a cycle before the CRC engines, so that the ring's read data
 *            and the tap's byte shift end at a register) and patched into the last beats
 *            on the way out. It reads the crypt ring behind gcm_core's writes (cw), its
 *            flow control kept a cycle ahead in registers (ez_md_reg, ez_rdok_reg: the
 *            message of the job running at the next clock is all written, the beats of
 *            its next paired read are), so that the composer's issue enable is a few
 *            gates of registers
 *   output   the output FIFO (OQ) and the pending FIFOs of the CRC results (EP, ER) and
 *            of the late tags (PTQ) have registered heads; the packet's output fields
 *            (its ICRC field and, native IBA, the VCRC extended over it) are computed
 *            from those heads into a register (OF) before its beats need them, so that
 *            the patch of a beat (a byte shift of OF by the beat's field offset, masked
 *            by tkeep) starts at registers and ends at m_axis
 *   A dropped packet produces nothing on m_axis and, as every packet, one status entry;
 *   its ring beats are freed (fp, cf) once its message is written. Packets leave and are
 *   reported in input order.
 *
 * Latency / throughput
 *   One cycle from XQ head to XH, one from XH to EQ; the composer's output beats reach m_axis through the
 *   output FIFO at one beat per clock, jobs chaining without a bubble; the CRC fields of
 *   a packet's last beats wait for the CRC engines (EC and a few cycles after its last
 *   byte) and one cycle more for OF. A beat read behind gcm_core's writes issues at
 *   most a clock after the beats it needs are written (the flow control's registers). A dropped packet whose message the writer completes while
 *   it waits in EQ leaves a cycle after that (EQ_MD).
 *
 * Hands on
 *   The output stream (m_axis), one status entry per packet (st_*), the commit (open) and
 *   the freed ring beats (fp to ibsec_ingress, cf to ibsec_crypt).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ibsec_egress #(
    parameter LANES = 1,
    parameter OPEN = 0,
    parameter KEY_SLOTS = 4,
    parameter CTX_SLOTS = 16,
    parameter CTX_W = (CTX_SLOTS > 1) ? $clog2(CTX_SLOTS) : 1
) (
    clk, rst,
    xq_m_valid, xq_m_ready, xq_m_data,
    hs_valid, hs_pop, hs_data,
    tq_m_valid, tq_m_ready, tq_m_data,
    tl_m_valid, tl_m_ready, tl_m_tag32,
    lp_valid, lp_pop, lp_reason, lp_mode, lp_nb,
    kr_valid, kr_pop, kr_icrc0, kr_icrc1, kr_vcrc, kr_rx,
    ring_wr_en, ring_wr_addr, ring_wr_data, cr_wr_en, cr_wr_data, cw, fp, cf,
    cm_valid, cm_pass, cm_void, cm_alert,
    st_valid, st_reason, st_ctx_hit, st_ctx, st_mode, st_epsn, st_alert,
    m_axis_tdata, m_axis_tkeep, m_axis_tvalid, m_axis_tready, m_axis_tlast, m_axis_tuser,
    eq_valid
);

// (ports declared below the shared constants, whose descriptor and ring widths they use)
`include "ibsec_engine_defs.vh"

input  wire                 clk;
input  wire                 rst;

/*
 * XQ read side, the tag FIFO's head and (seal icrc-mac) the late tags (ibsec_crypt)
 */
input  wire                 xq_m_valid;
output reg                  xq_m_ready;
input  wire [DS_W-1:0]      xq_m_data;

/*
 * Header store read port (ibsec_hdr_store): the headers in frame order, the head that of
 * the XQ head's packet
 */
input  wire                 hs_valid;
output wire                 hs_pop;
input  wire [8*CAP_BYTES-1:0] hs_data;
input  wire                 tq_m_valid;
output reg                  tq_m_ready;
input  wire [127:0]         tq_m_data;
/* verilator lint_off UNUSEDSIGNAL */ // the late tags serve seal only
input  wire                 tl_m_valid;
input  wire [31:0]          tl_m_tag32;
/* verilator lint_on UNUSEDSIGNAL */
output wire                 tl_m_ready;

/*
 * The late parse of every frame and, open, its CRC check's results (ibsec_ingress)
 */
input  wire                 lp_valid;
output reg                  lp_pop;
input  wire [5:0]           lp_reason;
input  wire [2:0]           lp_mode;
input  wire [RAW-1:0]       lp_nb;
/* verilator lint_off UNUSEDSIGNAL */ // the CRC check serves open only
input  wire                 kr_valid;
input  wire [31:0]          kr_icrc0;
input  wire [31:0]          kr_icrc1;
input  wire [15:0]          kr_vcrc;
input  wire [47:0]          kr_rx;
/* verilator lint_on UNUSEDSIGNAL */
output reg                  kr_pop;

/*
 * Input ring's write port (ibsec_ingress), crypt ring's write port and write pointer
 * (ibsec_crypt); the free pointers of both rings
 */
input  wire                 ring_wr_en;
input  wire [RAW-1:0]       ring_wr_addr;
input  wire [DW-1:0]        ring_wr_data;
input  wire                 cr_wr_en;
input  wire [DW-1:0]        cr_wr_data;
input  wire [RAW:0]         cw;
output wire [RAW:0]         fp;
output wire [RAW:0]         cf;

/*
 * Open: the commit of a decided packet to the context table (ibsec_regs)
 */
output reg                  cm_valid;
output reg                  cm_pass;
output reg                  cm_void;
input  wire                 cm_alert;

/*
 * Status: one entry per input packet, in input order, valid for one cycle
 */
output wire                 st_valid;
output wire [5:0]           st_reason;
output wire                 st_ctx_hit;
output wire [CTX_W-1:0]     st_ctx;
output wire [2:0]           st_mode;
output wire [62:0]          st_epsn;
output wire                 st_alert;

/*
 * Packet output (only packets whose verdict is ok; tuser: link, on every beat)
 */
output wire [DW-1:0]        m_axis_tdata;
output wire [W-1:0]         m_axis_tkeep;
output wire                 m_axis_tvalid;
input  wire                 m_axis_tready;
output wire                 m_axis_tlast;
output wire                 m_axis_tuser;

/*
 * A packet is in EQ (the command interlock's pipe_busy)
 */
output wire                 eq_valid;

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// input ring and crypt ring: freed up to (one bit more than the address: full/empty)
reg [RAW:0]             fp_reg, fp_next;
reg [RAW:0]             cf_reg, cf_next;
// status output
reg                     st_valid_reg, st_valid_next;
reg [5:0]               st_reason_reg, st_reason_next;
reg                     st_hit_reg, st_hit_next;
reg [CTX_W-1:0]         st_ctx_reg, st_ctx_next;
reg [2:0]               st_mode_reg, st_mode_next;
reg [62:0]              st_epsn_reg, st_epsn_next;
reg                     st_alert_reg, st_alert_next;

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
/* verilator lint_off UNUSEDSIGNAL */
// one descriptor format travels through CQ, DQ and XQ; the egress stage reads only the
// fields it needs
// EQ (the egress register, below): packet in the egress stage, with its tag
reg                        x_link;
reg  [RAW-1:0]             x_base;
reg  [RAW-1:0]             x_nb;
reg  [1:0]                 x_shape;
reg  [6:0]                 x_bth_off;
reg  [6:0]                 x_hdr_len;
reg  [6:0]                 x_sth_len;
reg  [12:0]                x_pp_len;
reg  [12:0]                x_pkt_end;
reg  [2:0]                 x_pmode;
reg  [4:0]                 x_secb;     // BTH byte 8: KP, PN, STHSZ
reg  [23:0]                x_psn;
reg  [23:0]                x_destqp;
reg  [15:0]                x_pkey;
reg                        x_chk;
reg  [5:0]                 x_reason;
reg                        x_hit;
reg  [CTX_W-1:0]           x_ctx;
reg  [2:0]                 x_smode;
reg  [2:0]                 x_apply;
reg  [2:0]                 x_code;
reg  [KEY_W-1:0]           x_key;
reg  [31:0]                x_salt;
reg                        x_dir;
reg  [62:0]                x_epsn;
reg                        x_mf;
reg                        x_ichk;
reg  [RAW-1:0]             x_cbase;
reg  [RAW-1:0]             x_mb;
reg                        x_crypted;
// XQ head: the packet entering EQ
reg                        xh_link;
reg  [RAW-1:0]             xh_base;
reg  [RAW-1:0]             xh_nb;
reg  [1:0]                 xh_shape;
reg  [6:0]                 xh_bth_off;
reg  [6:0]                 xh_hdr_len;
reg  [6:0]                 xh_sth_len;
reg  [12:0]                xh_pp_len;
reg  [12:0]                xh_pkt_end;
reg  [2:0]                 xh_pmode;
reg  [4:0]                 xh_secb;
reg  [23:0]                xh_psn;
reg  [23:0]                xh_destqp;
reg  [15:0]                xh_pkey;
reg                        xh_chk;
reg  [5:0]                 xh_reason;
reg                        xh_hit;
reg  [CTX_W-1:0]           xh_ctx;
reg  [2:0]                 xh_smode;
reg  [2:0]                 xh_apply;
reg  [2:0]                 xh_code;
reg  [KEY_W-1:0]           xh_key;
reg  [31:0]                xh_salt;
reg                        xh_dir;
reg  [62:0]                xh_epsn;
reg                        xh_mf;
reg                        xh_ichk;
reg  [RAW-1:0]             xh_cbase;
reg  [RAW-1:0]             xh_mb;
reg                        xh_crypted;
/* verilator lint_on UNUSEDSIGNAL */
genvar kb;

// ---- egress register (EQ): XH's packet with its tag and the tag comparison ----
// XQ's head enters XH (below) once its tag is out of gcm_core (secured modes; not seal
// icrc-mac, whose tag is needed only in the ICRC field of the packet's last beat: the
// late tag, below), and XH's packet enters EQ once its late parse and, on open, its CRC
// check's results are out (the head of ibsec_rx_check's results FIFO, one per frame in
// packet order, popped for every packet, registered in KH), together with the tag and,
// on open, whether the received tag differs from it (per 32-bit word) and whether its
// VCRC and ICRC are bad, so that the comparisons end at a register, and the egress
// decision, the commit to the context table and the egress composer's job start at
// registers. EQ takes the next packet as its packet leaves (one packet per clock).
reg                 eq_valid_reg = 1'b0;
reg  [DS_W-1:0]     eq_desc_reg;
reg  [127:0]        eq_tag_reg;
reg  [3:0]          eq_fail_reg;        // open: a tag word compared differs (x_fail, below)
reg                 eq_drop0_reg;       // a verdict before the tag's is not ok, or
                                        // eq_fail_reg[0] (x_drop, below)
reg                 eq_vbad_reg, eq_ibad_reg;
reg                 eq_lbad_reg;        // the late parse rejects the frame
reg                 eq_noep_reg;        // the late parse or a CRC drops it (x_no_ep)
reg                 eq_md_reg;          // its message is all written (x_msg_done), see below
reg  [5:0]          eq_lreason_reg;     // its reason
reg  [2:0]          eq_lmode_reg;       // and the mode BTH byte 8 names
wire                eq_take;            // EQ's packet leaves: egress job or drop
// open, KH: the check FIFO's head (kr) registered with its comparisons, so that the
// verdicts EQ registers are a few gates behind registers. Loaded when empty or as EQ
// takes its packet (one per clock); one cycle from kr's head to KH
reg                 kh_valid_reg = 1'b0;
reg  [15:0]         kh_vext_reg;        // the VCRC extended over the received ICRC field
reg  [15:0]         kh_rxv_reg;         // the received VCRC
reg                 kh_i0bad_reg;       // the ICRC (MASK_MF clear) differs from the received
reg                 kh_i1bad_reg;       // the ICRC (MASK_MF set) differs from the received
reg  [31:0]         kh_rx32_reg;        // the received ICRC field (icrc-mac: the tag's bytes)
wire                eq_load;
// XH, the XQ head registered ahead of EQ (one packet, loaded when empty or as EQ loads
// from it), with its tag from TQ's head and (open) the received tag taken out of its
// header, so that EQ's comparisons start at registers
reg                 xh_valid_reg = 1'b0;
reg  [DS_W-1:0]     xh_desc_reg;
reg  [127:0]        xh_tag_reg;
reg  [127:0]        xh_rx_reg;          // open: the 16 header bytes from hdr_len on (the STH)
reg  [8*HDR_BYTES-1:0] xh_hdr;          // the header (the header store's head)
wire                xh_load;
wire                kh_load = (OPEN != 0) && kr_valid && (!kh_valid_reg || eq_load);
// the XQ head's fields XH's load reads (the descriptor's layout: ibsec_engine_defs.vh)
wire                q_crypted = xq_m_data[0];
wire [2:0]          q_apply   = xq_m_data[DS_APPLY_LSB +: 3];
wire [6:1]          q_hdr_len = xq_m_data[DS_HDR_LEN_LSB+1 +: 6];   // (even)
wire [8*CAP_BYTES-1:0] q_hdr  = hs_data;     // the XQ head's header
// seal icrc-mac: the egress stream starts before the tag is out (the late tag)
wire                q_late = (OPEN == 0) && q_crypted && q_apply == M_ICRC_MAC;
wire                q_have_tag = !q_crypted || q_late || tq_m_valid;
// the frame has ended: its late parse (and, open, check results) at their FIFOs' heads
wire                xh_have_chk = ((OPEN == 0) || kh_valid_reg) && lp_valid;
// the XH packet as EQ takes it, with the input ring beats the late parse counted
wire [DS_W-1:0]     xh_word = {xh_desc_reg[DS_W-1:DS_NB_LSB+RAW], lp_nb,
                               xh_desc_reg[DS_NB_LSB-1:0]};
assign              eq_load = xh_valid_reg && xh_have_chk && (!eq_valid_reg || eq_take);
assign              xh_load = xq_m_valid && hs_valid && q_have_tag &&
                              (!xh_valid_reg || eq_load);
assign              hs_pop  = xh_load;
// open: the CRC check's verdicts (native IBA only has a VCRC; the ICRC counts where the
// decision says the model checks it, with the MASK_MF value the decision sampled)
wire [15:0]         k_vext;
// (seal has no CRC check: its check flag is always clear, and its checks are cut here)
wire                xh_vbad = (OPEN != 0) && xh_chk && !xh_link && kh_vext_reg != kh_rxv_reg;
wire                xh_ibad = (OPEN != 0) && xh_chk && xh_ichk &&
                              (xh_mf ? kh_i1bad_reg : kh_i0bad_reg);
// the verdict before the tag's (the late parse, the CRCs, the decision): not ok
wire                xh_bad = (lp_reason != R_OK) || xh_vbad || xh_ibad || (xh_reason != R_OK);
wire [127:0]        xh_tag = xh_tag_reg;
// the received tag: the ICRC field (icrc-mac) or the STH behind the headers. The STH is
// 12 or 16 bytes: the 16 bytes from hdr_len on are the candidates. hdr_len is even for
// every parsed header (LRH 8, GRH 40, BTH 12, ETHs of multiples of 4; Ethernet 14,
// IPv4 20, IPv6 40, UDP 8) and at most 114 (RoCEv2 over IPv6 with 40 bytes of ETHs), so
// the 16 bytes lie in the 32-byte window of 16-byte blocks hdr_len[6:4] and
// hdr_len[6:4] + 1, at halfword hdr_len[3:1] of it. Two shifts on these strides instead
// of one byte shift by hdr_len over the whole register: the open engine packed into
// 3,200 TRELLIS_COMB fewer (63,052 against 66,252; docs/fpga.md).
/* verilator lint_off UNUSEDSIGNAL */
// only the window (the low 32 bytes) of the block shift is read, and only the low
// 16 bytes of the halfword shift
// (taken out of the XQ head into XH, xh_rx_reg)
wire [8*CAP_BYTES-1:0] q_sth_blk = q_hdr >> (128 * q_hdr_len[6:4]);
wire [255:0] q_from_sth = q_sth_blk[255:0] >> (16 * q_hdr_len[3:1]);
/* verilator lint_on UNUSEDSIGNAL */
// The comparison in two registered steps: a flag per 32-bit word of the tag into EQ (the
// received tag's words from XH, or icrc-mac's 4 bytes from KH), their OR out of EQ. The
// tag's length picks the words: icrc-mac 4 bytes (ICRC_MAC_TAG_LEN, word 0), STH code 1
// 12 bytes (STH96_LEN, words 0..2), else 16 (STH128_LEN, words 0..3)
wire         xh_mac = xh_apply == M_ICRC_MAC;
wire         xh_s96 = xh_code == 3'd1;
wire [3:0]   xh_ne;
assign xh_ne[0] = xh_mac ? (xh_tag[31:0] != kh_rx32_reg) : (xh_tag[31:0] != xh_rx_reg[31:0]);
assign xh_ne[1] = !xh_mac && (xh_tag[63:32] != xh_rx_reg[63:32]);
assign xh_ne[2] = !xh_mac && (xh_tag[95:64] != xh_rx_reg[95:64]);
assign xh_ne[3] = !xh_mac && !xh_s96 && (xh_tag[127:96] != xh_rx_reg[127:96]);
// the packet is checked against its tag (open, crypted, not dropped before the tag)
wire         xh_tag_chk = (OPEN != 0) && xh_crypted &&
                          !((lp_reason != R_OK) || xh_vbad || xh_ibad);
wire [3:0]   xh_fail = {4{xh_tag_chk}} & xh_ne;

// ---- egress stage (EQ) ----
wire [8*HDR_BYTES-1:0] x_edit;
/* verilator lint_off UNUSEDSIGNAL */
// egress needs the length of H (to find the payload in the crypt ring) and the
// per-bit variant mask; H itself and the per-byte mask are the crypt / check stages'
wire [8*HDR_BYTES-1:0] x_aad;
wire [HDR_BYTES-1:0]   x_variant;
// (H's length: EQ_J has it from XH)
wire [6:0]   x_aad_len;
/* verilator lint_on UNUSEDSIGNAL */
wire [8*HDR_BYTES-1:0] x_ones;
wire [127:0] x_tag = eq_tag_reg;
wire         x_enc = mode_encrypts(x_apply);
// the egress job's geometry, computed from XH as EQ loads (EQ_J) so that the composer's
// job (its ring offsets, the read address) starts at registers: the ring base, the
// source offset (encrypted: the payload behind H, rounded up to a block in the crypt
// ring; else behind headers and STH in the input ring), the payload's offset in the
// output (headers and the STH written), the ICRC field's offset, the frame's end
wire         xh_enc = mode_encrypts(xh_apply);
// H: the headers, RoCEv2's Ethernet header (14 bytes) replaced by an LRH (8), as
// ib_hdr_mask counts it
wire [6:0]   xh_aad_len = xh_shape[1] ? xh_hdr_len - 7'd6 : xh_hdr_len;
wire [6:0]   xh_sth_out = (OPEN == 0 && mode_has_sth(xh_apply)) ? sth_bytes(xh_code) : 7'd0;
wire [12:0]  xh_trailer = xh_link ? ICRC_LEN : (ICRC_LEN + VCRC_LEN);
wire [12:0]  xh_pp_off  = {6'd0, xh_hdr_len} + {6'd0, xh_sth_out};
wire [12:0]  xh_pp_tr   = xh_pp_len + xh_trailer;
reg  [RAW-1:0] eq_jbase_reg;
reg  [12:0]  eq_src_off_reg, eq_pp_off_reg, eq_icrc_off_reg, eq_end_reg;
wire [12:0]  x_pp_off   = eq_pp_off_reg;
wire [12:0]  x_icrc_off = eq_icrc_off_reg;
// the late parse's and (open) the CRC verdicts in the model's order (the decision's
// comment in ibsec_decide; the parse comes first, its late reason before every other); a packet
// they drop was never checked against its tag in the model, nor reached its EPSN step
// (x_no_ep: the status names no EPSN, the in-flight entry leaves with a void commit)
wire         x_lbad = eq_lbad_reg;
wire         x_vbad = eq_vbad_reg;
wire         x_ibad = eq_ibad_reg;
wire         x_no_ep = eq_noep_reg;
wire [5:0]   x_verdict = x_lbad ? eq_lreason_reg : x_vbad ? R_BAD_VCRC :
                         x_ibad ? R_BAD_ICRC : x_reason;
// (the tag differs in a word it covers: a crypted packet on open checked against it)
wire         x_fail = |eq_fail_reg;
wire         x_drop = eq_drop0_reg || (|eq_fail_reg[3:1]);  // (x_verdict != R_OK) || x_fail
wire         ez_job_ready, ez_idle;
wire         ez_job_valid = eq_valid_reg && !x_drop;
wire         ez_take = ez_job_valid && ez_job_ready;
// A crypted packet may reach EQ while gcm_core still writes its message into the crypt
// ring: seal icrc-mac without its tag (the late tag), and open, whose tag is out before
// its plaintext (gcm_core's EARLY_GHASH). A drop frees the message's beats, so it waits
// until they are all written: the writer is past the message's end, both counted from
// the free pointer (the beats between cf and cw are written; the message's base lies in
// the RING beats from cf on, and its end at most RING beats past cf)
wire         x_late = (OPEN == 0) && x_crypted && x_apply == M_ICRC_MAC;
// (x_msg_done, from registers: EQ_MD, computed a cycle ahead, for the packet EQ holds
// or the one it loads, with the writer and the free pointer of that cycle. The writer
// only moves on and the free pointer never passes the message's base, so a message
// once written stays written: the register is at most one cycle late, never early)
wire [RAW:0] x_written = cw - cf_reg;
wire [RAW-1:0] x_cb_off = x_cbase - cf_reg[RAW-1:0];
wire [RAW-1:0] xh_cb_off = xh_cbase - cf_reg[RAW-1:0];
wire         x_md_now  = x_written >= {1'b0, x_cb_off} + {1'b0, x_mb};
wire         xh_md_now = x_written >= {1'b0, xh_cb_off} + {1'b0, xh_mb};
wire         x_msg_done = eq_md_reg;
wire         x_drop_go = eq_valid_reg && x_drop && ez_idle && (!x_crypted || x_msg_done);
wire         x_go = ez_take || x_drop_go;
assign       eq_take = x_go;
wire [ET_W-1:0] ez_tag_in = {x_link, x_enc, x_nb, x_crypted ? x_mb : {RAW{1'b0}}, x_late};

// egress front: edited header up to hdr_len, then the STH (the tag's first L bytes)
reg [8*FRONT_BYTES-1:0] x_front;
// the edited header's bytes below hdr_len (a compare per byte instead synthesized larger
// in the flattened seal engine: 54,202 TRELLIS_COMB against 53,261)
wire [8*HDR_BYTES-1:0]  x_edit_head = x_edit & ~({8*HDR_BYTES{1'b1}} << (8 * x_hdr_len));
// seal: the tag at hdr_len (even, at most 114: see xh_sth_blk), placed in two shifts as
// it is taken out on open: at halfword hdr_len[3:1] of a 32-byte window, the window at
// 16-byte block hdr_len[6:4] (the seal engine packed into 53,202 TRELLIS_COMB, against
// 53,261 with the byte shift by hdr_len)
wire [255:0] x_sth_win = {128'd0, x_tag} << (16 * x_hdr_len[3:1]);
wire [8*FRONT_BYTES-1:0] x_sth_at = {{(8*FRONT_BYTES-256){1'b0}}, x_sth_win}
                                    << (128 * x_hdr_len[6:4]);
always @* begin
    x_front = {{(8*(FRONT_BYTES-HDR_BYTES)){1'b0}}, x_edit_head};
    if (OPEN == 0 && mode_has_sth(x_apply))
        x_front = x_front | x_sth_at;
end

// egress composer
wire                    ez_rd_en;
wire [RAW-1:0]          ez_rd_addr;
wire [DW-1:0]           ez_in_lo, ez_in_hi, ez_cr_lo, ez_cr_hi;
wire                    ez_tap_valid, ez_tap_first, ez_tap_last;
wire [DW-1:0]           ez_tap_data, ez_tap_aux0;
wire [W-1:0]            ez_tap_keep;
wire                    ez_tap_crc_valid, ez_tap_crc_last, ez_tap_fld0, ez_tap_fld1;
wire [NW-1:0]           ez_tap_crc_end, ez_tap_fld_lsh;
wire [2:0]              ez_tap_fld_rsh;
wire [ET_W-1:0]         ez_tap_tag;
/* verilator lint_off UNUSEDSIGNAL */
// the output stream carries no GCM lane flags and one variant mask
wire [LANES-1:0]        ez_tap_user;
wire [DW-1:0]           ez_tap_aux1;
/* verilator lint_on UNUSEDSIGNAL */
wire                    et_link, et_crypt, et_use_tag;
wire [RAW-1:0]          et_rel_in, et_rel_cr;
assign {et_link, et_crypt, et_rel_in, et_rel_cr, et_use_tag} = ez_tap_tag;

// The egress composer reads the crypt ring behind gcm_core's writes: a crypted packet's
// egress may start while its message is still in gcm_core (seal icrc-mac once its frame
// has ended, the late tag; open once its tag is checked, as the open instance's GHASH
// runs ahead of the key stream; seal sth-* with its tag, which gcm_core gives out a
// cycle before the message's last beat). A beat is issued only when the beats of its
// paired read (rd_addr, rd_addr + 1) that lie in the message are written. A beat below
// the message's base (read for the front's beats, whose ring bytes are not used) was
// written before it: every message before this one is written when its job starts (its
// packet's egress read all of it, or its drop waited for it).
// The running job also frees its message's crypt ring beats when its last beat is out
// (the last tap), whether it read them (encrypted payload) or not (sth-hdr, sth-pkt:
// the payload comes from the input ring): its last beat is issued only once the whole
// message is written, so that no beat is freed before gcm_core has written it (the open
// core's tag of a short frame comes before its message's last beats).
// The flow control is computed a cycle ahead, so that issue_ok is a small gate of
// registers (it enables the composer's issue, about 1,400 register bits): two flags for
// the job that runs at the next clock, from the writer (cw) of this clock and that job's
// read address at the next clock (the composer's next job and its first read address
// on a load, else the read address, plus one if a beat issues now). The writer only
// moves on, so a flag is at most one clock late, never early.
//   ez_md_reg    its message is all written: cw at or past the message's end (counted as
//                cw is; the end, EQ_J's eq_mend_reg, travels with the job as its side).
//                Both lie within RING beats from the free pointer, so the sign of their
//                RAW + 1-bit difference decides
//   ez_rdok_reg  the beats of its paired read (rd_addr, rd_addr + 1) that lie in the
//                message are written: the message is, or rd_addr + 2 is at or before cw.
//                A beat before the message's base was written before it (above); while
//                the message is not all written, cw lies fewer than RING / 2 beats from
//                rd_addr + 2 either way (a message holds at most BUF_BEATS < RING / 2
//                beats, and the read address starts at most 256 bytes before its base),
//                so the sign of their RAW-bit difference decides
// (the egress composer holds them with the job: its side, EZ_SIDE_W bits)
localparam EZ_SIDE_W = 1 + 1 + (RAW + 1);
localparam [RAW-1:0] PAIR_BEATS = 2;    // the paired read's beats (ibsec_pair_buffer)
localparam [RAW-1:0] PAIR_STEP = PAIR_BEATS + 1;    // and one beat on (a beat issues)
wire           ez_crd_reg;           // the running egress job reads the crypt ring
wire           ez_cmsg_reg;          // it has a message in the crypt ring
/* verilator lint_off UNUSEDSIGNAL */ // the flags are computed from the next job's side
wire [RAW:0]   ez_mend_reg;          // its message's end, counted as cw is
/* verilator lint_on UNUSEDSIGNAL */
reg  [RAW:0]   eq_mend_reg;          // EQ_J: the message's end of EQ's packet
wire [EZ_SIDE_W-1:0] ez_side_in = {x_enc, x_crypted, eq_mend_reg};
wire [EZ_SIDE_W-1:0] ez_side;
assign {ez_crd_reg, ez_cmsg_reg, ez_mend_reg} = ez_side;
// the composer's next job (a load at the next clock), its side and first read address
wire                 ez_next_load;
/* verilator lint_off UNUSEDSIGNAL */ // the flags use the next job's message end only
wire [EZ_SIDE_W-1:0] ez_next_side;
/* verilator lint_on UNUSEDSIGNAL */
wire [RAW-1:0]       ez_next_rd_addr;
wire [RAW:0]         ez_next_mend = ez_next_side[RAW:0];
reg                  ez_md_reg = 1'b0;
reg                  ez_rdok_reg = 1'b0;
// the flags of the running job and of the next job, from this clock's cw
wire [RAW:0]   ez_md_run_d  = cw - ez_mend_reg;
wire [RAW:0]   ez_md_next_d = cw - ez_next_mend;
wire           ez_md_run    = !ez_md_run_d[RAW];
wire           ez_md_next   = !ez_md_next_d[RAW];
wire [RAW-1:0] ez_pair_stay = cw[RAW-1:0] - ez_rd_addr - PAIR_BEATS;
wire [RAW-1:0] ez_pair_step = cw[RAW-1:0] - ez_rd_addr - PAIR_STEP;
wire [RAW-1:0] ez_pair_next = cw[RAW-1:0] - ez_next_rd_addr - PAIR_BEATS;
always @(posedge clk) begin
    if (ez_next_load) begin
        ez_md_reg   <= ez_md_next;
        ez_rdok_reg <= ez_md_next || !ez_pair_next[RAW-1];
    end else begin
        ez_md_reg   <= ez_md_run;
        ez_rdok_reg <= ez_md_run || !(ez_rd_en ? ez_pair_step[RAW-1] : ez_pair_stay[RAW-1]);
    end
end
wire           ez_issue_last;
// the running job's last beat waits for its whole message (ring beats freed with it)
wire           ez_behind  = (!ez_crd_reg || ez_rdok_reg) &&
                            (!ez_cmsg_reg || !ez_issue_last || ez_md_reg);

// output FIFO and the CRC results of the egress stream
wire                    oq_s_ready, oq_m_valid;
reg                     oq_m_ready;
wire [OQ_W-1:0]         oq_m_data;
wire [$clog2(OQ_DEPTH):0] oq_count;
wire                    o_link, o_last, o_fld0, o_fld1;
wire [W-1:0]            o_keep;
wire [DW-1:0]           o_data;
wire [NW-1:0]           o_lsh;
wire [2:0]              o_rsh;
assign {o_link, o_last, o_keep, o_data, o_fld0, o_lsh, o_fld1, o_rsh} = oq_m_data;
// bit mask of the output beat's tkeep (by generate, as ibsec_ingress's header capture)
wire [DW-1:0]           o_keep_bits;
generate
    for (kb = 0; kb < W; kb = kb + 1) begin : g_keep_bits
        assign o_keep_bits[8*kb +: 8] = {8{o_keep[kb]}};
    end
endgenerate
// EC, the CRC engines' input register: the beat's CRC controls, link, and its data
// (ICRC: with the variant bits ORed in)
reg                     ec_valid_reg = 1'b0;
reg                     ec_first_reg, ec_last_reg, ec_roce_reg;
reg  [DW-1:0]           ec_idata_reg, ec_vdata_reg;
reg  [NW-1:0]           ec_end_reg;
wire                    eicrc_valid, evcrc_valid;
wire [31:0]             eicrc_out;
wire [15:0]             evcrc_out;
wire                    ep_s_ready, ep_m_valid, er_s_ready, er_m_valid;
wire [EP_W-1:0]         ep_m_data;
wire [47:0]             er_m_data;
/* verilator lint_off UNUSEDSIGNAL */
// the pending FIFOs are deep enough for every packet that has beats in the output FIFO
wire [$clog2(RQ_DEPTH):0] ep_count, er_count;
wire                    ep_link;
/* verilator lint_on UNUSEDSIGNAL */
wire                    ep_use_tag;
assign {ep_link, ep_use_tag} = ep_m_data;
// the late tag of seal icrc-mac, at PTQ's head
wire                    pt_valid;
wire [31:0]             pt_tag32;
// the output fields of the packet at the output (OF): its ICRC field (the ICRC, or seal
// icrc-mac the tag) and, native IBA, the VCRC extended over that field, computed from
// the registered heads of EP, ER and PTQ into a register before any beat reads them,
// so that the output patch starts at registers. The VCRC is extended over both
// candidate fields and the select comes last (seal only: open has no late tag)
wire                    ep_tag = (OPEN == 0) && ep_use_tag;
wire                    of_avail = ep_m_valid && er_m_valid && (!ep_tag || pt_valid);
wire [31:0]             of_icrc = ep_tag ? pt_tag32 : er_m_data[31:0];
wire [15:0]             of_vext_crc, of_vext_tag;
wire [15:0]             of_vext = ep_tag ? of_vext_tag : of_vext_crc;
wire [47:0]             of_fields = ep_link ? {16'd0, of_icrc} : {of_vext, of_icrc};
reg                     of_valid_reg = 1'b0;
reg  [47:0]             of_fields_reg;
wire                    of_pop;                 // the packet's last beat leaves
wire                    of_load = of_avail && (!of_valid_reg || of_pop);
wire                    o_need = o_fld0 || o_fld1;
wire [DW-1:0]           o_fields_w = {{(DW-48){1'b0}}, of_fields_reg};
wire [DW-1:0]           o_patch = o_fld0 ? (o_fields_w << (8 * o_lsh))
                                : o_fld1 ? (o_fields_w >> (8 * o_rsh)) : {DW{1'b0}};
wire                    out_valid = oq_m_valid && (!o_need || of_valid_reg);
wire                    out_beat = out_valid && m_axis_tready;
assign                  of_pop = out_beat && o_last;


// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
assign m_axis_tdata  = o_data | (o_patch & o_keep_bits);
assign m_axis_tkeep  = o_keep;
assign m_axis_tlast  = o_last;
assign m_axis_tvalid = out_valid;
assign m_axis_tuser  = o_link;

assign st_valid   = st_valid_reg;
assign st_reason  = st_reason_reg;
assign st_ctx_hit = st_hit_reg;
assign st_ctx     = st_ctx_reg;
assign st_mode    = st_mode_reg;
assign st_epsn    = st_epsn_reg;
assign st_alert   = st_alert_reg;
assign fp       = fp_reg;
assign cf       = cf_reg;
assign eq_valid = eq_valid_reg || xh_valid_reg;

always @* begin
    {x_link, x_base, x_nb, x_shape, x_bth_off, x_hdr_len, x_sth_len, x_pp_len,
    x_pkt_end, x_pmode, x_secb, x_psn, x_destqp, x_pkey, x_chk, x_reason, x_hit, x_ctx,
    x_smode, x_apply, x_code, x_key, x_salt, x_dir, x_epsn, x_mf, x_ichk, x_cbase, x_mb,
    x_crypted} = eq_desc_reg;
end
always @* begin
    {xh_link, xh_base, xh_nb, xh_shape, xh_bth_off, xh_hdr_len, xh_sth_len,
    xh_pp_len, xh_pkt_end, xh_pmode, xh_secb, xh_psn, xh_destqp, xh_pkey, xh_chk,
    xh_reason, xh_hit, xh_ctx, xh_smode, xh_apply, xh_code, xh_key, xh_salt, xh_dir,
    xh_epsn, xh_mf, xh_ichk, xh_cbase, xh_mb, xh_crypted} = xh_desc_reg;
end

// ----------------------------------------------------------------------------
// Submodules
// ----------------------------------------------------------------------------
// VCRC of LRH .. ICRC field: the VCRC up to the ICRC extended by the field's 4 bytes
// (the results FIFO's head, into KH)
ib_vcrc_extend4 k_vcrc_extend (
    .in_vcrc  (kr_vcrc),
    .in_bytes (kr_rx[31:0]),
    .out_vcrc (k_vext)
);

ibsec_pair_buffer #(.WIDTH (DW), .DEPTH (RING)) crypt_ring (
    .clk (clk),
    .wr_en (cr_wr_en), .wr_addr (cw[RAW-1:0]), .wr_data (cr_wr_data),
    .rd_en (ez_rd_en), .rd_addr (ez_rd_addr), .rd_lo (ez_cr_lo), .rd_hi (ez_cr_hi)
);

// the output header, edited from XH's in EQ's register stage (ce = eq_load): seal grows
// every length field by the STH length and writes BTH byte 8's SECMODE / STHSZ for the
// mode and STH code the packet is sealed with (the verdict's, whenever it is sent); open
// shrinks them by the STH's length and clears BTH byte 8 bits 6:0
ib_hdr_edit #(.HDR_BYTES (HDR_BYTES)) x_hdr_edit (
    .clk     (clk),
    .ce      (eq_load),
    .hdr_in  (xh_hdr),
    .shape   (xh_shape),
    .bth_off (xh_bth_off),
    .shrink  (OPEN != 0),
    .len     ((OPEN != 0) ? xh_sth_len : xh_sth_out),
    .secbits ((OPEN != 0) ? 7'd0 : secbits_encode(xh_apply, xh_code)),
    .hdr_out (x_edit)
);

ib_hdr_mask #(.HDR_BYTES (HDR_BYTES), .AAD_BYTES (HDR_BYTES)) x_hdr_mask (
    .hdr     (x_edit),
    .shape   (x_shape),
    .hdr_len (x_hdr_len),
    .mask_mf (x_mf),
    .aad     (x_aad),
    .aad_len (x_aad_len),
    .variant (x_variant),
    .ones    (x_ones)
);

ibsec_pair_buffer #(.WIDTH (DW), .DEPTH (RING)) e_ring (
    .clk (clk),
    .wr_en (ring_wr_en), .wr_addr (ring_wr_addr), .wr_data (ring_wr_data),
    .rd_en (ez_rd_en), .rd_addr (ez_rd_addr), .rd_lo (ez_in_lo), .rd_hi (ez_in_hi)
);

// headers and STH, payload + pad, ICRC/VCRC placeholders
ibsec_compose #(
    .LANES (LANES), .FRONT_BYTES (FRONT_BYTES), .AUX_BYTES (HDR_BYTES), .AW (RAW),
    .TAG_W (ET_W), .SIDE_W (EZ_SIDE_W)
) e_compose (
    .clk (clk), .rst (rst),
    .job_valid (ez_job_valid), .job_ready (ez_job_ready),
    .job_front (x_front), .job_front_len (x_pp_off[7:0]),
    .job_aux0 (x_ones), .job_aux1 ({8*HDR_BYTES{1'b0}}),
    .job_base (eq_jbase_reg), .job_src_off (eq_src_off_reg),
    .job_dst_off (x_pp_off), .job_dst_end (x_icrc_off), .job_total_end (eq_end_reg),
    .job_aad_end (13'd0), .job_crc_end (x_icrc_off), .job_tag (ez_tag_in),
    .job_side (ez_side_in), .act_side (ez_side),
    .next_load (ez_next_load), .next_side (ez_next_side), .next_rd_addr (ez_next_rd_addr),
    .idle (ez_idle), .issue_ok ((oq_count <= OQ_ROOM_MAX) && ez_behind),
    .issue_last (ez_issue_last),
    .rd_en (ez_rd_en), .rd_addr (ez_rd_addr),
    .rd_lo (et_crypt ? ez_cr_lo : ez_in_lo), .rd_hi (et_crypt ? ez_cr_hi : ez_in_hi),
    .tap_valid (ez_tap_valid), .tap_first (ez_tap_first), .tap_data (ez_tap_data),
    .tap_keep (ez_tap_keep), .tap_last (ez_tap_last), .tap_user (ez_tap_user),
    .tap_aux0 (ez_tap_aux0), .tap_aux1 (ez_tap_aux1),
    .tap_crc_valid (ez_tap_crc_valid), .tap_crc_last (ez_tap_crc_last),
    .tap_crc_end (ez_tap_crc_end), .tap_fld0 (ez_tap_fld0),
    .tap_fld_lsh (ez_tap_fld_lsh), .tap_fld1 (ez_tap_fld1),
    .tap_fld_rsh (ez_tap_fld_rsh), .tap_tag (ez_tap_tag)
);

// EC: the composed beats registered on their way into the CRC engines (every clock, no
// enable), so that the ring's read data through the tap's byte shift ends at a register
// and the CRC engines start at registers; the CRC results come one cycle later
always @(posedge clk) begin
    ec_valid_reg <= ez_tap_valid && ez_tap_crc_valid;
    ec_first_reg <= ez_tap_first;
    ec_last_reg  <= ez_tap_crc_last;
    ec_roce_reg  <= et_link;
    ec_idata_reg <= ez_tap_data | ez_tap_aux0;
    ec_vdata_reg <= ez_tap_data;
    ec_end_reg   <= ez_tap_crc_end;
    if (rst) begin
        ec_valid_reg <= 1'b0;
    end
end

ib_icrc_engine #(.LANES (LANES)) e_icrc (
    .clk (clk), .rst (rst),
    .in_valid (ec_valid_reg), .in_first (ec_first_reg),
    .in_last (ec_last_reg), .in_roce (ec_roce_reg),
    .in_data (ec_idata_reg), .in_ones ({W{1'b0}}),
    .in_end (ec_end_reg), .out_valid (eicrc_valid), .out_icrc (eicrc_out)
);

ib_vcrc_engine #(.LANES (LANES)) e_vcrc (
    .clk (clk), .rst (rst),
    .in_valid (ec_valid_reg), .in_first (ec_first_reg),
    .in_last (ec_last_reg), .in_data (ec_vdata_reg),
    .in_end (ec_end_reg), .out_valid (evcrc_valid), .out_vcrc (evcrc_out)
);

/* verilator lint_off UNUSEDSIGNAL */
// the composer is granted a beat only while the output FIFO has room for it (oq_count);
// the pending FIFOs hold at most one entry per packet with a beat in the output FIFO
wire oq_s_ready_unused = oq_s_ready;
wire ep_s_ready_unused = ep_s_ready;
wire er_s_ready_unused = er_s_ready;
/* verilator lint_on UNUSEDSIGNAL */
sync_fifo #(.WIDTH (OQ_W), .DEPTH (OQ_DEPTH), .OUT_REG (1)) oq (
    .clk (clk), .rst (rst),
    .s_valid (ez_tap_valid), .s_ready (oq_s_ready),
    .s_data ({et_link, ez_tap_last, ez_tap_keep, ez_tap_data, ez_tap_fld0, ez_tap_fld_lsh,
              ez_tap_fld1, ez_tap_fld_rsh}),
    .m_valid (oq_m_valid), .m_ready (oq_m_ready), .m_data (oq_m_data), .count (oq_count)
);

// per packet: what the ICRC field holds (seal icrc-mac: the tag), pushed with the beat
// holding the last covered byte
sync_fifo #(.WIDTH (EP_W), .DEPTH (RQ_DEPTH), .OUT_REG (1)) ep (
    .clk (clk), .rst (rst),
    .s_valid (ez_tap_valid && ez_tap_crc_last), .s_ready (ep_s_ready),
    .s_data ({et_link, et_use_tag}),
    .m_valid (ep_m_valid), .m_ready (of_load), .m_data (ep_m_data), .count (ep_count)
);

// the ICRC and VCRC of the output (the two engines have the same latency)
sync_fifo #(.WIDTH (48), .DEPTH (RQ_DEPTH), .OUT_REG (1)) er (
    .clk (clk), .rst (rst),
    .s_valid (eicrc_valid && evcrc_valid), .s_ready (er_s_ready),
    .s_data ({evcrc_out, eicrc_out}),
    .m_valid (er_m_valid), .m_ready (of_load), .m_data (er_m_data), .count (er_count)
);

// the VCRC of the output extended over its ICRC field: the ICRC, or (seal icrc-mac) the
// late tag
ib_vcrc_extend4 of_vcrc_extend (
    .in_vcrc  (er_m_data[47:32]),
    .in_bytes (er_m_data[31:0]),
    .out_vcrc (of_vext_crc)
);
generate
    if (OPEN == 0) begin : g_of_vext_tag
        ib_vcrc_extend4 of_vcrc_extend_tag (
            .in_vcrc  (er_m_data[47:32]),
            .in_bytes (pt_tag32),
            .out_vcrc (of_vext_tag)
        );
    end else begin : g_of_no_tag
        assign of_vext_tag = 16'd0;
    end
endgenerate

// OF: the output fields of the packet at the output, loaded from the heads of EP, ER and
// PTQ when OF is empty or its packet's last beat leaves
always @(posedge clk) begin
    if (of_load) begin
        of_fields_reg <= of_fields;
    end
    if (of_load) begin
        of_valid_reg <= 1'b1;
    end else if (of_pop) begin
        of_valid_reg <= 1'b0;
    end
    if (rst) begin
        of_valid_reg <= 1'b0;
    end
end

// ----------------------------------------------------------------------------

// seal icrc-mac, the late tag: every late packet leaving EQ queues whether it was dropped
// (OW); the heads of OW and of the late tag FIFO (tl_m_*, ibsec_crypt) are popped
// together, and the tag of a packet that goes out moves into PTQ, whose head the output
// patch reads (pt_*). Tags and packets keep message order throughout.
generate
    if (OPEN == 0) begin : g_late_tag
        /* verilator lint_off UNUSEDSIGNAL */
        // sized for every message in flight (LT_DEPTH, RQ_DEPTH): no back-pressure
        wire ow_s_ready, pq_s_ready;
        wire [$clog2(LT_DEPTH):0] ow_count;
        wire [$clog2(RQ_DEPTH):0] pq_count;
        /* verilator lint_on UNUSEDSIGNAL */
        wire        ow_m_valid, ow_drop;
        wire        tl_move = tl_m_valid && ow_m_valid;
        sync_fifo #(.WIDTH (1), .DEPTH (LT_DEPTH)) ow (
            .clk (clk), .rst (rst),
            .s_valid (x_go && x_late), .s_ready (ow_s_ready), .s_data (x_drop),
            .m_valid (ow_m_valid), .m_ready (tl_move), .m_data (ow_drop), .count (ow_count)
        );
        sync_fifo #(.WIDTH (32), .DEPTH (RQ_DEPTH), .OUT_REG (1)) ptq (
            .clk (clk), .rst (rst),
            .s_valid (tl_move && !ow_drop), .s_ready (pq_s_ready), .s_data (tl_m_tag32),
            .m_valid (pt_valid), .m_ready (of_load && ep_tag),
            .m_data (pt_tag32), .count (pq_count)
        );
        assign tl_m_ready = tl_move;
    end else begin : g_no_late_tag
        assign tl_m_ready = 1'b0;
        assign pt_valid   = 1'b0;
        assign pt_tag32   = 32'd0;
    end
endgenerate

// ----------------------------------------------------------------------------
// Control
// ----------------------------------------------------------------------------
always @* begin
    fp_next        = fp_reg;
    cf_next        = cf_reg;
    st_valid_next  = 1'b0;
    st_reason_next = st_reason_reg;
    st_hit_next    = st_hit_reg;
    st_ctx_next    = st_ctx_reg;
    st_mode_next   = st_mode_reg;
    st_epsn_next   = st_epsn_reg;
    st_alert_next  = st_alert_reg;
    xq_m_ready     = 1'b0;
    tq_m_ready     = 1'b0;
    kr_pop         = 1'b0;
    lp_pop         = 1'b0;
    oq_m_ready     = out_beat;
    cm_valid       = 1'b0;
    cm_pass        = 1'b0;
    cm_void        = 1'b0;

    // ---- egress: XQ head and its tag into EQ; verify (open), status, start the output ----
    xq_m_ready = xh_load;
    tq_m_ready = xh_load && q_crypted && !q_late;
    kr_pop     = kh_load;
    lp_pop     = eq_load;
    if (x_go) begin
        st_valid_next  = 1'b1;
        st_reason_next = x_fail ? R_AUTH_FAILED : x_verdict;
        // the late parse and a bad VCRC stop the model before the lookup, a bad ICRC
        // before the EPSN step
        st_hit_next    = x_hit && !x_vbad && !x_lbad;
        st_ctx_next    = (x_vbad || x_lbad) ? {CTX_W{1'b0}} : x_ctx;
        st_mode_next   = x_lbad ? eq_lmode_reg : x_smode;
        st_epsn_next   = x_no_ep ? 63'd0 : x_epsn;
        st_alert_next  = x_fail && cm_alert;
        if (OPEN != 0 && x_crypted) begin
            cm_valid = 1'b1;
            cm_pass  = !x_fail && !x_no_ep;
            cm_void  = x_no_ep;
        end
        if (x_drop_go) begin
            fp_next = fp_reg + {1'b0, x_nb};
            if (x_crypted)
                cf_next = cf_reg + {1'b0, x_mb};
        end
    end
    // ring space of a packet whose egress stream has read its last beat
    if (ez_tap_valid && ez_tap_last) begin
        fp_next = fp_reg + {1'b0, et_rel_in};
        cf_next = cf_reg + {1'b0, et_rel_cr};
    end
end

// EQ: the XQ head, its tag and the comparison, loaded as EQ's packet leaves (or EQ is
// empty)
always @(posedge clk) begin
    if (eq_load) begin
        eq_desc_reg    <= xh_word;
        eq_tag_reg     <= xh_tag;
        eq_fail_reg    <= xh_fail;
        eq_drop0_reg   <= xh_bad || xh_fail[0];
        eq_jbase_reg   <= xh_enc ? xh_cbase : xh_base;
        eq_src_off_reg <= xh_enc ? round16({6'd0, xh_aad_len})
                                 : {6'd0, xh_hdr_len} + {6'd0, xh_sth_len};
        eq_pp_off_reg  <= xh_pp_off;
        eq_icrc_off_reg <= xh_pp_off + xh_pp_len;
        eq_end_reg     <= xh_pp_off + xh_pp_tr;
        eq_mend_reg    <= cf_reg + {1'b0, xh_cb_off} + {1'b0, xh_mb};
        eq_vbad_reg    <= xh_vbad;
        eq_ibad_reg    <= xh_ibad;
        eq_lbad_reg    <= lp_reason != R_OK;
        eq_noep_reg    <= (lp_reason != R_OK) || xh_vbad || xh_ibad;
        eq_lreason_reg <= lp_reason;
        eq_lmode_reg   <= lp_mode;
    end
    eq_md_reg <= eq_load ? xh_md_now : x_md_now;
    // XH: the XQ head, its tag and (open) the received tag out of its header
    if (xh_load) begin
        xh_desc_reg <= xq_m_data;
        xh_tag_reg  <= tag_to_stream(tq_m_data);
        xh_rx_reg   <= q_from_sth[127:0];
        xh_hdr      <= q_hdr[8*HDR_BYTES-1:0];
    end
    if (xh_load) begin
        xh_valid_reg <= 1'b1;
    end else if (eq_load) begin
        xh_valid_reg <= 1'b0;
    end
    if (kh_load) begin
        kh_vext_reg  <= k_vext;
        kh_rxv_reg   <= kr_rx[47:32];
        kh_i0bad_reg <= kr_icrc0 != kr_rx[31:0];
        kh_i1bad_reg <= kr_icrc1 != kr_rx[31:0];
        kh_rx32_reg  <= kr_rx[31:0];
    end
    if (kh_load) begin
        kh_valid_reg <= 1'b1;
    end else if (eq_load) begin
        kh_valid_reg <= 1'b0;
    end
    if (eq_load) begin
        eq_valid_reg <= 1'b1;
    end else if (eq_take) begin
        eq_valid_reg <= 1'b0;
    end
    if (rst) begin
        eq_valid_reg <= 1'b0;
        xh_valid_reg <= 1'b0;
        kh_valid_reg <= 1'b0;
    end
end

always @(posedge clk) begin
    fp_reg         <= fp_next;
    cf_reg         <= cf_next;
    st_valid_reg   <= st_valid_next;
    st_reason_reg  <= st_reason_next;
    st_hit_reg     <= st_hit_next;
    st_ctx_reg     <= st_ctx_next;
    st_mode_reg    <= st_mode_next;
    st_epsn_reg    <= st_epsn_next;
    st_alert_reg   <= st_alert_next;

    if (rst) begin
        fp_reg       <= {(RAW+1){1'b0}};
        cf_reg       <= {(RAW+1){1'b0}};
        st_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
