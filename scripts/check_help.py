#!/usr/bin/env python3
"""make help-check: `make help` names every make target README.md and docs/*.md name.

A mention is a code span that starts with "make": `make demo`, `make vectors SEED=n`,
`make BUILD=... ctest-sif`, `make synth-<top>-L<n>`. Its targets are the words that are
neither options (-B) nor variable settings (SEED=n). For each target:
  - `make help` must show it, literally or, for a pattern, in its pattern form or as a
    concrete target the pattern matches (<n> and <top> stand for a word, * for any text);
  - it must be a target make knows (`make -pq`), or a pattern some target matches: a
    document naming a target that does not exist is caught too.
Prints one FAIL line per problem and "help-check: N passed, N failed"; exit status 1 if
anything failed.

Usage: scripts/check_help.py [DOC...]   (default: README.md docs/*.md)
"""

import glob
import re
import subprocess
import sys


def make_output(*args):
    return subprocess.run(["make", "--no-print-directory", *args], capture_output=True,
                          text=True).stdout


def known_targets():
    """Every explicit target of the make database (make -pq prints it, runs nothing)."""
    db = make_output("-pq", "-r")
    names = set()
    for line in db.splitlines():
        m = re.match(r"^([A-Za-z][A-Za-z0-9_.-]*):(?!=)", line)
        if m:
            names.add(m.group(1))
    return names


def mentions(paths):
    """(target, where) for every `make ...` code span of the documents."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                for span in re.findall(r"`make ([^`]*)`", line):
                    for word in span.split():
                        if word.startswith("-") or "=" in word or word in ("…", "..."):
                            continue
                        out.append((word, f"{path}:{n}"))
    return out


def pattern_re(word):
    """A target word as a regex: <x> is one word of letters, digits and _; * any text."""
    parts = re.split(r"(<[^>]*>|\*)", word)
    rx = "".join("[A-Za-z0-9_]+" if p.startswith("<") else ".*" if p == "*" else re.escape(p)
                 for p in parts)
    return re.compile(rx + r"\Z")


def main():
    docs = sys.argv[1:] or ["README.md"] + sorted(glob.glob("docs/*.md"))
    help_text = make_output("help")
    help_words = set(re.findall(r"[A-Za-z0-9_<>*.-]+", help_text))
    targets = known_targets()
    passed = failed = 0
    seen = set()
    for word, where in mentions(docs):
        if word in seen:
            continue
        seen.add(word)
        rx = pattern_re(word) if ("<" in word or "*" in word) else None
        in_help = word in help_words or (rx is not None and any(rx.match(w) for w in help_words))
        exists = word in targets or (rx is not None and any(rx.match(t) for t in targets))
        if in_help:
            passed += 1
        else:
            failed += 1
            print(f"FAIL help-check: `make {word}` ({where}) is not in make help")
        if exists:
            passed += 1
        else:
            failed += 1
            print(f"FAIL help-check: `make {word}` ({where}) is not a make target")
    if not seen:
        failed += 1
        print("FAIL help-check: no `make ...` mention found in " + " ".join(docs))
    print(f"help-check: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
