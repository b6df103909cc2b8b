"""PlayoutSummary: exact counts that add up across ranges of games and agree
with the per-game arrays (mean, sd and quantiles as numpy computes them)."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hexcore as hc

SPECS = ["churn(size=3)", "quintun(size=4)", "hex(size=5,swap=true)", "wunchunk(size=7,players=3)", "wunchunk(size=8,players=4)"]


@pytest.mark.parametrize("spec", SPECS)
def test_summary_matches_the_arrays(spec):
    g = hc.load(spec)
    p = hc.random_playouts(g, 400, seed=11, max_plies=30 if spec.startswith("wunchunk") else None)
    s = p.summary()
    assert s.num_players == g.num_players and s.games == 400 and s.finished == int(p.finished.sum())
    assert s.plies == int(p.plies.sum()) and s.actions == int(p.actions.sum())
    assert math.isclose(s.mean, float(p.plies.mean())) and math.isclose(s.sd, float(p.plies.std()), abs_tol=1e-9)
    for q in (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0):
        assert math.isclose(s.quantile(q), float(np.quantile(p.plies.astype(float), q))), q
    for k in range(1, g.num_players + 1):
        assert s.wins[k - 1] == int((p.winners == k).sum())
        assert s.shares[k - 1] == int((p.finished & ((p.winner_mask >> (k - 1)) & 1 == 1)).sum())
    assert s.shared + s.draws == int((p.winners == 0).sum())
    assert sum(s.lengths.values()) == 400
    assert hc.PlayoutSummary.from_dict(s.to_dict()) == s


@given(st.lists(st.integers(1, 120), min_size=1, max_size=5), st.integers(0, 2**64 - 1))
def test_summaries_of_ranges_add_up(sizes, seed):
    g = hc.Churn(size=3)
    whole = hc.random_playouts(g, sum(sizes), seed=seed).summary()
    parts, start = [], 0
    for n in sizes:
        parts.append(hc.random_playouts(g, n, seed=(seed + start) % 2**64).summary())
        start += n
    total = hc.PlayoutSummary(2)
    for s in reversed(parts):  # any order
        total = total + s
    assert total == whole


def test_bad_input():
    s = hc.random_playouts(hc.Churn(size=3), 10).summary()
    with pytest.raises(ValueError, match="q must be between 0 and 1"):
        s.quantile(1.5)
    with pytest.raises(ValueError, match="player must be between 1 and 2"):
        s.win_rate(3)
    with pytest.raises(ValueError, match="cannot add summaries of 2 and 3 players"):
        s + hc.PlayoutSummary(3)
    empty = hc.PlayoutSummary(2)
    assert math.isnan(empty.mean) and math.isnan(empty.sd) and math.isnan(empty.quantile(0.5))
