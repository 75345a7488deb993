"""bf16 and fp8 NumPy arrays in and out (issue 27, LANGUAGE.md 4): ml_dtypes'
bfloat16, float8_e4m3, float8_e4m3fn and float8_e5m2 arrays fill tensors of
those dtypes bit for bit, such outputs come back as ml_dtypes arrays, and
`nisa run --dump --dump-dtypes=ml_dtypes` writes files of them that np.load
reads back with ml_dtypes (test_ml_dtypes_absent.py: without ml_dtypes).

Every expected bit pattern here is derived by hand from the formats of
SEMANTICS S2.2 (sign, exponent with its bias, mantissa), so a dtype mapped to
the wrong ml_dtypes type (e4m3 for e4m3fn: 0x78 is inf in one, 256 in the
other) fails."""
import os
import subprocess

import numpy as np
import pytest

import nisa
import nisa.nki

ml_dtypes = pytest.importorskip("ml_dtypes")

nisa.nki.install()
import nki  # noqa: E402
import nki.isa as ni  # noqa: E402
import nki.language as nl  # noqa: E402

INF, NAN = float("inf"), float("nan")

# .nasm dtype -> (ml_dtypes type, NumPy type of its bits, [(value, bits)]).
# bf16: 1,8,7 bias 127. fp8e4m3: 1,4,3 bias 7, all-ones exponent inf/NaN (IEEE).
# fp8e4m3fn: 1,4,3 bias 7, no inf, S.1111.111 NaN. fp8e5m2: 1,5,2 bias 15 (IEEE).
FORMATS = {
    "bf16": (ml_dtypes.bfloat16, np.uint16, [
        (1.0, 0x3F80), (-2.5, 0xC020), (3.3895313892515355e38, 0x7F7F), (INF, 0x7F80), (-INF, 0xFF80),
        (2.0 ** -133, 0x0001), (-0.0, 0x8000), (0.5, 0x3F00), (NAN, 0x7FC0)]),
    "fp8e4m3": (ml_dtypes.float8_e4m3, np.uint8, [
        (1.0, 0x38), (-2.5, 0xC2), (240.0, 0x77), (INF, 0x78), (-INF, 0xF8), (2.0 ** -9, 0x01),
        (-0.0, 0x80), (0.5, 0x30), (NAN, 0x7F)]),
    "fp8e4m3fn": (ml_dtypes.float8_e4m3fn, np.uint8, [
        (1.0, 0x38), (-2.5, 0xC2), (448.0, 0x7E), (256.0, 0x78), (-448.0, 0xFE), (2.0 ** -9, 0x01),
        (-0.0, 0x80), (0.5, 0x30), (NAN, 0x7F)]),
    "fp8e5m2": (ml_dtypes.float8_e5m2, np.uint8, [
        (1.0, 0x3C), (-2.5, 0xC1), (57344.0, 0x7B), (INF, 0x7C), (-INF, 0xFC), (2.0 ** -16, 0x01),
        (-0.0, 0x80), (0.5, 0x38), (NAN, 0x7E)]),
}


def bits_of(array):
    """The raw bits of a bf16 (uint16) or fp8 (uint8) array, ml_dtypes' or raw."""
    return array.view(np.uint16 if array.dtype.itemsize == 2 else np.uint8)


def same_floats(actual, expected):
    """Equal values, NaN where NaN, and the sign of every zero."""
    a, e = np.asarray(actual, np.float64), np.asarray(expected, np.float64)
    return np.array_equal(a, e, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(e))


def program(dtype, shape):
    """x (dtype) in; y: x copied (no conversion), f: x as float32, z: f
    converted back to dtype; v: w (float32) converted to dtype."""
    s = list(shape)
    return f"""\
.hbm x {dtype} {s} input
.hbm w f32 {s} input
.hbm y {dtype} {s} output
.hbm f f32 {s} output
.hbm z {dtype} {s} output
.hbm v {dtype} {s} output
.sbuf t {dtype} {s}
.sbuf u f32 {s}
.sbuf b {dtype} {s}
.sbuf ws f32 {s}
.sbuf vs {dtype} {s}
dma_copy dst=t, src=x
dma_copy dst=y, src=t
tensor_copy dst=u, src=t
dma_copy dst=f, src=u
tensor_copy dst=b, src=u
dma_copy dst=z, src=b
dma_copy dst=ws, src=w
tensor_copy dst=vs, src=ws
dma_copy dst=v, src=vs
"""


@pytest.mark.parametrize("dtype", sorted(FORMATS))
def test_each_dtype_is_its_ml_dtypes_type_by_hand_derived_bits(dtype):
    ml_type, bits_type, table = FORMATS[dtype]
    values = np.array([[v for v, _ in table]], np.float32)
    bits = np.array([[b for _, b in table]], bits_type)
    number = ~np.isnan(values)  # which NaN code a conversion makes is not specified (S2.1)
    # ml_dtypes itself agrees with the hand table (bits -> values, values -> bits)...
    assert same_floats(bits.view(ml_type).astype(np.float32), values)
    assert np.array_equal(bits_of(values.astype(ml_type))[number], bits[number])
    # ...and so does nisa: the array's bits are the tensor's, whose float32 values are the table's.
    out = nisa.run(program(dtype, bits.shape), {"x": bits.view(ml_type), "w": values})
    assert out["y"].dtype == ml_type and out["f"].dtype == np.float32
    assert np.array_equal(bits_of(out["y"]), bits)
    assert same_floats(out["f"], values)
    assert np.array_equal(bits_of(out["z"])[number], bits[number])
    # A float32 array of the table's values, converted by nisa (S2.2), gives the table's bits.
    assert np.array_equal(bits_of(out["v"])[number], bits[number])
    assert np.isnan(out["v"].astype(np.float32)[~number]).all()


@pytest.mark.parametrize("dtype", sorted(FORMATS))
def test_every_code_round_trips_bit_for_bit(dtype):
    ml_type, bits_type, _ = FORMATS[dtype]
    codes = np.arange(np.iinfo(bits_type).max + 1, dtype=np.uint32).astype(bits_type).reshape(128, -1)
    x = codes.view(ml_type)
    nan = np.isnan(x.astype(np.float32))
    out = nisa.run(program(dtype, codes.shape), {"x": x, "w": np.zeros(codes.shape, np.float32)})
    assert np.array_equal(bits_of(out["y"]), codes)  # copied: every code, NaN payloads included
    assert same_floats(out["f"][~nan], x.astype(np.float32)[~nan])  # widened as ml_dtypes widens
    assert np.isnan(out["f"][nan]).all()
    # Through float32 and back: every number exactly; a NaN stays a NaN (its payload is not specified, S2.1).
    assert np.array_equal(bits_of(out["z"])[~nan], codes[~nan])
    assert np.isnan(out["z"].astype(np.float32)[nan]).all()


BF16_COPY = """\
.hbm x bf16 [2, 3] input
.hbm y bf16 [2, 3] output
.sbuf t bf16 [2, 3]
dma_copy dst=t, src=x
dma_copy dst=y, src=t
"""


def rne_bf16_bits(f32):
    """float32 -> bf16 bits, round to nearest even, by bit arithmetic (S2.2; no NaN here)."""
    u = np.asarray(f32, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def test_float32_into_bf16_is_rounded_to_nearest_even():
    # 1+2^-8 is a tie (to even: 1.0); 1+3*2^-8 rounds up to 1+2^-6; 1+2^-8+2^-20 rounds up.
    x = np.array([[1.0, 1.00390625, 1.01171875], [1.00390625 + 2.0 ** -20, -3.0e38, 2.0 ** -140]], np.float32)
    y = nisa.run(BF16_COPY, {"x": x})["y"]
    assert y.dtype == ml_dtypes.bfloat16
    assert np.array_equal(bits_of(y), rne_bf16_bits(x))
    assert np.array_equal(bits_of(y)[0], [0x3F80, 0x3F80, 0x3F82])


def test_a_void_array_gives_a_bf16_tensor_its_bits():
    """np.load of an ml_dtypes array's file without ml_dtypes gives a void array."""
    bits = np.array([[0x3F80, 0xC020, 0x7F7F], [0x7F80, 0x0001, 0x8000]], np.uint16)
    y = nisa.run(BF16_COPY, {"x": bits.view("V2")})["y"]
    assert np.array_equal(bits_of(y), bits)


@pytest.mark.parametrize("array, message", [
    (np.zeros((2, 3), ml_dtypes.float8_e4m3fn), "dtype float8_e4m3fn does not match tensor x declared bf16"),
    (np.zeros((2, 3), np.float16), "dtype float16 does not match tensor x declared bf16"),
    (np.zeros((2, 3), np.uint16), "dtype uint16 does not match tensor x declared bf16"),
    (np.zeros((2, 3), "V1"), "dtype |V1 does not match tensor x declared bf16"),
    (np.zeros((2, 3), [("a", "u1"), ("b", "u1")]), "dtype [('a', 'u1'), ('b', 'u1')] does not match"),  # 2 bytes, not bits
    (np.zeros((2, 3), ml_dtypes.float8_e4m3fnuz), "dtype float8_e4m3fnuz does not match tensor x declared bf16"),
])
def test_an_array_of_another_dtype_is_refused(array, message):
    with pytest.raises(nisa.Error) as info:
        nisa.run(BF16_COPY, {"x": array})
    assert message in info.value.message
    assert "bf16 inputs take bfloat16 (ml_dtypes) or float32 arrays" in info.value.message


def test_a_bf16_array_into_an_f32_tensor_is_refused():
    prog = BF16_COPY.replace("bf16", "f32")
    with pytest.raises(nisa.Error) as info:
        nisa.run(prog, {"x": np.ones((2, 3), ml_dtypes.bfloat16)})
    assert "input x: dtype bfloat16 does not match tensor x declared f32 (line 1, a float32 array)" in info.value.message


def test_fp8_formats_are_not_interchangeable():
    prog = BF16_COPY.replace("bf16", "fp8e4m3")
    with pytest.raises(nisa.Error) as info:
        nisa.run(prog, {"x": np.ones((2, 3), ml_dtypes.float8_e4m3fn)})
    assert "dtype float8_e4m3fn does not match tensor x declared fp8e4m3" in info.value.message
    assert "fp8e4m3 inputs take float8_e4m3 (ml_dtypes) or float32 arrays" in info.value.message


def test_a_bf16_input_is_read_in_place_and_outputs_are_arrays_of_their_own():
    x = (np.arange(6, dtype=np.float32).reshape(2, 3) / 4).astype(ml_dtypes.bfloat16)
    before = x.copy()
    y = nisa.run(BF16_COPY, {"x": x})["y"]
    assert not np.shares_memory(x, y) and y.flags.writeable
    assert np.array_equal(bits_of(y), bits_of(before)) and np.array_equal(bits_of(x), bits_of(before))


# --- nisa.nki: ml_dtypes arrays as kernel parameters --------------------------

@nki.jit
def through_float32(a):
    """Loads a, converts to float32 and back, stores: bit for bit for every number."""
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    f = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    ni.tensor_copy(dst=f, src=t)
    back = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    ni.tensor_copy(dst=back, src=f)
    nl.store(out, value=back)
    return out


@pytest.mark.parametrize("dtype", sorted(FORMATS))
def test_a_kernel_takes_and_returns_ml_dtypes_arrays_bit_for_bit(dtype):
    ml_type, bits_type, _ = FORMATS[dtype]
    codes = np.arange(np.iinfo(bits_type).max + 1, dtype=np.uint32).astype(bits_type)
    codes = codes[~np.isnan(codes.view(ml_type).astype(np.float32))][:1024]
    codes = codes[:len(codes) // 8 * 8].reshape(8, -1)  # fp8: 240 and more of the 256 codes are numbers
    out = through_float32(codes.view(ml_type))
    assert out.dtype == ml_type
    assert np.array_equal(bits_of(out), codes)
    assert f".hbm a {dtype} [8, {codes.shape[1]}] input" in nisa.nki.to_nasm(through_float32, codes.view(ml_type))


@nki.jit
def multiply_add_bf16(a, b, c):
    """(a * b) + c, each step's result stored as bf16 (NKI: computed in float32, rounded on the write)."""
    out = nl.ndarray(a.shape, dtype=nl.bfloat16, buffer=nl.shared_hbm)
    product = nl.multiply(nl.load(a), nl.load(b), dtype=nl.bfloat16)
    nl.store(out, value=nl.add(product, nl.load(c), dtype=nl.bfloat16))
    return out


def test_an_elementwise_bf16_kernel_against_a_numpy_reference():
    rng = np.random.default_rng(27)
    a, b, c = (rng.uniform(-8, 8, (128, 64)).astype(np.float32).astype(ml_dtypes.bfloat16) for _ in range(3))

    def widen(bits):  # bf16 bits -> float32, exactly
        return (bits.astype(np.uint32) << 16).view(np.float32)

    product = rne_bf16_bits(widen(bits_of(a)) * widen(bits_of(b)))  # exact in float32, then rounded
    expected = rne_bf16_bits(widen(product) + widen(bits_of(c)))
    out = multiply_add_bf16(a, b, c)
    assert out.dtype == ml_dtypes.bfloat16
    assert np.array_equal(bits_of(out), expected)


@nki.jit
def halve_in_place(a):
    nl.store(a, value=nl.multiply(nl.load(a), 0.5, dtype=a.dtype))


def test_a_kernel_writes_into_the_callers_bf16_array():
    a = np.array([[1.0, -2.5, 3.0, 0.0]], ml_dtypes.bfloat16)
    halve_in_place(a)
    assert np.array_equal(bits_of(a), [[0x3F00, 0xBFA0, 0x3FC0, 0x0000]])  # 0.5, -1.25, 1.5, 0


def test_a_void_parameter_is_refused_naming_its_cause():
    with pytest.raises(nisa.Error) as info:
        through_float32(np.zeros((2, 4), "V2"))
    assert "NumPy dtype |V2 is not one nisa models" in info.value.message
    assert "view it as its ml_dtypes type" in info.value.message


def test_nki_spellings_are_ml_dtypes_names():
    from nisa import _nisa
    from nisa.nki import _dtypes
    for nasm, name in _nisa.ml_dtypes_names().items():
        assert _dtypes.canonical(getattr(ml_dtypes, name)) == name and _dtypes.nasm_name(name) == nasm
    assert sorted(_nisa.ml_dtypes_names()) == sorted(FORMATS)


# --- .npy files: what np.save writes for ml_dtypes arrays, what np.load reads ---

def nisa_exe():
    exe = os.environ.get("NISA_EXE") or os.path.join(os.path.dirname(nisa.__file__), "..", "..", "nisa")
    if not os.path.exists(exe):
        pytest.skip("no nisa executable (set NISA_EXE)")
    return exe


def test_cli_reads_ml_dtypes_files_and_dumps_them_as_float32_or_as_ml_dtypes(tmp_path):
    decls, copies, inputs, expected = [], [], [], {}
    for dtype, (ml_type, bits_type, table) in sorted(FORMATS.items()):
        bits = np.array([[b for _, b in table]], bits_type)
        n = bits.size
        decls += [f".hbm x_{dtype} {dtype} [1, {n}] input", f".hbm y_{dtype} {dtype} [1, {n}] output",
                  f".sbuf t_{dtype} {dtype} [1, {n}]"]
        copies += [f"dma_copy dst=t_{dtype}, src=x_{dtype}", f"dma_copy dst=y_{dtype}, src=t_{dtype}"]
        np.save(tmp_path / f"x_{dtype}.npy", bits.view(ml_type))  # '<V2', '<V1', or '<f1' for float8_e5m2
        inputs += ["--input", f"x_{dtype}={tmp_path / f'x_{dtype}.npy'}"]
        expected[f"y_{dtype}"] = (ml_type, bits, np.array([[v for v, _ in table]], np.float32))
    (tmp_path / "p.nasm").write_text("\n".join(decls + copies) + "\n")
    run = subprocess.run([nisa_exe(), "run", str(tmp_path / "p.nasm"), *inputs, "--dump", str(tmp_path / "out"),
                          "--dump-dtypes=ml_dtypes"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    for name, (ml_type, bits, _) in expected.items():
        got = np.load(tmp_path / "out" / f"{name}.npy")  # ml_dtypes is imported: its names resolve
        assert got.dtype == ml_type
        assert np.array_equal(bits_of(got), bits)
    # By default (LANGUAGE.md 3): float32, each value widened exactly (NaN stays NaN).
    run = subprocess.run([nisa_exe(), "run", str(tmp_path / "p.nasm"), *inputs, "--dump", str(tmp_path / "out32")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    for name, (_, _, values) in expected.items():
        got = np.load(tmp_path / "out32" / f"{name}.npy")
        assert got.dtype == np.float32
        assert same_floats(got, values)  # the table's values, whose bits these are
    # The dump reads back into the tensor bit for bit, and nisa diff compares it by value.
    again = [a.replace(str(tmp_path / "x_"), str(tmp_path / "out" / "y_")) for a in inputs]
    rerun = subprocess.run([nisa_exe(), "run", str(tmp_path / "p.nasm"), *again, "--dump", str(tmp_path / "out2"),
                            "--dump-dtypes=ml_dtypes"], capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    diff = subprocess.run([nisa_exe(), "diff", str(tmp_path / "out"), str(tmp_path / "out2"), "--rtol", "0", "--atol",
                           "0"], capture_output=True, text=True)
    assert diff.returncode == 0 and "4 files match" in diff.stdout, diff.stdout
