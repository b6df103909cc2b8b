"""Games of an agent against fixed opponents (for the training curves)."""
from __future__ import annotations

from typing import Any

from .._types import Evaluator, Game
from .agent import AZAgent

__all__ = ["win_rate"]


def win_rate(game: Game, evaluator: Evaluator, simulations: int, opponent: str, games: int,
             seed: int, threads: int = 1) -> float:
    """The share of ``games`` games from ``game`` that the agent (see
    :class:`~hexcore.train.agent.AZAgent`) wins alone against ``opponent``
    (a ``hexcore.match`` player spec, in every other seat); the agent's
    seat rotates game by game. ``threads`` games are played at once, each
    search on one thread, so the rate is the same for any ``threads``."""
    from ..match import Player, parse_player, play_at_once, play_game

    players = [Player("az", simulations=simulations, path="(the network in training)"), parse_player(opponent)]
    agents = {0: AZAgent(evaluator, simulations)}
    seats = int(game.num_players)

    def one(gi: int, _stop: Any) -> bool:
        me = gi % seats + 1
        g = play_game(game, players, [0 if s + 1 == me else 1 for s in range(seats)], seed, gi, threads=1,
                      agents=agents)
        return tuple(g.winners) == (me,)

    done, complete = play_at_once(one, games, threads)
    if not complete:
        raise KeyboardInterrupt
    return sum(done.values()) / games if games else 0.0
