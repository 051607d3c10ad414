# bench-model: the C model's AES-GCM seal throughput next to OpenSSL EVP's, in one
# process (build/bin/ibsec_bench_gcm, cmodel/tools/ibsec_bench_gcm.c). Prints MB/s and
# the ratio model/OpenSSL for 64 B, 1 KiB and 4 KiB messages, AES-128 and AES-256,
# LANES 1 and 12; asserts nothing. BENCH_SECONDS is the CPU time per figure.
BENCH_SECONDS ?= 0.25

.PHONY: bench-model
bench-model: $(BUILD)/bin/ibsec_bench_gcm
	$< -t $(BENCH_SECONDS)

BENCH_TARGETS += bench-model
