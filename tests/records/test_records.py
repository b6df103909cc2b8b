"""Game records (hexcore.records): hexcore JSON round trips, Abstract Play records,
and clear ValueErrors for tampered input."""
from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hexcore as hc
from hexcore import records
from hexcore.reference import Wunchunk as RefWunchunk

from tests.support.data import DATA, load_json, load_jsonl

SMALL = {"churn": "churn(size=3)", "wunchunk": "wunchunk(size=5)", "quintun": "quintun(size=5)", "hex": "hex(size=4,swap=true)",
         "havannah": "havannah(size=4,swap=true)", "y": "y(size=7)"}
SPECS = [SMALL[name] for name in ("churn", "wunchunk", "quintun", "hex", "havannah", "y") if name in hc.GAMES]
SPECS += [s for s in ("churn(sides=(3,4,3,4,3,4),pie=false)", "wunchunk(size=7,players=3)",
                      "wunchunk(size=5,start=open)") if s.split("(")[0] in hc.GAMES]

# Wunchunk classes to replay Abstract Play records with: the reference always, the engine when built
WUNCHUNK_CLASSES = [RefWunchunk] + ([hc.GAMES["wunchunk"]] if "wunchunk" in hc.GAMES else [])


def random_game(spec, seed, stop=None):
    """``spec`` played with random actions for ``stop`` actions (None: to the end)."""
    g = hc.load(spec)
    rng = np.random.default_rng(seed)
    n = 0
    while not g.is_over and (stop is None or n < stop):
        g.apply_action(int(rng.choice(g.legal_actions())))
        n += 1
    return g


def same_game(a, b):
    assert type(a) is type(b)
    assert a == b and hash(a) == hash(b)
    assert a.zobrist == b.zobrist
    assert a.spec == b.spec and a.history == b.history
    assert list(a.actions) == list(b.actions) and list(a.pending_actions) == list(b.pending_actions)
    assert (a.to_move, a.is_over, a.winners) == (b.to_move, b.is_over, b.winners)
    assert np.array_equal(a.cells(), b.cells())
    assert records.setup_of(a) == records.setup_of(b)


# ----------------------------------------------------------------------------- hexcore JSON


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", range(4))
def test_json_round_trip(spec, seed):
    stop = [0, 3, 17, None][seed]  # the start, early, mid-game (maybe mid-turn), finished
    g = random_game(spec, seed, stop)
    text = records.to_json(g)
    h = records.from_json(text)
    same_game(g, h)
    same_game(h, pickle.loads(pickle.dumps(g)))
    assert records.to_json(h) == text
    data = json.loads(text)
    assert data["format"] == "hexcore-game" and data["moves"] == g.history
    # the rebuilt game plays on like the original
    if not g.is_over:
        a = int(g.legal_actions()[0])
        g.apply_action(a)
        h.apply_action(a)
        same_game(g, h)


def test_json_round_trip_of_set_up_positions():
    g = hc.Churn.from_position({"c3": 1, "d2": 2, "a1": 2}, to_move=2, size=3)
    for _ in range(3):
        h = records.from_json(records.to_json(g, indent=1))
        same_game(g, h)
        g.apply_action(int(g.legal_actions()[-1]))
    assert records.to_dict(g)["setup"]["to_move"] == 2
    full = hc.Churn.from_position({}, to_move=1, sides=(3, 4, 3, 4, 3, 4), pie=False)
    same_game(full, records.from_json(records.to_json(full)))


def test_json_moves_only_and_canonical_specs():
    g = hc.Churn(size=3)
    for m in ("c3", "swap", "a1"):
        g.play(m)
    hand = json.dumps({"format": "hexcore-game", "version": 1, "spec": "churn( size = 3 )",
                       "moves": ["c3", "swap", "a1"]})
    same_game(g, records.from_json(hand))


def valid_record():
    g = hc.Churn(size=3)
    for m in ("c3", "swap", "a1"):
        g.play(m)
    return records.to_dict(g)


def finished_record():
    return records.to_dict(random_game("churn(size=3)", 1))


def _set(path, value, base=None):
    def make():
        d = copy.deepcopy(base() if base else valid_record())
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return d
    return make


def _drop(key):
    def make():
        d = valid_record()
        del d[key]
        return d
    return make


def _setup_record():
    return records.to_dict(hc.Churn.from_position({"c3": 1}, to_move=2, size=3))


TAMPERED = {
    "format": _set(["format"], "something-else"),
    "version": _set(["version"], 2),
    "version-type": _set(["version"], "1"),
    "spec-type": _set(["spec"], 3),
    "spec-syntax": _set(["spec"], "churn(size=3"),
    "spec-unknown-game": _set(["spec"], "chess(size=8)"),
    "spec-bad-size": _set(["spec"], "churn(size=1)"),
    "spec-bad-option": _set(["spec"], "churn(size=3,colour=red)"),
    "spec-other-board": _set(["spec"], "churn(size=2)"),
    "game-mismatch": _set(["game"], "quintun-x"),
    "actions-type": _set(["actions"], "9,19,0"),
    "action-float": _set(["actions"], [9, 19.0, 0]),
    "action-bool": _set(["actions"], [True]),
    "action-string": _set(["actions"], ["9"]),
    "action-negative": _set(["actions"], [-1]),
    "action-huge": _set(["actions"], [10**30]),
    "action-out-of-range": _set(["actions"], [20000]),
    "action-illegal": _set(["actions"], [9, 9]),
    "action-swap-late": _set(["actions"], [9, 0, 19]),
    "moves-mismatch": _set(["moves"], ["c3", "swap", "a2"]),
    "moves-type": _set(["moves"], "c3 swap a1"),
    "moves-only-illegal": lambda: {"format": "hexcore-game", "version": 1, "spec": "churn(size=3)",
                                   "moves": ["c3", "c3"]},
    "moves-only-garbage": lambda: {"format": "hexcore-game", "version": 1, "spec": "churn(size=3)",
                                   "moves": ["zz99"]},
    "no-actions-no-moves": lambda: {"format": "hexcore-game", "version": 1, "spec": "churn(size=3)"},
    "winners-unfinished": _set(["winners"], [1]),
    "winners-wrong": lambda: dict(finished_record(), winners=[3 - finished_record()["winners"][0]]),
    "winners-null-but-over": lambda: dict(finished_record(), winners=None),
    "winners-type": lambda: dict(finished_record(), winners="1"),
    "setup-type": _set(["setup"], [0] * 19),
    "setup-keys": _set(["setup"], {"cells": [0] * 19}),
    "setup-short": _set(["setup", "cells"], [0] * 18, _setup_record),
    "setup-long": _set(["setup", "cells"], [0] * 20, _setup_record),
    "setup-colour": _set(["setup", "cells"], [7] * 19, _setup_record),
    "setup-cell-type": _set(["setup", "cells"], ["x"] * 19, _setup_record),
    "setup-to-move": _set(["setup", "to_move"], 3, _setup_record),
    "setup-to-move-type": _set(["setup", "to_move"], None, _setup_record),
    "setup-cell-overflow": _set(["setup", "cells"], [300] * 19, _setup_record),
    "setup-to-move-overflow": _set(["setup", "to_move"], 2**70, _setup_record),
    "spec-huge-size": _set(["spec"], "churn(size=99999999999999999999)"),
    "spec-deeply-nested": _set(["spec"], "churn(size=" + "(" * 2000 + ")" * 2000 + ")"),
    "no-spec": _drop("spec"),
    "no-format": _drop("format"),
}


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_tampered_json_raises_value_error(name):
    text = json.dumps(TAMPERED[name]())
    with pytest.raises(ValueError) as err:
        records.from_json(text)
    assert str(err.value)


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "null", "[]", "42", '"text"', "{}", "\x00",
                                  "[" * 100000, b"\xff\xfe", '{"format": "hexcore-game", "version": 1e400}',
                                  '{"format": "hexcore-game", "version": 1, "spec": "churn(size=3)", "actions": [Infinity]}',
                                  '{"format": "hexcore-game", "version": 1, "spec": "churn(size=3)", "actions": [NaN]}'])
def test_malformed_json_raises_value_error(text):
    with pytest.raises(ValueError):
        records.from_json(text)


def test_from_json_type_error_for_non_text():
    with pytest.raises(TypeError):
        records.from_json(42)  # type: ignore[arg-type]


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(["format", "version", "game", "spec", "setup", "actions", "moves", "winners", "extra"]),
       value=_json_values, finished=st.booleans())
def test_fuzzed_records_raise_value_error_or_load(key, value, finished):
    d = finished_record() if finished else valid_record()
    d[key] = value
    try:
        g = records.from_json(json.dumps(d))
    except ValueError:
        return
    # what loads must be a consistent game that round-trips
    same_game(g, records.from_json(records.to_json(g)))


@settings(max_examples=200, deadline=None)
@given(actions=st.lists(st.integers(-3, 25), max_size=40))
def test_fuzzed_action_lists(actions):
    d = valid_record()
    d["actions"] = actions
    del d["moves"]
    try:
        g = records.from_json(json.dumps(d))
    except ValueError:
        return
    assert list(g.actions) == actions


# ----------------------------------------------------------------------------- Abstract Play: Churn


def churn_traces():
    out = []
    for path in sorted((DATA / "churn").glob("abstractplay_traces_*.jsonl")):
        out += [(path.stem.split("_")[-1], i, t) for i, t in enumerate(load_jsonl(path))]
    return out


@pytest.mark.parametrize("variant,i,trace", churn_traces(), ids=lambda x: str(x) if not isinstance(x, dict) else "")
def test_churn_abstractplay_records(variant, i, trace):
    moves = [p["move"] for p in trace["plies"]]
    rec = records.from_abstractplay(json.dumps(moves), board=variant, pie=False)
    g = rec.game
    assert g.is_over and list(g.winners) == trace["final"]["winner"] and rec.resigned is None
    assert list(g.scores()) == [trace["final"]["red"], trace["final"]["blue"]]
    assert rec.winners == g.winners
    assert json.loads(records.to_abstractplay(g)) == moves
    assert records.from_abstractplay(records.to_abstractplay(g), game="churn", board=variant, pie=False).game == g
    # rounds of two read the same
    rounds = [moves[k:k + 2] for k in range(0, len(moves), 2)]
    assert records.from_abstractplay(rounds, board=variant, pie=False).game == g


def test_churn_abstractplay_resign_and_swap():
    g = hc.Churn(size=3)
    for m in ("c3", "swap", "a1"):
        g.play(m)
    text = records.to_abstractplay(g, resigned=2)
    assert json.loads(text) == ["c3", "swap", "a1", "resign"]
    rec = records.from_abstractplay(text)
    assert rec.game == g and rec.resigned == 2 and rec.winners == (1,)
    with pytest.raises(ValueError):
        records.to_abstractplay(g, resigned=1)  # not to move
    with pytest.raises(ValueError):
        records.to_abstractplay(g, gameid="x")  # a Churn record has no fields


@pytest.mark.parametrize("bad", [
    '["c3", "c3"]', '["c3", "zz"]', '["c3", 5]', '{"moves": "c3"}', '["resign", "c3"]', '[["c3"], 3]',
    '["c3", "swap", "swap"]', "not json", "[1", '[["c3", "a1", "e3"]]x',
])
def test_churn_abstractplay_tampered(bad):
    with pytest.raises(ValueError):
        records.from_abstractplay(bad, game="churn")


def test_churn_record_after_the_end_is_rejected():
    g = random_game("churn(size=3,pie=false)", 2)
    moves = json.loads(records.to_abstractplay(g))
    with pytest.raises(ValueError, match="after the end"):
        records.from_abstractplay(moves + ["a1"], pie=False)
    with pytest.raises(ValueError):
        records.to_abstractplay(g, resigned=g.to_move)


# ----------------------------------------------------------------------------- Abstract Play: Wunchunk


def wunchunk_records():
    return load_json(DATA / "wunchunk" / "abstractplay_records.json")


def as_sets(rounds):
    """Rounds with each move read as a set of placements (AP keeps the order a player wrote)."""
    return [[frozenset(m.split(",")) for m in r] for r in rounds]


@pytest.mark.parametrize("cls", WUNCHUNK_CLASSES, ids=lambda c: c.__module__)
@pytest.mark.parametrize("rec", wunchunk_records(), ids=lambda r: r["gameid"][9:17])
def test_wunchunk_abstractplay_records(cls, rec):
    read = records.from_abstractplay(json.dumps(rec), cls=cls)
    g = read.game
    resigned = rec["moves"][-1][-1] == "resign"
    assert (read.resigned is not None) == resigned and g.is_over == (not resigned)
    assert read.winners == tuple(s + 1 for s, r in enumerate(rec["seat_result"]) if r == 1)
    assert read.meta["gameid"] == rec["gameid"] and "moves" not in read.meta
    # written back: the same rounds (placements in canonical order), results and fields
    out = json.loads(records.to_abstractplay(g, resigned=read.resigned, **read.meta))
    assert as_sets(out["moves"]) == as_sets(rec["moves"])
    for key in ("gameid", "players", "size", "open", "seat_result", "seat_chunks"):
        assert out[key] == rec[key], key
    again = records.from_abstractplay(json.dumps(out), cls=cls)
    assert again.game.history == g.history and again.resigned == read.resigned


@pytest.mark.parametrize("cls", WUNCHUNK_CLASSES, ids=lambda c: c.__module__)
def test_wunchunk_inserted_pass_after_swap(cls):
    case = load_json(DATA / "wunchunk" / "abstractplay_unit_cases.json")["swap_winner"]
    g = cls(size=case["size"], players=2, start="open")
    for m in case["moves"]:
        g.play(m)
    assert json.loads(records.to_abstractplay(g))["moves"] == case["history_as_AP_records_it"]
    rec = {"players": 2, "size": case["size"], "open": True, "moves": case["history_as_AP_records_it"]}
    read = records.from_abstractplay(rec, cls=cls)
    assert read.game.history == g.history and read.winners == tuple(case["winners"])


@pytest.mark.parametrize("cls", WUNCHUNK_CLASSES, ids=lambda c: c.__module__)
def test_wunchunk_balance_by_date(cls):
    (rec,) = [r for r in wunchunk_records() if r["gameid"].startswith("wunchunk#a616c48f")]
    assert records.from_abstractplay(rec, cls=cls).resigned == 2  # before 2026-03-08: no balance rule
    with pytest.raises(ValueError, match="balance|illegal"):
        records.from_abstractplay(dict(rec, date_start="2026-03-20"), cls=cls)
    with pytest.raises(ValueError):
        records.from_abstractplay(dict(rec, balance="ap"), cls=cls)


def _tamper(fn):
    def make():
        rec = copy.deepcopy(wunchunk_records()[0])
        fn(rec)
        return rec
    return make


WUNCHUNK_TAMPERED = {
    "seat-result": _tamper(lambda r: r.update(seat_result=[0, 1])),
    "seat-result-length": _tamper(lambda r: r.update(seat_result=[1])),
    "seat-chunks": _tamper(lambda r: r.update(seat_chunks=[2, 4])),
    "occupied": _tamper(lambda r: r["moves"][2].__setitem__(0, "2e3")),
    "bad-cell": _tamper(lambda r: r["moves"][2].__setitem__(0, "2z9")),
    "bad-colour": _tamper(lambda r: r["moves"][2].__setitem__(0, "7d7")),
    "too-many-stones": _tamper(lambda r: r["moves"][2].__setitem__(0, "2d7,2c7,2b7")),
    "missing-inserted-pass": _tamper(lambda r: r["moves"][1].__setitem__(0, "1a1")),
    "round-too-long": _tamper(lambda r: r["moves"][3].append("pass")),
    "round-type": _tamper(lambda r: r["moves"].__setitem__(3, "2c7")),
    "move-type": _tamper(lambda r: r["moves"][3].__setitem__(0, 7)),
    "moves-type": _tamper(lambda r: r.update(moves="pass")),
    "no-moves": _tamper(lambda r: r.pop("moves")),
    "extra-move": _tamper(lambda r: r["moves"].append(["pass"])),
    "resign-not-last": _tamper(lambda r: r["moves"][3].__setitem__(0, "resign")),
    "open-type": _tamper(lambda r: r.update(open="yes")),
    "players": _tamper(lambda r: r.update(players=9)),
    "size": _tamper(lambda r: r.update(size="6")),
    "balance": _tamper(lambda r: r.update(balance="fair")),
}


@pytest.mark.parametrize("cls", WUNCHUNK_CLASSES, ids=lambda c: c.__module__)
@pytest.mark.parametrize("name", sorted(WUNCHUNK_TAMPERED))
def test_wunchunk_abstractplay_tampered(cls, name):
    with pytest.raises(ValueError) as err:
        records.from_abstractplay(json.dumps(WUNCHUNK_TAMPERED[name]()), cls=cls)
    assert str(err.value)


def test_abstractplay_without_an_engine_or_for_other_games():
    if "wunchunk" not in hc.GAMES:
        with pytest.raises(ValueError, match="no wunchunk engine"):
            records.from_abstractplay(wunchunk_records()[0])
    with pytest.raises(ValueError):
        records.from_abstractplay([], game="chess")
    with pytest.raises(ValueError):
        records.from_abstractplay(["c3"], game="wunchunk", cls=RefWunchunk)
