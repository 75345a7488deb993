#!/usr/bin/python3
"""`pip install` of the sources as the README's "From Python" says: a copy of
the tree, a new virtual environment, `v/bin/pip install .` (pyproject.toml:
scikit-build-core drives the CMake build). Then, with the copy and pip's build
tree deleted (the installed package must need nothing from them) and from
another folder: `import nisa, nisa.nki`, one kernel through nisa.nki against
NumPy, and the installed `nisa` command (`nisa isa`, `nisa run`).

pip fetches the build backend, pybind11 and NumPy from PyPI (isolated build).
Only to save time, the compiler runs under ccache when there is one.

usage: check_pip_install.py --python BASE_PYTHON --source SRC --work DIR
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

# What a fresh clone does not hold: build trees, the tests' venv, outputs.
TOP_LEVEL_SKIP = re.compile(r"^(build.*|\.venv|\.git|out|tmp)$")

# Run by the installed interpreter: the kernel of NKI's tensor-addition
# tutorial, checked against NumPy's float32 addition (each sum rounded once).
KERNEL_CHECK = """
import os, sys
import numpy as np
import nisa, nisa.nki
site = os.path.join(sys.prefix, "lib")
assert nisa.__file__.startswith(site), nisa.__file__
assert nisa._nisa.__file__.startswith(site), nisa._nisa.__file__
nisa.nki.install()
import nki
import nki.language as nl

@nki.jit
def add(a, b):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.add(nl.load(a), nl.load(b)))
    return out

rng = np.random.default_rng(7)
a = rng.standard_normal((128, 32)).astype(np.float32)
b = rng.standard_normal((128, 32)).astype(np.float32)
y = add(a, b)
assert y.dtype == np.float32 and y.shape == (128, 32), (y.dtype, y.shape)
assert np.array_equal(y, a + b), np.abs(y - (a + b)).max()
from importlib.metadata import version
print(version("nisa"), np.__version__)
"""

# A copy from an input to an output through SBUF (LANGUAGE.md 2): the CLI's
# dump must hold the input's exact bytes.
COPY_PROGRAM = """\
.arch trn2
.hbm x f32 [4, 8] input
.hbm y f32 [4, 8] output
.sbuf t f32 [4, 8]
dma_copy dst=t, src=x
dma_copy dst=y, src=t
"""


def step(what, args, **kwargs):
    start = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, **kwargs)
    print(f"{what}: exit {p.returncode}, {time.monotonic() - start:.1f} s")
    if p.returncode != 0:
        sys.exit(f"FAIL {what}: {' '.join(map(str, args))}\n{p.stdout[-4000:]}\n{p.stderr[-4000:]}")
    return p.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", required=True, help="the interpreter the virtual environment is made from")
    parser.add_argument("--source", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()

    work = os.path.abspath(args.work)
    src, venv, build = (os.path.join(work, name) for name in ("src", "v", "build"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    shutil.copytree(args.source, src, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n == "__pycache__" or
                                             (os.path.samefile(d, args.source) and TOP_LEVEL_SKIP.match(n))])

    # The references, read from the sources before they go.
    with open(os.path.join(src, "isa-spec", "isa.json")) as f:
        instructions = sorted(i["name"] for i in json.load(f)["instructions"])
    with open(os.path.join(src, "CMakeLists.txt")) as f:
        project_version = re.search(r"project\(nisa VERSION ([0-9.]+)", f.read()).group(1)

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NISA_SPEC", "NISA_SOURCE_DIR")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    if shutil.which("ccache"):
        env.update(CMAKE_ARGS="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", CCACHE_BASEDIR=work)

    step("python -m venv v", [args.python, "-m", "venv", venv], env=env, cwd=work)
    pip = [os.path.join(venv, "bin", "pip"), "install", f"--config-settings=build-dir={build}", "."]
    step("v/bin/pip install .", pip, env=env, cwd=src)
    shutil.rmtree(src)
    shutil.rmtree(build)

    versions = step("import nisa, nisa.nki and run a kernel",
                    [os.path.join(venv, "bin", "python"), "-c", KERNEL_CHECK], env=env, cwd=work).split()
    if versions[0] != project_version:
        sys.exit(f"FAIL: installed nisa {versions[0]}, CMakeLists.txt says {project_version}")
    print(f"nisa {versions[0]} with NumPy {versions[1]}")

    nisa = os.path.join(venv, "bin", "nisa")
    listed = sorted(re.findall(r"^### (\w+)$", step("v/bin/nisa isa", [nisa, "isa"], env=env, cwd=work), re.M))
    if listed != instructions:
        sys.exit(f"FAIL: nisa isa lists {listed}, isa-spec/isa.json has {instructions}")

    with open(os.path.join(work, "copy.nasm"), "w") as f:
        f.write(COPY_PROGRAM)
    x = np.arange(32, dtype=np.float32).reshape(4, 8) / 3
    np.save(os.path.join(work, "x.npy"), x)
    step("v/bin/nisa run", [nisa, "run", "copy.nasm", "--input", "x=x.npy", "--dump", "out"], env=env, cwd=work)
    y = np.load(os.path.join(work, "out", "y.npy"))
    if y.dtype != np.float32 or y.tobytes() != x.tobytes():
        sys.exit(f"FAIL: nisa run copied {y!r}, expected {x!r}")
    shutil.rmtree(work)
    print("pip install: ok")


if __name__ == "__main__":
    main()
