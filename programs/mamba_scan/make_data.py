#!/usr/bin/python3
"""Inputs and expected outputs of mamba_scan (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

BATCH, CHANNELS, SEQ, STATES = 2, 256, 256, 8  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261124)
# Mamba's ranges: delta is a softplus output (small, positive), A = -exp(A_log) < 0,
# so every deltaA = exp(delta * A) lies in (0, 1) and the scan stays bounded.
delta = rng.uniform(0.001, 0.1, (BATCH, CHANNELS, SEQ)).astype(np.float32)
u = rng.standard_normal((BATCH, CHANNELS, SEQ)).astype(np.float32)
A = -np.exp(rng.uniform(-1.0, 1.5, (CHANNELS, STATES))).astype(np.float32)
B = rng.standard_normal((BATCH, STATES, SEQ)).astype(np.float32)
C = rng.standard_normal((BATCH, STATES, SEQ)).astype(np.float32)
inputs = {"delta": delta, "u": u, "A": A, "B": B, "C": C}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula: mamba_torch.py's mamba_layer and associative_scan, in float64.
d, uu = delta.astype(np.float64), u.astype(np.float64)
deltaA = np.exp(d[:, :, None, :] * A.astype(np.float64)[None, :, :, None])
deltaB_u = d[:, :, None, :] * B.astype(np.float64)[:, None, :, :] * uu[:, :, None, :]
scan_res = np.empty_like(deltaA)
for i in range(SEQ):
    prev_state = scan_res[..., i - 1] if i > 0 else 0
    scan_res[..., i] = deltaA[..., i] * prev_state + deltaB_u[..., i]
mamba_out = (C.astype(np.float64)[:, None, :, :] * scan_res).sum(axis=-2)
# float32 arithmetic against float64: agreement to a few float32 ulps of the scale
assert_agrees("output", out["output"], mamba_out.astype(np.float32), rtol=1e-4, atol=1e-5)
