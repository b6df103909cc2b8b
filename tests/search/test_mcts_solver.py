"""MCTS-Solver (``mcts(..., solver=True)`` / ``MCTS(..., solver=True)``): the
values it proves inside its trees agree exactly with ``hc.solve``, it picks a
proven win whenever it has one, and ``solver=False`` is plain UCT."""
from __future__ import annotations

import random
from typing import Dict, List

import numpy as np
import pytest

import hexcore as hc
from hexcore.search import MCTS, SearchResult, mcts

RANK = {"loss": 0, "draw": 1, "win": 2}


def action_values(g, solution) -> Dict[int, str]:
    """The exact value of each legal action of ``g`` for the player to move:
    the best value of the whole moves that start with it."""
    out: Dict[int, str] = {}
    for text, value in solution.moves.items():
        h = g.copy()
        h.play(text)
        first = h.actions[len(g.actions)]
        if first not in out or RANK[value] > RANK[out[first]]:
            out[first] = value
    return out


def check_against_solve(g, r: SearchResult, solution) -> None:
    exact = action_values(g, solution)
    for a, v in r.proven_actions.items():
        assert v == exact[a], (g.spec, list(g.history), g.action_to_string(a), v, exact[a])
    if r.proven is not None:
        assert r.proven == solution.value, (g.spec, list(g.history))
    if "win" in r.proven_actions.values() or r.proven == "win":
        assert solution.moves[r.move] == "win", (g.spec, list(g.history), r.move)
    elif any(v != "loss" for a, v in r.proven_actions.items()) or len(r.proven_actions) < len(exact):
        assert r.proven_actions.get(r.action) != "loss"


def late_positions(spec: str, seed: int, count: int, max_nodes: int = 10_000) -> List:
    """``count`` positions of ``spec`` from random games, each the first of
    its game that ``hc.solve`` settles within ``max_nodes``."""
    out = []
    rng = random.Random(seed)
    while len(out) < count:
        g = hc.load(spec)
        while not g.is_over and not hc.solve(g, max_nodes=max_nodes, threads=1).complete:
            g.play(rng.choice(g.legal_moves()))
        if not g.is_over:
            out.append(g)
    return out


SMALL = ["churn(size=2)", "churn(size=2,pie=false)", "churn(sides=(2,2,3,2,2,3),pie=false)", "hex(size=3)",
         "hex(size=3,swap=true)", "hex(size=4,swap=false)"]


@pytest.mark.parametrize("spec", SMALL)
@pytest.mark.parametrize("simulations,threads", [(50, 1), (2000, 1), (2000, 2), (20_000, 1)])
def test_proofs_agree_with_solve_on_small_boards(spec, simulations, threads):
    rng = random.Random(simulations + threads)
    for k in range(4):
        g = hc.load(spec)
        for _ in range(k):
            if g.is_over:
                break
            g.play(rng.choice(g.legal_moves()))
        if g.is_over:
            continue
        r = mcts(g, simulations=simulations, threads=threads, seed=k, solver=True)
        check_against_solve(g, r, hc.solve(g, threads=1))


@pytest.mark.slow
@pytest.mark.parametrize("spec,seed", [("quintun(size=4,swap=false)", 1), ("quintun(size=4)", 2)])
def test_proofs_agree_with_solve_on_quintun_turns_of_several_actions(spec, seed):
    proven = 0
    several = 0
    for i, g in enumerate(late_positions(spec, seed, 4)):
        r = mcts(g, simulations=30_000, threads=1, seed=i, solver=True)
        check_against_solve(g, r, hc.solve(g, threads=1))
        proven += r.proven is not None
        several += sum(1 for m in g.legal_moves() if "," in m)
        h = g.copy()
        h.play(r.move)  # a whole turn
    assert proven >= 2
    assert several > 0


def test_quintun_draws_are_proven_as_draws():
    # Late positions where some moves draw; a larger c than Quintun's 0.1
    # explores the answers a draw needs proved.
    seen = set()
    rng = random.Random(1)
    positions = 0
    while positions < 3:
        g = hc.Quintun(size=4, swap=False)
        while not g.is_over:
            s = hc.solve(g, max_nodes=5_000, threads=1)
            if s.complete and "draw" in s.moves.values():
                r = mcts(g, simulations=20_000, threads=1, seed=positions, c=1.4, solver=True)
                check_against_solve(g, r, s)
                seen.update(r.proven_actions.values())
                positions += 1
                break
            g.play(rng.choice(g.legal_moves()))
    assert "draw" in seen


def test_proves_the_root_of_hex_3x3_and_plays_a_win():
    g = hc.Hex(size=3, swap=False)
    r = mcts(g, simulations=200_000, threads=1, solver=True)
    s = hc.solve(g)
    assert r.proven == s.value == "win"
    assert s.moves[r.move] == "win"
    assert r.proven_actions[r.action] == "win"
    assert r.simulations < 200_000  # stops once the root is proven
    assert int(r.visits.sum()) == r.simulations
    # after the winning move, every answer is a proven loss for the opponent
    h = g.copy()
    h.play(r.move)
    r2 = mcts(h, simulations=200_000, threads=1, solver=True)
    assert r2.proven == "loss"
    assert len(r2.proven_actions) == len(h.legal_actions())
    # with the swap rule the first player loses, and the search proves it
    g = hc.Hex(size=3, swap=True)
    r = mcts(g, simulations=200_000, threads=1, solver=True)
    assert r.proven == hc.solve(g).value == "loss"
    assert set(r.proven_actions.values()) == {"loss"}


def test_a_proven_win_is_chosen_whenever_one_is_proven():
    rng = random.Random(3)
    wins = 0
    for trial in range(40):
        g = hc.Hex(size=4, swap=False)
        for _ in range(rng.randrange(2, 10)):
            g.play(rng.choice(g.legal_moves()))
        if g.is_over:
            continue
        r = mcts(g, simulations=rng.choice([30, 300, 3000]), threads=rng.choice([1, 2]), seed=trial,
                 solver=True)
        if "win" in r.proven_actions.values():
            wins += 1
            assert r.proven == "win"
            assert r.proven_actions[r.action] == "win"
        check_against_solve(g, r, hc.solve(g, threads=1))
    assert wins >= 5


def test_solver_off_is_plain_uct():
    for spec in ["churn(size=3)", "hex(size=4)", "quintun(size=4)", "wunchunk(size=5)", "wunchunk(size=7,players=3)"]:
        g = hc.load(spec)
        a = mcts(g, simulations=300, threads=1, seed=4)
        b = mcts(g, simulations=300, threads=1, seed=4, solver=False)
        assert (a.move, a.pv, a.nodes, a.simulations) == (b.move, b.pv, b.nodes, b.simulations)
        np.testing.assert_array_equal(a.visits, b.visits)
        np.testing.assert_array_equal(a.values, b.values)
        assert a.proven is None and a.proven_actions == {}


def test_solver_is_deterministic_for_a_thread_count():
    g = hc.Hex(size=4, swap=False)
    for threads in [1, 2, 3]:
        a = mcts(g, simulations=3000, threads=threads, seed=5, solver=True)
        b = mcts(g, simulations=3000, threads=threads, seed=5, solver=True)
        assert (a.move, a.pv, a.proven, a.proven_actions, a.simulations) == \
            (b.move, b.pv, b.proven, b.proven_actions, b.simulations)
        np.testing.assert_array_equal(a.visits, b.visits)


def test_mcts_object_keeps_its_proofs():
    g = hc.Hex(size=3)
    m = MCTS(g, threads=1, solver=True)
    r = m.search(simulations=200_000)
    assert r.proven == "win"
    # a proven root searches no more and gives the same choice
    again = m.search(simulations=100)
    assert (again.simulations, again.move, again.proven) == (0, r.move, "win")
    assert m.advance(r.move) == r.move
    after = m.search(simulations=10)
    assert after.proven == "loss"
    assert set(after.proven_actions.values()) == {"loss"}
    assert len(after.proven_actions) == len(m.game.legal_actions())
    # the same search as one call of mcts
    one = mcts(g, simulations=200_000, threads=1, solver=True)
    assert (one.move, one.proven, one.proven_actions, one.simulations) == \
        (r.move, r.proven, r.proven_actions, r.simulations)


def test_solver_plays_games_to_the_end():
    for spec in ["churn(size=3)", "wunchunk(size=5)", "quintun(size=4)", "hex(size=5)"]:
        g = hc.load(spec)
        m = MCTS(g, threads=1, seed=1, solver=True)
        while not g.is_over:
            r = m.search(simulations=200)
            g.play(r.move)
            m.advance(r.move)
        assert m.game == g


@pytest.mark.parametrize("bad,exc", [("yes", TypeError), (1, TypeError), (None, TypeError)])
def test_solver_argument_is_checked(bad, exc):
    g = hc.Churn(size=2)
    with pytest.raises(exc, match="solver"):
        mcts(g, simulations=10, solver=bad)
    with pytest.raises(exc, match="solver"):
        MCTS(g, solver=bad)


def test_solver_needs_two_players():
    g = hc.Wunchunk(size=7, players=3)
    with pytest.raises(ValueError, match="solver.*two-player"):
        mcts(g, simulations=10, solver=True)
    with pytest.raises(ValueError, match="solver.*two-player"):
        MCTS(g, solver=True)
    assert mcts(g, simulations=10, solver=False).proven is None
