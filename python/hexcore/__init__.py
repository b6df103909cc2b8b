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
from typing import Any, List, Optional, Tuple, Union

import numpy as np

from . import records, reference, search
from ._args import bool_arg as _bool
from ._args import int_arg as _int
from ._core import Board, Churn, Hex, Quintun, Wunchunk, __version__, _Game
from .errors import GameOverError, HexcoreError, IllegalMoveError, NotationError, TooManyMovesError
from .records import from_json, to_json
from .registry import GAMES
from .search import BatchedSearchResult, SearchResult, batched_search, mcts
from .solving import Solution, solve
from .spec import load
from .summary import PlayoutSummary

Game = _Game




#: The largest ``threads`` that perft and random_playouts accept.
MAX_THREADS = 256


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return min(os.cpu_count() or 1, MAX_THREADS)
    return _int("threads", threads, 1, MAX_THREADS)


def perft(game: Game, depth: int, unit: str = "move", divide: bool = False,
          threads: Optional[int] = None) -> Union[int, List[Tuple[str, int]]]:
    """Number of move sequences of exactly ``depth`` moves from ``game``.

    ``unit="move"`` walks whole moves (bulk-counting the last level),
    ``unit="action"`` walks action ids; both count the same tree. With
    ``divide=True`` returns ``[(first step, count), ...]``. The GIL is
    released and the root is split over ``threads`` (default: all cores).
    """
    depth = _int("depth", depth, 0, 100_000)
    return game._perft(depth, unit, _threads(threads), _bool("divide", divide))


@dataclass(frozen=True)
class Playouts:
    """Results of ``random_playouts``: one entry per game."""

    plies: np.ndarray        # uint64, complete moves played
    actions: np.ndarray      # uint64, actions applied
    winner_mask: np.ndarray  # uint8, bit k-1 set when player k shares the win
    finished: np.ndarray     # bool, False if stopped by max_plies
    num_players: int = 2

    def summary(self) -> "PlayoutSummary":
        """The exact, combinable counts of these games (:class:`PlayoutSummary`)."""
        return PlayoutSummary.of(self.plies, self.actions, self.winner_mask, self.finished, self.num_players)

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
    n = _int("n", n, 0, 2**40)
    seed = _int("seed", seed, 0, 2**64 - 1)
    limit = 2**64 - 1 if max_plies is None else _int("max_plies", max_plies, 0, 2**64 - 1)
    plies, actions, winners, finished = game._playouts(n, seed, _threads(threads), limit)
    return Playouts(plies, actions, winners, finished, game.num_players)


def __getattr__(name: str) -> Any:
    # envs and openspiel need optional packages (and importing openspiel
    # registers the games with pyspiel), so they load on first use.
    if name in ("envs", "openspiel", "distributed", "vector", "render"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'hexcore' has no attribute {name!r}")


__all__ = [
    "Board", "Churn", "Hex", "Quintun", "Wunchunk", "GAMES", "Game", "Playouts", "PlayoutSummary", "load", "perft", "random_playouts", "reference",
    "records", "to_json", "from_json", "HexcoreError", "IllegalMoveError", "NotationError", "GameOverError", "TooManyMovesError", "__version__",
    "Solution", "solve", "search", "SearchResult", "mcts", "BatchedSearchResult", "batched_search",
]
