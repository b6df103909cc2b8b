"""The Rust Quintun engine: shared data, the reference implementation, the action API."""
from __future__ import annotations

import pickle
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hexcore as hc
from hexcore.reference.quintun import IllegalMove, read_record
from hexcore.reference.quintun import Quintun as RefQuintun

from tests.support.data import load_json, load_jsonl
from tests.support.draws import Draws
from tests.support.perft import ref_perft

SAMPLE = "j4 j4 m5 j6 m7 p8 m9 p10 m11 Ai1 i3 k3 j2 l2 Bf2 h4 p4 s7 p12 s5 s11 s3 p2 Cb8 j8 g7 g9 Dt2 Akm1".split()


def kind(move: str, size: int = 7) -> str:
    """The kind of a canonical move (the compact EXTEND exists up to side 7)."""
    if move == "swap":
        return "swap"
    if move[0].islower():
        return "stone"
    if "," in move or (size <= 7 and re.fullmatch(r"[A-E][a-z]{2}\d+", move)):
        return "extend"
    return "new"


def same_state(g, r):
    assert g.to_move == r.to_move
    assert g.is_over == r.is_over
    assert g.winners == r.winners
    assert g.qualified() == r.qualified()
    assert g.scores() == r.scores()
    assert list(g.cells()) == r.cells()
    assert g.history == r.history
    legal = g.legal_moves()
    assert len(legal) == len(set(legal)) == g.count_moves()
    expected = r.legal_moves()
    assert sorted(legal) == sorted(expected)
    counts = {"stone": 0, "new": 0, "extend": 0, "swap": 0}
    for mv in expected:
        counts[kind(mv, g.size)] += 1
    assert g.count_by_kind() == counts
    return expected


# ----------------------------------------------------------------------------- shared data


def test_sample_game(data_dir):
    sample = load_json(data_dir / "quintun" / "sample_game.json")
    moves = read_record(sample["record"])
    g = hc.Quintun.replay(moves, size=7, placement="side", swap=True)
    assert g.history == sample["moves"]
    assert not g.is_over and g.winners == () and g.to_move == 2
    assert list(g.qualified()) == sample["verdict"]["qualified"]
    assert g.diagram().splitlines() == sample["final_text"]
    assert str(g) == g.diagram()
    pos = sample["final_position"]
    cells = g.cells()
    for key, value in [("black", 1), ("white", 2)] + [(k, -(i + 1)) for i, k in enumerate("ABCDE")]:
        assert sorted(pos[key]) == sorted(g.board.label(c) for c in range(len(cells)) if cells[c] == value)
    same_state(g, RefQuintun.replay(moves))


def test_sample_move_8_side_and_gap(data_dir):
    moves = load_json(data_dir / "quintun" / "sample_game.json")["moves"]
    k = moves.index("Bf2")
    side = hc.Quintun.replay(moves[:k])
    gap = hc.Quintun.replay(moves[:k], placement="gap")
    assert "Bf2" in side.legal_moves() and "Bf2" not in gap.legal_moves()
    with pytest.raises(hc.IllegalMoveError) as e:
        gap.play("Bf2")
    assert e.value.reason == "placement_gap"
    assert len(gap.history) == k
    same_state(gap, RefQuintun.replay(moves[:k], placement="gap"))


def _traces():
    from tests.support.data import DATA

    path = DATA / "quintun" / "reference_traces_n7.jsonl"
    return load_jsonl(path) if path.exists() else []


@pytest.mark.parametrize("trace", _traces(), ids=lambda t: f"{t['variant']}-{t['seed']}")
def test_reference_traces(trace):
    g = hc.Quintun(size=trace["size"], placement=trace["variant"], swap=trace["swap"])
    r = RefQuintun(size=trace["size"], placement=trace["variant"], swap=trace["swap"])
    for p in trace["plies"]:
        assert g.to_move == p["player"]
        assert g.count_moves() == p["n_legal"]
        assert g.count_by_kind() == p["n_by_kind"]
        same_state(g, r)
        assert g.play(p["move"]) == p["move"]
        r.play(p["move"])
        assert list(g.qualified()) == p["qualified_after"]
        w = p["winner_after"]
        assert g.winners == ((w,) if w else ())
    same_state(g, r)
    assert g.diagram().splitlines() == trace["final"]["text"]
    res = trace["result"]
    assert g.is_over and g.winners == ((res["winner"],) if res["winner"] else ())


# ----------------------------------------------------------------------------- differential


def random_game(size, placement, swap, rng, actions_share=0.3):
    """A random game played on the engine and the reference side by side.
    The policy picks the kind of move first, so neutral moves are frequent;
    some turns go through the action API (a random action, then a random
    completion), the rest through play(). ``rng``: a ``random.Random`` or
    the Hypothesis draws of ``Draws``."""
    g = hc.Quintun(size=size, placement=placement, swap=swap)
    r = RefQuintun(size=size, placement=placement, swap=swap)
    plies = 0
    while True:
        legal = same_state(g, r)
        if g.is_over:
            assert g.legal_actions().size == 0 and g.count_moves() == 0
            return plies
        if rng.random() < actions_share:
            by_kind = {}
            for a in g.legal_actions().tolist():
                by_kind.setdefault(kind(g.action_to_string(a), 7), []).append(a)
            first = rng.choice(by_kind[rng.choice(sorted(by_kind))])
            g.apply_action(first)
            if g.pending_actions:
                second = g.legal_actions().tolist()
                assert second, "an action that cannot be completed"
                g.apply_action(rng.choice(second))
            assert not g.pending_actions
            r.play(g.history[-1])
        else:
            by_kind = {}
            for m in legal:
                by_kind.setdefault(kind(m, size), []).append(m)
            mv = rng.choice(by_kind[rng.choice(sorted(by_kind))])
            assert g.play(mv) == mv
            r.play(mv)
        plies += 1


@pytest.mark.slow
@settings(max_examples=300)
@given(placement=st.sampled_from(["side", "gap"]), swap=st.booleans(), data=st.data())
def test_differential_side5(placement, swap, data):
    random_game(5, placement, swap, Draws(data))


@pytest.mark.slow
@settings(max_examples=100)
@given(placement=st.sampled_from(["side", "gap"]), swap=st.booleans(), data=st.data())
def test_differential_side7(placement, swap, data):
    random_game(7, placement, swap, Draws(data))


@pytest.mark.parametrize("size", [4, 6, 8, 9, 10])
def test_differential_other_sizes(size):
    for seed in range(3):
        random_game(size, ["side", "gap"][seed % 2], True, random.Random(seed))


MOVE_TEXT = st.one_of(
    st.text(alphabet="ABCDEFabcdegijkmopqsuwxyz0123456789, ", max_size=12),
    st.builds(lambda a, b: f"{a},{b}", st.sampled_from(["Ak1", "Ai1", "Bm1", "Ag1", "Ao1", "Cj4", "Ae3"]),
              st.sampled_from(["Am1", "Ak1", "Bs1", "Af2", "Aq1", "Be3", "Ai1"])),
    st.sampled_from(["swap", "SWAP", "j4", "Akm1", "Amk1", "Agk1", "Aik1", "Bf2", "Bk1", "g1", "Aj4", "j0", "j5"]),
    st.text(max_size=6),
)


@pytest.mark.slow
@settings(max_examples=400)
@given(prefix=st.integers(0, len(SAMPLE)), text=MOVE_TEXT, placement=st.sampled_from(["side", "gap"]))
def test_any_text_is_judged_like_the_reference(prefix, text, placement):
    try:
        r = RefQuintun.replay(SAMPLE[:prefix], placement=placement)
    except IllegalMove:
        return  # the record is not legal under `gap` past move 8
    g = hc.Quintun.replay(SAMPLE[:prefix], placement=placement)
    try:
        r.play(text)
        expected = None
    except IllegalMove as e:
        expected = e.reason
    try:
        got = g.play(text)
    except hc.IllegalMoveError as e:
        assert e.reason == expected, (text, str(e))
        assert len(g.history) == prefix
        return
    assert expected is None, (text, expected)
    assert got == r.history[-1]
    same_state(g, r)


# ----------------------------------------------------------------------------- actions, perft


def positions():
    out = [hc.Quintun(size=4), hc.Quintun(size=5, placement="gap"), hc.Quintun.replay(SAMPLE[:1])]
    out.append(hc.Quintun.replay(SAMPLE[:16]))
    out.append(hc.Quintun.replay(SAMPLE))
    g = hc.Quintun(size=5)
    for mv in ["Ae1", "g3", "Bq5", "Ad2,Bp6", "Cm9", "i5"]:
        g.play(mv)
    out.append(g)
    return out


@pytest.mark.parametrize("index", range(6))
def test_perft_move_equals_action(index):
    g = positions()[index]
    for depth in (1, 2):
        n = hc.perft(g, depth, threads=1)
        assert n == hc.perft(g, depth, unit="action", threads=1)
        if depth == 1:
            assert n == g.count_moves()
    assert hc.perft(g, 2, threads=2) == hc.perft(g, 2, threads=1)
    assert sum(c for _, c in hc.perft(g, 2, divide=True)) == hc.perft(g, 2)


def test_perft_small_tree_against_reference():
    g = hc.Quintun.replay(["Ae1", "g3", "Bq5"], size=5)
    r = RefQuintun.replay(["Ae1", "g3", "Bq5"], size=5)
    assert hc.perft(g, 2) == ref_perft(r, 2)


def test_no_dead_end_actions():
    for g in positions():
        actions = g.legal_actions().tolist()
        assert actions == sorted(actions)
        for a in actions:
            h = g.copy()
            h.apply_action(a)
            if h.pending_actions:
                seconds = h.legal_actions().tolist()
                assert seconds
                for b in seconds:
                    k = h.copy()
                    k.apply_action(b)
                    assert not k.pending_actions
                    assert k.history[-1] in g.legal_moves()
        mask = g.legal_action_mask()
        assert mask.sum() == len(g.legal_actions()) and mask.size == g.num_actions


def test_action_api_errors_and_undo():
    g = hc.Quintun()
    with pytest.raises(hc.IllegalMoveError) as e:
        g.apply_action(g.num_actions)
    assert e.value.reason == "action_out_of_range"
    with pytest.raises(hc.IllegalMoveError):
        g.apply_action(-1)
    with pytest.raises(hc.IllegalMoveError) as e:
        g.apply_action(0)  # a stone on a ring cell
    assert e.value.reason == "illegal_action"
    g.play("Ai1")
    g.play("Bs13")
    # first half of an EXTEND, then play() is refused until the turn is done
    # halves come in increasing cell index, and the bottom row has the lowest indices
    firsts = {g.action_to_string(a) for a in g.legal_actions().tolist()}
    assert {"Bq13", "Bt12", "Ag1", "Ak1"} <= firsts and "Am1" not in firsts
    a = next(a for a in g.legal_actions().tolist() if g.action_to_string(a) == "Bq13")
    g.apply_action(a)
    assert g.pending_actions == [a]
    with pytest.raises(hc.IllegalMoveError) as e:
        g.play("j4")
    assert e.value.reason == "mid_turn"
    seconds = {g.action_to_string(b) for b in g.legal_actions().tolist()}
    assert seconds == {"Bt12", "Ag1", "Ak1"}
    assert g.undo() == "Bq13"
    assert g.history == ["Ai1", "Bs13"]
    g.play("Am1,Ak1")
    assert g.history[-1] == "Akm1"
    assert g.undo() == "Akm1"
    assert g.undo() == "Bs13"
    assert g == hc.Quintun.replay(["Ai1"])


def test_swap_and_pickle():
    g = hc.Quintun()
    g.play("j4")
    assert g.legal_moves()[-1] == "swap"
    h = g.copy()
    assert h.play("j4") == "swap" and h.to_move == 1 and h.history == ["j4", "swap"]
    assert h.cells()[h.board.index("j4")] == 2
    g.play("swap")
    assert g == h and hash(g) == hash(h)
    assert pickle.loads(pickle.dumps(g)) == g
    g = hc.Quintun(swap=False)
    g.play("j4")
    assert "swap" not in g.legal_moves()
    with pytest.raises(hc.IllegalMoveError) as e:
        g.play("j4")
    assert e.value.reason == "occupied"
    g = hc.Quintun()
    g.play("Ai1")
    with pytest.raises(hc.IllegalMoveError) as e:
        g.play("swap")
    assert e.value.reason == "swap_not_allowed"


def test_error_classes():
    g = hc.Quintun()
    for text, cls, reason in [
        ("hello", hc.NotationError, "syntax"),
        ("z4", hc.NotationError, "unknown_cell"),
        ("g1", hc.IllegalMoveError, "stone_on_ring"),
        ("Aj4", hc.IllegalMoveError, "neutral_in_interior"),
        ("Bi1", hc.IllegalMoveError, "wrong_new_colour"),
        ("Aik1", hc.IllegalMoveError, "extend_absent_colour"),
    ]:
        with pytest.raises(cls) as e:
            g.play(text)
        assert e.value.reason == reason and isinstance(e.value, ValueError)
    won = hc.Quintun.from_position({"g1": "A", "i1": "A", "f2": "B", "e3": "B", "d4": "C", "c5": "C", "b6": "C",
                                    "a7": "D", "b8": "E", "c9": "E", "h2": 1, "g3": 1, "f4": 1, "c7": 1}, to_move=2)
    assert won.is_over and won.winners == (1,)
    assert won.scores() == (3, 0) and won.qualified() == (True, False)
    with pytest.raises(hc.GameOverError) as e:
        won.play("j8")
    assert e.value.reason == "game_over"


def test_constructor_and_positions():
    for kwargs, name in [({"size": 3}, "size"), ({"size": 11}, "size"), ({"size": "7"}, "size"),
                         ({"size": True}, "size"), ({"placement": "corner"}, "placement"),
                         ({"placement": 1}, "placement"), ({"swap": 1}, "swap")]:
        with pytest.raises(ValueError, match=name):
            hc.Quintun(**kwargs)
    g = hc.Quintun(5, placement="gap", swap=False)
    assert (g.size, g.placement, g.swap) == (5, "gap", False)
    assert g.spec == "quintun(size=5,placement=gap,swap=false)"
    assert hc.load(g.spec).spec == g.spec and hc.Quintun().spec == "quintun(size=7)"
    with pytest.raises(ValueError, match="ring"):
        hc.Quintun.from_position({"g1": 1})
    with pytest.raises(ValueError, match="interior"):
        hc.Quintun.from_position({"j4": "A"})
    with pytest.raises(ValueError, match="split"):
        hc.Quintun.from_position({"g1": "A", "k1": "A"})
    with pytest.raises(ValueError, match="z9"):
        hc.Quintun.from_position({"z9": 1})
    pos = {"j4": 1, "i1": "A", "m5": 2, "k1": -1, "s1": "C"}
    g = hc.Quintun.from_position(pos, to_move=2, placement="gap")
    r = RefQuintun.from_position(pos, to_move=2, placement="gap")
    same_state(g, r)
    assert "swap" not in g.legal_moves()
    assert pickle.loads(pickle.dumps(g)) == g
    # a position with no move left but the last one: a draw
    ref = RefQuintun(size=4)
    geo = ref.geo
    pos = {geo.labels[c]: "A" for c in geo.ring_order}
    for k, c in enumerate(geo.interior[:-1]):
        pos[geo.labels[c]] = 1 + k % 2
    g = hc.Quintun.from_position(pos, size=4)
    assert g.legal_moves() == [geo.labels[geo.interior[-1]]]
    g.play(geo.labels[geo.interior[-1]])
    assert g.is_over and g.winners == (1, 2) and g.count_moves() == 0  # a draw: every seat


def test_labels_and_views():
    g = hc.Quintun()
    # the board speaks the record notation; cell indices keep the usual order
    assert g.board.label(0) == "g13" and g.board.index("m7") == hc.Board(7).index("g7")
    assert g.board.axial(g.board.index("m7")) == (0, 0)
    assert g.board.index("j4") == RefQuintun().geo.index("j4")
    assert g.observation().shape == tuple(g.observation_shape)
    big = hc.Quintun(size=10)
    assert big.diagram().splitlines()[0].strip() == "aaaaaaaaaaa"
    assert "Aab1" in big.legal_moves()
    big.play("Aab1")
    assert "Az1,Aac2" in big.legal_moves() and "Aac2,Az1" not in big.legal_moves()


def test_playouts():
    g = hc.Quintun()
    res = hc.random_playouts(g, 200, seed=3, threads=1)
    assert res.finished.all()
    assert set(res.winners.tolist()) <= {0, 1, 2}
    again = hc.random_playouts(g, 200, seed=3, threads=2)
    assert (again.plies == res.plies).all() and (again.winner_mask == res.winner_mask).all()
    assert res.plies.min() >= 1

