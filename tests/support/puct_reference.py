"""The batched PUCT search as it was written in Python before it moved to
Rust (hexcore.search.batched_search): the reference the native PUCT must
agree with, visit for visit, with one leaf per tree and no root noise.

Each wave selects one leaf per tree by PUCT, then calls ``evaluator(obs,
masks)`` once for all the leaves that are not terminal. Priors are
renormalised over the legal actions; a finished leaf is valued by its true
outcome (1 for a sole winner, ``1/k`` each for a win shared by ``k`` seats, 0
for a loss, ``1/players`` each without a winner). Values are backed up max^n
style: the player to move at a node picks the child with the best PUCT score
on its own seat's mean value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from hexcore import _core
from hexcore._args import number_arg
from hexcore.errors import GameOverError

__all__ = ["ReferenceResult", "reference_search"]

Game = _core._Game
Evaluator = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Tuple[Any, Any]]


@dataclass(frozen=True)
class ReferenceResult:
    """The result of :func:`reference_search`, one row per game.

    ``policies`` (float32, ``(B, num_actions)``): root visit shares (the
    noised root priors where a root has no visits, i.e. ``simulations=1``).
    ``root_values`` (float32, ``(B, num_players)``): mean backed-up value per
    seat over all simulations, the root evaluation included. ``visits``
    (int64, ``(B, num_actions)``): root visit counts; each row sums to
    ``simulations - 1`` (the first simulation evaluates the root).
    ``evaluations`` counts the evaluator calls (at most ``simulations``).
    """

    policies: np.ndarray = field(repr=False)
    root_values: np.ndarray = field(repr=False)
    visits: np.ndarray = field(repr=False)
    simulations: int
    evaluations: int


class _Node:
    __slots__ = ("game", "mover", "terminal", "actions", "priors", "children", "n", "w",
                 "visits", "value_sum")

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.mover = int(game.to_move) - 1
        self.terminal: Optional[npt.NDArray[np.float64]] = None
        if game.is_over:
            self.terminal = _outcome(game, players)
        self.actions: Optional[npt.NDArray[np.int64]] = None
        self.priors: npt.NDArray[np.float64] = np.zeros(0)
        self.children: Dict[int, _Node] = {}
        self.n: npt.NDArray[np.int64] = np.zeros(0, np.int64)
        self.w: npt.NDArray[np.float64] = np.zeros((0, players))
        self.visits = 0
        self.value_sum: npt.NDArray[np.float64] = np.zeros(players)

    def expand(self, priors: npt.NDArray[np.float64], mask: npt.NDArray[np.bool_]) -> None:
        self.actions = np.flatnonzero(mask).astype(np.int64)
        self.priors = priors[self.actions]
        self.n = np.zeros(len(self.actions), np.int64)
        self.w = np.zeros((len(self.actions), len(self.value_sum)))

    def select(self, c_puct: float) -> int:
        q = np.where(self.n > 0, self.w[:, self.mover] / np.maximum(self.n, 1), 0.0)
        u = c_puct * self.priors * math.sqrt(max(int(self.n.sum()), 1)) / (1.0 + self.n)
        return int(np.argmax(q + u))


def _outcome(game: Game, players: int) -> npt.NDArray[np.float64]:
    won = {int(s) for s in game.winners}
    out = np.zeros(players)
    if not won:
        out[:] = 1.0 / players
    for s in won:
        out[s - 1] = 1.0 / len(won)
    return out


def _number(name: str, value: Any) -> float:
    out = number_arg(name, value)
    if not math.isfinite(out):
        raise ValueError(f"{name} must be finite, got {out}")
    return out


def _check_output(out: Any, leaves: int, actions: int, players: int,
                  masks: npt.NDArray[np.bool_]) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    if not isinstance(out, tuple) or len(out) != 2:
        raise ValueError("evaluator must return a tuple (priors, values)")
    try:
        priors = np.asarray(out[0], dtype=np.float64)
        values = np.asarray(out[1], dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ValueError(f"evaluator output is not numeric: {e}") from None
    if priors.shape != (leaves, actions):
        raise ValueError(f"evaluator priors must have shape {(leaves, actions)}, got {priors.shape}")
    if values.shape != (leaves, players):
        raise ValueError(f"evaluator values must have shape {(leaves, players)}, got {values.shape}")
    if not np.all(np.isfinite(priors)):
        raise ValueError("evaluator priors must be finite (got NaN or infinity)")
    if not np.all(np.isfinite(values)):
        raise ValueError("evaluator values must be finite (got NaN or infinity)")
    if np.any(priors < 0):
        raise ValueError("evaluator priors must be >= 0")
    legal = np.where(masks, priors, 0.0)
    sums = legal.sum(axis=1)
    if np.any(sums <= 0):
        raise ValueError(f"evaluator priors are all zero on the legal actions of leaf {int(np.argmin(sums))}")
    return legal / sums[:, None], values


def reference_search(games: Sequence[Game], evaluator: Evaluator, simulations: int,
                   c_puct: float = 1.25, dirichlet_alpha: float = 0.3,
                   dirichlet_fraction: float = 0.25, seed: int = 0) -> ReferenceResult:
    """Search every game of ``games`` with PUCT, evaluating leaves in batches.

    ``simulations`` waves are run; each wave calls ``evaluator`` at most
    once (not at all when every selected leaf is finished). The first wave
    evaluates the roots, whose priors are then mixed with Dirichlet noise
    (``dirichlet_alpha``, weight ``dirichlet_fraction``; 0 turns it off)
    drawn from ``numpy.random.default_rng(seed)``. The games are copied and
    never changed; they may be in the middle of a turn (the tree is over
    actions). Raises ``ValueError`` for bad arguments (no games, games of
    different types or specs, ``simulations < 1``, bad constants) or a bad
    evaluator output, ``GameOverError`` for a finished game; an exception
    raised by the evaluator propagates unchanged.
    """
    if isinstance(simulations, bool) or not isinstance(simulations, (int, np.integer)):
        raise TypeError(f"simulations must be an int, got {type(simulations).__name__}")
    if simulations < 1:
        raise ValueError(f"simulations must be >= 1, got {simulations}")
    simulations = int(simulations)
    if not callable(evaluator):
        raise TypeError("evaluator must be callable")
    c_puct = _number("c_puct", c_puct)
    if c_puct < 0:
        raise ValueError(f"c_puct must be >= 0, got {c_puct}")
    dirichlet_alpha = _number("dirichlet_alpha", dirichlet_alpha)
    dirichlet_fraction = _number("dirichlet_fraction", dirichlet_fraction)
    if not 0.0 <= dirichlet_fraction <= 1.0:
        raise ValueError(f"dirichlet_fraction must be between 0 and 1, got {dirichlet_fraction}")
    if dirichlet_fraction > 0 and dirichlet_alpha <= 0:
        raise ValueError(f"dirichlet_alpha must be > 0, got {dirichlet_alpha}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {seed!r}")
    games = list(games)
    if not games:
        raise ValueError("games must not be empty")
    first = games[0]
    if not isinstance(first, _core._Game):
        raise TypeError(f"games must be hexcore games, got {type(first).__name__}")
    for i, g in enumerate(games):
        if type(g) is not type(first) or g.spec != first.spec:
            raise ValueError(f"games must all have the same type and spec; game {i} is "
                             f"{type(g).__name__} {g.spec!r}, game 0 is {type(first).__name__} {first.spec!r}")
        if g.is_over:
            raise GameOverError(f"game {i} is finished", "game_over")
    players = int(first.num_players)
    num_actions = int(first.num_actions)
    rng = np.random.default_rng(int(seed))
    roots = [_Node(g.copy(), players) for g in games]
    root_ids = {id(r) for r in roots}
    evaluations = 0

    for _ in range(simulations):
        leaves: List[Tuple[_Node, List[Tuple[_Node, int]]]] = []
        finished: List[Tuple[npt.NDArray[np.float64], List[Tuple[_Node, int]], _Node]] = []
        for root in roots:
            node = root
            path: List[Tuple[_Node, int]] = []
            while node.terminal is None and node.actions is not None:
                i = node.select(c_puct)
                path.append((node, i))
                action = int(node.actions[i])
                child = node.children.get(action)
                if child is None:
                    g = node.game.copy()
                    g.apply_action(action)
                    child = _Node(g, players)
                    node.children[action] = child
                node = child
            if node.terminal is not None:
                finished.append((node.terminal, path, node))
            else:
                leaves.append((node, path))
        if leaves:
            obs = np.stack([n.game.observation() for n, _ in leaves]).astype(np.float32, copy=False)
            masks = np.stack([n.game.legal_action_mask() for n, _ in leaves]).astype(np.bool_, copy=False)
            # The evaluator gets read-only arrays, and masks of its own: the
            # tree is expanded from `masks`, which it never sees.
            obs.flags.writeable = False
            given = masks.copy()
            given.flags.writeable = False
            out = evaluator(obs, given)
            evaluations += 1
            priors, values = _check_output(out, len(leaves), num_actions, players, masks)
            for k, (node, path) in enumerate(leaves):
                node.expand(priors[k], masks[k])
                if id(node) in root_ids and dirichlet_fraction > 0 and len(node.priors) > 0:
                    noise = rng.dirichlet(np.full(len(node.priors), dirichlet_alpha))
                    node.priors = (1 - dirichlet_fraction) * node.priors + dirichlet_fraction * noise
                finished.append((values[k], path, node))
        for value, path, leaf in finished:
            leaf.visits += 1
            leaf.value_sum += value
            for node, i in path:
                node.n[i] += 1
                node.w[i] += value
                node.visits += 1
                node.value_sum += value

    visits = np.zeros((len(roots), num_actions), np.int64)
    policies = np.zeros((len(roots), num_actions), np.float32)
    root_values = np.zeros((len(roots), players), np.float32)
    for b, root in enumerate(roots):
        assert root.actions is not None
        visits[b, root.actions] = root.n
        total = int(root.n.sum())
        if total > 0:
            policies[b, root.actions] = root.n / total
        else:
            policies[b, root.actions] = root.priors
        root_values[b] = root.value_sum / max(root.visits, 1)
    return ReferenceResult(policies=policies, root_values=root_values, visits=visits,
                               simulations=simulations, evaluations=evaluations)
