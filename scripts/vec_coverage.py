#!/usr/bin/env python3
"""vec_coverage.py - check that a vector directory written by ibsec_vecgen covers what
docs/vectors.md promises, reading the packets' bytes itself (not the C model's parser).

Usage: vec_coverage.py DIR

For each link file DIR/native.vec and DIR/rocev2.vec, and the key file DIR/keys.txt:
  - the file's structure: header lines, five lines per record, hex strings of whole bytes,
    record count equal to the end line;
  - for records sealed with `ok`: the wire bytes are the sealed bytes; an `ok` open of a
    normal record delivers exactly the plain bytes;
  - every mode is sealed; every BTH opcode class the link carries (RC, UC, RD, UD, XRC,
    and CNP on RoCEv2) appears; every pad count 0..3 and payloads of 0 and 4096 bytes
    appear under every mode; both header shapes (LRH.LNH 2 and 3; EtherType IPv4 and IPv6)
    appear, read from the bytes;
  - both STH sizes of every sth-* mode and both key sizes of every secured mode are used
    by some context of the key file;
  - some context's EPSNs cross a multiple of 2^24 (24-bit PSN wrap) on delivered packets;
  - every negative kind appears and drops with its reason: auth_failed (forge, badtag),
    replay, nonce_reuse (reuse); an alert is raised.
Prints "vec-coverage: N passed, N failed" and exits non-zero if any check failed.
"""
import os
import sys

LNH_LOCAL, LNH_GLOBAL = 2, 3          # IBA Vol. 1 7.7.6
ETHERTYPE_IPV4, ETHERTYPE_IPV6 = 0x0800, 0x86DD
MODES = ["none", "icrc-mac", "sth-hdr", "sth-pkt", "sth-aead"]
# ETH bytes after the BTH for the SEND Only opcodes of each class (IBA Vol. 1 9.3):
# RC/UC none, RD RDETH(4)+DETH(8), UD DETH(8), XRC XRCETH(4).
SEND_ONLY_ETH = {0x04: 0, 0x24: 0, 0x44: 12, 0x64: 8, 0xA4: 4}


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL vec-coverage: " + what)


def bth_offset(link, pkt):
    """Offset of the BTH, from the link headers' own fields."""
    if link == "native":
        lnh = pkt[1] & 3
        return 8 if lnh == LNH_LOCAL else 48, ("lnh%d" % lnh)
    ethertype = (pkt[12] << 8) | pkt[13]
    ip_len = 20 if ethertype == ETHERTYPE_IPV4 else 40
    return 14 + ip_len + 8, ("ethertype-%04x" % ethertype)


def send_only_payload(link, pkt):
    """Payload bytes of a plain SEND Only packet, or None for other opcodes."""
    off, _ = bth_offset(link, pkt)
    op = pkt[off]
    if op not in SEND_ONLY_ETH:
        return None
    pad = (pkt[off + 1] >> 4) & 3
    tail = 4 + (2 if link == "native" else 0)   # ICRC (+ VCRC)
    return len(pkt) - off - 12 - SEND_ONLY_ETH[op] - pad - tail


def read_records(path, c):
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    c.check(lines[0] == "ibsec-vectors 1", "%s: header line" % path)
    c.check(lines[1].startswith("link ") and lines[2].startswith("keys "), "%s: link/keys lines" % path)
    body, end = lines[3:-1], lines[-1]
    c.check(len(body) % 5 == 0, "%s: records of five lines" % path)
    recs = []
    for i in range(0, len(body) - 4, 5):
        p, pl, se, wi, op = (x.split() for x in body[i:i + 5])
        ok = p[0] == "pkt" and pl[0] == "plain" and se[0] == "seal" and wi[0] == "wire" and op[0] == "open"
        if not ok:
            c.check(False, "%s: record at line %d malformed" % (path, i + 4))
            return recs
        fields = dict(zip(p[2::2], p[3::2]))

        def hx(s):
            return None if s == "-" else bytes.fromhex(s)
        recs.append(dict(fields, n=int(p[1]), plain=hx(pl[1]), seal=se[1], sealed=hx(se[2]),
                         wire=hx(wi[1]), open=op[1], opened=hx(op[2])))
    c.check(end == "end %d" % len(recs), "%s: end line says %s, %d records" % (path, end, len(recs)))
    return recs


def check_link(d, link, c):
    recs = read_records(os.path.join(d, link + ".vec"), c)
    sealed_modes, classes, shapes = set(), set(), set()
    pads = {m: set() for m in MODES}
    lengths = {m: set() for m in MODES}
    epsns = {}
    for r in recs:
        if r["seal"] == "ok":
            c.check(r["wire"] == r["sealed"], "%s record %d: wire differs from sealed" % (link, r["n"]))
            m = r["mode"]
            sealed_modes.add(m)
            off, shape = bth_offset(link, r["plain"])
            shapes.add(shape)
            classes.add(r["plain"][off] >> 5)
            pads[m].add((r["plain"][off + 1] >> 4) & 3)
            pl = send_only_payload(link, r["plain"])
            if pl is not None:
                lengths[m].add(pl)
            if r["open"] == "ok" and r["epsn"] != "-":
                epsns.setdefault(r["ctx"], []).append(int(r["epsn"], 16))
        if r["kind"] == "normal" and r["open"] == "ok":
            c.check(r["opened"] == r["plain"], "%s record %d: delivered bytes differ from plain" % (link, r["n"]))
    c.check(sealed_modes == set(MODES), "%s: sealed modes %s" % (link, sorted(sealed_modes)))
    want_classes = {0, 1, 2, 3, 5} | ({4} if link == "rocev2" else set())
    c.check(classes == want_classes, "%s: opcode classes %s, expected %s" % (link, sorted(classes), sorted(want_classes)))
    want_shapes = {"lnh2", "lnh3"} if link == "native" else {"ethertype-0800", "ethertype-86dd"}
    c.check(shapes == want_shapes, "%s: shapes %s" % (link, sorted(shapes)))
    for m in MODES:
        c.check(pads[m] == {0, 1, 2, 3}, "%s: mode %s pad counts %s" % (link, m, sorted(pads[m])))
        c.check(0 in lengths[m] and 4096 in lengths[m], "%s: mode %s lacks payload 0 or 4096" % (link, m))
    wraps = sum(1 for v in epsns.values() for a, b in zip(v, v[1:]) if (a >> 24) != (b >> 24))
    c.check(wraps > 0, "%s: no delivered EPSN sequence crosses a multiple of 2^24" % link)
    kinds = {r["kind"] for r in recs}
    c.check(kinds >= {"normal", "tamper", "forge", "badtag", "replay", "reuse"}, "%s: kinds %s" % (link, sorted(kinds)))
    c.check(all(r["open"] == "auth_failed" for r in recs if r["kind"] == "badtag"), "%s: a bad MAC was not auth_failed" % link)
    c.check(any(r["open"] == "replay" for r in recs if r["kind"] == "replay"), "%s: no replay dropped" % link)
    c.check(all(r["seal"] == "nonce_reuse" for r in recs if r["kind"] == "reuse"), "%s: a reuse was not nonce_reuse" % link)
    c.check(any(r["alert"] == "1" for r in recs), "%s: no alert raised" % link)


def check_keys(d, c):
    keys, used = {}, set()
    with open(os.path.join(d, "keys.txt")) as f:
        for line in f:
            w = line.split("#")[0].split()
            if w[:1] == ["key"]:
                keys[w[1]] = w[2]
            elif w[:1] == ["ctx"]:
                f2 = dict(zip(w[4::2], w[5::2]))
                if f2["mode"] != "none":
                    used.add((f2["mode"], f2.get("sth", "-"), keys.get(f2["key"], "?")))
    for m in MODES[1:]:
        for cipher in ("aes128", "aes256"):
            c.check(any(u[0] == m and u[2] == cipher for u in used), "keys.txt: no %s context on %s" % (m, cipher))
        if m.startswith("sth-"):
            for sth in ("96", "128"):
                c.check(any(u[0] == m and u[1] == sth for u in used), "keys.txt: no %s context with sth %s" % (m, sth))


def main():
    if len(sys.argv) != 2:
        print("usage: vec_coverage.py DIR")
        return 2
    c = Checks()
    check_keys(sys.argv[1], c)
    for link in ("native", "rocev2"):
        check_link(sys.argv[1], link, c)
    print("vec-coverage: %d passed, %d failed" % (c.passed, c.failed))
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
