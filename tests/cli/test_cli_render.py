import io
import re
import subprocess
import sys

import hexcore as hc
from hexcore.__main__ import main


def run(args):
    out = subprocess.run([sys.executable, "-m", "hexcore", *args], capture_output=True, text=True, timeout=300)
    return out


def test_cli_perft_matches_api():
    out = run(["perft", "churn(size=3)", "--depth", "4"])
    assert out.returncode == 0, out.stderr
    assert f"Nodes searched: {hc.perft(hc.Churn(size=3), 4)}" in out.stdout
    div = run(["perft", "churn(size=3)", "--depth", "2", "--divide", "--unit", "action"])
    lines = [line for line in div.stdout.splitlines() if re.fullmatch(r"[a-z0-9]+: \d+", line)]
    assert len(lines) == 19 and sum(int(line.split(": ")[1]) for line in lines) == 361


def test_cli_bench_writes_every_figure(tmp_path, monkeypatch, capsys):
    import json

    import hexcore.bench as cli

    # small workloads; the structure is what is checked here, speed lives in benches/
    monkeypatch.setattr(cli, "BENCH_PERFT", [("churn(size=3)", 4), ("quintun(size=5)", 2)])
    monkeypatch.setattr(cli, "BENCH_PLAYOUTS", [("churn(size=3,pie=false)", 20), ("wunchunk(size=5)", 20)])
    monkeypatch.setattr(cli, "BENCH_LOOP", ["churn(size=3,pie=false)"])
    monkeypatch.setattr(cli, "BENCH_VS_REFERENCE", [("churn(size=3,pie=false)", 2)])
    monkeypatch.setattr(cli, "LOOP_STEPS", 2000)
    out = tmp_path / "bench.json"
    assert main(["bench", "--quick", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    names = {(r["group"], r["name"]): r for r in data["rows"]}
    for spec, d in cli.BENCH_PERFT:
        for t in (1, 2):
            assert names[("perft", f"{spec} d{d} ({t} thr)")]["unit"] == "nodes/s"
    for spec, _ in cli.BENCH_PLAYOUTS:
        for t in (1, 2):
            assert ("playouts", f"{spec} ({t} thr) games") in names
    assert ("python", "churn(size=3,pie=false) legal_actions+apply_action") in names
    assert ("ratio", "churn(size=3,pie=false) Rust playouts / reference (plies/s)") in names
    assert all(r["value"] > 0 for r in data["rows"])
    printed = capsys.readouterr().out
    assert all(r["name"] in printed for r in data["rows"])
    # the pytest-benchmark files run the same list of workloads
    ids = {w.id for w in cli.workloads()}
    assert {f"{r['group']}:{r['name']}" for r in data["rows"] if r["group"] in ("perft", "python")} <= ids
    # the package holds no peer workloads: those live in benches/peer_workloads.py
    assert not [w for w in cli.workloads() if w.requires is not None]
    assert not [r for r in data["rows"] if "pyspiel" in r["name"] or "OpenSpiel" in r["name"]]


def test_peer_workloads_live_in_benches(capsys, monkeypatch):
    """The OpenSpiel rows run from benches/ with the package's Workload and
    run_bench: timed when the peer is installed, else skipped with the reason."""
    import pathlib

    import hexcore.bench as b

    monkeypatch.syspath_prepend(str(pathlib.Path(__file__).resolve().parents[2] / "benches"))
    monkeypatch.setattr(b, "BENCH_SEARCH", [("churn(size=3)", 200)])
    monkeypatch.setattr(b, "LOOP_STEPS", 500)
    import peer_workloads

    peers = peer_workloads.peer_workloads()
    assert [w.requires for w in peers] == ["pyspiel", "open_spiel"]
    rows = b.run_bench(quick=True, suite=peers)
    printed = capsys.readouterr().out
    for w in peers:
        if w.missing() is None:
            assert (w.group, w.name) in {(r["group"], r["name"]) for r in rows}
        else:
            assert f"{w.name}" in printed and f"skipped: {w.requires} is not installed" in printed


def test_bench_skips_a_missing_peer_with_its_reason(capsys):
    import hexcore.bench as b

    w = b.Workload("python", "needs a package that is not there", (("", "steps/s"),),
                   lambda scale: (lambda: (1.0,)), requires="hexcore_no_such_module")
    assert b.run_bench(quick=True, suite=[w]) == []
    assert "skipped: hexcore_no_such_module is not installed" in capsys.readouterr().out


def test_cli_bad_spec_is_a_clear_error():
    out = run(["perft", "chess(size=3)", "--depth", "1"])
    assert out.returncode == 2 and "unknown game" in out.stderr


def test_cli_stats_and_show(tmp_path):
    out = run(["stats", "churn(size=3,pie=false)", "--games", "500", "--seed", "3"])
    assert out.returncode == 0 and "mean" in out.stdout and "player 1 wins" in out.stdout
    pic = tmp_path / "g.svg"
    out = run(["show", "churn(size=3)", "--moves", "c3", "swap", "--svg", str(pic)])
    assert out.returncode == 0 and pic.read_text().startswith("<svg")


def test_cli_stats_plot_is_a_histogram_of_the_game_lengths(tmp_path):
    from PIL import Image

    pic = tmp_path / "lengths.png"
    out = run(["stats", "churn(size=3,pie=false)", "--games", "400", "--seed", "5", "--plot", str(pic)])
    assert out.returncode == 0, out.stderr
    assert f"histogram written to {pic}" in out.stdout
    img = Image.open(pic).convert("L")
    assert img.size == (700, 400)  # figsize 7x4 at 100 dpi
    # Bars are drawn in a colour: a good share of the plot area is neither
    # white background nor black axes/text.
    hist = img.histogram()
    mid = sum(hist[40:230])
    assert mid > 0.05 * img.size[0] * img.size[1]


def test_default_report_runs():
    out = run([])
    assert out.returncode == 0, out.stderr
    assert "perft" in out.stdout and "MISMATCH" not in out.stdout


def test_svg_rasterises_with_stones_where_the_game_has_them():
    import cairosvg
    from PIL import Image

    g = hc.Churn(size=3)
    for m in ["c3", "swap", "a1"]:
        g.play(m)
    text = g._repr_svg_()
    png = cairosvg.svg2png(bytestring=text.encode())
    img = Image.open(io.BytesIO(png)).convert("RGB")
    # Locate cell centres from the SVG itself and check pixel colours there.
    centres = {m.group(1): (float(m.group(2)), float(m.group(3)))
               for m in re.finditer(r'class="stone" data-cell="(\w+)" data-value="\d" cx="([-\d.]+)" cy="([-\d.]+)"', text)}
    assert set(centres) == {"c3", "a1"}
    vb = [float(x) for x in re.search(r'viewBox="([^"]+)"', text).group(1).split()]
    sx, sy = img.width / vb[2], img.height / vb[3]

    def pixel(x, y):
        return img.getpixel((int((x - vb[0]) * sx), int((y - vb[1]) * sy)))

    red, blue = pixel(*centres["a1"]), pixel(*centres["c3"])
    assert red[0] > 150 and red[2] < 100          # Red stone on a1
    assert blue[2] > 150 and blue[0] < 100        # c3 became Blue's after the swap
    b = g.board
    i = b.index("e3")
    q, r = b.axial(i)
    empty = pixel(28 * 3 ** 0.5 * (q + r / 2), 28 * 1.5 * r)
    assert min(empty) > 180                       # an empty cell stays light
