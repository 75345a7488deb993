"""nisa from Python: assemble and run NeuronCore programs in this process.

    import nisa
    out = nisa.run(".hbm x f32 [4, 4] input\\n...", inputs={"x": x})

`program` is .nasm text, a path to a .nasm or .nbin file, or a Program from
nisa.assemble(). Results hold every `output`/`inout` tensor as a new NumPy
array, as `nisa run --dump` would write it; input arrays are never modified.
Every problem raises nisa.Error with the command line's message and, where
the problem has one, its source location (.file, .line, .column).
"""
import os
import re

import numpy as np

from . import _nisa

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


class Program:
    """An assembled (or decoded) program, checked and ready to run."""

    def __init__(self, native):
        self._native = native

    @property
    def tensors(self):
        """Declared tensors: dicts of name, memory, dtype, shape, role, line."""
        return self._native.tensors

    @property
    def file(self):
        return self._native.file

    def __len__(self):
        return self._native.instruction_count

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


def assemble(source, file=None):
    """A Program from .nasm text, or from the path of a .nasm or .nbin file."""
    if isinstance(source, Program):
        return source
    if isinstance(source, (bytes, bytearray)):
        return Program(_native(_nisa.decode, bytes(source), file or "<bytes>"))
    source = os.fspath(source)
    if _looks_like_path(source):
        try:
            with open(source, "rb") as f:
                data = f.read()
        except OSError as e:
            raise Error(f"{source}: error: cannot read: {e.strerror}") from None
        if source.endswith(".nbin"):
            return Program(_native(_nisa.decode, data, file or source))
        return Program(_native(_nisa.assemble, data.decode("utf-8", errors="replace"), file or source))
    return Program(_native(_nisa.assemble, source, file or "<string>"))


def run(program, inputs=None, strict=False, profile=False, trace=None):
    """Runs `program` on `inputs` ({NAME: ndarray}); returns {NAME: ndarray}.

    strict: the hardware's hazards become errors (`nisa run --strict`).
    profile: return (outputs, report) where report holds the estimated
      per-engine table as data ("engines": {engine: {instructions, busy_cycles,
      clock_ghz, busy_us, utilisation}}, "span_us") and as text ("table").
    trace: a path; the Chrome/Perfetto timeline JSON is written there.
    """
    prog = assemble(program)
    arrays = {}
    for name, value in (inputs or {}).items():
        array = np.asarray(value)
        if not array.flags.c_contiguous:
            array = np.ascontiguousarray(array)  # a copy only where the layout needs one
        arrays[name] = array
    outputs, report = _native(_nisa.run, prog._native, arrays, bool(strict), bool(profile))
    if trace is not None:
        text = _native(prog._native.trace_json)
        path = os.fspath(trace)
        if not path:
            raise Error("trace: error: empty path")
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, path)
        except OSError as e:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise Error(f"{path}: error: cannot write: {e.strerror}") from None
    return (outputs, report) if profile else outputs
