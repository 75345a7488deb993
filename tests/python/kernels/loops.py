"""Kernels with runtime loops and registers (issue 29), written as NKI's docs
write them (nki.language.fori_loop / while_loop / dynamic_range,
nki.isa.register_* and, under NKI 0.7, scalar_load). Lines marked
`# LINE name` are where the error of kernel `name` must be reported."""
import nki
import nki.isa as nisa
import nki.language as nl

COLS = 64


def _load_register(count):
  """A register holding the (1, 1) int32 HBM tensor `count`."""
  count_sb = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.dma_copy(dst=count_sb, src=count)
  reg = nisa.register_alloc()
  nisa.register_load(reg, count_sb)
  return reg


@nki.jit
def tiles_times_two_plus_one(x, n_rows):
  """out[r] = 2 x[r] + 1 for the first n_rows rows (a multiple of 128 read at
  run time), one 128-row tile per iteration; the other rows stay 0. Also
  returns the sum of the tiles processed (an SBUF accumulator across
  iterations)."""
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  total = nl.ndarray((128, COLS), dtype=nl.float32, buffer=nl.shared_hbm)
  rows = _load_register(n_rows)
  acc = nl.zeros((128, COLS), dtype=nl.float32, buffer=nl.sbuf)

  def body(i):
    tile = nl.ndarray((128, COLS), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=x.ap(pattern=[[COLS, 128], [1, COLS]], offset=0, scalar_offset=i, indirect_dim=0))
    nisa.tensor_tensor(dst=acc, data1=acc, data2=tile, op=nl.add)
    result = nl.ndarray((128, COLS), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar(dst=result, data=tile, op0=nl.multiply, operand0=2.0, op1=nl.add, operand1=1.0)
    nisa.dma_copy(dst=out.ap(pattern=[[COLS, 128], [1, COLS]], offset=0, scalar_offset=i, indirect_dim=0), src=result)

  nl.fori_loop(0, rows, body, step=128)
  nisa.dma_copy(dst=total, src=acc)
  return out, total


@nki.jit
def scaled_tiles(x, n_rows):
  """out tile t = x tile t * 3 + 1 for the first n_rows rows (read at run time), tiles
  of 128 x 8192 float32 (32 KiB a partition). `factor` is made before the
  loop and last read by the body's second instruction; `scratch` (160 KiB,
  used before the loop only) leaves too little fresh SBUF on trn2 for the
  body's tiles, which take freed bytes: `shifted` must not take `factor`'s,
  or the second iteration reads them clobbered."""
  width = x.shape[1]
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  rows = _load_register(n_rows)
  factor = nl.full((128, width), 3.0, dtype=nl.float32, buffer=nl.sbuf)
  scratch = nl.zeros((128, 5 * width), dtype=nl.float32, buffer=nl.sbuf)
  for i in nl.dynamic_range(0, rows, 128):
    tile = nl.ndarray((128, width), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=x.ap(pattern=[[width, 128], [1, width]], offset=0, scalar_offset=i, indirect_dim=0))
    scaled = nl.ndarray((128, width), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=scaled, data1=tile, data2=factor, op=nl.multiply)
    shifted = nl.ndarray((128, width), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar(dst=shifted, data=scaled, op0=nl.add, operand0=1.0)
    nisa.dma_copy(dst=out.ap(pattern=[[width, 128], [1, width]], offset=0, scalar_offset=i, indirect_dim=0), src=shifted)
  return out


@nki.jit
def countdown(count):
  """while_loop: adds 1 to a float32 accumulator `count` times (count read
  at run time; 0 runs the body never), then stores the accumulator and the
  condition register's final value."""
  acc = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  count_sb = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.dma_copy(dst=count_sb, src=count)
  reg = nisa.register_alloc()
  nisa.register_load(reg, count_sb)

  def body(r):
    nisa.tensor_scalar(dst=acc, data=acc, op0=nl.add, operand0=1.0)
    nisa.tensor_scalar(dst=count_sb, data=count_sb, op0=nl.subtract, operand0=1)
    nisa.register_load(r, count_sb)
    return r

  nl.while_loop(reg, body)
  out = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.shared_hbm)
  nisa.dma_copy(dst=out, src=acc)
  return out


@nki.jit
def countdown_other_register(count):
  """while_loop whose body returns a register other than the one it got:
  the next condition is the returned one's value (count, count-1, ..., 0:
  `count` iterations, the register holding count - k after k)."""
  acc = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  count_sb = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.dma_copy(dst=count_sb, src=count)
  reg = nisa.register_alloc()
  nisa.register_load(reg, count_sb)
  nxt = nisa.register_alloc(0)

  def body(r):
    nisa.tensor_scalar(dst=acc, data=acc, op0=nl.add, operand0=2.0)
    nisa.tensor_scalar(dst=count_sb, data=count_sb, op0=nl.subtract, operand0=1)
    nisa.register_load(nxt, count_sb)
    return nxt

  nl.while_loop(reg, body)
  out = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.shared_hbm)
  nisa.dma_copy(dst=out, src=acc)
  return out


@nki.jit
def iota_by_register(n, width):
  """out[0, i] = i for i in range(0, n, 2) (n read at run time) by
  dynamic_range: each iteration stores its register into a (1, 1) tile
  (register_store) and copies it to column i."""
  out = nl.ndarray((1, width), dtype=nl.int32, buffer=nl.shared_hbm)
  upper = _load_register(n)
  cell = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  for i in nl.dynamic_range(0, upper, 2):
    nisa.register_store(cell, i)
    nisa.dma_copy(dst=out.ap(pattern=[[width, 1], [1, 1]], offset=0, scalar_offset=i, indirect_dim=1), src=cell)
  return out


@nki.jit
def register_moves(x):
  """register_alloc(7), register_move from an int and from a register,
  register_store of each: out = [7, -5, -5, x]."""
  out = nl.ndarray((1, 4), dtype=nl.int32, buffer=nl.shared_hbm)
  a = nisa.register_alloc(7)
  b = nisa.register_alloc()
  nisa.register_move(b, -5)
  c = nisa.register_alloc()
  nisa.register_move(c, b)
  d = _load_register(x)
  for k, reg in enumerate((a, b, c, d)):
    cell = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    nisa.register_store(cell, reg)
    nisa.dma_copy(dst=out[0:1, k:k + 1], src=cell)
  return out


@nki.jit
def many_iterations(n):
  """A fori_loop of n (a Python int) iterations adding 1 to an accumulator:
  a few instructions whatever n."""
  acc = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)

  def body(i):
    nisa.tensor_scalar(dst=acc, data=acc, op0=nl.add, operand0=1.0)

  nl.fori_loop(0, n, body)
  out = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.shared_hbm)
  nisa.dma_copy(dst=out, src=acc)
  return out


@nki.jit
def nested(n_outer, n_inner):
  """Nested runtime loops: acc += 1 n_outer * n_inner times, and the inner
  loop's bound is the outer iteration (acc2 += i for i < n_outer, j < i)."""
  acc = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  outer = _load_register(n_outer)
  inner = _load_register(n_inner)
  for _ in nl.dynamic_range(outer):
    for _ in nl.dynamic_range(inner):
      nisa.tensor_scalar(dst=acc, data=acc, op0=nl.add, operand0=1.0)
  tri = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  for i in nl.dynamic_range(outer):
    for _ in nl.dynamic_range(0, i):
      nisa.tensor_scalar(dst=tri, data=tri, op0=nl.add, operand0=1.0)
  out = nl.ndarray((1, 2), dtype=nl.float32, buffer=nl.shared_hbm)
  nisa.dma_copy(dst=out[0:1, 0:1], src=acc)
  nisa.dma_copy(dst=out[0:1, 1:2], src=tri)
  return out


# --- NKI 0.7 (nisa.nki.install(version="0.7")) ------------------------------
@nki.jit
def scalar_arithmetic(value):
  """NkiScalar arithmetic (nki/deep-dives/nki-scalar): s = the int32 value;
  out = [s * 4 + 1, -s, 3 - s, s * s, s + s - 7] with 32-bit wrap-around."""
  tile = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.dma_copy(dst=tile, src=value)
  s = nisa.scalar_load(tile)
  results = [s * 4 + 1, -s, 3 - s, s * s, s + s - 7]
  out = nl.ndarray((1, len(results)), dtype=nl.int32, buffer=nl.shared_hbm)
  for k, r in enumerate(results):
    cell = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    nisa.scalar_store(cell, r)
    nisa.dma_copy(dst=out[0:1, k:k + 1], src=cell)
  return out


@nki.jit
def scalar_bounds(n, width):
  """0.7 fori_loop with an NkiScalar bound (n * 2) and an NkiScalar
  iteration value: out[0, i] = i + 1 for i < 2 n."""
  tile = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.dma_copy(dst=tile, src=n)
  count = nisa.scalar_load(tile)
  out = nl.ndarray((1, width), dtype=nl.int32, buffer=nl.shared_hbm)
  cell = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)

  def body(i):
    nisa.scalar_store(cell, i + 1)
    nisa.dma_copy(dst=out.ap(pattern=[[width, 1], [1, 1]], offset=0, scalar_offset=i, indirect_dim=1), src=cell)

  nl.fori_loop(0, count * 2, body)
  return out


@nki.jit
def countdown_while_statement(count, x):
  """NKI 0.6's `while reg:` (nki.isa.VirtualRegister's example): acc += x
  while the count read from `count` is not 0, the count decremented by one
  each iteration and loaded back into the register; the register made from
  a tile as nki-library's MoE kernels write it (register_alloc(tile))."""
  out = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.shared_hbm)
  count_sb = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.dma_copy(dst=count_sb, src=count)
  one = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.memset(dst=one, value=1)
  val = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  nisa.dma_copy(dst=val, src=x)
  acc = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  reg = nisa.register_alloc(count_sb)
  while reg:
    nisa.tensor_tensor(dst=acc, data1=acc, data2=val, op=nl.add)
    nisa.tensor_tensor(dst=count_sb, data1=count_sb, data2=one, op=nl.subtract)
    nisa.register_load(reg, count_sb)
  nisa.dma_copy(dst=out, src=acc)
  return out


# --- misuse --------------------------------------------------------------------
@nki.jit
def register_in_an_if(n):
  reg = nisa.register_alloc(1)
  if reg:  # LINE register_in_an_if
    pass
  return n


@nki.jit
def break_out_of_dynamic_range(n):
  acc = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  for _ in nl.dynamic_range(5):  # LINE break_out_of_dynamic_range
    nisa.tensor_scalar(dst=acc, data=acc, op0=nl.add, operand0=1.0)
    break
  out = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.shared_hbm)
  nisa.dma_copy(dst=out, src=acc)
  return out


@nki.jit
def zero_step(n):
  acc = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  nl.fori_loop(0, 4, lambda i: nisa.tensor_scalar(dst=acc, data=acc, op0=nl.add, operand0=1.0), step=0)  # LINE zero_step
  return n


@nki.jit
def bound_too_large(n):
  for _ in nl.dynamic_range(2 ** 31):  # LINE bound_too_large
    pass
  return n


@nki.jit
def store_a_tensor(n):
  cell = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.register_store(cell, cell)  # LINE store_a_tensor
  return n


@nki.jit
def while_body_returns_nothing(n):
  reg = nisa.register_alloc(1)
  nl.while_loop(reg, lambda r: None)  # LINE while_body_returns_nothing
  return n


@nki.jit
def register_as_python_int(n):
  reg = nisa.register_alloc(3)
  for _ in range(reg):  # LINE register_as_python_int
    pass
  return n


@nki.jit
def scalar_load_in_06(n):
  tile = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.dma_copy(dst=tile, src=n)
  nisa.scalar_load(tile)  # LINE scalar_load_in_06
  return n


@nki.jit
def scalar_load_of_float(n):
  tile = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  nisa.memset(dst=tile, value=1.0)
  nisa.scalar_load(tile)  # LINE scalar_load_of_float
  return n


@nki.jit
def scalar_compare(n):
  tile = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  nisa.dma_copy(dst=tile, src=n)
  s = nisa.scalar_load(tile)
  if s < 3:  # LINE scalar_compare
    pass
  return n


@nki.jit
def dynamic_range_in_07(n):
  for _ in nl.dynamic_range(3):  # LINE dynamic_range_in_07
    pass
  return n


@nki.jit
def register_read_before_set(n):
  out = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.shared_hbm)
  cell = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
  reg = nisa.register_alloc()
  nisa.register_store(cell, reg)  # LINE register_read_before_set
  nisa.dma_copy(dst=out, src=cell)
  return out


@nki.jit
def negative_trip_count(n):
  out = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.shared_hbm)
  acc = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)
  upper = _load_register(n)
  for _ in nl.dynamic_range(5, upper):  # LINE negative_trip_count
    nisa.tensor_scalar(dst=acc, data=acc, op0=nl.add, operand0=1.0)
  nisa.dma_copy(dst=out, src=acc)
  return out


# --- two cores (kernel[2]) -------------------------------------------------------
@nki.jit
def halves_by_core(x, n_rows):
  """At kernel[2], core c adds c + 1 to the first n_rows rows (a multiple of
  128 read at run time) of its half of x's rows, 128 rows per iteration of
  its own loop; the other rows of the result stay 0."""
  c = nl.program_id(0)
  half = x.shape[0] // 2
  out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
  rows = _load_register(n_rows)

  def body(i):
    tile = nl.ndarray((128, COLS), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=x[c * half:(c + 1) * half, :].ap(pattern=[[COLS, 128], [1, COLS]], offset=0,
                                                                 scalar_offset=i, indirect_dim=0))
    nisa.tensor_scalar(dst=tile, data=tile, op0=nl.add, operand0=float(c + 1))
    nisa.dma_copy(dst=out[c * half:(c + 1) * half, :].ap(pattern=[[COLS, 128], [1, COLS]], offset=0,
                                                         scalar_offset=i, indirect_dim=0), src=tile)

  nl.fori_loop(0, rows, body, step=128)
  return out


@nki.jit
def sendrecv_in_loop(a):
  out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
  i = nl.program_id(0)
  mine = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
  theirs = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
  nisa.dma_copy(dst=mine, src=a)
  for _ in nl.dynamic_range(2):
    nisa.sendrecv(src=mine, dst=theirs, send_to_rank=1 - i, recv_from_rank=1 - i, pipe_id=0)  # LINE sendrecv_in_loop
  nisa.dma_copy(dst=out, src=theirs)
  return out
