// The lobby's setup form for a new game of Vast: The Crystal Caverns (docs/web-table.md, A lobby
// module's interface). A setup row of GET /content/vast/setups (the rulebook's table of who plays
// against whom), a difficulty card per role (level 1 easiest, 3 standard, 5 hardest; the cards that
// are not built are offered disabled), and who plays each role: a person at a seat of their own
// (their own join link), hot-seat (one shared seat, one page, plays every hot-seat role), or a
// server bot (a bot seat, played by the server from its own view only).

const ROLE = { knight: "Knight", goblins: "Goblins", dragon: "Dragon", cave: "Cave", thief: "Thief" };
const LEVEL = { 1: "1 · easiest", 2: "2 · easier", 3: "3 · standard", 4: "4 · harder", 5: "5 · hardest" };
// The difficulty cards the ruleset builds (VastSetup.difficulty): none for the Cave, the Dragon's
// level 5 and the Thief's levels 1-2 are not built.
const BUILT = { knight: [1, 2, 3, 4, 5], goblins: [1, 2, 3, 4, 5], dragon: [1, 2, 3, 4], thief: [3, 4, 5], cave: [] };
const WHO = { person: "A person (own seat and link)", hotseat: "Hot-seat (shared seat on one device)", bot: "Server bot" };
const VARIANT = {
  "alone-in-the-dark": "Alone in the Dark", "flare:knight": "the Knight's Flare", "flare:thief": "the Thief's Flare",
  "flare:goblins": "the Goblins' Flare", "crystals:5": "5 Crystals",
};

export function rowName(row) {
  const solo = row.id.match(/^(\w+)-solo(?:-(\w+))?$/);
  if (solo) return `${ROLE[solo[1]]} alone${solo[2] ? ` (${solo[2]})` : ""}`;
  return row.roles.map((r) => ROLE[r] || r).join(row.roles.length === 2 ? " vs " : ", ");
}

function variantText(variant) {
  if (VARIANT[variant]) return VARIANT[variant];
  const [kind, value] = variant.split(":");
  if (kind === "infestation") return `Goblin Infestation line ${value}`;
  if (kind === "hunger-locked") return `${value} Hunger locked`;
  return variant.replace(/[-:]/g, " ");
}

export async function setupForm(box, { api, el, clear }) {
  const rows = await api.get("/content/vast/setups");
  const state = { row: rows.find((r) => r.roles.length === 5) || rows[0], who: {}, seat: {}, level: {} };
  const errorBox = (id) => el("p", { class: "field-error", id, hidden: true });
  const rowSelect = el("select", { id: "vast-row", name: "vast-row", "aria-describedby": "vast-row-note vast-row-error" },
    rows.map((r) => el("option", { value: r.id, text: rowName(r), selected: r === state.row ? true : undefined })));
  const rowNote = el("span", { class: "hint", id: "vast-row-note" });
  const roles = el("fieldset", { id: "vast-roles", "aria-describedby": "vast-roles-error" }, el("legend", { text: "Who plays each role" }));
  const levels = el("fieldset", { id: "vast-difficulty", "aria-describedby": "vast-difficulty-error" }, el("legend", { text: "Difficulty cards" }));
  box.append(
    el("div", { class: "field" }, el("label", { for: "vast-row", text: "Who plays (a row of the rulebook's setup table)" }), rowSelect, rowNote, errorBox("vast-row-error")),
    levels, roles);

  function draw() {
    rowNote.textContent = state.row.variants.length ? `With ${state.row.variants.map(variantText).join(", ")}.` : "";
    clear(levels).append(el("legend", { text: "Difficulty cards" }));
    clear(roles).append(el("legend", { text: "Who plays each role" }),
      el("p", { class: "hint", text: "A person gets a join link of their own; hot-seat roles share one seat played from one device; the server plays a bot's role from that role's own view only." }));
    for (const role of state.row.roles) {
      const built = BUILT[role] || [];
      if (built.length) {
        if (!built.includes(state.level[role])) state.level[role] = 3;
        levels.append(el("div", { class: "field inline" },
          el("label", { for: `vast-level-${role}`, text: `${ROLE[role]}'s card` }),
          el("select", { id: `vast-level-${role}`, "data-role": role, onchange: (e) => { state.level[role] = Number(e.target.value); } },
            [1, 2, 3, 4, 5].map((n) => el("option", { value: n, text: `${LEVEL[n]}${built.includes(n) ? "" : " (not built)"}`, disabled: built.includes(n) ? undefined : true, selected: state.level[role] === n ? true : undefined })))));
      }
      if (!state.who[role]) state.who[role] = "person";
      if (!state.seat[role]) state.seat[role] = role;
      const seatInput = el("input", {
        type: "text", id: `vast-seat-${role}`, value: state.seat[role], size: 10, "aria-describedby": `vast-seat-${role}-error`,
        hidden: state.who[role] !== "person" ? true : undefined, "aria-label": `${ROLE[role]}'s seat name`,
        oninput: (e) => { state.seat[role] = e.target.value.trim(); },
      });
      roles.append(el("div", { class: "seat-row role-row", "data-role": role },
        el("label", { for: `vast-who-${role}`, class: "role-name", text: ROLE[role] }),
        el("select", { id: `vast-who-${role}`, "data-role": role, onchange: (e) => { state.who[role] = e.target.value; draw(); } },
          Object.entries(WHO).map(([value, text]) => el("option", { value, text, selected: state.who[role] === value ? true : undefined }))),
        seatInput, errorBox(`vast-seat-${role}-error`)));
    }
    if (!levels.querySelector("select")) levels.append(el("p", { class: "hint", text: "No difficulty card for these roles." }));
    levels.append(errorBox("vast-difficulty-error"));
    roles.append(errorBox("vast-roles-error"));
  }
  rowSelect.addEventListener("change", () => { state.row = rows.find((r) => r.id === rowSelect.value); draw(); });
  draw();

  function show(id, text) {
    const target = box.querySelector(`#${id}`);
    if (!target) return false;
    target.hidden = false;
    target.textContent = text;
    return true;
  }

  return {
    // The POST /games body's setup and seats.
    body() {
      const seats = [];
      const hotseat = [];
      for (const role of state.row.roles) {
        if (state.who[role] === "bot") seats.push({ name: `${role}-bot`, controls: [role], bot: true });
        else if (state.who[role] === "hotseat") hotseat.push(role);
        else seats.push({ name: state.seat[role] || role, controls: [role] });
      }
      if (hotseat.length) seats.push({ name: "hotseat", controls: hotseat });
      const difficulty = Object.fromEntries(state.row.roles.filter((r) => (BUILT[r] || []).length && state.level[r] !== 3).map((r) => [r, state.level[r]]));
      return { setup: { setup: state.row.id, difficulty }, seats };
    },
    clearProblems() { for (const e of box.querySelectorAll(".field-error")) { e.hidden = true; e.textContent = ""; } },
    // A refusal (problem+json) in words next to the field it concerns; false when it concerns none.
    problem(error) {
      const problem = error.problem || {};
      const rule = problem.rule || "";
      const errors = problem.errors || [];
      let shown = false;
      for (const e of errors) {
        const key = e.key || "";
        const seat = key.match(/^seats\[(\d+)\]/);
        if (key.startsWith("setup.difficulty")) shown = show("vast-difficulty-error", `A difficulty card is out of range: ${e.message}.`) || shown;
        else if (seat) {
          const sent = this.body().seats[Number(seat[1])];
          const role = sent && sent.controls.length === 1 ? sent.controls[0] : null;
          shown = (role && show(`vast-seat-${role}-error`, `This seat name is refused: use lowercase letters, digits, - or _ (${e.message}).`)) || show("vast-roles-error", e.message) || shown;
        } else if (key.startsWith("setup")) shown = show("vast-row-error", e.message) || shown;
      }
      if (shown) return true;
      if (rule === "setup.seat-controls") return show("vast-roles-error", `Every role needs exactly one player: ${error.message}.`);
      if (/seat names/.test(error.message)) return show("vast-roles-error", "Two people have the same seat name: give each a name of their own.");
      if (/not in play/.test(error.message)) return show("vast-difficulty-error", `A difficulty card is for a role not in play: ${error.message}.`);
      if (rule.startsWith("setup.") || rule.startsWith("game.")) return show("vast-row-error", error.message);
      return false;
    },
  };
}
