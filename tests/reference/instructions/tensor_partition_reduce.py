"""`tensor_partition_reduce` (GpSimd), docs/SEMANTICS.md S4.28:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block, INTS
from ref_common import bits_of, F32, M32, reduce_free, write_bits

RULE = "S4.28"


# ---- semantics ----

def tensor_partition_reduce(m, o):
    """S4.28: dst[0, i] = op of data[p, i] over p = 0..P-1 in order (float32; average = sum / P;
    bitwise ops on bit patterns)."""
    op = o["op"]
    if op in ("bitwise_or", "bitwise_and"):
        bits = bits_of(m.read_raw(o["data"]))
        acc = np.full(bits.shape[1], 0 if op == "bitwise_or" else M32, dtype=np.uint64)
        for p in range(bits.shape[0]):
            acc = acc | bits[p] if op == "bitwise_or" else acc & bits[p]
        return write_bits(m, o["dst"], acc.reshape(1, -1))
    data = m.read(o["data"])
    r = reduce_free("maximum" if op == "maximum" else "add", data.T)
    if op == "average":
        r = (r / F32(data.shape[0])).astype(F32)
    m.write(o["dst"], r.reshape(1, -1))


# ---- random programs ----

def emit_tensor_partition_reduce(b):
    """nki.isa.tensor_partition_reduce (S4.28): across partitions, in order, into one partition."""
    s, c = b.lanes()
    free = b.free_shape(64)
    n = int(np.prod(free))
    op = b.pick(["add", "add", "average", "maximum", "bitwise_or", "bitwise_and"])
    if op.startswith("bitwise"):
        ddt = b.pick(INTS)
        data = b.tile(ddt, s, c, free, "sbuf")
        b.load(data, b.values(ddt, (c, n)))
        dst_dtype = b.pick(INTS)
    else:
        ddt = any_dtype(b)
        data = b.tile(ddt, s, c, free, "sbuf")
        if op == "maximum":
            b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.3)))
        else:  # S3: non-negative terms keep a reordered sum within rtol
            b.load(data, b.values(ddt, (c, n), 0.1, 4, irange=(0, 100)))
        dst_dtype = "f32" if op != "maximum" else any_dtype(b)
    dst = b.tile(dst_dtype, b.shifted(s, 1, 0.5), 1, free if b.chance(0.7) else [n], "sbuf")
    spelling = {"maximum": b.pick(["maximum", "max"]), "average": b.pick(["average", "mean"])}.get(op, op)
    b.instr("tensor_partition_reduce", dst=dst, op=spelling, data=data)
    b.store(dst)


BLOCKS = [Block(emit_tensor_partition_reduce, 0.5, order=29, lockstep=1.3)]
