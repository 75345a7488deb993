#!/usr/bin/python3
"""Inputs and expected outputs of masked_softmax (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees, causal_softmax  # noqa: E402

P, KEYS, Q_START = 128, 1024, 700  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261124)
scores = (rng.standard_normal((P, KEYS)) * 3.0).astype(np.float32)
work.save_inputs({"scores": scores})
out = work.reference_outputs({"scores": scores})

# Direct formula, in float64: softmax over the visible keys (k <= q), zero elsewhere.
row_max, numerators, row_sum = causal_softmax(scores, Q_START)
assert_agrees("row_max", out["row_max"], row_max.astype(np.float32))
assert_agrees("row_sum", out["row_sum"], row_sum.astype(np.float32), rtol=1e-5)
assert_agrees("probs", out["probs"], (numerators / row_sum).astype(np.float32), rtol=2e-5, atol=1e-9)
