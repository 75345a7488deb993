"""The nki-library harness's own pieces (nki_library_refs.py), checked against
hand-derived values, so that they are trusted without a checkout."""
import math

import numpy as np

import nki_library_refs as refs


def test_max_all_close_uses_the_largest_expected_magnitude():
    # comparators.maxAllClose's docstring example: 1e-4 apart, within 1e-3 * 3.0001 but not 1e-5 * 3.0001
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0001])
    assert refs.max_all_close(a, b, 1e-3, 1e-8)[0]
    passed, largest, allowed = refs.max_all_close(a, b, 1e-5, 1e-8)
    # both sides are read as float32, as the test's OutputValidator reads them
    assert not passed and largest == float(np.float32(3.0001)) - 3.0
    assert math.isclose(allowed, 1e-8 + 1e-5 * float(np.float32(3.0001)))


def test_max_all_close_infinities():
    assert refs.max_all_close(np.array([np.inf, 1.0]), np.array([np.inf, 1.0]), 0, 0)[0]
    assert not refs.max_all_close(np.array([np.inf, 1.0]), np.array([2.0, 1.0]), 1, 1)[0]
    assert not refs.max_all_close(np.array([1.0]), np.array([1.0, 1.0]), 1, 1)[0]


def test_rope_hf_rotates_halves():
    q = np.array([1.0, 2.0, 3.0, 4.0], np.float32).reshape(1, 1, 1, 4)
    ones, zeros = np.ones((1, 1, 4), np.float32), np.zeros((1, 1, 4), np.float32)
    out = refs.rope_hf(q, q, ones, zeros, False, False)["q_out"]
    np.testing.assert_array_equal(out.reshape(-1), [1, 2, 3, 4])
    out = refs.rope_hf(q, q, zeros, ones, False, False)["q_out"]  # rotate_half: [-x2, x1]
    np.testing.assert_array_equal(out.reshape(-1), [-3, -4, 1, 2])
    out = refs.rope_hf(q, q, zeros, ones, True, False)["q_out"]  # backward: [x2, -x1]
    np.testing.assert_array_equal(out.reshape(-1), [3, 4, -1, -2])


def test_rope_pairs_in_both_layouts():
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32).reshape(4, 1, 1, 1)
    cos, sin = np.zeros((2, 1, 1), np.float32), np.ones((2, 1, 1), np.float32)  # a quarter turn: (r, i) -> (-i, r)
    np.testing.assert_array_equal(refs.rope(x, cos, sin, True)["x_out"].reshape(-1), [-3, -4, 1, 2])
    np.testing.assert_array_equal(refs.rope(x, cos, sin, False)["x_out"].reshape(-1), [-2, 1, -4, 3])


def test_find_nonzero_indices_pads_with_minus_one():
    x = np.array([[0, 1], [2, 0], [0, 3]], np.int32)
    out = refs.find_nonzero_indices(x)
    np.testing.assert_array_equal(out["indices"], [[1, -1, -1], [0, 2, -1]])
    np.testing.assert_array_equal(out["nonzero_counts"], [1, 2])
    out = refs.find_nonzero_indices(x, np.array([1], np.int32), 1)
    np.testing.assert_array_equal(out["indices"], [[0, 2, -1]])


def test_cross_entropy_of_equal_logits_is_log_of_the_vocabulary():
    logits = np.zeros((1, 4), np.float32)
    out = refs.cross_entropy_forward(logits, np.array([2]), "float32")
    assert math.isclose(out["loss_hbm"][0], math.log(4), rel_tol=1e-6)
    assert math.isclose(out["lse_state_hbm"][0], math.log(4), rel_tol=1e-6)
    grad = refs.cross_entropy_backward(logits, np.array([2]), "float32", "sum")["grad_logits_hbm"]
    np.testing.assert_allclose(grad, [[0.25, 0.25, -0.75, 0.25]], rtol=1e-6)


def test_conv1d_taps_stride_and_dilation():
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 6)
    w = np.array([1.0, 10.0], np.float32).reshape(2, 1, 1)  # out[l] = x[l*s] + 10 x[l*s + d]
    out = refs.conv1d(x, w, None, 2, (0, 0), 2, None)["out"]
    np.testing.assert_array_equal(out.reshape(-1), [0 + 20, 2 + 40])


def test_mamba_scan_by_hand():
    one = np.ones((1, 1, 2), np.float32)
    a = np.array([[-math.log(2)]], np.float32)  # exp(delta * A) = 1/2
    out = refs.mamba(one, one, a, np.ones((1, 1, 2), np.float32), np.ones((1, 1, 2), np.float32))
    np.testing.assert_allclose(out.reshape(-1), [1.0, 1.5], rtol=1e-6)  # s0 = 1, s1 = s0 / 2 + 1


def test_router_topk_scatters_the_activated_top_k():
    x = np.eye(2, dtype=np.float32)  # [H, T] = identity: logits = w^T rows
    w = np.array([[1.0, 3.0, 2.0], [0.0, -1.0, 5.0]], np.float32)
    out = refs.router_topk(x, w, None, "softmax", 1, False, False, False)
    np.testing.assert_array_equal(out["expert_index"].reshape(-1), [1, 2])
    np.testing.assert_array_equal(out["expert_affinities"], [[0, 1, 0], [0, 0, 1]])


def test_norm_tkg_layouts_by_hand():
    # H = 512 (H1 = 4): LNC1 puts h = p * 4 + j at [p, row, j]; the LNC2 layout lays out each half of H so
    # (h = p * 2 + j, and 256 + p * 2 + j) side by side: [p, row, 0:2] from the first half, [p, row, 2:4] the second
    rows = np.arange(512, dtype=np.float32).reshape(1, 512)
    one = refs._tkg_layout(rows, False)
    two = refs._tkg_layout(rows, False, lnc2_layout=True)
    assert one.shape == two.shape == (128, 1, 4)
    np.testing.assert_array_equal(one[1, 0], [4, 5, 6, 7])
    np.testing.assert_array_equal(two[1, 0], [2, 3, 258, 259])
    np.testing.assert_array_equal(refs._tkg_layout(rows, True)[1, 0], [1, 129, 257, 385])  # h = j * 128 + p


def test_indexed_flatten_places_blocks_and_drops_those_past_the_end():
    x = np.arange(8, dtype=np.int32).reshape(2, 4)  # f_len 2: row 0 is blocks [0 1] [2 3], row 1 [4 5] [6 7]
    out = refs.indexed_flatten(x, 2, 8, np.array([3, 0]))["flattened_array"]
    np.testing.assert_array_equal(out, [4, 5, 6, 7, -1, -1, 0, 1])  # row 0's second block (at 4) is past the end
    out = refs.indexed_flatten(x[:1], 2, 6, np.array([9, 1]), np.array([1]))["flattened_array"]
    np.testing.assert_array_equal(out, [-1, -1, 0, 1, 2, 3])  # row_offsets_start 1: row 0 at offset 1


def test_depthwise_conv1d_per_channel_taps_padding_and_stride():
    img = np.array([1, 2, 3, 4, 5], np.float32).reshape(1, 1, 1, 5)
    taps = np.array([1, 10], np.float32).reshape(1, 1, 1, 2)  # out[q] = x[q*s] + 10 x[q*s + 1]
    out = refs.depthwise_conv1d(img, taps, ((0, 0), (0, 0)), (1, 2))["output"]
    np.testing.assert_array_equal(out.reshape(-1), [21, 43])
    out = refs.depthwise_conv1d(img, taps, ((0, 0), (1, 1)), (1, 1))["output"]  # zero on each side
    np.testing.assert_array_equal(out.reshape(-1), [10, 21, 32, 43, 54, 5])
    two = np.concatenate([img, 2 * img], axis=1)  # a second channel with its own taps
    w = np.concatenate([taps, -taps], axis=0)
    out = refs.depthwise_conv1d(two, w, ((0, 0), (0, 0)), (1, 4))["output"]
    np.testing.assert_array_equal(out.reshape(2, -1), [[21], [-42]])
