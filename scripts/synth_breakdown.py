#!/usr/bin/env python3
"""Resources per submodule of one synthesis result.

Usage: synth_breakdown.py STAT_JSON TOP
       synth_breakdown.py --flat NETLIST_JSON [LEVELS]

STAT_JSON is the <top>_L<n>.stat.json that scripts/synth.py writes beside its result
(hierarchy kept, synth_ecp5 -noflatten). For every submodule instance of TOP it prints
LUT4, PFUMX, L6MUX21, TRELLIS_FF and the other primitives inside it (recursively), and
what TOP holds itself, so the totals show where the area goes.

--flat reads a flattened netlist instead (the netlist.json of make depth-check or of a
place-and-route run, what nextpnr packs), where constant ports and unused outputs are
gone, and groups its cells by the first LEVELS names (default 3) of their instance path
(the hdlname attribute, else the dotted prefix of the cell's name). COMB estimates the LUT sites after
packing: LUT4 + 2 x CCU2C + 6 x TRELLIS_DPR16X4 (a 16 x 4 distributed RAM takes about six,
docs/fpga.md). Groups of fewer than 300 COMB and 1,000 FF are left out. Prints, asserts
nothing.
"""

import json
import sys

SHOWN = ["LUT4", "PFUMX", "L6MUX21", "TRELLIS_FF", "CCU2C", "TRELLIS_DPR16X4"]


def fail(msg):
    print(f"synth_breakdown.py: {msg}", file=sys.stderr)
    sys.exit(2)


def instance_path(name, cell):
    """The instance path of a flattened cell: its hdlname attribute, else the dotted
    prefix of its name (Yosys names a flattened cell inst.sub.cell, and an automatic
    one $auto$...$inst.sub.net...)."""
    hdl = cell.get("attributes", {}).get("hdlname")
    if hdl:
        return hdl.split(" ")[:-1]
    for seg in name.lstrip("\\").split("$"):
        if "." in seg:
            return seg.split(".")[:-1]
    return []


def flat(path, levels):
    """Cells of a flattened netlist grouped by their instance path's first levels."""
    try:
        net = json.load(open(path))
        cells = max(net["modules"].values(), key=lambda m: len(m.get("cells", {})))["cells"]
    except (OSError, ValueError, KeyError) as e:
        fail(f"cannot read {path}: {e}")
    weight = {"LUT4": 1, "CCU2C": 2, "TRELLIS_DPR16X4": 6}
    groups = {}
    for name, cell in cells.items():
        inst = instance_path(name, cell)
        label = ".".join(inst[:levels]) or "(top)"
        c = groups.setdefault(label, {})
        c[cell["type"]] = c.get(cell["type"], 0) + 1
    for c in groups.values():
        c["COMB"] = sum(c.get(t, 0) * w for t, w in weight.items())
    total = {}
    for c in groups.values():
        for k, v in c.items():
            total[k] = total.get(k, 0) + v
    rows = sorted(((g, c) for g, c in groups.items()
                   if c["COMB"] >= 300 or c.get("TRELLIS_FF", 0) >= 1000),
                  key=lambda r: -r[1]["COMB"])
    rows.append(("total", total))
    shown = ["COMB", "LUT4", "CCU2C", "TRELLIS_DPR16X4", "TRELLIS_FF", "DP16KD"]
    width = max(len(r[0]) for r in rows)
    print(f"{'part':{width}s}  " + "  ".join(f"{c:>15s}" for c in shown))
    for label, c in rows:
        print(f"{label:{width}s}  " + "  ".join(f"{c.get(k, 0):15d}" for k in shown))


def main():
    if len(sys.argv) in (3, 4) and sys.argv[1] == "--flat":
        levels = 3
        if len(sys.argv) == 4:
            try:
                levels = int(sys.argv[3])
            except ValueError:
                fail(f"LEVELS must be a number, not {sys.argv[3]!r}")
        flat(sys.argv[2], levels)
        return
    if len(sys.argv) != 3:
        fail("usage: synth_breakdown.py STAT_JSON TOP | --flat NETLIST_JSON [LEVELS]")
    path, top = sys.argv[1:]
    try:
        mods = json.load(open(path))["modules"]
    except (OSError, ValueError, KeyError) as e:
        fail(f"cannot read {path}: {e}")
    names = {m.lstrip("\\"): m for m in mods}
    memo = {}

    def total(mod):
        """Primitive counts of one module with everything instantiated below it."""
        if mod in memo:
            return memo[mod]
        acc = {}
        for t, n in mods[mod]["num_cells_by_type"].items():
            sub = names.get(t.lstrip("\\"))
            if sub is not None:
                for k, v in total(sub).items():
                    acc[k] = acc.get(k, 0) + n * v
            elif t != "$scopeinfo":
                acc[t] = acc.get(t, 0) + n
        memo[mod] = acc
        return acc

    if top not in names:
        fail(f"module {top} not in {path}")
    parts = {}  # module name -> [instances, counts]; parameter variants are summed
    own = {}
    for t, n in mods[names[top]]["num_cells_by_type"].items():
        sub = names.get(t.lstrip("\\"))
        if sub is None:
            if t != "$scopeinfo":
                own[t] = own.get(t, 0) + n
            continue
        label = t.split("\\")[1] if t.startswith("$paramod") else t.lstrip("\\")
        part = parts.setdefault(label, [0, {}])
        part[0] += n
        for k, v in total(sub).items():
            part[1][k] = part[1].get(k, 0) + n * v
    merged = {f"{n} x {label}": c for label, (n, c) in parts.items()}
    rows = sorted(merged.items(), key=lambda r: -r[1].get("LUT4", 0))
    rows.append((f"{top} itself", own))
    rows.append(("total", total(names[top])))
    width = max(len(r[0]) for r in rows)
    print(f"{'part':{width}s}  " + "  ".join(f"{c:>10s}" for c in SHOWN))
    for label, c in rows:
        print(f"{label:{width}s}  " + "  ".join(f"{c.get(k, 0):10d}" for k in SHOWN))


if __name__ == "__main__":
    main()
