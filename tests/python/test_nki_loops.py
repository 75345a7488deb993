"""Runtime loops and registers in nisa.nki (issue 29): nl.fori_loop,
nl.while_loop and nl.dynamic_range record their body once, as a loop
(SEMANTICS S17), and run it the number of times the device's registers say;
nisa.register_* (NKI 0.6) and, under NKI 0.7, nisa.scalar_load and NkiScalar
arithmetic. Expected values are NumPy formulas of what each kernel's NKI
docstring says it computes (tests/python/kernels/loops.py)."""
import os
import re
import sys

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
sys.path.insert(0, KERNELS)

import loops  # noqa: E402

LOOPS_FILE = os.path.join(KERNELS, "loops.py")


def i32(*values):
    return np.array([values], dtype=np.int32)


def wrap32(v):
    """v as a 32-bit two's complement integer (NKI 0.7: "arithmetic that
    outgrows 32 bits wraps rather than promoting")."""
    return (v + 2 ** 31) % 2 ** 32 - 2 ** 31


def instructions(text):
    """The instruction lines of a .nasm text (no directives or comments)."""
    return [line for line in text.splitlines() if line and not line.startswith((".", ";"))]


@pytest.fixture
def nki_07():
    nisa.nki.install(version="0.7")
    try:
        yield
    finally:
        nisa.nki.install()


# --- what is recorded --------------------------------------------------------------
def test_a_fori_loop_body_is_recorded_once_between_fori_loop_and_end_loop():
    x = np.ones((512, 64), np.float32)
    text = nisa.nki.to_nasm(loops.tiles_times_two_plus_one, x, i32(256))
    body = instructions(text)
    start = next(k for k, line in enumerate(body) if line.startswith("fori_loop "))
    assert re.fullmatch(r"fori_loop var=\w+, lower=0, upper=reg, step=128", body[start])  # _load_register's reg
    assert [line.split()[0] for line in body[start:]] == [
        "fori_loop", "dma_copy", "tensor_tensor", "tensor_scalar", "dma_copy", "end_loop", "dma_copy"]
    var = body[start].split("var=")[1].split(",")[0]
    assert f"scalar_offset={var}, indirect_dim=0" in body[start + 1]
    assert re.search(r"^\.reg reg$", text, re.M) and re.search(rf"^\.reg {var}$", text, re.M)


def test_a_loop_of_100000_iterations_records_under_100_instructions():
    text = nisa.nki.to_nasm(loops.many_iterations, 100000)
    assert len(instructions(text)) < 100
    assert "fori_loop var=i, lower=0, upper=100000, step=1" in text


def test_register_alloc_with_a_value_declares_and_moves():
    text = nisa.nki.to_nasm(loops.register_moves, i32(3))
    for line in (".reg a", ".reg b", ".reg c", "register_move dst=a, src=7", "register_move dst=b, src=-5",
                 "register_move dst=c, src=b", "register_store dst=cell, src=a"):
        assert re.search(rf"^{re.escape(line)}$", text, re.M), line


def test_a_while_loop_runs_on_a_condition_register_of_its_own():
    text = nisa.nki.to_nasm(loops.countdown_other_register, i32(3))
    body = instructions(text)
    start = next(k for k, line in enumerate(body) if line.startswith("while_loop "))
    cond = body[start].split("cond=")[1]
    assert body[start - 1] == f"register_move dst={cond}, src=reg"  # init passed by value
    assert body[start + 4] == f"register_move dst={cond}, src=nxt"  # the register the body returned
    assert body[start + 5] == "end_loop"


def test_a_tile_used_in_a_loop_body_lives_through_the_loop():
    """acc (read and written by every iteration) and the body's tiles must not
    share bytes: the body's second iteration would read clobbered values."""
    text = nisa.nki.to_nasm(loops.tiles_times_two_plus_one, np.ones((512, 64), np.float32), i32(256))
    placed = {m.group(1): (int(m.group(2)), int(m.group(2)) + 128 * 64 * 4 // 128)
              for m in re.finditer(r"^\.sbuf (\w+) f32 \[128, 64\] @ (\d+)$", text, re.M)}
    assert set(placed) >= {"acc", "tile", "result"}
    spans = sorted(placed.values())
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), placed


# --- what runs ------------------------------------------------------------------------
@pytest.mark.parametrize("tiles", [0, 1, 3, 4])
def test_fori_loop_over_tiles_with_a_runtime_count(tiles):
    x = np.random.default_rng(29).normal(size=(512, 64)).astype(np.float32)
    out, total = loops.tiles_times_two_plus_one(x, i32(tiles * 128))
    expected = np.zeros_like(x)
    expected[:tiles * 128] = x[:tiles * 128] * np.float32(2) + np.float32(1)
    np.testing.assert_array_equal(out, expected)
    expected_total = np.zeros((128, 64), np.float32)
    for t in range(tiles):
        expected_total = expected_total + x[t * 128:(t + 1) * 128]
    np.testing.assert_array_equal(total, expected_total)


def test_a_tile_made_before_the_loop_and_read_in_its_body_is_not_clobbered():
    """Placed by first and last use alone, `shifted` would take `factor`'s
    bytes (the lowest free ones once `scratch` has used up fresh SBUF) and
    the second iteration would multiply by what the first left there."""
    x = np.random.default_rng(3).normal(size=(256, 8192)).astype(np.float32)
    text = nisa.nki.to_nasm(loops.scaled_tiles, x, i32(256))
    offsets = dict(re.findall(r"^\.sbuf (\w+) f32 \[128, 8192\] @ (\d+)$", text, re.M))
    assert sorted(offsets) == ["factor", "scaled", "shifted", "tile"]
    spans = sorted((int(at), int(at) + 8192 * 4) for at in offsets.values())
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), offsets  # all live through the loop
    expected = x * np.float32(3) + np.float32(1)
    np.testing.assert_array_equal(loops.scaled_tiles(x, i32(256)), expected)


@pytest.mark.parametrize("count", [0, 1, 7])
def test_while_loop_countdown(count):
    np.testing.assert_array_equal(loops.countdown(i32(count)), np.float32([[count]]))


@pytest.mark.parametrize("count", [0, 5])
def test_while_loop_with_the_body_returning_another_register(count):
    np.testing.assert_array_equal(loops.countdown_other_register(i32(count)), np.float32([[2 * count]]))


@pytest.mark.parametrize("n", [0, 1, 6, 9])
def test_dynamic_range_register_stored_at_each_iteration(n):
    out = loops.iota_by_register(i32(n), 12)
    expected = np.zeros((1, 12), np.int32)
    expected[0, 0:n:2] = np.arange(0, n, 2)
    np.testing.assert_array_equal(out, expected)


def test_register_moves_and_stores():
    np.testing.assert_array_equal(loops.register_moves(i32(-123456)), i32(7, -5, -5, -123456))


def test_nested_runtime_loops():
    out = loops.nested(i32(4), i32(3))
    np.testing.assert_array_equal(out, np.float32([[4 * 3, sum(range(4))]]))


def test_a_loop_of_100000_iterations_runs_them_all():
    np.testing.assert_array_equal(loops.many_iterations(100000), np.float32([[100000]]))


# --- NKI 0.7 --------------------------------------------------------------------------
@pytest.mark.parametrize("s", [5, -3, 100000, 2 ** 31 - 1])
def test_scalar_arithmetic_wraps_at_32_bits(nki_07, s):
    expected = [wrap32(s * 4 + 1), wrap32(-s), wrap32(3 - s), wrap32(s * s), wrap32(s + s - 7)]
    assert wrap32(100000 * 100000) == 1410065408  # the doc's example
    np.testing.assert_array_equal(loops.scalar_arithmetic(i32(s)), i32(*expected))


def test_scalar_arithmetic_is_recorded_as_register_op(nki_07):
    """s * 4 + 1, -s, 3 - s, s * s, s + s - 7: seven register_ops, each into
    a new register, an int operand written as it is, unary minus as 0 - s."""
    text = nisa.nki.to_nasm(loops.scalar_arithmetic, i32(5))
    ops = [re.fullmatch(r"register_op dst=(\w+), src0=(\S+), src1=(\S+), op=(\w+)", line).groups()
           for line in instructions(text) if line.startswith("register_op ")]
    s = re.search(r"register_load dst=(\w+), src=tile", text).group(1)
    (t1, *a), (t2, *b), (_, *c), (_, *d), (_, *e), (t6, *f), (_, *g) = ops
    assert [a, b, c, d, e, f, g] == [[s, "4", "multiply"], [t1, "1", "add"], ["0", s, "subtract"],
                                     ["3", s, "subtract"], [s, s, "multiply"], [s, s, "add"], [t6, "7", "subtract"]]
    assert len({dst for dst, *_ in ops} | {s}) == 8  # every result a register of its own


@pytest.mark.parametrize("n", [0, 2, 5])
def test_fori_loop_bound_and_iteration_value_are_scalars(nki_07, n):
    out = loops.scalar_bounds(i32(n), 12)
    expected = np.zeros((1, 12), np.int32)
    expected[0, :2 * n] = np.arange(1, 2 * n + 1)
    np.testing.assert_array_equal(out, expected)


def test_fori_loop_body_gets_a_scalar_under_07_and_a_register_under_06(nki_07):
    import nki.isa as nisa_isa
    import nki.language as nl
    seen = {}

    @nisa.nki.jit
    def probe(x):
        nl.fori_loop(0, 2, lambda i: seen.setdefault("int bounds", type(i).__name__))
        reg = nisa_isa.register_alloc(2)
        nl.fori_loop(0, reg, lambda i: seen.setdefault("a VirtualRegister bound", type(i).__name__))
        return x

    nisa.nki.to_nasm(probe, i32(1))
    assert seen == {"int bounds": "NkiScalar", "a VirtualRegister bound": "VirtualRegister"}


@pytest.mark.parametrize("count", [5, 1, 0])
def test_a_while_statement_on_a_register_is_a_runtime_loop(count):
    x = np.array([[1.5]], np.float32)
    text = nisa.nki.to_nasm(loops.countdown_while_statement, i32(count), x)
    ops = [line.split()[0] for line in instructions(text)]
    start = ops.index("while_loop")
    assert ops[start:start + 5] == ["while_loop", "tensor_tensor", "tensor_tensor", "register_load", "end_loop"]
    out = loops.countdown_while_statement(i32(count), x)
    assert out.tolist() == [[1.5 * count]]  # count float32 adds of 1.5 from 0: exact


# --- errors ------------------------------------------------------------------------------
def marked_line(name):
    with open(LOOPS_FILE) as f:
        for number, text in enumerate(f, 1):
            if text.rstrip().endswith(f"# LINE {name}"):
                return number
    raise AssertionError(name)


def raised(kernel, *args):
    with pytest.raises(nisa.Error) as info:
        kernel(*args)
    e = info.value
    assert os.path.samefile(e.file, LOOPS_FILE), e.message
    assert e.line == marked_line(kernel.__name__), e.message
    return e.message


def test_a_break_out_of_dynamic_range_leaves_the_loop_open():
    assert "never closed" in raised(loops.break_out_of_dynamic_range, i32(1))


def test_a_step_must_be_a_positive_integer():
    assert "step must be a compile-time positive integer" in raised(loops.zero_step, i32(1))


def test_a_bound_must_fit_32_bits():
    assert "does not fit a register" in raised(loops.bound_too_large, i32(1))


def test_register_store_takes_a_register():
    assert "expected a register" in raised(loops.store_a_tensor, i32(1))


def test_a_while_body_returns_the_next_condition():
    assert "returns the next condition register" in raised(loops.while_body_returns_nothing, i32(1))


def test_a_register_is_not_a_python_int():
    assert "not known while the kernel is recorded" in raised(loops.register_as_python_int, i32(1))


def test_a_register_tested_outside_a_while_statement_has_no_value():
    assert "not known while the kernel is recorded" in raised(loops.register_in_an_if, i32(1))


def test_scalar_load_is_07s():
    assert "NKI 0.7's" in raised(loops.scalar_load_in_06, i32(1))


def test_scalar_load_takes_int32(nki_07):
    assert "must be int32, not float32" in raised(loops.scalar_load_of_float, i32(1))


def test_scalar_comparisons_are_refused(nki_07):
    assert "cannot use" in raised(loops.scalar_compare, i32(1))


def test_dynamic_range_is_06s(nki_07):
    assert "nl.fori_loop" in raised(loops.dynamic_range_in_07, i32(1))


def test_a_register_read_before_it_is_set():
    message = raised(loops.register_read_before_set, i32(1))
    assert "recorded as: register_store" in message


def test_a_negative_trip_count_is_a_runtime_error_at_the_loop():
    raised(loops.negative_trip_count, i32(2))
    np.testing.assert_array_equal(loops.negative_trip_count(i32(5)), np.float32([[0]]))
    np.testing.assert_array_equal(loops.negative_trip_count(i32(8)), np.float32([[3]]))


def test_a_register_of_another_call_is_refused():
    import nki.isa as nisa_isa
    kept = {}

    @nisa.nki.jit
    def make(x):
        kept["reg"] = nisa_isa.register_alloc(1)
        return x

    @nisa.nki.jit
    def use(x):
        cell = nisa.nki.language.ndarray((1, 1), dtype="int32")
        nisa_isa.register_store(cell, kept["reg"])
        return x

    nisa.nki.to_nasm(make, i32(1))
    with pytest.raises(nisa.Error, match="belongs to another kernel call"):
        nisa.nki.to_nasm(use, i32(1))


# --- two cores ----------------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 128, 256])
def test_each_core_runs_its_own_loop(n):
    x = np.random.default_rng(2).normal(size=(512, 64)).astype(np.float32)
    expected = np.zeros_like(x)
    for c in (0, 1):
        expected[c * 256:c * 256 + n] = x[c * 256:c * 256 + n] + np.float32(c + 1)
    np.testing.assert_array_equal(loops.halves_by_core[2](x, i32(n)), expected)


def test_a_two_core_loop_program_handed_over_is_the_text_program():
    from nisa import _nisa
    from nisa.nki import _record, _registers
    recorded = nisa.nki._record_call(loops.halves_by_core[2], (np.ones((512, 64), np.float32), i32(128)), {})
    rec = recorded.recording
    arch, file, declarations = rec.handoff()
    native = _nisa.build_recorded(arch, file, declarations, [], nisa.nki.NkiTensor, _record.render_value,
                                  rec.sections(), nki=rec.nki, register_type=_registers.Register)
    assert native is not None, "the builder refused a program nisa.nki recorded"
    from_text = nisa.assemble(recorded.text, file="<recorded>")
    assert nisa.Program(native).to_nbin() == from_text.to_nbin()
    assert recorded.text.count("\nfori_loop ") == 2 and recorded.text.count("\n.reg reg\n") == 2  # _load_register's, one per core


def test_sendrecv_inside_a_loop_is_refused():
    with pytest.raises(nisa.Error) as info:
        loops.sendrecv_in_loop[2](np.ones((4, 8), np.float32))
    assert info.value.line == marked_line("sendrecv_in_loop"), info.value.message


def test_a_register_of_another_core_is_refused():
    import nki.isa as nisa_isa
    import nki.language as nl
    kept = []

    @nisa.nki.jit
    def share(x):
        kept.append(nisa_isa.register_alloc(1))
        cell = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
        nisa_isa.register_store(cell, kept[0])
        return x

    with pytest.raises(nisa.Error, match="is core 0's: each core has its own registers"):
        nisa.nki.to_nasm(share[2], i32(1))
