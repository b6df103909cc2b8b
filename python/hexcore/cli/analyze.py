"""``python -m hexcore analyze SPEC ...``: the designer's report as an HTML page (and JSON)."""
from __future__ import annotations

import sys
from typing import Any

from ..analysis import DEFAULT_LADDER, AnalysisInterrupted, Report, analyze
from ._common import CommandError, OutputSaved, add_threads_argument, check_output, save_output

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Add the ``analyze`` subcommand to ``python -m hexcore``."""
    pa = sub.add_parser("analyze", help="a designer's report: balance, duration, complexity, swap map, skill ladder")
    pa.add_argument("spec", help='game spec, e.g. "churn(size=3,pie=false)"')
    pa.add_argument("--games", "-n", type=int, default=100,
                    help="games per level of play, per ladder match and per opening of an mcts swap map (default 100)")
    pa.add_argument("--ladder", help=f"player specs, weakest first (default {','.join(DEFAULT_LADDER)}, and agent:sims=64 "
                                     "where the game has a shipped agent)")
    pa.add_argument("--swap-map", default=None,
                    help="exact, mcts:N or off (default: exact where the solver applies, else mcts:100)")
    pa.add_argument("--playouts", type=int, default=10_000, help="random playouts for random play's outcome and duration")
    add_threads_argument(pa, "games played at once, each search on one thread (the report does not depend on it)")
    pa.add_argument("--ray", action="store_true", help="run on a Ray cluster (the random playouts and the games; the same report)")
    pa.add_argument("--seed", type=int, default=0)
    pa.add_argument("--out", required=True, help="the HTML page to write")
    pa.add_argument("--json", help="also write the report as JSON")


def _write(rep: Report, args: Any) -> None:
    """Write the page and the JSON; one that cannot be written is saved to a
    temporary file instead (the analysis is never lost) and the command
    fails saying where."""
    failed = []
    for path, text, suffix, done in [(args.out, rep.to_html, ".html", "report written to"),
                                     (args.json, rep.to_json, ".json", "JSON written to")]:
        if not path:
            continue
        try:
            save_output(path, text(), "report", suffix)
        except OutputSaved as e:
            failed.append(str(e))
            continue
        print(f"{done} {path}")
    if failed:
        raise CommandError("; ".join(failed))


def run(args: Any) -> int:
    check_output(args.out, "--out")
    check_output(args.json, "--json")
    from ..analysis.html import _plt

    _plt()  # matplotlib is needed for the page: say so before the run
    try:
        rep = analyze(args.spec, games=args.games, ladder=args.ladder, swap_map=args.swap_map, threads=args.threads,
                      ray=args.ray, seed=args.seed, playouts=args.playouts)
    except AnalysisInterrupted as e:
        print("interrupted: writing what was done", file=sys.stderr)
        _write(e.report, args)
        return 130
    _write(rep, args)
    secs = rep.about.get("seconds", {}).get("total", 0.0)
    print(f"{rep.spec}: {len(rep.metrics)} levels, {len(rep.swap_map)} openings, ladder depth "
          f"{rep.about.get('depth', '-')}, {secs:.1f} s")
    return 0
