"""Runtime indices on reshaped views, in nki-library's style (issue 27): the
index moves by the stride of the view's indirect_dim (NKI 0.6 `.ap`), which
the declared tensor need not have. router_topk's indirect-DMA scatter writes
each token's k affinities into expert_affinities.reshape((T*E,)) at the flat
positions t*E + expert, the index a column of an SBUF tile taken with `.ap`;
the KV-cache kernels read and write rows of x.reshape((B*S, D))."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def topk_scatter(positions, topk, E):
    # positions (T, K) int32: t*E + expert; topk (T, K) affinities
    T, K = topk.shape
    affinities = nl.ndarray((T, E), nl.float32, buffer=nl.shared_hbm)
    zeros = nl.ndarray((T, E), nl.float32, buffer=nl.sbuf)
    nisa.memset(dst=zeros, value=0.0)
    nisa.dma_copy(dst=affinities, src=zeros)
    pos = nl.ndarray((T, K), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=pos, src=positions)
    vals = nl.ndarray((T, K), nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=vals, src=topk)
    affinities_1d = affinities.reshape((T * E,))
    for k in range(K):
        index_column = pos.ap(pattern=[[K, T], [1, 1], [1, 1]], offset=k)
        nisa.dma_copy(dst=affinities_1d.ap([[K, T], [1, 1]], offset=0, vector_offset=index_column, indirect_dim=0),
                      src=vals.ap([[K, T], [1, 1]], offset=k))
    return affinities


@nki.jit
def kv_cache_read(cache, rows):
    # cache (B, S, D); rows (P, 1): rows of cache.reshape((B*S, D))
    B, S, D = cache.shape
    P = rows.shape[0]
    idx = nl.ndarray((P, 1), nl.uint32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=rows)
    tile = nl.ndarray((P, D), cache.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=cache.reshape((B * S, D)).ap(pattern=[[D, P], [1, D]], offset=0, vector_offset=idx,
                                                            indirect_dim=0))
    out = nl.ndarray((P, D), cache.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=tile)
    return out


@nki.jit
def kv_cache_update(cache, rows, new):
    # writes new[p] into row rows[p] of cache.reshape((B*S, D)), in place
    B, S, D = cache.shape
    P = rows.shape[0]
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=rows)
    tile = nl.ndarray((P, D), cache.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=new)
    flat = cache.reshape((B * S, D))
    nisa.dma_copy(dst=flat.ap(pattern=[[D, P], [1, D]], offset=0, vector_offset=idx, indirect_dim=0), src=tile)


@nki.jit
def window_of_flat(data, start, W):
    # W consecutive elements of data.reshape((N,)) from a runtime start
    N = data.shape[0] * data.shape[1]
    s = nl.ndarray((1, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=start)
    tile = nl.ndarray((1, W), data.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=tile, src=data.reshape((N,)).ap(pattern=[[1, 1], [1, W]], offset=0, scalar_offset=s,
                                                      indirect_dim=0))
    out = nl.ndarray((1, W), data.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=tile)
    return out


@nki.jit
def index_on_a_broadcast(data, rows):
    P, D = rows.shape[0], data.shape[1]
    idx = nl.ndarray((P, 1), nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=idx, src=rows)
    tile = nl.ndarray((P, D), data.dtype, buffer=nl.sbuf)
    view = data[0:1, :].broadcast_to((P, D))
    src = view.ap(pattern=[[0, P], [1, D]], offset=0, vector_offset=idx, indirect_dim=0)  # LINE broadcast
    nisa.dma_copy(dst=tile, src=src)
