"""hexcore.agents: the shipped agents, the NumPy forward pass (equal to
PyTorch's on every architecture), export, and the ``agent`` and ``solver``
player specs."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, List

import numpy as np
import pytest

import hexcore as hc
from hexcore import agents
from hexcore.match import parse_player, play_match


def _random_position(g0: Any, rng: Any, most: int) -> Any:
    """``g0`` after 0..most-1 random actions, or None where the game ended."""
    g = g0.copy()
    for _ in range(int(rng.integers(0, most))):
        acts = g.legal_actions()
        g.apply_action(int(acts[rng.integers(len(acts))]))
        if g.is_over:
            return None
    return g


def _positions(spec: str, n: int = 8, seed: int = 0) -> List[Any]:
    g0 = hc.load(spec)
    rng = np.random.default_rng(seed)
    out: List[Any] = []
    while len(out) < n:
        g = _random_position(g0, rng, 12)
        if g is not None:
            out.append(g)
    return out


@pytest.mark.parametrize("net", ["mlp", "resnet"])
@pytest.mark.parametrize("spec,features", [("hex(size=5)", "none"), ("hex(size=5)", "edges"), ("hex(size=6)", "edges"),
                                           ("quintun(size=5)", "none"), ("quintun(size=5)", "colours"),
                                           ("wunchunk(size=7,players=3)", "none")])
def test_numpy_forward_equals_torch(spec: str, features: str, net: str) -> None:
    torch = pytest.importorskip("torch")
    from hexcore.train.export import network_arrays
    from hexcore.train.torchnet import TorchLearner, colour_geometry, edge_geometry

    g = hc.load(spec)
    cfg = {"shape": list(g.observation().shape), "num_actions": int(g.num_actions), "players": int(g.num_players),
           "net": net, "channels": 16, "blocks": 2}
    if features == "edges":
        cfg.update(features="edges", **edge_geometry(g))
    if features == "colours":
        cfg.update(features="colours", **colour_geometry(g))
    learner = TorchLearner(cfg, seed=1)
    gen = torch.Generator().manual_seed(0)
    for m in learner.net.modules():   # BatchNorm statistics away from the identity, so that folding them is tested
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.rand(m.running_mean.shape, generator=gen) - 0.5)
            m.running_var.copy_(torch.rand(m.running_var.shape, generator=gen) + 0.5)
            m.weight.data.copy_(torch.rand(m.weight.shape, generator=gen) + 0.5)
            m.bias.data.copy_(torch.rand(m.bias.shape, generator=gen) - 0.5)
    games = _positions(spec)
    obs = np.stack([x.observation() for x in games]).astype(np.float32)
    masks = np.stack([x.legal_action_mask() for x in games])
    p1, v1 = learner(obs, masks)
    p2, v2 = agents.NumpyNetwork(network_arrays(learner, {"spec": spec}))(obs, masks)
    np.testing.assert_allclose(p2, p1, atol=2e-6)
    np.testing.assert_allclose(v2, v1, atol=2e-6)
    assert (p2[~masks] == 0).all()


def test_edge_planes_find_the_winning_cells() -> None:
    """The ``edges`` layer's cells that join the mover's two sides are
    exactly the moves that win at once (the engine's word), the stones it
    joins to a side are the stones of groups touching it, and the same
    planes for the opponent's sides are the cells the mover must block."""
    from hexcore.agents.network import edge_planes
    from hexcore.train.torchnet import edge_geometry

    rng = np.random.default_rng(1)
    checked = 0
    for size in (3, 4, 5, 6):
        g0 = hc.Hex(size=size)
        geo = edge_geometry(g0)
        base = g0.observation().shape[0]
        for _ in range(60):
            g = _random_position(g0, rng, size * size)
            if g is None:
                continue
            f = edge_planes(g.observation()[None].astype(np.float32), **geo)[0, base:].reshape(12, -1)
            k = g.to_move - 1
            joins_mine, joins_theirs = f[3 * k + 2], f[6 + 3 * (1 - k) + 2]
            wins, blocks = set(), set()
            for a in g.legal_actions():
                if a >= size * size:
                    continue
                h = g.copy()
                h.apply_action(int(a))
                if h.is_over:
                    wins.add(int(a))
            # the opponent's winning cells, found by letting the opponent move instead (a position with colours
            # swapped is not reachable, so: the cells whose stone of the opponent's colour joins its two sides)
            for a in range(size * size):
                if g.observation()[0].reshape(-1)[a] or g.observation()[1].reshape(-1)[a]:
                    continue
                stones = set(np.nonzero(g.observation()[1].reshape(-1))[0].tolist()) | {a}
                sides = geo["pairs"][1 - k]
                seen, todo = set(), [c for c in sides[0] if c in stones]
                while todo:
                    c = todo.pop()
                    if c in seen:
                        continue
                    seen.add(c)
                    todo += [int(x) for x in geo["neighbors"][c] if x in stones]
                if seen & set(sides[1]):
                    blocks.add(a)
            assert set(np.nonzero(joins_mine)[0].tolist()) == wins
            assert set(np.nonzero(joins_theirs)[0].tolist()) == blocks
            checked += 1
    assert checked > 150
    with pytest.raises(ValueError, match="features='edges' needs a connection game"):
        edge_geometry(hc.Churn(size=3))


def test_colour_planes_count_the_colours_each_group_touches() -> None:
    """The ``colours`` layer against a plain flood fill over the engine's
    cells: for both seats, the stones joined to each neutral colour, the
    colours each stone's group touches and the colours a stone would touch
    on each empty cell; and a Stone move on a cell where the mover's stone
    would touch four colours wins at once (the engine's word)."""
    from hexcore.agents.network import colour_planes
    from hexcore.train.torchnet import colour_geometry

    rng = np.random.default_rng(2)
    checked = wins = 0
    for size in (4, 5):
        g0 = hc.Quintun(size=size)
        geo = colour_geometry(g0)
        n, base = int(g0.board.num_cells), g0.observation().shape[0]
        nb = [[int(j) for j in g0.board.neighbors(i)] for i in range(n)]
        for _ in range(80):
            g = _random_position(g0, rng, 45)
            if g is None:
                continue
            obs = g.observation()
            f = colour_planes(obs[None].astype(np.float32), **geo)[0, base:].reshape(14, -1)[:, geo["cells"]]
            cells = g.cells()
            for k, seat in enumerate((g.to_move, 3 - g.to_move)):
                mine = {c for c in range(n) if cells[c] == seat}
                seen: dict = {}
                for c in sorted(mine):   # each group's colours (neutral k is cell value -k)
                    if c in seen:
                        continue
                    group, todo = set(), [c]
                    while todo:
                        d = todo.pop()
                        if d not in group:
                            group.add(d)
                            todo += [e for e in nb[d] if e in mine]
                    touch = {-int(cells[e]) for d in group for e in nb[d] if cells[e] < 0}
                    for d in group:
                        seen[d] = touch
                for c in range(n):
                    joined = {col for col in range(1, 6) if f[5 * k + col - 1, c] > 0}
                    assert joined == seen.get(c, set())
                    assert f[10 + k, c] == pytest.approx(len(seen.get(c, ())) / 5)
                    if cells[c] == 0:
                        touch = {-int(cells[e]) for e in nb[c] if cells[e] < 0}.union(*[seen[e] for e in nb[c] if e in seen])
                        assert f[12 + k, c] == pytest.approx(len(touch) / 5)
                    else:
                        assert f[12 + k, c] == 0
            for a in g.legal_actions():   # the Stone moves onto a cell that touches four colours or five
                h = g.copy()
                h.apply_action(int(a))
                placed = [c for c in range(n) if cells[c] == 0 and h.cells()[c] == g.to_move]
                if placed and f[12, placed[0]] >= 0.8 - 1e-6:
                    assert h.is_over and g.to_move in h.winners
                    wins += 1
            checked += 1
    assert checked > 100 and wins > 0
    with pytest.raises(ValueError, match="features='colours' needs"):
        colour_geometry(hc.Hex(size=5))


def test_export_round_trip_plays_as_az(tmp_path: Any) -> None:
    pytest.importorskip("torch")
    from hexcore.train import TrainConfig, load_evaluator, train
    from hexcore.train.export import export_agent

    out = tmp_path / "run"
    train(TrainConfig(spec="hex(size=3)", out=str(out), steps=2, threads=1, games=4, simulations=4, batch=16,
                      net="mlp", channels=8, blocks=1, eval_every=0, labelled=0, plots=False), log=lambda s: None)
    path = export_agent(str(out), str(tmp_path / "hex3.npz"), command="test")
    net = load_evaluator(path)
    assert isinstance(net, agents.NumpyNetwork) and net.meta["command"] == "test" and net.meta["step"] == 2
    torch_net = load_evaluator(str(out))
    g = hc.Hex(size=3)
    np.testing.assert_allclose(net(g.observation()[None], g.legal_action_mask()[None])[0],
                               torch_net(g.observation()[None], g.legal_action_mask()[None])[0], atol=2e-6)
    r = play_match("hex(size=3)", [f"az:{path},sims=4", "random"], games=2, seed=0)
    assert r.games == 2
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_evaluator(str(tmp_path / "missing.npz"))


def test_shipped_agents_are_listed_and_described() -> None:
    have = agents.available()
    assert have, "the package ships agents"
    for spec in have:
        assert hc.load(spec).spec == spec
        meta = agents.info(spec)
        assert meta["spec"] and meta["command"].startswith("python -m hexcore train")
        assert meta["cpu_seconds"] > 0 and "strength" in meta
        net = agents.load(spec)
        assert net.relative_values and net.num_actions == hc.load(spec).num_actions
    with pytest.raises(ValueError, match="no shipped agent for churn.*agents exist for: .*hex"):
        agents.load("churn(size=3)")
    with pytest.raises(ValueError, match="unknown game"):
        agents.load("nosuch(size=3)")
    with pytest.raises(TypeError):
        agents.load(3)


def test_shipped_agents_play_without_torch() -> None:
    """Each shipped agent plays a whole legal game (network alone and with
    search) in a process where PyTorch cannot be imported."""
    code = """
import sys
sys.modules["torch"] = None   # import torch fails
import hexcore as hc
from hexcore import agents
from hexcore.match import play_match
for spec in agents.available():
    for p in ("agent", "agent:sims=8"):
        r = play_match(spec, [p] + ["random"] * (hc.load(spec).num_players - 1), games=1, seed=1)
        assert r.games == 1 and sum(r.plies) > 0
print("ok", len(agents.available()))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")


def test_agent_and_solver_player_specs() -> None:
    assert parse_player("agent") == parse_player("AGENT ")
    assert parse_player("agent:sims=64").simulations == 64
    assert parse_player("agent:sims=64").name == "agent:sims=64"
    assert parse_player("solver").seconds == 1.0 and parse_player("solver:time=0.5").seconds == 0.5
    for bad in ("agent:64", "agent:sims=x", "agent:sims=-1", "solver:1", "solver:time=0", "solver:time=nan"):
        with pytest.raises(ValueError, match="bad player spec"):
            parse_player(bad)
    with pytest.raises(ValueError, match="no shipped agent for churn.*agents exist for"):
        play_match("churn(size=2,pie=false)", ["agent", "random"], games=1)
    with pytest.raises(ValueError, match="az takes one option, ',sims=N'"):
        parse_player("az:hex4,sim=64")


def test_solver_player_plays_perfectly_where_it_solves() -> None:
    """On Hex 3x3 (solved in milliseconds) the solver player, first to
    move, wins every game against any opponent, and it makes no mistake on
    solver-labelled positions of Churn side 2."""
    r = play_match("hex(size=3)", ["solver:time=0.5", "mcts:50"], games=2, seed=0)
    # seats alternate: the first player wins Hex, so the solver wins the game where it moves first
    assert r.players[0].wins >= 1
    from hexcore.train import labelled_positions, mistake_rate

    pos = labelled_positions("churn(size=2,pie=false)", 6, seed=1)
    assert mistake_rate("solver:time=0.5", pos) == 0.0


def test_agent_in_match_cli(capsys: Any, tmp_path: Any) -> None:
    from hexcore.__main__ import main

    spec = agents.available()[0]
    g = hc.load(spec)
    players = ["agent"] + ["random"] * (g.num_players - 1)
    path = tmp_path / "m.json"
    assert main(["match", spec, "--players", *players, "--games", "2", "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    assert data["players_specs"][0] == "agent"
    assert main(["match", "churn(size=2,pie=false)", "--players", "agent", "random", "--games", "1"]) == 2
    assert "no shipped agent" in capsys.readouterr().err


def test_weights_are_in_the_package() -> None:
    files = sorted(os.listdir(agents.weights_dir()))
    assert files and all(f.endswith(".npz") for f in files)
    assert sum(os.path.getsize(os.path.join(agents.weights_dir(), f)) for f in files) < 8 * 2**20


def _mlp_arrays(spec: str, units: int, seed: int) -> dict:
    g = hc.load(spec)
    rng = np.random.default_rng(seed)
    shape = list(g.observation().shape)
    n_in = int(np.prod(shape))
    arrays = {"trunk.0.weight": rng.normal(0, 0.2, (units, n_in)), "trunk.0.bias": rng.normal(0, 0.1, units),
              "trunk.1.weight": rng.normal(0, 0.2, (units, units)), "trunk.1.bias": rng.normal(0, 0.1, units),
              "policy.weight": rng.normal(0, 0.2, (g.num_actions, units)), "policy.bias": rng.normal(0, 0.1, g.num_actions),
              "value.weight": rng.normal(0, 0.2, (g.num_players, units)), "value.bias": rng.normal(0, 0.1, g.num_players)}
    meta = {"format": 1, "net": "mlp", "channels": units, "blocks": 1, "shape": shape,
            "num_actions": int(g.num_actions), "players": int(g.num_players), "spec": g.spec}
    return {**{k: v.astype(np.float32) for k, v in arrays.items()}, "meta": np.array(json.dumps(meta))}


def test_ensemble_averages_its_members_logits() -> None:
    members = [_mlp_arrays("hex(size=4)", u, s) for u, s in ((8, 1), (16, 2), (8, 3))]
    metas = [json.loads(str(m["meta"])) for m in members]
    arrays = {f"member{i}.{k}": v for i, m in enumerate(members) for k, v in m.items() if k != "meta"}
    arrays["meta"] = np.array(json.dumps({"net": "ensemble", "members": metas, "shape": metas[0]["shape"],
                                          "num_actions": metas[0]["num_actions"], "spec": "hex(size=4)"}))
    ens = agents.NumpyNetwork(arrays)
    games = _positions("hex(size=4)")
    obs = np.stack([x.observation() for x in games]).astype(np.float32)
    nets = [agents.NumpyNetwork(m) for m in members]
    p, v = ens.logits(obs)
    np.testing.assert_allclose(p, sum(n.logits(obs)[0] for n in nets) / 3, atol=1e-5)
    np.testing.assert_allclose(v, sum(n.logits(obs)[1] for n in nets) / 3, atol=1e-5)
    assert not np.allclose(p, nets[0].logits(obs)[0], atol=1e-3)  # the members differ
    masks = np.stack([x.legal_action_mask() for x in games])
    pr, _ = ens(obs, masks)
    assert (pr[~masks] == 0).all() and np.allclose(pr.sum(1), 1, atol=1e-5)
    bad = dict(arrays)
    other = _mlp_arrays("hex(size=5)", 8, 4)
    bad.update({f"member1.{k}": v for k, v in other.items() if k != "meta"})
    bad["meta"] = np.array(json.dumps({**json.loads(str(arrays["meta"])),
                                       "members": [metas[0], json.loads(str(other["meta"])), metas[2]]}))
    with pytest.raises(ValueError, match="ensemble member of shape"):
        agents.NumpyNetwork(bad)
    empty = {"meta": np.array(json.dumps({"net": "ensemble", "members": [], "shape": [4, 4, 4], "num_actions": 17}))}
    with pytest.raises(ValueError, match="no networks"):
        agents.NumpyNetwork(empty)


def test_export_ensemble_equals_the_mean_of_torch_logits(tmp_path: Any) -> None:
    torch = pytest.importorskip("torch")
    from hexcore.train import TrainConfig, load_checkpoint, train
    from hexcore.train.agent import learner_from_checkpoint
    from hexcore.train.export import export_ensemble

    runs = []
    for seed, channels in ((0, 8), (1, 16)):
        out = tmp_path / f"run{seed}"
        train(TrainConfig(spec="hex(size=3)", out=str(out), steps=2, threads=1, games=4, simulations=4, batch=16,
                          net="mlp", channels=channels, blocks=1, eval_every=0, labelled=0, plots=False, seed=seed),
              log=lambda s: None)
        runs.append(str(out))
    path = export_ensemble(runs, str(tmp_path / "ens.npz"), command="test")
    net = agents.NumpyNetwork.load(path)
    assert net.net == "ensemble" and len(net.members) == 2 and net.meta["command"] == "test"
    assert net.meta["cpu_seconds"] == pytest.approx(sum(m["cpu_seconds"] for m in net.meta["members"]))
    games = _positions("hex(size=3)", seed=3)
    obs = np.stack([x.observation() for x in games]).astype(np.float32)
    outs = []
    for r in runs:
        learner = learner_from_checkpoint(load_checkpoint(r))
        with torch.inference_mode():
            outs.append([t.numpy() for t in learner.net(torch.from_numpy(obs))])
    p, v = net.logits(obs)
    np.testing.assert_allclose(p, (outs[0][0] + outs[1][0]) / 2, atol=2e-6)
    np.testing.assert_allclose(v, (outs[0][1] + outs[1][1]) / 2, atol=2e-6)
    r = play_match("hex(size=3)", [f"az:{path},sims=4", "random"], games=2, seed=0)
    assert r.games == 2
    half = export_ensemble(runs, str(tmp_path / "half.npz"), half=True)
    with np.load(half) as f:
        assert f["member0.trunk.0.weight"].dtype == np.float16
    hp, hv = agents.NumpyNetwork.load(half).logits(obs)
    assert hp.dtype == np.float32
    np.testing.assert_allclose(hp, p, atol=2e-2)
    np.testing.assert_allclose(hv, v, atol=2e-2)
    train(TrainConfig(spec="hex(size=4)", out=str(tmp_path / "four"), steps=1, threads=1, games=2, simulations=2,
                      batch=8, net="mlp", channels=8, blocks=1, eval_every=0, labelled=0, plots=False),
          log=lambda s: None)
    with pytest.raises(ValueError, match="different games"):
        export_ensemble([runs[0], str(tmp_path / "four")], str(tmp_path / "bad.npz"))
    with pytest.raises(ValueError, match="at least one"):
        export_ensemble([], str(tmp_path / "none.npz"))
