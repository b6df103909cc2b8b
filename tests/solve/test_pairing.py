"""Pairing leaves in Hex certificates: a position the strategy's player has
won by disjoint pairs of empty cells is a leaf that the checker verifies on the
board alone; a forged one is refused, naming the node."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import hexcore as hc
from hexcore.reference import CertificateError, check_certificate


def _write(path, moves, pairs, version=2, swap=False):
    """A certificate of Hex 3x3 after ``moves`` (o to move, x wins) whose only
    node is the pairing leaf ``pairs``."""
    options = {"size": 3, "swap": True} if swap else {"size": 3}
    lines = [{"format": "hexcore-certificate", "version": version, "game": "hex", "options": options, "setup": None,
              "moves": moves, "to_move": 2},
             [0, {"pairs": pairs}],
             {"end": True, "value": "loss", "strategies": [{"player": 1, "goal": "win", "root": 0}], "positions": 1}]
    Path(path).write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def _leaves(path):
    return [x for x in map(json.loads, Path(path).read_text().splitlines()[1:-1]) if "pairs" in x[1]]


def test_a_pairing_leaf_checks(tmp_path):
    # b2 touches b1 and c1 in the top row, a3 and b3 in the bottom row
    c = check_certificate(_write(tmp_path / "ok.jsonl", ["b2"], [["b1", "c1"], ["a3", "b3"]]))
    assert (c.value, c.positions, c.pairing_leaves, c.finished_games) == ("loss", 1, 1, 0)


@pytest.mark.parametrize("pairs, message", [
    ([["b1", "c1"], ["c1", "b3"]], "c1 is in two pairs"),
    ([["b2", "c1"], ["a3", "b3"]], "b2 is not empty"),
    ([["b1", "c1"]], "the pairs do not join player 1's two edges"),
    ([["a1", "c1"], ["a3", "b3"]], "the pair a1-c1 does not touch the same two of player 1's stone groups and edges"),
    ([["b1", "b1"], ["a3", "b3"]], "the pair b1-b1 is one cell twice"),
    ([["b1", "z9"], ["a3", "b3"]], "'z9' is not a cell of this board"),
    ([["b1"], ["a3", "b3"]], r"\['b1'\] is not a pair of cells"),
    ("b1 c1", "the pairs must be a list"),
])
def test_a_forged_pairing_leaf_is_refused(tmp_path, pairs, message):
    path = _write(tmp_path / "forged.jsonl", ["b2"], pairs)
    with pytest.raises(CertificateError, match=r"player 1's strategy \(win\): node 0 \(at the start\): not a pairing leaf: "
                       + message):
        check_certificate(path)


def test_pairs_of_the_wrong_player_or_while_the_swap_is_on_offer_are_refused(tmp_path):
    # o's stone on b2 gives x nothing: the same pairs do not touch two of x's nodes
    with pytest.raises(CertificateError, match="node 0 .*does not touch the same two"):
        check_certificate(_write(tmp_path / "o.jsonl", ["a1", "b2", "c3"], [["b1", "c1"], ["a3", "b3"]]))
    with pytest.raises(CertificateError, match="node 0 .*the swap is on offer"):
        check_certificate(_write(tmp_path / "swap.jsonl", ["b2"], [["b1", "c1"], ["a3", "b3"]], swap=True))
    with pytest.raises(CertificateError, match="node 0 .*a pairing leaf needs a version 2 certificate"):
        check_certificate(_write(tmp_path / "v1.jsonl", ["b2"], [["b1", "c1"], ["a3", "b3"]], version=1))


def test_a_pairing_leaf_deep_in_a_proof_is_checked(tmp_path):
    s = hc.solve(hc.Hex(size=4), threads=1, certificate=tmp_path / "hex4.jsonl")
    lines = Path(s.certificate).read_text().splitlines()
    leaf = next(i for i, x in enumerate(lines) if '"pairs"' in x)
    item = json.loads(lines[leaf])
    pair = item[1]["pairs"][0]
    item[1]["pairs"][0] = [pair[0], pair[0]]
    lines[leaf] = json.dumps(item)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(CertificateError, match=rf"node {item[0]} \(after [a-d1-4 ()fil]+\): not a pairing leaf: the pair "):
        check_certificate(bad)


@pytest.mark.parametrize("size", [3, 4])
def test_hex_from_the_empty_board(tmp_path, size):
    s = hc.solve(hc.Hex(size=size), threads=1, certificate=tmp_path / "hex.jsonl.gz")
    c = check_certificate(s.certificate)
    assert c.value == s.value == "win" and c.positions == s.certificate_positions and c.pairing_leaves > 0


@pytest.mark.slow
def test_hex5_from_the_empty_board(tmp_path):
    s = hc.solve(hc.Hex(size=5), threads=2, algorithm="dfpn", certificate=tmp_path / "hex5.jsonl.gz")
    c = check_certificate(s.certificate)
    assert c.value == s.value == "win" and c.positions == s.certificate_positions and c.pairing_leaves > 0

