#!/usr/bin/env python3
"""`nisa isa` (LANGUAGE.md section 1): the Markdown reference is generated
from the spec (first line says so; every instruction, operand, enum value,
dtype and arch of isa-spec/isa.json appears), and --json prints the spec.

usage: isa_reference.py NISA SOURCE_DIR
"""
import json
import pathlib
import subprocess
import sys


def run(*args):
    r = subprocess.run([*map(str, args)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def main():
    exe, root = sys.argv[1], pathlib.Path(sys.argv[2])
    spec = json.loads((root / "isa-spec/isa.json").read_text())
    md = run(exe, "isa")
    assert md == run(exe, "isa", "--markdown"), "--markdown is the default"
    assert "Generated" in md.splitlines()[0], md.splitlines()[0]
    for ins in spec["instructions"]:
        section = md.split(f"\n### {ins['name']}\n", 1)[1].split("\n### ", 1)[0]
        assert f"Engine: {ins['engine']}" in section and f"first arch: {ins['arch']}" in section, ins["name"]
        for op in ins["operands"]:
            assert f"| `{op['name']}` | " in section, (ins["name"], op["name"])
        for field in ins["encoding"]:
            assert f"| `{field['field']}` | {field['bits']}" in section, (ins["name"], field)
        assert f"`{ins['cost']['cycles']}`" in section, ins["name"]
        assert ("*estimate*" in section) == ins["cost"]["estimate"], ins["name"]
        assert len(ins.get("constraints", [])) == section.count("\n- ") - len(ins["cost"].get("cases", [])) - \
            len(ins["cost"].get("extra_if_present", {})), ins["name"]
    for values in spec["enums"].values():
        for v in values:
            assert f"`{v['name']}`" in md, v
    for d in spec["dtypes"]:
        assert f"| `{d['name']}` | {d['size']} |" in md, d
    for a in spec["archs"]:
        assert f"| {a['sbuf_partition_bytes']} | {a['psum_partition_bytes']} |" in md and a["name"] in md, a
    assert json.loads(run(exe, "isa", "--json")) == spec, "--json is not the spec"
    print(f"reference: {len(md.splitlines())} lines, {len(spec['instructions'])} instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
