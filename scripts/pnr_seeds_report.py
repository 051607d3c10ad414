#!/usr/bin/env python3
"""The seeds of one place-and-route run side by side (scripts/pnr_seeds.sh).

Usage: pnr_seeds_report.py RUN_DIR SEED...

For each RUN_DIR/seed<N>/: nextpnr's estimate after placement (the first "Max frequency"
line of pnr.log), and either the routed Fmax and critical path (report.json, which nextpnr
writes only when it finishes) or where the run stopped (the last placer or router line).
Writes RUN_DIR/seeds.json and prints a Markdown table with the routed clock's minimum,
median and maximum over the seeds that routed.
"""

import json
import os
import re
import statistics
import sys

from synth_collect import nextpnr_stage
from synth_pnr_report import path_summary


def fail(msg):
    print(f"pnr_seeds_report.py: {msg}", file=sys.stderr)
    sys.exit(2)


def seed_row(run, seed):
    d = os.path.join(run, f"seed{seed}")
    log_path = os.path.join(d, "pnr.log")
    if not os.path.isfile(log_path):
        fail(f"{log_path} not found: seed {seed} was not run (scripts/pnr_seeds.sh)")
    log = open(log_path, errors="replace").read()
    mhz = [float(m) for m in re.findall(r"Max frequency for clock '[^']*': ([0-9.]+) MHz", log)]
    row = {"seed": seed, "estimate_mhz": mhz[0] if mhz else None, "routed": False}
    # pnr_seeds.sh's record of the run: nextpnr's exit status (124: stopped at the time
    # limit) and its wall time
    exit_path = os.path.join(d, "exit")
    if os.path.isfile(exit_path):
        rc, secs = open(exit_path).read().split()
        row.update(nextpnr_exit=int(rc), nextpnr_s=int(secs))
    rep_path = os.path.join(d, "report.json")
    if os.path.isfile(rep_path):
        try:
            rep = json.load(open(rep_path))
        except ValueError as e:
            fail(f"cannot read {rep_path}: {e}")
        fmax = [v.get("achieved", 0.0) for v in rep.get("fmax", {}).values()]
        cps = [path_summary(cp) for cp in rep.get("critical_paths", [])]
        # the clock's own path (register to register), not the wrapper pins' <async> ones
        own = [c for c in cps if c["from"] and c["to"] and "async" not in c["from"] + c["to"]]
        row.update(routed=bool(fmax), fmax_mhz=round(min(fmax), 2) if fmax else None,
                   critical_path=own[0] if own else None)
        m = re.findall(r"iter=(\d+) wires=\d+ overused=0 ", log)
        row["router_iterations"] = int(m[-1]) if m else None
    else:
        row["stopped_at"] = nextpnr_stage(log)
    return row


def main():
    if len(sys.argv) < 3:
        fail("usage: pnr_seeds_report.py RUN_DIR SEED...")
    run, seeds = sys.argv[1], [int(s) for s in sys.argv[2:]]
    rows = [seed_row(run, s) for s in seeds]
    routed = [r["fmax_mhz"] for r in rows if r["routed"]]
    spread = ({"min": min(routed), "median": statistics.median(routed), "max": max(routed)}
              if routed else None)
    out = {"run": os.path.basename(os.path.normpath(run)), "seeds": rows,
           "routed": len(routed), "fmax_mhz": spread,
           # the router and options the seeds ran with (nextpnr_run.sh PNR_ROUTER, PNR_OPTS)
           "router": os.environ.get("PNR_ROUTER", "router2"),
           "options": os.environ.get("PNR_OPTS", "").split()}
    with open(os.path.join(run, "seeds.json"), "w") as f:
        json.dump(out, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{out['run']}: {len(routed)} of {len(rows)} seeds routed"
          + (f", {out['router']}" if out["router"] != "router2" else "")
          + "".join(f", {o}" for o in out["options"])
          + (f", Fmax {spread['min']:.1f} / {spread['median']:.1f} / {spread['max']:.1f} MHz "
             "(min / median / max)" if spread else ""))
    print("| seed | estimate after placement | result | critical path | nextpnr s |")
    print("|---|---|---|---|---|")
    for r in rows:
        est = f"{r['estimate_mhz']:.1f} MHz" if r["estimate_mhz"] is not None else "-"
        if r["routed"]:
            cp = r["critical_path"]
            path = (f"{cp['total_ns']:.2f} ns = {cp['logic_ns']:.2f} logic + "
                    f"{cp['routing_ns']:.2f} routing, {cp['start_cell']} -> {cp['end_cell']}"
                    if cp else "-")
            print(f"| {r['seed']} | {est} | routed: **{r['fmax_mhz']:.1f} MHz** | {path} |"
                  f" {r.get('nextpnr_s', '-')} |")
        else:
            why = " (time limit)" if r.get("nextpnr_exit") == 124 else ""
            print(f"| {r['seed']} | {est} | not routed: stopped{why} in {r['stopped_at']} | - |"
                  f" {r.get('nextpnr_s', '-')} |")


if __name__ == "__main__":
    main()
