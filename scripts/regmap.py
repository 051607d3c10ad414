#!/usr/bin/env python3
"""regmap.py — ibsec's register-map generator: SystemRDL in, the map's other forms out.

Usage: regmap.py [--out-root DIR] [--doc DOC.md] MAP.rdl...

For every MAP.rdl (a SystemRDL 2.0 addrmap, compiled and elaborated by systemrdl-compiler,
the PeakRDL front end, with rtl/common/ on the include path for ibsec_rdl_props.rdl):
  DIR/<folder of MAP.rdl>/<MAP>_map.vh   Verilog-2005 localparams (addresses, fields,
                                         codes) and functions (address decode), included
                                         inside the module that implements the map
  DIR/cmodel/<MAP>_map.h                 the same as C macros and a static inline decode
                                         function, for the driver, the model and the benches
and, with --doc, DIR/DOC.md: DOC.md with every generated block replaced. A block is the
text between a line `<!-- regmap MAP KIND [ARG] -->` and the next `<!-- regmap end -->`:
  map                       the register table (address, name, access, content)
  fields REG                the fields of REG (bits, field, values)
  enum REG.FIELD COLUMNS    the codes of a field's enum; COLUMNS (a|b|c) name the table's
                            columns: code, name, then the parts of each code's desc split at " | "
DIR defaults to the current folder (write in place); `make regmap-check` writes into a
build folder and compares. Exit 0, or 1 with a message on any error.

Names: the addrmap's ibsec_prefix property P gives P_REG_<REG> (byte address; a
function-like macro of the index for an array), P_<REG>_<FIELD>_LSB / _WIDTH / _MASK,
P_<REG>_<FIELD>_RESET for a constant field, P_<REG>_<FIELD>_<CODE> for an enum member,
P_<REG>_BITS (the defined bits of a register). A register inside an array of regfiles is
named <REGFILE>_<REG>. Verilog functions are lower case: p_mapped(a), p_writable(a),
p_staged(a) and, for an array, p_in_<reg>(a) and p_idx_<reg>(a).
"""
import argparse
import os
import re
import sys

from systemrdl import RDLCompiler, RDLCompileError
from systemrdl.node import RegfileNode, RegNode

ADDR_BITS = 12          # every block decodes a 4 KiB window
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROPS_DIR = os.path.join(TOP, "rtl", "common")


class Field:
    def __init__(self, node):
        self.name = node.inst_name
        self.lsb = node.lsb
        self.msb = node.msb
        self.width = node.width
        self.sw_read = node.is_sw_readable
        self.sw_write = node.is_sw_writable
        self.const = (not node.is_hw_writable) and (not self.sw_write)
        self.reset = node.get_property("reset")
        self.desc = node.get_property("desc") or ""
        enc = node.get_property("encode")
        self.enum = [(m.name, m.value, m.rdl_desc or "") for m in enc] if enc else []

    @property
    def mask(self):
        return ((1 << self.width) - 1) << self.lsb

    def bits(self):
        return "[%d]" % self.lsb if self.width == 1 else "[%d:%d]" % (self.msb, self.lsb)


class Reg:
    def __init__(self, node, parent_rf=None):
        self.regfile = parent_rf.inst_name if parent_rf is not None else None
        if parent_rf is not None:
            self.name = "%s_%s" % (parent_rf.inst_name, node.inst_name)
            arr = parent_rf
            self.offset = node.address_offset
        else:
            self.name = node.inst_name
            arr = node
            self.offset = 0
        if node.is_array and parent_rf is not None and parent_rf.is_array:
            raise ValueError("%s: arrays of arrays are not supported" % self.name)
        if arr.is_array:
            if len(arr.array_dimensions) != 1:
                raise ValueError("%s: only one-dimensional arrays" % self.name)
            self.count = arr.array_dimensions[0]
            self.stride = arr.array_stride
            self.base = arr.raw_absolute_address
        else:
            self.count = 0
            self.stride = 0
            self.base = node.absolute_address - self.offset
        self.addr = self.base + self.offset
        if node.get_property("regwidth") != 32:
            raise ValueError("%s: every register must be 32 bits" % self.name)
        self.fields = [Field(f) for f in node.fields()]
        self.desc = node.get_property("desc") or ""
        self.staged = bool(node.get_property("ibsec_staged", default=False))
        self.command = bool(node.get_property("ibsec_command", default=False))
        self.latch_hi = bool(node.get_property("ibsec_latch_hi", default=False))
        self.readable = any(f.sw_read for f in self.fields)
        self.writable = any(f.sw_write for f in self.fields)
        if self.count and self.stride & (self.stride - 1):
            raise ValueError("%s: an array's stride must be a power of two" % self.name)

    @property
    def bits(self):
        m = 0
        for f in self.fields:
            m |= f.mask
        return m

    def access(self):
        if self.latch_hi:
            return "RC"
        if self.command:
            return "RW, command"
        if self.writable and self.readable:
            return "RW, staged" if self.staged else "RW"
        if self.writable:
            return "W, staged" if self.staged else "W"
        return "RO"

    def words(self):
        """every byte address of the register (all elements of an array)"""
        if not self.count:
            return [self.addr]
        return [self.addr + i * self.stride for i in range(self.count)]


class Map:
    def __init__(self, path):
        rdlc = RDLCompiler()
        try:
            rdlc.compile_file(path, incl_search_paths=[PROPS_DIR])
            root = rdlc.elaborate()
        except RDLCompileError:
            raise SystemExit("regmap: %s does not compile" % path)
        top = root.top
        self.path = path
        self.name = top.inst_name
        self.prefix = top.get_property("ibsec_prefix", default=None)
        if not self.prefix:
            raise SystemExit("regmap: %s: the addrmap has no ibsec_prefix" % path)
        self.desc = top.get_property("desc") or ""
        if top.size > (1 << ADDR_BITS):
            raise SystemExit("regmap: %s is larger than %d bytes" % (path, 1 << ADDR_BITS))
        self.regs = []
        for child in top.children(unroll=False):
            if isinstance(child, RegNode):
                self.regs.append(Reg(child))
            elif isinstance(child, RegfileNode):
                for r in child.children(unroll=False):
                    if isinstance(r, RegNode):
                        self.regs.append(Reg(r, child))
                    else:
                        raise SystemExit("regmap: %s: only registers inside a regfile" % path)
            else:
                raise SystemExit("regmap: %s: unsupported component %s" % (path, child.inst_name))
        self.regs.sort(key=lambda r: r.addr)
        seen = {}
        for r in self.regs:
            for a in r.words():
                if a in seen:
                    raise SystemExit("regmap: %s: 0x%03x is both %s and %s" % (path, a, seen[a], r.name))
                seen[a] = r.name

    def reg(self, name):
        for r in self.regs:
            if r.name == name:
                return r
        raise SystemExit("regmap: %s has no register %s" % (self.path, name))


def header_lines(m, comment, src):
    """the opening comment of a generated file"""
    c = comment
    return [
        "%s %s — generated by scripts/regmap.py from %s: do not edit." % (c, "{name}", src),
        "%s %s" % (c, m.desc),
        "%s `make regmap` regenerates this file; `make regmap-check` (make test) fails when" % c,
        "%s it differs from what the description gives." % c,
    ]


def rel(path):
    return os.path.relpath(os.path.abspath(path), TOP)


def clog2(n):
    b = 0
    while (1 << b) < n:
        b += 1
    return b


# ---- C header -------------------------------------------------------------------------------

def gen_c(m, fname):
    P = m.prefix
    guard = re.sub(r"[^A-Z0-9]", "_", fname.upper())
    out = ["/*"]
    out += [" *" + l[2:] for l in (s.format(name=fname) for s in header_lines(m, "/*", rel(m.path)))]
    out += [
        " *",
        " * %s_REG_x: byte address of register x (of element i for an array); %s_x_f_LSB," % (P, P),
        " * _WIDTH, _MASK: field f of x (mask in place); _RESET: the value of a constant field;",
        " * %s_x_f_CODE: a code of field f; %s_x_BITS: the bits x defines (the others read 0)." % (P, P),
        " */",
        "#ifndef %s" % guard,
        "#define %s" % guard,
        "",
        "#include <stdint.h>",
        "",
        "/* the value of field F (a name without _LSB / _MASK) in word W, and a word holding V in F */",
        "#define %s_GET(w, F) (((uint32_t)(w) & F##_MASK) >> F##_LSB)" % P,
        "#define %s_SET(F, v) (((uint32_t)(v) << F##_LSB) & F##_MASK)" % P,
        "",
        "/* ---- register addresses ---- */",
    ]
    for r in m.regs:
        if r.count:
            out.append("#define %-34s (0x%03Xu + 0x%Xu * (uint32_t)(i))" % ("%s_REG_%s(i)" % (P, r.name), r.addr, r.stride))
            out.append("#define %-34s %du" % ("%s_REG_%s_COUNT" % (P, r.name), r.count))
        else:
            out.append("#define %-34s 0x%03Xu" % ("%s_REG_%s" % (P, r.name), r.addr))
    out += ["", "/* ---- fields ---- */"]
    for r in m.regs:
        out.append("#define %-34s 0x%08Xu" % ("%s_%s_BITS" % (P, r.name), r.bits))
        for f in r.fields:
            base = "%s_%s_%s" % (P, r.name, f.name)
            out.append("#define %-34s %d" % (base + "_LSB", f.lsb))
            out.append("#define %-34s %d" % (base + "_WIDTH", f.width))
            out.append("#define %-34s 0x%08Xu" % (base + "_MASK", f.mask))
            if f.const:
                out.append("#define %-34s 0x%Xu" % (base + "_RESET", f.reset))
            for (name, value, _d) in f.enum:
                out.append("#define %-34s %d" % ("%s_%s" % (base, name), value))
    # decode
    fl = ["MAPPED", "WRITABLE", "STAGED", "COMMAND", "LATCH_HI"]
    out += ["", "/* ---- address decode: %s_regs_decode(addr) gives these flags ---- */" % P.lower()]
    for i, n in enumerate(fl):
        out.append("#define %-34s 0x%02Xu" % ("%s_DEC_%s" % (P, n), 1 << i))
    out += [
        "",
        "/* the flags of byte address addr (bits 1:0 ignored; 0: no register there) */",
        "static inline unsigned %s_regs_decode(uint32_t addr)" % P.lower(),
        "{",
        "    uint32_t a = addr & 0x%03Xu;" % (((1 << ADDR_BITS) - 1) & ~3),
        "",
    ]
    for r in m.regs:
        flags = ["%s_DEC_MAPPED" % P]
        if r.writable:
            flags.append("%s_DEC_WRITABLE" % P)
        if r.staged:
            flags.append("%s_DEC_STAGED" % P)
        if r.command:
            flags.append("%s_DEC_COMMAND" % P)
        if r.latch_hi:
            flags.append("%s_DEC_LATCH_HI" % P)
        fs = " | ".join(flags)
        if r.count:
            span = r.count * r.stride
            cond = "a >= 0x%03Xu && a < 0x%03Xu" % (r.base, r.base + span)
            if r.stride > 4:
                cond += " && (a - 0x%03Xu) %% 0x%Xu == 0x%Xu" % (r.base, r.stride, r.offset)
            out.append("    if (%s)" % cond)
        else:
            out.append("    if (a == 0x%03Xu)" % r.addr)
        out.append("        return %s;" % fs)
    out += ["    return 0;", "}", "",
            "/* the bits the register at byte address addr defines (0: no register there) */",
            "static inline uint32_t %s_regs_bits(uint32_t addr)" % P.lower(),
            "{",
            "    uint32_t a = addr & 0x%03Xu;" % (((1 << ADDR_BITS) - 1) & ~3),
            ""]
    for r in m.regs:
        if r.count:
            span = r.count * r.stride
            cond = "a >= 0x%03Xu && a < 0x%03Xu" % (r.base, r.base + span)
            if r.stride > 4:
                cond += " && (a - 0x%03Xu) %% 0x%Xu == 0x%Xu" % (r.base, r.stride, r.offset)
        else:
            cond = "a == 0x%03Xu" % r.addr
        out += ["    if (%s)" % cond, "        return 0x%08Xu;" % r.bits]
    out += ["    return 0;", "}", "", "#endif /* %s */" % guard, ""]
    return "\n".join(out)


# ---- Verilog include ----------------------------------------------------------------------

def vlit(width, value):
    return "%d'h%X" % (width, value)


def gen_vh(m, fname):
    P = m.prefix
    p = P.lower()
    A = ADDR_BITS
    out = ["/*"]
    out += [" *" + l[2:] for l in (s.format(name=fname) for s in header_lines(m, "/*", rel(m.path)))]
    out += [
        " *",
        " * Included inside the body of a module that implements or decodes the map.",
        " * %s_REG_x: byte address [%d:0] of register x (of element 0 for an array, with" % (P, A - 1),
        " * _COUNT and _STRIDE); %s_x_f_LSB, _WIDTH, _MASK: field f of x; _RESET: a constant" % P,
        " * field's value; %s_x_f_CODE: a code of f; %s_x_BITS: the bits x defines." % (P, P),
        " * Functions of a byte address [%d:0] (bits 1:0 ignored): %s_mapped, %s_writable," % (A - 1, p, p),
        " * %s_staged; for an array x, %s_in_x (a is one of its elements) and %s_idx_x (which),"
        " also for an array of register files;" % (p, p, p),
        " * %s_<reg>_<field>(v): the 32-bit word holding v in that field." % p,
        " * Each including module uses only some of these: the unused ones are not warnings.",
        " */",
        "",
        "/* verilator lint_off UNUSEDPARAM */",
        "",
        "// ---- register addresses ----",
    ]
    for r in m.regs:
        out.append("localparam [%d:0] %s = %s;" % (A - 1, "%s_REG_%s" % (P, r.name), vlit(A, r.addr)))
        if r.count:
            out.append("localparam integer %s_REG_%s_COUNT = %d;" % (P, r.name, r.count))
            out.append("localparam integer %s_REG_%s_STRIDE = %d;" % (P, r.name, r.stride))
    out += ["", "// ---- fields ----"]
    for r in m.regs:
        out.append("localparam [31:0] %s_%s_BITS = %s;" % (P, r.name, vlit(32, r.bits)))
        for f in r.fields:
            base = "%s_%s_%s" % (P, r.name, f.name)
            out.append("localparam integer %s_LSB = %d;" % (base, f.lsb))
            out.append("localparam integer %s_WIDTH = %d;" % (base, f.width))
            out.append("localparam [31:0] %s_MASK = %s;" % (base, vlit(32, f.mask)))
            if f.const:
                out.append("localparam [%d:0] %s_RESET = %s;" % (f.width - 1, base, vlit(f.width, f.reset)))
            for (name, value, _d) in f.enum:
                out.append("localparam [%d:0] %s_%s = %s;" % (f.width - 1, base, name, vlit(f.width, value)))
    out += ["", "/* verilator lint_on UNUSEDPARAM */", "", "// ---- address decode ----",
            "// (each function looks at the address bits it needs)",
            "/* verilator lint_off UNUSEDSIGNAL */", ""]
    word_hi = A - 1
    for r in m.regs:
        if not r.count:
            continue
        n = r.name.lower()
        span = r.count * r.stride
        sb = clog2(r.stride)
        iw = max(1, clog2(r.count))
        if span & (span - 1) == 0 and r.base % span == 0:
            k = clog2(span)
            cond = "regmap_a[%d:%d] == %s" % (word_hi, k, vlit(A - k, r.base >> k)) if k < A else "1'b1"
            idx = "regmap_a[%d:%d]" % (k - 1, sb) if k > sb else "1'b0"
        else:
            # a span that is not an aligned power of two: compare, and index by the offset
            cond = "{1'b0, regmap_a[%d:2], 2'b00} >= %s && {1'b0, regmap_a[%d:2], 2'b00} < %s" % (
                word_hi, vlit(A + 1, r.base), word_hi, vlit(A + 1, r.base + span))
            idx = None
        if r.stride > 4:
            cond = "(%s) && regmap_a[%d:2] == %s" % (cond, sb - 1, vlit(sb - 2, r.offset >> 2))
        out += [
            "// %s: %d registers from 0x%03X, stride %d" % (r.name, r.count, r.addr, r.stride),
            "function %s_in_%s;" % (p, n),
            "    input [%d:0] regmap_a;" % word_hi,
            "    %s_in_%s = %s;" % (p, n, cond),
            "endfunction",
        ]
        if idx is not None:
            out += [
                "function [%d:0] %s_idx_%s;" % (iw - 1, p, n),
                "    input [%d:0] regmap_a;" % word_hi,
                "    %s_idx_%s = %s;" % (p, n, idx),
                "endfunction",
                "",
            ]
        else:
            out += [
                "function [%d:0] %s_idx_%s;" % (iw - 1, p, n),
                "    input [%d:0] regmap_a;" % word_hi,
                "    reg [%d:0] regmap_d;" % word_hi,
                "    begin",
                "        regmap_d = regmap_a - %s;" % vlit(A, r.base),
                "        %s_idx_%s = regmap_d[%d:%d];" % (p, n, sb + iw - 1, sb),
                "    end",
                "endfunction",
                "",
            ]

    out.append("// fields: %s_<reg>_<field>(v) is a word holding v in the field, 0 elsewhere" % p)
    for r in m.regs:
        for f in r.fields:
            fn = "%s_%s_%s" % (p, r.name.lower(), f.name.lower())
            if f.width == 32:
                body = "regmap_v"
            elif f.lsb == 0:
                body = "{%d'd0, regmap_v}" % (32 - f.width)
            elif f.msb == 31:
                body = "{regmap_v, %d'd0}" % f.lsb
            else:
                body = "{%d'd0, regmap_v, %d'd0}" % (31 - f.msb, f.lsb)
            out += ["function [31:0] %s;" % fn,
                    "    input [%d:0] regmap_v;" % (f.width - 1),
                    "    %s = %s;" % (fn, body),
                    "endfunction"]
    out.append("")

    # an array of regfiles: one function for the whole span
    done = set()
    for r in m.regs:
        if not r.count or not r.regfile or r.regfile in done:
            continue
        done.add(r.regfile)
        span = r.count * r.stride
        n = r.regfile.lower()
        if span & (span - 1) == 0 and r.base % span == 0:
            k = clog2(span)
            cond = "regmap_a[%d:%d] == %s" % (word_hi, k, vlit(A - k, r.base >> k))
        else:
            cond = "{1'b0, regmap_a[%d:2], 2'b00} >= %s && {1'b0, regmap_a[%d:2], 2'b00} < %s" % (
                word_hi, vlit(A + 1, r.base), word_hi, vlit(A + 1, r.base + span))
        out += ["// %s: %d register files from 0x%03X, stride %d" % (r.regfile, r.count, r.base, r.stride),
                "function %s_in_%s;" % (p, n),
                "    input [%d:0] regmap_a;" % word_hi,
                "    %s_in_%s = %s;" % (p, n, cond),
                "endfunction",
                ""]

    def decode_fn(fn, pick, what):
        singles = [r for r in m.regs if pick(r) and not r.count]
        arrays = [r for r in m.regs if pick(r) and r.count]
        lines = ["// %s" % what,
                 "function %s_%s;" % (p, fn),
                 "    input [%d:0] regmap_a;" % word_hi,
                 "    begin"]
        terms = ["%s_in_%s(regmap_a)" % (p, r.name.lower()) for r in arrays]
        default = " | ".join(terms) if terms else "1'b0"
        if singles:
            lines.append("        case ({regmap_a[%d:2], 2'b00})" % word_hi)
            for i in range(0, len(singles), 3):
                chunk = ", ".join("%s_REG_%s" % (P, r.name) for r in singles[i:i + 3])
                last = i + 3 >= len(singles)
                lines.append("            %s%s" % (chunk, ":" if last else ","))
            lines[-1] += " %s_%s = 1'b1;" % (p, fn)
            lines.append("            default: %s_%s = %s;" % (p, fn, default))
            lines.append("        endcase")
        else:
            lines.append("        %s_%s = %s;" % (p, fn, default))
        lines += ["    end", "endfunction", ""]
        return lines

    out += decode_fn("mapped", lambda r: True, "a register is there")
    out += decode_fn("writable", lambda r: r.writable, "a register with a field software may write")
    out += decode_fn("staged", lambda r: r.staged, "a write there is held while a command runs")
    out += ["/* verilator lint_on UNUSEDSIGNAL */"]
    return "\n".join(out).rstrip("\n") + "\n"


# ---- documentation tables ------------------------------------------------------------------

def md_cell(s):
    return s.replace("|", "\\|").replace("\n", " ")


def field_text(f, with_desc):
    t = f.bits() if f.name == "V" else "%s %s" % (f.bits(), f.name)
    if f.const:
        t += " = %s" % (("0x%X" % f.reset) if f.width > 8 else str(f.reset))
    if f.enum and len(f.enum) <= 4:
        t += ": " + ", ".join("%d %s" % (v, d.split(" | ")[0]) for (_n, v, d) in f.enum)
    elif with_desc and f.desc:
        t += " (%s)" % f.desc
    return t


def content(r, field_descs):
    """a register's row: its fields (or a constant word's value), then its desc; the
    fields' descs unless the document gives the register a table of its own"""
    whole = len(r.fields) == 1 and r.fields[0].width == 32
    parts = []
    if not whole:
        parts.append(", ".join(field_text(f, field_descs) for f in r.fields))
    elif r.fields[0].const:
        parts.append("0x%08X" % r.fields[0].reset)
    if r.desc:
        parts.append(r.desc)
    return "; ".join(parts)


def doc_map(m, own_tables):
    rows = ["| address | name | access | content |", "| --- | --- | --- | --- |"]
    for r in m.regs:
        if r.count:
            addr = "0x%03X + %di" % (r.addr, r.stride)
            name = "%s*i* (i = 0..%d)" % (r.name, r.count - 1)
        else:
            addr = "0x%03X" % r.addr
            name = r.name
        rows.append("| %s | %s | %s | %s |" % (addr, name, r.access(), md_cell(content(r, r.name not in own_tables))))
    return rows


def doc_fields(m, regname):
    r = m.reg(regname)
    rows = ["| bits | field | values |", "| --- | --- | --- |"]
    for f in r.fields:
        rows.append("| %s | %s | %s |" % (f.bits(), f.name, md_cell(f.desc)))
    return rows


def doc_enum(m, path, columns):
    regname, _, fname = path.partition(".")
    r = m.reg(regname)
    fs = [f for f in r.fields if f.name == fname]
    if not fs or not fs[0].enum:
        raise SystemExit("regmap: %s: %s is no field with an enum" % (m.path, path))
    cols = columns.split("|")
    rows = ["| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
    for (name, value, d) in fs[0].enum:
        parts = [p.strip() for p in d.split(" | ")]
        cells = [str(value), name] + parts
        if len(cells) != len(cols):
            raise SystemExit("regmap: %s: %s %s has %d columns, the table %d"
                             % (m.path, path, name, len(cells), len(cols)))
        rows.append("| " + " | ".join(md_cell(c) for c in cells) + " |")
    return rows


BEGIN = re.compile(r"^<!-- regmap (\S+) (\S+)(?: (\S+))?(?: (\S+))? -->$")
END = "<!-- regmap end -->"


def gen_doc(maps, text):
    out = []
    lines = text.split("\n")
    i = 0
    n_blocks = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        mo = BEGIN.match(line)
        i += 1
        if not mo:
            continue
        mapname, kind, arg, cols = mo.groups()
        if mapname not in maps:
            raise SystemExit("regmap: the document names map %s, which was not given" % mapname)
        m = maps[mapname]
        if kind == "map":
            own = set(re.findall(r"^<!-- regmap %s fields (\S+) -->$" % re.escape(mapname), text, re.M))
            body = doc_map(m, own)
        elif kind == "fields":
            body = doc_fields(m, arg)
        elif kind == "enum":
            body = doc_enum(m, arg, cols or "code|name|meaning")
        else:
            raise SystemExit("regmap: unknown block kind %s" % kind)
        while i < len(lines) and lines[i] != END:
            i += 1
        if i == len(lines):
            raise SystemExit("regmap: a block of the document has no end line")
        out += body
        out.append(END)
        i += 1
        n_blocks += 1
    return "\n".join(out), n_blocks


def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description="generate the register map's forms from SystemRDL")
    ap.add_argument("--out-root", default=".")
    ap.add_argument("--doc")
    ap.add_argument("rdl", nargs="+")
    a = ap.parse_args()
    maps = {}
    for path in a.rdl:
        m = Map(path)
        stem = os.path.splitext(os.path.basename(path))[0]
        vh = "%s_map.vh" % stem
        h = "%s_map.h" % stem
        write(os.path.join(a.out_root, os.path.dirname(rel(path)), vh), gen_vh(m, vh))
        write(os.path.join(a.out_root, "cmodel", h), gen_c(m, h))
        maps[m.name] = m
    if a.doc:
        with open(a.doc) as f:
            text, n = gen_doc(maps, f.read())
        if n == 0:
            raise SystemExit("regmap: %s has no generated block" % a.doc)
        write(os.path.join(a.out_root, rel(a.doc)), text)


if __name__ == "__main__":
    sys.exit(main())
