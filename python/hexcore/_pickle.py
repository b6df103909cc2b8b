"""Rebuilding pickled games: the spec, the starting position (if it was set
up with ``from_position``) and the actions played."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple


def restore(name: str, spec: str, setup: Optional[Tuple[Sequence[int], int]], actions: Sequence[int]) -> Any:
    from . import GAMES
    from .spec import parse

    game_name, options = parse(spec)
    cls = GAMES[game_name]
    if setup is None:
        g = cls(**options)
    else:
        cells, to_move = setup
        g = cls._from_cells(list(cells), to_move, **options)
    for a in actions:
        g.apply_action(int(a))
    return g
