"""hexcore.analysis: the designer's report (python -m hexcore analyze)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import hexcore as hc
from hexcore.__main__ import main
from hexcore.analysis import AnalysisInterrupted, analyze

ROOT = Path(__file__).resolve().parents[2]
TINY = dict(games=4, ladder="random,mcts:10", playouts=300, progress=False)


def _readme_side3_openings():
    """The solver's opening values of Churn side 3 without the pie rule, as the docs record them."""
    text = " ".join((ROOT / "docs" / "guides" / "solving.md").read_text(encoding="utf-8").split())
    m = re.search(r"first player wins with the centre `(\w+)` and the six edge midpoints `([a-z0-9 ]+)`, "
                  r"and loses with the other twelve \(`([a-z0-9 ]+)`\)", text)
    assert m, "the solving guide's Churn side 3 opening values moved"
    wins = [m.group(1)] + m.group(2).split()
    losses = m.group(3).split()
    return {**{c: "win" for c in wins}, **{c: "loss" for c in losses}}


@pytest.mark.slow
def test_exact_swap_map_side3_agrees_with_the_solver_opening_values():
    r = analyze("churn(size=3,pie=false)", swap_map="exact", threads=2, games=1, ladder="random", playouts=10,
                progress=False)
    assert r.about["swap"]["mode"] == "exact" and r.about["swap"]["complete"]
    assert {m: e["value"] for m, e in r.swap_map.items()} == _readme_side3_openings()


def test_exact_swap_map_equals_a_fresh_solve_and_states_the_pie_rule():
    base = hc.load("churn(size=2,pie=false)")
    solved = hc.solve(base, threads=1).moves
    plain = analyze("churn(size=2,pie=false)", swap_map="exact", **TINY)
    assert {m: e["value"] for m, e in plain.swap_map.items()} == solved
    assert all("reply" not in e for e in plain.swap_map.values())
    pie = analyze("churn(size=2,pie=true)", swap_map="exact", **TINY)
    assert pie.about["swap"]["pie_rule"] and pie.about["swap"]["spec"] == base.spec
    assert {m: e["value"] for m, e in pie.swap_map.items()} == solved
    for m, e in pie.swap_map.items():
        assert e["reply"] == {"win": "swap", "loss": "play", "draw": "either"}[solved[m]]
        assert e["value_with_pie"] == ("loss" if solved[m] in ("win", "loss") else "draw")


def test_random_play_duration_and_outcome_agree_with_random_playouts():
    spec, n, seed = "churn(size=3)", 500, 7
    r = analyze(spec, seed=seed, swap_map="off", games=2, ladder="random", playouts=n, progress=False)
    p = hc.random_playouts(hc.load(spec), n, seed=seed)
    d = r.metrics["random"]["duration"]["plies"]
    assert d["mean"] == pytest.approx(float(p.plies.mean()))
    assert d["sd"] == pytest.approx(float(p.plies.std()))
    assert d["quantiles"]["50"] == pytest.approx(float(np.quantile(p.plies, 0.5)))
    values, counts = np.unique(p.plies, return_counts=True)
    assert d["histogram"] == [[int(v), int(c)] for v, c in zip(values, counts)]
    seats = r.metrics["random"]["outcome"]["seats"]
    assert [s["win_rate"] for s in seats] == [pytest.approx(float((p.winners == k).mean())) for k in (1, 2)]


@pytest.mark.slow
def test_ladder_is_monotone_on_side3():
    r = analyze("churn(size=3,pie=false)", games=20, ladder="random,mcts:10,mcts:300", swap_map="off",
                playouts=100, progress=False)
    assert [row["player"] for row in r.ladder] == ["random", "mcts:10", "mcts:300"]
    for below, above in zip(r.ladder, r.ladder[1:]):
        assert above["win_rate_vs_below"] > 0.5
        assert above["elo"] > below["elo"]
        assert above["ci"][0] <= above["elo"] <= above["ci"][1]
    assert r.about["depth"] >= 2


def _strip(d):
    d = json.loads(json.dumps(d))
    d["about"].pop("seconds")
    d["about"]["settings"].pop("threads")
    return d


def test_the_same_seed_gives_the_same_report_on_1_and_2_threads():
    kw = dict(games=6, ladder="random,mcts:20", swap_map="mcts:5", playouts=300, seed=3, progress=False)
    one = analyze("churn(size=2)", threads=1, **kw)
    two = analyze("churn(size=2)", threads=2, **kw)
    assert _strip(one.to_dict()) == _strip(two.to_dict())
    assert one.metrics["mcts:20"]["play"] is not None and one.swap_map


def test_three_players_every_seat():
    r = analyze("wunchunk(size=7,players=3)", swap_map="off", games=3, ladder="random,mcts:2", playouts=100,
                progress=False)
    for level in ("random", "mcts:2"):
        assert len(r.metrics[level]["outcome"]["seats"]) == 3
    assert len(r.ladder) == 2 and r.ladder[1]["step"]["games"] == 3


@pytest.mark.parametrize("args, message", [
    (["--ladder", "random,mtcs:10"], "bad player spec 'mtcs:10'"),
    (["--games", "0"], "games must be"),
    (["--swap-map", "exact", "--ladder", "random"], "swap map 'exact' is not possible"),
])
def test_bad_arguments_fail_before_anything_runs(tmp_path, capsys, args, message):
    out = tmp_path / "r.html"
    spec = "churn(size=4)" if "exact" in args else "churn(size=2)"
    assert main(["analyze", spec, "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("error:")
    assert not out.exists()


def test_bad_arguments_in_the_api():
    with pytest.raises(ValueError, match="games must be"):
        analyze("churn(size=2)", games=0, progress=False)
    with pytest.raises(ValueError, match="bad player spec"):
        analyze("churn(size=2)", ladder=["random", "alphazero"], progress=False)
    with pytest.raises(ValueError, match="two players only"):
        analyze("wunchunk(size=7,players=3)", swap_map="exact", progress=False)


def test_ctrl_c_keeps_what_is_done():
    seen = []

    def stop(done, total, phase):
        seen.append(phase)
        if phase.startswith("games at mcts"):
            raise KeyboardInterrupt

    with pytest.raises(AnalysisInterrupted) as e:
        analyze("churn(size=2)", callback=stop, swap_map="off", games=3, ladder="random,mcts:10", playouts=50,
                progress=False)
    rep = e.value.report
    assert not rep.complete and "random" in rep.metrics and not rep.ladder
    assert rep.to_dict()["about"]["complete"] is False
    assert "Interrupted" in rep.to_html()


def test_the_page_is_self_contained(tmp_path):
    pytest.importorskip("matplotlib")
    out, js = tmp_path / "r.html", tmp_path / "r.json"
    assert main(["analyze", "churn(size=2)", "--games", "3", "--ladder", "random,mcts:10", "--playouts", "100",
                 "--out", str(out), "--json", str(js)]) == 0
    page = out.read_text(encoding="utf-8")
    data = json.loads(js.read_text(encoding="utf-8"))
    assert list(data)[:4] == ["spec", "metrics", "swap_map", "ladder"]
    embedded = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    assert embedded and json.loads(embedded.group(1).replace("<\\/", "</"))["swap_map"] == data["swap_map"]
    for chart in ("seats", "duration", "ladder", "swap-map"):
        assert f'data-chart="{chart}"' in page
    assert page.count("<svg") >= 5
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}, urls  # XML namespaces only
    assert "<link" not in page and "src=" not in page


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="headless check needs Debian's chromium (apt-get install chromium)")
def test_the_page_renders_in_headless_chromium(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.html"
    assert main(["analyze", "churn(size=2)", "--games", "3", "--ladder", "random,mcts:10", "--playouts", "100",
                 "--out", str(out)]) == 0
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                          "--dump-dom", out.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr
    # the browser parsed the page into a DOM holding every chart (an unclosed or broken SVG would swallow the rest)
    assert dom.stdout.count("<svg") == out.read_text(encoding="utf-8").count("<svg") >= 5
    for chart in ("seats", "duration", "ladder", "swap-map"):
        assert f'data-chart="{chart}"' in dom.stdout
    # console messages (a script error is logged as 'CONSOLE ... Uncaught ...') : none
    assert ":CONSOLE" not in dom.stderr, dom.stderr


def _match(wins, games):
    """The logs of a two-seat ladder match the upper level won ``wins`` of ``games``."""
    from hexcore.analysis.games import GameLog

    return [GameLog(index=i, seating=[0, 1], winners=[1] if i < wins else [2]) for i in range(games)]


def test_cumulative_elo_interval_is_made_of_the_steps_intervals():
    from hexcore.analysis import ladder

    # one step: the cumulative interval is the step's Wilson interval, lopsided as it is
    st = ladder.step(_match(19, 20), 2)
    lo, hi = st["ci"]
    assert hi - st["elo"] != pytest.approx(st["elo"] - lo, abs=1)  # Wilson's interval is not symmetric here
    assert ladder.cumulative([st]) == (st["elo"], [lo, hi])
    # several steps: the Elos add; each side's margins add in quadrature
    steps = [st, ladder.step(_match(6, 20), 2), ladder.step(_match(14, 30), 2)]
    elo, ci = ladder.cumulative(steps)
    assert elo == pytest.approx(sum(s["elo"] for s in steps))
    assert elo - ci[0] == pytest.approx(np.hypot.reduce([s["elo"] - s["ci"][0] for s in steps]))
    assert ci[1] - elo == pytest.approx(np.hypot.reduce([s["ci"][1] - s["elo"] for s in steps]))
    assert ladder.cumulative([]) == (0.0, [0.0, 0.0])
    # in a report: the first level above the weakest shows its step's interval
    r = analyze("churn(size=2)", swap_map="off", **TINY)
    assert r.ladder[1]["ci"] == r.ladder[1]["step"]["ci"] and r.ladder[1]["elo"] == r.ladder[1]["step"]["elo"]


def test_solver_nodes_is_the_old_name_of_max_nodes():
    """``analyze(max_nodes=...)`` (the node budget's name everywhere) is the
    new name of ``solver_nodes``, which still works with a FutureWarning;
    both at once is a TypeError."""
    kw = dict(games=1, ladder="random", playouts=10, progress=False, swap_map="exact", threads=1)
    new = analyze("churn(size=2,pie=false)", max_nodes=50, **kw)
    assert new.about["settings"]["max_nodes"] == 50
    with pytest.warns(FutureWarning, match=r"solver_nodes= is renamed max_nodes="):
        old = analyze("churn(size=2,pie=false)", solver_nodes=50, **kw)
    assert old.about["settings"]["max_nodes"] == 50
    assert old.swap_map == new.swap_map
    with pytest.raises(TypeError, match="got both solver_nodes= and max_nodes="):
        analyze("churn(size=2,pie=false)", solver_nodes=50, max_nodes=50, **kw)
