"""hexcore.vector speed: ``pytest benches/test_bench_vector.py --benchmark-group-by=group``.

Each round is 20 calls of ``sample_actions()`` + ``step()`` on a batch of 1024
(``extra_info["env_steps"]`` per round). pgx (Hex 11x11, CPU) is a bench-only
comparison: its row is skipped, saying so, when pgx is not installed.
"""
import pytest

from vector_workloads import BATCH, SIDE5, SIDE7, pgx_stepper, sync_vector_env_stepper, vecgame_stepper


@pytest.mark.benchmark(group="vector-side7")
@pytest.mark.parametrize("threads", [1, 2])
def test_vecgame_side7_bool_obs(benchmark, threads):
    run = vecgame_stepper(SIDE7, BATCH, threads=threads, observation_dtype="bool")
    benchmark.extra_info["env_steps"] = benchmark(run)


@pytest.mark.benchmark(group="vector-side7")
def test_pgx_hex11(benchmark):
    run = pgx_stepper(BATCH)
    if run is None:
        pytest.skip("pgx is not installed (pip install pgx): no pgx Hex 11x11 comparison")
    benchmark.extra_info["env_steps"] = benchmark(run)


@pytest.mark.benchmark(group="vector-side7")
def test_sync_vector_env(benchmark):
    run = sync_vector_env_stepper(SIDE7, BATCH, steps=1)
    if run is None:
        pytest.skip("gymnasium is not installed")
    benchmark.extra_info["env_steps"] = benchmark.pedantic(run, rounds=3, iterations=1)


@pytest.mark.benchmark(group="vector-side5")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("obs", [None, "bool"], ids=["masks", "masks+bool-obs"])
def test_vecgame_side5(benchmark, threads, obs):
    run = vecgame_stepper(SIDE5, BATCH, threads=threads, observation_dtype=obs)
    benchmark.extra_info["env_steps"] = benchmark(run)
