"""``python -m hexcore train SPEC --out DIR [--minutes M | --steps N] ...``: AlphaZero-style training (``hexcore.train``)."""
from __future__ import annotations

from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser("train", help="train an AlphaZero agent by self-play (needs hexcore[train])")
    p.add_argument("spec", help='game spec, e.g. "churn(size=3,pie=false)"')
    p.add_argument("--out", required=True, help="run folder: checkpoints, metrics.jsonl, plots")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, help="minutes of training (this invocation)")
    budget.add_argument("--cpu-minutes", type=float,
                        help="minutes of this process's CPU time, all threads (this invocation; 2 idle cores give 2 a minute)")
    budget.add_argument("--steps", type=int, help="training steps in all (reproducible)")
    p.add_argument("--threads", type=int, default=2, help="search and network threads")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--resume", action="store_true", help="continue the run in --out from its newest checkpoint")
    p.add_argument("--algorithm", choices=["gumbel", "puct"], default="gumbel", help="self-play search")
    p.add_argument("--simulations", type=int, default=32, help="self-play simulations per action")
    p.add_argument("--max-considered", type=int, default=16, help="Gumbel: root actions considered per search")
    p.add_argument("--gumbel-scale", type=float, default=1.0, help="Gumbel: scale of the self-play root noise")
    p.add_argument("--value-mix", type=float, default=0.0,
                   help="value target: (1 - x) * outcome + x * the search's root value")
    p.add_argument("--games", type=int, default=64, help="games played at once per generation")
    p.add_argument("--slots", type=int, help="games searched at once (default: --games); a finished game's slot starts the next")
    p.add_argument("--random-plies", type=int, default=0,
                   help="start each self-play game after 0..N uniformly random actions (not recorded)")
    p.add_argument("--curriculum", type=int, default=0,
                   help="start every game after exactly --random-plies random actions at first, widening the start "
                        "to 0..--random-plies linearly over N generations")
    p.add_argument("--value-steps", type=int, default=0,
                   help="value target: the search's root value N plies later (the outcome where the game ends sooner)")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--reuse", type=float, default=4.0, help="times each new position is trained on (on average)")
    p.add_argument("--net", choices=["resnet", "mlp"], default="resnet",
                   help="residual CNN, or a multilayer perceptron (--channels units, --blocks + 1 hidden layers)")
    p.add_argument("--features", choices=["none", "groups"], default="none",
                   help="groups: a fixed layer adds each seat's group sizes, the group a stone would form on each "
                        "empty cell, Churn's smallest-group cells and removals, and stone counts to the planes")
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--blocks", type=int, default=2)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--no-augment", action="store_true", help="no board-symmetry augmentation")
    p.add_argument("--checkpoint-minutes", type=float, default=3.0)
    p.add_argument("--eval-every", type=int, default=5, help="evaluate every N generations and at the end (0: never)")
    p.add_argument("--eval-games", type=int, default=20, help="games against each opponent per evaluation")
    p.add_argument("--eval-simulations", type=int, default=32)
    p.add_argument("--opponents", nargs="*", default=["random", "mcts:200"], help="fixed opponents (match player specs)")
    p.add_argument("--labelled", type=int, default=100, help="solver-labelled positions for the mistake rate (0: none)")
    p.add_argument("--label-nodes", type=int, default=300_000, help="solver nodes per labelled position (harder ones are skipped)")


def run(args: Any) -> int:
    from ..train.loop import TrainConfig, train

    cfg = TrainConfig(spec=args.spec, out=args.out, minutes=args.minutes, cpu_minutes=args.cpu_minutes, steps=args.steps, threads=args.threads,
                      seed=args.seed, algorithm=args.algorithm, simulations=args.simulations,
                      max_considered=args.max_considered, gumbel_scale=args.gumbel_scale, value_mix=args.value_mix,
                      games=args.games, reuse=args.reuse,
                      slots=args.slots, random_plies=args.random_plies, curriculum=args.curriculum,
                      value_steps=args.value_steps, net=args.net, features=args.features,
                      batch=args.batch, channels=args.channels, blocks=args.blocks, lr=args.lr,
                      augment=not args.no_augment, checkpoint_minutes=args.checkpoint_minutes,
                      eval_every=args.eval_every, eval_games=args.eval_games, eval_simulations=args.eval_simulations,
                      opponents=list(args.opponents), labelled=args.labelled,
                      label_nodes=args.label_nodes)
    if cfg.minutes is None and cfg.steps is None and cfg.cpu_minutes is None and not args.resume:
        cfg.minutes = 10.0
    r = train(cfg, resume=args.resume, log=lambda s: print(s, flush=True))
    print(f"done: {r['step']} steps, {r['games']} self-play games, {r['moves_per_second']:.0f} moves/s, "
          f"network {r['network_share']:.0%} of self-play time, {r['cpu_seconds'] / 60:.1f} CPU minutes in this process")
    return 0
