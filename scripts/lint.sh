#!/usr/bin/env bash
# Verilator lint (-Wall) of each named top-level module at LANES = 1, 4 and 12, over all
# of rtl/. A module without a LANES parameter is linted once. Prints one line per run and
# "lint: N passed, N failed".
set -uo pipefail
pass=0; fail=0
for top in "$@"; do
  if grep -q "parameter *LANES" "rtl/$top.v" 2>/dev/null; then widths="1 4 12"; else widths="-"; fi
  for l in $widths; do
    g=(); [ "$l" = - ] || g=(-GLANES="$l")
    out=$(verilator --lint-only -Wall -Irtl --top-module "$top" "${g[@]}" rtl/*.v 2>&1)
    if [ -z "$out" ]; then
      pass=$((pass + 1)); echo "lint ok   $top LANES=$l"
    else
      fail=$((fail + 1)); echo "lint FAIL $top LANES=$l"; echo "$out" | head -40
    fi
  done
done
echo "lint: $pass passed, $fail failed"
[ "$fail" = 0 ]
