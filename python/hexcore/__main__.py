"""Command line: ``python -m hexcore [report|perft|bench|stats|show|solve|match|play] ...``.

Without arguments it runs a short report on Churn side 3: perft, random
playouts against the published statistics, and the speed of the Rust engine
against the pure-Python reference.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Sequence

from . import load, perft, random_playouts
from .errors import HexcoreError, TooManyMovesError
from .registry import INFO


def _game(spec: str, moves: Optional[Sequence[str]] = None) -> Any:
    g = load(spec)
    for m in moves or []:
        g.play(m)
    return g


def _progress(done: int, total: int, start: float) -> None:
    if not sys.stderr.isatty():
        return
    width = 30
    filled = int(width * done / max(total, 1))
    el = time.perf_counter() - start
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {el:6.1f}s")
    sys.stderr.flush()
    if done == total:
        sys.stderr.write("\r" + " " * (width + 30) + "\r")


def _root_moves(g: Any) -> Optional[List[str]]:
    """The root moves to show progress over, or None when there are none or
    too many to list (then perft runs without a progress bar)."""
    if g.is_over or g.pending_actions:
        return None
    try:
        moves: List[str] = g.legal_moves()
    except TooManyMovesError:
        return None
    return moves


def _ray_module() -> Any:
    try:
        from . import distributed
    except ImportError as e:
        raise CommandError(f"--backend ray needs the ray package, which cannot be imported ({e}); "
                           "install it with: pip install 'hexcore[ray]'") from None
    return distributed


class CommandError(Exception):
    """An error the command line reports as one line."""


def _check_output(path: Optional[str], flag: str) -> None:
    """Refuse an output file that cannot be written, before a long run starts."""
    if not path:
        return
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CommandError(f"{flag} {path}: is a directory")
    if not os.path.isdir(parent):
        raise CommandError(f"{flag} {path}: the directory {parent} does not exist")
    if not os.access(path if os.path.exists(path) else parent, os.W_OK):
        raise CommandError(f"{flag} {path}: not writable")


def _write_json(path: str, data: Any) -> None:
    """Write ``data`` to ``path``; if that fails after all, save it to a new
    file in the temporary directory (a finished run is never lost) and
    report both."""
    try:
        with open(path, "w") as f:
            json.dump(data, f, indent=1)
    except OSError as e:
        fd, saved = tempfile.mkstemp(prefix="hexcore-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1)
        raise CommandError(f"cannot write {path}: {e.strerror or e}; the results were saved to {saved}") from None
    print(f"results written to {path}")


def _ray_job(args: argparse.Namespace) -> Dict[str, Any]:
    """The job arguments of ``--ray`` (address, checkpoint, tasks)."""
    return {"address": args.address, "checkpoint": args.checkpoint, "tasks": args.tasks}


def _use_ray(args: argparse.Namespace) -> bool:
    use = bool(args.ray or args.backend == "ray")
    if not use and (args.address or args.checkpoint or args.tasks):
        raise CommandError("--address, --checkpoint and --tasks need --ray")
    return use


def cmd_perft(args: argparse.Namespace) -> int:
    g = _game(args.spec, args.moves)
    t0 = time.perf_counter()
    nodes: Any
    if _use_ray(args):
        distributed = _ray_module()
        result: Any = distributed.perft(g, args.depth, unit=args.unit, divide=args.divide, threads=args.threads,
                                        **_ray_job(args))
        if args.divide:
            for name, n in result:
                print(f"{name}: {n}")
            print()
            nodes = sum(n for _, n in result) if args.depth > 0 else 1
        else:
            nodes = result
    elif args.divide:
        rows: Any = perft(g, args.depth, unit=args.unit, divide=True, threads=args.threads)
        for name, n in rows:
            print(f"{name}: {n}")
        nodes = sum(n for _, n in rows) if args.depth > 0 else 1
        print()
    else:
        moves = _root_moves(g) if sys.stderr.isatty() and args.depth >= 3 and args.unit == "move" else None
        if moves is not None:
            # Walk the root moves one by one to show progress.
            nodes = 0
            for i, m in enumerate(moves):
                c = g.copy()
                c.play(m)
                nodes += perft(c, args.depth - 1, threads=args.threads)
                _progress(i + 1, len(moves), t0)
        else:
            nodes = perft(g, args.depth, unit=args.unit, threads=args.threads)
    dt = time.perf_counter() - t0
    print(f"Nodes searched: {nodes}")
    print(f"Time: {dt:.3f} s")
    print(f"Nodes/second: {nodes / dt if dt > 0 else float('inf'):,.0f}")
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    g = _game(args.spec, args.moves)
    if isinstance(args.games, int) and args.games == 0:
        raise CommandError("no games were played (--games 0); give --games 1 or more")
    t0 = time.perf_counter()
    if _use_ray(args):
        distributed = _ray_module()
        s = distributed.random_playouts(g, args.games, seed=args.seed, threads=args.threads, summary=True, **_ray_job(args))
    else:
        s = random_playouts(g, args.games, seed=args.seed, threads=args.threads).summary()
    dt = time.perf_counter() - t0
    n = s.games
    print(f"{args.spec}: {n} random games (seed {args.seed}) in {dt:.2f} s, {s.plies / dt:,.0f} plies/s")
    print(f"game length (plies): mean {s.mean:.1f} (se {s.sd / max(n, 1) ** 0.5:.1f}), sd {s.sd:.1f}, "
          f"median {s.quantile(0.5):.0f}, 5%-95% {s.quantile(0.05):.0f}-{s.quantile(0.95):.0f}")
    for p in range(1, g.num_players + 1):
        won = s.win_rate(p)
        print(f"player {p} wins: {won:.4f} (se {(won * (1 - won) / max(n, 1)) ** 0.5:.4f})")
    print(f"draws / shared: {(s.draws + s.shared) / n:.4f}")
    if args.plot:
        try:
            import matplotlib  # type: ignore[import-not-found, unused-ignore]

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
        except ImportError:
            print("matplotlib is not installed; no plot written", file=sys.stderr)
            return 0
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.hist(list(s.lengths), bins=min(60, max(10, n // 20)), weights=list(s.lengths.values()))
        ax.set_xlabel("plies")
        ax.set_ylabel("games")
        ax.set_title(f"{args.spec}: {n} random games")
        fig.tight_layout()
        fig.savefig(args.plot)
        print(f"histogram written to {args.plot}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    g = _game(args.spec, args.moves)
    print(g)
    state = f"over, winners {g.winners}" if g.is_over else f"player {g.to_move} to move"
    print(f"{g.spec}  ply {g.ply}  {state}")
    if args.svg:
        from .render import svg

        try:
            with open(args.svg, "w") as f:
                f.write(svg(g))
        except OSError as e:
            raise CommandError(f"cannot write {args.svg}: {e.strerror or e}") from None
        print(f"picture written to {args.svg}")
    return 0


def _reference_rate(spec: str, games: int, seed: int) -> float:
    """Plies per second of the pure-Python reference on random games (see
    ``hexcore.bench.reference_job``)."""
    from .bench import reference_job

    job = reference_job(spec, games, seed)
    t0 = time.perf_counter()
    (plies,) = job()
    return plies / (time.perf_counter() - t0)


def cmd_bench(args: argparse.Namespace) -> int:
    import platform

    _check_output(args.json, "--json")
    print(f"hexcore bench on {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    from .bench import run_bench

    rows = run_bench(quick=args.quick, report=lambda line: print(line, flush=True))
    if args.json:
        _write_json(args.json, {"machine": platform.platform(), "rows": rows})
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from .match import parse_player, play_match

    for spec in args.players:
        parse_player(spec)  # a bad spec is reported before the game is loaded
    _check_output(args.json, "--json")
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        _progress(done, total, start)

    res = play_match(args.spec, args.players, games=args.games, seed=args.seed, threads=args.threads,
                     progress=progress)
    print(res.table())
    if args.json:
        _write_json(args.json, res.to_dict())
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .match import parse_player, play_loop

    parse_player(args.bot)
    return play_loop(args.spec, bot=args.bot, human=args.human, seed=args.seed, threads=args.threads)


def cmd_report(args: argparse.Namespace) -> int:
    """The default job: a short tour of Churn side 3."""
    spec = "churn(size=3,pie=false)"
    g = load(spec)
    print(f"hexcore report: {spec}\n")
    print(g)
    print("\nperft from the empty board (move level == action level):")
    for d in range(1, 6):
        t0 = time.perf_counter()
        a, b = perft(g, d), perft(g, d, unit="action")
        dt = time.perf_counter() - t0
        print(f"  depth {d}: {a:>10}  {'ok' if a == b else 'MISMATCH ' + str(b)}  ({dt:.3f} s)")
    n = 20_000
    t0 = time.perf_counter()
    res = random_playouts(g, n, seed=0)
    dt = time.perf_counter() - t0
    s = res.summary()
    print(f"\n{n} uniformly random games in {dt:.2f} s ({s.plies / dt:,.0f} plies/s):")
    print(f"  mean length {s.mean:.2f} plies (sd {s.sd:.2f}); published: 69.7 (sd 8.7)")
    print(f"  {INFO['churn'].player_names[0]} wins {float((res.winners == 1).mean()):.3f}; published: 0.514")
    ref = _reference_rate(spec, 30, 0)
    t0 = time.perf_counter()
    res = random_playouts(g, 3000, seed=0, threads=1)
    rust = res.plies.sum() / (time.perf_counter() - t0)
    print(f"\nRust engine {rust:,.0f} plies/s vs pure-Python reference {ref:,.0f} plies/s: {rust / ref:,.0f}x (one thread)")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hexcore", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd")
    sub.add_parser("report", help="the default short report on Churn side 3")

    pp = sub.add_parser("perft", help="count move sequences of a given depth")
    pp.add_argument("spec", help='game spec, e.g. "churn(size=3)"')
    pp.add_argument("--depth", "-d", type=int, required=True)
    pp.add_argument("--moves", nargs="*", default=[], help="moves to play first")
    pp.add_argument("--divide", action="store_true", help="one line per first step")
    pp.add_argument("--unit", choices=["move", "action"], default="move")
    pp.add_argument("--threads", type=int, default=None)
    pp.add_argument("--backend", choices=["local", "ray"], default="local", help="ray: the same as --ray")
    pp.add_argument("--ray", action="store_true", help="run on a Ray cluster (subtrees split into tasks), with a progress bar")
    pp.add_argument("--address", help="with --ray: the cluster to join (e.g. auto); default: a local Ray")
    pp.add_argument("--checkpoint", help="with --ray: record finished units in this file and resume from it")
    pp.add_argument("--tasks", type=int, help="with --ray: the number of tasks (default 4 per cluster CPU, at most 1000)")

    ps = sub.add_parser("stats", help="statistics of seeded random playouts")
    ps.add_argument("spec")
    ps.add_argument("--games", "-n", type=int, default=1000)
    ps.add_argument("--seed", type=int, default=0)
    ps.add_argument("--threads", type=int, default=None)
    ps.add_argument("--moves", nargs="*", default=[])
    ps.add_argument("--plot", help="write a histogram of game lengths (needs matplotlib)")
    ps.add_argument("--backend", choices=["local", "ray"], default="local", help="ray: the same as --ray")
    ps.add_argument("--ray", action="store_true", help="run on a Ray cluster (ranges of games summed on the workers), with a progress bar")
    ps.add_argument("--address", help="with --ray: the cluster to join (e.g. auto); default: a local Ray")
    ps.add_argument("--checkpoint", help="with --ray: record finished units in this file and resume from it")
    ps.add_argument("--tasks", type=int, help="with --ray: the number of tasks (default 4 per cluster CPU, at most 1000)")

    pb = sub.add_parser("bench", help="the standard benchmark suite")
    pb.add_argument("--json", help="write results as JSON")
    pb.add_argument("--quick", action="store_true", help="smaller workloads")

    pw = sub.add_parser("show", help="print a position (and optionally write an SVG)")
    pw.add_argument("spec")
    pw.add_argument("--moves", nargs="*", default=[])
    pw.add_argument("--svg")

    from . import solving as _solve_cli
    _solve_cli.add_parser(sub)

    pm = sub.add_parser("match", help="a seeded match between bots, seats alternating game by game")
    pm.add_argument("spec")
    pm.add_argument("--players", nargs="+", required=True,
                    help="one spec per seat: random, mcts:N, mcts:time=S (either with ,c=X), openspiel:N or openspiel:time=S")
    pm.add_argument("--games", "-n", type=int, default=200)
    pm.add_argument("--threads", type=int, default=1, help="search threads per move (1: deterministic)")
    pm.add_argument("--seed", type=int, default=0)
    pm.add_argument("--json", help="write the results as JSON")

    pl = sub.add_parser("play", help="play a bot in the terminal")
    pl.add_argument("spec")
    pl.add_argument("--bot", default="mcts:2000",
                    help="random, mcts:N, mcts:time=S (either with ,c=X), openspiel:N or openspiel:time=S")
    pl.add_argument("--human", type=int, default=1, help="your seat (1 moves first)")
    pl.add_argument("--seed", type=int, default=0)
    pl.add_argument("--threads", type=int, default=1)

    args = p.parse_args(argv)
    cmds = {"perft": cmd_perft, "stats": cmd_stats, "bench": cmd_bench, "show": cmd_show, "report": cmd_report}
    cmds["solve"] = _solve_cli.cmd_solve
    cmds["match"] = cmd_match
    cmds["play"] = cmd_play
    try:
        return cmds.get(args.cmd or "report", cmd_report)(args)
    except (CommandError, HexcoreError, ValueError, TypeError, OSError, ImportError, MemoryError) as e:
        print(f"error: {_one_line(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return text or type(e).__name__


if __name__ == "__main__":
    sys.exit(main())
