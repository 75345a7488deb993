#!/usr/bin/python3
"""Writes the libFuzzer dictionary of the .nasm language to stdout: every
mnemonic, operand key, enum value (and alias), dtype (and alias), arch,
memory, role and directive of isa-spec/isa.json and LANGUAGE.md 2.1, plus
the punctuation, number and operand forms of the language (access
patterns NAME.ap(pattern=[[step, num], ...], offset=K), lists)."""
import json
import sys

spec = json.load(open(sys.argv[1]))
words = set()
for arch in spec["archs"]:
    words.add(arch["name"])
for dtype in spec["dtypes"]:
    words.add(dtype["name"])
    words.update(dtype.get("aliases", []))
for values in spec["enums"].values():
    for v in values:
        words.add(v["name"])
        words.update(v.get("aliases", []))
for ins in spec["instructions"]:
    words.add(ins["name"])
    for op in ins["operands"]:
        words.add(op["name"] + "=")
words.update([".arch", ".equ", ".hbm", ".sbuf", ".psum", ".rept", ".endr", ".file", ".loc",
              "input", "output", "inout", "scratch", "iota", "bool", "hbm", "sbuf", "psum",
              "inf", "-inf", "nan", "fp32.min", "fp32.max", "0x", "1e", "true", "false",
              "[", "]", ":", "::", "@", "=", ",", ";", "#", "\n", "(", ")", "*", "/", "%", "-", "\"", "128",
              ".ap(", ".ap(pattern=[[", "pattern=", "offset=", "[[", "]]", "], [", "[0, 128]", "[1, 64]", "[-1, ",
              "axis=[", "[-1]", "keepdims=true"])
for w in sorted(words):  # noqa: the caller may close the pipe early
    print('"' + w.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\x0A") + '"')
