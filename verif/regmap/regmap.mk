# verif/regmap/ — the register maps, each described once in SystemRDL (rtl/engine/ibsec_regs.rdl
# and the switch blocks' rtl/switch/*_regs.rdl, their properties in rtl/common/ibsec_rdl_props.rdl).
# scripts/regmap.py (systemrdl-compiler, pinned in scripts/deps.sh) generates from them the
# Verilog include beside each description (<map>_map.vh), the C header cmodel/<map>_map.h and
# the register tables of docs/registers.md (the blocks between "<!-- regmap ... -->" lines).
# The generated files are committed. Targets:
#   regmap         regenerate them in place (after editing a description)
#   regmap-check   regenerate into $(BUILD)/regmap and compare with the committed files; fails
#                  when one is stale (make test). It first checks itself: a description with
#                  one register moved must give a header that differs from the committed one.

REGMAP_RDL   := rtl/engine/ibsec_regs.rdl $(wildcard rtl/switch/*_regs.rdl)
REGMAP_DOC   := docs/registers.md
REGMAP_BUILD := $(BUILD)/regmap
# the generated files, as scripts/regmap.py names them
REGMAP_GEN   := $(foreach r,$(REGMAP_RDL),$(basename $(r))_map.vh \
                  cmodel/$(notdir $(basename $(r)))_map.h) $(REGMAP_DOC)

.PHONY: regmap regmap-check

regmap: | deps
	$(PYTHON) scripts/regmap.py --doc $(REGMAP_DOC) $(REGMAP_RDL)

regmap-check: | deps
	@rm -rf $(REGMAP_BUILD); mkdir -p $(REGMAP_BUILD)/neg
	@pass=0; fail=0; \
	sed 's/} STATUS @ 0x014;/} STATUS @ 0x01C;/' rtl/engine/ibsec_regs.rdl > $(REGMAP_BUILD)/neg/ibsec_regs.rdl; \
	if cmp -s rtl/engine/ibsec_regs.rdl $(REGMAP_BUILD)/neg/ibsec_regs.rdl; then \
	  fail=$$((fail + 1)); echo "regmap-check FAIL: the self-check could not move STATUS"; \
	elif ! $(PYTHON) scripts/regmap.py --out-root $(REGMAP_BUILD)/neg $(REGMAP_BUILD)/neg/ibsec_regs.rdl; then \
	  fail=$$((fail + 1)); echo "regmap-check FAIL: the moved description does not generate"; \
	elif cmp -s cmodel/ibsec_regs_map.h $(REGMAP_BUILD)/neg/cmodel/ibsec_regs_map.h; then \
	  fail=$$((fail + 1)); echo "regmap-check FAIL: STATUS moved, the header did not change"; \
	else pass=$$((pass + 1)); echo "regmap-check ok    STATUS moved in a copy: the header is stale"; fi; \
	if $(PYTHON) scripts/regmap.py --out-root $(REGMAP_BUILD) --doc $(REGMAP_DOC) $(REGMAP_RDL); then \
	  for f in $(REGMAP_GEN); do \
	    if cmp -s $$f $(REGMAP_BUILD)/$$f; then pass=$$((pass + 1)); echo "regmap-check ok    $$f"; \
	    else fail=$$((fail + 1)); echo "regmap-check STALE $$f (make regmap regenerates it)"; \
	      diff -u $$f $(REGMAP_BUILD)/$$f | head -20; fi; \
	  done; \
	else fail=$$((fail + 1)); echo "regmap-check FAIL: scripts/regmap.py"; fi; \
	echo "regmap-check: $$pass passed, $$fail failed"; [ $$fail = 0 ]

TEST_TARGETS += regmap-check
