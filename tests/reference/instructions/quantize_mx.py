"""`quantize_mx` (Vector, trn3), docs/SEMANTICS.md S13.1:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, has_v4, MX_PACKED, mx_scale_partitions
import ref_dtypes
import ref_mx

RULE = "S13.1"


# ---- semantics ----

def quantize_mx(m, o):
    """S13.1: groups of 8 partitions x 4 values share an e8m0 scale (ref_mx.quantize);
    the scale bytes land in partitions 32*(b//4) + b%4 of dst_scale (the whole tile counts as written)."""
    packed, scales = ref_mx.quantize(m.dtype(o["dst"]), m.read(o["src"]))
    m.write_raw(o["dst"], packed)
    scale = m.read_raw(o["dst_scale"], check=False)
    scale[ref_mx.scale_rows(packed.shape[0])] = scales
    m.write_raw(o["dst_scale"], scale)


# ---- random programs ----

def emit_quantize_mx(b):
    """S13.1: f16/bf16 [K, 4n] -> packed fp8 [K, n] and e8m0 scales."""
    k, n = b.pick([32, 64, 96, 128]), int(b.rng.integers(1, 33))
    sdt = b.pick(["f16", "bf16"])
    src = b.tile(sdt, 0, k, [4 * n], "sbuf")
    values = b.values(sdt, (k, 4 * n), -100, 100, specials=b.chance(0.2))
    if b.chance(0.5):  # groups of very different magnitudes, and all-zero groups
        values = values * np.repeat(2.0 ** b.rng.integers(-12, 4, size=(k // 8, n)), 8, axis=0).repeat(4, axis=1)
        values[:8, :4] = 0.0
        values = ref_dtypes.round_to(sdt, values.astype(np.float32)).astype(np.float64)
    b.load(src, values)
    dst = b.tile(b.pick(MX_PACKED[:2]), 0, k, [n], "sbuf")
    scale = b.tile(b.pick(["fp8e8m0", "u8"]), 0, mx_scale_partitions(k), [n], "sbuf")
    b.instr("quantize_mx", dst=dst, src=src, dst_scale=scale)
    b.store(dst)
    b.store(scale)


BLOCKS = [Block(emit_quantize_mx, 0.5, needs=has_v4, order=45, lockstep=2.5)]
