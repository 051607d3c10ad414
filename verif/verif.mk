# verif/ — Verilator test benches with C harnesses.
# Each bench lives in verif/<bench>/ with a fragment verif/<bench>/<bench>.mk that uses
# scripts/verilate.sh and appends its test targets to TEST_TARGETS. Shared harness code
# (the C side of the DUT interface, random streams, result counting) is in verif/common/.
# WAVES=1 compiles FST waveform tracing into every bench.

VERIF_BUILD := $(BUILD)/verif
WAVES       ?= 0
LANES_LIST  := 1 4 12
VERIF_COMMON_SRCS := $(wildcard verif/common/*.c)
VERIF_COMMON_OBJS := $(patsubst verif/common/%.c,$(VERIF_BUILD)/common/%.o,$(VERIF_COMMON_SRCS))

$(VERIF_BUILD)/common/%.o: verif/common/%.c $(wildcard verif/common/*.h) $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Iverif/common -c $< -o $@

-include $(wildcard verif/*/*.mk)
