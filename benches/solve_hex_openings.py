"""Every opening of Hex n x n (no swap) solved: nodes and seconds per board.

    python benches/solve_hex_openings.py [--sizes 3 4 5 6] [--budget 600] [--table-mb 512]
        [--algorithm alphabeta|dfpn] [--threads 1] [--certificates DIR [--openings c3 d4 ...]]

Solves the empty board with ``hc.solve(hc.Hex(size=n), threads=T, distances=False,
algorithm=A)``: the values pass proves win or loss for every opening (``dfpn``: one
depth-first proof-number search per opening, the threads sharing them out). Boards over 5x5 get
``--budget`` seconds; an unfinished board reports how many openings were proved.
Prints wall and CPU seconds (the machine is shared: CPU seconds are the steadier
figure) and checks the values against the published ones where they exist:
- 4x4: the winning openings are the short diagonal a4 b3 c2 d1;
- 6x6 and 7x7: the outcome of every opening in the regression suite of Benzene, the
  University of Alberta's Hex solver (``regression/dfs-solve-6x6.tst``, ``-7x7.tst``);
- every board: the first player wins (strategy stealing), and openings that the
  half turn maps onto each other have the same value.
With ``--certificates DIR``, each opening is then proved again on its own with a certificate
(``hc.solve(hc.Hex.replay([m], size=n), certificate=...)``, df-pn), which the pure-Python
checker ``hexcore.reference.check_certificate`` replays; it prints each opening's positions and
seconds (written, checked) and the totals, and checks the values as above; ``--openings``
proves only those (to share the openings among processes). An opening whose half turn's
certificate is already in DIR gets that one with every cell turned (the half turn keeps each
player's edges), checked anew like the others.
No published table of the 5x5 openings in text form was found (Queenbee's opening
page and HexWiki's "Small boards" show them as pictures only).
"""
from __future__ import annotations

import argparse
import os
import time

import hexcore as hc

# x's losing openings (o wins); every other opening wins for x.
PUBLISHED_LOSSES = {
    4: "a1 b1 c1 a2 b2 d2 a3 c3 d3 b4 c4 d4",
    6: "a1 a2 b1 b6 c1 c6 d1 d6 e1 e6 f5 f6",
    7: "a1 a2 a3 a5 b1 b2 b7 c1 c7 d1 d2 d6 d7 e1 e7 f1 f6 f7 g3 g5 g6 g7",
}


def half_turn(cell: str, n: int) -> str:
    col, row = ord(cell[0]) - ord("a"), int(cell[1:]) - 1
    return f"{chr(ord('a') + n - 1 - col)}{n - row}"


def solve_board(n: int, budget: float | None, table_mb: int, algorithm: str = "alphabeta", threads: int = 1) -> dict:
    t0, c0 = time.perf_counter(), time.process_time()
    s = hc.solve(hc.Hex(size=n), threads=threads, distances=False, table_mb=table_mb, max_seconds=budget,
                 algorithm=algorithm)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    # the root moves' values are for the player making them: x
    x_value = dict(s.moves)
    proved = {m: v for m, v in x_value.items() if v is not None}
    problems = []
    for m, v in proved.items():
        w = proved.get(half_turn(m, n))
        if w is not None and w != v:
            problems.append(f"{m} {v} but its half turn {half_turn(m, n)} {w}")
    if s.complete and s.value != "win":
        problems.append(f"the first player does not win: {s.value}")
    if n in PUBLISHED_LOSSES:
        losses = set(PUBLISHED_LOSSES[n].split())
        for m, v in proved.items():
            if v != ("loss" if m in losses else "win"):
                problems.append(f"{m}: solved {v}, published {'loss' if m in losses else 'win'}")
    winners = " ".join(m for m, v in proved.items() if v == "win")
    print(f"{n}x{n} {algorithm}, {threads} thread(s): {len(proved)} of {len(x_value)} openings in {wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"{s.nodes:,} nodes, table {s.table_entries:,} / {s.table_capacity:,}; "
          f"winning for x: {winners or '-'}"
          + ("" if n not in PUBLISHED_LOSSES else f"; matches the published values: {not problems}"))
    for p in problems:
        print("  MISMATCH", p)
    return {"n": n, "proved": len(proved), "openings": len(x_value), "wall": wall, "cpu": cpu,
            "nodes": s.nodes, "complete": s.complete, "problems": problems}


def write_half_turn(src: str, dst: str, n: int) -> None:
    """The certificate ``src`` with every cell turned half a turn, written to ``dst``."""
    import gzip
    import json

    def turn(x):
        if isinstance(x, str) and x != "swap":
            return half_turn(x, n)
        if isinstance(x, list):
            return [turn(y) for y in x]
        return x

    with gzip.open(src, "rt") as f, gzip.open(dst + ".part", "wt") as g:
        for line in f:
            item = json.loads(line)
            if isinstance(item, dict) and "moves" in item:
                item["moves"] = turn(item["moves"])
            elif isinstance(item, list) and len(item) == 3:
                item[1] = turn(item[1])
            elif isinstance(item, list):
                body = item[1]
                if "pairs" in body:
                    body["pairs"] = turn(body["pairs"])
                elif "fill" in body:
                    body["fill"] = turn(body["fill"])
                else:
                    item[1] = {turn(k): v for k, v in body.items()}
            g.write(json.dumps(item, separators=(",", ":")) + "\n")
    os.replace(dst + ".part", dst)


def certify_openings(n: int, table_mb: int, threads: int, out: str, only: list[str] | None = None) -> dict:
    """Every opening of n x n proved with a certificate and checked (see the module docs)."""
    from hexcore.reference import check_certificate

    os.makedirs(out, exist_ok=True)
    losses = set(PUBLISHED_LOSSES.get(n, "").split())
    problems = []
    total = {"positions": 0, "write": 0.0, "check": 0.0, "bytes": 0}
    for m in hc.Hex(size=n).legal_moves():
        if only and m not in only:
            continue
        path = os.path.join(out, f"hex{n}-{m}.jsonl.gz")
        mirror = os.path.join(out, f"hex{n}-{half_turn(m, n)}.jsonl.gz")
        t0 = time.perf_counter()
        if os.path.exists(mirror):
            # the half turn keeps each player's edges: the other opening's
            # proof with every cell turned, which the checker verifies anew
            write_half_turn(mirror, path, n)
            how = f"turned from {half_turn(m, n)}'s"
        else:
            s = hc.solve(hc.Hex.replay([m], size=n), threads=threads, distances=False, table_mb=table_mb,
                         algorithm="dfpn", certificate=path)
            how = "written"
        t1 = time.perf_counter()
        c = check_certificate(path)
        t2 = time.perf_counter()
        # the values are o's, to move: x's opening wins when o loses
        x_value = {"win": "loss", "loss": "win"}[c.value]
        if how == "written" and c.value != s.value:
            problems.append(f"{m}: the certificate proves {c.value}, the solve says {s.value}")
        if n in PUBLISHED_LOSSES and x_value != ("loss" if m in losses else "win"):
            problems.append(f"{m}: proved {x_value} for x, published {'loss' if m in losses else 'win'}")
        size = os.path.getsize(path)
        print(f"  {m}: {x_value} for x, {c.positions:,} positions ({c.fill_nodes:,} fill nodes, "
              f"{c.pairing_leaves:,} pairing leaves), {size / 1e6:.1f} MB, {how} in {t1 - t0:.1f} s, "
              f"checked in {t2 - t1:.1f} s", flush=True)
        total["positions"] += c.positions
        total["write"] += t1 - t0
        total["check"] += t2 - t1
        total["bytes"] += size
    print(f"{n}x{n}: every certificate checks: {not problems}; {total['positions']:,} positions, "
          f"{total['bytes'] / 1e6:.1f} MB, written in {total['write']:.0f} s, checked in {total['check']:.0f} s")
    for p in problems:
        print("  MISMATCH", p)
    return {"n": n, "problems": problems, **total}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 4, 5, 6])
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per board over 5x5")
    ap.add_argument("--table-mb", type=int, default=512)
    ap.add_argument("--algorithm", choices=["alphabeta", "dfpn"], default="alphabeta")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--certificates", metavar="DIR", help="also prove each opening with a certificate written "
                    "to DIR and checked by the pure-Python checker")
    ap.add_argument("--openings", nargs="+", help="with --certificates: only these openings")
    a = ap.parse_args()
    if a.certificates:
        rows = [certify_openings(n, a.table_mb, a.threads, a.certificates, a.openings) for n in a.sizes]
        if any(r["problems"] for r in rows):
            raise SystemExit("a certificate does not prove the published value")
        return
    rows = [solve_board(n, a.budget if n > 5 else None, a.table_mb, a.algorithm, a.threads) for n in a.sizes]
    largest = max((r["n"] for r in rows if r["complete"]), default=None)
    print(f"largest board with every opening solved: {largest}x{largest}" if largest else "no board finished")
    if any(r["problems"] for r in rows):
        raise SystemExit("values differ from the published ones or break the half-turn symmetry")


if __name__ == "__main__":
    main()
