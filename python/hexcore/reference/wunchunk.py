"""Wunchunk, pure-Python reference implementation.

Written for clarity, not speed: it is the executable statement of the rules in
``seeds/wunchunk.md`` (Abstract Play's engine behaviour) that the Rust engine is
tested against.

Rules in brief
--------------
* Hexhex board of side 5..8; 2-4 players, colour k belongs to seat k (until a
  swap exchanges the colours of seats 1 and 2).
* A *chunk* is a connected group of one colour with at least two stones.
* On a turn the mover places 1..A stones of ANY colours on distinct empty cells
  (A = chunks of the mover's own colour at the start of the turn, capped by the
  number of empty cells) or passes.
* The game ends when the board is full or after N consecutive passes.  Every
  colour gets the vector [chunks, #groups of size 1, #size 2, ..., #size M]
  (M = largest group on the board); the lexicographically smallest vectors win.

Variants
--------
* ``start="standard"`` (one chunk per colour, AP's layouts) or ``"open"``
  (2 players: ply 1 places two adjacent colour-1 and two adjacent colour-2
  stones, ply 2 answers ``pass`` (keep colours) or ``swap``; after ``swap`` a
  pass for seat 1 is inserted, so colour 1 moves first).  The inserted pass
  counts for the consecutive-pass rule but is NOT an entry of ``history``.
* ``balance="ap"``: on colour 1's second regular turn a placement must leave
  colour 1 with at most one chunk (whoever created the others).
  ``balance="pie"`` (2 players): after the first move of the game, if it placed
  a stone, the second player may answer ``swap``; seats exchange colours and
  seat 1 (now colour 2) moves next.  With ``start="open"`` the open start's own
  ply-2 choice already is the pie, so no further swap is offered.
  ``balance="none"``: no first-player rule.
"""
from __future__ import annotations

import itertools
from math import comb
from typing import Any, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from .._args import keyword_only
from ._board import Board, components
from ._errors import IllegalMove

__all__ = ["Wunchunk", "IllegalMove", "START_POSITIONS", "replay_ap_record"]

# Abstract Play's start layouts.  3 and 4 players on size 7 reuse the size-8
# labels (AP does exactly this).
START_POSITIONS: Dict[Tuple[int, int], Dict[str, int]] = {
    (2, 5): {"f4": 1, "f5": 1, "d4": 2, "d5": 2},
    (2, 6): {"g5": 1, "g6": 1, "e5": 2, "e6": 2},
    (2, 7): {"h6": 1, "h7": 1, "f6": 2, "f7": 2},
    (2, 8): {"i7": 1, "i8": 1, "g7": 2, "g8": 2},
    (3, 7): {"i7": 1, "h7": 1, "g7": 2, "g8": 2, "h9": 3, "i8": 3},
    (3, 8): {"i7": 1, "h7": 1, "g7": 2, "g8": 2, "h9": 3, "i8": 3},
    (4, 7): {"j8": 1, "i9": 1, "j6": 2, "i6": 2, "g6": 3, "f6": 3, "g9": 4, "f8": 4},
    (4, 8): {"j8": 1, "i9": 1, "j6": 2, "i6": 2, "g6": 3, "f6": 3, "g9": 4, "f8": 4},
}

# phases of the game
SETUP = "setup"    # open start, ply 1: the four setup stones
CHOOSE = "choose"  # open start, ply 2: pass or swap
PLAY = "play"      # regular turns


class Wunchunk:
    @keyword_only
    def __init__(self, size: Optional[int] = None, *, players: int = 2, start: str = "standard", balance: str = "ap"):
        if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        if size is None:
            size = 6 if players == 2 else 8
        if not isinstance(size, int) or isinstance(size, bool):
            raise ValueError(f"size must be an int, got {size!r}")
        allowed = (5, 6, 7, 8) if players == 2 else (7, 8)
        if size not in allowed:
            raise ValueError(f"size must be one of {allowed} for {players} players, got {size!r}")
        if start not in ("standard", "open"):
            raise ValueError(f"start must be 'standard' or 'open', got {start!r}")
        if start == "open" and players != 2:
            raise ValueError("start='open' needs exactly 2 players")
        if balance not in ("ap", "pie", "none"):
            raise ValueError(f"balance must be 'ap', 'pie' or 'none', got {balance!r}")
        if balance == "pie" and players != 2:
            raise ValueError("balance='pie' needs exactly 2 players")
        self.size = size
        self.players = players
        self.start = start
        self.balance = balance
        self.board = Board.hexhex(size)
        self._cells: List[int] = [0] * self.board.num_cells
        if start == "standard":
            for label, colour in START_POSITIONS[(players, size)].items():
                self._cells[self.board.index(label)] = colour
        # seat_colour[seat] = colour played by that seat (index 0 unused)
        self._seat_colour: List[int] = list(range(players + 1))
        self.to_move = 1
        self.phase = SETUP if start == "open" else PLAY
        self.passes = 0          # consecutive passes so far (the inserted pass counts)
        self.colour1_turns = 0   # regular turns completed by colour 1's owner
        self.plies = 0           # moves played (history entries)
        self.swap_ready = False  # balance="pie": a swap is legal now
        self.first_turn = True   # no turn has ended yet
        self.is_over = False
        self.winners: Tuple[int, ...] = ()
        self.history: List[str] = []

    # ------------------------------------------------------------------ setup
    @classmethod
    def from_position(
        cls,
        stones: Dict[str, int],
        to_move: int = 1,
        colour1_turns: int = 2,
        passes: int = 0,
        **options: Any,
    ) -> "Wunchunk":
        """A test position in the regular phase.

        ``stones`` maps labels to colours 1..N; every other cell is empty.
        ``colour1_turns`` is the number of regular turns colour 1 has already
        completed (default 2: the balance rule is over; pass 1 to make the
        next colour-1 turn the balance turn).  ``passes`` is the number of
        consecutive passes just played.  Seats own their own colours, no swap
        is available, the history is empty.  A full board is a finished game.
        """
        g = cls(**options)
        g.phase = PLAY
        g._cells = [0] * g.board.num_cells
        for label, colour in stones.items():
            idx = g.board.index(str(label).strip().lower())
            if not isinstance(colour, int) or not 1 <= colour <= g.players:
                raise ValueError(f"stones: colour {colour!r} at {label} is not in 1..{g.players}")
            g._cells[idx] = colour
        if not isinstance(to_move, int) or not 1 <= to_move <= g.players:
            raise ValueError(f"to_move must be in 1..{g.players}, got {to_move!r}")
        if not isinstance(passes, int) or not 0 <= passes < g.players:
            raise ValueError(f"passes must be in 0..{g.players - 1}, got {passes!r}")
        if not isinstance(colour1_turns, int) or colour1_turns < 0:
            raise ValueError(f"colour1_turns must be a non-negative int, got {colour1_turns!r}")
        g.to_move = to_move
        g.passes = passes
        g.colour1_turns = colour1_turns
        g.first_turn = False
        if 0 not in g._cells:
            g._finish()
        return g

    def copy(self) -> "Wunchunk":
        g = object.__new__(Wunchunk)
        g.__dict__.update(self.__dict__)
        g._cells = list(self._cells)
        g._seat_colour = list(self._seat_colour)
        g.history = list(self.history)
        return g

    # ------------------------------------------------------------- properties
    @property
    def seat_colour(self) -> Dict[int, int]:
        return {seat: self._seat_colour[seat] for seat in range(1, self.players + 1)}

    def cells(self) -> List[int]:
        return list(self._cells)

    @property
    def empty_cells(self) -> List[int]:
        return [i for i, c in enumerate(self._cells) if c == 0]

    @property
    def mover_colour(self) -> int:
        return self._seat_colour[self.to_move]

    @property
    def allotment(self) -> int:
        """Stones the mover may place this turn (before capping by empty cells)."""
        if self.phase == SETUP:
            return 4
        return self.chunks(self.mover_colour)

    @property
    def balance_turn(self) -> bool:
        """True when placements this turn must leave colour 1 with <= 1 chunk."""
        return (
            self.balance == "ap"
            and self.phase == PLAY
            and self.mover_colour == 1
            and self.colour1_turns == 1
        )

    # ----------------------------------------------------------------- groups
    def groups(self, colour: int, cells: Optional[Sequence[int]] = None) -> List[List[int]]:
        """Connected groups of ``colour`` (lists of cell indices)."""
        return components(self.board.neighbors, self._cells if cells is None else cells, colour)

    def chunks(self, colour: int, cells: Optional[Sequence[int]] = None) -> int:
        return sum(1 for g in self.groups(colour, cells) if len(g) >= 2)

    def group_sizes(self) -> Dict[int, List[int]]:
        """Sizes of all groups, per colour (one flood fill over the board)."""
        sizes: Dict[int, List[int]] = {c: [] for c in range(1, self.players + 1)}
        for group in components(self.board.neighbors, self._cells):
            sizes[self._cells[group[0]]].append(len(group))
        return sizes

    def colour_vectors(self) -> List[List[int]]:
        """[chunks, #size 1, ..., #size M] for colours 1..N (index 0 = colour 1)."""
        sizes = self.group_sizes()
        biggest = max((max(s) for s in sizes.values() if s), default=0)
        return [
            [sum(1 for x in sizes[c] if x >= 2)] + [sizes[c].count(m) for m in range(1, biggest + 1)]
            for c in range(1, self.players + 1)
        ]

    def scores(self) -> List[List[int]]:
        """Per seat (index 0 = seat 1): the full vector of that seat's colour."""
        vecs = self.colour_vectors()
        return [vecs[self._seat_colour[seat] - 1] for seat in range(1, self.players + 1)]

    # ---------------------------------------------------------------- parsing
    def _parse(self, move: str) -> Tuple[Any, ...]:
        """Return ("pass",), ("swap",) or ("place", [(cell, colour), ...]);
        raises IllegalMove.  Checks follow AP's order so that the reasons
        match: counts first, then each step in the order written."""
        if self.is_over:
            raise IllegalMove("the game is over", "game_over")
        if not isinstance(move, str):
            raise IllegalMove(f"a move must be a string, got {type(move).__name__}", "syntax")
        text = "".join(move.split()).lower()
        if text == "":
            raise IllegalMove("empty move", "syntax")
        if text == "pass":
            return ("pass",)
        if text == "swap":
            if self._swap_legal():
                return ("swap",)
            raise IllegalMove("swap is not allowed now", "swap_not_allowed")
        if self.phase == CHOOSE:
            raise IllegalMove(f"{move!r}: in the open start the second player must answer 'pass' or 'swap'", "open_choice")
        steps = text.split(",")
        if not any(steps):
            raise IllegalMove(f"{move!r} is not a move", "syntax")
        if not all(steps):
            raise IllegalMove(f"{move!r}: an empty placement (a stray comma)", "syntax")
        word = next((s for s in steps if s in ("pass", "swap")), None)
        if word is not None:
            raise IllegalMove(f"{move!r}: {word!r} is a whole move and cannot be combined with placements", "syntax")
        allot = self.allotment
        if len(steps) > allot:
            raise IllegalMove(f"{move!r}: {len(steps)} stones, but only {allot} allowed", "too_many_stones")
        empties = self._cells.count(0)
        if len(steps) > empties:
            raise IllegalMove(f"{move!r}: {len(steps)} stones, but only {empties} empty cells", "more_than_empty")
        placed: List[Tuple[int, int]] = []
        used = set()
        for step in steps:
            ch = step[0]
            if ch not in "0123456789":
                raise IllegalMove(f"{step!r}: a step is a colour digit and a cell, like 1g7", "syntax")
            if not 1 <= int(ch) <= self.players:
                raise IllegalMove(f"{step!r}: colour {ch!r} is not one of 1..{self.players}", "bad_colour")
            colour = int(ch)
            label = step[1:]
            if label == "":
                raise IllegalMove(f"{step!r}: a colour without a cell", "syntax")
            try:
                cell = self.board.index(label)
            except ValueError:
                raise IllegalMove(f"{step!r}: no cell {label!r} on this board", "unknown_cell") from None
            if self._cells[cell] != 0:
                raise IllegalMove(f"{step!r}: cell {label} is occupied", "occupied")
            if cell in used:
                raise IllegalMove(f"{step!r}: cell {label} is used twice in one move", "duplicate_cell")
            used.add(cell)
            placed.append((cell, colour))
        if self.phase == SETUP:
            self._check_setup(move, placed)
        if self.balance_turn and not self._balance_ok(placed):
            raise IllegalMove(
                f"{move!r}: on colour 1's second turn colour 1 must end with at most one chunk",
                "balance",
            )
        return ("place", placed)

    def _check_setup(self, move: str, placed: List[Tuple[int, int]]) -> None:
        for colour in (1, 2):
            mine = [cell for cell, c in placed if c == colour]
            if len(mine) >= 2 and mine[1] not in self.board.neighbors[mine[0]]:
                raise IllegalMove(f"{move!r}: the two colour-{colour} setup stones must be adjacent", "open_setup")
            if len(mine) > 2:
                raise IllegalMove(f"{move!r}: at most two colour-{colour} stones in the setup", "open_setup")
        if len(placed) < 4:
            raise IllegalMove(f"{move!r}: the setup is exactly two adjacent stones of each colour", "open_setup")

    def _balance_ok(self, placed: Iterable[Tuple[int, int]]) -> bool:
        after = list(self._cells)
        for cell, colour in placed:
            after[cell] = colour
        return self.chunks(1, after) <= 1

    def _swap_legal(self) -> bool:
        if self.is_over:
            return False
        return self.phase == CHOOSE or self.swap_ready

    # ------------------------------------------------------------------- play
    def play(self, move: str) -> str:
        """Play a move; returns its canonical text (as recorded in ``history``)."""
        parsed = self._parse(move)
        kind = parsed[0]
        swap_next = False
        if kind == "pass":
            self._end_turn(passed=True)
            canonical = "pass"
        elif kind == "swap":
            canonical = "swap"
            self._seat_colour[1], self._seat_colour[2] = self._seat_colour[2], self._seat_colour[1]
            if self.phase == CHOOSE:
                # open start: seat 2 takes colour 1; AP inserts a pass for seat 1
                self.phase = PLAY
                self.passes = 1
                self.to_move = 2
            else:
                # pie: seat 1, now colour 2, moves next
                self.passes = 0
                self.to_move = 1
            self.first_turn = False
        else:
            placed = sorted(parsed[1])
            canonical = ",".join(f"{colour}{self.board.label(cell)}" for cell, colour in placed)
            for cell, colour in placed:
                self._cells[cell] = colour
            swap_next = self.balance == "pie" and self.start == "standard" and self.first_turn
            self._end_turn(passed=False)
        self.swap_ready = swap_next
        self.plies += 1
        self.history.append(canonical)
        return canonical

    def _end_turn(self, passed: bool) -> None:
        if self.phase == PLAY and self.mover_colour == 1:
            self.colour1_turns += 1
        if self.phase == SETUP:
            self.phase = CHOOSE
        elif self.phase == CHOOSE:
            self.phase = PLAY
        self.passes = self.passes + 1 if passed else 0
        self.first_turn = False
        self.to_move = self.to_move % self.players + 1
        if self.passes >= self.players or 0 not in self._cells:
            self._finish()

    def _finish(self) -> None:
        self.is_over = True
        sc = self.scores()
        best = min(sc)
        self.winners = tuple(seat for seat in range(1, self.players + 1) if sc[seat - 1] == best)

    # ----------------------------------------------------------- move lists
    def is_legal(self, move: str) -> bool:
        try:
            self._parse(move)
        except IllegalMove:
            return False
        return True

    def legal_moves(self) -> List[str]:
        """Every legal move, canonical: placements (cells in index order) in
        lexicographic order of (cell, colour) tuples, then pass, then swap."""
        if self.is_over:
            return []
        moves: List[str] = []
        if self.phase == CHOOSE:
            return ["pass", "swap"]
        empties = self.empty_cells
        found = []
        if self.phase == SETUP:
            # an adjacent colour-1 pair and a disjoint adjacent colour-2 pair
            pairs = [(a, b) for a in empties for b in self.board.neighbors[a] if a < b and self._cells[b] == 0]
            for p1 in pairs:
                for p2 in pairs:
                    if not set(p1) & set(p2):
                        found.append(sorted([(p1[0], 1), (p1[1], 1), (p2[0], 2), (p2[1], 2)]))
        else:
            kmax = min(self.allotment, len(empties))
            colours = range(1, self.players + 1)
            for k in range(1, kmax + 1):
                for cells in itertools.combinations(empties, k):
                    for cols in itertools.product(colours, repeat=k):
                        placed = list(zip(cells, cols))
                        if self.balance_turn and not self._balance_ok(placed):
                            continue
                        found.append(placed)
        found.sort()
        for placed in found:
            moves.append(",".join(f"{c}{self.board.label(x)}" for x, c in placed))
        moves.append("pass")
        if self._swap_legal():
            moves.append("swap")
        return moves

    def count_moves(self) -> int:
        """Exact number of legal moves, by counting (no enumeration)."""
        if self.is_over:
            return 0
        if self.phase == CHOOSE:
            return 2
        empty = [c == 0 for c in self._cells]
        if self.phase == SETUP:
            # ordered pairs (colour-1 edge, colour-2 edge) of disjoint empty edges
            deg = [sum(1 for w in self.board.neighbors[v] if empty[w]) if empty[v] else 0 for v in range(len(empty))]
            edges = sum(deg) // 2
            return 1 + edges * edges - sum(d * d for d in deg) + edges
        n_empty = sum(empty)
        kmax = min(self.allotment, n_empty)
        extra = 1 + (1 if self._swap_legal() else 0)
        if not self.balance_turn:
            return int(extra + sum(comb(n_empty, k) * self.players ** k for k in range(1, kmax + 1)))
        f = self._colour1_sets(kmax)
        total = 0
        for k in range(1, kmax + 1):
            for j in range(0, k + 1):
                total += f[j] * comb(n_empty - j, k - j) * (self.players - 1) ** (k - j)
        return extra + total

    # ----------------------------------------- counting for the balance rule
    def _colour1_sets(self, jmax: int) -> List[int]:
        """f[j] = number of j-sets S of empty cells such that colour 1 plus S
        has at most one chunk, for j = 0..jmax.

        Split S into T (new stones with a colour-1 neighbour in the result)
        and U (new stones with none: isolated crumbs).  All of T lies in the
        single chunk K, together with every existing chunk; U is an
        independent set of empty cells not adjacent to colour 1 or T.
        f[j] = sum over valid T of ind(Free(T), j - |T|)."""
        nb = self.board.neighbors
        cells = self._cells
        groups = self.groups(1)
        comp_of = {}
        for gi, g in enumerate(groups):
            for v in g:
                comp_of[v] = gi
        chunk_ids = [gi for gi, g in enumerate(groups) if len(g) >= 2]
        f = [0] * (jmax + 1)

        def add_T(T: FrozenSet[int]) -> None:
            t = len(T)
            ones = {v for v, c in enumerate(cells) if c == 1} | set(T)
            free = [
                v for v, c in enumerate(cells)
                if c == 0 and v not in T and not any(w in ones for w in nb[v])
            ]
            ind = self._independent_counts(free, jmax - t)
            for m, x in enumerate(ind):
                f[t + m] += x

        if len(chunk_ids) <= 1:
            add_T(frozenset())  # T empty: valid iff at most one chunk already
        if jmax == 0 or not chunk_ids:
            # jmax counts colour 1's chunks (the mover is colour 1), so without
            # a chunk no stone may be placed at all
            return f
        root = set(groups[chunk_ids[0]])
        for T, region in self._grow(root, jmax, comp_of, groups):
            if T and all(set(groups[gi]) <= region for gi in chunk_ids):
                add_T(T)
        return f

    def _grow(self, root: Set[int], tmax: int, comp_of: Dict[int, int],
              groups: List[List[int]]) -> Iterator[Tuple[FrozenSet[int], Set[int]]]:
        """Yield (T, region) for every set T of at most tmax empty cells such
        that region = root + T + the colour-1 groups touching T is connected,
        each T exactly once (the usual connected-set enumeration: a cell
        skipped in one branch stays excluded in the later ones)."""
        nb = self.board.neighbors
        cells = self._cells

        def absorb(region: Set[int], v: int) -> Set[int]:
            region = set(region)
            region.add(v)
            for w in nb[v]:
                if cells[w] == 1 and w not in region:
                    region |= set(groups[comp_of[w]])
            return region

        def frontier(region: Set[int]) -> List[int]:
            return sorted({w for v in region for w in nb[v] if cells[w] == 0 and w not in region})

        def rec(T: Set[int], region: Set[int], cand: List[int],
                excluded: Set[int]) -> Iterator[Tuple[FrozenSet[int], Set[int]]]:
            yield frozenset(T), region
            if len(T) == tmax:
                return
            for i, x in enumerate(cand):
                new_excluded = excluded | set(cand[: i + 1])
                new_region = absorb(region, x)
                new_cand = list(cand[i + 1:])
                for w in frontier(new_region):
                    if w not in new_excluded and w not in new_cand:
                        new_cand.append(w)
                yield from rec(T | {x}, new_region, new_cand, new_excluded)

        region = set(root)
        yield from rec(set(), region, frontier(region), set())

    def _independent_counts(self, free: List[int], mmax: int) -> List[int]:
        """ind[m] = number of m-sets of pairwise non-adjacent cells of ``free``."""
        if mmax < 0:
            return []
        nb = self.board.neighbors
        free_set = set(free)
        # DP over cells in index order; state = chosen cells that may still
        # conflict with a later cell, plus how many were chosen.
        last_nb = {v: max([w for w in nb[v]], default=v) for v in free}
        states: Dict[Tuple[FrozenSet[int], int], int] = {(frozenset(), 0): 1}
        for v in sorted(free_set):
            new: Dict[Tuple[FrozenSet[int], int], int] = {}
            for (active, m), ways in states.items():
                keep = frozenset(u for u in active if last_nb[u] > v)
                new[(keep, m)] = new.get((keep, m), 0) + ways
                if m < mmax and not any(u in active for u in nb[v]):
                    key = (frozenset(u for u in active | {v} if last_nb[u] > v), m + 1)
                    new[key] = new.get(key, 0) + ways
            states = new
        ind = [0] * (mmax + 1)
        for (_, m), ways in states.items():
            ind[m] += ways
        return ind

    # ------------------------------------------------------------------ misc
    def __repr__(self) -> str:
        return (
            f"Wunchunk(size={self.size}, players={self.players}, start={self.start!r}, "
            f"balance={self.balance!r}) after {len(self.history)} moves"
        )


def replay_ap_record(moves: Sequence[str], **options: Any) -> Wunchunk:
    """Replay AP's move list (flattened rounds).  The pass AP inserts after an
    open-start ``swap`` is skipped; ``resign`` stops the replay."""
    g = Wunchunk(**options)
    skip = False
    for m in moves:
        if skip:
            skip = False
            if m.strip().lower() == "pass":
                continue
        if m.strip().lower() == "resign":
            break
        was_choose = g.phase == CHOOSE
        g.play(m)
        skip = was_choose and m.strip().lower() == "swap"
    return g
