"""Exact solving: the game value of a position under perfect play.

>>> import hexcore as hc
>>> s = hc.solve(hc.Churn(size=2, pie=False))
>>> s.value, s.best_move, s.complete
('win', 'b2', True)
>>> s.moves["a1"]
'loss'
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional

import numpy as np

from . import _core
from ._args import bool_arg, int_arg

__all__ = ["Solution", "solve"]

Progress = Callable[[int, int, int, float], Any]


@dataclass(frozen=True)
class Solution:
    """The result of :func:`solve`; values are for the player to move.

    ``value`` is ``"win"``, ``"loss"``, ``"draw"`` or ``None`` when the budget
    ran out before it was proved. ``moves`` maps every legal move's text to
    its value for the player making it (``None`` if not proved). ``best_move``
    is a move of the best value, the quickest win or the slowest loss when
    ``plies_to_end`` (the number of plies, whole turns, to the end of the
    game after it with perfect play) is known.
    """

    value: Optional[str]
    moves: Dict[str, Optional[str]] = field(repr=False)
    best_move: Optional[str]
    plies_to_end: Optional[int]
    nodes: int
    seconds: float
    complete: bool
    table_entries: int
    table_capacity: int = 0
    symmetries: int = 1

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0




def solve(game: Any, max_seconds: Optional[float] = None, max_nodes: Optional[int] = None,
          threads: Optional[int] = None, table_mb: int = 256,
          progress: Optional[Progress] = None, distances: bool = True) -> Solution:
    """Solve ``game``'s position (a two-player Churn, Wunchunk, Quintun or Hex
    between turns) exactly.

    The search stops after ``max_seconds`` or ``max_nodes`` and then returns
    what it proved, with ``complete=False``; a value it reports is never
    wrong. ``threads`` (default: all cores) share the root moves and one
    transposition table of ``table_mb`` megabytes; the values do not depend
    on the thread count. The GIL is released and Ctrl-C interrupts.
    ``progress(nodes, table_entries, table_capacity, seconds)`` is called
    about twice a second. ``distances=False`` skips the second pass that
    proves the distance to the end for the best moves (``plies_to_end`` is
    then ``None`` and ``best_move`` is any move of the best value).
    """
    if max_seconds is not None:
        if isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float, np.integer, np.floating)):
            raise TypeError(f"max_seconds must be a number, got {type(max_seconds).__name__}")
        if not (math.isfinite(max_seconds) and max_seconds > 0):
            raise ValueError(f"max_seconds must be a positive number, got {max_seconds}")
        max_seconds = float(max_seconds)
    if max_nodes is not None:
        max_nodes = int_arg("max_nodes", max_nodes, 1, 2**63 - 1)
    table_mb = int_arg("table_mb", table_mb, 1, 1 << 20)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable (nodes, table_entries, table_capacity, seconds) or None, "
                        f"got {type(progress).__name__}")
    distances = bool_arg("distances", distances)
    n = getattr(game, "num_players", None)
    if n is not None and n != 2:
        raise ValueError(f"the solver handles two-player games only; this game has {n} players")
    r = _core._solve(game, max_seconds, max_nodes, threads, table_mb, progress, distances)
    moves = {text: value for text, value in r["moves"]}
    best = r["best"]
    return Solution(
        value=r["value"],
        moves=moves,
        best_move=None if best is None else r["moves"][best][0],
        plies_to_end=r["plies_to_end"],
        nodes=r["nodes"],
        seconds=r["seconds"],
        complete=r["complete"],
        table_entries=r["table_entries"],
        table_capacity=r["table_capacity"],
        symmetries=r["symmetries"],
    )
