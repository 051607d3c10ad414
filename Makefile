# ibsec — top-level Makefile.
# The targets below are the contract between the project's issues, its users and CI
# (docs/ and README.md describe them). Each part of the tree adds its own rules in a
# fragment (cmodel/cmodel.mk, verif/verif.mk, fpga/fpga.mk) and appends the targets
# that `make test` must run to TEST_TARGETS.

SHELL      := /bin/bash
BUILD      ?= build
SEED       ?= 1
VENV       := .venv
PYTHON     := $(VENV)/bin/python
DEPS_STAMP := $(BUILD)/.deps-stamp

CC       ?= gcc
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L
CWARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
COPT     ?= -O2 -g
CFLAGS_IBSEC := $(CSTD) $(CWARN) $(COPT)
LIBCRYPTO    := -lcrypto
LIBPCAP      := -lpcap
# what every program linked with libibsec.a needs after it (pcap.c uses libpcap)
IBSEC_LDLIBS := $(LIBPCAP) $(LIBCRYPTO)

# The RTL, one module per file named after it, in folders by function (docs/architecture
# in README.md): common/ (FIFOs, enums), crypto/ (AES, GHASH, GCM), ib/ (IBA headers and
# CRCs), engine/ (the seal and open engines and their tables), switch/ (filter, marker).
RTL_DIRS := rtl/common rtl/crypto rtl/ib rtl/engine rtl/switch
RTL_V    := $(sort $(wildcard $(addsuffix /*.v,$(RTL_DIRS))))
RTL_VH   := $(sort $(wildcard $(addsuffix /*.vh,$(RTL_DIRS))))
RTL_INC  := $(addprefix -I,$(RTL_DIRS))
# $(call rtl_files,mod1 mod2 ...): the files of the named modules, wherever they live
rtl_files = $(foreach m,$(1),$(wildcard $(addsuffix /$(m).v,$(RTL_DIRS))))
export RTL_DIRS

TEST_TARGETS :=          # run by `make test`; each prints "N passed, N failed"
BENCH_TARGETS :=         # run by `make bench`; print figures, assert nothing
REGRESS_LONG_TARGETS :=  # run by `make regress-long`
LINT_TOPS :=             # top-level RTL modules linted by `make lint` at every LANES
# make test runs the lint too: Verilator -Wall and an Icarus elaboration of every top
TEST_TARGETS += lint

.PHONY: all help help-check deps demo test lint vectors bench regress-long fpga report clean

all: model

# `make help`: the targets README.md and docs/ name (scripts/check_help.py, make
# help-check in make test, keeps it so), then the members of test, regress-long and
# bench as the fragments register them.
help_list = echo "$(strip $(1))" | fold -s -w 84 | sed 's/^/    /; s/ *$$//'
help:
	@echo "ibsec make targets (README.md says more; each fragment's header lists its own)"
	@echo
	@echo "Start here"
	@echo "  demo            build the model, write the vectors, seal and open them with ibsec_pcap,"
	@echo "                  read them with tshark, run the packet engine RTL briefly at every width;"
	@echo "                  prints a summary (the main job)"
	@echo "  test            every test CI runs, one after the other; ends with N passed, N failed"
	@echo "  help            this list"
	@echo
	@echo "Model and vectors"
	@echo "  model           libibsec.a and the tools in build/bin/ (ibsec_pcap --help, ...)"
	@echo "  vectors SEED=n  write build/vectors/: pcaps, key file, packet and GCM harness vectors"
	@echo "  sim-avail       the switch-side availability simulation (docs/availability.md)"
	@echo "  ctest-<name>    one C model test: ctest-pcap, ctest-cli, ctest-setup, ... (list below)"
	@echo
	@echo "RTL checks"
	@echo "  lint            Verilator --lint-only -Wall and an Icarus Verilog (-g2005) elaboration"
	@echo "                  of every top-level RTL module listed below, at LANES = 1, 4 and 12"
	@echo "                  (once if it has no LANES); RTL only: the C code is checked where it"
	@echo "                  is built, with -Wall -Wextra -Werror"
	@echo "  lint-hdr        the same for the header modules alone"
	@echo "  lint-tables     Verilator -Wall of the table modules at more parameter sets"
	@echo "  vtest-<bench>   one Verilator bench: vtest-engine-L1, vtest-gcm-L4, vtest-hdr, vtest-tables"
	@echo "                  (vtest-<bench>-L<n> at LANES = n; those in make test are listed below,"
	@echo "                  others such as vtest-setup-rtl-L4 and -L12 run by name)"
	@echo "  regress-long    the long regressions listed below: $(GCM_LONG_MESSAGES) GCM messages per width,"
	@echo "                  $(HDR_LONG_PACKETS) header-module packets, $(ENGINE_LONG_PACKETS) engine packets per mode,"
	@echo "                  $(TABLES_LONG_CYCLES) cycles per table set, $(SETUP_LONG_N) connection setups"
	@echo "  depth-check     logic depth of the engine blocks and LANES = 1 engines against"
	@echo "                  fpga/depth_ceilings.txt (Yosys only; part of make test)"
	@echo "  synth-check     gcm_core synthesizes cleanly at LANES = 1 (part of make test)"
	@echo "  enums-check, netlist-depth-selftest, engine-harness-selftest   (part of make test)"
	@echo
	@echo "Figures"
	@echo "  bench           every bench below: latency, throughput, simulation speed; asserts nothing"
	@echo "  bench-<name>    one bench: bench-engine, bench-gcm, bench-gcm-bram, bench-setup, ..."
	@echo "  synth           Yosys synth_ecp5 resource table of gcm_core at LANES = 1, 4, 12"
	@echo "  synth-all       the same for every top (aes_pipeline, ghash_engine, gcm_core)"
	@echo "  synth-<top>-L<n>  one top at one width, with its resources per submodule"
	@echo "  fpga            synthesis, place and route at LANES = 1, the table (build/fpga/fpga.md);"
	@echo "                  hours; its steps alone: fpga-synth, fpga-pnr, fpga-table"
	@echo "  fpga-pnr-L1     place and route one top (PNR_TOP=...) at LANES = 1"
	@echo "  fpga-seeds      more nextpnr seeds of one make fpga run (SEED_RUN=..., SEEDS=...)"
	@echo "  report          run the benches and regenerate docs/performance.md and its plots"
	@echo "                  (figures of make fpga; without them the committed ones stay)"
	@echo
	@echo "Wireshark (docs/wireshark.md)"
	@echo "  wireshark-install  the ibsec dissector into ~/.local/lib/wireshark/plugins"
	@echo "  wireshark-uninstall  removes that copy"
	@echo "  test-dissector  tshark with the dissector on the vectors, checked with the model"
	@echo "                  (part of make test)"
	@echo
	@echo "Registers and IP packaging (docs/registers.md)"
	@echo "  regmap          regenerate the register maps' header, includes and doc tables from SystemRDL"
	@echo "  regmap-check    the generated files equal what the SystemRDL gives (part of make test)"
	@echo "  fusesoc-lint    FuseSoC's lint target of every IP core (rtl/*/*.core; part of make test)"
	@echo
	@echo "Housekeeping"
	@echo "  deps            install the Debian packages and the project venv (the others run it)"
	@echo "  clean           remove the build tree ($(BUILD)/)"
	@echo
	@echo "Knobs: SEED=n, WAVES=1 (FST waveforms of Verilator benches), IBSEC_PROGRESS=s (seconds"
	@echo "between progress lines, 0: none), BUILD=dir"
	@echo
	@echo "make test runs:"
	@$(call help_list,$(TEST_TARGETS))
	@echo "make regress-long runs:"
	@$(call help_list,$(REGRESS_LONG_TARGETS))
	@echo "make bench runs:"
	@$(call help_list,$(BENCH_TARGETS))
	@echo "lint checks these tops:"
	@$(call help_list,$(LINT_TOPS))

# help-check (make test): every `make X` of README.md and docs/ is in make help and is a
# target (scripts/check_help.py)
help-check:
	@python3 scripts/check_help.py
TEST_TARGETS += help-check

# Installs system packages and the local venv once; the stamp is per build tree.
deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/deps.sh
	@mkdir -p $(BUILD)
	scripts/deps.sh
	@touch $@

include cmodel/cmodel.mk
-include verif/verif.mk
-include fpga/fpga.mk
-include scripts/flow.mk
-include scripts/wireshark/wireshark.mk

test: deps
	@scripts/run_tests.sh $(TEST_TARGETS)

lint: deps
	@scripts/lint.sh $(LINT_TOPS)

bench: deps
	@set -e; for t in $(BENCH_TARGETS); do $(MAKE) --no-print-directory $$t; done

regress-long: deps
	@scripts/run_tests.sh $(REGRESS_LONG_TARGETS)

clean:
	rm -rf $(BUILD)
