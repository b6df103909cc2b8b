"""Depth-first proof-number search (``hc.solve(g, algorithm="dfpn")``) against
plain minimax and alpha-beta, on every game, with the published Hex values."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import hexcore as hc

from tests.support.minimax import ENDGAMES, NAMES, Endgame, move_results, random_endgame

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from solve_hex_openings import PUBLISHED_LOSSES  # noqa: E402

BUDGET = 100_000  # minimax positions per endgame; running out fails the test


def dfpn(g, **kw):
    kw.setdefault("threads", 1)
    kw.setdefault("table_mb", 4)
    return hc.solve(g, algorithm="dfpn", **kw)


@pytest.mark.parametrize("eg", ENDGAMES, ids=lambda eg: eg.name)
def test_dfpn_matches_minimax_on_random_endgames(eg: Endgame):
    """Every move's value equals the minimax's on a fifth of the solver's
    endgames; every fifth position again on two threads; the larger
    endgames against alpha-beta."""
    rng = random.Random("dfpn " + eg.name)
    seen = {"win": 0, "loss": 0, "draw": 0}
    for i in range(max(eg.count // 5, 20)):
        g = random_endgame(eg.make(), rng, rng.choice(eg.empty))
        want = {m: NAMES[v] for m, (v, _) in move_results(g, [BUDGET]).items()}
        s = dfpn(g)
        where = f"{eg.name} #{i}: {g.spec} {g.history}"
        assert s.complete and s.algorithm == "dfpn", where
        assert s.moves == want, where
        order = {"loss": 0, "draw": 1, "win": 2}
        assert s.value == max(want.values(), key=order.get), where
        assert want[s.best_move] == s.value, where
        assert s.plies_to_end is None
        if i % 5 == 0:
            t = dfpn(g, threads=2)
            assert (t.value, t.moves) == (s.value, s.moves), where
        for v in want.values():
            seen[v] += 1
    assert seen["win"] and seen["loss"], seen
    for empty in eg.larger:
        for _ in range(3):
            g = random_endgame(eg.make(), rng, empty)
            a = hc.solve(g, threads=1, table_mb=16, distances=False, algorithm="alphabeta")
            b = dfpn(g, table_mb=16)
            assert a.complete and b.complete
            assert (a.value, a.moves) == (b.value, b.moves), f"{eg.name}: {g.spec} {g.history}"


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_hex_openings_equal_alpha_beta(size):
    g = hc.Hex(size=size)
    a = hc.solve(g, threads=1, table_mb=64, distances=False, algorithm="alphabeta")
    b = dfpn(g, threads=2, table_mb=64)
    assert a.complete and b.complete
    assert a.moves == b.moves
    if size in PUBLISHED_LOSSES:
        losses = set(PUBLISHED_LOSSES[size].split())
        assert b.moves == {m: "loss" if m in losses else "win" for m in b.moves}


@pytest.mark.slow
@pytest.mark.parametrize("opening", ["a1", "f1"])
def test_some_hex_6x6_openings_equal_benzene(opening):
    """Two 6x6 openings (one of each value) against Benzene's table."""
    g = hc.Hex(size=6)
    g.play(opening)
    s = dfpn(g, table_mb=64)
    losses = set(PUBLISHED_LOSSES[6].split())
    # the value is for o, to move after x's opening
    assert s.complete
    assert s.value == ("win" if opening in losses else "loss")


def test_default_algorithm_is_alpha_beta():
    for g in [hc.Hex(size=3), hc.Churn(size=2, pie=False)]:
        s = hc.solve(g, threads=1, table_mb=1)
        assert s.algorithm == "alphabeta" and s.plies_to_end is not None


def test_bad_algorithm():
    g = hc.Hex(size=3)
    with pytest.raises(ValueError, match="algorithm must be 'alphabeta' or 'dfpn', got \"minimax\""):
        hc.solve(g, algorithm="minimax")
    with pytest.raises(TypeError, match="algorithm must be"):
        hc.solve(g, algorithm=3)
    with pytest.warns(FutureWarning, match="pass max_seconds=, .*algorithm= by keyword"):
        assert hc.solve(g, None, None, None, 1, None, True, None, "dfpn").value == "win"  # options by position: deprecated


def test_budget_gives_a_partial_result():
    g = hc.Hex(size=6)
    s = dfpn(g, max_nodes=2000)
    assert not s.complete
    assert any(v is None for v in s.moves.values())


def test_certificates_pass_the_checker(tmp_path):
    from hexcore.reference import check_certificate

    for g in [hc.Churn(size=2, pie=False), hc.Hex(size=3), hc.Hex.replay(["c3"], size=4)]:
        path = tmp_path / "proof.jsonl"
        s = dfpn(g, certificate=path)
        assert s.certificate == str(path) and s.certificate_positions > 0
        report = check_certificate(path)
        assert report.value == s.value
        # the proof does not depend on the thread count (the trailer's node
        # count does)
        again = tmp_path / "again.jsonl"
        dfpn(g, threads=2, certificate=again)
        assert again.read_text().splitlines()[:-1] == path.read_text().splitlines()[:-1]
