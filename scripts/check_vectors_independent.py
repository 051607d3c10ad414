#!/usr/bin/env python3
"""check_vectors_independent.py - rebuild every sealed packet of the vector files from
docs/wire-format.md, with OpenSSL's AES-GCM, and compare byte for byte.

Usage: check_vectors_independent.py DIR

DIR is a directory written by ibsec_vecgen (docs/vectors.md). For every record of
DIR/native.vec and DIR/rocev2.vec whose seal succeeded, this script takes the plain packet
and, from the key file DIR/keys.txt and the wire-format document alone, computes what the
sealed packet must be, then compares it with the `seal ok` bytes of the record:

  - context selection by BTH DestQP, then P_Key & 0x7fff (wire-format.md section 9);
  - EPSN reconstruction from the 24-bit PSN and its own per-context tx_next (section 6),
    also compared with the record's `epsn` field;
  - STH insertion after the last ETH and every length field grown (section 4), with the
    ETH lengths of each opcode from IBA Vol. 1 section 9.3 (table below);
  - BTH byte 8 security bits (section 2), the masked header string H (section 3.1), the IV
    salt || dir bit 63 | EPSN (section 5), the GCM inputs of each mode (section 3.2);
  - AES-GCM by OpenSSL's libcrypto EVP interface (through ctypes), not by the model;
  - ICRC (zlib's CRC-32 over H and the rest, sent least-significant byte first) and the
    native VCRC (CRC-16, polynomial 0x100B reflected, init and final xor 0xFFFF).

Prints "vec-indep: N passed, N failed" (N counts packets) and exits non-zero on a failure
or if libcrypto cannot be loaded (a missing reference is a failure, never a skip).
"""
import ctypes
import ctypes.util
import os
import struct
import sys
import zlib

MODES = {"none": 0x00, "icrc-mac": 0x08, "sth-hdr": 0x08, "sth-pkt": 0x10, "sth-aead": 0x18}
STH_LEN = {"96": 12, "128": 16}   # sRDMA Table 2 codes 1, 2 (wire-format.md section 2)
STH_CODE = {"96": 1, "128": 2}
PSN_MOD, PSN_HALF = 1 << 24, 1 << 23

# ---- ETH lengths per opcode (IBA Vol. 1 section 9.3) ------------------------------
RDETH, DETH, XRCETH, RETH, ATOMIC, AETH, ATOMICACK, IMM, IETH = 4, 8, 4, 16, 28, 4, 8, 4, 4
# RC message types (opcode bits 4:0) -> ETHs after the BTH, and whether it is a request.
RC_TYPES = {
    0x00: ([], True), 0x01: ([], True), 0x02: ([], True), 0x03: ([IMM], True),
    0x04: ([], True), 0x05: ([IMM], True), 0x06: ([RETH], True), 0x07: ([], True),
    0x08: ([], True), 0x09: ([IMM], True), 0x0A: ([RETH], True), 0x0B: ([RETH, IMM], True),
    0x0C: ([RETH], True), 0x0D: ([AETH], False), 0x0E: ([], False), 0x0F: ([AETH], False),
    0x10: ([AETH], False), 0x11: ([AETH], False), 0x12: ([AETH, ATOMICACK], False),
    0x13: ([ATOMIC], True), 0x14: ([ATOMIC], True), 0x16: ([IETH], True), 0x17: ([IETH], True),
}


def eth_len(op):
    """Bytes of ETHs after the BTH for an opcode, or None if this script does not know it."""
    cls, typ = op >> 5, op & 0x1F
    if op == 0x81:                       # RoCEv2 CNP (Annex A17.9): no ETH
        return 0
    if cls == 0 and typ in RC_TYPES:     # RC
        return sum(RC_TYPES[typ][0])
    if cls == 1 and typ <= 0x0B:         # UC: the SEND and RDMA WRITE rows of RC
        return sum(RC_TYPES[typ][0])
    if cls == 2:                         # RD: RDETH, requests add DETH
        if typ == 0x15:                  # RESYNC
            return RDETH + DETH
        if typ in RC_TYPES and typ not in (0x16, 0x17):
            eths, request = RC_TYPES[typ]
            return RDETH + (DETH if request else 0) + sum(eths)
        return None
    if cls == 3 and typ in (0x04, 0x05): # UD SEND only [with immediate]
        return DETH + sum(RC_TYPES[typ][0])
    if cls == 5 and typ in RC_TYPES:     # XRC: requests add XRCETH
        eths, request = RC_TYPES[typ]
        return (XRCETH if request else 0) + sum(eths)
    return None


# ---- OpenSSL AES-GCM through ctypes ----------------------------------------------
def load_libcrypto():
    name = ctypes.util.find_library("crypto")
    if not name:
        return None
    lib = ctypes.CDLL(name)
    lib.EVP_CIPHER_CTX_new.restype = ctypes.c_void_p
    lib.EVP_CIPHER_CTX_free.argtypes = [ctypes.c_void_p]
    lib.EVP_aes_128_gcm.restype = ctypes.c_void_p
    lib.EVP_aes_256_gcm.restype = ctypes.c_void_p
    lib.EVP_EncryptInit_ex.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                       ctypes.c_char_p, ctypes.c_char_p]
    lib.EVP_EncryptUpdate.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int),
                                      ctypes.c_char_p, ctypes.c_int]
    lib.EVP_EncryptFinal_ex.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    lib.EVP_CIPHER_CTX_ctrl.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    return lib


EVP_CTRL_GCM_GET_TAG = 0x10


def gcm_seal(lib, key, iv, aad, pt):
    """AES-GCM with a 96-bit IV: (ciphertext, 16-byte tag), computed by OpenSSL."""
    ctx = lib.EVP_CIPHER_CTX_new()
    cipher = lib.EVP_aes_128_gcm() if len(key) == 16 else lib.EVP_aes_256_gcm()
    n = ctypes.c_int(0)
    out = ctypes.create_string_buffer(len(pt) + 16)
    tag = ctypes.create_string_buffer(16)
    ok = lib.EVP_EncryptInit_ex(ctx, cipher, None, key, iv) == 1
    if aad:
        ok &= lib.EVP_EncryptUpdate(ctx, None, ctypes.byref(n), aad, len(aad)) == 1
    ct_len = 0
    if pt:
        ok &= lib.EVP_EncryptUpdate(ctx, out, ctypes.byref(n), pt, len(pt)) == 1
        ct_len = n.value
    ok &= lib.EVP_EncryptFinal_ex(ctx, ctypes.byref(out, ct_len), ctypes.byref(n)) == 1
    ok &= lib.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1
    lib.EVP_CIPHER_CTX_free(ctx)
    if not ok:
        raise RuntimeError("OpenSSL AES-GCM failed")
    return out.raw[:len(pt)], tag.raw


# ---- CRCs (IBA Vol. 1 section 7.8) -------------------------------------------------
def vcrc(data):
    """CRC-16, polynomial 0x100B reflected (0xD008), init 0xFFFF, final xor 0xFFFF."""
    crc = 0xFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xD008 if crc & 1 else crc >> 1
    return crc ^ 0xFFFF


def ip_checksum(hdr):
    s = sum(struct.unpack("!10H", hdr[:10] + b"\0\0" + hdr[12:20]))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


# ---- packet layout -----------------------------------------------------------------
class Layout:
    """Offsets of a native or RoCEv2 packet, from its own header fields."""

    def __init__(self, link, pkt):
        self.native = link == "native"
        if self.native:
            self.grh = (pkt[1] & 3) == 3
            self.bth = 48 if self.grh else 8
            self.cov = 0                                  # ICRC coverage starts at the LRH
        else:
            self.v4 = ((pkt[12] << 8) | pkt[13]) == 0x0800
            self.ip = 14
            self.udp = 14 + (20 if self.v4 else 40)
            self.bth = self.udp + 8
            self.cov = 14
        self.eths_end = None
        op = pkt[self.bth]
        n = eth_len(op)
        if n is not None:
            self.eths_end = self.bth + 12 + n
        self.tail = 6 if self.native else 4                # ICRC (+ VCRC)

    def masked_headers(self, pkt):
        """H of wire-format.md section 3.1 for a (sealed) packet."""
        h = bytearray(pkt[self.cov:self.eths_end])
        b = self.bth - self.cov
        if self.native:
            if self.grh:
                h[0:8] = b"\xff" * 8
                h[8] |= 0x0F
                h[9:12] = b"\xff\xff\xff"
                h[15] = 0xFF
            else:
                h[0] |= 0xF0
        else:
            if self.v4:
                h[1] = 0xFF
                h[8] = 0xFF
                h[10:12] = b"\xff\xff"
            else:
                h[0] |= 0x0F
                h[1:4] = b"\xff\xff\xff"
                h[7] = 0xFF
            u = self.udp - self.cov
            h[u + 6:u + 8] = b"\xff\xff"
            h = bytearray(b"\xff" * 8) + h
            b += 8
        h[b + 4] = 0xFF
        return bytes(h)

    def grow(self, pkt, extra):
        """Add `extra` bytes to every length field (wire-format.md section 4)."""
        if self.native:
            w = struct.unpack("!H", pkt[4:6])[0]
            pkt[4:6] = struct.pack("!H", (w & 0xF800) | (((w & 0x7FF) + extra // 4) & 0x7FF))
            if self.grh:
                pkt[12:14] = struct.pack("!H", struct.unpack("!H", pkt[12:14])[0] + extra)
        else:
            if self.v4:
                pkt[16:18] = struct.pack("!H", struct.unpack("!H", pkt[16:18])[0] + extra)
                pkt[24:26] = struct.pack("!H", ip_checksum(bytes(pkt[14:34])))
            else:
                pkt[18:20] = struct.pack("!H", struct.unpack("!H", pkt[18:20])[0] + extra)
            u = self.udp
            pkt[u + 4:u + 6] = struct.pack("!H", struct.unpack("!H", pkt[u + 4:u + 6])[0] + extra)


# ---- key file (docs/keyfile.md) ---------------------------------------------------------
def read_keys(path):
    keys, ctxs = {}, {}
    with open(path) as f:
        for line in f:
            w = line.split("#")[0].split()
            if w[:1] == ["key"]:
                keys[int(w[1])] = (bytes.fromhex(w[3]), bytes.fromhex(w[5]))
            elif w[:1] == ["ctx"]:
                c = dict(zip(w[4::2], w[5::2]))
                c["sel"], c["match"] = w[2], int(w[3], 0)
                c["tx_next"] = int(c.get("tx_next", "0"), 0)
                ctxs[int(w[1])] = c
    return keys, ctxs


def select(ctxs, destqp, pkey):
    for i, c in ctxs.items():
        if c["sel"] == "qp" and c["match"] == destqp:
            return i
    for i, c in ctxs.items():
        if c["sel"] == "pkey" and c["match"] == (pkey & 0x7FFF):
            return i
    return None


def reconstruct(ref, psn):
    """EPSN nearest to ref with these low 24 bits (wire-format.md section 6)."""
    d = (psn - ref) % PSN_MOD
    return ref + d if d < PSN_HALF else ref + d - PSN_MOD


def seal(lib, link, plain, keys, ctxs):
    """The sealed packet per the wire format, and the EPSN used (None for plain traffic)."""
    lay = Layout(link, plain)
    if lay.eths_end is None:
        raise ValueError("opcode 0x%02x not in this script's table" % plain[lay.bth])
    bth = lay.bth
    destqp = int.from_bytes(plain[bth + 5:bth + 8], "big")
    pkey = int.from_bytes(plain[bth + 2:bth + 4], "big")
    psn = int.from_bytes(plain[bth + 9:bth + 12], "big")
    i = select(ctxs, destqp, pkey)
    pkt = bytearray(plain)
    mode = ctxs[i]["mode"] if i is not None else "none"
    epsn = None
    if mode != "none":
        c = ctxs[i]
        epsn = reconstruct(c["tx_next"], psn)
        if epsn < c["tx_next"]:
            raise ValueError("the generator sealed below tx_next")
        c["tx_next"] = epsn + 1
        key, salt = keys[int(c["key"])]
        sth = STH_LEN[c["sth"]] if mode.startswith("sth-") else 0
        if sth:
            pkt[lay.eths_end:lay.eths_end] = bytes(sth)
            lay.grow(pkt, sth)
        pkt[bth + 8] |= MODES[mode] | (STH_CODE[c["sth"]] if sth else 0)
        icrc_off = len(pkt) - lay.tail
        h = lay.masked_headers(pkt)
        body = bytes(pkt[lay.eths_end + sth:icrc_off])     # payload || pad
        iv = salt + struct.pack("!Q", (int(c["dir"]) << 63) | epsn)
        if mode == "sth-pkt":
            ct, tag = gcm_seal(lib, key, iv, h + body, b"")
        elif mode == "sth-hdr":
            ct, tag = gcm_seal(lib, key, iv, h, b"")
        else:
            ct, tag = gcm_seal(lib, key, iv, h, body)
        if mode in ("icrc-mac", "sth-aead"):
            pkt[lay.eths_end + sth:icrc_off] = ct
        if mode == "icrc-mac":
            pkt[icrc_off:icrc_off + 4] = tag[:4]
        else:
            pkt[lay.eths_end:lay.eths_end + sth] = tag[:sth]
    if not lay.native:
        pkt[lay.udp + 6:lay.udp + 8] = bytes(2)   # UDP checksum 0 (wire-format.md section 4)
    icrc_off = len(pkt) - lay.tail
    if mode != "icrc-mac":
        icrc = zlib.crc32(lay.masked_headers(pkt) + bytes(pkt[lay.eths_end:icrc_off]))
        pkt[icrc_off:icrc_off + 4] = struct.pack("<I", icrc)
    if lay.native:
        pkt[icrc_off + 4:icrc_off + 6] = struct.pack("<H", vcrc(bytes(pkt[:icrc_off + 4])))
    return bytes(pkt), epsn


def check_file(lib, d, link, counts):
    keys, ctxs = read_keys(os.path.join(d, "keys.txt"))
    with open(os.path.join(d, link + ".vec")) as f:
        lines = [l.split() for l in f if l.strip() and not l.startswith("#")]
    for k in range(len(lines)):
        if lines[k][0] != "pkt" or lines[k + 2][:2] != ["seal", "ok"]:
            continue
        fields = dict(zip(lines[k][2::2], lines[k][3::2]))
        plain = bytes.fromhex(lines[k + 1][1])
        want = bytes.fromhex(lines[k + 2][2])
        try:
            got, epsn = seal(lib, link, plain, keys, ctxs)
            ok = got == want and (epsn is None) == (fields["epsn"] == "-") and \
                (epsn is None or epsn == int(fields["epsn"], 16))
            why = "sealed bytes or EPSN differ"
        except (ValueError, KeyError) as e:
            ok, why, got = False, str(e), b""
        if ok:
            counts[0] += 1
        else:
            counts[1] += 1
            if counts[1] <= 10:
                print("FAIL vec-indep: %s %s (%s, mode %s): %s" % (link, " ".join(lines[k][:2]), fields["shape"], fields["mode"], why))
                if got:
                    first = next((j for j in range(min(len(got), len(want))) if got[j] != want[j]), min(len(got), len(want)))
                    print("  first difference at byte %d (lengths %d, %d)" % (first, len(got), len(want)))


def main():
    if len(sys.argv) != 2:
        print("usage: check_vectors_independent.py DIR")
        return 2
    lib = load_libcrypto()
    if lib is None:
        print("FAIL vec-indep: OpenSSL libcrypto not found")
        print("vec-indep: 0 passed, 1 failed")
        return 1
    counts = [0, 0]
    for link in ("native", "rocev2"):
        check_file(lib, sys.argv[1], link, counts)
    print("vec-indep: %d passed, %d failed" % (counts[0], counts[1]))
    return 0 if counts[1] == 0 and counts[0] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
