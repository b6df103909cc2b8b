"""The strength of the shipped agents (hexcore.agents), measured three ways.

    python benches/strength.py [--only SPEC ...] [--games 200] [--threads 2] [--json FILE]

- mistakes: on 100 solver-labelled positions (``labelled_positions(spec, 100,
  seed=0, max_nodes=300_000)``: the mover wins, some move loses), the share
  where the agent's move loses, the network alone and with 64 simulations
  (boards of at most 25 cells);
- openings (Hex 6x6 and 7x7): after each opening, whether the agent's value
  (the root value of a search of at most 256 simulations) names the right
  winner, against Benzene's published table, and whether its own first move
  wins;
- matches: ``agent:sims=64`` against ``mcts:1000``, seats alternating
  (against two ``mcts:1000`` with three players), with the 95% Wilson
  interval.

Every figure is seeded and repeats on any machine; the seconds are the
machine's.
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any, Dict, List

import numpy as np

import hexcore as hc
from hexcore import agents
from hexcore.match import play_match
from hexcore.search import batched_search
from solve_hex_openings import PUBLISHED_LOSSES  # Benzene's 6x6 and 7x7 tables, kept in that bench


def mistakes(spec: str, net: Any, threads: int) -> Dict[str, Any]:
    from hexcore.train import labelled_positions, mistake_rate

    t0 = time.perf_counter()
    pos = labelled_positions(spec, 100, seed=0, max_nodes=300_000)
    return {"positions": len(pos), "net": mistake_rate(net, pos, 0), "sims64": mistake_rate(net, pos, 64, threads=threads),
            "random": mistake_rate("random", pos), "mcts1000": mistake_rate("mcts:1000", pos, threads=threads),
            "seconds": time.perf_counter() - t0}


def openings(spec: str, net: Any, simulations: int, threads: int) -> Dict[str, Any]:
    """The agent's value after each opening of Hex n x n against the published table."""
    g0 = hc.load(spec)
    n = int(spec.split("size=")[1].split(")")[0].split(",")[0])
    losses = set(PUBLISHED_LOSSES[n].split())
    games, truth = [], []
    for m in g0.legal_moves():
        g = g0.copy()
        g.play(m)
        games.append(g)
        truth.append(m in losses)       # True: the opening loses for x, so o (to move) wins
    r = batched_search(games, net, simulations, algorithm="gumbel", gumbel_scale=0.0, seed=0, threads=threads)
    o_wins = np.asarray(r.root_values)[:, 1] > 0.5
    wrong = [g.history[0] for g, o, t in zip(games, o_wins, truth) if o != t]
    first = batched_search([g0], net, simulations, algorithm="gumbel", gumbel_scale=0.0, seed=0, threads=threads)
    opening = g0.action_to_string(int(first.actions[0]))
    return {"simulations": simulations, "openings": len(games), "right": len(games) - len(wrong), "wrong": wrong,
            "opening": opening, "opening_wins": opening not in losses}


def match(spec: str, player: str, games: int, threads: int) -> Dict[str, Any]:
    seats = hc.load(spec).num_players
    r = play_match(spec, [player] + ["mcts:1000"] * (seats - 1), games=games, seed=0, threads=threads)
    a = r.players[0]
    return {"games": a.games, "wins": a.wins, "draws": a.draws, "win_rate": a.win_rate, "ci95": list(a.win_interval),
            "seconds": r.seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="these specs (default: every shipped agent)")
    ap.add_argument("--games", type=int, default=200, help="games per match")
    ap.add_argument("--simulations", type=int, default=256, help="simulations of the opening check (at most 256)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--net", help="measure this network (a checkpoint, run folder or .npz) instead of the shipped "
                                  "agent of the one --only spec")
    a = ap.parse_args()
    if a.net and (not a.only or len(a.only) != 1):
        ap.error("--net needs exactly one --only spec")
    specs = [hc.load(s).spec for s in a.only] if a.only else agents.available()
    results: List[Dict[str, Any]] = []
    for spec in specs:
        g = hc.load(spec)
        row: Dict[str, Any] = {"spec": spec}
        if a.net:
            from hexcore.train import load_evaluator

            net, player = load_evaluator(a.net), f"az:{a.net},sims=64"
        else:
            net, player = agents.load(spec), "agent:sims=64"
        if g.num_players == 2 and g.board.num_cells <= 25:
            row["mistakes"] = m = mistakes(spec, net, a.threads)
            print(f"{spec}: mistakes on {m['positions']} labelled positions: network {m['net']:.0%}, 64 simulations "
                  f"{m['sims64']:.0%} (random {m['random']:.0%}, mcts:1000 {m['mcts1000']:.0%})", flush=True)
        size = spec.split("size=")[1].split(")")[0] if spec.startswith("hex(") else ""
        if size.isdigit() and int(size) in PUBLISHED_LOSSES:
            row["openings"] = o = openings(spec, net, a.simulations, a.threads)
            print(f"{spec}: {o['right']} of {o['openings']} opening values right with {o['simulations']} simulations "
                  f"(wrong: {' '.join(o['wrong']) or '-'}); opens {o['opening']}, "
                  f"{'a winning' if o['opening_wins'] else 'a losing'} move", flush=True)
        if not spec.startswith("hex("):
            row["match"] = r = match(spec, player, a.games, a.threads)
            print(f"{spec}: {player} won {r['wins']} of {r['games']} against mcts:1000 "
                  f"({r['win_rate']:.3f}, 95% CI {r['ci95'][0]:.3f}-{r['ci95'][1]:.3f}), {r['seconds']:.0f} s", flush=True)
        results.append(row)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
