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

// Register after nbits zero input bits, as a matrix over the starting register.
function [CRC_W*CRC_W-1:0] crc_state_matrix(input integer nbits);
    integer s, i;
    reg [CRC_W*CRC_W-1:0] m;
    reg [CRC_W-1:0] fb;
    begin
        m = {CRC_W*CRC_W{1'b0}};
        for (i = 0; i < CRC_W; i = i + 1)
            m[i*CRC_W + i] = 1'b1;
        for (s = 0; s < nbits; s = s + 1) begin
            fb = m[0 +: CRC_W];
            for (i = 0; i < CRC_W - 1; i = i + 1)
                m[i*CRC_W +: CRC_W] = m[(i+1)*CRC_W +: CRC_W] ^ ({CRC_W{CRC_POLY[i]}} & fb);
            m[(CRC_W-1)*CRC_W +: CRC_W] = {CRC_W{CRC_POLY[CRC_W-1]}} & fb;
        end
        crc_state_matrix = m;
    end
endfunction

// Register BEFORE nbits zero input bits, as a matrix over the register after them
// (the inverse of crc_state_matrix(nbits)).
function [CRC_W*CRC_W-1:0] crc_unshift_matrix(input integer nbits);
    integer s, i;
    reg [CRC_W*CRC_W-1:0] m;
    reg [CRC_W-1:0] r0;
    begin
        m = {CRC_W*CRC_W{1'b0}};
        for (i = 0; i < CRC_W; i = i + 1)
            m[i*CRC_W + i] = 1'b1;
        for (s = 0; s < nbits; s = s + 1) begin
            r0 = m[(CRC_W-1)*CRC_W +: CRC_W];
            for (i = CRC_W - 1; i > 0; i = i - 1)
                m[i*CRC_W +: CRC_W] = m[(i-1)*CRC_W +: CRC_W] ^ ({CRC_W{CRC_POLY[i-1]}} & r0);
            m[0 +: CRC_W] = r0;
        end
        crc_unshift_matrix = m;
    end
endfunction

// Contribution of CRC_DATA_BITS data bits fed into a zero register and followed by
// nzero zero bits, as a matrix over the data bits.
function [CRC_W*CRC_DATA_BITS-1:0] crc_data_matrix(input integer nzero);
    integer s, i;
    reg [CRC_W*CRC_DATA_BITS-1:0] m;
    reg [CRC_DATA_BITS-1:0] fb;
    begin
        m = {CRC_W*CRC_DATA_BITS{1'b0}};
        for (s = 0; s < CRC_DATA_BITS + nzero; s = s + 1) begin
            fb = m[0 +: CRC_DATA_BITS];
            if (s < CRC_DATA_BITS)
                fb[s] = ~fb[s];
            for (i = 0; i < CRC_W - 1; i = i + 1)
                m[i*CRC_DATA_BITS +: CRC_DATA_BITS] = m[(i+1)*CRC_DATA_BITS +: CRC_DATA_BITS] ^
                                                     ({CRC_DATA_BITS{CRC_POLY[i]}} & fb);
            m[(CRC_W-1)*CRC_DATA_BITS +: CRC_DATA_BITS] = {CRC_DATA_BITS{CRC_POLY[CRC_W-1]}} & fb;
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
