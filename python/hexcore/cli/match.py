"""``python -m hexcore match``: a seeded match between bots, seats alternating game by game"""
from __future__ import annotations

import argparse
from typing import Any

from ..progress import Bar
from ._common import add_threads_argument, check_output, write_json


def add_parser(sub: Any) -> None:
    p = sub.add_parser("match", help="a seeded match between bots, seats alternating game by game")
    p.add_argument("spec")
    p.add_argument("--players", nargs="+", required=True,
                    help="one spec per seat: random, mcts:N, mcts:time=S (either with ,c=X), openspiel:N, openspiel:time=S, az:PATH[,sims=N]")
    p.add_argument("--games", "-n", type=int, default=200)
    add_threads_argument(p, "games played at once, each search on one thread (the results do not depend on it)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", help="write the results as JSON")


def run(args: argparse.Namespace) -> int:
    from ..match import parse_player, play_match

    for spec in args.players:
        parse_player(spec)  # a bad spec is reported before the game is loaded
    check_output(args.json, "--json")
    bar = Bar(args.games, "games")

    def progress(done: int, total: int) -> None:
        bar.update(done)

    res = play_match(args.spec, args.players, games=args.games, seed=args.seed, threads=args.threads,
                     progress=progress)
    bar.close()
    print(res.table())
    if args.json:
        write_json(args.json, res.to_dict())
    return 0
