# verif/fusesoc/ — the FuseSoC core files of the IP blocks (FuseSoC 2, pinned in scripts/deps.sh):
#   rtl/common/ibsec_common.core   ibsec:ip:common       sync_fifo, axil_reg_bridge, ibsec_enums.vh
#   rtl/crypto/gcm_core.core       ibsec:ip:gcm_core     the AES-GCM core
#   rtl/ib/ib_headers.core         ibsec:ip:ib_headers   IBA header blocks, ICRC / VCRC
#   rtl/engine/ibsec_engine.core   ibsec:ip:engine       the seal and open engines and their
#                                                        AXI4-Lite tops (lists rtl/engine/*.v)
#   rtl/switch/sw_hdr.core         ibsec:ip:sw_hdr       the switch blocks' header view
#   rtl/switch/sif_filter.core     ibsec:ip:sif_filter   sif_filter, sif_filter_axil
#   rtl/switch/ddpm_marker.core    ibsec:ip:ddpm_marker  ddpm_marker, ddpm_marker_axil
# each with targets lint (Verilator), sim (Icarus) and synth (Yosys ECP5).
#   fusesoc-lint   FuseSoC's own lint target of every core (and the engine's lint_open), with
#                  the repository as the only library (--cores-root rtl) and a config file of
#                  its own, so no remote library is ever consulted (make test)

FUSESOC_BUILD := $(BUILD)/fusesoc
FUSESOC       := $(VENV)/bin/fusesoc
FUSESOC_LINT  := common:lint gcm_core:lint ib_headers:lint sw_hdr:lint sif_filter:lint \
                 ddpm_marker:lint engine:lint engine:lint_open

.PHONY: fusesoc-lint

fusesoc-lint: | deps
	@mkdir -p $(FUSESOC_BUILD); : > $(FUSESOC_BUILD)/fusesoc.conf; pass=0; fail=0; \
	for ct in $(FUSESOC_LINT); do c=$${ct%%:*}; t=$${ct#*:}; \
	  if $(FUSESOC) --config $(FUSESOC_BUILD)/fusesoc.conf --cores-root rtl run \
	       --build-root $(FUSESOC_BUILD)/$$c-$$t --target $$t ibsec:ip:$$c > $(FUSESOC_BUILD)/$$c-$$t.log 2>&1; \
	  then pass=$$((pass + 1)); echo "fusesoc ok   ibsec:ip:$$c $$t"; \
	  else fail=$$((fail + 1)); echo "fusesoc FAIL ibsec:ip:$$c $$t"; tail -15 $(FUSESOC_BUILD)/$$c-$$t.log; fi; \
	done; echo "fusesoc-lint: $$pass passed, $$fail failed"; [ $$fail = 0 ]

TEST_TARGETS += fusesoc-lint
