#!/usr/bin/env bash
# demo.sh — the body of `make demo`: runs the vectors that `make vectors` wrote through
# the model's command-line tools and prints a readable summary.
#
#   scripts/demo.sh BUILD SEED COUNT [RTL_PACKETS [RTL_WIDTHS]]
#
# Sections (each adds rows to the summary and counts its checks; a later issue adds the
# RTL benches as further sections — write a function section_<name> and call it below):
#   model   per link: seal the plain pcap with ibsec_pcap and compare with the sealed pcap
#           byte for byte; open the sealed pcap as the peer and compare with the plain
#           pcap; open the wire pcap (tampered copies, replays) and count drops by reason.
#   tshark  tshark reads every pcap, with as many packets as the model wrote, and
#           dissects every plain and sealed packet as InfiniBand (native) or RoCEv2
#           (Ethernet/UDP 4791); in the wire pcaps, every packet it does not see as
#           InfiniBand must be a tampered or forged copy (a flipped header bit), never a
#           genuine one (the .vec file says which is which).
#   independent  every sealed packet of the vectors rebuilt from docs/wire-format.md with
#           OpenSSL's AES-GCM (scripts/check_vectors_independent.py) is identical.
#   vectors the packet harness vector files: records per kind and header shape, alerts.
#   gcm     the GCM harness vector file is present (count of vectors).
#   rtl     the packet engine RTL (verif/engine bench, built by `make demo` at LANES = 1, 4,
#           12 once verif/engine/engine.mk enables it): per width a short mixed regression of
#           RTL_PACKETS plain packets per mode (default 60) with bad input, key changes and
#           a reset, every output and status compared with the model; then the 1 KiB
#           benchmark: latency FF / LL / LIFO (LIFO, last beat in to first beat out, is
#           the latency the engine adds) and throughput on the link-side port (seal's
#           output, open's input), the figures make report uses.
# A line on stderr names each section as it starts, with the elapsed time.
# Ends with "demo: N passed, N failed" and exits non-zero if any check failed.
set -uo pipefail

BUILD=${1:?usage: demo.sh BUILD SEED COUNT}
SEED=${2:?usage: demo.sh BUILD SEED COUNT}
COUNT=${3:?usage: demo.sh BUILD SEED COUNT}
BIN=$BUILD/bin
VEC=$BUILD/vectors
OUT=$BUILD/demo
LINKS=(native rocev2)
pass=0; fail=0
rm -rf "$OUT"; mkdir -p "$OUT"

# what the demo is doing, on stderr (the summary stays on stdout)
stage() { echo "demo: $* ($SECONDS s elapsed)" >&2; }

check() {  # check COND_STATUS WHAT
  if [ "$1" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL demo: $2"; fi
}

# Run ibsec_pcap; its output goes to $OUT/<tag>.log, the exit status is returned.
run_pcap() {  # run_pcap TAG ARGS...
  local tag=$1; shift
  "$BIN/ibsec_pcap" "$@" > "$OUT/$tag.log" 2>&1
}

# Field of the tool's summary line: packets | delivered | dropped.
summary_field() {  # summary_field LOG WORD
  sed -nE "s/^ibsec_pcap: .*: ([0-9]+) packets, ([0-9]+) delivered, ([0-9]+) dropped$/\1 \2 \3/p" "$1" |
    awk -v w="$2" '{ print (w == "packets") ? $1 : (w == "delivered") ? $2 : $3 }'
}

# ---- model ---------------------------------------------------------------------
MODEL_ROWS=(); DROP_ROWS=()
section_model() {
  local link rc_s rc_o rc_w exact_s exact_o
  for link in "${LINKS[@]}"; do
    run_pcap "$link-seal" seal --keys "$VEC/keys.txt" "$VEC/$link-plain.pcap" "$OUT/$link-sealed.pcap"
    rc_s=$?
    run_pcap "$link-open" open --peer --keys "$VEC/keys.txt" "$VEC/$link-sealed.pcap" "$OUT/$link-opened.pcap"
    rc_o=$?
    run_pcap "$link-wire" open --peer --keys "$VEC/keys.txt" "$VEC/$link-wire.pcap" "$OUT/$link-wire-opened.pcap"
    rc_w=$?
    check "$rc_s" "$link: ibsec_pcap seal exit $rc_s (see $OUT/$link-seal.log)"
    check "$rc_o" "$link: ibsec_pcap open exit $rc_o (see $OUT/$link-open.log)"
    # the wire pcap holds tampered copies and replays: exit 3 (some dropped) is expected
    [ "$rc_w" = 3 ]; check $? "$link: ibsec_pcap open of the wire pcap exit $rc_w, expected 3"
    cmp -s "$VEC/$link-sealed.pcap" "$OUT/$link-sealed.pcap"; exact_s=$?
    cmp -s "$VEC/$link-plain.pcap" "$OUT/$link-opened.pcap"; exact_o=$?
    check "$exact_s" "$link: re-sealed pcap differs from the vectors' sealed pcap"
    check "$exact_o" "$link: opened pcap differs from the plain pcap"
    local yn; if [ "$exact_s$exact_o" = 00 ]; then yn=yes; else yn=no; fi
    # per mode: packets sealed (seal log) and delivered by open (open log)
    local mode pk sealed ok
    while read -r _ mode pk _ sealed _; do
      ok=$(awk -v m="$mode" '$1 == "mode" && $2 == m { print $5 }' "$OUT/$link-open.log")
      MODEL_ROWS+=("$(printf '%-7s %-9s %8s %8s %9s %10s' "$link" "$mode" "$pk" "$sealed" "${ok:-0}" "$yn")")
    done < <(grep -E '^  mode ' "$OUT/$link-seal.log")
    local reasons
    reasons=$(awk '$1 == "reason" && $2 != "ok" { printf "%s%s %s", sep, $2, $3; sep = ", " }' "$OUT/$link-wire.log")
    DROP_ROWS+=("$(printf '%-7s %8s %9s %8s  %s' "$link" "$(summary_field "$OUT/$link-wire.log" packets)" \
      "$(summary_field "$OUT/$link-wire.log" delivered)" "$(summary_field "$OUT/$link-wire.log" dropped)" "$reasons")")
  done
}

# ---- tshark ----------------------------------------------------------------------
TSHARK_ROWS=()
# tshark before 4.2 does not know pcap link type 247 (LINKTYPE_INFINIBAND); such a file
# is checked through a copy relabelled as DLT_USER0 (147) and decoded with tshark's
# "infiniband" dissector, the one link type 247 selects in later versions.
TSHARK_USER0=(-o 'uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""')
tshark_protocols() {  # tshark_protocols PCAP -> one line of frame.protocols per packet
  local f=$1
  if tshark -r "$f" -T fields -e frame.protocols 2>/dev/null; then return 0; fi
  local lt; lt=$(od -An -tu4 -j20 -N4 "$f" | tr -d ' ')
  [ "$lt" = 247 ] || return 1
  cp "$f" "$OUT/user0.pcap"
  printf '\223\000\000\000' | dd of="$OUT/user0.pcap" bs=1 seek=20 conv=notrunc 2>/dev/null
  tshark "${TSHARK_USER0[@]}" -r "$OUT/user0.pcap" -T fields -e frame.protocols 2>/dev/null
}
# The wire pcap's packets that tshark does not dissect as InfiniBand, by the kind of
# their record in <link>.vec (records with a wire packet, in pcap order). A tampered or
# forged copy has one bit flipped, CRCs recomputed or not; a flip in a field the dissector
# keys on (LRH LNH, EtherType, IP version or protocol, UDP port 4791) makes the packet
# something else to tshark. A genuine packet (normal, replay, reuse, badtag: headers as
# sealed) must always be InfiniBand.
TSHARK_NOTES=()
tshark_wire_note() {  # tshark_wire_note LINK PROTOCOLS_FILE
  local link=$1 protos=$2 kinds
  kinds=$(awk '$1 == "pkt" { k = $4 } $1 == "wire" && $2 != "-" { print k }' "$VEC/$link.vec")
  local counts; counts=$(paste <(echo "$kinds") "$protos" | awk -F'\t' '
    $2 !~ /infiniband/ { n++; if ($1 == "tamper" || $1 == "forge") t++; else g++ }
    END { printf "%d %d %d", n, t, g }')
  local n t g; read -r n t g <<<"$counts"
  [ "$g" = 0 ]; check $? "$link-wire.pcap: $g genuine packets (headers as sealed) not dissected as InfiniBand"
  if [ "$n" = 0 ]; then
    TSHARK_NOTES+=("$link-wire.pcap: every packet dissected as InfiniBand")
  else
    if [ "$g" = 0 ]; then
      TSHARK_NOTES+=("$link-wire.pcap: $n packets are not InfiniBand to tshark, all of them tampered or forged copies; every genuine packet is InfiniBand")
    else
      TSHARK_NOTES+=("$link-wire.pcap: $n packets are not InfiniBand to tshark: $t tampered or forged copies and $g genuine packets (a failure)")
    fi
  fi
}
section_tshark() {
  if ! command -v tshark >/dev/null; then check 1 "tshark not installed (scripts/deps.sh installs it)"; return; fi
  local link kind f want got ib
  for link in "${LINKS[@]}"; do
    for kind in plain sealed wire; do
      f=$VEC/$link-$kind.pcap
      want=$(summary_field "$OUT/$link-$([ $kind = plain ] && echo seal || { [ $kind = sealed ] && echo open || echo wire; })".log packets)
      tshark_protocols "$f" > "$OUT/$link-$kind.protocols"; check $? "tshark cannot read $f"
      got=$(wc -l < "$OUT/$link-$kind.protocols")
      ib=$(grep -c 'infiniband' "$OUT/$link-$kind.protocols")
      [ "$got" = "$want" ]; check $? "tshark reads $got packets in $f, the model $want"
      # plain and sealed packets are well formed: every one is dissected as InfiniBand;
      # the wire pcap also holds tampered packets, which may not be
      if [ "$kind" != wire ]; then [ "$ib" = "$got" ]; check $? "tshark dissects $ib of $got packets of $f as InfiniBand"; fi
      TSHARK_ROWS+=("$(printf '%-20s %8s %8s %12s' "$link-$kind.pcap" "$want" "$got" "$ib")")
      [ "$kind" = wire ] && tshark_wire_note "$link" "$OUT/$link-$kind.protocols"
    done
  done
}

# ---- gcm -------------------------------------------------------------------------
GCM_ROW="not written (no cmodel/tools/ibsec_gcmvec.c)"
section_gcm() {
  if [ -f "$VEC/gcm.vec" ]; then
    local n; n=$(grep -c '^msg ' "$VEC/gcm.vec")
    GCM_ROW="$VEC/gcm.vec, $n messages (docs/gcm-vectors.md)"
    [ "$n" -gt 0 ]; check $? "$VEC/gcm.vec holds no message"
  fi
}

# ---- independent -------------------------------------------------------------------
INDEP_ROW="not run"
section_independent() {
  local out rc
  out=$(python3 scripts/check_vectors_independent.py "$VEC" 2>&1); rc=$?
  check "$rc" "independent rebuild of the sealed vectors: $(tail -n 3 <<<"$out")"
  INDEP_ROW=$(tail -n 1 <<<"$out" | sed -E 's/^vec-indep: ([0-9]+) passed, ([0-9]+) failed/\1 identical, \2 different/')
}

# ---- vectors ----------------------------------------------------------------------
VEC_ROWS=()
section_vectors() {
  local link
  for link in "${LINKS[@]}"; do
    [ -s "$VEC/$link.vec" ]; check $? "$VEC/$link.vec missing"
    [ "$(grep -c '^pkt ' "$VEC/$link.vec")" = "$(awk '$1 == "end" { print $2 }' "$VEC/$link.vec")" ]
    check $? "$VEC/$link.vec: record count differs from its end line"
    VEC_ROWS+=("$(printf '%-7s ' "$link")$(awk '
      $1 == "pkt" { n++; kind[$4]++; shape[$6]++; alerts += $14 }
      END {
        printf "%d records; kinds:", n
        for (k in kind) printf " %s %d", k, kind[k]
        printf "; shapes:"
        for (s in shape) printf " %s %d", s, shape[s]
        printf "; alerts raised %d", alerts
      }' "$VEC/$link.vec")")
  done
}

# ---- rtl -------------------------------------------------------------------------
RTL_PACKETS=${4:-60}
RTL_WIDTHS=${5:-}     # the widths whose bench make demo built
RTL_ROWS=()
# One figure over the modes from a bench JSON file: max of a latency, min of a throughput.
rtl_fig() {  # rtl_fig JSON OP FIELD max|min
  python3 - "$@" <<'PY'
import json, sys
path, op, field, how = sys.argv[1:5]
vals = [r[field] for r in json.load(open(path))["results"] if r["op"] == op and r["payload"] == 1024]
print(("%d" if field.endswith("cycles") else "%.1f") % (max(vals) if how == "max" else min(vals)) if vals else "-")
PY
}
section_rtl() {
  local l bin log json rc line pk modes fails
  for l in 1 4 12; do
    bin=$BUILD/verif/engine/L$l/Vtb
    if [ ! -x "$bin" ] || ! grep -qw "$l" <<<"${RTL_WIDTHS:-}"; then
      RTL_ROWS+=("$(printf "%-6s  not built (engine bench not enabled: verif/engine/engine.mk)" "L$l")"); continue
    fi
    log=$OUT/rtl-L$l.log; json=$OUT/rtl-bench-L$l.json
    "$bin" --seed "$SEED" --packets "$RTL_PACKETS" --quiet > "$log" 2>&1; rc=$?
    check "$rc" "RTL regression at LANES = $l (see $log)"
    line=$(grep -E '^engine-L[0-9]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    fails=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"${line:-x 1 failed}")
    pk=$(awk '/^(seal|open): [0-9]+ frames in/ { n += $2 } END { print n + 0 }' "$log")
    modes=$(awk '/^seal:/ { s = 1; next } /^open:/ { s = 0 } s && $1 ~ /^(none|icrc-mac|sth-hdr|sth-pkt|sth-aead)$/ && $3 > 0 { n++ } END { print n + 0 }' "$log")
    "$bin" --seed "$SEED" --bench --bench-payload 1024 --json "$json" > "$OUT/rtl-bench-L$l.log" 2>&1
    check $? "RTL benchmark at LANES = $l (see $OUT/rtl-bench-L$l.log)"
    if [ -s "$json" ]; then
      local sl ol
      sl="$(rtl_fig "$json" seal latency_ff_cycles max)/$(rtl_fig "$json" seal latency_ll_cycles max)/$(rtl_fig "$json" seal latency_lifo_cycles max)"
      ol="$(rtl_fig "$json" open latency_ff_cycles max)/$(rtl_fig "$json" open latency_ll_cycles max)/$(rtl_fig "$json" open latency_lifo_cycles max)"
      RTL_ROWS+=("$(printf '%-6s %8s %6s %10s %16s %16s %7s %7s' "L$l" "$pk" "$modes/5" "$fails" "$sl" "$ol" \
        "$(rtl_fig "$json" seal link_throughput_pct min)" "$(rtl_fig "$json" open link_throughput_pct min)")")
    else
      RTL_ROWS+=("$(printf '%-6s %8s %6s %10s  (no benchmark figures)' "L$l" "$pk" "$modes/5" "$fails")")
    fi
  done
}

stage "model: seal and open the vectors with ibsec_pcap"; section_model
stage "tshark: read the pcaps"; section_tshark
stage "independent rebuild of the sealed packets"; section_independent
stage "vector files"; section_vectors; section_gcm
stage "packet engine RTL: regression and benchmark per width"; section_rtl
stage "done"

echo
echo "ibsec demo — C reference model, seed $SEED, $COUNT random packets per link plus corner cases"
echo "(vectors: $VEC, tool logs: $OUT)"
echo
echo "Seal and open round trip with ibsec_pcap: packets of each mode sealed by endpoint a, delivered"
echo "by its peer b; byte-exact = the link's sealed pcap reproduced and its plain pcap restored, byte for byte"
printf '%-7s %-9s %8s %8s %9s %10s\n' link mode packets sealed delivered byte-exact
for r in "${MODEL_ROWS[@]}"; do echo "$r"; done
echo
echo "Receiver on the wire pcap (genuine packets plus tampered, forged and replayed copies)"
printf '%-7s %8s %9s %8s  %s\n' link packets delivered dropped "drop reasons"
for r in "${DROP_ROWS[@]}"; do echo "$r"; done
echo
echo "tshark reading the pcaps"
printf '%-20s %8s %8s %12s\n' pcap model tshark "InfiniBand"
for r in "${TSHARK_ROWS[@]}"; do echo "$r"; done
echo "Why a wire pcap has fewer InfiniBand rows: it also holds tampered and forged copies, one bit"
echo "flipped; where the bit falls in a header field the dissector keys on (LRH LNH, EtherType, IP"
echo "version or protocol, UDP port 4791), tshark sees another protocol. By the records of <link>.vec:"
for r in "${TSHARK_NOTES[@]}"; do echo "  $r"; done
echo
echo "Sealed packets rebuilt from docs/wire-format.md with OpenSSL AES-GCM (not the model): $INDEP_ROW"
echo
echo "Packet harness vectors (docs/vectors.md)"
for r in "${VEC_ROWS[@]}"; do echo "$r"; done
echo "GCM harness vectors: $GCM_ROW"
echo
echo "Packet engine RTL (Verilator, seal and open instances) against the model: $RTL_PACKETS plain packets"
echo "per mode plus bad input, key changes and a reset per width; packets = frames into both instances;"
echo "mismatches = failed comparisons (status, output bytes, model peer, counters, context state);"
echo "latency at 1 KiB payload, worst mode, cycles: FF first beat in -> first beat out, LL last in -> last out,"
echo "LIFO last beat in -> first beat out: the latency the engine adds (it stores a packet before it sends it);"
echo "throughput: back-to-back 1 KiB packets, worst mode, on the link-side port (seal's output, open's input),"
echo "% of 16 x LANES bytes per clock: the figures of make report (docs/performance.md)"
printf '%-6s %8s %6s %10s %16s %16s %7s %7s\n' width packets modes mismatches "seal FF/LL/LIFO" "open FF/LL/LIFO" "seal %" "open %"
for r in "${RTL_ROWS[@]}"; do echo "$r"; done
echo
echo "demo: $pass passed, $fail failed"
[ "$fail" = 0 ]
