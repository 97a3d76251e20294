// Vast: The Crystal Caverns: the cave as a grid of tiles, from GET /games/{id}/board (a VastBoard, as
// this page's reader may see it: a Dark tile shows its Tribe symbol, and its room only to the Cave, and to
// the Thief for the tiles he looked at). North is up; walls are thick edges; tokens, Gems, Vaults, the
// Flame Wall, the Knight, the Dragon, the Thief and the revealed Tribes are marked in each tile. The
// Thief's public track comes from GET /games/{id}/initiative (``initiative.thief``), when given.

import { el } from "/static/js/api.js";

// The Thief's Upgrade spaces (Vast rulebook §Migliorie).
const UPGRADE = {
  "sticky-fingers": "Sticky Fingers", "lock-picking-kit": "Lock Picking Kit", "climbing-gear": "Climbing Gear",
  "hand-crossbow": "Hand Crossbow", "unnatural-evasion": "Unnatural Evasion", "movement+1": "Movement +1",
  "stealth+1": "Stealth +1", "thievery+1": "Thievery +1", "flip-2": "Flip Stat Tokens (2 to 3)",
  "flip-3": "Flip Stat Tokens (3 to 4)", "all-4": "Flip Stat Tokens (all 4)",
};

const ROOM = { ambush: "Ambush", event: "Event", "treasure-room": "Treasure Room", crystal: "Crystal", vault: "Vault", entrance: "Entrance" };
const SYMBOL = { fangs: "Fangs", bones: "Bones", eye: "Eye" };

// The Thief's piece's tooltip: his public track in one line.
function thiefTitle(track) {
  if (!track) return "The Thief";
  const carried = [track.carried ? `${track.carried} Treasure token${track.carried > 1 ? "s" : ""}` : "", ...(track.gems || []).map((g) => `the ${g} Gem`)].filter(Boolean);
  return `The Thief: Movement ${track.movement}, Stealth ${track.stealth}, Thievery ${track.thievery}; `
    + `carrying ${carried.length ? carried.join(", ") : "nothing"}; Loot Drop ${track.loot_drop}; stashed ${track.stashed} of ${track.stash_goal || 6}`;
}

// The Thief's public board, as a small track under the cave (GET /initiative's ``thief``).
export function renderThief(track, turn) {
  const where = track.x === null || track.x === undefined ? "off the map" : `${track.x},${track.y}`;
  const carried = [track.carried ? `${track.carried} Treasure` : "", ...(track.gems || []).map((g) => `${g} Gem`)].filter(Boolean);
  const facts = [
    ["Where", where],
    ["Movement", `${track.movement}${track.moves ? ` (${track.moves} moved)` : ""}`],
    ["Stealth", `${track.stealth}${track.hexed ? ` (Hex -${track.hexed})` : ""}`],
    ["Thievery", String(track.thievery)],
    ["Action cubes", String(track.cubes)],
    ["Loot Drop", String(track.loot_drop)],
    ["Carrying", carried.length ? carried.join(", ") : "nothing"],
    ["Stashed", `${track.stashed} of ${track.stash_goal || 6}`],
    ["Stat tokens", (track.stat_tokens || []).join(" · ")],
    ["Upgrades", (track.upgrades || []).map((u) => UPGRADE[u] || u).join(", ") || "none"],
  ];
  return el("figure", { class: `track vast-thief${turn === "thief" ? " turn" : ""}`, "aria-label": "The Thief's board" },
    el("figcaption", { text: `The Thief${turn === "thief" ? " · his turn" : ""}${track.assigned ? "" : " (Stat tokens not assigned this turn)"}` }),
    el("dl", { class: "facts" }, facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { "data-key": k.toLowerCase().replace(/ /g, "-"), text: v })])));
}

// The table module's hook (docs/web-table.md): the cave, the Thief's track and the board tile by tile.
export function renderTable(page, { board, tracks, renderValue }) {
  board.append(renderCave(page.board || { cells: [] }, page.initiative));
  if (page.initiative && page.initiative.thief) tracks.append(renderThief(page.initiative.thief, page.game.turn));
  if (page.board) board.append(el("details", { class: "state" }, el("summary", { text: "The board, tile by tile" }), renderValue(page.board, "board")));
}

export function renderCave(board, initiative = null) {
  const cells = board.cells || [];
  const figure = el("figure", { class: "vast-cave", "aria-label": "The cave" });
  if (!cells.length) return figure;
  const xs = cells.map((c) => c.x);
  const ys = cells.map((c) => c.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const grid = el("div", { class: "vast-grid", role: "grid" });
  grid.style.gridTemplateColumns = `repeat(${maxX - minX + 1}, var(--vast-cell))`;
  const byPos = new Map(cells.map((c) => [`${c.x},${c.y}`, c]));
  for (let y = maxY; y >= minY; y -= 1) {
    for (let x = minX; x <= maxX; x += 1) {
      const c = byPos.get(`${x},${y}`);
      if (!c) { grid.append(el("div", { class: "vast-cell empty", role: "gridcell" })); continue; }
      const walls = new Set(c.walls || []);
      const classes = ["vast-cell", c.side, ...["N", "E", "S", "W"].filter((s) => walls.has(s)).map((s) => `wall-${s}`)];
      const room = c.kind ? ROOM[c.kind] || c.kind : "Dark";
      const title = c.side === "dark"
        ? `${x},${y}: Dark tile (${SYMBOL[c.symbol] || c.symbol})${c.kind ? `: ${room} ${c.tile}` : ""}`
        : `${x},${y}: ${room}`;
      const marks = [];
      if (c.crystal) marks.push(el("span", { class: "token crystal", title: "Crystal token", text: "◆" }));
      if (c.treasure) marks.push(el("span", { class: "token treasure", title: `${c.treasure} Treasure token(s)`, text: `$${c.treasure > 1 ? c.treasure : ""}` }));
      if ((c.pieces || []).includes("knight")) marks.push(el("span", { class: "piece knight", title: "The Knight", text: "K" }));
      if ((c.pieces || []).includes("dragon")) {
        const surfaced = board.dragon === "surfaced";
        marks.push(el("span", { class: `piece dragon${surfaced ? " surfaced" : ""}`, title: `The Dragon (${board.dragon})`, text: "D" }));
      }
      for (const gem of c.gems || []) marks.push(el("span", { class: `token gem ${gem}`, title: `The ${gem} Dragon Gem`, text: "✦" }));
      if (c.vault) marks.push(el("span", { class: "token vault", title: "Vault token (the Thief's Pick Lock opens it)", text: "V" }));
      if ((c.pieces || []).includes("thief")) marks.push(el("span", { class: "piece thief", title: thiefTitle(initiative && initiative.thief), text: "T" }));
      if (c.event_token) marks.push(el("span", { class: "token event", title: "Event token", text: "!" }));
      if (c.flame_wall) marks.push(el("span", { class: "token flame-wall", title: "The Flame Wall", text: "🔥" }));
      for (const tribe of (board.tribes || []).filter((t) => t.where === "map" && t.x === x && t.y === y)) {
        marks.push(el("span", { class: `piece tribe ${tribe.name}`, title: `The ${SYMBOL[tribe.name]} Tribe: Population ${tribe.population}, Strength ${tribe.strength}`, text: `${SYMBOL[tribe.name][0]}${tribe.population}` }));
      }
      grid.append(el("div", { class: classes.join(" "), role: "gridcell", title, "data-x": x, "data-y": y },
        el("span", { class: "room", text: c.side === "dark" ? (SYMBOL[c.symbol] || "?") : room }),
        c.side === "dark" && c.kind ? el("span", { class: "hidden-room", title: "Hidden from the other players", text: room }) : null,
        el("span", { class: "marks" }, marks)));
    }
  }
  figure.append(grid);
  const tribes = (board.tribes || []).filter((t) => t.where !== "map");
  if (tribes.length) {
    figure.append(el("p", { class: "vast-hidden-tribes", text: `Hidden Tribes: ${tribes.map((t) => `${SYMBOL[t.name]} ${t.population}${t.where === "lurking" ? ` (lurking at ${t.x},${t.y})` : ""}`).join(", ")}` }));
  }
  const facts = [
    `stack ${board.stack}`, ...(board.cave_in_play ? [`Cave's hand ${(board.cave_hand || []).length}`] : ["no Cave player"]),
    `Treasure supply ${board.treasure_supply}`,
    board.collapse ? `Collapse: ${board.crystal_tiles_collapsed} of 5 Crystal tiles` : "before the Collapse",
    ...(board.thief === "off" ? ["the Thief is off the map"] : []),
  ];
  figure.append(el("figcaption", { text: facts.join(" · ") }));
  return figure;
}
