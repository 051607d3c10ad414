# verif/ddpm/ — Verilator bench of rtl/switch/ddpm_marker.v (with ddpm_mf_update, sif_sw_hdr, sync_fifo) driven by
# the C harness tb_ddpm.c (see its header) against the C model cmodel/ddpm.c.
# One build per width, Verilated with ddpm_marker as the top module.
# Targets:
#   vtest-ddpm-L<n>   DDPM_PACKETS random packets in epochs of network configurations, with idle and back-pressure
#                    (make test)
#   bench-ddpm        throughput and latency per width, no idle and no back-pressure (make bench)
# Knobs: SEED, DDPM_PACKETS, WAVES=1 (FST trace ddpm.fst in the working directory; separate
# build folder).

DDPM_BUILD   := $(VERIF_BUILD)/ddpm
DDPM_RTL     := rtl/switch/sif_sw_hdr.v rtl/common/sync_fifo.v rtl/switch/ddpm_mf_update.v rtl/switch/ddpm_marker.v
DDPM_PACKETS ?= 10000
DDPM_VARIANT := $(if $(filter 1,$(WAVES)),-waves,)
DDPM_TARGETS := $(addprefix vtest-ddpm-L,$(LANES_LIST))
DDPM_OBJS    := $(DDPM_BUILD)/tb_ddpm.o
DDPM_HDRS    := verif/ddpm/tb_ddpm.h

.PHONY: $(DDPM_TARGETS) bench-ddpm

$(DDPM_BUILD)/%.o: verif/ddpm/%.c $(DDPM_HDRS) $(wildcard verif/common/*.h) $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Iverif/common -c $< -o $@

$(DDPM_BUILD)/L%$(DDPM_VARIANT)/Vtb: $(DDPM_RTL) verif/ddpm/shim.cpp $(DDPM_HDRS) \
                                  $(DDPM_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) ddpm_marker "-GLANES=$*" "$(DDPM_RTL)" verif/ddpm/shim.cpp \
	  "$(DDPM_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" $(WAVES)

$(DDPM_TARGETS): vtest-ddpm-L%: $(DDPM_BUILD)/L%$(DDPM_VARIANT)/Vtb
	$< --seed $(SEED) --packets $(DDPM_PACKETS)

bench-ddpm: $(foreach l,$(LANES_LIST),$(DDPM_BUILD)/L$(l)$(DDPM_VARIANT)/Vtb)
	@for l in $(LANES_LIST); do $(DDPM_BUILD)/L$$l$(DDPM_VARIANT)/Vtb --seed $(SEED) --packets $(DDPM_PACKETS) --bench | grep bench; done

TEST_TARGETS  += $(DDPM_TARGETS)
BENCH_TARGETS += bench-ddpm
LINT_TOPS    += ddpm_marker

.SECONDARY: $(DDPM_OBJS) $(foreach l,$(LANES_LIST),$(DDPM_BUILD)/L$(l)$(DDPM_VARIANT)/Vtb)
