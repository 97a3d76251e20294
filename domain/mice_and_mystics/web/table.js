// Mice and Mystics at the web table (docs/web-table.md, a table module): the board of room tiles
// (board.js) with the reachable spaces and the minions to battle ringed and played by clicking, the
// cheese wheel and the hourglass, each mouse's card, the initiative track, and the words of commands,
// dice, pending steps and decisions in players' words (labels.js, names from the content).

import { clear, content, el } from "/static/js/api.js";
import { boardFromState as boardOf, boardLegend, initiativeFromState as initiativeOf, renderBoard, trackFigures, zoomable } from "./board.js";
import {
  ACTION_DIE, commandLabel as commandWords, eventText as eventWords, faceIcon as faceIconOf, faceLabel as faceLabelOf,
  facesInLine, miceNames, pendingText as pendingWords,
} from "./labels.js";

const MICE = "mice-and-mystics";
const known = { library: new Map(), mice: new Map(), minions: new Map(), items: new Map(), abilities: new Map() };
let words = (x) => x;

// Figure -> space, from a state's board (space -> figures).
const placements = (s) => Object.fromEntries(Object.entries(s.board || {}).flatMap(([space, figs]) => figs.map((f) => [f, space])));

// The content the table names things with (tiles, mice, minions, cards, abilities), read once.
export async function load(api) {
  const [tiles, mice, minions, items, abilities, equipment] = await Promise.all([
    content(api, `/content/${MICE}/tiles`), content(api, `/content/${MICE}/mice`), content(api, `/content/${MICE}/minions`),
    content(api, `/content/${MICE}/search-cards`), content(api, `/content/${MICE}/abilities`),
    content(api, `/content/${MICE}/equipment`).catch(() => []),
  ]);
  known.library = new Map(tiles.map((t) => [t.id, t]));
  known.mice = new Map(mice.map((m) => [m.id, m]));
  known.minions = new Map(minions.map((m) => [m.id, m]));
  known.items = new Map([...equipment, ...items].map((c) => [c.id, c]));
  known.abilities = new Map(abilities.map((a) => [a.id, a]));
  words = miceNames({ mice: known.mice, minions: known.minions, items: known.items, abilities: known.abilities, tiles: known.library });
}

// Players' words for an id: Rat Warrior 1, Collin's Sword, Kitchen Tunnels · space 5.
export function pieceName(id) { return words(id); }
export function drawName(card) { return words(card); }

// The game's name, with the chapter at the table (``page`` is null in the lobby).
export function title(page) {
  const created = page && page.state ? page.state.state : null;
  return created && created.chapter ? `Mice and Mystics · ${created.chapter}` : "Mice and Mystics";
}

// The board and initiative views built from a state, while the read models trail the store.
export function boardFromState(state) { return boardOf(state, known.library); }
export function initiativeFromState(state) { return initiativeOf(state, words); }

export function pendingText(pending) { return pendingWords(pending, words); }

// A die face as the die shows it: the action die's symbols and printed number ("bow · 2"); a face
// sent by its name ("bow-star") is read back as its number first. ``pending``: the roll or the
// rolled dice, when known (the Grapes' throw is a coin flip: 2 sides).
export function faceLabel(face, sides, pending) {
  return faceLabelOf(typeof face === "number" ? face : faceNumber(face), sidesOf(sides, pending), true);
}
export function faceIcon(face, sides, pending) { return faceIconOf(face, sidesOf(sides, pending), true); }

const sidesOf = (sides, pending) => (pending && pending.reason === "grapes" ? 2 : sides);

// A command in words (the history page's turn: what each seat sent).
export function commandLabel(command) { return commandWords(command, words, false, true); }

// An event in one short line, in players' words (the history page); its payload is behind a toggle.
export function eventText(event) { return eventWords(event, words, true); }

// The game at a version on the history page: the board (its picture carries data-version), the
// cheese wheel and the hourglass, and the initiative track.
export function renderVersion(state, version, { board, tracks, initiative }) {
  const view = boardOf(state, known.library);
  clear(board).append(renderBoard(view, {
    library: known.library, party: new Set(state.party || []), names: words, placements: placements(state), wounds: state.wounds || {}, effects: state.effects || {}, version,
  }));
  clear(tracks).append(...trackFigures(view, el, words));
  const order = initiativeOf(state, words);
  const box = clear(initiative);
  box.append(el("h2", { text: `Initiative · round ${order.round}` }));
  if (!order.cards.length) { box.append(el("p", { class: "hint", text: "The track is not laid yet." })); return; }
  box.append(el("ol", { class: "initiative" }, order.cards.map((c) => el("li", { class: `${c.kind}${c.current ? " current" : ""}` },
    el("span", { class: "marker", text: c.current ? "▶ now" : "" }), el("span", { class: "name", text: c.name }), el("span", { class: "kind", text: c.kind })))));
}

// The name a Roll sends for a tapped face (Roll accepts "bow-star" as face 5), so the command says
// what the player saw; null for another die (a coin flip).
export function faceName(face, sides) { return sides === 6 && ACTION_DIE[face] ? ACTION_DIE[face].name : null; }

// The dice a log line names, drawn as the die shows them (the status' last roll and the log).
export function lineDice(line) { return facesInLine(line).map((f) => faceIconOf(f, 6, true)); }

// What the page says when its seat has nothing to play.
export function waitingText(page, names) {
  const turn = page.game.turn;
  return turn && known.minions.has(turn) ? `The minions play: ${names(turn)}.` : null;
}

// The Mice and Mystics board has no developer view under it.
export const developerView = false;

function faceNumber(name) {
  const found = Object.entries(ACTION_DIE).find(([, f]) => f.name === name);
  return found ? Number(found[0]) : name;
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

// The seat's legal commands: moves by destination (the shortest path), the others, then End turn.
export function renderCommands(page, { button }) {
  const commands = page.legal.commands;
  const part = el("div", { class: "commands" });
  const serverDice = page.game.dice_mode === "server";
  const moves = shortestPaths(commands);
  const others = commands.filter((c) => c.type !== "MoveTo" && c.type !== "EndTurn");
  const end = commands.filter((c) => c.type === "EndTurn");
  if (others.length) part.append(el("div", { class: "row wrap" }, others.map((c) => button(c, commandWords(c, words, serverDice)))));
  if (moves.size) {
    part.append(el("p", { class: "hint", text: "Move: click a highlighted space on the board, or a destination here." }));
    part.append(el("div", { class: "row wrap moves", role: "group", "aria-label": "Reachable spaces" },
      [...moves.values()].map((c) => button(c, `→ ${words(c.path[c.path.length - 1])}`, { class: "move", title: commandWords(c, words) }))));
  }
  if (end.length) part.append(el("div", { class: "row" }, end.map((c) => button(c, commandWords(c, words), { class: "end-turn" }))));
  return part;
}

function moveTargets(page) {
  const reachable = new Map();
  const targets = new Map();
  const legal = page.legal;
  if (!legal || legal.pending || page.busy) return { reachable, targets };
  for (const [space, command] of shortestPaths(legal.commands)) {
    reachable.set(space, { command, label: `${commandWords(command, words)}: ${command.path.map(words).join(" → ")}` });
  }
  for (const command of legal.commands) {
    if (command.type === "Battle" && !targets.has(command.target)) targets.set(command.target, { command, label: commandWords(command, words) });
  }
  return { reachable, targets };
}

function renderMiceBoard(page, box, tracks, send) {
  const s = page.state.state;
  const { reachable, targets } = moveTargets(page);
  const picture = renderBoard(page.board, {
    library: known.library, party: new Set(s.party || []), names: words, placements: placements(s), wounds: s.wounds || {}, effects: s.effects || {},
    reachable, targets, onCommand: send, version: page.state.version,
  });
  const old = box.querySelector(".board-scroll");
  const scroll = old ? [old.scrollLeft, old.scrollTop] : [0, 0];
  clear(box).append(...zoomable(picture, page, () => {
    const zoomKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.zoom : null;
    renderMiceBoard(page, box, tracks, send);
    // the zoom button just pressed keeps the focus (the other way when it cannot go further)
    const again = box.querySelector(`[data-zoom="${zoomKey}"]:not([disabled])`) || box.querySelector("[data-zoom]:not([disabled])");
    if (zoomKey && again) again.focus({ preventScroll: true });
  }));
  const fresh = box.querySelector(".board-scroll");
  [fresh.scrollLeft, fresh.scrollTop] = scroll;
  if (!document.getElementById("legend")) tracks.after(boardLegend());
}

function renderCards(page, box) {
  const s = page.state.state;
  box.append(el("h2", { text: "Mice" }));
  const seats = new Map();
  for (const seat of page.game.seats) for (const piece of seat.controls) seats.set(piece, seat.name);
  const row = el("div", { class: "cards" });
  for (const mouse of s.party || []) {
    const info = known.mice.get(mouse) || { name: mouse, classes: [] };
    const wounds = (s.wounds || {})[mouse] || 0;
    const equipped = (s.equipped || {})[mouse];
    const gear = equipped ? equipped.map(([card, place]) => `${words(card)} (${place})`) : (info.starting_equipment || []).map(words);
    const pack = ((s.pack || {})[mouse] || []).map(words);
    const abilities = ((s.abilities || {})[mouse] || []).map((a) => (known.abilities.get(a) || { name: a }).name);
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

// The board (with its zoom and legend), the cheese wheel and the hourglass, and the mice's cards.
export function renderTable(page, { board, tracks, cards, send }) {
  renderMiceBoard(page, board, tracks, send);
  tracks.append(...trackFigures(page.board, el, words));
  renderCards(page, cards);
}

// The initiative track: each card in turn order, the current one marked, a minion card's figures.
export function renderInitiative(page, box) {
  const view = page.initiative;
  if (!view.cards.length) { box.append(el("p", { class: "hint", text: "The track is not laid yet." })); return; }
  box.append(el("ol", { class: "initiative" }, view.cards.map((card) => el("li", {
    class: `${card.kind}${card.current ? " current" : ""}`, "data-card": card.card, "aria-current": card.current ? "step" : undefined,
  }, el("span", { class: "marker", text: card.current ? "▶ now" : "" }), el("span", { class: "name", text: card.name }),
  el("span", { class: "kind", text: card.kind }),
  card.kind === "minion" ? el("span", { class: "figs", text: card.figures.length ? card.figures.map(words).join(", ") : "none left" }) : null))));
}
