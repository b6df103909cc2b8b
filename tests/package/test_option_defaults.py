"""Each option's default is declared once, in the engine's option table
(``rust/core/src/games/<game>/options.rs``); everything else that states a
default must agree with it: the classes, the spec strings, the pure-Python
reference oracles, the class docs and the README."""
import ast
import inspect
import pathlib
import re

import pytest

import hexcore as hc
import hexcore.reference as ref
from hexcore._core import _game_options
from hexcore.registry import INFO
from hexcore.spec import parse

ROOT = pathlib.Path(__file__).resolve().parents[2]
NAMES = sorted(INFO)


def _keywords(call: str):
    """``k=v`` pairs of a call written in Python (``Quintun(size=7, swap=True)``),
    the first alternative where the docs write ``"ap"|"pie"``."""
    call = re.sub(r'\s*\\?\|\s*([a-z]+=\([^)]*\)|[a-z]+="[^"]*"|"[^"]*"|\w+)', "", call)
    tree = ast.parse(call, mode="eval").body
    assert isinstance(tree, ast.Call), call
    return {k.arg: ast.literal_eval(k.value) for k in tree.keywords}


def test_the_table_lists_every_constructor_keyword():
    for name in NAMES:
        cls = INFO[name].cls
        table = [k for k, _, _ in _game_options(name)]
        assert set(table) == set(INFO[name].options)
        sig = re.search(r"\((.*)\)", cls.__text_signature__ or "")
        if sig:
            params = [p.strip().split("=")[0].lstrip("*") for p in sig.group(1).split(",")]
            assert [p for p in params if p and p not in ("$cls", "/")] == table, name


@pytest.mark.parametrize("name", NAMES)
def test_engine_classes_and_specs_use_the_table_defaults(name):
    info = INFO[name]
    defaults = info.defaults()
    assert defaults, name
    g = info.cls()
    for key, value in defaults.items():
        if hasattr(g, key) and key != "board":
            assert getattr(g, key) == value, (name, key)
    # the spec printed for the default game reads back as the defaults
    printed = parse(g.spec)[1]
    for key, value in printed.items():
        if key in defaults:
            assert value == defaults[key], (name, key, g.spec)
    # and an empty spec is the same game
    assert hc.load(f"{name}()") == g and hc.load(name) == g


@pytest.mark.parametrize("name", NAMES)
def test_reference_oracles_take_the_same_defaults(name):
    info = INFO[name]
    cls = getattr(ref, info.reference_name)
    defaults = info.defaults()
    sig = inspect.signature(cls.__init__)
    checked = 0
    for key, p in sig.parameters.items():
        if key in defaults and p.default is not inspect.Parameter.empty and p.default is not None:
            assert p.default == defaults[key], (name, key, p.default, defaults[key])
            checked += 1
    # options left None in the signature are defaulted in the body: compare built games
    r = cls()
    for key, value in defaults.items():
        if hasattr(r, key) and not callable(getattr(r, key)) and key != "board":
            assert getattr(r, key) == value, (name, key)
            checked += 1
    assert checked, name


def test_defaults_that_depend_on_other_options():
    w = INFO["wunchunk"]
    assert w.defaults(players=2)["size"] == 6
    for players in (3, 4):
        size = w.defaults(players=players)["size"]
        assert size == 8
        assert hc.Wunchunk(players=players).size == size
        assert ref.Wunchunk(players=players).size == size
        assert hc.load(f"wunchunk(players={players})").size == size


@pytest.mark.parametrize("name", NAMES)
def test_binding_docs_state_the_table_defaults(name):
    info = INFO[name]
    title = info.title
    doc = "\n".join(line.strip().removeprefix("///").strip() for line in
                    (ROOT / "rust" / "py" / "src" / "games" / f"{name}.rs").read_text().splitlines()
                    if line.strip().startswith("///"))
    calls = re.findall(rf"`{title}\(([^`]*)\)`", doc)
    assert calls, (name, doc)
    defaults = info.defaults()
    seen = 0
    for args in calls:
        for key, value in _keywords(f"{title}({args})").items():
            if key in defaults:
                assert value == defaults[key], (name, key, value)
                seen += 1
    assert seen, name


def test_readme_states_the_table_defaults():
    text = (ROOT / "README.md").read_text()
    seen = set()
    for title, args in re.findall(r"\| `hc\.(\w+)\(([^`]*)\)` \|", text):
        name = title.lower()
        if name not in INFO:
            continue
        for key, value in _keywords(f"{title}({args})").items():
            assert value == INFO[name].defaults()[key], (title, key, value)
            seen.add(name)
    # the comments of the examples: `hc.Wunchunk(size=6)   # players=2, start="standard", balance="ap"`
    for title, args, comment in re.findall(r"hc\.(\w+)\(([^)]*)\)\s+# ([a-z_]+=.*)", text):
        name = title.lower()
        if name not in INFO:
            continue
        for key, value in _keywords(f"{title}({args}, {comment})").items():
            assert value == INFO[name].defaults()[key], (title, key, value)
            seen.add(name)
    assert seen == set(INFO)
