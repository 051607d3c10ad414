# verif/enums/ — rtl/common/ibsec_enums.vh (reason, mode and shape codes) against the C model's
# enums, by name and value (check_enums.c). The harness compares the RTL's reasons with
# the model's by number only for the codes a regression produces; this checks them all.
# The target first runs the checker on a copy with one value changed, which must fail.

ENUMS_BUILD := $(VERIF_BUILD)/enums
ENUMS_BIN   := $(ENUMS_BUILD)/check_enums

.PHONY: enums-check

$(ENUMS_BIN): verif/enums/check_enums.c $(CM_HDRS) $(CM_LIB) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel $< $(CM_LIB) $(IBSEC_LDLIBS) -o $@

# R_BAD_ICRC (28) changed to 27 in the copy: the checker must exit 1
enums-check: $(ENUMS_BIN)
	@sed "s/R_BAD_ICRC *= 6'd28;/R_BAD_ICRC = 6'd27;/" rtl/common/ibsec_enums.vh > $(ENUMS_BUILD)/wrong.vh
	@cmp -s rtl/common/ibsec_enums.vh $(ENUMS_BUILD)/wrong.vh && \
	  { echo "enums-check: the copy was not changed"; echo "0 passed, 1 failed"; exit 1; } || true
	@$(ENUMS_BIN) $(ENUMS_BUILD)/wrong.vh $(RTL_DIRS) > $(ENUMS_BUILD)/wrong.log; rc=$$?; \
	  if [ $$rc -ne 1 ]; then echo "enums-check: a wrong R_BAD_ICRC gave exit $$rc, not 1"; \
	    cat $(ENUMS_BUILD)/wrong.log; echo "0 passed, 1 failed"; exit 1; fi; \
	  echo "enums-check: a wrong R_BAD_ICRC is caught: $$(grep -m1 FAIL $(ENUMS_BUILD)/wrong.log)"
	$(ENUMS_BIN) rtl/common/ibsec_enums.vh $(RTL_DIRS)

TEST_TARGETS += enums-check
