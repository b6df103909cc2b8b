"""Terminal rewards shared by the adapters (``envs``, ``openspiel``).

A finished game's ``winners`` is a tuple of 1-based seats. The rewards are
zero-sum:

* a sole winner gets ``+1`` and every other seat ``-1 / (N - 1)``
  (with two players: ``+1`` / ``-1``);
* a shared win among ``k`` of ``N`` seats splits ``+1`` equally among the
  winners and ``-1`` equally among the others (``+1/k`` and ``-1/(N-k)``);
* when every seat is a winner (a draw) everybody gets ``0``.

An unfinished game has rewards ``0`` for everybody.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List, Sequence

if TYPE_CHECKING:
    from ._core import _Game


def terminal_rewards(winners: Sequence[int], num_players: int) -> List[float]:
    """Zero-sum rewards of ``winners`` (1-based seats) among ``num_players`` seats."""
    if num_players < 1:
        raise ValueError(f"num_players must be positive, got {num_players!r}")
    won = {int(w) for w in winners}
    bad = [w for w in won if not 1 <= w <= num_players]
    if bad:
        raise ValueError(f"winners {sorted(bad)} are not seats 1..{num_players}")
    k = len(won)
    if k == 0 or k == num_players:
        return [0.0] * num_players
    return [1.0 / k if seat in won else -1.0 / (num_players - k) for seat in range(1, num_players + 1)]


def game_rewards(game: "_Game") -> List[float]:
    """Rewards of a hexcore game's current state (all ``0`` until it is over)."""
    n = int(game.num_players)
    if not game.is_over:
        return [0.0] * n
    return terminal_rewards(game.winners, n)
