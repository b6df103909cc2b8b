"""Fuzzing the searches with hypothesis: the arguments of ``mcts``, the
``MCTS`` object's search and advance, and ``batched_search`` with odd
arguments and misbehaving evaluators. Every input must either work or raise a
documented exception, never a Rust panic, and the game searched is never
changed. The shared pieces and the example budget are in ``fuzzing.py``.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexcore.search import MCTS, batched_search, mcts

from tests.support.draws import Draws
from tests.support.fuzzing import (
    ACTION_IDS,
    ANY_INT,
    GAME_NAMES,
    HUGE,
    ODD_OBJECTS,
    attempt,
    budget,
    check_exception,
    listable_moves,
    mutated,
    random_state,
    snapshot,
)

SEARCH_INTS = st.one_of(st.none(), st.integers(-3, 40), HUGE, st.integers(max_value=-1), ODD_OBJECTS)
SEARCH_SECONDS = st.one_of(st.none(), st.sampled_from([0.0, -1.0, 1e-4, 0.002, float("nan"), float("inf"), -0.0]),
                           st.floats(), st.integers(-2, 2), ODD_OBJECTS)
SEARCH_THREADS = st.one_of(st.none(), st.integers(-3, 3), st.integers(257, 2000), HUGE, ODD_OBJECTS)
SEARCH_C = st.one_of(st.sampled_from([0.0, 1.4, -1.0, float("nan"), float("inf"), 1e30]), st.floats(),
                     st.integers(-2, 3), ODD_OBJECTS)


def _tame_budget(simulations, seconds):
    """Keep valid budgets tiny (invalid ones are passed on as drawn)."""
    if isinstance(simulations, int) and not isinstance(simulations, bool) and 0 < simulations < 2**63:
        simulations = min(simulations, 40)
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds > 0:
        seconds = min(float(seconds), 0.002)
    return simulations, seconds


def _tame_threads(threads):
    if threads is None:
        return 2
    if isinstance(threads, int) and not isinstance(threads, bool) and 2 < threads <= 256:
        return 2
    return threads


def _search_state(g):
    return snapshot(g) if g is not None else None


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(80)
@given(data=st.data(), simulations=SEARCH_INTS, seconds=SEARCH_SECONDS, threads=SEARCH_THREADS,
       seed=st.one_of(st.integers(-3, 2**64 + 3), ANY_INT, ODD_OBJECTS), c=SEARCH_C,
       max_rollout_plies=st.one_of(st.integers(-3, 50), ANY_INT, ODD_OBJECTS),
       max_nodes=st.one_of(st.integers(-3, 100), st.integers(2**32 - 2, 2**32 + 2), ANY_INT, ODD_OBJECTS))
def test_mcts_arguments(name, data, simulations, seconds, threads, seed, c, max_rollout_plies, max_nodes):
    g = random_state(name, data)
    before = snapshot(g)
    simulations, seconds = _tame_budget(simulations, seconds)
    ok, r = attempt(mcts, g, simulations=simulations, seconds=seconds, threads=_tame_threads(threads), seed=seed,
                    c=c, max_rollout_plies=max_rollout_plies, max_nodes=max_nodes, what="mcts")
    assert snapshot(g) == before
    if ok:
        h = g.copy()
        h.play(r.move)  # the chosen move is legal
        assert r.visits.shape == r.values.shape == (g.num_actions,)


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(60)
@given(data=st.data(), threads=SEARCH_THREADS, c=SEARCH_C,
       max_nodes=st.one_of(st.integers(-3, 200), ANY_INT, ODD_OBJECTS))
def test_mcts_object_search_and_advance(name, data, threads, c, max_nodes):
    g = random_state(name, data)
    before = snapshot(g)
    ok, m = attempt(MCTS, g, threads=_tame_threads(threads), c=c, max_nodes=max_nodes, max_rollout_plies=200,
                    what="MCTS")
    assert snapshot(g) == before
    if not ok:
        return
    rng = Draws(data, "op")
    shadow = m.game
    for _ in range(rng.choice([1, 2, 4, 8])):
        state = (snapshot(m.game), m.root_visits, m.nodes)
        assert state[0] == snapshot(shadow)
        if rng.choice([True, False]):
            sims, secs = _tame_budget(data.draw(SEARCH_INTS, label="simulations"),
                                      data.draw(SEARCH_SECONDS, label="seconds"))
            ok, r = attempt(m.search, sims, seconds=secs, what="MCTS.search")
            if ok:
                shadow.copy().play(r.move)
                assert m.root_visits == state[1] + r.simulations
            else:
                assert (snapshot(m.game), m.root_visits, m.nodes) == state
        else:
            legal = listable_moves(shadow, limit=5000) or []
            kind = rng.choice(["legal", "mutated", "id", "odd"])
            if kind == "legal" and legal:
                mv = rng.choice(legal)
            elif kind in ("legal", "mutated") and legal:
                mv = data.draw(mutated(rng.choice(legal)), label="move")
            elif kind == "odd":
                mv = data.draw(ODD_OBJECTS, label="move")
            else:
                mv = data.draw(ACTION_IDS, label="move")
            expect = shadow.copy()
            ok_ref, played = attempt(expect.play, mv) if isinstance(mv, str) else (None, None)
            ok, text = attempt(m.advance, mv, what="MCTS.advance")
            if isinstance(mv, str):
                assert ok == ok_ref, (mv, played, text)
            if ok:
                if isinstance(mv, str):
                    assert text == played
                shadow.play(text)
                assert snapshot(m.game) == snapshot(shadow)
            else:
                assert (snapshot(m.game), m.root_visits, m.nodes) == state


class EvaluatorBoom(Exception):
    """Raised by a fuzzed evaluator; must reach the caller unchanged."""


@st.composite
def evaluators(draw):
    """An evaluator whose output is drawn: right, or wrong in one of many ways."""
    kind = draw(st.sampled_from(["good", "shape", "nan", "negative", "zero", "raise", "values", "not_tuple",
                                 "none", "ints", "inf", "list", "one"]))
    fill = draw(st.floats(allow_nan=True, allow_infinity=True))

    def evaluate(obs, masks):
        b, a = masks.shape
        pri = masks.astype(np.float32)
        val = np.full((b, players[0]), 0.5, np.float32)
        if kind == "shape":
            pri = pri[:, :-1]
        elif kind == "nan":
            pri = pri.copy()
            pri[0, 0] = np.nan
        elif kind == "negative":
            pri = pri - 2
        elif kind == "zero":
            pri = np.zeros_like(pri)
        elif kind == "raise":
            raise EvaluatorBoom("evaluator failed")
        elif kind == "values":
            val = np.full((b, players[0] + 1), fill, np.float32)
        elif kind == "not_tuple":
            return pri
        elif kind == "none":
            return None
        elif kind == "ints":
            return masks.astype(np.int64), np.zeros((b, players[0]), np.int64)
        elif kind == "inf":
            val = np.full((b, players[0]), fill, np.float64)
        elif kind == "list":
            return pri.tolist(), val.tolist()
        elif kind == "one":
            return (pri,)
        return pri, val

    players = [2]
    evaluate.players = players  # type: ignore[attr-defined]
    return kind, evaluate


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(60)
@given(data=st.data(), ev=evaluators(),
       simulations=st.one_of(st.integers(-2, 6), HUGE, ODD_OBJECTS),
       c_puct=SEARCH_C, alpha=SEARCH_C, fraction=st.one_of(st.floats(-1, 2), SEARCH_C),
       seed=st.one_of(st.integers(-3, 2**64 + 3), ODD_OBJECTS))
def test_batched_search_arguments_and_evaluators(name, data, ev, simulations, c_puct, alpha, fraction, seed):
    kind, evaluate = ev
    games = [random_state(name, data) for _ in range(Draws(data, "batch").choice([0, 1, 2, 3]))]
    evaluate.players[0] = games[0].num_players if games else 2
    before = [snapshot(g) for g in games]
    if isinstance(simulations, int) and not isinstance(simulations, bool) and simulations > 6:
        simulations = 6
    try:
        r = batched_search(games, evaluate, simulations, c_puct=c_puct, dirichlet_alpha=alpha,
                           dirichlet_fraction=fraction, seed=seed)
    except EvaluatorBoom:
        assert kind == "raise"
    except BaseException as e:  # noqa: BLE001
        check_exception(e, what="batched_search")
    else:
        assert r.policies.shape[0] == len(games)
    assert [snapshot(g) for g in games] == before
