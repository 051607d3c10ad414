#!/usr/bin/env python3
"""Summarize nextpnr-ecp5's own report of one out-of-context place and route.

Usage: synth_pnr_report.py OUT_DIR TOP LANES FREQ_MHZ SYNTH_S PNR_S [NAME=VALUE ...]

Reads OUT_DIR/report.json (nextpnr --report: utilization, achieved Fmax per clock,
critical paths), prints Fmax, the critical path (from, to, logic and routing delay,
the cells along it) and the device use, and writes OUT_DIR/pnr_summary.json.
"""

import json
import os
import sys


def fail(msg):
    print(f"synth_pnr_report.py: {msg}", file=sys.stderr)
    sys.exit(2)


def path_summary(cp):
    logic = sum(s.get("delay", 0.0) for s in cp.get("path", []) if s.get("type") != "routing")
    routing = sum(s.get("delay", 0.0) for s in cp.get("path", []) if s.get("type") == "routing")
    cells = []
    for s in cp.get("path", []):
        c = s.get("to", {}).get("cell") if s.get("type") != "routing" else None
        if c and c not in cells:
            cells.append(c)
    steps = [s for s in cp.get("path", []) if s.get("type") != "routing"]
    first, last = (cp.get("path") or [{}])[0], (cp.get("path") or [{}])[-1]
    return {"from": cp.get("from"), "to": cp.get("to"),
            "start_cell": first.get("from", {}).get("cell"),
            "end_cell": last.get("to", {}).get("cell"),
            "logic_ns": round(logic, 3), "routing_ns": round(routing, 3),
            "total_ns": round(logic + routing, 3), "logic_levels": max(len(steps) - 1, 0),
            "cells": cells}


def main():
    if len(sys.argv) < 7:
        fail("usage: synth_pnr_report.py OUT_DIR TOP LANES FREQ_MHZ SYNTH_S PNR_S [NAME=VALUE ...]")
    out, top, lanes, freq, synth_s, pnr_s = sys.argv[1:7]
    params = dict(a.split("=", 1) for a in sys.argv[7:])
    # defaults changed below the top (synth_pnr.sh PNR_SUB_PARAMS), as "module.NAME"
    for sp in os.environ.get("PNR_SUB_PARAMS", "").split():
        mod, nv = sp.split(":", 1)
        name, value = nv.split("=", 1)
        params[f"{mod}.{name}"] = value
    path = os.path.join(out, "report.json")
    try:
        rep = json.load(open(path))
    except (OSError, ValueError) as e:
        fail(f"cannot read nextpnr report {path}: {e}")
    util = {k: v for k, v in rep.get("utilization", {}).items() if v.get("used", 0) > 0}
    fmax = rep.get("fmax", {})
    cps = [path_summary(cp) for cp in rep.get("critical_paths", [])]
    summary = {"top": top, "lanes": int(lanes), "params": params, "device": "LFE5U-85F-8BG381 (core in a 3-pin register wrapper)",
               "target_mhz": float(freq), "fmax": fmax, "critical_paths": cps,
               "utilization": util, "synth_s": int(synth_s), "pnr_s": int(pnr_s),
               "placer": os.environ.get("PNR_PLACER", "static"),
               "seed": int(os.environ.get("PNR_SEED", "1")),
               "router": os.environ.get("PNR_ROUTER", "router2"),
               "options": os.environ.get("PNR_OPTS", "").split()}
    with open(os.path.join(out, "pnr_summary.json"), "w") as f:
        json.dump(summary, f, indent=2, sort_keys=True)
        f.write("\n")

    extra = "".join(f", {k} = {v}" for k, v in params.items())
    print(f"place and route: {top} LANES = {lanes}{extra} on LFE5U-85F speed 8, target {freq} MHz "
          f"(synthesis {synth_s} s, nextpnr {pnr_s} s)")
    for clk, v in fmax.items():
        ach, con = v.get("achieved", 0.0), v.get("constraint", 0.0)
        print(f"  Fmax {clk}: {ach:.1f} MHz (constraint {con:.1f} MHz: "
              f"{'met' if ach >= con else 'NOT met'})")
    for cp in cps:
        print(f"  critical path {cp['from']} -> {cp['to']}: {cp['total_ns']:.2f} ns = "
              f"{cp['logic_ns']:.2f} ns logic + {cp['routing_ns']:.2f} ns routing, "
              f"{cp['logic_levels']} cells; from {cp['start_cell']} to {cp['end_cell']}")
    print("  resource          used / available")
    for k in sorted(util):
        v = util[k]
        print(f"  {k:16s} {v['used']:7d} / {v['available']:7d}  "
              f"{100.0 * v['used'] / max(v['available'], 1):5.1f} %")


if __name__ == "__main__":
    main()
