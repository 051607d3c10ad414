#!/usr/bin/env python3
"""Logic-depth check: the deepest register-to-register path of each mapped netlist
against the ceiling committed for it (make depth-check, in make test).

Usage: scripts/depth_check.py --ceilings FILE [--json OUT.json] RUN=NETLIST.json ...
       scripts/depth_check.py --ceilings FILE --expect-fail RUN=NETLIST.json ...

RUN names a run as the flow does (top:lanes:variant); NETLIST.json is its mapped netlist
(scripts/synth_netlist.sh). The depth is scripts/netlist_depth.py's: a LUT4 counts 1
for its logic and 1 for the route to it, a carry hop 0.1 or 0.3, a slice multiplexer 0.3
(+1 for its select's route); docs/fpga.md, "Logic depth", relates it to the routed clock.

The ceilings file has one line per run, "RUN CEILING  # why", and one line
"target DEPTH  # why": the depth that corresponds to the clock the engines must reach.
A run's CEILING is a number, or the word "target". A run whose ceiling is above the
target is one whose RTL has not yet been cut down to it: its ceiling is its depth when it
was last measured, so that no change makes it deeper, and the check prints how far it is
from the target. Each run prints one PASS/FAIL line with its depth, ceiling and deepest
path; the last line is "depth-check: N passed, N failed". A run without a ceiling, or a
netlist that cannot be read, is a failure with its reason.

--expect-fail inverts the verdict of every run (the self-test: a deliberately deep
probe must fail its ceiling).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netlist_depth  # noqa: E402


def read_ceilings(path):
    """{run: ceiling} and the target depth of a ceilings file (raises ValueError)."""
    ceil, target = {}, None
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e}")
    raw = {}
    for n, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2:
            raise ValueError(f"{path}:{n}: want 'RUN CEILING', got {line.strip()!r}")
        name, val = words
        if name in raw or (name == "target" and target is not None):
            raise ValueError(f"{path}:{n}: {name} given twice")
        if name == "target":
            try:
                target = float(val)
            except ValueError:
                raise ValueError(f"{path}:{n}: the target must be a number, got {val!r}")
            continue
        raw[name] = (n, val)
    if target is None:
        raise ValueError(f"{path}: no 'target DEPTH' line")
    for name, (n, val) in raw.items():
        if val == "target":
            ceil[name] = target
            continue
        try:
            ceil[name] = float(val)
        except ValueError:
            raise ValueError(f"{path}:{n}: ceiling of {name} must be a number or 'target'")
        if ceil[name] < target:
            raise ValueError(f"{path}:{n}: ceiling of {name} ({val}) is below the target "
                             f"({target:g}): write 'target'")
    return ceil, target


def short(name, n=72):
    """A net or cell name cut to n characters (Yosys' mapped names grow long)."""
    return name if len(name) <= n else name[:n - 3] + "..."


def judge(run, netlist, ceil, target):
    """One run's result: (passed, line, record)."""
    if run not in ceil:
        return False, f"FAIL {run}: no ceiling in the ceilings file", {"run": run}
    try:
        paths = netlist_depth.deepest_paths(netlist, 1)
    except ValueError as e:
        return False, f"FAIL {run}: {e}", {"run": run}
    if not paths:
        return False, f"FAIL {run}: no register-to-register path in {netlist}", {"run": run}
    p = paths[0]
    c = ceil[run]
    ok = p["depth"] <= c + 1e-9
    note = "" if c <= target else f", {p['depth'] - target:.1f} above the target {target:g}"
    line = (f"{'PASS' if ok else 'FAIL'} {run}: depth {p['depth']:.1f} "
            f"({p['cells']} cells), ceiling {c:g}{note}; "
            f"{short(p['start'])} -> {short(p['end'])}")
    rec = {"run": run, "depth": p["depth"], "cells": p["cells"], "ceiling": c,
           "target": target, "start": p["start"], "end": p["end"],
           "through": p["through"], "passed": ok}
    return ok, line, rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ceilings", required=True)
    ap.add_argument("--json", help="write every run's depth and path as JSON")
    ap.add_argument("--expect-fail", action="store_true",
                    help="a run passes when its depth exceeds its ceiling")
    ap.add_argument("runs", nargs="+", metavar="RUN=NETLIST.json")
    a = ap.parse_args()
    try:
        ceil, target = read_ceilings(a.ceilings)
    except ValueError as e:
        print(f"depth-check: {e}")
        print("depth-check: 0 passed, 1 failed")
        sys.exit(1)
    passed = failed = 0
    recs = []
    for spec in a.runs:
        if "=" not in spec:
            ok, line, rec = False, f"FAIL {spec}: want RUN=NETLIST.json", {"run": spec}
        else:
            run, netlist = spec.split("=", 1)
            ok, line, rec = judge(run, netlist, ceil, target)
            if a.expect_fail and "depth" in rec:
                ok = not ok
                line = ("PASS" if ok else "FAIL") + line[4:] + \
                    (" (a deep path, caught)" if ok else " (a deep path, NOT caught)")
        print(line)
        recs.append(rec)
        passed += ok
        failed += not ok
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"target": target, "runs": recs}, f, indent=1)
    print(f"depth-check: {passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)


if __name__ == "__main__":
    main()
