"""Self-play with the native batched search, framework-free.

The evaluator is any callable ``evaluator(observations, masks) -> (priors,
values)`` (the contract of :func:`hexcore.search.batched_search`): a
PyTorch network, a numpy function, anything. Every game of a generation
moves at once in one :class:`~hexcore.search.BatchedMCTS`, one
evaluator call per wave.

A finished game's slot starts the next game (``BatchedMCTS.replace``),
and every other tree is kept from move to move (``BatchedMCTS.advance``).

Value targets are the search's own terminal scores: per seat, 1 for a sole
winner, ``1/k`` for each of ``k`` shared winners, 0 for a loser, ``1/N``
each for a draw (they sum to 1 over the seats).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from .._types import Evaluator, Game
from ..match import derive_seed
from ..search import BatchedMCTS
from .exact import exact_targets
from .symmetry import augment_mode, augmentable

__all__ = ["Samples", "SelfPlayStats", "TimedEvaluator", "outcome_scores", "play_generation", "derive_seed",
           "relative_values"]


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


def relative_values(values: npt.NDArray[np.float32], to_move: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.float32]:
    """Per-seat ``values`` (S, N) (seat ``k`` in column ``k - 1``) reordered
    from each row's mover ``to_move`` (S,) on: column ``k`` is seat
    ``(to_move - 1 + k) % N + 1``."""
    n = values.shape[1]
    cols = (np.asarray(to_move, np.intp)[:, None] - 1 + np.arange(n)[None, :]) % n
    return np.take_along_axis(values, cols, axis=1)


@dataclass
class Samples:
    """Training positions: ``observations`` float32 ``(S, C, H, W)``,
    ``masks`` bool ``(S, A)``, ``policies`` float32 ``(S, A)`` (the
    search's improved policy), ``values`` float32 ``(S, players)`` (the
    final scores, seat ``k`` in column ``k - 1``), ``to_move`` int8 ``(S,)``
    and ``augmentable`` bool ``(S,)`` (the position may be trained under
    the board symmetries: :func:`~hexcore.train.symmetry.augmentable`)."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    policies: npt.NDArray[np.float32]
    values: npt.NDArray[np.float32]
    to_move: npt.NDArray[np.int8]
    augmentable: npt.NDArray[np.bool_]

    def __len__(self) -> int:
        return int(len(self.observations))

    @staticmethod
    def concat(parts: List["Samples"]) -> "Samples":
        return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS))

    def take(self, idx: Any) -> "Samples":
        return Samples(*(getattr(self, f)[idx] for f in _FIELDS))

    def relative_values(self) -> npt.NDArray[np.float32]:
        """``values`` relative to the player to move: column 0 the mover's
        score, column ``k`` the ``k``-th seat after it (the order of the
        observation planes; the value order of an evaluator with
        ``relative_values``, see :func:`hexcore.search.batched_search`)."""
        return relative_values(self.values, self.to_move)


_FIELDS = ("observations", "masks", "policies", "values", "to_move", "augmentable")


class TimedEvaluator:
    """Wraps an evaluator and adds up the seconds spent in it and the
    positions it evaluated. It answers as the evaluator does, its
    ``relative_values`` included (the search reads that attribute to
    know whose value comes first)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.relative_values = bool(getattr(evaluator, "relative_values", False))
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
    exact: int = 0              # positions whose targets the solver settled
    solve_seconds: float = 0.0  # of ``seconds``


def _random_start(game: Any, plies: int, rng: np.random.Generator) -> Any:
    """A copy of ``game`` after ``plies`` uniformly random actions (fewer
    where the game would end: the start of the last turn that leaves it
    going)."""
    g = game.copy()
    for _ in range(plies):
        acts = g.legal_actions()
        h = g.copy()
        h.apply_action(int(acts[rng.integers(len(acts))]))
        if h.is_over:
            break
        g = h
    while g.pending_actions:  # finish a turn begun at random, so positions are between turns
        acts = g.legal_actions()
        h = g.copy()
        h.apply_action(int(acts[rng.integers(len(acts))]))
        if h.is_over:
            return game.copy()
        g = h
    return g


def play_generation(game: Game, evaluator: Evaluator, games: int, simulations: int,
                    seed: int, algorithm: str = "gumbel", threads: Optional[int] = None,
                    sample_plies: int = 8, max_considered: int = 16, slots: Optional[int] = None,
                    random_plies: int = 0, value_mix: float = 0.0,
                    gumbel_scale: float = 1.0, min_random_plies: int = 0,
                    value_steps: int = 0, solve_nodes: int = 0) -> Tuple[Samples, SelfPlayStats]:
    """Plays ``games`` games from ``game`` (a position between turns) to the
    end and returns every position with its targets.

    ``slots`` games (default: all) are played at once in one
    :class:`~hexcore.search.BatchedMCTS`; each move adds ``simulations``
    simulations of ``algorithm`` to the tree kept from the move before
    (:meth:`~hexcore.search.BatchedMCTS.advance`), and a finished game's
    slot starts the next game with a fresh tree
    (:meth:`~hexcore.search.BatchedMCTS.replace`). When no game is left to
    start and half the slots are idle, the search is rebuilt over the games
    still going (their trees start afresh), so the batches stay full.
    ``random_plies`` > 0 starts each game after a uniformly random number
    (0 to ``random_plies``) of uniformly random actions, which are not
    recorded: the positions then cover more of the game than self-play
    alone reaches; ``min_random_plies`` raises the fewest (the training
    loop's curriculum starts games late and lowers it). ``value_steps`` n > 0
    bootstraps the value targets: a position's target is the search's root
    value (per seat) ``n`` plies later in its game, or the outcome where the
    game ends sooner. ``value_mix`` > 0 makes each value target
    ``(1 - value_mix) * outcome + value_mix * root value`` (the search's
    mean value per seat at the position: near the end of a game it holds
    the exact terminal scores the search reached, which makes the value
    head learn from the end backwards sooner than outcomes alone).
    ``solve_nodes`` n > 0 (two players): where :func:`hexcore.solve`
    settles a position within n nodes, its targets are exact (its value,
    and in a won position the policy over the winning moves only; see
    :mod:`hexcore.train.exact`), whatever ``value_steps`` and
    ``value_mix`` say.
    Gumbel picks the search's action (its Gumbel noise, of scale
    ``gumbel_scale``, explores); PUCT, whose root has Dirichlet noise, samples the action
    from the visit shares for the first ``sample_plies`` actions of a game
    and takes the most visited after. Seeded: the same arguments give the
    same games for any thread count (given a deterministic evaluator)."""
    mode = augment_mode(game)
    exact = solve_nodes > 0 and int(game.num_players) == 2
    timed = TimedEvaluator(evaluator)
    rng = np.random.default_rng(derive_seed(seed, 7))
    slots = games if slots is None else max(1, min(slots, games))

    def new_game() -> Any:
        if random_plies <= 0:
            return game.copy()
        return _random_start(game, int(rng.integers(min(min_random_plies, random_plies), random_plies + 1)), rng)

    boards: List[Any] = []
    records: List[List[Tuple[Any, ...]]] = []
    finals: List[Optional[npt.NDArray[np.float32]]] = []

    def start() -> int:
        boards.append(new_game())
        records.append([])
        finals.append(None)
        return len(boards) - 1

    playing = [start() for _ in range(slots)]        # slot -> game index (-1: idle)
    builds = 0

    def build() -> Any:
        nonlocal builds
        builds += 1
        return BatchedMCTS([boards[i] for i in playing], timed, algorithm=algorithm, threads=threads,
                           seed=derive_seed(seed, builds), max_considered=max_considered, gumbel_scale=gumbel_scale)

    standins: Dict[int, Any] = {}   # slot -> stand-in game
    search = build()
    moves = 0
    t0 = time.perf_counter()
    while playing:
        r = search.search(simulations)
        acts = []
        for j, i in enumerate(playing):
            a = int(r.actions[j])
            if i >= 0:
                g = boards[i]
                pol = np.asarray(r.policies[j], np.float32)
                records[i].append((g.observation(), g.legal_action_mask(), pol, g.to_move, augmentable(g, mode),
                                   np.asarray(r.root_values[j], np.float32), g.copy() if exact else None))
                if algorithm == "puct" and len(records[i]) <= sample_plies:
                    p = pol.astype(np.float64)
                    a = int(rng.choice(len(p), p=p / p.sum()))
                boards[i].apply_action(a)
                moves += 1
            else:
                standins[j].apply_action(a)
            acts.append(a)
        search.advance(acts)
        for j, i in enumerate(playing):
            if not (boards[i] if i >= 0 else standins[j]).is_over:
                continue
            if i >= 0:
                finals[i] = outcome_scores(boards[i])
            if len(boards) < games:
                playing[j] = start()
                search.replace(j, boards[playing[j]])
            else:
                # nothing left to start: a stand-in game (not recorded) keeps the slot searchable
                # until the rebuild below
                playing[j] = -1
                standins[j] = game.copy()
                search.replace(j, standins[j])
        going = [i for i in playing if i >= 0]
        if len(going) * 2 <= len(playing):
            playing = going
            standins = {}
            if playing:
                search = build()
    wins = np.zeros(game.num_players)
    all_values, all_policies = [], []
    for i in range(games):
        rec = records[i]
        final = finals[i]
        assert final is not None
        wins += final
        values = np.repeat(final[None, :], len(rec), axis=0).astype(np.float64)
        if value_steps > 0 and len(rec) > value_steps:
            values[: len(rec) - value_steps] = np.stack([x[5] for x in rec[value_steps:]])
        if value_mix > 0:
            values = (1 - value_mix) * values + value_mix * np.stack([x[5] for x in rec]).astype(np.float64)
        all_values.append(values)
        all_policies.append(np.stack([x[2] for x in rec]))
    settled, t1 = 0, time.perf_counter()
    if exact:
        settled = exact_targets([[x[6] for x in rec] for rec in records], all_policies, all_values, solve_nodes,
                                threads=1 if threads is None else threads)
    parts = [Samples(np.stack([x[0] for x in rec]).astype(np.float32), np.stack([x[1] for x in rec]),
                     all_policies[i], all_values[i].astype(np.float32),
                     np.array([x[3] for x in rec], np.int8), np.array([x[4] for x in rec], bool))
             for i, rec in enumerate(records)]
    stats = SelfPlayStats(games=games, moves=moves, seconds=time.perf_counter() - t0,
                          network_seconds=timed.seconds, evaluations=timed.positions, wins=wins,
                          exact=settled, solve_seconds=time.perf_counter() - t1 if exact else 0.0)
    return Samples.concat(parts), stats
