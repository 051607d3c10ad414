# verif/sif/ — Verilator bench of rtl/switch/sif_filter.v (with sif_sw_hdr, sync_fifo) driven by
# the C harness tb_sif.c (see its header) against the C model cmodel/sif.c.
# One build per width, Verilated with sif_filter as the top module.
# Targets:
#   vtest-sif-L<n>   SIF_PACKETS random packets with idle, back-pressure and SM writes
#                    (make test)
#   bench-sif        throughput and latency per width, no idle and no back-pressure (make bench)
# Knobs: SEED, SIF_PACKETS, WAVES=1 (FST trace sif.fst in the working directory; separate
# build folder).

SIF_BUILD   := $(VERIF_BUILD)/sif
SIF_RTL     := rtl/switch/sif_sw_hdr.v rtl/common/sync_fifo.v rtl/switch/sif_filter.v
SIF_PACKETS ?= 10000
SIF_VARIANT := $(if $(filter 1,$(WAVES)),-waves,)
SIF_TARGETS := $(addprefix vtest-sif-L,$(LANES_LIST))
SIF_OBJS    := $(SIF_BUILD)/tb_sif.o
SIF_HDRS    := verif/sif/tb_sif.h

.PHONY: $(SIF_TARGETS) bench-sif

$(SIF_BUILD)/%.o: verif/sif/%.c $(SIF_HDRS) $(wildcard verif/common/*.h) $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Iverif/common -c $< -o $@

$(SIF_BUILD)/L%$(SIF_VARIANT)/Vtb: $(SIF_RTL) verif/sif/shim.cpp $(SIF_HDRS) \
                                  $(SIF_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) sif_filter "-GLANES=$*" "$(SIF_RTL)" verif/sif/shim.cpp \
	  "$(SIF_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" $(WAVES)

$(SIF_TARGETS): vtest-sif-L%: $(SIF_BUILD)/L%$(SIF_VARIANT)/Vtb
	$< --seed $(SEED) --packets $(SIF_PACKETS)

bench-sif: $(foreach l,$(LANES_LIST),$(SIF_BUILD)/L$(l)$(SIF_VARIANT)/Vtb)
	@for l in $(LANES_LIST); do $(SIF_BUILD)/L$$l$(SIF_VARIANT)/Vtb --seed $(SEED) --packets $(SIF_PACKETS) --bench | grep bench; done

TEST_TARGETS  += $(SIF_TARGETS)
BENCH_TARGETS += bench-sif
LINT_TOPS    += sif_filter

.SECONDARY: $(SIF_OBJS) $(foreach l,$(LANES_LIST),$(SIF_BUILD)/L$(l)$(SIF_VARIANT)/Vtb)
