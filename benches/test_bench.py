"""The benchmark suite of ``hexcore.bench`` under pytest-benchmark:
``pytest benches --benchmark-group-by=group`` (see README). The workloads are
the ones ``python -m hexcore bench`` times; a workload whose optional package
is missing is skipped with the reason."""
import pytest

from hexcore import bench

WORKLOADS = bench.workloads()


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
