"""Thread safety, for every game in ``hexcore.GAMES`` (small boards).

- many Python threads, each with its own games, running
  ``random_playouts(..., threads=1)`` and ``perft`` at the same time (the
  GIL is released inside) get exactly the results of a sequential run;
- ``random_playouts`` gives identical results for 1 and 2 worker threads
  (and ``perft`` for 1 and 2);
- two threads hammering the SAME game object (one running ``perft`` over and
  over, the other ``play`` / ``undo``) only ever see a clean Python
  exception -- ``RuntimeError("Already borrowed")`` from PyO3's borrow check
  when ``play``/``undo`` needs the game while ``perft`` holds it -- never a
  crash or a corrupted game.
"""
from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import hexcore as hc

SMALL = {"churn": dict(size=3), "wunchunk": dict(size=5), "quintun": dict(size=5), "hex": dict(size=4, swap=True),
         "havannah": dict(size=4, swap=True), "y": dict(size=7)}
GAME_NAMES = sorted(hc.GAMES)


def new_game(name, **extra):
    return hc.GAMES[name](**{**SMALL.get(name, {}), **extra})


def perft_depth(g, limit=200_000, max_depth=4):
    """The deepest perft (<= max_depth) whose node count stays under limit."""
    d, n = 1, hc.perft(g, 1, threads=1)
    while d < max_depth and n * max(g.count_moves(), 1) <= 20 * limit:
        nxt = hc.perft(g, d + 1, threads=1)
        if nxt > limit:
            break
        d, n = d + 1, nxt
    return d


def opening(name, seed, plies):
    """A game after a few random whole moves."""
    rng = random.Random(seed)
    g = new_game(name)
    while g.ply < plies and not g.is_over:
        g.apply_action(int(rng.choice(g.legal_actions().tolist())))
    while g.pending_actions:
        g.apply_action(int(rng.choice(g.legal_actions().tolist())))
    return g


def playout_tuple(p):
    return (p.plies.tolist(), p.actions.tolist(), p.winner_mask.tolist(), p.finished.tolist())


def job(name, k, depth):
    """One worker's share: its own games, playouts and perft."""
    g = opening(name, k, k % 4)
    out = [playout_tuple(hc.random_playouts(g, 150, seed=1000 + k, threads=1))]
    out.append(hc.perft(g, depth, threads=1))
    out.append(hc.perft(g, max(depth - 1, 0), unit="action", threads=1))
    out.append(hc.perft(g, max(depth - 1, 1), divide=True, threads=1))
    # some move-level work with the GIL held, interleaved with the others
    rng = random.Random(k)
    h = g.copy()
    while not h.is_over:
        h.apply_action(int(rng.choice(h.legal_actions().tolist())))
    out.append((h.history, h.winners, h.zobrist))
    return out


@pytest.mark.parametrize("name", GAME_NAMES)
def test_concurrent_workers_match_sequential(name):
    depth = perft_depth(new_game(name), limit=20_000, max_depth=3)
    n_jobs = 16
    sequential = [job(name, k, depth) for k in range(n_jobs)]
    for workers in (4, 16):
        with ThreadPoolExecutor(max_workers=workers) as ex:
            concurrent = list(ex.map(lambda k: job(name, k, depth), range(n_jobs)))
        assert concurrent == sequential


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_playouts_same_for_any_thread_count(name):
    for g in (new_game(name), opening(name, 3, 2)):
        runs = {t: hc.random_playouts(g, 300, seed=42, threads=t) for t in (1, 2, 3)}
        base = playout_tuple(runs[1])
        for t, r in runs.items():
            assert playout_tuple(r) == base, f"threads={t} differs from threads=1"
        assert np.array_equal(runs[1].winners, runs[2].winners)
        # and the same seed gives the same games when run again
        assert playout_tuple(hc.random_playouts(g, 300, seed=42, threads=2)) == base
        assert playout_tuple(hc.random_playouts(g, 300, seed=43, threads=1)) != base


@pytest.mark.parametrize("name", GAME_NAMES)
def test_perft_same_for_any_thread_count(name):
    g = new_game(name)
    d = perft_depth(g, limit=100_000)
    counts = {t: hc.perft(g, d, threads=t) for t in (1, 2, 4)}
    assert len(set(counts.values())) == 1, counts
    div = {t: hc.perft(g, d, divide=True, threads=t) for t in (1, 2)}
    assert div[1] == div[2] and sum(n for _, n in div[1]) == counts[1]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_two_threads_hammering_one_game(name):
    """One thread runs perft on a game while another plays and undoes moves
    on the same object. Allowed: RuntimeError from PyO3's borrow check. After
    the storm the game is consistent and every perft result is the count of a
    position the game was actually in."""
    g = opening(name, 1, 2)
    base_history = list(g.history)
    base_moves = g.legal_moves()
    depth = perft_depth(g, limit=60_000, max_depth=4)
    # perft(child, depth) for every move = divide at depth + 1
    allowed_counts = {hc.perft(g, depth, threads=1)}
    allowed_counts |= {n for _, n in hc.perft(g, depth + 1, divide=True, threads=1)}

    stop = threading.Event()
    seen = {"perft": [], "perft_errors": [], "play_errors": [], "plays": 0, "undos": 0}
    fatal = []

    def perft_loop():
        try:
            while not stop.is_set():
                try:
                    seen["perft"].append(hc.perft(g, depth, threads=1))
                except RuntimeError as e:
                    seen["perft_errors"].append(repr(e))
                if len(seen["perft"]) % 2:
                    time.sleep(0.0002)   # leave the other thread windows between runs
        except BaseException as e:  # noqa: BLE001
            fatal.append(e)

    def play_loop():
        rng = random.Random(5)
        try:
            while not stop.is_set():
                mv = rng.choice(base_moves)
                try:
                    g.play(mv)
                except RuntimeError as e:
                    seen["play_errors"].append(repr(e))
                    continue
                seen["plays"] += 1
                while True:          # the move must be taken back before the next one
                    try:
                        g.undo()
                        seen["undos"] += 1
                        break
                    except RuntimeError as e:
                        seen["play_errors"].append(repr(e))
                        time.sleep(0)
        except BaseException as e:  # noqa: BLE001
            fatal.append(e)

    threads = [threading.Thread(target=perft_loop), threading.Thread(target=play_loop)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    stop.set()
    for t in threads:
        t.join(timeout=60)
        assert not t.is_alive()

    assert not fatal, f"unexpected exception: {fatal[0]!r}"
    errors = seen["perft_errors"] + seen["play_errors"]
    for e in errors:
        assert "borrow" in e.lower(), f"unexpected RuntimeError: {e}"
    assert seen["perft"], "perft never ran"
    assert seen["plays"] > 0 and seen["plays"] == seen["undos"]
    bad = set(seen["perft"]) - allowed_counts
    assert not bad, f"perft returned counts of no reachable position: {sorted(bad)[:5]}"
    # the game is back where it started and still consistent
    assert g.history == base_history and not g.pending_actions
    assert g == hc.GAMES[name].replay(g.history, **SMALL.get(name, {}))
    assert g.zobrist == hc.GAMES[name].replay(g.history, **SMALL.get(name, {})).zobrist
    assert hc.perft(g, depth, threads=1) in allowed_counts
    print(f"\n[{name}] hammer: {len(seen['perft'])} perft runs, {seen['plays']} play/undo pairs, "
          f"{len(errors)} borrow errors, e.g. {errors[0] if errors else None}")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_threads_hammering_shared_game_readers(name):
    """Many threads reading one game (legal moves, copies, pickles, perft,
    playouts) at once: no errors at all, identical answers."""
    import pickle

    g = opening(name, 2, 3)
    depth = perft_depth(g, limit=5_000, max_depth=3)
    expected = (sorted(g.legal_actions().tolist()), g.zobrist, hc.perft(g, depth, threads=1),
                playout_tuple(hc.random_playouts(g, 50, seed=9, threads=1)))

    def read(_):
        res = []
        for _ in range(10):
            c = pickle.loads(pickle.dumps(g.copy()))
            res.append((sorted(c.legal_actions().tolist()), c.zobrist, hc.perft(g, depth, threads=1),
                        playout_tuple(hc.random_playouts(g, 50, seed=9, threads=1))))
        return res

    with ThreadPoolExecutor(max_workers=8) as ex:
        for res in ex.map(read, range(8)):
            assert all(r == expected for r in res)
