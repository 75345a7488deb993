"""nki.language's computation calls lowered to several instructions
(python/nisa/nki/_lowering.py; partition broadcast in _tensor.py): each
against a NumPy reference written here from NKI 0.6's documented formula.
Exact where the lowering is exact; a tolerance only where it goes through an
approximation (the activation table, S5; float32 sums in another order), each
saying why. Bad arguments raise nisa.Error at the kernel's line."""
import os
import sys

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
import nki  # noqa: E402
import nki.isa as ni  # noqa: E402
import nki.language as nl  # noqa: E402
from marked_lines import assert_located  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import ref_random  # noqa: E402  (the NumPy model of the generators, SEMANTICS.md S11.5)

THIS_FILE = os.path.abspath(__file__)
# S5: activation functions are within rtol 1e-5 of the true function.
ACTIVATION_RTOL = 1e-5


def rng():
    return np.random.default_rng(27)


def _store(t):
    out = nl.ndarray(t.shape, dtype=t.dtype, buffer=nl.shared_hbm)
    nl.store(out, t)
    return out


@nki.jit
def on_tiles(call, a, b=None, c=None):
    """Loads the arrays given, applies call to their tiles, stores the result(s)."""
    result = call(*[nl.load(t) for t in (a, b, c) if t is not None])
    return tuple(_store(t) for t in result) if isinstance(result, tuple) else _store(result)


def text_of(call, *arrays):
    return nisa.nki.to_nasm(on_tiles, call, *arrays)


def instructions(text):
    return [line.split()[0] for line in text.splitlines() if line and not line.startswith((".", ";"))]


# --- where ------------------------------------------------------------------------------
def test_where_takes_x_where_the_condition_is_nonzero():
    r = rng()
    x, y = r.standard_normal((128, 64)).astype(np.float32), r.standard_normal((128, 64)).astype(np.float32)
    cond = r.choice(np.array([0.0, 1.0, -0.0, 0.5, np.nan, -2.0], np.float32), (128, 64))
    out = on_tiles(lambda c, a, b: nl.where(c, a, b), cond, x, y)
    # NKI: "elements chosen from x or y depending on condition"; nonzero (NaN too) is true, as numpy.where
    np.testing.assert_array_equal(out, np.where(cond != 0, x, y))
    text = text_of(lambda c, a, b: nl.where(c, a, b), cond, x, y)
    # y copied in, then x copied where the u8 predicate (condition != 0) holds
    assert instructions(text)[3:6] == ["tensor_scalar", "tensor_copy", "tensor_copy_predicated"]
    assert "op0=not_equal" in text


def test_where_with_a_u8_condition_numbers_and_a_dtype():
    r = rng()
    cond = (r.random((128, 32)) < 0.5).astype(np.uint8)
    x = r.standard_normal((128, 32)).astype(np.float32)
    out = on_tiles(lambda c, a: nl.where(c, a, -1.5), cond, x)
    np.testing.assert_array_equal(out, np.where(cond != 0, x, np.float32(-1.5)))
    out = on_tiles(lambda c, a: nl.where(c, 7.0, a, dtype=nl.float16), cond, x)
    assert out.dtype == np.float16
    # y converted to float16 (round to nearest even, S2.2); the number 7 exactly
    np.testing.assert_array_equal(out, np.where(cond != 0, np.float16(7), x.astype(np.float16)))
    assert "op0=not_equal" not in text_of(lambda c, a: nl.where(c, a, -1.5), cond, x)  # a u8 condition is the predicate


def test_where_copies_integers_bit_exactly():
    cond = np.tile(np.array([1, 0], np.int32), (128, 8))
    x = np.full((128, 16), 2 ** 24 + 1, np.int32)  # not a float32: a float32 route would round it
    y = np.full((128, 16), -(2 ** 31), np.int32)
    np.testing.assert_array_equal(on_tiles(lambda c, a, b: nl.where(c, a, b), cond, x, y), np.where(cond != 0, x, y))


# --- transpose and matmul -------------------------------------------------------------
@pytest.mark.parametrize("shape, engine", [((64, 100), "tensor"), ((20, 30), "vector"), ((128, 128), "tensor")])
def test_transpose_swaps_partitions_and_free_elements(shape, engine):
    x = rng().standard_normal(shape).astype(np.float32)
    x[0, :3] = [np.nan, np.inf, -0.0]
    out = on_tiles(lambda t: nl.copy(nl.transpose(t)), x)
    np.testing.assert_array_equal(out.view(np.uint32), x.T.view(np.uint32))  # bits exactly (nc_transpose, S8.4)
    text = text_of(lambda t: nl.copy(nl.transpose(t)), x)
    # NKI 0.6 nc_transpose: the engine is chosen by the shape, Vector for [32, 32] or smaller
    assert f"engine={engine}" in text and any(line.startswith(".psum ") for line in text.splitlines())


def test_transpose_with_a_dtype_converts_first():
    x = rng().standard_normal((16, 48)).astype(np.float32)
    out = on_tiles(lambda t: nl.copy(nl.transpose(t, dtype=nl.float16)), x)
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, x.T.astype(np.float16))


def small_integers(shape, seed):
    # Integer values: every product and partial sum is exact in float32, so
    # the result is exact whatever the order of the sum.
    return np.random.default_rng(seed).integers(-4, 5, shape).astype(np.float32)


def test_matmul_with_transpose_x_is_x_transposed_times_y():
    x, y = small_integers((64, 96), 1), small_integers((64, 200), 2)
    out = on_tiles(lambda a, b: nl.copy(nl.matmul(a, b, transpose_x=True)), x, y)
    assert out.shape == (96, 200) and out.dtype == np.float32
    np.testing.assert_array_equal(out, x.T @ y)
    text = text_of(lambda a, b: nl.matmul(a, b, transpose_x=True), x, y)
    assert instructions(text).count("nc_transpose") == 0 and "accumulate=false" in text


def test_matmul_without_transpose_x_inserts_a_transpose():
    x, y = small_integers((32, 64), 3), small_integers((64, 128), 4)
    out = on_tiles(lambda a, b: nl.copy(nl.matmul(a, b)), x, y)
    np.testing.assert_array_equal(out, x @ y)
    # NKI 0.6: "an additional transpose will be inserted"
    assert instructions(text_of(lambda a, b: nl.matmul(a, b), x, y)).count("nc_transpose") == 1


def test_matmul_results_do_not_accumulate():
    x, y = small_integers((64, 64), 5), small_integers((64, 64), 6)
    # Two products into PSUM tiles whose places may be reused: each is its own sum
    out = on_tiles(lambda a, b: (nl.copy(nl.matmul(a, b, transpose_x=True)), nl.copy(nl.matmul(b, a, transpose_x=True))),
                   x, y)
    np.testing.assert_array_equal(out[0], x.T @ y)
    np.testing.assert_array_equal(out[1], y.T @ x)


@nki.jit
def attention(q, k, v):
    """softmax(q.T @ k) @ v.T with nki.language calls only, as the nki-samples
    attention tutorial's first version does ([d_head, seqlen] inputs)."""
    scores = nl.softmax(nl.matmul(nl.load(q), nl.load(k), transpose_x=True), axis=1)
    return _store(nl.copy(nl.matmul(scores, nl.transpose(nl.load(v)))))


def test_attention_from_language_calls():
    r = rng()
    q, k, v = (r.standard_normal((128, 128)).astype(np.float32) for _ in range(3))
    # float32 sums of 128 products and the activation exp (S5): a few ulps of the float64 formula
    np.testing.assert_allclose(attention(q, k, v), np_softmax(q.T.astype(np.float64) @ k, 1) @ v.T,
                               rtol=1e-4, atol=2e-5)


# --- softmax, rms_norm, var, all -------------------------------------------------------
def np_softmax(x, axis):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("shape, axis", [((128, 512), 1), ((64, 4, 32), 2), ((64, 4, 32), (1, 2)), ((16, 40), -1)])
def test_softmax(shape, axis):
    x = (rng().standard_normal(shape) * 4).astype(np.float32)
    out = on_tiles(lambda t: nl.softmax(t, axis=axis), x)
    # exp is an activation (S5, rtol 1e-5); the float32 sum and reciprocal add a few ulps
    np.testing.assert_allclose(out, np_softmax(x, axis if isinstance(axis, int) else tuple(axis)),
                               rtol=2e-5, atol=1e-7)


@pytest.mark.parametrize("w_rows", [128, 1])
def test_rms_norm(w_rows):
    r = rng()
    x = r.standard_normal((128, 256)).astype(np.float32)
    w = r.standard_normal((w_rows, 256)).astype(np.float32)
    out = on_tiles(lambda a, b: nl.rms_norm(a, b, axis=1, n=256, epsilon=1e-5), x, w)
    x64 = x.astype(np.float64)
    expected = x64 / np.sqrt((x64 ** 2).sum(axis=1, keepdims=True) / 256 + 1e-5) * w  # NKI: x / RMS(x) * w
    # rsqrt is an activation (S5, rtol 1e-5); the float32 sum of squares adds a few ulps
    np.testing.assert_allclose(out, expected, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("shape, axis", [((128, 64), 1), ((128, 1300), 1), ((32, 3, 100), 2), ((32, 3, 100), (1, 2)),
                                         ((16, 8, 2, 300), (2, 3))])
def test_var_is_the_biased_variance_with_kept_dims(shape, axis):
    x = (rng().standard_normal(shape) * 3 + 1).astype(np.float32)
    out = on_tiles(lambda t: nl.var(t, axis=axis), x)
    # NKI 0.6: "result always has keepdims=True shape"
    expected = x.astype(np.float64).var(axis=axis, keepdims=True)
    assert out.shape == expected.shape
    # bn_stats/bn_aggr combine float32 partial statistics (Chan's update): not the float64 two-pass value
    np.testing.assert_allclose(out, expected, rtol=2e-5)


def test_var_of_a_strided_view():
    x = rng().standard_normal((64, 200)).astype(np.float32)
    out = on_tiles(lambda t: nl.var(t[:, 0:200:2], axis=1), x)
    np.testing.assert_allclose(out, x[:, ::2].astype(np.float64).var(axis=1, keepdims=True), rtol=2e-5)


def test_all_is_a_logical_and_reduction():
    x = (rng().random((128, 3, 4)) < 0.9).astype(np.float32)
    x[0] = 1.0
    x[1, 2, 3] = np.nan  # nonzero: true (S2.5)
    out = on_tiles(lambda t: nl.all(t, axis=2), x)
    np.testing.assert_array_equal(out, np.all(x != 0, axis=2).astype(np.float32))


# --- element-wise calls -------------------------------------------------------------------
def test_logical_not_is_xor_with_one():
    f = np.array([[0.0, 1.0, 0.0, 1.0]] * 128, np.float32)
    np.testing.assert_array_equal(on_tiles(nl.logical_not, f), 1.0 - f)
    i = np.array([[0, 1, 1, 0]] * 128, np.int32)
    np.testing.assert_array_equal(on_tiles(nl.logical_not, i), i ^ 1)  # NKI: "Implemented as XOR with 1"


def special_values():
    x = (rng().standard_normal((128, 64)) * 10).astype(np.float32)
    x[0, :14] = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.0, -3.0, 1e9, -1e9, np.inf, -np.inf, 8388607.5, -8388607.5]
    x[1, :4] = [3e38, -3e38, 2.0 ** 31, -(2.0 ** 31) - 256]
    x[2, :3] = [np.nan, 0.0, 1e-30]
    return x


@pytest.mark.parametrize("name", ["floor", "ceil", "trunc"])
def test_rounding_is_exact(name):
    x = special_values()
    out = on_tiles(getattr(nl, name), x)
    # exact, NaN and infinities included (assert_array_equal: NaN equals NaN; the sign of a zero is not compared)
    np.testing.assert_array_equal(out, getattr(np, name)(x))


def test_rounding_to_an_integer_dtype():
    x = np.array([[-2.5, -0.5, 0.5, 2.5, 7.9]] * 4, np.float32)
    np.testing.assert_array_equal(on_tiles(lambda t: nl.floor(t, dtype=nl.int32), x), np.floor(x).astype(np.int32))


def test_cos_and_tan():
    x = np.linspace(-4.5, 4.5, 128 * 32).astype(np.float32).reshape(128, 32)  # within |x| <= 3pi/2
    # cos = sin(pi/2 - |x|): pi/2 - |x| is rounded to float32 (an absolute error of at most 2^-22 here) and
    # sin is an activation (S5)
    np.testing.assert_allclose(on_tiles(nl.cos, x), np.cos(x.astype(np.float64)), rtol=ACTIVATION_RTOL, atol=5e-7)
    t = np.linspace(-1.4, 1.4, 128 * 32).astype(np.float32).reshape(128, 32)
    np.testing.assert_allclose(on_tiles(nl.tan, t), np.tan(t.astype(np.float64)), rtol=1e-5, atol=5e-7)


def test_copy_keeps_integers_exactly():
    x = np.arange(128 * 8, dtype=np.int32).reshape(128, 8) + 2 ** 30 + 1  # not float32 values
    np.testing.assert_array_equal(on_tiles(nl.copy, x), x)
    np.testing.assert_array_equal(on_tiles(lambda t: nl.copy(t, dtype=nl.float16), x.astype(np.float32) * 0 + 3.25),
                                  np.full((128, 8), 3.25, np.float16))


def test_divide_by_a_tile_is_a_multiply_by_its_reciprocal():
    r = rng()
    x = r.standard_normal((128, 64)).astype(np.float32)
    y = r.standard_normal((128, 64)).astype(np.float32)
    y[0, 0] = 1e-20  # outside the activation table's reciprocal range (S5): the Vector Engine's is exact
    out = on_tiles(lambda a, b: a / b, x, y)
    # nisa has no divide: x * (1/y), each rounded to float32 (documented in README)
    np.testing.assert_array_equal(out, x * (np.float32(1) / y))


def test_bitwise_operators_keep_an_integer_scalar():
    x = np.full((128, 4), -1, np.int32)
    out = on_tiles(lambda t: nl.bitwise_and(t, 0x7FFFFFF1), x)  # 0x7FFFFFF1 is not a float32
    np.testing.assert_array_equal(out, x & 0x7FFFFFF1)


# --- gather_flattened and load_transpose2d -------------------------------------------------
@pytest.mark.parametrize("index_dtype", [np.uint32, np.int32])
def test_gather_flattened(index_dtype):
    data = rng().standard_normal((32, 64)).astype(np.float32)
    indices = (np.arange(10) * 5 + np.arange(32)[:, None] % 7).astype(index_dtype)
    out = on_tiles(lambda d, i: nl.gather_flattened(d, i), data, indices)
    np.testing.assert_array_equal(out, np.take_along_axis(data, indices.astype(np.int64), axis=-1))  # NKI's example


@nki.jit
def load_transposed(a):
    return _store(nl.load_transpose2d(a))


@pytest.mark.parametrize("dtype, lowering", [(np.float16, "dma_transpose"), (np.float32, "nc_transpose")])
def test_load_transpose2d(dtype, lowering):
    a = rng().standard_normal((96, 64)).astype(dtype)
    np.testing.assert_array_equal(load_transposed(a), a.T)
    assert lowering in instructions(nisa.nki.to_nasm(load_transposed, a))


# --- partition broadcast ------------------------------------------------------------------
@nki.jit
def broadcast_rows(a, row, partitions, in_psum):
    tile = nl.load(a)
    if in_psum:
        held = nl.ndarray(tile.shape, dtype=tile.dtype, buffer=nl.psum)
        ni.tensor_copy(dst=held, src=tile)
        tile = held
    return _store(nl.copy(nl.broadcast_to(tile[row:row + 1, :], (partitions, tile.shape[1]))))


@pytest.mark.parametrize("row, partitions, in_psum", [(0, 128, False), (5, 100, False), (37, 20, True), (64, 33, False)])
def test_broadcast_to_across_partitions_copies_bits(row, partitions, in_psum):
    a = rng().integers(-2 ** 31, 2 ** 31 - 1, (96, 24)).astype(np.int32)  # any bits: an int32 tile
    a = a.astype(np.float32) if in_psum else a
    out = broadcast_rows(a, row, partitions, in_psum)
    np.testing.assert_array_equal(out, np.repeat(a[row:row + 1], partitions, axis=0))
    text = nisa.nki.to_nasm(broadcast_rows, a, row, partitions, in_psum)
    # the NKI Library's stream_shuffle_broadcast: one shuffle per quadrant of 32 partitions
    assert instructions(text).count("nc_stream_shuffle") == -(-partitions // 32)


@nki.jit
def broadcast_a_scalar(a):
    tile = nl.load(a)  # [1, 1]
    return _store(nl.broadcast_to(tile, (128, 16), dtype=nl.float16)), _store(tile.broadcast_to((64, 8)))


def test_broadcast_to_of_one_element_with_a_dtype():
    a = np.array([[2.5]], np.float32)
    wide, method = broadcast_a_scalar(a)
    np.testing.assert_array_equal(wide, np.full((128, 16), 2.5, np.float16))
    np.testing.assert_array_equal(method, np.full((64, 8), 2.5, np.float32))  # the tensor method does the same


# --- random numbers ----------------------------------------------------------------------
@nki.jit
def seeded_draws(seed, platform=None):
    nl.random_seed(seed)
    first = nl.rand((128, 48), dtype=nl.float32)
    second = nl.rand((64, 8), dtype=nl.float32)
    return _store(first), _store(second)


def expected_draws(seed, shapes):
    state = ref_random.seeded(seed, "vector")
    return [ref_random.unit(ref_random.draw(state, np.arange(p), f)) for p, f in shapes]


def test_rand_follows_the_seed():
    first, second = seeded_draws(1234)
    want = expected_draws(1234, [(128, 48), (64, 8)])
    # nl.rand: uniform in [0, 1), u = (b >> 8) * 2^-24 of the generators' bits (S11.5)
    np.testing.assert_array_equal(first, want[0])
    np.testing.assert_array_equal(second, want[1])
    assert 0.0 <= first.min() and first.max() < 1.0


@nki.jit
def seed_from_a_tile(seeds):
    seed = nl.load(seeds)
    nl.random_seed(seed)
    return _store(nl.rand((32, 16), dtype=nl.float32))


def test_random_seed_from_a_tile_and_without_a_seed():
    np.testing.assert_array_equal(seed_from_a_tile(np.array([[99]], np.int32)), expected_draws(99, [(32, 16)])[0])

    @nki.jit
    def unseeded():
        return _store(nl.rand((32, 16)))  # older kernels leave the dtype out

    # nisa's generators start seeded with 0 (S11.5): the same values on every run
    np.testing.assert_array_equal(unseeded(), expected_draws(0, [(32, 16)])[0])


def test_rand_is_the_same_where_rand2_exists():
    trn3 = nki.jit(seeded_draws.__wrapped__, platform_target="trn3")
    text = nisa.nki.to_nasm(trn3, 5)
    assert "rand2" in instructions(text) and "rng" not in instructions(text)
    assert "rng" in instructions(nisa.nki.to_nasm(seeded_draws, 5))
    for got, want in zip(trn3(5), seeded_draws(5)):
        np.testing.assert_array_equal(got, want)


@nki.jit
def seeded_dropout(a, rates, seed):
    nl.random_seed(seed)
    x = nl.load(a)
    return _store(nl.dropout(x, 0.3)), _store(nl.dropout(x, nl.load(rates)))


def test_dropout_zeroes_where_the_draw_is_below_the_rate():
    a = rng().standard_normal((128, 40)).astype(np.float32)
    rates = np.linspace(0, 1, 128, dtype=np.float32).reshape(128, 1)
    scalar, per_partition = seeded_dropout(a, rates, 77)
    state = ref_random.seeded(77, "vector")
    u1 = ref_random.unit(ref_random.draw(state, np.arange(128), 40))
    u2 = ref_random.unit(ref_random.draw(state, np.arange(128), 40))
    # dropped where u < rate, kept values not rescaled (S11.8)
    np.testing.assert_array_equal(scalar, np.where(u1 < np.float32(0.3), 0, a))
    np.testing.assert_array_equal(per_partition, np.where(u2 < rates, 0, a))


# --- bad arguments: nisa.Error at the kernel's line ---------------------------------------------
@nki.jit
def where_of_a_string(a):
    t = nl.load(a)
    nl.where(t, "x", t)  # LINE where_of_a_string


@nki.jit
def matmul_mismatch(a):
    t = nl.load(a)
    nl.matmul(t, t[0:64, :], transpose_x=True)  # LINE matmul_mismatch


@nki.jit
def transpose_too_large(a):
    t = nl.load(a)
    nl.transpose(t.reshape((128, 256)))  # LINE transpose_too_large


@nki.jit
def var_of_the_partition_axis(a):
    nl.var(nl.load(a), axis=0)  # LINE var_of_the_partition_axis


@nki.jit
def rand_in_hbm(a):
    nl.rand((128, 4), dtype=nl.float32, buffer=nl.shared_hbm)  # LINE rand_in_hbm


@nki.jit
def seed_of_a_wide_tile(a):
    nl.random_seed(nl.load(a))  # LINE seed_of_a_wide_tile


@nki.jit
def dropout_rate_above_one(a):
    nl.dropout(nl.load(a), 1.5)  # LINE dropout_rate_above_one


@nki.jit
def rms_norm_of_zero_values(a):
    t = nl.load(a)
    nl.rms_norm(t, t, axis=1, n=0)  # LINE rms_norm_of_zero_values


@nki.jit
def gather_with_float_indices(a):
    t = nl.load(a)
    nl.gather_flattened(t, t)  # LINE gather_with_float_indices


@nki.jit
def fmod_is_not_modeled(a):
    t = nl.load(a)
    nl.fmod(t, 2.0)  # LINE fmod_is_not_modeled


@nki.jit
def load_transpose2d_of_a_tile(a):
    nl.load_transpose2d(nl.load(a))  # LINE load_transpose2d_of_a_tile


@nki.jit
def softmax_of_hbm(a):
    nl.softmax(a, axis=1)  # LINE softmax_of_hbm


@nki.jit
def broadcast_of_two_partitions(a):
    nl.broadcast_to(nl.load(a)[0:2, :], (128, 256))  # LINE broadcast_of_two_partitions


@nki.jit
def where_with_unknown_keyword(a):
    t = nl.load(a)
    nl.where(t, t, t, bogus=1)  # LINE where_with_unknown_keyword


BAD = [where_of_a_string, matmul_mismatch, transpose_too_large, var_of_the_partition_axis, rand_in_hbm,
       seed_of_a_wide_tile, dropout_rate_above_one, rms_norm_of_zero_values, gather_with_float_indices,
       fmod_is_not_modeled, load_transpose2d_of_a_tile, softmax_of_hbm, broadcast_of_two_partitions,
       where_with_unknown_keyword]


@pytest.mark.parametrize("kernel", BAD, ids=lambda k: k.__name__)
def test_bad_arguments_raise_nisa_error_at_the_kernel_line(kernel):
    with pytest.raises(nisa.Error) as info:
        kernel(np.ones((128, 256), np.float32))
    assert_located(info.value, THIS_FILE, kernel.__name__)
