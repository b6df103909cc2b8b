"""The Rust Wunchunk engine: Abstract Play's data, a differential test against
the pure-Python reference, the action API and perft."""
from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hexcore as hc
from hexcore.reference.wunchunk import Wunchunk as RefWunchunk

from tests.support.ap_wunchunk import DATA, ap_truncate, load_traces, replay_trace, start_of, verdict
from tests.support.draws import Draws


def replay_record(moves, **options):
    g = hc.Wunchunk(**options)
    skip = False
    for m in moves:
        if skip:
            skip = False
            if m == "pass":
                continue
        if m == "resign":
            break
        choice = options.get("start") == "open" and len(g.history) == 1
        g.play(m)
        skip = choice and m == "swap"
    return g


# ------------------------------------------------------------------------ shared data


@pytest.mark.parametrize("rec", json.loads((DATA / "abstractplay_records.json").read_text()), ids=lambda r: r["gameid"][9:17])
def test_records(rec):
    moves = [m for rnd in rec["moves"] for m in rnd]
    balance = "none" if rec["gameid"].startswith("wunchunk#a616c48f") else "ap"
    start = "open" if rec["open"] else "standard"
    g = replay_record(moves, size=rec["size"], players=rec["players"], start=start, balance=balance)
    assert [v[0] for v in g.scores()] == rec["seat_chunks"]
    if moves[-1] != "resign":
        assert g.is_over
        assert g.winners == tuple(i + 1 for i, r in enumerate(rec["seat_result"]) if r == 1)
    if balance == "none":
        with pytest.raises(hc.IllegalMoveError) as err:
            replay_record(moves[:5], size=6, start="open", balance="ap")
        assert err.value.reason == "balance"


def test_unit_cases():
    u = json.loads((DATA / "abstractplay_unit_cases.json").read_text())
    for case in u["consecutive_passes_end_game"]:
        g = hc.Wunchunk(players=case["players"])
        for m in case["moves"]:
            g.play(m)
        assert g.is_over and list(g.winners) == case["winners"]
    c = u["swap_winner"]
    g = hc.Wunchunk(size=c["size"], start="open")
    for m in c["moves"]:
        g.play(m)
    assert g.is_over and list(g.winners) == c["winners"] and g.history == c["moves"]
    for c in u["balance_illegal"]:
        opts = dict(size=c["size"], players=c["players"], start="open" if c["open"] else "standard")
        g = hc.Wunchunk(**opts)
        for m in c["moves"]:
            g.play(m)
        assert verdict(g, c["illegal"]) == "balance"
        h = hc.Wunchunk(balance="none", **opts)
        for m in c["moves"]:
            h.play(m)
        h.play(c["illegal"])
    for c in u["score_examples"]:
        g = hc.Wunchunk(size=c["size"], players=c["players"])
        for m in c["moves"]:
            g.play(m)
        assert ap_truncate(g.scores()) == c["score_vectors"] and list(g.winners) == c["winners"]


@pytest.mark.parametrize("name,idx,trace", load_traces(), ids=lambda x: str(x) if not isinstance(x, dict) else "")
def test_traces(name, idx, trace):
    cfg = trace["config"]
    g = hc.Wunchunk(size=cfg["size"], players=cfg["players"], start=start_of(cfg))
    replay_trace(g, name, idx, trace)


# ------------------------------------------------------------------- differential

VARIANTS = [
    dict(size=5),
    dict(size=6),
    dict(size=5, start="open"),
    dict(size=5, start="open", balance="none"),
    dict(size=5, balance="pie"),
    dict(size=5, balance="none"),
    dict(size=7, players=3),
    dict(size=7, players=4),
    dict(size=8, players=3),
]


def random_turn(g, rng):
    """Play one random turn in the engine through the action API; returns its text."""
    before = len(g.history)
    while len(g.history) == before:
        acts = g.legal_actions()
        # favour short turns and passes a little, so games also end by passing
        if rng.random() < 0.03 and g.num_actions - 2 in acts:
            a = g.num_actions - 2
        elif rng.random() < 0.3 and g.num_actions - 3 in acts:
            a = g.num_actions - 3
        else:
            a = int(acts[rng.randrange(len(acts))])
        g.apply_action(a)
    return g.history[-1]


def probe_moves(ref, rng):
    labels = ref.board.labels
    out = []
    for _ in range(2):
        k = rng.randint(1, max(1, ref.allotment + 1))
        steps = [f"{rng.randint(0, ref.players + 1)}{rng.choice(labels + ['z1', 'a0'])}" for _ in range(k)]
        out.append(",".join(steps))
    empties = [labels[i] for i, c in enumerate(ref.cells()) if c == 0]
    if empties:
        k = rng.randint(1, min(len(empties), max(1, ref.allotment)))
        out.append(",".join(f"{rng.randint(1, ref.players)}{x}" for x in rng.sample(empties, k)))
    out += ["swap", "pass", "", "1"]
    return out


def check_same(g, ref):
    assert g.to_move == ref.to_move
    assert list(g.cells()) == ref.cells()
    assert g.scores() == ref.scores()
    assert g.is_over == ref.is_over
    assert g.winners == ref.winners
    assert g.allotment == ref.allotment
    assert g.seat_colour == ref.seat_colour
    assert g.balance_turn == ref.balance_turn
    assert g.history == ref.history
    assert g.count_moves() == ref.count_moves()


@pytest.mark.slow
@settings(max_examples=500, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(variant=st.sampled_from(VARIANTS), data=st.data())
def test_differential_random_games(variant, data):
    rng = Draws(data)
    g = hc.Wunchunk(**variant)
    ref = RefWunchunk(**variant)
    check_same(g, ref)
    probe = rng.random() < 0.1
    while not g.is_over:
        if probe:
            for m in probe_moves(ref, rng):
                assert verdict(g, m) == verdict(ref, m), m
        move = random_turn(g, rng)
        ref.play(move)
        check_same(g, ref)


@pytest.mark.parametrize("variant", VARIANTS[:6], ids=str)
def test_legal_moves_match_reference_early(variant):
    rng = random.Random(5)
    for _ in range(4):
        g = hc.Wunchunk(**variant)
        ref = RefWunchunk(**variant)
        for _ in range(6):
            if g.is_over:
                break
            if g.count_moves() <= 60000:
                assert g.legal_moves() == ref.legal_moves()
            m = random_turn(g, rng)
            ref.play(m)


# --------------------------------------------------------------------- action API


def test_action_api_and_undo():
    rng = random.Random(2)
    for variant in VARIANTS:
        g = hc.Wunchunk(**variant)
        snaps = []
        while not g.is_over:
            snaps.append((g.zobrist, list(g.cells()), g.to_move, g.history, g.pending_actions))
            acts = g.legal_actions()
            mask = g.legal_action_mask()
            assert mask.sum() == len(acts) and all(mask[a] for a in acts)
            a = int(acts[rng.randrange(len(acts))])
            assert isinstance(g.action_to_string(a), str)
            g.apply_action(a)
        assert len(g.history) > 0
        n = g.num_actions
        with pytest.raises(hc.IllegalMoveError):
            g.apply_action(n)
        h = pickle.loads(pickle.dumps(g))
        assert h == g and h.history == g.history
        while g.history or g.pending_actions:
            g.undo()
            # after an undo we are between turns at some earlier snapshot
            snap = next(s for s in reversed(snaps) if s[3] == g.history and not s[4])
            assert (g.zobrist, list(g.cells()), g.to_move) == snap[:3]
        assert g == hc.Wunchunk(**variant)


def test_errors_and_options():
    for kwargs, word in [
        (dict(players=5), "players"),
        (dict(size=4), "size"),
        (dict(players=3, size=6), "size"),
        (dict(start="x"), "start"),
        (dict(players=3, start="open"), "start"),
        (dict(balance="x"), "balance"),
        (dict(players=4, balance="pie"), "balance"),
        (dict(size="big"), "size"),
        (dict(players=True), "players"),
        (dict(start=3), "start"),
    ]:
        with pytest.raises(ValueError, match=word):
            hc.Wunchunk(**kwargs)
    assert hc.Wunchunk(players=3).board.num_cells == 169
    g = hc.Wunchunk()
    with pytest.raises(hc.NotationError) as err:
        g.play("1z9")
    assert err.value.reason == "unknown_cell"
    with pytest.raises(hc.IllegalMoveError) as err:
        g.play("1g5")
    assert err.value.reason == "occupied"
    for bad in ["\x00", "1" * 1000, "💥", ",,,", "1a1,", "pass,pass", "9" * 50]:
        try:
            g.copy().play(bad)
        except hc.IllegalMoveError:
            pass
    g.play("pass")
    g.play("pass")
    with pytest.raises(hc.GameOverError):
        g.play("pass")
    assert g.legal_moves() == [] and g.count_moves() == 0
    board = hc.Wunchunk(players=4).board
    pos = {}
    for i in range(board.num_cells):
        q, r = board.axial(i)
        if r % 2 == 0 and q % 3 != 2:
            pos[board.label(i)] = 2  # rows of two-stone colour-2 chunks
    big = hc.Wunchunk.from_position(pos, to_move=2, players=4)
    assert big.allotment > 20
    assert big.count_moves() > 2**128
    with pytest.raises(hc.TooManyMovesError):
        big.legal_moves()
    assert hc.load(hc.Wunchunk(size=7, start="open", balance="none").spec).spec == "wunchunk(size=7,players=2,start=open,balance='none')"


def random_position(rng, fill=1.0):
    """(players, size, position, to_move): a random set-up of up to `fill` of the board."""
    players = rng.choice([2, 3, 4])
    size = 5 if players == 2 else 7
    board = RefWunchunk(size=size, players=players).board
    cells = rng.sample(range(board.num_cells), rng.randint(0, int(board.num_cells * fill)))
    pos = {board.label(c): rng.randint(1, players) for c in cells}
    return players, size, pos, rng.randint(1, players)


def test_from_position_matches_reference():
    rng = random.Random(9)
    for _ in range(30):
        players, size, pos, tm = random_position(rng)
        g = hc.Wunchunk.from_position(pos, to_move=tm, size=size, players=players)
        ref = RefWunchunk.from_position(pos, to_move=tm, size=size, players=players)
        check_same(g, ref)


def test_from_position_turn_counters_match_reference_and_survive_round_trips():
    from hexcore import records

    rng = random.Random(12)
    for _ in range(40):
        players, size, pos, tm = random_position(rng, fill=0.5)
        extra = dict(colour1_turns=rng.randint(0, 3), passes=rng.randint(0, players - 1))
        g = hc.Wunchunk.from_position(pos, to_move=tm, size=size, players=players, **extra)
        ref = RefWunchunk.from_position(pos, to_move=tm, size=size, players=players, **extra)
        check_same(g, ref)
        plain = hc.Wunchunk.from_position(pos, to_move=tm, size=size, players=players)
        assert (g == plain) == (min(extra["colour1_turns"], 2) == 2 and extra["passes"] == 0)
        for h in (pickle.loads(pickle.dumps(g)), records.from_json(records.to_json(g)), g.copy()):
            assert h == g and hash(h) == hash(g)
            assert records.setup_of(h) == records.setup_of(g)
            check_same(h, ref)
        # play on: the counters decide the balance turn and the end by passes
        for _ in range(3):
            if g.is_over:
                break
            move = "pass" if rng.random() < 0.5 else random_turn(g.copy(), rng)
            g.play(move)
            ref.play(move)
            check_same(g, ref)
        while g.history:
            g.undo()
        assert g == hc.Wunchunk.from_position(pos, to_move=tm, size=size, players=players, **extra)
    # two passes in a row end a 2-player game; one recorded pass makes it one
    g = hc.Wunchunk.from_position({"a1": 1}, to_move=2, passes=1, size=5)
    g.play("pass")
    assert g.is_over
    assert "passes" not in records.to_dict(hc.Wunchunk.from_position({"a1": 1}, size=5))["setup"]
    with pytest.raises(ValueError, match="passes"):
        hc.Wunchunk.from_position({"a1": 1}, passes=2, size=5)
    with pytest.raises(ValueError, match="colour1_turns"):
        hc.Wunchunk.from_position({"a1": 1}, colour1_turns=-1, size=5)
    with pytest.raises(TypeError, match="passes"):
        hc.Churn.from_position({"a1": 1}, passes=1)


# -------------------------------------------------------------------------- perft


@pytest.mark.parametrize(
    "variant,moves,depth",
    [
        (dict(size=5), [], 2),
        (dict(size=5), ["1a1"], 2),
        (dict(size=5), ["1c3", "1c4"], 1),
        (dict(size=5, balance="pie"), [], 2),
        (dict(size=5, start="open"), ["1a1,1a2,2e1,2e2"], 3),
        (dict(size=5, start="open"), ["1a1,1a2,2e1,2e2", "swap"], 2),
        (dict(size=7, players=3), [], 2),
        (dict(size=5), ["1a1", "2e1", "1c1"], 2),
        (dict(size=5), ["1a1", "1a2"], 2),
        (dict(size=7, players=4), ["1a1", "1a2", "1c1", "1c2"], 1),
    ],
)
def test_perft_move_equals_action(variant, moves, depth):
    g = hc.Wunchunk(**variant)
    for m in moves:
        g.play(m)
    for d in range(1, depth + 1):
        by_move = hc.perft(g, d, unit="move", threads=2)
        assert by_move == hc.perft(g, d, unit="action", threads=2)
        if d == 1:
            assert by_move == g.count_moves()


def test_playouts():
    p = hc.random_playouts(hc.Wunchunk(), 200, seed=1, threads=1)
    q = hc.random_playouts(hc.Wunchunk(), 200, seed=1, threads=3)
    assert np.array_equal(p.plies, q.plies) and np.array_equal(p.winner_mask, q.winner_mask)
    assert p.finished.all() and (p.winner_mask > 0).all()
    for variant in VARIANTS:
        r = hc.random_playouts(hc.Wunchunk(**variant), 20, seed=3, threads=1)
        assert r.finished.all()


def crowded_balance_turns(players, size, seeds):
    """Games where the opponents keep giving colour 1 extra chunks next to
    its stones before colour 1's balance turn (the hard case of the rule)."""
    for seed in seeds:
        rng = random.Random(seed)
        g = hc.Wunchunk(size=size, players=players)
        ref = RefWunchunk(size=size, players=players)
        nb = g.board
        while not g.balance_turn and not g.is_over:
            ones = [i for i, c in enumerate(g.cells()) if c == 1]
            near = sorted({w for v in ones for w in nb.neighbors(v) if g.cells()[w] == 0})
            far = sorted({w for v in near for w in nb.neighbors(v) if g.cells()[w] == 0} - set(near))
            pool = far if far and rng.random() < 0.7 else near
            move = f"1{nb.label(rng.choice(pool))}"
            if not ref.is_legal(move):
                move = "pass"
            g.play(move)
            ref.play(move)
        yield g, ref


@pytest.mark.slow
@pytest.mark.parametrize("players,size,games", [(2, 5, 25), (3, 7, 15), (4, 7, 8)])
def test_balance_turn_with_several_chunks(players, size, games):
    seen = set()
    for g, ref in crowded_balance_turns(players, size, range(games)):
        if g.is_over:
            continue
        seen.add(g.allotment)
        assert g.count_moves() == ref.count_moves()
        if g.count_moves() <= 40000:
            moves = g.legal_moves()
            assert moves == ref.legal_moves()
            firsts = set()
            for m in moves:
                h = g.copy()
                h.play(m)
                firsts.add(h.actions[len(g.actions)])
            firsts = sorted(firsts)
            assert firsts == sorted(g.legal_actions().tolist())
        assert hc.perft(g, 1, unit="action") == g.count_moves()
    assert max(seen) >= 2
