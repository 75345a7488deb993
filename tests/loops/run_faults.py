#!/usr/bin/python3
"""Runtime faults of registers and loops (docs/SEMANTICS.md S17).

For every faults/NAME.nasm (each says in its header what it does): `nisa run
NAME.nasm --dump TMP`, run inside faults/, and the same program assembled to
.nbin, exit 3, print exactly faults/NAME.stderr and dump nothing. With
--update the .stderr files are rewritten from the current output (review every
changed file by hand before committing).

usage: run_faults.py NISA_EXE [--update]
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "faults")


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    nisa = os.path.abspath(args[0])
    names = sorted(f[:-5] for f in os.listdir(HERE) if f.endswith(".nasm"))
    failures = 0
    with tempfile.TemporaryDirectory(prefix="nisa_loop_faults_") as tmp:
        for name in names:
            binary = os.path.join(tmp, name + ".nbin")
            asm = subprocess.run([nisa, "asm", name + ".nasm", "-o", binary], cwd=HERE, capture_output=True, text=True)
            problems = [] if asm.returncode == 0 else [f"nisa asm exited {asm.returncode}: {asm.stderr.strip()}"]
            expected_path = os.path.join(HERE, name + ".stderr")
            for form in (name + ".nasm", binary):
                dump = os.path.join(tmp, "out_" + os.path.basename(form))
                run = subprocess.run([nisa, "run", form, "--dump", dump], cwd=HERE, capture_output=True, text=True)
                if update and form.endswith(".nasm"):
                    with open(expected_path, "w") as f:
                        f.write(run.stderr)
                with open(expected_path) as f:
                    expected = f.read()
                if run.returncode != 3:
                    problems.append(f"{form}: exit status {run.returncode}, expected 3")
                if run.stderr != expected:
                    problems.append(f"{form}: stderr differs\n--- expected\n{expected}--- actual\n{run.stderr}")
                if os.path.isdir(dump) and any(f.endswith(".npy") for f in os.listdir(dump)):
                    problems.append(f"{form}: a failed run left .npy files in its dump folder")
            if problems:
                failures += 1
                print(f"FAIL {name}: " + "\n".join(problems))
            else:
                print(f"ok   {name}")
    print(f"{len(names) - failures}/{len(names)} loop faults as expected")
    return 1 if failures or not names else 0


if __name__ == "__main__":
    sys.exit(main())
