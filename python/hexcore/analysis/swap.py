"""The swap map: for every first move, its value for the first player.

The openings are valued with the game's pie (swap) rule off (the registry's
``GameInfo.pie_rule``), since that rule is what the map is for: ``exact``
takes every opening's value from the solver (:func:`hexcore.solve` on the
starting position, two players, small boards), ``mcts:N`` plays self-play
games with N simulations a move after each opening and reports the first
player's score (1 for a win, 1/k for a result shared by k seats) with its
95% Wilson interval. When the spec has the pie rule on, each opening also
gets the second player's best answer under it: ``swap`` when the opening is
better than even for the first player (a win, or an interval above 1/2),
``play`` when it is worse (a loss, or an interval below 1/2), ``either``
otherwise; the value of the opening under the pie rule follows.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..errors import TooManyMovesError
from ..match import Player, derive_seed, parse_player, wilson
from ..registry import info
from ..solving import solve
from ..spec import parse
from .games import play_games

__all__ = ["EXACT_MAX_CELLS", "SwapPlan", "plan", "run", "opening_cells"]

#: The largest board (in cells) the exact swap map is attempted on.
EXACT_MAX_CELLS = 19


@dataclass(frozen=True)
class SwapPlan:
    """What the swap map will do: ``mode`` is ``"exact"``, ``"mcts"`` or
    ``"off"``; ``base`` the position the openings are played from (the pie
    rule off); ``pie`` whether the analysed spec has the pie rule on."""

    mode: str
    player: Optional[Player]
    base: Any
    openings: List[str]
    pie: bool
    reason: str = ""


def _pie_off(g: Any) -> Tuple[Any, bool]:
    gi = info(g)
    if gi is None or gi.pie_rule is None:
        return g, False
    option, on, off = gi.pie_rule
    if getattr(g, option, None) != on:
        return g, False
    name, kw = parse(g.spec)
    kw[option] = off
    return gi.cls(**kw), True


def plan(g: Any, mode: Optional[str]) -> SwapPlan:
    """Checks the swap-map mode against the game before anything runs
    (``ValueError`` saying why not). ``None`` picks ``exact`` where it
    applies and ``mcts:100`` otherwise."""
    if mode is not None and not isinstance(mode, str):
        raise TypeError(f"swap_map must be 'exact', 'mcts:N', 'off' or None, got {type(mode).__name__}")
    m = None if mode is None else mode.strip().lower()
    base, pie = _pie_off(g)
    if m == "off":
        return SwapPlan("off", None, base, [], pie, "not asked for (swap map off)")
    try:
        openings: List[str] = base.legal_moves()
    except TooManyMovesError:
        if m is not None:
            raise ValueError(f"swap map {mode!r}: {g.spec} has too many first moves to list") from None
        return SwapPlan("off", None, base, [], pie, "too many first moves to list")
    cells = int(g.board.num_cells)
    why_not = None
    if g.num_players != 2:
        why_not = f"the solver handles two players only and {g.spec} has {g.num_players}"
    elif cells > EXACT_MAX_CELLS:
        why_not = f"the board of {g.spec} has {cells} cells, more than the {EXACT_MAX_CELLS} the exact map is tried on"
    if m == "exact":
        if why_not:
            raise ValueError(f"swap map 'exact' is not possible: {why_not}; use --swap-map mcts:N")
        return SwapPlan("exact", None, base, openings, pie)
    if m is None:
        if why_not is None:
            return SwapPlan("exact", None, base, openings, pie)
        m = "mcts:100"
    if not m.startswith("mcts:"):
        raise ValueError(f"bad swap map {mode!r}: use 'exact', 'mcts:N' or 'off'")
    p = parse_player(m)
    return SwapPlan("mcts", p, base, openings, pie)


def _reply(v: Any, lo: float = 0.0, hi: float = 1.0) -> str:
    if v == "win" or lo > 0.5:
        return "swap"
    if v == "loss" or hi < 0.5:
        return "play"
    return "either"


_UNDER_PIE = {"win": "loss", "loss": "loss", "draw": "draw"}


def _first_score(winners: List[int]) -> float:
    """The first player's score: 1 alone, 1/k when k seats share the result, else 0."""
    return 1 / len(winners) if 1 in winners else 0.0


def run(sp: SwapPlan, games: int, seed: int, threads: int, max_nodes: Optional[int] = None,
        progress: Optional[Callable[[int], None]] = None, ray: bool = False) -> Tuple[Dict[str, Dict[str, Any]], bool]:
    """The swap map (opening text -> entry) and whether it is complete.
    ``max_nodes`` bounds the exact solve (openings it does not prove get
    the value None); it runs on ``threads`` threads (its values do not
    depend on them)."""
    out: Dict[str, Dict[str, Any]] = {}
    if sp.mode == "exact":
        s = solve(sp.base, max_nodes=max_nodes, threads=threads, distances=False)
        for m in sp.openings:
            v = s.moves.get(m)
            e: Dict[str, Any] = {"value": v}
            if sp.pie and v is not None:
                e["reply"] = _reply(v)
                e["value_with_pie"] = _UNDER_PIE[v]
            out[m] = e
        if progress is not None:
            progress(1)
        return out, s.complete
    if sp.mode != "mcts" or sp.player is None:
        return out, True
    for k, m in enumerate(sp.openings):
        g = sp.base.copy()
        g.play(m)
        if g.is_over:
            x = _first_score(list(g.winners))
            out[m] = {"win_rate": x, "ci": [x, x], "games": 0}
            if progress is not None:
                progress(games)
            continue
        logs, complete = play_games(g, [sp.player], games, derive_seed(seed, 3, k), threads, progress, ray=ray)
        if logs:
            total = sum(_first_score(lg.winners) for lg in logs)
            lo, hi = wilson(total, len(logs))  # type: ignore[arg-type]
            e = {"win_rate": total / len(logs), "ci": [lo, hi], "games": len(logs)}
            if sp.pie and sp.base.num_players == 2:
                e["reply"] = _reply(None, lo, hi)
            out[m] = e
        if not complete:
            return out, False
    return out, True


def opening_cells(board: Any, openings: List[str]) -> Optional[Dict[str, int]]:
    """The cell each opening places its stone on, when every opening is one
    distinct cell (then the map can be drawn on the board), else None."""
    from ..render import move_cells

    out: Dict[str, int] = {}
    for m in openings:
        cells = move_cells(board, m)
        if len(cells) != 1:
            return None
        out[m] = cells[0]
    return out if len(set(out.values())) == len(out) else None
