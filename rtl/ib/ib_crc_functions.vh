/*
 * ib_crc_functions.vh — elaboration-time algebra of a reflected CRC, shared by the CRC
 * blocks (ib_crc_stream, ib_vcrc_extend4). Included inside a module body; the module
 * defines the localparams
 *   CRC_W          register width (32 for the ICRC, 16 for the VCRC)
 *   CRC_POLY       the polynomial bit-reversed, [CRC_W-1:0] (0xEDB88320, 0xD008)
 *   CRC_DATA_BITS  width of the data vectors handled by crc_data_matrix / crc_apply_data
 *
 * The definition (cmodel/crc.c, docs/packets.md §2-3): the register shifts right; each
 * input bit d enters at bit 0, least significant bit of a byte first:
 *     fb = r[0] ^ d;   r = (r >> 1) ^ (fb ? CRC_POLY : 0).
 * Byte j of an AXI4-Stream vector is [8j+7:8j], so stream bit n = vector bit n: the bits
 * enter in increasing vector order.
 *
 * Every map from (register, data) to the register after the data is linear over GF(2).
 * A matrix is a flat vector of CRC_W rows; row i, [i*COLS +: COLS], is the mask of the
 * input bits whose XOR gives output bit i. The matrices are built by running the
 * bit-serial definition on masks instead of bits (row i of the running "register" holds
 * the mask of inputs that bit i currently depends on), so nothing is tabulated by hand.
 *
 * Inverse step (used to take back zero bytes): CRC_POLY[CRC_W-1] must be 1 (true for
 * both IBA CRCs, whose polynomials have a constant term). Then after a zero-input step
 * r'[CRC_W-1] = r[0], and r[i] = r'[i-1] ^ (CRC_POLY[i-1] & r[0]) for i >= 1.
 */

// Elaboration speed: every step below updates the whole matrix with a few vector
// operations (a shift by one row and one masked XOR) instead of a loop over the rows, so
// that synthesis front ends that interpret constant functions slowly (Yosys) elaborate
// LANES = 12 in seconds.

// Register after nbits zero input bits, as a matrix over the starting register: per
// step, row i <- row i+1 ^ (CRC_POLY[i] ? row 0 : 0), with a zero row above the top one.
function [CRC_W*CRC_W-1:0] crc_state_matrix(input integer nbits);
    integer s, i;
    reg [CRC_W*CRC_W-1:0] m, poly_rows, fb_rows;
    begin
        m = {CRC_W*CRC_W{1'b0}};
        for (i = 0; i < CRC_W; i = i + 1)
            m[i*CRC_W + i] = 1'b1;
        // row i all ones where CRC_POLY[i] is set: the rows the feedback goes into
        poly_rows = {CRC_W*CRC_W{1'b0}};
        for (i = 0; i < CRC_W; i = i + 1)
            if (CRC_POLY[i])
                poly_rows[i*CRC_W +: CRC_W] = {CRC_W{1'b1}};
        for (s = 0; s < nbits; s = s + 1) begin
            fb_rows = {CRC_W{m[0 +: CRC_W]}};
            m = (m >> CRC_W) ^ (poly_rows & fb_rows);
        end
        crc_state_matrix = m;
    end
endfunction

// Register BEFORE nbits zero input bits, as a matrix over the register after them (the
// inverse of crc_state_matrix(nbits)): per step, with r0 = the top row, row 0 <- r0 and
// row i <- row i-1 ^ (CRC_POLY[i-1] ? r0 : 0).
function [CRC_W*CRC_W-1:0] crc_unshift_matrix(input integer nbits);
    integer s, i;
    reg [CRC_W*CRC_W-1:0] m, poly_rows, r0_rows;
    begin
        m = {CRC_W*CRC_W{1'b0}};
        for (i = 0; i < CRC_W; i = i + 1)
            m[i*CRC_W + i] = 1'b1;
        // row 0 and the rows i where CRC_POLY[i-1] is set receive r0
        poly_rows = {CRC_W*CRC_W{1'b0}};
        poly_rows[0 +: CRC_W] = {CRC_W{1'b1}};
        for (i = 1; i < CRC_W; i = i + 1)
            if (CRC_POLY[i - 1])
                poly_rows[i*CRC_W +: CRC_W] = {CRC_W{1'b1}};
        for (s = 0; s < nbits; s = s + 1) begin
            r0_rows = {CRC_W{m[(CRC_W-1)*CRC_W +: CRC_W]}};
            m = (m << CRC_W) ^ (poly_rows & r0_rows);
        end
        crc_unshift_matrix = m;
    end
endfunction

// Contribution of CRC_DATA_BITS data bits fed into a zero register and followed by
// nzero zero bits, as a matrix over the data bits (data bit s enters in step s).
function [CRC_W*CRC_DATA_BITS-1:0] crc_data_matrix(input integer nzero);
    integer s, i;
    reg [CRC_W*CRC_DATA_BITS-1:0] m, poly_rows;
    reg [CRC_DATA_BITS-1:0] fb;
    begin
        m = {CRC_W*CRC_DATA_BITS{1'b0}};
        poly_rows = {CRC_W*CRC_DATA_BITS{1'b0}};
        for (i = 0; i < CRC_W; i = i + 1)
            if (CRC_POLY[i])
                poly_rows[i*CRC_DATA_BITS +: CRC_DATA_BITS] = {CRC_DATA_BITS{1'b1}};
        for (s = 0; s < CRC_DATA_BITS + nzero; s = s + 1) begin
            fb = m[0 +: CRC_DATA_BITS];
            if (s < CRC_DATA_BITS)
                fb[s] = ~fb[s];
            m = (m >> CRC_DATA_BITS) ^ (poly_rows & {CRC_W{fb}});
        end
        crc_data_matrix = m;
    end
endfunction

// Matrix times register: bit i = XOR of the register bits selected by row i.
function [CRC_W-1:0] crc_apply_state(input [CRC_W*CRC_W-1:0] m, input [CRC_W-1:0] v);
    integer i;
    begin
        for (i = 0; i < CRC_W; i = i + 1)
            crc_apply_state[i] = ^(m[i*CRC_W +: CRC_W] & v);
    end
endfunction

// Matrix times data vector.
function [CRC_W-1:0] crc_apply_data(input [CRC_W*CRC_DATA_BITS-1:0] m,
                                    input [CRC_DATA_BITS-1:0] v);
    integer i;
    begin
        for (i = 0; i < CRC_W; i = i + 1)
            crc_apply_data[i] = ^(m[i*CRC_DATA_BITS +: CRC_DATA_BITS] & v);
    end
endfunction

// Register after nbits input bits all equal to `bit_value`, from register r (constants).
function [CRC_W-1:0] crc_shift_value(input [CRC_W-1:0] r, input integer nbits,
                                     input bit_value);
    integer s;
    reg [CRC_W-1:0] v;
    reg fb;
    begin
        v = r;
        for (s = 0; s < nbits; s = s + 1) begin
            fb = v[0] ^ bit_value;
            v = (v >> 1) ^ ({CRC_W{fb}} & CRC_POLY);
        end
        crc_shift_value = v;
    end
endfunction
