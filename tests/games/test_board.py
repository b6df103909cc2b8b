import pytest

import hexcore as hc
from hexcore.reference._board import Board as RefBoard


@pytest.mark.parametrize("n", [2, 3, 5, 7, 10, 32])
def test_hexhex_geometry_matches_reference(n):
    b = hc.Board(n)
    r = RefBoard.hexhex(n)
    assert b.num_cells == r.num_cells == 3 * n * (n - 1) + 1
    assert b.labels == r.labels
    for i in range(b.num_cells):
        assert b.axial(i) == r.coords[i]
        assert sorted(b.neighbors(i)) == sorted(r.neighbors[i])
        assert b.index(b.label(i)) == i
        assert b.at_axial(*b.axial(i)) == i
        x, y, z = b.cube(i)
        assert x + y + z == 0
    assert len(b.ring) == 6 * (n - 1) == len(set(b.ring))
    assert sorted(b.ring) == sorted(r.ring)


def test_card_coordinates():
    b = hc.Board(6)
    assert b.axial(b.index("f6")) == (0, 0)
    assert b.label(0) == "a1"
    assert b.num_cells == 91


@pytest.mark.parametrize("name,cells,widths", [
    ("hex3", 19, [3, 4, 5, 4, 3]),
    ("limping-34", 27, [3, 4, 5, 6, 5, 4]),
    ("limping-335", 29, [5, 6, 7, 6, 5]),
    ("hex4", 37, [4, 5, 6, 7, 6, 5, 4]),
    ("limping-446", 51, [6, 7, 8, 9, 8, 7, 6]),
    ("hex5", 61, [5, 6, 7, 8, 9, 8, 7, 6, 5]),
])
def test_named_boards(name, cells, widths):
    b = hc.Board(board=name)
    assert b.num_cells == cells
    assert [w for _, w in reversed(b.rows)] == widths  # top to bottom
    assert b.name == name


def test_sides_and_corners():
    b = hc.Board(sides=(3, 4, 3, 4, 3, 4))
    assert [len(s) for s in b.sides] == [3, 4, 3, 4, 3, 4]
    for k in range(6):
        assert b.sides[k][-1] == b.sides[(k + 1) % 6][0] == b.corners[(k + 1) % 6]
        for c in b.sides[k]:
            assert b.is_ring(c)
    assert set(b.ring) == {c for s in b.sides for c in s}


def test_neighbor_table():
    b = hc.Board(3)
    t = b.neighbor_table()
    assert t.shape == (19, 6)
    for i in range(19):
        assert sorted(x for x in t[i] if x >= 0) == sorted(b.neighbors(i))


@pytest.mark.parametrize("kwargs,word", [
    (dict(sides=(3, 4, 3, 3, 3, 4)), "s1-s4"),
    (dict(sides=(3, 3, 3)), "six"),
    (dict(sides=(1, 1, 1, 1, 1, 1)), "at least 2"),
    (dict(size=1), "size"),
    (dict(board="hex9"), "unknown board"),
    (dict(size=3, board="hex3"), "only one"),
])
def test_bad_boards(kwargs, word):
    with pytest.raises(ValueError, match=word):
        hc.Board(**kwargs)


def test_bad_labels_and_indices():
    b = hc.Board(3)
    with pytest.raises(hc.NotationError):
        b.index("z9")
    with pytest.raises(IndexError):
        b.label(19)
    with pytest.raises(IndexError):
        b.neighbors(-1)


def test_diagram_shape():
    d = str(hc.Board(3)).splitlines()
    assert len(d) == 5 and d[0].startswith("e") and d[-1].startswith("a")


@pytest.mark.parametrize("spec", ["churn(size=3)", "quintun(size=4)", "wunchunk(size=5)", "hex(size=4)",
                                  "havannah(size=4)", "havannah(size=3,swap=true)", "y(size=5)"])
def test_grid_pos_is_where_the_observation_puts_each_cell(spec):
    """``board.grid_pos`` / ``grid_shape`` describe the observation's planes
    (the training layers and the symmetries read them): a stone played on a
    cell shows at that cell's grid position, and nowhere else, in the stone
    planes. Havannah lays its cells out as OpenSpiel does, not on the axial
    grid."""
    import numpy as np

    import hexcore as hc

    g0 = hc.load(spec)
    board = g0.board
    assert tuple(g0.observation().shape[1:]) == tuple(board.grid_shape)
    placed = 0
    for c in range(board.num_cells):
        g = g0.copy()
        moves = [m for m in g.legal_moves() if m.lstrip("0123456789") == board.label(c)]   # Wunchunk's "1a1"
        if not moves:
            continue
        g.play(moves[0])
        before = g0.observation()[:2].sum(0)
        after = g.observation()[:2].sum(0)
        changed = set(zip(*np.nonzero(after != before)))
        assert changed == {tuple(board.grid_pos(c))}, (board.label(c), changed)
        placed += 1
    assert placed >= board.num_cells // 2
