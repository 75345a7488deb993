"""Runtime indices on reshaped views (issue 27; kernels/reshaped_indirect.py):
the index moves by the stride of the view's dimension indirect_dim (NKI 0.6
`.ap`: "dimension in self.shape whose stride scales the indirect offset"),
recorded as `index_stride=` when the declared tensor has no dimension of
that stride. Expected values from NumPy: row r of x.reshape((B*S, D)) is
x[r // S, r % S]; element i of x.reshape((N,)) is x.reshape(-1)[i]."""
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

import reshaped_indirect as k  # noqa: E402
from marked_lines import assert_located  # noqa: E402


def test_topk_scatter_into_a_flattened_view():
    # token t picks experts (1, 3), (0, 2), (3, 0), (2, 1): flat positions t*4 + e
    positions = np.array([[1, 3], [4, 6], [11, 8], [14, 13]], np.int32)
    topk = np.array([[0.5, 0.25], [0.75, 0.125], [1.5, 2.5], [3.0, 4.0]], np.float32)
    expected = np.array([[0, 0.5, 0, 0.25],
                         [0.75, 0, 0.125, 0],
                         [2.5, 0, 0, 1.5],
                         [0, 4.0, 3.0, 0]], np.float32)
    np.testing.assert_array_equal(k.topk_scatter(positions, topk, 4), expected)


def test_topk_scatter_records_index_stride_1_and_an_ap_index():
    text = k.topk_scatter.to_nasm(np.zeros((4, 2), np.int32), np.zeros((4, 2), np.float32), 4)
    scatters = [line for line in text.splitlines() if "vector_offset" in line]
    assert len(scatters) == 2
    for column, line in enumerate(scatters):
        assert f".ap(pattern=[[2, 4], [1, 1], [1, 1]], offset={column}), indirect_dim=0, index_stride=1)" in line, line


def test_a_topk_position_outside_the_view_is_a_runtime_fault():
    positions = np.array([[1, 3], [4, 6], [11, 16], [14, 13]], np.int32)  # 16: past T*E
    with pytest.raises(nisa.Error, match=r"index 16 \(partition 2\)"):
        k.topk_scatter(positions, np.ones((4, 2), np.float32), 4)


def test_kv_cache_read_gathers_rows_of_the_reshape():
    cache = np.random.default_rng(5).standard_normal((2, 6, 8)).astype(np.float32)
    rows = np.array([[11], [0], [6], [5], [6]], np.uint32)
    r = rows[:, 0]
    np.testing.assert_array_equal(k.kv_cache_read(cache, rows), cache[r // 6, r % 6])
    assert "index_stride=8)" in k.kv_cache_read.to_nasm(cache, rows)


def test_kv_cache_update_scatters_rows_in_place():
    cache = np.random.default_rng(6).standard_normal((3, 4, 16)).astype(np.float32)
    rows = np.array([[9], [2], [4]], np.int32)
    new = np.random.default_rng(7).standard_normal((3, 16)).astype(np.float32)
    expected = cache.copy()
    r = rows[:, 0]
    expected[r // 4, r % 4] = new
    k.kv_cache_update(cache, rows, new)
    np.testing.assert_array_equal(cache, expected)


def test_scalar_offset_on_a_1d_reshape_moves_by_elements():
    data = np.arange(48, dtype=np.float32).reshape(6, 8)
    for start in (0, 5, 37):
        out = k.window_of_flat(data, np.array([[start]], np.int32), 11)
        np.testing.assert_array_equal(out, data.reshape(-1)[start:start + 11].reshape(1, 11))


def test_an_index_on_a_broadcast_dimension_is_refused():
    with pytest.raises(nisa.Error) as info:
        k.index_on_a_broadcast(np.zeros((4, 8), np.float32), np.zeros((4, 1), np.int32))
    assert_located(info.value, os.path.join(KERNELS, "reshaped_indirect.py"), "broadcast")
    assert "has stride 0" in info.value.message
