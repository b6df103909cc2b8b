"""Benchmark workloads of ``hexcore.vector`` against its peers (pgx, gymnasium's
SyncVectorEnv), for ``benches/test_bench_vector.py`` and ``python
benches/vector_workloads.py``; they import jax, pgx and gymnasium, so they
live here, outside the package.

``vector_bench_rows(quick)`` returns rows ``(group, workload, value, unit)``.
Every figure is env-steps (actions) per second, the best of three timed runs;
the ratio rows divide figures of the same run.
"""
from __future__ import annotations

import importlib
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from hexcore.vector import VecGame

Row = Tuple[str, str, float, str]

BATCH = 1024
SIDE7 = "churn(size=7,pie=false)"
SIDE5 = "churn(size=5,pie=false)"
HEX11 = "hex(size=11)"  # pgx's game and board: the like-for-like row


def best_rate(run: Callable[[], int], seconds: float, repeats: int = 3) -> float:
    """Best of ``repeats`` rates of ``run`` (which returns the steps it made),
    each repeated for about ``seconds``."""
    best = 0.0
    for _ in range(repeats):
        steps, t0 = 0, time.perf_counter()
        while True:
            steps += run()
            dt = time.perf_counter() - t0
            if dt >= seconds:
                break
        best = max(best, steps / dt)
    return best


def vecgame_stepper(spec: str, batch: int = BATCH, threads: int = 1, observation_dtype: Any = "bool",
                    steps: int = 20) -> Callable[[], int]:
    """``steps`` rounds of ``sample_actions()`` + ``step()`` on a fresh batch."""
    v = VecGame(spec, batch, seed=1, threads=threads, observation_dtype=observation_dtype)
    v.reset()

    def run() -> int:
        for _ in range(steps):
            v.step(v.sample_actions())
        return steps * batch

    return run


def random_legal(mask: Any, rng: np.random.Generator) -> Any:
    """A uniformly random legal action per row of ``mask`` (0 for empty rows)."""
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def sync_vector_env_stepper(spec: str, batch: int = BATCH, steps: int = 2) -> Optional[Callable[[], int]]:
    """Gymnasium ``SyncVectorEnv`` over ``HexcoreGymEnv`` (random opponent),
    random legal actions from ``info["action_mask"]``; counts env steps (each
    is the learner's action and the opponent's reply)."""
    try:
        import gymnasium

        from hexcore.envs import HexcoreGymEnv
    except ImportError:
        return None
    env = gymnasium.vector.SyncVectorEnv([lambda: HexcoreGymEnv(spec) for _ in range(batch)])
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    state = {"info": info}

    def run() -> int:
        actions_made = 0
        for _ in range(steps):
            _, _, _, _, state["info"] = env.step(random_legal(state["info"]["action_mask"], rng))
            actions_made += batch
        return actions_made

    return run


def vector_env_stepper(spec: str, batch: int = BATCH, threads: int = 1, steps: int = 20) -> Callable[[], int]:
    """``HexcoreVectorEnv`` (the same game as ``sync_vector_env_stepper``: the
    learner's action and a random opponent reply per env step), random legal
    learner actions from ``infos["action_mask"]``."""
    from hexcore.vector import HexcoreVectorEnv

    env = HexcoreVectorEnv(spec, batch, threads=threads, copy=False)
    _, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    state = {"infos": infos}

    def run() -> int:
        for _ in range(steps):
            *_, state["infos"] = env.step(random_legal(state["infos"]["action_mask"], rng))
        return steps * batch

    return run


def pgx_stepper(batch: int = BATCH, steps: int = 20) -> Optional[Callable[[], int]]:
    """pgx Hex 11x11 on the CPU: ``jax.vmap``-ed ``step`` with uniformly random
    legal actions; ``None`` when pgx is not installed."""
    try:
        # optional peers, untyped here whether or not they are installed
        jax: Any = importlib.import_module("jax")
        jnp: Any = importlib.import_module("jax.numpy")
        pgx: Any = importlib.import_module("pgx")
    except ImportError:
        return None
    env = pgx.make("hex")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))

    def _act(key: Any, mask: Any) -> Any:
        return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf), axis=-1)

    act = jax.jit(_act)

    box: Dict[str, Any] = {"key": jax.random.PRNGKey(0)}
    box["state"] = init(jax.random.split(box["key"], batch))

    def run() -> int:
        state, key = box["state"], box["key"]
        for _ in range(steps):
            key, k = jax.random.split(key)
            state = step(state, act(k, state.legal_action_mask))
        state.observation.block_until_ready()
        box["state"], box["key"] = state, key
        return steps * batch

    run()  # compile
    return run


def vector_bench_rows(quick: bool = False) -> List[Row]:
    """The ``vector`` rows of ``python -m hexcore bench``."""
    secs = 0.2 if quick else 0.6
    rows: List[Row] = []
    fig = {}
    for spec, obs, tag in [(SIDE7, "bool", "masks+bool obs"), (SIDE5, None, "masks"), (SIDE5, "bool", "masks+bool obs"),
                           (HEX11, "bool", "masks+bool obs")]:
        for threads in (1, 2):
            rate = best_rate(vecgame_stepper(spec, threads=threads, observation_dtype=obs), secs)
            fig[(spec, tag, threads)] = rate
            rows.append(("vector", f"VecGame {spec} batch {BATCH} sample_actions+step, {tag} ({threads} thr)",
                         rate, "steps/s"))
    best7 = max(fig[(SIDE7, "masks+bool obs", 1)], fig[(SIDE7, "masks+bool obs", 2)])
    pgx = pgx_stepper()
    if pgx is None:
        rows.append(("vector", f"pgx hex 11x11 batch {BATCH}: skipped, pgx is not installed", float("nan"), "steps/s"))
    else:
        rate = best_rate(pgx, secs)
        rows.append(("vector", f"pgx hex 11x11 batch {BATCH} (CPU, random legal actions)", rate, "steps/s"))
        rows.append(("ratio", f"VecGame {SIDE7} / pgx hex 11x11, batch {BATCH}", best7 / rate, "x"))
        best_hex = max(fig[(HEX11, "masks+bool obs", 1)], fig[(HEX11, "masks+bool obs", 2)])
        rows.append(("ratio", f"VecGame {HEX11} / pgx hex 11x11 (the same game), batch {BATCH}", best_hex / rate, "x"))
    sync = sync_vector_env_stepper(SIDE7, steps=1 if quick else 2)
    if sync is None:
        rows.append(("vector", "SyncVectorEnv: skipped, gymnasium is not installed", float("nan"), "steps/s"))
    else:
        rate = best_rate(sync, secs, repeats=1 if quick else 3)
        rows.append(("vector", f"gymnasium SyncVectorEnv(HexcoreGymEnv) {SIDE7} batch {BATCH}", rate, "steps/s"))
        venv = max(best_rate(vector_env_stepper(SIDE7, threads=t), secs) for t in (1, 2))
        rows.append(("vector", f"HexcoreVectorEnv {SIDE7} batch {BATCH}, float32 obs, copy=False (best of 1 and 2 thr)", venv, "steps/s"))
        rows.append(("ratio", f"HexcoreVectorEnv / SyncVectorEnv(HexcoreGymEnv), {SIDE7} batch {BATCH}",
                     venv / rate, "x"))
        rows.append(("ratio", f"VecGame steps / SyncVectorEnv actions (2 per step), {SIDE7} batch {BATCH}",
                     best7 / (2 * rate), "x"))
    return rows


if __name__ == "__main__":  # pragma: no cover
    import sys

    for group, workload, value, unit in vector_bench_rows("--quick" in sys.argv):
        print(f"| {group} | {workload} | {value:,.0f} {unit} |" if unit != "x" else
              f"| {group} | {workload} | {value:,.1f}x |")
