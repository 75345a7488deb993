"""Kernels launched on two NeuronCores (NKI 0.6 kernel[2], issue 28): work
split by nl.program_id, sendrecv exchanges, core_barrier over shared HBM,
and the mistakes a two-core kernel can make. Lines marked `# LINE name` are
where test_nki_cores.py expects an error."""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def launch_facts(a):
    # Each core writes (program_id, num_programs(), num_programs(0), program_ndim()) into its row.
    out = nl.ndarray((nl.num_programs(), 4), nl.float32, buffer=nl.shared_hbm)
    row = nl.ndarray((1, 4), nl.float32, buffer=nl.sbuf)
    facts = (nl.program_id(0), nl.num_programs(), nl.num_programs(axes=0), nl.program_ndim())
    for k, value in enumerate(facts):
        nisa.memset(dst=row[:, k:k + 1], value=float(value))
    i = nl.program_id(axis=0)
    nisa.dma_copy(dst=out[i:i + 1, :], src=row)
    return out


@nki.jit
def scaled_halves(a):
    # Core i scales its half of the rows by i + 2 into the shared output.
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    n = a.shape[0] // nl.num_programs()
    i = nl.program_id(0)
    t = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a[i * n:(i + 1) * n, :])
    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=float(i + 2))
    nisa.dma_copy(dst=out[i * n:(i + 1) * n, :], src=t)
    return out


@nki.jit
def swapped_halves(a, engine_name="dma"):
    # Core i loads its half, swaps it with the other core's by sendrecv, adds 1 and stores it at its half.
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    n = a.shape[0] // 2
    i = nl.program_id(0)
    mine = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    theirs = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=mine, src=a[i * n:(i + 1) * n, :])
    nisa.sendrecv(src=mine, dst=theirs, send_to_rank=1 - i, recv_from_rank=1 - i, pipe_id=0,
                  dma_engine=getattr(nisa.dma_engine, engine_name))
    nisa.tensor_scalar(dst=theirs, data=theirs, op0=nl.add, operand0=1.0)
    nisa.dma_copy(dst=out[i * n:(i + 1) * n, :], src=theirs)
    return out


@nki.jit
def barrier_then_other_half(a):
    # Core i writes its half, squared, to a shared scratch; after the barrier it reads the
    # other core's half of it and writes that, minus its own half of a, to its half of out.
    squares = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    n = a.shape[0] // 2
    i = nl.program_id(0)
    t = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a[i * n:(i + 1) * n, :])
    nisa.tensor_tensor(dst=t, data1=t, data2=t, op=nl.multiply)
    nisa.dma_copy(dst=squares[i * n:(i + 1) * n, :], src=t)
    nisa.core_barrier(squares, (0, 1))
    other = 1 - i
    u = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=u, src=squares[other * n:(other + 1) * n, :])
    mine = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=mine, src=a[i * n:(i + 1) * n, :])
    nisa.tensor_tensor(dst=u, data1=u, data2=mine, op=nl.subtract)
    nisa.dma_copy(dst=out[i * n:(i + 1) * n, :], src=u)
    return out


@nki.jit
def private_scratch(a):
    # Both cores write their own value to an nl.hbm scratch of the same line, meet at a
    # barrier, then read it back: private HBM is each core's own, so each reads its own.
    out = nl.ndarray((2, a.shape[1]), a.dtype, buffer=nl.shared_hbm)
    i = nl.program_id(0)
    scratch = nl.ndarray((1, a.shape[1]), a.dtype, buffer=nl.hbm)
    t = nl.ndarray((1, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a[i:i + 1, :])
    nisa.dma_copy(dst=scratch, src=t)
    nisa.core_barrier(data=out, cores=[0, 1])
    u = nl.ndarray((1, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=u, src=scratch)
    nisa.dma_copy(dst=out[i:i + 1, :], src=u)
    return out


@nki.jit
def halves_in_place(a):
    # Each core negates its half of the parameter a (a write the caller sees).
    n = a.shape[0] // 2
    i = nl.program_id(0)
    t = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a[i * n:(i + 1) * n, :])
    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=-1.0)
    nisa.dma_copy(dst=a[i * n:(i + 1) * n, :], src=t)
    return a


@nki.jit
def shared_constant_added(a, values):
    c = nl.shared_constant(np.asarray(values, np.float32))  # values: a list, so not a parameter tensor
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    i = nl.program_id(0)
    n = a.shape[0] // 2
    t = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    u = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a[i * n:(i + 1) * n, :])
    nisa.dma_copy(dst=u, src=c[i * n:(i + 1) * n, :])
    nisa.tensor_tensor(dst=t, data1=t, data2=u, op=nl.add)
    nisa.dma_copy(dst=out[i * n:(i + 1) * n, :], src=t)
    return out


@nki.jit
def last_core_takes_the_rest(a):
    # nki-library cross_entropy's split: rows // cores rows per core, the last core the rest; with one
    # row, core 0 has none and takes an empty view (nl.ds(0, 0)) it never uses. Each row gets 1 added.
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    cores, i = nl.num_programs(), nl.program_id(0)
    nominal = a.shape[0] // cores
    start = i * nominal
    count = a.shape[0] - start if i == cores - 1 else nominal
    mine, mine_out = a[nl.ds(start, count), :], out[nl.ds(start, count), :]
    if count:
        t = nl.ndarray((count, a.shape[1]), a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=mine)
        nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=1.0)
        nisa.dma_copy(dst=mine_out, src=t)
    return out


# --- mistakes ----------------------------------------------------------------
@nki.jit
def copies_an_empty_view(a):
    t = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t[0:0, :], src=a[nl.ds(0, 0), :])  # LINE empty_view



@nki.jit
def sendrecv_on_core_0_only(a):
    t = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    r = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    if nl.program_id(0) == 0:
        nisa.sendrecv(src=t, dst=r, send_to_rank=1, recv_from_rank=1, pipe_id=0)  # LINE sendrecv_alone
    nisa.dma_copy(dst=t, src=a)  # LINE core_1_ends


@nki.jit
def barrier_on_core_1_only(a):
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    if nl.program_id(0) == 1:
        nisa.core_barrier(out, (0, 1))  # LINE barrier_alone
    nisa.dma_copy(dst=out, src=t)
    return out


@nki.jit
def sendrecv_shapes_differ(a):
    # core 0 sends 2 rows, core 1 sends 4
    rows = 2 if nl.program_id(0) == 0 else 4
    t = nl.ndarray((rows, a.shape[1]), a.dtype, buffer=nl.sbuf)
    r = nl.ndarray((rows, a.shape[1]), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a[0:rows, :])
    other = 1 - nl.program_id(0)
    nisa.sendrecv(src=t, dst=r, send_to_rank=other, recv_from_rank=other, pipe_id=0)  # LINE sendrecv_shapes


@nki.jit
def sendrecv_to_itself(a):
    t = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    r = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    i = nl.program_id(0)
    nisa.sendrecv(src=t, dst=r, send_to_rank=i, recv_from_rank=i, pipe_id=0)  # LINE sendrecv_itself


@nki.jit
def shared_shapes_differ(a):
    rows = a.shape[0] if nl.program_id(0) == 0 else a.shape[0] // 2
    out = nl.ndarray((rows, a.shape[1]), a.dtype, buffer=nl.shared_hbm)  # LINE shared_shapes
    return out


@nki.jit
def more_shared_on_core_1(a):
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    if nl.program_id(0) == 1:
        nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)  # LINE shared_extra
    return out


@nki.jit
def returns_differ(a, b):
    if nl.program_id(0) == 0:  # LINE returns_differ
        return a
    return b


@nki.jit
def returns_private(a):  # LINE returns_private
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.hbm)
    t = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    nisa.dma_copy(dst=out, src=t)
    return out


@nki.jit
def constant_differs(a, values):
    c = nl.shared_constant(np.asarray(values, np.float32) * (1 + nl.program_id(0)))  # LINE constant_differs
    return c


@nki.jit
def program_id_axis_1(a):
    nl.program_id(axis=1)  # LINE program_id_axis_1


@nki.jit
def all_reduced_halves(a, op_name="add"):
    # Core i reduces its half of the rows with the other core's by sendrecv_compute (NKI, trn2/trn3)
    # and stores the result at its half: both halves of out hold op(a[:n], a[n:]).
    out = nl.ndarray(a.shape, nl.float32, buffer=nl.shared_hbm)
    n = a.shape[0] // 2
    i = nl.program_id(0)
    mine = nl.ndarray((n, a.shape[1]), a.dtype, buffer=nl.sbuf)
    reduced = nl.ndarray((n, a.shape[1]), nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=mine, src=a[i * n:(i + 1) * n, :])
    nisa.sendrecv_compute(src=mine, dst=reduced, send_to_rank=1 - i, recv_from_rank=1 - i,
                          reduce_op=getattr(nl, op_name))
    nisa.dma_copy(dst=out[i * n:(i + 1) * n, :], src=reduced)
    return out
