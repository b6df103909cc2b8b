"""The HTTP and streaming API of ``python -m hexcore serve`` (Starlette's TestClient)."""
import json
import pathlib
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

import hexcore as hc  # noqa: E402
from hexcore.serve import app  # noqa: E402
from hexcore.serve.game import LIMITS, build, decisive, evaluate  # noqa: E402

WUNCHUNK = pathlib.Path(__file__).resolve().parents[2] / "seeds" / "wunchunk" / "abstractplay_records.json"


@pytest.fixture(scope="module")
def client():
    with TestClient(app()) as c:
        yield c


def post(client, path, body, status=200):
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    return r.json()


def events(text):
    out = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and 'src="/static/app.js"' in r.text and 'id="result"' in r.text
    for name in ("app.js", "style.css", "index.html"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../game.py").status_code == 404
    assert client.get("/static/nothing.js").status_code == 404


def test_state_describes_the_position(client):
    d = post(client, "/api/state", {"game": {"spec": "hex(size=5)", "tokens": ["c3", "b4"]}})
    assert d["history"] == ["c3", "b4"] and d["to_move"] == 1 and not d["is_over"]
    assert d["last"] == ["b4"] and d["result"] == ""
    assert 'data-cell="c3"' in d["svg"] and d["svg"].count('class="cell"') == 25
    assert {a["cell"] for a in d["actions"]} == set(hc.load("hex(size=5)").board.label(i) for i in range(25)) - {"c3", "b4"}
    # the URL form: one string, commas
    assert post(client, "/api/state", {"game": {"spec": "hex(size=5)", "tokens": "c3,b4"}})["history"] == ["c3", "b4"]
    d = post(client, "/api/state", {"game": {"spec": "hex(size=5,swap=true)", "tokens": ["c3"]}, "play": "swap"})
    assert d["history"] == ["c3", "swap"]


def test_play_to_the_end_and_result(client):
    g = hc.load("hex(size=3)")
    tokens = []
    while not g.is_over:
        m = g.legal_moves()[0]
        g.play(m)
        tokens.append(m)
    d = post(client, "/api/state", {"game": {"spec": "hex(size=3)", "tokens": tokens}})
    assert d["is_over"] and d["winners"] == list(g.winners) and "wins" in d["result"] and d["actions"] == []
    assert "over" in post(client, "/api/state", {"game": {"spec": "hex(size=3)", "tokens": tokens}, "play": "a1"}, 400)["error"]


def test_wunchunk_turn_of_several_actions_in_any_order(client):
    spec = "wunchunk(size=6,players=2,start=open)"
    d = post(client, "/api/state", {"game": {"spec": spec, "tokens": ["1e3"]}})
    texts = {a["text"] for a in d["actions"]}
    assert "1d3" in texts and "1e4" in texts  # d3 comes before e3 in the engine's order: offered all the same
    d = post(client, "/api/state", {"game": {"spec": spec, "tokens": ["1e3"]}, "play": "1d3"})
    assert d["pending"] == ["1d3", "1e3"] and d["history"] == []
    cells = [a for a in d["actions"] if a["cell"] == "h7"]
    assert cells and all(a["text"].endswith("h7") for a in cells)
    d = post(client, "/api/state", {"game": {"spec": spec, "tokens": "1e3,1d3,2h7,2g8"}})
    assert d["history"] == ["1d3,1e3,2g8,2h7"] and d["turns"] == [{"seat": 1, "end": 4}]
    assert {a["text"] for a in d["actions"] if a["cell"] is None} >= {"swap", "pass"}


def test_removed_stones_are_reported():
    # Churn removes stones; find a game where a move removes some and check the page is told which
    g = hc.load("churn(size=3)")
    import random

    from hexcore.match import derive_seed

    rng = random.Random(derive_seed(1))
    seen = False
    while not g.is_over and not seen:
        before = g.cells()
        g.play(rng.choice(g.legal_moves()))
        after = g.cells()
        gone = {g.board.label(i) for i in range(len(after)) if before[i] != 0 and after[i] == 0}
        if gone:
            from hexcore.serve.game import describe, tokens_played

            d = describe(build({"spec": g.spec, "tokens": tokens_played(g)[0]}))
            assert set(d["removed"]) == gone
            seen = True
    assert seen


@pytest.mark.parametrize("body, words", [
    ({"game": {"spec": "hex(size=99)", "tokens": []}}, "bad game"),
    ({"game": {"spec": "nosuchgame", "tokens": []}}, "bad game"),
    ({"game": {"spec": "hex(size=5)", "tokens": ["c3", "c3"]}}, "action 2"),
    ({"game": {"spec": "hex(size=5)", "tokens": ["zz99"]}}, "action 1"),
    ({"game": {"spec": "hex(size=5)", "tokens": [3]}}, "list of strings"),
    ({"game": "hex(size=5)"}, "object"),
    ({"game": {"spec": "x" * 500}}, "too long"),
    ({"game": {"spec": "hex(size=5)", "tokens": ["a1"] * (LIMITS.max_tokens + 1)}}, "at most"),
])
def test_bad_inputs_are_readable_errors(client, body, words):
    assert words in post(client, "/api/state", body, 400)["error"]


def test_bad_requests(client):
    r = client.post("/api/state", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    assert client.post("/api/state", json=[1, 2]).status_code == 400
    r = client.post("/api/record", content=b"x" * (LIMITS.max_body + 1), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.get("/api/state").status_code == 405
    assert client.get("/api/analysis/999999").status_code == 404
    assert client.get("/api/report/999999").status_code == 404


def test_bot_turn(client):
    d = post(client, "/api/bot", {"game": {"spec": "hex(size=5)", "tokens": ["c3"]}, "player": "mcts:50"})
    assert len(d["history"]) == 2 and d["to_move"] == 1
    again = post(client, "/api/bot", {"game": {"spec": "hex(size=5)", "tokens": ["c3"]}, "player": "mcts:50"})
    assert again["history"] == d["history"]  # seeded: the same reply every time
    d = post(client, "/api/bot", {"game": {"spec": "wunchunk(size=6,players=2)", "tokens": []}, "player": "random"})
    assert len(d["history"]) == 1 and d["pending"] == []
    d = post(client, "/api/bot", {"game": {"spec": "churn(size=3)", "tokens": ["c3"]}, "player": "solver:time=0.2"})
    assert len(d["history"]) == 2


@pytest.mark.parametrize("player, words", [
    ("you", "not a person"), ("mcts:0", "bad player spec"), ("mcts:time=1000", "at most 30"),
    ("mcts:10000000", "at most"), ("az:/etc/passwd", "only the az agents"), ("bogus", "bad player spec"),
    (7, "must be a string"),
])
def test_bot_bad_players(client, player, words):
    assert words in post(client, "/api/bot", {"game": {"spec": "hex(size=5)", "tokens": []}, "player": player}, 400)["error"]


def test_bot_refuses_finished_games_and_turns_in_progress(client):
    assert "in progress" in post(client, "/api/bot", {"game": {"spec": "wunchunk(size=6,players=2,start=open)",
                                                                 "tokens": ["1e3"]}, "player": "random"}, 400)["error"]
    assert "hint" in post(client, "/api/hint", {"game": {"spec": "wunchunk(size=6,players=2,start=open)",
                                                         "tokens": ["1e3"]}}, 400)["error"]


def test_hint(client):
    h = post(client, "/api/hint", {"game": {"spec": "hex(size=3)", "tokens": []}})
    assert h["exact"] == "win" and h["move"] in hc.load("hex(size=3)").legal_moves()
    h = post(client, "/api/hint", {"game": {"spec": "hex(size=7)", "tokens": []}, "simulations": 50})
    assert h["exact"] is None and 0 <= h["value"] <= 1


def test_record_upload_wunchunk_abstractplay(client):
    text = WUNCHUNK.read_text()
    r = post(client, "/api/record", {"text": text})
    first = hc.records.from_abstractplay(json.loads(text)[0]).game
    assert r["game"]["spec"] == first.spec and r["state"]["history"] == list(first.history)
    assert r["state"]["is_over"] and r["state"]["result"]


def test_record_upload_hexcore_json_with_setup(client):
    g = hc.Churn.from_position({"c3": 1, "a1": 2}, to_move=1, size=3)
    g.play(g.legal_moves()[0])
    r = post(client, "/api/record", {"text": hc.records.to_json(g)})
    assert r["game"]["setup"] is not None and r["state"]["history"] == list(g.history)
    assert post(client, "/api/state", {"game": r["game"]})["history"] == list(g.history)


@pytest.mark.parametrize("text, words", [
    ("{", "not valid JSON"), ('{"format": "hexcore-game"}', "cannot be read"), ('["zz1"]', "cannot be read"),
    (5, "must be a string"),
])
def test_record_bad(client, text, words):
    assert words in post(client, "/api/record", {"text": text}, 400)["error"]


def test_record_churn_list_with_game(client):
    r = post(client, "/api/record", {"text": '["c3", "swap", "a1"]', "game": "churn(size=3)"})
    assert r["state"]["history"] == ["c3", "swap", "a1"]


def test_analysis_stream_exact_churn(client, churn_blunder):
    game_over, winning = churn_blunder
    game = post(client, "/api/record", {"text": hc.records.to_json(game_over)})["game"]
    history = list(game_over.history)
    a = post(client, "/api/analysis", {"game": game, "solve_seconds": 5, "simulations": 100})
    assert a["positions"] == len(history) + 1
    r = client.get(f"/api/analysis/{a['id']}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    evs = events(r.text)
    kinds = [k for k, _ in evs]
    assert kinds[0] == "start" and kinds[-1] == "done" and kinds.count("position") == len(history) + 1
    positions = [d for k, d in evs if k == "position"]
    assert all(p["exact"] is not None for p in positions[:-1]) and positions[-1]["method"] == "end"
    for p, m in zip(positions, history):
        assert p["move"] == m and 'data-cell="' in p["svg"]
    # c5 (the third move) threw the win away; perfect play after it changes nothing
    done = evs[-1][1]
    assert [(d["ply"], d["move"], d["kind"]) for d in done["decisive"]] == [(2, "c5", "exact")]
    assert done["decisive"][0]["best"] in winning
    assert done["decisive"][0]["text"] == f"the game was lost here; {done['decisive'][0]['best']} would have won"
    exp = client.get(f"/api/analysis/{a['id']}/export").json()
    assert exp["format"] == "hexcore-game" and len(exp["annotations"]["positions"]) == len(history) + 1
    assert exp["annotations"]["decisive"] == done["decisive"]
    assert hc.records.from_dict(exp).history == history


def test_exact_values_agree_with_solve(churn_blunder):
    game_over, _ = churn_blunder
    g = game_over.copy()
    while g.history:
        g.undo()
    for m in list(game_over.history)[:5]:
        ev = evaluate(g, 2.0, 50)
        assert ev["exact"] == hc.solve(g, threads=1).value
        g.play(m)


def test_decisive_exact_and_estimates():
    evals = [{"to_move": 1, "value": 1.0, "exact": "win", "best": "b4", "method": "solver"},
             {"to_move": 2, "value": 1.0, "exact": "win", "best": "a1", "method": "solver"},
             {"to_move": 1, "value": 0.0, "exact": None, "best": None, "method": "end", "by_seat": {"1": 0.0, "2": 1.0}}]
    d = decisive(evals, ["c3", "a1"], 2)
    assert [x["ply"] for x in d] == [0] and d[0]["text"] == "the game was lost here; b4 would have won"
    evals = [{"to_move": 1, "value": 0.7, "exact": None, "best": "b4", "method": "search"},
             {"to_move": 2, "value": 0.5, "exact": None, "best": "a1", "method": "search"}]
    assert decisive(evals, ["c3"], 2) == []
    evals[1]["value"] = 0.8
    assert decisive(evals, ["c3"], 2)[0]["text"].startswith("a mistake: win chance 70% before, 20% after")
    assert decisive(evals, ["c3"], 3) == []
    # no proven swing: the move after which the winner's estimate stayed above one half
    evals = [{"to_move": 1, "value": 0.6, "exact": None, "best": "a1", "method": "search"},
             {"to_move": 2, "value": 0.45, "exact": None, "best": "b2", "method": "search"},
             {"to_move": 1, "value": 0.4, "exact": None, "best": "c3", "method": "search"},
             {"to_move": 2, "value": 0.7, "exact": None, "best": "d4", "method": "search"},
             {"to_move": 1, "value": 0.0, "method": "end", "by_seat": {"1": 0.0, "2": 1.0}}]
    d = decisive(evals, ["x1", "x2", "x3", "x4"], 2)
    assert [(x["ply"], x["kind"], x["player"]) for x in d] == [(1, "turn", 2)]
    assert d[0]["before"] == pytest.approx(0.45) and d[0]["after"] == pytest.approx(0.6)


def test_analysis_of_a_long_search_game_is_stopped_when_the_page_goes(client):
    a = post(client, "/api/analysis", {"game": {"spec": "hex(size=9)", "tokens": "e5,d6,c7,f4,g3,b8"},
                                       "solve_seconds": 0, "simulations": 20000})
    with client.stream("GET", f"/api/analysis/{a['id']}") as r:
        for line in r.iter_lines():
            if line.startswith("event: position"):
                break
    # the stream was closed after one position; the analysis stops and frees its slot
    deadline = time.time() + 30
    while time.time() < deadline:
        exp = client.get(f"/api/analysis/{a['id']}/export").json()
        if exp["annotations"]["state"] == "stopped":
            break
        time.sleep(0.1)
    assert exp["annotations"]["state"] == "stopped" and len(exp["annotations"]["positions"]) < 7


def test_analysis_with_the_shipped_agent(client):
    a = post(client, "/api/analysis", {"game": {"spec": "hex(size=5)", "tokens": "c3,b4,b3"}, "solve_seconds": 0,
                                       "evaluator": "agent"})
    evs = [d for k, d in events(client.get(f"/api/analysis/{a['id']}").text) if k == "position"]
    assert [e["method"] for e in evs] == ["agent"] * 4
    assert all(0 <= e["value"] <= 1 and e["best"] and e["heat"] for e in evs)
    # after c3 the first player wins Hex 5x5: the network agrees that the second player is lost
    assert evs[1]["value"] < 0.2
    exp = client.get(f"/api/analysis/{a['id']}/export").json()
    assert exp["annotations"]["evaluator"] == "agent"
    assert "no shipped agent" in post(client, "/api/analysis", {"game": {"spec": "churn(size=3)", "tokens": ""},
                                                                "evaluator": "agent"}, 400)["error"]
    assert "evaluator must be" in post(client, "/api/analysis", {"game": {"spec": "churn(size=3)", "tokens": ""},
                                                                 "evaluator": "oracle"}, 400)["error"]


def test_analyses_at_once_are_bounded(client):
    game = {"spec": "hex(size=9)", "tokens": "e5,d6"}
    ids = [post(client, "/api/analysis", {"game": game, "solve_seconds": 0, "simulations": 3000})["id"]
           for _ in range(LIMITS.analyses + 1)]
    streams = []
    try:
        for key in ids[:LIMITS.analyses]:
            cm = client.stream("GET", f"/api/analysis/{key}")
            r = cm.__enter__()
            streams.append(cm)
            assert r.status_code == 200
            next(r.iter_lines())  # started
        r = client.get(f"/api/analysis/{ids[-1]}")
        assert r.status_code == 429 and "busy" in r.json()["error"]
        r = client.get(f"/api/analysis/{ids[0]}")
        assert r.status_code == 429 and "already being streamed" in r.json()["error"]
    finally:
        for cm in streams:
            cm.__exit__(None, None, None)
    deadline = time.time() + 30
    while time.time() < deadline:
        states = [client.get(f"/api/analysis/{k}/export").json()["annotations"]["state"] for k in ids[:2]]
        if states == ["stopped", "stopped"]:
            break
        time.sleep(0.1)
    assert states == ["stopped", "stopped"]
    # the slots are free again
    with client.stream("GET", f"/api/analysis/{ids[-1]}") as r:
        assert r.status_code == 200


def test_analysis_stop_endpoint_and_slots(client):
    a = post(client, "/api/analysis", {"game": {"spec": "hex(size=5)", "tokens": "c3"}, "solve_seconds": 0,
                                       "simulations": 10})
    assert post(client, "/api/analysis/" + a["id"] + "/stop", {})["state"] == "new"
    for bad, words in [({"solve_seconds": -1}, "solve_seconds"), ({"simulations": 10**9}, "simulations"),
                       ({"simulations": "many"}, "simulations")]:
        body = {"game": {"spec": "hex(size=5)", "tokens": ""}, **bad}
        assert words in post(client, "/api/analysis", body, 400)["error"]


def test_designer_report(client):
    pytest.importorskip("matplotlib")
    r = post(client, "/api/report", {"spec": "churn(size=2)", "games": 2, "playouts": 100, "ladder": "random,mcts:10"})
    assert "busy" in post(client, "/api/report", {"spec": "churn(size=2)", "games": 2}, 429)["error"]
    deadline = time.time() + 120
    while time.time() < deadline:
        s = client.get(f"/api/report/{r['id']}").json()
        if s["state"] != "running":
            break
        time.sleep(0.2)
    assert s["state"] == "done", s
    assert s["done"] == s["total"] > 0
    page = client.get(f"/api/report/{r['id']}/page")
    assert page.status_code == 200 and "churn" in page.text.lower()
    for body, words in [({"spec": "churn(size=2)", "games": 0}, "games"), ({"spec": "nope"}, "bad game"),
                        ({"spec": "churn(size=2)", "ladder": "mcts:x"}, "bad player spec"),
                        ({"spec": "churn(size=2)", "swap_map": "mcts:100000"}, "swap_map")]:
        assert words in post(client, "/api/report", body, 400)["error"]


def test_app_is_an_asgi_app_and_the_cli_is_registered():
    import hexcore.cli

    assert callable(app()) and hexcore.cli.COMMANDS["serve"].__name__ == "hexcore.cli.serve"
    assert build({"spec": "hex(size=5)", "tokens": "c3"}).history == ["c3"]


def test_cli_serve_listens_on_localhost_unless_told(monkeypatch, capsys):
    import uvicorn

    import hexcore.cli

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda asgi, **kw: calls.append(kw))
    assert hexcore.cli.main(["serve", "--port", "0"]) == 0
    assert calls[-1]["host"] == "127.0.0.1" and "warning" not in capsys.readouterr().err
    assert hexcore.cli.main(["serve", "--host", "0.0.0.0", "--port", "8000"]) == 0
    assert calls[-1] == {"host": "0.0.0.0", "port": 8000, "log_level": "warning"}
    assert "warning: listening on 0.0.0.0" in capsys.readouterr().err
    assert hexcore.cli.main(["serve", "--port", "70000"]) == 2
    assert "--port must be between 0 and 65535" in capsys.readouterr().err


JUNK = [None, 0, -1, 1e308, "", "x", "hex(size=5", "churn(size=3,pie=maybe)", [], [1], {}, {"a": 1}, "\u0000\ud7ff",
        "a" * 300, True, [["c3"]], {"spec": None}]


ROUTE_FIELDS = {
    "/api/state": {"game": {"spec": "hex(size=5)", "tokens": ["c3"]}, "play": "a1"},
    "/api/bot": {"game": {"spec": "hex(size=5)", "tokens": ["c3"]}, "player": "random", "seed": 0},
    "/api/hint": {"game": {"spec": "hex(size=3)", "tokens": ["b2"]}, "simulations": 5},
    "/api/record": {"text": '["c3"]', "game": "churn(size=3)"},
    "/api/analysis": {"game": {"spec": "hex(size=5)", "tokens": ["c3"]}, "solve_seconds": 0, "simulations": 5,
                      "evaluator": "mcts", "seed": 0},
    "/api/report": {"spec": "churn(size=2)", "games": 1, "playouts": 10, "ladder": "random", "swap_map": "off"},
}


@pytest.mark.parametrize("path", sorted(ROUTE_FIELDS))
def test_junk_never_gets_a_server_error(client, path):
    """Every field of every route gets junk: the answer is a readable 4xx, never a 500 or a hang."""
    fields = ROUTE_FIELDS[path]
    bodies = [dict(fields, **{key: junk}) for key in fields for junk in JUNK]
    if isinstance(fields.get("game"), dict):  # and junk inside the game
        bodies += [dict(fields, game=dict(fields["game"], **{sub: junk}))
                   for sub in ("spec", "tokens", "setup") for junk in JUNK]
    for body in bodies:
        r = client.post(path, json=body)
        assert r.status_code < 500, (body, r.text)
        if r.status_code >= 400:
            assert r.json()["error"], body
        if path == "/api/report" and r.status_code == 200:
            _wait_report(client, r.json()["id"])
    for setup in [{"cells": "x"}, {"cells": [9] * 25, "to_move": 1}, {"cells": [0] * 25, "to_move": 7}, [1, 2]]:
        r = client.post("/api/state", json={"game": {"spec": "hex(size=5)", "setup": setup, "tokens": []}})
        assert r.status_code == 400 and r.json()["error"], setup


def _wait_report(client, key):
    deadline = time.time() + 60
    while client.get(f"/api/report/{key}").json()["state"] == "running" and time.time() < deadline:
        time.sleep(0.1)


def test_three_players(client):
    spec = "wunchunk(size=7,players=3)"
    d = post(client, "/api/bot", {"game": {"spec": spec, "tokens": []}, "player": "random"})
    d = post(client, "/api/bot", {"game": {"spec": spec, "tokens": d["tokens"]}, "player": "mcts:20"})
    assert d["num_players"] == 3 and len(d["history"]) == 2 and d["to_move"] == 3 and len(d["seat_names"]) == 3
    a = post(client, "/api/analysis", {"game": {"spec": spec, "tokens": d["tokens"]}, "solve_seconds": 1,
                                       "simulations": 30})
    evs = events(client.get(f"/api/analysis/{a['id']}").text)
    positions = [e for k, e in evs if k == "position"]
    assert [p["method"] for p in positions] == ["search"] * 3  # the solver takes two players only
    assert [p["to_move"] for p in positions] == [1, 2, 3]
    assert evs[-1] == ("done", {"decisive": [], "result": ""})


def test_a_bot_whose_page_went_away_stops_thinking(server):
    """Every bot slot taken by 20-second searches whose pages go away after
    half a second (a new game, an undo: the browser aborts the request):
    the searches stop, so a new bot move is served at once instead of
    'the server is busy' for 20 seconds."""
    import threading

    import httpx

    url = f"{server}/api/bot"
    body = {"game": {"spec": "churn(size=4)", "tokens": []}, "player": "mcts:time=20"}

    def abandoned() -> None:
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(url, json=body, timeout=httpx.Timeout(10, read=0.5))

    callers = [threading.Thread(target=abandoned) for _ in range(LIMITS.bots)]
    for c in callers:
        c.start()
    for c in callers:
        c.join()
    time.sleep(1.0)   # the server sees the disconnects and the searches stop within 20 ms of it
    t0 = time.time()
    r = httpx.post(url, json={**body, "player": "mcts:100"}, timeout=15)
    assert r.status_code == 200, r.text
    assert time.time() - t0 < 10
