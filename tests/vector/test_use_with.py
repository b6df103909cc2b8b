"""Runs the "Use with other libraries" examples of docs/guides/use-with.md (Stable-Baselines3,
Gymnasium, PettingZoo, OpenSpiel; the Ray one runs in tests/distributed/test_ray.py, which
starts a local Ray). An example whose library is not installed is skipped,
saying which extra brings it. The blocks are fenced ```py, not ```python: they
drive third-party libraries whose type stubs are optional, so the type check
mypy check (tests/package/test_typing.py) leaves them out, and this file runs them."""
import importlib.util

import pytest

from tests.support.use_with import NEEDS, examples, run

EXTRAS = {"sb3_contrib": "sb3", "gymnasium": "envs", "pettingzoo": "envs", "pyspiel": "openspiel", "ray": "ray"}
CASES = [(name, i) for name, blocks in examples().items() if name != "Ray" for i in range(len(blocks))]


def test_every_library_has_an_example():
    found = examples()
    assert set(found) == set(NEEDS)
    assert all(found[name] for name in NEEDS), found


@pytest.mark.parametrize("name,index", CASES)
def test_example_runs(name, index, tmp_path, monkeypatch):
    module = NEEDS[name]
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install 'hexcore[{EXTRAS[module]}]')")
    monkeypatch.chdir(tmp_path)
    run(examples()[name][index], f"{name}_{index}")
