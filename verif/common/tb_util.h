/*
 * tb_util.h — shared C side of every ibsec Verilator bench.
 *
 * - A small deterministic PRNG (xorshift64*), so every bench is reproducible from a seed.
 * - Check helpers that count passes and failures, print both values on a mismatch
 *   (the first TB_MAX_REPORTS of them), and the closing "N passed, N failed" line.
 * - Packing of byte strings into Verilator's wide signals (arrays of 32-bit words,
 *   word 0 holding bits [31:0]) in the two orders of docs/conventions.md:
 *   AXI4-Stream order (byte j at bits [8j+7:8j]) and big-endian block order
 *   (byte 0 of a 16-byte block at bits [127:120]).
 */
#ifndef TB_UTIL_H
#define TB_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define TB_MAX_REPORTS 10

typedef struct {
    uint64_t s;
} tb_rng;

void     tb_rng_seed(tb_rng *r, uint64_t seed);
uint64_t tb_rand64(tb_rng *r);
uint32_t tb_rand32(tb_rng *r);
/* uniform in [lo, hi] inclusive */
uint32_t tb_rand_range(tb_rng *r, uint32_t lo, uint32_t hi);
/* 1 with probability pct/100 */
int      tb_chance(tb_rng *r, unsigned pct);
void     tb_rand_bytes(tb_rng *r, uint8_t *p, size_t n);

typedef struct {
    const char *name;
    unsigned long passed;
    unsigned long failed;
} tb_result;

void tb_result_init(tb_result *res, const char *name);
/* counts one check; on mismatch prints what/expected/got (hex) and returns 0 */
int  tb_check_bytes(tb_result *res, const char *what, const uint8_t *exp, const uint8_t *got, size_t n);
int  tb_check_u64(tb_result *res, const char *what, uint64_t exp, uint64_t got);
void tb_fail(tb_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tb_pass(tb_result *res);
/* prints "name: N passed, N failed" and returns the process exit code (0 when none failed) */
int  tb_summary(const tb_result *res);

void tb_hex(char *out, const uint8_t *p, size_t n); /* out must hold 2n+1 */

/* AXI4-Stream order: byte j of `bytes` -> bits [8j+7:8j] of the wide word array */
void tb_pack_axis(uint32_t *words, size_t nwords, const uint8_t *bytes, size_t nbytes);
void tb_unpack_axis(uint8_t *bytes, size_t nbytes, const uint32_t *words);
/* Input beat `beat_idx` of a frame of n bytes on a bus of bpb bytes per beat (at most 192):
 * data words (4 per 16 bytes) and a prefix tkeep of ceil(bpb / 32) words. Bytes past the
 * frame's end are undefined on the bus, so they are filled with noise from r. Returns 1 when
 * this beat is the frame's last (tlast). */
int tb_axis_frame_beat(tb_rng *r, const uint8_t *frame, size_t n, size_t beat_idx, unsigned bpb,
                       uint32_t *data, uint32_t *keep);
/* Valid bytes of a beat: the length of tkeep's prefix of ones (at most bpb). */
unsigned tb_axis_keep_bytes(const uint32_t *keep, unsigned bpb);
/* big-endian 128-bit block at bit offset 128*lane: byte 0 -> bits [128*lane+127 : 128*lane+120] */
void tb_pack_block_be(uint32_t *words, unsigned lane, const uint8_t block[16]);
void tb_unpack_block_be(uint8_t block[16], const uint32_t *words, unsigned lane);

#endif
