"""Limits are checked once, in the core (``rust/core/src/limits.rs``), and
exported: every entry point that takes ``threads`` reads it there, with one
default and one message; the Python wrappers do not retype the numbers."""
import pathlib
import re

import pytest

import hexcore as hc
from hexcore import _core

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _entry_points():
    g = hc.Churn(size=2, pie=False)
    from hexcore.match import play_match
    from hexcore.vector import VecGame

    def vec_setter(t):
        VecGame("churn(size=2)", 2).threads = t

    return {
        "perft": lambda t: hc.perft(g, 1, threads=t),
        "random_playouts": lambda t: hc.random_playouts(g, 2, threads=t),
        "solve": lambda t: hc.solve(g, threads=t),
        "VecGame": lambda t: VecGame("churn(size=2)", 2, threads=t),
        "VecGame.threads": vec_setter,
        "mcts": lambda t: hc.search.mcts(g, simulations=2, threads=t),
        "MCTS": lambda t: hc.search.MCTS(g, threads=t),
        "play_match": lambda t: play_match("churn(size=2,pie=false)", ["random", "random"], games=1, threads=t),
        "check_threads": _core.check_threads,
    }


def test_one_default_thread_count():
    """Without ``threads`` every call uses the core's default."""
    assert hc.search.MCTS(hc.Churn(size=2)).threads == _core.default_threads() == _core.check_threads()
    assert hc.search.MCTS(hc.Churn(size=2), threads=3).threads == 3


def test_limits_are_the_core_constants():
    assert hc.MAX_THREADS == _core.MAX_THREADS == 256
    assert hc.MAX_DEPTH == _core.MAX_DEPTH == 100_000
    assert hc.MAX_PLAYOUTS == _core.MAX_PLAYOUTS == 2**40
    assert _core.MAX_ENVS == 2**24 and _core.MAX_TABLE_MB == 2**20 and _core.MAX_GAMES == 10**9
    assert 1 <= _core.default_threads() <= hc.MAX_THREADS


@pytest.mark.parametrize("name", sorted(_entry_points()))
def test_threads_checked_in_one_place(name):
    call = _entry_points()[name]
    call(None) if name != "VecGame.threads" else call(1)
    call(1)
    for bad in (0, -3, hc.MAX_THREADS + 1, 2**70):
        with pytest.raises(ValueError) as err:
            call(bad)
        # the value given, however wide (not a saturated 2**63 - 1)
        assert str(err.value) == f"threads must be between 1 and {hc.MAX_THREADS}, got {bad}", (name, bad)
    with pytest.raises(TypeError):
        call("2")


def test_depth_and_counts_checked_by_the_core():
    g = hc.Churn(size=2)
    with pytest.raises(ValueError, match=f"depth must be between 0 and {hc.MAX_DEPTH}"):
        hc.perft(g, hc.MAX_DEPTH + 1)
    with pytest.raises(ValueError, match=f"n must be between 0 and {hc.MAX_PLAYOUTS}"):
        hc.random_playouts(g, hc.MAX_PLAYOUTS + 1)
    for name, kwargs in [("seed", {"seed": -1}), ("seed", {"seed": 2**64}), ("max_plies", {"max_plies": -1})]:
        with pytest.raises(ValueError, match=f"{name} must be between 0 and {2**64 - 1}"):
            hc.random_playouts(g, 1, **kwargs)
    for kwargs in ({"seed": True}, {"seed": 1.5}, {"max_plies": "3"}):
        with pytest.raises(TypeError):
            hc.random_playouts(g, 1, **kwargs)
    assert len(hc.random_playouts(g, 3, seed=2**64 - 1, max_plies=2**64 - 1)) == 3


def _moved_checks():
    """Each argument a Python wrapper checked itself before, now checked by
    the core: (call, bad value, the core's message)."""
    from hexcore.analysis import analyze
    from hexcore.match import play_loop, play_match
    from hexcore.vector import VecGame

    g = hc.Churn(size=2, pie=False)
    spec = "churn(size=2,pie=false)"
    top = 2**64 - 1
    return [
        (lambda v: VecGame("hex(size=5)", num_envs=v), 1 << 25,
         f"num_envs must be between 1 and {2**24}, got {1 << 25}"),
        (lambda v: VecGame(["churn(size=2)"], num_envs=v), 0, f"num_envs must be between 1 and {2**24}, got 0"),
        (lambda v: VecGame("churn(size=2)", 2, max_plies=v), 0, f"max_plies must be between 1 and {top}, got 0"),
        (lambda v: hc.solve(g, max_nodes=v), 0, f"max_nodes must be between 1 and {2**63 - 1}, got 0"),
        (lambda v: hc.solve(g, table_mb=v), 2**20 + 1, f"table_mb must be between 1 and {2**20}, got {2**20 + 1}"),
        (lambda v: analyze(spec, games=v, progress=False), 0, f"games must be between 1 and {10**9}, got 0"),
        (lambda v: analyze(spec, seed=v, progress=False), -1, f"seed must be between 0 and {top}, got -1"),
        (lambda v: analyze(spec, playouts=v, progress=False), 0, f"playouts must be between 1 and {2**40}, got 0"),
        (lambda v: analyze(spec, max_nodes=v, progress=False), 2**63,
         f"max_nodes must be between 1 and {2**63 - 1}, got {2**63}"),
        (lambda v: play_match(spec, ["random", "random"], games=v), 0, f"games must be between 1 and {10**9}, got 0"),
        (lambda v: play_match(spec, ["random", "random"], games=1, seed=v), 2**64,
         f"seed must be between 0 and {top}, got {2**64}"),
        (lambda v: play_loop(spec, bot="random", seed=v), -5, f"seed must be between 0 and {top}, got -5"),
    ]


def _binding_checks():
    """Each argument that ``search`` and ``distributed`` checked in Python
    before, now checked where it enters the core: (call, bad value, the
    core's message)."""
    from hexcore import distributed
    from hexcore.search import MCTS, mcts

    g = hc.Churn(size=2, pie=False)
    i63, top = 2**63 - 1, 2**64 - 1
    return [
        (lambda v: mcts(g, simulations=v, threads=1), 0, f"simulations must be between 1 and {i63}, got 0"),
        (lambda v: MCTS(g, threads=1).search(v), 2**63, f"simulations must be between 1 and {i63}, got {2**63}"),
        (lambda v: mcts(g, simulations=2, max_rollout_plies=v), -1,
         f"max_rollout_plies must be between 0 and {top}, got -1"),
        (lambda v: MCTS(g, max_rollout_plies=v), 2**64, f"max_rollout_plies must be between 0 and {top}, got {2**64}"),
        (lambda v: mcts(g, simulations=2, max_nodes=v), 0, f"max_nodes must be between 1 and {2**32 - 1}, got 0"),
        (lambda v: MCTS(g, max_nodes=v), 2**32, f"max_nodes must be between 1 and {2**32 - 1}, got {2**32}"),
        (lambda v: distributed.perft(g, 1, tasks=v), 0, f"tasks must be between 1 and {10**6}, got 0"),
        (lambda v: distributed.random_playouts(g, 3, chunk=v), 2**40 + 1,
         f"chunk must be between 1 and {2**40}, got {2**40 + 1}"),
        (lambda v: distributed.map_games(str, v), -1, f"games must be between 1 and {10**9}, got -1"),
    ]


@pytest.mark.parametrize("index", range(len(_binding_checks())))
def test_binding_checks_give_the_core_message(index):
    call, bad, message = _binding_checks()[index]
    with pytest.raises(ValueError) as err:
        call(bad)
    assert str(err.value) == message
    name = message.split()[0]
    for wrong, kind in (("3", "str"), (1.5, "float"), (True, "bool")):
        with pytest.raises(TypeError) as err:
            call(wrong)
        assert str(err.value) == f"{name} must be an int, got {kind}"


def test_job_limits_are_the_core_constant():
    from hexcore import distributed

    assert distributed.MAX_JOB_TASKS == _core.MAX_JOB_TASKS == 10**6
    assert _core.check_arg("tasks", 10**6) == 10**6 and _core.check_arg("chunk", 2**40) == 2**40
    assert distributed.map_games(str, 0) == []


@pytest.mark.parametrize("index", range(len(_moved_checks())))
def test_moved_checks_give_the_core_message(index):
    call, bad, message = _moved_checks()[index]
    with pytest.raises(ValueError) as err:
        call(bad)
    assert str(err.value) == message
    name = message.split()[0]
    with pytest.raises(TypeError) as err:
        call("3")
    assert str(err.value) == f"{name} must be an int, got str"
    assert _core.check_arg(name, 1) == 1
    with pytest.raises(ValueError) as err:
        _core.check_arg(name, bad)
    assert str(err.value) == message


def test_check_arg_knows_only_the_core_checks():
    with pytest.raises(ValueError, match='no check for an argument named "size"'):
        _core.check_arg("size", 3)
    with pytest.raises(TypeError, match="^seed must be an int, got bool$"):
        _core.check_arg("seed", True)
    assert _core.check_arg("seed", 2**64 - 1) == 2**64 - 1


def test_python_wrappers_do_not_retype_the_limits():
    """The numbers live in the core; the wrappers pass the arguments on."""
    offenders = []
    for path in sorted((ROOT / "python" / "hexcore").rglob("*.py")):
        text = path.read_text()
        for pat in (r"MAX_THREADS\s*=\s*\d", r"MAX_DEPTH\s*=\s*\d", r'int_arg\("threads"', r'_int\("threads"',
                    r'"depth", depth, 0, 100_000', r"os\.cpu_count\(\)", r"threads\s*<=\s*256\b", r"between 1 and 256",
                    r"2\s*\*\*\s*40\b", r"1\s*<<\s*40\b", r"1\s*<<\s*2[04]\b", r"10\s*\*\*\s*9\b",
                    r'int_arg\("(num_envs|max_plies|max_nodes|table_mb|games|seed|playouts)"',
                    r"MAX_JOB_TASKS\s*=\s*\d", r"2\s*\*\*\s*32\s*-\s*1"):
            if re.search(pat, text):
                offenders.append((path.relative_to(ROOT).as_posix(), pat))
    assert not offenders, offenders


def test_int_arg_only_for_web_input():
    """Int arguments are the core's to check: only the web app's query
    strings (``serve/``) still read ints with ``_args.int_arg``."""
    users = [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "python" / "hexcore").rglob("*.py"))
             if "serve" not in path.parts and path.name != "_args.py" and re.search(r"\bint_arg\b", path.read_text())]
    assert not users, users
