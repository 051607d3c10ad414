# verif/ghash/ — Verilator bench of the GHASH side of the crypto core:
# rtl/crypto/gf128_clmul.v, gf128_reduce.v, gf128_mul.v, gf128_mul_serial.v, ghash_engine.v and
# gcm_len_mul.v behind the test top
# verif/ghash/tb_ghash_top.v, driven by the C harness tb_ghash.c (see its header).
# One build per width; targets vtest-ghash-L<n> for n in LANES_LIST.
# Knobs: SEED (harness seed), GHASH_MESSAGES (messages per run), WAVES=1 (FST trace,
# written to ghash.fst in the working directory; separate build folder).

GHASH_BUILD    := $(VERIF_BUILD)/ghash
GHASH_RTL      := rtl/crypto/gf128_clmul.v rtl/crypto/gf128_reduce.v rtl/crypto/gf128_mul.v rtl/crypto/gf128_mul_serial.v \
                  rtl/crypto/ghash_engine.v rtl/crypto/gcm_len_mul.v \
                  verif/ghash/tb_ghash_top.v
GHASH_MESSAGES ?= 3000
GHASH_VARIANT  := $(if $(filter 1,$(WAVES)),-waves,)
GHASH_TARGETS  := $(addprefix vtest-ghash-L,$(LANES_LIST))

.PHONY: $(GHASH_TARGETS)

$(GHASH_BUILD)/tb_ghash.o: verif/ghash/tb_ghash.c verif/ghash/tb_ghash.h $(wildcard verif/common/*.h) \
                           $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Iverif/common -c $< -o $@

$(GHASH_BUILD)/L%$(GHASH_VARIANT)/Vtb: $(GHASH_RTL) verif/ghash/shim.cpp verif/ghash/tb_ghash.h \
                                      $(GHASH_BUILD)/tb_ghash.o $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) tb_ghash_top "-GLANES=$*" "$(GHASH_RTL)" verif/ghash/shim.cpp \
	  "$(GHASH_BUILD)/tb_ghash.o $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" $(WAVES)

$(GHASH_TARGETS): vtest-ghash-L%: $(GHASH_BUILD)/L%$(GHASH_VARIANT)/Vtb
	$< --seed $(SEED) --messages $(GHASH_MESSAGES)

TEST_TARGETS += $(GHASH_TARGETS)

# keep the harness objects and executables between runs (made through pattern rules)
.SECONDARY: $(VERIF_COMMON_OBJS) $(GHASH_BUILD)/tb_ghash.o \
            $(foreach l,$(LANES_LIST),$(GHASH_BUILD)/L$(l)$(GHASH_VARIANT)/Vtb)
LINT_TOPS += ghash_engine gcm_len_mul
