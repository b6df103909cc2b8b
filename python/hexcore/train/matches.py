"""Games of an agent against fixed opponents (for the training curves)."""
from __future__ import annotations

from .._types import Evaluator, Game
from .agent import AZAgent

__all__ = ["win_rate"]


def win_rate(game: Game, evaluator: Evaluator, simulations: int, opponent: str, games: int,
             seed: int, threads: int = 1) -> float:
    """The share of ``games`` games from ``game`` that the agent (see
    :class:`~hexcore.train.agent.AZAgent`) wins alone against ``opponent``
    (a ``hexcore.match`` player spec, in every other seat); the agent's
    seat rotates game by game."""
    from ..match import Player, parse_player, play_game

    players = [Player("az", simulations=simulations, path="(the network in training)"), parse_player(opponent)]
    agents = {0: AZAgent(evaluator, simulations)}
    seats = int(game.num_players)
    wins = 0
    for gi in range(games):
        me = gi % seats + 1
        g = play_game(game, players, [0 if s + 1 == me else 1 for s in range(seats)], seed, gi, threads=threads,
                      agents=agents)
        wins += tuple(g.winners) == (me,)
    return wins / games if games else 0.0
