"""Latency of ``python -m hexcore serve``: page load and a click-to-reply round trip in headless
Chromium (bot ``mcts:1000``, Churn side 3), and the time to analyse a 70-ply Churn side 3 game with
exact values at every position (server-sent events over HTTP). With ``--screenshots DIR`` it also saves
the play and analysis views as PNG files (the pictures in docs/guides/serve.md).

    python benches/serve_latency.py [--clicks 5] [--solve-seconds 60] [--screenshots docs/images]

Needs the serve and test extras and a ``chromium`` on the PATH (or ``HEXCORE_CHROMIUM``).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import socket
import statistics
import threading
import time

import httpx
import uvicorn
from playwright.sync_api import sync_playwright

import hexcore as hc
from hexcore.serve import app

ROOT = pathlib.Path(__file__).resolve().parents[1]
GAME = ROOT / "tests" / "serve" / "churn3_game.json"
WUNCHUNK = pathlib.Path(__file__).resolve().parents[1] / "seeds" / "wunchunk" / "abstractplay_records.json"


def start_server() -> tuple:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app(), host="127.0.0.1", port=port, log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    while not srv.started:
        time.sleep(0.05)
    return srv, t, f"http://127.0.0.1:{port}"


def small(path: str) -> None:
    """A screenshot in 64 colours (a fraction of the bytes; the page has few colours)."""
    try:
        from PIL import Image
    except ImportError:
        return
    Image.open(path).convert("RGB").quantize(64).save(path, optimize=True)


def browser_figures(url: str, clicks: int, shots: str | None) -> dict:
    chromium = os.environ.get("HEXCORE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    out: dict = {}
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = b.new_page(viewport={"width": 1280, "height": 760})
        loads = []
        for _ in range(5):
            t0 = time.perf_counter()
            page.goto(f"{url}/?game=churn(size=3)&players=you,mcts:1000")
            page.wait_for_selector("#board polygon.legal")
            loads.append(time.perf_counter() - t0)
        out["page_load_s"] = loads
        rounds = []
        for _ in range(clicks):
            n = page.locator("#moves li").count()
            cell = page.locator("#board polygon.legal").first.get_attribute("data-cell")
            t0 = time.perf_counter()
            page.click(f'#board polygon.legal[data-cell="{cell}"]')
            page.wait_for_function(f"document.querySelectorAll('#moves li').length >= {n + 2} || "
                                   "document.querySelector('#result').textContent", timeout=60_000)
            page.wait_for_selector("#board polygon.legal", timeout=60_000)
            rounds.append(time.perf_counter() - t0)
            if page.locator("#result").inner_text():
                break
        out["click_to_reply_s"] = rounds
        if shots:
            pathlib.Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shots}/serve-play.png")
            page.goto(f"{url}/?game=wunchunk(size=6,players=2)&players=you,you")
            page.click("#tab-analyse")
            page.fill("#record-text", WUNCHUNK.read_text())
            page.click("#record-load")
            page.wait_for_function("document.querySelectorAll('#moves li').length > 0")
            page.fill("#solve-seconds", "0")
            page.fill("#simulations", "300")
            page.click("#analyse")
            page.wait_for_selector("#decisive li", timeout=120_000)
            page.locator("#decisive li.decisive").first.click()
            page.fill("#record-text", "")
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=f"{shots}/serve-analyse.png")
            for name in ("serve-play.png", "serve-analyse.png"):
                small(f"{shots}/{name}")
        b.close()
    return out


def analysis_figure(url: str, solve_seconds: float, plies: int) -> dict:
    moves = json.loads(GAME.read_text())[:plies]
    game = {"spec": "churn(size=3)", "tokens": moves}
    with httpx.Client(base_url=url, timeout=None) as c:
        a = c.post("/api/analysis", json={"game": game, "solve_seconds": solve_seconds, "simulations": 1000}).json()
        t0 = time.perf_counter()
        evals = []
        with c.stream("GET", f"/api/analysis/{a['id']}") as r:
            event = None
            for line in r.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "position":
                    evals.append(json.loads(line[6:]))
        secs = time.perf_counter() - t0
    exact = sum(1 for e in evals if e["exact"] is not None or e["method"] == "end")
    slowest = sorted((e["seconds"] for e in evals), reverse=True)[:3]
    return {"plies": len(moves), "positions": len(evals), "exact": exact, "seconds": secs, "slowest_positions_s": slowest}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clicks", type=int, default=5)
    ap.add_argument("--solve-seconds", type=float, default=60.0, help="solver budget per position (default 60, the most the server allows)")
    ap.add_argument("--plies", type=int, default=70)
    ap.add_argument("--screenshots", help="save serve-play.png and serve-analyse.png here")
    ap.add_argument("--skip-analysis", action="store_true")
    args = ap.parse_args()
    srv, t, url = start_server()
    try:
        fig = browser_figures(url, args.clicks, args.screenshots)
        print(f"hexcore {hc.__version__}, {os.cpu_count()} CPUs")
        print(f"page load (to a clickable board), 5 loads: median {statistics.median(fig['page_load_s']) * 1000:.0f} ms "
              f"(first {fig['page_load_s'][0] * 1000:.0f} ms)")
        r = fig["click_to_reply_s"]
        print(f"click-to-reply, churn(size=3) vs mcts:1000, {len(r)} clicks: median {statistics.median(r) * 1000:.0f} ms "
              f"(min {min(r) * 1000:.0f}, max {max(r) * 1000:.0f})")
        if not args.skip_analysis:
            a = analysis_figure(url, args.solve_seconds, args.plies)
            print(f"analysis of a {a['plies']}-ply churn(size=3) game: {a['exact']} of {a['positions']} positions exact, "
                  f"{a['seconds']:.1f} s (slowest positions {', '.join(f'{s:.1f}' for s in a['slowest_positions_s'])} s)")
    finally:
        srv.should_exit = True
        t.join(10)


if __name__ == "__main__":
    main()
