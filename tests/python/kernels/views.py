"""Small NKI 0.6 kernels for the package API tests: views, the older
return-value style, tile reuse, kernel keyword arguments."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def batch_rows(x, b, start, size):
  """x [B, 128, 64] -> x[b, start:start+size, :] * 2 (an integer index drops an HBM dimension; nl.ds)."""
  out = nl.ndarray((size, x.shape[2]), dtype=x.dtype, buffer=nl.shared_hbm, name="rows")
  t = nl.load(x[b, nl.ds(start, size), :])
  nl.store(out, value=nl.multiply(t, 2.0))
  return out


@nki.jit
def ap_on_a_view(x):
  """x [128, 64], view = x[:, 16:48] on chip: view.ap(...) without offset reads from the view's start
  (columns 16..47), with offset=8 from 8 elements further (columns 24..39)."""
  whole = nl.ndarray((128, 32), dtype=x.dtype, buffer=nl.shared_hbm, name="whole")
  part = nl.ndarray((128, 16), dtype=x.dtype, buffer=nl.shared_hbm, name="part")
  t = nl.ndarray((128, 64), dtype=x.dtype, buffer=nl.sbuf)
  nisa.dma_copy(dst=t, src=x)
  view = t[:, 16:48]
  u = nl.ndarray((128, 32), dtype=x.dtype, buffer=nl.sbuf)
  nisa.activation(dst=u, op=nl.copy, data=view.ap([[64, 128], [1, 32]]))
  w = nl.ndarray((128, 16), dtype=x.dtype, buffer=nl.sbuf)
  nisa.activation(dst=w, op=nl.copy, data=view.ap([[64, 128], [1, 16]], offset=8))
  nisa.dma_copy(dst=whole, src=u)
  nisa.dma_copy(dst=part, src=w)
  return whole, part


@nki.jit
def old_return_style(x):
  """t[...] = nisa.activation(op=..., data=...): the returned tile is written into t directly."""
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  t = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
  nisa.dma_copy(dst=t, src=x)
  t[...] = nisa.activation(op=nl.exp, data=t)
  s = nisa.tensor_scalar(data=t, op0=nl.add, operand0=1.0, op1=nl.multiply, operand1=3.0)
  nl.store(out, value=s)
  return out


@nki.jit
def many_tiles(x, rounds):
  """Allocates a new [128, 2048] float32 tile (8 KiB a partition) per round: 64 rounds need tile reuse."""
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  acc = nl.zeros(x.shape, dtype=nl.float32)
  for i in nl.sequential_range(rounds):
    t = nl.load(x)
    acc[...] = nl.add(acc, t)
  nl.store(out, value=acc)
  return out


@nki.jit
def inout(x, y):
  """Writes the sum into its parameter y and returns it."""
  nl.store(y, value=nl.add(nl.load(x), nl.load(y)))
  return y


@nki.jit
def psum_round_trip(x):
  """A tile copied into PSUM and stored from there (nl.store copies PSUM to SBUF first)."""
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  p = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.psum)
  nisa.activation(dst=p, op=nl.copy, data=nl.load(x))
  nl.store(out, value=p)
  return out


@nki.jit
def scalar_first(x):
  """1 - x, 2 / x and x / column-sum: number-first operators (reverse0) and a tile divisor."""
  one_minus = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm, name="one_minus")
  two_over = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm, name="two_over")
  share = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm, name="share")
  t = nl.load(x)
  nl.store(one_minus, value=1.0 - t)
  nl.store(two_over, value=2.0 / t)
  nl.store(share, value=t / nl.sum(t, axis=1))
  return one_minus, two_over, share
