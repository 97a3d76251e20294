// The Mice and Mystics board as SVG: room tiles with their spaces, the yellow and red lines,
// walls, exits, water and currents, mousetraps, entrances, flip spaces, the figures with their
// wounds and effects. Drawn from GET /games/{id}/board (or the same view built from a state, for
// the history slider) and the room tiles' layout from /content/mice-and-mystics/tiles.
// Every mark has a shape or a text besides its colour, so the board reads in greyscale too.

const NS = "http://www.w3.org/2000/svg";
const CELL = 360;
const GAP = 28;

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The board view (as GET /board returns it) rebuilt from a state and the tiles' content.
export function boardFromState(state, tiles) {
  const placed = (state.tiles || []).map((p) => {
    const tile = tiles.get(p.tile);
    const spaces = tile ? tile.spaces.map((s) => ({
      id: s.id, kind: s.kind, centre: s.centre, water: !!s.water, figures: (state.board || {})[s.id] || [],
    })) : [];
    return {
      tile: p.tile, number: tile ? tile.number : 0, name: tile ? tile.name : p.tile, column: p.column, row: p.row,
      provisional: tile ? tile.provisional : false, spaces,
    };
  });
  return {
    tiles: placed, hourglass_page: state.hourglass_page, end_marker_page: state.end_marker_page,
    cheese_wheel: state.cheese_wheel, mouse_cheese: state.cheese || {},
  };
}

// The initiative view (as GET /initiative returns it) rebuilt from a state.
export function initiativeFromState(state, names) {
  const party = new Set(state.party || []);
  const cards = (state.track || []).map((card, slot) => ({
    slot, card, name: names(card), kind: party.has(card) ? "mouse" : "minion",
    figures: Object.entries(state.figures || {}).filter(([, c]) => c === card).map(([f]) => f).sort(),
    current: slot === state.slot,
  }));
  const turn = state.slot !== null && state.slot !== undefined ? (state.track || [])[state.slot] || null : null;
  return { round: state.round || 0, turn, cards };
}

// Where each figure stands: {figure: space} (from a board view).
export function figurePositions(board) {
  const where = {};
  for (const tile of board.tiles || []) for (const space of tile.spaces) for (const f of space.figures) where[f] = space.id;
  return where;
}

export function shortLabel(figure, party) {
  if (party.has(figure)) return figure.slice(0, 2).replace(/^./, (c) => c.toUpperCase());
  const match = figure.match(/^(.*?)-(\d+)$/);
  const base = match ? match[1] : figure;
  const initials = base.split("-").map((w) => w[0].toUpperCase()).join("").slice(0, 2);
  return match ? `${initials}${match[2]}` : base.slice(0, 2).replace(/^./, (c) => c.toUpperCase());
}

const SIDE_FILL = { orange: "tile-orange", blue: "tile-blue" };
const CURRENT = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };

// opts: {library: Map tile id -> content tile, party: Set of mouse ids, names: id -> name,
//        wounds, effects: {figure: [...]}, reachable: Map space -> {label, command},
//        targets: Map figure -> {label, command}, onCommand(command), version, turn}
export function renderBoard(board, opts) {
  const library = opts.library || new Map();
  const party = opts.party || new Set();
  const names = opts.names || ((x) => x);
  const wounds = opts.wounds || {};
  const effects = opts.effects || {};
  const reachable = opts.reachable || new Map();
  const targets = opts.targets || new Map();
  const tiles = board.tiles || [];
  const minCol = Math.min(0, ...tiles.map((t) => t.column));
  const minRow = Math.min(0, ...tiles.map((t) => t.row));
  const maxCol = Math.max(0, ...tiles.map((t) => t.column));
  const maxRow = Math.max(0, ...tiles.map((t) => t.row));
  const width = (maxCol - minCol + 1) * (CELL + GAP) + GAP;
  const drawn = new Set(tiles.flatMap((t) => t.spaces.map((s) => s.id)));
  // Figures the state puts on a space of no tile on the table (the rules left them there): listed
  // under the tiles, so that every figure of the state is shown.
  const strays = Object.entries(opts.placements || {}).filter(([, space]) => !drawn.has(space));
  const strayBand = strays.length ? 90 : 0;
  const tilesHeight = (maxRow - minRow + 1) * (CELL + GAP) + GAP;
  const height = tilesHeight + strayBand;
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "board", role: "group",
    "aria-label": `Board: ${tiles.map((t) => t.name).join(", ") || "not set up yet"}`,
    "data-version": opts.version ?? "",
  });
  root.append(defs());
  if (!tiles.length) {
    root.append(svg("text", { x: width / 2, y: height / 2, class: "empty", "text-anchor": "middle", text: "The board is not set up yet" }));
    return root;
  }
  const activate = (command) => (event) => {
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    opts.onCommand && opts.onCommand(command);
  };
  for (const tile of tiles) {
    const content = library.get(tile.tile);
    const w = content ? content.width : Math.max(...tile.spaces.map((s) => Math.ceil(s.centre[0])), 1);
    const h = content ? content.height : Math.max(...tile.spaces.map((s) => Math.ceil(s.centre[1])), 1);
    const sx = CELL / w;
    const sy = CELL / h;
    const ox = GAP + (tile.column - minCol) * (CELL + GAP);
    const oy = GAP + (tile.row - minRow) * (CELL + GAP);
    const px = ([x, y]) => [ox + x * sx, oy + y * sy];
    const r = 0.4 * Math.min(sx, sy);
    const g = svg("g", { class: "tile", "data-tile": tile.tile, "aria-label": `${tile.name} (tile ${tile.number})` });
    g.append(svg("rect", { x: ox, y: oy, width: CELL, height: CELL, rx: 10, class: `tile-bg ${SIDE_FILL[content && content.side] || ""}` }));
    g.append(svg("text", { x: ox + 4, y: oy - 8, class: "tile-name", text: `${tile.name} · tile ${tile.number}` }));
    const centres = new Map(tile.spaces.map((s) => [s.id, px(s.centre)]));
    const contentSpaces = new Map(((content && content.spaces) || []).map((s) => [s.id, s]));
    // Adjacency (faint), then the yellow and red lines across the edges they mark.
    for (const edge of (content && content.edges) || []) {
      const a = centres.get(edge.a);
      const b = centres.get(edge.b);
      if (!a || !b || edge.line === "gap") continue; // a black gap of the Pipes: its walls are drawn
      g.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "adjacent" }));
    }
    for (const edge of (content && content.edges) || []) {
      if (edge.line === "plain" || edge.line === "gap") continue;
      const a = centres.get(edge.a);
      const b = centres.get(edge.b);
      if (!a || !b) continue;
      const mx = (a[0] + b[0]) / 2;
      const my = (a[1] + b[1]) / 2;
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
      const dx = (b[0] - a[0]) / len;
      const dy = (b[1] - a[1]) / len;
      const half = r * 0.9;
      const line = svg("g", { class: `edge-line ${edge.line}` },
        svg("title", { text: `${edge.line === "yellow" ? "Yellow line (3 movement against the arrow)" : "Red line (impassable)"}: ${names(edge.a)} – ${names(edge.b)}` }),
        svg("line", { x1: mx - dy * half, y1: my + dx * half, x2: mx + dy * half, y2: my - dx * half }));
      if (edge.arrow_to) {
        const toward = edge.arrow_to === edge.b ? 1 : -1;
        const tip = [mx + dx * toward * 9, my + dy * toward * 9];
        const base1 = [mx - dy * 6, my + dx * 6];
        const base2 = [mx + dy * 6, my - dx * 6];
        line.append(svg("polygon", { points: `${tip.join(",")} ${base1.join(",")} ${base2.join(",")}`, class: "arrow" }));
      }
      g.append(line);
    }
    for (const wall of (content && content.walls) || []) {
      const a = px(wall.a);
      const b = px(wall.b);
      g.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "wall" }));
    }
    for (const exit of (content && content.exits) || []) {
      for (const id of exit.spaces) {
        const c = centres.get(id);
        if (!c) continue;
        const [x, y] = c;
        const along = exit.side === "N" || exit.side === "S";
        const ex = along ? x : exit.side === "W" ? ox : ox + CELL;
        const ey = along ? (exit.side === "N" ? oy : oy + CELL) : y;
        g.append(svg("g", { class: `exit exit-${exit.colour}` },
          svg("title", { text: `Exit (${{ N: "north", E: "east", S: "south", W: "west" }[exit.side] || exit.side}, ${exit.colour}) at ${names(id)}` }),
          svg("rect", { x: ex - (along ? 14 : 5), y: ey - (along ? 5 : 14), width: along ? 28 : 10, height: along ? 10 : 28, rx: 3 }),
          svg("text", { x: ex, y: ey + (exit.side === "N" ? 16 : exit.side === "S" ? -8 : 4) + 0,
            dx: exit.side === "W" ? 12 : exit.side === "E" ? -12 : 0, class: "exit-label", "text-anchor": exit.side === "W" ? "start" : exit.side === "E" ? "end" : "middle", text: exit.side })));
      }
    }
    for (const space of tile.spaces) {
      const [cx, cy] = centres.get(space.id);
      const info = contentSpaces.get(space.id) || {};
      const move = reachable.get(space.id);
      const kindText = { start: "start", "minion-entrance": "minion entrance", flip: "flip space", mousetrap: "mousetrap", normal: "" }[space.kind] ?? space.kind;
      const described = [names(space.id), kindText, space.water ? "water" : "", info.current ? `current ${info.current}` : "",
        info.feature ? info.feature.replace(/-/g, " ") : "", info.area ? info.area.replace(/-/g, " ") : "",
        space.figures.length ? `figures: ${space.figures.map((f) => names(f)).join(", ")}` : ""].filter(Boolean).join(", ");
      const group = svg("g", {
        class: `space kind-${space.kind}${space.water ? " water" : ""}${move ? " reachable" : ""}`,
        "data-space": space.id,
        ...(move ? { role: "button", tabindex: 0, "aria-label": move.label } : {}),
      }, svg("title", { text: move ? move.label : described }));
      const big = info.capacity === "unlimited";
      const radius = big ? r * 1.25 : r;
      group.append(svg("circle", { cx, cy, r: radius, class: "space-disc" }));
      if (space.kind === "start") group.append(svg("circle", { cx, cy, r: radius - 5, class: "start-ring" }));
      if (space.kind === "minion-entrance") group.append(svg("circle", { cx, cy, r: radius + 3, class: "entrance-ring" }));
      if (space.kind === "mousetrap") {
        const k = radius * 0.55;
        group.append(svg("path", { d: `M${cx - k},${cy - k}L${cx + k},${cy + k}M${cx + k},${cy - k}L${cx - k},${cy + k}`, class: "trap-x" }));
      }
      if (space.kind === "flip") group.append(svg("text", { x: cx, y: cy + radius * 0.35, class: "flip-mark", "text-anchor": "middle", text: "↻" }));
      if (info.current && CURRENT[info.current]) {
        const [dx, dy] = CURRENT[info.current];
        const tx = cx + dx * radius * 0.8;
        const ty = cy + dy * radius * 0.8;
        group.append(svg("polygon", { class: "current", points: `${tx},${ty} ${cx + dx * radius * 0.45 - dy * 6},${cy + dy * radius * 0.45 + dx * 6} ${cx + dx * radius * 0.45 + dy * 6},${cy + dy * radius * 0.45 - dx * 6}` }));
      }
      group.append(svg("text", { x: cx, y: cy - radius + 11, class: "space-id", "text-anchor": "middle", text: space.id.split("-").pop() }));
      if (move) {
        group.append(svg("circle", { cx, cy, r: radius + 6, class: "reach-ring" }));
        group.addEventListener("click", activate(move.command));
        group.addEventListener("keydown", activate(move.command));
      }
      g.append(group);
      drawFigures(g, space.figures, cx, cy, radius, { party, names, wounds, effects, targets, activate, space: space.id });
    }
    root.append(g);
  }
  if (strays.length) {
    const band = svg("g", { class: "strays", "aria-label": "Figures on spaces of no tile on the table" },
      svg("text", { x: GAP, y: tilesHeight + 14, class: "tile-name", text: "On spaces of no tile on the table:" }));
    strays.forEach(([figure, space], i) => {
      const x = GAP + 40 + i * 150;
      const y = tilesHeight + 50;
      drawFigures(band, [figure], x, y, 30, { party, names, wounds, effects, targets: new Map(), activate, space });
      band.append(svg("text", { x: x + 26, y: y + 5, class: "stray-label", text: `${names(figure)} (${names(space)})` }));
    });
    root.append(band);
  }
  return root;
}

// The figures of one space on a grid of equal cells (1, 2x2, 3x3, …: as many as the space holds), each
// token inside its own cell, so tokens that share a space never overlap.
export function figureLayout(n, cx, cy, radius) {
  if (n <= 1) return { size: radius * 0.55, at: [[cx, cy + 2]] };
  const grid = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / grid);
  const pitch = (2 * radius * 0.95) / grid;
  const size = pitch / 2.4;  // a token (a disc, or a diamond of half-diagonal 1.06 size) fits in 2.12 size < pitch
  const at = [];
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / grid);
    const inRow = row === rows - 1 ? n - row * grid : grid;  // the last row, centred
    const col = i % grid;
    at.push([cx + (col - (inRow - 1) / 2) * pitch, cy + (row - (rows - 1) / 2) * pitch]);
  }
  return { size, at };
}

function drawFigures(g, figures, cx, cy, radius, ctx) {
  const n = figures.length;
  if (!n) return;
  const { size, at } = figureLayout(n, cx, cy, radius);
  figures.forEach((figure, i) => {
    const [x, y] = at[i];
    const mouse = ctx.party.has(figure);
    const wound = ctx.wounds[figure] || 0;
    const effect = ctx.effects[figure] || [];
    const target = ctx.targets.get(figure);
    const title = [ctx.names(figure), `on ${ctx.names(ctx.space)}`,
      wound ? `${wound} wound${wound > 1 ? "s" : ""}` : "", effect.length ? effect.join(", ") : "",
      target ? target.label : ""].filter(Boolean).join(" · ");
    const fg = svg("g", {
      class: `figure ${mouse ? "mouse" : "minion"} fig-${mouse ? figure : "minion"}${target ? " target" : ""}`,
      "data-figure": figure, "data-space": ctx.space,
      // a target's name: its label, then the letters drawn on it (the title and the letters read as one)
      ...(target ? { role: "button", tabindex: 0, "aria-label": `${target.label} — ${shortLabel(figure, ctx.party)}` } : {}),
    }, svg("title", { text: target ? `${target.label} — ` : title }));
    if (mouse) fg.append(svg("circle", { cx: x, cy: y, r: size, class: "token" }));
    else {
      const half = n === 1 ? size : size * 0.75;  // alone, the diamond may fill its space
      fg.append(svg("rect", { x: x - half, y: y - half, width: half * 2, height: half * 2, rx: 2, transform: `rotate(45 ${x} ${y})`, class: "token" }));
    }
    if (effect.length) fg.append(svg("circle", { cx: x, cy: y, r: size * 1.12, class: "effect-ring" }));
    fg.append(svg("text", { x, y: y + size * 0.38, class: "figure-label", "text-anchor": "middle", "font-size": Math.max(8, size * 0.95), text: shortLabel(figure, ctx.party) }));
    if (wound) {
      fg.append(svg("circle", { cx: x + size * 0.85, cy: y - size * 0.85, r: Math.max(6, size * 0.45), class: "wound-badge" }));
      fg.append(svg("text", { x: x + size * 0.85, y: y - size * 0.85 + 3.5, class: "wound-text", "text-anchor": "middle", text: String(wound) }));
    }
    if (target) {
      fg.append(svg("circle", { cx: x, cy: y, r: size * 1.2, class: "target-ring" }));
      fg.addEventListener("click", ctx.activate(target.command));
      fg.addEventListener("keydown", ctx.activate(target.command));
    }
    g.append(fg);
  });
}

function defs() {
  return svg("defs", {},
    svg("pattern", { id: "water-waves", width: 12, height: 8, patternUnits: "userSpaceOnUse" },
      svg("rect", { width: 12, height: 8, class: "water-fill" }),
      svg("path", { d: "M0,4 Q3,1 6,4 T12,4", class: "water-wave" })));
}

// The minion cheese wheel and the story board (hourglass and chapter end marker), as figures.
export function trackFigures(board, el, names = (x) => x) {
  const wheel = Math.max(0, board.cheese_wheel || 0);
  const wheelSvg = svg("svg", { viewBox: "0 0 120 120", class: "wheel", role: "img", "aria-label": `Minion cheese wheel: ${wheel} of 6` });
  for (let i = 0; i < 6; i++) {
    const a0 = (i / 6) * 2 * Math.PI - Math.PI / 2;
    const a1 = ((i + 1) / 6) * 2 * Math.PI - Math.PI / 2;
    const p0 = [60 + 50 * Math.cos(a0), 60 + 50 * Math.sin(a0)];
    const p1 = [60 + 50 * Math.cos(a1), 60 + 50 * Math.sin(a1)];
    wheelSvg.append(svg("path", { d: `M60,60 L${p0.join(",")} A50,50 0 0,1 ${p1.join(",")} Z`, class: i < wheel ? "wedge full" : "wedge" }));
  }
  wheelSvg.append(svg("circle", { cx: 60, cy: 60, r: 21, class: "wheel-hub" }));
  wheelSvg.append(svg("text", { x: 60, y: 67, "text-anchor": "middle", class: "wheel-count", text: `${wheel}/6` }));
  const pages = Math.max(board.end_marker_page || 0, board.hourglass_page || 0, 1);
  const story = svg("svg", { viewBox: `0 0 ${pages * 44 + 8} 64`, class: "story", role: "img",
    "aria-label": `Hourglass on page ${board.hourglass_page}; chapter end marker on page ${board.end_marker_page}` });
  for (let p = 1; p <= pages; p++) {
    const x = 4 + (p - 1) * 44;
    const here = p === board.hourglass_page;
    const end = p === board.end_marker_page;
    story.append(svg("rect", { x, y: 4, width: 40, height: 40, rx: 4, class: `page${here ? " hourglass-here" : ""}${end ? " end-here" : ""}` }));
    story.append(svg("text", { x: x + 20, y: 58, "text-anchor": "middle", class: "page-no", text: `p.${p}` }));
    if (here) story.append(svg("path", { d: `M${x + 12},10 h16 l-8,14 l8,14 h-16 l8,-14 z`, class: "hourglass" }));
    if (end && !here) story.append(svg("text", { x: x + 20, y: 29, "text-anchor": "middle", class: "end-text", text: "END" }));
  }
  const cheese = Object.entries(board.mouse_cheese || {});
  return [
    el("figure", { class: "track", "data-track": "cheese-wheel" }, wheelSvg, el("figcaption", { text: `Minion cheese wheel: ${wheel} of 6` })),
    el("figure", { class: "track", "data-track": "story" }, story,
      el("figcaption", { text: `Hourglass: page ${board.hourglass_page} · End marker: page ${board.end_marker_page}` })),
    el("figure", { class: "track", "data-track": "mouse-cheese" }, el("figcaption", { text: "Mice's cheese" }),
      el("p", { class: "cheese-list", text: cheese.length ? cheese.map(([m, n]) => `${names(m)}: ${n}`).join(" · ") : "none" })),
  ];
}

// The board in a box of its own that scrolls when zoomed (the page itself never scrolls sideways),
// with zoom buttons: fit the width, or 1.5x, 2x, 3x it. holder.zoom keeps the zoom across re-renders;
// redraw() draws the board again after a change.
export function zoomable(picture, holder, redraw) {
  const zoom = holder.zoom || 1;
  picture.style.width = `${zoom * 100}%`;
  picture.style.maxHeight = zoom > 1 ? "none" : "";
  const set = (z) => () => {
    holder.zoom = Math.max(1, Math.min(3, z));
    redraw();
  };
  const bar = document.createElement("div");
  bar.className = "zoom";
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "Zoom the board");
  const button = (text, label, z, key) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "secondary";
    b.textContent = text;
    b.dataset.zoom = key;
    b.setAttribute("aria-label", label);
    b.disabled = z === zoom || z < 1 || z > 3;
    b.addEventListener("click", set(z));
    return b;
  };
  const steps = [1, 1.5, 2, 3];
  const at = steps.indexOf(zoom);
  bar.append(
    button("−", "Zoom out", steps[Math.max(0, at - 1)], "out"),
    button("Fit", "Fit the board to the width", 1, "fit"),
    button("+", "Zoom in", steps[Math.min(steps.length - 1, at + 1)], "in"),
  );
  const label = document.createElement("span");
  label.className = "zoom-level";
  label.textContent = `${Math.round(zoom * 100)}%`;
  bar.append(label);
  const box = document.createElement("div");
  box.className = "board-scroll";
  box.append(picture);
  return [bar, box];
}

// A collapsible legend of the board's marks, each drawn as on the board.
export function boardLegend() {
  const sample = (...marks) => svg("svg", { viewBox: "0 0 40 40", class: "legend-mark", "aria-hidden": "true" }, ...marks);
  const disc = (cls = "space-disc") => svg("circle", { cx: 20, cy: 20, r: 15, class: cls });
  const rows = [
    ["A space (its number on the tile at the top)", sample(disc(), svg("text", { x: 20, y: 15, class: "space-id", "text-anchor": "middle", text: "5" }))],
    ["Where the mice start", sample(disc(), svg("circle", { cx: 20, cy: 20, r: 10, class: "start-ring" }))],
    ["Minion entrance", sample(disc(), svg("circle", { cx: 20, cy: 20, r: 18, class: "entrance-ring" }))],
    ["Mousetrap", sample(disc(), svg("path", { d: "M13,13L27,27M27,13L13,27", class: "trap-x" }))],
    ["Flip space: explore by turning the board over", sample(disc(), svg("text", { x: 20, y: 27, class: "flip-mark", "text-anchor": "middle", text: "↻" }))],
    ["Water (the arrow: the current)", sample(svg("defs", {}, svg("pattern", { id: "legend-waves", width: 12, height: 8, patternUnits: "userSpaceOnUse" },
      svg("rect", { width: 12, height: 8, class: "water-fill" }), svg("path", { d: "M0,4 Q3,1 6,4 T12,4", class: "water-wave" }))),
      svg("circle", { cx: 20, cy: 20, r: 15, fill: "url(#legend-waves)", stroke: "#6f6450" }), svg("polygon", { class: "current", points: "32,20 24,15 24,25" }))],
    ["Yellow line: 3 movement to cross against its arrow", sample(svg("g", { class: "edge-line yellow" }, svg("line", { x1: 20, y1: 6, x2: 20, y2: 34 })))],
    ["Red line: impassable", sample(svg("g", { class: "edge-line red" }, svg("line", { x1: 20, y1: 6, x2: 20, y2: 34 })))],
    ["Wall", sample(svg("line", { x1: 4, y1: 20, x2: 36, y2: 20, class: "wall" }))],
    ["Exit to the next room (its side's letter)", sample(svg("g", { class: "exit exit-orange" }, svg("rect", { x: 6, y: 15, width: 28, height: 10, rx: 3 })))],
    ["A mouse (her initials)", sample(svg("g", { class: "figure mouse fig-collin" }, svg("circle", { cx: 20, cy: 20, r: 12, class: "token" }),
      svg("text", { x: 20, y: 25, class: "figure-label", "text-anchor": "middle", "font-size": 12, text: "Co" })))],
    ["A minion (its initials and number)", sample(svg("g", { class: "figure minion" }, svg("rect", { x: 12, y: 12, width: 16, height: 16, rx: 2, transform: "rotate(45 20 20)", class: "token" }),
      svg("text", { x: 20, y: 24, class: "figure-label", "text-anchor": "middle", "font-size": 10, text: "RW1" })))],
    ["Wounds on a figure", sample(svg("circle", { cx: 20, cy: 20, r: 10, class: "wound-badge" }), svg("text", { x: 20, y: 24, class: "wound-text", "text-anchor": "middle", text: "2" }))],
    ["An effect on a mouse (webbed, stunned, charmed…)", sample(svg("circle", { cx: 20, cy: 20, r: 14, class: "effect-ring" }))],
    ["A space you can move to (click or press Enter)", sample(svg("circle", { cx: 20, cy: 20, r: 13, class: "space-disc reach-sample" }), svg("circle", { cx: 20, cy: 20, r: 17, class: "reach-ring" }))],
    ["A figure you can battle (click or press Enter)", sample(svg("circle", { cx: 20, cy: 20, r: 15, class: "target-ring" }))],
  ];
  const details = document.createElement("details");
  details.id = "legend";
  details.className = "legend panel";
  const summary = document.createElement("summary");
  summary.textContent = "Legend: the board's marks";
  details.append(summary);
  const list = document.createElement("ul");
  for (const [text, mark] of rows) {
    const li = document.createElement("li");
    li.append(mark, document.createTextNode(text));
    list.append(li);
  }
  details.append(list);
  return details;
}
