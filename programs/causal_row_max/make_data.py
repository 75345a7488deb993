#!/usr/bin/python3
"""Inputs and expected outputs of causal_row_max (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import FP32_MIN, Workload, assert_agrees  # noqa: E402

P, KEYS, Q_START, WINDOW = 128, 2048, 1200, 1024  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261123)
scores = (rng.standard_normal((P, KEYS)) * 4.0).astype(np.float32)
work.save_inputs({"scores": scores})
out = work.reference_outputs({"scores": scores})

# Direct formula: the sliding-window causal mask, then the row maximum.
q = Q_START + np.arange(P).reshape(-1, 1)
k = np.arange(KEYS).reshape(1, -1)
visible = (k > q - WINDOW) & (k <= q)
masked = np.where(visible, scores, FP32_MIN).astype(np.float32)
assert_agrees("masked", out["masked"], masked)
assert_agrees("row_max", out["row_max"], masked.max(axis=1, keepdims=True))
