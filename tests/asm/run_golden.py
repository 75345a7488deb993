#!/usr/bin/python3
"""Golden diagnostics of `nisa asm` (LANGUAGE.md section 1, 2).

For every bad/NAME.nasm: `nisa asm NAME.nasm -o TMP/NAME.nbin` run inside bad/
must exit 2, print exactly bad/NAME.stderr, and leave no output file behind.
With --update the .stderr files are rewritten from the current output (review
every changed file by hand before committing).

usage: run_golden.py NISA_EXE BAD_DIR [--update]
"""
import os
import subprocess
import sys
import tempfile


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv[1:]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    nisa, bad_dir = os.path.abspath(args[0]), os.path.abspath(args[1])
    names = sorted(f[:-5] for f in os.listdir(bad_dir) if f.endswith(".nasm"))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            out = os.path.join(tmp, name + ".nbin")
            proc = subprocess.run([nisa, "asm", name + ".nasm", "-o", out], cwd=bad_dir,
                                  capture_output=True, text=True)
            expected_path = os.path.join(bad_dir, name + ".stderr")
            problems = []
            if proc.returncode != 2:
                problems.append(f"exit status {proc.returncode}, expected 2")
            if os.path.exists(out) or os.path.exists(os.path.join(bad_dir, name + ".nbin")):
                problems.append("an output file was written")
            if proc.stdout:
                problems.append("unexpected stdout:\n" + proc.stdout)
            if update:
                with open(expected_path, "w") as f:
                    f.write(proc.stderr)
            else:
                try:
                    with open(expected_path) as f:
                        expected = f.read()
                except OSError:
                    expected = None
                if expected is None:
                    problems.append("missing " + name + ".stderr")
                elif expected != proc.stderr:
                    problems.append("stderr differs.\n--- expected\n" + expected + "--- actual\n" + proc.stderr)
            if problems:
                failures += 1
                print(f"FAIL {name}: " + "\n".join(problems))
            else:
                print(f"ok   {name}")
    print(f"{len(names) - failures}/{len(names)} golden diagnostics passed")
    return 1 if failures or not names else 0


if __name__ == "__main__":
    sys.exit(main())
