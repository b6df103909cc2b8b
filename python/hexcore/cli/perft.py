"""``python -m hexcore perft``: count move sequences of a given depth"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..engine import perft
from ..progress import Bar
from ._common import add_ray_arguments, add_threads_argument, game, ray_job, ray_module, root_moves, use_ray


def add_parser(sub: Any) -> None:
    p = sub.add_parser("perft", help="count move sequences of a given depth")
    p.add_argument("spec", help='game spec, e.g. "churn(size=3)"')
    p.add_argument("--depth", "-d", type=int, required=True)
    p.add_argument("--moves", nargs="*", default=[], help="moves to play first")
    p.add_argument("--divide", action="store_true", help="one line per first step")
    p.add_argument("--unit", choices=["move", "action"], default="move")
    add_threads_argument(p, "subtrees counted at once")
    add_ray_arguments(p, "subtrees split into tasks")


def run(args: argparse.Namespace) -> int:
    g = game(args.spec, args.moves)
    t0 = time.perf_counter()
    nodes: Any
    if use_ray(args):
        distributed = ray_module()
        result: Any = distributed.perft(g, args.depth, unit=args.unit, divide=args.divide, threads=args.threads,
                                        **ray_job(args))
        if args.divide:
            for name, n in result:
                print(f"{name}: {n}")
            print()
            nodes = sum(n for _, n in result) if args.depth > 0 else 1
        else:
            nodes = result
    elif args.divide:
        rows: Any = perft(g, args.depth, unit=args.unit, divide=True, threads=args.threads)
        for name, n in rows:
            print(f"{name}: {n}")
        nodes = sum(n for _, n in rows) if args.depth > 0 else 1
        print()
    else:
        moves = root_moves(g) if sys.stderr.isatty() and args.depth >= 3 and args.unit == "move" else None
        if moves is not None:
            # Walk the root moves one by one to show progress.
            nodes = 0
            bar = Bar(len(moves), f"perft {args.depth}")
            for i, m in enumerate(moves):
                c = g.copy()
                c.play(m)
                nodes += perft(c, args.depth - 1, threads=args.threads)
                bar.update(i + 1)
            bar.close()
        else:
            nodes = perft(g, args.depth, unit=args.unit, threads=args.threads)
    dt = time.perf_counter() - t0
    print(f"Nodes searched: {nodes}")
    print(f"Time: {dt:.3f} s")
    print(f"Nodes/second: {nodes / dt if dt > 0 else float('inf'):,.0f}")
    return 0
