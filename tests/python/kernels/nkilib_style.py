"""A kernel module written the way nki-library writes its kernels (issue
27): configuration in NKIObject dataclasses (one field without an
annotation, a __post_init__), a plain NKIObject built from keywords, enums
imported from nki.isa.constants, the enum's integer value where nki-library
passes one (`_DGE_MODE_NONE = 3`), the engine constants, tile_size figures,
an identity matrix from nl.shared_identity_matrix as the moving operand of a
transposing matmul into PSUM banks placed by ndarray(address=), and a
reshaped HBM tensor returned.

scale_bias_transpose(x, cfg) computes (x * cfg.scale + cfg.bias).T, tile by
tile of cfg.tile_rows rows, and returns it flattened."""
from dataclasses import dataclass

import nki
import nki.isa as nisa
import nki.language as nl
from nki.isa.constants import dge_mode, oob_mode

_DGE_MODE_NONE = 3  # dge_mode.none's value, as nki-library writes it
_PSUM_BANK_SIZE = 2048  # bytes per partition of a PSUM bank


@dataclass(frozen=True)
class ScaleBiasConfig(nl.NKIObject):
    scale: float = 1.0
    bias = 0.0  # no annotation: still a keyword field (NKI accepts it)
    tile_rows: int = None

    def __post_init__(self):
        if self.tile_rows is None:
            object.__setattr__(self, "tile_rows", nl.tile_size.pmax)


class Dims(nl.NKIObject):
    rows: int
    cols: int

    def n_tiles(self, tile_rows):
        return (self.rows + tile_rows - 1) // tile_rows


@nki.jit
def scale_bias_transpose(x, cfg: ScaleBiasConfig, out_dtype: nki.dtype = nl.float32):
    dims = Dims(rows=x.shape[0], cols=x.shape[1])
    P = cfg.tile_rows
    assert dims.rows % P == 0 and dims.cols <= nl.tile_size.pmax
    assert 3 * dims.cols * 4 <= nl.tile_size.total_available_sbuf_size  # three tiles per partition fit

    out = nl.ndarray((dims.cols, dims.rows), dtype=out_dtype, buffer=nl.shared_hbm)
    identity = nl.shared_identity_matrix(P, dtype=nl.float32)
    for t in nl.affine_range(dims.n_tiles(P)):
        tile = nl.ndarray((P, dims.cols), dtype=nl.float32, buffer=nl.sbuf)
        nisa.dma_copy(dst=tile, src=x[nl.ds(t * P, P), :], dge_mode=_DGE_MODE_NONE, oob_mode=oob_mode.error)
        nisa.tensor_scalar(dst=tile, data=tile, op0=nl.multiply, operand0=cfg.scale, op1=nl.add, operand1=cfg.bias,
                           engine=nisa.vector_engine)
        # two PSUM banks in turn, placed by hand as nki-library's kernels do
        transposed = nl.ndarray((dims.cols, P), dtype=nl.float32, buffer=nl.psum,
                                address=(0, (t % 2) * _PSUM_BANK_SIZE))
        nisa.nc_matmul(dst=transposed, stationary=tile, moving=identity)
        result = nl.ndarray((dims.cols, P), dtype=out_dtype, buffer=nl.sbuf)
        nisa.tensor_copy(dst=result, src=transposed, engine=nisa.scalar_engine)
        nisa.dma_copy(dst=out[:, nl.ds(t * P, P)], src=result, dge_mode=dge_mode.none)
    return out.reshape((dims.cols * dims.rows,))
