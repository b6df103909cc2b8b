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

from dataclasses import dataclass
from typing import Any, List, Optional, Tuple, Union

import numpy as np

from . import records, reference, search
from ._core import MAX_DEPTH, MAX_PLAYOUTS, MAX_THREADS, Board, Churn, Quintun, Wunchunk, __version__, _Game
from .errors import GameOverError, HexcoreError, IllegalMoveError, NotationError, TooManyMovesError
from .records import from_json, to_json
from .registry import GAMES
from .search import BatchedSearchResult, SearchResult, batched_search, mcts
from .solving import Solution, solve
from .spec import load
from .summary import PlayoutSummary

Game = _Game




def perft(game: Game, depth: int, unit: str = "move", divide: bool = False,
          threads: Optional[int] = None) -> Union[int, List[Tuple[str, int]]]:
    """Number of move sequences of exactly ``depth`` moves from ``game``.

    ``unit="move"`` walks whole moves (bulk-counting the last level),
    ``unit="action"`` walks action ids; both count the same tree. With
    ``divide=True`` returns ``[(first step, count), ...]``. The GIL is
    released and the root is split over ``threads`` (default: all cores,
    ``hexcore._core.default_threads()``). ``depth`` is at most ``MAX_DEPTH``,
    ``threads`` at most ``MAX_THREADS``; the engine checks both.
    """
    return game._perft(depth, unit, threads, bool(divide))


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
    ``n`` is at most ``MAX_PLAYOUTS``; ``seed`` and ``max_plies`` are ints
    of up to 64 bits (the engine checks them).
    """
    plies, actions, winners, finished = game._playouts(n, seed, threads, max_plies)
    return Playouts(plies, actions, winners, finished, game.num_players)


def __getattr__(name: str) -> Any:
    # envs and openspiel need optional packages (and importing openspiel
    # registers the games with pyspiel), so they load on first use.
    if name in ("envs", "openspiel", "distributed", "vector"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'hexcore' has no attribute {name!r}")


__all__ = [
    "Board", "Churn", "Quintun", "Wunchunk", "GAMES", "Game", "Playouts", "PlayoutSummary", "load", "perft", "random_playouts", "reference",
    "records", "to_json", "from_json", "HexcoreError", "IllegalMoveError", "NotationError", "GameOverError", "TooManyMovesError", "__version__",
    "Solution", "solve", "search", "SearchResult", "mcts", "BatchedSearchResult", "batched_search", "MAX_THREADS", "MAX_DEPTH",
    "MAX_PLAYOUTS",
]
