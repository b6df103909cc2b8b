"""The ASGI application of ``python -m hexcore serve`` (Starlette).

Routes (JSON bodies in and out; a refused request is HTTP 400 with
``{"error": message}``, 413 for a body over the limit, 429 when the server
is busy, 404 for an unknown analysis or report):

* ``GET /`` the page; ``GET /static/...`` its scripts and style.
* ``POST /api/state`` ``{"game": G, "play": TOKEN?}``: the position of game
  ``G`` (``{"spec", "setup", "tokens"}``, see :mod:`hexcore.serve.game`),
  after playing ``TOKEN`` when given.
* ``POST /api/bot`` ``{"game": G, "player": SPEC, "seed": N}``: the position
  after the bot's turn (run on a worker thread).
* ``POST /api/hint`` ``{"game": G}``: a suggested move.
* ``POST /api/record`` ``{"text": RECORD, "game": SPEC?}``: a game from an
  uploaded record (hexcore JSON or Abstract Play), parsed in memory.
* ``POST /api/analysis`` ``{"game": G, "solve_seconds": S, "simulations": N,
  "evaluator": "mcts" | "agent"}``
  creates an analysis; ``GET /api/analysis/ID`` streams it as server-sent
  events (``position`` for each position, then ``done`` with the decisive
  moves; it stops when the page goes away); ``GET /api/analysis/ID/export``
  is the annotated record (JSON).
* ``POST /api/report`` ``{"spec": SPEC, "games": N, "playouts": P}`` starts
  a designer report (:func:`hexcore.analysis.analyze`, small budgets);
  ``GET /api/report/ID`` its progress, ``GET /api/report/ID/page`` the page.
"""
from __future__ import annotations

import itertools
import json
import threading
import time
from importlib import resources
from typing import Any, AsyncIterator, Dict, List, Optional, Sequence

from ..match import Cancelled
from .game import LIMITS, InputError, apply_token, bot_turn, build, decisive, describe, evaluate, heat_fills, hint, number, parse_seat, read_record

try:
    import anyio
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(f"hexcore.serve needs Starlette and uvicorn: pip install 'hexcore[serve]' ({e})") from None

__all__ = ["app"]

_STATIC = resources.files("hexcore.serve") / "static"


class _Busy(Exception):
    pass


class _TooLarge(Exception):
    pass


class _NotFound(Exception):
    pass


async def _body(request: Request) -> Dict[str, Any]:
    """The request's JSON object, read up to the size limit."""
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > LIMITS.max_body:
        raise _TooLarge()
    chunks: List[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > LIMITS.max_body:
            raise _TooLarge()
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
        raise InputError(f"the request is not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise InputError("the request must be a JSON object")
    return data


def _error(e: BaseException) -> JSONResponse:
    if isinstance(e, _TooLarge):
        return JSONResponse({"error": f"the request is larger than {LIMITS.max_body // 1024} KiB"}, status_code=413)
    if isinstance(e, _Busy):
        return JSONResponse({"error": str(e)}, status_code=429)
    if isinstance(e, _NotFound):
        return JSONResponse({"error": str(e)}, status_code=404)
    return JSONResponse({"error": " ".join(str(e).split())}, status_code=400)


def _handler(fn: Any) -> Any:
    """A route that answers a refused request with its message."""
    async def route(request: Request) -> Response:
        try:
            response: Response = await fn(request)
            return response
        except (InputError, _Busy, _TooLarge, _NotFound) as e:
            return _error(e)
        except (ValueError, TypeError, KeyError, IndexError, OverflowError) as e:
            return _error(InputError(str(e)))
    return route


class _Slots:
    """At most ``n`` at once; a request beyond that is refused, not queued."""

    def __init__(self, n: int, what: str) -> None:
        self.free, self.n, self.what = n, n, what
        self.lock = threading.Lock()  # a report gives its slot back from its own thread

    def take(self) -> None:
        with self.lock:
            if self.free <= 0:
                raise _Busy(f"the server is busy: {self.n} {self.what} already running; try again when one ends")
            self.free -= 1

    def give(self) -> None:
        with self.lock:
            self.free += 1


class _Analysis:
    def __init__(self, game: Any, solve_seconds: float, simulations: int, seed: int, evaluator: str, net: Any) -> None:
        self.game, self.solve_seconds, self.simulations, self.seed = game, solve_seconds, simulations, seed
        self.evaluator, self.net = evaluator, net
        self.evals: List[Dict[str, Any]] = []
        self.decisive: List[Dict[str, Any]] = []
        self.state = "new"
        self.stop = threading.Event()


class _Report:
    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.done, self.total, self.phase = 0, 0, ""
        self.state = "running"
        self.error: Optional[str] = None
        self.html: Optional[str] = None
        self.summary: Dict[str, Any] = {}
        self.t0 = time.perf_counter()


def _sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def app(*, az_paths: Sequence[str] = (), max_jobs: int = 64) -> Starlette:
    """The ASGI application (mount it in another app, or run it with uvicorn).

    Args:
        az_paths: checkpoints or run folders of trained agents the page may
            seat as ``az:PATH`` (the page itself names no files).
        max_jobs: analyses and reports kept in memory (the oldest go first).

    Returns:
        A Starlette application.
    """
    az_paths = tuple(str(p) for p in az_paths)
    analyses: Dict[str, _Analysis] = {}
    reports: Dict[str, _Report] = {}
    ids = itertools.count(1)
    running = _Slots(LIMITS.analyses, "analyses")
    bots = _Slots(LIMITS.bots, "bot moves or hints")
    report_slots = _Slots(LIMITS.reports, "designer reports")
    agents: Dict[Any, Any] = {}

    def keep(store: Dict[str, Any], job: Any) -> str:
        key = str(next(ids))
        store[key] = job
        while len(store) > max_jobs:
            old = next(iter(store))
            if getattr(store[old], "state", "") == "running":
                break
            del store[old]
        return key

    async def index(request: Request) -> Response:
        return HTMLResponse((_STATIC / "index.html").read_text(encoding="utf-8"))

    async def off_loop(fn: Any) -> Any:
        """Replaying a game and describing it is CPU work: a worker thread does it."""
        return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)

    async def state(request: Request) -> Response:
        body = await _body(request)
        token = body.get("play")
        if token is not None and (not isinstance(token, str) or len(token) > 64):
            raise InputError("play must be an action's text")

        def work() -> Dict[str, Any]:
            g = build(body.get("game"))
            if token is not None:
                apply_token(g, token)
            return describe(g)

        return JSONResponse(await off_loop(work))

    async def in_thread(fn: Any, *args: Any) -> Any:
        bots.take()
        try:
            return await anyio.to_thread.run_sync(fn, *args, abandon_on_cancel=True)
        finally:
            bots.give()

    async def bot(request: Request) -> Response:
        body = await _body(request)
        g = await off_loop(lambda: build(body.get("game")))
        p = parse_seat(body.get("player", "mcts:1000"), az_paths)
        if p is None:
            raise InputError("player must be a bot's spec, not a person")
        seed = number(body, "seed", 0, 0, 2**63 - 1, integer=True)
        gone = threading.Event()   # the page went away (a new game, an undo): the search stops

        def work() -> Dict[str, Any]:
            bot_turn(g, p, seed, agents, cancelled=gone.is_set)
            return describe(g)

        async def watch() -> None:
            while not await request.is_disconnected():
                await anyio.sleep(0.05)
            gone.set()

        outcome: List[Any] = []

        async def think() -> None:
            try:
                outcome.append(await in_thread(work))
            except Exception as e:  # noqa: BLE001 - raised again below, outside the task group
                outcome.append(e)
            finally:
                tg.cancel_scope.cancel()   # the watch ends with the move

        async with anyio.create_task_group() as tg:
            tg.start_soon(watch)
            tg.start_soon(think)
        if isinstance(outcome[0], Cancelled):
            return JSONResponse({"error": "the bot's move was cancelled"}, status_code=409)
        if isinstance(outcome[0], Exception):
            raise outcome[0]
        return JSONResponse(outcome[0])

    async def hint_route(request: Request) -> Response:
        body = await _body(request)
        sims = number(body, "simulations", 2000, 1, LIMITS.max_eval_simulations, integer=True)
        g = await off_loop(lambda: build(body.get("game")))
        return JSONResponse(await in_thread(lambda: hint(g, sims)))

    async def record(request: Request) -> Response:
        body = await _body(request)

        def work() -> Dict[str, Any]:
            game = read_record(body.get("text"), body.get("game") or None)
            return {"game": game, "state": describe(build(game))}

        return JSONResponse(await off_loop(work))

    async def analysis_new(request: Request) -> Response:
        body = await _body(request)
        g = await off_loop(lambda: build(body.get("game")))
        if len(g.pending_actions):
            g.undo()
        evaluator = body.get("evaluator", "mcts")
        if evaluator not in ("mcts", "agent"):
            raise InputError(f"evaluator must be 'mcts' (MCTS-Solver) or 'agent' (the game's shipped agent), got {evaluator!r}")
        net = None
        if evaluator == "agent":
            from .. import agents as shipped

            try:
                net = await off_loop(lambda: shipped.load(g.spec))
            except (ValueError, KeyError, OSError) as e:
                raise InputError(str(e)) from None
        a = _Analysis(g, number(body, "solve_seconds", 1.0, 0, LIMITS.max_eval_seconds),
                      number(body, "simulations", 1000, 1, LIMITS.max_eval_simulations, integer=True),
                      number(body, "seed", 0, 0, 2**63 - 1, integer=True), evaluator, net)
        key = keep(analyses, a)
        return JSONResponse({"id": key, "positions": len(g.history) + 1, "spec": g.spec})

    def find(store: Dict[str, Any], key: str, what: str) -> Any:
        job = store.get(key)
        if job is None:
            raise _NotFound(f"no {what} {key!r} (finished ones are kept for a while only)")
        return job

    async def analysis_stream(request: Request) -> Response:
        a: _Analysis = find(analyses, request.path_params["id"], "analysis")
        if a.state == "running":
            raise _Busy("this analysis is already being streamed")
        running.take()
        a.state, a.evals, a.decisive = "running", [], []
        a.stop.clear()
        history = list(a.game.history)
        start = a.game.copy()
        while start.history:
            start.undo()

        async def events() -> AsyncIterator[str]:
            pos = start
            try:
                yield _sse("start", {"spec": a.game.spec, "history": history, "positions": len(history) + 1})
                for i in range(len(history) + 1):
                    if a.stop.is_set() or await request.is_disconnected():
                        a.state = "stopped"
                        return
                    here = pos.copy()
                    t0 = time.perf_counter()
                    try:
                        ev = await anyio.to_thread.run_sync(
                            lambda: evaluate(here, a.solve_seconds, a.simulations, a.seed, stop=a.stop.is_set, agent=a.net),
                            abandon_on_cancel=True)
                    except InterruptedError:
                        a.state = "stopped"
                        return
                    ev["seconds"] = round(time.perf_counter() - t0, 4)
                    ev["move"] = history[i] if i < len(history) else None
                    a.evals.append(ev)  # kept without its picture: jobs stay small in memory
                    yield _sse("position", dict(ev, svg=describe_heat(here, ev)))
                    if i < len(history):
                        pos.play(history[i])
                a.decisive = decisive(a.evals, history, a.game.num_players)
                a.state = "done"
                yield _sse("done", {"decisive": a.decisive, "result": describe(a.game)["result"]})
            finally:
                if a.state == "running":
                    a.state = "stopped"
                a.stop.set()
                running.give()

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    def describe_heat(g: Any, ev: Dict[str, Any]) -> str:
        from ..render import svg

        return svg(g, fills=heat_fills(ev.get("heat", {}), g.board))

    async def analysis_stop(request: Request) -> Response:
        a: _Analysis = find(analyses, request.path_params["id"], "analysis")
        a.stop.set()
        return JSONResponse({"id": request.path_params["id"], "state": a.state})

    async def analysis_export(request: Request) -> Response:
        a: _Analysis = find(analyses, request.path_params["id"], "analysis")
        from ..records import to_dict

        rec = to_dict(a.game)
        rec["annotations"] = {
            "state": a.state, "solve_seconds": a.solve_seconds, "simulations": a.simulations, "evaluator": a.evaluator,
            "positions": a.evals,
            "decisive": a.decisive}
        return JSONResponse(rec, headers={"Content-Disposition": 'attachment; filename="hexcore-analysis.json"'})

    async def report_new(request: Request) -> Response:
        from ..analysis import analyze

        body = await _body(request)
        spec = build({"spec": body.get("spec", ""), "tokens": []}).spec
        games = number(body, "games", 10, 1, LIMITS.max_report_games, integer=True)
        playouts = number(body, "playouts", 2000, 1, LIMITS.max_report_playouts, integer=True)
        ladder = body.get("ladder", "random,mcts:10,mcts:100")
        if not isinstance(ladder, str) or len(ladder) > 200:
            raise InputError("ladder must be a string of player specs, e.g. 'random,mcts:10'")
        for p in ladder.split(","):
            parse_seat(p)
        swap_map = body.get("swap_map", "off")
        if swap_map not in ("off", "mcts:10", "mcts:100", "exact"):
            raise InputError(f"swap_map must be off, exact, mcts:10 or mcts:100, got {swap_map!r}")
        report_slots.take()
        r = _Report(spec)

        def cb(done: int, total: int, phase: str) -> None:
            r.done, r.total, r.phase = done, total, phase

        def work() -> None:
            try:
                rep = analyze(spec, games=games, ladder=ladder, swap_map=swap_map, threads=1, playouts=playouts,
                              progress=False, callback=cb)
                r.html = rep.to_html()
                r.summary = {"levels": len(rep.metrics), "openings": len(rep.swap_map)}
                r.state = "done"
            except Exception as e:  # the page shows why; the server goes on
                r.error, r.state = " ".join(str(e).split()) or type(e).__name__, "failed"
            finally:
                report_slots.give()

        key = keep(reports, r)
        threading.Thread(target=work, name=f"hexcore-report-{key}", daemon=True).start()
        return JSONResponse({"id": key, "spec": spec})

    async def report_status(request: Request) -> Response:
        r: _Report = find(reports, request.path_params["id"], "report")
        return JSONResponse({"id": request.path_params["id"], "spec": r.spec, "state": r.state, "done": r.done,
                             "total": r.total, "phase": r.phase, "error": r.error, "summary": r.summary,
                             "seconds": round(time.perf_counter() - r.t0, 1)})

    async def report_page(request: Request) -> Response:
        r: _Report = find(reports, request.path_params["id"], "report")
        if r.html is None:
            raise _NotFound(f"report {request.path_params['id']} is {r.state}" + (f": {r.error}" if r.error else ""))
        return HTMLResponse(r.html)

    routes = [
        Route("/", index),
        Route("/api/state", _handler(state), methods=["POST"]),
        Route("/api/bot", _handler(bot), methods=["POST"]),
        Route("/api/hint", _handler(hint_route), methods=["POST"]),
        Route("/api/record", _handler(record), methods=["POST"]),
        Route("/api/analysis", _handler(analysis_new), methods=["POST"]),
        Route("/api/analysis/{id}", _handler(analysis_stream)),
        Route("/api/analysis/{id}/stop", _handler(analysis_stop), methods=["POST"]),
        Route("/api/analysis/{id}/export", _handler(analysis_export)),
        Route("/api/report", _handler(report_new), methods=["POST"]),
        Route("/api/report/{id}", _handler(report_status)),
        Route("/api/report/{id}/page", _handler(report_page)),
        Mount("/static", StaticFiles(directory=str(_STATIC)), name="static"),
    ]
    return Starlette(routes=routes)

