/*
 * ibsec_drv.h — the ibsec driver: turns an established connection into the register
 * writes of docs/registers.md for a seal and an open engine, and tears it down.
 *
 * The driver never touches an engine directly: it calls a register-access callback
 * (write(addr, data), read(addr)) for each 32-bit register, so the same code programs
 * the C model (ibsec_regmodel.h), a Verilator bench or a device.  It follows the
 * register sequences of docs/registers.md §3.5 (keys) and §3.6 (contexts), waits for
 * STATUS.BUSY = 0 after each command (§2) and reads STATUS.ERR / ERR_CODE (§3.4).
 *
 * One connection uses, on each endpoint, one key slot in each engine (the same key
 * in both, wire-format.md §5: the two directions differ by the EPSN direction bit),
 * a seal context selected by the peer's QPN (the DestQP of the packets it sends) and
 * an open context selected by the local QPN (the DestQP of the packets it receives).
 * Teardown clears both contexts and both key slots and overwrites the key staging
 * registers with zeros, which read back (§3.5), so no key byte stays in the engine.
 */
#ifndef IBSEC_DRV_H
#define IBSEC_DRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The register map (IBSEC_REG_*, fields, codes): generated from rtl/engine/ibsec_regs.rdl. */
#include "ibsec_regs_map.h"

#define DRV_MAX_KEY_SLOTS       32u
#define DRV_MAX_CTX_SLOTS       256u
#define DRV_BUSY_POLL_LIMIT     100000u

/* The register-access callback of one engine. */
typedef struct ibsec_drv_bus {
    void     *ctx;
    void     (*write)(void *ctx, uint32_t addr, uint32_t data);
    uint32_t (*read)(void *ctx, uint32_t addr);
} ibsec_drv_bus;

/* Named errors. */
enum ibsec_drv_err {
    DRV_OK = 0,
    DRV_ERR_BAD_ID,        /* ID register is not "IBSC" */
    DRV_ERR_WRONG_ROLE,    /* VERSION.OPEN is not what the caller expected */
    DRV_ERR_NO_KEY_SLOT,   /* every key slot is in use */
    DRV_ERR_NO_CTX_SLOT,   /* every context is in use */
    DRV_ERR_BUSY_TIMEOUT,  /* STATUS.BUSY never fell */
    DRV_ERR_REFUSED,       /* the engine refused a command (err_code says why) */
    DRV_ERR_READBACK,      /* a context read back differs from what was written */
    DRV_ERR_BAD_ARG,       /* key length, mode or QPN out of range */
    DRV_ERR_COUNT
};
const char *ibsec_drv_err_name(enum ibsec_drv_err e);

/* One engine as the driver sees it: its bus, its sizes and what is allocated. */
typedef struct ibsec_drv_engine {
    ibsec_drv_bus bus;
    bool     open;                 /* VERSION.OPEN */
    unsigned key_slots, ctx_slots; /* CAPS */
    uint32_t key_used;             /* bit s: slot s allocated (or quarantined) */
    uint8_t  ctx_used[DRV_MAX_CTX_SLOTS];
    uint32_t key_quarantine;       /* bit s: slot s's clear was refused or timed out */
    uint8_t  ctx_quarantine[DRV_MAX_CTX_SLOTS]; /* the same for contexts */
    unsigned n_quarantined;        /* key slots + contexts in quarantine now */
    unsigned last_err_code;        /* STATUS.ERR_CODE of the last refused command */
    uint64_t writes, reads;        /* bus operations issued */
} ibsec_drv_engine;

/* What an established connection needs in the engines of one endpoint. */
typedef struct ibsec_drv_conn_cfg {
    unsigned mode;          /* enum ibsec_mode */
    unsigned sth_code;      /* 1 or 2 for sth-*, 0 otherwise */
    uint8_t  key[32];
    size_t   key_len;       /* 16 or 32 */
    uint8_t  salt[4];
    unsigned dir;           /* EPSN bit 63 this endpoint sends with */
    uint32_t local_qpn;     /* open context selector */
    uint32_t remote_qpn;    /* seal context selector */
    uint64_t tx_epsn;       /* first EPSN this endpoint sends (its starting PSN) */
    uint64_t rx_epsn;       /* first EPSN it accepts (the peer's starting PSN) */
    uint32_t alert_threshold;
} ibsec_drv_conn_cfg;

/* Where a connection lives in the two engines. */
typedef struct ibsec_drv_conn {
    bool     live;
    unsigned seal_key, open_key;   /* key slots */
    unsigned seal_ctx, open_ctx;   /* context indices */
} ibsec_drv_conn;

/* Read ID, VERSION and CAPS; want_open says which role the engine must have. */
enum ibsec_drv_err ibsec_drv_attach(ibsec_drv_engine *e, const ibsec_drv_bus *bus, bool want_open);

/* Program a connection into a seal and an open engine (keys §3.5, contexts §3.6, each
 * context read back).  On any error nothing stays programmed. */
enum ibsec_drv_err ibsec_drv_conn_program(ibsec_drv_engine *seal, ibsec_drv_engine *open,
                                          const ibsec_drv_conn_cfg *cfg, ibsec_drv_conn *conn);

/* Clear the connection's contexts and key slots, zero the key staging registers.  A key
 * slot or context whose clear the engine refuses or never finishes is not freed: it stays
 * allocated, marked in key_quarantine / ctx_quarantine (it may still hold the key), and
 * the first such error is returned; the connection is no longer live either way. */
enum ibsec_drv_err ibsec_drv_conn_teardown(ibsec_drv_engine *seal, ibsec_drv_engine *open,
                                           ibsec_drv_conn *conn);
/* Try to clear every quarantined key slot and context of an engine again; those that
 * clear are freed.  DRV_OK if none is left, else the first error. */
enum ibsec_drv_err ibsec_drv_retry_quarantine(ibsec_drv_engine *e);

/* How many more connections fit: the fewest free key slots or contexts of the two. */
unsigned ibsec_drv_free_conns(const ibsec_drv_engine *seal, const ibsec_drv_engine *open);

/* Read a 64-bit per-reason counter (LO then HI, §3.3). */
uint64_t ibsec_drv_counter(ibsec_drv_engine *e, unsigned reason);

#endif /* IBSEC_DRV_H */
