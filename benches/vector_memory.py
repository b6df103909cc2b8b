"""Resident memory of hexcore.vector over 10**7 env-steps (README figure):
``python benches/vector_memory.py [total_steps]``."""
import resource
import sys
import time

from hexcore.vector import VecGame


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def main(total: int = 10**7) -> None:
    v = VecGame("churn(size=5,pie=false)", 1024, seed=0, max_plies=200)
    for _ in range(200):  # warm-up: buffers, pools, one full episode per env
        v.step(v.sample_actions())
    before, t0, steps, ended = rss_mb(), time.perf_counter(), 0, 0
    while steps < total:
        r = v.step(v.sample_actions())
        ended += int(r.done.sum())
        steps += v.num_envs
    print(f"{steps:,} env-steps ({ended:,} episodes ended) in {time.perf_counter() - t0:.1f} s: "
          f"RSS {before:.1f} MB before, {rss_mb():.1f} MB after")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10**7)
