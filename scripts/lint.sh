#!/usr/bin/env bash
# Lint of each named top-level module at LANES = 1, 4 and 12, over all of the RTL
# (every .v file in the folders of rtl/, or of RTL_DIRS when make passes it). A module
# without a LANES parameter is checked once. Two tools, each a check of its own:
#   - Verilator --lint-only -Wall;
#   - Icarus Verilog (-g2005) elaboration, a second front end: it rejects what Verilator
#     lets through silently, e.g. a name declared twice in one scope (a reg and a wire),
#     which Verilator simulated as one of the two and Yosys as two drivers of one net.
# Prints one line per run and "lint: N passed, N failed".
set -uo pipefail
dirs=(); for d in ${RTL_DIRS:-rtl/*/}; do dirs+=("${d%/}"); done
inc=(); files=()
for d in "${dirs[@]}"; do inc+=(-I"$d"); files+=("$d"/*.v); done
pass=0; fail=0
judge() {  # judge <tool> <top> <width> <output>
  if [ -z "$4" ]; then
    pass=$((pass + 1)); echo "lint ok   $1 $2 LANES=$3"
  else
    fail=$((fail + 1)); echo "lint FAIL $1 $2 LANES=$3"; echo "$4" | head -40
  fi
}
for top in "$@"; do
  src=$(for d in "${dirs[@]}"; do [ -f "$d/$top.v" ] && echo "$d/$top.v"; done)
  if grep -q "parameter *LANES" "$src" 2>/dev/null; then widths="1 4 12"; else widths="-"; fi
  for l in $widths; do
    g=(); p=(); [ "$l" = - ] || { g=(-GLANES="$l"); p=(-P"$top.LANES=$l"); }
    judge verilator "$top" "$l" "$(verilator --lint-only -Wall "${inc[@]}" --top-module "$top" "${g[@]}" "${files[@]}" 2>&1)"
    judge iverilog "$top" "$l" "$(iverilog -g2005 "${inc[@]}" -s "$top" "${p[@]}" -o /dev/null "${files[@]}" 2>&1)"
  done
done
echo "lint: $pass passed, $fail failed"
[ "$fail" = 0 ]
