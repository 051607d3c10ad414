# cmodel/test/indep.mk — ctest-crc-indep: the model's packets and their ICRC/VCRC checked by
# code that is not the model's (docs/packets.md §4).
#
# build/bin/ibsec_pktgen writes CRC_INDEP_COUNT packets of each header shape (every opcode
# of the shape in turn) to $(BUILD)/crc-indep/<shape>.pcap with a manifest <shape>.tsv;
# scripts/check_crc_independent.py then checks them with tshark (header parse, CRC field
# positions), scapy.contrib.roce (RoCEv2 ICRC), zlib.crc32 with the IBA masking written in
# Python (native and RoCEv2 ICRC) and crcmod (VCRC), and prints
# "crc-indep: N passed, N failed". A missing tshark, scapy or crcmod is a failure.

CRC_INDEP_DIR    := $(BUILD)/crc-indep
CRC_INDEP_COUNT  ?= 1200
CRC_INDEP_SHAPES := native native-grh rocev2-ipv4 rocev2-ipv6
CRC_INDEP_PCAPS  := $(patsubst %,$(CRC_INDEP_DIR)/%.pcap,$(CRC_INDEP_SHAPES))

.PHONY: ctest-crc-indep

ctest-crc-indep: $(BUILD)/bin/ibsec_pktgen scripts/check_crc_independent.py | deps
	@mkdir -p $(CRC_INDEP_DIR)
	@set -e; for s in $(CRC_INDEP_SHAPES); do \
	  $(BUILD)/bin/ibsec_pktgen --seed $(SEED) --count $(CRC_INDEP_COUNT) --shape $$s \
	    --out $(CRC_INDEP_DIR)/$$s.pcap --manifest $(CRC_INDEP_DIR)/$$s.tsv; \
	done
	$(PYTHON) scripts/check_crc_independent.py --min-packets 1000 $(CRC_INDEP_PCAPS)

TEST_TARGETS += ctest-crc-indep
