#!/usr/bin/python3
"""Inputs and expected outputs of sharded_fp8_quantize (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees, round_to  # noqa: E402

P, N, FP8_MAX = 128, 1024, 240.0  # as the .equ lines of prog.nasm
ROWS = 2 * P

work = Workload(__file__)
rng = np.random.default_rng(20261202)
# Activations with a heavy tail; the largest magnitude is in core 1's rows, so
# core 0 quantizes with a scale it cannot know without the other core.
x = rng.standard_normal((ROWS, N)) * rng.uniform(0.5, 2.0, size=(ROWS, 1))
x[P + 37, 611] = -31.0
x = x.astype(np.float32)
work.save_inputs({"x": x})
out = work.reference_outputs({"x": x})

# Direct formula, in float32 as the kernel computes it (S2.2: then rounded to fp8e4m3).
amax = np.abs(x).max()
inv = np.float32(1.0) / amax
q = round_to("fp8e4m3", ((x * inv).astype(np.float32) * np.float32(FP8_MAX)).astype(np.float32))
assert_agrees("amax", out["amax"], np.array([[amax]], dtype=np.float32))
assert_agrees("q", out["q"], q)
assert np.abs(q).max() <= FP8_MAX
