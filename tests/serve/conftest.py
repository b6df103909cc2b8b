"""Games the serve tests analyse, and the app served on a loopback port."""
import json
import pathlib
import socket
import threading
import time
from typing import Iterator

import pytest

import hexcore as hc

HERE = pathlib.Path(__file__).parent


@pytest.fixture(scope="session")
def churn_blunder():
    """A Churn side 3 game from a set-up position (ply 40 of tests/serve/churn3_game.json, a game of
    mcts:300 against itself) in which the third move, c5, throws away a proven win; both sides then play
    perfectly (``hc.solve``'s quickest win, slowest loss) to the end. Returns ``(game, winning_moves)``:
    the finished game (a hexcore JSON record round-trips it) and the moves that would have kept the win."""
    moves = json.loads((HERE / "churn3_game.json").read_text())
    g = hc.Churn.replay(moves[:40], size=3)
    start = hc.Churn.from_position({g.board.label(i): int(v) for i, v in enumerate(g.cells()) if v},
                                   to_move=g.to_move, size=3)
    start.play(moves[40])
    start.play(moves[41])
    assert hc.solve(start, threads=1).value == "win"
    winning = []
    for m in start.legal_moves():
        c = start.copy()
        c.play(m)
        if hc.solve(c, threads=1, distances=False).value == "loss":
            winning.append(m)
    c = start.copy()
    c.play("c5")
    assert hc.solve(c, threads=1).value == "win"  # for the other player: c5 loses
    start.play("c5")
    while not start.is_over:
        start.play(hc.solve(start, threads=1).best_move)
    return start, winning


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``hexcore.serve.app()`` under uvicorn in a thread, on a free loopback
    port, for a module's tests: its base URL."""
    uvicorn = pytest.importorskip("uvicorn")

    from hexcore.serve import app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app(), host="127.0.0.1", port=port, log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    deadline = time.time() + 20
    while not srv.started and time.time() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        t.join(10)
