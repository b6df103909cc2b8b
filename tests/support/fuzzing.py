"""Shared pieces of the fuzz tests (``tests/fuzz/test_fuzz_*.py``): the small
games, the example budget, the check that an exception is a documented one
(never a Rust panic), snapshots of a game, random states and the Hypothesis
strategies of odd inputs.

Budget: by default each test runs a few dozen to a few hundred examples. For a
long run set the number of examples per test, e.g.::

    HEXCORE_FUZZ_EXAMPLES=100000 HYPOTHESIS_PROFILE=dev python -m pytest -q tests/fuzz

(``HYPOTHESIS_PROFILE=dev`` draws fresh random examples on every run; the
default ``ci`` profile from ``conftest.py`` is derandomized.)
"""
from __future__ import annotations

import os
import string

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import hexcore as hc

from tests.support.draws import Draws

SMALL = {"churn": dict(size=3), "wunchunk": dict(size=5), "quintun": dict(size=5), "hex": dict(size=4, swap=True),
         "havannah": dict(size=4, swap=True), "y": dict(size=7)}
GAME_NAMES = sorted(hc.GAMES)

_LONG = int(os.environ.get("HEXCORE_FUZZ_EXAMPLES", "0") or 0)


def budget(n: int):
    """settings() with ``n`` examples by default, HEXCORE_FUZZ_EXAMPLES if set."""
    return settings(max_examples=_LONG or n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


ALLOWED = (hc.HexcoreError, ValueError, TypeError, IndexError)
I64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
HUGE = st.sampled_from([2**63, 2**64, 2**70, -(2**63) - 1, -(2**70), 10**30])
ANY_INT = st.one_of(I64, HUGE, st.integers())


def small_opts(name):
    return dict(SMALL.get(name, {}))


def new_game(name):
    return hc.GAMES[name](**small_opts(name))


# ---------------------------------------------------------------- helpers

def is_panic(e: BaseException) -> bool:
    t = type(e)
    return t.__name__ == "PanicException" or t.__module__ == "pyo3_runtime"


def check_exception(e: BaseException, allowed=ALLOWED, what: str = "") -> None:
    """Fail unless ``e`` is one of ``allowed`` (never a Rust panic)."""
    if isinstance(e, (KeyboardInterrupt, SystemExit)) or type(e).__module__.startswith("hypothesis"):
        raise e
    assert not is_panic(e), f"{what}: Rust panic escaped: {e!r}"
    assert isinstance(e, allowed), (
        f"{what}: undocumented exception {type(e).__module__}.{type(e).__name__}: {e}")


def attempt(f, *args, allowed=ALLOWED, what="", **kwargs):
    """(True, result) or (False, exception) -- the exception checked."""
    try:
        return True, f(*args, **kwargs)
    except BaseException as e:  # noqa: BLE001 -- PanicException derives from BaseException
        check_exception(e, allowed, what or getattr(f, "__name__", repr(f)))
        return False, e


def snapshot(g):
    """Everything a failed play/apply_action must leave untouched."""
    return (
        g.cells().tolist(), g.to_move, g.zobrist, list(g.history), list(g.pending_actions),
        list(g.actions), g.is_over, tuple(g.winners), g.ply, sorted(g.legal_actions().tolist()),
        g.spec,
    )


def random_state(name, data, stop_mid_turn=True, max_actions=None):
    """A game after a random number of random legal actions (possibly finished,
    possibly in the middle of a multi-action turn), each an index drawn from
    the Hypothesis ``data`` into the legal actions."""
    rng = Draws(data, "action")
    g = new_game(name)
    limit = rng.choice([0, 1, 2, 5, 20, 10**6]) if max_actions is None else max_actions
    n = 0
    while n < limit and not g.is_over:
        acts = g.legal_actions()
        if len(acts) == 0:
            break
        g.apply_action(int(rng.choice(acts.tolist())))
        n += 1
    if not stop_mid_turn:
        while g.pending_actions:
            g.apply_action(int(rng.choice(g.legal_actions().tolist())))
    return g


def listable_moves(g, limit=20_000):
    """legal_moves() when it can be listed (between turns, not too many)."""
    ok, n = attempt(g.count_moves, what="count_moves")
    if not ok or n > limit:
        return None
    ok, res = attempt(g.legal_moves, what="legal_moves")
    assert ok and len(res) == n, res
    return res


def small_tree(g):
    """True if a perft of depth 2 is cheap here (either unit)."""
    return not g.pending_actions and g.count_moves() <= 2_000


def safe_depth(g, unit="action"):
    """The deepest perft (<= 2) that stays cheap. The move unit bulk-counts
    the last level; the action unit walks every action sequence (a Wunchunk
    position can have 10**7 moves), so it is checked against the move count."""
    if g.pending_actions:
        return 2          # rejected before any search
    n1 = g.count_moves()
    if unit == "move":
        return 2 if n1 <= 2_000 else 1
    if n1 > 20_000:
        return 0
    return 2 if n1 <= 2_000 and hc.perft(g, 2, threads=1) <= 50_000 else 1


# ------------------------------------------------------------ strategies

NOTATION_CHARS = string.ascii_letters + string.digits + " ,;:-+_()[]\t\n" + "\x00éÄ１ｃ"


@st.composite
def mutated(draw, base: str, alphabet: str = NOTATION_CHARS, max_edits: int = 4):
    """``base`` with a few random edits (insert / delete / replace / case / dup)."""
    s = list(base)
    for _ in range(draw(st.integers(0, max_edits))):
        op = draw(st.sampled_from(["ins", "del", "rep", "case", "dup", "ws", "append"]))
        i = draw(st.integers(0, len(s)))
        ch = draw(st.sampled_from(alphabet))
        if op == "ins":
            s.insert(i, ch)
        elif op == "del" and s:
            del s[min(i, len(s) - 1)]
        elif op == "rep" and s:
            s[min(i, len(s) - 1)] = ch
        elif op == "case":
            s = list("".join(s).swapcase())
        elif op == "dup":
            s = s + [","] + s
        elif op == "ws":
            s = [" "] + s + ["\t"]
        elif op == "append":
            s += list(draw(st.text(alphabet=alphabet, max_size=4)))
    return "".join(s)


ODD_OBJECTS = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True, allow_infinity=True),
    st.binary(max_size=8), st.lists(st.integers(-5, 50), max_size=3),
    st.tuples(st.integers(0, 5)), st.just(object()), st.just(1j), st.just(np.float64(3.0)),
    st.just(np.array([1, 2])), st.just(np.bool_(True)), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)

ACTION_IDS = st.one_of(
    st.integers(-3, 80),
    st.integers(),                                   # any size, including 2**70
    st.sampled_from([-1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, 2**70, -(2**63), -(2**70)]),
    st.integers(-3, 80).map(np.int64), st.integers(0, 80).map(np.int32), st.integers(0, 120).map(np.uint8),
    st.integers(-128, 127).map(np.int8), st.integers(0, 2**64 - 1).map(np.uint64),
    st.floats(), st.none(), st.text(max_size=4), st.booleans(), st.just(np.bool_(False)),
    st.just(np.float32(1.0)), st.binary(max_size=2), st.lists(st.integers(0, 5), max_size=2),
)
