"""Depth-first proof-number search beside alpha-beta: the values of every root move.

    python benches/solve_dfpn.py [--budget 300] [--threads 1] [--table-mb 512] [--cases NAME ...]

For each case (a game's empty board), solves the values of every root move with
``hc.solve(g, distances=False, algorithm=A)`` for A in alphabeta and dfpn, one
after the other, within ``--budget`` seconds each, and prints nodes, wall and CPU
seconds, and how many root moves each proved; where both finish, their values
must be equal. The machine may be shared: CPU seconds are the steadier figure.
"""
from __future__ import annotations

import argparse
import time

import hexcore as hc

CASES = {
    "churn-3": lambda: hc.Churn(size=3, pie=False),
    "churn-limping-34": lambda: hc.Churn(board="limping-34", pie=False),
    "quintun-4": lambda: hc.Quintun(size=4),
    "wunchunk-5": lambda: hc.Wunchunk(size=5, players=2),
    "hex-5": lambda: hc.Hex(size=5),
}


def run(name: str, algorithm: str, budget: float, threads: int, table_mb: int) -> dict:
    g = CASES[name]()
    t0, c0 = time.perf_counter(), time.process_time()
    s = hc.solve(g, threads=threads, distances=False, table_mb=table_mb, max_seconds=budget, algorithm=algorithm)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    proved = sum(v is not None for v in s.moves.values())
    print(f"{name:<18} {algorithm:<9} {proved:>3} / {len(s.moves):<3} root moves  value {s.value or '?':<5} "
          f"{s.nodes:>13,} nodes  {wall:8.1f} s wall  {cpu:8.1f} s CPU" + ("" if s.complete else "  (budget ran out)"))
    return {"moves": s.moves, "complete": s.complete}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=300.0, help="seconds per solve")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--table-mb", type=int, default=512)
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    a = ap.parse_args()
    bad = []
    for name in a.cases:
        r = {alg: run(name, alg, a.budget, a.threads, a.table_mb) for alg in ("alphabeta", "dfpn")}
        x, y = r["alphabeta"]["moves"], r["dfpn"]["moves"]
        differ = [m for m in x if x[m] is not None and y[m] is not None and x[m] != y[m]]
        if differ:
            bad.append(name)
            print(f"  MISMATCH {name}: {differ}")
    if bad:
        raise SystemExit(f"alpha-beta and df-pn disagree on {bad}")


if __name__ == "__main__":
    main()
