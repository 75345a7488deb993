"""Kernels using the NKI 0.6 names nki-library relies on (issue 27):
ndarray(address=...), shared_identity_matrix, shared_constant, returning a
view of an HBM tensor, enum parameters given as integers, the engine
constants, tile_size's SBUF figures and runtime indices on reshaped views.
Lines marked `# LINE name` are where test_nki_names.py expects an error."""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def placed_double(a):
    # a (128, 64) float32 tile at byte 4096 of each partition, doubled into one placed automatically
    t = nl.ndarray((128, 64), nl.float32, buffer=nl.sbuf, address=(0, 4096))
    nisa.dma_copy(dst=t, src=a)
    u = nl.ndarray((128, 64), nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar(dst=u, data=t, op0=nl.multiply, operand0=2.0)
    out = nl.ndarray((128, 64), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=u)
    return out


@nki.jit
def placed_overlapping(a):
    t = nl.ndarray((128, 64), nl.float32, buffer=nl.sbuf, address=(0, 1024))
    u = nl.ndarray((128, 64), nl.float32, buffer=nl.sbuf, address=(0, 1200))  # LINE placed_overlapping
    nisa.dma_copy(dst=t, src=a)
    nisa.dma_copy(dst=u, src=a)
    nisa.dma_copy(dst=a, src=t)  # t is still in use when u is written


@nki.jit
def placed_one_after_the_other(a):
    # Two placed tiles sharing bytes, the second used only once the first is done
    # with (as a stack allocator reuses them): the second reads what the first left.
    t = nl.ndarray((128, 64), nl.float32, buffer=nl.sbuf, address=(0, 512))
    nisa.dma_copy(dst=t, src=a)
    nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=1.0)
    out = nl.ndarray((128, 64), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=t)
    u = nl.ndarray((128, 32), nl.float32, buffer=nl.sbuf, address=(0, 512 + 128))
    out2 = nl.ndarray((128, 32), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out2, src=u)
    return out, out2


@nki.jit
def placed_past_the_end(a):
    t = nl.ndarray((128, 64), nl.float32, buffer=nl.psum, address=(0, 16384 - 128))  # LINE placed_past_the_end
    nisa.dma_copy(dst=t, src=a)


@nki.jit
def placed_at_partition_32(a):
    t = nl.ndarray((64, 64), nl.float32, buffer=nl.sbuf, address=(32, 0))  # LINE placed_at_partition_32
    nisa.dma_copy(dst=t, src=a)


@nki.jit
def placed_hbm(a):
    t = nl.ndarray((64, 64), nl.float32, buffer=nl.shared_hbm, address=(0, 0))  # LINE placed_hbm
    return t


@nki.jit
def identity(a, n, dtype):
    ident = nl.shared_identity_matrix(n, dtype=dtype)
    out = nl.ndarray((n, n), dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=ident)
    return out


@nki.jit
def identity_into(a):
    ident = nl.ndarray((16, 16), nl.float32, buffer=nl.sbuf)
    nisa.memset(dst=ident, value=7.0)
    nl.shared_identity_matrix(16, dtype=nl.float32, dst=ident)
    out = nl.ndarray((16, 16), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=ident)
    return out


@nki.jit
def identity_too_big(a):
    return nl.shared_identity_matrix(129, dtype=nl.float32)  # LINE identity_too_big


@nki.jit
def transpose_by_identity(a):
    # nc_matmul with the identity as the moving operand transposes the stationary one
    P, F = a.shape
    ident = nl.shared_identity_matrix(P, dtype=nl.float32)
    tile = nl.ndarray((P, F), nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=a)
    acc = nl.ndarray((F, P), nl.float32, buffer=nl.psum)
    nisa.nc_matmul(dst=acc, stationary=tile, moving=ident)
    res = nl.ndarray((F, P), nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc)
    out = nl.ndarray((F, P), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=res)
    return out


@nki.jit
def plus_constant(a, constants):
    # `constants` holds the array or .npy path (as nki-library keeps them in
    # its config objects): an array passed to the kernel itself would be an input
    c = nl.shared_constant(constants["c"])
    tile = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=a)
    ctile = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=ctile, src=c)
    nisa.tensor_tensor(dst=tile, data1=tile, data2=ctile, op=nl.add)
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=tile)
    return out


@nki.jit
def writes_constant(a):
    c = nl.shared_constant(np.zeros((4, 4), np.float32))
    tile = nl.ndarray((4, 4), nl.float32, buffer=nl.sbuf)
    nisa.memset(dst=tile, value=1.0)
    nisa.dma_copy(dst=c, src=tile)  # LINE writes_constant


@nki.jit
def returns_reshaped(a):
    P, F = a.shape
    tile = nl.ndarray((P, F), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=a)
    nisa.tensor_scalar(dst=tile, data=tile, op0=nl.add, operand0=1.0)
    out = nl.ndarray((P, F), a.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=tile)
    return out.reshape((P * F // 8, 8))


@nki.jit
def returns_views(a):
    # the parameter's last two rows, and a strided slice of an output
    P, F = a.shape
    tile = nl.ndarray((P, F), a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=a)
    out = nl.ndarray((P, F), a.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=tile)
    return a[P - 2:P, :], out[:, 1:F:2]


@nki.jit  # LINE returns_a_tile
def returns_a_tile(a):
    tile = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=a)
    return tile


@nki.jit
def enums_as_integers(a):
    # NKI's integer values: dge_mode 3 = none, oob_mode 0 = error, reduce_cmd 3 = reset_reduce
    tile = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=a, dge_mode=3, oob_mode=0)
    total = nl.ndarray((a.shape[0], 1), nl.float32, buffer=nl.sbuf)
    res = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.activation(dst=res, op=nl.copy, data=tile, reduce_op=nl.add, reduce_res=total, reduce_cmd=3)
    out = nl.ndarray((a.shape[0], 1), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=total)
    return out


@nki.jit
def enum_integer_out_of_range(a):
    tile = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=a, dge_mode=9)  # LINE enum_integer_out_of_range


@nki.jit
def engine_constants(a):
    tile = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=a)
    res = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=tile, engine=nisa.scalar_engine)
    nisa.tensor_scalar(dst=res, data=res, op0=nl.multiply, operand0=3.0, engine=nisa.vector_engine)
    nisa.tensor_tensor(dst=res, data1=res, data2=tile, op=nl.add, engine=nisa.gpsimd_engine)
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=res)
    return out


@nki.jit
def sbuf_figures(a, seen):
    # tile_size read while the kernel is recorded (for its target), kept in `seen`
    seen.append((nl.tile_size.total_available_sbuf_size, nl.tile_size.sbuf_fmax_bytes, nl.tile_size.sbuf_fmax,
                 nl.tile_size.sbuf_size_bytes))
    tile = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=a)


@nki.jit
def gather_from_slice(data, indices):
    # the first half of each row of data (R, D), gathered by row index: the
    # slice's dimension 0 has the stride D of the declared tensor's rows
    R, D = data.shape
    P = indices.shape[0]
    idx = nl.ndarray((P, 1), nl.uint32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=indices)
    rows = nl.ndarray((P, D // 2), data.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=rows, src=data[:, 0:D // 2].ap(pattern=[[D, P], [1, D // 2]], vector_offset=idx, indirect_dim=0))
    out = nl.ndarray((P, D // 2), data.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=rows)
    return out


@nki.jit
def gather_rows_of_reshaped(data, indices):
    # data (B, S, D) viewed as (B*S, D): each index picks a row of D elements
    # (the stride of the view's dimension 0, NKI 0.6 `.ap` indirect_dim), which
    # no dimension of the declared (B, S, D) tensor has when S > 1: recorded
    # with index_stride=D
    B, S, D = data.shape
    P = indices.shape[0]
    idx = nl.ndarray((P, 1), nl.uint32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=indices)
    rows = nl.ndarray((P, D), data.dtype, buffer=nl.sbuf)
    flat = data.reshape((B * S, D))
    src = flat.ap(pattern=[[D, P], [1, D]], vector_offset=idx, indirect_dim=0)
    nisa.dma_copy(dst=rows, src=src)
    out = nl.ndarray((P, D), data.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=rows)
    return out


@nki.jit
def scalar_index_on_reshaped(data, start):
    # data (R, D) viewed as (R // 4, 4, D); the index counts rows of D on the
    # view's dimension 1, which the declared tensor has as its dimension 0
    R, D = data.shape
    s = nl.ndarray((1, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=start)
    rows = nl.ndarray((2, D), data.dtype, buffer=nl.sbuf)
    view = data.reshape((R // 4, 4, D))
    nisa.dma_copy(dst=rows, src=view.ap(pattern=[[D, 2], [1, D]], offset=0, scalar_offset=s, indirect_dim=1))
    out = nl.ndarray((2, D), data.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=rows)
    return out


@nki.jit
def indirect_dim_outside_the_view(data, start):
    s = nl.ndarray((1, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=start)
    rows = nl.ndarray((2, 8), data.dtype, buffer=nl.sbuf)
    src = data.ap(pattern=[[8, 2], [1, 8]], offset=0, scalar_offset=s, indirect_dim=2)  # LINE indirect_dim_outside
    nisa.dma_copy(dst=rows, src=src)


@nki.jit
def barrier_between_writes(a):
    # router_topk's pattern: write a shared HBM tensor, then core_barrier on it;
    # at a launch of one core the barrier waits for nobody and the data is unchanged.
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    nisa.dma_copy(dst=out, src=t)
    nisa.core_barrier(out, (0, 1))
    nisa.core_barrier(data=out, cores=[0, 1])
    nisa.dma_copy(dst=t, src=out)
    nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=1.0)
    nisa.dma_copy(dst=out, src=t)
    return out


@nki.jit
def barrier_on_a_tile(a):
    t = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    nisa.core_barrier(t, (0, 1))  # LINE barrier_on_a_tile


@nki.jit
def version_branches(a):
    # rotational_topk's and fg_allgather's tests of the target: versions are ordered
    # and compare with ints.
    t = nl.ndarray(a.shape, a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    factor = 2.0 if nisa.get_nc_version() <= nisa.nc_version.gen2 else 3.0
    if nisa.get_nc_version() >= 4:
        factor = 4.0
    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=factor)
    out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=t)
    return out
