"""OpenSpiel adapter (hexcore.openspiel): registration, state semantics, OpenSpiel's
own consistency checks, and OpenSpiel's MCTS beating a random player.

Needs the ``open_spiel`` wheel (``pip install open_spiel``); without it the whole
module is skipped, and says so.
"""
from __future__ import annotations

import pickle
import sys
import time
import types

import numpy as np
import pytest

import hexcore as hc

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel)")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

import hexcore.openspiel as hos  # noqa: E402
from hexcore._core import _rewards  # noqa: E402

SMALL = {"churn": "churn(size=3)", "wunchunk": "wunchunk(size=5)", "quintun": "quintun(size=5)", "hex": "hex(size=4,swap=true)",
         "havannah": "havannah(size=4,swap=true)", "y": "y(size=7)"}
SPECS = [SMALL[name] for name in ("churn", "wunchunk", "quintun", "hex", "havannah", "y") if name in hc.GAMES]

# (spec, MCTS simulations per action) for the MCTS-vs-random match
MATCHES = [(spec, sims) for spec, sims in (("churn(size=3)", 6), ("quintun(size=5)", 6))
           if spec.split("(")[0] in hc.GAMES]


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    for name in hc.GAMES:
        assert hos.short_name(name) in names
        game = pyspiel.load_game(hos.short_name(name))
        assert game.spec == hc.GAMES[name]().spec
        gtype = game.get_type()
        assert gtype.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert gtype.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert gtype.utility == pyspiel.GameType.Utility.ZERO_SUM


def test_load_game_specs_and_game_strings():
    g = hos.load_game("churn(sides=(3,4,3,4,3,4),pie=false)")
    assert g.spec == "churn(sides=(3,4,3,4,3,4),pie=false)"
    assert g.num_distinct_actions() == hc.load(g.spec).num_actions and g.num_players() == 2
    assert g.observation_tensor_shape() == list(hc.load(g.spec).observation_shape)
    # the game string OpenSpiel writes reads back to the same game
    again = pyspiel.load_game(str(g))
    assert again.spec == g.spec
    assert pyspiel.load_game("hexcore_churn(spec=churn[size:4])").spec == "churn(size=4)"
    assert pickle.loads(pickle.dumps(g)).spec == g.spec
    assert hos.decode_spec(hos.encode_spec(g.spec)) == g.spec
    with pytest.raises(ValueError):
        hos.load_game("churn(size=1)")
    with pytest.raises(ValueError):
        hos.load_game("nosuchgame(size=3)")


@pytest.mark.parametrize("spec", SPECS)
def test_openspiel_consistency_checks(spec):
    game = hos.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("spec", SPECS)
def test_state_follows_the_hexcore_game(spec):
    game = hos.load_game(spec)
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    ref = hc.load(spec)
    while not state.is_terminal():
        assert state.current_player() == ref.to_move - 1
        assert state.legal_actions() == ref.legal_actions().tolist()
        assert state.legal_actions(1 - state.current_player() if ref.num_players == 2 else -5) == []
        obs = np.asarray(state.observation_tensor(state.current_player()))
        assert np.array_equal(obs, ref.observation().ravel())
        a = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(state.current_player(), a) == ref.action_to_string(a)
        child = state.clone()
        child.apply_action(a)
        assert child.hexcore_game != state.hexcore_game or child.history() != state.history()
        state.apply_action(a)
        ref.apply_action(a)
        assert state.hexcore_game == ref and state.history() == [int(x) for x in ref.actions]
    assert ref.is_over and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == _rewards(ref.winners, ref.num_players)
    assert abs(sum(state.returns())) < 1e-12
    # a hexcore game handed to OpenSpiel mid-game
    mid = hc.load(spec)
    for a in ref.actions[:5]:
        mid.apply_action(int(a))
    s = hos.from_hexcore(mid)
    assert s.hexcore_game == mid and s.history() == [int(a) for a in ref.actions[:5]]
    assert s.hexcore_game is not mid


def test_set_up_positions_and_errors():
    g = hc.Churn.from_position({"c3": 1, "d2": 2}, to_move=1, size=3)
    s = hos.from_hexcore(g)
    assert s.hexcore_game == g and s.history() == []
    with pytest.raises(ValueError):
        hos.load_game("churn(size=4)").state_from_hexcore(g)
    st = hos.load_game("churn(size=3)").new_initial_state()
    st.apply_action(9)
    with pytest.raises(Exception):
        st.apply_action(9)  # occupied: the engine refuses, the state is unchanged
    assert st.history() == [9] and st.hexcore_game.history == ["c3"]


def test_str_identifies_the_state():
    # a1 a2 (Red to move) and a2 swap a1 (Blue to move) show the same board
    game = hos.load_game("churn(size=2)")
    a, b = game.new_initial_state(), game.new_initial_state()
    for state, moves in ((a, ["a1", "a2"]), (b, ["a2", "swap", "a1"])):
        for m in moves:
            state.apply_action(_action(state, m))
    assert a.hexcore_game.diagram() == b.hexcore_game.diagram()
    assert str(a) != str(b)
    assert "to move: player 1" in str(a) and "to move: player 2" in str(b)
    # a turn in progress is shown
    if "wunchunk" in hc.GAMES:
        w = hos.load_game("wunchunk(size=5)").new_initial_state()
        while not w.hexcore_game.pending_actions:
            w.apply_action(w.legal_actions()[0])
        assert "turn in progress: " in str(w)


def _action(state, move):
    g = state.hexcore_game
    for a in state.legal_actions():
        if g.action_to_string(a) == move:
            return a
    raise AssertionError(f"{move} is not legal")


def test_value_iteration_equals_the_solver_at_every_node(monkeypatch):
    """OpenSpiel's value_iteration keys states by str(state): on Churn side 2
    with the pie rule it must give the exact value of every game-tree node."""
    try:
        import cvxpy  # noqa: F401
    except ImportError:
        # value_iteration imports OpenSpiel's LP solver (which needs cvxpy) for
        # simultaneous-move games only; these games are sequential
        monkeypatch.setitem(sys.modules, "open_spiel.python.algorithms.lp_solver",
                            types.ModuleType("open_spiel.python.algorithms.lp_solver"))
    from open_spiel.python.algorithms import get_all_states, value_iteration

    game = hos.load_game("churn(size=2)")
    values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-9)
    nodes = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                          include_chance_states=False, to_string=lambda s: s.history_str())
    assert len(nodes) > 9000
    score = {"win": 1.0, "loss": -1.0, "draw": 0.0}
    wrong = []
    for history, state in nodes.items():
        g = state.hexcore_game
        if g.is_over:
            expected = state.returns()[0]
        else:
            sol = hc.solve(g, threads=1, table_mb=1, distances=False)
            assert sol.complete
            v = score[sol.value]
            expected = v if g.to_move == 1 else -v
        if abs(values[str(state)] - expected) > 1e-6:
            wrong.append((g.history, values[str(state)], expected))
    assert not wrong, f"{len(wrong)} of {len(nodes)} nodes wrong, e.g. {wrong[:3]}"


def _match(spec, sims, games=20):
    game = hos.load_game(spec)
    wins = 0
    for i in range(games):
        seat = i % 2  # alternate seats
        rng = np.random.RandomState(i)
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=sims,
                           evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                           random_state=rng)
        rnd = uniform_random.UniformRandomBot(1 - seat, np.random.RandomState(1000 + i))
        bots = [bot, rnd] if seat == 0 else [rnd, bot]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        wins += state.returns()[seat] > 0
    return wins


@pytest.mark.parametrize("spec,sims", MATCHES)
def test_mcts_beats_random(spec, sims):
    start = time.perf_counter()
    wins = _match(spec, sims)
    elapsed = time.perf_counter() - start
    assert wins >= 14, f"MCTS won only {wins} of 20 against uniform random on {spec}"
    assert elapsed < 120, f"the match took {elapsed:.0f} s"


@pytest.mark.parametrize("spec", SPECS + [s for s in ["wunchunk(size=7,players=3)", "quintun(size=7)"]
                                          if s.split("(")[0] in hc.GAMES])
def test_max_game_length_is_true(spec):
    """AlphaZero allocates by max_game_length(): it is a true bound, not 10**9."""
    game = hos.load_game(spec)
    bound = game.max_game_length()
    assert bound < 10**6
    proven = hos.game_length_bound(hc.load(spec))
    if proven is not None:
        assert bound == proven and game.cut is None
        lengths = hc.random_playouts(hc.load(spec), 300, seed=5).actions
        assert lengths.max() <= bound
    else:
        assert bound == hos.CUTOFF and game.cut == bound
    # a game string with the bound reads back
    assert pyspiel.load_game(str(game)).max_game_length() == bound


def test_a_game_is_cut_at_max_game_length():
    game = hos.load_game("churn(size=4)", max_game_length=30)
    assert game.max_game_length() == 30 and game.cut == 30
    rng = np.random.default_rng(1)
    cut = 0
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        assert len(state.history()) <= 30
        if state.is_cut():
            cut += 1
            assert len(state.history()) == 30 and not state.hexcore_game.is_over
            assert state.returns() == [0.0, 0.0] and "cut" in str(state)
            assert state.legal_actions() == []
    assert cut > 0  # random Churn on side 4 runs hundreds of actions
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(ValueError, match="max_game_length"):
        hos.load_game("churn(size=3)", max_game_length=-1)


def test_launcher_runs_an_openspiel_example(tmp_path):
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "hexcore.openspiel", "open_spiel.python.examples.mcts",
           "--game=hexcore_churn(spec=churn[size:2])", "--player1=mcts", "--player2=random",
           "--max_simulations=20", "--num_games=2", "--quiet", "--seed=1"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Number of games played: 2" in out.stdout + out.stderr
    usage = subprocess.run([sys.executable, "-m", "hexcore.openspiel", "--help"], capture_output=True, text=True)
    assert usage.returncode == 0 and "hexcore_churn" in usage.stdout
