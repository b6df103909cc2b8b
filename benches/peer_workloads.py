"""Peer workloads of the benchmark suite: OpenSpiel (pyspiel) running the
same jobs as rows of ``hexcore.bench``. They import optional peers, so they
live here, outside the package; ``benches/test_bench.py`` times them with the
package's workloads, and

    python benches/peer_workloads.py [--quick]

prints the package's suite (what ``python -m hexcore bench`` prints) followed
by the peer rows and the ratios against them. A peer that is not installed
is skipped, saying so.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

from hexcore import bench
from hexcore.bench import Job, Workload, run_bench

# a Python loop of legal_actions + apply_action in OpenSpiel's C++ Hex, beside
# the package's own loop rows (group "python")
PEER_HEX = "hex(board_size=5)"
# simulations of one OpenSpiel Python MCTSBot search (random rollouts) on the specs of BENCH_SEARCH
PEER_MCTS_SIMULATIONS = 200


def _peer_hex_job(scale: float) -> Job:
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    game = pyspiel.load_game(PEER_HEX)
    steps = max(500, int(bench.LOOP_STEPS * scale))

    def job() -> Tuple[float, ...]:
        state = game.new_initial_state()
        for _ in range(steps):
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(state.legal_actions()[0])
        return (float(steps),)
    return job


def _peer_mcts_job(spec: str) -> Callable[[float], Job]:
    """OpenSpiel's Python ``MCTSBot`` (UCT, one random rollout per simulation)
    choosing the first move of ``spec`` through hexcore's registered game."""
    def make(scale: float) -> Job:
        import numpy as np
        from open_spiel.python.algorithms import mcts as osm  # type: ignore[import-not-found, import-untyped, unused-ignore]

        from hexcore import openspiel as hos

        game = hos.load_game(spec)
        n = max(20, int(PEER_MCTS_SIMULATIONS * scale))

        def job() -> Tuple[float, ...]:
            rng = np.random.RandomState(1)
            bot = osm.MCTSBot(game, uct_c=2.0, max_simulations=n, evaluator=osm.RandomRolloutEvaluator(1, rng),
                              random_state=rng)
            bot.step(game.new_initial_state())
            return (float(n),)
        return job
    return make


def peer_workloads() -> List[Workload]:
    """The peer rows, in the groups of the package rows they compare with."""
    out = [Workload("python", f"pyspiel {PEER_HEX} legal_actions+apply_action", (("", "steps/s"),),
                    _peer_hex_job, requires="pyspiel")]
    for spec, _ in bench.BENCH_SEARCH:
        out.append(Workload("search", f"{spec} OpenSpiel MCTSBot (Python)", (("", "sims/s"),),
                            _peer_mcts_job(spec), requires="open_spiel", repeats=1))
    return out


def peer_ratio_rows(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """``mcts / OpenSpiel MCTSBot`` rows from the rows of one run."""
    by_name = {r["name"]: r["value"] for r in rows if r["group"] == "search"}
    out = []
    for spec, _ in bench.BENCH_SEARCH:
        sims, peer = by_name.get(f"{spec} mcts (1 thr)"), by_name.get(f"{spec} OpenSpiel MCTSBot (Python)")
        if sims and peer:
            out.append({"group": "ratio", "name": f"{spec} mcts / OpenSpiel MCTSBot (sims/s)", "value": sims / peer,
                        "unit": "x"})
    return out


if __name__ == "__main__":  # pragma: no cover
    import sys

    rows = run_bench(quick="--quick" in sys.argv, suite=bench.workloads() + peer_workloads())
    for r in peer_ratio_rows(rows):
        print(f"{r['group']:10s} {r['name']:48s} {r['value']:>16,.2f} x")
