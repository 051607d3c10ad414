/*
 * tb_regs.h — the bench's register driver: one agent per engine instance that runs
 * queued bus operations on the request/acknowledge bus of docs/registers.md §1, one at a
 * time, while the harness clocks the bench, and the register sequences of §3 (key install
 * and clear, context write and read-back, CONFIG, counters), each a command whose packet
 * boundary (CMD_DECIDED, §2) the harness reads back to apply the same change to the model.
 */
#ifndef TB_REGS_H
#define TB_REGS_H

#include <stddef.h>
#include <stdint.h>

#include "ibsec.h"

/* The register map (IBSEC_REG_*, fields, codes): generated from rtl/engine/ibsec_regs.rdl. */
#include "ibsec_regs_map.h"
/* the words of the context read-back, CTX_RD_CFG .. CTX_RD_ALERT_THRESH */
#define TB_CTX_RD_WORDS ((IBSEC_REG_CTX_RD_ALERT_THRESH - IBSEC_REG_CTX_RD_CFG) / 4u + 1u)

/* One bus operation. */
enum tb_regop_kind {
    TB_RO_WRITE,      /* write wdata to addr */
    TB_RO_READ,       /* read addr into *dst */
    TB_RO_WAIT_IDLE   /* read STATUS until BUSY is 0; the last value into *dst */
};

struct tb_regop {
    enum tb_regop_kind kind;
    unsigned  addr;
    uint32_t  wdata;
    uint32_t *dst;    /* read result (may be NULL) */
    int      *done;   /* set to 1 when this operation completes (may be NULL) */
};

#define TB_REGQ 2048u

/* The agent of one instance. */
struct tb_regs {
    int       inst;            /* DUT_SEAL / DUT_OPEN */
    struct tb_regop q[TB_REGQ];
    unsigned  head, tail;      /* queue: head = next to run */
    int       gap;             /* one idle cycle after each ack */
    unsigned long cycles_waiting; /* cycles the current request has waited for its ack */
    unsigned long ops;
};

/* The result of one command sequence: STATUS after it and CMD_DECIDED. */
struct tb_cmd_result {
    uint32_t status;
    uint32_t decided[2];       /* LO, HI */
    int      started;          /* the command's write (CONFIG, KEY_CMD, CTX_CMD) was acknowledged:
                                  from the next cycle on, the engine decides no packet until the
                                  command has taken effect (§2) */
    int      done;
};

void tb_regs_init(struct tb_regs *r, int inst);
int  tb_regs_idle(const struct tb_regs *r);
void tb_regs_clear(struct tb_regs *r);   /* drop every queued operation (reset) */
/* Per cycle: drive the bus before dut_eval(), sample the ack after it. */
void tb_regs_drive(struct tb_regs *r);
void tb_regs_sample(struct tb_regs *r);

void tb_regs_write(struct tb_regs *r, unsigned addr, uint32_t v);
void tb_regs_read(struct tb_regs *r, unsigned addr, uint32_t *dst, int *done);

/* Command sequences (docs/registers.md §3.5, §3.6, §3.2); res (may be NULL) receives
 * STATUS and CMD_DECIDED when the command has finished. key_len 16 or 32. */
void tb_regs_key_install(struct tb_regs *r, unsigned slot, const uint8_t *key, size_t key_len,
                         const uint8_t salt[IBSEC_SALT_LEN], struct tb_cmd_result *res);
void tb_regs_key_clear(struct tb_regs *r, unsigned slot, struct tb_cmd_result *res);
/* KEY_CMD zeroize (§3.5); stale (may be NULL): 32 bytes written to KEY_DATA and 4 to
 * KEY_SALT first (an abandoned install), which the zeroize must clear */
void tb_regs_key_zeroize(struct tb_regs *r, unsigned slot, const uint8_t *stale,
                         struct tb_cmd_result *res);
void tb_regs_key_install_staged(struct tb_regs *r, unsigned slot, size_t key_len,
                                struct tb_cmd_result *res);
void tb_regs_ctx_write(struct tb_regs *r, unsigned idx, const ibsec_ctx_cfg *c,
                       struct tb_cmd_result *res);
void tb_regs_ctx_read(struct tb_regs *r, unsigned idx, uint32_t rd[TB_CTX_RD_WORDS],
                      struct tb_cmd_result *res);
uint32_t tb_regs_mgmt_bits(const ibsec_engine *e);
void tb_regs_config(struct tb_regs *r, int allow_plain, int mask_mf, uint32_t mgmt_bits,
                    struct tb_cmd_result *res);
/* The whole configuration of a model engine: keys, contexts, CONFIG. */
void tb_regs_load_engine(struct tb_regs *r, const ibsec_engine *e, struct tb_cmd_result *res);
/* Counters of reasons 0 .. IBSEC_R_COUNT-1, LO then HI (§3.3) into cnt[r][0..1]. */
void tb_regs_counters(struct tb_regs *r, uint32_t cnt[IBSEC_R_COUNT][2], int *done);

#endif
