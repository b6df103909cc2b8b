"""Batched PUCT and Gumbel search with a Python evaluator
(hexcore.search.batched_search, BatchedMCTS): agreement with UCT, the solver
and the former Python PUCT (tests/support/puct_reference.py), Gumbel's policy
improvement, subtree reuse, three players, one evaluator call per wave,
validation of the evaluator's output, determinism for any thread count, and
games that are never changed."""
from __future__ import annotations

import random
import sys
from typing import Any, Dict, List, Set, Tuple

import numpy as np
import pytest

import hexcore as hc
from hexcore.search import BatchedMCTS, BatchedSearchResult, batched_search, mcts

from tests.support.puct_reference import reference_search

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


def test_any_64_bit_seed():
    # hexcore.match.derive_seed gives seeds up to 2**64 - 1 (self-play passes them on), as mcts takes
    games = [hc.Churn(size=3)]
    for seed in (2**63 - 1, 2**63, 2**64 - 1):
        a = batched_search(games, uniform(2), simulations=20, algorithm="gumbel", seed=seed)
        b = batched_search(games, uniform(2), simulations=20, algorithm="gumbel", seed=seed)
        assert (a.visits == b.visits).all()
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match="seed must be between 0 and 18446744073709551615"):
            batched_search(games, uniform(2), simulations=20, seed=bad)
    with pytest.raises(TypeError, match="seed must be an int"):
        batched_search(games, uniform(2), simulations=20, seed=1.5)  # type: ignore[arg-type]


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


# ------------------------------------------------------------ the native search

def hashed(players: int, seed: int = 0) -> Any:
    """Priors and values that depend on the position only (a stand-in network)."""
    def ev(obs: np.ndarray, masks: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        pri = np.zeros(masks.shape, np.float32)
        val = np.zeros((len(obs), players), np.float32)
        for k in range(len(obs)):
            r = np.random.default_rng([seed, int.from_bytes(obs[k].tobytes()[::7][:64].ljust(8, b"\0")[:8], "little"),
                                       int(obs[k].sum() * 8)])
            pri[k] = r.random(masks.shape[1]).astype(np.float32) * masks[k]
            val[k] = r.random(players).astype(np.float32)
        return pri, val
    return ev


AGREEMENT_GAMES = {
    "churn3": lambda: [hc.Churn(size=3), hc.Churn.replay(["c3", "swap", "b2"], size=3)],
    "churn4": lambda: [hc.Churn(size=4)],
    "quintun4": lambda: [hc.Quintun(size=4), hc.Quintun(size=4)],
    "wunchunk3p": lambda: [hc.Wunchunk(size=7, players=3)],
    "win_line": lambda: [hc.Churn.replay(WIN_LINE, size=3)],
}


@pytest.mark.parametrize("name", sorted(AGREEMENT_GAMES))
def test_puct_agrees_with_the_python_reference(name):
    games = AGREEMENT_GAMES[name]()
    players = games[0].num_players
    for ev in (hashed(players), uniform(players)):
        ref = reference_search(games, ev, simulations=60, dirichlet_fraction=0.0)
        r = batched_search(games, ev, simulations=60, dirichlet_fraction=0.0, threads=1)
        assert r.visits.tolist() == ref.visits.tolist()
        np.testing.assert_allclose(r.root_values, ref.root_values, rtol=1e-6)
        np.testing.assert_allclose(r.policies, ref.policies, rtol=1e-6)
        assert r.evaluations == ref.evaluations and r.simulations == 60
        assert r.actions.tolist() == np.argmax(ref.visits, axis=1).tolist()


# Churn side 3 positions solved by hc.solve: (game, winning actions).
def solved_positions(n: int, seed: int = 0) -> List[Tuple[hc.Churn, Set[int]]]:
    rng = random.Random(seed)
    out: List[Tuple[hc.Churn, Set[int]]] = []
    while len(out) < n:
        g = hc.Churn(size=3)
        for _ in range(rng.randint(24, 40)):
            if g.is_over:
                break
            g.apply_action(rng.choice(g.legal_actions().tolist()))
        if g.is_over:
            continue
        s = hc.solve(g, threads=1, distances=False, table_mb=8)
        assert s.complete
        wins = {a for a in g.legal_actions().tolist() if s.moves[g.action_to_string(a)] == "win"}
        if wins and len(wins) < len(s.moves):
            out.append((g, wins))
    return out


@pytest.fixture(scope="module")
def positions() -> List[Tuple[hc.Churn, Set[int]]]:
    return solved_positions(30)


def knows_root_actions(g: hc.Churn, wins: Set[int], bad_prior: int = -1) -> Any:
    """Values 1 / 0 for the positions after a winning / losing root action,
    0.5 elsewhere; uniform priors, except (with ``bad_prior``) 90% of the
    root's mass on that action."""
    me = g.to_move
    table: Dict[bytes, np.ndarray] = {}
    for a in g.legal_actions().tolist():
        h = g.copy()
        h.apply_action(a)
        v = np.zeros(2, np.float32)
        v[(me if a in wins else 3 - me) - 1] = 1.0
        table[h.observation().tobytes()] = v
    root = g.observation().tobytes()

    def ev(obs: np.ndarray, masks: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        vals = np.stack([table.get(o.tobytes(), np.full(2, 0.5, np.float32)) for o in obs])
        pri = masks / masks.sum(axis=1, keepdims=True)
        for k, o in enumerate(obs):
            if bad_prior >= 0 and o.tobytes() == root:
                pri[k] *= 0.1
                pri[k, bad_prior] += 0.9
        return pri, vals
    return ev


@pytest.mark.slow
def test_gumbel_picks_a_win_when_every_action_is_tried(positions):
    for g, wins in positions:
        n = len(g.legal_actions())
        for sims in (n + 1, n + 7):
            r = batched_search([g], knows_root_actions(g, wins), simulations=sims, algorithm="gumbel",
                               gumbel_scale=0.0, max_considered=g.num_actions, threads=1)
            assert int(r.actions[0]) in wins, (g.history, sims)
            # The improved policy puts more mass on the winning actions than the uniform prior.
            assert r.policies[0, sorted(wins)].sum() > len(wins) / n
            np.testing.assert_allclose(r.policies[0].sum(), 1.0, rtol=1e-5)


@pytest.mark.slow
def test_gumbel_beats_puct_against_a_misleading_prior(positions):
    gumbel = puct = 0
    for i, (g, wins) in enumerate(positions):
        bad = min(a for a in g.legal_actions().tolist() if a not in wins)
        ev = knows_root_actions(g, wins, bad_prior=bad)
        gumbel += int(batched_search([g], ev, 8, algorithm="gumbel", seed=i, threads=1).actions[0]) in wins
        puct += int(batched_search([g], ev, 8, algorithm="puct", seed=i, threads=1).actions[0]) in wins
    assert gumbel > puct, (gumbel, puct)
    assert gumbel >= len(positions) // 2


def test_gumbel_scale_zero_is_deterministic_and_seeded_noise_is_not():
    g = hc.Churn(size=4)
    ev = hashed(2)
    a = [batched_search([g], ev, 24, algorithm="gumbel", gumbel_scale=0.0, seed=s, threads=1) for s in (0, 1)]
    assert a[0].visits.tolist() == a[1].visits.tolist() and a[0].actions.tolist() == a[1].actions.tolist()
    b = [batched_search([g], ev, 24, algorithm="gumbel", seed=s, threads=1).visits.tolist() for s in range(4)]
    assert len({str(x) for x in b}) > 1


@pytest.mark.parametrize("algorithm", ["puct", "gumbel"])
def test_reuse_after_advance(algorithm):
    games = [hc.Churn(size=4) for _ in range(3)]
    m = BatchedMCTS(games, hashed(2), algorithm=algorithm, seed=3, threads=1)
    r = m.search(80)
    assert m.root_visits.tolist() == [80] * 3
    kept = r.visits[np.arange(3), r.actions]
    m.advance(r.actions)
    assert m.root_visits.tolist() == kept.tolist()
    for b, g in enumerate(m.games):
        h = games[b].copy()
        h.apply_action(int(r.actions[b]))
        assert g.history == h.history
    r2 = m.search(10)
    assert r2.visits.sum(axis=1).tolist() == (kept - 1 + 10).tolist()
    assert m.root_visits.tolist() == (kept + 10).tolist()
    # The given games never changed.
    assert all(g.history == [] for g in games)


def test_advance_errors_change_nothing():
    g = hc.Churn.replay(WIN_LINE, size=3)
    m = BatchedMCTS([g, g.copy()], uniform(2), threads=1)
    r = m.search(10)
    before = (m.root_visits.tolist(), [x.history for x in m.games])
    occupied = next(a for a in range(g.num_actions) if not g.legal_action_mask()[a])
    with pytest.raises(hc.IllegalMoveError, match="game 1"):
        m.advance([int(r.actions[0]), occupied])
    # not one action per game: a ValueError about the length (as VecGame.step), not an illegal move
    for wrong in ([int(r.actions[0])], [int(r.actions[0])] * 3, []):
        with pytest.raises(ValueError, match=rf"^actions must have shape \(2,\) \(one per game\), got \({len(wrong)},\)$") as e:
            m.advance(wrong)
        assert not isinstance(e.value, hc.IllegalMoveError)
    with pytest.raises(hc.IllegalMoveError):
        m.advance([int(r.actions[0]), 10**6])
    assert (m.root_visits.tolist(), [x.history for x in m.games]) == before
    # Play to the end: a finished root refuses to be searched.
    while not m.games[0].is_over:
        m.advance([int(x.legal_actions()[0]) for x in m.games])
    with pytest.raises(hc.GameOverError, match="game 0"):
        m.search(5)


def test_three_player_wunchunk_finds_an_immediate_win():
    rng = random.Random(5)
    found = 0
    for _ in range(40):
        g = hc.Wunchunk(size=7, players=3)
        while not g.is_over and found < 4:
            legal = g.legal_actions().tolist()
            wins = []
            for a in legal:
                h = g.copy()
                h.apply_action(a)
                if h.is_over and list(h.winners) == [g.to_move]:
                    wins.append(a)
            if wins and 3 * len(wins) <= len(legal):
                # Gumbel with neutral values; PUCT (whose unvisited actions count as losses) with
                # values of 0 everywhere but at finished games, so that it tries every action.
                for algorithm, ev in (("gumbel", uniform(3)), ("puct", lambda o, m: (m, np.zeros((len(o), 3))))):
                    r = batched_search([g, g.copy()], ev, simulations=2 * len(legal) + 1, algorithm=algorithm,
                                       dirichlet_fraction=0.0, gumbel_scale=0.0, max_considered=g.num_actions, threads=1)
                    assert r.root_values.shape == (2, 3)
                    assert all(int(a) in wins for a in r.actions), (algorithm, g.history)
                    assert r.root_values[0, g.to_move - 1] > r.root_values[0].sum() / 3
                found += 1
                break
            g.apply_action(rng.choice(legal))
        if found >= 4:
            break
    assert found >= 2


@pytest.mark.parametrize("algorithm", ["puct", "gumbel"])
def test_same_result_for_any_thread_count(algorithm):
    games = [hc.Quintun(size=4) for _ in range(6)]
    for lpt in (1, 3):
        runs = [batched_search(games, hashed(2), 30, algorithm=algorithm, leaves_per_tree=lpt, threads=t, seed=7)
                for t in (1, 2, 4)]
        for r in runs[1:]:
            for f in ("actions", "policies", "visits", "root_values", "q_values"):
                assert getattr(r, f).tobytes() == getattr(runs[0], f).tobytes(), f
            assert r.evaluations == runs[0].evaluations


def test_leaves_per_tree_batches_one_game():
    g = hc.Churn(size=4)
    ev = Counting(uniform(2))
    r = batched_search([g], ev, simulations=65, leaves_per_tree=8, threads=1)
    assert ev.sizes[0] == 1  # the root
    assert max(ev.sizes) == 8 and r.evaluations == len(ev.sizes) < 20
    assert int(r.visits.sum()) == 64 and sum(ev.sizes) == 65


def test_the_evaluator_gets_read_only_buffers():
    seen: List[Tuple[bool, bool]] = []

    def ev(obs: np.ndarray, masks: np.ndarray) -> Any:
        seen.append((obs.flags.writeable, masks.flags.writeable))
        obs[0, 0, 0, 0] = 1.0  # refused: the buffers are the search's
        return masks, np.zeros((len(obs), 2))
    with pytest.raises(ValueError, match="read-only"):
        batched_search([hc.Churn(size=3)], ev, 5)
    assert seen == [(False, False)]


def test_q_values_and_policies():
    g = hc.Churn(size=3)
    g.play("c3")
    for algorithm in ("puct", "gumbel"):
        r = batched_search([g], hashed(2), 40, algorithm=algorithm, threads=1)
        legal = g.legal_action_mask()
        assert (r.policies[0][~legal] == 0).all() and (r.q_values[0][~legal] == 0).all()
        np.testing.assert_allclose(r.policies[0].sum(), 1.0, rtol=1e-5)
        assert r.q_values.dtype == np.float32 and r.actions.dtype == np.int64
        assert legal[int(r.actions[0])]


def test_new_arguments_are_checked():
    g = hc.Churn(size=3)
    ev = uniform(2)
    for kwargs, match in [({"algorithm": "alphabeta"}, "algorithm"), ({"max_considered": 0}, "max_considered"),
                          ({"gumbel_scale": -1.0}, "gumbel_scale"), ({"leaves_per_tree": 0}, "leaves_per_tree"),
                          ({"threads": 0}, "threads"), ({"threads": 10**30}, "threads"), ({"seed": -1}, "seed"),
                          ({"simulations": -5}, "simulations"), ({"simulations": 2**70}, "simulations")]:
        sims = kwargs.pop("simulations", 5)
        with pytest.raises(ValueError, match=match):
            batched_search([g], ev, sims, **kwargs)
    with pytest.raises(TypeError, match="callable"):
        batched_search([g], "not a function", 5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dtype"):
        batched_search([g], lambda o, m: (m.astype(np.complex64), np.zeros((len(o), 2))), 5)


def test_sigint_stops_a_long_batched_search():
    from tests.support.children import crashed, interrupt_after
    code = ("import signal, numpy as np, hexcore as hc\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from hexcore.search import batched_search\n"
            "ev = lambda o, m: (m, np.full((len(o), 2), 0.5, np.float32))\n"
            "print('ready', flush=True)\n"
            "batched_search([hc.Churn(size=5)] * 16, ev, 10**8, threads=2)\n"
            "print('finished')\n")
    rc, err, latency = interrupt_after(code, delay=1.0)
    assert not crashed(rc), err
    assert "KeyboardInterrupt" in err, err
    assert latency < 5.0
    assert sys.platform != "win32"


@pytest.mark.parametrize("algorithm", ["puct", "gumbel"])
def test_replace_starts_one_slot_afresh(algorithm):
    g = hc.Churn(size=3)
    other = hc.Churn.replay(WIN_LINE[:5], size=3)
    quiet = dict(algorithm=algorithm, dirichlet_fraction=0.0, gumbel_scale=0.0, seed=4, threads=1)
    m = BatchedMCTS([g, g], hashed(2), **quiet)
    m.search(30)
    m.replace(1, other)
    assert m.root_visits.tolist() == [30, 0]
    assert m.games[1].history == other.history and m.games[0].history == []
    r = m.search(12)
    fresh = batched_search([other], hashed(2), 12, **quiet)
    np.testing.assert_array_equal(r.visits[1], fresh.visits[0])
    np.testing.assert_array_equal(r.policies[1], fresh.policies[0])
    assert r.visits[0].sum() == 30 - 1 + 12           # slot 0 kept its tree
    before = (m.root_visits.tolist(), [x.history for x in m.games])
    with pytest.raises(ValueError, match="index"):
        m.replace(2, g)
    with pytest.raises(ValueError, match="index"):
        m.replace(-1, g)
    with pytest.raises(ValueError, match="spec"):
        m.replace(0, hc.Churn(size=4))
    with pytest.raises(ValueError, match="spec"):
        m.replace(0, hc.load("wunchunk(size=5,players=2)"))
    with pytest.raises(TypeError):
        m.replace(0, "c3")
    over = hc.Churn(size=3)
    while not over.is_over:
        over.apply_action(int(over.legal_actions()[0]))
    with pytest.raises(hc.GameOverError):
        m.replace(0, over)
    assert (m.root_visits.tolist(), [x.history for x in m.games]) == before
    other.play(other.legal_moves()[0])                # a copy was taken
    assert m.games[1].history == WIN_LINE[:5]


def test_one_off_search_keeps_no_copies_and_finds_the_same():
    # batched_search keeps no copies of the games (they are never read):
    # the same result as a BatchedMCTS that keeps them, and the native
    # object says so when asked for them.
    games = [hc.Churn(size=3) for _ in range(3)]
    games[1].apply_action(games[1].legal_actions()[2])

    def ev(obs: Any, masks: Any) -> Tuple[Any, Any]:
        return masks.astype(np.float32) + obs.sum(axis=(1, 2, 3))[:, None], np.full((len(obs), 2), 0.5, np.float32)
    for algorithm in ("puct", "gumbel"):
        one = batched_search(games, ev, 20, algorithm=algorithm, seed=3)
        kept = BatchedMCTS(games, ev, algorithm=algorithm, seed=3).search(20)
        for name in ("actions", "policies", "visits", "root_values", "q_values", "simulations", "evaluations"):
            np.testing.assert_array_equal(getattr(one, name), getattr(kept, name), err_msg=name)
    bare = hc._core._BatchedMCTS(games, ev, "gumbel", keep_games=False)
    bare.search(4)
    for call in (lambda: bare.games, lambda: bare.advance([0, 0, 0]), lambda: bare.replace(0, hc.Churn(size=3))):
        with pytest.raises(RuntimeError, match="keeps no copies"):
            call()


def test_input_buffers_pass_to_the_next_search_only_when_nothing_holds_them():
    # A one-off search a move (self-play) writes into the buffers of the
    # last search dropped, when they fit and no evaluator kept a view of them.
    import weakref
    bases: List[Any] = []

    def ev(obs: Any, masks: Any) -> Tuple[Any, Any]:
        bases.append(weakref.ref(obs.base))
        return masks.astype(np.float32), np.full((len(obs), 2), 0.5, np.float32)
    games = [hc.Churn(size=3) for _ in range(2)]
    batched_search(games, ev, 4)
    first = bases[-1]
    assert first() is not None, "the dropped search's buffer is kept for the next one"
    batched_search(games, ev, 4)
    assert bases[-1]() is first(), "the next search of the same shapes writes into it"
    # An evaluator that keeps a view: the next search does not touch it.
    kept: List[Any] = []

    def keeper(obs: Any, masks: Any) -> Tuple[Any, Any]:
        kept.append(obs)
        return ev(obs, masks)
    batched_search(games, keeper, 4)
    held = kept[-1].base
    snapshot = kept[-1].copy()
    other = [hc.Churn(size=3) for _ in range(2)]
    for g in other:
        g.apply_action(g.legal_actions()[5])
    batched_search(other, ev, 4)
    assert bases[-1]() is not held
    np.testing.assert_array_equal(kept[-1], snapshot)
    # Other shapes get buffers of their own.
    batched_search([hc.Churn(size=3)], ev, 4)
    assert bases[-1]().shape[0] == 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_priors_are_kept_as_numpy_normalises_them(dtype):
    # The tree keeps priors in float32: a float32 answer as given (divided by
    # its sum in float64 when read), other dtypes normalised in float64 and
    # then rounded. With one simulation (the root's evaluation) and no noise,
    # PUCT's policy is the normalised prior itself.
    g = hc.Churn(size=4)
    rng = np.random.default_rng(7)
    raw = (rng.random(g.num_actions) * 10.0 ** rng.integers(-6, 3, g.num_actions)).astype(dtype)

    def ev(obs: np.ndarray, masks: np.ndarray) -> Any:
        return np.where(masks, raw, 0).astype(dtype), np.full((len(obs), 2), 0.5)

    r = batched_search([g], ev, simulations=1, algorithm="puct", dirichlet_fraction=0.0)
    legal = g.legal_action_mask()
    p = raw[legal].astype(np.float64)
    want = (p / p.sum()).astype(np.float32)
    assert r.policies[0][legal].tolist() == want.tolist()
    assert not r.policies[0][~legal].any()
    assert len(set(want.tolist())) > 10  # priors that differ, over six decades
