"""Long or oversized runs end in a Python exception, never an abort.

Each case runs in a child interpreter (with a timeout) so that a crash
(SIGABRT, exit 134; SIGSEGV, exit 139) fails the test instead of the suite.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import hexcore as hc

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and rlimits")

LIMIT_AS = textwrap.dedent("""
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
""")

WUNCHUNK_MOVES = ['2j6', '1j5', '1f5', '2h3', '2j7', '2a4,1e4', '2d3', '1j2,2k1', '2b7', '2j4,1k4', '1a6,1c4',
                  '2c1,2j1', '1a3,2i4', '2a2,2f9,2g8,2h8', '1d1,2i3']


def crashed(code: int) -> bool:
    return code in (134, 139) or code < 0 and code != -signal.SIGINT


def run_child(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def start_interruptible(code: str) -> subprocess.Popen:
    """Start `code` in a child that sets Python's SIGINT handler itself: a
    child of a background job inherits SIGINT ignored, and Python then
    installs no handler. The child is started with SIGINT ignored, as there,
    so these tests check the same thing however the suite is started."""
    code = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n" + code
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ignore_sigint)


def interrupt_after(code: str, delay: float = 2.0, timeout: float = 60) -> tuple[int, str, float]:
    """Run `code` (which prints "ready" before the long call), send SIGINT
    `delay` seconds after "ready", and return (exit code, stderr, seconds
    from the signal to the exit)."""
    p = start_interruptible(code)
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert line.strip() == "ready", line + (p.stderr.read() if p.stderr else "")
        time.sleep(delay)
        assert p.poll() is None, "the run ended before the signal"
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        p.wait(timeout=timeout)
        latency = time.monotonic() - t0
        _, err = p.communicate(timeout=timeout)
        return p.returncode, err, latency
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


LONG_RUNS = {
    "playouts": "hc.random_playouts(hc.Churn(size=3), 10**8)",
    "perft": "hc.perft(hc.Churn(size=5), 12)",
    "perft_one_thread": "hc.perft(hc.Churn(size=5), 12, threads=1)",
    "divide": "hc.perft(hc.Churn(size=5), 12, divide=True)",
    "perft_deep": "hc.perft(hc.Churn(size=6, pie=False), 40000, threads=1)",
}


@pytest.mark.parametrize("name", sorted(LONG_RUNS))
def test_sigint_stops_long_run(name):
    code = f"import hexcore as hc\nprint('ready', flush=True)\n{LONG_RUNS[name]}\nprint('finished')\n"
    rc, err, latency = interrupt_after(code)
    print(f"{name}: Ctrl-C latency {latency:.3f} s")
    assert not crashed(rc), err
    assert "KeyboardInterrupt" in err, err
    assert rc != 0
    assert latency < 5.0, f"took {latency:.2f} s to stop"


def test_huge_playout_batch_is_memory_error():
    code = LIMIT_AS + textwrap.dedent("""
        import hexcore as hc
        try:
            hc.random_playouts(hc.Churn(size=3), 10**12)
        except MemoryError as e:
            print("MemoryError", e)
    """)
    r = run_child(code)
    assert not crashed(r.returncode), r.stderr
    assert r.returncode == 0, r.stderr
    assert "MemoryError" in r.stdout and "1000000000000 playouts" in r.stdout


def test_solve_table_too_big_is_memory_error():
    code = LIMIT_AS + textwrap.dedent("""
        import hexcore as hc
        try:
            hc.solve(hc.Churn(size=3), table_mb=8192, threads=1)
        except MemoryError as e:
            print("MemoryError", e)
    """)
    r = run_child(code)
    assert not crashed(r.returncode), r.stderr
    assert r.returncode == 0, r.stderr
    assert "MemoryError" in r.stdout and "transposition table" in r.stdout


def test_wunchunk_divide_with_too_many_moves():
    code = LIMIT_AS + textwrap.dedent(f"""
        import hexcore as hc
        g = hc.Wunchunk.replay({WUNCHUNK_MOVES!r}, size=6)
        try:
            rows = hc.perft(g, 2, divide=True)
            print("rows", len(rows))
        except hc.TooManyMovesError as e:
            print("TooManyMovesError", e)
    """)
    r = run_child(code)
    assert not crashed(r.returncode), r.stderr
    assert r.returncode == 0, r.stderr
    assert "TooManyMovesError" in r.stdout or "rows" in r.stdout, r.stdout


def test_perft_threads_bounded():
    code = textwrap.dedent("""
        import os
        import hexcore as hc
        g = hc.Churn(size=3)
        want = hc.perft(g, 3, threads=1)
        peak = 0
        for i in range(100):
            assert hc.perft(g, 3, threads=1 + i % 40) == want
            peak = max(peak, len(os.listdir("/proc/self/task")))
        print("threads", peak, len(os.listdir("/proc/self/task")))
        for bad in (0, hc.MAX_THREADS + 1):
            try:
                hc.perft(g, 1, threads=bad)
            except ValueError as e:
                print("ValueError", e)
            try:
                hc.random_playouts(g, 1, threads=bad)
            except ValueError as e:
                print("ValueError", e)
    """)
    r = run_child(code)
    assert not crashed(r.returncode), r.stderr
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    peak = int(lines[0].split()[1])
    print(f"peak threads after 100 perft calls: {peak}")
    assert peak < 4 * hc.MAX_THREADS + 20
    assert sum(line.startswith("ValueError") for line in lines) == 4


def test_chunked_playouts_match_small_batches():
    g = hc.Churn(size=3)
    n = 65536 + 100
    big = hc.random_playouts(g, n, seed=9, threads=2)
    tail = hc.random_playouts(g, 100, seed=9 + 65536, threads=1)
    assert len(big) == n
    # Game i uses seed + i, so the last 100 games of the batch are the
    # first 100 of a batch seeded 65536 later.
    assert (big.plies[65536:] == tail.plies).all()
    assert (big.actions[65536:] == tail.actions).all()
    assert (big.winner_mask[65536:] == tail.winner_mask).all()
    head = hc.random_playouts(g, 100, seed=9, threads=1)
    assert (big.plies[:100] == head.plies).all()


def test_interrupted_run_leaves_the_game_usable():
    code = textwrap.dedent("""
        import hexcore as hc
        g = hc.Churn(size=5)
        print('ready', flush=True)
        try:
            hc.perft(g, 12)
        except KeyboardInterrupt:
            print("interrupted", hc.perft(g, 2, threads=1), flush=True)
    """)
    p = start_interruptible(code)
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        os.kill(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, err
    assert out.split() == ["interrupted", str(hc.perft(hc.Churn(size=5), 2, threads=1))]
