"""UCT results recorded from the search before it moved onto the shared tree
(``tests/data/uct_golden.json``): seeded searches of every game, several
budgets, one and two threads, options at their edges and a kept tree across
``MCTS.advance``. The search must give exactly these numbers (chosen move,
visits, values, principal variation, node count).

Regenerate (only when the search is meant to change): ``python tests/search/test_uct_golden.py``.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any, Dict, List

import numpy as np
import pytest

import hexcore as hc
from hexcore.search import MCTS, SearchResult, mcts

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "uct_golden.json"

# (spec, simulations, threads, seed, extra options)
CASES: List[Dict[str, Any]] = []
for spec in ["churn(size=3)", "churn(size=4,pie=false)", "wunchunk(size=5)", "wunchunk(size=7,players=3)",
             "wunchunk(size=7,players=4)", "quintun(size=4)", "quintun(size=5,swap=false)", "hex(size=5)",
             "hex(size=7,swap=false)"]:
    for sims in [1, 7, 200, 1500]:
        for threads in [1, 2]:
            CASES.append({"spec": spec, "simulations": sims, "threads": threads, "seed": sims + threads})
CASES += [
    {"spec": "churn(size=3)", "simulations": 500, "threads": 1, "seed": 4, "c": 0.0},
    {"spec": "quintun(size=4)", "simulations": 500, "threads": 2, "seed": 4, "c": 3.0},
    {"spec": "wunchunk(size=5)", "simulations": 400, "threads": 1, "seed": 2, "max_nodes": 40},
    {"spec": "hex(size=5)", "simulations": 300, "threads": 2, "seed": 2, "max_nodes": 1},
    {"spec": "churn(size=3)", "simulations": 300, "threads": 1, "seed": 8, "max_rollout_plies": 0},
    {"spec": "wunchunk(size=7,players=3)", "simulations": 300, "threads": 1, "seed": 8, "max_rollout_plies": 3},
]
# (spec, threads, seed, simulations per search): a kept tree over several moves
REUSE = [("churn(size=3)", 1, 5, 300), ("wunchunk(size=5)", 2, 6, 400), ("quintun(size=4)", 1, 7, 500),
         ("wunchunk(size=7,players=3)", 1, 3, 300), ("hex(size=5)", 2, 1, 250)]


def _record(r: SearchResult) -> Dict[str, Any]:
    visits = np.asarray(r.visits)
    values = np.asarray(r.values, dtype=np.float32)
    nz = np.flatnonzero(visits)
    return {
        "move": r.move, "action": int(r.action), "pv": list(r.pv), "simulations": int(r.simulations),
        "nodes": int(r.nodes), "num_actions": int(visits.shape[0]),
        "visits": {str(int(a)): int(visits[a]) for a in nz},
        # float32 bit patterns, so the comparison is exact
        "values": {str(int(a)): int(values[a:a + 1].view(np.uint32)[0]) for a in nz},
        "zero_values_elsewhere": bool(np.all(values[visits == 0] == 0)),
    }


def _case(case: Dict[str, Any]) -> Dict[str, Any]:
    opts = {k: v for k, v in case.items() if k not in ("spec",)}
    return _record(mcts(hc.load(case["spec"]), **opts))


def _reuse(spec: str, threads: int, seed: int, sims: int) -> List[Dict[str, Any]]:
    m = MCTS(hc.load(spec), threads=threads, seed=seed)
    out = []
    for _ in range(4):
        r = m.search(simulations=sims)
        rec = _record(r)
        m.advance(r.move)
        rec["after_advance"] = {"nodes": m.nodes, "root_visits": m.root_visits}
        out.append(rec)
        if m.game.is_over:
            break
    return out


def results() -> Dict[str, Any]:
    return {
        "searches": [_case(c) for c in CASES],
        "reuse": [_reuse(*r) for r in REUSE],
    }


@pytest.fixture(scope="module")
def golden() -> Dict[str, Any]:
    with open(DATA) as f:
        return json.load(f)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[
    f"{c['spec']}-{c['simulations']}-t{c['threads']}" + "".join(f"-{k}{v}" for k, v in c.items()
                                                            if k not in ("spec", "simulations", "threads", "seed"))
    for c in CASES])
def test_search_is_unchanged(golden: Dict[str, Any], i: int) -> None:
    assert len(golden["searches"]) == len(CASES)
    assert _case(CASES[i]) == golden["searches"][i]


@pytest.mark.parametrize("i", range(len(REUSE)), ids=[f"{r[0]}-t{r[1]}" for r in REUSE])
def test_kept_tree_is_unchanged(golden: Dict[str, Any], i: int) -> None:
    assert _reuse(*REUSE[i]) == golden["reuse"][i]


if __name__ == "__main__":
    DATA.parent.mkdir(exist_ok=True)
    with open(DATA, "w") as f:
        json.dump(results(), f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    print(f"wrote {DATA} ({DATA.stat().st_size} bytes)")
