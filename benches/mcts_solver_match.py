"""MCTS-Solver against plain UCT at equal time a move, seats alternating.

    python benches/mcts_solver_match.py [--spec "churn(board=limping-34)"] [--games 100] [--seconds 0.2]
                                        [--threads 1] [--seed 0] [--json FILE] [--summary FILE]

Each game is played by ``hc.mcts(g, seconds=S, solver=True)`` and
``hc.mcts(g, seconds=S)`` (the game's default ``c`` for both, the same
number of threads), the solver taking the first seat in even games and the
second in odd ones; every search is seeded from ``(seed, game, ply)`` as
``python -m hexcore match`` seeds its games. Prints the solver's wins, draws
and losses with a 95% Wilson interval of its win rate (a draw counts half
of a win in the score), its results by seat, how many of its moves came from
a proven root, and the seconds and simulations each side searched a move
(the solver stops once its root is proven). ``--summary FILE`` prints the
summary of a match recorded with ``--json FILE`` again.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Dict, List

import hexcore as hc
from hexcore.match import derive_seed, wilson


def play(spec: str, game: int, seconds: float, threads: int, seed: int) -> Dict[str, Any]:
    """One game; the solver plays seat 1 in even games, seat 2 in odd ones."""
    g = hc.load(spec)
    solver_seat = 1 if game % 2 == 0 else 2
    sims = {"solver": 0, "uct": 0}
    spent = {"solver": 0.0, "uct": 0.0}
    proven_moves = 0
    solver_moves = 0
    while not g.is_over:
        use = g.to_move == solver_seat
        side = "solver" if use else "uct"
        r = hc.mcts(g, seconds=seconds, threads=threads, seed=derive_seed(seed, game, g.ply), solver=use)
        sims[side] += r.simulations
        spent[side] += r.seconds
        if use:
            solver_moves += 1
            proven_moves += r.proven is not None
        g.play(r.move)
    winners = list(g.winners)
    outcome = "draw" if len(winners) != 1 else ("win" if winners[0] == solver_seat else "loss")
    return {"game": game, "solver_seat": solver_seat, "outcome": outcome, "plies": g.ply, "sims": sims,
            "spent": spent, "solver_moves": solver_moves, "proven_moves": proven_moves}


def summary(games: List[Dict[str, Any]]) -> str:
    """The solver's results, by seat, and the search each side made."""
    n = len(games)
    count = {o: sum(1 for r in games if r["outcome"] == o) for o in ("win", "draw", "loss")}
    lo, hi = wilson(count["win"], n)
    score = (count["win"] + 0.5 * count["draw"]) / n
    lines = [f"solver: {count['win']} wins, {count['draw']} draws, {count['loss']} losses in {n} games: "
             f"win rate {count['win'] / n:.3f} (95% Wilson interval {lo:.3f} to {hi:.3f}), score {score:.3f}"]
    for seat in (1, 2):
        rs = [r for r in games if r["solver_seat"] == seat]
        w = sum(1 for r in rs if r["outcome"] == "win")
        a, b = wilson(w, len(rs))
        lines.append(f"  solver in seat {seat}: {w} of {len(rs)} won ({a:.3f} to {b:.3f})")
    moves = {"solver": sum(r["solver_moves"] for r in games)}
    moves["uct"] = sum(r["plies"] for r in games) - moves["solver"]
    proven = sum(r["proven_moves"] for r in games)
    lines.append(f"  solver moves from a proven root: {proven} of {moves['solver']}")
    for side in ("solver", "uct"):
        sims = sum(r["sims"][side] for r in games)
        spent = sum(r["spent"][side] for r in games)
        lines.append(f"  {side}: {spent / moves[side]:.3f} s searched a move, {sims / moves[side]:,.0f} simulations "
                     f"a move")
    lines.append(f"  mean plies {sum(r['plies'] for r in games) / n:.1f}")
    return "\n".join(lines)


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default="churn(board=limping-34)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0.2, help="seconds a move for both players")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write every game's record here")
    ap.add_argument("--summary", metavar="JSON", help="print the summary of a match written by --json, and stop")
    args = ap.parse_args(argv)
    if args.summary:
        with open(args.summary) as f:
            d = json.load(f)
        print(f"{d['spec']}: {d['seconds']} s a move, {d['threads']} thread(s), seed {d['seed']}")
        print(summary(d["games"]))
        return 0
    spec = hc.load(args.spec).spec
    print(f"{spec}: mcts(solver=True) vs mcts, {args.seconds} s a move, {args.threads} thread(s), "
          f"{args.games} games, seed {args.seed}", flush=True)
    t0 = time.perf_counter()
    games = []
    for i in range(args.games):
        rec = play(spec, i, args.seconds, args.threads, args.seed)
        games.append(rec)
        print(f"game {i + 1}: solver in seat {rec['solver_seat']}: {rec['outcome']} after {rec['plies']} plies",
              flush=True)
    print()
    print(summary(games))
    print(f"  {time.perf_counter() - t0:.0f} s in all")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"spec": spec, "seconds": args.seconds, "threads": args.threads, "seed": args.seed,
                       "games": games}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
