"""An independent checker of the solver's proof certificates
(``hc.solve(..., certificate=path)``): it replays the proof with the
pure-Python reference games of this package, and nothing of the Rust engine.

The file (version 3; versions 1, without pairing leaves and fill nodes, and 2,
without fill nodes, are read too) is JSON lines, gzip-compressed when its name
ends in ``.gz``:

* a header: ``{"format": "hexcore-certificate", "version": 2, "game": "churn",
  "options": {...}, "setup": null, "moves": [...], "to_move": 1}`` -- the
  position is the reference game built with ``options`` (from
  ``setup = {"position": {label: value}, "to_move": k, "options": {...}}``
  through ``from_position`` when it is not null), after ``moves``;
* node lines: ``[id, "move", next]`` at a position where the strategy's player
  moves (the one move they play there), ``[id, {"move": next, ...}]`` where
  the opponent moves (every legal move); ``next`` is the node after the move,
  or ``null`` when the game is over after it;
* pairing leaves (version 2, Hex): ``[id, {"pairs": [[cell, cell], ...]}]`` at
  a position the strategy's player has won against any play, whoever is to
  move (and the swap not on offer): the player's two edges and each group of
  their stones are nodes; each pair is two empty cells that both touch the
  same two nodes (a bridge, or a two-cell edge template), so it links them
  (when the opponent takes one cell the player takes the other); no cell is
  in two pairs; and the links join the player's two edges. The player then
  holds a chain on the full board, so the opponent never wins;
* fill nodes (version 3, Hex): ``[id, {"fill": [cell, ...], "next": next}]``
  at a position the strategy's player wins even with the opponent's stones on
  those empty cells (the swap neither on offer nor to come): ``next`` is the
  position with the opponent's stones put on them, the same player to move,
  and its proof stands for this one. In Hex a stone never helps the other
  player (whatever a strategy wins with the opponent's extra stones on the
  board, it wins without them: a move of the opponent on a filled cell is
  answered as if they had passed, by any move), so the opponent's replies
  below are only the cells left empty (the solver gives away the cells
  outside the carrier of a virtual connection between the player's edges);
* a trailer: ``{"end": true, "value": "win", "strategies": [{"player": 1,
  "goal": "win", "root": 0}], "positions": n, ...}``.

``value`` is the position's value for the player to move: a ``win`` is proved
by their winning strategy, a ``loss`` by the opponent's, a ``draw`` by a
strategy of each player with the goal ``draw`` (the game ends with that
player among the winners or nobody winning alone against them).

The check walks each strategy from the position: at the strategy player's
nodes it plays the move given (it must be legal), at the opponent's it plays
every legal move (none may be missing), and every line must end in a finished
game that meets the goal or a pairing leaf that checks on the board alone
(a fill node goes on to its filled position). A node is a position: every way of reaching it must
give the same position (compared on the reference's own state: stones, player
to move and every rule flag), which is what lets a transposition be written
once; a node reached again from itself is refused (a strategy must end). So a
certificate that passes proves the value with no trust in the solver.

From the command line: ``python -m hexcore.reference PATH``
(exit status 0 when it checks, 1 with the reason when not).
"""
from __future__ import annotations

import gzip
import json
import os
import sys
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple, Union

from ._errors import IllegalMove
from .churn import Churn
from .hex import Hex
from .quintun import Quintun
from .wunchunk import Wunchunk

__all__ = ["CertificateError", "CheckedCertificate", "check_certificate", "FORMAT", "VERSION"]

FORMAT = "hexcore-certificate"
VERSION = 3
"""The version written; the checker reads this one and versions 1 and 2."""

_GAMES: Dict[str, Any] = {"churn": Churn, "hex": Hex, "quintun": Quintun, "wunchunk": Wunchunk}


class CertificateError(ValueError):
    """A certificate that does not prove what it claims, or is not one."""


@dataclass(frozen=True)
class CheckedCertificate:
    """What a certificate that passed :func:`check_certificate` proves."""

    game: str
    options: Dict[str, Any]
    moves: List[str]
    to_move: int
    value: str
    positions: int
    """Nodes checked (each a position of one strategy)."""
    finished_games: int
    """Moves checked that end the game."""
    pairing_leaves: int = 0
    """Nodes checked that are pairing leaves (counted in ``positions`` too)."""
    fill_nodes: int = 0
    """Nodes checked that are fill nodes (counted in ``positions`` too)."""


def _position_key(g: Any) -> Tuple[Any, ...]:
    """Everything of a reference game's state that decides its future: two
    positions with the same key have the same legal moves and outcomes."""
    if isinstance(g, Quintun):
        return g._key()
    if isinstance(g, Wunchunk):
        return (tuple(g._cells), tuple(g._seat_colour), g.to_move, g.phase, g.passes, min(g.colour1_turns, 2),
                g.swap_ready, g.first_turn, g.is_over, g.winners)
    return (tuple(g.cell), g.to_move, g.swap_allowed(), g.is_over, g.winners)


def _lines(path: Union[str, "os.PathLike[str]"]) -> Iterator[Tuple[int, Any]]:
    p = os.fspath(path)
    opener: Any = gzip.open if p.endswith(".gz") else open
    try:
        with opener(p, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    try:
                        yield n, json.loads(line)
                    except json.JSONDecodeError as e:
                        raise CertificateError(f"line {n} is not JSON: {e}") from None
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise CertificateError(f"cannot read the certificate {p}: {e}") from None


def _read(path: Union[str, "os.PathLike[str]"]) -> Tuple[Dict[str, Any], Dict[int, Any], Dict[str, Any]]:
    header: Optional[Dict[str, Any]] = None
    trailer: Optional[Dict[str, Any]] = None
    nodes: Dict[int, Any] = {}
    for n, item in _lines(path):
        if header is None:
            if not (isinstance(item, dict) and item.get("format") == FORMAT):
                raise CertificateError(f"line {n}: not a hexcore certificate (no {FORMAT!r} header)")
            if item.get("version") not in (1, 2, VERSION) or isinstance(item.get("version"), bool):
                raise CertificateError(f"certificate version {item.get('version')!r}; this checker reads versions 1 to {VERSION}")
            header = item
        elif trailer is not None:
            raise CertificateError(f"line {n}: lines after the trailer")
        elif isinstance(item, dict):
            if item.get("end") is not True:
                raise CertificateError(f"line {n}: an object that is not the trailer")
            trailer = item
        elif isinstance(item, list) and len(item) in (2, 3) and isinstance(item[0], int) and not isinstance(item[0], bool):
            if item[0] in nodes:
                raise CertificateError(f"line {n}: node {item[0]} is given twice")
            nodes[item[0]] = item
        else:
            raise CertificateError(f"line {n}: not a node line ([id, move, next] or [id, {{move: next}}])")
    if header is None:
        raise CertificateError("the certificate is empty")
    if trailer is None:
        raise CertificateError("the certificate has no trailer line: it is incomplete (cut short?)")
    return header, nodes, trailer


def _start(header: Dict[str, Any]) -> Any:
    name = header.get("game")
    if name not in _GAMES:
        raise CertificateError(f"unknown game {name!r}; the checker knows {', '.join(sorted(_GAMES))}")
    cls = _GAMES[name]
    options = header.get("options") or {}
    setup = header.get("setup")
    try:
        if setup is None:
            g = cls(**options)
        else:
            g = cls.from_position(setup["position"], setup["to_move"], **options, **(setup.get("options") or {}))
        for m in header.get("moves") or []:
            g.play(m)
    except (ValueError, TypeError, KeyError) as e:
        raise CertificateError(f"the header's position cannot be set up: {e}") from None
    return g


def _pairing_error(g: Any, player: int, item: Dict[str, Any]) -> Optional[str]:
    """Why ``item`` (``{"pairs": [...]}``) does not prove that ``player`` wins
    ``g`` against any play; ``None`` when it does."""
    if not isinstance(g, Hex):
        return "pairing leaves are for Hex only"
    if len(item) != 1:
        return "the node must hold only its pairs"
    if g.swap_allowed():
        return "the swap is on offer, which would change the stones"
    pairs = item["pairs"]
    if not isinstance(pairs, list):
        return "the pairs must be a list of [cell, cell]"
    rows, cols = g.rows, g.cols
    parent: Dict[Any, Any] = {}

    def find(x: Any) -> Any:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def edges(c: int) -> Set[str]:
        r, q = divmod(c, cols)
        i = r if player == 1 else q
        n = rows if player == 1 else cols
        return {e for e, on in (("first", i == 0), ("second", i == n - 1)) if on}

    # the player's stones: each joined to its neighbours and its edges
    for c in range(g.num_cells):
        if g.cell[c] == player:
            for e in edges(c):
                parent[find(c)] = find(e)
            for nb in g.adjacent[c]:
                if g.cell[nb] == player:
                    parent[find(nb)] = find(c)
    seen: Set[int] = set()
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            return f"{pair!r} is not a pair of cells"
        if pair[0] == pair[1]:
            return f"the pair {pair[0]}-{pair[1]} is one cell twice"
        cells = []
        for label in pair:
            if label not in g.labels:
                return f"{label!r} is not a cell of this board"
            c = g.labels.index(label)
            if g.cell[c] != 0:
                return f"{label} is not empty"
            if c in seen:
                return f"{label} is in two pairs"
            seen.add(c)
            cells.append(c)

        def touched(c: int) -> Set[Any]:
            return {find(e) for e in edges(c)} | {find(nb) for nb in g.adjacent[c] if g.cell[nb] == player}

        common = touched(cells[0]) & touched(cells[1])
        if len(common) < 2:
            return (f"the pair {pair[0]}-{pair[1]} does not touch the same two of player {player}'s "
                    "stone groups and edges")
        first, *rest = common
        for x in rest:
            parent[find(x)] = find(first)
    if find("first") != find("second"):
        return f"the pairs do not join player {player}'s two edges"
    return None


def _filled(g: Any, player: int, item: Dict[str, Any]) -> Union[str, Any]:
    """The position of a fill node ``item`` (``{"fill": [...], "next": n}``):
    ``g`` with the opponent's stones on the cells given, the same player to
    move; or why the node is not one."""
    if not isinstance(g, Hex):
        return "fill nodes are for Hex only"
    if set(item) != {"fill", "next"}:
        return "the node must hold only its fill and next"
    if g.swap_allowed() or (g.swap and g.from_start and not g.history):
        return "the swap is on offer or still to come, which would change the stones"
    cells = item["fill"]
    if not (isinstance(cells, list) and cells and all(isinstance(x, str) for x in cells)):
        return "the fill must be a non-empty list of cells"
    f = g.copy()
    f.from_start = False  # no swap below
    for label in cells:
        if label not in g.labels:
            return f"{label!r} is not a cell of this board"
        c = g.labels.index(label)
        if f.cell[c] != 0:
            return f"{label} is not empty" if g.cell[c] != 0 else f"{label} is given twice"
        f.cell[c] = 3 - player
    if f.connected(3 - player):
        return f"the filled cells join player {3 - player}'s edges"
    return f


class _Walk:
    """One strategy's check."""

    def __init__(self, nodes: Dict[int, Any], player: int, goal: str, version: int = VERSION) -> None:
        self.nodes = nodes
        self.version = version
        self.player = player
        self.goal = goal
        self.key: Dict[int, Tuple[Any, ...]] = {}
        self.via: Dict[int, Optional[Tuple[int, str]]] = {}
        self.done: Set[int] = set()
        self.ends = 0
        self.leaves = 0
        self.fills = 0

    def path(self, node: Optional[int], move: Optional[str] = None) -> str:
        moves = [] if move is None else [move]
        while node is not None:
            v = self.via.get(node)
            if v is None:
                break
            node, m = v
            moves.append(m)
        return "after " + " ".join(reversed(moves)) if moves else "at the start"

    def fail(self, node: Optional[int], msg: str, move: Optional[str] = None) -> CertificateError:
        where = f"node {node} ({self.path(node)})" if node is not None else self.path(None)
        if move is not None:
            where += f", move {move!r}"
        return CertificateError(f"player {self.player}'s strategy ({self.goal}): {where}: {msg}")

    def meets(self, g: Any) -> bool:
        winners = tuple(g.winners)
        if self.goal == "win":
            return winners == (self.player,)
        return winners != (3 - self.player,)

    def enter(self, node: Any, g: Any, via: Optional[Tuple[int, str]], stack: List[Any]) -> None:
        if not isinstance(node, int) or isinstance(node, bool):
            parent, move = via if via is not None else (None, None)
            raise self.fail(parent, f"the next node is {node!r}, not a node number", move)
        key = _position_key(g)
        if node in self.key:
            if self.key[node] != key:
                parent, move = via if via is not None else (None, None)
                raise self.fail(parent, f"leads to node {node}, which is a different position ({self.path(node)})", move)
            if node not in self.done:
                raise self.fail(node, "the strategy comes back to this position: it never ends")
            return
        item = self.nodes.get(node)
        self.key[node] = key
        self.via[node] = via
        if item is None:
            raise self.fail(node, "the node is not in the certificate")
        if len(item) == 2 and isinstance(item[1], dict) and "pairs" in item[1]:
            if self.version < 2:
                raise self.fail(node, "a pairing leaf needs a version 2 certificate")
            error = _pairing_error(g, self.player, item[1])
            if error is not None:
                raise self.fail(node, f"not a pairing leaf: {error}")
            self.done.add(node)
            self.leaves += 1
            return
        if len(item) == 2 and isinstance(item[1], dict) and "fill" in item[1]:
            if self.version < 3:
                raise self.fail(node, "a fill node needs a version 3 certificate")
            if self.goal != "win":
                raise self.fail(node, "a fill node proves a win only")
            f = _filled(g, self.player, item[1])
            if isinstance(f, str):
                raise self.fail(node, f"not a fill node: {f}")
            self.fills += 1
            stack.append((node, g, [(None, item[1]["next"], f)], 0))
            return
        legal = g.legal_moves()
        if g.to_move == self.player:
            if len(item) != 3 or not isinstance(item[1], str):
                raise self.fail(node, f"player {self.player} is to move, so the node must give one move ([id, move, next])")
            children = [(item[1], item[2], None)]
        else:
            if len(item) != 2 or not isinstance(item[1], dict):
                raise self.fail(node, f"player {3 - self.player} is to move, so the node must list every reply ([id, {{move: next}}])")
            replies = item[1]
            missing = [m for m in legal if m not in replies]
            if missing:
                raise self.fail(node, f"the reply {missing[0]!r} is missing ({len(missing)} of {len(legal)} legal replies missing)")
            extra = [m for m in replies if m not in legal]
            if extra:
                raise self.fail(node, f"{extra[0]!r} is not a legal move here")
            children = [(m, replies[m], None) for m in legal]
        stack.append((node, g, children, 0))

    def run(self, root_game: Any, root: Any) -> None:
        stack: List[Any] = []
        self.enter(root, root_game, None, stack)
        while stack:
            node, g, children, i = stack[-1]
            if i == len(children):
                self.done.add(node)
                stack.pop()
                continue
            stack[-1] = (node, g, children, i + 1)
            move, nxt, filled = children[i]
            if filled is not None:
                self.enter(nxt, filled, (node, "(fill)"), stack)
                continue
            c = g.copy()
            try:
                c.play(move)
            except IllegalMove as e:
                raise self.fail(node, f"not a legal move: {e}", move) from None
            if c.is_over:
                if nxt is not None:
                    raise self.fail(node, f"the game is over after it, but the certificate goes on to node {nxt!r}", move)
                if not self.meets(c):
                    raise self.fail(node, f"the game ends with winners {tuple(c.winners)}: not a {self.goal} for player {self.player}", move)
                self.ends += 1
            elif nxt is None:
                raise self.fail(node, "the certificate says the game is over after it, but it is not", move)
            else:
                self.enter(nxt, c, (node, move), stack)


def check_certificate(path: Union[str, "os.PathLike[str]"]) -> CheckedCertificate:
    """Check the certificate at ``path`` with the reference games; return what
    it proves, or raise :class:`CertificateError` saying where it fails."""
    header, nodes, trailer = _read(path)
    g = _start(header)
    if g.is_over:
        raise CertificateError("the header's position is a finished game")
    if header.get("to_move") != g.to_move:
        raise CertificateError(f"the header says player {header.get('to_move')!r} is to move; it is player {g.to_move}")
    if getattr(g, "players", 2) != 2:
        raise CertificateError("certificates are for two-player games")
    value = str(trailer.get("value"))
    me, other = g.to_move, 3 - g.to_move
    expected = {"win": [(me, "win")], "loss": [(other, "win")], "draw": [(me, "draw"), (other, "draw")]}.get(value)
    if expected is None:
        raise CertificateError(f"the trailer's value is {value!r}, not 'win', 'loss' or 'draw'")
    given = trailer.get("strategies")
    if not isinstance(given, list) or not all(isinstance(s, dict) for s in given):
        raise CertificateError("the trailer's strategies must be a list of {player, goal, root}")
    roots = {(s.get("player"), s.get("goal")): s.get("root") for s in given}
    walked = 0
    ends = 0
    leaves = 0
    fills = 0
    for player, goal in expected:
        if (player, goal) not in roots:
            raise CertificateError(f"a {value} needs player {player}'s strategy for a {goal}; the certificate has none")
        w = _Walk(nodes, player, goal, version=header["version"])
        w.run(g.copy(), roots[(player, goal)])
        walked += len(w.done)
        ends += w.ends
        leaves += w.leaves
        fills += w.fills
    return CheckedCertificate(game=header["game"], options=dict(header.get("options") or {}), moves=list(header.get("moves") or []),
                              to_move=g.to_move, value=value, positions=walked, finished_games=ends,
                              pairing_leaves=leaves, fill_nodes=fills)


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m hexcore.reference PATH  (check a certificate written by hexcore's solver)", file=sys.stderr)
        return 2
    try:
        c = check_certificate(args[0])
    except CertificateError as e:
        print(f"{args[0]}: NOT a proof: {e}", file=sys.stderr)
        return 1
    print(f"{args[0]}: proves {c.game}{c.options} after {len(c.moves)} moves, player {c.to_move} to move: a {c.value} "
          f"({c.positions:,} positions, {c.finished_games:,} finished games, {c.pairing_leaves:,} pairing leaves, "
          f"{c.fill_nodes:,} fill nodes checked)")
    return 0
