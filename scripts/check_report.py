#!/usr/bin/env python3
"""make report-check: what `make report` does with and without make fpga's results.

scripts/report.py render, in a scratch folder:
  1. without fpga.json (a machine where make fpga has not run): the committed report and
     its image folder are left byte for byte as they were, the report of the benchmarks
     alone goes to report/ beside the bench folder, and the exit status is 0;
  2. with an fpga.json (here one without results): the report named by --out is written;
  3. an engine's cycles are converted with a routed clock only when the routed run has
     the benches' crypto configuration (the params of their JSON).
Prints "report-check: N passed, N failed"; exit status 1 if anything failed.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL report-check: {what}")


def render(fpga, bench, out, img):
    return subprocess.run([sys.executable, os.path.join(HERE, "report.py"), "render", "--fpga", fpga,
                           "--bench", bench, "--out", out, "--img", img],
                          capture_output=True, text=True)


with tempfile.TemporaryDirectory() as d:
    bench = os.path.join(d, "build", "bench")
    os.makedirs(bench)
    docs = os.path.join(d, "docs")
    img = os.path.join(docs, "img")
    os.makedirs(img)
    out = os.path.join(docs, "performance.md")
    committed = "# ibsec performance report\n\ncommitted figures\n"
    with open(out, "w") as f:
        f.write(committed)
    with open(os.path.join(img, "latency.png"), "wb") as f:
        f.write(b"committed plot")

    r = render(os.path.join(d, "build", "fpga", "fpga.json"), bench, out, img)
    check(r.returncode == 0, f"render without fpga.json exits 0 (exit {r.returncode}: {r.stderr[-300:]})")
    check(open(out).read() == committed, "without fpga.json the committed report is left as it was")
    check(sorted(os.listdir(img)) == ["latency.png"] and
          open(os.path.join(img, "latency.png"), "rb").read() == b"committed plot",
          "without fpga.json the committed plots are left as they were")
    partial = os.path.join(d, "build", "report", "performance.md")
    check(os.path.isfile(partial), "without fpga.json the report goes to build/report/performance.md")
    check("keep their committed figures" in r.stdout, "render says the committed figures are kept")

    fpga = os.path.join(d, "build", "fpga", "fpga.json")
    os.makedirs(os.path.dirname(fpga))
    with open(fpga, "w") as f:
        json.dump({"pnr": [], "pnr_unfinished": [], "synth": [],
                   "capacity": {"comb": 83640, "ff": 83640, "bram": 208, "dsp": 156}}, f)
    r = render(fpga, bench, out, img)
    check(r.returncode == 0, f"render with fpga.json exits 0 (exit {r.returncode}: {r.stderr[-300:]})")
    check(open(out).read() != committed and open(out).read().startswith("# ibsec performance report"),
          "with fpga.json the report named by --out is written")

# 3. an engine's cycles become ns only at a clock routed in the benches' own crypto
#    configuration (never one configuration's cycles at another's clock)
sys.path.insert(0, HERE)
import report  # noqa: E402

routed = {"pnr": [{"top": "ibsec_seal", "lanes": 1, "fmax_mhz": 50.0,
                   "params": {"OPEN": "0", "STAGES_PER_ROUND": "2", "SBOX_IMPL": "1",
                              "KEY_SLOTS": "2", "CTX_SLOTS": "4"}}]}
lut_bench = {1: {"params": {"KEY_SLOTS": "8", "CTX_SLOTS": "16"}, "clock_mhz": 200.0}}
bram_bench = {1: {"params": {"STAGES_PER_ROUND": "2", "SBOX_IMPL": "1", "KEY_SLOTS": "8",
                             "CTX_SLOTS": "16"}, "clock_mhz": 200.0}}
c = report.Clocks(routed, report.engine_bench_core(bram_bench))
check(c.for_engine("seal")[0] == 50.0, "a bench in the routed configuration gets the routed clock")
c = report.Clocks(routed, report.engine_bench_core(lut_bench))
mhz, why = c.for_engine("seal")
check(mhz is None and "configuration" in why,
      f"a bench in another configuration gets no routed clock (got {mhz}, {why!r})")
check(report.engine_clock(c, "seal", lut_bench[1])[0] == 200.0,
      "such a bench's ns are at its own clock_mhz")

print(f"report-check: {passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
