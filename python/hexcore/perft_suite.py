"""Perft suites: text files of known node counts (``seeds/perft/*.perft``).

Format, one entry per block::

    id churn-side3-empty
    spec churn(size=3)
    moves c3 swap              # optional: moves from the start, space separated
    perft 1 19
    perft 2 361

Lines starting with ``#`` are comments. ``run_suite`` checks every count up
to a node limit at both move and action level.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Union

from ._args import renamed
from .spec import load


@dataclass
class Entry:
    id: str
    spec: str
    moves: List[str] = field(default_factory=list)
    counts: Dict[int, int] = field(default_factory=dict)

    def game(self) -> Any:
        g = load(self.spec)
        for m in self.moves:
            g.play(m)
        return g


@dataclass
class Result:
    id: str
    depth: int
    expected: int
    by_move: int
    by_action: int

    @property
    def ok(self) -> bool:
        return self.expected == self.by_move == self.by_action


def parse_suite(text: str) -> List[Entry]:
    entries: List[Entry] = []
    cur: Optional[Entry] = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        rest = rest.strip()
        if key == "id":
            cur = Entry(id=rest, spec="")
            entries.append(cur)
        elif cur is None:
            raise ValueError(f"line {lineno}: {key!r} before the first 'id'")
        elif key == "spec":
            cur.spec = rest
        elif key == "moves":
            cur.moves = rest.split()
        elif key == "perft":
            d, n = rest.split()
            cur.counts[int(d)] = int(n)
        else:
            raise ValueError(f"line {lineno}: unknown key {key!r}")
    for e in entries:
        if not e.spec:
            raise ValueError(f"entry {e.id!r} has no spec")
    return entries


def load_suite(path: Union[str, Path]) -> List[Entry]:
    return parse_suite(Path(path).read_text())


@renamed(node_limit="max_nodes")
def run_suite(entries: Iterable[Entry], max_nodes: int = 10**7, threads: Optional[int] = None) -> List[Result]:
    """Check every count not above ``max_nodes``; move and action level."""
    from .engine import perft

    out = []
    for e in entries:
        g = e.game()
        for d, n in sorted(e.counts.items()):
            if n > max_nodes:
                continue
            by_move = perft(g, d, threads=threads)
            by_action = perft(g, d, unit="action", threads=threads)
            assert isinstance(by_move, int) and isinstance(by_action, int)
            out.append(Result(e.id, d, n, by_move, by_action))
    return out
