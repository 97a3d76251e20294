// The history and dispute view: the board at any version (GET /state?version=N, and the read models
// the table module draws from at that version, GET /board?version=N and /initiative?version=N, as the
// module's ``versionViews`` names them), stepping by version, turn or round, the turn's commands, dice, decisions and events (undone ones marked),
// the dice proof, a verify badge and the export of the log. All through the reader's token. The
// ruleset's table module (docs/web-table.md, named by GET /rulesets) draws the game at a version and
// words its events; without one, the state is drawn as nested lists and the events by their fields.

import { Api, ApiError, clear, el, gameIdFromPath, problemSentence, tokenFromFragment } from "./api.js";
import { follow } from "./live.js";
import { fieldsText, renderValue } from "./generic.js";

const gameId = gameIdFromPath();
const token = tokenFromFragment();
const api = new Api(token);
const $ = (id) => document.getElementById(id);

const page = {
  game: null, view: null, events: [], turns: [], rounds: [], shown: 0, wanted: 0, loading: false,
  states: new Map(), turnCache: new Map(),
};

// The table module's hook when it has one (docs/web-table.md), else undefined.
const hook = (name) => (page.view && page.view[name] ? page.view[name] : undefined);

// Players' words for an id: the table module's (its content's names), else the id.
function names(id) {
  const name = hook("pieceName");
  return name ? name(id) : id;
}

// A drawn card (or tile) by its printed name: the table module's (``drawName``, given the deck it came
// from when known), else as any id.
function cardWords(id, deck) {
  const words = hook("drawName");
  return words ? words(id, deck) : names(id);
}

// The cards of a draw: by their printed names, or counted when none may be seen ("3 face down"; one is
// named as the module names a face-down card of that deck: "a face-down tile").
function cardsWords(list, deck) {
  if (list.length > 1 && list.every((id) => id === "?")) return `${list.length} face down`;
  return list.map((id) => cardWords(id, deck)).join(", ");
}

// Who stored an event or sent a command: a seat by its name, the game's default decision policy (the
// ``policy`` pseudo-seat) in words.
const seatWords = (seat) => (seat === "policy" ? "default policy" : seat);

// A decision made, in words: who chose (a seat, or the game's default policy) and the option by the table
// module's name of it, or "made a choice hidden from you" when the reader's lens masks it ("?").
function choiceWords(by, option) {
  const who = by === "policy" ? "The default policy" : `Seat ${by}`;
  return option === undefined || option === "?" ? `${who} made a choice hidden from you` : `${who} chose ${names(option)}`;
}

// A die face in words and as a small picture (``pending``: the roll it answers, for its reason):
// the table module's, else its number and no picture.
function faceWords(face, sides, pending) {
  const words = hook("faceLabel");
  return words ? words(face, sides, pending) : String(face);
}

function faceImages(faces, sides, pending) {
  const image = hook("faceIcon");
  return image ? faces.map((f) => image(f, sides, pending)) : [];
}

const reasonWords = (reason) => String(reason).replace(/-/g, " ");

// A pending roll, shuffle, draw or decision in words: the table module's, else the shell's.
function pendingWords(pending) {
  const words = hook("pendingText");
  if (words) return words(pending);
  if (!pending) return "";
  const who = pending.piece ? `${names(pending.piece)}: ` : "";
  switch (pending.type) {
    case "RollRequested": return `${who}roll ${pending.dice} ${pending.sides && pending.sides !== 6 ? `d${pending.sides}` : "di" + (pending.dice > 1 ? "ce" : "e")} for ${reasonWords(pending.reason)}`;
    case "ShuffleRequested": return `shuffle ${pending.cards.length} cards for ${reasonWords(pending.reason)}`;
    case "DrawRequested": return `${who}draw ${pending.count || 1} card${(pending.count || 1) > 1 ? "s" : ""} from the ${String(pending.deck).replace(/-/g, " ")} deck (${reasonWords(pending.reason)})`;
    case "DecisionRequested": return `${who}choose the ${String(pending.decision).replace(/[-:]/g, " ")}`;
    default: return pending.type;
  }
}

function pretty(value) {
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? names(v) : pretty(v))).join(", ");
  if (typeof value === "string") return names(value);
  if (value && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// A command in words: the core's answers and undo by the shell, the ruleset's own by the table
// module (``commandLabel``), else its type and fields ("red: PlayCard (card c-3)").
function commandWords(command) {
  switch (command.type) {
    case "Begin": return "Begin the game";
    // a Roll, Draw or Shuffle without its result asks the server for it (server dice): the event
    // that answers it (DiceRolled, CardsDrawn, CardsShuffled) says what came up
    case "Roll": return command.faces ? `Roll ${command.faces.map((f) => faceWords(f, 6)).join(", ")}` : "Roll (the server rolls)";
    case "Draw": return command.cards ? `Draw ${cardsWords(command.cards)}` : "Draw (the server draws)";
    case "Shuffle": return command.order ? `Shuffle (${command.order.length} cards)` : "Shuffle (the server shuffles)";
    // a choice the reader may not see comes masked to its type alone
    case "Choose": return command.option === undefined || command.option === "?" ? "Choose (hidden from you)" : `Choose ${names(command.option)}`;
    case "RequestUndo": return `Ask to take back the moves after version ${command.to_version}`;
    case "ApproveUndo": return "Approve the undo";
    case "RejectUndo": return "Reject the undo";
    default: break;
  }
  const words = hook("commandLabel");
  if (words) return words(command);
  const who = command.player || "";
  const tail = Object.entries(command).filter(([k]) => k !== "type" && k !== "player").map(([k, v]) => `${k.replace(/_/g, " ")} ${pretty(v)}`).join(", ");
  return `${who ? `${who}: ` : ""}${command.type.replace(/^[a-z]+\./, "")}${tail ? ` (${tail})` : ""}`;
}

// An event in one short line: the table module's words (``eventText``), else its type and its fields
// in words; a long list is counted, not listed (a DrawRequested names up to 64 cards); the whole
// payload is for a toggle (payloadText).
function eventWords(event) {
  const words = hook("eventText");
  if (words) return words(event);
  if (event.hidden || !event.payload) return `${event.type} (hidden from you)`;
  const p = event.payload;
  if (event.type === "DiceRolled") return `Rolled ${p.faces.map((f) => faceWords(f, 6, p)).join(", ")} for ${reasonWords(p.reason)}`;
  if (event.type === "CardsDrawn") return `Drew ${cardsWords(p.cards, p.deck)} from the ${String(p.deck).replace(/-/g, " ")} deck`;
  if (event.type === "CardsShuffled") return `Shuffled ${p.order ? p.order.length : ""} cards for ${reasonWords(p.reason)}`;
  if (event.type === "DecisionMade") {
    // ``by``: the seat that chose, or the game's default decision policy (docs/api-contract.md)
    return `${choiceWords(p.by, p.option)} (${String(p.decision).replace(/[-:]/g, " ")})`;
  }
  if (event.type === "CommandAccepted" && p.command) return `Command: ${commandWords(p.command)}`;
  if (["RollRequested", "DrawRequested", "ShuffleRequested", "DecisionRequested"].includes(event.type)) {
    return `Asked: ${pendingWords({ ...p, type: event.type })}`;
  }
  return fieldsText(event, names);
}

// The whole payload of an event, pretty-printed (behind a toggle in the dispute view).
function payloadText(event) {
  return event.hidden || !event.payload ? "(hidden from you)" : JSON.stringify(event.payload, null, 1);
}

function showProblem(error) {
  const box = clear($("problem"));
  if (!error) { box.hidden = true; return; }
  box.hidden = false;
  box.append(el("span", { class: "detail", text: problemSentence(error) }));
  if (error instanceof ApiError && (error.problem.title || error.problem.detail)) {
    box.append(el("details", {}, el("summary", { text: "The server's words" }),
      el("p", { text: [error.problem.title, error.problem.detail].filter(Boolean).join(" · ") })));
  }
}

// Turn and round spans, as GET /turns/{n} and /rounds/{n} count them: the server marks each event
// with the turn and the round it belongs to (``turn``, ``round``: from the ruleset's own turn and
// round starts), so a span is the events that share a number; the events of no turn (set-up, the
// steps between a round's start and its first turn) are outside any.
function spans(kind) {
  const found = new Map();
  for (const e of page.events) {
    const number = e[kind];
    if (number === null || number === undefined) continue;
    const span = found.get(number);
    if (span) span.last = e.version;
    else found.set(number, { number, first: e.version, last: e.version });
  }
  return [...found.values()].sort((a, b) => a.number - b.number);
}

function latest() { return page.events.length ? page.events[page.events.length - 1].version : 1; }

// The read models the table module draws the game at a version from (``versionViews``: "board",
// "initiative"), besides the state; none for a module that draws from the state alone.
const versionViews = () => (hook("versionViews") || []).filter((kind) => kind === "board" || kind === "initiative");

// One read at a version (``kind``: state, board or initiative), kept on the page once read (a failed
// read is not kept: it is read again).
async function readAt(kind, version) {
  const key = `${kind}@${version}`;
  if (page.states.has(key)) return page.states.get(key);
  const promise = api.get(`/games/${gameId}/${kind}`, { version });
  page.states.set(key, promise);
  if (page.states.size > 400 * (1 + versionViews().length)) page.states.delete(page.states.keys().next().value);
  try { return await promise; } catch (e) { page.states.delete(key); throw e; }
}

const readsAt = (version) => ["state", ...versionViews()].map((kind) => `${kind}@${version}`);

// The state at a version and the read models the module draws from ({ board, initiative }), read
// together; a read already on the page is not read again.
async function stateAt(version) {
  const kinds = ["state", ...versionViews()];
  const [state, ...views] = await Promise.all(kinds.map((kind) => readAt(kind, version)));
  return { ...state, views: Object.fromEntries(views.map((v, i) => [kinds[i + 1], v[kinds[i + 1]]])) };
}

function go(version) {
  const v = Math.max(1, Math.min(latest(), Math.round(version)));
  page.wanted = v;
  page.askedAt = performance.now();
  $("version").value = String(v);
  $("version-input").value = String(v);
  $("version-out").textContent = String(v);
  pump();
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// A state at a past version is a replay, which the `expensive` quota counts (docs/api-contract.md,
// Quotas), as are the read models at a version (the module's ``versionViews``: with two, a step is
// three replays, read together). One step is in flight at a time and only the version wanted when it answers is read
// next, so a quick drag of the slider skips the versions it passed. When the quota's window is
// nearly spent (RateLimit-Remaining), the replays left are spread over the time until it resets; a
// 429 is waited out (Retry-After) and the version wanted by then is read: the slider never shows an
// error for stepping quickly, the board follows when the quota allows.
const PACE_BELOW = 10;

function pacing(seconds) {
  const note = $("pace");
  if (note) {
    note.hidden = !seconds;
    note.textContent = seconds ? `Stepping faster than the server's replay quota allows: the board follows in ${Math.ceil(seconds)} s.` : "";
  }
}

async function pump() {
  if (page.loading) return;
  page.loading = true;
  try {
    while (page.shown !== page.wanted) {
      const version = page.wanted;
      const quota = readsAt(version).every((key) => page.states.has(key)) ? null : api.quota;
      if (quota && quota.remaining < PACE_BELOW) {
        await sleep((1000 * quota.reset) / (quota.remaining + 1));
        if (page.wanted !== version) continue;
      }
      let state;
      try {
        state = await stateAt(version);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 429) throw error;
        pacing(error.retryAfter || 1);
        await sleep(1000 * (error.retryAfter || 1));
        continue;
      }
      pacing(0);
      if (page.wanted !== version) continue;
      showVersion(version, state);
      page.shown = version;
    }
  } catch (error) {
    showProblem(error);
  } finally {
    page.loading = false;
  }
}

function showVersion(version, at) {
  const s = at.state;
  if (hook("renderVersion")) {
    // the ruleset's picture of the game at this version: #board (its picture carries data-version),
    // #tracks and #initiative
    // (and the read models at that version the module names in ``versionViews``)
    page.view.renderVersion(s, version, { board: $("board"), tracks: $("tracks"), initiative: $("initiative") }, at.views);
  } else {
    const box = clear($("board"));
    box.dataset.version = String(version);
    box.append(renderValue(s, "state"));
  }
  const event = page.events[version - 1];
  const lines = [`Version ${version} of ${latest()}`];
  if (event) lines.push(`${eventWords(event)}${event.undone ? " (undone)" : ""}${event.round ? ` · round ${event.round}` : ""}${event.turn ? ` · turn ${event.turn}` : ""} · by ${seatWords(event.seat)}`);
  if (at.pending) lines.push(`pending: ${pendingWords(at.pending)}`);
  if (at.result) lines.push(`result: ${at.result}`);
  $("at-version").textContent = lines.join(" — ");
  document.body.dataset.version = String(version);
  // How long the step took, from the slider's input to the drawn board (bench/web_table.py).
  document.body.dataset.stepMs = (performance.now() - page.askedAt).toFixed(1);
  for (const li of document.querySelectorAll("#events li.here")) li.classList.remove("here");
  const li = document.querySelector(`#events li[data-version="${version}"]`);
  if (li) li.classList.add("here");
  showTurn(version);
}

async function showTurn(version) {
  const turn = page.turns.find((t) => t.first <= version && version <= t.last);
  const box = $("turn");
  if (!turn) {
    clear(box).append(el("h2", { text: "Outside any turn" }), el("p", { class: "hint", text: "Set-up, or the steps between turns." }));
    return;
  }
  if (box.dataset.turn === String(turn.number)) return;
  box.dataset.turn = String(turn.number);
  let view = page.turnCache.get(turn.number);
  if (!view) {
    try { view = await api.get(`/games/${gameId}/turns/${turn.number}`); } catch (error) { showProblem(error); return; }
    page.turnCache.set(turn.number, view);
  }
  if (box.dataset.turn !== String(turn.number)) return;
  const at = (version) => el("a", { href: "#", class: "v", onclick: (e) => { e.preventDefault(); go(version); } }, `v${version}`);
  const byVersion = new Map(view.events.map((e) => [e.version, e]));
  // one compact line per command, roll, draw or decision; the payload behind its own toggle
  const line = (version, words, event, icons = []) => el("li", { "data-version": version },
    at(version), " ", icons, " ", words, event ? payloadToggle(event) : null);
  const asEvent = (d) => byVersion.get(d.version) || { type: d.event ? d.event.type : "hidden", payload: d.event, hidden: !d.event, version: d.version };
  const rolls = view.dice.map((d) => {
    const e = d.event;
    const icons = e && e.type === "DiceRolled" ? faceImages(e.faces, 6, e) : [];
    return line(d.version, eventWords(asEvent(d)), asEvent(d), icons);
  });
  clear(box).append(
    el("h2", { text: `Turn ${view.number} · versions ${view.from_version}–${view.to_version}` }),
    el("h3", { text: "Commands" }),
    view.commands.length ? el("ol", { class: "turn-list" }, view.commands.map((c) => line(c.version,
      `${seatWords(c.seat)}: ${c.command ? commandWords(c.command) : "(hidden from you)"}`, byVersion.get(c.version))))
      : el("p", { class: "hint", text: "none" }),
    el("h3", { text: "Dice and draws" }),
    rolls.length ? el("ol", { class: "turn-list" }, rolls) : el("p", { class: "hint", text: "none" }),
    el("h3", { text: "Decisions" }),
    view.decisions.length ? el("ol", { class: "turn-list" }, view.decisions.map((d) => line(d.version, eventWords(asEvent(d)), asEvent(d))))
      : el("p", { class: "hint", text: "none" }),
    el("h3", { text: "What happened" }),
    el("ol", { class: "turn-list" }, view.log.map((l) => el("li", { text: l }))),
    el("details", {}, el("summary", { text: `Its ${view.events.length} events` }),
      el("ol", { class: "events" }, view.events.map((e) => eventItem(e)))));
}

// The whole payload of an event behind a toggle, drawn only when opened (a DrawRequested lists up to 64 cards).
function payloadToggle(event) {
  const details = el("details", { class: "payload-toggle" }, el("summary", { text: "payload", "aria-label": `The payload of version ${event.version}` }));
  details.addEventListener("toggle", () => {
    if (details.open && !details.querySelector("pre")) details.append(el("pre", { class: "payload", text: payloadText(event) }));
  });
  return details;
}

function eventItem(e) {
  return el("li", { class: `${e.undone ? "undone" : ""}${e.hidden ? " hidden" : ""}`, "data-version": e.version, "data-undone": e.undone ? "true" : undefined },
    el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); go(e.version); } }, `v${e.version}`), ` ${seatWords(e.seat)}: ${eventWords(e)}`, payloadToggle(e));
}

function renderEvents() {
  $("event-count").textContent = String(page.events.length);
  const list = clear($("events"));
  list.append(...page.events.map(eventItem));
}

async function renderDice() {
  const box = clear($("dice"));
  box.append(el("h2", { text: "Dice proof" }));
  let proof;
  try { proof = await api.get(`/games/${gameId}/dice`); } catch (error) { box.append(el("p", { text: error.message })); return; }
  box.append(el("dl", { class: "facts" },
    el("dt", { text: "Dice" }), el("dd", { text: proof.dice_mode }),
    el("dt", { text: "Commitment" }), el("dd", { class: "hash", text: proof.commitment || "— (manual dice)" }),
    el("dt", { text: "Seed" }), el("dd", { class: "hash", text: proof.seed || (proof.dice_mode === "server" ? "secret until the game ends" : "—") }),
    el("dt", { text: "Seed matches" }), el("dd", { class: proof.seed_matches_commitment === false ? "bad" : "", text: proof.seed_matches_commitment === null ? "not revealed yet" : proof.seed_matches_commitment ? "yes: sha256(seed) = commitment" : "NO" })));
  const rows = proof.chances.map((c) => el("tr", { "data-version": c.version },
    el("td", {}, el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); go(c.version); } }, `v${c.version}`)),
    el("td", { text: String(c.k) }), el("td", { text: c.hidden ? "(hidden from you)" : c.reason.replace(/-/g, " ") }),
    el("td", {}, c.hidden ? "" : c.type === "DiceRolled" ? el("span", { class: "dice-line" }, faceImages(c.result, 6, c), " ", c.result.map((f) => faceWords(f, 6, c)).join(", ")) : cardsWords(c.result, c.deck)),
    el("td", { text: c.source }),
    el("td", { text: c.rederived === null ? "—" : c.rederived ? "✔ re-derived" : "✘ differs" })));
  box.append(el("div", { class: "scroll" }, el("table", { class: "dice-table" },
    el("thead", {}, el("tr", {}, ["Version", "k", "For", "Result", "Source", "Check"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows))));
}

async function verify() {
  const badge = $("verify-badge");
  badge.className = "verify";
  badge.textContent = "verifying…";
  try {
    const { verification: v } = await api.post(`/games/${gameId}/verify`);
    badge.className = `verify ${v.ok ? "ok" : "bad"}`;
    badge.textContent = v.ok ? `verified: ${v.events} events` : `divergence at version ${v.divergence.version}`;
    const secrets = v.digest_only && v.digest_only.length
      ? ` ${v.digest_only.length} events hidden from you are checked by their digest only until the game ends; download your log now and check it later with dicelog verify --against the final log.`
      : v.view_key_revealed ? " Every hidden card checked against the revealed view key." : "";
    $("verify-detail").textContent = v.ok
      ? `Hash chain intact; every event re-derived from its command${v.seed_revealed ? `; ${v.dice_checked} server results re-derived from the revealed seed` : "; the dice seed is not revealed yet"}.${secrets}`
      : `${v.divergence.check} check failed: expected ${v.divergence.expected}, found ${v.divergence.found}`;
  } catch (error) {
    badge.className = "verify bad";
    badge.textContent = "could not verify";
    showProblem(error);
  }
}

// The log as this reader may hold it (GET /export: JSON Lines), checkable offline with `dicelog verify`.
async function exportLog() {
  try {
    const text = await api.text(`/games/${gameId}/export`);
    const lines = text.split("\n").filter((line) => line.trim());
    const header = JSON.parse(lines[0]);
    const blob = new Blob([text], { type: "application/jsonl" });
    const a = $("export-link");
    if (a.href) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(blob);
    a.download = `dicelog-${gameId}.jsonl`;
    a.hidden = false;
    a.textContent = `${a.download} (${header.format}, ${lines.length - 1} events)`;
    a.click();
  } catch (error) { showProblem(error); }
}

function step(kind, direction) {
  const list = kind === "turn" ? page.turns : page.rounds;
  const now = page.wanted;
  if (direction > 0) {
    const next = list.find((t) => t.last > now);
    if (next) go(next.last);
  } else {
    const before = list.filter((t) => t.last < now);
    if (before.length) go(before[before.length - 1].last);
    else go(1);
  }
}

function setRange() {
  const max = latest();
  $("version").max = String(max);
  $("version-input").max = String(max);
  $("version-max").textContent = String(max);
  page.turns = spans("turn");
  page.rounds = spans("round");
}

async function main() {
  $("table-link").setAttribute("href", `/play/${gameId}${token ? `#token=${encodeURIComponent(token)}` : ""}`);
  $("who").textContent = token ? "Reading with a token" : "Spectator";
  try {
    const rulesets = api.get("/rulesets");  // asked with the game, not after it
    page.game = await api.get(`/games/${gameId}`);
    document.body.dataset.ruleset = page.game.ruleset;
    // The ruleset's table module (GET /rulesets' ``table``; the generic one when it has none) and
    // the content it names things with, read with the events.
    const info = (await rulesets).find((r) => r.name === page.game.ruleset);
    page.view = await import(info ? info.table : "/static/js/generic.js");
    const [events] = await Promise.all([api.allEvents(gameId), page.view.load ? page.view.load(api) : null]);
    page.events = events;
  } catch (error) {
    showProblem(error);
    return;
  }
  setRange();
  renderEvents();
  const range = $("version");
  range.addEventListener("input", () => go(Number(range.value)));
  $("version-input").addEventListener("change", (e) => go(Number(e.target.value)));
  $("prev-version").addEventListener("click", () => go(page.wanted - 1));
  $("next-version").addEventListener("click", () => go(page.wanted + 1));
  $("prev-turn").addEventListener("click", () => step("turn", -1));
  $("next-turn").addEventListener("click", () => step("turn", 1));
  $("prev-round").addEventListener("click", () => step("round", -1));
  $("next-round").addEventListener("click", () => step("round", 1));
  $("latest").addEventListener("click", () => go(latest()));
  $("verify").addEventListener("click", verify);
  $("export").addEventListener("click", exportLog);
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, "")).get("version");
  go(fromHash ? Number(fromHash) : latest());
  await Promise.all([renderDice(), verify()]);
  document.body.dataset.ready = "true";
  if (!page.game.result) {
    follow(gameId, token, {
      after: latest(),
      onEvent: (event) => {
        if (event.version <= latest()) return;
        const following = page.wanted === latest();
        page.events.push(event);
        setRange();
        $("events").append(eventItem(event));
        $("event-count").textContent = String(page.events.length);
        if (following) go(latest());
      },
    });
  }
}

// Another token in the fragment (a link to the same game as another seat) is another reader.
window.addEventListener("hashchange", () => { if (tokenFromFragment() !== token) window.location.reload(); });

main();
