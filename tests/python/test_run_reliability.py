"""nisa.run and nisa.assemble on adversarial input (issue 24): every byte
order and layout converted exactly, every bad argument a nisa.Error, text and
file names with any bytes, `trace=` through the command line's output layer,
runs on many threads, Ctrl-C. Expected values are NumPy formulas."""
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import nisa

SCALE = """\
.hbm x {t} [4, 8] input
.hbm y {t} [4, 8] output
.sbuf s {t} [4, 8]
dma_copy dst=s, src=x
dma_copy dst=y, src=s
"""


def copy_program(nasm_type):
    return SCALE.format(t=nasm_type)


DOUBLE = """\
.hbm x f32 [4, 8] input
.hbm y f32 [4, 8] output
.sbuf s f32 [4, 8]
dma_copy dst=s, src=x
tensor_scalar dst=s, data=s, op0=multiply, operand0=2.0
dma_copy dst=y, src=s
"""


def values(dtype):
    rng = np.random.default_rng(7)
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal((4, 8)) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=(4, 8), dtype=dtype, endpoint=True)


# --- byte orders and layouts -------------------------------------------------

@pytest.mark.parametrize("dtype,nasm", [(">f4", "f32"), (">i4", "i32"), (">u2", "u16"), (">f2", "f16"), (">u4", "u32"),
                                        (">i2", "i16"), ("<f4", "f32"), ("=i4", "i32")])
def test_every_byte_order_is_read_as_its_values(dtype, nasm):
    native = values(np.dtype(dtype).newbyteorder("="))
    given = native.astype(dtype)
    out = nisa.run(copy_program(nasm), {"x": given})["y"]
    assert out.dtype == native.dtype and out.dtype.isnative
    np.testing.assert_array_equal(out.view(np.uint8), native.view(np.uint8))  # the same bits


def test_strided_reversed_and_fortran_big_endian_views_are_read_exactly():
    base = values(np.float32)
    wide = np.zeros((8, 16), ">f4")
    wide[::2, ::2] = base
    for view in (wide[::2, ::2], np.asfortranarray(base.astype(">f4")), base[::-1, ::-1].astype(">f4")[::-1, ::-1]):
        out = nisa.run(copy_program("f32"), {"x": view})["y"]
        np.testing.assert_array_equal(out, base)


def test_inputs_are_never_modified():
    given = values(np.float32).astype(">f4")
    before = given.copy()
    nisa.run(DOUBLE, {"x": given})
    assert given.dtype == np.dtype(">f4")
    np.testing.assert_array_equal(given.view(np.uint8), before.view(np.uint8))


# --- every bad argument is a nisa.Error ---------------------------------------

@pytest.mark.parametrize("inputs,words", [
    ({3: values(np.float32)}, "names are str"),
    ({b"x": values(np.float32)}, "names are str"),
    ({"x": values(np.float32).astype(np.complex64)}, "dtype complex64 does not match tensor x declared f32"),
    ({"x": values(np.float32).astype(object)}, "dtype object does not match"),
    ({"x": np.zeros((4, 8), "datetime64[s]")}, "dtype datetime64[s] does not match"),
    ({"x": np.zeros((4, 8), [("a", "f4")])}, "does not match tensor x declared f32"),
    ({"x": np.zeros((4, 8), "U3")}, "dtype <U3 does not match"),
    ({"x": [[1.0, 2.0], [3.0]]}, "input x: not an array"),
    ({"x": np.float32(1)}, r"shape \(\) does not match"),
    ({"x": values(np.float64)}, "dtype float64 does not match tensor x declared f32 (line 1, a float32 array)"),
    ({"x\udcff": values(np.float32)}, "no tensor named"),
    ([("x", 1)], "expected a dict"),
])
def test_bad_inputs_raise_nisa_error_naming_the_input(inputs, words):
    with pytest.raises(nisa.Error) as info:
        nisa.run(DOUBLE, inputs)
    assert words in info.value.message or re.search(words, info.value.message), info.value.message
    assert info.value.file == "<string>"


@pytest.mark.parametrize("call", [
    lambda: nisa.assemble(42),
    lambda: nisa.assemble(None),
    lambda: nisa.assemble(["a"]),
    lambda: nisa.assemble(DOUBLE, file=3),
    lambda: nisa.assemble(pathlib.Path("")),
    lambda: nisa.assemble(pathlib.Path("/nonexistent/k.nasm")),
    lambda: nisa.assemble(b"\x00" * 40),
    lambda: nisa.assemble(bytearray(b"NBIN")),
    lambda: nisa.assemble("\x00\n"),
    lambda: nisa.assemble("x" * 100000),
    lambda: nisa.run(DOUBLE, {"x": values(np.float32)}, trace=5),
    lambda: nisa.run(DOUBLE, {"x": values(np.float32)}, trace=""),
    lambda: nisa.run(DOUBLE, {"x": values(np.float32)}, trace="/nonexistent/dir/t.json"),
    lambda: nisa.run(DOUBLE, "x"),
    lambda: nisa.run(DOUBLE, {}),
    lambda: nisa.run(12, {}),
])
def test_bad_arguments_raise_nisa_error(call):
    with pytest.raises(nisa.Error) as info:
        call()
    assert isinstance(info.value, Exception) and info.value.message and info.value.exit_status in (2, 3)


# --- text and file names with any bytes ----------------------------------------

def test_invalid_utf8_in_a_file_is_reported_as_its_byte(tmp_path):
    path = tmp_path / "bad.nasm"
    path.write_bytes(b".hbm x f32 [4] input\n\xe9\n")
    with pytest.raises(nisa.Error) as info:
        nisa.assemble(str(path))
    assert "unexpected character '\\xe9'" in info.value.message  # the byte itself, as `nisa asm` names it
    assert (info.value.line, info.value.column) == (2, 1)


def test_surrogate_escaped_source_text_is_its_bytes():
    with pytest.raises(nisa.Error) as info:
        nisa.assemble(DOUBLE + os.fsdecode(b"\xe9") + "\n")
    assert "unexpected character '\\xe9'" in info.value.message and info.value.line == 7


def test_non_utf8_file_names_round_trip(tmp_path):
    raw = os.fsencode(str(tmp_path)) + b"/k\xff.nasm"
    with open(raw, "wb") as f:
        f.write(DOUBLE.encode())
    name = os.fsdecode(raw)
    for source in (name, pathlib.Path(name)):
        program = nisa.assemble(source)
        assert program.file == name and os.fsencode(program.file) == raw
        assert repr(name) in repr(program)
    with open(raw, "ab") as f:
        f.write(b"bogus\n")
    with pytest.raises(nisa.Error) as info:
        nisa.assemble(name)
    assert info.value.file == name and info.value.line == 7


def test_nbin_with_a_non_utf8_file_name():
    program = nisa.assemble(os.fsdecode(b'.file "k\xff.py"\n') + DOUBLE)
    binary = nisa.assemble(program.to_nbin())
    assert os.fsencode(binary.file) == b"k\xff.py"
    assert "k" in repr(binary) and b"k\xff.py" in os.fsencode(binary.disassemble())
    strict_source = os.fsdecode(b'.file "k\xff.py"\n') + DOUBLE.replace("dma_copy dst=s, src=x\n", "")
    with pytest.raises(nisa.Error) as info:
        nisa.run(nisa.assemble(nisa.assemble(strict_source).to_nbin()), {"x": values(np.float32)}, strict=True)
    assert os.fsencode(info.value.file) == b"k\xff.py" and info.value.exit_status == 3


def test_path_objects_are_paths_whatever_their_suffix(tmp_path):
    nasm = tmp_path / "double.nasm"
    nasm.write_text(DOUBLE)
    np.testing.assert_array_equal(nisa.run(nasm, {"x": values(np.float32)})["y"], values(np.float32) * 2)
    other = tmp_path / "double.txt"
    other.write_bytes(nisa.assemble(nasm).to_nbin())  # not .nasm: a binary, as `nisa run` reads it
    np.testing.assert_array_equal(nisa.run(other, {"x": values(np.float32)})["y"], values(np.float32) * 2)


# --- trace= through the output layer -------------------------------------------

def run_traced(trace, program=DOUBLE):
    return nisa.run(program, {"x": values(np.float32)}, trace=trace)


def test_trace_is_never_written_over_the_program(tmp_path):
    path = tmp_path / "p.nasm"
    path.write_text(DOUBLE)
    with pytest.raises(nisa.Error, match="refusing to overwrite an input"):
        run_traced(str(path), program=str(path))
    assert path.read_text() == DOUBLE


def test_trace_through_a_symlink_keeps_the_link(tmp_path):
    (tmp_path / "link.json").symlink_to("real.json")
    run_traced(tmp_path / "link.json")
    assert (tmp_path / "link.json").is_symlink()
    assert "traceEvents" in json.loads((tmp_path / "real.json").read_text())


def test_trace_into_a_fifo_writes_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    run_traced(str(fifo))
    reader.join(10)
    assert fifo.is_fifo() and "traceEvents" in json.loads(got[0])


def test_trace_into_a_directory_is_refused_and_writes_nothing(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(nisa.Error) as info:
        run_traced(tmp_path / "d")
    assert "directory" in info.value.message.lower()
    assert list((tmp_path / "d").iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["d"]


def test_eight_threads_tracing_one_file(tmp_path):
    target = tmp_path / "same.json"
    errors = []

    def work():
        for _ in range(25):
            try:
                run_traced(target)
            except Exception as e:  # noqa: BLE001 - any failure fails the test
                errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert "traceEvents" in json.loads(target.read_text())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["same.json"]  # no temporary file left


# --- threads and signals -------------------------------------------------------

def test_one_program_run_by_eight_threads_gives_exact_results():
    program = nisa.assemble(DOUBLE)
    results, errors = {}, []

    def work(k):
        try:
            for j in range(20):
                x = values(np.float32) + np.float32(k * 100 + j)
                results[(k, j)] = (x, nisa.run(program, {"x": x})["y"])
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(results) == 160
    for x, y in results.values():
        np.testing.assert_array_equal(y, x * 2)


CTRL_C = r"""
import os, signal, sys, threading, time
import numpy as np
import nisa
long = nisa.assemble('''
.hbm x f32 [128, 2048] input
.hbm y f32 [128, 2048] output
.sbuf t f32 [128, 2048]
.sbuf u f32 [128, 2048]
dma_copy dst=t, src=x
dma_copy dst=u, src=x
.rept i, 400000
tensor_tensor dst=u, data1=t, data2=u, op=add
.endr
dma_copy dst=y, src=u
''')
x = np.ones((128, 2048), np.float32)
for strict in (False, True):
    best = None
    for attempt in range(3):  # the best of three: a busy CI machine may not schedule us at once
        sent = []
        def interrupt():
            sent.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)
        threading.Timer(0.3, interrupt).start()
        try:
            nisa.run(long, {"x": x}, strict=strict)
            print("finished", flush=True)
            sys.exit(1)
        except KeyboardInterrupt:
            late = time.monotonic() - sent[0]
            best = late if best is None else min(best, late)
    print(f"interrupted {strict} {best:.3f}", flush=True)
y = nisa.run('''
.hbm x f32 [2, 2] input
.hbm y f32 [2, 2] output
.sbuf t f32 [2, 2]
dma_copy dst=t, src=x
tensor_tensor dst=t, data1=t, data2=t, op=add
dma_copy dst=y, src=t
''', {"x": np.full((2, 2), 3, np.float32)})["y"]
print("next", y.tolist(), flush=True)
"""


def test_ctrl_c_stops_a_long_run_within_a_fifth_of_a_second():
    # The run would take ~10 s; a child process so a stray SIGINT never reaches pytest.
    env = dict(os.environ)
    done = subprocess.run([sys.executable, "-c", CTRL_C], capture_output=True, text=True, timeout=60, env=env)
    lines = done.stdout.split("\n")
    assert done.returncode == 0, done.stdout + done.stderr
    for strict, line in zip(("False", "True"), lines):
        word, mode, seconds = line.split()
        assert (word, mode) == ("interrupted", strict)
        assert float(seconds) < 0.2, line
    assert lines[2] == "next [[6.0, 6.0], [6.0, 6.0]]"


# --- nothing but nisa.Error escapes -------------------------------------------

def mutations(text, rng, count):
    """`count` random byte-level corruptions of `text` (flips, cuts, splices)."""
    data = bytearray(text)
    for _ in range(count):
        out = bytearray(data)
        for _ in range(rng.integers(1, 6)):
            where = int(rng.integers(0, max(1, len(out))))
            kind = rng.integers(0, 4)
            if kind == 0 and out:
                out[where % len(out)] = int(rng.integers(0, 256))
            elif kind == 1:
                del out[where:where + int(rng.integers(1, 20))]
            elif kind == 2:
                out[where:where] = bytes(rng.integers(0, 256, size=int(rng.integers(1, 8)), dtype=np.uint8))
            else:
                out[where:where] = out[:int(rng.integers(0, 40))]
        yield bytes(out)


def test_corrupted_sources_and_binaries_raise_only_nisa_error():
    rng = np.random.default_rng(24)
    x = values(np.float32)
    source = DOUBLE.encode()
    binary = nisa.assemble(DOUBLE).to_nbin()
    ran = 0
    for blob in list(mutations(source, rng, 300)) + list(mutations(binary, rng, 300)):
        for make in (lambda b: nisa.assemble(os.fsdecode(b)), lambda b: nisa.assemble(b)):
            try:
                program = make(blob)
                program.disassemble(), program.to_nbin(), repr(program), program.tensors
                nisa.run(program, {"x": x} if any(t["name"] == "x" for t in program.tensors) else {}, strict=True)
                ran += 1
            except nisa.Error as e:
                assert e.message and isinstance(e.message, str)
    assert ran > 0  # some mutations still assemble and run


# --- bounded messages and limits where the docs put them (LANGUAGE.md 2.6) ----

def test_a_huge_bad_line_gives_a_bounded_message():
    keys = ", ".join(f"zz{i}=1" for i in range(200000))  # a 2 MB line, 200,000 bad keys
    with pytest.raises(nisa.Error) as info:
        nisa.assemble(f".sbuf t f32 [4, 4]\ntensor_scalar dst=t, data=t, {keys}\n")
    assert len(info.value.message) <= 64 * 1024
    assert (info.value.line, info.value.column) == (2, 30)
    excerpt, caret = info.value.message.split("\n")[1:3]
    assert len(excerpt) < 400 and excerpt[caret.index("^"):].startswith("zz0=1")


def test_the_1025th_tensor_is_refused_at_its_line():
    source = "".join(f".hbm t{i} f32 [4] input\n" for i in range(5000))
    with pytest.raises(nisa.Error) as info:
        nisa.assemble(source)
    assert info.value.line == 1025 and "at most 1024 tensors" in info.value.message
