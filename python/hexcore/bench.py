"""The benchmark suite: one list of workloads and one timing routine, used by
``python -m hexcore bench`` and by the pytest-benchmark files in ``benches/``
(which parametrize over :func:`workloads`).

A :class:`Workload` builds a job (``make(scale)``, untimed set-up) that does a
fixed amount of work and returns how much it did, one number per measure
(nodes, plies, games, steps); a figure is that amount divided by the job's
best time. A workload that needs an optional package says so in
``requires`` and is skipped, with the reason, when it is missing; the peer
workloads (OpenSpiel) live outside the package, in
``benches/peer_workloads.py``, and use the same :class:`Workload` and
:func:`run_bench`.
"""
from __future__ import annotations

import importlib.util
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .registry import INFO
from .spec import load, parse

__all__ = ["Workload", "workloads", "best_times", "run_bench", "reference_histories",
           "BENCH_PERFT", "BENCH_PLAYOUTS", "BENCH_LOOP", "BENCH_VS_REFERENCE", "BENCH_SEARCH", "THREADS",
           "LOOP_STEPS", "Job"]

Job = Callable[[], Tuple[float, ...]]

# (spec, depth): perft from the start
BENCH_PERFT: List[Tuple[str, int]] = [("churn(size=3)", 8), ("churn(size=4)", 6),
                                      ("wunchunk(size=5)", 3), ("quintun(size=5)", 5)]
# (spec, games): seeded random playouts in Rust
BENCH_PLAYOUTS: List[Tuple[str, int]] = [("churn(size=5,pie=false)", 600), ("churn(size=7,pie=false)", 4),
                                         ("wunchunk(size=6)", 40000), ("quintun(size=7)", 20000)]
# specs driven by a Python loop of legal_actions + apply_action
BENCH_LOOP: List[str] = ["churn(size=5,pie=false)", "wunchunk(size=6)", "quintun(size=7)"]
LOOP_STEPS = 20000
# (spec, games): the pure-Python reference against Rust playouts (Rust plays 200x the games)
BENCH_VS_REFERENCE: List[Tuple[str, int]] = [("churn(size=3,pie=false)", 20), ("wunchunk(size=6)", 10),
                                             ("quintun(size=7)", 5)]
# (spec, n): MCTS simulations against as many random playouts, one thread each
BENCH_SEARCH: List[Tuple[str, int]] = [("churn(size=4)", 20000), ("quintun(size=5)", 100000)]
THREADS: Tuple[int, ...] = (1, 2)


@dataclass(frozen=True)
class Workload:
    """One timed job. ``measures`` are ``(row suffix, unit)``, one per number the
    job returns; each gives a row named ``name`` + suffix in ``group``."""

    group: str
    name: str
    measures: Tuple[Tuple[str, str], ...]
    make: Callable[[float], Job]
    requires: Optional[str] = None
    """a module the workload needs (skipped without it)"""
    repeats: Optional[int] = None
    """at most this many timed runs (slow pure-Python jobs)"""

    @property
    def id(self) -> str:
        return f"{self.group}:{self.name}"

    def missing(self) -> Optional[str]:
        """Why the workload cannot run here, or None."""
        if self.requires is not None and importlib.util.find_spec(self.requires) is None:
            return f"{self.requires} is not installed"
        return None


def _known(spec: str) -> bool:
    return parse(spec)[0] in INFO


def _perft_job(spec: str, depth: int, threads: int) -> Callable[[float], Job]:
    def make(scale: float) -> Job:
        from .engine import perft

        g = load(spec)
        return lambda: (float(perft(g, depth, threads=threads)),)  # type: ignore[arg-type]
    return make


def _playouts_job(spec: str, games: int, threads: int) -> Callable[[float], Job]:
    def make(scale: float) -> Job:
        from .engine import random_playouts

        g = load(spec)
        n = max(2, int(games * scale))

        def job() -> Tuple[float, ...]:
            res = random_playouts(g, n, seed=1, threads=threads)
            return float(res.plies.sum()), float(n)
        return job
    return make


def _loop_job(spec: str) -> Callable[[float], Job]:
    def make(scale: float) -> Job:
        steps = max(500, int(LOOP_STEPS * scale))

        def job() -> Tuple[float, ...]:
            g = load(spec)
            for _ in range(steps):
                if g.is_over:
                    g = load(spec)
                g.apply_action(g.legal_actions()[0])
            return (float(steps),)
        return job
    return make


def _search_job(spec: str, simulations: int) -> Callable[[float], Job]:
    def make(scale: float) -> Job:
        from .search import mcts

        g = load(spec)
        n = max(100, int(simulations * scale))
        return lambda: (float(mcts(g, simulations=n, threads=1, seed=1).simulations),)
    return make


def _search_playouts_job(spec: str, games: int) -> Callable[[float], Job]:
    def make(scale: float) -> Job:
        from .engine import random_playouts

        g = load(spec)
        n = max(100, int(games * scale))
        return lambda: (float(len(random_playouts(g, n, seed=1, threads=1))),)
    return make


def reference_histories(spec: str, games: int, seed: int) -> List[List[str]]:
    """Move lists of uniformly random games (uniform over legal actions), played by the engine."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        g = load(spec)
        while not g.is_over:
            acts = g.legal_actions()
            if len(acts) == 0:
                break
            g.apply_action(int(acts[rng.randrange(len(acts))]))
        out.append(list(g.history))
    return out


def reference_job(spec: str, games: int, seed: int = 1) -> Job:
    """The pure-Python reference replaying random games: at each ply it counts
    the legal moves and plays the recorded one (the work a playout does)."""
    from . import reference

    name, opts = parse(spec)
    cls = getattr(reference, INFO[name].reference_name)
    histories = reference_histories(spec, games, seed)

    def job() -> Tuple[float, ...]:
        plies = 0
        for moves in histories:
            r = cls(**opts)
            for m in moves:
                r.count_moves()
                r.play(m)
                plies += 1
        return (float(plies),)
    return job


def _reference_make(spec: str, games: int) -> Callable[[float], Job]:
    return lambda scale: reference_job(spec, max(1, int(games * scale)))


def _rust_vs_reference_make(spec: str, games: int) -> Callable[[float], Job]:
    return _playouts_job(spec, 200 * games, 1)


def workloads() -> List[Workload]:
    """Every workload of the suite (for the games this build has)."""
    out: List[Workload] = []
    for spec, depth in BENCH_PERFT:
        if _known(spec):
            for t in THREADS:
                out.append(Workload("perft", f"{spec} d{depth} ({t} thr)", (("", "nodes/s"),),
                                    _perft_job(spec, depth, t)))
    for spec, games in BENCH_PLAYOUTS:
        if _known(spec):
            for t in THREADS:
                out.append(Workload("playouts", f"{spec} ({t} thr)", ((" plies", "plies/s"), (" games", "games/s")),
                                    _playouts_job(spec, games, t)))
    for spec in BENCH_LOOP:
        if _known(spec):
            out.append(Workload("python", f"{spec} legal_actions+apply_action", (("", "steps/s"),), _loop_job(spec)))
    for spec, games in BENCH_VS_REFERENCE:
        if _known(spec):
            out.append(Workload("reference", f"{spec} reference count_moves+play", (("", "plies/s"),),
                                _reference_make(spec, games), repeats=1))
            out.append(Workload("reference", f"{spec} Rust playouts (1 thr)", (("", "plies/s"),),
                                _rust_vs_reference_make(spec, games)))
    for spec, n in BENCH_SEARCH:
        if _known(spec):
            out.append(Workload("search", f"{spec} mcts (1 thr)", (("", "sims/s"),), _search_job(spec, n)))
            out.append(Workload("search", f"{spec} random_playouts (1 thr)", (("", "games/s"),),
                                _search_playouts_job(spec, n)))
    return out


def best_times(repeats: int, jobs: Sequence[Callable[[], Any]],
               limits: Optional[Sequence[Optional[int]]] = None) -> List[Tuple[float, Any]]:
    """For each job, the shortest of ``repeats`` timings with its result (a job
    with a limit runs at most that often). The jobs take turns, so a drifting
    machine speed (shared machines are noisy; the minimum is the least
    disturbed run) hits them alike."""
    best: List[Tuple[float, Any]] = [(float("inf"), None) for _ in jobs]
    for k in range(repeats):
        for i, job in enumerate(jobs):
            limit = limits[i] if limits is not None else None
            if limit is not None and k >= limit:
                continue
            t0 = time.perf_counter()
            out = job()
            best[i] = (min(best[i][0], time.perf_counter() - t0), out)
    return best


def run_bench(quick: bool = False, suite: Optional[Sequence[Workload]] = None,
              report: Callable[[str], None] = print) -> List[Dict[str, Any]]:
    """Time every workload (best of three runs; one with ``quick``, which also
    shrinks the workloads) and return the rows ``{group, name, value, unit}``.
    Workloads of one group take turns. Adds ``ratio`` rows per game: Rust
    playouts over the pure-Python reference, and MCTS simulations per second
    over random playout games per second (how much the tree costs on top of
    the rollouts)."""
    scale = 0.2 if quick else 1.0
    repeats = 1 if quick else 3
    suite = list(workloads() if suite is None else suite)
    rows: List[Dict[str, Any]] = []

    def add(group: str, name: str, value: float, unit: str) -> None:
        rows.append({"group": group, "name": name, "value": value, "unit": unit})
        report(f"{group:10s} {name:48s} {value:>16,.{2 if unit == 'x' else 0}f} {unit}")

    groups: List[str] = []
    for w in suite:
        if w.group not in groups:
            groups.append(w.group)
    for group in groups:
        ready = []
        for w in suite:
            if w.group != group:
                continue
            why = w.missing()
            if why is not None:
                report(f"{group:10s} {w.name:48s} skipped: {why}")
                continue
            ready.append(w)
        jobs = [w.make(scale) for w in ready]
        timed = best_times(repeats, jobs, [w.repeats for w in ready])
        for w, (dt, amounts) in zip(ready, timed):
            for (suffix, unit), amount in zip(w.measures, amounts):
                add(group, w.name + suffix, amount / dt, unit)
    by_name = {r["name"]: r["value"] for r in rows if r["group"] == "reference"}
    for spec, _ in BENCH_VS_REFERENCE:
        ref, rust = by_name.get(f"{spec} reference count_moves+play"), by_name.get(f"{spec} Rust playouts (1 thr)")
        if ref and rust:
            add("ratio", f"{spec} Rust playouts / reference (plies/s)", rust / ref, "x")
    by_name = {r["name"]: r["value"] for r in rows if r["group"] == "search"}
    for spec, _ in BENCH_SEARCH:
        sims, games = by_name.get(f"{spec} mcts (1 thr)"), by_name.get(f"{spec} random_playouts (1 thr)")
        if sims and games:
            add("ratio", f"{spec} mcts sims/s / playout games/s", sims / games, "x")
    return rows
