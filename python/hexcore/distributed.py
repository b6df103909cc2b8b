"""Perft and random playouts on a Ray cluster (``pip install 'hexcore[ray]'``).

``perft`` and ``random_playouts`` here take the arguments of the local
functions (checked on the driver, with the same errors, before any task
starts) and give identical results; the extra keyword arguments control the
job:

* **Work units.** Perft splits the tree on the driver, level by level and at
  the action level (so a unit may start in the middle of a turn), until there
  are about ``8 * tasks`` subtrees; the subtrees are dealt round-robin into
  ``tasks`` Ray tasks. Playouts split the game indices into ``tasks`` ranges
  of ``chunk`` games; game ``i`` is always seeded from ``seed + i``. By
  default ``tasks`` is four per CPU of the cluster, at most 1,000.
* **Streaming.** Results are collected as tasks finish (``ray.wait``); a
  progress bar is shown on a terminal (``progress=True`` forces it,
  ``False`` hides it) and ``callback(Progress)`` is called after each unit.
* **Summaries.** ``random_playouts(..., summary=True)`` (the default above
  10**6 games) sums the games on the workers into a
  :class:`hexcore.PlayoutSummary`; the driver never holds per-game arrays.
* **Checkpoints.** With ``checkpoint="run.jsonl"`` each finished unit is
  appended to that file. Running the same job again with the same file
  skips the finished units and gives the identical result. A unit that
  fails (after Ray's retries) is reported in :class:`JobError` by its game
  range or subtree; the other units are kept in the checkpoint and in
  ``JobError.partial``.
* **Ray.** ``address`` is passed to ``ray.init`` when Ray is not yet
  initialised. Without one, a private local Ray starts (``address="local"``,
  node address 127.0.0.1; its servers still bind every interface, as Ray's
  do): a cluster started earlier on the machine with ``ray start``, or named
  by ``RAY_ADDRESS``, is never joined unless asked for with
  ``address="auto"`` or its address;
  ``ray_options`` is passed to ``.options()`` of every task (for example
  ``{"num_cpus": 2, "max_retries": 5}``). Every task reports the hexcore
  version it ran; a worker with another version stops the job, since seeded
  results are only stable within one version.

On a running cluster (not run by the test suite's doctests):

>>> import ray, hexcore as hc  # doctest: +SKIP
>>> ray.init(address="auto")  # doctest: +SKIP
>>> hc.distributed.perft(hc.Churn(size=4), 6, checkpoint="perft6.jsonl")  # doctest: +SKIP
>>> hc.distributed.random_playouts(hc.Churn(size=5), 10**7, summary=True)  # doctest: +SKIP
"""
from __future__ import annotations

import base64
import json
import math
import os
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Literal, Optional, Sequence, Tuple, Union, overload

import numpy as np

from ._args import keyword_only
from ._core import MAX_DEPTH, MAX_JOB_TASKS, MAX_PLAYOUTS, __version__, check_arg
from ._types import Game
from .engine import Playouts
from .progress import Bar
from .records import to_json
from .summary import PlayoutSummary

__all__ = ["perft", "random_playouts", "map_games", "Progress", "JobError", "MAX_TASKS"]

#: Most tasks a job is split into unless ``tasks=`` asks for more.
MAX_TASKS = 1000
# MAX_JOB_TASKS, the most tasks any job may have (``tasks=`` and ``chunk=``
# are checked against it), is the core's (``limits.rs``), as are those checks.
#: Perft subtrees aimed at per task, so that the tasks come out even.
UNITS_PER_TASK = 8
#: Most subtrees the driver lists while splitting a perft.
MAX_UNITS = 100_000
#: Fewest games per playout task unless ``chunk=`` says otherwise.
MIN_CHUNK = 1000
#: ``random_playouts`` returns a summary, not arrays, above this many games.
SUMMARY_ABOVE = 1_000_000
#: Environment variable naming task indices that raise (fault injection, for tests).
FAULT_ENV = "HEXCORE_FAULT_TASKS"

Step = Union[str, int]
Unit = Tuple[int, Tuple[Step, ...], int]  # (divide row, steps from the root, moves left)


class JobError(RuntimeError):
    """Some work units failed after Ray's retries.

    ``failed`` lists ``(unit description, error)``; ``partial`` is the result
    over the units that finished (a count, rows, a summary or ``None``).
    """

    def __init__(self, message: str, failed: List[Tuple[str, str]], partial: Any) -> None:
        super().__init__(message)
        self.failed = failed
        self.partial = partial


@dataclass(frozen=True)
class Progress:
    """Passed to ``callback`` after each finished unit."""

    done: int       # units finished, including those read from the checkpoint
    total: int      # units in the job
    failed: int     # units that failed so far
    partial: Any    # the result so far: a count, or games played / a summary
    elapsed: float  # seconds since the job started


def _ray(address: Optional[str]) -> Any:
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("the Ray backend needs the 'ray' package: pip install 'hexcore[ray]'") from e
    if not ray.is_initialized():
        if address is None:
            # "local": a new Ray of our own; ray.init() without an address
            # would join the cluster the last `ray start` on this machine
            # recorded (or RAY_ADDRESS).
            ray.init(address="local", include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
    return ray


def _threads(threads: Optional[int]) -> Any:
    """Threads per task: 1 unless given (the engine checks the value)."""
    return 1 if threads is None else threads


def _job_args(tasks: Optional[int], checkpoint: Any, progress: Any, callback: Any, address: Any,
              ray_options: Any, threads: int) -> Tuple[Optional[int], Optional[str], Dict[str, Any]]:
    """Check the job-control arguments; returns (tasks, checkpoint path, task options)."""
    t = None if tasks is None else int(check_arg("tasks", tasks))
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise TypeError(f"checkpoint must be a path, got {type(checkpoint).__name__}")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be None, True or False, got {type(progress).__name__}")
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable, got {type(callback).__name__}")
    if address is not None and not isinstance(address, str):
        raise TypeError(f"address must be a string, got {type(address).__name__}")
    if ray_options is not None and not isinstance(ray_options, dict):
        raise TypeError(f"ray_options must be a dict, got {type(ray_options).__name__}")
    opts: Dict[str, Any] = {"num_cpus": threads, "max_retries": 3}
    opts.update(ray_options or {})
    return t, (None if checkpoint is None else os.fspath(checkpoint)), opts


def _default_tasks(ray: Any) -> int:
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(1, min(MAX_TASKS, 4 * cpus))


def _fault(index: int) -> None:
    """Fault injection for tests: raise in the tasks listed in ``$HEXCORE_FAULT_TASKS``."""
    listed = os.environ.get(FAULT_ENV, "")
    if str(index) in listed.split(","):
        raise RuntimeError(f"task {index} failed on purpose (${FAULT_ENV})")


# ---------------------------------------------------------------- tasks


def _replay(root: Any, steps: Sequence[Step]) -> Any:
    g = root.copy()
    for s in steps:
        if isinstance(s, str):
            g.play(s)
        else:
            g.apply_action(s)
    return g


def _perft_task(index: int, root: Any, units: List[Tuple[Tuple[Step, ...], int]], unit: str,
                threads: int) -> Tuple[str, List[int]]:
    _fault(index)
    return __version__, [int(_replay(root, steps)._perft(left, unit, threads, False, True)) for steps, left in units]


def _playout_task(index: int, root: Any, start: int, count: int, seed: int, threads: int, limit: int,
                  summary: bool) -> Tuple[str, Any]:
    _fault(index)
    cols = root._playouts(count, (seed + start) % 2**64, threads, limit)
    if summary:
        plies, actions, winners, finished = cols
        return __version__, PlayoutSummary.of(plies, actions, winners, finished, root.num_players).to_dict()
    return __version__, cols


def _games_task(index: int, play: Callable[[int], Any], indices: List[int]) -> Tuple[str, List[Any]]:
    _fault(index)
    return __version__, [play(i) for i in indices]


# ---------------------------------------------------------------- checkpoints


class _Checkpoint:
    """A JSON-lines file: a header naming the job, then one line per unit."""

    def __init__(self, path: Optional[str], job: Dict[str, Any], tasks: Optional[int]) -> None:
        self.path = path
        self.done: Dict[int, Any] = {}
        self.tasks = tasks
        self._file: Any = None
        if path is None:
            return
        header: Optional[Dict[str, Any]] = None
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
            try:
                header = json.loads(lines[0])
            except ValueError:
                raise ValueError(f"{path} is not a hexcore checkpoint (its first line is not JSON)") from None
            if not isinstance(header, dict) or header.get("hexcore_checkpoint") != 1:
                raise ValueError(f"{path} is not a hexcore checkpoint")
            if header.get("job") != job:
                raise ValueError(f"{path} is the checkpoint of another job ({header.get('job')}); "
                                 "use another file, or delete it to start again")
            if tasks is not None and header.get("tasks") != tasks:
                raise ValueError(f"{path} was written with tasks={header.get('tasks')}, not {tasks}")
            self.tasks = int(header["tasks"])
            for line in lines[1:]:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue  # a line cut short when the run stopped
                if isinstance(rec, dict) and "unit" in rec:
                    self.done[int(rec["unit"])] = rec["result"]
        self._job = job
        self._new = header is None

    def open(self, tasks: int) -> None:
        if self.path is None:
            return
        self.tasks = tasks
        self._file = open(self.path, "a", encoding="utf-8")
        if self._new:
            self._file.write(json.dumps({"hexcore_checkpoint": 1, "job": self._job, "tasks": tasks}) + "\n")
            self._file.flush()

    def add(self, unit: int, result: Any) -> None:
        if self._file is not None:
            self._file.write(json.dumps({"unit": unit, "result": result}) + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


# ---------------------------------------------------------------- the driver loop


def _run(ray: Any, fn: Callable[..., Any], args: List[Tuple[Any, ...]], opts: Dict[str, Any], ckpt: _Checkpoint,
         encode: Callable[[Any], Any], decode: Callable[[Any], Any], add: Callable[[int, Any], None],
         describe: Callable[[int], str], partial: Callable[[], Any], what: str, progress: Optional[bool],
         callback: Optional[Callable[[Progress], None]]) -> None:
    """Run task ``j`` on ``args[j]`` for every unit not in the checkpoint,
    feeding each result to ``add`` as it arrives."""
    t0 = time.perf_counter()
    for j, r in sorted(ckpt.done.items()):
        if j < len(args):
            add(j, decode(r))
    done, total = len([j for j in ckpt.done if j < len(args)]), len(args)
    remote = ray.remote(fn).options(**opts)
    refs = {remote.remote(j, *a): j for j, a in enumerate(args) if j not in ckpt.done}
    failed: List[Tuple[str, str]] = []
    bar = Bar(total, what, progress)
    bar.update(done, "")
    try:
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=1)
            for ref in ready:
                j = refs.pop(ref)
                try:
                    version, result = ray.get(ref)
                except ray.exceptions.RayError as e:
                    lines = [x for x in str(e).splitlines() if x.strip()]
                    failed.append((describe(j), lines[-1] if lines else type(e).__name__))
                    continue
                if version != __version__:
                    raise RuntimeError(f"a worker runs hexcore {version}, the driver {__version__}; "
                                       "install the same version on every node (seeded results differ between versions)")
                add(j, result)
                ckpt.add(j, encode(result))
                done += 1
                bar.update(done, f"{len(failed)} failed" if failed else "")
                if callback is not None:
                    callback(Progress(done, total, len(failed), partial(), time.perf_counter() - t0))
    except BaseException:
        for ref in refs:
            ray.cancel(ref)
        raise
    finally:
        bar.close()
        ckpt.close()
    if failed:
        shown = "; ".join(f"{d}: {e}" for d, e in failed[:5])
        more = f" (and {len(failed) - 5} more)" if len(failed) > 5 else ""
        raise JobError(f"{len(failed)} of {total} units failed: {shown}{more}; the others are kept"
                       + (f" in {ckpt.path}, run again to retry the failed ones" if ckpt.path else ""),
                       failed, partial())


# ---------------------------------------------------------------- games


def map_games(play: Callable[[int], Any], games: int, *, tasks: Optional[int] = None,
              address: Optional[str] = None, on_game: Optional[Callable[[Any], None]] = None) -> List[Any]:
    """``[play(i) for i in range(games)]`` on Ray: the games are split into
    ``tasks`` units (default: four per CPU of the cluster) that run on its
    workers, and the results come back in game order. ``play`` must be
    picklable (Ray ships it with cloudpickle) and give the same result for
    the same index wherever it runs, as games seeded by their index do
    (:func:`hexcore.match.play_game`). ``on_game(result)`` is called on the
    driver for each finished game. Ctrl-C cancels the units still running and
    raises ``KeyboardInterrupt``; the games finished by then have been
    passed to ``on_game``."""
    empty = isinstance(games, (int, np.integer)) and not isinstance(games, bool) and games == 0
    games = 0 if empty else int(check_arg("games", games))  # the core's check above 0
    t, _, opts = _job_args(tasks, None, None, None, address, None, 1)
    if games == 0:
        return []
    ray = _ray(address)
    n = min(games, t if t is not None else _default_tasks(ray))
    chunks = [list(range(j, games, n)) for j in range(n)]
    done: Dict[int, Any] = {}

    def add(j: int, results: List[Any]) -> None:
        for i, r in zip(chunks[j], results):
            done[i] = r
            if on_game is not None:
                on_game(r)

    _run(ray, _games_task, [(play, c) for c in chunks], opts, _Checkpoint(None, {}, None), lambda r: r, lambda r: r,
         add, lambda j: f"games {chunks[j][0]}..{chunks[j][-1]}", lambda: len(done), "games", False, None)
    return [done[i] for i in range(games)]


# ---------------------------------------------------------------- perft


def _after(g: Any, action: int, left: int) -> Tuple[Any, int]:
    """The position after ``action`` and the moves left to count from it
    (the same while the turn goes on, one fewer once it is complete)."""
    c = g.copy()
    c.apply_action(action)
    return c, left if c.pending_actions else left - 1


def _split(game: Any, depth: int, unit: str, divide: bool, target: int) -> Tuple[List[str], List[int], List[Unit]]:
    """The divide rows, the counts the driver makes itself (subtrees of
    depth 0) and the work units, in a fixed order."""
    if divide:
        if unit == "move":
            names = [name for name, _ in game._perft(1, "move", 1, True)]
            first: List[Tuple[int, Tuple[Step, ...]]] = [(i, (m,)) for i, m in enumerate(names)]
            units: List[Unit] = [(i, s, depth - 1) for i, s in first]
        else:
            acts = [int(a) for a in game.legal_actions()]
            names = [game.action_to_string(a) for a in acts]
            units = []
            for i, a in enumerate(acts):
                units.append((i, (a,), _after(game, a, depth)[1]))
    else:
        names, units = [""], [(0, (), depth)]
    fixed = [0] * len(names)
    while len(units) < target:
        if not any(left >= 2 for _, _, left in units):
            break
        grown: List[Unit] = []
        for row, steps, left in units:
            if left < 2:
                grown.append((row, steps, left))
                continue
            g = _replay(game, steps)
            if g.is_over and not g.pending_actions:
                continue
            for a in g.legal_actions():
                c, rest = _after(g, int(a), left)
                if rest > 0 and c.is_over and not c.pending_actions:
                    continue  # a line that ends early counts 0
                grown.append((row, steps + (int(a),), rest))
            if len(grown) > MAX_UNITS:
                break
        if len(grown) > MAX_UNITS:
            break
        units = grown
    kept: List[Unit] = []
    for row, steps, left in units:
        if left == 0:
            fixed[row] += 1  # a line of exactly `depth` moves
        else:
            kept.append((row, steps, left))
    return names, fixed, kept


def _int_in(value: Any, lo: int, hi: int) -> bool:
    """True for an int (not a bool) in ``lo..=hi``; otherwise the local call
    is made with ``value``, so the error is the local one, word for word."""
    return bool(not isinstance(value, bool) and isinstance(value, (int, np.integer)) and lo <= value <= hi)


@keyword_only
def perft(game: Game, depth: int, *, unit: str = "move", divide: bool = False, threads: Optional[int] = None,
          tasks: Optional[int] = None, checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
          progress: Optional[bool] = None, callback: Optional[Callable[[Progress], None]] = None,
          address: Optional[str] = None, ray_options: Optional[Dict[str, Any]] = None) -> Union[int, List[Tuple[str, int]]]:
    """``hexcore.perft`` split into Ray tasks; the same result.

    ``threads`` are per task (default 1, and each task asks Ray for that many
    CPUs). See the module docstring for the other arguments.
    """
    if not _int_in(depth, 0, MAX_DEPTH):
        game._perft(depth, unit, threads, divide)  # raises the local error for this depth, before any work
    depth = int(depth)
    t = _threads(threads)
    divide = bool(divide)
    game._perft(0, unit, t, divide)  # the local checks: unit, threads, a turn in progress
    n_tasks, path, opts = _job_args(tasks, checkpoint, progress, callback, address, ray_options, t)
    if depth == 0 or (game.is_over and not game.pending_actions):
        return game._perft(depth, unit, t, divide)
    job = {"kind": "perft", "game": json.loads(to_json(game)), "depth": depth, "unit": unit, "divide": divide,
           "version": __version__}
    ckpt = _Checkpoint(path, job, n_tasks)
    ray = _ray(address)
    n_tasks = ckpt.tasks or _default_tasks(ray)
    names, fixed, units = _split(game, depth, unit, divide, n_tasks * UNITS_PER_TASK)
    k = min(n_tasks, len(units))
    groups = [units[j::k] for j in range(k)]
    counts = list(fixed)
    total = [sum(fixed)]
    root = ray.put(game)
    ckpt.open(n_tasks)

    def add(j: int, result: Any) -> None:
        for (row, _, _), n in zip(groups[j], result):
            counts[row] += int(n)
            total[0] += int(n)

    def describe(j: int) -> str:
        shown = [" ".join(str(s) for s in steps) or "(root)" for _, steps, _ in groups[j][:3]]
        return f"task {j} (subtrees after {', '.join(shown)}{', ...' if len(groups[j]) > 3 else ''})"

    def partial() -> Any:
        return list(zip(names, counts)) if divide else total[0]

    args = [(root, [(steps, left) for _, steps, left in g], unit, t) for g in groups]
    _run(ray, _perft_task, args, opts, ckpt, lambda r: r, lambda r: r, add, describe, partial,
         f"perft {depth}", progress, callback)
    return partial()  # type: ignore[no-any-return]


# ---------------------------------------------------------------- playouts


def _encode_cols(cols: Sequence[np.ndarray]) -> List[str]:
    return [base64.b64encode(np.ascontiguousarray(c).tobytes()).decode("ascii") for c in cols]


_DTYPES = (np.uint64, np.uint64, np.uint8, np.bool_)


def _decode_cols(data: Iterable[str]) -> Tuple[np.ndarray, ...]:
    return tuple(np.frombuffer(base64.b64decode(s), dtype=dt).copy() for s, dt in zip(data, _DTYPES))


@overload
def random_playouts(game: Game, n: int, *, seed: int = ..., threads: Optional[int] = ..., max_plies: Optional[int] = ...,
                    chunk: Optional[int] = ..., summary: Literal[True], tasks: Optional[int] = ...,
                    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = ..., progress: Optional[bool] = ...,
                    callback: Optional[Callable[[Progress], None]] = ..., address: Optional[str] = ...,
                    ray_options: Optional[Dict[str, Any]] = ...) -> PlayoutSummary: ...


@overload
def random_playouts(game: Game, n: int, *, seed: int = ..., threads: Optional[int] = ..., max_plies: Optional[int] = ...,
                    chunk: Optional[int] = ..., summary: Literal[False], tasks: Optional[int] = ...,
                    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = ..., progress: Optional[bool] = ...,
                    callback: Optional[Callable[[Progress], None]] = ..., address: Optional[str] = ...,
                    ray_options: Optional[Dict[str, Any]] = ...) -> Playouts: ...


@overload
def random_playouts(game: Game, n: int, *, seed: int = ..., threads: Optional[int] = ..., max_plies: Optional[int] = ...,
                    chunk: Optional[int] = ..., summary: None = ..., tasks: Optional[int] = ...,
                    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = ..., progress: Optional[bool] = ...,
                    callback: Optional[Callable[[Progress], None]] = ..., address: Optional[str] = ...,
                    ray_options: Optional[Dict[str, Any]] = ...) -> Union[Playouts, PlayoutSummary]: ...


@keyword_only
def random_playouts(game: Game, n: int, *, seed: int = 0, threads: Optional[int] = None, max_plies: Optional[int] = None,
                    chunk: Optional[int] = None, summary: Optional[bool] = None, tasks: Optional[int] = None,
                    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None, progress: Optional[bool] = None,
                    callback: Optional[Callable[[Progress], None]] = None, address: Optional[str] = None,
                    ray_options: Optional[Dict[str, Any]] = None) -> Union[Playouts, PlayoutSummary]:
    """``hexcore.random_playouts`` split into Ray tasks of ``chunk`` games.

    Returns :class:`hexcore.Playouts` (identical to the local arrays) or,
    with ``summary=True`` (the default above 10**6 games), the
    :class:`hexcore.PlayoutSummary` of the same games, summed on the workers.
    ``threads`` are per task (default 1).
    """
    if not _int_in(n, 0, MAX_PLAYOUTS):
        game._playouts(n, seed, threads, max_plies)  # raises the local error for this n, before any work
    n = int(n)
    t = _threads(threads)
    game._playouts(0, seed, t, max_plies)  # the local checks: seed, threads, max_plies, a turn in progress
    seed, limit = int(seed), 2**64 - 1 if max_plies is None else int(max_plies)
    if summary is not None and not isinstance(summary, bool):
        raise TypeError(f"summary must be None, True or False, got {type(summary).__name__}")
    size = None if chunk is None else int(check_arg("chunk", chunk))
    if size is not None and math.ceil(n / size) > MAX_JOB_TASKS:
        raise ValueError(f"chunk={size} makes {math.ceil(n / size):,} tasks of {n:,} games; at most {MAX_JOB_TASKS:,} "
                         "are allowed, give a larger chunk")
    n_tasks, path, opts = _job_args(tasks, checkpoint, progress, callback, address, ray_options, t)
    as_summary = n > SUMMARY_ABOVE if summary is None else summary
    players = game.num_players
    if n == 0:
        plies, actions, winners, finished = game._playouts(0, seed, 1, limit)
        return PlayoutSummary(players) if as_summary else Playouts(plies, actions, winners, finished, players)
    job = {"kind": "random_playouts", "game": json.loads(to_json(game)), "n": n, "seed": seed, "max_plies": limit,
           "summary": as_summary, "chunk": size, "version": __version__}
    ckpt = _Checkpoint(path, job, n_tasks)
    ray = _ray(address)
    n_tasks = ckpt.tasks or _default_tasks(ray)
    if size is None:
        size = max(min(MIN_CHUNK, n), math.ceil(n / n_tasks))
    starts = list(range(0, n, size))
    root = ray.put(game)
    ckpt.open(n_tasks)
    parts: Dict[int, Tuple[np.ndarray, ...]] = {}
    acc: Dict[str, Any] = {"summary": PlayoutSummary(players), "games": 0}

    def add(j: int, result: Any) -> None:
        if as_summary:
            acc["summary"] = acc["summary"] + PlayoutSummary.from_dict(result)
        else:
            parts[j] = tuple(result)
        acc["games"] += min(size, n - starts[j])

    def describe(j: int) -> str:
        a, b = starts[j], min(starts[j] + size, n)
        return f"games {a}..{b - 1} (seeds seed+{a}..seed+{b - 1})"

    def partial() -> Any:
        return acc["summary"] if as_summary else acc["games"]

    args = [(root, s, min(size, n - s), seed, t, limit, as_summary) for s in starts]
    _run(ray, _playout_task, args, opts, ckpt,
         (lambda r: r) if as_summary else _encode_cols,
         (lambda r: r) if as_summary else _decode_cols,
         add, describe, partial, f"{n} games", progress, callback)
    if as_summary:
        return acc["summary"]  # type: ignore[no-any-return]
    cols = [np.concatenate([parts[j][k] for j in range(len(starts))]) for k in range(4)]
    return Playouts(cols[0], cols[1], cols[2], cols[3], players)
