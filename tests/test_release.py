"""The version is declared once (Cargo.toml) and shown everywhere it is read."""
import re
import subprocess
import sys
from pathlib import Path

import hexcore

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent


def _cargo_version():
    return tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]["version"]


def test_version_declared_once():
    py = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in py and "version" in py["dynamic"]
    for crate in ("rust/core", "rust/py"):
        pkg = tomllib.loads((ROOT / crate / "Cargo.toml").read_text())["package"]
        assert pkg["version"] == {"workspace": True}, crate


def test_version_shown():
    v = _cargo_version()
    assert hexcore.__version__ == v
    out = subprocess.run([sys.executable, "-m", "hexcore", "--version"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == f"hexcore {v}"


def test_changelog_names_the_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## \[{re.escape(_cargo_version())}\]", text, re.M)
