#!/usr/bin/env bash
# Builds one Verilator test bench: a Verilated top module, its thin C++ shim, and the
# C harness objects and libraries it links (the harness logic itself is C).
# Usage: scripts/verilate.sh OUT TOP "PARAMS" "RTL_FILES" SHIM_CPP "LINK" [WAVES]
#   OUT     output folder (the executable is OUT/Vtb)
#   PARAMS  e.g. "-GLANES=4"
#   LINK    objects/libraries passed to the linker (C harness objects, libibsec.a, -lpcap -lcrypto)
#   WAVES   1 to compile FST tracing in
set -euo pipefail
out=$1 top=$2 params=$3 rtl=$4 shim=$5 link=$6 waves=${7:-0}
mkdir -p "$out"
# Verilator's own make does not see the linked harness objects as inputs: make calls this
# script only when something changed, so always relink.
rm -f "$out/Vtb"
trace=()
[ "$waves" = 1 ] && trace=(--trace-fst -CFLAGS -DIBSEC_WAVES=1)
top_dir=$(pwd)
inc=(); for d in ${RTL_DIRS:-rtl/*/}; do inc+=(-I"${d%/}"); done
# a build over a minute long (the engine at LANES = 12 takes minutes) says so every minute
# shellcheck disable=SC2086
scripts/stage.sh --quiet --log "$out/build.log" --out "$out/build.log" "verilate $out" \
verilator --cc --exe --build -j 2 -Wall -O3 --x-assign unique --x-initial unique \
  -Mdir "$out/obj" --top-module "$top" $params "${inc[@]}" "${trace[@]}" \
  -CFLAGS "-O2 -I$top_dir/cmodel -I$top_dir/verif/common" \
  -LDFLAGS "$(for l in $link; do case $l in -*) echo -n "$l ";; *) echo -n "$top_dir/$l ";; esac; done)" \
  -o "$top_dir/$out/Vtb" $rtl "$top_dir/$shim" || { cat "$out/build.log"; exit 1; }
