"""Y three ways: the engine (``hc.Y``), the pure-Python reference
(``hexcore.reference.Y``) and OpenSpiel's C++ ``y`` (pyspiel, a test extra;
the OpenSpiel checks skip, saying so, without it). Random games compared at
every ply (legal actions, action text, observation), at the end (end ply,
winner), and perft counts. ``scripts/openspiel_havannah_y.py`` runs the same
comparison on 10,000 games."""
from __future__ import annotations

import random

import numpy as np
import pytest

import hexcore as hc
from hexcore import reference

SIZES = [1, 2, 3, 4, 5, 7, 9, 11, 19]


def _pyspiel():
    return pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel): "
                               "the OpenSpiel comparison did not run")


def _winner(g) -> int:
    return g.winners[0] if g.winners else 0


def test_random_games_against_openspiel():
    pyspiel = _pyspiel()
    games = plies = 0
    for size in SIZES[1:]:
        os_game = pyspiel.load_game("y", {"board_size": size})
        start = hc.Y(size=size)
        assert start.num_actions == os_game.num_distinct_actions()
        assert start.observation().shape == tuple(os_game.observation_tensor_shape())
        for i in range(40):
            rng = random.Random(size * 1_000 + i)
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
                assert g.action_to_string(a) == s.action_to_string(s.current_player(), a)
                g.apply_action(a)
                s.apply_action(a)
                plies += 1
            assert len(g.history) == len(s.history())
            assert list(g.scores()) == [int(r) for r in s.returns()]
            assert _winner(g) == (1 if s.returns()[0] > 0 else 2)
            games += 1
    assert games == 320 and plies > 10_000


def test_reference_agrees_with_the_engine():
    checked = 0
    for size in SIZES:
        for i in range(30 if size <= 7 else 5):
            rng = random.Random(size * 7 + i)
            g, r = hc.Y(size=size), reference.Y(size=size)
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
    assert checked > 2_000


def _os_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(_os_perft(state.child(a), depth - 1) for a in state.legal_actions())


@pytest.mark.parametrize("size,depth", [(1, 2), (2, 4), (3, 5), (4, 4), (5, 3)])
def test_perft_against_openspiel(size, depth):
    pyspiel = _pyspiel()
    s = pyspiel.load_game("y", {"board_size": size}).new_initial_state()
    want = [_os_perft(s, d) for d in range(1, depth + 1)]
    g = hc.Y(size=size)
    for unit in ("move", "action"):
        assert [hc.perft(g, d, unit=unit) for d in range(1, depth + 1)] == want


def test_options_and_errors():
    g = hc.Y(size=5)
    assert g.spec == "y(size=5)" and hc.load(g.spec) == g and hc.Y().size == 19
    with pytest.raises(ValueError, match="size"):
        hc.Y(size=0)
    with pytest.raises(ValueError, match="size"):
        hc.Y(size=27)
    with pytest.raises(hc.IllegalMoveError):
        g.play("e5")
    with pytest.raises(hc.IllegalMoveError):
        g.apply_action(5 * 5 - 1)
    assert g.history == []


@pytest.mark.parametrize("size", [2, 3])
def test_solver_matches_minimax_on_every_opening(size):
    """Every opening of the triangles of side 2 and 3: the solver's values
    equal a plain minimax's (tests/support/minimax.py; larger triangles: its
    random endgames)."""
    from tests.support.minimax import NAMES, move_results

    g = hc.Y(size=size)
    want = move_results(g, [100_000])
    s = hc.solve(g, threads=1)
    assert s.complete and s.moves == {m: NAMES[v] for m, (v, _) in want.items()}
