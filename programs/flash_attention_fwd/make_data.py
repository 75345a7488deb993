#!/usr/bin/python3
"""Inputs and expected outputs of flash_attention_fwd (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees, round_to  # noqa: E402

D, QS, BK, NB, SCALE = 64, 256, 128, 3, 0.125  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261124)
q = round_to("bf16", rng.standard_normal((D, 128)))        # bf16 values, given as float32 .npy (LANGUAGE.md 3)
k = round_to("bf16", rng.standard_normal((D, NB * BK)))
v = round_to("bf16", rng.standard_normal((NB * BK, D)))
inputs = {"q": q, "k": k, "v": v}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula in float64: causal softmax attention. The kernel rounds the
# probabilities to bf16 before the PV matmul (as NKI's flash attention does),
# a relative error of at most 2^-9 per probability: hence the tolerance.
s = (q.astype(np.float64).T @ k.astype(np.float64)) * SCALE
pos = QS + np.arange(128)[:, None]
s = np.where(np.arange(NB * BK)[None, :] <= pos, s, -np.inf)
p = np.exp(s - s.max(axis=1, keepdims=True))
attn = (p / p.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
assert_agrees("o", out["o"], attn.astype(np.float32), rtol=1e-2, atol=4e-3)
