"""The documentation site: it builds with ``mkdocs build --strict``, its API
reference lists every public name of the documented modules, and every game
has its page made from its rule card in seeds/. (The pages' examples are
doctested in tests/package/test_readme.py.)"""
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import hexcore

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED = ["hexcore", "hexcore.search", "hexcore.agents", "hexcore.vector", "hexcore.envs", "hexcore.distributed"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The built site: scripts/test.sh builds it once (HEXCORE_SITE); run alone, this builds it."""
    given = os.environ.get("HEXCORE_SITE")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("site")
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    return out


def _nav_files(nav):
    for item in nav:
        if isinstance(item, str):
            yield item
        else:
            for value in item.values():
                yield from ([value] if isinstance(value, str) else _nav_files(value))


def _config():
    # mkdocs.yml has no custom tags, so the safe loader reads it
    return yaml.safe_load((ROOT / "mkdocs.yml").read_text())


def test_every_page_in_the_nav():
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert pages == set(_nav_files(_config()["nav"]))


@pytest.mark.parametrize("name", DOCUMENTED)
def test_reference_lists_every_public_name(site, name):
    mod = importlib.import_module(name)
    page = (site / "reference" / name.split(".")[-1] / "index.html").read_text()
    assert f'id="{name}"' in page
    missing = []
    for public in mod.__all__:
        if isinstance(getattr(mod, public), type(hexcore)):  # a submodule: it has its own page
            sub = getattr(mod, public).__name__
            if f'id="{sub}"' not in (site / "reference" / sub.split(".")[-1] / "index.html").read_text():
                missing.append(sub)
        elif f'id="{name}.{public}"' not in page:
            missing.append(public)
    assert not missing, f"{name}: not in the API reference: {missing}"


def test_reference_shows_the_game_methods(site):
    page = (site / "reference" / "hexcore" / "index.html").read_text()
    for method in ("legal_moves", "play", "undo", "legal_actions", "apply_action", "observation", "from_position"):
        assert f'id="hexcore._core._Game.{method}"' in page, method


@pytest.mark.parametrize("game", sorted(hexcore.GAMES))
def test_every_game_has_its_page(site, game):
    page = ROOT / "docs" / "games" / f"{game}.md"
    assert f'--8<-- "seeds/{game}.md"' in page.read_text()
    html = (site / "games" / game / "index.html").read_text()
    # the rule card itself was included: its title and its plain section headings are on the page
    card = (ROOT / "seeds" / f"{game}.md").read_text().splitlines()
    assert card[0].startswith("# ") and card[0].split()[1].lower() == game
    headings = [line[3:] for line in card if line.startswith("## ") and not any(c in line for c in "`&<>'\"")]
    assert headings and all(h in html for h in headings), [h for h in headings if h not in html]


def test_changelog_page_is_the_changelog(site):
    html = (site / "changelog" / "index.html").read_text()
    assert "Unreleased" in html and "Keep a Changelog" in html
