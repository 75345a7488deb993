#!/usr/bin/python3
"""Inputs and expected outputs of find_nonzero_indices (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees, round_to  # noqa: E402

T, E = 4096, 128  # as the .equ lines of prog.nasm
TOP_K = 8

work = Workload(__file__)
rng = np.random.default_rng(20261124)
# A router's sparse [T, E] weights: each token keeps its top-8 of 128 experts'
# softmax probabilities (bf16, stored as float32 .npy), zero elsewhere.
logits = rng.standard_normal((T, E)) * 2.0
probs = np.exp(logits - logits.max(axis=1, keepdims=True))
probs /= probs.sum(axis=1, keepdims=True)
keep = np.argsort(-logits, axis=1)[:, :TOP_K]
weights = np.zeros((T, E))
np.put_along_axis(weights, keep, np.take_along_axis(probs, keep, axis=1), axis=1)
weights[:, 5] = 0.0                                    # an expert no token chose
weights[:, 77] = rng.uniform(0.01, 1.0, T)            # one every token chose
weights[(rng.random((T, E)) < 0.002) & (weights == 0)] = -0.0  # -0.0 counts as zero
input_tensor = round_to("bf16", weights)
assert np.all(input_tensor[weights != 0] != 0)         # no weight rounds to zero
inputs = {"input_tensor": input_tensor}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula: the kernel's docstring pseudocode (its torch reference,
# find_nonzero_indices_torch.py, in NumPy).
indices = np.full((E, T), -1, dtype=np.int32)
nonzero_counts = np.zeros(E, dtype=np.int32)
for c in range(E):
    nz = np.nonzero(input_tensor[:, c])[0]
    indices[c, :len(nz)] = nz
    nonzero_counts[c] = len(nz)
assert nonzero_counts[5] == 0 and nonzero_counts[77] == T
assert_agrees("indices", out["indices"], indices)
assert_agrees("nonzero_counts", out["nonzero_counts"], nonzero_counts)
