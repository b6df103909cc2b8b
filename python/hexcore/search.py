"""Monte Carlo tree search: UCT with uniformly random rollouts, in Rust.

>>> import hexcore as hc
>>> from hexcore.search import mcts
>>> r = mcts(hc.Churn(size=3), simulations=500, threads=1)
>>> r.simulations, int(r.visits.sum())
(500, 500)
>>> r.move == r.pv[0]
True

The tree is built one action at a time, so the multi-stone turns of
Wunchunk and the EXTEND turns of Quintun are searched without listing whole
moves; ``move`` is still a whole turn that ``game.play()`` accepts. Values
are per player in [0, 1]: a win counts 1, a win shared by k players 1/k each,
a loss 0, and a rollout cut off after ``max_rollout_plies`` moves 1/players
for everyone. ``threads`` grow independent trees (root parallelism) whose
root statistics are summed; one thread with a simulation budget only is
fully deterministic for a given ``seed``.

``solver=True`` (two-player games) makes it MCTS-Solver (Winands, Björnsson
and Saito 2008): finished games in the tree are proven wins, losses or
draws, proofs are backed up (a position is a win for its mover when some
move wins, and takes its moves' best value when all are proven), proven
positions are not searched again, and the move played is a proven win when
there is one and avoids proven losses while it can. ``SearchResult.proven``
and ``proven_actions`` report what was proved.

>>> r = mcts(hc.Hex(size=3), simulations=200_000, threads=1, solver=True)
>>> r.proven, r.proven_actions[r.action], r.simulations < 200_000
('win', 'win', True)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._args import bool_arg as _bool
from ._args import callback_arg, keyword_only
from ._args import number_arg as _number
from ._types import Evaluator, Game
from .registry import INFO, of_class

__all__ = ["MCTS", "SearchResult", "mcts", "default_c", "DEFAULT_C"]


@dataclass(frozen=True)
class SearchResult:
    """The result of :func:`mcts`, for the player to move.

    ``move`` is the chosen whole turn (text for ``game.play()``) and
    ``action`` its first action (the most visited root action). ``visits``
    (int64) and ``values`` (float32, mean value in [0, 1] for the player to
    move; 0 where not visited) are indexed by action id over
    ``game.num_actions``. ``pv`` is the principal variation as action texts
    (the most visited action at each level).

    With ``solver=True``: ``proven`` is the position's proven value for the
    player to move (``"win"``, ``"loss"`` or ``"draw"``; ``None`` while
    unproven) and ``proven_actions`` maps each proven root action id to its
    value for the player to move (for a turn of several actions, the value
    of the best turn that starts with it); ``action`` is then a proven win
    whenever one is proven, and not a proven loss unless all are, and
    ``pv`` follows the same rule at each level. Without the solver they are
    ``None`` and ``{}``.
    """

    move: str
    action: int
    visits: np.ndarray = field(repr=False)
    values: np.ndarray = field(repr=False)
    pv: List[str]
    simulations: int
    seconds: float
    nodes: int = 0
    proven: Optional[str] = None
    proven_actions: Dict[int, str] = field(default_factory=dict, repr=False)

    @property
    def simulations_per_second(self) -> float:
        return self.simulations / self.seconds if self.seconds > 0 else 0.0






#: The default exploration constant ``c`` per game (by class name), chosen by
#: head-to-head matches at 1000 simulations a move (README "Search"); a view
#: of ``GameInfo.default_c`` in the registry, where each game declares it.
DEFAULT_C: Dict[str, float] = {gi.title: gi.default_c for gi in INFO.values()}


def default_c(game: Game) -> float:
    """The exploration constant ``mcts`` and ``MCTS`` use for ``game`` when ``c`` is not given.

    Args:
        game: a game of any type.

    Returns:
        The game's UCB1 constant: sqrt(2) where its registry entry gives none.
    """
    gi = of_class(type(game))
    return math.sqrt(2) if gi is None else gi.default_c


def _c_arg(game: Game, c: Optional[float]) -> float:
    """``c``, or the game's default; its range is checked in the core."""
    return default_c(game) if c is None else _number("c", c)


@keyword_only
def mcts(game: Game, *, simulations: Optional[int] = None, seconds: Optional[float] = None,
         threads: Optional[int] = None, seed: int = 0, c: Optional[float] = None,
         max_rollout_plies: int = 1000, max_nodes: int = 10_000_000, solver: bool = False,
         progress: Optional[Callable[[float], None]] = None) -> SearchResult:
    """Search ``game``'s position (between turns, not finished) with UCT.

    Stops after ``simulations`` (total over the threads) or ``seconds``,
    whichever comes first; at least one budget is required. However short
    ``seconds`` is, every tree runs at least one simulation, so the move
    always comes from the search (``simulations >= 1``). ``threads``
    (default: all cores) grow independent trees from seeds derived from
    ``seed``. ``c`` is the UCB1 exploration constant (default: the game's,
    :func:`default_c`: sqrt(2) for Churn, 0.1 for Quintun and Wunchunk). The trees together
    hold at most ``max_nodes`` nodes; after that simulations continue as
    rollouts from the leaves. The GIL is released and Ctrl-C interrupts.
    The game is not changed.

    ``solver=True`` (two-player games only) uses proven values in the
    trees (MCTS-Solver, see the module documentation); a tree stops
    searching once its root is proven, so ``simulations`` may then be fewer
    than asked. ``solver=False`` (the default) is plain UCT, with the same
    results as without the option.

    ``progress(seconds)`` (optional) is called with the seconds so far
    about every 20 ms, from the calling thread, while the search runs; an
    exception it raises stops the search at once and propagates (the way to
    cancel a search from another thread: raise when a flag is set).

    Args:
        game: the position to search (not changed).
        simulations: the simulation budget, total over the threads.
        seconds: the time budget in seconds.
        threads: independent trees grown at once (None: one per core).
        seed: the seed the trees' seeds derive from.
        c: the UCB1 exploration constant (None: :func:`default_c`).
        max_rollout_plies: the longest random rollout, in plies.
        max_nodes: the most nodes the trees hold together.
        solver: MCTS-Solver's proven values (two-player games only).
        progress: ``progress(seconds)``, called about every 20 ms.

    Returns:
        The root's statistics and the chosen move, as a :class:`SearchResult`.

    Raises:
        GameOverError: the game is over.
        IllegalMoveError: a turn is in progress (reason ``mid_turn``).
        ValueError: a bad budget or option, or ``solver=True`` on a game of
            three or four players.
        TypeError: an argument of the wrong type.
    """
    simulations, seconds = _budget(simulations, seconds)
    r = _core._mcts(game, simulations, seconds, threads,
                    *_options(game, seed, c, max_rollout_plies, max_nodes, solver), _progress(progress))
    return _result(r)


def _progress(progress: Optional[Callable[[float], None]]) -> Optional[Callable[[float], None]]:
    """``progress``, checked: a callable or None."""
    checked: Optional[Callable[[float], None]] = callback_arg("progress", progress, "(seconds)")
    return checked


def _options(game: Game, seed: int, c: Optional[float], max_rollout_plies: int,
             max_nodes: int, solver: bool) -> Tuple[int, float, int, int, bool]:
    """The search options shared by ``mcts`` and ``MCTS``: (seed, c,
    max_rollout_plies, max_nodes, solver). The ints go to the core as
    given: ``threads``, ``seed``, ``max_rollout_plies`` and ``max_nodes``
    are checked where they enter it (``limits.rs``), as for every call, and
    so is whether the game has two players for ``solver``."""
    return (seed, _c_arg(game, c), max_rollout_plies, max_nodes, _bool("solver", solver))


def _result(r: Dict[str, Any]) -> SearchResult:
    return SearchResult(
        move=r["move"],
        action=r["action"],
        visits=r["visits"],
        values=r["values"],
        pv=list(r["pv"]),
        simulations=r["simulations"],
        seconds=r["seconds"],
        nodes=r["nodes"],
        proven=r["proven"],
        proven_actions=dict(r["proven_actions"]),
    )


def _budget(simulations: Optional[int], seconds: Optional[float]) -> Tuple[Optional[int], Optional[float]]:
    """The budget with ``seconds`` as a float; whether there is one and its
    range are checked in the core."""
    return simulations, None if seconds is None else _number("seconds", seconds)


class MCTS:
    """A UCT search that keeps its tree from move to move.

    ``MCTS(game, ...)`` takes a copy of ``game`` (between turns) and the
    parameters of :func:`mcts`. :meth:`search` adds simulations to the tree
    and returns a :class:`SearchResult` whose ``visits`` and ``values``
    count every simulation in the kept tree (``simulations`` counts this
    call's). :meth:`advance` plays a whole move on the search's own game and
    keeps the subtree below it, so the simulations already spent on that
    line are not lost (all but the one that ended at the new root before it
    had children: the kept root holds what its actions hold, so ``visits``
    always sums to :attr:`root_visits`); the rest of the tree is freed. With ``threads`` > 1
    each thread keeps and advances its own tree (root parallelism). One
    thread with simulation budgets only is fully deterministic for a given
    ``seed``, also across ``advance``. With ``solver=True`` the proofs stay
    in the kept tree; a search whose root is already proven runs no
    simulation and reports the proven choice.

    >>> import hexcore as hc
    >>> from hexcore.search import MCTS
    >>> m = MCTS(hc.Churn(size=3), threads=1)
    >>> r = m.search(simulations=300)
    >>> kept = int(r.visits[r.action])
    >>> m.advance(r.move) == r.move, m.root_visits == kept - 1
    (True, True)
    >>> int(m.search(simulations=100).visits.sum()) == m.root_visits == kept - 1 + 100
    True
    """

    @keyword_only
    def __init__(self, game: Game, *, threads: Optional[int] = None, seed: int = 0, c: Optional[float] = None,
                 max_rollout_plies: int = 1000, max_nodes: int = 10_000_000, solver: bool = False) -> None:
        self._m = _core._MCTS(game, threads, *_options(game, seed, c, max_rollout_plies, max_nodes, solver))
        self.threads: int = self._m.threads

    @keyword_only
    def search(self, simulations: Optional[int] = None, *, seconds: Optional[float] = None,
               progress: Optional[Callable[[float], None]] = None) -> SearchResult:
        """Add ``simulations`` (total over the threads) or ``seconds`` of
        search, whichever ends first (at least one simulation per tree), and report the root.
        The GIL is released and Ctrl-C
        interrupts (the simulations done so far stay in the tree), as does
        an exception of ``progress`` (see :func:`mcts`).

        Args:
            simulations: the simulation budget of this call.
            seconds: the time budget of this call.
            progress: ``progress(seconds)``, called about every 20 ms.

        Returns:
            The root of the kept tree, as a :class:`SearchResult`.

        Raises:
            GameOverError: the game is over.
            ValueError: a bad budget.
            TypeError: a budget of the wrong type.
        """
        simulations, seconds = _budget(simulations, seconds)
        return _result(self._m.search(simulations, seconds, _progress(progress)))

    def advance(self, move: Union[str, int]) -> str:
        """Play ``move`` on the search's own game and keep its subtree. A
        bad move changes nothing.

        Args:
            move: a whole move in the game's notation, as ``game.play()``
                takes it, or an action id that is a whole turn.

        Returns:
            The move's text.

        Raises:
            NotationError: ``move`` is not a move's text.
            IllegalMoveError: ``move`` is not legal here.
            GameOverError: the game is over.
        """
        if isinstance(move, np.integer):
            move = int(move)
        return self._m.advance(move)

    @property
    def game(self) -> Game:
        """A copy of the position being searched (with its history)."""
        return self._m.game

    @property
    def nodes(self) -> int:
        """Nodes in the tree(s)."""
        return self._m.nodes

    tree_size = nodes

    @property
    def root_visits(self) -> int:
        """Simulations through the root kept in the tree(s)."""
        return self._m.root_visits


# ------------------------------------------------------------------ batched

#: ``evaluator(observations, masks) -> (priors, values)``: observations
#: float32 ``(L, C, H, W)`` (``game.observation()`` stacked), masks bool
#: ``(L, num_actions)`` (``game.legal_action_mask()`` stacked), both
#: read-only views of buffers the search reuses (and the next search
#: once nothing holds them; copy them to keep them);
#: priors ``(L, num_actions)`` (finite, >= 0, renormalised over the legal
#: actions; float32 priors are kept as given and divided by their sum in
#: float64, exactly ``p / p.sum()``, other dtypes are normalised in float64
#: and then kept as float32) and values ``(L, num_players)`` (finite, seat
#: ``k`` in column ``k - 1``), any numeric dtype.


@dataclass(frozen=True)
class BatchedSearchResult:
    """The result of :func:`batched_search` / :meth:`BatchedMCTS.search`, one
    row per game.

    ``actions`` (int64, ``(B,)``): the chosen action of each root; PUCT the
    most visited (ties: higher root prior, then lower id), Gumbel the winner
    of sequential halving (argmax of gumbel + logits + sigma(completed Q)
    among the most visited considered actions). ``policies`` (float32,
    ``(B, num_actions)``): the training targets; PUCT the root visit shares
    (the noised root priors while no child is visited, i.e.
    ``simulations=1``), Gumbel the improved policy softmax(logits +
    sigma(completed Q)). ``visits`` (int64, ``(B, num_actions)``): root
    visit counts, kept ones included; a fresh root's row sums to
    ``simulations - 1`` (its first simulation evaluates it).
    ``root_values`` (float32, ``(B, num_players)``): mean backed-up value per
    seat over the root's simulations, its own evaluation included.
    ``q_values`` (float32, ``(B, num_actions)``): for the player to move at
    the root, the mean value of each visited action, the root's mixed value
    (mctx's completion) for unvisited legal actions, 0 for illegal ones.
    ``simulations`` is per tree; ``evaluations`` counts the evaluator calls.
    """

    actions: np.ndarray = field(repr=False)
    policies: np.ndarray = field(repr=False)
    visits: np.ndarray = field(repr=False)
    root_values: np.ndarray = field(repr=False)
    q_values: np.ndarray = field(repr=False)
    simulations: int
    evaluations: int


class BatchedMCTS:
    """Batched AlphaZero searches of many games that keep their trees.

    ``BatchedMCTS(games, evaluator, **options)`` copies ``games`` (at least
    one, all of one type and spec, none finished; they may be in the middle
    of a turn: the trees are over actions) and takes the options of
    :func:`batched_search`. :meth:`search` adds simulations to every tree
    and reports the roots; :meth:`advance` plays one action per root and
    keeps the subtree below it (its visits become the new root's);
    :attr:`games` are the current roots.

    >>> import numpy as np
    >>> import hexcore as hc
    >>> from hexcore.search import BatchedMCTS
    >>> def uniform(obs, masks):
    ...     return masks, np.full((len(obs), 2), 0.5, np.float32)
    >>> m = BatchedMCTS([hc.Churn(size=3)] * 2, uniform, algorithm="gumbel", threads=1)
    >>> r = m.search(32)
    >>> kept = r.visits[np.arange(2), r.actions]
    >>> m.advance(r.actions)
    >>> bool((m.search(8).visits.sum(axis=1) == kept + 8 - 1).all())
    True
    """

    @keyword_only
    def __init__(self, games: Sequence[Game], evaluator: Evaluator, *, algorithm: str = "puct",
                 c_puct: float = 1.25, dirichlet_alpha: float = 0.3, dirichlet_fraction: float = 0.25,
                 max_considered: int = 16, gumbel_scale: float = 1.0, leaves_per_tree: int = 1,
                 threads: Optional[int] = None, seed: int = 0, relative_values: Optional[bool] = None) -> None:
        self._m = _native(games, evaluator, algorithm, c_puct, dirichlet_alpha, dirichlet_fraction, max_considered,
                          gumbel_scale, leaves_per_tree, threads, seed, relative_values, keep_games=True)

    def search(self, simulations: int) -> BatchedSearchResult:
        """Run ``simulations`` more simulations in every tree (one evaluator
        call per wave for all trees). An exception of the evaluator
        (KeyboardInterrupt included) comes out unchanged. A failed search
        keeps the waves finished before the failure.

        Args:
            simulations: simulations to add to each tree.

        Returns:
            The roots, as a :class:`BatchedSearchResult`.

        Raises:
            GameOverError: a root is finished.
            ValueError: a bad evaluator answer or ``simulations``.
        """
        return BatchedSearchResult(*self._m.search(simulations))

    def advance(self, actions: Union[Sequence[int], npt.NDArray[np.integer[Any]]]) -> None:
        """Play ``actions[i]`` on root ``i`` and keep the subtrees below
        them. A failed call changes nothing.

        Args:
            actions: one action id per game.

        Raises:
            ValueError: not one action per game.
            IllegalMoveError: an illegal action (the message names the game).
        """
        self._m.advance([int(a) if isinstance(a, np.integer) else a for a in actions])

    def replace(self, index: int, game: Game) -> None:
        """Put a copy of ``game`` in place of game ``index`` with a fresh
        tree; the other trees stay (self-play starts a new game where one
        finished). A failed call changes nothing.

        Args:
            index: the game to replace.
            game: the new root (copied).

        Raises:
            ValueError: an index out of range, or a game of another type or spec.
            GameOverError: ``game`` is over.
        """
        self._m.replace(index, game)

    @property
    def games(self) -> List[Game]:
        """Copies of the current roots (with their histories)."""
        return self._m.games

    @property
    def root_visits(self) -> np.ndarray:
        """Simulations through each root (int64, ``(B,)``), those kept by
        :meth:`advance` included."""
        return self._m.root_visits


@keyword_only
def batched_search(games: Sequence[Game], evaluator: Evaluator, simulations: int, *, algorithm: str = "puct",
                   c_puct: float = 1.25, dirichlet_alpha: float = 0.3, dirichlet_fraction: float = 0.25,
                   max_considered: int = 16, gumbel_scale: float = 1.0, leaves_per_tree: int = 1,
                   threads: Optional[int] = None, seed: int = 0,
                   relative_values: Optional[bool] = None) -> BatchedSearchResult:
    """Search every game of ``games`` (AlphaZero style), evaluating the
    leaves of all trees in one ``evaluator`` call per wave.

    ``simulations`` per tree (the first evaluates the root). ``algorithm``:

    * ``"puct"``: PUCT with ``c_puct``; the root priors are mixed with
      Dirichlet(``dirichlet_alpha``) noise of weight ``dirichlet_fraction``
      (0 turns it off). ``policies`` are the root visit shares.
    * ``"gumbel"``: Gumbel AlphaZero (as mctx's ``gumbel_muzero_policy``):
      Gumbel-top-k of ``max_considered`` root actions, sequential halving of
      the budget among them, the deterministic rule below the root;
      ``policies`` are the improved policy. ``gumbel_scale=0`` makes the
      root choice deterministic.

    Values are per seat (max^n): every node picks by its own mover's values,
    so two, three and four players work alike. The evaluator's ``values``
    give seat ``k`` in column ``k - 1``, or with ``relative_values=True``
    the player to move in column 0 and the ``k``-th seat after it in column
    ``k`` (the order of the observation planes, so a network need not learn
    whose turn it is); the default ``None`` reads the evaluator's
    ``relative_values`` attribute (False without one). ``leaves_per_tree`` leaves
    are selected per tree per wave with a virtual loss (a bigger batch for a
    few games). The Rust work runs over ``threads`` (default: all cores)
    without the GIL, which is taken only to call the evaluator; Ctrl-C
    interrupts. The same ``seed`` gives the same result for any thread
    count. The games are not changed.

    An exception raised by the evaluator propagates unchanged.

    Args:
        games: the roots (at least one, all of one type and spec, none
            finished; a turn may be in progress).
        evaluator: ``evaluator(observations, masks) -> (priors, values)``.
        simulations: simulations per tree (the first evaluates the root).
        algorithm: ``"puct"`` or ``"gumbel"``.
        c_puct: PUCT's exploration constant.
        dirichlet_alpha: the root noise's Dirichlet parameter (``"puct"``).
        dirichlet_fraction: the root noise's weight (``"puct"``; 0: none).
        max_considered: root actions Gumbel-top-k keeps (``"gumbel"``).
        gumbel_scale: the Gumbel noise's scale (0: a deterministic root).
        leaves_per_tree: leaves selected per tree per wave.
        threads: threads of the Rust work (None: one per core).
        seed: the seed of the noise; the same for any thread count.
        relative_values: whether the evaluator's values start at the
            player to move (None: its ``relative_values`` attribute).

    Returns:
        Each root's action, policy, visits and values, as a
        :class:`BatchedSearchResult`.

    Raises:
        TypeError: an argument of the wrong type.
        ValueError: bad arguments (no games, games of different types or
            specs, ``simulations < 1``, bad constants) or a bad evaluator
            answer (shapes, dtypes, NaN or infinity, negative priors, priors
            all zero on the legal actions).
        GameOverError: a game is over.

    >>> import numpy as np
    >>> import hexcore as hc
    >>> from hexcore.search import batched_search
    >>> def uniform(obs, masks):
    ...     return masks.astype(np.float32), np.full((len(obs), 2), 0.5, np.float32)
    >>> r = batched_search([hc.Churn(size=3), hc.Churn(size=3)], uniform, simulations=20)
    >>> r.policies.shape, r.root_values.shape, r.visits.sum(axis=1).tolist()
    ((2, 20), (2, 2), [19, 19])
    """
    # A one-off search: its trees are dropped after it, and it keeps no
    # copies of the games for ``BatchedMCTS.games``.
    m = _native(games, evaluator, algorithm, c_puct, dirichlet_alpha, dirichlet_fraction, max_considered,
                gumbel_scale, leaves_per_tree, threads, seed, relative_values, keep_games=False)
    return BatchedSearchResult(*m.search(simulations))


def _native(games: Sequence[Game], evaluator: Evaluator, algorithm: str, c_puct: float, dirichlet_alpha: float,
            dirichlet_fraction: float, max_considered: int, gumbel_scale: float, leaves_per_tree: int,
            threads: Optional[int], seed: int, relative_values: Optional[bool], keep_games: bool) -> _core._BatchedMCTS:
    """The native searches behind :class:`BatchedMCTS` and
    :func:`batched_search` (``relative_values=None``: the evaluator's
    attribute of that name, False without one)."""
    if relative_values is None:
        relative_values = bool(getattr(evaluator, "relative_values", False))
    return _core._BatchedMCTS(list(games), evaluator, algorithm, c_puct, dirichlet_alpha, dirichlet_fraction,
                              max_considered, gumbel_scale, leaves_per_tree, threads, seed, relative_values,
                              keep_games)


__all__ += ["BatchedMCTS", "BatchedSearchResult", "Evaluator", "batched_search"]
