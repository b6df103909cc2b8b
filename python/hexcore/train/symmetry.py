"""Board symmetries for data augmentation.

A hexagonal board has up to 12 symmetries (6 rotations, each with or
without a reflection); :func:`symmetries` finds those that map the board's
cells onto themselves (all 12 on a regular hexhex board, fewer on a 120°
hexagon with unequal sides). Each becomes a permutation of the observation
grid and of the action ids, applied to a training position and its policy
target together.

Where it applies:

* **Churn**: every position (an action is a cell, or the swap, which a
  symmetry keeps).
* **Wunchunk**: positions at the start of a turn of ONE placement (an
  allotment of one stone). A turn's placements go in increasing cell
  order, which a symmetry does not keep: mid-turn, the legal actions would
  not map onto those of the image; and at the start of a turn of several
  stones (the open start's setup, any allotment of two or more) the first
  action is the turn's lowest cell, so neither the legal first actions nor
  the search's policy over them map with the board
  (``tests/train/test_train.py`` checks this against the engine).
* **Hex, Havannah, Y**: every position (an action is a cell, or Hex's and
  Havannah's swap). Hex keeps only the symmetries that map each seat's
  goal sides onto its own: the identity and the half turn.
* **Quintun**: none. Its actions come in kinds tied to the order of cells
  (the two stones of an EXTEND, in increasing cell order, and a pending
  first stone shown in its own plane), so the same argument rules out
  most of its positions; it is left out rather than half-done.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

__all__ = ["Symmetry", "symmetries", "action_kinds", "augment_mode", "augmentable"]


@dataclass(frozen=True)
class Symmetry:
    """One symmetry: ``src``/``dst`` grid positions (rows, cols) of the cells
    (obs[:, dst] = obs[:, src]) and ``actions`` (new policy[actions[a]] =
    policy[a])."""

    rows_src: npt.NDArray[np.intp]
    cols_src: npt.NDArray[np.intp]
    rows_dst: npt.NDArray[np.intp]
    cols_dst: npt.NDArray[np.intp]
    actions: npt.NDArray[np.intp]

    def observation(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``obs`` (..., C, H, W) mapped; off-board grid positions unchanged."""
        out = obs.copy()
        out[..., self.rows_dst, self.cols_dst] = obs[..., self.rows_src, self.cols_src]
        return out

    def vector(self, v: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """A per-action array (..., A) mapped (policies, masks)."""
        out = np.empty_like(v)
        out[..., self.actions] = v
        return out


def augment_mode(game: Any) -> str:
    """The registry's ``augment`` of the game: ``"all"``, ``"turn_start"`` or ``"none"``."""
    from ..registry import info

    gi = info(game)
    return "none" if gi is None else gi.augment


def augmentable(game: Any, mode: str) -> bool:
    """Whether a position of ``game`` (not finished) may be trained under
    the board symmetries, for the game's :func:`augment_mode` ``mode``:
    every position for ``"all"``, none for ``"none"``; for
    ``"turn_start"`` a position between turns whose turn is one action
    (its first placement ends it)."""
    if mode == "all":
        return True
    if mode != "turn_start" or game.pending_actions:
        return False
    cells = int(game.board.num_cells) * (int(game.num_actions) // int(game.board.num_cells))
    for a in game.legal_actions():
        if int(a) < cells:
            h = game.copy()
            h.apply_action(int(a))
            return bool(h.is_over or not h.pending_actions)
    return True


def action_kinds(game: Any) -> Optional[int]:
    """Actions per cell when the game's actions are ``cell * kinds + kind``
    followed by cell-free actions and a symmetry may be used on them; None
    when no augmentation applies (see the module's notes)."""
    if augment_mode(game) == "none":
        return None
    return int(game.num_actions) // int(game.board.num_cells)


def _transforms() -> List[Any]:
    def rot(p: Tuple[float, float, float]) -> Tuple[float, float, float]:
        x, y, z = p
        return (-z, -x, -y)

    def refl(p: Tuple[float, float, float]) -> Tuple[float, float, float]:
        x, y, z = p
        return (x, z, y)

    out = []
    for k in range(6):
        for m in (False, True):
            def f(p: Tuple[float, float, float], k: int = k, m: bool = m) -> Tuple[float, float, float]:
                if m:
                    p = refl(p)
                for _ in range(k):
                    p = rot(p)
                return p
            out.append(f)
    return out


def _keeps_goal_sides(game: Any, perm: npt.NDArray[np.intp]) -> bool:
    """Whether the cell permutation ``perm`` maps each goal side of a seat
    (``GameInfo.edges``: Hex's) onto a goal side of the same seat; a
    reflection of Hex's board swaps x's sides with o's."""
    from ..registry import info

    gi = info(game)
    if gi is None or not gi.edges:
        return True
    sides = [frozenset(int(c) for c in side) for side in game.board.sides]
    owner = {sides[k]: seat for k, seat in gi.edges.items()}
    return all(owner.get(frozenset(int(perm[c]) for c in sides[k])) == seat for k, seat in gi.edges.items())


def symmetries(game: Any) -> List[Symmetry]:
    """The board symmetries usable for ``game`` (the identity first): those
    that map the board's cells onto themselves and each seat's goal sides
    onto its own; just the identity where augmentation does not apply."""
    board = game.board
    n = int(board.num_cells)
    cubes = np.array([board.cube(i) for i in range(n)], np.float64)
    centre = cubes.mean(axis=0)
    where = {tuple(np.round(c, 6)): i for i, c in enumerate(cubes - centre)}
    grid = np.array([board.grid_pos(i) for i in range(n)], np.intp)
    kinds = action_kinds(game)
    num_actions = int(game.num_actions)
    from ..registry import info

    gi = info(game)
    on_grid = kinds is not None and gi is not None and gi.actions_on_grid
    flat = grid[:, 0] * int(board.grid_shape[1]) + grid[:, 1]
    out: List[Symmetry] = []
    for t in _transforms():
        perm = np.empty(n, np.intp)
        ok = True
        for i, c in enumerate(cubes - centre):
            j = where.get(tuple(np.round(t(tuple(c)), 6)))
            if j is None:
                ok = False
                break
            perm[i] = j
        if not ok or not _keeps_goal_sides(game, perm):
            continue
        if kinds is None and out:
            break
        acts = np.arange(num_actions, dtype=np.intp)
        if on_grid:   # a cell's action is its grid position
            acts[flat] = flat[perm]
        elif kinds is not None:
            cell_actions = n * kinds
            a = np.arange(cell_actions)
            acts[:cell_actions] = perm[a // kinds] * kinds + a % kinds
        out.append(Symmetry(grid[:, 0], grid[:, 1], grid[perm, 0], grid[perm, 1], acts))
    return out
