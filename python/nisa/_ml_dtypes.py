"""bf16 and fp8 NumPy arrays through the optional `ml_dtypes` package
(LANGUAGE.md 4). NumPy has no bfloat16 or float8 dtype; ml_dtypes adds them
under the names NKI spells these dtypes with. With it, such inputs are taken
bit for bit and such outputs come back as its arrays; without it, outputs
come back as their raw bits (uint16, uint8) with a RawBitsWarning.
"""
import os
import sys
import warnings

from . import _nisa

try:
    import ml_dtypes
except ImportError:  # optional: `import nisa` works without it
    ml_dtypes = None

# {.nasm dtype: ml_dtypes type name} of the outputs _nisa.run returns as
# their bits: "bf16" -> "bfloat16", "fp8e4m3" -> "float8_e4m3", ...
NAMES = _nisa.ml_dtypes_names()

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


class RawBitsWarning(UserWarning):
    """A bf16 or fp8 output came back as its raw bits (uint16, uint8)
    because ml_dtypes is not installed (LANGUAGE.md 4)."""


def numpy_dtype(dtype):
    """ml_dtypes' NumPy dtype for outputs of the .nasm `dtype` (one of
    NAMES), or None without ml_dtypes."""
    return None if ml_dtypes is None else getattr(ml_dtypes, NAMES[dtype])


def _outside_stacklevel():
    """warnings.warn's stacklevel naming the first caller outside nisa, for
    the function that calls this one."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def view_outputs(program, outputs, dtypes):
    """The bits arrays _nisa.run returned for bf16/fp8 tensors ({name: .nasm
    dtype} in `dtypes`) viewed as ml_dtypes' types, in `outputs` (no copy);
    without ml_dtypes they stay bits and one RawBitsWarning names them."""
    if not dtypes:
        return
    if ml_dtypes is None:
        listed = ", ".join(f"{name} ({dtype} as {outputs[name].dtype})" for name, dtype in dtypes.items())
        warnings.warn(f"{program}: ml_dtypes is not installed, so the outputs {listed} are their raw bits "
                      "(pip install ml_dtypes for bfloat16/float8 arrays; LANGUAGE.md 4)", RawBitsWarning,
                      stacklevel=_outside_stacklevel())
        return
    for name, dtype in dtypes.items():
        outputs[name] = outputs[name].view(getattr(ml_dtypes, NAMES[dtype]))
