"""The exact solver against plain exhaustive minimax, the pie-rule relation,
thread independence and bad input."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import hexcore as hc

SMALL_TABLE = 4  # MB: these solves are tiny


class TooBig(Exception):
    pass


def minimax(g, budget):
    """Value (1 win, 0 draw, -1 loss) for the player to move, by walking
    every action sequence: no pruning, no table, no symmetry."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig
    if g.is_over:
        w = g.winners
        if len(w) == 1:
            return 1 if w[0] == g.to_move else -1
        return 0
    best = -2
    for a in g.legal_actions():
        c = g.copy()
        c.apply_action(int(a))
        v = minimax(c, budget)
        best = max(best, v if c.to_move == g.to_move else -v)
        if best == 1:
            # the value is already the maximum; the remaining actions cannot
            # change it (this is not a pruning of the tree the solver is
            # compared with: a won position has value 1 whatever follows)
            break
    return best


NAMES = {1: "win", 0: "draw", -1: "loss"}


def move_value(g, move, budget):
    c = g.copy()
    c.play(move)
    v = minimax(c, budget)
    return NAMES[v if c.to_move == g.to_move else -v]


def random_position(game, rng, empty_target):
    """Random play until at most `empty_target` empty cells remain (or the
    game would end)."""
    g = game
    for _ in range(10_000):
        if g.is_over or int((g.cells() == 0).sum()) <= empty_target:
            break
        acts = g.legal_actions()
        nxt = g.copy()
        nxt.apply_action(int(acts[rng.randrange(len(acts))]))
        while nxt.pending_actions and not nxt.is_over:
            acts = nxt.legal_actions()
            nxt.apply_action(int(acts[rng.randrange(len(acts))]))
        if nxt.is_over:
            break
        g = nxt
    return g


def check_against_minimax(g, cap=30_000):
    assume(not g.is_over)
    budget = [cap]
    try:
        want = NAMES[minimax(g, budget)]
        per_move = {m: move_value(g, m, budget) for m in g.legal_moves()}
    except TooBig:
        assume(False)
    s = hc.solve(g, threads=1, table_mb=SMALL_TABLE)
    assert s.complete
    assert s.value == want
    assert s.moves == per_move
    assert s.moves[s.best_move] == want


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


@SETTINGS
@given(st.data())
def test_churn_endgames_match_minimax(data):
    size = data.draw(st.sampled_from([2, 3]))
    pie = data.draw(st.booleans())
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    empty = data.draw(st.integers(0, 7 if size == 2 else 5))
    g = random_position(hc.Churn(size=size, pie=pie), rng, empty)
    check_against_minimax(g)


@SETTINGS
@given(st.data())
def test_quintun_endgames_match_minimax(data):
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    swap = data.draw(st.booleans())
    placement = data.draw(st.sampled_from(["side", "gap"]))
    empty = data.draw(st.integers(2, 9))
    g = random_position(hc.Quintun(size=4, swap=swap, placement=placement), rng, empty)
    check_against_minimax(g)


@SETTINGS
@given(st.data())
def test_wunchunk_endgames_match_minimax(data):
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    start = data.draw(st.sampled_from(["standard", "open"]))
    balance = data.draw(st.sampled_from(["ap", "pie", "none"]))
    empty = data.draw(st.integers(1, 4))
    g = random_position(hc.Wunchunk(size=5, start=start, balance=balance), rng, empty)
    check_against_minimax(g, cap=60_000)


def test_churn_side2_openings():
    s = hc.solve(hc.Churn(size=2, pie=False), threads=1, table_mb=SMALL_TABLE)
    assert s.complete and s.value == "win"
    budget = [10**7]
    assert s.moves == {m: move_value(hc.Churn(size=2, pie=False), m, budget) for m in s.moves}
    # the best move is a quickest win
    assert s.moves[s.best_move] == "win" and s.plies_to_end is not None


def pie_value(no_pie_value):
    # Blue swaps a winning opening and declines a losing one, so with the pie
    # rule every opening is worth -|value| to Red.
    return {"win": "loss", "loss": "loss", "draw": "draw"}[no_pie_value]


@pytest.mark.parametrize("board", [dict(size=2)])
def test_pie_rule_consistent_with_openings(board):
    plain = hc.solve(hc.Churn(pie=False, **board), threads=1, table_mb=SMALL_TABLE)
    pie = hc.solve(hc.Churn(pie=True, **board), threads=1, table_mb=SMALL_TABLE)
    assert plain.complete and pie.complete
    assert set(plain.moves) == set(pie.moves)
    for m, v in plain.moves.items():
        assert pie.moves[m] == pie_value(v), m
    order = {"loss": 0, "draw": 1, "win": 2}
    assert pie.value == max(pie.moves.values(), key=order.get)
    # and one level down: after an opening, Blue's swap is worth what the
    # opening was worth to Red without the pie rule
    for m, v in plain.moves.items():
        g = hc.Churn(pie=True, **board)
        g.play(m)
        after = hc.solve(g, threads=1, table_mb=SMALL_TABLE)
        assert after.moves["swap"] == v


def test_threads_give_the_same_values():
    rng = random.Random(5)
    done = 0
    while done < 4:
        g = random_position(hc.Churn(size=3, pie=False), rng, 4)
        if g.is_over:
            continue
        a = hc.solve(g, threads=1, table_mb=16)
        b = hc.solve(g, threads=2, table_mb=16)
        assert a.complete and b.complete
        assert (a.value, a.moves, a.plies_to_end) == (b.value, b.moves, b.plies_to_end)
        done += 1


def mirrored(g):
    """The same position reflected across the board's (q, r) -> (r, q) axis."""
    b = g.board
    coords = [tuple(b.axial(i)) for i in range(b.num_cells)]
    index = {c: i for i, c in enumerate(coords)}
    image = [(r, q) for q, r in coords]
    dq, dr = (x - y for x, y in zip(min(coords), min(image)))
    cells = g.cells()
    pos = {b.label(index[(q + dq, r + dr)]): int(v) for (q, r), v in zip(image, cells) if v}
    return hc.Churn.from_position(pos, to_move=g.to_move, size=3, pie=False)


def test_symmetric_positions_have_the_same_value():
    rng = random.Random(11)
    for _ in range(3):
        g = random_position(hc.Churn(size=3, pie=False), rng, 5)
        if g.is_over:
            continue
        h = mirrored(g)
        assert sorted(h.cells().tolist()) == sorted(g.cells().tolist()) and h != g or h == g
        sg = hc.solve(g, threads=1, table_mb=16, )
        sh = hc.solve(h, threads=1, table_mb=16)
        assert sg.value == sh.value and sg.plies_to_end == sh.plies_to_end
        budget = [10**6]
        try:
            assert sh.value == NAMES[minimax(h, budget)]
        except TooBig:
            pass


def test_budget_gives_a_partial_result():
    s = hc.solve(hc.Churn(size=3, pie=False), max_nodes=20_000, threads=1, table_mb=SMALL_TABLE)
    assert not s.complete
    assert s.nodes >= 20_000
    assert set(s.moves) == set(hc.Churn(size=3, pie=False).legal_moves())
    # whatever it proved is right: side 3 is a first-player win, and the
    # winning openings are the centre and the six edge midpoints
    winners = {"c3", "a2", "b1", "b4", "d1", "d4", "e2"}
    for m, v in s.moves.items():
        assert v in (None, "win" if m in winners else "loss")
    s = hc.solve(hc.Churn(size=3, pie=False), max_seconds=0.05, threads=1, table_mb=SMALL_TABLE)
    assert not s.complete and s.seconds < 5


@pytest.mark.parametrize("kwargs,exc,text", [
    (dict(max_seconds=0), ValueError, "max_seconds"),
    (dict(max_seconds=-1.0), ValueError, "max_seconds"),
    (dict(max_seconds=float("nan")), ValueError, "max_seconds"),
    (dict(max_nodes=0), ValueError, "max_nodes"),
    (dict(threads=0), ValueError, "threads"),
    (dict(max_nodes="10"), TypeError, "max_nodes"),
])
def test_bad_budgets(kwargs, exc, text):
    with pytest.raises(exc, match=text):
        hc.solve(hc.Churn(size=2), **kwargs)


@pytest.mark.parametrize("players,size", [(3, 7), (4, 7)])
def test_more_than_two_players(players, size):
    with pytest.raises(ValueError, match="two-player"):
        hc.solve(hc.Wunchunk(size=size, players=players))


def test_finished_game():
    g = hc.Churn(size=2, pie=False)
    rng = random.Random(1)
    while not g.is_over:
        acts = g.legal_actions()
        g.apply_action(int(acts[rng.randrange(len(acts))]))
    with pytest.raises(hc.GameOverError, match="over"):
        hc.solve(g)


def test_mid_turn_and_wrong_type():
    g = hc.Quintun(size=4, swap=False)
    ext = [a for a in g.legal_actions() if len(g.action_to_string(int(a))) > 3]
    with pytest.raises(TypeError):
        hc.solve("churn(size=3)")
    w = hc.Wunchunk(size=5)
    w.play("1a1")
    w.apply_action(int(w.legal_actions()[0]))
    if w.pending_actions:
        with pytest.raises(hc.IllegalMoveError, match="between turns"):
            hc.solve(w)
    assert ext is not None


def test_wunchunk_short_turns_keep_their_value():
    # issue 21: the root's one-stone turns (allotment 2) were reported as
    # losses although each wins: a mid-turn position shared its table entry
    # with another one that had placed more stones
    pos = {'a1': 1, 'a2': 1, 'a4': 1, 'b1': 2, 'b2': 1, 'b3': 2, 'b4': 2, 'c2': 2, 'c3': 2, 'c5': 2, 'c6': 2,
           'c7': 1, 'd1': 2, 'd2': 2, 'd3': 1, 'd4': 2, 'd5': 2, 'd6': 2, 'd7': 2, 'd8': 1, 'e1': 1, 'e2': 2,
           'e3': 1, 'e4': 1, 'e5': 1, 'e6': 1, 'e7': 2, 'e8': 1, 'e9': 1, 'f1': 1, 'f2': 1, 'f3': 2, 'f4': 1,
           'f5': 1, 'f6': 2, 'f7': 1, 'f8': 2, 'g1': 2, 'g2': 2, 'g3': 1, 'g4': 2, 'g5': 2, 'g6': 1, 'g7': 2,
           'h1': 2, 'h2': 1, 'h3': 1, 'h4': 2, 'h5': 2, 'h6': 2, 'i1': 1, 'i2': 1, 'i3': 1, 'i4': 1, 'i5': 2}
    f = hc.Wunchunk.from_position(pos, to_move=2, size=5, balance="none")
    s = hc.solve(f, threads=1, table_mb=SMALL_TABLE)
    assert s.complete
    for m in ("1a3", "2a5", "1b6", "2c1", "2c4"):
        c = f.copy()
        c.play(m)
        assert hc.solve(c, threads=1, table_mb=SMALL_TABLE).value == "loss", m
        assert s.moves[m] == "win", m
