"""`t.indirect(index)` (NKI 0.6 Tensor Indirection, NeuronCore-v4;
kernels/tensor_indirect.py) recorded as `.ap(..., indirect=IDX)` and run.
Expected values from NumPy: with one index column, column i of the view is
column index[i, 0] of the tile (NkiTensor.indirect's docstring; the snake
order of docs/SEMANTICS.md S1.7)."""
import os
import sys

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
sys.path.insert(0, KERNELS)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tensor_indirect as k  # noqa: E402
from marked_lines import assert_located  # noqa: E402


def test_gather_columns():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((32, 40)).astype(np.float32)
    cols = rng.integers(0, 40, size=(32, 1)).astype(np.int32)
    np.testing.assert_array_equal(k.gather_columns(x, cols), x[:, cols[:, 0]])


def test_gather_records_an_indirect_ap():
    text = k.gather_columns.to_nasm(np.zeros((32, 40), np.float32), np.zeros((32, 1), np.int32))
    line = next(line for line in text.splitlines() if line.startswith("tensor_copy"))
    assert ".ap(pattern=[[40, 32], [1, 32]], offset=0, indirect=" in line, line


def test_scatter_columns():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((32, 8)).astype(np.float32)
    cols = np.concatenate([rng.permutation(24), np.zeros(8, int)]).astype(np.int32).reshape(32, 1)
    expected = np.zeros((32, 24), np.float32)
    expected[:, cols[:8, 0]] = x
    np.testing.assert_array_equal(k.scatter_columns(x, cols, 24), expected)


def test_an_index_off_a_quadrant_boundary_is_an_error_at_its_line():
    with pytest.raises(nisa.Error, match="quadrant boundary") as e:
        k.index_off_quadrant(np.zeros((32, 16), np.float32))
    assert_located(e.value, k.__file__, "off_quadrant")


def test_indirect_on_hbm_is_refused():
    import nki
    import nki.language as nl

    @nki.jit(platform_target="trn3")
    def on_hbm(x, cols):
        idx = nl.ndarray((4, 1), nl.int32, buffer=nl.sbuf)
        nki.isa.dma_copy(dst=idx, src=cols)
        return x.indirect(idx)

    with pytest.raises(nisa.Error, match="in HBM"):
        on_hbm(np.zeros((4, 8), np.float32), np.zeros((4, 1), np.int32))


def test_tensor_tensor_gathers_data1():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((32, 40)).astype(np.float32)
    y = rng.standard_normal((32, 24)).astype(np.float32)
    cols = rng.integers(0, 40, size=(32, 1)).astype(np.int32)
    np.testing.assert_array_equal(k.gather_subtract(x, y, cols), x[:, cols[:24, 0]] - y)


def test_tensor_scalar_scatters_dst():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((32, 12)).astype(np.float32)
    cols = np.concatenate([rng.permutation(20), np.zeros(12, int)]).astype(np.int32).reshape(32, 1)
    expected = np.zeros((32, 20), np.float32)
    expected[:, cols[:12, 0]] = x * np.float32(2) + np.float32(1)
    np.testing.assert_array_equal(k.scale_scatter(x, cols, 20), expected)


def test_tensor_tensor_data2_refused_at_its_line():
    with pytest.raises(nisa.Error, match="not accepted by tensor_tensor's data2") as e:
        k.indirect_data2(np.zeros((32, 16), np.float32))
    assert_located(e.value, k.__file__, "data2")


def test_activation_gathers_data():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((32, 40)).astype(np.float32)
    cols = rng.integers(0, 40, size=(32, 1)).astype(np.int32)
    np.testing.assert_allclose(k.gather_exp(x, cols), np.exp(x[:, cols[:, 0]].astype(np.float64)), rtol=1e-6)


def test_tensor_scalar_cumulative_gathers_src():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((32, 40)).astype(np.float32)
    cols = rng.integers(0, 40, size=(32, 1)).astype(np.int32)
    np.testing.assert_allclose(k.gather_cumsum(x, cols), np.cumsum(x[:, cols[:, 0]].astype(np.float64), axis=1),
                               rtol=1e-5, atol=1e-5)


def test_tensor_copy_predicated_scatters_where_the_gathered_predicate_is_set():
    rng = np.random.default_rng(9)
    x = rng.standard_normal((32, 16)).astype(np.float32)
    init = rng.standard_normal((32, 40)).astype(np.float32)
    mask = rng.integers(0, 2, size=(32, 40)).astype(np.uint8)
    cols = np.concatenate([rng.permutation(40)[:16], np.zeros(16, np.int64)]).astype(np.int32).reshape(32, 1)
    expected = init.copy()
    c = cols[:16, 0]
    expected[:, c] = np.where(mask[:, c] != 0, x, init[:, c])
    np.testing.assert_array_equal(k.predicated_scatter(x, mask, cols, init), expected)


def test_tensor_reduce_gathers_data():
    rng = np.random.default_rng(10)
    x = rng.standard_normal((32, 40)).astype(np.float32)
    cols = rng.integers(0, 40, size=(32, 1)).astype(np.int32)
    np.testing.assert_array_equal(k.gather_max(x, cols), x[:, cols[:, 0]].max(axis=1, keepdims=True))
