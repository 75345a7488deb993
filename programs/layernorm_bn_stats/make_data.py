#!/usr/bin/python3
"""Inputs and expected outputs of layernorm_bn_stats (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

ROWS, D, EPS = 256, 1024, 1e-5  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261124)
# Hidden states with a per-row offset and scale (LayerNorm removes both).
x = (rng.standard_normal((ROWS, D)) * rng.uniform(0.1, 6.0, size=(ROWS, 1)) +
     rng.uniform(-3.0, 3.0, size=(ROWS, 1))).astype(np.float32)
gamma = rng.uniform(0.5, 1.5, size=(1, D)).astype(np.float32)
beta = rng.uniform(-0.5, 0.5, size=(1, D)).astype(np.float32)
inputs = {"x": x, "gamma": gamma, "beta": beta}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula (the tutorial's torch reference, nn.functional.layer_norm), in float64.
x64 = x.astype(np.float64)
mean = x64.mean(axis=1, keepdims=True)
var = x64.var(axis=1, keepdims=True)
assert_agrees("mean_var", out["mean_var"], np.concatenate([mean, var], axis=1).astype(np.float32), rtol=1e-5, atol=1e-6)
y = (x64 - mean) / np.sqrt(var + EPS) * gamma + beta
assert_agrees("y", out["y"], y.astype(np.float32), rtol=1e-4, atol=1e-5)
