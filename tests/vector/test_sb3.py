"""Stable-Baselines3 and sb3-contrib through hexcore's adapters: SB3's usual
``make_vec_env`` call on the registered Gymnasium ids, and ``SB3VecEnv`` (the
batched games as an SB3 ``VecEnv``) driven by sb3-contrib's ``MaskablePPO``.

Needs the ``sb3`` extra (``pip install 'hexcore[sb3]'``: stable-baselines3,
sb3-contrib, torch); without it the module is skipped, and says so.
"""
from __future__ import annotations

import numpy as np
import pytest

import hexcore as hc

pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (pip install 'hexcore[sb3]')")
pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (pip install 'hexcore[sb3]')")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

import hexcore.envs  # noqa: E402,F401  (registers the Gymnasium ids)
from hexcore.envs import SB3VecEnv  # noqa: E402


def test_make_vec_env():
    """SB3 passes render_mode="rgb_array" to every env it makes."""
    venv = make_vec_env("hexcore/Churn-v0", n_envs=8, seed=0)
    obs = venv.reset()
    assert obs.shape == (8, *hc.load("churn(size=3)").observation_shape)
    masks = np.stack(venv.env_method("action_masks"))
    obs, rew, done, infos = venv.step(masks.argmax(axis=1))
    assert obs.shape[0] == 8 and len(infos) == 8
    frame = venv.render()
    assert frame is not None and frame.dtype == np.uint8 and frame.ndim == 3


def _legal(masks, rng):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("spec", ["churn(size=3)", "wunchunk(size=5)", "quintun(size=5)"])
def test_same_step_autoreset(spec):
    if spec.split("(")[0] not in hc.GAMES:
        pytest.skip(f"{spec} is not in this build")
    env = SB3VecEnv(spec, num_envs=5, player=2, seed=1)
    assert isinstance(env, VecEnv) and is_masking_supported(env)
    obs = env.reset()
    assert obs.shape == (5, *hc.load(spec).observation_shape) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    ends = successes = 0
    for _ in range(300):
        masks = get_action_masks(env)
        assert masks.shape == (5, env.action_space.n) and masks.any(axis=1).all()
        obs, rew, done, infos = env.step(_legal(masks, rng))
        for i in range(5):
            g = env.env_method("get_state", indices=i)[0]
            assert g.to_move == 2 and not g.is_over  # already reset when done
            np.testing.assert_array_equal(obs[i], g.observation())
            if done[i]:
                ends += 1
                info = infos[i]
                assert info["terminal_observation"].shape == obs[i].shape
                assert rew[i] in (-1.0, 0.0, 1.0)  # 0: a draw (Quintun) or a cut
                assert info["is_success"] == (rew[i] > 0) and info["episode"]["r"] == rew[i]
                successes += info["is_success"]
                assert g.ply <= 1
            else:
                assert infos[i] == {} and rew[i] == 0
    assert ends > 5 and 0 < successes < ends


def test_illegal_actions_and_errors():
    env = SB3VecEnv("churn(size=3)", num_envs=2)
    env.reset()
    masks = env.action_masks()
    bad = int(np.flatnonzero(~masks[0])[0])
    _, rew, done, infos = env.step(np.array([bad, int(np.flatnonzero(masks[1])[0])]))
    assert done[0] and rew[0] == -1 and infos[0]["illegal_action"] and not infos[0]["is_success"]
    assert env.action_masks()[0].any()
    with pytest.raises(AttributeError):
        env.env_method("no_such_method")
    with pytest.raises(AttributeError):
        env.get_attr("no_such_attribute")
    assert env.get_attr("player") == [1, 1] and env.env_is_wrapped(object) == [False, False]
    assert len(env.get_images()) == 2


def _first_legal(obs, masks, rng):
    return masks.argmax(axis=1)


@pytest.mark.parametrize("opponent", ["random", _first_legal])
def test_maskable_ppo_learns_through_sb3vecenv(opponent):
    env = SB3VecEnv("churn(size=3)", num_envs=16, opponent=opponent, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=256, n_epochs=2, seed=0, verbose=0,
                        policy_kwargs={"net_arch": [64]}, device="cpu")
    model.learn(total_timesteps=3072)
    assert model.num_timesteps >= 3072
    # the trained policy plays only legal moves through the masks
    obs = env.reset()
    for _ in range(20):
        masks = get_action_masks(env)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(16), actions].all()
        obs, _, _, _ = env.step(actions)
