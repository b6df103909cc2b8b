"""Quintun, pure-Python reference implementation.

Written to be read next to the rule card (``seeds/quintun.md``), not to be
fast: every rule is checked the plain way (flood fills, full scans).  The Rust
engine (``hexcore.Quintun``) is tested against this module.

Board and notation
------------------
Hexhex of side ``n`` (4..10).  Cells are indexed in Abstract Play label order
(bottom row first, left to right), as every hexcore board is.  Moves are written
in the Quintun record notation of the sample game: a doubled-column layout with
``4n-3`` columns named ``a, b, ..., z, aa, ab, ...`` from the left and rows
``1..2n-1`` from the top; the cell at axial ``(q, r)`` is column
``2q + r + 2(n-1)``, row ``r + n``.

Moves (canonical spelling first):

* STONE   ``j4``            a stone of the mover on an empty Interior cell;
* NEW     ``Ai1``           the lowest colour letter not yet on the board, on a Ring cell;
* EXTEND  ``Akm1``          two neutrals of colours already on the board; the two
          ``Ag1,Af2``       stones are written in reading order (top row first, then
          ``Ci13,Aq13``     left to right); the compact form ``Akm1`` is used when both
                            have one colour and one row and the board has at most 26
                            columns (sides 4..7).  On larger boards the compact form
                            does not exist (``Aac10`` is the NEW move at ``ac10``).
                            Input may give the two stones in any order and may use
                            the comma form where the compact one is canonical.
* SWAP    ``swap``          also accepted: White's first move repeating Black's first
                            cell (``j4 j4`` in the sample record).
"""
from __future__ import annotations

import copy as _copy
import re
from functools import lru_cache
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from .._args import keyword_only
from ._board import Board, components, reach
from ._board import row_name as _name
from ._errors import IllegalMove

__all__ = ["Quintun", "IllegalMove", "QuintunGeometry", "geometry", "read_record", "COLOURS"]

COLOURS = "ABCDE"
BLACK, WHITE = 1, 2
PLACEMENTS = ("side", "gap")
GAP_MIN = 5  # the `gap` rule: at least this many empty ring cells on both sides

# A move, parsed: ("stone", cell) | ("new", colour, cell) | ("extend", frozenset{(cell, colour), ...})
# | ("swap",).  Colours are 1..5 for A..E.
Move = Tuple[Any, ...]


# --------------------------------------------------------------------------- geometry


class QuintunGeometry:
    """Board of side ``n`` plus what Quintun needs: record labels, the ring in
    clockwise order, the six sides (corners on two of them)."""

    def __init__(self, n: int):
        self.n = n
        self.board = Board.hexhex(n)
        b = self.board
        self.num_cells = b.num_cells
        self.neighbors = b.neighbors
        self.num_columns = 4 * n - 3
        self.num_rows = 2 * n - 1
        # record coordinates: (column 0.., row 1..)
        self.xy: List[Tuple[int, int]] = [(2 * q + r + 2 * (n - 1), r + n) for q, r in b.coords]
        self.labels: List[str] = [f"{_name(x)}{row}" for x, row in self.xy]
        self._label_index = {lab: i for i, lab in enumerate(self.labels)}
        self.is_ring = [len(nb) < 6 for nb in b.neighbors]
        self.interior = [i for i in range(self.num_cells) if not self.is_ring[i]]
        # The ring clockwise from the top-left corner (column n-1, row 1).
        m = n - 1
        axial = {xy: i for i, xy in enumerate(b.coords)}
        q, r = 0, -m
        order: List[int] = []
        for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)):
            for _ in range(m):
                order.append(axial[(q, r)])
                q, r = q + dq, r + dr
        assert (q, r) == (0, -m) and sorted(order) == sorted(b.ring)
        self.ring_order = order
        self.ring_len = len(order)
        self.ring_pos = {c: p for p, c in enumerate(order)}
        # side k runs from corner k to corner k+1 (both included), clockwise from the top
        self.sides: List[List[int]] = [[order[(k * m + j) % len(order)] for j in range(n)] for k in range(6)]
        self.corners = [order[k * m] for k in range(6)]
        self.sides_of: Dict[int, List[int]] = {c: [] for c in order}
        for k, side in enumerate(self.sides):
            for c in side:
                self.sides_of[c].append(k)
        # On these boards two ring cells touch exactly when they follow each other on the ring.
        for p, c in enumerate(order):
            ring_nb = {d for d in b.neighbors[c] if self.is_ring[d]}
            assert ring_nb == {order[p - 1], order[(p + 1) % len(order)]}

    def index(self, label: str) -> int:
        try:
            return self._label_index[label]
        except KeyError:
            raise ValueError(f"unknown cell {label!r}") from None

    def label(self, cell: int) -> str:
        return self.labels[cell]


@lru_cache(maxsize=None)
def geometry(n: int) -> QuintunGeometry:
    return QuintunGeometry(n)


# --------------------------------------------------------------------------- records


_RECORD_LINE = re.compile(r"^\s*\d+\s*\.?\s+(\S+)(?:\s+(\S+))?\s*$")


def read_record(text: Union[str, Sequence[str]]) -> List[str]:
    """Move tokens of a record written as numbered lines ``1  j4  j4`` (the sample
    game's form).  Reading stops at ``resign`` (a result, not a move)."""
    lines = text.splitlines() if isinstance(text, str) else list(text)
    moves: List[str] = []
    for line in lines:
        if not line.strip():
            continue
        m = _RECORD_LINE.match(line)
        if not m:
            raise ValueError(f"not a record line: {line!r}")
        for tok in m.groups():
            if tok is None:
                continue
            if tok.lower() in ("resign", "resigns"):
                return moves
            moves.append(tok)
    return moves


# --------------------------------------------------------------------------- the game


class Quintun:
    """A Quintun game.  Players: 1 = Black (moves first), 2 = White."""

    @keyword_only
    def __init__(self, size: int = 7, *, placement: str = "side", swap: bool = True):
        if isinstance(size, bool) or not isinstance(size, int) or not 4 <= size <= 10:
            raise ValueError(f"size must be an integer from 4 to 10, got {size!r}")
        if placement not in PLACEMENTS:
            raise ValueError(f"placement must be 'side' or 'gap', got {placement!r}")
        if not isinstance(swap, bool):
            raise ValueError(f"swap must be True or False, got {swap!r}")
        self.size = size
        self.placement = placement
        self.swap = swap
        self.geo = geometry(size)
        self.board = self.geo.board
        # 0 empty, 1 black, 2 white, -1..-5 neutral A..E
        self._cells: List[int] = [0] * self.geo.num_cells
        self.to_move = BLACK
        self.history: List[str] = []
        self.is_over = False
        self.winners: Tuple[int, ...] = ()
        self._first_stone: Optional[int] = None  # cell of Black's first move, if a STONE
        self._swap_possible = True  # False for positions not reached from the start

    # ----------------------------------------------------------------- set-up

    @classmethod
    def from_position(cls, position: Mapping[str, Union[int, str]], to_move: int = 1, **options: Any) -> "Quintun":
        """A position for tests: ``{"j4": 1, "m5": 2, "i1": "A"}`` (record labels;
        values 1/2 or a neutral letter "A".."E", or -1..-5).  No swap is offered.
        If a player already qualifies the game is over: the player who moved last
        (the one not to move) takes precedence, as after a move."""
        g = cls(**options)
        if to_move not in (BLACK, WHITE):
            raise ValueError(f"to_move must be 1 or 2, got {to_move!r}")
        for label, value in position.items():
            try:
                cell = g.geo.index(label)
            except ValueError:
                raise ValueError(f"position: unknown cell {label!r}") from None
            if isinstance(value, str):
                if len(value) != 1 or value not in COLOURS:
                    raise ValueError(f"position: {label}: neutral colour must be one of A..E, got {value!r}")
                v = -(COLOURS.index(value) + 1)
            elif isinstance(value, int) and not isinstance(value, bool) and value in (1, 2, -1, -2, -3, -4, -5):
                v = value
            else:
                raise ValueError(f"position: {label}: value must be 1, 2 or a letter A..E, got {value!r}")
            if v > 0 and g.geo.is_ring[cell]:
                raise ValueError(f"position: player stone on ring cell {label}")
            if v < 0 and not g.geo.is_ring[cell]:
                raise ValueError(f"position: neutral stone on interior cell {label}")
            g._cells[cell] = v
        if not g._neutrals_connected(g._cells):
            raise ValueError("position: a neutral colour is split into several blocks")
        g._swap_possible = False
        g.to_move = to_move
        g._settle(mover=3 - to_move)
        return g

    @classmethod
    def replay(cls, moves: Union[str, Iterable[str]], **options: Any) -> "Quintun":
        """Play a sequence of moves (or a numbered record text, see ``read_record``)."""
        if isinstance(moves, str):
            moves = read_record(moves) if re.search(r"^\s*\d+\s", moves, re.M) else moves.split()
        g = cls(**options)
        for mv in moves:
            g.play(mv)
        return g

    def copy(self) -> "Quintun":
        g = _copy.copy(self)  # shares the (immutable) geometry
        g._cells = list(self._cells)
        g.history = list(self.history)
        return g

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Quintun):
            return NotImplemented
        return bool(self._key() == other._key())

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> Tuple[Any, ...]:
        return (self.size, self.placement, self.swap, tuple(self._cells), self.to_move,
                self._swap_legal(), self.is_over, self.winners)

    # ----------------------------------------------------------------- views

    def cells(self) -> List[int]:
        return list(self._cells)

    def colours_on_board(self) -> List[int]:
        return sorted({-self._cells[c] for c in self.geo.ring_order if self._cells[c] < 0})

    def next_new_colour(self) -> Optional[int]:
        """Colour (1..5) a NEW move would use, or None if all five are out."""
        present = set(self.colours_on_board())
        for k in range(1, 6):
            if k not in present:
                return k
        return None

    def __str__(self) -> str:
        return self.diagram()

    def diagram(self) -> str:
        """Text diagram in the style of the sample game: ``o`` Black, ``x`` White,
        letters neutrals, ``,`` empty Ring, ``.`` empty Interior; rows numbered."""
        geo = self.geo
        width = geo.num_columns
        names = [_name(x) for x in range(width)]
        deep = max(len(s) for s in names)
        header = ["".join(s.rjust(deep)[k] for s in names) for k in range(deep)]
        grid = [[" "] * width for _ in range(geo.num_rows)]
        for cell, (x, row) in enumerate(geo.xy):
            v = self._cells[cell]
            if v == BLACK:
                ch = "o"
            elif v == WHITE:
                ch = "x"
            elif v < 0:
                ch = COLOURS[-v - 1]
            else:
                ch = "," if geo.is_ring[cell] else "."
            grid[row - 1][x] = ch
        rows = ["".join(line) + "  " + str(k + 1) for k, line in enumerate(grid)]
        return "\n".join(header + rows + header)

    # ----------------------------------------------------------------- notation

    def _compact_allowed(self) -> bool:
        return self.geo.num_columns <= 26

    def format_move(self, move: Move) -> str:
        geo = self.geo
        kind = move[0]
        if kind == "swap":
            return "swap"
        if kind == "stone":
            return str(geo.labels[move[1]])
        if kind == "new":
            return str(COLOURS[move[1] - 1] + geo.labels[move[2]])
        (c1, k1), (c2, k2) = sorted(move[1], key=lambda ck: (geo.xy[ck[0]][1], geo.xy[ck[0]][0]))
        (x1, r1), (x2, r2) = geo.xy[c1], geo.xy[c2]
        if k1 == k2 and r1 == r2 and self._compact_allowed():
            return f"{COLOURS[k1 - 1]}{_name(x1)}{_name(x2)}{r1}"
        return f"{COLOURS[k1 - 1]}{geo.labels[c1]},{COLOURS[k2 - 1]}{geo.labels[c2]}"

    _CELL = re.compile(r"^([a-z]+)([0-9]+)$")
    _NEUTRAL = re.compile(r"^([A-Z])([a-z]+)([0-9]+)$")

    def _cell(self, text: str) -> int:
        m = self._CELL.match(text)
        if not m or m.group(2).startswith("0"):
            raise IllegalMove(f"{text!r} is not a cell (column letters, then row number)", "syntax")
        try:
            return self.geo.index(text)
        except ValueError:
            raise IllegalMove(f"no cell {text!r} on a side-{self.size} board", "unknown_cell") from None

    @staticmethod
    def _colour(letter: str, text: str) -> int:
        if letter not in COLOURS:
            raise IllegalMove(f"{text!r}: neutral colours are A..E, not {letter!r}", "bad_colour")
        return COLOURS.index(letter) + 1

    def parse_move(self, text: str) -> Move:
        """Parse without checking legality (only the syntax and that cells exist)."""
        if not isinstance(text, str):
            raise IllegalMove(f"a move is a string, got {type(text).__name__}", "syntax")
        s = text.strip()
        if s.lower() == "swap":
            return ("swap",)
        if "," in s:
            parts = [p.strip() for p in s.split(",")]
            if len(parts) != 2:
                raise IllegalMove(f"{text!r}: EXTEND is two neutral stones, e.g. 'Ag1,Af2'", "syntax")
            stones = []
            for p in parts:
                m = self._NEUTRAL.match(p)
                if not m:
                    raise IllegalMove(f"{text!r}: {p!r} is not a neutral stone like 'Ag1'", "syntax")
                stones.append((self._cell(m.group(2) + m.group(3)), self._colour(m.group(1), text)))
            return self._extend(stones, text)
        m = self._NEUTRAL.match(s)
        if m:
            colour = self._colour(m.group(1), text)
            letters, row = m.group(2), m.group(3)
            if self._compact_allowed() and len(letters) == 2:
                stones = [(self._cell(letters[0] + row), colour), (self._cell(letters[1] + row), colour)]
                return self._extend(stones, text)
            return ("new", colour, self._cell(letters + row))
        if self._CELL.match(s):
            return ("stone", self._cell(s))
        raise IllegalMove(f"cannot read move {text!r}", "syntax")

    @staticmethod
    def _extend(stones: List[Tuple[int, int]], text: str) -> Move:
        if stones[0][0] == stones[1][0]:
            raise IllegalMove(f"{text!r}: both stones on one cell", "extend_same_cell")
        return ("extend", frozenset(stones))

    # ----------------------------------------------------------------- rules

    def _neutrals_connected(self, cells: Sequence[int], colours: Iterable[int] = range(1, 6)) -> bool:
        """Each of ``colours`` forms one connected block (flood fill per colour).
        Neutral stones only ever stand on the ring."""
        for k in colours:
            members = [c for c in self.geo.ring_order if cells[c] == -k]
            if not members:
                continue
            if len(reach(members[:1], self.geo.neighbors, cells, -k)) != len(members):
                return False
        return True

    def _stone_free_sides(self) -> List[int]:
        return [k for k, side in enumerate(self.geo.sides) if all(self._cells[c] == 0 for c in side)]

    def _gap_ok(self, cell: int) -> bool:
        """At least GAP_MIN empty ring cells before the nearest neutral, both ways."""
        geo = self.geo
        p = geo.ring_pos[cell]
        for step in (1, -1):
            empties = 0
            for j in range(1, geo.ring_len):
                c = geo.ring_order[(p + step * j) % geo.ring_len]
                if self._cells[c] != 0:
                    break
                empties += 1
            else:
                continue  # no neutral at all that way
            if empties < GAP_MIN:
                return False
        return True

    def _new_cells(self) -> List[int]:
        """Ring cells a NEW move may use (ignoring whether a colour is left)."""
        geo = self.geo
        empty = [c for c in geo.ring_order if self._cells[c] == 0]
        if self.placement == "side":
            free = set(self._stone_free_sides())
            preferred = [c for c in empty if free.intersection(geo.sides_of[c])]
        else:
            preferred = [c for c in empty if self._gap_ok(c)]
        return preferred if preferred else empty

    def _swap_legal(self) -> bool:
        return (
            self.swap
            and self._swap_possible
            and len(self.history) == 1
            and self._first_stone is not None
            and self.to_move == WHITE
        )

    def _extend_legal(self, stones: FrozenSet[Tuple[int, int]]) -> bool:
        present = set(self.colours_on_board())
        cells = list(self._cells)
        for c, k in stones:
            if k not in present or not self.geo.is_ring[c] or cells[c] != 0:
                return False
            cells[c] = -k
        # the other colours are untouched, so they are still one block each
        return self._neutrals_connected(cells, {k for _, k in stones})

    def check(self, move: Move) -> None:
        """Raise IllegalMove if ``move`` (parsed) is not legal now."""
        geo = self.geo
        if self.is_over:
            raise IllegalMove("the game is over", "game_over")
        kind = move[0]
        if kind == "swap":
            if not self._swap_legal():
                raise IllegalMove("swap is only White's first move, after a Black STONE, with swap on", "swap_not_allowed")
            return
        if kind == "stone":
            c = move[1]
            if geo.is_ring[c]:
                raise IllegalMove(f"{geo.labels[c]} is a Ring cell: stones go on the Interior", "stone_on_ring")
            if self._cells[c] != 0:
                raise IllegalMove(f"{geo.labels[c]} is occupied", "occupied")
            return
        if kind == "new":
            colour, c = move[1], move[2]
            if not geo.is_ring[c]:
                raise IllegalMove(f"{geo.labels[c]} is an Interior cell: neutrals go on the Ring", "neutral_in_interior")
            if self._cells[c] != 0:
                raise IllegalMove(f"{geo.labels[c]} is occupied", "occupied")
            want = self.next_new_colour()
            if want is None:
                raise IllegalMove("all five neutral colours are on the board: no NEW move", "wrong_new_colour")
            if colour != want:
                if colour in self.colours_on_board():
                    msg = f"{COLOURS[colour - 1]} is already on the board (one stone is not an EXTEND); NEW uses {COLOURS[want - 1]}"
                else:
                    msg = f"a NEW move uses the lowest colour not on the board: {COLOURS[want - 1]}, not {COLOURS[colour - 1]}"
                raise IllegalMove(msg, "wrong_new_colour")
            if c not in self._new_cells():
                if self.placement == "side":
                    raise IllegalMove(f"{geo.labels[c]} is not on a side without stones (and such a side exists)", "placement_side")
                raise IllegalMove(f"{geo.labels[c]} is fewer than {GAP_MIN} empty ring cells from a neutral "
                                  "(and a cell that is not exists)", "placement_gap")
            return
        if kind == "extend":
            present = set(self.colours_on_board())
            for c, k in sorted(move[1]):
                if not geo.is_ring[c]:
                    raise IllegalMove(f"{geo.labels[c]} is an Interior cell: neutrals go on the Ring", "neutral_in_interior")
                if self._cells[c] != 0:
                    raise IllegalMove(f"{geo.labels[c]} is occupied", "occupied")
            for c, k in sorted(move[1]):
                if k not in present:
                    raise IllegalMove(f"EXTEND uses colours already on the board; {COLOURS[k - 1]} is not", "extend_absent_colour")
            if not self._extend_legal(move[1]):
                raise IllegalMove("afterwards a neutral colour would not be one connected block", "extend_splits_colour")
            return
        raise IllegalMove(f"unknown move {move!r}", "syntax")

    def _apply(self, move: Move) -> None:
        kind = move[0]
        mover = self.to_move
        if kind == "swap":
            assert self._first_stone is not None  # swap is legal only after a first stone
            self._cells[self._first_stone] = WHITE
            self.to_move = BLACK
        else:
            if kind == "stone":
                self._cells[move[1]] = mover
                if not self.history:
                    self._first_stone = move[1]
            elif kind == "new":
                self._cells[move[2]] = -move[1]
            else:
                for c, k in move[1]:
                    self._cells[c] = -k
            self.to_move = 3 - mover
        self.history.append(self.format_move(move))
        self._settle(mover)

    def _settle(self, mover: int) -> None:
        """After a move by ``mover``: the win check, then the draw check."""
        q = self.qualified()
        other = 3 - mover
        if q[mover - 1]:
            self.is_over, self.winners = True, (mover,)
        elif q[other - 1]:
            self.is_over, self.winners = True, (other,)
        elif not self._moves(limit=1):
            self.is_over, self.winners = True, (1, 2)  # a draw: every seat

    def play(self, move: str) -> str:
        """Play a move; returns its canonical text (as recorded in ``history``)."""
        if self.is_over:
            raise IllegalMove("the game is over", "game_over")
        parsed = self.parse_move(move)
        # the record's way of writing the swap: White repeats Black's first cell
        if parsed[0] == "stone" and self._swap_legal() and parsed[1] == self._first_stone:
            parsed = ("swap",)
        self.check(parsed)
        self._apply(parsed)
        return self.history[-1]

    # ----------------------------------------------------------------- move generation

    def _moves(self, limit: Optional[int] = None) -> List[Move]:
        geo = self.geo
        out: List[Move] = []
        for c in geo.interior:
            if self._cells[c] == 0:
                out.append(("stone", c))
        if limit is not None and len(out) >= limit:
            return out
        k = self.next_new_colour()
        if k is not None:
            out.extend(("new", k, c) for c in self._new_cells())
        # EXTEND: a new stone of colour X lies within two ring steps of an X stone
        # (next to one, or next to the other new stone which is next to one), so
        # these candidates include every legal EXTEND; each pair is checked in full.
        cand: List[Tuple[int, int]] = []
        for colour in self.colours_on_board():
            near = set()
            for c in geo.ring_order:
                if self._cells[c] == -colour:
                    p = geo.ring_pos[c]
                    for d in (-2, -1, 1, 2):
                        e = geo.ring_order[(p + d) % geo.ring_len]
                        if self._cells[e] == 0:
                            near.add(e)
            cand.extend((e, colour) for e in sorted(near))
        for i in range(len(cand)):
            for j in range(i + 1, len(cand)):
                if cand[i][0] != cand[j][0]:
                    stones = frozenset((cand[i], cand[j]))
                    if self._extend_legal(stones):
                        out.append(("extend", stones))
        if self._swap_legal():
            out.append(("swap",))
        return out

    def legal_moves(self) -> List[str]:
        if self.is_over:
            return []
        return [self.format_move(m) for m in self._moves()]

    def count_moves(self) -> int:
        return len(self.legal_moves())

    def count_by_kind(self) -> Dict[str, int]:
        counts = {"stone": 0, "new": 0, "extend": 0, "swap": 0}
        if not self.is_over:
            for m in self._moves():
                counts[m[0]] += 1
        return counts

    # ----------------------------------------------------------------- winning

    def groups(self, player: int) -> List[Tuple[List[int], FrozenSet[int]]]:
        """The player's groups: (cells, set of neutral colours they touch)."""
        cells, nb = self._cells, self.geo.neighbors
        return [
            (sorted(members), frozenset(-cells[d] for c in members for d in nb[c] if cells[d] < 0))
            for members in components(nb, cells, player)
        ]

    def qualifies(self, player: int) -> bool:
        sizes = [len(cols) for _, cols in self.groups(player)]
        return any(s >= 4 for s in sizes) or sum(1 for s in sizes if s >= 3) >= 2

    def qualified(self) -> Tuple[bool, bool]:
        return (self.qualifies(BLACK), self.qualifies(WHITE))

    def scores(self) -> Tuple[int, int]:
        """Per player: the most neutral colours one of its groups touches."""
        black, white = (max((len(cols) for _, cols in self.groups(p)), default=0) for p in (BLACK, WHITE))
        return (black, white)

    def __repr__(self) -> str:
        return f"Quintun(size={self.size}, placement={self.placement!r}, swap={self.swap}) after {len(self.history)} moves"
