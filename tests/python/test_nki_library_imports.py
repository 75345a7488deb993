"""Every module of an nki-library checkout imports with nisa.nki installed
(issue 27), but for those that need what nisa.nki does not provide: torch,
two NeuronCores (nki.collectives, issue 28), another package that is not
installed (scipy, neuronxcc, ...), or a file Python cannot read.

    NKI_LIBRARY=/path/to/nki-library pytest tests/python/test_nki_library_imports.py -s

prints which modules fail and why. Without NKI_LIBRARY the test is skipped.
Run as a script (`python3 test_nki_library_imports.py PATH`), this file
imports the modules itself and prints the result as JSON: the test runs it
in a fresh interpreter, so the checkout's modules stay out of this one.
"""
import json
import os
import subprocess
import sys

import pytest

# Missing modules that are not nisa.nki's to provide, and why.
TWO_CORES = "two NeuronCores (nki.collectives: issue 28)"


def _cause(error):
    """Why a module failed to import: one of the allowed causes, or
    'nisa.nki: ...' when a name nisa.nki should have is missing."""
    kind, missing, message = error["type"], error.get("missing"), error["message"]
    if kind == "ModuleNotFoundError" and missing:
        if missing == "nki.collectives" or missing.startswith("nki.collectives."):
            return TWO_CORES
        if missing == "torch" or missing.startswith("torch."):
            return "torch"
        if missing != "nki" and not missing.startswith("nki."):
            return f"{missing} (not installed)"
    if kind in ("SyntaxError", "IndentationError", "TabError") and error.get("in_checkout"):
        return f"nki-library's own {kind} ({message})"
    return f"nisa.nki: {kind}: {message}"


def _modules(root):
    base = os.path.join(root, "src", "nkilib_src", "nkilib")
    names = []
    for folder, _, files in os.walk(base):
        for f in sorted(files):
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, f), os.path.join(root, "src"))[:-3].replace(os.sep, ".")
                names.append(rel[:-len(".__init__")] if rel.endswith(".__init__") else rel)
    return sorted(names)


def import_all(root):
    """{module: None or its error} for every module of the checkout at root."""
    import importlib

    import nisa.nki
    nisa.nki.install()
    sys.path.insert(0, os.path.join(root, "src"))
    results = {}
    for name in _modules(root):
        try:
            importlib.import_module(name)
            results[name] = None
        except BaseException as e:  # noqa: B902 (a module may raise anything while it is imported)
            filename = getattr(e, "filename", None) or ""
            results[name] = {"type": type(e).__name__, "message": str(e).splitlines()[0] if str(e) else "",
                             "missing": getattr(e, "name", None) if isinstance(e, ModuleNotFoundError) else None,
                             "in_checkout": os.path.abspath(filename).startswith(os.path.abspath(root))}
    return results


def _report(results):
    failed = {name: _cause(e) for name, e in results.items() if e is not None}
    lines = [f"nki-library: {len(results) - len(failed)} of {len(results)} modules import with nisa.nki"]
    for cause in sorted(set(failed.values())):
        modules = sorted(name for name, c in failed.items() if c == cause)
        lines.append(f"  {len(modules)} need {cause}:" if not cause.startswith(("nisa.nki", "nki-library"))
                     else f"  {len(modules)} fail: {cause}:")
        lines += [f"    {m}" for m in modules]
    return failed, "\n".join(lines)


def test_every_nki_library_module_imports_but_for_torch_two_cores_and_missing_packages():
    root = os.environ.get("NKI_LIBRARY")
    if not root:
        pytest.skip("set NKI_LIBRARY to an nki-library checkout (the folder holding src/nkilib_src) to run it")
    if not os.path.isdir(os.path.join(root, "src", "nkilib_src", "nkilib")):
        pytest.fail(f"NKI_LIBRARY={root}: no src/nkilib_src/nkilib there")
    done = subprocess.run([sys.executable, os.path.abspath(__file__), root], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    failed, report = _report(json.loads(done.stdout))
    print(report)
    ours = {name: cause for name, cause in failed.items() if cause.startswith("nisa.nki")}
    assert not ours, report


if __name__ == "__main__":
    print(json.dumps(import_all(sys.argv[1])))
