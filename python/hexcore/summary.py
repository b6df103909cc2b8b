"""Exact summaries of random playouts that combine across runs.

A :class:`PlayoutSummary` keeps integer counts only (a histogram of game
lengths, sums of plies and squared plies, wins per seat), so the summaries
of disjoint ranges of games add up to exactly the summary of the whole run,
whatever order they come back in. The Ray backend returns them instead of
per-game arrays for large runs; ``Playouts.summary()`` makes one from local
results.

>>> import hexcore as hc
>>> g = hc.Churn(size=3)
>>> a = hc.random_playouts(g, 300, seed=1)
>>> s = a.summary()
>>> s.games, s.finished
(300, 300)
>>> s == hc.random_playouts(g, 100, seed=1).summary() + hc.random_playouts(g, 200, seed=101).summary()
True
>>> round(s.mean, 6) == round(float(a.plies.mean()), 6)
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Dict, Tuple

import numpy as np

__all__ = ["PlayoutSummary"]


@dataclass(frozen=True, eq=True)
class PlayoutSummary:
    """Counts over a set of random games (see the module docstring).

    ``lengths`` maps a game length in plies (complete moves) to the number
    of games of that length, finished or not. ``wins[k]`` counts the games
    player ``k + 1`` won alone, ``shares[k]`` those it is among the winners
    of (a draw included); ``shared`` counts finished games won by two or more
    players but not all, and ``draws`` finished games every player won (the
    one draw rule: ``winners`` lists all seats). Games stopped by
    ``max_plies`` count in ``games`` and ``lengths`` only.
    """

    num_players: int
    games: int = 0
    finished: int = 0
    plies: int = 0
    plies_squared: int = 0
    actions: int = 0
    wins: Tuple[int, ...] = ()
    shares: Tuple[int, ...] = ()
    shared: int = 0
    draws: int = 0
    lengths: Dict[int, int] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not self.wins:
            object.__setattr__(self, "wins", (0,) * self.num_players)
        if not self.shares:
            object.__setattr__(self, "shares", (0,) * self.num_players)

    @classmethod
    def of(cls, plies: np.ndarray, actions: np.ndarray, winner_mask: np.ndarray, finished: np.ndarray,
           num_players: int) -> "PlayoutSummary":
        """The summary of per-game arrays (as in :class:`hexcore.Playouts`)."""
        plies = np.asarray(plies, dtype=np.uint64)
        mask = np.asarray(winner_mask, dtype=np.uint8)
        done = np.asarray(finished, dtype=bool)
        values, counts = np.unique(plies, return_counts=True)
        lengths = {int(v): int(c) for v, c in zip(values, counts)}
        bits = [(mask >> k) & 1 == 1 for k in range(num_players)]
        winners = sum((b.astype(np.int64) for b in bits), np.zeros(len(mask), dtype=np.int64))
        return cls(
            num_players=num_players,
            games=len(plies),
            finished=int(done.sum()),
            plies=sum(int(v) * c for v, c in lengths.items()),
            plies_squared=sum(int(v) ** 2 * c for v, c in lengths.items()),
            actions=sum(int(a) for a in np.asarray(actions, dtype=np.uint64).tolist()),
            wins=tuple(int((b & done & (winners == 1)).sum()) for b in bits),
            shares=tuple(int((b & done).sum()) for b in bits),
            shared=int((done & (winners >= 2) & (winners < num_players)).sum()),
            draws=int((done & (winners == num_players)).sum()),
            lengths=lengths,
        )

    def __add__(self, other: "PlayoutSummary") -> "PlayoutSummary":
        if not isinstance(other, PlayoutSummary):
            return NotImplemented
        if other.num_players != self.num_players:
            raise ValueError(f"cannot add summaries of {self.num_players} and {other.num_players} players")
        lengths = dict(self.lengths)
        for k, v in other.lengths.items():
            lengths[k] = lengths.get(k, 0) + v
        return PlayoutSummary(
            num_players=self.num_players,
            games=self.games + other.games,
            finished=self.finished + other.finished,
            plies=self.plies + other.plies,
            plies_squared=self.plies_squared + other.plies_squared,
            actions=self.actions + other.actions,
            wins=tuple(a + b for a, b in zip(self.wins, other.wins)),
            shares=tuple(a + b for a, b in zip(self.shares, other.shares)),
            shared=self.shared + other.shared,
            draws=self.draws + other.draws,
            lengths=dict(sorted(lengths.items())),
        )

    @property
    def mean(self) -> float:
        """Mean game length in plies (NaN for no games)."""
        return self.plies / self.games if self.games else math.nan

    @property
    def sd(self) -> float:
        """Standard deviation of the game length (population, as ``numpy.std``)."""
        if not self.games:
            return math.nan
        var = Fraction(self.plies_squared, self.games) - Fraction(self.plies, self.games) ** 2
        return math.sqrt(var)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile of the game length, interpolated linearly
        between order statistics as ``numpy.quantile`` does by default."""
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"q must be between 0 and 1, got {q}")
        if not self.games:
            return math.nan
        h = (self.games - 1) * q
        lo = math.floor(h)
        a, b = self._order(lo), self._order(min(lo + 1, self.games - 1))
        return a + (h - lo) * (b - a)

    def _order(self, i: int) -> int:
        """The ``i``-th smallest game length (0-based)."""
        seen = 0
        for v, c in sorted(self.lengths.items()):
            seen += c
            if i < seen:
                return v
        raise IndexError(i)

    def win_rate(self, player: int) -> float:
        """Share of all games that ``player`` (1-based) won alone."""
        if not 1 <= player <= self.num_players:
            raise ValueError(f"player must be between 1 and {self.num_players}, got {player}")
        return self.wins[player - 1] / self.games if self.games else math.nan

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-ready dict (``from_dict`` reads it back exactly)."""
        return {"num_players": self.num_players, "games": self.games, "finished": self.finished, "plies": self.plies,
                "plies_squared": self.plies_squared, "actions": self.actions, "wins": list(self.wins),
                "shares": list(self.shares), "shared": self.shared, "draws": self.draws,
                "lengths": [[k, v] for k, v in sorted(self.lengths.items())]}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "PlayoutSummary":
        return cls(num_players=int(d["num_players"]), games=int(d["games"]), finished=int(d["finished"]),
                   plies=int(d["plies"]), plies_squared=int(d["plies_squared"]), actions=int(d["actions"]),
                   wins=tuple(int(x) for x in d["wins"]), shares=tuple(int(x) for x in d["shares"]),
                   shared=int(d["shared"]), draws=int(d["draws"]), lengths={int(k): int(v) for k, v in d["lengths"]})
