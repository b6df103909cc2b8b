"""OpenSpiel adapter: every hexcore game as a registered ``pyspiel`` Python game.

Importing this module registers one OpenSpiel game per entry of
``hexcore.GAMES`` under the short name ``"hexcore_<name>"`` (``hexcore_churn``,
``hexcore_wunchunk``, ``hexcore_quintun``). Each takes two parameters:

* ``spec`` (str): the hexcore spec string of the variant, default the game's
  default variant. OpenSpiel's game strings cannot hold parentheses, commas
  or ``=`` inside a value, so there the spec is written with ``[ ] ; :``
  instead: ``pyspiel.load_game("hexcore_churn(spec=churn[size:4;pie:false])")``
  (a parameter dict takes either form);
* ``max_game_length`` (int): the bound reported in the ``GameInfo``
  (OpenSpiel needs one; default 10**9 -- hexcore games have no small proven
  bound, e.g. random Churn on side 7 runs about 1.2 million plies).

``load_game("churn(size=4,pie=false)")`` is the convenient way to build one::

    import hexcore.openspiel as hos
    game = hos.load_game("churn(size=3)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

The games are sequential, deterministic, perfect information, with terminal
rewards only. OpenSpiel actions are hexcore action ids; OpenSpiel players are
``to_move - 1``. A multi-action turn is simply several consecutive OpenSpiel
moves by the same player. ``returns()`` are zero-sum: +1 for a sole winner and
-1/(N-1) for each other player, a shared win splits +1 among the winners and -1
among the others, a draw (every player a winner) is 0 for all (see
``hexcore._outcome``).

``observation_tensor`` is ``game.observation()`` flattened (shape
``game.observation_shape``); it is drawn from the point of view of the player
to move, whichever ``player`` asks (the game has perfect information).
``observation_string`` and ``information_state_string`` are the text diagram
plus the action history.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.observation import IIGObserverForPublicInfoGame  # type: ignore[import-untyped]

from ._outcome import game_rewards
from .records import setup_of
from .registry import GAMES, INFO
from .spec import load, parse

if TYPE_CHECKING:
    from ._core import _Game

__all__ = ["HexcoreGame", "HexcoreState", "HexcoreObserver", "load_game", "short_name", "register",
           "from_hexcore", "encode_spec", "decode_spec", "DEFAULT_MAX_GAME_LENGTH"]

DEFAULT_MAX_GAME_LENGTH = 10**9
_PREFIX = "hexcore_"


def short_name(name: str) -> str:
    """OpenSpiel short name of the hexcore game ``name`` (``"churn"`` -> ``"hexcore_churn"``)."""
    return _PREFIX + name


_ENCODE = str.maketrans({"(": "[", ")": "]", ",": ";", "=": ":"})
_DECODE = str.maketrans({"[": "(", "]": ")", ";": ",", ":": "="})


def encode_spec(spec: str) -> str:
    """A hexcore spec in the form OpenSpiel game strings can carry
    (``"churn(size=3)"`` -> ``"churn[size:3]"``)."""
    if ";" in spec or ":" in spec:
        raise ValueError(f"spec {spec!r} cannot be carried in an OpenSpiel game string (it contains ';' or ':')")
    return spec.translate(_ENCODE)


def decode_spec(text: str) -> str:
    """Inverse of :func:`encode_spec` (a plain spec is returned as it is)."""
    return text.translate(_DECODE)


def _game_type(name: str, num_players: int, default_spec: str) -> Any:
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"hexcore {INFO[name].title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(num_players, 4),
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"spec": encode_spec(default_spec), "max_game_length": DEFAULT_MAX_GAME_LENGTH},
    )


class HexcoreGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game wrapping one hexcore variant (given by its spec)."""

    game_name = next(iter(GAMES))  # set per registered subclass

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        name = self.game_name
        params = dict(params or {})
        spec = decode_spec(str(params.get("spec", GAMES[name]().spec)))
        game_name, _ = parse(spec)
        if game_name != name:
            raise ValueError(f"spec {spec!r} is not a {name} spec (registered as {short_name(name)})")
        proto: _Game = load(spec)
        max_len = int(params.get("max_game_length", DEFAULT_MAX_GAME_LENGTH))
        n = int(proto.num_players)
        # zero-sum rewards in [-1, 1]: +1 for a sole winner, -1 for a sole loser
        info = pyspiel.GameInfo(
            num_distinct_actions=int(proto.num_actions),
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_len,
        )
        full = {"spec": encode_spec(proto.spec), "max_game_length": max_len}
        super().__init__(_TYPES[name], info, full)
        self._proto_game: Optional[_Game] = proto

    @property
    def name(self) -> str:
        """The hexcore game name (``"churn"``)."""
        return self.game_name

    @property
    def spec(self) -> str:
        """The hexcore spec string of this variant."""
        return decode_spec(str(self.get_parameters()["spec"]))

    @property
    def _proto(self) -> "_Game":
        # an unpickled game carries only its parameters; rebuild the start position from them
        proto: Optional[_Game] = self.__dict__.get("_proto_game")
        if proto is None:
            proto = load(self.spec)
            self._proto_game = proto
        return proto

    def new_initial_state(self) -> "HexcoreState":
        """The variant's starting position."""
        return HexcoreState(self, self._proto.copy())

    def state_from_hexcore(self, game: "_Game") -> "HexcoreState":
        """An OpenSpiel state for a hexcore ``game`` of this variant.

        A game played from the variant's start is replayed action by action,
        so the OpenSpiel history matches; a set-up position (``from_position``)
        is copied as it is and its OpenSpiel history starts empty.
        """
        if game.spec != self.spec:
            raise ValueError(f"game is {game.spec!r}, this OpenSpiel game is {self.spec!r}")
        if setup_of(game) is not None:
            return HexcoreState(self, game.copy())
        state = self.new_initial_state()
        for a in game.actions:
            state.apply_action(int(a))
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer OpenSpiel uses for observation tensors and strings."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return HexcoreObserver(self._proto.observation_shape, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class HexcoreState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a hexcore game (``.hexcore_game``)."""

    def __init__(self, game: HexcoreGame, hgame: Optional["_Game"] = None) -> None:
        super().__init__(game)
        self._hgame: _Game = hgame if hgame is not None else game._proto.copy()
        self._player = self._player_of(self._hgame)

    @staticmethod
    def _player_of(g: "_Game") -> int:
        return int(pyspiel.PlayerId.TERMINAL) if g.is_over else int(g.to_move) - 1

    @property
    def hexcore_game(self) -> "_Game":
        """The wrapped hexcore game (mutating it directly desynchronises OpenSpiel's history)."""
        return self._hgame

    def current_player(self) -> int:
        return self._player

    def _legal_actions(self, player: int) -> List[int]:
        if player != self._player or player < 0:
            return []
        actions: List[int] = self._hgame.legal_actions().tolist()
        return actions

    def _apply_action(self, action: int) -> None:
        self._hgame.apply_action(int(action))
        self._player = self._player_of(self._hgame)

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return str(self._hgame.action_to_string(int(action)))
        except (ValueError, IndexError, TypeError):
            return f"action {int(action)}"

    def is_terminal(self) -> bool:
        return self._player < 0

    def returns(self) -> List[float]:
        return game_rewards(self._hgame)

    def rewards(self) -> List[float]:
        return game_rewards(self._hgame)

    def __str__(self) -> str:
        return str(self._hgame)


class HexcoreObserver:
    """Observer following OpenSpiel's PyObserver interface: ``tensor`` (flat
    float32) and ``dict["observation"]`` (a (C, H, W) view of it)."""

    def __init__(self, shape: Any, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params!r}")
        self.shape = tuple(int(x) for x in shape)
        self.tensor: npt.NDArray[np.float32] = np.zeros(int(np.prod(self.shape)), np.float32)
        self.dict: Dict[str, npt.NDArray[np.float32]] = {"observation": self.tensor.reshape(self.shape)}

    def set_from(self, state: HexcoreState, player: int) -> None:
        self.dict["observation"][...] = state.hexcore_game.observation()

    def string_from(self, state: HexcoreState, player: int) -> str:
        g = state.hexcore_game
        return f"{g}\nhistory: {' '.join(g.history)}\npending: {list(g.pending_actions)}"


_TYPES: Dict[str, Any] = {}
_CLASSES: Dict[str, type] = {}


def register(name: str) -> Any:
    """Register the hexcore game ``name`` with OpenSpiel (idempotent); returns its GameType."""
    if name in _TYPES:
        return _TYPES[name]
    if name not in GAMES:
        raise ValueError(f"unknown hexcore game {name!r}; known: {', '.join(sorted(GAMES))}")
    proto: _Game = GAMES[name]()
    gtype = _game_type(name, int(proto.num_players), proto.spec)
    _TYPES[name] = gtype
    if short_name(name) in pyspiel.registered_names():
        return gtype

    # OpenSpiel keeps the registered class until the process ends; a class (not
    # a closure) outlives interpreter shutdown safely.
    cls = type(f"Hexcore{INFO[name].title}Game", (HexcoreGame,), {"game_name": name, "__module__": __name__})
    _CLASSES[name] = cls
    globals()[cls.__name__] = cls  # so that games pickle
    pyspiel.register_game(gtype, cls)
    return gtype


def load_game(spec: str, max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> Any:
    """The OpenSpiel game for a hexcore spec string, e.g. ``load_game("churn(size=3)")``."""
    name, _ = parse(spec)
    register(name)
    canonical = load(spec).spec
    return pyspiel.load_game(short_name(name), {"spec": encode_spec(canonical), "max_game_length": int(max_game_length)})


def from_hexcore(game: "_Game") -> Any:
    """An OpenSpiel state holding a copy of the hexcore ``game`` (its variant's OpenSpiel game is loaded)."""
    return load_game(game.spec).state_from_hexcore(game)


for _name in list(GAMES):
    register(_name)
