# verif/hdr/ — Verilator bench of the packet engine's header modules: rtl/ib/ib_opcode_info.v,
# ib_hdr_parse.v, ib_hdr_edit.v and ib_hdr_mask.v behind the test top
# verif/hdr/tb_hdr_top.v, driven by the C harness tb_hdr.c (see its header) against the C
# model. The modules do not depend on LANES: one build, target vtest-hdr.
# Knobs: SEED (harness seed), HDR_PACKETS (random valid packets, each sealed and opened;
# the directed sweep and the malformed corpus come on top).
# vtest-hdr-long (make regress-long): the same with HDR_LONG_PACKETS = one million random
# packets and seed SEED + 1000.
# lint-hdr: verilator --lint-only -Wall of each header module on its own; the same modules
# are in LINT_TOPS for `make lint`.

HDR_BUILD   := $(VERIF_BUILD)/hdr
HDR_MODULES := ib_opcode_info ib_hdr_parse ib_hdr_edit ib_hdr_mask
HDR_RTL     := $(call rtl_files,$(HDR_MODULES)) verif/hdr/tb_hdr_top.v
HDR_PACKETS ?= 12000
HDR_LONG_PACKETS ?= 1000000

.PHONY: vtest-hdr vtest-hdr-long lint-hdr

LINT_TOPS += $(HDR_MODULES)

$(HDR_BUILD)/tb_hdr.o: verif/hdr/tb_hdr.c verif/hdr/tb_hdr.h $(wildcard verif/common/*.h) \
                       $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Iverif/common -c $< -o $@

$(HDR_BUILD)/Vtb: $(HDR_RTL) rtl/common/ibsec_enums.vh verif/hdr/shim.cpp verif/hdr/tb_hdr.h verif/hdr/hdr.mk \
                  $(HDR_BUILD)/tb_hdr.o $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) tb_hdr_top "" "$(HDR_RTL)" verif/hdr/shim.cpp \
	  "$(HDR_BUILD)/tb_hdr.o $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" 0

vtest-hdr: $(HDR_BUILD)/Vtb
	$< --seed $(SEED) --packets $(HDR_PACKETS)

vtest-hdr-long: $(HDR_BUILD)/Vtb
	$< --seed $$(( $(SEED) + 1000 )) --packets $(HDR_LONG_PACKETS)

lint-hdr: deps
	@scripts/lint.sh $(HDR_MODULES)

TEST_TARGETS += vtest-hdr
REGRESS_LONG_TARGETS += vtest-hdr-long

# keep the harness object and executable between runs
.SECONDARY: $(HDR_BUILD)/tb_hdr.o $(HDR_BUILD)/Vtb
