"""Pure-Python Churn, written for clarity: every rule is computed from scratch
with a flood fill. Same constructor arguments and move API as ``hexcore.Churn``."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ._board import NAMED_BOARDS, Board, reach
from ._errors import IllegalMove

RED, BLUE = 1, 2


class Churn:
    def __init__(self, size: Optional[int] = None, *, sides: Optional[Sequence[int]] = None,
                 board: Optional[str] = None, pie: bool = True) -> None:
        if board is not None:
            if board not in NAMED_BOARDS:
                raise ValueError(f"board: unknown board {board!r}")
            sides = NAMED_BOARDS[board]
        elif sides is None:
            n = 3 if size is None else size
            if n < 2:
                raise ValueError(f"size must be at least 2, got {n}")
            sides = (n,) * 6
        self.board = Board(sides)
        self.pie = pie
        self.cell = [0] * self.board.num_cells
        self.to_move = RED
        self.history: List[str] = []
        self.is_over = False
        self.winners: Tuple[int, ...] = ()
        self.from_start = True  # the game began on the empty board, Red to move

    @classmethod
    def from_position(cls, position: Dict[str, int], to_move: int = 1, **options: Any) -> "Churn":
        """A set-up position: it never offers the pie swap (an empty board
        with Red to move is the start itself)."""
        g = cls(**options)
        for label, v in position.items():
            g.cell[g.board.index(label)] = v
        g.to_move = to_move
        g.from_start = to_move == RED and not any(g.cell)
        g._check_end()
        return g

    # -- rules --
    def group(self, start: int) -> Set[int]:
        """The cells of the group holding ``start``."""
        return set(reach([start], self.board.neighbors, self.cell, self.cell[start]))

    def formed_size(self, cell: int, colour: int) -> int:
        touched: Set[int] = set()
        for nb in self.board.neighbors[cell]:
            if self.cell[nb] == colour:
                touched |= self.group(nb)
        return 1 + len(touched)

    def legal_cells(self) -> List[int]:
        if self.is_over:
            return []
        me = self.to_move
        empty = [c for c in range(self.board.num_cells) if self.cell[c] == 0]
        isolated = [c for c in empty if all(self.cell[nb] != me for nb in self.board.neighbors[c])]
        if isolated:
            return isolated
        sizes = {c: self.formed_size(c, me) for c in empty}
        best = min(sizes.values())
        return [c for c in empty if sizes[c] == best]

    def swap_allowed(self) -> bool:
        """Pie rule: Blue's first turn, right after Red's first stone, in a
        game played from the start (never after a set-up position)."""
        return (self.pie and self.from_start and not self.is_over and len(self.history) == 1
                and self.history[0] != "swap" and self.to_move == BLUE)

    def legal_moves(self) -> List[str]:
        moves = [self.board.label(c) for c in self.legal_cells()]
        if self.swap_allowed():
            moves.append("swap")
        return moves

    def count_moves(self) -> int:
        return len(self.legal_moves())

    def play(self, move: str) -> str:
        """Play a move; returns its canonical text (as recorded in ``history``)."""
        move = move.strip().lower()
        if self.is_over:
            raise IllegalMove("the game is over", "game_over")
        if move == "swap":
            if not self.swap_allowed():
                raise IllegalMove("swap is not allowed here", "swap_not_allowed")
            red = self.cell.index(RED)
            self.cell[red] = BLUE
            self.to_move = RED
            self.history.append("swap")
            return "swap"
        try:
            cell = self.board.index(move)
        except ValueError:
            raise IllegalMove(f"unknown cell {move!r}", "unknown_cell") from None
        if self.cell[cell] != 0:
            raise IllegalMove(f"{move} is occupied", "occupied")
        if cell not in self.legal_cells():
            raise IllegalMove(f"{move} breaks the placement rules", "placement")
        me = self.to_move
        self.cell[cell] = me
        formed = self.group(cell)
        if len(formed) > 1:
            done: Set[int] = set()
            for c in range(self.board.num_cells):
                if self.cell[c] == me and c not in done:
                    grp = self.group(c)
                    done |= grp
                    if len(grp) < len(formed):
                        for x in grp:
                            self.cell[x] = 0
        self.history.append(move)
        self.to_move = 3 - me
        self._check_end()
        return move

    def _check_end(self) -> None:
        if all(v != 0 for v in self.cell):
            self.is_over = True
            red, blue = self.cell.count(RED), self.cell.count(BLUE)
            self.winners = (1,) if red > blue else (2,) if blue > red else (1, 2)

    def scores(self) -> Tuple[int, int]:
        return self.cell.count(RED), self.cell.count(BLUE)

    def cells(self) -> List[int]:
        return list(self.cell)

    def copy(self) -> "Churn":
        g = Churn.__new__(Churn)
        g.__dict__.update(self.__dict__)
        g.cell = list(self.cell)
        g.history = list(self.history)
        return g
