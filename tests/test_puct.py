"""Batched PUCT search with a Python evaluator (hexcore.search.batched_search):
agreement with UCT and the solver, one evaluator call per wave, validation of
the evaluator's output, determinism, and games that are never changed."""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np
import pytest

import hexcore as hc
from hexcore.search import BatchedSearchResult, batched_search, mcts

# Churn side 3, Blue to move: b3 and d3 win, c3 loses (hc.solve).
WIN_LINE = ['c2', 'c4', 'e1', 'e3', 'a1', 'a3', 'd4', 'd2', 'b3', 'b1', 'e2', 'b2', 'b3', 'd4', 'c1', 'b4',
            'c5', 'd2', 'a1', 'a3', 'c2', 'e3', 'c5', 'd2', 'a2', 'd4', 'a1', 'd1', 'c5', 'd2', 'c4']
WINNING = {"b3", "d3"}


def churn_from_obs(obs: np.ndarray) -> hc.Churn:
    """Rebuild a side-3 Churn position (past the pie turn) from its observation."""
    board = hc.Board(3)
    blue_to_move = bool(obs[3, 0, 0] > 0.5)
    mover, other = (2, 1) if blue_to_move else (1, 2)
    pos = {}
    for i in range(board.num_cells):
        r, c = board.grid_pos(i)
        if obs[0, r, c] > 0.5:
            pos[board.label(i)] = mover
        elif obs[1, r, c] > 0.5:
            pos[board.label(i)] = other
    return hc.Churn.from_position(pos, to_move=mover, size=3)


def rollout_evaluator(obs: np.ndarray, masks: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Uniform priors, values from 32 random playouts."""
    values = np.zeros((len(obs), 2), np.float32)
    for k in range(len(obs)):
        p = hc.random_playouts(churn_from_obs(obs[k]), 32, seed=k, threads=1)
        for seat in (1, 2):
            values[k, seat - 1] = float(np.mean(p.winners == seat))
    return masks.astype(np.float32), values


def oracle_evaluator(obs: np.ndarray, masks: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Uniform priors, the solved value (1 for the winner, 0 for the loser)."""
    values = np.zeros((len(obs), 2), np.float32)
    for k in range(len(obs)):
        g = churn_from_obs(obs[k])
        s = hc.solve(g, threads=1, distances=False)
        assert s.value in ("win", "loss")
        winner = g.to_move if s.value == "win" else 3 - g.to_move
        values[k, winner - 1] = 1.0
    return masks.astype(np.float32), values


def uniform(players: int) -> Any:
    def ev(obs: np.ndarray, masks: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        return masks.astype(np.float32), np.full((len(obs), players), 1.0 / players, np.float32)
    return ev


class Counting:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.sizes: List[int] = []
        self.shapes: List[Tuple[Tuple[int, ...], Any, Tuple[int, ...], Any]] = []

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> Any:
        self.sizes.append(len(obs))
        self.shapes.append((obs.shape, obs.dtype, masks.shape, masks.dtype))
        return self.inner(obs, masks)


def test_position_is_what_the_tests_assume():
    g = hc.Churn.replay(WIN_LINE, size=3)
    s = hc.solve(g, threads=1)
    assert {m for m, v in s.moves.items() if v == "win"} == WINNING
    assert churn_from_obs(g.observation()).observation().tobytes() == g.observation().tobytes()


def test_rollout_evaluator_agrees_with_uct():
    g = hc.Churn.replay(WIN_LINE, size=3)
    uct = mcts(g, simulations=3000, threads=1, seed=1)
    r = batched_search([g], rollout_evaluator, simulations=150, seed=1, dirichlet_fraction=0.0)
    best = g.action_to_string(int(np.argmax(r.visits[0])))
    assert uct.move in WINNING and best in WINNING


def test_oracle_evaluator_picks_a_winning_move():
    g = hc.Churn.replay(WIN_LINE, size=3)
    ev = Counting(oracle_evaluator)
    r = batched_search([g, g.copy()], ev, simulations=40, seed=3)
    for b in range(2):
        assert g.action_to_string(int(np.argmax(r.visits[b]))) in WINNING
        assert r.root_values[b, g.to_move - 1] > 0.5  # the player to move wins
    assert r.policies.shape == (2, g.num_actions) and r.policies.dtype == np.float32
    np.testing.assert_allclose(r.policies.sum(axis=1), 1.0, rtol=1e-6)


def test_one_call_per_wave():
    games = [hc.Churn(size=3) for _ in range(3)]
    games[1].play("c3")
    ev = Counting(uniform(2))
    r = batched_search(games, ev, simulations=25, seed=0)
    assert isinstance(r, BatchedSearchResult)
    # nothing finishes this early, so every wave evaluates every tree
    assert ev.sizes == [3] * 25 and r.evaluations == 25
    c, h, w = games[0].observation_shape
    assert ev.shapes[0] == ((3, c, h, w), np.float32, (3, games[0].num_actions), np.bool_)
    assert r.visits.dtype == np.int64 and r.visits.shape == (3, games[0].num_actions)
    assert r.visits.sum(axis=1).tolist() == [24, 24, 24]
    for b, g in enumerate(games):
        legal = set(int(a) for a in g.legal_actions())
        assert set(int(a) for a in np.flatnonzero(r.visits[b])) <= legal


def test_terminal_leaves_skip_the_evaluator():
    g = hc.Churn.replay(WIN_LINE, size=3)
    ev = Counting(uniform(2))
    batched_search([g], ev, simulations=400, seed=0)
    assert 1 <= len(ev.sizes) <= 400 and all(s == 1 for s in ev.sizes)


def test_first_call_is_the_roots_and_shapes_match_observation():
    g = hc.Quintun(size=4)
    seen: List[np.ndarray] = []

    def ev(obs: np.ndarray, masks: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        if not seen:
            seen.append(obs.copy())
            assert (masks[0] == g.legal_action_mask()).all()
        return masks.astype(np.float32), np.full((len(obs), 2), 0.5)
    batched_search([g], ev, simulations=3)
    assert (seen[0][0] == g.observation()).all()


def test_deterministic_with_a_seed():
    games = [hc.Churn(size=3), hc.Churn(size=3)]
    a = batched_search(games, uniform(2), simulations=60, seed=5)
    b = batched_search(games, uniform(2), simulations=60, seed=5)
    c = batched_search(games, uniform(2), simulations=60, seed=6)
    assert (a.visits == b.visits).all() and (a.policies == b.policies).all()
    assert (a.root_values == b.root_values).all()
    assert not (a.visits == c.visits).all()


def test_three_player_wunchunk():
    games = [hc.Wunchunk(size=7, players=3) for _ in range(2)]
    games[1].play(hc.mcts(games[1], simulations=50, threads=1).move)
    ev = Counting(uniform(3))
    r = batched_search(games, ev, simulations=30, seed=2)
    assert r.root_values.shape == (2, 3) and r.root_values.dtype == np.float32
    np.testing.assert_allclose(r.root_values, 1 / 3, rtol=1e-5)
    assert r.visits.sum(axis=1).tolist() == [29, 29]
    assert ev.sizes and max(ev.sizes) <= 2


def test_mid_turn_wunchunk_is_searched_over_actions():
    g = hc.Wunchunk.replay(['3g11', '3h5', '3a7', '1f1', '1j5', '3i11', '1h6', '3f9', '2j2', '1g10', '2l4',
                            '1e5', '1k1', '3d1', '1f8', '3d2', '1c3'], size=7, players=3)
    g.apply_action(int(g.legal_actions()[0]))
    assert g.pending_actions
    before = g.pending_actions
    r = batched_search([g], uniform(3), simulations=10)
    assert g.pending_actions == before
    assert set(int(a) for a in np.flatnonzero(r.visits[0])) <= set(int(a) for a in g.legal_actions())


def _bad(kind: str) -> Any:
    def ev(obs: np.ndarray, masks: np.ndarray) -> Any:
        n, a = masks.shape
        priors = masks.astype(np.float32)
        values = np.full((n, 2), 0.5, np.float32)
        if kind == "prior_shape":
            return priors[:, :-1], values
        if kind == "value_shape":
            return priors, values[:, :1]
        if kind == "nan":
            values[0, 0] = np.nan
        if kind == "inf_prior":
            priors[0, 0] = np.inf
        if kind == "negative":
            priors[0, int(np.flatnonzero(masks[0])[0])] = -0.5
        if kind == "zero_on_legal":
            priors = (~masks).astype(np.float32)
        if kind == "not_tuple":
            return priors
        return priors, values
    return ev


@pytest.mark.parametrize("kind,match", [
    ("prior_shape", "priors must have shape"), ("value_shape", "values must have shape"),
    ("nan", "finite"), ("inf_prior", "finite"), ("negative", ">= 0"),
    ("zero_on_legal", "all zero on the legal"), ("not_tuple", "tuple"),
])
def test_bad_evaluator_output(kind, match):
    g = hc.Churn(size=3)
    g.play("c3")
    snap = (g.history, g.observation().tobytes())
    with pytest.raises(ValueError, match=match):
        batched_search([g], _bad(kind), simulations=5)
    assert (g.history, g.observation().tobytes()) == snap


def test_evaluator_exception_propagates_unchanged():
    class Boom(Exception):
        pass

    calls = []

    def ev(obs: np.ndarray, masks: np.ndarray) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise Boom("from the evaluator")
        return masks.astype(np.float32), np.full((len(obs), 2), 0.5)

    g = hc.Churn(size=3)
    snap = g.history
    with pytest.raises(Boom, match="from the evaluator"):
        batched_search([g], ev, simulations=10)
    assert g.history == snap and not g.is_over


def _leaning(obs: np.ndarray, masks: np.ndarray) -> Any:
    """Priors that differ by action, so the trees depend on every mask entry."""
    p = masks.astype(np.float64) * (1.0 + np.arange(masks.shape[1]))
    return p, np.full((len(obs), 2), 0.5)


@pytest.mark.parametrize("vandal", ["drop_a_legal_action", "all_true", "zero_observations"])
def test_an_evaluator_writing_into_its_inputs_changes_nothing(vandal):
    # Issue 21.4: `m[:, 9] = False` inside the evaluator removed a legal move
    # from the tree; `m[:] = True` ended in an IllegalMoveError deep in the
    # search. The arrays handed to the evaluator are read-only (or copies).
    games = [hc.Churn(size=3), hc.Churn(size=3)]
    games[1].play("c3")
    writes = []

    def ev(obs: np.ndarray, masks: np.ndarray) -> Any:
        out = _leaning(obs.copy(), masks.copy())
        target, value = {"drop_a_legal_action": (masks, False), "all_true": (masks, True),
                         "zero_observations": (obs, 0)}[vandal]
        try:
            target.flags.writeable = True
        except ValueError:
            pass
        try:
            if vandal == "drop_a_legal_action":
                target[:, 9] = value
            else:
                target[...] = value
            writes.append("written")
        except ValueError:
            writes.append("refused")
        return out

    want = batched_search(games, _leaning, simulations=40, seed=3)
    got = batched_search(games, ev, simulations=40, seed=3)
    assert writes and got.evaluations == want.evaluations
    np.testing.assert_array_equal(got.visits, want.visits)
    np.testing.assert_array_equal(got.policies, want.policies)
    np.testing.assert_array_equal(got.root_values, want.root_values)


def test_priors_are_renormalised_over_legal_actions():
    def ev(obs: np.ndarray, masks: np.ndarray) -> Any:
        p = np.full(masks.shape, 7.0)  # mass on illegal actions is ignored
        return p, np.full((len(obs), 2), 0.5)
    g = hc.Churn(size=3)
    g.play("c3")
    r = batched_search([g], ev, simulations=1, dirichlet_fraction=0.0)
    legal = g.legal_action_mask()
    np.testing.assert_allclose(r.policies[0][legal], 1 / legal.sum(), rtol=1e-6)
    assert (r.policies[0][~legal] == 0).all()


def test_bad_arguments():
    g = hc.Churn(size=3)
    ev = uniform(2)
    with pytest.raises(ValueError, match="simulations"):
        batched_search([g], ev, simulations=0)
    with pytest.raises(ValueError, match="empty"):
        batched_search([], ev, simulations=5)
    with pytest.raises(ValueError, match="same type and spec"):
        batched_search([g, hc.Quintun(size=4)], ev, simulations=5)
    with pytest.raises(ValueError, match="same type and spec"):
        batched_search([g, hc.Churn(size=4)], ev, simulations=5)
    with pytest.raises(ValueError, match="dirichlet_fraction"):
        batched_search([g], ev, simulations=5, dirichlet_fraction=1.5)
    with pytest.raises(ValueError, match="c_puct"):
        batched_search([g], ev, simulations=5, c_puct=float("nan"))
    with pytest.raises(TypeError):
        batched_search([g], ev, simulations=2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        batched_search(["c3"], ev, simulations=5)  # type: ignore[list-item]
    done = hc.Churn.replay(WIN_LINE + ["b3"], size=3)
    while not done.is_over:
        done.apply_action(int(done.legal_actions()[0]))
    snap = done.history
    with pytest.raises(hc.GameOverError):
        batched_search([g, done], ev, simulations=5)
    assert done.history == snap and g.history == []


def test_exports():
    assert hc.batched_search is batched_search and hc.search.batched_search is batched_search
    assert hc.BatchedSearchResult is BatchedSearchResult
