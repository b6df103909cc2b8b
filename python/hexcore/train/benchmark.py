"""Solver-labelled positions and the mistake rate of an agent on them.

>>> import hexcore as hc
>>> from hexcore.train import labelled_positions, mistake_rate
>>> pos = labelled_positions("churn(size=2,pie=false)", 3, seed=0)
>>> all(p.value == "win" and "loss" in p.moves.values() for p in pos)
True
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

from .._args import keyword_only
from .._types import Evaluator
from ..solving import solve
from ..spec import load
from .agent import choose_actions

__all__ = ["LabelledPosition", "labelled_positions", "mistake_rate", "mistakes", "player_mistakes", "value_accuracy"]


@dataclass
class LabelledPosition:
    """A position (between turns) the player to move wins with perfect play,
    with the exact value of every legal move for its mover (``"win"``,
    ``"loss"`` or ``"draw"``); at least one move loses."""

    game: Any
    value: str
    moves: Dict[str, str]

    @property
    def losing_moves(self) -> List[str]:
        return [m for m, v in self.moves.items() if v == "loss"]


@keyword_only
def labelled_positions(spec: str, n: int, seed: int = 0, *, max_nodes: int = 1_000_000,
                       max_games: Optional[int] = None, table_mb: int = 64) -> List[LabelledPosition]:
    """``n`` distinct positions from seeded uniformly random play of ``spec``
    (one position at a random ply of each game) where a mistake is
    possible: the player to move wins with perfect play and some legal move
    loses. Every move's value comes from :func:`hexcore.solve` (positions
    it does not finish within ``max_nodes`` nodes are skipped, so the same
    seed gives the same positions on any machine). Two-player games
    only; small boards (each position is solved exactly). Raises
    ``ValueError`` when the game has other than two players or when
    ``max_games`` games (default ``100 * n + 100``) did not give ``n``
    positions."""
    g0 = load(spec)
    if g0.num_players != 2:
        raise ValueError(f"labelled positions need a two-player game (the solver's); {g0.spec} has {g0.num_players}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be an int >= 0, got {n!r}")
    rng = random.Random(seed)
    seen = set()
    out: List[LabelledPosition] = []
    limit = 100 * n + 100 if max_games is None else max_games
    games = 0
    while len(out) < n:
        if games >= limit:
            raise ValueError(f"only {len(out)} of {n} positions with a possible mistake came from {games} games of {g0.spec}")
        games += 1
        g = g0.copy()
        line = [g.copy()]
        while not g.is_over:
            moves = g.legal_moves()
            g.play(moves[rng.randrange(len(moves))])
            if not g.is_over:
                line.append(g.copy())
        pos = line[rng.randrange(len(line))]
        if pos.zobrist in seen:
            continue
        seen.add(pos.zobrist)
        s = solve(pos, max_nodes=max_nodes, threads=1, table_mb=table_mb, distances=False)
        if not s.complete or s.value != "win":
            continue
        values = {m: v for m, v in s.moves.items() if v is not None}
        if "loss" in values.values() and len(values) == len(s.moves):
            out.append(LabelledPosition(pos, s.value, values))
    return out


@keyword_only
def mistakes(evaluator: Evaluator, positions: Sequence[LabelledPosition],
             simulations: int = 0, *, seed: int = 0, threads: int = 1) -> List[bool]:
    """For each position, whether the agent's move turns its win into a loss.
    The moves are chosen for all positions at once (see :func:`choose_actions`)."""
    games = [p.game.copy() for p in positions]
    todo = list(range(len(games)))
    while todo:
        acts = choose_actions([games[i] for i in todo], evaluator, simulations, seed=seed, threads=threads)
        for i, a in zip(todo, acts):
            games[i].apply_action(a)
        todo = [i for i in todo if not games[i].is_over and games[i].pending_actions]
    out = []
    for p, g in zip(positions, games):
        move = g.history[-1]
        if move not in p.moves:
            raise ValueError(f"the agent played {move!r}, which the labels do not list")
        out.append(p.moves[move] == "loss")
    return out


def player_mistakes(player: str, positions: Sequence[LabelledPosition], seed: int = 0,
                    threads: int = 1) -> List[bool]:
    """For each position, whether the match player ``player`` (a
    :func:`hexcore.match.parse_player` spec such as ``"mcts:1000"``) turns
    its win into a loss; position ``i``'s move is the first turn of game
    ``i`` of a match seeded with ``seed`` (:func:`hexcore.match.play_game`).
    ``threads`` positions are played at once, each search on one thread, so
    the answer is the same for any ``threads`` (as a match's)."""
    from ..match import load_agents, parse_player, play_at_once, play_game

    p = parse_player(player)
    agents: Dict[str, Dict[int, Any]] = {}  # loaded once per game spec
    for pos in positions:
        if pos.game.spec not in agents:
            agents[pos.game.spec] = load_agents([p], pos.game.spec)

    def one(i: int, _stop: Any) -> bool:
        pos = positions[i]
        seats = [0] * int(pos.game.num_players)
        g = play_game(pos.game, [p], seats, seed, i, threads=1, agents=agents[pos.game.spec], turns=1)
        return pos.moves.get(g.history[-1]) == "loss"

    done, complete = play_at_once(one, len(positions), threads)
    if not complete:
        raise KeyboardInterrupt
    return [done[i] for i in range(len(positions))]


@keyword_only
def mistake_rate(evaluator: Union[str, Evaluator], positions: Sequence[LabelledPosition],
                 simulations: int = 0, *, seed: int = 0, threads: int = 1) -> float:
    """The share of ``positions`` where the agent (``evaluator`` alone with
    ``simulations=0``: its highest legal prior; else that many simulations
    of deterministic Gumbel search) plays a move that turns the win into a
    loss. ``evaluator`` may also be a match player spec (``"mcts:1000"``,
    ``"random"``: :func:`player_mistakes`; ``simulations`` is then unused),
    the yardstick. ``ValueError`` for an empty list."""
    if not positions:
        raise ValueError("mistake_rate needs at least one position")
    if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 0:
        raise ValueError(f"simulations must be an int >= 0, got {simulations!r}")
    if isinstance(evaluator, str):
        m = player_mistakes(evaluator, positions, seed, threads)
    else:
        m = mistakes(evaluator, positions, simulations, seed=seed, threads=threads)
    return sum(m) / len(m)


def value_accuracy(evaluator: Evaluator, positions: Sequence[LabelledPosition]) -> float:
    """How often the evaluator's value head knows the solver's answer: over
    the positions after each labelled move (not finished, between turns),
    the share where the value of the player who moved is above an equal
    share (``1 / players``) exactly when the solver calls the move a win
    (draws are left out). Reads values per seat, or relative to the mover
    for an evaluator with ``relative_values``. ``ValueError`` when no such
    position exists."""
    import numpy as np

    games, seats, wins = [], [], []
    for p in positions:
        for move, v in p.moves.items():
            if v == "draw":
                continue
            g = p.game.copy()
            g.play(move)
            if g.is_over or g.pending_actions:
                continue
            games.append(g)
            seats.append(int(p.game.to_move))
            wins.append(v == "win")
    if not games:
        raise ValueError("value_accuracy needs positions whose moves lead to unfinished positions")
    n = int(games[0].num_players)
    obs = np.stack([g.observation() for g in games]).astype(np.float32)
    masks = np.stack([g.legal_action_mask() for g in games])
    _, values = evaluator(obs, masks)
    values = np.asarray(values, np.float64)
    movers = np.array([int(g.to_move) for g in games])
    seat = np.array(seats)
    col = (seat - movers) % n if getattr(evaluator, "relative_values", False) else seat - 1
    mine = values[np.arange(len(games)), col]
    return float(np.mean((mine > 1.0 / n) == np.array(wins)))
