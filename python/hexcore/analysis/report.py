"""``analyze(spec, ...)``: every part of the designer's report, run in order
(random playouts, games at each level of play, the swap map, the ladder's
matches) with one progress bar, into a :class:`Report`."""
from __future__ import annotations

import importlib.util
import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from .._args import keyword_only, renamed
from .._core import check_arg, check_threads
from ..engine import random_playouts
from ..match import Player, derive_seed, parse_player
from ..spec import load
from . import ladder as _ladder
from . import swap as _swap
from .games import play_games
from .metrics import DEFINITIONS, level_metrics, summary_of

__all__ = ["Report", "AnalysisInterrupted", "analyze", "DEFAULT_LADDER", "default_ladder"]

DEFAULT_LADDER = ("random", "mcts:10", "mcts:100", "mcts:1000")


def default_ladder(spec: str) -> Tuple[str, ...]:
    """:data:`DEFAULT_LADDER`, with the shipped agent (``agent:sims=64``,
    :mod:`hexcore.agents`) as the strongest level where the game has one."""
    from .. import agents

    return DEFAULT_LADDER + (("agent:sims=64",) if load(spec).spec in agents.available() else ())


@dataclass
class Report:
    """The result of :func:`analyze`. ``metrics`` maps a level of play
    (``"random"`` and each ladder player's spec) to its metrics,
    ``swap_map`` an opening's text to its value, ``ladder`` lists the
    levels weakest first; ``about`` holds the settings, the timings, the
    swap map's mode, the ladder's depth and the metrics' definitions.
    ``complete`` is False when the run was interrupted."""

    spec: str
    metrics: Dict[str, Any] = field(default_factory=dict)
    swap_map: Dict[str, Any] = field(default_factory=dict)
    ladder: List[Dict[str, Any]] = field(default_factory=list)
    about: Dict[str, Any] = field(default_factory=dict)
    complete: bool = True

    def to_dict(self) -> Dict[str, Any]:
        """The JSON form: ``spec``, ``metrics``, ``swap_map``, ``ladder`` and ``about``."""
        about = dict(self.about, complete=self.complete)
        return {"spec": self.spec, "metrics": self.metrics, "swap_map": self.swap_map, "ladder": self.ladder,
                "about": about}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def to_html(self) -> str:
        """One self-contained HTML page (needs matplotlib for the charts)."""
        from .html import page

        return page(self)


class AnalysisInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`analyze`; ``report`` holds what was done."""

    def __init__(self, report: Report) -> None:
        super().__init__("interrupted")
        self.report = report


def _ladder_arg(ladder: Union[str, Sequence[str]]) -> List[Tuple[str, Player]]:
    items = ladder.split(",") if isinstance(ladder, str) else list(ladder)
    out: List[Tuple[str, Player]] = []
    for s in items:
        if not isinstance(s, str):
            raise TypeError(f"ladder: a player spec must be a string, got {type(s).__name__}")
        if not s.strip():
            continue
        p = parse_player(s)
        if p.kind != "random" and p.seconds:
            raise ValueError(f"ladder: {s!r} has a time budget; give simulations (mcts:N) so that results repeat")
        if p.name in [n for n, _ in out]:
            raise ValueError(f"ladder: {p.name!r} is given twice")
        out.append((p.name, p))
    if not out:
        raise ValueError("ladder: give at least one player spec, e.g. random,mcts:100")
    return out


class _Progress:
    def __init__(self, total: int, show: Optional[bool], callback: Optional[Callable[[int, int, str], None]]) -> None:
        from ..progress import Bar

        self.total, self.done, self.phase = total, 0, ""
        self.bar = Bar(total, "analyze", show)
        self.callback = callback

    def __call__(self, k: int) -> None:
        self.done += k
        self.bar.update(self.done, self.phase)
        if self.callback is not None:
            self.callback(self.done, self.total, self.phase)


@renamed(solver_nodes="max_nodes")
@keyword_only
def analyze(spec: str, *, games: int = 100, ladder: Optional[Union[str, Sequence[str]]] = None,
            swap_map: Optional[str] = None, threads: Optional[int] = None, ray: bool = False, seed: int = 0,
            playouts: int = 10_000, max_nodes: Optional[int] = None, progress: Optional[bool] = None,
            callback: Optional[Callable[[int, int, str], None]] = None) -> Report:
    """Analyses the game ``spec`` for its designer.

    ``games``: games per level of play, per ladder match and per opening of
    an ``mcts`` swap map. ``ladder``: player specs weakest first (a list or
    ``"random,mcts:100"``; default :func:`default_ladder`: random, mcts:10,
    mcts:100, mcts:1000 and the shipped agent where there is one). ``swap_map``: ``"exact"``, ``"mcts:N"``,
    ``"off"`` or None (exact where the solver applies, else ``mcts:100``).
    ``threads``: games played at once (None: one per core; every search
    runs on one thread, so the results do not depend on it); ``ray``: the random playouts and the
    games (levels, ladder matches, an ``mcts`` swap map) go to Ray
    (``hexcore.distributed``), with the same results. ``playouts``: random games (in Rust) for the
    outcome and duration of random play. ``max_nodes``: a node budget
    for the exact swap map (openings not proved within it get the value
    None; default: no limit). ``progress``: show a progress bar
    (default: on a terminal); ``callback(done, total, phase)`` after each unit.

    Every argument is checked before anything runs (``ValueError`` /
    ``TypeError`` naming it). Ctrl-C raises :class:`AnalysisInterrupted`
    (a ``KeyboardInterrupt``) whose ``report`` holds what was done.
    """
    if not isinstance(spec, str):
        spec = getattr(spec, "spec", spec)
    g = load(spec)
    # the core's checks and the default threads (one per core)
    games = int(check_arg("games", games))
    threads = int(check_threads(threads))
    seed = int(check_arg("seed", seed))
    playouts = int(check_arg("playouts", playouts))
    if max_nodes is not None:
        max_nodes = int(check_arg("max_nodes", max_nodes))
    levels = _ladder_arg(default_ladder(g.spec) if ladder is None else ladder)
    sp = _swap.plan(g, swap_map)
    if not isinstance(ray, bool):
        raise TypeError(f"ray must be True or False, got {type(ray).__name__}")
    if ray and importlib.util.find_spec("ray") is None:
        raise ImportError("ray=True needs the ray package: pip install 'hexcore[ray]'")
    if g.is_over:
        raise ValueError(f"{g.spec} is already over at the start")

    steps = [p for _, p in levels if p.kind != "random"]
    swap_units = 1 if sp.mode == "exact" else games * len(sp.openings) if sp.mode == "mcts" else 0
    total = 1 + games * (1 + len(steps)) + games * (len(levels) - 1) + swap_units
    bar = _Progress(total, progress, callback)
    rep = Report(spec=g.spec)
    rep.about = {
        "settings": {"games": games, "ladder": [n for n, _ in levels], "swap_map": sp.mode, "threads": threads,
                     "ray": ray, "seed": seed, "playouts": playouts,
                     "max_nodes": max_nodes},
        "num_players": g.num_players, "cells": int(g.board.num_cells),
        "swap": {"mode": sp.mode, "player": None if sp.player is None else sp.player.name, "spec": sp.base.spec,
                 "pie_rule": sp.pie, "reason": sp.reason},
        "definitions": DEFINITIONS, "seconds": {},
    }
    seconds: Dict[str, float] = rep.about["seconds"]
    try:
        t0 = time.perf_counter()
        bar.phase = "random playouts"
        bar(0)
        if ray:
            from .. import distributed

            summary = distributed.random_playouts(g, playouts, seed=seed, summary=True, progress=False)
        else:
            summary = random_playouts(g, playouts, seed=seed, threads=threads).summary()
        bar(1)
        seconds["random playouts"] = time.perf_counter() - t0

        def level(name: str, p: Player, k: int) -> bool:
            t = time.perf_counter()
            bar.phase = f"games at {name}"
            logs, done = play_games(g, [p], games, derive_seed(seed, 1, k), threads, bar, ray=ray)
            if p.kind == "random":
                rep.metrics[name] = level_metrics(summary, logs, g.num_players,
                                                  f"outcome and duration: {playouts} random playouts in Rust; "
                                                  f"the rest: {len(logs)} games played turn by turn")
            elif logs:
                rep.metrics[name] = level_metrics(summary_of(logs, g.num_players), logs, g.num_players,
                                                  f"{len(logs)} self-play games")
            seconds[f"games at {name}"] = time.perf_counter() - t
            return done

        if not level("random", Player("random"), 0):
            raise KeyboardInterrupt
        if sp.mode == "exact":
            t = time.perf_counter()
            bar.phase = "swap map (solver)"
            rep.swap_map, done = _swap.run(sp, games, seed, threads, max_nodes, bar)
            rep.about["swap"]["complete"] = done
            seconds["swap map"] = time.perf_counter() - t
        for k, (name, p) in enumerate(levels):
            if p.kind != "random" and not level(name, p, k + 1):
                raise KeyboardInterrupt
        t = time.perf_counter()
        bar.phase = "ladder matches"
        rep.ladder, done = _ladder.run(g, levels, games, seed, threads, bar, ray)
        rep.about["depth"] = _ladder.depth([r["step"] for r in rep.ladder[1:]], g.num_players)
        seconds["ladder matches"] = time.perf_counter() - t
        if not done:
            raise KeyboardInterrupt
        if sp.mode == "mcts":
            t = time.perf_counter()
            bar.phase = f"swap map ({sp.player.name if sp.player else ''})"
            rep.swap_map, done = _swap.run(sp, games, seed, threads, max_nodes, bar, ray)
            rep.about["swap"]["complete"] = done
            seconds["swap map"] = time.perf_counter() - t
            if not done:
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        bar.bar.close()
        rep.complete = False
        raise AnalysisInterrupted(rep) from None
    bar.bar.close()
    seconds["total"] = time.perf_counter() - t0
    return rep
