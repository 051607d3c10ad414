/*
 * keyfile.h — the ibsec key file: a text description of one endpoint's engine
 * configuration (key table, context table, plain-traffic switch), read and
 * written by the command-line tools and the test harnesses.
 *
 * The format is specified in docs/keyfile.md.  In short:
 *
 *   ibsec-keys 1                 header: format name and version (first line)
 *   side a                       the endpoint the contexts describe (a | b)
 *   tables 8 16                  key entries, context entries
 *   allow_plain on               mode-none packets without a context pass
 *   mask_mf on                   mask the DDPM Marking Field in ICRC and AAD
 *   key 0 aes128 <32 hex> salt <8 hex>
 *   ctx 0 qp 0x12 mode sth-aead key 0 sth 128 dir 0 tx_next 0 rx_next 0 alert 8
 *
 * The peer endpoint (side b of a file written for side a) is derived, not
 * written: ibsec_engine_make_peer() inverts every context's direction bit and
 * swaps its transmit and receive EPSNs (docs/wire-format.md §9).
 *
 * The reader never trusts the file: every malformed line is refused with a
 * message "<file>:<line>: <what is wrong>" and nothing is loaded.
 */
#ifndef IBSEC_KEYFILE_H
#define IBSEC_KEYFILE_H

#include <stddef.h>
#include <stdio.h>

#include "ibsec.h"

#define IBSEC_KEYFILE_MAGIC   "ibsec-keys"
#define IBSEC_KEYFILE_VERSION 1u
#define IBSEC_KEYFILE_MAX_KEYS 4096u  /* largest key table a file may declare */
#define IBSEC_KEYFILE_MAX_CTX  65536u /* largest context table a file may declare */
#define IBSEC_KEYFILE_LINE_MAX 1024u  /* longest accepted line, newline included */

/* Which endpoint to load: the one the file describes, or a named side. */
enum ibsec_keyfile_side {
    IBSEC_SIDE_AS_WRITTEN = 0,  /* whatever the file's `side` line says */
    IBSEC_SIDE_A = 'a',
    IBSEC_SIDE_B = 'b',
    IBSEC_SIDE_PEER = 'p'       /* the other side than the file's `side` line */
};

/* Read a key file from f (`name` is used in messages) into e, which must not be
 * initialised: the engine is created with the file's table sizes and `lanes`
 * (ibsec_engine_init).  If `want` names the side the file does not describe
 * (or is IBSEC_SIDE_PEER), the peer is derived with ibsec_engine_make_peer().  *side_out (optional)
 * receives the side loaded ('a' or 'b').  Returns 0, or -1 with a one-line
 * message in err[0..errlen) and e left uninitialised (zeroed). */
int ibsec_keyfile_read(FILE *f, const char *name, ibsec_engine *e, int lanes,
                       enum ibsec_keyfile_side want, char *side_out,
                       char *err, size_t errlen);

/* Load `path` as written with lanes = 1 (the common case).  0 / -1 as above;
 * an unreadable file is reported as "<path>: <strerror>". */
int ibsec_keyfile_load(const char *path, ibsec_engine *e, char *err, size_t errlen);

/* Load `path` choosing the side and the GHASH lane count. */
int ibsec_keyfile_load_side(const char *path, ibsec_engine *e, int lanes,
                            enum ibsec_keyfile_side want, char *side_out,
                            char *err, size_t errlen);

/* Write the configuration of e (valid keys, valid contexts as configured — not
 * their live EPSN state — allow_plain, and mask_mf when on) as a key file for side `side`
 * ('a' or 'b'), preceded by the comment lines `comment` (may be NULL; each of
 * its lines is prefixed with "# ").  Returns 0, or -1 with err set. */
int ibsec_keyfile_write(FILE *f, const ibsec_engine *e, char side, const char *comment,
                        char *err, size_t errlen);
/* Same, creating `path`. */
int ibsec_keyfile_save(const char *path, const ibsec_engine *e, char side,
                       const char *comment, char *err, size_t errlen);

#endif /* IBSEC_KEYFILE_H */
