"""The Hex knowledge of the values pass (the mustplay, dead cells and
captured pairs filled in, dominated moves dropped, see docs/guides/solving.md) against searches
without it: plain minimax on Hex 4x4 midgames, and the distance pass (which
uses none of that knowledge) on Hex 5x5 and 6x6 midgames."""
from __future__ import annotations

import random

import pytest

import hexcore as hc

from tests.support.minimax import NAMES, move_results, random_endgame

BUDGET = 200_000  # minimax positions per midgame; running out fails the test


def dfpn(g):
    return hc.solve(g, algorithm="dfpn", threads=1, table_mb=8, distances=False)


def test_hex_4x4_midgames_equal_minimax():
    rng = random.Random("hex knowledge 4x4")
    seen = {"win": 0, "loss": 0}
    for i in range(60):
        g = random_endgame(hc.Hex(size=4), rng, rng.choice((6, 7, 8)))
        want = {m: NAMES[v] for m, (v, _) in move_results(g, [BUDGET]).items()}
        s = dfpn(g)
        assert s.complete and s.moves == want, f"#{i}: {g.history}"
        for v in want.values():
            seen[v] += 1
    assert seen["win"] > 20 and seen["loss"] > 20, seen


@pytest.mark.parametrize("size, empty, count", [(5, (13, 15, 17), 40), (6, (18, 20), 20)])
def test_hex_midgames_equal_the_distance_pass(size, empty, count):
    rng = random.Random(f"hex knowledge {size}")
    seen = {"win": 0, "loss": 0}
    for i in range(count):
        g = random_endgame(hc.Hex(size=size), rng, rng.choice(empty))
        exact = hc.solve(g, threads=1, table_mb=16, distances=True, algorithm="alphabeta")
        s = dfpn(g)
        assert exact.complete and s.complete
        assert s.moves == exact.moves, f"#{i}: {g.history}"
        seen[s.value] += 1
    assert seen["win"] and seen["loss"], seen
