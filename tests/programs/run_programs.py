#!/usr/bin/python3
"""Runs workload programs end to end through nisa and diffs them with their expected outputs.

    run_programs.py --nisa build/nisa programs/causal_row_max [programs/...]

For each folder: `nisa run --strict prog.nasm --input NAME=NAME.npy ... --dump TMP`
(one --input for each `.hbm NAME ... input|inout` declaration whose NAME.npy is
in the folder; a tensor without one takes its INIT), then
`nisa diff expected TMP [options]`, the options taken from a `; diff: ...` line in
the program's header (e.g. `; diff: --rtol 1e-4`; none means nisa's defaults).
Exit 0 when every workload matches, 1 otherwise.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

HBM_INPUT = re.compile(r"^\s*\.hbm\s+([A-Za-z_][A-Za-z0-9_]*)\s+\S+\s*\[[^\]]*\]\s*(input|inout)\b")
DIFF_OPTIONS = re.compile(r"^\s*[;#]\s*diff:\s*(.*)$")


def program_inputs(program_text):
    """Names of the HBM tensors declared input or inout, in declaration order."""
    return [m.group(1) for m in map(HBM_INPUT.match, program_text.splitlines()) if m]


def diff_options(program_text):
    """The arguments of the first `; diff: ...` comment line, or [] for nisa diff's defaults."""
    for line in program_text.splitlines():
        m = DIFF_OPTIONS.match(line)
        if m:
            return shlex.split(m.group(1))
    return []


def run_workload(nisa, folder):
    program = os.path.join(folder, "prog.nasm")
    with open(program) as f:
        text = f.read()
    inputs = []
    for name in program_inputs(text):
        path = os.path.join(folder, name + ".npy")
        if os.path.exists(path):
            inputs += ["--input", f"{name}={path}"]
    with tempfile.TemporaryDirectory(prefix="nisa_program_") as dump:
        run = [nisa, "run", "--strict", program, *inputs, "--dump", dump]
        diff = [nisa, "diff", os.path.join(folder, "expected"), dump, *diff_options(text)]
        for command in (run, diff):
            print("$", " ".join(shlex.quote(c) for c in command), flush=True)
            result = subprocess.run(command)
            if result.returncode != 0:
                print(f"{folder}: `{command[1]}` exited with {result.returncode}", flush=True)
                return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nisa", required=True, help="the nisa executable")
    parser.add_argument("folders", nargs="+", help="programs/<name> folders")
    args = parser.parse_args()
    failed = [folder for folder in args.folders if not run_workload(args.nisa, folder)]
    for folder in failed:
        print(f"FAILED: {folder}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
