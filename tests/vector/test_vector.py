"""hexcore.vector: batched games against the single-game API."""
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hexcore as hc
from hexcore._core import _rewards, _terminal_rewards
from hexcore.vector import HexcoreVectorEnv, VecGame, as_dtype

SPECS = [
    "churn(size=2)",
    "churn(size=3)",
    "churn(sides=(3,4,3,4,3,4),pie=false)",
    "wunchunk(size=5)",
    "wunchunk(size=5,start=open,balance=pie)",
    "wunchunk(size=7,players=3)",
    "quintun(size=4)",
    "quintun(size=4,placement=gap,swap=false)",
]


def advanced(spec, moves, seed):
    """`spec` after `moves` random actions (stopping before the end, between turns)."""
    rng = random.Random(seed)
    g = hc.load(spec)
    for _ in range(moves):
        probe = g.copy()
        legal = probe.legal_actions()
        probe.apply_action(int(rng.choice(legal)))
        while probe.pending_actions and not probe.is_over:
            probe.apply_action(int(rng.choice(probe.legal_actions())))
        if probe.is_over:
            break
        g = probe
    return g


@settings(max_examples=40, deadline=None)
@given(data=st.data(), spec=st.sampled_from(SPECS), max_plies=st.sampled_from([None, 1, 4]))
def test_each_env_follows_the_single_game_api(data, spec, max_plies):
    starts = [hc.load(spec), advanced(spec, 30, 1), advanced(spec, 60, 2)]
    v = VecGame(starts, observation_dtype="float32", max_plies=max_plies, threads=2)
    obs, mask = v.reset()
    games = [s.copy() for s in starts]
    ended = [False] * 3
    for i, g in enumerate(games):
        np.testing.assert_array_equal(obs[i], g.observation())
        np.testing.assert_array_equal(mask[i], g.legal_action_mask())
    for _ in range(data.draw(st.integers(1, 40), label="steps")):
        actions = []
        for i, g in enumerate(games):
            if ended[i]:
                actions.append(data.draw(st.integers(-5, 1000), label=f"ignored {i}"))
            else:
                actions.append(int(data.draw(st.sampled_from(list(g.legal_actions())), label=f"action {i}")))
        r = v.step(np.array(actions))
        for i in range(3):
            if ended[i]:
                games[i] = starts[i].copy()
                term = trunc = False
            else:
                g = games[i]
                g.apply_action(actions[i])
                term = bool(g.is_over)
                plies = g.ply - starts[i].ply
                trunc = (not term and not g.pending_actions and max_plies is not None and plies >= max_plies)
            g = games[i]
            ended[i] = term or trunc
            assert (bool(r.terminated[i]), bool(r.truncated[i])) == (term, trunc)
            assert r.to_move[i] == g.to_move
            np.testing.assert_array_equal(r.observations[i], g.observation())
            want_mask = np.zeros(g.num_actions, bool) if ended[i] else g.legal_action_mask()
            np.testing.assert_array_equal(r.action_masks[i], want_mask)
            want_r = _rewards(g.winners, g.num_players) if term else [0.0] * g.num_players
            np.testing.assert_allclose(r.rewards[i], want_r, rtol=1e-6)
            assert r.episode_lengths[i] == (g.ply - starts[i].ply if ended[i] else 0)
            got = v.get_state(i)
            assert got == g and got.history == g.history


@pytest.mark.parametrize("spec", SPECS)
def test_observation_dtypes_agree(spec):
    vs = [VecGame(spec, 5, seed=3, observation_dtype=d) for d in ("float32", "uint8", "bool", None)]
    for _ in range(30):
        rs = [v.step(v.sample_actions()) for v in vs]
        f = rs[0].observations
        np.testing.assert_array_equal(rs[1].observations, np.rint(f * 255).astype(np.uint8))
        np.testing.assert_array_equal(rs[2].observations, f != 0)
        assert rs[3].observations is None
        for r in rs[1:]:
            np.testing.assert_array_equal(r.action_masks, rs[0].action_masks)
            np.testing.assert_array_equal(r.rewards, rs[0].rewards)


@pytest.mark.parametrize("threads", [1, 2, 3, 5])
@pytest.mark.parametrize("dtype", ["bool", "uint8", "float32"])
def test_observations_are_the_games_own(threads, dtype):
    """Every row is ``game.observation()`` of the env's game, whatever the
    thread count (also with more threads than work items) and element type;
    Churn boards of other shapes and per-env starts included."""
    specs = ["churn(size=4)", "churn(size=4,pie=false)", "churn(sides=(4,4,4,4,4,4))"] * 7
    for v in [VecGame(specs, seed=7, threads=threads, observation_dtype=dtype, max_plies=25),
              VecGame("churn(sides=(3,4,3,4,3,4))", 40, seed=8, threads=threads, observation_dtype=dtype)]:
        for _ in range(60):
            r = v.step(v.sample_actions())
            for i in range(v.num_envs):
                if r.terminated[i] or r.truncated[i]:
                    continue  # the final observation is checked by the property test
                want = v.get_state(i).observation()
                np.testing.assert_array_equal(r.observations[i], as_dtype(want, dtype))


def run(v, steps):
    out = []
    for _ in range(steps):
        r = v.step(v.sample_actions())
        out.append((r.observations.copy(), r.action_masks.copy(), r.rewards.copy(), r.terminated.copy(),
                    r.truncated.copy(), r.to_move.copy(), r.episode_lengths.copy()))
    return out


@pytest.mark.parametrize("spec", ["churn(size=3)", "wunchunk(size=5)", "quintun(size=4)"])
def test_results_do_not_depend_on_threads(spec):
    a = run(VecGame(spec, 70, seed=11, threads=1, max_plies=30), 150)
    b = run(VecGame(spec, 70, seed=11, threads=2, max_plies=30), 150)
    c = run(VecGame(spec, 70, seed=11, threads=3, max_plies=30), 150)
    assert any(step[3].any() or step[4].any() for step in a)
    for x, y, z in zip(a, b, c):
        for p, q, s in zip(x, y, z):
            np.testing.assert_array_equal(p, q)
            np.testing.assert_array_equal(p, s)


def test_sample_actions_are_legal_and_seeded():
    v = VecGame("wunchunk(size=5)", 40, seed=4)
    w = VecGame("wunchunk(size=5)", 40, seed=4)
    _, mask = v.reset()
    for _ in range(100):
        a = v.sample_actions()
        np.testing.assert_array_equal(a, v.sample_actions())  # one draw per state
        np.testing.assert_array_equal(a, w.sample_actions())
        live = mask.any(axis=1)
        assert mask[np.arange(40), a][live].all()
        mask = v.step(a).action_masks
        w.step(a)
    v.reset(seed=9)
    w.reset(seed=9)
    np.testing.assert_array_equal(v.sample_actions(), w.sample_actions())


def test_autoreset_next_step():
    v = VecGame("churn(size=3,pie=false)", 2, max_plies=2, copy=True)
    start_obs, start_mask = v.reset()
    v.step(v.sample_actions())
    r = v.step(v.sample_actions())
    assert r.truncated.all() and not r.terminated.any() and (r.episode_lengths == 2).all()
    assert not r.action_masks.any()
    final = r.observations
    assert (final[:, 0].sum(axis=(1, 2)) + final[:, 1].sum(axis=(1, 2)) == 2).all()  # two stones: the final position
    r = v.step(np.array([-1, 10**6]))  # ignored: the envs go back to the start
    assert not r.truncated.any() and (r.rewards == 0).all() and (r.episode_lengths == 0).all()
    np.testing.assert_array_equal(r.observations, start_obs)
    np.testing.assert_array_equal(r.action_masks, start_mask)


def test_terminal_step_reports_rewards_and_lengths():
    g = advanced("churn(size=2)", 1000, 5)
    v = VecGame([g], observation_dtype=None)
    for _ in range(1000):
        r = v.step(v.sample_actions())
        if r.terminated[0]:
            break
    assert r.terminated[0]
    assert sorted(r.rewards[0].tolist()) == [-1.0, 1.0]
    assert r.episode_lengths[0] == v.get_state(0).ply - g.ply > 0


def test_buffers_are_reused_unless_copy():
    v = VecGame("churn(size=3)", 3)
    r1, r2 = v.step(v.sample_actions()), v.step(v.sample_actions())
    assert r1.observations is r2.observations and r1.action_masks is r2.action_masks
    w = VecGame("churn(size=3)", 3, copy=True)
    r1, r2 = w.step(w.sample_actions()), w.step(w.sample_actions())
    assert r1.observations is not r2.observations and not np.array_equal(r1.observations, r2.observations)


def test_bad_input_steps_nothing():
    v = VecGame("churn(size=3)", 4, copy=True)
    obs, _ = v.reset()
    a = v.sample_actions()
    with pytest.raises(TypeError, match="integer"):
        v.step(a.astype(np.float64))
    with pytest.raises(TypeError, match="integer"):
        v.step(a > 0)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        v.step(a[:3])
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        v.step(a.reshape(2, 2))
    bad = a.copy()
    bad[2] = 19  # swap before any stone
    with pytest.raises(hc.IllegalMoveError, match="env 2") as e:
        v.step(bad)
    assert e.value.env == 2 and e.value.action == 19 and e.value.reason
    bad[2] = 20
    with pytest.raises(hc.IllegalMoveError, match="out of range") as e:
        v.step(bad)
    assert e.value.reason == "action_out_of_range" and e.value.env == 2
    assert all(v.get_state(i).ply == 0 for i in range(4))
    np.testing.assert_array_equal(v.step(a).to_move, [2, 2, 2, 2])


def test_hex_actions_are_checked_by_the_game():
    """Hex writes its masks straight into the buffers (the batch keeps none):
    an action other than the sampled one is checked against the env's
    position, with sampling on, and the masks are the games' legal actions."""
    v = VecGame("hex(size=3,swap=true)", 3, seed=2, copy=True)
    v.reset()
    first = v.sample_actions()
    v.step(first)
    bad = v.sample_actions()
    bad[1] = first[1]  # the cell x just took
    with pytest.raises(hc.IllegalMoveError, match="env 1") as e:
        v.step(bad)
    assert e.value.reason == "occupied"
    assert all(v.get_state(i).ply == 1 for i in range(3))
    swap = v.sample_actions()
    swap[0] = 9  # o's swap: legal, though not the sampled action
    r = v.step(swap)
    for i in range(3):
        assert list(np.flatnonzero(r.action_masks[i])) == sorted(v.get_state(i).legal_actions())
    assert not r.action_masks[0, 9]
    again = v.sample_actions()
    again[0] = 9
    with pytest.raises(hc.IllegalMoveError, match="env 0"):
        v.step(again)


def test_illegal_action_says_why():
    v = VecGame("churn(size=3,pie=false)", 2)
    v.step(np.array([0, 9]))
    with pytest.raises(hc.IllegalMoveError, match=r"env 1: action 9 \(c3\)") as e:
        v.step(np.array([1, 9]))
    assert e.value.reason == "occupied"


@pytest.mark.parametrize("n", [0, -3, 2**40])
def test_num_envs_must_be_positive(n):
    with pytest.raises(ValueError, match="num_envs"):
        VecGame("churn(size=3)", n)


def test_constructor_errors():
    with pytest.raises(TypeError):
        VecGame("churn(size=3)", 2.5)
    with pytest.raises(ValueError, match="observation_dtype"):
        VecGame("churn(size=3)", 2, observation_dtype="int64")
    with pytest.raises(ValueError, match="one game"):
        VecGame(["churn(size=3)", "quintun(size=4)"])
    with pytest.raises(ValueError, match="same observation shape"):
        VecGame(["churn(size=3)", "churn(size=4)"])
    with pytest.raises(ValueError, match="2 specs"):
        VecGame(["churn(size=3)", "churn(size=3)"], 3)
    g = hc.Wunchunk(size=5)
    g.apply_action(int(g.legal_actions()[0]))
    if g.pending_actions:
        with pytest.raises(ValueError, match="middle of a turn"):
            VecGame([g])
    with pytest.raises(ValueError, match="threads"):
        VecGame("churn(size=3)", 2, threads=0)
    with pytest.raises(ValueError, match="max_plies"):
        VecGame("churn(size=3)", 2, max_plies=0)


def test_finished_start_is_rejected():
    g = hc.Churn(size=2, pie=False)
    rng = random.Random(0)
    while not g.is_over:
        g.apply_action(int(rng.choice(g.legal_actions())))
    with pytest.raises(ValueError, match="already over"):
        VecGame([g])


def test_per_env_specs_and_state_round_trip():
    specs = ["churn(size=3)", "churn(size=3,pie=false)", "churn(sides=(3,3,3,3,3,3))"]
    v = VecGame(specs, seed=2)
    assert v.specs == [hc.load(s).spec for s in specs]
    for _ in range(5):
        v.step(v.sample_actions())
    g = v.get_state(1)
    assert isinstance(g, hc.Churn) and g.ply == 5 and not g.pie
    assert hc.load(g.spec) == hc.Churn(size=3, pie=False) and v.spec(1) == g.spec
    h = hc.Churn(size=3)
    h.play("c3")
    h.play("swap")
    v.set_state(1, h)
    np.testing.assert_array_equal(v._mask[1], h.legal_action_mask())  # the env's row follows set_state
    a = v.sample_actions()
    assert h.legal_action_mask()[a[1]]
    v.step(a)
    h2 = h.copy()
    h2.apply_action(int(a[1]))
    got = v.get_state(1)
    assert got == h2 and got.history == h2.history
    with pytest.raises(TypeError, match="Churn"):
        v.set_state(0, hc.Quintun(size=4))
    with pytest.raises(ValueError, match="shape"):
        v.set_state(0, hc.Churn(size=4))
    with pytest.raises(IndexError):
        v.get_state(3)


def test_multi_action_turns_keep_to_move():
    v = VecGame("wunchunk(size=5,start=open)", 8, seed=1, observation_dtype=None)
    seen_mid_turn = False
    for _ in range(60):
        before = v._to_move.copy()
        r = v.step(v.sample_actions())
        for i in range(8):
            g = v.get_state(i)
            if g.pending_actions:
                seen_mid_turn = True
                assert r.to_move[i] == before[i] == g.to_move
    assert seen_mid_turn


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_vector_rewards_match_the_adapters(n):
    # VecGame's float32 rewards are the adapters' float64 ones, rounded
    for mask in range(1 << n):
        winners = [k + 1 for k in range(n) if mask >> k & 1]
        assert _terminal_rewards(mask, n) == [float(np.float32(x)) for x in _rewards(winners, n)]


def test_gymnasium_vector_env():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.vector import AutoresetMode

    env = HexcoreVectorEnv("churn(size=3)", num_envs=6, player=2, seed=0)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, infos = env.reset(seed=1)
    assert obs in env.observation_space and obs.shape == (6, 4, 5, 5)
    assert infos["action_mask"].shape == (6, 20) and infos["action_mask"].any(axis=1).all()
    assert (env.vec._to_move == 2).all()  # the opponent has made its first move
    rng = np.random.default_rng(0)
    done_seen, prev_done = False, np.zeros(6, bool)
    for _ in range(400):
        m = infos["action_mask"]
        acts = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in m])
        obs, rew, term, trunc, infos = env.step(acts)
        assert obs in env.observation_space
        assert set(np.unique(rew)) <= {-1.0, 0.0, 1.0}
        assert (rew[~(term | trunc)] == 0).all()
        assert (env.vec._to_move[~(term | trunc)] == 2).all()
        assert infos["action_mask"][~(term | trunc)].any(axis=1).all()
        done_seen |= term.any()
        prev_done = term | trunc
    assert done_seen
    del prev_done
    assert isinstance(env, gymnasium.vector.VectorEnv)


def test_player_autoplay_matches_random_replies():
    v = VecGame("wunchunk(size=5)", 6, seed=2, player=2, observation_dtype="float32")
    obs, mask = v.reset()
    assert (v._to_move == 2).all()
    for i in range(6):
        g = v.get_state(i)
        assert g.ply == 1 and g.to_move == 2
        np.testing.assert_array_equal(obs[i], g.observation())
    ends = 0
    for _ in range(150):
        before = [v.get_state(i) for i in range(6)]
        a = v.sample_actions()
        r = v.step(a)
        for i in range(6):
            g = v.get_state(i)
            if r.done[i]:
                ends += 1
                assert g.is_over or r.truncated[i]
            else:
                assert g.to_move == 2 and r.to_move[i] == 2
                np.testing.assert_array_equal(r.observations[i], g.observation())
                np.testing.assert_array_equal(r.action_masks[i], g.legal_action_mask())
                if before[i].is_over or not before[i].legal_actions().size:
                    continue
                prefix = before[i].actions
                assert g.actions[:len(prefix) + 1] == prefix + [int(a[i])] or g.ply <= 1
    assert ends > 0
    with pytest.raises(ValueError, match="seat"):
        VecGame("churn(size=3)", 2, player=3)


def test_gymnasium_vector_env_batch_policy():
    pytest.importorskip("gymnasium")

    def first_legal(obs, masks, rng):
        return masks.argmax(axis=1)

    env = HexcoreVectorEnv("wunchunk(size=5)", num_envs=3, player=1, opponent=first_legal, max_plies=40)
    _, infos = env.reset(seed=0)
    for _ in range(100):
        *_, infos = env.step(infos["action_mask"].argmax(axis=1))
    with pytest.raises(ValueError, match="player"):
        HexcoreVectorEnv("churn(size=3)", 2, player=3)


@pytest.mark.parametrize("spec", SPECS)
def test_vector_env_spaces_agree_with_the_single_env(spec):
    """A model trained on one env loads onto the other: the same float32 Box(0, 1)."""
    pytest.importorskip("gymnasium")
    from hexcore.envs import HexcoreGymEnv

    single = HexcoreGymEnv(spec).observation_space
    env = HexcoreVectorEnv(spec, num_envs=3)
    assert env.single_observation_space == single
    obs, infos = env.reset(seed=0)
    assert obs in env.observation_space
    for dtype, high in (("uint8", 255), ("bool", 1)):
        e = HexcoreVectorEnv(spec, num_envs=3, observation_dtype=dtype)
        space = e.single_observation_space
        assert space.dtype == np.dtype(dtype) and (space.high == high).all() and (space.low == 0).all()
        o, _ = e.reset(seed=0)
        assert o in e.observation_space


def test_uint8_observations_keep_the_stones_left_plane():
    if "wunchunk" not in hc.GAMES:
        pytest.skip("no Wunchunk in this build")
    f = VecGame("wunchunk(size=5)", 4, seed=1, observation_dtype="float32")
    u = VecGame("wunchunk(size=5)", 4, seed=1, observation_dtype="uint8")
    for _ in range(20):
        rf, ru = f.step(f.sample_actions()), u.step(u.sample_actions())
        left = rf.observations[:, -1]
        assert (left > 0).any()
        np.testing.assert_array_equal(ru.observations[:, -1], np.rint(left * 255).astype(np.uint8))
        assert (ru.observations[:, -1][left > 0] > 0).all()
    g = hc.load("wunchunk(size=5)")
    u.set_state(0, g)
    np.testing.assert_array_equal(u._obs[0], as_dtype(g.observation(), "uint8"))


@pytest.mark.parametrize("spec", SPECS)
def test_vector_env_illegal_action_loses_by_default(spec):
    """``envs.step(envs.action_space.sample())``, the usual smoke test, runs."""
    pytest.importorskip("gymnasium")
    from hexcore.errors import IllegalMoveError

    env = HexcoreVectorEnv(spec, num_envs=6, seed=3)
    assert env.illegal_action == "lose"
    env.action_space.seed(0)
    obs, infos = env.reset(seed=0)
    forfeits = 0
    prev_done = np.zeros(6, bool)
    for _ in range(60):
        mask = infos["action_mask"]
        acts = env.action_space.sample()
        obs, rew, term, trunc, infos = env.step(acts)
        illegal = infos["illegal_action"]
        was_legal = np.array([bool(mask[i, a]) for i, a in enumerate(acts)])
        np.testing.assert_array_equal(illegal, ~was_legal & ~prev_done)
        assert (rew[illegal] == -1).all() and term[illegal].all() and not infos["is_success"][illegal].any()
        assert not infos["action_mask"][illegal].any()
        going = ~(term | trunc)
        assert infos["action_mask"][going].any(axis=1).all()
        assert (env.vec._to_move[going] == env.player).all()
        forfeits += int(illegal.sum())
        prev_done = term | trunc
    assert forfeits > 0
    # after a forfeit the env starts again from its start position (the opponent
    # moving first when the learner is seat 2)
    for player in (1, 2):
        env = HexcoreVectorEnv(spec, num_envs=2, seed=1, player=player)
        _, infos = env.reset(seed=0)
        bad = int(np.flatnonzero(~infos["action_mask"][0])[0])
        _, rew, term, _, infos = env.step(np.array([bad, int(np.flatnonzero(infos["action_mask"][1])[0])]))
        assert term[0] and rew[0] == -1 and infos["illegal_action"].tolist() == [True, False]
        _, rew, term, trunc, infos = env.step(np.zeros(2, np.int64))
        g = env.vec.get_state(0)
        assert not term[0] and rew[0] == 0 and infos["action_mask"][0].any()
        assert g.to_move == player and g.ply == player - 1
        np.testing.assert_array_equal(infos["action_mask"][0], g.legal_action_mask())
    strict = HexcoreVectorEnv(spec, num_envs=2, seed=1, illegal_action="raise")
    _, infos = strict.reset(seed=0)
    bad = int(np.flatnonzero(~infos["action_mask"][0])[0])
    with pytest.raises(IllegalMoveError):
        strict.step(np.array([bad, int(np.flatnonzero(infos["action_mask"][1])[0])]))
    with pytest.raises(ValueError, match="illegal_action"):
        HexcoreVectorEnv(spec, num_envs=2, illegal_action="ignore")


def test_vector_env_with_a_python_opponent_after_a_forfeit():
    pytest.importorskip("gymnasium")

    def first_legal(obs, masks, rng):
        return masks.argmax(axis=1)

    env = HexcoreVectorEnv("churn(size=3)", num_envs=3, player=2, opponent=first_legal)
    _, infos = env.reset(seed=0)
    bad = int(np.flatnonzero(~infos["action_mask"][0])[0])
    acts = infos["action_mask"].argmax(axis=1)
    acts[0] = bad
    _, rew, term, _, infos = env.step(acts)
    assert term[0] and rew[0] == -1
    _, rew, term, _, infos = env.step(infos["action_mask"].argmax(axis=1))
    assert not term[0] and env.vec._to_move[0] == 2 and env.vec.get_state(0).ply == 1


def test_make_vec_returns_the_fast_vector_env():
    gymnasium = pytest.importorskip("gymnasium")
    import hexcore.envs  # noqa: F401  (registers the ids)

    env = gymnasium.make_vec("hexcore/Churn-v0", num_envs=4)
    assert isinstance(env.unwrapped, HexcoreVectorEnv) and env.num_envs == 4
    obs, infos = env.reset(seed=0)
    assert obs.shape == (4, *hc.load("churn(size=3)").observation_shape)
    env = gymnasium.make_vec("hexcore/Churn-v0", num_envs=2, game="churn(size=4)", player=2)
    assert isinstance(env, HexcoreVectorEnv) and env.vec.specs[0] == "churn(size=4)" and env.player == 2
