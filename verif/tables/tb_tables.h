/*
 * tb_tables.h — the narrow interface between the tables bench's C harness (tb_tables.c)
 * and its C++ shim (shim.cpp), which owns the Verilated rtl/engine/ibsec_regs.v (with
 * ibsec_ctx_table and ibsec_counters).
 *
 * Timing: the harness fills a tb_in and calls dut_set(); dut_get() evaluates the model and
 * returns every output of the current cycle (the lookup, EPSN and commit answers are
 * combinational, so the harness may set, get, set again within one cycle); dut_tick()
 * applies one rising clock edge.
 */
#ifndef TB_TABLES_H
#define TB_TABLES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int      rst;
    /* register bus */
    int      reg_req, reg_we;
    unsigned reg_addr;
    uint32_t reg_wdata;
    /* interlock and key port */
    int      pipe_busy;
    int      m_key_ready;
    /* lookup */
    int      lk_ce;           /* the lookup stages advance (the request is taken) */
    uint32_t lk_destqp;
    unsigned lk_pkey;
    unsigned lk_salt_slot;   /* the key slot whose salt lk_salt shows */
    /* decision */
    int      dec_pkt;
    int      ep_valid;
    unsigned ep_ctx;
    uint32_t ep_psn;
    /* open commit; cm_void: the packet was dropped by a CRC check after its decision */
    int      cm_valid, cm_pass, cm_void;
    /* counting */
    int      cnt_valid;
    unsigned cnt_reason;
} tb_in;

typedef struct {
    int      reg_ack;
    uint32_t reg_rdata;
    int      irq_alert;
    int      cfg_allow_plain, cfg_mask_mf, cfg_busy;
    unsigned cfg_mgmt;
    int      m_key_valid;
    unsigned m_key_slot;
    int      m_key_aes256;
    int      m_key_wipe;
    uint32_t m_key_data[8];      /* word 0 = bits [31:0] */
    int      lk_hit;
    unsigned lk_ctx, lk_mode, lk_sth_code;
    int      lk_dir;
    unsigned lk_key;
    int      lk_key_valid, lk_key_aes256;
    uint32_t lk_salt;
    unsigned ep_reason;
    uint64_t ep_epsn;
    int      ep_wait, ep_full;
    int      cm_alert;
    unsigned cm_ctx;
    uint64_t cm_epsn;
} tb_out;

/* shim -> harness */
int  tb_tables_main(int argc, char **argv);

/* harness -> shim */
void dut_set(const tb_in *in);
void dut_get(tb_out *out);
void dut_tick(void);
void dut_finish(void);

#ifdef __cplusplus
}
#endif

#endif
