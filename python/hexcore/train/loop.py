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
"""
from __future__ import annotations

import importlib
import json
import math
import os
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from .._core import check_threads
from ..spec import load
from .checkpoint import latest_checkpoint, list_checkpoints, load_checkpoint, save_checkpoint
from .selfplay import Samples, derive_seed, play_generation
from .symmetry import symmetries

__all__ = ["TrainConfig", "train", "Learner"]

Learner = Any  # callable evaluator with train_step(obs, masks, policies, values, seed), state(), from_state()


@dataclass
class TrainConfig:
    """The settings of a run (stored in its checkpoints)."""

    spec: str
    out: str
    minutes: Optional[float] = None
    cpu_minutes: Optional[float] = None
    steps: Optional[int] = None
    threads: int = 2
    seed: int = 0
    algorithm: str = "gumbel"
    simulations: int = 32
    max_considered: int = 16
    gumbel_scale: float = 1.0
    value_mix: float = 0.0
    games: int = 64
    slots: Optional[int] = None
    random_plies: int = 0
    curriculum: int = 0
    value_steps: int = 0
    batch: int = 256
    buffer: int = 50_000
    reuse: float = 4.0
    net: str = "resnet"
    features: str = "none"
    channels: int = 32
    blocks: int = 2
    lr: float = 2e-3
    weight_decay: float = 1e-4
    augment: bool = True
    checkpoint_minutes: float = 3.0
    keep: int = 5
    eval_every: int = 5
    eval_games: int = 20
    eval_simulations: int = 32
    opponents: List[str] = field(default_factory=lambda: ["random", "mcts:200"])
    labelled: int = 100
    label_nodes: int = 300_000
    plots: bool = True


def _check(cfg: TrainConfig) -> None:
    if cfg.minutes is None and cfg.steps is None and cfg.cpu_minutes is None:
        raise ValueError("give a budget: --minutes M, --cpu-minutes M or --steps N")
    for name in ("minutes", "cpu_minutes"):
        v = getattr(cfg, name)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0):
            raise ValueError(f"{name} must be a positive number, got {v}")
    if cfg.steps is not None and (isinstance(cfg.steps, bool) or not isinstance(cfg.steps, int) or cfg.steps < 1):
        raise ValueError(f"steps must be a whole number >= 1, got {cfg.steps}")
    check_threads(cfg.threads)  # the core's check (1..MAX_THREADS)
    if isinstance(cfg.seed, bool) or not isinstance(cfg.seed, int) or cfg.seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {cfg.seed}")
    if cfg.algorithm not in ("gumbel", "puct"):
        raise ValueError(f"algorithm must be 'gumbel' or 'puct', got {cfg.algorithm!r}")
    if cfg.slots is not None and (isinstance(cfg.slots, bool) or not isinstance(cfg.slots, int) or cfg.slots < 1):
        raise ValueError(f"slots must be a whole number >= 1, got {cfg.slots}")
    if not (isinstance(cfg.value_mix, (int, float)) and 0 <= cfg.value_mix <= 1):
        raise ValueError(f"value_mix must be a number in [0, 1], got {cfg.value_mix}")
    if not (isinstance(cfg.gumbel_scale, (int, float)) and math.isfinite(cfg.gumbel_scale) and cfg.gumbel_scale >= 0):
        raise ValueError(f"gumbel_scale must be a number >= 0, got {cfg.gumbel_scale}")
    if cfg.net not in ("resnet", "mlp"):
        raise ValueError(f"net must be 'resnet' or 'mlp', got {cfg.net!r}")
    if cfg.features not in ("none", "groups"):
        raise ValueError(f"features must be 'none' or 'groups', got {cfg.features!r}")
    for name in ("random_plies", "curriculum", "value_steps"):
        v = getattr(cfg, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {v}")
    if cfg.curriculum and not cfg.random_plies:
        raise ValueError("curriculum needs random_plies > 0 (the latest start)")
    for name in ("simulations", "max_considered", "games", "batch", "buffer", "channels", "keep"):
        v = getattr(cfg, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {v}")
    from ..match import parse_player

    for o in cfg.opponents:
        parse_player(o)


def _torch_learner(config: Dict[str, Any], seed: int) -> Learner:
    # by name, so that type checks follow hexcore.train.torchnet only where
    # torch is installed (tests/test_typing.py NEEDS)
    torchnet = importlib.import_module("hexcore.train.torchnet")
    learner: Learner = torchnet.TorchLearner(config, seed)
    return learner


def _geometry(game: Any) -> Dict[str, Any]:
    torchnet = importlib.import_module("hexcore.train.torchnet")
    geo: Dict[str, Any] = torchnet.board_geometry(game)
    return geo


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
            self.net_config.update(features=cfg.features, **_geometry(g))
        self.make_learner = make_learner
        self.syms = symmetries(g) if cfg.augment else symmetries(g)[:1]
        self.metrics_path = os.path.join(cfg.out, "metrics.jsonl")
        self.positions: Optional[List[Any]] = None
        self.last_eval_step = -1

    # ---------------------------------------------------------------- state
    def fresh(self) -> Dict[str, Any]:
        learner = self.make_learner(self.net_config, derive_seed(self.cfg.seed, 1))
        return {"learner": learner, "generation": 0, "step": 0, "pending": 0, "buffer": None,
                "games": 0, "moves": 0, "selfplay_seconds": 0.0, "network_seconds": 0.0, "train_seconds": 0.0,
                "cpu_seconds": 0.0, "metrics_lines": 0}

    def save(self, st: Dict[str, Any]) -> str:
        learner = st["learner"]
        cls = type(learner)
        data = {k: v for k, v in st.items() if k != "learner"}
        data.update(format=1, config=asdict(self.cfg), learner=f"{cls.__module__}:{cls.__qualname__}",
                    learner_state=learner.state())
        return save_checkpoint(self.cfg.out, st["step"], data, keep=self.cfg.keep)

    def restore(self, data: Dict[str, Any]) -> Dict[str, Any]:
        from .agent import learner_from_checkpoint

        st = {k: data[k] for k in ("generation", "step", "pending", "buffer", "games", "moves", "selfplay_seconds",
                                   "network_seconds", "train_seconds", "metrics_lines")}
        st["cpu_seconds"] = data.get("cpu_seconds", 0.0)
        st["learner"] = learner_from_checkpoint(data)
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

    def min_random_plies(self, st: Dict[str, Any]) -> int:
        return curriculum_floor(self.cfg.random_plies, self.cfg.curriculum, st["generation"])

    def generation(self, st: Dict[str, Any]) -> None:
        cfg = self.cfg
        samples, stats = play_generation(self.game, st["learner"], cfg.games, cfg.simulations,
                                         derive_seed(cfg.seed, 2, st["generation"]), cfg.algorithm, cfg.threads,
                                         max_considered=cfg.max_considered, slots=cfg.slots,
                                         random_plies=cfg.random_plies, value_mix=cfg.value_mix,
                                         gumbel_scale=cfg.gumbel_scale, min_random_plies=self.min_random_plies(st),
                                         value_steps=cfg.value_steps)
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
               "network_share": stats.network_seconds / max(stats.seconds, 1e-9), "evaluations": stats.evaluations,
               "seat_scores": (stats.wins / stats.games).tolist(), "buffer": len(buf),
               "mean_plies": stats.moves / stats.games}
        self.write_metrics(st, row)
        self.last_selfplay = row

    def train_steps(self, st: Dict[str, Any], until: Optional[int], expired: Callable[[], bool]) -> None:
        losses: List[Dict[str, float]] = []
        t0 = time.perf_counter()
        while st["pending"] > 0:
            if until is not None and st["step"] >= until:
                break
            if expired():
                break
            obs, masks, pols, vals = self.batch(st)
            losses.append(st["learner"].train_step(obs, masks, pols, vals, derive_seed(self.cfg.seed, 4, st["step"])))
            st["step"] += 1
            st["pending"] -= 1
        st["train_seconds"] += time.perf_counter() - t0
        if losses:
            row: Dict[str, Any] = {"kind": "train", "generation": st["generation"], "step": st["step"],
                                   "steps": len(losses)}
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
        at most 19 cells), cached in the run folder."""
        import pickle

        g = self.game
        if self.cfg.labelled <= 0 or g.num_players != 2 or g.board.num_cells > 19:
            return
        path = os.path.join(self.cfg.out, "labelled.pkl")
        if os.path.exists(path):
            with open(path, "rb") as f:
                self.positions = pickle.load(f)
            return
        from .benchmark import labelled_positions

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


def train(cfg: TrainConfig, resume: bool = False, make_learner: Optional[Callable[[Dict[str, Any], int], Learner]] = None,
          log: Callable[[str], None] = print) -> Dict[str, Any]:
    """Runs (or with ``resume`` continues) a training run in ``cfg.out``
    until ``cfg.steps`` training steps in all, ``cfg.minutes`` more
    minutes or ``cfg.cpu_minutes`` more minutes of this process's CPU time
    (all its threads: the measure on a shared machine); returns a summary. ``make_learner(config, seed)`` builds the
    network (default: the PyTorch one). Raises ``ValueError`` for bad
    settings, for a run folder that already has checkpoints without
    ``resume`` and for a checkpoint of another game; ``FileNotFoundError``
    when ``resume`` finds no checkpoint."""
    _check(cfg)
    load(cfg.spec)  # an unknown spec fails before anything is written
    existing = list_checkpoints(cfg.out)
    data = None
    if resume:
        if not existing:
            raise FileNotFoundError(f"--resume: no checkpoint in {cfg.out}")
        data = load_checkpoint(cfg.out)
        saved = TrainConfig(**data["config"])
        if load(saved.spec).spec != load(cfg.spec).spec:
            raise ValueError(f"the checkpoint in {cfg.out} is a run of {saved.spec}, not {cfg.spec}")
        cfg = replace(saved, out=cfg.out, minutes=cfg.minutes, steps=cfg.steps, cpu_minutes=cfg.cpu_minutes)
    elif existing:
        raise ValueError(f"{cfg.out} already holds a run ({len(existing)} checkpoints); "
                         "continue it with --resume or choose another --out")
    os.makedirs(cfg.out, exist_ok=True)
    run = _Run(cfg, make_learner or _torch_learner, log)
    st = run.restore(data) if data is not None else run.fresh()
    if data is not None:
        log(f"resumed {data['path']} at step {st['step']}, generation {st['generation']}")
    run.labelled()
    start = time.perf_counter()
    cpu_mark = time.process_time()

    def cpu() -> None:  # this process's CPU time (all its threads), for runs on a shared machine
        nonlocal cpu_mark
        now = time.process_time()
        st["cpu_seconds"] += now - cpu_mark
        cpu_mark = now

    deadline = start + cfg.minutes * 60 if cfg.minutes is not None else None
    cpu_deadline = cpu_mark + cfg.cpu_minutes * 60 if cfg.cpu_minutes is not None else None

    def expired() -> bool:
        return ((deadline is not None and time.perf_counter() >= deadline)
                or (cpu_deadline is not None and time.process_time() >= cpu_deadline))

    last_ckpt = start
    saved_path = None

    def done() -> bool:
        return (cfg.steps is not None and st["step"] >= cfg.steps) or expired()

    try:
        while not done():
            if st["pending"] == 0:
                run.generation(st)
                sp = run.last_selfplay
                log(f"gen {st['generation']:>4}  games {st['games']:>6}  {sp['moves_per_second']:8.0f} moves/s  "
                    f"network {sp['network_share']:4.0%}  plies {sp['mean_plies']:5.1f}  buffer {sp['buffer']}")
            run.train_steps(st, cfg.steps, expired)
            if st["pending"] == 0 and hasattr(run, "last_train"):
                t = run.last_train
                el = (time.perf_counter() - start) / 60
                budget = f"{el:.1f}/{cfg.minutes:g} min" if cfg.minutes else f"{el:.1f} min"
                cpu()
                log(f"step {st['step']:>6}  loss {t['loss']:.3f} (policy {t['policy_loss']:.3f}, value {t['value_loss']:.3f})  "
                    f"{budget}, {st['cpu_seconds'] / 60:.1f} CPU min")
                if cfg.eval_every > 0 and st["generation"] % cfg.eval_every == 0:
                    run.evaluate(st)
            if time.perf_counter() - last_ckpt >= cfg.checkpoint_minutes * 60:
                cpu()
                saved_path = run.save(st)
                last_ckpt = time.perf_counter()
        if cfg.eval_every > 0 and run.last_eval_step != st["step"]:
            run.evaluate(st)
        cpu()
        saved_path = run.save(st)
    except KeyboardInterrupt:
        cpu()
        saved_path = run.save(st)
        log(f"interrupted: checkpoint {saved_path}")
        raise
    finally:
        if cfg.plots:
            try:
                from .plots import write_plots

                write_plots(cfg.out)
            except ImportError:
                log("matplotlib is not installed; no plots written")
    log(f"checkpoint {saved_path}")
    total = st["selfplay_seconds"]
    return {"checkpoint": saved_path, "step": st["step"], "generation": st["generation"], "games": st["games"],
            "moves": st["moves"], "moves_per_second": st["moves"] / total if total else 0.0,
            "network_share": st["network_seconds"] / total if total else 0.0, "cpu_seconds": st["cpu_seconds"],
            "latest": latest_checkpoint(cfg.out)}
