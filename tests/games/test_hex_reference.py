"""Hex three ways: the engine (``hc.Hex``), the pure-Python reference
(``hexcore.reference.Hex``) and OpenSpiel's C++ ``hex`` (pyspiel, a test extra;
the OpenSpiel checks skip, saying so, without it). Random games compared at
every ply (legal actions), at the end (end ply, winner), and perft counts.

OpenSpiel's ``hex`` never ends on a board one cell wide (it counts a cell of
the only row as touching one edge); ``hc.Hex`` ends it with the first stone
across, so the OpenSpiel comparisons use sizes 2 and up."""
from __future__ import annotations

import random
from typing import List, Tuple

import pytest

import hexcore as hc
from hexcore import reference

SQUARE = list(range(2, 14))
RECTANGLES = [(2, 3), (3, 2), (3, 5), (5, 3), (4, 7), (7, 4), (6, 9), (13, 2)]


def _pyspiel():
    return pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel): "
                               "the OpenSpiel comparison did not run")


def _os_game(pyspiel, rows: int, cols: int, swap: bool):
    return pyspiel.load_game("hex", {"num_rows": rows, "num_cols": cols, "swap": swap})


def _engine(rows: int, cols: int, swap: bool) -> hc.Hex:
    return hc.Hex(size=rows, swap=swap) if rows == cols else hc.Hex(rows=rows, cols=cols)


def _configs() -> List[Tuple[int, int, bool]]:
    out = [(n, n, swap) for n in SQUARE for swap in (False, True)]
    return out + [(r, c, False) for r, c in RECTANGLES]


def _winner(g) -> int:
    return g.winners[0] if g.winners else 0


@pytest.mark.slow
def test_ten_thousand_games_against_openspiel():
    pyspiel = _pyspiel()
    configs = _configs()
    games, plies = 0, 0
    for k, (rows, cols, swap) in enumerate(configs):
        os_game = _os_game(pyspiel, rows, cols, swap)
        start = _engine(rows, cols, swap)
        assert start.num_actions == os_game.num_distinct_actions() + (0 if swap else 1)
        per_config = -(-10_000 // len(configs))
        for i in range(per_config):
            rng = random.Random(k * 100_003 + i)
            g, s = start.copy(), os_game.new_initial_state()
            while True:
                mine = [int(a) for a in g.legal_actions()]
                assert mine == s.legal_actions(), (g.spec, g.history)
                assert g.is_over == s.is_terminal()
                if g.is_over:
                    break
                a = mine[rng.randrange(len(mine))]
                assert g.action_to_string(a) == s.action_to_string(s.current_player(), a)
                g.apply_action(a)
                s.apply_action(a)
                plies += 1
            assert len(g.history) == len(s.history())
            returns = s.returns()
            assert _winner(g) == (1 if returns[0] > 0 else 2)
            assert list(g.scores()) == [int(r) for r in returns]
            games += 1
    assert games >= 10_000 and plies > 300_000


def test_reference_agrees_with_the_engine():
    """Every ply of random games: legal moves, player to move, end, winner;
    the reference's ``play`` returns the engine's text."""
    checked = 0
    for k, (rows, cols, swap) in enumerate(_configs() + [(1, 1, False), (1, 5, False), (4, 1, False)]):
        for i in range(25 if rows * cols <= 49 else 6):
            rng = random.Random(k * 1_000 + i)
            g = _engine(rows, cols, swap)
            r = reference.Hex(rows=rows, cols=cols, swap=swap)
            while True:
                assert g.legal_moves() == r.legal_moves(), (g.spec, g.history)
                assert [int(a) for a in g.legal_actions()] == r.legal_actions()
                assert (g.is_over, g.to_move) == (r.is_over, r.to_move)
                if g.is_over:
                    break
                m = g.legal_moves()[rng.randrange(g.count_moves())]
                assert r.play(m.upper()) == g.play(m.upper()) == m
                checked += 1
            assert g.winners == r.winners
            assert g.scores() == r.scores()
    assert checked > 15_000


def test_reference_against_openspiel_on_small_boards():
    """The reference alone against OpenSpiel (so a shared mistake of the
    engine and the reference would show): every game of 2x2 and 2x3, random
    games of 3x3 to 5x5."""
    pyspiel = _pyspiel()

    def walk(r, s, depth_left: int, rng) -> int:
        assert r.legal_actions() == s.legal_actions()
        assert r.is_over == s.is_terminal()
        if r.is_over:
            assert r.winners == ((1,) if s.returns()[0] > 0 else (2,))
            return 1
        acts = r.legal_actions()
        if rng is not None:
            acts = [acts[rng.randrange(len(acts))]]
        total = 0
        for a in acts:
            rc, sc = r.copy(), s.clone()
            rc.apply_action(a)
            sc.apply_action(a)
            total += walk(rc, sc, depth_left - 1, rng)
        return total

    for rows, cols, swap in [(2, 2, False), (2, 2, True), (2, 3, False), (3, 2, False)]:
        leaves = walk(reference.Hex(rows=rows, cols=cols, swap=swap), _os_game(pyspiel, rows, cols, swap).new_initial_state(), 99, None)
        assert leaves > 20
    for n in (3, 4, 5):
        for swap in (False, True):
            for i in range(60):
                walk(reference.Hex(size=n, swap=swap), _os_game(pyspiel, n, n, swap).new_initial_state(), 99, random.Random(i))


def _os_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(_os_perft(state.child(a), depth - 1) for a in state.legal_actions())


def _ref_perft(g, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for a in g.legal_actions():
        c = g.copy()
        c.apply_action(a)
        total += _ref_perft(c, depth - 1)
    return total


@pytest.mark.parametrize("rows,cols,swap,depth", [(2, 2, False, 5), (2, 2, True, 5), (3, 3, False, 5), (3, 3, True, 4),
                                                   (2, 3, False, 6), (3, 2, False, 6), (4, 4, True, 3)])
def test_perft_against_openspiel_and_the_reference(rows, cols, swap, depth):
    g = _engine(rows, cols, swap)
    ref = [_ref_perft(reference.Hex(rows=rows, cols=cols, swap=swap), d) for d in range(1, depth + 1)]
    for unit in ("move", "action"):
        assert [hc.perft(g, d, unit=unit) for d in range(1, depth + 1)] == ref
    pyspiel = _pyspiel()
    s = _os_game(pyspiel, rows, cols, swap).new_initial_state()
    assert [_os_perft(s, d) for d in range(1, depth + 1)] == ref


def test_swap_is_openspiels_swap_pieces():
    """After ``swap`` the stone sits on the mirrored cell, in o's colour, and
    x is to move; the observation's swap plane is on only before it."""
    pyspiel = _pyspiel()
    for first in range(25):
        g = hc.Hex(size=5, swap=True)
        s = _os_game(pyspiel, 5, 5, True).new_initial_state()
        for a in (first, 25):
            g.apply_action(a)
            s.apply_action(a)
        assert g.to_move == s.current_player() + 1 == 1
        assert str(s).split() == [".xo"[v] for v in g.cells()]
