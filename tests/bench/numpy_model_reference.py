#!/usr/bin/env python3
"""The benchmark's NumPy model hosts the reference model's semantics.

bench/numpy_model.py runs nki_ref's function for every instruction (or form)
it has no fast closure for, through its ReferenceAdapter. Over the round-trip
corpus and the benchmarks (tests/dis/good/*.nasm, bench/*.nasm with REPS = 2;
the programs the model can hold: no `@ OFFSET`, no fp8/tf32, inputs given by
their INIT):
- with fast=False (every instruction through the adapter) the outputs equal
  nki_ref.run_program's bit for bit: the adapter reads and writes views as the
  reference machine does;
- with the fast closures they agree within the bench tolerance (rtol 1e-2:
  float32 activation math and pairwise sums; see bench/README.md).
"""
import glob
import os
import re
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "reference"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import nasm_reader  # noqa: E402
import nki_ref  # noqa: E402
import numpy_model  # noqa: E402


def run_model(text, fast):
    prog = nasm_reader.read_program(text)
    sim = numpy_model.Simulator(prog, fast=fast)
    steps = [sim.decode(ins) for ins in prog.instrs]
    with np.errstate(all="ignore"):
        for step in steps:
            step()
    return sim.outputs()


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.tobytes() == np.ascontiguousarray(b.astype(a.dtype)).tobytes()


def main():
    failures, checked = [], 0
    paths = sorted(glob.glob(os.path.join(ROOT, "tests", "dis", "good", "*.nasm"))) + \
        sorted(glob.glob(os.path.join(ROOT, "bench", "*.nasm")))
    for path in paths:
        name = os.path.relpath(path, ROOT)
        with open(path) as f:
            text = re.sub(r"^\.equ\s+REPS\s*,\s*\d+\s*$", ".equ REPS, 2", f.read(), flags=re.M)
        try:
            expected, _ = nki_ref.run_program(text, {})
            exact = run_model(text, fast=False)
        except ValueError as e:  # a program the bench model does not hold (aliasing, fp8, inputs)
            print(f"skip {name}: {e}")
            continue
        fast = run_model(text, fast=True)
        checked += 1
        for out, want in expected.items():
            if not same_bits(want, exact[out]):
                failures.append(f"{name}: {out}: the model through the reference adapter differs from nki_ref")
            with np.errstate(all="ignore"):
                close = np.allclose(np.asarray(fast[out], dtype=np.float64), np.asarray(want, dtype=np.float64),
                                    rtol=1e-2, atol=1e-6, equal_nan=True)
            if not close:
                failures.append(f"{name}: {out}: the model's fast closures disagree with nki_ref")
    for f in failures:
        print(f, file=sys.stderr)
    if failures or checked == 0:
        print(f"FAIL ({checked} programs checked)", file=sys.stderr)
        return 1
    print(f"ok: {checked} programs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
