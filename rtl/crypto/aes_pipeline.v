/*
 * aes_pipeline — fully pipelined AES-128/AES-256 encryption (FIPS-197 §5.1), LANES blocks
 * per beat sharing one key, with the key schedule expanded on the fly beside the data
 * (KEY_TABLE = 0) or the round keys read from a table filled beforehand (KEY_TABLE = 1).
 *
 * Function:   m_block lane i = AES_Encrypt(K, s_block lane i) for every beat, with
 *             AES-256 when s_aes256 = 1 and AES-128 (key K[255:128]) when 0; K = s_key
 *             (KEY_TABLE = 0), or the key whose round keys entry s_set of the table
 *             holds (KEY_TABLE = 1).
 *             m_user returns s_user unchanged, in order.
 * Latency:    LATENCY = 14 * STAGES_PER_ROUND cycles for both key sizes: a beat with
 *             s_valid = 1 at clock edge t comes out with m_valid = 1 at edge t + LATENCY.
 * Throughput: one beat (LANES blocks) per clock, no back-pressure, no stall, no bubble:
 *             every beat may carry a different key (or entry) and key size.
 * Reset:      rst (synchronous, active high) clears the valid bits only; beats in flight
 *             are dropped, the datapath registers keep whatever they held.
 *
 * Data format (docs/conventions.md, big-endian block order)
 *   s_block / m_block: lane i is [128*i +: 128]; inside a lane, byte k of the block
 *       (FIPS-197 in[k] / out[k]) is [128*i + 127-8k -: 8], so a lane printed with %032x
 *       reads like the hex strings of FIPS-197 Appendix C.
 *   s_key: key byte k is [255-8k -: 8]. AES-256 uses all 32 bytes; AES-128 uses bytes
 *       0..15 = s_key[255:128] and ignores s_key[127:0].
 *
 * Structure (pipeline stage k = 0 .. LATENCY-1 holds the beat that entered k cycles ago)
 *   input:      AddRoundKey with rk[0] = s_key[255:128] (both sizes; KEY_TABLE = 1: rk[0]
 *               of entry s_set), combinational in front of round 1; the key schedule
 *               state enters as the swapped key.
 *   round r:    one aes_round per lane and one aes_key_step shared by the lanes (with
 *               KEY_TABLE = 1 a read of bank r of the table instead, below), in
 *               STAGES_PER_ROUND register stages:
 *                 1: SubBytes/ShiftRows/MixColumns/AddRoundKey, key step, register;
 *                 2: SubBytes/ShiftRows and the key step's SubWord, register (mid-round),
 *                    then MixColumns/AddRoundKey and the key step's XOR chain, register.
 *               The key schedule is thus retimed with the data: in both cases round r's
 *               key step and round r's data use the same stage(s), the S-boxes of both
 *               sit before the mid-round register and the XORs after it.
 *   AES-128:    round 10 is the final round (no MixColumns) when s_aes256 = 0. Rounds
 *               11..14 then pass the block through unchanged (a bypass multiplexer in
 *               front of each of their registers), so those registers are the AES-128
 *               delay line: both sizes leave after 14 rounds, in order. The bypass costs
 *               one 2:1 multiplexer per bit per stage of rounds 11..14 instead of a
 *               separate 4 * STAGES_PER_ROUND * 128 * LANES-bit delay line.
 *   control:    valid, aes256 and user travel in shift registers of LATENCY stages, and
 *               with KEY_TABLE = 1 the entry index up to the last stage that reads it.
 *   S-boxes:    SBOX_IMPL = 0: combinational tables (aes_sbox), mapped to LUTs.
 *               SBOX_IMPL = 1 (with STAGES_PER_ROUND = 2 only): ROMs read synchronously
 *               (aes_sbox_rom2, two S-boxes per dual-port block RAM); their read register
 *               is the mid-round register of the data and of the key step's SubWord, so
 *               LATENCY is unchanged. Retimed (RETIMED = 1): the block RAM's output
 *               (about 4.1 ns after the clock on the ECP5, REGMODE = NOREG as Yosys
 *               infers it) goes straight into a flip-flop, the round's second register,
 *               and round r's MixColumns/AddRoundKey/bypass run in the stage after it, in
 *               front of round r+1's block RAM address; round 14's is combinational on
 *               m_block (one LUT level behind the last registers). The round key is read
 *               (KEY_TABLE = 1) or registered (KEY_TABLE = 0) a stage later to match.
 *               Rounds 11..14 delay the block entering the round by two stages beside
 *               the ROMs, for the AES-128 bypass. Block RAMs: 8 per lane and 2 for the
 *               key step per round, 112 * LANES + 28 in all (112 * LANES with
 *               KEY_TABLE = 1).
 *
 * Key source (KEY_TABLE)
 *   0: the key schedule is expanded on the fly beside the data (above): every beat
 *      carries its own key on s_key, so every beat may use a different key.
 *   1: the round keys come from a table inside the pipeline: KEY_SETS entries of 15
 *      round keys, written one round key per clock through rk_* (aes_key_expand produces
 *      them in that order), and every beat names its entry on s_set. Round r reads
 *      rk[r] of the beat's entry from its own bank (a distributed RAM of KEY_SETS x 128
 *      bits per round, one read port, rk[0] read at the input); with two stages per
 *      round the read is registered in the mid-round stage, so AddRoundKey starts from a
 *      register as with the on-the-fly schedule. The pipeline then carries only the
 *      SET_WIDTH-bit entry index per stage, and has no key S-boxes. The writer must not
 *      write an entry while a beat that reads it is in flight (gcm_core writes only the
 *      inactive bank of a slot, behind its install guard).
 *      With KEY_TABLE = 1, s_key is unused; with KEY_TABLE = 0, rk_* and s_set are.
 *
 * Cost of the key schedule beside the data (KEY_TABLE = 0; per beat: one key schedule
 * for all lanes)
 *   S-boxes per round: 16 * LANES (data) + 4 (key step). In total 224 * LANES + 56:
 *       LANES = 1: 280 (key schedule 20 %), 4: 952 (5.9 %), 12: 2744 (2.0 %).
 *   Registers per round:
 *       STAGES_PER_ROUND = 1: 128 * LANES (data) + 256 (key state; none after round 14)
 *       STAGES_PER_ROUND = 2: 256 * LANES (data) + 256 + 256 + 32 (key state at the end
 *                             of the round and mid-round, plus the SubWord result)
 *       plus valid, aes256 and USER_WIDTH bits per stage.
 *   Totals (data / key schedule bits):
 *       STAGES_PER_ROUND = 1: 1792 * LANES / 3328   (LANES = 1: key is 65 %; 12: 13 %)
 *       STAGES_PER_ROUND = 2: 3584 * LANES / 7360   (LANES = 1: key is 67 %; 12: 15 %)
 *   The round-key table (KEY_TABLE = 1) precomputes the 15 round keys (1920 bits) of
 *   each entry, so the pipeline carries only the entry index instead of 256 bits per
 *   stage and needs no key S-boxes. It pays with 1920 bits of distributed RAM per entry,
 *   an expansion engine outside (aes_key_expand), and a key install step before a new
 *   key can be used: it cannot take an arbitrary key per beat. At LANES = 12 the
 *   on-the-fly schedule is 2 % of the S-boxes and about 13-15 % of the registers; at
 *   LANES = 1 it dominates the registers, which is the price of full key agility with
 *   no key memory.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module aes_pipeline #(
    // 128-bit blocks per beat (LANES = 1, 4, 12 for 1X, 4X, 12X)
    parameter LANES = 1,
    // width of the side-band carried unchanged with each beat
    parameter USER_WIDTH = 1,
    // register stages per AES round: 1, or 2 with a register after SubBytes/ShiftRows
    parameter STAGES_PER_ROUND = 1,
    // S-box implementation: 0 = LUT tables; 1 = block RAM ROMs, two S-boxes per
    // dual-port ROM, whose registered read is the mid-round register
    // (needs STAGES_PER_ROUND = 2)
    parameter SBOX_IMPL = 0,
    // key source: 0 = s_key, expanded on the fly; 1 = the round-key table (rk_*, s_set)
    parameter KEY_TABLE = 0,
    // entries of the round-key table (KEY_TABLE = 1)
    parameter KEY_SETS = 2,
    // width of an entry index (derived; do not override)
    parameter SET_WIDTH = (KEY_SETS > 1) ? $clog2(KEY_SETS) : 1
) (
    input  wire                    clk,
    input  wire                    rst,

    // round-key table write port (KEY_TABLE = 1): rk[rk_round] of entry rk_set
    input  wire                    rk_we,
    input  wire [SET_WIDTH-1:0]    rk_set,
    input  wire [3:0]              rk_round,
    input  wire [127:0]            rk_data,

    // input beat
    input  wire                    s_valid,
    input  wire [LANES*128-1:0]    s_block,
    input  wire [255:0]            s_key,       // KEY_TABLE = 0
    input  wire [SET_WIDTH-1:0]    s_set,       // KEY_TABLE = 1
    input  wire                    s_aes256,
    input  wire [USER_WIDTH-1:0]   s_user,

    // output beat, LATENCY cycles later
    output wire                    m_valid,
    output wire [LANES*128-1:0]    m_block,
    output wire [USER_WIDTH-1:0]   m_user
);

// AES-256 rounds (FIPS-197 Nr = 14); AES-128 (Nr = 10) is padded to the same length
localparam ROUNDS = 14;
// last round of AES-128 (FIPS-197 Nr = 10)
localparam ROUNDS_128 = 10;
// cycles from s_valid to m_valid
localparam LATENCY = ROUNDS * STAGES_PER_ROUND;
localparam DATA_WIDTH = LANES * 128;
localparam KEY_WIDTH = 256;
// block RAM S-boxes (SBOX_IMPL = 1): round r's MixColumns/AddRoundKey run in the stage
// after its S-box register (the first stage of round r + 1, or behind the last register
// for round 14; see "S-boxes" above)
localparam RETIMED = (SBOX_IMPL == 1) ? 1 : 0;
// stages whose beat's key size is needed: 0 .. LATENCY - 1, and LATENCY (the output) when
// retimed
localparam FLAG_STAGES = LATENCY + RETIMED;
// stages that read the round-key table (KEY_TABLE = 1): each round reads in its first
// stage with two stages per round (in its second when retimed), in its only one with
// one; the last reader is round 14
localparam SET_STAGES = (ROUNDS - 1) * STAGES_PER_ROUND + 1 + RETIMED;

// parameter checks
generate
    if (LANES < 1) begin : g_check_lanes
        initial begin
            $error("aes_pipeline: LANES must be at least 1 (instance %m)");
            $finish;
        end
    end
    if (USER_WIDTH < 1) begin : g_check_user
        initial begin
            $error("aes_pipeline: USER_WIDTH must be at least 1 (instance %m)");
            $finish;
        end
    end
    if (STAGES_PER_ROUND != 1 && STAGES_PER_ROUND != 2) begin : g_check_stages
        initial begin
            $error("aes_pipeline: STAGES_PER_ROUND must be 1 or 2 (instance %m)");
            $finish;
        end
    end
    if (SBOX_IMPL != 0 && !(SBOX_IMPL == 1 && STAGES_PER_ROUND == 2)) begin : g_check_sbox
        initial begin
            $error("aes_pipeline: SBOX_IMPL must be 0, or 1 with STAGES_PER_ROUND = 2 (instance %m)");
            $finish;
        end
    end
    if (KEY_TABLE != 0 && KEY_TABLE != 1) begin : g_check_key_table
        initial begin
            $error("aes_pipeline: KEY_TABLE must be 0 or 1 (instance %m)");
            $finish;
        end
    end
    if (KEY_SETS < 1 || SET_WIDTH != ((KEY_SETS > 1) ? $clog2(KEY_SETS) : 1)) begin : g_check_sets
        initial begin
            $error("aes_pipeline: KEY_SETS must be at least 1, SET_WIDTH is derived (instance %m)");
            $finish;
        end
    end
endgenerate

// ----------------------------------------------------------------------------------
// control: valid, aes256, user and (KEY_TABLE = 1) set shift registers, one entry per
// stage
// ----------------------------------------------------------------------------------
reg  [LATENCY-1:0]            valid_reg, valid_next;
reg  [FLAG_STAGES-2:0]        aes256_reg, aes256_next;
reg  [LATENCY*USER_WIDTH-1:0] user_reg, user_next;

// aes256_at[k]: key size of the beat in stage k (k cycles after it entered; k = LATENCY:
// the beat on m_*)
wire [FLAG_STAGES-1:0] aes256_at = {aes256_reg, s_aes256};

always @* begin
    valid_next  = {valid_reg[LATENCY-2:0], s_valid};
    aes256_next = aes256_at[FLAG_STAGES-2:0];
    user_next   = {user_reg[(LATENCY-1)*USER_WIDTH-1:0], s_user};
end

always @(posedge clk) begin
    valid_reg  <= valid_next;
    aes256_reg <= aes256_next;
    user_reg   <= user_next;

    if (rst) begin
        valid_reg <= {LATENCY{1'b0}};
    end
end

// set_at[k]: round-key table entry of the beat in stage k (KEY_TABLE = 1), for the
// stages that read the table
wire [SET_STAGES*SET_WIDTH-1:0] set_at;

generate
    if (KEY_TABLE == 1) begin : g_set_shift
        reg [(SET_STAGES-1)*SET_WIDTH-1:0] set_reg, set_next;

        always @* begin
            set_next = set_at[(SET_STAGES-1)*SET_WIDTH-1:0];
        end

        always @(posedge clk) begin
            set_reg <= set_next;
        end

        assign set_at = {set_reg, s_set};

        // the key comes from the table
        wire unused_key = ^s_key;
    end else begin : g_no_set
        assign set_at = {SET_STAGES*SET_WIDTH{1'b0}};

        // the key comes with the beat: no table, no entry index
        wire unused_table = ^{rk_we, rk_set, rk_round, rk_data, s_set, set_at};
    end
endgenerate

// ----------------------------------------------------------------------------------
// datapath: state_bus slot r holds the blocks after round r (slot 0: after the initial
// AddRoundKey, combinational); key_bus slot r the key schedule state entering round r+1
// (KEY_TABLE = 0)
// ----------------------------------------------------------------------------------
wire [DATA_WIDTH*(ROUNDS+1)-1:0] state_bus;
wire [KEY_WIDTH*ROUNDS-1:0]      key_bus;
// rk[0] of the entering beat (FIPS-197 §5.1: key bytes 0..15, both key sizes)
wire [127:0]                     first_key;

assign state_bus[0 +: DATA_WIDTH] = s_block ^ {LANES{first_key}};

genvar rnd, lane;

generate
    if (KEY_TABLE == 1) begin : g_rk0
        // bank 0 of the table: rk[0] of each entry, read at the input (public: the
        // gcm_core bench reads the table to check a zeroize)
        reg [127:0] rk_mem [0:KEY_SETS-1] /* verilator public_flat_rd */;

        always @(posedge clk) begin
            if (rk_we && rk_round == 4'd0) begin
                rk_mem[rk_set] <= rk_data;
            end
        end

        assign first_key = rk_mem[s_set];
        // no schedule state travels with the beats
        assign key_bus[0 +: KEY_WIDTH] = {KEY_WIDTH{1'b0}};
        wire unused_key_bus = ^key_bus;
    end else begin : g_key0
        assign first_key = s_key[255:128];
        // schedule state entering round 1 = {A, B} = {key bytes 16..31, key bytes 0..15}
        assign key_bus[0 +: KEY_WIDTH] = {s_key[127:0], s_key[255:128]};
    end

    for (rnd = 1; rnd <= ROUNDS; rnd = rnd + 1) begin : g_round
        // stages of this round: first (SubBytes) and last (the S-box register's); equal
        // for 1 stage. STAGE_ARK: the stage of MixColumns/AddRoundKey, the last one, or
        // the one after it when retimed
        localparam STAGE_FIRST = (rnd - 1) * STAGES_PER_ROUND;
        localparam STAGE_LAST  = STAGE_FIRST + STAGES_PER_ROUND - 1;
        localparam STAGE_ARK   = STAGE_LAST + RETIMED;

        wire [DATA_WIDTH-1:0] state_in = state_bus[DATA_WIDTH*(rnd-1) +: DATA_WIDTH];

        wire aes256_first = aes256_at[STAGE_FIRST];
        wire aes256_last  = aes256_at[STAGE_LAST];
        wire aes256_ark   = aes256_at[STAGE_ARK];
        // AES-128 beats pass rounds 11..14 unchanged (the delay line)
        wire skip_last  = (rnd > ROUNDS_128) && !aes256_ark;
        // no MixColumns in round 14, nor in round 10 of AES-128 (FIPS-197 §5.1)
        wire final_round = (rnd == ROUNDS) || (rnd == ROUNDS_128 && !aes256_ark);

        // the data's first half, and the value that crosses the mid-round cut
        wire [DATA_WIDTH-1:0] sub_shift;
        wire [DATA_WIDTH-1:0] data_mid;
        // the round key, valid in the round's last stage
        wire [127:0]          round_key;
        wire [DATA_WIDTH-1:0] round_out;

        if (KEY_TABLE == 1) begin : g_table
            // bank rnd of the table: rk[rnd] of each entry (public: as bank 0)
            reg [127:0] rk_mem [0:KEY_SETS-1] /* verilator public_flat_rd */;

            always @(posedge clk) begin
                if (rk_we && rk_round == rnd) begin
                    rk_mem[rk_set] <= rk_data;
                end
            end

            if (STAGES_PER_ROUND == 2) begin : g_rk_mid
                // read in the first stage, registered with the mid-round register; when
                // retimed, read in the second stage and registered with the S-box output
                // register, for AddRoundKey in the stage after it
                reg [127:0] rk_mid_reg, rk_mid_next;

                always @* begin
                    rk_mid_next = rk_mem[set_at[SET_WIDTH*(STAGE_FIRST + RETIMED) +: SET_WIDTH]];
                end

                always @(posedge clk) begin
                    rk_mid_reg <= rk_mid_next;
                end

                assign round_key = rk_mid_reg;
            end else begin : g_rk_comb
                assign round_key = rk_mem[set_at[SET_WIDTH*STAGE_LAST +: SET_WIDTH]];
            end

            // the key size in the round's first stage is the key step's (and, with LUT
            // S-boxes and two stages, the mid-round bypass's)
            wire unused_aes256_first = aes256_first;
            // and the last stage's is the round's AddRoundKey's only when not retimed
            wire unused_aes256_last = aes256_last;
        end else begin : g_sched
            // the on-the-fly key schedule: one aes_key_step, its mid-round registers
            // (two stages per round) and the state register at the end of the round
            wire [KEY_WIDTH-1:0] key_in = key_bus[KEY_WIDTH*(rnd-1) +: KEY_WIDTH];
            wire [31:0]          sub_word;
            wire [31:0]          sub_word_mid;
            wire [KEY_WIDTH-1:0] key_mid;
            wire [KEY_WIDTH-1:0] key_out;

            // the round key as the key step computes it (in the round's last stage)
            wire [127:0]         step_key;

            aes_key_step #(
                .ROUND(rnd),
                .SBOX_IMPL(SBOX_IMPL)
            )
            key_step_inst (
                .clk(clk),
                .last_word(key_in[31:0]),
                .aes256_in(aes256_first),
                .sub_word_out(sub_word),
                .key_mid(key_mid),
                .aes256_mid(aes256_last),
                .sub_word_in(sub_word_mid),
                .round_key(step_key),
                .key_out(key_out)
            );

            if (RETIMED == 1) begin : g_rk_reg
                // AddRoundKey runs a stage later: the round key waits in a register
                reg [127:0] rk_reg, rk_next;

                always @* begin
                    rk_next = step_key;
                end

                always @(posedge clk) begin
                    rk_reg <= rk_next;
                end

                assign round_key = rk_reg;
            end else begin : g_rk_now
                assign round_key = step_key;
            end

            if (STAGES_PER_ROUND == 2) begin : g_key_mid
                // the schedule state, and (LUT S-boxes) the SubWord result; the block
                // RAM S-boxes register SubWord themselves
                reg [KEY_WIDTH-1:0] key_mid_reg, key_mid_next;

                always @* begin
                    key_mid_next = key_in;
                end

                always @(posedge clk) begin
                    key_mid_reg <= key_mid_next;
                end

                assign key_mid = key_mid_reg;

                if (SBOX_IMPL == 1) begin : g_sub_rom
                    assign sub_word_mid = sub_word;
                end else begin : g_sub_reg
                    reg [31:0] sub_word_mid_reg, sub_word_mid_next;

                    always @* begin
                        sub_word_mid_next = sub_word;
                    end

                    always @(posedge clk) begin
                        sub_word_mid_reg <= sub_word_mid_next;
                    end

                    assign sub_word_mid = sub_word_mid_reg;
                end
            end else begin : g_key_comb
                assign key_mid      = key_in;
                assign sub_word_mid = sub_word;
            end

            if (rnd < ROUNDS) begin : g_key_reg
                reg [KEY_WIDTH-1:0] key_reg, key_next;

                always @* begin
                    key_next = key_out;
                end

                always @(posedge clk) begin
                    key_reg <= key_next;
                end

                assign key_bus[KEY_WIDTH*rnd +: KEY_WIDTH] = key_reg;
            end else begin : g_key_last
                // the schedule state after round 14 is not needed
                wire [KEY_WIDTH-1:0] unused_key_out = key_out;
            end
        end

        if (KEY_TABLE == 1 && rnd < ROUNDS) begin : g_no_key_bus
            assign key_bus[KEY_WIDTH*rnd +: KEY_WIDTH] = {KEY_WIDTH{1'b0}};
        end

        for (lane = 0; lane < LANES; lane = lane + 1) begin : g_lane
            aes_round #(
                .SBOX_IMPL(SBOX_IMPL)
            )
            round_inst (
                .clk(clk),
                .state_in(state_in[128*lane +: 128]),
                .sub_shift_out(sub_shift[128*lane +: 128]),
                .sub_shift_in(data_mid[128*lane +: 128]),
                .final_round(final_round),
                .round_key(round_key),
                .state_out(round_out[128*lane +: 128])
            );
        end

        // the block before the round, one stage later (two stages per round): the
        // AES-128 bypass of rounds 11..14 takes it
        wire [DATA_WIDTH-1:0] bypass;

        if (STAGES_PER_ROUND == 2 && SBOX_IMPL == 1) begin : g_mid_rom
            // retimed: the block RAM's synchronous read is the mid-round register, and a
            // register right behind it (nothing between the block RAM's output and a
            // flip-flop) ends the round; MixColumns/AddRoundKey follow in the next stage.
            // Rounds 11..14 delay the block entering the round by two stages beside it,
            // for the AES-128 bypass
            reg [DATA_WIDTH-1:0] sub_reg, sub_next;

            always @* begin
                sub_next = sub_shift;
            end

            always @(posedge clk) begin
                sub_reg <= sub_next;
            end

            assign data_mid = sub_reg;

            if (rnd > ROUNDS_128) begin : g_bypass
                reg [DATA_WIDTH-1:0] bypass_a_reg, bypass_a_next;
                reg [DATA_WIDTH-1:0] bypass_b_reg, bypass_b_next;

                always @* begin
                    bypass_a_next = state_in;
                    bypass_b_next = bypass_a_reg;
                end

                always @(posedge clk) begin
                    bypass_a_reg <= bypass_a_next;
                    bypass_b_reg <= bypass_b_next;
                end

                assign bypass = bypass_b_reg;
            end else begin : g_no_bypass
                // rounds 1..10 are never bypassed (skip_last is 0)
                assign bypass = data_mid;
            end
        end else if (STAGES_PER_ROUND == 2) begin : g_mid
            // mid-round register: SubBytes/ShiftRows result (or the bypassed block)
            reg [DATA_WIDTH-1:0] data_mid_reg, data_mid_next;
            wire                 skip_first = (rnd > ROUNDS_128) && !aes256_first;

            always @* begin
                data_mid_next = skip_first ? state_in : sub_shift;
            end

            always @(posedge clk) begin
                data_mid_reg <= data_mid_next;
            end

            assign data_mid = data_mid_reg;
            assign bypass   = data_mid_reg;
        end else begin : g_no_mid
            assign data_mid = sub_shift;
            assign bypass   = state_in;
        end

        if (RETIMED == 1) begin : g_out_comb
            // retimed: the round's result is combinational after the S-box output
            // register (the next round's block RAM address, or m_block after round 14)
            assign state_bus[DATA_WIDTH*rnd +: DATA_WIDTH] = skip_last ? bypass : round_out;
        end else begin : g_out_reg
            // end-of-round register (the AES-128 bypass takes the block from before the
            // round: state_in with one stage, the bypassed mid-round register with two)
            reg [DATA_WIDTH-1:0] state_reg, state_next;

            always @* begin
                state_next = skip_last ? bypass : round_out;
            end

            always @(posedge clk) begin
                state_reg <= state_next;
            end

            assign state_bus[DATA_WIDTH*rnd +: DATA_WIDTH] = state_reg;
        end
    end
endgenerate

assign m_valid = valid_reg[LATENCY-1];
assign m_block = state_bus[DATA_WIDTH*ROUNDS +: DATA_WIDTH];
assign m_user  = user_reg[(LATENCY-1)*USER_WIDTH +: USER_WIDTH];

endmodule

`resetall
