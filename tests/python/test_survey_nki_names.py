"""scripts/survey-nki-names (issue 27): the NKI names a tree of Python files
uses, counted by hand in a small file here."""
import os
import subprocess
import sys

SOURCE = os.environ.get("NISA_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(SOURCE, "scripts", "survey-nki-names")

KERNEL = '''\
import nki
import nki.language as nl
import nki.isa as nisa
from nki.isa.constants import oob_mode

@nki.jit
def k(a):
    width = nl.tile_size.pmax + nl.tile_size.pmax
    nisa.dma_copy(dst=a, src=a, oob_mode=oob_mode.skip, engine=nisa.vector_engine)
    return nl.ndarray((width, 4), dtype=nl.float32, buffer=nl.sbuf)
'''


def survey(*args):
    done = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, env=os.environ.copy())
    return done.returncode, done.stdout, done.stderr


def test_counts_each_name_with_its_uses_and_files(tmp_path):
    (tmp_path / "k.py").write_text(KERNEL)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "other.py").write_text("import nki.language as L\nx = L.tile_size.pmax\n")
    status, out, err = survey(str(tmp_path))
    assert status == 0, err
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:]}
    assert rows == {
        "nisa.constants.oob_mode": ["1", "1"],  # the import
        "nisa.constants.oob_mode.skip": ["1", "1"],
        "nisa.dma_copy": ["1", "1"],
        "nisa.vector_engine": ["1", "1"],
        "nki.jit": ["1", "1"],
        "nl.float32": ["1", "1"],
        "nl.ndarray": ["1", "1"],
        "nl.sbuf": ["1", "1"],
        "nl.tile_size.pmax": ["3", "2"],  # twice in k.py, once through another alias in sub/other.py
    }


def test_markdown_and_check_against_nisa_nki(tmp_path):
    (tmp_path / "k.py").write_text(KERNEL + "y = nl.no_such_name\n")
    status, out, err = survey(str(tmp_path), "--markdown", "--check")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "| name | uses | files | nisa.nki |"
    assert "| `nisa.vector_engine` | 1 | 1 | yes |" in lines
    assert "| `nl.no_such_name` | 1 | 1 | no |" in lines


def test_a_file_python_cannot_parse_is_reported_and_skipped(tmp_path):
    (tmp_path / "bad.py").write_text("import nki\ndef f(:\n")
    (tmp_path / "k.py").write_text(KERNEL)
    status, out, err = survey(str(tmp_path))
    assert status == 0 and "bad.py:2: skipped" in err
    assert "nki.jit" in out


def test_a_missing_path_is_an_error(tmp_path):
    status, _, err = survey(str(tmp_path / "nothing"))
    assert status != 0 and "no such file or directory" in err
