"""Supervised check of the training network on Churn side 3 (no pie): can it
learn the solver's values and winning moves from the same observation planes?

    python scripts/churn3_supervised.py label --n 5000 --seconds 330 --seed 11 --out lab11.pkl
    python scripts/churn3_supervised.py fit lab11.pkl lab12.pkl --minutes 4
    python scripts/churn3_supervised.py check runs/churn3 lab11.pkl lab12.pkl
    python scripts/churn3_supervised.py fit lab13.pkl lab14.pkl --held-out lab11.pkl lab12.pkl \
        --limit 15000 --net mlp --channels 512 --blocks 3 --steps 8000

``label``: one position at a random ply in the last 60% of each uniformly
random game, solved by ``hc.solve`` (at most 300,000 nodes); keeps the
planes, the legal mask, whether the mover wins and its winning moves.
``fit``: trains ``hexcore.train``'s TorchLearner (the network and loss of
``python -m hexcore train``; values relative to the mover) on 80% of them,
each batch under a random board symmetry, and reports on the held-out 20%
the value accuracy and how often the highest prior is a winning move.
``check``: the same two figures for a trained agent (a run folder or
checkpoint) on all the labelled positions, the value by ply where the rows
record it; the labels are only the yardstick here, never training data.
See docs/guides/train.md, "What limits the Churn side 3 agent".
"""
from __future__ import annotations

import argparse
import pickle
import random
import time
from typing import Any, Dict, List

import numpy as np

import hexcore as hc
from hexcore.solving import solve

SPEC = "churn(size=3,pie=false)"


def label(n: int, seconds: float, seed: int) -> List[Dict[str, Any]]:
    g0 = hc.load(SPEC)
    rng = random.Random(seed)
    seen, rows = set(), []
    t0 = time.time()
    while len(rows) < n and time.time() - t0 < seconds:
        g, line = g0.copy(), []
        while not g.is_over:
            line.append(g.copy())
            moves = g.legal_moves()
            g.play(moves[rng.randrange(len(moves))])
        pos = line[rng.randrange(int(len(line) * 0.4), len(line))]
        if pos.zobrist in seen:
            continue
        seen.add(pos.zobrist)
        s = solve(pos, max_nodes=300_000, threads=1, table_mb=64, distances=False)
        if not s.complete or s.value not in ("win", "loss"):
            continue
        action = {pos.action_to_string(int(a)): int(a) for a in pos.legal_actions()}
        best = np.zeros(int(g0.num_actions), np.float32)
        for m, v in s.moves.items():
            best[action[m]] = v == "win"
        rows.append({"obs": pos.observation(), "mask": pos.legal_action_mask(), "win": s.value == "win", "best": best,
                     "ply": len(pos.history)})
    print(f"{len(rows)} positions in {time.time() - t0:.0f} s; the mover wins {np.mean([r['win'] for r in rows]):.3f}")
    return rows


def fit(rows: List[Dict[str, Any]], minutes: float, channels: int, blocks: int, net_kind: str = "resnet",
        steps: int = 0, held_out: Any = None, limit: int = 0) -> None:
    from hexcore.train.symmetry import symmetries
    from hexcore.train.torchnet import TorchLearner

    g = hc.load(SPEC)
    syms = symmetries(g)
    rng = np.random.default_rng(0)
    idx = rng.permutation(len(rows))
    cut = len(rows) // 5

    def arrays(ix: Any) -> Any:
        return (np.stack([rows[i]["obs"] for i in ix]).astype(np.float32), np.stack([rows[i]["mask"] for i in ix]),
                np.stack([rows[i]["best"] for i in ix]), np.array([rows[i]["win"] for i in ix]))

    if held_out is not None:   # a fixed held-out set; the first `limit` rows (all: 0) to train on
        n = len(rows)
        rows = rows + held_out
        X, M, B, W = arrays(range(limit or n))
        tX, tM, tB, tW = arrays(range(n, len(rows)))
    else:
        X, M, B, W = arrays(idx[cut:])
        tX, tM, tB, tW = arrays(idx[:cut])
    net = TorchLearner({"shape": list(g.observation_shape), "num_actions": int(g.num_actions), "players": 2,
                        "net": net_kind, "channels": channels, "blocks": blocks, "lr": 2e-3, "weight_decay": 1e-4})

    def report(X: Any, M: Any, B: Any, W: Any) -> str:
        p, v = net(X, M)
        top = p.argmax(1)
        hard = W & (B.sum(1) < M.sum(1))   # the mover wins and some move loses
        return (f"value {np.mean((v[:, 0] > 0.5) == W):.3f}, winning top move {np.mean(B[hard, top[hard]] > 0):.3f} "
                f"(random {np.mean(B[hard].sum(1) / M[hard].sum(1)):.3f}, {hard.sum()} positions)")

    print(f"train {len(X)}, held out {len(tX)} (the mover wins {tW.mean():.3f})")
    t0, step = time.time(), 0
    while (step < steps) if steps else (time.time() - t0 < minutes * 60):
        b = rng.integers(0, len(X), 256)
        s = syms[rng.integers(len(syms))]
        m, best, w = s.vector(M[b]), s.vector(B[b]), W[b]
        pol = np.where(w[:, None], best, m.astype(np.float32))   # a lost position: no move is better
        net.train_step(s.observation(X[b]), m, pol / pol.sum(1, keepdims=True),
                       np.stack([w, ~w], 1).astype(np.float32), seed=step)
        step += 1
    print(f"{step} steps; train: {report(X[:2000], M[:2000], B[:2000], W[:2000])}")
    print(f"held out: {report(tX, tM, tB, tW)}")


def check(path: str, rows: List[Dict[str, Any]]) -> None:
    from hexcore.train import load_evaluator

    ev = load_evaluator(path)
    X = np.stack([r["obs"] for r in rows]).astype(np.float32)
    M = np.stack([r["mask"] for r in rows])
    B = np.stack([r["best"] for r in rows])
    W = np.array([r["win"] for r in rows])
    p, v = ev(X, M)
    right = (np.asarray(v)[:, 0] > 0.5) == W
    top = np.asarray(p).argmax(1)
    hard = W & (B.sum(1) < M.sum(1))
    print(f"{path}: value right {right.mean():.3f} of {len(rows)}; winning top move {np.mean(B[hard, top[hard]] > 0):.3f} "
          f"(random {np.mean(B[hard].sum(1) / M[hard].sum(1)):.3f}, {hard.sum()} positions)")
    if all("ply" in r for r in rows):
        ply = np.array([r["ply"] for r in rows])
        spans = ((0, 40, "0-39"), (40, 50, "40-49"), (50, 60, "50-59"), (60, 10**9, "60+"))
        print("value right by ply: " + ", ".join(f"{name}: {right[(ply >= lo) & (ply < hi)].mean():.3f}"
                                               for lo, hi, name in spans if ((ply >= lo) & (ply < hi)).any()))


def _load(paths: List[str]) -> List[Dict[str, Any]]:
    """The labelled rows of the ``label`` files ``paths``, in order."""
    rows: List[Dict[str, Any]] = []
    for path in paths:
        with open(path, "rb") as fh:
            rows += pickle.load(fh)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("label")
    a.add_argument("--n", type=int, default=5000)
    a.add_argument("--seconds", type=float, default=330.0)
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.add_argument("--minutes", type=float, default=4.0)
    f.add_argument("--channels", type=int, default=32)
    f.add_argument("--blocks", type=int, default=2)
    f.add_argument("--net", choices=["resnet", "mlp"], default="resnet")
    f.add_argument("--steps", type=int, default=0, help="training steps (instead of --minutes)")
    f.add_argument("--held-out", nargs="+", default=None,
                   help="labelled files to measure on (then every row of DATA may be trained on)")
    f.add_argument("--limit", type=int, default=0, help="with --held-out: train on the first N rows of DATA")
    c = sub.add_parser("check")
    c.add_argument("run", help="a run folder or checkpoint")
    c.add_argument("data", nargs="+")
    args = ap.parse_args()
    if args.cmd == "label":
        with open(args.out, "wb") as fh:
            pickle.dump(label(args.n, args.seconds, args.seed), fh)
    elif args.cmd == "check":
        check(args.run, _load(args.data))
    else:
        held = _load(args.held_out) if args.held_out else None
        fit(_load(args.data), args.minutes, args.channels, args.blocks, args.net, args.steps, held, args.limit)

if __name__ == "__main__":
    main()
