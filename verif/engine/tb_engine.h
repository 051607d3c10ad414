/*
 * tb_engine.h — the narrow interface between the packet-engine bench's C harness
 * (tb_engine.c and the files it names) and its C++ shim (shim.cpp), which owns the
 * Verilated tb_engine (verif/engine/tb_engine.v: a seal and an open instance of
 * rtl/engine/ibsec_engine.v).
 *
 * Every call names the instance: DUT_SEAL (OPEN = 0) or DUT_OPEN (OPEN = 1).
 * Wide ports travel as arrays of 32-bit words, word 0 = bits [31:0] (Verilator's layout):
 * tdata 4*LANES words, tkeep (LANES+1)/2 words.
 * Timing: the harness sets inputs with the dut_set_* calls, calls dut_eval() once to
 * settle the combinational outputs, reads the outputs and the ready signals (the getters
 * do not evaluate: one evaluation per cycle keeps the wide builds fast), then calls
 * dut_tick() for one rising edge. A transfer happens on an edge when valid and ready were
 * both high just before it.
 */
#ifndef TB_ENGINE_H
#define TB_ENGINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { DUT_SEAL = 0, DUT_OPEN = 1, DUT_COUNT = 2 };

/* One entry of an instance's status port (valid for the cycle it is read). */
struct dut_status {
    unsigned reason;   /* st_reason, enum ibsec_reason */
    int      ctx_hit;  /* st_ctx_hit */
    unsigned ctx;      /* st_ctx */
    unsigned mode;     /* st_mode, enum ibsec_mode */
    uint64_t epsn;     /* st_epsn (63 bits) */
    int      alert;    /* st_alert */
};

/* shim -> harness */
int tb_engine_main(int argc, char **argv);

/* harness -> shim */
unsigned dut_lanes(void);   /* LANES of the Verilated top */
/* rst of both instances, and the reset of one instance alone */
void     dut_set_rst(int both, int seal, int open);
void     dut_set_in(int inst, int valid, const uint32_t *data, const uint32_t *keep, int last,
                    int user);
int      dut_in_ready(int inst);
void     dut_set_out_ready(int inst, int ready);
/* returns m_axis_tvalid; copies tdata, tkeep, tlast, tuser */
int      dut_out(int inst, uint32_t *data, uint32_t *keep, int *last, int *user);
/* returns st_valid; fills *s */
int      dut_status(int inst, struct dut_status *s);
/* register bus request (held by the harness until the ack) */
void     dut_set_reg(int inst, int req, int we, unsigned addr, uint32_t wdata);
/* returns reg_ack; copies reg_rdata */
int      dut_reg_ack(int inst, uint32_t *rdata);
int      dut_irq(int inst);
/* white-box: 1 when a ring of the instance has a beat freed before it was written */
int      dut_ring_bad(int inst);
void     dut_eval(void);    /* settle outputs after the inputs changed */
void     dut_tick(void);
void     dut_finish(void);

#ifdef __cplusplus
}
#endif

#endif
