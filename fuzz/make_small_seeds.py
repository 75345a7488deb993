#!/usr/bin/python3
"""Writes scaled-down copies of .nasm programs as seeds of the asm and nbin
fuzz targets: make_small_seeds.py OUT_DIR FILE.nasm...

The programs under programs/ work on real tile sizes (128 partitions, 512
columns): one run costs ~100 ms under the sanitizers, so the harness skips
them (kMaxRunElements, fuzz_entries.hpp) and their mutations would never
reach the interpreter. Dividing every integer literal that is a multiple of 8
and at least 16 by 8 (shapes, slice bounds, access-pattern steps and counts,
.equ values, .rept counts) keeps most programs consistent, since their sizes
are products and sums of such numbers, at 1/64 of the elements of a 2-D tile.
A copy that no longer assembles is still a parser seed; make_nbin_seeds keeps
only those that do. Files whose scaling changes nothing are not written."""
import os
import re
import sys

FACTOR = 8
# A decimal integer standing alone: not part of a name (t16, bf16), a float
# (1.5, 1e20, 2.0) or a hexadecimal literal (0x80).
INTEGER = re.compile(r"(?<![\w.])(\d+)(?![\w.])")


def scale_integer(match):
    value = int(match.group(1))
    return str(value // FACTOR) if value >= 2 * FACTOR and value % FACTOR == 0 else match.group(1)


def scale_line(line):
    cut = min((i for i in (line.find(";"), line.find("#")) if i >= 0), default=len(line))
    return INTEGER.sub(scale_integer, line[:cut]) + line[cut:]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    written = 0
    for n, path in enumerate(sys.argv[2:]):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        small = "".join(scale_line(line) for line in text.splitlines(keepends=True))
        if small == text:
            continue
        with open(os.path.join(out, f"small{n}.nasm"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(small)
        written += 1
    print(f"{written} scaled-down seeds in {out}")


if __name__ == "__main__":
    main()
