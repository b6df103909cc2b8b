"""A plain minimax over whole moves, the oracle the exact solver is checked
against, and the small random endgames it is checked on.

The minimax walks every move of every position through the public API
(``legal_moves``, ``copy``, ``play``, ``winners``): no pruning, no table, no
symmetry, no action-level shortcut. Each position gets its value and its
distance to the end (plies, whole turns) under perfect play: the side that
wins hurries, the side that loses delays. Values are per seat, so a turn that
keeps the same player to move (an open-start ``swap``) needs nothing special.

``ENDGAMES`` is the list of games and options checked; adding a game is one
line there.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

import hexcore as hc

NAMES = {1: "win", 0: "draw", -1: "loss"}


class TooBig(Exception):
    """The oracle's node budget ran out: the check fails, it is never skipped."""


def outcome(g: Any) -> int:
    """A finished two-player game's value for seat 1: 1 win, -1 loss, 0 draw
    (both seats win, or none)."""
    w = tuple(g.winners)
    if len(w) != 1:
        return 0
    return 1 if w[0] == 1 else -1


def preference(value: int, plies: int) -> Tuple[int, int]:
    """Sort key of a (value, plies) result for the player it belongs to,
    larger is better: a win first and soonest, a loss last and latest (a
    draw's length does not matter)."""
    return (value, -plies if value > 0 else plies if value < 0 else 0)


def minimax(g: Any, budget: List[int]) -> Tuple[int, int]:
    """(value for seat 1, plies to the end) of ``g`` with perfect play.
    At most ``budget[0]`` positions are visited, else :class:`TooBig`."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig("the minimax budget ran out: choose smaller endgames")
    if g.is_over:
        return outcome(g), 0
    sign = 1 if g.to_move == 1 else -1
    best: Optional[Tuple[int, int]] = None
    for m in g.legal_moves():
        c = g.copy()
        c.play(m)
        v, d = minimax(c, budget)
        if best is None or preference(sign * v, d + 1) > preference(sign * best[0], best[1]):
            best = (v, d + 1)
    assert best is not None, f"an unfinished game without a move: {g!r}"
    return best


def move_results(g: Any, budget: List[int]) -> Dict[str, Tuple[int, int]]:
    """Every legal move of ``g`` (between turns): its value for the player
    making it, and the plies from ``g`` to the end with perfect play after
    it, the move included."""
    sign = 1 if g.to_move == 1 else -1
    out = {}
    for m in g.legal_moves():
        c = g.copy()
        c.play(m)
        v, d = minimax(c, budget)
        out[m] = (sign * v, d + 1)
    return out


def short_turn(g: Any, move: str) -> bool:
    """A Wunchunk placement of fewer stones than the allotment allows."""
    return move not in ("pass", "swap") and move.count(",") + 1 < min(g.allotment, int((g.cells() == 0).sum()))


@dataclass(frozen=True)
class Endgame:
    """Random endgames of one game: ``count`` positions, each with a number
    of empty cells drawn from ``empty``, for the minimax; ``larger`` empty
    cells for the positions too large for it, where each move's value and
    distance are checked against a fresh solve of the position after it.
    ``features`` name kinds of move (a predicate on the position and the
    move) of which at least one must be checked, so the sample cannot drift
    away from what it is meant to cover."""

    name: str
    make: Callable[[], Any]
    empty: Tuple[int, ...]
    count: int
    features: Dict[str, Callable[[Any, str], bool]] = field(default_factory=dict)
    larger: Tuple[int, ...] = ()


WUNCHUNK = {
    "multi-stone turn": lambda g, m: "," in m,
    "turn short of the allotment": short_turn,
    "pass": lambda g, m: m == "pass",
}

# One line per game and set of options. Sized so that every position's
# minimax stays far inside its budget (the positions are the same on every
# run: the random generator is seeded with the name).
ENDGAMES = [
    Endgame("churn-2", lambda: hc.Churn(size=2, pie=False), (1, 2, 3, 4, 5, 6, 7), 250),
    Endgame("churn-2-pie", lambda: hc.Churn(size=2, pie=True), (3, 4, 5, 6), 150, {"swap": lambda g, m: m == "swap"}),
    Endgame("churn-10", lambda: hc.Churn(sides=(2, 2, 3, 2, 2, 3), pie=False), (1, 2, 3, 4, 5), 250),
    Endgame("churn-12-pie", lambda: hc.Churn(sides=(2, 3, 2, 3, 2, 3), pie=True), (1, 2, 3), 250),
    Endgame("churn-3", lambda: hc.Churn(size=3, pie=False), (1,), 250, larger=(3, 4)),
    Endgame("wunchunk", lambda: hc.Wunchunk(size=5, balance="none"), (1, 2, 3, 3, 3, 4), 250, WUNCHUNK, (5, 6)),
    Endgame("wunchunk-ap", lambda: hc.Wunchunk(size=5, balance="ap"), (1, 2, 3, 3, 3, 4), 250, WUNCHUNK, (5, 6)),
    Endgame("wunchunk-pie", lambda: hc.Wunchunk(size=5, balance="pie"), (1, 2, 3, 3, 3, 4), 250, WUNCHUNK, (5, 6)),
    Endgame("wunchunk-open", lambda: hc.Wunchunk(size=5, start="open"), (1, 2, 3, 3, 3, 4), 250,
            {**WUNCHUNK, "seats swapped": lambda g, m: g.seat_colour[1] == 2}, (5, 6)),
    Endgame("quintun-side", lambda: hc.Quintun(size=4, placement="side"), (2, 3, 4, 5, 6, 7), 400, larger=(9, 11)),
    Endgame("quintun-gap", lambda: hc.Quintun(size=4, placement="gap", swap=False), (2, 3, 4, 5, 6, 7), 400, larger=(9, 11)),
    Endgame("hex-4", lambda: hc.Hex(size=4), (2, 3, 4, 5, 6, 7), 250, larger=(9, 11)),
    Endgame("hex-5", lambda: hc.Hex(size=5), (4, 5, 6, 7), 150, larger=(10, 12)),
    Endgame("hex-2-swap", lambda: hc.Hex(size=2, swap=True), (2, 3), 100, {"swap": lambda g, m: m == "swap"}),
    Endgame("hex-3-swap", lambda: hc.Hex(size=3, swap=True), (4, 5, 6, 7), 150),
    Endgame("hex-3x5", lambda: hc.Hex(rows=3, cols=5), (2, 3, 4, 5, 6, 7), 250),
    Endgame("y-5", lambda: hc.Y(size=5), (2, 3, 4, 5, 6, 7), 200, larger=(9, 11)),
    Endgame("y-6", lambda: hc.Y(size=6), (3, 4, 5, 6, 7), 150, larger=(9, 11)),
    Endgame("y-7", lambda: hc.Y(size=7), (4, 5, 6, 7), 100, larger=(9, 11)),
    Endgame("havannah-2-swap", lambda: hc.Havannah(size=2, swap=True), (4, 5, 6), 100, {"swap": lambda g, m: g.swap_available}),
    Endgame("havannah-3", lambda: hc.Havannah(size=3), (2, 3, 4, 5, 6, 7), 200, larger=(9, 11)),
    Endgame("havannah-3-swap", lambda: hc.Havannah(size=3, swap=True), (3, 4, 5, 6, 7), 100),
    Endgame("havannah-4", lambda: hc.Havannah(size=4), (4, 5, 6, 7), 100, larger=(9, 11)),
]


def random_endgame(game: Any, rng: random.Random, empty: int) -> Any:
    """The first position between turns with at most ``empty`` empty cells
    in a random game from ``game`` (a random legal action at a time); a game
    that ends first is dropped and another one played."""
    for _ in range(1_000):
        g = game.copy()
        while not g.is_over:
            if int((g.cells() == 0).sum()) <= empty and not g.pending_actions:
                return g
            g.apply_action(int(rng.choice(g.legal_actions())))
    raise AssertionError(f"no random game of {game.spec} reached {empty} empty cells")
