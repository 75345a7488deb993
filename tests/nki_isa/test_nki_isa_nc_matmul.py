#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_nc_matmul.py, re-expressed (docs/SEMANTICS.md
S8.3). test_nc_matmul: (1) a [128, 128] x b [128, 512]; (2) d [256, 128] x
e [256, 512] accumulated over two K tiles in PSUM (NKI: `f_psum +=`; here the
first nc_matmul overwrites and the second accumulates, accumulate=None); (3)
16 batched [64, 64] x [64, 512] products with PE tiling
tile_position=((i % 2) * 64, (j % 2) * 64), tile_size=(64, 64).
test_double_row_gen3 (trn2): ones [128, 2, 1] x ones [128, 2, 512] in fp8e5m2
with perf_mode double_row_gen3.
Goldens (the test's own): np.matmul(a.T, b), np.matmul(d.T, e),
np.matmul(g.transpose(0, 2, 1), h), np.einsum("kli,klj->ij", a, b), all with
np.allclose's defaults."""
import numpy as np

from harness import main

NASM_1_2 = """
.hbm a_tensor f32 [128, 128] input
.hbm b_tensor f32 [128, 512] input
.hbm d_tensor f32 [256, 128] input
.hbm e_tensor f32 [256, 512] input
.hbm c_tensor f32 [128, 512] output
.hbm f_tensor f32 [128, 512] output
.sbuf a f32 [128, 128]
.sbuf b f32 [128, 512]
.psum c_psum f32 [128, 512]
.sbuf c f32 [128, 512]
.sbuf d f32 [128, 128]
.sbuf e f32 [128, 512]
.psum f_psum f32 [128, 512]
.sbuf f f32 [128, 512]
; Example 1
dma_copy dst=a, src=a_tensor
dma_copy dst=b, src=b_tensor
nc_matmul dst=c_psum, stationary=a, moving=b
tensor_copy dst=c, src=c_psum
dma_copy dst=c_tensor, src=c
; Example 2: the second product accumulates onto the first (accumulate=None)
.rept i_contract, 2
dma_copy dst=d, src=d_tensor[i_contract * 128:(i_contract + 1) * 128, :]
dma_copy dst=e, src=e_tensor[i_contract * 128:(i_contract + 1) * 128, :]
nc_matmul dst=f_psum, stationary=d, moving=e
.endr
tensor_copy dst=f, src=f_psum
dma_copy dst=f_tensor, src=f
"""

NASM_3 = """
.hbm g_tensor f32 [1024, 64] input    ; [16, 64, 64] with the batch folded into the rows
.hbm h_tensor f32 [1024, 512] input
.hbm i_tensor f32 [1024, 512] output
.sbuf g f32 [64, 64]
.sbuf h f32 [64, 512]
.psum i_psum f32 [64, 512]
.sbuf i_sb f32 [64, 512]
.rept i, 4
.rept j, 4
dma_copy dst=g, src=g_tensor[(i * 4 + j) * 64:(i * 4 + j + 1) * 64, :]
dma_copy dst=h, src=h_tensor[(i * 4 + j) * 64:(i * 4 + j + 1) * 64, :]
; NKI allocates a fresh i_psum per iteration; reusing one, each product overwrites
nc_matmul dst=i_psum, stationary=g, moving=h, accumulate=false, tile_position=[(i % 2) * 64, (j % 2) * 64], tile_size=[64, 64]
tensor_copy dst=i_sb, src=i_psum
dma_copy dst=i_tensor[(i * 4 + j) * 64:(i * 4 + j + 1) * 64, :], src=i_sb
.endr
.endr
"""

NASM_DOUBLE_ROW = """
.arch trn2
.hbm a_input fp8e5m2 [128, 2, 1] input
.hbm b_input fp8e5m2 [128, 2, 512] input
.hbm c_output f32 [1, 512] output
.sbuf a_tile fp8e5m2 [128, 2, 16]
.sbuf b_tile fp8e5m2 [128, 2, 512]
.psum c_psum f32 [1, 512]
.sbuf c_tile f32 [1, 512]
dma_copy dst=a_tile[:, :, 0:1], src=a_input
dma_copy dst=b_tile, src=b_input
nc_matmul dst=c_psum, stationary=a_tile[:, :, 0:1], moving=b_tile, perf_mode=double_row_gen3
tensor_copy dst=c_tile, src=c_psum
dma_copy dst=c_output, src=c_tile
"""


def test_nc_matmul(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 128]).astype(np.float32) * 100
    b = np.random.random_sample([128, 512]).astype(np.float32) * 100
    d = np.random.random_sample([256, 128]).astype(np.float32) * 100
    e = np.random.random_sample([256, 512]).astype(np.float32) * 100
    g = np.random.random_sample([16, 64, 64]).astype(np.float32) * 100
    h = np.random.random_sample([16, 64, 512]).astype(np.float32) * 100
    out = nisa.run(NASM_1_2, inputs={"a_tensor": a, "b_tensor": b, "d_tensor": d, "e_tensor": e},
                   outputs=["c_tensor", "f_tensor"])
    nisa.close("c_tensor", out["c_tensor"], np.matmul(np.transpose(a), b), rtol=1e-5, atol=1e-8)
    nisa.close("f_tensor", out["f_tensor"], np.matmul(np.transpose(d), e), rtol=1e-5, atol=1e-8)
    out = nisa.run(NASM_3, inputs={"g_tensor": g.reshape(1024, 64), "h_tensor": h.reshape(1024, 512)}, outputs=["i_tensor"])
    nisa.close("i_tensor", out["i_tensor"].reshape(16, 64, 512), np.matmul(g.transpose(0, 2, 1), h), rtol=1e-5, atol=1e-8)


def test_double_row_gen3(nisa):
    a = np.ones((128, 2, 1), dtype=np.float32)  # fp8e5m2 inputs are read from float32 (exact: 1.0)
    b = np.ones((128, 2, 512), dtype=np.float32)
    out = nisa.run(NASM_DOUBLE_ROW, inputs={"a_input": a, "b_input": b}, outputs=["c_output"])
    nisa.close("c_output", out["c_output"], np.einsum("kli,klj->ij", a, b), rtol=1e-5, atol=1e-8)


NASM_TRANSPOSE_MODE = """
.arch trn2
.hbm x_tensor f32 [128, 96] input
.hbm eye_tensor f32 [128, 128] input
.hbm xt_tensor f32 [96, 128] output
.sbuf x f32 [128, 96]
.sbuf eye f32 [128, 128]
.psum xt_psum f32 [96, 128]
.sbuf xt f32 [96, 128]
dma_copy dst=x, src=x_tensor
dma_copy dst=eye, src=eye_tensor
nc_matmul dst=xt_psum, stationary=x, moving=eye, is_transpose=true, accumulate=false
tensor_copy dst=xt, src=xt_psum
dma_copy dst=xt_tensor, src=xt
"""


def test_transpose_mode_is_bit_accurate(nisa):
    """From the docstring ("Transpose mode"): with an identity moving tile, is_transpose=True
    transposes the stationary tile bit-accurately, NaN and infinities included (NeuronCore-v3+).
    Golden: np.transpose(x), compared bit for bit."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((128, 96)).astype(np.float32)
    x[0, 0], x[1, 5], x[2, 7], x[3, 9] = np.nan, np.inf, -np.inf, -0.0
    out = nisa.run(NASM_TRANSPOSE_MODE, inputs={"x_tensor": x, "eye_tensor": np.eye(128, dtype=np.float32)},
                   outputs=["xt_tensor"])
    np.testing.assert_array_equal(out["xt_tensor"].view(np.uint32), np.transpose(x).view(np.uint32))


if __name__ == "__main__":
    main(globals())
