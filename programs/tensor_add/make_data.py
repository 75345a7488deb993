#!/usr/bin/python3
"""Inputs and expected outputs of tensor_add (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

M, N = 256, 1024  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20260611)
# Values of mixed magnitudes, so that many sums round (float16 keeps 11 bits).
a_input = (rng.standard_normal((M, N)) * rng.choice([0.01, 1.0, 100.0], size=(M, N))).astype(np.float16)
b_input = (rng.standard_normal((M, N)) * rng.choice([0.01, 1.0, 100.0], size=(M, N))).astype(np.float16)
inputs = {"a_input": a_input, "b_input": b_input}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula: the sum in float32, rounded once to float16 (S2.1, S2.2).
c = (a_input.astype(np.float32) + b_input.astype(np.float32)).astype(np.float16)
assert_agrees("c_output", out["c_output"], c)
