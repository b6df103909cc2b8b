"""The three pure-Python references share one move API: one ``IllegalMove``
exception taking ``(message, reason)``, and ``play`` returning the canonical
move text, the same text the engine's ``play`` returns."""
from __future__ import annotations

import random

import pytest

import hexcore as hc
from hexcore import reference
from hexcore.reference import _errors, churn, quintun, wunchunk
from hexcore.reference import hex as hex_reference

SPECS = ["churn(size=3)", "wunchunk(size=5)", "wunchunk(size=5,start=open)", "quintun(size=5)", "hex(size=5,swap=true)"]


def _ref(spec: str):
    name, opts = hc.spec.parse(spec)
    return getattr(reference, hc.registry.INFO[name].reference_name)(**opts)


def test_one_illegal_move_class():
    assert churn.IllegalMove is quintun.IllegalMove is wunchunk.IllegalMove is hex_reference.IllegalMove is _errors.IllegalMove
    e = _errors.IllegalMove("c3 is occupied", "occupied")
    assert str(e) == "c3 is occupied" and e.reason == "occupied" and isinstance(e, ValueError)


@pytest.mark.parametrize("spec", ["churn(size=3)", "wunchunk(size=5)", "quintun(size=5)", "hex(size=5)"])
def test_illegal_move_message_and_reason(spec):
    r = _ref(spec)
    with pytest.raises(_errors.IllegalMove) as e:
        r.play("zz99")
    assert e.value.reason in ("unknown_cell", "syntax")
    assert " " in str(e.value)  # the message is text, not the reason tag


@pytest.mark.parametrize("spec", SPECS)
def test_play_returns_canonical_text_like_the_engine(spec):
    rng = random.Random(7)
    g, r = hc.load(spec), _ref(spec)
    for _ in range(12):
        if g.is_over:
            break
        c = g.copy()  # a random whole move, built action by action
        while len(c.history) == len(g.history):
            acts = c.legal_actions()
            c.apply_action(int(acts[rng.randrange(len(acts))]))
        move = c.history[-1]
        written = move.upper() if spec.startswith("churn") else move
        got = r.play(written)
        assert isinstance(got, str)
        assert got == g.play(written) == r.history[-1] == g.history[-1]
