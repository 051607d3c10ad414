# verif/tables/ — Verilator bench of rtl/engine/ibsec_regs.v (with ibsec_ctx_table.v and
# ibsec_counters.v) driven by the C harness tb_tables.c (see its header) against the C
# model's tables, EPSN functions and alert rule. One build per parameter set:
#   seal        OPEN = 0, CTX_SLOTS = 16, KEY_SLOTS = 4, INFLIGHT = 8 (the engine defaults)
#   open        OPEN = 1, CTX_SLOTS = 16, KEY_SLOTS = 4, INFLIGHT = 8
#   open-small  OPEN = 1, CTX_SLOTS = 5, KEY_SLOTS = 3, INFLIGHT = 3 (widths not powers of
#               two, a queue that fills)
# Targets:
#   vtest-tables-<set>      TABLES_CYCLES random cycles (make test)
#   vtest-tables            all three
#   regress-long-tables     TABLES_LONG_CYCLES cycles per set (make regress-long)
#   lint-tables             Verilator lint of the three modules at several parameter sets
# Knobs: SEED, TABLES_CYCLES, TABLES_LONG_CYCLES, WAVES=1 (FST trace tables.fst in the
# working directory; separate build folder).

TABLES_BUILD       := $(VERIF_BUILD)/tables
TABLES_RTL         := rtl/engine/ibsec_regs.v rtl/engine/ibsec_ctx_table.v rtl/engine/ibsec_counters.v
TABLES_CYCLES      ?= 1000000
TABLES_LONG_CYCLES ?= 5000000
TABLES_VARIANT     := $(if $(filter 1,$(WAVES)),-waves,)
TABLES_SETS        := seal open open-small
TABLES_OBJS        := $(TABLES_BUILD)/tb_tables.o
TABLES_HDRS        := verif/tables/tb_tables.h

# parameters of each set: Verilator -G options, and the INFLIGHT the harness checks
TABLES_G_seal       := -GOPEN=0 -GCTX_SLOTS=16 -GKEY_SLOTS=4 -GINFLIGHT=8
TABLES_G_open       := -GOPEN=1 -GCTX_SLOTS=16 -GKEY_SLOTS=4 -GINFLIGHT=8
TABLES_G_open-small := -GOPEN=1 -GCTX_SLOTS=5 -GKEY_SLOTS=3 -GINFLIGHT=3
TABLES_INFLIGHT_seal       := 8
TABLES_INFLIGHT_open       := 8
TABLES_INFLIGHT_open-small := 3

TABLES_TARGETS      := $(addprefix vtest-tables-,$(TABLES_SETS))
TABLES_LONG_TARGETS := $(addprefix regress-long-tables-,$(TABLES_SETS))

.PHONY: vtest-tables regress-long-tables lint-tables $(TABLES_TARGETS) $(TABLES_LONG_TARGETS)

$(TABLES_BUILD)/%.o: verif/tables/%.c $(TABLES_HDRS) $(wildcard verif/common/*.h) $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Iverif/common -c $< -o $@

$(TABLES_BUILD)/%$(TABLES_VARIANT)/Vtb: $(TABLES_RTL) $(RTL_VH) verif/tables/shim.cpp $(TABLES_HDRS) \
                                        $(TABLES_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) ibsec_regs "$(TABLES_G_$*)" "$(TABLES_RTL)" verif/tables/shim.cpp \
	  "$(TABLES_OBJS) $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" $(WAVES)

$(TABLES_TARGETS): vtest-tables-%: $(TABLES_BUILD)/%$(TABLES_VARIANT)/Vtb
	$< --seed $(SEED) --cycles $(TABLES_CYCLES) --inflight $(TABLES_INFLIGHT_$*) --name tables-$*

$(TABLES_LONG_TARGETS): regress-long-tables-%: $(TABLES_BUILD)/%$(TABLES_VARIANT)/Vtb
	$< --seed $(SEED) --cycles $(TABLES_LONG_CYCLES) --inflight $(TABLES_INFLIGHT_$*) \
	  --name tables-long-$*

# lint at parameter sets beyond the defaults `make lint` uses (single-entry tables and
# queue, sizes that are not powers of two, the largest tables)
TABLES_LINT_SETS := "-GOPEN=0" "-GOPEN=1" "-GOPEN=1 -GCTX_SLOTS=1 -GKEY_SLOTS=1 -GINFLIGHT=1" \
                    "-GOPEN=1 -GCTX_SLOTS=5 -GKEY_SLOTS=3 -GINFLIGHT=5" \
                    "-GOPEN=0 -GCTX_SLOTS=256 -GKEY_SLOTS=32 -GINFLIGHT=64"

lint-tables: | deps
	@pass=0; fail=0; \
	for g in $(TABLES_LINT_SETS); do for top in ibsec_regs ibsec_ctx_table; do \
	  out=$$(verilator --lint-only -Wall $(RTL_INC) --top-module $$top $$g $(RTL_V) 2>&1); \
	  if [ -z "$$out" ]; then pass=$$((pass + 1)); echo "lint ok   $$top $$g"; \
	  else fail=$$((fail + 1)); echo "lint FAIL $$top $$g"; echo "$$out" | head -20; fi; \
	done; done; \
	echo "lint-tables: $$pass passed, $$fail failed"; [ $$fail = 0 ]

vtest-tables: $(TABLES_TARGETS)
regress-long-tables: $(TABLES_LONG_TARGETS)

TEST_TARGETS         += $(TABLES_TARGETS)
REGRESS_LONG_TARGETS += $(TABLES_LONG_TARGETS)
LINT_TOPS            += ibsec_regs ibsec_ctx_table ibsec_counters

.SECONDARY: $(TABLES_OBJS) $(foreach s,$(TABLES_SETS),$(TABLES_BUILD)/$(s)$(TABLES_VARIANT)/Vtb)
