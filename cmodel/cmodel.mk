# cmodel/ — the C reference model: libibsec.a, its command-line tools and its tests.
# Library sources are cmodel/*.c; each cmodel/tools/<t>.c is a tool build/bin/<t>;
# each cmodel/test/test_<n>.c is a test program run by the make target ctest-<n>.
# Tests that need more than running a binary add their own rules in cmodel/test/*.mk.

CM_BUILD   := $(BUILD)/cmodel
CM_SRCS    := $(wildcard cmodel/*.c)
CM_HDRS    := $(wildcard cmodel/*.h)
CM_OBJS    := $(patsubst cmodel/%.c,$(CM_BUILD)/%.o,$(CM_SRCS))
CM_LIB     := $(CM_BUILD)/libibsec.a
CM_TOOLS   := $(patsubst cmodel/tools/%.c,$(BUILD)/bin/%,$(wildcard cmodel/tools/*.c))
CM_TESTS   := $(patsubst cmodel/test/test_%.c,%,$(wildcard cmodel/test/test_*.c))
CM_TESTBIN := $(patsubst %,$(CM_BUILD)/test_%,$(CM_TESTS))

.PHONY: model $(addprefix ctest-,$(CM_TESTS))

model: $(CM_LIB) $(CM_TOOLS)

$(CM_BUILD)/%.o: cmodel/%.c $(CM_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -c $< -o $@

$(CM_LIB): $(CM_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/%: cmodel/tools/%.c $(CM_LIB) $(CM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel $< $(CM_LIB) $(IBSEC_LDLIBS) -o $@

$(CM_BUILD)/test_%: cmodel/test/test_%.c $(wildcard cmodel/test/*.h) $(CM_LIB) $(CM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_IBSEC) -Icmodel -Icmodel/test $< $(CM_LIB) $(IBSEC_LDLIBS) -o $@

$(addprefix ctest-,$(CM_TESTS)): ctest-%: $(CM_BUILD)/test_%
	$<

TEST_TARGETS += $(addprefix ctest-,$(CM_TESTS))

-include $(wildcard cmodel/test/*.mk)
-include cmodel/setup/setup.mk
