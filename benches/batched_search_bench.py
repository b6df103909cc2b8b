"""Batched AlphaZero search speed: ``python benches/batched_search_bench.py``.

The workload of the native batched search issue: a batch of 256 games, 32
simulations per tree, a trivial numpy evaluator (uniform priors over the
legal actions, every seat worth 1/2), Gumbel and PUCT, on Churn side 7 and
Quintun side 7, with 1 and 2 threads. Each row reports simulations per second
of its fastest sample (a sample: searches of 256 * 32 simulations one after
the other, new seeds, for at least 0.2 s, after one warm-up search; at least
``--repeats`` samples and at least ``--seconds`` of them), the share of the
sample's wall time spent inside the evaluator callback, and simulations per
CPU second of the whole process (all its threads; on a machine shared with
other work this moves less than the wall-clock rate).

mctx's ``gumbel_muzero_policy`` over pgx Hex 11x11 (JAX on the CPU, same batch
and simulations, uniform logits, zero values, jitted and warmed up) is a bench
extra: its row says it was skipped when jax, mctx or pgx is missing. Each
Gumbel row takes its samples in turn with mctx's, a sample of each side
after a pause of 0.05 s (JAX's worker threads spin for a while after a
search), and divides by mctx's fastest sample of those same seconds, so
that the ratio compares the two in the same moments of a machine whose
speed moves (a shared host's speed can change by half within a minute).
The mctx row gives mctx's fastest sample of the whole run and the range of
the rows' own.
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
IDLE = 0.05
WINDOW = 0.2
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


def alternate(searches: List[Callable[[int], float]], repeats: int,
              seconds: float) -> List[Tuple[float, float, float]]:
    """For each of ``searches``, (simulations/s, what it returned over its
    time, simulations per CPU second of the process) of its fastest sample.
    A sample is ``search(seed)`` called over and over (new seeds) for at
    least ``WINDOW`` seconds; the searches take turns, a sample each, for at
    least ``repeats`` rounds and at least ``seconds``."""
    best = [(0.0, 0.0, 0.0)] * len(searches)
    start, rounds, seed = time.perf_counter(), 0, 0
    while rounds < repeats or time.perf_counter() - start < seconds:
        for i, search in enumerate(searches):
            if len(searches) > 1:
                # The other side's worker threads (JAX's) spin for a while
                # after a search: each sample starts on idle cores.
                time.sleep(IDLE)
            c0, t0 = time.process_time(), time.perf_counter()
            calls, extra, dt = 0, 0.0, 0.0
            while dt < WINDOW:
                extra += search(seed)
                seed, calls = seed + 1, calls + 1
                dt = time.perf_counter() - t0
            ct = time.process_time() - c0
            rate = BATCH * SIMULATIONS * calls / dt
            if rate > best[i][0]:
                best[i] = (rate, extra / dt, BATCH * SIMULATIONS * calls / max(ct, 1e-9))
        rounds += 1
    return best


def hexcore_search(name: str, algorithm: str, threads: int) -> Callable[[int], float]:
    """A search of the workload (warmed up) returning the seconds spent in
    the evaluator."""
    games = [GAMES[name]() for _ in range(BATCH)]
    ev = Timed(games[0].num_players)
    batched_search(games, ev, SIMULATIONS, algorithm=algorithm, threads=threads)

    def search(seed: int) -> float:
        ev.seconds = 0.0
        batched_search(games, ev, SIMULATIONS, algorithm=algorithm, threads=threads, seed=seed)
        return ev.seconds
    return search


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


def rows(repeats: int = 5, threads: Tuple[int, ...] = (1, 2), algorithms: Tuple[str, ...] = ("gumbel", "puct"),
         seconds: float = 1.0) -> List[str]:
    out = ["| search | game | threads | simulations/s | evaluator share | simulations per CPU second |", "|---|---|---|---|---|---|"]
    run = mctx_runner()

    def peer(seed: int) -> float:
        assert run is not None
        run()
        return 0.0
    peers = []
    for algorithm in algorithms:
        for name in GAMES:
            for t in threads:
                search = hexcore_search(name, algorithm, t)
                if run is not None and algorithm == "gumbel":
                    (rate, extra, cpu), mctx = alternate([search, peer], repeats, seconds)
                    peers.append(mctx)
                    ratio, cpu_ratio = f" ({rate / mctx[0]:.1f}x mctx)", f" ({cpu / mctx[2]:.1f}x mctx)"
                else:
                    (rate, extra, cpu), = alternate([search], repeats, seconds)
                    ratio = cpu_ratio = ""
                out.append(f"| hexcore {algorithm} | {name} | {t} | {rate:,.0f}{ratio} | {extra:.0%} | {cpu:,.0f}{cpu_ratio} |")
    if run is None:
        out.append("| mctx gumbel_muzero_policy + pgx | Hex 11x11 | - | skipped: jax, mctx or pgx is not installed | - | - |")
    else:
        note = f"the Gumbel rows' own: {min(p[0] for p in peers):,.0f} to {max(p[0] for p in peers):,.0f}" if peers else "timed alone"
        best = max(peers or alternate([peer], repeats, seconds))
        out.append(f"| mctx gumbel_muzero_policy + pgx (JAX CPU) | Hex 11x11 | all | {best[0]:,.0f} ({note}) | - | {best[2]:,.0f} |")
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=5, help="timed samples per row, at least (default 5)")
    p.add_argument("--seconds", type=float, default=1.0, help="seconds of timed searches per row, at least (default 1)")
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    a = p.parse_args()
    print(f"batch {BATCH}, {SIMULATIONS} simulations, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for line in rows(a.repeats, tuple(a.threads), seconds=a.seconds):
        print(line, flush=True)
    print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
