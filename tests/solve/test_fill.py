"""Fill nodes in Hex certificates: the strategy's player wins even with the
opponent's stones on some empty cells, and the proof goes on from that
position; a forged one is refused, naming the node."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import hexcore as hc
from hexcore.reference import CertificateError, check_certificate

# Hex 3x3 after x b2 (o to move): x's bridges b1-c1 and a3-b3 to its edges
# leave a1, a2, c2 and c3 outside their cells.
FILL = ["a1", "a2", "c2", "c3"]
PAIRS = [["b1", "c1"], ["a3", "b3"]]


def _write(path, fill, pairs=PAIRS, *, version=3, swap=False, game="hex", options=None, value="loss", moves=("b2",)):
    """A certificate of Hex 3x3 after b2 whose root is a fill node going on to
    the pairing leaf ``pairs``."""
    options = options or ({"size": 3, "swap": True} if swap else {"size": 3})
    strategies = [{"player": 1, "goal": "win", "root": 0}]
    if not moves:
        strategies = [{"player": 1, "goal": "win", "root": 0}]
        value = "win"
    if value == "draw":
        strategies = [{"player": 2, "goal": "draw", "root": 0}, {"player": 1, "goal": "draw", "root": 0}]
    lines = [{"format": "hexcore-certificate", "version": version, "game": game, "options": options, "setup": None,
              "moves": list(moves), "to_move": 2 if moves else 1},
             [0, {"fill": fill, "next": 1}],
             [1, {"pairs": pairs}],
             {"end": True, "value": value, "strategies": strategies, "positions": 2}]
    Path(path).write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_a_fill_node_checks(tmp_path):
    c = check_certificate(_write(tmp_path / "ok.jsonl", FILL))
    assert (c.value, c.positions, c.fill_nodes, c.pairing_leaves) == ("loss", 2, 1, 1)


@pytest.mark.parametrize("fill, message", [
    (["a1", "b2"], "b2 is not empty"),
    (["a1", "a1"], "a1 is given twice"),
    (["a1", "z9"], "'z9' is not a cell of this board"),
    ([], "the fill must be a non-empty list of cells"),
    ("a1", "the fill must be a non-empty list of cells"),
    (["a1", "a2", "a3", "b3", "c3"], "the filled cells join player 2's edges"),
])
def test_a_forged_fill_node_is_refused(tmp_path, fill, message):
    with pytest.raises(CertificateError, match=r"player 1's strategy \(win\): node 0 \(at the start\): not a fill node: "
                       + message):
        check_certificate(_write(tmp_path / "forged.jsonl", fill))


def test_the_filled_position_must_be_proved(tmp_path):
    # with o on b1 too, the pair b1-c1 is no longer empty
    with pytest.raises(CertificateError, match=r"node 1 \(after \(fill\)\): not a pairing leaf: b1 is not empty"):
        check_certificate(_write(tmp_path / "b1.jsonl", FILL + ["b1"]))


def test_fill_nodes_need_version_3_hex_no_swap_and_a_win(tmp_path):
    with pytest.raises(CertificateError, match="node 0 .*a fill node needs a version 3 certificate"):
        check_certificate(_write(tmp_path / "v2.jsonl", FILL, version=2))
    with pytest.raises(CertificateError, match="node 0 .*the swap is on offer"):
        check_certificate(_write(tmp_path / "swap.jsonl", FILL, swap=True))
    with pytest.raises(CertificateError, match="node 0 .*a fill node proves a win only"):
        check_certificate(_write(tmp_path / "draw.jsonl", FILL, value="draw"))
    with pytest.raises(CertificateError, match="node 0 .*fill nodes are for Hex only"):
        check_certificate(_write(tmp_path / "churn.jsonl", ["a1"], game="churn", options={"size": 2, "pie": False},
                                 moves=()))


@pytest.mark.parametrize("size", [4, 5])
def test_hex_certificates_use_fill_nodes(tmp_path, size):
    s = hc.solve(hc.Hex(size=size), threads=1, algorithm="dfpn", certificate=tmp_path / "hex.jsonl.gz")
    c = check_certificate(s.certificate)
    assert c.value == s.value == "win" and c.positions == s.certificate_positions and c.fill_nodes > 0
