// shim.cpp — thin C++ layer of the tables bench: owns the Verilated ibsec_regs, drives its
// clock and optional FST trace (tables.fst) through verif/common/vshim.h, and exposes the C
// interface of tb_tables.h. No checking here.
#include "Vibsec_regs.h"
#include "vshim.h"

#include "tb_tables.h"

static vshim<Vibsec_regs> sim;

extern "C" void dut_set(const tb_in *in)
{
    sim.top->rst = in->rst ? 1 : 0;
    sim.top->reg_req = in->reg_req ? 1 : 0;
    sim.top->reg_we = in->reg_we ? 1 : 0;
    sim.top->reg_addr = in->reg_addr & 0xFFFu;
    sim.top->reg_wdata = in->reg_wdata;
    sim.top->pipe_busy = in->pipe_busy ? 1 : 0;
    sim.top->m_key_ready = in->m_key_ready ? 1 : 0;
    sim.top->lk_ce = in->lk_ce ? 1 : 0;
    sim.top->lk_destqp = in->lk_destqp & 0xFFFFFFu;
    sim.top->lk_pkey = in->lk_pkey & 0xFFFFu;
    sim.top->lk_salt_slot = in->lk_salt_slot;
    sim.top->dec_pkt = in->dec_pkt ? 1 : 0;
    sim.top->ep_valid = in->ep_valid ? 1 : 0;
    sim.top->ep_ctx = in->ep_ctx;
    sim.top->ep_psn = in->ep_psn & 0xFFFFFFu;
    sim.top->cm_valid = in->cm_valid ? 1 : 0;
    sim.top->cm_pass = in->cm_pass ? 1 : 0;
    sim.top->cm_void = in->cm_void ? 1 : 0;
    sim.top->cnt_valid = in->cnt_valid ? 1 : 0;
    sim.top->cnt_reason = in->cnt_reason & 0x3Fu;
}

extern "C" void dut_get(tb_out *out)
{
    sim.top->eval();
    out->reg_ack = sim.top->reg_ack;
    out->reg_rdata = sim.top->reg_rdata;
    out->irq_alert = sim.top->irq_alert;
    out->cfg_allow_plain = sim.top->cfg_allow_plain;
    out->cfg_mask_mf = sim.top->cfg_mask_mf;
    out->cfg_mgmt = sim.top->cfg_mgmt;
    out->cfg_busy = sim.top->cfg_busy;
    out->m_key_valid = sim.top->m_key_valid;
    out->m_key_slot = sim.top->m_key_slot;
    out->m_key_aes256 = sim.top->m_key_aes256;
    out->m_key_wipe = sim.top->m_key_wipe;
    for (int i = 0; i < 8; i++)
        out->m_key_data[i] = sim.top->m_key_data[i];
    out->lk_hit = sim.top->lk_hit;
    out->lk_ctx = sim.top->lk_ctx;
    out->lk_mode = sim.top->lk_mode;
    out->lk_sth_code = sim.top->lk_sth_code;
    out->lk_dir = sim.top->lk_dir;
    out->lk_key = sim.top->lk_key;
    out->lk_key_valid = sim.top->lk_key_valid;
    out->lk_key_aes256 = sim.top->lk_key_aes256;
    out->lk_salt = sim.top->lk_salt;
    out->ep_reason = sim.top->ep_reason;
    out->ep_epsn = sim.top->ep_epsn;
    out->ep_wait = sim.top->ep_wait;
    out->ep_full = sim.top->ep_full;
    out->cm_alert = sim.top->cm_alert;
    out->cm_ctx = sim.top->cm_ctx;
    out->cm_epsn = sim.top->cm_epsn;
}

extern "C" void dut_tick(void) { sim.tick(); }

extern "C" void dut_finish(void) { sim.finish(); }

int main(int argc, char **argv)
{
    sim.start(argc, argv, "tables.fst");
    return tb_tables_main(argc, argv);
}
