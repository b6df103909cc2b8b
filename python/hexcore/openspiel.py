"""OpenSpiel adapter: every hexcore game as a registered ``pyspiel`` Python game.

Importing this module registers one OpenSpiel game per entry of
``hexcore.GAMES`` under the short name ``"hexcore_<name>"`` (``hexcore_churn``,
``hexcore_wunchunk``, ``hexcore_quintun``). Each takes two parameters:

* ``spec`` (str): the hexcore spec string of the variant, default the game's
  default variant. OpenSpiel's game strings cannot hold parentheses, commas
  or ``=`` inside a value, so there the spec is written with ``[ ] ; :``
  instead: ``pyspiel.load_game("hexcore_churn(spec=churn[size:4;pie:false])")``
  (a parameter dict takes either form);
* ``max_game_length`` (int): the most actions a game lasts, reported by
  ``game.max_game_length()`` (AlphaZero and others allocate by it). The
  default (``0``: automatic) is the variant's proven bound where it has one
  (the game's ``max_actions``, from its facts table in the engine, as
  ``GameInfo.max_actions`` in ``hexcore.registry`` gives it: Quintun
  cells + 1, Wunchunk (N+1) * cells + N ...), else :data:`CUTOFF` (10,000) actions:
  Churn has no small bound (its removals let random games on side 7 run
  about 1.2 million actions). A game that reaches ``max_game_length`` actions
  before its end is cut there: the state is terminal and every return is 0
  (a draw), so ``max_game_length()`` is always true. Give a larger value for
  long random games, e.g. ``load_game("churn(size=7)", max_game_length=10**7)``.

``load_game("churn(size=4,pie=false)")`` is the convenient way to build one::

    import hexcore.openspiel as hos
    game = hos.load_game("churn(size=3)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

OpenSpiel's own example programs run with the games registered through
``python -m hexcore.openspiel MODULE_OR_SCRIPT [ARGS...]``, e.g.
``python -m hexcore.openspiel open_spiel.python.examples.mcts
--game="hexcore_churn(spec=churn[size:3])" --player1=mcts --player2=random``.

The games are sequential, deterministic, perfect information, with terminal
rewards only. OpenSpiel actions are hexcore action ids; OpenSpiel players are
``to_move - 1``. A multi-action turn is simply several consecutive OpenSpiel
moves by the same player. ``returns()`` are zero-sum: +1 for a sole winner and
-1/(N-1) for each other player, a shared win splits +1 among the winners and -1
among the others, a draw (every player a winner) is 0 for all (the core's
outcome module, ``rust/core/src/outcome.rs``).

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

from ._core import _rewards
from .records import setup_of
from .registry import GAMES, INFO
from .spec import load, parse

if TYPE_CHECKING:
    from ._core import _Game

__all__ = ["HexcoreGame", "HexcoreState", "HexcoreObserver", "load_game", "short_name", "register",
           "from_hexcore", "state_string", "encode_spec", "decode_spec", "DEFAULT_MAX_GAME_LENGTH", "CUTOFF",
           "game_length_bound", "main"]

CUTOFF = 10_000
"""Default ``max_game_length`` of the variants without a proven bound (Churn)."""
DEFAULT_MAX_GAME_LENGTH = 0
"""The parameter's default: 0 picks the variant's bound (see the module doc)."""
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


def game_length_bound(game: "_Game") -> Optional[int]:
    """The proven most actions of a game of ``game``'s variant from its start
    (``GameInfo.max_actions``: the engine's ``game.max_actions``), or None
    when the game has none."""
    gi = INFO.get(parse(game.spec)[0])
    if gi is None or gi.max_actions is None:
        return None
    return int(gi.max_actions(game))


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
        bound = game_length_bound(proto)
        max_len = int(params.get("max_game_length", DEFAULT_MAX_GAME_LENGTH))
        if max_len < 0:
            raise ValueError(f"max_game_length must be positive (or 0: the variant's bound), got {max_len}")
        if max_len == 0:
            max_len = CUTOFF if bound is None else bound
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
    def cut(self) -> Optional[int]:
        """Actions after which a game is cut (a draw), or None when its end always comes first."""
        max_len = int(self.max_game_length())
        bound = game_length_bound(self._proto)
        return max_len if bound is None or max_len < bound else None

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
        self._cut_at: Optional[int] = game.cut
        self._length = 0
        self._player = self._player_of(self._hgame)

    def _player_of(self, g: "_Game") -> int:
        return int(pyspiel.PlayerId.TERMINAL) if g.is_over or self.is_cut() else int(g.to_move) - 1

    def is_cut(self) -> bool:
        """The game reached ``max_game_length`` actions before its end (returns 0)."""
        return self._cut_at is not None and self._length >= self._cut_at and not self._hgame.is_over

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
        self._length += 1
        self._player = self._player_of(self._hgame)

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return str(self._hgame.action_to_string(int(action)))
        except (ValueError, IndexError, TypeError):
            return f"action {int(action)}"

    def is_terminal(self) -> bool:
        return self._player < 0

    def returns(self) -> List[float]:
        if self.is_cut():
            return [0.0] * int(self._hgame.num_players)
        return _rewards(self._hgame.winners, self._hgame.num_players)

    def rewards(self) -> List[float]:
        return self.returns()

    def __str__(self) -> str:
        return state_string(self._hgame, self.is_cut())


def state_string(g: "_Game", cut: bool = False) -> str:
    """The text OpenSpiel's ``str(state)`` shows: the diagram, then who is to
    move (or the winners), the actions of a turn in progress and the
    position's Zobrist key, which covers what the diagram does not show
    (the seat to move, a pending swap offer, a turn in progress). Equal
    strings mean the same position, which OpenSpiel's tabular algorithms
    (``value_iteration``, ``get_all_states(to_string=str)``) rely on."""
    lines = [g.diagram().rstrip("\n")]
    if cut:
        lines.append("game cut at max_game_length")
    elif g.is_over:
        lines.append(f"game over: winners {list(g.winners)}")
    else:
        lines.append(f"to move: player {int(g.to_move)}")
    pending = list(g.pending_actions)
    if pending:
        lines.append("turn in progress: " + " ".join(g.action_to_string(int(a)) for a in pending))
    lines.append(f"position key: {int(g.zobrist):016x}")
    return "\n".join(lines)


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
    """The OpenSpiel game for a hexcore spec string, e.g. ``load_game("churn(size=3)")``
    (``max_game_length``: see the module doc; 0 is the variant's bound)."""
    name, _ = parse(spec)
    register(name)
    canonical = load(spec).spec
    return pyspiel.load_game(short_name(name), {"spec": encode_spec(canonical), "max_game_length": int(max_game_length)})


def from_hexcore(game: "_Game") -> Any:
    """An OpenSpiel state holding a copy of the hexcore ``game`` (its variant's OpenSpiel game is loaded)."""
    return load_game(game.spec).state_from_hexcore(game)


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m hexcore.openspiel MODULE_OR_SCRIPT [ARGS...]``: run an
    OpenSpiel example (or any program) with the hexcore games registered, e.g.
    ``python -m hexcore.openspiel open_spiel.python.examples.mcts
    --game="hexcore_churn(spec=churn[size:3])" --player1=mcts --player2=random``."""
    import runpy
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print("usage: python -m hexcore.openspiel MODULE_OR_SCRIPT [ARGS...]\n\n"
              "Runs an OpenSpiel example module (open_spiel.python.examples.mcts) or a script (path.py)\n"
              "with the hexcore games registered: " + ", ".join(short_name(n) for n in GAMES) + ".\n"
              'Game strings: hexcore_churn(spec=churn[size:4;pie:false]) (spec with [ ] ; : for ( ) , =).')
        return 0 if args else 2
    import hexcore.openspiel  # noqa: F401  (registers the games in the importable module)

    target, rest = args[0], args[1:]
    sys.argv = [target, *rest]
    if target.endswith(".py"):
        runpy.run_path(target, run_name="__main__")
    else:
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
else:
    for _name in list(GAMES):
        register(_name)
