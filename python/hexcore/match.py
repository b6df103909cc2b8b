"""Matches between bots, and a terminal game against a bot.

A player is given by a spec: ``random`` (uniformly random actions, one at a
time, so multi-stone turns need no move list), ``mcts:N`` (UCT with N
simulations per move, see :func:`hexcore.search.mcts`), ``mcts:time=S``
(UCT with S seconds per move; either takes ``,c=X`` for the exploration
constant, e.g. ``mcts:1000,c=0.1``), or ``openspiel:N`` / ``openspiel:time=S``:
OpenSpiel's Python ``MCTSBot`` (UCT, ``uct_c=2``, one random rollout per
simulation, solver on) driving hexcore's registered OpenSpiel game, with N
simulations or S seconds per action (needs the ``open_spiel`` package), or
``az:PATH`` / ``az:PATH,sims=N``: a trained agent (a checkpoint file or run
folder of ``python -m hexcore train``, or a network exported to ``.npz``),
its network alone or with N simulations of Gumbel search per action (see
:mod:`hexcore.train`), ``agent`` / ``agent:sims=N``: the agent shipped with
the package for the match's game (:mod:`hexcore.agents`; no PyTorch
needed), or ``solver`` / ``solver:time=S``: the proven best move whenever
:func:`hexcore.solve` settles the position within the budget (S seconds a
move, default 1), else the move of UCT search in the time left.

>>> from hexcore.match import play_match
>>> r = play_match("churn(size=3)", ["mcts:50", "random"], games=2, seed=0)
>>> r.games, [p.games for p in r.players]
(2, [2, 2])

Seats rotate game by game: in game ``g`` (from 0) player ``i`` (from 0)
takes seat ``(i + g) % seats + 1``. A game counts as a win for a player when
it is the only winner; a shared win or a game without a winner counts as a
draw for every player. Everything is seeded: the random players draw from a
``random.Random`` seeded from ``(seed, game, player)`` and every MCTS search
gets a seed derived from ``(seed, game, ply)`` and runs on one thread, so
one match seed gives the same games every time, however many games
:func:`play_match` plays at once.
"""
from __future__ import annotations

import hashlib
import math
import os
import random
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, TextIO, Tuple, TypeVar

from . import _core
from ._args import keyword_only
from ._types import Game
from .errors import HexcoreError
from .search import SearchResult, mcts
from .spec import load

__all__ = ["Player", "Cancelled", "OpenSpielBot", "Record", "MatchResult", "parse_player", "wilson", "play_game", "play_match", "play_loop",
           "seating", "load_agents", "play_at_once", "play_player_turn"]

Z95 = 1.959963984540054


@keyword_only
def wilson(wins: int, n: int, *, z: float = Z95) -> Tuple[float, float]:
    """The Wilson score interval of a success rate.

    Args:
        wins: successes.
        n: trials.
        z: the normal quantile of the interval (95% by default).

    Returns:
        ``(low, high)``; ``(0.0, 1.0)`` when ``n`` is 0.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)


@dataclass(frozen=True)
class Player:
    """A parsed player spec: ``kind`` is ``"random"``, ``"mcts"`` or
    ``"openspiel"``, with a budget of ``simulations`` or ``seconds`` per
    move (0 where unused) and, for ``mcts``, the exploration constant ``c``
    (``None``: the default of :func:`hexcore.search.mcts`)."""

    kind: str
    simulations: int = 0
    seconds: float = 0.0
    c: Optional[float] = None
    path: Optional[str] = None

    @property
    def name(self) -> str:
        if self.kind == "random":
            return "random"
        if self.kind == "agent":
            return "agent" + (f":sims={self.simulations}" if self.simulations else "")
        if self.kind == "solver":
            return f"solver:time={self.seconds:g}"
        if self.kind == "az":
            return f"az:{self.path}" + (f",sims={self.simulations}" if self.simulations else "")
        budget = f"time={self.seconds:g}" if self.seconds else str(self.simulations)
        return f"{self.kind}:{budget}" + ("" if self.c is None else f",c={self.c:g}")


#: the player specs, for help texts and errors
PLAYER_SPECS = ("random, mcts:N, mcts:time=S (either with ,c=X for the exploration constant), openspiel:N, "
                "openspiel:time=S, agent, agent:sims=N (the shipped agent of the game), az:PATH, az:PATH,sims=N "
                "(a trained checkpoint, run folder or exported .npz), solver, solver:time=S")
_SPEC_HELP = f"use one of: {PLAYER_SPECS}"


def parse_player(spec: str) -> Player:
    """Reads a player spec.

    Args:
        spec: ``random``, ``mcts:N`` / ``openspiel:N`` (N >= 1 simulations)
            or ``mcts:time=S`` / ``openspiel:time=S`` (S > 0 seconds, at
            most a day); ``mcts`` also takes ``,c=X`` (X >= 0, e.g.
            ``mcts:1000,c=0.1``); ``az:PATH`` or ``az:PATH,sims=N`` (N >= 0;
            the path keeps its case); ``agent`` or ``agent:sims=N`` (N >= 0);
            ``solver`` or ``solver:time=S`` (S > 0, default 1).

    Returns:
        The :class:`Player`.

    Raises:
        ValueError: not one of those specs.
        TypeError: ``spec`` is not a string.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a player spec must be a string, got {type(spec).__name__}")
    if spec.strip()[:3].lower() == "az:":
        return _parse_az(spec)
    s = spec.strip().lower()
    if s == "random":
        return Player("random")
    kind, sep, arg = s.partition(":")
    if kind == "agent":
        if not sep:
            return Player("agent")
        if not arg.startswith("sims=") or not arg[5:].isdigit():
            raise ValueError(f"bad player spec {spec!r}: agent:sims=N needs a whole number N >= 0 of simulations")
        return Player("agent", int(arg[5:]))
    if kind == "solver":
        if not sep:
            return Player("solver", 0, 1.0)
        return Player("solver", 0, _seconds(spec, arg, "solver"))
    if kind in ("mcts", "openspiel") and sep:
        arg, comma, rest = arg.partition(",")
        c: Optional[float] = None
        if comma:
            if kind != "mcts" or not rest.startswith("c="):
                raise ValueError(f"bad player spec {spec!r}: only mcts takes an option, ',c=X'")
            try:
                c = float(rest[2:])
            except ValueError:
                c = math.nan
            if not (math.isfinite(c) and c >= 0):
                raise ValueError(f"bad player spec {spec!r}: c=X needs a number X >= 0")
        if arg.startswith("time="):
            return Player(kind, 0, _seconds(spec, arg, kind), c)
        if not arg.isdigit() or int(arg) < 1:
            raise ValueError(f"bad player spec {spec!r}: {kind}:N needs a whole number N >= 1 of simulations "
                             f"(or {kind}:time=S for S seconds per move)")
        return Player(kind, int(arg), 0.0, c)
    raise ValueError(f"bad player spec {spec!r}: {_SPEC_HELP}")


def _seconds(spec: str, arg: str, kind: str) -> float:
    """The S of ``time=S`` (0 < S <= a day)."""
    try:
        t = float(arg[5:]) if arg.startswith("time=") else math.nan
    except ValueError:
        t = math.nan
    if not (math.isfinite(t) and 0 < t <= 86400):
        raise ValueError(f"bad player spec {spec!r}: {kind}:time=S needs a number of seconds S > 0")
    return t


def _parse_az(spec: str) -> Player:
    arg = spec.strip()[3:]
    sims = 0
    head, sep, tail = arg.rpartition(",sims=")
    if sep:
        if not tail.isdigit():
            raise ValueError(f"bad player spec {spec!r}: az:PATH,sims=N needs a whole number N >= 0 of simulations")
        sims, arg = int(tail), head
    else:
        # a typo of the one option ('az:run,sim=64') is an error, not a path that does not exist
        head, comma, tail = arg.rpartition(",")
        if comma and "=" in tail and not os.path.exists(arg):
            raise ValueError(f"bad player spec {spec!r}: az takes one option, ',sims=N' (got {tail!r})")
    if not arg:
        raise ValueError(f"bad player spec {spec!r}: az:PATH needs the path of a checkpoint or run folder")
    return Player("az", sims, 0.0, None, arg)


def az_agent(p: Player, spec: Optional[str] = None) -> Any:
    """The agent of an ``az`` or ``agent`` player.

    Args:
        p: an ``az`` player (its checkpoint or exported network is loaded)
            or an ``agent`` player (the shipped agent of the game ``spec``).
        spec: the game played (needed for ``agent``).

    Returns:
        The :class:`hexcore.train.agent.AZAgent`.

    Raises:
        ValueError: an ``agent`` player without ``spec``, or a game without
            a shipped agent.
    """
    from .train.agent import AZAgent, load_evaluator

    if p.kind == "agent":
        from . import agents

        if spec is None:
            raise ValueError("the agent player needs the game it plays")
        return AZAgent(agents.load(spec), p.simulations)
    assert p.path is not None
    return AZAgent(load_evaluator(p.path), p.simulations)


def load_agents(players: Sequence[Player], spec: str) -> Dict[int, Any]:
    """Loads every ``az`` and ``agent`` player once, for all the games of a
    match or an analysis (the ``agents`` of :func:`play_game`).

    Args:
        players: the players, by index.
        spec: the game played.

    Returns:
        The agent of each ``az`` and ``agent`` player (:func:`az_agent`) by
        player index.
    """
    return {i: az_agent(p, spec) for i, p in enumerate(players) if p.kind in ("az", "agent")}


class Cancelled(Exception):
    """A bot's turn stopped by its caller (``cancelled`` of :func:`play_player_turn`
    answered true); the game is as before the turn."""


def _canceller(cancelled: Optional[Callable[[], bool]]) -> Optional[Callable[..., None]]:
    """A ``progress`` callback for :func:`hexcore.mcts` / :func:`hexcore.solve`
    that raises :class:`Cancelled` once ``cancelled()`` is true."""
    if cancelled is None:
        return None

    def check(*_: Any) -> None:
        if cancelled():
            raise Cancelled("the bot's move was cancelled")
    return check


def solver_move(g: Game, seconds: float, threads: Optional[int], seed: int,
                cancelled: Optional[Callable[[], bool]] = None) -> Optional[SearchResult]:
    """Plays the ``solver`` player's turn on ``g``: a move proved best by
    :func:`hexcore.solve` within about 60% of ``seconds`` (the quickest win,
    or a proven win; in a lost position the slowest loss), else the move of
    UCT search in the time left (MCTS-Solver, ``solver=True``, in two-player
    games). Positions the solver does not take (more than two players) go
    to the search at once.

    Args:
        g: the game, played on in place.
        seconds: the time budget of the turn.
        threads: threads of the solver and the search.
        seed: the search's seed.
        cancelled: polled while it thinks.

    Returns:
        The search's result when the search chose, else None.

    Raises:
        Cancelled: ``cancelled()`` turned true (``g`` is left as it was).
    """
    from .solving import solve

    t0 = time.perf_counter()
    stop = _canceller(cancelled)
    if g.num_players == 2:
        s = solve(g, max_seconds=0.6 * seconds, threads=threads, table_mb=64, progress=stop)
        move = None
        if s.complete and s.best_move is not None:
            move = s.best_move
        else:
            won = [m for m, v in s.moves.items() if v == "win"]
            move = won[0] if won else None
        if move is not None:
            g.play(move)
            return None
    left = max(seconds - (time.perf_counter() - t0), 0.01)
    r = mcts(g, seconds=left, threads=threads, seed=seed, solver=g.num_players == 2, progress=stop)
    g.play(r.move)
    return r


class OpenSpielBot:
    """OpenSpiel's Python ``MCTSBot`` on hexcore's registered OpenSpiel game
    for ``spec``: UCT with ``uct_c=2``, one uniformly random rollout per
    simulation (``RandomRolloutEvaluator``) and the MCTS-solver backup, as
    in the OpenSpiel examples. It searches every action of a turn on its own
    with the player's budget (``simulations`` or ``seconds`` per action).
    Raises ``ImportError`` with the reason when ``open_spiel`` is missing."""

    def __init__(self, spec: str, player: Player, seed: int) -> None:
        try:
            import numpy as np
            from open_spiel.python.algorithms import mcts as osm  # type: ignore[import-not-found, import-untyped, unused-ignore]

            from . import openspiel as hos
        except ImportError as e:
            raise ImportError(f"the openspiel player needs the open_spiel package (pip install open_spiel): {e}") from None
        seconds = player.seconds

        class TimedMCTSBot(osm.MCTSBot):  # type: ignore[misc, name-defined, unused-ignore]
            """Stops the search after ``seconds`` (after the simulation in
            progress, and never before the root has its children) by marking
            the root solved, the loop's exit test, and clears the mark before
            the move is chosen."""

            deadline = 0.0

            def mcts_search(self, state: Any) -> Any:
                self.deadline = time.perf_counter() + seconds
                root = super().mcts_search(state)
                if root.outcome is _STOP:
                    root.outcome = None
                return root

            def _apply_tree_policy(self, root: Any, state: Any) -> Any:
                out = super()._apply_tree_policy(root, state)
                # OpenSpiel's root gets its children on the second simulation;
                # stopping before that leaves no move to choose
                if root.outcome is None and root.children and time.perf_counter() >= self.deadline:
                    root.outcome = _STOP
                return out

        self.game = hos.load_game(spec)
        rng = np.random.RandomState(seed % 2**32)
        evaluator = osm.RandomRolloutEvaluator(1, rng)
        if seconds:
            self.bot = TimedMCTSBot(self.game, uct_c=2.0, max_simulations=2**62, evaluator=evaluator, random_state=rng)
        else:
            self.bot = osm.MCTSBot(self.game, uct_c=2.0, max_simulations=player.simulations, evaluator=evaluator,
                                   random_state=rng)

    def play_turn(self, g: Game) -> None:
        """Plays one whole turn.

        Args:
            g: the hexcore game, played on in place.
        """
        state = self.game.state_from_hexcore(g)
        while True:
            a = int(self.bot.step(state))
            g.apply_action(a)
            if g.is_over or not g.pending_actions:
                return
            state.apply_action(a)


_STOP = object()


@dataclass
class Record:
    """Results of one player, or of one seat: wins, draws and losses out of
    ``games``, the win rate and its 95% Wilson interval."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def draw_rate(self) -> float:
        return self.draws / self.games if self.games else 0.0

    @property
    def win_interval(self) -> Tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def draw_interval(self) -> Tuple[float, float]:
        return wilson(self.draws, self.games)

    def add(self, outcome: str) -> None:
        """Counts one game.

        Args:
            outcome: ``"win"``, ``"draw"`` or ``"loss"``.
        """
        self.games += 1
        if outcome == "win":
            self.wins += 1
        elif outcome == "draw":
            self.draws += 1
        else:
            self.losses += 1

    def to_dict(self) -> Dict[str, Any]:
        """The record as JSON data.

        Returns:
            Its counts, rates and 95% intervals.
        """
        d = asdict(self)
        d.update(win_rate=self.win_rate, win_ci95=list(self.win_interval),
                 draw_rate=self.draw_rate, draw_ci95=list(self.draw_interval))
        return d


@dataclass
class MatchResult:
    """The outcome of :func:`play_match`. ``players[i]`` is the record of the
    i-th player spec, ``seats[s]`` the record of seat ``s + 1`` (whoever sat
    there); ``winners[g]`` and ``seating[g]`` (player index per seat) and
    ``plies[g]`` describe game ``g``."""

    spec: str
    player_specs: List[str]
    games: int
    seed: int
    players: List[Record]
    seats: List[Record]
    winners: List[List[int]] = field(default_factory=list)
    seating: List[List[int]] = field(default_factory=list)
    plies: List[int] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> Dict[str, Any]:
        """The result as JSON data.

        Returns:
            The settings, each player's and seat's record, and each game's
            winners, seating and length.
        """
        return {"spec": self.spec, "players_specs": self.player_specs, "games": self.games, "seed": self.seed,
                "seconds": self.seconds, "players": [r.to_dict() for r in self.players],
                "seats": [r.to_dict() for r in self.seats], "winners": self.winners, "seating": self.seating,
                "plies": self.plies}

    def table(self) -> str:
        """The result as text.

        Returns:
            A plain-text report, one line per player and per seat.
        """
        lines = [f"{self.spec}: {self.games} games, seed {self.seed}, {self.seconds:.1f} s"]

        def row(r: Record) -> str:
            lo, hi = r.win_interval
            return (f"  {r.name:<22} wins {r.wins:>5}  draws {r.draws:>5}  losses {r.losses:>5}  "
                    f"win rate {r.win_rate:.3f} (95% CI {lo:.3f}-{hi:.3f})  draw rate {r.draw_rate:.3f}")

        lines.append("per player:")
        lines += [row(r) for r in self.players]
        lines.append("per seat:")
        lines += [row(r) for r in self.seats]
        return "\n".join(lines)


def derive_seed(*parts: int) -> int:
    """A 64-bit seed from integers, stable across runs and platforms.

    Args:
        *parts: the integers.

    Returns:
        The seed, in ``0..2**64``.
    """
    text = ":".join(str(int(p)) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def _random_turn(g: Game, rng: random.Random) -> None:
    """Plays one whole turn of uniformly random actions."""
    while True:
        acts = g.legal_actions()
        g.apply_action(int(acts[rng.randrange(len(acts))]))
        if g.is_over or not g.pending_actions:
            return


def play_player_turn(g: Game, p: Player, rng: random.Random, seed: int, threads: Optional[int],
              peer: Optional[Any] = None, cancelled: Optional[Callable[[], bool]] = None) -> Optional[SearchResult]:
    """Plays one whole turn of the player ``p`` on ``g``.

    Args:
        g: the game, played on.
        p: the player (:func:`parse_player`).
        rng: the random mover's source.
        seed: the search's seed.
        threads: threads of the search.
        peer: the player's OpenSpiel bot or loaded ``az``/``agent``
            network, made here when not given.
        cancelled: polled while an ``mcts`` or ``solver`` player thinks
            (about every 20 ms; 0.5 s in the solver); once true the turn
            stops (the other players' turns are short and run to their
            end).

    Returns:
        The search that chose the turn for an ``mcts`` player, else None.

    Raises:
        Cancelled: ``cancelled`` answered true; ``g`` is as it was.
    """
    if p.kind == "random":
        _random_turn(g, rng)
    elif p.kind in ("az", "agent"):
        (peer if peer is not None else az_agent(p, g.spec)).play_turn(g, seed=seed, threads=threads)
    elif p.kind == "solver":
        return solver_move(g, p.seconds, threads, seed, cancelled)
    elif p.kind == "mcts":
        r = mcts(g, simulations=p.simulations or None, seconds=p.seconds or None, threads=threads, seed=seed,
                 c=p.c, progress=_canceller(cancelled))
        g.play(r.move)
        return r
    else:
        if peer is None:
            peer = OpenSpielBot(g.spec, p, seed)
        peer.play_turn(g)
    return None


#: ``on_turn(game, search)``: called by :func:`play_game` once before the
#: first turn (``search`` None) and after every turn (``search`` is the
#: :class:`SearchResult` that chose an ``mcts`` player's turn, else None).
OnTurn = Callable[[Game, Optional[SearchResult]], None]


@keyword_only
def play_game(start: Game, players: Sequence[Player], seating: Sequence[int], seed: int, index: int, *,
              threads: int = 1, on_turn: Optional[OnTurn] = None, agents: Optional[Dict[int, Any]] = None,
              turns: Optional[int] = None) -> Game:
    """Plays game number ``index`` of a match seeded with ``seed``. The
    seeds depend on ``(seed, index)`` only, so games can be played in any
    order or at once.

    Args:
        start: the starting position (not changed).
        players: the match's players.
        seating: the player index of each seat: seat ``s + 1`` is taken by
            ``players[seating[s]]``.
        seed: the match's seed.
        index: the game's number in the match.
        threads: threads of each search.
        on_turn: called before the first turn and after every turn
            (``on_turn(game, search)``, see ``OnTurn``).
        agents: the loaded agent of each ``az`` / ``agent`` player, by index
            (:func:`load_agents`; loaded per turn when missing).
        turns: stop after this many whole turns (None: at the end).

    Returns:
        The game as it is then (a copy of ``start`` played on).

    Raises:
        ValueError: ``turns`` is not an int >= 0 or None.
    """
    if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int) or turns < 0):
        raise ValueError(f"turns must be an int >= 0 or None, got {turns!r}")
    rngs = [random.Random(derive_seed(seed, index, i, 1)) for i in range(len(players))]
    peers = [OpenSpielBot(start.spec, p, derive_seed(seed, index, i, 2)) if p.kind == "openspiel"
             else (agents or {}).get(i) for i, p in enumerate(players)]
    g = start.copy()
    if on_turn is not None:
        on_turn(g, None)
    played = 0
    while not g.is_over and (turns is None or played < turns):
        played += 1
        i = seating[g.to_move - 1]
        r = play_player_turn(g, players[i], rngs[i], derive_seed(seed, index, g.ply), threads, peers[i])
        if on_turn is not None:
            on_turn(g, r)
    return g


T = TypeVar("T")


def play_at_once(play_one: Callable[[int, threading.Event], T], games: int, threads: Optional[int] = None,
                 progress: Optional[Callable[[int], None]] = None) -> Tuple[Dict[int, T], bool]:
    """The one runner of indexed games, several at once. Ctrl-C sets
    ``stop`` (a game polls it between turns and ends by raising) and keeps
    the finished games.

    Args:
        play_one: ``play_one(index, stop)`` plays game ``index``.
        games: the games to play, ``range(games)``.
        threads: games at once (None: one per core, as the engine counts them).
        progress: ``progress(1)`` after each game.

    Returns:
        The results by index, and whether every game finished.

    Raises:
        ValueError: ``threads`` out of range.
    """
    threads = int(_core.check_threads(threads))
    done: Dict[int, T] = {}
    stop = threading.Event()
    if threads <= 1 or games <= 1:
        try:
            for i in range(games):
                done[i] = play_one(i, stop)
                if progress is not None:
                    progress(1)
        except KeyboardInterrupt:
            return done, False
        return done, True
    pool = ThreadPoolExecutor(max_workers=threads)
    pending: Dict[Future[T], int] = {}
    next_index = 0
    complete = True
    try:
        while next_index < games or pending:
            while next_index < games and len(pending) < 2 * threads:
                pending[pool.submit(play_one, next_index, stop)] = next_index
                next_index += 1
            finished, _ = wait(list(pending), timeout=0.2, return_when=FIRST_COMPLETED)
            for f in finished:
                i = pending.pop(f)
                done[i] = f.result()
                if progress is not None:
                    progress(1)
    except KeyboardInterrupt:
        complete = False
        stop.set()
    finally:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
    if not complete:
        for f, i in pending.items():
            if f.done() and not f.cancelled() and f.exception() is None:
                done[i] = f.result()
    return done, complete


class _Stopped(Exception):
    """Ends a match's game between turns after a stop request."""


def seating(index: int, seats: int) -> List[int]:
    """The seating of a match's game: seats rotate game by game.

    Args:
        index: the game's number in the match.
        seats: the game's number of seats.

    Returns:
        The player (index into the match's players) in each seat.
    """
    return [(s - index) % seats for s in range(seats)]


def _outcome(winners: Sequence[int], seat: int) -> str:
    """``seat``'s result: a win alone, a draw when it shares the result (all
    seats winning is a draw, the one rule of ``winners``), else a loss."""
    if seat not in winners:
        return "loss"
    return "win" if len(winners) == 1 else "draw"


@keyword_only
def play_match(spec: str, players: Sequence[str], *, games: int = 200, seed: int = 0, threads: Optional[int] = None,
               progress: Optional[Callable[[int, int], None]] = None) -> MatchResult:
    """Plays a seeded match, rotating the seats game by game. Every search
    runs on one thread, so the results are the same for any ``threads``.

    Args:
        spec: the game.
        players: player specs such as ``"mcts:1000"`` and ``"random"``,
            one per seat (:func:`parse_player`).
        games: the number of games.
        seed: the match's seed.
        threads: games played at once (None: one per core).
        progress: ``progress(done, games)`` after each game.

    Returns:
        The records per player and per seat, as a :class:`MatchResult`.

    Raises:
        ValueError: a bad spec, player spec, count or seed, or not one
            player per seat.
        TypeError: an argument of the wrong type.
        KeyboardInterrupt: Ctrl-C (after the games in play end their turn).
    """
    # the core's checks and default threads, before any game is played
    games = int(_core.check_arg("games", games))
    seed = int(_core.check_arg("seed", seed))
    threads = int(_core.check_threads(threads))
    parsed = [parse_player(s) for s in players]
    g0 = load(spec)
    seats = g0.num_players
    if len(parsed) != seats:
        raise ValueError(f"{g0.spec} has {seats} seats but {len(parsed)} players were given; "
                         f"give exactly {seats} player specs")
    if g0.is_over:
        raise ValueError(f"{g0.spec} is already over at the start")
    names = [f"P{i + 1} {p.name}" for i, p in enumerate(parsed)]
    agents = load_agents(parsed, g0.spec)
    result = MatchResult(spec=g0.spec, player_specs=[p.name for p in parsed], games=games, seed=seed,
                         players=[Record(n) for n in names], seats=[Record(f"seat {s + 1}") for s in range(seats)])
    t0 = time.perf_counter()
    played = 0

    def one(gi: int, stop: threading.Event) -> Game:
        def check(g: Game, r: Optional[SearchResult]) -> None:
            if stop.is_set():
                raise _Stopped()
        return play_game(g0, parsed, seating(gi, seats), seed, gi, threads=1, agents=agents, on_turn=check)

    def tick(k: int) -> None:
        nonlocal played
        played += k
        if progress is not None:
            progress(played, games)

    finished, complete = play_at_once(one, games, threads, tick)
    if not complete:
        raise KeyboardInterrupt
    for gi in range(games):
        g = finished[gi]
        # seat s + 1 is taken by player seats_of[s]
        seats_of = seating(gi, seats)
        winners = list(g.winners)
        for s in range(seats):
            o = _outcome(winners, s + 1)
            result.seats[s].add(o)
            result.players[seats_of[s]].add(o)
        result.winners.append(winners)
        result.seating.append(seats_of)
        result.plies.append(g.ply)
    result.seconds = time.perf_counter() - t0
    return result


HELP = ("type a move in the game's notation, or: hint (the bot's suggestion), undo (take back your last "
        "move and the reply), swap (where the rules allow it), quit")


@keyword_only
def play_loop(spec: str, *, bot: str = "mcts:2000", human: int = 1, seed: int = 0, inp: Optional[TextIO] = None,
              out: Optional[TextIO] = None, threads: Optional[int] = None) -> int:
    """A person plays the bot in a terminal (or on any text streams).

    Args:
        spec: the game.
        bot: the bot's player spec (:func:`parse_player`), in every other seat.
        human: the person's seat.
        seed: the bot's seed.
        inp: the person's input (default stdin).
        out: where the game is shown (default stdout).
        threads: the bot's search threads (None: one per core; 1: the same
            game for the same seed).

    Returns:
        0 when the game ends, on ``quit`` or at end of input.

    Raises:
        ValueError: a bad spec, bot, seat or seed.
        TypeError: a seed that is not an int.
    """
    import sys

    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    p = parse_player(bot)
    g = load(spec)
    if isinstance(human, bool) or not isinstance(human, int) or not 1 <= human <= g.num_players:
        raise ValueError(f"--human must be a seat between 1 and {g.num_players}, got {human!r}")
    seed = int(_core.check_arg("seed", seed))  # the core's check
    rng = random.Random(derive_seed(seed, 0, 0, 1))
    peer = (OpenSpielBot(g.spec, p, derive_seed(seed, 0, 0, 2)) if p.kind == "openspiel"
            else az_agent(p, g.spec) if p.kind in ("az", "agent") else None)
    movers: List[int] = []  # who played each move: the human's seat or 0 for the bot

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def search() -> Any:
        sims, secs = ((p.simulations or None), (p.seconds or None)) if p.kind == "mcts" else (1000, None)
        return mcts(g, simulations=sims, seconds=secs, threads=threads, seed=derive_seed(seed, len(movers), g.ply),
                    c=p.c)

    say(f"{g.spec}: you are player {human}, the bot ({p.name}) plays the other seats. {HELP}")
    shown = -1
    while not g.is_over:
        if g.to_move != human:
            seat = g.to_move
            play_player_turn(g, p, rng, derive_seed(seed, len(movers), g.ply), threads, peer)
            movers.append(0)
            say(f"bot (player {seat}) plays {g.history[-1]}")
            continue
        if shown != g.ply:
            say(str(g))
            say(f"ply {g.ply}, player {g.to_move} (you) to move")
            shown = g.ply
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line:
            say("\nend of input; goodbye")
            return 0
        cmd = line.strip()
        if not cmd:
            continue
        low = cmd.lower()
        if low in ("quit", "exit", "q"):
            say("goodbye")
            return 0
        if low in ("help", "?"):
            say(HELP)
            continue
        if low == "hint":
            r = search()
            total = int(r.visits.sum())
            share = int(r.visits[r.action]) / total if total else 0.0
            say(f"hint: {r.move} (visit share {share:.0%} of {total} simulations)")
            continue
        if low == "undo":
            if human not in movers:
                say("nothing to undo: you have not moved yet")
                continue
            while movers:
                who = movers.pop()
                g.undo()
                if who == human:
                    break
            shown = -1
            say("took back your last move and the bot's reply")
            continue
        try:
            played = g.play(cmd)
        except (HexcoreError, ValueError) as e:
            say(f"illegal: {' '.join(str(e).split())}")
            continue
        movers.append(human)
        say(f"you play {played}")
    say(str(g))
    w = list(g.winners)
    if len(w) == g.num_players:
        say("game over: a draw")
    elif w == [human]:
        say("game over: you win")
    elif human in w:
        say(f"game over: shared win by players {', '.join(map(str, w))}")
    else:
        say(f"game over: player{'s' if len(w) > 1 else ''} {', '.join(map(str, w))} win{'' if len(w) > 1 else 's'}")
    return 0

