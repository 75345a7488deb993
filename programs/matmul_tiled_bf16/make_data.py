#!/usr/bin/python3
"""Inputs and expected outputs of matmul_tiled_bf16 (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees, round_to  # noqa: E402

K, M, N = 512, 256, 1024  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261124)
# Multiples of 1/4 in [-4, 4]: exact in bf16, products and sums exact in float32.
lhsT = (rng.integers(-16, 17, size=(K, M)) / 4).astype(np.float32)
rhs = (rng.integers(-16, 17, size=(K, N)) / 4).astype(np.float32)
inputs = {"lhsT": lhsT, "rhs": rhs}  # bf16 tensors are read from float32 arrays (LANGUAGE.md 3)
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula: the exact product in float64, rounded once to bf16.
result = round_to("bf16", (lhsT.astype(np.float64).T @ rhs.astype(np.float64)).astype(np.float32))
assert_agrees("result", out["result"], result)
