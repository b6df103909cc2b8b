"""Abstract Play's Wunchunk data as the tests read it: where it lives, AP's
rejection codes in our reasons, and AP's way of showing score vectors."""
from __future__ import annotations

from pathlib import Path
from typing import List, Sequence

DATA = Path(__file__).resolve().parents[1] / "seeds" / "wunchunk"

# AP's rejection codes -> our reasons
AP_REASON = {
    "INVALID_COLOUR": "bad_colour",
    "INVALID_CELL": "unknown_cell",
    "OCCUPIED": "occupied",
    "TOO_MANY": "too_many_stones",
    "BOARD_FULL": "more_than_empty",
    "BALANCE": "balance",
    "MUST_CHOOSE": "open_choice",
    "INCOMPLETE": "open_setup",
    "SETUP_TOOMANY": "open_setup",
    "SETUP_CHUNKS": "open_setup",
    "INVALID_MOVE": "swap_not_allowed",
}


def ap_truncate(vectors: Sequence[Sequence[int]]) -> List[List[int]]:
    """AP shows score vectors cut after the entry that decides the ranking."""
    cand = list(range(len(vectors)))
    cutoff = 0
    for i in range(len(vectors[0])):
        cutoff = i
        low = min(vectors[p][i] for p in cand)
        cand = [p for p in cand if vectors[p][i] == low]
        if len(cand) == 1:
            break
    return [list(v[: cutoff + 1]) for v in vectors]
