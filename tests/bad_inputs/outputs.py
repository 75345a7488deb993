#!/usr/bin/python3
"""Issue 15: what nisa's outputs do to the files they name, and reads that
stay bounded. Each check runs the real command line:

  - group 2: a symlink given as -o is written through (the link stays, its
    target gets the bytes); /dev/null and a FIFO are written through, never
    replaced;
  - group 3: a crafted .nbin and two 1 GiB .npy files are handled within a
    memory limit far below their size (sparse files: no disk is used);
  - group 5: stdout on /dev/full is exit 2 with a message, for every command
    that prints;
  - group 6: an output naming an input (-o onto the source or the binary,
    --trace onto an --input, --dump into the inputs' folder) is refused with
    exit 2 and the input is left byte for byte.

Usage: outputs.py NISA_EXE
"""
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import zlib

import numpy as np

NISA = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp(prefix="nisa_outputs_")
failures = []

PROGRAM = """\
.hbm x f32 [4, 4] input
.hbm y f32 [4, 4] output
.sbuf t f32 [4, 4]
dma_copy dst=t, src=x
dma_copy dst=y, src=t
"""


def path(name):
    return os.path.join(work, name)


def built_with_asan():
    """AddressSanitizer reserves terabytes of address space: RLIMIT_AS cannot
    cap such a build, so the memory bounds are checked on the Release build."""
    with open(NISA, "rb") as f:
        return b"AddressSanitizer" in f.read()


CAP_MEMORY = not built_with_asan()


def nisa(*args, stdout=subprocess.PIPE, memory_limit=None):
    def limit():
        if memory_limit and CAP_MEMORY:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    return subprocess.run([NISA, *args], cwd=work, stdout=stdout, stderr=subprocess.PIPE, text=True,
                          preexec_fn=limit, timeout=120)


def expect(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    if not ok:
        failures.append(name)


def content(name):
    with open(path(name), "rb") as f:
        return f.read()


def main():
    with open(path("p.nasm"), "w") as f:
        f.write(PROGRAM)
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    np.save(path("x.npy"), x)
    r = nisa("asm", "p.nasm", "-o", "p.nbin")
    expect("asm p.nasm", r.returncode == 0, r.stderr)
    nbin = content("p.nbin")

    # --- group 2: outputs written through what they point at ---------------
    os.symlink("target.nbin", path("link.nbin"))
    r = nisa("asm", "p.nasm", "-o", "link.nbin")
    expect("-o a symlink: written through to its target",
           r.returncode == 0 and os.path.islink(path("link.nbin")) and content("target.nbin") == nbin,
           r.stderr)
    r = nisa("asm", "p.nasm", "-o", "/dev/null")
    expect("-o /dev/null: still a character device", r.returncode == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode),
           r.stderr)
    os.mkfifo(path("fifo"))
    got = []
    reader = threading.Thread(target=lambda: got.append(open(path("fifo"), "rb").read()))
    reader.start()
    r = nisa("asm", "p.nasm", "-o", "fifo")
    reader.join(timeout=30)
    expect("-o a FIFO: written through, still a FIFO",
           r.returncode == 0 and got == [nbin] and stat.S_ISFIFO(os.lstat(path("fifo")).st_mode), r.stderr)
    r = nisa("run", "p.nasm", "--input", "x=x.npy", "--trace", "/dev/null", "--dump-state", "/dev/null/..", "--dump", "d2")
    dumped = [n for n in os.listdir(path("d2")) if n.endswith(".npy")] if os.path.isdir(path("d2")) else []
    expect("a failing output: exit 2, /dev/null still a device, no .npy in d2",
           r.returncode == 2 and stat.S_ISCHR(os.stat("/dev/null").st_mode) and not dumped, r.stderr)

    # --- group 3: bounded reads ---------------------------------------------
    # 10 M one-byte line entries in a 10 MB file: refused within 64 MB of memory.
    empty_payload = b"\x01\x01\0\0\x06e.nasm" + bytes([0x80, 0xAD, 0xE2, 0x04]) + b"\x02" * 10_000_000 + b"\0"
    with open(path("e.nasm"), "w"):
        pass
    nisa("asm", "e.nasm", "-o", "e.nbin")
    head = bytearray(content("e.nbin")[:24])
    head[16:20] = len(empty_payload).to_bytes(4, "little")
    crc = zlib.crc32(empty_payload, zlib.crc32(bytes(head[:20])))
    head[20:24] = crc.to_bytes(4, "little")
    with open(path("lines.nbin"), "wb") as f:
        f.write(bytes(head) + empty_payload)
    r = nisa("dis", "lines.nbin", memory_limit=128 << 20)
    expect("10 M line entries refused" + (" within 128 MB" if CAP_MEMORY else " (memory not capped: ASan build)"), r.returncode == 2 and "instruction count 10000000" in r.stderr, r.stderr)
    # Two 1 GiB .npy files (sparse: zeros) compared within 256 MB of address space.
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (268435456,), }"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    for name in ("big1.npy", "big2.npy"):
        with open(path(name), "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
            f.truncate(f.tell() + (1 << 30))
    r = nisa("diff", "big1.npy", "big2.npy", memory_limit=256 << 20)
    expect("diff of two 1 GiB files" + (" within 256 MB" if CAP_MEMORY else " (memory not capped: ASan build)"), r.returncode == 0 and "match: 268435456 float32" in r.stdout,
           r.stderr + r.stdout)
    os.remove(path("big1.npy"))
    os.remove(path("big2.npy"))

    # --- group 5: stdout that cannot take the output --------------------------
    with open("/dev/full", "w") as full:
        for args in (["dis", "p.nbin"], ["isa"], ["isa", "--json"], ["diff", "x.npy", "x.npy"],
                     ["run", "p.nasm", "--input", "x=x.npy", "--profile"]):
            r = nisa(*args, stdout=full)
            expect(f"nisa {' '.join(args)} > /dev/full: exit 2",
                   r.returncode == 2 and "cannot write to standard output: No space left on device" in r.stderr,
                   f"exit {r.returncode}, {r.stderr!r}")

    # --- group 6: inputs are never outputs --------------------------------------
    source = content("p.nasm")
    npy = content("x.npy")
    cases = [
        (["asm", "p.nasm", "-o", "p.nasm"], "p.nasm"),
        (["dis", "p.nbin", "-o", "p.nbin"], "p.nbin"),
        (["dis", "p.nbin", "-o", "./sub/../p.nbin"], "p.nbin"),
        (["run", "p.nasm", "--input", "x=x.npy", "--trace", "x.npy"], "x.npy"),
        (["run", "p.nasm", "--input", "x=y.npy", "--dump", "."], "y.npy"),
    ]
    os.mkdir(path("sub"))
    shutil.copy(path("x.npy"), path("y.npy"))
    os.link(path("p.nasm"), path("hard.nasm"))
    cases.append((["asm", "hard.nasm", "-o", "p.nasm"], "p.nasm"))
    for args, victim in cases:
        before = content(victim)
        r = nisa(*args)
        expect(f"nisa {' '.join(args)}: refused, {victim} unchanged",
               r.returncode == 2 and "refusing to overwrite an input of this command" in r.stderr and content(victim) == before,
               f"exit {r.returncode}, {r.stderr!r}")
    expect("sources unchanged", content("p.nasm") == source and content("x.npy") == npy and content("p.nbin") == nbin)
    left = [n for n in os.listdir(work) if ".nisa-" in n]
    expect("no temporary file left", not left, str(left))

    if failures:
        print(f"{len(failures)} output checks failed; files in {work}")
        sys.exit(1)
    shutil.rmtree(work)
    print("all output checks passed")


main()
