#!/usr/bin/env python3
"""Write an out-of-context timing wrapper around one RTL top, from its port list.

Usage: synth_ooc_wrap.py PORTS_JSON TOP LANES OUT_V [NAME=VALUE ...]

NAME=VALUE: further parameters of TOP, set in the instance beside LANES.

PORTS_JSON is Yosys `write_json` output of the elaborated design (after `hierarchy`), so
the wrapper follows the top's ports whatever they are; nothing here knows the design.

The wrapper `ooc_wrap` measures the core out of its context on three pins: `clk`, `sin`
and `sout`. It puts one register on every port of the core, all clocked by `clk`:
  - the input registers form a shift chain (several of at most CHAIN_MAX bits, each
    fed from `sin`, for a top with more input bits), one bit per clock, so every input
    bit is a register whose value synthesis cannot know;
  - each output feeds a register, and the output registers are folded into `sout` by a
    tree of 4-input XORs with a register after each level, so no output bit can be
    optimized away and each tree level is one LUT between two registers. These
    registers start at 0, so that an output the core leaves undefined (x) becomes a
    constant 0 rather than an x that Yosys may fold through the whole XOR tree.
Every path that starts or ends in the core is then a register-to-register path inside
the fabric, and place and route measures the core's own logic, including any
combinational path the core has from an input to an output (input register -> core ->
output register). The wrapper adds one flip-flop per port bit, and about one LUT4 and
one flip-flop per three output bits for the tree.

Why pins rather than nextpnr's --out-of-context: the core has far more port bits than
the package has pins, and out of context the clock port has no driver, so nextpnr
neither puts the clock on the global network nor routes it at all (router2 cannot route
a net without a driver). With a clock pin, nextpnr inserts the global buffer (DCCA) and
routes the clock on the global network, as in a full design.

A combinational top (no `clk` port, e.g. the header parser) gets a `clk` of the
wrapper's own, so its whole depth is timed from input registers to output registers.
"""

import json
import re
import sys

CLOCK = "clk"
# longest input shift chain: Yosys (yowasp, WebAssembly) ran out of call stack in
# synth_ecp5's techmap on one chain of 3,557 bits (ibsec_compose), recursing along it;
# chains of up to 1,048 bits (the header blocks) map. Every top with at most CHAIN_MAX
# input bits keeps a single chain.
CHAIN_MAX = 1536


def fail(msg):
    print(f"synth_ooc_wrap.py: {msg}", file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) < 5:
        fail("usage: synth_ooc_wrap.py PORTS_JSON TOP LANES OUT_V [NAME=VALUE ...]")
    ports_json, top, lanes, out_v = sys.argv[1:5]
    # LANES = 0: the top has no LANES parameter
    params = [("LANES", lanes)] if lanes != "0" else []
    for a in sys.argv[5:]:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=[0-9]+", a):
            fail(f"parameter must be NAME=<integer>, got '{a}'")
        params.append(tuple(a.split("=", 1)))
    try:
        mods = json.load(open(ports_json))["modules"]
    except (OSError, ValueError, KeyError) as e:
        fail(f"cannot read the port list from {ports_json}: {e}")
    # after chparam + hierarchy the top keeps its name (or is the one marked top)
    mod = mods.get(top) or next((m for m in mods.values()
                                 if m.get("attributes", {}).get("top")), None)
    if mod is None:
        fail(f"module {top} not found in {ports_json}")
    ports = mod["ports"]
    if CLOCK in ports and ports[CLOCK]["direction"] != "input":
        fail(f"port '{CLOCK}' of {top} is not an input")
    for name, p in ports.items():
        if p["direction"] not in ("input", "output"):
            fail(f"port {name} of {top} is {p['direction']}; only input and output are wrapped")

    ins, outs, conns = [], [], []
    for name, p in ports.items():
        w = len(p["bits"])
        if name == CLOCK:
            conns.append(f"    .{name}({CLOCK})")
        elif p["direction"] == "input":
            ins.append((name, w))
        else:
            outs.append((name, w))
    n_in = sum(w for _, w in ins)
    n_out = sum(w for _, w in outs)
    if n_out == 0:
        fail(f"{top} has no output port")
    body = []
    # inputs: shift chains from sin, the core's inputs at their low ends; at most
    # CHAIN_MAX bits per chain, each chain fed from sin
    if n_in > 1:
        body.append(f"reg  [{n_in - 1}:0] in_q;")
        if n_in <= CHAIN_MAX:
            body.append(f"always @(posedge {CLOCK}) in_q <= {{in_q[{n_in - 2}:0], sin}};")
        else:
            for lo in range(0, n_in, CHAIN_MAX):
                hi = min(lo + CHAIN_MAX, n_in) - 1
                if hi == lo:
                    body.append(f"always @(posedge {CLOCK}) in_q[{lo}] <= sin;")
                else:
                    body.append(f"always @(posedge {CLOCK}) in_q[{hi}:{lo}] <= "
                                f"{{in_q[{hi - 1}:{lo}], sin}};")
    elif n_in == 1:
        body.append(f"reg  [0:0] in_q;")
        body.append(f"always @(posedge {CLOCK}) in_q <= sin;")
    else:
        fail(f"{top} has no input port besides '{CLOCK}'")
    lsb = 0
    for name, w in ins:
        conns.append(f"    .{name}(in_q[{lsb + w - 1}:{lsb}])")
        lsb += w
    # outputs: registered, then folded four bits per LUT, one register per level. The
    # output and tree registers start at 0: a core output that is an undefined constant
    # (a register the core never loads for these parameters, e.g. the receive-side
    # outputs of ibsec_regs with OPEN = 0) then makes its output register a constant 0.
    # Without an initial value Yosys turns such a register into x, and since x ^ a may be
    # folded to x, one x poisons the whole tree: sout becomes x and the core is removed.
    body.append(f"wire [{n_out - 1}:0] out_w;")
    body.append(f"reg  [{n_out - 1}:0] out_q = {n_out}'d0;")
    body.append(f"always @(posedge {CLOCK}) out_q <= out_w;")
    lsb = 0
    for name, w in outs:
        conns.append(f"    .{name}(out_w[{lsb + w - 1}:{lsb}])")
        lsb += w
    prev, width, level = "out_q", n_out, 0
    while width > 1:
        level += 1
        nxt = (width + 3) // 4
        pad = 4 * nxt - width
        src = f"{{{pad}'b0, {prev}}}" if pad else prev
        body.append(f"wire [{4 * nxt - 1}:0] x{level}_in = {src};")
        body.append(f"reg  [{nxt - 1}:0] x{level}_q = {nxt}'d0;")
        body.append(f"integer i{level};")
        body.append(f"always @(posedge {CLOCK})")
        body.append(f"    for (i{level} = 0; i{level} < {nxt}; i{level} = i{level} + 1)")
        body.append(f"        x{level}_q[i{level}] <= ^x{level}_in[4 * i{level} +: 4];")
        prev, width = f"x{level}_q", nxt
    body.append(f"assign sout = {prev}[0];")
    settings = ", ".join(f"{k} = {v}" for k, v in params)
    inst_params = ", ".join(f".{k}({v})" for k, v in params)
    text = (f"// ooc_wrap: generated by scripts/synth_ooc_wrap.py around {top} ({settings}):\n"
            f"// a register on every port, inputs shifted in from sin, outputs folded into\n"
            f"// sout ({n_in} input bits, {n_out} output bits), for place and route on 3 pins.\n"
            f"`default_nettype none\n"
            f"module ooc_wrap (\n    input wire {CLOCK},\n    input wire sin,\n"
            f"    output wire sout\n);\n"
            + "\n".join(body) + "\n"
            f"{top} #({inst_params}) core_inst (\n" + ",\n".join(conns) + "\n);\n"
            f"endmodule\n`default_nettype wire\n")
    with open(out_v, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
