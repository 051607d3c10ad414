/*
 * gcm_core — AES-GCM (NIST SP 800-38D, 96-bit IV, 128-bit tag) over a stream of messages,
 * LANES 128-bit blocks per clock, seal and open, a key table with atomic key install.
 *
 * Function
 *   Each message is a run of AXI4-Stream beats ending with tlast. A beat carries up to
 *   LANES blocks of the message, one block per lane, filled from lane 0 without gaps; a
 *   lane's s_axis_tuser bit says the block is AAD, otherwise it is data (plaintext on
 *   seal, ciphertext on open). AAD blocks come before data blocks (both may share a
 *   beat). Only the last AAD block and the last data block of a message may be partial;
 *   their valid bytes are the low ones (tkeep). A beat need not be full. A message with
 *   neither AAD nor data is a single beat with tkeep = 0 and tlast = 1; otherwise every
 *   beat carries at least one block. The message side-band (s_axis_slot, s_axis_iv,
 *   s_axis_decrypt) is sampled with the first beat of a message and ignored after it.
 *   Messages follow each other back to back; each may use any key slot and direction.
 *
 *   The output has the same beat shape: AAD lanes unchanged, data lanes transformed
 *   (ciphertext on seal, plaintext on open), bytes outside tkeep zero, tkeep/tuser/tlast
 *   copied. On the tlast beat m_axis_tag holds the full 128-bit tag E_K(J0) ^ S computed
 *   over the AAD and the ciphertext (on open: the tag the receiver must compare with the
 *   one on the wire; comparing and truncating is the packet engine's job).
 *
 *   A message whose slot was never installed (or is >= KEY_SLOTS) is not processed: its
 *   data lanes come out as zeros, its AAD lanes unchanged, m_axis_tag = 0 and
 *   m_axis_nokey = 1 on its tlast beat. Reset uninstalls every slot.
 *
 * Counter blocks (SP 800-38D §7.1, 96-bit IV)
 *   J0 = IV || 0^31 || 1; data block i (0-based) of a message uses inc32^(i+1)(J0), i.e.
 *   IV || [i + 2]_32 (mod 2^32). E_K(J0), needed for the tag, is computed in the AES slot
 *   of lane 0 of the first beat when that lane is AAD (an AAD block needs no key stream).
 *   When the first lane of a message is data (empty AAD, or an empty message), the core
 *   first sends one bubble beat carrying J0 down the AES pipeline and accepts the beat in
 *   the next cycle: one input cycle per message without AAD. The packet engine always
 *   puts its headers into the AAD, so its messages never pay it.
 *
 * GHASH and the length block
 *   GHASH runs behind the AES pipeline, on the ciphertext blocks (input lanes on open,
 *   output lanes on seal) and the zero-padded AAD blocks. The length block
 *   L = [len(A)]_64 || [len(C)]_64 is the message's last block, multiplied by H^1, so
 *   ghash_engine multiplies the last beat's blocks by one more power of H (a trailing
 *   zero block: s_count = blocks + 1) and the core adds L * H to its result:
 *   GHASH = GHASH'(blocks, 0) ^ L * H. L * H comes from gcm_len_mul, whose operand L has
 *   only ALEN_WIDTH + CLEN_WIDTH bits that can be set, so it is far smaller than a full
 *   multiplier for short messages; it runs in two stages (LEN_MUL_STAGES) beside
 *   ghash_engine's first ones and is delayed (LEN_DELAY registers) to meet the GHASH
 *   result of its message at the tag. The length block costs no beat and no lane.
 *   ghash_engine's Y loop is GHASH_INTERLEAVE = GHASH_CLMUL_STAGES + 2 = 5 cycles long
 *   (interleaved accumulators, see its header), so every bank holds the powers
 *   H^1..H^HPOW, HPOW = GHASH_INTERLEAVE * LANES + 1 (the blocks of five consecutive
 *   beats, the last with its trailing zero block): 6, 21, 61 at LANES = 1, 4, 12.
 *   Lengths are counted in bytes, ALEN_WIDTH bits for the AAD and CLEN_WIDTH for the
 *   data: a message must be shorter than 2^ALEN_WIDTH bytes of AAD and 2^CLEN_WIDTH bytes
 *   of data (32 and 32 by default; the packet engine's messages fit 13 bits), or its tag
 *   is wrong (the counters wrap; SP 800-38D allows longer messages).
 *
 * Keys (s_key_*)
 *   Every slot has two banks, each holding the 15 round keys (in aes_pipeline's
 *   round-key table, KEY_TABLE = 1) and H^1..H^HPOW; one bank is current. An
 *   install (slot, AES-128/256, key) runs in the background and fills the other bank:
 *     1. 29 cycles: aes_key_expand writes rk[0..14] of the new key into the slot's
 *        inactive bank of the round-key table, one round key every two clocks;
 *     2. one cycle: the block 0^128 enters the AES pipeline with that bank; the message
 *        input is stalled for that cycle (s_axis_tready = 0);
 *     3. AES_LATENCY cycles later H = E_K(0^128) comes out into a register, from which
 *        it is written as H^1 (so no path runs from the AES output into the bank, nor
 *        through the zeroize mask); H^2..H^HPOW are computed
 *        as H^i = H^(i-1) * H by one digit-serial multiplier (gf128_mul_serial, 8 bits
 *        of an operand per clock: 128 / 8 + 2 = 18 cycles per power, start and write
 *        included) into the slot's inactive H bank. An install is rare, so a full
 *        combinational multiplier (about 12,000 LUT4) is not spent on it;
 *     4. one cycle (commit): the slot's key size and bank bit are written and the slot is
 *        marked installed, all in the same clock edge;
 *     5. guard: s_key_ready stays low until every message that may still read the old
 *        bank has left the X stage: the message open at the commit (if any) must take its
 *        last beat, then GUARD_CYCLES (the input-to-X latency) more cycles pass. The
 *        old bank is the one the slot's next install overwrites, so no beat in flight
 *        ever reads a bank that is being written.
 *   s_key_ready is high only in the idle state, so whoever installs a key learns that it
 *   is complete from s_key_ready coming back, never from a cycle count. An install takes
 *   AES_LATENCY + GUARD_CYCLES + 34 + 18 * (HPOW - 1) cycles from the s_key handshake to
 *   s_key_ready high again (INSTALL_L1_SPR1 at LANES = 1 with STAGES_PER_ROUND = 1,
 *   INSTALL_L1_SPR2 with 2; measured by the gcm_core bench) plus the guard wait.
 *   Zeroize (s_key_wipe = 1 with the handshake; s_key_data and s_key_aes256 ignored):
 *   the same steps write zeros instead of derived values, twice. Pass 1 writes zero round
 *   keys (the expansion runs on an all-zero key, its output masked) and zero H powers
 *   (the H taken is E(0^128) under those zero round keys, a constant; the values written
 *   are masked from registers, and after the first product the multiplier's operands are
 *   zero) into the inactive bank; its commit marks the slot not installed (its messages end nokey from then on),
 *   with key size 0, and makes the zeroed bank current; its guard waits for the messages
 *   still reading the old bank. Pass 2 zeroes that bank the same way and commits again.
 *   Both banks of the slot, its size bit and the install's working registers (H, the
 *   power, the multiplier, the expansion) then hold zeros or values of the zero key;
 *   other slots are untouched. s_key_ready comes back after pass 2's guard: about twice
 *   an install's time. A message whose first beat enters before pass 1's commit still
 *   uses the old key in full.
 *   No message ever sees half a key: the first beat of a message copies the slot's key
 *   size, bank bit and installed flag into the message context; every beat carries the
 *   (slot, bank) pair down the AES pipeline, whose rounds read their round keys from
 *   that entry, and on to the X stage, where the H powers are read from the same bank:
 *   the bank that was current when the message entered.
 *
 * Pipeline (cycle counts for STAGES_PER_ROUND = 1, AES_LATENCY = 14)
 *   I  (input register): counter blocks, message context, key entry   1 cycle
 *   AES (aes_pipeline, free-running, round keys from its table)       AES_LATENCY
 *   X  (register): XOR with the key stream, GHASH blocks and lengths,
 *      H-power bank read, E_K(J0) capture                              1 cycle
 *   then two ways:
 *   - data:  output FIFO (OUT_DEPTH words, first-word fall-through)
 *   - tag:   ghash_engine (GHASH_LATENCY = 11 cycles) -> tag FIFO; a tlast beat leaves
 *            the output FIFO only together with its tag, so the tag is aligned with the
 *            last beat.
 *   Both FIFOs hold their head word in an output register (sync_fifo OUT_REG = 1), so
 *   that m_axis_* and the pop logic start from registers.
 *   Latency with m_axis_tready = 1: first block in -> first block out AES_LATENCY + 3
 *   cycles; last block in -> tag out AES_LATENCY + GHASH_LATENCY + 3 cycles (measured by
 *   bench-gcm). The tag stream (m_tag_*) gives each tag once more as it enters the tag
 *   FIFO, two cycles before its tlast beat.
 *
 * Early GHASH (EARLY_GHASH = 1: an open-only core)
 *   On open GHASH reads the ciphertext, the input, so it needs no key stream: the GHASH
 *   blocks, lengths and H bank are taken from the I stage's registers instead of the X
 *   stage's (the same logic, AES_LATENCY + 1 cycles sooner), and the result meets E_K(J0),
 *   captured at the X stage with the message's first beat, in two FIFOs (S and E_K(J0),
 *   one entry per message each; S_DEPTH and J_DEPTH bound how many can wait). The tag
 *   enters the tag FIFO (and the tag stream) when both are there: for a message longer
 *   than the AES pipeline, AES_LATENCY + 1 cycles sooner than behind the key stream. The
 *   data and the tlast beat are unchanged; the H bank is read sooner, so the install's
 *   guard (up to the X stage) still covers it. s_axis_decrypt is ignored.
 *
 * Back-pressure
 *   The AES pipeline and the GHASH engine never stall, so input beats are admitted
 *   against credits: a counter holds the beats accepted and not yet popped from the
 *   output FIFO, and s_axis_tready is low when it reaches OUT_DEPTH. The FIFO can thus
 *   never overflow, and a beat in flight always has a place. OUT_DEPTH (a power of two
 *   >= AES_LATENCY + GHASH_LATENCY + 9) covers the round trip (input register, AES, X, GHASH wait of the
 *   last beat for its tag, credit return) so that one beat per clock is sustained when
 *   m_axis_tready stays high. The tag FIFO has the same depth: it holds at most one tag
 *   per last beat in the output FIFO.
 *
 * Handshake notes
 *   s_axis_tready is computed from registers and the offered beat's lane 0 (tuser[0],
 *   tkeep[0], through the bubble rule) only; it never depends on s_axis_tvalid or on
 *   m_axis_tready combinationally. Like tdata, the side-band must stay stable while
 *   s_axis_tvalid waits for s_axis_tready (AXI4-Stream rule): the J0 bubble samples it
 *   one cycle before the beat is taken.
 *
 * DATA FORMATS
 *   s_axis_tdata / m_axis_tdata: AXI4-Stream order, byte j of lane i at
 *   tdata[128*i + 8*j +: 8] (byte 0 of a block in the low bits). tkeep[16*i + j] for the
 *   same byte; tuser[i] for lane i. Inside the core (after the I stage's byte swap, until
 *   the output FIFO) a block is a big-endian vector, byte 0 at [127:120], as in
 *   docs/conventions.md, aes_pipeline and ghash_engine.
 *   s_axis_iv[95:0]: IV byte 0 at [95:88] (SP 800-38D hex order).
 *   m_axis_tag[127:0]: tag byte 0 at [127:120] (hex order; the first byte on the wire).
 *   s_key_data[255:0]: key byte 0 at [255:248]; AES-128 keys in [255:128].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * AES-GCM core, LANES blocks per clock
 */
module gcm_core #(
    // 128-bit blocks per beat (1, 4, 12 for 1X, 4X, 12X; any value >= 1 works)
    parameter LANES = 1,
    // number of key slots (each: a key, its size, two banks of H^1..H^(LANES+1))
    parameter KEY_SLOTS = 4,
    // register stages per AES round in aes_pipeline (1 or 2)
    parameter STAGES_PER_ROUND = 1,
    // S-boxes of aes_pipeline: 0 = LUT tables, 1 = block RAM (needs STAGES_PER_ROUND = 2)
    parameter SBOX_IMPL = 0,
    // 1: an open-only core (s_axis_decrypt is taken as 1): GHASH reads the ciphertext at
    // the input, ahead of the AES pipeline, and the tag is out AES_LATENCY + 1 cycles
    // sooner (m_tag_valid); 0: seal and open, GHASH behind the key stream
    parameter EARLY_GHASH = 0,
    // bits of a message's AAD and data byte counts: every message must have fewer than
    // 2^ALEN_WIDTH bytes of AAD and 2^CLEN_WIDTH bytes of data (at least log2(16 * LANES
    // + 1) bits, at most 61; gcm_len_mul's size grows with their sum)
    parameter ALEN_WIDTH = 32,
    parameter CLEN_WIDTH = 32,
    // width of the slot index on the ports (derived; do not override)
    parameter SLOT_WIDTH = (KEY_SLOTS > 1) ? $clog2(KEY_SLOTS) : 1
) (
    input  wire                    clk,
    input  wire                    rst,

    /*
     * Key install
     */
    input  wire                    s_key_valid,
    output wire                    s_key_ready,
    input  wire [SLOT_WIDTH-1:0]   s_key_slot,
    input  wire                    s_key_aes256,
    input  wire [255:0]            s_key_data,
    input  wire                    s_key_wipe,       // 1: zeroize the slot (Keys, below)

    /*
     * Message input (AXI4-Stream) and its side-band, sampled on the first beat
     */
    input  wire [LANES*128-1:0]    s_axis_tdata,
    input  wire [LANES*16-1:0]     s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,
    input  wire [LANES-1:0]        s_axis_tuser,     // per lane: 1 = AAD block
    input  wire [SLOT_WIDTH-1:0]   s_axis_slot,
    input  wire [95:0]             s_axis_iv,
    input  wire                    s_axis_decrypt,   // 0 = seal, 1 = open

    /*
     * Message output (AXI4-Stream); tag and flag valid on the tlast beat
     */
    output wire [LANES*128-1:0]    m_axis_tdata,
    output wire [LANES*16-1:0]     m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast,
    output wire [LANES-1:0]        m_axis_tuser,     // per lane: 1 = AAD block (copied)
    output wire [127:0]            m_axis_tag,
    output wire                    m_axis_nokey,     // slot not installed: data and tag zeroed

    /*
     * The tags again, one per message in message order, as soon as each is computed
     * (not later than its tlast beat on m_axis; with EARLY_GHASH, on open, sooner)
     */
    output wire                    m_tag_valid,
    output wire [127:0]            m_tag,
    output wire                    m_tag_nokey
);

// ----------------------------------------------------------------------------
// Constants and parameter checks
// ----------------------------------------------------------------------------
// cycles through aes_pipeline
localparam AES_LATENCY = 14 * STAGES_PER_ROUND;
// output FIFO depth (power of two covering the credit round trip)
// ghash_engine: register stages inside each GF(2^128) product, the Y loop's cycles (its
// interleaved accumulators) and its latency from a last beat to S
localparam GHASH_CLMUL_STAGES = 3;
localparam GHASH_INTERLEAVE = GHASH_CLMUL_STAGES + 2;
localparam GHASH_LATENCY = 2 * GHASH_INTERLEAVE + 1;
// the length block's term: gcm_len_mul's register stages, and the registers that delay
// its result to the GHASH result of the same message
localparam LEN_MUL_STAGES = 1;
localparam LEN_DELAY = GHASH_LATENCY - LEN_MUL_STAGES;
// output FIFO depth (power of two covering the credit round trip: I, AES, X, the last
// beat's wait for its tag through GHASH, the FIFOs and the credit's return)
localparam OUT_DEPTH = 1 << $clog2(AES_LATENCY + GHASH_LATENCY + 9);
localparam OUT_AW = $clog2(OUT_DEPTH);
// EARLY_GHASH's join of S and E_K(J0): the places each side can wait for (at the tag)
localparam S_DEPTH = 1 << $clog2(AES_LATENCY + 4);
localparam J_DEPTH = 1 << $clog2(GHASH_LATENCY + 9);
// blocks per GHASH beat: LANES, and on the last beat the trailing zero block that stands
// for the length block (ghash_engine's s_count, at most NPOW)
localparam NPOW = LANES + 1;
localparam CNT_WIDTH = $clog2(NPOW + 1);
// H powers per bank: H^1..H^HPOW, the largest sum of the counts of GHASH_INTERLEAVE
// consecutive beats of a message (ghash_engine's window: LANES blocks per beat, one more
// on the last)
localparam HPOW = GHASH_INTERLEAVE * LANES + 1;
localparam POW_WIDTH = $clog2(HPOW + 1);
localparam [POW_WIDTH-1:0] HPOW_IDX = HPOW[POW_WIDTH-1:0];
// H banks: two per slot, bank b of slot s is set 2*s + b
localparam NSETS = 2 * KEY_SLOTS;
localparam SET_WIDTH = SLOT_WIDTH + 1;
// entries of aes_pipeline's round-key table: one per (slot, bank), indexed like the H
// banks (a power of two, so that aes_pipeline derives the same index width)
localparam RK_SETS = 1 << SET_WIDTH;
// coefficients per clock of the install's digit-serial multiplier (gf128_mul_serial):
// each of H^2..H^HPOW takes 128 / INST_DIGIT_WIDTH + 2 cycles (start, load, one step per
// digit, write)
localparam INST_DIGIT_WIDTH = 8;
// cycles after the last beat of a message until it has read its H bank (I + AES + X)
localparam GUARD_CYCLES = AES_LATENCY + 2;
localparam GUARD_WIDTH = $clog2(GUARD_CYCLES + 1);
// GUARD_CYCLES at the counter's width (the value the guard counter is loaded with)
localparam [GUARD_WIDTH-1:0] GUARD_LOAD = GUARD_CYCLES[GUARD_WIDTH-1:0];
// per-beat byte counts fit in 8 + log2(LANES) bits; message lengths in ALEN_WIDTH and
// CLEN_WIDTH bits
localparam BCNT_WIDTH = $clog2(16 * LANES + 1);

// side-band carried through aes_pipeline with each beat (field offsets)
localparam U_BEAT   = 0;                  // a message beat (goes to the output)
localparam U_J0     = 1;                  // J0 bubble (E_K(J0) only)
localparam U_HKEY   = 2;                  // key install: E_K(0^128) = H
localparam U_FIRST  = 3;                  // first message beat (GHASH starts)
localparam U_LAST   = 4;                  // last message beat
localparam U_DEC    = 5;                  // open (decrypt)
localparam U_NOKEY  = 6;                  // slot not installed
localparam U_BANK   = 7;                  // H bank of the message
localparam U_SLOT   = 8;                  // slot of the message
localparam U_AAD    = U_SLOT + SLOT_WIDTH; // per-lane AAD flags (valid lanes only)
localparam U_KEEP   = U_AAD + LANES;       // tkeep, AXI4-Stream order
localparam U_DATA   = U_KEEP + 16 * LANES; // blocks, big-endian, masked with tkeep
localparam U_ABYTES = U_DATA + 128 * LANES; // AAD bytes of the beat (counted at I)
localparam U_CBYTES = U_ABYTES + BCNT_WIDTH; // data bytes of the beat
localparam USER_WIDTH = U_CBYTES + BCNT_WIDTH;

// output FIFO word: {tlast, tuser, tkeep, tdata}
localparam OF_WIDTH = 128 * LANES + 16 * LANES + LANES + 1;

generate
    if (LANES < 1) begin : g_bad_lanes
        initial begin
            $error("Error: gcm_core LANES must be at least 1 (instance %m)");
            $finish;
        end
    end
    if (KEY_SLOTS < 1) begin : g_bad_slots
        initial begin
            $error("Error: gcm_core KEY_SLOTS must be at least 1 (instance %m)");
            $finish;
        end
    end
    if (STAGES_PER_ROUND != 1 && STAGES_PER_ROUND != 2) begin : g_bad_stages
        initial begin
            $error("Error: gcm_core STAGES_PER_ROUND must be 1 or 2 (instance %m)");
            $finish;
        end
    end
    if (ALEN_WIDTH < BCNT_WIDTH || ALEN_WIDTH > 61 ||
        CLEN_WIDTH < BCNT_WIDTH || CLEN_WIDTH > 61) begin : g_bad_len_width
        initial begin
            $error("Error: gcm_core ALEN_WIDTH and CLEN_WIDTH must be %0d..61 (instance %m)",
                   BCNT_WIDTH);
            $finish;
        end
    end
    if (SLOT_WIDTH != ((KEY_SLOTS > 1) ? $clog2(KEY_SLOTS) : 1)) begin : g_bad_slot_width
        initial begin
            $error("Error: gcm_core SLOT_WIDTH is derived from KEY_SLOTS (instance %m)");
            $finish;
        end
    end
endgenerate

// install state machine
localparam [2:0]
    INST_IDLE     = 3'd0,
    INST_EXPAND   = 3'd1,
    INST_INJECT   = 3'd2,
    INST_WAIT_H   = 3'd3,
    INST_POW_MUL  = 3'd4,
    INST_POW_WAIT = 3'd5,
    INST_COMMIT   = 3'd6,
    INST_GUARD    = 3'd7;

// ----------------------------------------------------------------------------
// Functions
// ----------------------------------------------------------------------------
// AXI4-Stream lane (byte 0 in [7:0]) <-> big-endian block (byte 0 in [127:120])
function [127:0] swap_bytes;
    input [127:0] x;
    integer b;
    begin
        for (b = 0; b < 16; b = b + 1) begin
            swap_bytes[127 - 8*b -: 8] = x[8*b +: 8];
        end
    end
endfunction

// byte mask of a lane's tkeep, in big-endian block order
function [127:0] keep_mask_be;
    input [15:0] keep;
    integer b;
    begin
        for (b = 0; b < 16; b = b + 1) begin
            keep_mask_be[127 - 8*b -: 8] = {8{keep[b]}};
        end
    end
endfunction

function [4:0] popcount16;
    input [15:0] x;
    integer b;
    begin
        popcount16 = 5'd0;
        for (b = 0; b < 16; b = b + 1) begin
            popcount16 = popcount16 + {4'd0, x[b]};
        end
    end
endfunction

// ----------------------------------------------------------------------------
// Registers
// ----------------------------------------------------------------------------
// key table (control part; the keys and H banks are in the generate blocks below)
reg  [KEY_SLOTS-1:0]   slot_valid_reg = {KEY_SLOTS{1'b0}}, slot_valid_next;
reg  [KEY_SLOTS-1:0]   slot_aes256_reg, slot_aes256_next;
reg  [KEY_SLOTS-1:0]   slot_bank_reg = {KEY_SLOTS{1'b0}}, slot_bank_next;

// install state machine
reg  [2:0]             inst_state_reg = INST_IDLE, inst_state_next;
reg  [SLOT_WIDTH-1:0]  inst_slot_reg, inst_slot_next;
reg                    inst_aes256_reg, inst_aes256_next;
reg  [127:0]           inst_h_reg, inst_h_next;
reg  [127:0]           inst_pow_reg, inst_pow_next;      // H^(inst_idx-1)
reg  [POW_WIDTH-1:0]   inst_idx_reg, inst_idx_next;      // power being written
reg  [GUARD_WIDTH-1:0] guard_cnt_reg, guard_cnt_next;
// zeroize: every word written is zero; a second pass (the slot's other bank) follows
reg                    inst_wipe_reg = 1'b0, inst_wipe_next;
reg                    inst_again_reg = 1'b0, inst_again_next;
reg                    guard_open_reg = 1'b0, guard_open_next; // message open at commit

// message context (input side)
reg                    msg_open_reg = 1'b0, msg_open_next;  // context loaded, no tlast yet
reg                    msg_body_reg = 1'b0, msg_body_next;  // a beat of it was accepted
reg  [95:0]            msg_iv_reg, msg_iv_next;
reg  [31:0]            msg_ctr_reg, msg_ctr_next;           // counter of the next data block
reg                    msg_aes256_reg, msg_aes256_next;
reg  [SLOT_WIDTH-1:0]  msg_slot_reg, msg_slot_next;
reg                    msg_bank_reg, msg_bank_next;
reg                    msg_nokey_reg, msg_nokey_next;
reg                    msg_decrypt_reg, msg_decrypt_next;

// beats accepted and not yet popped from the output FIFO
reg  [OUT_AW:0]        credit_reg = 0, credit_next;

// I stage: aes_pipeline input
reg                    i_valid_reg = 1'b0, i_valid_next;
reg  [LANES*128-1:0]   i_block_reg, i_block_next;
reg  [SET_WIDTH-1:0]   i_set_reg, i_set_next;        // round keys: {slot, bank}
reg                    i_aes256_reg, i_aes256_next;
reg  [USER_WIDTH-1:0]  i_user_reg, i_user_next;

// X stage: output FIFO word, GHASH engine input
reg                    x_out_valid_reg = 1'b0, x_out_valid_next;
reg  [OF_WIDTH-1:0]    x_out_word_reg, x_out_word_next;
reg                    x_g_valid_reg = 1'b0, x_g_valid_next;
reg                    x_g_first_reg, x_g_first_next;
reg                    x_g_last_reg, x_g_last_next;
reg  [CNT_WIDTH-1:0]   x_g_count_reg, x_g_count_next;
reg  [LANES*128-1:0]   x_g_block_reg, x_g_block_next;
reg  [HPOW*128-1:0]    x_g_hpow_reg, x_g_hpow_next;
reg  [128:0]           x_g_user_reg, x_g_user_next;         // {E_K(J0), nokey}
// per message, at the X stage
reg  [127:0]           x_ekj0_reg, x_ekj0_next;
// bytes so far, including the beat in the x_g registers (whose length block they give)
reg  [ALEN_WIDTH-1:0]  x_alen_reg, x_alen_next;             // AAD bytes
reg  [CLEN_WIDTH-1:0]  x_clen_reg, x_clen_next;             // data bytes

// ----------------------------------------------------------------------------
// Wires
// ----------------------------------------------------------------------------
// key table storage (the round keys are in aes_pipeline's table)
// one array element per register (no flat vector: a simulator would assemble the
// NSETS*HPOW*128 bits anew every cycle)
wire [127:0]               hset_mem [0:NSETS*HPOW-1];   // set s, power p+1 at HPOW*s+p
// the install's set: the slot's inactive bank (round keys and H powers)
wire [SET_WIDTH-1:0]       inst_set = {inst_slot_reg, !slot_bank_reg[inst_slot_reg]};
reg                        hp_we;              // write one H power
reg  [SET_WIDTH-1:0]       hp_wset;
reg  [POW_WIDTH-1:0]       hp_widx;            // 1..HPOW
reg  [127:0]               hp_wdata;

// aes_pipeline output
wire                       aes_m_valid;
wire [LANES*128-1:0]       aes_m_block;
wire [USER_WIDTH-1:0]      aes_m_user;

// install key expansion (aes_key_expand), written into the round-key table
reg                        exp_s_valid;        // start expanding s_key_data this cycle
/* verilator lint_off UNUSEDSIGNAL */
// always high in INST_IDLE (the expansion ends before INST_INJECT), so s_key_ready does
// not wait for it
wire                       exp_s_ready;
/* verilator lint_on UNUSEDSIGNAL */
wire                       exp_m_valid;
wire [3:0]                 exp_m_round;
wire [127:0]               exp_m_key;
wire                       exp_m_last;
// the key expanded: zero for both passes of a zeroize (the handshake's s_key_wipe, then
// inst_wipe_reg at the second pass), so that no register of the expansion keeps a key
wire [255:0]               exp_s_key = s_key_data & {256{!(s_key_wipe || inst_wipe_reg)}};
// the round key written into the table: zero while zeroizing
wire [127:0]               inst_rk_data = exp_m_key & {128{!inst_wipe_reg}};
// what the install writes into the H bank: zero while zeroizing (from registers only:
// H^1 from inst_h_reg, the powers from the multiplier's product)
wire [127:0]               inst_hp_mask = {128{!inst_wipe_reg}};

// install multiplier (gf128_mul_serial)
reg                        inst_mul_valid;     // start H^(inst_idx-1) * H this cycle
wire                       inst_mul_ready;
wire                       inst_mul_done;      // inst_mul_y holds the product
wire [127:0]               inst_mul_y;

// GHASH result
wire                       gh_m_valid;
wire [127:0]               gh_m_ghash;
wire [128:0]               gh_m_user;          // {E_K(J0), nokey}
wire [127:0]               len_term;           // L * H of the beat in the x_g registers a
                                               // cycle before
wire [127:0]               gh_len;             // L * H of the message whose S is out

// output and tag FIFOs
wire                       of_m_valid;
wire [OF_WIDTH-1:0]        of_m_data;
wire                       tf_m_valid;
wire [128:0]               tf_m_data;
wire                       of_head_last = of_m_data[OF_WIDTH-1];
wire                       out_valid = of_m_valid && (!of_head_last || tf_m_valid);
wire                       out_pop = out_valid && m_axis_tready;

// input handshake
reg                        in_first_ctx;       // beat (or bubble) starts a message context
reg                        in_need_j0;         // first lane is not AAD: bubble first
reg                        in_inject_hkey;     // install uses the AES slot this cycle
reg                        in_credit_ok;
reg                        in_accept;
reg                        in_issue_j0;

// ----------------------------------------------------------------------------
// Port assignments
// ----------------------------------------------------------------------------
// (aes_key_expand is always idle in INST_IDLE: its last round key comes before INJECT)
assign s_key_ready   = (inst_state_reg == INST_IDLE);
assign s_axis_tready = !in_inject_hkey && !in_need_j0 && in_credit_ok;

assign m_axis_tvalid = out_valid;
assign m_axis_tdata  = of_m_data[0 +: 128*LANES];
assign m_axis_tkeep  = of_m_data[128*LANES +: 16*LANES];
assign m_axis_tuser  = of_m_data[144*LANES +: LANES];
assign m_axis_tlast  = of_head_last;
assign m_axis_tag    = tf_m_data[128:1];
assign m_axis_nokey  = tf_m_data[0];

// ----------------------------------------------------------------------------
// H bank storage: one register per H power, written by the install state machine
// only
// ----------------------------------------------------------------------------
genvar gs, gp;
generate
    for (gs = 0; gs < NSETS; gs = gs + 1) begin : g_hset
        for (gp = 0; gp < HPOW; gp = gp + 1) begin : g_pow
            // public: the bench reads the H powers to check a zeroize
            reg [127:0] h_reg /* verilator public_flat_rd */;

            always @(posedge clk) begin
                if (hp_we && hp_wset == gs && hp_widx == gp + 1) begin
                    h_reg <= hp_wdata;
                end
            end

            assign hset_mem[HPOW*gs + gp] = h_reg;
        end
    end
endgenerate

// ----------------------------------------------------------------------------
// I stage: message context, counter blocks, admission
// ----------------------------------------------------------------------------
reg  [LANES-1:0]      in_lane_valid;
reg  [LANES-1:0]      in_lane_aad;
reg  [31:0]           in_n_aad;
reg  [31:0]           in_n_data;
reg  [BCNT_WIDTH-1:0] in_abytes;
reg  [BCNT_WIDTH-1:0] in_cbytes;
reg                   in_slot_ok;
reg                   in_slot_aes256;
reg                   in_slot_bank;
reg  [95:0]           ctx_iv;
reg  [31:0]           ctx_ctr;
reg                   ctx_aes256;
reg  [SLOT_WIDTH-1:0] ctx_slot;
reg                   ctx_bank;
reg                   ctx_nokey;
reg                   ctx_decrypt;
reg  [31:0]           lane_ctr;
reg  [127:0]          lane_in;
integer il, is;

// admission: depends on the offered beat's lane 0 and on registers only (never on
// s_axis_tready or m_axis_tready), so the handshake has no combinational loop
always @* begin
    in_first_ctx   = !msg_open_reg;
    // the install's AES slot first, then the J0 bubble, then the beat
    in_inject_hkey = (inst_state_reg == INST_INJECT);
    in_need_j0     = in_first_ctx && !(s_axis_tkeep[0] && s_axis_tuser[0]);
    in_credit_ok   = (credit_reg < OUT_DEPTH);
    in_accept      = s_axis_tvalid && !in_inject_hkey && !in_need_j0 && in_credit_ok;
    in_issue_j0    = s_axis_tvalid && !in_inject_hkey && in_need_j0;
end

always @* begin
    // the beat offered on s_axis
    in_lane_valid = {LANES{1'b0}};
    in_lane_aad   = {LANES{1'b0}};
    in_n_aad      = 32'd0;
    in_n_data     = 32'd0;
    in_abytes     = {BCNT_WIDTH{1'b0}};
    in_cbytes     = {BCNT_WIDTH{1'b0}};
    for (il = 0; il < LANES; il = il + 1) begin
        in_lane_valid[il] = s_axis_tkeep[16*il];
        in_lane_aad[il]   = s_axis_tkeep[16*il] && s_axis_tuser[il];
        in_n_aad          = in_n_aad + {31'd0, in_lane_aad[il]};
        in_n_data         = in_n_data + {31'd0, in_lane_valid[il] && !in_lane_aad[il]};
        // the beat's AAD and data bytes, for the length block (added up at X)
        if (in_lane_aad[il]) begin
            in_abytes = in_abytes +
                        {{(BCNT_WIDTH-5){1'b0}}, popcount16(s_axis_tkeep[16*il +: 16])};
        end else begin
            in_cbytes = in_cbytes +
                        {{(BCNT_WIDTH-5){1'b0}}, popcount16(s_axis_tkeep[16*il +: 16])};
        end
    end

    // the slot it names (read from the table on the first beat only)
    in_slot_ok     = 1'b0;
    in_slot_aes256 = 1'b0;
    in_slot_bank   = 1'b0;
    for (is = 0; is < KEY_SLOTS; is = is + 1) begin
        if ({{(32-SLOT_WIDTH){1'b0}}, s_axis_slot} == is) begin
            in_slot_ok     = slot_valid_reg[is];
            in_slot_aes256 = slot_aes256_reg[is];
            in_slot_bank   = slot_bank_reg[is];
        end
    end

    ctx_iv       = in_first_ctx ? s_axis_iv      : msg_iv_reg;
    ctx_ctr      = in_first_ctx ? 32'd2          : msg_ctr_reg;
    ctx_aes256   = in_first_ctx ? in_slot_aes256 : msg_aes256_reg;
    ctx_slot     = in_first_ctx ? s_axis_slot    : msg_slot_reg;
    ctx_bank     = in_first_ctx ? in_slot_bank   : msg_bank_reg;
    ctx_nokey    = in_first_ctx ? !in_slot_ok    : msg_nokey_reg;
    ctx_decrypt  = in_first_ctx ? (s_axis_decrypt || EARLY_GHASH != 0) : msg_decrypt_reg;

    // message context
    msg_open_next    = msg_open_reg;
    msg_body_next    = msg_body_reg;
    msg_iv_next      = msg_iv_reg;
    msg_ctr_next     = msg_ctr_reg;
    msg_aes256_next  = msg_aes256_reg;
    msg_slot_next    = msg_slot_reg;
    msg_bank_next    = msg_bank_reg;
    msg_nokey_next   = msg_nokey_reg;
    msg_decrypt_next = msg_decrypt_reg;
    if (in_issue_j0 || in_accept) begin
        msg_iv_next      = ctx_iv;
        msg_aes256_next  = ctx_aes256;
        msg_slot_next    = ctx_slot;
        msg_bank_next    = ctx_bank;
        msg_nokey_next   = ctx_nokey;
        msg_decrypt_next = ctx_decrypt;
        msg_open_next    = 1'b1;
        msg_ctr_next     = ctx_ctr;
    end
    if (in_accept) begin
        msg_ctr_next  = ctx_ctr + in_n_data;
        msg_body_next = 1'b1;
        if (s_axis_tlast) begin
            msg_open_next = 1'b0;
            msg_body_next = 1'b0;
        end
    end

    // credits: +1 per accepted beat, -1 per beat leaving the output FIFO
    credit_next = credit_reg + {{OUT_AW{1'b0}}, in_accept} - {{OUT_AW{1'b0}}, out_pop};

    // the aes_pipeline beat
    i_valid_next  = in_inject_hkey || in_issue_j0 || in_accept;
    i_set_next    = in_inject_hkey ? inst_set : {ctx_slot, ctx_bank};
    i_aes256_next = in_inject_hkey ? inst_aes256_reg : ctx_aes256;
    i_block_next  = {LANES*128{1'b0}};
    i_user_next   = {USER_WIDTH{1'b0}};
    lane_ctr      = 32'd0;
    lane_in       = 128'd0;
    if (!in_inject_hkey) begin
        for (il = 0; il < LANES; il = il + 1) begin
            // data lane il is data block (ctx_ctr - 2) + (il - n_aad) of the message
            lane_ctr = ctx_ctr + il - in_n_aad;
            if (in_need_j0 || in_lane_aad[il]) begin
                // AAD lanes need no key stream: J0 for the tag (lane 0 of the first beat)
                i_block_next[128*il +: 128] = {ctx_iv, 32'd1};
            end else begin
                i_block_next[128*il +: 128] = {ctx_iv, lane_ctr};
            end
            lane_in = swap_bytes(s_axis_tdata[128*il +: 128]) &
                      keep_mask_be(s_axis_tkeep[16*il +: 16]);
            i_user_next[U_DATA + 128*il +: 128] = lane_in;
        end
        i_user_next[U_KEEP +: 16*LANES]    = s_axis_tkeep;
        i_user_next[U_ABYTES +: BCNT_WIDTH] = in_abytes;
        i_user_next[U_CBYTES +: BCNT_WIDTH] = in_cbytes;
        i_user_next[U_AAD +: LANES]        = in_lane_aad;
        i_user_next[U_SLOT +: SLOT_WIDTH]  = ctx_slot;
        i_user_next[U_BANK]                = ctx_bank;
        i_user_next[U_NOKEY]               = ctx_nokey;
        i_user_next[U_DEC]                 = ctx_decrypt;
        i_user_next[U_LAST]                = s_axis_tlast;
        i_user_next[U_FIRST]               = !msg_body_reg;
        i_user_next[U_J0]                  = in_issue_j0;
        i_user_next[U_BEAT]                = in_accept;
    end else begin
        i_user_next[U_HKEY] = 1'b1;
    end
end

// ----------------------------------------------------------------------------
// AES: counter blocks -> key stream, the beat's side-band alongside
// ----------------------------------------------------------------------------
aes_pipeline #(
    .LANES(LANES),
    .USER_WIDTH(USER_WIDTH),
    .STAGES_PER_ROUND(STAGES_PER_ROUND),
    .SBOX_IMPL(SBOX_IMPL),
    .KEY_TABLE(1),
    .KEY_SETS(RK_SETS)
)
aes_pipeline_inst (
    .clk(clk),
    .rst(rst),
    .rk_we(exp_m_valid),
    .rk_set(inst_set),
    .rk_round(exp_m_round),
    .rk_data(inst_rk_data),
    .s_valid(i_valid_reg),
    .s_block(i_block_reg),
    .s_key(256'd0),
    .s_set(i_set_reg),
    .s_aes256(i_aes256_reg),
    .s_user(i_user_reg),
    .m_valid(aes_m_valid),
    .m_block(aes_m_block),
    .m_user(aes_m_user)
);

// ----------------------------------------------------------------------------
// X stage: key stream applied, GHASH blocks, length block, H bank read
// ----------------------------------------------------------------------------
wire                  xu_beat  = aes_m_valid && aes_m_user[U_BEAT];
wire                  xu_j0    = aes_m_valid && aes_m_user[U_J0];
wire                  xu_hkey  = aes_m_valid && aes_m_user[U_HKEY];
wire                  xu_first = aes_m_user[U_FIRST];
wire                  xu_last  = aes_m_user[U_LAST];
/* verilator lint_off UNUSEDSIGNAL */
// the direction and the H bank are GHASH's: read here unless EARLY_GHASH reads them at I
wire                  xu_dec   = aes_m_user[U_DEC];
/* verilator lint_on UNUSEDSIGNAL */
wire                  xu_nokey = aes_m_user[U_NOKEY];
wire [LANES-1:0]      xu_aad   = aes_m_user[U_AAD +: LANES];
wire [LANES*16-1:0]   xu_keep  = aes_m_user[U_KEEP +: 16*LANES];
wire [LANES*128-1:0]  xu_data  = aes_m_user[U_DATA +: 128*LANES];
/* verilator lint_off UNUSEDSIGNAL */
wire [SET_WIDTH-1:0]  xu_set   = {aes_m_user[U_SLOT +: SLOT_WIDTH], aes_m_user[U_BANK]};
/* verilator lint_on UNUSEDSIGNAL */

// GHASH's source: the X stage (ciphertext after the key stream on seal), or, with
// EARLY_GHASH (every message opened, so GHASH needs no key stream), the I stage, whose
// beats reach ghash_engine AES_LATENCY + 1 cycles sooner
wire                  gu_beat, gu_first, gu_last, gu_dec, gu_nokey;
wire [LANES-1:0]      gu_aad;
wire [LANES*16-1:0]   gu_keep;
wire [LANES*128-1:0]  gu_data;
wire [LANES*128-1:0]  gu_ks;           // the key stream of the beat (seal's ciphertext)
wire [BCNT_WIDTH-1:0] gu_abytes;       // AAD and data bytes of the beat
wire [BCNT_WIDTH-1:0] gu_cbytes;
wire [SET_WIDTH-1:0]  gu_set;
generate
    if (EARLY_GHASH != 0) begin : g_ghash_early
        assign gu_beat  = i_valid_reg && i_user_reg[U_BEAT];
        assign gu_first = i_user_reg[U_FIRST];
        assign gu_last  = i_user_reg[U_LAST];
        assign gu_dec   = 1'b1;
        assign gu_nokey = i_user_reg[U_NOKEY];
        assign gu_aad   = i_user_reg[U_AAD +: LANES];
        assign gu_keep  = i_user_reg[U_KEEP +: 16*LANES];
        assign gu_data  = i_user_reg[U_DATA +: 128*LANES];
        assign gu_abytes = i_user_reg[U_ABYTES +: BCNT_WIDTH];
        assign gu_cbytes = i_user_reg[U_CBYTES +: BCNT_WIDTH];
        assign gu_ks    = {LANES*128{1'b0}};
        assign gu_set   = {i_user_reg[U_SLOT +: SLOT_WIDTH], i_user_reg[U_BANK]};
    end else begin : g_ghash_late
        assign gu_beat  = xu_beat;
        assign gu_first = xu_first;
        assign gu_last  = xu_last;
        assign gu_dec   = xu_dec;
        assign gu_nokey = xu_nokey;
        assign gu_aad   = xu_aad;
        assign gu_keep  = xu_keep;
        assign gu_data  = xu_data;
        assign gu_abytes = aes_m_user[U_ABYTES +: BCNT_WIDTH];
        assign gu_cbytes = aes_m_user[U_CBYTES +: BCNT_WIDTH];
        assign gu_ks    = aes_m_block;
        assign gu_set   = xu_set;
    end
endgenerate

reg  [LANES*128-1:0]  x_out_data;      // big-endian lanes
reg  [LANES*128-1:0]  x_out_axis;      // AXI4-Stream lanes
reg  [127:0]          x_ekj0;
reg                   x_cap_j0;
reg  [127:0]          x_mask;
reg  [127:0]          x_xored;
integer xl;

// the output beat and E_K(J0)
always @* begin
    x_out_data   = {LANES*128{1'b0}};
    x_out_axis   = {LANES*128{1'b0}};
    for (xl = 0; xl < LANES; xl = xl + 1) begin
        x_mask  = keep_mask_be(xu_keep[16*xl +: 16]);
        x_xored = (xu_data[128*xl +: 128] ^ aes_m_block[128*xl +: 128]) & x_mask;
        if (xu_aad[xl])
            x_out_data[128*xl +: 128] = xu_data[128*xl +: 128];
        else
            x_out_data[128*xl +: 128] = xu_nokey ? 128'd0 : x_xored;
        x_out_axis[128*xl +: 128] = swap_bytes(x_out_data[128*xl +: 128]);
    end

    // E_K(J0): lane 0 of the J0 bubble, or of a first beat whose lane 0 is AAD
    x_cap_j0 = xu_j0 || (xu_beat && xu_first && xu_aad[0]);
    x_ekj0   = x_cap_j0 ? aes_m_block[127:0] : x_ekj0_reg;
    x_ekj0_next = x_ekj0;

    x_out_valid_next = xu_beat;
    x_out_word_next  = {xu_last, xu_aad, xu_keep, x_out_axis};
end

reg  [LANES-1:0]      g_lane_valid;
reg  [BCNT_WIDTH-1:0] g_abytes;
reg  [BCNT_WIDTH-1:0] g_cbytes;
reg  [CNT_WIDTH-1:0]  g_nblk;
reg  [ALEN_WIDTH-1:0] g_alen;
reg  [CLEN_WIDTH-1:0] g_clen;
reg  [127:0]          g_mask;
integer gl, gbs, gbp;

// the GHASH engine's beat: AAD and ciphertext blocks, lengths, H bank
always @* begin
    // gbp indexes the H powers only on the key-load path below: given a value on every
    // path, so that synthesis infers no latch for it
    gbp = 0;
    g_lane_valid = {LANES{1'b0}};
    // the beat's byte counts, counted at the I stage
    g_abytes     = gu_abytes;
    g_cbytes     = gu_cbytes;
    g_nblk       = {CNT_WIDTH{1'b0}};
    x_g_block_next = {LANES*128{1'b0}};

    for (gl = 0; gl < LANES; gl = gl + 1) begin
        g_lane_valid[gl] = gu_keep[16*gl];
        g_mask = keep_mask_be(gu_keep[16*gl +: 16]);
        if (gu_aad[gl]) begin
            x_g_block_next[128*gl +: 128] = gu_data[128*gl +: 128];
        end else begin
            // the ciphertext: the input on open, the input XOR the key stream on seal
            x_g_block_next[128*gl +: 128] = gu_dec ? gu_data[128*gl +: 128] :
                ((gu_data[128*gl +: 128] ^ gu_ks[128*gl +: 128]) & g_mask);
        end
        g_nblk = g_nblk + {{(CNT_WIDTH-1){1'b0}}, g_lane_valid[gl]};
    end

    // message lengths including this beat, for the length block (SP 800-38D §7.1
    // step 5), whose term gcm_len_mul computes from x_alen_reg and x_clen_reg
    g_alen = (gu_first ? {ALEN_WIDTH{1'b0}} : x_alen_reg) +
             {{(ALEN_WIDTH-BCNT_WIDTH){1'b0}}, g_abytes};
    g_clen = (gu_first ? {CLEN_WIDTH{1'b0}} : x_clen_reg) +
             {{(CLEN_WIDTH-BCNT_WIDTH){1'b0}}, g_cbytes};

    // blocks in lanes 0..nblk-1; a lane without a block holds zero (its tkeep is 0, so
    // the I stage zeroed its data and g_mask zeroes its key stream), which is what
    // ghash_engine needs of input nblk on the last beat: count = nblk + 1 there, the
    // trailing zero block that multiplies the blocks by one more power of H

    x_alen_next = gu_beat ? g_alen : x_alen_reg;
    x_clen_next = gu_beat ? g_clen : x_clen_reg;

    x_g_valid_next = gu_beat;
    x_g_first_next = gu_first;
    x_g_last_next  = gu_last;
    x_g_count_next = g_nblk + {{(CNT_WIDTH-1){1'b0}}, gu_last};   // + the zero block
    // E_K(J0) rides with the beat when GHASH runs behind the X stage; with EARLY_GHASH
    // it is not out yet and joins the GHASH result at the tag (jq below)
    x_g_user_next  = {(EARLY_GHASH != 0) ? 128'd0 : x_ekj0, gu_nokey};

    // the message's H bank: H^1..H^HPOW of set (slot, bank)
    x_g_hpow_next = {HPOW*128{1'b0}};
    for (gbs = 0; gbs < NSETS; gbs = gbs + 1) begin
        if ({{(32-SET_WIDTH){1'b0}}, gu_set} == gbs) begin
            for (gbp = 0; gbp < HPOW; gbp = gbp + 1)
                x_g_hpow_next[128*gbp +: 128] = hset_mem[HPOW*gbs + gbp];
        end
    end
end

// ----------------------------------------------------------------------------
// Key install: round keys into the table, E_K(0) through the AES pipeline, powers of
// H, atomic commit, guard
// ----------------------------------------------------------------------------
aes_key_expand key_expand_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(exp_s_valid),
    .s_ready(exp_s_ready),
    .s_key(exp_s_key),
    .s_aes256(s_key_aes256),
    .m_valid(exp_m_valid),
    .m_round(exp_m_round),
    .m_key(exp_m_key),
    .m_last(exp_m_last)
);

gf128_mul_serial #(
    .DIGIT_WIDTH(INST_DIGIT_WIDTH)
)
inst_mul_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(inst_mul_valid),
    .s_ready(inst_mul_ready),
    .s_a(inst_pow_reg),
    .s_b(inst_h_reg),
    .m_valid(inst_mul_done),
    .m_y(inst_mul_y)
);

always @* begin
    inst_state_next  = inst_state_reg;
    inst_slot_next   = inst_slot_reg;
    inst_aes256_next = inst_aes256_reg;
    inst_h_next      = inst_h_reg;
    inst_pow_next    = inst_pow_reg;
    inst_idx_next    = inst_idx_reg;
    inst_wipe_next   = inst_wipe_reg;
    inst_again_next  = inst_again_reg;
    guard_cnt_next   = guard_cnt_reg;
    guard_open_next  = guard_open_reg;

    slot_valid_next  = slot_valid_reg;
    slot_aes256_next = slot_aes256_reg;
    slot_bank_next   = slot_bank_reg;

    exp_s_valid = 1'b0;
    hp_we    = 1'b0;
    hp_wset  = inst_set;
    hp_widx  = inst_idx_reg;
    hp_wdata = inst_mul_y;
    inst_mul_valid = 1'b0;

    // a message open at the commit may read the old bank until its last beat is in
    if (in_accept && s_axis_tlast) begin
        guard_open_next = 1'b0;
    end

    case (inst_state_reg)
        INST_IDLE: begin
            // an install (or zeroize) naming a slot >= KEY_SLOTS is accepted and ignored
            if (s_key_ready && s_key_valid &&
                {{(32-SLOT_WIDTH){1'b0}}, s_key_slot} < KEY_SLOTS) begin
                inst_slot_next   = s_key_slot;
                inst_aes256_next = s_key_aes256 && !s_key_wipe;
                inst_wipe_next   = s_key_wipe;
                inst_again_next  = s_key_wipe;
                exp_s_valid      = 1'b1;
                inst_state_next  = INST_EXPAND;
            end
        end
        INST_EXPAND: begin
            // rk[0..14] of the new key are written into the slot's inactive bank of the
            // round-key table, one per clock; no message reads that bank (the guard of
            // the slot's previous install saw its last reader out)
            if (exp_m_last) begin
                inst_state_next = INST_INJECT;
            end
        end
        INST_INJECT: begin
            // E_K(0^128) enters aes_pipeline this cycle (the I stage takes it)
            inst_state_next = INST_WAIT_H;
        end
        INST_WAIT_H: begin
            if (xu_hkey) begin
                // H = E_K(0^128) (SP 800-38D §7.1 step 1) is H^1; it is written into
                // the bank from inst_h_reg in INST_POW_MUL (zeroize: E_0(0^128) of the
                // zeroed round keys, a constant, and zero is written)
                inst_h_next     = aes_m_block[127:0];
                inst_pow_next   = aes_m_block[127:0];
                inst_idx_next   = 2;
                inst_state_next = INST_POW_MUL;
            end
        end
        INST_POW_MUL: begin
            // start H^idx = H^(idx-1) * H (the multiplier is idle here); H^1 is written
            // from inst_h_reg here (again at every power: the same value), so that no
            // path runs from the AES pipeline's output into the bank
            inst_mul_valid = 1'b1;
            hp_we          = 1'b1;
            hp_widx        = {{(POW_WIDTH-1){1'b0}}, 1'b1};
            hp_wdata       = inst_h_reg & inst_hp_mask;
            if (inst_mul_ready && inst_wipe_reg) begin
                // zeroize: the multiplier has taken its operands; from now on they are zero
                inst_h_next = 128'd0;
            end
            if (inst_mul_ready) begin
                inst_state_next = INST_POW_WAIT;
            end
        end
        INST_POW_WAIT: begin
            hp_wdata = inst_mul_y & inst_hp_mask;
            if (inst_mul_done) begin
                hp_we         = 1'b1;
                inst_pow_next = inst_mul_y & inst_hp_mask;
                inst_idx_next = inst_idx_reg + 1'b1;
                if (inst_idx_reg == HPOW_IDX) begin
                    inst_state_next = INST_COMMIT;
                end else begin
                    inst_state_next = INST_POW_MUL;
                end
            end
        end
        INST_COMMIT: begin
            // zeroize: the slot is not installed from its first commit on
            slot_valid_next[inst_slot_reg]  = !inst_wipe_reg;
            slot_aes256_next[inst_slot_reg] = inst_aes256_reg;
            slot_bank_next[inst_slot_reg]   = !slot_bank_reg[inst_slot_reg];
            guard_open_next = msg_open_next;
            guard_cnt_next  = GUARD_LOAD;
            inst_state_next = INST_GUARD;
        end
        INST_GUARD: begin
            if (guard_open_reg) begin
                guard_cnt_next = GUARD_LOAD;
            end else if (guard_cnt_reg == 0) begin
                if (inst_again_reg) begin
                    // zeroize, second pass: the bank that was current before the first
                    // commit, which no message reads any more (the guard saw them out)
                    inst_again_next = 1'b0;
                    exp_s_valid     = 1'b1;
                    inst_state_next = INST_EXPAND;
                end else begin
                    inst_wipe_next  = 1'b0;
                    inst_state_next = INST_IDLE;
                end
            end else begin
                guard_cnt_next = guard_cnt_reg - 1'b1;
            end
        end
        default: begin
            inst_state_next = INST_IDLE;
        end
    endcase
end

// ----------------------------------------------------------------------------
// Register update: control state is reset, the datapath is not
// ----------------------------------------------------------------------------
always @(posedge clk) begin
    slot_valid_reg  <= slot_valid_next;
    slot_aes256_reg <= slot_aes256_next;
    slot_bank_reg   <= slot_bank_next;

    inst_state_reg  <= inst_state_next;
    inst_slot_reg   <= inst_slot_next;
    inst_aes256_reg <= inst_aes256_next;
    inst_h_reg      <= inst_h_next;
    inst_pow_reg    <= inst_pow_next;
    inst_idx_reg    <= inst_idx_next;
    guard_cnt_reg   <= guard_cnt_next;
    guard_open_reg  <= guard_open_next;
    inst_wipe_reg   <= inst_wipe_next;
    inst_again_reg  <= inst_again_next;

    msg_open_reg    <= msg_open_next;
    msg_body_reg    <= msg_body_next;
    msg_iv_reg      <= msg_iv_next;
    msg_ctr_reg     <= msg_ctr_next;
    msg_aes256_reg  <= msg_aes256_next;
    msg_slot_reg    <= msg_slot_next;
    msg_bank_reg    <= msg_bank_next;
    msg_nokey_reg   <= msg_nokey_next;
    msg_decrypt_reg <= msg_decrypt_next;

    credit_reg      <= credit_next;

    i_valid_reg     <= i_valid_next;
    i_block_reg     <= i_block_next;
    i_set_reg       <= i_set_next;
    i_aes256_reg    <= i_aes256_next;
    i_user_reg      <= i_user_next;

    x_out_valid_reg <= x_out_valid_next;
    x_out_word_reg  <= x_out_word_next;
    x_g_valid_reg   <= x_g_valid_next;
    x_g_first_reg   <= x_g_first_next;
    x_g_last_reg    <= x_g_last_next;
    x_g_count_reg   <= x_g_count_next;
    x_g_block_reg   <= x_g_block_next;
    x_g_hpow_reg    <= x_g_hpow_next;
    x_g_user_reg    <= x_g_user_next;
    x_ekj0_reg      <= x_ekj0_next;
    x_alen_reg      <= x_alen_next;
    x_clen_reg      <= x_clen_next;

    if (rst) begin
        slot_valid_reg  <= {KEY_SLOTS{1'b0}};
        slot_bank_reg   <= {KEY_SLOTS{1'b0}};
        inst_state_reg  <= INST_IDLE;
        guard_open_reg  <= 1'b0;
        inst_wipe_reg   <= 1'b0;
        inst_again_reg  <= 1'b0;
        msg_open_reg    <= 1'b0;
        msg_body_reg    <= 1'b0;
        credit_reg      <= 0;
        i_valid_reg     <= 1'b0;
        x_out_valid_reg <= 1'b0;
        x_g_valid_reg   <= 1'b0;
    end
end

// ----------------------------------------------------------------------------
// GHASH over AAD, ciphertext and the length block; the tag
// ----------------------------------------------------------------------------
// the length block's term L * H (H^1 of the message's bank), in two stages
// (LEN_MUL_STAGES) beside ghash_engine's first ones, then delayed so that the last
// beat's term meets its GHASH result GHASH_LATENCY cycles after the beat entered
gcm_len_mul #(
    .ALEN_WIDTH(ALEN_WIDTH),
    .CLEN_WIDTH(CLEN_WIDTH),
    .STAGES(LEN_MUL_STAGES)
)
len_mul_inst (
    .clk(clk),
    .alen(x_alen_reg),
    .clen(x_clen_reg),
    .h(x_g_hpow_reg[127:0]),
    .p(len_term)
);

// LEN_DELAY registers, a shift register that moves every cycle (datapath: no reset)
reg [LEN_DELAY*128-1:0] len_delay_reg, len_delay_next;
integer ld;

always @* begin
    len_delay_next = len_delay_reg;
    for (ld = LEN_DELAY - 1; ld >= 1; ld = ld - 1) begin
        len_delay_next[128*ld +: 128] = len_delay_reg[128*(ld-1) +: 128];
    end
    len_delay_next[0 +: 128] = len_term;
end

always @(posedge clk) begin
    len_delay_reg <= len_delay_next;
end

assign gh_len = len_delay_reg[128*(LEN_DELAY-1) +: 128];

ghash_engine #(
    .LANES(LANES),
    .NPOW(NPOW),
    .CLMUL_STAGES(GHASH_CLMUL_STAGES),
    .INTERLEAVE(GHASH_INTERLEAVE),
    .HPOW(HPOW),
    .LATENCY(GHASH_LATENCY),
    .USER_WIDTH(129)
)
ghash_engine_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(x_g_valid_reg),
    .s_block(x_g_block_reg),
    .s_count(x_g_count_reg),
    .s_hpow(x_g_hpow_reg),
    .s_first(x_g_first_reg),
    .s_last(x_g_last_reg),
    .s_user(x_g_user_reg),
    .m_valid(gh_m_valid),
    .m_ghash(gh_m_ghash),
    .m_user(gh_m_user)
);

// tag = E_K(J0) ^ S (SP 800-38D §7.1 step 6), S = the blocks' GHASH ^ L * H; zero for a
// message without a key. Behind the X stage E_K(J0) rides with the last beat; with
// EARLY_GHASH the GHASH result and E_K(J0) (captured at the X stage) meet in two FIFOs,
// one entry per message each, in message order: S comes first for a message shorter
// than the AES pipeline, E_K(J0) first for a longer one. S waits only for a message
// whose first beat is still in the AES pipeline (at most AES_LATENCY + 1 messages:
// S_DEPTH); E_K(J0) only for a message whose last beat is at most GHASH_LATENCY + 2
// cycles past the I stage, or still to come (at most GHASH_LATENCY + 4: J_DEPTH).
wire         tag_valid;
wire [127:0] tag_value;
wire         tag_nokey;
generate
    if (EARLY_GHASH != 0) begin : g_tag_join
        /* verilator lint_off UNUSEDSIGNAL */
        // E_K(J0) does not ride with the beats here (zero in gh_m_user[128:1]); the
        // FIFOs' s_ready and count: the credits keep them from filling
        wire [127:0] gh_ekj0_unused = gh_m_user[128:1];
        wire         sq_s_ready, jq_s_ready;
        wire [$clog2(S_DEPTH):0] sq_count;
        wire [$clog2(J_DEPTH):0] jq_count;
        /* verilator lint_on UNUSEDSIGNAL */
        wire         sq_m_valid, jq_m_valid;
        wire [128:0] sq_m_data;              // {S, nokey}
        wire [127:0] jq_m_data;              // E_K(J0)
        assign tag_valid = sq_m_valid && jq_m_valid;
        assign tag_nokey = sq_m_data[0];
        assign tag_value = sq_m_data[0] ? 128'd0 : (sq_m_data[128:1] ^ jq_m_data);
        sync_fifo #(
            .WIDTH(129),
            .DEPTH(S_DEPTH)
        )
        s_fifo_inst (
            .clk(clk),
            .rst(rst),
            .s_valid(gh_m_valid),
            .s_ready(sq_s_ready),
            .s_data({gh_m_ghash ^ gh_len, gh_m_user[0]}),
            .m_valid(sq_m_valid),
            .m_ready(tag_valid),
            .m_data(sq_m_data),
            .count(sq_count)
        );
        sync_fifo #(
            .WIDTH(128),
            .DEPTH(J_DEPTH)
        )
        j_fifo_inst (
            .clk(clk),
            .rst(rst),
            .s_valid(x_cap_j0),
            .s_ready(jq_s_ready),
            .s_data(aes_m_block[127:0]),
            .m_valid(jq_m_valid),
            .m_ready(tag_valid),
            .m_data(jq_m_data),
            .count(jq_count)
        );
    end else begin : g_tag_late
        assign tag_valid = gh_m_valid;
        assign tag_nokey = gh_m_user[0];
        assign tag_value = gh_m_user[0] ? 128'd0 :
                           (gh_m_user[128:1] ^ gh_m_ghash ^ gh_len);
    end
endgenerate

assign m_tag_valid = tag_valid;
assign m_tag       = tag_value;
assign m_tag_nokey = tag_nokey;

// ----------------------------------------------------------------------------
// Output: data FIFO, tag FIFO; a tlast beat leaves together with its tag
// ----------------------------------------------------------------------------
/* verilator lint_off PINCONNECTEMPTY */
// (the FIFOs' s_ready and count are not needed: the credits keep them from filling)
sync_fifo #(
    .WIDTH(OF_WIDTH),
    .DEPTH(OUT_DEPTH),
    .OUT_REG(1)
)
out_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(x_out_valid_reg),
    .s_ready(),
    .s_data(x_out_word_reg),
    .m_valid(of_m_valid),
    .m_ready(out_pop),
    .m_data(of_m_data),
    .count()
);

sync_fifo #(
    .WIDTH(129),
    .DEPTH(OUT_DEPTH),
    .OUT_REG(1)
)
tag_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(tag_valid),
    .s_ready(),
    .s_data({tag_value, tag_nokey}),
    .m_valid(tf_m_valid),
    .m_ready(out_pop && of_head_last),
    .m_data(tf_m_data),
    .count()
);
/* verilator lint_on PINCONNECTEMPTY */

endmodule

`resetall
