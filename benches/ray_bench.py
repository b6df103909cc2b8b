"""The Ray backend against local threads on the same CPUs (README figures):
``python benches/ray_bench.py [--quick]``.

Starts a local Ray with 2 CPUs inside a private network namespace holding
only the loopback device (it re-runs itself under
``scripts/in-private-network``; ``--here`` skips that) and reports, in one run:
the fixed cost of a call; a depth-1 perft with 55,207 first moves; a
perft and a playout job of several seconds on Ray against the local engine
on 2 threads (as a ratio); the driver's resident memory growth over a
10**6-game summary job. Without Ray installed it says so and exits.
"""
import argparse
import importlib.util
import os
import resource
import socket
import statistics
import sys
import time

import hexcore as hc


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main(quick: bool = False) -> int:
    if importlib.util.find_spec("ray") is None:
        print("ray is not installed (pip install 'hexcore[ray]'): Ray rows skipped")
        return 0
    import ray

    from hexcore import distributed as d

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    small = hc.Churn(size=3)
    d.perft(small, 3, progress=False)  # start the workers
    cost = statistics.median(timed(lambda: d.perft(small, 1, progress=False))[0] for _ in range(7))
    print(f"fixed cost of a call (perft depth 1, one task):           {cost * 1e3:8.1f} ms")

    wide = hc.Wunchunk(size=6, start="open", balance="none")
    dt, n = timed(lambda: d.perft(wide, 1, progress=False))
    print(f"depth-1 perft, {n:,} first moves (Ray):                  {dt:8.3f} s")
    dt, rows = timed(lambda: d.perft(wide, 1, divide=True, progress=False))
    print(f"depth-1 divide, {len(rows):,} rows (Ray):                      {dt:8.3f} s")

    jobs = [
        ("perft churn(size=4) depth 7" if not quick else "perft churn(size=4) depth 6",
         lambda: hc.perft(hc.Churn(size=4), 6 if quick else 7, threads=2),
         lambda: d.perft(hc.Churn(size=4), 6 if quick else 7, progress=False)),
        ("500,000 playouts churn(size=4)" if not quick else "20,000 playouts churn(size=4)",
         lambda: hc.random_playouts(hc.Churn(size=4), 20_000 if quick else 500_000, threads=2).summary(),
         lambda: d.random_playouts(hc.Churn(size=4), 20_000 if quick else 500_000, summary=True, progress=False)),
    ]
    for name, local, remote in jobs:
        t_local, a = timed(local)
        t_ray, b = timed(remote)
        assert a == b, name
        print(f"{name:32s} local 2 threads {t_local:6.2f} s, Ray 2 CPUs {t_ray:6.2f} s: "
              f"Ray/local {t_ray / t_local:.2f}x")

    games = 10**5 if quick else 10**6
    before = rss_mb()
    dt, s = timed(lambda: d.random_playouts(hc.Churn(size=3), games, summary=True, progress=False))
    print(f"{games:,}-game summary job in {dt:.1f} s: driver RSS {before:.1f} MB before, {rss_mb():.1f} MB after "
          f"(+{rss_mb() - before:.1f} MB); mean length {s.mean:.2f}")
    ray.shutdown()
    return 0


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--here", action="store_true", help="do not move into a private network namespace")
    a = p.parse_args()
    if not a.here and {name for _, name in socket.if_nameindex()} - {"lo"}:
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "in-private-network")
        os.execvp("bash", ["bash", script, sys.executable, *sys.argv])
    sys.exit(main(a.quick))
