"""`tensor_reduce` (Vector), docs/SEMANTICS.md S4.12:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block, compute_mem, factor_shape, INTS, REDUCE_SPELLINGS, spelled
from gen_indirect import AP, index_tile, indirect_base
from ref_common import BIT_REDUCE_START, bits_of, BITVEC, reduce_free, resolve_indirect_operands, write_bits

RULE = "S4.12"


# ---- semantics ----

def tensor_reduce(m, o):
    """An .indirect() dst or data (S1.7) names the columns its index gives."""
    o = resolve_indirect_operands(m, o, "tensor_reduce", ("dst", "data"))
    if "axis" in o:
        return tensor_reduce_axes(m, o)
    if o["op"] in BIT_REDUCE_START:
        bits = bits_of(m.read_raw(o["data"]))
        acc = np.full(bits.shape[0], BIT_REDUCE_START[o["op"]], dtype=np.uint64)
        for i in range(bits.shape[1]):
            acc = BITVEC[o["op"]](acc, bits[:, i])
        return write_bits(m, o["dst"], acc.reshape(-1, 1))
    r = reduce_free(o["op"], m.read(o["data"]))
    if o["negate"]:
        r = -r
    m.write(o["dst"], r.reshape(-1, 1))


def tensor_reduce_axes(m, o):
    """NKI 0.6 nki.isa.tensor_reduce with `axis`: reduce the listed free axes of data (the last
    ones; NumPy's negative axes) in float32, negate if asked; keepdims only shapes the result
    (dst is given). Each result folds its elements left to right (S3), in row-major order."""
    data = o["data"]
    shape = data.counts
    axes = sorted(a % len(shape) for a in o["axis"])
    assert axes and axes[0] > 0 and axes == list(range(axes[0], len(shape))), axes
    kept = shape[: axes[0]]
    if o["op"] in BIT_REDUCE_START:  # bitvec reductions fold bit patterns
        bits = bits_of(m.read_raw(data)).reshape(kept[0], -1, int(np.prod(shape[axes[0]:])))
        acc = np.full(bits.shape[:2], BIT_REDUCE_START[o["op"]], dtype=np.uint64)
        for i in range(bits.shape[2]):
            acc = BITVEC[o["op"]](acc, bits[:, :, i])
        return write_bits(m, o["dst"], acc.reshape(kept[0], -1))
    values = m.read(data).reshape(shape)
    folded = values.reshape(kept[0], -1, int(np.prod(shape[axes[0]:])))  # [P, kept free, reduced]
    r = np.stack([reduce_free(o["op"], folded[:, j, :]) for j in range(folded.shape[1])], axis=1)
    if o["negate"]:
        r = -r
    m.write(o["dst"], r.reshape(kept[0], -1))


# ---- random programs ----

MORE_REDUCE = ["subtract", "multiply", "logical_and", "logical_or", "logical_xor"]


BITVEC_REDUCE = ["bitwise_and", "bitwise_or", "bitwise_xor"]


def emit_tensor_reduce(b):
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    r = b.rng.random()
    if r < 0.2:  # bitvec reductions fold integer bit patterns
        op = b.pick(BITVEC_REDUCE)
        ddt = b.pick(INTS)
        data = b.tile(ddt, s, c, free, compute_mem(b))
        b.load(data, b.values(ddt, (c, n)))
        dst = b.tile(b.pick(INTS), b.shifted(s, c), c, [1], compute_mem(b))
        b.instr("tensor_reduce", dst=dst, data=data, op=op)
        b.store(dst)
        return
    op = b.pick(list(REDUCE_SPELLINGS)) if r < 0.7 else b.pick(MORE_REDUCE)
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    if op == "multiply":  # factors near 1 keep long products finite and well conditioned
        b.load(data, b.values(ddt, (c, n), 0.9, 1.1, irange=(-1, 2)))
    elif op in ("subtract", "logical_and", "logical_or", "logical_xor"):
        b.load(data, b.values(ddt, (c, n), -2, 2, specials=b.chance(0.2)) if op != "subtract" else
               b.values(ddt, (c, n), 0.1, 4, irange=(0, 1000)))
    elif op == "add":  # S3: add may be reordered; keep every term positive
        b.load(data, b.values(ddt, (c, n), 0.1, 4, irange=(0, 1000)))
    else:
        b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.3)))
    exact = op not in ("add", "subtract", "multiply") or ddt in INTS
    dst = b.tile(any_dtype(b) if exact else "f32", b.shifted(s, c), c, [1], compute_mem(b))
    neg = b.chance(0.4)
    b.instr("tensor_reduce", dst=dst, data=data, op=spelled(b, REDUCE_SPELLINGS, op) if op in REDUCE_SPELLINGS else op,
            negate=neg if (neg or b.chance(0.3)) else None)
    b.store(dst)


def emit_tensor_reduce_axes(b):
    """nki.isa.tensor_reduce(dst, op, data, axis, negate, keepdims): the last free axes."""
    s, c = b.lanes()
    free = factor_shape(b, int(b.rng.integers(2, 97)), 3)
    if len(free) == 1:
        free = [free[0], int(b.rng.integers(1, 5))]
    rank = len(free) + 1
    first = int(b.rng.integers(1, rank))  # reduce axes first..rank-1
    axes = list(range(first, rank))
    spelled_axes = [a - rank if b.chance(0.3) else a for a in axes]
    if b.chance(0.3):
        spelled_axes.reverse()
    n = int(np.prod(free))
    op = b.pick(list(REDUCE_SPELLINGS))
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    if op == "add":  # S3: add may be reordered; keep every term positive
        b.load(data, b.values(ddt, (c, n), 0.1, 4, irange=(0, 1000)))
    else:
        b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.3)))
    keepdims = b.chance(0.5)
    kept = free[: first - 1]
    dst_free = (kept + [1] * len(axes) if keepdims else kept) or [1]
    exact = op != "add" or ddt in INTS
    dst = b.tile(any_dtype(b) if exact else "f32", b.shifted(s, c), c, dst_free, compute_mem(b))
    axis = spelled_axes[0] if len(spelled_axes) == 1 and b.chance(0.3) else spelled_axes
    b.instr("tensor_reduce", dst=dst, data=data, op=spelled(b, REDUCE_SPELLINGS, op), axis=axis,
            negate=b.chance(0.4), keepdims=keepdims if (keepdims or b.chance(0.3)) else None)
    b.store(dst)



def emit_tensor_reduce_indirect(b):
    """S1.7 (trn3): an exact reduction (maximum, minimum) of gathered columns
    into a plain [P, 1] dst, or of a plain tile into one scattered column."""
    parts = b.pick([16, 32, 32, 64, 128])
    start = b.pick([s for s in ((0,) if parts > 64 else (0, 64) if parts > 32 else (0, 32, 64, 96)) if s + parts <= 128])
    op, neg = b.pick(["maximum", "minimum"]), b.chance(0.4)
    ddt, sdt = any_dtype(b), any_dtype(b)
    if b.chance(0.5):  # gather
        base, (e, s, k), (low, high) = indirect_base(b, sdt, start, parts, compute_mem(b))
        n = int(b.rng.integers(1, min(64, 16 * parts) + 1))
        idx = index_tile(b, start, parts, n, low, high, False)
        dst = b.tile(ddt, b.shifted(start, parts), parts, [1], compute_mem(b))
        data = AP.format(name=base.name, e=e, p=parts, s=s, n=n, k=k, idx=idx.ref())
        b.instr("tensor_reduce", dst=dst, op=op, data=data, negate=neg)
        b.store(dst)
        return
    base, (e, s, k), (low, high) = indirect_base(b, ddt, b.shifted(start, parts), parts, compute_mem(b))
    idx = index_tile(b, start, parts, 1, low, high, True)
    n = int(b.rng.integers(1, 48))
    data = b.tile(sdt, start, parts, [n], b.pick(["sbuf", "psum"]))
    b.load(data, b.values(sdt, (parts, n), -6, 6, specials=b.chance(0.3)))
    dst = AP.format(name=base.name, e=e, p=parts, s=s, n=1, k=k, idx=idx.ref())
    b.instr("tensor_reduce", dst=dst, op=op, data=data, negate=neg)
    b.store(base)


BLOCKS = [Block(emit_tensor_reduce, 1.0, order=9, lockstep=0.7), Block(emit_tensor_reduce_axes, 0.8, order=17, lockstep=0.4),
          Block(emit_tensor_reduce_indirect, 0.2, needs=lambda b: b.arch == "trn3", lockstep=0.3)]
