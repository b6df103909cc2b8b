"""Batched games for reinforcement learning: ``N`` games stepped in Rust with
numpy in and out.

>>> import numpy as np
>>> from hexcore.vector import VecGame
>>> v = VecGame("churn(size=3)", 4, seed=1)
>>> obs, mask = v.reset()
>>> obs.shape, obs.dtype, mask.shape
((4, 4, 5, 5), dtype('bool'), (4, 20))
>>> r = v.step(v.sample_actions())
>>> r.rewards.shape, r.to_move.tolist()
((4, 2), [2, 2, 2, 2])

Semantics
    * ``step(actions)`` applies one action per env (int array of shape
      ``(N,)``). Multi-action turns (Wunchunk, Quintun) take one action per
      step, and ``to_move`` stays the same until the turn is complete, as with
      ``game.apply_action``.
    * An env ends when its game is over (``terminated``) or after
      ``max_plies`` complete moves (``truncated``). The step that ends it
      returns the final observation (in ``observations`` itself), the rewards
      of every seat and ``episode_lengths`` (complete moves; 0 for envs that
      did not end). Its mask is all False.
    * Autoreset, Gymnasium's next-step mode: the *next* ``step`` ignores the
      action of an env that ended and puts it back at its start position
      (reward 0, not terminated, not truncated). Any action value is accepted
      for it (``sample_actions()`` gives 0).
    * Rewards (``(N, num_players)`` float32) are zero-sum, as in
      ``hexcore.envs``: a sole winner ``+1`` and the others ``-1/(N-1)``; ``k``
      shared winners ``+1/k`` and the others ``-1/(N-k)``; a draw ``0``.
    * Every action is checked before anything moves: a wrong shape or dtype
      is a ``ValueError`` / ``TypeError``, an illegal action an
      ``IllegalMoveError`` naming the env (``.env``, ``.action``, ``.reason``).
    * Buffers: the arrays returned by ``reset``, ``step`` and
      ``sample_actions`` are allocated once and overwritten by the next call;
      ``copy=True`` returns fresh copies instead.
    * Stepping releases the GIL and splits the batch over ``threads`` (default:
      all cores); each env has its own generator (Xoshiro256++ seeded with
      SplitMix64(``seed + i``)), so results are identical for every thread
      count.
    * Memory is checked before a batch is built: one that cannot be allocated
      is a ``MemoryError`` naming the envs and the bytes. Ctrl-C stops building,
      ``reset`` and ``step`` of large batches (``KeyboardInterrupt``); a
      ``reset`` or ``step`` cut short leaves each env stepped or not, and the
      batch refuses to step (``ValueError``) until ``reset()``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

import numpy as np
import numpy.typing as npt

from ._args import bool_arg, keyword_only
from ._core import MAX_ENVS as _MAX_ENVS
from ._core import _Game, _VecGame
from .errors import IllegalMoveError
from .spec import load

__all__ = ["VecGame", "StepResult", "HexcoreVectorEnv", "as_dtype"]

_DTYPES = {np.dtype(np.bool_): "bool", np.dtype(np.uint8): "uint8", np.dtype(np.float32): "float32"}


@dataclass(frozen=True)
class StepResult:
    """What ``VecGame.step`` returns (arrays with one row per env)."""

    observations: npt.NDArray[Any]             # (N, C, H, W); on an ending step the final observation
    action_masks: npt.NDArray[np.bool_]        # (N, num_actions); all False for an env that just ended
    rewards: npt.NDArray[np.float32]           # (N, num_players)
    terminated: npt.NDArray[np.bool_]          # (N,) the game is over
    truncated: npt.NDArray[np.bool_]           # (N,) max_plies reached
    to_move: npt.NDArray[np.int32]             # (N,) 1-based seat to move
    episode_lengths: npt.NDArray[np.int64]     # (N,) complete moves of envs that just ended, else 0

    @property
    def done(self) -> npt.NDArray[np.bool_]:
        """``terminated | truncated``: the envs the next step resets."""
        return self.terminated | self.truncated


def _game(spec: Any) -> Any:
    if isinstance(spec, str):
        return load(spec)
    if hasattr(spec, "apply_action") and hasattr(spec, "observation"):
        return spec
    raise TypeError(f"a game is a spec string or a hexcore game, got {type(spec).__name__}")


MAX_ENVS = _MAX_ENVS  # the most envs a VecGame holds: the core's limit


def as_dtype(planes: npt.NDArray[np.float32], dtype: Any) -> npt.NDArray[Any]:
    """Float planes (values in [0, 1]) as a batch of ``dtype`` holds them:
    ``bool`` is ``plane != 0``, ``uint8`` is ``round(255 * plane)``."""
    dt = np.dtype(dtype)
    if dt == np.uint8:
        out: npt.NDArray[Any] = np.rint(np.clip(planes, 0.0, 1.0) * 255.0).astype(np.uint8)
        return out
    return planes.astype(dt)




class VecGame:
    """``N`` games of one type held and stepped in Rust.

    ``spec`` is a spec string or game object (every env starts there), or a
    sequence of ``num_envs`` of them (per-env starts: one game type, the same
    observation shape, number of actions and players). ``observation_dtype``
    is ``"bool"`` (plane != 0), ``"uint8"`` (``round(255 * plane)``: an
    indicator is 0 or 255, the image convention of CNN libraries) or
    ``"float32"`` (the planes of ``game.observation()``, in [0, 1];
    Wunchunk's stones-left plane is the count divided by the number of cells,
    which ``"bool"`` reduces to "any left"); ``None`` skips observations (then
    ``observations`` is ``None``). ``max_plies`` truncates an episode after
    that many complete moves (of every seat).

    ``player=k`` makes it a single-agent batch: within every step (and
    reset) the other seats move by uniformly random legal actions drawn in
    Rust, until seat ``k`` is to move again or the episode ends; rewards and
    ``episode_lengths`` count the whole game.
    """

    @keyword_only
    def __init__(self, spec: Union[str, Any, Sequence[Any]], num_envs: Optional[int] = None, *, seed: int = 0,
                 threads: Optional[int] = None, observation_dtype: Any = "bool", max_plies: Optional[int] = None,
                 copy: bool = False, player: Optional[int] = None) -> None:
        copy = bool_arg("copy", copy)
        starts: Any  # a game per env, or the one game every env starts from
        if isinstance(spec, (list, tuple)):
            starts = [_game(s) for s in spec]
        else:
            if num_envs is None:
                raise TypeError("num_envs is required with a single spec")
            starts = _game(spec)
        dtype: Optional[np.dtype[Any]] = None
        if observation_dtype is not None:
            try:
                dtype = np.dtype(observation_dtype)
            except TypeError:
                dtype = None
            if dtype not in _DTYPES:
                raise ValueError("observation_dtype must be 'bool', 'uint8', 'float32' or None (no observations), "
                                 f"got {observation_dtype!r}")
        # the core checks num_envs (and that a list has one game per env), max_plies, seed and threads
        self._v = _VecGame(starts, seed, threads, max_plies, num_envs)
        n = int(self._v.num_envs)
        if player is not None:
            if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
                raise TypeError(f"player must be an int seat or None, got {type(player).__name__}")
            self._v.autoplay = int(player)
        self.player = player
        self.num_envs = n
        self.num_actions = int(self._v.num_actions)
        self.num_players = int(self._v.num_players)
        self.observation_shape: Tuple[int, int, int] = tuple(self._v.observation_shape)  # type: ignore[assignment]
        self.observation_dtype = dtype
        self.max_plies = max_plies
        self.copy = bool(copy)
        self._obs: Optional[npt.NDArray[Any]] = (None if dtype is None
                                                 else np.zeros((n, *self.observation_shape), dtype=dtype))
        self._mask = np.zeros((n, self.num_actions), dtype=bool)
        self._rewards = np.zeros((n, self.num_players), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._to_move = np.zeros(n, dtype=np.int32)
        self._lengths = np.zeros(n, dtype=np.int64)
        self._actions = np.zeros(n, dtype=np.int64)
        self._bufs = (self._obs, self._mask, self._rewards, self._terminated, self._truncated, self._to_move,
                      self._lengths)
        # Without copy=True every step returns the same arrays: one result object serves them all.
        self._result = StepResult(cast(Any, self._obs), self._mask, self._rewards, self._terminated, self._truncated,
                                  self._to_move, self._lengths)
        self._v.reset(None, *self._bufs)

    # -- properties ------------------------------------------------------------
    @property
    def threads(self) -> int:
        return int(self._v.threads)

    @threads.setter
    def threads(self, value: int) -> None:
        self._v.threads = value

    @property
    def game_type(self) -> str:
        """``"Churn"``, ``"Wunchunk"`` or ``"Quintun"``."""
        return str(self._v.game_type)

    @property
    def specs(self) -> List[str]:
        """The spec string of every env's start position."""
        return list(self._v._start_specs())

    def spec(self, i: int) -> str:
        """The spec string of env ``i``'s current game."""
        return str(self._v._spec(i))

    # -- stepping --------------------------------------------------------------
    def _out(self, a: Any) -> Any:
        return a.copy() if self.copy and a is not None else a

    def reset(self, seed: Optional[int] = None) -> Tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]:
        """Put every env at its start; returns ``(observations, action_masks)``.
        ``seed`` reseeds the generators of ``sample_actions``."""
        self._v.reset(seed, *self._bufs)
        return self._out(self._obs), self._out(self._mask)

    def _actions_array(self, actions: Any) -> npt.NDArray[np.int64]:
        a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be an integer array, got dtype {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {a.shape}")
        if a.dtype != np.int64 or not a.flags.c_contiguous:
            if a.dtype.kind == "u" and a.size and int(a.max()) >= 2**63:
                a = np.where(a >= 2**63, -1, a)  # out of range either way (the error shows the number given)
            a = np.ascontiguousarray(a, dtype=np.int64)
        return a

    def step(self, actions: Any, active: Optional[Any] = None) -> StepResult:
        """Apply one action per env (see the module doc). ``active`` (bool per
        env) steps only the flagged envs; the others keep their state and
        their observation and mask rows."""
        given = actions
        a = self._actions_array(actions)
        act = None
        if active is not None:
            act = np.asarray(active)
            if act.dtype != np.bool_:
                raise TypeError(f"active must be a bool array (one flag per env), got dtype {act.dtype}")
            act = np.ascontiguousarray(act)
            if act.shape != (self.num_envs,):
                raise ValueError(f"active must have shape ({self.num_envs},), got {act.shape}")
        try:
            self._v.step(a, act, *self._bufs)
        except IllegalMoveError as e:
            raise self._explain(e, given) from None
        if not self.copy:
            return self._result
        return StepResult(self._out(self._obs), self._out(self._mask), self._out(self._rewards),
                          self._out(self._terminated), self._out(self._truncated), self._out(self._to_move),
                          self._out(self._lengths))

    def _explain(self, e: IllegalMoveError, given: Any) -> IllegalMoveError:
        """``e`` naming the action as given when a uint64 beyond int64 went in
        as -1 (the engine says why any other action is illegal)."""
        i, a = getattr(e, "env", None), getattr(e, "action", None)
        if i is not None and e.reason == "action_out_of_range":
            real = int(np.asarray(given)[i])
            if real != a:
                err = IllegalMoveError(f"env {i}: action {real} is out of range 0..{self.num_actions}", e.reason)
                err.env, err.action = i, real  # type: ignore[attr-defined]
                return err
        return e

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per env, drawn in Rust from each
        env's generator (0 for envs that the next step resets)."""
        self._v.sample_actions(self._actions)
        return self._actions.copy() if self.copy else self._actions

    # -- single envs -----------------------------------------------------------
    def _index(self, i: Any) -> int:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"env index must be an int, got {type(i).__name__}")
        if not 0 <= i < self.num_envs:
            raise IndexError(f"env index {i} is out of range 0..{self.num_envs}")
        return int(i)

    def get_state(self, i: int) -> Any:
        """Env ``i``'s game as an ordinary hexcore object (a copy, with its
        history: the start position plus the actions of this episode)."""
        return self._v._state(self._index(i))

    def _start(self, i: int) -> Any:
        """Env ``i``'s start position (a copy, with its history)."""
        return self._v._start(self._index(i))

    def set_state(self, i: int, game: Any) -> None:
        """Put a copy of ``game`` (same game type and shapes) in env ``i``; its
        episode goes on from there (``game.ply`` moves count towards
        ``max_plies``). The env's row of observations and mask is updated.
        With ``player=k``, give a position where seat ``k`` is to move. As
        for the constructor's starts, the position must be between turns."""
        i = self._index(i)
        if not isinstance(game, _Game):
            raise TypeError(f"set_state takes a hexcore game, got {type(game).__name__} {game!r:.40}"
                            + (" (make one with hexcore.load(spec))" if isinstance(game, str) else ""))
        self._v._set_env(i, game, int(game.ply))
        done = bool(self._v._env(i)[2])
        if self._obs is not None:
            self._obs[i] = as_dtype(game.observation(), self.observation_dtype)
        self._mask[i] = False if done else game.legal_action_mask()
        self._to_move[i] = int(game.to_move)


# ---- Gymnasium ---------------------------------------------------------------

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError:  # pragma: no cover - gymnasium is optional
    gymnasium = None  # type: ignore[assignment]
    VectorEnv = object  # type: ignore[assignment,misc]

#: ``opponent(observations, action_masks, rng) -> actions``: a batched policy
#: for the seats the learner does not play (rows of envs that are not
#: waiting for an opponent are ignored).
RENDER_MODES = ("rgb_array", "ansi")

BatchPolicy = Callable[[npt.NDArray[Any], npt.NDArray[np.bool_], np.random.Generator], npt.NDArray[np.integer]]


class HexcoreVectorEnv(VectorEnv):  # type: ignore[misc,valid-type,unused-ignore]
    """``gymnasium.vector.VectorEnv`` over a :class:`VecGame`: the learner plays
    seat ``player`` in every env and the other seats are played by
    ``opponent`` (``"random"``: uniform legal actions drawn in Rust; or a
    :data:`BatchPolicy`). One step is one learner action per env; the opponents
    reply within the same step. ``infos["action_mask"]`` is the learner's
    legal mask (bool, ``(N, num_actions)``). Rewards are the learner's seat's
    (``+1`` win, ``-1`` loss, as in ``hexcore.envs``); ``infos["is_success"]``
    (bool per env) is True where the learner won the episode that just ended.
    Autoreset is Gymnasium's next-step mode (``metadata["autoreset_mode"]``).
    With ``copy=False`` the returned arrays are the batch's reused buffers.

    ``single_observation_space`` is the single env's (``HexcoreGymEnv``) for
    float32 observations: ``Box(0, 1)``; ``uint8`` planes are the same values
    times 255 (``Box(0, 255)``), ``bool`` planes ``plane != 0``.

    ``illegal_action`` is as in ``HexcoreGymEnv``: ``"lose"`` (default) ends the
    episode of an env whose action is illegal (reward ``-1``, terminated,
    ``infos["illegal_action"]`` True there; the next step resets it), and
    ``"raise"`` raises ``IllegalMoveError`` before any env moves.
    """

    @keyword_only
    def __init__(self, game: Union[str, Any] = "churn(size=3)", num_envs: int = 8, *, player: int = 1,
                 opponent: Union[str, BatchPolicy] = "random", seed: int = 0, threads: Optional[int] = None,
                 observation_dtype: Any = "float32", max_plies: Optional[int] = None, copy: bool = True,
                 illegal_action: str = "lose", render_mode: Optional[str] = None) -> None:
        if gymnasium is None:  # pragma: no cover
            raise ImportError("HexcoreVectorEnv needs gymnasium: pip install 'hexcore[envs]'")
        if observation_dtype is None:
            raise ValueError("HexcoreVectorEnv needs observations: observation_dtype 'float32', 'uint8' or 'bool'")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {list(RENDER_MODES)} or None, got {render_mode!r}")
        builtin = isinstance(opponent, str) and opponent == "random"
        self.vec = VecGame(game, num_envs, seed=seed, threads=threads, observation_dtype=observation_dtype,
                           max_plies=max_plies, player=player if builtin else None)
        self._builtin = builtin
        self._copy = bool_arg("copy", copy)
        self._obs_buf: npt.NDArray[Any] = self.vec._obs  # type: ignore[assignment]
        if isinstance(player, bool) or not isinstance(player, int) or not 1 <= player <= self.vec.num_players:
            raise ValueError(f"player must be a seat 1..{self.vec.num_players}, got {player!r}")
        if opponent != "random" and not callable(opponent):
            raise TypeError("opponent must be 'random' or a callable (observations, masks, rng) -> actions")
        self.player = player
        self.opponent = opponent
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.num_envs = self.vec.num_envs
        self.metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": list(RENDER_MODES)}
        shape = self.vec.observation_shape
        dtype: Any = self.vec.observation_dtype
        high = 255 if dtype == np.uint8 else 1
        self.single_observation_space = spaces.Box(0, high, shape=shape, dtype=dtype)
        self.single_action_space = spaces.Discrete(self.vec.num_actions)
        self.observation_space = spaces.Box(0, high, shape=(self.num_envs, *shape), dtype=dtype)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, self.vec.num_actions))
        self._rng = np.random.default_rng(seed)
        n = self.num_envs
        self._ended = np.zeros(n, bool)     # envs whose episode ended on the last step (reset by the next)
        self._forfeit = np.zeros(n, bool)   # ... of those, the ones ended by an illegal action

    def _opponents(self, ended: npt.NDArray[np.bool_], rewards: npt.NDArray[np.float32],
                   term: npt.NDArray[np.bool_], trunc: npt.NDArray[np.bool_]) -> None:
        """Step a Python opponent policy until the learner is to move in every
        env that goes on (the built-in random opponent moves in Rust)."""
        v = self.vec
        while True:
            need = ~ended & (v._to_move != self.player)
            if not need.any():
                return
            if self._builtin:  # only envs put back at their start by a forfeit
                acts = v.sample_actions()
            else:
                policy: BatchPolicy = self.opponent  # type: ignore[assignment]
                acts = np.asarray(policy(self._obs_buf, v._mask, self._rng))
            res = v.step(acts, active=need)
            rewards += res.rewards[:, self.player - 1]
            term |= res.terminated
            trunc |= res.truncated
            ended |= res.terminated | res.truncated

    def _result(self, rewards: Any, term: Any, trunc: Any, illegal: Any) -> Any:
        v = self.vec
        c = self._copy
        infos = {"action_mask": v._mask.copy() if c else v._mask,
                 "episode_lengths": v._lengths.copy() if c else v._lengths,
                 "is_success": (term | trunc) & (rewards > 0),
                 "illegal_action": illegal}
        return self._obs_buf.copy() if c else self._obs_buf, rewards, term, trunc, infos

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Any:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.vec.reset(seed)
        n = self.num_envs
        rewards, term, trunc = np.zeros(n, np.float32), np.zeros(n, bool), np.zeros(n, bool)
        self._opponents(np.zeros(n, bool), rewards, term, trunc)
        if (term | trunc).any():
            raise ValueError("the opponents ended a game before the learner's first move")
        self._ended[:] = False
        self._forfeit[:] = False
        obs, _, _, _, infos = self._result(rewards, term, trunc, np.zeros(n, bool))
        return obs, infos

    def _illegal(self, actions: Any) -> npt.NDArray[np.bool_]:
        """Envs (among those not being reset) whose action is not a legal one."""
        v = self.vec
        a = v._actions_array(actions)
        ok = (a >= 0) & (a < v.num_actions)
        rows = np.flatnonzero(ok)
        ok[rows] = v._mask[rows, a[rows]]
        return ~ok & ~self._ended

    def step(self, actions: Any) -> Any:
        return self._step(actions, None)

    def _step(self, actions: Any, active: Optional[npt.NDArray[np.bool_]]) -> Any:
        """One step of the envs flagged ``active`` (all when None)."""
        v = self.vec
        n = self.num_envs
        act = np.ones(n, bool) if active is None else active
        illegal = np.zeros(n, bool)
        if self.illegal_action == "lose":
            illegal = self._illegal(actions) & act
        # envs ended by an illegal action are put back at their start here (VecGame never saw them end)
        restart = self._forfeit & act
        for i in np.flatnonzero(restart):
            v.set_state(int(i), v._start(int(i)))
        go = act & ~illegal & ~restart
        safe = np.where(go, v._actions_array(actions), 0)
        res = v.step(safe, active=go)
        rewards = np.where(go, res.rewards[:, self.player - 1], 0).astype(np.float32)
        term, trunc = res.terminated & go, res.truncated & go
        # Envs reset by this step (they ended on the previous one) may now
        # wait for the opponents, like those where the learner just moved.
        self._opponents(~act | illegal | term | trunc, rewards, term, trunc)
        if illegal.any():
            rewards[illegal] = -1.0
            term |= illegal
            v._mask[illegal] = False
        self._ended = np.where(act, term | trunc, self._ended)
        self._forfeit = np.where(act, illegal, self._forfeit & ~restart)
        return self._result(rewards, term, trunc, illegal)

    def render(self) -> Any:
        """``render_mode="rgb_array"``: a tuple of ``(H, W, 3)`` uint8 pictures, one
        per env; ``"ansi"``: a tuple of text diagrams."""
        if self.render_mode is None:
            return None
        from .render import rgb_array

        games = [self.vec.get_state(i) for i in range(self.num_envs)]
        if self.render_mode == "ansi":
            return tuple(str(g) for g in games)
        return tuple(rgb_array(g) for g in games)

    def close(self, **kwargs: Any) -> None:
        pass
