#!/usr/bin/python3
"""Inputs and expected outputs of scale_bias_gelu (see prog.nasm's header)."""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

P, N = 128, 1024  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261128)
x = rng.standard_normal((P, N)).astype(np.float32)
scale = rng.uniform(0.5, 2.0, size=(P, 1)).astype(np.float32)
bias = rng.uniform(-1.0, 1.0, size=(P, 1)).astype(np.float32)
inputs = {"x": x, "scale": scale, "bias": bias}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula, in float64 from the float32 pre-activation: gelu(v) = v * Phi(v).
v = ((x * scale).astype(np.float32) + bias).astype(np.float64)
erf = np.vectorize(math.erf)
y = v * 0.5 * (1.0 + erf(v / math.sqrt(2.0)))
assert_agrees("y", out["y"], y.astype(np.float32), rtol=1e-6, atol=1e-7)
assert_agrees("row_sum", out["row_sum"], y.sum(axis=1, keepdims=True).astype(np.float32), rtol=1e-5, atol=1e-5)
assert_agrees("row_absmax", out["row_absmax"], np.abs(y).max(axis=1, keepdims=True).astype(np.float32), rtol=1e-6)
