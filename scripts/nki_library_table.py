"""Prints the cases test_nki_library.py reported (NKI_LIBRARY_REPORT, one
JSON object a line) as an aligned table: kernel, case, dtype, LNC, result,
detail. Used by scripts/run-nki-library."""
import json
import sys

COLUMNS = ("kernel", "case", "dtype", "lnc", "result", "detail")


def main(path):
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if not rows:
        print("no case ran (see pytest's output)")
        return
    cells = [[str(row.get(c, "")) for c in COLUMNS] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(COLUMNS)]
    line = lambda values: "  ".join(v.ljust(w) for v, w in zip(values, widths)).rstrip()
    print(line(COLUMNS))
    print(line(["-" * w for w in widths]))
    for r in cells:
        print(line(r))
    counts = {}
    for row in rows:
        counts[row["result"]] = counts.get(row["result"], 0) + 1
    print(", ".join(f"{n} {result}" for result, n in sorted(counts.items())))


if __name__ == "__main__":
    main(sys.argv[1])
