/*
 * aes.h — FIPS-197 AES-128 / AES-256 block encryption, the golden model of rtl/crypto/aes_pipeline.v.
 *
 * Byte order: every block, key and round key is a byte string in FIPS-197 order, the
 * order of the standard's hex strings (byte 0 = the leftmost two hex digits). The
 * 16-byte state is held as FIPS-197 §3.4 maps the input onto it: state s[r][c] is byte
 * r + 4c, i.e. the bytes go down the columns. In the RTL's big-endian block vector
 * (docs/conventions.md) byte 0 is [127:120], so a state printed with "%032x" reads the
 * same as the values of FIPS-197 Appendix C.
 *
 * Only encryption is modelled: GCM uses the forward cipher alone (SP 800-38D §5.1).
 * See aes.c for the representation choices and the S-box.
 */
#ifndef IBSEC_AES_H
#define IBSEC_AES_H

#include <stddef.h>
#include <stdint.h>

/* Number of rounds Nr (FIPS-197 §5, Fig. 4): 10 for AES-128, 14 for AES-256. */
#define IBSEC_AES128_ROUNDS 10
#define IBSEC_AES256_ROUNDS 14

/* Expanded key: nr rounds, round keys rk[0..nr] (round key r = words w[4r..4r+3] of
 * FIPS-197 §5.2, as 16 bytes). Entries above nr are zero. */
typedef struct {
    int nr;
    uint8_t rk[15][16];
} ibsec_aes_key;

/* FIPS-197 §5.2 KeyExpansion. key_len 16 (AES-128) or 32 (AES-256); 0 ok, -1 bad
 * length or null pointer (k is then left zeroed when non-null). */
int ibsec_aes_key_expand(ibsec_aes_key *k, const uint8_t *key, size_t key_len);

/* FIPS-197 §5.1 Cipher: out = AES_K(in). in and out may alias. */
void ibsec_aes_encrypt_block(const ibsec_aes_key *k, const uint8_t in[16], uint8_t out[16]);

/* The same cipher, keeping the state at each round boundary as the RTL pipeline holds
 * it: st[0] = in ^ rk[0] (the initial AddRoundKey), st[r] = the state after round r,
 * r = 1..nr, so st[nr] is the ciphertext. These are FIPS-197 Appendix C's
 * "round[r+1].start" values (st[r]) and its "round[Nr].output" (st[nr]). Entries above
 * nr are left untouched. */
void ibsec_aes_encrypt_trace(const ibsec_aes_key *k, const uint8_t in[16], uint8_t st[15][16]);

/* FIPS-197 §5.1.1 S-box, one byte (exposed so that tests can check the table against
 * its definition, and harnesses can check an RTL S-box variant). */
uint8_t ibsec_aes_sbox(uint8_t x);

#endif
