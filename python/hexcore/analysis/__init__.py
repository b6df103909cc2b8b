"""A designer's report on a game: balance, duration, complexity, play
quality, the swap map and the skill ladder (``python -m hexcore analyze``).

>>> from hexcore.analysis import analyze
>>> r = analyze("churn(size=2,pie=false)", games=2, ladder="random,mcts:10", playouts=100, progress=False)
>>> sorted(r.to_dict())
['about', 'ladder', 'metrics', 'spec', 'swap_map']
>>> [row["player"] for row in r.ladder]
['random', 'mcts:10']

The modules: ``games`` (playing seeded games in parallel, turn-by-turn
logs), ``metrics`` (the metrics and their definitions), ``swap`` (the swap
map), ``ladder`` (matches and Elo), ``html`` (the page), ``report``
(:func:`analyze`); the command is ``hexcore.cli.analyze``.
"""
from __future__ import annotations

from .report import DEFAULT_LADDER, AnalysisInterrupted, Report, analyze

__all__ = ["analyze", "Report", "AnalysisInterrupted", "DEFAULT_LADDER"]
