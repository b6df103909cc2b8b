"""The binding layer: error classes and reasons, options, shared boards and
histories, and re-entrant calls (never a panic)."""
from __future__ import annotations

import ast
import builtins
import re
import typing
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest

import hexcore as hc
from hexcore import _core

ROOT = Path(__file__).resolve().parents[2]
GAMES: Dict[str, Callable[[], Any]] = {
    "churn": lambda: hc.Churn(size=3),
    "wunchunk": lambda: hc.Wunchunk(size=6, start="open"),
    "quintun": lambda: hc.Quintun(size=5),
    "hex": lambda: hc.Hex(size=5, swap=True),
    "havannah": lambda: hc.Havannah(size=4, swap=True),
    "y": lambda: hc.Y(size=7),
}


def _stub_reasons() -> List[str]:
    """The strings of `Reason = Literal[...]` in _core.pyi."""
    tree = ast.parse((ROOT / "python" / "hexcore" / "_core.pyi").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["Reason"]:
            sub = node.value
            assert isinstance(sub, ast.Subscript) and getattr(sub.value, "id", None) == "Literal"
            elts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
            return [ast.literal_eval(e) for e in elts]
    raise AssertionError("no Reason = Literal[...] in _core.pyi")


def test_reason_literal_matches_the_core():
    codes = _core._reason_codes()
    assert len(codes) == len(set(codes)) > 10
    assert _stub_reasons() == codes
    runtime = [typing.get_args(lit)[0] for lit in typing.get_args(_core.Reason)]
    assert runtime == codes


@pytest.mark.parametrize("game, move, cls, reason", [
    ("wunchunk", "3e1", hc.NotationError, "bad_colour"),
    ("quintun", "Fi1", hc.NotationError, "bad_colour"),
    ("churn", "zz99", hc.NotationError, "unknown_cell"),
    ("wunchunk", "1zz99", hc.NotationError, "unknown_cell"),
    ("quintun", "zz99", hc.NotationError, "unknown_cell"),
    ("wunchunk", "!!", hc.NotationError, "syntax"),
    ("quintun", "!!", hc.NotationError, "syntax"),
    ("hex", "zz99", hc.NotationError, "unknown_cell"),
    ("hex", "!!", hc.NotationError, "syntax"),
    ("havannah", "zz99", hc.NotationError, "unknown_cell"),
    ("havannah", "!!", hc.NotationError, "syntax"),
    ("y", "zz99", hc.NotationError, "unknown_cell"),
    ("y", "!!", hc.NotationError, "syntax"),
])
def test_the_same_mistake_is_the_same_error_in_every_game(game, move, cls, reason):
    g = GAMES[game]()
    with pytest.raises(cls) as err:
        g.play(move)
    assert type(err.value) is cls and err.value.reason == reason
    assert err.value.reason in _core._reason_codes()


@pytest.mark.parametrize("cls, kwargs, name", [
    (hc.Churn, {"size": "3"}, "size"),
    (hc.Churn, {"pie": 1}, "pie"),
    (hc.Churn, {"sides": "abc"}, "sides"),
    (hc.Churn, {"board": 3}, "board"),
    (hc.Board, {"size": "3"}, "size"),
    (hc.Wunchunk, {"size": "6"}, "size"),
    (hc.Wunchunk, {"players": True}, "players"),
    (hc.Wunchunk, {"start": 1}, "start"),
    (hc.Wunchunk, {"balance": "x"}, "balance"),
    (hc.Quintun, {"size": "7"}, "size"),
    (hc.Quintun, {"placement": 3}, "placement"),
    (hc.Quintun, {"swap": 1}, "swap"),
])
def test_bad_options_are_value_errors_naming_the_argument(cls, kwargs, name):
    with pytest.raises(ValueError) as err:
        cls(**kwargs)
    assert type(err.value) is ValueError and name in str(err.value)


def test_board_is_shared_and_compares_labels():
    g = hc.Churn(size=5)
    assert g.board is g.board and g.copy().board is g.board
    assert hc.Churn(size=7).board == hc.Board(size=7)
    assert hc.Quintun(size=7).board != hc.Board(size=7)  # other cell labels
    import timeit
    per_call = min(timeit.repeat(lambda: g.board, number=2000, repeat=5)) / 2000
    assert per_call < 5e-6


def test_copy_shares_the_history():
    g = hc.Churn(size=12)
    while g.ply < 300 and not g.is_over:
        g.apply_action(int(g.legal_actions()[0]))
    c = g.copy()
    assert c.history == g.history and c.actions == g.actions and c == g
    # Diverge both ways; each keeps its own history.
    before = list(g.actions)
    c.undo()
    c.undo()
    assert g.actions == before and c.actions == before[:-2]
    g.undo()
    c.apply_action(before[-2])
    assert c.actions == g.actions and c == g
    # Undo the copy to the start and replay: the original is intact.
    while c.actions:
        c.undo()
    assert g.actions == before[:-1] and c.ply == 0 and c == type(c)(size=12)


def test_strings_with_lone_surrogates():
    b = hc.Board(size=3)
    with pytest.raises(hc.NotationError):
        b.index("\ud800")
    for cls in (hc.Churn, hc.Wunchunk, hc.Quintun):
        with pytest.raises(hc.NotationError, match="not a cell"):
            cls.from_position({"\ud800": 1})
        with pytest.raises(hc.NotationError):
            cls().play("\ud800")


# ---------------------------------------------------------------- re-entry


def _is_panic(e: BaseException) -> bool:
    return type(e).__name__ == "PanicException"


def _state(g: Any) -> Tuple[Any, ...]:
    return (g.actions, g.history, g.to_move, g.zobrist, g.cells().tolist(), g.legal_actions().tolist())


def _reenter(games: List[Any]) -> None:
    """Call every public method of each game (undoing any change it makes)."""
    for g in games:
        for name in dir(g):
            if name.startswith("__") and name not in ("__str__", "__repr__", "__hash__", "__copy__"):
                continue
            if name in ("from_position", "replay", "_from_cells", "_setup_keys"):
                continue
            try:
                attr = getattr(g, name)
                if name in ("_perft",):
                    attr(1)
                elif name == "_playouts":
                    attr(1)
                elif callable(attr) and name not in ("apply_action", "play", "action_to_string", "undo"):
                    attr()
            except BaseException as e:
                assert not _is_panic(e), f"{name}: {e!r}"
        for call in (
            lambda: g.apply_action(int(g.legal_actions()[0])),
            lambda: g.play(g.legal_moves()[0]),
        ):
            try:
                n = len(g.actions)
                call()
                if len(g.actions) > n:
                    g.undo()
            except BaseException as e:
                assert not _is_panic(e), repr(e)
        for other in games:
            try:
                _ = g == other
                g.action_to_string(0)
            except BaseException as e:
                assert not _is_panic(e), repr(e)


class Sneaky(str):
    """An argument whose dunder methods re-enter the games."""

    games: List[Any] = []
    value = 0

    def __index__(self) -> int:
        _reenter(self.games)
        return self.value

    def __eq__(self, other: object) -> bool:
        _reenter(self.games)
        return False

    def __hash__(self) -> int:
        return 0

    def __str__(self) -> str:
        _reenter(self.games)
        return "c3"


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_reentrant_arguments_never_panic(game):
    g1, g2 = GAMES[game](), GAMES[game]()
    g2.apply_action(int(g2.legal_actions()[0]))
    Sneaky.games = [g1, g2]
    calls: List[Tuple[str, Callable[[Any, Any], Any]]] = [
        ("apply_action", lambda g, a: g.apply_action(a)),
        ("action_to_string", lambda g, a: g.action_to_string(a)),
        ("play", lambda g, a: g.play(a)),
        ("eq", lambda g, a: g == a),
        ("deepcopy", lambda g, a: g.__deepcopy__(a)),
    ]
    for value in (0, 10**6):
        Sneaky.value = value
        for name, call in calls:
            for g in (g1, g2):
                before = _state(g)
                try:
                    call(g, Sneaky("zz99"))
                except BaseException as e:
                    assert not _is_panic(e), f"{name}: {e!r}"
                    assert isinstance(e, (ValueError, TypeError, RuntimeError)), f"{name}: {e!r}"
                    assert _state(g) == before, name
                else:
                    if name == "apply_action":
                        g.undo()
    # g1 == g2 from inside g2.apply_action's __index__ (the original panic).

    class X:
        def __index__(self) -> int:
            assert (g1 == g2) in (True, False)
            return int(g2.legal_actions()[0])

    before = _state(g2)
    g2.apply_action(X())
    g2.undo()
    assert _state(g2) == before


# ---------------------------------------------------------------- the error table (docs/guides/games-api.md)


def _docs_error_table() -> List[Tuple[str, str]]:
    text = (ROOT / "docs" / "guides" / "games-api.md").read_text(encoding="utf-8")
    section = text.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        m = re.match(r"\|\s*`([^`]+)`\s*\|\s*(.*?)\s*\|\s*$", line)
        if m:
            rows.append((m.group(1), m.group(2)))
    return rows


def _finished(name: str) -> Any:
    g = GAMES[name]()
    while not g.is_over:
        g.apply_action(int(g.legal_actions()[0]))
    return g


# For each exception class of the table: one documented case per game.
CASES: Dict[str, Callable[[str], Tuple[Callable[[], Any], str]]] = {
    "IllegalMoveError": lambda n: ((lambda: GAMES[n]().apply_action(10**6)), ""),
    "NotationError": lambda n: ((lambda: GAMES[n]().play("zz99")), ""),
    "GameOverError": lambda n: ((lambda g=_finished(n): g.apply_action(int(0))), ""),
    "TooManyMovesError": lambda n: ((lambda: hc.Wunchunk(size=8, start="open").legal_moves()), ""),
    "ValueError": lambda n: ((lambda: {"churn": hc.Churn, "wunchunk": hc.Wunchunk, "quintun": hc.Quintun, "hex": hc.Hex,
                                    "havannah": hc.Havannah, "y": hc.Y}[n](size="big")), "size"),
    "TypeError": lambda n: ((lambda: GAMES[n]().apply_action("c3")), ""),
    "IndexError": lambda n: ((lambda: GAMES[n]().undo()), ""),
}


def test_docs_error_table():
    rows = _docs_error_table()
    names = [name.split("(")[0].removeprefix("hc.") for name, _ in rows]
    assert names[0] == "HexcoreError"
    assert set(names[1:]) == set(CASES), names
    for row, name in zip(rows[1:], names[1:]):
        exc = getattr(hc, name, None) or getattr(builtins, name)
        if name.endswith("Error") and hasattr(hc, name):
            assert issubclass(exc, hc.HexcoreError)
            for base in re.findall(r"\((.*)\)", row[0])[:1]:
                for b in base.split(","):
                    b = b.strip()
                    assert issubclass(exc, getattr(hc, b, None) or getattr(builtins, b)), (name, b)
        for game in GAMES:
            if name == "TooManyMovesError" and game != "wunchunk":
                continue
            trigger, must_name = CASES[name](game)
            with pytest.raises(exc) as err:
                trigger()
            if name in ("ValueError", "TypeError", "IndexError"):
                assert not isinstance(err.value, hc.HexcoreError), (game, name, err.value)
            if must_name:
                assert type(err.value) is ValueError and must_name in str(err.value), (game, err.value)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_string_to_action_inverts_action_to_string(game):
    g = GAMES[game]()
    assert [g.string_to_action(g.action_to_string(a)) for a in range(g.num_actions)] == list(range(g.num_actions))
    with pytest.raises(hc.NotationError, match="is not the text of an action") as e:
        g.string_to_action("zz99")
    assert e.value.reason == "syntax"
    with pytest.raises(TypeError):
        g.string_to_action(3)


@pytest.mark.parametrize("spec", ["churn(size=3)", "churn(size=3,pie=false)", "wunchunk(size=7,players=3)",
                                  "wunchunk(size=6,start=open)", "quintun(size=5)", "hex(size=5,swap=true)",
                                  "havannah(size=4,swap=true)", "y(size=7)"])
def test_string_to_action_inverts_every_legal_action_of_random_positions(spec):
    """``action_to_string`` and ``string_to_action`` are inverses on every
    legal action of seeded random positions (mid-turn, after a swap or pie,
    near the end), not only at the start: each legal action's text reads
    back as that action, in that position."""
    import random

    rng = random.Random(spec)
    checked = 0
    for _ in range(4):
        g = hc.load(spec)
        stop = rng.randrange(1, 40)
        while not g.is_over and len(g.actions) < stop:
            for a in g.legal_actions():
                text = g.action_to_string(int(a))
                assert g.string_to_action(text) == a, (g.history, int(a), text)
                checked += 1
            g.apply_action(int(rng.choice(list(g.legal_actions()))))
    assert checked > 0
