"""What the pure-Python Y and Havannah share: stones placed one a turn on the
cells of an ``(x, y)`` grid, cell ``x + y * width`` being OpenSpiel's action
id, with the move API of the other reference games. Each game gives its
cells, its neighbours and its win test."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ._board import row_name
from ._errors import IllegalMove

X, O_ = 1, 2

# OpenSpiel's hex-grid neighbours of (x, y) on both games' grids.
NEIGHBOURS = {
    "y": ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)),
    "havannah": ((-1, -1), (0, -1), (1, 0), (1, 1), (0, 1), (-1, 0)),
}


class Stones:
    """A stone game on the cells ``cells`` (``(x, y)``, in action order) of a
    ``width`` x ``width`` grid."""

    swap = False

    def __init__(self, cells: Sequence[Tuple[int, int]], width: int, steps: Sequence[Tuple[int, int]]) -> None:
        self.xy = list(cells)
        self.width = width
        self.actions = [x + y * width for x, y in self.xy]
        self.labels = [f"{row_name(x)}{y + 1}" for x, y in self.xy]
        index = {p: k for k, p in enumerate(self.xy)}
        self.adjacent = [[index[(x + dx, y + dy)] for dx, dy in steps if (x + dx, y + dy) in index] for x, y in self.xy]
        self.num_cells = len(self.xy)
        self.cell = [0] * self.num_cells
        self.to_move = X
        self.history: List[str] = []
        self.is_over = False
        self.winners: Tuple[int, ...] = ()
        self.from_start = True

    def won(self, colour: int) -> bool:  # pragma: no cover - each game's own
        raise NotImplementedError

    @classmethod
    def from_position(cls, position: Dict[str, int], to_move: int = 1, **options: Any) -> Any:
        g = cls(**options)
        for label, v in position.items():
            g.cell[g.labels.index(label)] = v
        g.to_move = to_move
        g.from_start = to_move == X and not any(g.cell)
        for colour in (X, O_):
            if not g.is_over and g.won(colour):
                g.is_over, g.winners = True, (colour,)
        return g

    def swap_allowed(self) -> bool:
        return self.swap and self.from_start and not self.is_over and len(self.history) == 1

    def legal_actions(self) -> List[int]:
        """The empty cells' action ids, and x's first stone's while the swap
        is on offer, increasing."""
        if self.is_over:
            return []
        return [a for k, a in enumerate(self.actions) if self.cell[k] == 0 or (self.swap_allowed() and self.cell[k] == X)]

    def legal_moves(self) -> List[str]:
        return [self.labels[self.actions.index(a)] for a in self.legal_actions()]

    def count_moves(self) -> int:
        return len(self.legal_actions())

    def play(self, move: str) -> str:
        """Play a move; returns its canonical text (as recorded in ``history``)."""
        move = move.strip().lower()
        if self.is_over:
            raise IllegalMove("the game is over", "game_over")
        if move not in self.labels:
            raise IllegalMove(f"{move!r} is not a cell of this board", "unknown_cell")
        k = self.labels.index(move)
        me = self.to_move
        if self.cell[k] == X and self.swap_allowed():
            self.cell[k] = O_
        elif self.cell[k] != 0:
            raise IllegalMove(f"{move} is occupied", "occupied")
        else:
            self.cell[k] = me
        self.history.append(move)
        self.to_move = 3 - me
        if self.won(me):
            self.is_over, self.winners = True, (me,)
        elif all(self.cell):
            self.is_over, self.winners = True, (X, O_)
        return move

    def apply_action(self, action: int) -> str:
        return self.play(self.labels[self.actions.index(action)])

    def scores(self) -> Tuple[int, int]:
        return (1, -1) if self.winners == (X,) else (-1, 1) if self.winners == (O_,) else (0, 0)

    def cells(self) -> List[int]:
        return list(self.cell)

    def group(self, start: int) -> List[int]:
        """The cells of the group of the stone on ``start`` (flood fill)."""
        colour, seen, stack = self.cell[start], {start}, [start]
        while stack:
            c = stack.pop()
            for nb in self.adjacent[c]:
                if nb not in seen and self.cell[nb] == colour:
                    seen.add(nb)
                    stack.append(nb)
        return sorted(seen)

    def copy(self) -> Any:
        g = type(self).__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.cell = list(self.cell)
        g.history = list(self.history)
        return g


def opt(value: Optional[Any], default: Any) -> Any:
    return default if value is None else value
