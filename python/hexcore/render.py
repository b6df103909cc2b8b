"""SVG pictures of any hexcore game (``svg(game)``; notebooks use
``game._repr_svg_()``), and the same picture as an RGB array
(``rgb_array(game)``, for Gymnasium's ``render_mode="rgb_array"``).

Cells are pointy-top hexagons laid out from the board's axial coordinates;
stones are filled circles in the player's colour, neutral stones (Quintun)
carry their letter, and the last move is ringed. A game whose players own
sides of the board (``GameInfo.edges``) has those sides drawn in the owner's
colour.
"""
from __future__ import annotations

import math
from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np
import numpy.typing as npt

from ._core import _Game
from .registry import info

PLAYER_COLOURS: Dict[int, str] = {1: "#d62728", 2: "#1f5fbf", 3: "#2ca02c", 4: "#e8b400"}
NEUTRAL_COLOURS: Dict[int, str] = {-1: "#8c564b", -2: "#e377c2", -3: "#17becf", -4: "#bcbd22", -5: "#9467bd"}


def move_cells(board: Any, move: str) -> List[int]:
    """The cells a move's text names (none for ``swap``, ``pass``, ...)."""
    import re

    out = []
    for token in re.split(r"[,\s]+", move):
        m = re.fullmatch(r"[1-9]?([a-z]+[0-9]+)", token)
        if m:
            try:
                out.append(board.index(m.group(1)))
            except ValueError:
                pass
    return out


def _last_cells(game: Any) -> List[int]:
    """Cells touched by the last move, if its text names cells."""
    hist = getattr(game, "history", [])
    if not hist:
        return []
    return move_cells(game.board, hist[-1])


def svg(game: Any, size: float = 28.0, labels: bool = True, last_move: bool = True,
        title: Optional[str] = None, fills: Optional[Mapping[int, str]] = None,
        notes: Optional[Mapping[int, str]] = None) -> str:
    """An SVG picture of the game's position. ``fills`` colours cells by
    index (a heat map) and ``notes`` writes a short text on empty cells in
    place of their label."""
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
        if fills is not None and i in fills:
            fill = fills[i]
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
        elif notes is not None and i in notes:
            out.append(f'<text x="{x:.1f}" y="{y + r * 0.2:.1f}" text-anchor="middle" font-size="{r * 0.5:.0f}" '
                       f'fill="#000000">{notes[i]}</text>')
        elif labels:
            out.append(f'<text x="{x:.1f}" y="{y + r * 0.2:.1f}" text-anchor="middle" font-size="{r * 0.5:.0f}" '
                       f'fill="#8a7a5a">{board.label(i)}</text>')
        if i in last:
            out.append(f'<circle class="last" cx="{x:.1f}" cy="{y:.1f}" r="{r * 0.86:.1f}" fill="none" '
                       f'stroke="#ff9900" stroke-width="3"/>')
    out.append("</svg>")
    return "\n".join(out)


def _rgb(colour: str) -> Tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def rgb_array(game: Any, cell: int = 24) -> "npt.NDArray[np.uint8]":
    """The position as an ``(H, W, 3)`` uint8 picture (Gymnasium's
    ``render_mode="rgb_array"``): the cells of :func:`svg` without labels,
    ``cell`` pixels between the centres of neighbouring cells, stones in the
    same colours. Pure numpy: no image library needed."""
    board = game.board
    cells = game.cells()
    n = board.num_cells
    r = cell / math.sqrt(3)  # circumradius of a cell
    axial = np.array([board.axial(i) for i in range(n)], dtype=np.float64).reshape(n, 2)
    cx = r * math.sqrt(3) * (axial[:, 0] + axial[:, 1] / 2.0)
    cy = r * 1.5 * axial[:, 1]
    pad = r * 1.2
    cx, cy = cx - cx.min() + pad, cy - cy.min() + pad
    width, height = int(math.ceil(cx.max() + pad)), int(math.ceil(cy.max() + pad))
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64) + 0.5
    # the cell under every pixel: round its fractional axial coordinates (cube rounding)
    q0, r0 = axial[:, 0].min(), axial[:, 1].min()
    x0 = cx[0] - r * math.sqrt(3) * ((axial[0, 0] - q0) + (axial[0, 1] - r0) / 2.0)
    y0 = cy[0] - r * 1.5 * (axial[0, 1] - r0)
    fr = (ys - y0) / (1.5 * r)
    fq = (xs - x0) / (r * math.sqrt(3)) - fr / 2.0
    fs = -fq - fr
    rq, rr, rs = np.rint(fq), np.rint(fr), np.rint(fs)
    dq, dr, ds = np.abs(rq - fq), np.abs(rr - fr), np.abs(rs - fs)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    gq, gr = (axial[:, 0] - q0).astype(int), (axial[:, 1] - r0).astype(int)
    grid = np.full((gq.max() + 3, gr.max() + 3), -1, dtype=np.int64)
    grid[gq + 1, gr + 1] = np.arange(n)
    iq = np.clip(rq.astype(int) + 1, 0, grid.shape[0] - 1)
    ir = np.clip(rr.astype(int) + 1, 0, grid.shape[1] - 1)
    near = grid[iq, ir]
    off = near < 0
    near = np.where(off, 0, near)
    dx, dy = np.abs(xs - cx[near]), np.abs(ys - cy[near])
    half = r * math.sqrt(3) / 2
    # how far inside its hexagon a pixel lies (pointy-top; in pixels)
    inside = np.minimum(half - dx, half - (dx * 0.5 + dy * math.sqrt(3) / 2))
    inside[off] = -1.0
    dist = np.hypot(dx, dy)
    gi = info(game)
    palette = dict(PLAYER_COLOURS)
    if gi is not None:
        palette.update(gi.stone_colours)
    ring = set(board.ring) if gi is not None and gi.shade_ring else set()
    lut = np.zeros((n, 3), np.uint8)
    for i in range(n):
        v = int(cells[i])
        if v > 0:
            lut[i] = _rgb(palette.get(v, "#555555"))
        elif v < 0:
            lut[i] = _rgb(NEUTRAL_COLOURS.get(v, "#777777"))
        else:
            lut[i] = _rgb("#e9dcc0" if i in ring else "#f3e9d2")
    empty = np.array([_rgb("#e9dcc0" if i in ring else "#f3e9d2") for i in range(n)], np.uint8).reshape(n, 3)
    stone = (cells[near] != 0) & (dist <= r * 0.72)
    img = np.where(stone[..., None], lut[near], empty[near])
    img[inside < 1.0] = _rgb("#8a7a5a")
    img[inside < 0.0] = 255
    return np.ascontiguousarray(img, dtype=np.uint8)


def _repr_svg_(self: Any) -> str:
    """The game's picture in Jupyter (the extension imports nothing from
    this package, so the package gives the games this method)."""
    return svg(self)


setattr(_Game, "_repr_svg_", _repr_svg_)
