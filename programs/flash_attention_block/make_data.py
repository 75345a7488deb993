#!/usr/bin/python3
"""Inputs and expected outputs of flash_attention_block (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees, causal_softmax  # noqa: E402

P, BLOCK, Q_START = 128, 512, 600  # as the .equ lines of prog.nasm
KEYS = 2 * BLOCK

work = Workload(__file__)
rng = np.random.default_rng(20261129)
scores = rng.standard_normal((P, KEYS)) * 2.0
# A per-row shift of block 1 so that the running max moves up in about half the
# rows (correction < 1) and stays in the others (correction = 1).
scores[:, BLOCK:] += rng.uniform(-2.0, 4.0, size=(P, 1))
scores = scores.astype(np.float32)
work.save_inputs({"scores": scores})
out = work.reference_outputs({"scores": scores})

# Direct formula, in float64: one softmax over each row's visible keys.
row_max, numerators, row_sum = causal_softmax(scores, Q_START)
block0_max = scores[:, :BLOCK].max(axis=1, keepdims=True)
assert 0 < np.count_nonzero(row_max > block0_max) < P  # both cases of the rescaling occur
assert_agrees("row_max", out["row_max"], row_max.astype(np.float32))
assert_agrees("row_sum", out["row_sum"], row_sum.astype(np.float32), rtol=2e-5)
assert_agrees("probs", out["probs"], (numerators / row_sum).astype(np.float32), rtol=5e-5, atol=1e-9)
