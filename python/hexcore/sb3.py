"""Stable-Baselines3 vector environment over the batched games.

``SB3VecEnv(game, num_envs, player=1, opponent="random", seed=0, ...)`` is an
SB3 ``VecEnv`` (also reachable as ``hexcore.envs.SB3VecEnv``): the learner
plays seat ``player`` in every env, the other seats are played by the built-in
uniform random opponent (moved in Rust within the step) or by a batched
``opponent(observations, masks, rng) -> actions`` (see
:class:`hexcore.vector.HexcoreVectorEnv`, which it wraps).

It follows SB3's conventions: ``step_wait`` returns ``(obs, rewards, dones,
infos)`` with one info dict per env; an env whose episode ends is reset within
the same step, its final observation is ``infos[i]["terminal_observation"]``,
``infos[i]["TimeLimit.truncated"]`` tells a ``max_plies`` cut from a finished
game, ``infos[i]["is_success"]`` whether the learner won and
``infos[i]["episode"]`` (``r``, ``l``, ``t``) the learner's return and number of
steps, as ``Monitor`` writes them. ``action_masks()`` (and
``env_method("action_masks")``) give the legal mask for sb3-contrib's
``MaskablePPO``::

    from sb3_contrib import MaskablePPO
    from hexcore.envs import SB3VecEnv

    env = SB3VecEnv("churn(size=3)", num_envs=64)
    model = MaskablePPO("MlpPolicy", env, n_steps=64).learn(20_000)

Needs ``stable-baselines3`` (``pip install 'hexcore[sb3]'``).
"""
from __future__ import annotations

import time
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

try:
    from stable_baselines3.common.vec_env import VecEnv  # type: ignore[import-not-found,unused-ignore]
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("hexcore.envs.SB3VecEnv needs stable-baselines3: pip install 'hexcore[sb3]' "
                      "(or pip install stable-baselines3 sb3-contrib)") from e

from ._args import keyword_only
from .render import rgb_array
from .vector import BatchPolicy, HexcoreVectorEnv

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):  # type: ignore[misc,unused-ignore]
    """An SB3 ``VecEnv`` of ``num_envs`` hexcore games (see the module doc).

    The arguments are :class:`hexcore.vector.HexcoreVectorEnv`'s;
    ``illegal_action="lose"`` (default) ends the episode of an env given an
    illegal action with reward ``-1`` (``infos[i]["illegal_action"]``), and
    ``"raise"`` raises ``IllegalMoveError``. ``env_method`` knows
    ``"action_masks"``, ``"get_state"`` (the env's hexcore game, a copy),
    ``"set_state"`` and ``"render"``; ``get_attr`` reads the attributes of the
    wrapped ``HexcoreVectorEnv`` (``player``, ``opponent``, ...), and
    ``set_attr("opponent", policy)`` swaps a Python opponent (self-play).
    """

    @keyword_only
    def __init__(self, game: Union[str, Any] = "churn(size=3)", num_envs: int = 8, *, player: int = 1,
                 opponent: Union[str, BatchPolicy] = "random", seed: int = 0, threads: Optional[int] = None,
                 observation_dtype: Any = "float32", max_plies: Optional[int] = None,
                 illegal_action: str = "lose", render_mode: Optional[str] = None) -> None:
        self.env = HexcoreVectorEnv(game, num_envs, player=player, opponent=opponent, seed=seed, threads=threads,
                                    observation_dtype=observation_dtype, max_plies=max_plies, copy=True,
                                    illegal_action=illegal_action, render_mode=render_mode)
        self.render_mode = render_mode
        super().__init__(self.env.num_envs, self.env.single_observation_space, self.env.single_action_space)
        n = self.num_envs
        self._actions: Optional[npt.NDArray[Any]] = None
        self._mask = np.zeros((n, self.env.vec.num_actions), bool)
        self._returns = np.zeros(n, np.float64)
        self._lengths = np.zeros(n, np.int64)
        self._t0 = time.time()

    # -- stepping --------------------------------------------------------------
    def reset(self) -> npt.NDArray[Any]:
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        obs, infos = self.env.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self._mask = infos["action_mask"]
        self._returns[:] = 0
        self._lengths[:] = 0
        self.reset_infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        return np.asarray(obs)

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> Any:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        actions, self._actions = self._actions, None
        obs, rewards, term, trunc, infos = self.env.step(actions)
        self._mask = infos["action_mask"]
        self._returns += rewards
        self._lengths += 1
        done = term | trunc
        out: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        ended = np.flatnonzero(done)
        if ended.size:
            final = obs[ended].copy()
            # same-step autoreset: a step of the ended envs only puts them back at their start
            obs, _, _, _, again = self.env._step(np.zeros(self.num_envs, np.int64), done)
            self._mask = again["action_mask"]
            elapsed = round(time.time() - self._t0, 6)
            for k, i in enumerate(ended):
                out[i] = {"terminal_observation": final[k],
                          "TimeLimit.truncated": bool(trunc[i] and not term[i]),
                          "is_success": bool(infos["is_success"][i]),
                          "episode": {"r": float(self._returns[i]), "l": int(self._lengths[i]), "t": elapsed}}
                if infos["illegal_action"][i]:
                    out[i]["illegal_action"] = True
            self._returns[ended] = 0
            self._lengths[ended] = 0
        return np.asarray(obs), np.asarray(rewards, np.float32), done, out

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions in every env, bool ``(num_envs, num_actions)``."""
        return np.array(self._mask, dtype=bool)

    def close(self) -> None:
        self.env.close()

    # -- per-env access --------------------------------------------------------
    def _indices(self, indices: Union[None, int, Iterable[int]]) -> List[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]

    def get_attr(self, attr_name: str, indices: Union[None, int, Iterable[int]] = None) -> List[Any]:
        idx = self._indices(indices)
        if attr_name == "action_masks":
            return [(lambda i=i: self.action_masks()[i]) for i in idx]
        if attr_name == "render_mode":
            return [self.render_mode for _ in idx]
        if not hasattr(self.env, attr_name) or attr_name.startswith("_"):
            raise AttributeError(f"SB3VecEnv envs have no attribute {attr_name!r}")
        value = getattr(self.env, attr_name)
        return [value for _ in idx]

    def set_attr(self, attr_name: str, value: Any, indices: Union[None, int, Iterable[int]] = None) -> None:
        if attr_name != "opponent":
            raise AttributeError(f"SB3VecEnv can set 'opponent' only (every env at once), not {attr_name!r}")
        if indices is not None and sorted(self._indices(indices)) != list(range(self.num_envs)):
            raise ValueError("the opponent is the same in every env: set it for all (indices=None)")
        if self.env._builtin or not callable(value):
            raise ValueError("set_attr('opponent') takes a callable and needs an env built with a Python opponent")
        self.env.opponent = value

    def env_method(self, method_name: str, *method_args: Any, indices: Union[None, int, Iterable[int]] = None,
                   **method_kwargs: Any) -> List[Any]:
        idx = self._indices(indices)
        vec = self.env.vec
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in idx]
        if method_name == "get_state":
            return [vec.get_state(i) for i in idx]
        if method_name == "set_state":
            for i in idx:
                vec.set_state(i, *method_args, **method_kwargs)
            self._mask = vec._mask.copy()
            return [None for _ in idx]
        if method_name == "render":
            return [rgb_array(vec.get_state(i)) for i in idx]
        raise AttributeError(f"SB3VecEnv envs have no method {method_name!r} "
                             "(known: action_masks, get_state, set_state, render)")

    def env_is_wrapped(self, wrapper_class: Any, indices: Union[None, int, Iterable[int]] = None) -> List[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[Optional[npt.NDArray[np.uint8]]]:
        return [rgb_array(self.env.vec.get_state(i)) for i in range(self.num_envs)]
