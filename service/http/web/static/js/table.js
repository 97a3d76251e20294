// The table of one game: the board, the initiative track, the cheese wheel, the hourglass, each
// mouse's card, and what this page's seat may do now, as controls built from
// GET /games/{id}/legal-commands. Every read goes through the API with the seat's token (or none:
// a spectator), so the page shows exactly what that reader may see. Live over SSE.

import { Api, ApiError, clear, content, el, gameIdFromPath, problemSentence, tokenFromFragment } from "./api.js";
import { boardFromState, boardLegend, initiativeFromState, renderBoard, trackFigures, zoomable } from "/web/rulesets/mice-and-mystics/board.js";
import { ACTION_DIE, commandLabel, faceIcon, faceLabel, facesInLine, miceNames, optionText, pendingText } from "/web/rulesets/mice-and-mystics/labels.js";
import { follow } from "./live.js";
import { renderValue } from "./generic.js";

const MICE = "mice-and-mystics";
// Figure -> space, from a state's board (space -> figures).
const placements = (s) => Object.fromEntries(Object.entries(s.board || {}).flatMap(([space, figs]) => figs.map((f) => [f, space])));
const gameId = gameIdFromPath();
const token = tokenFromFragment();
const api = new Api(token);

const page = {
  game: null, view: null, state: null, board: null, initiative: null, legal: null, log: [], undo: null,
  seat: null, role: token ? "seat" : "spectator", library: new Map(), mice: new Map(), minions: new Map(),
  items: new Map(), abilities: new Map(), seen: 0, busy: false, answer: { key: null, faces: [], order: [], picked: [] },
  words: (x) => x, zoom: 1,
};

const $ = (id) => document.getElementById(id);

// Players' words for an id: Mice and Mystics' from its content (labels.js miceNames: Rat Warrior 1,
// Collin's Sword, Kitchen Tunnels · space 5), else the ruleset's table module's.
function names(id) {
  const word = page.words(id);
  if (word !== id && word !== String(id)) return word;
  if (page.view && page.view.pieceName) return page.view.pieceName(id);
  return id;
}

// A pending step in words: the ruleset's table module's, else the shell's.
function pendingWords(pending) {
  return !isMice() && page.view && page.view.pendingText ? page.view.pendingText(pending) : pendingText(pending, names);
}

// The result in words: the ruleset's table module's, else as the API names it.
function resultWords(result) {
  return !isMice() && page.view && page.view.resultText ? page.view.resultText(result) : result;
}

function isMice() { return page.game && page.game.ruleset === MICE; }

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

async function loadContent() {
  if (!isMice()) return;
  const [tiles, mice, minions, items, abilities, equipment] = await Promise.all([
    content(api, `/content/${MICE}/tiles`), content(api, `/content/${MICE}/mice`), content(api, `/content/${MICE}/minions`),
    content(api, `/content/${MICE}/search-cards`), content(api, `/content/${MICE}/abilities`),
    content(api, `/content/${MICE}/equipment`).catch(() => []),
  ]);
  page.library = new Map(tiles.map((t) => [t.id, t]));
  page.mice = new Map(mice.map((m) => [m.id, m]));
  page.minions = new Map(minions.map((m) => [m.id, m]));
  page.items = new Map([...equipment, ...items].map((c) => [c.id, c]));
  page.abilities = new Map(abilities.map((a) => [a.id, a]));
  page.words = miceNames({ mice: page.mice, minions: page.minions, items: page.items, abilities: page.abilities, tiles: page.library });
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
  ];
  const [game, state, legal, board, initiative] = await Promise.all(reads);
  page.game = game;
  page.state = state;
  if (legal instanceof ApiError) {
    if (legal.status === 403 || legal.status === 401) page.role = "reader";
    page.legal = null;
  } else page.legal = legal;
  if (page.legal) page.seat = page.legal.seat;
  const version = state.version;
  // The read models may trail the store by a moment: then the same views are built from the state.
  if (board && board.version === version) page.board = board.board;
  else page.board = isMice() ? boardFromState(state.state, page.library) : board ? board.board : null;
  if (initiative && initiative.version === version) page.initiative = initiative.initiative;
  else page.initiative = isMice() ? initiativeFromState(state.state, names) : initiative ? initiative.initiative : null;
  const log = await api.get(`/games/${gameId}/log`, { after: Math.max(0, version - 120), limit: 1000 }).catch(() => ({ lines: [] }));
  page.log = log.lines;
  // the open undo request comes with the game's own read (GET /games/{id}: undo_request, undo_waiting_for)
  page.undo = game.undo_request ? { ...game.undo_request, needs: game.undo_waiting_for || [], version } : null;
  if (page.legal && page.legal.version !== version) stale = true;  // moved on between the reads
  if (page.viewReady) await page.viewReady;
  render();
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

function render() {
  const focused = document.activeElement;
  const key = focusKey(focused);
  const region = focused && focused.closest ? focused.closest("#controls, #board, #log") : null;
  draw();
  restoreFocus(key, region && region.id === "board" ? $("board") : region ? $(region.id) : null);
}

function draw() {
  const { game, state } = page;
  document.body.dataset.version = String(state.version);
  document.body.dataset.ruleset = game.ruleset;
  const name = isMice() ? chapterTitle() : page.view && page.view.title ? page.view.title(page) : game.ruleset;
  $("title").textContent = `${name} · table`;
  document.title = `${name} · table ${gameId.slice(0, 8)} · dicelog`;
  // Focus stays where it was across a re-render (the element with the same data-key).
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-key]");
  const focusKey = focused ? focused.dataset.key : null;
  $("who").textContent = page.role === "seat" && page.seat ? `Seat ${page.seat}` : page.role === "reader" ? "Reading with a token (no seat)" : "Spectator";
  $("history-link").setAttribute("href", `/play/${gameId}/history${token ? `#token=${encodeURIComponent(token)}` : ""}`);
  renderStatus();
  renderControls();
  if (isMice()) {
    renderMiceBoard();
    renderTracks();
    renderCards();
  } else {
    renderGeneric();
  }
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

function chapterTitle() {
  const created = page.state.state;
  return created && created.chapter ? `Mice and Mystics · ${created.chapter}` : "Mice and Mystics";
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
  const rolled = isMice() ? [...page.log].reverse().find((l) => l.type === "DiceRolled") : null;
  if (rolled) box.append(el("div", { class: "last-roll" }, el("span", { class: "label", text: `Last roll (v${rolled.version}): ` }), diceLine(rolled.line)));
}

// A log line with the dice it names drawn beside their words.
function diceLine(line) {
  const faces = isMice() ? facesInLine(line) : [];
  return el("span", { class: "dice-line" }, faces.map((f) => faceIcon(f, 6, true)), " ", line);
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
    const minions = game.turn && isMice() && page.minions.has(game.turn);
    const waiting = minions ? `The minions play: ${names(game.turn)}.` : game.turn ? `Waiting for ${names(game.turn)}'s seat.` : "Nothing to do now.";
    box.append(el("p", { class: "waiting", text: waiting }));
  } else if (!isMice() && page.view && page.view.renderCommands) {
    box.append(page.view.renderCommands(page, { send, rerender: render }));
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
    // The action die's faces by their symbols and the number printed beside them; a face is sent by
    // its name (Roll accepts "bow-star" as face 5), so the command says what the player saw.
    const actionDie = isMice() && sides === 6;
    for (let face = 1; face <= sides; face++) {
      const label = !isMice() && page.view && page.view.faceLabel ? page.view.faceLabel(face, sides, pending) : faceLabel(face, sides, isMice());
      const sent = actionDie ? ACTION_DIE[face].name : face;
      faces.append(el("button", {
        type: "button", class: "die-face", "data-face": face, "data-face-name": actionDie ? sent : undefined,
        "aria-label": actionDie ? `${label.replace(" · ", ", printed ")}` : `Face ${label}`,
        disabled: state.faces.length >= pending.dice,
        onclick: () => { if (state.faces.length < pending.dice) { state.faces.push(sent); renderControls(); focusFirst(`.die-face[data-face='${face}']:not([disabled]), #submit-roll`); } },
      }, !isMice() && page.view && page.view.faceIcon ? page.view.faceIcon(face, sides, pending) : faceIcon(face, sides, isMice()), el("span", { class: "face-text", text: label })));
    }
    part.append(el("p", { class: "hint", text: actionDie
      ? `Tap each die as it lies at the table — its symbols and the number printed on it (${pending.dice} ${pending.dice > 1 ? "dice" : "die"}).`
      : `Tap the face of each die rolled at the table, die by die (${pending.dice} ${pending.dice > 1 ? "dice" : "die"}).` }), faces);
    part.append(el("p", { class: "chosen", "aria-live": "polite" },
      `Chosen: ${state.faces.length ? state.faces.map((f) => (!isMice() && page.view && page.view.faceLabel ? page.view.faceLabel(f, sides, pending) : faceLabel(typeof f === "number" ? f : faceNumber(f), sides, isMice()))).join(", ") : "none yet"}`));
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
    }, optionLabel(option, pending.decision), option === pending.default ? el("span", { class: "badge", text: "default" }) : null))));
  }
  return part;
}

function optionLabel(option, decision = "") {
  if (!isMice() && page.view && page.view.optionText) return page.view.optionText(decision, option) || names(option);
  return optionText(decision, option) || names(option);
}

function itemName(card) {
  if (!isMice() && page.view && page.view.drawName) return page.view.drawName(card);
  return names(card);
}

function faceNumber(name) {
  const found = Object.entries(ACTION_DIE).find(([, f]) => f.name === name);
  return found ? Number(found[0]) : name;
}

function focusFirst(selector) {
  const target = document.querySelector(`#controls ${selector.split(", ").join(", #controls ")}`);
  if (target) target.focus();
}

function shortestPaths(commands) {
  const best = new Map();
  for (const c of commands) {
    if (c.type !== "MoveTo") continue;
    const end = c.path[c.path.length - 1];
    const known = best.get(end);
    if (!known || c.path.length < known.path.length) best.set(end, c);
  }
  return best;
}

function renderCommands(commands) {
  const part = el("div", { class: "commands" });
  const serverDice = page.game.dice_mode === "server";
  const moves = shortestPaths(commands);
  const others = commands.filter((c) => c.type !== "MoveTo" && c.type !== "EndTurn");
  const end = commands.filter((c) => c.type === "EndTurn");
  if (others.length) part.append(el("div", { class: "row wrap" }, others.map((c) => commandButton(c, commandLabel(c, names, serverDice)))));
  if (moves.size) {
    part.append(el("p", { class: "hint", text: "Move: click a highlighted space on the board, or a destination here." }));
    part.append(el("div", { class: "row wrap moves", role: "group", "aria-label": "Reachable spaces" },
      [...moves.values()].map((c) => commandButton(c, `→ ${names(c.path[c.path.length - 1])}`, { class: "move", title: commandLabel(c, names) }))));
  }
  if (end.length) part.append(el("div", { class: "row" }, end.map((c) => commandButton(c, commandLabel(c, names), { class: "end-turn" }))));
  return part;
}

function renderUndo() {
  const part = el("details", { class: "undo", open: page.undo ? true : undefined },
    el("summary", { text: page.undo ? "Undo requested" : "Undo" }));
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
    await send({ type: "RequestUndo", to_version: last.version - 1 });
  } catch (error) { showProblem(error); }
}

function moveTargets() {
  const reachable = new Map();
  const targets = new Map();
  const legal = page.legal;
  if (!legal || legal.pending || page.busy) return { reachable, targets };
  for (const [space, command] of shortestPaths(legal.commands)) {
    reachable.set(space, { command, label: `${commandLabel(command, names)}: ${command.path.map(names).join(" → ")}` });
  }
  for (const command of legal.commands) {
    if (command.type === "Battle" && !targets.has(command.target)) targets.set(command.target, { command, label: commandLabel(command, names) });
  }
  return { reachable, targets };
}

function renderMiceBoard() {
  const s = page.state.state;
  const { reachable, targets } = moveTargets();
  const picture = renderBoard(page.board, {
    library: page.library, party: new Set(s.party || []), names, placements: placements(s), wounds: s.wounds || {}, effects: s.effects || {},
    reachable, targets, onCommand: send, version: page.state.version,
  });
  const box = $("board");
  const old = box.querySelector(".board-scroll");
  const scroll = old ? [old.scrollLeft, old.scrollTop] : [0, 0];
  clear(box).append(...zoomable(picture, page, () => {
    const zoomKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.zoom : null;
    renderMiceBoard();
    // the zoom button just pressed keeps the focus (the other way when it cannot go further)
    const again = box.querySelector(`[data-zoom="${zoomKey}"]:not([disabled])`) || box.querySelector("[data-zoom]:not([disabled])");
    if (zoomKey && again) again.focus({ preventScroll: true });
  }));
  const fresh = box.querySelector(".board-scroll");
  [fresh.scrollLeft, fresh.scrollTop] = scroll;
  if (!$("legend")) $("tracks").after(boardLegend());
}

function renderTracks() {
  clear($("tracks")).append(...trackFigures(page.board, el, names));
}

function renderInitiative() {
  const box = clear($("initiative"));
  box.append(el("h2", { text: "Initiative" }));
  const view = page.initiative;
  if (!view) return;
  if (!isMice() && page.view && page.view.renderInitiative) { page.view.renderInitiative(page, box); return; }
  if (!isMice()) { box.append(renderValue(view)); return; }
  if (!view.cards.length) { box.append(el("p", { class: "hint", text: "The track is not laid yet." })); return; }
  box.append(el("ol", { class: "initiative" }, view.cards.map((card) => el("li", {
    class: `${card.kind}${card.current ? " current" : ""}`, "data-card": card.card, "aria-current": card.current ? "step" : undefined,
  }, el("span", { class: "marker", text: card.current ? "▶ now" : "" }), el("span", { class: "name", text: card.name }),
  el("span", { class: "kind", text: card.kind }),
  card.kind === "minion" ? el("span", { class: "figs", text: card.figures.length ? card.figures.map(names).join(", ") : "none left" }) : null))));
}

function renderCards() {
  const s = page.state.state;
  const box = clear($("cards"));
  box.append(el("h2", { text: "Mice" }));
  const seats = new Map();
  for (const seat of page.game.seats) for (const piece of seat.controls) seats.set(piece, seat.name);
  const row = el("div", { class: "cards" });
  for (const mouse of s.party || []) {
    const info = page.mice.get(mouse) || { name: mouse, classes: [] };
    const wounds = (s.wounds || {})[mouse] || 0;
    const equipped = (s.equipped || {})[mouse];
    const gear = equipped ? equipped.map(([card, place]) => `${itemName(card)} (${place})`) : (info.starting_equipment || []).map(itemName);
    const pack = ((s.pack || {})[mouse] || []).map(itemName);
    const abilities = ((s.abilities || {})[mouse] || []).map((a) => (page.abilities.get(a) || { name: a }).name);
    const effects = (s.effects || {})[mouse] || [];
    const captured = (s.captured || []).includes(mouse);
    const isTurn = page.game.turn === mouse;
    row.append(el("article", { class: `card fig-${mouse}${isTurn ? " turn" : ""}`, "data-mouse": mouse, "aria-label": `${info.name}'s card` },
      el("h3", {}, info.name, isTurn ? el("span", { class: "badge", text: "turn" }) : null, captured ? el("span", { class: "badge warn", text: "captured" }) : null),
      el("p", { class: "meta", text: `${(info.classes || []).join(", ")} · seat ${seats.get(mouse) || "—"}` }),
      el("dl", { class: "stats" }, [["Battle", info.battle], ["Defense", info.defense], ["Lore", info.lore], ["Move", info.move],
        ["Wounds", `${wounds}/${info.lives ?? "?"}`], ["Cheese", (s.cheese || {})[mouse] || 0]].flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: String(v ?? "?") })])),
      el("p", {}, el("strong", { text: "Equipment: " }), gear.join(", ") || "none"),
      el("p", {}, el("strong", { text: "Pack: " }), pack.join(", ") || "empty"),
      el("p", {}, el("strong", { text: "Abilities: " }), abilities.join(", ") || "none"),
      effects.length ? el("p", { class: "effects" }, el("strong", { text: "Effects: " }), effects.join(", ")) : null));
  }
  box.append(row);
}

function renderGeneric() {
  clear($("tracks"));
  clear($("cards"));
  const box = clear($("board"));
  box.append(el("h3", { text: "Table" }));
  // The ruleset's own table module (GET /rulesets' ``table``; the generic one when it has none).
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
    await Promise.all([loadContent(), loadView(rulesets)]);
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
