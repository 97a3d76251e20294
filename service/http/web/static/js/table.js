// The table of one game, for any ruleset: the status, the log, the pending step (dice, shuffle,
// draw, decision), undo, and what this page's seat may do now, as controls built from
// GET /games/{id}/legal-commands; the ruleset's table module (docs/web-table.md, named by
// GET /rulesets) draws its board and names its things. Every read goes through the API with the
// seat's token (or none: a spectator), so the page shows exactly what that reader may see. Live over SSE.

import { Api, ApiError, clear, el, gameIdFromPath, problemSentence, tokenFromFragment } from "./api.js";
import { follow } from "./live.js";
import { renderValue } from "./generic.js";

const SVG = "http://www.w3.org/2000/svg";
const gameId = gameIdFromPath();
const token = tokenFromFragment();
const api = new Api(token);

const page = {
  game: null, view: null, state: null, board: null, initiative: null, legal: null, log: [], undo: null, undoOpen: false, controlsDrawnFrom: null,
  seat: null, role: token ? "seat" : "spectator", seen: 0, catchUp: 0, busy: false, answer: { key: null, faces: [], order: [], picked: [] },
  zoom: 1,
};

const $ = (id) => document.getElementById(id);

// The table module's hook when it has one (docs/web-table.md), else undefined.
const hook = (name) => (page.view && page.view[name] ? page.view[name] : undefined);

// Players' words for an id: the ruleset's table module's (its content's names), else the id.
function names(id) {
  const name = hook("pieceName");
  return name ? name(id) : id;
}

// A pending step in words: the ruleset's table module's, else the shell's.
function pendingWords(pending) {
  const words = hook("pendingText");
  return words ? words(pending) : genericPending(pending);
}

function genericPending(pending) {
  if (!pending) return "";
  const who = pending.piece ? `${names(pending.piece)}: ` : "";
  const reason = (r) => String(r).replace(/-/g, " ");
  switch (pending.type) {
    case "RollRequested": return `${who}roll ${pending.dice} ${pending.sides && pending.sides !== 6 ? `d${pending.sides}` : "di" + (pending.dice > 1 ? "ce" : "e")} for ${reason(pending.reason)}`;
    case "ShuffleRequested": return `shuffle ${pending.cards.length} cards for ${reason(pending.reason)}`;
    case "DrawRequested": return `${who}draw ${pending.count || 1} card${(pending.count || 1) > 1 ? "s" : ""} from the ${String(pending.deck).replace(/-/g, " ")} deck (${reason(pending.reason)})`;
    case "DecisionRequested": return `${who}choose the ${String(pending.decision).replace(/[-:]/g, " ")}`;
    default: return pending.type;
  }
}

// The result in words: the ruleset's table module's, else as the API names it.
function resultWords(result) {
  const words = hook("resultText");
  return words ? words(result) : result;
}

// A die face in words and as a small picture: the ruleset's table module's, else its number.
function faceWords(face, sides, pending) {
  const words = hook("faceLabel");
  return words ? words(face, sides, pending) : String(face);
}

function faceImage(face, sides, pending) {
  const image = hook("faceIcon");
  if (image) return image(face, sides, pending);
  const root = document.createElementNS(SVG, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", class: "die-icon", "aria-hidden": "true" })) root.setAttribute(k, v);
  const text = document.createElementNS(SVG, "text");
  for (const [k, v] of Object.entries({ x: 12, y: 17, "text-anchor": "middle", class: "die-number" })) text.setAttribute(k, String(v));
  text.textContent = String(face);
  root.append(text);
  return root;
}

function showProblem(error) {
  const box = $("problem");
  clear(box);
  if (!error) { box.hidden = true; return; }
  box.hidden = false;
  const problem = error instanceof ApiError ? error.problem : {};
  box.append(el("span", { class: "detail", text: problemSentence(error) }));
  if (problem.rule || problem.title) {
    box.append(el("details", { class: "rule" }, el("summary", { text: "Why, in the rulebook's terms" }),
      el("p", { text: [problem.title, problem.detail, problem.rule ? `rule ${problem.rule}` : "", problem.section || ""].filter(Boolean).join(" · ") })));
  }
}

// The ruleset's table module (docs/web-table.md), named by GET /rulesets.
async function loadView(asked) {
  const rulesets = await asked;
  const info = rulesets.find((r) => r.name === page.game.ruleset);
  page.view = await import(info ? info.table : "/static/js/generic.js");
}

let refreshing = null;
let again = false;  // asked again while a refresh was running
let stale = false;  // the reads of the last refresh disagreed: read again

function scheduleRefresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    try {
      // Several events of one command arrive together: one more read only if one of them is
      // newer than what the last read showed.
      do { again = false; stale = false; await refresh(); } while (stale || (again && page.seen > page.state.version));
    } finally { refreshing = null; }
  })();
  return refreshing;
}

async function refresh() {
  const reads = [
    api.get(`/games/${gameId}`),
    api.get(`/games/${gameId}/state`),
    page.role === "seat" ? api.get(`/games/${gameId}/legal-commands`).catch((e) => e) : Promise.resolve(null),
    api.get(`/games/${gameId}/board`).catch(() => null),
    api.get(`/games/${gameId}/initiative`).catch(() => null),
    // the log with the other reads, not after them: its last lines from the version known before this
    // refresh (the game's, read first, at the first paint); a later version only brings more lines
    api.get(`/games/${gameId}/log`, { after: Math.max(0, (page.state ? page.state.version : page.game.version) - 120), limit: 1000 }).catch(() => null),
  ];
  const [game, state, legal, board, initiative, log] = await Promise.all(reads);
  page.game = game;
  page.state = state;
  if (legal instanceof ApiError) {
    if (legal.status === 403 || legal.status === 401) page.role = "reader";
    page.legal = null;
  } else page.legal = legal;
  if (page.legal) page.seat = page.legal.seat;
  const version = state.version;
  if (page.viewReady) await page.viewReady;  // the module's content, which the views below may need
  // The read models may trail the store by a moment: then the module builds the same views from the
  // state, when it can.
  const boardOf = hook("boardFromState");
  const initiativeOf = hook("initiativeFromState");
  if (board && board.version === version) page.board = board.board;
  else page.board = boardOf ? boardOf(state.state) : board ? board.board : null;
  if (initiative && initiative.version === version) page.initiative = initiative.initiative;
  else page.initiative = initiativeOf ? initiativeOf(state.state) : initiative ? initiative.initiative : null;
  page.log = log ? log.lines : [];
  // The read models may trail the game: while the log is missing ("no log yet") or names an older
  // version than the game's (its `version`), or the board or the turn order do, the table reads again
  // shortly (at most 8 times in a row), not only at the next event (the empty log panel of a first paint).
  const behind = !log || log.version < version || (board && board.version < version) || (initiative && initiative.version < version);
  if (behind && version > 0 && page.catchUp < 8) {
    page.catchUp += 1;
    setTimeout(scheduleRefresh, 150 * page.catchUp);
  } else if (!behind) page.catchUp = 0;
  // the open undo request comes with the game's own read (GET /games/{id}: undo_request, undo_waiting_for)
  page.undo = game.undo_request ? { ...game.undo_request, needs: game.undo_waiting_for || [], version } : null;
  if (page.legal && page.legal.version !== version) stale = true;  // moved on between the reads
  // The game's summary (its result, pending, undo request) read before the state moved on: read again, at most
  // 5 times in a row, else the last event's result may never be shown (no event follows a game's end).
  if (game.version !== version && (page.mismatch || 0) < 5) { page.mismatch = (page.mismatch || 0) + 1; stale = true; }
  else if (game.version === version) page.mismatch = 0;
  render({ refreshed: true });
}

// What has the focus, as something the next render draws again (a button's command, a space, a die
// face, an option, a card), so that the focus stays where it was after a re-render.
function focusKey(node) {
  if (!node || node === document.body || !node.closest) return null;
  if (!node.closest("#controls, #board, #log, #legend, .zoom")) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  for (const attr of ["data-command", "data-space", "data-figure", "data-face", "data-option", "data-card", "data-zoom"]) {
    const value = node.getAttribute(attr);
    if (value !== null) return `[${attr}="${CSS.escape(value)}"]`;
  }
  return null;
}

function restoreFocus(key, region) {
  if (!key || document.activeElement && document.activeElement !== document.body && document.activeElement.isConnected) return;
  const again = document.querySelector(key);
  if (again && !again.disabled) again.focus({ preventScroll: true });
  else if (region && region.isConnected) {  // the control is gone: stay in its region
    const near = region.querySelector("button:not([disabled]), [tabindex='0']") || region;
    near.focus({ preventScroll: true });
  }
}

// What the controls are drawn from, read from the server: a read that brings nothing new (a read model
// catching up, a second event of one command) leaves the controls as they are, so a button is never swapped
// for its twin under a player's finger (a press on the old one would be lost).
function controlsKey() {
  // the board and the turn order of one version are the same whether read from their read models or built
  // from the state (the first paint, before the read models catch up): the version stands for them
  return JSON.stringify([page.role, page.game, page.state && page.state.version, page.legal, page.undo]);
}

// ``refreshed``: drawn after a read (the controls are kept when the read brought nothing new); a module's
// own redraw (a tile picked, a zoom) and the first paint draw everything.
function render({ refreshed = false } = {}) {
  const focused = document.activeElement;
  const key = focusKey(focused);
  const region = focused && focused.closest ? focused.closest("#controls, #board, #log") : null;
  draw(refreshed);
  restoreFocus(key, region && region.id === "board" ? $("board") : region ? $(region.id) : null);
}

function draw(refreshed = false) {
  const { game, state } = page;
  document.body.dataset.version = String(state.version);
  document.body.dataset.ruleset = game.ruleset;
  const name = hook("title") ? page.view.title(page) : game.ruleset;
  $("title").textContent = `${name} · table`;
  document.title = `${name} · table ${gameId.slice(0, 8)} · dicelog`;
  // Focus stays where it was across a re-render (the element with the same data-key).
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-key]");
  const focusKey = focused ? focused.dataset.key : null;
  $("who").textContent = page.role === "seat" && page.seat ? `Seat ${page.seat}` : page.role === "reader" ? "Reading with a token (no seat)" : "Spectator";
  $("history-link").setAttribute("href", `/play/${gameId}/history${token ? `#token=${encodeURIComponent(token)}` : ""}`);
  renderStatus();
  const drawnFrom = controlsKey();
  if (!refreshed || drawnFrom !== page.controlsDrawnFrom) renderControls();
  page.controlsDrawnFrom = drawnFrom;
  renderTable();
  renderInitiative();
  renderLog();
  if (focusKey && !document.activeElement.closest("[data-key]")) {
    const again = [...document.querySelectorAll("[data-key]")].find((n) => n.dataset.key === focusKey);
    if (again) again.focus();
  }
  if (!document.body.dataset.ready) {
    // When the first full table was painted (milliseconds since navigation: bench/web_table.py).
    requestAnimationFrame(() => setTimeout(() => { document.body.dataset.firstPaintMs = String(Math.round(performance.now())); }, 0));
  }
  document.body.dataset.ready = "true";
}

function renderStatus() {
  const { game, state } = page;
  const box = clear($("status"));
  const facts = [
    ["Dice", game.dice_mode === "server" ? "rolled by the server" : "rolled at the table"],
    ["Undo", { none: "not allowed", "own-turn": "in your own turn", "all-seats": "if every seat agrees", host: "by the host" }[game.undo_policy] || game.undo_policy],
    ["Version", state.version],
  ];
  if (page.initiative && page.initiative.round !== undefined) facts.unshift(["Round", page.initiative.round]);
  if (game.turn) facts.unshift(["Turn", names(game.turn)]);
  if (game.result) facts.unshift(["Result", resultWords(game.result)]);
  box.append(el("dl", { class: "facts" }, facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: String(v) })])));
  if (game.pending) box.append(el("p", { class: "pending-line", text: `Waiting: ${pendingWords(game.pending)}` }));
  // the dice rolled last, drawn as the die shows them (from the log's line of that roll)
  const rolled = hook("lineDice") ? [...page.log].reverse().find((l) => l.type === "DiceRolled") : null;
  if (rolled) box.append(el("div", { class: "last-roll" }, el("span", { class: "label", text: `Last roll (v${rolled.version}): ` }), diceLine(rolled.line)));
}

// A log line with the dice it names drawn beside their words.
function diceLine(line) {
  const icons = hook("lineDice") ? page.view.lineDice(line) : [];
  return el("span", { class: "dice-line" }, icons, " ", line);
}

function answerKey() {
  const pending = page.game.pending;
  return pending ? `${page.state.version}:${pending.type}` : null;
}

async function send(command) {
  if (page.busy) return;
  page.busy = true;
  document.body.dataset.busy = "true";
  showProblem(null);
  for (const b of document.querySelectorAll("#controls button")) b.disabled = true;
  try {
    const expected = page.legal ? page.legal.version : page.state.version;
    const result = await api.command(gameId, command, expected);
    page.seen = Math.max(page.seen, result.version);
  } catch (error) {
    showProblem(error);
  } finally {
    page.busy = false;
    delete document.body.dataset.busy;
    page.answer = { key: null, faces: [], order: [], picked: [] };
    page.controlsDrawnFrom = null;  // the buttons were disabled while sending: draw them again
    await scheduleRefresh();
  }
}

function commandButton(command, label, extra = {}) {
  return el("button", {
    type: "button", class: `command ${extra.class || ""}`, "data-command-type": command.type,
    "data-command": JSON.stringify(command), onclick: () => send(command), title: extra.title,
  }, label);
}

function renderControls() {
  const box = clear($("controls"));
  const { game, legal } = page;
  box.append(el("h2", { text: page.role === "seat" ? "Your move" : "Controls" }));
  if (page.role !== "seat" || !legal) {
    box.append(el("p", { class: "hint", text: page.role === "reader"
      ? "This token reads the game but plays no seat."
      : "You are watching. A seat's join link (/play/…#token=…) opens its controls." }));
    return;
  }
  if (game.result) {
    box.append(el("p", { class: "result", text: `The game has ended: ${resultWords(game.result)}.` }));
    return;
  }
  if (page.answer.key !== answerKey()) page.answer = { key: answerKey(), faces: [], order: [], picked: [] };
  const pending = legal.pending;
  if (pending) {
    const mine = !legal.pending_seat || legal.pending_seat === legal.seat;
    if (!mine) {
      box.append(el("p", { class: "waiting", text: `Waiting for seat ${legal.pending_seat}: ${pendingWords(pending)}` }));
    } else {
      box.append(renderPending(pending));
    }
  } else if (!legal.commands.length) {
    const theirs = hook("waitingText") ? page.view.waitingText(page, names) : null;
    const waiting = theirs || (game.turn ? `Waiting for ${names(game.turn)}'s seat.` : "Nothing to do now.");
    box.append(el("p", { class: "waiting", text: waiting }));
  } else if (hook("renderCommands")) {
    box.append(page.view.renderCommands(page, { send, rerender: render, button: commandButton }));
  } else {
    box.append(renderCommands(legal.commands));
  }
  if (game.undo_policy !== "none") box.append(renderUndo());
}

function renderPending(pending) {
  const part = el("div", { class: "pending", role: "group", "aria-label": "Answer the pending step" });
  part.append(el("p", { class: "pending-line", text: pendingWords(pending) }));
  const manual = page.game.dice_mode === "manual";
  const state = page.answer;
  if (pending.type === "RollRequested") {
    if (!manual) { part.append(el("p", { text: "The server rolls." })); return part; }
    const sides = pending.sides || 6;
    const faces = el("div", { class: "die-faces", role: "group", "aria-label": `Die faces (${state.faces.length} of ${pending.dice} chosen)` });
    // A die whose faces the module names (faceName) shows them by their symbols and the number
    // printed beside them, and a face is sent by its name, so the command says what the player saw.
    const named = (face) => (hook("faceName") ? page.view.faceName(face, sides, pending) : null);
    const byName = named(1) !== null && named(1) !== undefined;
    for (let face = 1; face <= sides; face++) {
      const label = faceWords(face, sides, pending);
      const sent = byName ? named(face) : face;
      faces.append(el("button", {
        type: "button", class: "die-face", "data-face": face, "data-face-name": byName ? sent : undefined,
        "aria-label": byName ? `${label.replace(" · ", ", printed ")}` : `Face ${label}`,
        disabled: state.faces.length >= pending.dice,
        onclick: () => { if (state.faces.length < pending.dice) { state.faces.push(sent); renderControls(); focusFirst(`.die-face[data-face='${face}']:not([disabled]), #submit-roll`); } },
      }, faceImage(face, sides, pending), el("span", { class: "face-text", text: label })));
    }
    part.append(el("p", { class: "hint", text: byName
      ? `Tap each die as it lies at the table — its symbols and the number printed on it (${pending.dice} ${pending.dice > 1 ? "dice" : "die"}).`
      : `Tap the face of each die rolled at the table, die by die (${pending.dice} ${pending.dice > 1 ? "dice" : "die"}).` }), faces);
    part.append(el("p", { class: "chosen", "aria-live": "polite" },
      `Chosen: ${state.faces.length ? state.faces.map((f) => faceWords(f, sides, pending)).join(", ") : "none yet"}`));
    part.append(el("div", { class: "row" },
      el("button", { type: "button", id: "submit-roll", class: "primary", disabled: state.faces.length !== pending.dice,
        onclick: () => send({ type: "Roll", faces: [...state.faces] }) }, `Submit roll (${state.faces.length}/${pending.dice})`),
      el("button", { type: "button", class: "secondary", disabled: !state.faces.length,
        onclick: () => { state.faces = []; renderControls(); } }, "Clear")));
  } else if (pending.type === "ShuffleRequested") {
    if (!manual) { part.append(el("p", { text: "The server shuffles." })); return part; }
    const left = pending.cards.filter((c) => !state.order.includes(c));
    part.append(el("p", { class: "hint", text: "Click the cards in the order they came out of the shuffle, top first." }));
    part.append(el("div", { class: "row wrap" }, left.map((card) => el("button", {
      type: "button", class: "shuffle-card", "data-card": card,
      onclick: () => { state.order.push(card); renderControls(); focusFirst(".shuffle-card, #submit-shuffle"); },
    }, names(card)))));
    part.append(el("ol", { class: "chosen-order" }, state.order.map((c) => el("li", { text: names(c) }))));
    part.append(el("div", { class: "row" },
      el("button", { type: "button", id: "submit-shuffle", class: "primary", disabled: left.length !== 0,
        onclick: () => send({ type: "Shuffle", order: [...state.order] }) }, "Submit order"),
      el("button", { type: "button", class: "secondary", disabled: !state.order.length,
        onclick: () => { state.order = []; renderControls(); } }, "Clear")));
  } else if (pending.type === "DrawRequested") {
    if (!manual) { part.append(el("p", { text: "The server draws." })); return part; }
    const count = Math.min(pending.count || 1, pending.cards.length);
    part.append(el("p", { class: "hint", text: `Pick the ${count} card${count > 1 ? "s" : ""} drawn at the table, in order.` }));
    part.append(el("div", { class: "row wrap" }, pending.cards.filter((c) => !state.picked.includes(c)).map((card) => el("button", {
      type: "button", class: "draw-card", "data-card": card, disabled: state.picked.length >= count,
      onclick: () => { state.picked.push(card); renderControls(); focusFirst(".draw-card:not([disabled]), #submit-draw"); },
    }, itemName(card)))));
    part.append(el("ol", { class: "chosen-order" }, state.picked.map((c) => el("li", { text: itemName(c) }))));
    part.append(el("div", { class: "row" },
      el("button", { type: "button", id: "submit-draw", class: "primary", disabled: state.picked.length !== count,
        onclick: () => send({ type: "Draw", cards: [...state.picked] }) }, "Submit draw"),
      el("button", { type: "button", class: "secondary", disabled: !state.picked.length,
        onclick: () => { state.picked = []; renderControls(); } }, "Clear")));
  } else if (pending.type === "DecisionRequested") {
    part.append(el("div", { class: "row wrap options" }, pending.options.map((option) => el("button", {
      type: "button", class: `option${option === pending.default ? " default" : ""}`, "data-option": option,
      onclick: () => send({ type: "Choose", option }),
    }, hook("optionIcon") ? page.view.optionIcon(pending, option, page) : null, optionLabel(option, pending.decision), option === pending.default ? el("span", { class: "badge", text: "default" }) : null))));
  }
  return part;
}

function optionLabel(option, decision = "") {
  const words = hook("optionText");
  return (words && words(decision, option)) || names(option);
}

function itemName(card) {
  const name = hook("drawName");
  return name ? name(card) : names(card);
}

function focusFirst(selector) {
  const target = document.querySelector(`#controls ${selector.split(", ").join(", #controls ")}`);
  if (target) target.focus();
}

// The seat's legal commands as buttons, when the table module draws none of its own.
function renderCommands(commands) {
  return el("div", { class: "commands" }, el("div", { class: "row wrap" }, commands.map((c) => commandButton(c, commandText(c)))));
}

// A command in words: who plays it, its type and its fields ("red: PlayCard (card c-3)").
function commandText(command) {
  const pretty = (v) => (Array.isArray(v) ? v.map((x) => (typeof x === "string" ? names(x) : pretty(x))).join(", ")
    : typeof v === "string" ? names(v) : v && typeof v === "object" ? JSON.stringify(v) : String(v));
  const who = command.player || "";
  const tail = Object.entries(command).filter(([k]) => k !== "type" && k !== "player").map(([k, v]) => `${k.replace(/_/g, " ")} ${pretty(v)}`).join(", ");
  return `${who ? `${who}: ` : ""}${command.type.replace(/^[a-z]+\./, "")}${tail ? ` (${tail})` : ""}`;
}

function renderUndo() {
  // Open while an undo request waits, or while the player keeps it open: a re-render (the next event, a
  // read model catching up) must not close it under their finger.
  const part = el("details", {
    class: "undo", open: page.undo || page.undoOpen ? true : undefined,
    ontoggle: (event) => { if (!page.undo) page.undoOpen = event.target.open; },
  }, el("summary", { text: page.undo ? "Undo requested" : "Undo" }));
  const undo = page.undo;
  const seat = page.legal.seat;
  if (undo) {
    part.append(el("p", { text: `Seat ${undo.by} asks to take back the moves after version ${undo.to_version}${undo.crosses_rolls ? " (dice already rolled would be taken back too)" : ""}. Still waiting for: ${undo.needs.length ? undo.needs.map((s) => `seat ${s}`).join(", ") : "nobody"}.` }));
    const row = el("div", { class: "row" });
    if (undo.needs.includes(seat)) row.append(commandButton({ type: "ApproveUndo" }, "Approve the undo"));
    if (undo.by !== seat) row.append(commandButton({ type: "RejectUndo" }, "Reject the undo", { class: "secondary" }));
    part.append(row);
  } else {
    part.append(el("button", { type: "button", class: "secondary", id: "request-undo", onclick: requestUndo },
      "Undo my last command"));
  }
  return part;
}

async function requestUndo() {
  try {
    const version = page.state.version;
    const page1 = await api.get(`/games/${gameId}/events`, { after: Math.max(0, version - 1000), limit: 1000, seat: page.legal.seat, type: "CommandAccepted" });
    const mine = page1.events.filter((e) => !e.undone);
    const last = mine[mine.length - 1];
    if (!last) { showProblem(new Error("You have no command to undo.")); return; }
    page.undoOpen = false;  // asked: the request (or the undo done) shows itself
    await send({ type: "RequestUndo", to_version: last.version - 1 });
  } catch (error) { showProblem(error); }
}

function renderInitiative() {
  const box = clear($("initiative"));
  box.append(el("h2", { text: "Initiative" }));
  const view = page.initiative;
  if (!view) return;
  if (hook("renderInitiative")) { page.view.renderInitiative(page, box); return; }
  box.append(renderValue(view));
}

function renderTable() {
  clear($("tracks"));
  clear($("cards"));
  const box = $("board");
  // The ruleset's own table module (GET /rulesets' ``table``; the generic one when it has none).
  if (page.view.developerView === false) { page.view.renderTable(page, { board: box, tracks: $("tracks"), cards: $("cards"), send, renderValue, rerender: render }); return; }
  clear(box);
  box.append(el("h3", { text: "Table" }));
  if (page.view && page.view.renderTable) page.view.renderTable(page, { board: box, tracks: $("tracks"), cards: $("cards"), send, renderValue, rerender: render });
  const details = el("details", { class: "state dev" }, el("summary", { text: "Developer view: the whole state, as this page's reader sees it" }),
    renderValue(page.state.state, "state"));
  box.append(details);
}

function renderLog() {
  const box = clear($("log"));
  box.append(el("h2", { id: "log-h", text: "Log" }));
  const lines = page.log.slice(-40).reverse();
  // a scrollable list a keyboard can reach and scroll (tabindex 0), newest first
  box.append(el("ol", { id: "log-list", class: "log", reversed: true, tabindex: 0, "aria-labelledby": "log-h" }, lines.map((l) => el("li", { "data-version": l.version },
    el("span", { class: "v", text: `v${l.version}` }), " ", l.type === "DiceRolled" ? diceLine(l.line) : l.line))));
}

// On a phone the controls are an action bar fixed at the bottom of the screen (css: max-width 760px):
// the page gets room below its content, so the bar never hides the end of the page.
function keepRoomForTheActionBar() {
  const bar = $("controls");
  const fit = () => {
    const fixed = getComputedStyle(bar).position === "fixed";
    document.body.style.paddingBottom = fixed ? `${bar.offsetHeight + 8}px` : "";
  };
  new ResizeObserver(fit).observe(bar);
  window.addEventListener("resize", fit);
}

async function main() {
  keepRoomForTheActionBar();
  try {
    const rulesets = api.get("/rulesets");  // asked with the game, not after it
    page.game = await api.get(`/games/${gameId}`);
    await loadView(rulesets);
    // The module's content is fetched while the table is read; the first paint waits for both.
    page.viewReady = page.view.load ? page.view.load(api) : null;
    await scheduleRefresh();
  } catch (error) {
    showProblem(error);
    return;
  }
  follow(gameId, token, {
    after: page.state.version,
    onEvent: (event) => {
      if (event.version > page.seen) page.seen = event.version;
      if (event.version > page.state.version) scheduleRefresh();
    },
    onStatus: (status) => { const live = $("live"); live.textContent = status === "live" ? "● live" : status === "ended" ? "■ ended" : "○ reconnecting"; live.dataset.status = status; },
  });
}

// Another token in the fragment (a link to the same game as another seat) is another reader.
window.addEventListener("hashchange", () => { if (tokenFromFragment() !== token) window.location.reload(); });

main();
