"""Perft by plain enumeration on a pure-Python reference game."""


def ref_perft(r, depth, bulk=False):
    """Perft by plain enumeration on a reference game (``bulk``: count the
    last level with ``count_moves``)."""
    if depth == 0:
        return 1
    if r.is_over:
        return 0
    if bulk and depth == 1:
        return r.count_moves()
    total = 0
    for m in r.legal_moves():
        child = r.copy()
        child.play(m)
        total += ref_perft(child, depth - 1, bulk)
    return total
