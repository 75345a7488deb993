#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_local_gather.py, re-expressed (S11.3,
docs/SEMANTICS.md): src_buffer (128, 512, 4) float32, index (128, 4) uint16
(16 partitions' indices replicated to 8 GpSimd cores, scaled by
num_elem_per_idx = 4), num_valid_indices = 64, output (128, 4, 16, 4).
Golden: the test's own NUMPY_SEMANTICS loop (np.take per core)."""
import numpy as np

from harness import main

NASM = """
.hbm src_buffer f32 [128, 512, 4] input
.hbm index u16 [128, 4] input
.hbm output f32 [128, 4, 16, 4] output
.sbuf src_buffer_tile f32 [128, 512, 4]
.sbuf index_tile u16 [128, 4]
.sbuf output_tile f32 [128, 4, 16, 4]
dma_copy dst=src_buffer_tile, src=src_buffer
dma_copy dst=index_tile, src=index
local_gather dst=output_tile, src_buffer=src_buffer_tile, index=index_tile, num_elem_per_idx=4, num_valid_indices=64
dma_copy dst=output, src=output_tile
"""


def test_local_gather(nisa):
    np.random.seed(0)
    num_gpsimd_cores = 8
    num_partitions_per_core = 16
    src_buffer = np.random.random_sample([128, 512, 4]).astype(np.float32) * 100
    index_per_core = np.random.randint(low=0, high=512, size=(16, 4), dtype=np.uint16)
    index = np.tile(index_per_core, (num_gpsimd_cores, 1))
    num_elem_per_idx = 4
    index_hw = index * num_elem_per_idx
    num_valid_indices = 64
    output_shape = (128, 4, 16, 4)

    out = nisa.run(NASM, inputs={"src_buffer": src_buffer, "index": index_hw}, args=["--strict"])["output"]

    # the test's NumPy reference, verbatim in substance
    num_active_cores = index.shape[0] / num_partitions_per_core
    num_valid_indices = num_valid_indices if num_valid_indices else index.size / num_active_cores
    output_np = np.ndarray(shape=(128, num_valid_indices, num_elem_per_idx), dtype=src_buffer.dtype)
    for i_core in range(num_gpsimd_cores):
        start_par = i_core * num_partitions_per_core
        end_par = (i_core + 1) * num_partitions_per_core
        indices_1d = index[start_par:end_par].flatten(order='F')[0: num_valid_indices]
        output_np[start_par:end_par, :, :] = np.take(src_buffer[start_par:end_par], indices_1d, axis=1)
    output_np = output_np.reshape(output_shape)
    nisa.close("output", out, output_np, rtol=1e-5, atol=1e-8)
    nisa.equal("output (exact)", out, output_np)


NASM_DEFAULTS = """
.hbm src u16 [32, 64] input
.hbm index u16 [32, 2] input
.hbm output u16 [32, 32] output
.sbuf s u16 [32, 64]
.sbuf i u16 [32, 2]
.sbuf o u16 [32, 32]
dma_copy dst=s, src=src
dma_copy dst=i, src=index
local_gather dst=o, src_buffer=s, index=i
dma_copy dst=output, src=o
"""


def test_local_gather_defaults(nisa):
    # num_elem_per_idx 1 and every index of a core (16 x 2 = 32) valid; cores differ
    rng = np.random.RandomState(3)
    src = rng.randint(0, 65535, size=(32, 64)).astype(np.uint16)
    index = rng.randint(0, 64, size=(32, 2)).astype(np.uint16)
    out = nisa.run(NASM_DEFAULTS, inputs={"src": src, "index": index}, args=["--strict"])["output"]
    expected = np.concatenate([np.take(src[c:c + 16], index[c:c + 16].flatten(order="F"), axis=1) for c in (0, 16)])
    nisa.equal("output", out, expected)


NASM_OOB = """
.hbm index u16 [16, 1] input
.sbuf s f32 [16, 8]
.sbuf i u16 [16, 1]
.sbuf o f32 [16, 32]
memset dst=s, value=1
dma_copy dst=i, src=index
local_gather dst=o, src_buffer=s, index=i, num_elem_per_idx=2
"""


def test_local_gather_out_of_bounds_strict(nisa):
    # NKI: out-of-bound access is undefined; nisa --strict faults (exit 3)
    index = np.zeros((16, 1), dtype=np.uint16)
    index[5] = 7  # elements 7 and 8 of an 8-element row
    err = nisa.run(NASM_OOB, inputs={"index": index}, args=["--strict"], expect_status=3)
    assert "index 7" in err, err


if __name__ == "__main__":
    main(globals())
