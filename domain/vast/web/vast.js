// Vast: The Crystal Caverns at the web table (docs/web-table.md, a table module): the cave drawn as
// tiles on a scalable SVG from GET /games/{id}/board (a VastBoard, as this page's reader may see it: a
// Dark tile shows its Tribe symbol, and what it hides only to the Cave, and to the Thief for the tiles
// he looked at), with coordinates; the legal commands of GET /legal-commands that name a tile are
// drawn on it and played by clicking it (or Tab and Enter); each role's player board from
// GET /initiative, what the reader may not see drawn face down ("?" in the views). North is up.

import { el } from "/static/js/api.js";

const NS = "http://www.w3.org/2000/svg";
const S = 100; // one tile, in SVG units
export const ROLE = { knight: "Knight", goblins: "Goblins", dragon: "Dragon", cave: "Cave", thief: "Thief" };
const ROOM = { ambush: "Ambush", event: "Event", "treasure-room": "Treasure Room", crystal: "Crystal", vault: "Vault", entrance: "Entrance" };
const TRIBE = { fangs: "Fangs", bones: "Bones", eye: "Eye" };
const TRIBE_MARK = { fangs: "▼▼", bones: "✕", eye: "◉" };
const SIDE = { N: "north", E: "east", S: "south", W: "west" };
const CUBE = { movement: "Movement", perception: "Perception", strength: "Strength", map: "the Map", bomb: "a Bomb", shield: "the Shield", bow: "the Enchanted Bow", sword: "the Sword" };
const SLOTH = { greed: "Greed", hunger: "Hunger", "pride-events": "Pride (Events)", "pride-still": "Pride (still)", "pride-gem": "Pride (Gem)" };
// The Thief's Upgrade spaces (Vast rulebook §Migliorie).
const UPGRADE = {
  "sticky-fingers": "Sticky Fingers", "lock-picking-kit": "Lock Picking Kit", "climbing-gear": "Climbing Gear",
  "hand-crossbow": "Hand Crossbow", "unnatural-evasion": "Unnatural Evasion", "movement+1": "Movement +1",
  "stealth+1": "Stealth +1", "thievery+1": "Thievery +1", "flip-2": "Flip Stat Tokens (2 to 3)",
  "flip-3": "Flip Stat Tokens (3 to 4)", "all-4": "Flip Stat Tokens (all 4)",
};
// The Dragon die's faces by their printed pattern (docs/vast/facts.md §4; GET /content/vast/dragon-die).
const DRAGON_DIE = { 1: "centre", 2: "diamond", 3: "cross", 4: "corners", 5: "saltire", 6: "all around" };

const content = { cards: new Map(), tiles: new Map(), monsters: new Map(), dragonDie: new Map(), loaded: null };
const ui = { tile: null, focus: null, board: null, zoom: 1, legend: false };
// A tile's walls in its base orientation, by wall shape (docs/vast/facts.md §1 Cave tiles; HRF's names), and
// the sides in clockwise order: a tile turned r quarters clockwise has each wall r sides further on.
const BASE_WALLS = { open: [], side: ["N"], corner: ["N", "E"], tunnel: ["N", "S"], deadend: ["N", "E", "W"] };
const TURN = ["N", "E", "S", "W"];
const turnedWalls = (shape, quarters) => (BASE_WALLS[shape] || []).map((s) => TURN[(TURN.indexOf(s) + quarters) % 4]);

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) node.append(c);
  return node;
}

const cap = (s) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
const at = (x, y) => `tile ${x},${y}`;
export function cardName(id) {
  if (id === "?") return "a face-down card";
  const known = content.cards.get(id) || content.monsters.get(id);
  return known ? known.name : String(id).replace(/-/g, " ").replace(/^\w/, (c) => c.toUpperCase());
}
function tileName(id) {
  if (!id || id === "?") return "a face-down tile";
  const tile = content.tiles.get(id);
  const kind = tile ? ROOM[tile.kind] || tile.kind : null;
  const number = String(id).match(/-(\d+)$/);
  return kind ? `${kind}${number ? ` ${Number(number[1])}` : ""}${tile.symbol ? ` (${TRIBE[tile.symbol]})` : ""}` : id;
}

// The content this page names cards, tiles and Monsters with (public, fetched once).
export function load(api) {
  if (!document.querySelector("link[data-vast]")) {
    document.head.append(el("link", { rel: "stylesheet", href: "/web/rulesets/vast/vast.css", "data-vast": "true" }));
  }
  if (!content.loaded) {
    content.loaded = Promise.all(["cards", "tiles", "monsters", "dragon-die"].map((k) => api.get(`/content/vast/${k}`).catch(() => [])))
      .then(([cards, tiles, monsters, die]) => {
        content.dragonDie = new Map(die.map((f) => [f.face, f.tiles]));
        content.cards = new Map(cards.map((c) => [c.id, c]));
        content.tiles = new Map(tiles.map((t) => [t.id, t]));
        content.monsters = new Map(monsters.map((m) => [m.id, m]));
      });
  }
  return content.loaded;
}

export function title() { return "Vast: The Crystal Caverns"; }

// The end of the game in words ("won:thief" -> "The Thief wins", "won:goblins" -> "The Goblins win").
export function resultText(result) {
  const [kind, who] = String(result || "").split(":");
  if (kind === "won" && ROLE[who]) return `The ${ROLE[who]} ${who === "goblins" ? "win" : "wins"}`;
  if (kind === "won" && who) return `${cap(who)} wins`;
  return cap(String(result || "").replace(/[-:]/g, " "));
}

// A die face as the die shows it: the Dragon die's pattern of tiles round the one it is rolled for (a 3x3
// grid; docs/vast/facts.md §4), other dice by their number.
export function faceIcon(face, sides, pending) {
  const root = svg("svg", { viewBox: "0 0 24 24", class: "die-icon", "aria-hidden": "true" });
  const pattern = isDragonRoll(pending) ? content.dragonDie.get(face) : null;
  if (!pattern) {
    root.append(svg("text", { x: 12, y: 17, "text-anchor": "middle", class: "die-number", text: String(face) }));
    return root;
  }
  const on = new Set(pattern.map(([dx, dy]) => `${dx},${dy}`));
  for (let dy = 1; dy >= -1; dy -= 1) {
    for (let dx = -1; dx <= 1; dx += 1) {
      root.append(svg("rect", { x: 1 + (dx + 1) * 7.5, y: 1 + (1 - dy) * 7.5, width: 6.5, height: 6.5, rx: 1, class: on.has(`${dx},${dy}`) ? "die-on" : "die-off" }));
    }
  }
  return root;
}

// The dice a log line of a roll names, drawn as the die shows them (the log and the status' last roll): the
// server's words "Dragon die (<reason>): <pattern>" (domain/vast/read_models.py, the patterns' names of
// cave.DRAGON_DIE) draw that face's pattern of tiles, "Action die (<roll>): <n>" its number.
const DRAGON_FACE_BY_NAME = { center: 1, diamond: 2, cross: 3, corners: 4, saltire: 5, around: 6 };
export function lineDice(line) {
  const dragon = String(line).match(/^Dragon die \(.*\): (\w+)$/);
  if (dragon && DRAGON_FACE_BY_NAME[dragon[1]]) return [faceIcon(DRAGON_FACE_BY_NAME[dragon[1]], 6, { reason: "dragon" })];
  const action = String(line).match(/^Action die \(.*\): (\d)$/);
  return action ? [faceIcon(Number(action[1]), 6, null)] : [];
}

function isDragonRoll(pending) {
  return Boolean(pending) && /^(flare|goblin-flare|thief-flare|gem|thief-gem|power|dragon)/.test(String(pending.reason || ""));
}

// A legal command in players' words (card and tile names from the content, places as coordinates).
export function commandLabel(c) {
  const who = ROLE[String(c.type).startsWith("vast.") ? roleOf(c) : ""] || "";
  const where = c.x !== undefined && c.x !== null ? ` at ${c.x},${c.y}` : "";
  switch (c.type) {
    case "Choose": return `${c.x},${c.y}: ${c.why}`;
    case "vast.PlaceHeroCube": return `Hero cube on ${CUBE[c.target] || c.target}`;
    case "vast.MoveKnight": return `Move to ${c.x},${c.y}`;
    case "vast.SmashCrystal": return "Smash the Crystal";
    case "vast.CollectTreasure": return "Collect the Treasure";
    case "vast.CompleteSidequest": return `Complete the Sidequest ${cardName(c.card)}`;
    case "vast.UseBomb": return `Bomb the ${SIDE[c.side] || c.side} wall`;
    case "vast.UseFlare": return `Flare${where}`;
    case "vast.UseBow": return `Shoot the ${TRIBE[c.tribe]} Tribe with the Enchanted Bow`;
    case "vast.AttackDragon": return `Attack the Dragon${c.bomb ? " with a Bomb" : ""}${c.with_javelin ? " with the Javelin" : ""}`;
    case "vast.ShootDragon": return "Shoot the Dragon";
    case "vast.EndTurn": return `End the ${ROLE[c.role] || c.role}'s turn`;
    case "vast.MoveDragon": return `Move the Dragon to ${c.x},${c.y}`;
    case "vast.UsePower": return `Power: ${cardName(c.power)}${where}${c.tribe ? ` on the ${TRIBE[c.tribe]} Tribe` : ""}${c.token ? ` (${c.token})` : ""}${c.source ? ` from ${SLOTH[c.source] || c.source}` : ""}${c.target ? ` to ${SLOTH[c.target] || c.target}` : ""}`;
    case "vast.DragonCollect": return "Collect the Treasure";
    case "vast.PlaceGem": return `Place the ${cap(c.gem)} Gem`;
    case "vast.PlaceTile": return `Place ${tileName(c.tile)}${where}`;
    case "vast.RemoveTile": return `Remove the tile${where}`;
    case "vast.PlaceTreasure": return `Treasure token${where}`;
    case "vast.SoporificSpores": return `Omen: Soporific Spores on the ${ROLE[c.target || "knight"]}`;
    case "vast.GiantBats": return `Omen: Giant Bats carry ${c.target in TRIBE ? `the ${TRIBE[c.target]} Tribe` : `the ${c.target}`}${c.from_x !== null && c.from_x !== undefined ? ` from ${c.from_x},${c.from_y}` : ""} to ${c.x},${c.y}`;
    case "vast.CrystalCurse": return c.effect === "rotate" ? `Omen: Crystal Curse turns the tile at ${c.x},${c.y} ${c.clockwise ? "clockwise" : "anticlockwise"}` : c.effect === "event-token" ? `Omen: Crystal Curse, Event token${where}` : "Omen: Crystal Curse, the top 3 Events to the bottom";
    case "vast.Hatred": return `Omen: Hatred${where}${c.tile ? ` (${tileName(c.tile)})` : ""}`;
    case "vast.PastPlunder": return `Omen: Past Plunder${where}`;
    case "vast.Rockslide": return `Omen: Rockslide on the ${SIDE[c.side]} edge of ${c.x},${c.y}`;
    case "vast.ActivateTribe": return `Activate the ${TRIBE[c.tribe]} Tribe: ${c.action === "none" ? "no action" : c.action}${where}${c.ex !== null && c.ex !== undefined ? ` to ${c.ex},${c.ey}` : ""}`;
    case "vast.PlaySecret": return `Play the Secret ${cardName(c.card)}${c.tribe ? ` on the ${TRIBE[c.tribe]} Tribe` : ""}`;
    case "vast.TribeFlare": return `Flare of the ${TRIBE[c.tribe]} Tribe`;
    case "vast.WispMove": return `The ${TRIBE[c.tribe]} Tribe's Wisp moves the Knight to ${c.x},${c.y}`;
    case "vast.AttackThief": return "Attack the Thief";
    case "vast.ShootThief": return "Shoot the Thief with the Enchanted Bow";
    case "vast.MoveThief": return `Move to ${c.x},${c.y}${c.climb ? " (climb the wall)" : ""}`;
    case "vast.PeekTile": return "Look at the Dark tile here";
    case "vast.Loot": return c.gem ? `Loot the ${cap(c.gem)} Gem (${c.cubes || 1} cube${(c.cubes || 1) > 1 ? "s" : ""})` : "Loot the Treasure token";
    case "vast.Pickpocket": return `Pickpocket the ${cap(c.target)} (${c.cubes} cube${c.cubes > 1 ? "s" : ""})`;
    case "vast.PickLock": return `Pick the Lock (${c.cubes} cube${c.cubes > 1 ? "s" : ""})`;
    case "vast.Backstab": return `Backstab the ${cap(c.target)} (${c.cubes} cube${c.cubes > 1 ? "s" : ""})`;
    case "vast.HideLoot": return `Hide Loot (${c.cubes} cube${c.cubes > 1 ? "s" : ""})`;
    case "vast.ThiefFlare": return "Flare on his tile";
    default: return `${who ? `${who}: ` : ""}${String(c.type).replace(/^vast\./, "").replace(/([a-z])([A-Z])/g, "$1 $2")}`;
  }
}

function roleOf(c) {
  const t = c.type;
  if (c.role) return c.role;
  if (/Dragon|Power|Gem/.test(t) && !/Attack|Shoot/.test(t)) return "dragon";
  if (/Thief|Loot|Pick|Backstab|Peek/.test(t) && !/Attack|Shoot/.test(t)) return "thief";
  if (/Tribe|Secret|Wisp/.test(t)) return "goblins";
  if (/Tile|Treasure$|Spores|Bats|Curse|Hatred|Plunder|Rockslide/.test(t) && t !== "vast.CollectTreasure") return "cave";
  return "knight";
}

// A decision's option in words ("" when the decision gives it no meaning of its own).
export function optionText(decision, option) {
  const kind = String(decision || "").split(":")[0];
  if (kind === "orient") {
    const walls = orientWalls(decision, option);
    const turn = Number(option) ? `Turn it ${option} quarter${Number(option) === 1 ? "" : "s"} clockwise` : "As printed";
    return walls ? `${turn}: ${walls.length ? `walls ${walls.map((w) => SIDE[w]).join(", ")}` : "no walls"}` : turn;
  }
  if (kind === "thief-stats") { const [m, s, t] = String(option).split("-"); return `Movement ${m} · Stealth ${s} · Thievery ${t}`; }
  if (kind === "upgrade" || kind === "spores-upgrade") return UPGRADE[option] || "";
  if (content.cards.has(option) || content.monsters.has(option)) return cardName(option);
  if (TRIBE[option]) return `the ${TRIBE[option]} Tribe`;
  return "";
}

// The walls of the tile an orient decision is about ("orient:x,y"), turned by the option's quarter turns;
// null when this page does not know the tile.
function orientWalls(decision, option, board = ui.board) {
  const cell = orientCell(decision, board);
  const tile = cell && content.tiles.get(cell.tile);
  return tile ? turnedWalls(tile.shape, Number(option)) : null;
}
function orientCell(decision, board) {
  const m = String(decision || "").match(/^orient:(-?\d+),(-?\d+)$/);
  return m && board ? (board.cells || []).find((c) => c.x === Number(m[1]) && c.y === Number(m[2])) : null;
}

// An orient decision's option as the tile would lie: the tile with its walls turned, and the edges of its
// neighbours on the cave (their walls that face it), so the player sees which way it opens.
export function optionIcon(pending, option, page) {
  if (!pending || !String(pending.decision || "").startsWith("orient:")) return null;
  const board = page.board || ui.board;
  ui.board = board; // the option's words (optionText, drawn next) name the same walls
  const cell = orientCell(pending.decision, board);
  const walls = orientWalls(pending.decision, option, board);
  if (!cell || !walls) return null;
  const T = 32;
  const root = svg("svg", { viewBox: `-12 -12 ${T + 24} ${T + 24}`, class: "orient-icon", "aria-hidden": "true", "data-walls": walls.join("") });
  const edge = (x0, y0, side) => ({ N: [x0, y0, x0 + T, y0], S: [x0, y0 + T, x0 + T, y0 + T], W: [x0, y0, x0, y0 + T], E: [x0 + T, y0, x0 + T, y0 + T] })[side];
  const STEP = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
  const FACING = { N: "S", E: "W", S: "N", W: "E" };
  for (const side of TURN) {
    const [dx, dy] = STEP[side];
    const near = (board.cells || []).find((c) => c.x === cell.x + dx && c.y === cell.y + dy);
    if (!near) continue;
    const x0 = dx * T;
    const y0 = -dy * T;
    root.append(svg("rect", { x: x0 + 1, y: y0 + 1, width: T - 2, height: T - 2, class: `tile ${near.side || "dark"}` }));
    if ((near.walls || []).includes(FACING[side])) {
      const [a, b, c, d] = edge(x0, y0, FACING[side]);
      root.append(svg("line", { x1: a, y1: b, x2: c, y2: d, class: "wall near" }));
    }
  }
  root.append(svg("rect", { x: 1, y: 1, width: T - 2, height: T - 2, rx: 2, class: `tile lit ${cell.kind || ""}` }));
  for (const side of walls) {
    const [a, b, c, d] = edge(0, 0, side);
    root.append(svg("line", { x1: a, y1: b, x2: c, y2: d, class: "wall" }));
  }
  return root;
}

// A die face as printed: the Dragon die by its pattern (docs/vast/facts.md §4), other dice by number.
export function faceLabel(face, sides, pending) {
  const dragon = isDragonRoll(pending);
  return dragon && DRAGON_DIE[face] ? `${face} · ${DRAGON_DIE[face]}` : String(face);
}

// A command played by clicking a place of the cave: one that names a tile or an open place. The Crystal
// Curse that sends the top 3 Events to the bottom names none (its x, y are the command's defaults): a button.
function onTheCave(c) {
  if (c.x === undefined || c.x === null) return false;
  return c.type !== "vast.CrystalCurse" || c.effect === "rotate" || c.effect === "event-token";
}

// Commands that name a tile (or an open place next to the cave), by "x,y".
function targets(page) {
  const out = new Map();
  const legal = page.legal;
  if (!legal || page.busy || page.game.result) return out;
  if (legal.pending) {
    // A decision whose options are places ("x,y") is answered by clicking the place.
    const pending = legal.pending;
    const mine = !legal.pending_seat || legal.pending_seat === legal.seat;
    if (pending.type !== "DecisionRequested" || !mine) return out;
    for (const option of pending.options) {
      const m = String(option).match(/^(-?\d+),(-?\d+)$/);
      if (!m) continue;
      const key = `${Number(m[1])},${Number(m[2])}`;
      if (!out.has(key)) out.set(key, []);
      out.get(key).push({ type: "Choose", option, x: Number(m[1]), y: Number(m[2]), why: pendingText(pending) });
    }
    return out;
  }
  // A tile picked from the hand that can no longer be placed (placed, or another turn) is put back.
  if (ui.tile && !legal.commands.some((c) => c.type === "vast.PlaceTile" && c.tile === ui.tile)) ui.tile = null;
  for (const c of legal.commands) {
    if (!onTheCave(c)) continue;
    // A tile picked from the hand: only its open places are offered, until it is placed or put back.
    if (ui.tile && (c.type !== "vast.PlaceTile" || c.tile !== ui.tile)) continue;
    const key = `${c.x},${c.y}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(c);
  }
  return out;
}

function tileShape(c, x0, y0) {
  const side = c.side || "dark";
  const parts = [svg("rect", { x: x0 + 2, y: y0 + 2, width: S - 4, height: S - 4, rx: 6, class: `tile ${side}${c.kind ? ` ${c.kind}` : ""}` })];
  const walls = new Set(c.walls || []);
  const edge = { N: [x0, y0, x0 + S, y0], S: [x0, y0 + S, x0 + S, y0 + S], W: [x0, y0, x0, y0 + S], E: [x0 + S, y0, x0 + S, y0 + S] };
  for (const [s, [a, b, cc, d]] of Object.entries(edge)) if (walls.has(s)) parts.push(svg("line", { x1: a, y1: b, x2: cc, y2: d, class: "wall" }));
  return parts;
}

function marks(c, board, initiative) {
  const out = [];
  const add = (cls, text, label) => out.push({ cls, text, label });
  if ((c.pieces || []).includes("knight")) add("piece knight", "K", "the Knight");
  if ((c.pieces || []).includes("dragon")) add(`piece dragon${board.dragon === "surfaced" ? " surfaced" : ""}`, "D", `the Dragon${board.dragon ? ` (${board.dragon})` : ""}`);
  if ((c.pieces || []).includes("thief")) add("piece thief", "T", thiefTitle(initiative && initiative.thief));
  for (const tribe of (board.tribes || []).filter((t) => t.where === "map" && t.x === c.x && t.y === c.y)) {
    add(`piece tribe ${tribe.name}`, `${TRIBE[tribe.name][0]}${tribe.population}`, `the ${TRIBE[tribe.name]} Tribe, Population ${tribe.population}`);
  }
  if (c.crystal) add("token crystal", "◆", "a Crystal");
  if (c.treasure) add("token treasure", `$${c.treasure > 1 ? c.treasure : ""}`, `${c.treasure} Treasure token${c.treasure > 1 ? "s" : ""}`);
  for (const gem of c.gems || []) add(`token gem ${gem}`, "✦", `the ${cap(gem)} Gem`);
  if (c.vault) add("token vault", "V", "a Vault token");
  if (c.event_token) add("token event", "!", "an Event token");
  if (c.flame_wall) add("token flame-wall", "🔥", "the Flame Wall");
  return out;
}

// The Thief's piece: his public track in one line.
function thiefTitle(track) {
  if (!track) return "the Thief";
  const carried = [track.carried ? `${track.carried} Treasure token${track.carried > 1 ? "s" : ""}` : "", ...(track.gems || []).map((g) => `the ${cap(g)} Gem`)].filter(Boolean);
  return `the Thief: Movement ${track.movement}, Stealth ${track.stealth}, Thievery ${track.thievery}; carrying ${carried.length ? carried.join(", ") : "nothing"}; Loot Drop ${track.loot_drop}; stashed ${track.stashed} of ${track.stash_goal || 6}`;
}

function cellLabel(c, list) {
  const what = c.side === "dark"
    ? `Dark tile (${TRIBE[c.symbol] || "?"})${c.kind ? `, hiding ${ROOM[c.kind] || c.kind}` : ""}`
    : c.side === "entrance" ? "the Entrance" : `${ROOM[c.kind] || c.kind || "Lit"} room`;
  const walls = (c.walls || []).length ? `; walls ${(c.walls || []).map((w) => SIDE[w]).join(", ")}` : "";
  return `${c.x},${c.y}: ${what}${walls}${list.length ? `; ${list.map((m) => m.label).join(", ")}` : ""}`;
}

// A click's command as the API takes it (a place answering a decision is a bare Choose).
const bare = (c) => (c.type === "Choose" ? { type: "Choose", option: c.option } : c);

function activate(node, key, label, run) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.dataset.key = key;
  node.addEventListener("click", run);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); run(); } });
}

// The cave: a scalable SVG of its tiles, with coordinates, and the legal targets to click.
export function renderCave(page, { send, choose }) {
  const board = page.board || { cells: [] };
  ui.board = page.board;
  const cells = board.cells || [];
  const figure = el("figure", { class: "vast-cave", "aria-label": "The cave" });
  const open = targets(page);
  const xs = [...cells.map((c) => c.x), ...[...open.keys()].map((k) => Number(k.split(",")[0]))];
  const ys = [...cells.map((c) => c.y), ...[...open.keys()].map((k) => Number(k.split(",")[1]))];
  if (!xs.length) { figure.append(el("p", { class: "hint", text: "The cave is not laid yet." })); return figure; }
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const pad = 24;
  const root = svg("svg", {
    class: "vast-map", viewBox: `${minX * S - pad} ${-maxY * S - pad} ${(maxX - minX + 1) * S + 2 * pad} ${(maxY - minY + 1) * S + 2 * pad}`,
    role: "group", "aria-label": `The cave: ${cells.length} tiles${open.size ? `, ${open.size} places you may click` : ""}`,
  });
  root.style.setProperty("--cols", String(maxX - minX + 1));
  for (const c of cells) {
    const x0 = c.x * S;
    const y0 = -c.y * S;
    const list = marks(c, board, page.initiative);
    const key = `${c.x},${c.y}`;
    const g = svg("g", { class: `vast-cell ${c.side}${c.kind ? ` ${c.kind}` : ""}`, "data-x": c.x, "data-y": c.y, "data-tile": c.tile !== "?" ? c.tile : null });
    // What is drawn is told by the tile's label: the picture itself is hidden from assistive technology.
    const picture = svg("g", { "aria-hidden": "true" }, tileShape(c, x0, y0));
    g.append(picture);
    const room = c.side === "dark" ? `${TRIBE_MARK[c.symbol] || "?"}` : (ROOM[c.kind] || "");
    const words = room.split(" ");
    const label2 = words.length > 1 ? [words.slice(0, -1).join(" "), words[words.length - 1]] : [room];
    picture.append(svg("text", { x: x0 + S / 2, y: y0 + (label2.length > 1 ? 20 : c.side === "dark" && c.kind ? 22 : 26), class: "room", "text-anchor": "middle" },
      label2.map((w, i) => svg("tspan", { x: x0 + S / 2, dy: i ? 14 : 0, text: w }))));
    // what a Dark tile hides (on the pages that may know it): in brackets, a line a word, inside the tile
    if (c.side === "dark" && c.kind) {
      const hidden = `(${ROOM[c.kind] || c.kind})`.split(" ");
      picture.append(svg("text", { x: x0 + S / 2, y: y0 + (hidden.length > 1 ? 37 : 42), class: "hidden-room", "text-anchor": "middle" },
        hidden.map((w, i) => svg("tspan", { x: x0 + S / 2, dy: i ? 12 : 0, text: w }))));
    }
    picture.append(svg("text", { x: x0 + 6, y: y0 + S - 6, class: "coord", text: key }));
    list.forEach((m, i) => {
      const cx = x0 + 22 + (i % 4) * 19;
      const cy = y0 + 60 + Math.floor(i / 4) * 20;
      picture.append(svg("g", { class: m.cls }, svg("title", { text: m.label }), svg("circle", { cx, cy, r: 9 }), svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", text: m.text })));
    });
    const label = cellLabel(c, list);
    g.append(svg("title", { text: label }));
    const deciding = page.game.pending && page.game.pending.type === "DecisionRequested" && String(page.game.pending.decision || "").endsWith(`:${key}`);
    if (deciding) picture.append(svg("rect", { x: x0 + 3, y: y0 + 3, width: S - 6, height: S - 6, rx: 7, class: "deciding-ring" }));
    g.setAttribute("aria-label", label);
    g.setAttribute("role", "img");
    root.append(g);
    // A legal target: a ring over the tile, a button of its own (its name says the command and the tile).
    const here = open.get(key);
    if (here) {
      const hit = svg("g", { class: "target", "data-x": c.x, "data-y": c.y },
        svg("rect", { x: x0 + 5, y: y0 + 5, width: S - 10, height: S - 10, rx: 8, class: "target-ring" }));
      activate(hit, `cell:${key}`, `${here.length === 1 ? commandLabel(here[0]) : `${here.length} choices`} (${label})`, () => (here.length === 1 ? send(bare(here[0])) : choose(here, key)));
      root.append(hit);
    }
  }
  // Open places the cave may grow to (a tile placed, a Wisp's move...).
  const known = new Set(cells.map((c) => `${c.x},${c.y}`));
  for (const [key, list] of open) {
    if (known.has(key)) continue;
    const [x, y] = key.split(",").map(Number);
    root.append(svg("text", { x: x * S + S / 2, y: -y * S + S / 2 + 5, "text-anchor": "middle", class: "coord", "aria-hidden": "true", text: key }));
    const g = svg("g", { class: "vast-open target", "data-x": x, "data-y": y },
      svg("rect", { x: x * S + 6, y: -y * S + 6, width: S - 12, height: S - 12, rx: 8, class: "open-place" }));
    activate(g, `cell:${key}`, `${list.length === 1 ? commandLabel(list[0]) : `${list.length} choices at ${key}`}`, () => (list.length === 1 ? send(bare(list[0])) : choose(list, key)));
    root.append(g);
  }
  for (const [kind, edges] of [["rockslide", board.rockslides || []], ["bomb", board.bombs || []]]) {
    for (const [x, y, side] of edges) {
      const cx = x * S + S / 2 + ({ E: S / 2, W: -S / 2 }[side] || 0);
      const cy = -y * S + S / 2 + ({ N: -S / 2, S: S / 2 }[side] || 0);
      root.append(svg("g", { class: `edge ${kind}`, role: "img", "aria-label": `${kind === "bomb" ? "A Bomb" : "A Rockslide"} on the ${SIDE[side]} edge of ${x},${y}` },
        svg("rect", { x: cx - 12, y: cy - 12, width: 24, height: 24, rx: 4 }), svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", text: kind === "bomb" ? "B" : "R" })));
    }
  }
  figure.append(root);
  const facts = [
    `Cave stack ${board.stack}`, board.cave_in_play ? `the Cave's hand ${(board.cave_hand || []).length}` : "no Cave player",
    `Treasure supply ${board.treasure_supply}`, board.collapse ? `Collapse: ${board.crystal_tiles_collapsed} of 5 Crystal tiles` : "before the Collapse",
  ];
  figure.append(el("figcaption", { text: facts.join(" · ") }));
  return figure;
}

const fact = (k, v) => [el("dt", { text: k }), el("dd", { "data-key": k.toLowerCase().replace(/[^a-z]+/g, "-"), text: String(v) })];
function pips(value, max, label) {
  const row = el("span", { class: "pips", role: "img", "aria-label": `${label} ${value} of ${max}` });
  for (let i = 1; i <= max; i += 1) row.append(el("span", { class: `pip${i <= value ? " on" : ""}` }));
  return row;
}
function cards(list, label) {
  if (!list || !list.length) return el("span", { class: "nil", text: "none" });
  return el("span", { class: "vast-cards", "aria-label": label }, list.map((c) => el("span", { class: `vast-card${c === "?" ? " face-down" : ""}`, text: c === "?" ? "face down" : cardName(c) })));
}

// Each role's player board, as the reader may see it.
export function renderBoards(page) {
  const view = page.initiative || {};
  const board = page.board || {};
  const turn = page.game.turn;
  const out = [];
  const figure = (role, ...rows) => el("figure", { class: `track vast-board board-${role}${turn === role ? " turn" : ""}`, "aria-label": `The ${ROLE[role]}${ROLE[role].endsWith("s") ? "'" : "'s"} board`, "data-role": role },
    el("figcaption", { text: `${ROLE[role]}${turn === role ? " · playing now" : ""}` }), ...rows);
  const k = view.knight;
  if (k) {
    out.push(figure("knight",
      el("p", {}, "Health ", pips(k.health, k.max_health || 7, "Health"), ` ${k.health}/${k.max_health || 7}`),
      el("p", {}, "Grit ", pips(Math.min(k.grit, 20), 20, "Grit"), ` ${k.grit}`),
      el("dl", { class: "facts" }, fact("Hero cubes", `${k.free_cubes} free of ${k.hero_cubes}${Object.keys(k.placed || {}).length ? `; on ${Object.entries(k.placed).map(([t, n]) => `${CUBE[t] || t}${n > 1 ? ` ×${n}` : ""}`).join(", ")}` : ""}`),
        fact("Movement", k.movement), fact("Perception", k.perception), fact("Strength", k.strength), fact("Bombs", k.bombs),
        fact("Crystals smashed", k.smashed), ...(k.poisoned ? fact("Poisoned", k.poisoned) : [])),
      el("p", {}, el("strong", { text: "Treasures: " }), cards(k.treasures, "Treasures")),
      el("p", {}, el("strong", { text: "Sidequests: " }), cards(k.sidequests, "Sidequests"), k.completed && k.completed.length ? ` (completed: ${k.completed.map(cardName).join(", ")})` : "")));
  }
  const d = view.dragon;
  if (d) {
    out.push(figure("dragon",
      el("dl", { class: "facts" }, ...Object.entries(d.sloth || {}).flatMap(([t, n]) => fact(SLOTH[t] || t, n)),
        fact("Wakefulness", `${d.wakefulness}${d.awake_at ? ` of ${d.awake_at}` : ""}${d.awake ? " (awake)" : ""}`), fact("Health", d.health), fact("Armor", d.armor), fact("Spirit", d.spirit),
        fact("Where", d.x === null || d.x === undefined ? (d.surfaced ? "surfaced" : "underground") : `${d.x},${d.y}`)),
      el("p", {}, el("strong", { text: "Power hand: " }), cards(d.hand, "Power cards")),
      el("p", {}, el("strong", { text: "Gems to place: " }), (d.gems || []).map(cap).join(", ") || "none left")));
  }
  const g = view.goblins;
  if (g) {
    const tribes = (board.tribes || []).map((t) => `${TRIBE[t.name]}: Population ${t.population}, Strength ${t.strength}${t.where === "map" ? ` at ${t.x},${t.y}` : t.where === "lurking" ? " (lurking)" : t.where === "board" ? " (on the Goblins' board)" : ` (${t.where})`}${t.monsters && t.monsters.length ? `, ${t.monsters.map(cardName).join(", ")}` : ""}`);
    // the Secrets hand as the reader may see it: the Goblins' own cards (everyone's once the game has ended), else face down
    const hand = Array.isArray(g.secrets) && g.secrets.length === g.hand ? g.secrets : Array(g.hand).fill("?");
    out.push(figure("goblins",
      el("ul", { class: "tribes" }, tribes.map((t) => el("li", { text: t }))),
      el("dl", { class: "facts" }, fact("Rage", g.rage), fact("War card", g.war ? cardName(g.war) : "none"), fact("Crystals smashed", g.crystals_smashed)),
      el("p", {}, el("strong", { text: "Secrets hand: " }), cards(hand, "Secret cards"))));
  }
  const t = view.thief;
  if (t) {
    const carried = [t.carried ? `${t.carried} Treasure` : "", ...(t.gems || []).map((x) => `the ${cap(x)} Gem`)].filter(Boolean);
    out.push(figure("thief",
      el("dl", { class: "facts" }, fact("Where", t.x === null || t.x === undefined ? "off the map" : `${t.x},${t.y}`),
        fact("Movement", t.movement), fact("Stealth", `${t.stealth}${t.hexed ? ` (Hex -${t.hexed})` : ""}`), fact("Thievery", t.thievery),
        fact("Stat tokens", (t.stat_tokens || []).join(" · ") + (t.assigned ? "" : " (not assigned)")), fact("Action cubes", t.cubes),
        fact("Loot Drop", t.loot_drop), fact("Carrying", carried.join(", ") || "nothing"), fact("Stashed", `${t.stashed} of ${t.stash_goal || 6}`)),
      el("p", {}, el("strong", { text: "Upgrades: " }), (t.upgrades || []).map((u) => UPGRADE[u] || u).join(", ") || "none")));
  }
  const c = view.cave;
  if (c && board.cave_in_play !== false) {
    out.push(figure("cave",
      el("p", {}, el("strong", { text: "Hand: " }), handTiles(board.cave_hand || [])),
      el("dl", { class: "facts" }, fact("Omens", (c.omens || []).length ? c.omens.map(cap).join(", ") : "none"), fact("Treasure supply", c.treasure_supply), fact("Tiles placed this turn", c.placed_this_turn))));
  }
  return out;
}

function handTiles(hand, pick = null) {
  const row = el("span", { class: "vast-hand", role: pick ? "group" : undefined, "aria-label": "The Cave's hand" });
  for (const id of hand) {
    const tile = content.tiles.get(id);
    const pic = svg("svg", { viewBox: "0 0 40 40", class: "hand-tile", "aria-hidden": "true" },
      svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 4, class: `tile ${id === "?" ? "back" : "dark"}` }),
      svg("text", { x: 20, y: 26, "text-anchor": "middle", text: id === "?" ? "?" : TRIBE_MARK[tile && tile.symbol] || "" }));
    if (pick) {
      row.append(el("button", { type: "button", class: `hand-pick${ui.tile === id ? " chosen" : ""}`, "aria-pressed": ui.tile === id ? "true" : "false", "data-key": `hand:${id}`, "data-tile": id, onclick: () => pick(id) }, pic, tileName(id)));
    } else row.append(el("span", { class: "hand-tile-box", title: tileName(id) }, pic, el("span", { class: "face-text", text: id === "?" ? "face down" : tileName(id) })));
  }
  return row;
}

// The commands that name no tile, as buttons; those that do are played on the cave.
export function renderCommands(page, { send, rerender }) {
  const part = el("div", { class: "commands vast-commands" });
  const commands = page.legal.commands;
  const placed = commands.filter((c) => c.type === "vast.PlaceTile");
  if (placed.length) {
    const tiles = [...new Set(placed.map((c) => c.tile))];
    if (ui.tile && !tiles.includes(ui.tile)) ui.tile = null;
    part.append(el("p", { class: "hint", text: ui.tile ? `Now click a highlighted open place for ${tileName(ui.tile)}.` : "Pick a tile of your hand, then an open place on the cave." }),
      handTiles(tiles, (id) => { ui.tile = ui.tile === id ? null : id; ui.focus = `hand:${id}`; rerender(); }));
  }
  const onMap = commands.filter((c) => onTheCave(c) && c.type !== "vast.PlaceTile");
  if (onMap.length) part.append(el("p", { class: "hint", text: "Click a highlighted tile of the cave (or Tab to it and press Enter)." }));
  const others = commands.filter((c) => !onTheCave(c) && c.type !== "vast.EndTurn");
  if (others.length) part.append(el("div", { class: "row wrap" }, others.map((c) => button(c, send))));
  const end = commands.filter((c) => c.type === "vast.EndTurn");
  if (end.length) part.append(el("div", { class: "row" }, end.map((c) => button(c, send, "end-turn"))));
  return part;
}

function button(c, send, cls = "") {
  const command = bare(c);
  return el("button", { type: "button", class: `command ${cls}`, "data-command-type": command.type, "data-command": JSON.stringify(command), "data-key": `cmd:${JSON.stringify(command)}`, onclick: () => send(command) }, commandLabel(c));
}

// The table module's hook (docs/web-table.md).
export function renderTable(page, { board, tracks, send, rerender }) {
  const choose = (list, key) => {
    const box = el("div", { class: "vast-choice", role: "group", "aria-label": `Choices at ${key}` },
      el("p", { class: "hint", text: `What to do at ${key}?` }), list.map((c) => button(c, send)),
      el("button", { type: "button", class: "secondary", onclick: () => { box.remove(); } }, "Cancel"));
    const old = document.querySelector(".vast-choice");
    if (old) old.remove();
    board.prepend(box);
    box.querySelector("button").focus();
  };
  const cave = renderCave(page, { send, choose });
  const map = cave.querySelector("svg.vast-map");
  if (map) zoomable(map, rerender);
  board.append(cave, caveLegend());
  tracks.append(...renderBoards(page));
}

// A collapsible legend of the cave's marks, each drawn as on the cave (its open state kept across re-renders).
function caveLegend() {
  const key = (...children) => svg("svg", { viewBox: "0 0 28 28", class: "vast-key", "aria-hidden": "true" }, ...children);
  const disc = (cls, text) => key(svg("g", { class: cls }, svg("circle", { cx: 14, cy: 14, r: 10 }), svg("text", { x: 14, y: 18, "text-anchor": "middle", text })));
  const tile = (cls, mark) => key(svg("g", { class: cls }, svg("rect", { x: 2, y: 2, width: 24, height: 24, rx: 3, class: `tile ${cls}` }),
    mark ? svg("text", { x: 14, y: 19, "text-anchor": "middle", class: "room", style: `font-size: ${mark.length > 1 ? 8 : 12}px`, text: mark }) : null));
  const edge = (cls, text) => key(svg("g", { class: `edge ${cls}` }, svg("rect", { x: 3, y: 3, width: 22, height: 22, rx: 4 }), svg("text", { x: 14, y: 19, "text-anchor": "middle", text })));
  const rows = [
    [tile("entrance"), "the Entrance"],
    [tile("lit"), "a Lit room (its name on it)"],
    ...Object.entries(TRIBE_MARK).map(([tribe, mark]) => [tile("dark", mark), `a Dark tile of the ${TRIBE[tribe]}`]),
    [key(svg("line", { x1: 4, y1: 6, x2: 24, y2: 6, class: "wall" })), "a wall"],
    [disc("piece knight", "K"), "the Knight"],
    [disc("piece dragon", "D"), "the Dragon below ground"],
    [disc("piece dragon surfaced", "D"), "the Dragon, surfaced"],
    [disc("piece thief", "T"), "the Thief"],
    [disc("piece tribe fangs", "F3"), "a Tribe: its initial and Population"],
    [disc("token crystal", "◆"), "a Crystal"],
    [disc("token treasure", "$"), "a Treasure token ($2: two)"],
    [disc("token gem", "✦"), "a Gem"],
    [disc("token vault", "V"), "a Vault token"],
    [disc("token event", "!"), "an Event token"],
    [disc("token flame-wall", "🔥"), "the Flame Wall"],
    [edge("rockslide", "R"), "a Rockslide on an edge"],
    [edge("bomb", "B"), "a Bomb on an edge"],
    [key(svg("rect", { x: 3, y: 3, width: 22, height: 22, rx: 4, class: "target-ring", style: "stroke-width: 2.5" })), "a place you may click"],
  ];
  const details = el("details", { class: "legend vast-legend", id: "legend", open: ui.legend || undefined },
    el("summary", { text: "The cave's marks" }),
    el("ul", {}, rows.map(([mark, words]) => el("li", {}, mark, el("span", { text: words })))));
  details.addEventListener("toggle", () => { ui.legend = details.open; });
  return details;
}

// The cave in a box of its own that scrolls when zoomed (the page itself never scrolls sideways), with zoom
// buttons: fit the width, or 1.5x, 2x, 3x it (ui.zoom keeps it across re-renders). On a phone a cave of many
// tiles fits the screen's width, its tiles small: zoomed, it is read and tapped in its box.
const ZOOMS = [1, 1.5, 2, 3];
function zoomable(map, rerender) {
  const zoom = ui.zoom || 1;
  if (zoom > 1) { map.style.width = `${zoom * 100}%`; map.style.maxWidth = "none"; }
  const at = ZOOMS.indexOf(zoom);
  const button = (text, label, z, key) => el("button", {
    type: "button", class: "secondary", "data-zoom": key, "aria-label": label, disabled: z === zoom || undefined,
    onclick: () => { ui.zoom = z; rerender(); },
  }, text);
  const bar = el("div", { class: "zoom", role: "group", "aria-label": "Zoom the cave" },
    button("−", "Zoom out", ZOOMS[Math.max(0, at - 1)], "out"),
    button("Fit", "Fit the cave to the width", 1, "fit"),
    button("+", "Zoom in", ZOOMS[Math.min(ZOOMS.length - 1, at + 1)], "in"),
    el("span", { class: "zoom-level", text: `${Math.round(zoom * 100)}%` }));
  const box = el("div", { class: "board-scroll" });
  map.replaceWith(box);
  box.append(map);
  box.before(bar);
}

// The initiative panel: the order of play and whose turn it is.
export function renderInitiative(page, box) {
  const view = page.initiative;
  if (!view || !view.order) return;
  box.append(el("ol", { class: "initiative" }, view.order.map((r) => el("li", { class: view.turn === r ? "current" : "", "aria-current": view.turn === r ? "step" : undefined },
    el("span", { class: "marker", text: view.turn === r ? "▶ now" : "" }), el("span", { class: "name", text: ROLE[r] || r })))),
  el("p", { class: "hint", text: `Round ${view.round}${view.phase && view.phase !== "play" ? ` · ${view.phase}` : ""}` }));
}

// A pending step in words (the Vast rulebook's names for what is asked).
const DECISION_WORDS = {
  shape: "choose where the end-of-turn Dark tile goes (no Cave player)",
  "collapse-remove": "choose a tile the Collapse removes (no Cave player)",
  plunder: "choose the Dark tile for Past Plunder's Treasure token",
  "plunder-tile": "choose where a new Dark tile goes for Past Plunder",
  "thief-stats": "put the Stat tokens on Movement, Stealth and Thievery",
  peek: (where) => `reveal the Dark tile at ${where} you looked at, or keep it Dark`,
  orient: (where) => `choose how the tile revealed at ${where} is turned`,
  upgrade: "choose the Upgrade space for a stashed token",
  pickpocket: (owner) => `choose what the Pickpocket takes from the ${ROLE[owner] || owner}`,
  "loot-from": "choose the tile to take the Treasure token from (the supply is empty)",
  "evade-step": "Unnatural Evasion: step to a tile next to his, or stay",
  "spores-upgrade": "choose the Upgrade Soporific Spores takes",
  "spores-track": "choose the Sloth track Soporific Spores lowers",
  "spores-tribe": "choose the Tribe Soporific Spores brings down to Population 1",
  "loot-drop": (level) => `choose the Loot Drop bonus (${level}): Secrets cards or Rage`,
  "ambush-cubes": "put Hero cubes on Strength before the Ambush strikes",
  "ambush-tribe": "choose the Tribe the Ambush brings",
  underworm: "the Underworm: choose the diagonal Dark tile she moves onto and reveals",
  "underworm-place": "the Underworm: choose the diagonal space for the Dark tile she moves onto",
  "treasure-choice": "choose a Treasure card", "event-choice": "choose how the Event resolves", "war-choice": "choose the War card",
  monster: "choose a Monster card", overpopulation: "choose the Tribe that loses Population (Overpopulation)",
  surface: "choose where the Dragon surfaces", "claw-push": "choose where Claw pushes the Knight", slide: "choose where the slide ends",
  block: "choose whether to block", axe: "choose the Axe's target", fill: (where) => `choose the tile that fills ${where}`,
  "gnome-jump": (where) => `choose where the Gnome jumps from ${where}`, "omen-discard": () => "choose the Omen tokens to discard",
};

function decisionWords(decision) {
  const [kind, ...rest] = String(decision).split(":");
  const found = DECISION_WORDS[kind];
  if (typeof found === "function") return found(rest.join(":"));
  return found || `choose (${String(decision).replace(/[-:]/g, " ")})`;
}

function rollWords(reason) {
  const [kind, ...rest] = String(reason || "").split(":");
  if (kind === "thief-action") return `the Thief's ${rest[0] === "pick-lock" ? "Pick Lock" : cap(rest[0] || "action")} (the Action die)`;
  if (kind === "evasion") return "Unnatural Evasion (the Action die: 4+ and the attack misses)";
  if (kind === "thief-gem") return `the ${cap(rest[0] || "")} Gem's trap (the Dragon die: a centre hit kills the Thief)`;
  if (kind === "thief-flare") return `the Thief's Flare at ${rest[0]} (the Dragon die)`;
  if (kind === "flare") return `the Flare at ${rest[0]} (the Dragon die)`;
  if (kind === "goblin-flare") return `the Goblins' Flare at ${rest[0]} (the Dragon die)`;
  if (kind === "gem") return `the ${cap(rest[1] || "")} Gem's trap (the Dragon die)`;
  if (kind === "power") return `the Power ${cap(rest[0] || "")} (the Dragon die)`;
  if (kind === "dragon-attack") return "the attack on the Dragon";
  if (kind === "ambush") return "the Ambush";
  return String(reason || "the roll").replace(/[-:]/g, " ");
}

export function pendingText(pending) {
  if (!pending) return "";
  const who = pending.piece ? `${ROLE[pending.piece] || pending.piece}: ` : "";
  switch (pending.type) {
    case "RollRequested": return `${who}roll ${pending.dice} ${pending.dice > 1 ? "dice" : "die"} for ${rollWords(pending.reason)}`;
    case "ShuffleRequested": return `${who}shuffle ${pending.cards.length} cards`;
    case "DrawRequested": return `${who}draw ${pending.count || 1} of ${pending.cards.length} (${String(pending.deck || pending.reason || "").replace(/[-:]/g, " ")})`;
    case "DecisionRequested": return `${who}${decisionWords(pending.decision)}`;
    default: return `${who}${pending.type}`;
  }
}

export function pieceName(id) { return ROLE[id] || TRIBE[id] || id; }

// A card or tile of a manual draw by its printed name.
// A drawn card or tile by its printed name; ``deck``, when known, names a face-down one ("a face-down tile"
// from the tiles deck, "a face-down card" from any other).
export function drawName(id, deck) { return content.tiles.has(id) || (id === "?" && deck === "tiles") ? tileName(id) : cardName(id); }

// The history page (docs/web-table.md, renderVersion): the game at a version, read-only, drawn from the server's
// read models at that version (GET /board?version=N and /initiative?version=N, as the reader may see them: what
// the reader may not see is face down, as at the table); no legal command, no target to click, nothing sent.
export const versionViews = ["board", "initiative"];

export function renderVersion(state, version, { board, tracks, initiative }, views = {}) {
  const view = views.initiative || {};
  const page = { board: views.board, initiative: view, game: { turn: view.turn, pending: null, result: null }, legal: null };
  board.replaceChildren(renderCave(page, { send: () => {}, choose: () => {} }), caveLegend());
  const map = board.querySelector("svg.vast-map");
  if (map) map.dataset.version = String(version);
  board.dataset.version = String(version);
  tracks.replaceChildren(...renderBoards(page));
  initiative.replaceChildren(el("h2", { text: "Turn order" }));
  renderInitiative(page, initiative);
}
