"""nl.device_print and nisa.run's print_to (docs/SEMANTICS.md S15.1,
LANGUAGE.md 4): a print shows its tile as it is at its kernel line, as NumPy
prints the array; the text goes to sys.stdout (so pytest's capsys sees it),
a stream or a file. The expected values are NumPy formulas written here and
NumPy's own str(); the formatter is also held to NumPy over every float16
and many float32 values and arrays."""
import io
import os
import re
import sys
import threading

import numpy as np
import pytest

import nisa
import nisa.nki
from nisa import _nisa

nisa.nki.install()
KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
sys.path.insert(0, KERNELS)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import printing  # noqa: E402
from marked_lines import assert_located, marked_line  # noqa: E402

PRINTING = os.path.join(KERNELS, "printing.py")
HEADER = re.compile(r"^(?P<file>.*):(?P<line>\d+): (?P<rest>.*)$")


def prints(text):
    """[(line, header after "FILE:LINE: ", values text)] of printed text, each
    print's file checked to be printing.py."""
    out = []
    assert text.endswith("\n\n"), repr(text[-40:])
    for block in text[:-2].split("\n\n"):
        head, values = block.split("\n", 1)
        m = HEADER.match(head)
        assert m and os.path.samefile(m["file"], PRINTING), head
        out.append((int(m["line"]), m["rest"], values))
    return out


def line(name):
    return marked_line(PRINTING, name)


# --- what a kernel prints -------------------------------------------------------------

def test_a_print_shows_the_tile_at_its_line_not_its_final_value(capsys):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = printing.before_and_after(a)
    after = a * np.float32(2) + np.float32(1)
    np.testing.assert_array_equal(out, after)
    assert prints(capsys.readouterr().out) == [(line("before"), "t before: f32 [3, 4]", str(a)),
                                               (line("after"), "t after: f32 [3, 4]", str(after))]


def test_the_recorded_program_holds_the_print():
    text = nisa.nki.to_nasm(printing.before_and_after, np.zeros((3, 4), np.float32))
    assert 'device_print print_prefix="t before:", tensor=t\n' in text


@pytest.mark.parametrize("env", [{}, {"NISA_THREADS": "2", "NISA_SPLIT_MIN_ELEMENTS": "1"}, {"NISA_PLAIN_PATHS": "1"}],
                         ids=["dead stores and shared steps", "second thread on every step", "plain paths"])
def test_prints_in_a_loop_and_between_overwrites(capsys, monkeypatch, env):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    a = np.arange(128 * 16, dtype=np.float32).reshape(128, 16)
    out = printing.loop(a)
    np.testing.assert_array_equal(out, np.full((128, 16), 6, np.float32))
    expected = [(line("step"), "step f32 [128, 16]", str(a + np.float32(k))) for k in (1, 2, 3)]
    expected.append((line("fives"), "fives f32 [2, 16]", str(np.full((2, 16), 5, np.float32))))
    assert prints(capsys.readouterr().out) == expected


def test_hbm_psum_int_and_bf16_tensors(capsys):
    a = np.arange(32, dtype=np.float32).reshape(4, 8) - 3.5
    b = np.arange(-20, 20, dtype=np.int32).reshape(5, 8) * 1000
    assert printing.memories(a, b) is None
    bf16_of_01 = np.float32(0.10009765625)  # float32(0.1) = 0x3DCCCCCD rounded to nearest even in bf16: 0x3DCD
    assert prints(capsys.readouterr().out) == [
        (line("hbm"), "a f32 [4, 8]", str(a)),
        (line("psum"), "p f32 [1, 2]", str(a[1:2, 1:3])),
        (line("int"), "i32 [5, 3]", str(b[:, 2:5])),
        (line("bf16"), "h = 0.1 in bf16 bf16 [1, 3]", str(np.full((1, 3), bf16_of_01))),
    ]


def test_nisa_run_prints_a_program_of_text(capsys):
    prog = nisa.assemble(".hbm x i32 [2, 3] input = iota\ndevice_print print_prefix=\"x\", tensor=x[1:2, :]\n",
                         file="p.nasm")
    nisa.run(prog)
    assert capsys.readouterr().out == "p.nasm:2: x i32 [1, 3]\n[[3 4 5]]\n\n"


# --- where the text goes ----------------------------------------------------------------

def expected_before_and_after(a):
    after = a * np.float32(2) + np.float32(1)
    return [(line("before"), "t before: f32 [3, 4]", str(a)), (line("after"), "t after: f32 [3, 4]", str(after))]


def test_print_to_a_file_stream_or_jit_option(capsys, tmp_path):
    a = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    path = tmp_path / "printed.txt"
    nisa.nki.run(printing.before_and_after, a, print_to=path)
    assert capsys.readouterr().out == ""
    assert prints(path.read_text()) == expected_before_and_after(a)
    stream = io.StringIO()
    nisa.nki.run(printing.before_and_after, a, print_to=stream)
    assert prints(stream.getvalue()) == expected_before_and_after(a)
    jitted = nisa.nki.jit(printing.before_and_after.fn, print_to=str(tmp_path / "jit.txt"))
    jitted(a)
    assert prints((tmp_path / "jit.txt").read_text()) == expected_before_and_after(a)
    assert capsys.readouterr().out == ""


def test_a_failed_run_writes_no_print_file_but_stdout_has_the_prints_before(capsys, tmp_path):
    a = np.ones((2, 2), np.float32)
    path = tmp_path / "printed.txt"
    with pytest.raises(nisa.Error) as info:
        nisa.nki.run(printing.faults_after_a_print, a, strict=True, print_to=path)
    assert_located(info.value, PRINTING, "unwritten")
    assert info.value.exit_status == 3 and "never written" in info.value.message
    assert not path.exists() and os.listdir(tmp_path) == []
    with pytest.raises(nisa.Error):
        nisa.nki.run(printing.faults_after_a_print, a, strict=True)
    assert prints(capsys.readouterr().out) == [(line("loaded"), "loaded f32 [2, 2]", str(a))]


def test_an_exception_of_print_to_stops_the_run_and_propagates():
    class Refuses:
        def write(self, text):
            raise ValueError("no room")

    with pytest.raises(ValueError, match="no room"):
        nisa.nki.run(printing.before_and_after, np.zeros((3, 4), np.float32), print_to=Refuses())
    stream = io.StringIO()
    nisa.nki.run(printing.before_and_after, np.zeros((3, 4), np.float32), print_to=stream)  # the next run works
    assert stream.getvalue().count("\n\n") == 2


@pytest.mark.parametrize("value, message", [
    (3, "print_to: error: expected a path, a text stream (with .write) or None, got int"),
    ("", "print_to: error: the path is empty"),
])
def test_print_to_refuses(value, message):
    with pytest.raises(nisa.Error) as info:
        nisa.run(".hbm x f32 [1, 1] input = 0\n", print_to=value)
    assert info.value.message == message


def test_print_to_refuses_a_folder_and_the_program_itself(tmp_path):
    program = tmp_path / "p.nasm"
    program.write_text(".hbm x f32 [1, 1] input = 0\ndevice_print print_prefix=\"x\", tensor=x\n")
    with pytest.raises(nisa.Error) as info:
        nisa.run(program, print_to=tmp_path)
    assert "cannot write: Is a directory" in info.value.message
    with pytest.raises(nisa.Error) as info:
        nisa.run(program, print_to=program)
    assert "refusing to overwrite an input" in info.value.message
    assert program.read_text().startswith(".hbm x")


def test_threads_print_each_to_its_own_stream():
    streams = [io.StringIO() for _ in range(4)]
    arrays = [np.full((3, 4), k, np.float32) for k in range(4)]

    def work(k):
        for _ in range(5):
            nisa.nki.run(printing.before_and_after, arrays[k], print_to=streams[k])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        assert prints(streams[k].getvalue()) == expected_before_and_after(arrays[k]) * 5


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("kernel, message", [
    (printing.prefix_not_str, "print_prefix must be a str (NKI takes a constant string), not int"),
    (printing.prefix_with_quote, "holds '\"'; a .nasm string holds no '\"' and no control character"),
    (printing.prefix_with_newline, "holds '\\n'; a .nasm string holds no '\"' and no control character"),
    (printing.prints_a_number, "tensor must be a tensor or tile, not float"),
    (printing.prints_an_array, "tensor must be a tensor or tile, not ndarray"),
    (printing.prints_nothing, "nl.device_print: device_print() missing 1 required positional argument: 'tensor'"),
])
def test_bad_prints_raise_at_the_kernel_line(kernel, message):
    with pytest.raises(nisa.Error) as info:
        kernel(np.zeros((2, 2), np.float32))
    assert_located(info.value, PRINTING, kernel.__name__)
    assert message in info.value.message, info.value.message


def test_a_tile_of_another_kernel_call_is_refused():
    printing.keeps_a_tile(np.zeros((2, 2), np.float32))
    with pytest.raises(nisa.Error) as info:
        printing.prints_a_kept_tile(np.zeros((2, 2), np.float32))
    assert_located(info.value, PRINTING, "prints_a_kept_tile")
    assert "belongs to another kernel call" in info.value.message


def test_a_print_outside_a_kernel_is_refused():
    with pytest.raises(nisa.Error) as info:
        nisa.nki.language.device_print("x", None)
    assert info.value.message.startswith("nisa.nki: error: nki.language and nki.isa calls record into a kernel")


# --- the formatter against NumPy ---------------------------------------------------------

def numpy_text(array):
    return _nisa.array_text(np.ascontiguousarray(array))


def test_every_float16_alone_is_written_as_numpy_writes_it():
    values = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    wrong = [v for v in values if numpy_text(np.array([v])) != str(np.array([v]))]
    assert wrong == []


def test_float32_values_alone_are_written_as_numpy_writes_them():
    rng = np.random.default_rng(27)
    values = rng.integers(0, 1 << 32, 30000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    edges = np.array([0, -0.0, 1e-45, 1.17549435e-38, 3.4028235e38, 1e8, 99999992, 1e-4, 9.999999e-5, 0.001953125,
                      1 / 3, 2 / 3, 16777216, 16777218, np.nan, np.inf, -np.inf], np.float32)
    wrong = [v for v in np.concatenate([values, edges]) if numpy_text(np.array([v])) != str(np.array([v]))]
    assert wrong == []


def test_arrays_are_laid_out_as_numpy_lays_them_out():
    rng = np.random.default_rng(7)
    specials = np.array([0, -0.0, np.nan, np.inf, -np.inf, 1e-40, 1e8, 1e-4, 1000, 0.1], np.float32)
    cases = []
    for k in range(3000):
        shape = tuple(int(d) for d in rng.integers(1, 9, rng.integers(1, 5)))
        size = int(np.prod(shape))
        dtype = [np.float32, np.float16][k % 2]
        with np.errstate(over="ignore"):  # float16 takes the large ones as inf
            pool = np.concatenate([specials, rng.standard_normal(8) * 10.0 ** rng.integers(-8, 9, 8)]).astype(dtype)
        cases.append(rng.choice(pool, size).reshape(shape))
    for dtype in (np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32):
        info = np.iinfo(dtype)
        for _ in range(100):
            shape = tuple(int(d) for d in rng.integers(1, 40, rng.integers(1, 4)))
            cases.append(rng.integers(int(info.min), int(info.max) + 1, shape, dtype=np.int64).astype(dtype))
    for shape in [(1001,), (7, 143), (128, 512), (3, 400), (2, 3, 200), (7, 7, 7, 7), (1, 1, 2000)]:  # summarized
        cases.append(rng.standard_normal(shape).astype(np.float32))
        cases.append(np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape))
    for base in (1.0, 3.0, 0.3):  # the largest just above and below 1000 times the smallest
        top = np.float32(base * 1000)
        for step in (-2, -1, 0, 1, 2):
            near = top
            for _ in range(abs(step)):
                near = np.nextafter(near, np.float32(np.inf if step > 0 else 0))
            cases.append(np.array([base, near], np.float32))
    wrong = [a for a in cases if numpy_text(a) != str(a)]
    assert wrong == []
