"""Havannah three ways: the engine (``hc.Havannah``), the pure-Python
reference (``hexcore.reference.Havannah``, rings found from the rules, not by
OpenSpiel's walk) and OpenSpiel's C++ ``havannah`` (pyspiel, a test extra;
the OpenSpiel checks skip, saying so, without it). Random games compared at
every ply (legal actions, action text, observation), at the end (end ply,
winner or draw, the kind of win), and perft counts.
``scripts/openspiel_havannah_y.py`` runs the same comparison on 10,000
games."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import hexcore as hc
from hexcore import reference

CONFIGS = [(2, False), (2, True), (3, False), (3, True), (4, False), (4, True), (5, True), (6, False), (8, False), (8, True)]


def _pyspiel():
    return pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel): "
                               "the OpenSpiel comparison did not run")


def _os_game(pyspiel, size: int, swap: bool):
    return pyspiel.load_game("havannah", {"board_size": size, "swap": swap})


def test_random_games_against_openspiel():
    pyspiel = _pyspiel()
    games = plies = swaps = 0
    kinds: Counter = Counter()
    for k, (size, swap) in enumerate(CONFIGS):
        os_game = _os_game(pyspiel, size, swap)
        start = hc.Havannah(size=size, swap=swap)
        assert start.num_actions == os_game.num_distinct_actions()
        assert start.observation().shape == tuple(os_game.observation_tensor_shape())
        for i in range(40):
            rng = random.Random(k * 1_000 + i)
            g, s = start.copy(), os_game.new_initial_state()
            while True:
                mine = [int(a) for a in g.legal_actions()]
                assert mine == s.legal_actions(), (g.spec, g.history)
                assert g.is_over == s.is_terminal()
                if g.is_over:
                    break
                if len(g.history) % 5 == 0:
                    want = np.asarray(s.observation_tensor(s.current_player())).reshape(g.observation().shape)
                    np.testing.assert_array_equal(g.observation(), want)
                a = mine[rng.randrange(len(mine))]
                swaps += len(g.history) == 1 and g.cells()[g.board.index(g.action_to_string(a))] != 0
                assert g.action_to_string(a) == s.action_to_string(s.current_player(), a)
                g.apply_action(a)
                s.apply_action(a)
                plies += 1
            assert len(g.history) == len(s.history())
            assert list(g.scores()) == [int(r) for r in s.returns()]
            kinds[g.win_kind() or "draw"] += 1
            games += 1
    assert games == 400 and plies > 15_000 and swaps > 5
    assert kinds["ring"] and kinds["bridge"] and kinds["fork"], kinds


def test_reference_agrees_with_the_engine():
    """Every ply of random games: legal moves, player to move, end, winner,
    and the kind of win."""
    checked = 0
    kinds: Counter = Counter()
    for size, swap in CONFIGS[:7]:
        for i in range(25 if size <= 4 else 6):
            rng = random.Random(size * 31 + swap + i)
            g, r = hc.Havannah(size=size, swap=swap), reference.Havannah(size=size, swap=swap)
            while True:
                assert g.legal_moves() == r.legal_moves(), (g.spec, g.history)
                assert [int(a) for a in g.legal_actions()] == r.legal_actions()
                assert (g.is_over, g.to_move) == (r.is_over, r.to_move)
                if g.is_over:
                    break
                m = g.legal_moves()[rng.randrange(g.count_moves())]
                assert r.play(m.upper()) == g.play(m.upper()) == m
                checked += 1
            assert g.winners == r.winners and g.scores() == r.scores()
            if len(g.winners) == 1:
                assert g.win_kind() == r.win_kinds(g.winners[0])[0], g.history
            kinds[g.win_kind() or "draw"] += 1
    assert checked > 2_000
    assert kinds["ring"] and kinds["bridge"] and kinds["fork"], kinds


def _os_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(_os_perft(state.child(a), depth - 1) for a in state.legal_actions())


@pytest.mark.parametrize("size,swap,depth", [(2, False, 5), (2, True, 5), (3, False, 3), (3, True, 3), (4, True, 2)])
def test_perft_against_openspiel(size, swap, depth):
    pyspiel = _pyspiel()
    s = _os_game(pyspiel, size, swap).new_initial_state()
    want = [_os_perft(s, d) for d in range(1, depth + 1)]
    g = hc.Havannah(size=size, swap=swap)
    for unit in ("move", "action"):
        assert [hc.perft(g, d, unit=unit) for d in range(1, depth + 1)] == want


def test_each_kind_of_win():
    """On side 3 (corners a1 c1 e3 e5 c5 a3, centre c3): a ring around an
    empty cell, a ring around an own stone, a bridge, a fork; o's stones are
    corners that join nothing. Engine and reference agree on each."""
    cases = {
        "ring": (["b2", "c2", "d3", "d4", "c4", "b3"], ["a1", "e5", "c5", "e3", "c1"]),
        "ring around a stone": (["c3", "b2", "c2", "d3", "d4", "c4", "b3"], ["a1", "e5", "c5", "e3", "c1", "a3"]),
        "bridge": (["a1", "b1", "c1"], ["e5", "e3"]),
        "fork": (["b1", "b2", "b3", "b4", "c4", "d5"], ["e5", "e3", "c1", "a3", "c3"]),
    }
    for name, (xs, os_) in cases.items():
        g, r = hc.Havannah(size=3), reference.Havannah(size=3)
        for k, m in enumerate(xs):
            assert not g.is_over, (name, g.history)
            g.play(m)
            r.play(m)
            if k < len(os_):
                g.play(os_[k])
                r.play(os_[k])
        want = name.split()[0]
        assert g.winners == r.winners == (1,), (name, g.history)
        assert g.win_kind() == want and r.win_kinds(1) == [want], (name, g.history)


def test_swap_turns_the_first_stone():
    g = hc.Havannah(size=4, swap=True)
    g.play("d4")
    assert g.swap_available and "d4" in g.legal_moves()
    g.play("d4")
    assert g.cells()[g.board.index("d4")] == 2 and g.to_move == 1 and not g.swap_available
    g.undo()
    assert g.cells()[g.board.index("d4")] == 1 and g.to_move == 2 and g.swap_available


def test_options_and_errors():
    g = hc.Havannah(size=4)
    assert g.spec == "havannah(size=4)" and hc.load(g.spec) == g and hc.Havannah().size == 8
    assert hc.load("havannah(size=3,swap=true)").swap
    for bad in (1, 14):
        with pytest.raises(ValueError, match="size"):
            hc.Havannah(size=bad)
    with pytest.raises(hc.IllegalMoveError):
        g.play("a5")
    with pytest.raises(hc.IllegalMoveError):
        g.apply_action(4)
    assert g.history == []


@pytest.mark.parametrize("swap", [False, True])
def test_solver_matches_minimax_on_every_opening_of_side_2(swap):
    """The whole game of side 2 (7 cells): every opening's value from the
    solver equals a plain minimax's (tests/support/minimax.py)."""
    from tests.support.minimax import NAMES, move_results

    g = hc.Havannah(size=2, swap=swap)
    want = move_results(g, [100_000])
    s = hc.solve(g, threads=1)
    assert s.complete and s.moves == {m: NAMES[v] for m, (v, _) in want.items()}
