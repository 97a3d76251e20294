// The lobby: public games, and a form that creates a game and shows one join link per seat
// (the seat's token in the URL fragment, which never reaches a server) and a spectator link.

import { Api, ApiError, clear, el } from "./api.js";

const MICE = "mice-and-mystics";
const GAME_NAMES = { [MICE]: "Mice and Mystics", vast: "Vast: The Crystal Caverns" };
const SEAT_NAMES = ["red", "blue", "green", "yellow", "purple", "orange", "white", "black"];
const api = new Api(null);
const $ = (id) => document.getElementById(id);
const form = { chapters: [], mice: [], seats: [], rulesets: [], module: null };
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

function chosenMice() {
  return [...document.querySelectorAll("#mice input[type=checkbox]:checked")].map((i) => i.value);
}

function isMice() { return $("ruleset").value === MICE; }

function renderMice() {
  const chapter = form.chapters.find((c) => c.id === $("chapter").value);
  const banned = new Set((chapter && chapter.mice_not_allowed) || []);
  const before = new Set(chosenMice());
  const fresh = before.size === 0;
  const box = clear($("mice"));
  let picked = 0;
  for (const mouse of form.mice) {
    const allowed = !banned.has(mouse.id);
    const checked = allowed && (fresh ? picked < ((chapter && chapter.party_size) || 4) : before.has(mouse.id));
    if (checked) picked += 1;
    box.append(el("label", { title: allowed ? mouse.classes.join(", ") : chapter.mice_not_allowed_reason },
      el("input", { type: "checkbox", name: "mice", value: mouse.id, checked, disabled: !allowed, onchange: renderSeats }),
      `${mouse.name}${allowed ? "" : " (not in this chapter)"}`));
  }
  $("chapter-note").textContent = chapter ? `${chapter.title}; party of ${chapter.party_size}` : "";
  renderSeats();
}

function renderSeats() {
  const box = clear($("seats"));
  const pieces = isMice() ? chosenMice() : null;
  if (!form.seats.length) form.seats = [{ name: "red", controls: [] }, { name: "blue", controls: [] }];
  if (pieces) {
    // Every chosen mouse belongs to exactly one seat: keep what was set, give the rest out in turn.
    for (const seat of form.seats) seat.controls = seat.controls.filter((m) => pieces.includes(m));
    const owned = new Set(form.seats.flatMap((s) => s.controls));
    let next = 0;
    for (const mouse of pieces) {
      if (owned.has(mouse)) continue;
      form.seats[next % form.seats.length].controls.push(mouse);
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
      for (const mouse of pieces) {
        const name = (form.mice.find((m) => m.id === mouse) || { name: mouse }).name;
        row.append(el("label", {}, el("input", {
          type: "checkbox", checked: seat.controls.includes(mouse), value: mouse, "aria-label": `Seat ${seat.name} plays ${name}`,
          onchange: (e) => {
            for (const other of form.seats) other.controls = other.controls.filter((m) => m !== mouse);
            if (e.target.checked) seat.controls.push(mouse);
            else form.seats[(index + 1) % form.seats.length].controls.push(mouse);
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

// A ruleset's own setup form (GET /rulesets' ``lobby``, docs/web-table.md): it draws the setup and the
// seats, gives the body's ``setup`` and ``seats``, and shows a refusal next to the field it concerns.
async function onRuleset() {
  const mice = isMice();
  const info = form.rulesets.find((r) => r.name === $("ruleset").value);
  const box = clear($("ruleset-setup"));
  form.module = null;
  if (!mice && info && info.lobby) {
    const module = await import(info.lobby);
    if ($("ruleset").value !== info.name) return;  // changed again meanwhile
    form.module = await module.setupForm(box, { api, el, clear });
  }
  document.body.dataset.ruleset = $("ruleset").value;
  $("mice-setup").hidden = !mice;
  $("ruleset-setup").hidden = !form.module;
  $("generic-setup").hidden = mice || Boolean(form.module);
  $("seats-fieldset").hidden = Boolean(form.module);
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
  if (ruleset === MICE) setup = { chapter: data.get("chapter"), mice: chosenMice() };
  else if (form.module) ({ setup, seats } = form.module.body());
  else {
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
  $("chapter").addEventListener("change", renderMice);
  $("more-games").addEventListener("click", loadGames);
  try {
    const rulesets = await api.get("/rulesets");
    form.rulesets = rulesets;
    for (const r of rulesets) $("ruleset").append(el("option", { value: r.name, text: GAME_NAMES[r.name] || r.name }));
    if (rulesets.some((r) => r.name === MICE)) {
      $("ruleset").value = MICE;
      const [chapters, mice] = await Promise.all([api.get(`/content/${MICE}/chapters`), api.get(`/content/${MICE}/mice`)]);
      form.chapters = chapters;
      form.mice = mice;
      for (const c of chapters) $("chapter").append(el("option", { value: c.id, text: `${c.id}: ${c.title}` }));
      renderMice();
    }
    await onRuleset();
  } catch (error) {
    showProblem(error);
  }
  await loadGames();
  document.body.dataset.ready = "true";
}

main();
