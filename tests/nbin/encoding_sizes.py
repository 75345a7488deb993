#!/usr/bin/env python3
"""Measures the .nbin encoding (docs/NBIN.md): bits per instruction for each
instruction form, and a 1,000-instruction program against a fixed 64-byte
slot per instruction. The binary is read by an independent Python reader of
the layout, so this also checks the documented format.

usage: encoding_sizes.py NISA [--table]
"""
import pathlib
import subprocess
import sys
import tempfile

DECLS = """.arch trn3
.hbm  x    f32 [128, 512] input
.hbm  y    f32 [128, 512] output
.sbuf a    f32 [128, 512]
.sbuf b    f32 [128, 512]
.sbuf col  f32 [128, 1]
.sbuf col2 f32 [128, 1]
.sbuf m    u8  [128, 512]
.sbuf ii   i32 [128, 513]
.psum ps   f32 [128, 512]
.sbuf c3   f32 [128, 8, 64]
.sbuf r2   f32 [128, 8]
"""

FORMS = [
    ("dma_copy whole", "dma_copy dst=a, src=x"),
    ("dma_copy 2-d slices", "dma_copy dst=a[0:64, 0:256], src=x[64:128, 256:512]"),
    ("dma_copy HBM with steps", "dma_copy dst=y[0:128:2, 0:512:4], src=a[0:64, 0:128]"),
    ("memset f32", "memset dst=a, value=0.5"),
    ("memset i32 slice", "memset dst=ii[:, 0:1], value=-1"),
    ("iota", "iota dst=ii, base=1, partition_step=513, free_step=1"),
    ("tensor_tensor", "tensor_tensor dst=a, data1=a, data2=b, op=add"),
    ("tensor_scalar, scalars", "tensor_scalar dst=a, data=b, op0=multiply, operand0=2.0, op1=add, operand1=1.0"),
    ("tensor_scalar, one op", "tensor_scalar dst=a, data=b, op0=add, operand0=col"),
    ("tensor_reduce", "tensor_reduce dst=col, data=a, op=maximum"),
    ("iota, NKI 0.6 pattern form", "iota dst=ii, pattern=[[1, 513]], offset=1, channel_multiplier=513"),
    ("tensor_reduce, axis", "tensor_reduce dst=r2, data=c3, op=add, axis=[2]"),
    ("activation, minimal", "activation dst=a, op=exp, data=b"),
    ("activation, full", "activation dst=a, op=exp, data=b, bias=col, scale=0.5, reduce_op=add, reduce_res=col2, reduce_cmd=reset_reduce"),
    ("activate2", "activate2 dst=a, op=gelu, data=b, imm0=2.0, imm1=col, op0=multiply, op1=add"),
    ("range_select (LANGUAGE.md example)", "range_select dst=a, on_true_tile=a, comp_op0=greater_equal, comp_op1=less, bound0=col, bound1=col2, reduce_cmd=reset_reduce, reduce_res=col, range_start=0, on_false_value=fp32.min"),
    ("select_reduce", "select_reduce dst=a, predicate=m, on_true=b, on_false=-1.0, reduce_res=col, reduce_cmd=reset_reduce"),
    ("tensor_copy_predicated", "tensor_copy_predicated dst=a, src=b, predicate=m"),
    ("nonzero_with_count", "nonzero_with_count dst=ii, src=a, index_offset=0, padding_val=-1"),
]


def varint(b, pos):
    v = shift = 0
    while True:
        byte = b[pos]
        pos += 1
        v |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return v, pos


def stream_size(b):
    """Bytes of the instruction stream, read by walking the documented layout."""
    assert b[:4] == b"NBIN"
    pos = 24
    cores, pos = varint(b, pos)
    for _ in range(cores - 1):
        _, pos = varint(b, pos)            # where each core after the first starts
    _, pos = varint(b, pos)                # the NKI version
    tensors, pos = varint(b, pos)
    for _ in range(tensors):
        n, pos = varint(b, pos)
        pos += n + 4                      # name, memory, dtype, role, core
        rank = b[pos]
        pos += 1
        for _ in range(rank):
            _, pos = varint(b, pos)        # dims
        _, pos = varint(b, pos)            # offset
        init = b[pos]
        pos += 1 + (4 if init == 1 else 0)
        _, pos = varint(b, pos)            # line
    registers, pos = varint(b, pos)
    for _ in range(registers):
        n, pos = varint(b, pos)
        pos += n + 1                      # name, core
        _, pos = varint(b, pos)            # line
    n, pos = varint(b, pos)
    pos += n                              # file name
    count, pos = varint(b, pos)
    for _ in range(count):
        _, pos = varint(b, pos)            # line deltas
    size, pos = varint(b, pos)
    assert pos + size == len(b), "layout walk does not end at the end of the file"
    return count, size


def assemble(exe, text, tmp):
    src, out = tmp / "p.nasm", tmp / "p.nbin"
    src.write_text(text)
    r = subprocess.run([exe, "asm", str(src), "-o", str(out)], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(r.stderr)
    return out.read_bytes()


def main():
    exe = sys.argv[1]
    copies = 64
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name, line in FORMS:
            count, size = stream_size(assemble(exe, DECLS + (line + "\n") * copies, tmp))
            assert count == copies
            rows.append((name, size * 8 / copies))
        body = "".join(FORMS[i % len(FORMS)][1] + "\n" for i in range(1000))
        data = assemble(exe, DECLS + body, tmp)
        count, size = stream_size(data)
    print("| instruction form | stream bits | bytes (+1 line-table byte) |")
    print("|---|---:|---:|")
    for name, bits in rows:
        print(f"| {name} | {bits:.0f} | {bits / 8:.2f} + 1 |")
    fixed = 1000 * 64
    print(f"\n1,000 instructions (the {len(FORMS)} forms in turn): .nbin file {len(data)} bytes "
          f"(instruction stream {size}, line table ~{count}); fixed 64-byte slots: {fixed} bytes for the instructions alone "
          f"({fixed / len(data):.1f}x the whole .nbin)")
    assert all(bits <= 64 * 8 for _, bits in rows)
    assert len(data) < fixed / 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
