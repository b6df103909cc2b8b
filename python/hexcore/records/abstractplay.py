"""Abstract Play style game records.

``to_abstractplay(game)`` / ``from_abstractplay(record)``.

* Churn: a JSON list of moves, ``["c3", "swap", "a1", ...]`` (a list of
  rounds is read too). Board and pie options are given by the caller.
* Wunchunk: an object shaped like Abstract Play's game export
  (``{"players": 2, "size": 6, "open": true, "moves": [[m1, m2], ...],
  "seat_result": [1, 0], "seat_chunks": [1, 4], ...}``): ``moves`` are
  rounds of one move string per seat; after an open-start ``swap`` the
  round holds the ``pass`` the engine inserts for seat 1 (skipped on
  reading, written on writing); ``resign`` ends a record and is not a
  move. The balance variant is the record's ``"balance"`` if present, else
  ``"none"`` for games started before 2026-03-08 (when Abstract Play added
  its balance rule) and ``"ap"`` after.

``from_abstractplay`` returns an :class:`APRecord` (the replayed game, the
seat that resigned if any, and the record's other fields) and checks
``seat_result`` / ``seat_chunks`` when the record has them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .._args import keyword_only
from ..registry import INFO, name_of
from ..spec import parse
from .hexcore_json import _engine, _int, setup_of

__all__ = ["APRecord", "to_abstractplay", "from_abstractplay", "abstractplay_rounds", "AP_BALANCE_DATE"]

AP_BALANCE_DATE = "2026-03-08"  # Abstract Play's Wunchunk balance rule, from this date on


@dataclass
class APRecord:
    """An Abstract Play record read back: the replayed ``game``, the seat that
    ``resigned`` (None if the game ran to its end or stopped unfinished) and the
    record's other fields (``gameid``, dates, ...) in ``meta``."""

    game: Any
    resigned: Optional[int] = None
    meta: Dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> Tuple[int, ...]:
        """Winning seats: the game's winners, or with a resignation in a
        two-player game the other seat; ``()`` if undecided."""
        if self.resigned is not None:
            n = int(_num_players(self.game))
            return (3 - self.resigned,) if n == 2 else ()
        return tuple(self.game.winners) if self.game.is_over else ()


def _num_players(game: Any) -> int:
    n: Any = getattr(game, "num_players", None)
    if n is None:  # the pure-Python references call it ``players``
        n = getattr(game, "players", 2)
    return int(n)


def _options(game: Any) -> Dict[str, Any]:
    spec = getattr(game, "spec", None)
    if isinstance(spec, str):
        return dict(parse(spec)[1])
    # objects without a spec (the pure-Python references) keep their options as attributes
    return {k: getattr(game, k) for k in ("size", "players", "start", "balance") if hasattr(game, k)}


def _start_of(game: Any) -> Any:
    """A fresh game with ``game``'s options (records start from the variant's start)."""
    if hasattr(game, "spec") and setup_of(game) is not None:
        raise ValueError("Abstract Play records start from the variant's start position; this game was set up")
    return type(game)(**_options(game))


def abstractplay_rounds(game: Any, resigned: Optional[int] = None) -> List[List[str]]:
    """``game``'s moves as Abstract Play rounds: one move per seat and round,
    with the engine-inserted ``pass`` (after an open-start ``swap``) written
    out, and ``"resign"`` for ``resigned`` (a seat, which must be the player to
    move in an unfinished game)."""
    n = _num_players(game)
    if list(getattr(game, "pending_actions", []) or []):
        raise ValueError("the game is in the middle of a turn; Abstract Play records hold whole moves")
    replay = _start_of(game)
    flat: List[str] = []
    for i, m in enumerate(game.history):
        for _ in range(n):
            if len(flat) % n + 1 == replay.to_move:
                break
            flat.append("pass")  # a pass the engine made for this seat
        else:  # pragma: no cover - to_move is always a seat
            raise ValueError(f"cannot place move {i} ({m!r}) in a round")
        replay.play(m)
        flat.append(m)
    if resigned is not None:
        if game.is_over:
            raise ValueError("a finished game has no resignation")
        if resigned != game.to_move:
            raise ValueError(f"only the player to move ({game.to_move}) can resign, got {resigned!r}")
        while len(flat) % n + 1 != resigned:
            flat.append("pass")
        flat.append("resign")
    return [flat[i:i + n] for i in range(0, len(flat), n)]


def _seat_chunks(game: Any) -> Optional[List[int]]:
    scores = getattr(game, "scores", None)
    if scores is None:
        return None
    try:
        vecs = scores()
        out = [int(v[0]) for v in vecs]
    except (TypeError, IndexError, ValueError):
        return None
    return out if len(out) == _num_players(game) else None


def to_abstractplay(game: Any, resigned: Optional[int] = None, **meta: Any) -> str:
    """An Abstract Play style record of ``game`` as JSON text (Churn: a list of
    moves; Wunchunk: an object with rounds, see the module docstring). ``meta``
    adds fields (``gameid``, ``date_start``, ...) to a Wunchunk record."""
    name = name_of(game)
    shape = _ap_shape(name)
    if shape == "moves":
        if meta:
            raise ValueError(f"a {INFO[name].title} record is a plain list of moves; it has no other fields")
        rounds = abstractplay_rounds(game, resigned)
        return json.dumps([m for r in rounds for m in r])
    opts = _options(game)
    n = _num_players(game)
    board = getattr(game, "board", None)
    size = opts.get("size")
    if size is None and board is not None and hasattr(board, "side_lengths"):
        size = int(board.side_lengths[0])
    record: Dict[str, Any] = dict(meta)
    record.update({"open": opts.get("start", "standard") == "open", "players": n, "size": size})
    balance = opts.get("balance", "ap")
    if balance != "ap":
        record["balance"] = balance
    record["moves"] = abstractplay_rounds(game, resigned)
    finished = game.is_over or (resigned is not None and n == 2)
    if finished:
        if resigned is not None:
            record["seat_result"] = [0 if s == resigned else 1 for s in range(1, n + 1)]
        else:
            record["seat_result"] = [1 if s in game.winners else 0 for s in range(1, n + 1)]
        chunks = _seat_chunks(game)
        if chunks is not None:
            record["seat_chunks"] = chunks
    return json.dumps(record)


_AP_GAMES = [name for name, gi in INFO.items() if gi.abstractplay is not None]
# the game a record of each shape is read as when the caller does not say
_AP_DEFAULT = {gi.abstractplay: name for name, gi in sorted(INFO.items()) if gi.abstractplay is not None}


def _ap_shape(name: Any) -> str:
    """The Abstract Play record shape of game ``name``; ValueError for games without one."""
    gi = INFO.get(name) if isinstance(name, str) else None
    if gi is None or gi.abstractplay is None:
        raise ValueError(f"Abstract Play records are supported for {' and '.join(_AP_GAMES)}, not {name!r}")
    return gi.abstractplay


def _flatten(moves: Any, what: str) -> List[str]:
    if not isinstance(moves, list):
        raise ValueError(f"{what} must be a list of moves or of rounds of moves")
    flat: List[str] = []
    for i, item in enumerate(moves):
        if isinstance(item, str):
            flat.append(item)
        elif isinstance(item, list) and all(isinstance(m, str) for m in item):
            flat.extend(item)
        else:
            raise ValueError(f"{what}[{i}] must be a move string or a list of move strings, got {item!r}")
    return flat


def _replay(flat: Sequence[str], game: Any, n: int) -> Optional[int]:
    """Play an Abstract Play move list (one entry per seat in turn) into ``game``;
    returns the seat that resigned, if any."""
    for i, raw in enumerate(flat):
        seat = i % n + 1
        move = raw.strip()
        if move.lower() == "resign":
            if i != len(flat) - 1:
                raise ValueError(f"move {i + 1}: 'resign' must be the last entry of a record")
            if game.is_over:
                raise ValueError(f"move {i + 1}: 'resign' after the end of the game")
            if game.to_move != seat:
                raise ValueError(f"move {i + 1}: seat {seat} resigns but seat {game.to_move} is to move")
            return seat
        if game.is_over:
            raise ValueError(f"move {i + 1} ({move!r}) comes after the end of the game")
        if game.to_move != seat:
            # the engine moved for this seat (the pass inserted after an open-start swap)
            if move.lower() != "pass":
                raise ValueError(f"move {i + 1} ({move!r}) is recorded for seat {seat}, "
                                 f"but seat {game.to_move} is to move")
            continue
        _engine(f"move {i + 1} ({move!r}, seat {seat}) is illegal", lambda: game.play(move))
    return None


def _wunchunk_options(record: Mapping[str, Any], overrides: Dict[str, Any]) -> Dict[str, Any]:
    opts: Dict[str, Any] = {}
    for key in ("players", "size"):
        if key in record:
            opts[key] = _int(record[key], f"'{key}'")
    if "open" in record:
        if not isinstance(record["open"], bool):
            raise ValueError(f"'open' must be true or false, got {record['open']!r}")
        opts["start"] = "open" if record["open"] else "standard"
    if "balance" in record:
        opts["balance"] = record["balance"]
    elif isinstance(record.get("date_start"), str):
        opts["balance"] = "none" if record["date_start"] < AP_BALANCE_DATE else "ap"
    opts.update(overrides)
    return opts


@keyword_only
def from_abstractplay(record: Any, *, game: Optional[str] = None, cls: Optional[Callable[..., Any]] = None,
                      check: bool = True, **options: Any) -> APRecord:
    """Replay an Abstract Play style record (JSON text or parsed data).

    ``game`` is ``"churn"`` or ``"wunchunk"`` (default: a list is Churn, an
    object Wunchunk); ``cls`` the game class to replay with (default
    ``hexcore.GAMES[game]``); ``options`` override the game options (Churn:
    ``size``/``board``/``pie``...; Wunchunk: read from the record). With
    ``check`` the record's ``seat_result`` and ``seat_chunks`` must match the
    replay. Raises ``ValueError`` for malformed, illegal or inconsistent records.
    """
    if isinstance(record, (str, bytes, bytearray)):
        try:
            record = json.loads(record)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
            raise ValueError(f"not valid JSON: {e}") from e
    if game is None:
        game = _AP_DEFAULT["moves" if isinstance(record, list) else "rounds"]
    shape = _ap_shape(game)
    title = INFO[game].title
    if cls is None:
        cls = INFO[game].cls
    meta: Dict[str, Any] = {}
    if shape == "moves":
        if isinstance(record, Mapping):
            meta = {k: v for k, v in record.items() if k != "moves"}
            record = record.get("moves")
        flat = _flatten(record, f"a {title} record")
        opts = dict(options)
    else:
        if not isinstance(record, Mapping):
            raise ValueError(f"a {title} record must be a JSON object, got {type(record).__name__}")
        if "moves" not in record:
            raise ValueError(f"a {title} record needs 'moves'")
        flat = _flatten(record["moves"], "'moves'")
        rounds = record["moves"]
        meta = {k: v for k, v in record.items() if k != "moves"}
        opts = _wunchunk_options(record, options)
    g = _engine(f"bad {game} options {opts}", lambda: cls(**opts))
    n = _num_players(g)
    if shape == "rounds" and any(not isinstance(r, list) or len(r) > n for r in rounds):
        raise ValueError(f"'moves' must be rounds of at most {n} moves (one per seat)")
    resigned = _replay(flat, g, n)
    out = APRecord(g, resigned, meta)
    if check and shape == "rounds":
        _check_result(out, record, n)
    return out


def _check_result(rec: APRecord, record: Mapping[str, Any], n: int) -> None:
    g = rec.game
    if "seat_result" in record:
        res = record["seat_result"]
        if not isinstance(res, list) or len(res) != n or not all(isinstance(x, (int, float)) for x in res):
            raise ValueError(f"'seat_result' must be a list of {n} numbers")
        claimed = tuple(s for s in range(1, n + 1) if res[s - 1] == 1)
        if rec.resigned is None and not g.is_over:
            raise ValueError("'seat_result' is given but the replayed game is not over")
        if (rec.resigned is None or n == 2) and claimed != rec.winners:
            raise ValueError(f"'seat_result' says seats {list(claimed)} won, the replay gives {list(rec.winners)}")
    if "seat_chunks" in record:
        chunks = _seat_chunks(g)
        if chunks is not None and record["seat_chunks"] != chunks:
            raise ValueError(f"'seat_chunks' is {record['seat_chunks']!r}, the replay gives {chunks}")
