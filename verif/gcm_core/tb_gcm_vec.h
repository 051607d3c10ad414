/*
 * tb_gcm_vec.h — reader of GCM vector files for the gcm_core bench.
 *
 * A file is a sequence of records; lines starting with '#' and blank lines are ignored:
 *     msg <decimal index>
 *     key <32 or 64 hex digits>      AES-128 or AES-256 key
 *     iv <24 hex digits>             96-bit IV
 *     aad <hex, or - when empty>
 *     pt <hex, or - when empty>
 *     ct <hex, or - when empty>      as long as pt
 *     tag <32 hex digits>            the full 128-bit tag
 *     end
 * Byte strings in standard order (the hex order of SP 800-38D): the first two digits are
 * byte 0.
 */
#ifndef TB_GCM_VEC_H
#define TB_GCM_VEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* longest aad and pt/ct a record may hold, bytes */
#define TB_GCMVEC_MAX_BYTES 8192

typedef struct {
    unsigned long index;
    size_t key_len;
    uint8_t key[32];
    uint8_t iv[12];
    size_t aad_len;
    uint8_t aad[TB_GCMVEC_MAX_BYTES];
    size_t len;
    uint8_t pt[TB_GCMVEC_MAX_BYTES];
    uint8_t ct[TB_GCMVEC_MAX_BYTES];
    uint8_t tag[16];
    unsigned long line;   /* lines read so far (for error messages) */
} tb_gcmvec_rec;

void tb_gcmvec_init(tb_gcmvec_rec *rec);

/* Reads the next record: 1 when read, 0 at a clean end of file, -1 on anything malformed,
 * with "line N: what is wrong" in err. */
int tb_gcmvec_read(FILE *f, tb_gcmvec_rec *rec, char *err, size_t errlen);

#endif
