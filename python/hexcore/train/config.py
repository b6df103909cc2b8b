"""The settings of a training run: declared once, with their help, kind and
check, from which the command line is built; and the per-game recipe that
the command line starts from.

Each field of :class:`TrainConfig` belongs to one group (its ``metadata``):

- ``budget``: how long this invocation runs (``minutes``, ``cpu_minutes``:
  more of this invocation; ``steps``: training steps in all, counted over
  every resume);
- ``control``: how the run is watched and saved (threads, checkpoints,
  evaluation); a resumed run takes them from the command line; those that
  say where the run runs (``device``, ``ray``, ``address``, ``actors``) are
  this invocation's alone, never taken from the checkpoint;
- ``learning``: what decides the weights (search, targets, network,
  optimiser, seed); a resumed run keeps the checkpoint's, and asking for
  another value is refused.

:func:`recipe` gives the settings measured to learn on each game
(``python -m hexcore train SPEC --cpu-minutes M`` with no other flag uses
them; every flag given replaces its setting).
"""
from __future__ import annotations

import importlib
import math
import os
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Dict, List, Optional

from .._args import THREADS_HELP

__all__ = ["TrainConfig", "recipe", "check_config", "LEARNING", "CONTROL", "BUDGET"]

BUDGET, CONTROL, LEARNING = "budget", "control", "learning"

# upper bounds on the settings that size memory (games, batches, the buffer, the network), so that a huge
# value is a clear error before anything runs, never an allocation that fails or exhausts the machine
GAMES_MAX = 1 << 16
BATCH_MAX = 1 << 16
BUFFER_MAX = 1 << 26
CHANNELS_MAX = 4096
BLOCKS_MAX = 64
LABELLED_MAX = 100_000
KEEP_MAX = 1000


def _opt(default: Any, group: str, help: str, *, low: Optional[float] = None, high: Optional[float] = None,
         whole: bool = False, choices: Optional[List[str]] = None, flag: Optional[str] = None, inherited: bool = True,
         retunable: bool = False) -> Any:
    """A field of :class:`TrainConfig`. ``inherited=False``: a resumed run
    does not take it from its checkpoint (where this invocation runs).
    ``retunable=True``: a learning setting that a resumed run may change (a
    schedule: the learning rate lowered for the last stretch)."""
    meta = {"group": group, "help": help, "low": low, "high": high, "whole": whole, "choices": choices, "flag": flag,
            "inherited": inherited, "retunable": retunable}
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass
class TrainConfig:
    """The settings of a run (stored in its checkpoints). ``spec`` is the
    game, ``out`` the run folder; every other field is described by its
    ``--flag``'s help (``python -m hexcore train --help``)."""

    spec: str
    out: str
    minutes: Optional[float] = _opt(None, BUDGET, "minutes of training (more, in this invocation)", low=0)
    cpu_minutes: Optional[float] = _opt(None, BUDGET, "minutes of this process's CPU time, all threads (more, in this "
                                        "invocation; 2 idle cores give 2 a minute)", low=0)
    steps: Optional[int] = _opt(None, BUDGET, "training steps in all, counted over every --resume (reproducible)",
                                low=1, whole=True)
    threads: int = _opt(2, CONTROL, f"{THREADS_HELP}: self-play's search and the network (with --ray: per actor); "
                        "stored in the run", low=1, whole=True)
    device: str = _opt("auto", CONTROL, "where the learner's network trains and plays self-play (the search runs on CPU "
                       "threads): cuda where PyTorch sees a GPU (auto), cpu or cuda", choices=["auto", "cpu", "cuda"],
                       inherited=False)
    ray: bool = _opt(False, CONTROL, "self-play actors on a Ray cluster (pip install 'hexcore[ray]'); the learner, "
                     "replay buffer and checkpoints stay in this process", flag="--ray", inherited=False)
    address: Optional[str] = _opt(None, CONTROL, "with --ray: the cluster to join (HOST:PORT, ray://HOST:PORT or auto); "
                                  "default: a private local Ray", inherited=False)
    actors: Optional[int] = _opt(None, CONTROL, "with --ray: self-play actors, each of --threads CPUs (default: as many "
                                 "as the cluster's CPUs hold)", low=1, whole=True, inherited=False)
    seed: int = _opt(0, LEARNING, "seed of everything random in the run", low=0, whole=True)
    algorithm: str = _opt("gumbel", LEARNING, "self-play search", choices=["gumbel", "puct"])
    simulations: int = _opt(32, LEARNING, "self-play simulations per action; with --resume it may change (more for "
                             "the last stretch of a run)", low=1, whole=True, retunable=True)
    max_considered: int = _opt(16, LEARNING, "Gumbel: root actions considered per search", low=1, whole=True)
    gumbel_scale: float = _opt(1.0, LEARNING, "Gumbel: scale of the self-play root noise", low=0)
    value_mix: float = _opt(0.0, LEARNING, "value target: (1 - x) * outcome + x * the search's root value (0..1)", low=0)
    games: int = _opt(64, LEARNING, "games played at once per generation", low=1, high=GAMES_MAX, whole=True)
    slots: Optional[int] = _opt(None, LEARNING, "games searched at once (default: --games); a finished game's slot "
                                "starts the next", low=1, high=GAMES_MAX, whole=True)
    random_plies: int = _opt(0, LEARNING, "start each self-play game after 0..N uniformly random actions (not "
                             "recorded); with --resume it may change", low=0, whole=True, retunable=True)
    curriculum: int = _opt(0, LEARNING, "start every game after exactly --random-plies random actions at first, "
                           "widening the start to 0..--random-plies linearly over N generations", low=0, whole=True)
    value_steps: int = _opt(0, LEARNING, "value target: the search's root value N plies later (the outcome where the "
                            "game ends sooner)", low=0, whole=True)
    solve_nodes: int = _opt(0, LEARNING, "exact targets: where the solver settles a self-play position within N nodes "
                            "(two players; the ends of Hex games), its value and its policy over the winning moves "
                            "replace the search's (0: never); with --resume it may change", low=0, whole=True,
                            retunable=True)
    batch: int = _opt(256, LEARNING, "positions per training step", low=1, high=BATCH_MAX, whole=True)
    buffer: int = _opt(50_000, LEARNING, "replay buffer: the newest N positions", low=1, high=BUFFER_MAX, whole=True)
    reuse: float = _opt(4.0, LEARNING, "times each new position is trained on (on average)", low=0)
    net: str = _opt("resnet", LEARNING, "residual CNN, or a multilayer perceptron (--channels units, --blocks + 1 "
                    "hidden layers)", choices=["resnet", "mlp"])
    features: str = _opt("none", LEARNING, "groups: a fixed layer adds each seat's group sizes, the group a stone would "
                         "form on each empty cell, Churn's smallest-group cells and removals, and stone counts to the "
                         "planes; edges (Hex): the stones joined to each goal side and the cells that would join a "
                         "seat's two sides; colours (Quintun): the stones joined to each neutral colour and how many "
                         "colours each group and each empty cell touch", choices=["none", "groups", "edges", "colours"])
    channels: int = _opt(32, LEARNING, "channels (resnet) or units (mlp)", low=1, high=CHANNELS_MAX, whole=True)
    blocks: int = _opt(2, LEARNING, "residual blocks (resnet) or extra hidden layers (mlp)", low=0, high=BLOCKS_MAX, whole=True)
    lr: float = _opt(2e-3, LEARNING, "learning rate (AdamW); with --resume it may change (a lower rate for the last "
                     "stretch of a run)", low=0, retunable=True)
    weight_decay: float = _opt(1e-4, LEARNING, "weight decay (AdamW)", low=0)
    augment: bool = _opt(True, LEARNING, "board-symmetry augmentation", flag="--no-augment")
    checkpoint_minutes: float = _opt(3.0, CONTROL, "minutes between checkpoints (and plot refreshes)", low=0)
    keep: int = _opt(5, CONTROL, "checkpoints kept (the newest)", low=1, high=KEEP_MAX, whole=True)
    eval_every: int = _opt(5, CONTROL, "evaluate every N generations and at the end (0: never)", low=0, whole=True)
    eval_games: int = _opt(20, CONTROL, "games against each opponent per evaluation", low=0, high=GAMES_MAX, whole=True)
    eval_simulations: int = _opt(32, CONTROL, "simulations per action of the agent in evaluations", low=1, whole=True)
    opponents: List[str] = _opt(["random", "mcts:200"], CONTROL, "fixed opponents (match player specs)")
    labelled: int = _opt(100, CONTROL, "solver-labelled positions for the mistake rate (0: none)", low=0, high=LABELLED_MAX, whole=True)
    label_nodes: int = _opt(300_000, CONTROL, "solver nodes per labelled position (harder ones are skipped)",
                            low=1, whole=True)
    plots: bool = _opt(True, CONTROL, "write plots of the metrics with each checkpoint", flag="--no-plots")


#: strictly positive (not only >= low) for these, whose 0 means nothing
_POSITIVE = {"minutes", "cpu_minutes", "reuse", "lr", "checkpoint_minutes"}


def option_fields() -> List[Any]:
    """The fields of :class:`TrainConfig` that are options (all but spec and out)."""
    return [f for f in fields(TrainConfig) if f.name not in ("spec", "out")]


def default_of(f: Any) -> Any:
    return f.default_factory() if f.default is MISSING else f.default


def check_value(name: str, v: Any) -> None:
    """Checks one setting; ``ValueError`` naming it (as its ``--flag``)."""
    f = next(x for x in option_fields() if x.name == name)
    m = f.metadata
    flag = "--" + name.replace("_", "-")
    if v is None:
        if default_of(f) is None:
            return
        raise ValueError(f"{flag} must be given a value")
    if m["choices"] is not None:
        if v not in m["choices"]:
            raise ValueError(f"{flag} must be one of {', '.join(m['choices'])}; got {v!r}")
        return
    if f.type in ("str", "Optional[str]"):
        if not isinstance(v, str) or not v.strip():
            raise ValueError(f"{flag} must be a non-empty string, got {v!r}")
        return
    if isinstance(default_of(f), bool):
        if not isinstance(v, bool):
            raise ValueError(f"{name} must be True or False, got {v!r}")
        return
    if isinstance(default_of(f), list):
        if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
            raise ValueError(f"{flag} must be a list of player specs, got {v!r}")
        return
    if m["whole"]:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"{flag} must be a whole number, got {v!r}")
    elif isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"{flag} must be a finite number, got {v!r}")
    low = m["low"]
    if name in _POSITIVE and not v > 0:
        raise ValueError(f"{flag} must be a positive number, got {v!r}")
    if low is not None and v < low:
        raise ValueError(f"{flag} must be at least {low:g}, got {v!r}")
    high = m["high"]
    if high is not None and v > high:
        raise ValueError(f"{flag} must be at most {int(high):,}, got {v!r}")


def check_config(cfg: TrainConfig) -> None:
    """Every setting of ``cfg`` checked, before anything runs or is written;
    ``ValueError`` (``TypeError`` for a spec or folder that is not a
    string) naming the first bad one."""
    from .._core import check_threads

    if not isinstance(cfg.spec, str):
        raise TypeError(f"spec must be a string, got {type(cfg.spec).__name__}")
    if not isinstance(cfg.out, (str, os.PathLike)):
        raise TypeError(f"out must be a path, got {type(cfg.out).__name__}")
    if os.path.exists(cfg.out) and not os.path.isdir(cfg.out):
        raise ValueError(f"--out {cfg.out}: not a folder (a run folder holds checkpoints, metrics and plots)")
    if cfg.minutes is None and cfg.steps is None and cfg.cpu_minutes is None:
        raise ValueError("give a budget: --minutes M, --cpu-minutes M or --steps N")
    for f in option_fields():
        check_value(f.name, getattr(cfg, f.name))
    check_threads(cfg.threads)  # the core's check (1..MAX_THREADS)
    if cfg.solve_nodes:
        from .._core import check_arg

        try:
            check_arg("max_nodes", cfg.solve_nodes)  # the solver's node budget, checked by the core
        except ValueError as e:
            raise ValueError(f"--solve-nodes: {e}") from None
    if cfg.value_mix > 1:
        raise ValueError(f"--value-mix must be at most 1, got {cfg.value_mix!r}")
    if cfg.curriculum and not cfg.random_plies:
        raise ValueError("--curriculum needs --random-plies > 0 (the latest start)")
    if not cfg.ray and (cfg.address is not None or cfg.actors is not None):
        raise ValueError("--address and --actors need --ray")
    if cfg.device == "cuda":
        importlib.import_module("hexcore.train.torchnet").resolve_device("cuda")  # ValueError: no CUDA device
    if cfg.ray:
        try:
            importlib.import_module("ray")
        except ImportError as e:
            raise ImportError(f"--ray needs the ray package, which cannot be imported ({e}); install it with: "
                              "pip install 'hexcore[ray]'") from None
    from ..match import parse_player

    for o in cfg.opponents:
        parse_player(o)


def recipe(game: Any) -> Dict[str, Any]:
    """The settings measured to learn on ``game`` (a game object), which the
    command line uses for every flag not given (``TrainConfig``'s own
    defaults are the plain AlphaZero ones, kept for experiments and the
    Python API). A perceptron of 256 units: on these small boards it costs a
    fraction of the convolutions' time per position, so self-play plays many
    more games in the same CPU time; many games at once; and starts after
    random plies (about two thirds of the cells), so the network sees the
    positions of every phase of the game that the evaluation draws from
    random play. See the training guide for the measurements."""
    cells = int(game.board.num_cells)
    out: Dict[str, Any] = {"net": "mlp", "channels": 256, "blocks": 2, "games": 256,
                           "random_plies": max(1, (2 * cells) // 3), "eval_every": 10, "eval_games": 0,
                           "eval_simulations": 64}
    from ..registry import info

    gi = info(game)
    if gi is not None:
        out.update(gi.train_recipe(game))
    if int(game.num_players) > 2:
        out.update(games=128)
    return out
