#!/usr/bin/python3
"""Smoke test of bench/kernel_scaling.py (issue 25), a few seconds: at the
~1k-instruction size of each kernel, the per-instruction simulator
(bench/instruction_simulator.py) runs the recorded program, through its fast
reader and through the reference model's reader, and both give nisa's outputs
(np.allclose, and the vectorised NumPy result); then the script itself runs at
1k once (its table, its checks, exit status 0). Speed is not checked here."""
import contextlib
import io
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import kernel_scaling  # noqa: E402  (installs nisa.nki)
import instruction_simulator  # noqa: E402


def check_kernel(name):
    kernel, make, _ = kernel_scaling.KERNELS[name]
    case = make(1000, np.random.default_rng(1))
    record, _, _, text_and_inputs = kernel_scaling.phases(kernel, case["args"])
    text, inputs = text_and_inputs(record())
    expected = kernel(*case["args"])
    assert np.allclose(expected, case["numpy"](), rtol=case["rtol"], atol=case["atol"]), name
    fast = instruction_simulator.read_program(text)
    reference = instruction_simulator._read_reference(text)
    assert len(fast.instrs) == len(reference.instrs) == case["instructions"], (name, len(fast.instrs))
    for prog in (fast, reference):
        sim = instruction_simulator.Simulator(prog, inputs)
        for step in sim.steps():
            step()
        (out,) = sim.outputs().values()
        assert out.shape == expected.shape, name
        assert np.allclose(out, expected, rtol=case["rtol"], atol=case["atol"]), \
            f"{name}: simulator differs from nisa by {np.abs(out - expected).max()}"
    print(f"{name}: {len(fast.instrs)} instructions, simulator agrees with nisa and NumPy")


def main():
    for name in kernel_scaling.KERNELS:
        check_kernel(name)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = kernel_scaling.main(["--sizes", "1k", "--repeat", "1", "--no-rss"])
    text = out.getvalue()
    assert status == 0, text
    assert text.count(" yes") == 3 and "call/sim" in text, text
    print("kernel_scaling.py --sizes 1k: three tables, outputs agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
