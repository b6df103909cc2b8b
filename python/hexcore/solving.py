"""Exact solving: the game value of a position under perfect play.

>>> import hexcore as hc
>>> s = hc.solve(hc.Churn(size=2, pie=False))
>>> s.value, s.best_move, s.complete
('win', 'b2', True)
>>> s.moves["a1"]
'loss'
"""
from __future__ import annotations

import gzip
import json
import math
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Union

import numpy as np

from . import _core
from ._args import bool_arg, callback_arg, keyword_only
from ._files import new_file
from ._types import Game

__all__ = ["Solution", "solve"]

Progress = Callable[[int, int, int, float], Any]


@dataclass(frozen=True)
class Solution:
    """The result of :func:`solve`; values are for the player to move.

    ``value`` is ``"win"``, ``"loss"``, ``"draw"`` or ``None`` when the budget
    ran out before it was proved. ``moves`` maps every legal move's text to
    its value for the player making it (``None`` if not proved). ``best_move``
    is a move of the best value, the quickest win or the slowest loss when
    ``plies_to_end`` (the number of plies, whole turns, to the end of the
    game after it with perfect play) is known.
    """

    value: Optional[str]
    moves: Dict[str, Optional[str]] = field(repr=False)
    best_move: Optional[str]
    plies_to_end: Optional[int]
    nodes: int
    seconds: float
    complete: bool
    table_entries: int
    table_capacity: int = 0
    symmetries: int = 1
    certificate: Optional[str] = None
    """The certificate's path when one was asked for and written, ``None``
    when the budget ran out before it was finished (nothing is left at the
    path then)."""
    certificate_positions: int = 0
    """Positions (nodes) in the certificate."""
    algorithm: str = "alphabeta"
    """The algorithm that proved the values: ``"alphabeta"`` or ``"dfpn"``."""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0




def _certificate_header(game: Any) -> Dict[str, Any]:
    """The certificate's first line: the game, its options and the position
    (a set-up start, if any, and the moves played), for the reference games."""
    from .spec import parse

    name, options = parse(game.spec)
    setup = None
    s = game._setup()
    if s is not None:
        cells, to_move, extra = s
        board = game.board
        setup = {"position": {board.label(i): int(v) for i, v in enumerate(cells) if v != 0},
                 "to_move": int(to_move), "options": dict(extra)}
    # the checker's format, imported here: `import hexcore` loads no testing tools
    from .reference.certificate import FORMAT, VERSION

    return {"format": FORMAT, "version": VERSION, "game": name, "options": options, "setup": setup,
            "moves": list(game.history), "to_move": int(game.to_move)}


def _certificate_trailer(r: Dict[str, Any]) -> Dict[str, Any]:
    c = r["certificate"]
    strategies: List[Dict[str, Any]] = [{"player": p, "goal": "win" if goal > 0 else "draw", "root": root}
                                        for p, goal, root in c["strategies"]]
    return {"end": True, "value": r["value"], "strategies": strategies, "positions": c["positions"],
            "solver": f"hexcore {_core.__version__}", "nodes": r["nodes"]}


@keyword_only
def solve(game: Game, *, max_seconds: Optional[float] = None, max_nodes: Optional[int] = None,
          threads: Optional[int] = None, table_mb: int = 256,
          progress: Optional[Progress] = None, distances: bool = True,
          certificate: Optional[Union[str, "os.PathLike[str]"]] = None,
          algorithm: Optional[str] = None) -> Solution:
    """Solve ``game``'s position (a two-player Churn, Wunchunk, Quintun or Hex
    between turns) exactly.

    The search stops after ``max_seconds`` or ``max_nodes`` and then returns
    what it proved, with ``complete=False``; a value it reports is never
    wrong. ``threads`` (default: all cores) share the root moves and one
    transposition table of ``table_mb`` megabytes; the values do not depend
    on the thread count. The GIL is released and Ctrl-C interrupts.
    ``progress(nodes, table_entries, table_capacity, seconds)`` is called
    about twice a second. ``distances=False`` skips the second pass that
    proves the distance to the end for the best moves (``plies_to_end`` is
    then ``None`` and ``best_move`` is any move of the best value).

    ``certificate`` (a path; gzip-compressed when it ends in ``.gz``) asks
    for a proof of the position's value that
    :func:`hexcore.reference.check_certificate` replays with the pure-Python
    reference games: the winner's strategy (a draw: each side's non-losing
    one), as JSON lines (format in :mod:`hexcore.reference.certificate`).
    It is written after the values are proved, within the same budgets;
    ``Solution.certificate`` is its path, or ``None`` if the budget ran out
    first. Its index of positions takes up to ``table_mb`` more memory
    (up to 80 bytes a position; a larger certificate is refused with a
    ``ValueError``). The file is the same for any thread count (the
    winner's move is the first in the game's move order that is proved to
    keep the goal, never the shared table's best move).

    ``algorithm`` picks how the values are proved: ``"alphabeta"`` (negamax
    with alpha-beta and a shared table), ``"dfpn"`` (depth-first
    proof-number search; values only: ``plies_to_end`` is ``None`` and
    ``best_move`` is any move of the best value), or ``None``: alpha-beta
    when ``distances`` is true, else the game's own choice (``"dfpn"`` on
    Hex, where it is far faster, ``"alphabeta"`` on every other game; see
    ``docs/solved.md``). With ``"dfpn"`` each thread has its own table, a
    ``threads``-th of ``table_mb``; the certificate's proofs come from a
    fresh single-thread search.

    Returns:
        The :class:`Solution`.

    Raises:
        ValueError: an argument out of range (naming it), a game with more
            than two players, a finished game or a turn in progress.
        TypeError: an argument of the wrong type.
        KeyboardInterrupt: on Ctrl-C (nothing is kept).
    """
    if algorithm is not None and not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be 'alphabeta', 'dfpn' or None, got {type(algorithm).__name__}")
    if max_seconds is not None:
        if isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float, np.integer, np.floating)):
            raise TypeError(f"max_seconds must be a number, got {type(max_seconds).__name__}")
        if not (math.isfinite(max_seconds) and max_seconds > 0):
            raise ValueError(f"max_seconds must be a positive number, got {max_seconds}")
        max_seconds = float(max_seconds)
    progress = callback_arg("progress", progress, "(nodes, table_entries, table_capacity, seconds)")
    distances = bool_arg("distances", distances)
    part = None
    if certificate is not None:
        if not isinstance(certificate, (str, os.PathLike)):
            raise TypeError(f"certificate must be a path (str or os.PathLike) or None, got {type(certificate).__name__}")
        target = Path(os.fspath(certificate))
        part = target.with_name(target.name + ".part")
        header = _certificate_header(game)
    try:  # from the header on: a failure (a full disk, Ctrl-C) leaves no partial file
        if part is not None:
            with open(part, "w", encoding="utf-8") as f:
                f.write(json.dumps(header) + "\n")
        # the core checks max_nodes, threads and table_mb
        r = _core._solve(game, max_seconds, max_nodes, threads, table_mb, progress, distances,
                         None if part is None else str(part), algorithm)
        written = None
        if part is not None and r["certificate"] is not None:
            with open(part, "a", encoding="utf-8") as f:
                f.write(json.dumps(_certificate_trailer(r)) + "\n")
            if target.name.endswith(".gz"):
                with open(part, "rb") as src, new_file(target, "wb", gzip.open) as dst:
                    shutil.copyfileobj(src, dst)
                part.unlink()
            else:
                os.replace(part, target)
            written = str(target)
    finally:
        if part is not None and part.is_file():
            part.unlink()
    moves = {text: value for text, value in r["moves"]}
    best = r["best"]
    return Solution(
        value=r["value"],
        moves=moves,
        best_move=None if best is None else r["moves"][best][0],
        plies_to_end=r["plies_to_end"],
        nodes=r["nodes"],
        seconds=r["seconds"],
        complete=r["complete"],
        table_entries=r["table_entries"],
        table_capacity=r["table_capacity"],
        symmetries=r["symmetries"],
        certificate=written,
        certificate_positions=0 if written is None else r["certificate"]["positions"],
        algorithm=r["algorithm"],
    )
