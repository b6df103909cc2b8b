"""hexcore: fast, exact rules engines for hex-grid abstract games.

This file re-exports (the games and limits come from the extension
(``_core``), ``perft`` and ``random_playouts`` from ``engine.py``); importing
``render`` gives the games their Jupyter picture: the extension imports
nothing from this package.

>>> import hexcore as hc
>>> g = hc.Churn(size=3)
>>> len(g.legal_moves())
19
>>> g.play("c3")
'c3'
>>> g.legal_moves()[:3]
['a1', 'a2', 'a3']
>>> hc.perft(hc.Churn(size=3), 2)
361
"""
from __future__ import annotations

from typing import Any

from . import records, render, search  # noqa: F401 (render gives the games _repr_svg_)
from ._core import MAX_DEPTH, MAX_PLAYOUTS, MAX_THREADS, Board, Churn, Havannah, Hex, Quintun, Wunchunk, Y, __version__
from ._types import Game
from .engine import Playouts, perft, random_playouts
from .errors import GameOverError, HexcoreError, IllegalMoveError, NotationError, TooManyMovesError
from .records import from_json, to_json
from .registry import GAMES
from .search import BatchedSearchResult, SearchResult, batched_search, mcts
from .solving import Solution, solve
from .spec import load
from .summary import PlayoutSummary


def __getattr__(name: str) -> Any:
    # envs and openspiel need optional packages (and importing openspiel
    # registers the games with pyspiel), so they load on first use.
    # reference (the pure-Python oracles) is for testing and loads when used.
    if name in ("envs", "openspiel", "distributed", "vector", "render", "reference"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'hexcore' has no attribute {name!r}")


__all__ = [
    "Board", "Churn", "Havannah", "Hex", "Quintun", "Wunchunk", "Y", "GAMES", "Game", "Playouts", "PlayoutSummary", "load", "perft",
    "random_playouts", "reference", "records", "to_json", "from_json",
    "HexcoreError", "IllegalMoveError", "NotationError", "GameOverError", "TooManyMovesError", "__version__",
    "Solution", "solve", "search", "SearchResult", "mcts", "BatchedSearchResult", "batched_search", "MAX_THREADS", "MAX_DEPTH",
    "MAX_PLAYOUTS",
]
