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
the value accuracy and how often the highest prior is a winning move, and
how often the move whose successor the value head likes best wins (one
ply of the value head, the successors rebuilt from the planes).
``--features groups`` puts the network's fixed group layer before its trunk
(``python -m hexcore train --features groups``); ``--policy hard`` trains
the policy only where the mover wins and some move loses (elsewhere the
target is uniform), ``--policy moves`` fits each legal move's logit to
whether it wins; ``--successors`` adds each training row's successors
with their exact values (the labels give them; no solver call).
``check``: the same two figures for a trained agent (a run folder or
checkpoint) on all the labelled positions, the value by ply where the rows
record it; the labels are only the yardstick here, never training data.
See docs/guides/train.md, "Churn side 3 without the pie rule".
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


def _game(row: Dict[str, Any]) -> Any:
    """The Churn position of a labelled row, rebuilt from its planes."""
    g0 = hc.load(SPEC)
    board, o = g0.board, row["obs"]
    me, them = (2, 1) if o[3, 0, 0] > 0.5 else (1, 2)
    stones = {}
    for i in range(int(board.num_cells)):
        y, x = board.grid_pos(i)
        if o[0, y, x] > 0.5 or o[1, y, x] > 0.5:
            stones[board.label(i)] = me if o[0, y, x] > 0.5 else them
    g = hc.Churn.from_position(stones, to_move=me, size=3, pie=False)
    assert (g.observation() == o).all() and (g.legal_action_mask() == row["mask"]).all()
    return g


def successors(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Each labelled row's legal moves played, the positions not over, with
    their exact values (the move's value for its player, turned round) and
    no policy target (``best`` None); ``parent`` and ``action`` say where
    they came from. No solver call."""
    out = []
    for k, r in enumerate(rows):
        g = _game(r)
        for a in g.legal_actions():
            h = g.copy()
            h.apply_action(int(a))
            if not h.is_over:
                out.append({"obs": h.observation(), "mask": h.legal_action_mask(), "win": not r["best"][int(a)],
                            "best": None, "ply": r["ply"] + 1, "parent": k, "action": int(a)})
    return out


def fit(rows: List[Dict[str, Any]], minutes: float, channels: int, blocks: int, net_kind: str = "resnet",
        steps: int = 0, held_out: Any = None, limit: int = 0, features: str = "none", policy: str = "all",
        add_successors: bool = False) -> None:
    from hexcore.train.symmetry import symmetries
    from hexcore.train.torchnet import TorchLearner, board_geometry

    g = hc.load(SPEC)
    syms = symmetries(g)
    rng = np.random.default_rng(0)
    idx = rng.permutation(len(rows))
    cut = len(rows) // 5
    none = np.zeros(int(g.num_actions), np.float32)

    def arrays(rs: List[Dict[str, Any]]) -> Any:
        return (np.stack([r["obs"] for r in rs]).astype(np.float32), np.stack([r["mask"] for r in rs]),
                np.stack([none if r["best"] is None else r["best"] for r in rs]), np.array([r["win"] for r in rs]))

    if held_out is not None:   # a fixed held-out set; the first `limit` rows (all: 0) to train on
        train, test = rows[:limit or len(rows)], held_out
    else:
        train, test = [rows[i] for i in idx[cut:]], [rows[i] for i in idx[:cut]]
    if add_successors:
        extra = successors(train)
        print(f"{len(extra)} successor positions added (value only)")
        train = train + extra
    X, M, B, W = arrays(train)
    tX, tM, tB, tW = arrays(test)
    test_next = successors(test)
    nX, nM, _, _ = arrays(test_next)
    parent = np.array([r["parent"] for r in test_next])
    action = np.array([r["action"] for r in test_next])
    net = TorchLearner({"shape": list(g.observation_shape), "num_actions": int(g.num_actions), "players": 2,
                        "net": net_kind, "channels": channels, "blocks": blocks, "lr": 2e-3, "weight_decay": 1e-4,
                        "features": features, **board_geometry(g)})

    def report(X: Any, M: Any, B: Any, W: Any, after: Any = None) -> str:
        p, v = net(X, M)
        top = p.argmax(1)
        hard = W & (B.sum(1) > 0) & (B.sum(1) < M.sum(1))   # the mover wins and some move loses
        line = (f"value {np.mean((v[:, 0] > 0.5) == W):.3f}, winning top move {np.mean(B[hard, top[hard]] > 0):.3f} "
                f"(random {np.mean(B[hard].sum(1) / M[hard].sum(1)):.3f}, {hard.sum()} positions)")
        if after is not None:   # the move whose position the value head likes best for the mover (one ply)
            _, nv = net(nX, nM)
            score = np.full(M.shape, np.inf)
            score[parent, action] = nv[:, 0]      # the opponent's value after the move: lower is better
            over = M & np.isinf(score)            # a move that ends the game: its label decides
            score[over] = np.where(B[over] > 0, -1.0, 2.0)
            one = np.where(M, score, np.inf).argmin(1)
            line += f"; one ply of the value head: winning move {np.mean(B[hard, one[hard]] > 0):.3f}"
        return line

    print(f"train {len(X)}, held out {len(tX)} (the mover wins {tW.mean():.3f})")
    hard_rows = W & (B.sum(1) < M.sum(1))
    labelled = np.array([r["best"] is not None for r in train])
    t0, step = time.time(), 0
    while (step < steps) if steps else (time.time() - t0 < minutes * 60):
        b = rng.integers(0, len(X), 256)
        s = syms[rng.integers(len(syms))]
        m, best, w = s.vector(M[b]), s.vector(B[b]), W[b]
        if policy == "moves":
            _moves_step(net, s.observation(X[b]), m & labelled[b][:, None], best, w)
            step += 1
            continue
        if policy == "hard":   # a policy target only where the move matters
            pol = np.where(hard_rows[b][:, None], best, 0.0)
        else:                  # a lost position: no move is better; a row without one: none
            pol = np.where(w[:, None], best, m.astype(np.float32)) * labelled[b][:, None]
        net.train_step(s.observation(X[b]), m, pol / np.maximum(pol.sum(1, keepdims=True), 1e-9),
                       np.stack([w, ~w], 1).astype(np.float32), seed=step)
        step += 1
    print(f"{step} steps; train: {report(X[:2000], M[:2000], B[:2000], W[:2000])}")
    print(f"held out: {report(tX, tM, tB, tW, after=True)}")


def _moves_step(net: Any, obs: Any, m: Any, best: Any, w: Any) -> None:
    """One step of ``--policy moves``: each legal action's logit fitted to
    whether that move wins (a logistic loss per move), the value as usual."""
    torch = net.torch
    net.net.train()
    logits, v = net.net(torch.from_numpy(np.ascontiguousarray(obs, np.float32)))
    mm = torch.from_numpy(np.ascontiguousarray(m, bool)).float()
    q = torch.nn.functional.binary_cross_entropy_with_logits(logits, torch.from_numpy(np.ascontiguousarray(best, np.float32)),
                                                             reduction="none")
    vt = torch.from_numpy(np.stack([w, ~w], 1).astype(np.float32))
    loss = (q * mm).sum() / mm.sum().clamp_min(1.0) - (vt * torch.log_softmax(v, dim=1)).sum(dim=1).mean()
    net.opt.zero_grad(set_to_none=True)
    loss.backward()
    net.opt.step()
    net.net.eval()


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
    f.add_argument("--features", choices=["none", "groups"], default="none",
                   help="groups: the network's fixed group-size layer before its trunk")
    f.add_argument("--policy", choices=["all", "hard", "moves"], default="all",
                   help="policy target on every row, only where the mover wins and some move loses, or "
                        "(moves) each legal move's logit fitted to whether it wins")
    f.add_argument("--successors", action="store_true",
                   help="also train the value on each training row's successors (their values follow from the labels)")
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
        fit(_load(args.data), args.minutes, args.channels, args.blocks, args.net, args.steps, held, args.limit, args.features,
            args.policy, args.successors)

if __name__ == "__main__":
    main()
