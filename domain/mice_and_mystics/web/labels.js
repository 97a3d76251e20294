// Words for commands, dice and events, as a person at the table reads them.

import { fieldsText } from "/static/js/generic.js";
import { svg } from "./board.js";

// The Mice and Mystics action die (DiceRolled.faces; docs/mice-and-mystics/facts.md §1), face by face
// as /content/mice-and-mystics/dice serves it: the printed symbols, the move number printed beside them,
// and the face's name a Roll may send (faces 2 and 4 both print 2: the symbols tell them apart).
export const ACTION_DIE = {
  1: { name: "cheese", words: "cheese", move: 1, marks: ["cheese"] },
  2: { name: "sword-star", words: "sword + star", move: 2, marks: ["sword", "star"] },
  3: { name: "sword-shield", words: "sword/shield", move: 3, marks: ["sword", "shield"] },
  4: { name: "bow", words: "bow", move: 2, marks: ["bow"] },
  5: { name: "bow-star", words: "bow + star", move: 1, marks: ["bow", "star"] },
  6: { name: "sword-shield-star", words: "sword/shield + star", move: 3, marks: ["sword", "shield", "star"] },
};

// A face in words: the action die's symbols and its printed number ("bow · 2"), or the number of
// another die (a coin flip).
export function faceLabel(face, sides, mice) {
  if (mice && sides === 6 && ACTION_DIE[face]) return `${ACTION_DIE[face].words} · ${ACTION_DIE[face].move}`;
  return String(face);
}

// The die faces a log line names (the server's words: "Rolled bow · 2, cheese · 1 for movement"), in order.
export function facesInLine(line) {
  const byWords = new Map(Object.entries(ACTION_DIE).map(([face, f]) => [`${f.words} · ${f.move}`, Number(face)]));
  const found = [];
  const pattern = /(sword\/shield \+ star|sword\/shield|sword \+ star|bow \+ star|bow|cheese) · ([123])/g;
  for (const match of String(line).matchAll(pattern)) {
    const face = byWords.get(`${match[1]} · ${match[2]}`);
    if (face) found.push(face);
  }
  return found;
}

// A face sent by its name (a Roll's "bow-star") in words.
export function faceByName(name) {
  const found = Object.entries(ACTION_DIE).find(([, f]) => f.name === name);
  return found ? faceLabel(Number(found[0]), 6, true) : String(name);
}

const MARKS = {
  cheese: () => svg("path", { d: "M3,17 L17,5 L21,17 Z M8,14 a1.6,1.6 0 1,0 0.1,0 M15,12 a1.4,1.4 0 1,0 0.1,0", class: "mark-cheese" }),
  sword: () => svg("path", { d: "M5,19 L17,7 M17,7 L19,3 L15,5 M7,13 L11,17 M4,20 L6,18", class: "mark-line" }),
  shield: () => svg("path", { d: "M12,3 L20,6 C20,13 17,18 12,21 C7,18 4,13 4,6 Z", class: "mark-shield" }),
  bow: () => svg("path", { d: "M6,3 C18,6 18,18 6,21 M6,3 L6,21 M4,12 L19,12 M16,10 L19,12 L16,14", class: "mark-line" }),
  star: () => svg("polygon", { points: "12,2 14.6,8.6 21.5,9 16.2,13.4 17.9,20.2 12,16.4 6.1,20.2 7.8,13.4 2.5,9 9.4,8.6", class: "mark-star" }),
};

// A die face as a small picture (Mice and Mystics action die), or its number.
export function faceIcon(face, sides, mice) {
  const root = svg("svg", { viewBox: `0 0 ${24 * 3} 24`, class: "die-icon", "aria-hidden": "true" });
  if (mice && sides === 6 && ACTION_DIE[face]) {
    const marks = ACTION_DIE[face].marks;
    marks.forEach((mark, i) => root.append(svg("g", { transform: `translate(${i * 24},0)` }, MARKS[mark]())));
    // the move number printed beside the symbols
    root.append(svg("text", { x: 24 * marks.length + 8, y: 18, "text-anchor": "middle", class: "die-number", text: String(ACTION_DIE[face].move) }));
    root.setAttribute("viewBox", `0 0 ${24 * marks.length + 16} 24`);
  } else {
    root.setAttribute("viewBox", "0 0 24 24");
    root.append(svg("text", { x: 12, y: 17, "text-anchor": "middle", class: "die-number", text: String(face) }));
  }
  return root;
}

function pretty(value, names = (x) => x) {
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? names(v) : pretty(v, names))).join(", ");
  if (typeof value === "string") return names(value);
  if (value && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function commandLabel(command, names = (x) => x, serverDice = false, mice = true) {
  const who = command.mouse ? names(command.mouse) : command.player || "";
  switch (command.type) {
    case "Begin": return "Begin the game";
    case "Move": return serverDice ? `${who}: roll to move` : `${who}: move (roll the die)`;
    case "MoveTo": return `${who}: move to ${names(command.path[command.path.length - 1])} (${command.path.length} step${command.path.length > 1 ? "s" : ""})`;
    case "EndTurn": return `${who}: end turn`;
    case "Battle": return `${who}: battle ${names(command.target)}`;
    case "Search": return `${who}: search`;
    case "Recover": return `${who}: recover`;
    case "Scurry": return `${who}: scurry`;
    case "Explore": return command.via === "flip" ? `${who}: explore (flip the board)` : `${who}: explore ${command.via}`;
    case "LeaveWater": return `${who}: leave the water to ${names(command.space)}`;
    case "LevelUp": return `${who}: level up (${names(command.ability)})`;
    case "Share": return `${who}: share with ${names(command.with_mouse)}${shareText(command, names)}`;
    case "Equip": return `${who}: equip ${[command.card, ...(command.cards || []).map((c) => c.card)].filter(Boolean).map(names).join(", ") || "—"}${command.unequip && command.unequip.length ? ` (unequip ${command.unequip.map(names).join(", ")})` : ""}`;
    case "Unequip": return `${who}: unequip ${names(command.card)}`;
    case "Roll": return `Roll ${command.faces.map((f) => (typeof f === "number" ? faceLabel(f, 6, mice) : faceByName(f))).join(", ")}`;
    case "Draw": return `Draw ${command.cards.map(names).join(", ")}`;
    case "Shuffle": return `Shuffle (${command.order.length} cards)`;
    case "Choose": return `Choose ${names(command.option)}`;
    case "RequestUndo": return `Ask to take back the moves after version ${command.to_version}`;
    case "ApproveUndo": return "Approve the undo";
    case "RejectUndo": return "Reject the undo";
    default: {
      const rest = Object.entries(command).filter(([k]) => k !== "type" && k !== "mouse" && k !== "player");
      const tail = rest.map(([k, v]) => `${k.replace(/_/g, " ")} ${pretty(v, names)}`).join(", ");
      const type = command.type.replace(/^[a-z]+\./, "");
      return `${who ? `${who}: ` : ""}${type}${tail ? ` (${tail})` : ""}`;
    }
  }
}

function shareText(c, names) {
  const parts = [];
  if (c.card) parts.push(`give ${names(c.card)}`);
  if (c.give && c.give.length) parts.push(`give ${c.give.map(names).join(", ")}`);
  if (c.take && c.take.length) parts.push(`take ${c.take.map(names).join(", ")}`);
  if (c.cheese) parts.push(`give ${c.cheese} cheese`);
  if (c.take_cheese) parts.push(`take ${c.take_cheese} cheese`);
  return parts.length ? `: ${parts.join(", ")}` : "";
}

// A decision in words ("choose the boss wound").
function decisionWords(decision) {
  return `choose the ${String(decision).replace(/[-:]/g, " ")}`;
}

export function pendingText(pending, names = (x) => x) {
  if (!pending) return "";
  const who = pending.piece ? `${names(pending.piece)}: ` : "";
  switch (pending.type) {
    case "RollRequested": return `${who}roll ${pending.dice} ${pending.sides && pending.sides !== 6 ? `d${pending.sides}` : "di" + (pending.dice > 1 ? "ce" : "e")} for ${reasonWords(pending.reason)}`;
    case "ShuffleRequested": return `shuffle ${pending.cards.length} cards for ${reasonWords(pending.reason)}`;
    case "DrawRequested": return `${who}draw ${pending.count || 1} card${(pending.count || 1) > 1 ? "s" : ""} from the ${String(pending.deck).replace(/-/g, " ")} deck (${reasonWords(pending.reason)})`;
    case "DecisionRequested": return `${who}${decisionWords(pending.decision)}`;
    default: return pending.type;
  }
}

// A roll's, shuffle's or draw's reason in words (as the server's log says it: words.py REASONS).
const REASONS = {
  move: "movement", "minion-move": "the minions' movement", "minion-attack": "the minions' attack",
  "minion-defense": "the minion's defence", defense: "defence", "search-discard": "a search (discard)",
  "special-search": "a special search", "time-passes": "time passing", "kitchen-counter": "the Kitchen counter",
  "born-to-lead": "Born to Lead", grapes: "the Grapes' throw",
};
export function reasonWords(reason) {
  return REASONS[reason] || String(reason).replace(/-/g, " ");
}

// An event in one short line: its type and its fields in words; a long list is counted, not listed
// (a DrawRequested names up to 64 cards); the whole payload is for a toggle (payloadText).
export function eventText(event, names = (x) => x, mice = true) {
  if (event.hidden || !event.payload) return `${event.type} (hidden from you)`;
  const p = event.payload;
  if (event.type === "DiceRolled") return `Rolled ${p.faces.map((f) => faceLabel(f, p.reason === "grapes" ? 2 : 6, mice)).join(", ")} for ${reasonWords(p.reason)}`;
  if (event.type === "CardsDrawn") return `Drew ${p.cards.map(names).join(", ")} from the ${String(p.deck).replace(/-/g, " ")} deck`;
  if (event.type === "CardsShuffled") return `Shuffled ${p.order ? p.order.length : ""} cards for ${reasonWords(p.reason)}`;
  if (event.type === "DecisionMade") return `Seat ${p.by} chose ${names(p.option)} (${String(p.decision).replace(/[-:]/g, " ")})`;
  if (event.type === "CommandAccepted" && p.command) return `Command: ${commandLabel(p.command, names, false, mice)}`;
  if (["RollRequested", "DrawRequested", "ShuffleRequested", "DecisionRequested"].includes(event.type)) {
    return `Asked: ${pendingText({ ...p, type: event.type }, names)}`;
  }
  if (event.type === "ChapterStoryRead") return p.part === "opening" ? "The chapter's opening is read aloud" : "The story continues (read aloud)";
  return fieldsText(event, names);
}

// The whole payload of an event, pretty-printed (behind a toggle in the dispute view).
export function payloadText(event) {
  return event.hidden || !event.payload ? "(hidden from you)" : JSON.stringify(event.payload, null, 1);
}

// A minion card's name for one of its figures: "Rat Warriors" -> "Rat Warrior", "Roaches" -> "Roach".
export function singular(name) {
  if (name.endsWith("ches")) return name.slice(0, -2);
  if (name.endsWith("s") && !name.endsWith("'s")) return name.slice(0, -1);
  return name;
}

// Players' words for Mice and Mystics ids, from the content (as the server's log words them:
// domain/mice_and_mystics/words.py): a mouse, a minion card, a figure ("rat-warriors-1" -> "Rat Warrior 1"),
// a space ("KT-5" -> "Kitchen Tunnels · space 5"), a search, equipment or ability card by its printed name.
// An id the content does not know stays as it is.
export function miceNames({ mice = new Map(), minions = new Map(), items = new Map(), abilities = new Map(), tiles = new Map() } = {}) {
  const spaceTile = new Map();
  for (const tile of tiles.values()) for (const space of tile.spaces || []) spaceTile.set(space.id, tile);
  return (id) => {
    if (id === null || id === undefined) return "";
    const key = String(id);
    const known = mice.get(key) || minions.get(key) || items.get(key) || abilities.get(key);
    if (known) return known.name;
    const tile = spaceTile.get(key);
    if (tile) return `${tile.name} · space ${key.split("-").pop()}`;
    const match = key.match(/^(.*)-(\d+)$/);
    if (match && minions.get(match[1])) return `${singular(minions.get(match[1]).name)} ${match[2]}`;
    return key;
  };
}
