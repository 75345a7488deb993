#!/usr/bin/env python3
"""The encoding is driven by the spec alone (LANGUAGE.md section 3, "adding a
field or changing a field's width in the JSON changes the encoding with no
change to C++ code"). Builds a variant of isa-spec/isa.json with one field
widened, the slice start widened and one instruction's field order reversed,
then: the variant assembles and round-trips through dis; its bytes differ from
the default spec's; both describe the same program; and each nisa refuses the
other's binary by spec id.

usage: spec_variant.py NISA SOURCE_DIR
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile


def nisa(exe, *args, expect=0):
    r = subprocess.run([exe, *map(str, args)], capture_output=True, text=True)
    if r.returncode != expect:
        raise SystemExit(f"nisa {' '.join(map(str, args))}: exit {r.returncode}, expected {expect}\n{r.stderr}")
    return r


def main():
    exe, root = sys.argv[1], pathlib.Path(sys.argv[2])
    spec = json.loads((root / "isa-spec/isa.json").read_text())
    by_name = {i["name"]: i for i in spec["instructions"]}
    for field in by_name["dma_copy"]["encoding"]:
        if field["field"] == "src":
            field["bits"] = 14                                  # one field widened
    spec["encoding"]["tensor_slice"]["start_bits"] = 26         # slice start widened
    by_name["tensor_scalar"]["encoding"].reverse()              # field order changed

    program = root / "tests/dis/good/all_forms.nasm"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        variant = tmp / "variant.json"
        variant.write_text(json.dumps(spec, indent=1))
        d, v, v2, vtext = tmp / "d.nbin", tmp / "v.nbin", tmp / "v2.nbin", tmp / "v.nasm"

        nisa(exe, "asm", program, "-o", d)
        nisa(exe, "--spec", variant, "asm", program, "-o", v)
        nisa(exe, "--spec", variant, "dis", v, "-o", vtext)
        nisa(exe, "--spec", variant, "asm", vtext, "-o", v2)
        assert v.read_bytes() == v2.read_bytes(), "variant: asm(dis(asm(p))) differs from asm(p)"
        assert d.read_bytes()[24:] != v.read_bytes()[24:], "the variant's payload equals the default one"
        # Same program either way: the texts agree.
        assert nisa(exe, "dis", d).stdout == vtext.read_text(), "variant and default describe different programs"

        ids = {}
        for name, args in (("default", []), ("variant", ["--spec", variant])):
            md = nisa(exe, *args, "isa").stdout
            ids[name] = re.search(r"Spec id `([0-9a-f]{16})`", md).group(1)
            if name == "variant":
                assert "| `src` | 14 |" in md, "nisa isa does not show the widened field"
        assert ids["default"] != ids["variant"]

        for reader, binary, built, has in ((["dis"], v, ids["variant"], ids["default"]),
                                           (["--spec", variant, "dis"], d, ids["default"], ids["variant"])):
            err = nisa(exe, *reader, binary, expect=2).stderr
            lines = err.splitlines()
            assert len(lines) == 1, err
            assert f"built with ISA spec {built} and this nisa has {has}" in lines[0], err
            assert lines[0].endswith("at byte 8"), err
        print(f"default {d.stat().st_size} bytes, variant {v.stat().st_size} bytes; spec ids {ids['default']} / {ids['variant']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
