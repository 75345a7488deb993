#!/usr/bin/python3
"""nc_n_gather has no public NKI 0.6 unit test: this one follows its
docstring (S11.4, docs/SEMANTICS.md). Per partition, the free dimensions of
data are flattened and dst[p, j...] = data_flat[p, indices[p, j...]]; indices
are uint32 and shape dst. Expected: np.take_along_axis."""
import numpy as np

from harness import main

NASM = """
.hbm data bf16 [128, 16, 32] input
.hbm indices u32 [128, 2, 300] input
.hbm out bf16 [128, 2, 300] output
.sbuf d bf16 [128, 16, 32]
.sbuf i u32 [128, 2, 300]
.sbuf o bf16 [128, 2, 300]
dma_copy dst=d, src=data
dma_copy dst=i, src=indices
nc_n_gather dst=o, data=d, indices=i
dma_copy dst=out, src=o
"""


def test_nc_n_gather(nisa):
    rng = np.random.RandomState(0)
    data = rng.standard_normal([128, 16, 32]).astype(np.float32)
    data = ((data.view(np.uint32) >> 16) << 16).view(np.float32)  # exactly bfloat16
    indices = rng.randint(0, 16 * 32, size=(128, 2, 300)).astype(np.uint32)
    out = nisa.run(NASM, inputs={"data": data, "indices": indices}, args=["--strict"])["out"]
    expected = np.take_along_axis(data.reshape(128, -1), indices.reshape(128, -1).astype(np.int64), axis=1)
    nisa.equal("out", out, expected.reshape(128, 2, 300))


NASM_OOB = """
.hbm indices u32 [4, 3] input
.hbm out f32 [4, 3] output
.sbuf d f32 [4, 5]
.sbuf i u32 [4, 3]
.sbuf o f32 [4, 3]
iota dst=d, base=1
dma_copy dst=i, src=indices
nc_n_gather dst=o, data=d, indices=i
dma_copy dst=out, src=o
"""


def test_nc_n_gather_out_of_range(nisa):
    indices = np.array([[0, 4, 2]] * 4, dtype=np.uint32)
    indices[2, 1] = 5  # one past the end
    # without --strict the element is zero bits (S11.4); with --strict a fault (exit 3)
    out = nisa.run(NASM_OOB, inputs={"indices": indices})["out"]
    expected = np.array([[1, 5, 3]] * 4, dtype=np.float32)
    expected[2, 1] = 0
    nisa.equal("out", out, expected)
    err = nisa.run(NASM_OOB, inputs={"indices": indices}, args=["--strict"], expect_status=3)
    assert "index 5" in err, err


if __name__ == "__main__":
    main(globals())
