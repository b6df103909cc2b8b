"""Pure-Python Hex, written for clarity: the winner is found after every stone
with a flood fill from the mover's first edge. Same constructor arguments and
move API as ``hexcore.Hex``.

The board is a ``rows`` x ``cols`` rhombus; cell ``row * cols + col`` is
labelled column letter + 1-based row (``a1`` top left). A cell touches the
cells left and right of it, the two above it (same column and one to the
right) and the two below it (same column and one to the left). x (1) joins
the top and bottom rows, o (2) the left and right columns. With ``swap``, o's
first move may be ``swap``: x's stone on (r, c) becomes an o stone on (c, r).
A position set up with ``from_position`` never offers the swap (an empty
board with x to move is the start itself).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ._board import reach, row_name
from ._errors import IllegalMove

X, O_ = 1, 2


class Hex:
    def __init__(self, size: Optional[int] = None, *, rows: Optional[int] = None,
                 cols: Optional[int] = None, swap: bool = False) -> None:
        if size is not None and (rows is not None or cols is not None):
            raise ValueError("give size, or rows and cols, not both")
        n = 11 if size is None else size
        self.rows = n if rows is None else rows
        self.cols = n if cols is None else cols
        for what, v in (("rows", self.rows), ("cols", self.cols)):
            if not 1 <= v <= 25:
                raise ValueError(f"{what} must be between 1 and 25, got {v}")
        if swap and self.rows != self.cols:
            raise ValueError("swap needs a square board")
        self.swap = swap
        self.num_cells = self.rows * self.cols
        self.labels = [f"{row_name(c % self.cols)}{c // self.cols + 1}" for c in range(self.num_cells)]
        self.adjacent = [self.neighbors(c) for c in range(self.num_cells)]
        self.cell = [0] * self.num_cells
        self.to_move = X
        self.history: List[str] = []
        self.is_over = False
        self.winners: Tuple[int, ...] = ()
        self.from_start = True  # the game began on the empty board, x to move

    @classmethod
    def from_position(cls, position: Dict[str, int], to_move: int = 1, **options: Any) -> "Hex":
        g = cls(**options)
        for label, v in position.items():
            g.cell[g.labels.index(label)] = v
        g.to_move = to_move
        g.from_start = to_move == X and not any(g.cell)
        for colour in (X, O_):
            if g.connected(colour):
                g.is_over, g.winners = True, (colour,)
        return g

    # -- rules --
    def neighbors(self, cell: int) -> List[int]:
        r, c = divmod(cell, self.cols)
        out = []
        for dr, dc in ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)):
            if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols:
                out.append((r + dr) * self.cols + c + dc)
        return out

    def connected(self, colour: int) -> bool:
        """Whether ``colour``'s stones join its two edges."""
        if colour == X:
            start = [c for c in range(self.cols)]
            goal = {(self.rows - 1) * self.cols + c for c in range(self.cols)}
        else:
            start = [r * self.cols for r in range(self.rows)]
            goal = {r * self.cols + self.cols - 1 for r in range(self.rows)}
        return any(c in goal for c in reach(start, self.adjacent, self.cell, colour))

    def swap_allowed(self) -> bool:
        """o's first turn, right after x's first stone, in a game played from
        the start (never after a set-up position)."""
        return (self.swap and self.from_start and not self.is_over and len(self.history) == 1
                and self.to_move == O_)

    def legal_actions(self) -> List[int]:
        """Empty cells in increasing order, then ``num_cells`` for the swap."""
        if self.is_over:
            return []
        acts = [c for c in range(self.num_cells) if self.cell[c] == 0]
        if self.swap_allowed():
            acts.append(self.num_cells)
        return acts

    def legal_moves(self) -> List[str]:
        return ["swap" if a == self.num_cells else self.labels[a] for a in self.legal_actions()]

    def count_moves(self) -> int:
        return len(self.legal_actions())

    def play(self, move: str) -> str:
        """Play a move; returns its canonical text (as recorded in ``history``)."""
        move = move.strip().lower()
        if self.is_over:
            raise IllegalMove("the game is over", "game_over")
        if move == "swap":
            if not self.swap_allowed():
                raise IllegalMove("swap is not allowed here", "swap_not_allowed")
            x_cell = self.cell.index(X)
            r, c = divmod(x_cell, self.cols)
            self.cell[x_cell] = 0
            self.cell[c * self.cols + r] = O_
            self.to_move = X
            self.history.append("swap")
            return "swap"
        if move not in self.labels:
            raise IllegalMove(f"{move!r} is not a cell of this board", "unknown_cell")
        cell = self.labels.index(move)
        if self.cell[cell] != 0:
            raise IllegalMove(f"{move} is occupied", "occupied")
        me = self.to_move
        self.cell[cell] = me
        self.history.append(move)
        self.to_move = 3 - me
        if self.connected(me):
            self.is_over, self.winners = True, (me,)
        return move

    def apply_action(self, action: int) -> str:
        return self.play("swap" if action == self.num_cells else self.labels[action])

    def scores(self) -> Tuple[int, int]:
        return (1, -1) if self.winners == (X,) else (-1, 1) if self.winners == (O_,) else (0, 0)

    def cells(self) -> List[int]:
        return list(self.cell)

    def copy(self) -> "Hex":
        g = Hex.__new__(Hex)
        g.__dict__.update(self.__dict__)
        g.cell = list(self.cell)
        g.history = list(self.history)
        return g
