"""``python -m hexcore solve``: solve a position exactly (value of every move)"""
from __future__ import annotations

import sys
from typing import Any

from ..progress import Bar
from ..solving import solve
from ._common import add_threads_argument, game


def add_parser(sub: Any) -> None:
    p = sub.add_parser("solve", help="solve a position exactly (value of every move)")
    p.add_argument("spec", help='game spec, e.g. "churn(size=3,pie=false)"')
    p.add_argument("--moves", nargs="*", default=[], help="moves to play first")
    p.add_argument("--seconds", type=float, default=None, help="time budget")
    p.add_argument("--nodes", type=int, default=None, help="node budget")
    add_threads_argument(p, "the solver's search threads")
    p.add_argument("--table-mb", type=int, default=256, help="transposition table size (MB)")
    p.add_argument("--no-distances", action="store_true", help="values only: skip the distance pass")
    p.add_argument("--algorithm", choices=["alphabeta", "dfpn"], default=None,
                   help="alphabeta (negamax) or dfpn (depth-first proof-number search, values only); "
                        "default: alphabeta, or with --no-distances the game's choice (dfpn on Hex)")
    p.add_argument("--certificate", metavar="PATH", default=None,
                   help="write a proof of the value to PATH (JSON lines, gzip if it ends in .gz); "
                        "check it with: python -m hexcore.reference PATH")


def run(args: Any) -> int:
    g = game(args.spec, args.moves)
    bar = Bar(None, "solve")
    tty = bar.on

    def progress(nodes: int, filled: int, capacity: int, seconds: float) -> None:
        rate = nodes / seconds if seconds > 0 else 0.0
        bar.update(nodes, f"{nodes:>14,} nodes  {rate:>12,.0f} nodes/s  table {100 * filled / max(capacity, 1):5.1f}% full")

    try:
        s = solve(g, max_seconds=args.seconds, max_nodes=args.nodes, threads=args.threads,
                  table_mb=args.table_mb, progress=progress if tty else None,
                  distances=not args.no_distances, certificate=args.certificate,
                  algorithm=args.algorithm)
    except KeyboardInterrupt:
        bar.close()
        print("error: interrupted", file=sys.stderr)
        return 130
    bar.close()
    print(f"{g.spec}" + (f" after {' '.join(args.moves)}" if args.moves else "") + f", player {g.to_move} to move")
    value = s.value or "unknown"
    extra = f", {s.plies_to_end} plies to the end after {s.best_move}" if s.plies_to_end is not None else ""
    print(f"value: {value}" + (f" (best move {s.best_move}{extra})" if s.best_move else ""))
    status = "complete" if s.complete else "INCOMPLETE (budget ran out)"
    print(f"{s.nodes:,} nodes in {s.seconds:.2f} s ({s.nodes_per_second:,.0f} nodes/s), "
          f"table {s.table_entries:,} / {s.table_capacity:,} entries, {s.symmetries} symmetries, "
          f"{s.algorithm}; {status}")
    if args.certificate is not None:
        if s.certificate is not None:
            print(f"certificate: {s.certificate} ({s.certificate_positions:,} positions)")
        else:
            print("certificate: not written (the budget ran out first)")
    print(f"\n{'move':<12} value")
    order = {"win": 0, "draw": 1, "loss": 2, None: 3}
    for text, v in sorted(s.moves.items(), key=lambda kv: order[kv[1]]):
        print(f"{text:<12} {v or '?'}")
    return 0
