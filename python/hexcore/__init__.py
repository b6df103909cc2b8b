"""hexcore: fast, exact rules engines for hex-grid abstract games.

>>> import hexcore as hc
>>> g = hc.Churn(size=3)
>>> len(g.legal_moves())
19
>>> g.play("c3")
'c3'
>>> g.legal_moves()[:3]
['a1', 'a2', 'a3']
>>> hc.perft(hc.Churn(size=3), 2)
361
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

from . import reference
from ._core import Board, Churn, __version__
from .errors import GameOverError, HexcoreError, IllegalMoveError, NotationError, TooManyMovesError
from .spec import load

GAMES: Dict[str, Any] = {"churn": Churn}

Game = Union[Churn]


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return os.cpu_count() or 1
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise ValueError(f"threads must be a positive int or None, got {threads!r}")
    return threads


def perft(game: Game, depth: int, unit: str = "move", divide: bool = False,
          threads: Optional[int] = None) -> Union[int, List[Tuple[str, int]]]:
    """Number of move sequences of exactly ``depth`` moves from ``game``.

    ``unit="move"`` walks whole moves (bulk-counting the last level),
    ``unit="action"`` walks action ids; both count the same tree. With
    ``divide=True`` returns ``[(first step, count), ...]``. The GIL is
    released and the root is split over ``threads`` (default: all cores).
    """
    if not isinstance(depth, int) or isinstance(depth, bool):
        raise TypeError(f"depth must be an int, got {type(depth).__name__}")
    return game._perft(depth, unit, _threads(threads), bool(divide))


@dataclass(frozen=True)
class Playouts:
    """Results of ``random_playouts``: one entry per game."""

    plies: np.ndarray        # uint64, complete moves played
    actions: np.ndarray      # uint64, actions applied
    winner_mask: np.ndarray  # uint8, bit k-1 set when player k shares the win
    finished: np.ndarray     # bool, False if stopped by max_plies

    @property
    def winners(self) -> np.ndarray:
        """int8 per game: the sole winner, 0 for a draw or shared win, -1 if unfinished."""
        m = self.winner_mask.astype(np.int64)
        single = (m != 0) & ((m & (m - 1)) == 0)
        out = np.where(single, np.log2(np.maximum(m, 1)).astype(np.int64) + 1, 0)
        return np.where(self.finished, out, -1).astype(np.int8)

    def __len__(self) -> int:
        return len(self.plies)


def random_playouts(game: Game, n: int, seed: int = 0, threads: Optional[int] = None,
                    max_plies: Optional[int] = None) -> Playouts:
    """Play ``n`` uniformly random games from ``game`` in Rust (GIL released).

    Game ``i`` uses its own generator (Xoshiro256++ seeded with
    SplitMix64(seed + i)), so results are the same for any thread count.
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in [0, 2**64), got {seed!r}")
    limit = 2**64 - 1 if max_plies is None else max_plies
    if not isinstance(limit, int) or limit < 0:
        raise ValueError(f"max_plies must be a non-negative int, got {max_plies!r}")
    plies, actions, winners, finished = game._playouts(n, seed, _threads(threads), limit)
    return Playouts(plies, actions, winners, finished)


__all__ = [
    "Board", "Churn", "GAMES", "Game", "Playouts", "load", "perft", "random_playouts", "reference",
    "HexcoreError", "IllegalMoveError", "NotationError", "GameOverError", "TooManyMovesError", "__version__",
]
