"""``python -m hexcore show``: print a position (and optionally write an SVG)"""
from __future__ import annotations

import argparse
from typing import Any

from ._common import CommandError, game


def add_parser(sub: Any) -> None:
    p = sub.add_parser("show", help="print a position (and optionally write an SVG)")
    p.add_argument("spec")
    p.add_argument("--moves", nargs="*", default=[])
    p.add_argument("--svg")


def run(args: argparse.Namespace) -> int:
    g = game(args.spec, args.moves)
    print(g)
    state = f"over, winners {g.winners}" if g.is_over else f"player {g.to_move} to move"
    print(f"{g.spec}  ply {g.ply}  {state}")
    if args.svg:
        from ..render import svg

        try:
            with open(args.svg, "w") as f:
                f.write(svg(g))
        except OSError as e:
            raise CommandError(f"cannot write {args.svg}: {e.strerror or e}") from None
        print(f"picture written to {args.svg}")
    return 0
