"""Monte Carlo tree search (hexcore.search.mcts): determinism, independence
of move order, strength against uniform random play, whole multi-action
turns, and bad input."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

import hexcore as hc
from hexcore.search import MCTS, SearchResult, mcts


def random_move(g, rng: random.Random) -> None:
    """Play one uniformly random whole turn, action by action."""
    while True:
        g.apply_action(int(rng.choice(list(g.legal_actions()))))
        if not g.pending_actions:
            return


def mcts_vs_random(make, games: int, simulations: int = 1000) -> int:
    """Games (MCTS in each seat in turn, random players elsewhere) that MCTS
    wins alone."""
    won = 0
    for i in range(games):
        g = make()
        seat = i % g.num_players + 1
        rng = random.Random(1000 + i)
        while not g.is_over:
            if g.to_move == seat:
                g.play(mcts(g, simulations=simulations, threads=1, seed=i).move)
            else:
                random_move(g, rng)
        won += g.winners == (seat,)
    return won


def test_result_shape():
    g = hc.Quintun(size=4)
    r = mcts(g, simulations=300, threads=1)
    assert isinstance(r, SearchResult)
    assert r.simulations == 300 and int(r.visits.sum()) == 300
    assert r.visits.dtype == np.int64 and r.values.dtype == np.float32
    assert r.visits.shape == r.values.shape == (g.num_actions,)
    legal = set(int(a) for a in g.legal_actions())
    assert {int(a) for a in np.flatnonzero(r.visits)} <= legal
    assert r.action == int(np.argmax(r.visits))
    assert r.pv[0] == g.action_to_string(r.action) == r.move
    assert ((r.values >= 0) & (r.values <= 1)).all()
    assert r.seconds > 0 and r.simulations_per_second > 0 and r.nodes > 1
    assert hc.mcts is mcts and hc.search.mcts is mcts


def test_one_thread_is_deterministic():
    g = hc.Churn(size=3)
    g.play("c3")
    a = mcts(g, simulations=800, threads=1, seed=7)
    b = mcts(g, simulations=800, threads=1, seed=7)
    assert np.array_equal(a.visits, b.visits) and np.array_equal(a.values, b.values)
    assert (a.move, a.pv) == (b.move, b.pv)
    c = mcts(g, simulations=800, threads=1, seed=8)
    assert not np.array_equal(a.visits, c.visits)


def test_threads_sum_the_budget():
    g = hc.Quintun(size=4)
    r = mcts(g, simulations=1001, threads=2, seed=1)
    assert r.simulations == 1001 and int(r.visits.sum()) == 1001
    r = mcts(g, seconds=0.05, threads=2)
    assert r.simulations > 0 and int(r.visits.sum()) == r.simulations


def test_same_position_by_two_move_orders():
    g1, g2 = hc.Churn(size=3, pie=False), hc.Churn(size=3, pie=False)
    for m in ["a1", "e3", "a3"]:
        g1.play(m)
    for m in ["a3", "e3", "a1"]:
        g2.play(m)
    assert g1.zobrist == g2.zobrist and g1.history != g2.history
    r1 = mcts(g1, simulations=1000, threads=1, seed=3)
    r2 = mcts(g2, simulations=1000, threads=1, seed=3)
    assert r1.move == r2.move
    assert np.array_equal(r1.visits, r2.visits)


@pytest.mark.slow
@pytest.mark.parametrize("name,make,need", [
    ("churn", lambda: hc.Churn(size=3), 18),
    ("quintun", lambda: hc.Quintun(size=4), 18),
    ("hex", lambda: hc.Hex(size=5), 18),
    ("havannah", lambda: hc.Havannah(size=4), 18),
    ("y", lambda: hc.Y(size=7), 18),
    # Against two random players, who also place stones of the searcher's
    # colour, 1000 simulations win 70-85% of games alone (14 of these 20; a
    # random player wins about a third, and 12 or more of 20 about 1% of the
    # time).
    ("wunchunk3", lambda: hc.Wunchunk(size=7, players=3), 12),
])
def test_beats_uniform_random(name, make, need):
    won = mcts_vs_random(make, 20)
    assert won >= need, f"{name}: MCTS won {won} of 20 against random play"


def test_wunchunk_turns_are_whole_moves():
    g = hc.Wunchunk(size=6)
    multi = 0
    while not g.is_over and g.ply < 40:
        before = len(g.actions)
        r = mcts(g, simulations=150, threads=1, seed=g.ply)
        assert g.play(r.move) == r.move
        assert not g.pending_actions
        stones = len(r.move.split(","))
        # One action per stone, plus one that ends a turn of fewer stones
        # than the allotment.
        assert stones <= len(g.actions) - before <= stones + 1
        multi += stones > 1
    assert multi >= 3


def test_finished_and_mid_turn_games_are_refused_unchanged():
    g = hc.Churn(size=2, pie=False)
    rng = random.Random(0)
    while not g.is_over:
        random_move(g, rng)
    history, z = g.history, g.zobrist
    with pytest.raises(hc.GameOverError) as e:
        mcts(g, simulations=10)
    assert e.value.reason == "game_over"
    assert (g.history, g.zobrist) == (history, z)

    w = hc.Wunchunk(size=6, start="open")
    w.apply_action(int(w.legal_actions()[0]))
    pending, z = w.pending_actions, w.zobrist
    with pytest.raises(hc.IllegalMoveError) as e:
        mcts(w, simulations=10)
    assert e.value.reason == "mid_turn"
    assert (w.pending_actions, w.zobrist) == (pending, z)


@pytest.mark.parametrize("kwargs,exc", [
    ({}, ValueError),
    ({"simulations": 0}, ValueError),
    ({"simulations": -5}, ValueError),
    ({"simulations": 1.5}, TypeError),
    ({"simulations": True}, TypeError),
    ({"seconds": 0}, ValueError),
    ({"seconds": -1.0}, ValueError),
    ({"seconds": math.nan}, ValueError),
    ({"seconds": math.inf}, ValueError),
    ({"seconds": "1"}, TypeError),
    ({"simulations": 10, "threads": 0}, ValueError),
    ({"simulations": 10, "threads": 257}, ValueError),
    ({"simulations": 10, "c": math.nan}, ValueError),
    ({"simulations": 10, "c": -1.0}, ValueError),
    ({"simulations": 10, "c": math.inf}, ValueError),
    ({"simulations": 10, "seed": -1}, ValueError),
    ({"simulations": 10, "max_rollout_plies": -1}, ValueError),
    ({"simulations": 10, "max_nodes": 0}, ValueError),
])
def test_bad_arguments(kwargs, exc):
    g = hc.Churn(size=3)
    g.play("c3")
    history, z = g.history, g.zobrist
    with pytest.raises(exc):
        mcts(g, **kwargs)
    assert (g.history, g.zobrist) == (history, z)


def test_not_a_game():
    with pytest.raises(TypeError):
        mcts("churn", simulations=10)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hc._core._mcts(object(), 10)


def test_limits_still_search():
    g = hc.Churn(size=3)
    # A tree that cannot grow past the root's children: rollouts only.
    r = mcts(g, simulations=200, threads=1, max_nodes=1)
    assert r.simulations == 200 and r.nodes == 1 + g.num_actions - 1  # every cell, no swap
    # Rollouts cut off at once score a draw for everyone.
    r = mcts(g, simulations=100, threads=1, max_rollout_plies=0)
    assert r.simulations == 100


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_long_search(threads, python_sigint_handler):
    import _thread
    import threading
    import time

    g = hc.Quintun(size=5)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            mcts(g, seconds=60, threads=threads)
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 10
    # the game is still usable
    assert mcts(g, simulations=50, threads=1).simulations == 50


# ----------------------------------------------------------------------------- the reusable MCTS object


def test_mcts_object_first_search_equals_mcts_and_advance_keeps_visits():
    g = hc.Churn(size=3)
    before = g.history
    m = MCTS(g, threads=1, seed=4)
    r = m.search(simulations=600)
    ref = mcts(g, simulations=600, threads=1, seed=4)
    assert (r.move, r.pv, r.nodes) == (ref.move, ref.pv, ref.nodes)
    assert np.array_equal(r.visits, ref.visits) and np.array_equal(r.values, ref.values)
    assert m.root_visits == 600 and m.nodes == m.tree_size == r.nodes
    kept = int(r.visits[r.action])
    assert kept > 1
    assert m.advance(r.move) == r.move
    # the kept subtree, less the one simulation that ended at the new root before it had children
    assert m.root_visits == kept - 1
    assert m.nodes < r.nodes
    assert g.history == before  # the caller's game is a separate copy
    assert m.game.history == before + [r.move]
    r2 = m.search(simulations=100)
    assert r2.simulations == 100
    assert m.root_visits == kept - 1 + 100
    # the root actions' visits count every simulation kept at the root (it was one short per kept tree)
    assert int(r2.visits.sum()) == m.root_visits


def test_mcts_object_is_deterministic_and_plays_legal_moves_to_the_end():
    def run():
        m = MCTS(hc.Churn(size=3, pie=False), threads=1, seed=11)
        shadow = hc.Churn(size=3, pie=False)
        out = []
        while not m.game.is_over:
            r = m.search(simulations=200)
            out.append((r.move, r.visits.tolist()))
            shadow.play(r.move)  # legal in an independent copy
            m.advance(r.move)
            assert m.game.history == shadow.history
        return out, m

    a, m = run()
    b, _ = run()
    assert a == b
    with pytest.raises(hc.GameOverError) as e:
        m.search(simulations=10)
    assert e.value.reason == "game_over"
    with pytest.raises(hc.GameOverError):
        m.advance("a1")


def test_mcts_object_threads_advance_every_tree():
    m = MCTS(hc.Quintun(size=5), threads=2, seed=1)
    r = m.search(simulations=800)
    assert r.simulations == 800 and m.root_visits == 800
    kept = int(r.visits[r.action])
    if len(r.pv) and r.move == r.pv[0]:  # a one-action turn: the child is the new root
        m.advance(r.move)
        assert kept - 2 <= m.root_visits <= kept - 1  # one first visit dropped per tree that reached it
    else:
        m.advance(r.move)
        assert m.root_visits <= kept
    r2 = m.search(seconds=0.05)
    assert r2.simulations > 0 and int(r2.visits.sum()) == m.root_visits  # every tree's kept root counts in full


def test_mcts_object_bad_input_changes_nothing():
    g = hc.Churn(size=3)
    m = MCTS(g, threads=1)
    m.search(simulations=300)
    state = (m.game.history, m.root_visits, m.nodes)
    for bad, exc in [("zz99", hc.NotationError), ("", hc.NotationError), (10**6, hc.IllegalMoveError),
                     (-1, hc.IllegalMoveError), (2**70, hc.IllegalMoveError), (1.5, TypeError),
                     (None, TypeError), (True, TypeError), (["a1"], TypeError)]:
        with pytest.raises(exc):
            m.advance(bad)
        assert (m.game.history, m.root_visits, m.nodes) == state, bad
    first = g.legal_actions()[0]  # a numpy integer: an action id like an int
    assert m.advance(first) == g.action_to_string(int(first))
    state = (m.game.history, m.root_visits, m.nodes)
    occupied = m.game.history[-1]
    with pytest.raises(hc.IllegalMoveError):
        m.advance(occupied)
    assert (m.game.history, m.root_visits, m.nodes) == state
    for kwargs, exc in [({}, ValueError), ({"simulations": 0}, ValueError), ({"simulations": -5}, ValueError),
                        ({"seconds": 0}, ValueError), ({"seconds": float("nan")}, ValueError),
                        ({"simulations": "10"}, TypeError), ({"simulations": 1.5}, TypeError)]:
        with pytest.raises(exc):
            m.search(**kwargs)
        assert (m.game.history, m.root_visits, m.nodes) == state
    for kwargs, exc in [({"threads": 0}, ValueError), ({"c": float("nan")}, ValueError), ({"c": -1}, ValueError),
                        ({"max_nodes": 0}, ValueError), ({"seed": -1}, ValueError), ({"threads": "2"}, TypeError)]:
        with pytest.raises(exc):
            MCTS(g, **kwargs)
    with pytest.raises(TypeError):
        MCTS("churn(size=3)")  # type: ignore[arg-type]
    w = hc.Wunchunk(size=6, start="open")
    w.apply_action(int(w.legal_actions()[0]))
    with pytest.raises(hc.IllegalMoveError) as e:
        MCTS(w)
    assert e.value.reason == "mid_turn"


def test_mcts_object_wunchunk_multi_stone_turns():
    g = hc.Wunchunk(size=6)
    m = MCTS(g, threads=1, seed=2)
    multi = 0
    while not g.is_over and g.ply < 30:
        r = m.search(simulations=150)
        kept = int(r.visits[r.action])
        assert g.play(r.move) == r.move
        assert m.advance(r.move) == r.move
        assert m.game.history == g.history
        assert m.root_visits <= kept
        multi += len(r.move.split(",")) > 1
    assert multi >= 3
    # an action id is accepted only for a whole turn
    if not g.is_over:
        h = g.copy()
        a = int(h.legal_actions()[0])
        h.apply_action(a)
        if h.pending_actions:
            with pytest.raises(hc.IllegalMoveError) as e:
                m.advance(a)
            assert e.value.reason == "mid_turn"
            assert m.game.history == g.history


def test_mcts_object_quintun_extend_moves():
    sample = "j4 j4 m5 j6 m7 p8 m9 p10 m11 Ai1 i3 k3 j2 l2 Bf2 h4 p4 s7 p12 s5 s11 s3 p2 Cb8 j8 g7 g9 Dt2".split()
    g = hc.Quintun.replay(sample, size=7, placement="side", swap=True)
    m = MCTS(g, threads=1, seed=0)
    m.search(simulations=300)
    assert m.advance("Akm1") == "Akm1"  # an EXTEND: two actions
    g.play("Akm1")
    assert m.game.history == g.history
    r = m.search(simulations=300)
    g.play(r.move)
    m.advance(r.move)
    assert m.game.history == g.history


def test_default_exploration_constant_per_game():
    from hexcore.search import default_c

    assert default_c(hc.Churn(size=3)) == math.sqrt(2)
    assert default_c(hc.Quintun(size=4)) == default_c(hc.Wunchunk(size=5)) == 0.1
    for g in (hc.Churn(size=3), hc.Quintun(size=4), hc.Wunchunk(size=5)):
        a = mcts(g, simulations=300, threads=1, seed=3)
        b = mcts(g, simulations=300, threads=1, seed=3, c=default_c(g))
        assert a.move == b.move and np.array_equal(a.visits, b.visits)
        m = MCTS(g, threads=1, seed=3).search(simulations=300)
        assert np.array_equal(m.visits, a.visits)


def test_progress_is_called_and_its_exception_stops_the_search():
    """``progress(seconds)`` runs in the calling thread while the search
    works; what it raises stops a 30-second search at once, for ``mcts``
    and for a kept tree (whose simulations so far stay); a bad
    ``progress`` is a TypeError before anything runs."""
    import time

    class Stop(Exception):
        pass

    g = hc.Churn(size=4)
    seen = []

    def progress(seconds):
        seen.append(seconds)
        if seconds > 0.2:
            raise Stop

    t0 = time.perf_counter()
    with pytest.raises(Stop):
        hc.mcts(g, seconds=30, threads=1, progress=progress)
    assert time.perf_counter() - t0 < 5 and len(seen) >= 3 and seen == sorted(seen)
    assert g == hc.Churn(size=4)
    m = hc.search.MCTS(g, threads=1)
    seen.clear()
    with pytest.raises(Stop):
        m.search(seconds=30, progress=progress)
    assert m.root_visits > 0 and m.search(simulations=10, progress=lambda s: None).simulations == 10
    r = hc.mcts(g, simulations=50, threads=1, seed=3, progress=lambda s: None)
    assert r.move == hc.mcts(g, simulations=50, threads=1, seed=3).move
    with pytest.raises(TypeError, match="progress must be a callable"):
        hc.mcts(g, simulations=10, progress=3)
