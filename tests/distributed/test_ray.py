"""The Ray backend against a local cluster of two raylets (a head node and a
worker node, one CPU each, as ``ray.cluster_utils.Cluster`` starts them):
the results equal the local run, arguments are checked on the driver exactly
as locally, interrupted or failing jobs resume from their checkpoint, and
training goes on when the worker node is lost.

Ray's servers listen on every interface of the machine, so the tests that
start one run only inside a private network namespace holding just the
loopback device: ``scripts/test.sh`` runs this file a second time under
``scripts/in-private-network``. The argument checks start nothing and run in
both passes.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import hexcore as hc

ray = pytest.importorskip("ray", reason="the Ray backend tests need the 'ray' package (pip install 'hexcore[ray]')")
from hexcore import distributed  # noqa: E402


def _private_network() -> bool:
    """Whether this process's network namespace holds only the loopback device."""
    try:
        return {name for _, name in socket.if_nameindex()} <= {"lo"}
    except OSError:
        return False


@pytest.fixture(scope="module")
def local_ray():
    """A local cluster of two raylets, one CPU each, joined by this process;
    yields the ``Cluster`` (its ``worker`` attribute: the worker node)."""
    if not _private_network():
        pytest.skip("starts a local Ray: runs in the private-network pass of scripts/test.sh "
                    "(bash scripts/in-private-network python3 -m pytest tests/distributed/test_ray.py)")
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args=dict(num_cpus=1, node_ip_address="127.0.0.1",
                                                                include_dashboard=False))
    cluster.worker = cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
    ray.init(address=cluster.address, log_to_driver=False)
    cluster.wait_for_nodes()
    yield cluster
    ray.shutdown()
    cluster.shutdown()


def _mid_game(spec, n, seed=0):
    """A position ``n`` random whole moves into a game of ``spec``."""
    g = hc.load(spec)
    rng = np.random.default_rng(seed)
    for _ in range(n):
        if g.is_over:
            break
        g.apply_action(int(rng.choice(g.legal_actions())))
        while g.pending_actions and not g.is_over:
            g.apply_action(int(rng.choice(g.legal_actions())))
    return g


POSITIONS = [
    ("churn(size=3)", 0, 4),
    ("churn(size=4)", 3, 3),
    ("quintun(size=4)", 0, 3),
    ("quintun(size=4)", 4, 3),
    ("wunchunk(size=5)", 0, 3),
    ("wunchunk(size=7,players=3)", 2, 2),
    ("wunchunk(size=6,start=open,balance='none')", 0, 1),
    ("wunchunk(size=5,start=open,balance='none')", 0, 2),
]


@pytest.mark.parametrize("spec,plies,depth", POSITIONS)
@pytest.mark.parametrize("unit", ["move", "action"])
def test_perft_matches_local(local_ray, spec, plies, depth, unit):
    g = _mid_game(spec, plies)
    want = hc.perft(g, depth, unit=unit)
    # Few and many tasks: the split goes one or several levels down,
    # through turns in progress.
    for tasks in (1, 3, 40):
        assert distributed.perft(g, depth, unit=unit, tasks=tasks, progress=False) == want, tasks
    rows = distributed.perft(g, depth, unit=unit, divide=True, tasks=7, progress=False)
    assert rows == hc.perft(g, depth, unit=unit, divide=True)


def test_trivial_perft(local_ray):
    g = hc.Churn(size=3)
    assert distributed.perft(g, 0) == 1
    assert distributed.perft(g, 0, divide=True) == []
    over = hc.Churn(size=3)
    while not over.is_over:
        over.play(over.legal_moves()[0])
    assert distributed.perft(over, 3) == 0 == hc.perft(over, 3)


def _error(fn, *args, **kwargs):
    with pytest.raises(Exception) as e:
        fn(*args, **kwargs)
    return type(e.value), str(e.value), getattr(e.value, "reason", None)


@pytest.mark.parametrize("kwargs", [
    {"depth": True}, {"depth": -1}, {"depth": 2.0}, {"depth": 100_001}, {"depth": 2, "unit": "turn"},
    {"depth": 2, "threads": 0}, {"depth": 2, "threads": 257}, {"depth": 2, "threads": True},
])
def test_perft_arguments_checked_as_locally(kwargs):
    # No Ray needed: the checks run on the driver before anything starts.
    g = hc.Churn(size=3)
    assert _error(distributed.perft, g, **kwargs) == _error(hc.perft, g, **kwargs)


@pytest.mark.parametrize("kwargs", [
    {"n": True}, {"n": -1}, {"n": 2**41}, {"n": 5, "seed": -1}, {"n": 5, "seed": 2**64}, {"n": 5, "threads": 0},
    {"n": 5, "max_plies": -2}, {"n": 5, "threads": 1.5},
])
def test_playout_arguments_checked_as_locally(kwargs):
    g = hc.Churn(size=3)
    assert _error(distributed.random_playouts, g, **kwargs) == _error(hc.random_playouts, g, **kwargs)


def test_turn_in_progress_refused_as_locally():
    g = hc.Wunchunk(size=6, start="open", balance="none")
    g.apply_action(int(g.legal_actions()[0]))
    assert g.pending_actions
    for unit in ("move", "action"):
        err = _error(distributed.perft, g, 1, unit=unit)
        assert err == _error(hc.perft, g, 1, unit=unit)
        assert err[0] is hc.IllegalMoveError and err[2] == "mid_turn"
    assert _error(distributed.random_playouts, g, 3) == _error(hc.random_playouts, g, 3)


def test_job_arguments_checked():
    g = hc.Churn(size=3)
    with pytest.raises(ValueError, match="tasks must be between 1"):
        distributed.perft(g, 3, tasks=0)
    with pytest.raises(TypeError, match="ray_options must be a dict"):
        distributed.perft(g, 3, ray_options=["num_cpus"])
    with pytest.raises(TypeError, match="callback must be callable"):
        distributed.random_playouts(g, 3, callback=5)
    with pytest.raises(ValueError, match="chunk must be between 1"):
        distributed.random_playouts(g, 3, chunk=0)
    with pytest.raises(ValueError, match="give a larger chunk"):
        distributed.random_playouts(g, 2**40, chunk=1)  # refused before anything is allocated
    with pytest.raises(TypeError, match="summary must be"):
        distributed.random_playouts(g, 3, summary="yes")


@pytest.mark.parametrize("spec", ["churn(size=4)", "quintun(size=5)", "wunchunk(size=7,players=3)"])
def test_playouts_match_local(local_ray, spec):
    g = hc.load(spec)
    want = hc.random_playouts(g, 2500, seed=9, max_plies=40 if spec.startswith("wunchunk") else None)
    kw = {"max_plies": 40} if spec.startswith("wunchunk") else {}
    got = distributed.random_playouts(g, 2500, seed=9, chunk=333, progress=False, **kw)
    for k in ("plies", "actions", "winner_mask", "finished"):
        assert np.array_equal(getattr(got, k), getattr(want, k)), k
    assert got.num_players == g.num_players
    s = distributed.random_playouts(g, 2500, seed=9, summary=True, tasks=5, progress=False, **kw)
    assert s == want.summary()
    assert len(distributed.random_playouts(g, 0)) == 0


def test_seed_ranges_wrap_as_locally(local_ray):
    g = hc.Churn(size=3)
    seed = 2**64 - 700
    got = distributed.random_playouts(g, 1500, seed=seed, chunk=500, progress=False)
    assert np.array_equal(got.plies, hc.random_playouts(g, 1500, seed=seed).plies)


def test_summary_is_the_default_for_large_runs(local_ray, monkeypatch):
    monkeypatch.setattr(distributed, "SUMMARY_ABOVE", 100)
    g = hc.Churn(size=3)
    s = distributed.random_playouts(g, 300, seed=2, progress=False)
    assert isinstance(s, hc.PlayoutSummary) and s == hc.random_playouts(g, 300, seed=2).summary()
    assert isinstance(distributed.random_playouts(g, 300, seed=2, summary=False, progress=False), hc.Playouts)


def test_progress_callback(local_ray):
    g = hc.Churn(size=4)
    seen = []
    r = distributed.perft(g, 4, tasks=6, callback=seen.append, progress=False)
    assert [p.done for p in seen] == list(range(1, len(seen) + 1))
    assert seen[-1].total == len(seen) and seen[-1].failed == 0 and seen[-1].partial == r == hc.perft(g, 4)
    seen.clear()
    s = distributed.random_playouts(g, 4000, seed=1, chunk=1000, summary=True, callback=seen.append, progress=False)
    assert [p.partial.games for p in seen][-1] == 4000 and seen[-1].partial == s


def test_cancelled_run_resumes_from_checkpoint(local_ray, tmp_path):
    g = hc.Quintun(size=4)
    path = tmp_path / "perft.jsonl"

    def stop_after_two(p):
        if p.done >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        distributed.perft(g, 4, unit="action", divide=True, tasks=8, checkpoint=path, callback=stop_after_two,
                          progress=False)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["job"]["depth"] == 4 and len(lines) - 1 == 2
    seen = []
    rows = distributed.perft(g, 4, unit="action", divide=True, checkpoint=path, callback=seen.append, progress=False)
    assert rows == hc.perft(g, 4, unit="action", divide=True)
    assert seen[0].done == 3 and seen[-1].done == seen[-1].total == 8  # two units were not run again
    # The finished file replays without running anything.
    assert distributed.perft(g, 4, unit="action", divide=True, checkpoint=path, progress=False) == rows


def test_failing_unit_is_reported_and_the_rest_kept(local_ray, tmp_path):
    g = hc.Churn(size=4)
    path = tmp_path / "games.jsonl"
    fault = {"runtime_env": {"env_vars": {distributed.FAULT_ENV: "2"}}, "max_retries": 0}
    with pytest.raises(distributed.JobError) as e:
        distributed.random_playouts(g, 5000, seed=4, chunk=1000, summary=True, checkpoint=path, ray_options=fault,
                                    progress=False)
    assert len(e.value.failed) == 1 and "games 2000..2999" in e.value.failed[0][0]
    assert e.value.partial.games == 4000
    assert "failed on purpose" in str(e.value)
    done = [json.loads(x)["unit"] for x in path.read_text().splitlines()[1:]]
    assert sorted(done) == [0, 1, 3, 4]
    seen = []
    s = distributed.random_playouts(g, 5000, seed=4, chunk=1000, summary=True, checkpoint=path,
                                    callback=seen.append, progress=False)
    assert len(seen) == 1 and s == hc.random_playouts(g, 5000, seed=4).summary()


def test_failing_perft_unit_names_its_subtrees(local_ray):
    g = hc.Churn(size=3)
    fault = {"runtime_env": {"env_vars": {distributed.FAULT_ENV: "0"}}, "max_retries": 0}
    with pytest.raises(distributed.JobError) as e:
        distributed.perft(g, 4, tasks=4, ray_options=fault, progress=False)
    assert e.value.failed[0][0].startswith("task 0 (subtrees after ")
    assert 0 < e.value.partial < hc.perft(g, 4)


def test_checkpoint_of_another_job_is_refused(local_ray, tmp_path):
    g = hc.Churn(size=3)
    path = tmp_path / "run.jsonl"
    distributed.perft(g, 3, checkpoint=path, tasks=2, progress=False)
    with pytest.raises(ValueError, match="checkpoint of another job"):
        distributed.perft(g, 4, checkpoint=path, progress=False)
    with pytest.raises(ValueError, match="tasks=2"):
        distributed.perft(g, 3, checkpoint=path, tasks=3, progress=False)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    with pytest.raises(ValueError, match="not a hexcore checkpoint"):
        distributed.perft(g, 3, checkpoint=bad, progress=False)


def test_worker_version_is_checked(local_ray, monkeypatch):
    monkeypatch.setattr(distributed, "__version__", "0.0.0-other")
    with pytest.raises(RuntimeError, match="install the same version on every node"):
        distributed.perft(hc.Churn(size=3), 3, progress=False)


def test_command_line(local_ray, capsys):
    from hexcore.__main__ import main

    assert main(["stats", "churn(size=3)", "--games", "3000", "--seed", "5", "--ray"]) == 0
    ray_out = capsys.readouterr().out.splitlines()
    assert main(["stats", "churn(size=3)", "--games", "3000", "--seed", "5"]) == 0
    local_out = capsys.readouterr().out.splitlines()
    assert ray_out[1:] == local_out[1:]  # all but the timing line
    assert main(["perft", "churn(size=3)", "-d", "4", "--ray", "--divide"]) == 0
    ray_rows = capsys.readouterr().out.split("Nodes searched")
    assert main(["perft", "churn(size=3)", "-d", "4", "--divide"]) == 0
    assert ray_rows[0] == capsys.readouterr().out.split("Nodes searched")[0]


def test_use_with_ray_example(local_ray):
    from tests.support.use_with import examples, run

    blocks = examples()["Ray"]
    assert blocks
    for i, code in enumerate(blocks):
        run(code, f"Ray_{i}")


def test_without_address_a_private_ray_starts():
    # The last `ray start` on a machine records its address in
    # $RAY_TMPDIR/ray/ray_current_cluster, and ray.init() without an address
    # joins that cluster. Record one that does not answer (in a temporary
    # directory of our own, not the machine's): a job without `address`
    # must start its own Ray and never try it.
    if not _private_network():
        pytest.skip("starts a local Ray: runs in the private-network pass of scripts/test.sh")
    tmp = tempfile.mkdtemp(prefix="hxr", dir="/tmp")  # short: Ray's socket paths must fit 107 bytes
    try:
        os.makedirs(os.path.join(tmp, "ray"))
        with open(os.path.join(tmp, "ray", "ray_current_cluster"), "w") as f:
            f.write("127.0.0.1:9\n")
        env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
        env["RAY_TMPDIR"] = tmp
        code = ("import hexcore as hc; from hexcore import distributed\n"
                "g = hc.Churn(size=3)\n"
                "print(distributed.perft(g, 2, tasks=2, progress=False) == hc.perft(g, 2))\n")
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr[-3000:]
        assert out.stdout.strip().splitlines()[-1] == "True"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_analyze_on_ray_gives_the_local_report(local_ray):
    from hexcore.analysis import analyze

    # the games of every phase go to Ray: the levels, the ladder match and an mcts swap map
    kw = dict(games=3, ladder="random,mcts:8", swap_map="mcts:4", playouts=3000, seed=5, progress=False)
    on_ray, local = analyze("churn(size=2)", ray=True, **kw), analyze("churn(size=2)", **kw)
    assert on_ray.metrics == local.metrics
    assert on_ray.ladder == local.ladder and on_ray.swap_map == local.swap_map
    assert set(local.metrics) == {"random", "mcts:8"} and len(local.swap_map) > 1


# ---------------------------------------------------------------- training: self-play actors on Ray

def _train_config(out, **kw):
    from hexcore.train import TrainConfig

    base = dict(spec="churn(size=2,pie=false)", out=str(out), steps=8, threads=1, seed=3, net="mlp", channels=8,
                blocks=1, games=4, simulations=4, batch=16, reuse=2.0, eval_every=0, labelled=0, plots=False,
                ray=True, actors=2)
    base.update(kw)
    return TrainConfig(**base)


def test_train_on_ray_checkpoints_and_resumes(local_ray, tmp_path):
    """Two actors play while the driver trains: a checkpoint, metrics rows
    that say which actor played with weights how old, and a resume (from
    the command line) that goes on to the new step count."""
    from hexcore.__main__ import main
    from hexcore.train import load_checkpoint, load_evaluator, train

    with pytest.raises(ValueError, match="--actors 3 of --threads 1 need 3 CPUs; the Ray cluster has 2"):
        train(_train_config(tmp_path / "big", actors=3), log=lambda s: None)
    assert not (tmp_path / "big").exists()
    out = tmp_path / "run"
    lines = []
    r = train(_train_config(out), log=lines.append)
    assert r["step"] == 8 and load_checkpoint(str(out))["step"] == 8
    assert any(x.startswith("self-play on 2 Ray actors") for x in lines)
    rows = [json.loads(x) for x in open(out / "metrics.jsonl")]
    played = [x for x in rows if x["kind"] == "selfplay"]
    assert played and all(x["actor"] in (0, 1) and x["weights_age"] >= 0 and x["publish_bytes"] > 0 for x in played)
    assert all(x["positions_per_second"] > 0 and x["positions_per_second_total"] > 0 for x in played)
    trained = [x for x in rows if x["kind"] == "train"]
    assert trained and all(x["steps_per_second"] > 0 and x["replay_ratio"] > 0 for x in trained)
    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--resume", "--steps", "12", "--ray",
                 "--actors", "2"]) == 0
    data = load_checkpoint(str(out))
    assert data["step"] == 12 and data["config"]["ray"] and data["config"]["net"] == "mlp"
    g = hc.Churn(size=2, pie=False)
    p, v = load_evaluator(str(out))(g.observation()[None], g.legal_action_mask()[None])
    assert p.shape == (1, g.num_actions) and v.shape == (1, 2)


@pytest.fixture
def pools(monkeypatch):
    """The actor pools a training run makes, recorded as they are made."""
    from hexcore.train import actors

    made = []

    class Pool(actors.ActorPool):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            made.append(self)

    monkeypatch.setattr(actors, "ActorPool", Pool)
    return made


def test_train_on_ray_goes_on_when_an_actor_is_killed(local_ray, tmp_path, pools):
    """SIGKILL to an actor in the middle of a generation: the driver drops
    that generation, Ray restarts the actor, the restarted actor sends
    generations again while training goes on, and the checkpoint (written
    on Ctrl-C, sent here once the restarted actor is back) reads."""
    import signal

    from hexcore.train import load_checkpoint, load_evaluator, train

    killed, lines = [], []

    def log(line):
        lines.append(line)
        if not line.startswith("gen "):
            return
        pool = pools[0]
        i = pool.run.last_selfplay["actor"]
        if not killed:
            # given its next generation already: killed in the middle of it
            killed.append((i, int(pool.where[i].split()[1]), pool.run.last_selfplay["step"]))
            os.kill(killed[0][1], signal.SIGKILL)
        elif i == killed[0][0] and any(" lost: " in x for x in lines):
            raise KeyboardInterrupt   # the restarted actor is back

    out = tmp_path / "kill"
    with pytest.raises(KeyboardInterrupt):
        train(_train_config(out, steps=100_000, minutes=10), log=log)
    lost = [x for x in lines if " lost: " in x]
    assert len(lost) == 1 and f"actor {killed[0][0]} (pid {killed[0][1]} " in lost[0] and "Ray restarts it" in lost[0]
    rows = [json.loads(x) for x in open(out / "metrics.jsonl") if '"selfplay"' in x]
    assert rows[-1]["actors_lost"] == 1 and rows[-1]["actor"] == killed[0][0]
    assert not rows[-1]["where"].startswith(f"pid {killed[0][1]} on {socket.gethostname()}, node ")  # a new process
    data = load_checkpoint(str(out))
    assert data["step"] > killed[0][2]
    g = hc.Churn(size=2, pie=False)
    p, _ = load_evaluator(str(out))(g.observation()[None], g.legal_action_mask()[None])
    assert p.shape == (1, g.num_actions)


def test_train_on_ray_goes_on_when_a_node_is_lost(local_ray, tmp_path, pools):
    """The worker node (its raylet and the actor on it) removed from the
    cluster in the middle of a run: that actor's generation is lost, its
    restart waits for a CPU the cluster no longer has, and the actor on the
    head node goes on feeding the learner; the checkpoint reads. The node
    comes back at the end, for the tests after this one."""
    from hexcore.train import load_checkpoint, load_evaluator, train

    lines, after = [], []
    removed = []

    def log(line):
        lines.append(line)
        if not line.startswith("gen "):
            return
        pool = pools[0]
        if not removed:
            on_worker = [i for i, w in enumerate(pool.where) if w.endswith(f", node {local_ray.worker.node_id[:8]}")]
            if not on_worker:
                return   # wait until the worker node's actor has sent a generation
            removed.append((on_worker[0], pool.run.last_selfplay["step"]))
            local_ray.remove_node(local_ray.worker)
        elif any(" lost: " in x for x in lines):
            after.append(pool.run.last_selfplay["actor"])
            if len(after) == 3:
                raise KeyboardInterrupt

    out = tmp_path / "node"
    try:
        with pytest.raises(KeyboardInterrupt):
            train(_train_config(out, steps=100_000, minutes=10), log=log)
    finally:
        if removed:
            local_ray.worker = local_ray.add_node(num_cpus=1, node_ip_address="127.0.0.1")
            local_ray.wait_for_nodes()
    assert removed, "no generation came from the worker node's actor"
    lost = [x for x in lines if " lost: " in x]
    assert len(lost) == 1 and lost[0].startswith(f"actor {removed[0][0]} ")
    assert after == [1 - removed[0][0]] * 3   # the head node's actor alone, on and on
    data = load_checkpoint(str(out))
    assert data["step"] > removed[0][1]
    g = hc.Churn(size=2, pie=False)
    p, _ = load_evaluator(str(out))(g.observation()[None], g.legal_action_mask()[None])
    assert p.shape == (1, g.num_actions)


@pytest.mark.parametrize("flags,message", [
    (["--ray", "--actors", "0"], "--actors must be at least 1"),
    (["--ray", "--address", "127.0.0.1:9"], "--address 127.0.0.1:9: nothing answers at 127.0.0.1:9"),
    (["--actors", "2"], "--address and --actors need --ray"),
    (["--ray", "--address", " "], "--address must be a non-empty string"),
])
def test_train_on_ray_bad_arguments_before_anything_is_written(tmp_path, capsys, flags, message):
    # no Ray is started: these run in both passes
    from hexcore.__main__ import main

    out = tmp_path / "bad"
    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--steps", "1", *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: " + message) and err.count("\n") == 1, err
    assert not out.exists()


def test_train_ray_without_the_ray_package(tmp_path, capsys, monkeypatch):
    from hexcore.__main__ import main

    monkeypatch.setitem(sys.modules, "ray", None)   # import ray fails, as where it is not installed
    out = tmp_path / "noray"
    assert main(["train", "churn(size=2,pie=false)", "--out", str(out), "--steps", "1", "--ray"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --ray needs the ray package") and "pip install 'hexcore[ray]'" in err
    assert err.count("\n") == 1 and not out.exists()
