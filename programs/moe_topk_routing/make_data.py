#!/usr/bin/python3
"""Inputs and expected outputs of moe_topk_routing (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

T, E, K = 256, 64, 4  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261125)
# Router logits: a few popular experts (a per-expert bias) plus per-token noise.
router_logits = (rng.standard_normal((T, E)) * 1.5 + rng.uniform(-1.0, 1.0, size=(1, E))).astype(np.float32)
inputs = {"router_logits": router_logits}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula (router_topk's torch reference: torch.topk, softmax over the
# top-k, scatter), in NumPy; the logits are distinct, so the order is unique.
order = np.argsort(-router_logits, axis=1, kind="stable")[:, :K]
top = np.take_along_axis(router_logits, order, axis=1)
assert_agrees("topk_logits", out["topk_logits"], top)
assert_agrees("expert_index", out["expert_index"], order.astype(np.uint32))
e = np.exp(top.astype(np.float64) - top[:, :1])
aff = e / e.sum(axis=1, keepdims=True)
dense = np.zeros((T, E))
np.put_along_axis(dense, order, aff, axis=1)
assert_agrees("expert_affinities", out["expert_affinities"], dense.astype(np.float32), rtol=1e-5, atol=1e-7)
