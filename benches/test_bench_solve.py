"""Exact solve of Churn side 3 without the pie rule, one thread: the values of
every opening, with the nodes and time recorded (no time limit here; the
speed comparison with a plain C solver, measured in the same run, is
``benches/solve_vs_c.py``)."""
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
          f"table {s.table_entries:,} / {s.table_capacity:,} entries; winners {winners}")
    record_property("nodes", s.nodes)
    record_property("seconds", dt)
    record_property("table_entries", s.table_entries)
