"""The report as one self-contained HTML page: tables, charts as inline SVG
drawn with matplotlib, the board pictures of ``hexcore.render``, the JSON
beside them in a ``<script type="application/json">`` block. No network."""
from __future__ import annotations

import html
import io
import json
import re
from typing import Any, Dict, List, Optional, Protocol, Sequence

from ..render import svg as board_svg
from ..spec import load
from .swap import opening_cells

__all__ = ["page"]


class Report(Protocol):
    """What the page shows of a :class:`hexcore.analysis.Report` (named here
    by its fields, so that this module does not import the one that uses it)."""

    spec: str
    metrics: Dict[str, Any]
    swap_map: Dict[str, Any]
    ladder: List[Dict[str, Any]]
    about: Dict[str, Any]
    complete: bool

    def to_dict(self) -> Dict[str, Any]: ...

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f4f4f4}td.l,th.l{text-align:left}.chart svg{max-width:100%;height:auto}
.boards{display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start}dt{font-weight:bold}dd{margin:0 0 .5em 1.5em}
.note{color:#a33}
"""


def _plt() -> Any:
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
    except ImportError as e:
        raise ImportError(f"the HTML report draws its charts with matplotlib: pip install 'hexcore[plot]' ({e})") from None
    return plt


def _svg(fig: Any, name: str) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    _plt().close(fig)
    text = buf.getvalue()
    text = re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg"):], flags=re.S)
    return f'<div class="chart" data-chart="{name}">{text}</div>'


def _f(x: Any, nd: int = 3) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        return f"{x:.{nd}f}"
    return html.escape(str(x))


def _ci(d: Optional[Dict[str, Any]], key: str = "mean", nd: int = 3) -> str:
    if not d or d.get(key) is None:
        return "–"
    ci = d.get("ci")
    inner = f" <small>({_f(ci[0], nd)}–{_f(ci[1], nd)})</small>" if ci and ci[0] is not None else ""
    return f"{_f(d[key], nd)}{inner}"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    h = "".join(f'<th class="{"l" if i == 0 else ""}">{html.escape(c)}</th>' for i, c in enumerate(head))
    body = "".join("<tr>" + "".join(f'<td class="{"l" if i == 0 else ""}">{c}</td>' for i, c in enumerate(r)) + "</tr>"
                   for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def _outcome(rep: Report) -> str:
    levels = list(rep.metrics)
    seats = rep.about.get("num_players", 2)
    rows = []
    for name in levels:
        o = rep.metrics[name]["outcome"]
        rows.append([html.escape(name), str(o["games"])]
                    + [_ci(s, "win_rate") for s in o["seats"]]
                    + [_ci(o["balance"], "value"), _ci(o["draw_rate"], "rate"), _ci(o["shared_rate"], "rate"),
                       _ci(o["completion"], "rate")])
    out = _table(["level", "games"] + [f"seat {k + 1} wins" for k in range(seats)]
                 + ["balance", "draws", "shared wins", "completion"], rows)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / max(len(levels), 1)
    for i, name in enumerate(levels):
        s = rep.metrics[name]["outcome"]["seats"]
        xs = [k + i * width for k in range(seats)]
        ys = [x["win_rate"] or 0.0 for x in s]
        err = [[y - x["ci"][0] for y, x in zip(ys, s)], [x["ci"][1] - y for y, x in zip(ys, s)]]
        ax.bar(xs, ys, width, yerr=err, capsize=3, label=name)
    ax.axhline(1 / seats, color="#555", lw=0.8, ls="--")
    ax.set_xticks([k + width * (len(levels) - 1) / 2 for k in range(seats)], [f"seat {k + 1}" for k in range(seats)])
    ax.set_ylabel("win rate (95% CI)")
    ax.legend(fontsize=8)
    return out + _svg(fig, "seats")


def _duration(rep: Report) -> str:
    rows = []
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for name, m in rep.metrics.items():
        d = m["duration"]
        p = d["plies"]
        q = p["quantiles"]
        b = m.get("board") or {}
        rows.append([html.escape(name), _ci(p, "mean", 1), _f(p["sd"], 1),
                     " / ".join(_f(q.get(k), 0) for k in ("5", "25", "50", "75", "95")),
                     _f(d["actions_per_turn"], 2), _ci(b.get("removed_per_turn"), "mean", 2)])
        hist = p["histogram"]
        n = sum(c for _, c in hist) or 1
        ax.step([k for k, _ in hist], [c / n for _, c in hist], where="mid", label=name)
    ax.set_xlabel("plies")
    ax.set_ylabel("share of games")
    ax.legend(fontsize=8)
    return _table(["level", "plies (95% CI)", "sd", "quantiles 5/25/50/75/95", "actions per turn", "removed per turn"],
                  rows) + _svg(fig, "duration")


def _complexity(rep: Report) -> str:
    rows = []
    for name, m in rep.metrics.items():
        b, c = m.get("board") or {}, m.get("complexity") or {}
        rows.append([html.escape(name), _ci(b.get("coverage")), _ci(b.get("occupancy")), _ci(c.get("branching"), "mean", 1),
                     _ci(c.get("choice_share"), "rate"), _ci(c.get("log10_game_tree"), "mean", 1),
                     _f(c.get("log10_state_space_bound"), 1)])
    out = _table(["level", "coverage", "occupancy", "branching", "real choices", "log10 game tree", "log10 states (bound)"],
                 rows)
    rows = []
    for name, m in rep.metrics.items():
        q = m.get("play")
        if q:
            rows.append([html.escape(name), _ci(q["decisiveness"]), _ci(q["lead_changes"], "mean", 2),
                         _ci(q["drama"], "rate"), _ci(q["stability"])])
    if rows:
        out += "<h3>Play quality (from the searches' evaluations)</h3>"
        out += _table(["level", "decisiveness", "lead changes", "drama", "stability"], rows)
    return out


def _ladder(rep: Report) -> str:
    if not rep.ladder:
        return "<p>No ladder was played.</p>"
    rows = [[html.escape(r["player"]), _ci(r, "elo", 0), _f(r.get("win_rate_vs_below")),
             str(r["step"]["games"]) if r.get("step") else "–"] for r in rep.ladder]
    out = _table(["player", "Elo (95% CI)", "score vs the level below", "games"], rows)
    out += f"<p>Depth: <b>{rep.about.get('depth', '–')}</b> level(s) in the chain from the weakest.</p>"
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3))
    xs = list(range(len(rep.ladder)))
    ys = [r["elo"] for r in rep.ladder]
    err = [[y - r["ci"][0] for y, r in zip(ys, rep.ladder)], [r["ci"][1] - y for y, r in zip(ys, rep.ladder)]]
    ax.errorbar(xs, ys, yerr=err, marker="o", capsize=4)
    ax.set_xticks(xs, [r["player"] for r in rep.ladder])
    ax.set_ylabel("Elo over the weakest")
    return out + _svg(fig, "ladder")


def _hex(rgba: Sequence[float]) -> str:
    return "#" + "".join(f"{int(round(255 * c)):02x}" for c in rgba[:3])


def _swap(rep: Report) -> str:
    sw = rep.about.get("swap", {})
    if not rep.swap_map:
        return f"<p>No swap map: {html.escape(sw.get('reason') or 'not computed')}.</p>"
    base = load(sw["spec"])
    cells = opening_cells(base.board, list(rep.swap_map))
    out = (f"<p>Openings of <code>{html.escape(sw['spec'])}</code>, valued "
           + ("exactly by the solver" if sw["mode"] == "exact" else f"by {sw.get('player')} self-play games")
           + " for the first player.</p>")
    if sw.get("pie_rule"):
        out += ("<p>The spec has the pie rule on: <i>reply</i> is the second player's best answer to each opening "
                "(swap when the opening favours the first player).</p>")
    if cells is not None:
        plt = _plt()
        cmap = plt.get_cmap("RdYlGn")
        fills: Dict[int, str] = {}
        notes: Dict[int, str] = {}
        for m, e in rep.swap_map.items():
            if "value" in e:
                x = {"win": 1.0, "draw": 0.5, "loss": 0.0}.get(e["value"] or "", None)
                notes[cells[m]] = {"win": "W", "draw": "D", "loss": "L"}.get(e["value"] or "", "?")
            else:
                x = e["win_rate"]
                notes[cells[m]] = f"{100 * x:.0f}"
            if x is not None:
                fills[cells[m]] = _hex(cmap(0.15 + 0.7 * x))
        pic = board_svg(base, fills=fills, notes=notes, title="swap map")
        out += f'<div class="boards" data-chart="swap-map">{pic}</div>'
    rows = []
    for m, e in rep.swap_map.items():
        v = html.escape(str(e["value"])) if "value" in e else _ci(e, "win_rate")
        rows.append([html.escape(m), v, html.escape(e.get("reply", "–")), html.escape(e.get("value_with_pie", "–"))])
    return out + _table(["opening", "value for the first player", "reply", "value under the pie rule"], rows)


def page(rep: Report) -> str:
    """The HTML page of a :class:`~hexcore.analysis.Report`."""
    about = rep.about
    st = about.get("settings", {})
    g = load(rep.spec)
    secs = "; ".join(f"{html.escape(k)} {v:.1f} s" for k, v in about.get("seconds", {}).items())
    note = "" if rep.complete else '<p class="note">Interrupted: this report holds only what was finished.</p>'
    defs = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in about.get("definitions", {}).items())
    sources = "".join(f"<li><b>{html.escape(k)}</b>: {html.escape(m.get('source', ''))}</li>" for k, m in rep.metrics.items())
    data = json.dumps(rep.to_dict()).replace("</", "<\\/")
    parts: List[str] = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>hexcore analysis: {html.escape(rep.spec)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>hexcore analysis: <code>{html.escape(rep.spec)}</code></h1>", note,
        f"<p>{about.get('num_players')} players, {about.get('cells')} cells. Settings: "
        + ", ".join(f"{html.escape(str(k))}={html.escape(str(v))}" for k, v in st.items()) + f". Time: {secs}.</p>",
        f'<div class="boards">{board_svg(g, title="the start")}</div>',
        f"<ul>{sources}</ul>",
        "<h2>Outcome and seat balance</h2>", _outcome(rep) if rep.metrics else "",
        "<h2>Duration</h2>", _duration(rep) if rep.metrics else "",
        "<h2>Board and complexity</h2>", _complexity(rep) if rep.metrics else "",
        "<h2>Swap map</h2>", _swap(rep),
        "<h2>Skill ladder</h2>", _ladder(rep),
        "<h2>Definitions</h2><p>Intervals are 95%.</p>", f"<dl>{defs}</dl>",
        f'<script type="application/json" id="report-data">{data}</script>',
        "</body></html>",
    ]
    text = "\n".join(parts)
    return re.sub(r"<\?xml[^>]*>|<!DOCTYPE svg[^>]*>", "", text)
