"""``python -m hexcore stats``: statistics of seeded random playouts"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..engine import random_playouts
from ._common import CommandError, add_ray_arguments, add_threads_argument, game, ray_job, ray_module, use_ray


def add_parser(sub: Any) -> None:
    p = sub.add_parser("stats", help="statistics of seeded random playouts")
    p.add_argument("spec")
    p.add_argument("--games", "-n", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    add_threads_argument(p, "playouts run at once (the statistics do not depend on it)")
    p.add_argument("--moves", nargs="*", default=[])
    p.add_argument("--plot", help="write a histogram of game lengths (needs matplotlib)")
    add_ray_arguments(p, "ranges of games summed on the workers")


def run(args: argparse.Namespace) -> int:
    g = game(args.spec, args.moves)
    if isinstance(args.games, int) and args.games == 0:
        raise CommandError("no games were played (--games 0); give --games 1 or more")
    t0 = time.perf_counter()
    if use_ray(args):
        distributed = ray_module()
        s = distributed.random_playouts(g, args.games, seed=args.seed, threads=args.threads, summary=True, **ray_job(args))
    else:
        s = random_playouts(g, args.games, seed=args.seed, threads=args.threads).summary()
    dt = time.perf_counter() - t0
    n = s.games
    print(f"{args.spec}: {n} random games (seed {args.seed}) in {dt:.2f} s, {s.plies / dt:,.0f} plies/s")
    print(f"game length (plies): mean {s.mean:.1f} (se {s.sd / max(n, 1) ** 0.5:.1f}), sd {s.sd:.1f}, "
          f"median {s.quantile(0.5):.0f}, 5%-95% {s.quantile(0.05):.0f}-{s.quantile(0.95):.0f}")
    for p in range(1, g.num_players + 1):
        won = s.win_rate(p)
        print(f"player {p} wins: {won:.4f} (se {(won * (1 - won) / max(n, 1)) ** 0.5:.4f})")
    print(f"draws / shared: {(s.draws + s.shared) / n:.4f}")
    if args.plot:
        try:
            import matplotlib  # type: ignore[import-not-found, unused-ignore]

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
        except ImportError:
            print("matplotlib is not installed; no plot written", file=sys.stderr)
            return 0
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.hist(list(s.lengths), bins=min(60, max(10, n // 20)), weights=list(s.lengths.values()))
        ax.set_xlabel("plies")
        ax.set_ylabel("games")
        ax.set_title(f"{args.spec}: {n} random games")
        fig.tight_layout()
        fig.savefig(args.plot)
        print(f"histogram written to {args.plot}")
    return 0
