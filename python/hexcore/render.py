"""SVG pictures of any hexcore game (``svg(game)``; notebooks use
``game._repr_svg_()``).

Cells are pointy-top hexagons laid out from the board's axial coordinates;
stones are filled circles in the player's colour, neutral stones (Quintun)
carry their letter, and the last move is ringed. A game whose players own
sides of the board (``GameInfo.edges``) has those sides drawn in the owner's
colour.
"""
from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

from .registry import info

PLAYER_COLOURS: Dict[int, str] = {1: "#d62728", 2: "#1f5fbf", 3: "#2ca02c", 4: "#e8b400"}
NEUTRAL_COLOURS: Dict[int, str] = {-1: "#8c564b", -2: "#e377c2", -3: "#17becf", -4: "#bcbd22", -5: "#9467bd"}


def _last_cells(game: Any) -> List[int]:
    """Cells touched by the last move, if its text names cells."""
    hist = getattr(game, "history", [])
    if not hist:
        return []
    board = game.board
    out = []
    import re

    for token in re.split(r"[,\s]+", hist[-1]):
        m = re.fullmatch(r"[1-9]?([a-z]+[0-9]+)", token)
        if m:
            try:
                out.append(board.index(m.group(1)))
            except ValueError:
                pass
    return out


def svg(game: Any, size: float = 28.0, labels: bool = True, last_move: bool = True,
        title: Optional[str] = None) -> str:
    """An SVG picture of the game's position."""
    board = game.board
    cells = game.cells()
    n = board.num_cells
    r = size
    w3 = math.sqrt(3)
    centres = []
    for i in range(n):
        q, rr = board.axial(i)
        centres.append((r * w3 * (q + rr / 2.0), r * 1.5 * rr))
    xs = [c[0] for c in centres]
    ys = [c[1] for c in centres]
    pad = r * 1.6
    minx, miny = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    ring = set(board.ring)
    gi = info(game)
    palette = dict(PLAYER_COLOURS)
    if gi is not None:
        palette.update(gi.stone_colours)
    last = set(_last_cells(game)) if last_move else set()
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{minx:.1f} {miny:.1f} {width:.1f} {height:.1f}" '
           f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif">']
    if title:
        out.append(f"<title>{title}</title>")
    out.append(f'<rect x="{minx:.1f}" y="{miny:.1f}" width="{width:.1f}" height="{height:.1f}" fill="#ffffff"/>')
    shade_ring = gi is not None and gi.shade_ring
    for i, (x, y) in enumerate(centres):
        pts = " ".join(f"{x + r * math.cos(math.radians(60 * k - 30)):.1f},{y + r * math.sin(math.radians(60 * k - 30)):.1f}"
                       for k in range(6))
        fill = "#e9dcc0" if (shade_ring and i in ring) else "#f3e9d2"
        out.append(f'<polygon class="cell" data-cell="{board.label(i)}" points="{pts}" fill="{fill}" stroke="#8a7a5a" stroke-width="1"/>')
    sides = board.sides if gi is not None and gi.edges else []
    for side, seat in (gi.edges.items() if gi is not None else ()):
        # The cells' outer edges on side k are the three corners facing
        # outwards: 4 + k, 5 + k and 6 + k (mod 6) counted from the right.
        for i in sides[side]:
            x, y = centres[i]
            pts = " ".join(f"{x + r * math.cos(math.radians(60 * k - 30)):.1f},{y + r * math.sin(math.radians(60 * k - 30)):.1f}"
                           for k in (4 + side, 5 + side, 6 + side))
            out.append(f'<polyline class="edge" data-seat="{seat}" points="{pts}" fill="none" '
                       f'stroke="{palette.get(seat, "#555555")}" stroke-width="{r * 0.3:.1f}" stroke-linecap="round"/>')
    for i, (x, y) in enumerate(centres):
        v = int(cells[i])
        if v > 0:
            colour = palette.get(v, "#555555")
            out.append(f'<circle class="stone" data-cell="{board.label(i)}" data-value="{v}" cx="{x:.1f}" cy="{y:.1f}" '
                       f'r="{r * 0.72:.1f}" fill="{colour}" stroke="#222" stroke-width="1"/>')
        elif v < 0:
            colour = NEUTRAL_COLOURS.get(v, "#777777")
            letter = chr(ord("A") - v - 1)
            out.append(f'<circle class="stone neutral" data-cell="{board.label(i)}" data-value="{v}" cx="{x:.1f}" cy="{y:.1f}" '
                       f'r="{r * 0.72:.1f}" fill="{colour}" stroke="#222" stroke-width="1"/>')
            out.append(f'<text x="{x:.1f}" y="{y + r * 0.28:.1f}" text-anchor="middle" font-size="{r * 0.8:.0f}" '
                       f'fill="#ffffff">{letter}</text>')
        elif labels:
            out.append(f'<text x="{x:.1f}" y="{y + r * 0.2:.1f}" text-anchor="middle" font-size="{r * 0.5:.0f}" '
                       f'fill="#8a7a5a">{board.label(i)}</text>')
        if i in last:
            out.append(f'<circle class="last" cx="{x:.1f}" cy="{y:.1f}" r="{r * 0.86:.1f}" fill="none" '
                       f'stroke="#ff9900" stroke-width="3"/>')
    out.append("</svg>")
    return "\n".join(out)
