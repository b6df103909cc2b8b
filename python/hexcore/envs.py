"""Reinforcement-learning environments for every hexcore game.

* :class:`HexcoreAECEnv` -- a PettingZoo AEC environment (all seats are agents);
* :class:`HexcoreGymEnv` -- a single-agent Gymnasium environment (one learning
  seat, the other seats played by an opponent policy).

Both are built from a spec string (``"churn(size=3)"``) or from a game object
(its current position is the start of every episode), and work for any game
with hexcore's action API, including multi-action turns: an agent keeps the
move (``agent_selection`` / the learner's turn) until its turn is complete.

Agents are ``"player_1"`` .. ``"player_N"`` (seat ``k`` is ``to_move == k``).
One step is one action id in ``[0, game.num_actions)``.

Observations
    ``game.observation()``: float32 planes ``(C, H, W)`` in ``[0, 1]``, drawn
    from the point of view of the player to move (see the README). The
    PettingZoo observation is ``{"observation": planes, "action_mask": int8
    mask}``; the mask is all zero for an agent that is not to move. Gymnasium
    returns the planes and puts ``"action_mask"`` (int8) in ``info``; it also
    has ``action_masks()`` (bool) for masking-aware learners.

Rewards (at the end of the game only; zero-sum)
    a sole winner gets ``+1`` and the others ``-1/(N-1)`` (two players:
    ``+1`` / ``-1``); a shared win among ``k`` of ``N`` seats gives each winner
    ``+1/k`` and each other seat ``-1/(N-k)``; a draw (every seat wins) is
    ``0``. An episode cut by ``max_actions`` is truncated with reward ``0``.

Illegal actions
    ``illegal_action="lose"`` (default) ends the episode: the agent that tried
    it gets ``-1``, everybody else ``0``, and ``info["illegal_action"]`` is
    True. ``illegal_action="raise"`` raises ``hexcore.IllegalMoveError``
    instead (the game is left unchanged).

Gymnasium ids
    Importing this module registers ``hexcore/Churn-v0`` (and one id per game
    in ``hexcore.GAMES``): ``gymnasium.make("hexcore/Churn-v0",
    game="churn(size=4)")``, or without importing first
    ``gymnasium.make("hexcore.envs:hexcore/Churn-v0")``.

Opponents (Gymnasium)
    A policy is a callable ``policy(game, rng) -> action``: it gets a copy of
    the game (the player to move is the seat it plays) and the environment's
    ``numpy.random.Generator`` (seeded by ``reset(seed=...)``, so episodes are
    reproducible). :func:`random_policy` (uniform over legal actions) is the
    default.
"""
from __future__ import annotations

import importlib
import operator
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Union, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ._args import keyword_only
from ._core import _rewards
from .errors import IllegalMoveError
from .render import rgb_array
from .spec import load

if TYPE_CHECKING:
    from ._core import _Game

__all__ = ["HexcoreAECEnv", "HexcoreGymEnv", "Policy", "random_policy", "agent_name", "env", "raw_env",
           "gym_id", "register_gym_envs"]

Policy = Callable[["_Game", np.random.Generator], int]
Observation = npt.NDArray[np.float32]
AECObservation = Dict[str, npt.NDArray[Any]]
_ILLEGAL = ("lose", "raise")


def random_policy(game: "_Game", rng: np.random.Generator) -> int:
    """Uniformly random legal action."""
    legal = game.legal_actions()
    if len(legal) == 0:
        raise ValueError("no legal action (the game is over)")
    return int(legal[int(rng.integers(len(legal)))])


def agent_name(seat: int) -> str:
    """``1`` -> ``"player_1"``."""
    return f"player_{seat}"


def _make_game(game: Union[str, "_Game"]) -> "_Game":
    if isinstance(game, str):
        g: _Game = load(game)
        return g
    for attr in ("legal_actions", "apply_action", "observation", "num_actions", "copy"):
        if not hasattr(game, attr):
            raise TypeError(f"game must be a spec string or a hexcore game, got {type(game).__name__}")
    if game.is_over:
        raise ValueError("the game is already over; an episode needs a position with moves left")
    return game.copy()


def _check_options(max_actions: Optional[int], illegal_action: str, render_mode: Optional[str],
                   modes: List[str]) -> None:
    if max_actions is not None and (not isinstance(max_actions, int) or isinstance(max_actions, bool)
                                    or max_actions < 1):
        raise ValueError(f"max_actions must be a positive int or None, got {max_actions!r}")
    if illegal_action not in _ILLEGAL:
        raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be one of {modes} or None, got {render_mode!r}")


def _observation_box(game: "_Game") -> spaces.Box:
    """Every plane lies in [0, 1]: 0/1 indicators and constant 0/1 planes, and
    Wunchunk's last plane, the stones the mover may still place divided by the
    number of cells."""
    shape = tuple(int(x) for x in game.observation_shape)
    return spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32)


def _render(game: "_Game", mode: Optional[str]) -> Union[str, npt.NDArray[np.uint8], None]:
    """``"ansi"``: the text diagram; ``"rgb_array"``: an ``(H, W, 3)`` uint8
    picture (``hexcore.render.rgb_array``); ``"human"``: print the diagram."""
    if mode is None:
        gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi', 'rgb_array' or 'human'")
        return None
    if mode == "rgb_array":
        return rgb_array(game)
    text = str(game)
    if mode == "ansi":
        return text
    print(text)
    return None


def _is_legal(game: "_Game", action: Any) -> bool:
    try:
        a = operator.index(action)
    except TypeError:
        return False
    if game.is_over or not 0 <= a < game.num_actions:
        return False
    return bool(game.legal_action_mask()[a])


class HexcoreAECEnv(AECEnv):  # type: ignore[misc]
    """PettingZoo AEC environment: every seat of a hexcore game is an agent.

    ``HexcoreAECEnv("churn(size=3)")`` or ``HexcoreAECEnv(hexcore.Churn(size=4))``.
    ``max_actions`` truncates long games; ``render_mode`` is ``"ansi"`` (returns
    the text diagram) or ``"human"`` (prints it).
    """

    metadata: Dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "name": "hexcore_v0",
                                "is_parallelizable": False, "render_fps": 1}

    @keyword_only
    def __init__(self, game: Union[str, "_Game"] = "churn(size=3)", *, render_mode: Optional[str] = None,
                 max_actions: Optional[int] = None, illegal_action: str = "lose") -> None:
        super().__init__()
        _check_options(max_actions, illegal_action, render_mode, self.metadata["render_modes"])
        self._template = _make_game(game)
        self.game: _Game = self._template.copy()
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.illegal_action = illegal_action
        n = int(self._template.num_players)
        self.possible_agents: List[str] = [agent_name(k) for k in range(1, n + 1)]
        self.metadata = dict(self.metadata, name=f"hexcore_{type(self._template).__name__.lower()}_v0")
        obs_box = _observation_box(self._template)
        mask_box = spaces.Box(low=0, high=1, shape=(int(self._template.num_actions),), dtype=np.int8)
        self._obs_spaces = {a: spaces.Dict({"observation": obs_box, "action_mask": mask_box})
                            for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(int(self._template.num_actions)) for a in self.possible_agents}
        self.state_space = obs_box
        self.actions_taken = 0
        self._reset_state()

    # -- spaces ------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    # -- episode -----------------------------------------------------------
    def _reset_state(self) -> None:
        self.game = self._template.copy()
        self.actions_taken = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(int(self.game.to_move))

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Start a new episode from the environment's start position (``seed`` is
        accepted for API compatibility; the games have no chance)."""
        self._reset_state()

    def observe(self, agent: str) -> AECObservation:
        mask = np.zeros(int(self.game.num_actions), dtype=np.int8)
        if not self.game.is_over and agent == agent_name(int(self.game.to_move)):
            mask = self.game.legal_action_mask().astype(np.int8)
        return {"observation": self.game.observation(), "action_mask": mask}

    def state(self) -> Observation:
        """The whole position (the games have perfect information): the planes
        of ``game.observation()``, drawn for the player to move, who is part of
        them (``state_space`` is their Box)."""
        return self.game.observation()

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.illegal_action == "raise":
            if action is None:
                raise IllegalMoveError(f"{agent} must act (got None)", "illegal_action")
            self.game.apply_action(operator.index(action))  # the engine raises on an illegal action
        elif not _is_legal(self.game, action):
            for a in self.agents:
                self.terminations[a] = True
            self.rewards[agent] = -1.0
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        else:
            assert action is not None
            self.game.apply_action(operator.index(action))
        self.actions_taken += 1
        if self.game.is_over:
            for a, r in zip(self.possible_agents, _rewards(self.game.winners, self.game.num_players)):
                if a in self.rewards:
                    self.rewards[a] = r
                    self.terminations[a] = True
            self.infos = {a: {"winners": tuple(self.game.winners)} for a in self.agents}
        else:
            if self.max_actions is not None and self.actions_taken >= self.max_actions:
                for a in self.agents:
                    self.truncations[a] = True
            self.agent_selection = agent_name(int(self.game.to_move))
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Union[str, npt.NDArray[np.uint8], None]:
        return _render(self.game, self.render_mode)

    def close(self) -> None:
        pass


def env(game: Union[str, "_Game"] = "churn(size=3)", **kwargs: Any) -> HexcoreAECEnv:
    """PettingZoo-style factory (same arguments as :class:`HexcoreAECEnv`)."""
    return HexcoreAECEnv(game, **kwargs)


raw_env = env


class HexcoreGymEnv(gymnasium.Env[Observation, np.int64]):
    """Single-agent Gymnasium environment: the learner plays seat ``player``.

    ``player=None`` draws the learner's seat uniformly at every reset. The other
    seats are played by ``opponent`` (a :data:`Policy`; default
    :func:`random_policy`), or by ``opponents={seat: policy}`` per seat.
    ``info`` holds ``"action_mask"`` (int8), ``"player"`` (the learner's seat),
    when the game is over ``"winners"``, and at the end of an episode
    ``"is_success"`` (the learner won; SB3 logs its mean as the success rate).
    ``render_mode`` is ``"ansi"``, ``"human"`` or ``"rgb_array"``.
    """

    metadata: Dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 1}

    @keyword_only
    def __init__(self, game: Union[str, "_Game"] = "churn(size=3)", *, player: Optional[int] = 1,
                 opponent: Optional[Policy] = None, opponents: Optional[Dict[int, Policy]] = None,
                 render_mode: Optional[str] = None, max_actions: Optional[int] = None,
                 illegal_action: str = "lose") -> None:
        super().__init__()
        _check_options(max_actions, illegal_action, render_mode, self.metadata["render_modes"])
        self._template = _make_game(game)
        n = int(self._template.num_players)
        if player is not None and (not isinstance(player, int) or isinstance(player, bool) or not 1 <= player <= n):
            raise ValueError(f"player must be a seat 1..{n} or None, got {player!r}")
        if opponent is not None and not callable(opponent):
            raise TypeError("opponent must be a callable policy(game, rng) -> action")
        self._policies: Dict[int, Policy] = {k: opponent or random_policy for k in range(1, n + 1)}
        for seat, pol in (opponents or {}).items():
            if seat not in self._policies or not callable(pol):
                raise ValueError(f"opponents must map seats 1..{n} to callables, got {seat!r}: {pol!r}")
            self._policies[seat] = pol
        self.fixed_player = player
        self.player = player or 1
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.illegal_action = illegal_action
        self.game: _Game = self._template.copy()
        self.actions_taken = 0
        self._done = True  # until reset()
        self.observation_space = cast("spaces.Space[Observation]", _observation_box(self._template))
        self.action_space = spaces.Discrete(int(self._template.num_actions))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Legal-action mask (bool) of the current position, for masking-aware learners."""
        if self.game.is_over or self.game.to_move != self.player:
            return np.zeros(int(self.game.num_actions), dtype=bool)
        return self.game.legal_action_mask()

    def _info(self, **extra: Any) -> Dict[str, Any]:
        info: Dict[str, Any] = {"action_mask": self.action_masks().astype(np.int8), "player": self.player}
        if self.game.is_over:
            info["winners"] = tuple(self.game.winners)
        info.update(extra)
        return info

    def _play_opponents(self) -> None:
        g = self.game
        while not g.is_over and g.to_move != self.player:
            if self.max_actions is not None and self.actions_taken >= self.max_actions:
                return
            seat = int(g.to_move)
            a = self._policies[seat](g.copy(), self.np_random)
            if not _is_legal(g, a):
                raise ValueError(f"the opponent policy for seat {seat} chose illegal action {a!r}")
            g.apply_action(int(a))
            self.actions_taken += 1

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Observation, Dict[str, Any]]:
        super().reset(seed=seed)
        self.game = self._template.copy()
        self.actions_taken = 0
        if self.fixed_player is None:
            self.player = int(self.np_random.integers(1, int(self.game.num_players) + 1))
        self._play_opponents()
        truncated = self.max_actions is not None and self.actions_taken >= self.max_actions
        self._done = bool(self.game.is_over or truncated)
        if self._done:
            raise ValueError("the opponents finished the game (or hit max_actions) before the learner's first turn")
        if self.render_mode == "human":
            self.render()
        return self.game.observation(), self._info()

    def step(self, action: Any) -> Tuple[Observation, float, bool, bool, Dict[str, Any]]:
        g = self.game
        if self._done:
            raise RuntimeError("the episode is over; call reset()")
        if self.illegal_action == "raise":
            g.apply_action(operator.index(action))  # the engine raises on an illegal action
        elif not _is_legal(g, action):
            self._done = True
            return g.observation(), -1.0, True, False, self._info(illegal_action=True, is_success=False)
        else:
            g.apply_action(operator.index(action))
        self.actions_taken += 1
        self._play_opponents()
        terminated = bool(g.is_over)
        reward = _rewards(g.winners, g.num_players)[self.player - 1] if terminated else 0.0
        truncated = (not terminated and self.max_actions is not None and self.actions_taken >= self.max_actions)
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        extra = {"is_success": reward > 0} if self._done else {}
        return g.observation(), float(reward), terminated, bool(truncated), self._info(**extra)

    def render(self) -> Union[str, npt.NDArray[np.uint8], None]:
        return _render(self.game, self.render_mode)


def gym_id(name: str) -> str:
    """Gymnasium id of the hexcore game ``name``: ``"churn"`` -> ``"hexcore/Churn-v0"``."""
    return f"hexcore/{name.capitalize()}-v0"


def register_gym_envs() -> List[str]:
    """Register ``hexcore/<Game>-v0`` with Gymnasium for every game in
    ``hexcore.GAMES`` (done on import; idempotent). ``gymnasium.make`` takes
    the :class:`HexcoreGymEnv` arguments, e.g.
    ``gymnasium.make("hexcore/Churn-v0", game="churn(size=4)", player=2)``;
    ``gymnasium.make_vec("hexcore/Churn-v0", num_envs=64)`` builds the batched
    :class:`hexcore.vector.HexcoreVectorEnv` (its ``vector_entry_point``)."""
    from .registry import GAMES

    ids = []
    for name in GAMES:
        env_id = gym_id(name)
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="hexcore.envs:HexcoreGymEnv",
                               vector_entry_point="hexcore.vector:HexcoreVectorEnv",
                               kwargs={"game": GAMES[name]().spec})
        ids.append(env_id)
    return ids


def _missing_extra(name: str, error: ImportError) -> type:
    """A stand-in for a class whose optional dependency is not installed: the
    name exists (``hasattr`` and ``from hexcore.envs import ...`` work, as for
    every other public name), and building one raises the ``ImportError`` that
    says what to install."""
    message = str(error)

    def __init__(self: object, *args: Any, **kwargs: Any) -> None:
        raise ImportError(message)

    return type(name, (), {"__init__": __init__, "__module__": __name__,
                           "__doc__": f"Not available here: {message}"})


def __getattr__(name: str) -> Any:
    # SB3VecEnv needs stable-baselines3: imported when asked for
    if name == "SB3VecEnv":
        # by name, so that type checks follow hexcore.sb3 only where
        # stable-baselines3 is installed (tests/package/test_typing.py NEEDS)
        try:
            return importlib.import_module("hexcore.sb3").SB3VecEnv
        except ImportError as e:
            return _missing_extra("SB3VecEnv", e)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register_gym_envs()
