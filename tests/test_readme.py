import doctest
from pathlib import Path

import hexcore

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples():
    res = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.attempted > 10 and res.failed == 0


def test_package_docstring_examples():
    res = doctest.testmod(hexcore)
    assert res.attempted > 0 and res.failed == 0


def test_module_docstring_examples():
    import hexcore.search
    import hexcore.summary

    for mod in (hexcore.search, hexcore.summary):
        res = doctest.testmod(mod)
        assert res.attempted > 0 and res.failed == 0, mod.__name__
