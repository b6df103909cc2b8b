"""The pure-Python Quintun reference against the rule card and the shared data."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from hexcore.reference.quintun import IllegalMove, Quintun, geometry, read_record

ROOT = Path(__file__).resolve().parents[2]
# the sample game, the reference traces and the sample game's text (its
# diagram and record) live in the repository
DATA = ROOT / "seeds" / "quintun"


def load_sample():
    return json.loads((DATA / "sample_game.json").read_text())


def load_traces():
    with open(DATA / "reference_traces_n7.jsonl") as f:
        return [json.loads(line) for line in f if line.strip()]


def seed_text() -> str:
    return (DATA / "sample_game_seed.txt").read_text()


# ----------------------------------------------------------------------------- sample game


def test_sample_game_replays_from_record_lines():
    sample = load_sample()
    moves = read_record(sample["record"])
    assert moves[:2] == ["j4", "j4"] and moves[-1] == "Akm1"  # 'resign' stops the reading
    g = Quintun.replay(moves, size=7, placement="side", swap=True)
    assert g.history == sample["moves"]
    assert len(g.history) == sample["plies"] == 29
    assert not g.is_over and g.winners == ()
    assert g.to_move == 2
    assert list(g.qualified()) == sample["verdict"]["qualified"] == [False, False]


def test_sample_game_replays_from_the_seed_text():
    # the record stands to the right of the diagram in the seed, one numbered line per turn
    text = seed_text().splitlines()
    start = next(i for i, line in enumerate(text) if "_Jo_" in line)
    lines = []
    for line in text[start + 1 :]:
        m = re.search(r"\s(\d+)\s+(\S+)\s+(\S+)\s*$", line)
        if m:
            lines.append(" ".join(m.groups()))
    assert len(lines) == 15
    g = Quintun.replay("\n".join(lines))
    assert g.history == load_sample()["moves"]


def test_sample_final_position_matches_diagram_except_g1():
    sample = load_sample()
    g = Quintun.replay(read_record(sample["record"]))
    geo = g.geo
    # the seed's own diagram: 13 rows after the column header, cells at the doubled columns
    text = seed_text().splitlines()
    start = next(i for i, line in enumerate(text) if line.startswith("abcdefghijklmnopqrstuvwxy"))
    seed_rows = [line[:25] for line in text[start + 1 : start + 14]]
    ours = g.diagram().splitlines()
    assert ours == sample["final_text"]
    diffs = []
    for cell, (x, row) in enumerate(geo.xy):
        mine = ours[row][x]
        theirs = seed_rows[row - 1][x]
        if mine != theirs:
            diffs.append((geo.labels[cell], theirs, mine))
    assert diffs == [("g1", ".", ",")]
    # and by owner
    pos = sample["final_position"]
    cells = g.cells()
    for key, value in (("black", 1), ("white", 2)):
        assert sorted(pos[key]) == sorted(geo.labels[c] for c in range(geo.num_cells) if cells[c] == value)
    for k, letter in enumerate("ABCDE"):
        assert sorted(pos[letter]) == sorted(geo.labels[c] for c in range(geo.num_cells) if cells[c] == -(k + 1))


def test_sample_move_8_bf2_side_vs_gap():
    moves = load_sample()["moves"]
    k = moves.index("Bf2")
    assert k == 14
    side = Quintun.replay(moves[:k], placement="side")
    gap = Quintun.replay(moves[:k], placement="gap")
    assert "Bf2" in side.legal_moves()
    assert "Bf2" not in gap.legal_moves()
    with pytest.raises(IllegalMove) as e:
        gap.play("Bf2")
    assert e.value.reason == "placement_gap"
    before = gap.cells()
    assert gap.cells() == before and len(gap.history) == k  # unchanged
    side.play("Bf2")
    # the whole record is legal under `side`, and no one qualifies at any point
    g = Quintun()
    for mv in moves:
        g.play(mv)
        assert g.qualified() == (False, False)


# ----------------------------------------------------------------------------- traces


def _traces():
    return load_traces()


@pytest.mark.parametrize("trace", _traces(), ids=lambda t: f"{t['variant']}-{t['seed']}")
def test_reference_traces(trace):
    g = Quintun(size=trace["size"], placement=trace["variant"], swap=trace["swap"])
    for p in trace["plies"]:
        assert g.to_move == p["player"]
        legal = g.legal_moves()
        assert len(legal) == len(set(legal)) == p["n_legal"] == g.count_moves()
        assert g.count_by_kind() == p["n_by_kind"]
        assert p["move"] in legal
        g.play(p["move"])
        assert list(g.qualified()) == p["qualified_after"]
        w = p["winner_after"]
        assert g.winners == ((w,) if w else ())
        assert g.is_over == (w is not None or p is trace["plies"][-1] and trace["result"]["reason"] != "win")
    final = trace["final"]
    assert g.diagram().splitlines() == final["text"]
    assert g.to_move == final["to_move"]
    res = trace["result"]
    assert g.is_over and g.winners == ((res["winner"],) if res["winner"] else ())
    assert list(g.qualified()) == res["qualified"]


def test_last_trace_ends_with_extend_handing_over_the_win():
    t = load_traces()[-1]
    last = t["plies"][-1]
    assert "," in last["move"] and last["player"] == 2 and last["winner_after"] == 1


# ----------------------------------------------------------------------------- notation


def test_record_labels_side7():
    geo = geometry(7)
    assert geo.num_cells == 127 and geo.ring_len == 36 and len(geo.interior) == 91
    for row in range(1, 14):
        d = abs(7 - row)
        expected = [f"{chr(ord('a') + x)}{row}" for x in range(d, 25 - d, 2)]
        assert sorted(expected) == sorted(lab for lab in geo.labels if re.fullmatch(r"[a-y]%d" % row, lab))
    assert [geo.labels[c] for c in geo.corners] == ["g1", "s1", "y7", "s13", "g13", "a7"]
    assert [geo.labels[c] for c in geo.sides[0]] == ["g1", "i1", "k1", "m1", "o1", "q1", "s1"]
    assert [geo.labels[c] for c in geo.sides[5]] == ["a7", "b6", "c5", "d4", "e3", "f2", "g1"]
    # cell index order is Abstract Play label order: a1 is the bottom-left corner
    assert geo.board.labels[0] == "a1" and geo.labels[0] == "g13"
    # neighbours in record coordinates: (x+-2, r), (x+-1, r+-1)
    for c in range(geo.num_cells):
        x, r = geo.xy[c]
        want = {(x + 2, r), (x - 2, r), (x + 1, r + 1), (x - 1, r + 1), (x + 1, r - 1), (x - 1, r - 1)}
        assert {geo.xy[d] for d in geo.neighbors[c]} == want & set(geo.xy)


def test_extend_spellings():
    g = Quintun.replay(["Ai1", "Bw5"])
    legal = set(g.legal_moves())
    assert {"Agk1", "Akm1"} <= legal and "Aik1" not in legal
    for spelling in ("Akm1", "Amk1", "Ak1,Am1", "Am1,Ak1", " Ak1 , Am1 "):
        h = g.copy()
        assert h.play(spelling) == "Akm1"
        assert h.history[-1] == "Akm1"
    h = g.copy()
    assert h.play("Bx6,Ak1") == "Ak1,Bx6"  # reading order: row 1 before row 6
    assert h.history[-1] == "Ak1,Bx6"
    assert "Ak1,Bx6" in legal and "Bx6,Ak1" not in legal
    h = g.copy()
    h.play("Bv4,Bu3")
    assert h.history[-1] == "Bu3,Bv4"


@pytest.mark.parametrize("size", range(4, 11))
def test_notation_round_trips_every_size(size):
    rng = random.Random(size)
    for placement in ("side", "gap"):
        g = Quintun(size=size, placement=placement)
        while not g.is_over:
            legal = g.legal_moves()
            assert len(legal) == len(set(legal)) == g.count_moves()
            for mv in legal:
                parsed = g.parse_move(mv)
                assert g.format_move(parsed) == mv
            # play a random move, choosing the kind first so neutral moves are common
            kinds = {}
            for mv in legal:
                kinds.setdefault(g.parse_move(mv)[0], []).append(mv)
            mv = rng.choice(kinds[rng.choice(sorted(kinds))])
            g.play(mv)
            assert g.history[-1] == mv
        replay = Quintun.replay(g.history, size=size, placement=placement)
        assert replay.cells() == g.cells() and replay.winners == g.winners


def test_large_board_columns_and_no_compact_extend():
    g = Quintun(size=10)
    assert g.geo.num_columns == 37
    assert {"a10", "z9", "aa10", "ak10", "j1", "ab1"} <= set(g.geo.labels)
    g.play("Aab1")  # a NEW move at ab1: past 26 columns the compact EXTEND does not exist
    assert g.cells()[g.geo.index("ab1")] == -1
    legal = g.legal_moves()
    assert "Ax1,Az1" in legal and "Az1,Aac2" in legal and "Aac2,Aad3" in legal
    assert reason(g, "Axz1") == "unknown_cell"
    g.play("Aac2,Az1")
    assert g.history[-1] == "Az1,Aac2"


# ----------------------------------------------------------------------------- illegal moves


def reason(g, move):
    before = (g.cells(), list(g.history), g.to_move)
    with pytest.raises(IllegalMove) as e:
        g.play(move)
    assert (g.cells(), list(g.history), g.to_move) == before
    assert isinstance(e.value, ValueError) and str(e.value)
    return e.value.reason


def test_rejection_reasons():
    g = Quintun()
    assert reason(g, "g1") == "stone_on_ring"
    assert reason(g, "Aj4") == "neutral_in_interior"
    assert reason(g, "z4") == "unknown_cell"
    assert reason(g, "j5") == "unknown_cell"  # no cell there in the doubled-column layout
    assert reason(g, "j0") == "syntax"
    assert reason(g, "Bi1") == "wrong_new_colour"
    assert reason(g, "Fi1") == "bad_colour"
    assert reason(g, "hello!") == "syntax"
    assert reason(g, "") == "syntax"
    assert reason(g, "swap") == "swap_not_allowed"
    assert reason(g, "Aik1") == "extend_absent_colour"
    g.play("j4")
    assert reason(g, "m5,j6") == "syntax"
    assert reason(g, "Ai1,Ak1,Am1") == "syntax"
    g.play("j4")  # the record's swap
    assert g.history == ["j4", "swap"] and g.to_move == 1
    assert g.cells()[g.geo.index("j4")] == 2
    assert reason(g, "j4") == "occupied"
    assert reason(g, "swap") == "swap_not_allowed"
    g.play("Ai1")
    assert reason(g, "Ai1") == "occupied"
    assert reason(g, "Bi1") == "occupied"
    assert reason(g, "Ak1") == "wrong_new_colour"  # one A stone is neither NEW nor EXTEND
    assert reason(g, "Cs13") == "wrong_new_colour"  # B comes first
    assert reason(g, "Bk1") == "placement_side"  # the top side has a stone; others are free
    assert reason(g, "Ao1,Aq1") == "extend_splits_colour"
    assert reason(g, "Am1,Ao1") == "extend_splits_colour"
    assert reason(g, "Ak1,Bm1") == "extend_absent_colour"
    assert reason(g, "Ak1,Ak1") == "extend_same_cell"
    assert reason(g, "Ak1,Aj4") == "neutral_in_interior"
    g.play("Ag1,Ak1")
    assert g.history[-1] == "Agk1"


def test_swap_rules():
    g = Quintun(swap=False)
    g.play("j4")
    assert "swap" not in g.legal_moves()
    assert reason(g, "j4") == "occupied"
    assert reason(g, "swap") == "swap_not_allowed"
    g = Quintun()
    g.play("Ai1")  # Black's first move is not a stone: nothing to take over
    assert "swap" not in g.legal_moves()
    assert reason(g, "swap") == "swap_not_allowed"
    g = Quintun()
    g.play("j4")
    assert g.legal_moves()[-1] == "swap" and g.count_by_kind()["swap"] == 1
    g.play("swap")
    assert g.to_move == 1 and g.history == ["j4", "swap"]


def test_game_over_rejects_moves():
    g = Quintun.from_position({**TWO_GROUPS, "c7": 1}, to_move=2)
    assert g.is_over and g.winners == (1,)
    assert g.legal_moves() == [] and g.count_moves() == 0
    assert reason(g, "j8") == "game_over"


# ----------------------------------------------------------------------------- placement rules


def test_side_rule_counts():
    g = Quintun()
    assert g.count_by_kind()["new"] == 36
    g.play("Am1")  # the top side now has a stone; its corners still lie on free sides
    assert g.count_by_kind()["new"] == 31
    g.play("Bw5")
    assert g.count_by_kind()["new"] == 25
    assert g.count_by_kind()["extend"] == 3 + 3 + 4


def test_side_rule_falls_back_to_anywhere():
    # a stone on every side (a corner counts for both its sides): then any empty ring cell
    g = Quintun.from_position({"g1": "A", "y7": "B", "g13": "C"}, to_move=1)
    free = [g.geo.labels[c] for c in g.geo.ring_order if g.cells()[c] == 0]
    news = [mv[1:] for mv in g.legal_moves() if re.fullmatch(r"D[a-y]\d+", mv)]
    assert len(free) == 33 and sorted(news) == sorted(free)
    g = Quintun.from_position({"g1": "A", "y7": "B"}, to_move=1)
    news = {mv[1:] for mv in g.legal_moves() if re.fullmatch(r"C[a-y]\d+", mv)}
    assert news == {"s13", "q13", "o13", "m13", "k13", "i13", "g13", "f12", "e11", "d10", "c9", "b8", "a7"}


def test_gap_rule():
    g = Quintun(placement="gap")
    g.play("Ag1")
    news = {mv[1:] for mv in g.legal_moves() if mv.startswith("B")}
    order = [g.geo.labels[c] for c in g.geo.ring_order]
    # g1 is ring position 0; a cell needs >= 5 empty ring cells to A on each side: positions 6..30
    assert news == set(order[6:31])
    # no cell has 5 empty cells on both sides: any empty ring cell will do
    geo = geometry(4)
    pos = {geo.labels[geo.ring_order[p]]: letter for p, letter in ((0, "A"), (6, "B"), (12, "C"))}
    g = Quintun.from_position(pos, placement="gap", size=4)
    news = {mv[1:] for mv in g.legal_moves() if mv.startswith("D")}
    assert len(news) == geo.ring_len - 3
    # one qualifying cell: it is the only NEW move
    pos = {geo.labels[geo.ring_order[p]]: letter for p, letter in ((0, "A"), (12, "B"))}
    g = Quintun.from_position(pos, placement="gap", size=4)
    news = {mv[1:] for mv in g.legal_moves() if mv.startswith("C")}
    assert news == {geo.labels[geo.ring_order[6]]}


# ----------------------------------------------------------------------------- winning


# Upper-left ring, clockwise towards g1: a7 D | b6 c5 d4 C | e3 f2 B | g1 i1 A; b8 c9 E.
# Black h2-g3-f4 touches A, B, C; a lone Black c7 touches C (b6), D (a7), E (b8).
ARCS = {"g1": "A", "i1": "A", "f2": "B", "e3": "B", "d4": "C", "c5": "C", "b6": "C",
        "a7": "D", "b8": "E", "c9": "E"}
TWO_GROUPS = {**ARCS, "h2": 1, "g3": 1, "f4": 1, "m7": 2, "j8": 2}


def test_win_by_two_groups_of_three():
    g = Quintun.from_position(TWO_GROUPS, to_move=1)
    assert not g.is_over and g.qualified() == (False, False)
    assert sorted(cols for _, cols in g.groups(1)) == [frozenset({1, 2, 3})]
    g.play("c7")
    assert sorted(sorted(cols) for _, cols in g.groups(1)) == [[1, 2, 3], [3, 4, 5]]
    assert g.qualified() == (True, False) and g.is_over and g.winners == (1,)
    # three colours and two colours do not qualify
    g = Quintun.from_position(TWO_GROUPS, to_move=1)
    g.play("d8")  # touches b8, c9 (E) only
    assert g.qualified() == (False, False) and not g.is_over


def test_win_by_one_group_of_four():
    g = Quintun.from_position(TWO_GROUPS, to_move=1)
    g.play("d6")  # h2-g3-f4 and d6 are not connected: d6 touches C only
    assert not g.is_over
    g.play("k7")
    g.play("e5")  # joins d6: A, B, C, and still three colours
    assert g.qualified() == (False, False)
    g.play("k9")
    g.play("c7")  # d6-c7: now D and E as well
    assert g.is_over and g.winners == (1,)
    assert max(len(cols) for _, cols in g.groups(1)) == 5


def test_neutral_move_hands_the_win_to_the_opponent():
    pos = {"g1": "A", "i1": "A", "f2": "B", "e3": "B", "d4": "C", "a7": "D", "b8": "D",
           "h2": 1, "g3": 1, "f4": 1, "e5": 1, "d6": 1,  # touches A, B, C; c5, b6 are empty
           "m7": 2, "j8": 2}
    g = Quintun.from_position(pos, to_move=2)
    assert g.qualified() == (False, False)
    assert "Cc5,Db6" in g.legal_moves()
    h = g.copy()
    h.play("Cc5,Db6")  # White's EXTEND makes Black's group touch D
    assert h.qualified() == (True, False) and h.is_over and h.winners == (1,)
    h = g.copy()
    h.play("Dc5,Db6")
    assert h.is_over and h.winners == (1,)
    h = g.copy()
    h.play("Cc5,Cb6")  # C twice: still three colours
    assert not h.is_over


def test_draw_when_no_move_is_left():
    geo = geometry(4)
    pos = {geo.labels[c]: "A" for c in geo.ring_order}  # one colour fills the whole ring
    interior = list(geo.interior)
    last = interior[-1]
    for k, c in enumerate(interior[:-1]):
        pos[geo.labels[c]] = 1 + k % 2
    g = Quintun.from_position(pos, to_move=1, size=4)
    assert not g.is_over and g.legal_moves() == [geo.labels[last]]
    g.play(geo.labels[last])
    assert g.is_over and g.winners == (1, 2) and g.legal_moves() == []  # a draw: every seat


# ----------------------------------------------------------------------------- misc API


def test_constructor_validation():
    for kwargs, name in (
        ({"size": 3}, "size"), ({"size": 11}, "size"), ({"size": "7"}, "size"),
        ({"placement": "corner"}, "placement"), ({"swap": 1}, "swap"),
    ):
        with pytest.raises(ValueError, match=name):
            Quintun(**kwargs)


def test_from_position_validation():
    with pytest.raises(ValueError, match="ring"):
        Quintun.from_position({"g1": 1})
    with pytest.raises(ValueError, match="interior"):
        Quintun.from_position({"j4": "A"})
    with pytest.raises(ValueError, match="split"):
        Quintun.from_position({"g1": "A", "k1": "A"})
    with pytest.raises(ValueError, match="unknown"):
        Quintun.from_position({"z9": 1})
    with pytest.raises(ValueError, match="to_move"):
        Quintun.from_position({}, to_move=3)
    with pytest.raises(ValueError, match="size"):
        Quintun.from_position({}, size=2)
    g = Quintun.from_position({"j4": 1, "i1": "A", "m5": 2, "k1": -1, "s1": "C"}, to_move=2, placement="gap")
    cells = g.cells()
    geo = g.geo
    assert [cells[geo.index(x)] for x in ("j4", "i1", "m5", "k1", "s1")] == [1, -1, 2, -1, -3]
    assert g.to_move == 2 and g.placement == "gap" and g.history == []
    assert g.next_new_colour() == 2 and "swap" not in g.legal_moves()


def test_copy_is_independent():
    g = Quintun()
    g.play("j4")
    h = g.copy()
    h.play("m5")
    assert g.history == ["j4"] and h.history == ["j4", "m5"] and g != h
    fresh = Quintun()
    fresh.play("j4")
    assert g == fresh
