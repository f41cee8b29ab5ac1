// What the board page keeps beyond one view: the address that names the
// game, the game and settings saved in the browser, and recorded games to
// replay. Loaded after app.js, whose functions it uses; it starts the page.
"use strict";

// --- the address --------------------------------------------------------------------
// A name as the server reads one: any case, spaces for hyphens, accents
// and apostrophes dropped ("Ô ăn quan" is o-an-quan).
function normalName(name) {
  return name.trim().toLowerCase().replace(/đ/g, "d").normalize("NFD").replace(/[\u0300-\u036f]/g, "")
    .replace(/['’.()]/g, "").replace(/[\s_]+/g, "-").replace(/-+/g, "-").replace(/^-|-$/g, "");
}

// The game the address names, with the rules it gives
// (`?variant=togyz-kumalak&Pits=7`); null for none. A name or value the
// page does not know is said and left out.
function addressGame() {
  const q = new URLSearchParams(location.search);
  const asked = q.get("variant");
  if (!asked) return null;
  const key = normalName(asked);
  const v = variants.find((x) => x.name === key || (x.aliases || []).some((a) => normalName(a) === key));
  if (!v) { showError(`The address names no game kete plays: '${asked}'.`); return null; }
  const options = {};
  for (const o of v.options) {
    const val = q.get(o.name);
    if (val === null) continue;
    const n = Number(val);
    const ok = o.kind === "spin" ? Number.isInteger(n) && n >= o.min && n <= o.max : o.values.includes(val);
    if (ok) options[o.name] = val;
    else showError(`The address's ${o.name}=${val} is not a value of ${o.label}; the game's own is kept.`);
  }
  return { variant: v.name, options };
}

// Whether the game on the board is the one `asked` names.
function sameGame(asked) {
  if (game.variant !== asked.variant) return false;
  return variantInfo(asked.variant).options.every((o) =>
    String(game.options[o.name] !== undefined ? game.options[o.name] : o.default) ===
    String(asked.options[o.name] !== undefined ? asked.options[o.name] : o.default));
}

// The address names the game on the board and the rules it plays that are
// not the game's own, so that a link opens it.
function showAddress() {
  const v = variantInfo(game.variant);
  if (!v) return;
  const q = new URLSearchParams();
  q.set("variant", game.variant);
  for (const o of v.options) {
    const val = game.options[o.name];
    if (val !== undefined && String(val) !== String(o.default)) q.set(o.name, val);
  }
  const url = `${location.pathname}?${q}`;
  if (url !== location.pathname + location.search) history.replaceState(null, "", url + location.hash);
}

// The game in progress and the settings, kept in the browser: a reload
// (or a tab opened again) goes on where it was.
const SAVED = "kete-board";
function save() {
  showAddress();
  try {
    localStorage.setItem(SAVED, JSON.stringify({
      variant: game.variant, options: game.options, start: game.start, moves: game.moves,
      view: game.view, evals: game.evals, players: game.players, flipped,
      limit: $("limit").value, strength: $("strength").value, animate: $("animate").checked,
      level: $("level").value, think: { time: THINK.time.value, depth: THINK.depth.value },
    }));
  } catch (e) { /* no storage: nothing kept */ }
}

async function restore() {
  let g = null;
  try { g = JSON.parse(localStorage.getItem(SAVED) || "null"); } catch (e) { g = null; }
  if (!g || !variantInfo(g.variant) || !Array.isArray(g.moves)) return false;
  if (g.think) for (const m of Object.keys(THINK)) if (g.think[m]) THINK[m].value = String(g.think[m]);
  if (g.limit && THINK[g.limit]) { $("limit").value = g.limit; thinkMode = g.limit; }
  $("strength").min = THINK[thinkMode].min;
  $("strength").max = THINK[thinkMode].max;
  if (g.strength) $("strength").value = g.strength;
  levelsUI(g.variant);
  if (g.level) { $("level").value = g.level; if (!$("level").value) $("level").value = "full"; levelHelp(); }
  $("animate").checked = g.animate !== false;
  checkStrength();
  flipped = !!g.flipped;
  for (const side of SIDES) if (g.players && g.players[side]) $(side).value = g.players[side];
  readPlayers();
  Object.assign(game, { variant: g.variant, options: g.options || {}, start: g.start || null, moves: g.moves,
    movers: [], evals: g.evals || {}, details: {}, notes: {}, replayNotes: {} });
  game.view = Math.max(0, Math.min(g.moves.length, g.view | 0));
  showSettings();
  try { await refresh(); } catch (e) { return false; }
  return true;
}

// --- replays ------------------------------------------------------------------------
// A recorded game: both players people, so nothing moves by itself; the move
// list, the arrow keys, undo and redo step through it.
let replays = [];
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

// A recorded score ("cp -611", from the mover's side) in seeds for South.
function recorded(score, side) {
  if (!score) return "";
  const [kind, n] = score.split(" ");
  const v = parseInt(n, 10) * (side === "north" ? -1 : 1);
  if (kind === "mate") return `${v > 0 ? "S" : "N"} wins in ${Math.abs(v)}`;
  return shortEval({ south: v, mate: null });
}

async function openReplay(k) {
  const g = replays[k];
  if (!g) return;
  $("south").value = "human"; $("north").value = "human";
  readPlayers();
  $("variant").value = g.variant;
  optionsUI();
  for (const i of $("options").parentElement.querySelectorAll("[data-option]")) {
    if (g.options[i.dataset.option] !== undefined) i.value = g.options[i.dataset.option];
  }
  if (searchAbort) searchAbort.abort();
  game.variant = g.variant; game.options = g.options; game.start = g.start || null;
  game.moves = g.moves.map((m) => m.move);
  game.movers = []; game.evals = {}; game.details = {}; game.notes = {}; game.replayNotes = {};
  // Who played each move: the server's replay of the whole list.
  game.view = game.moves.length;
  const all = await api("/api/state", request());
  game.movers = all.movers.slice();
  g.moves.forEach((m, j) => {
    if (m.opening) game.replayNotes[j] = "(opening)";
    else if (m.score) game.replayNotes[j] = `${recorded(m.score, game.movers[j])}${m.depth !== undefined && m.depth !== null ? " d" + m.depth : ""}`;
  });
  game.view = 0;
  hintCell = null; reviewing = true;
  $("replays").open = true;
  await refresh();
  $("note").textContent = `${g.south} – ${g.north}: ${g.result}, ${g.reason}`;
}

async function initReplay() {
  $("gamelist").addEventListener("change", (e) => openReplay(parseInt(e.target.value, 10)).catch(showError));
  $("gamesfile").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    try {
      showReplays((await api("/api/replay", await f.text())).games);
      if (replays.length) { $("gamelist").value = "0"; await openReplay(0); }
    } catch (err) { showError(err); }
  });
  const r = await fetch("/api/replay");
  if (r.ok) showReplays((await r.json()).games);
}

init().then(initReplay).catch(showError);
