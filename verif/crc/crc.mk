# verif/crc/ — Verilator bench of the packet engine's CRC blocks: rtl/ib/ib_icrc_engine.v,
# ib_vcrc_engine.v (both on rtl/ib/ib_crc_stream.v) and ib_vcrc_extend4.v behind the test top
# verif/crc/tb_crc_top.v, driven by the C harness tb_crc.c (see its header), which checks
# them against the C model and zlib's crc32.
# One build per width; targets vtest-crc-L<n> for n in LANES_LIST.
# Knobs: SEED (harness seed), CRC_PACKETS (random packets per engine), WAVES=1 (FST trace,
# written to crc.fst in the working directory; separate build folder).

CRC_BUILD    := $(VERIF_BUILD)/crc
CRC_RTL      := rtl/ib/ib_crc_stream.v rtl/ib/ib_icrc_engine.v rtl/ib/ib_vcrc_engine.v \
                rtl/ib/ib_vcrc_extend4.v verif/crc/tb_crc_top.v
CRC_PACKETS  ?= 3000
CRC_VARIANT  := $(if $(filter 1,$(WAVES)),-waves,)
CRC_TARGETS  := $(addprefix vtest-crc-L,$(LANES_LIST))

.PHONY: $(CRC_TARGETS)

$(CRC_BUILD)/tb_crc.o: verif/crc/tb_crc.c verif/crc/tb_crc.h $(wildcard verif/common/*.h) \
                       $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Iverif/common -c $< -o $@

$(CRC_BUILD)/L%$(CRC_VARIANT)/Vtb: $(CRC_RTL) rtl/ib/ib_crc_functions.vh verif/crc/shim.cpp \
                                  verif/crc/tb_crc.h $(CRC_BUILD)/tb_crc.o $(VERIF_COMMON_OBJS) \
                                  $(CM_LIB)
	scripts/verilate.sh $(@D) tb_crc_top "-GLANES=$*" "$(CRC_RTL)" verif/crc/shim.cpp \
	  "$(CRC_BUILD)/tb_crc.o $(VERIF_COMMON_OBJS) $(CM_LIB) -lz $(IBSEC_LDLIBS)" $(WAVES)

$(CRC_TARGETS): vtest-crc-L%: $(CRC_BUILD)/L%$(CRC_VARIANT)/Vtb
	$< --seed $(SEED) --packets $(CRC_PACKETS)

TEST_TARGETS += $(CRC_TARGETS)

# keep the harness objects and executables between runs (made through pattern rules)
.SECONDARY: $(CRC_BUILD)/tb_crc.o \
            $(foreach l,$(LANES_LIST),$(CRC_BUILD)/L$(l)$(CRC_VARIANT)/Vtb)
LINT_TOPS += ib_icrc_engine ib_vcrc_engine ib_vcrc_extend4
