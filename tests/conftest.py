import json
import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent


SEEDS = ROOT / "seeds"
# The test data lives in the repository (seeds/<game>/), copied from the shared records.
DATA = SEEDS

settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def load_json(path: Path):
    with open(path) as f:
        return json.load(f)


def load_jsonl(path: Path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.exists():
        pytest.fail(f"test data not found at {DATA}")
    return DATA


def ref_perft(r, depth, bulk=False):
    """Perft by plain enumeration on a reference game (``bulk``: count the
    last level with ``count_moves``)."""
    if depth == 0:
        return 1
    if r.is_over:
        return 0
    if bulk and depth == 1:
        return r.count_moves()
    total = 0
    for m in r.legal_moves():
        child = r.copy()
        child.play(m)
        total += ref_perft(child, depth - 1, bulk)
    return total


@pytest.fixture
def python_sigint_handler():
    """Python's own SIGINT handler for the test, as an interactive run has it.
    A suite started from a background job inherits SIGINT ignored, and then
    neither a real SIGINT nor ``_thread.interrupt_main()`` raises
    ``KeyboardInterrupt``; tests of Ctrl-C set the handler they test."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
