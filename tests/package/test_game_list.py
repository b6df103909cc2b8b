"""Adding a game is one folder plus one line in the list of games: no source
file outside the games' folders names a game.

The list is ``for_each_game!`` in ``rust/core/src/lib.rs``; a game's Rust code
lives in ``rust/core/src/games/<game>/`` and its class in
``rust/py/src/games/<game>.rs``; Python learns per-game facts from
``python/hexcore/registry.py``. Everywhere else (comments, docstrings, tests
and the stub ``_core.pyi`` excepted) a game's type or module name is a defect:
it is a per-game branch that the next game would have to find and extend.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterator, List, Tuple

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "rust/core/src/lib.rs"
GAME_DIRS = [ROOT / "rust/core/src/games", ROOT / "rust/py/src/games"]
# Python files allowed to name games: the registry (the Python list), the
# package root (it re-exports the classes by name, for type checkers) and the
# pure-Python reference oracles (one module per game).
PY_ALLOWED = ["python/hexcore/registry.py", "python/hexcore/__init__.py", "python/hexcore/reference/"]
# Content, not dispatch: the default report is a tour of Churn side 3 (it
# prints Churn's published figures).
PY_CONTENT = {("python/hexcore/cli/report.py", "churn")}


def games() -> List[Tuple[str, str]]:
    """(module, Type) per line of the list of games."""
    text = LIB.read_text()
    body = re.search(r"macro_rules! for_each_game \{(.*?)\n\}", text, re.S)
    assert body, "for_each_game! not found in lib.rs"
    found = re.findall(r"^\s*(\w+): (\w+),\s*$", body.group(1), re.M)
    assert found, "the list of games is empty"
    return found


def _name_pattern() -> re.Pattern[str]:
    types = "|".join(t for _, t in games())
    modules = "|".join(m for m, _ in games() if len(m) > 1)
    letters = "|".join(m for m, _ in games() if len(m) == 1)
    # A type inside a longer CamelCase name counts (``PyChurn``, ``ChurnUndo``),
    # not as the start of another word (``Hex`` in ``HexcoreError``) nor inside
    # an upper-case word (the ``Y`` of ``CYCLIC``). A one-letter module name
    # (``y``) counts as a path segment only (``y::``, ``::y``): alone it is a
    # coordinate.
    pattern = rf"\w*(?<![A-Z])(?:{types})(?![a-z])\w*|\b(?:{modules})\b"
    if letters:
        pattern += rf"|\b(?:{letters})(?=::)|(?<=::)(?:{letters})\b"
    return re.compile(pattern)


def strip_rust(text: str) -> str:
    """Rust source without comments, the list of games, and test-only code
    (``#[cfg(test)]`` items)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text.startswith('"', i):
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("'", i) and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]):
            j = text.index("'", i + 2 if text[i + 1] != "\\" else i + 3)
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("#[cfg(test)]", i):
            # Skip the item: up to its `;` or its balanced `{...}`.
            j = i + len("#[cfg(test)]")
            while j < n and text[j] not in "{;":
                j += 1
            if j < n and text[j] == "{":
                depth = 0
                while j < n:
                    depth += text[j] == "{"
                    depth -= text[j] == "}"
                    j += 1
                    if depth == 0:
                        break
            i = j + 1
        elif text.startswith("macro_rules! for_each_game", i):
            j = text.find("\n}", i)
            i = n if j < 0 else j + 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def rust_offences(text: str) -> List[str]:
    pat = _name_pattern()
    return [m.group(0) for m in pat.finditer(strip_rust(text))]


def python_offences(text: str) -> List[str]:
    """Identifiers (and non-docstring strings equal to a game's name) that name a game."""
    pat = _name_pattern()
    tree = ast.parse(text)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    names = {t for _, t in games()} | {m for m, _ in games()}
    found = []
    for node in ast.walk(tree):
        words: List[str] = []
        if isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.alias):
            words = [node.name, node.asname or ""]
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            words = [node.name]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in names:
                found.append(node.value)
        found += [w for w in words if w and pat.fullmatch(w)]
    return found


def rust_files() -> Iterator[Path]:
    for path in sorted((ROOT / "rust").glob("*/src/**/*.rs")):
        if any(d in path.parents for d in GAME_DIRS) or _test_module(path):
            continue
        yield path


def _test_module(path: Path) -> bool:
    """A ``tests.rs`` its parent module (the folder's ``mod.rs``, or the file
    ``<folder>.rs`` beside the folder) declares as ``#[cfg(test)] mod tests;``
    (tests, like ``#[cfg(test)]`` items, may name games)."""
    parents = [path.parent / "mod.rs", path.parent.with_suffix(".rs")]
    return path.name == "tests.rs" and any(p.exists() and "#[cfg(test)]\nmod tests;" in p.read_text() for p in parents)


def python_files() -> Iterator[Path]:
    for path in sorted((ROOT / "python/hexcore").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if not any(rel == a or (a.endswith("/") and rel.startswith(a)) for a in PY_ALLOWED):
            yield path


def test_the_list_names_the_games_with_a_folder_each() -> None:
    listed = games()
    assert [m for m, _ in listed] == sorted(set(m for m, _ in listed), key=[m for m, _ in listed].index)
    for module, _ in listed:
        assert (ROOT / "rust/core/src/games" / module / "mod.rs").is_file(), module
        assert (ROOT / "rust/py/src/games" / f"{module}.rs").is_file(), module


def test_no_rust_file_outside_the_game_folders_names_a_game() -> None:
    bad = {p.relative_to(ROOT).as_posix(): sorted(set(o)) for p in rust_files() if (o := rust_offences(p.read_text()))}
    assert not bad, f"per-game names outside rust/*/src/games/ and the list of games: {bad}"


def test_no_python_module_outside_the_registry_names_a_game() -> None:
    bad = {}
    for p in python_files():
        rel = p.relative_to(ROOT).as_posix()
        found = sorted({o for o in python_offences(p.read_text()) if (rel, o) not in PY_CONTENT})
        if found:
            bad[rel] = found
    assert not bad, f"per-game names outside python/hexcore/registry.py: {bad}"


def test_the_check_catches_a_game_named_in_a_shared_file() -> None:
    """The checks above can fail: a game type or module added to shared code
    is found, while the same words in comments, docs and tests are not."""
    vector = (ROOT / "rust/core/src/vector/mod.rs").read_text()
    assert rust_offences(vector) == []
    _, first = games()[0]
    module = games()[-1][0]
    assert rust_offences(vector + f"\nimpl BatchGame for crate::{first} {{}}\n") == [first]
    assert rust_offences(vector + f"\nuse crate::games::{module}::public;\n") == [module]
    assert rust_offences(f"/// {first}\nfn f() {{}} // {first}\n#[cfg(test)]\nmod tests {{ use crate::{first}; }}\n") == []
    assert rust_offences(f'fn f() -> &str {{ "x" }}\nstruct Py{first};\n') == [f"Py{first}"]
    search = (ROOT / "python/hexcore/search.py").read_text()
    assert python_offences(search) == []
    assert python_offences(search + f"\nX = _core.{first}\n") == [first]
    assert python_offences(search + f'\nC = {{"{first}": 1.0}}\n') == [first]
    assert python_offences(f'"""{first} in a docstring."""\n# {first}\n') == []
