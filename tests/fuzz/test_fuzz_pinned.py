"""Pinned inputs of the fuzz tests. Each of these once escaped as an
undocumented exception or a wrong answer (a panic for boards with rows
wider than 64 cells, OverflowError for integers beyond 64 bits, KeyError /
OverflowError from tampered pickles, RecursionError from deeply nested
specs, UnicodeEncodeError from lone surrogates, a perft depth cut to 32
bits, a set-up player to move beyond 64 bits); the fuzzers cover them too,
these name them.
"""
from __future__ import annotations

import pytest

import hexcore as hc
from hexcore import _pickle

from tests.support.fuzzing import GAME_NAMES, attempt, new_game, small_opts, snapshot


def test_wide_boards_do_not_panic():
    """Was a Rust panic (index out of bounds in Board::from_sides) for any board
    with a row wider than 64 cells: hexcore.Board(size=33), hexcore.Churn(size=64),
    hexcore.Churn(sides=(2, 64, 2, 64, 2, 64))."""
    makers = [hc.Board] + [hc.GAMES[n] for n in GAME_NAMES]
    for opts in (dict(size=33), dict(size=64), dict(sides=(2, 64, 2, 64, 2, 64)), dict(sides=(66, 2, 66, 2, 66, 2))):
        for make in makers:
            # TypeError: a game that takes no `sides`
            attempt(make, allowed=(ValueError, TypeError), what=f"{make.__name__}(**{opts})", **opts)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_huge_constructor_arguments_raise_value_error(name):
    """Was OverflowError: hexcore.Churn(size=2**70)."""
    cls = hc.GAMES[name]
    for opts in (dict(size=2**70), dict(size=-(2**70))):
        ok, e = attempt(cls, allowed=(ValueError,), **opts, what=f"{name}(**{opts})")
        assert not ok
    # TypeError if the game takes no `sides`
    ok, e = attempt(cls, sides=(2**70,) * 6, allowed=(ValueError, TypeError), what=f"{name}(sides=(2**70,)*6)")
    assert not ok


@pytest.mark.parametrize("name", GAME_NAMES)
def test_load_huge_number_raises_value_error(name):
    """Was OverflowError: hexcore.load('churn(size=99999999999999999999)')."""
    for spec in (f"{name}(size=99999999999999999999)", f"{name}(size=-99999999999999999999)"):
        ok, e = attempt(hc.load, spec, allowed=(ValueError,), what=spec)
        assert not ok


def test_load_deeply_nested_spec_raises_value_error():
    """Was RecursionError: hexcore.load('churn(size=' + '('*2000 + ')'*2000 + ')')."""
    spec = f"{GAME_NAMES[0]}(size=" + "(" * 2000 + ")" * 2000 + ")"
    ok, e = attempt(hc.load, spec, allowed=(ValueError,), what="deeply nested spec")
    assert not ok


@pytest.mark.parametrize("name", GAME_NAMES)
def test_from_position_huge_to_move(name):
    """Was OverflowError: hexcore.Churn.from_position({}, to_move=2**70, size=3)."""
    ok, e = attempt(hc.GAMES[name].from_position, {}, to_move=2**70, **small_opts(name),
                    allowed=(ValueError,), what="from_position(to_move=2**70)")
    assert not ok


@pytest.mark.parametrize("name", GAME_NAMES)
def test_restore_unknown_game(name):
    """Was KeyError: hexcore._pickle.restore('Churn', 'nosuchgame(size=3)', None, [])."""
    ok, e = attempt(_pickle.restore, hc.GAMES[name].__name__, "nosuchgame(size=3)", None, [],
                    allowed=(ValueError,), what="restore(unknown game)")
    assert not ok


@pytest.mark.parametrize("name", GAME_NAMES)
def test_restore_cell_value_out_of_int8(name):
    """Was OverflowError: hexcore._pickle.restore('Churn', 'churn(size=3)', ([300] * 19, 1), [])."""
    g = new_game(name)
    for v in (300, -300, 2**70):
        ok, e = attempt(_pickle.restore, type(g).__name__, g.spec, ([v] * g.board.num_cells, 1), [],
                        what=f"restore(cells={v})")
        assert not ok


@pytest.mark.parametrize("name", GAME_NAMES)
def test_restore_non_integer_actions(name):
    """Was OverflowError: hexcore._pickle.restore('Churn', 'churn(size=3)', None, [float('inf')])."""
    g = new_game(name)
    for bad in (float("inf"), float("nan"), 1.5, "1", None, True):
        ok, e = attempt(_pickle.restore, type(g).__name__, g.spec, None, [bad],
                        allowed=(TypeError, ValueError), what=f"restore(actions=[{bad!r}])")
        assert not ok


@pytest.mark.parametrize("name", GAME_NAMES)
def test_perft_depth_not_truncated(name):
    """Was a wrong answer: hexcore.perft(hexcore.Churn(size=3), 2**32) returned 1 (the depth
    was cut to 32 bits); depth 2**32 + 1 returned perft(g, 1)."""
    g = new_game(name)
    for depth in (2**32, 2**32 + 1):
        try:
            n = hc.perft(g, depth, threads=1)
        except ValueError:
            continue
        assert n == 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_perft_huge_arguments(name):
    """Was OverflowError: hexcore.perft(g, 2**70), hexcore.perft(g, 1, threads=2**70)."""
    g = new_game(name)
    for kwargs in (dict(depth=2**70, threads=1), dict(depth=1, threads=2**70)):
        ok, e = attempt(hc.perft, g, allowed=(ValueError,), what=f"perft({kwargs})", **kwargs)
        assert not ok


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_playouts_huge_arguments(name):
    """Was OverflowError: hexcore.random_playouts(g, 2**70), random_playouts(g, 1, max_plies=2**70)."""
    g = new_game(name)
    for args, kwargs in (((2**70,), dict(threads=1)), ((1,), dict(max_plies=2**70, threads=1))):
        ok, e = attempt(hc.random_playouts, g, *args, allowed=(ValueError,), what="random_playouts", **kwargs)
        assert not ok


@pytest.mark.parametrize("name", GAME_NAMES)
def test_board_huge_index(name):
    """Was OverflowError: hexcore.Churn(size=3).board.label(2**70)."""
    b = new_game(name).board
    for f in (b.label, b.axial, b.cube, b.neighbors, b.is_ring, b.grid_pos):
        for i in (2**70, -(2**70), 2**64):
            ok, e = attempt(f, i, allowed=(IndexError,), what=f"{f.__name__}({i})")
            assert not ok


@pytest.mark.parametrize("name", GAME_NAMES)
def test_play_lone_surrogate(name):
    """Was UnicodeEncodeError: g.play('\\ud800')."""
    g = new_game(name)
    before = snapshot(g)
    for text in ("\ud800", "c3\udfff", "\udc80"):
        ok, e = attempt(g.play, text, allowed=(hc.IllegalMoveError,), what=f"play({text!r})")
        assert not ok
    assert snapshot(g) == before


def test_restore_huge_to_move():
    for name in GAME_NAMES:
        g = new_game(name)
        for to_move in (2**63, 2**70, -(2**63) - 1):
            with pytest.raises(ValueError):
                _pickle.restore(type(g).__name__, g.spec, ([0] * g.board.num_cells, to_move), [])
