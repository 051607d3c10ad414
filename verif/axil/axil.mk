# verif/axil/ — Verilator bench of the AXI4-Lite register slaves: the seal engine
# (ibsec_seal_axil), the SIF filter (sif_filter_axil) and the DDPM marker (ddpm_marker_axil)
# at LANES = 1 in one top (verif/axil/tb_axil.v), driven at once by the C harness tb_axil.c
# (see its header) with random back-pressure and delays on all five channels, illegal
# accesses among the legal ones, every read compared with a register model (the engine's:
# the driver's ibsec_regmodel on the C model). One build. Targets:
#   vtest-axil        AXIL_OPS accesses per slave (make test)
#   lint-axil         the new tops in make lint: LINT_TOPS below
# Knobs: SEED, AXIL_OPS, WAVES=1 (FST trace axil.fst in the working directory; separate
# build folder).

AXIL_BUILD   := $(VERIF_BUILD)/axil
AXIL_OPS     ?= 4000
AXIL_VARIANT := $(if $(filter 1,$(WAVES)),-waves,)
AXIL_OBJS    := $(AXIL_BUILD)/tb_axil.o
AXIL_HDRS    := verif/axil/tb_axil.h
AXIL_CFLAGS  := $(CFLAGS_IBSEC) -Icmodel -Icmodel/setup -Iverif/common
# Verilator finds every module below tb_axil in rtl/ (one module per file, named after it)
AXIL_VFLAGS  := --MAKEFLAGS OPT_FAST=-O1 --MAKEFLAGS OPT_SLOW=-O0

.PHONY: vtest-axil

$(AXIL_BUILD)/%.o: verif/axil/%.c $(AXIL_HDRS) $(wildcard verif/common/*.h) $(CM_HDRS) $(SETUP_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(AXIL_CFLAGS) -c $< -o $@

$(AXIL_BUILD)/tb$(AXIL_VARIANT)/Vtb: $(RTL_V) $(RTL_VH) verif/axil/tb_axil.v verif/axil/shim.cpp $(AXIL_HDRS) \
                                    verif/common/vshim.h $(AXIL_OBJS) $(VERIF_COMMON_OBJS) $(SETUP_LIB) $(CM_LIB)
	scripts/verilate.sh $(@D) tb_axil "$(AXIL_VFLAGS)" verif/axil/tb_axil.v verif/axil/shim.cpp \
	  "$(AXIL_OBJS) $(VERIF_COMMON_OBJS) $(SETUP_LIB) $(CM_LIB) $(LIBCRYPTO)" $(WAVES)

vtest-axil: $(AXIL_BUILD)/tb$(AXIL_VARIANT)/Vtb
	$< --seed $(SEED) --ops $(AXIL_OPS)

.SECONDARY: $(AXIL_OBJS) $(AXIL_BUILD)/tb$(AXIL_VARIANT)/Vtb

TEST_TARGETS += vtest-axil
LINT_TOPS    += axil_reg_bridge ibsec_seal_axil ibsec_open_axil sif_filter_axil ddpm_marker_axil
