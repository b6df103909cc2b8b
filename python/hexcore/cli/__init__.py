"""Command line: ``python -m hexcore [report|perft|bench|stats|show|solve|match|play|train|analyze|serve] ...``
(one module per command in ``hexcore.cli``).

Without arguments it runs a short report on Churn side 3: perft, random
playouts against the published statistics, and the speed of the Rust engine
against the pure-Python reference.
"""
from __future__ import annotations

import argparse
import sys
from typing import Callable, Dict, Optional, Sequence

from .._core import __version__
from ..errors import HexcoreError
from . import analyze, bench, match, perft, play, report, serve, show, solve, stats, train
from ._common import CommandError, one_line

#: The commands in ``--help`` order, each a module with ``add_parser(sub)`` and ``run(args)``.
COMMANDS = {"report": report, "perft": perft, "stats": stats, "bench": bench, "show": show, "solve": solve,
            "match": match, "play": play, "train": train, "analyze": analyze, "serve": serve}


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hexcore", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"hexcore {__version__}")
    sub = p.add_subparsers(dest="cmd")
    for module in COMMANDS.values():
        module.add_parser(sub)
    args = p.parse_args(argv)
    run: Dict[str, Callable[[argparse.Namespace], int]] = {name: m.run for name, m in COMMANDS.items()}
    try:
        return run[args.cmd or "report"](args)
    except (CommandError, HexcoreError, ValueError, TypeError, OSError, ImportError, MemoryError) as e:
        print(f"error: {one_line(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


__all__ = ["main", "COMMANDS", "CommandError"]
