# fpga/depth.mk — make depth-check (in make test): the deepest register-to-register
# path, in LUT levels, of every engine block alone and of the whole LANES = 1 engines,
# against the ceilings committed in fpga/depth_ceilings.txt (scripts/depth_check.py;
# docs/fpga.md, "Logic depth", says how a depth relates to the routed clock). Yosys only,
# no place and route: each run is the flow's netlist (scripts/synth_netlist.sh, the
# same wrapper and flattening as make fpga's place and route), written to
# $(FPGA_BUILD)/depth/<run>/netlist.json and cached until the RTL changes.
#
# A self-test runs first: a probe with a chain of dependent additions (verif/depth/
# depth_probe.v) must pass the target ceiling with one step and fail it with eight.
#
# Knobs: DEPTH_RUNS (the runs, top:lanes:variant as in fpga.mk; variants are fpga.mk's
# FPGA_VARIANT_*). Cost on the 2-core machine: the two engines about 3.5 min of one core
# each, the blocks under a minute each, the stage modules 1 to 3.5 min each; the runs are
# made two at a time. A run that lasts over a minute says so every minute
# (scripts/stage.sh --quiet).

DEPTH_BUILD    := $(FPGA_BUILD)/depth
DEPTH_CEILINGS := fpga/depth_ceilings.txt
DEPTH_RUNS     ?= ib_hdr_parse:0:parse ib_hdr_edit:0:hdr ib_hdr_mask:0:hdr \
                  ibsec_compose:1:block ibsec_regs:0:tables-seal ibsec_regs:0:tables-open \
                  ibsec_rx_check:1:check ibsec_parse:1:stage-open ibsec_decide:1:stage-seal \
                  ibsec_decide:1:stage-open ibsec_ingress:1:stage-seal ibsec_ingress:1:stage-open \
                  ibsec_egress:1:stage-seal ibsec_egress:1:stage-open gcm_core:1:bram \
                  ibsec_seal:1:fpga ibsec_open:1:fpga
# the self-test's probe: one step (within the target) and eight (far above it)
FPGA_VARIANT_probe1 := STEPS=1
FPGA_VARIANT_probe8 := STEPS=8
DEPTH_PROBES   := depth_probe:0:probe1 depth_probe:0:probe8
DEPTH_SCRIPTS  := scripts/synth_netlist.sh scripts/synth_ooc_wrap.py

depth_netlist = $(DEPTH_BUILD)/$(call fpga_name,$(1))/netlist.json

# one netlist per run (the stem's fields: top, lanes, variant)
define DEPTH_NETLIST_RULE
$(call depth_netlist,$(1)): $(SYNTH_DEPS) $(DEPTH_SCRIPTS) $(if $(filter depth_probe,$(call fpga_field,$(1),1)),verif/depth/depth_probe.v) | deps
	@mkdir -p $$(@D)
	@YOSYS=$(YOSYS) PNR_FLATTEN=$(if $(filter $(call fpga_field,$(1),1),$(FPGA_PNR_HIER)),0,1) \
	  PNR_PARAMS="$(FPGA_VARIANT_$(call fpga_field,$(1),3))" PNR_SUB_PARAMS="$(FPGA_SUB_$(call fpga_field,$(1),3))" \
	  scripts/stage.sh --quiet --log $$(@D)/synth.log --out $$(@D).out "depth $(call fpga_name,$(1))" \
	  scripts/synth_netlist.sh $$(@D) $(call fpga_field,$(1),1) $(call fpga_field,$(1),2) \
	  $(SYNTH_RTL) $(if $(filter depth_probe,$(call fpga_field,$(1),1)),verif/depth/depth_probe.v) \
	  || { cat $$(@D).out; rm -f $$@; exit 1; }
	@tail -n 1 $$(@D).out
endef
$(foreach r,$(DEPTH_RUNS) $(DEPTH_PROBES),$(eval $(call DEPTH_NETLIST_RULE,$(r))))

.PHONY: depth-check depth-netlists
.SECONDARY: $(foreach r,$(DEPTH_RUNS) $(DEPTH_PROBES),$(call depth_netlist,$(r)))

depth-netlists: $(foreach r,$(DEPTH_RUNS) $(DEPTH_PROBES),$(call depth_netlist,$(r)))

depth-check: | deps
	@$(MAKE) --no-print-directory -j2 depth-netlists
	@p=0; f=0; \
	$(PYTHON) scripts/depth_check.py --ceilings $(DEPTH_CEILINGS) \
	  depth_probe:0:probe1=$(call depth_netlist,depth_probe:0:probe1) > $(DEPTH_BUILD)/selftest.out; \
	r1=$$?; $(PYTHON) scripts/depth_check.py --ceilings $(DEPTH_CEILINGS) --expect-fail \
	  depth_probe:0:probe8=$(call depth_netlist,depth_probe:0:probe8) >> $(DEPTH_BUILD)/selftest.out; \
	r8=$$?; grep -E '^(PASS|FAIL)' $(DEPTH_BUILD)/selftest.out | sed 's/^/self-test: /'; \
	[ $$r1 = 0 ] && p=$$((p + 1)) || f=$$((f + 1)); \
	[ $$r8 = 0 ] && p=$$((p + 1)) || f=$$((f + 1)); \
	$(PYTHON) scripts/depth_check.py --ceilings $(DEPTH_CEILINGS) --json $(DEPTH_BUILD)/depth.json \
	  $(foreach r,$(DEPTH_RUNS),$(r)=$(call depth_netlist,$(r))) > $(DEPTH_BUILD)/check.out; \
	grep -E '^(PASS|FAIL)' $(DEPTH_BUILD)/check.out; \
	line=$$(grep -E '^depth-check: [0-9]+ passed, [0-9]+ failed' $(DEPTH_BUILD)/check.out); \
	if [ -n "$$line" ]; then \
	  p=$$((p + $$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$$line"))); \
	  f=$$((f + $$(sed -E 's/.*, ([0-9]+) failed.*/\1/' <<<"$$line"))); \
	else cat $(DEPTH_BUILD)/check.out; f=$$((f + 1)); fi; \
	echo "depth-check: $$p passed, $$f failed"; [ $$f = 0 ]

TEST_TARGETS += depth-check
