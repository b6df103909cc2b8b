"""hexcore's Havannah and Y against OpenSpiel's C++ ``havannah`` and ``y``
(pyspiel) on 10,000 random games each, over several sizes, Havannah with and
without swap. Run once (minutes):

    python scripts/openspiel_havannah_y.py [--games 10000]

At every ply the legal actions must be equal, and each action's text; at the
end, the end ply and the returns (winner or draw). For Havannah it counts how
the games were won (ring, bridge, fork, draw). Prints one line per game and
exits non-zero on the first difference. The tests (``tests/games/test_havannah.py``,
``tests/games/test_y.py``) run the same comparison on a few hundred games.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

import hexcore as hc

HAVANNAH = [(size, swap) for size in (2, 3, 4, 5, 6, 8, 10) for swap in (False, True)]
Y = [2, 3, 4, 5, 7, 9, 11, 13, 19]


def compare(start, os_game, rng: random.Random) -> tuple:
    g, s = start.copy(), os_game.new_initial_state()
    while True:
        mine = [int(a) for a in g.legal_actions()]
        if mine != s.legal_actions() or g.is_over != s.is_terminal():
            raise SystemExit(f"differ: {g.spec} {g.history}")
        if g.is_over:
            break
        a = mine[rng.randrange(len(mine))]
        if g.action_to_string(a) != s.action_to_string(s.current_player(), a):
            raise SystemExit(f"action text differs: {g.spec} {a}")
        g.apply_action(a)
        s.apply_action(a)
    if len(g.history) != len(s.history()) or list(g.scores()) != [int(r) for r in s.returns()]:
        raise SystemExit(f"end differs: {g.spec} {g.history}")
    return g, len(g.history)


def main() -> None:
    import pyspiel

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    args = ap.parse_args()
    t0 = time.perf_counter()
    kinds: Counter = Counter()
    games = plies = 0
    for k, (size, swap) in enumerate(HAVANNAH):
        os_game = pyspiel.load_game("havannah", {"board_size": size, "swap": swap})
        start = hc.Havannah(size=size, swap=swap)
        for i in range(-(-args.games // len(HAVANNAH))):
            g, n = compare(start, os_game, random.Random(k * 1_000_003 + i))
            kinds[g.win_kind() or "draw"] += 1
            games, plies = games + 1, plies + n
    print(f"havannah: {games} games, {plies} plies identical to OpenSpiel (sizes 2-10, swap on and off); "
          f"ends: {dict(kinds)}")
    games = plies = 0
    for k, size in enumerate(Y):
        os_game = pyspiel.load_game("y", {"board_size": size})
        start = hc.Y(size=size)
        for i in range(-(-args.games // len(Y))):
            _, n = compare(start, os_game, random.Random(k * 1_000_003 + i))
            games, plies = games + 1, plies + n
    print(f"y: {games} games, {plies} plies identical to OpenSpiel (sizes {Y[0]}-{Y[-1]})")
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
