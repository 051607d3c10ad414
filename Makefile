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

TEST_TARGETS :=          # run by `make test`; each prints "N passed, N failed"
BENCH_TARGETS :=         # run by `make bench`; print figures, assert nothing
REGRESS_LONG_TARGETS :=  # run by `make regress-long`
LINT_TOPS :=             # top-level RTL modules linted by `make lint` at every LANES
# make test runs the lint too: Verilator -Wall and an Icarus elaboration of every top
TEST_TARGETS += lint

.PHONY: all help deps demo test lint vectors bench regress-long fpga report clean

all: model

help:
	@echo "ibsec make targets:"
	@echo "  demo          build everything and run a short mixed regression (the main job)"
	@echo "  test          every test CI runs (prints N passed, N failed)"
	@echo "  lint          Verilator lint of every top-level module, C warnings as errors"
	@echo "  vectors SEED=n  write build/vectors/ (pcap files, key file, harness vectors)"
	@echo "  bench         latency, throughput and simulation-speed figures"
	@echo "  regress-long  the million-message/packet regressions"
	@echo "  depth-check   logic depth of the engine blocks and engines against fpga/depth_ceilings.txt (Yosys only)"
	@echo "  fpga          synthesis and place-and-route (build/fpga/)"
	@echo "  report        regenerate docs/performance.md and its plots"
	@echo "  deps          install Debian packages and the project venv (run by the others)"

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
