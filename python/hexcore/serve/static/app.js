// The page of `python -m hexcore serve`: plain JavaScript, no build step.
// The server keeps no game: the page holds {spec, setup, tokens} and every
// request sends it; the server replays it and answers with the position.

const $ = (id) => document.getElementById(id);

const page = {
  game: { spec: "hex(size=5)", setup: null, tokens: [] },
  seats: [null, "mcts:1000"],   // null: a person ("you")
  desc: null,                    // the last position the server described
  gen: 0,                        // bumped by new game / undo / load: stale replies are dropped
  abort: null,                   // the bot's request in flight
  seed: 0,
  analysis: null,                // {id, evals, decisive, source}
  step: 0,
};

async function api(path, body, signal) {
  const r = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body), signal,
  });
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

// a message above the board: an error (red) unless `error` is false
function say(text, error = true) {
  $("message").textContent = text || "";
  $("message").classList.toggle("error", error);
}

// "you,mcts:1000,c=0.1" -> ["you", "mcts:1000,c=0.1"]: an option (k=v without ':') joins the spec before it
function splitPlayers(text) {
  const out = [];
  for (const part of text.split(",").map((s) => s.trim()).filter((s) => s)) {
    if (out.length && part.includes("=") && !part.includes(":")) out[out.length - 1] += "," + part;
    else out.push(part);
  }
  return out;
}

function isPerson(spec) { return spec === null || ["you", "human", "person", ""].includes(spec.toLowerCase()); }

function seatsFrom(text, n) {
  const list = splitPlayers(text).map((s) => (isPerson(s) ? null : s));
  while (list.length < n) list.push(list.length === 0 ? null : "mcts:1000");
  return list.slice(0, n);
}

function updateUrl() {
  const q = new URLSearchParams();
  q.set("game", page.game.spec);
  q.set("players", page.seats.map((s) => (s === null ? "you" : s)).join(","));
  if (page.game.tokens.length) q.set("moves", page.game.tokens.join(","));
  if (!page.game.setup) history.replaceState(null, "", "?" + q.toString().replace(/%2C/g, ",").replace(/%28/g, "(").replace(/%29/g, ")").replace(/%3D/g, "=").replace(/%3A/g, ":"));
}

function stopBot() {
  page.gen += 1;
  if (page.abort) page.abort.abort();
  page.abort = null;
  $("thinking").textContent = "";
}

function render(desc, svgText) {
  page.desc = desc;
  page.game.tokens = desc.tokens;
  $("board").innerHTML = svgText || desc.svg;
  const human = !desc.is_over && isPerson(page.seats[desc.to_move - 1]) && !page.abort;
  const legal = new Set(desc.actions.filter((a) => a.cell).map((a) => a.cell));
  if (!svgText) {
    for (const poly of $("board").querySelectorAll("polygon.cell")) {
      const cell = poly.dataset.cell;
      if (human && legal.has(cell)) poly.classList.add("legal");
      if (desc.removed.includes(cell)) poly.classList.add("removed");
    }
  }
  $("result").textContent = desc.result;
  const who = desc.seat_names[desc.to_move - 1];
  $("turn").textContent = desc.is_over ? `Game over after ${desc.history.length} moves`
    : `${who} to move${isPerson(page.seats[desc.to_move - 1]) ? " (you)" : ` (${page.seats[desc.to_move - 1]})`}`
      + (desc.pending.length ? `, turn so far: ${desc.pending.join(",")}` : "");
  const choices = $("choices");
  choices.innerHTML = "";
  if (human) {
    for (const a of desc.actions.filter((x) => !x.cell)) addChoice(a.text);
  }
  const ol = $("moves");
  ol.innerHTML = "";
  for (const m of desc.history) {
    const li = document.createElement("li");
    li.textContent = m;
    ol.appendChild(li);
  }
  updateUrl();
}

function addChoice(text) {
  const b = document.createElement("button");
  b.textContent = text;
  b.dataset.action = text;
  b.addEventListener("click", () => play(text));
  $("choices").appendChild(b);
}

async function refresh() {
  const gen = page.gen;
  try {
    const desc = await api("/api/state", { game: page.game });
    if (gen !== page.gen) return;
    render(desc);
    say("");
    maybeBot();
  } catch (e) { say(e.message); }
}

async function play(token) {
  const gen = page.gen;
  try {
    const desc = await api("/api/state", { game: page.game, play: token });
    if (gen !== page.gen) return;
    $("hint-text").textContent = "";
    render(desc);
    say("");
    maybeBot();
  } catch (e) { say(e.message); }
}

async function maybeBot() {
  const d = page.desc;
  if (!d || d.is_over || d.pending.length || page.abort) return;
  const player = page.seats[d.to_move - 1];
  if (isPerson(player)) return;
  const gen = page.gen;
  const ctrl = new AbortController();
  page.abort = ctrl;
  const t0 = performance.now();
  const budget = /time=([0-9.]+)/.exec(player);
  const timer = setInterval(() => {
    $("thinking").textContent = `${player} is thinking… ${((performance.now() - t0) / 1000).toFixed(1)} s`
      + (budget ? ` of ${budget[1]} s` : "");
  }, 100);
  render(d);
  try {
    const desc = await api("/api/bot", { game: page.game, player, seed: page.seed }, ctrl.signal);
    if (gen !== page.gen) return;
    page.abort = null;
    clearInterval(timer);
    $("thinking").textContent = `${player} played ${desc.history[desc.history.length - 1]} `
      + `(${((performance.now() - t0) / 1000).toFixed(1)} s)`;
    render(desc);
    maybeBot();
  } catch (e) {
    if (gen === page.gen) { page.abort = null; say(e.message); render(d); }
  } finally {
    clearInterval(timer);
  }
}

function onBoardClick(ev) {
  const el = ev.target.closest("[data-cell]");
  if (!el || !page.desc || $("view-analyse").hidden === false && page.analysis && page.analysis.showing) return;
  const d = page.desc;
  if (d.is_over || page.abort || !isPerson(page.seats[d.to_move - 1])) return;
  const cell = el.dataset.cell;
  const acts = d.actions.filter((a) => a.cell === cell);
  if (acts.length === 1) return play(acts[0].text);
  if (acts.length > 1) {
    $("choices").innerHTML = "";
    say(`${cell}: choose`, false);
    for (const a of acts) addChoice(a.text);
    for (const a of d.actions.filter((x) => !x.cell)) addChoice(a.text);
    return;
  }
  say(`${cell} is not a legal move here`);
}

function newGame() {
  stopBot();
  page.game = { spec: $("spec").value.trim(), setup: null, tokens: [] };
  page.seats = seatsFrom($("players").value, 8);
  api("/api/state", { game: page.game }).then((desc) => {
    page.seats = seatsFrom($("players").value, desc.num_players);
    $("players").value = page.seats.map((s) => (s === null ? "you" : s)).join(",");
    render(desc);
    say("");
    maybeBot();
  }).catch((e) => say(e.message));
}

function undo() {
  stopBot();
  const d = page.desc;
  if (!d) return;
  let tokens = d.tokens;
  if (d.pending.length) {
    tokens = tokens.slice(0, tokens.length - d.pending.length);
  } else {
    const turns = d.turns.slice();
    const anyPerson = turns.some((t) => isPerson(page.seats[t.seat - 1]));
    while (turns.length) {
      const t = turns.pop();
      if (!anyPerson || isPerson(page.seats[t.seat - 1])) break;
    }
    tokens = tokens.slice(0, turns.length ? turns[turns.length - 1].end : 0);
  }
  page.game.tokens = tokens;
  refresh();
}

async function hint() {
  try {
    $("hint-text").textContent = "thinking…";
    const h = await api("/api/hint", { game: page.game });
    const how = h.exact ? `proven ${h.exact}` : `win chance ${(100 * h.value).toFixed(0)}%`;
    $("hint-text").textContent = `hint: ${h.move} (${how})`;
  } catch (e) { $("hint-text").textContent = ""; say(e.message); }
}

function download(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ---- analysis ----

async function loadRecord() {
  let text = $("record-text").value.trim();
  const file = $("record-file").files[0];
  if (!text && file) text = await file.text();
  if (!text) { say("paste a record or choose a file"); return; }
  stopBot();
  try {
    const r = await api("/api/record", { text, game: $("record-game").value.trim() || null });
    page.game = r.game;
    page.seats = Array(r.state.num_players).fill(null);
    $("spec").value = r.game.spec;
    $("players").value = page.seats.map(() => "you").join(",");
    render(r.state);
    say(`loaded ${r.state.history.length} moves of ${r.game.spec}`, false);
  } catch (e) { say(e.message); }
}

function valueForOne(ev, n) {
  if (ev.value === null || ev.value === undefined) return null;
  if (ev.method === "end") return ev.by_seat["1"];
  if (n !== 2) return ev.value;
  return ev.to_move === 1 ? ev.value : 1 - ev.value;
}

function drawGraph() {
  const a = page.analysis;
  if (!a) return;
  const n = a.positions, W = 560, H = 200, pad = 24;
  const x = (i) => pad + (i * (W - 2 * pad)) / Math.max(1, n - 1);
  const y = (v) => H - pad - v * (H - 2 * pad);
  const two = a.numPlayers === 2;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" id="graph-svg">`,
    `<rect x="0" y="0" width="${W}" height="${H}" fill="#fff"/>`,
    `<line x1="${pad}" y1="${y(0.5)}" x2="${W - pad}" y2="${y(0.5)}" stroke="#ccc" stroke-dasharray="4 4"/>`,
    `<text x="2" y="${y(1) + 4}" font-size="10">${two ? "P1 wins" : "mover"}</text>`,
    `<text x="2" y="${y(0) + 4}" font-size="10">${two ? "P2 wins" : "loses"}</text>`];
  for (const d of a.decisive) {
    parts.push(`<line class="decisive" data-ply="${d.ply}" x1="${x(d.ply + 0.5)}" y1="${pad}" x2="${x(d.ply + 0.5)}" y2="${H - pad}" stroke="#b00020" stroke-width="2"/>`);
  }
  const pts = a.evals.map((ev, i) => [i, valueForOne(ev, a.numPlayers)]).filter((p) => p[1] !== null);
  parts.push(`<polyline fill="none" stroke="#1f5fbf" stroke-width="1.5" points="${pts.map(([i, v]) => `${x(i)},${y(v)}`).join(" ")}"/>`);
  for (const [i, v] of pts) {
    const ev = a.evals[i];
    const cls = (ev.exact || ev.method === "end" ? "exact" : "estimate") + (i === page.step ? " current" : "");
    parts.push(`<circle class="point ${cls}" data-ply="${i}" cx="${x(i)}" cy="${y(v)}" r="3.5"><title>position ${i}: ${ev.exact || (100 * ev.value).toFixed(0) + "%"}</title></circle>`);
  }
  parts.push("</svg>");
  $("graph").innerHTML = parts.join("");
}

function showStep(i) {
  const a = page.analysis;
  if (!a || !a.evals.length) return;
  page.step = Math.max(0, Math.min(i, a.evals.length - 1));
  const ev = a.evals[page.step];
  $("board").innerHTML = ev.svg;
  $("step-label").textContent = `position ${page.step} of ${a.positions - 1}`;
  const seat = a.seatNames[ev.to_move - 1] || `player ${ev.to_move}`;
  const val = ev.method === "end" ? "game over" : ev.exact ? `${ev.exact} for ${seat} (exact)`
    : `${(100 * ev.value).toFixed(0)}% for ${seat} (${ev.method})`;
  $("step-eval").textContent = `${val}${ev.best ? `; best ${ev.best}` : ""}${ev.move ? `; played ${ev.move}` : ""}`;
  drawGraph();
}

function analyse() {
  stopAnalysis();
  const source = { ...page.game };
  api("/api/analysis", {
    game: source, solve_seconds: Number($("solve-seconds").value), simulations: Number($("simulations").value),
    evaluator: $("evaluator").value,
  }).then((r) => {
    const a = { id: r.id, positions: r.positions, evals: [], decisive: [], es: null, showing: true,
      numPlayers: page.desc ? page.desc.num_players : 2, seatNames: page.desc ? page.desc.seat_names : [] };
    page.analysis = a;
    const es = new EventSource(`/api/analysis/${r.id}`);
    a.es = es;
    $("analysis-progress").textContent = `analysing ${r.positions} positions…`;
    es.addEventListener("position", (m) => {
      a.evals.push(JSON.parse(m.data));
      $("analysis-progress").textContent = `analysed ${a.evals.length} of ${a.positions} positions`;
      showStep(a.evals.length - 1);
    });
    es.addEventListener("done", (m) => {
      const d = JSON.parse(m.data);
      a.decisive = d.decisive;
      es.close();
      const exact = a.evals.filter((e) => e.exact || e.method === "end").length;
      $("analysis-progress").textContent = `done: ${a.evals.length} positions, ${exact} exact`;
      const ul = $("decisive");
      ul.innerHTML = "";
      for (const x of d.decisive) {
        const li = document.createElement("li");
        li.className = x.exact ? "decisive exact" : "decisive";
        li.dataset.ply = x.ply;
        li.textContent = `move ${x.ply + 1}, ${x.move} by ${a.seatNames[x.player - 1] || x.player}: ${x.text}`;
        li.addEventListener("click", () => showStep(x.ply));
        ul.appendChild(li);
      }
      if (!d.decisive.length) ul.innerHTML = "<li>no move changed the result</li>";
      drawGraph();
    });
    es.onerror = () => { if (a.es) { a.es.close(); } };
  }).catch((e) => say(e.message));
}

function stopAnalysis() {
  const a = page.analysis;
  if (a && a.es) {
    a.es.close();
    fetch(`/api/analysis/${a.id}/stop`, { method: "POST" });
    $("analysis-progress").textContent = `stopped after ${a.evals.length} positions`;
  }
}

// ---- designer report ----

async function startReport() {
  try {
    const r = await api("/api/report", {
      spec: $("spec").value.trim(), games: Number($("report-games").value), playouts: Number($("report-playouts").value),
    });
    $("report-link").textContent = "";
    const poll = async () => {
      const s = await (await fetch(`/api/report/${r.id}`)).json();
      $("report-progress").textContent = `${s.spec}: ${s.state}, ${s.phase || "starting"} ${s.done}/${s.total || "?"} (${s.seconds} s)`;
      if (s.state === "running") { setTimeout(poll, 500); return; }
      if (s.state === "done") {
        $("report-link").innerHTML = `<a id="report-open" href="/api/report/${r.id}/page" target="_blank">Open the report</a>`;
      } else { say(s.error); }
    };
    poll();
  } catch (e) { say(e.message); }
}

function showView(name) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.view === name);
  for (const v of ["play", "analyse", "report"]) $(`view-${v}`).hidden = v !== name;
  if (page.analysis) page.analysis.showing = name === "analyse";
  if (name === "play" && page.desc) render(page.desc);
  if (name === "analyse" && page.analysis && page.analysis.evals.length) showStep(page.step);
}

function init() {
  const q = new URLSearchParams(location.search);
  if (q.get("game")) $("spec").value = q.get("game");
  if (q.get("players")) $("players").value = q.get("players");
  page.game = { spec: $("spec").value.trim(), setup: null, tokens: (q.get("moves") || "").split(/[,;\s]+/).filter((s) => s) };
  page.seats = seatsFrom($("players").value, 8);
  $("board").addEventListener("click", onBoardClick);
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("export-svg").addEventListener("click", () => download("hexcore-board.svg", $("board").innerHTML, "image/svg+xml"));
  $("record-load").addEventListener("click", loadRecord);
  $("analyse").addEventListener("click", analyse);
  $("analyse-stop").addEventListener("click", stopAnalysis);
  $("step-first").addEventListener("click", () => showStep(0));
  $("step-prev").addEventListener("click", () => showStep(page.step - 1));
  $("step-next").addEventListener("click", () => showStep(page.step + 1));
  $("step-last").addEventListener("click", () => showStep(Infinity));
  $("graph").addEventListener("click", (ev) => {
    const el = ev.target.closest("[data-ply]");
    if (el) showStep(Number(el.dataset.ply));
  });
  $("export-json").addEventListener("click", () => { if (page.analysis) location.href = `/api/analysis/${page.analysis.id}/export`; });
  $("report-start").addEventListener("click", startReport);
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showView(b.dataset.view));
  api("/api/state", { game: page.game }).then((desc) => {
    page.seats = seatsFrom($("players").value, desc.num_players);
    render(desc);
    maybeBot();
  }).catch((e) => say(e.message));
}

init();
