"""Static typing: ``mypy --strict`` on the package's typed modules and on the
README's Python examples.

``STRICT_FILES`` must pass ``mypy --strict``. ``NOT_YET_STRICT`` lists the
modules that do not yet (checked as an expected failure, so that fixing one
shows up); every Python file of the package is in exactly one of the two lists.
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "hexcore"
README = ROOT / "README.md"

STRICT_FILES = [
    "python/hexcore/__init__.py",
    "python/hexcore/_args.py",
    "python/hexcore/_files.py",
    "python/hexcore/__main__.py",
    "python/hexcore/engine.py",
    "python/hexcore/progress.py",
    "python/hexcore/cli/__init__.py",
    "python/hexcore/cli/_common.py",
    "python/hexcore/cli/bench.py",
    "python/hexcore/cli/match.py",
    "python/hexcore/cli/perft.py",
    "python/hexcore/cli/play.py",
    "python/hexcore/cli/report.py",
    "python/hexcore/cli/show.py",
    "python/hexcore/cli/solve.py",
    "python/hexcore/cli/stats.py",
    "python/hexcore/cli/train.py",
    "python/hexcore/perft_suite.py",
    "python/hexcore/search.py",
    "python/hexcore/solving.py",
    "python/hexcore/spec.py",
    "python/hexcore/reference/churn.py",
    "python/hexcore/_pickle.py",
    "python/hexcore/_types.py",
    "python/hexcore/bench.py",
    "python/hexcore/distributed.py",
    "python/hexcore/summary.py",
    "python/hexcore/envs.py",
    "python/hexcore/errors.py",
    "python/hexcore/openspiel.py",
    "python/hexcore/records/__init__.py",
    "python/hexcore/records/abstractplay.py",
    "python/hexcore/records/hexcore_json.py",
    "python/hexcore/registry.py",
    "python/hexcore/render.py",
    "python/hexcore/reference/__init__.py",
    "python/hexcore/reference/__main__.py",
    "python/hexcore/reference/certificate.py",
    "python/hexcore/reference/_board.py",
    "python/hexcore/reference/_errors.py",
    "python/hexcore/reference/hex.py",
    "python/hexcore/reference/havannah.py",
    "python/hexcore/reference/y.py",
    "python/hexcore/reference/_stones.py",
    "python/hexcore/reference/quintun.py",
    "python/hexcore/reference/wunchunk.py",
    "python/hexcore/vector.py",
    "benches/vector_workloads.py",
    "python/hexcore/match.py",
    "python/hexcore/train/actors.py",
    "python/hexcore/train/exact.py",
    "python/hexcore/train/export.py",
    "python/hexcore/agents/__init__.py",
    "python/hexcore/agents/network.py",
    "python/hexcore/train/agent.py",
    "python/hexcore/train/benchmark.py",
    "python/hexcore/train/checkpoint.py",
    "python/hexcore/train/config.py",
    "python/hexcore/train/__init__.py",
    "python/hexcore/train/loop.py",
    "python/hexcore/train/matches.py",
    "python/hexcore/train/plots.py",
    "python/hexcore/train/selfplay.py",
    "python/hexcore/train/symmetry.py",
    "python/hexcore/train/torchnet.py",
    "python/hexcore/analysis/__init__.py",
    "python/hexcore/cli/analyze.py",
    "python/hexcore/analysis/games.py",
    "python/hexcore/analysis/html.py",
    "python/hexcore/analysis/ladder.py",
    "python/hexcore/analysis/metrics.py",
    "python/hexcore/analysis/report.py",
    "python/hexcore/analysis/swap.py",
    "python/hexcore/sb3.py",
    "python/hexcore/cli/serve.py",
    "python/hexcore/serve/__init__.py",
    "python/hexcore/serve/app.py",
    "python/hexcore/serve/game.py",
]

NOT_YET_STRICT: List[str] = []

# modules that need optional dependencies to be type-checked
NEEDS = {
    "python/hexcore/serve/__init__.py": ("starlette", "anyio"),
    "python/hexcore/serve/app.py": ("starlette", "anyio"),
    "python/hexcore/envs.py": ("gymnasium", "pettingzoo"),
    "python/hexcore/openspiel.py": ("pyspiel",),
    "python/hexcore/train/torchnet.py": ("torch",),
    "python/hexcore/sb3.py": ("stable_baselines3", "gymnasium"),
}

pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")


def _available(path: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in NEEDS.get(path, ()))


def _mypy(*args: str) -> subprocess.CompletedProcess:
    cache = Path(tempfile.gettempdir()) / "hexcore-mypy-cache"
    cmd = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "--no-error-summary",
           "--hide-error-context", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def readme_python() -> str:
    """The README's ```python blocks as one script: doctest prompts stripped,
    expected output dropped (a block without prompts is taken as it is)."""
    text = README.read_text(encoding="utf-8")
    lines: List[str] = []
    for block in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M):
        if not any(line.startswith(">>>") for line in block.splitlines()):
            lines.extend(block.splitlines())
            continue
        in_statement = False
        for line in block.splitlines():
            if line.startswith(">>> ") or line == ">>>":
                lines.append(line[4:])
                in_statement = True
            elif in_statement and (line.startswith("... ") or line == "..."):
                lines.append(line[4:])
            else:
                in_statement = False  # expected output, or a traceback's "..."
        lines.append("")
    return "\n".join(lines) + "\n"


def test_every_package_file_is_classified():
    files = sorted(str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py"))
    listed = sorted(f for f in STRICT_FILES + NOT_YET_STRICT if f.startswith("python/hexcore/"))
    assert files == listed, "add new modules to STRICT_FILES (or, for now, NOT_YET_STRICT)"


def test_package_is_strictly_typed():
    files = [f for f in STRICT_FILES if _available(f)]
    res = _mypy(*files)
    assert res.returncode == 0, res.stdout + res.stderr


def test_every_module_is_strict():
    assert not NOT_YET_STRICT, "the whole package is held to mypy --strict"


def test_readme_examples_type_check(tmp_path):
    script = readme_python()
    assert "import hexcore as hc" in script and ">>>" not in script
    compile(script, "README.md", "exec")  # the extraction gives valid Python
    path = tmp_path / "readme_examples.py"
    path.write_text(script, encoding="utf-8")
    res = _mypy(str(path))
    assert res.returncode == 0, script + "\n" + res.stdout + res.stderr


@pytest.mark.slow
def test_stubs_match_the_extension():
    """mypy's stubtest compares _core.pyi with the compiled module."""
    res = subprocess.run([sys.executable, "-m", "mypy.stubtest", "hexcore._core"],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
