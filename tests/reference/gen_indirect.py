"""Random .indirect() views (Tensor Indirection, S1.7) for the reference
model's trn3 blocks: a base tile with its view's free step and start, an
index whose snake order keeps every column inside the row, and one emitter
for the streamed instructions whose dst and one input may be indirect
(tensor_tensor, tensor_scalar) under their docstrings' base-partition rules."""
import numpy as np

from gen_common import any_dtype, compute_mem

AP = "{name}.ap(pattern=[[{e}, {p}], [{s}, {n}]], offset={k}, indirect={idx})"


INDEX_DTYPES = {"i8": (-128, 127), "u8": (0, 255), "i16": (-32768, 32767), "u16": (0, 65535),
                "i32": (-2 ** 31, 2 ** 31 - 1), "u32": (0, 2 ** 32 - 1)}


def indirect_base(b, dtype, start, parts, mem):
    """A tile [parts, F] at `start`, loaded, and the text of an .indirect() view
    over it with its free step and start: (tile, text without the index, the
    index values that keep every element inside the tile's columns)."""
    width = int(b.rng.integers(1, 48))
    base = b.tile(dtype, start, parts, [width], mem)
    base.pattern_form = base.reversed = False
    b.load(base, b.values(dtype, (parts, width), -6, 6, specials=b.chance(0.3)))
    per_partition = int(np.prod(base.decl_free))
    step = b.pick([1, 1, 2, 3])
    first = int(b.rng.integers(0, width))
    low, high = -(first // step), (width - 1 - first) // step
    offset = start * per_partition + base.col_offset + first
    return base, (per_partition, step, offset), (low, high)


def index_tile(b, start, parts, n, low, high, distinct):
    """An integer SBUF index [parts, k] at `start` (a multiple of 32) whose
    snake order (S1.7) gives n offsets in [low, high], distinct when asked."""
    k = int(b.rng.integers(1, 4))
    while parts * k < n:
        k += 1
    usable = [d for d, (a, z) in INDEX_DTYPES.items() if a <= low and high <= z]
    dtype = b.pick(usable)
    values = b.values(dtype, (parts, k), irange=(low, high)).astype(np.int64)
    if distinct:  # a scatter writes each column once (S1.7: a repeated column keeps the later one)
        chosen = b.rng.permutation(np.arange(low, high + 1))[:n]
        for i, v in enumerate(chosen):
            values[16 * ((i // 16) // k) + i % 16, (i // 16) % k] = v
    t = b.tile(dtype, start, parts, [k])
    t.pattern_form = t.reversed = False
    b.instr("dma_copy", dst=t, src=b.hbm(dtype, [parts, k], "input", values))  # exactly these values
    return t


def emit_indirect_streamed(b, mnemonic, data_key, other, dtype=any_dtype, scalar_engine=False, input_dtype=None):
    """`mnemonic` with dst and/or `data_key` indirect (a gather, a scatter, or
    both with data in PSUM and one index), the base-partition rules met: every
    index on a multiple of 32, an indirect input on its index's partition, an
    indirect dst's index on the (SBUF) input's partition or its index's.
    `other(b, start, parts, n)` gives the remaining operands (a reduce_res
    among them is stored too); `dtype(b)` picks dst's and the input's dtypes
    (`input_dtype(b)` the input's, when given).
    `scalar_engine`: the Scalar engine does not scatter into PSUM (S1.7)."""
    parts = b.pick([16, 32, 32, 64, 128])
    starts = [s for s in ((0,) if parts > 64 else (0, 64) if parts > 32 else (0, 32, 64, 96)) if s + parts <= 128]
    start = b.pick(starts)
    mode = b.pick(["gather", "scatter", "both"])
    sdt, ddt = (input_dtype or dtype)(b), dtype(b)
    if mode == "gather":
        base, (e, s, k), (low, high) = indirect_base(b, sdt, start, parts, compute_mem(b))
        n = int(b.rng.integers(1, min(64, 16 * parts) + 1))
        idx = index_tile(b, start, parts, n, low, high, False)
        dst = b.tile(ddt, b.shifted(start, parts), parts, [n], compute_mem(b))
        data = AP.format(name=base.name, e=e, p=parts, s=s, n=n, k=k, idx=idx.ref())
        _emit(b, mnemonic, dst, data_key, data, other(b, start, parts, n))
        b.store(dst)
        return
    dst_mem = "sbuf" if scalar_engine else compute_mem(b)
    base, (e, s, k), (low, high) = indirect_base(b, ddt, b.shifted(start, parts), parts, dst_mem)
    n = int(b.rng.integers(1, min(high - low + 1, 64) + 1))
    idx = index_tile(b, start, parts, n, low, high, True)
    data = None
    if mode == "both":
        sbase, (se, ss, sk), (slow, shigh) = indirect_base(b, sdt, start, parts, "psum")
        if sbase.mem == "psum" and slow <= low and shigh >= high:
            data = AP.format(name=sbase.name, e=se, p=parts, s=ss, n=n, k=sk, idx=idx.ref())
    if data is None:  # scatter, or no PSUM room: a plain input (SBUF on the index's partition)
        data = b.tile(sdt, start, parts, [n], b.pick(["sbuf", "psum"]))
        b.load(data, b.values(sdt, (parts, n), -6, 6, specials=b.chance(0.3)))
    dst = AP.format(name=base.name, e=e, p=parts, s=s, n=n, k=k, idx=idx.ref())
    _emit(b, mnemonic, dst, data_key, data, other(b, start, parts, n))
    b.store(base)


def _emit(b, mnemonic, dst, data_key, data, ops):
    b.instr(mnemonic, dst=dst, **{data_key: data}, **ops)
    if ops.get("reduce_res") is not None:
        b.store(ops["reduce_res"])
