"""Tensor Indirection (NKI 0.6 `t.indirect(index)`, NeuronCore-v4) on
tensor_copy: a gather of columns of an SBUF tile, a scatter into one, and a
view whose index starts off a quadrant boundary (an error at its line); on
tensor_tensor (data1 gathered; data2 refused), tensor_scalar (dst scattered),
activation (data gathered), tensor_scalar_cumulative (src gathered),
tensor_copy_predicated (dst scattered, its predicate gathered) and
tensor_reduce (data gathered)."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit(platform_target="trn3")
def gather_columns(x, cols):
    # x (P, F); cols (P, 1) int32: column i of the result is x[:, cols[i, 0]]
    P, F = x.shape
    xt = nl.ndarray((P, F), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=cols)
    out = nl.ndarray((P, P), x.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=out, src=xt.indirect(idx))
    result = nl.ndarray((P, P), x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result


@nki.jit(platform_target="trn3")
def scatter_columns(x, cols, F):
    # x (P, N); cols (P, 1) int32: result[:, cols[i, 0]] = x[:, i] for i < N, zeros elsewhere
    P, N = x.shape
    xt = nl.ndarray((P, N), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=cols)
    out = nl.ndarray((P, F), x.dtype, buffer=nl.sbuf)
    nisa.memset(dst=out, value=0.0)
    nisa.tensor_copy(dst=out.indirect(idx, num_elem=N), src=xt)
    result = nl.ndarray((P, F), x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result


@nki.jit(platform_target="trn3")
def index_off_quadrant(x):
    xt = nl.ndarray((32, 16), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    idx = nl.ndarray((64, 1), nl.int32, buffer=nl.sbuf)
    nisa.memset(dst=idx, value=0)
    out = nl.ndarray((32, 32), x.dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=out, src=xt.indirect(idx[16:48, :]))  # LINE off_quadrant
    result = nl.ndarray((32, 32), x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result


@nki.jit(platform_target="trn3")
def gather_subtract(x, y, cols):
    # tensor_tensor: result = x[:, cols[i, 0]] - y (data1 gathered, NKI 0.6 "Tensor indirection")
    P, F = x.shape
    xt = nl.ndarray((P, F), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    yt = nl.ndarray(y.shape, y.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=yt, src=y)
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=cols)
    out = nl.ndarray(y.shape, x.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=out, data1=xt.indirect(idx, num_elem=y.shape[1]), data2=yt, op=nl.subtract)
    result = nl.ndarray(y.shape, x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result


@nki.jit(platform_target="trn3")
def scale_scatter(x, cols, F):
    # tensor_scalar: result[:, cols[i, 0]] = 2 * x[:, i] + 1 (dst scattered), zeros elsewhere
    P, N = x.shape
    xt = nl.ndarray((P, N), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=cols)
    out = nl.ndarray((P, F), x.dtype, buffer=nl.sbuf)
    nisa.memset(dst=out, value=0.0)
    nisa.tensor_scalar(dst=out.indirect(idx, num_elem=N), data=xt, op0=nl.multiply, operand0=2.0, op1=nl.add, operand1=1.0)
    result = nl.ndarray((P, F), x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result


@nki.jit(platform_target="trn3")
def indirect_data2(x):
    xt = nl.ndarray((32, 16), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    idx = nl.ndarray((32, 1), nl.int32, buffer=nl.sbuf)
    nisa.memset(dst=idx, value=0)
    out = nl.ndarray((32, 16), x.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=out, data1=xt, data2=xt.indirect(idx, num_elem=16), op=nl.add)  # LINE data2
    result = nl.ndarray((32, 16), x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result


@nki.jit(platform_target="trn3")
def gather_exp(x, cols):
    # activation: result = exp(x[:, cols[i, 0]]) (data gathered, on the Scalar engine)
    P, F = x.shape
    xt = nl.ndarray((P, F), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=cols)
    out = nl.ndarray((P, P), nl.float32, buffer=nl.sbuf)
    nisa.activation(dst=out, op=nl.exp, data=xt.indirect(idx))
    result = nl.ndarray((P, P), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result


@nki.jit(platform_target="trn3")
def gather_cumsum(x, cols):
    # tensor_scalar_cumulative: result[:, i] = sum of x[:, cols[j, 0]] for j <= i (src gathered)
    P, F = x.shape
    xt = nl.ndarray((P, F), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=cols)
    out = nl.ndarray((P, P), nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=out, src=xt.indirect(idx), op0=nl.add, op1=nl.add, imm0=0.0)
    result = nl.ndarray((P, P), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result


@nki.jit(platform_target="trn3")
def predicated_scatter(x, mask, cols, init):
    # tensor_copy_predicated: for i < N, result[:, cols[i, 0]] = x[:, i] where
    # mask[:, cols[i, 0]] != 0; every other element keeps init
    P, N = x.shape
    F = init.shape[1]
    xt = nl.ndarray((P, N), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    mt = nl.ndarray((P, F), mask.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=mt, src=mask)
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=cols)
    out = nl.ndarray((P, F), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=out, src=init)
    nisa.tensor_copy_predicated(dst=out.indirect(idx, num_elem=N), src=xt, predicate=mt.indirect(idx, num_elem=N))
    result = nl.ndarray((P, F), x.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result


@nki.jit(platform_target="trn3")
def gather_max(x, cols):
    # tensor_reduce: result[p, 0] = max over i < 32 of x[p, cols[i, 0]] (data gathered)
    P, F = x.shape
    xt = nl.ndarray((P, F), x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=xt, src=x)
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=cols)
    out = nl.ndarray((P, 1), nl.float32, buffer=nl.sbuf)
    nisa.tensor_reduce(dst=out, op=nl.maximum, data=xt.indirect(idx), axis=1)
    result = nl.ndarray((P, 1), nl.float32, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=result, src=out)
    return result
