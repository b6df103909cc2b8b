"""The game registry: every hexcore game by name, with the facts about it that
the rest of the package needs (records, pictures, environments, OpenSpiel).

``GAMES`` maps a game name (``"churn"``) to its engine class; ``INFO`` maps it
to a :class:`GameInfo`. Modules look games up here instead of keeping their
own per-game branches.

The facts about a game's rules (its player names, pie rule, action bound,
stone planes and which positions a symmetry may map) are declared once, in
the game's facts table beside its option table
(``rust/core/src/games/<game>/options.rs``), and read here through
``hexcore._core._game_facts``; this module declares only the Python-side
facts (pictures, search and training settings, record shapes).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from ._core import Churn, Havannah, Hex, Quintun, Wunchunk, Y, _game_facts, _game_options

__all__ = ["GameInfo", "GAMES", "INFO", "info", "lookup", "name_of", "of_class"]


@dataclass(frozen=True)
class GameInfo:
    """What hexcore knows about one game besides its engine class."""

    name: str
    """Registry and spec name (``"churn"``)."""
    cls: Any
    """The engine class (``hexcore.Churn``)."""
    player_names: Tuple[str, ...]
    """Names of the seats' colours, seat 1 first (as many as the most seats
    the game has). From the game's facts table in the engine."""
    stone_colours: Mapping[int, str] = field(default_factory=dict)
    """SVG fill of a stone with cell value ``k`` where it differs from the default palette."""
    shade_ring: bool = False
    """SVG: draw the ring cells (``board.ring``) in a darker shade (they matter to the rules)."""
    default_c: float = math.sqrt(2)
    """The exploration constant ``hexcore.search.mcts`` uses when ``c`` is not
    given, chosen by head-to-head matches at 1000 simulations a move (README
    "Search")."""
    pie_rule: Optional[Tuple[str, Any, Any]] = None
    """The option that turns the pie (swap) rule on, as ``(option, value
    when on, value when off)``, or None when the game has no such rule: the
    swap map of ``hexcore.analysis`` values the openings with the rule off
    and states what the rule does to them. From the game's facts table in
    the engine."""
    max_actions: Optional[Callable[[Any], int]] = None
    """``max_actions(game)``: a proven upper bound on the number of actions in
    a game of ``game``'s variant from its start, or None when the game has no
    small one (Churn: removals let games run long; random games on side 7
    take about 1.2 million actions). OpenSpiel's ``max_game_length`` uses it.
    The engine computes it (``game.max_actions``) from the game's facts
    table."""
    edges: Mapping[int, int] = field(default_factory=dict)
    """Sides of the board (``board.sides`` index) that belong to a seat, drawn
    in its colour: ``{side: seat}`` (a connection game's goal edges)."""
    abstractplay: Optional[str] = None
    """Shape of the game's Abstract Play record: ``"moves"`` (a JSON list of
    moves), ``"rounds"`` (an object with rounds of one move per seat) or None
    (no Abstract Play records)."""
    augment: str = "none"
    """Which training positions a board symmetry may map (``hexcore.train.symmetry``):
    ``"all"``, ``"turn_start"`` (positions before the first action of a turn)
    or ``"none"``. Where it is not ``"none"``, action ``cell * kinds + kind``
    (``kinds = num_actions // num_cells``) places on ``cell`` and the actions
    after the cell actions name no cell, or (``actions_on_grid``) a cell's
    action is its observation-grid position. From the game's facts table in the
    engine."""
    train_recipe: Callable[[Any], Dict[str, Any]] = lambda game: {}
    """``train_recipe(game)``: the training settings measured for this game
    that differ from the common recipe (``hexcore.train.config.recipe``),
    which ``python -m hexcore train`` uses for every flag not given."""
    actions_on_grid: bool = False
    """A cell's action id is its flat position in the observation grid
    (``row * width + column`` of ``board.grid_pos``: OpenSpiel's ids, Havannah
    and Y) instead of ``cell * kinds + kind``; ``hexcore.train.symmetry``
    maps such actions with the grid."""
    colour_planes: Tuple[int, ...] = ()
    """The observation planes of the neutral colours that a seat's groups
    connect (Quintun: colours A..E, planes 2-6), what the training network's
    ``features="colours"`` layer reads (``hexcore.train.torchnet``); empty
    for a game without them, which refuses that option."""
    stone_planes: bool = False
    """The observation's first ``num_players`` planes hold the stones of
    each seat's colour (1 on the cell, 0 elsewhere), the mover's first: what
    the training network's ``features="groups"`` layer reads
    (``hexcore.train.torchnet``); a game without them refuses that option.
    From the game's facts table in the engine."""

    @property
    def options(self) -> Mapping[str, str]:
        """The constructor's keyword options and the kind of value each takes
        (``"int"``, ``"ints"``, ``"str"``, ``"bool"``), from the engine's option
        table: spec strings are read by it (a bare word is a string for a
        ``"str"`` option, ``none`` included)."""
        return {name: kind for name, kind, _ in _game_options(self.name)}

    def defaults(self, **given: Any) -> Dict[str, Any]:
        """The default of each option that has one, given the options in
        ``given`` (Wunchunk's size depends on the players), from the engine's
        option table, where each default is declared once."""
        return {name: d for name, _, d in _game_options(self.name, given) if d is not None}

    @property
    def title(self) -> str:
        """Display name (``"Churn"``)."""
        return str(self.cls.__name__)

    @property
    def reference_name(self) -> str:
        """Name of the pure-Python reference class in ``hexcore.reference``."""
        return str(self.cls.__name__)


def _max_actions(game: Any) -> int:
    """``GameInfo.max_actions`` of a game whose facts table has an action
    bound: the engine's, for ``game``'s variant."""
    return int(game.max_actions)


def _info(name: str, cls: Any, **python_facts: Any) -> GameInfo:
    """The :class:`GameInfo` of the game ``name``: the facts of its table in
    the engine, with the Python-side facts ``python_facts``."""
    facts = _game_facts(name)
    return GameInfo(name, cls, facts["player_names"], pie_rule=facts["pie_rule"],
                    max_actions=_max_actions if facts["bounded"] else None,
                    stone_planes=facts["stone_planes"], augment=facts["augment"], **python_facts)


def _churn_recipe(game: Any) -> Dict[str, Any]:
    # nothing these networks learn reaches the search on Churn (the training guide); the settings that came closest
    cells = int(game.board.num_cells)
    return {"random_plies": 60 if cells <= 19 else 2 * cells, "curriculum": 50, "value_steps": 8}


INFO: Dict[str, GameInfo] = {
    "churn": _info("churn", Churn, abstractplay="moves", train_recipe=_churn_recipe),
    "quintun": _info("quintun", Quintun, stone_colours={1: "#111111", 2: "#f4f4f4"}, shade_ring=True, default_c=0.1,
                     train_recipe=lambda game: {"random_plies": 20}, colour_planes=(2, 3, 4, 5, 6)),
    "wunchunk": _info("wunchunk", Wunchunk, default_c=0.1, abstractplay="rounds",
                      train_recipe=lambda game: {"random_plies": 20}),
    "hex": _info("hex", Hex, edges={0: 1, 3: 1, 1: 2, 4: 2}),
    "y": _info("y", Y, actions_on_grid=True),
    "havannah": _info("havannah", Havannah, actions_on_grid=True),
}

GAMES: Dict[str, Any] = {name: gi.cls for name, gi in INFO.items()}

_BY_CLASS: Dict[Any, GameInfo] = {gi.cls: gi for gi in INFO.values()}


def of_class(cls: Any) -> Optional[GameInfo]:
    """The :class:`GameInfo` of the engine class ``cls`` (exactly that class), or None."""
    return _BY_CLASS.get(cls)


def lookup(name: str) -> GameInfo:
    """The :class:`GameInfo` of the game ``name``; ``ValueError`` naming the known games otherwise."""
    try:
        return INFO[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(sorted(INFO))}") from None


def name_of(game: Any) -> str:
    """Registry name of a game object (an engine game or a pure-Python reference)."""
    spec = getattr(game, "spec", None)
    if isinstance(spec, str):
        from .spec import parse

        return parse(spec)[0]
    return type(game).__name__.lower()


def info(game: Any) -> Optional[GameInfo]:
    """The :class:`GameInfo` of a game object, or None for a game hexcore does not know."""
    return INFO.get(name_of(game))
