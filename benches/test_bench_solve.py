"""Exact solve of Churn side 3 without the pie rule, one thread.

The quoted reference (an exhaustive C solver: negamax with a hash table and
the board's symmetries) takes 30-53 s on the project machine for the same
position; the solver must finish in at most 10 s.
"""
import time

import hexcore as hc


def test_solve_churn_side3_no_pie(record_property):
    t0 = time.perf_counter()
    s = hc.solve(hc.Churn(size=3, pie=False), threads=1, table_mb=256, distances=False)
    dt = time.perf_counter() - t0
    assert s.complete and s.value == "win"
    winners = sorted(m for m, v in s.moves.items() if v == "win")
    assert winners == ["a2", "b1", "b4", "c3", "d1", "d4", "e2"]
    print(f"\nchurn side 3, no pie: {s.nodes:,} nodes in {dt:.2f} s ({s.nodes / dt:,.0f} nodes/s), "
          f"table {s.table_entries:,} / {s.table_capacity:,} entries; winners {winners}; C reference 30-53 s: {30 / dt:.1f}-{53 / dt:.1f}x")
    record_property("nodes", s.nodes)
    record_property("seconds", dt)
    record_property("table_entries", s.table_entries)
    assert dt <= 10.0
