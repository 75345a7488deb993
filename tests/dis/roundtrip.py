#!/usr/bin/env python3
"""Round trip of the disassembler (LANGUAGE.md section 1 and 2.1): for every
good program of the repository, and for seeded random programs of the
reference generator when it is in the tree (its default mix, and the lockstep's,
which has every instruction of the spec), asm(dis(asm(p))) is
byte-identical to asm(p), line table included, and dis is a fixed point on
its own output.

usage: roundtrip.py NISA SOURCE_DIR [EXTRA_NISA_ARGS...]
"""
import pathlib
import subprocess
import sys
import tempfile


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} exited {r.returncode}:\n{r.stderr}")
    return r.stdout


def name(p, root, tmp):
    return str(p.relative_to(tmp if p.is_relative_to(tmp) else root))


def main():
    nisa, root = sys.argv[1], pathlib.Path(sys.argv[2])
    extra = sys.argv[3:]
    programs = sorted(set(root.glob("programs/**/*.nasm")) | set(root.glob("tests/**/good/*.nasm")))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        generator = root / "tests/reference/gen_programs.py"
        if generator.exists():
            subprocess.run([sys.executable, str(generator), "--count", "60", "--seed", "11", "--out", str(tmp / "gen")],
                           check=True, capture_output=True)
            # the lockstep's mix: every instruction of the spec, in each of its modules' random
            # forms (tests/spec_coverage/instruction_coverage.py checks these 60 programs have
            # every instruction, so no instruction needs a hand-written line in the corpus)
            subprocess.run([sys.executable, str(generator), "--count", "60", "--seed", "11", "--mix", "lockstep",
                            "--text-only", "--out", str(tmp / "mix")], check=True, capture_output=True)
            programs += sorted((tmp / "gen").glob("*/prog.nasm")) + sorted((tmp / "mix").glob("*/prog.nasm"))
        if not programs:
            print("no programs found")
            return 1
        for i, p in enumerate(programs):
            first, text, second = tmp / f"{i}.nbin", tmp / f"{i}.dis.nasm", tmp / f"{i}.again.nbin"
            try:
                run([nisa, *extra, "asm", str(p), "-o", str(first)])
                run([nisa, *extra, "dis", str(first), "-o", str(text)])
                run([nisa, *extra, "asm", str(text), "-o", str(second)])
                if first.read_bytes() != second.read_bytes():
                    raise RuntimeError("asm(dis(asm(p))) differs from asm(p)")
                if run([nisa, *extra, "dis", str(second)]) != text.read_text():
                    raise RuntimeError("dis is not a fixed point")
                print(f"ok   {name(p, root, tmp)} ({first.stat().st_size} bytes)")
            except RuntimeError as e:
                failures += 1
                print(f"FAIL {name(p, root, tmp)}: {e}")
    print(f"{len(programs) - failures} of {len(programs)} programs round-trip")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
