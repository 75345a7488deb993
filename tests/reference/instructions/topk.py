"""`topk` (GpSimd), docs/SEMANTICS.md S4.36:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, selection_data
from ref_common import F32, ranked
import ref_dtypes

RULE = "S4.36"


# ---- semantics ----

def topk(m, o):
    """S4.36: per 16-partition group, the K largest of the n-element snake (element e at
    partition e % 16, column e // 16), ascending, on every partition of the group."""
    src = m.read(o["src"])
    n, k = o["n"], m.read_raw(o["val_dst"], check=False).shape[1]
    values = np.zeros((src.shape[0], k), dtype=F32)
    index = np.zeros((src.shape[0], k), dtype=np.int64)
    for g in range(src.shape[0] // 16):
        snake = src[16 * g:16 * (g + 1)].T.reshape(-1)[:n]
        ascending = ranked(snake)[:k][::-1]
        values[16 * g:16 * (g + 1)] = snake[ascending]
        index[16 * g:16 * (g + 1)] = ascending
    m.write(o["val_dst"], values)
    m.write_raw(o["idx_dst"], ref_dtypes.encode_int("u32", index))


# ---- random programs ----

def emit_topk(b):
    """Groups of 16 partitions, each a snake of n bf16 values (ties from a small grid at times)."""
    groups = int(b.rng.integers(1, 3))
    s, c = b.pick([0, 32, 64, 96]) if groups == 1 else b.pick([0, 64]), 16 * groups
    n = int(b.rng.integers(8, 160))
    columns = -(-n // 16) + int(b.rng.integers(0, 3))
    src = b.tile("bf16", s, c, [columns], "sbuf")
    b.load(src, selection_data(b, "bf16", c, columns))
    k = int(b.rng.integers(1, min(n, 40) + 1))
    val_dst = b.tile("bf16", s, c, [k], "sbuf")
    idx_dst = b.tile("u32", s, c, [k], "sbuf")
    b.instr("topk", val_dst=val_dst, idx_dst=idx_dst, src=src, n=n)
    b.store(val_dst)
    b.store(idx_dst)


BLOCKS = [Block(emit_topk, 0.4, order=36, lockstep=1.2)]
