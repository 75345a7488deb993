"""`device_print` (DMA; NKI 0.6's nki.language.device_print), docs/SEMANTICS.md
S15.1: the reference model's semantics and its random instances."""

from gen_common import any_dtype, Block, compute_mem
import ref_dtypes

RULE = "S15.1"


# ---- semantics ----

def device_print(m, o):
    """S15.1: "FILE:LINE: PREFIX DTYPE [SHAPE]", then NumPy's str() of the
    view's values as the .npy of a dump holds them (LANGUAGE.md 3: bf16, tf32
    and fp8 as float32, the mx types as their bits), then an empty line. Reads
    the tensor (a strict-mode hazard if unwritten); writes nothing."""
    view = o["tensor"]
    dtype = m.dtype(view)
    values = ref_dtypes.to_npy(dtype, m.read_raw(view)).reshape(view.counts)
    prefix = o["print_prefix"]
    head = f"{m.file}:{m.line}: " + (f"{prefix} " if prefix else "") + f"{dtype} [{', '.join(map(str, view.counts))}]"
    m.printed.append(f"{head}\n{values}\n\n")


# ---- random programs ----

# Prefixes: NKI's usual ones, the empty one, and the characters .nasm must
# keep inside a string (comment starters, separators, '=', a tab).
PREFIXES = ["t:", "value of a:", "", "x = ", "a, b; c # d", "tab\there", "[0:4]", "lane #3"]


def emit_device_print(b):
    """A tile of any dtype in SBUF or PSUM (any view form), sometimes an HBM
    input, printed; large ones are summarized, specials (NaN, inf, -0) mixed in."""
    dtype = any_dtype(b)
    if b.chance(0.15):
        shape = [int(b.rng.integers(1, 9)), int(b.rng.integers(1, 300))]
        name = b.hbm(dtype, shape, "input", values=b.values(dtype, shape, specials=True))
        b.instr("device_print", print_prefix=f'"{b.pick(PREFIXES)}"', tensor=name)
        return
    s, c = b.lanes()
    free = b.free_shape()
    t = b.tile(dtype, s, c, free, compute_mem(b))
    lo, hi = b.pick([(-4.0, 4.0), (-1e5, 1e5), (-1e-3, 1e-3), (0.0, 1e9)])
    b.load(t, b.values(dtype, (c, t.elems), lo, hi, specials=b.chance(0.4)))
    b.instr("device_print", print_prefix=f'"{b.pick(PREFIXES)}"', tensor=t)


BLOCKS = [Block(emit_device_print, 0.3, lockstep=1.0)]
