"""nisa.nki: a stand-in for NKI 0.6's `nki`, `nki.isa` and `nki.language`
(LANGUAGE.md 4), so that an existing NKI kernel runs on nisa unchanged.

    import nisa.nki
    nisa.nki.install()          # registers the modules nki, nki.isa, nki.language
    import nki, nki.isa as nisa, nki.language as nl

    @nki.jit
    def kernel(a, b): ...
    c = kernel(a_np, b_np)      # NumPy in, NumPy out

Calling a kernel runs its Python once (once per core at kernel[2], two
NeuronCores: _cores.py), recording every nki.isa and nki.language call into
a .nasm program (Python loops unrolled, nl.fori_loop / while_loop /
dynamic_range bodies recorded once as loops; each instruction carries the kernel's
file:line), hands the recording to the assembler's
structures and runs that program in this process. `to_nasm(kernel, *args)`
returns the recorded program as text. Writes into a
parameter reach the caller's array, as on the device; each thread records
its own calls.
"""
import copy
import importlib.util
import inspect
import numbers
import os
import sys
import types

import numpy as np

from .. import Error, Program, _nisa
from .. import assemble as _assemble_text
from .. import run as _run_program
from . import _cores, _dtypes, _record, _registers, _spec
from . import isa, language
from ._tensor import NkiTensor, _render

__all__ = ["install", "jit", "simulate", "to_nasm", "run", "Kernel", "isa", "language"]

_PLATFORMS = _spec.PLATFORMS


class Kernel:
    """A kernel decorated with @nki.jit."""

    def __init__(self, fn, platform_target=None, arch=None, strict=False, print_to=None, max_steps=None, **options):
        self.fn = fn
        self.cores = None  # kernel[n]'s n (the launch's NeuronCores); None: launched without brackets
        self.target = arch or platform_target
        self.strict = strict
        self.print_to = print_to  # where nl.device_print writes (nisa.run's print_to; None: sys.stdout)
        self.max_steps = max_steps  # the loops' step limit (nisa.run's max_steps; None: the default)
        self.options = options  # mode=, debug_kernel=, ...: NKI options with no meaning here
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn

    def __getitem__(self, grid):
        """kernel[n]: the kernel launched on n NeuronCores (NKI 0.6: LNC=n),
        which the kernel tells apart by nl.program_id (LANGUAGE.md 4)."""
        launched = copy.copy(self)
        launched.cores = _launch_cores(self, grid)
        return launched

    def __call__(self, *args, **kwargs):
        return run(self, *args, **kwargs)

    # nisa.nki's own calls, also as the kernel's methods: a test that did
    # `import nki.isa as nisa` reaches them without the nisa package's name.
    def to_nasm(self, *args, **kwargs):
        """The .nasm text a call with these arguments records (nisa.nki.to_nasm)."""
        return to_nasm(self, *args, **kwargs)

    def run(self, *args, strict=None, profile=False, **kwargs):
        """The call, with nisa.nki.run's strict= and profile= (nisa.nki.run)."""
        return run(self, *args, strict=strict, profile=profile, **kwargs)

    def arch(self):
        target = self.target or os.environ.get("NEURON_PLATFORM_TARGET_OVERRIDE") or "trn2"
        if not isinstance(target, str) or target not in _PLATFORMS:
            raise Error(f"{self.__name__}: error: unknown platform target '{target}' (trn1, inf2, trn2, trn3, gen2, gen3, "
                        "gen4)", 2)
        return _PLATFORMS[target]


def _launch_cores(kernel, grid):
    """The cores of kernel[grid]. NKI 0.6 (get-started/about/lnc.rst): the
    bracket holds one number, the logical NeuronCore count (LNC), which the
    arch bounds: 1 or 2 on trn2 and trn3, 1 on trn1 and inf2 (the spec's
    archs[].max_cores). The legacy kernel[nl.nc(2)] (neuronxcc.nki) is
    kernel[2]."""
    n = grid.cores if isinstance(grid, language.nc) else grid
    arch = kernel.arch()
    most = _spec.ARCHS[arch]["max_cores"]
    rule = f"NKI 0.6's launch kernel[n] takes one number, the count of NeuronCores (LNC): 1 to {most} on {arch}"
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):
        raise Error(f"{kernel.__name__}: error: launch grid {grid!r}: {rule} (a grid of several dimensions is not "
                    "NKI 0.6's)", 2)
    if not 1 <= n <= most:
        raise Error(f"{kernel.__name__}: error: kernel[{int(n)}]: {rule}", 2)
    return int(n)


def jit(fn=None, **options):
    """@nki.jit or @nki.jit(platform_target="trn1", strict=True, print_to=PATH, max_steps=N, ...)."""
    if fn is None:
        return lambda f: jit(f, **options)
    if isinstance(fn, Kernel):
        return fn
    if not callable(fn) or not hasattr(fn, "__code__"):
        raise Error(f"nisa.nki: error: @nki.jit decorates a Python function, not a {type(fn).__name__}", 2)
    return Kernel(fn, **options)


def simulate(kernel):
    """nki.simulate(kernel)(args): the kernel run on nisa."""
    return kernel if isinstance(kernel, Kernel) else jit(kernel)


class _Recorded:
    def __init__(self, inputs, outputs, structure, recording, write_backs):
        self.inputs, self.outputs, self.structure, self.recording = inputs, outputs, structure, recording
        self.write_backs = write_backs  # [(tensor name, the caller's ndarray)] the kernel wrote
        self._text = None

    @property
    def text(self):
        """The recorded program as .nasm text (to_nasm; a call only writes
        it to report an error of the program)."""
        return self._text_and_origins()[0]

    @property
    def origins(self):
        """The Location each line of `text` came from (1-based), or None."""
        return self._text_and_origins()[1]

    def _text_and_origins(self):
        if self._text is None:
            self._text = self.recording.text(NkiTensor, _render)
        return self._text


def _record_call(kernel, args, kwargs):
    kernel = jit(kernel)
    fn = kernel.fn
    signature, source_file = _signature(kernel)
    try:
        bound = signature.bind(*args, **kwargs)
    except (TypeError, ValueError) as e:
        raise Error(f"{kernel.__name__}: error: {e}", 2) from None
    bound.apply_defaults()
    cores = 1 if kernel.cores is None else _launch_cores(kernel, kernel.cores)
    rec = _record.Recording(kernel.__name__, source_file, kernel.arch(), cores=cores,
                            grid_ndim=0 if kernel.cores is None else 1)
    with _record.no_cyclic_gc():
        with _record.recording_into(rec):
            params, inputs = [], {}
            for name, value in bound.arguments.items():
                parameter = _parameter(rec, kernel, name, value)
                if parameter is not None:
                    storage, inputs[storage] = parameter
                    params.append((storage, name))
                    bound.arguments[name] = NkiTensor(storage)
            _refuse_shared_writes(params, inputs)
            result = fn(*bound.args, **bound.kwargs)
            _registers.check_closed(rec)
            inputs.update(rec.constants)  # nl.shared_constant's arrays
            outputs, structure = _returned(rec, kernel, result)
        if cores > 1:
            rec = _record_other_cores(kernel, rec, bound, params, outputs, structure)
        for storage in outputs:
            if storage.role == "scratch":
                storage.role = "output"
        for storage in outputs + [s for s, _ in params if s.written]:
            if storage.role == "input":
                storage.role = "inout"  # its final value comes back from the run
        rec.place_on_chip()
        rec.name_tensors(params, outputs)
    write_backs = [(s.name, s.caller_array) for s, _ in params if s.written]
    return _Recorded({s.name: a for s, a in inputs.items()}, outputs, structure, rec, write_backs)


def _record_other_cores(kernel, rec, bound, params, outputs, structure):
    """Records cores 1, 2, ... of a launch of several cores (core 0's is
    `rec`): the kernel runs again with nl.program_id the core, on the same
    parameter tensors, each shared_hbm tensor it makes being core 0's
    (_cores.py). Each core returns the same shared tensors; each
    nl.shared_constant holds the same values on every core (NKI 0.6: "the
    data must not diverge across cores")."""
    core0_shared = [s for s in rec.storages[len(params):] if s.region == "shared_hbm"]
    constants = {id(s): a for s, a in rec.constants}
    recordings = [rec]
    for core in range(1, rec.cores):
        other = _record.Recording(rec.kernel_name, rec.kernel_file, rec.arch, core=core, cores=rec.cores,
                                  grid_ndim=rec.grid_ndim, token=rec.token, core0_shared=core0_shared)
        for storage, name in params:
            bound.arguments[name] = NkiTensor(storage)  # a view of its own: a core's run cannot change another's
        with _record.recording_into(other):
            result = kernel.fn(*bound.args, **bound.kwargs)
            _registers.check_closed(other)
            returned = _returned(other, kernel, result)
        if returned != (outputs, structure):
            raise other.error(f"kernel {kernel.__name__} returns other tensors on core {core} than on core 0: at a "
                              "launch of several cores each core returns the same shared_hbm tensors",
                              _record.Location(rec.kernel_file, kernel.fn.__code__.co_firstlineno))
        for storage, array in other.constants:
            if not np.array_equal(array, constants[id(storage)]):
                raise other.error(f"core {core}'s nl.shared_constant holds other values than core 0's: it is one "
                                  "constant for all cores, which must not diverge (NKI 0.6)", storage.created_at)
        recordings.append(other)
    return _cores.CoreRecordings(recordings)


def _signature(kernel):
    """The kernel function's inspect.Signature and source file, kept while
    the function's code is the same (a recording looks them up once)."""
    fn = kernel.fn
    kept = kernel.__dict__.get("_signature")
    if kept is None or kept[0] is not fn or kept[1] is not fn.__code__:
        kept = kernel._signature = (fn, fn.__code__, inspect.signature(fn),
                                    inspect.getsourcefile(fn) or fn.__code__.co_filename)
    return kept[2], kept[3]


def _is_array(value):
    """A kernel argument that becomes an HBM tensor: a NumPy array or an
    array-like with a dtype and shape (a NumPy scalar stays a constant)."""
    if isinstance(value, np.ndarray):
        return True
    return not isinstance(value, np.generic) and all(hasattr(value, a) for a in ("__array__", "dtype", "shape"))


def _parameter(rec, kernel, name, value):
    """(storage, array to run on) for an array argument, else None: other
    arguments reach the kernel as they are (constants of the recording)."""
    if not _is_array(value):
        return None
    where = f"{kernel.__name__}: error: parameter '{name}'"
    try:
        array = np.asarray(value)
    except Exception as e:  # an array-like's own __array__ failing
        raise Error(f"{where}: cannot be read as a NumPy array: {e}", 2) from e
    dtype = _dtypes.canonical(array.dtype)
    if dtype is None:
        void = " (a void array holds bits of no stated format, as np.load gives an ml_dtypes array's file without " \
               "ml_dtypes: view it as its ml_dtypes type)" if array.dtype.kind == "V" and array.dtype.names is None else ""
        raise Error(f"{where}: NumPy dtype {array.dtype} is not one nisa models (float32, float16, int8/16/32, "
                    "uint8/16/32, bool; with ml_dtypes bfloat16, float8_e4m3, float8_e4m3fn, float8_e5m2)" + void, 2)
    if array.ndim == 0:
        raise Error(f"{where}: a 0-d array is not a tensor", 2)
    storage = rec.new_storage("shared_hbm", dtype, array.shape, name, role="input")
    storage.unwritable = _why_unwritable(name, value, dtype)
    storage.caller_array = value if storage.unwritable is None else None
    return storage, array


def _why_unwritable(name, value, dtype):
    """Why the caller's `value` cannot take the kernel's writes to it (raised at
    the kernel's first write, LANGUAGE.md 4), or None."""
    cannot = f"the kernel writes parameter '{name}', but"
    if not isinstance(value, np.ndarray):
        return f"{cannot} it is of type {type(value).__name__}, not a NumPy array, so the write cannot reach the caller " \
               "(pass a NumPy array)"
    if not value.flags.writeable:
        return f"{cannot} the caller's array is read-only (pass a writable array, e.g. a copy)"
    returned = _dtypes.returned_numpy(dtype)
    if value.dtype.newbyteorder("=") != returned:  # any byte order takes the values exactly
        return f"{cannot} its {_dtypes.nasm_name(dtype)} tensor comes back as {returned}, which the caller's " \
               f"{value.dtype} array cannot take exactly (pass a {returned} array)"
    return None


def _refuse_shared_writes(params, inputs):
    """Parameters sharing memory are separate tensors here, so a write to one
    would not show through the other as it does on the device: refused at
    the write."""
    for i, (a, a_name) in enumerate(params):
        for b, b_name in params[i + 1:]:
            if a.unwritable and b.unwritable or not _shares_memory(inputs[a], inputs[b]):
                continue
            why = f"the kernel writes parameter '{{}}', but it shares memory with parameter '{{}}', and nisa.nki " \
                  "gives each its own copy (pass separate arrays)"
            a.unwritable = a.unwritable or why.format(a_name, b_name)
            b.unwritable = b.unwritable or why.format(b_name, a_name)


def _shares_memory(x, y):
    try:
        return bool(np.shares_memory(x, y, max_work=100000))
    except getattr(np, "exceptions", np).TooHardError:
        return True


def _returned(rec, kernel, result):
    """The HBM tensors a kernel returns, in order, and the shape of the
    result. A view of an HBM tensor (a reshape, a slice, ...) returns its
    tensor, and the view is taken of the run's array (_rebuild)."""
    outputs = []

    def walk(value):
        if isinstance(value, NkiTensor):
            if value.storage.buffer != "hbm" or value.is_indirect():
                raise rec.error(f"kernel {kernel.__name__} returns {value!r}: a kernel returns HBM tensors or views of "
                                "them (without a runtime index)",
                                _record.Location(rec.kernel_file, kernel.fn.__code__.co_firstlineno))
            if rec.cores > 1 and value.storage.region != "shared_hbm":
                raise rec.error(f"kernel {kernel.__name__} returns {value!r}, which each core has its own of "
                                f"(buffer {value.storage.region}): at a launch of {rec.cores} cores a kernel returns "
                                "nl.shared_hbm tensors (NKI 0.6)",
                                _record.Location(rec.kernel_file, kernel.fn.__code__.co_firstlineno))
            if value.storage not in outputs:
                outputs.append(value.storage)
            if value.is_whole():
                return ("tensor", value.storage)
            return ("view", (value.storage, value.offset, value.pattern))
        if isinstance(value, (tuple, list)):
            return (type(value), [walk(v) for v in value])
        if value is None:
            return ("none", None)
        raise rec.error(f"kernel {kernel.__name__} returns a {type(value).__name__}; expected HBM tensors",
                        _record.Location(rec.kernel_file, kernel.fn.__code__.co_firstlineno))

    structure = walk(result)
    # `walk` calls itself through this variable: a reference cycle (and `rec`
    # in it) that left the whole recording to the cyclic collector rather
    # than freed as the call returns, unless the variable lets go of it.
    walk = None
    return outputs, structure


def _rebuild(structure, arrays):
    kind, value = structure
    if kind == "tensor":
        return arrays[value.name]
    if kind == "view":
        return _view_of(arrays[value[0].name], value[1], value[2])
    if kind == "none":
        return None
    return kind(_rebuild(s, arrays) for s in value)


def _view_of(array, offset, pattern):
    """The elements a view (offset, ((stride, count), ...) in elements of the
    row-major tensor) looks at, as a new array of the view's shape."""
    flat = np.ascontiguousarray(array).reshape(-1)
    shape = tuple(n for _, n in pattern)
    strides = tuple(s * flat.itemsize for s, _ in pattern)
    return np.lib.stride_tricks.as_strided(flat[offset:], shape, strides, writeable=False).copy()


def _assemble(recorded):
    """The recorded program, checked: the recording handed over as values
    to the assembler's own structures and checks (_nisa.build_recorded), no
    text written or read. Where that refuses the program, its text is
    assembled: the assembler's error is then reported at the kernel line the
    offending .nasm line came from."""
    rec = recorded.recording
    arch, file, declarations = rec.handoff()
    if rec.cores == 1:
        native = _nisa.build_recorded(arch, file, declarations, rec.instructions, NkiTensor, _record.render_value,
                                      nki=rec.nki, registers=rec.handoff_registers(),
                                      register_type=_registers.Register)
    else:
        native = _nisa.build_recorded(arch, file, declarations, [], NkiTensor, _record.render_value, rec.sections(),
                                      nki=rec.nki, register_type=_registers.Register)
    if native is not None:
        return Program(native)
    return _assemble_text_of(recorded)


def _assemble_text_of(recorded):
    """Assembles the recorded text; an assembler error is reported at the
    kernel line the offending .nasm line came from."""
    try:
        return _assemble_text(recorded.text, file="<recorded>")
    except Error as e:
        origin = recorded.origins[e.line - 1] if e.line and 0 < e.line <= len(recorded.origins) else None
        if origin is None:
            raise
        first = e.message.splitlines()[0]
        detail = first.split(" error: ", 1)[1] if " error: " in first else first
        source = recorded.text.splitlines()[e.line - 1]
        raise Error(f"{origin.prefix()} error: {detail}\n  recorded as: {source}", e.exit_status) from None


def _write_back(recorded, arrays):
    """What NKI does on the device: a kernel's writes to a parameter's HBM
    tensor are seen by the caller (LANGUAGE.md 4). nisa.run itself never
    modifies its inputs; this is the @nki.jit call's doing."""
    for name, target in recorded.write_backs:
        np.copyto(target, arrays[name], casting="equiv")


def to_nasm(kernel, *args, **kwargs):
    """The .nasm text a call of `kernel` with these arguments records."""
    return _record_call(kernel, args, kwargs).text


def run(kernel, *args, strict=None, profile=False, print_to=None, max_steps=None, **kwargs):
    """Calls `kernel` on nisa: NumPy arrays in, NumPy arrays out (a tuple if
    it returns several); a parameter the kernel wrote takes its final value
    in the caller's array (LANGUAGE.md 4). strict: the hazards become errors naming the
    kernel's line (`nisa run --strict`); profile: also return the report of
    nisa.run(profile=True); print_to: where nl.device_print writes, as
    nisa.run's print_to (default: the kernel's @nki.jit(print_to=...), else
    sys.stdout); max_steps: the loops' step limit, as nisa.run's (default: the
    kernel's @nki.jit(max_steps=...), else nisa.run's default)."""
    kernel = jit(kernel)
    # The collector stays off until the recording is freed (by reference
    # counting, as _call returns): turned back on while it lives, its next
    # pass walks every object of the recording.
    with _record.no_cyclic_gc():
        return _call(kernel, args, kwargs, strict, profile, print_to, max_steps)


def _call(kernel, args, kwargs, strict, profile, print_to, max_steps):
    recorded = _record_call(kernel, args, kwargs)
    program = _assemble(recorded)
    strict = kernel.strict if strict is None else strict
    print_to = kernel.print_to if print_to is None else print_to
    max_steps = kernel.max_steps if max_steps is None else max_steps
    result = _run_program(program, recorded.inputs, strict=bool(strict), profile=profile, print_to=print_to,
                          max_steps=max_steps)
    arrays, report = result if profile else (result, None)
    _write_back(recorded, arrays)
    value = _rebuild(recorded.structure, arrays)
    return (value, report) if profile else value


class _TensorAnnotation:
    """nki.typing.tensor[shape...]: an annotation only."""

    def __class_getitem__(cls, item):
        return cls


def _dtype_module():
    """nki.dtype: NKI's dtypes (the nki.language ones: `nl.float32 == "float32"`),
    which kernels also use as an annotation (`dtype: nki.dtype = nl.bfloat16`)."""
    module = types.ModuleType("nki.dtype", "NKI's dtypes, as nki.language has them.")
    for name in _dtypes.TABLE:
        setattr(module, name, getattr(language, name))
    return module


def install(version="0.6"):
    """Registers nisa.nki as the modules `nki`, `nki.isa` and `nki.language`
    (and nki.typing, nki.dtype, nki.isa.constants, and all of them again
    as neuronxcc.nki...), replacing any already imported. Everything nisa.nki offers is on `nki` too (to_nasm, run,
    Error, and cpu_simulate as nki-library's test harness calls it), so a
    kernel module's `import nki.isa as nisa` hides nothing.

    `version`: the NKI release the kernels are written for, as a real NKI
    is chosen by the package version installed: "0.6" (default) or "0.7"
    (its instruction forms: topk's snake-layout results and sorted=).
    Kernels recorded from then on carry it as their program's `.nki`."""
    if version not in _spec.NKI_VERSIONS:
        raise Error(f"nisa.nki.install: NKI version {version!r} is not one of {', '.join(_spec.NKI_VERSIONS)}")
    _record.nki_version = version
    nki = types.ModuleType("nki", __doc__)
    nki.__path__ = []  # a package, so that `import nki.isa` finds the submodules below
    nki.jit, nki.simulate, nki.isa, nki.language = jit, simulate, isa, language
    nki.cpu_simulate = simulate  # nki-library's harness: nki.cpu_simulate(kernel)[lnc](**inputs)
    nki.to_nasm, nki.run, nki.install, nki.Error, nki.Kernel = to_nasm, run, install, Error, Kernel
    nki.typing = types.ModuleType("nki.typing", "Type annotations of NKI kernels (no effect when recording).")
    nki.typing.tensor = nki.typing.mutable_tensor = _TensorAnnotation  # mutable_tensor: a parameter the kernel writes
    nki.dtype = _dtype_module()
    isa.__path__ = []  # a package too: `from nki.isa.constants import dge_mode`
    sys.modules["nki"] = nki
    sys.modules["nki.typing"] = nki.typing
    sys.modules["nki.dtype"] = nki.dtype
    sys.modules["nki.isa"] = isa
    sys.modules["nki.isa.constants"] = isa.constants
    sys.modules["nki.language"] = language
    # The same modules under the name of the package NKI came in before it
    # was `nki` (neuronxcc.nki): nki-library's router_topk still does
    # `import neuronxcc.nki.typing as nt`. A real neuronxcc keeps its other
    # modules; only its nki ones are replaced, as nki is.
    if "neuronxcc" not in sys.modules and importlib.util.find_spec("neuronxcc") is None:
        neuronxcc = types.ModuleType("neuronxcc", "nisa.nki's stand-in: only neuronxcc.nki, the same modules as nki.")
        neuronxcc.__path__ = []
        sys.modules["neuronxcc"] = neuronxcc
    sys.modules["neuronxcc"].nki = nki
    for name in ("", ".typing", ".dtype", ".isa", ".isa.constants", ".language"):
        sys.modules["neuronxcc.nki" + name] = sys.modules["nki" + name]
    return nki
