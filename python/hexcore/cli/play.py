"""``python -m hexcore play``: play a bot in the terminal"""
from __future__ import annotations

import argparse
from typing import Any

from ._common import add_threads_argument


def add_parser(sub: Any) -> None:
    from ..match import PLAYER_SPECS

    p = sub.add_parser("play", help="play a bot in the terminal")
    p.add_argument("spec")
    p.add_argument("--bot", default="mcts:2000",
                    help="the bot: " + PLAYER_SPECS)
    p.add_argument("--human", type=int, default=1, help="your seat (1 moves first)")
    p.add_argument("--seed", type=int, default=0)
    add_threads_argument(p, "the bot's search threads (1: the same game for the same seed)")


def run(args: argparse.Namespace) -> int:
    from ..match import parse_player, play_loop

    parse_player(args.bot)
    return play_loop(args.spec, bot=args.bot, human=args.human, seed=args.seed, threads=args.threads)
