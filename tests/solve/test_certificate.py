"""Proof certificates: ``hc.solve(..., certificate=path)`` writes a proof that
``hexcore.reference.check_certificate`` replays with the pure-Python reference
games, and a certificate that proves nothing is refused, saying where."""
from __future__ import annotations

import ast
import gzip
import json
from pathlib import Path

import pytest

import hexcore as hc
from hexcore.reference import CertificateError, check_certificate

PACKAGE = Path(hc.__file__).resolve().parent

# a Churn side 3 game with the pie rule, 17 plies in (a seeded random game), a
# loss for Red to move; a full opening's certificate has millions of positions
# (docs/solved.md)
CHURN3_MOVES = ["c1", "swap", "e3", "a3", "b4", "e2", "d2", "d4", "a1", "b2", "d1", "c3", "d4", "b4", "a2", "e3", "b1"]


def _certify(game, path, **kw):
    s = hc.solve(game, threads=1, certificate=path, **kw)
    assert s.certificate == str(path) and s.certificate_positions > 0
    return s


def _lines(path):
    return [json.loads(x) for x in Path(path).read_text().splitlines()]


def _write(path, lines):
    Path(path).write_text("".join(json.dumps(x) + "\n" for x in lines))


@pytest.fixture(scope="module")
def hex4(tmp_path_factory):
    path = tmp_path_factory.mktemp("cert") / "hex4.jsonl"
    s = _certify(hc.Hex(size=4), path)
    return s, path


def test_hex4_from_the_empty_board(hex4):
    s, path = hex4
    c = check_certificate(path)
    assert (c.game, c.options, c.value, c.to_move) == ("hex", {"size": 4}, "win", 1) and s.value == "win"
    # every line ends at a pairing leaf (4x4 ends no game on the board)
    assert c.positions == s.certificate_positions and c.pairing_leaves > 0 and c.fill_nodes > 0
    header, trailer = _lines(path)[0], _lines(path)[-1]
    assert header["format"] == "hexcore-certificate" and header["version"] == 3
    assert trailer["strategies"] == [{"player": 1, "goal": "win", "root": 0}]


def test_churn3_with_pie_after_17_plies(tmp_path):
    g = hc.Churn.replay(CHURN3_MOVES, size=3)
    s = _certify(g, tmp_path / "churn3.jsonl", distances=False)
    c = check_certificate(s.certificate)
    assert c.value == s.value == "loss" and c.moves == CHURN3_MOVES and c.positions == s.certificate_positions
    assert _lines(s.certificate)[-1]["strategies"] == [{"player": 3 - g.to_move, "goal": "win", "root": 0}]


def test_a_loss_is_the_opponents_strategy(tmp_path):
    # Hex 3x3 after b2: o to move loses; x's winning strategy answers every o move
    s = _certify(hc.Hex.replay(["b2"], size=3), tmp_path / "loss.jsonl.gz")
    assert s.value == "loss"
    with gzip.open(s.certificate, "rt") as f:
        trailer = json.loads(f.read().splitlines()[-1])
    assert trailer["strategies"] == [{"player": 1, "goal": "win", "root": 0}]
    assert check_certificate(s.certificate).value == "loss"


def test_a_draw_is_both_sides_strategies(tmp_path):
    # ten cells: a tie fills the board 5-5
    s = _certify(hc.Churn(sides=(2, 2, 3, 2, 2, 3), pie=False), tmp_path / "draw.jsonl")
    assert s.value == "draw"
    goals = [(x["player"], x["goal"]) for x in _lines(s.certificate)[-1]["strategies"]]
    assert goals == [(1, "draw"), (2, "draw")]
    assert check_certificate(s.certificate).value == "draw"


def _random_endgame(spec, seed, stop):
    """A position of a seeded random game (actions, so that Wunchunk's many
    stone combinations are never listed), between turns, once ``stop(g)``."""
    import random

    rng = random.Random(seed)
    g = hc.load(spec)
    while not g.is_over and not (len(g.pending_actions) == 0 and stop(g)):
        acts = g.legal_actions()
        g.apply_action(int(acts[rng.randrange(len(acts))]))
    return g


@pytest.mark.parametrize("spec, seed, empty", [
    ("quintun(size=4,swap=false)", 1, 11),   # multi-stone turns
    ("quintun(size=4)", 1, 9),
    ("wunchunk(size=5,players=2)", 2, 5),
])
def test_quintun_and_wunchunk_endgames(tmp_path, spec, seed, empty):
    g = _random_endgame(spec, seed, lambda g: int((g.cells() == 0).sum()) <= empty)
    assert not g.is_over
    s = _certify(g, tmp_path / "endgame.jsonl")
    c = check_certificate(s.certificate)
    assert (c.value, c.moves, c.positions) == (s.value, list(g.history), s.certificate_positions)


def test_a_set_up_position(tmp_path):
    g = hc.Hex.from_position({"b2": 2, "c3": 1}, to_move=1, size=4)
    s = _certify(g, tmp_path / "setup.jsonl")
    assert _lines(s.certificate)[0]["setup"]["position"] == {"b2": 2, "c3": 1}
    assert check_certificate(s.certificate).value == s.value


def test_threads_write_a_certificate_that_checks(tmp_path):
    s = hc.solve(hc.Hex(size=4), threads=2, certificate=tmp_path / "t2.jsonl")
    assert check_certificate(s.certificate).value == "win"


def test_the_certificate_is_the_same_for_any_thread_count(tmp_path):
    # a Churn position whose two-thread certificates differed from run to run
    # while the winner's moves followed the shared table's best moves
    g = hc.Churn(size=3, pie=False)
    for m in "c1 c2 e1 d3 b3 a1 d4 c5 a3 e1 e2 c1 a1 d4 d1 e1 c5 b4 d3 a2 d1".split():
        g.play(m)
    files = [hc.solve(g, threads=t, distances=False, certificate=tmp_path / f"t{t}-{i}.jsonl").certificate
             for i, t in enumerate((1, 2, 2))]
    bodies = [Path(f).read_text().splitlines()[1:-1] for f in files]
    assert len(bodies[0]) > 1000 and bodies[1] == bodies[0] and bodies[2] == bodies[0]
    assert check_certificate(files[1]).value == "win"


# -- corrupted certificates are refused, saying where


def _corrupt(path, tmp_path, change):
    lines = _lines(path)
    change(lines)
    out = tmp_path / "bad.jsonl"
    _write(out, lines)
    return out


def _mover_node(lines, pred=lambda item: True):
    return next(x for x in lines[1:-1] if isinstance(x, list) and len(x) == 3 and pred(x))


def test_an_illegal_move_is_refused(hex4, tmp_path):
    def change(lines):
        node = _mover_node(lines, lambda x: x[0] == 0)
        node[1] = "zz9"
    with pytest.raises(CertificateError, match=r"node 0 \(at the start\), move 'zz9': not a legal move"):
        check_certificate(_corrupt(hex4[1], tmp_path, change))


def test_a_different_winning_claim_is_refused(hex4, tmp_path):
    # the first move replaced by another legal one: the rest of the proof is about another position
    def change(lines):
        node = _mover_node(lines, lambda x: x[0] == 0)
        node[1] = "a1" if node[1] != "a1" else "b1"
    with pytest.raises(CertificateError, match=r"node \d+ \(after [a-d][1-4]( \(fill\))?\): "
                       r"(the reply '[a-d][1-4]' is missing|not a fill node|not a pairing leaf)|is not a legal move"):
        check_certificate(_corrupt(hex4[1], tmp_path, change))


def test_two_positions_as_one_node_are_refused(hex4, tmp_path):
    # two replies sent to the same node: the second reaches it as another position
    def change(lines):
        node = next(x for x in lines[1:-1] if len(x) == 2 and "pairs" not in x[1] and "fill" not in x[1]
                    and len({v for v in x[1].values() if v is not None}) >= 2)
        first, second = [m for m, v in node[1].items() if v is not None][:2]
        node[1][second] = node[1][first]
    with pytest.raises(CertificateError, match=r"leads to node \d+, which is a different position \(after "):
        check_certificate(_corrupt(hex4[1], tmp_path, change))


def test_a_missing_reply_is_refused(hex4, tmp_path):
    def change(lines):
        node = next(x for x in lines[1:-1] if isinstance(x, list) and len(x) == 2 and "pairs" not in x[1] and "fill" not in x[1])
        node[1].pop(sorted(node[1])[0])
    with pytest.raises(CertificateError, match=r"the reply '[a-d][1-4]' is missing \(1 of \d+ legal replies missing\)"):
        check_certificate(_corrupt(hex4[1], tmp_path, change))


def test_a_missing_node_is_refused(hex4, tmp_path):
    def change(lines):
        del lines[len(lines) // 2]
    with pytest.raises(CertificateError, match="is not in the certificate"):
        check_certificate(_corrupt(hex4[1], tmp_path, change))


def test_a_game_claimed_over_too_soon_is_refused(hex4, tmp_path):
    def change(lines):
        node = _mover_node(lines, lambda x: x[2] is not None)
        node[2] = None
    with pytest.raises(CertificateError, match="says the game is over after it, but it is not"):
        check_certificate(_corrupt(hex4[1], tmp_path, change))


def test_a_wrong_value_and_a_cut_file_are_refused(hex4, tmp_path):
    def loss(lines):
        lines[-1]["value"] = "loss"
    with pytest.raises(CertificateError, match="a loss needs player 2's strategy for a win"):
        check_certificate(_corrupt(hex4[1], tmp_path, loss))

    def cut(lines):
        del lines[-1]
    with pytest.raises(CertificateError, match="no trailer line"):
        check_certificate(_corrupt(hex4[1], tmp_path, cut))
    bad = tmp_path / "notjson.jsonl"
    bad.write_text('{"format": "hexcore-certificate", "version": 1}\n[0, "a1",\n')
    with pytest.raises(CertificateError, match="line 2 is not JSON"):
        check_certificate(bad)


# -- budgets, errors, and the checker's independence


def test_a_budget_that_runs_out_leaves_no_file(tmp_path):
    # a proof of thousands of positions (Hex 4x4's takes fewer nodes than the
    # budget's checks are apart)
    g = hc.Churn.replay(CHURN3_MOVES, size=3)
    plain = hc.solve(g, threads=1, distances=False)
    path = tmp_path / "cut.jsonl"
    s = hc.solve(g, threads=1, distances=False, max_nodes=plain.nodes + 50, certificate=path)
    assert s.value == "loss" and s.complete  # the values were proved
    assert s.certificate is None and s.certificate_positions == 0
    assert not path.exists() and not list(tmp_path.iterdir())


def test_bad_certificate_argument(tmp_path):
    with pytest.raises(TypeError, match="certificate must be a path"):
        hc.solve(hc.Hex(size=2), certificate=3)
    with pytest.raises(OSError):
        hc.solve(hc.Hex(size=2), certificate=tmp_path / "no" / "such" / "dir.jsonl")


def test_the_checker_uses_no_engine_code():
    tree = ast.parse((PACKAGE / "reference" / "certificate.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(("." * node.level) + (node.module or ""))
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    assert imported <= {"__future__", "gzip", "json", "os", "sys", "dataclasses", "typing",
                        "._errors", ".churn", ".hex", ".quintun", ".wunchunk"}, imported


def test_command_line(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "h3.jsonl"
    run = subprocess.run([sys.executable, "-m", "hexcore", "solve", "hex(size=3)", "--certificate", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and f"certificate: {path} (" in run.stdout, run.stderr
    ok = subprocess.run([sys.executable, "-m", "hexcore.reference", str(path)], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and "a win" in ok.stdout, ok.stderr
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n")
    bad = subprocess.run([sys.executable, "-m", "hexcore.reference", str(path)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "no trailer line" in bad.stderr


def test_an_interrupt_while_writing_leaves_no_file(tmp_path):
    # the values take `plain.nodes` (one thread: the same count every run); past
    # them the certificate is being written when the progress callback raises
    g = hc.Churn.replay(CHURN3_MOVES[:13], size=3)
    plain = hc.solve(g, threads=1, distances=False)
    seen = []

    def progress(nodes, filled, capacity, seconds):
        seen.append(nodes)
        if nodes > plain.nodes:
            raise KeyboardInterrupt

    path = tmp_path / "interrupted.jsonl"
    with pytest.raises(KeyboardInterrupt):
        hc.solve(g, threads=1, distances=False, certificate=path, progress=progress)
    assert seen[-1] > plain.nodes
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name, full", [("c.jsonl", "c.jsonl.part"), ("c.jsonl.gz", "c.jsonl.gz.part"),
                                        ("c.jsonl.gz", "c.jsonl.gz")])
def test_a_full_disk_leaves_no_partial_certificate(tmp_path, full_disk, name, full):
    import errno

    from hexcore.__main__ import main

    full_disk(tmp_path / full)
    with pytest.raises(OSError) as e:
        hc.solve(hc.Churn(size=2), threads=1, certificate=str(tmp_path / name))
    assert e.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []  # neither the .part file nor a partial certificate
    assert main(["solve", "churn(size=2)", "--threads", "1", "--certificate", str(tmp_path / name)]) == 2
    assert list(tmp_path.iterdir()) == []
