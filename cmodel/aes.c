/*
 * aes.c — FIPS-197 AES encryption (AES-128 and AES-256), written to be read beside the
 * standard: one static function per step, named as FIPS-197 names it.
 *
 * Representation. The state is 16 bytes in input order; FIPS-197 §3.4 places input byte
 * r + 4c at row r, column c, so a column is 4 consecutive bytes and a row is bytes
 * r, r+4, r+8, r+12. Round keys are kept as 16-byte strings (words w[4r..4r+3] of §5.2
 * laid end to end), so AddRoundKey is a plain byte-wise XOR. Nothing depends on host
 * endianness: there are no word loads, only byte arithmetic.
 *
 * Mathematics. Bytes are elements of GF(2^8) = GF(2)[x] / (x^8 + x^4 + x^3 + x + 1)
 * (§4.2). xtime() is multiplication by x (§4.2.1): shift left, and if the x^7 bit fell
 * off, XOR 0x1b. MixColumns (§5.1.3) multiplies each column by
 * a(x) = {03}x^3 + {01}x^2 + {01}x + {02}, written out as the four row equations of the
 * standard with {02}·b = xtime(b) and {03}·b = xtime(b) ^ b.
 *
 * S-box. The table below is written out: it is Fig. 7 of FIPS-197, and it was produced
 * from the definition in §5.1.1 (multiplicative inverse in GF(2^8), 0 mapped to 0,
 * followed by the affine transformation b ^ rotl(b,1..4) ^ 0x63) rather than typed, and
 * cmodel/test/test_gcm_kat.c recomputes all 256 entries from that definition and checks
 * the table. Rejected: computing the table at start-up (it needs an init call or hidden
 * mutable global state in a library that is otherwise pure), and a bitsliced or
 * tower-field S-box as BearSSL's aes_ct64 uses (constant-time, but the point of this
 * file is to be the obviously-correct reference the RTL is compared against). Table
 * lookups indexed by secret bytes are NOT constant-time against cache-timing attacks:
 * this is a reference model for simulation, not an implementation to protect real keys.
 *
 * Key expansion (§5.2) follows the standard word by word: temp = w[i-1]; every Nk words
 * temp = SubWord(RotWord(temp)) ^ Rcon[i/Nk]; for Nk = 8 also temp = SubWord(temp) when
 * i mod Nk = 4; w[i] = w[i-Nk] ^ temp. Rcon[j] = x^(j-1) in GF(2^8), computed with
 * xtime rather than tabulated.
 */
#include "aes.h"

#include <string.h>

/* FIPS-197 §5.1.1, Fig. 7: S-box, indexed by the byte value (row = high nibble). */
static const uint8_t sbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
};

/* FIPS-197 §5.1.1: one S-box lookup (for tests and harnesses). */
uint8_t ibsec_aes_sbox(uint8_t x)
{
    return sbox[x];
}

/* FIPS-197 §4.2.1: b·x in GF(2^8), reduced by m(x) = x^8 + x^4 + x^3 + x + 1 ({11b}). */
static uint8_t xtime(uint8_t b)
{
    return (uint8_t)((b << 1) ^ ((b & 0x80) ? 0x1b : 0x00));
}

/* FIPS-197 §5.1.1 SubBytes: the S-box applied to every state byte. */
static void sub_bytes(uint8_t s[16])
{
    for (int i = 0; i < 16; i++)
        s[i] = sbox[s[i]];
}

/* FIPS-197 §5.1.2 ShiftRows: row r is rotated left by r columns,
 * s'[r][c] = s[r][(c + r) mod 4], with s[r][c] at byte r + 4c. */
static void shift_rows(uint8_t s[16])
{
    uint8_t t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];
    memcpy(s, t, 16);
}

/* FIPS-197 §5.1.3 MixColumns: each column (bytes 4c..4c+3) times
 * a(x) = {03}x^3 + {01}x^2 + {01}x + {02} modulo x^4 + 1 (equation 5.6). */
static void mix_columns(uint8_t s[16])
{
    for (int c = 0; c < 4; c++) {
        uint8_t *col = &s[4 * c];
        uint8_t a0 = col[0], a1 = col[1], a2 = col[2], a3 = col[3];
        col[0] = (uint8_t)(xtime(a0) ^ (xtime(a1) ^ a1) ^ a2 ^ a3);
        col[1] = (uint8_t)(a0 ^ xtime(a1) ^ (xtime(a2) ^ a2) ^ a3);
        col[2] = (uint8_t)(a0 ^ a1 ^ xtime(a2) ^ (xtime(a3) ^ a3));
        col[3] = (uint8_t)((xtime(a0) ^ a0) ^ a1 ^ a2 ^ xtime(a3));
    }
}

/* FIPS-197 §5.1.4 AddRoundKey: state XOR round key. */
static void add_round_key(uint8_t s[16], const uint8_t rk[16])
{
    for (int i = 0; i < 16; i++)
        s[i] ^= rk[i];
}

/* FIPS-197 §5.1, Fig. 5: round r of Nr. The final round omits MixColumns. */
static void aes_round(uint8_t s[16], const uint8_t rk[16], int is_final)
{
    sub_bytes(s);
    shift_rows(s);
    if (!is_final)
        mix_columns(s);
    add_round_key(s, rk);
}

/* FIPS-197 §5.2 SubWord: the S-box on each byte of a 4-byte word. */
static void sub_word(uint8_t w[4])
{
    for (int i = 0; i < 4; i++)
        w[i] = sbox[w[i]];
}

/* FIPS-197 §5.2 RotWord: [a0,a1,a2,a3] -> [a1,a2,a3,a0]. */
static void rot_word(uint8_t w[4])
{
    uint8_t a0 = w[0];
    w[0] = w[1];
    w[1] = w[2];
    w[2] = w[3];
    w[3] = a0;
}

/* FIPS-197 §5.2 KeyExpansion into words w[0 .. 4(Nr+1)-1], 4 bytes each. */
static void key_expansion(const uint8_t *key, int nk, int nr, uint8_t w[60][4])
{
    uint8_t rcon = 0x01; /* Rcon[i/Nk] = [x^(i/Nk - 1), 0, 0, 0] */
    for (int i = 0; i < nk; i++)
        memcpy(w[i], key + 4 * i, 4);
    for (int i = nk; i < 4 * (nr + 1); i++) {
        uint8_t temp[4];
        memcpy(temp, w[i - 1], 4);
        if (i % nk == 0) {
            rot_word(temp);
            sub_word(temp);
            temp[0] ^= rcon;
            rcon = xtime(rcon);
        } else if (nk > 6 && i % nk == 4) {
            sub_word(temp);
        }
        for (int j = 0; j < 4; j++)
            w[i][j] = (uint8_t)(w[i - nk][j] ^ temp[j]);
    }
}

/* FIPS-197 §5.2 KeyExpansion, stored as round keys: rk[r] = w[4r] || .. || w[4r+3]
 * (Nk = 4, Nr = 10 for a 16-byte key; Nk = 8, Nr = 14 for a 32-byte key; §5, Fig. 4). */
int ibsec_aes_key_expand(ibsec_aes_key *k, const uint8_t *key, size_t key_len)
{
    uint8_t w[60][4];
    int nk;

    if (k == NULL)
        return -1;
    memset(k, 0, sizeof(*k));
    if (key == NULL)
        return -1;
    if (key_len == 16) {
        nk = 4;
        k->nr = IBSEC_AES128_ROUNDS;
    } else if (key_len == 32) {
        nk = 8;
        k->nr = IBSEC_AES256_ROUNDS;
    } else {
        return -1;
    }
    key_expansion(key, nk, k->nr, w);
    for (int r = 0; r <= k->nr; r++)
        for (int j = 0; j < 4; j++)
            memcpy(&k->rk[r][4 * j], w[4 * r + j], 4);
    memset(w, 0, sizeof(w));
    return 0;
}

/* FIPS-197 §5.1 Cipher (Fig. 5), recording the state after the initial AddRoundKey and
 * after each round: the values the RTL pipeline's stage registers hold. */
void ibsec_aes_encrypt_trace(const ibsec_aes_key *k, const uint8_t in[16], uint8_t st[15][16])
{
    uint8_t s[16];
    memcpy(s, in, 16);
    add_round_key(s, k->rk[0]);
    memcpy(st[0], s, 16);
    for (int r = 1; r <= k->nr; r++) {
        aes_round(s, k->rk[r], r == k->nr);
        memcpy(st[r], s, 16);
    }
}

/* FIPS-197 §5.1 Cipher (Fig. 5): AddRoundKey(rk[0]), rounds 1..Nr-1, the final round. */
void ibsec_aes_encrypt_block(const ibsec_aes_key *k, const uint8_t in[16], uint8_t out[16])
{
    uint8_t s[16];
    memcpy(s, in, 16);
    add_round_key(s, k->rk[0]);
    for (int r = 1; r <= k->nr; r++)
        aes_round(s, k->rk[r], r == k->nr);
    memcpy(out, s, 16);
}
