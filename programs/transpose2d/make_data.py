#!/usr/bin/python3
"""Inputs and expected outputs of transpose2d (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

P, X, Y = 128, 24, 40  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261125)
in_tensor = rng.integers(-128, 128, size=(P, X * Y)).astype(np.int8)
inputs = {"in_tensor": in_tensor}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct formula: the tutorial's own check, np.transpose(a.reshape(P, X, Y), (0, 2, 1)).reshape(P, X * Y).
out_tensor = np.transpose(in_tensor.reshape(P, X, Y), (0, 2, 1)).reshape(P, X * Y)
assert_agrees("out_tensor", out["out_tensor"], out_tensor)
