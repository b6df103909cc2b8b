"""The engine's own entry points over any game: ``perft`` and
``random_playouts`` (with its :class:`Playouts` arrays). The games, their
limits and the argument checks are the extension's (``hexcore._core``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple, Union

import numpy as np

from ._args import bool_arg as _bool
from ._args import keyword_only
from ._types import Game
from .summary import PlayoutSummary

__all__ = ["perft", "random_playouts", "Playouts"]


@keyword_only
def perft(game: Game, depth: int, *, unit: str = "move", divide: bool = False,
          threads: Optional[int] = None) -> Union[int, List[Tuple[str, int]]]:
    """Number of move sequences of exactly ``depth`` moves from ``game``.

    ``unit="move"`` walks whole moves (bulk-counting the last level),
    ``unit="action"`` walks action ids; both count the same tree. With
    ``divide=True`` returns ``[(first step, count), ...]``. The GIL is
    released and the root is split over ``threads`` (default: all cores,
    ``hexcore._core.default_threads()``). ``depth`` is at most ``MAX_DEPTH``,
    ``threads`` at most ``MAX_THREADS``; the engine checks both.
    """
    return game._perft(depth, unit, threads, _bool("divide", divide))


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


@keyword_only
def random_playouts(game: Game, n: int, *, seed: int = 0, threads: Optional[int] = None,
                    max_plies: Optional[int] = None) -> Playouts:
    """Play ``n`` uniformly random games from ``game`` in Rust (GIL released).

    Game ``i`` uses its own generator (Xoshiro256++ seeded with
    SplitMix64(seed + i)), so results are the same for any thread count.
    ``n`` is at most ``MAX_PLAYOUTS``; ``seed`` and ``max_plies`` are ints
    of up to 64 bits (the engine checks them).
    """
    plies, actions, winners, finished = game._playouts(n, seed, threads, max_plies)
    return Playouts(plies, actions, winners, finished, game.num_players)
