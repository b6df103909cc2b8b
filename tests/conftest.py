import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.data import DATA

settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.exists():
        pytest.fail(f"test data not found at {DATA}")
    return DATA


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


@pytest.fixture
def full_disk(monkeypatch):
    """``full_disk(*paths)``: from then on, opening one of ``paths`` to write
    creates it (empty) as usual, but every write to it fails with ENOSPC, as
    on a full disk (the writes go to ``/dev/full``; no root needed)."""
    import builtins

    if not os.access("/dev/full", os.W_OK):
        pytest.skip("needs /dev/full")
    real_open = builtins.open
    full = set()

    def opener(path, mode="r", *args, **kwargs):
        if isinstance(path, (str, os.PathLike)) and os.path.abspath(os.fspath(path)) in full and set(mode) & set("wax+"):
            real_open(path, mode.replace("x", "w"), *args, **kwargs).close()
            return real_open("/dev/full", mode.replace("x", "w").replace("a", "w"), *args, **kwargs)
        return real_open(path, mode, *args, **kwargs)

    def fill(*paths):
        full.update(os.path.abspath(os.fspath(p)) for p in paths)
        monkeypatch.setattr(builtins, "open", opener)

    return fill
