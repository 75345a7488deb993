"""`dma_transpose` (DMA), docs/SEMANTICS.md S11.1:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block

RULE = "S11.1"


# ---- semantics ----

TRANSPOSE_AXES = {2: (1, 0), 3: (2, 1, 0), 4: (3, 1, 2, 0)}  # NKI 0.6 dma_transpose, by src rank


def dma_transpose(m, o):
    """S11.1: dst = np.transpose(src, axes) with the axes of src's rank; bits copied exactly."""
    src = o["src"]
    shape = list(src.counts)
    axes = TRANSPOSE_AXES[len(shape)]
    assert tuple(o.get("axes", axes)) == axes, "axes do not match src's rank"
    raw = m.read_raw(src).reshape(shape)
    m.write_raw(o["dst"], np.transpose(raw, axes).reshape(shape[axes[0]], -1))


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = True


# ---- random programs ----

DTYPES = ["bf16", "f16", "i16", "u16", "f32", "i32", "u32"]  # 2 bytes (NKI) and 4 (nki-library)


def emit_dma_transpose(b):
    """nki.isa.dma_transpose(dst, src, axes): 2-, 3- or 4-D src from HBM (2-D also from SBUF)."""
    dtype = b.pick(DTYPES)
    rank = b.pick([2, 2, 3, 4])
    shape = [int(b.rng.integers(1, 9)) for _ in range(rank - 1)] + [int(b.rng.integers(1, 129))]
    axes = TRANSPOSE_AXES[rank]
    values = b.values(dtype, (shape[0], int(np.prod(shape[1:]))), -100, 100)
    if rank == 2 and b.chance(0.4):
        src = b.tile(dtype, int(b.rng.integers(0, 128 - shape[0] + 1)), shape[0], [shape[1]], "sbuf")
        b.load(src, values)
    else:
        src = b.hbm(dtype, shape, "input", values.reshape(shape))
    dst_free = [shape[a] for a in axes[1:]]
    dst = b.tile(dtype, int(b.rng.integers(0, 128 - shape[-1] + 1)), shape[-1], dst_free, "sbuf")
    b.instr("dma_transpose", dst=dst, src=src, axes=list(axes) if b.chance(0.5) else None,
            dge_mode=b.pick([None, "hwdge", "swdge"]))
    b.store(dst)


BLOCKS = [Block(emit_dma_transpose, 0.6, order=37, lockstep=1.2)]
