#!/usr/bin/env python3
"""Every instruction of isa-spec/isa.json has all of its pieces.

For each instruction NAME of the spec this fails, naming the instruction and
the missing piece, when one of these is absent:
  kernel      interp/instructions/NAME.cpp defining `NAME_semantics` (the
              instruction table, interp/instructions/table.cpp, is generated
              from the spec, so a missing definition also fails the link)
  reference   NAME in the SEMANTICS table of tests/reference/nki_ref.py
  round trip  a line `NAME ...` in tests/dis/good/*.nasm or programs/**/*.nasm
              (the disassembler round-trip corpus, tests/dis/roundtrip.py)
  untouched   a case naming "NAME" in tests/interp/untouched_memory_test.cpp
              (the instruction writes only its dst view and reduce_res)
  docs        an entry **S<n>.<m> `NAME`** in docs/SEMANTICS.md

Usage: instruction_coverage.py [REPO_ROOT]  (default: two folders up)
"""
import glob
import json
import os
import re
import sys


def pieces(root, name, reference_table):
    """{piece: (present, where to add it)} for one instruction."""
    def read(path):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            return f.read()

    mnemonic_line = re.compile(r"^\s*" + re.escape(name) + r"\b(?!\s*=)", re.M)
    kernel_file = f"interp/instructions/{name}.cpp"
    kernel = os.path.isfile(os.path.join(root, kernel_file)) and re.search(
        r"\bconst\s+InstructionSemantics\s+" + re.escape(name) + r"_semantics\b", read(kernel_file)) is not None
    corpus = sorted(glob.glob(os.path.join(root, "tests/dis/good/*.nasm")) +
                    glob.glob(os.path.join(root, "programs/**/*.nasm"), recursive=True))
    round_trip = False
    for path in corpus:
        with open(path, encoding="utf-8") as f:
            if mnemonic_line.search(f.read()):
                round_trip = True
                break
    untouched = f'"{name}"' in read("tests/interp/untouched_memory_test.cpp")
    docs = re.search(r"^\*\*S\d+\.\d+ `" + re.escape(name) + r"`\*\*", read("docs/SEMANTICS.md"), re.M) is not None
    return {
        "kernel": (kernel, f"{kernel_file} defining `const InstructionSemantics {name}_semantics`"),
        "reference": (name in reference_table, "its function in SEMANTICS of tests/reference/nki_ref.py"),
        "round trip": (round_trip, "a form in tests/dis/good/*.nasm or programs/**/*.nasm"),
        "untouched": (untouched, 'a case "' + name + '" in tests/interp/untouched_memory_test.cpp'),
        "docs": (docs, f"an entry **S<n>.<m> `{name}`** in docs/SEMANTICS.md"),
    }


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    with open(os.path.join(root, "isa-spec/isa.json"), encoding="utf-8") as f:
        names = [ins["name"] for ins in json.load(f)["instructions"]]
    sys.path.insert(0, os.path.join(root, "tests", "reference"))
    import nki_ref  # noqa: E402 (after the path is set)

    missing = []
    for name in names:
        for piece, (present, where) in pieces(root, name, nki_ref.SEMANTICS).items():
            if not present:
                missing.append(f"instruction {name}: missing {piece}: {where}")
    # A reference function for an instruction the spec does not have is stale.
    for name in sorted(set(nki_ref.SEMANTICS) - set(names)):
        missing.append(f"instruction {name}: in nki_ref.SEMANTICS but not in isa-spec/isa.json")
    for line in missing:
        print(line, file=sys.stderr)
    if missing:
        print(f"FAIL: {len(missing)} missing piece(s)", file=sys.stderr)
        return 1
    print(f"ok: {len(names)} instructions, each with kernel, reference, round-trip form, untouched-memory case, docs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
