"""nisa.nki's modules (issue 26): they import each other in one direction
only (no circle, and no imports inside functions to get round one)."""
import ast
import os

PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "nisa", "nki")


def _modules():
    return sorted(f[:-3] for f in os.listdir(PACKAGE) if f.endswith(".py"))


def _imports(name):
    """The nisa.nki modules `name` imports at its top level, and the imports made inside its functions."""
    with open(os.path.join(PACKAGE, name + ".py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    siblings, inner = set(), []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                siblings.add(node.module.split(".")[0])
            else:
                siblings.update(a.name for a in node.names)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner += [n.lineno for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
    return siblings & (set(_modules()) - {"__init__"}), inner


def test_no_module_imports_inside_a_function():
    for name in _modules():
        assert _imports(name)[1] == [], f"nisa/nki/{name}.py imports inside a function at lines {_imports(name)[1]}"


def test_the_modules_import_each_other_without_a_circle():
    graph = {name: _imports(name)[0] for name in _modules()}
    done, path = set(), []

    def visit(name):
        if name in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(name):] + [name]))
        if name in done:
            return
        path.append(name)
        for other in sorted(graph.get(name, ())):
            visit(other)
        path.pop()
        done.add(name)

    for name in graph:
        visit(name)
