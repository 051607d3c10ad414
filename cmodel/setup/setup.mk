# cmodel/setup/setup.mk — authenticated connection setup and key distribution (docs/setup.md):
# the library build/cmodel/setup/libibsec_setup.a (cmodel/setup/*.c, on top of libibsec.a),
# its tests and its bench.  Included from cmodel/cmodel.mk.
#
#   ctest-setup        CM MAD layout, HMAC, key hierarchy, driver on the model, every attack,
#                      and an end-to-end run of SETUP_N connections (make test)
#   ctest-setup-pcap   the CM MADs of a run as IB packets in a pcap, decoded by tshark (make test)
#   ctest-setup-long   the end-to-end run with SETUP_LONG_N connections (make regress-long)
#   bench-setup        setup time of N connections pipelined against one at a time, and the
#                      HMAC cost per connection (make bench)

SETUP_BUILD  := $(BUILD)/cmodel/setup
SETUP_SRCS   := $(wildcard cmodel/setup/*.c)
SETUP_HDRS   := $(wildcard cmodel/setup/*.h)
SETUP_OBJS   := $(patsubst cmodel/setup/%.c,$(SETUP_BUILD)/%.o,$(SETUP_SRCS))
SETUP_LIB    := $(SETUP_BUILD)/libibsec_setup.a
SETUP_CFLAGS := $(CFLAGS_IBSEC) -Icmodel -Icmodel/setup -Icmodel/test
SETUP_N      ?= 64
SETUP_LONG_N ?= 1000

.PHONY: ctest-setup ctest-setup-pcap ctest-setup-long bench-setup

$(SETUP_BUILD)/%.o: cmodel/setup/%.c $(SETUP_HDRS) $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(SETUP_CFLAGS) -c $< -o $@

$(SETUP_LIB): $(SETUP_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SETUP_BUILD)/test_%: cmodel/setup/test/test_%.c $(SETUP_LIB) $(CM_LIB) $(SETUP_HDRS) $(CM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(SETUP_CFLAGS) $< $(SETUP_LIB) $(CM_LIB) $(IBSEC_LDLIBS) -o $@

$(BUILD)/bin/ibsec_setup_%: cmodel/setup/tools/ibsec_setup_%.c $(SETUP_LIB) $(CM_LIB) $(SETUP_HDRS) $(CM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(SETUP_CFLAGS) $< $(SETUP_LIB) $(CM_LIB) $(IBSEC_LDLIBS) -o $@

ctest-setup: $(SETUP_BUILD)/test_setup
	$< --conns $(SETUP_N)

ctest-setup-pcap: $(SETUP_BUILD)/test_setup_pcap
	$< --out $(SETUP_BUILD)/cm.pcap --conns $(SETUP_N)

ctest-setup-long: $(SETUP_BUILD)/test_setup
	$< --conns $(SETUP_LONG_N) --long

bench-setup: $(BUILD)/bin/ibsec_setup_bench
	$<

TEST_TARGETS         += ctest-setup ctest-setup-pcap
REGRESS_LONG_TARGETS += ctest-setup-long
BENCH_TARGETS        += bench-setup

# vtest-setup-rtl-L<n>: the driver programs the RTL engines (verif/setup/tb_setup.c on the
# packet-engine bench's top verif/engine/tb_engine.v and shim): SETUP_RTL_N connections
# between two CAs whose CA 0 seal engine and CA 1 open engine are the RTL instances, every
# register read compared with a shadow model, traffic sealed and opened by the RTL and
# compared with the model, torn down. LANES = 1 in make test.
SETUP_RTL_BUILD := $(BUILD)/verif/setup
SETUP_RTL_N     ?= 64
SETUP_RTL_LONG_N ?= 1000
SETUP_RTL_VFLAGS = -GLANES=$$L -GKEY_SLOTS=8 -GCTX_SLOTS=16 \
                   --MAKEFLAGS OPT_FAST=-O1 --MAKEFLAGS OPT_SLOW=-O0

SETUP_RTL_TARGETS := vtest-setup-rtl-L1 vtest-setup-rtl-L4 vtest-setup-rtl-L12

.PHONY: $(SETUP_RTL_TARGETS) regress-long-setup-rtl-L1

$(SETUP_RTL_BUILD)/tb_setup.o: verif/setup/tb_setup.c verif/engine/tb_engine.h $(SETUP_HDRS) $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(SETUP_CFLAGS) -Iverif/engine -c $< -o $@

$(SETUP_RTL_BUILD)/L%/Vtb: $(RTL_V) $(RTL_VH) verif/engine/tb_engine.v verif/engine/shim.cpp \
                           verif/engine/tb_engine.h verif/common/vshim.h cmodel/setup/setup.mk \
                           $(SETUP_RTL_BUILD)/tb_setup.o $(SETUP_LIB) $(CM_LIB)
	L=$*; scripts/verilate.sh $(@D) tb_engine "$(SETUP_RTL_VFLAGS)" verif/engine/tb_engine.v \
	  verif/engine/shim.cpp "$(SETUP_RTL_BUILD)/tb_setup.o $(SETUP_LIB) $(CM_LIB) $(IBSEC_LDLIBS)"

$(SETUP_RTL_TARGETS): vtest-setup-rtl-L%: $(SETUP_RTL_BUILD)/L%/Vtb
	$< --conns $(SETUP_RTL_N)

regress-long-setup-rtl-L1: $(SETUP_RTL_BUILD)/L1/Vtb
	$< --conns $(SETUP_RTL_LONG_N)

TEST_TARGETS         += vtest-setup-rtl-L1
REGRESS_LONG_TARGETS += regress-long-setup-rtl-L1
