#!/usr/bin/python3
"""Inputs and expected outputs of moe_routing (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

EXPERTS, TOKENS, TILE, TOP_K = 8, 2048, 512, 2  # as the .equ lines of prog.nasm; top-2 routing
TILES = TOKENS // TILE

work = Workload(__file__)
rng = np.random.default_rng(20261126)
# Router logits with a skewed expert popularity; each token goes to its top-2 experts.
logits = rng.standard_normal((TOKENS, EXPERTS)) + np.linspace(1.0, -1.0, EXPERTS)
top = np.argsort(-logits, axis=1)[:, :TOP_K]
routing = np.zeros((EXPERTS, TOKENS), dtype=np.float32)
routing[top.T, np.arange(TOKENS)] = 1.0
work.save_inputs({"routing": routing})
out = work.reference_outputs({"routing": routing})

# Direct formula: np.nonzero per expert and token tile.
token_ids = np.full((EXPERTS, TILES, TILE + 1), -1, dtype=np.int32)
counts = np.zeros((EXPERTS, TILES), dtype=np.int32)
for e in range(EXPERTS):
    for t in range(TILES):
        ids = t * TILE + np.flatnonzero(routing[e, t * TILE:(t + 1) * TILE])
        token_ids[e, t, :ids.size] = ids
        token_ids[e, t, TILE] = counts[e, t] = ids.size
assert counts.sum() == TOKENS * TOP_K
assert_agrees("token_ids", out["token_ids"], token_ids)
assert_agrees("counts", out["counts"], counts)
