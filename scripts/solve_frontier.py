"""How far the solver gets on a position it may not finish, two ways.

Budgets: solve it with growing time budgets and print, per budget, the nodes
searched, the table fill and which root moves were proved (a budget result
keeps every value it proved).

Growth (``--plies K1 K2 ...``): solve the positions after the first K plies
of a seeded uniformly random game, K decreasing, each with the largest
budget, until one does not finish: the nodes per position as the start
comes nearer show how fast the work grows.

The docs' table of solved positions quotes these lines (docs/solved.md).

    python scripts/solve_frontier.py "churn(board=limping-34,pie=false)" --budgets 60 900 --threads 1
    python scripts/solve_frontier.py "quintun(size=4,swap=false)" --plies 20 16 12 8 4 --budgets 120
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import hexcore as hc


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec")
    ap.add_argument("--budgets", type=float, nargs="+", default=[60.0, 600.0], help="seconds, one solve each")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--table-mb", type=int, default=256)
    ap.add_argument("--every", type=float, default=60.0, help="seconds between progress samples")
    ap.add_argument("--plies", type=int, nargs="+", default=None, help="growth mode: solve after these many plies")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.plies:
        return growth(args)
    for budget in args.budgets:
        samples = []
        last = [0.0]

        def progress(nodes: int, filled: int, capacity: int, seconds: float) -> None:
            if seconds - last[0] >= args.every:
                last[0] = seconds
                samples.append((round(seconds), nodes, round(filled / max(capacity, 1), 3)))

        t0 = time.perf_counter()
        s = hc.solve(hc.load(args.spec), max_seconds=budget, threads=args.threads, table_mb=args.table_mb,
                     progress=progress, distances=False)
        proved = {m: v for m, v in s.moves.items() if v is not None}
        print(json.dumps({
            "spec": args.spec, "budget_s": budget, "threads": args.threads, "table_mb": args.table_mb,
            "value": s.value, "complete": s.complete, "nodes": s.nodes, "seconds": round(time.perf_counter() - t0, 1),
            "table_fill": round(s.table_entries / max(s.table_capacity, 1), 3),
            "root_moves": len(s.moves), "proved": proved, "samples": samples,
        }), flush=True)
    return 0


def growth(args) -> int:
    import random

    rng = random.Random(args.seed)
    g = hc.load(args.spec)
    moves = []
    while len(moves) < max(args.plies) and not g.is_over:
        m = rng.choice(g.legal_moves())
        g.play(m)
        moves.append(m)
    for k in sorted(args.plies, reverse=True):
        g = hc.load(args.spec)
        for m in moves[:k]:
            g.play(m)
        if g.is_over:
            continue
        t0 = time.perf_counter()
        s = hc.solve(g, max_seconds=max(args.budgets), threads=args.threads, table_mb=args.table_mb, distances=False)
        print(json.dumps({
            "spec": args.spec, "plies": k, "moves": moves[:k], "empty": int((g.cells() == 0).sum()),
            "value": s.value, "complete": s.complete, "nodes": s.nodes, "seconds": round(time.perf_counter() - t0, 1),
            "proved": sum(v is not None for v in s.moves.values()), "root_moves": len(s.moves),
        }), flush=True)
        if not s.complete:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
