"""Batched AlphaZero search speed: ``python benches/batched_search_bench.py``.

The workload of the native batched search issue: a batch of 256 games, 32
simulations per tree, a trivial numpy evaluator (uniform priors over the
legal actions, every seat worth 1/2), Gumbel and PUCT, on Churn side 7 and
Quintun side 7, with 1 and 2 threads. Each row reports simulations per second
(256 * 32 per search; the fastest of the timed searches after one warm-up:
at least ``--repeats`` of them and at least ``--seconds`` of searching), the
share of the wall time spent inside the evaluator callback in that search,
and simulations per CPU second of the whole process (all its threads; on a
machine shared with other work this moves less than the wall-clock rate).

mctx's ``gumbel_muzero_policy`` over pgx Hex 11x11 (JAX on the CPU, same batch
and simulations, uniform logits, zero values, jitted and warmed up) is a bench
extra: its row says it was skipped when jax, mctx or pgx is missing. It is
timed the same way twice, before and after the hexcore rows, and its row (the
one the ratios divide by) is the faster of the two, so that a quiet moment
of the machine helps both sides alike.
"""
from __future__ import annotations

import argparse
import os
import time
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

import hexcore as hc
from hexcore.search import batched_search

BATCH = 256
SIMULATIONS = 32
GAMES = {"Churn side 7": lambda: hc.Churn(size=7), "Quintun side 7": lambda: hc.Quintun(size=7)}


class Timed:
    """The trivial evaluator, timing its own calls."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.seconds = 0.0

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        t0 = time.perf_counter()
        out = masks.astype(np.float32), np.full((len(obs), self.players), 0.5, np.float32)
        self.seconds += time.perf_counter() - t0
        return out


def timed(search: Callable[[int], float], repeats: int, seconds: float) -> Tuple[float, float, float]:
    """(simulations/s, what ``search`` returned, simulations per CPU second of
    the process) of the fastest of at least ``repeats`` calls
    ``search(seed)`` and at least ``seconds`` of calls."""
    best = (0.0, 0.0, 0.0)
    start, seed = time.perf_counter(), 0
    while seed < repeats or time.perf_counter() - start < seconds:
        c0, t0 = time.process_time(), time.perf_counter()
        extra = search(seed)
        dt, ct = time.perf_counter() - t0, time.process_time() - c0
        if BATCH * SIMULATIONS / dt > best[0]:
            best = (BATCH * SIMULATIONS / dt, extra / dt, BATCH * SIMULATIONS / max(ct, 1e-9))
        seed += 1
    return best


def hexcore_row(name: str, algorithm: str, threads: int, repeats: int, seconds: float) -> Tuple[float, float, float]:
    """(simulations/s, evaluator share of the time, simulations per CPU
    second of the process) of the fastest timed search."""
    games = [GAMES[name]() for _ in range(BATCH)]
    ev = Timed(games[0].num_players)
    batched_search(games, ev, SIMULATIONS, algorithm=algorithm, threads=threads)

    def search(seed: int) -> float:
        ev.seconds = 0.0
        batched_search(games, ev, SIMULATIONS, algorithm=algorithm, threads=threads, seed=seed)
        return ev.seconds
    return timed(search, repeats, seconds)


def mctx_runner() -> Optional[Callable[[], None]]:
    """One gumbel_muzero_policy search over a batch of pgx Hex 11x11 games, or
    None without jax, mctx or pgx."""
    try:
        import jax
        import jax.numpy as jnp
        import mctx
        import pgx
    except ImportError:
        return None
    env = pgx.make("hex")
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), BATCH))

    def logits_of(s: Any) -> Any:
        return jnp.where(s.legal_action_mask, 0.0, -1e9)

    def recurrent_fn(params: Any, rng: Any, action: Any, s: Any) -> Any:
        player = s.current_player
        s = jax.vmap(env.step)(s, action)
        reward = s.rewards[jnp.arange(BATCH), player]
        out = mctx.RecurrentFnOutput(reward=reward, discount=jnp.where(s.terminated, 0.0, -1.0),
                                     prior_logits=logits_of(s), value=jnp.zeros(BATCH))
        return out, s

    @jax.jit
    def search(s: Any, key: Any) -> Any:
        root = mctx.RootFnOutput(prior_logits=logits_of(s), value=jnp.zeros(BATCH), embedding=s)
        return mctx.gumbel_muzero_policy(params=None, rng_key=key, root=root, recurrent_fn=recurrent_fn,
                                         num_simulations=SIMULATIONS, invalid_actions=~s.legal_action_mask,
                                         max_num_considered_actions=16).action

    key = jax.random.PRNGKey(1)

    def run() -> None:
        search(state, key).block_until_ready()
    run()
    return run


def mctx_row(run: Optional[Callable[[], None]], repeats: int, seconds: float) -> Optional[Tuple[float, float]]:
    """(simulations/s, simulations per CPU second of the process) of the
    fastest search, or None without jax, mctx or pgx."""
    if run is None:
        return None

    def search(seed: int) -> float:
        run()
        return 0.0
    rate, _, cpu = timed(search, repeats, seconds)
    return rate, cpu


def rows(repeats: int = 5, threads: Tuple[int, ...] = (1, 2), algorithms: Tuple[str, ...] = ("gumbel", "puct"),
         seconds: float = 1.0) -> List[str]:
    out = ["| search | game | threads | simulations/s | evaluator share | simulations per CPU second |", "|---|---|---|---|---|---|"]
    run = mctx_runner()
    before = mctx_row(run, repeats, seconds)
    table = []
    for algorithm in algorithms:
        for name in GAMES:
            for t in threads:
                table.append((algorithm, name, t, hexcore_row(name, algorithm, t, repeats, seconds)))
    after = mctx_row(run, repeats, seconds)
    peer = max(before, after) if before and after else None
    for algorithm, name, t, (rate, share, cpu) in table:
        ratio = f" ({rate / peer[0]:.1f}x mctx)" if peer and algorithm == "gumbel" else ""
        cpu_ratio = f" ({cpu / peer[1]:.1f}x mctx)" if peer and algorithm == "gumbel" else ""
        out.append(f"| hexcore {algorithm} | {name} | {t} | {rate:,.0f}{ratio} | {share:.0%} | {cpu:,.0f}{cpu_ratio} |")
    if peer is None or before is None or after is None:
        out.append("| mctx gumbel_muzero_policy + pgx | Hex 11x11 | - | skipped: jax, mctx or pgx is not installed | - | - |")
    else:
        out.append(f"| mctx gumbel_muzero_policy + pgx (JAX CPU) | Hex 11x11 | all | {peer[0]:,.0f} "
                   f"(before the hexcore rows {before[0]:,.0f}, after {after[0]:,.0f}) | - | {peer[1]:,.0f} |")
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=5, help="timed searches per row, at least (default 5)")
    p.add_argument("--seconds", type=float, default=1.0, help="seconds of timed searches per row, at least (default 1)")
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    a = p.parse_args()
    print(f"batch {BATCH}, {SIMULATIONS} simulations, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for line in rows(a.repeats, tuple(a.threads), seconds=a.seconds):
        print(line, flush=True)
    print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
