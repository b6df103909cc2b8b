"""The pure-Python Wunchunk reference against the rule card and Abstract Play's data."""
from __future__ import annotations

import json
import random
from math import comb

import pytest

from hexcore.reference.wunchunk import IllegalMove, Wunchunk, replay_ap_record

from tests.support.ap_wunchunk import DATA, ap_truncate, load_traces, replay_trace, start_of


def load_records():
    return json.loads((DATA / "abstractplay_records.json").read_text())


def load_unit():
    return json.loads((DATA / "abstractplay_unit_cases.json").read_text())


# ------------------------------------------------------------------------------ records


@pytest.mark.parametrize("rec", load_records(), ids=lambda r: r["gameid"][9:17])
def test_records_replay(rec):
    moves = [m for rnd in rec["moves"] for m in rnd]
    balance = "none" if rec["gameid"].startswith("wunchunk#a616c48f") else "ap"
    g = replay_ap_record(moves, size=rec["size"], players=rec["players"], start=start_of(rec), balance=balance)
    assert [v[0] for v in g.scores()] == rec["seat_chunks"]
    resigned = moves[-1] == "resign"
    assert g.is_over == (not resigned)
    if not resigned:
        winners = tuple(i + 1 for i, r in enumerate(rec["seat_result"]) if r == 1)
        assert g.winners == winners


def test_pre_balance_record_is_illegal_under_ap():
    (rec,) = [r for r in load_records() if r["gameid"].startswith("wunchunk#a616c48f")]
    moves = [m for rnd in rec["moves"] for m in rnd]
    g = Wunchunk(size=6, start="open", balance="ap")
    for ply, m in enumerate(moves):
        if ply == 4:
            with pytest.raises(IllegalMove) as err:
                g.play(m)
            assert err.value.reason == "balance"
            break
        g.play(m)
    else:  # pragma: no cover
        pytest.fail("record too short")


# --------------------------------------------------------------------------- unit cases


@pytest.mark.parametrize("case", load_unit()["consecutive_passes_end_game"], ids=lambda c: f"p{c['players']}")
def test_consecutive_passes(case):
    g = Wunchunk(players=case["players"], size=6 if case["players"] == 2 else 8)
    for i, m in enumerate(case["moves"]):
        assert not g.is_over
        g.play(m)
    assert g.is_over == case["over"]
    assert list(g.winners) == case["winners"]


def test_swap_winner_and_history():
    case = load_unit()["swap_winner"]
    g = Wunchunk(size=case["size"], players=2, start="open")
    for m in case["moves"]:
        g.play(m)
    assert g.is_over and list(g.winners) == case["winners"]
    assert g.history == case["moves"]
    flat = [m for rnd in case["history_as_AP_records_it"] for m in rnd]
    assert replay_ap_record(flat, size=case["size"], start="open").history == g.history


@pytest.mark.parametrize("case", load_unit()["balance_illegal"], ids=lambda c: f"p{c['players']}-{c['illegal']}")
def test_balance_illegal(case):
    opts = dict(size=case["size"], players=case["players"], start=start_of(case))
    g = Wunchunk(**opts)
    for m in case["moves"]:
        g.play(m)
    before = (g.cells(), g.history[:], g.to_move)
    with pytest.raises(IllegalMove) as err:
        g.play(case["illegal"])
    assert err.value.reason == "balance"
    assert (g.cells(), g.history, g.to_move) == before
    assert "pass" in g.legal_moves() and g.is_legal("pass")
    h = Wunchunk(balance="none", **opts)
    for m in case["moves"]:
        h.play(m)
    h.play(case["illegal"])


def test_score_examples():
    for case in load_unit()["score_examples"]:
        g = Wunchunk(size=case["size"], players=case["players"])
        for m in case["moves"]:
            g.play(m)
        assert ap_truncate(g.scores()) == case["score_vectors"]
        assert list(g.winners) == case["winners"]


def test_card_balance_example():
    g = Wunchunk(size=6)
    g.play("1g8")
    g.play("1g9")
    assert g.allotment == 2
    assert g.is_legal("1g7") and g.is_legal("1g7,2a1") and g.is_legal("pass")
    for bad in ("1a1", "2g7", "1a1,2a2"):
        with pytest.raises(IllegalMove) as err:
            g.copy().play(bad)
        assert err.value.reason == "balance"
    g = Wunchunk(size=6)
    g.play("1a4")
    g.play("2k4")
    with pytest.raises(IllegalMove) as err:
        g.play("1b4")
    assert err.value.reason == "balance"


# ------------------------------------------------------------------------------- traces


@pytest.mark.parametrize("name,idx,trace", load_traces(), ids=lambda x: str(x) if not isinstance(x, dict) else "")
def test_trace(name, idx, trace):
    cfg = trace["config"]
    g = Wunchunk(size=cfg["size"], players=cfg["players"], start=start_of(cfg), balance="ap")
    replay_trace(g, name, idx, trace)


# ----------------------------------------------------------------------- the API itself


@pytest.mark.parametrize(
    "kwargs,word",
    [
        (dict(players=1), "players"),
        (dict(players=5), "players"),
        (dict(size=4), "size"),
        (dict(size=9), "size"),
        (dict(players=3, size=6), "size"),
        (dict(players=4, size=5), "size"),
        (dict(start="closed"), "start"),
        (dict(players=3, size=8, start="open"), "start"),
        (dict(balance="maybe"), "balance"),
        (dict(players=3, size=8, balance="pie"), "balance"),
    ],
)
def test_bad_arguments(kwargs, word):
    with pytest.raises(ValueError, match=word):
        Wunchunk(**kwargs)


def test_start_layouts_are_one_chunk_each():
    for players, sizes in ((2, (5, 6, 7, 8)), (3, (7, 8)), (4, (7, 8))):
        for size in sizes:
            g = Wunchunk(size=size, players=players)
            assert [v[0] for v in g.scores()] == [1] * players
            assert sum(1 for c in g.cells() if c) == 2 * players
            assert g.allotment == 1 and g.to_move == 1


def test_notation_and_rejections():
    g = Wunchunk(size=6)
    g.play("  1G7 ")
    assert g.history == ["1g7"]
    g.play("PASS")
    assert g.history == ["1g7", "pass"] and g.to_move == 1
    g = Wunchunk(size=6)
    g.play("1a1")
    g.play("2k1")
    with pytest.raises(IllegalMove) as err:
        g.play("1a2")  # balance turn: a1-a2 would be colour 1's second chunk
    assert err.value.reason == "balance"
    g.play("1g7")
    assert g.allotment == 1
    h = Wunchunk.from_position({"a1": 1, "a2": 1, "c1": 1, "c2": 1, "k1": 2, "k2": 2}, size=6)
    assert h.allotment == 2
    cases = {
        "": "syntax",
        ",": "syntax",
        "1": "syntax",
        "swap": "swap_not_allowed",
        "1e1,1e2,1e3": "too_many_stones",
        "3e1": "bad_colour",
        "xe1": "syntax",
        "0e1": "bad_colour",
        "1z9": "unknown_cell",
        "1a1": "occupied",
        "1e1,2e1": "duplicate_cell",
        "1e1, 1e1": "duplicate_cell",
    }
    for move, reason in cases.items():
        with pytest.raises(IllegalMove) as err:
            h.play(move)
        assert err.value.reason == reason, move
        assert isinstance(err.value, ValueError) and str(err.value)
    h.play("2e2 , 1e1")
    assert h.history == ["1e1,2e2"]
    full = Wunchunk.from_position({lab: 1 + (i % 2) for i, lab in enumerate(Wunchunk(size=5).board.labels[1:])}, size=5)
    with pytest.raises(IllegalMove) as err:
        full.play("1a1,2b1")
    assert err.value.reason == "more_than_empty"
    full.play("1a1")
    assert full.is_over
    with pytest.raises(IllegalMove) as err:
        full.play("pass")
    assert err.value.reason == "game_over"
    assert full.legal_moves() == [] and full.count_moves() == 0


def test_open_start_flow():
    g = Wunchunk(size=5, start="open")
    assert g.allotment == 4 and g.seat_colour == {1: 1, 2: 2}
    for bad in ("1a1,1a2,2e1", "1a1,1b1,2e1,2e3", "1a1,1a2,1a3,2e1", "swap"):
        with pytest.raises(IllegalMove) as err:
            g.play(bad)
        assert err.value.reason == ("swap_not_allowed" if bad == "swap" else "open_setup")
    g.play("2e2,1a1,1a2,2e1")
    assert g.history == ["1a1,1a2,2e1,2e2"] and g.to_move == 2
    assert g.legal_moves() == ["pass", "swap"] and g.count_moves() == 2
    with pytest.raises(IllegalMove) as err:
        g.play("2c1")
    assert err.value.reason == "open_choice"
    kept = g.copy()
    kept.play("pass")
    assert kept.to_move == 1 and kept.seat_colour == {1: 1, 2: 2} and kept.allotment == 1
    after = kept.copy()
    assert after.play("pass") == "pass" and after.is_over  # setup, pass, pass
    g.play("swap")
    assert g.history[-1] == "swap" and g.to_move == 2 and g.seat_colour == {1: 2, 2: 1}
    assert g.allotment == 1
    after = g.copy()
    assert after.play("pass") == "pass" and after.is_over  # setup, swap, (inserted pass), pass
    g.play("1c3")
    assert g.to_move == 1 and g.seat_colour[1] == 2
    g.play("2d4")
    assert g.balance_turn and g.to_move == 2
    # scores are per seat: seat 1 owns colour 2
    vec = g.colour_vectors()
    assert g.scores() == [vec[1], vec[0]]


def test_open_setup_pass():
    g = Wunchunk(size=5, start="open")
    g.play("pass")
    assert g.legal_moves() == ["pass", "swap"]
    g.play("swap")
    assert g.allotment == 0 and g.legal_moves() == ["pass"] and g.count_moves() == 1
    g.play("pass")
    assert g.is_over and g.winners == (1, 2)


def test_pie_swap():
    g = Wunchunk(size=5, balance="pie")
    assert "swap" not in g.legal_moves()
    g.play("2a1")
    assert g.legal_moves()[-1] == "swap"
    g.play("swap")
    assert g.seat_colour == {1: 2, 2: 1} and g.to_move == 1 and g.history == ["2a1", "swap"]
    assert g.allotment == 1  # colour 2's chunks
    with pytest.raises(IllegalMove) as err:
        g.play("swap")
    assert err.value.reason == "swap_not_allowed"
    g.play("pass")
    assert not g.is_over  # swap is not a pass
    g.play("pass")
    assert g.is_over
    p = Wunchunk(size=5, balance="pie")
    p.play("pass")
    assert "swap" not in p.legal_moves()
    q = Wunchunk(size=5, start="open", balance="pie")
    q.play("1a1,1a2,2e1,2e2")
    q.play("pass")
    q.play("1c1")
    assert "swap" not in q.legal_moves()


def test_failed_play_leaves_state():
    g = Wunchunk(size=6)
    g.play("1a1")
    snap = (g.cells(), g.history[:], g.to_move, g.allotment, g.passes)
    for bad in ("1g5", "1a1", "9a1", "swap", "1a2,1a3"):
        with pytest.raises(IllegalMove):
            g.play(bad)
        assert (g.cells(), g.history, g.to_move, g.allotment, g.passes) == snap


def test_from_position_and_copy():
    g = Wunchunk.from_position({"g7": 1, "g8": 1, "a1": 2, "a2": 2}, to_move=2, size=6)
    assert g.to_move == 2 and g.allotment == 1 and not g.balance_turn
    c = g.copy()
    c.play("2c3")
    assert g.history == [] and g.cells() != c.cells()
    b = Wunchunk.from_position({"g7": 1, "g8": 1, "a1": 2, "a2": 2}, colour1_turns=1, size=6)
    assert b.balance_turn
    with pytest.raises(ValueError, match="stones"):
        Wunchunk.from_position({"g7": 3}, size=6)
    with pytest.raises(ValueError):
        Wunchunk.from_position({"z99": 1}, size=6)


def test_winner_is_lexicographic():
    # size 5: colour 1 one chunk of 2 plus a crumb; colour 2 one chunk of 3
    g = Wunchunk.from_position({"a1": 1, "a2": 1, "c1": 1, "e1": 2, "e2": 2, "e3": 2}, passes=1, size=5)
    g.play("pass")
    assert g.is_over
    assert g.scores() == [[1, 1, 1, 0], [1, 0, 0, 1]]
    assert g.winners == (2,)


# -------------------------------------------------------------- counting vs enumeration


def _random_position(rng, players, size, stones, colour1_bias=0.5, colour1_turns=2):
    g = Wunchunk(size=size, players=players)
    cells = rng.sample(range(g.board.num_cells), stones)
    pos = {g.board.label(c): (1 if rng.random() < colour1_bias else rng.randint(1, players)) for c in cells}
    return Wunchunk.from_position(
        pos, to_move=rng.randint(1, players), colour1_turns=colour1_turns, size=size, players=players
    )


def _enumerable(g, limit=60000):
    e = len(g.empty_cells)
    return sum(comb(e, k) * g.players**k for k in range(1, min(g.allotment, e) + 1)) <= limit


def test_count_moves_dense_positions():
    rng = random.Random(11)
    done = 0
    while done < 120:
        players = rng.choice([2, 2, 3, 4])
        size = 5 if players == 2 else 7
        n = Wunchunk(size=size, players=players).board.num_cells
        g = _random_position(rng, players, size, n - rng.randint(1, 8), colour1_turns=rng.choice([1, 2]))
        if g.is_over or not _enumerable(g):
            continue
        moves = g.legal_moves()
        assert len(moves) == len(set(moves)) == g.count_moves()
        done += 1


@pytest.mark.slow
def test_count_moves_balance_turn_sparse():
    rng = random.Random(12)
    done = 0
    seen_allot = set()
    while done < 30:
        players = rng.choice([2, 2, 3])
        size = 5 if players == 2 else 7
        g = _random_position(rng, players, size, rng.randint(3, 22), colour1_bias=0.6, colour1_turns=1)
        g.to_move = 1
        if not g.balance_turn or not _enumerable(g, 150000):
            continue
        assert len(g.legal_moves()) == g.count_moves()
        seen_allot.add(g.allotment)
        done += 1
    assert {1, 2, 3} <= seen_allot


def test_count_moves_open_setup():
    g = Wunchunk(size=5, start="open")
    moves = g.legal_moves()
    assert len(moves) == g.count_moves()
    rng = random.Random(4)
    legal = set(moves)
    empties = g.empty_cells
    for _ in range(500):
        a, c = rng.choice(empties), rng.choice(empties)
        cells = [a, rng.choice(g.board.neighbors[a]), c, rng.choice(g.board.neighbors[c])]
        cols = [1, 1, 2, 2]
        rng.shuffle(cols)
        move = ",".join(f"{k}{g.board.label(x)}" for x, k in zip(cells, cols))
        canon = ",".join(f"{k}{g.board.label(x)}" for x, k in sorted(zip(cells, cols)))
        assert g.is_legal(move) == (canon in legal)


@pytest.mark.slow
def test_random_games_count_and_play():
    rng = random.Random(13)
    variants = [
        dict(size=5),
        dict(size=5, balance="pie"),
        dict(size=5, balance="none"),
        dict(size=5, start="open"),
        dict(size=7, players=3),
        dict(size=7, players=4),
    ]
    for i in range(18):
        opts = variants[i % len(variants)]
        g = Wunchunk(**opts)
        while not g.is_over:
            if g.count_moves() <= 30000:
                moves = g.legal_moves()
                assert len(moves) == g.count_moves()
                move = rng.choice(moves)
            else:
                empties = g.empty_cells
                k = rng.randint(1, min(g.allotment, len(empties)))
                move = ",".join(f"{rng.randint(1, g.players)}{g.board.label(x)}" for x in rng.sample(empties, k))
                if not g.is_legal(move):
                    continue
            before = len(g.history)
            g.play(move)
            assert len(g.history) == before + 1
        assert g.winners and all(1 <= s <= g.players for s in g.winners)
        assert list(g.winners) == sorted(g.winners)
