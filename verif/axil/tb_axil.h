/*
 * tb_axil.h — the C interface between the AXI4-Lite register bench's harness (tb_axil.c) and
 * its C++ shim (shim.cpp): the inputs and outputs of one AXI4-Lite slave of the top
 * verif/axil/tb_axil.v, the clock and the reset.
 */
#ifndef TB_AXIL_H
#define TB_AXIL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the three slaves of the top */
enum { TB_PORT_ENGINE = 0, TB_PORT_SIF, TB_PORT_DDPM, TB_PORTS };

typedef struct {
    uint32_t awaddr, awprot, awvalid;
    uint32_t wdata, wstrb, wvalid;
    uint32_t bready;
    uint32_t araddr, arprot, arvalid;
    uint32_t rready;
} tb_axil_in;

typedef struct {
    uint32_t awready, wready;
    uint32_t bresp, bvalid;
    uint32_t arready;
    uint32_t rdata, rresp, rvalid;
} tb_axil_out;

void dut_set(int port, const tb_axil_in *in);
void dut_get(int port, tb_axil_out *out);   /* settles, then reads */
void dut_reset(int on);
void dut_tick(void);
void dut_finish(void);

int tb_axil_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* TB_AXIL_H */
