"""The package shows what it is: ``__init__.py`` only re-exports, the engine
entry points live in ``engine.py``, the testing tools (reference oracles,
perft-suite runners) and the benchmarks load only when used, and the command
line is one module per command."""
import ast
import pathlib
import subprocess
import sys

import hexcore.cli

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "hexcore"


def test_init_only_reexports():
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    defined = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name != "__getattr__"]
    assert defined == [], defined


def test_submodules_do_not_import_the_package_root():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "__init__.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level > 0 and node.module is None:
                up = path.parent
                for _ in range(node.level - 1):
                    up = up.parent
                if up == PACKAGE and any(a.name not in {p.stem for p in PACKAGE.iterdir()} for a in node.names):
                    offenders.append((path.relative_to(ROOT).as_posix(), [a.name for a in node.names]))
    assert not offenders, offenders


def test_import_hexcore_loads_no_testing_tools():
    code = ("import sys, hexcore, hexcore.vector; "
            "print(sorted(m for m in sys.modules if m.startswith(('hexcore', 'jax', 'pgx', 'pyspiel', 'ray'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(eval(out))
    for absent in ("hexcore.reference", "hexcore.perft_suite", "hexcore.bench", "hexcore._vector_bench", "hexcore.cli",
                   "jax", "pgx", "pyspiel", "ray"):
        assert absent not in loaded, absent
    code = "import sys, hexcore as hc; hc.reference.Churn(); print('hexcore.reference' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "True"


def test_one_module_per_command():
    modules = {p.stem for p in (PACKAGE / "cli").glob("*.py") if not p.stem.startswith("_")}
    assert modules == set(hexcore.cli.COMMANDS)
    for name, module in hexcore.cli.COMMANDS.items():
        assert module.__name__ == f"hexcore.cli.{name}"
        assert callable(module.add_parser) and callable(module.run)
    help_text = subprocess.run([sys.executable, "-m", "hexcore", "--help"], capture_output=True, text=True).stdout
    for name in hexcore.cli.COMMANDS:
        assert name in help_text


def test_one_progress_bar():
    """Only hexcore/progress.py draws a bar on stderr."""
    drawers = [p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*.py")
               if "'#' * filled" in p.read_text() or "tqdm(" in p.read_text()]
    assert drawers == ["python/hexcore/progress.py"], drawers
