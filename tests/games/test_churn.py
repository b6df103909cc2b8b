import pickle
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hexcore as hc
from hexcore import reference

from tests.support.data import load_json, load_jsonl
from tests.support.draws import Draws
from tests.support.perft import ref_perft

BOARDS = [dict(size=3), dict(board="limping-34"), dict(board="limping-335"), dict(size=2)]


def position(fig, size=3):
    pos = {c: 1 for c in fig["red"]}
    pos.update({c: 2 for c in fig["blue"]})
    return hc.Churn.from_position(pos, to_move=1 if fig["to_move"] == "red" else 2, size=size, pie=False)


def stones(g):
    b = g.board
    cells = g.cells()
    return {b.label(i) for i in range(b.num_cells) if cells[i] != 0}


def test_figures(data_dir):
    figs = load_json(data_dir / "churn" / "figures.json")["positions"]
    assert len(figs) >= 8
    for fig in figs:
        g = position(fig)
        legal = sorted(g.legal_moves())
        if "legal" in fig:
            assert legal == sorted(fig["legal"]), fig["name"]
        if "legal_count" in fig:
            assert len(legal) == fig["legal_count"], fig["name"]
        if "play" in fig:
            before = stones(g)
            g.play(fig["play"])
            removed = sorted(before - stones(g))
            assert removed == sorted(fig["removed"]), fig["name"]
            if "over_after" in fig:
                assert g.is_over == fig["over_after"]
            then = fig.get("then")
            if then:
                assert sorted(g.legal_moves()) == sorted(then["legal"])
                before = stones(g)
                g.play(then["play"])
                assert sorted(before - stones(g)) == sorted(then["removed"])
                assert g.is_over == then["over_after"]
                assert g.winners == ((1,) if then["winner"] == "red" else (2,))
                assert g.scores() == (then["red"], then["blue"])


@pytest.mark.parametrize("fname,opts", [
    ("abstractplay_traces_hex3.jsonl", dict(size=3)),
    ("abstractplay_traces_limping-34.jsonl", dict(board="limping-34")),
])
def test_abstractplay_traces(data_dir, fname, opts):
    traces = load_jsonl(data_dir / "churn" / fname)
    assert traces
    for t in traces:
        g = hc.Churn(pie=False, **opts)
        for ply in t["plies"]:
            assert sorted(g.legal_moves()) == sorted(ply["legal"])
            before = stones(g)
            g.play(ply["move"])
            assert sorted(before - stones(g)) == sorted(ply["removed"])
            assert g.scores() == (ply["red"], ply["blue"])
        assert g.is_over


def test_empty_board_and_pie():
    g = hc.Churn()
    assert g.spec == "churn(size=3)" and g.to_move == 1 and not g.is_over
    assert g.num_actions == 20
    g.play("c3")
    assert "swap" in g.legal_moves()
    g.play("swap")
    assert g.to_move == 1 and g.cells()[g.board.index("c3")] == 2
    assert "swap" not in g.legal_moves()
    assert g.history == ["c3", "swap"]
    assert g.undo() == "swap"
    assert g.cells()[g.board.index("c3")] == 1 and g.to_move == 2
    nopie = hc.Churn(pie=False)
    nopie.play("c3")
    assert "swap" not in nopie.legal_moves()
    with pytest.raises(hc.IllegalMoveError) as e:
        nopie.play("swap")
    assert e.value.reason == "swap_not_allowed"


def test_errors_say_which_rule():
    g = hc.Churn(size=3, pie=False)
    g.play("c3")
    g.play("a1")
    with pytest.raises(hc.IllegalMoveError) as e:
        g.play("c4")  # touches red c3 while isolated cells exist
    assert e.value.reason == "isolation" and "isolat" in str(e.value)
    with pytest.raises(hc.IllegalMoveError) as e:
        g.play("c3")
    assert e.value.reason == "occupied"
    with pytest.raises(hc.NotationError) as e:
        g.play("q7")
    assert e.value.reason == "unknown_cell"
    with pytest.raises(ValueError):
        g.play("")
    fig = {"red": ["a3", "b1", "b3", "b4", "c2", "d3", "e1"], "blue": ["a1", "a2", "c3", "c5", "d1", "d2", "d4", "e3"], "to_move": "red"}
    with pytest.raises(hc.IllegalMoveError) as e:
        position(fig).play("b2")
    assert e.value.reason == "smallest_group" and "6" in str(e.value)
    assert g.history == ["c3", "a1"]


def test_game_over_errors():
    g = hc.Churn(size=2, pie=False)
    while not g.is_over:
        g.apply_action(int(g.legal_actions()[0]))
    with pytest.raises(hc.GameOverError):
        g.play("a1")
    with pytest.raises(hc.GameOverError):
        g.apply_action(0)
    assert g.legal_moves() == [] and g.count_moves() == 0 and len(g.legal_actions()) == 0


@pytest.mark.parametrize("bad", [-1, 20, 2**40, 2**70])
def test_bad_actions(bad):
    g = hc.Churn()
    with pytest.raises(hc.IllegalMoveError) as e:
        g.apply_action(bad)
    assert e.value.reason == "action_out_of_range"


def test_bad_action_types():
    g = hc.Churn()
    for bad in ["c3", 1.5, None, True]:
        with pytest.raises(TypeError):
            g.apply_action(bad)
    g.apply_action(np.int64(9))
    with pytest.raises(hc.IllegalMoveError) as e:
        g.apply_action(9)
    assert e.value.reason == "illegal_action"


@pytest.mark.parametrize("kwargs", [dict(size=1), dict(sides=(3, 3, 3, 3, 3, 2)), dict(board="nope"), dict(size=3, sides=(3,) * 6)])
def test_bad_constructor(kwargs):
    with pytest.raises(ValueError):
        hc.Churn(**kwargs)


def test_action_api_and_observation():
    g = hc.Churn(size=3)
    mask = g.legal_action_mask()
    assert mask.dtype == bool and mask.shape == (20,) and mask.sum() == 19 and not mask[19]
    acts = g.legal_actions()
    assert acts.dtype == np.int32 and list(acts) == list(np.flatnonzero(mask))
    g.apply_action(9)
    assert g.action_to_string(9) == "c3" and g.action_to_string(19) == "swap"
    assert g.legal_action_mask()[19]
    obs = g.observation()
    assert obs.dtype == np.float32 and obs.shape == g.observation_shape == (4, 5, 5)
    assert obs[1].sum() == 1 and obs[0].sum() == 0 and obs[2].sum() == 19 and obs[3].all()


def test_copy_pickle_eq_hash():
    g = hc.Churn(size=3)
    for m in ["c3", "swap", "a1", "e3"]:
        g.play(m)
    c = g.copy()
    assert c == g and hash(c) == hash(g) and c.history == g.history
    c.play(c.legal_moves()[0])
    assert c != g
    p = pickle.loads(pickle.dumps(g))
    assert p == g and p.history == g.history and p.zobrist == g.zobrist
    f = hc.Churn.from_position({"c3": 1, "d2": 2}, to_move=1, size=3)
    f.play(f.legal_moves()[0])
    q = pickle.loads(pickle.dumps(f))
    assert q == f and q.history == f.history


def test_transpositions_hash_equal():
    a = hc.Churn.replay(["a1", "e3", "c3"], pie=False)
    b = hc.Churn.replay(["c3", "e3", "a1"], pie=False)
    assert a == b and a.zobrist == b.zobrist


def test_spec_round_trip():
    for spec in ["churn(size=3)", "churn(sides=(3,4,3,4,3,4))", "churn(size=4,pie=false)"]:
        assert hc.load(spec).spec == spec
    assert hc.load("churn(board=limping-34)").spec == "churn(sides=(3,4,3,4,3,4))"
    for bad in ["chess(size=3)", "churn(size=)", "churn(size=3", "churn(colour=2)", "churn(size=1)"]:
        with pytest.raises(ValueError):
            hc.load(bad)


def _random_game(rng, opts):
    """Play a random game in both engines, comparing every ply (``rng``: a
    ``random.Random`` or the Hypothesis draws of ``Draws``)."""
    g, r = hc.Churn(**opts), reference.Churn(**opts)
    while not r.is_over:
        legal = sorted(r.legal_moves())
        assert sorted(g.legal_moves()) == legal
        assert g.count_moves() == len(legal) == len(g.legal_actions())
        m = rng.choice(legal)
        if rng.random() < 0.05:
            snap = (g.zobrist, g.cells().tolist(), g.to_move)
            g.play(m)
            g.undo()
            assert (g.zobrist, g.cells().tolist(), g.to_move) == snap
        g.play(m)
        r.play(m)
        assert g.cells().tolist() == r.cells()
        assert g.to_move == r.to_move and g.is_over == r.is_over
    assert g.winners == r.winners
    return len(r.history)


@pytest.mark.slow
@given(st.sampled_from(BOARDS), st.booleans(), st.data())
def test_differential_vs_reference(opts, pie, data):
    _random_game(Draws(data), dict(opts, pie=pie))


@pytest.mark.slow
def test_differential_many_games():
    # 1,000+ games across side 3 and the limping boards, pie on and off
    total = 0
    for i in range(1100):
        opts = dict(BOARDS[i % 3], pie=bool(i % 2))
        total += _random_game(random.Random(i), opts)
    assert total > 50_000


@pytest.mark.parametrize("opts", [dict(size=3), dict(board="limping-34", pie=False), dict(size=2)])
def test_perft_move_action_reference(opts):
    g = hc.Churn(**opts)
    for d in range(4):
        n = hc.perft(g, d)
        assert n == hc.perft(g, d, unit="action") == hc.perft(g, d, threads=1)
        assert n == ref_perft(reference.Churn(**opts), d)
    div = hc.perft(g, 2, divide=True)
    assert sum(c for _, c in div) == hc.perft(g, 2) and len(div) == g.count_moves()


def test_perft_midgame_and_end():
    g = hc.Churn.replay(["c3", "swap", "a3", "e2", "b2"], size=3)
    assert hc.perft(g, 3) == hc.perft(g, 3, unit="action") == ref_perft(reference_replay(g), 3)
    assert hc.perft(g, 0) == 1
    end = hc.Churn(size=2, pie=False)
    while not end.is_over:
        end.apply_action(int(end.legal_actions()[-1]))
    assert hc.perft(end, 0) == 1 and hc.perft(end, 1) == 0 and hc.perft(end, 2, unit="action") == 0


def reference_replay(g):
    r = reference.Churn(size=3)
    for m in g.history:
        r.play(m)
    return r


def test_random_playouts_reproduce_side3_stats(data_dir):
    rows = {r["board"]: r for r in load_json(data_dir / "churn" / "random_play_stats.json")["rows"]}
    row = rows["hexhex 3"]
    n = 20_000
    res = hc.random_playouts(hc.Churn(size=3, pie=False), n, seed=1)
    assert res.finished.all()
    se = row["sd"] / n ** 0.5
    assert abs(res.plies.mean() - row["mean_plies"]) < 4 * se + 0.05  # table rounds to 0.1
    assert abs(res.plies.std() - row["sd"]) < 0.3
    p = row["first_player_win"]
    assert abs((res.winners == 1).mean() - p) < 4 * (p * (1 - p) / n) ** 0.5 + 0.0005


def test_playouts_deterministic_across_threads():
    g = hc.Churn(size=4)
    a = hc.random_playouts(g, 64, seed=5, threads=1)
    b = hc.random_playouts(g, 64, seed=5, threads=2)
    assert (a.plies == b.plies).all() and (a.winner_mask == b.winner_mask).all()
    c = hc.random_playouts(g, 64, seed=6, threads=2)
    assert not (a.plies == c.plies).all()


def test_playouts_max_plies():
    res = hc.random_playouts(hc.Churn(size=4), 4, seed=0, max_plies=10)
    assert (res.plies == 10).all() and not res.finished.any() and (res.winners == -1).all()


def test_side7_game_runs_to_the_end():
    res = hc.random_playouts(hc.Churn(size=7, pie=False), 1, seed=3)
    assert res.finished[0] and res.plies[0] > 300_000
