"""Churn speed: ``pytest benches --benchmark-group-by=group`` (see README)."""
import random

import pytest

import hexcore as hc
from hexcore import reference


@pytest.mark.benchmark(group="churn-playouts")
@pytest.mark.parametrize("size,games", [(3, 2000), (5, 20), (7, 1)])
def test_playouts_rust(benchmark, size, games):
    g = hc.Churn(size=size, pie=False)
    res = benchmark(hc.random_playouts, g, games, seed=1, threads=1)
    benchmark.extra_info["plies"] = int(res.plies.sum())


@pytest.mark.benchmark(group="churn-playouts")
def test_playouts_reference_side3(benchmark):
    def run():
        rng = random.Random(1)
        plies = 0
        for _ in range(10):
            r = reference.Churn(size=3, pie=False)
            while not r.is_over:
                r.play(rng.choice(r.legal_moves()))
                plies += 1
        return plies

    benchmark.extra_info["plies"] = benchmark(run)


@pytest.mark.benchmark(group="churn-perft")
@pytest.mark.parametrize("threads", [1, 2])
def test_perft_side3(benchmark, threads):
    n = benchmark(hc.perft, hc.Churn(size=3), 8, threads=threads)
    benchmark.extra_info["nodes"] = n


@pytest.mark.benchmark(group="churn-python-loop")
def test_python_loop(benchmark):
    def run():
        g = hc.Churn(size=5, pie=False)
        for _ in range(20000):
            if g.is_over:
                g = hc.Churn(size=5, pie=False)
            g.apply_action(g.legal_actions()[0])

    benchmark(run)
