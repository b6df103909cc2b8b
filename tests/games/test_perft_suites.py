"""Every perft suite in seeds/perft/ agrees at move and action level, up to a
node limit that keeps CI fast (raise HEXCORE_PERFT_LIMIT for a longer run)."""
import os

import pytest

import hexcore as hc
from hexcore.perft_suite import load_suite, parse_suite, run_suite

from tests.support.data import SEEDS
from tests.support.perft import ref_perft

LIMIT = int(os.environ.get("HEXCORE_PERFT_LIMIT", "3000000"))
SUITES = sorted((SEEDS / "perft").glob("*.perft"))


def test_there_are_suites():
    assert any(p.stem == "churn" for p in SUITES)


@pytest.mark.parametrize("path", SUITES, ids=lambda p: p.stem)
def test_suite(path):
    entries = load_suite(path)
    assert entries
    for e in entries:
        assert e.spec.split("(")[0] in hc.GAMES, f"{path.name}: unknown game in {e.spec}"
    results = run_suite(entries, max_nodes=LIMIT, threads=2)
    assert results, f"{path.name}: nothing under the node limit"
    bad = [r for r in results if not r.ok]
    assert not bad, bad


def test_suite_parser_errors():
    with pytest.raises(ValueError):
        parse_suite("spec churn(size=3)\n")
    with pytest.raises(ValueError):
        parse_suite("id x\nfoo bar\n")
    with pytest.raises(ValueError):
        parse_suite("id x\nperft 1 19\n")


REF_LIMIT = int(os.environ.get("HEXCORE_REF_PERFT_LIMIT", "20000"))


@pytest.mark.parametrize("path", SUITES, ids=lambda p: p.stem)
def test_suite_against_reference(path):
    from hexcore import reference
    from hexcore.spec import parse

    checked = 0
    for e in load_suite(path):
        name, opts = parse(e.spec)
        cls = getattr(reference, hc.GAMES[name].__name__)
        r = cls(**opts)
        for m in e.moves:
            r.play(m)
        for d, n in sorted(e.counts.items()):
            if n <= REF_LIMIT:
                assert ref_perft(r, d, bulk=True) == n, (e.id, d)
                checked += 1
    assert checked


def test_node_limit_is_the_old_name_of_max_nodes():
    """``run_suite(max_nodes=...)`` is the new name of ``node_limit``, which
    still works with a FutureWarning."""
    entries = load_suite(SEEDS / "perft" / "churn.perft")
    new = run_suite(entries, max_nodes=5000, threads=1)
    with pytest.warns(FutureWarning, match=r"node_limit= is renamed max_nodes="):
        old = run_suite(entries, node_limit=5000, threads=1)
    assert old == new and new and len(new) < len(run_suite(entries, max_nodes=50_000, threads=1))
