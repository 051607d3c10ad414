#!/usr/bin/env bash
# test_cli.sh — end-to-end checks of the C model's command-line tools.
#
#   scripts/test_cli.sh BINDIR WORKDIR
#
# BINDIR holds ibsec_vecgen and ibsec_pcap; WORKDIR is scratch space (emptied).
#  1. ibsec_vecgen is deterministic (same seed: identical files; other seed: different),
#     its vectors cover what docs/vectors.md promises (scripts/vec_coverage.py), and every
#     sealed packet equals the one rebuilt from docs/wire-format.md with OpenSSL's AES-GCM
#     (scripts/check_vectors_independent.py).
#  2. Per link: sealing the plain pcap with the key file reproduces the sealed pcap
#     byte for byte; opening the sealed pcap as the peer reproduces the plain pcap;
#     opening the wire pcap (tampered copies, replays) drops exactly the packets the
#     harness vectors say open drops, and delivers the others.
#  3. Captures saved by Wireshark's tools (editcap, tshark): pcapng and nanosecond pcap
#     copies of the plain and wire pcaps give ibsec_pcap the same results, byte for
#     byte, as the microsecond pcaps they came from.
#  4. Every bad input: the exit code and the one-line message naming the file and
#     the problem (docs/vectors.md lists the exit codes).
# Ends with "cli: N passed, N failed" and exits non-zero if anything failed.
set -uo pipefail

BIN=${1:?usage: test_cli.sh BINDIR WORKDIR}
W=${2:?usage: test_cli.sh BINDIR WORKDIR}
VECGEN=$BIN/ibsec_vecgen
PCAP=$BIN/ibsec_pcap
pass=0; fail=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL cli: $*"; }

# check_run NAME WANT_RC FRAGMENT CMD...: runs CMD, checks its exit code and that
# its stderr+stdout contains FRAGMENT (empty: no check).
check_run() {
  local name=$1 want=$2 frag=$3; shift 3
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" != "$want" ]; then
    bad "$name: exit $rc, expected $want; output: $(head -c 300 <<<"$out")"
  elif [ -n "$frag" ] && ! grep -qF -- "$frag" <<<"$out"; then
    bad "$name: output lacks '$frag'; got: $(head -c 300 <<<"$out")"
  else
    ok
  fi
}

# check_same NAME A B: files identical.
check_same() {
  if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ ($(cmp "$2" "$3" 2>&1 | head -1))"; fi
}

rm -rf "$W"; mkdir -p "$W"
V=$W/v

# ---- 1. vector generation, determinism -------------------------------------------------
check_run "vecgen writes the vectors" 0 "ibsec_vecgen: rocev2" "$VECGEN" --seed 7 --count 60 --out "$V"
check_run "vecgen again, same seed" 0 "" "$VECGEN" --seed 7 --count 60 --out "$W/v_again"
check_run "vecgen, other seed" 0 "" "$VECGEN" --seed 8 --count 60 --out "$W/v_other"
for f in keys.txt native-plain.pcap native-sealed.pcap native-wire.pcap native.vec \
         rocev2-plain.pcap rocev2-sealed.pcap rocev2-wire.pcap rocev2.vec; do
  if [ -s "$V/$f" ]; then ok; else bad "vecgen did not write $f"; fi
  check_same "same seed gives the same $f" "$V/$f" "$W/v_again/$f"
  if cmp -s "$V/$f" "$W/v_other/$f"; then bad "seeds 7 and 8 gave the same $f"; else ok; fi
done

# The vectors cover what docs/vectors.md promises (read from the bytes by vec_coverage.py);
# and the coverage check does fail when a promise is broken.
check_run "vectors cover every mode, class, pad, length, shape, wrap and negative kind" 0 \
  "vec-coverage:" python3 scripts/vec_coverage.py "$V"
cp -r "$V" "$W/v_cut"; sed -i 's/ aes256 / aes128 /' "$W/v_cut/keys.txt"
check_run "coverage check notices a key file without AES-256" 1 "no sth-aead context on aes256" \
  python3 scripts/vec_coverage.py "$W/v_cut"
grep -v '^end ' "$V/native.vec" > "$W/v_cut/native.vec"; echo "end 3" >> "$W/v_cut/native.vec"
check_run "coverage check notices a wrong record count" 1 "end line says end 3" \
  python3 scripts/vec_coverage.py "$W/v_cut"

# Every sealed packet rebuilt from docs/wire-format.md with OpenSSL's AES-GCM (not the
# model) is identical; a changed key is noticed.
check_run "sealed vectors rebuilt independently from the wire format" 0 "vec-indep:" \
  python3 scripts/check_vectors_independent.py "$V"
cp -r "$V" "$W/v_key"; sed -i -E '/^key 3 /{s/^(key 3 aes[0-9]+ )f/\1X/; s/^(key 3 aes[0-9]+ )[0-9a-e]/\1f/; s/^(key 3 aes[0-9]+ )X/\1e/}' \
  "$W/v_key/keys.txt"
if cmp -s "$V/keys.txt" "$W/v_key/keys.txt"; then bad "could not change key 3 for the negative check"; else ok; fi
check_run "independent check notices a changed key" 1 "sealed bytes or EPSN differ" \
  python3 scripts/check_vectors_independent.py "$W/v_key"

# ---- 2. seal / open round trips per link --------------------------------------------------
for link in native rocev2; do
  check_run "$link: seal the plain pcap" 0 "0 dropped" \
    "$PCAP" seal --keys "$V/keys.txt" "$V/$link-plain.pcap" "$W/$link-resealed.pcap"
  check_same "$link: sealed pcap reproduced byte for byte" "$V/$link-sealed.pcap" "$W/$link-resealed.pcap"
  check_run "$link: open the sealed pcap as the peer" 0 "0 dropped" \
    "$PCAP" open --peer --keys "$V/keys.txt" "$V/$link-sealed.pcap" "$W/$link-opened.pcap"
  check_same "$link: plain pcap restored byte for byte" "$V/$link-plain.pcap" "$W/$link-opened.pcap"
  # The harness file says which wire packets open delivers; the tool must agree.
  want_ok=$(grep -c '^open ok ' "$V/$link.vec")
  want_drop=$(grep -E '^open [a-z0-9_]+ ' "$V/$link.vec" | grep -vc '^open ok ')
  if [ "$want_drop" -gt 0 ]; then ok; else bad "$link: the vectors contain no dropped packet"; fi
  check_run "$link: open the wire pcap (tampered, replayed)" 3 \
    "$want_ok delivered, $want_drop dropped" \
    "$PCAP" open --peer --keys "$V/keys.txt" "$V/$link-wire.pcap" "$W/$link-wire-opened.pcap"
  # Opening as the wrong endpoint: every secured packet fails, none is delivered as good,
  # and the tool says what is likely wrong; the right run gives no such hint.
  check_run "$link: open as the sealing endpoint drops secured packets" 3 "reason auth_failed" \
    "$PCAP" open --keys "$V/keys.txt" "$V/$link-sealed.pcap" "$W/$link-wrong.pcap"
  check_run "$link: open as the sealing endpoint suggests --peer" 3 "try again with --peer" \
    "$PCAP" open --keys "$V/keys.txt" "$V/$link-sealed.pcap" "$W/$link-wrong.pcap"
  check_run "$link: open a plain capture says it looks plain" 3 "is this a plain capture?" \
    "$PCAP" open --peer --keys "$V/keys.txt" "$V/$link-plain.pcap" "$W/$link-plain-opened.pcap"
  if "$PCAP" open --peer --keys "$V/keys.txt" "$V/$link-wire.pcap" "$W/$link-wire-opened.pcap" 2>&1 |
     grep -q "hint:"; then bad "$link: a hint for the wire pcap opened as the peer"; else ok; fi
done

# ---- 2b. RoCEv2 UDP checksums ----------------------------------------------------------------
# A sender's stack may write a UDP checksum, a device on the path may too. Seal writes 0
# (docs/wire-format.md section 4), open ignores a non-zero one and delivers 0: the field is
# masked in the ICRC and the tag, so the results equal those of the same packets with 0.
# udp_csum IN OUT: a copy of a classic Ethernet pcap with a non-zero UDP checksum in every
# IPv4 or IPv6 packet.
udp_csum() {
  python3 - "$1" "$2" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
e = "<" if struct.unpack("<I", b[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D) else ">"
off, n = 24, 0
while off + 16 <= len(b):
    incl = struct.unpack_from(e + "I", b, off + 8)[0]
    p = off + 16
    et = b[p + 12:p + 14]
    at = 40 if et == b"\x08\x00" else 60 if et == b"\x86\xdd" else None
    if at is not None and at + 2 <= incl:
        struct.pack_into("!H", b, p + at, 0xBEEF ^ (n & 0xFFFF) or 1); n += 1
    off = p + incl
if n == 0: sys.exit("udp_csum: no IP packet in " + sys.argv[1])
open(sys.argv[2], "wb").write(bytes(b))
PY
}
if udp_csum "$V/rocev2-plain.pcap" "$W/rocev2-plain-csum.pcap" &&
   udp_csum "$V/rocev2-sealed.pcap" "$W/rocev2-sealed-csum.pcap"; then ok; else bad "rocev2: could not write UDP checksums"; fi
if cmp -s "$V/rocev2-plain.pcap" "$W/rocev2-plain-csum.pcap"; then bad "rocev2: the UDP checksums changed nothing"; else ok; fi
check_run "rocev2: seal a plain pcap with UDP checksums" 0 "0 dropped" \
  "$PCAP" seal --keys "$V/keys.txt" "$W/rocev2-plain-csum.pcap" "$W/rocev2-csum-sealed.pcap"
check_same "rocev2: sealed with UDP checksum 0 (as from checksum 0)" "$V/rocev2-sealed.pcap" "$W/rocev2-csum-sealed.pcap"
check_run "rocev2: open a sealed pcap with UDP checksums" 0 "0 dropped" \
  "$PCAP" open --peer --keys "$V/keys.txt" "$W/rocev2-sealed-csum.pcap" "$W/rocev2-csum-opened.pcap"
check_same "rocev2: opened with UDP checksum 0" "$V/rocev2-plain.pcap" "$W/rocev2-csum-opened.pcap"

# ---- 3. captures saved by Wireshark's tools ------------------------------------------------
# relink FILE LINKTYPE: sets the link type of a pcap's global header or of every pcapng
# interface description block, in place. Wireshark 4.0 cannot read link type 247, so a
# native pcap goes through editcap and tshark as DLT_USER0 (147) and is relabelled after;
# the packet bytes and time stamps are untouched.
relink() {
  python3 - "$1" "$2" <<'PY'
import struct, sys
path, lt = sys.argv[1], int(sys.argv[2])
b = bytearray(open(path, "rb").read())
magic = b[:4]
if magic == b"\x0a\x0d\x0d\x0a":
    e = "<" if b[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
    off = 0; n_idb = 0
    while off + 12 <= len(b):
        btype, blen = struct.unpack_from(e + "II", b, off)
        if btype == 0x0a0d0d0a:
            e = "<" if b[off + 8:off + 12] == b"\x4d\x3c\x2b\x1a" else ">"
            btype, blen = struct.unpack_from(e + "II", b, off)
        if btype == 1:
            struct.pack_into(e + "H", b, off + 8, lt); n_idb += 1
        if blen < 12: sys.exit("relink: bad pcapng block length")
        off += blen
    if n_idb == 0: sys.exit("relink: no interface description block")
else:
    e = "<" if struct.unpack("<I", magic)[0] in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    struct.pack_into(e + "I", b, 20, lt)
open(path, "wb").write(bytes(b))
PY
}

# magic_of FILE: the first four bytes in hex, as stored.
magic_of() { od -An -tx1 -N4 "$1" | tr -d ' \n'; }

for link in native rocev2; do
  case $link in native) lt=247 ;; *) lt=1 ;; esac
  for kind in plain wire; do
    src="$V/$link-$kind.pcap"
    [ "$lt" = 1 ] || { cp "$src" "$W/$link-$kind.user0.pcap"; relink "$W/$link-$kind.user0.pcap" 147; src="$W/$link-$kind.user0.pcap"; }
    # name, the tool's command, and the magic the copy must start with
    for fmt in editcap-pcapng editcap-nsecpcap tshark-pcapng tshark-nsecpcap; do
      out="$W/$link-$kind.$fmt"
      case $fmt in
        editcap-*) editcap -F "${fmt#editcap-}" "$src" "$out" >/dev/null 2>&1 ;;
        tshark-*)  tshark -r "$src" -F "${fmt#tshark-}" -w "$out" >/dev/null 2>&1 ;;
      esac
      rc=$?
      if [ "$rc" != 0 ] || [ ! -s "$out" ]; then bad "$link-$kind: ${fmt%%-*} did not write $fmt (exit $rc)"; continue; fi
      [ "$lt" = 1 ] || relink "$out" "$lt"
      case $fmt in *pcapng) want_magic=0a0d0d0a ;; *) want_magic=4d3cb2a1 ;; esac
      if [ "$(magic_of "$out")" = "$want_magic" ]; then ok; else bad "$link-$kind.$fmt starts with $(magic_of "$out"), not $want_magic"; fi
      if [ "$kind" = plain ]; then
        check_run "$link: seal the $fmt copy of the plain pcap" 0 "0 dropped" \
          "$PCAP" seal --keys "$V/keys.txt" "$out" "$W/$link-resealed.$fmt.pcap"
        check_same "$link: $fmt copy sealed as the microsecond pcap" \
          "$V/$link-sealed.pcap" "$W/$link-resealed.$fmt.pcap"
      else
        check_run "$link: open the $fmt copy of the wire pcap" 3 \
          "$(grep -c '^open ok ' "$V/$link.vec") delivered" \
          "$PCAP" open --peer --keys "$V/keys.txt" "$out" "$W/$link-wire-opened.$fmt.pcap"
        check_same "$link: $fmt copy opened as the microsecond pcap" \
          "$W/$link-wire-opened.pcap" "$W/$link-wire-opened.$fmt.pcap"
      fi
    done
  done
done

# ---- 4. bad input -----------------------------------------------------------------------
K=$V/keys.txt; IN=$V/native-plain.pcap; O=$W/out.pcap
check_run "usage: no arguments" 2 "usage: ibsec_pcap" "$PCAP"
for opt in seal open --keys --peer --quiet --help "Exit status"; do
  check_run "--help explains $opt" 0 "$opt" "$PCAP" --help
done
check_run "usage error points at --help" 2 "ibsec_pcap --help" "$PCAP" seal
check_run "usage: unknown operation" 2 "must be 'seal' or 'open'" "$PCAP" frob --keys "$K" "$IN" "$O"
check_run "usage: no key file" 2 "--keys KEYFILE is required" "$PCAP" seal "$IN" "$O"
check_run "usage: one file name" 2 "IN.pcap and OUT.pcap are required" "$PCAP" seal --keys "$K" "$IN"
check_run "usage: three file names" 2 "too many file names" "$PCAP" seal --keys "$K" "$IN" "$O" "$O"
check_run "usage: unknown option" 2 "unknown option '--fast'" "$PCAP" seal --fast --keys "$K" "$IN" "$O"
check_run "missing input pcap" 1 "$W/none.pcap: No such file" "$PCAP" seal --keys "$K" "$W/none.pcap" "$O"
: > "$W/empty.pcap"
check_run "empty input pcap" 1 "$W/empty.pcap: cannot read as pcap or pcapng: truncated" \
  "$PCAP" seal --keys "$K" "$W/empty.pcap" "$O"
check_run "input is not a pcap" 1 "$K: cannot read as pcap or pcapng: unknown file format" \
  "$PCAP" seal --keys "$K" "$K" "$O"
# Link type 147 (DLT_USER0): rewrite the little-endian link type field at offset 20.
cp "$IN" "$W/user0.pcap"; printf '\x93\x00\x00\x00' | dd of="$W/user0.pcap" bs=1 seek=20 conv=notrunc 2>/dev/null
check_run "unsupported link type" 1 "$W/user0.pcap: unsupported link type 147" \
  "$PCAP" seal --keys "$K" "$W/user0.pcap" "$O"
size=$(stat -c %s "$IN")
head -c $((size - 7)) "$IN" > "$W/cut_data.pcap"
check_run "truncated record data" 1 "$W/cut_data.pcap: record" \
  "$PCAP" seal --keys "$K" "$W/cut_data.pcap" "$O"
check_run "truncated record data is named" 1 "captured bytes, only got" \
  "$PCAP" seal --keys "$K" "$W/cut_data.pcap" "$O"
if [ -e "$O" ]; then bad "output left behind after a truncated input"; else ok; fi
head -c $((24 + 16 + $(od -An -tu4 -j32 -N4 "$IN" | tr -d ' ') + 9)) "$IN" > "$W/cut_hdr.pcap"
check_run "truncated record header is named" 1 "$W/cut_hdr.pcap: record" \
  "$PCAP" seal --keys "$K" "$W/cut_hdr.pcap" "$O"
check_run "truncated record header" 1 "header bytes, only got" \
  "$PCAP" seal --keys "$K" "$W/cut_hdr.pcap" "$O"
# Hand-made pcaps: global header (little-endian, v2.4, snaplen 65535, link type), records.
mkpcap() {  # mkpcap FILE LINKTYPE [CAPLEN LEN NBYTES]...
  python3 - "$@" <<'PY'
import struct, sys
f, lt, recs = sys.argv[1], int(sys.argv[2]), [int(x) for x in sys.argv[3:]]
with open(f, "wb") as o:
    o.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, lt))
    for i in range(0, len(recs), 3):
        o.write(struct.pack("<IIII", 1, 0, recs[i], recs[i + 1]) + bytes(range(256)) * (recs[i + 2] // 256) + bytes(recs[i + 2] % 256))
PY
}
mkpcap "$W/cut.pcap" 247 60 100 60
check_run "record cut short by the capture (caplen < len)" 1 "$W/cut.pcap: record" \
  "$PCAP" seal --keys "$K" "$W/cut.pcap" "$O"
check_run "record cut short is named" 1 "caplen 60 != len 100" "$PCAP" seal --keys "$K" "$W/cut.pcap" "$O"
mkpcap "$W/huge.pcap" 1 70000 70000 70000
# libpcap cuts a record longer than the file's snaplen; the cut record is refused
check_run "record longer than the snaplen" 1 "caplen 65535 != len 70000 (packet was cut)" \
  "$PCAP" seal --keys "$K" "$W/huge.pcap" "$O"
# A well-formed pcap whose packets are not IBA packets is not bad input: every packet
# reaches the model and is dropped with its reason.
mkpcap "$W/junk.pcap" 247 64 64 64 30 30 30 4000 4000 4000
check_run "non-IBA packets are dropped and counted, not skipped" 3 "3 packets, 0 delivered, 3 dropped" \
  "$PCAP" open --keys "$K" "$W/junk.pcap" "$O"
check_run "missing key file" 1 "bad key file: $W/none.keys: No such file" \
  "$PCAP" seal --keys "$W/none.keys" "$IN" "$O"
sed 's/aes128/aes129/' "$K" > "$W/bad.keys"
line=$(grep -n 'aes129' "$W/bad.keys" | head -1 | cut -d: -f1)
check_run "malformed key file" 1 "bad key file: $W/bad.keys:$line: unknown cipher 'aes129'" \
  "$PCAP" seal --keys "$W/bad.keys" "$IN" "$O"
check_run "key file is a pcap" 1 "bad key file: $IN:1: not a text line" \
  "$PCAP" seal --keys "$IN" "$IN" "$O"
check_run "output not writable" 1 "$W/no/such/dir/o.pcap: No such file" \
  "$PCAP" seal --keys "$K" "$IN" "$W/no/such/dir/o.pcap"
cp "$IN" "$W/inplace.pcap"
check_run "output is the input" 1 "$W/inplace.pcap: OUT is the same file as IN" \
  "$PCAP" seal --keys "$K" "$W/inplace.pcap" "$W/inplace.pcap"
check_same "input left intact when OUT is IN" "$IN" "$W/inplace.pcap"
check_run "vecgen: bad count" 2 "bad number 'many' for --count" "$VECGEN" --count many --out "$W/x"
check_run "vecgen: unknown option" 2 "usage: ibsec_vecgen" "$VECGEN" --colour red
check_run "vecgen: output not creatable" 1 "$W/no/such/dir: No such file" \
  "$VECGEN" --count 1 --out "$W/no/such/dir"

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
