#!/usr/bin/python3
"""The bad-input catalogue: nisa must refuse every one of these inputs the
way LANGUAGE.md section 1 promises, through the real command line:

  - the exit status (2 bad input: source, binary, .npy or argument);
  - a one-line message naming the problem, `FILE: error: MESSAGE` (or
    `FILE:LINE:COL: error:` for source errors, `nisa: error:` for arguments),
    checked against a regular expression;
  - no output left behind: no -o file, no .npy in a --dump folder, no
    temporary file.

One table row per case; the files the cases read are built once by
make_files() (valid ones with nisa itself and NumPy, broken ones by hand).
Cases already covered elsewhere (tests/asm/bad goldens, tests/nbin unit
tests, tests/interp/test_run.py, tests/diff/test_diff.py) are not repeated.

Usage: catalogue.py NISA_EXE
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np

NISA = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp(prefix="nisa_bad_inputs_")

GOOD = """\
; A small valid program: the broken inputs below are variations of it.
.hbm  x  f32  [128, 8] input
.hbm  b  bf16 [128, 8] input = 0
.hbm  n  i32  [128, 8] input = 1
.hbm  y  f32  [128, 8] output
.sbuf t  f32  [128, 8]
dma_copy dst=t, src=x
dma_copy dst=y, src=t
"""


def write(name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(work, name), mode) as f:
        f.write(data)
    return name


def npy_raw(header, data=b"", major=1, minor=0, length=None):
    """A .npy file with this header text, padded as NumPy pads it."""
    head = header.encode("latin1")
    size_bytes = 2 if major == 1 else 4
    if length is None:
        pad = (64 - (8 + size_bytes + len(head) + 1) % 64) % 64
        head += b" " * pad + b"\n"
        length = len(head)
    size = struct.pack("<H" if size_bytes == 2 else "<I", length)
    return b"\x93NUMPY" + bytes([major, minor]) + size + head + data


def x_header(descr="<f4", order="False", shape="(128, 8)"):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, order, shape)


X_DATA = np.arange(128 * 8, dtype=np.float32).tobytes()


# --- .nbin surgery: the header layout of docs/NBIN.md (common/nbin_format.hpp) ---
CRC_AT, PAYLOAD_AT, HEADER = 20, 16, 24


def with_crc(b):
    b = bytearray(b)
    crc = zlib.crc32(bytes(b[:CRC_AT]))
    crc = zlib.crc32(bytes(b[HEADER:]), crc)
    b[CRC_AT:CRC_AT + 4] = struct.pack("<I", crc)
    return bytes(b)


def patched(b, at, value_bytes, fix_crc=True):
    b = bytearray(b)
    b[at:at + len(value_bytes)] = value_bytes
    return with_crc(b) if fix_crc else bytes(b)


def varint(v):
    out = bytearray()
    while True:
        byte = v & 0x7F
        v >>= 7
        out.append(byte | (0x80 if v else 0))
        if not v:
            return bytes(out)


def payload_replaced(b, payload):
    """The same header with another payload (size field and CRC updated)."""
    head = bytearray(b[:HEADER])
    head[PAYLOAD_AT:PAYLOAD_AT + 4] = struct.pack("<I", len(payload))
    return with_crc(bytes(head) + payload)


# Two cores (LANGUAGE.md 2.7): core 0 runs positions 0-2, core 1 positions 3-5.
# Its payload starts with the core count 2 and core 1's start 3 (docs/NBIN.md).
TWO_CORES = """\
.arch trn2
.cores 2
.hbm  x f32 [128, 8] input
.hbm  y f32 [128, 8] output
.core 0
.sbuf t f32 [128, 8]
dma_copy dst=t, src=x
sendrecv src=t, dst=t, send_to_rank=1, recv_from_rank=1, pipe_id=0
dma_copy dst=y[0:64, :], src=t[0:64, :]
.core 1
.sbuf u f32 [128, 8]
dma_copy dst=u, src=x
sendrecv src=u, dst=u, send_to_rank=0, recv_from_rank=0, pipe_id=0
dma_copy dst=y[64:128, :], src=u[64:128, :]
"""
# Only shared tensors: core 0 = positions 0-1, core 1 = positions 2-3.
BARRIERS = """\
.arch trn2
.cores 2
.hbm  x f32 [128, 8] input
.hbm  y f32 [128, 8] output
.core 0
dma_copy dst=y, src=x
core_barrier data=y, cores=[0, 1]
.core 1
core_barrier data=y, cores=[0, 1]
dma_copy dst=y, src=x
"""


def assembled(name, text):
    write(name + ".nasm", text)
    r = subprocess.run([NISA, "asm", name + ".nasm", "-o", name + ".nbin"], cwd=work, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"cannot assemble {name}.nasm: " + r.stderr)
    data = open(os.path.join(work, name + ".nbin"), "rb").read()
    os.remove(os.path.join(work, name + ".nbin"))
    return data


def make_core_files():
    """.nbin files whose cores the decoder refuses (common/nbin_decode.cpp)."""
    two = assembled("two_cores", TWO_CORES)
    if two[HEADER:HEADER + 2] != b"\x02\x03":
        sys.exit(f"unexpected start of a two-core payload: {two[HEADER:HEADER + 2]!r}")
    write("cores_0.nbin", patched(two, HEADER, b"\x00"))
    write("cores_3.nbin", patched(two, HEADER, b"\x03"))
    write("cores_trn1.nbin", patched(two, 6, struct.pack("<H", 0)))  # arch index 0: trn1, one core
    write("core_start_past_end.nbin", patched(two, HEADER + 1, b"\x09"))
    # Core 1 from position 2: core 0's `dma_copy dst=y, src=t` now runs on core 1.
    write("core_start_moves_tensor.nbin", patched(two, HEADER + 1, b"\x02"))
    # The first tensor record (x): NKI version, count, name length, name, memory, dtype, role, then its core byte.
    core_at = HEADER + 2 + 1 + 1 + 2 + 3
    write("tensor_core.nbin", patched(two, core_at, b"\x03"))
    barriers = assembled("barriers", BARRIERS)
    # Core 1 from position 1 (line 7, core 0's barrier, is now core 1's): core 0 has no barrier left, core 1 two.
    write("core_start_barrier.nbin", patched(barriers, HEADER + 1, b"\x01"))


def make_files():
    make_core_files()
    write("good.nasm", GOOD)
    write("p2.nasm", GOOD)
    r = subprocess.run([NISA, "asm", "good.nasm", "-o", "good.nbin"], cwd=work, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("cannot assemble the base program: " + r.stderr)
    nbin = open(os.path.join(work, "good.nbin"), "rb").read()
    # A program without tensors: its payload is the core count 1, the NKI
    # version 1 (0.7, the default), the tensor count 0, the register count 0, the source name, the instruction count 0
    # and the stream size 0.
    write("e.nasm", "")
    r = subprocess.run([NISA, "asm", "e.nasm", "-o", "e.nbin"], cwd=work, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("cannot assemble an empty program: " + r.stderr)
    empty = open(os.path.join(work, "e.nbin"), "rb").read()
    os.remove(os.path.join(work, "e.nbin"))
    if empty[HEADER:] != b"\x01\x01\0\0\x06e.nasm\0\0":
        sys.exit(f"unexpected payload of an empty program: {empty[HEADER:]!r}")
    os.mkdir(os.path.join(work, "adir"))
    write("afile", "not a folder\n")
    np.save(os.path.join(work, "x.npy"), np.arange(128 * 8, dtype=np.float32).reshape(128, 8))

    # .nasm sources
    write("nul.nasm", GOOD.encode() + b"dma_copy dst=y,\x00 src=t\n")
    write("binary.nasm", bytes(range(256)) * 4)
    write("huge_shape.nasm", ".hbm x f32 [1000000000, 1000000000] output\n")
    write("over_64gib.nasm", ".hbm x f32 [131072, 131073] output\n")
    write("hbm_total.nasm", "".join(f".hbm x{i} f32 [16384, 16384] output\n" for i in range(5)))
    write("partitions.nasm", ".sbuf t f32 [129, 4]\n")
    write("sbuf_full.nasm", ".sbuf t f32 [128, 100000]\n")
    write("psum_full.nasm", ".psum t f32 [128, 8192]\n")
    write("dim_zero.nasm", ".hbm x f32 [0, 4] output\n")
    write("dim_negative.nasm", ".hbm x f32 [4, -2] output\n")
    write("int_literal.nasm", ".hbm x f32 [99999999999999999999, 2] output\n")
    write("long_line.nasm", "a" * 1_000_000 + " dst=x\n")
    write("init_nan_int.nasm", ".hbm n i32 [4] input = nan\n")
    write("init_big_int.nasm", ".hbm n i32 [4] input = 4294967296\n")
    write("memset_nan_int.nasm", ".sbuf t i32 [128, 4]\nmemset dst=t, value=nan\n")
    write("rept_count.nasm", ".sbuf t f32 [128, 4]\n.rept i, 100000000\nmemset dst=t, value=i\n.endr\n")
    write("slice_outside.nasm", GOOD + "dma_copy dst=y[0:4], src=t[200:204]\n")
    write("offset_outside.nasm", ".sbuf t f32 [128, 4] @ 10000000\n")
    write("many_dims.nasm", ".hbm x f32 [" + ", ".join(["1"] * 300) + "] output\n")
    write("bad_dump.nasm", GOOD + "frobnicate dst=y\n")

    # .nbin binaries
    write("empty.nbin", b"")
    write("short.nbin", nbin[:10])
    write("magic.nbin", b"XBIN" + nbin[4:])
    write("version.nbin", patched(nbin, 4, struct.pack("<H", 5)))
    write("spec_id.nbin", patched(nbin, 8, bytes(8)))
    write("crc.nbin", nbin[:-1] + bytes([nbin[-1] ^ 0x40]))
    write("truncated.nbin", nbin[:-1])
    write("trailing.nbin", nbin + b"\0")
    write("payload_size.nbin", patched(nbin, PAYLOAD_AT, b"\xff\xff\xff\xff", fix_crc=False))
    write("arch.nbin", patched(nbin, 6, struct.pack("<H", 99)))
    write("tensor_count.nbin", payload_replaced(nbin, b"\x01\x01" + varint(1 << 40) + nbin[HEADER + 3:]))
    write("no_payload.nbin", payload_replaced(nbin, b""))
    write("name_length.nbin", payload_replaced(empty, b"\x01\x01\0\0" + varint(1 << 50) + b"e.nasm\0\0"))
    write("instruction_count.nbin", payload_replaced(empty, b"\x01\x01\0\0\x06e.nasm" + varint(1 << 40) + b"\0"))
    write("line_table.nbin", payload_replaced(empty, b"\x01\x01\0\x06e.nasm\x05\x02\x02\0"))
    write("stream_size.nbin", payload_replaced(empty, b"\x01\x01\0\0\x06e.nasm\0" + varint(1 << 33)))
    write("nasm_as.nbin", GOOD)

    # .npy files for run --input x=...
    write("f64.npy", npy_raw(x_header("<f8"), bytes(128 * 8 * 8)))
    write("i32_for_f32.npy", npy_raw(x_header("<i4"), bytes(128 * 8 * 4)))
    write("f32_for_bf16_wrong.npy", npy_raw(x_header("<f8"), bytes(128 * 8 * 8)))
    # What np.save writes for ml_dtypes arrays: float8_e5m2 as '<f1', the other fp8 types as '<V1'.
    write("e5m2_for_bf16.npy", npy_raw(x_header("<f1"), bytes(128 * 8)))
    write("v1_for_bf16.npy", npy_raw(x_header("<V1"), bytes(128 * 8)))
    write("e4m3fn_for_bf16.npy", npy_raw(x_header("float8_e4m3fn"), bytes(128 * 8)))
    write("rank.npy", npy_raw(x_header(shape="(1024,)"), X_DATA))
    write("scalar.npy", npy_raw(x_header(shape="()"), X_DATA[:4]))
    write("v4.npy", npy_raw(x_header(), X_DATA, major=4))
    write("v1_1.npy", npy_raw(x_header(), X_DATA, minor=1))
    write("big_endian.npy", npy_raw(x_header(">f4"), X_DATA))
    write("object.npy", npy_raw(x_header("|O"), bytes(128 * 8 * 8)))
    write("unicode.npy", npy_raw(x_header("<U1"), X_DATA))
    write("complex.npy", npy_raw(x_header("<c8"), bytes(128 * 8 * 8)))
    write("structured.npy", npy_raw("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (128, 8), }", X_DATA))
    write("datetime.npy", npy_raw(x_header("<M8[D]"), bytes(128 * 8 * 8)))
    write("f128.npy", npy_raw(x_header("<f16"), bytes(128 * 8 * 16)))
    write("data_short.npy", npy_raw(x_header(), X_DATA[:-4]))
    write("data_long.npy", npy_raw(x_header(), X_DATA + b"\0\0\0\0"))
    write("header_past_end.npy", npy_raw(x_header(), b"", length=60000))
    write("header_4gib.npy", npy_raw(x_header(), X_DATA, major=2, length=0xFFFFFFFF))
    write("header_70k.npy", npy_raw(x_header() + " " * 70000, X_DATA, major=2))
    write("huge_dims.npy", npy_raw(x_header(shape="(1099511627776, 1099511627776)"), X_DATA))
    write("negative_dim.npy", npy_raw(x_header(shape="(-128, 8)"), X_DATA))
    write("empty.npy", b"")
    write("magic.npy", b"\x93NUMPZ" + npy_raw(x_header(), X_DATA)[6:])
    write("not_dict.npy", npy_raw("[1, 2, 3]", X_DATA))
    write("no_shape.npy", npy_raw("{'descr': '<f4', 'fortran_order': False, }", X_DATA))
    write("nul_header.npy", npy_raw(x_header().replace("False", "Fal\0e"), X_DATA))
    write("unknown_key.npy", npy_raw(x_header()[:-1] + "'extra': 1, }", X_DATA))
    write("nan_shape.npy", npy_raw(x_header(shape="(nan, 8)"), X_DATA))
    write("float_shape.npy", npy_raw(x_header(shape="(128.0, 8)"), X_DATA))
    write("f32.npy", npy_raw(x_header(), X_DATA))

    # issue 15: readers that check before they trust, messages that do not mislead
    write("offset_max.nasm", ".sbuf t f32 [4, 4] @ 9223372036854775807\n")
    # 10 M line entries (1 byte each) and no instruction stream: refused before
    # the instructions are allocated (outputs.py checks the memory).
    write("line_entries.nbin", payload_replaced(empty, b"\x01\x01\0\0\x06e.nasm" + varint(10_000_000) + b"\x02" * 10_000_000 + b"\0"))
    os.mkdir(os.path.join(work, "odd_entries"))
    os.symlink("nowhere.npy", os.path.join(work, "odd_entries", "dangling.npy"))
    os.mkdir(os.path.join(work, "fifo_entry"))
    os.mkfifo(os.path.join(work, "fifo_entry", "f.npy"))
    os.makedirs(os.path.join(work, "folder_entry", "d.npy"))
    os.mkdir(os.path.join(work, "empty_folder"))
    os.makedirs(os.path.join(work, "dump_onto_folder", "y.npy"))
    write("f32_as_i32.npy", npy_raw(x_header(), X_DATA))


# name, arguments (run in the work folder), exit status, stderr regex,
# paths that must not exist afterwards, extra environment
CASES = [
    # --- command line -------------------------------------------------------
    ("no subcommand", [], 2, r"^nisa: error: A subcommand is required"),
    ("unknown subcommand", ["frob", "good.nasm"], 2, r"^nisa: error: "),
    ("unknown flag (asm)", ["asm", "p2.nasm", "--frob"], 2, r"not expected: --frob", ["p2.nbin"]),
    ("unknown flag (run)", ["run", "good.nbin", "--fast", "--dump", "d_flag"], 2, r"not expected: --fast", ["d_flag"]),
    ("asm without a program", ["asm"], 2, r"^nisa: error: program is required"),
    ("asm of a missing file", ["asm", "nope.nasm"], 2, r"^nope\.nasm: error: cannot read", ["nope.nbin"]),
    ("asm of a folder", ["asm", "adir", "-o", "adir.nbin"], 2, r"^adir: error: cannot read", ["adir.nbin"]),
    ("asm -o into a missing folder", ["asm", "good.nasm", "-o", "nodir/out.nbin"], 2,
     r"^nodir/out\.nbin: error: cannot write", ["nodir"]),
    ("asm -o onto a folder", ["asm", "good.nasm", "-o", "adir"], 2, r"^adir: error: cannot write"),
    ("asm -o under a file", ["asm", "good.nasm", "-o", "afile/x.nbin"], 2, r"^afile/x\.nbin: error: cannot write"),
    ("asm of a binary", ["asm", "good.nbin", "-o", "z.nbin"], 2, r"^good\.nbin:1:\d+: error: ", ["z.nbin"]),
    ("dis of a missing file", ["dis", "nope.nbin", "-o", "n.nasm"], 2, r"^nope\.nbin: error: cannot read", ["n.nasm"]),
    ("dis -o into a missing folder", ["dis", "good.nbin", "-o", "nodir/x.nasm"], 2,
     r"^nodir/x\.nasm: error: cannot write", ["nodir"]),
    ("dis of a source file", ["dis", "good.nasm", "-o", "s.nasm"], 2, r"^good\.nasm: error: not a \.nbin file", ["s.nasm"]),
    ("run of a missing file", ["run", "nope.nbin", "--dump", "d_missing"], 2, r"^nope\.nbin: error: cannot read", ["d_missing"]),
    ("run of a folder", ["run", "adir"], 2, r"^adir: error: cannot read"),
    ("run of source text named .nbin", ["run", "nasm_as.nbin"], 2, r"^nasm_as\.nbin: error: not a \.nbin file"),
    ("--input without =", ["run", "good.nasm", "--input", "x.npy"], 2, r"--input 'x\.npy' is not NAME=FILE\.npy"),
    ("--input with an empty name", ["run", "good.nasm", "--input", "=x.npy"], 2, r"--input '=x\.npy' is not NAME=FILE\.npy"),
    ("--input with an empty file", ["run", "good.nasm", "--input", "x="], 2, r"--input 'x=' is not NAME=FILE\.npy"),
    ("--input of a missing .npy", ["run", "good.nasm", "--input", "x=nope.npy", "--dump", "d_nonpy"], 2,
     r"^nope\.npy: error: cannot read", ["d_nonpy/y.npy"]),
    ("--input of a folder", ["run", "good.nasm", "--input", "x=adir"], 2, r"^adir: error: cannot read"),
    ("--input unknown tensor (binary)", ["run", "good.nbin", "--input", "q=x.npy"], 2,
     r"^good\.nbin: error: --input q: no tensor named 'q'"),
    ("--input of an output tensor (binary)", ["run", "good.nbin", "--input", "y=x.npy"], 2,
     r"--input y: tensor 'y' \(line 5\) is not declared input or inout"),
    ("--input of an SBUF tensor", ["run", "good.nasm", "--input", "t=x.npy"], 2,
     r"--input t: tensor 't' \(line 6\) is not declared input or inout"),
    ("--input twice, same file", ["run", "good.nasm", "--input", "x=x.npy", "--input", "x=x.npy"], 2, r"--input x is given twice"),
    ("missing input (binary)", ["run", "good.nbin", "--dump", "d_noin"], 2,
     r"^good\.nasm:2: error: input tensor 'x' has no --input x=FILE\.npy", ["d_noin/y.npy"]),
    ("--dump onto a file", ["run", "good.nasm", "--input", "x=x.npy", "--dump", "afile"], 2,
     r"^afile: error: cannot create folder"),
    ("--dump into /proc", ["run", "good.nasm", "--input", "x=x.npy", "--dump", "/proc/nisa_dump"], 2,
     r"^/proc/nisa_dump: error: cannot create folder"),
    ("--dump-state under a file", ["run", "good.nasm", "--input", "x=x.npy", "--dump-state", "afile/state"], 2,
     r"^afile/state: error: cannot create folder"),
    ("--dump with a source error", ["run", "bad_dump.nasm", "--input", "x=x.npy", "--dump", "d_src"], 2,
     r"^bad_dump\.nasm:9:1: error: unknown instruction 'frobnicate'", ["d_src/y.npy"]),
    ("diff of missing folders", ["diff", "nodir1", "nodir2"], 2, r"^nodir1: error: cannot read"),
    ("diff of a folder and a missing one", ["diff", "adir", "nodir"], 2, r"^nodir: error: "),
    ("diff with one argument", ["diff", "x.npy"], 2, r"^nisa: error: actual is required"),
    ("--rtol not a number", ["diff", "x.npy", "x.npy", "--rtol", "abc"], 2, r"^nisa: error: Could not convert: --rtol = abc"),
    ("--rtol nan", ["diff", "x.npy", "x.npy", "--rtol", "nan"], 2, r"^nisa: error: --rtol must be a finite non-negative number"),
    ("--atol negative", ["diff", "x.npy", "x.npy", "--atol", "-1e-3"], 2, r"^nisa: error: --atol must be a finite non-negative"),
    ("--atol inf", ["diff", "x.npy", "x.npy", "--atol", "inf"], 2, r"^nisa: error: --atol must be a finite non-negative"),
    ("isa --markdown --json", ["isa", "--markdown", "--json"], 2, r"^nisa: error: --markdown excludes --json"),
    ("--spec of a missing file", ["--spec", "nope.json", "isa"], 2, r"nope\.json"),
    ("--spec of a non-JSON file", ["--spec", "good.nasm", "isa"], 2, r"^isa-spec: not valid JSON"),
    ("NISA_SPEC of a missing file", ["asm", "p2.nasm"], 2, r"nope\.json", ["p2.nbin"], {"NISA_SPEC": "nope.json"}),

    # --- .nasm sources: resource limits and malformed text -------------------
    ("NUL byte in a source", ["asm", "nul.nasm", "-o", "o1.nbin"], 2, r"^nul\.nasm:9:\d+: error: ", ["o1.nbin"]),
    ("binary garbage as a source", ["asm", "binary.nasm", "-o", "o2.nbin"], 2, r"^binary\.nasm:\d+:\d+: error: ", ["o2.nbin"]),
    ("enormous HBM shape", ["asm", "huge_shape.nasm", "-o", "o3.nbin"], 2, r"^huge_shape\.nasm:1:\d+: error: .*too large", ["o3.nbin"]),
    ("HBM tensor over 64 GiB", ["asm", "over_64gib.nasm", "-o", "o4.nbin"], 2,
     r"^over_64gib\.nasm:1:\d+: error: .*68720001024 bytes; the model allows at most 68719476736", ["o4.nbin"]),
    ("HBM tensors over --hbm-limit", ["run", "hbm_total.nasm", "--dump", "d_total", "--hbm-limit", "4G"], 2,
     r"^hbm_total\.nasm:5: error: tensor 'x4' brings the HBM tensors to 5368709120 bytes, over the run's HBM limit "
     r"of 4294967296 \(raise it with --hbm-limit BYTES", ["d_total"]),
    ("--hbm-limit not a size", ["run", "hbm_total.nasm", "--hbm-limit", "4Q"], 2,
     r"^nisa: error: --hbm-limit '4Q' is not a size in bytes"),
    ("--hbm-limit zero", ["run", "hbm_total.nasm", "--hbm-limit", "0"], 2, r"^nisa: error: --hbm-limit '0' is not a size"),
    ("129 partitions", ["asm", "partitions.nasm", "-o", "o5.nbin"], 2, r"^partitions\.nasm:1:\d+: error: .*129 partitions", ["o5.nbin"]),
    ("SBUF tensor larger than a partition", ["asm", "sbuf_full.nasm", "-o", "o6.nbin"], 2, r"^sbuf_full\.nasm:1:\d+: error: ", ["o6.nbin"]),
    ("PSUM tensor larger than PSUM", ["asm", "psum_full.nasm", "-o", "o7.nbin"], 2, r"^psum_full\.nasm:1:\d+: error: ", ["o7.nbin"]),
    ("dimension 0", ["asm", "dim_zero.nasm", "-o", "o8.nbin"], 2, r"^dim_zero\.nasm:1:\d+: error: .*at least 1", ["o8.nbin"]),
    ("negative dimension", ["asm", "dim_negative.nasm", "-o", "o9.nbin"], 2, r"^dim_negative\.nasm:1:\d+: error: ", ["o9.nbin"]),
    ("integer literal beyond int64", ["asm", "int_literal.nasm", "-o", "o10.nbin"], 2,
     r"^int_literal\.nasm:1:\d+: error: integer literal 99999999999999999999 is too large", ["o10.nbin"]),
    ("a 1 MB line", ["asm", "long_line.nasm", "-o", "o11.nbin"], 2, r"^long_line\.nasm:1:1: error: unknown instruction", ["o11.nbin"]),
    ("NaN INIT of an integer tensor", ["run", "init_nan_int.nasm", "--dump", "d_nan"], 2,
     r"^init_nan_int\.nasm:1:\d+: error: the INIT value must be an exact integer, got nan", ["d_nan"]),
    ("INIT beyond int32", ["asm", "init_big_int.nasm", "-o", "o12.nbin"], 2, r"^init_big_int\.nasm:1:\d+: error: ", ["o12.nbin"]),
    ("memset of NaN into an integer tile", ["asm", "memset_nan_int.nasm", "-o", "o13.nbin"], 2,
     r"^memset_nan_int\.nasm:2:15: error: 'value' must be an exact integer, got nan", ["o13.nbin"]),
    (".rept count over the cap", ["asm", "rept_count.nasm", "-o", "o14.nbin"], 2, r"^rept_count\.nasm:2:\d+: error: .rept count", ["o14.nbin"]),
    ("slice outside its tensor", ["asm", "slice_outside.nasm", "-o", "o15.nbin"], 2, r"^slice_outside\.nasm:9:\d+: error: ", ["o15.nbin"]),
    ("SBUF offset outside the partition", ["asm", "offset_outside.nasm", "-o", "o16.nbin"], 2,
     r"^offset_outside\.nasm:1:\d+: error: ", ["o16.nbin"]),
    ("300 dimensions", ["asm", "many_dims.nasm", "-o", "o17.nbin"], 2, r"^many_dims\.nasm:1: error: cannot encode tensor x: rank 300",
     ["o17.nbin"]),

    # --- .nbin binaries ------------------------------------------------------
    ("empty binary", ["dis", "empty.nbin", "-o", "b1.nasm"], 2, r"^empty\.nbin: error: truncated header", ["b1.nasm"]),
    ("10-byte binary", ["run", "short.nbin", "--dump", "d_b2"], 2, r"^short\.nbin: error: truncated header", ["d_b2"]),
    ("bad magic", ["dis", "magic.nbin", "-o", "b3.nasm"], 2, r"^magic\.nbin: error: not a \.nbin file \(bad magic number\)", ["b3.nasm"]),
    ("format version 5", ["run", "version.nbin"], 2, r"^version\.nbin: error: format version 5, this nisa reads version 4"),
    ("another spec id", ["run", "spec_id.nbin", "--dump", "d_b5"], 2,
     r"^spec_id\.nbin: error: the binary was built with ISA spec .* \(reassemble it\)", ["d_b5"]),
    ("CRC mismatch", ["dis", "crc.nbin", "-o", "b6.nasm"], 2, r"^crc\.nbin: error: checksum mismatch", ["b6.nasm"]),
    ("truncated by one byte", ["run", "truncated.nbin"], 2, r"^truncated\.nbin: error: truncated: the header announces"),
    ("one trailing byte", ["dis", "trailing.nbin"], 2, r"^trailing\.nbin: error: trailing bytes after the payload"),
    ("payload size 4 GiB", ["run", "payload_size.nbin"], 2, r"^payload_size\.nbin: error: truncated: the header announces 4294967295"),
    ("arch index 99", ["dis", "arch.nbin"], 2, r"^arch\.nbin: error: unknown arch index 99"),
    ("tensor count 2^40", ["run", "tensor_count.nbin"], 2, r"^tensor_count\.nbin: error: .*tensor count"),
    ("empty payload", ["dis", "no_payload.nbin"], 2, r"^no_payload\.nbin: error: "),
    ("source name length 2^50", ["run", "name_length.nbin"], 2, r"^name_length\.nbin: error: .*source file name"),
    ("instruction count 2^40", ["dis", "instruction_count.nbin"], 2, r"^instruction_count\.nbin: error: .*instruction count"),
    ("line table shorter than its count", ["run", "line_table.nbin"], 2, r"^line_table\.nbin: error: "),
    ("stream size 2^33", ["run", "stream_size.nbin"], 2, r"^stream_size\.nbin: error: .*instruction stream size"),

    # --- .nbin of a program for two cores (LANGUAGE.md 2.7) ---------------------
    ("core count 0", ["run", "cores_0.nbin"], 2, r"^cores_0\.nbin: error: 0 cores; arch trn2 runs 1 to 2 at byte 24"),
    ("core count 3 on trn2", ["dis", "cores_3.nbin", "-o", "c3.nasm"], 2,
     r"^cores_3\.nbin: error: 3 cores; arch trn2 runs 1 to 2 at byte 24", ["c3.nasm"]),
    ("two cores on trn1", ["run", "cores_trn1.nbin", "--dump", "d_c1"], 2,
     r"^cores_trn1\.nbin: error: 2 cores; arch trn1 runs 1 to 1 at byte 24", ["d_c1"]),
    ("core start past the last instruction", ["dis", "core_start_past_end.nbin"], 2,
     r"^core_start_past_end\.nbin: error: core 1 starts at instruction 9 of 6 at byte 25"),
    ("a core start that gives core 1 a tensor of core 0", ["run", "core_start_moves_tensor.nbin"], 2,
     r"^core_start_moves_tensor\.nbin: error: .*tensor 't' is core 0's; this instruction runs on core 1"),
    ("a tensor of core 2 in a program for two", ["dis", "tensor_core.nbin"], 2,
     r"^tensor_core\.nbin: error: tensor x: core 2 in a program for 2 cores at byte 33$"),
    ("a core start that leaves a barrier unmet", ["run", "core_start_barrier.nbin", "--dump", "d_cb"], 2,
     r"^barriers\.nasm:7: error: core_barrier of core 1 \(line 7\) is never met: core 0's instructions end at line 6 "
     r"without it$", ["d_cb"]),

    # --- .npy inputs of nisa run ---------------------------------------------
    ("float64 for an f32 tensor", ["run", "good.nasm", "--input", "x=f64.npy", "--dump", "d_n1"], 2,
     r"^f64\.npy: error: dtype float64 does not match tensor x declared f32 \(line 2\)", ["d_n1/y.npy"]),
    ("int32 for an f32 tensor", ["run", "good.nasm", "--input", "x=i32_for_f32.npy"], 2,
     r"^i32_for_f32\.npy: error: dtype int32 does not match tensor x declared f32"),
    ("float32 for an i32 tensor", ["run", "good.nasm", "--input", "x=x.npy", "--input", "n=f32_as_i32.npy"], 2,
     r"^f32_as_i32\.npy: error: dtype float32 does not match tensor n declared i32 \(line 4\)"),
    ("float64 for a bf16 tensor", ["run", "good.nasm", "--input", "x=x.npy", "--input", "b=f32_for_bf16_wrong.npy"], 2,
     r"does not match tensor b declared bf16 \(line 3\); bf16 tensors take bfloat16 \(ml_dtypes\) or float32 arrays"),
    ("ml_dtypes' float8_e5m2 ('<f1') for a bf16 tensor", ["run", "good.nasm", "--input", "x=x.npy", "--input",
                                                         "b=e5m2_for_bf16.npy"], 2,
     r"^e5m2_for_bf16\.npy: error: dtype float8_e5m2 does not match tensor b declared bf16 \(line 3\)"),
    ("a 1-byte void (np.save of an fp8 array) for a bf16 tensor", ["run", "good.nasm", "--input", "x=x.npy", "--input",
                                                                   "b=v1_for_bf16.npy"], 2,
     r"^v1_for_bf16\.npy: error: dtype void8 does not match tensor b declared bf16 \(line 3\)"),
    ("float8_e4m3fn for a bf16 tensor", ["run", "good.nasm", "--input", "x=x.npy", "--input", "b=e4m3fn_for_bf16.npy"],
     2, r"^e4m3fn_for_bf16\.npy: error: dtype float8_e4m3fn does not match tensor b declared bf16"),
    ("rank 1 for rank 2", ["run", "good.nasm", "--input", "x=rank.npy"], 2,
     r"^rank\.npy: error: shape \(1024,\) does not match tensor x declared \[128, 8\]"),
    ("0-d array", ["run", "good.nasm", "--input", "x=scalar.npy"], 2, r"^scalar\.npy: error: shape \(\) does not match"),
    ("format version 4.0", ["run", "good.nasm", "--input", "x=v4.npy"], 2, r"^v4\.npy: error: unsupported \.npy format version 4\.0"),
    ("format version 1.1", ["run", "good.nasm", "--input", "x=v1_1.npy"], 2, r"^v1_1\.npy: error: unsupported \.npy format version 1\.1"),
    ("big-endian input", ["run", "good.nasm", "--input", "x=big_endian.npy"], 2, r"^big_endian\.npy: error: .*big-endian"),
    ("object input", ["run", "good.nasm", "--input", "x=object.npy"], 2, r"^object\.npy: error: object arrays are not supported"),
    ("unicode strings", ["run", "good.nasm", "--input", "x=unicode.npy"], 2, r"^unicode\.npy: error: "),
    ("complex64", ["run", "good.nasm", "--input", "x=complex.npy"], 2, r"^complex\.npy: error: "),
    ("structured dtype", ["run", "good.nasm", "--input", "x=structured.npy"], 2, r"^structured\.npy: error: "),
    ("datetime64", ["run", "good.nasm", "--input", "x=datetime.npy"], 2, r"^datetime\.npy: error: "),
    ("float128", ["run", "good.nasm", "--input", "x=f128.npy"], 2, r"^f128\.npy: error: "),
    ("data 4 bytes short", ["run", "good.nasm", "--input", "x=data_short.npy"], 2,
     r"^data_short\.npy: error: data is 4092 bytes, but shape \(128, 8\) of float32 needs 4096"),
    ("data 4 bytes long", ["run", "good.nasm", "--input", "x=data_long.npy"], 2,
     r"^data_long\.npy: error: data is 4100 bytes, but shape \(128, 8\) of float32 needs 4096"),
    ("header past the end", ["run", "good.nasm", "--input", "x=header_past_end.npy"], 2, r"^header_past_end\.npy: error: truncated \.npy header"),
    ("header length 4 GiB", ["run", "good.nasm", "--input", "x=header_4gib.npy"], 2,
     r"^header_4gib\.npy: error: header length 4294967295 exceeds the limit of 65536 bytes"),
    ("header of 70 000 bytes", ["run", "good.nasm", "--input", "x=header_70k.npy"], 2,
     r"^header_70k\.npy: error: header length \d+ exceeds the limit of 65536 bytes"),
    ("shape of 2^80 elements", ["run", "good.nasm", "--input", "x=huge_dims.npy"], 2, r"^huge_dims\.npy: error: .*too large"),
    ("negative dimension", ["run", "good.nasm", "--input", "x=negative_dim.npy"], 2, r"^negative_dim\.npy: error: "),
    ("empty .npy", ["run", "good.nasm", "--input", "x=empty.npy"], 2, r"^empty\.npy: error: not a \.npy file"),
    ("bad .npy magic", ["run", "good.nasm", "--input", "x=magic.npy"], 2, r"^magic\.npy: error: not a \.npy file"),
    ("header not a dict", ["run", "good.nasm", "--input", "x=not_dict.npy"], 2, r"^not_dict\.npy: error: malformed \.npy header"),
    ("header without shape", ["run", "good.nasm", "--input", "x=no_shape.npy"], 2, r"^no_shape\.npy: error: header has no 'shape'"),
    ("NUL in the header", ["run", "good.nasm", "--input", "x=nul_header.npy"], 2, r"^nul_header\.npy: error: malformed \.npy header: NUL byte"),
    ("unknown header key", ["run", "good.nasm", "--input", "x=unknown_key.npy"], 2, r"^unknown_key\.npy: error: unexpected key 'extra'"),
    ("NaN in the shape", ["run", "good.nasm", "--input", "x=nan_shape.npy"], 2, r"^nan_shape\.npy: error: malformed \.npy header"),
    ("float in the shape", ["run", "good.nasm", "--input", "x=float_shape.npy"], 2, r"^float_shape\.npy: error: malformed \.npy header"),
    # --- issue 15: outputs you can trust --------------------------------------
    ("--input of /dev/zero", ["run", "good.nasm", "--input", "x=/dev/zero"], 2, r"^/dev/zero: error: not a \.npy file"),
    ("dis of /dev/zero", ["dis", "/dev/zero"], 2, r"^/dev/zero: error: not a \.nbin file"),
    ("asm of /dev/zero", ["asm", "/dev/zero", "-o", "z1.nbin"], 2, r"^/dev/zero:1:1: error: ", ["z1.nbin"]),
    ("diff of /dev/zero", ["diff", "/dev/zero", "x.npy"], 2, r"^/dev/zero: error: not a \.npy file"),
    ("--spec of /dev/zero", ["--spec", "/dev/zero", "isa"], 2, r"^isa-spec: not valid JSON"),
    ("10 M line entries and no stream", ["dis", "line_entries.nbin"], 2,
     r"^line_entries\.nbin: error: instruction count 10000000 needs more than the 0 bytes of the instruction stream"),
    ("a failing --trace keeps the dump out", ["run", "good.nasm", "--input", "x=x.npy", "--dump", "d_tr", "--trace", "nodir/t.json"],
     2, r"^nodir/t\.json: error: cannot write: No such file", ["d_tr/y.npy"]),
    ("a failing --dump-state keeps the dump out", ["run", "good.nasm", "--input", "x=x.npy", "--dump", "d_st",
                                                   "--dump-state", "afile/state"], 2, r"^afile/state: error: cannot create folder",
     ["d_st/y.npy"]),
    ("-o onto its own source", ["asm", "good.nasm", "-o", "good.nasm"], 2,
     r"^good\.nasm: error: refusing to overwrite an input of this command \(good\.nasm\)"),
    ("--dump and --dump-state writing one file", ["run", "good.nasm", "--input", "x=x.npy", "--dump", "d_twice",
                                                  "--dump-state", "d_twice", "--trace", "d_twice/sbuf.npy"], 2,
     r"^d_twice/sbuf\.npy: error: would be written twice by this command \(--dump-state and --trace\)", ["d_twice"]),
    ("offset at INT64_MAX", ["asm", "offset_max.nasm", "-o", "o18.nbin"], 2,
     r"^offset_max\.nasm:1:\d+: error: .*ends at byte 9223372036854775823, past the", ["o18.nbin"]),
    ("dump onto a folder names the user's path", ["run", "good.nasm", "--input", "x=x.npy", "--dump", "dump_onto_folder"], 2,
     r"^dump_onto_folder/y\.npy: error: cannot write: Is a directory$"),
    ("-o empty", ["asm", "p2.nasm", "-o", ""], 2, r"^nisa: error: --output: the path is empty", ["p2.nbin"]),
    ("--dump empty", ["run", "good.nasm", "--input", "x=x.npy", "--dump", ""], 2, r"^nisa: error: --dump: the path is empty"),
    ("--trace empty", ["run", "good.nasm", "--input", "x=x.npy", "--trace", ""], 2, r"^nisa: error: --trace: the path is empty"),
    ("--dump-state empty", ["run", "good.nasm", "--input", "x=x.npy", "--dump-state", ""], 2,
     r"^nisa: error: --dump-state: the path is empty"),
    ("dis -o empty", ["dis", "good.nbin", "-o", ""], 2, r"^nisa: error: --output: the path is empty"),
    ("diff of a dangling .npy link", ["diff", "odd_entries", "empty_folder"], 2,
     r"^odd_entries/dangling\.npy: error: cannot read"),
    ("diff of a FIFO .npy entry", ["diff", "empty_folder", "fifo_entry"], 2, r"^fifo_entry/f\.npy: error: cannot read: not a regular file"),
    ("diff of a folder .npy entry", ["diff", "folder_entry", "empty_folder"], 2,
     r"^folder_entry/d\.npy: error: cannot read: not a regular file"),
    ("diff of a 4 GiB header", ["diff", "header_4gib.npy", "x.npy"], 2, r"^header_4gib\.npy: error: header length 4294967295 exceeds"),
]


def leftovers(before):
    """Files that appeared in the work folder, besides the expected ones."""
    now = set()
    for root, _, files in os.walk(work):
        for f in files:
            now.add(os.path.relpath(os.path.join(root, f), work))
    return sorted(now - before)


def main():
    make_files()
    failures = []
    for case in CASES:
        name, args, status, pattern = case[:4]
        absent = case[4] if len(case) > 4 else []
        env = dict(os.environ)
        env.pop("NISA_SPEC", None)  # only the case that sets it should see it
        env.update(case[5] if len(case) > 5 else {})
        before = set()
        for root, _, files in os.walk(work):
            for f in files:
                before.add(os.path.relpath(os.path.join(root, f), work))
        started = time.monotonic()
        try:
            r = subprocess.run([NISA, *args], cwd=work, capture_output=True, text=True, errors="replace", env=env, timeout=60)
        except subprocess.TimeoutExpired:
            failures.append(f"{name}: timed out")
            continue
        if time.monotonic() - started > 5:
            print(f"slow case ({time.monotonic() - started:.1f} s): {name}")
        problems = []
        if r.returncode != status:
            problems.append(f"exit {r.returncode}, expected {status}")
        if not re.search(pattern, r.stderr, re.M):
            problems.append(f"stderr does not match /{pattern}/")
        if r.stderr.count("\n") > 0 and not r.stderr.endswith("\n"):
            problems.append("stderr does not end with a newline")
        for p in absent:
            if os.path.exists(os.path.join(work, p)):
                problems.append(f"{p} exists")
        new = leftovers(before)
        if new:
            problems.append(f"left behind: {new}")
        if problems:
            failures.append(f"{name}: nisa {' '.join(args)}\n    " + "\n    ".join(problems) +
                            "\n    stderr: " + r.stderr[:400].replace("\n", "\n            "))
    if failures:
        print("\n".join(failures))
        print(f"{len(failures)} of {len(CASES)} bad-input cases failed; files in {work}")
        sys.exit(1)
    shutil.rmtree(work)
    print(f"all {len(CASES)} bad-input cases refused as documented")


main()
