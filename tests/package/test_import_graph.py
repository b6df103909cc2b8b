"""No import cycles, in the Python package or between the Rust core's modules.
(Files are cut by concept, not by a line count.)

The Python graph holds every import of one package module by another, in
any scope (functions and ``if TYPE_CHECKING:`` blocks included). The Rust
graph holds, for each top-level module of ``rust/core/src`` (a file, or a
folder with its files), the other top-level modules its code names as
``crate::module``; unit tests (``#[cfg(test)]`` and below) and comments are
left out, and names re-exported at the crate root do not count.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Set

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "hexcore"
CORE = ROOT / "rust" / "core" / "src"


def _cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components of more than one node (Tarjan), plus self-loops."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    out: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_graph() -> Dict[str, Set[str]]:
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: Dict[str, Set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: List[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            for t in targets:
                # the deepest package module the import names
                while t and t not in files:
                    t = t.rpartition(".")[0]
                if t and t != mod and not mod.startswith(t + "."):
                    graph[mod].add(t)
    return graph


_COMMENT = re.compile(r"//[^\n]*")
_CRATE_PATH = re.compile(r"\bcrate::([a-z_][a-z0-9_]*)\b")


def rust_graph() -> Dict[str, Set[str]]:
    modules = {p.stem for p in CORE.glob("*.rs")} | {p.name for p in CORE.iterdir() if p.is_dir()}
    modules.discard("lib")
    graph: Dict[str, Set[str]] = {m: set() for m in modules}
    for path in CORE.rglob("*.rs"):
        rel = path.relative_to(CORE).parts
        mod = Path(rel[0]).stem
        if mod == "lib":
            continue
        text = path.read_text(encoding="utf-8")
        text = text.split("#[cfg(test)]")[0]
        text = _COMMENT.sub("", text)
        for name in _CRATE_PATH.findall(text):
            if name in modules and name != mod:
                graph[mod].add(name)
    return graph


def test_the_graphs_are_read():
    """The checks below see the package and the core (an empty graph would pass them)."""
    py, rs = python_graph(), rust_graph()
    assert "hexcore.match" in py["hexcore.cli.match"] or any("hexcore.match" in v for v in py.values())
    assert len(py) > 40 and sum(map(len, py.values())) > 60
    assert "game" in rs["catalog"] and "spec" in rs["catalog"] and "spec" in rs["game"]


def test_no_import_cycles_in_the_python_package():
    assert _cycles(python_graph()) == []


def test_no_cycles_between_the_rust_core_modules():
    assert _cycles(rust_graph()) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"a"}}) == [["a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
