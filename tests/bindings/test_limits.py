"""Limits are checked once, in the core (``rust/core/src/limits.rs``), and
exported: every entry point that takes ``threads`` reads it there, with one
default and one message; the Python wrappers do not retype the numbers."""
import pathlib
import re

import pytest

import hexcore as hc
from hexcore import _core

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _entry_points():
    g = hc.Churn(size=2, pie=False)
    from hexcore.match import play_match
    from hexcore.vector import VecGame

    def vec_setter(t):
        VecGame("churn(size=2)", 2).threads = t

    return {
        "perft": lambda t: hc.perft(g, 1, threads=t),
        "random_playouts": lambda t: hc.random_playouts(g, 2, threads=t),
        "solve": lambda t: hc.solve(g, threads=t),
        "VecGame": lambda t: VecGame("churn(size=2)", 2, threads=t),
        "VecGame.threads": vec_setter,
        "mcts": lambda t: hc.search.mcts(g, simulations=2, threads=t),
        "MCTS": lambda t: hc.search.MCTS(g, threads=t),
        "play_match": lambda t: play_match("churn(size=2,pie=false)", ["random", "random"], games=1, threads=t),
        "check_threads": _core.check_threads,
    }


def test_one_default_thread_count():
    """Without ``threads`` every call uses the core's default."""
    assert hc.search.MCTS(hc.Churn(size=2)).threads == _core.default_threads() == _core.check_threads()
    assert hc.search.MCTS(hc.Churn(size=2), threads=3).threads == 3


def test_limits_are_the_core_constants():
    assert hc.MAX_THREADS == _core.MAX_THREADS == 256
    assert hc.MAX_DEPTH == _core.MAX_DEPTH == 100_000
    assert hc.MAX_PLAYOUTS == _core.MAX_PLAYOUTS == 2**40
    assert 1 <= _core.default_threads() <= hc.MAX_THREADS


@pytest.mark.parametrize("name", sorted(_entry_points()))
def test_threads_checked_in_one_place(name):
    call = _entry_points()[name]
    call(None) if name != "VecGame.threads" else call(1)
    call(1)
    for bad in (0, -3, hc.MAX_THREADS + 1, 2**70):
        with pytest.raises(ValueError) as err:
            call(bad)
        # the value given, however wide (not a saturated 2**63 - 1)
        assert str(err.value) == f"threads must be between 1 and {hc.MAX_THREADS}, got {bad}", (name, bad)
    with pytest.raises(TypeError):
        call("2")


def test_depth_and_counts_checked_by_the_core():
    g = hc.Churn(size=2)
    with pytest.raises(ValueError, match=f"depth must be between 0 and {hc.MAX_DEPTH}"):
        hc.perft(g, hc.MAX_DEPTH + 1)
    with pytest.raises(ValueError, match=f"n must be between 0 and {hc.MAX_PLAYOUTS}"):
        hc.random_playouts(g, hc.MAX_PLAYOUTS + 1)
    for name, kwargs in [("seed", {"seed": -1}), ("seed", {"seed": 2**64}), ("max_plies", {"max_plies": -1})]:
        with pytest.raises(ValueError, match=f"{name} must be between 0 and {2**64 - 1}"):
            hc.random_playouts(g, 1, **kwargs)
    for kwargs in ({"seed": True}, {"seed": 1.5}, {"max_plies": "3"}):
        with pytest.raises(TypeError):
            hc.random_playouts(g, 1, **kwargs)
    assert len(hc.random_playouts(g, 3, seed=2**64 - 1, max_plies=2**64 - 1)) == 3


def test_python_wrappers_do_not_retype_the_limits():
    """The numbers live in the core; the wrappers pass the arguments on."""
    offenders = []
    for path in sorted((ROOT / "python" / "hexcore").rglob("*.py")):
        text = path.read_text()
        for pat in (r"MAX_THREADS\s*=\s*\d", r"MAX_DEPTH\s*=\s*\d", r'int_arg\("threads"', r'_int\("threads"',
                    r'"depth", depth, 0, 100_000', r"os\.cpu_count\(\)", r"threads\s*<=\s*256\b", r"between 1 and 256",
                    r"2\s*\*\*\s*40\b", r"1\s*<<\s*40\b"):
            if re.search(pat, text):
                offenders.append((path.relative_to(ROOT).as_posix(), pat))
    assert not offenders, offenders
