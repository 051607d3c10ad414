#!/usr/bin/env bash
# Runs the named make targets one after another, collects the "N passed, N failed"
# line each prints, and ends with the grand total. Exits non-zero when any target
# fails, prints no summary line, or reports a failure.
set -uo pipefail
total_pass=0; total_fail=0; broken=()
if [ $# -eq 0 ]; then echo "run_tests: no test targets given"; echo "0 passed, 1 failed"; exit 1; fi
for t in "$@"; do
  echo "=== $t"
  log=$(mktemp)
  make --no-print-directory "$t" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  line=$(grep -E '^([A-Za-z0-9_.-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  rm -f "$log"
  if [ -z "$line" ]; then
    broken+=("$t (no summary line, exit $rc)"); continue
  fi
  p=$(sed -E 's/^([A-Za-z0-9_.-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2/' <<<"$line")
  f=$(sed -E 's/^([A-Za-z0-9_.-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\3/' <<<"$line")
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  [ "$rc" = 0 ] || broken+=("$t (exit $rc)")
done
echo "=== summary"
for b in "${broken[@]}"; do echo "broken: $b"; done
[ ${#broken[@]} -eq 0 ] || total_fail=$((total_fail + ${#broken[@]}))
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
