#!/usr/bin/env bash
# More nextpnr seeds of one synthesized place-and-route run: the routed clock of one
# netlist spreads with the placer's seed (the seal engine: 29.7 to 39.1 MHz over seeds 1-3,
# docs/fpga.md), so a change to the clock is judged over several seeds, not one.
#
# Usage: scripts/pnr_seeds.sh RUN_DIR FREQ_MHZ SEED...
#   RUN_DIR is a run of scripts/synth_pnr.sh (it holds netlist.json); each seed is placed
#   and routed one after the other by scripts/nextpnr_run.sh (its variables: PNR_LPF,
#   PNR_PLACER, PNR_TIMEOUT, PNR_NICE) into RUN_DIR/seed<N>/. A seed that does not finish
#   (time limit, router2 not converging) is recorded as such; the others go on.
# Then scripts/pnr_seeds_report.py writes RUN_DIR/seeds.json and prints the table.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 RUN_DIR FREQ_MHZ SEED..." >&2; exit 2
fi
run=$1; freq=$2; shift 2
[ -f "$run/netlist.json" ] || {
  echo "pnr_seeds: $run/netlist.json not found: synthesize the run first (its pnr_summary.json target)" >&2
  exit 2; }
for s in "$@"; do
  [[ $s =~ ^[0-9]+$ ]] || { echo "pnr_seeds: a seed is a non-negative integer, got '$s'" >&2; exit 2; }
done
for s in "$@"; do
  t0=$(date +%s)
  rm -f "$run/seed$s/pnr.log" "$run/seed$s/report.json" "$run/seed$s/exit"
  set +e
  PNR_SEED=$s scripts/stage.sh --log "$run/seed$s/pnr.log" "pnr_seeds: seed $s" \
    scripts/nextpnr_run.sh "$run/netlist.json" "$run/seed$s" "$freq"
  rc=$?
  set -e
  # nextpnr never started (nextpnr_run.sh's own checks failed): not a result of the seed
  [ -f "$run/seed$s/pnr.log" ] || { echo "pnr_seeds: seed $s: nextpnr did not run" >&2; exit 2; }
  echo "$rc $(( $(date +%s) - t0 ))" > "$run/seed$s/exit"
  echo "pnr_seeds: seed $s: nextpnr exit $rc after $(( $(date +%s) - t0 )) s"
done
"${PYTHON:-python3}" scripts/pnr_seeds_report.py "$run" "$@"
