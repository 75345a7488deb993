"""The recording of one kernel call: tensors declared, instructions issued,
each with the kernel's Python file:line, then SBUF/PSUM placed and the whole
written out as .nasm text (LANGUAGE.md 2, 4).

A kernel runs once as plain Python; every nki.isa / nki.language call appends
an Instruction here. Python loops come out unrolled; the runtime loops
(nl.fori_loop, while_loop, dynamic_range: _registers.py) are recorded once,
as loops. Only when the kernel has returned are the on-chip tiles given
addresses: each tile lives from the first to the last instruction that
touches it (a loop's whole body if it is used in one), and a tile whose
life is over gives its bytes to later ones (as NKI's allocator does), so a
kernel that allocates a tile per loop iteration still fits.
"""
import bisect
import contextlib
import functools
import gc
import heapq
import linecache
import numbers
import os
import re
import sys
import threading
import weakref

from .. import Error
from . import _dtypes, _spec

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # build/python/nisa

# The NKI version whose instruction forms a recording uses (its `.nki`):
# nisa.nki is NKI 0.6's API unless install(version="0.7") chose 0.7's
# (topk's snake-layout results and sorted=).
nki_version = "0.6"

# Per-partition bytes of each arch's SBUF and PSUM (isa-spec/isa.json "archs").
SBUF_PARTITION_BYTES = _spec.SBUF_PARTITION_BYTES
PSUM_PARTITION_BYTES = _spec.PSUM_PARTITION_BYTES
ALIGN = 64  # the assembler's alignment of automatic tensors (LANGUAGE.md 2.1)
PARTITIONS = _spec.PARTITIONS

# Names a tensor cannot take: the assembler reads them as numbers, booleans or
# enumeration values (every name and alias of isa-spec/isa.json "enums").
_RESERVED = {"inf", "nan", "iota", "true", "false", "fp32"} | _spec.ENUM_WORDS


# The Recording of the kernel call in progress, one per thread: kernels called
# at once on different threads each record their own program (LANGUAGE.md 4).
class _State(threading.local):
    recording = None  # each thread's own attribute once set; this default before


_state = _State()


def current():
    """This thread's kernel call being recorded, or None."""
    return _state.recording


def recording():
    """The kernel call being recorded; nki calls outside one are an error."""
    rec = _state.recording
    if rec is None:
        raise Error("nisa.nki: error: nki.language and nki.isa calls record into a kernel: call them inside a function "
                    "decorated with @nki.jit (after nisa.nki.install())", 2)
    return rec


@contextlib.contextmanager
def recording_into(rec):
    """Makes `rec` this thread's recording for the kernel's run. A kernel
    calling another @nki.jit kernel is refused: NKI has no nested kernels."""
    if current() is not None:
        raise Error(f"{rec.kernel_name}: error: a kernel cannot call another @nki.jit kernel", 2)
    _state.recording = rec
    try:
        yield rec
    finally:
        _state.recording = None


@contextlib.contextmanager
def no_cyclic_gc():
    """Python's cyclic garbage collector off while a kernel is recorded: the
    recording only adds objects, and each full collection walks all of them,
    so with it on, recording n instructions took O(n^2) (a 30,000-instruction
    kernel spent half its time in 6 full collections). Reference counting
    still frees everything that is not in a cycle; the collector is turned
    back on (if it was on) when the recording ends (nisa.nki.run: when the
    call ends), and collects then. Kernels recording at once on several
    threads: the first to start turns it off, and it is back on when that
    one ends."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _MissingAttribute(Error, AttributeError):
    """A nisa.Error that is also an AttributeError, so that hasattr() and
    getattr(x, name, default) keep working on tensors."""


# Python's own errors from bad arguments (a wrong keyword, a string where a
# shape goes, ...) that an nki call may raise before it checks them itself.
_PYTHON_ERRORS = (TypeError, ValueError, AttributeError, IndexError, KeyError, ZeroDivisionError, OverflowError)


def misuse(message, error_class=Error):
    """A nisa.Error at the kernel's line when a kernel is being recorded, else
    one naming nisa.nki (a call made outside any kernel)."""
    rec = current()
    if rec is None:
        return error_class(f"nisa.nki: error: {message}", 2)
    location = rec.location()
    return error_class(f"{location.prefix()} error: {message}", 2)


def checked(fn, label):
    """`fn` with Python's errors from bad arguments raised as nisa.Error at
    the kernel's line ("every problem raises nisa.Error", LANGUAGE.md 4).
    The nki calls' own code calls the unwrapped functions (`__wrapped__`), so
    a kernel's call passes through one wrapper: the frame below the outermost
    wrapper is the kernel's (Recording.location looks for it)."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except _PYTHON_ERRORS as e:
            if isinstance(e, Error):  # already located (an AttributeError-like nisa.Error)
                raise
            raise misuse(f"{label}: {e}") from e
    return call


# The code of every checked() wrapper: the frame that called one is the kernel's.
# nki.isa's instructions check their own errors: their code is _ENTRY_CODE.
_CALL_CODE = checked(lambda: None, "").__code__
_ENTRY_CODE = None


class Location:
    __slots__ = ("file", "line", "column")

    def __init__(self, file, line, column=None):
        self.file, self.line, self.column = file, line, column

    def prefix(self):
        return f"{self.file}:{self.line}:" + (f"{self.column}:" if self.column else "")


class Storage:
    """One declared tensor: an HBM array (kernel parameter, output or scratch)
    or an on-chip tile. Views (nisa.nki.language.NkiTensor) point at it."""

    __slots__ = ("token", "region", "buffer", "on_chip", "dtype", "shape", "created_at", "hint", "user_name", "role",
                 "same_as", "index",
                 "name", "declared", "whole_pattern", "first_use", "last_use", "offset", "written", "fresh_result",
                 "aliased", "matmul_written", "caller_array", "unwritable", "address", "__weakref__")

    def __init__(self, region, dtype, shape, created_at, hint, user_name="", role=None, token=None):
        # The token of the Recording that declared it (Recording.token): no
        # reference to the recording, so no cycle, and a finished recording is
        # freed at once, without the cyclic collector.
        self.token = token
        self.region = region  # NKI's buffer: sbuf, psum, hbm, private_hbm, shared_hbm
        self.buffer = buffer = region if region == "sbuf" or region == "psum" else "hbm"
        self.on_chip = buffer != "hbm"
        self.dtype = dtype  # NKI spelling
        self.shape = shape if shape.__class__ is tuple else tuple(shape)
        self.created_at = created_at
        self.hint = hint  # a name to start from
        self.user_name = user_name  # nl.ndarray(name=...)
        self.role = role  # for HBM: "input", "output", "inout", "scratch"
        self.name = None  # given when the text is written
        self.declared = True  # False: an earlier tile's declaration names it (Recording.name_tensors) ...
        self.same_as = None  # ... that tile
        self.index = None  # the tensor's index in the program (Recording.declarations)
        self.whole_pattern = None  # the row-major ((stride, count), ...) of the whole tensor, once asked for
        self.first_use = None  # instruction indexes
        self.last_use = None
        self.offset = None  # on chip: byte offset in each partition
        self.written = False
        self.fresh_result = None  # index of the one instruction that produced it (an op's return value)
        self.aliased = False  # a view of it was taken: it can no longer be retargeted
        self.matmul_written = False  # a PSUM tile some nc_matmul already wrote (accumulate=None)
        # A kernel parameter: the caller's array, which takes the tensor's final
        # value when the kernel writes it (LANGUAGE.md 4), or why it cannot.
        self.caller_array = None
        self.unwritable = None
        self.address = None  # on chip: the byte offset ndarray(address=) asked for (place_on_chip keeps it)

    def partition_bytes(self):
        n = 1
        for d in self.shape[1:]:
            n *= d
        return n * _dtypes.size(self.dtype)


class Form:
    """An instruction's mnemonic and parameter names, one object for every
    instruction with the same ones (form()), with its text as a %-template."""
    __slots__ = ("mnemonic", "keys", "template")

    def __init__(self, mnemonic, keys):
        self.mnemonic, self.keys = mnemonic, keys
        self.template = f"{mnemonic} " + ", ".join([f"{key}=%s" for key in keys]) if keys else mnemonic


_FORMS = {}


def form(mnemonic, keys):
    """The Form of `mnemonic` with the parameters `keys` (a tuple), kept."""
    found = _FORMS.get((mnemonic, keys))
    if found is None:
        found = _FORMS[(mnemonic, keys)] = Form(mnemonic, keys)
    return found


class Instruction:
    __slots__ = ("form", "values", "writes", "location")

    def __init__(self, form, values, writes, location):
        self.form = form
        self.values = values  # a tuple, one per form.keys; tensor values are NkiTensor views
        self.writes = writes  # the keys whose tensors it writes
        self.location = location

    @property
    def mnemonic(self):
        return self.form.mnemonic

    @property
    def args(self):
        """((key, value), ...)"""
        return tuple(zip(self.form.keys, self.values))


class Recording:
    """One core's recording of a kernel call. A launch of several cores
    (kernel[2]) records the kernel once per core (_cores.py): core k's
    recording has `core` k, and its shared_hbm tensors are core 0's."""

    def __init__(self, kernel_name, kernel_file, arch, core=0, cores=1, grid_ndim=0, token=None, core0_shared=None):
        self.kernel_name = kernel_name
        self.kernel_file = kernel_file
        self.arch = arch
        self.nki = nki_version
        # nl.program_id / num_programs / program_ndim: this core, the launch's
        # cores, and the launch grid's dimensions (0 without brackets, else 1).
        self.core, self.cores, self.grid_ndim = core, cores, grid_ndim
        self.storages = []
        self.instructions = []
        self.constants = []  # (storage, array): nl.shared_constant's tensors, inputs of the program
        # Registers and runtime loops (_registers.py): the registers in
        # declaration order, the loops open at the point being recorded, and
        # each closed loop's (first, last) instruction index.
        self.registers = []
        self.loops = []
        self.loop_ranges = []
        # What this call's storages carry (Storage.token): every core of a
        # launch the same, as they use the shared HBM tensors alike.
        self.token = token or object()
        # Core k > 0: the shared_hbm tensors core 0's kernel made, in order
        # (one tensor for all cores: NKI 0.6, nl.shared_hbm), and how many of
        # them this core has made so far (_shared_of_core0).
        self.core0_shared = core0_shared
        self.shared_made = 0
        # Caches of location() and new_storage(), for this call only: id(code)
        # -> (code, {instruction offset: Location}, positions), the last code
        # object's entry, Location -> the name assigned there.
        self._sites = {}
        self._last_code = self._last_sites = None
        self._assigned = {}

    # --- where the kernel is -------------------------------------------------
    def location(self):
        """The kernel's source position of the call being recorded: the
        innermost frame in the kernel's file, else the innermost one outside
        the nisa package (a helper the kernel calls). Called once per
        instruction and tensor: the frame that called the outermost nki call
        (the one below a checked() wrapper) is most often the kernel's, and
        what is learnt per file and per code object is kept
        (_inside_package, _frame_location)."""
        frame = sys._getframe(1)
        call = frame
        while call is not None and call.f_code is not _CALL_CODE and call.f_code is not _ENTRY_CODE:
            call = call.f_back
        if call is not None:
            caller = call.f_back
            code = caller.f_code
            if code.co_filename == self.kernel_file:
                if code is self._last_code:  # the call site seen before: no more to work out
                    location = self._last_sites[1].get(caller.f_lasti)
                    if location is not None:
                        return location
                return self._frame_location(caller)
            # Below it, only the nisa package's frames: the general search can start there.
            frame = caller
        return self._search(frame)

    def _search(self, frame):
        outside = None
        kernel_file = self.kernel_file
        while frame is not None:
            filename = frame.f_code.co_filename
            inside = _INSIDE_PACKAGE.get(filename)
            if inside is None:
                inside = _inside_package(filename)
            if not inside:
                if filename == kernel_file:
                    return self._frame_location(frame)
                if outside is None:
                    outside = frame
            frame = frame.f_back
        return self._frame_location(outside) if outside is not None else Location(self.kernel_file, 1)

    def _frame_location(self, frame):
        """The Location of the call `frame` is making, one object per call site
        (code object and instruction offset) of this recording. Code objects
        are told apart by identity (their hash walks their constants); the
        entry keeps the code alive, so its id is not reused meanwhile."""
        code = frame.f_code
        if code is self._last_code:
            sites = self._last_sites
        else:
            sites = self._sites.get(id(code))
            if sites is None:
                positions = _POSITIONS.get(code)  # kept across calls: a kernel called again has them
                if positions is None:
                    positions = _POSITIONS[code] = _positions(code)
                sites = self._sites[id(code)] = (code, {}, positions)
            self._last_code, self._last_sites = code, sites
        lasti = frame.f_lasti
        location = sites[1].get(lasti)
        if location is None:
            positions = sites[2]
            line, column = frame.f_lineno, None
            position = positions[lasti // 2] if positions is not None and 0 <= lasti // 2 < len(positions) else None
            if position is not None:  # Python 3.11+: the column of the call being made
                if position[0] is not None:
                    line = position[0]
                if position[2] is not None:
                    column = position[2] + 1
            location = sites[1][lasti] = Location(code.co_filename, line, column)
        return location

    def error(self, message, location=None):
        """A nisa.Error naming the kernel's file and line (LANGUAGE.md 4)."""
        location = location or self.location()
        return Error(f"{location.prefix()} error: {message}", 2)

    # --- what the kernel does ------------------------------------------------
    def new_storage(self, region, dtype, shape, hint, user_name="", role=None):
        if self.core0_shared is not None and region == "shared_hbm":
            return self._shared_of_core0(dtype, shape, role)
        location = self.location()
        for d in shape:
            if d.__class__ is not int or d < 1:
                break
        else:
            if region != "sbuf" and region != "psum" or (shape and shape[0] <= PARTITIONS):
                assigned = self._assigned.get(location, False)
                if assigned is not False:
                    storage = Storage(region, dtype, shape, location, assigned or hint, user_name, role, self.token)
                    self.storages.append(storage)
                    return storage
                return self._add_storage(region, dtype, shape, hint, user_name, role, location)
        buffer = region if region in ("sbuf", "psum") else "hbm"
        if buffer in ("sbuf", "psum"):
            if len(shape) < 1 or not 1 <= shape[0] <= PARTITIONS:
                raise self.error(f"an {buffer} tile's first dimension is its partitions, 1 to {PARTITIONS}; got shape "
                                 f"{tuple(shape)}", location)
        if any((not isinstance(d, int)) or d < 1 for d in shape):
            raise self.error(f"shape {tuple(shape)}: dimensions must be positive integers", location)
        return self._add_storage(region, dtype, shape, hint, user_name, role, location)

    def _add_storage(self, region, dtype, shape, hint, user_name, role, location):
        assigned = self._assigned.get(location, False)  # a Location is one call site's: same file and line
        if assigned is False:
            assigned = self._assigned[location] = _assigned_name(location)
        storage = Storage(region, dtype, shape, location, assigned or hint, user_name, role, self.token)
        self.storages.append(storage)
        return storage

    def _shared_of_core0(self, dtype, shape, role):
        """Core k > 0 makes a shared_hbm tensor: it is core 0's tensor made
        at the same place in the order, which it must match."""
        location = self.location()
        made, k = self.core0_shared, self.shared_made
        self.shared_made += 1
        shape = tuple(shape)
        why = "a shared_hbm tensor is one tensor for all cores (NKI 0.6), so each core makes the same ones in the " \
              "same order"
        if k >= len(made):
            raise self.error(f"core {self.core} makes shared_hbm tensor number {k + 1}, but core 0 made {len(made)}: "
                             f"{why}", location)
        storage = made[k]
        if storage.shape != shape or storage.dtype != dtype or (storage.role == "input") != (role == "input"):
            kind = {True: "nl.shared_constant", False: "nl.ndarray"}
            raise self.error(
                f"core {self.core} makes shared_hbm tensor number {k + 1} as {kind[role == 'input']} {shape} {dtype}, "
                f"but core 0 made it as {kind[storage.role == 'input']} {storage.shape} {storage.dtype} at line "
                f"{storage.created_at.line}: {why}", location)
        return storage

    def emit(self, mnemonic, args, writes=("dst",)):
        """Appends one instruction; `args` is [(key, value)], `writes` the keys it writes."""
        return self.put(form(mnemonic, tuple([key for key, _ in args])), tuple([value for _, value in args]), writes)

    def put(self, form, values, writes=("dst",)):
        """Appends one instruction: a Form and a tuple of its parameters'
        values (language.assign makes a new tuple to retarget a written
        tensor); `writes` the keys it writes."""
        index = len(self.instructions)
        location = self.location()
        if writes.__class__ is not tuple:
            writes = tuple(writes)
        use = self._use
        for key, value in zip(form.keys, values):
            if value.__class__ in _PLAIN:  # a number or a name: uses no tensor
                continue
            if isinstance(value, list):  # a list of tensors: every view is used
                for one in value:
                    use(one, key in writes, index, location)
            else:
                use(value, key in writes, index, location)
        instruction = Instruction(form, values, writes, location)
        self.instructions.append(instruction)
        return instruction

    def _refuse(self, value, written, location):
        storage = value.storage
        if storage.token is not self.token:
            raise self.error(f"{value!r} belongs to another kernel call: a tensor lives only in the call that "
                             "made it", location)
        if written and storage.unwritable:
            raise self.error(storage.unwritable, location)

    def _use(self, value, written, index, location):
        storage = getattr(value, "storage", None)
        if storage is None:
            return
        if storage.token is not self.token or written and storage.unwritable:
            self._refuse(value, written, location)
        if storage.first_use is None:
            storage.first_use = index
        storage.last_use = index
        if written:
            storage.written = True
        elif storage.fresh_result is not None:
            storage.fresh_result = None  # read: its value is now needed where it is
        dynamic = value.dynamic
        if dynamic is not None:
            self._use(dynamic[1], False, index, location)  # a runtime index tile is read

    # --- the program ---------------------------------------------------------
    def place_on_chip(self):
        """Gives every on-chip tile used by an instruction a byte offset.
        A tile placed by ndarray(address=...) keeps its address; two such
        tiles may share bytes only while one of them is not in use
        (_check_placed). Every other tile takes fresh space while there is
        some (so strict mode still sees bytes never written), then the lowest
        space (first fit) that no live tile holds: a tile is live from its
        first to its last use. Tiles are placed in order of first use, then of
        declaration. The live tiles sit in a heap by last use (to retire them)
        and in a list by offset (for first fit), so a program's n tiles take
        O(n log n) plus, once fresh space is gone, a scan of the live tiles,
        which the capacity bounds (and, in a kernel that also places tiles by
        address, a scan of those)."""
        self._live_through_loops()
        by_buffer = {"sbuf": [], "psum": []}
        for i, s in enumerate(self.storages):
            if s.on_chip and s.first_use is not None:
                by_buffer[s.buffer].append((s.first_use, i, s))
        sizes = {}  # (dtype, shape) -> aligned bytes per partition
        heappop, heappush, bisect_left = heapq.heappop, heapq.heappush, bisect.bisect_left
        for buffer, capacity in (("sbuf", SBUF_PARTITION_BYTES[self.arch]), ("psum", PSUM_PARTITION_BYTES[self.arch])):
            tiles = by_buffer[buffer]
            tiles.sort()  # by first use, then declaration (never equal: the tiles are not compared)
            placed = [tile for _, _, tile in tiles if tile.address is not None]
            if placed:
                self._check_placed(placed)
                tiles = [entry for entry in tiles if entry[2].address is None]
            retire = []  # (last_use, declaration index, tile) of the live tiles
            starts, ends = [], []  # the live tiles' [start, end) byte ranges, by start (they never overlap)
            high_water = 0
            for first_use, i, tile in tiles:
                key = (tile.dtype, tile.shape)
                size = sizes.get(key)
                if size is None:
                    size = sizes[key] = -(-tile.partition_bytes() // ALIGN) * ALIGN
                while retire and retire[0][0] < first_use:
                    k = bisect_left(starts, heappop(retire)[2].offset)
                    del starts[k], ends[k]
                if placed:
                    offset = _fit_beside_placed(starts, ends, placed, tile, size, capacity, high_water)
                    if offset is not None:
                        high_water = max(high_water, offset + size)
                elif high_water + size <= capacity:
                    offset = high_water
                    high_water += size
                else:
                    offset = _first_fit(starts, ends, size, capacity)
                if offset is None:
                    used = sum(ends) - sum(starts)
                    raise self.error(f"{buffer} is full: this {tile.shape} {tile.dtype} tile needs {size} bytes per "
                                     f"partition and {len(starts)} live tiles hold {used} of {capacity}" +
                                     (" (besides the tiles placed by address=)" if placed else ""), tile.created_at)
                tile.offset = offset
                k = bisect_left(starts, offset)
                starts.insert(k, offset)
                ends.insert(k, offset + size)
                heappush(retire, (tile.last_use, i, tile))

    def _live_through_loops(self):
        """A tile used in a loop's body is read again by the next iteration:
        it lives from the outermost such loop's first instruction to its
        end_loop (else a tile placed after it could take its bytes between
        two iterations). Loops nest, so the outermost loop around a tile's
        first use and the one around its last use are all that can widen its
        life: O(log loops) per tile."""
        if not self.loop_ranges:
            return
        begins, ends = [], []
        for begin, end in sorted(self.loop_ranges):
            if not ends or begin > ends[-1]:  # not inside the previous outermost loop
                begins.append(begin)
                ends.append(end)
        bisect_right = bisect.bisect_right
        for s in self.storages:
            if s.on_chip and s.first_use is not None:
                k = bisect_right(begins, s.first_use) - 1
                if k >= 0 and s.first_use < ends[k]:
                    s.first_use = begins[k]
                k = bisect_right(begins, s.last_use) - 1
                if k >= 0 and s.last_use < ends[k]:
                    s.last_use = ends[k]

    # --- tiles placed by the kernel: ndarray(address=...) -----------------------
    def _check_placed(self, placed):
        """Places the tiles ndarray(address=) placed, in order of first use,
        refusing (at the later tile's ndarray line) two whose bytes overlap
        while both are in use: a tile whose last use is the instruction that
        first uses the other hands its bytes over there (an in-place
        operation), as the hardware allows."""
        live = []  # the placed tiles in use at the tile being checked
        for tile in placed:
            live = [other for other in live if other.last_use > tile.first_use]
            start, end = tile.address, tile.address + tile.partition_bytes()
            for other in live:
                other_end = other.address + other.partition_bytes()
                if start < other_end and other.address < end:
                    raise self.error(
                        f"this {tile.buffer} tile at address (0, {start}) takes bytes {start}..{end - 1} of each "
                        f"partition, which the {other.shape} {other.dtype} tile placed at (0, {other.address}) on line "
                        f"{other.created_at.line} still uses (until the instruction on line "
                        f"{self.instructions[other.last_use].location.line}); two tiles may share bytes only one after "
                        "the other", tile.created_at)
            tile.offset = tile.address
            live.append(tile)

    def name_tensors(self, params, outputs):
        """Names: kernel parameters keep theirs, outputs take ndarray(name=) or
        out0, out1, ... in return order, tiles their user name or a hint."""
        claim = _Names().claim
        for storage, param in params:
            storage.name = claim(param)
        for i, storage in enumerate(outputs):
            if storage.name is None:
                storage.name = claim(storage.user_name or f"out{i}")
        self.name_the_rest(claim)

    def name_the_rest(self, claim):
        """Names the storages name_tensors (or, at a launch of several cores,
        _cores.name_tensors) has not: their user name or a hint, each taken
        with `claim`."""
        # A tile placed exactly where an earlier tile of the same variable,
        # dtype and shape lived (its life over) is that tile's declaration
        # again: the same bytes under the same name. A kernel allocating a tile
        # per loop iteration so declares a bounded number of tensors (the
        # assembler takes at most 1024, LANGUAGE.md 2.6), not one per iteration.
        declared = {}
        for storage in self.storages:
            if storage.name is None:
                wanted = storage.user_name or storage.hint
                if storage.on_chip and storage.first_use is not None:
                    key = (storage.buffer, storage.dtype, storage.shape, storage.offset, wanted)
                    first = declared.setdefault(key, storage)
                    if first is not storage:
                        storage.name, storage.declared, storage.same_as = first.name, False, first
                        continue
                storage.name = claim(wanted)
        for register in self.registers:  # one namespace with the tensors (SEMANTICS S17)
            register.name = claim(register.hint)

    def header(self):
        """The program's lines before its declarations."""
        return [f"; recorded by nisa.nki from kernel {self.kernel_name}", f".arch {self.arch}",
                f".nki {self.nki}", f'.file "{self.file_name()}"']

    def file_name(self):
        """The program's file (.file): the kernel's."""
        return _file_directive_name(self.kernel_file)

    def declarations(self):
        """The storages the program declares, in order: the HBM tensors (but
        scratch ones no instruction uses), then the tiles in use whose
        declaration no earlier tile's is (name_tensors). Gives every storage
        in use its index in the program (Storage.index): a tile another
        tile's declaration names takes that one's."""
        declared = [s for s in self.storages if s.buffer == "hbm" and (s.first_use is not None or s.role != "scratch")]
        declared += [s for s in self.storages if s.on_chip and s.first_use is not None and s.declared]
        for index, s in enumerate(declared):
            s.index = index
        for s in self.storages:
            if s.same_as is not None:
                s.index = s.same_as.index
        return declared

    def text(self, tensor_class, render_tensor):
        """The .nasm program and, per text line (1-based), the Location it
        came from. `tensor_class` is the views' class (NkiTensor) and
        `render_tensor` its render() unwrapped: the instructions' tensor
        operands, written without a method call per operand."""
        lines, origins = [], []
        for line in self.header():
            lines.append(line)
            origins.append(None)
        for s in self.declarations():
            lines.append(declaration_text(s))
            origins.append(s.created_at)
        for r in self.registers:
            lines.append(f".reg {r.name}")
            origins.append(r.created_at)
        self.instruction_text(lines, origins, tensor_class, render_tensor, None)
        return "\n".join(lines) + "\n", origins

    def instruction_text(self, lines, origins, tensor_class, render_tensor, implied):
        """Appends the instructions' lines to `lines` and their Locations to
        `origins`; `implied` is the line the assembler gives the first one
        without .loc (None: none). Returns the line it gives the next."""
        # .loc only where the line differs from the one the assembler gives
        # an instruction without it: the line after the previous one's.
        line_append, origin_append, render = lines.append, origins.append, render_value
        tensor = tensor_class
        for instruction in self.instructions:
            location = instruction.location
            line = location.line
            if line != implied:
                line_append(f".loc {line}")
                origin_append(None)
            implied = line + 1
            # A whole tensor's view is its name (NkiTensor.render, inline).
            line_append(instruction.form.template % tuple([
                value if value.__class__ is str else
                (value.storage.name if value._whole is True and value.dynamic is None else render_tensor(value))
                if value.__class__ is tensor else render(value) for value in instruction.values]))
            origin_append(location)
        return implied

    def handoff(self):
        """What _nisa.build_recorded takes besides the instructions: the arch,
        the file and per declaration (name, memory, dtype, shape, role,
        offset, line), as text() writes them; the line is the declaration's
        in text()'s text."""
        first_line = len(self.header()) + 1
        declarations = [handoff_declaration(s, first_line + k) for k, s in enumerate(self.declarations())]
        return self.arch, self.file_name(), declarations

    def handoff_registers(self):
        """The registers as _nisa.build_recorded takes them: (name, line), the
        line of each `.reg` in text()'s text (after the declarations)."""
        first_line = len(self.header()) + len(self.declarations()) + 1
        return [(r.name, first_line + k) for k, r in enumerate(self.registers)]


def declaration_text(s):
    """The .nasm declaration of storage `s` (LANGUAGE.md 2.1)."""
    shape = ", ".join(str(d) for d in s.shape)
    if s.buffer == "hbm":
        return f".hbm {s.name} {_dtypes.nasm_name(s.dtype)} [{shape}] {s.role}"
    return f".{s.buffer} {s.name} {_dtypes.nasm_name(s.dtype)} [{shape}] @ {s.offset}"


def handoff_declaration(s, line):
    """Storage `s` as _nisa.build_recorded takes a declaration: (name,
    memory, dtype, shape, role, offset, line), `line` its line in the text."""
    return (s.name, s.buffer, _dtypes.nasm_name(s.dtype), s.shape, s.role if s.buffer == "hbm" else "",
            s.offset if s.on_chip else 0, line)


_ASSIGNMENT = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)")


def _assigned_name(location):
    """`a_tile` from the kernel line `a_tile = nl.ndarray(...)`: tiles are
    named after the variable they are assigned to, where there is one."""
    match = _ASSIGNMENT.match(linecache.getline(location.file, location.line))
    return match.group(1) if match else None


def _first_fit(starts, ends, size, capacity):
    """The lowest offset with `size` bytes free below `capacity`, between the
    live byte ranges [starts[k], ends[k]) (sorted, disjoint), or None."""
    start = 0
    for begin, end in zip(starts, ends):
        if begin - start >= size:
            return start
        start = max(start, end)
    return start if capacity - start >= size else None


def _fit_beside_placed(starts, ends, placed, tile, size, capacity, high_water):
    """The offset of `tile` (`size` bytes, automatic) in a memory that also
    holds tiles placed by address: the lowest offset at or above the fresh
    space's start (`high_water`), else the lowest at all, free of the live
    automatic tiles ([starts[k], ends[k])) and of every placed tile in use
    while `tile` is; None if there is none."""
    taken = list(zip(starts, ends))
    for other in placed:
        if other.first_use <= tile.last_use and tile.first_use <= other.last_use:
            taken.append((other.address, other.address + other.partition_bytes()))
    taken.sort()
    for lowest in (high_water, 0):
        candidate = lowest
        for begin, end in taken:
            if end <= candidate:
                continue
            if begin - candidate >= size:
                break
            candidate = -(-end // ALIGN) * ALIGN  # automatic tiles stay aligned
        if capacity - candidate >= size:
            return candidate
    return None


class _Names:
    """Unique tensor names: the wanted name made an identifier, else the first
    of NAME_1, NAME_2, ... that is free and not a reserved word. The number
    tried first for each name is kept, so naming n tensors after the same
    variable takes O(n) rather than O(n^2) tries. Names are only ever taken,
    never given back, so the first free number never goes down: starting from
    where the last search for that name stopped finds the same name."""

    def __init__(self):
        self.taken = set()
        self.next = {}  # identifier -> the suffix number to try first (0: the identifier itself)

    def copy(self):
        """The names taken so far, taken further separately (a core's own
        tensors: each core's names are its own, LANGUAGE.md 2.7)."""
        other = _Names()
        other.taken, other.next = set(self.taken), dict(self.next)
        return other

    def claim(self, wanted):
        base = _identifier(wanted)
        n = self.next.get(base, 0)
        name = base if n == 0 else f"{base}_{n}"
        while name in self.taken or name in _RESERVED:
            n += 1
            name = f"{base}_{n}"
        self.next[base] = n + 1
        self.taken.add(name)
        return name


def _identifier(text):
    known = _IDENTIFIERS.get(text) if text.__class__ is str else None
    if known is not None:
        return known
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in str(text)) or "t"
    out = out if not out[0].isdigit() else "t" + out
    if text.__class__ is str:
        if len(_IDENTIFIERS) > 4096:
            _IDENTIFIERS.clear()
        _IDENTIFIERS[text] = out
    return out


_IDENTIFIERS = {}  # wanted name -> identifier


def _file_directive_name(path):
    """`.file` takes a quoted name without quotes or comment characters."""
    if all(32 <= ord(c) < 127 and c not in '";#' for c in path):
        return path
    base = os.path.basename(path)
    return base if all(32 <= ord(c) < 127 and c not in '";#' for c in base) else "kernel.py"


# Whether a file is inside the nisa package, per absolute file name (the ones
# Python gives imported code): location() resolves each path once.
_INSIDE_PACKAGE = {}


def _inside_package(filename):
    inside = os.path.abspath(filename).startswith(_PACKAGE_DIR + os.sep)
    if os.path.isabs(filename):  # a relative name's meaning changes with the working directory
        _INSIDE_PACKAGE[filename] = inside
    return inside


# Code object -> _positions(code), for as long as the code object lives.
_POSITIONS = weakref.WeakKeyDictionary()


def _positions(code):
    """The code object's (line, end line, column, end column) per instruction
    (Python 3.11+), or None."""
    try:
        return list(code.co_positions())
    except AttributeError:
        return None


_PLAIN = frozenset((str, int, float, bool))


class Text(str):
    """The value of a string operand (device_print's print_prefix): written
    quoted (LANGUAGE.md 2.3), where a plain str is a name or enum value."""
    __slots__ = ()

    def render(self):
        return f'"{self}"'


def render_value(value):
    """A parameter value in .nasm syntax (LANGUAGE.md 2.3)."""
    kind = value.__class__
    if kind is str:
        return value
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    if hasattr(value, "render"):  # a view in a list of tensors (dma_compute's srcs)
        return value.render()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    x = float(value)
    if x == -3.4028234663852886e38:
        return "fp32.min"
    if x == 3.4028234663852886e38:
        return "fp32.max"
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return repr(x)
