#!/usr/bin/env bash
# test_dissector.sh — the body of `make test-dissector`: runs tshark with the Lua
# dissector (scripts/wireshark/ibsec.lua) on the vectors `make vectors` wrote and checks
# what it prints with the C model (check_dissector, built by make).
#
#   scripts/wireshark/test_dissector.sh BUILD
#
# Steps, each ending in "N passed, N failed" lines that are summed here:
#   kat      the dissector's AES-GCM inside tshark's Lua (ibsec_kat.lua): FIPS-197 AES
#            blocks, gcm.vec (the published McGrew-Viega cases and the model's messages);
#            the messages it seals itself are then recomputed with OpenSSL.
#   sealed   per link (native, RoCEv2) the sealed pcap with the key file: every field of
#            every packet (check_dissector sealed ... good); native pcaps are opened as
#            they are (link type 247; before Wireshark 4.2 the dissector's own reader).
#   wire     per link the wire pcap with IBSEC_KEYFILE instead of the preference:
#            delivered packets good, auth_failed ones bad tag, replays marked.
#   negative per link the sealed pcap with every key wrong (every secured packet bad
#            tag, no payload) and without a key file (no key); and check_dissector must
#            fail when the wrong-key output is checked as if it were good.
#   recipe   the tshark recipe of docs/vectors.md for native pcaps in Wireshark < 4.2,
#            run as written with /bin/sh on a copy of the sealed native pcap; tshark must
#            read every packet of the relabelled copy, and the dissector must decode it
#            through that route too.
# Ends with "test-dissector: N passed, N failed" and exits non-zero if anything failed.
set -uo pipefail

BUILD=${1:?usage: test_dissector.sh BUILD}
top=$(cd "$(dirname "$0")/../.." && pwd)
VEC=$BUILD/vectors
OUT=$BUILD/test-dissector
CHECK=$BUILD/wireshark/check_dissector
LUA=$top/scripts/wireshark/ibsec.lua
KAT=$top/scripts/wireshark/ibsec_kat.lua
LINKS=(native rocev2)
pass=0; fail=0

rm -rf "$OUT"; mkdir -p "$OUT/home"
OUT=$(cd "$OUT" && pwd); VEC=$(cd "$VEC" && pwd); CHECK=$(cd "$(dirname "$CHECK")" && pwd)/check_dissector
# tshark gets a home of its own: no personal preferences, and no installed copy of the
# dissector (`make wireshark-install`), which would be loaded instead of this one
export HOME=$OUT/home
unset XDG_CONFIG_HOME IBSEC_KEYFILE

check() {  # check STATUS WHAT
  if [ "$1" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL test-dissector: $2"; fi
}
# Adds the counts of the last "N passed, N failed" line of a log; a log without one fails.
tally() {  # tally LOG STATUS WHAT
  local line p f
  line=$(grep -E '^([A-Za-z0-9_.-]+: )?[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
  if [ -z "$line" ]; then check 1 "$3: no summary line (see $1)"; return; fi
  p=$(sed -E 's/^([A-Za-z0-9_.-]+: )?([0-9]+) passed.*/\2/' <<<"$line")
  f=$(sed -E 's/^.* ([0-9]+) failed.*/\1/' <<<"$line")
  pass=$((pass + p)); fail=$((fail + f))
  [ "$f" = 0 ] || grep -E '^FAIL' "$1" | head -n 5
  if [ "$2" != 0 ] && [ "$f" = 0 ]; then check 1 "$3: exit $2 (see $1)"; fi
  echo "  $3: $line"
}

read -r -a FIELDS <<<"$("$CHECK" fields)"
# tshark with the dissector; fields as tab-separated columns, errors to one log
dissect() {  # dissect PCAP [tshark options...]  (stdout: the columns)
  local pcap=$1; shift
  tshark -X lua_script:"$LUA" "$@" -r "$pcap" -T fields -E separator=/t "${FIELDS[@]}" 2>>"$OUT/tshark.err"
}

# ---- kat ----------------------------------------------------------------------------
echo "kat: the dissector's AES-GCM in tshark's Lua"
IBSEC_KAT_RECORDS=500 IBSEC_KAT_VECTORS=$VEC/gcm.vec IBSEC_KAT_OUT=$OUT/lua-gcm.vec \
  tshark -X lua_script:"$LUA" -X lua_script:"$KAT" -r "$VEC/rocev2-plain.pcap" -c 1 -q \
  > "$OUT/kat.log" 2>&1
tally "$OUT/kat.log" $? "known answers (FIPS-197, gcm.vec)"
"$CHECK" gcm "$OUT/lua-gcm.vec" > "$OUT/kat-openssl.log" 2>&1
tally "$OUT/kat-openssl.log" $? "Lua-sealed messages recomputed with OpenSSL"

# ---- sealed, wire, negative -----------------------------------------------------------
# every key of the key file with its last hex digit changed
awk '$1 == "key" { d = substr($4, length($4)); $4 = substr($4, 1, length($4) - 1) (d == "0" ? "1" : "0") } { print }' \
  "$VEC/keys.txt" > "$OUT/keys-wrong.txt"
for link in "${LINKS[@]}"; do
  echo "$link:"
  sealed=$VEC/$link-sealed.pcap; plain=$VEC/$link-plain.pcap
  dissect "$sealed" -o "ibsec.keyfile:$VEC/keys.txt" > "$OUT/$link-sealed.tsv"
  check $? "tshark on $sealed"
  "$CHECK" sealed "$VEC/keys.txt" "$plain" "$sealed" "$OUT/$link-sealed.tsv" good > "$OUT/$link-sealed.log" 2>&1
  tally "$OUT/$link-sealed.log" $? "sealed pcap, key file"

  IBSEC_KEYFILE=$VEC/keys.txt dissect "$VEC/$link-wire.pcap" > "$OUT/$link-wire.tsv"
  check $? "tshark on $VEC/$link-wire.pcap"
  "$CHECK" wire "$VEC/keys.txt" "$VEC/$link.vec" "$OUT/$link-wire.tsv" > "$OUT/$link-wire.log" 2>&1
  tally "$OUT/$link-wire.log" $? "wire pcap, IBSEC_KEYFILE"
  grep -E '^dissector-wire: .*verdicts' "$OUT/$link-wire.log" | sed 's/^/    /'

  dissect "$sealed" -o "ibsec.keyfile:$OUT/keys-wrong.txt" > "$OUT/$link-wrong.tsv"
  "$CHECK" sealed "$VEC/keys.txt" "$plain" "$sealed" "$OUT/$link-wrong.tsv" bad-tag > "$OUT/$link-wrong.log" 2>&1
  tally "$OUT/$link-wrong.log" $? "sealed pcap, every key wrong: bad tag"
  dissect "$sealed" > "$OUT/$link-nokey.tsv"
  "$CHECK" sealed "$VEC/keys.txt" "$plain" "$sealed" "$OUT/$link-nokey.tsv" no-key > "$OUT/$link-nokey.log" 2>&1
  tally "$OUT/$link-nokey.log" $? "sealed pcap, no key file: no key"
  # the checker itself must catch a dissector that printed other verdicts and no payload
  "$CHECK" sealed "$VEC/keys.txt" "$plain" "$sealed" "$OUT/$link-wrong.tsv" good > "$OUT/$link-selfcheck.log" 2>&1
  rc=$?
  nf=$(sed -nE 's/^dissector-sealed: [0-9]+ passed, ([0-9]+) failed$/\1/p' "$OUT/$link-selfcheck.log")
  [ "$rc" != 0 ] && [ "${nf:-0}" -gt 0 ]
  check $? "$link: check_dissector accepted the wrong-key output as good (exit $rc)"
  echo "  checker self-check: the wrong-key output checked as good fails (exit $rc, ${nf:-0} failures)"
done

# ---- recipe -----------------------------------------------------------------------------
echo "recipe: docs/vectors.md's tshark lines for native pcaps, run with /bin/sh"
mkdir -p "$OUT/recipe"
# the fenced block after the marker line
sed -n '/<!-- tshark recipe: run by scripts\/wireshark\/test_dissector.sh -->/,/^```$/p' "$top/docs/vectors.md" |
  sed '1,2d;$d' > "$OUT/recipe/recipe.sh"
[ -s "$OUT/recipe/recipe.sh" ]; check $? "no recipe block found in docs/vectors.md"
cp "$VEC/native-sealed.pcap" "$OUT/recipe/native-plain.pcap"
(cd "$OUT/recipe" && /bin/sh -e recipe.sh > recipe.out 2> recipe.err)
check $? "the recipe failed under /bin/sh (see $OUT/recipe/recipe.err)"
want=$(grep -c . "$OUT/native-sealed.tsv")
got=$(grep -c . "$OUT/recipe/recipe.out")
[ "$got" = "$want" ]; check $? "the recipe's tshark printed $got packets, the pcap has $want"
echo "  /bin/sh ran it: tshark read $got of $want packets of the relabelled copy"
dissect "$OUT/recipe/u.pcap" -o "ibsec.keyfile:$VEC/keys.txt" \
  -o 'uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""' > "$OUT/recipe-user0.tsv"
"$CHECK" sealed "$VEC/keys.txt" "$VEC/native-plain.pcap" "$VEC/native-sealed.pcap" "$OUT/recipe-user0.tsv" good \
  > "$OUT/recipe-user0.log" 2>&1
tally "$OUT/recipe-user0.log" $? "the relabelled copy (DLT_USER0), key file"

if grep -q 'Lua Error' "$OUT/tshark.err" "$OUT"/*.tsv 2>/dev/null; then
  check 1 "Lua errors in tshark's output (see $OUT/tshark.err)"
fi
echo "test-dissector: $pass passed, $fail failed"
[ "$fail" = 0 ]
