"""The metrics of a set of games, each with its definition (``DEFINITIONS``,
shown on the page) and a 95% interval where it is an estimate.

Outcome and duration come from a :class:`hexcore.PlayoutSummary` (the
summary of ``hexcore.random_playouts`` for random play, or of the played
games); the board, complexity and play-quality metrics from the turn-by-turn
:class:`~hexcore.analysis.games.GameLog` of played games.
"""
from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..match import Z95, wilson
from ..summary import PlayoutSummary
from .games import GameLog

__all__ = ["DEFINITIONS", "DECISIVE", "summary_of", "outcome", "duration", "board", "complexity", "play_quality",
           "level_metrics", "mean_ci"]

#: A player's own evaluation at or above this counts as "decided" for it.
DECISIVE = 0.8

DEFINITIONS: Dict[str, str] = {
    "win_rate": "share of games that seat k won alone (95% Wilson interval); the seat advantage is its distance "
                "from 1/players",
    "balance": "1 - (highest seat win rate - lowest seat win rate): 1 when every seat wins equally often "
               "(95% normal interval of the difference)",
    "draw_rate": "share of finished games that every seat won (a draw)",
    "shared_rate": "share of finished games won by two or more seats but not all",
    "completion": "share of games that ended by the rules before a ply cap",
    "plies": "moves (whole turns) per game: mean (95% interval), sd, quantiles and histogram",
    "actions_per_turn": "actions (stones placed or choices made) per whole turn",
    "removed_per_turn": "stones taken off the board per turn",
    "coverage": "share of the board's cells that held a stone at some time in the game",
    "occupancy": "share of the board's cells holding a stone at the end",
    "branching": "legal whole moves per turn, counted exactly by the engine (mean over games of the per-game mean)",
    "choice_share": "share of turns with more than one legal move",
    "log10_game_tree": "game-tree complexity: log10 of the product of the branching along a game (mean over games)",
    "log10_state_space_bound": "state-space estimate (upper bound): log10(V^cells) for the V cell values seen in play",
    "decisiveness": f"the ply, as a share of the game's length, from which the eventual sole winner's own evaluation "
                    f"(its search's value of its chosen move) stays at or above {DECISIVE}",
    "lead_changes": "two players: times per game the side ahead by the mover's evaluation (above or below 1/2) changes",
    "drama": "share of games whose sole winner's own evaluation was once below 1/players - 0.1 (won from behind)",
    "stability": "mean absolute change of a seat's evaluation between its consecutive turns",
}


def mean_ci(xs: Sequence[Optional[float]]) -> Dict[str, Any]:
    """Mean with a 95% normal interval (``None`` values are left out)."""
    vals = [float(x) for x in xs if x is not None]
    if not vals:
        return {"mean": None, "ci": None, "n": 0}
    m = float(np.mean(vals))
    half = Z95 * float(np.std(vals, ddof=1)) / math.sqrt(len(vals)) if len(vals) > 1 else math.inf
    lo, hi = (m - half, m + half) if math.isfinite(half) else (None, None)
    return {"mean": m, "ci": [lo, hi] if lo is not None else None, "n": len(vals)}


def _rate(k: float, n: int) -> Dict[str, Any]:
    lo, hi = wilson(int(round(k)), n)
    return {"rate": k / n if n else None, "ci": [lo, hi], "n": n}


def summary_of(logs: Sequence[GameLog], num_players: int) -> PlayoutSummary:
    """The :class:`PlayoutSummary` of played games."""
    mask = [sum(1 << (w - 1) for w in lg.winners) for lg in logs]
    return PlayoutSummary.of(np.array([lg.plies for lg in logs], dtype=np.uint64),
                             np.array([lg.actions for lg in logs], dtype=np.uint64),
                             np.array(mask, dtype=np.uint8), np.ones(len(logs), dtype=bool), num_players)


def outcome(s: PlayoutSummary) -> Dict[str, Any]:
    """Win rate per seat, balance, draws and shared wins, completion."""
    n = s.games
    seats = [dict(seat=k + 1, win_rate=s.wins[k] / n if n else None, ci=list(wilson(s.wins[k], n)))
             for k in range(s.num_players)]
    rates = [s.wins[k] / n if n else 0.0 for k in range(s.num_players)]
    hi_k, lo_k = int(np.argmax(rates)), int(np.argmin(rates))
    d = rates[hi_k] - rates[lo_k]
    var = (rates[hi_k] + rates[lo_k] - d * d) / n if n and hi_k != lo_k else 0.0
    half = Z95 * math.sqrt(max(var, 0.0))
    fin = s.finished
    return {
        "games": n,
        "seats": seats,
        "balance": {"value": 1 - d, "ci": [max(0.0, 1 - d - half), min(1.0, 1 - d + half)]},
        "draw_rate": _rate(s.draws, fin),
        "shared_rate": _rate(s.shared, fin),
        "completion": _rate(fin, n),
    }


def duration(s: PlayoutSummary) -> Dict[str, Any]:
    """Game length in plies (mean with interval, sd, quantiles, histogram) and actions per turn."""
    n = s.games
    sd = s.sd
    half = Z95 * sd * math.sqrt(n / (n - 1)) / math.sqrt(n) if n > 1 else math.nan
    q = {f"{int(p * 100)}": s.quantile(p) for p in (0.05, 0.25, 0.5, 0.75, 0.95)} if n else {}
    plies = {"mean": s.mean, "ci": [s.mean - half, s.mean + half] if n > 1 else None, "sd": sd,
             "quantiles": q, "histogram": [[k, v] for k, v in sorted(s.lengths.items())]}
    return {"plies": plies, "actions_per_turn": s.actions / s.plies if s.plies else None}


def board(logs: Sequence[GameLog]) -> Dict[str, Any]:
    """Coverage and final occupancy."""
    return {"coverage": mean_ci([lg.covered / lg.cells for lg in logs if lg.cells]),
            "occupancy": mean_ci([lg.occupied / lg.cells for lg in logs if lg.cells]),
            "removed_per_turn": mean_ci([sum(lg.removed) / len(lg.removed) for lg in logs if lg.removed])}


def complexity(logs: Sequence[GameLog]) -> Dict[str, Any]:
    """Branching, share of real choices, game-tree and state-space estimates."""
    per_game = [[b for b in lg.branching if b is not None] for lg in logs]
    turns = sum(len(b) for b in per_game)
    choices = sum(1 for b in per_game for x in b if x > 1)
    trees = [lg.log10_tree for lg in logs]
    values = set(v for lg in logs for v in lg.values) | {0}
    cells = max((lg.cells for lg in logs), default=0)
    return {
        "branching": mean_ci([float(np.mean(b)) for b in per_game if b]),
        "choice_share": _rate(choices, turns),
        "log10_game_tree": mean_ci([t for t in trees if t is not None]),
        "log10_state_space_bound": cells * math.log10(len(values)) if cells else None,
    }


def _quality(lg: GameLog, num_players: int) -> Optional[Dict[str, Optional[float]]]:
    ev = [(m, v) for m, v in zip(lg.movers, lg.evals) if v is not None]
    if not ev:
        return None
    out: Dict[str, Optional[float]] = {"decisiveness": None, "drama": None, "lead_changes": None}
    if len(lg.winners) == 1:
        w = lg.winners[0]
        own = [(t, v) for t, (m, v) in enumerate(zip(lg.movers, lg.evals)) if m == w and v is not None]
        start = len(lg.movers)
        for t, v in reversed(own):
            if v < DECISIVE:
                break
            start = t
        out["decisiveness"] = start / max(len(lg.movers), 1)
        out["drama"] = 1.0 if any(v < 1 / num_players - 0.1 for _, v in own) else 0.0
    if num_players == 2:
        leaders = [m if v > 0.5 else 3 - m for m, v in ev if v != 0.5]
        out["lead_changes"] = float(sum(1 for a, b in zip(leaders, leaders[1:]) if a != b))
    last: Dict[int, float] = {}
    jumps: List[float] = []
    for m, v in ev:
        if m in last:
            jumps.append(abs(v - last[m]))
        last[m] = v
    out["stability"] = float(np.mean(jumps)) if jumps else None
    return out


def play_quality(logs: Sequence[GameLog], num_players: int) -> Optional[Dict[str, Any]]:
    """Decisiveness, lead changes, drama and stability from the searches' evaluations (None without searches)."""
    rows = [q for q in (_quality(lg, num_players) for lg in logs) if q is not None]
    if not rows:
        return None
    out: Dict[str, Any] = {}
    for key in ("decisiveness", "lead_changes", "stability"):
        out[key] = mean_ci([r[key] for r in rows if r.get(key) is not None])
    drama = [r["drama"] for r in rows if r["drama"] is not None]
    out["drama"] = _rate(sum(d for d in drama if d is not None), len(drama)) if drama else None
    return out


def level_metrics(summary: PlayoutSummary, logs: Sequence[GameLog], num_players: int,
                  source: str) -> Dict[str, Any]:
    """Every metric of one level of play: outcome and duration from ``summary``, the rest from ``logs``."""
    return {
        "source": source,
        "games_played_turn_by_turn": len(logs),
        "outcome": outcome(summary),
        "duration": duration(summary),
        "board": board(logs) if logs else None,
        "complexity": complexity(logs) if logs else None,
        "play": play_quality(logs, num_players),
    }
