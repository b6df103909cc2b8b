"""Inputs read strictly and early, with messages that say what was wrong:
argument checks, move notation, Quintun records, VecGame states, CLI output
paths (issue 21, the lesser items)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hexcore as hc
from hexcore.search import MCTS, mcts
from hexcore.vector import VecGame

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- Quintun records and notation

def test_quintun_replay_reads_the_record_format():
    sample = json.loads((ROOT / "seeds" / "quintun" / "sample_game.json").read_text())
    text = "\n".join(sample["record"])  # numbered lines, the swap as "1 j4 j4", ending in "resign"
    g = hc.Quintun.replay(text, size=7)
    assert g.history == sample["moves"] and not g.is_over and g.to_move == 2
    # the dotted numbers of the seeds' description, and a plain move string, read the same
    dotted = "\n".join(line.replace(" ", ". ", 1) for line in sample["record"])
    assert hc.Quintun.replay(dotted, size=7).history == sample["moves"]
    assert hc.Quintun.replay(" ".join(sample["moves"]), size=7).history == sample["moves"]
    with pytest.raises(ValueError, match="not a record line"):
        hc.Quintun.replay("1 j4 j4\n2 m5 j6 k7\n", size=7)
    with pytest.raises(ValueError, match="not a record line"):
        hc.Quintun.replay("1 j4 j4\nm5 j6\n", size=7)


def test_quintun_compact_extend_on_large_boards_is_explained():
    g = hc.Quintun(size=10, swap=False)
    with pytest.raises(hc.NotationError) as e:
        g.play("Apr19")
    msg = str(e.value)
    assert "no cell" not in msg and "Ap19,Ar19" in msg and "sides 4-7" in msg


def test_quintun_gap_rule_message():
    g = hc.Quintun.replay(["Ai1", "j4"], size=7, placement="gap", swap=False)
    with pytest.raises(hc.IllegalMoveError) as e:
        g.play("Bk1")  # two ring cells from A, while far cells exist
    assert e.value.reason == "placement_gap"
    assert str(e.value) == ("k1 is fewer than 5 empty ring cells from a neutral "
                            "(and some empty ring cell is at least that far both ways)")


# ---------------------------------------------------------------- Wunchunk notation

@pytest.mark.parametrize("text", ["1a1,", ",1a1", "1a1,,2a2", ","])
def test_wunchunk_stray_commas_are_refused(text):
    g = hc.Wunchunk(size=5, start="open")
    before = g.history
    with pytest.raises(hc.NotationError):
        g.play(text)
    assert g.history == before


def test_wunchunk_pass_within_placements():
    g = hc.Wunchunk(size=6)
    with pytest.raises(hc.NotationError) as e:
        g.play("pass,1a1")
    assert "whole move" in str(e.value) and "stones" not in str(e.value)


# ---------------------------------------------------------------- argument checks

def test_solve_arguments_are_checked_before_the_search():
    g = hc.Churn(size=2, pie=False)
    with pytest.raises(TypeError, match="progress"):
        hc.solve(g, progress=5)
    with pytest.raises(TypeError, match="distances"):
        hc.solve(g, distances="no")
    assert hc.solve(g, distances=np.False_).plies_to_end is None


def test_solve_too_many_root_moves():
    # ten colour-1 chunks: an allotment of ten stones on a wide-open board
    b = hc.Wunchunk(size=8).board
    pos, blocked = {}, set()
    for c in range(b.num_cells):
        d = next((int(n) for n in b.neighbors(c) if int(n) not in blocked), None)
        if len(pos) == 20 or c in blocked or d is None:
            continue
        pos[b.label(c)] = pos[b.label(d)] = 1
        blocked |= {c, d, *map(int, b.neighbors(c)), *map(int, b.neighbors(d))}
    g = hc.Wunchunk.from_position(pos, to_move=1, size=8, balance="none")
    assert g.allotment == 10 and g.count_moves() > 10**6
    with pytest.raises(hc.TooManyMovesError):
        hc.solve(g, threads=1, max_seconds=5)


def test_perft_divide_and_vecgame_flags_must_be_bools():
    g = hc.Churn(size=3)
    with pytest.raises(TypeError, match="divide"):
        hc.perft(g, 1, divide="yes")
    assert hc.perft(g, 1, divide=np.True_)[0] == ("a1", 1)
    with pytest.raises(TypeError, match="copy"):
        VecGame("churn(size=3)", 2, copy="no")


def test_vecgame_step_active_must_be_bools():
    v = VecGame("churn(size=3)", 3)
    before = [v.get_state(i) for i in range(3)]
    with pytest.raises(TypeError, match="active"):
        v.step(v.sample_actions(), active=[0.5, 0.0, 1.0])
    with pytest.raises(TypeError, match="active"):
        v.step(v.sample_actions(), active=[1, 0, 1])
    assert [v.get_state(i) for i in range(3)] == before
    v.step(v.sample_actions(), active=[True, False, True])
    assert [v.get_state(i).ply for i in range(3)] == [1, 0, 1]


def test_vecgame_huge_uint64_action_is_named():
    v = VecGame("churn(size=3)", 2)
    a = v.sample_actions().astype(np.uint64)
    a[1] = 2**64 - 1
    with pytest.raises(hc.IllegalMoveError) as e:
        v.step(a)
    assert str(2**64 - 1) in str(e.value) and "action -1" not in str(e.value)
    assert e.value.env == 1 and e.value.action == 2**64 - 1


def test_messages_show_the_number_given():
    with pytest.raises(ValueError) as e:
        hc.Churn(size=10**30)
    assert str(10**30) in str(e.value) and "9223372036854775807" not in str(e.value)


def test_numpy_bools_for_pie_and_swap():
    assert hc.Churn(size=3, pie=np.False_) == hc.Churn(size=3, pie=False)
    assert hc.Quintun(size=5, swap=np.True_).swap is True
    with pytest.raises(ValueError):
        hc.Churn(size=3, pie=1)


def test_from_position_refuses_a_cell_given_twice():
    with pytest.raises(ValueError, match="twice"):
        hc.Churn.from_position({"c3": 1, "C3": 2}, size=3)
    with pytest.raises(ValueError, match="twice"):
        hc.Churn.from_position({"c3": 1, " c3": 1}, size=3)


def test_mcts_tiny_time_budget_still_searches():
    g = hc.Churn(size=3)
    r = mcts(g, seconds=1e-300, threads=1)
    assert r.simulations >= 1 and int(r.visits.sum()) == r.simulations and r.move == r.pv[0]
    r = mcts(g, seconds=1e-300, threads=2)
    assert r.simulations >= 2  # at least one per tree
    m = MCTS(g, threads=1)
    assert m.search(seconds=1e-300).simulations >= 1


# ---------------------------------------------------------------- VecGame.set_state

def test_set_state_takes_a_game():
    v = VecGame("churn(size=3)", 2)
    with pytest.raises(TypeError, match="hexcore.load"):
        v.set_state(0, "churn(size=3)")


def test_set_state_refuses_a_turn_in_progress():
    v = VecGame("quintun(size=5,swap=false)", 2)
    g = hc.Quintun.replay(["Ae1", "Bq5"], size=5, swap=False)
    g.apply_action(next(int(a) for a in g.legal_actions() if g.action_to_string(int(a)).startswith("A")))
    assert g.pending_actions  # the first stone of an EXTEND
    with pytest.raises(ValueError, match="middle of a turn"):
        VecGame([g])
    before = v.get_state(0)
    with pytest.raises(ValueError, match="middle of a turn"):
        v.set_state(0, g)
    assert v.get_state(0) == before


# ---------------------------------------------------------------- hc.render

def test_render_is_reachable_after_import_hexcore():
    code = "import hexcore\nprint(hexcore.render.svg(hexcore.Churn(size=3))[:4])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "<svg"


# ---------------------------------------------------------------- CLI output paths

@pytest.mark.parametrize("cmd", [
    ["match", "churn(size=3)", "--players", "random", "random", "--games", "100000"],
    ["bench"],
])
def test_cli_checks_json_path_before_running(cmd, tmp_path):
    out = subprocess.run([sys.executable, "-m", "hexcore", *cmd, "--json", str(tmp_path / "no" / "x.json")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "does not exist" in out.stderr
    assert "hexcore bench on" not in out.stdout and "games" not in out.stdout  # nothing ran


def test_cli_never_loses_a_finished_match(tmp_path, monkeypatch, capsys):
    from hexcore import __main__ as cli

    target = tmp_path / "x.json"
    real_open = open

    def failing_open(path, mode="r", *a, **k):
        if str(path) == str(target) and "w" in mode:
            raise OSError(28, "No space left on device")
        return real_open(path, mode, *a, **k)

    monkeypatch.setattr("builtins.open", failing_open)
    rc = cli.main(["match", "churn(size=3)", "--players", "random", "random", "--games", "3", "--json", str(target)])
    err = capsys.readouterr().err
    assert rc == 2 and "No space left on device" in err and "saved to" in err
    saved = err.split("saved to ")[1].strip()
    assert json.loads(Path(saved).read_text())["games"] == 3
    Path(saved).unlink()


ANALYZE = ["analyze", "churn(size=2)", "--games", "2", "--ladder", "random", "--swap-map", "off", "--playouts", "50"]


def _saved(err):
    """The temporary files an error message says outputs were saved to."""
    return [Path(p) for p in re.findall(r"saved to ([^;\s]+)", err)]


def test_cli_analyze_never_loses_a_finished_report(tmp_path, capsys):
    """An output that cannot be written (here /dev/full, a disk that is
    always full) is saved to a temporary file, as match --json does."""
    from hexcore import __main__ as cli

    if not os.access("/dev/full", os.W_OK):
        pytest.skip("needs /dev/full")
    rc = cli.main([*ANALYZE, "--out", "/dev/full", "--json", str(tmp_path / "r.json")])
    out, err = capsys.readouterr()
    assert rc == 2 and "cannot write /dev/full: No space left on device" in err
    [saved] = _saved(err)
    assert saved.suffix == ".html" and "churn(size=2)" in saved.read_text(encoding="utf-8")
    saved.unlink()
    assert json.loads((tmp_path / "r.json").read_text())["spec"] == "churn(size=2)"  # the other output is written
    assert f"JSON written to {tmp_path / 'r.json'}" in out


def test_cli_outputs_on_a_full_disk_leave_no_empty_file(tmp_path, capsys, full_disk):
    from hexcore import __main__ as cli

    html, js, match = tmp_path / "r.html", tmp_path / "r.json", tmp_path / "m.json"
    full_disk(html, js, match)
    rc = cli.main([*ANALYZE, "--out", str(html), "--json", str(js)])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("No space left on device") == 2
    saved_html, saved_json = _saved(err)
    assert "churn(size=2)" in saved_html.read_text(encoding="utf-8")
    assert json.loads(saved_json.read_text())["spec"] == "churn(size=2)"
    rc = cli.main(["match", "churn(size=2)", "--players", "random", "random", "--games", "2", "--json", str(match)])
    err = capsys.readouterr().err
    assert rc == 2 and "No space left on device" in err
    [saved_match] = _saved(err)
    assert json.loads(saved_match.read_text())["games"] == 2
    for p in (saved_html, saved_json, saved_match):
        p.unlink()
    assert list(tmp_path.iterdir()) == []  # no 0-byte (or partial) file where the outputs were to go


def _seed_takers():
    from hexcore.search import batched_search

    g = hc.Churn(size=3)

    def uniform(obs, masks):
        return masks.astype(np.float32), np.full((len(obs), 2), 0.5, np.float32)

    return {
        "mcts": lambda s: mcts(g, simulations=2, threads=1, seed=s),
        "MCTS": lambda s: MCTS(g, threads=1, seed=s),
        "VecGame": lambda s: VecGame("churn(size=3)", 2, seed=s),
        "VecGame.reset": lambda s: VecGame("churn(size=3)", 2).reset(seed=s),
        "batched_search": lambda s: batched_search([g], uniform, simulations=2, seed=s),
        "random_playouts": lambda s: hc.random_playouts(g, 2, seed=s),
    }


@pytest.mark.parametrize("name", sorted(_seed_takers()))
def test_every_seed_is_read_alike(name):
    # one check for every call that takes a seed: the whole 64-bit range, the same errors
    take = _seed_takers()[name]
    for ok in (0, np.uint64(7), 2**64 - 1):
        take(ok)
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match=r"^seed must be between 0 and 18446744073709551615, got "):
            take(bad)
    for bad in (1.5, True, "3"):
        with pytest.raises(TypeError, match=r"^seed must be an int, got "):
            take(bad)
