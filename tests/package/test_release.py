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

ROOT = Path(__file__).resolve().parents[2]


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


def _workflow(name):
    yaml = __import__("yaml")  # pyyaml comes with the docs extra
    return yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text())


def _targets(job):
    return {p["target"] for p in job["strategy"]["matrix"]["platform"]}


def test_release_workflow_builds_tests_and_publishes_every_platform():
    wf = _workflow("release.yml")
    on = wf[True] if True in wf else wf["on"]  # YAML 1.1 reads the key `on` as True
    assert on["push"]["tags"]
    jobs = wf["jobs"]
    assert _targets(jobs["linux"]) == {"x86_64", "aarch64"}
    assert _targets(jobs["macos"]) >= {"x86_64", "aarch64"} or _targets(jobs["macos"]) == {"universal2-apple-darwin"}
    assert "x64" in _targets(jobs["windows"])
    for job in ("linux", "macos", "windows", "sdist"):
        uploads = [s for s in jobs[job]["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
        assert uploads, job
    linux_args = jobs["linux"]["steps"][2]["with"]
    assert "manylinux2014" in linux_args["args"] and linux_args["manylinux"] == "2014"
    # every artifact is installed and smoke-tested on its own platform before anything is published
    tested = {p["artifact"] for p in jobs["test"]["strategy"]["matrix"]["platform"]}
    assert tested == {"wheels-linux-x86_64", "wheels-linux-aarch64", "wheels-windows-x64", "wheels-macos-x86_64",
                      "wheels-macos-aarch64", "wheels-sdist"}
    smoke = jobs["test"]["steps"][-1]["run"]
    assert "python -m hexcore" in smoke and "scripts/smoke_test.py" in smoke
    assert (ROOT / "scripts" / "smoke_test.py").exists()
    release = jobs["release"]
    assert release["needs"] == ["test"] and release["permissions"]["id-token"] == "write"
    publish = [s for s in release["steps"] if s.get("uses", "").startswith("pypa/gh-action-pypi-publish")]
    assert publish and "password" not in publish[0].get("with", {})  # trusted publishing: no token


def test_ci_workflow_runs_the_test_command():
    wf = _workflow("ci.yml")
    on = wf[True] if True in wf else wf["on"]
    assert "push" in on
    steps = wf["jobs"]["test"]["steps"]
    assert any(s.get("run") == "bash .ci/run" for s in steps)
