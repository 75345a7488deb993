#!/usr/bin/python3
"""Inputs and expected outputs of packed_attention_mask (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import FP32_MIN, Workload, assert_agrees, round_to  # noqa: E402

P, KEYS = 128, 1024  # as the .equ lines of prog.nasm
Q_START, PADDING_ROWS = 480, 8  # the query block's first token; trailing padding query rows

work = Workload(__file__)
rng = np.random.default_rng(20261201)
scores = (rng.standard_normal((P, KEYS)) * 3.0).astype(np.float32)
# Pack documents of random lengths into the sequence; doc_start[t] = first token of t's document.
lengths = rng.integers(20, 200, size=64)
starts = np.concatenate([[0], np.cumsum(lengths)])
doc_start = starts[np.searchsorted(starts, np.arange(KEYS), side="right") - 1]
q = Q_START + np.arange(P)
kv_start = doc_start[q].astype(np.float32).reshape(-1, 1)
kv_end = (q + 1).astype(np.float32).reshape(-1, 1)
kv_start[-PADDING_ROWS:] = 0.0
kv_end[-PADDING_ROWS:] = 0.0
inputs = {"scores": scores, "kv_start": kv_start, "kv_end": kv_end}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula: the document-causal mask; bf16 scores, -inf where masked.
k = np.arange(KEYS).reshape(1, -1)
visible = (k >= kv_start) & (k < kv_end)
assert np.unique(kv_start[:-PADDING_ROWS]).size > 1  # the block spans several documents
assert_agrees("masked", out["masked"], np.where(visible, round_to("bf16", scores), -np.inf).astype(np.float32))
assert_agrees("row_max", out["row_max"], np.where(visible, scores, FP32_MIN).max(axis=1, keepdims=True))
