# netsim.mk — the switch-side availability simulation (cmodel/tools/ibsec_netsim.c,
# docs/availability.md §3).
#   ctest-netsim : reduced sizes (4 x 4 mesh and torus, 4-cube, 4-ary 2-tree floods, adaptive and
#                  deterministic routing; 2 packets per Table 3 mesh/torus, 200 on the
#                  38-cube and each Table 2 fat tree); asserts the qualitative claims;
#                  about 2 s.
#   sim-avail    : the figures of docs/availability.md (8 x 8 mesh flood at 40-70 %
#                  load; mesh, torus, 6-cube, 4-ary 3-tree x adaptive, deterministic at 50 %; 20
#                  spoofed packets per Table 2/3 network); about 30 s.

.PHONY: ctest-netsim sim-avail

ctest-netsim: $(BUILD)/bin/ibsec_netsim
	$< check

sim-avail: $(BUILD)/bin/ibsec_netsim
	$< flood --k 8 --time 400 --seed 1
	$< matrix --k 8 --time 400 --seed 1
	$< trace --trials 20 --seed 1

TEST_TARGETS += ctest-netsim
