// shim.cpp — thin C++ layer of the tables bench: owns the Verilated ibsec_regs, drives its
// clock, optionally writes an FST trace (-DIBSEC_WAVES=1, file tables.fst in the working
// directory), and exposes the C interface of tb_tables.h. No checking here.
#include <cstdint>

#include "Vibsec_regs.h"
#include "verilated.h"
#if IBSEC_WAVES
#include "verilated_fst_c.h"
#endif

#include "tb_tables.h"

static VerilatedContext *ctx;
static Vibsec_regs *top;
#if IBSEC_WAVES
static VerilatedFstC *tfp;
#endif

static void dump()
{
#if IBSEC_WAVES
    tfp->dump(ctx->time());
#endif
}

extern "C" void dut_set(const tb_in *in)
{
    top->rst = in->rst ? 1 : 0;
    top->reg_req = in->reg_req ? 1 : 0;
    top->reg_we = in->reg_we ? 1 : 0;
    top->reg_addr = in->reg_addr & 0xFFFu;
    top->reg_wdata = in->reg_wdata;
    top->pipe_busy = in->pipe_busy ? 1 : 0;
    top->m_key_ready = in->m_key_ready ? 1 : 0;
    top->lk_destqp = in->lk_destqp & 0xFFFFFFu;
    top->lk_pkey = in->lk_pkey & 0xFFFFu;
    top->dec_pkt = in->dec_pkt ? 1 : 0;
    top->ep_valid = in->ep_valid ? 1 : 0;
    top->ep_ctx = in->ep_ctx;
    top->ep_psn = in->ep_psn & 0xFFFFFFu;
    top->cm_valid = in->cm_valid ? 1 : 0;
    top->cm_pass = in->cm_pass ? 1 : 0;
    top->cnt_valid = in->cnt_valid ? 1 : 0;
    top->cnt_reason = in->cnt_reason & 0x3Fu;
}

extern "C" void dut_get(tb_out *out)
{
    top->eval();
    out->reg_ack = top->reg_ack;
    out->reg_rdata = top->reg_rdata;
    out->irq_alert = top->irq_alert;
    out->cfg_allow_plain = top->cfg_allow_plain;
    out->cfg_mask_mf = top->cfg_mask_mf;
    out->cfg_busy = top->cfg_busy;
    out->m_key_valid = top->m_key_valid;
    out->m_key_slot = top->m_key_slot;
    out->m_key_aes256 = top->m_key_aes256;
    for (int i = 0; i < 8; i++)
        out->m_key_data[i] = top->m_key_data[i];
    out->lk_hit = top->lk_hit;
    out->lk_ctx = top->lk_ctx;
    out->lk_mode = top->lk_mode;
    out->lk_sth_code = top->lk_sth_code;
    out->lk_dir = top->lk_dir;
    out->lk_key = top->lk_key;
    out->lk_key_valid = top->lk_key_valid;
    out->lk_key_aes256 = top->lk_key_aes256;
    out->lk_salt = top->lk_salt;
    out->ep_reason = top->ep_reason;
    out->ep_epsn = top->ep_epsn;
    out->ep_wait = top->ep_wait;
    out->ep_full = top->ep_full;
    out->cm_alert = top->cm_alert;
    out->cm_ctx = top->cm_ctx;
    out->cm_epsn = top->cm_epsn;
}

extern "C" void dut_tick(void)
{
    top->clk = 1;
    top->eval();
    ctx->timeInc(5);
    dump();
    top->clk = 0;
    top->eval();
    ctx->timeInc(5);
    dump();
}

extern "C" void dut_finish(void)
{
    top->final();
#if IBSEC_WAVES
    tfp->close();
    delete tfp;
#endif
    delete top;
    delete ctx;
}

int main(int argc, char **argv)
{
    ctx = new VerilatedContext;
    ctx->commandArgs(argc, argv);
    top = new Vibsec_regs{ctx};
#if IBSEC_WAVES
    ctx->traceEverOn(true);
    tfp = new VerilatedFstC;
    top->trace(tfp, 99);
    tfp->open("tables.fst");
#endif
    top->clk = 0;
    top->rst = 1;
    top->eval();
    dump();
    return tb_tables_main(argc, argv);
}
