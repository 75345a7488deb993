#!/usr/bin/python3
"""Issue 15, group 1: concurrent `nisa run --dump` into one folder.

Ten runs at once into the same folder, repeated ROUNDS times: every run must
exit 0 and the folder must hold every output, each equal to what NumPy
computes from the same inputs (expected/), and no temporary file.

Usage: concurrent_dumps.py NISA_EXE [ROUNDS]
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

NISA = os.path.abspath(sys.argv[1])
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 20
RUNS = 10

PROGRAM = """\
.hbm x f32 [128, 64] input = iota
.hbm a f32 [128, 64] output
.hbm b f32 [128, 64] output
.hbm c f32 [128, 64] output
.sbuf t f32 [128, 64]
.sbuf u f32 [128, 64]
dma_copy dst=t, src=x
dma_copy dst=a, src=t
tensor_scalar dst=u, data=t, op0=multiply, operand0=2.0
dma_copy dst=b, src=u
tensor_scalar dst=u, data=t, op0=add, operand0=1.0
dma_copy dst=c, src=u
"""


def main():
    work = tempfile.mkdtemp(prefix="nisa_concurrent_")
    with open(os.path.join(work, "p.nasm"), "w") as f:
        f.write(PROGRAM)
    # expected/: the program's outputs by NumPy (iota: row-major element index).
    x = np.arange(128 * 64, dtype=np.float32).reshape(128, 64)
    expected = {"a.npy": x, "b.npy": x * np.float32(2), "c.npy": x + np.float32(1)}
    failures = []
    started = time.monotonic()
    for round_number in range(ROUNDS):
        out = os.path.join(work, "same")
        shutil.rmtree(out, ignore_errors=True)
        runs = [subprocess.Popen([NISA, "run", "p.nasm", "--dump", "same"], cwd=work, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(RUNS)]
        for r in runs:
            _, err = r.communicate(timeout=60)
            if r.returncode != 0:
                failures.append(f"round {round_number}: exit {r.returncode}: {err.strip()}")
        names = sorted(os.listdir(out)) if os.path.isdir(out) else []
        if names != sorted(expected):
            failures.append(f"round {round_number}: folder holds {names}")
            continue
        for name, want in expected.items():
            got = np.load(os.path.join(out, name))
            if got.dtype != want.dtype or not np.array_equal(got, want):
                failures.append(f"round {round_number}: {name} differs from expected")
        if time.monotonic() - started > 60:
            failures.append("too slow: stopped after round " + str(round_number))
            break
    if failures:
        print("\n".join(failures[:20]))
        print(f"{len(failures)} failures; files in {work}")
        sys.exit(1)
    shutil.rmtree(work)
    print(f"{ROUNDS} rounds of {RUNS} concurrent runs: every run exited 0, every folder complete and as expected")


main()
