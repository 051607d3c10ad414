# verif/aes_pipeline/ — Verilator bench of the AES side of the crypto core:
# rtl/crypto/aes_pipeline.v and the aes_* blocks under it, behind the test top
# verif/aes_pipeline/tb_aes_top.v (the pipeline with STAGES_PER_ROUND = 1 and = 2 side by
# side, plus the S-box alone), driven by the C harness tb_aes.c (see its header).
# One build per width; targets vtest-aes-L<n> for n in LANES_LIST. STAGES_PER_ROUND = 2
# is built beside STAGES_PER_ROUND = 1 at LANES = 1 and 4 (AES_PIPES_L<n> = 2); at
# LANES = 12 only STAGES_PER_ROUND = 1 (the default of gcm_core), which halves the largest
# build: the lanes are copies of one generate block, so the two-stage round is covered by
# the narrower widths.
# Knobs: SEED (harness seed), AES_BEATS (random beats per run), WAVES=1 (FST trace,
# written to aes.fst in the working directory; separate build folder).

AES_BUILD    := $(VERIF_BUILD)/aes_pipeline
AES_RTL      := $(wildcard rtl/crypto/aes_*.v) verif/aes_pipeline/tb_aes_top.v
AES_BEATS    ?= 20000
AES_PIPES_L1  := 2
AES_PIPES_L4  := 2
AES_PIPES_L12 := 1
AES_VARIANT  := $(if $(filter 1,$(WAVES)),-waves,)
AES_TARGETS  := $(addprefix vtest-aes-L,$(LANES_LIST))
# The flattened pipeline is large C++ (at LANES = 12: 2 x 168 rounds of 16 S-boxes and
# MixColumns). Verilator's default -Os makes its compile dominate the run (measured on one
# 4 MB file: -Os 28 s, -O1 5.7 s, -O0 2.3 s of CPU), so the round logic is compiled with
# -O1 and the once-only settle code with -O0. Passed to Verilator with the parameters.
AES_VFLAGS   := --MAKEFLAGS OPT_FAST=-O1 --MAKEFLAGS OPT_SLOW=-O0

.PHONY: $(AES_TARGETS)

LINT_TOPS += aes_pipeline

$(AES_BUILD)/tb_aes.o: verif/aes_pipeline/tb_aes.c verif/aes_pipeline/tb_aes.h $(wildcard verif/common/*.h) \
                       $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Iverif/common -c $< -o $@

$(AES_BUILD)/L%$(AES_VARIANT)/Vtb: $(AES_RTL) verif/aes_pipeline/shim.cpp verif/aes_pipeline/tb_aes.h \
                                  verif/aes_pipeline/aes_pipeline.mk $(AES_BUILD)/tb_aes.o $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) tb_aes_top "-GLANES=$* -GPIPES=$(or $(AES_PIPES_L$*),2) $(AES_VFLAGS)" "$(AES_RTL)" verif/aes_pipeline/shim.cpp \
	  "$(AES_BUILD)/tb_aes.o $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" $(WAVES)

$(AES_TARGETS): vtest-aes-L%: $(AES_BUILD)/L%$(AES_VARIANT)/Vtb
	$< --seed $(SEED) --beats $(AES_BEATS)

TEST_TARGETS += $(AES_TARGETS)

# keep the harness objects and executables between runs (made through pattern rules)
.SECONDARY: $(VERIF_COMMON_OBJS) $(AES_BUILD)/tb_aes.o \
            $(foreach l,$(LANES_LIST),$(AES_BUILD)/L$(l)$(AES_VARIANT)/Vtb)
