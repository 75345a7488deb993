"""The nisa package's API (LANGUAGE.md 4): assemble, run, Program, Error.
Expected values are NumPy formulas of what each program computes."""
import os

import numpy as np
import pytest

import nisa

try:
    import ml_dtypes
except ImportError:  # optional (LANGUAGE.md 4): bf16 outputs are then float32
    ml_dtypes = None

SOURCE = os.environ.get("NISA_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))

SCALE = """\
.hbm x f32 [4, 8] input
.hbm y f32 [4, 8] output
.sbuf t f32 [4, 8]
dma_copy dst=t, src=x
tensor_scalar dst=t, data=t, op0=multiply, operand0=2.0, op1=add, operand1=1.0
dma_copy dst=y, src=t
"""


def x_values():
    return np.arange(32, dtype=np.float32).reshape(4, 8) - 7.5


def test_run_text_returns_outputs():
    x = x_values()
    out = nisa.run(SCALE, {"x": x})
    assert list(out) == ["y"]
    np.testing.assert_array_equal(out["y"], x * 2 + 1)
    assert out["y"].dtype == np.float32


def test_inputs_are_never_modified_and_any_layout_is_read():
    x = x_values()
    before = x.copy()
    fortran = np.asfortranarray(x)
    out = nisa.run(SCALE, {"x": fortran})
    np.testing.assert_array_equal(out["y"], before * 2 + 1)
    np.testing.assert_array_equal(x, before)
    np.testing.assert_array_equal(fortran, before)


def test_program_round_trips_through_nbin_and_text():
    prog = nisa.assemble(SCALE)
    assert len(prog) == 3
    assert [t["name"] for t in prog.tensors] == ["x", "y", "t"]
    again = nisa.assemble(prog.to_nbin())
    assert again.to_nbin() == prog.to_nbin()
    assert nisa.assemble(prog.disassemble()).to_nbin() == prog.to_nbin()
    np.testing.assert_array_equal(nisa.run(again, {"x": x_values()})["y"], x_values() * 2 + 1)


def test_paths_of_nasm_and_nbin(tmp_path):
    nasm = tmp_path / "scale.nasm"
    nasm.write_text(SCALE)
    nbin = tmp_path / "scale.nbin"
    nbin.write_bytes(nisa.assemble(str(nasm)).to_nbin())
    for program in (str(nasm), str(nbin), nasm):
        np.testing.assert_array_equal(nisa.run(program, {"x": x_values()})["y"], x_values() * 2 + 1)


def test_assembler_error_has_location():
    with pytest.raises(nisa.Error) as info:
        nisa.assemble(SCALE.replace("op0=multiply", "op0=multiplyy"), file="k.nasm")
    e = info.value
    assert (e.file, e.line, e.column) == ("k.nasm", 5, 30)
    assert "unknown alu value 'multiplyy'" in e.message
    assert e.exit_status == 2


def test_bad_inputs_are_errors_not_crashes():
    with pytest.raises(nisa.Error, match="dtype float64 does not match tensor x declared f32"):
        nisa.run(SCALE, {"x": x_values().astype(np.float64)})
    with pytest.raises(nisa.Error, match=r"shape \(8, 4\) does not match tensor x declared \[4, 8\]"):
        nisa.run(SCALE, {"x": x_values().reshape(8, 4)})
    with pytest.raises(nisa.Error, match="no tensor named 'z'"):
        nisa.run(SCALE, {"x": x_values(), "z": x_values()})
    with pytest.raises(nisa.Error, match="has no array in inputs"):
        nisa.run(SCALE, {})


def test_strict_fault_names_the_line():
    src = SCALE.replace("dma_copy dst=t, src=x\n", "dma_copy dst=t[0:2], src=x[0:2]\n")
    out = nisa.run(src, {"x": x_values()})  # not strict: unwritten SBUF reads as zero (S1.1)
    np.testing.assert_array_equal(out["y"][2:], np.ones((2, 8), np.float32))
    with pytest.raises(nisa.Error) as info:
        nisa.run(src, {"x": x_values()}, strict=True)
    assert info.value.line == 5 and info.value.exit_status == 3
    assert "never written" in info.value.message


def test_float32_into_bf16_is_rounded_to_nearest_even():
    src = """\
.hbm x bf16 [1, 4] input
.hbm y bf16 [1, 4] output
.sbuf t bf16 [1, 4]
dma_copy dst=t, src=x
dma_copy dst=y, src=t
"""
    x = np.array([[1.0, 1.00390625, 1.01171875, 3.0e38]], dtype=np.float32)
    y = nisa.run(src, {"x": x})["y"]
    # ml_dtypes' bfloat16 where it imports, else float32 (LANGUAGE.md 4); either widens exactly.
    assert y.dtype == (np.float32 if ml_dtypes is None else ml_dtypes.bfloat16)
    bits = y.astype(np.float32).view(np.uint32)
    # bf16 keeps 8 significant bits: 1+2^-8 is a tie (to even: 1.0), 1+3*2^-8 rounds up to 1+2^-6
    np.testing.assert_array_equal(bits[0, :3], [0x3F800000, 0x3F800000, 0x3F820000])
    u = x.view(np.uint32).astype(np.uint64)  # S2.2 by the bit formula: round to even at bit 16
    np.testing.assert_array_equal(bits, ((u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000).astype(np.uint32))


def test_bool_array_fills_u8():
    src = """\
.hbm m u8 [2, 3] input
.hbm y u8 [2, 3] output
.sbuf t u8 [2, 3]
dma_copy dst=t, src=m
dma_copy dst=y, src=t
"""
    m = np.array([[True, False, True], [False, False, True]])
    np.testing.assert_array_equal(nisa.run(src, {"m": m})["y"], m.astype(np.uint8))


def test_profile_and_trace(tmp_path):
    out, report = nisa.run(SCALE, {"x": x_values()}, profile=True, trace=tmp_path / "t.json")
    np.testing.assert_array_equal(out["y"], x_values() * 2 + 1)
    vector = report["engines"]["vector"]
    assert vector["instructions"] == 1 and vector["busy_cycles"] == 64  # S6: max(MIN_II, N), N = 8
    assert report["engines"]["dma"]["instructions"] == 2
    assert "engine" in report["table"]
    import json
    events = json.loads((tmp_path / "t.json").read_text())
    assert any(e.get("ph") == "X" for e in events["traceEvents"])


def test_workload_program_matches_its_expected_outputs():
    folder = os.path.join(SOURCE, "programs", "nki_operands")
    inputs = {n: np.load(os.path.join(folder, n + ".npy")) for n in ("v", "m", "x", "keep")}
    out = nisa.run(os.path.join(folder, "prog.nasm"), inputs, strict=True)
    for name, array in out.items():
        expected = np.load(os.path.join(folder, "expected", name + ".npy"))
        if expected.dtype == np.float32:  # bf16 (perm) is ml_dtypes' bfloat16 where it imports: widened exactly
            array = array.astype(np.float32)
        np.testing.assert_array_equal(array, expected)
