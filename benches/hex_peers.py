"""Hex like for like: hexcore against OpenSpiel's C++ ``hex`` (pyspiel) and
pgx's ``hex`` on the same board, same machine, one run. Not a test; run

    python benches/hex_peers.py [--seconds 3] [--threads 1]

and it prints a Markdown table (peer rows say why they are missing when the
peer is not installed). Rows:

* random playouts from the empty 11x11 board, plies/s: hexcore's
  ``random_playouts``; OpenSpiel's loop (``state.apply_action`` on a random
  legal action, in Python, as its examples do: pyspiel does not expose its
  C++ rollout evaluator's ``evaluate``, so the MCTS rows below are where
  OpenSpiel's C++ rollouts run); pgx's ``jit(vmap)`` loop over 1024 games at once;
* MCTS from the empty board, simulations/s, 11x11 and 7x7: hexcore's UCT
  (``hexcore.search.mcts``, random rollouts) against OpenSpiel's C++
  ``MCTSBot`` with its C++ ``RandomRolloutEvaluator`` (one rollout a leaf);
* ``VecGame("hex(size=11)", 1024)`` steps/s with masks and bool
  observations, random legal actions, against pgx's ``hex`` under
  ``jax.jit(jax.vmap(step))`` on the CPU (the steppers of
  ``benches/vector_workloads.py``; pgx's ``step`` computes the observation
  too), in wall-clock steps/s and in steps per CPU second of the process.

jax and pgx are bench extras (``pip install jax pgx``), never test
dependencies; OpenSpiel is ``pip install open_spiel``.
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
    ours = amount / dt
    rows.append((PLAYOUTS, f"hexcore random_playouts ({threads} thread)", ours, "plies/s"))
    try:
        import pyspiel
    except ImportError:
        rows.append((PLAYOUTS, "OpenSpiel hex", None, "open_spiel not installed"))
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
        rows.append((PLAYOUTS, "OpenSpiel hex, Python loop over pyspiel", amount / dt, f"plies/s (hexcore {ours * dt / amount:.0f}x)"))
    pgx = _pgx_playouts(seconds)
    rows.append(pgx if pgx[2] is None else pgx[:3] + (f"plies/s (hexcore {ours / pgx[2]:.0f}x)",))
    return rows


PLAYOUTS = "random playouts 11x11"


def _pgx_missing() -> Optional[str]:
    try:
        import jax  # noqa: F401
        import pgx  # noqa: F401
    except ImportError:
        return "pgx/jax not installed"
    return None


def _pgx_playouts(seconds: float, batch: int = 1024) -> Row:
    """pgx: ``batch`` whole random games at once, ``jit(vmap)`` inside one
    ``lax.while_loop``; plies are the steps each game took until it ended."""
    missing = _pgx_missing()
    if missing:
        return (PLAYOUTS, "pgx hex", None, missing)
    import jax
    import jax.numpy as jnp
    import pgx

    env = pgx.make("hex")
    init, step = jax.vmap(env.init), jax.vmap(env.step)

    @jax.jit
    def games(key):
        key, k = jax.random.split(key)
        state = init(jax.random.split(k, batch))

        def body(carry):
            state, key, plies = carry
            key, k = jax.random.split(key)
            action = jax.random.categorical(k, jnp.log(state.legal_action_mask.astype(jnp.float32)), axis=-1)
            live = ~state.terminated
            return step(state, action), key, plies + live.sum()

        _, _, plies = jax.lax.while_loop(lambda c: ~c[0].terminated.all(), body, (state, key, jnp.int32(0)))
        return plies

    keys = iter(range(1 << 30))
    games(jax.random.PRNGKey(0)).block_until_ready()  # compile
    amount, dt = _timed(lambda: float(games(jax.random.PRNGKey(next(keys)))), seconds)
    return (PLAYOUTS, f"pgx hex, jit(vmap) of {batch} games in one while_loop, CPU", amount / dt, "plies/s")


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
        ours = rows[-1][2] or 1.0
        sims = max(1000, int(ours * seconds / 10))
        evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
        bot = pyspiel.MCTSBot(game, evaluator, 1.4, 1_000, 4_000, False, 0, False)
        state = game.new_initial_state()
        done, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            bot = pyspiel.MCTSBot(game, evaluator, 1.4, sims, 4_000, False, done, False)
            bot.step(state)
            done += sims
        dt = time.perf_counter() - t0
        rows.append((f"MCTS {size}x{size} from the empty board", "OpenSpiel C++ MCTSBot + RandomRolloutEvaluator", done / dt,
                     f"simulations/s (hexcore {ours / (done / dt):.1f}x)"))
    return rows


def vector(seconds: float, threads: int) -> List[Row]:
    """The steppers of ``benches/vector_workloads.py`` (best of three runs),
    on pgx's game and board."""
    from vector_workloads import BATCH, HEX11, best_rate, pgx_stepper, vecgame_stepper

    what = f"hex 11x11 x {BATCH} envs, random legal actions, masks + bool observations"
    ours = vecgame_stepper(HEX11, threads=threads)
    rate, cpu = best_rate(ours, seconds / 3), cpu_rate(ours, seconds / 3)
    rows: List[Row] = [(what, f"hexcore VecGame sample_actions + step ({threads} thread)", rate,
                        f"steps/s; {cpu:,.0f} per CPU second")]
    pgx = pgx_stepper() if _pgx_missing() is None else None
    if pgx is None:
        return rows + [(what, "pgx hex", None, _pgx_missing() or "pgx did not start")]
    pgx_rate, pgx_cpu = best_rate(pgx, seconds / 3), cpu_rate(pgx, seconds / 3)
    rows.append((what, "pgx hex, jit(vmap(step)), CPU", pgx_rate,
                 f"steps/s (hexcore {rate / pgx_rate:.1f}x); {pgx_cpu:,.0f} per CPU second (hexcore {cpu / pgx_cpu:.1f}x)"))
    return rows


def cpu_rate(run, seconds: float) -> float:
    """Steps of ``run`` per second of the process's CPU time (all its threads,
    JAX's included) over about ``seconds`` of wall time: on a shared machine
    this moves less than the wall-clock rate."""
    steps, c0, t0 = 0, time.process_time(), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        steps += run()
    return steps / max(time.process_time() - c0, 1e-9)


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
