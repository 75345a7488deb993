"""Memories and accumulators of the modeled NeuronCore (S1), independent of nisa.

HBM tensors are separate raw arrays. SBUF and PSUM are byte arrays of 128
partitions: a tensor's free dimensions are laid out row-major from its byte
offset in every partition (LANGUAGE.md 2.1), so tensors declared with `@` at the
same offset alias exactly as on the machine.
"""
import numpy as np

import nasm_reader
import ref_dtypes
import ref_random

PARTITIONS = 128
LANE_NEVER_RESET, LANE_OK, LANE_IDLE = 0, 1, 2  # S3 --strict states of an accumulator lane


class Fault(Exception):
    """A fault only the run can find (SEMANTICS S17: a register read before anything
    set it, a negative trip count, a loop past the step limit): `nisa run` exits 3."""


def int32(value):
    """`value` wrapped to a signed 32-bit integer (S17.1: two's complement)."""
    return (int(value) + 2 ** 31) % 2 ** 32 - 2 ** 31


class Machine:
    def __init__(self, prog, offsets=None):
        """`offsets` ({name: byte offset in each partition} of every SBUF/PSUM tensor, as
        nisa placed them; lockstep.py compares raw memories) replaces the model's own placement
        of the tensors without `@` (LANGUAGE.md 2.1 leaves it to the assembler)."""
        self.prog = prog
        self.hbm = {}
        self.offsets = {}
        ends = {"sbuf": 0, "psum": 0}
        decls = prog.decls.values()
        for d in decls:  # explicit placements first; automatic ones go after them all
            if d.memory != "hbm" and (d.offset is not None or offsets is not None):
                self.offsets[d.name] = d.offset if offsets is None else offsets[d.name]
                ends[d.memory] = max(ends[d.memory], self.offsets[d.name] + self.bytes_per_partition(d))
        for d in decls:
            if d.memory != "hbm" and d.name not in self.offsets:
                start = -(-ends[d.memory] // 64) * 64
                self.offsets[d.name] = start
                ends[d.memory] = start + self.bytes_per_partition(d)
        self.mem = {m: np.zeros((PARTITIONS, max(ends[m], 1)), dtype=np.uint8) for m in ("sbuf", "psum")}
        # S1.3: Vector accumulator starts at -inf, Scalar at 0, one lane per physical partition.
        self.acc = {"vector": np.full(PARTITIONS, -np.inf, dtype=np.float32),
                    "scalar": np.zeros(PARTITIONS, dtype=np.float32)}
        # What `nisa run --strict` would fault on (S1.1, S1.3, S3, S5): bytes ever written,
        # accumulator lane states, and the first hazard met (line, reason).
        self.written = {m: np.zeros(a.shape, dtype=bool) for m, a in self.mem.items()}
        self.lane_state = {e: np.full(PARTITIONS, LANE_NEVER_RESET) for e in self.acc}
        # S11.5: the XORWOW generators as set_rng_seed(0) leaves them at machine start.
        self.rng = {e: ref_random.seeded(0, e) for e in ref_random.GENERATORS}
        self.line = 0
        self.file = "prog.nasm"  # the program's name in what device_print prints (S15.1)
        self.printed = []        # device_print's text, in order
        self.hazard = None
        self.ambiguous = []  # strict-mode outcomes SEMANTICS.md leaves open
        # S17.1: the sequencer registers the program declares (`.reg`), {name: int32 value},
        # holding only those something has set
        self.registers = {}

    # ---- sequencer registers (S17.1) ----

    def read_register(self, name):
        if name not in self.registers:
            raise Fault(f"register '{name}' is read before anything set it (S17.1)")
        return self.registers[name]

    def write_register(self, name, value):
        self.registers[name] = int32(value)

    def register_or_int(self, operand):
        """A register_or_int operand's value: the register's, or the integer itself."""
        return self.read_register(operand.name) if isinstance(operand, nasm_reader.Reg) else int(operand)

    @staticmethod
    def bytes_per_partition(decl):
        return int(np.prod(decl.shape[1:], dtype=np.int64)) * ref_dtypes.itemsize(decl.dtype)

    def decl(self, view):
        return self.prog.decls[view.name]

    # ---- whole tensors (raw bits, declared shape) ----

    def _tensor_raw(self, decl):
        if decl.memory == "hbm":
            return self.hbm[decl.name]
        off = self.offsets[decl.name]
        block = self.mem[decl.memory][: decl.shape[0], off: off + self.bytes_per_partition(decl)]
        raw = np.ascontiguousarray(block).view(ref_dtypes.raw_dtype(decl.dtype))
        return raw.reshape(decl.shape)

    def _store_tensor_raw(self, decl, raw):
        if decl.memory == "hbm":
            self.hbm[decl.name] = raw
            return
        off = self.offsets[decl.name]
        flat = np.ascontiguousarray(raw).reshape(decl.shape[0], -1).view(np.uint8)
        self.mem[decl.memory][: decl.shape[0], off: off + flat.shape[1]] = flat

    # ---- views: [partitions, elements per partition] (S1.4) ----

    # Every view is read and written through the flat index of each element
    # (nasm_reader.View.flat_index), slices and access patterns alike.

    def read_raw(self, view, check=True):
        """Raw elements [partitions, elements]; `check` marks an input the engine consumes."""
        if check and not getattr(view, "strict_start_only", False):
            self.check_written(view)
        raw = self._tensor_raw(self.decl(view)).reshape(-1)[view.flat_index()]
        return raw.reshape(view.part_count, -1).copy()

    def write_raw(self, view, raw, written=None):
        """Stores raw elements; `written` ([P, elements] bool) limits what counts as written."""
        decl = self.decl(view)
        whole = self._tensor_raw(decl).copy().reshape(-1)
        counts, index = view.counts, view.flat_index()
        whole[index] = np.asarray(raw, dtype=whole.dtype).reshape(counts)
        self._store_tensor_raw(decl, whole.reshape(decl.shape))
        if decl.memory != "hbm":
            mask = self._written_mask(decl)
            flat_mask = mask.reshape(-1, mask.shape[-1])
            mark = np.ones(counts, dtype=bool) if written is None else np.asarray(written).reshape(counts)
            flat_mask[index] |= mark[..., None]
            self._store_written_mask(decl, flat_mask.reshape(mask.shape))

    # ---- --strict bookkeeping (S1.1: reading SBUF/PSUM bytes never written) ----

    def _written_mask(self, decl):
        """[shape..., itemsize] bools: which bytes of each element were ever written."""
        off, size = self.offsets[decl.name], ref_dtypes.itemsize(decl.dtype)
        block = self.written[decl.memory][: decl.shape[0], off: off + self.bytes_per_partition(decl)]
        return block.reshape(list(decl.shape) + [size]).copy()

    def _store_written_mask(self, decl, mask):
        off = self.offsets[decl.name]
        flat = mask.reshape(decl.shape[0], -1)
        self.written[decl.memory][: decl.shape[0], off: off + flat.shape[1]] = flat

    def unwritten(self, view, rows=None):
        """[P, elements] bools: elements of the view holding a byte never written."""
        decl = self.decl(view)
        if decl.memory == "hbm":
            return np.zeros((view.part_count, 1), dtype=bool)
        mask = self._written_mask(decl)
        bad = ~mask.reshape(-1, mask.shape[-1])[view.flat_index()].all(axis=-1)
        bad = bad.reshape(view.part_count, -1)
        return bad if rows is None else bad[rows]

    def check_written(self, view, rows=None):
        if self.unwritten(view, rows).any():
            self.note_hazard(f"reads {view.name} bytes never written (S1.1)")

    def note_hazard(self, reason):
        if self.hazard is None:
            self.hazard = (self.line, reason)

    def note_ambiguous(self, reason):
        self.ambiguous.append((self.line, reason))

    def read(self, view):
        """float32 values of a view (S2.1: inputs converted to float32 first)."""
        return ref_dtypes.decode(self.decl(view).dtype, self.read_raw(view))

    def write(self, view, values_f32, written=None):
        """Store float32 results, converted to the view's dtype (S2.2, S2.3)."""
        self.write_raw(view, ref_dtypes.encode(self.decl(view).dtype, values_f32), written)

    def dtype(self, view):
        return self.decl(view).dtype

    @staticmethod
    def partitions(view):
        return view.part_count

    @staticmethod
    def lanes(view):
        """Physical partitions a tile covers (S1.3: accumulator lane = physical partition)."""
        return np.arange(view.part_start, view.part_start + view.part_count)

    def column(self, operand, partitions, used=True):
        """A scalar or a [P, 1] tile as a float32 [P, 1] column. An operand the instruction
        ignores (op bypass, relu_param without prelu) may or may not be read by hardware."""
        if hasattr(operand, "dims"):
            if not used and self.unwritten(operand).any():
                self.note_ambiguous(f"unused operand {operand.name} holds bytes never written")
            return ref_dtypes.decode(self.dtype(operand), self.read_raw(operand, used)).reshape(partitions, 1)
        return np.full((partitions, 1), np.float32(operand), dtype=np.float32)

    # ---- HBM initial contents and dumps ----

    def load_inputs(self, inputs):
        for d in self.prog.decls.values():
            if d.memory != "hbm":
                continue
            if d.role in ("input", "inout") and d.name in inputs:
                arr = np.asarray(inputs[d.name])
                if list(arr.shape) != list(d.shape):
                    raise ValueError(f"{d.name}: input shape {arr.shape} != declared {d.shape}")
                self.hbm[d.name] = ref_dtypes.from_npy(d.dtype, arr)
            elif d.role in ("input", "inout") and d.init is not None:
                self.hbm[d.name] = self._init_values(d)
            elif d.role in ("input", "inout"):
                raise ValueError(f"{d.name}: input missing")
            else:  # output and scratch start zeroed
                self.hbm[d.name] = np.zeros(d.shape, dtype=ref_dtypes.raw_dtype(d.dtype))

    @staticmethod
    def _init_values(d):
        count = int(np.prod(d.shape))
        if d.init == "iota":
            values = np.arange(count, dtype=np.int64)
        else:
            values = np.full(count, d.init)
        if ref_dtypes.is_float(d.dtype):
            raw = ref_dtypes.encode(d.dtype, values.astype(np.float64).astype(np.float32))
        else:
            raw = ref_dtypes.encode_int(d.dtype, values.astype(np.int64))
        return raw.reshape(d.shape)

    def outputs(self):
        return {d.name: ref_dtypes.to_npy(d.dtype, self.hbm[d.name])
                for d in self.prog.decls.values()
                if d.memory == "hbm" and d.role in ("output", "inout")}
