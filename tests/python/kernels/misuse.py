"""Kernels that misuse NKI, for the error tests: each error must name this
file and the line marked in the comment."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit(strict=True)
def reads_unwritten_tile(x):
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  never_written = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
  result = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
  nisa.activation(dst=result, op=nl.exp, data=never_written)  # LINE reads_unwritten_tile
  nisa.dma_copy(dst=out, src=result)
  return out


@nki.jit
def wrong_key(x):
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  t = nl.load(x)
  nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand=1.0)  # LINE wrong_key
  nl.store(out, value=t)
  return out


@nki.jit
def slice_out_of_bounds(x):
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  t = nl.load(x[0:128, 0:x.shape[1] + 1])  # LINE slice_out_of_bounds
  nl.store(out, value=t)
  return out


@nki.jit
def shape_mismatch(x):
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  a = nl.load(x)
  b = nl.ndarray((x.shape[0], x.shape[1] // 2), dtype=x.dtype, buffer=nl.sbuf)
  nisa.memset(dst=b, value=0.0)
  nisa.tensor_tensor(dst=a, data1=a, data2=b, op=nl.add)  # LINE shape_mismatch
  nl.store(out, value=a)
  return out


@nki.jit
def not_modeled(x):
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  a = nl.load(x)
  nl.mod(a, 2.0)  # LINE not_modeled
  nl.store(out, value=a)
  return out


@nki.jit
def too_many_live_tiles(x):
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  tiles = []
  for i in nl.affine_range(64):
    tiles.append(nl.load(x))  # LINE too_many_live_tiles
  total = tiles[0]
  for t in tiles[1:]:
    total = nl.add(total, t)
  nl.store(out, value=total)
  return out
