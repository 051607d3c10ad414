# cli.mk — ctest-cli: end-to-end checks of the command-line tools ibsec_vecgen and
# ibsec_pcap (scripts/test_cli.sh): seal/open round trips of the generated pcaps,
# byte for byte, and every bad-input case with its exit code and message.

.PHONY: ctest-cli

ctest-cli: $(BUILD)/bin/ibsec_vecgen $(BUILD)/bin/ibsec_pcap
	scripts/test_cli.sh $(BUILD)/bin $(BUILD)/test-cli

TEST_TARGETS += ctest-cli
