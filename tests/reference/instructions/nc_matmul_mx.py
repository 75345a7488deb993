"""`nc_matmul_mx` (Tensor, trn3), docs/SEMANTICS.md S13.2:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, has_v4, MX_PACKED, mx_packed_values, mx_scale_partitions
from ref_common import F32, matmul_wrote
import ref_mx

RULE = "S13.2"


# ---- semantics ----

def nc_matmul_mx(m, o):
    """S13.2: dequantized values (ref_mx.dequantize) as rows (k, q) of [4K, M] and [4K, N] matrices,
    then nc_matmul's sum: float32 products added from 0, rows ascending; accumulate as nc_matmul."""
    dst = o["dst"]
    st_name, mv_name = m.dtype(o["stationary"]), m.dtype(o["moving"])
    st_raw, mv_raw = m.read_raw(o["stationary"]), m.read_raw(o["moving"])
    st = ref_mx.dequantize(st_name, st_raw, m.read_raw(o["stationary_scale"], check=False))
    mv = ref_mx.dequantize(mv_name, mv_raw, m.read_raw(o["moving_scale"], check=False))
    k = st_raw.shape[0]
    st = st.reshape(k, -1, 4).transpose(0, 2, 1).reshape(4 * k, -1)  # row 4k + q: value q of partition k
    mv = mv.reshape(k, -1, 4).transpose(0, 2, 1).reshape(4 * k, -1)
    acc = np.zeros((st.shape[1], mv.shape[1]), dtype=F32)
    with np.errstate(all="ignore"):
        for r in range(st.shape[0]):
            acc = (acc + np.multiply.outer(st[r], mv[r]).astype(F32)).astype(F32)
        earlier = matmul_wrote(m, dst)[0]  # any earlier write (S8.3 accumulate=None)
        accumulate = o.get("accumulate")
        if accumulate is None:
            accumulate = earlier
        if accumulate:
            acc = (m.read(dst) + acc).astype(F32)
    m.write(dst, acc)


# ---- random programs ----

def emit_nc_matmul_mx(b):
    """S13.2: packed [K, M] and [K, N] with their scales into PSUM, sometimes accumulated."""
    k, m, n = b.pick([32, 64, 96, 128]), 2 * int(b.rng.integers(1, 65)), int(b.rng.integers(1, 65))
    ops = []
    for f in (m, n):
        dt = b.pick(MX_PACKED)
        t = b.tile(dt, 0, k, [f], "sbuf")
        b.load(t, mx_packed_values(b, dt, (k, f)))
        sdt = b.pick(["fp8e8m0", "u8"])
        sc = b.tile(sdt, 0, mx_scale_partitions(k), [f], "sbuf")
        b.load(sc, b.rng.integers(112, 136, size=(mx_scale_partitions(k), f)))
        ops += [t, sc]
    dst = b.tile(b.pick(["f32", "f32", "bf16"]), 0, m, [n], "psum")
    if dst.mem != "psum":  # PSUM budget used up
        return
    common = dict(dst=dst, stationary=ops[0], moving=ops[2], stationary_scale=ops[1], moving_scale=ops[3])
    b.instr("nc_matmul_mx", accumulate=b.pick([False, None]), **common)
    if b.chance(0.5):
        b.instr("nc_matmul_mx", accumulate=b.pick([True, None]), **common)
    b.store(dst)


BLOCKS = [Block(emit_nc_matmul_mx, 0.5, needs=has_v4, order=46, lockstep=1.5)]
