"""The house's arrows: no import circle anywhere in `store` or `tui` (imports inside functions count), and
each wing of `store` imports only the wings its charter names (`MAY_IMPORT`, drawn in store/__init__.py).

The graph is read from the source, as import-linter's grimp reads it: `from a import b` is an import of the
module `a.b` when there is one, else of `a`. A new circle, or an arrow pointing up, fails here with the
modules that make it."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

MAY_IMPORT = {
    "common": set(),
    "papers": {"common"},
    "search": {"papers", "common"},
    "library": {"papers", "common"},
    "marks": {"library", "papers", "common"},
    "readers": {"search", "papers", "common"},
    "sync": {"marks", "library", "papers", "common"},
    "cite": {"papers", "common"},
    "interest": {"readers", "search", "papers", "common"},
    "fetch": {"readers", "papers", "common"},
}
"""Which wings each wing of `store` may import (besides its own modules)."""


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name → its file, for every module of `packages` under `root`."""
    found = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def import_graph(root: Path, packages: tuple[str, ...] = ("store", "tui")) -> dict[str, set[str]]:
    """Module → the modules of `packages` it imports, anywhere in its body."""
    known = modules(root, packages)

    def resolved(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
            else:
                continue
            for target in filter(None, map(resolved, targets)):
                if target != name:
                    graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def wing(module: str) -> str | None:
    """The wing of a `store` module (`store.marks.db` → "marks"); None for `store` itself and for `tui`."""
    parts = module.split(".")
    return parts[1] if parts[0] == "store" and len(parts) > 1 else None


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a wing its charter does not name, and each import of `tui` from `store`."""
    wrong = []
    for module, targets in sorted(graph.items()):
        if not module.startswith("store"):
            continue
        for target in sorted(targets):
            mine, theirs = wing(module), wing(target)
            if target.startswith("tui") or (mine and theirs and theirs != mine and theirs not in MAY_IMPORT[mine]) \
                    or (target == "store" and module != "store"):
                wrong.append(f"{module} imports {target}")
    return wrong


def test_no_import_circle_in_store_or_tui():
    assert circles(import_graph(ROOT)) == []


def test_each_wing_imports_only_what_its_charter_names():
    assert upward(import_graph(ROOT)) == []


def test_every_wing_is_a_package_with_a_charter():
    wings = {path.parent.name for path in (ROOT / "store").glob("*/__init__.py")}
    assert wings == set(MAY_IMPORT)
    assert not [p.name for p in (ROOT / "store").glob("*.py") if p.name != "__init__.py"], "a module outside a wing"
    for name in wings:
        charter = ast.get_docstring(ast.parse((ROOT / "store" / name / "__init__.py").read_text(encoding="utf-8")))
        assert charter and "Imports" in charter, f"store/{name}/__init__.py says what it owns and may import"


def write_package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("second", ["from store.papers import model\n", "def later():\n    from . import model\n"])
def test_a_circle_added_fails_the_contract(tmp_path, second):
    """The checks above catch what they are for: a circle (at the top of a module or inside a function)."""
    write_package(tmp_path, {
        "store/__init__.py": "", "store/papers/__init__.py": "", "store/common/__init__.py": "",
        "store/papers/model.py": "from store.papers.text import display\n",
        "store/papers/text.py": second,
        "store/common/files.py": "",
    })
    assert circles(import_graph(tmp_path, ("store",))) == [["store.papers.model", "store.papers.text"]]


def test_an_arrow_pointing_up_fails_the_contract(tmp_path):
    write_package(tmp_path, {
        "store/__init__.py": "", "store/papers/__init__.py": "", "store/marks/__init__.py": "",
        "store/marks/db.py": "from store.papers.model import Paper\n",
        "store/papers/model.py": "def stored():\n    from store.marks import db\n",
    })
    graph = import_graph(tmp_path, ("store",))
    assert upward(graph) == ["store.papers.model imports store.marks.db"]
    assert circles(graph) == [["store.marks.db", "store.papers.model"]]
