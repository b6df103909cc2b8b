"""Perft and playouts on a Ray cluster (``pip install hexcore[ray]``).

The work is split the same way the local engine splits it, so the results are
identical to a local run: perft by first moves (each subtree is one task),
playouts by ranges of game indices (game ``i`` is always seeded from
``seed + i``). Games travel to the workers by pickle (spec + actions).

>>> # doctest: +SKIP
>>> import ray, hexcore as hc
>>> ray.init()
>>> hc.distributed.perft(hc.Churn(size=3), 7)
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple, Union

import numpy as np


def _ray() -> Any:
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("the Ray backend needs the 'ray' package: pip install 'hexcore[ray]'") from e
    if not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False)
    return ray


def _perft_task(game: Any, depth: int, unit: str) -> int:
    from . import perft as local_perft

    return int(local_perft(game, depth, unit=unit, threads=1))  # type: ignore[arg-type]


def _playout_task(game: Any, n: int, seed: int, max_plies: Optional[int]) -> Tuple[np.ndarray, ...]:
    from . import random_playouts

    r = random_playouts(game, n, seed=seed, threads=1, max_plies=max_plies)
    return r.plies, r.actions, r.winner_mask, r.finished


def _children(game: Any, unit: str) -> List[Tuple[str, Any]]:
    out = []
    if unit == "move":
        for m in game.legal_moves():
            c = game.copy()
            c.play(m)
            out.append((m, c))
    else:
        for a in game.legal_actions():
            c = game.copy()
            c.apply_action(int(a))
            out.append((game.action_to_string(int(a)), c))
    return out


def perft(game: Any, depth: int, unit: str = "move", divide: bool = False) -> Union[int, List[Tuple[str, int]]]:
    """``hexcore.perft`` with the first moves (or actions) as Ray tasks."""
    if unit not in ("move", "action"):
        raise ValueError(f"unit must be 'move' or 'action', got {unit!r}")
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if depth == 0 or game.is_over and not game.pending_actions:
        return [] if divide else (1 if depth == 0 else 0)
    ray = _ray()
    task = ray.remote(_perft_task)
    children = _children(game, unit)
    refs = []
    for _, c in children:
        d = depth - 1 if (unit == "move" or not c.pending_actions) else depth
        refs.append(task.remote(c, d, unit))
    counts = ray.get(refs)
    rows = [(name, int(n)) for (name, _), n in zip(children, counts)]
    return rows if divide else sum(n for _, n in rows)


def random_playouts(game: Any, n: int, seed: int = 0, max_plies: Optional[int] = None, chunk: int = 1000) -> Any:
    """``hexcore.random_playouts`` with ranges of games as Ray tasks."""
    from . import Playouts

    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if chunk < 1:
        raise ValueError(f"chunk must be >= 1, got {chunk}")
    ray = _ray()
    task = ray.remote(_playout_task)
    refs = [task.remote(game, min(chunk, n - start), seed + start, max_plies) for start in range(0, n, chunk)]
    parts = ray.get(refs)
    if not parts:
        empty = np.zeros(0, dtype=np.uint64)
        return Playouts(empty, empty.copy(), np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=bool))
    cols = [np.concatenate([p[k] for p in parts]) for k in range(4)]
    return Playouts(*cols)
