"""Fuzzing how games are made with hypothesis: constructor arguments, spec
strings for ``hexcore.load``, ``from_position`` set-ups, tampered and
mutated pickle payloads, and ``Board`` lookups and constructors.

Every input must either work or raise one of the documented exceptions
(``hexcore.HexcoreError``, ``ValueError``, ``TypeError``, ``IndexError``),
never a Rust panic. The shared pieces and the example budget are in
``fuzzing.py``.
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hexcore as hc
from hexcore import _pickle

from tests.support.fuzzing import ANY_INT, GAME_NAMES, ODD_OBJECTS, attempt, budget, is_panic, mutated, new_game, random_state, small_opts, snapshot

# ---------------------------------------------------------- constructors

OPTION_NAMES = ["size", "sides", "board", "pie", "players", "start", "balance", "placement", "swap",
                "seed", "colours", "x", "Size", "_", "name"]
OPTION_VALUES = st.one_of(
    st.integers(-3, 12), ANY_INT, st.booleans(), st.none(), st.text(max_size=8),
    st.sampled_from(["standard", "open", "pie", "none", "ap", "side", "hex3", "limping-34", "limping-335",
                     "hex5", "true", "3", ""]),
    st.tuples(*[st.integers(-1, 7)] * 6), st.lists(st.integers(-1, 9), max_size=8),
    st.lists(ANY_INT, min_size=6, max_size=6), st.floats(), st.integers(2, 6).map(np.int64),
    st.binary(max_size=3), st.just(np.bool_(True)),
)


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(120)
@given(args=st.lists(OPTION_VALUES, max_size=2),
       kwargs=st.dictionaries(st.sampled_from(OPTION_NAMES), OPTION_VALUES, max_size=3))
def test_constructor_arguments(name, args, kwargs):
    cls = hc.GAMES[name]
    ok, g = attempt(cls, *args, allowed=(ValueError, TypeError), what=f"{name}(*{args!r}, **{kwargs!r})")
    if not ok or g.board.num_cells > 400:
        return
    # whatever was built round-trips through its spec and pickle and is playable
    assert hc.load(g.spec) == g
    assert hc.load(g.spec).spec == g.spec
    assert pickle.loads(pickle.dumps(g)) == g
    acts = g.legal_actions()
    if len(acts):
        g.apply_action(int(acts[0]))
        g.undo()


# ----------------------------------------------------------------- specs

def valid_specs(name):
    g = new_game(name)
    out = [g.spec, f"{name}()", name, f" {name.upper()} ( ) "]
    if name == "churn":
        out += ["churn(sides=(3,4,3,4,3,4),pie=false)", 'churn(board="limping-34")',
                "churn(size=4, pie=no)", "churn(board=hex5)", "churn(sides=[2,3,2,3,2,3])"]
    return out


SPEC_CHARS = "()[]=,'\" -+_.0123456789abcdefghijklmnopqrstuvwxyzABCXYZ\t"


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(150)
@given(data=st.data())
def test_load_fuzzed_specs(name, data):
    spec = data.draw(st.one_of(
        st.text(max_size=30),
        st.text(alphabet=SPEC_CHARS, max_size=30),
        st.sampled_from(valid_specs(name)).flatmap(lambda s: mutated(s, SPEC_CHARS)),
        st.sampled_from(valid_specs(name)),
    ), label="spec")
    ok, g = attempt(hc.load, spec, allowed=(ValueError,), what=f"load({spec!r})")
    if ok and g.board.num_cells <= 400:
        assert hc.load(g.spec) == g, (spec, g.spec)


@budget(50)
@given(obj=ODD_OBJECTS)
def test_load_non_string(obj):
    ok, res = attempt(hc.load, obj, allowed=(TypeError, ValueError), what=f"load({obj!r})")
    assert not ok


# ---------------------------------------------------------- from_position

@st.composite
def positions(draw, name):
    g = new_game(name)
    labels = list(g.board.labels)
    keys = st.one_of(
        st.sampled_from(labels), st.sampled_from(labels).flatmap(lambda lab: mutated(lab, max_edits=2)),
        st.sampled_from(labels).map(str.upper), st.text(max_size=4),
        st.integers(-2, 40), st.none(), st.floats(), st.binary(max_size=2),
    )
    values = st.one_of(
        st.integers(-2, 5), st.sampled_from(list("ABCDEabcdeFZ") + ["", " a ", "1", "AB"]),
        st.integers(-200, 200), st.integers(), st.none(), st.floats(), st.booleans(), st.text(max_size=3),
        st.integers(0, 4).map(np.int64), st.lists(st.integers(0, 2), max_size=2),
    )
    return draw(st.one_of(
        st.dictionaries(keys, values, max_size=8),
        st.dictionaries(st.sampled_from(labels), st.integers(0, 4), max_size=len(labels)),
        st.lists(st.tuples(st.sampled_from(labels), st.integers(0, 3)), max_size=4),  # not a mapping
        ODD_OBJECTS,
    ))


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(100)
@given(data=st.data())
def test_from_position_fuzzed(name, data):
    cls = hc.GAMES[name]
    pos = data.draw(positions(name), label="position")
    to_move = data.draw(st.one_of(st.integers(-1, 5), ANY_INT, st.none(), st.text(max_size=2), st.floats(),
                                  st.booleans()), label="to_move")
    opts = small_opts(name)
    if data.draw(st.booleans(), label="extra option"):
        opts[data.draw(st.sampled_from(OPTION_NAMES))] = data.draw(OPTION_VALUES)
    ok, g = attempt(cls.from_position, pos, to_move=to_move, **opts,
                    what=f"{name}.from_position({pos!r}, to_move={to_move!r}, **{opts!r})")
    if not ok or g.board.num_cells > 400:
        return
    assert g.history == [] and g.actions == []
    # a set-up position is a normal game: pickles, copies, plays, undoes
    assert pickle.loads(pickle.dumps(g)) == g
    assert g.copy() == g
    before = snapshot(g)
    acts = g.legal_actions()
    if len(acts):
        g.apply_action(int(acts[-1]))
        assert pickle.loads(pickle.dumps(g)) == g
        g.undo()
    assert snapshot(g) == before
    attempt(g.legal_moves, what="legal_moves")
    hc.perft(g, 1, threads=1)


# ------------------------------------------------------------- pickles

def tamper_int_list(values, limit_lo, limit_hi):
    return st.one_of(
        st.just(values),
        st.lists(st.integers(limit_lo, limit_hi), max_size=len(values) + 3),
        st.builds(lambda v, i, x: v[:i] + [x] + v[i + 1:], st.just(values),
                  st.integers(0, max(len(values) - 1, 0)), st.integers(limit_lo, limit_hi)),
        st.builds(lambda v, i: v[:i] + v[i + 1:], st.just(values), st.integers(0, max(len(values) - 1, 0))),
        st.builds(lambda v, r: r.sample(v, len(v)), st.just(values), st.randoms(use_true_random=False)),
    )


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(80)
@given(data=st.data())
def test_pickle_tampered_payloads(name, data):
    g = random_state(name, data)
    if data.draw(st.booleans(), label="from a set-up position"):
        cells = g.cells()
        pos = {g.board.label(i): int(v) if v >= 0 else "ABCDE"[-int(v) - 1]
               for i, v in enumerate(cells) if v != 0}
        ok, g = attempt(hc.GAMES[name].from_position, pos, to_move=g.to_move, **small_opts(name))
        if not ok:
            g = new_game(name)
    func, (cname, spec, setup, actions) = g.__reduce__()
    assert func is _pickle.restore
    assert func(cname, spec, setup, actions) == g
    n_actions = g.num_actions
    spec_head, _, spec_tail = spec.partition("(")

    new_spec = data.draw(st.one_of(
        st.just(spec),
        mutated(spec, SPEC_CHARS),
        mutated("(" + spec_tail, SPEC_CHARS).map(lambda t: spec_head + (t if t.startswith("(") else "(" + t)),
        st.sampled_from(valid_specs(name)).filter(lambda s: s.lower().strip().startswith(name)),
        st.just(123), st.none(),
    ), label="spec")
    new_name = data.draw(st.one_of(st.just(cname), st.text(max_size=6), st.none()), label="name")
    n_cells = g.board.num_cells
    cells0 = list(setup[0]) if setup else [0] * n_cells
    new_setup = data.draw(st.one_of(
        st.just(setup), st.none(),
        st.tuples(tamper_int_list(cells0, -128, 127), st.one_of(st.integers(-2, 5), ANY_INT)),
        st.tuples(tamper_int_list(cells0, -300, 300), st.integers(1, 2)),
        st.tuples(st.lists(st.one_of(ANY_INT, ODD_OBJECTS), max_size=n_cells + 1), st.integers(1, 2)),
        st.tuples(st.lists(st.integers(-3, 3), min_size=n_cells, max_size=n_cells), st.integers(0, 4)),
        st.just((cells0,)), st.just((cells0, 1, 2)), st.just(5), st.just("cells"), st.just((None, 1)),
        st.just((cells0, None)), st.just((cells0, 1.5)),
    ), label="setup")
    new_actions = data.draw(st.one_of(
        st.just(list(actions)),
        tamper_int_list(list(actions), -2, n_actions + 2),
        st.builds(lambda v, x: v + [x], st.just(list(actions)),
                  st.one_of(ANY_INT, st.just(np.int64(1)), st.text(max_size=2), st.none(),
                            st.floats(), st.lists(st.integers(), max_size=1), st.booleans())),
        st.none(), st.just(7), st.just("1 2 3"),
    ), label="actions")
    ok, res = attempt(_pickle.restore, new_name, new_spec, new_setup, new_actions,
                      what=f"restore({new_name!r}, {new_spec!r}, {new_setup!r}, {new_actions!r})")
    if ok:
        # whatever was rebuilt is a consistent game
        assert pickle.loads(pickle.dumps(res)) == res
        assert res.actions == [int(a) for a in new_actions]
        if len(new_actions) == len(actions) and list(new_actions) == list(actions) \
                and new_setup == setup and new_spec == spec:
            assert res == g


def _huge_memo_index(blob: bytes) -> bool:
    """True when a PUT opcode of ``blob`` (read as far as it reads) names a
    memo slot beyond a million: pickle.loads grows its memo to twice the
    index, zero-filled, which for a mutated 4-byte index is gigabytes."""
    import pickletools

    try:
        for op, arg, _ in pickletools.genops(blob):
            if op.name in ("PUT", "BINPUT", "LONG_BINPUT") and isinstance(arg, int) and arg > 10**6:
                return True
    except Exception:  # noqa: BLE001 - malformed further on: loads stops there too
        pass
    return False


@pytest.mark.parametrize("name", GAME_NAMES)
@budget(100)
@given(data=st.data())
def test_pickle_bytes_mutated(name, data):
    """Flipping bytes in a real pickle: loads() may fail in many ways of
    pickle's own (UnpicklingError, EOFError, ...), but whatever reaches
    hexcore must not panic."""
    g = random_state(name, data)
    blob = bytearray(pickle.dumps(g, protocol=data.draw(st.integers(2, pickle.HIGHEST_PROTOCOL))))
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(blob) - 1))
        blob[i] = data.draw(st.integers(0, 255))
    if _huge_memo_index(bytes(blob)):
        return  # CPython's unpickler would fill a memo of that many slots before hexcore is reached
    try:
        res = pickle.loads(bytes(blob))
    except BaseException as e:  # noqa: BLE001
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        assert not is_panic(e), f"Rust panic escaped from pickle.loads: {e!r}"
        return
    if isinstance(res, tuple(hc.GAMES.values())):
        assert pickle.loads(pickle.dumps(res)) == res


# ------------------------------------------------------------- board

@pytest.mark.parametrize("name", GAME_NAMES)
@budget(100)
@given(i=st.one_of(st.integers(-5, 400), ANY_INT, ODD_OBJECTS), label=st.one_of(st.text(max_size=5), ODD_OBJECTS))
def test_board_lookups(name, i, label):
    b = new_game(name).board
    for f in (b.label, b.axial, b.cube, b.neighbors, b.is_ring, b.grid_pos):
        ok, res = attempt(f, i, allowed=(IndexError, TypeError), what=f"{f.__name__}({i!r})")
        is_int = isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))
        if is_int:
            assert ok == (0 <= int(i) < b.num_cells), (f.__name__, i, res)
    ok, res = attempt(b.index, label, allowed=(hc.NotationError, TypeError), what=f"index({label!r})")
    if ok:
        assert b.label(res).lower() == label.strip().lower()
    for q, r in ((i, 0), (0, i), (i, i), (i, -i) if isinstance(i, int) else (i, 1)):
        ok, res = attempt(b.at_axial, q, r, allowed=(TypeError, OverflowError, ValueError), what=f"at_axial({q!r}, {r!r})")
        if ok and res is not None:
            assert b.axial(res) == (q, r)
    marks = label if isinstance(label, str) else None
    attempt(b.diagram, marks, allowed=(ValueError, TypeError), what=f"diagram({marks!r})")


@budget(150)
@given(args=st.lists(OPTION_VALUES, max_size=2),
       kwargs=st.dictionaries(st.sampled_from(["size", "sides", "board", "x"]), OPTION_VALUES, max_size=2))
def test_board_constructor_arguments(args, kwargs):
    ok, b = attempt(hc.Board, *args, allowed=(ValueError, TypeError), what=f"Board(*{args!r}, **{kwargs!r})")
    if ok:
        n = b.num_cells
        assert len(b.labels) == n and b.neighbor_table().shape == (n, 6)
        assert all(b.index(b.label(i)) == i for i in range(0, n, max(1, n // 50)))
        assert sorted(set(b.ring)) == sorted(b.ring) and len(b.corners) == 6
