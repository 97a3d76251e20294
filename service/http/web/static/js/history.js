// The history and dispute view: the board at any version (GET /state?version=N), stepping by
// version, turn or round, the turn's commands, dice, decisions and events (undone ones marked),
// the dice proof, a verify badge and the export of the log. All through the reader's token.

import { Api, ApiError, clear, content, el, gameIdFromPath, problemSentence, tokenFromFragment } from "./api.js";
import { boardFromState, initiativeFromState, renderBoard, trackFigures } from "/web/rulesets/mice-and-mystics/board.js";
import { commandLabel, eventText, faceIcon, faceLabel, miceNames, payloadText, pendingText } from "/web/rulesets/mice-and-mystics/labels.js";
import { follow } from "./live.js";
import { renderValue } from "./generic.js";

const MICE = "mice-and-mystics";
// Figure -> space, from a state's board (space -> figures).
const placements = (s) => Object.fromEntries(Object.entries(s.board || {}).flatMap(([space, figs]) => figs.map((f) => [f, space])));
const gameId = gameIdFromPath();
const token = tokenFromFragment();
const api = new Api(token);
const $ = (id) => document.getElementById(id);

const page = {
  game: null, events: [], turns: [], rounds: [], shown: 0, wanted: 0, loading: false,
  states: new Map(), library: new Map(), mice: new Map(), minions: new Map(), turnCache: new Map(),
  words: (x) => x,
};

// Players' words for an id (labels.js miceNames): Rat Warrior 1, Collin's Sword, Kitchen Tunnels · space 5.
function names(id) { return page.words(id); }

function isMice() { return page.game && page.game.ruleset === MICE; }

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

// Turn and round spans, as GET /turns/{n} and /rounds/{n} count them: a turn runs from its
// TurnStarted to the event before the next turn or round starts; a round, from its RoundStarted.
function spans(kind) {
  const starts = kind === "turn" ? "TurnStarted" : "RoundStarted";
  const events = page.events;
  const begins = events.filter((e) => e.type === starts).map((e) => e.version);
  return begins.map((first, i) => {
    const end = events.find((e) => e.version > first && (e.type === starts || (kind === "turn" && e.type === "RoundStarted")));
    return { number: i + 1, first, last: end ? end.version - 1 : events[events.length - 1].version };
  });
}

function latest() { return page.events.length ? page.events[page.events.length - 1].version : 1; }

async function stateAt(version) {
  if (page.states.has(version)) return page.states.get(version);
  const promise = api.get(`/games/${gameId}/state`, { version });
  page.states.set(version, promise);
  if (page.states.size > 400) page.states.delete(page.states.keys().next().value);
  try { return await promise; } catch (e) { page.states.delete(version); throw e; }
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
// Quotas). One replay is in flight at a time and only the version wanted when it answers is read
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
      const quota = page.states.has(version) ? null : api.quota;
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
  if (isMice()) {
    const board = boardFromState(s, page.library);
    const picture = renderBoard(board, {
      library: page.library, party: new Set(s.party || []), names, placements: placements(s), wounds: s.wounds || {}, effects: s.effects || {}, version,
    });
    clear($("board")).append(picture);
    renderTracks(board);
    renderInitiative(initiativeFromState(s, names));
  } else {
    const box = clear($("board"));
    box.dataset.version = String(version);
    box.append(renderValue(s, "state"));
  }
  const event = page.events[version - 1];
  const lines = [`Version ${version} of ${latest()}`];
  if (event) lines.push(`${eventText(event, names, isMice())}${event.undone ? " (undone)" : ""}${event.round ? ` · round ${event.round}` : ""} · by ${event.seat}`);
  if (at.pending) lines.push(`pending: ${pendingText(at.pending, names)}`);
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

function renderTracks(board) {
  clear($("tracks")).append(...trackFigures(board, el, names));
}

function renderInitiative(view) {
  const box = clear($("initiative"));
  box.append(el("h2", { text: `Initiative · round ${view.round}` }));
  if (!view.cards.length) { box.append(el("p", { class: "hint", text: "The track is not laid yet." })); return; }
  box.append(el("ol", { class: "initiative" }, view.cards.map((c) => el("li", { class: `${c.kind}${c.current ? " current" : ""}` },
    el("span", { class: "marker", text: c.current ? "▶ now" : "" }), el("span", { class: "name", text: c.name }), el("span", { class: "kind", text: c.kind })))));
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
  const mice = isMice();
  const at = (version) => el("a", { href: "#", class: "v", onclick: (e) => { e.preventDefault(); go(version); } }, `v${version}`);
  const byVersion = new Map(view.events.map((e) => [e.version, e]));
  // one compact line per command, roll, draw or decision; the payload behind its own toggle
  const line = (version, words, event, icons = []) => el("li", { "data-version": version },
    at(version), " ", icons, " ", words, event ? payloadToggle(event) : null);
  const asEvent = (d) => byVersion.get(d.version) || { type: d.event ? d.event.type : "hidden", payload: d.event, hidden: !d.event, version: d.version };
  const rolls = view.dice.map((d) => {
    const e = d.event;
    const icons = e && e.type === "DiceRolled" && mice ? e.faces.map((f) => faceIcon(f, e.reason === "grapes" ? 2 : 6, true)) : [];
    return line(d.version, eventText(asEvent(d), names, mice), asEvent(d), icons);
  });
  clear(box).append(
    el("h2", { text: `Turn ${view.number} · versions ${view.from_version}–${view.to_version}` }),
    el("h3", { text: "Commands" }),
    view.commands.length ? el("ol", { class: "turn-list" }, view.commands.map((c) => line(c.version,
      `${c.seat}: ${c.command ? commandLabel(c.command, names, false, mice) : "(hidden from you)"}`, byVersion.get(c.version))))
      : el("p", { class: "hint", text: "none" }),
    el("h3", { text: "Dice and draws" }),
    rolls.length ? el("ol", { class: "turn-list" }, rolls) : el("p", { class: "hint", text: "none" }),
    el("h3", { text: "Decisions" }),
    view.decisions.length ? el("ol", { class: "turn-list" }, view.decisions.map((d) => line(d.version, eventText(asEvent(d), names, mice), asEvent(d))))
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
    el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); go(e.version); } }, `v${e.version}`), ` ${e.seat}: ${eventText(e, names, isMice())}`, payloadToggle(e));
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
  const mice = isMice();
  box.append(el("dl", { class: "facts" },
    el("dt", { text: "Dice" }), el("dd", { text: proof.dice_mode }),
    el("dt", { text: "Commitment" }), el("dd", { class: "hash", text: proof.commitment || "— (manual dice)" }),
    el("dt", { text: "Seed" }), el("dd", { class: "hash", text: proof.seed || (proof.dice_mode === "server" ? "secret until the game ends" : "—") }),
    el("dt", { text: "Seed matches" }), el("dd", { class: proof.seed_matches_commitment === false ? "bad" : "", text: proof.seed_matches_commitment === null ? "not revealed yet" : proof.seed_matches_commitment ? "yes: sha256(seed) = commitment" : "NO" })));
  const rows = proof.chances.map((c) => el("tr", { "data-version": c.version },
    el("td", {}, el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); go(c.version); } }, `v${c.version}`)),
    el("td", { text: String(c.k) }), el("td", { text: c.hidden ? "(hidden from you)" : c.reason.replace(/-/g, " ") }),
    el("td", {}, c.hidden ? "" : c.type === "DiceRolled" ? el("span", { class: "dice-line" }, mice ? c.result.map((f) => faceIcon(f, 6, true)) : [], " ", c.result.map((f) => faceLabel(f, 6, mice)).join(", ")) : c.result.map(names).join(", ")),
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
    page.game = await api.get(`/games/${gameId}`);
    document.body.dataset.ruleset = page.game.ruleset;
    if (isMice()) {
      const [tiles, mice, minions, items, abilities, equipment] = await Promise.all([
        content(api, `/content/${MICE}/tiles`), content(api, `/content/${MICE}/mice`), content(api, `/content/${MICE}/minions`),
        content(api, `/content/${MICE}/search-cards`), content(api, `/content/${MICE}/abilities`),
        content(api, `/content/${MICE}/equipment`).catch(() => [])]);
      page.library = new Map(tiles.map((t) => [t.id, t]));
      page.mice = new Map(mice.map((m) => [m.id, m]));
      page.minions = new Map(minions.map((m) => [m.id, m]));
      page.words = miceNames({ mice: page.mice, minions: page.minions, tiles: page.library,
        items: new Map([...equipment, ...items].map((c) => [c.id, c])), abilities: new Map(abilities.map((a) => [a.id, a])) });
    }
    page.events = await api.allEvents(gameId);
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
