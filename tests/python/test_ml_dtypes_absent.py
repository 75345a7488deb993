"""Without ml_dtypes (issue 27, LANGUAGE.md 4): `import nisa` works, float32
arrays fill bf16 and fp8 tensors (rounded to nearest even) and such outputs
come back as float32, widened exactly, as `nisa run --dump` writes them, with
no warning. The import is blocked in a subprocess, so this runs whether or not
ml_dtypes is installed.

Expected values are derived by hand (SEMANTICS S2.2): 448 in fp8e4m3fn is
S.1111.110 (2^8 * 1.75); 1.0 and -2.5 are exact in both formats."""
import subprocess
import sys
import textwrap

WITHOUT_ML_DTYPES = textwrap.dedent("""\
    import sys, warnings
    sys.modules["ml_dtypes"] = None  # import ml_dtypes now raises ImportError
    warnings.simplefilter("error")  # a warning fails the script
    import numpy as np
    import nisa, nisa.nki
    assert nisa._ml_dtypes.ml_dtypes is None
    assert not hasattr(nisa, "RawBitsWarning")
    prog = '''.hbm x bf16 [1, 4] input
    .hbm y bf16 [1, 4] output
    .hbm e fp8e4m3fn [1, 4] output
    .sbuf t bf16 [1, 4]
    .sbuf u fp8e4m3fn [1, 4]
    dma_copy dst=t, src=x
    tensor_copy dst=u, src=t
    dma_copy dst=y, src=t
    dma_copy dst=e, src=u
    '''
    # 1 + 2^-8 is a tie in bf16 (to even: 1.0); 448 is exact in both.
    out = nisa.run(prog, {"x": np.array([[1.0, -2.5, 448.0, 1.00390625]], np.float32)})
    y, e = out["y"], out["e"]
    assert y.dtype == np.float32 and y.view(np.uint32).tolist() == [[0x3F800000, 0xC0200000, 0x43E00000, 0x3F800000]], y
    assert e.dtype == np.float32 and e.view(np.uint32).tolist() == [[0x3F800000, 0xC0200000, 0x43E00000, 0x3F800000]], e
    assert y.flags.writeable and e.flags.writeable and not np.shares_memory(y, e)

    nisa.nki.install()
    import nki, nki.language as nl
    @nki.jit
    def to_bf16(a):
        out = nl.ndarray(a.shape, dtype=nl.bfloat16, buffer=nl.shared_hbm)
        nl.store(out, value=nl.copy(nl.load(a), dtype=nl.bfloat16))
        return out
    # 1 + 3*2^-8 rounds up to 1 + 2^-6 in bf16: 0x3F82.
    got = to_bf16(np.array([[1.0, -2.5, 1.01171875]], np.float32))
    assert got.dtype == np.float32 and got.view(np.uint32).tolist() == [[0x3F800000, 0xC0200000, 0x3F820000]], got
    print("ok")
    """)


def test_without_ml_dtypes_outputs_are_float32_widened_exactly():
    done = subprocess.run([sys.executable, "-c", WITHOUT_ML_DTYPES], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr
