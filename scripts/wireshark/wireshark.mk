# scripts/wireshark/wireshark.mk — the Wireshark dissector of the ibsec fields
# (scripts/wireshark/ibsec.lua, docs/wireshark.md). Included by the top-level Makefile.
#
#   make wireshark-install     copies the dissector into Wireshark's personal Lua plugin
#                              folder (WIRESHARK_PLUGINS, default ~/.local/lib/wireshark/plugins)
#   make wireshark-uninstall   removes that copy
#   make test-dissector        part of `make test`: writes the vectors (`make vectors`), runs
#                              tshark with the dissector on them and checks what it prints
#                              with the C model and OpenSSL (scripts/wireshark/test_dissector.sh)

WIRESHARK_PLUGINS ?= $(HOME)/.local/lib/wireshark/plugins
WS_BUILD          := $(BUILD)/wireshark
WS_CHECK          := $(WS_BUILD)/check_dissector

.PHONY: wireshark-install wireshark-uninstall test-dissector

wireshark-install:
	install -d $(WIRESHARK_PLUGINS)
	install -m 644 scripts/wireshark/ibsec.lua $(WIRESHARK_PLUGINS)/ibsec.lua
	@echo "installed $(WIRESHARK_PLUGINS)/ibsec.lua; give it the key file with -o ibsec.keyfile:PATH or IBSEC_KEYFILE (docs/wireshark.md)"

wireshark-uninstall:
	rm -f $(WIRESHARK_PLUGINS)/ibsec.lua

$(WS_CHECK): scripts/wireshark/check_dissector.c $(CM_LIB) $(CM_HDRS) $(wildcard cmodel/test/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Icmodel/test $< $(CM_LIB) $(IBSEC_LDLIBS) -o $@

test-dissector: vectors $(WS_CHECK)
	scripts/wireshark/test_dissector.sh $(BUILD)

TEST_TARGETS += test-dissector
