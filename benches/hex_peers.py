"""Hex like for like: hexcore against OpenSpiel's C++ ``hex`` (pyspiel) and
pgx's ``hex`` on the same board, same machine, one run. Not a test; run

    python benches/hex_peers.py [--seconds 3] [--threads 1]

and it prints a Markdown table (peer rows say why they are missing when the
peer is not installed). Rows:

* random playouts from the empty 11x11 board, plies/s: hexcore's
  ``random_playouts``; OpenSpiel's loop (``state.apply_action`` on a random
  legal action, in Python, as its examples do); pgx's ``jax.vmap``-ed loop;
* MCTS from the empty board, simulations/s, 11x11 and 7x7: hexcore's UCT
  (``hexcore.search.mcts``, random rollouts) against OpenSpiel's C++
  ``MCTSBot`` with its C++ ``RandomRolloutEvaluator`` (one rollout a leaf);
* ``VecGame("hex(size=11)", 1024)`` steps/s with masks and observations,
  against pgx's ``hex`` under ``jax.jit(jax.vmap(step))`` on the CPU.
"""
from __future__ import annotations

import argparse
import random
import time
from typing import List, Optional, Tuple

import hexcore as hc

Row = Tuple[str, str, Optional[float], str]


def _timed(fn, seconds: float) -> Tuple[float, float]:
    """Call ``fn`` (returning an amount) until ``seconds`` have passed: (amount, elapsed)."""
    amount, t0 = 0.0, time.perf_counter()
    while True:
        amount += fn()
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return amount, dt


def playouts(seconds: float, threads: int) -> List[Row]:
    rows: List[Row] = []
    g = hc.Hex(size=11)
    seed = iter(range(1 << 30))

    def batch() -> float:
        return float(hc.random_playouts(g, 20_000, seed=next(seed), threads=threads).plies.sum())

    amount, dt = _timed(batch, seconds)
    rows.append(("random playouts 11x11", f"hexcore random_playouts ({threads} thread)", amount / dt, "plies/s"))
    try:
        import pyspiel
    except ImportError:
        rows.append(("random playouts 11x11", "OpenSpiel hex loop", None, "open_spiel not installed"))
    else:
        game = pyspiel.load_game("hex(board_size=11)")
        rng = random.Random(0)

        def one() -> float:
            s, n = game.new_initial_state(), 0
            while not s.is_terminal():
                acts = s.legal_actions()
                s.apply_action(acts[rng.randrange(len(acts))])
                n += 1
            return n

        amount, dt = _timed(one, seconds)
        rows.append(("random playouts 11x11", "OpenSpiel hex, Python loop over pyspiel", amount / dt, "plies/s"))
    rows.append(("random playouts 11x11", "pgx hex", None, _pgx_missing()))
    return rows


def _pgx_missing() -> str:
    try:
        import jax  # noqa: F401
        import pgx  # noqa: F401
    except ImportError:
        return "pgx/jax not installed"
    return "installed: not measured by this script"


def search(seconds: float, threads: int) -> List[Row]:
    rows: List[Row] = []
    for size in (11, 7):
        g = hc.Hex(size=size)
        r = hc.search.mcts(g, seconds=seconds, threads=threads, seed=1, c=1.4)
        rows.append((f"MCTS {size}x{size} from the empty board", f"hexcore UCT ({threads} thread)", r.simulations / r.seconds, "simulations/s"))
        try:
            import pyspiel
        except ImportError:
            rows.append((f"MCTS {size}x{size}", "OpenSpiel C++ MCTSBot", None, "open_spiel not installed"))
            continue
        game = pyspiel.load_game(f"hex(board_size={size})")
        sims = max(1000, int(rows[-1][2] * seconds / 10))
        evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
        bot = pyspiel.MCTSBot(game, evaluator, 1.4, 1_000, 4_000, False, 0, False)
        state = game.new_initial_state()
        done, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            bot = pyspiel.MCTSBot(game, evaluator, 1.4, sims, 4_000, False, done, False)
            bot.step(state)
            done += sims
        dt = time.perf_counter() - t0
        rows.append((f"MCTS {size}x{size} from the empty board", "OpenSpiel C++ MCTSBot + RandomRolloutEvaluator", done / dt, "simulations/s"))
    return rows


def vector(seconds: float, threads: int) -> List[Row]:
    from hexcore.vector import VecGame

    env = VecGame("hex(size=11)", 1024, threads=threads)
    env.reset()

    def step() -> float:
        r = env.step(env.sample_actions())
        assert r.observations is not None and r.action_masks is not None
        return 1024.0

    amount, dt = _timed(step, seconds)
    what = "VecGame hex(size=11) x 1024, masks + observations (random actions drawn in Rust)"
    return [(what, f"hexcore VecGame ({threads} thread)", amount / dt, "steps/s"),
            (what, "pgx hex, jit(vmap(step)) on CPU", None, _pgx_missing())]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    rows = playouts(args.seconds, args.threads) + search(args.seconds, args.threads) + vector(args.seconds, args.threads)
    print("| workload | engine | rate | unit / note |")
    print("|---|---|---:|---|")
    for what, who, rate, unit in rows:
        shown = f"{rate:,.0f}" if rate is not None else "-"
        print(f"| {what} | {who} | {shown} | {unit} |")


if __name__ == "__main__":
    main()
