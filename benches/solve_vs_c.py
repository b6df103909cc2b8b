"""Churn side 3 without the pie rule, values of all openings, one thread:
hexcore's solver against a plain C solver, in one run.

The C solver is ``../shared/anchors/churn_solve.c`` next to the project
(negamax with a 2^26-entry table and the 12 symmetries; it visits every
reachable position). This script compiles it with ``cc -O2``, runs it, then
solves the same position with ``hc.solve`` twice (values only, then with the
distance pass), checks that every opening's value agrees, and prints user
CPU seconds and wall time for each. When the C source or a compiler is
missing it says so and measures hexcore alone.

    python benches/solve_vs_c.py [--table-mb 256]
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, Optional, Tuple

import hexcore as hc

ANCHOR = Path(__file__).resolve().parents[1].parent / "shared" / "anchors" / "churn_solve.c"
ROWS = ["3", "4", "5", "4", "3"]


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime


def self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime


def run_c() -> Optional[Tuple[Dict[str, str], float, float, str]]:
    """(opening -> 'win'/'loss' for the stone's owner, user CPU s, wall s,
    summary line), or None (and why) when the C solver cannot run."""
    if not ANCHOR.exists():
        print(f"C solver: {ANCHOR} is not there; measuring hexcore alone")
        return None
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("C solver: no C compiler (cc) found; measuring hexcore alone")
        return None
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "churn_solve")
        subprocess.run([cc, "-O2", "-o", exe, str(ANCHOR)], check=True)
        u0, t0 = children_cpu(), time.perf_counter()
        out = subprocess.run([exe, "26", "2", *ROWS], capture_output=True, text=True, check=True).stdout
        wall, user = time.perf_counter() - t0, children_cpu() - u0
    values = {m: "win" if v == "W" else "loss" for m, v in re.findall(r"([a-e]\d):([WL])", out)}
    return values, user, wall, out.splitlines()[0]


def run_hexcore(distances: bool, table_mb: int) -> Tuple[hc.Solution, float, float]:
    g = hc.Churn(size=3, pie=False)
    u0, t0 = self_cpu(), time.perf_counter()
    s = hc.solve(g, threads=1, table_mb=table_mb, distances=distances)
    return s, self_cpu() - u0, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table-mb", type=int, default=256)
    args = ap.parse_args()
    c = run_c()
    if c is not None:
        print(f"C solver (cc -O2 churn_solve.c; 26 2 {' '.join(ROWS)}): {c[3]}")
        print(f"  user {c[1]:.2f} s, wall {c[2]:.2f} s")
    ok = True
    for distances in (False, True):
        s, user, wall = run_hexcore(distances, args.table_mb)
        name = "values and distances" if distances else "values only"
        print(f"hexcore {name}: value {s.value}, best {s.best_move}, plies {s.plies_to_end}, "
              f"{s.nodes:,} nodes, user {user:.2f} s, wall {wall:.2f} s, table {s.table_entries:,} / {s.table_capacity:,}")
        if c is not None:
            agree = s.complete and s.moves == c[0]
            ok &= agree
            print(f"  openings agree with the C solver: {agree}; C / hexcore user CPU: {c[1] / user:.2f}x "
                  f"(wall {c[2] / wall:.2f}x)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
