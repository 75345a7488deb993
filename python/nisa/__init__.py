"""nisa from Python: assemble and run NeuronCore programs in this process.

    import nisa
    out = nisa.run(".hbm x f32 [4, 4] input\\n...", inputs={"x": x})

`program` is .nasm text, a path to a .nasm or .nbin file (a str ending in
.nasm/.nbin, or any os.PathLike), or a Program from nisa.assemble(). Results
hold every `output`/`inout` tensor as a new NumPy array, as `nisa run --dump`
would write it (bf16 and fp8 tensors as float32, or as `ml_dtypes` arrays
where it is installed); input arrays are never modified. Every problem raises
nisa.Error with the command line's message and, where the problem has one, its
source location (.file, .line, .column). Ctrl-C stops a run within a fraction
of a second (KeyboardInterrupt). Runs on several threads at once are safe.
"""
import os
import re
import sys

import numpy as np

from . import _ml_dtypes, _nisa

__all__ = ["Error", "Program", "assemble", "run"]


class Error(Exception):
    """A nisa error: `message` is what the CLI prints (first line of several
    assembler errors: all of them); `file`, `line` and `column` locate the first
    one (None where the message has no such part); `exit_status` is the CLI's."""

    _LOCATION = re.compile(r"^(?P<file>.*?):(?:(?P<line>\d+):(?:(?P<column>\d+):)?)? error: ", re.M)

    def __init__(self, message, exit_status=2):
        super().__init__(message.rstrip("\n"))
        self.message = message.rstrip("\n")
        self.exit_status = exit_status
        m = self._LOCATION.search(self.message)
        self.file = m.group("file") if m else None
        self.line = int(m.group("line")) if m and m.group("line") else None
        self.column = int(m.group("column")) if m and m.group("column") else None


def _native(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except _nisa.NativeError as e:
        message, status = e.args if len(e.args) == 2 else (str(e), 2)
        raise Error(message, status) from None


def _bytes(text):
    """A str as the bytes the command line would see: UTF-8, with the lone
    surrogates of os.fsdecode (undecodable bytes of a name) turned back."""
    return text.encode("utf-8", "surrogateescape")


def _path_bytes(path, what):
    try:
        return os.fsencode(path)
    except TypeError:
        raise Error(f"{what}: error: expected a path (str, bytes or os.PathLike), got {type(path).__name__}") from None


def _file_path_bytes(path, what):
    """_path_bytes of a path that names a file to read or write: never empty."""
    encoded = _path_bytes(path, what)
    if not encoded:
        raise Error(f"{what}: error: the path is empty")
    return encoded


class Program:
    """An assembled (or decoded) program, checked and ready to run."""

    def __init__(self, native):
        self._native = native

    @property
    def tensors(self):
        """Declared tensors: dicts of name, memory, dtype, shape, role, line and
        core (None: shared by every core; else the core whose own it is)."""
        return self._native.tensors

    @property
    def cores(self):
        """How many NeuronCores the program runs on (LANGUAGE.md 2.7)."""
        return self._native.cores

    @property
    def file(self):
        """The program's file name (undecodable bytes as os.fsdecode gives them)."""
        return os.fsdecode(self._native.file)

    def __len__(self):
        return self._native.instruction_count

    def _bits_outputs(self):
        """{name: .nasm dtype} of the output tensors a run returns as their
        bits (bf16, fp8), to be viewed as ml_dtypes' types; found once."""
        found = self.__dict__.get("_bits")
        if found is None:
            found = self._bits = {t["name"]: t["dtype"] for t in self.tensors if t["dtype"] in _ml_dtypes.NAMES
                                  and t["memory"] == "hbm" and t["role"] in ("output", "inout")}
        return found

    def to_nbin(self):
        """The .nbin bytes (`nisa asm`)."""
        return _native(self._native.to_nbin)

    def disassemble(self):
        """Canonical .nasm text (`nisa dis`)."""
        return _native(self._native.disassemble)

    def __repr__(self):
        return f"<nisa.Program {self.file!r}: {len(self)} instructions, {len(self.tensors)} tensors>"


def _looks_like_path(text):
    return "\n" not in text and text.endswith((".nasm", ".nbin"))


def _cores(value):
    """cores= as the native calls take it: 0 when not given."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 8:
        raise Error(f"cores: error: expected an int from 1 to 8, got {value!r}")
    return value


def assemble(source, file=None, cores=None):
    """A Program from .nasm text (str), .nbin bytes, or the path of a .nasm or
    .nbin file (a str ending in .nasm or .nbin, or any os.PathLike: a .nasm
    file is assembled, anything else decoded, as `nisa run` does). `file`
    names the program in messages. `cores` is `nisa run --cores N`: the core
    count of .nasm text without `.cores`; a program that says its count must
    say the same."""
    if isinstance(source, Program):
        if cores is not None and _cores(cores) != source.cores:
            raise Error(f"cores: error: the program is for {source.cores} cores, not {cores}")
        return source
    if file is not None and not isinstance(file, (str, bytes, os.PathLike)):
        raise Error(f"file: error: expected a str, got {type(file).__name__}")
    name = None if file is None else _path_bytes(file, "file")
    count = _cores(cores)
    if isinstance(source, (bytes, bytearray, memoryview)):
        program = Program(_native(_nisa.decode, bytes(source), name or b"<bytes>"))
        if count and count != program.cores:
            raise Error(f"{os.fsdecode(name or b'<bytes>')}: error: the program is for {program.cores} cores but cores= asks for {count}")
        return program
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _looks_like_path(source)):
        path = _file_path_bytes(source, "program")
        return Program(_native(_nisa.load, path, name or path, count))
    if not isinstance(source, str):
        raise Error(f"program: error: expected .nasm text, a path, .nbin bytes or a nisa.Program; got "
                    f"{type(source).__name__}")
    return Program(_native(_nisa.assemble, _bytes(source), name or b"<string>", count))


def _input_array(where, name, value):
    """`value` as an array the run reads in place: C order and native byte
    order, converted exactly where the caller's array is otherwise."""
    try:
        array = np.asarray(value)
    except Exception as e:  # a ragged list, an object whose __array__ fails...
        raise Error(f"{where}: error: input {name}: not an array ({type(e).__name__}: {e})") from None
    if array.dtype.hasobject or array.dtype.fields is not None or array.dtype.subdtype is not None:
        return array  # refused by dtype with the tensor's expected one (_nisa)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))  # the same values, native bytes
    if not array.flags.c_contiguous:
        array = np.ascontiguousarray(array)  # a copy only where the layout needs one
    return array


def _inputs(inputs, where):
    """{NAME: array} as _nisa.run takes it; `where` (the program's file)
    starts each message, as the run's own input errors do."""
    if inputs is None:
        return {}
    if not hasattr(inputs, "items"):
        raise Error(f"{where}: error: inputs: expected a dict of {{name: array}}, got {type(inputs).__name__}")
    arrays = {}
    for name, value in inputs.items():
        if not isinstance(name, str):
            raise Error(f"{where}: error: inputs: names are str (tensor names), not {type(name).__name__} ({name!r})")
        arrays[_bytes(name)] = _input_array(where, name, value)
    return arrays


def _hbm_limit(value):
    """hbm_limit= as bytes (0: the default, this machine's memory)."""
    if value is None:
        return 0
    if isinstance(value, str):
        size = _nisa.byte_size(value)
        if size is not None:
            return size
    elif isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 1 << 62:
        return value
    raise Error(f"hbm_limit: error: expected a size in bytes (a positive int, or a str such as '64G'), got {value!r}")


def _max_steps(value):
    """max_steps= as a count (0: the default, SEMANTICS S17.2)."""
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 1 << 64:
        return value
    raise Error(f"max_steps: error: expected a positive int (instructions the loops may run), got {value!r}")


def _print_to(value):
    """print_to= as (file path bytes, write callable): a path is written
    with the run's other outputs; a text stream's write (default
    sys.stdout's, looked up now, so that a redirected or captured stdout
    gets the text) takes each print as it runs."""
    if value is None:
        stdout = sys.stdout
        return b"", (stdout.write if stdout is not None else None)
    if isinstance(value, (str, bytes, os.PathLike)):
        return _file_path_bytes(value, "print_to"), None
    write = getattr(value, "write", None)
    if callable(write):
        return b"", write
    raise Error(f"print_to: error: expected a path, a text stream (with .write) or None, got {type(value).__name__}")


def run(program, inputs=None, strict=False, profile=False, trace=None, hbm_limit=None, print_to=None, cores=None,
        max_steps=None):
    """Runs `program` on `inputs` ({NAME: ndarray}); returns {NAME: ndarray}.

    A bf16 or fp8 tensor takes an ml_dtypes array of its dtype (its bits as
    they are) or a float32 array (rounded to nearest even), and comes back
    as an ml_dtypes array; without ml_dtypes, as float32 (exactly, as
    `nisa run --dump` writes it).

    strict: the hardware's hazards become errors (`nisa run --strict`).
    profile: return (outputs, report) where report holds the estimated
      per-engine table as data ("engines": {engine: {instructions, busy_cycles,
      clock_ghz, busy_us, utilisation}}, "span_us") and as text ("table").
    trace: a path; the Chrome/Perfetto timeline JSON is written there as
      `nisa run --trace` writes it (whole or not at all; never over the
      program's own file; a symlink, FIFO or device is written through).
    hbm_limit: bytes the program's HBM tensors may take in all (an int, or a
      str such as "64G"); default: this machine's memory (`nisa run
      --hbm-limit`). A program over it is refused before it runs.
    print_to: where device_print's text goes: None (default) sys.stdout, each
      print as it runs; a text stream (anything with .write), likewise; a
      path, written after the run with the other outputs (`nisa run
      --print-to`: whole or not at all).
    cores: the core count of a .nasm program without `.cores` (`nisa run
      --cores N`; LANGUAGE.md 2.7).
    max_steps: the instructions the program's loops may run (counted over
      their iterations) before the run stops with an Error; default 10**9
      (`nisa run --max-steps`; SEMANTICS S17.2).
    """
    limit = _hbm_limit(hbm_limit)
    steps = _max_steps(max_steps)
    prog = assemble(program, cores=cores)
    arrays = _inputs(inputs, prog.file)
    trace_path = b"" if trace is None else _file_path_bytes(trace, "trace")
    print_file, print_write = _print_to(print_to)
    outputs, report = _native(_nisa.run, prog._native, arrays, bool(strict), bool(profile), trace_path, limit,
                              _ml_dtypes.ml_dtypes is not None, print_file, print_write, steps)
    _ml_dtypes.view_outputs(outputs, prog._bits_outputs())
    return (outputs, report) if profile else outputs
