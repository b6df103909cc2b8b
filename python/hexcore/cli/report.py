"""``python -m hexcore report``: the default short report on Churn side 3"""
from __future__ import annotations

import argparse
import time
from typing import Any

from ..engine import perft, random_playouts
from ..registry import INFO
from ..spec import load


def add_parser(sub: Any) -> None:
    sub.add_parser("report", help="the default short report on Churn side 3")


def _reference_rate(spec: str, games: int, seed: int) -> float:
    """Plies per second of the pure-Python reference on random games (see
    ``hexcore.bench.reference_job``)."""
    from ..bench import reference_job

    job = reference_job(spec, games, seed)
    t0 = time.perf_counter()
    (plies,) = job()
    return plies / (time.perf_counter() - t0)


def run(args: argparse.Namespace) -> int:
    """The default job: a short tour of Churn side 3."""
    spec = "churn(size=3,pie=false)"
    g = load(spec)
    print(f"hexcore report: {spec}\n")
    print(g)
    print("\nperft from the empty board (move level == action level):")
    for d in range(1, 6):
        t0 = time.perf_counter()
        a, b = perft(g, d), perft(g, d, unit="action")
        dt = time.perf_counter() - t0
        print(f"  depth {d}: {a:>10}  {'ok' if a == b else 'MISMATCH ' + str(b)}  ({dt:.3f} s)")
    n = 20_000
    t0 = time.perf_counter()
    res = random_playouts(g, n, seed=0)
    dt = time.perf_counter() - t0
    s = res.summary()
    print(f"\n{n} uniformly random games in {dt:.2f} s ({s.plies / dt:,.0f} plies/s):")
    print(f"  mean length {s.mean:.2f} plies (sd {s.sd:.2f}); published: 69.7 (sd 8.7)")
    print(f"  {INFO['churn'].player_names[0]} wins {float((res.winners == 1).mean()):.3f}; published: 0.514")
    ref = _reference_rate(spec, 30, 0)
    t0 = time.perf_counter()
    res = random_playouts(g, 3000, seed=0, threads=1)
    rust = res.plies.sum() / (time.perf_counter() - t0)
    print(f"\nRust engine {rust:,.0f} plies/s vs pure-Python reference {ref:,.0f} plies/s: {rust / ref:,.0f}x (one thread)")
    return 0
