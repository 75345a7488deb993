#!/usr/bin/python3
"""docs/ISA.md must be exactly what `nisa isa --markdown` prints (issue 4: CI fails if stale).

    docs_current.py NISA DOCS_ISA_MD
Regenerate with: build/nisa isa --markdown > docs/ISA.md
"""
import difflib
import subprocess
import sys

nisa, path = sys.argv[1], sys.argv[2]
generated = subprocess.run([nisa, "isa", "--markdown"], check=True, capture_output=True, text=True).stdout
with open(path, encoding="utf-8") as f:
    committed = f.read()
if generated != committed:
    diff = difflib.unified_diff(committed.splitlines(), generated.splitlines(),
                                "docs/ISA.md (committed)", "nisa isa --markdown", lineterm="", n=1)
    print("\n".join(list(diff)[:40]))
    print(f"{path} is stale; regenerate it with: build/nisa isa --markdown > docs/ISA.md")
    sys.exit(1)
print(f"{path} is current ({len(committed.splitlines())} lines)")
