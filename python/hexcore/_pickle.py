"""Rebuilding pickled games: the spec, the starting position (if it was set
up with ``from_position``) and the actions played."""
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence


def restore(name: str, spec: str, setup: Optional[Sequence[Any]], actions: Sequence[int]) -> Any:
    """``setup`` is ``(cells, to_move)`` or ``(cells, to_move, extra)`` with
    ``extra`` the further ``from_position`` keywords as (name, value) pairs."""
    from .registry import GAMES
    from .spec import parse

    game_name, options = parse(spec)
    cls = GAMES.get(game_name)
    if cls is None or cls.__name__ != name:
        raise ValueError(f"pickled game {name!r} does not match its spec {spec!r}")
    if setup is None:
        g = cls(**options)
    else:
        try:
            cells, to_move, *rest = setup
            if len(rest) > 1:
                raise ValueError("too many fields")
            extra: Dict[str, int] = {str(k): _small_int(v) for k, v in dict(rest[0] if rest else {}).items()}
            cells = [_small_int(v) for v in cells]
        except (TypeError, ValueError) as e:
            raise ValueError(f"malformed pickled position: {e}") from None
        g = cls._from_cells(cells, to_move, **options, **extra)
    for a in actions:
        if isinstance(a, bool) or not isinstance(a, int):
            raise ValueError(f"malformed pickled action {a!r}")
        g.apply_action(a)
    return g


def _small_int(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not -128 <= v <= 127:
        raise ValueError(f"cell value {v!r} is not a small int")
    return v
