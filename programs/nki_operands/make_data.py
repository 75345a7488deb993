#!/usr/bin/python3
"""Inputs and expected outputs of nki_operands (see prog.nasm's header)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "reference"))
from workload_data import Workload, assert_agrees  # noqa: E402
import ref_dtypes  # noqa: E402

D, N, C = 256, 96, 8  # as the .equ lines of prog.nasm

work = Workload(__file__)
rng = np.random.default_rng(20261124)
v = rng.standard_normal((1, D)).astype(np.float32)
m = rng.standard_normal((N, C)).astype(np.float32)
# bf16 values held as float32 (LANGUAGE.md 3): round them first so the file is exact.
x = ref_dtypes.round_to("bf16", rng.standard_normal((4, 8, 32)).astype(np.float32)).astype(np.float32)
keep = rng.random((128, 16)) < 0.5  # NumPy bool: fills the u8 (bool) tensor (LANGUAGE.md 3)
inputs = {"v": v, "m": m, "x": x, "keep": keep}
work.save_inputs(inputs)
out = work.reference_outputs(inputs)

# Direct NumPy, independent of the reference model's access-pattern code.
bcast = np.broadcast_to(v, (128, D))
assert_agrees("bcast", out["bcast"], bcast, rtol=0)
assert_agrees("column", out["column"], m[:, 3].reshape(1, N), rtol=0)
assert_agrees("perm", out["perm"], x.transpose(1, 0, 2), rtol=0)
assert_agrees("mixed", out["mixed"], bcast[:, 0::2] - bcast[:, ::-1][:, : D // 2], rtol=0)

ids = 1000 + 16 * np.arange(128)[:, None] + np.arange(16)[None, :]
assert_agrees("ids", out["ids"], ids.astype(np.int32), rtol=0)
hits = np.maximum((bcast[:, 0:16] == 0).astype(np.float32), bcast[:, 16:32])
assert_agrees("hits", out["hits"], hits, rtol=0)
assert_agrees("masked", out["masked"], (ids & np.where(keep, -1, 0) & 0xF0).astype(np.int32), rtol=0)
assert_agrees("sums", out["sums"], hits.reshape(128, 4, 4).sum(axis=2), rtol=1e-6)
