#!/usr/bin/env python3
"""Collect the results of the FPGA flow into one JSON file and one table.

Usage: synth_collect.py --out DIR --synth SYNTH_JSON... --pnr PNR_SUMMARY_JSON...
                        [--unfinished PNR_DIR...]

SYNTH_JSON: results of `synth.py run` (Yosys synth_ecp5 resource counts of one top at
one width, one parameter variant). PNR_SUMMARY_JSON: pnr_summary.json of
scripts/synth_pnr_report.py (read from nextpnr-ecp5's own --report: achieved Fmax,
critical paths, device use). Writes DIR/fpga.json and DIR/fpga.md (a Markdown table)
and prints the table. Each synthesis row also says whether the counts fit an
LFE5U-85F (the capacities below, nextpnr's device table); that is an estimate from
synthesis, where place and route has not been run. --unfinished names place-and-route
folders without a summary (nextpnr stopped or still running): each is listed with the
last Fmax estimate its pnr.log printed (after placement, before routing), marked as such.
Each place-and-route row names its flow, read from its pnr.log: the wrapper (three pins,
or nextpnr's out-of-context mode of the runs before 2026-11-26) and the placer.
"""

import argparse
import datetime
import json
import os
import re
import sys

import netlist_depth

# LFE5U-85F capacities (nextpnr-ecp5 --85k utilization report: TRELLIS_COMB, TRELLIS_FF,
# DP16KD, MULT18X18D)
DEVICE = "LFE5U-85F"
CAPACITY = {"comb": 83640, "ff": 83640, "bram": 208, "dsp": 156}


def fail(msg):
    print(f"synth_collect.py: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path, need):
    try:
        d = json.load(open(path))
        mtime = os.path.getmtime(path)
    except (OSError, ValueError) as e:
        fail(f"cannot read {path}: {e}")
    missing = [k for k in need if k not in d]
    if missing:
        fail(f"{path} lacks {', '.join(missing)}: not a result of the FPGA flow")
    # when the result was written (the file's time): results are cached, so a table
    # may mix runs of different times
    d["measured"] = datetime.datetime.fromtimestamp(
        mtime, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    d["source"] = path
    return d


def variant_name(params):
    return " ".join(f"{k}={v}" for k, v in sorted(params.items())) or "defaults"


def synth_row(r):
    """One synthesis result, with the slice cells it needs and whether they fit."""
    row = {"top": r["top"], "lanes": r["lanes"], "params": r.get("params", {}),
           "variant": variant_name(r.get("params", {})), "yosys_exit": r["yosys_exit"],
           "wall_s": r.get("wall_s"), "yosys": r.get("yosys"), "measured": r["measured"],
           "source": r["source"],
           # where the RTL check before mapping ran (scripts/synth.py --rtl-check-hier)
           "rtl_check": r.get("rtl_check", "flattened")}
    if "columns" not in r:
        row["fits"] = None
        return row
    c = r["columns"]
    # a CCU2C carry cell occupies two LUT4 sites of a slice
    comb = c["LUT4"] + 2 * c["CCU2C"]
    row.update({"lut4": c["LUT4"], "comb": comb, "ff": c["TRELLIS_FF"], "bram": c["DP16KD"],
                "dsp": c["MULT18X18D"], "dpr16x4": c["TRELLIS_DPR16X4"],
                "pfumx": c["PFUMX"], "l6mux21": c["L6MUX21"]})
    over = [k for k in ("comb", "ff", "bram", "dsp") if row[k] > CAPACITY[k]]
    row["fits"] = not over
    row["over"] = over
    return row


def pnr_row(s):
    util = s.get("utilization", {})

    def used(bel):
        return util.get(bel, {}).get("used", 0)

    fmax = s.get("fmax", {})
    clk = fmax.get("clk") or (next(iter(fmax.values())) if fmax else {})
    cp = (s.get("critical_paths") or [{}])[0]
    return {"top": s["top"], "lanes": s["lanes"], "params": s.get("params", {}),
            "variant": variant_name(s.get("params", {})), "device": s.get("device"),
            # three decimals: printed with one, no double rounding
            "target_mhz": s.get("target_mhz"), "fmax_mhz": round(clk.get("achieved", 0.0), 3),
            "met": clk.get("achieved", 0.0) >= s.get("target_mhz", 0.0),
            "comb": used("TRELLIS_COMB"), "ff": used("TRELLIS_FF"), "bram": used("DP16KD"),
            "dsp": used("MULT18X18D"), "critical_path": cp,
            "synth_s": s.get("synth_s"), "pnr_s": s.get("pnr_s"), "measured": s["measured"],
            "source": s["source"],
            "harness": run_harness(s["source"]) + (f", seed {s['seed']}" if "seed" in s else "")
                       + "".join(f", {w}" for w in nextpnr_how(s.get("router", "router2"),
                                                               s.get("options", []))),
            "seeds": seeds_of(s["source"])}


def nextpnr_how(router, options):
    """The router (when not the flow's router2) and the further options of a nextpnr run
    (scripts/nextpnr_run.sh PNR_ROUTER, PNR_OPTS), as words: ["router1", "--no-tmdriv"]."""
    return ([router] if router != "router2" else []) + list(options)


def seeds_of(summary_path):
    """make fpga-seeds' result beside a pnr_summary.json (seeds.json of
    scripts/pnr_seeds_report.py): each seed's routed Fmax (None: not routed) and the
    spread of the routed ones; None when no seeds were run."""
    path = os.path.join(os.path.dirname(summary_path), "seeds.json")
    if not os.path.isfile(path):
        return None
    d = load(path, ["seeds"])
    return {"fmax_mhz": d.get("fmax_mhz"), "routed": d.get("routed", 0),
            "router": d.get("router", "router2"), "options": d.get("options", []),
            "per_seed": {str(r["seed"]): r.get("fmax_mhz") if r.get("routed") else None
                         for r in d["seeds"]}}


def seeds_text(seeds):
    """The seeds' spread for the tables (and docs/performance.md): "seeds 1, 2, 3: 3 of 3
    routed, 29.7 / 38.2 / 39.1 MHz (min / median / max)"."""
    if not seeds:
        return ""
    names = ", ".join(sorted(seeds["per_seed"], key=int))
    f = seeds.get("fmax_mhz")
    spread = (f", {f['min']:.1f} / {f['median']:.1f} / {f['max']:.1f} MHz (min / median / max)"
              if f else "")
    how = "".join(f" {w}" for w in nextpnr_how(seeds.get("router", "router2"),
                                               seeds.get("options", [])))
    return f"seeds {names}{how}: {seeds['routed']} of {len(seeds['per_seed'])} routed{spread}"


def run_harness(summary_path):
    """harness() of the pnr.log beside a pnr_summary.json ("?" without one)."""
    log = os.path.join(os.path.dirname(summary_path), "pnr.log")
    return harness(open(log, errors="replace").read()) if os.path.isfile(log) else "?"


def nextpnr_stage(text):
    """Where an unfinished nextpnr run was: the last placer or router progress line."""
    stage = "packing (before placement)" if text.strip() else "startup (its log is empty)"
    for line in text.splitlines():
        if re.search(r"Creating initial analytic placement|Running main analytical placer", line):
            stage = "analytic placement (HeAP)"
        m = re.search(r"at iteration #(\d+), type ALL", line)
        if m:
            stage = f"analytic placement (HeAP), iteration {m.group(1)}"
        if "Running Static placer" in line:
            stage = "electrostatic placement (static)"
        m = re.search(r"iter=(\d+) steplen=", line)
        if m:
            stage = f"electrostatic placement (static), iteration {m.group(1)}"
        if "Running simulated annealing placer" in line:
            stage = "placement refinement (simulated annealing)"
        m = re.search(r"iter=(\d+) wires=(\d+) overused=(\d+)", line)
        if m:
            stage = (f"routing (router2), iteration {m.group(1)}: {int(m.group(3)):,} of "
                     f"{int(m.group(2)):,} wires overused")
        # router1's progress table: arc routings so far | with, without rip-up | ... | arcs left
        m = re.search(r"Info:\s+(\d+) \|\s+\d+\s+\d+ \|\s+\d+\s+\d+ \|\s+(\d+)\|", line)
        if m:
            stage = (f"routing (router1), {int(m.group(1)):,} arc routings done, "
                     f"{int(m.group(2)):,} arcs left")
    return stage


def harness(text):
    """How a run was placed and routed, from its pnr.log: the wrapper (three pins since
    2026-11-26, before that nextpnr's out-of-context mode without pins) and the placer."""
    pins = "3-pin wrapper" if re.search(r"TRELLIS_IO:\s+3/", text) else "out of context"
    placer = "static" if "Running Static placer" in text else "heap"
    return f"{pins}, placer {placer}"


def yosys_counts(d):
    """Cell counts of the run's own synthesis (stat.json of synth_pnr.sh, wrapper included)."""
    try:
        c = json.load(open(os.path.join(d, "stat.json")))["design"]["num_cells_by_type"]
    except (OSError, ValueError, KeyError):
        return None
    return {"lut4": c.get("LUT4", 0), "comb": c.get("LUT4", 0) + 2 * c.get("CCU2C", 0),
            "ff": c.get("TRELLIS_FF", 0), "bram": c.get("DP16KD", 0),
            "dsp": c.get("MULT18X18D", 0)}


def deepest_path(d):
    """The deepest register-to-register path of the run's mapped netlist by logic depth
    (scripts/netlist_depth.py): what limits an engine that nextpnr did not route, which
    then has no critical path of its own. None without a readable netlist."""
    try:
        paths = netlist_depth.deepest_paths(os.path.join(d, "netlist.json"), 1)
    except ValueError:
        return None
    return paths[0] if paths else None


def unfinished_row(d):
    """A place and route that left no summary: the last Fmax estimate in its log, where
    nextpnr was when it stopped, and the Yosys counts of its netlist."""
    log = os.path.join(d, "pnr.log")
    if not os.path.isfile(log):
        return None
    text = open(log, errors="replace").read()
    est = re.findall(r"Max frequency for clock '([^']+)': ([0-9.]+) MHz", text)
    name = os.path.basename(d.rstrip("/"))
    m = re.fullmatch(r"pnr-(\w+?)_L(\d+)_([\w-]+)", name)
    return {"run": name, "top": m.group(1) if m else name, "lanes": int(m.group(2)) if m else 0,
            "variant": m.group(3) if m else "?", "log": log,
            "placement_estimate_mhz": float(est[-1][1]) if est else None,
            "stopped_in": nextpnr_stage(text), "yosys": yosys_counts(d), "harness": harness(text),
            "deepest_path": deepest_path(d),
            "nextpnr_util": {k.lower(): [int(a), int(b)] for k, a, b in re.findall(
                r"(TRELLIS_COMB|TRELLIS_FF|DP16KD):\s+(\d+)/\s*(\d+)", text)},
            "error": next((l.strip() for l in text.splitlines() if l.startswith("ERROR:")), None),
            "measured": datetime.datetime.fromtimestamp(os.path.getmtime(log),
                                                        datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}


def pct(n, cap):
    return f"{n:,} ({100.0 * n / cap:.1f} %)"


def table(synth, pnr, unfinished):
    out = [f"Place and route (nextpnr-ecp5, {DEVICE} speed 8, the core behind a register "
           "on every port; resources from nextpnr's report)", "",
           "| top | LANES | parameters | target MHz | Fmax MHz | met | LUT4 (COMB) | FF | DP16KD "
           "| DSP | critical path | flow | measured |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in pnr:
        cp = p["critical_path"]
        path = (f"{cp.get('total_ns', 0):.2f} ns = {cp.get('logic_ns', 0):.2f} logic + "
                f"{cp.get('routing_ns', 0):.2f} routing, {cp.get('start_cell')} -> "
                f"{cp.get('end_cell')}") if cp else "-"
        out.append(f"| {p['top']} | {p['lanes']} | {p['variant']} | {p['target_mhz']:.0f} | "
                   f"{p['fmax_mhz']:.1f} | {'yes' if p['met'] else 'NO'} | "
                   f"{pct(p['comb'], CAPACITY['comb'])} | {pct(p['ff'], CAPACITY['ff'])} | "
                   f"{p['bram']} | {p['dsp']} | {path} | {p.get('harness') or '?'}"
                   f"{'; ' + seeds_text(p.get('seeds')) if p.get('seeds') else ''} | "
                   f"{p['measured']} |")
    if not pnr:
        out.append("| (no place-and-route result) | | | | | | | | | | | | |")
    for u in unfinished:
        est = (f"{u['placement_estimate_mhz']:.1f} MHz estimated after placement"
               if u["placement_estimate_mhz"] else "no estimate")
        y = u.get("yosys")
        res = (f"{pct(y['comb'], CAPACITY['comb'])} (Yosys) | {pct(y['ff'], CAPACITY['ff'])} (Yosys) | "
               f"{y['bram']} | {y['dsp']}") if y else " | | | "
        out.append(f"| {u['top']} | {u['lanes']} | {u['variant']} | | unfinished: {est} | | {res} "
                   f"| nextpnr left no report; "
                   + "".join(f"does not fit: {k.upper()} {a:,} of {b:,}; "
                             for k, (a, b) in sorted(u.get("nextpnr_util", {}).items()) if a > b)
                   + (f"failed in {u.get('stopped_in', '?')}: {u['error']} " if u.get("error")
                      else f"stopped in {u.get('stopped_in', '?')} ")
                   + f"({u['log']})"
                   + (f"; deepest path by logic depth (unrouted): {dp['depth']} units, "
                      f"{dp['cells']} cells, "
                      f"{dp['start']} -> {dp['end']}.{dp['pin']} " if (dp := u.get("deepest_path"))
                      else "")
                   + f"| {u['harness']} | {u['measured']} |")
    out += ["", f"Synthesis (Yosys synth_ecp5 -noflatten; fits = within the {DEVICE}'s "
            f"{CAPACITY['comb']:,} LUT4, {CAPACITY['ff']:,} FF, {CAPACITY['bram']} DP16KD)", "",
            "| top | LANES | parameters | LUT4 | PFUMX | L6MUX21 | FF | DP16KD | DSP | fits | "
            "Yosys s | measured |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in synth:
        if r["fits"] is None:
            out.append(f"| {r['top']} | {r['lanes']} | {r['variant']} | Yosys exit "
                       f"{r['yosys_exit']} | | | | | | | |")
            continue
        fits = "yes" if r["fits"] else "no (" + ", ".join(r["over"]) + ")"
        out.append(f"| {r['top']} | {r['lanes']} | {r['variant']} | {r['lut4']:,} | "
                   f"{r['pfumx']:,} | {r['l6mux21']:,} | {r['ff']:,} | {r['bram']} | {r['dsp']} | "
                   f"{fits} | {r['wall_s']:.0f} | {r['measured']} |")
    if not synth:
        out.append("| (no synthesis result) | | | | | | | | | | |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--synth", nargs="*", default=[])
    ap.add_argument("--pnr", nargs="*", default=[])
    ap.add_argument("--unfinished", nargs="*", default=[])
    args = ap.parse_args()
    synth = [synth_row(load(p, ["top", "lanes", "yosys_exit"])) for p in args.synth]
    pnr = [pnr_row(load(p, ["top", "lanes", "fmax", "utilization"])) for p in args.pnr]
    synth.sort(key=lambda r: (r["top"], r["variant"], r["lanes"]))
    pnr.sort(key=lambda r: (r["top"], r["variant"], r["lanes"]))
    os.makedirs(args.out, exist_ok=True)
    unfinished = [u for u in (unfinished_row(d) for d in args.unfinished) if u]
    doc = {"device": DEVICE, "speed": 8, "capacity": CAPACITY, "synth": synth, "pnr": pnr,
           "pnr_unfinished": unfinished}
    with open(os.path.join(args.out, "fpga.json"), "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")
    text = table(synth, pnr, unfinished)
    with open(os.path.join(args.out, "fpga.md"), "w") as f:
        f.write(text)
    print(text, end="")
    print(f"fpga: {len(pnr)} place-and-route ({len(unfinished)} unfinished) and {len(synth)} synthesis results in "
          f"{os.path.join(args.out, 'fpga.json')} and fpga.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
