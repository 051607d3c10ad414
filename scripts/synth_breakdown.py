#!/usr/bin/env python3
"""Resources per submodule of one synthesis result, from Yosys `stat -json`.

Usage: synth_breakdown.py STAT_JSON TOP

STAT_JSON is the <top>_L<n>.stat.json that scripts/synth.py writes beside its result
(hierarchy kept, synth_ecp5 -noflatten). For every submodule instance of TOP it prints
LUT4, PFUMX, L6MUX21, TRELLIS_FF and the other primitives inside it (recursively), and
what TOP holds itself, so the totals show where the area goes. Prints, asserts nothing.
"""

import json
import sys

SHOWN = ["LUT4", "PFUMX", "L6MUX21", "TRELLIS_FF", "CCU2C", "TRELLIS_DPR16X4"]


def fail(msg):
    print(f"synth_breakdown.py: {msg}", file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) != 3:
        fail("usage: synth_breakdown.py STAT_JSON TOP")
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
