#!/usr/bin/python3
"""Inputs and expected outputs of sharded_column_stats (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

P, N = 128, 1024  # as the .equ lines of prog.nasm
ROWS = 2 * P

work = Workload(__file__)
rng = np.random.default_rng(20261201)
# Features of different scales, a few outlier tokens (what a per-channel
# absmax is for), and the largest magnitude of some columns negative.
x = rng.standard_normal((ROWS, N)) * rng.uniform(0.1, 6.0, size=(1, N))
outliers = rng.choice(ROWS, size=6, replace=False)
x[outliers] *= rng.choice([-20.0, 20.0], size=(6, 1))
x = x.astype(np.float32)
work.save_inputs({"x": x})
out = work.reference_outputs({"x": x})

# Direct formula: absmax over all rows (exact); the mean in float64, which the
# float32 sums (two shards of 128 rows, each summed in row order) approach.
assert_agrees("col_absmax", out["col_absmax"], np.abs(x).max(axis=0, keepdims=True))
assert_agrees("col_mean", out["col_mean"], x.astype(np.float64).mean(axis=0, keepdims=True).astype(np.float32),
              rtol=1e-5, atol=1e-5)
# The shards' own float32 sums, combined as the kernel combines them: exact.
ordered = [np.zeros(N, np.float32), np.zeros(N, np.float32)]
for k in (0, 1):
    for r in range(k * P, (k + 1) * P):
        ordered[k] = (ordered[k] + x[r]).astype(np.float32)
assert_agrees("col_mean (shard order)", out["col_mean"],
              ((ordered[0] + ordered[1]) * np.float32(1.0 / ROWS)).reshape(1, N).astype(np.float32))
