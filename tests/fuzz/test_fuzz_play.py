"""Fuzzing play and the read surface with hypothesis: notation strings for
``play``, odd objects, action ids for ``apply_action``, every read method on
random states, and the arguments of ``perft`` and ``random_playouts``.

Every input must either work or raise one of the documented exceptions
(docs/guides/games-api.md, "Errors"): a ``hexcore.HexcoreError`` subclass,
``ValueError``, ``TypeError`` or ``IndexError``; a Rust panic
(``pyo3_runtime.PanicException``) or any other exception type is a failure,
and a failed ``play`` / ``apply_action`` must leave the game exactly as it
was. Every game in ``hexcore.GAMES`` is covered (small boards); the shared
pieces and the example budget are in ``fuzzing.py``.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hexcore as hc

from tests.support.fuzzing import (
    ACTION_IDS,
    ANY_INT,
    GAME_NAMES,
    HUGE,
    NOTATION_CHARS,
    ODD_OBJECTS,
    attempt,
    budget,
    listable_moves,
    mutated,
    random_state,
    safe_depth,
    snapshot,
)

# ------------------------------------------------------------------ play

@pytest.mark.parametrize("name", GAME_NAMES)
@budget(150)
@given(data=st.data())
def test_play_fuzzed_notation(name, data):
    g = random_state(name, data)
    moves = listable_moves(g)
    pool = moves or [g.board.label(0), "swap", "pass", "a1,b2"]
    text = data.draw(st.one_of(
        st.text(max_size=12),
        st.text(alphabet=NOTATION_CHARS, max_size=10),
        st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"]),
                min_size=1, max_size=3).flatmap(lambda t: st.sampled_from([t, "a1" + t, t + "c3"])),
        st.sampled_from(pool).flatmap(lambda m: mutated(m)),
        st.lists(st.sampled_from(pool), min_size=1, max_size=4).map(",".join),
        st.sampled_from(pool),
    ), label="text")
    before = snapshot(g)
    # A string can only fail with the package's own move errors.
    ok, res = attempt(g.play, text, allowed=(hc.IllegalMoveError,), what=f"play({text!r})")
    if ok:
        assert isinstance(res, str)
        if moves is not None:
            assert res in moves, f"play({text!r}) accepted {res!r}, not a legal move"
        assert g.history[-1] == res
        assert g.undo() == res
        assert snapshot(g) == before
    else:
        assert isinstance(res.reason, str) and res.reason
        assert str(res)
        assert snapshot(g) == before, f"failed play({text!r}) changed the game"


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(100)
@given(data=st.data(), obj=ODD_OBJECTS)
def test_play_non_string(name, data, obj):
    g = random_state(name, data)
    before = snapshot(g)
    ok, res = attempt(g.play, obj, allowed=(TypeError,), what=f"play({obj!r})")
    assert not ok
    assert snapshot(g) == before


# ---------------------------------------------------------------- actions

@pytest.mark.parametrize("name", GAME_NAMES)
@budget(300)
@given(data=st.data(), action=ACTION_IDS)
def test_apply_action_fuzzed_ids(name, data, action):
    g = random_state(name, data)
    legal = set(g.legal_actions().tolist())
    before = snapshot(g)
    is_int = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
    allowed = (hc.IllegalMoveError,) if is_int else (TypeError,)
    ok, res = attempt(g.apply_action, action, allowed=allowed, what=f"apply_action({action!r})")
    if ok:
        assert is_int and int(action) in legal
        g.undo()
        # undo takes back the whole turn in progress; replay the earlier part
        for a in before[4]:
            g.apply_action(a)
        assert snapshot(g) == before
    else:
        if is_int:
            assert int(action) not in legal, f"legal action {action!r} rejected: {res}"
        assert snapshot(g) == before, f"failed apply_action({action!r}) changed the game"
    # action_to_string: text for every id in range, a clean error otherwise
    in_range = is_int and 0 <= int(action) < g.num_actions
    ok, res = attempt(g.action_to_string, action, allowed=allowed, what="action_to_string")
    assert ok == in_range
    if ok:
        assert isinstance(res, str) and res
    assert snapshot(g) == before


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(40)
@given(data=st.data())
def test_all_legal_actions_accepted_all_others_rejected(name, data):
    g = random_state(name, data)
    legal = set(g.legal_actions().tolist())
    mask = g.legal_action_mask()
    assert mask.shape == (g.num_actions,) and set(np.flatnonzero(mask).tolist()) == legal
    before = snapshot(g)
    for a in range(-2, g.num_actions + 2):
        ok, res = attempt(g.apply_action, a, allowed=(hc.IllegalMoveError,), what=f"apply_action({a})")
        assert ok == (a in legal), (a, res)
        if ok:
            pending = before[4]
            g.undo()
            for p in pending:
                g.apply_action(p)
        assert snapshot(g) == before


# ------------------------------------------------------------ read surface

@pytest.mark.parametrize("name", GAME_NAMES)
@budget(60)
@given(data=st.data())
def test_read_surface_never_panics(name, data):
    """Every read-only method works in any reachable state (finished,
    mid-turn, fresh) or raises a documented error."""
    g = random_state(name, data)
    before = snapshot(g)
    mid = bool(g.pending_actions)
    for meth in ("legal_moves", "count_moves"):
        ok, res = attempt(getattr(g, meth), what=meth)
        if not ok:
            assert mid or isinstance(res, hc.TooManyMovesError), res
    for f in (g.legal_actions, g.legal_action_mask, g.observation, g.cells, g.scores, g.diagram,
              g.__str__, g.__repr__, g._repr_svg_, g.copy, g.__hash__, lambda: g.winners, lambda: g.spec,
              lambda: g.board.num_cells, lambda: g.observation_shape):
        ok, res = attempt(f, allowed=(), what=getattr(f, "__name__", "?"))
    assert g.observation().shape == g.observation_shape
    for unit in ("move", "action"):
        for depth in range(safe_depth(g, unit) + 1):
            ok, res = attempt(hc.perft, g, depth, unit=unit, threads=1, what="perft")
            assert ok or (mid and isinstance(res, hc.IllegalMoveError)), res
    ok, res = attempt(hc.random_playouts, g, 3, seed=len(g.actions), threads=1, what="random_playouts")
    assert ok or (mid and isinstance(res, hc.IllegalMoveError)), res
    assert snapshot(g) == before


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(150)
@given(data=st.data(),
       depth=st.one_of(st.integers(-3, 3), ANY_INT, ODD_OBJECTS),
       unit=st.one_of(st.sampled_from(["move", "action"]), st.text(max_size=5), ODD_OBJECTS),
       threads=st.one_of(st.none(), st.integers(-3, 3), st.integers(1000, 2000), HUGE, ODD_OBJECTS),
       divide=st.one_of(st.booleans(), ODD_OBJECTS))
def test_perft_arguments(name, data, depth, unit, threads, divide):
    g = random_state(name, data)
    before = snapshot(g)
    if isinstance(depth, int) and not isinstance(depth, bool) and 0 < depth < 2**63:
        # keep the search tiny; beyond 64 bits it must be rejected
        depth = min(depth, safe_depth(g))
    attempt(hc.perft, g, depth, unit=unit, divide=divide, threads=threads, what="perft")
    assert snapshot(g) == before


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(150)
@given(data=st.data(),
       n=st.one_of(st.integers(-3, 5), HUGE, st.integers(max_value=-1), ODD_OBJECTS),
       pseed=st.one_of(st.integers(-3, 2**64 + 3), ANY_INT, ODD_OBJECTS),
       threads=st.one_of(st.none(), st.integers(-3, 3), st.integers(1000, 2000), HUGE, ODD_OBJECTS),
       max_plies=st.one_of(st.none(), st.integers(-3, 2**64 - 1), ANY_INT, ODD_OBJECTS))
def test_random_playouts_arguments(name, data, n, pseed, threads, max_plies):
    g = random_state(name, data, stop_mid_turn=False)
    before = snapshot(g)
    ok, res = attempt(hc.random_playouts, g, n, seed=pseed, threads=threads, max_plies=max_plies,
                      what="random_playouts")
    if ok:
        assert len(res) == n and len(res.winners) == n
    assert snapshot(g) == before
