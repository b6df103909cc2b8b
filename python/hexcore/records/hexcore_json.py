"""hexcore's own JSON game records (any game, any state).

``to_json(game)`` / ``from_json(text)`` round-trip a game exactly (equal
position, same history, actions and Zobrist hash), including set-up
positions (``from_position``) and unfinished multi-action turns::

    {"format": "hexcore-game", "version": 1, "game": "churn",
     "spec": "churn(size=3)", "setup": null,
     "actions": [9, 19], "moves": ["c3", "swap"], "winners": null}

``setup`` is ``{"cells": [...], "to_move": k}`` for a set-up start
(``cells`` as ``game.cells()``), plus any further ``from_position``
keywords that differ from their defaults (Wunchunk's ``colour1_turns``
and ``passes``). ``actions`` are replayed; ``moves`` and
``winners`` are checked against the replay. A hand-written record may give
``moves`` without ``actions``. Anything inconsistent raises ``ValueError``
naming the field.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from ..errors import HexcoreError
from ..registry import INFO, name_of
from ..spec import parse

if TYPE_CHECKING:
    from .._core import _Game

__all__ = ["FORMAT", "VERSION", "to_dict", "from_dict", "to_json", "from_json", "setup_of"]

FORMAT = "hexcore-game"
VERSION = 1

_ENGINE_ERRORS = (HexcoreError, ValueError, TypeError, IndexError, OverflowError, KeyError, RecursionError)


def setup_of(game: "_Game") -> Optional[Tuple[List[int], int, Dict[str, int]]]:
    """``(cells, to_move, extra)`` of the position a game was set up from
    (``from_position``), or None for a game played from its variant's start.
    ``extra`` holds the further ``from_position`` keywords whose values differ
    from their defaults (Wunchunk: ``colour1_turns``, ``passes``)."""
    fn = getattr(game, "_setup", None)
    if fn is not None:
        setup = fn()
    else:  # the pickle protocol carries the same information
        setup = game.__reduce__()[1][2]
    if setup is None:
        return None
    cells, to_move, *rest = setup
    extra = dict(rest[0]) if rest else {}
    return [int(c) for c in cells], int(to_move), {str(k): int(v) for k, v in extra.items()}


def to_dict(game: "_Game") -> Dict[str, Any]:
    """The record of ``game`` as plain JSON-ready data (see the module docstring)."""
    setup = setup_of(game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": name_of(game),
        "spec": game.spec,
        "setup": None if setup is None else {"cells": setup[0], "to_move": setup[1], **setup[2]},
        "actions": [int(a) for a in game.actions],
        "moves": list(game.history),
        "winners": list(game.winners) if game.is_over else None,
    }


def to_json(game: "_Game", indent: Optional[int] = None) -> str:
    """``game`` as hexcore JSON text; ``from_json`` rebuilds it exactly."""
    return json.dumps(to_dict(game), indent=indent)


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    return value


def _str_list(value: Any, what: str) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise ValueError(f"{what} must be a list of strings")
    return list(value)


def _engine(what: str, fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except _ENGINE_ERRORS as e:
        raise ValueError(f"{what}: {e}") from e


def from_dict(data: Mapping[str, Any]) -> "_Game":
    """Rebuild a game from ``to_dict`` data; raises ``ValueError`` on anything inconsistent."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a hexcore game record must be a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise ValueError(f"not a hexcore game record: 'format' must be {FORMAT!r}, got {data.get('format')!r}")
    version = _int(data.get("version"), "'version'")
    if version != VERSION:
        raise ValueError(f"unsupported hexcore record version {version} (this hexcore reads version {VERSION})")
    spec = data.get("spec")
    if not isinstance(spec, str):
        raise ValueError(f"'spec' must be a string, got {spec!r}")
    name, options = _engine("bad 'spec'", lambda: parse(spec))
    if name not in INFO:
        raise ValueError(f"'spec' names unknown game {name!r}; known games: {', '.join(sorted(INFO))}")
    if "game" in data and data["game"] != name:
        raise ValueError(f"'game' is {data['game']!r} but 'spec' is a {name} spec")
    cls = INFO[name].cls
    setup = data.get("setup")
    if setup is None:
        g: _Game = _engine("bad 'spec'", lambda: cls(**options))
    else:
        if not isinstance(setup, Mapping) or not {"cells", "to_move"} <= set(setup):
            raise ValueError("'setup' must be null or an object with 'cells' and 'to_move'")
        cells = setup["cells"]
        if not isinstance(cells, list):
            raise ValueError("'setup.cells' must be a list of integers")
        cell_values = [_int(c, f"'setup.cells[{i}]'") for i, c in enumerate(cells)]
        to_move = _int(setup["to_move"], "'setup.to_move'")
        extra = {k: _int(v, f"'setup.{k}'") for k, v in setup.items() if k not in ("cells", "to_move")}
        g = _engine("bad 'setup'", lambda: cls._from_cells(cell_values, to_move, **options, **extra))
        if setup_of(g) != (cell_values, to_move, extra):
            raise ValueError("bad 'setup': the engine does not reproduce it")
    moves = data.get("moves")
    if "actions" in data:
        actions = data["actions"]
        if not isinstance(actions, list):
            raise ValueError("'actions' must be a list of integers")
        for i, a in enumerate(actions):
            a = _int(a, f"'actions[{i}]'")
            _engine(f"'actions[{i}]' = {a} cannot be applied", lambda: g.apply_action(a))
        if moves is not None and _str_list(moves, "'moves'") != list(g.history):
            raise ValueError("'moves' do not match the moves the 'actions' make")
    elif moves is not None:
        for i, m in enumerate(_str_list(moves, "'moves'")):
            _engine(f"'moves[{i}]' = {m!r} cannot be played", lambda: g.play(m))
    else:
        raise ValueError("a hexcore game record needs 'actions' or 'moves'")
    if data.get("winners") is not None:
        winners = data["winners"]
        if not isinstance(winners, list) or not all(isinstance(w, int) for w in winners):
            raise ValueError("'winners' must be null or a list of seats")
        if not g.is_over or list(g.winners) != winners:
            got = list(g.winners) if g.is_over else "an unfinished game"
            raise ValueError(f"'winners' says {winners}, the replay gives {got}")
    elif "winners" in data and g.is_over:
        raise ValueError(f"'winners' is null but the replayed game is over (winners {list(g.winners)})")
    return g


def from_json(text: Union[str, bytes]) -> "_Game":
    """Rebuild a game from ``to_json`` text; raises ``ValueError`` (naming the
    problem) for malformed or inconsistent records."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"from_json needs JSON text, got {type(text).__name__}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
        raise ValueError(f"not valid JSON: {e}") from e
    return from_dict(data)
