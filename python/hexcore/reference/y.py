"""Pure-Python Y, written for clarity: after every stone the mover's groups
are flood-filled and a group touching all three sides wins. Same constructor
arguments and move API as ``hexcore.Y``.

The board is OpenSpiel's ``y`` triangle: row ``y`` (0 at the top) holds the
cells ``x = 0 .. size - 1 - y``; cell ``(x, y)`` has action id
``x + y * size`` and label column letter + 1-based row (``a1`` top left).
The sides are ``x == 0``, ``y == 0`` and ``x + y == size - 1`` (a corner is
on two). No draws.
"""
from __future__ import annotations

from typing import Optional

from ._stones import NEIGHBOURS, Stones, opt


class Y(Stones):
    def __init__(self, size: Optional[int] = None) -> None:
        self.size = n = opt(size, 19)
        if not 1 <= n <= 26:
            raise ValueError(f"size must be between 1 and 26, got {n}")
        super().__init__([(x, y) for y in range(n) for x in range(n - y)], n, NEIGHBOURS["y"])

    def won(self, colour: int) -> bool:
        n = self.size
        for k in range(self.num_cells):
            if self.cell[k] == colour:
                group = [self.xy[c] for c in self.group(k)]
                if (any(x == 0 for x, _ in group) and any(y == 0 for _, y in group)
                        and any(x + y == n - 1 for x, y in group)):
                    return True
        return False
