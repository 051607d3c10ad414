# scripts/flow.mk — the top-level flow targets `vectors` and `demo` (the Makefile's
# contract table: README.md). Included by the top-level Makefile.
#
#   make vectors SEED=n   writes $(BUILD)/vectors/: the key file, per link (native,
#                         rocev2) the plain / sealed / wire pcaps and the packet harness
#                         vectors (docs/vectors.md), and the GCM harness vectors gcm.vec
#                         (docs/gcm-vectors.md). VEC_COUNT random packets per link
#                         besides the corner cases; GCM_COUNT random GCM messages.
#   make demo             builds the model, writes the vectors, seals and opens them with
#                         ibsec_pcap, checks that tshark reads the pcaps, runs the packet
#                         engine RTL bench at LANES = 1, 4, 12 (DEMO_RTL_PACKETS plain
#                         packets per mode; once verif/engine/engine.mk enables it), and
#                         prints a summary table (scripts/demo.sh).

VEC_DIR   := $(BUILD)/vectors
VEC_COUNT ?= 500
GCM_COUNT ?= 2000
# The GCM vector writer, if its source is in the tree (cmodel/tools/ibsec_gcmvec.c).
GCMVEC    := $(filter %/ibsec_gcmvec,$(CM_TOOLS))

vectors: deps $(BUILD)/bin/ibsec_vecgen $(GCMVEC)
	rm -rf $(VEC_DIR)
	$(BUILD)/bin/ibsec_vecgen --seed $(SEED) --count $(VEC_COUNT) --out $(VEC_DIR)
ifneq ($(GCMVEC),)
	$(GCMVEC) --seed $(SEED) --count $(GCM_COUNT) --out $(VEC_DIR)/gcm.vec
endif

DEMO_RTL_PACKETS ?= 60
# the packet engine benches of the widths that pass against the engine RTL (verif/engine/engine.mk)
DEMO_RTL_BINS := $(foreach l,$(ENGINE_DEMO_WIDTHS),$(ENGINE_BUILD)/L$(l)/Vtb)

demo: deps model vectors $(DEMO_RTL_BINS)
	scripts/demo.sh $(BUILD) $(SEED) $(VEC_COUNT) $(DEMO_RTL_PACKETS) "$(ENGINE_DEMO_WIDTHS)"

# report-check (make test): scripts/report.py keeps the committed docs/performance.md and
# plots on a machine where make fpga has not run, and writes them where it has
# (scripts/check_report.py, in a scratch folder)
.PHONY: report-check
report-check:
	@python3 scripts/check_report.py

TEST_TARGETS += report-check
