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
    partition e % 16, column e // 16), in the form of the program's NKI version (`.nki`):
    0.6: ascending, on every partition of the group; 0.7: in the snake layout, result j
    at partition j % 16, column j // 16 (largest first when sorted, else in snake-index
    order; the last written column's slots past K zero, later columns unchanged)."""
    src = m.read(o["src"])
    n, k = o["n"], m.read_raw(o["val_dst"], check=False).shape[1]
    if m.prog.nki == "0.6":
        values = np.zeros((src.shape[0], k), dtype=F32)
        index = np.zeros((src.shape[0], k), dtype=np.int64)
        for g in range(src.shape[0] // 16):
            snake = src[16 * g:16 * (g + 1)].T.reshape(-1)[:n]
            ascending = ranked(snake)[:k][::-1]
            values[16 * g:16 * (g + 1)] = snake[ascending]
            index[16 * g:16 * (g + 1)] = ascending
        m.write(o["val_dst"], values)
        m.write_raw(o["idx_dst"], ref_dtypes.encode_int("u32", index))
        return
    columns = -(-k // 16)
    values = m.read_raw(o["val_dst"], check=False)
    index = m.read_raw(o["idx_dst"], check=False)
    for g in range(src.shape[0] // 16):
        snake = src[16 * g:16 * (g + 1)].T.reshape(-1)[:n]
        largest = ranked(snake)[:k]
        order = largest if o.get("sorted", False) else np.sort(largest)
        slots = np.full(16 * columns, -1, dtype=np.int64)
        slots[:k] = order
        grid = slots.reshape(columns, 16).T  # [partition q, column c] = result 16 c + q
        found = np.where(grid >= 0, snake[np.maximum(grid, 0)], 0).astype(F32)
        values[16 * g:16 * (g + 1), :columns] = ref_dtypes.encode(m.dtype(o["val_dst"]), found)
        index[16 * g:16 * (g + 1), :columns] = ref_dtypes.encode_int("u32", np.maximum(grid, 0))
    written = np.zeros(values.shape, dtype=bool)
    written[:, :columns] = True
    m.write_raw(o["val_dst"], values, written)
    m.write_raw(o["idx_dst"], index, written)


# ---- random programs ----

def emit_topk(b):
    """Groups of 16 partitions, each a snake of n bf16 values (ties from a small grid at times).
    The program's NKI version is drawn at its first topk (both forms, S4.36); NKI 0.7's
    results fill only the first ceil(K / 16) columns, so its val_dst and idx_dst are loaded first."""
    if b.nki is None:
        b.nki = b.pick(["0.6", "0.7"])
    groups = int(b.rng.integers(1, 3))
    s, c = b.pick([0, 32, 64, 96]) if groups == 1 else b.pick([0, 64]), 16 * groups
    n = int(b.rng.integers(8, 160))
    columns = -(-n // 16) + int(b.rng.integers(0, 3))
    src = b.tile("bf16", s, c, [columns], "sbuf")
    b.load(src, selection_data(b, "bf16", c, columns))
    k = int(b.rng.integers(1, min(n, 40) + 1))
    val_dst = b.tile("bf16", s, c, [k], "sbuf")
    idx_dst = b.tile("u32", s, c, [k], "sbuf")
    extra = {}
    if b.nki == "0.7":
        b.load(val_dst, selection_data(b, "bf16", c, k))
        b.load(idx_dst, b.rng.integers(0, 1000, size=(c, k)).astype(np.uint32))
        if b.chance(0.7):
            extra["sorted"] = b.chance(0.5)
    b.instr("topk", val_dst=val_dst, idx_dst=idx_dst, src=src, n=n, **extra)
    b.store(val_dst)
    b.store(idx_dst)


BLOCKS = [Block(emit_topk, 0.4, order=36, lockstep=1.2)]
