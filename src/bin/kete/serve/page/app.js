// The board page. It knows no rule: positions, legal moves, outcomes, the
// board's picture (drawn by kete::draw on the server) and the steps of each
// move come from the server (/api/*). What is here is interaction: clicks,
// keys, the animation of the traced steps, the move list, the evaluation.
"use strict";
const $ = (id) => document.getElementById(id);
const SIDES = ["south", "north"];
const TITLE = { south: "South", north: "North" };

// The game: its settings, every move played (also those past the shown one,
// for redo), who played each, and what is known of each position (by ply).
const game = {
  variant: "kalah", options: {}, start: null,
  moves: [], movers: [], view: 0,
  evals: {},        // ply -> { south, mate, text, exact, depth, nodes, lines }
  details: {},      // ply -> the engine's search output for its move there
  notes: {},        // ply -> what the last turn before it did, in words
  replayNotes: {},  // ply of a move -> a recorded engine's score and depth
  players: { south: "human", north: "engine" },
};
let variants = [];
let eloScale = "";       // what a level's Elo means, in words
let current = null;      // the /api/state answer for the shown ply
let flipped = false;
let portrait = false;
let busy = false;        // a move is being played or animated
let thinking = false;    // the engine is searching for its move
let hintCell = null;     // for the shown ply only
let hintPly = -1;
let hintMove = null;     // the hinted move's text
let selected = null;     // a pit whose several moves are offered
let searchAbort = null;
let searchPly = -1;      // the ply the engine pane speaks of
let epoch = 0;           // bumped whenever the shown position changes
let reviewing = false;   // stepping through the moves (the list, arrow keys)
let playing = null;      // the move being played and animated: { side, text }
let starting = false;    // kete's search is about to start

// --- a question in the page ----------------------------------------------------
// Resolves true for the first button, false for the second (or Escape, or
// another question asked over it).
let answer = null;
function ask(text, yes, no) {
  if (answer) answer(false);
  $("confirmtext").textContent = text;
  $("confirmyes").textContent = yes;
  $("confirmno").textContent = no;
  $("confirm").hidden = false;
  $("confirm").scrollIntoView({ block: "nearest" });
  $("confirmyes").focus();
  return new Promise((res) => {
    answer = (v) => { answer = null; $("confirm").hidden = true; res(v); };
  });
}
function answerQuestion(v) { if (answer) answer(v); }

// A game is in progress: moves played and no result at its end.
function inProgress() {
  return game.moves.length > 0 && !(atEnd() && current && current.outcome);
}

// --- the server ------------------------------------------------------------
async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) { const e = new Error(j.error || r.statusText); e.status = r.status; throw e; }
  return j;
}

function playerNames() {
  const people = SIDES.filter((s) => game.players[s] === "human").length;
  return SIDES.map((s) => game.players[s] === "engine" ? "kete" : (people === 1 ? "you" : ""));
}

function request(extra) {
  const r = {
    variant: game.variant, options: game.options, moves: game.moves.slice(0, game.view),
    flipped, portrait, players: playerNames(),
    people: SIDES.map((s) => game.players[s] === "human" || !live()),
  };
  if (game.start) r.start = game.start;
  if (hintCell !== null && hintPly === game.view) r.hint = hintCell;
  return Object.assign(r, extra || {});
}

function showError(e) { $("error").textContent = e ? String(e.message || e) : ""; }
function fieldError(id, e) { $(id).textContent = e ? String(e.message || e) : ""; }

// --- the board ---------------------------------------------------------------
function cellGroup(i) { return $("board").querySelector(`#cell-${i}`); }

// The board lies down unless a pit would be narrower than a finger's tap;
// then it stands up (rows as columns).
function wantPortrait(cells) {
  const pits = cells.filter((c) => c.kind === "pit");
  const cols = Math.max(...pits.map((c) => c.col + 1));
  const units = 20 + 176 + cols * 100;
  const width = $("board").clientWidth || window.innerWidth;
  return (width / units) * 100 < 64;
}

function draw() {
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#board g.cell");
  const focusId = focused ? focused.id : null;
  $("board").innerHTML = current.svg;
  const svg = $("board").querySelector("svg");
  svg.removeAttribute("width"); svg.removeAttribute("height");
  svg.setAttribute("aria-label", statusWords());
  const byCell = {};
  for (const mv of current.legal) (byCell[mv.cell] = byCell[mv.cell] || []).push(mv);
  for (const g of svg.querySelectorAll("g.cell.legal")) {
    const i = parseInt(g.dataset.cell, 10);
    g.addEventListener("click", () => clickCell(i, byCell[i] || []));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickCell(i, byCell[i] || []); }
    });
  }
  for (const g of svg.querySelectorAll("g.cell:not(.legal)")) {
    // A pit an arrow points at plays that arrow's moves.
    g.addEventListener("click", () => { if (selected !== null) clickTarget(parseInt(g.dataset.cell, 10)); });
  }
  for (const a of svg.querySelectorAll("g.arrow")) {
    const moves = a.dataset.moves.split(" ");
    a.addEventListener("click", (e) => { e.stopPropagation(); chooseDirection(moves, a); });
    a.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); chooseDirection(moves, a); }
      if (e.key === "Escape") cancelChoice();
    });
  }
  const info = variantInfo(game.variant);
  $("legend-ended").textContent = `last ${(info && info.words && info.words.seed) || "seed"}`;
  // The legend names the game's own marks that are on the board.
  for (const mark of ["tuzdyk", "nyumba", "kimbi"]) {
    $(`key-${mark}`).hidden = !current.cells.some((c) => c.marks.includes(mark));
  }
  if (focusId && $("board").querySelector(`#${focusId}.legal`)) $("board").querySelector(`#${focusId}`).focus();
  else if (focusId) { const first = $("board").querySelector("g.cell.legal"); if (first) first.focus(); }
}

// --- turns, status, banner ---------------------------------------------------
function isEngine(side) { return game.players[side] === "engine"; }
function atEnd() { return game.view === game.moves.length; }
// Live: the shown position is where the game goes on from (after an undo
// too); reviewing, the moves past it are only being looked at.
function live() { return atEnd() || !reviewing; }
function engineTurn() { return current && !current.outcome && isEngine(current.side) && live(); }

// Where the shown position is, counted as the move list's rows count.
function whereWords(view) {
  const turns = rows();
  const total = turns.length ? turns[turns.length - 1].number : 0;
  if (view === 0) return `the start, before move 1 of ${total}`;
  const t = turns.find((x) => x.plies.includes(view - 1));
  return `move ${t.number} of ${total} (after ${TITLE[t.side]}'s ${game.moves[view - 1]})`;
}

function statusWords() {
  if (!current) return "";
  if (busy && playing) {
    const who = isEngine(playing.side) ? "kete plays" : SIDES.filter((x) => !isEngine(x)).length === 1 ? "You play" : `${TITLE[playing.side]} plays`;
    return `${who} ${playing.text}\u2026 (${TITLE[playing.side]})`;
  }
  if (current.outcome) return "Game over";
  const side = TITLE[current.side];
  if (!live()) return `Looking back: ${whereWords(game.view)}; ${side} to move. A move played here replaces the later moves; End or the last move returns.`;
  if (isEngine(current.side)) return thinking || starting ? `kete is thinking… (${side})` : `kete to move (${side})`;
  const people = SIDES.filter((s) => !isEngine(s)).length;
  if (people !== 1) return `${side} to move`;
  // What kete just did, where the eye is (on a phone the note is below the
  // board).
  const lt = current.last_turn;
  const reply = lt && lt.moves.length && isEngine(lt.side) ? ` \u2014 kete played ${lt.moves.join(" ")}` : "";
  return `Your move (${side})${reply}`;
}

function showStatus() {
  const st = $("status");
  let state = "you";
  if (!current) state = "";
  else if (busy && playing) state = "moving";
  else if (current.outcome) state = "over";
  else if (!live()) state = "history";
  else if (isEngine(current.side)) state = thinking || starting ? "thinking" : "waiting";
  st.dataset.state = state;
  st.dataset.over = current && current.outcome ? current.outcome.result : "";
  $("statustext").textContent = statusWords();
  $("spinner").className = state === "thinking" ? "on" : "";
  const over = !!(current && current.outcome);
  $("banner").hidden = !over;
  if (over) $("bannertext").textContent = current.outcome.words;
  // No input once the game is over; a move typed on kete's turn is refused
  // with a word (the submit handler).
  $("movetext").disabled = !current || over;
  $("moveform").querySelector("button").disabled = !current || over;
  $("hint").disabled = !current || over || busy || thinking;
  $("go").disabled = !current || over || busy || thinking;
  $("solve").disabled = !current || over || busy;
  $("undo").disabled = game.view === 0;
  $("redo").disabled = atEnd();
  document.body.dataset.turn = state;
}

// --- the shown position ------------------------------------------------------
async function refresh() {
  const mine = ++epoch;
  const want = current ? wantPortrait(current.cells) : portrait;
  if (want !== portrait) portrait = want;
  let s = await api("/api/state", request());
  if (mine !== epoch) return;
  if (wantPortrait(s.cells) !== portrait) {
    portrait = !portrait;
    s = await api("/api/state", request());
    if (mine !== epoch) return;
  }
  current = s;
  // What the server says of the moves it replayed (who played each).
  current.movers.forEach((m, k) => { game.movers[k] = m; });
  selected = null;
  $("prompt").hidden = true;
  draw();
  $("token").value = current.token;
  $("movesline").value = game.moves.slice(0, game.view).join(" ");
  // Notes belong to the position shown: what its last turn did.
  const lt = current.last_turn;
  // A turn of several sowings is told sowing by sowing, then who is next.
  const each = (lt.each || []).map((x) => x.notes.length ? `${x.move} (${x.notes.join("; ")})` : x.move);
  let note = lt.moves.length ? `${TITLE[lt.side]} played ${each.join(", then ")}.` : "";
  game.notes[game.view] = note;
  // After kete's reply, the person's turn before it is still told.
  const start = game.view - lt.moves.length;
  if (lt.moves.length && isEngine(lt.side) && start > 0 && !isEngine(game.movers[start - 1]) && game.notes[start]) {
    note = game.notes[start] + "\n" + note;
  }
  $("note").textContent = note + (note && !current.outcome ? ` ${TITLE[current.side]} to move.` : "");
  if (searchPly !== game.view && !thinking) {
    $("search").textContent = lastSearch(); $("search").removeAttribute("data-hint");
  }
  showStatus();
  moveList();
  showEval();
  save();
  document.body.setAttribute("data-ready", "1");
  if (engineTurn() && !busy && !thinking) {
    // kete starts at once: said so now, not "kete to move" for a moment.
    starting = true;
    showStatus();
    setTimeout(() => { starting = false; engineMove().catch(engineFailed); }, 30);
  }
}

// At the end of the game, after kete's turn: the searches that chose its
// moves, so the engine pane is not empty after kete played.
function lastSearch() {
  if (!atEnd() || game.view === 0 || !isEngine(game.movers[game.view - 1])) return "";
  const side = game.movers[game.view - 1];
  let k = game.view;
  while (k > 0 && game.movers[k - 1] === side) k--;
  const out = [];
  for (let j = k; j < game.view; j++) {
    if (game.details[j]) out.push(`kete's search for its move ${game.moves[j]}${game.evals[j] ? " (" + evalWords(game.evals[j]) + ")" : ""}:\n${game.details[j]}`);
  }
  return out.join("\n");
}

// --- clicks and keys on the board --------------------------------------------
function clickCell(i, moves) {
  if (busy || thinking || !current || current.outcome) return;
  // While a pit's ways are offered, the pit an arrow points at plays that
  // way; the chosen pit again takes the offer back.
  if (selected !== null) {
    if (i === selected) return cancelChoice();
    if ($("board").querySelector(`g.arrow.shown[data-to="${i}"]`)) return clickTarget(i);
  }
  if (isEngine(current.side) && live()) return refuse("It is kete's move; wait for it.");
  if (moves.length === 1) return personPlay(moves[0].text).catch(showError);
  // Several moves from this pit: its arrows and a prompt.
  cancelChoice();
  selected = i;
  const svg = $("board").querySelector("svg");
  svg.classList.add("choosing");
  cellGroup(i).classList.add("selected");
  const arrows = [...svg.querySelectorAll(`g.arrow[data-from="${i}"]`)];
  for (const a of arrows) {
    a.classList.add("shown");
    const t = cellGroup(parseInt(a.dataset.to, 10));
    if (t) t.classList.add("target");
  }
  const name = cellGroup(i).dataset.name;
  const click = window.matchMedia && window.matchMedia("(pointer: coarse)").matches ? "Tap" : "Click";
  // A capture's seeds are sown on from a kichwa: the way is the capture's.
  const taken = moves.map((m) => m.captures).find((n) => n);
  $("prompttext").textContent = (taken
    ? `${name} captures ${taken} seed${taken === 1 ? "" : "s"}: sow them from which kichwa?`
    : `${name}: which way?`) + ` ${click} an arrow, or the pit it points at.`;
  const box = $("choices");
  box.innerHTML = "";
  const hinted = hintCell === i && hintPly === game.view ? hintMove : null;
  for (const a of arrows) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice";
    const to = cellGroup(parseInt(a.dataset.to, 10)).dataset.name;
    // The move's notation, as the move list and the hint write it.
    b.textContent = `${a.dataset.moves.split(" ").join(" / ")} \u2014 toward ${to}`;
    if (hinted && a.dataset.moves.split(" ").includes(hinted)) {
      b.classList.add("hinted");
      b.textContent += " \u2605 hint";
    }
    b.dataset.moves = a.dataset.moves;
    b.addEventListener("click", () => chooseDirection(a.dataset.moves.split(" "), a));
    box.appendChild(b);
  }
  $("prompt").hidden = false;
  // On a phone the question is below the board: brought into sight.
  $("prompt").scrollIntoView({ block: "nearest" });
  if (arrows.length) arrows[0].focus({ preventScroll: true });
}

function clickTarget(cell) {
  const a = $("board").querySelector(`g.arrow.shown[data-to="${cell}"]`);
  if (a) chooseDirection(a.dataset.moves.split(" "), a);
}

function cancelChoice() {
  selected = null;
  $("prompt").hidden = true;
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.classList.remove("choosing");
  for (const e of svg.querySelectorAll(".shown, .target, .selected")) e.classList.remove("shown", "target", "selected");
}

// A direction chosen; Bao's capture ending in the nyumba may still stop
// there or go on (safari).
function chooseDirection(moves, arrow) {
  if (moves.length === 1) { cancelChoice(); return personPlay(moves[0]).catch(showError); }
  const stop = moves.find((m) => !m.endsWith("+")) || moves[0];
  const safari = moves.find((m) => m.endsWith("+")) || moves[1];
  for (const a of $("board").querySelectorAll("g.arrow.shown")) if (a !== arrow) a.classList.remove("shown");
  for (const t of $("board").querySelectorAll("g.cell.target")) if (t.id !== `cell-${arrow.dataset.to}`) t.classList.remove("target");
  $("prompttext").textContent = "The capture ends in your nyumba: stop there, or go on and sow it (safari)?";
  const box = $("choices");
  box.innerHTML = "";
  const hinted = hintPly === game.view ? hintMove : null;
  for (const [m, words] of [[stop, "Stop in the nyumba"], [safari, "Go on: safari"]]) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "choice"; b.dataset.moves = m;
    b.textContent = `${words} (${m})` + (m === hinted ? " \u2605 hint" : "");
    if (m === hinted) b.classList.add("hinted");
    b.addEventListener("click", () => { cancelChoice(); personPlay(m).catch(showError); });
    box.appendChild(b);
  }
  box.querySelector("button").focus();
}

function refuse(text) {
  fieldError("moveerror", text);
  $("moveerror").classList.remove("flash"); void $("moveerror").offsetWidth; $("moveerror").classList.add("flash");
}

// A typed turn: one move, or several in a row as the move list writes a
// turn ("C F", Kalah's another turn), played one by one; a refusal stops
// there and says which.
async function typedTurn(moves) {
  for (let k = 0; k < moves.length; k++) {
    if (k > 0 && (!current || current.outcome || isEngine(current.side))) {
      throw new Error(`'${moves[k]}': the turn is over after ${moves.slice(0, k).join(" ")}`);
    }
    let r;
    try { r = await (k === 0 ? personPlay(moves[k], { typed: true }) : play(moves[k], { typed: true })); } catch (e) {
      throw k === 0 ? e : new Error(`${moves.slice(0, k).join(" ")} played; ${e.message}`);
    }
    if (!r) return;
  }
  $("movetext").value = "";
}

// --- playing -------------------------------------------------------------------
// A person's move: while looking back, it replaces the later moves, and the
// page asks first.
async function personPlay(text, opts) {
  if (!live() && !atEnd()) {
    const later = game.moves.length - game.view;
    const ok = await ask(`Play ${text} here? This replaces the ${later} later move${later === 1 ? "" : "s"} (${game.moves.slice(game.view).join(" ")}).`,
      `Play ${text}, drop the later moves`, "Cancel");
    if (!ok) return null;
  }
  return play(text, opts);
}

async function play(text, opts) {
  if (busy) return;
  busy = true;
  playing = { side: current.side, text };
  showError(null); fieldError("moveerror", null);
  $("prompt").hidden = true;
  // The move is under way from the click on, until its sowing ends.
  showStatus();
  let r;
  try {
    r = await api("/api/move", request(Object.assign({ move: text }, opts || {})));
    const ply = game.view;
    reviewing = false;
    game.moves = game.moves.slice(0, ply);
    game.movers = game.movers.slice(0, ply);
    for (const k of Object.keys(game.evals)) if (+k > ply) delete game.evals[k];
    for (const k of Object.keys(game.details)) if (+k > ply) delete game.details[k];
    for (const k of Object.keys(game.notes)) if (+k > ply) delete game.notes[k];
    game.moves.push(r.move);
    game.movers.push(current.side);
    game.view = game.moves.length;
    hintCell = null;
    if ($("animate").checked) await animate(r.trace);
  } catch (e) {
    busy = false;
    playing = null;
    // A refused move leaves the position as it was: the buttons with it.
    showStatus();
    throw e;
  }
  busy = false;
  playing = null;
  await refresh();
  return r;
}

// The traced steps on the drawn board: seeds are lifted into a hand that
// travels from pit to pit, dropping one at a time; captured seeds fly to
// their store.
async function animate(trace) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  cancelChoice();
  svg.classList.add("moving");
  const NS = "http://www.w3.org/2000/svg";
  const steps = trace.filter((s) => s.step !== "note").length;
  const delay = Math.max(25, Math.min(140, 2600 / Math.max(1, steps)));
  const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
  const box = (i) => {
    const g = cellGroup(i);
    return { x: +g.dataset.px, y: +g.dataset.py, w: +g.dataset.pw, h: +g.dataset.ph, g };
  };
  const centre = (i) => { const b = box(i); return [b.x + b.w / 2, b.y + b.h / 2]; };
  const setCount = (i, n) => {
    const g = cellGroup(i);
    g.dataset.seeds = n;
    const t = g.querySelector("text.count");
    if (t) t.textContent = n;
  };
  let salt = 7;
  const addPebble = (i) => {
    const b = box(i);
    const layer = b.g.querySelector("g.pebbles");
    if (!layer || layer.childElementCount >= 40) return;
    salt = (salt * 9301 + 49297) % 233280;
    const u = salt / 233280; salt = (salt * 9301 + 49297) % 233280;
    const v = salt / 233280;
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("class", "seed");
    c.setAttribute("cx", (b.x + 7 + u * Math.max(1, b.w - 14)).toFixed(1));
    c.setAttribute("cy", (b.y + 7 + v * Math.max(1, b.h - 14)).toFixed(1));
    c.setAttribute("r", "6.5"); c.setAttribute("fill", "#f3e9d2");
    c.setAttribute("stroke", "#4a3420"); c.setAttribute("stroke-width", "1.2");
    layer.appendChild(c);
  };
  const removePebbles = (i, n) => {
    const layer = cellGroup(i).querySelector("g.pebbles");
    for (let k = 0; k < n && layer && layer.lastElementChild; k++) layer.lastElementChild.remove();
  };
  const counts = current.cells.map((c) => c.seeds);
  const hand = document.createElementNS(NS, "g");
  hand.setAttribute("id", "hand");
  svg.appendChild(hand);
  let inHand = 0;
  const showHand = (x, y) => {
    hand.setAttribute("transform", `translate(${x} ${y})`);
    hand.innerHTML = "";
    for (let k = 0; k < Math.min(inHand, 9); k++) {
      const a = k * 2.4, r = 4 * Math.sqrt(k);
      hand.insertAdjacentHTML("beforeend", `<circle class="seed" cx="${(r * Math.cos(a)).toFixed(1)}" cy="${(r * Math.sin(a) - 30).toFixed(1)}" r="6.5" fill="#f3e9d2" stroke="#4a3420" stroke-width="1.2"/>`);
    }
    if (inHand > 0) hand.insertAdjacentHTML("beforeend", `<text x="16" y="-44" font-size="18" font-weight="700" fill="#fffaf0" stroke="#3f2610" stroke-width="0.6">${inHand}</text>`);
  };
  for (const s of trace) {
    if (!svg.isConnected) return;
    if (s.step === "note") { $("note").textContent = playing ? `${TITLE[playing.side]} plays ${playing.text}: ${s.text}` : s.text; continue; }
    if (s.step === "lift") {
      counts[s.cell] -= s.seeds; inHand += s.seeds;
      removePebbles(s.cell, s.seeds); setCount(s.cell, counts[s.cell]);
      showHand(...centre(s.cell));
    } else if (s.step === "drop") {
      inHand -= 1; counts[s.cell] += 1;
      showHand(...centre(s.cell));
      addPebble(s.cell); setCount(s.cell, counts[s.cell]);
      cellGroup(s.cell).classList.add("sown");
    } else if (s.step === "take") {
      counts[s.from] -= s.seeds; counts[s.to] += s.seeds;
      inHand += s.seeds; removePebbles(s.from, s.seeds); setCount(s.from, counts[s.from]);
      showHand(...centre(s.from));
      await sleep(delay);
      showHand(...centre(s.to));
      inHand -= s.seeds;
      for (let k = 0; k < Math.min(s.seeds, 12); k++) addPebble(s.to);
      setCount(s.to, counts[s.to]);
    }
    await sleep(delay);
  }
  hand.remove();
}

// --- the engine ------------------------------------------------------------------
// Streams a search's progress; resolves with its `done` event. A busy server
// (503) is tried again after the time it asks for.
async function search(extra, onInfo) {
  if (searchAbort) searchAbort.abort();
  searchAbort = new AbortController();
  const signal = searchAbort.signal;
  let r;
  for (;;) {
    r = await fetch("/api/search", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request(extra)), signal });
    if (r.status !== 503) break;
    const wait = 1000 * (parseInt(r.headers.get("Retry-After"), 10) || 2);
    $("search").textContent = `kete is busy with other games; trying again in ${wait / 1000} s`;
    await new Promise((res) => setTimeout(res, wait));
  }
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

// What kete searches with: at full strength (and for hints) the time or
// depth of "kete thinks"; a level below full takes the time per move to
// answer (a second in depth mode: its depth is its own).
function limits(extra) {
  const v = parseInt($("strength").value, 10);
  const depthMode = $("limit").value === "depth";
  return Object.assign(depthMode ? { depth: v, movetime_ms: 30000 } : { movetime_ms: v }, extra || {});
}
function moveLimits() {
  const level = $("level").value;
  if (!level || level === "full") return limits();
  const v = parseInt($("strength").value, 10);
  return { level, movetime_ms: $("limit").value === "depth" ? 1000 : v };
}

// "kete thinks": each mode keeps its own value and range, so switching
// back and forth never shows a value of one mode in the other.
const THINK = {
  time: { min: 1, max: 30000, value: "1000" },
  depth: { min: 1, max: 64, value: "12" },
};
let thinkMode = "time";
function switchThinking() {
  const mode = $("limit").value;
  if (mode === thinkMode) return;
  if (checkStrength(thinkMode)) THINK[thinkMode].value = $("strength").value;
  thinkMode = mode;
  $("strength").min = THINK[mode].min;
  $("strength").max = THINK[mode].max;
  $("strength").value = THINK[mode].value;
  checkStrength();
}

// The level menu of the variant on the board: its levels, with the Elo
// measured in that variant where it was. It was measured at the game's own
// rules: with another rule in the fields no Elo is shown.
function levelsUI(variant) {
  const v = variantInfo(variant);
  const select = $("level"), keep = select.value || "full";
  const ownRules = ((v && v.options) || []).every((o) => {
    const i = $("opt-" + o.name);
    return !i || String(i.value) === String(o.default);
  });
  select.innerHTML = "";
  for (const l of (v && v.levels) || []) {
    const o = document.createElement("option");
    o.value = l.name;
    o.textContent = l.elo && ownRules ? `${l.title} (Elo ${l.elo})` : l.title;
    select.appendChild(o);
  }
  select.value = [...select.options].some((o) => o.value === keep) ? keep : "full";
  levelHelp();
}
// The level chosen in words: who it suits, and what its Elo means.
function levelHelp() {
  const v = variantInfo($("variant").value);
  const l = ((v && v.levels) || []).find((x) => x.name === $("level").value);
  const shown = $("level").selectedOptions[0];
  const parts = [];
  if (l && l.name !== "full") parts.push(`For ${l.words}; hints stay at full strength.`);
  if (shown && shown.textContent.includes("Elo")) parts.push(`Elo on ${eloScale}.`);
  $("levelhelp").textContent = parts.join(" ");
}

function detailsText(lines) {
  return Object.keys(lines).sort().map((k) => {
    const i = lines[k];
    const ev = i.eval ? i.eval.text : i.score;
    return `${i.multipv}. ${ev}: ${(i.pv || []).join(" ")}\n   depth ${i.depth}, ${(i.nodes || 0).toLocaleString("en")} nodes, ${i.ms} ms`;
  }).join("\n");
}

function remember(ply, d, lines) {
  if (!d || !d.eval) return;
  const prev = game.evals[ply];
  if (prev && prev.exact) return;
  game.evals[ply] = { south: d.eval.south, mate: d.eval.mate, text: d.eval.text, depth: d.depth, exact: false };
  if (lines) game.evals[ply].lines = lines;
}

function engineFailed(e) {
  thinking = false;
  if (e && e.name === "AbortError") { showStatus(); return; }
  showError(e);
  showStatus();
}

async function engineMove() {
  if (busy || thinking || !engineTurn()) return;
  thinking = true;
  showStatus();
  const ply = game.view, mine = epoch;
  searchPly = ply;
  const lines = {};
  let d;
  try {
    d = await search(moveLimits(), (i) => { lines[i.multipv] = i; if (searchPly === ply) $("search").textContent = detailsText(lines); });
  } finally { thinking = false; }
  if (mine !== epoch || game.view !== ply) { showStatus(); return; }
  // A level's score is its own shallow look, not an estimate to show.
  if (!moveLimits().level) remember(ply, d);
  if (d && d.best) game.details[ply] = detailsText(lines);
  if (d && d.best) await play(d.best);
  else showStatus();
}

async function hint() {
  if (busy || thinking || !current || current.outcome) return;
  const ply = game.view, mine = epoch;
  searchPly = ply;
  const lines = {};
  $("search").textContent = "thinking…";
  $("hint").disabled = true;
  const d = await search(limits({ multipv: 3 }), (i) => { lines[i.multipv] = i; if (searchPly === ply) $("search").textContent = detailsText(lines); });
  if (mine !== epoch || game.view !== ply || !d || !d.best) return;
  remember(ply, d);
  hintCell = d.cell; hintPly = ply; hintMove = d.best;
  await refresh();
  $("search").textContent = `hint: ${d.best} (${d.eval ? d.eval.text : d.score}, depth ${d.depth})\n` + detailsText(lines);
  $("search").setAttribute("data-hint", d.best);
  $("evaltext").textContent = `Hint ${d.best}: ${game.evals[ply] ? evalWords(game.evals[ply]) : d.score}`;
}

async function solve() {
  if (busy || !current || current.outcome) return;
  const ply = game.view, mine = epoch;
  searchPly = ply;
  $("search").textContent = "solving (at most 10 s)…";
  $("details").open = true;
  const r = await api("/api/solve", request({ solve_ms: 10000 }));
  if (mine !== epoch) return;
  const db = r.egtb ? `, ${r.tbhits} database hits${r.note ? "; " + r.note : ""}` : "";
  if (r.exact) {
    game.evals[ply] = { south: 100 * r.south, mate: null, text: seedsFor(r.south), exact: true };
    $("search").textContent = `proven: ${seedsFor(r.south)}, ${r.words}; best: ${r.best.join(" ")} (${r.nodes} nodes, ${r.ms} ms${db})`;
  } else {
    $("search").textContent = `${r.words}; estimate ${seedsFor(r.south)}, not proven (${r.nodes} nodes${db})`;
  }
  $("search").setAttribute("data-solve", r.exact ? r.best.join(" ") : "");
  showEval();
  if (!r.exact && game.view === ply) $("evaltext").textContent = `Solve: ${r.words}; estimate ${seedsFor(r.south)}, not proven`;
}

// --- the evaluation ------------------------------------------------------------
function southSeeds(e) {
  if (e.mate !== null && e.mate !== undefined) return e.mate > 0 ? 48 : -48;
  return e.south / 100;
}

function showEval() {
  // The shown position's evaluation, or the last one before it.
  let at = game.view;
  while (at >= 0 && !game.evals[at]) at--;
  const e = at >= 0 ? game.evals[at] : null;
  const fill = $("evalfill");
  const o = current && current.outcome;
  if (o) {
    fill.style.width = o.winner === "south" ? "100%" : o.winner === "north" ? "0%" : "50%";
    $("evaltext").textContent = o.words;
    $("evalbox").dataset.eval = o.words;
  } else if (e) {
    const v = southSeeds(e);
    const share = 1 / (1 + Math.exp(-v / 6));
    fill.style.width = (100 * share).toFixed(1) + "%";
    $("evaltext").textContent = evalWords(e) + (at < game.view ? ` \u2014 as of ${asOf(at)}` : "");
    $("evalbox").dataset.eval = e.text;
  } else {
    fill.style.width = "50%";
    $("evaltext").textContent = "No evaluation yet (Hint or Solve gives one)";
    $("evalbox").dataset.eval = "";
  }
  graph();
}

// An evaluation in words, saying whether it is proven or kete's estimate.
function evalWords(e) {
  return e.text + (e.exact ? " (proven)" : ` (kete's estimate${e.depth ? ", depth " + e.depth : ""})`);
}

// The move an evaluation of the position before move `ply` belongs to,
// numbered as the move list's rows are.
function asOf(ply) {
  if (ply >= game.moves.length) return whereWords(ply);
  const t = rows().find((x) => x.plies.includes(ply));
  return `${TITLE[t.side]}'s move ${t.number} (${game.moves[ply]})`;
}

// The evaluation over the game, in seeds for South: a line through the
// engine's evaluations, squares where the solver's value is exact.
function graph() {
  const g = $("graph");
  const n = Math.max(game.moves.length, 1);
  const pts = Object.keys(game.evals).map(Number).filter((k) => k <= game.moves.length).sort((a, b) => a - b);
  const vals = pts.map((k) => southSeeds(game.evals[k]));
  const R = Math.max(5, Math.min(48, Math.ceil(Math.max(0, ...vals.map(Math.abs)))));
  const X = (k) => 62 + (230 * k) / n, Y = (v) => 35 - (30 * Math.max(-R, Math.min(R, v))) / R;
  let s = `<rect x="0" y="0" width="300" height="70" fill="#fffaf0"/>`;
  s += `<line x1="62" y1="35" x2="294" y2="35" stroke="#999" stroke-dasharray="3 3"/>`;
  s += `<text x="2" y="10" font-size="9" fill="#555">South +${R}</text><text x="2" y="38" font-size="9" fill="#555">even</text><text x="2" y="67" font-size="9" fill="#555">North +${R}</text>`;
  s += `<line class="cursor" x1="${X(game.view)}" y1="2" x2="${X(game.view)}" y2="68" stroke="#b5651d" stroke-width="1.5"><title>the position shown (${game.view ? whereWords(game.view) : "the start"})</title></line>`;
  if (pts.length) {
    s += `<polyline fill="none" stroke="#1b5fa8" stroke-width="2" points="${pts.map((k, j) => `${X(k).toFixed(1)},${Y(vals[j]).toFixed(1)}`).join(" ")}"/>`;
    pts.forEach((k, j) => {
      const e = game.evals[k];
      s += e.exact
        ? `<rect class="exact" x="${(X(k) - 3.5).toFixed(1)}" y="${(Y(vals[j]) - 3.5).toFixed(1)}" width="7" height="7" fill="#b5651d"><title>ply ${k}: ${e.text}</title></rect>`
        : `<circle class="point" cx="${X(k).toFixed(1)}" cy="${Y(vals[j]).toFixed(1)}" r="2.8" fill="#1b5fa8"><title>ply ${k}: ${e.text}</title></circle>`;
    });
  }
  g.innerHTML = s;
  g.dataset.points = pts.length;
}

// --- the move list by turns ------------------------------------------------------
// An evaluation in the move list: short, but saying for whom, as the
// headline does ("N +16" is "+16 seeds for North").
function shortEval(e) {
  if (!e) return "";
  if (e.mate !== null && e.mate !== undefined) return `${e.mate > 0 ? "S" : "N"} wins in ${Math.abs(e.mate)}`;
  const v = e.south / 100, a = Math.abs(v);
  if (a < 0.05) return "even";
  const n = a >= 10 || Math.abs(a - Math.round(a)) < 0.05 ? String(Math.round(a)) : a.toFixed(1);
  return `${v > 0 ? "S" : "N"} +${n}` + (e.exact ? " proven" : "");
}

// Seeds from South's view in the game's words (kumalaks in Togyz
// Kumalak), as the server words an evaluation.
function seedsFor(v) {
  const a = Math.abs(v);
  if (a < 0.05) return "even";
  const n = a >= 10 || Math.abs(a - Math.round(a)) < 0.05 ? String(Math.round(a)) : a.toFixed(1);
  const info = variantInfo(game.variant);
  const w = (info && info.words) || { seed: "seed", seeds: "seeds" };
  return `+${n} ${n === "1" ? w.seed : w.seeds} for ${v > 0 ? "South" : "North"}`;
}

// The moves by turns (a side's moves in a row, Kalah's another turn, go
// together), each with the number of its row in the move list: a row is a
// South turn and the North turn after it.
function rows() {
  const turns = [];
  game.moves.forEach((m, k) => {
    const side = game.movers[k] || (turns.length ? turns[turns.length - 1].side : "south");
    const last = turns[turns.length - 1];
    if (last && last.side === side) last.plies.push(k);
    else turns.push({ side, plies: [k] });
  });
  let number = 0, filled = null;
  for (const t of turns) {
    if (!filled || t.side === "south" || filled.has(t.side)) { number += 1; filled = new Set(); }
    filled.add(t.side);
    t.number = number;
  }
  return turns;
}

function moveList() {
  const body = $("movelist").querySelector("tbody");
  // The keys go on stepping where they were: the focus stays in the list.
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#movelist");
  body.innerHTML = "";
  let row = null, number = 0;
  for (const t of rows()) {
    if (t.number !== number) {
      number = t.number;
      row = document.createElement("tr");
      row.innerHTML = `<th scope="row">${number}</th><td class="south"></td><td class="north"></td>`;
      body.appendChild(row);
    }
    const td = row.querySelector(`td.${t.side}`);
    for (const k of t.plies) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "mv" + (k + 1 === game.view ? " current" : "") + (k >= game.view ? " ahead" : "");
      b.dataset.ply = k + 1;
      b.textContent = game.moves[k];
      b.addEventListener("click", () => goTo(k + 1));
      td.appendChild(b);
    }
    // The engine's (or a recorded engine's) evaluation of its turn: its
    // last search in the turn, the one the headline shows after it.
    const k0 = t.plies[0];
    const ke = [...t.plies].reverse().find((k) => game.evals[k]);
    const e = ke === undefined ? null : game.evals[ke];
    const note = game.replayNotes[k0];
    if ((e && isEngine(t.side)) || note) {
      const span = document.createElement("span");
      span.className = "ev";
      span.textContent = note || shortEval(e);
      if (e) span.title = e.text + (e.exact ? " (proven)" : " (kete's estimate)");
      td.appendChild(span);
    }
  }
  // The end of the game, in words, under its last move: who won and how
  // the final count came about.
  if (current && current.outcome && atEnd()) {
    const end = document.createElement("tr");
    end.className = "end";
    const td = document.createElement("td");
    td.colSpan = 3;
    td.textContent = current.outcome.words;
    end.appendChild(td);
    body.appendChild(end);
  }
  // The current move in sight, inside the list (the page stays put).
  const cur = body.querySelector("button.current");
  if (focused) (cur || body.querySelector("button.mv") || $("movelist")).focus({ preventScroll: true });
  const list = $("movelist");
  if (cur) {
    // Measured on the screen: a button's offsetTop is its table cell's.
    const top = cur.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
    if (top < list.scrollTop + 30 || top > list.scrollTop + list.clientHeight - 30) list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

function goTo(ply, review) {
  ply = Math.max(0, Math.min(game.moves.length, ply));
  reviewing = review !== false && ply < game.moves.length;
  if (ply === game.view) { showStatus(); return; }
  if (searchAbort) searchAbort.abort();
  thinking = false;
  game.view = ply;
  hintCell = null;
  refresh().catch(showError);
}

// Back to the start of the last turn a person played (against kete, its
// reply goes too); forward to where a person moves next.
function undo() {
  if (game.view === 0) return;
  let k = game.view;
  const person = (s) => !isEngine(s);
  const people = SIDES.filter(person).length;
  if (people === 0) return goTo(k - 1, false);
  // Skip back over the engine's moves, then over the person's turn.
  while (k > 0 && !person(game.movers[k - 1])) k--;
  const side = game.movers[k - 1];
  while (k > 0 && game.movers[k - 1] === side) k--;
  goTo(k, false);
}

function redo() {
  if (atEnd()) return;
  let k = game.view;
  const side = game.movers[k];
  while (k < game.moves.length && game.movers[k] === side) k++;
  while (k < game.moves.length && isEngine(game.movers[k])) k++;
  goTo(k, false);
}

// --- settings ---------------------------------------------------------------------
function variantInfo(name) { return variants.find((x) => x.name === name); }

function optionsUI() {
  const v = variantInfo($("variant").value);
  const box = $("options"), adv = $("advancedoptions");
  box.innerHTML = ""; adv.innerHTML = "";
  for (const o of v.options) {
    const field = document.createElement("div");
    field.className = "field";
    const id = "opt-" + o.name;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = o.label;
    let input;
    if (o.kind === "spin") {
      input = document.createElement("input");
      input.type = "number"; input.min = o.min; input.max = o.max; input.value = o.default;
      input.required = true; input.step = 1;
    } else {
      input = document.createElement("select");
      o.values.forEach((val, k) => {
        const op = document.createElement("option");
        op.value = val; op.textContent = o.labels[k] === val ? val : `${o.labels[k]}`;
        input.appendChild(op);
      });
      input.value = o.default;
    }
    input.id = id;
    input.dataset.option = o.name;
    input.setAttribute("aria-describedby", id + "-help " + id + "-error");
    const help = document.createElement("span");
    help.className = "help"; help.id = id + "-help"; help.textContent = o.help;
    const err = document.createElement("span");
    err.className = "fielderror"; err.id = id + "-error"; err.setAttribute("role", "alert");
    input.addEventListener("change", () => applyOptions(input));
    field.append(label, input, help, err);
    (o.advanced ? adv : box).appendChild(field);
  }
  $("advanced").hidden = !v.options.some((o) => o.advanced);
  $("gamehelp").textContent = v.title;
  levelsUI(v.name);
}

// The options as the fields give them, or the first field at fault.
// Every field at fault says so at once.
function readOptions() {
  const v = variantInfo($("variant").value);
  const out = {};
  let first = null;
  for (const o of v.options) {
    const input = $("opt-" + o.name);
    fieldError(input.id + "-error", null);
    input.removeAttribute("aria-invalid");
    if (o.kind === "spin") {
      const n = input.value === "" ? NaN : Number(input.value);
      if (!Number.isInteger(n) || n < o.min || n > o.max) {
        const message = `${o.label}: a whole number from ${o.min} to ${o.max}`;
        fieldError(input.id + "-error", message);
        input.setAttribute("aria-invalid", "true");
        if (!first) first = { error: input, message };
      }
    }
    out[o.name] = String(input.value);
  }
  return first || { options: out };
}

function applyOptions(input) {
  const r = readOptions();
  if (r.error) { fieldError(r.error.id + "-error", r.message); r.error.setAttribute("aria-invalid", "true"); return; }
  if (input) input.removeAttribute("aria-invalid");
  levelsUI($("variant").value);
  // A field put back to the game's own value (a typo corrected) changes
  // nothing: the game goes on.
  const keys = new Set([...Object.keys(r.options), ...Object.keys(game.options)]);
  if (game.variant === $("variant").value && [...keys].every((k) => String(r.options[k]) === String(game.options[k]))) return;
  const o = variantInfo($("variant").value).options.find((x) => x.name === (input && input.dataset.option));
  startNew(`${o ? o.label : "A rule"} ${input ? input.value : ""}: start a new game with this rule?`).catch(showError);
}

// The fields back to the game's own settings (a new game declined).
function showSettings() {
  $("variant").value = game.variant;
  optionsUI();
  for (const [k, v] of Object.entries(game.options)) { const i = $("opt-" + k); if (i) i.value = v; }
  levelsUI(game.variant);
}

// A new game with the fields' settings; while a game is in progress the
// page asks first, and a no puts the fields back.
async function startNew(question, opts) {
  if (inProgress()) {
    const turns = rows();
    const n = turns.length ? turns[turns.length - 1].number : 0;
    const ok = await ask(`${question} The game in progress (${n} move${n === 1 ? "" : "s"}) will be lost.`, "Start a new game", "Keep this game");
    if (!ok) { showSettings(); return; }
  }
  await newGame(Object.assign({ keepStart: false }, opts || {}));
}

function checkStrength(mode) {
  const max = THINK[mode || $("limit").value].max;
  const n = Number($("strength").value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    fieldError("strengtherror", `a whole number from 1 to ${max}`);
    $("strength").setAttribute("aria-invalid", "true");
    return false;
  }
  fieldError("strengtherror", null);
  $("strength").removeAttribute("aria-invalid");
  return true;
}

// A new game with the settings of the fields. A start position or move
// list that the server refuses leaves the game in progress as it was, with
// the reason beside the field at fault.
async function newGame(opts) {
  opts = opts || {};
  const r = readOptions();
  if (r.error) { fieldError(r.error.id + "-error", r.message); return; }
  const next = { variant: $("variant").value, options: r.options, start: null, moves: [] };
  if (opts.keepStart !== false) {
    next.start = $("starttoken").value.trim() || null;
    const pasted = $("startmoves").value.trim();
    next.moves = pasted ? pasted.split(/\s+/) : [];
  }
  fieldError("starttokenerror", null); fieldError("startmoveserror", null);
  if (next.start || next.moves.length) {
    // Asked first: a refusal changes nothing.
    try {
      const probe = { variant: next.variant, options: next.options, moves: [] };
      if (next.start) probe.start = next.start;
      await api("/api/state", probe);
    } catch (e) { fieldError("starttokenerror", e); $("starttoken").setAttribute("aria-invalid", "true"); return; }
    $("starttoken").removeAttribute("aria-invalid");
    try {
      const probe = { variant: next.variant, options: next.options, moves: next.moves };
      if (next.start) probe.start = next.start;
      await api("/api/state", probe);
    } catch (e) { fieldError("startmoveserror", e); $("startmoves").setAttribute("aria-invalid", "true"); return; }
    $("startmoves").removeAttribute("aria-invalid");
  }
  if (searchAbort) searchAbort.abort();
  thinking = false;
  Object.assign(game, next);
  game.movers = []; game.view = game.moves.length; game.evals = {}; game.details = {}; game.notes = {}; game.replayNotes = {};
  hintCell = null; searchPly = -1; reviewing = false;
  $("search").textContent = ""; $("note").textContent = "";
  showError(null); fieldError("moveerror", null);
  await refresh();
}

function readPlayers() {
  for (const s of SIDES) game.players[s] = $(s).value;
}

// One person against kete: the board turned so that the person's side is
// at the bottom (Turn board still turns it).
function turnForPerson() {
  const people = SIDES.filter((s) => !isEngine(s));
  if (people.length === 1) flipped = people[0] === "north";
}

async function init() {
  const listed = await api("/api/variants");
  variants = listed.variants;
  eloScale = listed.elo_scale;
  // kete's own games, then the games it plays from their descriptions,
  // in two groups of the menu.
  const groups = [["kete's games", false], ["Described games", true]].map(([label, described]) => {
    const g = document.createElement("optgroup");
    g.label = label;
    for (const v of variants.filter((v) => !!v.described === described)) {
      const o = document.createElement("option");
      o.value = v.name; o.textContent = v.title;
      g.appendChild(o);
    }
    return g;
  });
  for (const g of groups) if (g.children.length) $("variant").appendChild(g);
  $("variant").addEventListener("change", () => {
    optionsUI();
    $("starttoken").value = ""; $("startmoves").value = "";
    startNew(`Start a new game of ${variantInfo($("variant").value).title}?`).catch(showError);
  });
  optionsUI();
  $("new").addEventListener("click", () => startNew("Start a new game?").catch(showError));
  $("confirmyes").addEventListener("click", () => answerQuestion(true));
  $("confirmno").addEventListener("click", () => answerQuestion(false));
  $("start").addEventListener("click", () => startNew("Start from the pasted position and moves?", { keepStart: true }).catch(showError));
  $("rematch").addEventListener("click", () => newGame({ keepStart: false }).catch(showError));
  $("swap").addEventListener("click", () => {
    const s = $("south").value; $("south").value = $("north").value; $("north").value = s;
    readPlayers();
    turnForPerson();
    newGame({ keepStart: false }).catch(showError);
  });
  $("moveform").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = $("movetext").value.trim();
    if (!t) return;
    if (!current || current.outcome) return refuse("The game is over.");
    if (busy || thinking || (isEngine(current.side) && live())) return refuse("It is kete's move; wait for it.");
    typedTurn(t.split(/\s+/)).catch((err) => refuse(err.message));
  });
  // The refusal goes once the move is being corrected.
  $("movetext").addEventListener("input", () => fieldError("moveerror", null));
  $("hint").addEventListener("click", () => { if (checkStrength()) hint().catch(engineFailed); });
  $("go").addEventListener("click", async () => {
    if (busy || thinking || !current || current.outcome || !checkStrength()) return;
    thinking = true; showStatus();
    const ply = game.view, lines = {};
    searchPly = ply;
    try {
      const d = await search(moveLimits(), (i) => { lines[i.multipv] = i; $("search").textContent = detailsText(lines); });
      thinking = false;
      if (!moveLimits().level) remember(ply, d);
      if (d && d.best) game.details[ply] = detailsText(lines);
      if (d && d.best && game.view === ply) await play(d.best);
    } catch (e) { engineFailed(e); }
    thinking = false; showStatus();
  });
  $("solve").addEventListener("click", () => solve().catch(showError));
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("cancel").addEventListener("click", cancelChoice);
  $("flip").addEventListener("click", () => { flipped = !flipped; refresh().catch(showError); });
  for (const id of SIDES) $(id).addEventListener("change", () => { readPlayers(); turnForPerson(); refresh().catch(showError); });
  $("limit").addEventListener("change", () => { switchThinking(); save(); });
  $("level").addEventListener("change", () => { levelHelp(); save(); });
  $("strength").addEventListener("input", () => { if (checkStrength()) { THINK[thinkMode].value = $("strength").value; save(); } });
  $("animate").addEventListener("change", save);
  // Arrow keys step through the move list (not while typing in a field).
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { cancelChoice(); answerQuestion(false); return; }
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    // On a pit, the arrow keys go from pit to pit (the legal ones, as Tab).
    if (t && t.closest && t.closest("#board g.cell") && e.key.startsWith("Arrow")) {
      const pits = [...$("board").querySelectorAll('g.cell[tabindex="0"]')];
      const k = pits.indexOf(t.closest("#board g.cell"));
      const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : -1;
      if (k >= 0 && pits.length) { e.preventDefault(); pits[(k + step + pits.length) % pits.length].focus(); }
      return;
    }
    if (e.key === "ArrowLeft" || e.key === "ArrowUp") { e.preventDefault(); goTo(game.view - 1); }
    else if (e.key === "ArrowRight" || e.key === "ArrowDown") { e.preventDefault(); goTo(game.view + 1); }
    else if (e.key === "Home") { e.preventDefault(); goTo(0); }
    else if (e.key === "End") { e.preventDefault(); goTo(game.moves.length); }
  });
  let resize = null;
  window.addEventListener("resize", () => {
    clearTimeout(resize);
    resize = setTimeout(() => { if (current && wantPortrait(current.cells) !== portrait) refresh().catch(showError); }, 150);
  });
  readPlayers();
  // Read before a restored game rewrites the address.
  const asked = addressGame();
  const restored = await restore();
  if (asked && !(restored && sameGame(asked))) {
    $("variant").value = asked.variant;
    optionsUI();
    for (const [k, v] of Object.entries(asked.options)) $("opt-" + k).value = v;
    levelsUI(asked.variant);
    await newGame({ keepStart: false });
  } else if (!restored) await newGame({ keepStart: false });
  showAddress();
}
