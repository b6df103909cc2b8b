"""Child interpreters for the tests of crashes and Ctrl-C: a crash (SIGABRT,
exit 134; SIGSEGV, exit 139) in a child fails the test instead of the suite, and
SIGINT reaches a child that installs Python's handler itself."""
from __future__ import annotations

import signal
import subprocess
import sys
import time


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
