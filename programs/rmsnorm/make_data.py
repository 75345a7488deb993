#!/usr/bin/python3
"""Inputs and expected outputs of rmsnorm (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

P, D, EPS = 128, 1024, 1e-6  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261130)
# Rows of different magnitudes (hidden states grow along a residual stream).
x = (rng.standard_normal((P, D)) * rng.uniform(0.05, 8.0, size=(P, 1))).astype(np.float32)
gamma = rng.uniform(0.5, 1.5, size=(1, D)).astype(np.float32)
inputs = {"x": x, "gamma": gamma}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula, in float64.
x64 = x.astype(np.float64)
rstd = 1.0 / np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + EPS)
assert_agrees("rstd", out["rstd"], rstd.astype(np.float32), rtol=2e-5)
assert_agrees("y", out["y"], (x64 * rstd * gamma).astype(np.float32), rtol=3e-5, atol=1e-9)
