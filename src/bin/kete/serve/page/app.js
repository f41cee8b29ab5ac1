// The board page. It knows no rule: positions, legal moves, outcomes and
// the steps of each move come from the server (/api/*).
"use strict";
const $ = (id) => document.getElementById(id);
const game = { variant: "kalah", options: {}, start: null, moves: [], redo: [], view: 0, notes: [] };
let replays = [];
let variants = [];
let current = null;       // the last /api/state answer for the shown ply
let flipped = false;
let busy = false;
let hintCell = null;
let lastCell = null;
let searchAbort = null;

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

function request(extra) {
  const r = { variant: game.variant, options: game.options, moves: game.moves.slice(0, game.view) };
  if (game.start) r.start = game.start;
  return Object.assign(r, extra || {});
}

function showError(e) { $("error").textContent = e ? String(e.message || e) : ""; }

// --- drawing -------------------------------------------------------------
const SVG = "http://www.w3.org/2000/svg";
function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// Where a cell stands: columns and rows of the drawing.
function place(cell, cells) {
  const bottom = flipped ? "north" : "south";
  const bao = cells.length === 34;
  const m = bao ? 8 : (cells.length - 2) / 2;
  const mine = cell.side === bottom;
  if (cell.kind === "pit") {
    const x = mine ? cell.col : m - 1 - cell.col;
    let y;
    if (bao) y = mine ? (cell.row === 0 ? 2 : 3) : (cell.row === 0 ? 1 : 0);
    else y = mine ? 1 : 0;
    return { x: x + 1, y, m, rows: bao ? 4 : 2 };
  }
  return { x: mine ? m + 1 : 0, y: null, m, rows: bao ? 4 : 2, mine };
}

function draw(cells, legal) {
  const svg = $("board");
  svg.innerHTML = "";
  const P = 80;
  const first = place(cells[0], cells);
  const W = (first.m + 2) * P, H = first.rows * P + 20;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const byCell = {};
  for (const mv of legal || []) (byCell[mv.cell] = byCell[mv.cell] || []).push(mv.text);
  cells.forEach((c, i) => {
    const p = place(c, cells);
    const cls = ["cell", c.kind];
    if (byCell[i]) cls.push("legal");
    if (i === hintCell) cls.push("hint");
    if (i === lastCell) cls.push("last");
    for (const mk of c.marks) cls.push(mk);
    const g = el("g", { id: "cell-" + i, class: cls.join(" "), "data-seeds": c.seeds, "data-name": c.name }, svg);
    let cx, cy;
    if (c.kind === "pit") {
      cx = p.x * P + P / 2; cy = p.y * P + P / 2 + 10;
      el("circle", { cx, cy, r: P * 0.42 }, g);
    } else {
      cx = p.x * P + P / 2; cy = H / 2;
      const top = p.mine ? H / 2 + 4 : 14;
      el("rect", { x: p.x * P + 8, y: top, width: P - 16, height: H / 2 - 18, rx: 20 }, g);
      cy = top + (H / 2 - 18) / 2;
    }
    const t = el("text", { x: cx, y: cy, class: "count" }, g);
    t.textContent = c.seeds;
    const n = el("text", { x: cx, y: c.kind === "pit" ? cy + P * 0.42 + 9 : cy + 40, class: "name" }, g);
    n.textContent = c.name;
    if (byCell[i]) g.addEventListener("click", () => clickCell(i, byCell[i]));
  });
}

function setCount(i, v) {
  const g = $("cell-" + i);
  if (!g) return;
  g.setAttribute("data-seeds", v);
  g.querySelector("text.count").textContent = v;
}

// --- the game ------------------------------------------------------------
function engineTurn() {
  if (!current || current.outcome) return false;
  return $(current.side).value === "engine" && game.view === game.moves.length;
}

async function refresh() {
  current = await api("/api/state", request());
  draw(current.cells, current.outcome ? [] : current.legal);
  $("token").value = current.token;
  $("movesline").value = game.moves.slice(0, game.view).join(" ");
  const o = current.outcome;
  $("status").textContent = o
    ? `Game over: ${o.result}` + (o.seeds ? ` (${o.seeds[0]}–${o.seeds[1]})` : "") + (o.reason ? ` — ${o.reason}` : "")
    : `${current.side === "south" ? "South" : "North"} to move`;
  $("status").setAttribute("data-over", o ? o.result : "");
  const list = $("movelist");
  list.innerHTML = "";
  game.moves.forEach((m, k) => {
    const li = document.createElement("li");
    li.textContent = m + (game.notes[k] ? "  " + game.notes[k] : "");
    if (k + 1 === game.view) li.className = "current";
    li.addEventListener("click", () => { game.view = k + 1; hintCell = null; refresh().catch(showError); });
    list.appendChild(li);
  });
  document.body.setAttribute("data-ready", "1");
  if (engineTurn() && !busy) setTimeout(() => engineMove().catch(showError), 50);
}

function clickCell(i, texts) {
  if (busy || engineTurn()) return;
  const box = $("choices");
  box.innerHTML = "";
  if (texts.length === 1) return play(texts[0]).catch(showError);
  for (const t of texts) {
    const b = document.createElement("button");
    b.textContent = t;
    b.className = "choice";
    b.addEventListener("click", () => { box.innerHTML = ""; play(t).catch(showError); });
    box.appendChild(b);
  }
}

async function play(text) {
  if (busy) return;
  busy = true;
  showError(null);
  $("choices").innerHTML = "";
  try {
    const r = await api("/api/move", request({ move: text }));
    game.moves = game.moves.slice(0, game.view);
    game.moves.push(r.move);
    game.notes = game.notes.slice(0, game.view);
    game.view = game.moves.length;
    game.redo = [];
    hintCell = null;
    const before = current ? current.cells : null;
    lastCell = null;
    for (const s of r.trace) if (s.step === "lift") { lastCell = s.cell; break; }
    if ($("animate").checked && before) await animate(r.before, r.trace);
  } finally {
    busy = false;
  }
  await refresh();
}

// Plays the server's steps seed by seed on the drawn board.
async function animate(cells, trace) {
  draw(cells, []);
  const counts = cells.map((c) => c.seeds);
  const delay = Math.max(8, Math.min(120, 2400 / Math.max(1, trace.length)));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (const s of trace) {
    if (s.step === "lift") { counts[s.cell] -= s.seeds; setCount(s.cell, counts[s.cell]); }
    else if (s.step === "drop") { counts[s.cell] += 1; setCount(s.cell, counts[s.cell]); }
    else if (s.step === "take") {
      counts[s.from] -= s.seeds; counts[s.to] += s.seeds;
      setCount(s.from, counts[s.from]); setCount(s.to, counts[s.to]);
    } else if (s.step === "note") { $("note").textContent = s.text; continue; }
    await sleep(delay);
  }
}

// Streams a search's progress; resolves with its `done` event.
async function search(extra, onInfo) {
  if (searchAbort) searchAbort.abort();
  searchAbort = new AbortController();
  const r = await fetch("/api/search", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request(extra)), signal: searchAbort.signal });
  if (!r.ok) throw new Error((await r.json()).error);
  const reader = r.body.getReader();
  const dec = new TextDecoder();
  let buf = "", done = null;
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    buf += dec.decode(value, { stream: true });
    let k;
    while ((k = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, k); buf = buf.slice(k + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (!data) continue;
      const j = JSON.parse(data);
      if (name === "info") onInfo(j);
      else if (name === "done") done = j;
      else if (name === "error") throw new Error(j.error);
    }
  }
  return done;
}

function limits(extra) {
  const v = Math.max(1, parseInt($("strength").value, 10) || 1000);
  return Object.assign($("limit").value === "depth" ? { depth: Math.min(v, 64), movetime_ms: 30000 } : { movetime_ms: Math.min(v, 30000) }, extra || {});
}

function infoText(lines) {
  return Object.keys(lines).sort().map((k) => {
    const i = lines[k];
    return `${i.multipv}. depth ${i.depth} ${i.score}  ${i.pv.join(" ")}  (${i.nodes} nodes, ${i.ms} ms)`;
  }).join("\n");
}

async function engineMove() {
  if (busy || !engineTurn()) return;
  busy = true;
  const lines = {};
  let d;
  try {
    d = await search(limits(), (i) => { lines[i.multipv] = i; $("search").textContent = infoText(lines); });
  } finally { busy = false; }
  if (d && d.best) await play(d.best);
}

async function hint() {
  if (busy || !current || current.outcome) return;
  const lines = {};
  const d = await search(limits({ multipv: 3 }), (i) => { lines[i.multipv] = i; $("search").textContent = infoText(lines); });
  if (d && d.best) {
    hintCell = d.cell;
    draw(current.cells, current.legal);
    $("search").textContent = `hint: ${d.best} (${d.score}, depth ${d.depth})\n` + infoText(lines);
    $("search").setAttribute("data-hint", d.best);
  }
}

// --- controls ------------------------------------------------------------
function optionsUI() {
  const v = variants.find((x) => x.name === $("variant").value);
  const box = $("options");
  box.innerHTML = "";
  for (const o of v.options) {
    const l = document.createElement("label");
    l.textContent = o.name + " ";
    let input;
    if (o.kind === "spin") {
      input = document.createElement("input");
      input.type = "number"; input.min = o.min; input.max = o.max; input.value = o.default;
    } else {
      input = document.createElement("select");
      for (const val of o.values) { const op = document.createElement("option"); op.textContent = val; input.appendChild(op); }
      input.value = o.default;
    }
    input.dataset.option = o.name;
    l.appendChild(input);
    box.appendChild(l);
  }
}

function newGame() {
  game.variant = $("variant").value;
  game.options = {};
  for (const i of $("options").querySelectorAll("[data-option]")) game.options[i.dataset.option] = String(i.value);
  const t = $("starttoken").value.trim();
  game.start = t || null;
  // A pasted move list is played from the start; the server checks it.
  const pasted = $("startmoves").value.trim();
  game.moves = pasted ? pasted.split(/\s+/) : [];
  game.redo = []; game.view = game.moves.length; game.notes = [];
  hintCell = null; lastCell = null;
  if (searchAbort) searchAbort.abort();
  $("search").textContent = ""; $("note").textContent = "";
  showError(null);
  return refresh().catch((e) => {
    // Not a legal line here: the error says which move; start without it.
    game.moves = []; game.view = 0;
    return refresh().then(() => showError(e));
  });
}

async function init() {
  variants = (await api("/api/variants")).variants;
  for (const v of variants) { const o = document.createElement("option"); o.textContent = v.name; $("variant").appendChild(o); }
  $("variant").addEventListener("change", optionsUI);
  optionsUI();
  $("new").addEventListener("click", () => newGame().catch(showError));
  $("moveform").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = $("movetext").value.trim();
    if (t) play(t).then(() => { $("movetext").value = ""; }).catch(showError);
  });
  $("hint").addEventListener("click", () => hint().catch(showError));
  $("go").addEventListener("click", async () => {
    if (busy || !current || current.outcome) return;
    const d = await search(limits(), (i) => { $("search").textContent = infoText({ 1: i }); }).catch(showError);
    if (d && d.best) play(d.best).catch(showError);
  });
  const signed = (v) => (v > 0 ? "+" : "") + v;
  $("solve").addEventListener("click", async () => {
    if (busy || !current || current.outcome) return;
    $("search").textContent = "solving (at most 10 s)…";
    try {
      const r = await api("/api/solve", request({ solve_ms: 10000 }));
      const who = r.side === "south" ? "South" : "North";
      const db = r.egtb ? `, ${r.tbhits} database hits${r.note ? "; " + r.note : ""}` : "";
      $("search").textContent = r.exact
        ? `exact: ${r.value > 0 ? "+" : ""}${r.value} seeds for ${who} (to move) with best play; best: ${r.best.join(" ")} (${r.nodes} nodes, ${r.ms} ms${db})`
        : `not solved within 10 s: proved between ${signed(r.lower)} and ${signed(r.upper)} seeds for ${who} (to move); estimate ${signed(r.value)} (${r.nodes} nodes${db})`;
      $("search").setAttribute("data-solve", r.exact ? r.best.join(" ") : "");
    } catch (e) { showError(e); }
  });
  $("undo").addEventListener("click", () => {
    if (game.view === 0) return;
    if (searchAbort) searchAbort.abort();
    game.view -= 1; hintCell = null; refresh().catch(showError);
  });
  $("redo").addEventListener("click", () => {
    if (game.view >= game.moves.length) return;
    game.view += 1; hintCell = null; refresh().catch(showError);
  });
  $("flip").addEventListener("click", () => { flipped = !flipped; draw(current.cells, current.outcome ? [] : current.legal); });
  for (const id of ["south", "north"]) $(id).addEventListener("change", () => refresh().catch(showError));
  await newGame();
}

// A recorded game: both players human, so nothing moves by itself; the move
// list, undo and redo step through it.
function showReplays(list) {
  replays = list;
  const sel = $("gamelist");
  sel.innerHTML = `<option value="">(choose one of ${list.length} games)</option>`;
  list.forEach((g, k) => {
    const o = document.createElement("option");
    o.value = k;
    o.textContent = `#${g.id} ${g.variant}: ${g.south} – ${g.north}, ${g.result}`;
    sel.appendChild(o);
  });
}

function openReplay(k) {
  const g = replays[k];
  if (!g) return;
  $("south").value = "human"; $("north").value = "human";
  $("variant").value = g.variant;
  optionsUI();
  for (const i of $("options").querySelectorAll("[data-option]")) {
    if (g.options[i.dataset.option] !== undefined) i.value = g.options[i.dataset.option];
  }
  game.variant = g.variant; game.options = g.options; game.start = g.start || null;
  game.moves = g.moves.map((m) => m.move);
  game.notes = g.moves.map((m) => m.opening ? "(opening)" : [m.score, m.depth !== undefined && m.depth !== null ? "d" + m.depth : ""].filter(Boolean).join(" "));
  game.view = 0; game.redo = [];
  hintCell = null; lastCell = null;
  $("status").textContent = "";
  $("note").textContent = `${g.south} – ${g.north}: ${g.result}, ${g.reason}`;
  refresh().catch(showError);
}

async function initReplay() {
  $("gamelist").addEventListener("change", (e) => openReplay(parseInt(e.target.value, 10)));
  $("gamesfile").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    try {
      showReplays((await api("/api/replay", await f.text())).games);
      if (replays.length) { $("gamelist").value = "0"; openReplay(0); }
    } catch (err) { showError(err); }
  });
  const r = await fetch("/api/replay");
  if (r.ok) showReplays((await r.json()).games);
}

init().then(initReplay).catch(showError);
