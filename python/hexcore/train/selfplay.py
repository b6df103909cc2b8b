"""Self-play with the native batched search, framework-free.

The evaluator is any callable ``evaluator(observations, masks) -> (priors,
values)`` (the contract of :func:`hexcore.search.batched_search`): a
PyTorch network, a numpy function, anything. Every game of a generation
moves at once: one :func:`~hexcore.search.batched_search` call per move
across all unfinished games, one evaluator call per wave.

Value targets are the search's own terminal scores: per seat, 1 for a sole
winner, ``1/k`` for each of ``k`` shared winners, 0 for a loser, ``1/N``
each for a draw (they sum to 1 over the seats).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from ..match import derive_seed
from ..search import batched_search

__all__ = ["Samples", "SelfPlayStats", "TimedEvaluator", "outcome_scores", "play_generation", "derive_seed"]


def outcome_scores(game: Any) -> npt.NDArray[np.float32]:
    """Per-seat score of a finished game, as the search scores a finished
    leaf: the win shared equally among the winners (a draw: ``1/N`` each)."""
    n = int(game.num_players)
    w = [int(s) for s in game.winners]
    out = np.full(n, 1.0 / n, np.float32)
    if w:
        out[:] = 0.0
        out[[s - 1 for s in w]] = 1.0 / len(w)
    return out


@dataclass
class Samples:
    """Training positions: ``observations`` float32 ``(S, C, H, W)``,
    ``masks`` bool ``(S, A)``, ``policies`` float32 ``(S, A)`` (the
    search's improved policy), ``values`` float32 ``(S, players)`` (the
    final scores, seat ``k`` in column ``k - 1``), ``to_move`` int8 ``(S,)``
    and ``turn_start`` bool ``(S,)`` (no stone of the turn placed yet)."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    policies: npt.NDArray[np.float32]
    values: npt.NDArray[np.float32]
    to_move: npt.NDArray[np.int8]
    turn_start: npt.NDArray[np.bool_]

    def __len__(self) -> int:
        return int(len(self.observations))

    @staticmethod
    def concat(parts: List["Samples"]) -> "Samples":
        return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS))

    def take(self, idx: Any) -> "Samples":
        return Samples(*(getattr(self, f)[idx] for f in _FIELDS))


_FIELDS = ("observations", "masks", "policies", "values", "to_move", "turn_start")


class TimedEvaluator:
    """Wraps an evaluator and adds up the seconds spent in it and the
    positions it evaluated."""

    def __init__(self, evaluator: Callable[..., Tuple[Any, Any]]) -> None:
        self.evaluator = evaluator
        self.seconds = 0.0
        self.positions = 0
        self.calls = 0

    def __call__(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> Tuple[Any, Any]:
        t0 = time.perf_counter()
        try:
            return self.evaluator(obs, masks)
        finally:
            self.seconds += time.perf_counter() - t0
            self.positions += len(obs)
            self.calls += 1


@dataclass
class SelfPlayStats:
    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    network_seconds: float = 0.0
    evaluations: int = 0
    wins: Optional[npt.NDArray[np.float64]] = None


def play_generation(game: Any, evaluator: Callable[..., Tuple[Any, Any]], games: int, simulations: int,
                    seed: int, algorithm: str = "gumbel", threads: Optional[int] = None,
                    sample_plies: int = 8, max_considered: int = 16) -> Tuple[Samples, SelfPlayStats]:
    """Plays ``games`` games from ``game`` (a position between turns) to the
    end, all at once, and returns every position with its targets.

    Each move runs ``simulations`` simulations of ``algorithm`` per game.
    Gumbel picks the search's action (its Gumbel noise explores); PUCT, whose
    root has Dirichlet noise, samples the action from the visit shares for
    the first ``sample_plies`` actions of a game and takes the most visited
    after. Seeded: the same arguments give the same games for any thread
    count (given a deterministic evaluator)."""
    timed = TimedEvaluator(evaluator)
    rng = np.random.default_rng(derive_seed(seed, 7))
    boards = [game.copy() for _ in range(games)]
    records: List[List[Tuple[Any, ...]]] = [[] for _ in range(games)]
    finals: List[Optional[npt.NDArray[np.float32]]] = [None] * games
    active = list(range(games))
    step = 0
    moves = 0
    t0 = time.perf_counter()
    while active:
        roots = [boards[i] for i in active]
        r = batched_search(roots, timed, simulations, algorithm=algorithm, threads=threads,
                           seed=derive_seed(seed, step), max_considered=max_considered)
        step += 1
        still = []
        for j, i in enumerate(active):
            g = boards[i]
            pol = np.asarray(r.policies[j], np.float32)
            records[i].append((g.observation(), g.legal_action_mask(), pol, g.to_move, not g.pending_actions))
            a = int(r.actions[j])
            if algorithm == "puct" and len(records[i]) <= sample_plies:
                p = pol.astype(np.float64)
                a = int(rng.choice(len(p), p=p / p.sum()))
            g.apply_action(a)
            moves += 1
            if g.is_over:
                finals[i] = outcome_scores(g)
            else:
                still.append(i)
        active = still
    parts = []
    wins = np.zeros(game.num_players)
    for i in range(games):
        rec = records[i]
        final = finals[i]
        assert final is not None
        wins += final
        parts.append(Samples(np.stack([x[0] for x in rec]).astype(np.float32), np.stack([x[1] for x in rec]),
                             np.stack([x[2] for x in rec]), np.repeat(final[None, :], len(rec), axis=0),
                             np.array([x[3] for x in rec], np.int8), np.array([x[4] for x in rec], bool)))
    stats = SelfPlayStats(games=games, moves=moves, seconds=time.perf_counter() - t0,
                          network_seconds=timed.seconds, evaluations=timed.positions, wins=wins)
    return Samples.concat(parts), stats
