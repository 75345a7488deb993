#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_nc_stream_shuffle.py, re-expressed (S11.2,
docs/SEMANTICS.md): its three kernels (in-place rotation of 32 partitions,
broadcast of one partition to 32, the same mask on four quadrants), each with
the test's own golden formula."""
import numpy as np

from harness import main

ROTATE = "[" + ", ".join(str((i - 1) % 32) for i in range(32)) + "]"

NASM_INPLACE = f"""
.hbm in_tensor f32 [32, 128] input
.hbm out_tensor f32 [32, 128] output
.sbuf a f32 [32, 128]
dma_copy dst=a, src=in_tensor
nc_stream_shuffle src=a, dst=a, shuffle_mask={ROTATE}
dma_copy dst=out_tensor, src=a
"""

NASM_BROADCAST = f"""
.hbm in_tensor f32 [1, 128] input
.hbm out_tensor f32 [32, 128] output
.sbuf a f32 [1, 128]
.sbuf b f32 [32, 128]
dma_copy dst=a, src=in_tensor
nc_stream_shuffle src=a, dst=b, shuffle_mask=[{", ".join(["0"] * 32)}]
dma_copy dst=out_tensor, src=b
"""

NASM_QUADRANTS = f"""
.hbm in_tensor f32 [128, 128] input
.hbm out_tensor f32 [128, 128] output
.sbuf a f32 [128, 128]
.sbuf b f32 [128, 128]
dma_copy dst=a, src=in_tensor
nc_stream_shuffle src=a, dst=b, shuffle_mask={ROTATE}
dma_copy dst=out_tensor, src=b
"""


def test_stream_shuffle(nisa):
    in_tensor = np.random.RandomState(0).random_sample([32, 128]).astype(np.float32) * 100
    out = nisa.run(NASM_INPLACE, inputs={"in_tensor": in_tensor})["out_tensor"]
    in_tensor[list(range(32))] = in_tensor[[(i - 1) % 32 for i in range(32)]]
    nisa.close("out_tensor", out, in_tensor, rtol=1e-5, atol=1e-8)


def test_broadcast_partition(nisa):
    in_tensor = np.random.RandomState(1).random_sample([1, 128]).astype(np.float32) * 100
    out = nisa.run(NASM_BROADCAST, inputs={"in_tensor": in_tensor})["out_tensor"]
    out_tensor = np.empty([32, 128], dtype=np.float32)
    out_tensor[0:32] = in_tensor[0]
    nisa.close("out_tensor", out, out_tensor, rtol=1e-5, atol=1e-8)


def test_broadcast_mask(nisa):
    in_tensor = np.random.RandomState(2).random_sample([128, 128]).astype(np.float32) * 100
    out = nisa.run(NASM_QUADRANTS, inputs={"in_tensor": in_tensor})["out_tensor"]
    for j in range(4):
        in_tensor[list(range(j * 32, (j + 1) * 32))] = in_tensor[[(i - 1) % 32 + j * 32 for i in range(32)]]
    nisa.close("out_tensor", out, in_tensor, rtol=1e-5, atol=1e-8)


NASM_KEEP = """
.hbm in_tensor i32 [64, 4] input
.hbm out_tensor i32 [64, 4] output
.sbuf a i32 [64, 4]
.sbuf b i32 [64, 4]
dma_copy dst=a, src=in_tensor
memset dst=b, value=-7
nc_stream_shuffle src=a, dst=b, shuffle_mask=[16, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 31]
dma_copy dst=out_tensor, src=b
"""


def test_unchanged_partitions(nisa):
    # docstring: 255 leaves the dst partition unmodified (find_nonzero_indices' mask form)
    x = np.arange(256, dtype=np.int32).reshape(64, 4)
    out = nisa.run(NASM_KEEP, inputs={"in_tensor": x}, args=["--strict"])["out_tensor"]
    expected = np.full((64, 4), -7, dtype=np.int32)
    for q in (0, 32):
        expected[q] = x[q + 16]
        expected[q + 16] = x[q]
        expected[q + 31] = x[q + 31]
    nisa.equal("out_tensor", out, expected)


if __name__ == "__main__":
    main(globals())
