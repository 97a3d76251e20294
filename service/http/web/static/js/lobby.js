// The lobby: public games, and a form that creates a game and shows one join link per seat
// (the seat's token in the URL fragment, which never reaches a server) and a spectator link.

import { Api, ApiError, clear, el } from "./api.js";

const SEAT_NAMES = ["red", "blue", "green", "yellow", "purple", "orange", "white", "black"];
const api = new Api(null);
const $ = (id) => document.getElementById(id);
const form = { seats: [], rulesets: [], module: null };
let cursor = 0;

function showProblem(error) {
  const box = clear($("problem"));
  if (!error) { box.hidden = true; return; }
  box.hidden = false;
  const problem = error instanceof ApiError ? error.problem : {};
  box.append(el("strong", { text: problem.title || "Error" }), " ", el("span", { class: "detail", text: error.message }));
  const errors = problem.errors || (problem.extra && problem.extra.errors);
  if (Array.isArray(errors)) box.append(el("ul", {}, errors.map((e) => el("li", { text: `${e.key ? `${e.key}: ` : ""}${e.message}` }))));
}

// The pieces the seats split between them, when the ruleset's setup form names them (``pieces()``:
// ``{ id, name }`` each), else null: each seat's pieces are then typed.
function formPieces() {
  return form.module && form.module.pieces ? form.module.pieces() : null;
}

function renderSeats() {
  const box = clear($("seats"));
  const pieces = formPieces();
  if (!form.seats.length) form.seats = [{ name: "red", controls: [] }, { name: "blue", controls: [] }];
  if (pieces) {
    // Every piece belongs to exactly one seat: keep what was set, give the rest out in turn.
    const ids = pieces.map((p) => p.id);
    for (const seat of form.seats) seat.controls = seat.controls.filter((m) => ids.includes(m));
    const owned = new Set(form.seats.flatMap((s) => s.controls));
    let next = 0;
    for (const piece of ids) {
      if (owned.has(piece)) continue;
      form.seats[next % form.seats.length].controls.push(piece);
      next += 1;
    }
  }
  form.seats.forEach((seat, index) => {
    const row = el("div", { class: "seat-row", role: "group", "aria-label": `Seat ${index + 1}` });
    row.append(el("label", {}, "Name", el("input", {
      type: "text", value: seat.name, size: 10, "aria-label": `Seat ${index + 1} name`, class: "seat-name",
      oninput: (e) => { seat.name = e.target.value.trim(); },
    })));
    if (pieces) {
      for (const { id: piece, name } of pieces) {
        row.append(el("label", {}, el("input", {
          type: "checkbox", checked: seat.controls.includes(piece), value: piece, "aria-label": `Seat ${seat.name} plays ${name}`,
          onchange: (e) => {
            for (const other of form.seats) other.controls = other.controls.filter((m) => m !== piece);
            if (e.target.checked) seat.controls.push(piece);
            else form.seats[(index + 1) % form.seats.length].controls.push(piece);
            renderSeats();
          },
        }), name));
      }
    } else {
      row.append(el("label", {}, "Controls", el("input", {
        type: "text", value: seat.controls.join(", "), placeholder: "piece ids, comma-separated", class: "seat-controls",
        oninput: (e) => { seat.controls = e.target.value.split(",").map((x) => x.trim()).filter(Boolean); },
      })));
    }
    if (form.seats.length > 1) {
      row.append(el("button", { type: "button", class: "secondary", onclick: () => { form.seats.splice(index, 1); renderSeats(); } }, `Remove seat ${seat.name}`));
    }
    box.append(row);
  });
}

function addSeat() {
  const used = new Set(form.seats.map((s) => s.name));
  const name = SEAT_NAMES.find((n) => !used.has(n)) || `seat-${form.seats.length + 1}`;
  form.seats.push({ name, controls: [] });
  renderSeats();
}

// A ruleset's own setup form (GET /rulesets' ``lobby``, docs/web-table.md): it draws the setup (and
// the seats, unless it names the pieces the lobby's seats split: ``pieces()``), gives the body's
// ``setup`` (and ``seats``), and shows a refusal next to the field it concerns.
async function onRuleset() {
  const info = form.rulesets.find((r) => r.name === $("ruleset").value);
  const box = clear($("ruleset-setup"));
  form.module = null;
  if (info && info.lobby) {
    const module = await import(info.lobby);
    if ($("ruleset").value !== info.name) return;  // changed again meanwhile
    const drawn = await module.setupForm(box, { api, el, clear, changed: () => renderSeats() });
    if ($("ruleset").value !== info.name) return;
    form.module = drawn;
  }
  document.body.dataset.ruleset = $("ruleset").value;
  $("ruleset-setup").hidden = !form.module;
  $("generic-setup").hidden = Boolean(form.module);
  $("seats-fieldset").hidden = Boolean(form.module) && !form.module.pieces;
  renderSeats();
}

async function create(event) {
  event.preventDefault();
  showProblem(null);
  const data = new FormData($("create"));
  const ruleset = data.get("ruleset");
  let setup;
  let seats = form.seats.map((s) => ({ name: s.name, controls: s.controls }));
  if (form.module) form.module.clearProblems();
  if (form.module) {
    const drawn = form.module.body();
    setup = drawn.setup;
    if (drawn.seats) seats = drawn.seats;  // a form that draws its own seats
  } else {
    try { setup = JSON.parse($("setup-json").value || "{}"); } catch (e) { showProblem(new Error(`The setup is not JSON: ${e.message}`)); return; }
  }
  const body = {
    ruleset, setup, seats,
    dice_mode: data.get("dice_mode"), undo_policy: data.get("undo_policy") || null,
    decision_policy: data.get("decision_policy"), visibility: data.get("visibility"),
  };
  const button = $("create-game");
  button.disabled = true;
  try {
    const created = await api.post("/games", body);
    showCreated(created);
    cursor = 0;
    clear($("games").querySelector("tbody"));
    await loadGames();
  } catch (error) {
    if (form.module && form.module.problem(error)) showProblem(new Error("The game was not created: see the field marked below."));
    else showProblem(error);
  } finally {
    button.disabled = false;
  }
}

function link(label, href, cls) {
  const absolute = new URL(href, window.location.origin).href;
  const input = el("input", { type: "text", readonly: true, value: absolute, "aria-label": `${label} (address)` });
  return el("li", { class: cls },
    el("a", { href, class: "join", "data-label": label }, label), " ",
    el("button", { type: "button", class: "secondary", onclick: async () => {
      input.select();
      try { await navigator.clipboard.writeText(absolute); } catch { document.execCommand && document.execCommand("copy"); }
    } }, "Copy"),
    input);
}

function showCreated(created) {
  const id = created.game.id;
  const box = clear($("created"));
  box.className = "created panel";
  box.dataset.game = id;
  const spectator = created.game.visibility === "private"
    ? `/play/${id}#token=${encodeURIComponent(created.spectator_token)}` : `/play/${id}`;
  box.append(
    el("h3", { text: `Game ${id.slice(0, 8)} created` }),
    el("p", { class: "hint", text: "Give each player their seat's link: the token in it is shown only now. Links carry the token after #, which browsers never send to a server." }),
    el("ul", { class: "links" },
      created.tokens.map((t) => link(`Join as seat ${t.seat}`, `/play/${id}#token=${encodeURIComponent(t.token)}`, "seat-link")),
      link("Spectator link", spectator, "spectator-link"),
      created.auditor_token ? link("Auditor link (sees every secret: for disputes)", `/play/${id}/history#token=${encodeURIComponent(created.auditor_token)}`, "auditor-link") : null));
}

async function loadGames() {
  try {
    const page = await api.get("/games", { cursor, limit: 50 });
    const body = $("games").querySelector("tbody");
    if (!page.games.length && cursor === 0) body.append(el("tr", {}, el("td", { colspan: 5, class: "hint", text: "No public game yet." })));
    for (const game of page.games) {
      body.append(el("tr", { "data-game": game.id },
        el("td", {}, el("span", { class: "hash", text: game.id.slice(0, 8) }), " ", game.ruleset,
          el("div", { class: "hint", text: `${game.dice_mode} dice · created ${new Date(game.created_on).toLocaleString()}` })),
        el("td", { text: String(game.version) }),
        el("td", { text: game.turn || "—" }),
        el("td", { text: game.result || "running" }),
        el("td", {}, el("a", { href: `/play/${game.id}` }, "Watch"), " · ", el("a", { href: `/play/${game.id}/history` }, "History"))));
    }
    cursor = page.next_cursor || 0;
    $("more-games").hidden = page.next_cursor === null;
  } catch (error) {
    showProblem(error);
  }
}

async function main() {
  $("create").addEventListener("submit", create);
  $("add-seat").addEventListener("click", addSeat);
  $("ruleset").addEventListener("change", onRuleset);
  $("more-games").addEventListener("click", loadGames);
  try {
    const rulesets = await api.get("/rulesets");
    form.rulesets = rulesets;
    // each game by its name (its table module's ``title``), else by its ruleset's; the first is picked
    await Promise.all(rulesets.map(async (r) => {
      const option = el("option", { value: r.name, text: r.name });
      $("ruleset").append(option);
      try {
        const module = await import(r.table);
        if (module.title) option.textContent = module.title(null);
      } catch { /* the name stays the ruleset's */ }
    }));
    await onRuleset();
  } catch (error) {
    showProblem(error);
  }
  await loadGames();
  document.body.dataset.ready = "true";
}

main();
