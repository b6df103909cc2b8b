"""Games of an agent against fixed opponents (for the training curves)."""
from __future__ import annotations

import random
from typing import Any, Callable, Tuple

from .agent import AZAgent

__all__ = ["win_rate"]


def win_rate(game: Any, evaluator: Callable[..., Tuple[Any, Any]], simulations: int, opponent: str, games: int,
             seed: int, threads: int = 1) -> float:
    """The share of ``games`` games from ``game`` that the agent (see
    :class:`~hexcore.train.agent.AZAgent`) wins alone against ``opponent``
    (a ``hexcore.match`` player spec, in every other seat); the agent's
    seat rotates game by game."""
    from ..match import _bot_move, derive_seed, parse_player

    opp = parse_player(opponent)
    agent = AZAgent(evaluator, simulations)
    seats = int(game.num_players)
    wins = 0
    for gi in range(games):
        me = gi % seats + 1
        g = game.copy()
        rng = random.Random(derive_seed(seed, gi, 1))
        while not g.is_over:
            s = derive_seed(seed, gi, g.ply)
            if g.to_move == me:
                agent.play_turn(g, s, threads)
            else:
                _bot_move(g, opp, rng, s, threads)
        wins += tuple(g.winners) == (me,)
    return wins / games if games else 0.0
