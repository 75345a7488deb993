#!/usr/bin/env python3
"""`nisa dis` on bad binaries (LANGUAGE.md sections 1 and 3): exit 2, exactly
one line on stderr naming the file and the byte, nothing written to -o.

usage: dis_cli.py NISA SOURCE_DIR
"""
import pathlib
import subprocess
import sys
import tempfile


def run(*args):
    return subprocess.run([*map(str, args)], capture_output=True, text=True)


def main():
    exe, root = sys.argv[1], pathlib.Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        good = tmp / "good.nbin"
        r = run(exe, "asm", root / "tests/dis/good/all_forms.nasm", "-o", good)
        assert r.returncode == 0, r.stderr
        data = good.read_bytes()

        cases = {
            "missing.nbin": None,
            "text.nbin": b".arch trn2\n",
            "empty.nbin": b"",
            "header_only.nbin": data[:24],
            "truncated.nbin": data[:-1],
            "longer.nbin": data + b"\0",
            "flipped.nbin": data[:60] + bytes([data[60] ^ 0x10]) + data[61:],
            "version.nbin": data[:4] + b"\x09" + data[5:],
        }
        expected = {
            "missing.nbin": "missing.nbin: error: cannot read",
            "text.nbin": "text.nbin: error: not a .nbin file (bad magic number) at byte 0",
            "empty.nbin": "empty.nbin: error: truncated header (0 of 24 bytes) at byte 0",
            "header_only.nbin": "header_only.nbin: error: truncated: the header announces",
            "truncated.nbin": "truncated.nbin: error: truncated: the header announces",
            "longer.nbin": f"longer.nbin: error: trailing bytes after the payload at byte {len(data)}",
            "flipped.nbin": "flipped.nbin: error: checksum mismatch: the file is corrupt at byte 20",
            "version.nbin": "version.nbin: error: format version 9, this nisa reads version 4 at byte 4",
        }
        failures = 0
        for name, content in cases.items():
            path = tmp / name
            if content is not None:
                path.write_bytes(content)
            out = tmp / (name + ".nasm")
            r = run(exe, "dis", path, "-o", out)
            lines = r.stderr.splitlines()
            ok = (r.returncode == 2 and len(lines) == 1 and lines[0].startswith(str(tmp / expected[name].split(":")[0]))
                  and expected[name].split(": ", 1)[1] in lines[0] and not out.exists() and r.stdout == "")
            print(("ok   " if ok else "FAIL ") + name + ": exit " + str(r.returncode) + ": " + r.stderr.strip())
            failures += not ok

        # Success: -o writes exactly what stdout shows.
        out = tmp / "good.nasm"
        r1, r2 = run(exe, "dis", good), run(exe, "dis", good, "-o", out)
        ok = r1.returncode == 0 and r2.returncode == 0 and out.read_text() == r1.stdout and r2.stdout == ""
        print(("ok   " if ok else "FAIL ") + "good.nbin to stdout and -o")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
