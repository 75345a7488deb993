#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_sequence_bounds.py, re-expressed: segment
bounds of m, n = 1, 32 sorted random segment IDs (np.random.seed(0),
randint(0, 32)) as float32, dst [1, 2, 32] (docs/SEMANTICS.md S4.35).
Golden: the test's own compute_sequence_bounds (ported below), compared with
np.allclose; plus the docstring's worked example in int32."""
import numpy as np

from harness import main

NASM = """
.hbm segment_ids f32 [1, 32] input
.hbm output f32 [1, 2, 32] output
.sbuf seq_tile f32 [1, 32]
.sbuf out_tile f32 [1, 2, 32]
dma_copy dst=seq_tile, src=segment_ids
sequence_bounds dst=out_tile, segment_ids=seq_tile
dma_copy dst=output, src=out_tile
"""


def compute_sequence_bounds(sequence):
    n = len(sequence)
    min_bounds = np.zeros(n, dtype=sequence.dtype)
    max_bounds = np.zeros(n, dtype=sequence.dtype)
    min_bound_pad = n
    max_bound_pad = -1
    min_bounds[0] = 0 if sequence[0] != 0 else min_bound_pad
    for i in range(1, n):
        if sequence[i] == 0:
            min_bounds[i] = min_bound_pad
        elif sequence[i] == sequence[i - 1]:
            min_bounds[i] = min_bounds[i - 1]
        else:
            min_bounds[i] = i
    max_bounds[-1] = n if sequence[-1] != 0 else max_bound_pad
    for i in range(n - 2, -1, -1):
        if sequence[i] == 0:
            max_bounds[i] = max_bound_pad
        elif sequence[i] == sequence[i + 1]:
            max_bounds[i] = max_bounds[i + 1]
        else:
            max_bounds[i] = i + 1
    return np.vstack((min_bounds, max_bounds))


def test_sequence_bounds(nisa):
    m, n = 1, 32
    np.random.seed(0)
    segment_ids = np.sort(np.random.randint(low=0, high=m * n, size=n))
    segment_ids = segment_ids.reshape((m, n), order="F").astype(np.float32)
    b = np.apply_along_axis(compute_sequence_bounds, axis=1, arr=segment_ids).reshape(m, 2, n).astype(np.float32)
    a = nisa.run(NASM, inputs={"segment_ids": segment_ids}, outputs=["output"], args=["--strict"])["output"]
    nisa.close("output", a, b, rtol=1e-5, atol=1e-8)


EXAMPLE = """
.hbm segment_ids i32 [1, 9] input
.hbm output i32 [1, 2, 9] output
.sbuf seq_tile i32 [1, 9]
.sbuf out_tile i32 [1, 2, 9]
dma_copy dst=seq_tile, src=segment_ids
sequence_bounds dst=out_tile, segment_ids=seq_tile
dma_copy dst=output, src=out_tile
"""


def test_docstring_example(nisa):
    ids = np.array([[0, 1, 1, 2, 2, 2, 0, 3, 3]], dtype=np.int32)
    a = nisa.run(EXAMPLE, inputs={"segment_ids": ids}, outputs=["output"], args=["--strict"])["output"]
    nisa.equal("output", a, np.array([[[9, 1, 1, 3, 3, 3, 9, 7, 7], [-1, 3, 3, 6, 6, 6, -1, 9, 9]]], dtype=np.int32))


if __name__ == "__main__":
    main(globals())
