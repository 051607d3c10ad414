#!/usr/bin/env python3
"""Plot the setup-time tables of build/bin/ibsec_setup_bench (docs/setup.md §8) as an SVG.

Reads the bench's output on stdin, writes the SVG named on the command line: one panel per
fabric latency, setup time of N connections (log-log) for each number in flight W, with
the ideal of N x the time of one connection for reference. Plain SVG, no plotting library.
Usage: build/bin/ibsec_setup_bench | scripts/setup_plot.py docs/img/setup_time.svg
"""
import math
import re
import sys

COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"]


def parse(text):
    """[(latency_us, [W...], {W: [(N, us)]})] from the bench's markdown tables."""
    panels = []
    for block in re.split(r"\nsetup time, ", text)[1:]:
        lat = float(re.search(r"fabric latency ([0-9.]+) us", block).group(1))
        header = re.search(r"^\| N \|(.*)$", block, re.M).group(1)
        ws = [int(w) for w in re.findall(r"W = (\d+) \(us\)", header)]
        series = {w: [] for w in ws}
        for row in re.findall(r"^\| (\d+) \|(.*)\|$", block, re.M):
            n = int(row[0])
            vals = [float(v) for v in row[1].split("|")[: len(ws)]]
            for w, v in zip(ws, vals):
                series[w].append((n, v))
        panels.append((lat, ws, series))
    return panels


def panel_svg(x0, y0, w, h, lat, ws, series):
    pts = [p for s in series.values() for p in s]
    nmax = max(n for n, _ in pts)
    tmin = min(t for _, t in pts)
    tmax = max(max(t for _, t in pts), series[ws[0]][0][1] * nmax)
    lx = lambda n: x0 + 60 + (w - 80) * math.log10(n) / math.log10(nmax)
    lo, hi = math.floor(math.log10(tmin)), math.ceil(math.log10(tmax))
    ly = lambda t: y0 + h - 40 - (h - 70) * (math.log10(t) - lo) / (hi - lo)
    out = [f'<text x="{x0 + w / 2}" y="{y0 + 18}" text-anchor="middle" font-size="14">'
           f'fabric latency {lat:g} us one way</text>']
    out.append(f'<line x1="{x0 + 60}" y1="{y0 + h - 40}" x2="{x0 + w - 20}" y2="{y0 + h - 40}" stroke="black"/>')
    out.append(f'<line x1="{x0 + 60}" y1="{y0 + 30}" x2="{x0 + 60}" y2="{y0 + h - 40}" stroke="black"/>')
    for e in range(lo, hi + 1):
        y = ly(10 ** e)
        out.append(f'<line x1="{x0 + 56}" y1="{y}" x2="{x0 + w - 20}" y2="{y}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 + 52}" y="{y + 4}" text-anchor="end" font-size="11">1e{e}</text>')
    for n, _ in series[ws[0]]:
        out.append(f'<text x="{lx(n)}" y="{y0 + h - 24}" text-anchor="middle" font-size="11">{n}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h - 6}" text-anchor="middle" font-size="12">connections N</text>')
    out.append(f'<text x="{x0 + 14}" y="{y0 + h / 2}" font-size="12" transform="rotate(-90 {x0 + 14} {y0 + h / 2})" '
               f'text-anchor="middle">setup time (us)</text>')
    one = series[ws[0]][0][1]
    ideal = " ".join(f"{lx(n):.1f},{ly(one * n):.1f}" for n, _ in series[ws[0]])
    out.append(f'<polyline points="{ideal}" fill="none" stroke="#999" stroke-dasharray="4 3"/>')
    for i, wv in enumerate(ws):
        c = COLORS[i % len(COLORS)]
        line = " ".join(f"{lx(n):.1f},{ly(t):.1f}" for n, t in series[wv])
        out.append(f'<polyline points="{line}" fill="none" stroke="{c}" stroke-width="2"/>')
        out.append(f'<text x="{x0 + 70}" y="{y0 + 40 + 14 * i}" fill="{c}" font-size="12">W = {wv}'
                   f'{" (one at a time)" if wv == 1 else ""}</text>')
    out.append(f'<text x="{x0 + 70}" y="{y0 + 40 + 14 * len(ws)}" fill="#999" font-size="12">N x one connection</text>')
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ibsec_setup_bench | setup_plot.py OUT.svg")
    panels = parse(sys.stdin.read())
    if not panels:
        sys.exit("setup_plot: no setup-time table on stdin")
    pw, ph = 460, 340
    body = []
    for i, (lat, ws, series) in enumerate(panels):
        body += panel_svg(i * pw, 0, pw, ph, lat, ws, series)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{pw * len(panels)}" height="{ph}" '
           f'font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n'
           + "\n".join(body) + "\n</svg>\n")
    with open(sys.argv[1], "w") as f:
        f.write(svg)


if __name__ == "__main__":
    main()
