"""A game's facts about its rules (player names, pie rule, action bound, stone
planes, symmetry mapping) are declared once, in its facts table beside its
option table (``rust/core/src/games/<game>/options.rs``); the registry reads
them through the extension and keeps the values it had when it declared them
itself."""
import ast
import pathlib

import pytest

import hexcore as hc
from hexcore._core import _game_facts
from hexcore.registry import INFO

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The registry's values before the facts moved to the engine, recorded from it.
FACTS = {
    "churn": (("Red", "Blue"), ("pie", True, False), True, "all"),
    "quintun": (("Black", "White"), ("swap", True, False), True, "none"),
    "wunchunk": (("colour 1", "colour 2", "colour 3", "colour 4"), ("balance", "pie", "none"), True, "turn_start"),
    "hex": (("x", "o"), ("swap", True, False), True, "all"),
    "y": (("x", "o"), None, True, "all"),
    "havannah": (("x", "o"), ("swap", True, False), True, "all"),
}

# ``max_actions(game)`` per variant, recorded the same way (None: no bound).
MAX_ACTIONS = {
    "churn()": None, "churn(size=5)": None, "churn(size=4,pie=false)": None,
    "churn(sides=(3,4,3,4,3,4))": None, "churn(size=7,pie=true)": None,
    "quintun()": 128, "quintun(size=4)": 38, "quintun(size=7,swap=false)": 128, "quintun(size=5,placement=gap)": 62,
    "wunchunk()": 275, "wunchunk(size=5)": 185, "wunchunk(size=8,players=2,balance=pie)": 509,
    "wunchunk(players=2,start=open,balance=none)": 275, "wunchunk(players=3)": 679, "wunchunk(size=7,players=3)": 511,
    "wunchunk(players=4)": 849, "wunchunk(size=7,players=4,balance=none)": 639,
    "hex()": 122, "hex(size=7,swap=true)": 50, "hex(size=1)": 2, "hex(rows=3,cols=5)": 16, "hex(size=19,swap=false)": 362,
    "y()": 190, "y(size=5)": 15, "y(size=1)": 1,
    "havannah()": 170, "havannah(size=4,swap=true)": 38, "havannah(size=10,swap=false)": 272,
}


def test_every_game_is_recorded():
    assert set(FACTS) == set(INFO)
    assert {hc.load(spec).spec.split("(")[0] for spec in MAX_ACTIONS} == set(INFO)


@pytest.mark.parametrize("name", sorted(FACTS))
def test_registry_facts_are_unchanged(name):
    names, pie, stone_planes, augment = FACTS[name]
    gi = INFO[name]
    assert gi.player_names == names and type(gi.player_names) is tuple
    assert gi.pie_rule == pie
    if pie is not None:
        assert type(gi.pie_rule) is tuple and [type(v) for v in gi.pie_rule] == [type(v) for v in pie]
    assert gi.stone_planes is stone_planes
    assert gi.augment == augment and type(gi.augment) is str


@pytest.mark.parametrize("spec", sorted(MAX_ACTIONS))
def test_action_bounds_are_unchanged(spec):
    g = hc.load(spec)
    gi = INFO[spec.split("(")[0]]
    want = MAX_ACTIONS[spec]
    assert g.max_actions == want
    if want is None:
        assert gi.max_actions is None
    else:
        got = gi.max_actions(g)
        assert got == want and type(got) is int
        # the variant's bound, the same after moves
        g.apply_action(int(g.legal_actions()[0]))
        assert gi.max_actions(g) == want == g.max_actions
    assert g.copy().max_actions == want


def test_pie_rule_settings_build_the_variants():
    for name, gi in INFO.items():
        if gi.pie_rule is None:
            continue
        option, on, off = gi.pie_rule
        assert option in gi.options
        assert getattr(gi.cls(**{option: on}), option) == on
        assert getattr(gi.cls(**{option: off}), option) == off


def test_game_facts_is_the_engine_table():
    facts = _game_facts("hex")
    assert facts == {"player_names": ("x", "o"), "pie_rule": ("swap", True, False), "bounded": True,
                     "stone_planes": True, "augment": "all"}
    assert _game_facts("churn")["bounded"] is False
    with pytest.raises(ValueError, match="unknown game 'chess'; known games: churn, "):
        _game_facts("chess")
    with pytest.raises(TypeError):
        _game_facts(3)


def _literals(path: pathlib.Path):
    """The string constants of a Python file, docstrings left out."""
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    docs |= {id(node.value) for node in ast.walk(tree)
             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs}


def test_the_engine_table_is_the_only_declaration():
    registry = ROOT / "python" / "hexcore" / "registry.py"
    literals = _literals(registry)
    declared = set()
    for names, pie, _, augment in FACTS.values():
        declared |= set(names)
        if pie is not None:
            declared |= {v for v in pie if isinstance(v, str)}
        declared.add(augment)
    # "none" stays: GameInfo's default augment, for a game the engine does not know
    declared.discard("none")
    assert not literals & declared, sorted(literals & declared)
    text = registry.read_text()
    for keyword in ("player_names=", "pie_rule=(", "stone_planes=True", "augment=\""):
        assert keyword not in text, keyword
    # no action bound computed in Python: the one max_actions function reads the engine's
    functions = {node.name: node for node in ast.walk(ast.parse(text)) if isinstance(node, ast.FunctionDef)}
    assert [name for name in functions if "max_actions" in name] == ["_max_actions"]
    assert "game.max_actions" in ast.unparse(functions["_max_actions"])
    # each table is declared in the game's folder, beside its option table
    for name in INFO:
        options = (ROOT / "rust" / "core" / "src" / "games" / name / "options.rs").read_text()
        assert "const FACTS: GameFacts" in options, name
        for player in FACTS[name][0]:
            assert f'"{player}"' in options, (name, player)
