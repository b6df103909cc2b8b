"""Pure-Python Havannah, written for clarity from the rules (not from
OpenSpiel's ring walk): after every stone the mover wins with

* a bridge: a group (flood fill) touching two of the six corners;
* a fork: a group touching three of the six sides, corners belonging to none;
* a ring: some cell, of any colour, cut off from the board's edge by the
  mover's other stones (a flood fill from the edge through every cell that is
  not the mover's, the cell itself let through).

A full board with no winner is a draw. Same constructor arguments and move API
as ``hexcore.Havannah``.

The board is OpenSpiel's ``havannah`` hexagon: on the ``(2 size - 1)``-square
grid, cell ``(x, y)`` is on the board when ``|x - y| <= size - 1``; its action
id is ``x + y * (2 size - 1)``, its label column letter + 1-based row. With
``swap``, o's first move may be x's stone's cell: the stone turns o.
"""
from __future__ import annotations

from typing import List, Optional

from ._stones import NEIGHBOURS, Stones, opt


class Havannah(Stones):
    def __init__(self, size: Optional[int] = None, *, swap: Optional[bool] = None) -> None:
        self.size = n = opt(size, 8)
        if not 2 <= n <= 13:
            raise ValueError(f"size must be between 2 and 13, got {n}")
        self.swap = bool(opt(swap, False))
        d, m = 2 * n - 1, n - 1
        super().__init__([(x, y) for y in range(d) for x in range(d) if abs(x - y) <= m], d, NEIGHBOURS["havannah"])
        e = 2 * m
        corners = [(0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m)]
        self.corner = [corners.index(p) if p in corners else -1 for p in self.xy]

        def side(x: int, y: int) -> int:
            """The side (0 top, clockwise) an edge cell that is no corner lies on, else -1."""
            on = [y == 0, x - y == m, x == e, y == e, y - x == m, x == 0]
            return on.index(True) if True in on else -1

        self.side = [-1 if self.corner[k] >= 0 else side(x, y) for k, (x, y) in enumerate(self.xy)]
        self.edge = [len(a) < 6 for a in self.adjacent]

    def win_kinds(self, colour: int) -> List[str]:
        """The structures ``colour``'s stones hold: "ring", "bridge", "fork"."""
        out: List[str] = []
        bridge = fork = False
        for k in range(self.num_cells):
            if self.cell[k] == colour:
                group = self.group(k)
                bridge |= len({self.corner[c] for c in group} - {-1}) >= 2
                fork |= len({self.side[c] for c in group} - {-1}) >= 3
        for kind, holds in (("ring", self.ring(colour)), ("bridge", bridge), ("fork", fork)):
            if holds:
                out.append(kind)
        return out

    def ring(self, colour: int) -> bool:
        for k in range(self.num_cells):
            passable = [self.cell[c] != colour or c == k for c in range(self.num_cells)]
            seen = {c for c in range(self.num_cells) if self.edge[c] and passable[c]}
            stack = list(seen)
            while stack:
                c = stack.pop()
                for nb in self.adjacent[c]:
                    if passable[nb] and nb not in seen:
                        seen.add(nb)
                        stack.append(nb)
            if k not in seen:
                return True
        return False

    def won(self, colour: int) -> bool:
        return bool(self.win_kinds(colour))
