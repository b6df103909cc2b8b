"""Playing the games an analysis needs: seeded, in parallel over threads,
with a record of every turn (:class:`GameLog`).

Each game gets its seeds from ``(seed, game index)`` only (see
:func:`hexcore.match.play_game`) and every search runs on one thread, so the
games are the same whatever the number of threads playing them at once; the
logs come back in game order. A stop (Ctrl-C) ends the games being played
after their current turn and keeps the finished ones.
"""
from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .._types import Game
from ..errors import TooManyMovesError
from ..match import Player, load_agents, play_at_once, play_game, seating
from ..search import SearchResult

__all__ = ["GameLog", "Interrupted", "play_games"]


class Interrupted(Exception):
    """Raised inside a game thread to stop it after a stop request."""


@dataclass
class GameLog:
    """What one game showed, turn by turn.

    ``branching[t]`` is the number of legal whole moves before turn ``t``
    (``None`` when the game could not count them); ``removed[t]`` the stones
    taken off the board by turn ``t``; ``evals[t]`` the value in [0, 1] the
    searching player gave its chosen move at turn ``t`` (``None`` for a
    player without a search) and ``movers[t]`` the seat that played it.
    ``seating[s]`` is the player index in seat ``s + 1``."""

    index: int
    seating: List[int]
    winners: List[int] = field(default_factory=list)
    plies: int = 0
    actions: int = 0
    cells: int = 0
    covered: int = 0
    occupied: int = 0
    values: Tuple[int, ...] = ()
    branching: List[Optional[int]] = field(default_factory=list)
    removed: List[int] = field(default_factory=list)
    evals: List[Optional[float]] = field(default_factory=list)
    movers: List[int] = field(default_factory=list)

    @property
    def log10_tree(self) -> Optional[float]:
        """log10 of the product of the branching along the game (None if a count is missing)."""
        if any(b is None for b in self.branching):
            return None
        return sum(math.log10(b) for b in self.branching if b)


def _count(g: Any) -> Optional[int]:
    try:
        return int(g.count_moves())
    except (TooManyMovesError, OverflowError):
        return None


class _Recorder:
    """The ``on_turn`` hook of :func:`hexcore.match.play_game` that fills a :class:`GameLog`."""

    def __init__(self, log: GameLog, stop: threading.Event) -> None:
        self.log, self.stop = log, stop
        self.prev: Any = None
        self.ever: Any = None
        self.seen: set[int] = set()
        self.mover = 0

    def __call__(self, g: Any, r: Optional[SearchResult]) -> None:
        if self.stop.is_set():
            raise Interrupted()
        cells = g.cells()
        self.seen.update(int(v) for v in set(cells.tolist()))
        if self.prev is not None:
            self.log.removed.append(int(((self.prev != 0) & (cells == 0)).sum()))
            self.log.movers.append(self.mover)
            self.log.evals.append(None if r is None else float(r.values[r.action]))
            self.ever |= cells != 0
        else:
            self.ever = cells != 0
        self.prev = cells
        if not g.is_over:
            self.mover = int(g.to_move)
            self.log.branching.append(_count(g))


def _play_one(start: Game, players: Sequence[Player], seed: int, index: int, stop: threading.Event,
              seats: Optional[Callable[[int], List[int]]], agents: Optional[Dict[int, Any]] = None) -> GameLog:
    n = start.num_players
    seat_of = seats(index) if seats is not None else seating(index, n) if len(players) == n else [0] * n
    log = GameLog(index, seat_of)
    rec = _Recorder(log, stop)
    g = play_game(start, players, seat_of, seed, index, threads=1, on_turn=rec, agents=agents)
    log.winners = list(g.winners)
    log.plies = int(g.ply) - int(start.ply)
    log.actions = len(g.actions) - len(start.actions)
    log.cells = int(g.board.num_cells)
    log.covered = int(rec.ever.sum())
    log.occupied = int((g.cells() != 0).sum())
    log.values = tuple(sorted(rec.seen))
    return log


def _play_anywhere(start: Game, players: Sequence[Player], seed: int, seats: Optional[Callable[[int], List[int]]],
                   index: int) -> GameLog:
    """One game on a Ray worker (no stop request reaches it there: Ray cancels the task)."""
    return _play_one(start, players, seed, index, threading.Event(), seats)


def play_games(start: Game, players: Sequence[Player], games: int, seed: int, threads: Optional[int] = 1,
               progress: Optional[Callable[[int], None]] = None,
               seats: Optional[Callable[[int], List[int]]] = None, ray: bool = False) -> Tuple[List[GameLog], bool]:
    """Plays ``games`` games from ``start`` with ``threads`` games at once
    (:func:`hexcore.match.play_at_once`; None: one per core), or on Ray's workers with ``ray=True`` (:func:`hexcore.distributed.map_games`;
    the same games, since each is seeded by its index).

    With as many ``players`` as seats they rotate seats game by game; with one
    player it takes every seat (self-play); ``seats(index)`` overrides the
    seating (player index per seat). ``progress(1)`` is called after each
    game. Returns the logs of the finished games in game order and whether
    every game was played: Ctrl-C stops the games after their current turn
    and returns the finished ones with False.
    """
    done: Dict[int, GameLog] = {}
    # loaded once for every game here (a Ray worker loads its own)
    agents = load_agents(players, start.spec)
    one = functools.partial(_play_one, agents=agents)
    if ray:
        from .. import distributed

        def add(log: GameLog) -> None:
            done[log.index] = log
            if progress is not None:
                progress(1)

        try:
            distributed.map_games(functools.partial(_play_anywhere, start, list(players), seed, seats), games,
                                  on_game=add)
        except KeyboardInterrupt:
            return [done[i] for i in sorted(done)], False
        return [done[i] for i in range(games)], True
    found, complete = play_at_once(lambda i, stop_: one(start, players, seed, i, stop_, seats), games, threads,
                                   progress)
    return [found[i] for i in sorted(found)], complete
