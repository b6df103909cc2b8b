"""No leaks: resident memory stops growing under a workload that touches
everything that allocates on the Rust side (games, copies, pickles, undo
chains, failed moves, numpy arrays, playouts, perft, set-up positions).

RSS is read from /proc/self/statm (falling back to ``ru_maxrss``) after a
warm-up round and again after ``ROUNDS`` more rounds; the growth must stay
below ``MAX_GROWTH_MB`` (10 MB), and the second half of the rounds must add
less than half of that. Each round makes over a thousand game objects
(copies, unpickled games, set-ups); leaking them (about 1.4 KB each for Churn
side 3) would add some 16 MB over the measured rounds and fail the test.
Run with ``-s`` to see the figures.
"""
from __future__ import annotations

import gc
import os
import pickle
import random
import resource

import pytest

import hexcore as hc

SMALL = {"churn": dict(size=3), "wunchunk": dict(size=5), "quintun": dict(size=5), "hex": dict(size=4, swap=True),
         "havannah": dict(size=4, swap=True), "y": dict(size=7)}
GAME_NAMES = sorted(hc.GAMES)

WARMUP_ROUNDS = 2
ROUNDS = 10
MAX_GROWTH_MB = 10.0
ACTIONS_PER_ROUND = 500    # whole random games until this many actions were applied


def rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:  # not Linux: peak RSS is the best we have
        r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return r / 2**20 if os.uname().sysname == "Darwin" else r / 2**10


def one_round(name, rnd):
    cls = hc.GAMES[name]
    opts = SMALL.get(name, {})
    rng = random.Random(rnd)
    applied = 0
    k = -1
    while applied < ACTIONS_PER_ROUND:
        k += 1
        g = cls(**opts)
        copies = []
        while not g.is_over:
            acts = g.legal_actions()
            g.apply_action(int(rng.choice(acts.tolist())))
            applied += 1
            g.legal_action_mask(), g.observation(), g.cells()
            if not g.pending_actions and rng.random() < 0.3:
                g.history, g.legal_moves() if g.count_moves() <= 5000 else None
            if rng.random() < 0.2:
                copies.append(g.copy())
            if rng.random() < 0.1:
                copies.append(pickle.loads(pickle.dumps(g)))
            # rejected input allocates error objects and messages
            for bad in (-1, g.num_actions, 2**70):
                try:
                    g.apply_action(bad)
                except hc.IllegalMoveError:
                    pass
            try:
                g.play("zz99")
            except hc.IllegalMoveError:
                pass
        str(g), repr(g), hash(g), g.winners
        # undo chain back to the start, and forward again by text
        hist = list(g.history)
        while g.history:
            g.undo()
        for m in hist:
            g.play(m)
        try:
            g.play(hist[0] if hist else "a1")
        except hc.IllegalMoveError:
            pass
        for c in copies:
            while c.history or c.pending_actions:
                c.undo()
        del copies
        if k % 5 == 0:
            h = cls(**opts)
            hc.random_playouts(h, 200, seed=rnd * 100 + k, threads=1)
            hc.random_playouts(h, 50, seed=k, threads=2)
            hc.perft(h, 2, threads=1)
            hc.perft(h, 2, divide=True, threads=2)
            cells = g.cells()
            pos = {g.board.label(i): (int(v) if v > 0 else "ABCDE"[-int(v) - 1]) for i, v in enumerate(cells) if v}
            s = cls.from_position(pos, to_move=g.to_move, **opts)
            pickle.loads(pickle.dumps(s))
            hc.load(g.spec)
            g._repr_svg_()
    # many short-lived copies and pickles of one mid-game position
    g = cls(**opts)
    for _ in range(10):
        if g.is_over:
            break
        g.apply_action(int(rng.choice(g.legal_actions().tolist())))
    blob = pickle.dumps(g)
    for _ in range(500):
        c = g.copy()
        pickle.loads(blob)
        c.__reduce__()


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_memory_stops_growing(name):
    for r in range(WARMUP_ROUNDS):
        one_round(name, r)
    gc.collect()
    start = rss_mb()
    samples = [start]
    for r in range(ROUNDS):
        one_round(name, WARMUP_ROUNDS + r)
        gc.collect()
        samples.append(rss_mb())
    growth = samples[-1] - start
    print(f"\n[{name}] RSS after warm-up {start:.1f} MB, after {ROUNDS} more rounds {samples[-1]:.1f} MB "
          f"(growth {growth:+.2f} MB, peak {max(samples):.1f} MB; limit {MAX_GROWTH_MB} MB); "
          f"per round: {' '.join(f'{s:.1f}' for s in samples)}")
    assert growth < MAX_GROWTH_MB, f"RSS grew by {growth:.1f} MB over {ROUNDS} rounds: {samples}"
    # and no steady climb: the second half grows no more than a few MB
    half = samples[len(samples) // 2]
    assert samples[-1] - half < MAX_GROWTH_MB / 2, samples
