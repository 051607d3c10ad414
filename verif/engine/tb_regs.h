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

/* Register map, docs/registers.md §3 (byte addresses). */
#define REG_ID             0x000u
#define REG_VERSION        0x004u
#define REG_CAPS           0x008u
#define REG_CONFIG         0x010u
#define REG_STATUS         0x014u
#define REG_CNT_CTRL       0x018u
#define REG_DECIDED_LO     0x020u
#define REG_DECIDED_HI     0x024u
#define REG_CMD_DECIDED_LO 0x028u
#define REG_CMD_DECIDED_HI 0x02Cu
#define REG_KEY_DATA(i)    (0x040u + 4u * (i))
#define REG_KEY_SALT       0x060u
#define REG_KEY_CMD        0x064u
#define REG_KEY_VALID      0x068u
#define REG_KEY_AES256     0x06Cu
#define REG_CTX_MATCH      0x100u
#define REG_CTX_CFG        0x104u
#define REG_CTX_TX_NEXT_LO 0x108u
#define REG_CTX_TX_NEXT_HI 0x10Cu
#define REG_CTX_RX_NEXT_LO 0x110u
#define REG_CTX_RX_NEXT_HI 0x114u
#define REG_CTX_ALERT_THRESH 0x118u
#define REG_CTX_CMD        0x11Cu
#define REG_CTX_RD_BASE    0x140u   /* CTX_RD_CFG .. CTX_RD_ALERT_THRESH: 12 words */
#define REG_CTX_RD_WORDS   12u
#define REG_CNT_LO(r)      (0x400u + 8u * (r))
#define REG_CNT_HI(r)      (0x404u + 8u * (r))

#define REG_ID_VALUE       0x49425343u /* "IBSC" */
#define REG_CONFIG_ALLOW_PLAIN 0x1u
#define REG_CONFIG_MASK_MF     0x2u
#define REG_STATUS_BUSY    0x1u
#define REG_STATUS_ERR     0x2u
#define REG_STATUS_ERR_CODE(s) (((s) >> 8) & 0xFu)
#define REG_KEY_OP_INSTALL 1u
#define REG_KEY_OP_CLEAR   2u
#define REG_CTX_OP_WRITE   1u
#define REG_CTX_OP_CLEAR   2u
#define REG_CTX_OP_READ    4u

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
void tb_regs_ctx_write(struct tb_regs *r, unsigned idx, const ibsec_ctx_cfg *c,
                       struct tb_cmd_result *res);
void tb_regs_ctx_read(struct tb_regs *r, unsigned idx, uint32_t rd[REG_CTX_RD_WORDS],
                      struct tb_cmd_result *res);
void tb_regs_config(struct tb_regs *r, int allow_plain, int mask_mf, struct tb_cmd_result *res);
/* The whole configuration of a model engine: keys, contexts, CONFIG. */
void tb_regs_load_engine(struct tb_regs *r, const ibsec_engine *e, struct tb_cmd_result *res);
/* Counters of reasons 0 .. IBSEC_R_COUNT-1, LO then HI (§3.3) into cnt[r][0..1]. */
void tb_regs_counters(struct tb_regs *r, uint32_t cnt[IBSEC_R_COUNT][2], int *done);

#endif
