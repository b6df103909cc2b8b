"""Hex through the shared machinery: options and spec, undo, copy, pickle,
JSON records, perft, random playouts, batched games, search, the solver,
the SVG picture and the command line. (Rules against OpenSpiel and the
reference: test_hex_reference.py.)"""
from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

import hexcore as hc
from hexcore import reference
from hexcore.records import from_json, to_json


def _random_game(spec: str, seed: int, plies: int) -> hc.Hex:
    g = hc.load(spec)
    rng = random.Random(seed)
    while len(g.history) < plies and not g.is_over:
        acts = g.legal_actions()
        g.apply_action(int(acts[rng.randrange(len(acts))]))
    return g


def test_options_and_spec():
    assert hc.Hex().spec == "hex(size=11)"
    assert hc.Hex(size=7, swap=True).spec == "hex(size=7,swap=true)"
    assert hc.Hex(rows=3, cols=5).spec == "hex(rows=3,cols=5)"
    assert hc.Hex(rows=4, cols=4).spec == "hex(size=4)"
    for spec in ("hex(size=7)", "hex(size=5,swap=true)", "hex(rows=2,cols=9)", "hex(size=1)", "hex(size=25)"):
        g = hc.load(spec)
        assert g.spec == spec and isinstance(g, hc.Hex)
    g = hc.Hex(rows=3, cols=5)
    assert (g.rows, g.cols, g.size, g.swap, g.num_actions) == (3, 5, None, False, 16)
    assert g.board.rhombus == (3, 5) and g.board.num_cells == 15
    assert g.observation().shape == (4, 3, 5)
    for kwargs, name in [(dict(size=0), "size"), (dict(size=26), "size"), (dict(rows=3, cols=0), "cols"),
                         (dict(rows=3, cols=4, swap=True), "swap"), (dict(size="7"), "size"), (dict(swap=1), "swap")]:
        with pytest.raises(ValueError, match=name):
            hc.Hex(**kwargs)
    with pytest.raises(ValueError):
        hc.Hex(size=3, rows=3, cols=3)
    with pytest.raises(ValueError):
        hc.Hex(rows=3)


def test_moves_errors_and_swap():
    g = hc.Hex(size=5, swap=True)
    with pytest.raises(hc.IllegalMoveError) as e:
        g.play("swap")
    assert e.value.reason == "swap_not_allowed"
    with pytest.raises(hc.NotationError) as e:
        g.play("f1")
    assert e.value.reason == "unknown_cell"
    g.play("B1")
    assert g.history == ["b1"] and g.legal_moves()[-1] == "swap" and g.count_moves() == 25
    with pytest.raises(hc.IllegalMoveError) as e:
        g.play("b1")
    assert e.value.reason == "occupied"
    g.play("swap")
    assert g.to_move == 1 and g.cells()[5] == 2 and g.cells()[1] == 0  # o on a2
    g.undo()
    assert g.to_move == 2 and g.cells()[1] == 1 and g.legal_actions()[-1] == 25
    # x wins down the a-file of a 2x2 board.
    g = hc.Hex(size=2)
    for m in ("a1", "b1", "a2"):
        g.play(m)
    assert g.is_over and g.winners == (1,) and g.scores() == (1, -1)
    with pytest.raises(hc.GameOverError):
        g.play("b2")
    one = hc.Hex(size=1)
    one.play("a1")
    assert one.is_over and one.winners == (1,)


def test_undo_copy_pickle_hash_json():
    for spec in ("hex(size=5,swap=true)", "hex(rows=3,cols=6)", "hex(size=11)"):
        for seed in range(6):
            g = _random_game(spec, seed, 200)
            assert g.is_over
            for plies in range(len(g.history), -1, -1):
                h = hc.Hex.replay(g.history[:plies], **_options(g))
                assert h.zobrist == g.zobrist and h == g and hash(h) == hash(g)
                c = pickle.loads(pickle.dumps(g))
                assert c == g and c.history == g.history and c.zobrist == g.zobrist
                j = from_json(to_json(g))
                assert j == g and j.history == g.history and json.loads(to_json(g))["moves"] == g.history
                if plies:
                    g.undo()
            assert g == hc.load(spec)


def _options(g):
    return dict(size=g.size, swap=g.swap) if g.size else dict(rows=g.rows, cols=g.cols)


def test_from_position():
    g = hc.Hex.from_position({"a1": 1, "a2": 1, "b1": 2}, to_move=2, size=3)
    assert not g.is_over and g.to_move == 2 and g.count_moves() == 6
    g = hc.Hex.from_position({"a1": 1, "a2": 1, "a3": 1, "b1": 2}, to_move=2, size=3)
    assert g.is_over and g.winners == (1,)
    with pytest.raises(ValueError):
        hc.Hex.from_position({"a1": 3}, to_move=1, size=3)


def test_perft_and_playouts():
    g = hc.Hex(size=4, swap=True)
    counts = [hc.perft(g, d) for d in range(1, 5)]
    assert counts == [hc.perft(g, d, unit="action", threads=2) for d in range(1, 5)]
    assert counts[:2] == [16, 16 * 16] and counts[2] == 16 * 15 * 14 + 16 * 15
    divide = hc.perft(g, 3, divide=True)
    assert sum(n for _, n in divide) == counts[2] and len(divide) == 16
    p = hc.random_playouts(hc.Hex(size=11), 400, seed=3, threads=1)
    assert p.finished.all() and set(p.winners.tolist()) == {1, 2}
    assert (p.plies >= 21).all() and (p.plies <= 121).all()
    q = hc.random_playouts(hc.Hex(size=11), 400, seed=3, threads=2)
    assert (p.plies == q.plies).all() and (p.winner_mask == q.winner_mask).all()


def test_vector_games():
    from hexcore.vector import VecGame

    env = VecGame("hex(size=5,swap=true)", 16, seed=1, observation_dtype="float32")
    obs, masks = env.reset()
    assert obs.shape == (16, 4, 5, 5) and masks.shape == (16, 26)
    finished = 0
    for _ in range(300):
        r = env.step(env.sample_actions())
        finished += int(r.terminated.sum())
        for i in range(0, 16, 5):
            if r.terminated[i]:
                continue
            s = env.get_state(i)
            assert np.array_equal(r.action_masks[i], s.legal_action_mask())
            assert np.array_equal(r.observations[i], s.observation())
    assert finished > 50


def test_search_finds_the_winning_stone():
    # x to move on 4x4, one stone from joining top and bottom: only c3 wins
    # at once (the solver may know other wins; UCT should take the quick one).
    g = hc.Hex.from_position({"c1": 1, "c2": 1, "b4": 1, "a1": 2, "a2": 2, "a3": 2, "d3": 2}, to_move=1, size=4)
    winning = [m for m, v in hc.solve(g).moves.items() if v == "win"]
    assert "c3" in winning
    r = hc.search.mcts(g, simulations=3000, threads=1, seed=0)
    assert r.move in winning
    assert r.visits.shape == (17,)

    def uniform(obs, masks):
        return masks.astype(np.float32) / masks.sum(axis=1, keepdims=True), np.zeros((len(obs), 2), np.float32)

    b = hc.search.batched_search([hc.Hex(size=5, swap=True), _random_game("hex(size=5,swap=true)", 1, 1)], uniform, simulations=64)
    assert b.policies.shape == (2, 26) and b.visits.sum() > 0


def _minimax(r) -> bool:
    """The reference's player to move wins (plain minimax)."""
    for m in r.legal_moves():
        c = r.copy()
        c.play(m)
        if c.is_over or not _minimax(c):
            return True
    return False


def test_solver_against_minimax_on_every_3x3_opening():
    for swap in (False, True):
        g = hc.Hex(size=3, swap=swap)
        for m in g.legal_moves():
            c = g.copy()
            c.play(m)
            r = reference.Hex(size=3, swap=swap)
            r.play(m)
            s = hc.solve(c)
            assert s.complete and s.value == ("win" if _minimax(r) else "loss"), (swap, m)


def test_every_4x4_opening_solved_as_published():
    # the winning openings of Hex 4x4 are the short diagonal (the Rust unit
    # tests also check every 4x4 opening against a plain minimax)
    s = hc.solve(hc.Hex(size=4), threads=1, distances=False)
    assert s.complete and s.value == "win"
    assert s.algorithm == "dfpn"  # Hex's choice for a values-only solve; distances are alpha-beta's
    assert hc.solve(hc.Hex(size=3), threads=1).algorithm == "alphabeta"
    assert hc.solve(hc.Churn(size=2, pie=False), threads=1, distances=False).algorithm == "alphabeta"
    assert sorted(m for m, v in s.moves.items() if v == "win") == ["a4", "b3", "c2", "d1"]


def test_svg_has_the_four_coloured_edges():
    g = _random_game("hex(rows=3,cols=4)", 1, 5)
    svg = g._repr_svg_()
    edges = [line for line in svg.splitlines() if 'class="edge"' in line]
    assert len(edges) == 2 * (3 + 4)
    assert sum('data-seat="1"' in e for e in edges) == 8 and sum('data-seat="2"' in e for e in edges) == 6
    assert svg.count('class="stone"') == 5


def test_cli():
    run = [sys.executable, "-m", "hexcore"]
    out = subprocess.run(run + ["perft", "hex(size=3)", "--depth", "3"], capture_output=True, text=True, check=True).stdout
    assert "504" in out
    out = subprocess.run(run + ["show", "hex(size=3)", "--moves", "b2", "a1"], capture_output=True, text=True, check=True).stdout
    assert "x" in out and "o" in out
    out = subprocess.run(run + ["solve", "hex(size=3)"], capture_output=True, text=True, check=True).stdout
    assert "win" in out
