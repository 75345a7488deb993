"""Public NKI kernels, re-expressed as NKI 0.6 files under kernels/, run
through nisa.nki.install() unchanged and compared with the NumPy goldens of
their public tests (issue 14)."""
import os
import sys

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "kernels"))

import average_pool2d  # noqa: E402
import indirect_dma  # noqa: E402
import layernorm  # noqa: E402
import matmul  # noqa: E402
import range_select  # noqa: E402
import rmsnorm  # noqa: E402
import softmax  # noqa: E402
import tensor_add  # noqa: E402
import transpose2d  # noqa: E402


def rng():
    return np.random.default_rng(14)


def test_tensor_add_matches_float32_sum_rounded_to_float16():
    a = rng().random((256, 1024)).astype(np.float16)
    b = rng().random((256, 1024)).astype(np.float16) * 3
    c = tensor_add.nki_tensor_add(a, b)
    assert c.dtype == np.float16 and c.shape == (256, 1024)
    # S2.1/S2.2: both operands to float32, the sum rounded to float16
    np.testing.assert_array_equal(c, (a.astype(np.float32) + b.astype(np.float32)).astype(np.float16))


def np_average_pool_2D(in_tensor, pool_size):  # the tutorial's reference
    c, h_in, w_in = in_tensor.shape
    reshaped = in_tensor.reshape(c, h_in // pool_size, pool_size, w_in // pool_size, pool_size)
    return np.nanmean(reshaped, axis=(2, 4))


def test_average_pool2d_tutorial_inputs():
    in_tensor = np.arange(2 * 6 * 6, dtype=np.float16).reshape(2, 6, 6)
    out = average_pool2d.tensor_avgpool_kernel(in_tensor, 2)
    assert out.shape == (2, 3, 3)
    assert (out == np_average_pool_2D(in_tensor, 2)).all()


def test_average_pool2d_random_float32():
    in_tensor = rng().standard_normal((128, 12, 18)).astype(np.float32)
    out = average_pool2d.tensor_avgpool_kernel(in_tensor, 3)
    np.testing.assert_allclose(out, np_average_pool_2D(in_tensor, 3), rtol=1e-5, atol=1e-6)


def np_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("rows", [128, 300])
def test_softmax(rows):
    a = rng().standard_normal((rows, 512)).astype(np.float32) * 4
    out = softmax.nki_softmax_kernel(a)
    np.testing.assert_allclose(out, np_softmax(a.astype(np.float64)), rtol=1e-4, atol=1e-6)


def np_layernorm(x, epsilon, gamma, beta):
    x = x.astype(np.float64)
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + epsilon) * gamma + beta


@pytest.mark.parametrize("rows", [128, 200])
def test_layernorm_v1(rows):
    r = rng()
    x = r.random((rows, 512)).astype(np.float32)
    gamma = r.random(512).astype(np.float32)
    beta = r.random(512).astype(np.float32)
    out = layernorm.nki_layernorm_kernel_v1(x, 1e-5, gamma, beta)
    np.testing.assert_allclose(out, np_layernorm(x, 1e-5, gamma, beta), rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("rows", [128, 250])
def test_rmsnorm(rows):
    a = rng().random((rows, 512)).astype(np.float32)
    g = rng().random(512).astype(np.float32)
    out = rmsnorm.nki_rmsnorm_kernel(a, g)
    # the tutorial's one-line NumPy RMSNorm and tolerance
    output_np = a * (1.0 / np.sqrt(np.mean(a * a, axis=1).reshape(a.shape[0], 1))) * g
    assert np.allclose(output_np, out, atol=1e-4, rtol=1e-2)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_range_select_example(dtype):
    # NKI's test_range_select_example golden
    bound0 = np.zeros([128, 1], dtype=np.float32)
    bound1 = np.full([128, 1], 64, dtype=np.float32)
    range_start = 32
    on_true_data = rng().random((128, 512)).astype(dtype)
    result, reduction = range_select.nki_range_select_example(on_true_data, bound0, bound1, np.greater_equal, np.less,
                                                              range_start)
    indices = np.zeros_like(on_true_data, dtype=np.float32)
    indices[:] = range_start + np.arange(on_true_data.shape[1])
    mask = np.greater_equal(indices, bound0) & np.less(indices, bound1)
    golden = np.where(mask, on_true_data, np.float32(-3.4028235e38))
    golden_reduce = np.max(golden, axis=1, keepdims=True)
    with np.errstate(over="ignore"):  # fp32.min is -inf in float16, as in NKI's golden
        assert np.allclose(result, golden.astype(dtype).astype(np.float32))
        assert np.allclose(reduction, golden_reduce.astype(dtype).astype(np.float32))


def test_range_select_chaining():
    # NKI's test_range_select_chaining golden
    on_true_data = rng().random((128, 512)).astype(np.float32)
    range_start = 32
    bound0 = np.zeros([128, 1], dtype=np.float32)
    bound1 = np.full([128, 1], 350, dtype=np.float32)
    result, reduction = range_select.nki_range_select_chaining(on_true_data, bound0, bound1, np.greater_equal,
                                                               np.less, range_start)
    indices = np.zeros_like(on_true_data)
    golden = on_true_data.copy()
    golden_max = np.zeros((on_true_data.shape[0], 1), dtype=on_true_data.dtype)
    selected = golden_max.copy()
    iteration_step_size = on_true_data.shape[0]
    for i in range(3):
        indices[:] = range_start + (i * iteration_step_size) + np.arange(on_true_data.shape[1])
        mask = np.greater_equal(indices, bound0) & np.less(indices, bound1)
        selected = np.where(mask, golden, np.float32(-3.4028235e38))
        golden_max = np.maximum(golden_max, np.max(selected, axis=1, keepdims=True))
        golden = golden + 1
    assert np.allclose(result, selected)
    assert np.allclose(reduction, golden_max)


def test_causal_row_max():
    scores = rng().standard_normal((128, 256)).astype(np.float32)
    masked, row_max = range_select.causal_row_max(scores)
    keep = np.arange(256)[None, :] <= np.arange(128)[:, None]
    golden = np.where(keep, scores, np.float32(-3.4028235e38))
    np.testing.assert_array_equal(masked, golden)
    np.testing.assert_array_equal(row_max, golden.max(axis=1, keepdims=True))


def test_transpose2d_tutorial():
    # the tutorial's own check: np.transpose(a.reshape(P, X, Y), (0, 2, 1)).reshape(P, X * Y)
    P, X, Y = 5, 3, 4
    a = np.arange(P * X * Y, dtype=np.int8).reshape((P, X * Y))
    a_t_nki = transpose2d.tensor_transpose2D_kernel_(a, (X, Y))
    a_t_np = np.transpose(a.reshape(P, X, Y), (0, 2, 1)).reshape(P, X * Y)
    assert a_t_nki.dtype == np.int8
    np.testing.assert_array_equal(a_t_nki, a_t_np)


def test_matmul_basic_tutorial():
    # the tutorial's golden: np.matmul(lhs_small.T, rhs_small) (bfloat16 in the
    # tutorial; float32 here, NumPy having no bfloat16), allclose with its atol 1e-4, rtol 1e-2
    lhs_small = rng().random((128, 64)).astype(np.float32)
    rhs_small = rng().random((128, 512)).astype(np.float32)
    out = matmul.nki_matmul_basic_(lhs_small, rhs_small)
    assert out.shape == (64, 512)
    assert np.allclose(out, np.matmul(lhs_small.T, rhs_small), atol=1e-4, rtol=1e-2)


def test_matmul_tiled_tutorial_accumulates_over_k_in_psum():
    lhs = rng().random((256, 128)).astype(np.float32)   # K = 256: two accumulating nc_matmul per tile
    rhs = rng().random((256, 1024)).astype(np.float32)  # N = 1024: two result tiles
    out = matmul.nki_matmul_tiled_(lhs, rhs)
    golden = lhs.astype(np.float64).T @ rhs.astype(np.float64)
    assert np.allclose(out, golden, atol=1e-4, rtol=1e-5)


def test_indirect_gather_docstring_kernel():
    data = rng().random((100, 32)).astype(np.float32)
    indices = rng().integers(0, 100, size=(128, 1)).astype(np.uint32)
    out = indirect_dma.indirect_gather_kernel(data, indices)
    np.testing.assert_array_equal(out, data[indices[:, 0]])  # partition p holds row indices[p]


def test_indirect_scatter_docstring_kernel():
    src = rng().random((64, 16)).astype(np.float32)
    indices = rng().permutation(200)[:64].reshape(64, 1).astype(np.uint32)  # distinct rows
    output = np.zeros((200, 16), dtype=np.float32)
    out = indirect_dma.indirect_scatter_kernel(src, indices, output)
    golden = np.zeros((200, 16), dtype=np.float32)
    golden[indices[:, 0]] = src
    np.testing.assert_array_equal(out, golden)


def test_scalar_dynamic_access_example():
    a = rng().random((512, 512)).astype(np.float32)
    np.testing.assert_array_equal(indirect_dma.scalar_dynamic_dma(a), a[3 * 128:, 0:256])


def test_dma_compute_sum_and_scatter_add():
    import dma_compute  # NKI 0.6 dma_compute (S12.1)
    a = rng().random((64, 32)).astype(np.float32)
    b = rng().random((64, 32)).astype(np.float16)
    np.testing.assert_array_equal(dma_compute.sum_kernel(a, b), a + b.astype(np.float32))
    src = rng().random((16, 8)).astype(np.float32)
    indices = rng().permutation(40)[:16].reshape(16, 1).astype(np.uint32)  # distinct rows
    output = rng().random((40, 8)).astype(np.float32)
    golden = output.copy()
    golden[indices[:, 0]] += src
    np.testing.assert_array_equal(dma_compute.scatter_add_kernel(src, indices, output), golden)
