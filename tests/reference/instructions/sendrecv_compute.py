"""`sendrecv_compute` (DMA; NKI's nki.isa.sendrecv_compute, documented for
trn2 and trn3 after NKI 0.6), docs/SEMANTICS.md S16.6: the reference model's
semantics of one core's side. The sides meet in multicore.py, which reads
both srcs and hands each side the other's bits (`m.incoming`) before this
runs on either."""
import numpy as np

import ref_dtypes
from ref_common import ALU, F32

RULE = "S16.6"

# Its instances come from the two-core random programs (a second core is its peer).
MULTI_CORE = "tests/reference/run_multicore.py (ctest reference_multicore): random two-core programs against multicore.py"


def sendrecv_compute(m, o):
    """dst = reduce_op(src, the other core's src): both converted to float32
    (S2.1; the two sides' srcs share a dtype), add, maximum or minimum in
    float32 with NaN propagating, as tensor_tensor's (S2.5), converted to
    dst's dtype (S2.2, S2.3)."""
    own = m.read(o["src"])
    peer = ref_dtypes.decode(m.dtype(o["src"]), m.incoming).reshape(own.shape)
    with np.errstate(all="ignore"):
        m.write(o["dst"], ALU[o["reduce_op"]](own, peer).astype(F32))
