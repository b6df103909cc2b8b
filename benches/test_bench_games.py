"""Wunchunk and Quintun speed, grouped per game:
``pytest benches --benchmark-group-by=group`` (see README)."""
import random

import pytest

import hexcore as hc
from hexcore import reference

GAMES = [("wunchunk", "wunchunk(size=6)", 2000), ("quintun", "quintun(size=7)", 1000)]


@pytest.mark.parametrize("name,spec,games", GAMES, ids=[g[0] for g in GAMES])
def test_playouts_rust(benchmark, name, spec, games):
    benchmark.group = f"{name}-playouts"
    res = benchmark(hc.random_playouts, hc.load(spec), games, seed=1, threads=1)
    benchmark.extra_info["games"] = games
    benchmark.extra_info["plies"] = int(res.plies.sum())


@pytest.mark.parametrize("name,spec,games", GAMES, ids=[g[0] for g in GAMES])
def test_playouts_reference(benchmark, name, spec, games):
    benchmark.group = f"{name}-playouts"
    from hexcore.spec import parse

    _, opts = parse(spec)
    cls = getattr(reference, hc.GAMES[name].__name__)

    def run():
        rng = random.Random(1)
        plies = 0
        for _ in range(2):
            r = cls(**opts)
            while not r.is_over:
                moves = r.legal_moves() if r.count_moves() < 5000 else None
                if not moves:
                    break
                r.play(rng.choice(moves))
                plies += 1
        return plies

    benchmark.extra_info["plies"] = benchmark.pedantic(run, rounds=1, iterations=1)


@pytest.mark.parametrize("name,spec,depth", [("wunchunk", "wunchunk(size=5)", 3), ("quintun", "quintun(size=5)", 4)],
                         ids=["wunchunk", "quintun"])
@pytest.mark.parametrize("threads", [1, 2])
def test_perft(benchmark, name, spec, depth, threads):
    benchmark.group = f"{name}-perft"
    benchmark.extra_info["nodes"] = benchmark(hc.perft, hc.load(spec), depth, threads=threads)


@pytest.mark.parametrize("name,spec,games", GAMES, ids=[g[0] for g in GAMES])
def test_python_loop(benchmark, name, spec, games):
    benchmark.group = f"{name}-python-loop"

    def run():
        g = hc.load(spec)
        for _ in range(20000):
            if g.is_over:
                g = hc.load(spec)
            g.apply_action(g.legal_actions()[0])

    benchmark(run)


def _churn_at(ply):
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
    benchmark.group = "board"
    g = hc.Quintun(size=7)
    benchmark(lambda: g.board)
