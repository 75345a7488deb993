"""The kernel lines a test expects an error at: a line ending in the comment
`# LINE name` (LANGUAGE.md 4: an error names the kernel's file and line)."""
import os


def marked_line(path, name):
    with open(path) as f:
        for number, text in enumerate(f, 1):
            if text.rstrip().endswith(f"# LINE {name}"):
                return number
    raise AssertionError(f"no line marked '# LINE {name}' in {path}")


def assert_located(error, path, name):
    """`error` (a nisa.Error) names `path` at the line marked `name`."""
    assert error.file is not None and os.path.samefile(error.file, path), error.message
    assert error.line == marked_line(path, name), error.message
