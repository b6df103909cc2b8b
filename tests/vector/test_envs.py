"""PettingZoo and Gymnasium environments (hexcore.envs) for every game in hexcore.GAMES."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import hexcore as hc

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from hexcore._core import _rewards  # noqa: E402
from hexcore.envs import HexcoreAECEnv, HexcoreGymEnv, gym_id, random_policy  # noqa: E402

# small variants of every game this build has
SMALL = {"churn": "churn(size=3)", "wunchunk": "wunchunk(size=5)", "quintun": "quintun(size=5)", "hex": "hex(size=4,swap=true)",
         "havannah": "havannah(size=4,swap=true)", "y": "y(size=7)"}
SPECS = [SMALL[name] for name in ("churn", "wunchunk", "quintun", "hex", "havannah", "y") if name in hc.GAMES]
if "wunchunk" in hc.GAMES:
    SPECS.append("wunchunk(size=7,players=3)")


def play_random(env: HexcoreAECEnv, seed: int) -> list:
    """Run one AEC episode with uniformly random legal actions; returns the agents in stepping order."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    order = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        order.append((agent, list(env.game.pending_actions)))
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return order


# ----------------------------------------------------------------------------- rewards


def test_terminal_rewards_are_zero_sum():
    assert _rewards((1,), 2) == [1.0, -1.0]
    assert _rewards((2,), 2) == [-1.0, 1.0]
    assert _rewards((1, 2), 2) == [0.0, 0.0]
    assert _rewards((), 3) == [0.0, 0.0, 0.0]
    assert _rewards((2,), 3) == [-0.5, 1.0, -0.5]
    assert _rewards((1, 3), 4) == [0.5, -0.5, 0.5, -0.5]
    assert _rewards((1, 2, 3), 3) == [0.0, 0.0, 0.0]
    for n in (2, 3, 4):
        for mask in range(1, 2**n):
            winners = [s for s in range(1, n + 1) if mask >> (s - 1) & 1]
            r = _rewards(winners, n)
            assert abs(sum(r)) < 1e-12 and max(r) <= 1 and min(r) >= -1
    with pytest.raises(ValueError):
        _rewards((3,), 2)
    # float64, the rule written once in the core (rust/core/src/outcome.rs)
    assert _rewards((1,), 4) == [1.0, -1 / 3, -1 / 3, -1 / 3]
    assert _rewards((1, 2, 4), 4) == [1 / 3, 1 / 3, -1.0, 1 / 3]
    with pytest.raises(ValueError, match="num_players"):
        _rewards((), 0)
    with pytest.raises(ValueError, match=r"winners \[0, 5\]"):
        _rewards((5, 0, 1), 4)
    with pytest.raises(TypeError):
        _rewards((True,), 2)
    g = hc.Churn(size=3)
    assert not g.is_over and _rewards(g.winners, g.num_players) == [0.0, 0.0]


# ----------------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoo_api_test(spec):
    with warnings.catch_warnings():
        # the {"observation", "action_mask"} dict of PettingZoo's classic games draws these
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(HexcoreAECEnv(spec), num_cycles=1000)


@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoo_api_test_truncated(spec):
    env = HexcoreAECEnv(spec, max_actions=5)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(env, num_cycles=100)
    play_random(env, 0)
    assert env.actions_taken == 5 and not env.game.is_over


@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoo_episode(spec):
    env = HexcoreAECEnv(spec)
    n = env.game.num_players
    assert env.possible_agents == [f"player_{k}" for k in range(1, n + 1)]
    for seed in range(3):
        env.reset()
        final_rewards = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            assert env.observation_space(agent).contains(obs)
            if term or trunc:
                final_rewards[agent] = reward
                env.step(None)
                continue
            # the agent to move is the game's player to move, also in the middle of a turn
            assert agent == f"player_{env.game.to_move}"
            assert np.array_equal(obs["action_mask"].astype(bool), env.game.legal_action_mask())
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(np.random.default_rng(seed * 1000 + env.actions_taken).choice(legal)))
        assert env.game.is_over and env.agents == []
        expected = _rewards(env.game.winners, n)
        assert [final_rewards[f"player_{k}"] for k in range(1, n + 1)] == expected


class TwoStones:
    """A toy game with hexcore's action API and multi-action turns: on a row of
    7 cells each turn places two stones (one if a single cell is left), in
    increasing cell order; the owner of the middle cell wins a full row."""

    num_players = 2
    num_actions = 7
    observation_shape = (2, 1, 7)
    spec = "twostones()"

    def __init__(self):
        self.cells = [0] * 7
        self.to_move = 1
        self.pending_actions = []
        self.actions = []

    def copy(self):
        g = TwoStones()
        g.cells, g.to_move = list(self.cells), self.to_move
        g.pending_actions, g.actions = list(self.pending_actions), list(self.actions)
        return g

    @property
    def is_over(self):
        return 0 not in self.cells

    @property
    def winners(self):
        return (self.cells[3],) if self.is_over else ()

    @property
    def history(self):
        return []

    def legal_action_mask(self):
        lo = self.pending_actions[-1] + 1 if self.pending_actions else 0
        mask = np.array([c == 0 and i >= lo for i, c in enumerate(self.cells)])
        if not self.pending_actions and self.cells.count(0) > 1:
            mask[max(np.flatnonzero(mask))] = False  # the turn's second stone must fit after the first
        return mask

    def legal_actions(self):
        return np.flatnonzero(self.legal_action_mask()).astype(np.int32)

    def apply_action(self, a):
        if self.is_over or not self.legal_action_mask()[a]:
            raise hc.IllegalMoveError(f"illegal action {a}", "illegal_action")
        self.cells[a] = self.to_move
        self.actions.append(a)
        self.pending_actions.append(a)
        if len(self.pending_actions) == 2 or self.is_over:
            self.pending_actions = []
            self.to_move = 3 - self.to_move

    def observation(self):
        planes = np.zeros(self.observation_shape, np.float32)
        for i, c in enumerate(self.cells):
            if c:
                planes[0 if c == self.to_move else 1, 0, i] = 1
        return planes

    def __str__(self):
        return "".join(".XO"[c] for c in self.cells)


def test_multi_action_turns_keep_the_agent():
    env = HexcoreAECEnv(TwoStones())
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation numpy array is all zeros")  # the empty row
        api_test(env, num_cycles=100)
        warnings.filterwarnings("ignore", message=".*not having a spec")
        check_env(HexcoreGymEnv(TwoStones(), player=2))
    order = play_random(env, 1)
    assert [a for a, _ in order] == ["player_1"] * 2 + ["player_2"] * 2 + ["player_1"] * 2 + ["player_2"]
    gym_env = HexcoreGymEnv(TwoStones(), player=2)
    obs, info = gym_env.reset(seed=0)
    assert len(gym_env.game.actions) == 2 and gym_env.game.to_move == 2
    gym_env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert len(gym_env.game.actions) == 3 and gym_env.game.to_move == 2  # still the learner's turn
    for spec in SPECS:
        order = play_random(HexcoreAECEnv(spec), 1)
        # an action taken mid-turn (pending actions) is by the same agent as the one before
        for (prev, _), (agent, pending) in zip(order, order[1:]):
            if pending:
                assert agent == prev


def test_pettingzoo_illegal_action():
    env = HexcoreAECEnv("churn(size=3)")
    env.reset()
    env.step(9)  # c3
    env.step(9)  # occupied: the mover loses
    assert all(env.terminations.values())
    _, reward, term, _, info = env.last()
    assert env.agent_selection == "player_2" and reward == -1.0 and term and info["illegal_action"]
    assert env._cumulative_rewards["player_1"] == 0.0
    strict = HexcoreAECEnv("churn(size=3)", illegal_action="raise")
    strict.reset()
    strict.step(9)
    with pytest.raises(hc.IllegalMoveError):
        strict.step(9)
    assert strict.game.history == ["c3"] and not any(strict.terminations.values())


def test_pettingzoo_env_from_a_game_and_render():
    g = hc.Churn.from_position({"c3": 1, "d2": 2}, to_move=1, size=3)
    env = HexcoreAECEnv(g, render_mode="ansi")
    env.reset()
    assert env.game == g and env.game is not g
    env.step(int(env.game.legal_actions()[0]))
    assert env.render() == str(env.game)
    env.reset()
    assert env.game == g
    assert env.metadata["name"] == "hexcore_churn_v0"
    with pytest.raises(ValueError):
        HexcoreAECEnv("churn(size=3)", render_mode="svg")
    with pytest.raises(ValueError):
        HexcoreAECEnv("nosuchgame(size=3)")
    with pytest.raises(ValueError):
        HexcoreAECEnv("churn(size=3)", max_actions=0)


@pytest.mark.parametrize("spec", SPECS)
def test_observations_stay_in_the_declared_box(spec):
    env = HexcoreAECEnv(spec)
    box = env.observation_space("player_1")["observation"]
    env.reset()
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        assert box.contains(obs["observation"]), (obs["observation"].min(), obs["observation"].max())
        if term or trunc:
            env.step(None)
        else:
            env.step(random_policy(env.game, np.random.default_rng(env.actions_taken)))


# ----------------------------------------------------------------------------- Gymnasium


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("player", [1, 2, None])
def test_gymnasium_check_env(spec, player):
    name = spec.split("(")[0]
    env = gymnasium.make(gym_id(name), game=spec, player=player, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_gymnasium_ids_are_registered():
    for name in hc.GAMES:
        env = gymnasium.make(gym_id(name))
        assert isinstance(env.unwrapped, HexcoreGymEnv)
        assert env.unwrapped.game.spec == hc.GAMES[name]().spec


@pytest.mark.parametrize("spec", SPECS)
def test_gymnasium_episodes(spec):
    n = hc.load(spec).num_players
    results = []
    for player in range(1, n + 1):
        env = HexcoreGymEnv(spec, player=player)
        for seed in range(6):
            obs, info = env.reset(seed=seed)
            env.action_space.seed(1000 * player + seed)
            total, done = 0.0, False
            while not done:
                assert env.game.to_move == player and obs in env.observation_space
                mask = info["action_mask"]
                assert mask.dtype == np.int8 and np.array_equal(mask.astype(bool), env.game.legal_action_mask())
                assert np.array_equal(env.action_masks(), mask.astype(bool))
                action = env.action_space.sample(mask)
                obs, reward, term, trunc, info = env.step(action)
                total += reward
                done = term or trunc
            assert term and env.game.is_over and info["winners"] == env.game.winners
            assert total == _rewards(env.game.winners, env.game.num_players)[player - 1]
            results.append(total)
    assert len(set(results)) > 1  # not every game ends the same way


def test_gymnasium_is_reproducible():
    def run(seed):
        env = HexcoreGymEnv("churn(size=3)", player=None)
        obs, info = env.reset(seed=seed)
        env.action_space.seed(seed)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(env.action_space.sample(info["action_mask"]))
            done = term or trunc
        return env.player, env.game.history

    env_seeded = [run(s) for s in (5, 5, 6)]
    assert env_seeded[0] == env_seeded[1]
    assert {p for p, _ in (run(s) for s in range(10))} == {1, 2}


def test_gymnasium_opponents_and_illegal_actions():
    calls = []

    def first_legal(game, rng):
        calls.append(game.to_move)
        return int(game.legal_actions()[0])

    env = HexcoreGymEnv("churn(size=3)", player=2, opponent=first_legal)
    env.reset(seed=0)
    assert calls == [1] and env.game.history == ["a1"]
    obs, reward, term, trunc, info = env.step(0)  # a1 is occupied
    assert (reward, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError):
        env.step(1)
    env.reset(seed=0)
    env.step(18)
    assert env.game.history == ["a1", "e3", "a3"]  # a2 touches a1: isolation rule

    with pytest.raises(ValueError, match="illegal action"):
        HexcoreGymEnv("churn(size=3)", player=2, opponent=lambda g, r: 10**6).reset()
    strict = HexcoreGymEnv("churn(size=3)", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(hc.IllegalMoveError):
        strict.step(19)  # swap on the first move
    with pytest.raises(TypeError):
        strict.step(1.5)
    with pytest.raises(ValueError):
        HexcoreGymEnv("churn(size=3)", player=3)
    with pytest.raises(ValueError):
        HexcoreGymEnv("churn(size=3)", opponents={3: first_legal})
    with pytest.raises(ValueError):
        HexcoreGymEnv("churn(size=3)", illegal_action="ignore")


def test_gymnasium_truncation():
    env = HexcoreGymEnv("churn(size=3)", max_actions=6)
    obs, info = env.reset(seed=3)
    steps, done = 0, False
    while not done:
        obs, reward, term, trunc, info = env.step(env.action_space.sample(info["action_mask"]))
        steps += 1
        done = term or trunc
    assert trunc and not term and reward == 0.0 and env.actions_taken == 6 and steps == 3


@pytest.mark.parametrize("spec", SPECS)
def test_observation_box_is_zero_to_one_and_reached(spec):
    """The declared bounds are the real range: every plane in [0, 1]; the
    Wunchunk stones-left plane is the allotment left over the cell count."""
    env = HexcoreAECEnv(spec)
    box = env.observation_space("player_1")["observation"]
    assert float(box.low.min()) == 0.0 and float(box.high.max()) == 1.0
    g = hc.load(spec)
    obs = g.observation()
    if obs.max() == 0.0:  # Hex's empty board: no stones and no constant plane on
        g.apply_action(int(g.legal_actions()[0]))
        obs = g.observation()
    assert obs.min() >= 0.0 and obs.max() == 1.0
    if spec.startswith("wunchunk"):
        n = g.num_players if hasattr(g, "num_players") else 2
        left = obs[n + 1]
        assert np.allclose(left, (g.allotment - len(g.pending_actions)) / g.board.num_cells)


# ----------------------------------------------------------------------------- rgb_array, is_success


@pytest.mark.parametrize("spec", SPECS)
def test_rgb_array_render(spec):
    env = gymnasium.make(gym_id(spec.split("(")[0]), game=spec, render_mode="rgb_array")
    env.reset(seed=0)
    before = env.render()
    assert isinstance(before, np.ndarray) and before.dtype == np.uint8
    assert before.ndim == 3 and before.shape[2] == 3 and min(before.shape[:2]) >= 40
    mask = env.unwrapped.action_masks()
    env.step(int(np.flatnonzero(mask)[0]))
    after = env.render()
    assert after.shape == before.shape and (after != before).any()
    # every stone on the board shows in its colour
    from hexcore.registry import info
    from hexcore.render import PLAYER_COLOURS

    g = env.unwrapped.game
    palette = {**PLAYER_COLOURS, **info(g).stone_colours}
    for v in {int(x) for x in g.cells() if x > 0}:
        rgb = tuple(int(palette[v][k:k + 2], 16) for k in (1, 3, 5))
        assert (after == rgb).all(axis=2).sum() > 20, v
    aec = HexcoreAECEnv(spec, render_mode="rgb_array")
    aec.reset()
    assert aec.render().shape == before.shape


def test_rgb_array_of_an_empty_and_a_full_board():
    from hexcore.render import rgb_array

    g = hc.load("churn(size=2)")
    img = rgb_array(g)
    empty = (0xF3, 0xE9, 0xD2)
    # seven cells, each about cell**2 * sqrt(3)/2 pixels of the empty colour
    area = (img == empty).all(axis=2).sum()
    assert 7 * 24 * 24 * 0.6 < area < 7 * 24 * 24 * 0.9
    assert (img[0, 0] == 255).all()


def test_is_success_at_the_end_of_an_episode():
    env = HexcoreGymEnv("churn(size=3)", player=1)
    rng = np.random.default_rng(0)
    outcomes = set()
    for ep in range(12):
        _, info = env.reset(seed=ep)
        assert "is_success" not in info
        done = False
        while not done:
            a = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, r, term, trunc, info = env.step(a)
            done = term or trunc
            assert ("is_success" in info) == done
        assert info["is_success"] == (r > 0)
        outcomes.add(info["is_success"])
    assert outcomes == {True, False}
    _, info = env.reset(seed=0)
    _, r, term, _, info = env.step(int(np.flatnonzero(~env.action_masks())[0]))
    assert term and r == -1 and info["is_success"] is False and info["illegal_action"]


def test_pettingzoo_state():
    env = HexcoreAECEnv("churn(size=3)")
    env.reset(seed=0)
    assert env.state() in env.state_space
    first = env.state()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    s = env.state()
    assert s in env.state_space and not np.array_equal(s, first)
    np.testing.assert_array_equal(s, env.game.observation())


def test_sb3_vec_env_name_exists_without_stable_baselines3(monkeypatch):
    """``hexcore.envs.SB3VecEnv`` is a public name: ``hasattr`` and ``from
    hexcore.envs import SB3VecEnv`` work whether or not stable-baselines3 is
    installed; without it, building one raises the ImportError that says what
    to install."""
    import sys

    import hexcore.envs

    for name in ("stable_baselines3", "stable_baselines3.common", "stable_baselines3.common.vec_env"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails, as when it is absent
    monkeypatch.delitem(sys.modules, "hexcore.sb3", raising=False)
    assert hasattr(hexcore.envs, "SB3VecEnv")
    from hexcore.envs import SB3VecEnv

    with pytest.raises(ImportError, match="stable-baselines3"):
        SB3VecEnv("churn(size=3)", num_envs=2)
    assert not hasattr(hexcore.envs, "NoSuchName")
