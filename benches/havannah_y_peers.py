"""Havannah and Y like for like: hexcore against OpenSpiel's C++ ``havannah``
and ``y`` (pyspiel) on the same boards (Havannah side 8, Y size 19), same
machine, one run. Not a test; run

    python benches/havannah_y_peers.py [--seconds 3] [--threads 1]

and it prints a Markdown table (OpenSpiel rows say why they are missing when
pyspiel is not installed). Per game, rows:

* random playouts from the empty board, plies/s: hexcore's
  ``random_playouts`` against OpenSpiel's loop (``state.apply_action`` on a
  random legal action, in Python, as in ``benches/hex_peers.py``: pyspiel does
  not expose its C++ rollout evaluator alone, so the MCTS rows are where
  OpenSpiel's C++ rollouts run);
* MCTS from the empty board, simulations/s: hexcore's UCT
  (``hexcore.search.mcts``, random rollouts) against OpenSpiel's C++
  ``MCTSBot`` with its C++ ``RandomRolloutEvaluator`` (one rollout a leaf);
* ``VecGame(spec, 1024)`` steps/s with masks and bool observations, random
  legal actions (OpenSpiel has no batched stepper).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import List, Optional, Tuple

import hexcore as hc

sys.path.insert(0, str(Path(__file__).parent))

Row = Tuple[str, str, Optional[float], str]

GAMES = [("havannah(size=8)", "havannah(board_size=8)"), ("y(size=19)", "y(board_size=19)")]


def _timed(fn, seconds: float) -> Tuple[float, float]:
    """Call ``fn`` (returning an amount) until ``seconds`` have passed: (amount, elapsed)."""
    amount, t0 = 0.0, time.perf_counter()
    while True:
        amount += fn()
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return amount, dt


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def playouts(spec: str, os_spec: str, seconds: float, threads: int) -> List[Row]:
    g = hc.load(spec)
    seed = iter(range(1 << 30))
    what = f"random playouts, {spec}"

    def batch() -> float:
        return float(hc.random_playouts(g, 5_000, seed=next(seed), threads=threads).plies.sum())

    amount, dt = _timed(batch, seconds)
    ours = amount / dt
    rows: List[Row] = [(what, f"hexcore random_playouts ({threads} thread)", ours, "plies/s")]
    pyspiel = _pyspiel()
    if pyspiel is None:
        return rows + [(what, "OpenSpiel", None, "open_spiel not installed")]
    game = pyspiel.load_game(os_spec)
    rng = random.Random(0)

    def one() -> float:
        s, n = game.new_initial_state(), 0
        while not s.is_terminal():
            acts = s.legal_actions()
            s.apply_action(acts[rng.randrange(len(acts))])
            n += 1
        return n

    amount, dt = _timed(one, seconds)
    return rows + [(what, "OpenSpiel, Python loop over pyspiel", amount / dt, f"plies/s (hexcore {ours * dt / amount:.0f}x)")]


def search(spec: str, os_spec: str, seconds: float, threads: int) -> List[Row]:
    what = f"MCTS from the empty board, {spec}"
    r = hc.search.mcts(hc.load(spec), seconds=seconds, threads=threads, seed=1, c=1.4)
    ours = r.simulations / r.seconds
    rows: List[Row] = [(what, f"hexcore UCT ({threads} thread)", ours, "simulations/s")]
    pyspiel = _pyspiel()
    if pyspiel is None:
        return rows + [(what, "OpenSpiel C++ MCTSBot", None, "open_spiel not installed")]
    game = pyspiel.load_game(os_spec)
    sims = max(200, int(ours * seconds / 50))
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    state = game.new_initial_state()
    done, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        bot = pyspiel.MCTSBot(game, evaluator, 1.4, sims, 4_000, False, done, False)
        bot.step(state)
        done += sims
    dt = time.perf_counter() - t0
    return rows + [(what, "OpenSpiel C++ MCTSBot + RandomRolloutEvaluator", done / dt,
                    f"simulations/s (hexcore {ours / (done / dt):.1f}x)")]


def vector(spec: str, seconds: float, threads: int) -> List[Row]:
    from vector_workloads import BATCH, best_rate, vecgame_stepper

    rate = best_rate(vecgame_stepper(spec, threads=threads), seconds / 3)
    return [(f"{spec} x {BATCH} envs, random legal actions, masks + bool observations",
             f"hexcore VecGame sample_actions + step ({threads} thread)", rate, "steps/s")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    rows: List[Row] = []
    for spec, os_spec in GAMES:
        rows += playouts(spec, os_spec, args.seconds, args.threads) + search(spec, os_spec, args.seconds, args.threads)
        rows += vector(spec, args.seconds, args.threads)
    print("| workload | engine | rate | unit / note |")
    print("|---|---|---:|---|")
    for what, who, rate, unit in rows:
        shown = f"{rate:,.0f}" if rate is not None else "-"
        print(f"| {what} | {who} | {shown} | {unit} |")


if __name__ == "__main__":
    main()
