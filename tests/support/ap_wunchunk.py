"""Abstract Play's Wunchunk data as the tests read it: where it lives, AP's
rejection codes in our reasons, AP's way of showing score vectors, and the
replay of AP's move traces (shared by the engine's and the reference's tests)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

import hexcore as hc
from hexcore.reference.wunchunk import IllegalMove

DATA = Path(__file__).resolve().parents[2] / "seeds" / "wunchunk"

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


def start_of(config: Dict[str, Any]) -> str:
    return "open" if config["open"] else "standard"


def board_dict(g: Any) -> Dict[str, int]:
    return {g.board.label(i): int(c) for i, c in enumerate(g.cells()) if c}


def verdict(g: Any, move: str) -> str:
    """'ok' or the rejection reason (engine or reference); the move is tried on
    a copy, which a rejection must leave unchanged."""
    h = g.copy()
    before = (board_dict(h), h.history, h.to_move)
    try:
        h.play(move)
        return "ok"
    except (hc.IllegalMoveError, IllegalMove) as e:
        assert isinstance(e, ValueError)
        assert (board_dict(h), h.history, h.to_move) == before
        return str(e.reason)


def load_traces() -> List[Tuple[str, int, Dict[str, Any]]]:
    out = []
    for path in sorted(DATA.glob("abstractplay_traces_*.jsonl")):
        with open(path) as f:
            out += [(path.name, i, json.loads(line)) for i, line in enumerate(f) if line.strip()]
    return out


def replay_trace(g: Any, name: str, idx: int, trace: Dict[str, Any]) -> None:
    """Replay one AP trace in `g`, checking before each move the mover, its
    colour, allotment and balance turn and AP's verdict on every probed move,
    and after it the board, the end, the winners and AP's score display."""
    for ply, p in enumerate(trace["plies"]):
        if p.get("auto"):
            assert p["move"] == "pass" and g.history[-1] == "swap"
            continue
        where = f"{name}#{idx} ply {ply} {p['move']}"
        assert g.to_move == p["to_move_before"], where
        assert g.seat_colour[g.to_move] == p["colour_before"], where
        assert g.allotment == p["allot_before"], where
        assert g.balance_turn == bool(p.get("balance_turn")), where
        for probe in p["probes"]:
            v = verdict(g, probe["move"])
            assert (v == "ok") == probe["valid"], (where, probe, v)
            if not probe["valid"]:
                assert v == AP_REASON[probe["code"]], (where, probe, v)
        g.play(p["move"])
        assert board_dict(g) == p["board_after"], where
        assert g.is_over == p["over_after"], where
        assert list(g.winners) == p["winners_after"], where
        assert ap_truncate(g.scores()) == p["score_arrays_after"], where
    assert g.is_over == trace["final"]["over"]
    assert list(g.winners) == trace["final"]["winners"]
    assert [v[0] for v in g.scores()] == trace["final"]["chunks_by_seat"]
