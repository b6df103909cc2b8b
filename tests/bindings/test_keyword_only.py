"""Options are keyword-only; by position they still work, with a warning."""
from typing import Any

import pytest

import hexcore as hc
from hexcore._args import keyword_only


@keyword_only
def f(a: int, b: int = 0, *, c: int = 1, d: int = 2) -> Any:
    return (a, b, c, d)


def test_options_by_keyword_do_not_warn() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f(1, 2, c=3, d=4) == (1, 2, 3, 4)
        assert hc.perft(hc.Hex(size=3), 2, unit="action") == 72


def test_options_by_position_warn_and_mean_the_same() -> None:
    with pytest.warns(FutureWarning, match=r"f\(\): pass c=, d= by keyword"):
        assert f(1, 2, 3, 4) == (1, 2, 3, 4)
    with pytest.warns(FutureWarning, match="pass unit= by keyword"):
        assert hc.perft(hc.Hex(size=3), 2, "action") == hc.perft(hc.Hex(size=3), 2, unit="action")
    with pytest.warns(FutureWarning, match="pass simulations= by keyword"):
        r = hc.search.mcts(hc.Hex(size=3), 50, seed=1)
    assert r.move == hc.search.mcts(hc.Hex(size=3), simulations=50, seed=1).move


def test_too_many_or_twice_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="at most 2 positional arguments and 2 options, got 5"):
        f(1, 2, 3, 4, 5)
    with pytest.raises(TypeError, match="multiple values for argument 'c'"):
        f(1, 2, 3, c=4)


def test_public_signatures_are_keyword_only() -> None:
    import inspect

    for func, first in ((hc.solve, "game"), (hc.search.batched_search, "simulations"), (hc.search.mcts, "game"),
                        (hc.perft, "depth"), (hc.random_playouts, "n")):
        params = list(inspect.signature(func).parameters.values())
        i = [p.name for p in params].index(first)
        assert all(p.kind == p.KEYWORD_ONLY for p in params[i + 1:]), func.__name__

