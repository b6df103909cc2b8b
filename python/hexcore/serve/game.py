"""What the web page asks of the engine, without any web framework: rebuild a
game from the page's description, describe a position for the page, play a
bot's turn, give a hint, read an uploaded record and evaluate a position.

A game travels between page and server as ``{"spec": ..., "setup": ...,
"tokens": [...]}``: the spec ``hc.load`` takes, an optional set-up start (the
``setup`` field of a hexcore JSON record) and the actions played, as the
engine writes them (``"c3"``, ``"swap"``, Wunchunk's ``"1e3"``, Quintun's
``"Ag13"``). The server keeps no game: every request replays its tokens, so
nothing a page sends can leave state behind.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .._args import int_arg, number_arg
from ..errors import HexcoreError
from ..match import Player, az_agent, derive_seed, parse_player
from ..records import from_abstractplay, from_dict
from ..registry import INFO, info, name_of
from ..render import svg
from ..spec import load, parse

__all__ = ["Limits", "LIMITS", "InputError", "build", "describe", "apply_token", "tokens_of", "tokens_played", "parse_seat",
           "bot_turn", "hint", "read_record", "evaluate", "heat_fills", "decisive", "result_text", "value_of", "number"]


class InputError(ValueError):
    """A request the server refuses; the message is shown on the page."""


class Limits:
    """The bounds on what one request may ask for (checked here, once)."""

    max_body = 512 * 1024            #: bytes of a request body (an uploaded record included)
    max_tokens = 4000                #: actions in one game
    max_spec = 200                   #: characters of a game spec
    max_bot_seconds = 30.0           #: a bot's time a turn
    max_bot_simulations = 200_000    #: a bot's simulations a turn
    max_eval_seconds = 60.0          #: solver time per analysed position
    max_eval_simulations = 100_000   #: search simulations per analysed position
    analyses = 2                     #: analyses running at once
    bots = 4                         #: bot turns and hints running at once
    reports = 1                      #: designer reports running at once
    max_report_games = 50            #: games per level of a designer report started from the page
    max_report_playouts = 20_000     #: random playouts of such a report


LIMITS = Limits()

#: an action's text: an optional colour (Wunchunk ``1``.., Quintun ``A``..) and a cell label
_ACTION = re.compile(r"([1-9A-Z]?)([a-z]+[0-9]+)")
_ENGINE_ERRORS = (HexcoreError, ValueError, TypeError, IndexError, OverflowError, KeyError)


def _message(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__


def _str(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise InputError(f"{what} must be a string, got {type(value).__name__}")
    if len(value) > limit:
        raise InputError(f"{what} is too long ({len(value)} characters, at most {limit})")
    return value


def tokens_of(value: Any) -> List[str]:
    """The list of action texts of a request: a list of strings, or one
    string with the actions (or whole moves) separated by commas, semicolons
    or spaces (``"c3,b4"``; a Wunchunk move ``"1e3,1d3"`` is two actions)."""
    if value is None:
        return []
    if isinstance(value, str):
        _str(value, "moves", LIMITS.max_tokens * 8)
        value = [t for t in re.split(r"[,;\s]+", value) if t]
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise InputError("moves must be a list of strings")
    out = [t for v in value for t in re.split(r"[,;\s]+", v) if t]
    if len(out) > LIMITS.max_tokens:
        raise InputError(f"a game may have at most {LIMITS.max_tokens} actions, got {len(out)}")
    if any(len(t) > 16 for t in out):
        raise InputError("an action is at most 16 characters")
    return out


def _legal(g: Any) -> Dict[str, int]:
    return {g.action_to_string(int(a)): int(a) for a in g.legal_actions()}


def apply_token(g: Any, token: str) -> None:
    """Plays one action given by its text. In a turn of several actions
    (Wunchunk) the engine takes them in increasing cell order; an action
    clicked out of order is put in its place (the turn so far is replayed
    with it). Raises ``InputError`` with the engine's reason otherwise."""
    if g.is_over:
        raise InputError(f"the game is over; {token!r} cannot be played")
    legal = _legal(g)
    if token in legal:
        g.apply_action(legal[token])
        return
    pending = [int(a) for a in g.pending_actions]
    if not pending:
        try:
            g.play(token)  # a whole move in the game's notation, or the engine's reason why not
        except _ENGINE_ERRORS as e:
            raise InputError(f"{token!r}: {_message(e)}") from None
        return
    texts = []
    c = g.copy()
    c.undo()  # takes back the turn in progress
    for a in pending:
        texts.append(c.action_to_string(a))
        c.apply_action(a)
    c.undo()
    start = _legal(c)
    if token not in start:
        some = sorted(legal)
        shown = ", ".join(some[:12]) + (f", ... ({len(some)} in all)" if len(some) > 12 else "")
        raise InputError(f"{token!r} is not legal here (legal now: {shown or 'none'})")
    order = sorted(pending + [start[token]])
    try:
        for a in order:
            c.apply_action(a)
    except _ENGINE_ERRORS:
        raise InputError(f"{token!r} cannot be added to this turn ({', '.join(texts)})") from None
    g.undo()
    for a in order:
        g.apply_action(a)


def _playable(g: Any) -> Dict[str, int]:
    """The actions :func:`apply_token` takes now: the legal ones, and in a
    turn in progress those that fit into it in their place."""
    legal = _legal(g)
    pending = [int(a) for a in g.pending_actions]
    if not pending:
        return legal
    c = g.copy()
    c.undo()
    for text, a in _legal(c).items():
        if text in legal or a in pending:
            continue
        d = c.copy()
        try:
            for x in sorted(pending + [a]):
                d.apply_action(x)
        except _ENGINE_ERRORS:
            continue
        legal[text] = a
    return legal


def build(game: Any) -> Any:
    """The engine game a request describes (``{"spec", "setup", "tokens"}``,
    or with ``"moves"`` in place of ``"tokens"``). Raises ``InputError``."""
    if not isinstance(game, Mapping):
        raise InputError(f"game must be an object with 'spec' and 'tokens', got {type(game).__name__}")
    spec = _str(game.get("spec", ""), "spec", LIMITS.max_spec)
    tokens = tokens_of(game.get("tokens", game.get("moves")))
    setup = game.get("setup")
    try:
        if setup is None:
            g = load(spec)
        else:
            name, _ = parse(spec)
            g = from_dict({"format": "hexcore-game", "version": 1, "game": name, "spec": spec, "setup": setup,
                           "actions": [], "moves": []})
    except _ENGINE_ERRORS as e:
        raise InputError(f"bad game {spec!r}: {_message(e)}") from None
    for i, t in enumerate(tokens):
        try:
            apply_token(g, t)
        except InputError as e:
            raise InputError(f"action {i + 1}: {e}") from None
    return g


def tokens_played(g: Any) -> Tuple[List[str], List[Dict[str, int]]]:
    """The texts of every action played in ``g`` (as ``build`` takes them),
    and for each whole move the seat that made it and the number of actions
    played once it was complete (``{"seat", "end"}``)."""
    c = g.copy()
    ids = [int(a) for a in c.actions]
    while c.history or len(c.pending_actions):
        c.undo()
    out: List[str] = []
    turns: List[Dict[str, int]] = []
    seat = int(c.to_move)
    for a in ids:
        if not len(c.pending_actions):
            seat = int(c.to_move)
        n = len(c.history)
        out.append(c.action_to_string(a))
        c.apply_action(a)
        if len(c.history) > n:
            turns.append({"seat": seat, "end": len(out)})
    return out, turns


def result_text(g: Any) -> str:
    """``"x (player 1) wins"``, ``"Draw"``, ... for a finished game; ``""`` otherwise."""
    if not g.is_over:
        return ""
    w = list(g.winners)
    names = _seat_names(g)
    if not w or len(w) == g.num_players:
        return "Draw"
    if len(w) == 1:
        return f"{names[w[0] - 1]} wins"
    return f"{' and '.join(names[s - 1] for s in w)} share the win"


def _seat_names(g: Any) -> List[str]:
    gi = info(g)
    base = list(gi.player_names) if gi is not None else []
    return [(f"{base[s]} (player {s + 1})" if s < len(base) else f"Player {s + 1}") for s in range(g.num_players)]


def _cell(board: Any, text: str) -> Optional[str]:
    m = _ACTION.fullmatch(text)
    if not m:
        return None
    try:
        board.index(m.group(2))
    except (ValueError, IndexError):
        return None
    return m.group(2)


def _previous(g: Any) -> Optional[Any]:
    """The position before the last whole move (None at the start)."""
    if not g.history:
        return None
    c = g.copy()
    if c.pending_actions:
        c.undo()
    c.undo()
    return c


def describe(g: Any, fills: Optional[Mapping[int, str]] = None) -> Dict[str, Any]:
    """The position for the page: the board's SVG (every cell an element
    with ``data-cell``), the legal actions with their cells, the last move's
    cells and the stones it removed, and the result."""
    board = g.board
    actions = [{"id": a, "text": t, "cell": _cell(board, t)} for t, a in _playable(g).items()] if not g.is_over else []
    cells = g.cells()
    prev = _previous(g)
    removed: List[str] = []
    if prev is not None:
        before = prev.cells()
        removed = [board.label(i) for i in range(board.num_cells) if before[i] != 0 and cells[i] == 0]
    last: List[str] = []
    if g.history:
        last = [c for c in (_cell(board, t) for t in re.split(r"[,\s]+", g.history[-1])) if c]
    gi = info(g)
    tokens, turns = tokens_played(g)
    return {
        "spec": g.spec,
        "game": name_of(g),
        "title": gi.title if gi is not None else name_of(g),
        "num_players": g.num_players,
        "seat_names": _seat_names(g),
        "to_move": int(g.to_move),
        "ply": int(g.ply),
        "is_over": bool(g.is_over),
        "winners": [int(w) for w in g.winners] if g.is_over else [],
        "result": result_text(g),
        "history": list(g.history),
        "tokens": tokens,
        "turns": turns,
        "pending": [g.action_to_string(int(a)) for a in g.pending_actions],
        "actions": actions,
        "last": last,
        "removed": removed,
        "svg": svg(g, fills=fills),
    }


def parse_seat(spec: Any, az_paths: Sequence[str] = ()) -> Optional[Player]:
    """A seat of the page: ``you`` (a person; returns None) or a player spec
    of :func:`hexcore.match.parse_player`, its budget within the server's
    limits. ``az:PATH`` is taken only for a path the server was started with
    (the page never names files)."""
    s = _str(spec, "player", 300).strip()
    if s.lower() in ("you", "human", "person", ""):
        return None
    try:
        p = parse_player(s)
    except (ValueError, TypeError) as e:
        raise InputError(_message(e)) from None
    if p.kind == "az" and p.path not in az_paths:
        raise InputError(f"az:{p.path}: this server plays only the az agents it was started with "
                         f"({', '.join(az_paths) or 'none'}; python -m hexcore serve --az PATH)")
    if p.seconds > LIMITS.max_bot_seconds:
        raise InputError(f"{s}: this server gives a bot at most {LIMITS.max_bot_seconds:g} seconds a move")
    if p.simulations > LIMITS.max_bot_simulations:
        raise InputError(f"{s}: this server gives a bot at most {LIMITS.max_bot_simulations} simulations a move")
    return p


def _to_play(g: Any, what: str) -> None:
    if g.is_over:
        raise InputError(f"the game is over: no {what}")
    if len(g.pending_actions):
        raise InputError(f"a turn is in progress: finish it or undo it before a {what}")


def bot_turn(g: Any, p: Player, seed: int = 0, agents: Optional[Dict[Tuple[str, str], Any]] = None,
             cancelled: Optional[Callable[[], bool]] = None) -> None:
    """Plays the bot ``p``'s whole turn on ``g`` with
    :func:`hexcore.match.play_player_turn` (one thread; the seed depends on
    ``seed`` and the ply). ``agents`` caches loaded agents by (player, game).
    ``cancelled`` stops a search or solver bot (:class:`hexcore.match.Cancelled`)."""
    import random

    from ..match import play_player_turn

    _to_play(g, "bot move")
    peer = None
    if p.kind in ("az", "agent"):
        key = (p.name, g.spec)
        if agents is not None and key in agents:
            peer = agents[key]
        else:
            try:
                peer = az_agent(p, g.spec)
            except (ValueError, KeyError, OSError, ImportError) as e:
                raise InputError(f"{p.name}: {_message(e)}") from None
            if agents is not None:
                agents[key] = peer
    s = derive_seed(seed, g.ply)
    try:
        play_player_turn(g, p, random.Random(s), s, 1, peer, cancelled)
    except (ImportError, OSError) as e:
        raise InputError(f"{p.name}: {_message(e)}") from None


def hint(g: Any, simulations: int = 2000, seed: int = 0) -> Dict[str, Any]:
    """A suggested move: the proven best where the solver settles the
    position within a second (two players), else UCT search's choice."""
    _to_play(g, "hint")
    ev = evaluate(g, solve_seconds=0.5, simulations=simulations, seed=seed)
    return {"move": ev["best"], "exact": ev["exact"], "value": ev["value"]}


def read_record(text: Any, game: Optional[str] = None) -> Dict[str, Any]:
    """A game from an uploaded record (parsed in memory): hexcore JSON
    (``{"format": "hexcore-game", ...}``), an Abstract Play record (a
    Wunchunk object, or a Churn list of moves; ``game`` may give a Churn
    spec such as ``churn(size=4)``), or one Abstract Play record out of a
    list of them (the first). Returns ``{"spec", "setup", "tokens"}``."""
    text = _str(text, "record", LIMITS.max_body)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise InputError(f"the record is not valid JSON: {e}") from None
    if isinstance(data, list) and data and all(isinstance(d, Mapping) for d in data):
        data = data[0]
    try:
        if isinstance(data, Mapping) and data.get("format") == "hexcore-game":
            g = from_dict(data)
        else:
            opts: Dict[str, Any] = {}
            name = None
            if game:
                name, opts = parse(_str(game, "game", LIMITS.max_spec))
                if name not in INFO or INFO[name].abstractplay is None:
                    raise InputError(f"{name} has no Abstract Play records")
            g = from_abstractplay(data, game=name, **({} if isinstance(data, Mapping) else opts)).game
    except InputError:
        raise
    except _ENGINE_ERRORS as e:
        raise InputError(f"the record cannot be read: {_message(e)}") from None
    from ..records import setup_of

    s = setup_of(g)
    setup = None if s is None else {"cells": s[0], "to_move": s[1], **s[2]}
    return {"spec": g.spec, "setup": setup, "tokens": tokens_played(g)[0]}


_VALUE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def value_of(g: Any, seat: int) -> float:
    """``seat``'s result of a finished game: 1 a win alone, 0.5 shared, 0 a loss."""
    w = list(g.winners)
    if seat not in w:
        return 0.0
    return 1.0 if len(w) == 1 else 0.5


def _agent_evaluation(g: Any, net: Any) -> Dict[str, Any]:
    """A network's view of ``g`` (the shipped agents' evaluator contract):
    the mover's share of the win, the turn its policy plays, and for every
    first action that ends the turn the mover's share after it."""
    import numpy as np

    from ..train.agent import play_turns

    def values(games: Sequence[Any]) -> Any:
        obs = np.stack([x.observation() for x in games]).astype(np.float32)
        masks = np.stack([x.legal_action_mask() for x in games])
        _, v = net(obs, masks)
        v = np.asarray(v, np.float64)
        if getattr(net, "relative_values", False):
            return v[:, 0]
        return np.array([v[i, int(x.to_move) - 1] for i, x in enumerate(games)])

    mover = int(g.to_move)
    value = float(values([g])[0])
    c = g.copy()
    play_turns([c], net, 0)
    best = c.history[-1] if len(c.history) > len(g.history) else None
    heat: Dict[str, float] = {}
    children, cells = [], []
    for a in g.legal_actions():
        cell = _cell(g.board, g.action_to_string(int(a)))
        if cell is None:
            continue
        child = g.copy()
        child.apply_action(int(a))
        if child.is_over:
            heat[cell] = max(heat.get(cell, 0.0), value_of(child, mover))
        elif not len(child.pending_actions) and g.num_players == 2:
            children.append(child)
            cells.append(cell)
    if children:
        for cell, v in zip(cells, values(children)):
            heat[cell] = max(heat.get(cell, 0.0), 1.0 - float(v))
    return {"value": value, "best": best, "heat": heat}


def evaluate(g: Any, solve_seconds: float = 1.0, simulations: int = 1000, seed: int = 0,
             stop: Optional[Callable[[], bool]] = None, agent: Any = None) -> Dict[str, Any]:
    """One position's evaluation, for the player to move: the exact value
    and a move of that value where :func:`hexcore.solve` settles it within
    ``solve_seconds`` (two players), else UCT search's (MCTS-Solver's, with
    two players) win probability (the root's visit-weighted mean value) and
    move after ``simulations``, or, given an ``agent`` (a network such as
    :func:`hexcore.agents.load` returns), the network's value and the turn
    its policy plays. ``heat`` maps a cell to the value of the best move
    starting there (0..1, for the player to move). ``stop()`` is asked
    while the solver runs."""
    from ..search import mcts
    from ..solving import solve

    out: Dict[str, Any] = {"ply": int(g.ply), "to_move": int(g.to_move), "exact": None, "value": None,
                           "best": None, "heat": {}, "method": None}
    if g.is_over:
        out.update(value=value_of(g, int(g.to_move)), method="end",
                   by_seat={str(s): value_of(g, s) for s in range(1, g.num_players + 1)})
        return out
    board = g.board

    class _Stop(Exception):
        pass

    def check(*_: Any) -> None:
        if stop is not None and stop():
            raise _Stop()

    heat: Dict[str, float] = {}
    if g.num_players == 2 and solve_seconds > 0:
        try:
            s = solve(g, max_seconds=solve_seconds, threads=1, table_mb=64, distances=False, progress=check)
        except _Stop:
            raise InterruptedError("stopped") from None
        if s.value is not None and s.complete:
            for move, v in s.moves.items():
                cells = [c for c in (_cell(board, t) for t in move.split(",")) if c]
                if v is not None and cells:
                    heat[cells[0]] = max(heat.get(cells[0], 0.0), _VALUE[v])
            out.update(exact=s.value, value=_VALUE[s.value], best=s.best_move, heat=heat, method="solver")
            return out
    check()
    if agent is not None:
        out.update(_agent_evaluation(g, agent), method="agent")
        return out
    r = mcts(g, simulations=simulations, threads=1, seed=derive_seed(seed, g.ply), solver=g.num_players == 2)
    total = float(r.visits.sum())
    # the root's mean value (visit-weighted over its actions): steadier than the chosen action's mean
    value = float((r.visits * r.values).sum() / total) if total > 0 else float(r.values[r.action])
    if r.proven is not None:
        value = _VALUE[r.proven]
    for a in range(len(r.visits)):
        if r.visits[a] > 0:
            c = _cell(board, g.action_to_string(a))
            if c:
                heat[c] = max(heat.get(c, 0.0), float(r.values[a]))
    out.update(exact=r.proven, value=value, best=r.move, heat=heat, method="search", simulations=r.simulations)
    return out


def heat_fills(heat: Mapping[str, float], board: Any) -> Dict[int, str]:
    """Cell fills for a heat map: red (0, a loss for the player to move)
    through yellow to green (1, a win)."""
    out = {}
    for label, v in heat.items():
        v = min(max(float(v), 0.0), 1.0)
        r = int(round(220 * min(1.0, 2 * (1 - v)) + 20))
        gr = int(round(200 * min(1.0, 2 * v) + 20))
        out[board.index(label)] = f"#{r:02x}{gr:02x}60"
    return out


def _for(ev: Mapping[str, Any], seat: int) -> float:
    """An evaluation's value for ``seat`` (two players)."""
    if ev.get("method") == "end":
        return float(ev["by_seat"][str(seat)])
    return float(ev["value"]) if ev["to_move"] == seat else 1.0 - float(ev["value"])


def decisive(evals: Sequence[Mapping[str, Any]], history: Sequence[str], num_players: int) -> List[Dict[str, Any]]:
    """The moves that changed the result, from the evaluations of every
    position (``evals[i]`` before move ``i``, the last one after the final
    move). Two-player games only (empty otherwise).

    * ``kind="exact"``: a move whose proven value for its player fell (a win
      to a draw or loss, a draw to a loss), with the move that kept it;
    * ``kind="mistake"``: between estimates, a move after which its player's
      win probability was 0.25 or more lower;
    * ``kind="turn"``: where no move is proven decisive, the move after
      which the eventual winner's estimate rose above one half for good.
    """
    out: List[Dict[str, Any]] = []
    if num_players != 2:
        return out
    for i, move in enumerate(history[:len(evals) - 1]):
        a, b = evals[i], evals[i + 1]
        if a.get("value") is None or b.get("value") is None:
            continue
        mover = int(a["to_move"])
        before, after = _for(a, mover), _for(b, mover)
        exact = a.get("exact") is not None and (b.get("exact") is not None or b.get("method") == "end")
        if not (before - after >= (0.5 if exact else 0.25) - 1e-9):
            continue
        best = a.get("best") if a.get("best") != move else None
        if exact:
            text = f"the game was {'lost' if after == 0 else 'drawn'} here"
            if best:
                text += f"; {best} would have {'won' if before == 1 else 'drawn'}"
        else:
            text = f"a mistake: win chance {before:.0%} before, {after:.0%} after"
            if best:
                text += f"; the search preferred {best}"
        out.append({"ply": i, "move": move, "player": mover, "before": before, "after": after, "exact": exact,
                    "best": best, "kind": "exact" if exact else "mistake", "text": text})
    last = evals[-1] if evals else {}
    if any(d["exact"] for d in out) or last.get("method") != "end" or len(evals) != len(history) + 1:
        return out
    winners = [int(k) for k, v in last["by_seat"].items() if v == 1.0]
    if len(winners) != 1:
        return out
    w = winners[0]
    series = [_for(ev, w) if ev.get("value") is not None else None for ev in evals]
    for i in range(len(history) - 1, -1, -1):
        was, now = series[i], series[i + 1]
        if was is not None and now is not None and was <= 0.5 < now:
            mover = int(evals[i]["to_move"])
            best = evals[i].get("best") if evals[i].get("best") != history[i] else None
            text = f"the game turned here: the winner's chance {was:.0%} before, {now:.0%} after"
            if mover != w and best:
                text += f"; the search preferred {best}"
            out.append({"ply": i, "move": history[i], "player": mover, "before": was, "after": now,
                        "exact": False, "best": best, "kind": "turn", "text": text})
            out.sort(key=lambda d: d["ply"])
            break
    return out


def number(body: Mapping[str, Any], key: str, default: float, lo: float, hi: float, integer: bool = False) -> Any:
    """A number field of a request, ``lo <= x <= hi`` (the package's argument
    checks, :mod:`hexcore._args`); ``InputError`` naming it otherwise."""
    x = body.get(key, default)
    try:
        if integer:
            return int_arg(key, x, int(lo), int(hi))
        v = number_arg(key, x)
    except (TypeError, ValueError) as e:
        raise InputError(str(e)) from None
    if not (math.isfinite(v) and lo <= v <= hi):
        raise InputError(f"{key} must be between {lo:g} and {hi:g}, got {x!r}")
    return v
