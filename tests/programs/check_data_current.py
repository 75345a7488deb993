#!/usr/bin/python3
"""Checks that a workload's committed inputs and expected outputs are what its
make_data.py writes today (its seeds make it deterministic).

    check_data_current.py programs/causal_row_max

Re-runs make_data.py --out TMP and compares every .npy in the folder and in
expected/ with TMP byte for byte, both ways (a file on one side only is stale).
"""
import filecmp
import os
import subprocess
import sys
import tempfile


def npy_files(folder):
    """Relative paths of the .npy files directly in folder and in folder/expected."""
    found = []
    for sub in ("", "expected"):
        path = os.path.join(folder, sub)
        if os.path.isdir(path):
            found += [os.path.join(sub, n) for n in sorted(os.listdir(path)) if n.endswith(".npy")]
    return set(found)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="nisa_make_data_") as fresh:
        subprocess.run([sys.executable, os.path.join(folder, "make_data.py"), "--out", fresh], check=True)
        committed, regenerated = npy_files(folder), npy_files(fresh)
        problems = [f"{name}: committed but no longer written by make_data.py" for name in sorted(committed - regenerated)]
        problems += [f"{name}: written by make_data.py but not committed" for name in sorted(regenerated - committed)]
        problems += [f"{name}: differs from what make_data.py writes now"
                     for name in sorted(committed & regenerated)
                     if not filecmp.cmp(os.path.join(folder, name), os.path.join(fresh, name), shallow=False)]
    for problem in problems:
        print(f"{folder}/{problem}")
    if problems:
        print(f"stale data: run {folder}/make_data.py and commit its output")
        return 1
    print(f"{folder}: {len(committed)} .npy files are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
