"""bf16 and fp8 NumPy arrays through the optional `ml_dtypes` package
(LANGUAGE.md 4). NumPy has no bfloat16 or float8 dtype; ml_dtypes adds them
under the names NKI spells these dtypes with. With it, such inputs are taken
bit for bit and such outputs come back as its arrays; without it, outputs
come back as float32 (exactly), as `nisa run --dump` writes them.
"""
from . import _nisa

try:
    import ml_dtypes
except ImportError:  # optional: `import nisa` works without it
    ml_dtypes = None

# {.nasm dtype: ml_dtypes type name} of the outputs _nisa.run returns as
# their bits when asked (ml_dtypes_bits): "bf16" -> "bfloat16", ...
NAMES = _nisa.ml_dtypes_names()


def numpy_dtype(dtype):
    """ml_dtypes' NumPy dtype for outputs of the .nasm `dtype` (one of
    NAMES), or None without ml_dtypes."""
    return None if ml_dtypes is None else getattr(ml_dtypes, NAMES[dtype])


def view_outputs(outputs, dtypes):
    """The bits arrays _nisa.run(ml_dtypes_bits=True) returned for bf16/fp8
    tensors ({name: .nasm dtype} in `dtypes`) viewed as ml_dtypes' types, in
    `outputs` (no copy). Without ml_dtypes _nisa.run returned float32."""
    if ml_dtypes is None:
        return
    for name, dtype in dtypes.items():
        outputs[name] = outputs[name].view(numpy_dtype(dtype))
