"""The extension stands alone: ``hexcore._core`` imports nothing from the
``hexcore`` package above it (data flows core <- bindings <- package), and a
game's history lives in the extension, for game objects and batch envs alike.

The first test loads the compiled module file by itself in a fresh
interpreter where importing ``hexcore`` or any ``hexcore.*`` module raises,
and plays, copies, undoes, pickles and steps a batch there."""
from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hexcore as hc
from hexcore import _core
from hexcore.vector import VecGame

ALONE = textwrap.dedent(r'''
    import copy, importlib.abc, importlib.util, pickle, sys, types
    import numpy as np

    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "hexcore" or name.startswith("hexcore."):
                raise ImportError(f"the extension imported {name}")
            return None

    sys.meta_path.insert(0, Refuse())
    # An empty stand-in for the package (no __path__: nothing can be imported
    # from it), so that pickle can name `hexcore._core`.
    placeholder = types.ModuleType("hexcore")
    sys.modules["hexcore"] = placeholder
    spec = importlib.util.spec_from_file_location("hexcore._core", sys.argv[1])
    core = importlib.util.module_from_spec(spec)
    sys.modules["hexcore._core"] = core
    spec.loader.exec_module(core)

    # games: play, errors, copy, undo, pickle
    g = core.Churn(size=3, pie=False)
    g.play("c3")
    g.apply_action(0)
    try:
        g.play("c3")
    except core.IllegalMoveError as e:
        assert e.reason == "occupied", e.reason
    else:
        raise AssertionError("an occupied cell was accepted")
    assert g.history == ["c3", "a1"], g.history
    c = copy.deepcopy(g)
    assert c == g and c.undo() == "a1" and g.history == ["c3", "a1"]
    for proto in (2, pickle.HIGHEST_PROTOCOL):
        r = pickle.loads(pickle.dumps(g, protocol=proto))
        assert r == g and r.history == g.history and r.undo() == "a1"
    s = core.Wunchunk.from_position({"c3": 1, "d4": 2}, to_move=2, size=5, colour1_turns=1)
    r = pickle.loads(pickle.dumps(s))
    assert r == s and r._setup() == s._setup()
    assert not hasattr(core._Game, "_repr_svg_")

    # a batch: stepping, the reason an action is illegal, each env's game with its history
    n = 3
    v = core._VecGame([g] * n, 0, None, 2**64 - 1)
    A = v.num_actions
    bufs = (None, np.zeros((n, A), bool), np.zeros((n, 2), np.float32), np.zeros(n, bool), np.zeros(n, bool),
            np.zeros(n, np.int32), np.zeros(n, np.int64))
    v.reset(None, *bufs)
    mv = g.legal_moves()[0]
    b2 = g.board.index(mv)
    v.step(np.array([b2] * n, np.int64), None, *bufs)
    st = v._state(1)
    assert st.history == ["c3", "a1", mv], st.history
    assert st.undo() == mv and st == g
    try:
        v.step(np.array([b2, 1, 1], np.int64), None, *bufs)
    except core.IllegalMoveError as e:
        assert e.env == 0 and e.action == b2 and e.reason == "occupied", (e.env, e.action, e.reason)
        assert str(e).startswith(f"env 0: action {b2} ({mv}) is illegal: "), str(e)
    else:
        raise AssertionError("an occupied cell was accepted")
    assert v._state(0).history == ["c3", "a1", mv]
    v._set_env(2, st, st.ply)
    assert v._state(2).history == ["c3", "a1"] and v._start(2).history == ["c3", "a1"]
    v.step(np.array([0, 0, b2], np.int64), np.array([False, False, True]), *bufs)
    assert v._state(2).history == ["c3", "a1", mv]
    v.reset(None, *bufs)
    assert v._state(2).history == ["c3", "a1"]

    loaded = sorted(m for m in sys.modules if m == "hexcore" or m.startswith("hexcore."))
    assert loaded == ["hexcore", "hexcore._core"] and sys.modules["hexcore"] is placeholder, loaded
    assert vars(placeholder).keys() <= {"__name__", "__doc__", "__package__", "__loader__", "__spec__", "_core"}
    print("alone: ok")
''')


def test_the_extension_imports_nothing_from_the_package(tmp_path):
    script = tmp_path / "alone.py"
    script.write_text(ALONE)
    res = subprocess.run([sys.executable, "-I", str(script), _core.__file__], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.strip() == "alone: ok"


def test_pickles_naming_the_old_reconstructor_still_load():
    """Pickles made before the reconstructor moved into the extension name
    ``hexcore._pickle.restore``."""
    g = hc.Churn(size=3)
    for _ in range(3):
        g.play(g.legal_moves()[-1])
    last = g.history[-1]
    _, args = g.__reduce__()
    body = pickle.dumps(args, protocol=2)
    old = b"\x80\x02chexcore._pickle\nrestore\n" + body[2:-1] + b"R."
    r = pickle.loads(old)
    assert r == g and r.history == g.history and r.undo() == last
    # new pickles name the extension's own function
    assert b"hexcore._pickle" not in pickle.dumps(g) and b"_restore" in pickle.dumps(g)


def test_vecgame_envs_carry_their_starts_history():
    start = hc.Quintun.replay(["j4"], size=7, swap=False)
    v = VecGame([start, hc.Quintun(size=7, swap=False)], seed=3)
    acts = v.sample_actions().copy()
    v.step(acts)
    got = v.get_state(0)
    assert got.history[0] == "j4" and len(got.actions) == len(start.actions) + 1
    assert v.get_state(1).actions == [int(acts[1])]
    # undo works on what get_state gives (the history comes with undo records)
    got.undo()
    assert got == start
    # set_state keeps the history of the game given, until the episode ends
    other = hc.Quintun.replay(["j4", "k5"], size=7, swap=False)
    v.set_state(1, other)
    assert v.get_state(1).history == other.history
    v.reset()
    assert v.get_state(1).history == [] and v.get_state(0).history == ["j4"]


def test_illegal_action_mid_turn_names_the_turn():
    v = VecGame("wunchunk(size=5,start=open)", 2, seed=0)
    v.step(v.sample_actions())
    g = v.get_state(0)
    assert g.pending_actions, "the open start's first turn places four stones"
    a = next(x for x in range(v.num_actions) if not v._mask[0, x])
    acts = v.sample_actions().copy()
    acts[0] = a
    with pytest.raises(hc.IllegalMoveError, match=r"env 0: .*a turn is in progress \(") as e:
        v.step(acts)
    assert e.value.env == 0 and e.value.action == a
    assert v.get_state(0) == g


def test_a_failed_restore_builds_nothing_and_says_why():
    g = hc.Churn(size=3)
    with pytest.raises(ValueError, match="does not match"):
        _core._restore("Wunchunk", g.spec, None, [])
    with pytest.raises(ValueError, match="malformed pickled position"):
        _core._restore("Churn", g.spec, (1,), [])
    with pytest.raises(ValueError, match="malformed pickled action"):
        _core._restore("Churn", g.spec, None, [np.int64(1)])
    with pytest.raises(hc.IllegalMoveError):
        _core._restore("Churn", g.spec, None, [0, 0])
