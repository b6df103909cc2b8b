"""The skill ladder: matches between consecutive levels of play, Elo
differences with 95% intervals, and the ladder's depth.

In the match between level ``i`` and the level below it, level ``i`` takes
one seat (rotating over the seats game by game) and the level below takes
every other seat. Level ``i`` scores 1 for a win alone and 1/k for a result
shared by k seats (a draw between two is 1/2). With ``n`` seats its Elo
difference to the level below is ``400 log10(gamma)`` for the strength ratio
``gamma = s (n - 1) / (1 - s)`` of the Bradley-Terry (Luce) model in which it
scores ``s`` on average; for two players this is the usual Elo formula. The
interval maps the 95% Wilson interval of ``s`` through the same formula; a
score of 0 or 1 is taken as half a game from it. The cumulative Elo of a
level (the weakest is 0) adds the steps below it; its interval is the
steps' intervals combined (see :func:`cumulative`): with one step it is that
step's interval. The depth is the number of levels in
the chain from the weakest in which each level wins at least the Elo
equivalent of 60% against the one below (gamma >= 1.5).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..match import Player, derive_seed, wilson
from .games import GameLog, play_games

__all__ = ["elo", "score", "step", "cumulative", "depth", "STEP_GAMMA"]

#: A step counts in the depth when the upper level's strength ratio is at least this (60% of a two-player match).
STEP_GAMMA = 1.5


def elo(s: float, seats: int, games: int) -> float:
    """Elo difference for an average score ``s`` against ``seats - 1`` opponents of the level below."""
    eps = 0.5 / max(games, 1)
    s = min(max(s, eps), 1 - eps)
    return 400 * math.log10(s * (seats - 1) / (1 - s))


def score(lg: GameLog, hero: int = 0) -> float:
    """The score of player ``hero`` in a game: 1 alone, 1/k when k seats share the result, else 0."""
    seat = lg.seating.index(hero) + 1
    return 1 / len(lg.winners) if seat in lg.winners else 0.0


def step(logs: Sequence[GameLog], seats: int) -> Dict[str, Any]:
    """Elo difference (with interval) of the upper level over the lower from the match's games."""
    n = len(logs)
    total = sum(score(lg) for lg in logs)
    s = total / n if n else 0.5
    lo, hi = wilson(total, n)  # type: ignore[arg-type]
    return {"games": n, "score": s, "elo": elo(s, seats, n), "ci": [elo(lo, seats, n), elo(hi, seats, n)]}


def cumulative(steps: Sequence[Dict[str, Any]]) -> Tuple[float, List[float]]:
    """The Elo of the top of a chain of ``steps`` (:func:`step` results,
    lowest first) over its bottom, and its 95% interval.

    The Elo is the sum of the steps'. The steps are independent matches, so
    their errors add like independent errors; each step's Wilson interval is
    lopsided, so its two sides are kept apart: the lower margin is the
    square root of the sum of the squares of the steps' lower margins
    (``elo - ci[0]``), and the upper margin likewise from the upper margins
    (``ci[1] - elo``). With one step this is exactly that step's interval;
    with several it is the usual root-sum-of-squares of independent errors,
    taken on each side. With no step: ``(0.0, [0.0, 0.0])``."""
    if len(steps) == 1:  # the step itself (the sums below would agree but for rounding)
        return steps[0]["elo"], [steps[0]["ci"][0], steps[0]["ci"][1]]
    total = sum((st["elo"] for st in steps), 0.0)
    below = math.sqrt(sum((st["elo"] - st["ci"][0]) ** 2 for st in steps))
    above = math.sqrt(sum((st["ci"][1] - st["elo"]) ** 2 for st in steps))
    return total, [total - below, total + above]


def depth(steps: Sequence[Dict[str, Any]], seats: int) -> int:
    """Levels in the chain from the weakest that each beat the one below by at least ``STEP_GAMMA``."""
    d = 1
    for st in steps:
        gamma = 10 ** (st["elo"] / 400)
        if gamma < STEP_GAMMA:
            break
        d += 1
    return d


def run(start: Any, players: Sequence[Tuple[str, Player]], games: int, seed: int, threads: int,
        progress: Optional[Callable[[int], None]] = None, ray: bool = False) -> Tuple[List[Dict[str, Any]], bool]:
    """Plays the matches of the ladder ``players`` (weakest first) and returns
    the ladder rows (see the module docstring) and whether it is complete."""
    seats = start.num_players
    rows: List[Dict[str, Any]] = [{"player": players[0][0], "elo": 0.0, "ci": [0.0, 0.0], "win_rate_vs_below": None}]
    steps: List[Dict[str, Any]] = []
    for i in range(1, len(players)):
        def seats_of(index: int) -> List[int]:
            hero = index % seats
            return [0 if s == hero else 1 for s in range(seats)]

        logs, complete = play_games(start, [players[i][1], players[i - 1][1]], games, derive_seed(seed, 2, i), threads, progress, seats_of,
                                    ray)
        if not logs:
            return rows, False
        st = step(logs, seats)
        steps.append(st)
        total, ci = cumulative(steps)
        rows.append({"player": players[i][0], "elo": total, "ci": ci, "win_rate_vs_below": st["score"], "step": st})
        if not complete:
            return rows, False
    return rows, True
