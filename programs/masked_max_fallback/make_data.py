#!/usr/bin/python3
"""Inputs and expected outputs of masked_max_fallback (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

P, SLOTS, PAGE = 128, 512, 32  # P and SLOTS as in prog.nasm; PAGE: KV slots per cache page

work = Workload(__file__)
rng = np.random.default_rng(20261125)
scores = (rng.standard_normal((P, SLOTS)) * 2.0).astype(np.float32)
# Paged KV cache: each row's sequence holds a random set of whole pages, and its
# last held page is only partly filled. Rows 0..7 hold no page at all (only the sink).
pages = rng.random((P, SLOTS // PAGE)) < 0.4
pages[:8] = False
valid = np.repeat(pages, PAGE, axis=1)
for p in range(P):
    held = np.flatnonzero(pages[p])
    if held.size:
        fill = rng.integers(1, PAGE + 1)
        valid[p, held[-1] * PAGE + fill:(held[-1] + 1) * PAGE] = False
valid = valid.astype(np.uint8)
sink = (rng.standard_normal((P, 1)) * 2.0).astype(np.float32)
inputs = {"scores": scores, "valid": valid, "sink": sink}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula: where(mask, scores, sink), then the row maximum.
selected = np.where(valid != 0, scores, sink).astype(np.float32)
assert_agrees("selected", out["selected"], selected)
assert_agrees("row_max", out["row_max"], selected.max(axis=1, keepdims=True))
