"""The AlphaZero training loop: self-play generations, a replay buffer,
training steps, evaluation, metrics, plots and checkpoints.

A *generation* plays ``games`` games at once to the end with the current
network (:func:`~hexcore.train.selfplay.play_generation`), adds their
positions to the replay buffer (the newest ``buffer`` positions), then runs
``ceil(new positions * reuse / batch)`` training steps on batches drawn
uniformly from the buffer, each position under a random board symmetry
where the game allows it (:mod:`hexcore.train.symmetry`).

Everything random is drawn from seeds derived from ``seed`` and the
generation or step number, so a run with ``steps=N`` is the same whether it
ran in one go or was stopped at checkpoints and resumed (for one thread
count: floating-point sums may be ordered differently on another).

With ``ray=True`` the generations are played by self-play actors on a Ray
cluster (:mod:`hexcore.train.actors`) while this loop trains: the same
buffer, steps, evaluations and checkpoints, with generations arriving as
the actors finish them.
"""
from __future__ import annotations

import importlib
import json
import math
import os
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, replace
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import numpy as np

from .._args import keyword_only
from ..spec import load
from .agent import learner_from_checkpoint, learner_name
from .checkpoint import latest_checkpoint, list_checkpoints, load_checkpoint, save_checkpoint
from .config import CONTROL, LEARNING, TrainConfig, check_config, default_of, option_fields
from .selfplay import Samples, derive_seed, play_generation
from .symmetry import symmetries

__all__ = ["TrainConfig", "train", "Learner"]

#: the largest board (in cells) whose solver-labelled positions a run makes
#: for its mistake rate: Hex 5x5's positions take about a second each to
#: label; larger boards take minutes (use labelled_positions directly)
LABEL_CELLS = 25

#: callable evaluator with train_step(obs, masks, policies, values, seed), state(), from_state(); optionally
#: to(device) (placed on --device), weights() (what self-play actors get instead of state())
Learner = Any


def _torch_learner(config: Dict[str, Any], seed: int) -> Learner:
    # by name, so that type checks follow hexcore.train.torchnet only where
    # torch is installed (tests/package/test_typing.py NEEDS)
    torchnet = importlib.import_module("hexcore.train.torchnet")
    learner: Learner = torchnet.TorchLearner(config, seed)
    return learner


def _geometry(game: Any, features: str) -> Dict[str, Any]:
    torchnet = importlib.import_module("hexcore.train.torchnet")
    geometry = {"edges": torchnet.edge_geometry, "colours": torchnet.colour_geometry}.get(features,
                                                                                         torchnet.board_geometry)
    geo: Dict[str, Any] = geometry(game)
    return geo


@contextmanager
def deferred_interrupt() -> Iterator[None]:
    """Holds Ctrl-C (SIGINT) until the block ends and raises it then, so
    that the block (one training step) is applied whole or not at all. Off
    the main thread, where no signal arrives, it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: List[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def curriculum_floor(random_plies: int, curriculum: int, generation: int) -> int:
    """The fewest random plies before a self-play game of ``generation``
    (0-based): with a curriculum of ``curriculum`` generations,
    ``random_plies`` at the first (every game starts late, where outcomes
    say the most), falling linearly to 0 at generation ``curriculum``; 0
    without one."""
    if curriculum <= 0:
        return 0
    return int(round(random_plies * max(0.0, 1.0 - generation / curriculum)))


class _Run:
    def __init__(self, cfg: TrainConfig, make_learner: Callable[[Dict[str, Any], int], Learner],
                 log: Callable[[str], None]) -> None:
        self.cfg = cfg
        self.log = log
        self.game = load(cfg.spec)
        g = self.game
        self.net_config = {"shape": list(g.observation().shape), "num_actions": int(g.num_actions),
                           "players": int(g.num_players), "net": cfg.net, "channels": cfg.channels, "blocks": cfg.blocks,
                           "lr": cfg.lr, "weight_decay": cfg.weight_decay, "threads": cfg.threads}
        if cfg.features != "none":
            from ..registry import info

            gi = info(g)
            if gi is None or not gi.stone_planes:
                raise ValueError(f"features={cfg.features!r} reads the seats' stone planes, which the observation of "
                                 f"{cfg.spec!r} does not declare (GameInfo.stone_planes); use features='none'")
            self.net_config.update(features=cfg.features, **_geometry(g, cfg.features))
        self.make_learner = make_learner
        self.syms = symmetries(g) if cfg.augment else symmetries(g)[:1]
        self.metrics_path = os.path.join(cfg.out, "metrics.jsonl")
        self.positions: Optional[List[Any]] = None
        self.last_eval_step = -1
        self.device = "cpu"
        #: CPU seconds of self-play elsewhere (Ray actors) in this invocation, counted in the CPU budget
        self.remote_cpu = 0.0

    # ---------------------------------------------------------------- state
    def place(self, learner: Learner) -> Learner:
        """``learner`` on ``--device`` (a learner with a ``to(device)``
        method; others stay where they are)."""
        to = getattr(learner, "to", None)
        if to is None:
            return learner
        self.device = importlib.import_module("hexcore.train.torchnet").resolve_device(self.cfg.device)
        return to(self.device)

    def fresh(self) -> Dict[str, Any]:
        learner = self.place(self.make_learner(self.net_config, derive_seed(self.cfg.seed, 1)))
        return {"learner": learner, "generation": 0, "dealt": 0, "step": 0, "pending": 0, "buffer": None,
                "games": 0, "moves": 0, "trained": 0, "selfplay_seconds": 0.0, "network_seconds": 0.0,
                "train_seconds": 0.0, "cpu_seconds": 0.0, "metrics_lines": 0}

    def save(self, st: Dict[str, Any]) -> str:
        learner = st["learner"]
        data = {k: v for k, v in st.items() if k != "learner"}
        data.update(format=1, config=asdict(self.cfg), learner=learner_name(learner),
                    learner_state=learner.state())
        return save_checkpoint(self.cfg.out, st["step"], data, keep=self.cfg.keep)

    def restore(self, data: Dict[str, Any]) -> Dict[str, Any]:
        st = {k: data[k] for k in ("generation", "step", "pending", "buffer", "games", "moves", "selfplay_seconds",
                                   "network_seconds", "train_seconds", "metrics_lines")}
        st["cpu_seconds"] = data.get("cpu_seconds", 0.0)
        st["dealt"] = data.get("dealt", st["generation"])
        st["trained"] = data.get("trained", st["step"] * self.cfg.batch)
        learner = learner_from_checkpoint(data)
        if getattr(learner, "config", {}).get("lr", self.cfg.lr) != self.cfg.lr and hasattr(learner, "set_lr"):
            learner.set_lr(self.cfg.lr)  # a resume that lowers the rate (see resumed_config)
        st["learner"] = self.place(learner)
        # the metrics written after this checkpoint are written again
        if os.path.exists(self.metrics_path):
            with open(self.metrics_path) as f:
                lines = f.readlines()[: st["metrics_lines"]]
            with open(self.metrics_path, "w") as f:
                f.writelines(lines)
        return st

    def write_metrics(self, st: Dict[str, Any], row: Dict[str, Any]) -> None:
        with open(self.metrics_path, "a") as f:
            f.write(json.dumps(row) + "\n")
        st["metrics_lines"] += 1

    # ---------------------------------------------------------------- steps
    def batch(self, st: Dict[str, Any]) -> Tuple[Any, ...]:
        buf: Samples = st["buffer"]
        rng = np.random.default_rng(derive_seed(self.cfg.seed, 3, st["step"]))
        idx = rng.integers(0, len(buf), size=min(self.cfg.batch, len(buf)))
        b = buf.take(idx)
        obs, masks, pols = b.observations.copy(), b.masks.copy(), b.policies.copy()
        if len(self.syms) > 1:
            which = np.where(b.augmentable, rng.integers(0, len(self.syms), size=len(idx)), 0)
            for k in range(1, len(self.syms)):
                sel = np.nonzero(which == k)[0]
                if len(sel):
                    s = self.syms[k]
                    obs[sel] = s.observation(obs[sel])
                    masks[sel] = s.vector(masks[sel])
                    pols[sel] = s.vector(pols[sel])
        # a learner with relative_values predicts the mover's score first (see Samples.relative_values)
        vals = b.relative_values() if getattr(st["learner"], "relative_values", False) else b.values
        return obs, masks, pols, vals

    def deal(self, st: Dict[str, Any]) -> Dict[str, Any]:
        """The arguments of :func:`~hexcore.train.selfplay.play_generation`
        (all but the game and the evaluator) for the next generation dealt:
        its seed and curriculum come from its number, counted over the run
        (a generation lost with a Ray actor is not dealt again)."""
        cfg = self.cfg
        index = st["dealt"]
        st["dealt"] += 1
        return dict(games=cfg.games, simulations=cfg.simulations, seed=derive_seed(cfg.seed, 2, index),
                    algorithm=cfg.algorithm, threads=cfg.threads, max_considered=cfg.max_considered, slots=cfg.slots,
                    random_plies=cfg.random_plies, value_mix=cfg.value_mix, gumbel_scale=cfg.gumbel_scale,
                    min_random_plies=curriculum_floor(cfg.random_plies, cfg.curriculum, index),
                    value_steps=cfg.value_steps, solve_nodes=cfg.solve_nodes)

    def generation(self, st: Dict[str, Any]) -> None:
        """Plays the next generation here, with the learner itself."""
        cpu0 = time.process_time()
        samples, stats = play_generation(self.game, st["learner"], **self.deal(st))
        self.add_generation(st, samples, stats, time.process_time() - cpu0)

    def add_generation(self, st: Dict[str, Any], samples: Samples, stats: Any, cpu_seconds: float,
                       **extra: Any) -> None:
        """A generation's positions into the replay buffer, the training
        steps they call for, and its metrics row (plus ``extra``)."""
        cfg = self.cfg
        st["generation"] += 1
        buf = samples if st["buffer"] is None else Samples.concat([st["buffer"], samples])
        if len(buf) > cfg.buffer:
            buf = buf.take(slice(len(buf) - cfg.buffer, None))
        st["buffer"] = buf
        st["pending"] = max(1, math.ceil(len(samples) * cfg.reuse / cfg.batch))
        st["games"] += stats.games
        st["moves"] += stats.moves
        st["selfplay_seconds"] += stats.seconds
        st["network_seconds"] += stats.network_seconds
        assert stats.wins is not None
        row = {"kind": "selfplay", "generation": st["generation"], "step": st["step"], "games": st["games"],
               "moves": stats.moves, "seconds": stats.seconds, "moves_per_second": stats.moves / max(stats.seconds, 1e-9),
               "moves_per_cpu_second": stats.moves / max(cpu_seconds, 1e-9),
               "network_share": stats.network_seconds / max(stats.seconds, 1e-9), "evaluations": stats.evaluations,
               "seat_scores": (stats.wins / stats.games).tolist(), "buffer": len(buf),
               "mean_plies": stats.moves / stats.games, "exact_share": stats.exact / max(stats.moves, 1),
               "solve_seconds": stats.solve_seconds, **extra}
        self.write_metrics(st, row)
        self.last_selfplay = row

    def train_steps(self, st: Dict[str, Any], until: Optional[int], expired: Callable[[], bool]) -> None:
        """The pending training steps (until step ``until`` or the budget).
        Each step is applied whole: Ctrl-C during one is held until it is
        counted, and the losses of the steps made are logged even then."""
        losses: List[Dict[str, float]] = []
        t0 = time.perf_counter()
        try:
            while st["pending"] > 0:
                if until is not None and st["step"] >= until:
                    break
                if expired():
                    break
                obs, masks, pols, vals = self.batch(st)
                with deferred_interrupt():
                    losses.append(st["learner"].train_step(obs, masks, pols, vals,
                                                           derive_seed(self.cfg.seed, 4, st["step"])))
                    st["step"] += 1
                    st["pending"] -= 1
                    st["trained"] += len(obs)
        finally:
            seconds = time.perf_counter() - t0
            st["train_seconds"] += seconds
            if losses:
                # replay ratio: the times each position received was trained on, on average, over the run
                row: Dict[str, Any] = {"kind": "train", "generation": st["generation"], "step": st["step"],
                                       "steps": len(losses), "steps_per_second": len(losses) / max(seconds, 1e-9),
                                       "replay_ratio": st["trained"] / max(st["moves"], 1)}
                for k in losses[0]:
                    row[k] = float(np.mean([x[k] for x in losses]))
                self.write_metrics(st, row)
                self.last_train = row

    def evaluate(self, st: Dict[str, Any]) -> None:
        from ..match import derive_seed as mseed
        from .benchmark import mistake_rate, value_accuracy
        from .matches import win_rate

        cfg = self.cfg
        row: Dict[str, Any] = {"kind": "eval", "generation": st["generation"], "step": st["step"],
                               "cpu_seconds": st["cpu_seconds"]}
        learner = st["learner"]
        if cfg.eval_games > 0:
            for opp in cfg.opponents:
                row[f"win_rate_vs_{opp}"] = win_rate(self.game, learner, cfg.eval_simulations, opp, cfg.eval_games,
                                                     mseed(cfg.seed, 5, st["generation"]), cfg.threads)
        if self.positions:
            row["mistake_rate_net"] = mistake_rate(learner, self.positions, 0)
            row["mistake_rate_search"] = mistake_rate(learner, self.positions, cfg.eval_simulations)
            row["eval_simulations"] = cfg.eval_simulations
            row["value_accuracy"] = value_accuracy(learner, self.positions)
        self.write_metrics(st, row)
        self.last_eval_step = st["step"]
        wins = [f"{k[len('win_rate_vs_'):]} {v:.0%}" for k, v in row.items() if k.startswith("win_rate_vs_")]
        parts = ["win rate vs " + ", ".join(wins)] if wins else []
        if "mistake_rate_net" in row:
            parts.append(f"mistakes net {row['mistake_rate_net']:.1%} / {cfg.eval_simulations} sims "
                         f"{row['mistake_rate_search']:.1%}; value head right {row['value_accuracy']:.1%}")
        if parts:
            self.log(f"  eval at step {st['step']}: " + "; ".join(parts))

    def labelled(self) -> None:
        """Solver-labelled positions where a solver applies (two players,
        at most :data:`LABEL_CELLS` cells), cached in the run folder."""
        import pickle

        g = self.game
        if self.cfg.labelled <= 0 or g.num_players != 2 or g.board.num_cells > LABEL_CELLS:
            return
        path = os.path.join(self.cfg.out, "labelled.pkl")
        if os.path.exists(path):
            with open(path, "rb") as f:
                self.positions = pickle.load(f)
            return
        from .benchmark import labelled_positions

        self.log(f"labelling {self.cfg.labelled} positions with the solver for the mistake rate...")
        t0 = time.perf_counter()
        try:
            self.positions = labelled_positions(self.cfg.spec, self.cfg.labelled, seed=self.cfg.seed,
                                                max_nodes=self.cfg.label_nodes)
        except ValueError as e:
            self.log(f"no mistake rate: {e}")
            return
        with open(path + ".tmp", "wb") as f:
            pickle.dump(self.positions, f)
        os.replace(path + ".tmp", path)
        self.log(f"{len(self.positions)} solver-labelled positions in {time.perf_counter() - t0:.1f} s")


def resumed_config(cfg: TrainConfig, saved: TrainConfig) -> Tuple[TrainConfig, List[str]]:
    """The settings of a resumed run: the budget of ``cfg`` and where it
    runs (device, Ray); each other
    setting from ``cfg`` where it differs from its default, else the
    checkpoint's (``saved``). A learning setting (one that decides the
    weights) that ``cfg`` sets to another value than the checkpoint's is
    refused with a ``ValueError``, except the retunable ones (the learning
    rate, the self-play simulations and the solver's node budget), which ``cfg`` changes. Returns the settings and the list of
    the learning settings taken from the checkpoint (those not at their
    default) or changed, for the log."""
    out = replace(saved, out=cfg.out)
    refused, kept = [], []
    for f in option_fields():
        mine, theirs = getattr(cfg, f.name), getattr(saved, f.name)
        group = f.metadata["group"]
        if group not in (CONTROL, LEARNING) or not f.metadata["inherited"]:
            setattr(out, f.name, mine)
        elif mine != default_of(f) and mine != theirs:
            if group == LEARNING and f.metadata["retunable"]:
                setattr(out, f.name, mine)
                kept.append(f"{f.name}={mine} (changed from {theirs})")
                continue
            if group == LEARNING:
                refused.append(f"--{f.name.replace('_', '-')} {mine} (the run's: {theirs})")
            else:
                setattr(out, f.name, mine)
        if group == LEARNING and theirs != default_of(f):
            kept.append(f"{f.name}={theirs}")
    if refused:
        raise ValueError(f"--resume keeps the settings that decide the weights; the run in {cfg.out} was trained "
                         f"otherwise: {', '.join(refused)}. Leave them out, or start a new run in another --out")
    return out, kept


@keyword_only
def train(cfg: TrainConfig, *, resume: bool = False, make_learner: Optional[Callable[[Dict[str, Any], int], Learner]] = None,
          log: Callable[[str], None] = print) -> Dict[str, Any]:
    """Runs (or with ``resume`` continues) a training run in ``cfg.out``.

    The run stops after ``cfg.steps`` training steps in all (counted over
    every resume), ``cfg.minutes`` more minutes or ``cfg.cpu_minutes`` more
    minutes of this process's CPU time (all its threads: the measure on a
    shared machine; with ``cfg.ray``, plus the CPU time of the generations
    the actors sent). A resumed run keeps the checkpoint's learning settings
    (see :func:`resumed_config`); its budget and control settings are
    ``cfg``'s. Ctrl-C saves a checkpoint between two whole training steps
    and raises ``KeyboardInterrupt``.

    The learner is placed on ``cfg.device``. With ``cfg.ray`` the
    generations are played by ``cfg.actors`` self-play actors on a Ray
    cluster (``cfg.address``, or a private local Ray) while this process
    trains (:mod:`hexcore.train.actors`); the cluster is joined, and the
    actors' CPUs checked against it, before anything is written.

    Args:
        cfg: the settings (checked first: ``ValueError`` naming a bad one).
        resume: continue the run in ``cfg.out`` from its newest checkpoint.
        make_learner: ``make_learner(config, seed)`` builds the network
            (default: the PyTorch one).
        log: where progress lines go.

    Returns:
        A summary: the checkpoint, steps, generations, games, moves, moves
        per second (wall and CPU), the network's share of self-play time
        and the CPU seconds of the run in all and of this invocation.

    Raises:
        ValueError: bad settings, a run folder that already has checkpoints
            without ``resume``, a checkpoint of another game, a learning
            setting that differs from the resumed run's.
        FileNotFoundError: ``resume`` finds no checkpoint.
        CheckpointError: the newest checkpoint cannot be read.
        ImportError: ``cfg.ray`` without the ray package.
    """
    check_config(cfg)
    load(cfg.spec)  # an unknown spec fails before anything is written
    existing = list_checkpoints(cfg.out)
    data = None
    kept: List[str] = []
    if resume:
        if not existing:
            raise FileNotFoundError(f"--resume: no checkpoint in {cfg.out}")
        data = load_checkpoint(cfg.out)
        saved = TrainConfig(**data["config"])
        if load(saved.spec).spec != load(cfg.spec).spec:
            raise ValueError(f"the checkpoint in {cfg.out} is a run of {saved.spec}, not {cfg.spec}")
        cfg, kept = resumed_config(cfg, saved)
        check_config(cfg)
    elif existing:
        raise ValueError(f"{cfg.out} already holds a run ({len(existing)} checkpoints); "
                         "continue it with --resume or choose another --out")
    actors: Any = None
    if cfg.ray:
        actors = importlib.import_module("hexcore.train.actors")
        cluster = actors.connect(cfg)  # an unreachable address, too few CPUs: refused before anything is written
    os.makedirs(cfg.out, exist_ok=True)
    run = _Run(cfg, make_learner or _torch_learner, log)
    st = run.restore(data) if data is not None else run.fresh()
    budget = ", ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in (("steps in all", cfg.steps), ("minutes", cfg.minutes),
                                                                 ("CPU minutes", cfg.cpu_minutes)) if v is not None)
    if data is not None:
        log(f"resumed {data['path']} at step {st['step']}, generation {st['generation']}; "
            f"from the checkpoint: {', '.join(kept) or 'the default settings'}")
    else:
        net = f"{cfg.net} {cfg.channels}x{cfg.blocks}" + ("" if cfg.features == "none" else f" + {cfg.features}")
        log(f"training {run.game.spec} in {cfg.out}: {net}, {cfg.games} games a generation, {cfg.simulations} "
            f"{cfg.algorithm} simulations a move, random starts up to {cfg.random_plies} plies, batch {cfg.batch}, "
            f"lr {cfg.lr:g}, {cfg.threads} threads")
    log(f"budget: {budget}; network on {run.device}")
    run.labelled()
    selfplay: Callable[[Dict[str, Any]], None] = run.generation
    pool = None
    if actors is not None:
        pool = actors.ActorPool(run, st, cluster, log)
        selfplay = pool.generation
    start = time.perf_counter()
    cpu_start = cpu_mark = time.process_time()
    remote_mark = 0.0

    def cpu() -> None:  # this process's CPU time (all its threads), for runs on a shared machine, and the actors'
        nonlocal cpu_mark, remote_mark
        now = time.process_time()
        st["cpu_seconds"] += now - cpu_mark + run.remote_cpu - remote_mark
        cpu_mark, remote_mark = now, run.remote_cpu

    deadline = start + cfg.minutes * 60 if cfg.minutes is not None else None
    cpu_deadline = cpu_mark + cfg.cpu_minutes * 60 if cfg.cpu_minutes is not None else None

    def expired() -> bool:
        return ((deadline is not None and time.perf_counter() >= deadline)
                or (cpu_deadline is not None and time.process_time() + run.remote_cpu >= cpu_deadline))

    last_ckpt = start
    saved_path = None
    plots_missing = False

    def save() -> str:
        nonlocal plots_missing
        cpu()
        path = run.save(st)
        if cfg.plots and not plots_missing:
            try:
                from .plots import write_plots

                write_plots(cfg.out)
            except ImportError:
                plots_missing = True
                log("matplotlib is not installed; no plots written")
        return path

    def done() -> bool:
        return (cfg.steps is not None and st["step"] >= cfg.steps) or expired()

    try:
        while not done():
            if st["pending"] == 0:
                if st["generation"] == 0:
                    log(f"self-play generation 1: {cfg.games} games...")
                selfplay(st)
                sp = run.last_selfplay
                where = "" if "actor" not in sp else (
                    f"  actor {sp['actor']}, weights {sp['weights_age']} steps old, all actors "
                    f"{sp['positions_per_second_total']:.0f} positions/s")
                log(f"gen {st['generation']:>4}  games {st['games']:>6}  {sp['moves_per_second']:8.0f} moves/s "
                    f"({sp['moves_per_cpu_second']:.0f} per CPU s)  network {sp['network_share']:4.0%}  "
                    f"plies {sp['mean_plies']:5.1f}  buffer {sp['buffer']}"
                    + (f"  exact {sp['exact_share']:4.0%} ({sp['solve_seconds']:.1f} s)" if cfg.solve_nodes else "")
                    + where)
            run.train_steps(st, cfg.steps, expired)
            if st["pending"] == 0 and hasattr(run, "last_train"):
                t = run.last_train
                el = (time.perf_counter() - start) / 60
                spent = f"{el:.1f}/{cfg.minutes:g} min" if cfg.minutes else f"{el:.1f} min"
                cpu()
                log(f"step {st['step']:>6}  loss {t['loss']:.3f} (policy {t['policy_loss']:.3f}, value {t['value_loss']:.3f})  "
                    f"{t['steps_per_second']:.0f} steps/s, replay ratio {t['replay_ratio']:.1f}  "
                    f"{spent}, {(time.process_time() - cpu_start + run.remote_cpu) / 60:.1f} CPU min")
                if cfg.eval_every > 0 and st["generation"] % cfg.eval_every == 0:
                    run.evaluate(st)
            if time.perf_counter() - last_ckpt >= cfg.checkpoint_minutes * 60:
                saved_path = save()
                last_ckpt = time.perf_counter()
        if cfg.eval_every > 0 and run.last_eval_step != st["step"]:
            run.evaluate(st)
        saved_path = save()
    except KeyboardInterrupt:
        saved_path = save()
        log(f"interrupted at step {st['step']}: checkpoint {saved_path} saved; continue with --resume")
        raise
    finally:
        if pool is not None:
            pool.close()
    log(f"checkpoint {saved_path}")
    total = st["selfplay_seconds"]
    return {"checkpoint": saved_path, "step": st["step"], "generation": st["generation"], "games": st["games"],
            "moves": st["moves"], "moves_per_second": st["moves"] / total if total else 0.0,
            "network_share": st["network_seconds"] / total if total else 0.0, "cpu_seconds": st["cpu_seconds"],
            "session_cpu_seconds": time.process_time() - cpu_start + run.remote_cpu,
            "latest": latest_checkpoint(cfg.out)}
