/*
 * ibsec_regmodel.h — the register map of docs/registers.md on top of the C model's
 * engine (ibsec.h), as an ibsec_drv_bus: the driver programs the model through the
 * same register writes it gives the RTL.
 *
 * Commands (CONFIG, KEY_CMD, CTX_CMD) take effect at once (no packets are in flight
 * in the model between calls), so STATUS.BUSY always reads 0; STATUS.ERR and
 * ERR_CODE follow §3.4 in its order.  The counters are the model's count[op][r] for
 * the instance's operation (VERSION.OPEN).
 */
#ifndef IBSEC_REGMODEL_H
#define IBSEC_REGMODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "ibsec.h"
#include "ibsec_drv.h"

typedef struct ibsec_regmodel {
    ibsec_engine *e;
    bool     open;
    uint32_t key_data[8], key_salt;
    uint32_t ctx_match, ctx_cfg, ctx_tx_lo, ctx_tx_hi, ctx_rx_lo, ctx_rx_hi, ctx_thresh;
    uint32_t status;
    uint32_t rd[12];      /* CTX_RD_* snapshot */
    uint32_t cnt_latch;   /* §3.3 */
    uint32_t config;
    uint32_t key_cmd, ctx_cmd; /* the command registers read back (their defined bits) */
} ibsec_regmodel;

/* Attach to an engine (KEY_SLOTS <= 32, CTX_SLOTS <= 256). */
void ibsec_regmodel_init(ibsec_regmodel *m, ibsec_engine *e, bool open);
void ibsec_regmodel_write(void *m, uint32_t addr, uint32_t data);
uint32_t ibsec_regmodel_read(void *m, uint32_t addr);
/* A bus whose callbacks are the two functions above. */
ibsec_drv_bus ibsec_regmodel_bus(ibsec_regmodel *m);

#endif /* IBSEC_REGMODEL_H */
