"""Bot matches (hexcore.match.play_match, ``python -m hexcore match``) and the
terminal game against a bot (``play_loop``, ``python -m hexcore play``)."""
import io
import json
import subprocess
import sys

import pytest

from hexcore.match import parse_player, play_loop, play_match, wilson


def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "hexcore", *args], capture_output=True, text=True,
                          timeout=120, input=stdin)


def test_same_seed_same_match_and_other_seed_differs():
    a = play_match("churn(size=3)", ["mcts:30", "random"], games=6, seed=5)
    b = play_match("churn(size=3)", ["mcts:30", "random"], games=6, seed=5)
    assert a.to_dict() | {"seconds": 0} == b.to_dict() | {"seconds": 0}
    c = play_match("churn(size=3)", ["random", "random"], games=6, seed=5)
    d = play_match("churn(size=3)", ["random", "random"], games=6, seed=6)
    assert (c.winners, c.plies) != (d.winners, d.plies)


def test_seats_alternate_and_counts_add_up():
    r = play_match("churn(size=3)", ["random", "random"], games=7, seed=1)
    assert [s[0] for s in r.seating] == [0, 1, 0, 1, 0, 1, 0]
    assert [p.games for p in r.players] == [7, 7]
    assert [s.games for s in r.seats] == [7, 7]
    for rec in r.players + r.seats:
        assert rec.wins + rec.draws + rec.losses == rec.games
    # each game is one seat's win (or a draw for both)
    assert r.seats[0].wins + r.seats[1].wins + r.seats[0].draws == 7
    assert r.players[0].wins == r.players[1].losses


def test_three_players_rotate_through_the_seats():
    r = play_match("wunchunk(size=7,players=3)", ["random", "random", "random"], games=3, seed=2)
    assert r.seating == [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    assert [p.games for p in r.players] == [3, 3, 3]
    for g, winners in enumerate(r.winners):
        assert winners and all(1 <= w <= 3 for w in winners)


def test_wilson_known_values():
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.49016, abs=1e-5) and hi == pytest.approx(0.94332, abs=1e-5)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-5) and hi == pytest.approx(0.59617, abs=1e-5)
    assert wilson(0, 10) == (0.0, pytest.approx(0.27753, abs=1e-5))
    assert wilson(10, 10) == (pytest.approx(0.72247, abs=1e-5), 1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mcts_beats_random_on_churn_side_3():
    r = play_match("churn(size=3)", ["mcts:200", "random"], games=10, seed=0)
    assert r.players[0].wins >= 8, r.table()


@pytest.mark.parametrize("spec", ["mcts:0", "foo", "mcts:", "mcts:-3", "mcts:1.5"])
def test_bad_player_spec(spec):
    with pytest.raises(ValueError, match="player spec"):
        parse_player(spec)


def test_wrong_number_of_players():
    with pytest.raises(ValueError, match="3 seats but 2 players"):
        play_match("wunchunk(size=7,players=3)", ["random", "random"], games=1)
    with pytest.raises(ValueError, match="games"):
        play_match("churn(size=3)", ["random", "random"], games=0)


def test_cli_json_shape(tmp_path):
    out = tmp_path / "m.json"
    p = _cli("match", "churn(size=3)", "--players", "mcts:20", "random", "--games", "4", "--json", str(out))
    assert p.returncode == 0, p.stderr
    assert "per player" in p.stdout and "per seat" in p.stdout and "95% CI" in p.stdout
    assert p.stderr == ""  # no progress bar when stderr is not a terminal
    d = json.loads(out.read_text())
    assert d["games"] == 4 and d["players_specs"] == ["mcts:20", "random"]
    assert len(d["players"]) == 2 and len(d["seats"]) == 2 and len(d["winners"]) == 4
    for rec in d["players"] + d["seats"]:
        assert set(rec) >= {"name", "games", "wins", "draws", "losses", "win_rate", "win_ci95", "draw_rate"}
        lo, hi = rec["win_ci95"]
        assert 0 <= lo <= rec["win_rate"] <= hi <= 1


@pytest.mark.parametrize("args", [["match", "churn(size=3)", "--players", "mcts:0", "random"],
                                  ["match", "churn(size=3)", "--players", "foo", "random"],
                                  ["match", "wunchunk(size=7,players=3)", "--players", "random", "random"],
                                  ["match", "churn(size=3)", "--players", "random", "random", "--games", "0"],
                                  ["play", "churn(size=3)", "--bot", "foo"],
                                  ["play", "churn(size=3)", "--human", "3"]])
def test_cli_bad_input_is_one_line(args):
    p = _cli(*args, stdin="")
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), p.stderr


def test_play_loop_scripted():
    inp = io.StringIO("zz9\nhint\nb2\nundo\nb2\nquit\n")
    out = io.StringIO()
    assert play_loop("churn(size=3)", bot="mcts:100", human=1, seed=0, inp=inp, out=out) == 0
    text = out.getvalue()
    assert "Traceback" not in text
    assert '"zz9" is not a cell of this board' in text  # the engine's reason
    assert "hint: " in text and "visit share" in text
    assert text.count("you play b2") == 2
    assert "took back" in text
    assert text.count("bot (player 2) plays") == 2
    assert text.rstrip().endswith("goodbye")


def test_play_undo_before_moving_swap_and_eof():
    inp = io.StringIO("undo\nswap\n")  # ends without quit
    out = io.StringIO()
    assert play_loop("churn(size=3)", bot="random", human=2, seed=0, inp=inp, out=out) == 0
    text = out.getvalue()
    assert "nothing to undo" not in text.split("bot (player 1) plays")[0]
    assert "nothing to undo" in text
    assert "you play swap" in text
    assert "end of input" in text


def test_play_to_the_end():
    moves = "\n".join(["hint"] + ["a1", "a2", "a3", "b1", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "c5",
                                  "d1", "d2", "d3", "d4", "e1", "e2", "e3"] * 8)
    out = io.StringIO()
    assert play_loop("churn(size=3,pie=false)", bot="mcts:20", human=1, inp=io.StringIO(moves), out=out) == 0
    text = out.getvalue()
    assert "game over" in text or "end of input" in text
    assert "Traceback" not in text


def test_cli_play_subprocess():
    p = _cli("play", "churn(size=3)", "--bot", "mcts:50", stdin="b2\nnonsense\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "you play b2" in p.stdout and "illegal:" in p.stdout and "goodbye" in p.stdout


@pytest.mark.parametrize("spec,kind,sims,secs,name", [
    ("mcts:time=0.05", "mcts", 0, 0.05, "mcts:time=0.05"),
    ("openspiel:200", "openspiel", 200, 0.0, "openspiel:200"),
    ("OpenSpiel:time=1", "openspiel", 0, 1.0, "openspiel:time=1"),
    ("mcts:1000", "mcts", 1000, 0.0, "mcts:1000"),
    ("mcts:1000,c=0.1", "mcts", 1000, 0.0, "mcts:1000,c=0.1"),
    ("mcts:time=0.5,c=0", "mcts", 0, 0.5, "mcts:time=0.5,c=0"),
])
def test_player_specs_with_time_and_openspiel(spec, kind, sims, secs, name):
    p = parse_player(spec)
    assert (p.kind, p.simulations, p.seconds, p.name) == (kind, sims, secs, name)
    assert parse_player(p.name) == p


def test_mcts_player_c_reaches_the_search(monkeypatch):
    import hexcore.match as hm
    seen = []
    real = hm.mcts

    def spy(*args, **kwargs):
        seen.append(kwargs.get("c"))
        return real(*args, **kwargs)

    monkeypatch.setattr(hm, "mcts", spy)
    play_match("churn(size=2)", ["mcts:20,c=0.25", "mcts:20"], games=1)
    assert set(seen) == {0.25, None}  # None: the game's default_c


@pytest.mark.parametrize("spec", ["openspiel:", "openspiel:0", "mcts:time=0", "mcts:time=-1", "mcts:time=abc",
                                  "openspiel:time=nan", "mcts:time=inf", "openspiel:time=", "openspiel",
                                  "mcts:10,c=-1", "mcts:10,c=nan", "mcts:10,x=1", "openspiel:10,c=1", "mcts:10,"])
def test_bad_time_and_openspiel_specs(spec):
    with pytest.raises(ValueError, match="bad player spec"):
        parse_player(spec)


def test_mcts_time_player_plays_whole_games():
    r = play_match("quintun(size=4)", ["mcts:time=0.005", "random"], games=2, seed=1)
    assert r.games == 2 and sum(p.games for p in r.players) == 4


def test_openspiel_player_plays_seeded_games():
    pytest.importorskip("pyspiel", reason="the openspiel player needs open_spiel (pyspiel), which is not installed")
    a = play_match("churn(size=2)", ["openspiel:20", "random"], games=2, seed=3)
    b = play_match("churn(size=2)", ["openspiel:20", "random"], games=2, seed=3)
    assert (a.winners, a.plies) == (b.winners, b.plies)  # simulation budgets are seeded
    assert sum(p.games for p in a.players) == 4
    r = play_match("quintun(size=4)", ["openspiel:time=0.005", "mcts:50"], games=2, seed=0)
    assert r.games == 2 and all(n > 0 for n in r.plies)
    # a Wunchunk multi-stone turn is played action by action
    w = play_match("wunchunk(size=5)", ["openspiel:5", "random"], games=1, seed=0)
    assert w.plies[0] > 0


def test_openspiel_player_without_open_spiel_is_a_clear_error(monkeypatch):
    import sys as _sys
    monkeypatch.setitem(_sys.modules, "open_spiel", None)
    monkeypatch.setitem(_sys.modules, "open_spiel.python", None)
    monkeypatch.setitem(_sys.modules, "open_spiel.python.algorithms", None)
    with pytest.raises(ImportError, match="the openspiel player needs the open_spiel package"):
        play_match("churn(size=2)", ["openspiel:10", "random"], games=1)


def test_openspiel_player_with_a_spent_time_budget_still_moves():
    """OpenSpiel's MCTS expands its root on the second simulation; a budget
    used up by the first (a tiny one, or a loaded machine) must still give a
    move instead of OpenSpiel's ``max() arg is an empty sequence``."""
    pytest.importorskip("pyspiel", reason="the openspiel player needs open_spiel (pyspiel), which is not installed")
    r = play_match("churn(size=2)", ["openspiel:time=1e-9", "random"], games=2, seed=1)
    assert sum(p.games for p in r.players) == 4


@pytest.mark.parametrize("spec,player", [("churn(size=4)", "mcts:time=20"), ("churn(size=4)", "solver:time=20"),
                                         ("churn(size=3,pie=false)", "solver:time=20")])
def test_a_cancelled_bot_stops_and_leaves_the_game(spec, player):
    import random
    import time

    import hexcore as hc
    from hexcore.match import Cancelled, play_player_turn

    g = hc.load(spec)
    t0 = time.perf_counter()
    with pytest.raises(Cancelled):
        play_player_turn(g, parse_player(player), random.Random(0), 0, 1, cancelled=lambda: time.perf_counter() - t0 > 0.2)
    assert time.perf_counter() - t0 < 5 and g == hc.load(spec) and not g.history


def test_load_agents_loads_each_agent_player_once():
    """The one loader of agent players (match and analysis): the ``agent``
    and ``az`` players by index, nothing for the others."""
    from hexcore import agents
    from hexcore.match import load_agents
    from hexcore.train.agent import AZAgent

    spec = agents.available()[0]
    got = load_agents([parse_player("random"), parse_player("agent:sims=4"), parse_player("mcts:10")], spec)
    assert list(got) == [1] and isinstance(got[1], AZAgent) and got[1].simulations == 4
    assert load_agents([parse_player("random")], spec) == {}


def test_play_game_stops_after_the_turns_asked():
    """``turns=N`` plays N whole turns of the same seeded game that
    ``play_game`` plays to the end."""
    import hexcore as hc
    from hexcore.match import play_game

    g0 = hc.load("churn(size=3)")
    players = [parse_player("mcts:20"), parse_player("random")]
    full = play_game(g0, players, [0, 1], 7, 3)
    for n in (0, 1, 3):
        part = play_game(g0, players, [0, 1], 7, 3, turns=n)
        assert part.history == full.history[:n]
    assert not g0.history
    with pytest.raises(ValueError, match="turns must be an int >= 0"):
        play_game(g0, players, [0, 1], 7, 3, turns=-1)


def test_match_results_do_not_depend_on_threads():
    """``threads`` plays games at once, each search on one thread: the
    same seed gives the same match on 1 and 2 threads and by default."""
    kw = dict(games=5, seed=3)
    one = play_match("churn(size=3)", ["mcts:20", "random"], threads=1, **kw).to_dict()
    two = play_match("churn(size=3)", ["mcts:20", "random"], threads=2, **kw).to_dict()
    default = play_match("churn(size=3)", ["mcts:20", "random"], **kw).to_dict()
    assert one | {"seconds": 0} == two | {"seconds": 0} == default | {"seconds": 0}
    with pytest.raises(ValueError, match="threads"):
        play_match("churn(size=3)", ["random", "random"], games=1, threads=0)


def test_threads_flag_means_the_same_in_every_command():
    """Every command with ``--threads`` gives it the one help text and the
    one default (None: one per core, resolved by the engine)."""
    import argparse

    from hexcore._args import THREADS_HELP
    from hexcore.cli import COMMANDS

    top = argparse.ArgumentParser()
    sub = top.add_subparsers(dest="cmd")
    for module in COMMANDS.values():
        module.add_parser(sub)
    with_threads = []
    for name, p in sub.choices.items():
        for action in p._actions:
            if "--threads" in action.option_strings:
                with_threads.append(name)
                assert action.help.startswith(THREADS_HELP + ": "), (name, action.help)
                if name != "train":  # train's flags default to the recipe, resolved when the run starts
                    assert p.parse_args(_minimal_args(name)).threads is None, name
    assert {"perft", "stats", "solve", "match", "play", "analyze", "train"} <= set(with_threads)


def _minimal_args(name):
    """The least a command's parser accepts (its required arguments)."""
    return {"perft": ["churn(size=2)", "--depth", "1"], "match": ["churn(size=2)", "--players", "random", "random"],
            "analyze": ["churn(size=2)", "--out", "x.html"]}.get(name, ["churn(size=2)"])
