#!/usr/bin/env python3
"""check_crc_independent.py - check the C model's packets and CRCs with code that is not the model's.

Usage: check_crc_independent.py [--min-packets N] FILE.pcap...

Each FILE.pcap (written by build/bin/ibsec_pktgen) must have its manifest FILE.tsv beside
it: one line per packet saying which opcode, LNH, PadCnt and payload length the model
meant to build. For every packet the script checks:

native IBA (pcap LINKTYPE_INFINIBAND, 247):
  - tshark (Wireshark's InfiniBand dissector) reads LNH, BTH OpCode, PadCnt and LRH PktLen
    as the manifest says, and the payload it sees is payload + pad bytes long;
  - the ICRC recomputed here from the IBA Vol. 1 7.8.1 rules (zlib.crc32 over the packet
    with the variant fields set to ones) equals the packet's ICRC field, and so does the
    value tshark shows for infiniband.invariant.crc;
  - the VCRC recomputed with crcmod (IBA Vol. 1 7.8.2: polynomial 0x100B, reflected,
    register initialised to ones, result complemented) over LRH..ICRC equals the packet's
    VCRC field, and so does tshark's infiniband.variant.crc.
RoCEv2 (pcap LINKTYPE_ETHERNET, 1):
  - scapy parses Ethernet / IPv4|IPv6 / UDP(4791) / BTH with the manifest's opcode, and
    the IPv4 header checksum scapy computes equals the packet's;
  - scapy.contrib.roce's own ICRC computation (BTH.compute_icrc, Annex A17 masking for
    both IPv4 and IPv6) equals the packet's ICRC field;
  - the ICRC recomputed here from the Annex A17 rules equals it too;
  - tshark reads the same BTH OpCode and ICRC field.

Wireshark reads the CRC fields but does not validate them; tshark's role is to confirm
that the headers parse as intended and that the CRC sits where the dissector expects it.
Wireshark 4.0 has no pcap mapping for LINKTYPE_INFINIBAND, so the script hands tshark a
copy of each native pcap with the link type rewritten to DLT_USER0 (147) and maps that
to the "infiniband" dissector (user_dlts table); the packet bytes are unchanged.

Prints one line per file, then "crc-indep: N passed, N failed" (N counts checks) and
exits non-zero if any check failed, if fewer than --min-packets packets were checked in
a file, or if tshark, scapy or crcmod is missing (a missing tool is a failure, never a
skip).
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

NAME = "crc-indep"
LINKTYPE_ETHERNET = 1
LINKTYPE_INFINIBAND = 247
DLT_USER0 = 147
USER_DLT_UAT = 'uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""'
# Heuristic dissectors of the table infiniband.payload (tshark -G heuristic-decodes) that
# may claim random payload bytes and abort the dissection before the CRC fields; the
# check is about the IBA headers, so they are switched off.
TSHARK_HEURISTICS_OFF = ["eth_over_ib", "mellanox_eoib", "fc_infiniband", "iser_infiniband", "lnet_ib",
                         "rpcrdma_infiniband", "sdp_infiniband", "smb_direct_infiniband",
                         "smcr_infiniband"]
# Transport classes (BTH OpCode bits 7:5) whose ETHs Wireshark 4.0 lays out as IBA
# Vol. 1 9.2/9.3 do: RC 000, UC 001, UD 011. For RD (010) it assumes a vendor
# DC transport with a BTH 8 bytes longer; it has no header sequences for XRC (101) or the
# RoCEv2 CNP (0x81, class 100),
# so for those classes tshark cannot find the payload or the CRC fields; their headers
# up to the BTH are still compared with tshark, their CRCs with the zlib/crcmod
# recomputation, and the script reports how many packets that applies to.
TSHARK_ETH_CLASSES = {0, 1, 3}

# IBA Vol. 1 sizes (bytes).
LRH_LEN, GRH_LEN, BTH_LEN, ICRC_LEN, VCRC_LEN = 8, 40, 12, 4, 2
ROCE_LRH_STANDIN = b"\xff" * 8          # Annex A17: ones in place of the LRH


def setup_failure(msg):
    print(f"check_crc_independent: {msg}", file=sys.stderr)
    print(f"{NAME}: 0 passed, 1 failed")
    sys.exit(1)


try:
    import crcmod
except ImportError:
    setup_failure("crcmod is not installed in this Python (run scripts/deps.sh)")
try:
    from scapy.layers.l2 import Ether
    from scapy.layers.inet import IP, UDP
    from scapy.layers.inet6 import IPv6
    from scapy.contrib.roce import BTH
    from scapy.utils import checksum as inet_checksum
except ImportError as exc:
    setup_failure(f"scapy with scapy.contrib.roce is not importable ({exc}); run scripts/deps.sh")
TSHARK = shutil.which("tshark")
if TSHARK is None:
    setup_failure("tshark is not installed (Debian package tshark; run scripts/deps.sh)")

# IBA Vol. 1 7.8.2 VCRC. crcmod's initCrc is the CRC of the empty string, i.e. the
# initial register (0xFFFF) xor the final xor (0xFFFF) = 0; rev=True is the reflected
# (least significant bit first) processing IBA uses for both CRCs.
vcrc16 = crcmod.mkCrcFun(0x1100B, initCrc=0x0000, rev=True, xorOut=0xFFFF)
# Same conventions for CRC-32, used only to prove the crcmod parameters are read right:
# it must give the standard check value 0xCBF43926, as zlib does.
_crc32_crcmod = crcmod.mkCrcFun(0x104C11DB7, initCrc=0x00000000, rev=True, xorOut=0xFFFFFFFF)


class Checks:
    """Counts checks; prints the first few failures."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            if self.failed <= 25:
                print(f"FAIL {NAME}: {what}")
        return ok


def read_pcap(path):
    """Returns (linktype, [packet bytes]) of a classic little/big-endian microsecond pcap."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError(f"{path}: truncated pcap global header")
    magic_le = struct.unpack_from("<I", data, 0)[0]
    if magic_le == 0xA1B2C3D4:
        end = "<"
    elif struct.unpack_from(">I", data, 0)[0] == 0xA1B2C3D4:
        end = ">"
    else:
        raise ValueError(f"{path}: not a classic microsecond pcap (magic {data[:4].hex()})")
    linktype = struct.unpack_from(end + "I", data, 20)[0]
    pkts, off = [], 24
    while off < len(data):
        if off + 16 > len(data):
            raise ValueError(f"{path}: truncated record header at byte {off}")
        _, _, incl, orig = struct.unpack_from(end + "IIII", data, off)
        off += 16
        if incl != orig or off + incl > len(data):
            raise ValueError(f"{path}: bad or truncated record at byte {off - 16}")
        pkts.append(data[off:off + incl])
        off += incl
    return linktype, pkts


def read_manifest(path):
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or not lines[0].startswith("index\t"):
        raise ValueError(f"{path}: missing manifest header line")
    cols = lines[0].split("\t")
    rows = []
    for ln in lines[1:]:
        v = dict(zip(cols, ln.split("\t")))
        rows.append({"opcode": int(v["opcode"], 16), "name": v["name"],
                     "lnh": None if v["lnh"] == "-" else int(v["lnh"]),
                     "padcnt": int(v["padcnt"]), "payload_len": int(v["payload_len"]),
                     "frame_len": int(v["frame_len"])})
    return rows


# ---- ICRC from the specification text, written independently of the C model ----------

def icrc_native(pkt):
    """IBA Vol. 1 7.8.1 over LRH .. byte before the ICRC of a native packet (LRH first).
    Variant fields, replaced by ones: without GRH LRH.VL (byte 0 bits 7:4); with GRH
    (LRH.LNH = 3) all 8 LRH bytes and GRH TClass, FlowLabel (GRH bits 27:0 of word 0)
    and HopLmt (GRH byte 7); always BTH byte 4 (FECN, BECN, Resv6a)."""
    lnh = pkt[1] & 0x3
    m = bytearray(pkt[:len(pkt) - VCRC_LEN - ICRC_LEN])
    if lnh == 3:
        m[0:LRH_LEN] = b"\xff" * LRH_LEN
        g = LRH_LEN
        m[g + 0] |= 0x0F                      # TClass bits 7:4
        m[g + 1:g + 4] = b"\xff\xff\xff"      # TClass bits 3:0, FlowLabel
        m[g + 7] = 0xFF                       # HopLmt
        bth = LRH_LEN + GRH_LEN
    else:
        m[0] |= 0xF0                          # VL
        bth = LRH_LEN
    m[bth + 4] = 0xFF
    return zlib.crc32(bytes(m))


def icrc_rocev2(ip_datagram, is_v6):
    """RoCEv2 Annex A17: 8 bytes of ones, then the IP datagram up to the ICRC with IPv4
    TOS, TTL, header checksum / IPv6 traffic class, flow label, hop limit, and the UDP
    checksum and BTH byte 4 replaced by ones."""
    m = bytearray(ip_datagram[:len(ip_datagram) - ICRC_LEN])
    if is_v6:
        m[0] |= 0x0F
        m[1:4] = b"\xff\xff\xff"
        m[7] = 0xFF
        udp = 40
    else:
        ihl = (m[0] & 0x0F) * 4
        m[1] = 0xFF                           # TOS (DSCP, ECN)
        m[8] = 0xFF                           # TTL
        m[10:12] = b"\xff\xff"                # header checksum
        udp = ihl
    m[udp + 6:udp + 8] = b"\xff\xff"          # UDP checksum
    m[udp + 8 + 4] = 0xFF                     # BTH byte 4
    return zlib.crc32(ROCE_LRH_STANDIN + bytes(m))


# ---- tshark -------------------------------------------------------------------------

def run_tshark(pcap, fields, extra_opts=()):
    cmd = [TSHARK, "-n", "-r", pcap, "-T", "fields", "-E", "separator=\t",
           "-E", "occurrence=f"]
    for h in TSHARK_HEURISTICS_OFF:
        cmd += ["--disable-heuristic", h]
    cmd += list(extra_opts)
    for f in fields:
        cmd += ["-e", f]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"tshark failed on {pcap}: {res.stderr.strip()}")
    rows = []
    for ln in res.stdout.splitlines():
        vals = ln.split("\t")
        vals += [""] * (len(fields) - len(vals))
        rows.append(dict(zip(fields, vals)))
    return rows


def tshark_int(v):
    if v == "":
        return None
    return int(v, 0)


def le_bytes_as_tshark(b):
    """tshark shows the 4/2 CRC bytes as a big-endian integer of the bytes on the wire."""
    return int.from_bytes(b, "big")


# ---- per-file checks ------------------------------------------------------------------

NATIVE_FIELDS = ["frame.number", "infiniband.lrh.lnh", "infiniband.lrh.pktlen",
                 "infiniband.bth.opcode", "infiniband.bth.padcnt", "data.len",
                 "infiniband.invariant.crc", "infiniband.variant.crc", "_ws.malformed"]
ROCE_FIELDS = ["frame.number", "udp.dstport", "infiniband.bth.opcode",
               "infiniband.bth.padcnt", "infiniband.invariant.crc", "_ws.malformed"]


def check_native(path, pkts, man, c):
    with tempfile.TemporaryDirectory() as td:
        copy = os.path.join(td, "user0.pcap")
        with open(path, "rb") as f:
            data = bytearray(f.read())
        data[20:24] = struct.pack("<I", DLT_USER0)
        with open(copy, "wb") as f:
            f.write(data)
        ts = run_tshark(copy, NATIVE_FIELDS, ["-o", USER_DLT_UAT])
    c.check(len(ts) == len(pkts), f"{path}: tshark read {len(ts)} of {len(pkts)} packets")
    dissector_gaps = {}
    for i, (pkt, m) in enumerate(zip(pkts, man)):
        t = ts[i] if i < len(ts) else {f: "" for f in NATIVE_FIELDS}
        tag = f"{path} #{i} {m['name']}"
        c.check(len(pkt) == m["frame_len"], f"{tag}: length {len(pkt)} != manifest {m['frame_len']}")
        c.check(tshark_int(t["infiniband.lrh.lnh"]) == m["lnh"], f"{tag}: tshark LNH {t['infiniband.lrh.lnh']} != {m['lnh']}")
        c.check(tshark_int(t["infiniband.bth.opcode"]) == m["opcode"], f"{tag}: tshark opcode {t['infiniband.bth.opcode']} != {m['opcode']:#x}")
        c.check(tshark_int(t["infiniband.bth.padcnt"]) == m["padcnt"], f"{tag}: tshark PadCnt {t['infiniband.bth.padcnt']} != {m['padcnt']}")
        c.check(tshark_int(t["infiniband.lrh.pktlen"]) == (len(pkt) - VCRC_LEN) // 4,
                f"{tag}: tshark PktLen {t['infiniband.lrh.pktlen']} != {(len(pkt) - VCRC_LEN) // 4}")
        icrc_field = pkt[-VCRC_LEN - ICRC_LEN:-VCRC_LEN]
        vcrc_field = pkt[-VCRC_LEN:]
        # The independent recomputations.
        c.check(icrc_native(pkt).to_bytes(4, "little") == icrc_field,
                f"{tag}: ICRC field {icrc_field.hex()} != zlib/IBA {icrc_native(pkt).to_bytes(4, 'little').hex()}")
        want_v = vcrc16(pkt[:-VCRC_LEN]).to_bytes(2, "little")
        c.check(want_v == vcrc_field, f"{tag}: VCRC field {vcrc_field.hex()} != crcmod {want_v.hex()}")
        if (m["opcode"] >> 5) not in TSHARK_ETH_CLASSES:
            dissector_gaps[m["name"]] = dissector_gaps.get(m["name"], 0) + 1
            continue
        c.check(not t["_ws.malformed"], f"{tag}: tshark reports {t['_ws.malformed']}")
        c.check(tshark_int(t["infiniband.invariant.crc"]) == le_bytes_as_tshark(icrc_field),
                f"{tag}: tshark ICRC {t['infiniband.invariant.crc']} != field {icrc_field.hex()}")
        c.check(tshark_int(t["infiniband.variant.crc"]) == le_bytes_as_tshark(vcrc_field),
                f"{tag}: tshark VCRC {t['infiniband.variant.crc']} != field {vcrc_field.hex()}")
        data_len = m["payload_len"] + m["padcnt"]
        if data_len:
            c.check(tshark_int(t["data.len"]) == data_len,
                    f"{tag}: tshark payload {t['data.len']} != payload+pad {data_len}")
    return dissector_gaps


def ip_datagram_of(frame):
    """The IP datagram inside an Ethernet frame (Ethernet padding removed)."""
    ethertype = struct.unpack_from(">H", frame, 12)[0]
    ip = frame[14:]
    if ethertype == 0x0800:
        return ip[:struct.unpack_from(">H", ip, 2)[0]], False
    return ip[:40 + struct.unpack_from(">H", ip, 4)[0]], True


def check_roce(path, pkts, man, c):
    ts = run_tshark(path, ROCE_FIELDS)
    c.check(len(ts) == len(pkts), f"{path}: tshark read {len(ts)} of {len(pkts)} packets")
    dissector_gaps = {}
    for i, (pkt, m) in enumerate(zip(pkts, man)):
        t = ts[i] if i < len(ts) else {f: "" for f in ROCE_FIELDS}
        tag = f"{path} #{i} {m['name']}"
        c.check(len(pkt) == m["frame_len"], f"{tag}: length {len(pkt)} != manifest {m['frame_len']}")
        dgram, is_v6 = ip_datagram_of(pkt)
        icrc_field = dgram[-ICRC_LEN:]
        p = Ether(pkt)
        has = p.haslayer(BTH) and p.haslayer(UDP) and p.haslayer(IPv6 if is_v6 else IP)
        if not c.check(has, f"{tag}: scapy does not see Ether/IP/UDP/BTH"):
            continue
        c.check(p[BTH].opcode == m["opcode"], f"{tag}: scapy opcode {p[BTH].opcode:#x} != {m['opcode']:#x}")
        c.check(p[BTH].padcount == m["padcnt"], f"{tag}: scapy PadCnt {p[BTH].padcount} != {m['padcnt']}")
        if not is_v6:
            hdr = bytearray(dgram[:20])
            stored = struct.unpack_from(">H", hdr, 10)[0]
            hdr[10:12] = b"\x00\x00"
            c.check(inet_checksum(bytes(hdr)) == stored, f"{tag}: IPv4 header checksum {stored:#06x} wrong")
        scapy_icrc = p[BTH].compute_icrc(b"")
        c.check(scapy_icrc == icrc_field, f"{tag}: ICRC field {icrc_field.hex()} != scapy {scapy_icrc.hex()}")
        own = icrc_rocev2(dgram, is_v6).to_bytes(4, "little")
        c.check(own == icrc_field, f"{tag}: ICRC field {icrc_field.hex()} != zlib/A17 {own.hex()}")
        c.check(tshark_int(t["udp.dstport"]) == 4791, f"{tag}: tshark UDP port {t['udp.dstport']}")
        c.check(tshark_int(t["infiniband.bth.opcode"]) == m["opcode"], f"{tag}: tshark opcode {t['infiniband.bth.opcode']} != {m['opcode']:#x}")
        if (m["opcode"] >> 5) not in TSHARK_ETH_CLASSES:
            dissector_gaps[m["name"]] = dissector_gaps.get(m["name"], 0) + 1
            continue
        c.check(not t["_ws.malformed"], f"{tag}: tshark reports {t['_ws.malformed']}")
        c.check(tshark_int(t["infiniband.invariant.crc"]) == le_bytes_as_tshark(icrc_field),
                f"{tag}: tshark ICRC {t['infiniband.invariant.crc']} != field {icrc_field.hex()}")
    return dissector_gaps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-packets", type=int, default=1000,
                    help="fail if a file holds fewer packets (default 1000)")
    ap.add_argument("pcaps", nargs="+")
    args = ap.parse_args()
    c = Checks()
    # The CRC engines used as references must reproduce the standard check value.
    c.check(_crc32_crcmod(b"123456789") == 0xCBF43926 == zlib.crc32(b"123456789"),
            "crcmod/zlib CRC-32 check value 0xCBF43926")
    # ... and the VCRC parameters give the check value cmodel/test/test_crc.c asserts.
    c.check(vcrc16(b"123456789") == 0x0A3D, "crcmod VCRC check value 0x0A3D")
    for path in args.pcaps:
        man_path = os.path.splitext(path)[0] + ".tsv"
        try:
            linktype, pkts = read_pcap(path)
            man = read_manifest(man_path)
        except (OSError, ValueError) as exc:
            c.check(False, str(exc))
            continue
        c.check(len(man) == len(pkts), f"{path}: {len(pkts)} packets but {len(man)} manifest lines")
        c.check(len(pkts) >= args.min_packets, f"{path}: only {len(pkts)} packets (< {args.min_packets})")
        before = (c.passed, c.failed)
        try:
            if linktype == LINKTYPE_INFINIBAND:
                gaps = check_native(path, pkts, man, c)
            elif linktype == LINKTYPE_ETHERNET:
                gaps = check_roce(path, pkts, man, c)
            else:
                c.check(False, f"{path}: link type {linktype} is neither 247 nor 1")
                continue
        except RuntimeError as exc:
            c.check(False, str(exc))
            continue
        opcodes = len({m["opcode"] for m in man})
        print(f"{os.path.basename(path)}: {len(pkts)} packets, {opcodes} opcodes, "
              f"{c.passed - before[0]} checks passed, {c.failed - before[1]} failed")
        if gaps:
            print(f"  {sum(gaps.values())} packets of {len(gaps)} RD/XRC/CNP opcodes: tshark "
                  f"checked their headers through the BTH only (Wireshark 4.0 does not lay "
                  f"out RD/XRC/CNP ETHs per IBA); their CRCs were checked by zlib/crcmod/scapy")
    print(f"{NAME}: {c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
