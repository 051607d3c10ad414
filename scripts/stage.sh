#!/usr/bin/env bash
# stage.sh — runs one stage of a long flow (synthesis, place and route, a Verilator
# build) and says where it is: a line when it starts, a heartbeat while it runs and a
# line when it ends, each with the elapsed time. Plain lines on stderr, no redraw, so a
# CI log gets one line per heartbeat.
#
# Usage: scripts/stage.sh [--every S] [--log FILE] [--out FILE] [--quiet] NAME CMD [ARG...]
#   NAME      what the lines call the stage ("pnr-gcm_core_L1_bram: place and route")
#   --every S a heartbeat every S seconds while CMD runs (60; 0: none)
#   --log F   the heartbeat quotes the last line of F, the log CMD writes as it goes
#             (nextpnr's and Yosys's -l file), so the line says which step is running
#   --out F   CMD's stdout and stderr go to F (the stage's own lines still to stderr)
#   --quiet   no start line, and the end line only if a heartbeat was printed: a stage
#             shorter than S seconds prints nothing (for stages inside make test)
# CMD's output (unless --out) and exit status pass through unchanged.
#
#   pnr-gcm_core_L1_bram: place and route: started
#   pnr-gcm_core_L1_bram: place and route: running, 3 min 0 s elapsed; pnr.log: Info: ...
#   pnr-gcm_core_L1_bram: place and route: done in 41 min 7 s
set -uo pipefail
every=60; log=""; out=""; quiet=0
while [ $# -gt 0 ]; do
  case $1 in
    --every) every=${2:?--every needs seconds}; shift 2 ;;
    --log)   log=${2:?--log needs a file}; shift 2 ;;
    --out)   out=${2:?--out needs a file}; shift 2 ;;
    --quiet) quiet=1; shift ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: stage.sh [--every S] [--log FILE] [--out FILE] [--quiet] NAME CMD [ARG...]" >&2; exit 2; }
[[ $every =~ ^[0-9]+$ ]] || { echo "stage.sh: --every takes whole seconds, got '$every'" >&2; exit 2; }
name=$1; shift

# seconds as a person reads them: 42 s, 6 min 49 s, 2 h 05 min
human() {
  local t=$1
  if [ "$t" -lt 100 ]; then echo "$t s"
  elif [ "$t" -lt 3600 ]; then echo "$((t / 60)) min $((t % 60)) s"
  else printf '%d h %02d min\n' $((t / 3600)) $((t / 60 % 60)); fi
}

t0=$(date +%s)
[ "$quiet" = 1 ] || echo "$name: started" >&2

hb=""
if [ "$every" -gt 0 ]; then
  main=$$
  (
    # the sleep is a child of its own: stop it with the loop, leave no process behind
    trap 'kill "$sp" 2>/dev/null; exit 0' TERM
    while :; do
      sleep "$every" & sp=$!
      wait "$sp"
      kill -0 "$main" 2>/dev/null || exit 0   # this script is gone: so is the heartbeat
      msg="$name: running, $(human $(( $(date +%s) - t0 ))) elapsed"
      if [ -n "$log" ] && [ -s "$log" ]; then
        last=$(tail -n 5 "$log" | tr -d '\r' | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-110)
        [ -z "$last" ] || msg+="; $(basename "$log"): $last"
      fi
      echo "$msg" >&2
    done
  ) &
  hb=$!
fi

# CMD in the foreground: it keeps this script's standard input and signals
if [ -n "$out" ]; then "$@" >"$out" 2>&1; rc=$?; else "$@"; rc=$?; fi
if [ -n "$hb" ]; then kill "$hb" 2>/dev/null; wait "$hb" 2>/dev/null; fi

el=$(( $(date +%s) - t0 ))
if [ "$quiet" = 0 ] || { [ "$every" -gt 0 ] && [ "$el" -ge "$every" ]; }; then
  if [ "$rc" = 0 ]; then echo "$name: done in $(human "$el")" >&2
  else echo "$name: failed (exit $rc) after $(human "$el")" >&2; fi
fi
exit "$rc"
