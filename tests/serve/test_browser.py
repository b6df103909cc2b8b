"""The page of ``python -m hexcore serve`` in a real headless Chromium (Playwright's Python API driving
the system's ``chromium``): play Hex 5x5 against mcts:200 by clicking to the end, analyse the Wunchunk
Abstract Play record and a Churn side 3 game with exact values, and the URL contract."""
import json
import os
import pathlib
import shutil

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

import hexcore as hc  # noqa: E402

WUNCHUNK = pathlib.Path(__file__).resolve().parents[2] / "seeds" / "wunchunk" / "abstractplay_records.json"
CHROMIUM = os.environ.get("HEXCORE_CHROMIUM") or next(
    (p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) if p), None)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium found (apt-get install chromium, or set HEXCORE_CHROMIUM)")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    pg = browser.new_page(viewport={"width": 1200, "height": 900})
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert errors == []


def test_url_contract(server, page):
    page.goto(f"{server}/?game=hex(size=5)&players=you,mcts:200&moves=c3,b4")
    page.wait_for_selector('#board polygon.legal[data-cell="a1"]')
    assert page.locator("[data-cell]").count() >= 25
    assert page.locator('circle.stone[data-cell="c3"]').count() == 1
    assert page.locator('circle.stone[data-cell="b4"]').count() == 1
    assert page.locator("#moves li").all_inner_texts() == ["c3", "b4"]
    assert page.locator("#result").inner_text() == ""


def test_play_hex_against_mcts_to_the_end(server, page):
    page.goto(f"{server}/?game=hex(size=5)&players=you,mcts:200")
    clicks = 0
    while not page.locator("#result").inner_text():
        page.wait_for_function("document.querySelector('#result').textContent || "
                               "document.querySelectorAll('#board polygon.legal').length > 0", timeout=30_000)
        if page.locator("#result").inner_text():
            break
        cell = page.locator("#board polygon.legal").first.get_attribute("data-cell")
        page.click(f'#board polygon.legal[data-cell="{cell}"]')
        clicks += 1
        page.wait_for_function(f"!document.querySelector('#board polygon.legal[data-cell=\"{cell}\"]')", timeout=30_000)
        assert clicks <= 13
    assert "wins" in page.locator("#result").inner_text()
    moves = page.locator("#moves li").all_inner_texts()
    g = hc.Hex.replay(moves, size=5)
    assert g.is_over and page.locator("#result").inner_text().lower().startswith(hc.registry.INFO["hex"].player_names[g.winners[0] - 1].lower())
    # undo takes back the last person's move and the bot's reply (when the bot answered)
    if len(moves) % 2 == 0:
        page.click("#undo")
        page.wait_for_function("document.querySelector('#result').textContent === ''")
        assert len(page.locator("#moves li").all_inner_texts()) == len(moves) - 2


def test_analyse_the_wunchunk_record(server, page):
    page.goto(f"{server}/?game=hex(size=5)&players=you,you")
    page.click("#tab-analyse")
    page.fill("#record-text", WUNCHUNK.read_text())
    page.click("#record-load")
    page.wait_for_function("document.querySelectorAll('#moves li').length > 0")
    n = len(page.locator("#moves li").all_inner_texts())
    first = hc.records.from_abstractplay(json.loads(WUNCHUNK.read_text())[0]).game
    assert n == len(first.history)
    page.fill("#solve-seconds", "0")
    page.fill("#simulations", "300")
    page.click("#analyse")
    page.wait_for_selector("#decisive li", timeout=90_000)
    assert page.locator("#graph circle.point").count() == n + 1
    decisive = page.locator("#decisive li.decisive").all_inner_texts()
    assert decisive and any(w in " ".join(decisive) for w in ("mistake", "turned here"))
    page.locator("#decisive li.decisive").first.click()
    assert "position" in page.locator("#step-label").inner_text()


def test_analyse_churn_with_exact_values(server, page, churn_blunder):
    game_over, winning = churn_blunder
    n = len(game_over.history)
    page.goto(f"{server}/")
    page.click("#tab-analyse")
    page.fill("#record-text", hc.records.to_json(game_over))
    page.click("#record-load")
    page.wait_for_function(f"document.querySelectorAll('#moves li').length === {n}")
    page.fill("#solve-seconds", "5")
    page.click("#analyse")
    page.wait_for_selector("#decisive li", timeout=60_000)
    assert page.locator("#graph circle.point").count() == n + 1
    assert page.locator("#graph circle.point.estimate").count() == 0
    assert "done" in page.locator("#analysis-progress").inner_text()
    decisive = page.locator("#decisive li.decisive.exact").all_inner_texts()
    assert len(decisive) == 1 and decisive[0].startswith("move 3, c5 by ") and "the game was lost here; " in decisive[0]
    assert any(decisive[0].endswith(f"{m} would have won") for m in winning)
    assert page.locator("#graph line.decisive").count() == 1
    page.click("#step-first")
    assert "(exact)" in page.locator("#step-eval").inner_text()


def test_colour_choice_turns_of_several_stones_and_swap(server, page):
    # Wunchunk's open start: four stones a turn, each in a colour chosen on the page
    page.goto(f"{server}/?game=wunchunk(size=6,players=2,start=open)&players=you,you")
    for cell, colour in [("e3", "1"), ("d3", "1")]:
        page.click(f'#board polygon.legal[data-cell="{cell}"]')
        page.click(f'#choices button[data-action="{colour}{cell}"]')
        page.wait_for_function(f"document.querySelector('#turn').textContent.includes('{colour}{cell}')")
    assert "turn so far: 1d3,1e3" in page.locator("#turn").inner_text()  # put in the engine's order
    assert page.locator("#moves li").count() == 0
    page.click("#undo")  # takes back the turn in progress
    page.wait_for_function("!document.querySelector('#turn').textContent.includes('turn so far')")
    # Churn's pie rule: the second player may swap
    page.goto(f"{server}/?game=churn(size=3)&players=you,you&moves=c3")
    page.click('#choices button[data-action="swap"]')
    page.wait_for_function("document.querySelectorAll('#moves li').length === 2")
    assert page.locator("#moves li").all_inner_texts() == ["c3", "swap"]
    assert "moves=c3,swap" in page.url
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent.startsWith('hint: ')", timeout=30_000)


def test_illegal_input_is_a_message(server, page):
    page.goto(f"{server}/?game=hex(size=5)&players=you,you&moves=c3,c3")
    page.wait_for_function("document.querySelector('#message').textContent.includes('action 2')")
    page.goto(f"{server}/?game=hex(size=99)")
    page.wait_for_function("document.querySelector('#message').textContent.includes('bad game')")
    page.goto(f"{server}/?game=hex(size=5)&players=you,mcts:0")
    page.wait_for_selector("#board polygon.legal")
    page.click('#board polygon.legal[data-cell="c3"]')
    page.wait_for_function("document.querySelector('#message').textContent.includes('bad player spec')")


def test_designer_report_from_the_page(server, page):
    page.goto(f"{server}/")
    page.click("#tab-report")
    page.fill("#spec", "churn(size=2)")
    page.fill("#report-games", "2")
    page.fill("#report-playouts", "100")
    page.click("#report-start")
    page.wait_for_selector("#report-open", timeout=120_000)
    assert "done" in page.locator("#report-progress").inner_text()
    with page.expect_popup() as popup:
        page.click("#report-open")
    report = popup.value
    report.wait_for_load_state()
    assert "churn" in report.content().lower()
    report.close()
