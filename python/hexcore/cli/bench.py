"""``python -m hexcore bench``: the standard benchmark suite"""
from __future__ import annotations

import argparse
from typing import Any

from ._common import check_output, write_json


def add_parser(sub: Any) -> None:
    p = sub.add_parser("bench", help="the standard benchmark suite")
    p.add_argument("--json", help="write results as JSON")
    p.add_argument("--quick", action="store_true", help="smaller workloads")


def run(args: argparse.Namespace) -> int:
    import platform

    check_output(args.json, "--json")
    print(f"hexcore bench on {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    from ..bench import run_bench

    rows = run_bench(quick=args.quick, report=lambda line: print(line, flush=True))
    if args.json:
        write_json(args.json, {"machine": platform.platform(), "rows": rows})
    return 0
