"""hexcore.train: self-play, the training loop, checkpoints and resume,
evaluators and players from checkpoints, symmetries, solver-labelled
positions and the mistake rate. The loop is driven by a plain numpy learner
here (it needs no torch); the PyTorch network's tests skip without torch."""
from __future__ import annotations

import json
import os
from typing import Any, Dict, Tuple

import numpy as np
import pytest

import hexcore as hc
from hexcore.search import batched_search
from hexcore.train import (
    CheckpointError,
    LabelledPosition,
    TrainConfig,
    labelled_positions,
    list_checkpoints,
    load_checkpoint,
    load_evaluator,
    mistake_rate,
    play_generation,
    symmetries,
    train,
    value_accuracy,
)


class NumpyLearner:
    """A linear softmax policy and value on the flattened planes, trained by
    plain gradient descent: enough to drive the loop without a framework."""

    def __init__(self, config: Dict[str, Any], seed: int = 0) -> None:
        self.config = dict(config)
        d = int(np.prod(config["shape"]))
        rng = np.random.default_rng(seed)
        self.w = rng.normal(0, 0.01, (d, config["num_actions"]))
        self.v = rng.normal(0, 0.01, (d, config["players"]))

    def _forward(self, obs: Any, masks: Any) -> Tuple[Any, Any]:
        x = np.asarray(obs, np.float64).reshape(len(obs), -1)
        # einsum, not @: a small BLAS product can take tens of ms on a loaded machine (thread contention)
        lg = np.where(masks, np.einsum("ij,jk->ik", x, self.w), -1e9)
        p = np.exp(lg - lg.max(axis=1, keepdims=True)) * masks
        p /= p.sum(axis=1, keepdims=True)
        vl = np.einsum("ij,jk->ik", x, self.v)
        v = np.exp(vl - vl.max(axis=1, keepdims=True))
        return p, v / v.sum(axis=1, keepdims=True)

    def __call__(self, obs: Any, masks: Any) -> Tuple[Any, Any]:
        p, v = self._forward(obs, masks)
        return p.astype(np.float32), v.astype(np.float32)

    def train_step(self, obs: Any, masks: Any, policies: Any, values: Any, seed: int) -> Dict[str, float]:
        x = np.asarray(obs, np.float64).reshape(len(obs), -1)
        p, v = self._forward(obs, masks)
        self.w -= 0.5 * np.einsum("ij,ik->jk", x, p - policies) / len(x)
        self.v -= 0.5 * np.einsum("ij,ik->jk", x, v - values) / len(x)
        pl = float(-(policies * np.log(np.where(masks, p, 1.0))).sum(axis=1).mean())
        vl = float(-(values * np.log(v)).sum(axis=1).mean())
        return {"loss": pl + vl, "policy_loss": pl, "value_loss": vl}

    def state(self) -> Dict[str, Any]:
        return {"config": self.config, "w": self.w.copy(), "v": self.v.copy()}

    @classmethod
    def from_state(cls, state: Dict[str, Any]) -> "NumpyLearner":
        x = cls(state["config"])
        x.w, x.v = state["w"].copy(), state["v"].copy()
        return x


def uniform(obs: Any, masks: Any) -> Tuple[Any, Any]:
    return masks.astype(np.float32), np.full((len(obs), 2), 0.5, np.float32)


def tiny(spec: str, out: Any, **kw: Any) -> TrainConfig:
    base: Dict[str, Any] = dict(spec=spec, out=str(out), steps=4, threads=1, seed=3, simulations=4, games=6, batch=16,
                                reuse=2.0, eval_every=1, eval_games=2, eval_simulations=2, opponents=["random"], labelled=4,
                                plots=False)
    base.update(kw)
    return TrainConfig(**base)


def quiet(_: str) -> None:
    pass


# ---------------------------------------------------------------- self-play

def test_numpy_evaluator_drives_self_play() -> None:
    g = hc.Churn(size=2, pie=False)
    s, stats = play_generation(g, uniform, games=5, simulations=4, seed=1, threads=1)
    assert stats.games == 5 and stats.moves == len(s) > 5
    assert s.observations.shape[1:] == g.observation().shape and s.masks.shape[1] == g.num_actions
    np.testing.assert_allclose(s.policies.sum(axis=1), 1, atol=1e-5)
    assert not (s.policies[~s.masks] > 0).any()
    np.testing.assert_allclose(s.values.sum(axis=1), 1, atol=1e-6)
    assert set(np.unique(s.values)) <= {0.0, 1.0}            # Churn has no draws
    s2, _ = play_generation(g, uniform, games=5, simulations=4, seed=1, threads=2)
    np.testing.assert_array_equal(s.policies, s2.policies)
    s3, _ = play_generation(g, uniform, games=5, simulations=4, seed=2, threads=1)
    assert len(s3) != len(s) or not np.array_equal(s3.policies, s.policies)
    # value_mix: half the outcome, half the search's root value per seat (the same games: Gumbel picks the same)
    m, _ = play_generation(g, uniform, games=5, simulations=4, seed=1, threads=1, value_mix=0.5)
    np.testing.assert_array_equal(m.policies, s.policies)
    np.testing.assert_allclose(m.values.sum(axis=1), 1, atol=1e-5)
    root = 2 * m.values - s.values
    assert (root >= -1e-5).all() and (root <= 1 + 1e-5).all() and not np.allclose(m.values, s.values)


def test_self_play_slots_and_random_starts() -> None:
    """Fewer slots than games: finished games' slots start the next ones
    (BatchedMCTS.replace) and every game is played to its end; random
    starts skip the recording of their random plies."""
    g = hc.Churn(size=3, pie=False)
    s, stats = play_generation(g, uniform, games=5, simulations=8, seed=4, threads=1, slots=2)
    assert stats.games == 5 and stats.moves == len(s)
    assert stats.wins is not None and stats.wins.sum() == pytest.approx(5)
    empty = np.array([(o[0].sum() + o[1].sum()) == 0 for o in s.observations])
    assert empty.sum() == 5                      # each game recorded from its first position
    s2, _ = play_generation(g, uniform, games=5, simulations=8, seed=4, threads=2, slots=2)
    np.testing.assert_array_equal(s.policies, s2.policies)
    r, rstats = play_generation(g, uniform, games=6, simulations=8, seed=4, threads=1, slots=3, random_plies=30)
    assert rstats.games == 6 and rstats.moves == len(r)
    first = np.array([(o[0].sum() + o[1].sum()) == 0 for o in r.observations])
    assert first.sum() < 6                        # most games start after random plies
    assert r.augmentable.all()


def test_late_starts_and_bootstrapped_values() -> None:
    """``min_random_plies`` (the curriculum's late starts) starts every game
    after at least that many random plies; ``value_steps`` n makes a
    position's value target the root value n plies later in its game (the
    outcome for a game's last n positions); the training loop's curriculum
    lowers the floor from ``random_plies`` to 0."""
    from hexcore.train.loop import curriculum_floor

    g = hc.Churn(size=3, pie=False)
    late, lstats = play_generation(g, uniform, games=4, simulations=4, seed=2, threads=1, random_plies=40,
                                   min_random_plies=40)
    assert not any((o[0].sum() + o[1].sum()) == 0 for o in late.observations)   # no game from the empty board
    full, fstats = play_generation(g, uniform, games=4, simulations=4, seed=2, threads=1)
    assert lstats.moves < fstats.moves
    g2 = hc.Churn(size=2, pie=False)
    s, _ = play_generation(g2, uniform, games=3, simulations=4, seed=1, threads=1)
    root, _ = play_generation(g2, uniform, games=3, simulations=4, seed=1, threads=1, value_mix=1.0)
    boot, _ = play_generation(g2, uniform, games=3, simulations=4, seed=1, threads=1, value_steps=2)
    np.testing.assert_array_equal(boot.policies, s.policies)
    starts = list(np.flatnonzero([(o[0].sum() + o[1].sum()) == 0 for o in s.observations])) + [len(s)]
    assert len(starts) == 4
    for a, b in zip(starts, starts[1:]):
        np.testing.assert_allclose(boot.values[a:b - 2], root.values[a + 2:b], atol=1e-6)
        np.testing.assert_array_equal(boot.values[b - 2:b], s.values[b - 2:b])
    assert [curriculum_floor(60, 10, k) for k in (0, 5, 10, 20)] == [60, 30, 0, 0]
    assert curriculum_floor(60, 0, 0) == 0


def test_self_play_three_players_values_per_seat() -> None:
    g = hc.load("wunchunk(size=7,players=3)")

    def ev(obs: Any, masks: Any) -> Tuple[Any, Any]:
        return masks.astype(np.float32), np.full((len(obs), 3), 1 / 3, np.float32)

    s, stats = play_generation(g, ev, games=3, simulations=4, seed=0, algorithm="puct", threads=1)
    assert s.values.shape[1] == 3
    np.testing.assert_allclose(s.values.sum(axis=1), 1, atol=1e-6)
    assert stats.wins is not None and stats.wins.sum() == pytest.approx(3)


def test_value_targets_are_the_outcome_per_seat() -> None:
    """Value targets against the engine's own outcome: for finished random
    games of two and three players, ``outcome_scores`` ranks the seats as
    the zero-sum rewards do (a winner above every loser, equal rewards equal
    scores), and the relative order puts the mover's score first."""
    import random

    from hexcore._core import _rewards
    from hexcore.train.selfplay import outcome_scores, relative_values

    rng = random.Random(1)
    for spec in ["churn(size=2,pie=false)", "churn(size=3)", "wunchunk(size=7,players=3)"]:
        for _ in range(4):
            g = hc.load(spec)
            while not g.is_over:
                acts = g.legal_actions()
                g.apply_action(int(acts[rng.randrange(len(acts))]))
            s = outcome_scores(g)
            r = np.array(_rewards(g.winners, g.num_players))
            assert s.sum() == pytest.approx(1.0)
            for a in range(g.num_players):
                assert (s[a] == 1.0 / len(g.winners)) == (a + 1 in g.winners)
                for b in range(g.num_players):
                    assert (s[a] > s[b]) == (r[a] > r[b])
    v = np.array([[0.7, 0.2, 0.1]] * 3, np.float32)
    np.testing.assert_array_equal(relative_values(v, np.array([1, 2, 3])),
                                  np.array([[0.7, 0.2, 0.1], [0.2, 0.1, 0.7], [0.1, 0.7, 0.2]], np.float32))


def test_self_play_records_line_up() -> None:
    """Every recorded position of a Churn generation: ``to_move`` is the
    observation's Blue-to-move plane, the legal mask is the one the engine
    gives for the position the planes show, the policy lives on it, and
    the value rows of a game are one outcome (the positions of one game
    come together, each game's first position empty)."""
    g = hc.Churn(size=3, pie=False)
    s, stats = play_generation(g, uniform, games=4, simulations=8, seed=2, threads=1, slots=2)
    board = g.board
    starts = [i for i, o in enumerate(s.observations) if o[0].sum() + o[1].sum() == 0] + [len(s)]
    assert starts[0] == 0 and len(starts) == 5
    for a, b in zip(starts, starts[1:]):
        assert (s.values[a:b] == s.values[a]).all()
    for i in range(0, len(s), 7):
        o = s.observations[i]
        assert (o[3] == (int(s.to_move[i]) == 2)).all()
        img = _churn_from_planes(board, o)
        np.testing.assert_array_equal(img.legal_action_mask(), s.masks[i])
        np.testing.assert_array_equal(img.observation(), o)
    assert not (s.policies[~s.masks] > 0).any()
    assert stats.wins is not None and sorted(stats.wins.tolist()) == sorted(s.values[starts[:-1]].sum(axis=0).tolist())


def test_relative_values_in_the_search() -> None:
    """An evaluator with ``relative_values`` gives the mover's value first;
    the search puts it back in seat order (root values after the root's
    own evaluation), and a relative evaluator searches exactly as the same
    values given per seat."""
    g = hc.load("wunchunk(size=7,players=3)")
    while g.to_move != 2:
        g.apply_action(int(g.legal_actions()[0]))

    def rel(obs: Any, masks: Any) -> Tuple[Any, Any]:
        return masks.astype(np.float32), np.tile(np.array([0.6, 0.3, 0.1], np.float32), (len(obs), 1))

    r = batched_search([g], rel, simulations=1, threads=1, relative_values=True)
    np.testing.assert_allclose(r.root_values[0], [0.1, 0.6, 0.3], atol=1e-6)
    rel.relative_values = True  # type: ignore[attr-defined]
    r = batched_search([g], rel, simulations=1, threads=1)
    np.testing.assert_allclose(r.root_values[0], [0.1, 0.6, 0.3], atol=1e-6)
    r = batched_search([g], rel, simulations=1, threads=1, relative_values=False)
    np.testing.assert_allclose(r.root_values[0], [0.6, 0.3, 0.1], atol=1e-6)

    # Churn says who is to move (plane 3): the same values per seat and relative give the same search
    c = hc.Churn(size=3, pie=False)

    def values(obs: Any) -> Any:
        return 0.2 + 0.6 * (obs[:, 0].sum(axis=(1, 2)) % 3 == 0)   # some value of the mover

    def per_seat(obs: Any, masks: Any) -> Tuple[Any, Any]:
        v, blue = values(obs), obs[:, 3, 0, 0] > 0
        seat1 = np.where(blue, 1 - v, v)
        return masks.astype(np.float32), np.stack([seat1, 1 - seat1], axis=1)

    def relative(obs: Any, masks: Any) -> Tuple[Any, Any]:
        v = values(obs)
        return masks.astype(np.float32), np.stack([v, 1 - v], axis=1)

    a = batched_search([c, c], per_seat, 40, algorithm="gumbel", threads=1, seed=3)
    b = batched_search([c, c], relative, 40, algorithm="gumbel", threads=1, seed=3, relative_values=True)
    np.testing.assert_array_equal(a.visits, b.visits)
    np.testing.assert_allclose(a.root_values, b.root_values, atol=1e-6)

    # self-play (which times the evaluator through a wrapper) searches a relative evaluator as its
    # per-seat twin: the same games, positions and targets
    relative.relative_values = True  # type: ignore[attr-defined]
    for alg in ("gumbel", "puct"):
        sa, wa = play_generation(c, per_seat, 6, 8, seed=5, algorithm=alg, threads=1)
        sb, wb = play_generation(c, relative, 6, 8, seed=5, algorithm=alg, threads=1)
        np.testing.assert_array_equal(sa.observations, sb.observations)
        # (equal but for rounding: the per-seat twin computes 1 - v where the relative one has v)
        np.testing.assert_allclose(sa.policies, sb.policies, atol=1e-5)
        np.testing.assert_allclose(sa.values, sb.values, atol=1e-5)
        assert wa.wins is not None and wb.wins is not None and wa.wins.tolist() == wb.wins.tolist()


# ---------------------------------------------------------------- symmetries

def test_churn_symmetries_map_positions_onto_positions() -> None:
    g = hc.Churn(size=3, pie=False)
    for m in ["c3", "a1", "e3"]:
        g.play(m)
    syms = symmetries(g)
    assert len(syms) == 12
    board = g.board
    cells = g.cells()
    for s in syms:
        perm = {i: int(s.actions[i]) for i in range(board.num_cells)}
        pos = {board.label(perm[i]): int(c) for i, c in enumerate(cells) if c}
        img = hc.Churn.from_position(pos, to_move=g.to_move, pie=False)
        np.testing.assert_array_equal(s.observation(g.observation()), img.observation())
        np.testing.assert_array_equal(s.vector(g.legal_action_mask()), img.legal_action_mask())
    assert len({tuple(s.actions) for s in syms}) == 12


def _churn_from_planes(board: Any, o: Any) -> Any:
    mover = 2 if o[3].any() else 1
    pos = {}
    for c in range(board.num_cells):
        r, q = board.grid_pos(c)
        if o[0, r, q]:
            pos[board.label(c)] = mover
        elif o[1, r, q]:
            pos[board.label(c)] = 3 - mover
    return hc.Churn.from_position(pos, to_move=mover, pie=False)


def test_training_batches_are_consistent_positions() -> None:
    """The loop's batches (sampled from the buffer, each under a random
    symmetry): every observation is a real position whose engine mask is
    the batch's mask, the policy lives on it, and the value targets are the
    mover's first for a learner with relative_values."""
    from hexcore.train.loop import _Run

    cfg = tiny("churn(size=3,pie=false)", "unused", batch=64)
    run = _Run(cfg, NumpyLearner, quiet)
    learner = NumpyLearner(run.net_config)
    buf, _ = play_generation(run.game, uniform, games=3, simulations=4, seed=0, threads=1)
    st: Dict[str, Any] = {"buffer": buf, "step": 0, "learner": learner}
    board = run.game.board
    for step in range(2):
        st["step"] = step
        obs, masks, pols, vals = run.batch(st)
        for i in range(len(obs)):
            np.testing.assert_array_equal(_churn_from_planes(board, obs[i]).legal_action_mask(), masks[i])
        assert not (pols[~masks] > 0).any()
        np.testing.assert_allclose(pols.sum(axis=1), 1, atol=1e-5)
    learner.relative_values = True  # type: ignore[attr-defined]
    obs, masks, pols, vals = run.batch(st)
    again = run.batch({**st, "learner": NumpyLearner(run.net_config)})
    blue = obs[:, 3, 0, 0] > 0
    np.testing.assert_array_equal(vals[:, 0], np.where(blue, again[3][:, 1], again[3][:, 0]))


def test_symmetries_invert_and_compose() -> None:
    """Each symmetry has its inverse among the others: mapping an
    observation, a mask and a policy there and back is the identity."""
    g = hc.Churn(size=3, pie=False)
    for m in ["c3", "a1", "e3", "d4"]:
        g.play(m)
    syms = symmetries(g)
    obs, mask = g.observation(), g.legal_action_mask()
    pol = np.random.default_rng(0).random(g.num_actions).astype(np.float32) * mask
    ident = np.arange(g.num_actions)
    for s in syms:
        (inv,) = [t for t in syms if (t.actions[s.actions] == ident).all()]
        np.testing.assert_array_equal(inv.observation(s.observation(obs)), obs)
        np.testing.assert_array_equal(inv.vector(s.vector(mask)), mask)
        np.testing.assert_array_equal(inv.vector(s.vector(pol)), pol)
        assert s.vector(pol)[s.vector(mask)].sum() == pytest.approx(pol.sum())


@pytest.mark.parametrize("spec,count", [("churn(size=3,pie=false)", 12), ("churn(size=3)", 12),
                                        ("wunchunk(size=5,players=2,start=open)", 12),
                                        ("wunchunk(size=6,players=2,start=open,balance=none)", 12),
                                        ("hex(size=4)", 2), ("hex(size=5,swap=true)", 2), ("havannah(size=4)", 12),
                                        ("havannah(size=3,swap=true)", 12), ("y(size=5)", 6)])
def test_symmetries_agree_with_the_engine(spec: str, count: int) -> None:
    """For random games replayed under each symmetry by the engine (each
    move's cells mapped, in the move notation): at every position training
    may use under the symmetries (``augmentable``) the image has the mapped
    observation and the mapped legal mask, and the mapped action of the
    move played makes the image's successor. (Wunchunk from its open start:
    the standard start's stones are not symmetric.) In Wunchunk the start of
    a turn of several stones is not augmentable: there the legal first
    actions do not map (the turn's first action is its lowest cell). Hex
    has two symmetries, the identity and the half turn: a reflection of
    its board swaps x's sides with o's, and the games' winners, checked
    here, would differ."""
    import random
    import re

    from hexcore.train.symmetry import augment_mode, augmentable

    g0 = hc.load(spec)
    board, mode = g0.board, augment_mode(g0)
    syms = symmetries(g0)
    assert len(syms) == count and len({tuple(s.actions) for s in syms}) == count

    cell_at = {tuple(board.grid_pos(c)): c for c in range(board.num_cells)}

    def image(move: str, s: Any) -> str:   # each cell of the move's notation mapped by the symmetry
        out = []
        for tok in move.split(","):
            m = re.fullmatch(r"(\d?)([a-z]\d+)", tok)
            c = board.index(m.group(2)) if m else 0
            out.append(tok if m is None else m.group(1) + board.label(cell_at[(s.rows_dst[c], s.cols_dst[c])]))
        return ",".join(out)

    rng = random.Random(7)
    used = skipped = 0
    for _ in range(3):
        g = g0.copy()
        firsts = []
        while not g.is_over:
            a = rng.choice(list(g.legal_actions()))
            if not g.pending_actions:
                firsts.append(a)
            g.apply_action(a)
        for s in syms:
            img, here = g0.copy(), g0.copy()
            for move, first in zip(g.history, firsts):
                if augmentable(here, mode):
                    used += 1
                    np.testing.assert_array_equal(s.observation(here.observation()), img.observation())
                    np.testing.assert_array_equal(s.vector(here.legal_action_mask()), img.legal_action_mask())
                    onehot = np.zeros(here.num_actions, np.float32)
                    onehot[first] = 1.0
                    a = int(np.argmax(s.vector(onehot)))
                    after, img_after = here.copy(), img.copy()
                    after.apply_action(first)
                    img_after.apply_action(a)
                    np.testing.assert_array_equal(s.observation(after.observation()), img_after.observation())
                else:
                    skipped += 1
                here.play(move)
                img.play(image(move, s))
            assert img.winners == here.winners
    assert used > 0
    assert (skipped > 0) == ("wunchunk" in spec)


def test_quintun_has_no_augmentation() -> None:
    assert len(symmetries(hc.Quintun(size=5))) == 1


# ---------------------------------------------------------------- the loop with numpy

def test_tiny_run_checkpoint_resume_and_evaluator(tmp_path: Any) -> None:
    straight = tmp_path / "straight"
    r = train(tiny("churn(size=2,pie=false)", straight, steps=6, plots=True), make_learner=NumpyLearner, log=quiet)
    assert r["step"] == 6 and os.path.exists(r["checkpoint"])
    rows = [json.loads(x) for x in open(straight / "metrics.jsonl")]
    assert {"selfplay", "train", "eval"} <= {x["kind"] for x in rows}
    assert any("mistake_rate_net" in x for x in rows)
    for name in ("losses.png", "win_rate.png", "mistakes.png"):
        assert (straight / name).stat().st_size > 1000
    # stopped at step 3 and resumed to step 6: the same weights, bit for bit
    parts = tmp_path / "parts"
    train(tiny("churn(size=2,pie=false)", parts, steps=3), make_learner=NumpyLearner, log=quiet)
    first = list_checkpoints(str(parts))
    train(tiny("churn(size=2,pie=false)", parts, steps=6), resume=True, log=quiet)
    a, b = load_checkpoint(str(straight)), load_checkpoint(str(parts))
    np.testing.assert_array_equal(a["learner_state"]["w"], b["learner_state"]["w"])
    np.testing.assert_array_equal(a["learner_state"]["v"], b["learner_state"]["v"])
    assert a["step"] == b["step"] == 6

    def games(path: Any) -> Any:
        return [(x["generation"], x["moves"], x["seat_scores"]) for x in map(json.loads, open(path)) if x["kind"] == "selfplay"]

    assert games(straight / "metrics.jsonl") == games(parts / "metrics.jsonl")
    assert all(os.path.exists(p) for p in first)   # the earlier checkpoint is still there
    ev = load_evaluator(str(parts))
    assert isinstance(ev, NumpyLearner)
    res = batched_search([hc.Churn(size=2, pie=False)], ev, simulations=8, threads=1)
    assert res.policies.shape == (1, 8)


def test_cpu_minutes_budget_and_curriculum_run(tmp_path: Any) -> None:
    """A run budgeted in CPU minutes stops, with a checkpoint, once this
    process has used them; a curriculum run goes through the loop."""
    out = tmp_path / "cpu"
    r = train(tiny("churn(size=2,pie=false)", out, steps=None, cpu_minutes=0.002, eval_every=0, labelled=0,
                   random_plies=6, curriculum=2, value_steps=2), make_learner=NumpyLearner, log=quiet)
    assert r["cpu_seconds"] >= 0.12 and r["step"] >= 1 and list_checkpoints(str(out))


def test_tiny_run_three_player_wunchunk(tmp_path: Any) -> None:
    out = tmp_path / "w3"
    train(tiny("wunchunk(size=7,players=3)", out, steps=2, games=2, eval_games=1), make_learner=NumpyLearner, log=quiet)
    train(tiny("wunchunk(size=7,players=3)", out, steps=4, games=2), resume=True, log=quiet)
    ev = load_evaluator(str(out))
    g = hc.load("wunchunk(size=7,players=3)")
    p, v = ev(g.observation()[None], g.legal_action_mask()[None])
    assert v.shape == (1, 3) and p.shape == (1, g.num_actions)


def test_az_player_in_match(tmp_path: Any) -> None:
    from hexcore.match import parse_player, play_match

    out = tmp_path / "Run"
    train(tiny("churn(size=2,pie=false)", out, steps=1, eval_every=0, labelled=0), make_learner=NumpyLearner, log=quiet)
    p = parse_player(f"az:{out},sims=4")
    assert p.kind == "az" and p.path == str(out) and p.simulations == 4
    r = play_match("churn(size=2,pie=false)", [f"az:{out}", "random"], games=2, seed=0)
    assert r.games == 2 and r.players[0].name.startswith("P1 az:")
    r = play_match("churn(size=2,pie=false)", [f"az:{out},sims=4", "random"], games=2, seed=0)
    assert r.games == 2
    with pytest.raises(ValueError, match="trained on"):
        play_match("churn(size=3,pie=false)", [f"az:{out}", "random"], games=1)
    with pytest.raises(ValueError, match="sims=N"):
        parse_player(f"az:{out},sims=x")
    # trained on a spec written another way: the same game, so it plays
    other = tmp_path / "Other"
    train(tiny("churn(pie=no, size=2)", other, steps=1, eval_every=0, labelled=0), make_learner=NumpyLearner, log=quiet)
    assert play_match("churn(size=2,pie=false)", [f"az:{other}", "random"], games=1, seed=0).games == 1


# ---------------------------------------------------------------- bad arguments

def test_bad_arguments_keep_earlier_checkpoints(tmp_path: Any, capsys: Any) -> None:
    from hexcore.__main__ import main

    out = tmp_path / "run"
    with pytest.raises(ValueError, match="unknown game"):
        train(tiny("nosuchgame(size=2)", out), make_learner=NumpyLearner, log=quiet)
    with pytest.raises(ValueError, match="--minutes must be a positive number"):
        train(tiny("churn(size=2)", out, steps=None, minutes=-1.0), make_learner=NumpyLearner, log=quiet)
    assert main(["train", "nosuchgame(size=2)", "--out", str(out), "--steps", "1"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["train", "churn(size=2)", "--out", str(out), "--minutes", "-1"]) == 2
    assert "minutes" in capsys.readouterr().err
    with pytest.raises(ValueError, match="--cpu-minutes must be a finite number"):
        train(tiny("churn(size=2)", out, steps=None, cpu_minutes=float("nan")), make_learner=NumpyLearner, log=quiet)
    for kw in ({"curriculum": -1}, {"value_steps": 1.5}, {"curriculum": 3, "random_plies": 0}, {"net": "rnn"}):
        with pytest.raises(ValueError, match="curriculum|value-steps|net"):
            train(tiny("churn(size=2)", out, **kw), make_learner=NumpyLearner, log=quiet)
    assert not out.exists()
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        train(tiny("churn(size=2,pie=false)", out), resume=True, make_learner=NumpyLearner, log=quiet)
    with pytest.raises(FileNotFoundError):
        load_evaluator(str(tmp_path / "missing.ckpt"))
    train(tiny("churn(size=2,pie=false)", out, steps=2, eval_every=0, labelled=0), make_learner=NumpyLearner, log=quiet)
    (good,) = list_checkpoints(str(out))
    before = open(good, "rb").read()
    # a run folder that holds a run is not started over
    with pytest.raises(ValueError, match="--resume"):
        train(tiny("churn(size=2,pie=false)", out), make_learner=NumpyLearner, log=quiet)
    with pytest.raises(ValueError, match="is a run of"):
        train(tiny("churn(size=3,pie=false)", out), resume=True, log=quiet)
    # a corrupt newest checkpoint is reported, and the one before is kept
    bad = os.path.join(os.path.dirname(good), "step-00000009.ckpt")
    with open(bad, "wb") as f:
        f.write(before[: len(before) // 2])
    with pytest.raises(CheckpointError, match="truncated"):
        load_evaluator(str(out))
    with pytest.raises(CheckpointError, match="truncated"):
        train(tiny("churn(size=2,pie=false)", out, steps=4), resume=True, log=quiet)
    with open(bad, "wb") as f:
        f.write(b"garbage")
    with pytest.raises(CheckpointError, match="not a hexcore training checkpoint"):
        load_evaluator(bad)
    assert open(good, "rb").read() == before
    os.remove(bad)
    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--steps", "3", "--resume"]) == 0
    assert load_checkpoint(str(out))["step"] == 3 and os.path.exists(good)


# ---------------------------------------------------------------- the benchmark

def test_mistake_rate_on_known_positions() -> None:
    g = hc.Churn(size=2, pie=False)       # hc.solve: b2 wins, a1 loses (the solve doctest)
    moves = {"a1": "loss", "b2": "win"}
    pos = [LabelledPosition(g.copy(), "win", {**{m: "win" for m in g.legal_moves()}, **moves})]

    def prefer(label: str) -> Any:
        cell = g.board.index(label)

        def ev(obs: Any, masks: Any) -> Tuple[Any, Any]:
            p = masks.astype(np.float32)
            p[:, cell] += 10
            return p, np.full((len(obs), 2), 0.5, np.float32)
        return ev

    assert mistake_rate(prefer("a1"), pos) == 1.0
    assert mistake_rate(prefer("b2"), pos) == 0.0
    two = pos + [LabelledPosition(g.copy(), "win", {m: "win" for m in g.legal_moves()})]
    assert mistake_rate(prefer("a1"), two) == 0.5
    # a match player as the yardstick: here every move but b2 loses, so a
    # perfect player makes no mistake and one that cannot find b2 always does
    only = [LabelledPosition(g.copy(), "win", {**{m: "loss" for m in g.legal_moves()}, "b2": "win"})]
    assert mistake_rate("mcts:2000", only) == 0.0
    worst = [LabelledPosition(g.copy(), "win", {**{m: "win" for m in g.legal_moves()}, "b2": "loss"})]
    assert mistake_rate("mcts:2000", worst) == 1.0
    # the value head's oracle: after a1 the mover (seat 1) loses, after b2 it wins
    r, c = g.board.grid_pos(g.board.index("b2"))

    def knows(obs: Any, masks: Any) -> Tuple[Any, Any]:
        won = obs[:, 1, r, c]                     # the stone of the seat that moved (the opponent's plane)
        return masks.astype(np.float32), np.stack([won, 1 - won], axis=1)

    def confused(obs: Any, masks: Any) -> Tuple[Any, Any]:
        p, v = knows(obs, masks)
        return p, v[:, ::-1]

    two_moves = [LabelledPosition(g.copy(), "win", moves)]
    assert value_accuracy(knows, two_moves) == 1.0
    assert value_accuracy(confused, two_moves) == 0.0
    confused.relative_values = True  # type: ignore[attr-defined]   # column 0 is now the mover (seat 2)
    assert value_accuracy(confused, two_moves) == 1.0
    with pytest.raises(ValueError):
        mistake_rate("nosuchplayer", pos)
    with pytest.raises(ValueError):
        mistake_rate(prefer("a1"), [])


def test_labelled_positions_agree_with_the_solver() -> None:
    pos = labelled_positions("churn(size=2,pie=false)", 4, seed=5)
    assert len(pos) == 4 and len({p.game.zobrist for p in pos}) == 4
    for p in pos:
        assert not p.game.is_over and p.value == "win" and p.losing_moves
        for m, v in p.moves.items():
            c = p.game.copy()
            c.play(m)
            after = hc.solve(c).value if not c.is_over else ("loss" if c.winners == (c.to_move,) else "win")
            assert {"win": "loss", "loss": "win"}[after] == v
    assert [p.game.zobrist for p in labelled_positions("churn(size=2,pie=false)", 4, seed=5)] == [p.game.zobrist for p in pos]
    with pytest.raises(ValueError, match="two-player"):
        labelled_positions("wunchunk(size=7,players=3)", 2)


def test_benchmark_docstring() -> None:
    import doctest

    import hexcore.train.benchmark

    res = doctest.testmod(hexcore.train.benchmark)
    assert res.attempted > 0 and res.failed == 0


# ---------------------------------------------------------------- PyTorch

def _torch() -> Any:
    return pytest.importorskip("torch", reason="torch is not installed (pip install 'hexcore[train]'); the PyTorch network is not tested")


@pytest.mark.parametrize("net,channels", [("resnet", 16), ("mlp", 64)])
def test_torch_network_overfits_a_fixed_batch(net: str, channels: int) -> None:
    """The network and optimiser can learn: a fixed batch of self-play
    positions (policies and values from the search) is fitted to near its
    targets' own entropy, and the evaluator answers with what it learnt
    (values relative to the mover, as it says)."""
    _torch()
    from hexcore.train.torchnet import TorchLearner

    g = hc.Churn(size=3, pie=False)
    s, _ = play_generation(g, uniform, games=1, simulations=8, seed=5, threads=1)
    s = s.take(slice(0, 12))
    vals = s.relative_values()
    rng = np.random.default_rng(0)    # sharp policy targets: one legal action each
    pols = np.zeros_like(s.policies)
    for i, m in enumerate(s.masks):
        pols[i, rng.choice(np.flatnonzero(m))] = 1.0
    learner = TorchLearner({"shape": list(g.observation().shape), "num_actions": g.num_actions, "players": 2,
                            "net": net, "channels": channels, "blocks": 1, "lr": 1e-2, "weight_decay": 0.0}, seed=0)
    assert learner.relative_values
    first = learner.train_step(s.observations, s.masks, pols, vals, 0)
    for i in range(1, 120):
        last = learner.train_step(s.observations, s.masks, pols, vals, i)
    assert last["policy_kl"] < 0.05 < first["policy_kl"]
    assert last["value_kl"] < 0.05 < first["value_kl"]
    p, v = learner(s.observations, s.masks)
    np.testing.assert_allclose(v, vals, atol=0.1)
    assert (p.argmax(axis=1) == pols.argmax(axis=1)).all()


@pytest.mark.parametrize("spec", ["churn(size=2,pie=false)", "wunchunk(size=7,players=3)"])
def test_torch_tiny_run_resume_and_load(tmp_path: Any, spec: str) -> None:
    _torch()
    out = tmp_path / "t"
    kw: Dict[str, Any] = dict(games=1) if "wunchunk" in spec else {}
    # a small network and no evaluation (the numpy runs test it): the run, checkpoints and resume are tested
    kw.update(channels=8, blocks=1, eval_every=0, labelled=0)
    train(tiny(spec, out, steps=2, **kw), log=quiet)
    train(tiny(spec, out, steps=3, **kw), resume=True, log=quiet)
    straight = tmp_path / "s"
    train(tiny(spec, straight, steps=3, **kw), log=quiet)
    ev = load_evaluator(str(out))
    ev2 = load_evaluator(str(straight))
    g = hc.load(spec)
    p, v = ev(g.observation()[None], g.legal_action_mask()[None])
    p2, v2 = ev2(g.observation()[None], g.legal_action_mask()[None])
    np.testing.assert_array_equal(p, p2)
    np.testing.assert_array_equal(v, v2)
    assert v.shape == (1, g.num_players)
    np.testing.assert_allclose(p.sum(), 1, atol=1e-5)
    batched_search([g], ev, simulations=4, threads=1)


def test_torch_cli_mlp_curriculum_cpu_budget(tmp_path: Any, monkeypatch: Any) -> None:
    """The command line's new options reach the run: a perceptron, a
    curriculum, bootstrapped values and a CPU-time budget."""
    _torch()
    import hexcore.train.plots
    from hexcore.__main__ import main

    monkeypatch.setattr(hexcore.train.plots, "write_plots", lambda out: None)   # no matplotlib: a fast test

    out = tmp_path / "cli"
    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--cpu-minutes", "0.005", "--threads", "1",
                 "--net", "mlp", "--channels", "8", "--blocks", "1", "--games", "4", "--simulations", "4",
                 "--random-plies", "4", "--curriculum", "2", "--value-steps", "2", "--eval-every", "0",
                 "--labelled", "0"]) == 0
    data = load_checkpoint(str(out))
    assert data["config"]["net"] == "mlp" and data["config"]["curriculum"] == 2 and data["config"]["value_steps"] == 2
    assert data["config"]["cpu_minutes"] == 0.005 and data["step"] >= 1
    ev = load_evaluator(str(out))
    g = hc.Churn(size=2, pie=False)
    p, v = ev(g.observation()[None], g.legal_action_mask()[None])
    assert p.shape == (1, g.num_actions) and v.shape == (1, 2)


@pytest.mark.parametrize("spec", ["churn(size=3,pie=false)", "churn(size=2,pie=false)", "wunchunk(size=7,players=3)",
                                  "hex(size=4)", "quintun(size=5)"])
def test_group_features_agree_with_the_engine(spec: str) -> None:
    """The fixed group layer (``features="groups"``) computes from the
    planes what the engine knows: each seat's group sizes (a search over
    the board's neighbours), and on Churn the mover's legal cells and the
    stones each legal placement leaves on the board after its removals."""
    torch = _torch()
    from hexcore.train.torchnet import _build_groups, board_geometry, group_planes

    g0 = hc.load(spec)
    geo = board_geometry(g0)
    cells, n, players = geo["cells"], int(g0.board.num_cells), int(g0.num_players)
    layer = _build_groups(torch, tuple(g0.observation().shape), players, cells, geo["neighbors"])
    rng = np.random.default_rng(3)
    churn = spec.startswith("churn")
    checked = 0
    for _ in range(40):
        g = g0.copy()
        for _ in range(int(rng.integers(1, 3 * n))):
            if g.is_over:
                break
            acts = g.legal_actions()
            g.apply_action(int(acts[rng.integers(len(acts))]))
        if g.is_over:
            continue
        obs = g.observation()
        out = layer(torch.from_numpy(obs[None]))[0].numpy()
        assert out.shape[0] == obs.shape[0] + group_planes(players)
        np.testing.assert_array_equal(out[:obs.shape[0]], obs)
        f = out[obs.shape[0]:].reshape(len(out) - obs.shape[0], -1)[:, cells]
        stones = obs.reshape(obs.shape[0], -1)[:players, cells] > 0.5
        for seat in range(players):
            for i in range(n):   # the group of cell i: a search over same-seat neighbours
                if not stones[seat, i]:
                    assert f[6 * seat, i] == 0
                    continue
                seen, todo = {i}, [i]
                while todo:
                    for j in geo["neighbors"][todo.pop()]:
                        if stones[seat, j] and j not in seen:
                            seen.add(j)
                            todo.append(j)
                assert round(f[6 * seat, i] * n) == len(seen)
            assert round(f[6 * seat + 5, 0] * n) == stones[seat].sum()
        if churn:
            mask = g.legal_action_mask()[:n]
            np.testing.assert_array_equal(f[3] > 0.5, mask)   # the mover's legal cells
            for a in np.flatnonzero(mask):
                h = g.copy()
                h.apply_action(int(a))
                left = (h.observation()[1].reshape(-1)[cells] > 0.5).sum()   # the mover's stones, now the opponent's
                assert left == stones[0].sum() + 1 - round(f[4, a] * n)
                checked += 1
    assert not churn or checked > 20


def test_torch_groups_features_run_and_refusal(tmp_path: Any, monkeypatch: Any) -> None:
    """``--features groups`` reaches the network of a run, its checkpoint
    and the evaluator loaded from it; a bad name or a game whose planes are
    not the seats' stones is refused by name before anything is written."""
    _torch()
    import dataclasses

    import hexcore.registry
    from hexcore.__main__ import main
    from hexcore.train.torchnet import group_planes

    out = tmp_path / "g"
    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--steps", "2", "--threads", "1", "--net", "mlp",
                 "--channels", "8", "--blocks", "1", "--games", "2", "--simulations", "4", "--features", "groups",
                 "--eval-every", "0", "--labelled", "0"]) == 0
    data = load_checkpoint(str(out))
    assert data["config"]["features"] == "groups"
    ev = load_evaluator(str(out))
    g = hc.Churn(size=2, pie=False)
    assert ev.net[0].__class__.__name__ == "Groups"     # the fixed layer, then the perceptron on the wider planes
    assert ev.net[1].trunk[1].in_features == (g.observation().shape[0] + group_planes(2)) * 9
    p, v = ev(g.observation()[None], g.legal_action_mask()[None])
    assert p.shape == (1, g.num_actions) and v.shape == (1, 2)
    with pytest.raises(ValueError, match="features must be"):
        train(tiny("churn(size=2,pie=false)", tmp_path / "bad", features="clusters"), log=quiet)
    monkeypatch.setitem(hexcore.registry.INFO, "churn", dataclasses.replace(hexcore.registry.INFO["churn"], stone_planes=False))
    with pytest.raises(ValueError, match="stone_planes"):
        train(tiny("churn(size=2,pie=false)", tmp_path / "refused", features="groups"), log=quiet)
    assert not (tmp_path / "refused" / "checkpoints").exists()


def test_colours_features_train_export_and_refusal(tmp_path: Any) -> None:
    """``--features colours`` trains a Quintun network whose export plays
    through the NumPy pass with the same answers; a game without neutral
    colours is refused by name before anything is written."""
    _torch()
    from hexcore.agents import NumpyNetwork
    from hexcore.train.export import export_agent

    out = tmp_path / "q"
    train(tiny("quintun(size=4)", out, steps=2, net="mlp", channels=8, blocks=1, features="colours", eval_every=0,
               labelled=0), log=quiet)
    ev = load_evaluator(str(out))
    assert ev.net[0].__class__.__name__ == "Colours"
    npz = export_agent(str(out), str(tmp_path / "q.npz"))
    g = hc.Quintun(size=4)
    for a in (0, 1):
        g.apply_action(int(g.legal_actions()[a]))
    obs, mask = g.observation()[None], g.legal_action_mask()[None]
    for x, y in zip(ev(obs, mask), NumpyNetwork.load(npz)(obs, mask)):
        np.testing.assert_allclose(y, x, atol=2e-6)
    with pytest.raises(ValueError, match="features='colours' needs"):
        train(tiny("hex(size=3)", tmp_path / "refused", features="colours"), log=quiet)
    assert not (tmp_path / "refused" / "checkpoints").exists()


# ---------------------------------------------------------------- resume, interrupts, checks

def test_resume_keeps_learning_settings_and_applies_control(tmp_path: Any) -> None:
    """A resumed run refuses another learning setting, takes a learning
    setting left at its default from the checkpoint (and says so), and
    applies the control settings given (no evaluation with eval_every=0)."""
    out = tmp_path / "r"
    train(tiny("churn(size=2,pie=false)", out, steps=2, games=5, eval_every=0, labelled=0), make_learner=NumpyLearner,
          log=quiet)
    with pytest.raises(ValueError, match="--games 7 .the run's: 5."):
        train(tiny("churn(size=2,pie=false)", out, steps=4, games=7), resume=True, log=quiet)
    lines: list = []
    train(TrainConfig(spec="churn(size=2,pie=false)", out=str(out), steps=4, threads=1, eval_every=0, labelled=0,
                      plots=False), resume=True, log=lines.append)
    assert any("from the checkpoint:" in x and "games=5" in x for x in lines)
    rows = [json.loads(x) for x in open(out / "metrics.jsonl")]
    assert not [x for x in rows if x["kind"] == "eval"]
    assert load_checkpoint(str(out))["config"]["games"] == 5


def test_resume_may_lower_the_learning_rate(tmp_path: Any) -> None:
    """The learning rate is the one learning setting a resume may change:
    the optimiser steps with the new rate, the log and the checkpoint say
    so, and the next resume keeps it."""
    _torch()
    from hexcore.train.torchnet import TorchLearner

    out = tmp_path / "lr"
    kw: Dict[str, Any] = dict(net="mlp", channels=8, blocks=1, eval_every=0, labelled=0)
    train(tiny("churn(size=2,pie=false)", out, steps=2, **kw), log=quiet)
    lines: list = []
    train(tiny("churn(size=2,pie=false)", out, steps=3, lr=3e-4, **kw), resume=True, log=lines.append)
    assert any("lr=0.0003 (changed from 0.002)" in x for x in lines)
    data = load_checkpoint(str(out))
    assert data["config"]["lr"] == 3e-4
    learner = TorchLearner.from_state(data["learner_state"])
    assert [g["lr"] for g in learner.opt.param_groups] == [3e-4]
    train(tiny("churn(size=2,pie=false)", out, steps=4, **kw), resume=True, log=quiet)
    assert load_checkpoint(str(out))["config"]["lr"] == 3e-4


def test_resume_may_raise_the_simulations(tmp_path: Any) -> None:
    """The self-play simulations and random starts may change on a resume
    too: the next generations are searched with the new count, and the
    checkpoint keeps it."""
    out = tmp_path / "sims"
    train(tiny("churn(size=2,pie=false)", out, steps=2, simulations=4, eval_every=0, labelled=0),
          make_learner=NumpyLearner, log=quiet)
    lines: list = []
    train(tiny("churn(size=2,pie=false)", out, steps=4, simulations=8), resume=True, make_learner=NumpyLearner,
          log=lines.append)
    assert any("simulations=8 (changed from 4)" in x for x in lines)
    assert load_checkpoint(str(out))["config"]["simulations"] == 8
    with pytest.raises(ValueError, match="--games 7 .the run's: 6."):
        train(tiny("churn(size=2,pie=false)", out, steps=5, games=7, simulations=16), resume=True,
              make_learner=NumpyLearner, log=quiet)
    lines.clear()
    train(tiny("churn(size=2,pie=false)", out, steps=5, simulations=8, random_plies=1), resume=True,
          make_learner=NumpyLearner, log=lines.append)
    assert any("random_plies=1 (changed from 0)" in x for x in lines)
    assert load_checkpoint(str(out))["config"]["random_plies"] == 1


class Interrupted(NumpyLearner):
    """Sends itself Ctrl-C in the middle of its third training step."""

    calls = 0

    def train_step(self, *a: Any) -> Dict[str, float]:
        import signal

        Interrupted.calls += 1
        if Interrupted.calls == 3:
            os.kill(os.getpid(), signal.SIGINT)
        return super().train_step(*a)


def test_interrupt_saves_between_whole_steps(tmp_path: Any) -> None:
    """Ctrl-C in the middle of a training step: the step is finished and
    counted, its losses logged, and the saved state resumes to the same
    weights as a run that was never interrupted."""
    Interrupted.calls = 0
    straight, parts = tmp_path / "s", tmp_path / "p"
    train(tiny("churn(size=2,pie=false)", straight, steps=6, eval_every=0, labelled=0), make_learner=NumpyLearner,
          log=quiet)
    with pytest.raises(KeyboardInterrupt):
        train(tiny("churn(size=2,pie=false)", parts, steps=6, eval_every=0, labelled=0), make_learner=Interrupted,
              log=quiet)
    data = load_checkpoint(str(parts))
    assert data["step"] == 3
    rows = [json.loads(x) for x in open(parts / "metrics.jsonl")]
    assert sum(x["steps"] for x in rows if x["kind"] == "train") == 3
    train(tiny("churn(size=2,pie=false)", parts, steps=6, eval_every=0, labelled=0), resume=True, log=quiet)
    a, b = load_checkpoint(str(straight)), load_checkpoint(str(parts))
    np.testing.assert_array_equal(a["learner_state"]["w"], b["learner_state"]["w"])


def test_corrupt_checkpoint_byte_is_refused_by_name(tmp_path: Any) -> None:
    out = tmp_path / "c"
    train(tiny("churn(size=2,pie=false)", out, steps=1, eval_every=0, labelled=0), make_learner=NumpyLearner, log=quiet)
    (path,) = list_checkpoints(str(out))
    raw = bytearray(open(path, "rb").read())
    raw[-40] ^= 0x01   # inside the pickled weights
    open(path, "wb").write(bytes(raw))
    with pytest.raises(CheckpointError, match=r"step-00000001.ckpt is corrupt .its checksum"):
        load_checkpoint(path)
    from hexcore.__main__ import main

    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--steps", "2", "--resume"]) == 2


@pytest.mark.parametrize("flag", ["--reuse inf", "--reuse nan", "--lr nan", "--reuse 0", "--blocks -1",
                                  "--checkpoint-minutes -1", "--eval-simulations 0", "--labelled -3", "--games 0",
                                  "--value-mix 1.5", "--threads 0", "--channels 1000000000", "--games 100000000",
                                  "--buffer 10000000000", "--blocks 1000"])
def test_train_flags_checked_before_anything_runs(tmp_path: Any, capsys: Any, flag: str) -> None:
    from hexcore.__main__ import main

    out = tmp_path / "f"
    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--steps", "1", *flag.split()]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert flag.split()[0] in err or "threads" in err
    assert not out.exists()


def test_out_that_is_a_file_is_refused(tmp_path: Any, capsys: Any) -> None:
    from hexcore.__main__ import main

    f = tmp_path / "file"
    f.write_text("x")
    assert main(["train", "churn(size=2,pie=false)", "--out", str(f), "--steps", "1"]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_every_config_field_has_a_flag() -> None:
    import argparse

    from hexcore.cli import train as cli_train
    from hexcore.train.config import option_fields, recipe

    p = argparse.ArgumentParser()
    cli_train.add_parser(p.add_subparsers())
    sub = p._subparsers._group_actions[0].choices["train"]   # type: ignore[union-attr]
    assert {f.name for f in option_fields()} <= {a.dest for a in sub._actions}
    # the recipe names only real settings, and they pass the checks
    for spec in ("hex(size=5)", "churn(size=3,pie=false)", "quintun(size=5)", "wunchunk(size=7,players=3)"):
        r = recipe(hc.load(spec))
        TrainConfig(spec=spec, out="x", steps=1, **r)


# ---------------------------------------------------------------- --device

def _cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@pytest.mark.skipif(_cuda(), reason="a GPU is here: --device cuda is tested by test_device_cuda_trains_and_loads_on_cpu")
def test_device_cuda_without_a_gpu_is_one_line_error(tmp_path: Any, capsys: Any) -> None:
    from hexcore.__main__ import main

    out = tmp_path / "cuda"
    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--steps", "1", "--device", "cuda"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no CUDA device: ") and err.count("\n") == 1 and "--device cpu" in err
    with pytest.raises(ValueError, match="^no CUDA device: "):
        train(tiny("churn(size=2,pie=false)", out, device="cuda"), make_learner=NumpyLearner, log=quiet)
    assert not out.exists()


def test_device_places_the_learner_and_is_not_inherited(tmp_path: Any) -> None:
    """``--device auto`` is cuda exactly where PyTorch sees a GPU; the run
    says where its network is; a resumed run takes the device (and the Ray
    settings) from its own invocation, not from the checkpoint."""
    _torch()
    from hexcore.train.loop import resumed_config
    from hexcore.train.torchnet import TorchLearner, resolve_device

    assert resolve_device("auto") == ("cuda" if _cuda() else "cpu") and resolve_device("cpu") == "cpu"
    lines: list = []
    out = tmp_path / "cpu"
    train(tiny("churn(size=2,pie=false)", out, steps=2, device="cpu", net="mlp", channels=8, blocks=1, eval_every=0,
               labelled=0), log=lines.append)
    assert any(x.startswith("budget: ") and x.endswith("network on cpu") for x in lines)
    data = load_checkpoint(str(out))
    assert data["config"]["device"] == "cpu"
    learner = TorchLearner.from_state(data["learner_state"]).to("cpu")
    assert learner.device.type == "cpu" and learner.opt.state   # the optimiser's moments came along
    w = TorchLearner.from_state(learner.weights())               # what the self-play actors get: no optimiser
    assert not w.opt.state and len(_pickled(learner.weights())) < len(_pickled(learner.state()))
    saved = TrainConfig(**{**data["config"], "ray": True, "actors": 2})
    cfg, _ = resumed_config(tiny("churn(size=2,pie=false)", out, steps=3), saved)
    assert (cfg.device, cfg.ray, cfg.actors, cfg.address) == ("auto", False, None, None)


def _pickled(x: Any) -> bytes:
    import pickle

    return pickle.dumps(x)


@pytest.mark.skipif(not _cuda(), reason="no CUDA device here")
def test_device_cuda_trains_and_loads_on_cpu(tmp_path: Any) -> None:
    out = tmp_path / "gpu"
    kw: Dict[str, Any] = dict(net="mlp", channels=8, blocks=1, eval_every=0, labelled=0)
    train(tiny("churn(size=2,pie=false)", out, steps=2, device="cuda", **kw), log=quiet)
    train(tiny("churn(size=2,pie=false)", out, steps=3, device="cuda", **kw), resume=True, log=quiet)
    ev = load_evaluator(str(out))   # on the CPU
    g = hc.Churn(size=2, pie=False)
    p, v = ev(g.observation()[None], g.legal_action_mask()[None])
    assert ev.device.type == "cpu" and p.shape == (1, g.num_actions) and v.shape == (1, 2)


def test_train_command_threads_default_is_one_per_core(tmp_path: Any, monkeypatch: Any) -> None:
    """A new run without ``--threads`` takes one thread per core, as every
    command resolves ``--threads`` (the engine's count, made 3 here so that
    it differs from ``TrainConfig``'s 2), and stores the number in the run."""
    from hexcore import _core
    from hexcore.__main__ import main

    check = _core.check_threads
    monkeypatch.setattr(_core, "check_threads", lambda threads=None: 3 if threads is None else check(threads))

    out = tmp_path / "t"
    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--steps", "1", "--net", "mlp",
                 "--channels", "8", "--blocks", "1", "--games", "2", "--simulations", "4",
                 "--eval-every", "0", "--labelled", "0"]) == 0
    assert load_checkpoint(str(out))["config"]["threads"] == 3


def test_yardsticks_do_not_depend_on_threads() -> None:
    """A player's mistakes and an agent's win rate are the same for any
    thread count (each search on one thread, several positions or games at
    once), as a match's results are."""
    from hexcore.train.benchmark import player_mistakes
    from hexcore.train.matches import win_rate

    pos = labelled_positions("hex(size=4)", 16, seed=2)
    one = player_mistakes("mcts:300", pos, threads=1)
    assert player_mistakes("mcts:300", pos, threads=2) == one and len(one) == len(pos)
    g = hc.Hex(size=3)
    rates = {t: win_rate(g, uniform, 2, "mcts:20", 6, seed=1, threads=t) for t in (1, 2)}
    assert rates[1] == rates[2]
