/*
 * gcmvec.h — the GCM harness vector file (docs/gcm-vectors.md): AES-GCM messages with
 * their ciphertext and tag, one text record each, written by build/bin/ibsec_gcmvec and
 * read by the tests and by the RTL gcm_core bench.
 *
 * A record (fields in this order, lower-case hex, '-' for an empty string):
 *     msg <decimal index>
 *     key <32 or 64 hex digits>          AES-128 or AES-256 key
 *     iv <24 hex digits>                 96-bit IV (SP 800-38D §8.2.1)
 *     aad <hex or ->                     additional authenticated data A
 *     pt <hex or ->                      plaintext P
 *     ct <hex or ->                      ciphertext C, as long as P
 *     tag <32 hex digits>                the full 128-bit tag T
 *     end
 * The file opens with the line "# ibsec gcm vectors v1"; other lines starting with '#'
 * and blank lines are ignored anywhere.
 *
 * Byte strings are in standard order (the hex order of SP 800-38D and of the published
 * GCM test cases): the first two hex digits are byte 0, which the RTL carries in
 * tdata[7:0] of its AXI4-Stream ports (docs/conventions.md).
 */
#ifndef IBSEC_GCMVEC_H
#define IBSEC_GCMVEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" { /* usable from a Verilator C++ harness as well (rng.h included) */
#endif

#include "rng.h"

/* Longest aad and pt/ct a record may hold, bytes (the reader rejects longer ones). */
#define IBSEC_GCMVEC_MAX_BYTES 8192
/* The generator's random messages: data 0..4200 bytes (an InfiniBand 4096-byte MTU plus
 * headers), AAD 0..100 bytes. */
#define IBSEC_GCMVEC_RANDOM_MAX_LEN 4200
#define IBSEC_GCMVEC_RANDOM_MAX_AAD 100
/* Number of published test cases the generator writes first (McGrew & Viega, "The
 * Galois/Counter Mode of Operation", Appendix B, Test Cases 1-4 and 13-16). */
#define IBSEC_GCMVEC_PUBLISHED 8
/* Random records at the start of the random part whose shape is fixed (every data length
 * 0..64 at both key sizes, then two AAD-only messages); see ibsec_gcmvec_random. */
#define IBSEC_GCMVEC_SWEEP_RECORDS 132

/* The first line of every vector file. */
#define IBSEC_GCMVEC_MAGIC "# ibsec gcm vectors v1"

typedef struct ibsec_gcmvec_rec {
    unsigned long index;                 /* msg */
    size_t key_len;                      /* 16 or 32 */
    uint8_t key[32];
    uint8_t iv[12];
    size_t aad_len;
    uint8_t aad[IBSEC_GCMVEC_MAX_BYTES];
    size_t len;                          /* of pt and of ct */
    uint8_t pt[IBSEC_GCMVEC_MAX_BYTES];
    uint8_t ct[IBSEC_GCMVEC_MAX_BYTES];
    uint8_t tag[16];
    unsigned long line;                  /* reader state: lines read so far from the file */
} ibsec_gcmvec_rec;

/* Zeroes a record; call before the first ibsec_gcmvec_read_next of a file. */
void ibsec_gcmvec_rec_init(ibsec_gcmvec_rec *rec);

/* Reads the next record of a vector file. Pass the same rec for every call on the same
 * file (it keeps the line count, rec->line, which error messages quote). The first call
 * also checks the file's first line. Returns 1 and fills rec when a record was read,
 * 0 at a clean end of file, -1 on anything malformed (bad hex, upper-case hex, a missing
 * or unexpected field, a wrong key / IV / tag length, ct not as long as pt, a value too
 * long, a record cut off by the end of file, a read error), with
 * "line N: what is wrong" in err (errlen bytes, may be 0). */
int ibsec_gcmvec_read_next(FILE *f, ibsec_gcmvec_rec *rec, char *err, size_t errlen);

/* Writes rec as one record (msg .. end). 0 ok, -1 on a write error or a record the
 * format cannot hold (key length not 16/32, a length above IBSEC_GCMVEC_MAX_BYTES). */
int ibsec_gcmvec_write(FILE *f, const ibsec_gcmvec_rec *rec);

/* Published test case i (0 .. IBSEC_GCMVEC_PUBLISHED-1), with its published ciphertext
 * and tag; index = i. Returns -1 when i is out of range. `name` (may be NULL) receives
 * the case's name, e.g. "McGrew-Viega GCM Test Case 3 (AES-128)". */
int ibsec_gcmvec_published(unsigned i, ibsec_gcmvec_rec *rec, const char **name);

/* The inputs (key, IV, AAD, plaintext) of random record i (0-based within the random part)
 * drawn from r; ct and tag are left to ibsec_gcmvec_seal. The shape follows i:
 *   - AES-128 for even i, AES-256 for odd i;
 *   - i < 130: data length i / 2 (every length 0..64 at both key sizes), AAD empty when
 *     that length is a multiple of 8 (so both empty for length 0), else 1..100 bytes;
 *   - i = 130, 131: no data, AAD 1..100 bytes (GMAC only);
 *   - later: data length uniform in 0..4200, AAD length uniform in 0..100. */
void ibsec_gcmvec_random(ibsec_rng *r, unsigned long i, ibsec_gcmvec_rec *rec);

/* Fills rec->ct and rec->tag with the model (ibsec_gcm_seal, 16-byte tag). 0 ok, -1 if
 * the model refuses the inputs. */
int ibsec_gcmvec_seal(ibsec_gcmvec_rec *rec);

/* Writes a whole vector file: the magic line and a comment naming seed and count, the
 * IBSEC_GCMVEC_PUBLISHED published cases (re-sealed with the model, which must reproduce
 * the published ciphertext and tag), then `count` random records numbered on from there,
 * drawn from ibsec_rng seeded with `seed`. 0 ok; -1 on a write error or a model result
 * that differs from a published one, with the reason in err. */
int ibsec_gcmvec_generate(FILE *f, uint64_t seed, unsigned long count, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
