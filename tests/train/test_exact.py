"""Exact targets (``--solve-nodes``): the solver's values and winning moves
replace self-play's targets, checked against plain minimax."""
from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import hexcore as hc
from hexcore.spec import load
from hexcore.train import TrainConfig, selfplay, train
from hexcore.train.exact import _best_moves, exact_result, exact_targets
from hexcore.train.selfplay import play_generation

from tests.support.minimax import move_results, random_endgame
from tests.train.test_train import NumpyLearner, tiny, uniform


def check_against_minimax(g: Any, single: bool = True) -> None:
    """``single``: the game's moves are single actions (else the policy is
    left alone, except in positions where every move is one action)."""
    r = exact_result(g, 1_000_000)
    assert r is not None
    results = move_results(g, [2_000_000])
    best = max(v for v, _ in results.values())
    mover = g.to_move - 1
    want = {1: 1.0, 0: 0.5, -1: 0.0}[best]
    assert r.values[mover] == want and r.values[1 - mover] == 1.0 - want
    if not single and r.policy_mask is None:
        assert any("," in m for m in results)
        return
    assert r.policy_mask is not None
    winning = {g.action_to_string(int(a)) for a in np.flatnonzero(r.policy_mask)}
    assert winning == {m for m, (v, _) in results.items() if v == best}


@pytest.mark.parametrize("spec,single", [("hex(size=3)", True), ("churn(size=2,pie=false)", True),
                                         ("quintun(size=4)", False)])
def test_exact_result_equals_minimax(spec: str, single: bool) -> None:
    rng = random.Random(5)
    g0 = load(spec)
    checked = 0
    for _ in range(12):
        g = random_endgame(g0, rng, 7)
        if g is None or g.is_over:
            continue
        check_against_minimax(g, single)
        checked += 1
    assert checked >= 6


def test_exact_result_of_the_empty_hex_3x3() -> None:
    g = hc.Hex(size=3)
    check_against_minimax(g)
    r = exact_result(g, 10_000)
    assert r is not None and r.values.tolist() == [1.0, 0.0]


def test_unsettled_positions_and_multi_stone_moves() -> None:
    assert exact_result(hc.Hex(size=6), 50) is None  # the budget does not settle it
    g = random_endgame(load("quintun(size=4)"), random.Random(5), 7)
    moves = g.legal_moves()
    assert any("," in m for m in moves)  # moves of two actions: the policy is left alone
    assert _best_moves(g, {m: "win" for m in moves}, "win") is None
    single = hc.Hex(size=3)
    mask = _best_moves(single, {m: ("win" if m == "b2" else "loss") for m in single.legal_moves()}, "win")
    assert mask is not None and np.flatnonzero(mask).tolist() == [single.string_to_action("b2")]
    # a move list that is not every legal action once is not trusted
    assert _best_moves(single, {"b2": "win"}, "win") is None


def test_exact_targets_in_self_play(monkeypatch: Any) -> None:
    game = hc.Hex(size=3)
    seen: list = []

    def spy(games: Any, *args: Any, **kw: Any) -> int:
        seen.extend(g for rec in games for g in rec)
        return exact_targets(games, *args, **kw)

    monkeypatch.setattr(selfplay, "exact_targets", spy)
    base, _ = play_generation(game, uniform, games=6, simulations=4, seed=1, random_plies=3)
    assert not seen  # off by default
    samples, stats = play_generation(game, uniform, games=6, simulations=4, seed=1, random_plies=3,
                                     solve_nodes=100_000)
    assert np.array_equal(base.observations, samples.observations)  # the same games
    assert stats.exact == len(samples) == stats.moves == len(seen)
    changed = 0
    for k, pos in enumerate(seen):  # each target is the solver's
        assert np.array_equal(pos.observation(), samples.observations[k])
        r = exact_result(pos, 100_000)
        assert r is not None and r.policy_mask is not None
        assert np.array_equal(samples.values[k], r.values)
        p = samples.policies[k]
        assert p.sum() == pytest.approx(1.0, abs=1e-5)
        assert not p[~r.policy_mask].any()
        changed += not np.array_equal(p, base.policies[k])
    assert changed > 0  # some search policies gave a losing move weight
    two, _ = play_generation(game, uniform, games=6, simulations=4, seed=1, random_plies=3, solve_nodes=100_000,
                             threads=2)
    assert np.array_equal(two.policies, samples.policies) and np.array_equal(two.values, samples.values)


def test_exact_targets_stop_at_the_first_unsettled_position() -> None:
    later = hc.Hex(size=6)
    for m in ("a1", "b1", "c1", "d1", "e1", "f1", "a2", "b2", "c2", "d2", "e2", "f2"):
        later.play(m)
    early = hc.Hex(size=6)
    policies = [np.full((2, 37), 1 / 36, np.float32)]
    values = [np.full((2, 2), 0.25)]
    # the last position settles, the first does not: only the last is replaced
    assert exact_targets([[early, later]], policies, values, 2_000) == 1
    assert values[0][0].tolist() == [0.25, 0.25] and sorted(values[0][1].tolist()) == [0.0, 1.0]
    values = [np.full((2, 2), 0.25)]
    # solving goes from the end backwards: an unsettled last position ends it at once
    assert exact_targets([[later, early]], policies, values, 2_000) == 0


def test_train_with_solve_nodes_and_resume_change(tmp_path: Any) -> None:
    from hexcore.train.config import check_config

    with pytest.raises(ValueError, match="--solve-nodes"):
        check_config(tiny("hex(size=3)", tmp_path / "x", solve_nodes=-1))
    with pytest.raises(ValueError, match="--solve-nodes: max_nodes must be between"):
        check_config(tiny("hex(size=3)", tmp_path / "x", solve_nodes=2**70))
    cfg = tiny("hex(size=3)", tmp_path / "r", solve_nodes=10_000, labelled=0, eval_every=0)
    lines: list = []
    train(cfg, make_learner=NumpyLearner, log=lines.append)
    rows = [json.loads(x) for x in open(tmp_path / "r" / "metrics.jsonl")]
    sp = [r for r in rows if r["kind"] == "selfplay"]
    assert sp and all(r["exact_share"] == 1.0 for r in sp)
    assert any("exact 100%" in x for x in lines)
    lines = []
    train(TrainConfig(**{**cfg.__dict__, "steps": 8, "solve_nodes": 5_000}), resume=True, make_learner=NumpyLearner,
          log=lines.append)
    assert any("solve_nodes=5000 (changed from 10000)" in x for x in lines)


def test_a_set_stop_ends_the_solve() -> None:
    import threading
    import time

    stop = threading.Event()
    stop.set()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        exact_result(hc.Hex(size=7), 10**12, stop)  # unbounded but for the stop
    assert time.perf_counter() - t0 < 5
