"""``python -m hexcore train SPEC [--cpu-minutes M | --minutes M | --steps N] [--device auto|cpu|cuda]
[--ray [--address A] [--actors N]] ...``: AlphaZero-style training (``hexcore.train``; with ``--ray``
self-play actors on a Ray cluster, ``hexcore.train.actors``). The flags are built from
:class:`hexcore.train.config.TrainConfig`'s fields; every flag not given takes
the game's recipe (:func:`hexcore.train.config.recipe`), or on ``--resume``
the run's own setting."""
from __future__ import annotations

import argparse
from typing import Any, Dict

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    from ..train.config import BUDGET, default_of, option_fields

    p = sub.add_parser("train", help="train an AlphaZero agent by self-play (needs hexcore[train])",
                       description="Train an agent by self-play. Every setting not given takes the game's recipe "
                                   "(the settings measured to learn on it; the training guide), or with --resume the "
                                   "run's own. Ctrl-C saves a checkpoint; --resume continues it.")
    p.add_argument("spec", help='game spec, e.g. "hex(size=5)"')
    p.add_argument("--out", help="run folder: checkpoints, metrics.jsonl, plots (default: runs/ and the game's spec)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out from its newest checkpoint")
    budget = p.add_mutually_exclusive_group()
    for f in option_fields():
        m = f.metadata
        flag = m["flag"] or "--" + f.name.replace("_", "-")
        where = budget if m["group"] == BUDGET else p
        d = default_of(f)
        if isinstance(d, bool):
            where.add_argument(flag, dest=f.name, action="store_false" if d else "store_true", default=argparse.SUPPRESS,
                               help=m["help"])
            continue
        kind = int if m["whole"] else float if f.type in ("float", "Optional[float]") else str
        kw: Dict[str, Any] = {"dest": f.name, "default": argparse.SUPPRESS, "help": m["help"]}
        if isinstance(d, list):
            kw["nargs"] = "*"
        else:
            kw["type"] = kind
        if m["choices"]:
            kw["choices"] = m["choices"]
        where.add_argument(flag, **kw)


def run(args: Any) -> int:
    import os

    from .._core import check_threads
    from ..spec import load
    from ..train.checkpoint import list_checkpoints, load_checkpoint
    from ..train.config import BUDGET, TrainConfig, check_config, default_of, option_fields, recipe
    from ..train.loop import train

    given = {f.name: getattr(args, f.name) for f in option_fields() if hasattr(args, f.name)}
    game = load(args.spec)
    out = args.out or os.path.join("runs", "".join(c if c.isalnum() else "-" for c in game.spec).strip("-"))
    if args.resume:
        if not list_checkpoints(out):
            raise FileNotFoundError(f"--resume: no checkpoint in {out}")
        saved = load_checkpoint(out)["config"]
        # the budget, and where the run runs (device, Ray), are this invocation's alone
        own = {f.name: default_of(f) for f in option_fields()
               if f.metadata["group"] == BUDGET or not f.metadata["inherited"]}
        cfg = TrainConfig(**{**saved, "out": out, **own, **given})
        if cfg.minutes is None and cfg.cpu_minutes is None and cfg.steps is None:
            raise ValueError("--resume needs a budget for this invocation: --cpu-minutes M, --minutes M or --steps N "
                             "(in all)")
    else:
        # --threads not given: one per core, as every command resolves it (stored in the run)
        settings = {**recipe(game), "threads": int(check_threads(None)), **given}
        cfg = TrainConfig(spec=args.spec, out=out, **settings)
        if cfg.minutes is None and cfg.steps is None and cfg.cpu_minutes is None:
            cfg.minutes = 10.0
    check_config(cfg)  # every flag checked before anything runs
    try:
        r = train(cfg, resume=args.resume, log=lambda s: print(s, flush=True))
    except KeyboardInterrupt:
        return 130  # the run said where its checkpoint is: not an error
    print(f"done: {r['step']} steps in all, {r['games']} self-play games, {r['moves_per_second']:.0f} moves/s, "
          f"network {r['network_share']:.0%} of self-play time; {r['session_cpu_seconds'] / 60:.1f} CPU minutes in "
          f"this invocation, {r['cpu_seconds'] / 60:.1f} in the run")
    return 0
