"""Without ml_dtypes (issue 27, LANGUAGE.md 4): `import nisa` works, bf16 and
fp8 outputs come back as their raw bits (uint16, uint8) with one
nisa.RawBitsWarning naming them at the caller's line. The import is blocked
in a subprocess, so this runs whether or not ml_dtypes is installed."""
import subprocess
import sys
import textwrap

WITHOUT_ML_DTYPES = textwrap.dedent("""\
    import sys, warnings
    sys.modules["ml_dtypes"] = None  # import ml_dtypes now raises ImportError
    import numpy as np
    import nisa, nisa.nki
    assert nisa._ml_dtypes.ml_dtypes is None
    prog = '''.hbm x bf16 [1, 3] input
    .hbm y bf16 [1, 3] output
    .hbm e fp8e4m3fn [1, 3] output
    .sbuf t bf16 [1, 3]
    .sbuf u fp8e4m3fn [1, 3]
    dma_copy dst=t, src=x
    tensor_copy dst=u, src=t
    dma_copy dst=y, src=t
    dma_copy dst=e, src=u
    '''
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = nisa.run(prog, {"x": np.array([[1.0, -2.5, 448.0]], np.float32)})  # LINE run
    assert out["y"].dtype == np.uint16 and out["y"].tolist() == [[0x3F80, 0xC020, 0x43E0]], out["y"]
    assert out["e"].dtype == np.uint8 and out["e"].tolist() == [[0x38, 0xC2, 0x7E]], out["e"]
    [w] = caught
    assert w.category is nisa.RawBitsWarning, w
    assert "ml_dtypes is not installed" in str(w.message) and "y (bf16 as uint16)" in str(w.message), w.message
    assert "e (fp8e4m3fn as uint8)" in str(w.message), w.message
    assert w.filename == "<string>" and w.lineno == RUN_LINE, (w.filename, w.lineno)  # the caller's line

    nisa.nki.install()
    import nki, nki.language as nl
    @nki.jit
    def to_bf16(a):
        out = nl.ndarray(a.shape, dtype=nl.bfloat16, buffer=nl.shared_hbm)
        nl.store(out, value=nl.copy(nl.load(a), dtype=nl.bfloat16))
        return out
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = to_bf16(np.array([[1.0, -2.5]], np.float32))  # LINE kernel
    assert got.dtype == np.uint16 and got.tolist() == [[0x3F80, 0xC020]], got
    [w] = caught
    assert w.category is nisa.RawBitsWarning and w.filename == "<string>" and w.lineno == KERNEL_LINE, w.lineno
    print("ok")
    """)


def test_without_ml_dtypes_outputs_are_raw_bits_with_a_warning():
    lines = WITHOUT_ML_DTYPES.splitlines()
    script = WITHOUT_ML_DTYPES.replace("RUN_LINE", str(1 + next(i for i, t in enumerate(lines) if t.endswith("LINE run"))))
    script = script.replace("KERNEL_LINE", str(1 + next(i for i, t in enumerate(lines) if t.endswith("LINE kernel"))))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr
