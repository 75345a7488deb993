#!/usr/bin/python3
"""Inputs and expected outputs of kv_cache_update (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees, round_to  # noqa: E402

P, SLOTS = 128, 1024  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261127)
# bf16 values, stored as float32 .npy (each exactly representable in bf16).
cache = round_to("bf16", rng.standard_normal((P, SLOTS)))
new_kv = round_to("bf16", rng.standard_normal((P, SLOTS)) * 0.5 + 3.0)
pos = rng.integers(0, SLOTS - 4, size=(P, 1))
pos[0], pos[1] = 508, 511  # the new tokens straddle the two 512-slot tiles
n = rng.integers(1, 5, size=(P, 1))
k = np.arange(SLOTS).reshape(1, -1)
update = ((k >= pos) & (k < pos + n)).astype(np.uint8)
valid = (k < pos + n).astype(np.uint8)
inputs = {"cache": cache, "new_kv": new_kv, "update": update, "valid": valid}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula: merge the new entries, then clear the slots past the new length.
expected = np.where(update != 0, new_kv, cache)
expected = np.where(valid != 0, expected, np.float32(0.0)).astype(np.float32)
assert_agrees("cache", out["cache"], expected)
