#!/usr/bin/python3
"""NKI 0.7 activation / activate2 engine= (Neuron SDK 2.33, nki.isa.activation:
"using Scalar Engine or GpSIMD Engine (on NeuronCore-v4+)"; "Accumulator is
only available on the Scalar engine"). On GpSimd the values are the Scalar
engine's (S4.6: one float32 computation); the cost lands on the GpSimd engine
(--profile). Expected values are written out by hand or computed with NumPy
here, never taken from nisa."""
import subprocess

import numpy as np

from harness import main

DATA = np.array([[1.0, -2.0, 3.0], [-0.5, 4.0, 0.0]], dtype=np.float32)

ACT = """
.arch trn3
.hbm a f32 [2, 3] input
.hbm b f32 [2, 3] output
.sbuf at f32 [2, 3]
.sbuf bt f32 [2, 3]
dma_copy dst=at, src=a
{line}
dma_copy dst=b, src=bt
"""


def test_activation_relu_on_gpsimd(nisa):
    # relu(2x - 1): [1, -5, 5] -> [1, 0, 5]; [-2, 7, -1] -> [0, 7, 0]
    b = nisa.run(ACT.format(line="activation dst=bt, op=relu, data=at, scale=2.0, bias=-1.0, engine=gpsimd"),
                 inputs={"a": DATA})["b"]
    nisa.equal("b", b, np.array([[1, 0, 5], [0, 7, 0]], dtype=np.float32))


def test_activation_exp_on_gpsimd_matches_scalar(nisa):
    # the same float32 function on either engine (S5's budget against NumPy)
    line = "activation dst=bt, op=exp, data=at, scale=0.5, engine={}"
    on_gpsimd = nisa.run(ACT.format(line=line.format("gpsimd")), inputs={"a": DATA})["b"]
    on_scalar = nisa.run(ACT.format(line=line.format("scalar")), inputs={"a": DATA})["b"]
    nisa.close("b", on_gpsimd, np.exp(DATA.astype(np.float64) * 0.5), rtol=1e-6)
    nisa.equal("gpsimd vs scalar", on_gpsimd, on_scalar)


def test_activate2_on_gpsimd(nisa):
    # relu((x * 3) - 2): [1, -8, 7] -> [1, 0, 7]; [-3.5, 10, -2] -> [0, 10, 0]
    line = "activate2 dst=bt, op=relu, data=at, imm0=3.0, imm1=2.0, op0=multiply, op1=subtract, engine=gpsimd"
    b = nisa.run(ACT.format(line=line), inputs={"a": DATA})["b"]
    nisa.equal("b", b, np.array([[1, 0, 7], [0, 10, 0]], dtype=np.float32))


ACCUMULATOR = """
.arch trn3
.hbm a f32 [2, 3] input
.hbm r f32 [2, 1] output
.sbuf at f32 [2, 3]
.sbuf bt f32 [2, 3]
.sbuf rt f32 [2, 1]
dma_copy dst=at, src=a
activation dst=bt, op=copy, data=at, reduce_op=add, reduce_cmd=reset_reduce
activation dst=bt, op=copy, data=at, scale=100.0, engine=gpsimd
activation dst=bt, op=copy, data=at, reduce_op=add, reduce_res=rt, reduce_cmd=reduce
dma_copy dst=r, src=rt
"""


def test_gpsimd_leaves_the_scalar_accumulator(nisa):
    # two Scalar-engine sums of each row (2 and 3.5, twice); the GpSimd one adds nothing
    r = nisa.run(ACCUMULATOR, inputs={"a": DATA})["r"]
    nisa.equal("r", r, np.array([[4.0], [7.0]], dtype=np.float32))


def test_profile_charges_gpsimd(nisa):
    prog = f"{nisa.work}/profile.nasm"
    with open(prog, "w") as f:
        f.write(ACT.format(line="activation dst=bt, op=relu, data=at, engine=gpsimd"))
    np.save(f"{nisa.work}/a.npy", DATA)
    out = subprocess.run([nisa.exe, "run", prog, "--input", f"a={nisa.work}/a.npy", "--profile"],
                         capture_output=True, text=True, check=True).stdout
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()[:1] in (["scalar"], ["gpsimd"])}
    # activation's max(MIN_II, N) = 64 cycles for 3 elements, on GpSimd; none on Scalar
    assert rows["gpsimd"][1:3] == ["1", "64"], out
    assert rows["scalar"][1:3] == ["0", "0"], out


if __name__ == "__main__":
    main(globals())
