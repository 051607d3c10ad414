#!/usr/bin/env python3
"""Logic depth of the register-to-register paths of a mapped ECP5 netlist.

Usage: scripts/netlist_depth.py NETLIST.json [--top N] [--json OUT.json]
       scripts/netlist_depth.py --selftest   (make netlist-depth-selftest, in make test)

NETLIST.json is the flattened netlist that scripts/synth_pnr.sh hands to nextpnr
(OUT_DIR/netlist.json: Yosys synth_ecp5 cells). nextpnr reports a critical path only
for a routed design; an engine that does not route leaves only the placer's Fmax
estimate, without the path. This script ranks the paths by their depth in the mapped
cells, so that the deepest can be named and cut in the RTL even then.

Depth model (a ranking, not a timing analysis: routing, which dominates on ECP5, is
counted only as one unit per hop between cells that need general routing):
  LUT4 (A-D -> Z)                      1 logic + 1 route
  TRELLIS_DPR16X4 read (RAD -> DO)     1 logic + 1 route   (distributed RAM, async read)
  PFUMX / L6MUX21 from their LUT / mux inputs   0.3 (slice-internal)
  PFUMX C0, L6MUX21 SD (select)        0.3 logic + 1 route
  CCU2C A/B/C/D -> S, COUT             1 logic + 1 route;   CIN -> COUT 0.1, CIN -> S 0.3
Start points: flip-flop Q, block RAM outputs, the top's inputs, constants, the stored
words of distributed RAM. End points: flip-flop D / CE / LSR, every block RAM input, the
write side of distributed RAM, the top's outputs.
Prints the deepest end points (one per register group: the bit index and Yosys' mapping
suffixes stripped) with the path's start point and the named nets along it.
"""
import argparse
import json
import re
import signal
import sys
from collections import defaultdict

ROUTE = 1.0
# the slice's wide-function muxes: their data inputs (slice-internal) and select input
MUX_PINS = {"PFUMX": (("ALUT", "BLUT"), "C0"), "L6MUX21": (("D0", "D1"), "SD")}


def cell_arcs(ctype, conns):
    """Yield (out_bit, in_bit, cost) for the combinational arcs of a cell."""
    def bits(p):
        return conns.get(p, [])
    if ctype == "LUT4":
        for z in bits("Z"):
            for p in "ABCD":
                for b in bits(p):
                    yield z, b, 1.0 + ROUTE
    elif ctype in MUX_PINS:
        data, select = MUX_PINS[ctype]
        for z in bits("Z"):
            for p in data:
                for b in bits(p):
                    yield z, b, 0.3
            for b in bits(select):
                yield z, b, 0.3 + ROUTE
    elif ctype == "TRELLIS_DPR16X4":
        for z in bits("DO"):
            for b in bits("RAD"):
                yield z, b, 1.0 + ROUTE
    elif ctype == "CCU2C":
        lo = [b for p in ("A0", "B0", "C0", "D0") for b in bits(p)]
        hi = [b for p in ("A1", "B1", "C1", "D1") for b in bits(p)]
        cin = bits("CIN")
        for s in bits("S0"):
            for b in lo:
                yield s, b, 1.0 + ROUTE
            for b in cin:
                yield s, b, 0.3
        for s in bits("S1"):
            for b in lo + hi:
                yield s, b, 1.0 + ROUTE
            for b in cin:
                yield s, b, 0.3
        for c in bits("COUT"):
            for b in lo + hi:
                yield c, b, 1.0 + ROUTE
            for b in cin:
                yield c, b, 0.1


# cell inputs that end a path (the cell's inputs not listed in cell_arcs)
ENDPOINT_PORTS = {
    "TRELLIS_FF": None,          # every input
    "DP16KD": None,
    "TRELLIS_DPR16X4": ("DI", "WAD", "WRE"),
}


def group_name(name):
    """A register group: the bit index and Yosys' mapping suffixes stripped."""
    n = re.sub(r"_TRELLIS_FF_Q(_\d+)?$", "", name)
    n = re.sub(r"_DP16KD.*$", "", n)
    n = re.sub(r"\[\d+\]", "", n)
    n = re.sub(r"_\d+$", "", n)
    return n


def signal_name(net):
    """The RTL signal a mapped net comes from: bit index and Yosys' cell suffixes cut."""
    s = re.sub(r"\[\d+\]$", "", net)
    s = re.split(r"_(?:LUT4|PFUMX|L6MUX21|CCU2C|DO|TRELLIS_FF)", s)[0]
    s = re.sub(r"\.mem\.\d+\.\d+$", ".mem", s)
    return s


def load_top(path):
    """The top module of a mapped netlist (raises ValueError with the reason)."""
    try:
        with open(path) as f:
            d = json.load(f)
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e}")
    except ValueError as e:
        raise ValueError(f"{path} is not JSON: {e}")
    mods = d.get("modules", {})
    tops = [k for k, v in mods.items() if v.get("attributes", {}).get("top")]
    if len(tops) != 1:
        raise ValueError(f"{path}: expected one top module, found {len(tops)}")
    top = mods[tops[0]]
    if any(c["type"].startswith("$") and c["type"] != "$scopeinfo"
           for c in top.get("cells", {}).values()):
        raise ValueError(f"{path}: the netlist has unmapped cells; give it synth_ecp5's output")
    return top


def net_names(top):
    """A name for every net bit: a visible name preferred, then the shortest."""
    name = {}
    for n, v in top.get("netnames", {}).items():
        vis = not v.get("hide_name", 0)
        for i, b in enumerate(v["bits"]):
            if isinstance(b, str):
                continue
            nm = n if len(v["bits"]) == 1 else f"{n}[{i}]"
            old = name.get(b)
            if old is None or (vis and not old[0]) or (vis == old[0] and len(nm) < len(old[1])):
                name[b] = (vis, nm)
    return {b: v[1] for b, v in name.items()}


def timing_graph(top):
    """The combinational arcs (out bit -> [(in bit, cost)]), the bits cells drive through
    them, and the end points [(bit, cell or port, pin)]."""
    fanin = defaultdict(list)
    comb_out = set()
    ends = []
    for cn, c in top.get("cells", {}).items():
        t = c["type"]
        conns = c.get("connections", {})
        for z, b, cost in cell_arcs(t, conns):
            fanin[z].append((b, cost))
            comb_out.add(z)
        if t in ENDPOINT_PORTS:
            ports = ENDPOINT_PORTS[t]
            for p, dirn in c.get("port_directions", {}).items():
                if dirn != "input" or (ports is not None and p not in ports):
                    continue
                if p.startswith("CLK") or p == "WCK":
                    continue
                for b in conns.get(p, []):
                    if not isinstance(b, str):
                        ends.append((b, cn, p))
    for pn, p in top.get("ports", {}).items():
        if p["direction"] == "output":
            for b in p["bits"]:
                if not isinstance(b, str):
                    ends.append((b, "port " + pn, pn))
    return fanin, comb_out, ends


def arrivals(fanin, roots):
    """Depth at every bit behind the roots, and the input bit each depth comes through;
    iterative depth-first search (paths are hundreds of cells deep), a combinational
    loop cut where it closes."""
    arr, pred = {}, {}
    for root in roots:
        if root in arr:
            continue
        stack = [(root, 0)]
        onstack = {root}
        while stack:
            b, i = stack[-1]
            fi = fanin.get(b, ())
            if i < len(fi):
                stack[-1] = (b, i + 1)
                nb = fi[i][0]
                if isinstance(nb, str) or nb in arr or nb in onstack:
                    continue
                stack.append((nb, 0))
                onstack.add(nb)
                continue
            best, bp = 0.0, None
            for nb, cost in fi:
                v = (0.0 if isinstance(nb, str) else arr.get(nb, 0.0)) + cost
                if v > best:
                    best, bp = v, nb
            arr[b] = best
            pred[b] = bp
            stack.pop()
            onstack.discard(b)
    return arr, pred


def deepest_paths(path, n=15):
    """The n deepest end point groups of a mapped netlist file, deepest first: end cell
    and pin, depth, cells on the path, start net, the RTL signals along it."""
    return rank_paths(load_top(path), n)


def rank_paths(top, n=15):
    """deepest_paths of a top module already read (a dict of Yosys' JSON format)."""
    names = net_names(top)
    fanin, comb_out, ends = timing_graph(top)
    arr, pred = arrivals(fanin, {b for b, _, _ in ends})
    groups = {}
    for b, cn, p in ends:
        v = arr.get(b, 0.0)
        g = group_name(cn)
        if g not in groups or v > groups[g][0]:
            groups[g] = (v, b, cn, p)
    out = []
    for g, (v, b, cn, p) in sorted(groups.items(), key=lambda kv: -kv[1][0])[:n]:
        bits = []
        x = b
        while x is not None and not isinstance(x, str):
            bits.append(x)
            x = pred.get(x)
        bits.reverse()
        nets = [names.get(x, f"<net {x}>") for x in bits]
        through = []
        for nm in nets:
            sig = signal_name(nm)
            if not through or through[-1] != sig:
                through.append(sig)
        out.append({"end": cn, "pin": p, "depth": round(v, 1),
                    "cells": sum(1 for x in bits if x in comb_out),
                    "start": nets[0] if nets else "", "through": through})
    return out


def selftest():
    """Small hand-made netlists with known depths; prints "N passed, N failed"."""
    def ff(d, q):
        return {"type": "TRELLIS_FF", "port_directions": {"CLK": "input", "DI": "input",
                "Q": "output"}, "connections": {"CLK": [1], "DI": [d], "Q": [q]}}

    def lut(z, *ins):
        c = {"Z": [z]}
        c.update({p: [b] for p, b in zip("ABCD", ins)})
        return {"type": "LUT4", "connections": c}

    def ccu(a0, cin, s0, s1, cout):
        return {"type": "CCU2C", "connections": {"A0": [a0], "CIN": [cin], "S0": [s0],
                "S1": [s1], "COUT": [cout]}}

    def top(cells, names):
        return {"cells": cells, "ports": {},
                "netnames": {n: {"bits": [b], "hide_name": 0} for n, b in names.items()}}

    cases = []
    # FF q (net 10) -> two LUT4 in series -> FF: 2 x (1 logic + 1 route) = 4.0, 2 cells;
    # a parallel one-LUT path to the same FF must not win
    cases.append(("two LUTs in series", top(
        {"r0": ff(2, 10), "l1": lut(11, 10), "l2": lut(12, 11, 10), "r1": ff(12, 20),
         "l3": lut(13, 10), "r2": ff(13, 21)},
        {"r0_q": 10, "mid": 11, "r1_d": 12}),
        lambda r: r[0]["depth"] == 4.0 and r[0]["cells"] == 2 and r[0]["end"] == "r1"
        and r[0]["start"] == "r0_q" and r[1]["depth"] == 2.0))
    # a carry chain: entry at A0 to COUT (2.0), one CIN -> COUT hop (0.1), CIN -> S1 (0.3)
    cases.append(("carry chain", top(
        {"r0": ff(2, 10), "c0": ccu(10, "0", 30, 31, 11), "c1": ccu("0", 11, 32, 33, 12),
         "c2": ccu("0", 12, 34, 35, 13), "r1": ff(35, 20)},
        {"r0_q": 10}),
        lambda r: abs(r[0]["depth"] - 2.4) < 1e-9 and r[0]["end"] == "r1"
        and r[0]["cells"] == 3))
    # distributed RAM: the async read (RAD -> DO) is a step, the write side an end point
    dpr = {"type": "TRELLIS_DPR16X4", "port_directions": {"RAD": "input", "DO": "output",
           "DI": "input", "WAD": "input", "WRE": "input", "WCK": "input"},
           "connections": {"RAD": [10], "DO": [11], "DI": [12], "WAD": [10], "WRE": [10],
                           "WCK": [1]}}
    cases.append(("distributed RAM read and write", top(
        {"r0": ff(2, 10), "m": dpr, "l1": lut(12, 11), "r1": ff(11, 20)}, {"r0_q": 10}),
        lambda r: {(x["end"], x["depth"]) for x in r} >= {("m", 4.0), ("r1", 2.0)}))
    # a combinational loop is cut, not followed forever
    cases.append(("combinational loop", top(
        {"r0": ff(2, 10), "l1": lut(11, 10, 12), "l2": lut(12, 11), "r1": ff(12, 20)},
        {"r0_q": 10}),
        lambda r: r[0]["end"] == "r1" and r[0]["depth"] == 4.0))
    passed = failed = 0
    for name, t, ok in cases:
        try:
            good = bool(ok(rank_paths(t, 10)))
        except Exception as e:          # a crash is a failure of the case
            print(f"FAIL {name}: {type(e).__name__}: {e}")
            good = None
        if good:
            passed += 1
            print(f"PASS {name}")
        elif good is False:
            failed += 1
            print(f"FAIL {name}: {rank_paths(t, 10)}")
        else:
            failed += 1
    print(f"netlist-depth-selftest: {passed} passed, {failed} failed")
    return failed == 0


def main():
    if sys.argv[1:] == ["--selftest"]:
        sys.exit(0 if selftest() else 1)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("netlist")
    ap.add_argument("--top", type=int, default=15, help="end point groups to print")
    ap.add_argument("--json", help="write the ranking as JSON")
    a = ap.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet when piped into head
    try:
        out = deepest_paths(a.netlist, a.top)
    except ValueError as e:
        sys.exit(f"netlist_depth: {e}")
    for o in out:
        print(f"{o['depth']:6.1f}  {o['cells']:3d} cells  {o['end'][:90]}  from {o['start'][:80]}")
        print("        via " + " -> ".join(s[:60] for s in o["through"][1:-1][:24]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
