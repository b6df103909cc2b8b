"""Guard speed by instructions, not by the clock: count the instructions of
fixed, small, seeded, one-thread workloads under ``valgrind --tool=callgrind``
and compare them with the committed baseline (``benches/instructions.json``).

    python scripts/check_instructions.py             # check (scripts/test.sh runs this)
    python scripts/check_instructions.py --update    # write a new baseline, deliberately

The Rust workloads are those of ``rust/core/examples/instructions.rs`` (the
jobs of the benches made small; callgrind collects only inside its
``hexcore_measured``), built with the release profile and the target CPU of
``.cargo/config.toml``, as CI builds them. The Python workload is a loop of
``legal_actions`` + ``apply_action`` through the installed extension (build it
with the release profile: ``pip install -e .`` or ``maturin develop --release``):
two runs of different lengths, their difference divided by the difference of
their steps, so that the interpreter's start-up and imports cancel out.

Each workload's instructions per unit of work (ply, node, env-step, simulation,
step) are compared with the baseline's; a growth of more than ``--tolerance``
(3%) fails, printing a table of old, new and their ratio. The counts do not
depend on the clock or the load, only on the code, the toolchain (rustc,
valgrind, CPython, NumPy: the baseline names the versions it was counted with)
and, a little, the CPU features valgrind passes on (which the C library's
string routines pick by). Update the baseline in the commit that earns it.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "benches" / "instructions.json"
EXAMPLE = ROOT / "target" / "release" / "examples" / "instructions"
RUST_WORKLOADS = ["playouts-churn5", "playouts-hex11", "perft-churn3", "vecgame-hex11", "batched-gumbel-churn7",
                  "batched-puct-churn7", "batched-gumbel-quintun7", "batched-puct-quintun7", "uct-churn4"]
PYTHON_WORKLOAD = "python-loop-churn5"
# the group "python" rows of hexcore.bench: a Python loop of legal_actions + apply_action
PYTHON_LOOP = """
import sys
import hexcore as hc
spec = "churn(size=5,pie=false)"
g = hc.load(spec)
for _ in range(int(sys.argv[1])):
    if g.is_over:
        g = hc.load(spec)
    g.apply_action(g.legal_actions()[0])
"""
# the two lengths of the Python loop (as wide as each other, so that the two runs differ in the steps only)
PYTHON_STEPS = ("01000", "05000")
TOLERANCE = 0.03


def callgrind(cmd: List[str], toggle: Optional[str] = None) -> Tuple[int, str]:
    """The instructions ``cmd`` executes under callgrind (only inside
    ``toggle`` when given) and its standard output."""
    vg = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    if toggle:
        vg += ["--collect-atstart=no", f"--toggle-collect={toggle}"]
    # fixed string hashes; NumPy's OpenBLAS without its threads (they spin for a while after import)
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    p = subprocess.run(vg + cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    m = re.search(r"^==\d+== Collected : (\d+)$", p.stderr, re.M)
    if p.returncode != 0 or m is None:
        raise SystemExit(f"check_instructions: {' '.join(cmd)} failed under callgrind (exit {p.returncode}):\n"
                         f"{p.stdout}{p.stderr[-3000:]}")
    return int(m.group(1)), p.stdout


def rust_workload(name: str) -> Dict[str, Any]:
    count, out = callgrind([str(EXAMPLE), name], toggle="hexcore_measured")
    m = re.search(r"^units (\d+) (\S+)$", out, re.M)
    if m is None:
        raise SystemExit(f"check_instructions: {name} printed no 'units' line: {out!r}")
    return {"instructions": count, "units": int(m.group(1)), "unit": m.group(2)}


def python_run(steps: str) -> int:
    return callgrind([sys.executable, "-c", PYTHON_LOOP, steps])[0]


def versions() -> Dict[str, str]:
    def first_line(cmd: List[str]) -> str:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()[0].strip()
        except (OSError, subprocess.CalledProcessError, IndexError):
            return "unknown"
    try:
        import numpy
        numpy_version = numpy.__version__
    except ImportError:
        numpy_version = "not installed"
    cpu = "unknown"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"rustc": first_line(["rustc", "--version"]), "valgrind": first_line(["valgrind", "--version"]),
            "python": platform.python_version(), "numpy": numpy_version, "cpu": cpu}


def per_unit(row: Dict[str, Any]) -> float:
    return int(row["instructions"]) / int(row["units"])


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--update", action="store_true", help="write the counts as the new baseline (commit it with "
                    "the change that earns it) instead of checking them")
    ap.add_argument("--tolerance", type=float, default=TOLERANCE,
                    help="the growth of instructions per unit that fails the check (default %(default)s: 3%%)")
    ap.add_argument("--baseline", type=Path, default=BASELINE, help="the baseline file (default %(default)s)")
    ap.add_argument("--only", nargs="+", metavar="WORKLOAD", help="count only these workloads")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                    help="workloads counted at once (default %(default)s)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("check_instructions: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    names = RUST_WORKLOADS + [PYTHON_WORKLOAD]
    if args.only:
        unknown = sorted(set(args.only) - set(names))
        if unknown:
            ap.error(f"unknown workloads {unknown}; known: {names}")
        names = [n for n in names if n in args.only]
    if any(n != PYTHON_WORKLOAD for n in names):
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "hexcore-core", "--example", "instructions"],
                       cwd=ROOT, check=True)
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        # the Python runs first: they take longest
        runs = [ex.submit(python_run, n) for n in PYTHON_STEPS] if PYTHON_WORKLOAD in names else []
        futures = {n: ex.submit(rust_workload, n) for n in names if n != PYTHON_WORKLOAD}
        new: Dict[str, Dict[str, Any]] = {n: f.result() for n, f in futures.items()}
        if runs:
            counts = [f.result() for f in runs]
            new[PYTHON_WORKLOAD] = {"instructions": counts[1] - counts[0],
                                    "units": int(PYTHON_STEPS[1]) - int(PYTHON_STEPS[0]), "unit": "steps"}
    here = versions()
    old: Dict[str, Any] = json.loads(args.baseline.read_text()) if args.baseline.exists() else {}
    old_rows: Dict[str, Dict[str, Any]] = old.get("workloads", {})
    ratios = {n: per_unit(new[n]) / per_unit(old_rows[n]) for n in names if n in old_rows}
    more = [n for n, r in ratios.items() if r > 1 + args.tolerance]
    fewer = [n for n, r in ratios.items() if r < 1 - args.tolerance]

    print(f"{'workload':<25} {'unit':<12} {'baseline/unit':>14} {'now/unit':>12} {'ratio':>7}  instructions now")
    for n in names:
        row = new[n]
        base = f"{per_unit(old_rows[n]):,.1f}" if n in old_rows else "-"
        ratio = f"{ratios[n]:.3f}" if n in ratios else "-"
        mark = "  MORE" if n in more else "  fewer" if n in fewer else ""
        print(f"{n:<25} {row['unit']:<12} {base:>14} {per_unit(row):>12,.1f} {ratio:>7}  "
              f"{row['instructions']:,} for {row['units']:,}{mark}")

    if args.update:
        rows = dict(old_rows) if args.only else {}
        rows.update({n: dict(new[n], per_unit=round(per_unit(new[n]), 1)) for n in names})
        data = {"about": "instructions of fixed workloads under callgrind: scripts/check_instructions.py",
                "versions": here, "workloads": rows}
        args.baseline.write_text(json.dumps(data, indent=2) + "\n")
        print(f"wrote {args.baseline}")
        return 0
    missing = [n for n in names if n not in old_rows]
    if missing:
        print(f"no baseline for {missing}: run with --update to add it", file=sys.stderr)
        return 1
    then = old.get("versions", {})
    differ = [f"{k}: {then.get(k)} then, {v} now" for k, v in here.items() if then.get(k) != v]
    if differ:
        print("counted with other versions than the baseline: " + "; ".join(differ))
    if fewer:
        print(f"fewer instructions than the baseline in {fewer}: if the change earns it, record it with --update")
    if more:
        print(f"check_instructions: more than {args.tolerance:.0%} more instructions per unit than the baseline in "
              f"{more}; make them fewer, or, if the cost is deliberate, write the new baseline with "
              f"`python scripts/check_instructions.py --update` and commit it with the change", file=sys.stderr)
        return 1
    print(f"instruction counts within {args.tolerance:.0%} of the baseline")
    return 0

if __name__ == "__main__":
    sys.exit(main())
