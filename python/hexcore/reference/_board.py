"""Pure-Python board geometry used by the reference games, and the one
neighbour walk they all find groups with (``reach``, ``components``).

Kept deliberately simple: a board is a list of axial coordinates, built row by
row from the top, with labels "row letter from the bottom + 1-based column from
the left" (Abstract Play style).  Rows past ``z`` continue ``aa``, ``ab``, ...
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

DIRECTIONS: Tuple[Tuple[int, int], ...] = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))

NAMED_BOARDS: Dict[str, Tuple[int, ...]] = {
    "hex3": (3, 3, 3, 3, 3, 3),
    "limping-34": (3, 4, 3, 4, 3, 4),
    "limping-335": (5, 3, 3, 5, 3, 3),
    "hex4": (4, 4, 4, 4, 4, 4),
    "limping-446": (6, 4, 4, 6, 4, 4),
    "hex5": (5, 5, 5, 5, 5, 5),
}


def row_name(index: int) -> str:
    """0 -> 'a', 25 -> 'z', 26 -> 'aa', ... (bijective base 26)."""
    s = ""
    index += 1
    while index > 0:
        index, rem = divmod(index - 1, 26)
        s = chr(ord("a") + rem) + s
    return s


def row_index(name: str) -> int:
    v = 0
    for ch in name:
        v = v * 26 + (ord(ch) - ord("a") + 1)
    return v - 1


def reach(starts: Iterable[int], neighbors: Sequence[Sequence[int]], cells: Sequence[int], value: int) -> List[int]:
    """The cells holding ``value`` joined to ``starts`` through neighbours
    holding ``value`` (starts holding another value are left out), in the order
    a depth-first walk visits them."""
    stack = [c for c in starts if cells[c] == value]
    seen: Set[int] = set(stack)
    out = []
    while stack:
        c = stack.pop()
        out.append(c)
        for d in neighbors[c]:
            if cells[d] == value and d not in seen:
                seen.add(d)
                stack.append(d)
    return out


def components(neighbors: Sequence[Sequence[int]], cells: Sequence[int], value: Optional[int] = None) -> List[List[int]]:
    """The connected groups of the cells holding ``value`` (of every non-zero
    value when ``None``), in the order of their first cell, each as ``reach``
    lists it."""
    seen: Set[int] = set()
    out = []
    for start, v in enumerate(cells):
        if start in seen or (v == 0 if value is None else v != value):
            continue
        group = reach([start], neighbors, cells, v)
        seen.update(group)
        out.append(group)
    return out


class Board:
    """A hexagon with 120-degree corners given by six side lengths, clockwise
    from the top edge.  ``Board.hexhex(n)`` is the regular one."""

    def __init__(self, sides: Sequence[int]):
        s1, s2, s3, s4, s5, s6 = (int(x) for x in sides)
        if min(s1, s2, s3, s4, s5, s6) < 1 or not (s1 - s4 == s5 - s2 == s3 - s6):
            raise ValueError(f"sides {tuple(sides)} do not close a 120-degree hexagon")
        self.sides = (s1, s2, s3, s4, s5, s6)
        nrows = s2 + s3 - 1
        # Cells are indexed in label order: bottom row first, left to right.
        # Axial (q, r): r grows downward; r = 0 on the row where the upper-right
        # side ends, so a hexhex board is centred on (0, 0).
        self.coords: List[Tuple[int, int]] = []
        self.labels: List[str] = []
        for row in range(nrows):
            i = nrows - 1 - row  # row counted from the top
            qmin = -min(i, s6 - 1)
            qmax = s1 - 1 - max(0, i - (s2 - 1))
            for c, q in enumerate(range(qmin, qmax + 1)):
                self.coords.append((q, i - (s2 - 1)))
                self.labels.append(f"{row_name(row)}{c + 1}")
        self.num_cells = len(self.coords)
        self._index = {xy: k for k, xy in enumerate(self.coords)}
        self._label_index = {lab: k for k, lab in enumerate(self.labels)}
        self.neighbors: List[List[int]] = []
        for q, r in self.coords:
            self.neighbors.append(
                [self._index[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in self._index]
            )
        self.ring = [k for k in range(self.num_cells) if len(self.neighbors[k]) < 6]

    @classmethod
    def hexhex(cls, n: int) -> "Board":
        return cls((n,) * 6)

    def index(self, label: str) -> int:
        try:
            return self._label_index[label]
        except KeyError:
            raise ValueError(f"unknown cell {label!r}") from None

    def label(self, k: int) -> str:
        return self.labels[k]
