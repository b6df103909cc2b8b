"""Training with self-play actors on Ray against the single-process trainer,
at the same settings (training guide, "Train on a cluster or a GPU"):
``python benches/train_scaling.py [--minutes M] [--spec SPEC]``.

Runs the trainer for ``--minutes`` (1) each: in one process, then with 1 and
2 Ray actors of one CPU (a private local Ray of 2 CPUs inside a private
network namespace holding only the loopback device: the script re-runs
itself under ``scripts/in-private-network``; ``--here`` skips that). For
each it reports the self-play positions per second reaching the replay
buffer (from the first generation received to the last: the actors'
start-up left out), each actor's own rate while it plays, the learner's
training steps per second (while training) and in all, the weights' mean
age in learner steps when a generation arrives, and the replay ratio.
Then the weight broadcast: its size and time per publish (pickle and
``ray.put``) and per pick-up on an actor (``ray.get`` and rebuilding the
network) for this network and two larger ones; and, from those figures,
how many actors one learner keeps up with (the learner consumes
``steps/s * batch / reuse`` positions a second).
"""
import argparse
import importlib.util
import json
import os
import pickle
import socket
import statistics
import sys
import tempfile
import time
from typing import Any, Dict, List, Tuple

SETTINGS: Dict[str, Any] = dict(net="mlp", channels=64, blocks=1, games=64, simulations=32, threads=1, batch=64,
                                reuse=2.0, eval_every=0, labelled=0, plots=False, checkpoint_minutes=60.0, seed=1)


def run(spec: str, out: str, minutes: float, **kw: Any) -> Dict[str, Any]:
    from hexcore.train import TrainConfig, train

    gens: List[float] = []
    t0 = time.perf_counter()

    def log(line: str) -> None:
        if line.startswith("gen "):
            gens.append(time.perf_counter())

    train(TrainConfig(spec=spec, out=out, minutes=minutes, **{**SETTINGS, **kw}), log=log)
    wall = time.perf_counter() - t0
    rows = [json.loads(x) for x in open(os.path.join(out, "metrics.jsonl"))]
    sp = [x for x in rows if x["kind"] == "selfplay"]
    tr = [x for x in rows if x["kind"] == "train"]
    steps = sum(x["steps"] for x in tr)
    train_seconds = sum(x["steps"] / x["steps_per_second"] for x in tr)
    later = sum(x["moves"] for x in sp[1:])
    return {"generations": len(sp), "positions": sum(x["moves"] for x in sp),
            "positions_per_second": later / (gens[-1] - gens[0]) if len(gens) > 1 else float("nan"),
            "own_rate": statistics.mean(x["moves_per_second"] for x in sp),
            "steps": steps, "steps_per_second": steps / train_seconds if train_seconds else float("nan"),
            "steps_per_wall_second": steps / wall, "wall": wall,
            "weights_age": statistics.mean(x.get("weights_age", 0) for x in sp),
            "replay_ratio": tr[-1]["replay_ratio"] if tr else float("nan"),
            "publish_bytes": sp[-1].get("publish_bytes"),
            "publish_ms": statistics.mean(x["publish_seconds"] for x in sp) * 1e3 if "publish_seconds" in sp[0] else None}


def broadcast(ray: Any, spec: str, net: str, channels: int, blocks: int) -> Tuple[int, float, float]:
    """Size (bytes), ms per publish (pickle + ray.put) and ms per pick-up
    (ray.get + unpickle + rebuilding the network) of ``net``'s weights."""
    import hexcore as hc
    from hexcore.train.torchnet import TorchLearner

    g = hc.load(spec)
    learner = TorchLearner({"shape": list(g.observation().shape), "num_actions": g.num_actions,
                            "players": g.num_players, "net": net, "channels": channels, "blocks": blocks})
    puts, gets, size = [], [], 0
    for _ in range(10):
        t = time.perf_counter()
        blob = pickle.dumps(learner.weights(), protocol=pickle.HIGHEST_PROTOCOL)
        ref = ray.put(blob)
        puts.append(time.perf_counter() - t)
        size = len(blob)
        t = time.perf_counter()
        TorchLearner.from_state(pickle.loads(ray.get(ref)))
        gets.append(time.perf_counter() - t)
        del ref
    return size, statistics.median(puts) * 1e3, statistics.median(gets) * 1e3


def main(minutes: float, spec: str) -> int:
    if importlib.util.find_spec("ray") is None or importlib.util.find_spec("torch") is None:
        print("ray and torch are needed (pip install 'hexcore[ray,train]')")
        return 0
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    s = SETTINGS
    print(f"{spec}: {s['net']} {s['channels']}x{s['blocks']}, {s['games']} games a generation, {s['simulations']} "
          f"simulations a move, batch {s['batch']}, reuse {s['reuse']:g}, {s['threads']} search thread per player; "
          f"{minutes:g} min each; {os.cpu_count()} CPUs")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, kw in (("one process", {}), ("Ray, 1 actor", {"ray": True, "actors": 1}),
                         ("Ray, 2 actors", {"ray": True, "actors": 2})):
            r = results[name] = run(spec, os.path.join(tmp, name.replace(" ", "").replace(",", "")), minutes, **kw)
            publish = "" if r["publish_ms"] is None else (
                f", publish {r['publish_bytes'] / 1e3:.0f} kB in {r['publish_ms']:.1f} ms")
            print(f"{name:14s} self-play {r['positions_per_second']:7.0f} positions/s in all ({r['own_rate']:.0f}/s "
                  f"per player while playing), learner {r['steps_per_second']:5.0f} steps/s training, "
                  f"{r['steps_per_wall_second']:5.1f} steps/s in all; weights {r['weights_age']:.1f} steps old, "
                  f"replay ratio {r['replay_ratio']:.2f}; {r['generations']} generations{publish}")
    base = results["one process"]["positions_per_second"]
    for name in ("Ray, 1 actor", "Ray, 2 actors"):
        print(f"{name}: {results[name]['positions_per_second'] / base:.2f}x the single process's self-play positions/s")
    for net, channels, blocks, where in (("mlp", 64, 1, spec), ("mlp", 256, 2, "hex(size=7)"),
                                         ("resnet", 32, 2, "hex(size=7)")):
        size, put, get = broadcast(ray, where, net, channels, blocks)
        print(f"weights of {net} {channels}x{blocks} on {where}: {size / 1e3:8.0f} kB, publish {put:6.2f} ms, "
              f"pick-up on an actor {get:6.2f} ms")
    one = results["Ray, 1 actor"]
    fed = one["steps_per_second"] * s["batch"] / s["reuse"]
    print(f"one learner at {one['steps_per_second']:.0f} steps/s of batch {s['batch']} with reuse {s['reuse']:g} takes "
          f"{fed:.0f} positions/s: {fed / one['own_rate']:.1f} actors at {one['own_rate']:.0f} positions/s each")
    ray.shutdown()
    return 0


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--minutes", type=float, default=1.0, help="minutes of training per configuration")
    p.add_argument("--spec", default="hex(size=5)")
    p.add_argument("--here", action="store_true", help="do not move into a private network namespace")
    a = p.parse_args()
    if not a.here and {name for _, name in socket.if_nameindex()} - {"lo"}:
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "in-private-network")
        os.execvp("bash", ["bash", script, sys.executable, *sys.argv])
    sys.exit(main(a.minutes, a.spec))
