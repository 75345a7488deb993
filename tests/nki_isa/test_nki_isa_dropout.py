#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_dropout.py, re-expressed (S11.5,
docs/SEMANTICS.md): dropout of a [128, 512] float32 tile with per-partition
probabilities b (random_sample * 100, so >= 1 drops all of a partition) and
with a scalar 0.2. The test's own check: the result is not all zeros. nisa
has a generator, so the test's commented-out check (result != a) holds too,
and we add statistical checks from the docstring: every element is either
its input or zero, the dropped fraction is close to the probability, and the
result is reproducible. Exact values: the NumPy XORWOW of ref_random.py."""
import os
import sys

import numpy as np

from harness import main

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import ref_random  # noqa: E402

NASM_TILE = """
.hbm a_tensor f32 [128, 512] input
.hbm b_tensor f32 [128, 1] input
.hbm c_tensor f32 [128, 512] output
.sbuf a f32 [128, 512]
.sbuf b f32 [128, 1]
.sbuf c f32 [128, 512]
dma_copy dst=a, src=a_tensor
dma_copy dst=b, src=b_tensor
dropout dst=c, data=a, prob=b
dma_copy dst=c_tensor, src=c
"""

NASM_SCALAR = """
.hbm in_tensor f32 [128, 512] input
.hbm out_tensor f32 [128, 512] output
.sbuf a f32 [128, 512]
.sbuf b f32 [128, 512]
dma_copy dst=a, src=in_tensor
dropout dst=b, data=a, prob=0.2
dma_copy dst=out_tensor, src=b
"""


def expected_dropout(a, prob):
    """S11.5 from machine start (seed 0): drop where u < prob."""
    state = ref_random.seeded(0, "vector")
    u = ref_random.unit(ref_random.draw(state, np.arange(128), a.shape[1]))
    return np.where(u < np.float32(prob), np.float32(0), a)


def test_dropout(nisa):
    rng = np.random.RandomState(0)
    a = rng.random_sample([128, 512]).astype(np.float32) * 100
    b = rng.random_sample([128, 1]).astype(np.float32) * 100
    b[:4] = [[0.0], [0.25], [0.5], [0.9]]  # a few partitions with probabilities below 1
    c = nisa.run(NASM_TILE, inputs={"a_tensor": a, "b_tensor": b})["c_tensor"]
    c_zeros = np.zeros([128, 512], dtype=np.float32)
    assert not np.allclose(c, c_zeros), "all elements dropped"       # the NKI test's check
    assert not np.allclose(c, a), "nothing dropped"                  # its commented-out one
    assert np.all((c == a) | (c == 0)), "an element neither kept nor zeroed"
    assert np.all(c[b[:, 0] >= 1] == 0), "probability >= 1 keeps something"
    assert np.array_equal(c[0], a[0]), "probability 0 dropped something"
    for p in (1, 2, 3):
        dropped = np.mean(c[p] == 0)
        assert abs(dropped - b[p, 0]) < 0.1, (p, dropped, b[p, 0])  # 512 draws: ~5 sigma
    nisa.equal("c_tensor", c, expected_dropout(a, b))


def test_dropout_scalar(nisa):
    a = np.random.RandomState(1).random_sample([128, 512]).astype(np.float32) * 100 + 1
    out = nisa.run(NASM_SCALAR, inputs={"in_tensor": a})["out_tensor"]
    assert not np.allclose(out, np.zeros([128, 512], dtype=np.float32))  # the NKI test's check
    dropped = np.mean(out == 0)
    assert abs(dropped - 0.2) < 0.01, dropped  # 65,536 draws: sigma 0.0016
    assert np.all((out == a) | (out == 0))
    again = nisa.run(NASM_SCALAR, inputs={"in_tensor": a})["out_tensor"]
    nisa.equal("reproducible", again, out)
    nisa.equal("out_tensor", out, expected_dropout(a, 0.2))


if __name__ == "__main__":
    main(globals())
