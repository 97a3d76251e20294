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
