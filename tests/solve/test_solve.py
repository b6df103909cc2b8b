"""The exact solver against plain exhaustive minimax, the pie-rule relation,
thread independence and bad input."""
from __future__ import annotations

import random
from collections import Counter

import pytest

import hexcore as hc

from tests.support.minimax import ENDGAMES, NAMES, Endgame, minimax, move_results, outcome, preference, random_endgame

SMALL_TABLE = 4  # MB: these solves are tiny
BUDGET = 100_000  # minimax positions per endgame; running out fails the test


def check_endgames(eg: Endgame) -> Counter:
    """Solve ``eg.count`` random endgames and compare each with the minimax:
    the position's value, every move's value, the distance to the end and
    that the best move keeps it. Every seventh position is solved again on
    two threads, which must give the same answer. Returns what was checked."""
    rng = random.Random(eg.name)
    seen: Counter = Counter()
    for i in range(eg.count):
        g = random_endgame(eg.make(), rng, rng.choice(eg.empty))
        want = move_results(g, [BUDGET])
        value, plies = max(want.values(), key=lambda r: preference(*r))
        s = hc.solve(g, threads=1, table_mb=1)
        where = f"{eg.name} #{i}: {g.spec} {g.history}"
        assert s.complete, where
        assert s.moves == {m: NAMES[v] for m, (v, _) in want.items()}, where
        assert s.value == NAMES[value], where
        assert want[s.best_move][0] == value, where
        if value == 0:
            assert s.plies_to_end is None, where
        else:
            assert s.plies_to_end == plies, where
            assert want[s.best_move][1] == plies, where
            seen["distances"] += 1
        if i % 7 == 0:
            t = hc.solve(g, threads=2, table_mb=1)
            assert (t.value, t.moves, t.best_move, t.plies_to_end) == (s.value, s.moves, s.best_move, s.plies_to_end), where
        seen["positions"] += 1
        seen["moves"] += len(want)
        for v, _ in want.values():
            seen[NAMES[v]] += 1
        for name, has in eg.features.items():
            seen[name] += sum(1 for m in want if has(g, m))
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("eg", ENDGAMES, ids=lambda eg: eg.name)
def test_solver_matches_minimax_on_random_endgames(eg):
    seen = check_endgames(eg)
    assert seen["positions"] == eg.count
    # the sample is not degenerate: both results and what it must cover occur
    assert seen["win"] and seen["loss"] and seen["distances"], seen
    for name in eg.features:
        assert seen[name], (name, seen)


def check_one_step(eg: Endgame, count: int) -> Counter:
    """Positions too large for the minimax: every move's value in the root's
    solution, the root's value and distance and the best move's must be what
    fresh solves of the positions after the moves give (a finished game: its
    result, one ply). The root shares one table among its moves; the fresh
    solves share nothing with it."""
    rng = random.Random("larger " + eg.name)
    seen: Counter = Counter()
    for i in range(count):
        g = random_endgame(eg.make(), rng, rng.choice(eg.larger))
        s = hc.solve(g, threads=1, table_mb=SMALL_TABLE)
        where = f"{eg.name} #{i}: {g.spec} {g.history}"
        assert s.complete, where
        sign = 1 if g.to_move == 1 else -1
        want = {}
        for m in s.moves:
            c = g.copy()
            c.play(m)
            if c.is_over:
                want[m] = (sign * outcome(c), 1)
                continue
            t = hc.solve(c, threads=1, table_mb=1)
            v = {"win": 1, "draw": 0, "loss": -1}[t.value] * (1 if c.to_move == g.to_move else -1)
            want[m] = (v, None if t.plies_to_end is None else t.plies_to_end + 1)
        assert s.moves == {m: NAMES[v] for m, (v, _) in want.items()}, where
        value, plies = max(want.values(), key=lambda r: preference(r[0], r[1] or 0))
        assert s.value == NAMES[value] and want[s.best_move][0] == value, where
        assert s.plies_to_end == (plies if value else None) and want[s.best_move][1] == plies, where
        seen["positions"] += 1
        seen["moves"] += len(want)
        for name, has in eg.features.items():
            seen[name] += sum(1 for m in want if has(g, m))
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("eg", [eg for eg in ENDGAMES if eg.larger], ids=lambda eg: eg.name)
def test_solver_agrees_with_fresh_solves_of_each_move(eg):
    seen = check_one_step(eg, 30)
    assert seen["positions"] == 30
    for name in eg.features:
        assert seen[name], (name, seen)


def test_churn_side2_openings():
    g = hc.Churn(size=2, pie=False)
    s = hc.solve(g, threads=1, table_mb=SMALL_TABLE)
    assert s.complete and s.value == "win"
    want = move_results(g, [BUDGET])
    assert s.moves == {m: NAMES[v] for m, (v, _) in want.items()}
    # the best move is a quickest win
    fastest = min(d for v, d in want.values() if v == 1)
    assert want[s.best_move] == (1, fastest) and s.plies_to_end == fastest


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
    for _ in range(4):
        g = random_endgame(hc.Churn(size=3, pie=False), rng, 4)
        a = hc.solve(g, threads=1, table_mb=16)
        b = hc.solve(g, threads=2, table_mb=16)
        assert a.complete and b.complete
        assert (a.value, a.moves, a.best_move, a.plies_to_end) == (b.value, b.moves, b.best_move, b.plies_to_end)


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
    for empty in (5, 5, 2, 2):
        g = random_endgame(hc.Churn(size=3, pie=False), rng, empty)
        h = mirrored(g)
        assert mirrored(h) == g and sorted(h.cells().tolist()) == sorted(g.cells().tolist())
        sg = hc.solve(g, threads=1, table_mb=16)
        sh = hc.solve(h, threads=1, table_mb=16)
        assert sg.complete and sh.complete
        assert sg.value == sh.value and sg.plies_to_end == sh.plies_to_end
        if empty <= 2:
            # small enough for the minimax to finish (it fails if not)
            assert sh.value == NAMES[minimax(h, [BUDGET])[0] * (1 if h.to_move == 1 else -1)]


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
    with pytest.raises(TypeError):
        hc.solve("churn(size=3)")
    # the first stone of a Quintun EXTEND, and of a two-stone Wunchunk turn
    q = hc.Quintun(size=4, swap=False)
    q.play("Ad7")
    w = hc.Wunchunk.from_position({"a1": 1, "a2": 1, "c1": 1, "c2": 1, "e1": 2, "e2": 2}, to_move=1, size=5)
    assert w.allotment == 2
    for g in (q, w):
        g.apply_action(next(int(a) for a in g.legal_actions() if g.action_to_string(int(a)) in ("Af7", "1a3")))
        assert g.pending_actions
        before = (g.pending_actions, g.zobrist)
        with pytest.raises(hc.IllegalMoveError, match="between turns"):
            hc.solve(g)
        assert (g.pending_actions, g.zobrist) == before


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
