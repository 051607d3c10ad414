# verif/gcm_core/ — Verilator bench of rtl/crypto/gcm_core.v (with aes_pipeline, ghash_engine,
# sync_fifo) driven by the C harness tb_gcm.c (see its header) against the C model.
# One build per width, Verilated with gcm_core as the top module.
# Targets:
#   vtest-gcm-L<n>          GCM_MESSAGES random messages (make test)
#   vtest-gcm-vec           the L4 bench on a vector file written by build/bin/ibsec_gcmvec
#   regress-long-gcm-L<n>   GCM_LONG_MESSAGES random messages (make regress-long)
#   bench-gcm               latency, throughput and simulation speed per width (make bench)
#   vtest-gcm-early-L<n>    GCM_EARLY_MESSAGES random messages through the open-only core
#                           (EARLY_GHASH = 1, as the open engine builds it: GHASH reads
#                           the ciphertext at the input), every message opened (make test)
#   bench-gcm-early         the benchmark of that core (every message opened)
# Knobs: SEED, GCM_MESSAGES, GCM_LONG_MESSAGES, GCM_VEC_COUNT (random records in the
# vector file), WAVES=1 (FST trace, written to gcm.fst in the working directory; separate
# build folder).

GCM_BUILD         := $(VERIF_BUILD)/gcm_core
GCM_RTL           := $(wildcard rtl/crypto/aes_*.v) rtl/crypto/gf128_clmul.v rtl/crypto/gf128_reduce.v \
                     rtl/crypto/gf128_mul_serial.v rtl/crypto/ghash_engine.v rtl/crypto/gcm_len_mul.v rtl/common/sync_fifo.v \
                     rtl/crypto/gcm_core.v
GCM_MESSAGES      ?= 20000
GCM_LONG_MESSAGES ?= 1000000
GCM_VEC_COUNT     ?= 2000
GCM_VARIANT       := $(if $(filter 1,$(WAVES)),-waves,)
GCM_TARGETS       := $(addprefix vtest-gcm-L,$(LANES_LIST))
GCM_EARLY_TARGETS := $(addprefix vtest-gcm-early-L,$(LANES_LIST))
GCM_EARLY_MESSAGES ?= 10000
GCM_LONG_TARGETS  := $(addprefix regress-long-gcm-L,$(LANES_LIST))
GCM_OBJS          := $(GCM_BUILD)/tb_gcm.o
GCM_HDRS          := verif/gcm_core/tb_gcm.h
# VPI: the harness's zeroize check reads the key table's public memories by name
GCM_VFLAGS        := --vpi

.PHONY: $(GCM_TARGETS) $(GCM_EARLY_TARGETS) $(GCM_LONG_TARGETS) bench-gcm bench-gcm-early \
        vtest-gcm-vec

$(GCM_BUILD)/%.o: verif/gcm_core/%.c $(GCM_HDRS) $(wildcard verif/common/*.h) $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Iverif/common -c $< -o $@

$(GCM_BUILD)/L%$(GCM_VARIANT)/Vtb: $(GCM_RTL) verif/gcm_core/shim.cpp $(GCM_HDRS) \
                                  $(GCM_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) gcm_core "-GLANES=$* $(GCM_VFLAGS)" "$(GCM_RTL)" verif/gcm_core/shim.cpp \
	  "$(GCM_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" $(WAVES)

$(GCM_TARGETS): vtest-gcm-L%: $(GCM_BUILD)/L%$(GCM_VARIANT)/Vtb
	$< --seed $(SEED) --messages $(GCM_MESSAGES)

# the open-only core (EARLY_GHASH = 1), in its own build folder
$(GCM_BUILD)/early-L%$(GCM_VARIANT)/Vtb: $(GCM_RTL) verif/gcm_core/shim.cpp $(GCM_HDRS) \
                                        $(GCM_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) gcm_core "-GLANES=$* -GEARLY_GHASH=1 $(GCM_VFLAGS)" "$(GCM_RTL)" \
	  verif/gcm_core/shim.cpp "$(GCM_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" $(WAVES)

$(GCM_EARLY_TARGETS): vtest-gcm-early-L%: $(GCM_BUILD)/early-L%$(GCM_VARIANT)/Vtb
	$< --seed $(SEED) --messages $(GCM_EARLY_MESSAGES) --open-only

bench-gcm-early: $(foreach l,$(LANES_LIST),$(GCM_BUILD)/early-L$(l)$(GCM_VARIANT)/Vtb)
	@for l in $(LANES_LIST); do \
	  $(GCM_BUILD)/early-L$$l$(GCM_VARIANT)/Vtb --seed $(SEED) --bench --open-only; done

$(GCM_LONG_TARGETS): regress-long-gcm-L%: $(GCM_BUILD)/L%$(GCM_VARIANT)/Vtb
	$< --seed $(SEED) --messages $(GCM_LONG_MESSAGES)

bench-gcm: $(foreach l,$(LANES_LIST),$(GCM_BUILD)/L$(l)$(GCM_VARIANT)/Vtb)
	@for l in $(LANES_LIST); do $(GCM_BUILD)/L$$l$(GCM_VARIANT)/Vtb --seed $(SEED) --bench; done

# the vector run: a file from the model's writer, sealed and opened by the L4 core
GCM_VEC_FILE := $(GCM_BUILD)/gcm-vectors-seed$(SEED)-n$(GCM_VEC_COUNT).txt

$(GCM_VEC_FILE): $(BUILD)/bin/ibsec_gcmvec
	@mkdir -p $(dir $@)
	$< --seed $(SEED) --count $(GCM_VEC_COUNT) --out $@

vtest-gcm-vec: $(GCM_BUILD)/L4$(GCM_VARIANT)/Vtb $(GCM_VEC_FILE)
	$< --seed $(SEED) --vectors $(GCM_VEC_FILE)

TEST_TARGETS         += vtest-gcm-vec
TEST_TARGETS         += $(GCM_TARGETS) $(GCM_EARLY_TARGETS)
REGRESS_LONG_TARGETS += $(GCM_LONG_TARGETS)
BENCH_TARGETS        += bench-gcm bench-gcm-early
LINT_TOPS            += gcm_core

.SECONDARY: $(GCM_OBJS) $(foreach l,$(LANES_LIST),$(GCM_BUILD)/L$(l)$(GCM_VARIANT)/Vtb \
             $(GCM_BUILD)/early-L$(l)$(GCM_VARIANT)/Vtb)
