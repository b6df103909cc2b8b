"""Exact targets: the solver's answers in place of self-play's guesses.

Where :func:`hexcore.solve` settles a self-play position within a small node
budget (the end of a Hex game, a dozen or more plies deep on 5x5 and 6x6),
its value target becomes the exact result, and, in a position its mover
wins, the policy target keeps only the winning moves (the search's policy
restricted to them; uniform over them where the search gave them nothing).
The positions of a game are solved from its end backwards, and the first
one the budget does not settle ends its game's solving (earlier positions
are harder), so a generation costs a few solver calls per game.

>>> import hexcore as hc
>>> from hexcore.train.exact import exact_result
>>> g = hc.Hex(size=3)
>>> r = exact_result(g, 10_000)
>>> r.values.tolist(), bool(r.policy_mask[g.string_to_action("b2")])
([1.0, 0.0], True)
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import numpy.typing as npt

from ..errors import NotationError, TooManyMovesError
from ..solving import solve

__all__ = ["ExactResult", "exact_result", "exact_targets"]

#: the transposition table of each of these small solves, in megabytes
TABLE_MB = 2


@dataclass
class ExactResult:
    """A settled position: ``values`` (per seat, seat ``k`` in column
    ``k - 1``: 1 for the winner, 1/2 each for a draw) and ``policy_mask``
    (bool over the actions: the moves of the best value, or ``None`` where
    the game's moves are not single actions)."""

    values: npt.NDArray[np.float32]
    policy_mask: Optional[npt.NDArray[np.bool_]]


def exact_result(game: Any, max_nodes: int, stop: Optional[threading.Event] = None) -> Optional[ExactResult]:
    """The solver's answer for ``game`` (two players, between turns, not
    over) within ``max_nodes`` nodes, or ``None`` where it is not settled
    (or the position has too many moves to solve). Setting ``stop`` ends
    the solve within about half a second with ``KeyboardInterrupt``."""

    def check(*_: Any) -> None:
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt

    try:
        s = solve(game, max_nodes=max_nodes, threads=1, table_mb=TABLE_MB, distances=False,
                  progress=None if stop is None else check)
    except TooManyMovesError:  # a multi-stone turn early in Wunchunk
        return None
    if not s.complete or s.value is None:
        return None
    mover = int(game.to_move) - 1
    values = np.full(2, 0.5, np.float32)
    if s.value != "draw":
        values[:] = 0.0
        values[mover if s.value == "win" else 1 - mover] = 1.0
    return ExactResult(values, _best_moves(game, s.moves, s.value))


def _best_moves(game: Any, moves: Dict[str, Optional[str]], value: str) -> Optional[npt.NDArray[np.bool_]]:
    legal: npt.NDArray[np.bool_] = np.asarray(game.legal_action_mask(), bool)
    mask = np.zeros_like(legal)
    seen = set()
    for text, v in moves.items():
        try:
            a = int(game.string_to_action(text))
        except NotationError:
            return None  # a move of several actions (Wunchunk, Quintun)
        if not legal[a] or a in seen:
            return None
        seen.add(a)
        mask[a] = v == value
    if not mask.any() or len(seen) != int(legal.sum()):
        return None  # each move one action, each action one move: else the policy is left alone
    return mask


def exact_targets(games: Sequence[Sequence[Any]], policies: List[npt.NDArray[np.float32]],
                  values: List[npt.NDArray[np.float64]], max_nodes: int, threads: int = 1) -> int:
    """Replaces the targets of the positions the solver settles, in place:
    ``games[i][j]`` is the ``j``-th recorded position of game ``i``,
    ``policies[i]`` and ``values[i]`` its targets (rows per position).
    Each game is solved from its last position back to the first one not
    settled within ``max_nodes``; the games are shared among ``threads``
    threads (the solver releases the GIL; the result does not depend on
    them). Returns the number of positions settled. Ctrl-C stops every
    thread's solve within about a second."""
    stop = threading.Event()

    def one(i: int) -> int:
        done = 0
        for j in range(len(games[i]) - 1, -1, -1):
            r = exact_result(games[i][j], max_nodes, stop)
            if r is None:
                break
            values[i][j] = r.values
            if r.policy_mask is not None:
                p = np.where(r.policy_mask, policies[i][j], 0.0)
                total = p.sum()
                policies[i][j] = p / total if total > 0 else r.policy_mask / r.policy_mask.sum()
            done += 1
        return done

    if threads <= 1 or len(games) <= 1:
        return sum(one(i) for i in range(len(games)))
    with ThreadPoolExecutor(max_workers=threads) as pool:
        futures = [pool.submit(one, i) for i in range(len(games))]
        try:
            return sum(f.result() for f in futures)
        except KeyboardInterrupt:  # the workers' solves poll ``stop``; the pool then ends at once
            stop.set()
            for f in futures:
                f.cancel()
            raise
