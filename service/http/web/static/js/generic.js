// A ruleset without a dedicated picture: its views (board, initiative, state) as nested lists.
import { el } from "./api.js";

export function renderValue(value, name = "value", depth = 0) {
  if (value === null || value === undefined) return el("span", { class: "nil", text: "—" });
  if (Array.isArray(value)) {
    if (!value.length) return el("span", { class: "nil", text: "none" });
    if (value.every((v) => v === null || typeof v !== "object")) {
      return el("span", { class: "list" }, value.map((v, i) => el("span", { class: `item${v === "?" ? " masked" : ""}`, text: v === "?" ? "? (hidden)" : String(v) }, i < value.length - 1 ? "" : null)));
    }
    return el("ol", { class: "values" }, value.map((v, i) => el("li", {}, renderValue(v, `${name}[${i}]`, depth + 1))));
  }
  if (typeof value === "object") {
    const entries = Object.entries(value);
    if (!entries.length) return el("span", { class: "nil", text: "empty" });
    return el("dl", { class: `values depth-${Math.min(depth, 3)}`, "data-name": name },
      entries.flatMap(([k, v]) => [el("dt", { text: k.replace(/_/g, " ") }), el("dd", { "data-key": k }, renderValue(v, k, depth + 1))]));
  }
  return el("span", { class: "scalar", text: String(value) });
}

// The table module's hook (docs/web-table.md): the board view as nested lists.
export function renderTable(page, { board }) {
  if (page.board) board.append(renderValue(page.board, "board"));
}

// An event's type and its fields in words, for an event no table module words: a long list is
// counted, not listed (a DrawRequested names up to 64 cards), a nested object by its size, a string
// through ``names`` (content ids to printed names) and without the rulebook reference a reason
// carries ("(… §…)", which stays in the payload behind the toggle); the shell's history page and
// the rulesets' eventText fall back on it.
export function fieldsText(event, names = (x) => x) {
  const p = event.payload;
  const rest = Object.entries(p).filter(([k]) => k !== "type" && k !== "game" && k !== "state" && k !== "setup");
  const text = (x) => {
    const plain = x.replace(/\s*\((?:[^()]|\([^()]*\))*§(?:[^()]|\([^()]*\))*\)/g, "");
    return plain.length > 60 ? `${plain.slice(0, 57)}…` : plain;
  };
  const short = (v) => {
    if (Array.isArray(v)) {
      if (v.length > 6 || v.some((x) => x && typeof x === "object")) return `${v.length} item${v.length === 1 ? "" : "s"}`;
      return v.map((x) => (typeof x === "string" ? names(x) : String(x))).join(", ");
    }
    if (v && typeof v === "object") return `${Object.keys(v).length} fields`;
    return typeof v === "string" ? text(names(v)) : String(v);
  };
  const body = rest.map(([k, v]) => `${k.replace(/_/g, " ")}: ${short(v)}`).join(", ");
  return `${event.type}${body ? ` — ${body}` : ""}`;
}
