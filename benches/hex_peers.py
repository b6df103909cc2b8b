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
* ``VecGame("hex(size=11)", 1024)`` steps/s with masks and observations,
  random actions and auto-reset, against pgx's ``hex`` doing the same under
  ``jax.jit(jax.vmap(auto_reset(step)))`` on the CPU (the action draw inside
  the jitted step).

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
    rows.append((PLAYOUTS, f"hexcore random_playouts ({threads} thread)", amount / dt, "plies/s"))
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
        rows.append((PLAYOUTS, "OpenSpiel hex, Python loop over pyspiel", amount / dt, "plies/s"))
    rows.append(_pgx_playouts(seconds))
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

    n = 1024
    env = VecGame("hex(size=11)", n, threads=threads)
    env.reset()

    def step() -> float:
        r = env.step(env.sample_actions())
        assert r.observations is not None and r.action_masks is not None
        return float(n)

    amount, dt = _timed(step, seconds)
    what = f"hex 11x11 x {n} envs, random actions, masks + observations, auto-reset"
    rows: List[Row] = [(what, f"hexcore VecGame ({threads} thread)", amount / dt, "steps/s")]
    missing = _pgx_missing()
    if missing:
        return rows + [(what, "pgx hex", None, missing)]
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    pg = pgx.make("hex")
    init, pstep = jax.vmap(pg.init), jax.vmap(auto_reset(pg.step, pg.init))

    @jax.jit
    def one(state, key):
        key, k1, k2 = jax.random.split(key, 3)
        action = jax.random.categorical(k1, jnp.log(state.legal_action_mask.astype(jnp.float32)), axis=-1)
        return pstep(state, action, jax.random.split(k2, n)), key

    carry = (init(jax.random.split(jax.random.PRNGKey(0), n)), jax.random.PRNGKey(1))

    def pgx_step() -> float:
        nonlocal carry
        carry = one(*carry)
        carry[0].observation.block_until_ready()
        return float(n)

    pgx_step()  # compile
    amount, dt = _timed(pgx_step, seconds)
    rows.append((what, "pgx hex, jit(vmap(auto_reset(step))) with the action draw, CPU", amount / dt, "steps/s"))
    return rows


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
