# verif/aes_bram/ — the block RAM S-box variant of the crypto core (SBOX_IMPL = 1,
# STAGES_PER_ROUND = 2), checked by the existing AES and GCM harnesses:
#   vtest-aes-bram-L<n>  the AES bench (verif/aes_pipeline/tb_aes.c and its shim) on the
#                        test top verif/aes_bram/tb_aes_bram_top.v: the default LUT
#                        pipeline beside the block RAM one (Verilated under the class
#                        name of the main top, Vtb_aes_top, so the shim is shared);
#                        n = 1 (make test) or 4. Summary line "aes-L<n>: N passed, N failed".
#   vtest-gcm-bram-L1    the GCM bench (verif/gcm_core/tb_gcm.c) on gcm_core with
#                        SBOX_IMPL = 1, STAGES_PER_ROUND = 2 (make test; GCM_BRAM_MESSAGES
#                        random messages). Summary line "gcm-L1: N passed, N failed".
#   bench-gcm-bram       the GCM benchmark (latency, throughput) of that core at LANES = 1.
# The lanes are copies of one generate block, so LANES = 1 covers the wider cores' logic.

# (this fragment is read before verif/aes_pipeline/aes_pipeline.mk, so the names it
# shares with that bench are spelled out here rather than taken from its variables)
AES_BRAM_BUILD   := $(VERIF_BUILD)/aes_bram
AES_BRAM_HARNESS := $(VERIF_BUILD)/aes_pipeline/tb_aes.o
AES_BRAM_VARIANT := $(if $(filter 1,$(WAVES)),-waves,)
AES_BRAM_VFLAGS  := --MAKEFLAGS OPT_FAST=-O1 --MAKEFLAGS OPT_SLOW=-O0
AES_BRAM_BEATS   ?= 20000
AES_BRAM_RTL     := $(wildcard rtl/crypto/aes_*.v) verif/aes_bram/tb_aes_bram_top.v
AES_BRAM_LANES   := 1 4
AES_BRAM_TARGETS := $(addprefix vtest-aes-bram-L,$(AES_BRAM_LANES))

.PHONY: $(AES_BRAM_TARGETS)

$(AES_BRAM_BUILD)/L%$(AES_BRAM_VARIANT)/Vtb: $(AES_BRAM_RTL) verif/aes_pipeline/shim.cpp verif/aes_pipeline/tb_aes.h \
                                        verif/aes_bram/aes_bram.mk $(AES_BRAM_HARNESS) $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) tb_aes_bram_top "-GLANES=$* --prefix Vtb_aes_top $(AES_BRAM_VFLAGS)" "$(AES_BRAM_RTL)" \
	  verif/aes_pipeline/shim.cpp "$(AES_BRAM_HARNESS) $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" $(WAVES)

$(AES_BRAM_TARGETS): vtest-aes-bram-L%: $(AES_BRAM_BUILD)/L%$(AES_BRAM_VARIANT)/Vtb
	$< --seed $(SEED) --beats $(AES_BRAM_BEATS)

TEST_TARGETS += vtest-aes-bram-L1

# gcm_core with the block RAM S-boxes, Verilated as the top with the variant's parameters
GCM_BRAM_BUILD    := $(VERIF_BUILD)/gcm_bram
GCM_BRAM_RTL      := $(wildcard rtl/crypto/aes_*.v) rtl/crypto/gf128_clmul.v rtl/crypto/gf128_reduce.v \
                     rtl/crypto/gf128_mul_serial.v rtl/crypto/ghash_engine.v rtl/crypto/gcm_len_mul.v rtl/common/sync_fifo.v \
                     rtl/crypto/gcm_core.v
GCM_BRAM_HARNESS  := $(VERIF_BUILD)/gcm_core/tb_gcm.o
# --vpi: the GCM harness's zeroize check reads the key table by name (gcm_core.mk's GCM_VFLAGS)
GCM_BRAM_PARAMS   := -GSTAGES_PER_ROUND=2 -GSBOX_IMPL=1 --vpi
GCM_BRAM_MESSAGES ?= 10000

.PHONY: vtest-gcm-bram-L1 bench-gcm-bram

$(GCM_BRAM_BUILD)/L%$(AES_BRAM_VARIANT)/Vtb: $(GCM_BRAM_RTL) verif/gcm_core/shim.cpp verif/gcm_core/tb_gcm.h \
                                            verif/aes_bram/aes_bram.mk $(GCM_BRAM_HARNESS) $(VERIF_COMMON_OBJS) $(CM_LIB)
	scripts/verilate.sh $(@D) gcm_core "-GLANES=$* $(GCM_BRAM_PARAMS) $(AES_BRAM_VFLAGS)" "$(GCM_BRAM_RTL)" \
	  verif/gcm_core/shim.cpp "$(GCM_BRAM_HARNESS) $(VERIF_COMMON_OBJS) $(CM_LIB) $(IBSEC_LDLIBS)" $(WAVES)

vtest-gcm-bram-L1: $(GCM_BRAM_BUILD)/L1$(AES_BRAM_VARIANT)/Vtb
	$< --seed $(SEED) --messages $(GCM_BRAM_MESSAGES)

bench-gcm-bram: $(GCM_BRAM_BUILD)/L1$(AES_BRAM_VARIANT)/Vtb
	$< --seed $(SEED) --bench

TEST_TARGETS  += vtest-gcm-bram-L1

.SECONDARY: $(foreach l,$(AES_BRAM_LANES),$(AES_BRAM_BUILD)/L$(l)$(AES_BRAM_VARIANT)/Vtb) \
            $(GCM_BRAM_BUILD)/L1$(AES_BRAM_VARIANT)/Vtb
