"""The engine against the pure-Python references from set-up positions of
every game: ``from_position`` with random stones, then random plies, the
legal moves compared at each ply. A set-up position never offers the pie or
swap (the rule cards); an empty board with the first player to move is the
start itself, and offers it as the start does."""
from __future__ import annotations

import random

import pytest

import hexcore as hc
from hexcore import reference

# every game, with its swap / pie on and off where it has one
SPECS = [
    "churn(size=2)", "churn(size=3)", "churn(size=3,pie=false)", "churn(board=limping-34)",
    "hex(size=2,swap=true)", "hex(size=4,swap=true)", "hex(rows=3,cols=4)",
    "quintun(size=4)", "quintun(size=5,placement=gap)", "quintun(size=4,swap=false)",
    "wunchunk(size=5)", "wunchunk(size=5,balance=pie)", "wunchunk(size=5,balance='none')",
    "wunchunk(size=7,players=3)", "wunchunk(size=7,players=4)",
]


def _setup(spec: str, rng: random.Random):
    """(position, to_move, extra from_position arguments, options) of a random set-up."""
    name, opts = hc.spec.parse(spec)
    ref = getattr(reference, hc.registry.INFO[name].reference_name)(**opts)
    extra = {}
    if name == "quintun":  # a legal layout of neutrals: the cells of a random start of a game
        for _ in range(rng.randint(0, 12)):
            if ref.is_over:
                break
            moves = ref.legal_moves()
            ref.play(moves[rng.randrange(len(moves))])
        pos = {ref.geo.labels[c]: v for c, v in enumerate(ref.cells()) if v}
        return pos, rng.randint(1, 2), extra, opts
    if name == "wunchunk":
        players = opts.get("players", 2)
        board, colours = ref.board, players
        extra = dict(colour1_turns=rng.randint(0, 3), passes=rng.randint(0, players - 1))
    elif name == "churn":
        board, colours, players = ref.board, 2, 2
    else:
        board, colours, players = None, 2, 2
    n = ref.num_cells if board is None else board.num_cells
    label = ref.labels.__getitem__ if board is None else board.label
    # Wunchunk: at least half the board filled (the reference counts a big turn's moves slowly)
    k = 0 if rng.random() < 0.15 else rng.randint(n // 2 if name == "wunchunk" else 1, n)
    cells = rng.sample(range(n), k)
    pos = {label(c): rng.randint(1, colours) for c in cells}
    return pos, rng.randint(1, players), extra, opts


def _same(g, r, where):
    assert (g.to_move, g.is_over, tuple(g.winners)) == (r.to_move, r.is_over, tuple(r.winners)), where
    assert list(g.cells()) == list(r.cells()), where
    n = g.count_moves()
    assert n == r.count_moves(), where
    if n <= 400:
        moves = g.legal_moves()
        assert len(set(moves)) == n, where
        if isinstance(r, reference.Wunchunk):  # its reference lists a turn by trying every placement: slow
            assert all(r.is_legal(m) for m in moves), where  # n distinct legal moves of n: the same moves
        else:
            assert sorted(moves) == sorted(r.legal_moves()), where


def _random_move(g, rng):
    """A random whole move of the engine's game, built action by action."""
    c = g.copy()
    while len(c.history) == len(g.history):
        acts = c.legal_actions()
        c.apply_action(int(acts[rng.randrange(len(acts))]))
    return c.history[-1]


@pytest.mark.parametrize("spec", SPECS)
def test_set_up_positions_agree_with_the_reference(spec):
    name = hc.spec.parse(spec)[0]
    cls_engine = type(hc.load(spec))
    cls_ref = getattr(reference, hc.registry.INFO[name].reference_name)
    plies = 0
    cheap = name in ("churn", "hex")
    for i in range(300 if cheap else 40):
        rng = random.Random(i)
        pos, to_move, extra, opts = _setup(spec, rng)
        try:
            g = cls_engine.from_position(pos, to_move=to_move, **extra, **opts)
        except ValueError:  # a position the engine refuses (e.g. both sides connected in Hex)
            with pytest.raises(ValueError):
                cls_ref.from_position(pos, to_move, **extra, **opts)
            continue
        r = cls_ref.from_position(pos, to_move, **extra, **opts)
        where = (spec, pos, to_move, extra)
        _same(g, r, where)
        for _ in range(40 if cheap else 6):
            if g.is_over:
                break
            m = _random_move(g, rng)
            assert r.play(m) == g.play(m), where
            plies += 1
            _same(g, r, where + (tuple(g.history),))
    assert plies > 20


@pytest.mark.parametrize("spec", ["churn(size=3)", "hex(size=3,swap=true)"])
def test_set_up_positions_never_offer_the_swap(spec):
    name = hc.spec.parse(spec)[0]
    cls_engine = type(hc.load(spec))
    cls_ref = getattr(reference, hc.registry.INFO[name].reference_name)
    opts = hc.spec.parse(spec)[1]
    for pos, to_move, offered in [({"b1": 2}, 1, False), ({}, 2, False), ({}, 1, True)]:
        g, r = cls_engine.from_position(pos, to_move=to_move, **opts), cls_ref.from_position(pos, to_move, **opts)
        while True:  # up to the first player's first stone
            mover, m = g.to_move, next(m for m in g.legal_moves() if m != "swap")
            assert r.play(m) == g.play(m)
            if mover == 1:
                break
        assert ("swap" in g.legal_moves()) == ("swap" in r.legal_moves()) == offered, (pos, to_move)


@pytest.mark.parametrize("game", [hc.Churn.from_position({"b1": 2}, to_move=1, size=2),
                                  hc.Hex.from_position({"a1": 2}, to_move=1, size=3, swap=True),
                                  hc.Churn.from_position({}, to_move=1, size=2)])
def test_certificate_of_a_set_up_position_with_the_swap_rule_is_accepted(game, tmp_path):
    path = tmp_path / "c.jsonl"
    s = hc.solve(game, threads=1, certificate=str(path))
    assert s.certificate == str(path)
    checked = reference.check_certificate(str(path))
    assert checked.value == s.value and checked.positions == s.certificate_positions
