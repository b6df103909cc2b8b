"""The benchmark suite of ``hexcore.bench`` under pytest-benchmark:
``pytest benches --benchmark-group-by=group`` (see README). The workloads are
the ones ``python -m hexcore bench`` times, and the peer workloads of
``peer_workloads.py``; a workload whose optional package is missing is
skipped with the reason."""
import pytest

from hexcore import bench
from peer_workloads import peer_workloads

WORKLOADS = bench.workloads() + peer_workloads()


@pytest.mark.parametrize("workload", WORKLOADS, ids=[w.id for w in WORKLOADS])
def test_workload(benchmark, workload):
    why = workload.missing()
    if why is not None:
        pytest.skip(why)
    benchmark.group = workload.group
    job = workload.make(1.0)
    rounds = workload.repeats or 3
    amounts = benchmark.pedantic(job, rounds=rounds, iterations=1)
    for (suffix, unit), amount in zip(workload.measures, amounts):
        benchmark.extra_info[(suffix.strip() or unit.split("/")[0])] = amount


def _churn_at(ply):
    import random

    import hexcore as hc

    g = hc.Churn(size=64)
    rng = random.Random(1)
    while g.ply < ply and not g.is_over:
        legal = g.legal_actions()
        g.apply_action(int(legal[rng.randrange(len(legal))]))
    return g


@pytest.mark.parametrize("ply", [10, 10_000])
def test_copy(benchmark, ply):
    """copy() shares the history: the same cost at ply 10 and ply 10,000."""
    benchmark.group = "copy"
    g = _churn_at(ply)
    benchmark.extra_info["ply"] = g.ply
    benchmark(g.copy)


def test_board_access(benchmark):
    import hexcore as hc

    benchmark.group = "board"
    g = hc.Quintun(size=7)
    benchmark(lambda: g.board)
